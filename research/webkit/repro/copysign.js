// JavaScriptCore's baseline wasm JIT (BBQ) in WebKitGTK 2.50.6 gives copysign(±0, c), for a
// negative constant c, the sign of +0; the result must be -0 (copysign takes the sign of c,
// whatever the magnitude). Found by the differential runs (differential/README.md); azqueue's
// wasm has no copysign, so it does not reach this. The module, 72 bytes:
//   (func (export "f32") (param f32) (result i32)
//     local.get 0  f32.const -1  f32.copysign  i32.reinterpret_f32)
//   (func (export "f64") (param f64) (result i64)
//     local.get 0  f64.const -1  f64.copysign  i64.reinterpret_f64)
// Run with ../jsc-run (its module argument is not used here) or under Node:
//   JSC_useWasmIPInt=0 JSC_useWasmLLInt=0 JSC_useOMGJIT=0 ./jsc-run /dev/null copysign.js 1
//   node node-run.mjs /dev/null 1 copysign.js
// Evaluates to "ok" when every result has the sign bit set, else to the results that do not.
(() => {
  const bytes = new Uint8Array([
    0, 97, 115, 109, 1, 0, 0, 0, 1, 11, 2, 96, 1, 125, 1, 127, 96, 1, 124, 1, 126, 3, 3, 2, 0, 1, 7,
    13, 2, 3, 102, 51, 50, 0, 0, 3, 102, 54, 52, 0, 1, 10, 29, 2, 11, 0, 32, 0, 67, 0, 0, 128, 191,
    152, 188, 11, 15, 0, 32, 0, 68, 0, 0, 0, 0, 0, 0, 240, 191, 166, 189, 11,
  ]);
  const { f32, f64 } = new WebAssembly.Instance(new WebAssembly.Module(bytes), {}).exports;
  const wrong = [];
  for (const x of [0, -0, 1.5, -1.5]) {
    const name = Object.is(x, -0) ? '-0' : String(x);
    const bits32 = f32(x) >>> 0;
    const bits64 = BigInt.asUintN(64, f64(x));
    if (bits32 < 0x80000000)
      wrong.push(`f32.copysign(${name}, -1) = bits 0x${bits32.toString(16)}`);
    if (bits64 < 1n << 63n) wrong.push(`f64.copysign(${name}, -1) = bits 0x${bits64.toString(16)}`);
  }
  return wrong.length ? wrong.join('\n') : 'ok';
})();
