// The Node journal and the storage-adapter path (node --test, against pkg/node):
// the store contract suite (the same Rust checks the memory and IndexedDB stores pass, run
// through `checkStorageAdapter`), reopening from disk, torn tails and corruption, compaction,
// the directory lock, group commit, relaxed durability, failure handling and the dev paths.

import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { Journal, frame, readFrames } from '../../hosts/node/journal.mjs';
import { ROOT, startServer } from '../e2e/azqueue_server.mjs';

/** @type {typeof import('../../pkg/node/azqueue.js')} */
const { QueueService, checkStorageAdapter } = createRequire(import.meta.url)(
  path.join(ROOT, 'pkg', 'node', 'azqueue.js'),
);

/** @type {string[]} */
const dirs = [];
const tmp = (/** @type {string} */ what) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `azqueue-${what}-`));
  dirs.push(dir);
  return dir;
};
after(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** A fixed clock, so exports compare byte for byte. */
const T0 = Date.UTC(2025, 0, 1);
/**
 * @param {import('../../pkg/node/azqueue.js').StorageAdapter} store
 * @param {Record<string, unknown>} [extra]
 */
const open = (store, extra = {}) =>
  QueueService.open({ store, now: () => T0, anonymous: true, ...extra });

/**
 * The export without its timestamp.
 * @param {import('../../pkg/node/azqueue.js').QueueService} service
 */
async function state(service) {
  const doc = JSON.parse(await service.exportSnapshot());
  delete doc.exportedAt;
  return doc;
}

/** A storage adapter over a Map, with hooks to observe or hold commits. */
class MapAdapter {
  /** @type {Map<string, string>} */
  records = new Map();
  /** @type {import('../../pkg/node/azqueue.js').StorageOp[][]} */
  commits = [];
  /** @type {Promise<unknown> | null} a Promise each commit waits for, when set */
  hold = null;
  /** @type {Error | null} an Error each commit rejects with, when set */
  fail = null;
  load() {
    return [...this.records];
  }
  /** @param {import('../../pkg/node/azqueue.js').StorageOp[]} batch */
  async commit(batch) {
    this.commits.push(batch);
    if (this.hold) await this.hold;
    if (this.fail) throw this.fail;
    for (const op of batch) {
      if (op.op === 'put') this.records.set(op.key, op.value);
      else if (op.op === 'delete') this.records.delete(op.key);
      else if (op.op === 'deletePrefix') {
        for (const k of [...this.records.keys()])
          if (k.startsWith(op.prefix)) this.records.delete(k);
      } else if (op.op === 'clear') this.records.clear();
    }
  }
}

describe('store contract', () => {
  test('the journal meets the store contract', async () => {
    /** @type {Journal[]} */
    const journals = [];
    await checkStorageAdapter(() => {
      const j = new Journal(tmp('contract'));
      journals.push(j);
      return j;
    });
    assert.ok(journals.length >= 5);
    await Promise.all(journals.map((j) => j.close()));
  });

  test('a Map-backed adapter meets it too (the adapter interface itself)', async () => {
    await checkStorageAdapter(() => new MapAdapter());
  });

  test('a broken adapter fails the contract with a clear error', async () => {
    await assert.rejects(
      checkStorageAdapter(() => ({
        load: () => [],
        commit: () => Promise.reject(new Error('disk on fire')),
      })),
      /disk on fire/,
    );
  });
});

describe('journal on disk', () => {
  test('acknowledged puts and deletes survive closing and reopening', async () => {
    const dir = tmp('reopen');
    let j = new Journal(dir);
    let s = await open(j);
    const q = await s.createQueue('orders', { metadata: { team: 'web' } });
    const sent = [];
    for (let i = 0; i < 20; i++) sent.push(await q.sendMessage(`order ${i}`));
    const got = await q.receiveMessages({ numberOfMessages: 5, visibilityTimeout: 60 });
    for (const m of got.receivedMessageItems.slice(0, 3))
      await q.deleteMessage(m.messageId, m.popReceipt);
    await q.updateMessage(
      got.receivedMessageItems[3].messageId,
      got.receivedMessageItems[3].popReceipt,
      'half done',
      10,
    );
    const before = await state(s);
    await s.close();
    await j.close();

    j = new Journal(dir);
    s = await open(j);
    assert.deepEqual(await state(s), before);
    assert.equal(/** @type {{ now: Date }} a journal saves one */ (s.savedClock).now.getTime(), T0);
    const left = s.inspect().accounts[0].queues[0].messages.map((m) => m.messageText);
    assert.equal(left.length, 17);
    assert.ok(left.includes('half done'));
    await s.close();
    await j.close();
  });

  test('a torn final frame is dropped, never misread, and cut off before the next append', async () => {
    const dir = tmp('torn');
    let j = new Journal(dir);
    let s = await open(j);
    const q = await s.createQueue('torn');
    await q.sendMessage('kept');
    const before = await state(s);
    await s.close();
    await j.close();

    // A crash in the middle of an append: half a frame at the end of the file.
    const whole = frame(Buffer.from(JSON.stringify({ g: 0, ops: [{ op: 'clear' }] })));
    fs.appendFileSync(path.join(dir, 'journal.azq'), whole.subarray(0, whole.length - 3));
    const size = fs.statSync(path.join(dir, 'journal.azq')).size;

    j = new Journal(dir);
    s = await open(j);
    assert.deepEqual(await state(s), before, 'the torn clear was not applied');
    assert.equal(j.stats.droppedTailBytes, whole.length - 3);
    assert.equal(fs.statSync(path.join(dir, 'journal.azq')).size, size - (whole.length - 3));
    await s.queue('torn').sendMessage('after the tear');
    const after = await state(s);
    await s.close();
    await j.close();

    j = new Journal(dir);
    s = await open(j);
    assert.deepEqual(await state(s), after);
    await s.close();
    await j.close();
  });

  test('garbage after the last frame (zeros from a preallocated block) is a torn tail too', () => {
    const good = frame(Buffer.from('{"g":0,"ops":[]}'));
    const { payloads, end, torn } = readFrames(Buffer.concat([good, Buffer.alloc(100)]));
    assert.equal(payloads.length, 1);
    assert.equal(end, good.length);
    assert.match(/** @type {string} */ (torn), /100 bytes/);
  });

  test('a damaged frame followed by a valid one is corruption: the journal refuses to open', async () => {
    const dir = tmp('corrupt');
    const a = frame(Buffer.from('{"g":0,"ops":[{"op":"put","key":"meta/x","value":"1"}]}'));
    const b = frame(Buffer.from('{"g":0,"ops":[]}'));
    a[a.length - 2] ^= 0xff; // flip a payload byte: the CRC no longer matches
    fs.writeFileSync(path.join(dir, 'journal.azq'), Buffer.concat([a, b]));
    const j = new Journal(dir);
    await assert.rejects(j.load(), { name: 'JournalCorrupt' });
    await assert.rejects(open(j), { code: 'StoreUnavailable', message: /refusing to guess/ });
  });

  test('compaction bounds the journal; state and order survive it', async () => {
    const dir = tmp('compact');
    let j = new Journal(dir, { compactBytes: 4096 });
    let s = await open(j);
    const q = await s.createQueue('churn');
    for (let i = 0; i < 200; i++) {
      await q.sendMessage(`m${i}`);
      if (i % 2) {
        const [m] = (await q.receiveMessages()).receivedMessageItems;
        await q.deleteMessage(m.messageId, m.popReceipt);
      }
    }
    assert.ok(j.stats.compactions > 0, 'compacted at least once');
    assert.ok(fs.statSync(path.join(dir, 'journal.azq')).size <= 4096 + 2048);
    const before = await state(s);
    await s.close();
    await j.close();
    j = new Journal(dir);
    s = await open(j);
    assert.deepEqual(await state(s), before);
    await s.close();
    await j.close();
  });

  test('frames older than the snapshot (a crash between rename and truncation) are skipped', async () => {
    const dir = tmp('stale');
    let j = new Journal(dir);
    let s = await open(j);
    await s.createQueue('kept');
    await j.compact(); // snapshot generation 1
    const before = await state(s);
    await s.close();
    await j.close();
    // What a crash right after the rename leaves: the old generation's frames still there.
    fs.appendFileSync(
      path.join(dir, 'journal.azq'),
      frame(Buffer.from(JSON.stringify({ g: 0, ops: [{ op: 'clear' }] }))),
    );
    j = new Journal(dir);
    s = await open(j);
    assert.deepEqual(await state(s), before);
    await s.close();
    await j.close();
  });

  test('one writer per directory; a lock left by a dead process is taken over', async () => {
    const dir = tmp('lock');
    const a = new Journal(dir);
    await a.load();
    await assert.rejects(new Journal(dir).load(), { name: 'JournalLocked' });
    await a.close();
    // A pid that cannot be alive: beyond the kernel's pid range.
    fs.writeFileSync(path.join(dir, 'azqueue.lock'), '99999999\n');
    const b = new Journal(dir);
    await b.load();
    await b.close();
    assert.equal(fs.existsSync(path.join(dir, 'azqueue.lock')), false);
  });
});

describe('the durability guarantee through an adapter', () => {
  test('concurrent operations share commits, and none resolves before its commit', async () => {
    const adapter = new MapAdapter();
    const s = await open(adapter);
    const q = await s.createQueue('group');
    const before = adapter.commits.length;
    /** @type {((value?: unknown) => void) | undefined} set by the Promise below */
    let release;
    adapter.hold = new Promise((r) => {
      release = r;
    });
    let resolved = 0;
    const sends = Array.from({ length: 32 }, (_, i) =>
      q.sendMessage(`m${i}`).then(() => {
        resolved++;
      }),
    );
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(resolved, 0, 'nothing resolves while its commit is pending');
    adapter.hold = null;
    /** @type {() => void} */ (release)();
    await Promise.all(sends);
    const used = adapter.commits.length - before;
    assert.ok(used >= 1 && used <= 2, `32 concurrent sends took ${used} commits`);
  });

  test('subscribers hear of a change only once its own commit is durable', async () => {
    const adapter = new MapAdapter();
    const s = await open(adapter);
    const q = await s.createQueue('events');
    /** @type {string[]} */
    const heard = [];
    s.subscribe((e) => heard.push(e.type));
    const tick = () => new Promise((r) => setTimeout(r, 5));
    /** @type {((value?: unknown) => void) | undefined} set by the Promise below */
    let releaseFirst;
    adapter.hold = new Promise((r) => {
      releaseFirst = r;
    });
    const a = q.sendMessage('a'); // the first commit, held
    await tick();
    /** @type {((value?: unknown) => void) | undefined} set by the Promise below */
    let releaseSecond;
    adapter.hold = new Promise((r) => {
      releaseSecond = r;
    });
    const b = q.sendMessage('b'); // waits for the next commit
    await tick();
    assert.deepEqual(heard, []);
    /** @type {() => void} */ (releaseFirst)();
    await a;
    assert.deepEqual(heard, ['sent'], 'b is not durable yet, so nobody hears of it');
    adapter.hold = null;
    /** @type {() => void} */ (releaseSecond)();
    await b;
    assert.deepEqual(heard, ['sent', 'sent']);
  });

  test('relaxed durability resolves before the commit; flush() waits for it', async () => {
    const adapter = new MapAdapter();
    const s = await open(adapter, { durability: 'relaxed' });
    assert.equal(s.durability, 'relaxed');
    const q = await s.createQueue('relaxed');
    /** @type {((value?: unknown) => void) | undefined} set by the Promise below */
    let release;
    adapter.hold = new Promise((r) => {
      release = r;
    });
    await q.sendMessage('fast'); // resolves although the commit is held
    let flushed = false;
    const f = s.flush().then(() => {
      flushed = true;
    });
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(flushed, false);
    adapter.hold = null;
    /** @type {() => void} */ (release)();
    await f;
    assert.ok(
      [...adapter.records.keys()].some((k) => k.startsWith('message/devstoreaccount1/relaxed/')),
    );
  });

  test('a failed commit fails that operation and every later one with InternalError', async () => {
    const adapter = new MapAdapter();
    const s = await open(adapter);
    const q = await s.createQueue('doomed');
    adapter.fail = Object.assign(new Error('quota'), { name: 'QuotaExceededError' });
    await assert.rejects(q.sendMessage('lost'), {
      code: 'InternalError',
      statusCode: 500,
      message: /quota exceeded/,
    });
    adapter.fail = null; // even if storage recovers, the engine is ahead of it: stay failed
    await assert.rejects(q.sendMessage('later'), { code: 'InternalError' });
    await assert.rejects(q.peekMessages(), { code: 'InternalError' });
    const r = await s.handleRaw(
      'GET',
      'http://127.0.0.1/devstoreaccount1/doomed/messages?peekonly=true',
      'x-ms-version\n2026-04-06',
      new Uint8Array(),
    );
    assert.equal(r.status, 500);
    assert.equal(r.errorCode, 'InternalError');
    // The synchronous reads agree: the engine holds a message that was never saved.
    assert.throws(() => s.listQueues(), { code: 'InternalError' });
    assert.throws(() => s.inspect(), { code: 'InternalError' });
    assert.throws(() => s.nextDeadline(), { code: 'InternalError' });
    await assert.rejects(s.getProperties(), { code: 'InternalError' });
  });

  test('open() checks its options', async () => {
    // Wrong on purpose: what the types forbid, open() refuses at run time.
    await assert.rejects(QueueService.open(/** @type {any} */ ({ store: { load() {} } })), {
      code: 'InvalidInput',
    });
    await assert.rejects(QueueService.open(/** @type {any} */ ({ durability: 'sometimes' })), {
      code: 'InvalidInput',
    });
    await assert.rejects(QueueService.open({ store: 'indexeddb' }), {
      code: 'StoreUnavailable',
      statusCode: 503,
    });
  });
});

describe('snapshot and reset', () => {
  test('export → reset → import through the JS methods, durably', async () => {
    const dir = tmp('snap');
    let j = new Journal(dir);
    let s = await open(j);
    const q = await s.createQueue('snap', { metadata: { a: 'b' } });
    for (let i = 0; i < 5; i++) await q.sendMessage(`s${i}`);
    const doc = await s.exportSnapshot();
    const before = await state(s);
    await s.reset();
    assert.deepEqual(s.inspect().accounts, []);
    await s.close();
    await j.close();
    j = new Journal(dir);
    s = await open(j);
    assert.deepEqual(s.inspect().accounts, [], 'reset is durable');
    await assert.rejects(
      s.importSnapshot('{"format":"azqueue-snapshot","version":99,"accounts":[]}'),
      { code: 'InvalidInput', message: /newer/ },
    );
    await s.importSnapshot(doc);
    await s.close();
    await j.close();
    j = new Journal(dir);
    s = await open(j);
    assert.deepEqual(await state(s), before, 'import is durable and exact');
    await s.close();
    await j.close();
  });

  test('the dev paths on the server: GET/PUT /_azqueue/snapshot, POST /_azqueue/reset, GET /_azqueue/store', async () => {
    const dir = tmp('dev');
    const server = await startServer({ args: ['--location', dir] });
    try {
      const base = server.origin;
      // Writes to the dev paths carry this header (no web page can send it cross-site).
      const DEV = { 'x-azqueue-dev': '1' };
      const info = await (await fetch(`${base}/_azqueue/store`)).json();
      assert.deepEqual([info.kind, info.durability, info.failed], ['adapter', 'strict', null]);
      const doc = {
        format: 'azqueue-snapshot',
        version: 1,
        accounts: [
          {
            name: 'devstoreaccount1',
            properties: null,
            queues: [
              {
                queue: { name: 'imported', metadata: {}, acl: [] },
                messages: [
                  {
                    id: '0f8b7c1e-2d3a-4b5c-8d9e-0a1b2c3d4e5f',
                    seq: 0,
                    text: 'hi',
                    insertion_time: T0,
                    expiration_time: T0 + 3600e3 * 24 * 365 * 50,
                    time_next_visible: T0,
                    dequeue_count: 0,
                    pop_receipt: 'AAAAAAAAAAAAAAAAAAAAAA==',
                  },
                ],
              },
            ],
          },
        ],
      };
      let r = await fetch(`${base}/_azqueue/snapshot`, {
        method: 'PUT',
        headers: DEV,
        body: JSON.stringify(doc),
      });
      assert.equal(r.status, 204);
      r = await fetch(`${base}/_azqueue/inspect/devstoreaccount1/imported`);
      assert.deepEqual(
        (await r.json()).messages.map((/** @type {{ messageText: string }} */ m) => m.messageText),
        ['hi'],
      );
      r = await fetch(`${base}/_azqueue/snapshot`);
      assert.equal(r.status, 200);
      assert.equal((await r.json()).accounts[0].queues[0].messages[0].text, 'hi');
      r = await fetch(`${base}/_azqueue/snapshot`, {
        method: 'PUT',
        headers: DEV,
        body: '{"format":"nope"}',
      });
      assert.equal(r.status, 400);
      r = await fetch(`${base}/_azqueue/reset`, { method: 'POST', headers: DEV });
      assert.equal(r.status, 204);
      r = await fetch(`${base}/_azqueue/inspect/devstoreaccount1`);
      assert.deepEqual((await r.json()).queues, []);
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });
});
