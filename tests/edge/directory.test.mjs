// Create and Delete Queue span the queue's object and the account's directory. A crash between
// the two steps leaves the directory's copy wrong and a pending intent behind; List Queues asks
// the queue object of each pending intent for the truth first, so a queue is never listed but
// unusable, nor usable but unlisted. The crash is reproduced by editing the stopped directory's
// SQLite file with Bun as the crash would have left it. A request the queue object refuses
// writes nothing, in either object: shown by dumping every object's SQLite file with Bun.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { QueueServiceClient } from '@azure/storage-queue';
import { rejectsWith, ROOT } from '../e2e/azqueue_server.mjs';
import { startEdge } from '../../scripts/lib/edge-server.mjs';

const BUN = path.join(ROOT, 'node_modules', '.bin', 'bun');

/** @param {string} dir */
function directoryFile(dir) {
  const classDir = path.join(dir, '-DirectoryObject');
  const [file] = fs
    .readdirSync(classDir)
    .filter((f) => f.endsWith('.sqlite') && f !== 'metadata.sqlite');
  return path.join(classDir, file);
}

/** Every row of every object's SQLite file, by class (tests/edge/dump-objects.bun.mjs). */
const dump = (/** @type {string} */ dir) =>
  Object.fromEntries(
    ['-DirectoryObject', '-QueueObject'].map((cls) => [
      cls,
      JSON.parse(
        execFileSync(
          BUN,
          [path.join(ROOT, 'tests', 'edge', 'dump-objects.bun.mjs'), path.join(dir, cls)],
          { encoding: 'utf8' },
        ),
      ),
    ]),
  );

const tamper = (/** @type {string} */ dir, /** @type {string[]} */ ...args) =>
  JSON.parse(
    execFileSync(
      BUN,
      [path.join(ROOT, 'tests', 'edge', 'tamper-directory.bun.mjs'), directoryFile(dir), ...args],
      { encoding: 'utf8' },
    ),
  );

/** @param {QueueServiceClient} service */
async function listed(service) {
  /** @type {[string, Record<string, string> | undefined][]} */
  const names = [];
  for await (const q of service.listQueues({ prefix: 'half-', includeMetadata: true }))
    names.push([q.name, q.metadata]);
  return names;
}

