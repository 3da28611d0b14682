// Queue- and service-level operations through the official JS SDK (@azure/storage-queue):
// create / 204 / 409, delete, exists, list with paging and prefixes, metadata, access
// policies, service properties and CORS.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { QueueServiceClient } from '@azure/storage-queue';
import { rejectsWith, startServer, TARGET, uniqueName } from './azqueue_server.mjs';

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
/** @type {QueueServiceClient} */
let service;
before(async () => {
  server = await startServer();
  service = QueueServiceClient.fromConnectionString(server.connectionString);
});
after(async () => {
  await server?.stop();
});

describe('create and delete', () => {
  test('create answers 201, again with the same metadata 204, with other metadata 409', async () => {
    const q = service.getQueueClient(uniqueName('create'));
    assert.equal((await q.create({ metadata: { team: 'web' } }))._response.status, 201);
    assert.equal((await q.create({ metadata: { Team: 'web' } }))._response.status, 204);
    await rejectsWith(assert, q.create({ metadata: { team: 'ops' } }), 409, 'QueueAlreadyExists');
    assert.equal((await q.createIfNotExists({ metadata: { team: 'web' } })).succeeded, false);
  });

  test('delete answers 204, then 404 QueueNotFound; exists follows', async () => {
    const q = service.getQueueClient(uniqueName('delete'));
    await q.create();
    assert.equal(await q.exists(), true);
    assert.equal((await q.delete())._response.status, 204);
    assert.equal(await q.exists(), false);
    await rejectsWith(assert, q.delete(), 404, 'QueueNotFound');
    assert.equal((await q.deleteIfExists()).succeeded, false);
  });

  test('bad names: characters → 400 InvalidResourceName, length → 400 OutOfRangeInput', async () => {
    await rejectsWith(
      assert,
      service.getQueueClient('Upper-Case').create(),
      400,
      'InvalidResourceName',
    );
    await rejectsWith(assert, service.getQueueClient('a--b').create(), 400, 'InvalidResourceName');
    await rejectsWith(assert, service.getQueueClient('ab').create(), 400, 'OutOfRangeInput');
    await rejectsWith(
      assert,
      service.getQueueClient('a'.repeat(64)).create(),
      400,
      'OutOfRangeInput',
    );
    // Azure storage's words for the length (issue 13), as the SDK shows them.
    await assert.rejects(
      service.getQueueClient('ab').create(),
      (/** @type {import('@azure/storage-queue').RestError} */ err) => {
        assert.match(
          err.message,
          /^The specified resource name length is not within the permissible limits\.\n/,
        );
        return true;
      },
    );
  });
});

describe('list', () => {
  test('pages through a prefix in name order with continuation tokens', async () => {
    const prefix = uniqueName('list');
    const names = ['d', 'a', 'c', 'e', 'b'].map((s) => `${prefix}-${s}`);
    for (const n of names) await service.createQueue(n, { metadata: { letter: n.slice(-1) } });
    const pages = [];
    for await (const page of service.listQueues({ prefix }).byPage({ maxPageSize: 2 })) {
      pages.push(
        /** @type {import('@azure/storage-queue').QueueItem[]} */ (page.queueItems).map(
          (q) => q.name,
        ),
      );
    }
    assert.deepEqual(pages, [
      names.slice().sort().slice(0, 2),
      names.slice().sort().slice(2, 4),
      names.slice().sort().slice(4),
    ]);
    const all = [];
    for await (const q of service.listQueues({ prefix, includeMetadata: true })) all.push(q);
    assert.deepEqual(
      all.map((q) => /** @type {Record<string, string>} includeMetadata */ (q.metadata).letter),
      ['a', 'b', 'c', 'd', 'e'],
    );
    const none = [];
    for await (const q of service.listQueues({ prefix: `${prefix}-zzz` })) none.push(q);
    assert.deepEqual(none, []);
  });
});

