// The server's clock (GET/POST /_azqueue/clock) through the official JS SDK against the Node
// server: time is moved, never waited for, and the SDK keeps signing with its own real clock.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { QueueServiceClient } from '@azure/storage-queue';
import { runServer, startServer, uniqueName } from './azqueue_server.mjs';

const DAY_MS = 86_400_000;

/**
 * @typedef {{ now: number, offsetMs: number, paused: boolean }} Reading
 * @param {string} origin
 * @returns {Promise<Reading>}
 */
async function readClock(origin) {
  const r = await fetch(`${origin}/_azqueue/clock`);
  assert.equal(r.status, 200);
  return r.json();
}

/**
 * POSTs `body` (an object, or a string sent as it is) to the clock.
 * @param {string} origin
 * @param {unknown} body
 * @param {Record<string, string>} [headers]
 */
function moveClock(origin, body, headers = { 'x-azqueue-dev': '1' }) {
  return fetch(`${origin}/_azqueue/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/**
 * @param {string} origin
 * @param {unknown} body
 * @returns {Promise<Reading>}
 */
async function move(origin, body) {
  const r = await moveClock(origin, body);
  assert.equal(r.status, 200, await r.clone().text());
  return r.json();
}

describe('the server clock', () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  /** @type {QueueServiceClient} */
  let client;
  before(async () => {
    server = await startServer();
    client = QueueServiceClient.fromConnectionString(server.connectionString);
  });
  after(() => server?.stop());

  test('reads the wall clock until it is moved', async () => {
    const before = Date.now();
    const c = await readClock(server.origin);
    assert.equal(c.paused, false);
    assert.ok(c.now >= before, `${c.now} < ${before}`);
    assert.ok(Math.abs(c.offsetMs) < 60_000, `offsetMs ${c.offsetMs}`);
  });

  test('a message received with visibility 30 s is back after advancing 31 s, DequeueCount 2', async () => {
    const q = client.getQueueClient(uniqueName('clockvis'));
    await q.create();
    await q.sendMessage('charge card 42');
    const [first] = (await q.receiveMessages({ visibilityTimeout: 30 })).receivedMessageItems;
    assert.equal(first.dequeueCount, 1);
    assert.equal((await q.receiveMessages()).receivedMessageItems.length, 0);
    const c0 = await readClock(server.origin);
    const c1 = await move(server.origin, { advanceMs: 31_000 });
    assert.ok(c1.offsetMs - c0.offsetMs >= 31_000, JSON.stringify([c0, c1]));
    const [again] = (await q.receiveMessages({ visibilityTimeout: 30 })).receivedMessageItems;
    assert.equal(again?.messageId, first.messageId);
    assert.equal(again.dequeueCount, 2);
    // The answer's times are the moved clock's (in whole seconds: RFC 1123 dates).
    assert.ok(again.nextVisibleOn.getTime() >= Math.floor((c1.now + 30_000) / 1000) * 1000);
  });

  test('a message with a 7-day time to live is gone after advancing 7 days; SDK calls still sign', async () => {
    const q = client.getQueueClient(uniqueName('clockttl'));
    await q.create();
    await q.sendMessage('short-lived', { messageTimeToLive: 7 * 24 * 3600 });
    await q.sendMessage('long-lived', { messageTimeToLive: -1 });
    assert.equal((await q.getProperties()).approximateMessagesCount, 2);
    await move(server.origin, { advanceMs: 7 * DAY_MS });
    const left = (await q.peekMessages({ numberOfMessages: 32 })).peekedMessageItems;
    assert.deepEqual(
      left.map((m) => m.messageText),
      ['long-lived'],
    );
    assert.equal((await q.getProperties()).approximateMessagesCount, 1);
  });

  test('paused, it stands still and moves only when told; setMs reads the given time', async () => {
    const p = await move(server.origin, { paused: true });
    assert.equal(p.paused, true);
    // Reads made across a turn of the event loop and a round trip: a running clock would move.
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal((await readClock(server.origin)).now, p.now);
    const later = await move(server.origin, { advanceMs: 5_000 });
    assert.equal(later.now, p.now + 5_000);
    const at = Date.UTC(2031, 0, 1);
    const set = await move(server.origin, { setMs: at });
    assert.deepEqual([set.now, set.paused], [at, true]);
    const q = client.getQueueClient(uniqueName('clockset'));
    await q.create();
    const sent = await q.sendMessage('dated');
    assert.equal(sent.insertedOn.getTime(), at);
    const running = await move(server.origin, { paused: false });
    assert.equal(running.paused, false);
    assert.ok(running.now >= at);
    // Back to real time for whatever runs after.
    await move(server.origin, { setMs: Date.now() });
  });

  test('bad bodies get a 400 that says what is expected, and move nothing', async () => {
    await move(server.origin, { paused: true });
    const { now } = await readClock(server.origin);
    for (const body of [
      '',
      'not json',
      '{}',
      '[]',
      'null',
      { advanceMs: -1 },
      { advanceMs: 1.5 },
      { advanceMs: '31000' },
      { paused: 'yes' },
      { advance: 1 },
      { setMs: 253402300800000 },
      { advanceMs: 1, sideEffect: true },
    ]) {
      const r = await moveClock(server.origin, body);
      assert.equal(r.status, 400, JSON.stringify(body));
      const { error } = await r.json();
      assert.match(error, /advanceMs|setMs|paused/, JSON.stringify(body));
      // Plain words: nothing of Rust's types or the JSON reader's line and column.
      assert.doesNotMatch(error, /u64|line \d|column|invalid (type|value)/, error);
    }
    const r = await moveClock(server.origin, { advanceMs: -5 });
    assert.equal(
      (await r.json()).error,
      '`advanceMs` must be a whole number of milliseconds, 0 or more, not -5',
    );
    assert.equal((await readClock(server.origin)).now, now);
    await move(server.origin, { paused: false, setMs: Date.now() });
  });

  test('the dev guard: no header, another site, a rebound host, another method', async () => {
    const { now, paused } = await move(server.origin, { paused: true });
    assert.equal(paused, true);
    const noHeader = await moveClock(server.origin, { advanceMs: DAY_MS }, {});
    assert.equal(noHeader.status, 403);
    assert.match((await noHeader.json()).error, /x-azqueue-dev/);
    const crossSite = await moveClock(
      server.origin,
      { advanceMs: DAY_MS },
      { 'x-azqueue-dev': '1', origin: 'https://attacker.example' },
    );
    assert.equal(crossSite.status, 403);
    const put = await fetch(`${server.origin}/_azqueue/clock`, {
      method: 'PUT',
      headers: { 'x-azqueue-dev': '1' },
      body: '{"advanceMs":1}',
    });
    assert.equal(put.status, 405);
    assert.equal((await readClock(server.origin)).now, now);
    // fetch cannot send another Host; node:http can.
    const { default: http } = await import('node:http');
    const { hostname, port } = new URL(server.origin);
    const status = await new Promise((resolve, reject) => {
      http
        .get(
          {
            hostname,
            port,
            path: '/_azqueue/clock',
            headers: { host: `attacker.example:${port}` },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode);
          },
        )
        .on('error', reject);
    });
    assert.equal(status, 403);
    await move(server.origin, { paused: false, setMs: Date.now() });
  });

  test('off when real accounts are configured', async () => {
    const real = await startServer({
      env: { AZURITE_ACCOUNTS: 'realacct:a2V5MQ==' },
    });
    try {
      assert.equal((await fetch(`${real.origin}/_azqueue/clock`)).status, 403);
      assert.equal((await moveClock(real.origin, { advanceMs: 1 })).status, 403);
    } finally {
      await real.stop();
    }
  });
});

test('with --location, a moved clock stays moved across a restart', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'azqueue-clock-'));
  try {
    let server = await startServer({ args: ['--location', dir] });
    const ahead = await move(server.origin, { advanceMs: 7 * DAY_MS });
    await server.stop();
    server = await startServer({ args: ['--location', dir] });
    const resumed = await readClock(server.origin);
    // The offset from the wall clock is what is kept (give or take the millisecond between
    // two readings of the wall clock).
    assert.ok(
      Math.abs(resumed.offsetMs - ahead.offsetMs) < 1_000,
      JSON.stringify([ahead, resumed]),
    );
    const paused = await move(server.origin, { paused: true });
    await server.stop();
    server = await startServer({ args: ['--location', dir] });
    const stillPaused = await readClock(server.origin);
    assert.deepEqual([stillPaused.now, stillPaused.paused], [paused.now, true]);
    await server.stop();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

describe('starting the clock from the command line', () => {
  test('--clockStart and --clockPaused: the queues start at that time, standing still', async () => {
    const server = await startServer({
      args: ['--clockStart', '2030-01-01T00:00:00Z', '--clockPaused'],
    });
    try {
      const c = await readClock(server.origin);
      assert.deepEqual([c.now, c.paused], [Date.UTC(2030, 0, 1), true]);
      const q = QueueServiceClient.fromConnectionString(server.connectionString).getQueueClient(
        uniqueName('clockcli'),
      );
      await q.create();
      const sent = await q.sendMessage('from the future');
      assert.equal(sent.insertedOn.getTime(), Date.UTC(2030, 0, 1));
    } finally {
      await server.stop();
    }
  });

  test('--clockStart in milliseconds, running', async () => {
    const at = Date.UTC(2031, 5, 1);
    const server = await startServer({ args: ['--clockStart', String(at)] });
    try {
      const c = await readClock(server.origin);
      assert.equal(c.paused, false);
      assert.ok(c.now >= at && c.offsetMs > 0, JSON.stringify(c));
    } finally {
      await server.stop();
    }
  });

  test('a time that is not one is refused with usage and exit code 2', async () => {
    for (const bad of ['tomorrow', '-5', '99999999999999999', '1e3']) {
      const r = await runServer(['--queuePort', '0', '--webPort', '0', `--clockStart=${bad}`]);
      assert.equal(r.code, 2, bad);
      assert.match(r.stderr, /--clockStart takes an ISO 8601 time/);
    }
  });

  test('with AZURITE_ACCOUNTS (development paths off) the flags are a clear error', async () => {
    const r = await runServer(['--queuePort', '0', '--webPort', '0', '--clockPaused'], {
      env: { AZURITE_ACCOUNTS: 'realacct:a2V5MQ==' },
    });
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      /--clockStart and --clockPaused cannot be used: the development paths are off/,
    );
  });
});
