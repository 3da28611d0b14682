// Fault rules at the edge (docs/faults.md, "At the edge"): every object starts with the rules
// of the AZQUEUE_FAULTS variable, keeps its own counts and buckets, and answers faults as the
// Node server does; /_azqueue/faults is not served, and says where the rules come from.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { QueueServiceClient, StorageRetryPolicyType } from '@azure/storage-queue';
import { startEdge } from '../../scripts/lib/edge-server.mjs';

const FAULTS = {
  rules: [
    { queue: 'edge-busy', operation: 'PutMessage', times: 2, status: 503 },
    {
      queue: 'edge-twice',
      operation: 'PutMessage',
      when: 'after',
      code: 'OperationTimedOut',
      times: 1,
    },
  ],
  // Every request on a queue takes from its bucket (a Peek as many as it asks for), and the
  // bucket refills on real time here: 8 covers each queue's checks below with the 20-put burst
  // still over it.
  limits: { queueMessagesPerSecond: 8 },
};

test('the edge Worker answers by the rules of AZQUEUE_FAULTS, per object', async () => {
  const server = await startEdge({ env: { AZQUEUE_FAULTS: JSON.stringify(FAULTS) } });
  try {
    const client = QueueServiceClient.fromConnectionString(server.connectionString, {
      retryOptions: {
        retryPolicyType: StorageRetryPolicyType.EXPONENTIAL,
        maxTries: 4,
        retryDelayInMs: 5,
        maxRetryDelayInMs: 20,
      },
    });
    // Refused twice with 503, retried: one message.
    const busy = client.getQueueClient('edge-busy');
    await busy.create();
    await busy.sendMessage('once');
    assert.equal((await busy.peekMessages({ numberOfMessages: 2 })).peekedMessageItems.length, 1);
    // Applied, then 500 OperationTimedOut, retried: two copies.
    const twice = client.getQueueClient('edge-twice');
    await twice.create();
    await twice.sendMessage('charge');
    const copies = (await twice.peekMessages({ numberOfMessages: 2 })).peekedMessageItems;
    assert.deepEqual(
      copies.map((m) => m.messageText),
      ['charge', 'charge'],
    );
    // The limit, on real time: a burst of 20 puts without retries meets 503 ServerBusy.
    const once = QueueServiceClient.fromConnectionString(server.connectionString, {
      retryOptions: { maxTries: 1 },
    }).getQueueClient('edge-burst');
    await once.create();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        once.sendMessage('m').then(
          () => 201,
          (/** @type {any} */ e) => `${e.statusCode} ${e.code}`,
        ),
      ),
    );
    assert.ok(answers.includes('503 ServerBusy'), answers.join(', '));
    assert.ok(answers.includes(201), answers.join(', '));
    // Rules cannot be changed by request here.
    const r = await fetch(`${server.origin}/_azqueue/faults`);
    assert.equal(r.status, 404);
    assert.match((await r.json()).error, /AZQUEUE_FAULTS/);
  } finally {
    assert.equal(await server.stop(), 0);
  }
});

test('an AZQUEUE_FAULTS that is not a rule set fails the requests with the reason', async () => {
  const server = await startEdge({ env: { AZQUEUE_FAULTS: '{"rules": [{"status": 200}]}' } });
  try {
    const client = QueueServiceClient.fromConnectionString(server.connectionString, {
      retryOptions: { maxTries: 1 },
    });
    await assert.rejects(client.getQueueClient('edge-bad').create());
  } finally {
    await server.stop();
  }
  // workerd's log reaches the runner after the answer does: read it once the runner has stopped.
  assert.match(server.output(), /faults: rules\[0\]: `status` must be an error/);
});
