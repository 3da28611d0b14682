// What only the Node server does with faults (docs/faults.md): cutting connections
// (`drop: "reset"`, `"partial"`), `--throttle` and its numbers, each fault as an event on
// /_azqueue/events and a line in the --debug log, and a delay that holds the answer back.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { QueueServiceClient, StorageRetryPolicyType } from '@azure/storage-queue';
import { API_VERSION, sharedKey, startServer, uniqueName } from './azqueue_server.mjs';

/**
 * @param {string} origin
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 */
async function dev(origin, method, path, body) {
  const r = await fetch(`${origin}${path}`, {
    method,
    headers: { 'x-azqueue-dev': '1' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  assert.ok(r.ok, `${method} ${path}: ${r.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/**
 * Sends one raw HTTP/1.1 request and collects what comes back until the connection ends.
 * @param {string} origin
 * @param {string} request
 * @returns {Promise<{ bytes: string, error?: string }>}
 */
function raw(origin, request) {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve) => {
    let bytes = '';
    const socket = net.connect(Number(port), hostname, () => socket.write(request));
    socket.on('data', (d) => (bytes += d));
    socket.on('error', (err) => resolve({ bytes, error: /** @type {any} */ (err).code }));
    socket.on('close', () => resolve({ bytes }));
  });
}

/**
 * A signed Get Queue Metadata, written by hand.
 * @param {string} queuePath `/<account>/<queue>`
 */
function getRequest(queuePath) {
  const headers = { 'x-ms-date': new Date().toUTCString(), 'x-ms-version': API_VERSION };
  const authorization = sharedKey('GET', queuePath, { comp: 'metadata' }, headers);
  const lines = Object.entries({ ...headers, authorization }).map(([k, v]) => `${k}: ${v}\r\n`);
  return `GET ${queuePath}?comp=metadata HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${lines.join('')}\r\n`;
}

describe('faults on the Node server', () => {
  const debugLog = path.join(
    fs.mkdtempSync(path.join(os.tmpdir(), 'azqueue-faults-')),
    'debug.log',
  );
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  before(async () => {
    server = await startServer({
      plain: true,
      args: ['--debug', debugLog],
    });
  });
  after(() => server?.stop());

  test("--throttle sets Azure's targets from the start", async () => {
    const azure = await startServer({ plain: true, args: ['--throttle'] });
    try {
      const state = await dev(azure.origin, 'GET', '/_azqueue/faults');
      assert.deepEqual(state.limits, {
        queueMessagesPerSecond: 2000,
        accountRequestsPerSecond: 20000,
      });
    } finally {
      await azure.stop();
    }
  });

  test('--queueMessagesPerSecond throttles from the start, and DELETE keeps the started limits', async () => {
    const server = await startServer({ plain: true, args: ['--queueMessagesPerSecond', '3'] });
    try {
      await throttledFromTheStart(server);
    } finally {
      await server.stop();
    }
  });

  /** @param {Awaited<ReturnType<typeof startServer>>} server */
  async function throttledFromTheStart(server) {
    const state = await dev(server.origin, 'GET', '/_azqueue/faults');
    assert.deepEqual(state.limits, { queueMessagesPerSecond: 3, accountRequestsPerSecond: 20000 });
    await dev(server.origin, 'POST', '/_azqueue/clock', { paused: true });
    const queue = QueueServiceClient.fromConnectionString(server.connectionString, {
      retryOptions: { maxTries: 1 },
    }).getQueueClient(uniqueName('flag'));
    await queue.create();
    // Creating the queue took one of its three; a second on, the bucket is full again.
    await dev(server.origin, 'POST', '/_azqueue/clock', { advanceMs: 1000 });
    /** @type {number[]} */
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      statuses.push(
        await queue.sendMessage('m').then(
          () => 201,
          (/** @type {any} */ e) => e.statusCode,
        ),
      );
    }
    assert.deepEqual(statuses, [201, 201, 201, 503]);
    await dev(server.origin, 'POST', '/_azqueue/faults', {
      limits: { queueMessagesPerSecond: null },
    });
    await dev(server.origin, 'DELETE', '/_azqueue/faults');
    const again = await dev(server.origin, 'GET', '/_azqueue/faults');
    assert.deepEqual(again.limits, state.limits);
  }

  test('a reset cuts the connection with no answer, and the SDK retries through it', async () => {
    const name = uniqueName('reset');
    const client = QueueServiceClient.fromConnectionString(server.connectionString, {
      retryOptions: {
        retryPolicyType: StorageRetryPolicyType.EXPONENTIAL,
        maxTries: 3,
        retryDelayInMs: 5,
        maxRetryDelayInMs: 20,
      },
    });
    const queue = client.getQueueClient(name);
    await queue.create();
    await dev(server.origin, 'POST', '/_azqueue/faults', {
      rules: [
        {
          id: 'cut',
          queue: name,
          operation: 'GetQueueMetadata',
          drop: 'reset',
          when: 'before',
          times: 1,
        },
      ],
    });
    const url = new URL(server.queueUrl);
    const r = await raw(server.origin, getRequest(`${url.pathname}/${name}`));
    assert.equal(r.bytes, '', r.bytes);
    assert.equal(r.error, 'ECONNRESET');
    // The SDK meets the reset as a network error and retries: the Put after it applies once.
    await dev(server.origin, 'POST', '/_azqueue/faults', {
      rules: [{ queue: name, operation: 'PutMessage', drop: 'reset', times: 1 }],
    });
    await queue.sendMessage('sent through a reset');
    const { approximateMessagesCount } = await queue.getProperties();
    assert.equal(approximateMessagesCount, 2, 'applied, reset, retried: two copies');
    await dev(server.origin, 'DELETE', '/_azqueue/faults');
  });

  test('a partial answer sends the head and half the body, then closes', async () => {
    const name = uniqueName('partial');
    const url = new URL(server.queueUrl);
    await dev(server.origin, 'POST', '/_azqueue/faults', {
      rules: [{ queue: name, status: 503, drop: 'partial', times: 1 }],
    });
    const r = await raw(server.origin, getRequest(`${url.pathname}/${name}`));
    const [head, body] = r.bytes.split('\r\n\r\n');
    assert.match(head, /^HTTP\/1\.1 503 /);
    assert.match(head, /\r\nx-ms-error-code: ServerBusy\r\n/i);
    const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1]);
    assert.ok(length > 0);
    assert.equal(Buffer.byteLength(body), Math.floor(length / 2));
    await dev(server.origin, 'DELETE', '/_azqueue/faults');
  });

  test('a delay holds the answer back by real time', async () => {
    const name = uniqueName('late');
    const queue = QueueServiceClient.fromConnectionString(server.connectionString).getQueueClient(
      name,
    );
    await queue.create();
    await dev(server.origin, 'POST', '/_azqueue/faults', {
      rules: [{ queue: name, operation: 'PeekMessages', delayMs: 300, times: 1 }],
    });
    const started = performance.now();
    await queue.peekMessages();
    // A lower bound only: the answer cannot come before its delay.
    assert.ok(performance.now() - started >= 290, `${performance.now() - started} ms`);
    await dev(server.origin, 'DELETE', '/_azqueue/faults');
  });

  test('each fault is an event on /_azqueue/events and a line in the --debug log', async () => {
    const name = uniqueName('seen');
    const queue = QueueServiceClient.fromConnectionString(server.connectionString, {
      retryOptions: { maxTries: 1 },
    }).getQueueClient(name);
    await queue.create();
    const controller = new AbortController();
    const stream = await fetch(`${server.origin}/_azqueue/events`, { signal: controller.signal });
    const reader = /** @type {ReadableStream<Uint8Array>} */ (stream.body).getReader();
    await dev(server.origin, 'POST', '/_azqueue/faults', {
      rules: [{ id: 'seen', queue: name, operation: 'PutMessage', status: 503, times: 1 }],
    });
    await assert.rejects(queue.sendMessage('m'));
    let text = '';
    while (!text.includes('"type":"fault"')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    controller.abort();
    const line = text.split('\n').find((l) => l.includes('"type":"fault"')) ?? '';
    const event = JSON.parse(line.replace(/^data: /, ''));
    assert.equal(event.rule, 'seen');
    assert.equal(event.queue, name);
    assert.equal(event.operation, 'PutMessage');
    assert.equal(event.status, 503);
    assert.equal(event.code, 'ServerBusy');
    assert.equal(event.when, 'before');
    const log = fs.readFileSync(debugLog, 'utf8');
    assert.match(
      log,
      new RegExp(
        `fault PutMessage devstoreaccount1/${name}: rule seen, before the operation, 503 ServerBusy\\n`,
      ),
    );
    await dev(server.origin, 'DELETE', '/_azqueue/faults');
  });

  test('a bad --queueMessagesPerSecond is refused before anything starts', async () => {
    await assert.rejects(
      startServer({ plain: true, args: ['--queueMessagesPerSecond', '0'], timeoutMs: 5000 }),
      /--queueMessagesPerSecond must be a whole number from 1 to 1000000000, not "0"/,
    );
  });
});
