// JavaScriptCore in WebKitGTK 2.50.6 loses a loop's second floating-point parameter when the loop
// moves from the baseline JIT (BBQ) into optimized code (OMG) in mid-run (loop OSR entry): the
// optimized loop starts with 0 or garbage in its place. Two f64 values, 2 and x, are the
// parameters of a loop that counts to n and hands them on unchanged; the function returns their
// sum, which must be 2 + x. A loop without parameters, or with one, keeps its values (values on
// the operand stack below a loop too); Rust's wasm has no loop with parameters (LLVM does not
// write them), so azqueue's modules do not reach this. Found by the differential runs
// (differential/README.md), shrunk with differential/src/bin/shrink.rs and then by hand:
//   (func (export "f") (param f64 i32) (result f64) (local i32)
//     f64.const 2  local.get 0
//     loop (param f64 f64) (result f64 f64)
//       local.get 2  i32.const 1  i32.add  local.set 2
//       local.get 2  local.get 1  i32.lt_u  br_if 0
//     end
//     f64.add)
// A new module each round, so that each first long run of the loop is the one that moves:
//   JSC_useWasmIPInt=0 JSC_useWasmLLInt=0 JSC_useOMGJIT=1 JSC_useConcurrentJIT=0 \
//     JSC_thresholdForOMGOptimizeAfterWarmUp=20 JSC_thresholdForOMGOptimizeSoon=2 \
//     ./jsc-run /dev/null omg-osr-loop-params.js 20
//   node node-run.mjs /dev/null 20 omg-osr-loop-params.js
// Evaluates to "ok" when every call returned 2 + x, else to the calls that did not.
(() => {
  const bytes = new Uint8Array([
    0, 97, 115, 109, 1, 0, 0, 0, 1, 14, 2, 96, 2, 124, 127, 1, 124, 96, 2, 124, 124, 2, 124, 124, 3,
    2, 1, 0, 7, 5, 1, 1, 102, 0, 0, 10, 35, 1, 33, 1, 1, 127, 68, 0, 0, 0, 0, 0, 0, 0, 64, 32, 0, 3,
    1, 32, 2, 65, 1, 106, 33, 2, 32, 2, 32, 1, 73, 13, 0, 11, 160, 11,
  ]);
  const wrong = [];
  for (let round = 0; round < passes; round++) {
    const { f } = new WebAssembly.Instance(new WebAssembly.Module(bytes), {}).exports;
    for (const n of [10, 100_000, 1_000_000]) {
      const got = f(1.5, n);
      if (got !== 3.5) wrong.push(`round ${round}, a loop of ${n}: ${got}, not 3.5`);
    }
  }
  return wrong.length ? wrong.join('\n') : 'ok';
})();
