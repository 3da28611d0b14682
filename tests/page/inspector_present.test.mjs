// The inspector's presentation mode (www/inspect/present.js) in Chromium against
// `node hosts/node/server.mjs`, with the official JS SDK sending and receiving: P and the Present
// button turn it on and off (and P typed into a field stays the field's), "?" lists the keys;
// presenting hides every form and the tools for getting around a queue and draws the counts, the
// cards and their rings larger; it holds at 1280×800, 1024×768 and 390 px with no sideways
// scrolling and AA contrast; the address keeps it; and the cards stay live while presenting.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { QueueServiceClient } from '@azure/storage-queue';
import { launchChromium } from '../../scripts/lib/chromium.mjs';
import { startServer } from '../../scripts/lib/azqueue-server.mjs';
import { contrastFailures } from './contrast.mjs';

/** @typedef {import('playwright-core').Page} Page */

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
/** @type {import('playwright-core').Browser} */
let browser;
/** @type {import('@azure/storage-queue').QueueClient} */
let orders;
/** @type {string[]} */
const pageErrors = [];

/** What presentation mode hides: every form, and the tools for getting around a queue. */
const HIDDEN = {
  'server form': '[data-testid=server-form]',
  'link to the teaching page': '[data-testid=view-switch]',
  find: '[data-testid=find-form]',
  'state filter': '[data-testid=state-filter]',
  pager: '[data-testid=first-page]',
  jump: '[data-testid=jump-form]',
  'Clear queue': '[data-testid=clear-queue]',
  'fault rule form': '[data-testid=fault-form]',
};
/** What it keeps for the room. */
const SHOWN = {
  'Present button': '[data-testid=present]',
  'live state': '[data-testid=live]',
  'clock offset': '[data-testid=clock-offset]',
  'queue list': '[data-testid=queue][data-name=orders]',
  'counts line': '[data-testid=counts]',
  cards: '[data-testid=queue-lane] [data-testid=message]',
  'selected message': '[data-testid=message-detail]',
};

