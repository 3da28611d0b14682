// Edge benchmark: the edge Worker under workerd (hosts/edge/dev.mjs, one Durable Object per queue,
// SQLite storage) and the Node server with its durable journal (hosts/node/server.mjs --location), side by
// side in one run, driven by the same load generator as scripts/bench/node.mjs (scripts/lib/raw-queue-client.mjs: keep-alive
// HTTP/1.1 on raw sockets, every request SharedKey-signed). Both answer only after the change is
// on disk.
//
// Measures put and receive+delete of 1 KiB messages with 8 and 64 clients, spread over 1 queue
// and over 16 queues (clients take the queues in turn), and prints markdown tables with the
// ratios: 16 queues against 1 (per server) and edge against Node (per row). Server CPU is read
// from /proc (for the edge, workerd's).
//
// Then the floor: CPU per Put of one azqueue queue against a bare SQLite-backed Durable Object
// that inserts each request's body as one row (scripts/lib/edge-floor-worker.mjs), in the same
// workerd, phases alternating, 1 and 8 clients; the ratio is the median of the rounds' ratios.
// A third side stores the body as azqueue's table stores a message, so the ratio splits into
// azqueue's storage (table ÷ floor) and the rest of its Put (azqueue ÷ table).
//
// Usage: node scripts/bench/edge.mjs [--floor]   (--floor: the floor comparison alone)
// Environment: BENCH_PHASE_MS (default 3000) per phase; BENCH_FLOOR_ROUNDS (default 5);
// BENCH_FLOOR_WARM_MS (default 10000) of puts per side before the floor's rounds.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Miniflare } from 'miniflare';
import { phase } from '../lib/bench-phase.mjs';
import { Client } from '../lib/raw-queue-client.mjs';
import { FloorClient, TABLE_FLOOR, floorOptions } from '../lib/edge-floor.mjs';
import { reconnecting } from '../lib/reconnecting.mjs';
import { workerdPid } from '../lib/workerd-process.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PHASE_MS = Number(process.env.BENCH_PHASE_MS ?? 3000);
const TEXT = 'azqueue-edge-bench-'.repeat(60).slice(0, 1024);
const QUEUES = [1, 16];
const CLIENTS = [8, 64];
const PUT_BODY = `<QueueMessage><MessageText>${TEXT}</MessageText></QueueMessage>`;
const FLOOR_ROUNDS = Number(process.env.BENCH_FLOOR_ROUNDS ?? 5);
const FLOOR_CLIENTS = [1, 8];
// V8 compiles the wasm's hot functions again, optimized, on background threads during the first
// seconds of puts, and workerd's CPU from /proc counts those threads: in `perf` samples of
// workerd by thread, V8's workers took 11% of its CPU over 5 s of puts after 1 s of warm-up, 3%
// after 20 s. The floor has a few lines of JavaScript to compile. So both sides are warmed this
// long before they are compared.
const FLOOR_WARM_MS = Number(process.env.BENCH_FLOOR_WARM_MS ?? 10_000);
/** @typedef {'azqueue' | 'floor' | 'table'} Side */
/** @type {Side[]} */
const SIDES = ['azqueue', 'floor', 'table'];

/** @typedef {import('../lib/bench-phase.mjs').Measured} Measured */
/** @typedef {{ name: string, port: number, pid: number, stop: () => Promise<unknown> }} Started */

/**
 * Spawns a server; resolves { name, port, pid (the process doing the work), stop() }.
 * @param {string} name
 * @param {string[]} args
 * @param {boolean} childIsWorker the work happens in the spawned process's child (workerd)
 * @returns {Promise<Started>}
 */
