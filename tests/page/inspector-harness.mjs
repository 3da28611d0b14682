// What the inspector tests share: the Python SDK as they drive it (tests/page/inspector_sdk.py in
// a subprocess outside the browser, one JSON command per line in, one JSON answer per line out, in
// order), a page whose errors are kept, and the wait for the page to show a change within the
// issue's second.

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { ROOT } from './harness.mjs';

const PYTHON = process.env.AZQUEUE_PYTHON ?? join(ROOT, '.venv', 'bin', 'python');

/**
 * A message as a receive answers it.
 * @typedef {{ id: string, text: string, receipt: string, dequeueCount: number }} Received
 */

/**
 * inspector_sdk.py's commands, each with its answer.
 * @typedef {{
 *   (cmd: { op: 'send', queue: string, text: string, delay?: number }): Promise<{ id: string }>;
 *   (cmd: { op: 'receive', queue: string, visibility?: number, max?: number }): Promise<{ messages: Received[] }>;
 *   (cmd: { op: 'peek', queue: string }): Promise<{ messages: Array<{ id: string, text: string }> }>;
 *   (cmd: { op: 'delete', queue: string, id: string, receipt: string }): Promise<{}>;
 *   (cmd: { op: 'create', queue: string }): Promise<{}>;
 *   (cmd: { op: 'advance', ms: number }): Promise<{ clock: { now: number, offsetMs: number, paused: boolean } }>;
 * }} Sdk
 */

/**
 * Starts the SDK against `connection` (a connection string).
 * @param {string} connection
 * @returns {{ sdk: Sdk, stop: () => void }}
 */
export function startSdk(connection) {
  assert.ok(existsSync(PYTHON), `${PYTHON} is missing (scripts/ensure-tools.sh makes .venv)`);
  const child = spawn(PYTHON, [join(ROOT, 'tests', 'page', 'inspector_sdk.py'), connection], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  /** @type {Array<(line: string) => void>} */
  const waiting = [];
  createInterface({ input: child.stdout }).on('line', (line) => waiting.shift()?.(line));
  /** @param {{ op: string }} cmd */
  const send = (cmd) =>
    /** @type {Promise<any>} the answer's shape is the command's, as `Sdk` lists them */ (
      new Promise((resolve, reject) => {
        waiting.push((line) => {
          const answer = JSON.parse(line);
          if (answer.ok) resolve(answer);
          else reject(new Error(`SDK ${cmd.op}: ${answer.error}`));
        });
        child.stdin.write(`${JSON.stringify(cmd)}\n`);
      })
    );
  return { sdk: /** @type {Sdk} */ (send), stop: () => child.kill() };
}

/** The promise: a change shows within a second. */
export const WITHIN_MS = 1000;

/**
 * Waits until `selector` is on `page`, within WITHIN_MS.
 * @param {import('playwright-core').Page} page
 * @param {string} selector
 * @param {string} [what] what the selector stands for, in the failure's words
 */
export async function shown(page, selector, what = selector) {
  await page
    .locator(selector)
    .first()
    .waitFor({ state: 'attached', timeout: WITHIN_MS })
    .catch((e) => {
      throw new Error(`the page did not show ${what} within ${WITHIN_MS} ms: ${e.message}`);
    });
}

/**
 * A new page of `browser` whose uncaught errors and console errors go into `errors` (a test
 * ends by asserting there were none).
 * @param {import('playwright-core').Browser} browser
 * @param {{ width: number, height: number }} viewport
 * @param {string[]} errors
 */
export async function watchedPage(browser, viewport, errors) {
  const page = await browser.newPage({ viewport });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  return page;
}
