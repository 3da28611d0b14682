// The inspector pointed at an edge runner (`node hosts/edge/dev.mjs`, the Worker under workerd):
// it has no account listing, event stream, clock or actions, and lets no other origin read its
// queues, so the page (served by `node hosts/node/server.mjs`) recognises it from the Worker's answer
// to a path it does not serve, says why in a sentence, offers what it does serve (one queue
// read whole, by a command), and offers none of the controls that cannot work there; it does
// not advise `--devOrigin`, which dev.mjs does not take. Its fault panel says why the rules
// cannot be shown or changed there (they come from the AZQUEUE_FAULTS variable).

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchChromium } from '../../scripts/lib/chromium.mjs';
import { startServer } from '../../scripts/lib/azqueue-server.mjs';
import { startEdge } from '../../scripts/lib/edge-server.mjs';

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
/** @type {Awaited<ReturnType<typeof startEdge>>} */
let edge;
/** @type {import('playwright-core').Browser} */
let browser;

before(async () => {
  [server, edge] = await Promise.all([
    startServer({ args: ['--inMemoryPersistence'] }),
    startEdge(),
  ]);
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await edge?.stop();
});

/** The inspector served by the Node server, pointed at the edge runner; `errors` it throws. */
async function inspectEdge() {
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  /** @type {string[]} */
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${server.webUrl}?view=inspect&server=${encodeURIComponent(edge.origin)}`);
  return { page, errors };
}

test('an edge runner is recognised: a sentence why, its one read, and no controls', async () => {
  const { page, errors } = await inspectEdge();
  const note = page.locator('[data-testid=target-note]');
  await note.waitFor();
  assert.match(String(await note.textContent()), /is an edge runner \(hosts\/edge\/dev\.mjs\)/);
  assert.match(String(await note.textContent()), /no list of queues, no event stream, no clock/);
  assert.equal(
    await page.locator('[data-testid=edge-command]').textContent(),
    `curl ${edge.origin}/_azqueue/inspect/devstoreaccount1/<queue>`,
  );
  for (const control of ['clock-pause', 'advance-1h', 'clear-queue', 'last-page', 'find']) {
    assert.equal(
      await page.locator(`[data-testid=${control}]`).isVisible(),
      false,
      `${control} is not offered`,
    );
  }
  assert.doesNotMatch(
    String(await page.locator('[data-testid=status]').textContent()),
    /devOrigin/,
  );
  assert.deepEqual(errors, []);
  await page.close();
});

test('the fault panel says why an edge runner’s rules are unavailable, and offers no form', async () => {
  const { page, errors } = await inspectEdge();
  const unavailable = page.locator('[data-testid=faults-unavailable]');
  await unavailable.waitFor();
  assert.equal(
    await unavailable.textContent(),
    `Fault rules are unavailable: ${edge.origin} is an edge runner, which takes its fault ` +
      'rules from the AZQUEUE_FAULTS variable as each Durable Object opens; they cannot be ' +
      'read or changed by request (docs/faults.md, “At the edge”).',
  );
  for (const control of ['fault-form', 'fault-json', 'clear-faults', 'limits-form']) {
    assert.equal(
      await page.locator(`[data-testid=${control}]`).isVisible(),
      false,
      `${control} is not offered`,
    );
  }
  // What the sentence says of the Worker: it does not serve the rules by request.
  const res = await fetch(`${edge.origin}/_azqueue/faults`);
  assert.equal(res.status, 404);
  assert.match((await res.json()).error, /AZQUEUE_FAULTS/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the edge runner says what it serves to any origin, and nothing of its queues', async () => {
  const res = await fetch(`${edge.origin}/_azqueue/`, { headers: { origin: 'http://elsewhere' } });
  assert.equal(res.status, 404);
  assert.equal(res.headers.get('access-control-allow-origin'), '*');
  const body = await res.json();
  assert.deepEqual(body.serves, ['GET /_azqueue/inspect/<account>/<queue>']);
  const queue = await fetch(`${edge.origin}/_azqueue/inspect/devstoreaccount1/orders`, {
    headers: { origin: 'http://elsewhere' },
  });
  assert.equal(queue.headers.get('access-control-allow-origin'), null);
});
