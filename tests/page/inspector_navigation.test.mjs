// The inspector (`/?view=inspect`) with real queues, in Chromium against `node hosts/node/server.mjs`:
// a queue of 100,000 messages (filled through the raw REST API by 16 keep-alive clients) whose
// last page is one click away and any position one jump away, found in by message id and by a
// piece of text, filtered by state; the selected message's detail with its times and whole
// receipt, beside the cards; a message moved to the poison queue showing where it came from;
// and the notes drawn in the flow, not over the clock and cards.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { QueueServiceClient } from '@azure/storage-queue';
import { launchChromium } from '../../scripts/lib/chromium.mjs';
import { startServer } from '../../scripts/lib/azqueue-server.mjs';
import { Client } from '../../scripts/lib/raw-queue-client.mjs';
import { watchedPage } from './inspector-harness.mjs';

const DEEP = 100_000;
const ACCOUNT = 'devstoreaccount1';

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

/**
 * The server's own reading of a queue (the development path the page reads).
 * @param {string} queue
 * @param {string} query
 */
async function inspect(queue, query) {
  const res = await fetch(`${server.webUrl}_azqueue/inspect/${ACCOUNT}/${queue}?${query}`);
  assert.equal(res.status, 200, await res.clone().text());
  return /** @type {Promise<any>} */ (res.json());
}

/**
 * Fills `queue` with `n` messages `job <i>` from 16 clients.
 * @param {string} queue
 * @param {number} n
 */
async function fill(queue, n) {
  const port = Number(new URL(server.queueUrl).port);
  const clients = Array.from({ length: 16 }, () => new Client(port, queue));
  await clients[0].createQueue();
  let next = 0;
  await Promise.all(
    clients.map(async (c) => {
      while (next < n) {
        const i = next++;
        await c.put(`<QueueMessage><MessageText>job ${i}</MessageText></QueueMessage>`);
      }
    }),
  );
  for (const c of clients) {
    assert.equal(c.errors, 0, c.lastError);
    c.close();
  }
}

/** @param {string} queue */
async function open(queue) {
  await page.goto(`${server.webUrl}?view=inspect&queue=${queue}`);
  await page.locator('[data-testid=live][data-live=true]').waitFor();
}

/** @param {string} text */
const range = (text) => page.locator('[data-testid=page-range]', { hasText: text }).waitFor();

const cards = () => page.locator('[data-testid=queue-lane] [data-testid=message]:not(.leaving)');

/** The ids of the cards drawn, in their order on the page. */
const drawnIds = () => cards().evaluateAll((els) => els.map((e) => e.getAttribute('data-id')));

