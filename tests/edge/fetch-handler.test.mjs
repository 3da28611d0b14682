// `service.fetchHandler()` from the web build (the one workerd, Deno and Bun load), called the
// ways hosts call it: Workers pass (request, env, ctx), Deno.serve (request, info) and reads the
// handler's `length` to decide what to pass (none at all for a handler declaring no parameter).
// Anything but a Request is refused with a TypeError, and the instance serves on afterwards.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ROOT } from '../e2e/azqueue_server.mjs';
import { initSync, QueueService } from '../../pkg/web/azqueue.js';

initSync({
  module: new WebAssembly.Module(fs.readFileSync(path.join(ROOT, 'pkg', 'web', 'azqueue_bg.wasm'))),
});

/**
 * @param {string} queue
 * @param {RequestInit} [init]
 */
const at = (queue, init) =>
  new Request(`http://127.0.0.1:1/devstoreaccount1/${queue}`, {
    headers: { 'x-ms-version': '2026-04-06' },
    ...init,
  });

test('the fetch handler declares one parameter and ignores the arguments after it', async () => {
  const service = await QueueService.open({ anonymous: true });
  const handle = service.fetchHandler();
  assert.equal(handle.length, 1);
  const env = { QUEUE: {} };
  const ctx = { waitUntil() {}, passThroughOnException() {} };
  assert.equal((await handle(at('workers', { method: 'PUT' }), env, ctx)).status, 201);
  const info = { remoteAddr: { transport: 'tcp', hostname: '127.0.0.1', port: 1 } };
  assert.equal((await handle(at('deno', { method: 'PUT' }), info)).status, 201);
  assert.equal((await handle(at('deno?comp=metadata'), info)).status, 200);
  assert.deepEqual(
    service.listQueues().map((q) => q.name),
    ['deno', 'workers'],
  );
});

test('anything but a Request is a TypeError, and the service serves on', async () => {
  const service = await QueueService.open({ anonymous: true });
  const handle = service.fetchHandler();
  const call = /** @type {(...args: unknown[]) => Promise<Response>} */ (handle);
  for (const args of [[], [undefined], [null], ['http://127.0.0.1:1/x'], [{ url: 'x' }]]) {
    await assert.rejects(call(...args), TypeError, JSON.stringify(args));
  }
  await assert.rejects(
    service.fetch(/** @type {any} the wrong type on purpose */ (undefined)),
    TypeError,
  );
  assert.equal((await handle(at('after', { method: 'PUT' }))).status, 201);
  assert.equal((await service.fetch(at('after?comp=metadata'))).status, 200);
});
