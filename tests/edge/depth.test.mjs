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
import { QueueServiceClient } from '@azure/storage-queue';
import { startEdge } from '../../scripts/lib/edge-server.mjs';

const DEPTH = 50_000;
const CLIENTS = 32;
const TEXT = 'd'.repeat(1024);

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
    let next = 1;
    const client = async () => {
      while (next < DEPTH) {
        next++;
        await q.sendMessage(TEXT); // a refusal (503 or any other) rejects and fails the test
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, client));
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
