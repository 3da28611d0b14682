// What one queue object of the edge Worker costs at depth, under workerd (Miniflare, in this
// process; workerd's CPU read from /proc).
//
// Fill: `node scripts/bench/edge-memory.mjs [messages=100000] [clients=16]` puts that many 1 KiB
// messages into one queue through the API (signed raw HTTP, scripts/lib/raw-queue-client.mjs),
// failing on any refusal, sampling the isolate's wasm memory as it goes; then restarts workerd
// on the same storage and times the object's first request.
//
// Depth: `node scripts/bench/edge-memory.mjs --cold N [bytes=1024]` puts one message of that size in
// one queue, copies its row into N (scripts/bench/edge-clone-messages.bun.mjs, straight into the
// object's SQLite), then runs ROUNDS rounds; each starts workerd twice, once for the deep queue
// and once for an empty one (alternating which goes first), and measures, on that fresh
// workerd: the first request (Peek Messages, which opens the object), then after a short
// warm-up the CPU per operation of OPS Puts, of OPS Peek Messages(32) and of Get Messages(32)
// with a Delete of each message got (per message), CLIENTS requests in flight; then the wasm
// memory. It prints the medians of each depth side by side with their ratio.
//
// The wasm memory is read from inside the isolate (`/_azqueue/memory/…`, the development-only
// path of hosts/edge/queue-object.mjs: `WebAssembly.Memory` buffer size, shared by every object
// of the isolate). Environment: ROUNDS (default 3), OPS (default 1000), CLIENTS (default 4).

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Miniflare } from 'miniflare';
import { workerOptions } from '../../hosts/edge/miniflare-options.mjs';
import { cpuSeconds } from '../lib/bench-server.mjs';
import { phase } from '../lib/bench-phase.mjs';
import { Client } from '../lib/raw-queue-client.mjs';
import { reconnecting } from '../lib/reconnecting.mjs';
import { workerdPid } from '../lib/workerd-process.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const COLD = process.argv[2] === '--cold';
const TOTAL = Number(process.argv[COLD ? 3 : 2] ?? 100_000);
const SIZE = COLD ? Number(process.argv[4] ?? 1024) : 1024;
const FILL_CLIENTS = COLD ? 1 : Number(process.argv[3] ?? 16);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const OPS = Number(process.env.OPS ?? 1000);
const CLIENTS = Number(process.env.CLIENTS ?? 4);
const BODY = `<QueueMessage><MessageText>${'x'.repeat(SIZE)}</MessageText></QueueMessage>`;
const DEEP = 'memory';
const EMPTY = 'empty';
const MiB = 2 ** 20;

/**
 * workerd on `dir`'s objects: { mf, port, pid }.
 * @param {string} dir
 */
async function start(dir) {
  const mf = new Miniflare({ ...workerOptions({ persist: dir }), host: '127.0.0.1', port: 0 });
  const port = Number((await mf.ready).port);
  return { mf, port, pid: workerdPid() };
}

/**
 * What the queue's object reports: the isolate's wasm memory and the queue's kept count.
 * @param {number} port
 * @param {string} queue
 * @returns {Promise<{ wasmMemoryBytes: number, messageCount: number }>}
 */
async function memory(port, queue) {
  const res = await fetch(`http://127.0.0.1:${port}/_azqueue/memory/devstoreaccount1/${queue}`);
  if (!res.ok) throw new Error(`memory path: ${res.status} ${await res.text()}`);
  return res.json();
}

/** Requests redone after workerd closed their connection, and the slowest (ms). */
const stats = { dropped: 0, slowest: 0 };
/** @param {(c: Client) => Promise<number | null>} step */
const guarded = (step) => reconnecting(step, stats);

/** @param {number[]} xs */
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mib = (/** @type {number} */ bytes) => `${(bytes / MiB).toFixed(1)} MiB`;

/**
 * The first request of a fresh workerd (Peek Messages, which opens the queue's object): wall
 * ms and workerd's CPU ms over it.
 * @param {{ port: number, pid: number }} s
 * @param {string} queue
 */
async function firstRequest(s, queue) {
  const c = new Client(s.port, queue);
  const cpu0 = cpuSeconds(s.pid);
  const t0 = performance.now();
  const ok = await c.peek(1);
  const ms = performance.now() - t0;
  const cpuMs = (cpuSeconds(s.pid) - cpu0) * 1000;
  c.close();
  if (!ok) throw new Error(`first request to ${queue}: ${c.lastError}`);
  return { ms, cpuMs };
}

/**
 * CPU per operation on `queue` (µs of workerd CPU): Put, Get(32) + Delete (per message), Peek(32).
 * @param {{ name?: string, port: number, pid: number }} s
 * @param {string} queue
 */
