#!/usr/bin/env node
// `node www/edge/dev.mjs …`, as the README has always written it: the edge Worker's dev runner
// lives in hosts/edge/dev.mjs (importers use that module; this file only starts it).
import { main } from '../../hosts/edge/dev.mjs';

await main();
