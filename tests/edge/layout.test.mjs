// The queue objects' storage layout has a version (hosts/edge/sqlite-store.mjs, LAYOUT_VERSION).
// An object stored the oldest way (no layout row; every message an azqueue_records row in
// azqueue's record schema 1, as earlier builds wrote them through storage adapters) loads, its
// messages move into the queue's table, and it is served unchanged and marked with this
// build's layout; an object marked with a newer layout is refused with 500 InternalError and
// left as it is, never misread.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { QueueServiceClient } from '@azure/storage-queue';
import { ROOT, rejectsWith } from '../e2e/azqueue_server.mjs';
import { startEdge } from '../../scripts/lib/edge-server.mjs';

const BUN = path.join(ROOT, 'node_modules', '.bin', 'bun');
const bun = (/** @type {string} */ script, /** @type {string[]} */ ...args) =>
  JSON.parse(
    execFileSync(BUN, [path.join(ROOT, 'tests', 'edge', script), ...args], { encoding: 'utf8' }),
  );

/**
 * The SQLite file of the one queue object holding `queue`.
 * @param {string} dir
 * @param {string} queue
 */
function objectFile(dir, queue) {
  const objects = bun('read-objects.bun.mjs', path.join(dir, '-QueueObject'));
  const [id] = /** @type {[string, unknown]} the test made it */ (
    Object.entries(objects).find(([, o]) => o.queues.includes(`queue/devstoreaccount1/${queue}`))
  );
  return { file: path.join(dir, '-QueueObject', `${id}.sqlite`), id, objects };
}

/**
 * Runs `fn` on the queue `layout` of a dev.mjs on `dir`, then stops it; resolves to what `fn` did.
 * @template T
 * @param {string} dir
 * @param {(queue: import('@azure/storage-queue').QueueClient) => Promise<T>} fn
 */
async function withEdge(dir, fn) {
  const server = await startEdge({ args: ['--persist', dir] });
  try {
    const service = QueueServiceClient.fromConnectionString(server.connectionString, {
      retryOptions: { maxTries: 1 },
    });
    return await fn(service.getQueueClient('layout'));
  } finally {
    assert.equal(await server.stop(), 0);
  }
}

test('an object stored the older way loads; one marked newer is refused, untouched', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'azqueue-edge-layout-'));
  try {
    const sent = await withEdge(dir, async (q) => {
      await q.create();
      const texts = ['first', 'second <&>', 'third'];
      const ids = [];
      for (const t of texts) ids.push((await q.sendMessage(t)).messageId);
      await q.receiveMessages({ visibilityTimeout: 3600 }); // 'first' is leased: dequeue count 1
      return { texts, ids };
    });

    const { file } = objectFile(dir, 'layout');
    assert.deepEqual(bun('legacy-object.bun.mjs', file, '1'), { messages: 3 });
    const older = objectFile(dir, 'layout').objects[path.basename(file, '.sqlite')];
    assert.deepEqual([older.layout, older.records], [null, 3]);

    await withEdge(dir, async (q) => {
      const peeked = (await q.peekMessages({ numberOfMessages: 32 })).peekedMessageItems;
      assert.deepEqual(
        peeked.map((m) => [m.messageId, m.messageText, m.dequeueCount]),
        [
          [sent.ids[1], sent.texts[1], 0],
          [sent.ids[2], sent.texts[2], 0],
        ],
      );
      assert.equal((await q.getProperties()).approximateMessagesCount, 3);
      await q.sendMessage('fourth');
    });
    const upgraded = objectFile(dir, 'layout').objects[path.basename(file, '.sqlite')];
    assert.deepEqual([upgraded.layout, upgraded.records, upgraded.messages], ['2', 0, 4]);

    bun('mark-layout.bun.mjs', file, '3');
    await withEdge(dir, async (q) => {
      await rejectsWith(assert, q.peekMessages(), 500, 'InternalError');
      await rejectsWith(assert, q.sendMessage('refused'), 500, 'InternalError');
    });
    const after = objectFile(dir, 'layout').objects[path.basename(file, '.sqlite')];
    assert.deepEqual([after.layout, after.messages], ['3', 4]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
