// Draws the teaching page's pictures in docs/page.md from a real run: `node hosts/node/server.mjs` on
// free ports, the page in Debian's Chromium as a first visit (guided mode and questions on), the
// slow-consumer scenario walked with → and every question answered as it is asked (one wrongly,
// so the summary shows both verdicts):
// - docs/page-question.png: the stop where #2 comes back, with the answer to the question asked
//   at the start and the next question asked, over the cards it is about;
// - docs/page-results.png: the summary of answers a student copies out;
// - docs/page-editor.png: the scenario editor open on the scenario it starts from;
// - docs/page-link.png: the same scenario as JSON, with the buttons that copy its links and
//   export it, after its play-only link was copied.
//
//   node scripts/screenshots/page.mjs [out-dir]    (default: docs/)
//
// Each picture is cut from the window as it stands, never from a full-page capture: Chromium draws
// a full page in one tall frame, and the sticky dock (the time controls and the banner) stays
// where the last scroll left it, over the rows it should sit above, with a blank band where it
// was. tests/page/screenshot.test.mjs runs it to a temporary directory, so the command cannot rot.

import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT, startServer } from '../lib/azqueue-server.mjs';
import { launchChromium } from '../lib/chromium.mjs';

/** The pictures' size in CSS pixels, drawn at device scale 1, so each PNG is this size too. */
export const PICTURES = {
  'page-question.png': { width: 1280, height: 780 },
  'page-results.png': { width: 430, height: 330 },
  'page-editor.png': { width: 1280, height: 560 },
  'page-link.png': { width: 1280, height: 400 },
};
const VIEWPORT = { width: 1280, height: 800 };
/** Tall enough that every part pictured lies in the window at the top of the page. */
const TALL = { width: 1280, height: 1600 };
const SHOWN_MS = 20_000;

/**
 * The answers given to the slow-consumer scenario's questions (questions.js), by question id:
 * all right but `twice` (which order comes back first), so the summary shows a wrong answer
 * with the right one beside it, near its top.
 */
const ANSWERS = {
  'comes-back': 'back',
  twice: '#1',
  'next-count': '2',
  'stale-delete': '404',
  'who-deletes': 'Ann',
};

/**
 * Answers the questions open on the page that have no answer yet.
 * @param {import('playwright-core').Page} page
 */
async function answerOpen(page) {
  for (const question of await page.$$('[data-testid=question]')) {
    const id = /** @type {keyof typeof ANSWERS} */ (await question.getAttribute('data-question'));
    if (!(await question.$('button:not(:disabled)'))) continue;
    if ((await question.$$('button[aria-pressed=true]')).length) continue;
    assert.ok(ANSWERS[id], `an answer for question ${id}`);
    await question.$eval(`button[data-choice="${ANSWERS[id]}"]`, (b) =>
      /** @type {HTMLElement} */ (b).click(),
    );
  }
}

/**
 * Plays on with → to the stop `on` (the banner's data-on), answering what each stop asks.
 * @param {import('playwright-core').Page} page
 * @param {string} on
 */
async function playTo(page, on) {
  const stop = page.locator(`[data-testid=guide][data-on=${on}]`);
  for (let i = 0; i < 20 && !(await stop.isVisible()); i++) {
    await answerOpen(page);
    const was = await page.getAttribute('[data-testid=clock]', 'data-elapsed-ms');
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(
      (was) => {
        const box = /** @type {HTMLElement} */ (document.querySelector('[data-testid=guide]'));
        const clock = /** @type {HTMLElement} */ (document.querySelector('[data-testid=clock]'));
        return !box.hidden && clock.dataset.elapsedMs !== was;
      },
      was,
      { timeout: SHOWN_MS },
    );
  }
  await stop.waitFor({ timeout: SHOWN_MS });
  // The stop scrolls the stage into view two frames on: let it, before the page is scrolled back.
  await page.waitForTimeout(300);
}

/**
 * Whether the summary counts every question of ANSWERS settled, none waiting for its answer.
 * @param {import('playwright-core').Page} page
 */
