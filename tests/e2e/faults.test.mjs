// Fault rules and limits (docs/faults.md) through the official JS SDK and its own retry policy
// (short delays configured), against the server: the five scenarios of issue 33. Time is moved
// on the server's clock, never waited for; the rules are set and read over /_azqueue/faults.

import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { QueueServiceClient, StorageRetryPolicyType } from '@azure/storage-queue';
import { startServer, uniqueName } from './azqueue_server.mjs';

/**
 * A client of the SDK's own exponential retry policy with delays of milliseconds.
 * @param {string} connectionString
 * @param {number} maxTries
 */
function client(connectionString, maxTries) {
  return QueueServiceClient.fromConnectionString(connectionString, {
    retryOptions: {
      retryPolicyType: StorageRetryPolicyType.EXPONENTIAL,
      maxTries,
      retryDelayInMs: 5,
      maxRetryDelayInMs: 20,
    },
  });
}

/**
 * A development path's answer as JSON (null for a 204).
 * @param {string} origin
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 */
async function dev(origin, method, path, body) {
  const r = await fetch(`${origin}${path}`, {
    method,
    headers: { 'x-azqueue-dev': '1', 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  assert.ok(r.ok, `${method} ${path}: ${r.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/** @param {unknown} err */
const statusOf = (err) => /** @type {{ statusCode?: number }} */ (err).statusCode;

describe('faults through the JS SDK', () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  before(async () => {
    server = await startServer();
  });
  after(() => server?.stop());
  beforeEach(async () => {
    await dev(server.origin, 'DELETE', '/_azqueue/faults');
    await dev(server.origin, 'POST', '/_azqueue/clock', { paused: false });
  });

  test('a Put refused twice with 503 is retried into one message, and the rule says 2', async () => {
    const queue = client(server.connectionString, 4).getQueueClient(uniqueName('busy'));
    await queue.create();
    await dev(server.origin, 'POST', '/_azqueue/faults', {
      rules: [{ id: 'busy', operation: 'PutMessage', times: 2, status: 503 }],
    });
    await queue.sendMessage('once');
    const { peekedMessageItems } = await queue.peekMessages({ numberOfMessages: 32 });
    assert.deepEqual(
      peekedMessageItems.map((m) => m.messageText),
      ['once'],
    );
    const { rules } = await dev(server.origin, 'GET', '/_azqueue/faults');
    assert.equal(rules[0].injected, 2);
    assert.equal(rules[0].retired, true);
  });

  test('a Put that timed out after it was applied is retried into two copies', async () => {
    const queue = client(server.connectionString, 4).getQueueClient(uniqueName('twice'));
    await queue.create();
    await dev(server.origin, 'POST', '/_azqueue/faults', {
      rules: [
        {
          operation: 'PutMessage',
          when: 'after',
          status: 500,
          code: 'OperationTimedOut',
          times: 1,
        },
      ],
    });
    await queue.sendMessage('charge card 42');
    const { peekedMessageItems } = await queue.peekMessages({ numberOfMessages: 32 });
    assert.deepEqual(
      peekedMessageItems.map((m) => m.messageText),
      ['charge card 42', 'charge card 42'],
    );
  });

  test('a Get faulted after it applied hides the message until its visibility timeout', async () => {
    const name = uniqueName('hidden');
    const queue = client(server.connectionString, 3).getQueueClient(name);
    await queue.create();
    await queue.sendMessage('work');
    const { ids } = await dev(server.origin, 'POST', '/_azqueue/faults', {
      rules: [{ operation: 'GetMessages', when: 'after', status: 500, code: 'InternalError' }],
    });
    await assert.rejects(queue.receiveMessages({ visibilityTimeout: 30 }), (err) => {
      assert.equal(statusOf(err), 500);
      return true;
    });
    const inspected = await fetch(
      `${server.origin}/_azqueue/inspect/devstoreaccount1/${name}`,
    ).then((r) => r.json());
    assert.deepEqual(
      inspected.messages.map((/** @type {any} */ m) => [m.state, m.dequeueCount]),
      [['invisible', 1]],
    );
    await dev(server.origin, 'DELETE', `/_azqueue/faults/${ids[0]}`);
    assert.deepEqual((await queue.receiveMessages()).receivedMessageItems, []);
    await dev(server.origin, 'POST', '/_azqueue/clock', { advanceMs: 31_000 });
    const [again] = (await queue.receiveMessages()).receivedMessageItems;
    assert.equal(again.messageText, 'work');
    assert.equal(again.dequeueCount, 2);
  });

  test('at 10 messages a second on a paused clock, 15 puts give 10 accepted and 5 ServerBusy', async () => {
    const queue = client(server.connectionString, 1).getQueueClient(uniqueName('burst'));
    await queue.create();
    await dev(server.origin, 'POST', '/_azqueue/clock', { paused: true });
    await dev(server.origin, 'POST', '/_azqueue/faults', {
      limits: { queueMessagesPerSecond: 10 },
    });
    const answers = [];
    for (let i = 0; i < 15; i++) {
      answers.push(
        await queue.sendMessage(`m${i}`).then(
          () => 201,
          (/** @type {any} */ err) => {
            assert.equal(err.code, 'ServerBusy');
            assert.match(
              err.message,
              /^The server is currently unable to receive requests\. Please retry your request\./,
            );
            return statusOf(err);
          },
        ),
      );
    }
    assert.deepEqual(answers, [...Array(10).fill(201), ...Array(5).fill(503)]);
    const state = await dev(server.origin, 'GET', '/_azqueue/faults');
    assert.equal(state.throttled.queueMessagesPerSecond, 5);
    await dev(server.origin, 'POST', '/_azqueue/clock', { advanceMs: 1000 });
    await queue.sendMessage('after a second');
    const { approximateMessagesCount } = await queue.getProperties();
    assert.equal(approximateMessagesCount, 11);
  });

  test('the same seed and rules give the same answers twice', async () => {
    const queue = client(server.connectionString, 1).getQueueClient(uniqueName('seeded'));
    await queue.create();
    const run = async () => {
      await dev(server.origin, 'DELETE', '/_azqueue/faults');
      await dev(server.origin, 'POST', '/_azqueue/faults', {
        seed: 42,
        rules: [{ operation: 'PutMessage', probability: 0.5, status: 503 }],
      });
      const answers = [];
      for (let i = 0; i < 24; i++) {
        answers.push(await queue.sendMessage('m').then(() => 201, statusOf));
      }
      return answers;
    };
    const first = await run();
    assert.deepEqual(await run(), first);
    assert.ok(first.includes(201) && first.includes(503), first.join(' '));
  });
});
