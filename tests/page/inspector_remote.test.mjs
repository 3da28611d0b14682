// The inspector pointed at another azqueue by URL, in Chromium: the page is served by server A's
// page port and inspects server B (`?view=inspect&server=<B>`), which was started with
// `--devOrigin <A's page origin>`. The Python SDK (tests/page/inspector_sdk.py, outside the
// browser) sends to B and moves B's clock through B's queue port; the page shows each change,
// pushed from B's /_azqueue/events, and its actions take effect on B for the SDK. Server C, started
// without the opt-in, refuses the same page: its reads and its preflight carry no CORS grant,
// and nothing changes. The page's fault panel adds, removes (a DELETE, in B's grant) and clears
// B's rules, and says why C's cannot be read.

import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { QueueServiceClient } from '@azure/storage-queue';
import { CHROMIUM, CHROMIUM_ARGS } from '../../scripts/lib/chromium.mjs';
import { startServer } from '../../scripts/lib/azqueue-server.mjs';
import { WITHIN_MS, shown, startSdk } from './inspector-harness.mjs';

/** @typedef {Awaited<ReturnType<typeof startServer>>} Server */

/** @type {Server} server A: serves the page */
let a;
/** @type {Server} server B: inspected, opted in to A's page origin */
let b;
/** @type {Server} server C: not opted in */
let c;
/** @type {string} A's page origin */
let pageOrigin;
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

/**
 * A request to `origin` with any headers, answered with its status, headers and body.
 * @param {string} origin
 * @param {string} method
 * @param {string} path
 * @param {Record<string, string>} headers
 * @param {string} [body]
 * @returns {Promise<{ status: number, headers: import('node:http').IncomingHttpHeaders, body: string }>}
 */
function raw(origin, method, path, headers, body) {
  const url = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method, path, headers }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * A browser's preflight for a POST to `server`'s clock from a page of `origin`.
 * @param {string} server
 * @param {string} origin
 * @param {string} [headers] the request headers the POST would carry
 */
const preflightFrom = (server, origin, headers = 'content-type,x-azqueue-dev') =>
  raw(server, 'OPTIONS', '/_azqueue/clock', {
    origin,
    'access-control-request-method': 'POST',
    'access-control-request-headers': headers,
  });

/** Waits until `selector` is on the page, within WITHIN_MS. */
const shows = (/** @type {string} */ selector, /** @type {string} */ what = selector) =>
  shown(page, selector, what);

const card = (/** @type {string} */ id, extra = '') =>
  `[data-testid=queue-lane] [data-testid=message][data-id="${id}"]${extra}:not(.leaving)`;

