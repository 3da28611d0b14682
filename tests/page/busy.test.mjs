// Scenario 6, the service is busy, on the virtual clock (Step only). The faults are the engine's
// own: the page opens the build with fault rules (pkg/edge) for this scenario only, and the 503s
// and 500s in the HTTP log are what the in-browser QueueService answered by its rules.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cards, chooseScenario, onePageSuite, setStep, stepTo, textOf } from './harness.mjs';

/** @type {import('playwright-core').Page} */
let page;
onePageSuite((p) => (page = p));

const ORDER_1 = 'order 1 · charge €40';
const ORDER_2 = 'order 2 · charge €25';
const ORDER_3 = 'order 3 · charge €60';

/** @typedef {import('./harness.mjs').LogRow} LogRow */
/** @param {(row: LogRow) => boolean} [filter] */
const logRows = (filter = () => true) =>
  page
    .$$eval('[data-testid=http-log] li', (/** @type {HTMLElement[]} */ rows) =>
      rows.map((r) => /** @type {LogRow} */ ({ ...r.dataset, text: r.innerText })).reverse(),
    )
    .then((r) => r.filter(filter));
const puts = () => logRows((r) => r.actor === 'Checkout' && r.op === 'Put Message');
/** The narration's lines of one kind, oldest first. @param {string} kind */
const told = (kind) =>
  page.$$eval(`[data-testid=narration] li[data-kind="${kind}"]`, (els) =>
    els.map((e) => e.textContent ?? '').reverse(),
  );
/** The labels of the cards in the queue whose text is `text`. @param {string} text */
const copies = async (text) =>
  (await cards(page))
    .filter((c) => c.text === text && !String(c.state).startsWith('gone'))
    .map((c) => c.label);
/** Which builds of the engine the page has fetched. */
const wasmLoaded = () =>
  page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((e) => new URL(e.name).pathname)
      .filter((p) => p.endsWith('_bg.wasm')),
  );

describe('6 · the service is busy', () => {
  test('the other scenarios run on pkg/web; this one loads the build with fault rules', async () => {
    assert.deepEqual(await wasmLoaded(), ['/pkg/web/azqueue_bg.wasm']);
    await chooseScenario(page, 'busy');
    assert.deepEqual((await wasmLoaded()).sort(), [
      '/pkg/edge/azqueue_bg.wasm',
      '/pkg/web/azqueue_bg.wasm',
    ]);
    await setStep(page, 1);
  });

  test('a Put refused 503 ServerBusy stores nothing, and the retry stores it once', async () => {
    await stepTo(page, 3);
    const refused = await puts();
    assert.deepEqual(
      refused.map((r) => [r.status, r.code]),
      [
        ['503', 'ServerBusy'],
        ['503', 'ServerBusy'],
      ],
      'the engine answered the first two Puts by its rule',
    );
    assert.deepEqual(await copies(ORDER_1), [], 'nothing stored after two 503s');
    const [first, second] = await told('throttled');
    assert.match(
      first,
      /got 503 ServerBusy \(“The server is currently unable to receive requests\. Please retry your request\.”\)/,
    );
    assert.match(first, /no copy of it: nothing was stored\. Checkout waits 1 s .*retry 1 of 4/);
    assert.match(second, /waits 2 s .*retry 2 of 4/, 'the backoff doubles');

    await stepTo(page, 4);
    assert.deepEqual(
      (await puts()).map((r) => r.status),
      ['503', '503', '201'],
    );
    assert.deepEqual(await copies(ORDER_1), ['#1'], 'stored once');
    assert.match(
      (await told('retried'))[0],
      /retry 2 of “order 1 · charge €40” was stored as #1, and it is the only copy/,
    );
  });

  test('a Put that timed out after it was stored is retried into a duplicate', async () => {
    await stepTo(page, 5);
    const timedOut = (await puts())[3];
    assert.deepEqual([timedOut.status, timedOut.code], ['500', 'OperationTimedOut']);
    assert.deepEqual(await copies(ORDER_2), ['#2'], 'the timed-out Put was committed');
    assert.match(
      (await told('timed-out'))[0],
      /cannot tell from a 500 whether the message was stored\. The queue holds it all the same, as #2/,
    );

    await stepTo(page, 6);
    assert.equal((await puts())[4].status, '201', 'the retry is accepted');
    assert.deepEqual(await copies(ORDER_2), ['#2', '#3'], 'two copies of one order');
    assert.match(
      (await told('duplicated'))[0],
      /stored as #3, .*the queue now holds 2 copies, #2 and #3/,
    );
  });

  test('the naive consumer charges the duplicate twice', async () => {
    await stepTo(page, 14);
    const deletes = await logRows((r) => r.actor === 'Nat' && r.op === 'Delete Message');
    assert.equal(deletes.length, 3, 'Nat processed #1, #2 and #3');
    const [twice] = await told('processed-twice');
    assert.match(
      twice,
      /Nat charged “order 2 · charge €25” again, from #3: the ledger already had Nat's charge from #2/,
    );
    assert.match(twice, /\(2 in all\)/);
    assert.match(
      await textOf(page, '#caption'),
      /“order 2 · charge €25” charged 2 times, by Nat from #2 and Nat from #3/,
    );
  });

  test('the idempotent consumer charges the next duplicate once and deletes the copy', async () => {
    await stepTo(page, 23);
    assert.deepEqual(await copies(ORDER_3), ['#4', '#5'], 'the third order was duplicated too');
    await stepTo(page, 26);
    const [skipped] = await told('deduplicated');
    assert.match(
      skipped,
      /Ida received #5 “order 3 · charge €60” and found it in the ledger, charged by Ida from #4 .* Ida deleted #5 with r1 without charging again/,
    );
    const idaDeletes = await logRows((r) => r.actor === 'Ida' && r.op === 'Delete Message');
    assert.equal(idaDeletes.length, 2, 'both copies deleted');
    assert.equal((await told('processed-twice')).length, 1, 'no second charge by Ida');
    assert.deepEqual(await copies(ORDER_3), []);
    assert.match(
      await textOf(page, '#caption'),
      /“order 3 · charge €60” charged once, by Ida from #4/,
    );
  });

  test('the caption counts what the engine injected, as the HTTP log shows it', async () => {
    const statuses = (await puts()).map((r) => r.status);
    const busy = statuses.filter((s) => s === '503').length;
    const late = statuses.filter((s) => s === '500').length;
    assert.deepEqual([busy, late], [2, 2]);
    const caption = await textOf(page, '#caption');
    assert.match(
      caption,
      new RegExp(`stored 3 of 3 orders in ${statuses.length} Put Message calls`),
    );
    assert.match(
      caption,
      new RegExp(
        `answered ${busy} Puts 503 ServerBusy .* and ${late} Puts 500 OperationTimedOut after storing`,
      ),
    );
    assert.match(
      caption,
      /Nat \(stopped\) charges every order received; Ida first looks in the ledger/,
    );
  });
});
