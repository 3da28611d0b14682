// The inspector (`/?view=inspect`) in Chromium against `node hosts/node/server.mjs`, while the Python
// SDK (tests/page/inspector_sdk.py, a subprocess outside the browser) sends, receives and
// deletes on the same server: each change shows on the page within a second of the SDK's call
// returning (the DOM polled until then, no fixed sleep), pushed over /_azqueue/events, and each
// of the page's actions (delete, make visible, move to poison, clear, advance the clock) takes
// effect for the SDK. Also: the events stream and the pass-through keep the server's guard.

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from '../../scripts/lib/chromium.mjs';
import { ROOT } from './harness.mjs';
import { WITHIN_MS, shown, startSdk, watchedPage } from './inspector-harness.mjs';

/** @type {{ web: string, connection: string, close: () => void }} */
let server;
/** @type {import('playwright-core').Browser} */
let browser;
/** @type {import('playwright-core').Page} */
let page;
/** @type {import('./inspector-harness.mjs').Sdk} */
let sdk;
/** @type {() => void} */
let stopSdk;
/** @type {string[]} */
const pageErrors = [];

/** `node hosts/node/server.mjs --queuePort 0 --webPort 0` in memory, resolved with its web URL and connection string. */
function startAzqueue() {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        join(ROOT, 'hosts', 'node', 'server.mjs'),
        '--inMemoryPersistence',
        '--queuePort',
        '0',
        '--webPort',
        '0',
        '--silent',
      ],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    const onData = (/** @type {Buffer} */ chunk) => {
      out += chunk;
      const ready = /\bweb\s+(https?:\/\/\S+)\s+connection\s+"([^"]+)"/.exec(out);
      if (ready)
        resolve({ web: new URL(ready[1]).origin, connection: ready[2], close: () => child.kill() });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) =>
      reject(new Error(`hosts/node/server.mjs exited with ${code}:\n${out}`)),
    );
  });
}

/** Waits until `selector` is on the page, within WITHIN_MS. */
const shows = (/** @type {string} */ selector, /** @type {string} */ what = selector) =>
  shown(page, selector, what);

/** @param {string} selector */
async function gone(selector) {
  await page
    .locator(selector)
    .first()
    .waitFor({ state: 'detached', timeout: WITHIN_MS + 2000 });
}

const card = (/** @type {string} */ id, extra = '') =>
  `[data-testid=queue-lane] [data-testid=message][data-id="${id}"]${extra}:not(.leaving)`;

