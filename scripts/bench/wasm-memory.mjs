// Where a queue's wasm memory goes, measured in-process on the web build (the wasm workerd runs),
// each measurement on a fresh wasm instance (the glue imported under its own URL), reading the
// instance's memory size (which only grows: it is the peak, as in an isolate):
// - fill (adapter): N puts through a storage adapter that keeps records in a JS Map and commits
//   as the Durable Object's SqliteStore does (one batch at a time), as a queue object fills;
// - fill (memory): the same puts with `store: 'memory'`, so the adapter's share shows;
// - load: a fresh instance opening an adapter whose load() yields the fill's N records one row
//   at a time, as a queue object's cold start does.
// Usage: node scripts/bench/wasm-memory.mjs [messages=50000] [bytes=1024] [clients=32]

import fs from 'node:fs';
import path from 'node:path';

const N = Number(process.argv[2] ?? 50_000);
const SIZE = Number(process.argv[3] ?? 1024);
const CLIENTS = Number(process.argv[4] ?? 32);
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const WASM = fs.readFileSync(path.join(ROOT, 'pkg', 'web', 'azqueue_bg.wasm'));
const GLUE = new URL('../../pkg/web/azqueue.js', import.meta.url).href;
const TEXT = 'x'.repeat(SIZE);
let instances = 0;

/** A fresh wasm instance: { QueueService, bytes() } with bytes() its memory size now. */
async function fresh() {
  /** @type {typeof import('../../pkg/web/azqueue.js')} */
  const glue = await import(`${GLUE}?instance=${++instances}`);
  const exports = glue.initSync({ module: new WebAssembly.Module(WASM) });
  return { QueueService: glue.QueueService, bytes: () => exports.memory.buffer.byteLength };
}

/**
 * A storage adapter over `records` (a Map), loading row by row like SqliteStore.rows().
 * @param {Map<string, string>} records
 * @returns {import('../../pkg/web/azqueue.js').StorageAdapter}
 */
function mapAdapter(records) {
  return {
    *load() {
      for (const [key, value] of records) yield { key, value };
    },
    commit(batch) {
      return new Promise((resolve) => setTimeout(resolve, 0)).then(() => {
        for (const op of batch) {
          if (op.op === 'put') records.set(op.key, op.value);
          else if (op.op === 'delete') records.delete(op.key);
          else throw new Error(`unexpected ${op.op}`);
        }
      });
    },
  };
}

/** @param {import('../../pkg/web/azqueue.js').OpenOptions['store']} store */
async function fill(store) {
  const { QueueService, bytes } = await fresh();
  const service = await QueueService.open({ store });
  await service.createQueue('memory');
  const q = service.queue('memory');
  const base = bytes();
  let sent = 0;
  const client = async () => {
    while (sent < N) {
      sent++;
      await q.sendMessage(TEXT, { messageTimeToLive: -1 });
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
  return { base, after: bytes() };
}

/** @param {Map<string, string>} records */
async function load(records) {
  const { QueueService, bytes } = await fresh();
  const base = bytes();
  const service = await QueueService.open({ store: mapAdapter(records) });
  // The first call waits for the load to finish.
  const { approximateMessagesCount: count } = await service.queue('memory').getProperties();
  return { base, after: bytes(), count };
}

const per = (/** @type {{ base: number, after: number }} */ { base, after }) =>
  ((after - base) / N).toFixed(0);
const mib = (/** @type {number} */ b) => (b / 2 ** 20).toFixed(1);
/** @type {Map<string, string>} */
const records = new Map();
const viaAdapter = await fill(mapAdapter(records));
const inMemory = await fill('memory');
const loaded = await load(records);
let stored = 0;
for (const [key, value] of records) if (key.startsWith('message/')) stored += value.length;
console.log(`${N} messages of ${SIZE} B (stored records ${(stored / N).toFixed(0)} B each):`);
console.log(
  `  fill (adapter): ${per(viaAdapter)} B per message (wasm memory ${mib(viaAdapter.base)} → ${mib(viaAdapter.after)} MiB)`,
);
console.log(
  `  fill (memory):  ${per(inMemory)} B per message (wasm memory ${mib(inMemory.base)} → ${mib(inMemory.after)} MiB)`,
);
console.log(
  `  cold load:      ${per(loaded)} B per message (wasm memory ${mib(loaded.base)} → ${mib(loaded.after)} MiB, ${loaded.count} messages)`,
);
