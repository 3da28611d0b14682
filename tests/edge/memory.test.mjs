// The queue objects' memory bound (hosts/edge/memory.mjs): past it, Put Message answers Azure's
// 503 ServerBusy and stores nothing, while every other operation is served; once messages are
// consumed, puts are accepted again. The bound is lowered (AZQUEUE_ENGINE_BUDGET) so a test
// reaches it with a few hundred messages of 1 KiB.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { QueueServiceClient } from '@azure/storage-queue';
import { rejectsWith } from '../e2e/azqueue_server.mjs';
import { startEdge } from '../../scripts/lib/edge-server.mjs';

const TEXT = 'k'.repeat(1024);

test('past the memory bound, Put Message is 503 ServerBusy and changes nothing; consuming makes room', async () => {
  const server = await startEdge({ env: { AZQUEUE_ENGINE_BUDGET: String(256 * 1024) } });
  try {
    const service = QueueServiceClient.fromConnectionString(server.connectionString, {
      retryOptions: { maxTries: 1 },
    });
    const q = service.getQueueClient('bounded');
    await q.create();
    let accepted = 0;
    for (;;) {
      const ok = await q.sendMessage(TEXT).then(
        () => true,
        (err) => {
          assert.equal(err.statusCode, 503);
          assert.equal(err.code, 'ServerBusy');
          return false;
        },
      );
      if (!ok) break;
      accepted++;
      assert.ok(accepted < 1000, 'the bound was never met');
    }
    assert.ok(accepted > 50, `${accepted} messages fit`);
    // Nothing of the refused put was stored, and everything but Put still works.
    assert.equal((await q.getProperties()).approximateMessagesCount, accepted);
    await rejectsWith(assert, q.sendMessage(TEXT), 503, 'ServerBusy');
    assert.equal((await q.peekMessages({ numberOfMessages: 32 })).peekedMessageItems.length, 32);
    const other = service.getQueueClient('bounded-other');
    await other.create();
    const got = await q.receiveMessages({ numberOfMessages: 32 });
    for (const m of got.receivedMessageItems) await q.deleteMessage(m.messageId, m.popReceipt);
    await q.sendMessage(TEXT);
    assert.equal((await q.getProperties()).approximateMessagesCount, accepted - 32 + 1);
  } finally {
    assert.equal(await server.stop(), 0);
  }
});
