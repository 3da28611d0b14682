// What a crash test's clients were told, and the check that a restarted service honours it:
// every acknowledged put is still there (unless a consumer had started to delete it), and no
// acknowledged delete has come back; and the SDK workload that the server crash tests (Node
// server, edge Worker) run until they kill the server. Not a test file itself.

import assert from 'node:assert/strict';
import { QueueServiceClient } from '@azure/storage-queue';

export class Ledger {
  /**
   * messageId → text, for every put the service acknowledged.
   * @type {Map<string, string>}
   */
  puts = new Map();
  /**
   * Ids a consumer was about to delete (recorded *before* the delete was sent).
   * @type {Set<string>}
   */
  deleting = new Set();
  /**
   * Ids whose delete the service acknowledged.
   * @type {Set<string>}
   */
  deleted = new Set();
  acks = 0;

  /**
   * @param {string} id
   * @param {string} text
   */
  put(id, text) {
    this.puts.set(id, text);
    this.acks++;
  }

  /** @param {string} id */
  intend(id) {
    this.deleting.add(id);
  }

  /** @param {string} id */
  delete(id) {
    this.deleted.add(id);
    this.acks++;
  }

  /**
   * Checks `present` (messageId → text, everything the restarted service holds, invisible
   * messages included). Returns the list of violations (empty when all is well).
   * @param {Map<string, string>} present
   */
  check(present) {
    /** @type {string[]} */
    const problems = [];
    for (const [id, text] of this.puts) {
      if (this.deleting.has(id)) continue;
      if (!present.has(id)) problems.push(`lost: acknowledged put ${id} (${text}) is gone`);
      else if (present.get(id) !== text)
        problems.push(`changed: ${id} reads ${present.get(id)}, was put as ${text}`);
    }
    for (const id of this.deleted) {
      if (present.has(id)) problems.push(`resurrected: acknowledged delete of ${id} came back`);
    }
    return problems;
  }
}

/**
 * Kills after a random number of acknowledgements in [min, max): the crash lands mid-work.
 * @param {number} min
 * @param {number} max
 */
export function randomBetween(min, max) {
  return min + Math.floor(Math.random() * (max - min));
}

/**
 * Everything a server holds in `queue` (invisible messages included), from its inspection path.
 * @param {string} origin
 * @param {string} queue
 * @returns {Promise<Map<string, string>>}
 */
export async function present(origin, queue) {
  const r = await fetch(`${origin}/_azqueue/inspect/devstoreaccount1/${queue}`);
  if (r.status === 404) return new Map();
  const { messages } = await r.json();
  return new Map(
    messages.map((/** @type {{ messageId: string, messageText: string }} */ m) => [
      m.messageId,
      m.messageText,
    ]),
  );
}

/**
 * Runs `producers` and `consumers` through the official SDK against `queue` until `stopAt`
 * acknowledgements, recording them in `ledger`, then calls `kill()` (which resolves once the
 * server is dead). Workers stop at their first failed request: the server is gone.
 * @param {{ connectionString: string, queue: string, ledger: Ledger, stopAt: number,
 *   kill: () => Promise<unknown>, producers: number, consumers: number }} options
 */
export async function workUntilKilled({
  connectionString,
  queue: name,
  ledger,
  stopAt,
  kill,
  producers,
  consumers,
}) {
  const client = QueueServiceClient.fromConnectionString(connectionString, {
    retryOptions: { maxTries: 1 },
  });
  const queue = client.getQueueClient(name);
  await queue.createIfNotExists();
  /** @type {Promise<unknown> | null} */
  let killed = null;
  const killOnce = () => {
    killed ??= kill();
  };
  const start = ledger.acks;
  const after = () => {
    if (ledger.acks - start >= stopAt) killOnce();
  };
  let n = 0;
  const producer = async (/** @type {number} */ p) => {
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
      const got = await queue
        .receiveMessages({ numberOfMessages: 8, visibilityTimeout: 300 })
        .catch(() => null);
      if (!got) return;
      for (const m of got.receivedMessageItems) {
        ledger.intend(m.messageId);
        const ok = await queue.deleteMessage(m.messageId, m.popReceipt).then(
          () => true,
          () => false,
        );
        if (!ok) return;
        ledger.delete(m.messageId);
        after();
      }
    }
  };
  await Promise.all([
    ...Array.from({ length: producers }, (_, p) => producer(p)),
    ...Array.from({ length: consumers }, () => consumer()),
  ]);
  killOnce(); // in case every worker stopped on an error first
  return killed;
}

/**
 * The end of a crash test: the server restarted after the last kill holds every acknowledged put
 * and no acknowledged delete; reports the totals on `t` and stops the server (exit code 0).
 * @param {import('node:test').TestContext} t
 * @param {{ server: { origin: string, stop: () => Promise<unknown> }, queue: string,
 *   ledger: Ledger, rounds: number }} options
 */
export async function checkLastRestart(t, { server, queue, ledger, rounds }) {
  try {
    const held = await present(server.origin, queue);
    assert.deepEqual(ledger.check(held), [], 'after the last restart');
    t.diagnostic(
      `${rounds} kills; ${ledger.puts.size} acknowledged puts, ${ledger.deleted.size} acknowledged deletes, ${held.size} messages left; 0 lost, 0 resurrected`,
    );
  } finally {
    assert.equal(await server.stop(), 0);
  }
}
