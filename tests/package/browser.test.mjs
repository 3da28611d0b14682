// The package in a browser: an esbuild bundle of `import { QueueService } from "azqueue"` (the
// `browser` condition: the web glue) round-trips a message in headless Chromium. As with any
// bundler that does not copy `new URL(…, import.meta.url)` assets, the `.wasm` goes next to the
// bundle (docs/usage.md, "The npm package", says so).

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { launchChromium } from '../../scripts/lib/chromium.mjs';
import { ROOT, USER_ENV, installedProject } from './project.mjs';

/** @type {Record<string, string>} */
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };

/** @type {http.Server} */
let site;
/** @type {import('playwright-core').Browser} */
let browser;
/** @type {string} */
let bundle;

before(async () => {
  const { dir } = installedProject();
  const out = path.join(dir, 'site');
  fs.writeFileSync(
    path.join(dir, 'app.js'),
    `import { QueueService } from "azqueue";
const service = await QueueService.open();
const q = await service.createQueue("orders");
await q.sendMessage("hello from a bundle");
const { receivedMessageItems: [m] } = await q.receiveMessages({ visibilityTimeout: 30 });
await q.deleteMessage(m.messageId, m.popReceipt);
window.result = { text: m.messageText, dequeueCount: m.dequeueCount, left: (await q.getProperties()).approximateMessagesCount };
`,
  );
  execFileSync(
    path.join(ROOT, 'node_modules', '.bin', 'esbuild'),
    [
      'app.js',
      '--bundle',
      '--format=esm',
      '--platform=browser',
      '--log-level=warning',
      `--outdir=${out}`,
    ],
    { cwd: dir, env: USER_ENV, stdio: 'inherit' },
  );
  fs.copyFileSync(
    path.join(dir, 'node_modules', 'azqueue', 'pkg', 'web', 'azqueue_bg.wasm'),
    path.join(out, 'azqueue_bg.wasm'),
  );
  fs.writeFileSync(
    path.join(out, 'index.html'),
    '<!doctype html><link rel="icon" href="data:,"><title>bundle</title><script type="module" src="app.js"></script>\n',
  );
  bundle = fs.readFileSync(path.join(out, 'app.js'), 'utf8');

  site = http.createServer((req, res) => {
    const file = path.join(
      out,
      new URL(/** @type {string} */ (req.url), 'http://x').pathname.slice(1) || 'index.html',
    );
    if (!file.startsWith(out) || !fs.existsSync(file)) return res.writeHead(404).end();
    res
      .writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' })
      .end(fs.readFileSync(file));
  });
  await new Promise((resolve) => site.listen(0, '127.0.0.1', () => resolve(undefined)));
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  site?.close();
});

test('the browser condition bundles the web glue, not the Node one', () => {
  assert.ok(
    !bundle.includes('readFileSync'),
    'the Node glue (which reads the .wasm from disk) is not in the bundle',
  );
  assert.ok(bundle.includes('azqueue_bg.wasm'), 'the web glue locates the .wasm beside itself');
});

test('the bundle round-trips a message in Chromium', async () => {
  const page = await browser.newPage();
  /** @type {string[]} */
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  const { port } = /** @type {import('node:net').AddressInfo} */ (site.address());
  await page.goto(`http://127.0.0.1:${port}/`);
  await page
    .waitForFunction(() => window.result !== undefined || null, null, { timeout: 20_000 })
    .catch(() => {});
  assert.deepEqual(errors, []);
  assert.deepEqual(await page.evaluate(() => window.result), {
    text: 'hello from a bundle',
    dequeueCount: 1,
    left: 0,
  });
});
