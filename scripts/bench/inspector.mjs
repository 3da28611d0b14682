// What an open inspector costs producers: 20,000 Put Messages from 16 concurrent callers (raw
// keep-alive clients, scripts/lib/raw-queue-client.mjs) against `node hosts/node/server.mjs`, once with
// no page open and once with the inspector (`/?view=inspect&queue=<q>`, a real headless Chromium)
// open on the very queue they fill, alternated round by round in one run. The server's CPU is
// read from /proc/<pid>/stat around each phase, the page's work is what Chromium does in its own
// processes (the machine's two cores are shared, as on a developer's laptop).
//
// Prints a markdown table (progress on stderr): producer throughput without and with the page,
// their ratio, and server CPU per message.
//
// Usage: node scripts/bench/inspector.mjs
// Environment: BENCH_INSPECTOR_SENDS (default 20000), BENCH_INSPECTOR_CALLERS (default 16),
// BENCH_INSPECTOR_ROUNDS (default 5).

import fs from 'node:fs';
import os from 'node:os';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from '../lib/chromium.mjs';
import { startServer } from '../lib/azqueue-server.mjs';
import { Client } from '../lib/raw-queue-client.mjs';

const SENDS = Number(process.env.BENCH_INSPECTOR_SENDS ?? 20000);
const CALLERS = Number(process.env.BENCH_INSPECTOR_CALLERS ?? 16);
const ROUNDS = Number(process.env.BENCH_INSPECTOR_ROUNDS ?? 5);
const TEXT = 'job '.padEnd(100, '.');

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
 * CPU spent between two readings of `descendantsCpuMs`: a process gone by the second (a closed
 * page's renderer) counts nothing, one new in it counts all it spent.
 * @param {Map<number, number>} before
 * @param {Map<number, number>} after
 */
function spent(before, after) {
  let total = 0;
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
  return total;
}

/**
 * Sends SENDS messages to `queue` from CALLERS clients, each on its own connection; resolves
 * with the wall time in ms.
 * @param {number} port
 * @param {string} queue
 */
async function produce(port, queue) {
  const clients = Array.from({ length: CALLERS }, () => new Client(port, queue));
  let left = SENDS;
  const start = performance.now();
  await Promise.all(
    clients.map(async (c) => {
      while (left > 0) {
        left--;
        await c.put(`<QueueMessage><MessageText>${TEXT}</MessageText></QueueMessage>`);
      }
    }),
  );
  const ms = performance.now() - start;
  const errors = clients.reduce((n, c) => n + c.errors, 0);
  for (const c of clients) c.close();
  if (errors) throw new Error(`${errors} puts failed: ${clients.find((c) => c.errors)?.lastError}`);
  return ms;
}

async function main() {
  const server = await startServer({ args: ['--inMemoryPersistence'] });
  const port = Number(new URL(server.queueUrl).port);
  const pid = /** @type {number} */ (server.child.pid);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  /** @type {Record<'none' | 'open', { ms: number[], cpu: number[], page: number[] }>} */
  const runs = { none: { ms: [], cpu: [], page: [] }, open: { ms: [], cpu: [], page: [] } };
  let serial = 0;
  try {
    for (let round = 0; round < ROUNDS + 1; round++) {
      // Round 0 warms the server's JIT and Chromium up and is not counted.
      /** @type {Array<'none' | 'open'>} */
      const modes = round % 2 ? ['open', 'none'] : ['none', 'open'];
      for (const mode of modes) {
        const queue = `bench-inspector-${serial++}`;
        const setup = new Client(port, queue);
        await setup.createQueue();
        /** @type {import('playwright-core').Page | null} */
        let page = null;
        if (mode === 'open') {
          page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
          await page.goto(`${server.webUrl}?view=inspect&queue=${queue}`);
          await page.locator('[data-testid=live][data-live=true]').waitFor({ timeout: 10_000 });
        }
        const cpu0 = cpuMs(pid);
        const page0 = descendantsCpuMs(process.pid, [pid]);
        const ms = await produce(port, queue);
        const cpu = cpuMs(pid) - cpu0;
        const pageCpu = spent(page0, descendantsCpuMs(process.pid, [pid]));
        if (page) {
          // The page has caught up when it counts every message.
          await page
            .locator(`[data-testid=counts][data-total="${SENDS}"]`)
            .waitFor({ timeout: 60_000 });
          await page.close();
        }
        await setup.deleteQueue();
        setup.close();
        say(
          `round ${round} ${mode}: ${ms.toFixed(0)} ms, server CPU ${cpu.toFixed(0)} ms, ` +
            `Chromium CPU ${pageCpu.toFixed(0)} ms`,
        );
        if (round > 0) {
          runs[mode].ms.push(ms);
          runs[mode].cpu.push(cpu);
          runs[mode].page.push(pageCpu);
        }
      }
    }
  } finally {
    await browser.close();
    await server.stop();
  }
  const median = (/** @type {number[]} */ xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const rate = (/** @type {number} */ ms) => (SENDS / ms) * 1000;
  const none = median(runs.none.ms);
  const open = median(runs.open.ms);
  console.log(
    `\n### Producers with an open inspector (${SENDS} puts of 100 B, ${CALLERS} callers, ` +
      `median of ${ROUNDS}; ${os.cpus().length} cores)\n`,
  );
  console.log('| page | time | puts/s | server CPU per put | Chromium CPU per put |');
  console.log('|---|--:|--:|--:|--:|');
  for (const mode of /** @type {const} */ (['none', 'open'])) {
    const ms = median(runs[mode].ms);
    const cpu = median(runs[mode].cpu);
    console.log(
      `| ${mode === 'none' ? 'none' : 'inspector open on the queue'} | ${(ms / 1000).toFixed(2)} s | ` +
        `${rate(ms).toFixed(0)} | ${((cpu / SENDS) * 1000).toFixed(0)} µs | ` +
        `${((median(runs[mode].page) / SENDS) * 1000).toFixed(0)} µs |`,
    );
  }
  console.log(`\nopen / none throughput: ${(rate(open) / rate(none)).toFixed(2)}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
