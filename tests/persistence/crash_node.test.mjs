// SIGKILL crash test for `node hosts/node/server.mjs --location DIR`: producers and consumers work
// through the official SDK; the server is killed mid-work (after a random number of
// acknowledgements), restarted on the same directory, and checked: every acknowledged put is
// there, no acknowledged delete came back. Rounds: CRASH_ROUNDS (default 3; `make bench` runs
// more). Producers: CRASH_PRODUCERS (default 4), consumers: CRASH_CONSUMERS (default 2).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer } from '../e2e/azqueue_server.mjs';
import { checkLastRestart, Ledger, present, randomBetween, workUntilKilled } from './ledger.mjs';

const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 3);
const PRODUCERS = Number(process.env.CRASH_PRODUCERS ?? 4);
const CONSUMERS = Number(process.env.CRASH_CONSUMERS ?? 2);
const QUEUE = 'crash';

test(`node server with --location survives ${ROUNDS} SIGKILLs: nothing acknowledged is lost or resurrected`, async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'azqueue-crash-node-'));
  const ledger = new Ledger();
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      const server = await startServer({ args: ['--location', dir] });
      assert.deepEqual(
        ledger.check(await present(server.origin, QUEUE)),
        [],
        `after restart ${round - 1}`,
      );
      const exited = new Promise((r) => server.child.once('exit', (code, signal) => r(signal)));
      const signal = await workUntilKilled({
        connectionString: server.connectionString,
        queue: QUEUE,
        ledger,
        stopAt: randomBetween(150, 600),
        kill: () => {
          server.child.kill('SIGKILL');
          return exited;
        },
        producers: PRODUCERS,
        consumers: CONSUMERS,
      });
      assert.equal(signal, 'SIGKILL');
    }
    const server = await startServer({ args: ['--location', dir] });
    await checkLastRestart(t, { server, queue: QUEUE, ledger, rounds: ROUNDS });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
