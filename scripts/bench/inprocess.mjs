// In-process `Queue` API benchmark, this build against the previous one, side by side in one
// run: sendMessage, then receiveMessages(32) + deleteMessage of each, 100 B texts, memory
// store, one caller awaiting each call (the loop a worker or a test writes).
//
// The previous build is the wasm package of BENCH_BASE (default HEAD~1), built by its own
// scripts/build.sh in a temporary git worktree (its cargo output kept in
// target/bench-previous, so later runs reuse it). The two packages take turns, each round in
// a fresh Node process, so neither inherits the other's JIT state or heap; the table shows the
// median of the rounds for each and their ratio. Wall-clock rates move with the machine's
// load; CPU time per operation (process.cpuUsage) much less, so both are shown.
//
// Usage: node scripts/bench/inprocess.mjs            (make bench runs it)
// Environment: BENCH_BASE (a commit), BENCH_ROUNDS (default 5 per build), BENCH_MESSAGES
// (default 50000 per round); BENCH_BASE_TREE, a checkout already built (its pkg/node), taken as
// the previous build instead of building BENCH_BASE.
// Internal: node scripts/bench/inprocess.mjs --child <pkg/node dir> <messages> [rules] runs one
// round (with `rules` fault rules that match nothing, scripts/bench/faults.mjs) and prints its
// figures as JSON.

import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * One round's figures: operations per second and µs of CPU per operation.
 * @typedef {{ send: number, sendCpu: number, receive: number, receiveCpu: number }} Round
 */

/**
 * `n` fault rules (docs/faults.md) that match no request of a benchmark: each names a queue
 * no benchmark uses, so every request is compared with all of them and none fires.
 * @param {number} n
 */
export function unmatchedRules(n) {
  /** @type {import('../../pkg/node/azqueue.js').FaultRule[]} */
  const rules = [];
  for (let i = 0; i < n; i++)
    rules.push({ queue: `no-such-queue-${i}`, operation: 'PutMessage', status: 503 });
  return rules;
}

/**
 * One round in this process: a warm-up pass that grows the wasm memory, then the measured one.
 * @param {string} pkgDir a build's nodejs package (this one's API; the previous build's is the same)
 * @param {number} messages
 * @param {number} rules fault rules that match nothing (0: the service opens as before them)
 */
async function round(pkgDir, messages, rules) {
  /** @type {typeof import('../../pkg/node/azqueue.js')} */
  const { QueueService } = createRequire(import.meta.url)(path.join(pkgDir, 'azqueue.js'));
  const service = await QueueService.open({
    store: 'memory',
    ...(rules ? { faults: { rules: unmatchedRules(rules) } } : {}),
  });
  const q = await service.createQueue('bench');
  const text = 'x'.repeat(100);
  /** @type {Round | undefined} */
  let result;
  for (let pass = 0; pass < 2; pass++) {
    let cpu = process.cpuUsage();
    let t0 = performance.now();
    for (let i = 0; i < messages; i++) await q.sendMessage(text);
    const sendSeconds = (performance.now() - t0) / 1000;
    let used = process.cpuUsage(cpu);
    const sendCpu = (used.user + used.system) / messages;
    cpu = process.cpuUsage();
    t0 = performance.now();
    let done = 0;
    for (;;) {
      const { receivedMessageItems } = await q.receiveMessages({
        numberOfMessages: 32,
        visibilityTimeout: 300,
      });
      if (receivedMessageItems.length === 0) break;
      for (const m of receivedMessageItems) await q.deleteMessage(m.messageId, m.popReceipt);
      done += receivedMessageItems.length;
    }
    const receiveSeconds = (performance.now() - t0) / 1000;
    used = process.cpuUsage(cpu);
    if (done !== messages) throw new Error(`received ${done} of ${messages} messages`);
    result = {
      send: messages / sendSeconds,
      sendCpu,
      receive: done / receiveSeconds,
      receiveCpu: (used.user + used.system) / done,
    };
  }
  await service.close();
  return result;
}

/**
 * A temporary worktree of BENCH_BASE, with this checkout's node_modules (its build may use them).
 * @param {string} base
 */
export function checkoutPrevious(base) {
  const commit = execFileSync('git', ['rev-parse', '--short', base], {
    cwd: ROOT,
    encoding: 'utf8',
  }).trim();
  const tree = fs.mkdtempSync(path.join(os.tmpdir(), 'azqueue-previous-'));
  execFileSync('git', ['worktree', 'add', '--detach', tree, commit], {
    cwd: ROOT,
    stdio: 'ignore',
  });
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(tree, 'node_modules'));
  return { commit, tree, pkg: path.join(tree, 'pkg', 'node') };
}

