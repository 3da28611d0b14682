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
// With `--faults P`, a fraction P of the Put, Get, Delete and Update Message requests is answered
// 503 ServerBusy or 500 OperationTimedOut, before or after the operation (soak/faults.mjs), on
// the Node server (POST /_azqueue/faults) and the edge Worker (AZQUEUE_FAULTS); the SDK retries
// (short delays), the ledger learns what each try did (soak/fault-watch.mjs) and checks it, and a
// store where no fault fired fails. The Chromium store runs without: pkg/web has no fault rules.
//
// Usage: node scripts/soak.mjs [--seconds S] [--store memory|location|chromium|edge|both|all|a,b]
//                              [--faults P] [--seed N]
//   default: 300 s per store, `both` (memory and location), no faults; --seed (default 1) seeds
//   the rules' draws. `make test` runs `all` for 15 s each with --faults 0.1; `make bench` runs
//   the long versions.
// Exits 1 on any violation or unexpected error; the last line is `soak: N passed, M failed` (one
// check per store).

import { chromiumHost } from './soak/chromium-host.mjs';
import { edgeHost } from './soak/edge-host.mjs';
import { faultRuleSet } from './soak/faults.mjs';
import { Ledger } from './soak/ledger.mjs';
import { serverHost } from './soak/server-host.mjs';
import { QUEUES } from './soak/workload.mjs';

/** @import { SoakHost } from './soak/workload.mjs' */
/** @typedef {[number, Record<string, number>]} Sample seconds since the start, figures in MiB */

/** @type {Record<string, (options: { faults?: object }) => Promise<SoakHost>>} */
const HOSTS = {
  memory: (o) => serverHost('memory', o),
  location: (o) => serverHost('location', o),
  chromium: () => chromiumHost(),
  edge: edgeHost,
};
/** The stores that take fault rules. */
const FAULTED = new Set(['memory', 'location', 'edge']);
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
const FAULTS = flag('--faults', '') === '' ? 0 : Number(flag('--faults', ''));
const SEED = Number(flag('--seed', 1));
if (!(FAULTS >= 0 && FAULTS <= 1) || !Number.isInteger(SEED) || SEED < 0) {
  console.error('soak: --faults takes a fraction from 0 to 1, --seed a whole number');
  process.exit(2);
}
const SAMPLE_EVERY_MS = Math.max(1000, (SECONDS * 1000) / 20);

const sleep = (/** @type {number} */ ms) => new Promise((r) => setTimeout(r, ms));

/** @param {string} store */
async function soak(store) {
  const faulted = FAULTS > 0 && FAULTED.has(store);
  const host = await HOSTS[store]({ faults: faulted ? faultRuleSet(FAULTS, SEED) : undefined });
  const ledger = new Ledger({ faults: faulted });
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
  /** @type {{ total: number, by: Record<string, number> } | null} */
  let injected = null;
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
    injected = faulted ? await host.injected() : null;
  } finally {
    running = false;
    await host.stop();
  }
  return {
    title: host.title,
    events: host.events,
    ledger,
    errors,
    interrupted,
    samples,
    faulted,
    injected,
  };
}

/**
 * The faults' lines: what the service injected and what the clients were answered (the two
 * must agree where the service can say), what came of them; and why the run fails, if it does.
 * @param {Ledger} ledger
 * @param {{ total: number, by: Record<string, number> } | null} injected
 * @returns {{ lines: string[], failure: string }}
 */
function faultLines(ledger, injected) {
  const seen = ledger.faultsSeen;
  const by = (/** @type {Iterable<[string, number]>} */ counts) =>
    [...counts]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => `${k} ×${v}`)
      .join(', ');
  const lines = [
    `  faults (${Number((FAULTS * 100).toPrecision(3))} % of Put/Get/Delete/Update, seed ${SEED}): ` +
      (injected
        ? `${injected.total} injected by the service (GET /_azqueue/faults), `
        : 'the service cannot be asked for its counts here, ') +
      `${seen} faulted answers to the clients, of ${ledger.stats.tries} tries ` +
      `(${((100 * seen) / Math.max(1, ledger.stats.tries)).toFixed(1)} %: ${by(ledger.faults)})`,
    `    ${[...ledger.tries.values()].filter((t) => t.applied > 1).length} texts put by more than one try, ` +
      `${ledger.duplicated} found in more than one message; ${ledger.stats.gaveUp} operations given up after ` +
      "the SDK's last try was faulted too",
  ];
  let failure = '';
  if (seen === 0) failure = 'no fault fired';
  else if (injected && injected.total !== seen)
    failure = `the service injected ${injected.total} faults, the clients were answered ${seen}`;
  return { lines, failure };
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
  const { title, events, ledger, errors, interrupted, samples, faulted, injected } = result;
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
  const faults = faulted ? faultLines(ledger, injected) : { lines: [], failure: '' };
  if (FAULTS > 0 && !faulted) console.log('  without faults: pkg/web is built without fault rules');
  for (const line of faults.lines) console.log(line);
  if (faults.failure) console.log(`  FAULTS: ${faults.failure}`);
  for (const v of ledger.violations.slice(0, 20)) console.log(`  VIOLATION: ${v}`);
  const ok =
    ledger.violations.length === 0 &&
    errors.size === 0 &&
    !faults.failure &&
    s.puts > 0 &&
    s.deliveries > 0;
  console.log(`  ${ok ? 'ok' : 'FAILED'}: ${ledger.violations.length} violations`);
  if (ok) passed++;
  else failed++;
}
console.log(`soak: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
