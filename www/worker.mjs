// azqueue as a Cloudflare Worker (workerd): the Azure Queue REST API served by the wasm fetch
// handler, queues kept in the isolate's memory. Path-style URLs as Azurite's
// (`/devstoreaccount1/<queue>`); accounts from the AZURITE_ACCOUNTS binding if set.
//
// Memory only: an isolate may be evicted at any time and each isolate has its own queues, so
// this suits tests and demos; durable edge storage (a Durable Object behind the JS storage
// adapter) comes with the persistence work.

import wasmModule from './pkg/azqueue_bg.wasm';
import { initSync, QueueService } from './pkg/azqueue.js';

// workerd hands `.wasm` imports over as compiled WebAssembly.Modules; instantiate synchronously.
initSync({ module: wasmModule });

// Opened lazily on the first request: workerd forbids random numbers and other I/O-like work in
// the global scope, and the service draws ids from crypto.getRandomValues.
let handler = null;

function handlerFor(env) {
  handler ??= QueueService.open({ store: 'memory', accounts: env?.AZURITE_ACCOUNTS || undefined })
    .then((service) => service.fetchHandler())
    .catch((err) => {
      handler = null; // let a later request retry (e.g. after the binding is fixed)
      throw err;
    });
  return handler;
}

export default {
  async fetch(request, env) {
    let handle;
    try {
      handle = await handlerFor(env);
    } catch (err) {
      return new Response(`azqueue could not start: ${err.message}\n`, { status: 500 });
    }
    return handle(request);
  },
};
