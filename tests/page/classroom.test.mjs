// The classroom additions of issue 36 held to the lecture hall's bar: a question at a stop (one
// answered by clicking a card too), its feedback, the summary of answers and the scenario editor
// meet WCAG AA contrast, fit a phone (390 px) without horizontal scrolling, and hold at 150 %
// zoom on a 1280×800 projector.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chooseScenario, pageSuite, stopAt } from './harness.mjs';
import { contrastFailures } from './contrast.mjs';

/** @typedef {import('playwright-core').Page} Page */

const suite = pageSuite();
const SIZES = {
  desk: { width: 1280, height: 800 },
  projector: { width: 853, height: 533 }, // 1280×800 at 150 % zoom, in CSS pixels
  phone: { width: 390, height: 844 },
};

/**
 * Horizontal overflow of the page, and of any question, feedback or editor part past its box.
 * @param {Page} page
 */
const overflow = (page) =>
  page.evaluate(() => {
    const out = [];
    const page = document.documentElement.scrollWidth - document.documentElement.clientWidth;
    if (page > 0) out.push(`the page scrolls sideways by ${page} px`);
    for (const box of document.querySelectorAll('.question, .feedback, .editor, .results')) {
      const r = box.getBoundingClientRect();
      if (r.width === 0) continue;
      for (const e of box.querySelectorAll('*')) {
        const c = e.getBoundingClientRect();
        if (c.width > 0 && c.right > r.right + 0.5)
          out.push(`${box.className} .${e.className} ends at ${c.right}, past ${r.right}`);
      }
    }
    return out;
  });

describe('questions, answers and the editor at every size', () => {
  for (const [name, viewport] of Object.entries(SIZES)) {
    test(`${name}: AA contrast and nothing past its box`, async () => {
      const page = await suite.open({ viewport, firstVisit: true });
      await chooseScenario(page, 'slow-consumer');
      // A question answered by clicking a card: the cards it offers are marked on screen.
      await page.waitForSelector('[data-question=twice] .quiz-point');
      await page.waitForSelector('[data-testid=message][data-pickable]');
      assert.deepEqual(await page.evaluate(contrastFailures), [], 'a question about the cards');
      assert.deepEqual(await overflow(page), []);
      await page.click('[data-question=comes-back] button[data-choice=back]');
      await page.keyboard.press('ArrowRight');
      await stopAt(page, 'reappeared');
      await page.waitForSelector('[data-testid=feedback][data-question=comes-back]');
      assert.deepEqual(await page.evaluate(contrastFailures), [], 'a question and its feedback');
      assert.deepEqual(await overflow(page), []);
      await page.click('[data-question=next-count] button[data-choice="2"]');
      await page.evaluate(() =>
        /** @type {HTMLDetailsElement} */ (document.querySelector('#results-panel')).setAttribute(
          'open',
          '',
        ),
      );
      await page.click('[data-testid=edit-toggle]');
      await page.waitForSelector('[data-testid=editor]:not([hidden])');
      assert.deepEqual(await page.evaluate(contrastFailures), [], 'the editor and the summary');
      assert.deepEqual(await overflow(page), []);
    });
  }
});
