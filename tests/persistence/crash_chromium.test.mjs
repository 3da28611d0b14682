// SIGKILL crash test for the IndexedDB store in Chromium: the harness page runs producers and
// consumers on a strict, IndexedDB-backed service and reports every acknowledgement; the whole
// browser (process group) is killed mid-work after a random number of acknowledgements,
// relaunched on the same profile, and checked: every acknowledged put is there, no
// acknowledged delete came back. Rounds: CRASH_ROUNDS (default 2; `make bench` runs more).
// Acknowledgements before each kill: a random number in CRASH_ACKS (default "1500,3000", so
// most rounds cross a fold of the IndexedDB write-ahead log, every 2,048 operations: the
// riskiest moment to be killed).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launch, serveHarness } from '../../scripts/lib/browser-harness.mjs';
import { Ledger, randomBetween } from './ledger.mjs';

const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 2);
const [MIN_ACKS, MAX_ACKS] = (process.env.CRASH_ACKS ?? '1500,3000').split(',').map(Number);

test(
  `Chromium with a persistent profile survives ${ROUNDS} SIGKILLs: nothing acknowledged is lost or resurrected`,
  { timeout: 120_000 * ROUNDS },
  async (t) => {
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'azqueue-crash-chromium-'));
    const harness = await serveHarness();
    const ledger = new Ledger();
    /** @type {unknown[]} */
    const pageErrors = [];
    try {
      for (let round = 1; round <= ROUNDS + 1; round++) {
        let stopAt = Infinity;
        let start = 0;
        /** @type {ReturnType<Awaited<ReturnType<typeof launch>>['kill']> | null} */
        let killing = null;
        const browser = await launch(profile, harness.url);
        harness.onLedger = (kind, id, text) => {
          if (kind === 'put') ledger.put(id, text);
          else if (kind === 'intend') ledger.intend(id);
          else if (kind === 'delete') ledger.delete(id);
          else if (kind === 'error' && !killing) pageErrors.push(id);
          if (ledger.acks - start >= stopAt) killing ??= browser.kill();
        };
        await browser.page.evaluate(() => window.azq.open());
        const held = new Map(await browser.page.evaluate(() => window.azq.present()));
        assert.deepEqual(ledger.check(held), [], `after relaunch ${round - 1}`);
        if (round > ROUNDS) {
          t.diagnostic(
            `${ROUNDS} kills; ${ledger.puts.size} acknowledged puts, ${ledger.deleted.size} acknowledged deletes, ${held.size} messages left; 0 lost, 0 resurrected`,
          );
          await browser.close();
          break;
        }
        start = ledger.acks;
        stopAt = randomBetween(MIN_ACKS, MAX_ACKS);
        await browser.page.evaluate(() => {
          window.azq.work({ producers: 4, consumers: 2 });
        });
        /** @type {Awaited<ReturnType<Awaited<ReturnType<typeof launch>>['kill']>>} */
        const { signal } = await new Promise((resolve) => {
          const wait = () => (killing ? killing.then(resolve) : setTimeout(wait, 10));
          wait();
        });
        assert.equal(signal, 'SIGKILL');
        assert.deepEqual(pageErrors, [], 'the page worked without errors until the kill');
      }
    } finally {
      await harness.close();
      fs.rmSync(profile, { recursive: true, force: true });
    }
  },
);
