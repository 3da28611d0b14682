// The development paths behind the Node server cannot be turned against the developer by a web
// page: a simple cross-site POST /_azqueue/reset (what a form or no-cors fetch can send) is
// refused and deletes nothing, and a DNS-rebound host name is refused even for reads.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { QueueServiceClient } from '@azure/storage-queue';
import { startServer, uniqueName } from './azqueue_server.mjs';

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
/** @type {import('@azure/storage-queue').QueueClient} */
let queue;
before(async () => {
  server = await startServer();
  queue = QueueServiceClient.fromConnectionString(server.connectionString).getQueueClient(
    uniqueName('guard'),
  );
  await queue.create();
  await queue.sendMessage('still here');
});
after(() => server.stop());

const count = async () => (await queue.getProperties()).approximateMessagesCount;

/**
 * One raw HTTP/1.1 request with exactly the given head lines; resolves to the status.
 * @param {string[]} lines
 */
function raw(lines) {
  const { port } = new URL(server.origin);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => {
      socket.end(`${lines.join('\r\n')}\r\nconnection: close\r\n\r\n`);
    });
    let text = '';
    socket.on('data', (d) => {
      text += d;
    });
    socket.on('end', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1])));
    socket.on('error', reject);
  });
}

test('a simple cross-site POST /_azqueue/reset is refused and deletes nothing', async () => {
  // What an HTML form on another site sends: an Origin, a safelisted content type, no custom header.
  const r = await fetch(`${server.origin}/_azqueue/reset`, {
    method: 'POST',
    headers: {
      origin: 'https://attacker.example',
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'a=b',
  });
  assert.equal(r.status, 403);
  assert.match((await r.json()).error, /x-azqueue-dev/);
  assert.equal(await count(), 1);
});

test('the dev header from a foreign origin is refused too', async () => {
  const r = await fetch(`${server.origin}/_azqueue/reset`, {
    method: 'POST',
    headers: { origin: 'https://attacker.example', 'x-azqueue-dev': '1' },
  });
  assert.equal(r.status, 403);
  assert.match((await r.json()).error, /attacker\.example/);
  const put = await fetch(`${server.origin}/_azqueue/snapshot`, {
    method: 'PUT',
    headers: { origin: 'https://attacker.example', 'content-type': 'text/plain' },
    body: '{"format":"azqueue-snapshot","version":1,"accounts":[]}',
  });
  assert.equal(put.status, 403);
  assert.equal(await count(), 1);
});

test('a DNS-rebound Host is refused on every dev path; the listening address is served', async () => {
  const { port } = new URL(server.origin);
  for (const path of [
    '/_azqueue/snapshot',
    '/_azqueue/store',
    '/_azqueue/inspect/devstoreaccount1',
  ]) {
    assert.equal(
      await raw([`GET ${path} HTTP/1.1`, `host: rebound.attacker.example:${port}`]),
      403,
      path,
    );
    assert.equal(await raw([`GET ${path} HTTP/1.1`, `host: 127.0.0.1:${port}`]), 200, path);
    assert.equal(await raw([`GET ${path} HTTP/1.1`, `host: localhost:${port}`]), 200, path);
  }
  assert.equal(
    await raw([
      `POST /_azqueue/reset HTTP/1.1`,
      `host: rebound.attacker.example:${port}`,
      'x-azqueue-dev: 1',
      'content-length: 0',
    ]),
    403,
  );
  assert.equal(await count(), 1);
});

test('the queue port streams events only to its own address, and only events', async () => {
  const { port } = new URL(server.origin);
  const rebound = await raw(['GET /_azqueue/events HTTP/1.1', `host: attacker.example:${port}`]);
  assert.equal(rebound, 403);

  const socket = net.connect(Number(port), '127.0.0.1');
  let text = '';
  /** @type {() => void} */
  let arrived = () => {};
  socket.on('data', (d) => {
    text += d;
    arrived();
  });
  /** @param {RegExp} pattern */
  const until = (pattern) =>
    new Promise((resolve) => {
      arrived = () => {
        if (pattern.test(text)) resolve(text);
      };
      arrived();
    });
  // A request pipelined behind the stream is never answered: the connection carries events now.
  socket.write(
    `GET /_azqueue/events HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n\r\n` +
      `GET /_azqueue/store HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n\r\n`,
  );
  await until(/: azqueue events\n\n/);
  const head = text.slice(0, text.indexOf('\r\n\r\n'));
  assert.match(head, /^HTTP\/1\.1 200 /);
  assert.match(head, /\r\ncontent-type: text\/event-stream\r\n/);
  assert.match(head, /\r\nconnection: close/);
  assert.doesNotMatch(head, /content-length/i);
  await queue.sendMessage('seen');
  await until(/data: \{[^\n]*"type":"sent"/);
  assert.equal(text.match(/HTTP\/1\.1/g)?.length, 1, 'one answer on the stream');
  socket.destroy();
});

test('the same-origin reset with the dev header is served (last: it empties the server)', async () => {
  const r = await fetch(`${server.origin}/_azqueue/reset`, {
    method: 'POST',
    headers: { origin: server.origin, 'x-azqueue-dev': '1' },
  });
  assert.equal(r.status, 204);
  await assert.rejects(
    queue.getProperties(),
    (/** @type {import('@azure/storage-queue').RestError} */ e) => e.statusCode === 404,
  );
});