function start(name, args, childIsWorker) {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name}: no ready line:\n${out}`));
    }, 60_000);
    const onData = (/** @type {Buffer} */ d) => {
      out += d;
      const m = /azqueue ready: queue (http:\/\/[\d.]+:\d+)\//.exec(out);
      if (!m) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      // dev.mjs only supervises: the work happens in its child, workerd.
      const pid = childIsWorker
        ? Number(
            fs
              .readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8')
              .trim()
              .split(/\s+/)[0],
          )
        : /** @type {number} a spawned process has a pid */ (child.pid);
      resolve({
        name,
        port: Number(new URL(m[1]).port),
        pid,
        stop: () =>
          new Promise((done) => {
            child.once('exit', done);
            child.kill('SIGTERM');
          }),
      });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (d) => {
      out += d;
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited ${code}:\n${out}`));
    });
  });
}

let serial = 0;

/**
 * Runs `fn` with a client of each queue in turn.
 * @param {{ port: number }} server
 * @param {string[]} names
 * @param {(c: Client) => Promise<unknown>} fn
 */
async function each(server, names, fn) {
  for (const name of names) {
    const c = new Client(server.port, name);
    try {
      await fn(c);
    } finally {
      c.close();
    }
  }
}

/**
 * One load-generating client that takes its queues in turn (with fewer clients than queues, a
 * client serves several): one connection per queue, one request at a time.
 */
class Rotating {
  /**
   * @param {number} port
   * @param {string[]} names
   */
  constructor(port, names) {
    this.clients = names.map((name) => new Client(port, name));
    this.next = 0;
  }

  get errors() {
    return this.clients.reduce((n, c) => n + c.errors, 0);
  }

  /** @param {number} n */
  set errors(n) {
    for (const c of this.clients) c.errors = n;
  }

  get lastError() {
    return this.clients.find((c) => c.lastError)?.lastError ?? '';
  }

  /** @param {string} e */
  set lastError(e) {
    for (const c of this.clients) c.lastError = e;
  }

  /** @returns {Client} */
  turn() {
    const c = this.clients[this.next];
    this.next = (this.next + 1) % this.clients.length;
    return c;
  }

  close() {
    for (const c of this.clients) c.close();
  }
}

/**
 * put then receive+delete, with `nClients` clients over `nQueues` fresh queues.
 * @param {Started} server
 * @param {number} nQueues
 * @param {number} nClients
 */
async function run(server, nQueues, nClients) {
  const names = Array.from({ length: nQueues }, () => `edge-bench-${process.pid}-${++serial}`);
  const queuesOf = (/** @type {number} */ i) =>
    nClients >= nQueues ? [names[i % nQueues]] : names.filter((_, q) => q % nClients === i);
  const clients = Array.from(
    { length: nClients },
    (_, i) => new Rotating(server.port, queuesOf(i)),
  );
  await each(server, names, (c) => c.createQueue());
  const put = await phase(server, clients, PHASE_MS, (c) =>
    c.turn().put(`<QueueMessage><MessageText>${TEXT}</MessageText></QueueMessage>`),
  );
  const receive = await phase(server, clients, PHASE_MS, async (c) => {
    const one = c.turn();
    const got = await one.receive(16, 30);
    if (got.length === 0) return null;
    let n = 0;
    for (const [id, receipt] of got) n += await one.delete(id, receipt);
    return n;
  });
  await each(server, names, (c) => c.deleteQueue());
  for (const c of clients) c.close();
  /** @type {[string, typeof put][]} */
  const phases = [
    ['put', put],
    ['receive+delete', receive],
  ];
  for (const [what, p] of phases) {
    if (p.errors)
      throw new Error(`${server.name} ${what}: ${p.errors} errors, last ${p.lastError}`);
  }
  return { put, receive };
}

const rate = (/** @type {Measured} */ p) => Math.round(p.rate).toLocaleString('en-US');
const cpuPer = (/** @type {Measured} */ p) =>
  p.count ? Math.round((p.serverCpu / p.count) * 1e6).toLocaleString('en-US') : '–';
const ratio = (/** @type {number} */ a, /** @type {number} */ b) =>
  b > 0 ? `${(a / b).toFixed(2)}×` : '–';

