// Deno (Deno.serve) and Bun (Bun.serve) serving the REST fetch handler (hosts/edge/deno.mjs,
// bun.mjs), from the npm packages' binaries: the official SDK round-trips a message through each.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { QueueServiceClient } from '@azure/storage-queue';
import { ROOT, rejectsWith } from '../e2e/azqueue_server.mjs';

const BIN = path.join(ROOT, 'node_modules', '.bin');
const RUNTIMES = {
  deno: [
    path.join(BIN, 'deno'),
    'run',
    '--allow-net=127.0.0.1',
    `--allow-read=${path.join(ROOT, 'pkg', 'web')}`,
    '--allow-env=AZURITE_ACCOUNTS',
    path.join(ROOT, 'hosts', 'edge', 'deno.mjs'),
  ],
  bun: [path.join(BIN, 'bun'), path.join(ROOT, 'hosts', 'edge', 'bun.mjs')],
};

/**
 * Starts a host on a free port; resolves once it says it is ready.
 * @param {string[]} commandLine the host's command and its arguments
 */
function start([command, ...args]) {
  const child = spawn(command, [...args, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`not ready: ${out}`));
    }, 30_000);
    child.stdout.on('data', (d) => {
      out += d;
      const m = /azqueue ready: queue (\S+) connection "([^"]+)"/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      const exited = new Promise((r) => child.once('exit', (code) => r(code)));
      resolve({
        connectionString: m[2],
        output: () => out,
        stop: () => {
          child.kill('SIGTERM');
          return exited;
        },
      });
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code}: ${out}`));
    });
  });
}

for (const [name, command] of Object.entries(RUNTIMES)) {
  test(`${name}: the SDK creates, lists, sends, receives and deletes`, async () => {
    const server = await start(command);
    try {
      const service = QueueServiceClient.fromConnectionString(server.connectionString);
      const q = service.getQueueClient(`on-${name}`);
      assert.equal((await q.create({ metadata: { runtime: name } }))._response.status, 201);
      const listed = [];
      for await (const item of service.listQueues({ includeMetadata: true }))
        listed.push([
          item.name,
          /** @type {Record<string, string>} includeMetadata */ (item.metadata).runtime,
        ]);
      assert.deepEqual(listed, [[`on-${name}`, name]]);
      const sent = await q.sendMessage(`hello from ${name} <&>`);
      const [m] = (await q.receiveMessages({ visibilityTimeout: 30 })).receivedMessageItems;
      assert.equal(m.messageId, sent.messageId);
      assert.equal(m.messageText, `hello from ${name} <&>`);
      await q.deleteMessage(m.messageId, m.popReceipt);
      await rejectsWith(assert, q.deleteMessage(m.messageId, m.popReceipt), 404, 'MessageNotFound');
    } finally {
      assert.equal(await server.stop(), 0, server.output());
    }
  });
}
