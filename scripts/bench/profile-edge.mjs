// Where the edge Worker's CPU goes per Put: V8's sampling profiler inside workerd (miniflare's
// inspector), while clients put 1 KiB messages into one queue, as `bench-edge.mjs --floor` does.
// Prints the functions with the most self time (JavaScript, wasm by its name section, and V8's
// own entries such as `(program)` and `(garbage collector)`), in µs per Put.
//
// Reading it: sampling costs workerd about 1.6× the CPU per Put, and V8 gives a workerd API call
// (idFromName, a stub's fetch, Headers) no frame of its own, so a JavaScript function's self
// time includes the C++ it calls. It says where to look; `bench-edge-ab.mjs` says what a change
// saves.
//
// Usage: node --experimental-websocket scripts/bench/profile-edge.mjs [side]
//   side: azqueue (default), floor or table; the flag gives Node 20 its WebSocket.
// Environment: PROFILE_WARM_MS (default 10000) of puts before sampling, PROFILE_MS (default
// 5000) of sampled puts, PROFILE_CLIENTS (default 1), PROFILE_TOP (default 40 rows).

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Miniflare } from 'miniflare';
import { phase } from '../lib/bench-phase.mjs';
import { FLOOR, FloorClient, TABLE_FLOOR, floorOptions } from '../lib/edge-floor.mjs';
import { Client } from '../lib/raw-queue-client.mjs';
import { workerdPid } from '../lib/workerd-process.mjs';

const TEXT = 'azqueue-edge-bench-'.repeat(60).slice(0, 1024);
const PUT_BODY = `<QueueMessage><MessageText>${TEXT}</MessageText></QueueMessage>`;
const WARM_MS = Number(process.env.PROFILE_WARM_MS ?? 10_000);
const SAMPLE_MS = Number(process.env.PROFILE_MS ?? 5_000);
const CLIENTS = Number(process.env.PROFILE_CLIENTS ?? 1);
const TOP = Number(process.env.PROFILE_TOP ?? 40);
const SIDE = process.argv[2] ?? 'azqueue';
const PREFIX = { floor: FLOOR, table: TABLE_FLOOR }[SIDE];
if (SIDE !== 'azqueue' && !PREFIX) throw new Error(`side: azqueue, floor or table, not ${SIDE}`);

/**
 * One Chrome DevTools Protocol session over a WebSocket.
 * @param {string} url
 */
async function devtools(url) {
  if (typeof WebSocket !== 'function') {
    throw new Error('no WebSocket: run with node --experimental-websocket (Node 20)');
  }
  const ws = new WebSocket(url);
  await new Promise((resolve, reject) => {
    ws.addEventListener('open', resolve, { once: true });
    ws.addEventListener('error', reject, { once: true });
  });
  let id = 0;
  /** @type {Map<number, (m: any) => void>} */
  const waiting = new Map();
  ws.addEventListener('message', (event) => {
    const m = JSON.parse(String(event.data));
    if (m.id !== undefined) waiting.get(m.id)?.(m);
  });
  return {
    /**
     * @param {string} method
     * @param {object} [params]
     * @returns {Promise<any>}
     */
    send(method, params = {}) {
      const n = ++id;
      ws.send(JSON.stringify({ id: n, method, params }));
      return new Promise((resolve, reject) => {
        waiting.set(n, (m) => (m.error ? reject(new Error(m.error.message)) : resolve(m.result)));
      });
    },
    close: () => ws.close(),
  };
}

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'azqueue-profile-edge-'));
const inspectorPort = 9300 + Math.floor(Math.random() * 500);
const mf = new Miniflare({
  ...floorOptions(scratch),
  host: '127.0.0.1',
  port: 0,
  inspectorPort,
});
try {
  const port = Number((await mf.ready).port);
  const server = { name: 'workerd', pid: workerdPid(), port };
  const clients = Array.from({ length: CLIENTS }, () =>
    PREFIX ? new FloorClient(port, 'profile', PREFIX) : new Client(port, 'profile'),
  );
  if (!PREFIX) await /** @type {Client} */ (clients[0]).createQueue();
  const put = (/** @type {Client | FloorClient} */ c) => c.put(PUT_BODY);
  await phase(server, clients, WARM_MS, put);
  const targets = await (await fetch(`http://127.0.0.1:${inspectorPort}/json/list`)).json();
  // miniflare's own workers (core:entry, which every request passes first) are left out.
  const target = targets.find((/** @type {{ id: string }} */ t) => t.id.startsWith('core:user:'));
  if (!target) throw new Error(`no user worker among ${JSON.stringify(targets)}`);
  const session = await devtools(target.webSocketDebuggerUrl);
  await session.send('Profiler.enable');
  await session.send('Profiler.setSamplingInterval', { interval: 50 });
  await session.send('Profiler.start');
  const measured = await phase(server, clients, SAMPLE_MS, put);
  const { profile } = await session.send('Profiler.stop');
  session.close();
  for (const c of clients) c.close();
  report(profile, measured);
} finally {
  await mf.dispose();
  fs.rmSync(scratch, { recursive: true, force: true });
}

