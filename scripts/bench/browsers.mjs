#!/usr/bin/env node
// IndexedDB in each browser here, measured the same way in one run (part of `make bench`; needs
// `make build`): Chromium, Firefox ESR and WebKitGTK as plain processes on fresh profiles
// (scripts/lib/browsers.mjs), each running the persistence harness page, driven over HTTP
// (pages/drive.js). Per browser: acknowledged strict puts/s with 1/8/32 concurrent producers
// (BENCH_MS each, default 3000; 64-byte messages), then the reopen time (open() until the
// service answers, median of 3) at 10k and 100k messages. Prints a Markdown table.
// BENCH_BROWSERS picks some (comma-separated).

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serveHarness } from '../lib/browser-harness.mjs';
import { BROWSERS, launchBrowser, virtualDisplay } from '../lib/browsers.mjs';

const MS = Number(process.env.BENCH_MS ?? 3000);
const PRODUCERS = [1, 8, 32];
const SIZES = [10_000, 100_000];
const which = process.env.BENCH_BROWSERS?.split(',') ?? BROWSERS;
const fmt = (/** @type {number} */ n) => Math.round(n).toLocaleString('en-US');

/** @param {string} browser */
function version(browser) {
  const run = (/** @type {string} */ file, /** @type {string[]} */ ...args) =>
    execFileSync(file, args, { encoding: 'utf8' }).trim();
  try {
    if (browser === 'chromium') return run('/usr/bin/chromium', '--version').split('\n').pop();
    if (browser === 'firefox') return run('/usr/bin/firefox-esr', '--version');
    return `WebKitGTK ${run('dpkg-query', '-W', '-f=${Version}', 'libwebkit2gtk-4.1-0')}`;
  } catch {
    return browser;
  }
}

/**
 * @param {string} browser
 * @param {Awaited<ReturnType<typeof serveHarness>>} harness
 * @param {string | undefined} display
 */
async function measure(browser, harness, display) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), `azqueue-bench-${browser}-`));
  const b = launchBrowser(browser, profile, harness.url.replace(/work\.html$/, 'drive.html'), {
    display,
  });
  /** @type {{ browser: string, rates: number[], reopen: number[] }} */
  const out = { browser: version(browser) ?? browser, rates: [], reopen: [] };
  try {
    for (const producers of PRODUCERS) {
      await harness.call('open', { name: `rate-${producers}`, durability: 'strict' });
      const r = await harness.call('putRate', { producers, ms: MS });
      const { transactions } = await harness.call('stats');
      out.rates.push(r.perSecond);
      console.error(
        `${browser}: ${producers} producers: ${fmt(r.perSecond)} strict puts/s, ${transactions} commits, latency ${r.latencyMs.p50.toFixed(1)} / ${r.latencyMs.p99.toFixed(1)} / ${r.latencyMs.max.toFixed(0)} ms (median / p99 / max)`,
      );
    }
    for (const count of SIZES) {
      await harness.call('open', { name: `reopen-${count}` });
      await harness.call('fill', { count });
      /** @type {number[]} */
      const times = [];
      for (let i = 0; i < 3; i++)
        times.push(await harness.call('open', { name: `reopen-${count}` }));
      const held = await harness.call('count', 'big');
      if (held !== count) throw new Error(`${browser}: reopened ${held} of ${count} messages`);
      const ms = times.sort((a, b) => a - b)[1];
      out.reopen.push(ms);
      console.error(`${browser}: reopen of ${fmt(count)}: ${fmt(ms)} ms (median of 3)`);
    }
  } finally {
    await b.close();
    harness.abandon(`${browser} closed`);
    fs.rmSync(profile, { recursive: true, force: true });
  }
  return out;
}

const harness = await serveHarness();
const display = which.includes('webkit') ? await virtualDisplay() : null;
const results = [];
try {
  for (const browser of which) results.push(await measure(browser, harness, display?.display));
} finally {
  await display?.close();
  await harness.close();
}
console.log(
  `\n### IndexedDB per browser (${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)}, ${MS} ms per rate)\n`,
);
console.log(
  `| browser | strict puts/s, ${PRODUCERS.join(' / ')} producers | reopen ${SIZES.map(fmt).join(' / ')} messages |`,
);
console.log('|---|---:|---:|');
for (const r of results)
  console.log(
    `| ${r.browser} | ${r.rates.map(fmt).join(' / ')} | ${r.reopen.map((ms) => `${fmt(ms)} ms`).join(' / ')} |`,
  );
