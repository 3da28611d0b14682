// An object written by layout 1 (every message an `azqueue_records` row, loaded whole) is
// upgraded the first time it loads: its messages move into the queue's table in steps of one
// transaction each (hosts/edge/sqlite-store.mjs, `upgrade`). Here a 50,000-message object is
// made (tests/edge/legacy-object.bun.mjs), workerd is SIGKILLed while the conversion runs, and
// the object is checked on disk (every message in exactly one place) and then served: the
// conversion resumes, and the queue answers with all 50,000, oldest first.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { QueueServiceClient } from '@azure/storage-queue';
import { ROOT } from '../e2e/azqueue_server.mjs';
import { startEdge } from '../../scripts/lib/edge-server.mjs';

const DEPTH = 50_000;
const BUN = path.join(ROOT, 'node_modules', '.bin', 'bun');
const bun = (/** @type {string} */ script, /** @type {string[]} */ ...args) =>
  JSON.parse(
    execFileSync(BUN, [path.join(ROOT, 'tests', 'edge', script), ...args], { encoding: 'utf8' }),
  );

/**
 * A client that never retries: the restarted object's first request converts what is left
 * (tens of seconds on a loaded machine), and the requests after it go over the same keep-alive
 * connection, which the conversion must not have left to be closed under them.
 * @param {string} connectionString
 */
function queueOf(connectionString) {
  const service = QueueServiceClient.fromConnectionString(connectionString, {
    retryOptions: { maxTries: 1 },
  });
  return service.getQueueClient('legacy');
}

/**
 * What the one queue object holding `legacy` stores.
 * @param {string} dir
 * @returns {{ id: string, messages: number, records: number, layout: string | null }}
 */
function stored(dir) {
  const objects = bun('read-objects.bun.mjs', path.join(dir, '-QueueObject'));
  const [id, o] = /** @type {[string, any]} the test made it */ (
    Object.entries(objects).find(([, o]) => o.queues.includes('queue/devstoreaccount1/legacy'))
  );
  return { id, ...o };
}

test(`a ${DEPTH}-message object of layout 1 is converted, and a SIGKILL midway loses nothing`, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'azqueue-edge-upgrade-'));
  let server = null;
  try {
    server = await startEdge({ args: ['--persist', dir] });
    const made = queueOf(server.connectionString);
    await made.create();
    await made.sendMessage('x'.repeat(1024));
    assert.equal(await server.stop(), 0);
    server = null;
    const { id } = stored(dir);
    const file = path.join(dir, '-QueueObject', `${id}.sqlite`);
    assert.deepEqual(bun('legacy-object.bun.mjs', file, '2', String(DEPTH)), { messages: DEPTH });
    assert.deepEqual(
      [stored(dir).records, stored(dir).layout],
      [DEPTH, '1'],
      'a layout-1 object with every message a record',
    );

    // The first request opens the object, which starts the conversion; kill workerd once the
    // first steps have committed, while records are still left (steps of 25 messages here, so
    // the conversion lasts long enough to be caught midway).
    server = await startEdge({ args: ['--persist', dir], env: { AZQUEUE_UPGRADE_STEP: '25' } });
    // Any request naming the queue opens its object, and so starts the conversion; a bare
    // fetch (answered 403 once open) rather than the SDK, whose sockets would report the reset
    // of the kill as an error of their own.
    const request = fetch(`${server.origin}/devstoreaccount1/legacy?comp=metadata`).catch(
      () => null,
    );
    let midway = stored(dir);
    for (let i = 0; i < 3000 && midway.records === DEPTH; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      midway = stored(dir);
    }
    await server.kill();
    server = null;
    await request;
    const killed = stored(dir);
    assert.equal(killed.messages, DEPTH, 'every message is a record or a row, none both');
    assert.ok(
      killed.records > 0 && killed.records < DEPTH,
      `killed midway: ${killed.records} records left`,
    );
    assert.equal(killed.layout, '1');

    server = await startEdge({ args: ['--persist', dir] });
    const q = queueOf(server.connectionString);
    assert.equal((await q.getProperties()).approximateMessagesCount, DEPTH);
    const peeked = (await q.peekMessages({ numberOfMessages: 32 })).peekedMessageItems;
    assert.equal(peeked.length, 32);
    const got = await q.receiveMessages({ numberOfMessages: 32 });
    assert.deepEqual(
      got.receivedMessageItems.map((m) => m.messageId),
      peeked.map((m) => m.messageId),
    );
    for (const m of got.receivedMessageItems) await q.deleteMessage(m.messageId, m.popReceipt);
    assert.equal((await q.getProperties()).approximateMessagesCount, DEPTH - 32);
    assert.equal(await server.stop(), 0);
    server = null;
    const after = stored(dir);
    assert.deepEqual([after.records, after.messages, after.layout], [0, DEPTH - 32, '2']);
  } catch (err) {
    // What workerd said is the first thing to read when this fails.
    throw new Error(`${/** @type {Error} */ (err).message}\n${server?.output() ?? ''}`, {
      cause: err,
    });
  } finally {
    await server?.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
