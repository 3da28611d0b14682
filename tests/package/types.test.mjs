// The package's TypeScript types, compiled by tsc in the installed project: every export as a
// user imports it (Node ESM, CommonJS, the browser condition), and `service.httpClient()`
// accepted by the official SDK's options where its own HttpClient would be.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import test from 'node:test';
import { ROOT, USER_ENV, installedProject } from './project.mjs';

const TSC = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

/**
 * Writes `files` into a folder of the project and compiles them; returns tsc's output.
 * @param {string} name
 * @param {Record<string, unknown>} compilerOptions
 * @param {Record<string, string>} files
 */
function compile(name, compilerOptions, files) {
  const dir = path.join(installedProject().dir, name);
  fs.mkdirSync(dir, { recursive: true });
  for (const [file, source] of Object.entries(files))
    fs.writeFileSync(path.join(dir, file), source);
  fs.writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'es2022',
        lib: ['esnext', 'dom'],
        strict: true,
        noEmit: true,
        typeRoots: [path.join(ROOT, 'node_modules', '@types')],
        types: ['node'],
        ...compilerOptions,
      },
      files: Object.keys(files),
    }),
  );
  const r = spawnSync(process.execPath, [TSC, '-p', dir], { env: USER_ENV, encoding: 'utf8' });
  return { status: r.status, output: r.stdout + r.stderr };
}

test('Node ESM: every export, init as default, httpClient() in the SDK options', () => {
  const r = compile(
    'types-node',
    { module: 'nodenext', moduleResolution: 'nodenext' },
    {
      'check.mts': `import init, { QueueService, Queue, Connection, RawResponse, checkStorageAdapter, type InProcessHttpClient } from "azqueue";
import { QueueServiceClient } from "@azure/storage-queue";
import { startServer, parseArgs } from "azqueue/server";
import worker, { QueueObject, DirectoryObject } from "azqueue/worker";
import { workerOptions } from "azqueue/worker/miniflare-options";

await init();
let now = 0;
const service = await QueueService.open({ now: () => now });
const httpClient: InProcessHttpClient = service.httpClient();
QueueServiceClient.fromConnectionString("UseDevelopmentStorage=true", { httpClient });
new QueueServiceClient("http://127.0.0.1:10001/devstoreaccount1", undefined, { httpClient: service.httpClient() });
const q: Queue = await service.createQueue("orders");
await q.sendMessage("x");
now += 31_000;
const running = await startServer(parseArgs(["--queuePort", "0"]));
await running.close();
export const all = [Connection, RawResponse, checkStorageAdapter, worker.fetch, QueueObject, DirectoryObject, workerOptions({})];
`,
    },
  );
  assert.equal(r.status, 0, r.output);
});

test('CommonJS require: the same names, and no default', () => {
  const good = compile(
    'types-cjs',
    { module: 'nodenext', moduleResolution: 'nodenext' },
    {
      'check.cts': `import azqueue = require("azqueue");
export async function main() {
  await azqueue.init();
  const service = await azqueue.QueueService.open();
  return service.httpClient();
}
`,
    },
  );
  assert.equal(good.status, 0, good.output);
  const bad = compile(
    'types-cjs-default',
    { module: 'nodenext', moduleResolution: 'nodenext' },
    {
      'check.cts': 'import azqueue = require("azqueue");\nexport const d = azqueue.default;\n',
    },
  );
  assert.notEqual(bad.status, 0, 'require("azqueue") has no default export');
});

test('browser condition: init(url) and the web glue initSync', () => {
  const r = compile(
    'types-web',
    { module: 'esnext', moduleResolution: 'bundler', customConditions: ['browser'], types: [] },
    {
      'check.ts': `import init, { QueueService, initSync } from "azqueue";
await init(new URL("./azqueue_bg.wasm", import.meta.url));
const service = await QueueService.open();
export const client = service.httpClient();
export const sync = initSync;
`,
    },
  );
  assert.equal(r.status, 0, r.output);
});
