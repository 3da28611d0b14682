// hosts/edge/dev.mjs as a process: it prints where it serves, and SIGINT or SIGTERM stop workerd
// with it (no orphaned workerd); workerd dying under it ends it with a message and status 1 (no
// live runner serving nothing); a malformed AZURITE_ACCOUNTS stops it before workerd starts; its
// usage names the package's command.

import assert from 'node:assert/strict';
import fs from 'node:fs';
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

test('workerd killed under dev.mjs: dev.mjs says so and exits 1', async () => {
  const server = await startEdge();
  const exited = new Promise((resolve) => server.child.once('exit', (code) => resolve(code)));
  try {
    const [workerd] = childrenOf(/** @type {number} spawned */ (server.child.pid));
    assert.ok(workerd, 'workerd runs as a child of dev.mjs');
    process.kill(workerd, 'SIGKILL');
    assert.equal(await exited, 1);
    assert.match(
      server.output(),
      new RegExp(
        `workerd \\(process ${workerd}\\) has stopped, so nothing serves ${server.origin} any more; exiting\\.`,
      ),
    );
  } finally {
    await server.kill();
  }
});

test('--help names the command a package user runs', async () => {
  const { code, stdout } = await runEdge(['--help']);
  assert.equal(code, 0);
  assert.match(stdout, /^usage: npx azqueue-edge /);
  const manifest = JSON.parse(
    fs.readFileSync(new URL('../../package/manifest.json', import.meta.url), 'utf8'),
  );
  assert.equal(manifest.bin['azqueue-edge'], 'www/edge/dev.mjs');
});
