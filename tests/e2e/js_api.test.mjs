// The JS classes as a page or a Node program uses them (pkg/node and pkg/web): the
// examples from the design doc and the doc comments, on a virtual clock, so nothing waits.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { describe, test } from 'node:test';
import { ROOT } from './azqueue_server.mjs';

/** @type {typeof import('../../pkg/node/azqueue.js')} */
const { QueueService } = createRequire(import.meta.url)(
  path.join(ROOT, 'pkg', 'node', 'azqueue.js'),
);

/** A clock that moves only when told: the teaching page's speed control works the same way. */
function virtualClock(start = Date.UTC(2030, 0, 1)) {
  let now = start;
  return {
    now: () => now,
    advance: (/** @type {number} */ secs) => {
      now += secs * 1000;
    },
  };
}

describe('QueueService and Queue (nodejs build)', () => {
  test('the design doc example, with SDK-shaped results', async () => {
    const clock = virtualClock();
    const service = await QueueService.open({ store: 'memory', now: clock.now });
    const q = await service.createQueue('orders', { metadata: { team: 'web' } });
    assert.equal(q.name, 'orders');
    const sent = await q.sendMessage('hello', { visibilityTimeout: 0, messageTimeToLive: 3600 });
    assert.equal(sent.insertedOn.getTime(), clock.now());
    const {
      receivedMessageItems: [m],
    } = await q.receiveMessages({ numberOfMessages: 1, visibilityTimeout: 30 });
    assert.equal(m.messageText, 'hello');
    const updated = await q.updateMessage(m.messageId, m.popReceipt, '50% done', 60);
    assert.equal(updated.nextVisibleOn.getTime(), clock.now() + 60_000);
    await assert.rejects(q.deleteMessage(m.messageId, m.popReceipt), {
      name: 'QueueError',
      code: 'MessageNotFound',
      statusCode: 404,
    });
    await q.deleteMessage(m.messageId, updated.popReceipt);
    assert.deepEqual(await q.getProperties(), {
      metadata: { team: 'web' },
      approximateMessagesCount: 0,
    });
  });

  test('virtual time: a 7-day TTL passes without waiting', async () => {
    const clock = virtualClock();
    const service = await QueueService.open({ now: clock.now });
    const q = await service.createQueue('week');
    await q.sendMessage('expires');
    clock.advance(7 * 24 * 3600 - 1);
    assert.equal((await q.peekMessages()).peekedMessageItems.length, 1);
    clock.advance(1);
    assert.equal((await q.peekMessages()).peekedMessageItems.length, 0);
  });

  test('events, inspection and the next deadline describe the queue for a UI', async () => {
    const clock = virtualClock();
    const service = await QueueService.open({ now: clock.now });
    /** @type {string[]} */
    const events = [];
    const stop = service.subscribe((e) => events.push(`${e.type}:${'queue' in e ? e.queue : ''}`));
    const q = await service.createQueue('ui-queue');
    await q.sendMessage('a', { visibilityTimeout: 5 });
    assert.equal(service.nextDeadline()?.getTime(), clock.now() + 5_000);
    const [msg] = service.inspect().accounts[0].queues[0].messages;
    assert.equal(msg.state, 'invisible');
    clock.advance(5);
    assert.equal(service.inspect().accounts[0].queues[0].messages[0].state, 'visible');
    stop();
    await q.clearMessages();
    assert.deepEqual(events, ['queueCreated:ui-queue', 'sent:ui-queue']);
  });

  test('listQueues works with for..of and for await, as SDK code is written', async () => {
    const service = await QueueService.open();
    for (const n of ['b-queue', 'a-queue', 'c-other']) await service.createQueue(n);
    /** @type {string[]} */
    const names = [];
    for await (const item of service.listQueues({ prefix: '' })) names.push(item.name);
    assert.deepEqual(names, ['a-queue', 'b-queue', 'c-other']);
    assert.deepEqual(
      service.listQueues({ prefix: 'c' }).map((i) => i.name),
      ['c-other'],
    );
  });

  test('bad arguments throw QueueErrors with the REST codes', async () => {
    const service = await QueueService.open();
    assert.throws(() => service.queue('NOPE'), { code: 'InvalidResourceName', statusCode: 400 });
    const q = await service.createQueue('args');
    await assert.rejects(q.receiveMessages({ numberOfMessages: 1.5 }), {
      code: 'InvalidQueryParameterValue',
    });
    await assert.rejects(q.sendMessage('x', { messageTimeToLive: 0 }), {
      code: 'InvalidQueryParameterValue',
    });
    await assert.rejects(QueueService.open({ accounts: 'missing-key' }), { code: 'InvalidInput' });
    await assert.rejects(QueueService.open({ store: 'indexeddb' }), { code: 'StoreUnavailable' });
  });
});

