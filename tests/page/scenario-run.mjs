// What the editor's tests compare between two pages running one scenario: the cards with their
// receipts, and the HTTP log; and opening a page on a scenario's link.

import { cards } from './harness.mjs';

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
