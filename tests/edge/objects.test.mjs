// 64 queues live in 64 queue objects (read from the objects' SQLite files with Bun), the
// account's directory lists them all, and List Queues pages through them with their metadata.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { QueueServiceClient } from '@azure/storage-queue';
import { ROOT } from '../e2e/azqueue_server.mjs';
import { startEdge } from '../../scripts/lib/edge-server.mjs';

const BUN = path.join(ROOT, 'node_modules', '.bin', 'bun');
const COUNT = 64;

/**
 * What each object file of one class holds: { id: { queues, messages, layout } }.
 * @param {string} dir
 * @param {string} className
 */
function objectsOf(dir, className) {
  const script = path.join(ROOT, 'tests', 'edge', 'read-objects.bun.mjs');
  return JSON.parse(
    execFileSync(BUN, [script, path.join(dir, `-${className}`)], { encoding: 'utf8' }),
  );
}

test(`${COUNT} queues are ${COUNT} objects, and List Queues pages through them with metadata`, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'azqueue-edge-objects-'));
  try {
    const server = await startEdge({ args: ['--persist', dir] });
    const names = Array.from({ length: COUNT }, (_, i) => `spread-${String(i).padStart(2, '0')}`);
    try {
      const service = QueueServiceClient.fromConnectionString(server.connectionString);
      // Created in reverse order, so the sorted listing is the directory's doing.
      for (const name of [...names].reverse()) {
        const q = service.getQueueClient(name);
        await q.create({ metadata: { index: name.slice(-2) } });
        await q.sendMessage(`first message of ${name}`);
      }
      const pages = [];
      for await (const page of service
        .listQueues({ includeMetadata: true, prefix: 'spread-' })
        .byPage({ maxPageSize: 10 })) {
        // includeMetadata: each item has its metadata.
        const items = /** @type {import('@azure/storage-queue').QueueItem[]} */ (page.queueItems);
        pages.push(
          items.map((q) => [q.name, /** @type {Record<string, string>} */ (q.metadata).index]),
        );
      }
      assert.equal(pages.length, Math.ceil(COUNT / 10));
      assert.deepEqual(
        pages.flat(),
        names.map((n) => [n, n.slice(-2)]),
      );
      // Each queue answers from its own object: its message is there, and only its.
      for (const name of names) {
        const r = await fetch(`${server.origin}/_azqueue/inspect/devstoreaccount1/${name}`);
        assert.deepEqual(
          (await r.json()).messages.map(
            (/** @type {{ messageText: string }} */ m) => m.messageText,
          ),
          [`first message of ${name}`],
        );
      }
    } finally {
      assert.equal(await server.stop(), 0);
    }
    const queues = Object.values(objectsOf(dir, 'QueueObject'));
    assert.equal(queues.length, COUNT, 'one SQLite file per queue object');
    assert.deepEqual(
      queues.map((o) => o.queues.length),
      Array(COUNT).fill(1),
      'each object holds one queue',
    );
    assert.deepEqual(
      queues.flatMap((o) => o.queues).sort(),
      names.map((n) => `queue/devstoreaccount1/${n}`),
    );
    assert.deepEqual(
      queues.map((o) => o.messages),
      Array(COUNT).fill(1),
    );
    const directories = Object.values(objectsOf(dir, 'DirectoryObject'));
    assert.equal(directories.length, 1, 'one directory object for the account');
    assert.equal(directories[0].queues.length, COUNT);
    assert.equal(directories[0].messages, 0, 'the directory holds names and metadata only');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
