// The page side of the Chromium crash test and the browser benchmarks: an IndexedDB-backed
// service, producers and consumers that report every acknowledgement to the test through
// `POST /ledger` to the test's server, and helpers the test calls with page.evaluate.
import init, { QueueService } from '/pkg/web/azqueue.js';
import { bigSnapshot } from './big-snapshot.js';

await init();

const QUEUE = 'crash';

/**
 * Reports to the test; resolves once the test has recorded it.
 * @param {...unknown} entry
 */
async function ledger(...entry) {
  const r = await fetch('/ledger', { method: 'POST', body: JSON.stringify(entry) });
  if (!r.ok) throw new Error(`ledger: ${r.status}`);
}
/** The service `open` opened: the test opens it before calling anything else. */
let service = /** @type {QueueService} */ (/** @type {unknown} */ (null));

/**
 * Opens (or reopens) the service on the database `name`.
 * @param {{ name?: string, durability?: 'strict' | 'relaxed' }} [options]
 */
async function open({ name = 'azqueue-crash', durability = 'strict' } = {}) {
  if (service) {
    await service.close();
    service.free();
  }
  const started = performance.now();
  service = await QueueService.open({ store: 'indexeddb', name, durability, waitForLock: true });
  return performance.now() - started;
}

/**
 * Every message of the crash queue: [[messageId, text], …] (invisible ones included).
 * @returns {[string, string][]}
 */
function present() {
  const account = service.inspect(QUEUE).accounts[0];
  const queue = account?.queues.find((q) => q.name === QUEUE);
  return (queue?.messages ?? []).map((m) => [m.messageId, m.messageText]);
}

/** Producers and consumers until the page dies; every ack goes to the test first. */
async function work({ producers = 4, consumers = 2 } = {}) {
  const q = await service.createQueue(QUEUE);
  let n = 0;
  const producer = async (/** @type {number} */ p) => {
    for (;;) {
      const text = `p${p}-${n++}-${Math.random().toString(36).slice(2, 8)}`;
      const sent = await q.sendMessage(text, { messageTimeToLive: -1 });
      await ledger('put', sent.messageId, text);
    }
  };
  const consumer = async () => {
    for (;;) {
      const got = await q.receiveMessages({ numberOfMessages: 8, visibilityTimeout: 300 });
      // An empty receive changes nothing, so it resolves without touching the store: yield to
      // the event loop rather than spin on microtasks.
      if (got.receivedMessageItems.length === 0) await new Promise((r) => setTimeout(r, 5));
      for (const m of got.receivedMessageItems) {
        await ledger('intend', m.messageId); // recorded before the delete is sent
        await q.deleteMessage(m.messageId, m.popReceipt);
        await ledger('delete', m.messageId);
      }
    }
  };
  for (let p = 0; p < producers; p++) producer(p).catch((e) => ledger('error', String(e)));
  for (let c = 0; c < consumers; c++) consumer().catch((e) => ledger('error', String(e)));
}

/**
 * Acknowledged puts per second with `producers` concurrent senders for `ms` milliseconds, and
 * the latency of each put (median, 99th percentile, worst: a fold's pause shows in the tail).
 * @param {{ producers: number, ms: number }} options
 */
async function putRate({ producers, ms }) {
  const q = await service.createQueue(`rate-${producers}-${Date.now()}`);
  /** @type {number[]} */
  const latencies = [];
  const deadline = performance.now() + ms;
  const producer = async () => {
    while (performance.now() < deadline) {
      const t = performance.now();
      await q.sendMessage('x'.repeat(64));
      latencies.push(performance.now() - t);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: producers }, producer));
  const took = performance.now() - started;
  await service.flush();
  latencies.sort((a, b) => a - b);
  const at = (/** @type {number} */ p) =>
    latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))];
  return {
    acked: latencies.length,
    perSecond: latencies.length / (took / 1000),
    latencyMs: { p50: at(0.5), p99: at(0.99), max: latencies[latencies.length - 1] },
  };
}

/**
 * Replaces everything with `count` messages in one queue (one import transaction).
 * @param {{ count: number }} options
 */
async function fill({ count }) {
  await service.importSnapshot(bigSnapshot(count));
}

/**
 * The store's counters (`GET /_azqueue/store`): committed changes and transactions.
 * @returns {Promise<{ committedChanges: number, durability: string, failed: string | null,
 *   kind: string, transactions: number }>}
 */
async function stats() {
  const r = await service.fetch(new Request('http://127.0.0.1/_azqueue/store'));
  return r.json();
}

/** @param {string} queue */
async function count(queue) {
  return (await service.queue(queue).getProperties()).approximateMessagesCount;
}

/** What the tests and benchmarks call with page.evaluate, as `window.azq`. */
const azq = { open, present, work, putRate, fill, count, stats };
/** @typedef {typeof azq} PageHelpers */
Object.assign(window, { azq });
/** @type {HTMLElement} */ (document.getElementById('status')).textContent = 'ready';
