// Build comparison: this checkout's Node server against another build of it, side by side in
// one run, so a build choice (opt-level, wasm-opt, a dependency) is weighed by what it costs the
// server, as a ratio, while both share the same machine load. The two servers take turns phase
// by phase (put, peek, receive+delete; the load generator and phases are bench-node.mjs's).
// scripts/bench/inprocess.mjs does the same for the in-process `Queue` API.
//
// Usage: [BENCH_THIS=DIR] BENCH_BASELINE=DIR node scripts/bench/build.mjs
//   DIR is the www/ directory of the other build's checkout (its www/server.mjs starts the
//   server, which loads ../pkg/node/, or www/'s pkg-node/ in checkouts older than pkg/),
//   e.g. made with `git worktree add /tmp/old <commit> && (cd /tmp/old && scripts/build.sh)`.
//   BENCH_THIS (default: this checkout's www/) is the
//   build measured against it.
// Environment: BENCH_ROUNDS (default 3) alternations per row; BENCH_PHASE_MS, BENCH_SIZE and
// BENCH_CLIENTS as in bench-node.mjs (e.g. BENCH_PHASE_MS=800 BENCH_CLIENTS=8 for a short run).

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLIENTS, SIZES, throughput, warmUp } from './node.mjs';
import { startAzqueue } from '../lib/bench-server.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BASELINE = process.env.BENCH_BASELINE;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

/** @typedef {Awaited<ReturnType<typeof throughput>>} Row */

const fmt = (/** @type {number} */ x, digits = 0) =>
  x.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
/** The nodejs build a www/ directory's server loads: ../pkg/node, or pkg-node/ in older checkouts. */
const nodeBuild = (/** @type {string} */ www) =>
  [path.join(www, '..', 'pkg', 'node'), path.join(www, 'pkg-node')].find((dir) =>
    fs.existsSync(path.join(dir, 'azqueue.js')),
  );
const wasmKiB = (/** @type {string} */ www) => {
  const file = path.join(/** @type {string} checked in main */ (nodeBuild(www)), 'azqueue_bg.wasm');
  return `${fmt(fs.statSync(file).size / 1024)} KiB`;
};
/**
 * @param {Row[]} rows
 * @param {'put' | 'peek' | 'recv'} key
 * @param {'count' | 'seconds' | 'serverCpu' | 'errors'} field
 */
const sum = (rows, key, field) => rows.reduce((s, r) => s + r[key][field], 0);

async function main() {
  if (!BASELINE)
    throw new Error('set BENCH_BASELINE to the www/ directory of the build to compare with');
  const builds = [
    { name: 'this build', www: path.resolve(process.env.BENCH_THIS ?? path.join(ROOT, 'www')) },
    { name: 'baseline', www: path.resolve(BASELINE) },
  ];
  for (const b of builds) {
    if (!nodeBuild(b.www)) throw new Error(`the nodejs build beside ${b.www} is missing`);
  }
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'azqueue-bench-build-'));
  /** @type {import('../lib/bench-server.mjs').Server[]} */
  const servers = [];
  const load0 = os.loadavg();
  console.log(
    `# azqueue server: this build ${builds[0].www} (${wasmKiB(builds[0].www)} wasm) vs baseline ${builds[1].www} (${wasmKiB(builds[1].www)})\n`,
  );
  console.log(
    `${os.cpus().length} CPUs, Node ${process.version}, load average at start ${load0.map((x) => x.toFixed(1)).join(' ')}; ` +
      `${ROUNDS} alternating rounds per row, rates summed over the rounds.\n`,
  );
  console.log(
    '| op | size | clients | this build /s | baseline /s | ratio | this µs CPU/msg | baseline µs CPU/msg |',
  );
  console.log('|---|---|---:|---:|---:|---:|---:|---:|');
  try {
    for (const [label, size] of SIZES) {
      const started = [];
      for (const b of builds) {
        const s = await startAzqueue(b.name, b.www, scratch);
        servers.push(s);
        started.push(s);
      }
      for (const s of started) await warmUp(s, size);
      for (const n of CLIENTS) {
        const runs = started.map(() => /** @type {Row[]} */ ([]));
        for (let round = 0; round < ROUNDS; round++) {
          // Alternate which build goes first, so neither always gets the warmer machine.
          const order = round % 2 === 0 ? [0, 1] : [1, 0];
          for (const i of order) runs[i].push(await throughput(started[i], size, n));
        }
        for (const [op, key] of /** @type {const} */ ([
          ['put', 'put'],
          ['peek', 'peek'],
          ['receive+delete', 'recv'],
        ])) {
          const [a, b] = runs.map((rows) => ({
            rate: sum(rows, key, 'count') / sum(rows, key, 'seconds'),
            us: (sum(rows, key, 'serverCpu') / sum(rows, key, 'count')) * 1e6,
            errors: sum(rows, key, 'errors'),
          }));
          const errors = a.errors || b.errors ? ` (errors ${a.errors} / ${b.errors})` : '';
          console.log(
            `| ${op}${errors} | ${label} | ${n} | ${fmt(a.rate)} | ${fmt(b.rate)} | ${fmt(a.rate / b.rate, 2)} | ${fmt(a.us)} | ${fmt(b.us)} |`,
          );
        }
      }
      for (const s of started) await s.stop();
    }
  } finally {
    for (const s of servers) await s.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  }

  console.log(
    `\nLoad average at end ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}.`,
  );
}

await main();
