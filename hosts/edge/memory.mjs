// The memory bound of queue objects. A Worker isolate has 128 MB, and its one wasm instance (whose
// memory only grows) is shared by every object the isolate runs; the engine keeps each open
// queue's messages in that memory. So Put Message is refused with Azure's throttling answer,
// 503 ServerBusy, before it could take the isolate past the bound, never an out-of-memory crash
// (which would poison the wasm instance for every object in the isolate).
//
// What a queue costs is estimated from what its storage holds: the bytes of its message records
// plus a fixed cost per message for the engine's indexes. The constants are measured
// (tests/edge/memory.test.mjs and docs/edge.md, "Memory"): ENGINE_BUDGET is what the engine may use
// of the isolate, leaving room for workerd's own share, the JS glue and a request in flight.

/**
 * Engine bytes per message beyond its stored record (id map entry, two ordered indexes, the
 * text's allocation, the load's list of records, the allocator's slack and the memory's
 * headroom). A cold load is the peak, since wasm memory never shrinks. Measured in-process on
 * the web build (scripts/wasm-memory.mjs and a load sampled at 20k–100k messages): the worst was
 * 1,619 B per message of 1 KiB (records of 1,174 B) at 66k, just past the load's list doubling
 * its capacity; under workerd (scripts/edge-memory.mjs --cold) 100k messages took 136 MiB with
 * 1 KiB texts and 47 MiB with 100 B texts.
 */
export const PER_MESSAGE_BYTES = 500;
/** What all open queues of one isolate may hold together. */
export const ENGINE_BUDGET = 96 * 1024 * 1024;

/**
 * An open queue object as this file sees it: its object id, and its store's running totals.
 * @typedef {{ key: string, store: { messageBytes: number, messageCount: number } }} Opened
 */

/**
 * Estimated engine bytes of each open queue object of this isolate, by object id.
 * @type {Map<string, number>}
 */
const held = new Map();
/** @type {FinalizationRegistry<string>} */
const forget = new FinalizationRegistry((key) => held.delete(key));

/** @param {Opened['store']} store */
function estimate(store) {
  return store.messageBytes + store.messageCount * PER_MESSAGE_BYTES;
}

/**
 * Records what the object holds now (after each request).
 * @param {Opened} opened
 */
export function release(opened) {
  if (!held.has(opened.key)) forget.register(opened, opened.key);
  held.set(opened.key, estimate(opened.store));
}

/**
 * Whether a Put Message of this request's size still fits the isolate's `budget` (bytes).
 * @param {Opened} opened
 * @param {Request} request
 * @param {number} [budget]
 */
export function admits(opened, request, budget = ENGINE_BUDGET) {
  release(opened);
  const incoming = 2 * Number(request.headers.get('content-length') ?? 0) + PER_MESSAGE_BYTES;
  let total = 0;
  for (const bytes of held.values()) total += bytes;
  return total + incoming <= budget;
}

/** The isolate's estimated total, for the inspection of limits. */
export function heldBytes() {
  let total = 0;
  for (const bytes of held.values()) total += bytes;
  return total;
}
