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

test("the Worker's internal headers sent by a client change nothing", async () => {
  const server = await startEdge();
  try {
    const service = QueueServiceClient.fromConnectionString(server.connectionString);
    const q = service.getQueueClient('forged-headers');
    const sasUrl = q.generateSasUrl({
      permissions: QueueSASPermissions.parse('rap'),
      expiresOn: new Date(Date.now() + 3600_000),
    });
    const messages = sasUrl.replace('?', '/messages?');
    const body = '<QueueMessage><MessageText>kept</MessageText></QueueMessage>';
    const rules = [
      {
        allowedOrigins: 'http://evil.example',
        allowedMethods: 'GET,POST',
        allowedHeaders: '*',
        exposedHeaders: '*',
        maxAgeInSeconds: 60,
      },
    ];
    const forged = {
      'x-azqueue-edge-cors': JSON.stringify(rules),
      'X-Azqueue-Edge-Route': JSON.stringify({
        kind: 'queue',
        account: 'devstoreaccount1',
        queue: 'elsewhere',
        changesRecord: false,
      }),
    };
    // The object's first request (which opens it) and every later one carry a route and rules
    // passed off as the Worker's: the answers, the listing and the count follow the URL.
    const early = await fetch(messages, { method: 'POST', headers: forged, body });
    assert.equal(early.status, 404);
    await q.create();
    const names = [];
    for await (const item of service.listQueues()) names.push(item.name);
    assert.deepEqual(names, ['forged-headers']);

    // The account has no CORS rules: rules a client passes off as the Worker's are not taken.
    const put = await fetch(messages, { method: 'POST', headers: forged, body });
    assert.equal(put.status, 201);
    const peek = await fetch(messages.replace('/messages?', '/messages?peekonly=true&'), {
      headers: { ...forged, Origin: 'http://evil.example' },
    });
    assert.equal(peek.status, 200);
    assert.equal(peek.headers.get('access-control-allow-origin'), null);
    assert.match(await peek.text(), /<MessageText>kept<\/MessageText>/);
    assert.equal((await q.getProperties()).approximateMessagesCount, 1);
  } finally {
    assert.equal(await server.stop(), 0);
  }
});
