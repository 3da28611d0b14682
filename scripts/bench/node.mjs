// Server benchmark: azqueue's Node server (`node hosts/node/server.mjs`) against Azurite's queue service
// (npm `azurite`), started side by side in one run, both in memory, driven over loopback by the
// same load generator. The generator is a small keep-alive HTTP/1.1 client on raw sockets that
// signs every request with SharedKey (scripts/lib/raw-queue-client.mjs), so the servers, not an
// SDK, are the bottleneck. Server CPU is read from /proc/<pid>/stat before and after every phase.
//
// Measures: put, peek and receive+delete at 100 B and 48 KiB with 1, 8 and 32 clients (ratios
// azqueue/Azurite, server CPU per message), with a bare Node `http` server as the floor; Get
// Messages(32) latency against queue depth; the in-process `Queue` API's receive latency up to
// 1M messages (its throughput, against the previous build, is scripts/bench/inprocess.mjs).
// Prints markdown tables (progress on stderr); runs in about 3–4 minutes on the project's
// 2-core machines.
//
// Usage: node scripts/bench/node.mjs
// Environment: BENCH_PHASE_MS (default 1500) per phase; BENCH_MAX_DEPTH (default 100000) the
// deepest server queue for the latency table (1000000 adds the 1M row, a few minutes of Puts);
// BENCH_FILL_S (default 90) time allowed to fill the deepest queue (server, and in process to 1M).

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { phase } from '../lib/bench-phase.mjs';
import { startAzqueue, startServer } from '../lib/bench-server.mjs';
import { Client } from '../lib/raw-queue-client.mjs';
import { API_VERSION } from '../lib/shared-key.mjs';

/** @typedef {import('../lib/bench-server.mjs').Server} Server */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PHASE_MS = Number(process.env.BENCH_PHASE_MS ?? 1500);
const MAX_DEPTH = Number(process.env.BENCH_MAX_DEPTH ?? 100_000);
const FILL_S = Number(process.env.BENCH_FILL_S ?? 90);
/** The message sizes and client counts measured, narrowed by BENCH_SIZE and BENCH_CLIENTS. */
export const SIZES = /** @type {[string, number][]} */ ([
  ['100 B', 100],
  ['48 KiB', 48 * 1024],
]).filter(([l]) => !process.env.BENCH_SIZE || l === process.env.BENCH_SIZE);
export const CLIENTS = [1, 8, 32].filter(
  (n) => !process.env.BENCH_CLIENTS || process.env.BENCH_CLIENTS.split(',').includes(String(n)),
);
/** Limits of a warm-up put round (three per size and server). */
const WARMUP_MS = 2_500;
const WARMUP_MESSAGES = 2_500;
/** The least depth a receive+delete phase starts from. */
const RECEIVE_DEPTH = 1_000;
/** Caps a put phase's total message text, so 48 KiB phases stay within a few hundred MB. */
const PUT_BYTES_CAP = 256 * 1024 * 1024;

/**
 * Message text of `n` ASCII characters (XML-safe).
 * @param {number} n
 */
function text(n) {
  const unit = 'azqueue-bench-0123456789-abcdefghijklmnopqrstuvwxyz-';
  return unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
}

let queueSerial = 0;
function queueName() {
  return `bench-${process.pid}-${++queueSerial}`;
}

/**
 * put, peek, receive+delete on a fresh queue, for one server, size and client count.
 * @param {Server} server
 * @param {number} size
 * @param {number} nClients
 */
export async function throughput(server, size, nClients) {
  const name = queueName();
  const clients = Array.from({ length: nClients }, () => new Client(server.port, name));
  try {
    await clients[0].createQueue();
    const body = `<QueueMessage><MessageText>${text(size)}</MessageText></QueueMessage>`;
    const put = await phase(
      server,
      clients,
      PHASE_MS,
      (c) => c.put(body),
      Math.floor(PUT_BYTES_CAP / size),
    );
    const peek = await phase(server, clients, PHASE_MS, (c) => c.peek());
    // Receive+delete starts on at least RECEIVE_DEPTH messages (Azurite's cost grows with
    // depth; the issue's reference figure is for a 1,000-message queue). Not measured.
    let depth = put.count;
    if (depth < RECEIVE_DEPTH) {
      const topUp = await phase(server, clients, 60_000, (c) => c.put(body), RECEIVE_DEPTH - depth);
      depth += topUp.count;
    }
    const recv = await phase(server, clients, PHASE_MS, async (c) => {
      const got = await c.receive(32, 300);
      if (got.length === 0) return null;
      let n = 0;
      for (const [id, receipt] of got) n += await c.delete(id, receipt);
      return n;
    });
    await clients[0].deleteQueue();
    return { put, peek, recv, depth };
  } finally {
    for (const c of clients) c.close();
  }
}

