// What an open inspector costs producers: 20,000 Put Messages from 16 concurrent callers (raw
// keep-alive clients, scripts/lib/raw-queue-client.mjs) against `node hosts/node/server.mjs`, with
// each side in turn, alternated round by round in one run:
// - `none`: no page open;
// - `blank`: an empty page in the same headless Chromium (what Chromium costs by itself);
// - `open`: the inspector (`/?view=inspect&queue=<q>`) open on the very queue they fill;
// - `log`: the same with its request log shown (`&log=1`: the server then records each request;
//   docs/inspector.md, "Request log").
// Before each burst Chromium is let settle: what is measured is a page left open, not one being
// opened. The server's CPU is read from /proc/<pid>/stat around each burst, Chromium's from its
// processes' (the machine's cores are shared, as on a developer's laptop).
//
// Once the page has caught up, Chromium's CPU is read again over IDLE_MS with nothing happening:
// what a page left open on a still queue costs.
//
// Prints a markdown table (progress on stderr): producer throughput per side, server CPU per
// message, Chromium's CPU per message in all and by process, Chromium's CPU while idle, and each
// side's throughput over `none`'s (of the medians, and the median of each round's own ratio).
//
// Usage: node scripts/bench/inspector.mjs
// Environment: BENCH_INSPECTOR_SENDS (default 20000), BENCH_INSPECTOR_CALLERS (default 16),
// BENCH_INSPECTOR_ROUNDS (default 5), BENCH_INSPECTOR_SIDES (default `none,blank,open,log`),
// BENCH_INSPECTOR_PREFILL (messages in the queue before the page opens; default 0),
// BENCH_INSPECTOR_CLIENT (`raw`, the default, or `sdk`: each caller a `QueueClient` of the JS SDK,
// as the issue that asked for this bench measured it: 3,000 sends from 16 callers),
// BENCH_INSPECTOR_PROFILE (a directory: the server writes a CPU profile of its whole run there,
// scripts/lib/cpu-profile.mjs; with BENCH_INSPECTOR_SIDES=open, then none, the two compare).

import fs from 'node:fs';
import os from 'node:os';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from '../lib/chromium.mjs';
import { startServer } from '../lib/azqueue-server.mjs';
import { Client } from '../lib/raw-queue-client.mjs';
import { QueueClient } from '@azure/storage-queue';

const SENDS = Number(process.env.BENCH_INSPECTOR_SENDS ?? 20000);
const CALLERS = Number(process.env.BENCH_INSPECTOR_CALLERS ?? 16);
const ROUNDS = Number(process.env.BENCH_INSPECTOR_ROUNDS ?? 5);
const TEXT = 'job '.padEnd(100, '.');
// Messages put before the page opens: with a page's worth (50) the page's first cards are drawn
// before the burst, which then changes only the counts on screen.
const PREFILL = Number(process.env.BENCH_INSPECTOR_PREFILL ?? 0);
const SDK = process.env.BENCH_INSPECTOR_CLIENT === 'sdk';
/** How long a page is watched with nothing happening, after a second to finish what it drew. */
const IDLE_MS = 3000;

/** @param {string} line */
const say = (line) => process.stderr.write(`${line}\n`);

/**
 * CPU time (user + system) of `pid` so far, in ms.
 * @param {number} pid
 */
function cpuMs(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 (1-based), 11 and 12 after the command.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/**
 * CPU time so far of every process under `root` but those in `skip` and theirs (this run's
 * Chromium: its browser, renderer and GPU processes; the server left out), by pid, in ms.
 * @param {number} root
 * @param {number[]} skip
 * @returns {Map<number, number>}
 */
function descendantsCpuMs(root, skip) {
  /** @type {Map<number, number[]>} */
  const children = new Map();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      // gone since the listing
    }
  }
  /** @type {Map<number, number>} */
  const cpu = new Map();
  const walk = (/** @type {number} */ pid) => {
    for (const c of children.get(pid) ?? []) {
      if (skip.includes(c)) continue;
      try {
        cpu.set(c, cpuMs(c));
      } catch {
        continue;
      }
      walk(c);
    }
  };
  walk(root);
  return cpu;
}

/**
 * Which of Chromium's processes `pid` is: its `--type=` (renderer, gpu-process, zygote), the
 * utility's service (`network`, `storage`, …) or `browser`.
 * @param {number} pid
 */
function processKind(pid) {
  try {
    // Chromium rewrites its children's titles, so their arguments may be joined by spaces.
    const args = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]/);
    const type = args.find((a) => a.startsWith('--type='))?.slice(7);
    if (!type) return 'browser';
    if (type !== 'utility') return type;
    const service = args.find((a) => a.startsWith('--utility-sub-type='))?.slice(19) ?? '';
    return /network/i.test(service) ? 'network' : 'utility';
  } catch {
    return 'gone';
  }
}