before(async () => {
  server = await startAzqueue();
  ({ sdk, stop: stopSdk } = startSdk(server.connection));
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing`);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  page = await watchedPage(browser, { width: 1200, height: 800 }, pageErrors);
});

after(async () => {
  await browser?.close();
  stopSdk?.();
  server?.close();
});

test('the teaching page links to the inspector, which goes live', async () => {
  await page.goto(`${server.web}/`);
  await page.locator('[data-testid=view-switch]').click();
  await page.waitForURL(/view=inspect/);
  await page.locator('[data-testid=live][data-live=true]').waitFor();
  assert.equal(await page.locator('[data-testid=view-switch]').getAttribute('href'), '/');
});

/** The inspector, live, whether or not an earlier test opened it (each test runs alone too). */
async function inspector() {
  if (!page.url().includes('view=inspect')) await page.goto(`${server.web}/?view=inspect`);
  await page.locator('[data-testid=live][data-live=true]').waitFor();
}

test('what the SDK does shows on the page within a second, and the page acts for the SDK', async () => {
  await inspector();
  await sdk({ op: 'create', queue: 'orders' });
  await shows('[data-testid=queue][data-name=orders]', 'the new queue');
  await page.locator('[data-testid=queue][data-name=orders]').click();

  const a = (await sdk({ op: 'send', queue: 'orders', text: 'alpha' })).id;
  await shows(card(a, '[data-state=visible]'), 'the sent message');
  const b = (await sdk({ op: 'send', queue: 'orders', text: 'beta' })).id;
  await shows(card(b, '[data-state=visible]'));
  const c = (await sdk({ op: 'send', queue: 'orders', text: 'gamma', delay: 3600 })).id;
  await shows(card(c, '[data-state=scheduled]'), 'the scheduled message');
  await shows('[data-testid=counts][data-total="3"]');
  await shows('[data-testid=queue][data-name=orders][data-count="3"]');

  // Received: invisible with DequeueCount 1.
  const got = (await sdk({ op: 'receive', queue: 'orders', visibility: 30 })).messages;
  assert.deepEqual(got.map((m) => m.id).sort(), [a, b].sort());
  await shows(card(a, '[data-state=leased][data-dequeue-count="1"]'), 'the leased message');
  await shows(card(b, '[data-state=leased]'));
  // Deleted by the SDK: the card leaves.
  const receiptOfB = got.find((m) => m.id === b)?.receipt;
  assert.ok(receiptOfB, 'the SDK received b');
  await sdk({ op: 'delete', queue: 'orders', id: b, receipt: receiptOfB });
  await shows('[data-testid=counts][data-total="2"]', 'the count after the delete');
  await gone(card(b));

  // Make visible now: the SDK receives it again at once, DequeueCount 2.
  await page.locator(card(a)).click();
  await page.locator('[data-testid=message-text]', { hasText: 'alpha' }).waitFor();
  await page.locator('[data-testid=make-visible]').click();
  await shows(card(a, '[data-state=visible]'));
  const again = (await sdk({ op: 'receive', queue: 'orders', visibility: 30 })).messages;
  assert.deepEqual(
    again.map((m) => [m.id, m.dequeueCount]),
    [[a, 2]],
  );

  // Move to poison: gone from orders, in orders-poison for the SDK.
  await shows(card(a, '[data-dequeue-count="2"]'));
  await page.locator(card(a)).click();
  await page.locator('[data-testid=poison-message]').click();
  await gone(card(a));
  await shows('[data-testid=queue][data-name=orders-poison][data-count="1"]', 'the poison queue');
  const poisoned = (await sdk({ op: 'peek', queue: 'orders-poison' })).messages;
  assert.deepEqual(
    poisoned.map((m) => m.text),
    ['alpha'],
  );

  // Advance the clock an hour: the scheduled message comes due for the SDK.
  assert.deepEqual((await sdk({ op: 'peek', queue: 'orders' })).messages, []);
  await page.locator('[data-testid=advance-1h]').click();
  await shows('[data-testid=clock-offset][data-offset-ms="3600000"]', 'the clock offset');
  await shows(card(c, '[data-state=visible]'), 'the message come due');
  assert.deepEqual(
    (await sdk({ op: 'peek', queue: 'orders' })).messages.map((m) => m.id),
    [c],
  );

  // Delete from the page.
  await page.locator(card(c)).click();
  await page.locator('[data-testid=delete-message]').click();
  await gone(card(c));
  assert.deepEqual((await sdk({ op: 'peek', queue: 'orders' })).messages, []);

  // Clear from the page.
  for (const text of ['x', 'y', 'z']) await sdk({ op: 'send', queue: 'orders', text });
  await shows('[data-testid=counts][data-total="3"]');
  // Clear asks first, and keeping them keeps them.
  await page.locator('[data-testid=clear-queue]').click();
  await page
    .locator('[data-testid=clear-question]', { hasText: 'Delete all 3 messages of orders?' })
    .waitFor();
  await page.locator('[data-testid=clear-no]').click();
  await page.locator('[data-testid=clear-confirm]').waitFor({ state: 'hidden' });
  assert.equal((await sdk({ op: 'peek', queue: 'orders' })).messages.length, 3, 'none cleared');
  await page.locator('[data-testid=clear-queue]').click();
  await page.locator('[data-testid=clear-yes]').click();
  await shows('[data-testid=counts][data-total="0"]', 'the cleared queue');
  assert.deepEqual((await sdk({ op: 'receive', queue: 'orders' })).messages, []);

  if (process.env.AZQUEUE_INSPECTOR_SCREENSHOT) {
    await sdk({ op: 'send', queue: 'orders', text: 'invoice 1041 ready' });
    const leased = (await sdk({ op: 'send', queue: 'orders', text: 'ship order 7' })).id;
    await sdk({ op: 'send', queue: 'orders', text: 'nightly report', delay: 600 });
    await sdk({ op: 'receive', queue: 'orders', visibility: 30, max: 1 });
    await shows(card(leased));
    await page.locator('[data-testid=queue-lane] .leaving').first().waitFor({ state: 'detached' });
    await page.screenshot({
      path: process.env.AZQUEUE_INSPECTOR_SCREENSHOT,
      clip: { x: 0, y: 0, width: 1200, height: 400 },
    });
  }
  assert.deepEqual(pageErrors, []);
});

test('a large queue opens at once, paged, with its counts', async () => {
  await inspector();
  await sdk({ op: 'create', queue: 'bulk' });
  for (let i = 0; i < 120; i++) await sdk({ op: 'send', queue: 'bulk', text: `m${i}` });
  await page.locator('[data-testid=queue][data-name=bulk]').click();
  await shows('[data-testid=counts][data-total="120"]');
  await page.locator('[data-testid=page-range]', { hasText: '1–50 of 120' }).waitFor();
  const cards = page.locator('[data-testid=queue-lane] [data-testid=message]');
  await cards.nth(49).waitFor();
  assert.equal(await cards.count(), 50);
  await page.locator('[data-testid=next-page]').click();
  await page.locator('[data-testid=page-range]', { hasText: '51–100 of 120' }).waitFor();
  assert.deepEqual(pageErrors, []);
});

/**
 * A request to the page port with any headers (Host included), answered with its status and body.
 * @param {string} method
 * @param {string} path
 * @param {Record<string, string>} headers
 * @param {string} [body]
 * @returns {Promise<{ status: number, body: string }>}
 */
function raw(method, path, headers, body) {
  const url = new URL(server.web);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method, path, headers }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      // The events stream stays open when admitted: its head is enough.
      if (res.headers['content-type'] === 'text/event-stream') {
        res.destroy();
        resolve({ status: res.statusCode ?? 0, body: '' });
      }
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

test('the events stream and the dev paths on the page port keep the guard', async () => {
  const { host, port } = new URL(server.web);
  const rebound = await raw('GET', '/_azqueue/events', { host: `attacker.example:${port}` });
  assert.equal(rebound.status, 403, 'a rebound Host reads no events');
  assert.match(rebound.body, /listens on/);
  assert.equal((await raw('GET', '/_azqueue/events', { host })).status, 200);
  const inspect = await raw('GET', '/_azqueue/inspect/devstoreaccount1', {
    host: `attacker.example:${port}`,
  });
  assert.equal(inspect.status, 403, 'a rebound Host reads no queues');
  const noHeader = await raw('POST', '/_azqueue/inspect/devstoreaccount1/orders/clear', { host });
  assert.equal(noHeader.status, 403, 'a write without x-azqueue-dev');
  const crossSite = await raw(
    'POST',
    '/_azqueue/clock',
    { host, 'x-azqueue-dev': '1', origin: 'https://attacker.example' },
    '{"advanceMs":1}',
  );
  assert.equal(crossSite.status, 403, 'a cross-site origin');
  const bad = await raw('GET', '/_azqueue/inspect/devstoreaccount1/orders?limit=0', { host });
  assert.equal(bad.status, 400);
  assert.match(JSON.parse(bad.body).error, /limit/);
});
