// The soak's Chromium host: Debian's Chromium (playwright-core, the flags of scripts/lib/chromium.mjs)
// on a profile of its own, with a page (page/page.mjs, bundled here with the SDK's browser build
// by esbuild) that runs the workload against an IndexedDB-backed QueueService through
// `service.httpClient()`. The page reports every acknowledgement to the ledger in this process
// through a binding. A third of the way through, the page is reloaded while the workload runs
// (its operations in flight are cut off) and reopens its database; at two thirds, every process of
// the browser is SIGKILLed and it is relaunched on the same profile (what was acknowledged must be
// on disk); at the end the page is reloaded once more, so the ledger checks what a reopened
// database holds.

import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  AccountSASPermissions,
  AccountSASResourceTypes,
  AccountSASServices,
  StorageSharedKeyCredential,
  generateAccountSASQueryParameters,
} from '@azure/storage-queue';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from '../lib/chromium.mjs';
import { DEV_ACCOUNT, DEV_KEY } from '../lib/shared-key.mjs';
import { processTree, pssMiB } from './process-memory.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PKG = path.resolve(HERE, '..', '..', 'pkg', 'web');

/** The page's module and the SDK in one file; the wasm glue stays a file of pkg/web. */
async function bundle() {
  const out = await build({
    entryPoints: [path.join(HERE, 'page', 'page.mjs')],
    bundle: true,
    write: false,
    platform: 'browser', // the SDK's browser build: fetch, DOMParser, no Node built-ins
    format: 'esm',
    target: 'es2022',
    external: ['/pkg/*'],
    logLevel: 'error',
  });
  return out.outputFiles[0].contents;
}

/**
 * Serves the page, its bundle and pkg/web on a free loopback port; resolves to { url, close }.
 * @param {Uint8Array} script
 */
