// Fault rules in process (docs/faults.md, "Each face"): `service.faults` takes the JSON of
// /_azqueue/faults, and the `Queue` methods and `httpClient()` (the official SDK with no
// socket) both answer by it, `when: "after"` included; each fault is a `fault` event.

import assert from 'node:assert/strict';
import path from 'node:path';
import { createRequire } from 'node:module';
import { describe, test } from 'node:test';
import { QueueServiceClient, StorageRetryPolicyType } from '@azure/storage-queue';
import { installHttpClient } from '../../package/lib/http-client.js';
import { ROOT } from './azqueue_server.mjs';

/** @type {typeof import('../../pkg/node/azqueue.js')} */
const { QueueService } = createRequire(import.meta.url)(
  path.join(ROOT, 'pkg', 'node', 'azqueue.js'),
);
installHttpClient(QueueService);

/**
 * `service.httpClient()`, which the package's types add to the glue's class (package/types/).
 * @param {import('../../pkg/node/azqueue.js').QueueService} service
 * @returns {import('../../package/types/http-client.js').InProcessHttpClient}
 */
const httpClientOf = (service) => /** @type {any} */ (service).httpClient();

/** @param {unknown} promise */
async function thrown(promise) {
  try {
    await promise;
  } catch (err) {
    const { code, statusCode, message } = /** @type {any} */ (err);
    return { code, statusCode, message };
  }
  return null;
}

describe('service.faults', () => {
  test('the Queue methods throw the rule’s error, after applying when it says after', async () => {
    const service = await QueueService.open();
    /** @type {import('../../pkg/node/azqueue.js').QueueEvent[]} */
    const events = [];
    service.subscribe((e) => events.push(e));
    const queue = await service.createQueue('orders');
    const { ids } = service.faults.add({
      rules: [
        { operation: 'PutMessage', times: 1, status: 503 },
        { operation: 'PutMessage', times: 1, when: 'after', code: 'OperationTimedOut' },
      ],
    });
    assert.deepEqual(ids, ['1', '2']);
    assert.deepEqual(await thrown(queue.sendMessage('a')), {
      code: 'ServerBusy',
      statusCode: 503,
      message: 'The server is currently unable to receive requests. Please retry your request.',
    });
    assert.equal((await queue.peekMessages({ numberOfMessages: 32 })).peekedMessageItems.length, 0);
    assert.equal((await thrown(queue.sendMessage('b')))?.code, 'OperationTimedOut');
    const stored = (await queue.peekMessages({ numberOfMessages: 32 })).peekedMessageItems;
    assert.deepEqual(
      stored.map((m) => m.messageText),
      ['b'],
      'applied before the error',
    );
    await queue.sendMessage('c');
    const state = service.faults.get();
    assert.deepEqual(
      state.rules.map((r) => [r.id, r.injected, r.retired]),
      [
        ['1', 1, true],
        ['2', 1, true],
      ],
    );
    const faults = events.filter((e) => e.type === 'fault');
    assert.deepEqual(
      faults.map((e) => e.type === 'fault' && [e.rule, e.when, e.code, e.queue, e.operation]),
      [
        ['1', 'before', 'ServerBusy', 'orders', 'PutMessage'],
        ['2', 'after', 'OperationTimedOut', 'orders', 'PutMessage'],
      ],
    );
    await service.close();
  });

  test('a bad rule set is refused with its reason and changes nothing', async () => {
    const service = await QueueService.open({ faults: { rules: [{ id: 'kept', status: 500 }] } });
    const before = service.faults.get();
    const refused = await thrown(
      Promise.resolve().then(() =>
        service.faults.add({
          rules: [{ status: 500, when: /** @type {any} a wrong value on purpose */ ('later') }],
        }),
      ),
    );
    assert.equal(refused?.code, 'InvalidInput');
    assert.match(String(refused?.message), /`when` is "before" or "after", not "later"/);
    assert.deepEqual(service.faults.get(), before);
    assert.equal(service.faults.remove('kept'), true);
    assert.equal(service.faults.remove('kept'), false);
    await service.close();
  });

  test('httpClient() answers by the rules: the SDK retries a 503 into one message', async () => {
    const service = await QueueService.open({
      faults: JSON.stringify({ rules: [{ operation: 'PutMessage', times: 2, status: 503 }] }),
    });
    const client = QueueServiceClient.fromConnectionString('UseDevelopmentStorage=true', {
      httpClient: httpClientOf(service),
      retryOptions: {
        retryPolicyType: StorageRetryPolicyType.EXPONENTIAL,
        maxTries: 4,
        retryDelayInMs: 5,
        maxRetryDelayInMs: 20,
      },
    });
    const queue = client.getQueueClient('jobs');
    await queue.create();
    await queue.sendMessage('once');
    const { peekedMessageItems } = await queue.peekMessages({ numberOfMessages: 32 });
    assert.equal(peekedMessageItems.length, 1);
    assert.equal(service.faults.get().rules[0].injected, 2);
    await service.close();
  });

  test('limits given at open are throttled on the service clock and come back on clear()', async () => {
    let now = Date.UTC(2030, 0, 1);
    const service = await QueueService.open({
      now: () => now,
      faults: { limits: { queueMessagesPerSecond: 2 } },
    });
    const queue = await service.createQueue('burst');
    // Creating the queue took one of its two; a second on, the bucket is full again.
    now += 1000;
    const answers = [];
    for (let i = 0; i < 3; i++) {
      answers.push((await thrown(queue.sendMessage('m')))?.code ?? 'ok');
    }
    assert.deepEqual(answers, ['ok', 'ok', 'ServerBusy']);
    now += 1000;
    await queue.sendMessage('a second later');
    service.faults.add({ limits: { queueMessagesPerSecond: null } });
    service.faults.clear();
    assert.equal(service.faults.get().limits.queueMessagesPerSecond, 2);
    await service.close();
  });
});
