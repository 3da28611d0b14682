// `import` and `require("azqueue")` in Node, from the installed package: each round-trips a
// message through the in-process QueueService.

import assert from 'node:assert/strict';
import test from 'node:test';
import { runInProject } from './project.mjs';

const roundTrip = (/** @type {string} */ open) => `
  const service = await ${open};
  const q = await service.createQueue('orders');
  await q.sendMessage('hello');
  const { receivedMessageItems: [m] } = await q.receiveMessages({ visibilityTimeout: 30 });
  await q.deleteMessage(m.messageId, m.popReceipt);
  console.log(JSON.stringify({ text: m.messageText, count: m.dequeueCount, http: typeof service.httpClient().sendRequest }));
  await service.close();
`;

test('an ES module import round-trips a message', async () => {
  const r = await runInProject(
    'esm.mjs',
    `import { QueueService, init } from 'azqueue';
await init();
${roundTrip('QueueService.open()')}`,
  );
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), { text: 'hello', count: 1, http: 'function' });
});

test('a CommonJS require round-trips a message', async () => {
  const r = await runInProject(
    'cjs.cjs',
    `const { QueueService } = require('azqueue');
(async () => {
${roundTrip("QueueService.open({ store: 'memory' })")}
})().catch((e) => { console.error(e); process.exit(1); });`,
  );
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), { text: 'hello', count: 1, http: 'function' });
});

test('import and require share one wasm instance', async () => {
  const r = await runInProject(
    'both.mjs',
    `import { createRequire } from 'node:module';
import { QueueService } from 'azqueue';
console.log(createRequire(import.meta.url)('azqueue').QueueService === QueueService);`,
  );
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'true');
});
