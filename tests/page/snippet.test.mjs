// The snippet talks to the page's own engine: the service worker (www/sw.js, registered by the
// page in forwarding mode) hands /devstoreaccount1/… requests of the tab to the page, which
// answers them with the engine it draws. The official @azure/storage-queue SDK runs in the page,
// imported from the server itself (pkg/vendor/, bundled by scripts/build-sdk.mjs), so nothing
// leaves the machine; its messages become cards and its calls rows in the HTTP log.

import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  ROOT,
  cards,
  chooseScenario,
  launchBrowser,
  openPage,
  restart,
  screenshot,
  startServer,
  textOf,
} from './harness.mjs';

/** @type {import('./harness.mjs').Server} */
let server;
/** @type {import('./harness.mjs').Browser} */
let browser;
/** @type {(import('./harness.mjs').OpenedPage & { foreign: string[] })[]} */
const pages = [];
const SDK = '/pkg/vendor/azure-storage-queue.js';

before(async () => {
  if (!existsSync(join(ROOT, SDK)))
    throw new Error(`${SDK.slice(1)} is missing: run \`make build\` (scripts/build-sdk.mjs)`);
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  server?.close();
});

/** @param {Parameters<typeof openPage>[2]} [options] */
async function open(options) {
  // Every request the page makes stays on the server's origin: the SDK comes from it too.
  const p = {
    ...(await openPage(browser.context, server.url, options)),
    foreign: /** @type {string[]} */ ([]),
  };
  pages.push(p);
  await p.page.waitForSelector("body[data-sw='forwarding']", { timeout: 20_000 });
  p.page.on('request', (r) => {
    if (!r.url().startsWith(server.url) && !r.url().startsWith('data:')) p.foreign.push(r.url());
  });
  return p;
}

afterEach(async () => {
  for (const p of pages.splice(0)) {
    // The snippet's refused delete is a 404 on purpose; Chromium reports every 4xx fetch this way.
    const errors = p.errors.filter(
      (e) => !/Failed to load resource: the server responded with a status of 404/.test(e),
    );
    assert.deepEqual(errors, [], 'no console errors or page errors');
    assert.deepEqual(p.foreign, [], "no request left the server's origin");
    await p.page.close();
  }
});

/**
 * HTTP log rows, newest first.
 * @param {import('playwright-core').Page} page
 */
const logRows = (page) =>
  page.$$eval('[data-testid=http-log] li', (rows) =>
    rows.map((r) => ({
      op: r.dataset.op,
      actor: r.dataset.actor,
      status: Number(r.dataset.status),
      via: r.dataset.via,
      presented: r.dataset.receiptPresented,
      issued: r.dataset.receiptIssued,
      text: r.textContent ?? '',
    })),
  );

