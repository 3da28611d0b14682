// What a lecturer met on the page (issue 36), one test per defect: the "comes back" stop drawn on
// the first frame of its animation, a poisoned card whose receipt disagreed with the HTTP log, a
// banner showing a call that did not cause its moment, moments tied to actor names and settings
// rather than to events, no tour for a first visit, a dock over the travel row, a field clipped at
// 150 %, a chart off-screen, a clicker's PageDown, keys for restart, guided mode, the scenario and
// presentation mode, and the smaller things (lowercase names, named number fields, → behind a
// dialog, how Functions' maxDequeueCount counts).

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  cards,
  chooseScenario,
  elapsed,
  next,
  pageSuite,
  setActor as setField,
  stopAt,
  textOf,
  DESK,
  PROJECTOR,
  PHONE,
} from './harness.mjs';

/** @typedef {import('playwright-core').Page} Page */

const suite = pageSuite();
/** @param {Parameters<typeof suite.open>[0]} [options] */
const open = (options = {}) => suite.open({ viewport: DESK, ...options });

/**
 * Presses → and waits for the stop at `on`, and for the stop's picture to be placed (scrolled
 * into view, two frames on).
 * @param {Page} page
 * @param {string} on
 */
async function nextPlaced(page, on) {
  const kept = await page.evaluate(() => Number(document.body.dataset.kept ?? 0));
  await next(page, on);
  await page.waitForFunction((n) => Number(document.body.dataset.kept ?? 0) > n, kept);
}

/**
 * Sets a numeric setting on an actor's card, then leaves the field (so the keys are the page's).
 * @param {Page} page
 * @param {string} name
 * @param {number} index
 * @param {number} value
 */
async function setActor(page, name, index, value) {
  await setField(page, name, index, value);
  await page.keyboard.press('Escape');
}

/**
 * The card's look at a stop: its opacity, its transform, and how far it sits from where the
 * layout puts it (its box against its box with no animation).
 * @param {Page} page
 * @param {string} label
 */
function look(page, label) {
  return page.$eval(`[data-testid=queue-lane] [data-label="${label}"]`, (el) => {
    const s = getComputedStyle(el);
    const drawn = el.getBoundingClientRect();
    const anims = el.getAnimations();
    const times = anims.map((a) => a.currentTime);
    for (const a of anims) a.cancel(); // where the layout puts it, with no animation
    const laid = el.getBoundingClientRect();
    // Put the animations back where they were, so the page is as it was.
    for (const [i, a] of anims.entries()) {
      a.play();
      a.pause();
      a.currentTime = times[i];
    }
    return {
      opacity: Number(s.opacity),
      transform: s.transform,
      dx: Math.round(drawn.left - laid.left),
      dy: Math.round(drawn.top - laid.top),
    };
  });
}

describe('the key moment drawn right', () => {
  for (const [id, stops, label] of /** @type {[string, string[], string][]} */ ([
    ['slow-consumer', ['reappeared'], '#2'],
    ['poison', ['failed', 'reappeared'], '#3'],
    ['lease', ['lease-renewed', 'crashed', 'reappeared'], '#1'],
  ])) {
    test(`${id}: at the "comes back" stop the card is drawn arrived (opaque, in place)`, async () => {
      const page = await open({ reducedMotion: 'no-preference' });
      await chooseScenario(page, id);
      for (const on of stops) await next(page, on);
      await page.waitForTimeout(300); // frames drawn at the stop
      const card = await look(page, label);
      assert.ok(card.opacity > 0.99, `opacity ${card.opacity} at the stop`);
      assert.equal(card.dx, 0, 'not shifted sideways');
      assert.equal(card.dy, 0, 'not shifted down');
      assert.ok(
        card.transform === 'none' || card.transform === 'matrix(1, 0, 0, 1, 0, 0)',
        `transform ${card.transform}`,
      );
    });
  }
});

describe('one receipt for one story', () => {
  test("the poisoned card's receipt is the one the HTTP log says its delete presented", async () => {
    const page = await open();
    await chooseScenario(page, 'poison');
    for (const on of ['failed', 'reappeared', 'poisoned']) await next(page, on);
    const left = await page.$(
      '[data-testid=queue-lane] [data-testid=message][data-state="gone-poisoned"]',
    );
    assert.ok(left, 'the poisoned card is drawn, leaving');
    const receipt = await left.getAttribute('data-receipt');
    const shown = await left.$eval('.rcpt', (e) => e.textContent);
    const deleted = await page.$eval(
      '[data-testid=http-log] li[data-op="Delete Message"][data-actor]',
      (row) => row.dataset.receiptPresented,
    );
    assert.equal(receipt, deleted, 'the card names the receipt the delete presented');
    assert.equal(shown, deleted, '…and shows it');
    assert.match(await textOf(page, '[data-testid=guide-text]'), new RegExp(`${deleted}`));
  });
});

