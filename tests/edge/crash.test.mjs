// SIGKILL crash test for the edge Worker: producers and consumers work through the official SDK
// against `dev.mjs --persist DIR`; workerd (with dev.mjs) is killed mid-work, restarted on the
// same directory, and checked: every acknowledged put is there, no acknowledged delete came
// back. Rounds: EDGE_CRASH_ROUNDS (default 3), with CRASH_PRODUCERS / CRASH_CONSUMERS as in
// tests/persistence/crash_node.test.mjs.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import {
  checkLastRestart,
  Ledger,
  present,
  randomBetween,
  workUntilKilled,
} from '../persistence/ledger.mjs';
import { childrenOf, running, startEdge } from '../../scripts/lib/edge-server.mjs';

const ROUNDS = Number(process.env.EDGE_CRASH_ROUNDS ?? 3);
const PRODUCERS = Number(process.env.CRASH_PRODUCERS ?? 4);
const CONSUMERS = Number(process.env.CRASH_CONSUMERS ?? 2);
const QUEUE = 'crash';

test(`the edge Worker survives ${ROUNDS} SIGKILLs of workerd: nothing acknowledged is lost or resurrected`, async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'azqueue-crash-edge-'));
  const ledger = new Ledger();
  let server = null;
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      server = await startEdge({ args: ['--persist', dir] });
      const workerd = childrenOf(/** @type {number} spawned */ (server.child.pid));
      assert.deepEqual(
        ledger.check(await present(server.origin, QUEUE)),
        [],
        `after restart ${round - 1}`,
      );
      const signal = await workUntilKilled({
        connectionString: server.connectionString,
        queue: QUEUE,
        ledger,
        stopAt: randomBetween(150, 600),
        kill: server.kill,
        producers: PRODUCERS,
        consumers: CONSUMERS,
      });
      assert.equal(signal, 'SIGKILL');
      server = null;
      for (const pid of workerd) assert.equal(running(pid), false, `workerd ${pid} was killed`);
    }
    server = await startEdge({ args: ['--persist', dir] });
    await checkLastRestart(t, { server, queue: QUEUE, ledger, rounds: ROUNDS });
    server = null;
  } finally {
    await server?.kill(); // whatever failed, no dev.mjs is left to keep the runner waiting
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
