// The Node server's bounds on connections and slow clients: a connection past --maxConnections
// is answered 503 ServerBusy while the open ones are served, and a head trickling in a byte at a
// time is answered 408 and closed after --headTimeout, while other clients are served.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { startServer } from './azqueue_server.mjs';

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
/** @type {number} */
let port;
before(async () => {
  server = await startServer({ args: ['--maxConnections', '2', '--headTimeout', '400'] });
  port = Number(new URL(server.origin).port);
});
after(() => server.stop());

/**
 * A raw connection that collects what the server sends and notes when it closes.
 * @typedef {{ socket: net.Socket, text: string, closed: boolean, ended?: Promise<void> }} Conn
 * @returns {Promise<Conn>}
 */
function connect() {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    /** @type {Conn} */
    const conn = { socket, text: '', closed: false };
    conn.ended = new Promise((done) =>
      socket.on('close', () => {
        conn.closed = true;
        done();
      }),
    );
    socket.on('data', (d) => {
      conn.text += d.toString('latin1');
    });
    socket.on('error', () => {});
    socket.once('connect', () => resolve(conn));
    socket.once('error', reject);
  });
}

/**
 * A connection the server serves. The server learns of a closed connection asynchronously, so
 * right after one closes a new one may still meet the limit: retry until one is served.
 */
async function served() {
  for (let attempt = 0; ; attempt++) {
    const conn = await connect();
    try {
      assert.equal(await ask(conn), 200);
      return conn;
    } catch (err) {
      if (!/ 503 /.test(conn.text) || attempt === 50) throw err;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

/**
 * Sends one anonymous-safe request (the inspection path needs no credentials); resolves to its status.
 * @param {Conn} conn
 */
async function ask(conn) {
  const before = conn.text.length;
  conn.socket.write(
    `GET /_azqueue/inspect/devstoreaccount1 HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n\r\n`,
  );
  while (!/\r\n\r\n[^]*\}$/.test(conn.text.slice(before))) {
    if (conn.closed) throw new Error(`closed before an answer: ${conn.text.slice(before)}`);
    await new Promise((r) => setTimeout(r, 10));
  }
  return Number(
    /** @type {RegExpExecArray} the head is in */ (
      /HTTP\/1\.1 (\d{3})/.exec(conn.text.slice(before))
    )[1],
  );
}

test('a connection past --maxConnections gets 503 ServerBusy; the open ones are served', async () => {
  const a = await served();
  const b = await served();
  const c = await connect();
  await c.ended;
  assert.match(
    c.text,
    /^HTTP\/1\.1 503 The server is currently unable to receive requests\. Please retry your request\.\r\n/,
  );
  assert.match(c.text, /x-ms-error-code: ServerBusy/);
  // Rendered from the error table as every error is: a request id and time of its own.
  assert.match(c.text, /\r\nx-ms-request-id: [0-9a-f-]{36}\r\n/);
  assert.match(c.text, /\r\nconnection: close\r\n/);
  assert.match(
    c.text,
    /<Error><Code>ServerBusy<\/Code><Message>The server is currently unable to receive requests\. Please retry your request\.\nRequestId:[0-9a-f-]{36}\nTime:[^<]+<\/Message><\/Error>$/,
  );
  assert.equal(await ask(a), 200);
  // A closed connection frees its place.
  a.socket.destroy();
  await a.ended;
  const d = await served();
  b.socket.destroy();
  d.socket.destroy();
  await Promise.all([b.ended, d.ended]);
});

test('a head sent a byte at a time is answered 408 and closed; another client is served meanwhile', async () => {
  const slow = await served();
  const answered = slow.text.length;
  const head = `GET /_azqueue/inspect/devstoreaccount1 HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\nx-padding: ${'p'.repeat(200)}\r\n\r\n`;
  let sent = 0;
  // Never silent (so the 120 s idle timeout is not what ends it), never finished.
  const trickle = setInterval(() => {
    if (!slow.closed && sent < head.length - 2) slow.socket.write(head[sent++]);
  }, 20);
  trickle.unref();
  const other = await served();
  await slow.ended;
  clearInterval(trickle);
  assert.match(slow.text.slice(answered), /^HTTP\/1\.1 408 Request Timeout\r\n/);
  assert.ok(sent < head.length - 2, 'closed before the head could have been completed');
  assert.equal(await ask(other), 200);
  other.socket.destroy();
  await other.ended;
});
