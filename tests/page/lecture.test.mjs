// The page in a lecture hall (issue 22), one test per defect a lecturer met: rewind and links
// that hold; presenter keys wherever the focus is; words made from the live state; counters and
// cards that agree; animations on the virtual clock; a projector layout with WCAG AA contrast and
// nothing overflowing its card. Plus the introduction each scenario opens on, and screenshots of
// every scenario's moments at 1280×800, at 150 % zoom (853×533 CSS px) and at 390 px, written to
// test-artifacts/.

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
  next,
  setActor,
  attributeOf,
  textOf,
  DESK,
  PROJECTOR,
  PHONE,
} from './harness.mjs';
import { contrastFailures } from './contrast.mjs';

/** @typedef {import('playwright-core').Page} Page */

const suite = pageSuite();
/** @param {Parameters<typeof suite.open>[0]} [options] */
const open = (options = {}) => suite.open({ viewport: DESK, ...options });
/**
 * @param {string} query
 * @param {{ width: number, height: number }} [viewport]
 */
const openAt = (query, viewport = DESK) => suite.open({ query, viewport });

/** @param {Page} page */
const guideOn = (page) => page.getAttribute('[data-testid=guide]', 'data-on');
/** @param {Page} page */
const guideText = (page) => textOf(page, '[data-testid=guide-text]');
/** @param {Page} page */
const reachedMs = (page) =>
  page.getAttribute('[data-testid=scrub]', 'data-reached-ms').then(Number);
/** @param {Page} page */
const narration = (page) =>
  page.$$eval('[data-testid=narration] li', (rows) => rows.map((r) => r.textContent ?? ''));
/**
 * @param {Page} page
 * @param {string} name
 */
const counter = (page, name) => page.textContent(`[data-testid=counter-${name}] .n`).then(Number);
/**
 * The card labelled `label` that has not left, which must be drawn.
 * @param {Page} page
 * @param {string} label
 * @param {string} [lane]
 */
const byLabel = async (page, label, lane) => {
  const card = (await cards(page, lane)).find(
    (c) => c.label === label && !c.state.startsWith('gone'),
  );
  assert.ok(card, `no card ${label}`);
  return card;
};

/**
 * Drags the rewind slider to `seconds` and waits for the replay to land there.
 * @param {Page} page
 * @param {number} seconds
 */
async function scrubTo(page, seconds) {
  const seeks = await page.evaluate(() => Number(document.body.dataset.seeks ?? 0));
  await page.$eval(
    '[data-testid=scrub]',
    (el, v) => {
      const input = /** @type {HTMLInputElement} */ (el);
      input.value = String(v);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    },
    seconds,
  );
  await page.waitForFunction((n) => Number(document.body.dataset.seeks ?? 0) > n, seeks);
}

/**
 * The clock's reading once it shows `ms`: a stop's banner can be drawn a frame before the clock
 * beside it, so wait (up to 5 s) for the reading, then compare what it shows.
 * @param {Page} page
 * @param {number} ms
 * @param {string} [message]
 */
async function elapsedAt(page, ms, message) {
  await page
    .waitForSelector(`[data-testid=clock][data-elapsed-ms="${ms}"]`, { timeout: 5_000 })
    .catch(() => {});
  assert.equal(await elapsed(page), ms, message);
}

