// The inspector's fault panel (www/inspect/faults-panel.js) in Chromium against
// `node hosts/node/server.mjs`, with the official JS SDK (one try per call, so each answer is
// seen) as the traffic: a rule added from the form fires on the SDK's sends, its counts and the
// recent faults move on the page, a rule added as JSON too, one is removed by keyboard, all are
// cleared; a limit set on the page refuses puts with 503 ServerBusy and counts them; a bad rule
// shows the server's own error and changes nothing; and the panel holds at 390 px with AA
// contrast. What the page shows is checked against the server's own `GET /_azqueue/faults`.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { QueueServiceClient } from '@azure/storage-queue';
import { launchChromium } from '../../scripts/lib/chromium.mjs';
import { startServer } from '../../scripts/lib/azqueue-server.mjs';
import { contrastFailures } from './contrast.mjs';

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
/** @type {import('playwright-core').Browser} */
let browser;
/** @type {import('@azure/storage-queue').QueueClient} */
let orders;
/** @type {string[]} */
const pageErrors = [];

before(async () => {
  server = await startServer({ args: ['--inMemoryPersistence'] });
  browser = await launchChromium();
  const service = QueueServiceClient.fromConnectionString(server.connectionString, {
    retryOptions: { maxTries: 1 },
  });
  orders = service.getQueueClient('orders');
  await orders.create();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/**
 * A development path on the queue port, as any client outside the page would call it.
 * @param {string} path under /_azqueue/
 * @param {{ method?: string, body?: unknown }} [options]
 */
async function dev(path, { method = 'GET', body } = {}) {
  const res = await fetch(`${server.origin}/_azqueue/${path}`, {
    method,
    headers: method === 'GET' ? {} : { 'x-azqueue-dev': '1', 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** The server's rule set as GET answers it. */
const rules = async () => (await dev('faults')).body;

/**
 * The inspector on its own server, at `width`, with its fault panel read.
 * @param {number} [width]
 */
async function open(width = 1200) {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  await page.goto(`${server.webUrl}?view=inspect`);
  await page.locator('[data-testid=live][data-live=true]').waitFor();
  await page.locator('[data-testid=faults-summary]').waitFor();
  return page;
}

/**
 * `send` through the SDK: the status the service answered (201 when stored).
 * @param {string} text
 */
const send = (text) =>
  orders.sendMessage(text).then(
    () => 201,
    (/** @type {import('@azure/storage-queue').RestError} */ e) => e.statusCode,
  );

/** @param {import('playwright-core').Page} page @param {string} id */
const rule = (page, id) => page.locator(`[data-testid=fault-rule][data-id="${id}"]`);

test('a rule added from the form fires on the SDK’s sends, counted live; removed; cleared', async () => {
  const page = await open();
  assert.match(
    String(await page.locator('[data-testid=faults-summary]').textContent()),
    /No rules/,
  );
  const form = page.locator('[data-testid=fault-form]');
  await form.locator('[data-testid=fault-operation]').selectOption('PutMessage');
  await form.locator('[data-testid=fault-queue]').fill('orders');
  await form.locator('[data-testid=fault-status]').fill('503');
  await form.locator('[data-testid=fault-times]').fill('2');
  await page.locator('[data-testid=add-rule]').click();
  await page.locator('[data-testid=fault-outcome]', { hasText: 'Added rule 1.' }).waitFor();
  await rule(page, '1').waitFor();
  const added = (await rules()).rules;
  assert.equal(added.length, 1);
  assert.deepEqual(
    [added[0].operation, added[0].queue, added[0].status, added[0].code, added[0].times],
    ['PutMessage', 'orders', 503, 'ServerBusy', 2],
  );
  assert.match(String(await rule(page, '1').textContent()), /PutMessage on queue orders/);
  assert.match(String(await rule(page, '1').textContent()), /answers 503 ServerBusy instead/);
  assert.match(String(await rule(page, '1').textContent()), /always, at most 2 times/);

  // The SDK's sends: two refused by the rule, the third stored, and the page counts them.
  assert.deepEqual([await send('a'), await send('b'), await send('c')], [503, 503, 201]);
  await page
    .locator('[data-testid=fault-rule][data-id="1"][data-injected="2"][data-retired=true]')
    .waitFor();
  assert.equal(await rule(page, '1').getAttribute('data-matched'), '2');
  const recent = page.locator('[data-testid=recent-fault]');
  await recent.nth(1).waitFor();
  assert.equal(await recent.count(), 2);
  assert.match(String(await recent.first().textContent()), /PutMessage on queue orders: 503/);

  // A second rule as JSON, on peeks: the newest fault is listed first.
  await page
    .locator('[data-testid=fault-json]')
    .fill('{"operation": "PeekMessages", "queue": "orders", "code": "OperationTimedOut"}');
  await page.locator('[data-testid=add-json]').click();
  await rule(page, '2').waitFor();
  await assert.rejects(orders.peekMessages(), (/** @type {any} */ e) => e.statusCode === 500);
  await page.locator('[data-testid=fault-rule][data-id="2"][data-injected="1"]').waitFor();
  await page.locator('[data-testid=recent-fault]').nth(2).waitFor();
  assert.equal(await recent.first().getAttribute('data-operation'), 'PeekMessages');
  assert.equal(await recent.first().getAttribute('data-status'), '500');

  // Removed by keyboard: its button focused, Enter.
  await rule(page, '1').locator('[data-testid=remove-rule]').focus();
  await page.keyboard.press('Enter');
  await rule(page, '1').waitFor({ state: 'detached' });
  assert.equal(
    await page.evaluate(() => document.activeElement?.getAttribute('aria-label')),
    'Remove rule 2',
    'the focus goes on to the rule now in its place',
  );
  assert.deepEqual(
    (await rules()).rules.map((/** @type {{ id: string }} */ r) => r.id),
    ['2'],
  );

  await page.locator('[data-testid=clear-faults]').click();
  await page.locator('[data-testid=faults-summary][data-rules="0"]').waitFor();
  assert.deepEqual((await rules()).rules, []);
  assert.equal(await send('d'), 201, 'no rule left to fire');
  assert.deepEqual(pageErrors, []);
  await page.close();
});

test('a limit set on the page refuses puts with 503 ServerBusy, and counts them', async () => {
  const page = await open();
  // With the queues' clock paused the bucket is not refilled: exactly the burst set.
  assert.equal((await dev('clock', { method: 'POST', body: { paused: true } })).status, 200);
  await page.locator('[data-testid=limit-queueMessagesPerSecond]').fill('3');
  await page.locator('[data-testid=set-limits]').click();
  await page.locator('[data-testid=limits-now][data-queueMessagesPerSecond="3"]').waitFor();
  assert.equal((await rules()).limits.queueMessagesPerSecond, 3);
  const answers = [];
  for (const text of ['1', '2', '3', '4', '5']) answers.push(await send(text));
  assert.deepEqual(answers, [201, 201, 201, 503, 503]);
  await page
    .locator('[data-testid=limits-now][data-throttled-queueMessagesPerSecond="2"]')
    .waitFor();
  assert.match(
    String(await page.locator('[data-testid=limits-now]').textContent()),
    /Per queue: 3 messages\/s \(refused 2\)/,
  );
  const limited = page.locator('[data-testid=recent-fault][data-limit=queueMessagesPerSecond]');
  await limited.nth(1).waitFor();

  await page.locator('[data-testid=lift-limits]').click();
  await page.locator('[data-testid=limits-now][data-queueMessagesPerSecond=none]').waitFor();
  assert.deepEqual((await rules()).limits, {
    queueMessagesPerSecond: null,
    accountRequestsPerSecond: null,
  });
  assert.equal(await send('6'), 201);
  assert.equal((await dev('clock', { method: 'POST', body: { paused: false } })).status, 200);
  assert.deepEqual(pageErrors, []);
  await page.close();
});

test('a bad rule shows the server’s own error, and nothing changes', async () => {
  await dev('faults', {
    method: 'POST',
    body: { rules: [{ operation: 'ClearMessages', status: 503 }] },
  });
  const before = await rules();
  const page = await open();
  await rule(page, before.rules[0].id).waitFor();
  const outcome = page.locator('[data-testid=fault-outcome]');

  // From the form: a probability of 2. The server's words, as it answers them to anyone.
  const refused = await dev('faults', {
    method: 'POST',
    body: { rules: [{ operation: 'PutMessage', probability: 2 }] },
  });
  assert.equal(refused.status, 400);
  await page.locator('[data-testid=fault-operation]').selectOption('PutMessage');
  await page.locator('[data-testid=fault-probability]').fill('2');
  await page.locator('[data-testid=add-rule]').click();
  await outcome.locator('xpath=self::*[contains(@class, "refused")]').waitFor();
  assert.equal(
    await outcome.textContent(),
    `Refused, and nothing was changed: ${refused.body.error}`,
  );

  // As JSON: an unknown field.
  const unknown = { operation: 'PutMessage', status: 503, colour: 'red' };
  const why = (await dev('faults', { method: 'POST', body: { rules: [unknown] } })).body.error;
  await page.locator('[data-testid=fault-json]').fill(JSON.stringify(unknown));
  await page.locator('[data-testid=add-json]').click();
  await page.locator('[data-testid=fault-outcome]', { hasText: why }).waitFor();
  assert.match(why, /colour/);

  // Not JSON at all: said so, and nothing sent.
  await page.locator('[data-testid=fault-json]').fill('{"operation": ');
  await page.locator('[data-testid=add-json]').click();
  await page.locator('[data-testid=fault-outcome]', { hasText: 'That is not JSON' }).waitFor();

  assert.deepEqual(await rules(), before, 'the rule set is as it was');
  assert.equal(await page.locator('[data-testid=fault-rule]').count(), before.rules.length);
  await dev('faults', { method: 'DELETE' });
  assert.deepEqual(pageErrors, []);
  await page.close();
});

test('at 390 px the panel fits, reads at AA contrast, and is used from the keyboard', async () => {
  const page = await open(390);
  // Keyboard only: the queue field focused, the rest by Tab and typing, submitted with Enter.
  await page.locator('[data-testid=fault-queue]').focus();
  await page.keyboard.type('orders');
  await page.keyboard.press('Tab');
  await page.keyboard.type('503');
  await page.keyboard.press('Enter');
  const added = page.locator('[data-testid=fault-rule]');
  await added.first().waitFor();
  assert.equal(await send('k'), 503);
  await page.locator('[data-testid=recent-fault]').first().waitFor();
  // A refusal on screen too, for its colour.
  await page.locator('[data-testid=fault-probability]').fill('-1');
  await page.locator('[data-testid=add-rule]').click();
  await page.locator('[data-testid=fault-outcome].refused').waitFor();

  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  assert.equal(overflow, 0, 'no sideways scrolling at 390 px');
  const faults = page.locator('[data-testid=faults]');
  const box = await faults.boundingBox();
  assert.ok(
    box && box.x >= 0 && box.x + box.width <= 390,
    `the panel within 390 px: ${JSON.stringify(box)}`,
  );
  assert.deepEqual(await page.evaluate(contrastFailures), []);
  await dev('faults', { method: 'DELETE' });
  assert.deepEqual(pageErrors, []);
  await page.close();
});
