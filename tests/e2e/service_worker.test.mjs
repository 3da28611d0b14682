// www/sw.js in headless Chromium (playwright-core + Debian's /usr/bin/chromium): a page's own
// fetches to /devstoreaccount1/... are served by the wasm handler in the service worker.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launchChromium } from '../../scripts/lib/chromium.mjs';
import { startServer } from './azqueue_server.mjs';

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
/** @type {import('playwright-core').Browser} */
let browser;
before(async () => {
  server = await startServer();
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

test('a page talks to the queue service living in its service worker', async () => {
  const page = await browser.newPage();
  /** @type {string[]} */
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // Any same-origin document will do as the registering page; the file itself is irrelevant.
  await page.goto(new URL('pkg/web/azqueue.d.ts', server.webUrl).href);
  const result = await page.evaluate(async () => {
    await navigator.serviceWorker.register('/sw.js?anonymous=1', { type: 'module' });
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise((r) =>
        navigator.serviceWorker.addEventListener('controllerchange', r, { once: true }),
      );
    }
    const v = { 'x-ms-version': '2026-04-06' };
    const created = await fetch('/devstoreaccount1/sw-queue', { method: 'PUT', headers: v });
    const put = await fetch('/devstoreaccount1/sw-queue/messages', {
      method: 'POST',
      headers: v,
      body: '<QueueMessage><MessageText>hello from the page</MessageText></QueueMessage>',
    });
    const got = await fetch('/devstoreaccount1/sw-queue/messages?numofmessages=1', { headers: v });
    const missing = await fetch('/devstoreaccount1/no-such-queue/messages', { headers: v });
    const other = await fetch('/pkg/web/azqueue.d.ts');
    return {
      created: created.status,
      put: put.status,
      got: got.status,
      body: await got.text(),
      missing: missing.status,
      missingCode: missing.headers.get('x-ms-error-code'),
      other: other.status,
    };
  });
  assert.equal(result.created, 201);
  assert.equal(result.put, 201);
  assert.equal(result.got, 200);
  assert.match(result.body, /<MessageText>hello from the page<\/MessageText>/);
  assert.match(result.body, /<DequeueCount>1<\/DequeueCount>/);
  assert.equal(result.missing, 404);
  assert.equal(result.missingCode, 'QueueNotFound');
  assert.equal(result.other, 200, 'requests outside the account paths reach the network');
  assert.deepEqual(errors, []);
  await page.close();
});
