// The edge Worker runs on real time: /_azqueue/clock is not served there, and says why
// (docs/clock.md), rather than moving one object's clock and not the others'.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startEdge } from '../../scripts/lib/edge-server.mjs';

test('the edge Worker answers /_azqueue/clock 404: it runs on real time', async () => {
  const server = await startEdge();
  try {
    for (const init of [
      {},
      { method: 'POST', headers: { 'x-azqueue-dev': '1' }, body: '{"advanceMs":1000}' },
    ]) {
      const r = await fetch(`${server.origin}/_azqueue/clock`, init);
      assert.equal(r.status, 404);
      assert.match((await r.json()).error, /runs on real time/);
    }
  } finally {
    assert.equal(await server.stop(), 0);
  }
});
