// The same script under Node (V8), for comparison:
//   node node-run.mjs <module.wasm> <passes> [script, default run.js]
import { readFileSync } from 'node:fs';
import { runInThisContext } from 'node:vm';

const [wasm, passes, script = 'run.js'] = process.argv.slice(2);
globalThis.wasmBytes = readFileSync(wasm);
globalThis.passes = Number(passes);
const result = runInThisContext(readFileSync(new URL(script, import.meta.url), 'utf8'));
console.log(result);
process.exitCode = result.startsWith('ok') ? 0 : 1;
