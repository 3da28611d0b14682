// SIGKILL crash test for `node www/server.mjs --location DIR`: producers and consumers work
// through the official SDK; the server is killed mid-work (after a random number of
// acknowledgements), restarted on the same directory, and checked: every acknowledged put is
// there, no acknowledged delete came back. Rounds: CRASH_ROUNDS (default 3; `make bench` runs
// more). Producers: CRASH_PRODUCERS (default 4), consumers: CRASH_CONSUMERS (default 2).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { QueueServiceClient } from '@azure/storage-queue';
import { startServer } from '../e2e/azqueue_server.mjs';
import { Ledger, randomBetween } from './ledger.mjs';

const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 3);
const PRODUCERS = Number(process.env.CRASH_PRODUCERS ?? 4);
const CONSUMERS = Number(process.env.CRASH_CONSUMERS ?? 2);
const QUEUE = 'crash';

/** Everything the server holds in QUEUE: messageId → text (invisible messages included). */
async function present(server) {
  const r = await fetch(`${server.origin}/_azqueue/inspect/devstoreaccount1/${QUEUE}`);
  if (r.status === 404) return new Map();
  const { messages } = await r.json();
  return new Map(messages.map((m) => [m.messageId, m.messageText]));
}

/** Runs producers and consumers until `stopAt` acknowledgements, then SIGKILLs the server. */
async function workUntilKilled(server, ledger, stopAt) {
  const client = QueueServiceClient.fromConnectionString(server.connectionString, { retryOptions: { maxTries: 1 } });
  const queue = client.getQueueClient(QUEUE);
  await queue.createIfNotExists();
  let killed = false;
  const kill = () => {
    if (killed) return;
    killed = true;
    server.child.kill('SIGKILL');
  };
  const exited = new Promise((r) => server.child.once('exit', (code, signal) => r(signal)));
  const start = ledger.acks;
  const after = () => { if (ledger.acks - start >= stopAt) kill(); };
  let n = 0;
  const producer = async (p) => {
    while (!killed) {
      const text = `p${p}-${n++}-${Math.random().toString(36).slice(2, 8)}`;
      const sent = await queue.sendMessage(text, { messageTimeToLive: -1 }).catch(() => null);
      if (!sent) return;
      ledger.put(sent.messageId, text);
      after();
    }
  };
  const consumer = async () => {
    while (!killed) {
      const got = await queue.receiveMessages({ numberOfMessages: 8, visibilityTimeout: 300 }).catch(() => null);
      if (!got) return;
      for (const m of got.receivedMessageItems) {
        ledger.intend(m.messageId);
        const ok = await queue.deleteMessage(m.messageId, m.popReceipt).then(() => true, () => false);
        if (!ok) return;
        ledger.delete(m.messageId);
        after();
      }
    }
  };
  await Promise.all([
    ...Array.from({ length: PRODUCERS }, (_, p) => producer(p)),
    ...Array.from({ length: CONSUMERS }, () => consumer()),
  ]);
  kill(); // in case every worker stopped on an error first
  assert.equal(await exited, 'SIGKILL');
}

test(`node server with --location survives ${ROUNDS} SIGKILLs: nothing acknowledged is lost or resurrected`, async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'azqueue-crash-node-'));
  const ledger = new Ledger();
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      const server = await startServer({ args: ['--location', dir] });
      assert.deepEqual(ledger.check(await present(server)), [], `after restart ${round - 1}`);
      await workUntilKilled(server, ledger, randomBetween(150, 600));
    }
    const server = await startServer({ args: ['--location', dir] });
    try {
      const held = await present(server);
      assert.deepEqual(ledger.check(held), [], 'after the last restart');
      t.diagnostic(`${ROUNDS} kills; ${ledger.puts.size} acknowledged puts, ${ledger.deleted.size} acknowledged deletes, ${held.size} messages left; 0 lost, 0 resurrected`);
    } finally {
      assert.equal(await server.stop(), 0);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
