#!/usr/bin/env node
// Persistence benchmarks (part of `make bench`; needs `make build`):
//   - acknowledged puts/s, strict vs relaxed, with 1/8/32 concurrent producers:
//       in headless Chromium on the IndexedDB store, and in Node on the journal (in-process,
//       QueueService over `new Journal(dir)`), plus over HTTP against `hosts/node/server.mjs
//       --location` (strict) with the SharedKey-signed keep-alive clients of scripts/lib/raw-queue-client.mjs, one
//       connection per producer (`--inMemoryPersistence` alongside: the journal's own cost);
//   - reopen time (open() until the service answers) at 10k and 100k messages, both stores.
// Each rate runs for BENCH_MS (default 3000) milliseconds. Prints a Markdown table.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Client } from '../lib/raw-queue-client.mjs';
import { Journal } from '../../hosts/node/journal.mjs';
import { launch, serveHarness } from '../lib/browser-harness.mjs';
import { startServer } from '../lib/azqueue-server.mjs';
import { bigSnapshot } from '../lib/harness-pages/big-snapshot.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { QueueService } = createRequire(import.meta.url)(
  path.join(ROOT, 'pkg', 'node', 'azqueue.js'),
);
const MS = Number(process.env.BENCH_MS ?? 3000);
const PRODUCERS = [1, 8, 32];
const SIZES = [10_000, 100_000];
const tmp = (/** @type {string} */ what) =>
  fs.mkdtempSync(path.join(os.tmpdir(), `azqueue-bench-${what}-`));
/** @type {string[][]} */
const rows = [];
const row = (/** @type {string[]} */ ...cells) => {
  rows.push(cells);
  console.error(cells.join('  '));
};
const fmt = (/** @type {number} */ n) => Math.round(n).toLocaleString('en-US');

/**
 * `producers` loops of `send(producerIndex)` for MS milliseconds; acknowledged puts per second.
 * @param {(producer: number) => Promise<void>} send
 * @param {number} producers
 */
async function putRate(send, producers) {
  let acked = 0;
  const deadline = performance.now() + MS;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: producers }, async (_, i) => {
      while (performance.now() < deadline) {
        await send(i);
        acked++;
      }
    }),
  );
  return acked / ((performance.now() - started) / 1000);
}

async function chromium() {
  const harness = await serveHarness();
  const profile = tmp('chromium');
  const browser = await launch(profile, harness.url);
  try {
    for (const durability of /** @type {const} */ (['strict', 'relaxed'])) {
      for (const producers of PRODUCERS) {
        const r = await browser.page.evaluate(async ([durability, producers, ms]) => {
          await window.azq.open({ name: `rate-${durability}-${producers}`, durability });
          const rate = await window.azq.putRate({ producers, ms });
          return { ...rate, transactions: (await window.azq.stats()).transactions };
        }, /** @type {const} */ ([durability, producers, MS]));
        const ms = (/** @type {number} */ x) => x.toFixed(x < 10 ? 1 : 0);
        const { p50, p99, max } = r.latencyMs;
        row(
          'Chromium IndexedDB',
          durability,
          `${producers} producers`,
          `${fmt(r.perSecond)} acknowledged puts/s (${r.transactions} commits; put latency ${ms(p50)} / ${ms(p99)} / ${ms(max)} ms median / p99 / max)`,
        );
      }
    }
    for (const count of SIZES) {
      const ms = await browser.page.evaluate(async (count) => {
        await window.azq.open({ name: `reopen-${count}` });
        await window.azq.fill({ count });
        const times = [];
        for (let i = 0; i < 3; i++) times.push(await window.azq.open({ name: `reopen-${count}` }));
        if ((await window.azq.count('big')) !== count) throw new Error('reopen lost messages');
        return times.sort((a, b) => a - b)[1];
      }, count);
      row('Chromium IndexedDB', 'reopen', `${fmt(count)} messages`, `${fmt(ms)} ms (median of 3)`);
    }
  } finally {
    await browser.close();
    await harness.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

async function journalInProcess() {
  for (const durability of ['strict', 'relaxed']) {
    for (const producers of PRODUCERS) {
      const dir = tmp('journal');
      const journal = new Journal(dir);
      const service = await QueueService.open({ store: journal, durability });
      const q = await service.createQueue('rate');
      const rate = await putRate(() => q.sendMessage('x'.repeat(64)), producers);
      await service.close();
      row(
        'Node journal (in-process)',
        durability,
        `${producers} producers`,
        `${fmt(rate)} acknowledged puts/s (${journal.stats.commits} fsyncs)`,
      );
      await journal.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  for (const count of SIZES) {
    const dir = tmp('reopen');
    let journal = new Journal(dir);
    let service = await QueueService.open({ store: journal });
    await service.importSnapshot(bigSnapshot(count));
    await service.close();
    await journal.close();
    const times = [];
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      journal = new Journal(dir);
      service = await QueueService.open({ store: journal });
      times.push(performance.now() - t);
      if ((await service.queue('big').getProperties()).approximateMessagesCount !== count)
        throw new Error('reopen lost messages');
      await service.close();
      await journal.close();
    }
    row(
      'Node journal',
      'reopen',
      `${fmt(count)} messages`,
      `${fmt(times.sort((a, b) => a - b)[1])} ms (median of 3)`,
    );
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function overHttp() {
  for (const mode of ['--location', '--inMemoryPersistence']) {
    const dir = tmp('http');
    const server = await startServer({
      args: mode === '--location' ? ['--location', dir] : [mode],
    });
    const port = Number(new URL(server.origin).port);
    try {
      for (const producers of PRODUCERS) {
        const clients = Array.from(
          { length: producers },
          () => new Client(port, `rate-${producers}`),
        );
        await clients[0].createQueue();
        const rate = await putRate(async (i) => {
          const c = clients[i];
          if (
            !(await c.put(
              `<QueueMessage><MessageText>${'x'.repeat(64)}</MessageText></QueueMessage>`,
            ))
          )
            throw new Error(`put failed: ${c.lastError}`);
        }, producers);
        for (const c of clients) c.close();
        row(
          'Node server over HTTP',
          mode === '--location' ? 'journal, strict' : 'memory',
          `${producers} producers`,
          `${fmt(rate)} acknowledged puts/s`,
        );
      }
    } finally {
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
}

if (!process.env.BENCH_ONLY || process.env.BENCH_ONLY === 'chromium') await chromium();
if (!process.env.BENCH_ONLY || process.env.BENCH_ONLY === 'journal') await journalInProcess();
if (!process.env.BENCH_ONLY || process.env.BENCH_ONLY === 'http') await overHttp();
console.log(
  `\n### Persistence (${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)}, ${MS} ms per rate)\n`,
);
console.log('| where | mode | load | result |');
console.log('|---|---|---|---|');
for (const r of rows) console.log(`| ${r.join(' | ')} |`);
