// A JavaScript function that a module imports and exports again must, called from JavaScript
// through the export, get its arguments converted to the wasm types of its signature and its
// result converted back (the JS API: an exported function's call runs ToWebAssemblyValue on every
// argument and ToJSValue on the way out, whether the function is wasm or imported). V8 does;
// JavaScriptCore in WebKitGTK 2.50.6 hands the host function the caller's values as they were, in
// every tier: an i32 parameter gets 4294967297.5 rather than 1, an f32 one -1e-10 rather than
// Math.fround(-1e-10), and the i32 result comes back as 3.7 rather than 3. Found by the
// differential runs (differential/README.md); azqueue's modules export no imported function.
//   (import "env" "f" (func $f (param f64 f32)))
//   (import "env" "i" (func $i (param i32 i64) (result i32)))
//   (export "f" (func $f))  (export "i" (func $i))
// Run with ../jsc-run (its module argument is not used here) or under Node:
//   ./jsc-run /dev/null reexported-import.js 1
//   node node-run.mjs /dev/null 1 reexported-import.js
// Evaluates to "ok" when every value was converted, else to what was not.
(() => {
  const bytes = new Uint8Array([
    0, 97, 115, 109, 1, 0, 0, 0, 1, 12, 2, 96, 2, 124, 125, 0, 96, 2, 127, 126, 1, 127, 2, 17, 2, 3,
    101, 110, 118, 1, 102, 0, 0, 3, 101, 110, 118, 1, 105, 0, 1, 7, 9, 2, 1, 102, 0, 0, 1, 105, 0,
    1,
  ]);
  const seen = [];
  const env = {
    f: (a, b) => seen.push(['f32 parameter', b, Math.fround(-1e-10)]),
    i: (a) => {
      seen.push(['i32 parameter', a, 1]);
      return 3.7;
    },
  };
  const exports = new WebAssembly.Instance(new WebAssembly.Module(bytes), { env }).exports;
  exports.f(-1e-10, -1e-10);
  seen.push(['i32 result', exports.i(4294967297.5, 5n), 3]);
  const wrong = seen.filter(([, got, want]) => got !== want);
  return wrong.length
    ? wrong.map(([what, got, want]) => `${what}: ${got}, not ${want}`).join('\n')
    : 'ok';
})();
