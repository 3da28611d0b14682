// CORS on actual answers: a queue's object answers cross-origin requests with the account's
// rules, which the directory keeps (the Worker hands them over with each request that has an
// Origin); a change of rules applies at once.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { QueueSASPermissions, QueueServiceClient } from '@azure/storage-queue';
import { startEdge } from '../../scripts/lib/edge-server.mjs';

test("a queue's answers carry the account's CORS headers, as the rules change", async () => {
  const server = await startEdge();
  try {
    const service = QueueServiceClient.fromConnectionString(server.connectionString);
    const q = service.getQueueClient('cors-actual');
    await q.create();
    const sasUrl = q.generateSasUrl({
      permissions: QueueSASPermissions.parse('r'),
      expiresOn: new Date(Date.now() + 3600_000),
    });
    const peek = (/** @type {string} */ origin) =>
      fetch(`${sasUrl.replace('?', '/messages?peekonly=true&')}`, { headers: { Origin: origin } });
    assert.equal(
      (await peek('http://example.com')).headers.get('access-control-allow-origin'),
      null,
    );
    await service.setProperties({
      cors: [
        {
          allowedOrigins: 'http://example.com',
          allowedMethods: 'GET',
          allowedHeaders: '*',
          exposedHeaders: 'x-ms-*',
          maxAgeInSeconds: 60,
        },
      ],
    });
    const allowed = await peek('http://example.com');
    assert.equal(allowed.status, 200);
    assert.equal(allowed.headers.get('access-control-allow-origin'), 'http://example.com');
    assert.equal(
      (await peek('http://other.example')).headers.get('access-control-allow-origin'),
      null,
    );
    await service.setProperties({ cors: [] });
    assert.equal(
      (await peek('http://example.com')).headers.get('access-control-allow-origin'),
      null,
    );
  } finally {
    assert.equal(await server.stop(), 0);
  }
});
