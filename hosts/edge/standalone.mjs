// The REST fetch handler for runtimes with `fetch`-style servers of their own (Deno.serve,
// Bun.serve): the web package's wasm, initialised from its bytes, one QueueService in memory.
// Shared by deno.mjs and bun.mjs, which differ only in how they read a file and listen.

import { initSync, QueueService } from '../../pkg/web/azqueue.js';

/** The wasm file, relative to this module. */
export const WASM_URL = new URL('../../pkg/web/azqueue_bg.wasm', import.meta.url);

/**
 * Opens a service and returns `{ handler, connectionString(origin), account }`.
 * @param {BufferSource} wasmBytes the contents of WASM_URL
 * @param {string | undefined} accounts an AZURITE_ACCOUNTS string
 */
export async function openHandler(wasmBytes, accounts) {
  initSync({ module: new WebAssembly.Module(wasmBytes) });
  const service = await QueueService.open({ store: 'memory', accounts: accounts || undefined });
  return {
    // Served as it is: it declares one parameter, so Deno.serve passes the request (a handler
    // declaring none is called with no arguments), and ignores Deno's second one.
    handler: service.fetchHandler(),
    account: service.account,
    connectionString: (/** @type {string} */ origin) => service.connectionString(origin),
  };
}

/**
 * The flags both scripts take: `--port P` (0 picks a free one) and `--host H`.
 * @param {string[]} args
 */
export function listenOptions(args) {
  const opts = { port: 8787, host: '127.0.0.1' };
  for (let i = 0; i < args.length; i += 2) {
    if (args[i] === '--port') opts.port = Number(args[i + 1]);
    else if (args[i] === '--host') opts.host = args[i + 1];
    else throw new Error(`unknown flag ${args[i]} (use --port P, --host H)`);
  }
  return opts;
}

/**
 * The ready line dev.mjs prints too, so one harness reads all of them.
 * @param {string} origin
 * @param {{ account: string, connectionString(origin: string): string }} service
 */
export function readyLine(origin, service) {
  return `azqueue ready: queue ${origin}/${service.account} connection "${service.connectionString(origin)}"`;
}
