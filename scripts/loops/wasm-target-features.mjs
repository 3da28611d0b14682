// Rewrites a wasm module's `target_features` custom section, which wasm-bindgen reads to choose
// its transforms: `+reference-types` turns on the externref table glue, `+multivalue` the
// multi-value returns of its adapters. Issue 23's experiment builds the test with and without
// them (research/webkit/investigation.md):
//   node scripts/loops/wasm-target-features.mjs <in.wasm> <out.wasm> [+feature ...]
// With no features the section is dropped. Prints the features before and after.
import { readFileSync, writeFileSync } from 'node:fs';

const [input, output, ...features] = process.argv.slice(2);
if (!input || !output) throw new Error('usage: wasm-target-features.mjs <in> <out> [+feature ...]');
const bytes = readFileSync(input);

/** @returns {[number, number]} the LEB128 value at `at` and the offset after it */
function leb(/** @type {number} */ at) {
  let value = 0;
  let shift = 0;
  for (;;) {
    const byte = bytes[at++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if (byte < 0x80) return [value, at];
  }
}

/** @returns {number[]} `n` as LEB128 */
function encode(/** @type {number} */ n) {
  const out = [];
  do {
    let byte = n & 0x7f;
    n = Math.floor(n / 128);
    if (n > 0) byte |= 0x80;
    out.push(byte);
  } while (n > 0);
  return out;
}

/** The section `name`'s body: the feature list wasm-bindgen reads. */
function section(/** @type {string[]} */ list) {
  const name = Buffer.from('target_features');
  const body = [...encode(name.length), ...name, ...encode(list.length)];
  for (const f of list) {
    const text = Buffer.from(f.slice(1));
    body.push(f.charCodeAt(0), ...encode(text.length), ...text);
  }
  return Buffer.from([0, ...encode(body.length), ...body]);
}

const parts = [bytes.subarray(0, 8)];
let before = [];
let at = 8;
while (at < bytes.length) {
  const start = at;
  const id = bytes[at++];
  const [size, body] = leb(at);
  const end = body + size;
  let keep = true;
  if (id === 0) {
    const [length, nameAt] = leb(body);
    if (bytes.subarray(nameAt, nameAt + length).toString() === 'target_features') {
      keep = false;
      let [count, p] = leb(nameAt + length);
      for (; count > 0; count--) {
        const prefix = String.fromCharCode(bytes[p++]);
        const [n, q] = leb(p);
        before.push(prefix + bytes.subarray(q, q + n).toString());
        p = q + n;
      }
    }
  }
  if (keep) parts.push(bytes.subarray(start, end));
  at = end;
}
if (features.length > 0) parts.push(section(features));
writeFileSync(output, Buffer.concat(parts));
console.log(
  `target_features: ${before.join(' ') || '(none)'} -> ${features.join(' ') || '(none)'}`,
);
