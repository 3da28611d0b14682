// What fault rules (docs/faults.md) cost a request that none of them takes, side by side in one
// run: Put Message through the Node server (server CPU per Put, read from /proc, as
// bench-edge-ab.mjs reads workerd's) and the in-process `sendMessage` (CPU per call, in a fresh
// Node process per round, as bench-inprocess.mjs runs it), each for three builds:
//   previous   the build before fault rules;
//   no rules   this build, no rule set;
//   100 rules  this build with 100 rules that match nothing (each names a queue no request
//              uses), so every request is compared with all of them and none fires.
// The three take turns in every round, in an order that rotates, so a trend in the machine's
// load hits each alike; the table gives each one's median and the ratios' medians with their
// spread (lowest–highest round), and the 1-minute load average before and after.
//
// Usage: node scripts/bench/faults.mjs            (make bench runs it)
// Environment:
//   BENCH_PREVIOUS  a previous build's checkout, built (its pkg/node, hosts/ and www/). From a
//                   git revision:
//                     git worktree add --detach /tmp/previous <rev>
//                     ln -s "$PWD/node_modules" /tmp/previous/node_modules
//                     (cd /tmp/previous && scripts/build.sh)
//                   (or, with that revision's packages already built, copy them to
//                   /tmp/previous/pkg instead of building).
//   BENCH_BASE      without BENCH_PREVIOUS, the revision built as above in a temporary worktree
//                   (bench-inprocess.mjs's way, cargo output kept in target/bench-previous);
//                   default: the parent of the commit that added src/rest/faults/mod.rs.
//   BENCH_ROUNDS (default 12), BENCH_PHASE_MS (default 3000) per server phase, BENCH_CLIENTS
//   (default 4) connections putting, BENCH_MESSAGES (default 200000) sendMessage calls a round.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  buildPrevious,
  builtPackage,
  checkoutPrevious,
  runChild,
  unmatchedRules,
} from './inprocess.mjs';
import { phase } from '../lib/bench-phase.mjs';
import { startAzqueue } from '../lib/bench-server.mjs';
import { Client } from '../lib/raw-queue-client.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 12);
const PHASE_MS = Number(process.env.BENCH_PHASE_MS ?? 3000);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 4);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 200_000);
const RULES = 100;
const PUT_BODY = `<QueueMessage><MessageText>${'x'.repeat(100)}</MessageText></QueueMessage>`;

/** @typedef {'previous' | 'no rules' | '100 rules'} Side */
/** @type {Side[]} */
const SIDES = ['previous', 'no rules', '100 rules'];

/** The revision before fault rules: the parent of the commit that added them. */
function beforeFaults() {
  const added = execFileSync(
    'git',
    ['log', '--diff-filter=A', '--format=%H', '--', 'src/rest/faults/mod.rs'],
    { cwd: ROOT, encoding: 'utf8' },
  )
    .trim()
    .split('\n')
    .pop();
  if (!added) throw new Error('no commit added src/rest/faults/mod.rs: set BENCH_BASE');
  return `${added}^`;
}

/** The previous build's checkout, and how to let it go. */
function previousBuild() {
  const given = process.env.BENCH_PREVIOUS;
  if (given) {
    const tree = path.resolve(given);
    const name = fs.existsSync(path.join(tree, '.git'))
      ? execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
          cwd: tree,
          encoding: 'utf8',
        }).trim()
      : path.basename(tree);
    return { name, tree, pkg: path.join(tree, 'pkg', 'node'), release: () => {} };
  }
  const previous = checkoutPrevious(process.env.BENCH_BASE ?? beforeFaults());
  const release = () =>
    execFileSync('git', ['worktree', 'remove', '--force', previous.tree], {
      cwd: ROOT,
      stdio: 'ignore',
    });
  try {
    buildPrevious(previous);
  } catch (err) {
    release();
    throw err;
  }
  return { name: previous.commit, tree: previous.tree, pkg: builtPackage(previous), release };
}

/**
 * Posts the rules that match nothing to a server (its development path on the queue port).
 * @param {number} port
 */
async function addRules(port) {
  const r = await fetch(`http://127.0.0.1:${port}/_azqueue/faults`, {
    method: 'POST',
    headers: { 'x-azqueue-dev': '1' },
    body: JSON.stringify({ rules: unmatchedRules(RULES) }),
  });
  if (!r.ok) throw new Error(`POST /_azqueue/faults: ${r.status} ${await r.text()}`);
}

