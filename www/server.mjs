#!/usr/bin/env node
// `node www/server.mjs …`, as the README and Azurite users type it: the Node server lives in
// hosts/node/server.mjs (importers use that module; this file only starts it).
import { main } from '../hosts/node/server.mjs';

await main();
