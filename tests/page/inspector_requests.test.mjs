// The inspector's live request log (www/inspect/request-log.js, docs/inspector.md "Request log")
// in Chromium against `node hosts/node/server.mjs`, with the official JS SDK as the presenter's
// script: each request shows with its operation as Azure names it, method and path, status and
// duration; a refused one (404 QueueNotFound) with its code; a burst shows the newest rows and
// how many were left out, which add up to the burst; the server records nothing while no page
// shows the log, and the log follows its toggle.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { QueueServiceClient } from '@azure/storage-queue';
import { launchChromium } from '../../scripts/lib/chromium.mjs';
import { startServer } from '../../scripts/lib/azqueue-server.mjs';

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
/** @type {import('playwright-core').Browser} */
let browser;
/** @type {QueueServiceClient} */
let service;
/** @type {string[]} */
const pageErrors = [];

before(async () => {
  server = await startServer({ args: ['--inMemoryPersistence'] });
  browser = await launchChromium();
  service = QueueServiceClient.fromConnectionString(server.connectionString, {
    retryOptions: { maxTries: 1 },
  });
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/**
 * The inspector on its own server, live.
 * @param {string} [query] more of the page's query
 */
async function open(query = '') {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  await page.goto(`${server.webUrl}?view=inspect${query}`);
  await page.locator('[data-testid=live][data-live=true]').waitFor();
  return page;
}

/**
 * The log's rows as the page shows them, newest first.
 * @param {import('playwright-core').Page} page
 */
const rows = (page) =>
  page.locator('[data-testid=request]').evaluateAll((trs) =>
    trs.map((tr) => ({
      operation: tr.getAttribute('data-operation'),
      status: Number(tr.getAttribute('data-status')),
      code: tr.getAttribute('data-code'),
      cells: [...tr.querySelectorAll('td')].map((td) => td.textContent ?? ''),
    })),
  );

test('each SDK request shows with its operation, path, status and duration; a refused one with its code', async () => {
  const page = await open('&log=1');
  const q = service.getQueueClient('demo-orders');
  await q.create();
  await q.sendMessage('hello');
  const [got] = (await q.receiveMessages()).receivedMessageItems;
  await q.deleteMessage(got.messageId, got.popReceipt);
  const missing = service.getQueueClient('no-such-queue');
  await assert.rejects(missing.sendMessage('x'), { statusCode: 404 });

  await page.locator('[data-testid=request][data-code=QueueNotFound]').waitFor({ timeout: 5_000 });
  const shown = (await rows(page)).reverse();
  assert.deepEqual(
    shown.map((r) => [r.operation, r.status, r.code]),
    [
      ['Create Queue', 201, ''],
      ['Put Message', 201, ''],
      ['Get Messages', 200, ''],
      ['Delete Message', 204, ''],
      ['Put Message', 404, 'QueueNotFound'],
    ],
  );
  const [, operation, request, status, took] = shown[4].cells;
  assert.equal(operation, 'Put Message');
  assert.equal(request, 'POST /devstoreaccount1/no-such-queue/messages');
  assert.equal(status, '404 QueueNotFound');
  assert.match(took, /^\d+(\.\d)? ms$/);
  // The path only: a query (which may carry a SAS signature) is never shown.
  assert.ok(shown.every((r) => !r.cells[2].includes('?')));
  assert.equal(await page.locator('[data-testid=requests-left-out]').isHidden(), true);
  await page.close();
  assert.deepEqual(pageErrors, []);
});

test('a burst shows the newest rows and how many were left out, adding up to the burst', async () => {
  const page = await open('&log=1');
  const q = service.getQueueClient('demo-burst');
  await q.create();
  await page.locator('[data-testid=request][data-operation="Create Queue"]').waitFor();
  const before = Number(await page.locator('[data-testid=requests]').getAttribute('data-seen'));
  const BURST = 300;
  await Promise.all(Array.from({ length: BURST }, (_, i) => q.sendMessage(`job ${i}`)));

  // Every put is either a row or counted as left out, once the last write has come.
  const left = page.locator('[data-testid=requests-left-out]');
  await page.waitForFunction(
    ([want, first]) => {
      const rows =
        Number(document.querySelector('[data-testid=requests]')?.getAttribute('data-seen')) - first;
      const left = Number(
        document.querySelector('[data-testid=requests-left-out]')?.getAttribute('data-count') ?? 0,
      );
      return rows + left === want;
    },
    [BURST, before],
    { timeout: 10_000 },
  );
  const count = Number(await left.getAttribute('data-count'));
  assert.ok(count > 0, 'a burst of 300 puts left some out');
  assert.match((await left.textContent()) ?? '', new RegExp(`^${count} more requests`));
  const puts = (await rows(page)).slice(0, Math.min(100, BURST - count));
  assert.ok(puts.every((r) => r.operation === 'Put Message' && r.status === 201));
  await page.close();
  assert.deepEqual(pageErrors, []);
});

test('nothing is recorded while no page shows the log; the toggle starts and stops it', async () => {
  const page = await open();
  const q = service.getQueueClient('demo-toggle');
  await q.create();
  await q.sendMessage('unseen');
  const toggle = page.locator('[data-testid=request-log-toggle]');
  assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
  await toggle.click();
  assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
  await page.locator('[data-testid=live][data-live=true]').waitFor();
  await q.sendMessage('seen');
  await page.locator('[data-testid=request][data-operation="Put Message"]').waitFor();
  // What came before the log was shown was never recorded: only the second put is there.
  assert.deepEqual(
    (await rows(page)).map((r) => r.operation),
    ['Put Message'],
  );
  await toggle.click();
  assert.equal(await page.locator('[data-testid=requests]').isHidden(), true);
  await page.close();
  assert.deepEqual(pageErrors, []);
});
