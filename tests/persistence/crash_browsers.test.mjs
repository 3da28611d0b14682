// SIGKILL crash test for the IndexedDB store in Firefox ESR and WebKitGTK (crash_chromium.test.mjs
// does Chromium through Playwright, which drives neither of Debian's builds). Each browser runs
// as a plain process on a persistent profile (browsers.mjs) with the harness page taking its
// orders over HTTP (pages/drive.js): producers and consumers on a strict, IndexedDB-backed
// service report every acknowledgement; the browser's whole process group is killed after a
// random number of them, started again on the same profile, and checked: every acknowledged put
// is there and no acknowledged delete came back. Rounds: CRASH_ROUNDS (default 1 here; `make
// bench` runs more); acknowledgements before each kill: CRASH_ACKS (default "1500,3000", so
// most rounds cross a fold of the write-ahead log, every 2,048 operations). Browsers:
// CRASH_BROWSERS (default "firefox"; `make bench` adds webkit, whose wasm engine faulted once in
// a clean-clone `make test`, see scripts/test-all.sh).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serveHarness } from '../../scripts/lib/browser-harness.mjs';
import { launchBrowser, virtualDisplay } from '../../scripts/lib/browsers.mjs';
import { Ledger, randomBetween } from './ledger.mjs';

const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 1);
const BROWSERS = (process.env.CRASH_BROWSERS ?? 'firefox').split(',');
const [MIN_ACKS, MAX_ACKS] = (process.env.CRASH_ACKS ?? '1500,3000').split(',').map(Number);

/**
 * `harness.call`, failing with the browser's last words if it takes longer than `ms`.
 * @param {Awaited<ReturnType<typeof serveHarness>>} harness
 * @param {ReturnType<typeof launchBrowser>} browser
 * @param {number} ms
 * @template {keyof import('../../scripts/lib/harness-pages/work.js').PageHelpers} F
 * @param {F} fn
 * @param {Parameters<import('../../scripts/lib/harness-pages/work.js').PageHelpers[F]>} args
 */
async function callWithin(harness, browser, ms, fn, ...args) {
  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  /** @type {Promise<never>} */
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(
            `${fn}() in ${browser.browser} gave no answer in ${ms} ms:\n${browser.stderr()}`,
          ),
        ),
      ms,
    );
  });
  try {
    return await Promise.race([harness.call(fn, ...args), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

for (const name of BROWSERS) {
  test(
    `${name} with a persistent profile survives ${ROUNDS} SIGKILL(s): nothing acknowledged is lost or resurrected`,
    { timeout: 150_000 * (ROUNDS + 1) },
    async (t) => {
      const profile = fs.mkdtempSync(path.join(os.tmpdir(), `azqueue-crash-${name}-`));
      const harness = await serveHarness();
      const url = harness.url.replace(/work\.html$/, 'drive.html');
      const display = name === 'webkit' ? await virtualDisplay() : null;
      const ledger = new Ledger();
      /** @type {unknown[]} */
      const pageErrors = [];
      /** @type {ReturnType<typeof launchBrowser> | null} */
      let browser = null;
      try {
        for (let round = 1; round <= ROUNDS + 1; round++) {
          let stopAt = Infinity;
          let start = 0;
          /** @type {ReturnType<typeof launchBrowser>['exited'] | null} */
          let killing = null;
          browser = launchBrowser(name, profile, url, { display: display?.display });
          const current = browser;
          harness.onLedger = (kind, id, text) => {
            if (kind === 'put') ledger.put(id, text);
            else if (kind === 'intend') ledger.intend(id);
            else if (kind === 'delete') ledger.delete(id);
            else if (kind === 'error' && !killing) pageErrors.push(id);
            if (ledger.acks - start >= stopAt) killing ??= current.kill();
          };
          await callWithin(harness, browser, 90_000, 'open');
          const held = new Map(await callWithin(harness, browser, 60_000, 'present'));
          assert.deepEqual(ledger.check(held), [], `after relaunch ${round - 1}`);
          if (round > ROUNDS) {
            t.diagnostic(
              `${ROUNDS} kill(s); ${ledger.puts.size} acknowledged puts, ${ledger.deleted.size} acknowledged deletes, ${held.size} messages left; 0 lost, 0 resurrected`,
            );
            break;
          }
          start = ledger.acks;
          stopAt = randomBetween(MIN_ACKS, MAX_ACKS);
          await callWithin(harness, browser, 60_000, 'work', { producers: 4, consumers: 2 });
          /** @type {Awaited<ReturnType<typeof launchBrowser>['exited']>} */
          const { signal } = await new Promise((resolve, reject) => {
            const deadline = Date.now() + 120_000;
            const wait = () => {
              if (killing) return killing.then(resolve);
              if (Date.now() > deadline)
                return reject(
                  new Error(`${ledger.acks - start} of ${stopAt} acknowledgements in 120 s`),
                );
              setTimeout(wait, 10);
            };
            wait();
          });
          harness.abandon('the browser was killed');
          assert.equal(signal, 'SIGKILL');
          assert.deepEqual(pageErrors, [], 'the page worked without errors until the kill');
        }
      } finally {
        await browser?.close();
        harness.abandon('the test ended');
        await harness.close();
        await display?.close();
        fs.rmSync(profile, { recursive: true, force: true });
      }
    },
  );
}
