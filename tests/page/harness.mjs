// Shared set-up for the page tests: serve www/ (through `node hosts/node/server.mjs` when it exists and
// reports ready, else a tiny static server of our own), launch Debian's Chromium through
// playwright-core, and collect console and page errors so a test can insist there are none.

import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, afterEach, before } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from '../../scripts/lib/chromium.mjs';

export const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const WWW = join(ROOT, 'www');
const SERVER = join(ROOT, 'hosts', 'node', 'server.mjs');
export const ARTIFACTS = join(ROOT, 'test-artifacts');
/** The sizes the lecture-hall tests hold the page to. */
export const DESK = { width: 1280, height: 800 };
export const PROJECTOR = { width: 853, height: 533 }; // 1280×800 at 150 % zoom, in CSS pixels
export const PHONE = { width: 390, height: 844 };

/** @typedef {import('playwright-core').Page} Page */
/** @typedef {{ url: string, close: () => void, kind: string }} Server */
/** @typedef {Awaited<ReturnType<typeof launchBrowser>>} Browser */
/** @typedef {Awaited<ReturnType<typeof openPage>>} OpenedPage */
/**
 * A message card as the page draws it (www/page/lane-view.js): its data-* attributes, whether it
 * shows, and its classes.
 * @typedef {{ id: string, label: string, state: string, dequeueCount: string, text: string,
 *   nextVisible: string, receipt?: string, originDequeueCount?: string, holder?: string,
 *   stage?: string, visible: boolean, classes: string }} Card
 */

/** @type {Record<string, string>} */
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/**
 * Starts `node hosts/node/server.mjs --queuePort 0 --webPort 0` (in memory) and resolves with
 * the web URL.
 * @returns {Promise<Server>}
 */
function startProjectServer() {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(
      process.execPath,
      [SERVER, '--inMemoryPersistence', '--queuePort', '0', '--webPort', '0'],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`hosts/node/server.mjs printed no web URL within 15 s:\n${out}`));
    }, 15_000);
    const onData = (/** @type {Buffer} */ chunk) => {
      out += chunk;
      // The ready line: `azqueue ready: queue <url> web <url> connection "…"`.
      const ready = /\bweb\s+(https?:\/\/\S+)/.exec(out);
      if (ready) {
        clearTimeout(timer);
        resolvePromise({
          url: new URL(ready[1]).origin,
          close: () => child.kill(),
          kind: 'hosts/node/server.mjs',
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`hosts/node/server.mjs exited with ${code}:\n${out}`));
    });
  });
}

/**
 * A static file server for www/ (and the build output at /pkg/) on an ephemeral port.
 * @returns {Promise<Server>}
 */
function startStaticServer() {
  const server = createServer(async (req, res) => {
    try {
      const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
      const root = path.startsWith('/pkg/') ? ROOT : WWW;
      let file = normalize(join(root, path));
      if (!file.startsWith(path.startsWith('/pkg/') ? join(ROOT, 'pkg') : WWW))
        throw new Error('outside www and pkg');
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      const body = await readFile(file);
      res.writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'cache-control': 'no-store',
      });
      res.end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
  return new Promise((resolvePromise) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      resolvePromise({
        url: `http://127.0.0.1:${port}`,
        close: () => server.close(),
        kind: 'static',
      });
    });
  });
}

/**
 * The project's server when it can start, else our own.
 * @returns {Promise<Server>}
 */
export async function startServer() {
  if (!existsSync(join(ROOT, 'pkg', 'web', 'azqueue.js'))) {
    throw new Error('pkg/web is missing: run `make build` first');
  }
  if (!process.env.AZQ_PAGE_STATIC) {
    try {
      return await startProjectServer();
    } catch (e) {
      console.error(
        `# falling back to a static server: ${/** @type {Error} */ (e).message.split('\n')[0]}`,
      );
    }
  }
  return startStaticServer();
}

/**
 * Chromium with a fresh profile directory. Playwright takes the profile through
 * launchPersistentContext (it refuses a --user-data-dir argument), so the browser comes as one
 * context; tests open pages in it and set their viewport per page.
 */