/** The kinds of process `spent` sums apart, in the order the table shows them. */
const KINDS = ['browser', 'renderer', 'gpu-process', 'network', 'utility'];

/**
 * CPU spent between two readings of `descendantsCpuMs`, in all and by `processKind`: a process
 * gone by the second (a closed page's renderer) counts nothing, one new in it counts all it spent.
 * @param {Map<number, number>} before
 * @param {Map<number, number>} after
 */
function spent(before, after) {
  /** @type {Record<string, number>} */
  const kinds = {};
  let total = 0;
  for (const [pid, ms] of after) {
    const d = ms - (before.get(pid) ?? 0);
    total += d;
    const kind = processKind(pid);
    kinds[kind] = (kinds[kind] ?? 0) + d;
  }
  return { total, kinds };
}

/**
 * Waits until this run's Chromium is quiet (under 5 % of a core over 250 ms, twice running; at
 * most 10 s): a page just opened is still settling, and Chromium starts a spare renderer
 * process for the next navigation after each one, which by itself took 300–450 ms of CPU
 * during a burst. What is measured is a page left open, not one being opened.
 * @param {number[]} skip
 */
async function settle(skip) {
  let before = descendantsCpuMs(process.pid, skip);
  let quiet = 0;
  for (const start = performance.now(); quiet < 2 && performance.now() - start < 10_000;) {
    await new Promise((r) => setTimeout(r, 250));
    const now = descendantsCpuMs(process.pid, skip);
    quiet = spent(before, now).total < 12.5 ? quiet + 1 : 0;
    before = now;
  }
}

/**
 * Sends SENDS messages to `queue` from CALLERS clients, each on its own connection (raw clients,
 * or with BENCH_INSPECTOR_CLIENT=sdk the JS SDK's, with its own HTTP agent, retries and
 * parsing); resolves with the wall time in ms.
 * @param {number} port
 * @param {string} queue
 * @param {string} connectionString
 */
async function produce(port, queue, connectionString) {
  const raw = SDK ? [] : Array.from({ length: CALLERS }, () => new Client(port, queue));
  /** @type {Array<() => Promise<unknown>>} */
  const senders = SDK
    ? Array.from({ length: CALLERS }, () => {
        const client = new QueueClient(connectionString, queue);
        return () => client.sendMessage(TEXT);
      })
    : raw.map(
        (c) => () => c.put(`<QueueMessage><MessageText>${TEXT}</MessageText></QueueMessage>`),
      );
  let left = SENDS;
  const start = performance.now();
  await Promise.all(
    senders.map(async (send) => {
      while (left > 0) {
        left--;
        await send();
      }
    }),
  );
  const ms = performance.now() - start;
  const errors = raw.reduce((n, c) => n + c.errors, 0);
  for (const c of raw) c.close();
  if (errors) throw new Error(`${errors} puts failed: ${raw.find((c) => c.errors)?.lastError}`);
  return ms;
}

