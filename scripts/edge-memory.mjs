// Measures what one queue object of the edge Worker holds under workerd: fills one queue with
// 1 KiB messages through the official SDK, sampling the isolate's wasm memory, then restarts
// workerd on the same storage and times the cold object's first request (the load of every
// message). Usage: node scripts/edge-memory.mjs [messages=20000] [clients=32].
// With `--cold N [bytes=1024]`: puts one message of that size, copies its record into N
// (scripts/edge-clone-messages.bun.mjs), restarts and times the cold load of N messages.

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
  // A budget far above the isolate's, so this measures rather than meets the bound.
  const mf = new Miniflare({
    ...workerOptions({ persist: dir, bindings: { AZQUEUE_ENGINE_BUDGET: String(2 ** 40) } }),
    host: '127.0.0.1',
    port: 0,
  });
  const url = await mf.ready;
  const origin = `http://127.0.0.1:${url.port}`;
  const cs = `DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=${KEY};QueueEndpoint=${origin}/devstoreaccount1;`;
  return { mf, origin, queue: QueueServiceClient.fromConnectionString(cs).getQueueClient(QUEUE) };
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

const memory = async (origin) =>
  (await fetch(`${origin}/_azqueue/memory/devstoreaccount1/${QUEUE}`)).json();

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'azqueue-edge-memory-'));
try {
  let { mf, origin, queue } = await start(dir);
  await queue.create();
  const base = await memory(origin);
  console.log(`empty: wasm memory ${(base.wasmMemoryBytes / 2 ** 20).toFixed(1)} MiB`);
  if (COLD) {
    await queue.sendMessage(TEXT, { messageTimeToLive: -1 });
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
    ({ mf, origin, queue } = await start(dir));
    await coldLoad(mf, origin, queue, `${TOTAL} messages of ${SIZE} B`);
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
          `${m.messageCount} messages: wasm memory ${(m.wasmMemoryBytes / 2 ** 20).toFixed(1)} MiB, estimate ${(m.isolateEstimateBytes / 2 ** 20).toFixed(1)} MiB`,
        );
      }
    }
  };
  await Promise.all([...Array.from({ length: CLIENTS }, client), sampler()]);
  const secs = (performance.now() - started) / 1000;
  const full = await memory(origin);
  const perMessage = (full.wasmMemoryBytes - base.wasmMemoryBytes) / full.messageCount;
  console.log(
    `${full.messageCount} messages of 1 KiB put in ${secs.toFixed(1)} s (${(full.messageCount / secs).toFixed(0)}/s); wasm memory ${(full.wasmMemoryBytes / 2 ** 20).toFixed(1)} MiB, ${perMessage.toFixed(0)} B per message (the estimate: ${(full.isolateEstimateBytes / full.messageCount).toFixed(0)} B)`,
  );
  await mf.dispose();

  ({ mf, origin, queue } = await start(dir));
  await coldLoad(mf, origin, queue, `${TOTAL} messages of 1 KiB`);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
