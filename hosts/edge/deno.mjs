// azqueue on Deno: the REST fetch handler served by Deno.serve (queues in memory).
//   deno run --allow-net --allow-read --allow-env=AZURITE_ACCOUNTS hosts/edge/deno.mjs --port P

import { listenOptions, openHandler, readyLine, WASM_URL } from './standalone.mjs';

const opts = listenOptions(Deno.args);
const service = await openHandler(await Deno.readFile(WASM_URL), Deno.env.get('AZURITE_ACCOUNTS'));
Deno.serve(
  {
    port: opts.port,
    hostname: opts.host,
    onListen: ({ hostname, port }) => console.log(readyLine(`http://${hostname}:${port}`, service)),
  },
  service.handler,
);
// Queues live in memory, so there is nothing to flush: a signal ends the process at once.
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM']))
  Deno.addSignalListener(signal, () => Deno.exit(0));