/** @typedef {ReturnType<typeof checkoutPrevious>} Previous */

/**
 * The previous build's nodejs package: pkg/node, or www's pkg-node before there was a pkg/.
 * @param {Previous} previous
 */
export function builtPackage(previous) {
  const older = path.join(previous.tree, 'www', 'pkg-node');
  return fs.existsSync(path.join(previous.pkg, 'azqueue.js')) ? previous.pkg : older;
}

/**
 * Builds the previous commit's packages with its own scripts/build.sh.
 * @param {Previous} previous
 */
export function buildPrevious(previous) {
  process.stderr.write(`building ${previous.commit} (the previous build) in ${previous.tree}\n`);
  const env = { ...process.env, CARGO_TARGET_DIR: path.join(ROOT, 'target', 'bench-previous') };
  execFileSync('scripts/build.sh', {
    cwd: previous.tree,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/**
 * One round in a fresh Node process.
 * @param {string} pkg
 * @param {number} messages
 * @param {number} [rules] fault rules that match nothing
 * @returns {Round}
 */
export function runChild(pkg, messages, rules = 0) {
  const child = spawnSync(
    process.execPath,
    [fileURLToPath(import.meta.url), '--child', pkg, String(messages), String(rules)],
    {
      encoding: 'utf8',
    },
  );
  if (child.status !== 0) throw new Error(`round failed for ${pkg}:\n${child.stderr}`);
  return JSON.parse(child.stdout);
}

const median = (/** @type {number[]} */ xs) =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (/** @type {number} */ x, digits = 0) =>
  x.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

async function main() {
  const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
  const messages = Number(process.env.BENCH_MESSAGES ?? 50_000);
  const current = path.join(ROOT, 'pkg', 'node');
  if (!fs.existsSync(path.join(current, 'azqueue.js')))
    throw new Error('run scripts/build.sh first');
  const borrowed = process.env.BENCH_BASE_TREE;
  const previous = borrowed
    ? {
        commit: execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
          cwd: borrowed,
          encoding: 'utf8',
        }).trim(),
        tree: path.resolve(borrowed),
        pkg: path.resolve(borrowed, 'pkg', 'node'),
      }
    : checkoutPrevious(process.env.BENCH_BASE ?? 'HEAD~1');
  try {
    if (!borrowed) buildPrevious(previous);
    /** @type {Record<'previous' | 'current', Round[]>} */
    const runs = { previous: [], current: [] };
    for (let i = 0; i < rounds; i++) {
      // Alternate which goes first, so a trend in the machine's load hits both alike.
      /** @type {('previous' | 'current')[]} */
      const order = i % 2 === 0 ? ['previous', 'current'] : ['current', 'previous'];
      for (const which of order)
        runs[which].push(
          runChild(which === 'current' ? current : builtPackage(previous), messages),
        );
      process.stderr.write(`bench-inprocess: round ${i + 1} of ${rounds}\n`);
    }
    /**
     * @param {'previous' | 'current'} which
     * @param {keyof Round} key
     */
    const m = (which, key) => median(runs[which].map((r) => r[key]));
    console.log(
      `\n## In-process \`Queue\` API: this build against ${previous.commit} (100 B, memory store)\n`,
    );
    console.log(
      `Median of ${rounds} alternating rounds of ${fmt(messages)} messages each, each round in a fresh process; load average at the end ${os
        .loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')}.\n`,
    );
    console.log('| measure | previous build | this build | ratio |');
    console.log('|---|---:|---:|---:|');
    /**
     * @param {string} label
     * @param {keyof Round} key
     * @param {number} digits
     * @param {boolean} higherIsBetter
     */
    const row = (label, key, digits, higherIsBetter) => {
      const [p, c] = [m('previous', key), m('current', key)];
      console.log(
        `| ${label} | ${fmt(p, digits)} | ${fmt(c, digits)} | ${fmt(higherIsBetter ? c / p : p / c, 2)}× |`,
      );
    };
    row('sendMessage /s', 'send', 0, true);
    row('µs CPU per sendMessage', 'sendCpu', 2, false);
    row('received+deleted messages /s', 'receive', 0, true);
    row('µs CPU per message received and deleted', 'receiveCpu', 2, false);
  } finally {
    if (!borrowed)
      execFileSync('git', ['worktree', 'remove', '--force', previous.tree], {
        cwd: ROOT,
        stdio: 'ignore',
      });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  if (process.argv[2] === '--child') {
    const [pkg, messages, rules] = process.argv.slice(3);
    process.stdout.write(
      JSON.stringify(await round(path.resolve(pkg), Number(messages), Number(rules ?? 0))),
    );
  } else {
    await main();
  }
}
