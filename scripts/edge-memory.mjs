// Measures what one queue object of the edge Worker holds under workerd: fills one queue with
// 1 KiB messages through the official SDK, sampling the isolate's wasm memory, then restarts
// workerd on the same storage and times the cold object's first request.
// Usage: node scripts/edge-memory.mjs [messages=20000] [clients=32].
// With `--cold N [bytes=1024]`: puts one message of that size in one queue, copies its row into
// N (scripts/edge-clone-messages.bun.mjs, straight into the object's SQLite), then restarts
// workerd ROUNDS times, alternating which queue the first request goes to, the deep one or an
// empty one, and prints both first requests (each pays the wasm instantiation) side by side,
// with the wasm memory after each and the cost of Put, Get(32)+Delete and Peek at each depth.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Miniflare } from 'miniflare';
import { QueueServiceClient } from '@azure/storage-queue';
import { workerOptions } from '../hosts/edge/miniflare-options.mjs';

const COLD = process.argv[2] === '--cold';
const TOTAL = Number(process.argv[COLD ? 3 : 2] ?? 20_000);
const CLIENTS = COLD ? 1 : Number(process.argv[3] ?? 32);
const SIZE = COLD ? Number(process.argv[4] ?? 1024) : 1024;
const KEY =
  'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';
const TEXT = 'x'.repeat(SIZE);
const QUEUE = 'memory';

async function start(dir) {
  const mf = new Miniflare({
    ...workerOptions({ persist: dir }),
    host: '127.0.0.1',
    port: 0,
  });
  const url = await mf.ready;
  const origin = `http://127.0.0.1:${url.port}`;
  const cs = `DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=${KEY};QueueEndpoint=${origin}/devstoreaccount1;`;
  const service = QueueServiceClient.fromConnectionString(cs);
  return {
    mf,
    origin,
    queue: service.getQueueClient(QUEUE),
    empty: service.getQueueClient('empty'),
  };
}

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

/** Times a restarted object's first request (its load) and the next, then stops workerd. */
async function coldLoad(mf, origin, queue, what) {
  const t0 = performance.now();
  const props = await queue.getProperties();
  const coldMs = performance.now() - t0;
  const t1 = performance.now();
  await queue.getProperties();
  const warmMs = performance.now() - t1;
  const after = await memory(origin);
  console.log(
    `cold load of ${what}: first request ${coldMs.toFixed(0)} ms for ${props.approximateMessagesCount} messages (next request ${warmMs.toFixed(1)} ms); wasm memory then ${(after.wasmMemoryBytes / 2 ** 20).toFixed(1)} MiB`,
  );
  await mf.dispose();
}

const memory = async (origin, queue = QUEUE) =>
  (await fetch(`${origin}/_azqueue/memory/devstoreaccount1/${queue}`)).json();

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const OPS = Number(process.env.OPS ?? 200);

/** @param {number[]} xs */
function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/**
 * Wall time per operation, one client, OPS of each: Put, then Get(32) with a Delete of each
 * message got (per message), then Peek(32). The puts go to the back of the queue, so what Get
 * takes at depth is the oldest messages, as a consumer would.
 */
async function timeOps(q) {
  const each = async (fn, n = OPS) => {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) await fn();
    return (performance.now() - t0) / n;
  };
  const put = await each(() => q.sendMessage(TEXT));
  let deleted = 0;
  const t0 = performance.now();
  for (let i = 0; i < OPS / 32; i++) {
    const got = await q.receiveMessages({ numberOfMessages: 32 });
    for (const m of got.receivedMessageItems) {
      await q.deleteMessage(m.messageId, m.popReceipt);
      deleted++;
    }
  }
  const getDelete = (performance.now() - t0) / Math.max(1, deleted);
  const peek = await each(() => q.peekMessages({ numberOfMessages: 32 }));
  return { put, getDelete, peek };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'azqueue-edge-memory-'));
try {
  let { mf, origin, queue, empty } = await start(dir);
  await queue.create();
  const base = await memory(origin);
  console.log(`empty: wasm memory ${(base.wasmMemoryBytes / 2 ** 20).toFixed(1)} MiB`);
  if (COLD) {
    await queue.sendMessage(TEXT, { messageTimeToLive: -1 });
    await empty.create();
    await mf.dispose();
    const objects = path.join(dir, '-QueueObject');
    const file = fs
      .readdirSync(objects)
      .find((f) => f.endsWith('.sqlite') && f !== 'metadata.sqlite');
    const { execFileSync } = await import('node:child_process');
    execFileSync(path.join(ROOT, 'node_modules', '.bin', 'bun'), [
      path.join(ROOT, 'scripts', 'edge-clone-messages.bun.mjs'),
      path.join(objects, file),
      String(TOTAL),
    ]);
    const rows = [];
    for (let round = 0; round < ROUNDS; round++) {
      for (const deep of round % 2 ? [false, true] : [true, false]) {
        const s = await start(dir);
        const q = deep ? s.queue : s.empty;
        const t0 = performance.now();
        const props = await q.getProperties();
        const firstMs = performance.now() - t0;
        const ops = await timeOps(q);
        const m = await memory(s.origin, deep ? QUEUE : 'empty');
        rows.push({
          deep,
          depth: props.approximateMessagesCount,
          firstMs,
          ...ops,
          wasm: m.wasmMemoryBytes,
        });
        await s.mf.dispose();
      }
    }
    for (const deep of [false, true]) {
      const mine = rows.filter((r) => r.deep === deep);
      const med = (/** @type {string} */ k) => median(mine.map((r) => r[k]));
      console.log(
        `depth ${mine[0].depth}: first request after restart ${med('firstMs').toFixed(0)} ms (median of ${mine.length}); Put ${med('put').toFixed(2)} ms, Get(32)+Delete ${med('getDelete').toFixed(2)} ms, Peek ${med('peek').toFixed(2)} ms per operation; wasm memory ${(Math.max(...mine.map((r) => r.wasm)) / 2 ** 20).toFixed(1)} MiB`,
      );
    }
    process.exit(0);
  }
  let sent = 0;
  const started = performance.now();
  const step = Math.max(1000, Math.floor(TOTAL / 5));
  let next = step;
  const client = async () => {
    while (sent < TOTAL) {
      sent++;
      await queue.sendMessage(TEXT, { messageTimeToLive: -1 });
    }
  };
  const sampler = async () => {
    while (sent < TOTAL) {
      await new Promise((r) => setTimeout(r, 200));
      if (sent >= next) {
        next += step;
        const m = await memory(origin);
        console.log(
          `${m.messageCount} messages: wasm memory ${(m.wasmMemoryBytes / 2 ** 20).toFixed(1)} MiB`,
        );
      }
    }
  };
  await Promise.all([...Array.from({ length: CLIENTS }, client), sampler()]);
  const secs = (performance.now() - started) / 1000;
  const full = await memory(origin);
  const perMessage = (full.wasmMemoryBytes - base.wasmMemoryBytes) / full.messageCount;
  console.log(
    `${full.messageCount} messages of 1 KiB put in ${secs.toFixed(1)} s (${(full.messageCount / secs).toFixed(0)}/s); wasm memory ${(full.wasmMemoryBytes / 2 ** 20).toFixed(1)} MiB, ${perMessage.toFixed(1)} B per message`,
  );
  await mf.dispose();

  ({ mf, origin, queue } = await start(dir));
  await coldLoad(mf, origin, queue, `${TOTAL} messages of 1 KiB`);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