export async function launchBrowser() {
  const profile = mkdtempSync(join(tmpdir(), 'azq-page-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 720 },
    args: CHROMIUM_ARGS,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * A page that records every console error and page error; `query` is added to its address.
 * @param {import('playwright-core').BrowserContext} context
 * @param {string} url
 * A first visit (`firstVisit`) starts with no saved settings or session; any other page starts
 * with guided mode off unless a setting says otherwise (a first visit is a tour that stops at
 * every moment, which a test of something else would have to walk through).
 * @param {{ viewport?: { width: number, height: number }, reducedMotion?: 'reduce' | 'no-preference',
 *   query?: string, firstVisit?: boolean }} [options]
 */
export async function openPage(
  context,
  url,
  { viewport = { width: 1280, height: 720 }, reducedMotion, query, firstVisit = false } = {},
) {
  const page = await context.newPage();
  await page.addInitScript((first) => {
    if (first) {
      if (sessionStorage.getItem('azq-first-visit')) return; // a reload is not a first visit
      sessionStorage.setItem('azq-first-visit', '1');
      localStorage.removeItem('azqueue-page');
      localStorage.removeItem('azqueue-page-session');
    } else {
      // Guided mode off unless a test set it (a first visit in this browser leaves it unset).
      const settings = JSON.parse(localStorage.getItem('azqueue-page') ?? '{}');
      if (!('guided' in settings))
        localStorage.setItem('azqueue-page', JSON.stringify({ ...settings, guided: false }));
    }
  }, firstVisit);
  await page.setViewportSize(viewport);
  if (reducedMotion) await page.emulateMedia({ reducedMotion });
  /** @type {string[]} */
  const errors = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  await page.goto(`${url}/index.html${query ? `?${query}` : ''}`);
  await page.waitForSelector("body[data-ready='true']", { timeout: 20_000 });
  return { page, errors };
}

/**
 * One server and one browser for the test file; `suite.server`, `suite.browser` once started, then
 * `ready()`. One hook: with two root `before` hooks, the second ran before the first had finished.
 * @param {{ server: Server | null, browser: Browser | null }} suite
 * @param {(server: Server, browser: Browser) => Promise<void>} [ready]
 */
function serverAndBrowser(suite, ready = async () => {}) {
  before(async () => {
    const server = (suite.server = await startServer());
    const browser = (suite.browser = await launchBrowser());
    await ready(server, browser);
  });
  after(async () => {
    await suite.browser?.close();
    suite.server?.close();
  });
}

/**
 * The life of a test file: one server and one browser for the file, pages opened with
 * `suite.open(options)`, each checked for console and page errors and closed after its test.
 */
export function pageSuite() {
  /** @type {{ server: Server | null, browser: Browser | null }} */
  const started = { server: null, browser: null };
  /** @type {OpenedPage[]} */
  const pages = [];
  serverAndBrowser(started);
  afterEach(async () => {
    for (const p of pages.splice(0)) {
      assert.deepEqual(p.errors, [], 'no console errors or page errors');
      await p.page.close();
    }
  });
  /** @param {Parameters<typeof openPage>[2]} [options] */
  const open = async (options) => {
    const { server, browser } = started;
    if (!server || !browser) throw new Error('suite.open before the suite started');
    const p = await openPage(browser.context, server.url, options);
    pages.push(p);
    return p.page;
  };
  return Object.assign(started, { pages, open });
}

/**
 * Like pageSuite, with one page for the whole file, handed to `onOpen`, checked after each test.
 * @param {(page: Page) => void} onOpen
 */
export function onePageSuite(onOpen) {
  /** @type {{ server: Server | null, browser: Browser | null }} */
  const suite = { server: null, browser: null };
  /** @type {string[]} the page's errors, once it is open */
  let errors = [];
  serverAndBrowser(suite, async (server, browser) => {
    const opened = await openPage(browser.context, server.url);
    errors = opened.errors;
    onOpen(opened.page);
  });
  afterEach(() => assert.deepEqual(errors, [], 'no console errors or page errors'));
  return suite;
}

/**
 * @param {Page} page
 * @param {string} name
 */
export async function screenshot(page, name) {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: false });
}

/**
 * A row of the HTTP log: the data-* attributes www/page/log.js sets, and its text.
 * @typedef {{ seq: string, status: string, op: string, code?: string, actor?: string,
 *   via?: string, receiptPresented?: string, receiptIssued?: string, text: string }} LogRow
 */

/**
 * The text of the first element `selector` matches, once there is one. Playwright types it
 * nullable because a document's textContent is null; an element's never is.
 * @param {Page} page
 * @param {string} selector
 */
export async function textOf(page, selector) {
  const text = await page.textContent(selector);
  assert.ok(text !== null, `${selector} has no text`);
  return text;
}

/**
 * The attribute `name` of the first element `selector` matches, which must have it.
 * @param {Page} page
 * @param {string} selector
 * @param {string} name
 */
export async function attributeOf(page, selector, name) {
  const value = await page.getAttribute(selector, name);
  assert.ok(value !== null, `${selector} has no ${name} attribute`);
  return value;
}

// ── driving the page through its controls ─────────────────────────────────────────────

/**
 * Waits for the guide to stop at `on` (a moment of the scenario), then for two frames: the banner
 * is shown as the moment ticks, the clock beside it only on the next frame the page draws.
 * @param {Page} page
 * @param {string} on
 */
export async function stopAt(page, on) {
  await page.waitForSelector(`[data-testid=guide]:not([hidden])[data-on="${on}"]`, {
    timeout: 20_000,
  });
  await page.evaluate(
    () =>
      new Promise((drawn) => requestAnimationFrame(() => requestAnimationFrame(() => drawn(null)))),
  );
}

/** @param {Page} page */
export async function elapsed(page) {
  return Number(await page.getAttribute('[data-testid=clock]', 'data-elapsed-ms'));
}

/**
 * Picks a scenario (or restarts it with `reset`) and waits until it is loaded at time zero.
 * @param {Page} page
 * @param {string} id
 */
export async function chooseScenario(page, id) {
  const loads = await page.evaluate(() => Number(document.body.dataset.loads));
  await page.selectOption('[data-testid=scenario-select]', id);
  await waitLoaded(page, loads, id);
}

/** @param {Page} page */
export async function restart(page) {
  const loads = await page.evaluate(() => Number(document.body.dataset.loads));
  await page.click('[data-testid=reset]');
  await waitLoaded(page, loads);
}

/**
 * @param {Page} page
 * @param {number} loadsBefore
 * @param {string} [id]
 */
async function waitLoaded(page, loadsBefore, id) {
  await page.waitForFunction(
    ([before, want]) =>
      Number(document.body.dataset.loads) > before &&
      (!want || document.body.dataset.scenario === want) &&
      /** @type {HTMLElement} */ (document.querySelector('[data-testid=clock]')).dataset
        .elapsedMs === '0',
    /** @type {[number, string | undefined]} */ ([loadsBefore, id]),
  );
}

/**
 * @param {Page} page
 * @param {number} seconds
 */
export async function setStep(page, seconds) {
  await page.selectOption('[data-testid=step-size]', String(seconds * 1000));
}

/** @param {Page} page */
async function stepOnce(page) {
  const [t, size] = await page.evaluate(() => [
    Number(
      /** @type {HTMLElement} */ (document.querySelector('[data-testid=clock]')).dataset.elapsedMs,
    ),
    Number(
      /** @type {HTMLSelectElement} */ (document.querySelector('[data-testid=step-size]')).value,
    ),
  ]);
  await page.click('[data-testid=step]');
  // The display passes through intermediate times while the engine works through the step, and
  // reads the target before the timers due then have run: wait for the step itself to finish.
  await page.waitForFunction(
    (want) =>
      Number(
        /** @type {HTMLElement} */ (document.querySelector('[data-testid=clock]')).dataset
          .elapsedMs,
      ) >= want && !document.body.dataset.stepping,
    t + size,
  );
  return t + size;
}

/**
 * Clicks Step until virtual time reaches `seconds`.
 * @param {Page} page
 * @param {number} seconds
 */
export async function stepTo(page, seconds) {
  while ((await elapsed(page)) < seconds * 1000) await stepOnce(page);
  return elapsed(page);
}

/**
 * Steps until `predicate` (run in the page) holds; returns the time it did.
 * @param {import('playwright-core').Page} page
 * @param {(arg: unknown) => unknown} predicate
 * @param {{ maxSeconds?: number, arg?: unknown }} [options]
 */
export async function stepUntil(page, predicate, { maxSeconds = 300, arg } = {}) {
  for (;;) {
    if (await page.evaluate(predicate, arg)) return elapsed(page);
    const t = await elapsed(page);
    if (t > maxSeconds * 1000) throw new Error(`condition not met by t=${t / 1000} s`);
    await stepOnce(page);
  }
}

/**
 * Card attributes for every message in the main lane.
 * @param {Page} page
 * @returns {Promise<Card[]>}
 */
export function cards(page, lane = 'queue-lane') {
  return page.$$eval(
    `[data-testid=${lane}] [data-testid=message]`,
    (/** @type {HTMLElement[]} */ els) =>
      els.map(
        (e) =>
          // the data-* attributes lane-view.js sets on every card
          /** @type {Card} */ ({
            ...e.dataset,
            visible: e.offsetParent !== null,
            classes: e.className,
          }),
      ),
  );
}

/**
 * Presses → and waits for the stop at `on`.
 * @param {Page} page
 * @param {string} on
 */
export async function next(page, on) {
  await page.keyboard.press('ArrowRight');
  await stopAt(page, on);
}

/**
 * Sets a numeric setting on an actor's card (`index`: 0 work/stage, 1 timeout/lease).
 * @param {Page} page
 * @param {string} name
 * @param {number} index
 * @param {number} value
 */
export async function setActor(page, name, index, value) {
  const input = page.locator(`[data-name="${name}"] .settings input`).nth(index);
  await input.fill(String(value));
  await input.dispatchEvent('change');
}
