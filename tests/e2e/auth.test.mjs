// Credentials through the official JS SDK: SharedKey with the right and the wrong key, service
// SAS (direct and via a stored access policy) and account SAS made by the SDK's generators,
// and custom accounts from AZURITE_ACCOUNTS.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  AccountSASPermissions,
  AnonymousCredential,
  QueueClient,
  QueueSASPermissions,
  QueueServiceClient,
  StorageSharedKeyCredential,
} from '@azure/storage-queue';
import { DEV_ACCOUNT, DEV_KEY, rejectsWith, startServer, uniqueName } from './azqueue_server.mjs';

const inAnHour = () => new Date(Date.now() + 3600_000);

describe('with the development account', () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  /** @type {QueueServiceClient} */
  let service;
  before(async () => {
    server = await startServer();
    service = new QueueServiceClient(
      server.queueUrl,
      new StorageSharedKeyCredential(DEV_ACCOUNT, DEV_KEY),
    );
  });
  after(async () => {
    await server?.stop();
  });

  test('SharedKey with the right key works; a wrong key → 403 AuthenticationFailed', async () => {
    await service.createQueue(uniqueName('key'));
    const wrongKey = Buffer.from('not the key').toString('base64');
    const wrong = new QueueServiceClient(
      server.queueUrl,
      new StorageSharedKeyCredential(DEV_ACCOUNT, wrongKey),
    );
    await rejectsWith(assert, wrong.createQueue(uniqueName('wrong')), 403, 'AuthenticationFailed');
    await rejectsWith(assert, wrong.getProperties(), 403, 'AuthenticationFailed');
  });

  test('no credentials at all are refused', async () => {
    const anon = new QueueServiceClient(server.queueUrl, new AnonymousCredential());
    await assert.rejects(
      anon.getQueueClient(uniqueName('anon')).create(),
      (/** @type {import('@azure/storage-queue').RestError} */ err) => {
        assert.ok(
          [401, 403, 404].includes(/** @type {number} */ (err.statusCode)),
          `status ${err.statusCode}`,
        );
        return true;
      },
    );
  });

  test('a service SAS grants exactly its permissions', async () => {
    const name = uniqueName('sas');
    await service.createQueue(name);
    const owner = service.getQueueClient(name);
    const addProcess = new QueueClient(
      owner.generateSasUrl({ permissions: QueueSASPermissions.parse('ap'), expiresOn: inAnHour() }),
    );
    await addProcess.sendMessage('via sas');
    const got = await addProcess.receiveMessages();
    assert.equal(got.receivedMessageItems[0].messageText, 'via sas');
    await addProcess.deleteMessage(
      got.receivedMessageItems[0].messageId,
      got.receivedMessageItems[0].popReceipt,
    );

    const readOnly = new QueueClient(
      owner.generateSasUrl({ permissions: QueueSASPermissions.parse('r'), expiresOn: inAnHour() }),
    );
    await readOnly.peekMessages();
    await rejectsWith(assert, readOnly.sendMessage('nope'), 403, 'AuthorizationPermissionMismatch');

    const expired = new QueueClient(
      owner.generateSasUrl({
        permissions: QueueSASPermissions.parse('raup'),
        startsOn: new Date(Date.now() - 7200_000),
        expiresOn: new Date(Date.now() - 3600_000),
      }),
    );
    await rejectsWith(assert, expired.peekMessages(), 403);
  });

  test('a SAS limited to addresses (sip) is checked against the client address', async () => {
    const name = uniqueName('sip');
    await service.createQueue(name);
    const owner = service.getQueueClient(name);
    const sas = (/** @type {{ start: string, end?: string }} */ ipRange) =>
      new QueueClient(
        owner.generateSasUrl({
          permissions: QueueSASPermissions.parse('r'),
          expiresOn: inAnHour(),
          ipRange,
        }),
      );
    // This test talks to the server over IPv4 loopback.
    await sas({ start: '127.0.0.1' }).peekMessages();
    await sas({ start: '127.0.0.0', end: '127.0.0.255' }).peekMessages();
    await rejectsWith(
      assert,
      sas({ start: '10.0.0.1', end: '10.0.0.9' }).peekMessages(),
      403,
      'AuthorizationSourceIPMismatch',
    );
  });

  test('a service SAS can take its permissions from a stored access policy', async () => {
    const name = uniqueName('policy');
    await service.createQueue(name);
    const owner = service.getQueueClient(name);
    await owner.setAccessPolicy([
      {
        id: 'adders',
        accessPolicy: {
          permissions: 'a',
          startsOn: new Date(Date.now() - 60_000),
          expiresOn: inAnHour(),
        },
      },
    ]);
    const viaPolicy = new QueueClient(owner.generateSasUrl({ identifier: 'adders' }));
    await viaPolicy.sendMessage('added under a policy');
    await rejectsWith(assert, viaPolicy.receiveMessages(), 403, 'AuthorizationPermissionMismatch');
  });

  test('an account SAS made by generateAccountSasUrl lists, creates and sends', async () => {
    const sasUrl = service.generateAccountSasUrl(
      inAnHour(),
      AccountSASPermissions.parse('rwdlacup'),
      'sco',
    );
    const viaSas = new QueueServiceClient(sasUrl);
    const name = uniqueName('acctsas');
    await viaSas.createQueue(name);
    const names = [];
    for await (const q of viaSas.listQueues({ prefix: name })) names.push(q.name);
    assert.deepEqual(names, [name]);
    await viaSas.getQueueClient(name).sendMessage('hello');

    const listOnly = new QueueServiceClient(
      service.generateAccountSasUrl(inAnHour(), AccountSASPermissions.parse('l'), 's'),
    );
    for await (const q of listOnly.listQueues({ prefix: name })) assert.equal(q.name, name);
    await assert.rejects(
      listOnly.createQueue(uniqueName('denied')),
      (/** @type {import('@azure/storage-queue').RestError} */ err) => err.statusCode === 403,
    );
  });
});

