// The entry for workerd (Cloudflare Workers, wrangler, miniflare). There a `.wasm` import is a
// precompiled WebAssembly.Module and compiling bytes at run time is refused, so this imports the
// module and instantiates the glue synchronously as it loads: `import { QueueService } from
// "azqueue"` needs no init call. The bundler or runtime must load `.wasm` imports as compiled
// modules (wrangler does by default; miniflare: a `CompiledWasm` modules rule).

import wasmModule from '../pkg/web/azqueue_bg.wasm';
import { init } from './web.js';

init(wasmModule);

export * from './web.js';
export { default } from './web.js';
