// Details of the page that used to mislead (issue 14, "Fix what misleads"), each checked in the
// DOM on the virtual clock: a wrong DequeueCount on a departing card, a stale receipt described as
// a lease that merely ran out, narration that blamed slowness for a crash, moments ticked by the
// wrong actor, a chart counting workers that had not started, a lease worker rewriting orders,
// limits never stated, refused sends without a reason, narration lost on reload, and a lane that
// claimed "oldest first".

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  cards,
  chooseScenario,
  screenshot,
  setStep,
  stepTo,
  stepUntil,
  pageSuite,
  textOf,
} from './harness.mjs';

/** @typedef {import('playwright-core').Page} Page */

const suite = pageSuite();
/** @param {Parameters<typeof suite.open>[0]} [options] */
const open = (options) => suite.open(options);

/** @param {Page} page */
const narration = (page) =>
  page.$$eval('[data-testid=narration] li', (rows) => rows.map((r) => r.textContent ?? ''));
/**
 * @param {Page} page
 * @param {string} on
 */
const momentDone = (page, on) =>
  page.getAttribute(`[data-testid=moment][data-on="${on}"]`, 'data-done');
/**
 * Scenario 1 with a hand-added consumer, Dee, who crashes at 1 s holding a message; returns that card.
 * @param {Page} page
 */
async function deeCrashesHoldingAnOrder(page) {
  await chooseScenario(page, 'slow-consumer');
  await page.click('[data-testid=add-consumer]');
  await page.waitForSelector('[data-testid=consumer][data-name=Dee]');
  await setStep(page, 1);
  await stepTo(page, 1);
  const held = (await cards(page)).find((c) => c.holder === 'Dee');
  assert.ok(held, 'Dee holds an order');
  await page.click('[data-testid=consumer][data-name=Dee] button.danger');
  return held;
}
/**
 * @param {Page} page
 * @param {string} name
 * @param {string} part
 */
const consumerText = (page, name, part) =>
  textOf(page, `[data-testid=consumer][data-name="${name}"] ${part}`);