describe('1 · rewind and links that hold', () => {
  test('after a link, dragging back keeps the future; the far right returns to it; a reload keeps both', async () => {
    const page = await openAt('scenario=slow-consumer&t=43');
    assert.equal(await elapsed(page), 43_000);
    assert.equal(await reachedMs(page), 43_000);
    await scrubTo(page, 28);
    assert.equal(await elapsed(page), 28_000);
    assert.equal(await reachedMs(page), 43_000, 'the slider still reaches 43 s after rewinding');
    await scrubTo(page, 43);
    assert.equal(await elapsed(page), 43_000, 'the far right is where the link was');
    await scrubTo(page, 28);
    // The address bar says the moment on screen and how far the timeline runs.
    await page.waitForFunction(() => /[?&]t=28(&|$)/.test(location.search));
    assert.match(page.url(), /scenario=slow-consumer/);
    assert.match(page.url(), /[?&]to=43(&|$)/);
    await page.reload();
    await page.waitForSelector("body[data-ready='true']");
    assert.equal(await elapsed(page), 28_000, 'a reload opens the same moment');
    assert.equal(await reachedMs(page), 43_000, '…and the slider still reaches 43 s');
  });

  test('a link carries your own actions: a forked moment opens as forked', async () => {
    const page = await openAt('scenario=slow-consumer&t=20');
    await page.click('[data-testid=add-consumer]');
    await page.waitForSelector('[data-testid=consumer][data-name=Dee]');
    await setStep(page, 5);
    await stepTo(page, 30);
    await page.click('[data-testid=copy-link]');
    await page.waitForSelector('[data-testid=link-status][data-link]');
    const link = await attributeOf(page, '[data-testid=link-status]', 'data-link');
    assert.match(link, /[?&]a=/, 'the link carries the actions');
    assert.match(await textOf(page, '[data-testid=link-status]'), /with your 1 action/);
    const picture = async (/** @type {Page} */ p) =>
      (await cards(p))
        .filter((c) => !c.state.startsWith('gone'))
        .map(({ label, state, holder, dequeueCount, receipt }) => ({
          label,
          state,
          holder,
          dequeueCount,
          receipt,
        }));
    const there = await openAt(new URL(link).search.slice(1));
    assert.equal(await elapsed(there), 30_000);
    assert.ok(await there.$('[data-testid=consumer][data-name=Dee]'), 'Dee is there too');
    assert.deepEqual(await picture(there), await picture(page));
  });
});

describe('2 · presenter keys wherever the focus is', () => {
  test('→ next moment, ← previous, Space plays and clears a passed banner, ? lists the keys; a button or checkbox never swallows them', async () => {
    const page = await open();
    await chooseScenario(page, 'slow-consumer');
    await setStep(page, 1);
    await page.click('[data-testid=step]'); // focus on a button…
    await page.waitForFunction(() => !document.body.dataset.stepping);
    await page.keyboard.press('.');
    await page.waitForFunction(() => !document.body.dataset.stepping);
    assert.equal(await elapsed(page), 2000, "'.' steps with the Step button focused");
    await page.check('[data-testid=guided]'); // …and on a checkbox
    try {
      await page.keyboard.press('ArrowRight');
      await stopAt(page, 'reappeared');
      assert.equal(await page.isChecked('[data-testid=guided]'), true);
      await elapsedAt(page, 32_000);
      await page.keyboard.press('ArrowRight');
      await stopAt(page, 'redelivered');
      await elapsedAt(page, 37_000);
      await page.keyboard.press('ArrowLeft');
      await stopAt(page, 'reappeared');
      await elapsedAt(page, 32_000, '← goes back to the moment before');
      await page.keyboard.press('ArrowLeft');
      await stopAt(page, 'intro');
      await elapsedAt(page, 0, '…and to the introduction');
      await page.keyboard.press('ArrowRight');
      await stopAt(page, 'reappeared');
      // Space with the checkbox focused: plays (guided mode stays on) and the banner goes.
      await page.focus('[data-testid=guided]');
      await page.keyboard.press(' ');
      assert.equal(await page.isChecked('[data-testid=guided]'), true, 'Space did not untick it');
      assert.equal(await page.isHidden('[data-testid=guide]'), true, 'the passed banner went');
      await stopAt(page, 'redelivered'); // guided mode stops at the next one while playing
      await page.keyboard.press('?');
      await page.waitForSelector('[data-testid=key-sheet][open]');
      const sheet = await textOf(page, '[data-testid=key-list]');
      for (const k of ['→', '←', 'Space', '?'])
        assert.ok(sheet.includes(k), `the sheet lists ${k}`);
      await page.keyboard.press('Escape');
      await page.waitForFunction(
        () =>
          !(
            /** @type {HTMLDialogElement} */ (document.querySelector('[data-testid=key-sheet]'))
              .open
          ),
      );
    } finally {
      await page.uncheck('[data-testid=guided]');
    }
  });
});

