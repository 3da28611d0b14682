// Chromium for the persistence tests and benchmarks: a static server for the harness page and
// the web build, and a Chromium process of our own (so a test can SIGKILL it) driven through
// Playwright over CDP. Never downloads a browser: Debian's /usr/bin/chromium. Not a test file.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(HERE, '..', '..');
const PKG = path.join(ROOT, 'pkg', 'web');
const PAGES = path.join(HERE, 'harness-pages');
/** @typedef {import('./harness-pages/work.js').PageHelpers} PageHelpers */

/** @type {Record<string, string>} */
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };

/**
 * Serves /pkg/web/* from pkg/web and everything else from scripts/lib/harness-pages. The page reports
 * acknowledgements with `POST /ledger` (a JSON array `[kind, ...args]`); the response is sent
 * after `harness.onLedger(kind, ...args)` has run, so once the page has it, the test knows.
 *
 * `harness.call(fn, ...args)` runs `window.azq[fn](...args)` in whatever browser has
 * `drive.html` open and resolves to its result: the page takes commands with `GET /command`
 * (held open until there is one) and answers with `POST /result`. Plain HTTP, so a browser
 * needs no remote protocol at all (Playwright drives only Chromium here).
 */
export async function serveHarness() {
  if (!fs.existsSync(path.join(PKG, 'azqueue.js')))
    throw new Error('pkg/web is missing: run `make build` first');
  /**
   * `onLedger` hears each entry the page's `ledger()` posts: a kind, then its values (JSON).
   * @type {{ onLedger: (kind: string, ...values: any[]) => void }}
   */
  const harness = { onLedger: () => {} };
  /** @type {{ id: number, fn: string, args: unknown[] }[]} */
  const commands = [];
  /** @type {Map<number, { resolve: (value: unknown) => void, reject: (error: Error) => void }>} */
  const pending = new Map();
  /** @type {http.ServerResponse | null} the page's held `GET /command`, answered with the next command */
  let waiting = null;
  let nextId = 1;
  const dispatch = () => {
    if (!waiting || commands.length === 0) return;
    waiting
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify(commands.shift()));
    waiting = null;
  };
  /**
   * @template {keyof PageHelpers} F
   * @param {F} fn
   * @param {Parameters<PageHelpers[F]>} args
   * @returns {Promise<Awaited<ReturnType<PageHelpers[F]>>>}
   */
  const call = (fn, ...args) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      // The page answers with the helper's result (JSON), which `resolve` takes as it comes.
      pending.set(id, { resolve: /** @type {(value: unknown) => void} */ (resolve), reject });
      commands.push({ id, fn, args });
      dispatch();
    });
  /**
   * Fails every call not yet answered (the browser died): `why` is the error. Also drops the
   * dead page's held `GET /command`: its connection can outlive the browser process the test
   * waited for (WebKitGTK's network process holds it and dies a moment later), and the next
   * page's first command would go down it and be lost.
   * @param {string} why
   */
  const abandon = (why) => {
    waiting?.destroy();
    waiting = null;
    commands.length = 0;
    for (const { reject } of pending.values()) reject(new Error(why));
    pending.clear();
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'GET' && url.pathname === '/command') {
      waiting?.writeHead(409).end(); // a reloaded page replaces the one that was waiting
      waiting = res;
      res.on('close', () => {
        if (waiting === res) waiting = null;
      });
      return dispatch();
    }
    if (req.method === 'POST' && url.pathname === '/result') {
      let body = '';
      req.on('data', (d) => {
        body += d;
      });
      req.on('end', () => {
        const { id, ok, value, error } = JSON.parse(body);
        const call = pending.get(id);
        pending.delete(id);
        if (ok) call?.resolve(value);
        else call?.reject(new Error(`in the page: ${error}`));
        res.writeHead(204).end();
      });
      return;
    }
    if (req.method === 'POST' && url.pathname === '/ledger') {
      let body = '';
      req.on('data', (d) => {
        body += d;
      });
      req.on('end', () => {
        harness.onLedger(.../** @type {[string, ...any[]]} */ (JSON.parse(body)));
        res.writeHead(204).end();
      });
      return;
    }
    const [root, rel] = url.pathname.startsWith('/pkg/web/')
      ? [PKG, url.pathname.slice('/pkg/web/'.length)]
      : [PAGES, url.pathname.slice(1)];
    const file = path.join(root, rel);
    if (!file.startsWith(root + path.sep)) return res.writeHead(403).end();
    fs.readFile(file, (err, bytes) => {
      if (err) return res.writeHead(404).end();
      res
        .writeHead(200, {
          'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
          'cache-control': 'no-store',
        })
        .end(bytes);
    });
  });
  await /** @type {Promise<void>} */ (new Promise((r) => server.listen(0, '127.0.0.1', r)));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  const url = `http://127.0.0.1:${port}/work.html`;
  /** @type {() => Promise<void>} */
  const close = () =>
    new Promise((r) => {
      server.close(() => r());
      server.closeAllConnections();
    });
  return Object.assign(harness, { url, call, abandon, close });
}

const FLAGS = [
  ...CHROMIUM_ARGS,
  '--disable-dev-shm-usage',
  '--remote-debugging-port=0',
  '--remote-debugging-address=127.0.0.1',
];

/**
 * Starts Chromium on `profile` (a user-data-dir, so IndexedDB persists across launches) in its
 * own process group. Resolves to { browser, page, pid, errors, kill(), close() } with the page
 * at `url`, its module loaded.
 * @param {string} profile
 * @param {string} url
 */
export async function launch(profile, url) {
  const child = spawn(CHROMIUM, [...FLAGS, `--user-data-dir=${profile}`, 'about:blank'], {
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  // Spawned detached, so its pid is the process group's: kill() and close() signal -pid.
  const pid = /** @type {number} */ (child.pid);
  /** @type {Promise<{ code: number | null, signal: NodeJS.Signals | null }>} */
  const exited = new Promise((r) => child.once('exit', (code, signal) => r({ code, signal })));
  /** @type {string} */
  const ws = await new Promise((resolve, reject) => {
    let err = '';
    const timer = setTimeout(
      () => reject(new Error(`no DevTools endpoint from Chromium:\n${err}`)),
      30_000,
    );
    child.stderr.on('data', (d) => {
      err += d;
      const m = /DevTools listening on (ws:\S+)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.once('exit', () => {
      clearTimeout(timer);
      reject(new Error(`Chromium exited early:\n${err}`));
    });
  });
  child.stderr.resume();
  const browser = await chromium.connectOverCDP(ws);
  const context = browser.contexts()[0];
  const page = context.pages()[0] ?? (await context.newPage());
  /** @type {Error[]} */
  const errors = [];
  page.on('pageerror', (e) => errors.push(e));
  await page.goto(url);
  await page.waitForFunction(
    () => document.getElementById('status')?.textContent === 'ready',
    null,
    { timeout: 30_000 },
  );
  return {
    browser,
    page,
    pid,
    errors,
    /** SIGKILL to the whole process group (browser, renderers, utilities). */
    kill: async () => {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {}
      return exited;
    },
    /** A clean shutdown. */
    close: async () => {
      await browser.close().catch(() => {});
      try {
        process.kill(-pid, 'SIGTERM');
      } catch {}
      return exited;
    },
  };
}