async function main() {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'azqueue-bench-edge-'));
  const servers = [];
  try {
    const load0 = os.loadavg();
    servers.push(
      await start(
        'node',
        [
          path.join(ROOT, 'hosts', 'node', 'server.mjs'),
          '--location',
          path.join(scratch, 'journal'),
          '--silent',
          '--queuePort',
          '0',
          '--webPort',
          '0',
        ],
        false,
      ),
    );
    servers.push(
      await start(
        'edge',
        [
          path.join(ROOT, 'hosts', 'edge', 'dev.mjs'),
          '--port',
          '0',
          '--persist',
          path.join(scratch, 'objects'),
        ],
        true,
      ),
    );
    /** @type {Record<string, { put: Measured, receive: Measured }>} by `<server>/<queues>/<clients>` */
    const results = {};
    for (const nQueues of QUEUES) {
      for (const nClients of CLIENTS) {
        for (const server of servers) {
          process.stderr.write(`${server.name}: ${nQueues} queue(s), ${nClients} clients\n`);
          results[`${server.name}/${nQueues}/${nClients}`] = await run(server, nQueues, nClients);
        }
      }
    }
    const load1 = os.loadavg();
    console.log('# Edge Worker under workerd vs the Node server, both durable\n');
    console.log(
      `${os.cpus().length} CPUs, Node ${process.version}, load average ${load0[0].toFixed(1)} at start and ` +
        `${load1[0].toFixed(1)} at end; ${PHASE_MS} ms per phase; 1 KiB messages; receive+delete = Get Messages(16), ` +
        'then Delete each. Edge: hosts/edge/dev.mjs (workerd, SQLite Durable Objects); Node: hosts/node/server.mjs --location ' +
        '(journal, fsync). µs CPU = server CPU per message.\n',
    );
    console.log(
      '| op | clients | queues | Node/s | edge/s | edge ÷ Node | Node 16q ÷ 1q | edge 16q ÷ 1q | Node µs CPU | edge µs CPU |',
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const op of /** @type {const} */ (['put', 'receive'])) {
      for (const nClients of CLIENTS) {
        for (const nQueues of QUEUES) {
          const n = results[`node/${nQueues}/${nClients}`][op];
          const e = results[`edge/${nQueues}/${nClients}`][op];
          const n1 = results[`node/1/${nClients}`][op];
          const e1 = results[`edge/1/${nClients}`][op];
          const scale = nQueues === 1 ? ['', ''] : [ratio(n.rate, n1.rate), ratio(e.rate, e1.rate)];
          console.log(
            `| ${op === 'put' ? 'put' : 'receive+delete'} | ${nClients} | ${nQueues} | ${rate(n)} | ${rate(e)} | ` +
              `${ratio(e.rate, n.rate)} | ${scale[0]} | ${scale[1]} | ${cpuPer(n)} | ${cpuPer(e)} |`,
          );
        }
      }
    }
  } finally {
    for (const s of servers) await s.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

const median = (/** @type {number[]} */ xs) =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * CPU per Put, azqueue against the floor, in one workerd: for each client count, FLOOR_ROUNDS
 * rounds of one phase each, alternating which goes first; workerd's CPU from /proc.
 */
async function floor() {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'azqueue-bench-floor-'));
  const mf = new Miniflare({
    ...floorOptions(scratch),
    host: '127.0.0.1',
    port: 0,
  });
  try {
    const port = Number((await mf.ready).port);
    const server = { name: 'workerd', pid: workerdPid(), port };
    const load0 = os.loadavg();
    const rows = [];
    const stats = { dropped: 0, slowest: 0 };
    const put = reconnecting((/** @type {Client | FloorClient} */ c) => c.put(PUT_BODY), stats);
    for (const nClients of FLOOR_CLIENTS) {
      const name = `floor-bench-${nClients}`;
      await each(server, [name], (c) => c.createQueue());
      const sides = {
        azqueue: Array.from({ length: nClients }, () => new Client(port, name)),
        floor: Array.from({ length: nClients }, () => new FloorClient(port, name)),
        table: Array.from({ length: nClients }, () => new FloorClient(port, name, TABLE_FLOOR)),
      };
      /** @type {Record<Side, number[]>} µs of workerd CPU per Put, one per round */
      const cpu = { azqueue: [], floor: [], table: [] };
      /** @type {Record<'total' | 'storage' | 'rest', number[]>} the rounds' ratios */
      const ratios = { total: [], storage: [], rest: [] };
      // A warm-up phase each first: the objects open and the code they run is compiled.
      for (const side of SIDES) await phase(server, sides[side], FLOOR_WARM_MS, put);
      for (let round = 0; round < FLOOR_ROUNDS; round++) {
        // Each side goes first, second and third in turn.
        const order = SIDES.map((_, i) => SIDES[(i + round) % SIDES.length]);
        /** @type {Record<Side, number>} µs of workerd CPU per Put, this round */
        const perPut = { azqueue: 0, floor: 0, table: 0 };
        for (const side of order) {
          process.stderr.write(`floor: ${nClients} client(s), round ${round + 1}, ${side}\n`);
          const p = await phase(server, sides[side], PHASE_MS, put);
          if (p.errors) throw new Error(`${side} put: ${p.errors} errors, last ${p.lastError}`);
          perPut[side] = (p.serverCpu / p.count) * 1e6;
          cpu[side].push(perPut[side]);
        }
        ratios.total.push(perPut.azqueue / perPut.floor);
        ratios.storage.push(perPut.table / perPut.floor);
        ratios.rest.push(perPut.azqueue / perPut.table);
      }
      for (const c of [...sides.azqueue, ...sides.floor, ...sides.table]) c.close();
      rows.push({ nClients, cpu, ratios });
    }
    const load1 = os.loadavg();
    console.log('\n# Put against a bare Durable Object (the floor), one workerd\n');
    console.log(
      `${os.cpus().length} CPUs, load average ${load0[0].toFixed(1)} at start and ${load1[0].toFixed(1)} at end; ` +
        `${FLOOR_WARM_MS} ms of puts per side first, then ${FLOOR_ROUNDS} rounds of ${PHASE_MS} ms per side, alternating; 1 KiB messages into one queue (azqueue: ` +
        'Put Message, SharedKey-signed) or one object (floor: the same body inserted as one row by ' +
        'ctx.storage.sql.exec, answered 201; table: the body stored as azqueue stores a message, ' +
        'one INSERT into the queue table with its indexes and the trigger that keeps its counts, ' +
        "answered 201; every side gets azqueue's signed request). µs CPU = workerd CPU per Put, median of the rounds; ratio = median of the rounds' ratios.\n",
    );
    console.log(
      `Requests redone after workerd closed their connection: ${stats.dropped}; slowest request ${stats.slowest.toFixed(0)} ms.\n`,
    );
    console.log(
      '| clients | azqueue µs CPU | floor µs CPU | table µs CPU | azqueue ÷ floor | table ÷ floor | azqueue ÷ table | rounds (azqueue ÷ floor) |',
    );
    console.log('|---:|---:|---:|---:|---:|---:|---:|---|');
    for (const { nClients, cpu, ratios } of rows) {
      const us = (/** @type {number[]} */ xs) => Math.round(median(xs));
      const x = (/** @type {number[]} */ xs) => `${median(xs).toFixed(2)}×`;
      console.log(
        `| ${nClients} | ${us(cpu.azqueue)} | ${us(cpu.floor)} | ${us(cpu.table)} | ` +
          `${x(ratios.total)} | ${x(ratios.storage)} | ${x(ratios.rest)} | ` +
          `${ratios.total.map((r) => r.toFixed(2)).join(', ')} |`,
      );
    }
  } finally {
    await mf.dispose();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

if (process.argv[2] !== '--floor') await main();
await floor();
