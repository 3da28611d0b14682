// Moving through a scenario's time: a link (`?scenario=<id>&t=<s>`) opens a scenario paused at a
// moment, "copy link" makes one; guided mode stops at each moment with a sentence and Continue;
// "next moment" runs to the next one; the rewind slider replays the seeded engine and the recorded
// actions to an earlier time, and acting there forks the timeline. Also the card history panel
// and the consumer controls.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  cards,
  chooseScenario,
  elapsed,
  screenshot,
  setStep,
  stepTo,
  stopAt,
  pageSuite,
  attributeOf,
  textOf,
} from './harness.mjs';

/** @typedef {import('playwright-core').Page} Page */

const suite = pageSuite();
/** @param {Parameters<typeof suite.open>[0]} [options] */
const open = (options) => suite.open(options);
/**
 * Opens `index.html?<query>` (a link to a moment).
 * @param {string} query
 * @param {{ width: number, height: number }} [viewport]
 */
const openAt = (query, viewport) => suite.open({ query, viewport });

/**
 * @param {Page} page
 * @param {string} on
 */
const momentDone = (page, on) =>
  page.getAttribute(`[data-testid=moment][data-on="${on}"]`, 'data-done');
/**
 * The card labelled `label`, which must be drawn.
 * @param {Page} page
 * @param {string} label
 */
const byLabel = async (page, label) => {
  const card = (await cards(page)).find((c) => c.label === label);
  assert.ok(card, `no card ${label}`);
  return card;
};

