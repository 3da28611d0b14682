// www/worker.mjs under a local workerd (miniflare 3): the official SDK round-trips a message
// through the edge build (--target web + initSync) exactly as through the Node server.

import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { Miniflare } from 'miniflare';
import { QueueServiceClient, StorageSharedKeyCredential } from '@azure/storage-queue';
import { DEV_ACCOUNT, DEV_KEY, ROOT, rejectsWith, uniqueName } from './azqueue_server.mjs';

let mf;
let base;
before(async () => {
  mf = new Miniflare({
    modules: true,
    scriptPath: path.join(ROOT, 'www', 'worker.mjs'),
    // wasm-bindgen's glue is ESM in a `.js` file, which miniflare would treat as CommonJS.
    modulesRules: [
      { type: 'ESModule', include: ['**/*.js'] },
      { type: 'CompiledWasm', include: ['**/*.wasm'] },
    ],
    compatibilityDate: '2025-07-01',
    host: '127.0.0.1',
    port: 0,
  });
  const url = await mf.ready;
  base = `http://127.0.0.1:${url.port}/${DEV_ACCOUNT}`;
});
after(async () => { await mf?.dispose(); });

test('the SDK creates a queue and round-trips a message through the worker', async () => {
  const service = new QueueServiceClient(base, new StorageSharedKeyCredential(DEV_ACCOUNT, DEV_KEY));
  const q = service.getQueueClient(uniqueName('edge'));
  assert.equal((await q.create())._response.status, 201);
  const sent = await q.sendMessage('hello from the edge <&>');
  const got = await q.receiveMessages({ visibilityTimeout: 30 });
  assert.equal(got.receivedMessageItems.length, 1);
  const m = got.receivedMessageItems[0];
  assert.equal(m.messageId, sent.messageId);
  assert.equal(m.messageText, 'hello from the edge <&>');
  assert.equal(m.dequeueCount, 1);
  await q.deleteMessage(m.messageId, m.popReceipt);
  assert.equal((await q.getProperties()).approximateMessagesCount, 0);
});

test('errors come back as Azure errors, and a wrong key is refused', async () => {
  const service = new QueueServiceClient(base, new StorageSharedKeyCredential(DEV_ACCOUNT, DEV_KEY));
  await rejectsWith(assert, service.getQueueClient(uniqueName('missing')).sendMessage('x'), 404, 'QueueNotFound');
  const wrong = new QueueServiceClient(base, new StorageSharedKeyCredential(DEV_ACCOUNT, Buffer.from('nope').toString('base64')));
  await rejectsWith(assert, wrong.createQueue(uniqueName('wrong')), 403, 'AuthenticationFailed');
});
