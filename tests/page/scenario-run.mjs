// What the editor's tests compare between two pages running one scenario: the cards with their
// receipts, and the HTTP log, at three times; the link the editor copies, and opening a page on it.

import assert from 'node:assert/strict';
import { cards, setStep, stepTo } from './harness.mjs';

/** @typedef {import('playwright-core').Page} Page */

/**
 * What a run shows: the cards (with their receipts) and the HTTP log.
 * @param {Page} page
 */
export async function picture(page) {
  const shown = (await cards(page))
    .filter((c) => !c.state.startsWith('gone'))
    .map(({ label, state, holder, dequeueCount, receipt, text }) => ({
      label,
      state,
      holder,
      dequeueCount,
      receipt,
      text,
    }));
  const log = await page.$$eval('[data-testid=http-log] li', (rows) =>
    rows.map((r) => {
      const d = /** @type {HTMLElement} */ (r).dataset;
      // Not the seq: a durable store's queues from before are deleted first, and counted.
      const t = r.querySelector('.t')?.textContent;
      return [t, d.op, d.status, d.actor, d.receiptPresented, d.receiptIssued].join(' ');
    }),
  );
  return { cards: shown, log };
}

/**
 * @param {Page} page
 * @param {string} link
 */
export async function openLink(page, link) {
  await page.goto(link);
  await page.waitForSelector("body[data-ready='true']");
}

/**
 * The link the editor copied for `mode` ("play" or "edit").
 * @param {Page} page
 * @param {string} mode
 */
export async function copiedLink(page, mode) {
  await page.click(`[data-testid=editor-${mode}-link]`);
  await page.waitForSelector(`[data-testid=editor-status][data-mode=${mode}]`);
  return /** @type {string} */ (
    await page.getAttribute('[data-testid=editor-status]', 'data-link')
  );
}

/**
 * Steps both pages to 10, 25 and 45 s and insists they show the same cards, receipts and log.
 * @param {Page} page
 * @param {Page} fresh
 */
export async function sameRunAtThreeTimes(page, fresh) {
  for (const p of [page, fresh]) await setStep(p, 5);
  for (const t of [10, 25, 45]) {
    await stepTo(page, t);
    await stepTo(fresh, t);
    const [here, there] = [await picture(page), await picture(fresh)];
    assert.ok(here.log.length > 0 && here.cards.length > 0, `something to compare at ${t} s`);
    assert.deepEqual(there, here, `the same cards, receipts and log at ${t} s`);
  }
}

/**
 * Runs the scenario in the editor ("Run it") and waits until it is the one on screen.
 * @param {Page} page
 */
export async function runEdited(page) {
  await page.click('[data-testid=editor-run]');
  await page.waitForFunction(() => document.body.dataset.scenario === 'custom');
}
