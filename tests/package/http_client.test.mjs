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

test('moving the virtual clock 8 days ahead keeps the SDK signing, and the messages follow it', async () => {
  // The SDK dates each request with the real time (x-ms-date); the queues run on `now`. The
  // request-date window (15 minutes) is the wall clock's business, so it must not fail here.
  const r = await runInProject(
    'eight-days.mjs',
    `${NO_SOCKETS}
import { QueueServiceClient, generateQueueSASQueryParameters, QueueSASPermissions,
  StorageSharedKeyCredential } from '@azure/storage-queue';
import { QueueService } from 'azqueue';

const DAY = 86_400_000;
let now = Date.now();
const service = await QueueService.open({ now: () => now });
const client = QueueServiceClient.fromConnectionString('UseDevelopmentStorage=true', { httpClient: service.httpClient() });
const queue = client.getQueueClient('orders');
await queue.create();
await queue.sendMessage('forever', { messageTimeToLive: -1 });
await queue.sendMessage('for a week', { messageTimeToLive: 7 * 24 * 3600 });
const [m] = (await queue.receiveMessages({ visibilityTimeout: 30 })).receivedMessageItems;
// A SAS valid for the next real hour, made before the clock moves.
const key = new StorageSharedKeyCredential('devstoreaccount1',
  'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==');
const sas = generateQueueSASQueryParameters({ queueName: 'orders', permissions: QueueSASPermissions.parse('rp'),
  startsOn: new Date(Date.now() - 60_000), expiresOn: new Date(Date.now() + 3_600_000) }, key).toString();

now += 8 * DAY;
const props = await queue.getProperties();
const sasQueue = new QueueServiceClient('http://127.0.0.1:10001/devstoreaccount1?' + sas, undefined,
  { httpClient: service.httpClient() }).getQueueClient('orders');
const sasPeek = (await sasQueue.peekMessages({ numberOfMessages: 32 })).peekedMessageItems;
const [again] = (await queue.receiveMessages()).receivedMessageItems;
console.log(JSON.stringify({
  first: [m.messageText, m.dequeueCount],
  count: props.approximateMessagesCount,
  sasPeek: sasPeek.map((p) => p.messageText),
  again: [again.messageText, again.dequeueCount, again.messageId === m.messageId],
  // Whole seconds: the answer's dates are RFC 1123 strings.
  visibleInSecs: Math.ceil((again.nextVisibleOn.getTime() - now) / 1000),
}));
await service.close();
`,
  );
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), {
    first: ['forever', 1],
    count: 1,
    sasPeek: ['forever'],
    again: ['forever', 2, true],
    visibleInSecs: 30,
  });
});