let serial = 0;
/**
 * Puts into a fresh queue of `server` for `ms`, then deletes the queue (so every phase starts
 * at the same depth); resolves to µs of server CPU per Put.
 * @param {import('../lib/bench-server.mjs').Server} server
 * @param {number} ms
 */
async function putPhase(server, ms) {
  const queue = `faults-bench-${++serial}`;
  const clients = Array.from({ length: CLIENTS }, () => new Client(server.port, queue));
  try {
    await clients[0].createQueue();
    const m = await phase(server, clients, ms, (c) => c.put(PUT_BODY));
    if (m.errors) throw new Error(`${server.name}: ${m.errors} errors, last ${m.lastError}`);
    await clients[0].deleteQueue();
    return (m.serverCpu / m.count) * 1e6;
  } finally {
    for (const c of clients) c.close();
  }
}

const median = (/** @type {number[]} */ xs) =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * A ratio's median and spread over the rounds: `a[r] / b[r]`.
 * @param {number[]} a
 * @param {number[]} b
 */
function ratio(a, b) {
  const rs = a.map((x, r) => x / b[r]);
  return `${median(rs).toFixed(3)}× (${Math.min(...rs).toFixed(3)}–${Math.max(...rs).toFixed(3)})`;
}

async function main() {
  const current = path.join(ROOT, 'pkg', 'node');
  if (!fs.existsSync(path.join(current, 'azqueue.js')))
    throw new Error('run scripts/build.sh first');
  const previous = previousBuild();
  /** @type {import('../lib/bench-server.mjs').Server[]} */
  const servers = [];
  try {
    servers.push(await startAzqueue('previous', path.join(previous.tree, 'www'), previous.tree));
    servers.push(await startAzqueue('no rules', path.join(ROOT, 'www'), ROOT));
    servers.push(await startAzqueue('100 rules', path.join(ROOT, 'www'), ROOT));
    await addRules(servers[2].port);
    /** @type {Record<Side, string>} */
    const packages = { previous: previous.pkg, 'no rules': current, '100 rules': current };
    // Warm each server's JIT and grow its wasm memory before anything is measured.
    for (const s of servers) await putPhase(s, PHASE_MS);
    const load0 = os.loadavg()[0];
    /** @type {Record<Side, { put: number[], send: number[] }>} µs of CPU, one per round */
    const cpu = {
      previous: { put: [], send: [] },
      'no rules': { put: [], send: [] },
      '100 rules': { put: [], send: [] },
    };
    for (let round = 0; round < ROUNDS; round++) {
      for (let k = 0; k < SIDES.length; k++) {
        const i = (round + k) % SIDES.length;
        const side = SIDES[i];
        cpu[side].put.push(await putPhase(servers[i], PHASE_MS));
        cpu[side].send.push(
          runChild(packages[side], MESSAGES, side === '100 rules' ? RULES : 0).sendCpu,
        );
      }
      process.stderr.write(`bench-faults: round ${round + 1} of ${ROUNDS}\n`);
    }
    const load1 = os.loadavg()[0];
    console.log(
      `\n## Fault rules that match nothing: this build against ${previous.name} (100 B texts)\n`,
    );
    console.log(
      `${ROUNDS} rounds, the three sides in turn (order rotating); server: ${CLIENTS} connections ` +
        `putting for ${PHASE_MS} ms into a fresh queue; in process: ${MESSAGES.toLocaleString('en-US')} ` +
        `sendMessage calls in a fresh Node process. 1-minute load average ${load0.toFixed(1)} → ` +
        `${load1.toFixed(1)}. Medians; ratios with their lowest–highest round.\n`,
    );
    console.log(
      '| measure | previous | no rules | 100 rules | no rules ÷ previous | 100 rules ÷ no rules |',
    );
    console.log('|---|---:|---:|---:|---:|---:|');
    /**
     * @param {string} label
     * @param {'put' | 'send'} key
     */
    const row = (label, key) => {
      const [p, n, r] = SIDES.map((s) => cpu[s][key]);
      console.log(
        `| ${label} | ${median(p).toFixed(2)} | ${median(n).toFixed(2)} | ${median(r).toFixed(2)} | ` +
          `${ratio(n, p)} | ${ratio(r, n)} |`,
      );
    };
    row('µs server CPU per Put Message (Node server)', 'put');
    row('µs CPU per `sendMessage` (in process)', 'send');
  } finally {
    for (const s of servers) await s.stop();
    previous.release();
  }
}

await main();
