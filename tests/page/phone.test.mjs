// The page on a phone (390×844): the time controls stay on screen however far you scroll, and
// "What just happened" comes right after the queue, so a refused delete and the Step button are
// on screen together. Screenshots go to test-artifacts/.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chooseScenario, screenshot, setStep, stepTo, pageSuite } from './harness.mjs';

const suite = pageSuite();
/** @param {Parameters<typeof suite.open>[0]} options */
const open = (options) => suite.open(options);

/**
 * The element's box, and whether it lies wholly inside the viewport.
 * @param {import('playwright-core').Page} page
 * @param {string} selector
 */
const box = (page, selector) =>
  page.$eval(selector, (el) => {
    const r = el.getBoundingClientRect();
    return {
      top: r.top,
      bottom: r.bottom,
      onScreen: r.top >= 0 && r.bottom <= innerHeight && r.height > 0,
    };
  });

describe('the page on a phone', () => {
  test('at 390 px the controls stay on screen and the narration follows the queue', async () => {
    const page = await open({ viewport: { width: 390, height: 844 } });
    await chooseScenario(page, 'slow-consumer');
    await setStep(page, 1);
    await stepTo(page, 43);

    const queue = await box(page, '.col.queue');
    const narration = await box(page, '.narration-panel');
    const consumers = await box(page, '.col.consumers');
    assert.ok(
      queue.bottom <= narration.top && narration.bottom <= consumers.top,
      'queue, then what just happened, then the consumers',
    );

    await page.evaluate(() =>
      /** @type {Element} */ (document.querySelector('.narration-panel')).scrollIntoView({
        block: 'center',
      }),
    );
    const refused = await box(page, '[data-testid=narration] li.k-stale-delete');
    assert.ok(refused.onScreen, 'the refused delete is on screen');
    assert.ok((await box(page, '[data-testid=step]')).onScreen, '…and so is the Step button');
    assert.ok((await box(page, '[data-testid=play-pause]')).onScreen);
    const covered = await page.evaluate(() => {
      const dock = /** @type {Element} */ (document.querySelector('.dock')).getBoundingClientRect();
      const line = /** @type {Element} */ (
        document.querySelector('[data-testid=narration] li.k-stale-delete')
      ).getBoundingClientRect();
      return line.top < dock.bottom;
    });
    assert.equal(covered, false, 'the sticky controls do not cover the line');
    await screenshot(page, 'phone-refused-delete-and-step-390');

    await page.evaluate(() =>
      /** @type {Element} */ (document.querySelector('[data-testid=http-log]')).scrollIntoView(),
    );
    assert.ok(
      (await box(page, '[data-testid=step]')).onScreen,
      'Step is still there down at the log',
    );
    const t = Number(await page.getAttribute('[data-testid=clock]', 'data-elapsed-ms'));
    await page.click('[data-testid=step]');
    await page.waitForFunction(
      (want) =>
        Number(
          /** @type {HTMLElement} */ (document.querySelector('[data-testid=clock]')).dataset
            .elapsedMs,
        ) >= want,
      t + 1000,
    );
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    assert.ok(overflow <= 0, `no horizontal scrolling (${overflow}px)`);
  });
});