describe('metadata', () => {
  test('set replaces the whole set; get reports the message count, invisible ones included', async () => {
    const q = service.getQueueClient(uniqueName('meta'));
    await q.create({ metadata: { first: '1' } });
    await q.setMetadata({ Color: 'red', size: 'XL' });
    await q.sendMessage('one');
    await q.sendMessage('two', { visibilityTimeout: 60 });
    const props = await q.getProperties();
    // Node's HTTP client lowercases response header names (against Azure too).
    assert.deepEqual(props.metadata, { color: 'red', size: 'XL' });
    assert.equal(props.approximateMessagesCount, 2);
    // List Queues names each pair by element: the case it was sent in, as Azure keeps it. Behind
    // Fetch (the edge Worker) header names arrive lowercased, so that is all it can keep (docs/choices.md).
    const listed = [];
    for await (const item of service.listQueues({ prefix: q.name, includeMetadata: true }))
      listed.push(item.metadata);
    assert.deepEqual(listed, [
      TARGET === 'edge' ? { color: 'red', size: 'XL' } : { Color: 'red', size: 'XL' },
    ]);
    await q.setMetadata();
    assert.deepEqual((await q.getProperties()).metadata, {});
  });

  test('metadata on a missing queue → 404 QueueNotFound', async () => {
    const q = service.getQueueClient(uniqueName('nometa'));
    await rejectsWith(assert, q.getProperties(), 404, 'QueueNotFound');
    await rejectsWith(assert, q.setMetadata({ a: 'b' }), 404, 'QueueNotFound');
  });
});

describe('access policies', () => {
  test('set and get up to five signed identifiers; a sixth is refused', async () => {
    const q = service.getQueueClient(uniqueName('acl'));
    await q.create();
    const startsOn = new Date('2030-01-01T00:00:00Z');
    const expiresOn = new Date('2030-12-31T23:59:59Z');
    await q.setAccessPolicy([
      { id: 'readers', accessPolicy: { startsOn, expiresOn, permissions: 'r' } },
      { id: 'all', accessPolicy: { startsOn, expiresOn, permissions: 'raup' } },
    ]);
    const got = await q.getAccessPolicy();
    assert.deepEqual(
      got.signedIdentifiers.map((s) => [s.id, s.accessPolicy.permissions]),
      [
        ['readers', 'r'],
        ['all', 'raup'],
      ],
    );
    const policy = /** @type {{ startsOn: Date, expiresOn: Date }} set above */ (
      got.signedIdentifiers[0].accessPolicy
    );
    assert.equal(policy.startsOn.getTime(), startsOn.getTime());
    assert.equal(policy.expiresOn.getTime(), expiresOn.getTime());
    const six = Array.from({ length: 6 }, (_, i) => ({
      id: `p${i}`,
      accessPolicy: { permissions: 'r', startsOn, expiresOn },
    }));
    await rejectsWith(assert, q.setAccessPolicy(six), 400, 'InvalidXmlDocument');
    await q.setAccessPolicy([]);
    assert.deepEqual((await q.getAccessPolicy()).signedIdentifiers, []);
  });
});

/** The CORS rule the service-properties and preflight tests set. */
const EXAMPLE_CORS_RULE = {
  allowedOrigins: 'http://example.com',
  allowedMethods: 'GET,PUT',
  allowedHeaders: 'x-ms-meta-*',
  exposedHeaders: '*',
  maxAgeInSeconds: 600,
};

describe('service properties and CORS', () => {
  test('fresh properties read like the real service; set keeps absent parts', async () => {
    /** @typedef {Required<import('@azure/storage-queue').ServiceGetPropertiesResponse>} Props */
    const props = /** @type {Props} the service answers every part */ (
      await service.getProperties()
    );
    assert.equal(props.hourMetrics.enabled, true);
    assert.equal(props.minuteMetrics.enabled, false);
    assert.equal(props.queueAnalyticsLogging.read, false);
    await service.setProperties({
      cors: [EXAMPLE_CORS_RULE],
    });
    const after = /** @type {Props} */ (await service.getProperties());
    assert.equal(after.cors.length, 1);
    assert.equal(after.cors[0].allowedOrigins, 'http://example.com');
    assert.equal(after.cors[0].maxAgeInSeconds, 600);
    assert.equal(after.hourMetrics.enabled, true);
  });

  test('preflight: a matching rule answers 200 with the CORS headers, others 403', async () => {
    await service.setProperties({
      cors: [EXAMPLE_CORS_RULE],
    });
    const url = `${server.queueUrl}/any-queue`;
    const ok = await fetch(url, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://example.com',
        'Access-Control-Request-Method': 'PUT',
        'Access-Control-Request-Headers': 'x-ms-meta-a',
      },
    });
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get('access-control-allow-origin'), 'http://example.com');
    assert.equal(ok.headers.get('access-control-max-age'), '600');
    const denied = await fetch(url, {
      method: 'OPTIONS',
      headers: { Origin: 'http://evil.example', 'Access-Control-Request-Method': 'PUT' },
    });
    assert.equal(denied.status, 403);
    assert.equal(denied.headers.get('x-ms-error-code'), 'CorsPreflightFailure');
    await service.setProperties({ cors: [] });
  });
});
