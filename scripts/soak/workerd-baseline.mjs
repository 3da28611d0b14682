#!/usr/bin/env node
// workerd's memory with no azqueue in it, for reading the edge soak's "workerd RSS" beside:
// eight clients send PUTs over loopback HTTP to a trivial Worker (workerd-baseline/worker.mjs)
// whose four SQLite-backed Durable Objects each keep a rolling window of rows, under miniflare 4
// as the edge soak runs workerd, and workerd's RSS is printed every 10 s.
//
// Usage: node scripts/soak/workerd-baseline.mjs [seconds (default 120)]

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Miniflare } from 'miniflare';
import { processTree, rssMiB } from './process-memory.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SECONDS = Number(process.argv[2] ?? 120);
const CLIENTS = 8;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'azqueue-workerd-baseline-'));
const mf = new Miniflare({
  modules: true,
  scriptPath: path.join(HERE, 'workerd-baseline', 'worker.mjs'),
  compatibilityDate: '2025-07-01',
  durableObjects: { ROWS: { className: 'Rows', useSQLite: true } },
  durableObjectsPersist: dir,
  host: '127.0.0.1',
  port: 0,
});
try {
  const { port } = await mf.ready;
  const workerdRss = () =>
    processTree(process.pid)
      .slice(1)
      .reduce((sum, p) => sum + rssMiB(p), 0);
  let requests = 0;
  const started = performance.now();
  const until = started + SECONDS * 1000;
  /** @type {string[]} */
  const lines = [];
  const sample = () =>
    lines.push(`${((performance.now() - started) / 1000).toFixed(0)}s ${workerdRss().toFixed(0)}`);
  const sampler = async () => {
    while (performance.now() < until) {
      sample();
      await new Promise((r) => setTimeout(r, 10_000));
    }
  };
  const client = async (/** @type {number} */ c) => {
    while (performance.now() < until) {
      const r = await fetch(`http://127.0.0.1:${port}/${'abcd'[c % 4]}`, {
        method: 'PUT',
        body: 'x'.repeat(100),
      });
      await r.text();
      requests++;
    }
  };
  await Promise.all([...Array.from({ length: CLIENTS }, (_, c) => client(c)), sampler()]);
  sample();
  console.log(`workerd baseline (${SECONDS} s, no azqueue): ${requests} requests`);
  console.log(`  workerd RSS (MiB) over time: ${lines.join(', ')}`);
} finally {
  await mf.dispose();
  fs.rmSync(dir, { recursive: true, force: true });
}