async function cpuPerOperation(s, queue) {
  const server = { name: queue, ...s };
  const clients = Array.from({ length: CLIENTS }, () => new Client(s.port, queue));
  const getDelete = async (/** @type {Client} */ c) => {
    const got = await c.receive(32, 30);
    let n = 0;
    for (const [id, receipt] of got) n += await c.delete(id, receipt);
    return got.length ? n : null;
  };
  const run = async (
    /** @type {number} */ count,
    /** @type {(c: Client) => Promise<number | null>} */ step,
  ) => {
    const p = await phase(server, clients, 600_000, guarded(step), count);
    if (p.errors) throw new Error(`${queue}: ${p.errors} errors, last ${p.lastError}`);
    return (p.serverCpu / p.count) * 1e6;
  };
  try {
    // Warm-up, not measured: the code each operation runs is compiled and the object's pages read.
    // Peek before Get+Delete, while both queues hold at least 32 visible messages: a Peek of an
    // emptied queue answers fewer and would cost less for it.
    await run(64, (c) => c.put(BODY));
    await run(64, (c) => c.peek(32));
    await run(64, getDelete);
    const put = await run(OPS, (c) => c.put(BODY));
    const peek = await run(OPS, (c) => c.peek(32));
    const getDel = await run(OPS, getDelete);
    return { put, getDelete: getDel, peek };
  } finally {
    for (const c of clients) c.close();
  }
}

/**
 * The seeded depth benchmark (`--cold N`).
 * @param {string} dir
 */
async function depth(dir) {
  const s = await start(dir);
  for (const queue of [DEEP, EMPTY]) await new Client(s.port, queue).createQueue();
  const seed = new Client(s.port, DEEP);
  if (!(await seed.put(BODY))) throw new Error(seed.lastError);
  seed.close();
  await s.mf.dispose();
  // The one message is copied into TOTAL in the object that holds it (the clone script leaves
  // the empty queue's object alone).
  const objects = path.join(dir, '-QueueObject');
  const t0 = performance.now();
  const deepFile = fs
    .readdirSync(objects)
    .filter((f) => f.endsWith('.sqlite') && f !== 'metadata.sqlite')
    .map((f) => path.join(objects, f))
    .find((file) => {
      const out = execFileSync(path.join(ROOT, 'node_modules', '.bin', 'bun'), [
        path.join(ROOT, 'scripts', 'bench', 'edge-clone-messages.bun.mjs'),
        file,
        String(TOTAL),
      ]);
      return JSON.parse(String(out)).messages === TOTAL;
    });
  if (!deepFile) throw new Error('no object held the message to copy');
  const seeded = fs.statSync(deepFile).size;
  console.log(
    `seeded ${TOTAL.toLocaleString('en-US')} messages of ${SIZE} B into one object's SQLite in ${((performance.now() - t0) / 1000).toFixed(0)} s (${mib(seeded)} on disk)`,
  );

  const load0 = os.loadavg();
  /** @type {Record<string, any[]>} */
  const rows = { [DEEP]: [], [EMPTY]: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const queue of round % 2 ? [EMPTY, DEEP] : [DEEP, EMPTY]) {
      process.stderr.write(`depth: round ${round + 1}, ${queue}\n`);
      const w = await start(dir);
      try {
        const first = await firstRequest(w, queue);
        const afterFirst = await memory(w.port, queue);
        const ops = await cpuPerOperation(w, queue);
        const after = await memory(w.port, queue);
        rows[queue].push({
          ...first,
          ...ops,
          depth: afterFirst.messageCount,
          wasm: Math.max(afterFirst.wasmMemoryBytes, after.wasmMemoryBytes),
        });
      } finally {
        await w.mf.dispose();
      }
    }
  }
  const load1 = os.loadavg();
  console.log(
    `requests whose connection workerd closed under them (redone on a new one): ${stats.dropped}; slowest request ${stats.slowest.toFixed(0)} ms`,
  );
  const med = (/** @type {string} */ queue, /** @type {string} */ k) =>
    median(rows[queue].map((r) => r[k]));
  console.log(
    `\n# One queue object at depth ${TOTAL.toLocaleString('en-US')} against depth 0, under workerd\n\n` +
      `${os.cpus().length} CPUs, load average ${load0[0].toFixed(1)} at start and ${load1[0].toFixed(1)} at end; ` +
      `${ROUNDS} rounds, each a fresh workerd per depth (alternating which first); ${SIZE} B messages; ` +
      `${CLIENTS} clients; ${OPS} operations of each kind after a warm-up; medians of the rounds. ` +
      'CPU = workerd CPU (/proc) per operation; Get(32)+Delete per message.\n',
  );
  console.log(
    `| measure | depth 0 | depth ${TOTAL.toLocaleString('en-US')} | deep ÷ empty | rounds (depth 0 · deep) |`,
  );
  console.log('|---|---:|---:|---:|---|');
  const line = (
    /** @type {string} */ what,
    /** @type {string} */ k,
    /** @type {string} */ unit,
    digits = 0,
  ) => {
    const [e, d] = [med(EMPTY, k), med(DEEP, k)];
    const rounds = (/** @type {string} */ queue) =>
      rows[queue].map((r) => r[k].toFixed(digits)).join(', ');
    console.log(
      `| ${what} | ${e.toFixed(digits)} ${unit} | ${d.toFixed(digits)} ${unit} | ${(d / e).toFixed(2)}× | ${rounds(EMPTY)} · ${rounds(DEEP)} |`,
    );
  };
  line('first request after a restart, wall', 'ms', 'ms');
  line('first request after a restart, workerd CPU', 'cpuMs', 'ms');
  line('Put, CPU per operation', 'put', 'µs');
  line('Get(32)+Delete, CPU per message', 'getDelete', 'µs');
  line('Peek(32), CPU per operation', 'peek', 'µs');
  console.log(
    `| wasm memory after the operations (max of the rounds) | ${mib(Math.max(...rows[EMPTY].map((r) => r.wasm)))} | ${mib(Math.max(...rows[DEEP].map((r) => r.wasm)))} | | |`,
  );
  console.log(
    `\nfirst request at depth ${TOTAL.toLocaleString('en-US')} minus depth 0: ${(med(DEEP, 'ms') - med(EMPTY, 'ms')).toFixed(0)} ms wall (medians; rounds: depth 0 ${rows[EMPTY].map((r) => r.ms.toFixed(0)).join(', ')} ms, deep ${rows[DEEP].map((r) => r.ms.toFixed(0)).join(', ')} ms); the deep queue counted ${rows[DEEP].map((r) => r.depth).join(', ')} as it opened`,
  );
}

