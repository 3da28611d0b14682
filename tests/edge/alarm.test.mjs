// A queue object's one alarm purges expired messages from its storage while nobody asks (read
// from its SQLite file with Bun; the inspection path has no side effects, so it purges nothing),
// and survives a restart of workerd. The alarm's floor is lowered (AZQUEUE_PURGE_FLOOR_MS) so a
// test sees it fire.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { QueueServiceClient } from '@azure/storage-queue';
import { pause, ROOT } from '../e2e/azqueue_server.mjs';
import { startEdge } from '../../scripts/lib/edge-server.mjs';

const BUN = path.join(ROOT, 'node_modules', '.bin', 'bun');

/**
 * Message rows stored in the object holding `queue`.
 * @param {string} dir
 * @param {string} queue
 */
function storedMessages(dir, queue) {
  const script = path.join(ROOT, 'tests', 'edge', 'read-objects.bun.mjs');
  const objects = JSON.parse(
    execFileSync(BUN, [script, path.join(dir, '-QueueObject')], { encoding: 'utf8' }),
  );
  return Object.values(objects).find((o) => o.queues.includes(`queue/devstoreaccount1/${queue}`))
    .messages;
}

/**
 * @param {string} what
 * @param {() => boolean} check
 */
async function until(what, check) {
  for (let i = 0; i < 60; i++) {
    if (check()) return;
    await pause(250);
  }
  assert.fail(`${what} did not happen within 15 s`);
}

test('the alarm purges expired messages from storage, and is kept across a restart', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'azqueue-edge-alarm-'));
  const env = { AZQUEUE_PURGE_FLOOR_MS: '500' };
  /** @type {import('../../scripts/lib/edge-server.mjs').RunningEdge | null} */
  let server = null;
  try {
    server = await startEdge({ args: ['--persist', dir], env });
    const q = () =>
      QueueServiceClient.fromConnectionString(
        /** @type {import('../../scripts/lib/edge-server.mjs').RunningEdge} */ (server)
          .connectionString,
      ).getQueueClient('purged');
    await q().create();
    await q().sendMessage('stays', { messageTimeToLive: 3600 });
    for (let i = 0; i < 3; i++) await q().sendMessage(`expires ${i}`, { messageTimeToLive: 1 });
    await until('the purge of 3 expired messages', () => storedMessages(dir, 'purged') === 1);

    // Stopped with an alarm pending; restarted, it fires without any request to the object.
    await q().sendMessage('expires after the restart', { messageTimeToLive: 6 });
    assert.equal(await server.stop(), 0);
    server = null;
    assert.equal(storedMessages(dir, 'purged'), 2);
    server = await startEdge({ args: ['--persist', dir], env });
    await until('the purge after the restart', () => storedMessages(dir, 'purged') === 1);
    const peeked = (await q().peekMessages({ numberOfMessages: 32 })).peekedMessageItems;
    assert.deepEqual(
      peeked.map((m) => m.messageText),
      ['stays'],
    );
    assert.equal(await server.stop(), 0);
    server = null;
  } finally {
    // Stopped whatever happened: a live dev.mjs would keep the test runner waiting.
    await server?.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
