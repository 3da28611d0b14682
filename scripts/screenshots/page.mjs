// Draws the teaching page's pictures in docs/page.md from a real run: `node hosts/node/server.mjs` on
// free ports, the page in Debian's Chromium as a first visit (guided mode and questions on), the
// slow-consumer scenario walked with → and answered:
// - docs/page-question.png: the stop where #2 comes back, with the answer to the question asked
//   at the start and the next question asked;
// - docs/page-results.png: the summary of answers a student copies out;
// - docs/page-editor.png: the scenario editor open on the scenario it starts from.
//
//   node scripts/screenshots/page.mjs [out-dir]    (default: docs/)
//
// tests/page/screenshot.test.mjs runs it to a temporary directory, so the command cannot rot.

import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT, startServer } from '../lib/azqueue-server.mjs';
import { launchChromium } from '../lib/chromium.mjs';

/** The pictures' size in CSS pixels, drawn at device scale 1, so each PNG is this size too. */
export const PICTURES = {
  'page-question.png': { width: 1280, height: 400 },
  'page-results.png': { width: 430, height: 330 },
  'page-editor.png': { width: 1280, height: 560 },
};
const VIEWPORT = { width: 1280, height: 800 };
const SHOWN_MS = 20_000;

/**
 * Starts the server, walks the scenario, and writes the pictures into `dir`. The server and the
 * browser are stopped whether or not it succeeds.
 * @param {string} dir
 */
export async function screenshotPage(dir) {
  const server = await startServer({ plain: true });
  /** @type {import('playwright-core').Browser | undefined} */
  let browser;
  try {
    browser = await launchChromium();
    const page = await browser.newPage({ viewport: VIEWPORT, deviceScaleFactor: 1 });
    /** @type {string[]} */
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${new URL(server.webUrl).origin}/?scenario=slow-consumer&t=0`);
    await page.waitForSelector("body[data-ready='true']", { timeout: SHOWN_MS });
    await page.waitForSelector('[data-question=comes-back] button', { timeout: SHOWN_MS });
    await page.click('[data-question=comes-back] button[data-choice=back]');
    await page.keyboard.press('ArrowRight');
    await page.waitForSelector('[data-testid=guide][data-on=reappeared]', { timeout: SHOWN_MS });
    await page.waitForSelector('[data-question=next-count] button', { timeout: SHOWN_MS });
    await page.waitForTimeout(300); // the stop scrolls the stage into view two frames on
    assert.deepEqual(errors, [], 'the page threw');
    await page.evaluate(() => scrollTo(0, 0));
    await page.screenshot({
      path: path.join(dir, 'page-question.png'),
      clip: { x: 0, y: 0, ...PICTURES['page-question.png'] },
      fullPage: true,
      caret: 'hide',
    });
    await page.click('[data-question=next-count] button[data-choice="2"]');
    await page.keyboard.press('ArrowRight');
    await page.waitForSelector('[data-testid=feedback][data-question=next-count]', {
      timeout: SHOWN_MS,
    });
    await page.click('[data-question=stale-delete] button[data-choice="404"]');
    await page.keyboard.press('ArrowRight');
    await page.waitForSelector('[data-testid=feedback][data-question=stale-delete]', {
      timeout: SHOWN_MS,
    });
    const panel = page.locator('[data-testid=results-panel]');
    await panel.locator('summary').click();
    await panel.scrollIntoViewIfNeeded();
    const box = await panel.evaluate((el) => {
      const r = el.getBoundingClientRect();
      return { x: r.x, y: r.y + scrollY };
    });
    await page.screenshot({
      path: path.join(dir, 'page-results.png'),
      clip: { x: box.x, y: box.y, ...PICTURES['page-results.png'] },
      fullPage: true,
      caret: 'hide',
    });
    // Tall enough that the editor shows without scrolling (the docked controls stay put).
    await page.setViewportSize({ width: 1280, height: 1400 });
    await page.evaluate(() => scrollTo(0, 0));
    await page.click('[data-testid=edit-toggle]');
    await page.evaluate(() => scrollTo(0, 0));
    await page.waitForSelector('[data-testid=editor-status]:not(:empty)');
    const editor = await page
      .locator('[data-testid=editor]')
      .evaluate((el) => ({ y: el.getBoundingClientRect().y + scrollY }));
    await page.screenshot({
      path: path.join(dir, 'page-editor.png'),
      clip: { x: 0, y: Math.max(0, editor.y - 8), ...PICTURES['page-editor.png'] },
      caret: 'hide',
    });
  } finally {
    await browser?.close();
    await server.stop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = path.resolve(process.argv[2] ?? path.join(ROOT, 'docs'));
  await screenshotPage(dir);
  console.log(
    `wrote ${Object.keys(PICTURES).join(', ')} in ${path.relative(process.cwd(), dir) || dir}`,
  );
}