/**
 * The fill through the API (default mode).
 * @param {string} dir
 */
async function fill(dir) {
  let s = await start(dir);
  await new Client(s.port, DEEP).createQueue();
  const base = await memory(s.port, DEEP);
  console.log(`empty: wasm memory ${mib(base.wasmMemoryBytes)}`);
  const clients = Array.from({ length: FILL_CLIENTS }, () => new Client(s.port, DEEP));
  let sent = 0;
  let refused = 0;
  let lastRefusal = '';
  let peak = base.wasmMemoryBytes;
  const started = performance.now();
  const step = Math.max(1000, Math.floor(TOTAL / 10));
  let next = step;
  const putOne = guarded((c) => c.put(BODY));
  const put = async (/** @type {Client} */ c) => {
    while (sent < TOTAL) {
      sent++;
      const dropped = stats.dropped;
      const ok = await putOne(c);
      if (stats.dropped > dropped) {
        sent--; // not answered: put again
        continue;
      }
      if (!ok) {
        refused++;
        lastRefusal = c.lastError;
      }
    }
  };
  const sample = async () => {
    while (sent < TOTAL) {
      await new Promise((r) => setTimeout(r, 250));
      const m = await memory(s.port, DEEP);
      peak = Math.max(peak, m.wasmMemoryBytes);
      if (m.messageCount >= next) {
        next += step;
        console.log(`${m.messageCount} messages: wasm memory ${mib(m.wasmMemoryBytes)}`);
      }
    }
  };
  await Promise.all([...clients.map(put), sample()]);
  for (const c of clients) c.close();
  const secs = (performance.now() - started) / 1000;
  const full = await memory(s.port, DEEP);
  peak = Math.max(peak, full.wasmMemoryBytes);
  console.log(
    `requests whose connection workerd closed under them (put again on a new one): ${stats.dropped}; slowest request ${stats.slowest.toFixed(0)} ms`,
  );
  console.log(
    `${full.messageCount} messages of 1 KiB put through the API in ${secs.toFixed(0)} s (${(full.messageCount / secs).toFixed(0)}/s, ${FILL_CLIENTS} clients), ${refused} refused${refused ? ` (last: ${lastRefusal})` : ''}; wasm memory at most ${mib(peak)} while filling, ${mib(full.wasmMemoryBytes)} at the end`,
  );
  await s.mf.dispose();
  if (refused) process.exitCode = 1;

  s = await start(dir);
  const first = await firstRequest(s, DEEP);
  const after = await memory(s.port, DEEP);
  console.log(
    `after a restart at ${after.messageCount} messages: first request ${first.ms.toFixed(0)} ms (workerd CPU ${first.cpuMs.toFixed(0)} ms); wasm memory then ${mib(after.wasmMemoryBytes)}`,
  );
  await s.mf.dispose();
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'azqueue-edge-memory-'));
try {
  await (COLD ? depth(dir) : fill(dir));
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