describe('time travel', () => {
  test('?scenario=<id>&t=<seconds> opens that scenario paused at that time, for every scenario id', async () => {
    const expected = { 'slow-consumer': 38, lease: 22, scheduled: 20, poison: 41, autoscale: 45 };
    for (const [id, t] of Object.entries(expected)) {
      const page = await openAt(`scenario=${id}&t=${t}`);
      assert.equal(
        await page.$eval(
          '[data-testid=scenario-select]',
          (/** @type {HTMLSelectElement} */ s) => s.value,
        ),
        id,
      );
      assert.equal(await elapsed(page), t * 1000, id);
      assert.equal(
        await page.getAttribute('[data-testid=play-pause]', 'aria-pressed'),
        'false',
        'paused',
      );
      await page.waitForTimeout(300);
      assert.equal(await elapsed(page), t * 1000, 'still paused');
      if (id === 'slow-consumer') {
        const m2 = await byLabel(page, '#2');
        assert.equal(m2.holder, 'Ann');
        assert.equal(m2.dequeueCount, '2');
        await screenshot(page, 'link-slow-consumer-38s-1280');
      }
      if (id === 'scheduled') assert.equal((await byLabel(page, '#2')).state, 'visible');
    }
  });

  test('copy link to this moment gives a link that opens the same picture', async () => {
    const page = await open();
    await chooseScenario(page, 'poison');
    await setStep(page, 5);
    await stepTo(page, 25);
    await page.click('[data-testid=copy-link]');
    await page.waitForSelector('[data-testid=link-status][data-link]');
    const link = await attributeOf(page, '[data-testid=link-status]', 'data-link');
    assert.match(link, /\?scenario=poison&t=25$/);
    const picture = async (/** @type {Page} */ p) =>
      (await cards(p))
        .filter((c) => !c.state.startsWith('gone'))
        .map(({ id, label, state, dequeueCount, receipt }) => ({
          id,
          label,
          state,
          dequeueCount,
          receipt,
        }));
    const here = await picture(page);
    const there = await openAt(new URL(link).search.slice(1));
    assert.equal(await elapsed(there), 25_000);
    assert.deepEqual(await picture(there), here);
  });

  test('guided mode pauses at each moment with one sentence and Continue', async () => {
    const page = await open();
    await chooseScenario(page, 'slow-consumer');
    await page.check('[data-testid=guided]');
    await page.fill('[data-testid=speed]', '9'); // 100×: the stops are the guide's, not the speed's
    /** @type {[on: string, t: number, sentence: string][]} */
    const seen = [];
    await page.click('[data-testid=play-pause]');
    try {
      await visitMoments(page, seen);
    } finally {
      await page.uncheck('[data-testid=guided]'); // a setting: it would outlive this test
      await page.fill('[data-testid=speed]', '3');
    }
    assert.deepEqual(
      seen.map(([on]) => on),
      ['reappeared', 'redelivered', 'stale-delete'],
    );
    assert.deepEqual(
      seen.map(([, t]) => t),
      [32_000, 37_000, 42_000],
      'each stop is the instant it happened',
    );
  });

  /**
   * @param {Page} page
   * @param {[on: string, t: number, sentence: string][]} seen
   */
  async function visitMoments(page, seen) {
    for (const on of ['reappeared', 'redelivered', 'stale-delete']) {
      await stopAt(page, on);
      assert.equal(
        await page.getAttribute('[data-testid=play-pause]', 'aria-pressed'),
        'false',
        `paused at ${on}`,
      );
      const t = await elapsed(page);
      await page.waitForTimeout(200);
      assert.equal(await elapsed(page), t, 'time stands still at the moment');
      assert.equal(await momentDone(page, on), 'true');
      const sentence = await textOf(page, '[data-testid=guide-text]');
      assert.match(sentence, /^[^.]+[.:][^]*$/);
      seen.push([on, t, sentence]);
      if (on === 'redelivered') await screenshot(page, 'guided-redelivered-1280');
      // Continue plays on (at 100× the next stop may come before a check could see it playing).
      await page.click('[data-testid=guide-continue]');
    }
  }

  test('a link opens at its time even in guided mode (the way there is not stopped at each moment)', async () => {
    const page = await open();
    await page.check('[data-testid=guided]');
    try {
      const there = await openAt('scenario=slow-consumer&t=43');
      assert.equal(await elapsed(there), 43_000);
      assert.equal(await there.isHidden('[data-testid=guide]'), true);
    } finally {
      await page.uncheck('[data-testid=guided]');
    }
  });

  test('next moment runs to the next moment and stops there, guided or not', async () => {
    const page = await open();
    await chooseScenario(page, 'scheduled');
    await page.click('[data-testid=next-moment]');
    await stopAt(page, 'expired');
    assert.equal(await elapsed(page), 15_000);
    await page.click('[data-testid=next-moment]');
    await stopAt(page, 'scheduled-visible');
    assert.equal(await elapsed(page), 20_000);
    assert.match(await textOf(page, '[data-testid=guide-text]'), /20 s delay/);
  });

  test('rewind replays to an earlier time; playing on brings back the same future; acting there forks it', async () => {
    const page = await open();
    await chooseScenario(page, 'slow-consumer');
    await setStep(page, 1);
    await stepTo(page, 5);
    await page.click('[data-testid=add-consumer]'); // Dee, at 5 s
    await page.waitForSelector('[data-testid=consumer][data-name=Dee]');
    await setStep(page, 5);
    await stepTo(page, 45);
    const at45 = await page.$$eval('[data-testid=http-log] li', (rows) =>
      rows.map((r) => r.textContent),
    );

    const seeks = async () => Number(await page.evaluate(() => document.body.dataset.seeks ?? 0));
    const rewindTo = async (/** @type {number} */ s) => {
      const before = await seeks();
      await page.$eval(
        '[data-testid=scrub]',
        (/** @type {HTMLInputElement} */ el, v) => {
          el.value = String(v);
          el.dispatchEvent(new Event('input'));
        },
        s,
      );
      await page.waitForFunction((n) => Number(document.body.dataset.seeks ?? 0) > n, before);
    };
    await rewindTo(20);
    assert.equal(await elapsed(page), 20_000);
    assert.equal(
      await page.getAttribute('[data-testid=scrub]', 'data-reached-ms'),
      '45000',
      'the slider still reaches 45 s',
    );
    assert.ok(
      await page.$('[data-testid=consumer][data-name=Dee]'),
      'Dee, added at 5 s, is there at 20 s',
    );
    assert.equal((await byLabel(page, '#2')).holder, 'Bob');

    await rewindTo(3);
    assert.equal(
      await page.$('[data-testid=consumer][data-name=Dee]'),
      null,
      '…and not yet at 3 s',
    );
    await setStep(page, 1);
    await stepTo(page, 5);
    // Stepping on re-applies the recorded action at 5 s (drawn a frame after the clock reads 5 s).
    await page.waitForSelector('[data-testid=consumer][data-name=Dee]', { timeout: 5000 });
    await setStep(page, 5);
    await stepTo(page, 45);
    assert.deepEqual(
      await page.$$eval('[data-testid=http-log] li', (rows) => rows.map((r) => r.textContent)),
      at45,
      'the same future',
    );

    await rewindTo(20);
    await page.click('[data-testid=add-consumer]'); // a new action at 20 s: the fork
    await page.waitForSelector('[data-testid=consumer][data-name=Eve]');
    assert.equal(
      await page.getAttribute('[data-testid=scrub]', 'data-reached-ms'),
      '20000',
      'the old future is gone',
    );
    assert.ok(
      (await page.$$eval('[data-testid=narration] li', (r) => r.map((x) => x.textContent))).some(
        (l) => /timeline forks here/.test(l),
      ),
    );
    const actions = await page.evaluate(() =>
      /** @type {{ actions: { type: string, name?: string, at: number }[] }} the page's Session */ (
        JSON.parse(/** @type {string} */ (localStorage.getItem('azqueue-page-session')))
      ).actions.map((a) => [a.type, a.name, a.at]),
    );
    assert.deepEqual(
      actions.map(([type, name]) => [type, name]),
      [
        ['add-consumer', 'Dee'],
        ['add-consumer', 'Eve'],
      ],
    );
    await screenshot(page, 'rewind-forked-1280');
  });

  test('click a card for its history: each receive with time, consumer, receipt and DequeueCount, and where it went', async () => {
    const page = await open();
    await chooseScenario(page, 'slow-consumer');
    await setStep(page, 1);
    await stepTo(page, 43);
    await page.click('[data-testid=queue-lane] [data-testid=message][data-label="#2"]');
    await page.waitForSelector('[data-testid=card-history][open]');
    assert.match(await textOf(page, '#history-title'), /History of #2 “order 2”/);
    const events = await page.$$eval('[data-testid=history-events] li', (els) =>
      // www/page/history-view.js's rows: what happened (data-kind) and the sentence
      els.map((e) => ({ kind: e.dataset.kind, text: e.textContent ?? '' })),
    );
    const kinds = events.map((e) => e.kind);
    assert.deepEqual(kinds.slice(0, 5), [
      'sent',
      'received',
      'reappeared',
      'received',
      'delete-refused',
    ]);
    const [first, second] = events.filter((e) => e.kind === 'received');
    assert.match(first.text, /^00:02 received by Bob with receipt r1: DequeueCount 1$/);
    assert.match(second.text, /^00:37 received by Ann with receipt r2: DequeueCount 2$/);
    assert.match(
      events[4].text,
      /Bob's delete was refused \(MessageNotFound\): r1 is not the current receipt r2/,
    );
    await screenshot(page, 'card-history-1280');

    await stepTo(page, 50); // the panel stays open, and current, while time runs
    await page.waitForSelector('[data-testid=history-events] li[data-kind="deleted"]');
    const last = await page.$eval(
      '[data-testid=history-events] li:last-child',
      (e) => e.textContent ?? '',
    );
    assert.match(last, /^00:49 deleted by Ann with r2$/);
    await page.click('[data-testid=history-close]');
    assert.equal(await page.$('[data-testid=card-history][open]'), null);
  });

  test("click a consumer's buttons to stop, crash and restart it", async () => {
    const page = await open();
    await chooseScenario(page, 'slow-consumer');
    await setStep(page, 1);
    await stepTo(page, 3);
    const ann = '[data-testid=consumer][data-name=Ann]';
    await page.click(`${ann} button.danger`);
    await page.waitForSelector(`${ann}[data-state=crashed]`);
    assert.equal(await page.textContent(`${ann} .buttons button:first-child`), 'Restart');
    await page.click(`${ann} .buttons button:first-child`);
    await stepTo(page, 4);
    assert.notEqual(await page.getAttribute(ann, 'data-state'), 'crashed');
    await page.click(`${ann} .buttons button:first-child`); // Stop (after the current message)
    await page.waitForFunction(
      (sel) =>
        /Stopping|Restart/.test(
          /** @type {Element} */ (document.querySelector(`${sel} .buttons button`)).textContent ??
            '',
        ),
      ann,
    );
  });
});
