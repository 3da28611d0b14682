// The azqueue engine for the Worker: Workers refuse to compile WebAssembly at run time, so the
// `.wasm` is imported as a module (workerd hands it over compiled) and instantiated at once.

import wasmModule from '../../pkg/edge/azqueue_bg.wasm';
import { initSync } from '../../pkg/edge/azqueue.js';

const exports = initSync({ module: wasmModule });

/** Bytes of the isolate's wasm memory: shared by every object in it, and it only grows. */
export function wasmMemoryBytes() {
  return exports.memory.buffer.byteLength;
}

export {
  QueueService,
  azureError,
  checkStorageAdapter,
  dropQueueTable,
  importLegacyMessages,
} from '../../pkg/edge/azqueue.js';