before(async () => {
  server = await startServer({ args: ['--inMemoryPersistence'] });
  browser = await launchChromium();
  orders = QueueServiceClient.fromConnectionString(server.connectionString).getQueueClient(
    'orders',
  );
  await orders.create();
  await orders.sendMessage('invoice 1041 ready');
  await orders.sendMessage('ship order 7');
  await orders.receiveMessages({ numberOfMessages: 1, visibilityTimeout: 600 });
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/**
 * The inspector on `orders`, its first card selected, at `viewport`.
 * @param {{ width: number, height: number }} viewport
 * @param {string} [query] more of the address
 */
async function open(viewport, query = '') {
  const page = await browser.newPage({ viewport });
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  await page.goto(`${server.webUrl}?view=inspect&queue=orders${query}`);
  await page.locator('[data-testid=live][data-live=true]').waitFor();
  await page.locator('[data-testid=queue-lane] [data-testid=message]').nth(1).waitFor();
  await page.locator('[data-testid=queue-lane] [data-testid=message]').first().click();
  await page.locator('[data-testid=message-detail]:not([hidden])').waitFor();
  return page;
}

/**
 * Whether presentation mode is on, by the body's class and the button's state (which must agree).
 * @param {Page} page
 */
async function presenting(page) {
  const on = await page.evaluate(() => document.body.classList.contains('presenting'));
  const pressed = await page.getAttribute('[data-testid=present]', 'aria-pressed');
  assert.equal(pressed, String(on), 'the button says what the page shows');
  return on;
}

/**
 * The sizes, in CSS pixels, of what the room reads: a card's text and ring, a queue's count in
 * the list, the counts line. Read in one evaluation (the lane may redraw a card between reads).
 * @param {Page} page
 */
const sizes = (page) =>
  page.evaluate(() => {
    const px = (/** @type {string} */ selector, /** @type {'fontSize' | 'width'} */ what) => {
      const el = document.querySelector(selector);
      return el ? parseFloat(getComputedStyle(el)[what]) : NaN;
    };
    return {
      cardText: px('[data-testid=queue-lane] [data-testid=message] .text', 'fontSize'),
      ring: px('[data-testid=queue-lane] [data-testid=message] .ring:not(.off)', 'width'),
      queueCount: px('[data-testid=queue][data-name=orders] .queue-count', 'fontSize'),
      counts: px('[data-testid=counts]', 'fontSize'),
    };
  });

/**
 * How far the page scrolls sideways (0: not at all).
 * @param {Page} page
 */
const sideways = (page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

test('P turns presentation mode on and off: forms and tools go, counts, cards and rings grow', async () => {
  const page = await open({ width: 1280, height: 800 });
  assert.equal(await presenting(page), false);
  const normal = await sizes(page);
  for (const [what, selector] of Object.entries(HIDDEN))
    assert.equal(await page.isVisible(selector), true, `${what} shown before`);

  await page.keyboard.press('p');
  assert.equal(await presenting(page), true);
  await page.waitForFunction(() =>
    [...document.styleSheets].some((s) => s.href?.endsWith('/inspect/present.css')),
  );
  for (const [what, selector] of Object.entries(HIDDEN))
    assert.equal(await page.isVisible(selector), false, `${what} hidden`);
  for (const [what, selector] of Object.entries(SHOWN))
    assert.equal(await page.locator(selector).first().isVisible(), true, `${what} shown`);
  const big = await sizes(page);
  assert.ok(big.cardText >= 20 && big.cardText > normal.cardText, `card text ${big.cardText} px`);
  assert.ok(big.ring >= 56 && big.ring > normal.ring, `ring ${big.ring} px`);
  assert.ok(big.queueCount >= 24, `queue count ${big.queueCount} px`);
  assert.ok(big.counts >= 22 && big.counts > normal.counts, `counts line ${big.counts} px`);
  assert.equal(new URL(page.url()).searchParams.has('present'), true, 'the address keeps it');
  assert.equal(await sideways(page), 0, 'no sideways scrolling at 1280×800');
  assert.deepEqual(await page.evaluate(contrastFailures), []);

  // The cards stay live: a message sent now shows in presentation mode.
  await orders.sendMessage('nightly report');
  await page
    .locator('[data-testid=queue-lane] [data-testid=message]', { hasText: 'nightly report' })
    .waitFor({ timeout: 2000 });

  await page.keyboard.press('p');
  assert.equal(await presenting(page), false);
  for (const [what, selector] of Object.entries(HIDDEN))
    assert.equal(await page.isVisible(selector), true, `${what} back`);
  assert.equal(new URL(page.url()).searchParams.has('present'), false);
  assert.deepEqual(pageErrors, []);
  await page.close();
});

test('the Present button by mouse and by keyboard; P typed into a field stays in it; ? lists the keys', async () => {
  const page = await open({ width: 1280, height: 800 });
  // Typed into the server field (a URL field) or the find field, P is a letter, not the mode.
  for (const field of ['[data-testid=server]', '[data-testid=find]']) {
    await page.locator(field).focus();
    await page.keyboard.press('p');
    assert.equal(await presenting(page), false, `P typed into ${field}`);
    await page.keyboard.press('Escape');
  }

  await page.click('[data-testid=present]');
  assert.equal(await presenting(page), true);
  await page.click('[data-testid=present]');
  assert.equal(await presenting(page), false);
  await page.locator('[data-testid=present]').focus();
  await page.keyboard.press('Enter');
  assert.equal(await presenting(page), true);
  assert.equal(
    await page.evaluate(() => document.activeElement?.getAttribute('data-testid')),
    'present',
    'the button keeps the focus',
  );
  await page.keyboard.press('Space');
  assert.equal(await presenting(page), false);

  await page.keyboard.press('?');
  await page.locator('[data-testid=key-sheet][open]').waitFor();
  const keys = await page.locator('[data-testid=key-list]').innerText();
  assert.match(keys, /^p\s+presentation mode on \/ off$/m);
  // Inside the sheet, P does nothing; Escape closes it.
  await page.keyboard.press('p');
  assert.equal(await presenting(page), false);
  await page.keyboard.press('Escape');
  assert.equal(await page.locator('[data-testid=key-sheet][open]').count(), 0);
  assert.deepEqual(pageErrors, []);
  await page.close();
});

for (const viewport of [
  { width: 1024, height: 768 },
  { width: 390, height: 844 },
]) {
  test(`presenting at ${viewport.width}×${viewport.height}: no sideways scrolling, AA contrast, the button in reach`, async () => {
    // Opened presenting from the address, as a reload or a bookmark would.
    const page = await open(viewport, '&present');
    assert.equal(await presenting(page), true);
    await page.waitForFunction(() =>
      [...document.styleSheets].some((s) => s.href?.endsWith('/inspect/present.css')),
    );
    assert.equal(await sideways(page), 0, 'no sideways scrolling');
    for (const selector of ['[data-testid=present]', '[data-testid=queue-lane]']) {
      const box = await page.locator(selector).boundingBox();
      assert.ok(
        box && box.x >= 0 && box.x + box.width <= viewport.width,
        `${selector} within ${viewport.width} px: ${JSON.stringify(box)}`,
      );
    }
    const big = await sizes(page);
    assert.ok(big.cardText >= 20, `card text ${big.cardText} px`);
    assert.deepEqual(await page.evaluate(contrastFailures), []);
    assert.deepEqual(pageErrors, []);
    await page.close();
  });
}