describe('the banner shows the call that caused the moment, or says none did', () => {
  test('poison 00:15: a timeout ran out in the queue, so no call is shown and the banner says why', async () => {
    const page = await open();
    await chooseScenario(page, 'poison');
    await next(page, 'failed');
    await next(page, 'reappeared');
    assert.equal(await page.isHidden('[data-testid=guide-log]'), true, 'no HTTP row');
    assert.match(
      await textOf(page, '[data-testid=guide-nocall]'),
      /No HTTP call caused this: the visibility timeout ran out/,
    );
  });

  test('slow-consumer: the redelivery shows its own Get Messages, with the receipt it issued', async () => {
    const page = await open();
    await chooseScenario(page, 'slow-consumer');
    await next(page, 'reappeared');
    await next(page, 'redelivered');
    const row = await page.$eval('[data-testid=guide-log] li', (li) => ({ ...li.dataset }));
    assert.equal(row.op, 'Get Messages');
    assert.equal(row.receiptIssued, 'r2');
    assert.equal(await page.isHidden('[data-testid=guide-nocall]'), true);
  });
});

describe('moments are events, captions are what actors hold', () => {
  test('Dee added at 0: whoever takes the redelivered order, the DequeueCount-2 stop comes', async () => {
    const page = await open();
    await chooseScenario(page, 'slow-consumer');
    await page.click('[data-testid=add-consumer]');
    await page.waitForSelector('[data-testid=consumer][data-name=Dee]');
    await next(page, 'reappeared');
    await next(page, 'redelivered');
    const text = await textOf(page, '[data-testid=guide-text]');
    assert.match(text, /DequeueCount 2/);
    const who = /^(\w+) receives/.exec(text)?.[1];
    const card = (await cards(page)).find((c) => c.dequeueCount === '2');
    assert.equal(card?.holder, who, 'the banner names who holds the redelivered card');
    await next(page, 'stale-delete');
  });

  test('Bob fast at 0: → stops once nothing more can happen, and the list says so', async () => {
    const page = await open();
    await chooseScenario(page, 'slow-consumer');
    await setActor(page, 'Bob', 0, 5);
    await page.keyboard.press('ArrowRight');
    await page.waitForSelector('[data-testid=guide]:not([hidden]):not([data-on])', {
      timeout: 30_000,
    });
    assert.ok((await elapsed(page)) < 120_000, `stopped at ${(await elapsed(page)) / 1000} s`);
    assert.match(await textOf(page, '[data-testid=guide-text]'), /did not happen/);
    const missed = await page.$$eval('[data-testid=moment][data-missed=true]', (l) => l.length);
    assert.equal(missed, 3, 'the three moments are marked as not happening');
  });

  test("Bob's work set to 20 s mid-order: the caption reads what he holds, then the refusal", async () => {
    const page = await open();
    await chooseScenario(page, 'slow-consumer');
    await page.selectOption('[data-testid=step-size]', '5000');
    for (let i = 0; i < 2; i++) {
      await page.click('[data-testid=step]');
      await page.waitForFunction(() => !document.body.dataset.stepping);
    }
    await setActor(page, 'Bob', 0, 20);
    const caption = await textOf(page, '#caption');
    assert.doesNotMatch(caption, /in time/);
    assert.match(caption, /Bob holds #2 with \d+ s of work left and \d+ s left on the lease/);
    await next(page, 'reappeared');
    await next(page, 'redelivered');
    await next(page, 'stale-delete');
    assert.match(await textOf(page, '#caption'), /Bob's delete with r1 was refused \(404/);
  });
});

describe('a first visit is a tour', () => {
  test('guided is on for a first visit, and at 10× Start stops at the first moment', async () => {
    const page = await open({ firstVisit: true });
    assert.equal(await page.isChecked('[data-testid=guided]'), true);
    await page.keyboard.press(']');
    await page.keyboard.press(']');
    await page.keyboard.press(']'); // 10×
    await page.click('[data-testid=guide-continue]');
    await stopAt(page, 'reappeared');
    assert.equal(await elapsed(page), 32_000);
  });

  test('at 390 px the introduction is all on screen', async () => {
    const page = await open({ viewport: PHONE, firstVisit: true });
    const fits = await page.$eval('[data-testid=guide-text]', (el) => {
      const p = /** @type {HTMLElement} */ (el.parentElement);
      return {
        cut: p.scrollHeight - p.clientHeight,
        bottom: p.getBoundingClientRect().bottom,
      };
    });
    assert.ok(fits.cut <= 1, `cut by ${fits.cut} px`);
    assert.ok(fits.bottom <= PHONE.height, `ends at ${fits.bottom}`);
  });
});

describe('the layout at a stop', () => {
  test('at 1280×800 the dock covers neither the travel row nor the caption at a stop', async () => {
    const page = await open();
    await chooseScenario(page, 'slow-consumer');
    await nextPlaced(page, 'reappeared');
    const covered = await page.evaluate(() => {
      const dock = /** @type {Element} */ (document.querySelector('.dock')).getBoundingClientRect();
      return ['.travel', '#caption']
        .map((s) => [s, /** @type {Element} */ (document.querySelector(s)).getBoundingClientRect()])
        .filter(([, r]) => /** @type {DOMRect} */ (r).top < dock.bottom - 1)
        .map(([s]) => s);
    });
    assert.deepEqual(covered, []);
  });

  test('with a question in the banner, the dock never covers half of the travel row or the caption', async () => {
    const page = await open({ firstVisit: true });
    await chooseScenario(page, 'slow-consumer');
    await page.click('[data-question=comes-back] button[data-choice=back]');
    await nextPlaced(page, 'reappeared');
    await page.waitForSelector('[data-question=next-count]');
    const half = await page.evaluate(() => {
      const dock = /** @type {Element} */ (document.querySelector('.dock')).getBoundingClientRect();
      return ['.travel', '#caption', '#stage']
        .map((s) => [s, /** @type {Element} */ (document.querySelector(s)).getBoundingClientRect()])
        .filter(([, r]) => {
          const box = /** @type {DOMRect} */ (r);
          return box.top < dock.bottom - 1 && box.bottom > dock.bottom + 1 && box.height < 200;
        })
        .map(([s]) => s);
    });
    assert.deepEqual(half, [], 'half under the dock');
  });

  test('at 150 % the poison threshold field is whole', async () => {
    const page = await open({ viewport: PROJECTOR });
    await chooseScenario(page, 'poison');
    const { field, column } = await page.evaluate(() => ({
      field: /** @type {Element} */ (
        document.querySelector('[data-testid=poison-threshold]')
      ).getBoundingClientRect().right,
      column: /** @type {Element} */ (
        document.querySelector('.col.consumers')
      ).getBoundingClientRect().right,
    }));
    assert.ok(field <= column, `the field ends at ${field}, its column at ${column}`);
  });

  test('at 1024×768 an autoscale stop shows the chart its caption points to', async () => {
    const page = await open({ viewport: { width: 1024, height: 768 } });
    await chooseScenario(page, 'autoscale');
    await nextPlaced(page, 'scaled-up');
    const charts = await page.$$eval('svg.chart', (els) =>
      els
        .map((el) => el.getBoundingClientRect())
        .filter((r) => r.height > 0)
        .map((r) => ({ top: r.top, bottom: r.bottom })),
    );
    assert.ok(
      charts.some((c) => c.top >= 0 && c.bottom <= 768),
      `charts at ${JSON.stringify(charts)}`,
    );
  });
});

describe('keys for a presenter', () => {
  test("a clicker's PageDown runs to the next moment and PageUp back, and neither scrolls", async () => {
    const page = await open();
    await chooseScenario(page, 'slow-consumer');
    // The page's own scrolling is a key's default action: each key event is read once its
    // dispatch is over, for whether that default was prevented.
    await page.evaluate(() => {
      /** @type {any} */ (window).pageKeys = [];
      addEventListener(
        'keydown',
        (e) => {
          if (e.key.startsWith('Page'))
            setTimeout(() =>
              /** @type {any} */ (window).pageKeys.push(`${e.key} ${e.defaultPrevented}`),
            );
        },
        true,
      );
    });
    await page.keyboard.press('PageDown');
    await stopAt(page, 'reappeared');
    assert.equal(await elapsed(page), 32_000);
    await page.keyboard.press('PageUp');
    await stopAt(page, 'intro');
    // The clock is drawn by the render loop, which a loaded machine can hold back a few frames
    // after the guide's stop is shown: wait for its reading rather than sample one frame.
    await page
      .waitForSelector('[data-testid=clock][data-elapsed-ms="0"]', { timeout: 5_000 })
      .catch(() => {});
    assert.equal(await elapsed(page), 0);
    const seen = await page.evaluate(() => /** @type {any} */ (window).pageKeys);
    assert.equal(seen.length, 2, 'both keys seen');
    assert.ok(
      seen.every((/** @type {string} */ k) => k.endsWith('true')),
      `scrolling prevented: ${seen}`,
    );
  });

  test('R restarts, G toggles guided mode, 1–5 choose the scenario, P presents', async () => {
    const page = await open();
    await page.keyboard.press('4');
    await page.waitForFunction(() => document.body.dataset.scenario === 'poison');
    await page.keyboard.press('.');
    await page.waitForFunction(() => !document.body.dataset.stepping);
    assert.ok((await elapsed(page)) > 0);
    await page.keyboard.press('r');
    await page.waitForFunction(
      () =>
        /** @type {HTMLElement} */ (document.querySelector('[data-testid=clock]')).dataset
          .elapsedMs === '0',
    );
    const guided = await page.isChecked('[data-testid=guided]');
    await page.keyboard.press('g');
    assert.equal(await page.isChecked('[data-testid=guided]'), !guided);
    await page.keyboard.press('g');
    // A card can be replaced between a query and a read (the render loop redraws it), and a
    // detached element has no computed style: read the sizes in one evaluation, once they exist.
    const sizes = () =>
      page
        .waitForFunction(() => {
          const px = (/** @type {string} */ selector, /** @type {'fontSize' | 'width'} */ what) => {
            const e = document.querySelector(selector);
            return e?.isConnected ? parseFloat(getComputedStyle(e)[what]) : NaN;
          };
          const got = {
            card: px('[data-testid=message] .text', 'fontSize'),
            ring: px('[data-testid=message] .ring', 'width'),
            count: px('[data-testid=counter-visible] dd', 'fontSize'),
          };
          return Object.values(got).some(Number.isNaN) ? null : got;
        })
        .then(
          (h) =>
            /** @type {Promise<{ card: number, ring: number, count: number }>} */ (h.jsonValue()),
        );
    const normal = await sizes();
    await page.keyboard.press('p');
    assert.equal(await page.getAttribute('[data-testid=present]', 'aria-pressed'), 'true');
    for (const hidden of ['#send-form', '.legend', '#snippet-panel', '.log-panel'])
      assert.equal(await page.isHidden(hidden), true, `${hidden} hidden`);
    const big = await sizes();
    assert.ok(big.card >= 16 && big.card > normal.card, `cards enlarged (${big.card} px)`);
    assert.ok(big.ring > normal.ring, `rings enlarged (${normal.ring} → ${big.ring} px)`);
    assert.ok(big.count > normal.count, `counts enlarged (${normal.count} → ${big.count} px)`);
    await page.keyboard.press('p');
    assert.equal(await page.isHidden('.log-panel'), false);
  });
});

describe('the smaller things', () => {
  test('queue names shown as Azure spells them, in lowercase', async () => {
    const page = await open();
    const t = await page.$eval('#queue-name', (e) => getComputedStyle(e).textTransform);
    assert.equal(t, 'none');
  });

  test("a consumer's number fields are announced with its name", async () => {
    const page = await open();
    await chooseScenario(page, 'slow-consumer');
    const names = await page.$$eval('[data-testid=consumer][data-name=Bob] .settings input', (l) =>
      l.map((i) => /** @type {HTMLInputElement} */ (i).labels?.[0]?.textContent ?? ''),
    );
    const accessible = await page
      .locator('[data-testid=consumer][data-name=Bob] .settings input')
      .first()
      .getAttribute('aria-label');
    assert.match(accessible ?? names[0], /Bob/);
  });

  test("→ with a card's history open does not move time behind the dialog", async () => {
    const page = await open();
    await chooseScenario(page, 'slow-consumer');
    await page.click('[data-testid=queue-lane] [data-testid=message]');
    await page.waitForSelector('[data-testid=card-history][open]');
    await page.keyboard.press('ArrowRight');
    await page.waitForTimeout(500);
    assert.equal(await elapsed(page), 0);
  });

  test("the poison caption says how Functions' maxDequeueCount counts", async () => {
    const page = await open();
    await chooseScenario(page, 'poison');
    assert.match(await textOf(page, '#caption'), /maxDequeueCount/);
  });
});