before(async () => {
  server = await startServer({ args: ['--inMemoryPersistence'] });
  sdk = QueueServiceClient.fromConnectionString(server.connectionString);
  browser = await launchChromium();
  page = await watchedPage(browser, { width: 1400, height: 900 }, pageErrors);
  await fill('deep', DEEP);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test('the last page of 100,000 messages is one click away, in delivery order', async () => {
  await open('deep');
  await page.locator(`[data-testid=counts][data-total="${DEEP}"]`).waitFor();
  await range(`1–50 of ${DEEP}`);
  await page.locator('[data-testid=last-page]').click();
  await range(`99951–100000 of ${DEEP}`);
  const want = await inspect('deep', 'from=99950&limit=50');
  await cards().nth(49).waitFor();
  assert.deepEqual(
    await drawnIds(),
    want.messages.map((/** @type {any} */ m) => m.messageId),
  );
  assert.ok(await page.locator('[data-testid=next-page]').isDisabled());
  await page.locator('[data-testid=first-page]').click();
  await range(`1–50 of ${DEEP}`);
  assert.deepEqual(pageErrors, []);
});

test('a jump to a position shows its page with that message selected', async () => {
  await open('deep');
  await page.locator('[data-testid=jump]').fill('12345');
  await page.locator('[data-testid=jump-go]').click();
  await range(`12301–12350 of ${DEEP}`);
  const [want] = (await inspect('deep', 'from=12344&limit=1')).messages;
  await page.locator('[data-testid=message-id]', { hasText: want.messageId }).waitFor();
  assert.equal(await page.locator('[data-testid=message-text]').textContent(), want.messageText);
});

test('find by id pages to the message among its neighbours and selects it', async () => {
  await open('deep');
  const [want] = (await inspect('deep', 'from=77776&limit=1')).messages;
  await page.locator('[data-testid=find]').fill(want.messageId);
  await page.locator('[data-testid=find-go]').click();
  await range(`77751–77800 of ${DEEP}`);
  await page.locator('[data-testid=message-id]', { hasText: want.messageId }).waitFor();
  await page
    .locator(`[data-testid=message][data-id="${want.messageId}"][aria-selected=true]`)
    .waitFor();

  await page.locator('[data-testid=find]').fill('00000000-0000-4000-8000-000000000000');
  await page.locator('[data-testid=find-go]').click();
  await page.locator('[data-testid=status]', { hasText: 'No message 00000000' }).waitFor();
});

test('find by text lists only the matches, paged on the server', async () => {
  await open('deep');
  // `job 9999` is in job 9999 and job 99990–99999: eleven messages.
  await page.locator('[data-testid=find]').fill('job 9999');
  await page.locator('[data-testid=find-go]').click();
  await range('1–11 of 11 matching');
  const texts = await cards().evaluateAll((els) => els.map((e) => e.getAttribute('data-text')));
  assert.deepEqual(
    [...texts].sort(),
    ['job 9999', ...Array.from({ length: 10 }, (_, i) => `job 9999${i}`)].sort(),
  );
  await page.locator(`[data-testid=counts][data-total="${DEEP}"]`).waitFor();
  await page.locator('[data-testid=find]').fill('no such text');
  await page.locator('[data-testid=find-go]').click();
  await range('none matching');
  await page.locator('[data-testid=no-match]').waitFor();
  await page.locator('[data-testid=find-reset]').click();
  await range(`1–50 of ${DEEP}`);
});

test('the state filter, and the detail with its times and whole receipt', async () => {
  const q = sdk.getQueueClient('states');
  await q.create();
  for (const text of ['a', 'b', 'c', 'd', 'e']) await q.sendMessage(text);
  await q.sendMessage('later', { visibilityTimeout: 3600 });
  await q.sendMessage('short', { messageTimeToLive: 1 });
  const received = await q.receiveMessages({ numberOfMessages: 2, visibilityTimeout: 600 });
  assert.equal(received.receivedMessageItems.length, 2);
  // Past the short message's time to live, on the server's clock.
  const moved = await fetch(`${server.webUrl}_azqueue/clock`, {
    method: 'POST',
    headers: { 'x-azqueue-dev': '1', 'content-type': 'application/json' },
    body: JSON.stringify({ advanceMs: 2000 }),
  });
  assert.equal(moved.status, 200);

  await open('states');
  await page.locator('[data-testid=counts][data-total="7"][data-scheduled="1"]').waitFor();
  /** @type {Array<[string, string[]]>} */
  const expected = [
    ['visible', ['c', 'd', 'e']],
    ['invisible', ['a', 'b']],
    ['scheduled', ['later']],
    ['expired', ['short']],
  ];
  for (const [state, texts] of expected) {
    await page.locator('[data-testid=state-filter]').selectOption(state);
    await range(`1–${texts.length} of ${texts.length} matching`);
    for (const t of texts)
      await page.locator(`[data-testid=message][data-text="${t}"]`).waitFor({ state: 'visible' });
    const shown = await cards().evaluateAll((els) => els.map((e) => e.getAttribute('data-text')));
    assert.deepEqual([...shown].sort(), texts, state);
  }

  await page.locator('[data-testid=state-filter]').selectOption('scheduled');
  const [later] = (await inspect('states', 'state=scheduled')).messages;
  await page.locator(`[data-testid=message][data-id="${later.messageId}"]`).click();
  const detail = page.locator('[data-testid=message-detail]');
  await detail.waitFor();
  const iso = (/** @type {number} */ ms) =>
    new Date(ms)
      .toISOString()
      .replace('T', ' ')
      .replace(/\.\d+Z$/, ' UTC');
  const text = async (/** @type {string} */ id) =>
    page.locator(`[data-testid=${id}]`).textContent();
  assert.match(String(await text('message-meta')), /^scheduled · DequeueCount 0$/);
  assert.ok(String(await text('message-inserted')).startsWith(iso(later.insertedOn)));
  assert.ok(String(await text('message-next-visible')).startsWith(iso(later.nextVisibleOn)));
  assert.match(String(await text('message-next-visible')), /\(in (59 min|1 h)/);
  assert.ok(String(await text('message-expires')).startsWith(iso(later.expiresOn)));
  assert.equal(await text('message-receipt'), later.popReceipt);
  // Beside the cards, in view, not below them.
  const [lane, aside] = await Promise.all([
    page.locator('[data-testid=queue-lane]').boundingBox(),
    detail.boundingBox(),
  ]);
  assert.ok(lane && aside);
  assert.ok(aside.x >= lane.x + lane.width, 'the detail is to the right of the cards');
  assert.ok(aside.y < 900, 'the detail is on screen');
  assert.deepEqual(pageErrors, []);
});

test('a message moved to the poison queue shows where it came from', async () => {
  const q = sdk.getQueueClient('payments');
  await q.create();
  await q.sendMessage('charge 42');
  for (let i = 0; i < 3; i++) {
    const got = await q.receiveMessages({ visibilityTimeout: 1 });
    assert.equal(got.receivedMessageItems.length, 1);
    // Back in a second on the server's clock.
    await fetch(`${server.webUrl}_azqueue/clock`, {
      method: 'POST',
      headers: { 'x-azqueue-dev': '1', 'content-type': 'application/json' },
      body: JSON.stringify({ advanceMs: 1000 }),
    });
  }
  const [original] = (await inspect('payments', '')).messages;
  assert.equal(original.dequeueCount, 3);
  await open('payments');
  await page.locator(`[data-testid=message][data-id="${original.messageId}"]`).click();
  await page.locator('[data-testid=poison-message]').click();
  await page.locator('[data-testid=queue][data-name=payments-poison][data-count="1"]').click();
  const [moved] = (await inspect('payments-poison', '')).messages;
  await page.locator(`[data-testid=message][data-id="${moved.messageId}"]`).click();
  const origin = page.locator('[data-testid=message-origin]');
  await origin.waitFor();
  assert.equal(await origin.getAttribute('data-origin-queue'), 'payments');
  assert.equal(await origin.getAttribute('data-origin-id'), original.messageId);
  assert.equal(await origin.getAttribute('data-origin-dequeue-count'), '3');
  assert.match(String(await origin.textContent()), /from payments .* had reached 3/);
  assert.equal(
    await page.locator('[data-testid=message-meta]').textContent(),
    'visible · DequeueCount 0',
  );
  // The card says it too, in the teaching page's words.
  await page
    .locator(`[data-testid=message][data-id="${moved.messageId}"][data-origin-dequeue-count="3"]`)
    .waitFor();
  assert.deepEqual(pageErrors, []);
});

test('the notes sit below the clock and the cards, not over them', async () => {
  await sdk.getQueueClient('empty').create();
  await open('empty');
  const note = await page.locator('[data-testid=empty]').boundingBox();
  const clock = await page.locator('[aria-label="Server clock"]').boundingBox();
  const lane = await page.locator('[data-testid=queue-lane]').boundingBox();
  assert.ok(note && clock && lane);
  assert.ok(note.y >= clock.y + clock.height, 'below the clock toolbar');
  assert.ok(note.y >= lane.y, 'not above the lane');
});
