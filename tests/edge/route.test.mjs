// Which object the edge Worker sends each request to (hosts/edge/route.mjs), without workerd:
// the router's reading comes from the Node build of the same wasm (pkg/node).

import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { pathOf, route as edgeRoute } from '../../hosts/edge/route.mjs';

/** @type {typeof import('../../pkg/node/azqueue.js')} */
const { QueueService } = createRequire(import.meta.url)('../../pkg/node/azqueue.js');

/**
 * @param {string} method
 * @param {string} url
 */
const route = (method, url) => edgeRoute(method, url, QueueService.routeOf);

const at = (/** @type {string} */ path) => `http://127.0.0.1:8787${path}`;

/**
 * The route of a request that must go to a queue object.
 * @param {string} method
 * @param {string} url
 */
function queueRoute(method, url) {
  const target = route(method, url);
  if (target.kind !== 'queue') throw new Error(`${method} ${url} went to ${target.kind}`);
  return target;
}

test('queue and message operations go to the queue object', () => {
  assert.deepEqual(route('PUT', at('/acct/orders')), {
    kind: 'queue',
    account: 'acct',
    queue: 'orders',
    changesRecord: true,
  });
  assert.deepEqual(route('DELETE', at('/acct/orders/')), {
    kind: 'queue',
    account: 'acct',
    queue: 'orders',
    changesRecord: true,
  });
  assert.equal(queueRoute('PUT', at('/acct/orders?comp=metadata')).queue, 'orders');
  assert.deepEqual(route('POST', at('/acct/orders/messages')), {
    kind: 'queue',
    account: 'acct',
    queue: 'orders',
    changesRecord: false,
  });
  assert.equal(route('DELETE', at('/acct/orders/messages/abc?popreceipt=x')).kind, 'queue');
  // The secondary endpoint reads the same queue, so it goes to the same object.
  assert.deepEqual(route('GET', at('/acct-secondary/orders/messages?peekonly=true')), {
    kind: 'queue',
    account: 'acct',
    queue: 'orders',
    changesRecord: false,
  });
  assert.deepEqual(route('GET', at('/_azqueue/inspect/acct/orders')), {
    kind: 'queue',
    account: 'acct',
    queue: 'orders',
    changesRecord: false,
  });
});

test("the operations that change a queue's record are marked, and only those", () => {
  const marked = (/** @type {string} */ method, /** @type {string} */ path) =>
    queueRoute(method, at(path)).changesRecord;
  assert.equal(marked('PUT', '/acct/orders'), true); // Create Queue
  assert.equal(marked('DELETE', '/acct/orders'), true); // Delete Queue
  assert.equal(marked('PUT', '/acct/orders?comp=metadata'), true);
  assert.equal(marked('PUT', '/acct/orders?comp=acl'), true);
  assert.equal(marked('GET', '/acct/orders?comp=metadata'), false);
  assert.equal(marked('GET', '/acct/orders?comp=acl'), false);
  assert.equal(marked('DELETE', '/acct/orders/messages'), false); // Clear Messages
  assert.equal(marked('PUT', '/acct/orders/messages/abc?popreceipt=x&visibilitytimeout=0'), false);
  assert.equal(marked('DELETE', '/acct/orders/messages/abc?popreceipt=x'), false);
  // A queue may be called `messages`: its own Delete Queue is still one.
  assert.equal(marked('DELETE', '/acct/messages'), true);
  assert.equal(marked('POST', '/acct/messages/messages'), false);
});

test('account operations, preflights and impossible names go to the directory', () => {
  assert.deepEqual(route('GET', at('/acct?comp=list')), { kind: 'directory', account: 'acct' });
  assert.deepEqual(route('GET', at('/acct/?restype=service&comp=properties')), {
    kind: 'directory',
    account: 'acct',
  });
  assert.deepEqual(route('GET', at('/acct-secondary/?restype=service&comp=stats')), {
    kind: 'directory',
    account: 'acct',
  });
  assert.deepEqual(route('OPTIONS', at('/acct/orders/messages')), {
    kind: 'directory',
    account: 'acct',
  });
  assert.deepEqual(route('PUT', at('/acct/Upper-Case')), { kind: 'directory', account: 'acct' });
  assert.deepEqual(route('PUT', at('/acct/ab')), { kind: 'directory', account: 'acct' });
  // Percent-encoding is decoded before naming, so one queue never has two objects.
  assert.equal(queueRoute('PUT', at('/acct/%6Frders')).queue, 'orders');
});

test('what spans objects has no single target', () => {
  assert.deepEqual(route('GET', at('/')), { kind: 'none' });
  assert.deepEqual(route('GET', at('/_azqueue/snapshot')), { kind: 'none' });
  assert.deepEqual(route('POST', at('/_azqueue/reset')), { kind: 'none' });
});

test('a queue segment that is not a valid queue name goes to the directory', () => {
  // The REST layer's rules, read by the wasm: the directory refuses these as a queue would.
  for (const name of ['abc', 'a-b-c', '0rders', 'a'.repeat(63)])
    assert.equal(route('PUT', at(`/acct/${name}`)).kind, 'queue', name);
  for (const name of ['ab', 'a'.repeat(64), 'Abc', 'a_b', 'a.b', 'a--b', '-ab', 'ab-'])
    assert.deepEqual(route('PUT', at(`/acct/${name}`)), { kind: 'directory', account: 'acct' });
  assert.deepEqual(route('GET', at('/_azqueue/inspect/acct/a--b')), { kind: 'none' });
});

test('the path the Worker reads is the one a URL object reads', () => {
  for (const url of [
    at('/acct/orders/messages?peekonly=true'),
    at('/acct/orders/messages#x?y'),
    at('/acct?comp=list'),
    at('/'),
    at('/_azqueue'),
    at('/_azqueue/inspect/acct/orders?x=/y'),
    at('/acct/%6Frders/messages/'),
    'https://acct.queue.example.net/orders?comp=metadata',
    'https://example.net',
    'https://example.net?comp=list',
    'http://[::1]:10001/acct//orders',
  ]) {
    // Request.url is the URL's serialization, so its path is the URL's path.
    const serialized = new URL(url).href;
    assert.equal(pathOf(serialized), new URL(serialized).pathname, url);
  }
});