describe('nothing on the page misleads', () => {
  test("scenario 4: the departing card and its poison copy both say DequeueCount 4; 'empty' is not drawn over it", async () => {
    const page = await open();
    await chooseScenario(page, 'poison');
    await setStep(page, 1);
    await stepUntil(
      page,
      () => document.querySelectorAll('[data-testid=poison-lane] [data-testid=message]').length > 0,
      { maxSeconds: 120 },
    );
    const leaving = await page.$(
      '[data-testid=queue-lane] [data-testid=message][data-state="gone-poisoned"]',
    );
    assert.ok(leaving, 'the moved card is still drawn, leaving');
    assert.equal(await leaving.getAttribute('data-dequeue-count'), '4');
    assert.equal(await leaving.$eval('.dqn', (e) => e.textContent), '4');
    const copy = await page.$('[data-testid=poison-lane] [data-testid=message]');
    assert.ok(copy, 'the poison copy is drawn');
    assert.equal(
      await copy.$eval('.dq', (/** @type {HTMLElement} */ e) => e.innerText),
      'DequeueCount 4 in orders',
    );
    assert.equal(await copy.getAttribute('data-origin-dequeue-count'), '4');
    assert.equal(
      await page.isVisible('#lane-empty'),
      false,
      "no 'The queue is empty.' over the departing card",
    );
    await screenshot(page, 'misleads-poison-departing-1280');
    // Its exit runs on the virtual clock (1.6 s): paused, it stays; two seconds on, it has gone.
    await page.waitForTimeout(500);
    assert.ok(
      await page.$('[data-testid=queue-lane] [data-state="gone-poisoned"]'),
      'paused: held',
    );
    await stepTo(
      page,
      (await page.evaluate(() =>
        Number(
          /** @type {HTMLElement} */ (document.querySelector('[data-testid=clock]')).dataset
            .elapsedMs,
        ),
      )) /
        1000 +
        2,
    );
    await page.waitForFunction(
      () => !document.querySelector('[data-testid=queue-lane] [data-state="gone-poisoned"]'),
    );
    if ((await cards(page)).length === 0)
      assert.equal(await page.isVisible('#lane-empty'), true, "'empty' once the card has gone");
  });

  test("scenario 1 at 38 s: Bob's card says his receipt is stale, not that the lease merely ran out", async () => {
    const page = await open();
    await chooseScenario(page, 'slow-consumer');
    await setStep(page, 1);
    await stepTo(page, 33);
    assert.match(
      await consumerText(page, 'Bob', '.bar.lease'),
      /lease ran out: #2 is visible to others \(r1 works until one receives it\)/,
    );
    await stepTo(page, 38);
    const lease = await consumerText(page, 'Bob', '.bar.lease');
    assert.match(lease, /receipt r1 is stale: Ann now holds r2/);
    assert.doesNotMatch(lease, /visible to others/);
    assert.equal(
      await page.getAttribute('[data-testid=consumer][data-name=Bob] .bar.lease', 'data-stale'),
      'true',
    );
  });

  test('a crash and a deliberate failure are narrated as what they were, not as slowness', async () => {
    const page = await open();
    const held = await deeCrashesHoldingAnOrder(page);
    await stepTo(page, 31);
    const lines = await narration(page);
    const back = lines.find((l) => l.includes(`${held.label} “${held.text}” is visible again`));
    assert.ok(back, lines.join('\n'));
    assert.match(back, /Dee crashed while holding it/);
    assert.doesNotMatch(back, /did not delete it in time/);

    await chooseScenario(page, 'poison');
    await setStep(page, 5);
    await stepTo(page, 15);
    const failed = (await narration(page)).find((l) => /#3 .* is visible again/.test(l));
    assert.ok(failed, 'the failed order is narrated');
    assert.match(failed, /failed on it and left it undeleted/);
    assert.doesNotMatch(failed, /in time/);
  });

  test("moments tick only for their own actor: a hand-added consumer's crash is not Bob's order coming back", async () => {
    const page = await open();
    await deeCrashesHoldingAnOrder(page);
    await stepTo(page, 31);
    assert.ok(
      (await narration(page)).some((l) => /visible again: Dee crashed/.test(l)),
      "Dee's message came back",
    );
    assert.equal(
      await momentDone(page, 'reappeared'),
      'false',
      '…but that is not the moment to watch for',
    );
    await stepTo(page, 33);
    assert.equal(await momentDone(page, 'reappeared'), 'true', "Bob's order coming back is");
  });

  test("the chart's workers line counts only workers that have started", async () => {
    const page = await open();
    await chooseScenario(page, 'lease');
    await setStep(page, 1);
    await stepTo(page, 2);
    assert.equal(
      await page.getAttribute('[data-testid=queue-length-chart]', 'data-workers-now'),
      '1',
      'Encoder A (B starts at 56 s)',
    );
    await setStep(page, 5);
    await stepTo(page, 52);
    assert.equal(
      await page.getAttribute('[data-testid=queue-length-chart]', 'data-workers-now'),
      '0',
      'A crashed, B not started yet',
    );
    await stepTo(page, 57);
    assert.equal(
      await page.getAttribute('[data-testid=queue-length-chart]', 'data-workers-now'),
      '1',
    );
  });

  test("'+ Lease worker' leaves ordinary orders alone: no rewrite, no receive", async () => {
    const page = await open();
    await chooseScenario(page, 'slow-consumer');
    await page.click('[data-testid=add-lease-worker]');
    await page.waitForSelector('[data-testid=lease-worker][data-name=Dee]');
    await setStep(page, 5);
    await stepTo(page, 30);
    for (const c of await cards(page)) assert.match(c.text, /^order \d$/, 'texts untouched');
    const dee = await page.$$eval('[data-testid=http-log] li[data-actor="Dee"]', (rows) =>
      rows.map((r) => r.dataset.op),
    );
    assert.ok(
      dee.length > 0 && dee.every((op) => op === 'Peek Messages'),
      `Dee only peeks: ${dee}`,
    );
    assert.match(
      await textOf(page, '[data-testid=lease-worker][data-name=Dee] .status'),
      /not a video job: left alone|waiting for a job/,
    );
  });

  test('the defaults and limits are stated, and a refused send says why', async () => {
    const page = await open();
    await chooseScenario(page, 'slow-consumer');
    const note = await textOf(page, '.send-note');
    assert.match(note, /30 s/);
    assert.match(note, /7 days/);
    assert.equal(await page.getAttribute('#send-delay', 'max'), '604800');
    assert.equal(
      await page.getAttribute(
        '[data-testid=consumer][data-name=Ann] .num:nth-child(2) input',
        'max',
      ),
      '604800',
    );
    await page.fill('#send-delay', '100');
    await page.fill('#send-ttl', '50');
    await page.click('[data-testid=send]');
    await page.waitForSelector('[data-testid=send-status][data-code]');
    const status = await textOf(page, '[data-testid=send-status]');
    assert.match(status, /^Refused: 400 \S+ — .+/, status);
    // The narration is drawn with the next frame, which may come after the status line.
    await page.waitForFunction(() =>
      [...document.querySelectorAll('[data-testid=narration] li')].some((r) =>
        r.textContent?.includes('Your Put Message was refused: 400'),
      ),
    );
  });

  test('the narration survives a reload', async () => {
    const page = await open();
    await chooseScenario(page, 'slow-consumer');
    await setStep(page, 1);
    await stepTo(page, 43);
    const before = await narration(page);
    assert.ok(before.length >= 3);
    await page.reload();
    await page.waitForSelector("[data-testid=store][data-restored='true']");
    assert.deepEqual(await narration(page), before);
  });

  test("the lane says how delivery is ordered, not 'oldest first'", async () => {
    const page = await open();
    await chooseScenario(page, 'slow-consumer');
    const hint = await textOf(page, '[data-testid=lane-order]');
    assert.doesNotMatch(hint, /oldest first/);
    assert.match(hint, /in the order they became visible/);
  });
});
