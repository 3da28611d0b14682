// www/edge/dev.mjs as a process: it prints where it serves, and SIGINT or SIGTERM stop workerd
// with it (no orphaned workerd); a malformed AZURITE_ACCOUNTS stops it before workerd starts.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { QueueServiceClient } from '@azure/storage-queue';
import { childrenOf, runEdge, running, startEdge } from '../../scripts/lib/edge-server.mjs';

for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  test(`${signal} stops workerd and exits 0`, async () => {
    const server = await startEdge();
    const children = childrenOf(/** @type {number} spawned */ (server.child.pid));
    assert.ok(children.length > 0, 'workerd runs as a child of dev.mjs');
    const svc = QueueServiceClient.fromConnectionString(server.connectionString);
    assert.equal((await svc.getQueueClient('lifecycle').create())._response.status, 201);
    const code = await server.stop(signal);
    assert.equal(code, 0);
    for (const pid of children) assert.equal(running(pid), false, `child ${pid} is gone`);
    assert.match(server.output(), /azqueue: stopped/);
  });
}

test('a malformed AZURITE_ACCOUNTS stops dev.mjs with a clear error', async () => {
  const { code, stderr } = await runEdge([], { env: { AZURITE_ACCOUNTS: 'nokey' } });
  assert.equal(code, 1);
  assert.match(stderr, /accounts/);
});
