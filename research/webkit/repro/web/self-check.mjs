// `selfCheck()` of the shipped pkg/web in JavaScriptCore alone (jsc-run), `passes` times in one
// instance: "ok: N passes" when every run gave the known answers, else the first error.
import './globals.mjs';
import { initSync, selfCheck } from '../../../../pkg/web/azqueue.js';

const g = /** @type {any} */ (globalThis);
initSync({ module: g.wasmBytes });
g.__result = `ok: ${g.passes} passes`;
for (let pass = 0; pass < g.passes; pass++) {
  try {
    selfCheck();
  } catch (e) {
    g.__result = `pass ${pass}: ${e}`;
    break;
  }
}
/** jsc-run calls this until it returns something other than "pending". */
g.__tick = () => g.__result;