/**
 * Median and maximum of latency samples (ms).
 * @param {number[]} samples
 */
function summary(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    p50: sorted[Math.floor(sorted.length / 2)],
    max: sorted[sorted.length - 1],
    n: sorted.length,
  };
}

/**
 * Get Messages(32) latency at growing depths on one queue (filled by 32 pipelined clients).
 * @param {Server} server
 * @param {number[]} depths
 * @param {number} fillSeconds
 */
async function depthLatency(server, depths, fillSeconds) {
  const name = queueName();
  const fillers = Array.from({ length: 32 }, () => new Client(server.port, name));
  try {
    return await fillAndProbe(server, fillers, depths, fillSeconds);
  } finally {
    for (const c of fillers) c.close();
  }
}

/**
 * @typedef {{ target: number, depth: number, skipped?: string, p50?: number, max?: number,
 *   n?: number, fillRate?: number }} DepthRow a depth reached, and the latency there
 */

/**
 * @param {Server} server
 * @param {Client[]} fillers
 * @param {number[]} depths
 * @param {number} fillSeconds
 * @returns {Promise<DepthRow[]>}
 */
async function fillAndProbe(server, fillers, depths, fillSeconds) {
  await fillers[0].createQueue();
  const body = `<QueueMessage><MessageText>${text(100)}</MessageText></QueueMessage>`;
  /** @type {DepthRow[]} */
  const rows = [];
  let depth = 0;
  const fillDeadline = performance.now() + fillSeconds * 1000;
  for (const target of depths) {
    const t0 = performance.now();
    const fill = await phase(
      server,
      fillers,
      Math.max(0, fillDeadline - t0),
      (c) => c.put(body),
      target - depth,
    );
    depth += fill.count;
    if (depth < target) {
      rows.push({ target, depth, skipped: `fill reached ${depth} in the time allowed` });
      break;
    }
    // Received messages stay in the queue (invisible), so the depth is unchanged.
    const probe = fillers[0];
    /** @type {number[]} */
    const samples = [];
    const rounds = Math.min(20, Math.floor(target / 64));
    for (let i = 0; i < rounds; i++) {
      const s = performance.now();
      const got = await probe.receive(32, 600);
      samples.push(performance.now() - s);
      if (got.length !== 32)
        throw new Error(`${server.name}: Get Messages returned ${got.length} at depth ${depth}`);
    }
    rows.push({ target, depth, ...summary(samples), fillRate: fill.rate });
  }
  await fillers[0].deleteQueue();
  return rows;
}

/**
 * receiveMessages(32) latency in this process at growing depths (sendMessage fills the queue).
 * @param {typeof import('../../pkg/node/azqueue.js').QueueService} QueueService
 * @param {number[]} depths
 * @param {number} fillSeconds
 * @returns {Promise<DepthRow[]>}
 */