async function main() {
  const profile = process.env.BENCH_INSPECTOR_PROFILE;
  const preload = new URL('../lib/cpu-profile.mjs', import.meta.url).pathname;
  const server = await startServer({
    args: ['--inMemoryPersistence'],
    env: profile ? { NODE_OPTIONS: `--import=${preload}`, CPU_PROFILE_DIR: profile } : {},
  });
  const port = Number(new URL(server.queueUrl).port);
  const pid = /** @type {number} */ (server.child.pid);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  /** @typedef {'none' | 'blank' | 'open' | 'log'} Mode */
  /** @type {Mode[]} */
  const MODES = /** @type {Mode[]} */ (
    (process.env.BENCH_INSPECTOR_SIDES ?? 'none,blank,open,log').split(',')
  );
  /** @type {Record<Mode, { ms: number[], cpu: number[], page: number[], kinds: Record<string, number>[], idle: number[] }>} */
  const runs = {
    none: { ms: [], cpu: [], page: [], kinds: [], idle: [] },
    blank: { ms: [], cpu: [], page: [], kinds: [], idle: [] },
    log: { ms: [], cpu: [], page: [], kinds: [], idle: [] },
    open: { ms: [], cpu: [], page: [], kinds: [], idle: [] },
  };
  let serial = 0;
  try {
    for (let round = 0; round < ROUNDS + 1; round++) {
      // Round 0 warms the server's JIT and Chromium up and is not counted. The sides take turns
      // in going first.
      const modes = MODES.map((_, i) => MODES[(i + round) % MODES.length]);
      for (const mode of modes) {
        const queue = `bench-inspector-${serial++}`;
        const setup = new Client(port, queue);
        await setup.createQueue();
        for (let i = 0; i < PREFILL; i++)
          await setup.put(`<QueueMessage><MessageText>${TEXT}</MessageText></QueueMessage>`);
        /** @type {import('playwright-core').Page | null} */
        let page = null;
        if (mode === 'blank') {
          page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
          await page.goto('about:blank');
        } else if (mode === 'open' || mode === 'log') {
          page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
          const log = mode === 'log' ? '&log=1' : '';
          await page.goto(`${server.webUrl}?view=inspect&queue=${queue}${log}`);
          await page.locator('[data-testid=live][data-live=true]').waitFor({ timeout: 10_000 });
        }
        await settle([pid]);
        const cpu0 = cpuMs(pid);
        const page0 = descendantsCpuMs(process.pid, [pid]);
        const ms = await produce(port, queue, server.connectionString);
        const cpu = cpuMs(pid) - cpu0;
        const pageCpu = spent(page0, descendantsCpuMs(process.pid, [pid]));
        if ((mode === 'open' || mode === 'log') && page) {
          // The page has caught up when it counts every message.
          await page
            .locator(`[data-testid=counts][data-total="${SENDS + PREFILL}"]`)
            .waitFor({ timeout: 60_000 });
        }
        // Chromium's CPU per second while the page shows a still queue.
        let idle = 0;
        if (page) {
          await new Promise((r) => setTimeout(r, 1000));
          const idle0 = descendantsCpuMs(process.pid, [pid]);
          await new Promise((r) => setTimeout(r, IDLE_MS));
          idle = (spent(idle0, descendantsCpuMs(process.pid, [pid])).total * 1000) / IDLE_MS;
        }
        await page?.close();
        await setup.deleteQueue();
        setup.close();
        say(
          `round ${round} ${mode}: ${ms.toFixed(0)} ms, server CPU ${cpu.toFixed(0)} ms, ` +
            `Chromium CPU ${pageCpu.total.toFixed(0)} ms ` +
            `(${KINDS.map((k) => `${k} ${(pageCpu.kinds[k] ?? 0).toFixed(0)}`).join(', ')})` +
            (page ? `, idle ${idle.toFixed(0)} ms/s` : ''),
        );
        if (round > 0) {
          runs[mode].ms.push(ms);
          runs[mode].cpu.push(cpu);
          runs[mode].page.push(pageCpu.total);
          runs[mode].kinds.push(pageCpu.kinds);
          runs[mode].idle.push(idle);
        }
      }
    }
  } finally {
    await browser.close();
    await server.stop();
  }
  const median = (/** @type {number[]} */ xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const rate = (/** @type {number} */ ms) => (SENDS / ms) * 1000;
  const perPut = (/** @type {number} */ ms) => `${((ms / SENDS) * 1000).toFixed(1)} µs`;
  const [load] = os.loadavg();
  console.log(
    `\n### Producers with an open inspector (${SENDS} puts of 100 B, ${CALLERS} ${SDK ? 'JS SDK' : 'raw'} callers, ` +
      `${PREFILL ? `${PREFILL} put before, ` : ''}median of ${ROUNDS}; ${os.cpus().length} cores, load ${load.toFixed(1)} at the end)\n`,
  );
  console.log(
    `| page | time | puts/s | server CPU per put | Chromium CPU per put | ${KINDS.join(' | ')} | Chromium idle |`,
  );
  console.log(`|---|--:|--:|--:|--:|${KINDS.map(() => '--:').join('|')}|--:|`);
  /** @type {Record<Mode, string>} */
  const names = {
    none: 'none',
    blank: 'a blank page',
    open: 'inspector open on the queue',
    log: 'the same, its request log shown',
  };
  for (const mode of MODES) {
    const r = runs[mode];
    console.log(
      `| ${names[mode]} | ${(median(r.ms) / 1000).toFixed(2)} s | ${rate(median(r.ms)).toFixed(0)} | ` +
        `${perPut(median(r.cpu))} | ${perPut(median(r.page))} | ` +
        `${KINDS.map((k) => perPut(median(r.kinds.map((x) => x[k] ?? 0)))).join(' | ')} | ` +
        `${mode === 'none' ? '—' : `${median(r.idle).toFixed(1)} ms/s`} |`,
    );
  }
  if (!MODES.includes('none')) return;
  const none = rate(median(runs.none.ms));
  console.log('');
  // A round's bursts run seconds apart: their ratio is less moved by the
  // machine's other load than the ratio of the medians.
  for (const mode of MODES.filter((m) => m !== 'none')) {
    const paired = runs[mode].ms.map((ms, i) => runs.none.ms[i] / ms).sort((a, b) => a - b);
    console.log(
      `${mode} / none throughput: ${(rate(median(runs[mode].ms)) / none).toFixed(2)} ` +
        `(round by round: median ${median(paired).toFixed(2)}, ` +
        `${paired[0].toFixed(2)}–${paired[paired.length - 1].toFixed(2)})`,
    );
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
