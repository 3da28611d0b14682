// The two result objects a busy caller makes most, `sendMessage`'s answer and a received
// message, each built by one call from wasm (src/wasm/result_shapes.rs) instead of one call per
// property and per Date. wasm-bindgen ships this file beside its glue (snippets/), so every
// host runs the same code and nothing is compiled from text.
//
// Strings are read straight from the wasm memory: the message id followed by its receipt (both
// ASCII; the id is always 36 characters) and the message text (UTF-8, a byte-order mark kept).
// Where there is a `Buffer` (Node, Deno, Bun) it decodes short strings in about half the time of
// a `TextDecoder`.

/** @type {WebAssembly.Memory | undefined} */
let memory;
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
const encoder = new TextEncoder();
const viaBuffer = typeof Buffer === 'function';
/** @type {Uint8Array} */
let bytes = new Uint8Array(0);

/** The memory the offsets below point into; set once, before the first result. */
export function useMemory(/** @type {WebAssembly.Memory} */ wasmMemory) {
  memory = wasmMemory;
  bytes = new Uint8Array(0);
}

function view() {
  // Growing the memory detaches its buffer, and views of a detached buffer are empty.
  if (bytes.byteLength === 0 && memory) {
    const buffer = /** @type {ArrayBuffer} */ (memory.buffer);
    bytes = viaBuffer ? Buffer.from(buffer) : new Uint8Array(buffer);
  }
  return bytes;
}

/** @type {(at: number, len: number) => string} */
const ascii = viaBuffer
  ? (at, len) => /** @type {Buffer} */ (view()).toString('latin1', at, at + len)
  : (at, len) => decoder.decode(view().subarray(at, at + len));
/** @type {(at: number, len: number) => string} */
const utf8 = viaBuffer
  ? (at, len) => /** @type {Buffer} */ (view()).toString('utf8', at, at + len)
  : (at, len) => decoder.decode(view().subarray(at, at + len));

/**
 * `sendMessage`'s answer, already settled. The property order is the SDK's, as results.rs keeps
 * it for every other answer.
 * @param {number} at where the id and receipt start
 * @param {number} len their bytes together
 * @param {number} insertedOn milliseconds since the epoch, as the next two
 * @param {number} expiresOn
 * @param {number} nextVisibleOn
 */
export function sentMessage(at, len, insertedOn, expiresOn, nextVisibleOn) {
  const s = ascii(at, len);
  return Promise.resolve({
    messageId: s.slice(0, 36),
    popReceipt: s.slice(36),
    insertedOn: new Date(insertedOn),
    expiresOn: new Date(expiresOn),
    nextVisibleOn: new Date(nextVisibleOn),
  });
}

/**
 * One received message (the SDK's `ReceivedMessageItem`).
 * @param {number} at where the id and receipt start
 * @param {number} len their bytes together
 * @param {number} insertedOn
 * @param {number} expiresOn
 * @param {number} nextVisibleOn
 * @param {number} dequeueCount
 * @param {number} textAt where the text's UTF-8 starts
 * @param {number} textLen its bytes
 */
export function receivedMessage(
  at,
  len,
  insertedOn,
  expiresOn,
  nextVisibleOn,
  dequeueCount,
  textAt,
  textLen,
) {
  const s = ascii(at, len);
  return {
    messageId: s.slice(0, 36),
    insertedOn: new Date(insertedOn),
    expiresOn: new Date(expiresOn),
    popReceipt: s.slice(36),
    nextVisibleOn: new Date(nextVisibleOn),
    dequeueCount,
    messageText: utf8(textAt, textLen),
  };
}

/**
 * Writes `text`'s UTF-8 at `at` in the wasm memory if it surely fits in `room` bytes (three per
 * UTF-16 unit at most): natively, where wasm-bindgen's glue copies a string argument one unit
 * at a time in a loop. Lone surrogates become U+FFFD, as the glue's `TextEncoder` makes them.
 * @param {unknown} text
 * @param {number} at
 * @param {number} room
 * @returns {number} the bytes written, -1 when `text` is not a string, or minus the room needed
 */
export function writeText(text, at, room) {
  if (typeof text !== 'string') return -1;
  if (text.length * 3 > room) return -(text.length * 3);
  const b = view();
  return viaBuffer
    ? /** @type {Buffer} */ (b).write(text, at, room, 'utf8')
    : encoder.encodeInto(text, b.subarray(at, at + room)).written;
}