async function inProcessDepth(QueueService, depths, fillSeconds) {
  const service = await QueueService.open({ store: 'memory' });
  const q = await service.createQueue('inproc-depth');
  const msg = text(100);
  /** @type {DepthRow[]} */
  const rows = [];
  let depth = 0;
  const deadline = performance.now() + fillSeconds * 1000;
  for (const target of depths) {
    while (depth < target && performance.now() < deadline) {
      for (let i = 0; i < 1000 && depth < target; i++, depth++) await q.sendMessage(msg);
    }
    if (depth < target) {
      rows.push({ target, depth, skipped: `fill reached ${depth} in the time allowed` });
      break;
    }
    /** @type {number[]} */
    const samples = [];
    for (let i = 0; i < Math.min(20, Math.floor(target / 64)); i++) {
      const t0 = performance.now();
      const r = await q.receiveMessages({ numberOfMessages: 32, visibilityTimeout: 600 });
      samples.push(performance.now() - t0);
      if (r.receivedMessageItems.length !== 32)
        throw new Error(`in-process receive got ${r.receivedMessageItems.length}`);
    }
    rows.push({ target, depth, ...summary(samples) });
  }
  await q.delete();
  await service.close();
  service.free();
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Report

const fmt = (/** @type {number} */ x, digits = 0) =>
  Number.isFinite(x)
    ? x.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : '–';
const us = (/** @type {number} */ cpu, /** @type {number} */ count) =>
  count > 0 ? fmt((cpu * 1e6) / count) : '–';
const pct = (/** @type {number} */ cpu, /** @type {number} */ s) => `${fmt((100 * cpu) / s)}%`;

/** A bare Node `http` server answering every request with a fixed 201 and a Put-sized body. */
const FLOOR_SERVER = `
import http from 'node:http';
const body = Buffer.from('<?xml version="1.0" encoding="utf-8"?><QueueMessagesList><QueueMessage><MessageId>5974b586-0df3-4e2d-ad0c-18e3892bfca2</MessageId><InsertionTime>Fri, 09 Oct 2009 21:04:30 GMT</InsertionTime><ExpirationTime>Fri, 16 Oct 2009 21:04:30 GMT</ExpirationTime><PopReceipt>AgAAAAMAAAAAAAAAAAAAAAAAAAA=</PopReceipt><TimeNextVisible>Fri, 09 Oct 2009 21:04:30 GMT</TimeNextVisible></QueueMessage></QueueMessagesList>');
const server = http.createServer((req, res) => {
  req.on('data', () => {});
  req.on('end', () => {
    res.writeHead(201, ['content-type', 'application/xml', 'x-ms-request-id', 'f0f0f0f0-0000-0000-0000-000000000000',
      'x-ms-version', '${API_VERSION}', 'date', new Date().toUTCString(), 'content-length', String(body.length)]);
    res.end(body);
  });
});
server.listen(0, '127.0.0.1', () => console.log('floor listening on http://127.0.0.1:' + server.address().port));
process.on('SIGTERM', () => process.exit(0));
`;

/**
 * Not measured: a short mixed run (JIT), then put rounds at `size`. A fresh azqueue server
 * spends a few rounds growing its wasm memory and Node's heap (a 48 KiB put costs several times
 * its steady-state CPU at first); the tables report the steady state.
 * @param {Server} server
 * @param {number} size
 */
export async function warmUp(server, size) {
  const c = new Client(server.port, queueName());
  try {
    await c.createQueue();
    const body = `<QueueMessage><MessageText>${text(100)}</MessageText></QueueMessage>`;
    const until = performance.now() + 500;
    while (performance.now() < until) {
      await c.put(body);
      await c.peek();
      for (const [id, r] of await c.receive(1, 30)) await c.delete(id, r);
    }
    await c.deleteQueue();
  } finally {
    c.close();
  }
  const putBody = `<QueueMessage><MessageText>${text(size)}</MessageText></QueueMessage>`;
  for (let round = 0; round < 3; round++) {
    const name = queueName();
    const clients = Array.from({ length: 8 }, () => new Client(server.port, name));
    try {
      await clients[0].createQueue();
      await phase(server, clients, WARMUP_MS, (cl) => cl.put(putBody), WARMUP_MESSAGES);
      await clients[0].deleteQueue();
    } finally {
      for (const cl of clients) cl.close();
    }
  }
}

/** @type {string[]} */
const failures = [];
let lastProgress = performance.now();

/**
 * Where the time goes, on stderr (the tables go to stdout).
 * @param {string} what
 */
function progress(what) {
  const now = performance.now();
  process.stderr.write(`bench: ${what} took ${((now - lastProgress) / 1000).toFixed(1)} s\n`);
  lastProgress = now;
}

/**
 * Runs `fn`; on failure records why (and the server's last output) and resolves null.
 * @template T
 * @param {Server} server
 * @param {() => Promise<T>} fn
 * @returns {Promise<T | null>}
 */
async function attempt(server, fn) {
  try {
    return await fn();
  } catch (err) {
    failures.push(
      `${server.name}: ${/** @type {Error} */ (err).message}; server ${server.exited() || 'still running'}; its last output:\n${server.tail()}`,
    );
    return null;
  }
}

async function main() {
  const entry = path.join(ROOT, 'pkg', 'node', 'azqueue.js');
  if (!fs.existsSync(entry)) throw new Error('pkg/node is missing: run `make build` first');
  const { QueueService } = createRequire(import.meta.url)(entry);
  const azuriteMain = path.join(ROOT, 'node_modules', 'azurite', 'dist', 'src', 'queue', 'main.js');
  if (!fs.existsSync(azuriteMain)) throw new Error('Azurite is missing: run `npm install`');
  const azuriteVersion = JSON.parse(
    fs.readFileSync(path.join(ROOT, 'node_modules', 'azurite', 'package.json'), 'utf8'),
  ).version;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'azqueue-bench-'));
  const started = performance.now();
  const load0 = os.loadavg();
  /** @type {Server[]} */
  const servers = [];
  // Interrupted: stop the servers this run started, then exit.
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, async () => {
      for (const s of servers) await s.stop();
      fs.rmSync(scratch, { recursive: true, force: true });
      process.exit(130);
    });
  }
  console.log(
    `# azqueue server vs Azurite ${azuriteVersion} (queue service, both --inMemoryPersistence)\n`,
  );
  console.log(
    `${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), Node ${process.version}, load average at start ` +
      `${load0.map((x) => x.toFixed(1)).join(' ')}; ${PHASE_MS} ms per phase; loopback keep-alive HTTP/1.1, every request ` +
      'SharedKey-signed, one connection per client, each waiting for its answer; server CPU = utime+stime of the server ' +
      'process (/proc) over the phase; "busy" = that CPU time / phase time (100% = one core).\n',
  );
  // Fresh servers for each message size and for the depth test: Azurite keeps the payloads of
  // deleted messages in memory (about 70 MB per 1,500 × 48 KiB here) and stalls for minutes
  // once enough has piled up, which would otherwise leak into every later row.
  const start = async () => {
    const az = await startAzqueue('azqueue', path.join(ROOT, 'www'), scratch);
    servers.push(az);
    const azurite = await startServer(
      'azurite',
      [
        azuriteMain,
        '--inMemoryPersistence',
        '--silent',
        '--queuePort',
        '0',
        '--disableTelemetry',
        '--skipApiVersionCheck',
      ],
      /successfully listens on (http:\/\/[\d.]+:\d+)/,
      scratch,
    );
    servers.push(azurite);
    return [az, azurite];
  };
  const stopAll = async () => {
    for (const s of servers.splice(0)) await s.stop();
  };
  try {
    console.log('## Throughput\n');
    console.log(
      'Operations/s. put: Put Message; peek: Peek Messages (1); receive+delete: messages deleted/s, each client ' +
        'doing Get Messages(32) then one Delete per message, on the queue the put phase filled, topped up to at least ' +
        `${RECEIVE_DEPTH} messages (its depth in brackets, azqueue / Azurite). µs CPU/msg: server CPU per operation ` +
        '(per message deleted for receive+delete). Fresh servers for each size, warmed up first (not measured).\n',
    );
    console.log(
      '| op | size | clients | azqueue /s | Azurite /s | ratio | azqueue µs CPU/msg | Azurite µs CPU/msg | azqueue busy | Azurite busy | load generator busy (az / Azurite) | errors (az / Azurite) |',
    );
    console.log('|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    const errorNotes = [];
    for (const [label, size] of SIZES) {
      const [az, azurite] = await start();
      for (const s of [az, azurite]) await attempt(s, () => warmUp(s, size));
      progress(`start-up and warm-up ${label}`);
      // A server that failed at this size is not driven again at it (a stalled server would
      // otherwise stall every following row).
      const failed = new Set();
      for (const n of CLIENTS) {
        const run = (/** @type {Server} */ s) =>
          failed.has(s) ? null : attempt(s, () => throughput(s, size, n));
        const a = await run(az);
        if (!a) failed.add(az);
        const b = await run(azurite);
        if (!b) failed.add(azurite);
        if (!a || !b) {
          const who = [a ? null : az, b ? null : azurite]
            .filter(Boolean)
            .map((x) => /** @type {Server} */ (x).name)
            .join(' and ');
          console.log(
            `| (${label}, ${n} clients: ${who} failed or skipped after a failure, see below) ||||||||||||`,
          );
          continue;
        }
        for (const [op, key] of /** @type {const} */ ([
          ['put', 'put'],
          ['peek', 'peek'],
          ['receive+delete', 'recv'],
        ])) {
          const x = a[key];
          const y = b[key];
          const depthNote = key === 'recv' ? ` (${a.depth} / ${b.depth})` : '';
          console.log(
            `| ${op}${depthNote} | ${label} | ${n} | ${fmt(x.rate)} | ${fmt(y.rate)} | ${fmt(x.rate / y.rate, 1)}× | ` +
              `${us(x.serverCpu, x.count)} | ${us(y.serverCpu, y.count)} | ${pct(x.serverCpu, x.seconds)} | ${pct(y.serverCpu, y.seconds)} | ` +
              `${pct(x.clientCpu, x.seconds)} / ${pct(y.clientCpu, y.seconds)} | ${x.errors} / ${y.errors} |`,
          );
          if (x.lastError) errorNotes.push(`azqueue ${op} ${label} ×${n}: ${x.lastError}`);
          if (y.lastError) errorNotes.push(`Azurite ${op} ${label} ×${n}: ${y.lastError}`);
        }
        progress(`throughput ${label} ×${n}`);
      }
      await stopAll();
    }
    for (const e of errorNotes) console.log(`\nerror: ${e}`);
    for (const f of failures.splice(0)) console.log(`\nfailed: ${f}`);

    console.log(
      '\nFloor: a bare Node `http` server answering every request with a fixed 201 and a 380-byte body, ' +
        'driven by the same signed 100 B Put requests:\n',
    );
    console.log('| clients | requests/s | µs CPU/request | busy |');
    console.log('|---:|---:|---:|---:|');
    const floor = await startServer(
      'floor',
      ['--input-type=module', '-e', FLOOR_SERVER],
      /floor listening on (http:\/\/[\d.]+:\d+)/,
      scratch,
    );
    servers.push(floor);
    const putBody = `<QueueMessage><MessageText>${text(100)}</MessageText></QueueMessage>`;
    for (const n of CLIENTS) {
      const clients = Array.from({ length: n }, () => new Client(floor.port, 'floor'));
      await phase(floor, clients, 300, (c) => c.put(putBody)); // warm-up
      const r = await phase(floor, clients, PHASE_MS, (c) => c.put(putBody));
      for (const c of clients) c.close();
      console.log(
        `| ${n} | ${fmt(r.rate)} | ${us(r.serverCpu, r.count)} | ${pct(r.serverCpu, r.seconds)} |`,
      );
    }
    await stopAll();
    progress('floor');

    console.log('\n## Get Messages(32) latency against queue depth\n');
    console.log(
      'One client, 100 B messages, visibility timeout 600 s (received messages stay in the queue, invisible); ' +
        'wall-clock ms per call, median and maximum of up to 20 calls. The queue is filled by 32 clients; fresh servers.\n',
    );
    const [az, azurite] = await start();
    const azDepths = [1_000, 10_000, 100_000, 1_000_000].filter((d) => d <= MAX_DEPTH);
    const azRows = (await attempt(az, () => depthLatency(az, azDepths, FILL_S))) ?? [];
    progress('azqueue depth latency');
    const azuriteRows =
      (await attempt(azurite, () => depthLatency(azurite, [1_000, 10_000], 60))) ?? [];
    progress('Azurite depth latency');
    await stopAll();
    console.log('| depth | azqueue p50 ms | azqueue max ms | Azurite p50 ms | Azurite max ms |');
    console.log('|---:|---:|---:|---:|---:|');
    /**
     * @param {DepthRow | undefined} x
     * @param {string} missing
     */
    const cell = (x, missing) =>
      !x
        ? `${missing} | –`
        : x.skipped
          ? `${x.skipped} | –`
          : `${fmt(/** @type {number} */ (x.p50), 2)} | ${fmt(/** @type {number} */ (x.max), 2)}`;
    for (const target of azDepths) {
      console.log(
        `| ${fmt(target)} | ${cell(
          azRows.find((x) => x.target === target),
          'not reached',
        )} | ` +
          `${cell(
            azuriteRows.find((x) => x.target === target),
            'not run',
          )} |`,
      );
    }
    const fills = (/** @type {DepthRow[]} */ rows) =>
      rows
        .filter((r) => r.fillRate)
        .map((r) => `${fmt(/** @type {number} */ (r.fillRate))}/s up to ${fmt(r.target)}`)
        .join(', ');
    console.log(
      `\nFill rate (32 clients): azqueue ${fills(azRows)}; Azurite ${fills(azuriteRows)}.`,
    );
    for (const f of failures.splice(0)) console.log(`\nfailed: ${f}`);
  } finally {
    for (const s of servers) await s.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  }

  // The in-process throughput, against the previous build side by side, is
  // scripts/bench/inprocess.mjs (make bench runs it after this).
  console.log('\n## In-process `Queue` API (the wasm package in this process, memory store)\n');
  const depths = [1_000, 10_000, 100_000, 1_000_000];
  console.log(
    '\nreceiveMessages(32) in process against depth (100 B, visibility 600 s; median and maximum of up to 20 calls):\n',
  );
  console.log('| depth | p50 ms | max ms |');
  console.log('|---:|---:|---:|');
  const inProcessDepthRows = await inProcessDepth(QueueService, depths, FILL_S);
  progress('in-process depth latency');
  for (const r of inProcessDepthRows) {
    console.log(
      `| ${fmt(r.target)} | ${'p50' in r ? `${fmt(/** @type {number} */ (r.p50), 3)} | ${fmt(/** @type {number} */ (r.max), 3)}` : `${r.skipped} | –`} |`,
    );
  }
  console.log(
    `\nTotal ${fmt((performance.now() - started) / 1000)} s; load average at end ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}.`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  await main();
}