/**
 * What kind of code a profile node runs.
 * @param {{ functionName: string, url: string }} f
 */
function kindOf(f) {
  if (
    f.url.startsWith('wasm') ||
    f.functionName.startsWith('wasm-') ||
    f.functionName.startsWith('js-to-wasm')
  )
    return 'wasm';
  if (f.url.endsWith('azqueue.js')) return "wasm-bindgen's glue";
  if (f.url) return `JavaScript: ${path.basename(path.dirname(f.url))}/${path.basename(f.url)}`;
  if (f.functionName.startsWith('(')) return f.functionName;
  return 'workerd and V8 built-ins';
}

/**
 * Self time by function, in µs per Put.
 * @param {{ nodes: { id: number, callFrame: { functionName: string, url: string,
 *   lineNumber: number }, positionTicks?: { line: number, ticks: number }[] }[], samples: number[], timeDeltas: number[] }} profile
 * @param {import('../lib/bench-phase.mjs').Measured} measured
 */
function report(profile, measured) {
  /** @type {Map<number, string>} */
  const names = new Map();
  for (const { id, callFrame: f } of profile.nodes) {
    const file = f.url ? path.basename(f.url) : '';
    names.set(
      id,
      `${f.functionName || '(anonymous)'} ${file}${file ? `:${f.lineNumber + 1}` : ''}`,
    );
  }
  /** @type {Map<string, number>} µs of samples by name */
  const self = new Map();
  let total = 0;
  profile.samples.forEach((node, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    const name = /** @type {string} */ (names.get(node));
    self.set(name, (self.get(name) ?? 0) + dt);
    total += dt;
  });
  const perPut = (/** @type {number} */ us) => (us / measured.count).toFixed(1);
  console.log(
    `${SIDE}: ${measured.count} puts in ${measured.seconds.toFixed(1)} s, workerd CPU ` +
      `${Math.round((measured.serverCpu / measured.count) * 1e6)} µs per Put; ` +
      `isolate samples ${perPut(total)} µs per Put (idle included as (idle))`,
  );
  /** @type {Map<string, number>} µs by kind of code */
  const kinds = new Map();
  for (const { id, callFrame: f } of profile.nodes) names.set(-id, kindOf(f));
  profile.samples.forEach((node, i) => {
    const kind = /** @type {string} */ (names.get(-node));
    kinds.set(kind, (kinds.get(kind) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  for (const [kind, us] of [...kinds].sort((a, b) => b[1] - a[1]))
    console.log(`${perPut(us).padStart(8)}  [${kind}]`);
  const rows = [...self].sort((a, b) => b[1] - a[1]).slice(0, TOP);
  for (const [name, us] of rows) console.log(`${perPut(us).padStart(8)}  ${name}`);
  // Lines of the JavaScript functions with the most self time (V8's position ticks).
  /** @type {Map<string, number>} ticks by `file:line` */
  const lines = new Map();
  for (const { callFrame: f, positionTicks } of profile.nodes) {
    if (!f.url || f.url.startsWith('wasm')) continue;
    for (const { line, ticks } of positionTicks ?? []) {
      const at = `${f.functionName || '(anonymous)'} ${path.basename(f.url)}:${line}`;
      lines.set(at, (lines.get(at) ?? 0) + ticks);
    }
  }
  const samples = profile.samples.length;
  const totalUs = profile.timeDeltas.reduce((a, b) => a + b, 0);
  console.log('\nlines (µs per Put):');
  for (const [at, ticks] of [...lines].sort((a, b) => b[1] - a[1]).slice(0, TOP / 2)) {
    console.log(`${perPut((ticks / samples) * totalUs).padStart(8)}  ${at}`);
  }
}
