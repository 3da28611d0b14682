// A queue object holds a real backlog (issue 19): its messages are rows of the object's SQLite,
// not the isolate's memory, so one queue takes 50,000 messages of 1 KiB with no refusal (the
// memory bound that refused the 10,050th under a 16 MiB budget is gone), and after workerd is
// SIGKILLed and started again on the same storage, the first request costs what it costs at
// depth 0: it answers within a second (the bound), with the right count and the oldest
// message first.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import http from 'node:http';
import { QueueServiceClient } from '@azure/storage-queue';
import { startEdge } from '../../scripts/lib/edge-server.mjs';
import { API_VERSION, DEV_ACCOUNT, sharedKey } from '../../scripts/lib/shared-key.mjs';

const DEPTH = 50_000;
/** Requests in flight, over as many keep-alive connections. */
const CLIENTS = 16;
const TEXT = 'd'.repeat(1024);
const PUT_BODY = `<QueueMessage><MessageText>${TEXT}</MessageText></QueueMessage>`;

/**
 * Puts `count` messages of TEXT into `queue` by hand-written, signed HTTP over CLIENTS
 * keep-alive connections: the SDK's per-request work would share the machine's cores with
 * workerd. Rejects on the first answer that is not 201 Created (a refusal fails the test).
 * @param {string} origin
 * @param {string} queue
 * @param {number} count
 */
async function putMany(origin, queue, count) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
  const pathname = `/${DEV_ACCOUNT}/${queue}/messages`;
  const put = () =>
    new Promise((resolve, reject) => {
      const headers = {
        'content-length': String(Buffer.byteLength(PUT_BODY)),
        'content-type': 'application/xml',
        'x-ms-date': new Date().toUTCString(),
        'x-ms-version': API_VERSION,
      };
      const authorization = sharedKey('POST', pathname, '', headers);
      const req = http.request(
        `${origin}${pathname}`,
        { method: 'POST', agent, headers: { ...headers, authorization } },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (d) => (body += d));
          res.on('end', () =>
            res.statusCode === 201
              ? resolve(undefined)
              : reject(new Error(`Put Message answered ${res.statusCode}: ${body}`)),
          );
        },
      );
      req.on('error', reject);
      req.end(PUT_BODY);
    });
  let left = count;
  const client = async () => {
    while (left > 0) {
      left--;
      await put();
    }
  };
  try {
    await Promise.all(Array.from({ length: CLIENTS }, client));
  } finally {
    agent.destroy();
  }
}

/** @param {string} connectionString */
function queueOf(connectionString) {
  const service = QueueServiceClient.fromConnectionString(connectionString, {
    retryOptions: { maxTries: 1 },
  });
  return service.getQueueClient('deep');
}

test(`one queue takes ${DEPTH} messages of 1 KiB; after a SIGKILL its first request answers within a second`, async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'azqueue-edge-depth-'));
  let server = null;
  try {
    server = await startEdge({ args: ['--persist', dir] });
    const q = queueOf(server.connectionString);
    await q.create();
    const first = await q.sendMessage('the oldest');
    await putMany(server.origin, 'deep', DEPTH - 1);
    assert.equal((await q.getProperties()).approximateMessagesCount, DEPTH);

    await server.kill();
    server = await startEdge({ args: ['--persist', dir] });
    const cold = queueOf(server.connectionString);
    const started = performance.now();
    const props = await cold.getProperties();
    const firstRequestMs = performance.now() - started;
    t.diagnostic(`first request after the restart: ${firstRequestMs.toFixed(0)} ms`);
    assert.equal(props.approximateMessagesCount, DEPTH);
    assert.ok(firstRequestMs < 1000, `the first request took ${firstRequestMs.toFixed(0)} ms`);
    const [oldest] = (await cold.peekMessages()).peekedMessageItems;
    assert.deepEqual([oldest.messageId, oldest.messageText], [first.messageId, 'the oldest']);
    assert.equal(await server.stop(), 0);
    server = null;
  } finally {
    await server?.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
