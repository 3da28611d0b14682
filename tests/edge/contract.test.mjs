// azqueue's store contract suite against the edge's SQLite storage adapter, run inside workerd
// on a real SQLite-backed Durable Object (tests/edge/contract-worker.mjs).

import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { Miniflare } from 'miniflare';
import { ROOT } from '../e2e/azqueue_server.mjs';
import { workerOptions } from '../../hosts/edge/miniflare-options.mjs';

test('the SQLite adapter passes the store contract suite inside a Durable Object', async () => {
  const options = workerOptions({
    scriptPath: path.join(ROOT, 'tests', 'edge', 'contract-worker.mjs'),
  });
  const mf = new Miniflare({
    ...options,
    modulesRoot: ROOT,
    durableObjects: { CONTRACT: { className: 'ContractObject', useSQLite: true } },
  });
  try {
    const response = await mf.dispatchFetch('http://localhost/');
    assert.equal(await response.text(), 'passed');
    assert.equal(response.status, 200);
  } finally {
    await mf.dispose();
  }
});
