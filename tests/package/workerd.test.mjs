// The package under workerd (miniflare): the packaged edge Worker (`azqueue/worker`, with its
// Durable Objects) serves the official SDK, and a Worker of the user's own, bundled from
// `import { QueueService } from "azqueue"` (the `workerd` condition), initialises the engine
// from the packaged `.wasm` with no init call.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { Miniflare } from 'miniflare';
import { QueueServiceClient } from '@azure/storage-queue';
import { DEV_ACCOUNT, devConnectionString } from '../../scripts/lib/shared-key.mjs';
import { ROOT, USER_ENV, installedProject } from './project.mjs';

/** @type {Miniflare[]} */
const started = [];
after(async () => {
  for (const mf of started) await mf.dispose();
});

/** @param {import('miniflare').MiniflareOptions} options */
async function serve(options) {
  const mf = new Miniflare({ ...options, host: '127.0.0.1', port: 0 });
  started.push(mf);
  return (await mf.ready).href;
}

test('the packaged edge Worker serves the official SDK', async () => {
  const { dir } = installedProject();
  const resolve = createRequire(path.join(dir, 'package.json')).resolve;
  const worker = resolve('azqueue/worker');
  assert.ok(worker.startsWith(path.join(dir, 'node_modules', 'azqueue')), worker);
  const { workerOptions } = await import(
    pathToFileURL(resolve('azqueue/worker/miniflare-options')).href
  );
  const origin = await serve(workerOptions({ scriptPath: worker }));
  const queue = QueueServiceClient.fromConnectionString(devConnectionString(origin)).getQueueClient(
    'edge-orders',
  );
  await queue.create();
  await queue.sendMessage('hello from workerd');
  const {
    receivedMessageItems: [m],
  } = await queue.receiveMessages({ visibilityTimeout: 30 });
  assert.equal(m.messageText, 'hello from workerd');
  await queue.deleteMessage(m.messageId, m.popReceipt);
  assert.equal((await queue.getProperties()).approximateMessagesCount, 0);
});

test('bindings under other names: an Azure 500 naming the missing ones in its Reason, and a log line', async () => {
  const { dir } = installedProject();
  const resolve = createRequire(path.join(dir, 'package.json')).resolve;
  const { workerOptions } = await import(
    pathToFileURL(resolve('azqueue/worker/miniflare-options')).href
  );
  const options = workerOptions({ scriptPath: resolve('azqueue/worker') });
  options.durableObjects = {
    QUEUES: { className: 'QueueObject', useSQLite: true },
    DIRECTORY: { className: 'DirectoryObject', useSQLite: true },
  };
  let log = '';
  const origin = await serve({
    ...options,
    handleRuntimeStdio: (
      /** @type {import('node:stream').Readable} */ stdout,
      /** @type {import('node:stream').Readable} */ stderr,
    ) => {
      for (const stream of [stdout, stderr])
        stream.on('data', (/** @type {Buffer} */ d) => (log += d));
    },
  });
  const res = await fetch(`${origin}${DEV_ACCOUNT}?comp=list`, {
    headers: { 'x-ms-version': '2025-11-05' },
  });
  assert.equal(res.status, 500);
  assert.equal(res.headers.get('x-ms-error-code'), 'InternalError');
  const body = await res.text();
  // The error table's InternalError (as the REST layer renders it), the binding in <Reason>.
  assert.equal(res.headers.get('x-ms-version'), '2025-11-05');
  assert.match(res.headers.get('x-ms-request-id') ?? '', /^[0-9a-f-]{36}$/);
  assert.match(
    body,
    /^<\?xml version="1\.0" encoding="utf-8"\?><Error><Code>InternalError<\/Code><Message>Server encountered an internal error\. Please try again after some time\.\nRequestId:[0-9a-f-]{36}\nTime:[^<]+<\/Message><Reason>The edge Worker has no Durable Object binding QUEUE \(class QueueObject\)\. [^<]*<\/Reason><\/Error>$/,
  );
  assert.doesNotMatch(body, /binding .*DIRECTORY \(class/);
  for (let i = 0; i < 50 && !/binding QUEUE/.test(log); i++)
    await new Promise((r) => setTimeout(r, 20));
  assert.match(
    log,
    /azqueue: The edge Worker has no Durable Object binding QUEUE \(class QueueObject\)/,
  );
});

test('a user Worker that imports "azqueue" runs under workerd without an init call', async () => {
  const { dir } = installedProject();
  const out = path.join(dir, 'worker-out');
  fs.writeFileSync(
    path.join(dir, 'worker.js'),
    `import { QueueService } from "azqueue";
export default {
  async fetch() {
    const service = await QueueService.open();
    const q = await service.createQueue("jobs");
    await q.sendMessage("from a user worker");
    const { receivedMessageItems: [m] } = await q.receiveMessages();
    return Response.json({ text: m.messageText, dequeueCount: m.dequeueCount });
  },
};
`,
  );
  // wrangler's own bundling, reduced to its essentials: the workerd condition, .wasm kept as a module.
  execFileSync(
    path.join(ROOT, 'node_modules', '.bin', 'esbuild'),
    [
      'worker.js',
      '--bundle',
      '--format=esm',
      '--platform=neutral',
      '--conditions=workerd,worker,browser',
      '--loader:.wasm=copy',
      '--log-level=warning',
      `--outdir=${out}`,
    ],
    { cwd: dir, env: USER_ENV, stdio: 'inherit' },
  );
  const origin = await serve({
    modules: true,
    scriptPath: path.join(out, 'worker.js'),
    modulesRoot: out,
    modulesRules: [
      { type: 'ESModule', include: ['**/*.js'] },
      { type: 'CompiledWasm', include: ['**/*.wasm'] },
    ],
    compatibilityDate: '2025-07-01',
  });
  const res = await fetch(origin);
  assert.equal(res.status, 200, await res.clone().text());
  assert.deepEqual(await res.json(), { text: 'from a user worker', dequeueCount: 1 });
});
