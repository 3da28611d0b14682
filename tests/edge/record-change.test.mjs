// A change to a queue's record at the edge spans the queue's object and its account's directory
// (hosts/edge/queue-object.mjs): the object announces the change to the directory, then commits
// it. Delete Queue drops the queue's message table in that same commit (sqlite-store.mjs), so
// when the directory cannot be reached the client hears 500 and the queue keeps every message,
// also across a restart; and a Create Queue sent while a Delete Queue waits for the directory is
// served after it, on a new, empty table. The directory's fault comes from
// tests/edge/directory-fault-worker.mjs; the objects and their SQLite are the real ones.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { QueueServiceClient } from '@azure/storage-queue';
import { Miniflare } from 'miniflare';
import { rejectsWith, ROOT } from '../e2e/azqueue_server.mjs';
import { workerOptions } from '../../hosts/edge/miniflare-options.mjs';
import { DEV_ACCOUNT, devConnectionString } from '../../scripts/lib/shared-key.mjs';

/**
 * workerd with the fault worker on `dir`'s objects, and an SDK client of it (one try per call).
 * @param {string} dir
 */
async function start(dir) {
  const mf = new Miniflare({
    ...workerOptions({
      persist: dir,
      scriptPath: path.join(ROOT, 'tests', 'edge', 'directory-fault-worker.mjs'),
    }),
    host: '127.0.0.1',
    port: 0,
  });
  const origin = (await mf.ready).origin;
  const service = QueueServiceClient.fromConnectionString(devConnectionString(origin), {
    retryOptions: { maxTries: 1 },
  });
  /**
   * Sets the directory's fault; resolves to how many intents it has been asked for.
   * @param {{ down?: boolean, delayMs?: number }} fault
   * @returns {Promise<number>}
   */
  const fault = async ({ down = false, delayMs = 0 }) => {
    const query = `down=${down ? 1 : 0}&delayMs=${delayMs}`;
    const response = await fetch(`${origin}/_fault/${DEV_ACCOUNT}?${query}`, { method: 'POST' });
    assert.equal(response.status, 200);
    return /** @type {{ intents: number }} */ (await response.json()).intents;
  };
  return { mf, service, fault };
}

/** @param {import('@azure/storage-queue').QueueClient} queue */
async function texts(queue) {
  const { peekedMessageItems } = await queue.peekMessages({ numberOfMessages: 32 });
  return peekedMessageItems.map((m) => m.messageText).sort();
}

/** @param {QueueServiceClient} service */
async function listed(service) {
  const names = [];
  for await (const q of service.listQueues()) names.push(q.name);
  return names;
}

test('a Delete Queue whose directory cannot be reached answers 500 and changes nothing', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'azqueue-edge-record-'));
  let edge = await start(dir);
  try {
    const queue = edge.service.getQueueClient('doomed');
    await queue.create();
    for (const text of ['one', 'two', 'three']) await queue.sendMessage(text);

    await edge.fault({ down: true });
    await rejectsWith(assert, queue.delete(), 500, 'InternalError');
    await edge.fault({ down: false });

    assert.deepEqual(await texts(queue), ['one', 'three', 'two']);
    assert.equal((await queue.getProperties()).approximateMessagesCount, 3);
    assert.deepEqual(await listed(edge.service), ['doomed']);

    // What is durable says the same.
    await edge.mf.dispose();
    edge = await start(dir);
    const again = edge.service.getQueueClient('doomed');
    assert.deepEqual(await texts(again), ['one', 'three', 'two']);

    // With the directory back, the queue goes, messages and all: created again, it is empty.
    await again.delete();
    await rejectsWith(assert, again.peekMessages(), 404, 'QueueNotFound');
    await again.create();
    assert.deepEqual(await texts(again), []);
    assert.equal((await again.getProperties()).approximateMessagesCount, 0);
  } finally {
    await edge.mf.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('requests sent while a change to the queue record waits for the directory are served after it', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'azqueue-edge-record-'));
  const edge = await start(dir);
  /**
   * Sends `first` (a change to the record) with the directory's answer held back for a second,
   * then, once the directory has been asked, `second`; resolves to both outcomes.
   * @param {{ down: boolean }} fault
   * @param {() => Promise<{ _response: { status: number } }>} first
   * @param {() => Promise<{ _response: { status: number } }>} second
   */
  const overlapping = async ({ down }, first, second) => {
    const asked = await edge.fault({ down, delayMs: 1000 });
    const outcome = (/** @type {Promise<{ _response: { status: number } }>} */ p) =>
      p.then(
        (r) => r._response.status,
        (/** @type {{ statusCode?: number, code?: string }} */ e) => `${e.statusCode} ${e.code}`,
      );
    const firstDone = outcome(first());
    while ((await edge.fault({ down, delayMs: 1000 })) === asked)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const secondDone = outcome(second());
    const outcomes = [await firstDone, await secondDone];
    await edge.fault({});
    return outcomes;
  };
  try {
    const queue = edge.service.getQueueClient('reborn');
    // A Put sent while a Create Queue waits: the create fails, so there is no queue to put in,
    // and no message is left behind for the queue created next.
    assert.deepEqual(
      await overlapping(
        { down: true },
        () => queue.create(),
        () => queue.sendMessage('into a queue that failed to exist'),
      ),
      ['500 InternalError', '404 QueueNotFound'],
    );
    assert.equal((await queue.create())._response.status, 201);
    assert.deepEqual(await texts(queue), []);

    // A Create Queue sent while a Delete Queue waits makes a new queue, on a new table.
    await queue.sendMessage('from before');
    assert.deepEqual(
      await overlapping(
        { down: false },
        () => queue.delete(),
        () => queue.create(),
      ),
      [204, 201],
    );
    await queue.sendMessage('after');
    assert.deepEqual(await texts(queue), ['after']);
    assert.equal((await queue.getProperties()).approximateMessagesCount, 1);
    assert.deepEqual(await listed(edge.service), ['reborn']);
  } finally {
    await edge.mf.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
