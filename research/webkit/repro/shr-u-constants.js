// JavaScriptCore's baseline wasm JIT (BBQ) in WebKitGTK 2.50.6 folds `i32.shr_u` of two constants
// to 0 when the count is 32 or more (or negative); wasm takes the count modulo 32, so
// -8 >>> 1000 is -8 >>> 8 = 16777215. Only with both operands constant, and only i32.shr_u (shl,
// shr_s, the rotations and the i64 shifts fold right); the interpreter and the optimizing tier
// compute it right. Found by the differential runs (differential/README.md); azqueue's wasm has
// no i32.shr_u of two constants by 32 or more (LLVM folds such shifts before wasm is written).
//   (func (export "both") (result i32) i32.const -8 i32.const 1000 i32.shr_u)
//   (func (export "count") (param i32) (result i32) local.get 0 i32.const 1000 i32.shr_u)
//   (func (export "value") (param i32) (result i32) i32.const -8 local.get 0 i32.shr_u)
// Run with ../jsc-run (its module argument is not used here) or under Node:
//   JSC_useWasmIPInt=0 JSC_useWasmLLInt=0 JSC_useOMGJIT=0 ./jsc-run /dev/null shr-u-constants.js 1
//   node node-run.mjs /dev/null 1 shr-u-constants.js
// Evaluates to "ok" when all three give 16777215, else to those that do not.
(() => {
  const bytes = new Uint8Array([
    0, 97, 115, 109, 1, 0, 0, 0, 1, 10, 2, 96, 0, 1, 127, 96, 1, 127, 1, 127, 3, 4, 3, 0, 1, 1, 7,
    24, 3, 4, 98, 111, 116, 104, 0, 0, 5, 99, 111, 117, 110, 116, 0, 1, 5, 118, 97, 108, 117, 101,
    0, 2, 10, 27, 3, 8, 0, 65, 120, 65, 232, 7, 118, 11, 8, 0, 32, 0, 65, 232, 7, 118, 11, 7, 0, 65,
    120, 32, 0, 118, 11,
  ]);
  const { both, count, value } = new WebAssembly.Instance(new WebAssembly.Module(bytes), {})
    .exports;
  const got = { both: both(), count: count(-8), value: value(1000) };
  const wrong = Object.entries(got).filter(([, v]) => v !== 16777215);
  return wrong.length ? wrong.map(([name, v]) => `${name}: ${v}, not 16777215`).join('\n') : 'ok';
})();
