// CPU per Put of the edge Worker against another build of it, side by side: two workerd
// processes (this tree's hosts/edge and pkg/edge, and a baseline tree's), phases alternating,
// 1 KiB SharedKey-signed Put Message into one queue each, workerd's CPU per Put from /proc.
// For deciding whether a change to the edge path pays: the ratio is the median of the rounds'.
//
// Usage: node scripts/bench/edge-ab.mjs <baseline root>
//   The baseline root holds a built checkout's hosts/edge and pkg/edge (for example
//   `git worktree add /tmp/base HEAD~1`, then `cp -r pkg/edge` of its build, or a copy of both).
// Environment: BENCH_PHASE_MS (default 3000), BENCH_AB_ROUNDS (default 8), BENCH_AB_CLIENTS
// (default 1), BENCH_AB_WARM_MS (default 20000) of puts per side first.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Miniflare } from 'miniflare';
import { phase } from '../lib/bench-phase.mjs';
import { Client } from '../lib/raw-queue-client.mjs';
import { reconnecting } from '../lib/reconnecting.mjs';
import { workerdPids } from '../lib/workerd-process.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PHASE_MS = Number(process.env.BENCH_PHASE_MS ?? 3000);
const ROUNDS = Number(process.env.BENCH_AB_ROUNDS ?? 8);
const CLIENTS = Number(process.env.BENCH_AB_CLIENTS ?? 1);
const WARM_MS = Number(process.env.BENCH_AB_WARM_MS ?? 20_000);
const TEXT = 'azqueue-edge-bench-'.repeat(60).slice(0, 1024);
const PUT_BODY = `<QueueMessage><MessageText>${TEXT}</MessageText></QueueMessage>`;

const baseline = process.argv[2];
if (!baseline) throw new Error('usage: node scripts/bench/edge-ab.mjs <baseline root>');

/**
 * Starts the Worker of the tree at `root` in its own workerd.
 * @param {string} name
 * @param {string} root
 * @param {string} persist
 */
async function start(name, root, persist) {
  const { workerOptions } = await import(
    pathToFileURL(path.join(root, 'hosts', 'edge', 'miniflare-options.mjs')).href
  );
  const before = new Set(workerdPids());
  const mf = new Miniflare({ ...workerOptions({ persist }), host: '127.0.0.1', port: 0 });
  const port = Number((await mf.ready).port);
  const pid = workerdPids().find((p) => !before.has(p));
  if (pid === undefined) throw new Error(`${name}: no new workerd process`);
  return { name, mf, port, pid };
}

const median = (/** @type {number[]} */ xs) =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'azqueue-bench-edge-ab-'));
const sides = [
  await start('baseline', path.resolve(baseline), path.join(scratch, 'a')),
  await start('this tree', ROOT, path.join(scratch, 'b')),
];
try {
  const stats = { dropped: 0, slowest: 0 };
  const put = reconnecting((/** @type {Client} */ c) => c.put(PUT_BODY), stats);
  const clients = sides.map((s) =>
    Array.from({ length: CLIENTS }, () => new Client(s.port, 'ab-bench')),
  );
  for (const [i, s] of sides.entries()) {
    await clients[i][0].createQueue();
    await phase(s, clients[i], WARM_MS, put);
  }
  const load0 = os.loadavg()[0];
  /** @type {number[][]} µs per Put, by side, one per round */
  const cpu = [[], []];
  for (let round = 0; round < ROUNDS; round++) {
    for (const i of round % 2 ? [1, 0] : [0, 1]) {
      const m = await phase(sides[i], clients[i], PHASE_MS, put);
      if (m.errors) throw new Error(`${sides[i].name}: ${m.errors} errors, last ${m.lastError}`);
      cpu[i].push((m.serverCpu / m.count) * 1e6);
    }
  }
  const ratios = cpu[1].map((b, r) => b / cpu[0][r]);
  console.log(
    `${CLIENTS} client(s), ${ROUNDS} rounds of ${PHASE_MS} ms, load average ${load0.toFixed(1)} → ` +
      `${os.loadavg()[0].toFixed(1)}: baseline ${Math.round(median(cpu[0]))} µs, this tree ` +
      `${Math.round(median(cpu[1]))} µs CPU per Put; this tree ÷ baseline ${median(ratios).toFixed(3)}× ` +
      `(rounds ${ratios.map((r) => r.toFixed(2)).join(', ')}; connections dropped ${stats.dropped})`,
  );
  for (const c of clients.flat()) c.close();
} finally {
  for (const s of sides) await s.mf.dispose();
  fs.rmSync(scratch, { recursive: true, force: true });
}
