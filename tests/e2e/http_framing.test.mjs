// HTTP/1.1 framing on the Node server's queue port, over raw sockets: what the SDKs never send
// (pipelining, chunked bodies, Expect: 100-continue, Connection: close, garbage, oversized
// bodies) and the access/debug logs that the socket path has to keep writing.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { API_VERSION, DEV_ACCOUNT, sharedKey, startServer, uniqueName } from './azqueue_server.mjs';

/**
 * One signed request's bytes. `body` goes as given; `framing` adds its own header lines.
 * @param {number} port
 * @param {string} method
 * @param {string} path
 * @param {{ query?: string, headers?: Record<string, string>, body?: string,
 *   framing?: string[] }} [options]
 */
function request(port, method, path, { query = '', headers = {}, body = '', framing = [] } = {}) {
  const signed = { 'x-ms-date': new Date().toUTCString(), 'x-ms-version': API_VERSION, ...headers };
  const lines = [
    `${method} ${path}${query ? `?${query}` : ''} HTTP/1.1`,
    `Host: 127.0.0.1:${port}`,
  ];
  for (const [k, v] of Object.entries(signed)) lines.push(`${k}: ${v}`);
  lines.push(`Authorization: ${sharedKey(method, path, query, signed)}`, ...framing);
  return Buffer.concat([
    Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'),
    Buffer.from(body, 'latin1'),
  ]);
}

/**
 * One response as read off the socket: its status line, headers (names lower-cased) and body.
 * @typedef {{ status: number, statusLine: string, headers: Record<string, string>,
 *   body: string }} Response
 */

/**
 * A socket that parses what the server sends into responses ({ status, headers, body }).
 * `next()` resolves to the next response; `closed()` to whether the server closed the socket.
 * @param {number} port
 */
function connect(port) {
  const socket = net.connect(port, '127.0.0.1');
  let buffered = Buffer.alloc(0);
  /** @type {Response[]} */
  const responses = [];
  /** @type {((response: Response) => void)[]} */
  const waiters = [];
  let closed = false;
  /** @type {((closed: true) => void)[]} */
  const closeWaiters = [];
  const parse = () => {
    for (;;) {
      const split = buffered.indexOf('\r\n\r\n');
      if (split < 0) return;
      const [statusLine, ...lines] = buffered.subarray(0, split).toString('latin1').split('\r\n');
      /** @type {Record<string, string>} */
      const headers = {};
      for (const line of lines) {
        const i = line.indexOf(':');
        headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
      }
      const length = Number(headers['content-length'] ?? 0);
      if (buffered.length < split + 4 + length) return;
      const body = buffered.subarray(split + 4, split + 4 + length).toString('latin1');
      buffered = buffered.subarray(split + 4 + length);
      responses.push({ status: Number(statusLine.split(' ')[1]), statusLine, headers, body });
      while (waiters.length && responses.length) {
        const [waiter] = waiters.splice(0, 1);
        const [response] = responses.splice(0, 1);
        waiter(response);
      }
    }
  };
  socket.on('data', (d) => {
    buffered = Buffer.concat([buffered, d]);
    parse();
  });
  socket.on('error', () => {});
  socket.on('close', () => {
    closed = true;
    for (const w of closeWaiters) w(true);
  });
  return {
    socket,
    write: (/** @type {string | Uint8Array} */ bytes) => socket.write(bytes),
    /** @returns {Promise<Response>} */
    next: () =>
      new Promise((resolve) => {
        const response = responses.shift();
        if (response) resolve(response);
        else waiters.push(resolve);
      }),
    /** @returns {Promise<true>} */
    closed: () => new Promise((resolve) => (closed ? resolve(true) : closeWaiters.push(resolve))),
    destroy: () => socket.destroy(),
  };
}

