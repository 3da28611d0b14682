// Clients older than @azure/storage-queue 12 that people still run against Azurite. The npm
// `azure-storage` 2.x library puts `api-version=<v>` on every SAS URL and also sends
// `x-ms-version: <v>`; the real service and Azurite serve that, and so must we (issue 13).

import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, describe, test } from 'node:test';
import { startServer, uniqueName } from './azqueue_server.mjs';

const require = createRequire(import.meta.url);
const azure = require('azure-storage');

/**
 * The library's callback style as a Promise of its result (the library is untyped: any).
 * @param {(cb: (err: Error | null, result?: any) => void) => void} fn
 * @returns {Promise<any>}
 */
const call = (fn) =>
  new Promise((resolve, reject) => {
    fn((err, result) => (err ? reject(err) : resolve(result)));
  });

describe('npm azure-storage 2.x', () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  /** @type {any} the library's QueueService */
  let owner;
  before(async () => {
    server = await startServer();
    owner = azure.createQueueService(server.connectionString);
  });
  after(async () => {
    await server?.stop();
  });

  /**
   * A new queue and a client for it through a queue SAS the library makes itself.
   * @param {string} prefix
   * @param {string} permissions
   */
  async function queueWithSas(prefix, permissions) {
    const name = uniqueName(prefix);
    await call((cb) => owner.createQueue(name, cb));
    const sas = owner.generateSharedAccessSignature(name, {
      AccessPolicy: { Permissions: permissions, Expiry: new Date(Date.now() + 3600_000) },
    });
    return { name, viaSas: azure.createQueueServiceWithSas({ primaryHost: server.queueUrl }, sas) };
  }

  test('a queue SAS made by the library sends, receives, peeks and deletes', async () => {
    const { name, viaSas } = await queueWithSas('legacy', 'raup');

    const sent = await call((cb) => viaSas.createMessage(name, 'hello from 2.x', cb));
    assert.ok(sent.messageId);
    const peeked = await call((cb) => viaSas.peekMessages(name, cb));
    assert.equal(peeked[0].messageText, 'hello from 2.x');
    const [got] = await call((cb) => viaSas.getMessages(name, cb));
    assert.equal(got.messageText, 'hello from 2.x');
    assert.equal(got.dequeueCount, 1);
    await call((cb) => viaSas.deleteMessage(name, got.messageId, got.popReceipt, cb));
    assert.deepEqual(await call((cb) => viaSas.peekMessages(name, cb)), []);
  });

  test('a SAS without process permission is still refused with 403', async () => {
    const { name, viaSas: readOnly } = await queueWithSas('legacy-ro', 'r');
    await assert.rejects(
      call((cb) => readOnly.createMessage(name, 'nope', cb)),
      (/** @type {{ statusCode: number, code: string }} */ err) => {
        assert.equal(err.statusCode, 403);
        assert.equal(err.code, 'AuthorizationPermissionMismatch');
        return true;
      },
    );
  });
});
