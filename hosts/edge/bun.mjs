// azqueue on Bun: the REST fetch handler served by Bun.serve (queues in memory).
//   bun hosts/edge/bun.mjs --port P

import { listenOptions, openHandler, readyLine, WASM_URL } from './standalone.mjs';

const opts = listenOptions(Bun.argv.slice(2));
const service = await openHandler(await Bun.file(WASM_URL).arrayBuffer(), Bun.env.AZURITE_ACCOUNTS);
const server = Bun.serve({ port: opts.port, hostname: opts.host, fetch: service.handler });
console.log(readyLine(`http://${opts.host}:${server.port}`, service));
// Queues live in memory, so there is nothing to flush: a signal ends the process at once.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(0));
