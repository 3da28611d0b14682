#!/usr/bin/env node
// Soak: producers and consumers through the official SDK (@azure/storage-queue) against each
// store azqueue has, for a bounded time, with the invariant checked by one ledger at the end
// (scripts/soak/ledger.mjs). Consumers let some visibility timeouts expire on purpose, update
// messages, and one queue is cleared and deleted and recreated over and over
// (scripts/soak/workload.mjs). The stores (hosts):
//   memory    hosts/node/server.mjs in memory, over loopback HTTP;
//   location  hosts/node/server.mjs with --location (its journal), over loopback HTTP;
//   chromium  a Chromium page on IndexedDB, the SDK's browser build in the page through
//             `service.httpClient()`; mid-soak the page is reloaded, then the browser SIGKILLed
//             and relaunched on its profile, and each time the database is reopened;
//   edge      the edge Worker under workerd (miniflare 4) with Durable Object storage, over
//             loopback HTTP; workerd is SIGKILLed mid-soak and restarted on the same storage.
// Each reports memory over time (flat once the queue depth is steady: producers hold each queue
// near a fixed depth): the server's RSS, the browser's RSS and JS heap, workerd's RSS, and the
// wasm memory where it can be read.
//
// Usage: node scripts/soak.mjs [--seconds S] [--store memory|location|chromium|edge|both|all|a,b]
//   default: 300 s per store, `both` (memory and location). `make test` runs `all` for 15 s each;
//   `make bench` runs the long versions.
// Exits 1 on any violation or unexpected error; the last line is `soak: N passed, M failed` (one
// check per store).

import { chromiumHost } from './soak/chromium-host.mjs';
import { edgeHost } from './soak/edge-host.mjs';
import { Ledger } from './soak/ledger.mjs';
import { serverHost } from './soak/server-host.mjs';
import { QUEUES } from './soak/workload.mjs';

/** @import { SoakHost } from './soak/workload.mjs' */
/** @typedef {[number, Record<string, number>]} Sample seconds since the start, figures in MiB */

/** @type {Record<string, () => Promise<SoakHost>>} */
const HOSTS = {
  memory: () => serverHost('memory'),
  location: () => serverHost('location'),
  chromium: chromiumHost,
  edge: edgeHost,
};
/** @type {Record<string, string[]>} */
const GROUPS = { both: ['memory', 'location'], all: Object.keys(HOSTS) };

const args = process.argv.slice(2);
/**
 * @param {string} name
 * @param {string | number} fallback
 */
const flag = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const SECONDS = Number(flag('--seconds', 300));
const STORES = /** @type {string} */ (flag('--store', 'both'))
  .split(',')
  .flatMap((s) => GROUPS[s] ?? [s]);
for (const s of STORES) {
  if (!HOSTS[s]) {
    console.error(`soak: unknown store ${s} (${Object.keys(HOSTS).join(', ')}, both, all)`);
    process.exit(2);
  }
}
const SAMPLE_EVERY_MS = Math.max(1000, (SECONDS * 1000) / 20);

const sleep = (/** @type {number} */ ms) => new Promise((r) => setTimeout(r, ms));

/** @param {string} store */
async function soak(store) {
  const host = await HOSTS[store]();
  const ledger = new Ledger();
  /** Unexpected failures by kind; operations cut off by a restart are counted apart. */
  /** @type {Map<string, number>} */
  const errors = new Map();
  let interrupted = 0;
  /**
   * @param {string} key
   * @param {boolean} transport
   * @param {number} startedAt
   */
  const failed = (key, transport, startedAt) => {
    if (transport && host.interrupted(startedAt)) interrupted++;
    else errors.set(key, (errors.get(key) ?? 0) + 1);
  };
  /** @type {Sample[]} [seconds since the start, { figure: MiB }] */
  const samples = [];
  const started = performance.now();
  const elapsed = () => (performance.now() - started) / 1000;
  let running = true;
  const sampler = async () => {
    while (running) {
      samples.push([elapsed(), await host.memory()]);
      await sleep(SAMPLE_EVERY_MS);
    }
  };
  const sampling = sampler();
  try {
    await host.run({
      ledger,
      seconds: SECONDS,
      churnEveryMs: Math.min(2000, SECONDS * 100),
      failed,
    });
    running = false;
    await sampling;
    samples.push([elapsed(), await host.memory()]);
    ledger.check(await host.present(QUEUES));
  } finally {
    running = false;
    await host.stop();
  }
  return { title: host.title, events: host.events, ledger, errors, interrupted, samples };
}

/**
 * One line per figure: its value at each sample, then from a third of the run to its end.
 * @param {Sample[]} samples
 */
function memoryLines(samples) {
  const names = [...new Set(samples.flatMap(([, figures]) => Object.keys(figures)))];
  return names.flatMap((name) => {
    const series = samples
      .filter(([, f]) => f[name] !== undefined)
      .map(([t, f]) => /** @type {[number, number]} */ ([t, f[name]]));
    if (series.length === 0) return [];
    const third = series[Math.floor(series.length / 3)][1];
    const last = series[series.length - 1][1];
    return [
      `  ${name} (MiB) over time: ${series.map(([t, m]) => `${t.toFixed(0)}s ${m.toFixed(0)}`).join(', ')}`,
      `    from a third of the run to its end: ${third.toFixed(1)} → ${last.toFixed(1)} MiB (×${(last / third).toFixed(2)})`,
    ];
  });
}

let passed = 0;
let failed = 0;
for (const store of STORES) {
  let result;
  try {
    result = await soak(store);
  } catch (err) {
    console.log(`\nsoak (${store}): FAILED to run: ${/** @type {any} */ (err).stack ?? err}`);
    failed++;
    continue;
  }
  const { title, events, ledger, errors, interrupted, samples } = result;
  const s = ledger.stats;
  console.log(
    `\nsoak (${title}, ${SECONDS} s): ${s.puts} puts, ${s.receives} receives, ${s.deliveries} deliveries, ` +
      `${s.deletes} deletes, ${s.updates} updates, ${s.expired} left to expire, ${s.clears} clears, ${s.queueDeletes} queue deletes`,
  );
  for (const e of events) console.log(`  ${e}`);
  if (interrupted)
    console.log(`  ${interrupted} operations cut off by the restart (not acknowledged)`);
  for (const line of memoryLines(samples)) console.log(line);
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
