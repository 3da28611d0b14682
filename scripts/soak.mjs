#!/usr/bin/env node
// Soak: producers and consumers through the official SDK (@azure/storage-queue) against
// `www/server.mjs`, in memory and with --location, for a bounded time, with the invariant
// checked by a ledger at the end. Consumers let some visibility timeouts expire on purpose,
// update messages, and one queue is cleared and deleted and recreated over and over.
//
// The ledger checks, per store:
//   - every acknowledged put was delivered at least once or is still there at the end (unless a
//     clear or a delete of its queue was acknowledged after the put was);
//   - nothing is delivered after its delete was acknowledged;
//   - a message's DequeueCount grows with every delivery, and the text delivered is one that was
//     acknowledged for it (its put or an update);
// and reports the server's RSS over time (flat once the queue depth is steady: producers hold
// each queue near a fixed depth).
//
// Usage: node scripts/soak.mjs [--seconds S] [--store memory|location|both]
//   default: 300 s per store, both stores (`make bench`); `make test` runs 15 s per store.
// Exits 1 on any violation; the last line is `soak: N passed, M failed` (one check per store
// and invariant).

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { QueueServiceClient } from '@azure/storage-queue';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const SECONDS = Number(flag('--seconds', 300));
const STORES = flag('--store', 'both') === 'both' ? ['memory', 'location'] : [flag('--store')];
const PRODUCERS = 4;
const CONSUMERS = 4;
/** Steady queues, plus one that is cleared, deleted and recreated. */
const STEADY = ['soak-a', 'soak-b', 'soak-c'];
const CHURN = 'soak-churn';
/** Producers pause while a queue holds more than this many unsettled messages. */
const DEPTH = 300;
const RSS_EVERY_MS = Math.max(1000, (SECONDS * 1000) / 20);

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Starts the server; resolves to { connectionString, origin, pid, stop() }. */
function startServer(store) {
  const dir = store === 'location' ? fs.mkdtempSync(path.join(os.tmpdir(), 'azqueue-soak-')) : null;
  const child = spawn(
    process.execPath,
    [
      path.join(ROOT, 'www', 'server.mjs'),
      '--queuePort',
      '0',
      '--webPort',
      '0',
      '--silent',
      ...(dir ? ['--location', dir] : []),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  return new Promise((resolve, reject) => {
    const onData = (d) => {
      out += d;
      const m = /azqueue ready: queue (\S+) web \S+ connection "([^"]+)"/.exec(out);
      if (!m) return;
      child.stdout.off('data', onData);
      resolve({
        connectionString: m[2],
        origin: new URL(m[1]).origin,
        pid: child.pid,
        stop: () =>
          new Promise((done) => {
            child.once('exit', () => {
              if (dir) fs.rmSync(dir, { recursive: true, force: true });
              done();
            });
            child.kill('SIGTERM');
          }),
      });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (d) => {
      out += d;
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
}

/** The server's resident set, in MiB. */
function rssMiB(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) / 1024;
}

class Ledger {
  /** id → { queue, texts: Set, sentAt } for every acknowledged put. */
  puts = new Map();
  /** id → the DequeueCounts delivered (each delivery must bring a new, higher one). */
  dequeues = new Map();
  delivered = new Set();
  /** id → when its delete was acknowledged. */
  deleted = new Map();
  /** queue → when its last clear or delete was acknowledged. */
  wipedAt = new Map();
  violations = [];
  stats = {
    puts: 0,
    receives: 0,
    deliveries: 0,
    deletes: 0,
    updates: 0,
    expired: 0,
    clears: 0,
    queueDeletes: 0,
  };

  unsettled(queue) {
    return this.depth.get(queue) ?? 0;
  }

  depth = new Map();

  put(queue, id, text, sentAt) {
    // A put's answer may be read after a consumer already received and updated the message
    // (the two run on different connections), so keep any text an update noted meanwhile.
    const texts = this.updatedTexts.get(id) ?? new Set();
    texts.add(text);
    this.puts.set(id, { queue, texts, sentAt });
    this.depth.set(queue, this.unsettled(queue) + 1);
    this.stats.puts++;
  }

  /** `m` came from a receive sent at `askedAt` (answers may be read out of order under load). */
  deliver(m, askedAt) {
    this.stats.deliveries++;
    const id = m.messageId;
    if (askedAt > (this.deleted.get(id) ?? Infinity)) {
      this.violations.push(`delivered after its delete was acknowledged: ${id}`);
    }
    const put = this.puts.get(id);
    if (put && !put.texts.has(m.messageText)) {
      this.violations.push(
        `${id} delivered with text ${JSON.stringify(m.messageText)}, never acknowledged for it`,
      );
    }
    const counts = this.dequeues.get(id) ?? new Set();
    if (counts.has(m.dequeueCount))
      this.violations.push(`${id}: DequeueCount ${m.dequeueCount} delivered twice`);
    counts.add(m.dequeueCount);
    this.dequeues.set(id, counts);
    this.delivered.add(id);
  }

  /** Noted before the update is sent: its text may be delivered from the moment it lands. */
  updating(id, text) {
    const texts = this.puts.get(id)?.texts ?? this.updatedTexts.get(id) ?? new Set();
    texts.add(text);
    if (!this.puts.has(id)) this.updatedTexts.set(id, texts);
  }

  /** Texts noted by updates of messages whose put was not yet acknowledged to the producer. */
  updatedTexts = new Map();

  delete(queue, id) {
    this.deleted.set(id, performance.now());
    if (this.puts.has(id)) this.depth.set(queue, this.unsettled(queue) - 1);
    this.stats.deletes++;
  }

  /** A clear or delete of `queue` was acknowledged: it may have taken any put sent before now. */
  wiped(queue) {
    this.wipedAt.set(queue, performance.now());
    this.depth.set(queue, 0);
  }

  /** The final check against what the server holds: id → { text, dequeueCount }. */
  check(present) {
    let missing = 0;
    for (const [id, put] of this.puts) {
      if (this.deleted.has(id) || this.delivered.has(id) || present.has(id)) continue;
      if (put.sentAt < (this.wipedAt.get(put.queue) ?? -1)) continue;
      missing++;
      if (missing <= 5)
        this.violations.push(
          `acknowledged put ${id} (${put.queue}) was never delivered and is gone`,
        );
    }
    if (missing > 5) this.violations.push(`… ${missing} acknowledged puts lost in all`);
    for (const [id, m] of present) {
      if (this.deleted.has(id)) this.violations.push(`acknowledged delete of ${id} came back`);
      if (m.dequeueCount < Math.max(0, ...(this.dequeues.get(id) ?? []))) {
        this.violations.push(`${id}: DequeueCount went back to ${m.dequeueCount}`);
      }
    }
  }
}

/** Everything the server holds in the queues (invisible messages included), from its inspection path. */
async function present(origin, queues) {
  const out = new Map();
  for (const q of queues) {
    const r = await fetch(`${origin}/_azqueue/inspect/devstoreaccount1/${q}`);
    if (r.status === 404) continue;
    for (const m of (await r.json()).messages)
      out.set(m.messageId, { text: m.messageText, dequeueCount: m.dequeueCount });
  }
  return out;
}

async function soak(store) {
  const server = await startServer(store);
  const client = QueueServiceClient.fromConnectionString(server.connectionString, {
    retryOptions: { maxTries: 1 },
  });
  const queues = [...STEADY, CHURN];
  for (const q of queues) await client.getQueueClient(q).createIfNotExists();
  const ledger = new Ledger();
  const errors = new Map();
  const tally = (err) => {
    const key = `${err.statusCode ?? ''} ${err.code ?? err.message}`;
    errors.set(key, (errors.get(key) ?? 0) + 1);
  };
  const rss = [];
  const started = performance.now();
  const until = started + SECONDS * 1000;
  const running = () => performance.now() < until;
  let n = 0;

  const producer = async (p) => {
    while (running()) {
      const q = queues[(p + n) % queues.length];
      if (ledger.unsettled(q) > DEPTH) {
        await sleep(5);
        continue;
      }
      const text = `m${p}-${n++}`;
      const sentAt = performance.now();
      try {
        const sent = await client.getQueueClient(q).sendMessage(text, { messageTimeToLive: -1 });
        ledger.put(q, sent.messageId, text, sentAt);
      } catch (err) {
        // The churn queue may be between its delete and its recreation: 404, not acknowledged.
        if (!(q === CHURN && err.statusCode === 404)) tally(err);
      }
    }
  };

  const consumer = async (c) => {
    let i = 0;
    while (running()) {
      const q = queues[(c + i++) % queues.length];
      const queue = client.getQueueClient(q);
      let got;
      const askedAt = performance.now();
      try {
        // Short timeouts: the messages left alone below come back with a higher DequeueCount.
        got = await queue.receiveMessages({ numberOfMessages: 16, visibilityTimeout: 1 + (i % 2) });
      } catch (err) {
        if (!(q === CHURN && err.statusCode === 404)) tally(err);
        continue;
      }
      ledger.stats.receives++;
      for (const m of got.receivedMessageItems) {
        ledger.deliver(m, askedAt);
        const roll = (m.messageId.charCodeAt(0) + i) % 10;
        try {
          if (roll < 6) {
            await queue.deleteMessage(m.messageId, m.popReceipt);
            ledger.delete(q, m.messageId);
          } else if (roll < 8) {
            const text = `${m.messageText}+u`;
            ledger.updating(m.messageId, text);
            const updated = await queue.updateMessage(m.messageId, m.popReceipt, text, 1);
            ledger.stats.updates++;
            if (roll === 7) {
              await queue.deleteMessage(m.messageId, updated.popReceipt);
              ledger.delete(q, m.messageId);
            }
          } else {
            ledger.stats.expired++; // left to reappear when its visibility timeout expires
          }
        } catch (err) {
          // A receipt overtaken by a redelivery (the timeout expired first) or a queue wiped
          // underneath: the operation was not acknowledged, so the ledger is unchanged.
          if (err.statusCode !== 404) tally(err);
        }
      }
    }
  };

  const churn = async () => {
    const queue = client.getQueueClient(CHURN);
    let round = 0;
    while (running()) {
      await sleep(Math.min(2000, SECONDS * 100));
      try {
        if (round++ % 2 === 0) {
          await queue.clearMessages();
          ledger.stats.clears++;
        } else {
          await queue.delete();
          ledger.stats.queueDeletes++;
          ledger.wiped(CHURN);
          await queue.create();
        }
        ledger.wiped(CHURN);
      } catch (err) {
        tally(err);
      }
    }
  };

  const sampler = async () => {
    while (running()) {
      rss.push([(performance.now() - started) / 1000, rssMiB(server.pid)]);
      await sleep(RSS_EVERY_MS);
    }
  };

  await Promise.all([
    ...Array.from({ length: PRODUCERS }, (_, p) => producer(p)),
    ...Array.from({ length: CONSUMERS }, (_, c) => consumer(c)),
    churn(),
    sampler(),
  ]);
  rss.push([(performance.now() - started) / 1000, rssMiB(server.pid)]);
  ledger.check(await present(server.origin, queues));
  await server.stop();
  return { ledger, errors, rss };
}

let passed = 0;
let failed = 0;
for (const store of STORES) {
  const { ledger, errors, rss } = await soak(store);
  const s = ledger.stats;
  console.log(
    `\nsoak (${store}, ${SECONDS} s): ${s.puts} puts, ${s.receives} receives, ${s.deliveries} deliveries, ` +
      `${s.deletes} deletes, ${s.updates} updates, ${s.expired} left to expire, ${s.clears} clears, ${s.queueDeletes} queue deletes`,
  );
  console.log(
    `  server RSS (MiB) over time: ${rss.map(([t, m]) => `${t.toFixed(0)}s ${m.toFixed(0)}`).join(', ')}`,
  );
  const third = rss[Math.floor(rss.length / 3)][1];
  const last = rss[rss.length - 1][1];
  console.log(
    `  RSS from a third of the run to its end: ${third.toFixed(1)} → ${last.toFixed(1)} MiB (×${(last / third).toFixed(2)})`,
  );
  if (errors.size)
    console.log(`  unexpected errors: ${[...errors].map(([k, v]) => `${k} ×${v}`).join(', ')}`);
  for (const v of ledger.violations.slice(0, 20)) console.log(`  VIOLATION: ${v}`);
  const ok = ledger.violations.length === 0 && errors.size === 0 && s.puts > 0 && s.deliveries > 0;
  console.log(`  ${ok ? 'ok' : 'FAILED'}: ${ledger.violations.length} violations`);
  if (ok) passed++;
  else failed++;
}
console.log(`soak: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
