// QueueService.connection(), the socket-level HTTP/1.1 entry point, called directly on the
// nodejs package (anonymous service, so no signatures are needed): byte counts and take(),
// answers held back until a slow store commits and released in order, closing, the log.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ROOT } from './azqueue_server.mjs';

/** @type {typeof import('../../pkg/node/azqueue.js')} */
const { QueueService, azureErrorClosing } = createRequire(import.meta.url)(
  path.join(ROOT, 'pkg', 'node', 'azqueue.js'),
);

/**
 * One raw request.
 * @param {string} method
 * @param {string} target
 * @param {{ body?: string, extra?: string[] }} [options]
 */
const req = (method, target, { body = '', extra = [] } = {}) =>
  Buffer.from(
    [
      `${method} ${target} HTTP/1.1`,
      'Host: 127.0.0.1:10001',
      'x-ms-version: 2026-04-06',
      `Content-Length: ${Buffer.byteLength(body)}`,
      ...extra,
      '',
      body,
    ].join('\r\n'),
  );
const message = (/** @type {string} */ text) =>
  `<QueueMessage><MessageText>${text}</MessageText></QueueMessage>`;

/** The status lines in `bytes`, in order. */
const statuses = (/** @type {Uint8Array} */ bytes) =>
  [
    ...Buffer.from(bytes)
      .toString('latin1')
      .matchAll(/HTTP\/1\.1 (\d{3}) /g),
  ].map((m) => Number(m[1]));

/**
 * What a host does with feed's result: the bytes it writes (awaiting a Promise).
 * @param {import('../../pkg/node/azqueue.js').Connection} conn
 * @param {number | Promise<number>} n
 */
async function written(conn, n) {
  const count = await n;
  return count > 0 ? conn.take(Buffer.allocUnsafe(count)) : Buffer.alloc(0);
}

test('with the memory store the bytes are ready at once; a request split anywhere waits for its end', async () => {
  const service = await QueueService.open({ store: 'memory', anonymous: true });
  const conn = service.connection('127.0.0.1:10001', 0);
  const create = req('PUT', '/devstoreaccount1/conn-sync');
  assert.equal(conn.feed(create.subarray(0, 10)), 0);
  // The memory store: a number at once, never a Promise (checked next).
  const n = /** @type {number} */ (conn.feed(create.subarray(10)));
  assert.equal(typeof n, 'number');
  assert.deepEqual(statuses(conn.take(Buffer.allocUnsafe(n))), [201]);
  // A short target takes the first bytes; the rest stays for the next take.
  const m = /** @type {number} */ (conn.feed(req('GET', '/devstoreaccount1?comp=list')));
  const first = conn.take(Buffer.allocUnsafe(10));
  const rest = conn.take(Buffer.allocUnsafe(m - 10));
  assert.match(
    Buffer.concat([first, rest]).toString('latin1'),
    /^HTTP\/1\.1 200 OK\r\n[^]*<\/EnumerationResults>$/,
  );
  assert.equal(conn.closing, false);
  conn.free();
  service.free();
});

test('answers wait for a slow store, and pipelined ones behind them keep their order', async () => {
  /** @type {Map<string, string>} */
  const records = new Map();
  /** @type {(() => void)[]} */
  let release = [];
  let hold = false;
  const adapter = {
    load: () => [...records].map(([key, value]) => ({ key, value })),
    // Once `hold` is set, every commit waits until the test lets it through.
    /** @param {import('../../pkg/node/azqueue.js').StorageOp[]} batch */
    commit: (batch) =>
      /** @type {Promise<void>} */ (
        new Promise((resolve) => {
          const apply = () => {
            for (const op of batch) if (op.op === 'put') records.set(op.key, op.value);
            resolve();
          };
          if (hold) release.push(apply);
          else apply();
        })
      ),
  };
  const service = await QueueService.open({ store: adapter, anonymous: true });
  hold = true;
  const conn = service.connection('127.0.0.1:10001', 1);
  const q = '/devstoreaccount1/conn-slow';
  const out = conn.feed(
    Buffer.concat([req('PUT', q), req('POST', `${q}/messages`, { body: message('one') })]),
  );
  assert.ok(out instanceof Promise, 'a commit is pending, so the answer is a Promise');
  // More requests while it waits: no bytes now, they join the Promise's answer.
  assert.equal(
    conn.feed(req('GET', `${q}/messages?peekonly=true`, { extra: ['Connection: close'] })),
    0,
  );
  let settled = false;
  out.then(() => {
    settled = true;
  });
  // Durable before visible: nothing is answered while the first commit is held.
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  assert.equal(settled, false);
  while (!settled) {
    await new Promise((r) => setImmediate(r));
    const go = release;
    release = [];
    for (const f of go) f();
  }
  const bytes = await written(conn, out);
  assert.deepEqual(statuses(bytes), [201, 201, 200]);
  assert.match(Buffer.from(bytes).toString('latin1'), /<MessageText>one<\/MessageText>/);
  assert.equal(conn.closing, true);
  const log = conn.takeLog();
  assert.deepEqual(
    log.map((e) => [e.method, e.status]),
    [
      ['PUT', 201],
      ['POST', 201],
      ['GET', 200],
    ],
  );
  assert.equal(log[0].url, q);
  conn.free();
  service.free();
});

test('garbage is answered 400 with an Azure error and closes; nothing after it is read', async () => {
  const service = await QueueService.open({ store: 'memory', anonymous: true });
  const conn = service.connection('127.0.0.1:10001', 1);
  const bytes = await written(
    conn,
    conn.feed(Buffer.from('\x00\x01\x02 nonsense\r\n\r\nGET / HTTP/1.1\r\n\r\n', 'latin1')),
  );
  const text = Buffer.from(bytes).toString('latin1');
  assert.deepEqual(statuses(bytes), [400]);
  assert.match(text, /\r\nconnection: close\r\n/);
  assert.match(text, /x-ms-error-code: InvalidInput/);
  assert.equal(conn.closing, true);
  assert.equal(conn.feed(req('GET', '/devstoreaccount1?comp=list')), 0);
  assert.deepEqual(
    conn.takeLog().map((e) => e.status),
    [400],
  );
  conn.free();
  service.free();
});

test('the socket listener closes a connection that stays silent, and serves one that talks', async () => {
  const net = await import('node:net');
  const { queueConnectionListener } = await import('../../hosts/node/queue-socket.mjs');
  const service = await QueueService.open({ store: 'memory', anonymous: true });
  const listener = queueConnectionListener(service, {
    fallbackHost: '127.0.0.1',
    idleMs: 300,
    busy: () => azureErrorClosing('ServerBusy'),
  });
  const server = net.createServer(listener);
  await /** @type {Promise<void>} */ (
    new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  );
  try {
    const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
    const socket = net.connect(port, '127.0.0.1');
    /** @type {Buffer[]} */
    const chunks = [];
    socket.on('data', (d) => chunks.push(d));
    const closed = new Promise((resolve) => socket.on('close', resolve));
    socket.write(req('PUT', '/devstoreaccount1/idle-q'));
    const started = performance.now();
    await closed;
    assert.deepEqual(statuses(Buffer.concat(chunks)), [201]);
    assert.ok(performance.now() - started >= 250, 'not closed before the idle time');
  } finally {
    /** @type {() => void} */ (listener.destroyAll)();
    await new Promise((resolve) => server.close(resolve));
  }
});
