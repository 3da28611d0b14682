// The inspector left open asks for frames only when something on it changes: a page of visible
// messages draws nothing while the queue is still, a leased message's countdown is redrawn a
// few times a second, and a time-to-live line that falls under the hour appears by itself with
// no read of the queue (BENCHMARKS.md, "Producers with an open inspector": what an open page
// costs the producers beside it). In Chromium against `node hosts/node/server.mjs`, the queue
// driven by the JS SDK.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { QueueServiceClient } from '@azure/storage-queue';
import { launchChromium } from '../../scripts/lib/chromium.mjs';
import { startServer } from '../../scripts/lib/azqueue-server.mjs';
import { watchedPage } from './inspector-harness.mjs';

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
/** @type {import('playwright-core').Browser} */
let browser;
/** @type {import('playwright-core').Page} */
let page;
/** @type {QueueServiceClient} */
let sdk;
/** @type {string[]} */
const pageErrors = [];

/** The animation frames the page has run so far (counted by the init script below). */
const frames = () => page.evaluate(() => /** @type {any} */ (window).framesRun);

/**
 * How many frames the page runs over `ms` while the test does nothing.
 * @param {number} ms
 */
async function framesOver(ms) {
  const before = await frames();
  await sleep(ms);
  return (await frames()) - before;
}

/** @param {string} queue */
async function open(queue) {
  await page.goto(`${server.webUrl}?view=inspect&queue=${queue}`);
  await page.locator('[data-testid=live][data-live=true]').waitFor();
}

const cards = () => page.locator('[data-testid=queue-lane] [data-testid=message]');

before(async () => {
  server = await startServer({ args: ['--inMemoryPersistence'] });
  sdk = QueueServiceClient.fromConnectionString(server.connectionString);
  browser = await launchChromium();
  page = await watchedPage(browser, { width: 1400, height: 900 }, pageErrors);
  // Every frame the page asks for is counted as it runs.
  await page.addInitScript(() => {
    const w = /** @type {any} */ (window);
    const raf = window.requestAnimationFrame.bind(window);
    w.framesRun = 0;
    window.requestAnimationFrame = (callback) =>
      raf((t) => {
        w.framesRun++;
        callback(t);
      });
  });
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test('a page of visible messages draws nothing while the queue is still; a countdown draws', async () => {
  const queue = sdk.getQueueClient('still');
  await queue.create();
  for (let i = 0; i < 50; i++) await queue.sendMessage(`job ${i}`);
  await open('still');
  await cards().nth(49).waitFor();
  await page.locator('[data-testid=counts][data-total="50"]').waitFor();
  await sleep(1000); // the reads and draws of opening are over
  assert.equal(await framesOver(2000), 0, 'frames drawn while nothing changed');

  // A message is leased (its card moves to the end: delivery order): its ring counts down,
  // redrawn by itself.
  const [leased] = (await queue.receiveMessages({ visibilityTimeout: 30 })).receivedMessageItems;
  const card = page.locator(`[data-testid=message][data-id="${leased.messageId}"]`);
  await card.and(page.locator('.is-leased')).waitFor();
  const secs = card.locator('.secs');
  const first = await secs.textContent();
  const drawn = await framesOver(2000);
  assert.ok(drawn >= 3, `a countdown was redrawn ${drawn} times in 2 s`);
  assert.notEqual(await secs.textContent(), first, 'the countdown moved');

  // Deleted, it leaves; then the page is still again.
  await queue.deleteMessage(leased.messageId, leased.popReceipt);
  await card.waitFor({ state: 'detached' });
  await sleep(1000);
  assert.equal(await framesOver(2000), 0, 'frames drawn once the countdown was gone');
  assert.deepEqual(pageErrors, []);
});

test('a time-to-live line appears by itself when the message has under an hour left', async () => {
  const queue = sdk.getQueueClient('ttl');
  await queue.create();
  // Six seconds over the hour: no line at first, one six seconds later with no read between.
  const sent = await queue.sendMessage('short-lived', { messageTimeToLive: 3606 });
  await open('ttl');
  const ttl = page.locator(`[data-testid=message][data-id="${sent.messageId}"] .ttl`);
  await page.locator(`[data-testid=message][data-id="${sent.messageId}"]`).waitFor();
  assert.ok(await ttl.isHidden(), 'a line while over an hour was left');
  await ttl.waitFor({ state: 'visible', timeout: 10_000 });
  assert.match(/** @type {string} */ (await ttl.textContent()), /^expires in /);
  assert.deepEqual(pageErrors, []);
});
