// Draws docs/inspector.png, the inspector's picture in the README and docs/inspector.md, from a
// real scene: `node hosts/node/server.mjs` on free ports, filled through the official JS SDK
// (@azure/storage-queue), its clock moved an hour ahead over POST /_azqueue/clock, and the page
// `/?view=inspect` with `orders` open and its received message selected, in Debian's Chromium
// (never a downloaded browser); then the same scene in presentation mode (P) beside it,
// docs/inspector-present.png.
//
//   node scripts/screenshots/inspector.mjs [out.png]    (default: docs/inspector.png; the
//                                                        presentation beside it, out-present.png)
//
// tests/page/screenshot.test.mjs runs it to a temporary file, so the command cannot rot.

import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { QueueServiceClient } from '@azure/storage-queue';
import { ROOT, TARGET, startServer } from '../lib/azqueue-server.mjs';
import { launchChromium } from '../lib/chromium.mjs';

/** The picture's size in CSS pixels, drawn at device scale 1, so the PNG is this size too. */
export const PICTURE = { width: 1200, height: 600 };
/**
 * The window it is cut from: the picture's width, and a laptop's height, so the page has its
 * usual layout (under 640 px high it takes its short-screen one, which drops the subtitle).
 */
const VIEWPORT = { width: PICTURE.width, height: 800 };

/** How far the scene's clock is ahead of the wall clock: the page shows it as the offset. */
const CLOCK_AHEAD_MS = 3_600_000;
/** The received message's visibility timeout: its ring counts these seconds down. */
const LEASE_S = 30;
/** The scheduled message's delay. */
const DELAY_S = 600;
/** How long the page may take to show the scene. */
const SHOWN_MS = 15_000;

/**
 * Moves the server's clock `ms` ahead (docs/clock.md).
 * @param {string} origin the queue port's origin
 * @param {number} ms
 */
async function advanceClock(origin, ms) {
  const r = await fetch(`${origin}/_azqueue/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-azqueue-dev': '1' },
    body: JSON.stringify({ advanceMs: ms }),
  });
  assert.equal(r.status, 200, `POST /_azqueue/clock: ${r.status} ${await r.text()}`);
}

/**
 * The scene: `orders` with a visible, a received-but-not-deleted (invisible, DequeueCount 1)
 * and a scheduled message; `orders-poison` with one; the clock an hour ahead. The clock moves
 * first, so the lease's and the delay's countdowns start from the time the page shows.
 * @param {string} connectionString
 * @param {string} origin
 */
async function fillScene(connectionString, origin) {
  await advanceClock(origin, CLOCK_AHEAD_MS);
  const service = QueueServiceClient.fromConnectionString(connectionString);
  const orders = service.getQueueClient('orders');
  const poison = service.getQueueClient('orders-poison');
  await orders.create();
  await poison.create();
  await poison.sendMessage('invoice 1040 failed');
  await orders.sendMessage('invoice 1041 ready');
  await orders.sendMessage('ship order 7');
  await orders.sendMessage('nightly report', { visibilityTimeout: DELAY_S });
  const { receivedMessageItems } = await orders.receiveMessages({
    numberOfMessages: 1,
    visibilityTimeout: LEASE_S,
  });
  assert.equal(receivedMessageItems[0]?.messageText, 'invoice 1041 ready');
}

/**
 * Where the picture of presentation mode goes: beside `out`, named after it
 * (`inspector.png` → `inspector-present.png`).
 * @param {string} out
 */
export const presentingOut = (out) => out.replace(/(\.png)?$/i, '-present.png');

/**
 * Starts the server, fills the scene, and writes the inspector's PNG to `out`, and the same
 * scene in presentation mode beside it (presentingOut). The server and the browser are stopped
 * whether or not it succeeds.
 * @param {string} out
 */
export async function screenshotInspector(out) {
  assert.equal(TARGET, 'node', 'the inspector is the Node server’s: unset AZQUEUE_E2E');
  const server = await startServer({ plain: true });
  /** @type {import('playwright-core').Browser | undefined} */
  let browser;
  try {
    browser = await launchChromium();
    await fillScene(server.connectionString, server.origin);
    const page = await browser.newPage({ viewport: VIEWPORT, deviceScaleFactor: 1 });
    /** @type {string[]} */
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${new URL(server.webUrl).origin}/?view=inspect`);
    /** @param {string} selector */
    const shows = (selector) =>
      page.locator(selector).first().waitFor({ state: 'visible', timeout: SHOWN_MS });
    await shows('[data-testid=live][data-live=true]');
    await shows('[data-testid=queue][data-name=orders-poison][data-count="1"]');
    await page
      .locator('[data-testid=queue][data-name=orders][data-count="3"]')
      .click({ timeout: SHOWN_MS });
    for (const state of ['leased', 'visible', 'scheduled'])
      await shows(`[data-testid=queue-lane] [data-testid=message][data-state=${state}]`);
    await page.waitForFunction(
      (ms) =>
        Number(
          document.querySelector('[data-testid=clock-offset]')?.getAttribute('data-offset-ms'),
        ) >= ms,
      CLOCK_AHEAD_MS,
      { timeout: SHOWN_MS },
    );
    // The received message selected: its detail beside the cards.
    await page.locator('[data-testid=queue-lane] [data-testid=message][data-state=leased]').click();
    await shows('[data-testid=message-detail] [data-testid=message-receipt]');
    assert.deepEqual(errors, [], 'the page threw');
    await page.screenshot({
      path: out,
      clip: { x: 0, y: 0, ...PICTURE },
      animations: 'disabled',
      caret: 'hide',
    });
    // The same scene in presentation mode (P), for a room.
    await page.keyboard.press('p');
    await shows('body.presenting');
    await page.waitForFunction(() =>
      [...document.styleSheets].some((s) => s.href?.endsWith('/inspect/present.css')),
    );
    assert.deepEqual(errors, [], 'the page threw');
    await page.screenshot({
      path: presentingOut(out),
      clip: { x: 0, y: 0, ...PICTURE },
      animations: 'disabled',
      caret: 'hide',
    });
  } finally {
    await browser?.close();
    await server.stop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = path.resolve(process.argv[2] ?? path.join(ROOT, 'docs', 'inspector.png'));
  await screenshotInspector(out);
  for (const file of [out, presentingOut(out)])
    console.log(`wrote ${path.relative(process.cwd(), file) || file}`);
}
