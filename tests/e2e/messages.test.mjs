// Message operations through the official JS SDK: send options and limits, receive 1..32,
// visibility and reappearance, pop receipts, peek, update, delete, clear, and TTL expiry.
// Waits are real but short (about a second), because the server runs on the wall clock.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { QueueServiceClient } from '@azure/storage-queue';
import { pause, rejectsWith, startServer, uniqueName } from './azqueue_server.mjs';

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
/** @type {QueueServiceClient} */
let service;
before(async () => {
  server = await startServer();
  service = QueueServiceClient.fromConnectionString(server.connectionString);
});
after(async () => {
  await server?.stop();
});

/** @param {string} prefix */
async function freshQueue(prefix) {
  const q = service.getQueueClient(uniqueName(prefix));
  await q.create();
  return q;
}

const texts = (/** @type {import('@azure/storage-queue').QueueReceiveMessageResponse} */ r) =>
  r.receivedMessageItems.map((m) => m.messageText);

describe('send', () => {
  test('answers the SDK shape with dates; defaults: visible now, 7 days to live', async () => {
    const q = await freshQueue('send');
    const before = Date.now();
    const sent = await q.sendMessage('hello');
    assert.match(sent.messageId, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    assert.ok(sent.popReceipt.length > 0);
    for (const d of [sent.insertedOn, sent.expiresOn, sent.nextVisibleOn])
      assert.ok(d instanceof Date);
    assert.ok(Math.abs(sent.insertedOn.getTime() - before) < 5_000);
    assert.equal(sent.expiresOn.getTime() - sent.insertedOn.getTime(), 7 * 24 * 3600 * 1000);
    assert.equal(sent.nextVisibleOn.getTime(), sent.insertedOn.getTime());
  });

  test('a visibility delay hides the message from receive and peek', async () => {
    const q = await freshQueue('delay');
    const sent = await q.sendMessage('later', { visibilityTimeout: 60 });
    assert.equal(sent.nextVisibleOn.getTime() - sent.insertedOn.getTime(), 60_000);
    assert.deepEqual((await q.receiveMessages()).receivedMessageItems, []);
    assert.deepEqual((await q.peekMessages()).peekedMessageItems, []);
    assert.equal((await q.getProperties()).approximateMessagesCount, 1);
  });

  test('TTL -1 never expires (year 9999); TTL must outlast the visibility delay', async () => {
    const q = await freshQueue('ttl');
    const forever = await q.sendMessage('forever', { messageTimeToLive: -1 });
    assert.equal(forever.expiresOn.getUTCFullYear(), 9999);
    const hour = await q.sendMessage('hour', { messageTimeToLive: 3600 });
    assert.equal(hour.expiresOn.getTime() - hour.insertedOn.getTime(), 3_600_000);
    await rejectsWith(
      assert,
      q.sendMessage('x', { visibilityTimeout: 60, messageTimeToLive: 60 }),
      400,
      'InvalidQueryParameterValue',
    );
    await rejectsWith(assert, q.sendMessage('x', { messageTimeToLive: 0 }), 400);
    await rejectsWith(
      assert,
      q.sendMessage('x', { visibilityTimeout: 604_801 }),
      400,
      'OutOfRangeQueryParameterValue',
    );
    await rejectsWith(
      assert,
      q.sendMessage('x', { visibilityTimeout: -1 }),
      400,
      'OutOfRangeQueryParameterValue',
    );
  });

  test('TTL past 2^31−1 (Number.MAX_SAFE_INTEGER as "forever") lives until 9999-12-31', async () => {
    const q = await freshQueue('ttl-max');
    const sent = await q.sendMessage('practically forever', {
      messageTimeToLive: Number.MAX_SAFE_INTEGER,
    });
    assert.equal(sent.expiresOn.toISOString(), '9999-12-31T23:59:59.000Z');
    const [peeked] = (await q.peekMessages()).peekedMessageItems;
    assert.equal(peeked.expiresOn.toISOString(), '9999-12-31T23:59:59.000Z');
    const [got] = (await q.receiveMessages()).receivedMessageItems;
    assert.equal(got.messageText, 'practically forever');
    assert.equal(got.expiresOn.toISOString(), '9999-12-31T23:59:59.000Z');
  });

  test('64 KiB is the limit, counted in UTF-8 bytes after XML decoding', async () => {
    const q = await freshQueue('size');
    await q.sendMessage('a'.repeat(64 * 1024));
    await rejectsWith(assert, q.sendMessage('a'.repeat(64 * 1024 + 1)), 413, 'RequestBodyTooLarge');
    // '<' travels as '&lt;' (4 bytes on the wire) but counts as 1 (the raw body may be up to
    // 131 584 bytes, so keep the escaped form under that).
    const escaped = '<'.repeat(16 * 1024) + 'a'.repeat(48 * 1024);
    await q.sendMessage(escaped);
    await rejectsWith(assert, q.sendMessage(`${escaped}a`), 413, 'RequestBodyTooLarge');
    // '€' is 3 bytes of UTF-8: 21 845 fit (65 535 bytes), 21 846 do not.
    await q.sendMessage('\u20ac'.repeat(21_845));
    await rejectsWith(assert, q.sendMessage('\u20ac'.repeat(21_846)), 413, 'RequestBodyTooLarge');
    const peeked = await q.peekMessages({ numberOfMessages: 3 });
    assert.deepEqual(
      peeked.peekedMessageItems.map((m) => m.messageText.length),
      [65_536, 65_536, 21_845],
    );
  });

  test('unicode and XML special characters round-trip exactly', async () => {
    const q = await freshQueue('chars');
    const samples = [
      '<tag attr="v">&amp; \'quoted\'</tag>',
      'emoji \u{1F600} and \u00e9\u00e8 \u4e2d\u6587',
      '  spaces kept  ',
      '',
    ];
    for (const s of samples) await q.sendMessage(s);
    const got = await q.receiveMessages({ numberOfMessages: 32 });
    assert.deepEqual(texts(got), samples);
  });

  test('sending to a missing queue → 404 QueueNotFound', async () => {
    await rejectsWith(
      assert,
      service.getQueueClient(uniqueName('nosuch')).sendMessage('x'),
      404,
      'QueueNotFound',
    );
  });
});

describe('receive and peek', () => {
  test('1 by default, up to 32 at once, in order; 0 and 33 are out of range', async () => {
    const q = await freshQueue('recv');
    for (let i = 0; i < 40; i++) await q.sendMessage(`m${i}`);
    assert.deepEqual(texts(await q.receiveMessages()), ['m0']);
    const batch = await q.receiveMessages({ numberOfMessages: 32 });
    assert.deepEqual(
      texts(batch),
      Array.from({ length: 32 }, (_, i) => `m${i + 1}`),
    );
    assert.ok(batch.receivedMessageItems.every((m) => m.dequeueCount === 1));
    assert.deepEqual(
      texts(await q.receiveMessages({ numberOfMessages: 32 })),
      Array.from({ length: 7 }, (_, i) => `m${i + 33}`),
    );
    await rejectsWith(
      assert,
      q.receiveMessages({ numberOfMessages: 33 }),
      400,
      'OutOfRangeQueryParameterValue',
    );
    await rejectsWith(
      assert,
      q.receiveMessages({ numberOfMessages: 0 }),
      400,
      'OutOfRangeQueryParameterValue',
    );
    await rejectsWith(
      assert,
      q.receiveMessages({ visibilityTimeout: 0 }),
      400,
      'OutOfRangeQueryParameterValue',
    );
  });

  test('peek changes nothing: no receipt, dequeue count unchanged, still receivable', async () => {
    const q = await freshQueue('peek');
    await q.sendMessage('look');
    const p1 = await q.peekMessages({ numberOfMessages: 32 });
    assert.equal(p1.peekedMessageItems.length, 1);
    assert.equal(p1.peekedMessageItems[0].dequeueCount, 0);
    // No receipt from a peek: the SDK's type has none, and the answer must not either.
    const peeked = /** @type {Record<string, unknown>} */ (
      /** @type {unknown} */ (p1.peekedMessageItems[0])
    );
    assert.equal(peeked.popReceipt, undefined);
    const got = await q.receiveMessages();
    assert.equal(got.receivedMessageItems[0].dequeueCount, 1);
    assert.deepEqual((await q.peekMessages()).peekedMessageItems, []);
  });

  test('a received message reappears after its timeout with dequeueCount 2 and a new receipt; stale receipts → 404', async () => {
    const q = await freshQueue('again');
    await q.sendMessage('work');
    const first = (await q.receiveMessages({ visibilityTimeout: 1 })).receivedMessageItems[0];
    assert.equal(first.nextVisibleOn.getTime() - Date.now() <= 1_000, true);
    assert.deepEqual((await q.receiveMessages()).receivedMessageItems, []);
    await pause(1_100);
    const second = (await q.receiveMessages({ visibilityTimeout: 30 })).receivedMessageItems[0];
    assert.equal(second.messageId, first.messageId);
    assert.equal(second.dequeueCount, 2);
    assert.notEqual(second.popReceipt, first.popReceipt);
    await rejectsWith(
      assert,
      q.deleteMessage(first.messageId, first.popReceipt),
      404,
      'MessageNotFound',
    );
    await rejectsWith(
      assert,
      q.updateMessage(first.messageId, first.popReceipt, 'x', 0),
      404,
      'MessageNotFound',
    );
    await q.deleteMessage(second.messageId, second.popReceipt);
    assert.equal((await q.getProperties()).approximateMessagesCount, 0);
  });

  test('a receipt stays valid after the timeout if nobody received the message again', async () => {
    const q = await freshQueue('keep');
    await q.sendMessage('slow worker');
    const m = (await q.receiveMessages({ visibilityTimeout: 1 })).receivedMessageItems[0];
    await pause(1_100);
    await q.deleteMessage(m.messageId, m.popReceipt);
    assert.deepEqual((await q.peekMessages()).peekedMessageItems, []);
  });
});

describe('update, delete, clear', () => {
  test('update replaces text and visibility, issues a new receipt, keeps the dequeue count', async () => {
    const q = await freshQueue('update');
    await q.sendMessage('0% done');
    const m = (await q.receiveMessages({ visibilityTimeout: 60 })).receivedMessageItems[0];
    const u = await q.updateMessage(m.messageId, m.popReceipt, '50% done', 0);
    assert.ok(u.popReceipt && u.popReceipt !== m.popReceipt);
    assert.ok(u.nextVisibleOn instanceof Date);
    await rejectsWith(assert, q.deleteMessage(m.messageId, m.popReceipt), 404, 'MessageNotFound');
    const again = (await q.receiveMessages({ visibilityTimeout: 60 })).receivedMessageItems[0];
    assert.equal(again.messageText, '50% done');
    assert.equal(again.dequeueCount, 2);
    // Visibility only: the text stays.
    const u2 = await q.updateMessage(again.messageId, again.popReceipt, undefined, 0);
    assert.equal((await q.peekMessages()).peekedMessageItems[0].messageText, '50% done');
    const receipt = /** @type {string} an update answers one */ (u2.popReceipt);
    await q.deleteMessage(again.messageId, receipt);
    await rejectsWith(
      assert,
      q.updateMessage(again.messageId, receipt, 'x', 0),
      404,
      'MessageNotFound',
    );
  });

  test('delete with an unknown id or a malformed receipt', async () => {
    const q = await freshQueue('del');
    const sent = await q.sendMessage('x');
    await rejectsWith(
      assert,
      q.deleteMessage('00000000-0000-4000-8000-000000000000', sent.popReceipt),
      404,
      'MessageNotFound',
    );
    await rejectsWith(
      assert,
      q.deleteMessage(sent.messageId, 'not base64!'),
      400,
      'InvalidQueryParameterValue',
    );
    await q.deleteMessage(sent.messageId, sent.popReceipt);
  });

  test('clear removes visible and invisible messages', async () => {
    const q = await freshQueue('clear');
    await q.sendMessage('visible');
    await q.sendMessage('hidden', { visibilityTimeout: 300 });
    const r = (await q.receiveMessages({ visibilityTimeout: 300 })).receivedMessageItems[0];
    assert.equal((await q.clearMessages())._response.status, 204);
    assert.equal((await q.getProperties()).approximateMessagesCount, 0);
    await rejectsWith(assert, q.deleteMessage(r.messageId, r.popReceipt), 404, 'MessageNotFound');
  });
});

describe('time to live', () => {
  test('an expired message is gone: not received, not peeked, not counted, its receipt dead', async () => {
    const q = await freshQueue('expire');
    const short = await q.sendMessage('short-lived', { messageTimeToLive: 1 });
    await q.sendMessage('long-lived');
    const r = (await q.receiveMessages({ visibilityTimeout: 1 })).receivedMessageItems[0];
    assert.equal(r.messageId, short.messageId);
    await pause(1_200);
    assert.deepEqual(
      (await q.peekMessages({ numberOfMessages: 32 })).peekedMessageItems.map((m) => m.messageText),
      ['long-lived'],
    );
    assert.equal((await q.getProperties()).approximateMessagesCount, 1);
    await rejectsWith(assert, q.deleteMessage(r.messageId, r.popReceipt), 404, 'MessageNotFound');
    await rejectsWith(
      assert,
      q.updateMessage(r.messageId, r.popReceipt, 'x', 0),
      404,
      'MessageNotFound',
    );
  });
});