test('List Queues shows what the queue objects hold after a crash between the two steps', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'azqueue-edge-directory-'));
  let server = null;
  try {
    server = await startEdge({ args: ['--persist', dir] });
    let service = QueueServiceClient.fromConnectionString(server.connectionString);
    await service.getQueueClient('half-created').create({ metadata: { step: 'one' } });
    await service.getQueueClient('half-deleted').create({ metadata: { step: 'two' } });
    assert.deepEqual(await listed(service), [
      ['half-created', { step: 'one' }],
      ['half-deleted', { step: 'two' }],
    ]);
    await service.getQueueClient('half-deleted').delete();
    assert.equal(await server.stop(), 0);
    server = null;

    // As if the Worker had crashed after each queue object's step, before the directory's.
    const copy = tamper(dir, 'read', 'half-created');
    assert.notEqual(copy, null);
    tamper(dir, 'unlist', 'half-created');
    tamper(dir, 'relist', 'half-deleted', copy.replace('half-created', 'half-deleted'));
    assert.equal(tamper(dir, 'read', 'half-created'), null);

    server = await startEdge({ args: ['--persist', dir] });
    service = QueueServiceClient.fromConnectionString(server.connectionString);
    assert.deepEqual(await listed(service), [['half-created', { step: 'one' }]]);
    await service.getQueueClient('half-created').sendMessage('usable and listed');
    await rejectsWith(
      assert,
      service.getQueueClient('half-deleted').sendMessage('x'),
      404,
      'QueueNotFound',
    );
    assert.equal(await server.stop(), 0);
    server = null;
    // The directory's own copy was repaired, not only the answer.
    assert.notEqual(tamper(dir, 'read', 'half-created'), null);
    assert.equal(tamper(dir, 'read', 'half-deleted'), null);
  } finally {
    await server?.kill(); // a live dev.mjs would keep the test runner waiting
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a refused Create Queue, Delete Queue or Set Metadata writes nothing in any object', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'azqueue-edge-refused-'));
  /** @type {Awaited<ReturnType<typeof startEdge>> | null} */
  let server = null;
  /**
   * Runs `steps` against a dev.mjs on `dir`, then stops it.
   * @param {(service: QueueServiceClient, forged: QueueServiceClient) => Promise<void>} steps
   */
  const session = async (steps) => {
    server = await startEdge({ args: ['--persist', dir] });
    const service = QueueServiceClient.fromConnectionString(server.connectionString, {
      retryOptions: { maxTries: 1 },
    });
    // The same account signed with another key: every request is refused as unauthenticated.
    const forged = QueueServiceClient.fromConnectionString(
      server.connectionString.replace(/AccountKey=[^;]+/, `AccountKey=${'A'.repeat(86)}==`),
      { retryOptions: { maxTries: 1 } },
    );
    await steps(service, forged);
    assert.equal(await server.stop(), 0);
    server = null;
  };
  /**
   * @param {QueueServiceClient} service
   * @param {QueueServiceClient} forged
   */
  const refusals = async (service, forged) => {
    const bad = forged.getQueueClient('kept');
    await rejectsWith(assert, bad.create(), 403, 'AuthenticationFailed');
    await rejectsWith(assert, bad.delete(), 403, 'AuthenticationFailed');
    await rejectsWith(assert, bad.setMetadata({ a: 'b' }), 403, 'AuthenticationFailed');
    await rejectsWith(assert, forged.getQueueClient('other').create(), 403, 'AuthenticationFailed');
    // Refused for what they say, not who sent them.
    await rejectsWith(
      assert,
      service.getQueueClient('missing').setMetadata({ a: 'b' }),
      404,
      'QueueNotFound',
    );
    await rejectsWith(assert, service.getQueueClient('missing').delete(), 404, 'QueueNotFound');
  };
  try {
    // On a fresh account: no object keeps a single row.
    await session(refusals);
    for (const [cls, objects] of Object.entries(dump(dir))) {
      for (const [id, tables] of Object.entries(objects)) {
        for (const [table, rows] of Object.entries(tables))
          assert.deepEqual(rows, [], `${cls} ${id} ${table}`);
      }
    }

    // Beside a queue that exists: every row stays as it was, the directory's included.
    await session(async (service) => {
      await service.getQueueClient('kept').create({ metadata: { step: 'one' } });
    });
    const before = dump(dir);
    assert.equal(Object.keys(before['-DirectoryObject']).length, 1);
    await session(async (service, forged) => {
      await refusals(service, forged);
      await rejectsWith(
        assert,
        service.getQueueClient('kept').create({ metadata: { step: 'two' } }),
        409,
        'QueueAlreadyExists',
      );
    });
    assert.deepEqual(dump(dir), before);

    // And the accepted requests still reach the directory's copy.
    await session(async (service) => {
      await service.getQueueClient('kept').setMetadata({ step: 'three' });
      await service.getQueueClient('made').create({ metadata: { m: '1' } });
      /** @type {[string, Record<string, string> | undefined][]} */
      const names = [];
      for await (const q of service.listQueues({ includeMetadata: true }))
        names.push([q.name, q.metadata]);
      assert.deepEqual(names, [
        ['kept', { step: 'three' }],
        ['made', { m: '1' }],
      ]);
      await service.getQueueClient('made').delete();
    });
    const [directory] = Object.values(dump(dir)['-DirectoryObject']);
    assert.deepEqual(directory.azqueue_pending, []);
    const copies = directory.azqueue_records.filter((/** @type {{ key: string }} */ r) =>
      r.key.startsWith('queue/'),
    );
    assert.deepEqual(
      copies.map((/** @type {{ key: string }} */ r) => r.key),
      ['queue/devstoreaccount1/kept'],
    );
  } finally {
    // Set and cleared inside `session`: tsc cannot see that it may be left set.
    await /** @type {import('../../scripts/lib/edge-server.mjs').RunningEdge | null} */ (
      server
    )?.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