async function servePage(script) {
  if (!fs.existsSync(path.join(PKG, 'azqueue.js')))
    throw new Error('pkg/web is missing: run `make build` first');
  const html = fs.readFileSync(path.join(HERE, 'page', 'index.html'));
  /** @type {Record<string, string>} */
  const types = { '.js': 'text/javascript', '.wasm': 'application/wasm' };
  const server = http.createServer((req, res) => {
    const { pathname } = new URL(/** @type {string} */ (req.url), 'http://x');
    /**
     * @param {string} type
     * @param {string | Uint8Array} body
     */
    const send = (type, body) =>
      res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' }).end(body);
    if (pathname === '/') return send('text/html', html);
    if (pathname === '/soak.js') return send('text/javascript', script);
    const file = path.join(PKG, pathname.replace(/^\/pkg\/web\//, ''));
    if (!pathname.startsWith('/pkg/web/') || !file.startsWith(PKG + path.sep))
      return res.writeHead(404).end();
    fs.readFile(file, (err, bytes) =>
      err
        ? res.writeHead(404).end()
        : send(types[path.extname(file)] ?? 'application/octet-stream', bytes),
    );
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', () => r(undefined)));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise((r) => {
        server.close(r);
        server.closeAllConnections();
      }),
  };
}

/** An account SAS for everything in the queue service: the SDK's browser build signs no keys. */
function serviceUrl() {
  const sas = generateAccountSASQueryParameters(
    {
      expiresOn: new Date(Date.now() + 24 * 3600 * 1000),
      permissions: AccountSASPermissions.parse('rwdlacup'),
      resourceTypes: AccountSASResourceTypes.parse('sco').toString(),
      services: AccountSASServices.parse('q').toString(),
    },
    new StorageSharedKeyCredential(DEV_ACCOUNT, DEV_KEY),
  );
  return `http://127.0.0.1/${DEV_ACCOUNT}?${sas}`;
}

/**
 * The browser's own process: the one on `profile` that is not a child process (no --type=).
 * @param {string} profile
 */
function browserPid(profile) {
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let cmdline;
    try {
      cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    if (
      cmdline.includes(`--user-data-dir=${profile}`) &&
      !cmdline.some((a) => a.startsWith('--type='))
    )
      return Number(entry);
  }
  throw new Error(`no Chromium process on ${profile}`);
}

/** Matches playwright's errors for a page that went away under an evaluate (reload, kill). */
const CUT = /context was destroyed|target closed|has been closed|navigat|crash/i;

/** @import { SoakHost } from './workload.mjs' */

/**
 * A soak host (see soak.mjs) for the IndexedDB store in Chromium.
 * @returns {Promise<SoakHost>}
 */
export async function chromiumHost() {
  const site = await servePage(await bundle());
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'azqueue-soak-chromium-'));
  /**
   * Where the page's ledger calls go; set by run().
   * @type {((kind: string, ...args: any[]) => unknown) | null}
   */
  let onLedger = null;
  /** @type {string[]} */
  const pageErrors = [];

  /** Starts Chromium on the soak's profile with the page loaded: { context, page, pid, cdp }. */
  const launch = async () => {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      args: CHROMIUM_ARGS,
    });
    await context.exposeBinding('soakLedger', (_source, kind, ...args) =>
      /** @type {NonNullable<typeof onLedger>} */ (onLedger)(kind, ...args),
    );
    const page = context.pages()[0] ?? (await context.newPage());
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    return { context, page, pid: browserPid(profile), cdp: await context.newCDPSession(page) };
  };
  let browser = await launch();

  /**
   * (Re)loads the page and opens its database; resolves to the milliseconds the open took.
   * @param {boolean} reload
   */
  const load = async (reload) => {
    const { page } = browser;
    if (reload) await page.reload();
    else await page.goto(site.url);
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'ready');
    return page.evaluate(async () => {
      const t = performance.now();
      await window.soak.open();
      return performance.now() - t;
    });
  };
  await load(false);
  const now = () => browser.page.evaluate(() => window.soak.now());
  /** @type {string[]} */
  const events = [];

  return {
    title: 'Chromium, IndexedDB',
    // A reload or a kill cuts the page's operations off silently: no failure to excuse.
    interrupted: () => false,
    events,
    async run({ ledger, seconds, churnEveryMs, failed }) {
      onLedger = (kind, ...args) =>
        kind === 'failed'
          ? /** @type {(...a: any[]) => unknown} */ (failed)(...args)
          : /** @type {Record<string, (...a: unknown[]) => unknown>} */ (
              /** @type {unknown} */ (ledger)
            )[kind](...args);
      const from = await now();
      const until = from + seconds * 1000;
      const options = { serviceUrl: serviceUrl(), until, churnEveryMs };
      const at = async () => (((await now()) - from) / 1000).toFixed(1);
      /** The workload in the page until `until`, or until the page goes away. */
      const live = (/** @type {string} */ tag) =>
        browser.page
          .evaluate((o) => window.soak.run(o), { ...options, tag })
          .then(
            () => 'it had finished',
            (err) => (CUT.test(err.message) ? 'cutting it off' : Promise.reject(err)),
          );
      const started = performance.now();
      /** Waits until `k` thirds of the soak have passed since it started. */
      const thirds = (/** @type {number} */ k) =>
        new Promise((r) => setTimeout(r, started + (k * seconds * 1000) / 3 - performance.now()));

      const first = live('a');
      await thirds(1);
      const reloadAt = await at();
      const reopenMs = await load(true);
      events.push(
        `page reloaded at ${reloadAt} s, ${await first}; IndexedDB reopened in ${reopenMs.toFixed(0)} ms`,
      );

      const second = live('b');
      await thirds(2);
      const killAt = await at();
      // Every process of the browser at once, as a crash or an OOM kill would take it.
      for (const p of processTree(browser.pid)) {
        try {
          process.kill(p, 'SIGKILL');
        } catch {
          // gone already
        }
      }
      const cut = await second;
      browser = await launch();
      const relaunchMs = await load(false);
      events.push(
        `browser SIGKILLed at ${killAt} s, ${cut}; relaunched on its profile, IndexedDB reopened in ${relaunchMs.toFixed(0)} ms`,
      );

      await live('c');
      const finalMs = await load(true);
      events.push(`reloaded at the end; reopened in ${finalMs.toFixed(0)} ms, then checked`);
      if (pageErrors.length) throw new Error(`page errors: ${pageErrors.join('; ')}`);
    },
    async memory() {
      /** @type {Record<string, number>} */
      const figures = {};
      const pss = processTree(browser.pid).reduce((sum, p) => sum + pssMiB(p), 0);
      if (pss > 0) figures['browser PSS (all its processes)'] = pss;
      try {
        // What is still reachable, not what the collector has not got round to yet.
        await browser.cdp.send('HeapProfiler.collectGarbage');
        const heap = await browser.cdp.send('Runtime.getHeapUsage');
        figures['JS heap'] = heap.usedSize / 2 ** 20;
        figures['wasm memory'] =
          (await browser.page.evaluate(() => window.soak.wasmBytes())) / 2 ** 20;
      } catch {
        // the page is reloading or the browser restarting: no figure for this sample
      }
      return figures;
    },
    async present(queues) {
      const rows = await browser.page.evaluate((q) => window.soak.present(q), queues);
      return new Map(rows.map(([id, text, dequeueCount]) => [id, { text, dequeueCount }]));
    },
    // pkg/web is built without the `faults` feature (its size ceiling): no rules to count.
    injected: async () => null,
    async stop() {
      await browser.context.close();
      await site.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}
