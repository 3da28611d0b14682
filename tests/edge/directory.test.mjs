// Create and Delete Queue span the queue's object and the account's directory. A crash between
// the two steps leaves the directory's copy wrong and a pending intent behind; List Queues asks
// the queue object of each pending intent for the truth first, so a queue is never listed but
// unusable, nor usable but unlisted. The crash is reproduced by editing the stopped directory's
// SQLite file with Bun as the crash would have left it.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { QueueServiceClient } from '@azure/storage-queue';
import { rejectsWith, ROOT } from '../e2e/azqueue_server.mjs';
import { startEdge } from './edge_server.mjs';

const BUN = path.join(ROOT, 'node_modules', '.bin', 'bun');

function directoryFile(dir) {
  const classDir = path.join(dir, '-DirectoryObject');
  const [file] = fs
    .readdirSync(classDir)
    .filter((f) => f.endsWith('.sqlite') && f !== 'metadata.sqlite');
  return path.join(classDir, file);
}

const tamper = (dir, ...args) =>
  JSON.parse(
    execFileSync(
      BUN,
      [path.join(ROOT, 'tests', 'edge', 'tamper-directory.bun.mjs'), directoryFile(dir), ...args],
      { encoding: 'utf8' },
    ),
  );

async function listed(service) {
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
