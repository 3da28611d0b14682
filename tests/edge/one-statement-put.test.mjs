// A Put Message at the edge is one SQL statement when it can be (src/store/sql/schema.rs: the
// INSERT's trigger keeps the queue's counts; src/wasm/instance.rs runs it without
// `transactionSync`, which costs a Put about a tenth of its CPU): this checks, on the real
// objects and their real SQLite, that such Puts open no transaction, that the others (one that
// must purge expired messages first, a Get) still do, and that the counts the trigger kept are
// the ones a restarted object reads. Transactions are counted by
// tests/edge/transaction-count-worker.mjs.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { QueueServiceClient } from '@azure/storage-queue';
import { Miniflare } from 'miniflare';
import { ROOT } from '../e2e/azqueue_server.mjs';
import { workerOptions } from '../../hosts/edge/miniflare-options.mjs';
import { DEV_ACCOUNT, devConnectionString } from '../../scripts/lib/shared-key.mjs';

/**
 * workerd with the counting worker on `dir`'s objects, an SDK client, and the count of a queue
 * object's transactions.
 * @param {string} dir
 */
async function start(dir) {
  const mf = new Miniflare({
    ...workerOptions({
      persist: dir,
      scriptPath: path.join(ROOT, 'tests', 'edge', 'transaction-count-worker.mjs'),
    }),
    host: '127.0.0.1',
    port: 0,
  });
  const origin = (await mf.ready).origin;
  const service = QueueServiceClient.fromConnectionString(devConnectionString(origin), {
    retryOptions: { maxTries: 1 },
  });
  /** @param {string} queue */
  const transactions = async (queue) => {
    const response = await fetch(`${origin}/_transactions/${DEV_ACCOUNT}/${queue}`);
    assert.equal(response.status, 200);
    return /** @type {{ transactions: number }} */ (await response.json()).transactions;
  };
  return { mf, service, transactions };
}

test('a Put into a queue with nothing expired opens no transaction; the counts hold', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'azqueue-edge-one-put-'));
  let edge = await start(dir);
  try {
    const queue = edge.service.getQueueClient('one-statement');
    await queue.create();
    await queue.sendMessage('first');
    // The second Put reads the earliest expiry (so it is not yet known to purge nothing).
    await queue.sendMessage('second');
    const before = await edge.transactions('one-statement');
    for (const text of ['third', 'fourth', 'fifth']) await queue.sendMessage(text);
    assert.equal(await edge.transactions('one-statement'), before, 'Puts opened a transaction');

    // A Get hides and rewrites rows: several statements, so one transaction.
    const { receivedMessageItems } = await queue.receiveMessages({ numberOfMessages: 2 });
    assert.equal(receivedMessageItems.length, 2);
    assert.equal(await edge.transactions('one-statement'), before + 1);

    // A message that expires makes the next Put purge it first: a transaction again.
    await queue.sendMessage('brief', { messageTimeToLive: 1 });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const beforePurge = await edge.transactions('one-statement');
    await queue.sendMessage('sixth');
    assert.equal(await edge.transactions('one-statement'), beforePurge + 1);
    assert.equal((await queue.getProperties()).approximateMessagesCount, 6);

    // What the trigger kept is what a restarted object reads: no message counted twice or lost.
    await edge.mf.dispose();
    edge = await start(dir);
    const reopened = edge.service.getQueueClient('one-statement');
    assert.equal((await reopened.getProperties()).approximateMessagesCount, 6);
    await reopened.sendMessage('seventh');
    assert.equal((await reopened.getProperties()).approximateMessagesCount, 7);
    const { peekedMessageItems } = await reopened.peekMessages({ numberOfMessages: 32 });
    assert.deepEqual(peekedMessageItems.map((m) => m.messageText).sort(), [
      'fifth',
      'fourth',
      'seventh',
      'sixth',
      'third',
    ]);
  } finally {
    await edge.mf.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
