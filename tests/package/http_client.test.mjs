// service.httpClient(): the official SDK talks to an in-process queue with no socket, on the
// service's virtual clock, so a consumer's test moves time instead of sleeping.

import assert from 'node:assert/strict';
import test from 'node:test';
import { runInProject } from './project.mjs';

// Any socket would fail this script: connecting and listening throw.
const NO_SOCKETS = `import net from 'node:net';
net.Socket.prototype.connect = () => { throw new Error('a socket was opened'); };
net.Server.prototype.listen = () => { throw new Error('a port was opened'); };
`;

test('a message not deleted within its visibility timeout comes back, on a virtual clock', async () => {
  const r = await runInProject(
    'visibility.mjs',
    `${NO_SOCKETS}
import { QueueServiceClient } from '@azure/storage-queue';
import { QueueService } from 'azqueue';

let now = Date.now();
const service = await QueueService.open({ now: () => now });
const client = QueueServiceClient.fromConnectionString('UseDevelopmentStorage=true', { httpClient: service.httpClient() });
const queue = client.getQueueClient('orders');
await queue.create({ metadata: { team: 'web' } });
await queue.sendMessage('charge card 42');

const first = (await queue.receiveMessages({ visibilityTimeout: 30 })).receivedMessageItems;
const hidden = (await queue.receiveMessages()).receivedMessageItems;
now += 29_000;
const stillHidden = (await queue.receiveMessages()).receivedMessageItems;
now += 2_000;
const again = (await queue.receiveMessages({ visibilityTimeout: 30 })).receivedMessageItems;
let lateDelete;
try {
  await queue.deleteMessage(first[0].messageId, first[0].popReceipt);
} catch (e) {
  lateDelete = { status: e.statusCode, code: e.code };
}
await queue.deleteMessage(again[0].messageId, again[0].popReceipt);
const props = await queue.getProperties();
console.log(JSON.stringify({
  first: first.map((m) => [m.messageText, m.dequeueCount]),
  hidden: hidden.length,
  stillHidden: stillHidden.length,
  again: again.map((m) => [m.messageText, m.dequeueCount, m.messageId === first[0].messageId]),
  lateDelete,
  left: props.approximateMessagesCount,
  metadata: props.metadata,
}));
await service.close();
`,
  );
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), {
    first: [['charge card 42', 1]],
    hidden: 0,
    stillHidden: 0,
    again: [['charge card 42', 2, true]],
    lateDelete: { status: 404, code: 'MessageNotFound' },
    left: 0,
    metadata: { team: 'web' },
  });
});

test('SDK errors arrive as the service answers them, and nothing listens', async () => {
  const r = await runInProject(
    'errors.mjs',
    `${NO_SOCKETS}
import { QueueServiceClient, StorageSharedKeyCredential } from '@azure/storage-queue';
import { QueueService } from 'azqueue';

const service = await QueueService.open();
const wrongKey = new StorageSharedKeyCredential('devstoreaccount1', Buffer.from('not the key').toString('base64'));
const client = new QueueServiceClient('http://127.0.0.1:10001/devstoreaccount1', wrongKey, { httpClient: service.httpClient() });
const out = {};
try { await client.getQueueClient('orders').create(); } catch (e) { out.wrongKey = [e.statusCode, e.code]; }
const good = QueueServiceClient.fromConnectionString('UseDevelopmentStorage=true', { httpClient: service.httpClient() });
try { await good.getQueueClient('missing').getProperties(); } catch (e) { out.missing = [e.statusCode, e.code]; }
console.log(JSON.stringify(out));
`,
  );
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), {
    wrongKey: [403, 'AuthenticationFailed'],
    missing: [404, 'QueueNotFound'],
  });
});