describe("the snippet reaches the page's own queue through the service worker", () => {
  test('QueueClient.sendMessage from the page context becomes a card and an HTTP log row', async () => {
    const { page } = await open();
    await chooseScenario(page, 'slow-consumer');
    const before = await cards(page);
    const queue = await textOf(page, '#queue-name');
    const sent = await page.evaluate(async (queue) => {
      // The page's own bundle of the SDK (scripts/build-sdk.mjs), which tsc knows by its package.
      const bundle = '/pkg/vendor/azure-storage-queue.js';
      /** @type {typeof import('@azure/storage-queue')} */
      const { QueueClient, AnonymousCredential } = await import(bundle);
      const client = new QueueClient(
        `${location.origin}/devstoreaccount1/${queue}`,
        new AnonymousCredential(),
      );
      const r = await client.sendMessage('hello from the SDK test');
      return {
        messageId: r.messageId,
        status: r._response.status,
        insertedOn: r.insertedOn.toISOString(),
      };
    }, queue);
    assert.equal(sent.status, 201);
    assert.match(
      sent.insertedOn,
      /^2025-03-03T09:00:00/,
      "the page's virtual clock stamped it, not the real one",
    );

    await page.waitForSelector(
      `[data-testid=queue-lane] [data-testid=message][data-id="${sent.messageId}"]`,
      { timeout: 5000 },
    );
    const after = await cards(page);
    assert.equal(after.length, before.length + 1);
    const card = after.find((c) => c.id === sent.messageId);
    assert.ok(card, 'a card for the message the SDK sent');
    assert.equal(card.text, 'hello from the SDK test');
    assert.equal(card.state, 'visible');

    const rows = await logRows(page);
    const put = rows.find((r) => r.op === 'Put Message' && r.actor === 'SDK snippet');
    assert.ok(put, JSON.stringify(rows.slice(0, 3)));
    assert.equal(put.status, 201);
    assert.equal(put.via, 'sw');
    assert.match(put.text, /hello from the SDK test/);
    assert.match(put.text, /from SDK snippet/);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'snippet-sdk-card-1280');
    await page.click('#snippet-panel summary');
    await page.evaluate(() =>
      /** @type {HTMLElement} */ (document.getElementById('snippet-panel')).scrollIntoView(),
    );
    await screenshot(page, 'snippet-panel-1280');
  });

  test('the snippet as shown runs offline on its own queue: its calls are logged with receipts, the stale one gets 404', async () => {
    const { page } = await open();
    await chooseScenario(page, 'slow-consumer');
    const before = (await cards(page)).map((c) => [c.id, c.text, c.state]);
    const deletedBefore = Number(await page.textContent('[data-testid=counter-deleted] .n'));
    await page.click('#snippet-panel summary');
    const snippet = await textOf(page, '[data-testid=snippet]');
    assert.ok(
      snippet.includes('await import(`${location.origin}/pkg/vendor/azure-storage-queue.js`)'),
      snippet,
    );
    assert.ok(
      snippet.includes(
        'new QueueClient(`${location.origin}/devstoreaccount1/orders-sdk`, new AnonymousCredential())',
      ),
      snippet,
    );
    const logged = await page.evaluate(async (body) => {
      /** @type {string[]} */
      const lines = [];
      const log = console.log;
      console.log = (...a) => lines.push(a.join(' '));
      try {
        await new Function(`return (async () => {\n${body}\n})();`)();
      } finally {
        console.log = log;
      }
      return lines;
    }, snippet);
    assert.deepEqual(logged, [
      'hello from the SDK DequeueCount 1',
      'stale receipt: 404 MessageNotFound',
      'deleted with the current receipt',
    ]);

    await page.waitForSelector(
      '[data-testid=http-log] li[data-actor="SDK snippet"][data-op="Delete Message"][data-status="204"]',
    );
    const rows = (await logRows(page)).filter((r) => r.actor === 'SDK snippet').reverse();
    assert.deepEqual(
      rows.map((r) => [r.op, r.status, r.presented ?? null, r.issued ?? null]),
      [
        ['Create Queue', 201, null, null],
        ['Put Message', 201, null, null],
        ['Get Messages', 200, null, 'r1'],
        ['Update Message', 204, 'r1', 'r2'],
        ['Delete Message', 404, 'r1', null],
        ['Delete Message', 204, 'r2', null],
      ],
    );
    const named = /→ (#\d+)/.exec(rows[1].text);
    assert.ok(named, rows[1].text);
    const label = named[1];
    assert.match(
      rows[2].text,
      new RegExp(`${label} DequeueCount=1`),
      'the log names the message each call touched',
    );
    assert.match(
      rows[4].text,
      new RegExp(`${label} not deleted: r1 is not the current receipt r2`),
    );
    assert.match(rows[5].text, new RegExp(`deleted ${label}`));

    await page.waitForFunction(
      (n) =>
        Number(
          /** @type {Element} */ (document.querySelector('[data-testid=counter-deleted] .n'))
            .textContent,
        ) ===
        n + 1,
      deletedBefore,
    );
    assert.equal(await page.isVisible('#extra-box'), true, 'its queue is drawn');
    assert.equal(await page.textContent('#extra-name'), 'orders-sdk');
    const narration = await page.$$eval('[data-testid=narration] li', (els) =>
      els.map((e) => e.textContent ?? ''),
    );
    assert.ok(
      narration.some((l) =>
        l.includes(
          `SDK snippet's delete of ${label} was refused (404 MessageNotFound): it presented r1, but the current receipt is r2.`,
        ),
      ),
      narration.join('\n'),
    );
    assert.deepEqual(
      (await cards(page)).map((c) => [c.id, c.text, c.state]),
      before,
      "the scenario's own messages were not touched",
    );
    await page.evaluate(() =>
      /** @type {HTMLElement} */ (document.getElementById('snippet-panel')).scrollIntoView(),
    );
    await screenshot(page, 'snippet-stale-receipt-1280');
  });

  test('the test-message button sends through the service worker; a reload replays what it sent', async () => {
    const { page } = await open();
    await chooseScenario(page, 'slow-consumer');
    await page.click('#snippet-panel summary');
    await page.click('[data-testid=start-sw]');
    await page.waitForSelector('[data-testid=sw-status][data-status]', { timeout: 15_000 });
    assert.equal(
      await page.getAttribute('[data-testid=sw-status]', 'data-status'),
      '201',
      await textOf(page, '[data-testid=sw-status]'),
    );
    await page.waitForSelector(
      '[data-testid=queue-lane] [data-testid=message][data-text="hello through the service worker"]',
    );
    const row = (await logRows(page)).find((r) => r.op === 'Put Message' && r.via === 'sw');
    assert.equal(row?.actor, 'Your code', 'a plain fetch is not the SDK');
    const before = (await cards(page)).map((c) => [c.id, c.text]);

    await page.reload();
    await page.waitForSelector("body[data-ready='true']", { timeout: 20_000 });
    await page.waitForSelector("[data-testid=store][data-restored='true']");
    assert.deepEqual(
      (await cards(page)).map((c) => [c.id, c.text]),
      before,
      'same messages, same ids after the replay',
    );
  });

  test('with no page to answer, the worker says 503 ServerBusy instead of hanging', async () => {
    // A same-origin document that is not the teaching page: controlled by the worker, but deaf.
    const { page } = await open();
    await restart(page); // a fresh run: nothing replayed from the last test's session
    const other = await browser.context.newPage();
    await other.goto(`${server.url}/pkg/web/azqueue.d.ts`);
    await other.waitForFunction(() => navigator.serviceWorker.controller !== null);
    const r = await other.evaluate(async () => {
      const started = performance.now();
      const r = await fetch('/devstoreaccount1/orders?comp=metadata', {
        headers: { 'x-ms-version': '2026-04-06' },
      });
      return {
        status: r.status,
        code: r.headers.get('x-ms-error-code'),
        body: await r.text(),
        ms: performance.now() - started,
      };
    });
    await other.close();
    assert.equal(r.status, 503);
    assert.equal(r.code, 'ServerBusy');
    assert.match(r.body, /<Error><Code>ServerBusy<\/Code><Message>/);
    // It waited for a page to answer before giving up (its bound); that it did not hang is the
    // fetch resolving at all.
    assert.ok(r.ms >= 4000, `answered after ${r.ms} ms, before the worker's wait for a page`);
    // The teaching page itself was not asked.
    assert.equal((await logRows(page)).filter((x) => x.via === 'sw').length, 0);
  });
});