describe('with AZURITE_ACCOUNTS', () => {
  const key1 = Buffer.from('first key of account one').toString('base64');
  const key2 = Buffer.from('second key of account one').toString('base64');
  const key3 = Buffer.from('key of account two').toString('base64');
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  before(async () => {
    server = await startServer({
      env: { AZURITE_ACCOUNTS: `acctone:${key1}:${key2};accttwo:${key3}` },
    });
  });
  after(async () => {
    await server?.stop();
  });

  test('the connection string names the first account; both of its keys work', async () => {
    assert.match(server.connectionString, /AccountName=acctone;/);
    for (const key of [key1, key2]) {
      const svc = new QueueServiceClient(
        `${server.origin}/acctone`,
        new StorageSharedKeyCredential('acctone', key),
      );
      await svc.createQueue(uniqueName('k'));
    }
    const two = new QueueServiceClient(
      `${server.origin}/accttwo`,
      new StorageSharedKeyCredential('accttwo', key3),
    );
    await two.createQueue(uniqueName('two'));
  });

  test('the development account is no longer served', async () => {
    const dev = new QueueServiceClient(
      `${server.origin}/${DEV_ACCOUNT}`,
      new StorageSharedKeyCredential(DEV_ACCOUNT, DEV_KEY),
    );
    await assert.rejects(
      dev.createQueue(uniqueName('dev')),
      (/** @type {import('@azure/storage-queue').RestError} */ err) =>
        [403, 404].includes(/** @type {number} */ (err.statusCode)),
    );
  });

  test('a malformed AZURITE_ACCOUNTS stops the server with a clear error', async () => {
    await assert.rejects(
      startServer({ env: { AZURITE_ACCOUNTS: 'nokey' } }),
      /exited with 1[\s\S]*accounts/,
    );
  });
});