/**
 * What a caller can observe of the message results, ids and receipts aside: prototypes, own
 * property names in order, their descriptors and value kinds, and the JSON. Run with the Node
 * build, whose result_shapes.js reads strings with `Buffer`, and with the web build in a
 * process without `Buffer` (as in a browser or workerd), which reads them with a
 * `TextDecoder`, and with code generation from strings refused, as a strict Content Security
 * Policy would: both ways must give the same objects.
 */
const DESCRIBE_RESULTS = `
  import fs from 'node:fs';
  import { createRequire } from 'node:module';
  const [pkgNode, pkgWeb, wasm, build] = process.argv.slice(1);
  let QueueService;
  if (build === 'node') {
    ({ QueueService } = createRequire(import.meta.url)(pkgNode));
  } else {
    delete globalThis.Buffer;
    const web = await import(pkgWeb);
    web.initSync({ module: new WebAssembly.Module(fs.readFileSync(wasm)) });
    ({ QueueService } = web);
  }
  const describe = (o) => ({
    plain: Object.getPrototypeOf(o) === Object.prototype,
    properties: Object.entries(Object.getOwnPropertyDescriptors(o)).map(([k, d]) => [
      k,
      d.writable && d.enumerable && d.configurable && !d.get && !d.set,
      d.value instanceof Date ? 'Date' : typeof d.value,
    ]),
    json: JSON.stringify(o, (k, v) => (k === 'messageId' || k === 'popReceipt' ? v.length : v)),
    clone: JSON.stringify(structuredClone(o)) === JSON.stringify(o),
  });
  const service = await QueueService.open({ now: () => Date.UTC(2030, 0, 1) });
  const q = await service.createQueue('shapes');
  const sent = await q.sendMessage('\u{FEFF}hé \u{1F600}', { visibilityTimeout: 0, messageTimeToLive: 60 });
  const received = await q.receiveMessages({ numberOfMessages: 1, visibilityTimeout: 5 });
  const [item] = received.receivedMessageItems;
  if (item.messageId !== sent.messageId) throw new Error('another message came back');
  await q.deleteMessage(item.messageId, item.popReceipt);
  console.log(JSON.stringify([describe(sent), describe(received), describe(item)]));
`;

/** @param {'node' | 'web'} build @param {string[]} nodeFlags */
function describeResults(build, nodeFlags) {
  const args = [
    path.join(ROOT, 'pkg', 'node', 'azqueue.js'),
    path.join(ROOT, 'pkg', 'web', 'azqueue.js'),
    path.join(ROOT, 'pkg', 'web', 'azqueue_bg.wasm'),
    build,
  ];
  return JSON.parse(
    execFileSync(
      process.execPath,
      [...nodeFlags, '--input-type=module', '-e', DESCRIBE_RESULTS, ...args],
      { encoding: 'utf8' },
    ),
  );
}

describe("message results are the SDK's plain objects on every build", () => {
  test('sendMessage and receiveMessages results: plain objects, own data properties, Dates', () => {
    const viaBuffer = describeResults('node', []);
    const viaTextDecoder = describeResults('web', ['--disallow-code-generation-from-strings']);
    assert.deepEqual(viaBuffer, viaTextDecoder);
    const [sent, , item] = viaBuffer;
    assert.deepEqual(sent.properties, [
      ['messageId', true, 'string'],
      ['popReceipt', true, 'string'],
      ['insertedOn', true, 'Date'],
      ['expiresOn', true, 'Date'],
      ['nextVisibleOn', true, 'Date'],
    ]);
    // The byte-order mark the text starts with is the caller's, and comes back.
    assert.equal(
      item.json,
      '{"messageId":36,"insertedOn":"2030-01-01T00:00:00.000Z","expiresOn":"2030-01-01T00:01:00.000Z",' +
        '"popReceipt":24,"nextVisibleOn":"2030-01-01T00:00:05.000Z","dequeueCount":1,"messageText":"\u{FEFF}hé \u{1F600}"}',
    );
    assert.ok(sent.plain && sent.clone && item.plain && item.clone);
  });
});

describe('web build (pkg/web) outside a browser', () => {
  test('initSync with a compiled module, then the fetch handler answers', async () => {
    /** @type {typeof import('../../pkg/web/azqueue.js')} */
    const { initSync, QueueService: WebQueueService } = await import(
      path.join(ROOT, 'pkg', 'web', 'azqueue.js')
    );
    const bytes = fs.readFileSync(path.join(ROOT, 'pkg', 'web', 'azqueue_bg.wasm'));
    initSync({ module: new WebAssembly.Module(bytes) });
    const service = await WebQueueService.open({ anonymous: true });
    const handle = service.fetchHandler();
    const created = await handle(
      new Request('http://127.0.0.1:10001/devstoreaccount1/webq', {
        method: 'PUT',
        headers: { 'x-ms-version': '2026-04-06' },
      }),
    );
    assert.equal(created.status, 201);
    assert.deepEqual(
      service.listQueues().map((q) => q.name),
      ['webq'],
    );
  });
});