async function allSettled(page) {
  const summary = (await page.textContent('[data-testid=results-summary]')) ?? '';
  const n = Object.keys(ANSWERS).length;
  return summary.includes(` of ${n} right`) && !summary.includes('[waiting]');
}

/**
 * Writes the part of the window at `at`, of `size`, to `file` (it must lie in the window).
 * @param {import('playwright-core').Page} page
 * @param {string} file
 * @param {{ x: number, y: number }} at
 * @param {{ width: number, height: number }} size
 */
async function picture(page, file, at, size) {
  const view = page.viewportSize();
  assert.ok(
    view && at.y + size.height <= view.height && at.x + size.width <= view.width,
    `${path.basename(file)} lies in the window`,
  );
  await page.screenshot({ path: file, clip: { ...at, ...size }, caret: 'hide' });
}

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
    await playTo(page, 'reappeared');
    await page.waitForSelector('[data-testid=feedback][data-question=comes-back]');
    await page.waitForSelector('[data-question=next-count] button:not(:disabled)');
    assert.deepEqual(errors, [], 'the page threw');
    await page.evaluate(() => scrollTo(0, 0));
    await picture(
      page,
      path.join(dir, 'page-question.png'),
      { x: 0, y: 0 },
      PICTURES['page-question.png'],
    );

    // On to the last question's answer: → to each next stop, or past the scenario's last moment
    // (→ then plays on) until the last answer, who deletes #2, is settled.
    for (let i = 0; i < 20 && !(await allSettled(page)); i++) {
      await answerOpen(page);
      const was = await page.getAttribute('[data-testid=clock]', 'data-elapsed-ms');
      await page.keyboard.press('ArrowRight');
      await page.waitForFunction(
        ({ was, n }) => {
          const box = /** @type {HTMLElement} */ (document.querySelector('[data-testid=guide]'));
          const clock = /** @type {HTMLElement} */ (document.querySelector('[data-testid=clock]'));
          const text = document.querySelector('[data-testid=results-summary]')?.textContent ?? '';
          const settled = text.includes(` of ${n} right`) && !text.includes('[waiting]');
          return settled || (!box.hidden && clock.dataset.elapsedMs !== was);
        },
        { was, n: Object.keys(ANSWERS).length },
        { timeout: SHOWN_MS },
      );
    }
    assert.ok(await allSettled(page), 'every question of the scenario answered and settled');
    await page.setViewportSize(TALL);
    await page.locator('[data-testid=results-panel] summary').click();
    await page.evaluate(() => scrollTo(0, 0));
    const panel = await page
      .locator('[data-testid=results-panel]')
      .evaluate((el) => el.getBoundingClientRect().toJSON());
    await picture(
      page,
      path.join(dir, 'page-results.png'),
      { x: panel.x, y: panel.y },
      PICTURES['page-results.png'],
    );

    await page.click('[data-testid=edit-toggle]');
    await page.evaluate(() => scrollTo(0, 0));
    await page.waitForSelector('[data-testid=editor-status]:not(:empty)');
    const editor = await page
      .locator('[data-testid=editor]')
      .evaluate((el) => el.getBoundingClientRect().toJSON());
    await picture(
      page,
      path.join(dir, 'page-editor.png'),
      { x: 0, y: Math.max(0, editor.y - 8) },
      PICTURES['page-editor.png'],
    );

    await page.click('[data-testid=editor-play-link]');
    await page.waitForSelector('[data-testid=editor-status][data-link]');
    // The JSON's heading right under the docked controls, which stay at the top of the window.
    const dock = await page.locator('.dock').evaluate((el) => el.getBoundingClientRect().height);
    const heading = page.locator('.editor-json-h');
    const top = await heading.evaluate((el) => el.getBoundingClientRect().top + scrollY);
    await page.evaluate((y) => scrollTo(0, y), top - dock - 16);
    const json = await heading.evaluate((el) => el.getBoundingClientRect().toJSON());
    await picture(
      page,
      path.join(dir, 'page-link.png'),
      { x: 0, y: json.y - 4 },
      PICTURES['page-link.png'],
    );
    assert.deepEqual(errors, [], 'the page threw');
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
