// QueueService.handleRaw, the REST entry point for hosts that are not fetch-native, called
// directly on the nodejs package (anonymous service, so no signatures are needed).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ROOT } from './azqueue_server.mjs';

/** @type {typeof import('../../pkg/node/azqueue.js')} */
const { QueueService } = createRequire(import.meta.url)(
  path.join(ROOT, 'pkg', 'node', 'azqueue.js'),
);
const EMPTY = new Uint8Array();

/**
 * `[name, value, …]` → the `headers` string handleRaw takes.
 * @param {...string} pairs
 */
const head = (...pairs) =>
  ['Host', '127.0.0.1:10001', 'x-ms-version', '2026-04-06', ...pairs].join('\n');

/**
 * Awaits a handleRaw answer and reads it into plain values (freeing the wasm object).
 * @param {ReturnType<import('../../pkg/node/azqueue.js').QueueService['handleRaw']>} out
 */
async function answer(out) {
  const r = await out;
  const headers = r.headers.split('\n');
  const value = {
    status: r.status,
    statusText: r.statusText,
    headers,
    body: Buffer.from(r.body).toString('utf8'),
    errorCode: r.errorCode,
  };
  r.free();
  return value;
}

/**
 * @param {Awaited<ReturnType<typeof answer>>} res
 * @param {string} name
 */
const header = (res, name) => {
  const i = res.headers.findIndex((h, k) => k % 2 === 0 && h === name);
  return i < 0 ? undefined : res.headers[i + 1];
};

test('with the memory store the answer comes back at once, not as a Promise', async () => {
  const service = await QueueService.open({ store: 'memory', anonymous: true });
  const out = service.handleRaw('PUT', '/devstoreaccount1/raw-sync', head(), EMPTY);
  assert.equal(out instanceof Promise, false);
  const created = await answer(out);
  assert.equal(created.status, 201);
  assert.equal(created.body, '');
  assert.match(header(created, 'x-ms-request-id') ?? '', /^[0-9a-f-]{36}$/);
  service.free();
});

test('origin-form and absolute URLs, a message round trip, and the body of a GET ignored', async () => {
  const service = await QueueService.open({ store: 'memory', anonymous: true });
  assert.equal(
    (
      await answer(
        service.handleRaw('PUT', 'http://127.0.0.1:10001/devstoreaccount1/raw-urls', head(), EMPTY),
      )
    ).status,
    201,
  );
  const body = Buffer.from(
    '<QueueMessage><MessageText>héllo &amp; bye</MessageText></QueueMessage>',
  );
  const sent = await answer(
    service.handleRaw(
      'POST',
      '/devstoreaccount1/raw-urls/messages',
      head('Content-Length', String(body.length)),
      body,
    ),
  );
  assert.equal(sent.status, 201, sent.body);
  const peeked = await answer(
    service.handleRaw(
      'GET',
      '/devstoreaccount1/raw-urls/messages?peekonly=true',
      head(),
      Buffer.from('ignored'),
    ),
  );
  assert.equal(peeked.status, 200);
  assert.match(peeked.body, /<MessageText>héllo &amp; bye<\/MessageText>/);
  service.free();
});

test('a repeated header is joined with ", "; names are case-insensitive', async () => {
  const service = await QueueService.open({ store: 'memory', anonymous: true });
  const created = await answer(
    service.handleRaw(
      'PUT',
      '/devstoreaccount1/raw-meta',
      head('x-ms-meta-team', 'web', 'X-MS-META-TEAM', 'ops'),
      EMPTY,
    ),
  );
  assert.equal(created.status, 201);
  const meta = await answer(
    service.handleRaw('GET', '/devstoreaccount1/raw-meta?comp=metadata', head(), EMPTY),
  );
  assert.equal(header(meta, 'x-ms-meta-team'), 'web, ops');
  service.free();
});

test('what HTTP cannot represent is a 400 InvalidInput, never a throw', async () => {
  const service = await QueueService.open({ store: 'memory', anonymous: true });
  for (const [method, url, headers] of [
    ['B@D', '/devstoreaccount1', head()],
    ['GET', 'http://[bad', head()],
    ['GET', '/devstoreaccount1?comp=list', head('bad name', 'x')],
  ]) {
    const res = await answer(service.handleRaw(method, url, headers, EMPTY));
    assert.equal(res.status, 400, `${method} ${url}`);
    assert.equal(res.errorCode, 'InvalidInput');
    assert.equal(res.statusText, 'One of the request inputs is not valid.');
    assert.match(res.body, /<Code>InvalidInput<\/Code>/);
  }
  // Still serving afterwards.
  assert.equal(
    (await answer(service.handleRaw('GET', '/devstoreaccount1?comp=list', head(), EMPTY))).status,
    200,
  );
  service.free();
});

test('inspect() gives a message the inspector moved to the poison queue its origin', async () => {
  const service = await QueueService.open();
  const q = await service.createQueue('work');
  await q.sendMessage('failing');
  const {
    receivedMessageItems: [m],
  } = await q.receiveMessages({ numberOfMessages: 1, visibilityTimeout: 30 });
  const moved = await answer(
    service.handleRaw(
      'POST',
      `/_azqueue/inspect/devstoreaccount1/work/messages/${m.messageId}/poison`,
      head('x-azqueue-dev', '1'),
      EMPTY,
    ),
  );
  assert.equal(moved.status, 200, moved.body);
  const poison = service.inspect().accounts[0].queues.find((x) => x.name === 'work-poison');
  assert.ok(poison, 'work-poison is listed');
  assert.deepEqual(poison.messages[0].origin, {
    queue: 'work',
    messageId: m.messageId,
    dequeueCount: 1,
  });
  assert.equal(poison.messages[0].dequeueCount, 0);
  await service.close();
});