for (const [what, args] of /** @type {[string, string[]][]} */ ([
  ['in memory', []],
  ['with the journal store', ['--location']],
])) {
  describe(`queue port framing (${what})`, () => {
    /** @type {Awaited<ReturnType<typeof startServer>>} */
    let server;
    /** @type {number} */
    let port;
    /** @type {string | undefined} */
    let dir;
    before(async () => {
      const extra = args.length
        ? [...args, (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'azq-framing-')))]
        : [];
      server = await startServer({ args: extra });
      port = Number(new URL(server.origin).port);
    });
    after(async () => {
      await server.stop();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    test('pipelined requests are answered in order on one connection', async () => {
      const queue = uniqueName('pipe');
      const p = `/${DEV_ACCOUNT}/${queue}`;
      const put = (/** @type {string} */ text) => {
        const body = `<QueueMessage><MessageText>${text}</MessageText></QueueMessage>`;
        return request(port, 'POST', `${p}/messages`, {
          headers: { 'content-length': String(body.length) },
          body,
        });
      };
      const c = connect(port);
      // One write holding five requests: create, two puts, a peek, a missing queue.
      c.write(
        Buffer.concat([
          request(port, 'PUT', p, { headers: { 'content-length': '0' } }),
          put('one'),
          put('two'),
          request(port, 'GET', `${p}/messages`, { query: 'peekonly=true&numofmessages=32' }),
          request(port, 'DELETE', `/${DEV_ACCOUNT}/${uniqueName('none')}`),
        ]),
      );
      /** @type {Response[]} */
      const got = [];
      for (let i = 0; i < 5; i++) got.push(await c.next());
      assert.deepEqual(
        got.map((r) => r.status),
        [201, 201, 201, 200, 404],
      );
      assert.match(
        got[3].body,
        /<MessageText>one<\/MessageText>.*<MessageText>two<\/MessageText>/s,
      );
      assert.equal(got[4].headers['x-ms-error-code'], 'QueueNotFound');
      // Azure's status line carries the error's message.
      assert.equal(got[4].statusLine, 'HTTP/1.1 404 The specified queue does not exist.');
      assert.equal(got[0].statusLine, 'HTTP/1.1 201 Created');
      // Same connection, next request, split across writes at odd places.
      const more = request(port, 'GET', p, { query: 'comp=metadata' });
      c.write(more.subarray(0, 7));
      await new Promise((r) => setTimeout(r, 20));
      c.write(more.subarray(7));
      const meta = await c.next();
      assert.equal(meta.status, 200);
      assert.equal(meta.headers['x-ms-approximate-messages-count'], '2');
      c.destroy();
    });

    test('thousands of pipelined requests from a client that reads late are all answered, in order', async () => {
      const n = 2000;
      /** @type {Buffer[]} */
      const requests = [];
      for (let i = 0; i < n; i++) {
        requests.push(
          request(port, 'GET', `/${DEV_ACCOUNT}`, {
            query: 'comp=list',
            headers: { 'x-ms-client-request-id': `r${i}` },
          }),
        );
      }
      const c = connect(port);
      // Not reading for a while: the answers (over a megabyte) fill the socket buffers, and
      // the server must stop reading rather than buffer without bound or stall.
      c.socket.pause();
      c.write(Buffer.concat(requests));
      await new Promise((r) => setTimeout(r, 200));
      c.socket.resume();
      for (let i = 0; i < n; i++) {
        const res = await c.next();
        assert.equal(res.status, 200);
        assert.equal(res.headers['x-ms-client-request-id'], `r${i}`);
      }
      c.destroy();
    });

    test('a chunked request body is read whole; the write is refused with 411, as Azure does', async () => {
      const queue = uniqueName('chunk');
      const p = `/${DEV_ACCOUNT}/${queue}`;
      const c = connect(port);
      c.write(request(port, 'PUT', p, { headers: { 'content-length': '0' } }));
      assert.equal((await c.next()).status, 201);
      const body = '<QueueMessage><MessageText>chunked hello</MessageText></QueueMessage>';
      const chunks = `${(10).toString(16)}\r\n${body.slice(0, 10)}\r\n${(body.length - 10).toString(16)};ext=1\r\n${body.slice(10)}\r\n0\r\n\r\n`;
      // Pipelined behind the chunked write: answered only if its body was consumed exactly.
      c.write(
        Buffer.concat([
          request(port, 'POST', `${p}/messages`, {
            framing: ['Transfer-Encoding: chunked'],
            body: chunks,
          }),
          request(port, 'GET', `${p}/messages`, { query: 'peekonly=true' }),
        ]),
      );
      const put = await c.next();
      assert.equal(put.status, 411, put.body);
      assert.match(put.body, /<Code>MissingContentLengthHeader<\/Code>/);
      const peek = await c.next();
      assert.equal(peek.status, 200);
      assert.doesNotMatch(peek.body, /<QueueMessage>/);
      c.destroy();
    });

    test('Expect: 100-continue gets an interim 100 before the body is sent', async () => {
      const queue = uniqueName('expect');
      const p = `/${DEV_ACCOUNT}/${queue}`;
      const c = connect(port);
      c.write(request(port, 'PUT', p, { headers: { 'content-length': '0' } }));
      assert.equal((await c.next()).status, 201);
      const body = '<QueueMessage><MessageText>after 100</MessageText></QueueMessage>';
      c.write(
        request(port, 'POST', `${p}/messages`, {
          headers: { 'content-length': String(body.length) },
          framing: ['Expect: 100-continue'],
        }),
      );
      const interim = await c.next();
      assert.equal(interim.statusLine, 'HTTP/1.1 100 Continue');
      c.write(body);
      assert.equal((await c.next()).status, 201);
      c.destroy();
    });

    test('Connection: close ends the connection after its answer', async () => {
      const c = connect(port);
      c.write(
        Buffer.concat([
          request(port, 'GET', `/${DEV_ACCOUNT}`, { query: 'comp=list' }),
          Buffer.from(
            request(port, 'GET', `/${DEV_ACCOUNT}`, { query: 'comp=list' })
              .toString('latin1')
              .replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n'),
            'latin1',
          ),
          request(port, 'GET', `/${DEV_ACCOUNT}`, { query: 'comp=list' }),
        ]),
      );
      const first = await c.next();
      const second = await c.next();
      assert.equal(first.status, 200);
      assert.equal(first.headers.connection, undefined);
      assert.equal(second.status, 200);
      assert.equal(second.headers.connection, 'close');
      assert.equal(await c.closed(), true);
    });

    test('a malformed request line is answered 400 and the connection closed', async () => {
      const c = connect(port);
      c.write('THIS IS NOT HTTP\r\n\r\n');
      const res = await c.next();
      assert.equal(res.status, 400);
      assert.equal(res.headers.connection, 'close');
      assert.equal(await c.closed(), true);
    });

    test('a body over 16 MiB is refused with 413 as soon as its length is known', async () => {
      const c = connect(port);
      c.write(
        request(port, 'POST', `/${DEV_ACCOUNT}/${uniqueName('big')}/messages`, {
          headers: { 'content-length': String(16 * 1024 * 1024 + 1) },
        }),
      );
      const res = await c.next();
      assert.equal(res.status, 413);
      assert.equal(res.headers['x-ms-error-code'], 'RequestBodyTooLarge');
      assert.equal(await c.closed(), true);
    });
  });
}

describe('access and debug logs on the socket path', () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  /** @type {number} */
  let port;
  /** @type {string} */
  let dir;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'azq-log-'));
    // startServer passes --silent; a second --debug FILE and no --silent need their own spawn.
    server = await startServer({ args: ['--debug', path.join(dir, 'debug.log')] });
    port = Number(new URL(server.origin).port);
  });
  after(async () => {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('--debug FILE records method, URL, status, error code and redacted headers', async () => {
    const missing = `/${DEV_ACCOUNT}/${uniqueName('gone')}`;
    const c = connect(port);
    c.write(request(port, 'DELETE', missing));
    assert.equal((await c.next()).status, 404);
    c.destroy();
    const file = path.join(dir, 'debug.log');
    let text = '';
    for (let i = 0; i < 50 && !text.includes(missing); i++) {
      await new Promise((r) => setTimeout(r, 20));
      text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    }
    assert.match(text, new RegExp(`DELETE ${missing} 404 QueueNotFound \\d+\\.\\dms`));
    assert.match(text, /\n {2}authorization: SharedKey devstoreaccount1:<redacted>\n/);
    assert.match(text, /\n {2}x-ms-version: 2026-04-06\n/);
  });
});
