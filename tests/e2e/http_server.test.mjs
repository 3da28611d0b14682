// The Node server's queue port (node:net sockets → QueueService.connection(), HTTP/1.1 framed in
// src/http1/) at the HTTP level, with requests written as raw bytes on a socket: what the SDK
// never sends but a drop-in server must handle.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import {
  API_VERSION,
  DEV_ACCOUNT,
  sharedKey as authorization,
  startServer,
  uniqueName,
} from './azqueue_server.mjs';

/**
 * Sends one request as raw bytes on a fresh connection and reads until the server closes it.
 * `headers` are signed; `extra` lines (e.g. a repeated header) are sent as given, unsigned
 * unless the signature's `headers` already account for them.
 * @param {number} port
 * @param {{ method: string, path: string, query?: string, headers?: Record<string, string>,
 *   extra?: string[], body?: string, http10?: boolean }} request
 * @returns {Promise<{ status: number, headers: Record<string, string>, body: string }>}
 */
function raw(
  port,
  { method, path, query = '', headers = {}, extra = [], body = '', http10 = false },
) {
  const signed = { 'x-ms-date': new Date().toUTCString(), 'x-ms-version': API_VERSION, ...headers };
  const lines = [`${method} ${path}${query ? `?${query}` : ''} HTTP/${http10 ? '1.0' : '1.1'}`];
  if (!http10) lines.push(`Host: 127.0.0.1:${port}`);
  for (const [k, v] of Object.entries(signed))
    if (!extra.some((e) => e.toLowerCase().startsWith(`${k}:`))) lines.push(`${k}: ${v}`);
  lines.push(...extra);
  lines.push(`Authorization: ${authorization(method, path, query, signed)}`, 'Connection: close');
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    /** @type {Buffer[]} */
    const chunks = [];
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const split = text.indexOf('\r\n\r\n');
      const [statusLine, ...headerLines] = text.slice(0, split).split('\r\n');
      /** @type {Record<string, string>} */
      const responseHeaders = {};
      for (const line of headerLines) {
        const i = line.indexOf(':');
        responseHeaders[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
      }
      resolve({
        status: Number(statusLine.split(' ')[1]),
        headers: responseHeaders,
        body: text.slice(split + 4),
      });
    });
    socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`, 'latin1');
  });
}

describe('the queue port over raw HTTP', () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  /** @type {number} */
  let port;
  before(async () => {
    server = await startServer();
    port = Number(new URL(server.origin).port);
  });
  after(() => server.stop());

  test('answers carry a Content-Length, not chunked encoding; HEAD answers have headers and no body', async () => {
    const queue = uniqueName('raw');
    const path = `/${DEV_ACCOUNT}/${queue}`;
    const created = await raw(port, { method: 'PUT', path, headers: { 'content-length': '0' } });
    assert.equal(created.status, 201, created.body);
    const listed = await raw(port, {
      method: 'GET',
      path: `/${DEV_ACCOUNT}`,
      query: `comp=list&prefix=${queue}`,
    });
    assert.equal(listed.status, 200);
    assert.equal(listed.headers['transfer-encoding'], undefined);
    assert.equal(
      Number(listed.headers['content-length']),
      Buffer.byteLength(listed.body, 'latin1'),
    );
    assert.match(listed.body, new RegExp(`<Name>${queue}</Name>`));

    const head = await raw(port, { method: 'HEAD', path, query: 'comp=metadata' });
    assert.equal(head.status, 200);
    assert.equal(head.headers['x-ms-approximate-messages-count'], '0');
    assert.equal(head.body, '');
  });

  test('a request without a Host header (HTTP/1.0) is served', async () => {
    const res = await raw(port, {
      method: 'GET',
      path: `/${DEV_ACCOUNT}`,
      query: 'comp=list',
      http10: true,
    });
    assert.equal(res.status, 200, res.body);
    assert.match(res.body, /<EnumerationResults/);
  });

  test('a repeated header reaches the service as one value joined by ", " (as Fetch Headers do)', async () => {
    const queue = uniqueName('raw');
    const path = `/${DEV_ACCOUNT}/${queue}`;
    const created = await raw(port, {
      method: 'PUT',
      path,
      headers: { 'content-length': '0', 'x-ms-meta-team': 'web, ops' },
      extra: ['x-ms-meta-team: web', 'X-Ms-Meta-Team: ops'],
    });
    assert.equal(created.status, 201, created.body);
    const meta = await raw(port, { method: 'GET', path, query: 'comp=metadata' });
    assert.equal(meta.headers['x-ms-meta-team'], 'web, ops');
  });

  test('an Azure error keeps its code and XML; a body over 16 MiB is refused before the service', async () => {
    const missing = await raw(port, {
      method: 'DELETE',
      path: `/${DEV_ACCOUNT}/${uniqueName('none')}`,
    });
    assert.equal(missing.status, 404);
    assert.equal(missing.headers['x-ms-error-code'], 'QueueNotFound');
    assert.match(missing.body, /<Code>QueueNotFound<\/Code>/);

    const huge = 'a'.repeat(16 * 1024 * 1024 + 1);
    const tooLarge = await raw(port, {
      method: 'POST',
      path: `/${DEV_ACCOUNT}/${uniqueName('big')}/messages`,
      headers: { 'content-length': String(huge.length), 'content-type': 'application/xml' },
      body: huge,
    });
    assert.equal(tooLarge.status, 413);
  });
});
