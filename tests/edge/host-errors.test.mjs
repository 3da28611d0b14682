// Errors the edge answers itself, before any object's REST layer has the request: rendered from
// the error table (the package's `azureError`), so they read as the REST layer's own errors do.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Miniflare } from 'miniflare';
import { workerOptions } from '../../hosts/edge/miniflare-options.mjs';

test('a Worker without its QUEUE binding answers 500 InternalError naming it, in Azure XML', async () => {
  const options = workerOptions({});
  const mf = new Miniflare({
    ...options,
    durableObjects: { DIRECTORY: options.durableObjects.DIRECTORY },
    host: '127.0.0.1',
    port: 0,
  });
  try {
    const origin = (await mf.ready).origin;
    const response = await fetch(`${origin}/devstoreaccount1/orders/messages`, {
      headers: { 'x-ms-version': '2025-11-05' },
    });
    const body = await response.text();
    assert.equal(response.status, 500);
    assert.equal(response.headers.get('x-ms-error-code'), 'InternalError');
    assert.equal(response.headers.get('x-ms-version'), '2025-11-05');
    assert.match(response.headers.get('x-ms-request-id') ?? '', /^[0-9a-f-]{36}$/);
    assert.match(
      body,
      /^<\?xml version="1\.0" encoding="utf-8"\?><Error><Code>InternalError<\/Code><Message>Server encountered an internal error\. Please try again after some time\.\nRequestId:[0-9a-f-]{36}\nTime:\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z<\/Message><Reason>[^<]*QUEUE[^<]*<\/Reason><\/Error>$/,
    );
  } finally {
    await mf.dispose();
  }
});