describe('3 · words from the live state', () => {
  test('threshold, timeouts and consumers changed: caption, guide, banner and copy history follow', async () => {
    const page = await open();
    await chooseScenario(page, 'poison');
    await page.fill('[data-testid=poison-threshold]', '2');
    await page.dispatchEvent('[data-testid=poison-threshold]', 'change');
    await setActor(page, 'Ann', 1, 8);
    await setActor(page, 'Bob', 1, 8);
    await page.waitForFunction(() =>
      /threshold of 2/.test(
        /** @type {Element} */ (document.querySelector('#caption')).textContent ?? '',
      ),
    );
    await page.keyboard.press('Escape'); // out of the field typed into: the keys are the page's again
    for (const on of ['failed', 'reappeared', 'poisoned']) await next(page, on);
    const words = await guideText(page);
    const left = await page.$(
      '[data-testid=queue-lane] [data-testid=message][data-state="gone-poisoned"]',
    );
    assert.ok(left, 'the poisoned card is drawn, leaving');
    const count = await left.getAttribute('data-dequeue-count');
    assert.equal(count, '3', 'past a threshold of 2, the move happens at DequeueCount 3');
    assert.match(words, new RegExp(`DequeueCount ${count}, past the threshold of 2`));
    assert.ok(
      (await narration(page)).some((l) => /more than the poison threshold \(2\)/.test(l)),
      'the narration says the same threshold',
    );
    // The copy carries its original's history: the receives that led here.
    await page.click('[data-testid=poison-lane] [data-testid=message]');
    await page.waitForSelector('[data-testid=card-history][open]');
    const received = await page.$$eval(
      '[data-testid=history-events] li[data-kind=received]',
      (rows) => rows.map((r) => r.dataset.dequeueCount),
    );
    assert.deepEqual(received, ['1', '2', '3']);
    await page.click('[data-testid=history-close]');

    await chooseScenario(page, 'slow-consumer');
    await setActor(page, 'Bob', 1, 35);
    await page.click('[data-testid=add-consumer]');
    await page.waitForFunction(() => {
      const c = /** @type {Element} */ (document.querySelector('#caption')).textContent ?? '';
      return /Bob for a 35 s visibility timeout/.test(c) && /3 consumers/.test(c);
    });
    await page.keyboard.press('Escape');
    await next(page, 'reappeared');
    assert.match(await guideText(page), /Bob's 35 s visibility timeout/);

    await chooseScenario(page, 'lease');
    assert.match(await textOf(page, '#caption'), /3 stages \(scan, encode, compress\) of 20 s/);
    await setActor(page, 'Encoder A', 0, 15);
    await page.waitForFunction(() =>
      /3 stages \(scan, encode, compress\) of 15 s/.test(
        /** @type {Element} */ (document.querySelector('#caption')).textContent ?? '',
      ),
    );

    await chooseScenario(page, 'scheduled');
    const scheduler = '[data-testid=producer][data-name=Scheduler] .outcome';
    assert.match(await textOf(page, scheduler), /visible in 45 s/);
    await setStep(page, 10);
    await stepTo(page, 10);
    assert.match(await textOf(page, scheduler), /visible in 35 s/, 'the Scheduler counts down');
    const hint = await textOf(page, '[data-testid=lane-order]');
    assert.match(hint, /this engine/);
    assert.match(hint, /promises no order/);
  });
});

describe('4 · counters and cards agree', () => {
  /** In flight equals the messages consumer cards say they hold. */
  const agree = async (/** @type {Page} */ page) => {
    const held = await page.$$eval(
      '[data-testid=consumer][data-receipt], [data-testid=lease-worker][data-receipt]',
      (els) => els.length,
    );
    assert.equal(await counter(page, 'in-flight'), held);
  };

  test('a crashed worker and a consumer that gave up hold nothing in flight; Remove while holding is narrated', async () => {
    let page = await openAt('scenario=lease&t=51');
    assert.equal(await counter(page, 'in-flight'), 0, 'Encoder A crashed at 50 s: not in flight');
    assert.equal(await counter(page, 'invisible'), 1);
    await agree(page);
    assert.match((await byLabel(page, '#1')).state, /leased/);

    page = await openAt('scenario=poison&t=7');
    await agree(page);

    page = await openAt('scenario=slow-consumer&t=3');
    const held = (await cards(page)).find((c) => c.holder === 'Bob');
    assert.ok(held, 'Bob holds an order at 3 s');
    await page.click('[data-testid=consumer][data-name=Bob] button.quiet'); // Remove
    await page.waitForFunction(
      () => !document.querySelector('[data-testid=consumer][data-name=Bob]'),
    );
    await page.waitForFunction(
      (label) =>
        [...document.querySelectorAll('[data-testid=narration] li')].some((l) =>
          new RegExp(`Bob was removed while holding ${label}`).test(l.textContent ?? ''),
        ),
      held.label,
    );
    const card = await page.$(`[data-testid=queue-lane] [data-label="${held.label}"] .long`);
    assert.ok(card, `${held.label}'s card is drawn`);
    assert.match((await card.textContent()) ?? '', /Bob was removed holding r\d/);
    await agree(page);
  });
});

describe('5 · animations on the virtual clock', () => {
  test('paused at the flash sale expiring, its card holds still', async () => {
    const page = await open();
    await chooseScenario(page, 'scheduled');
    await page.click('[data-testid=next-moment]');
    await stopAt(page, 'expired');
    const look = () =>
      page.$eval('[data-testid=queue-lane] [data-label="#1"]', (el) => ({
        shown: getComputedStyle(el).display !== 'none',
        opacity: Number(getComputedStyle(el).opacity),
      }));
    const first = await look();
    assert.equal(first.shown, true);
    await page.waitForTimeout(2000); // longer than the dissolve
    const later = await look();
    assert.deepEqual(later, first, 'nothing moved while paused');
    assert.ok(later.opacity > 0.9, `still readable (opacity ${later.opacity})`);
  });
});

describe('6 · projector and legibility', () => {
  test('WCAG AA contrast for every text in every scenario, and the focus ring at 3:1', async () => {
    const moments = { 'slow-consumer': 38, lease: 22, scheduled: 15, poison: 41, autoscale: 45 };
    for (const [id, t] of Object.entries(moments)) {
      const page = await openAt(`scenario=${id}&t=${t}`);
      const failures = await page.evaluate(contrastFailures);
      assert.deepEqual(failures, [], `${id} at ${t} s`);
      await page.close();
    }
    const page = await open();
    await page.focus('[data-testid=step]');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab'); // focus by keyboard, so :focus-visible applies
    const ring = await page.$eval('[data-testid=step]', (el) => getComputedStyle(el).outlineColor);
    const against = await page.$eval('.controls', (el) => getComputedStyle(el).backgroundColor);
    const ratio = await page.evaluate(
      ([a, b]) => {
        const lum = (/** @type {string} */ c) =>
          /** @type {RegExpMatchArray} a computed colour: rgb(r, g, b) */ (c.match(/\d+(\.\d+)?/g))
            .slice(0, 3)
            .map(Number)
            .map((v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4))
            .reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
        const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
        return (hi + 0.05) / (lo + 0.05);
      },
      [ring, against],
    );
    assert.ok(ratio >= 3, `focus ring ${ring} on ${against}: ${ratio.toFixed(2)}:1`);
  });

  test('nothing overflows its card at 1280 and at 390 px', async () => {
    for (const viewport of [DESK, PHONE]) {
      for (const [id, t] of /** @type {[string, number][]} */ ([
        ['poison', 41],
        ['lease', 22],
        ['slow-consumer', 43],
      ])) {
        const page = await openAt(`scenario=${id}&t=${t}`, viewport);
        const over = await page.$$eval('[data-testid=message]:not(.leaving), .actor', (els) =>
          els.flatMap((card) => {
            const box = card.getBoundingClientRect();
            return [...card.querySelectorAll('*')]
              .filter((e) => {
                const r = e.getBoundingClientRect();
                return r.width > 0 && (r.right > box.right + 0.5 || r.left < box.left - 0.5);
              })
              .map((e) => `${card.dataset.label ?? card.dataset.name} .${e.className}`);
          }),
        );
        assert.deepEqual(over, [], `${id} at ${viewport.width} px`);
        await page.close();
      }
    }
  });

  test('at 150 % zoom on 1280×800 a stop shows the lane, the consumers and its HTTP call on one screen', async () => {
    const page = await open({ viewport: PROJECTOR });
    await chooseScenario(page, 'slow-consumer');
    for (const on of ['reappeared', 'redelivered', 'stale-delete']) {
      await page.click('[data-testid=next-moment]');
      await stopAt(page, on);
    }
    await page.waitForTimeout(100); // the stop scrolls the stage into view in the next frame
    const onScreen = (/** @type {string} */ selector) =>
      page.$eval(selector, (el) => {
        const r = el.getBoundingClientRect();
        return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight;
      });
    assert.ok(
      await onScreen('[data-testid=queue-lane] [data-label="#2"]'),
      'the order on the lane',
    );
    assert.ok(await onScreen('[data-testid=consumer][data-name=Ann]'), 'Ann');
    assert.ok(await onScreen('[data-testid=consumer][data-name=Bob]'), 'Bob');
    assert.ok(await onScreen('[data-testid=guide-log] li[data-status="404"]'), 'the 404');
    await screenshot(page, 'lecture-150pct-stale-delete');
  });

  test('on a phone a stop keeps the cards on screen, and controls are finger-sized', async () => {
    const page = await open({ viewport: PHONE });
    await chooseScenario(page, 'slow-consumer');
    await page.click('[data-testid=next-moment]');
    await stopAt(page, 'reappeared');
    await page.waitForTimeout(100);
    const { dock, card } = await page.evaluate(() => ({
      dock: /** @type {Element} */ (document.querySelector('.dock')).getBoundingClientRect().bottom,
      card: /** @type {Element} */ (
        document.querySelector('[data-testid=queue-lane] [data-testid=message]')
      )
        .getBoundingClientRect()
        .toJSON(),
    }));
    assert.ok(
      card.top >= dock - 1 && card.bottom <= 844,
      `card ${card.top}–${card.bottom} below the dock (${dock})`,
    );
    const small = await page.$$eval('button, select, input:not([type=checkbox])', (els) =>
      els
        .filter(
          (e) =>
            e.getBoundingClientRect().height > 0 && !e.closest('dialog:not([open]), .link-like'),
        )
        .filter((e) => e.getBoundingClientRect().height < 43.5)
        .map(
          (e) =>
            `${e.tagName} ${e.id || (e.textContent ?? '').trim().slice(0, 20)} ${e.getBoundingClientRect().height}`,
        ),
    );
    assert.deepEqual(small, []);
  });
});

describe('an introduction before the first step', () => {
  test('each scenario opens on what the lanes are and what a receipt is', async () => {
    const page = await open();
    for (const id of ['slow-consumer', 'lease', 'scheduled', 'poison', 'autoscale']) {
      await chooseScenario(page, id);
      assert.equal(await guideOn(page), 'intro', id);
      const words = await guideText(page);
      assert.match(words, /Producers/);
      assert.match(words, /pop receipt/);
    }
  });
});

describe('screenshots of every moment', () => {
  test('each scenario walked with → at 1280×800, 150 % zoom and 390 px', async () => {
    const page = await open();
    const sizes = { 1280: DESK, '150pct': PROJECTOR, 390: PHONE };
    const shoot = async (/** @type {string} */ name) => {
      for (const [size, viewport] of Object.entries(sizes)) {
        await page.setViewportSize(viewport);
        await page.waitForTimeout(50);
        await screenshot(page, `moments-${name}-${size}`);
      }
      await page.setViewportSize(DESK);
    };
    for (const id of ['slow-consumer', 'lease', 'scheduled', 'poison', 'autoscale']) {
      await chooseScenario(page, id);
      await shoot(`${id}-0-intro`);
      const all = await page.$$eval('[data-testid=moment]', (els) =>
        els.map((e) => e.dataset.on ?? ''),
      );
      for (const [i, on] of all.entries()) {
        await page.keyboard.press('ArrowRight');
        await stopAt(page, on);
        await shoot(`${id}-${i + 1}-${on}`);
      }
    }
  });
});