before(async () => {
  a = await startServer({ plain: true });
  pageOrigin = new URL(a.webUrl).origin;
  b = await startServer({ plain: true, args: ['--devOrigin', pageOrigin] });
  c = await startServer({ plain: true });
  ({ sdk, stop: stopSdk } = startSdk(b.connectionString));
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing`);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  page.on('pageerror', (e) => pageErrors.push(String(e)));
});

after(async () => {
  await browser?.close();
  stopSdk?.();
  await Promise.all([a?.stop(), b?.stop(), c?.stop()]);
});

test('a page on server A inspects and steers server B, which opted in to it', async () => {
  await page.goto(`${a.webUrl}?view=inspect&server=${encodeURIComponent(b.origin)}`);
  await page.locator('[data-testid=live][data-live=true]').waitFor();
  await page.locator('[data-testid=target]', { hasText: b.origin }).waitFor();

  await sdk({ op: 'create', queue: 'remote' });
  await shows('[data-testid=queue][data-name=remote]', "B's new queue");
  await page.locator('[data-testid=queue][data-name=remote]').click();
  const hello = (await sdk({ op: 'send', queue: 'remote', text: 'hello from B' })).id;
  await shows(card(hello, '[data-state=visible]'), 'the message sent to B');
  const later = (await sdk({ op: 'send', queue: 'remote', text: 'later', delay: 3600 })).id;
  await shows(card(later, '[data-state=scheduled]'), 'the scheduled message');

  // The page's action reaches B: deleted for the SDK.
  await page.locator(card(hello)).click();
  await page.locator('[data-testid=message-text]', { hasText: 'hello from B' }).waitFor();
  await page.locator('[data-testid=delete-message]').click();
  await page.locator(card(hello)).waitFor({ state: 'detached', timeout: WITHIN_MS + 2000 });
  assert.deepEqual((await sdk({ op: 'peek', queue: 'remote' })).messages, []);

  // B's clock moved by the Python side through B's queue port: pushed to the page, which
  // shows the new offset and the message come due.
  const moved = (await sdk({ op: 'advance', ms: 3_600_000 })).clock;
  assert.ok(moved.offsetMs >= 3_600_000, JSON.stringify(moved));
  await shows(
    `[data-testid=clock-offset][data-offset-ms="${moved.offsetMs}"]`,
    'the clock moved through the queue port',
  );
  await shows(card(later, '[data-state=visible]'), 'the message come due');
  assert.deepEqual(
    (await sdk({ op: 'peek', queue: 'remote' })).messages.map((/** @type {any} */ m) => m.id),
    [later],
  );

  // The page's clock control moves B's clock too.
  await page.locator('[data-testid=advance-1min]').click();
  await shows(`[data-testid=clock-offset][data-offset-ms="${moved.offsetMs + 60_000}"]`);
  const clock = await raw(b.origin, 'GET', '/_azqueue/clock', {});
  assert.equal(JSON.parse(clock.body).offsetMs, moved.offsetMs + 60_000);
  assert.deepEqual(pageErrors, []);
});

test('the page on A adds, removes and clears B’s fault rules, and sees them fire', async () => {
  await page.goto(`${a.webUrl}?view=inspect&server=${encodeURIComponent(b.origin)}`);
  await page.locator('[data-testid=live][data-live=true]').waitFor();
  await page.locator('[data-testid=faults-summary][data-rules="0"]').waitFor();
  await page
    .locator('[data-testid=fault-json]')
    .fill('[{"operation": "PeekMessages", "queue": "remote", "status": 503}, {"status": 500}]');
  await page.locator('[data-testid=add-json]').click();
  await page.locator('[data-testid=fault-outcome]', { hasText: 'Added rules 1, 2.' }).waitFor();
  const faults = async () => JSON.parse((await raw(b.origin, 'GET', '/_azqueue/faults', {})).body);
  assert.deepEqual(
    (await faults()).rules.map((/** @type {{ id: string }} */ r) => r.id),
    ['1', '2'],
  );
  // A peek on B through the JS SDK (one try) is refused by rule 1, pushed from B's stream.
  const remote = QueueServiceClient.fromConnectionString(b.connectionString, {
    retryOptions: { maxTries: 1 },
  }).getQueueClient('remote');
  await assert.rejects(remote.peekMessages(), (/** @type {any} */ e) => e.statusCode === 503);
  await page
    .locator('[data-testid=recent-fault][data-rule="1"][data-operation=PeekMessages]')
    .first()
    .waitFor();
  await page.locator('[data-testid=fault-rule][data-id="1"][data-injected="1"]').waitFor();
  // Removing takes a DELETE, which B's grant to A's origin allows.
  await page.locator('[data-testid=fault-rule][data-id="2"] [data-testid=remove-rule]').click();
  await page.locator('[data-testid=fault-rule][data-id="2"]').waitFor({ state: 'detached' });
  assert.deepEqual(
    (await faults()).rules.map((/** @type {{ id: string }} */ r) => r.id),
    ['1'],
  );
  await page.locator('[data-testid=clear-faults]').click();
  await page.locator('[data-testid=faults-summary][data-rules="0"]').waitFor();
  assert.deepEqual((await faults()).rules, []);
  assert.deepEqual(pageErrors, []);
});

test('server C, without the opt-in, refuses the same page: no read, no preflight, no change', async () => {
  await page.goto(`${a.webUrl}?view=inspect`);
  const refused = await page.evaluate(async (target) => {
    /** @param {() => Promise<Response>} call */
    const outcome = (call) =>
      call().then(
        (r) => `read ${r.status}`,
        (e) => `refused: ${e.name}`,
      );
    return {
      read: await outcome(() => fetch(`${target}/_azqueue/inspect/devstoreaccount1`)),
      events: await outcome(() => fetch(`${target}/_azqueue/events`)),
      steer: await outcome(() =>
        fetch(`${target}/_azqueue/clock`, {
          method: 'POST',
          headers: { 'x-azqueue-dev': '1', 'content-type': 'application/json' },
          body: JSON.stringify({ advanceMs: 86_400_000 }),
        }),
      ),
    };
  }, c.origin);
  assert.deepEqual(refused, {
    read: 'refused: TypeError',
    events: 'refused: TypeError',
    steer: 'refused: TypeError',
  });
  const clock = await raw(c.origin, 'GET', '/_azqueue/clock', {});
  assert.equal(JSON.parse(clock.body).offsetMs, 0, "C's clock did not move");

  // What the browser saw, asked directly: the preflight is refused and grants nothing, and a
  // read answers without a grant the page could read it by.
  const preflight = await preflightFrom(c.origin, pageOrigin);
  assert.equal(preflight.status, 403);
  assert.equal(preflight.headers['access-control-allow-origin'], undefined);
  assert.equal(preflight.headers['access-control-allow-methods'], undefined);
  const read = await raw(c.origin, 'GET', '/_azqueue/inspect/devstoreaccount1', {
    origin: pageOrigin,
  });
  assert.equal(read.headers['access-control-allow-origin'], undefined);
  // B, opted in to A's page, grants that origin and no other.
  const granted = await preflightFrom(b.origin, pageOrigin);
  assert.equal(granted.status, 204);
  assert.equal(granted.headers['access-control-allow-origin'], pageOrigin);
  const other = await preflightFrom(b.origin, 'http://attacker.example', 'x-azqueue-dev');
  assert.equal(other.status, 403);
  assert.equal(other.headers['access-control-allow-origin'], undefined);

  // The inspector pointed at C says what is wrong.
  await page.goto(`${a.webUrl}?view=inspect&server=${encodeURIComponent(c.origin)}`);
  await page
    .locator('[data-testid=status]', { hasText: `--devOrigin ${pageOrigin}` })
    .waitFor({ timeout: 5000 });
  // So does its fault panel, and it offers no form.
  await page
    .locator('[data-testid=faults-unavailable]', {
      hasText: `Fault rules are unavailable: ${c.origin} could not be read from this page`,
    })
    .waitFor({ timeout: 5000 });
  assert.equal(await page.locator('[data-testid=fault-form]').isVisible(), false);
});
