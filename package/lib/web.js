// The package's entry for browsers, workers, workerd, Deno and Bun: the wasm-bindgen web glue,
// initialised on first use from the `.wasm` file beside it, or from what `init()` is given
// (a URL, a Response, bytes, or workerd's precompiled WebAssembly.Module). `QueueService.open()`
// and `checkStorageAdapter()` wait for it themselves; call `await init()` first only to use the
// other classes before opening a service.

import initGlue, {
  initSync,
  QueueService,
  checkStorageAdapter as checkStorageAdapterNow,
} from '../pkg/web/azqueue.js';
import { installHttpClient } from './http-client.js';

/** @import { InitInput } from '../pkg/web/azqueue.js' */

export * from '../pkg/web/azqueue.js';

/** @type {Promise<void> | null} */
let ready = null;

/**
 * Loads the wasm once; later calls return the same Promise.
 * @param {InitInput | Promise<InitInput>} [input]
 * @returns {Promise<void>}
 */
export function init(input) {
  if (!ready) {
    if (typeof WebAssembly !== 'undefined' && input instanceof WebAssembly.Module) {
      // Synchronous, so a workerd module can do it at load time, where async work is not allowed.
      initSync({ module: input });
      ready = Promise.resolve();
    } else {
      ready = initGlue(input === undefined ? undefined : { module_or_path: input }).then(
        () => undefined,
      );
      ready.catch(() => {
        ready = null; // a failed load (e.g. a wrong URL) may be retried
      });
    }
  }
  return ready;
}
export default init;

const openNow = QueueService.open;
QueueService.open = async function open(options) {
  await init();
  return openNow.call(this, options);
};

/** @param {Parameters<typeof checkStorageAdapterNow>[0]} make */
export async function checkStorageAdapter(make) {
  await init();
  return checkStorageAdapterNow(make);
}

installHttpClient(QueueService);
