// Predict, then see (issue 36): guided mode asks questions at its stops, built from the live
// state, and answers them with the evidence on screen. Each scenario's questions walked twice,
// answered right and answered wrong; the keyboard path through a question; the lecturer's switch;
// the results kept in the browser and the summary a student copies out.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chooseScenario, elapsed, pageSuite, stopAt, textOf } from './harness.mjs';

/** @typedef {import('playwright-core').Page} Page */

const suite = pageSuite();
const DESK = { width: 1280, height: 800 };

/**
 * Each question's right answer in the seeded run, and the evidence its feedback must name.
 * @type {Record<string, Record<string, [string, RegExp]>>}
 */
const EXPECTED = {
  'slow-consumer': {
    'comes-back': ['back', /DequeueCount 1 while Bob still held r1/],
    twice: ['#2', /Ann's Get Messages returned it again: DequeueCount 2, receipt r2/],
    'who-deletes': ['Ann', /Ann deleted #2 with r2, the receipt the latest receive issued/],
    'next-count': ['2', /Get Messages returned #2 with DequeueCount 2 and issued r2/],
    'stale-delete': ['404', /presented r1, but the current receipt was r2: 404 MessageNotFound/],
  },
  lease: {
    'which-receipt': ['new', /presented r1, issued r2/],
    'saved-stage': ['compress', /text says “compress”/],
    'resume-count': ['2', /Get Messages returned #1 with DequeueCount 2/],
  },
  scheduled: {
    'short-ttl': ['expires', /reached its 15 s time-to-live/],
    'when-due': ['00:20', /came due at 00:20/],
    'delete-receipt': ['r1', /Delete Message presented r1/],
  },
  poison: {
    'after-fail': ['back', /visible again with DequeueCount 1/],
    'poison-count': ['4', /DequeueCount 4 and r4.*Delete Message with r4/],
    'copy-count': ['0', /^Right: 0\.|the answer is 0/],
  },
  autoscale: {
    'reads-length': ['Get Queue Metadata', /x-ms-approximate-messages-count: \d+/],
    'how-many': ['2', /Get Queue Metadata row says \d+/],
    'which-stop': ['idle', /stopped \d+ idle worker/],
  },
  busy: {
    'busy-stored': ['no', /held no message with “order 1 · charge €40” when the 503 ServerBusy/],
    'busy-copies': [
      '2',
      /held 2 copies of “order 2 · charge €25”, #2 and #3: the Put that timed out/,
    ],
    'busy-idempotent': [
      'skipped',
      /Ida found “order 3 · charge €60” charged by Ida from #4 and deleted #5 with r1/,
    ],
  },
};

/** @param {Page} page */
const banner = (page) =>
  page.evaluate(() => {
    const box = /** @type {HTMLElement} */ (document.querySelector('[data-testid=guide]'));
    return `${box.hidden} ${box.dataset.on} ${
      /** @type {HTMLElement} */ (document.querySelector('[data-testid=clock]')).dataset.elapsedMs
    }`;
  });

/**
 * Walks `id` with guided mode and questions on: answers each question as it is asked (right or
 * wrong), plays on with →, and collects the feedback each gets. Returns question id → feedback.
 * @param {Page} page
 * @param {string} id
 * @param {boolean} right
 */
async function walk(page, id, right) {
  await chooseScenario(page, id);
  /** @type {Record<string, { verdict: string, text: string }>} */
  const feedback = {};
  const expected = EXPECTED[id];
  const count = Object.keys(expected).length;
  for (let stop = 0; stop < 20 && Object.keys(feedback).length < count; stop++) {
    for (const question of await page.$$('[data-testid=question]')) {
      const qid = /** @type {string} */ (await question.getAttribute('data-question'));
      const choices = await question.$$eval('button:not(:disabled)', (bs) =>
        bs.map((b) => /** @type {HTMLElement} */ (b).dataset.choice ?? ''),
      );
      if (!choices.length) continue;
      const want = right ? expected[qid][0] : choices.find((c) => c !== expected[qid][0]);
      assert.ok(choices.includes(/** @type {string} */ (want)), `${qid} offers ${want}`);
      await question.$eval(`button[data-choice="${want}"]`, (b) =>
        /** @type {HTMLElement} */ (b).click(),
      );
    }
    for (const f of await page.$$eval('[data-testid=feedback]', (els) =>
      els.map((e) => ({
        q: /** @type {HTMLElement} */ (e).dataset.question ?? '',
        verdict: /** @type {HTMLElement} */ (e).dataset.verdict ?? '',
        text: e.textContent ?? '',
      })),
    ))
      feedback[f.q] = { verdict: f.verdict, text: f.text };
    if (Object.keys(feedback).length >= count) break;
    const before = await banner(page);
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(
      (was) => {
        const box = /** @type {HTMLElement} */ (document.querySelector('[data-testid=guide]'));
        const now = `${box.hidden} ${box.dataset.on} ${
          /** @type {HTMLElement} */ (document.querySelector('[data-testid=clock]')).dataset
            .elapsedMs
        }`;
        return !box.hidden && now !== was;
      },
      before,
      { timeout: 30_000 },
    );
    await page.waitForTimeout(50);
  }
  return feedback;
}

describe('each scenario asks at least three questions and answers them with the evidence', () => {
  for (const id of Object.keys(EXPECTED)) {
    test(`${id}: answered right, then answered wrong`, async () => {
      const page = await suite.open({ viewport: DESK, firstVisit: true });
      for (const right of [true, false]) {
        const feedback = await walk(page, id, right);
        assert.deepEqual(Object.keys(feedback).sort(), Object.keys(EXPECTED[id]).sort());
        for (const [qid, { verdict, text }] of Object.entries(feedback)) {
          assert.equal(verdict, right ? 'right' : 'wrong', `${id} ${qid}: ${text}`);
          assert.match(text, EXPECTED[id][qid][1], `${id} ${qid} names its evidence`);
        }
      }
    });
  }
});

describe('the keyboard path through a question', () => {
  test('the first choice has the focus at the stop; Tab and Enter answer; → plays on to the answer', async () => {
    const page = await suite.open({ viewport: DESK, firstVisit: true });
    await chooseScenario(page, 'slow-consumer');
    await page.keyboard.press('ArrowRight'); // past the introduction's question, unanswered
    await stopAt(page, 'reappeared');
    await page.waitForSelector('[data-question=comes-back][data-testid=feedback]');
    const focused = await page.evaluate(
      () => document.activeElement?.closest('fieldset')?.dataset.question,
    );
    assert.equal(focused, 'next-count', 'the question has the focus');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter'); // the second choice: DequeueCount 2
    assert.equal(
      await page.getAttribute('[data-question=next-count] button[data-choice="2"]', 'aria-pressed'),
      'true',
    );
    await page.keyboard.press('ArrowRight');
    await stopAt(page, 'redelivered');
    const verdict = await page.getAttribute(
      '[data-testid=feedback][data-question=next-count]',
      'data-verdict',
    );
    assert.equal(verdict, 'right');
    // The digits answer too while a question is open (and do not switch the scenario).
    await page.keyboard.press('1');
    assert.equal(
      await page.getAttribute(
        '[data-question=stale-delete] button[data-choice="404"]',
        'aria-pressed',
      ),
      'true',
    );
    assert.equal(await page.evaluate(() => document.body.dataset.scenario), 'slow-consumer');
  });
});

describe('answered on screen: the card or the consumer', () => {
  test('a click on a card answers "which card", a key on a consumer answers "which consumer"', async () => {
    const page = await suite.open({ viewport: DESK, firstVisit: true });
    await chooseScenario(page, 'slow-consumer');
    await page.waitForSelector('[data-question=twice][data-pick=card]');
    assert.equal(await page.evaluate(() => document.body.dataset.picking), 'card');
    const card = '[data-testid=queue-lane] [data-testid=message][data-label="#2"]';
    assert.equal(await page.getAttribute(card, 'data-pickable'), 'true', 'marked as a choice');
    await page.click(card);
    assert.equal(
      await page.getAttribute('[data-question=twice] button[data-choice="#2"]', 'aria-pressed'),
      'true',
      'the card clicked is the answer',
    );
    assert.equal(await page.isVisible('[data-testid=card-history]'), false, 'not its history');
    assert.equal(await page.evaluate(() => document.body.dataset.picking), undefined);
    await page.keyboard.press('ArrowRight');
    await stopAt(page, 'reappeared');
    await page.keyboard.press('ArrowRight');
    await stopAt(page, 'redelivered');
    assert.match(
      await textOf(page, '[data-testid=feedback][data-question=twice]'),
      /^Right: #2 “order 2”\. #2 came back .*Ann's Get Messages returned it again: DequeueCount 2, receipt r2/,
    );

    assert.equal(await page.evaluate(() => document.body.dataset.picking), 'consumer');
    const ann = '[data-testid=consumer][data-name=Ann]';
    await page.focus(ann);
    assert.equal(
      await page.evaluate(() => /** @type {HTMLElement} */ (document.activeElement).dataset.name),
      'Ann',
      'Tab reaches the consumer',
    );
    await page.keyboard.press('Enter');
    assert.equal(
      await page.getAttribute(
        '[data-question=who-deletes] button[data-choice=Ann]',
        'aria-pressed',
      ),
      'true',
    );
    assert.equal(await page.getAttribute(ann, 'tabindex'), null, 'no longer a stop for Tab');
    // The other question at this stop still takes its digit.
    await page.keyboard.press('1');
    await page.keyboard.press('ArrowRight');
    await stopAt(page, 'stale-delete'); // Bob's delete, refused
    await page.keyboard.press('ArrowRight');
    await stopAt(page, 'answer'); // Ann's, which settles the question
    await page.waitForSelector('[data-testid=feedback][data-question=who-deletes]');
    assert.equal(
      await page.getAttribute('[data-testid=feedback][data-question=who-deletes]', 'data-verdict'),
      'right',
    );
    assert.match(
      await textOf(page, '[data-testid=feedback][data-question=who-deletes]'),
      /Ann deleted #2 with r2/,
    );
  });
});

describe('a lecturer and a class', () => {
  test('questions off: the stops ask nothing; Q turns them back on', async () => {
    const page = await suite.open({ viewport: DESK, firstVisit: true });
    await chooseScenario(page, 'poison');
    await page.keyboard.press('q');
    assert.equal(await page.isChecked('[data-testid=questions]'), false);
    await page.keyboard.press('ArrowRight');
    await stopAt(page, 'failed');
    assert.equal(await page.$$eval('[data-testid=question]', (q) => q.length), 0);
    await page.keyboard.press('q');
    assert.equal(await page.isChecked('[data-testid=questions]'), true);
  });

  test('the results stay in the browser, with a summary per scenario to copy out', async () => {
    const page = await suite.open({ viewport: DESK, firstVisit: true });
    await walk(page, 'poison', true);
    const summary = await textOf(page, '[data-testid=results-summary]');
    assert.match(summary, /4 · Poison messages: 3 of 3 right/);
    assert.match(summary, /\[right\] .*At which DequeueCount will it be moved/);
    await page.reload();
    await page.waitForSelector("body[data-ready='true']");
    assert.match(
      await textOf(page, '[data-testid=results-summary]'),
      /4 · Poison messages: 3 of 3 right/,
      'kept after a reload',
    );
    assert.ok((await elapsed(page)) >= 0);
  });
});
