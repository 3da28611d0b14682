// `GET /_azqueue/events` on both ports of `node hosts/node/server.mjs` (hosts/node/event-stream.mjs):
// every event, one `data:` line each; or, with `?per=queue` (the inspector's), one `changed`
// line per queue that changed in each flush, counting the events it stands for, with every
// clock event as it is and the newest fault events of each write (EventStreams over a real
// in-process service with fault rules); with `&requests=1` as well, the request log: the newest
// 20 Azure requests of each write and how many were left out, and nothing on the other streams.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ROOT, startServer } from '../../scripts/lib/azqueue-server.mjs';
import { EventStreams } from '../../hosts/node/event-stream.mjs';
import { Client } from '../../scripts/lib/raw-queue-client.mjs';

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;

before(async () => {
  server = await startServer({ args: ['--inMemoryPersistence'] });
});

after(async () => {
  await server?.stop();
});

/**
 * Opens the event stream at `path` on the page port (or `base`); `events()` is what came so far,
 * parsed.
 * @param {string} path
 * @param {string} [base]
 * @returns {Promise<{ events: () => any[], close: () => void }>}
 */
function listen(path, base = server.webUrl) {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = request(url, (res) => {
      assert.equal(res.statusCode, 200);
      let text = '';
      res.on('data', (c) => (text += c));
      resolve({
        events: () =>
          text
            .split('\n')
            .filter((l) => l.startsWith('data: '))
            .map((l) => JSON.parse(l.slice(6))),
        close: () => res.destroy(),
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** Waits until `done()` holds, polling every 10 ms, for at most 5 s. @param {() => boolean} done */
async function until(done) {
  for (let i = 0; i < 500 && !done(); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(done(), 'in time');
}

test('per=queue: one changed line per queue per flush, and the clock as it is', async () => {
  const [every, summary] = await Promise.all([
    listen('/_azqueue/events'),
    listen('/_azqueue/events?per=queue'),
  ]);
  const port = Number(new URL(server.queueUrl).port);
  const clients = Array.from({ length: 8 }, () => new Client(port, 'burst'));
  await clients[0].createQueue();
  await Promise.all(
    clients.map(async (c) => {
      for (let i = 0; i < 50; i++)
        await c.put('<QueueMessage><MessageText>x</MessageText></QueueMessage>');
    }),
  );
  const moved = await fetch(`${server.webUrl}_azqueue/clock`, {
    method: 'POST',
    headers: { 'x-azqueue-dev': '1', 'content-type': 'application/json' },
    body: JSON.stringify({ advanceMs: 1000 }),
  });
  assert.equal(moved.status, 200);
  await until(() => every.events().some((e) => e.type === 'clock'));
  await until(() => summary.events().some((e) => e.type === 'clock'));
  const sent = every.events().filter((e) => e.type === 'sent');
  assert.equal(sent.length, 400, 'every event on the plain stream');
  const changed = summary.events().filter((e) => e.type === 'changed');
  assert.ok(changed.length < 400, `${changed.length} lines stand for 401 events`);
  assert.ok(changed.every((e) => e.account === 'devstoreaccount1' && e.queue === 'burst'));
  // The queue's creation and its 400 sends.
  assert.equal(
    changed.reduce((n, e) => n + e.events, 0),
    401,
  );
  assert.equal(summary.events().filter((e) => e.type === 'clock').length, 1);
  for (const c of clients) c.close();
  every.close();
  summary.close();
});

test('per=queue: a write carries its newest fault events as they are, and no change for them', async () => {
  /** @type {typeof import('../../pkg/node/azqueue.js')} */
  const { QueueService } = createRequire(import.meta.url)(
    path.join(ROOT, 'pkg', 'node', 'azqueue.js'),
  );
  const service = await QueueService.open();
  const queue = await service.createQueue('refused');
  const streams = new EventStreams(service);
  /** A stream's sink: what was written to it, as events; `close()` as its client going. */
  const sink = () => {
    let text = '';
    /** @type {Array<() => void>} */
    const onClose = [];
    return {
      write: (/** @type {string} */ chunk) => (text += chunk),
      once: (/** @type {'close'} */ _event, /** @type {() => void} */ listener) =>
        onClose.push(listener),
      close: () => onClose.forEach((listener) => listener()),
      events: () =>
        text
          .split('\n')
          .filter((l) => l.startsWith('data: '))
          .map((l) => JSON.parse(l.slice(6))),
    };
  };
  const every = sink();
  const summary = sink();
  streams.add(every);
  streams.add(summary, true);
  service.faults.add({ rules: [{ operation: 'PutMessage', status: 503 }] });
  // 25 refused sends, all before one write.
  for (let i = 0; i < 25; i++)
    await queue.sendMessage(`m${i}`).then(
      () => assert.fail('the rule refuses every send'),
      () => {},
    );
  streams.flush(true);
  const faults = every.events().filter((e) => e.type === 'fault');
  assert.equal(faults.length, 25);
  assert.deepEqual(
    summary.events(),
    faults.slice(-10),
    'the newest 10 faults, as they are, and no changed line for them',
  );
  assert.equal(service.faults.get().rules[0].injected, 25);
  // Both streams gone: their keepalive timers stop and the service is no longer listened to.
  every.close();
  summary.close();
  service.free();
});

test('per=queue&requests=1: the newest Azure requests of each write, the rest counted', async () => {
  const [every, summary, logged] = await Promise.all([
    listen('/_azqueue/events'),
    listen('/_azqueue/events?per=queue'),
    listen('/_azqueue/events?per=queue&requests=1'),
  ]);
  const port = Number(new URL(server.queueUrl).port);
  const clients = Array.from({ length: 4 }, () => new Client(port, 'logged'));
  await clients[0].createQueue();
  await Promise.all(
    clients.map(async (c) => {
      for (let i = 0; i < 25; i++)
        await c.put('<QueueMessage><MessageText>x</MessageText></QueueMessage>');
    }),
  );
  const missing = new Client(port, 'no-such-queue');
  await missing.put('<QueueMessage><MessageText>x</MessageText></QueueMessage>');
  const writes = () => logged.events().filter((e) => e.type === 'requests');
  const seen = () => writes().reduce((n, e) => n + e.requests.length + e.leftOut, 0);
  // The queue's creation, its 100 puts and the refused one.
  await until(() => seen() === 102);
  assert.ok(writes().every((e) => e.requests.length <= 20));
  const last = writes().at(-1).requests.at(-1);
  assert.equal(last.operation, 'Put Message');
  assert.equal(last.method, 'POST');
  assert.equal(last.path, '/devstoreaccount1/no-such-queue/messages');
  assert.equal(last.status, 404);
  assert.equal(last.code, 'QueueNotFound');
  assert.ok(last.durationMs >= 0 && Number.isFinite(Date.parse(last.at)));
  assert.ok(
    writes()
      .flatMap((e) => e.requests)
      .every((r) => ['Create Queue', 'Put Message'].includes(r.operation)),
    'Azure requests only, never the development paths',
  );
  // Only the stream that asked carries them.
  assert.ok(!every.events().some((e) => e.type === 'requests'));
  assert.ok(!summary.events().some((e) => e.type === 'requests'));
  for (const c of [...clients, missing]) c.close();
  every.close();
  summary.close();
  logged.close();
});

test('the queue port writes the stream that was asked for: every event, or the summary and the request log', async () => {
  const [every, logged] = await Promise.all([
    listen('/_azqueue/events', server.queueUrl),
    listen('/_azqueue/events?per=queue&requests=1', server.queueUrl),
  ]);
  const port = Number(new URL(server.queueUrl).port);
  const client = new Client(port, 'on-the-queue-port');
  await client.createQueue();
  for (let i = 0; i < 3; i++)
    await client.put('<QueueMessage><MessageText>x</MessageText></QueueMessage>');
  const ours = (/** @type {any} */ e) => e.queue === 'on-the-queue-port';
  const changed = () =>
    logged
      .events()
      .filter((e) => e.type === 'changed' && ours(e))
      .reduce((n, e) => n + e.events, 0);
  const logged4 = () =>
    logged
      .events()
      .filter((e) => e.type === 'requests')
      .flatMap((e) => e.requests)
      .filter((r) => r.path.startsWith('/devstoreaccount1/on-the-queue-port')).length;
  await until(() => every.events().filter(ours).length === 4 && changed() === 4 && logged4() === 4);
  assert.ok(!logged.events().some((e) => ours(e) && e.type !== 'changed'), 'one line per change');
  assert.ok(!every.events().some((e) => e.type === 'changed' || e.type === 'requests'));
  client.close();
  every.close();
  logged.close();
});
