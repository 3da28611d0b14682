// --oauth basic through @azure/storage-queue with a TokenCredential, over TLS, and over plain
// HTTP, where the server starts, as Azurite's does, and refuses each bearer request while
// SharedKey and SAS work. Tokens are JWTs this test signs with a key of its own: basic mode
// checks audience, issuer and lifetime, not the signature. Run by tls_suites.test.mjs
// (NODE_EXTRA_CA_CERTS, AZQUEUE_E2E_TLS).

import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import {
  AnonymousCredential,
  QueueClient,
  QueueSASPermissions,
  QueueServiceClient,
  newPipeline,
} from '@azure/storage-queue';
import { startServer, uniqueName } from '../azqueue_server.mjs';

const TENANT = '72f988bf-86f1-41af-91ab-2d7cd011db47';
const SIGNING_KEY = crypto.randomBytes(32);

/**
 * An HS256 JWT with these claims (any signature does for basic mode).
 * @param {Record<string, unknown>} claims
 */
function jwt(claims) {
  const part = (/** @type {unknown} */ v) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const body = `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}`;
  return `${body}.${crypto.createHmac('sha256', SIGNING_KEY).update(body).digest('base64url')}`;
}

/**
 * Claims as Entra ID issues them for storage, valid from a minute ago for an hour.
 * @param {Record<string, unknown>} [overrides]
 */
function claims(overrides = {}) {
  const now = Math.floor(Date.now() / 1000);
  return {
    aud: 'https://storage.azure.com',
    iss: `https://sts.windows.net/${TENANT}/`,
    iat: now - 60,
    nbf: now - 60,
    exp: now + 3600,
    tid: TENANT,
    oid: crypto.randomUUID(),
    ver: '1.0',
    ...overrides,
  };
}

/**
 * A TokenCredential handing out one token, and counting the calls.
 * @param {string} token
 */
function credential(token) {
  const cred = {
    calls: 0,
    getToken: async () => {
      cred.calls += 1;
      return { token, expiresOnTimestamp: Date.now() + 3600_000 };
    },
  };
  return cred;
}

/**
 * Asserts Azure's refusal of a token: 401 InvalidAuthenticationInfo with this detail.
 * @param {Promise<unknown>} promise
 * @param {string} detail
 */
async function refused(promise, detail) {
  await assert.rejects(promise, (/** @type {import('@azure/storage-queue').RestError} */ err) => {
    assert.equal(err.statusCode, 401, err.message);
    assert.equal(err.code, 'InvalidAuthenticationInfo');
    const details = /** @type {{ authenticationErrorDetail?: string } | undefined} */ (err.details);
    assert.equal(details?.authenticationErrorDetail, detail);
    assert.match(
      err.response?.headers.get('www-authenticate') ?? '',
      /^Bearer authorization_uri=https:\/\/login\.microsoftonline\.com\/.+\/oauth2\/authorize resource_id=https:\/\/storage\.azure\.com$/,
    );
    return true;
  });
}

describe('--oauth basic', () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  before(async () => {
    server = await startServer({ args: ['--oauth', 'basic'] });
  });
  after(async () => {
    await server?.stop();
  });

  test('a good token works for every kind of operation', async () => {
    const cred = credential(jwt(claims()));
    const service = new QueueServiceClient(server.queueUrl, cred);
    const q = service.getQueueClient(uniqueName('oauth'));
    await q.create({ metadata: { by: 'token' } });
    await q.sendMessage('with a token');
    const {
      receivedMessageItems: [m],
    } = await q.receiveMessages();
    assert.equal(m.messageText, 'with a token');
    await q.updateMessage(m.messageId, m.popReceipt, 'updated', 0);
    const [peeked] = (await q.peekMessages()).peekedMessageItems;
    assert.equal(peeked.messageText, 'updated');
    assert.equal((await q.getProperties()).metadata?.by, 'token');
    /** @type {string[]} */
    const names = [];
    for await (const item of service.listQueues()) names.push(item.name);
    assert.ok(names.includes(q.name));
    await q.delete();
    assert.ok(cred.calls >= 1);
  });

  test('a v2 token for the queue endpoint itself works', async () => {
    const token = jwt(
      claims({
        ver: '2.0',
        iss: `https://login.microsoftonline.com/${TENANT}/v2.0`,
        aud: server.queueUrl,
      }),
    );
    const q = new QueueClient(`${server.queueUrl}/${uniqueName('v2')}`, credential(token));
    await q.create();
    await q.delete();
  });

  test('the wrong audience → 401 "Audience validation failed. Audience did not match."', async () => {
    const service = new QueueServiceClient(
      server.queueUrl,
      credential(jwt(claims({ aud: 'https://management.azure.com/' }))),
    );
    await refused(service.getProperties(), 'Audience validation failed. Audience did not match.');
  });

  test("another account's audience is refused too", async () => {
    const service = new QueueServiceClient(
      server.queueUrl,
      credential(jwt(claims({ aud: 'https://someoneelse.queue.core.windows.net' }))),
    );
    await refused(service.getProperties(), 'Audience validation failed. Audience did not match.');
  });

  test('an issuer other than Entra ID → 401 "Issuer validation failed. Issuer did not match."', async () => {
    const service = new QueueServiceClient(
      server.queueUrl,
      credential(jwt(claims({ iss: 'https://accounts.google.com' }))),
    );
    await refused(service.getProperties(), 'Issuer validation failed. Issuer did not match.');
  });

  test('an expired token → 401 "Lifetime validation failed. The token is expired."', async () => {
    const now = Math.floor(Date.now() / 1000);
    const service = new QueueServiceClient(
      server.queueUrl,
      credential(jwt(claims({ nbf: now - 7200, exp: now - 3600 }))),
    );
    await refused(service.getProperties(), 'Lifetime validation failed. The token is expired.');
  });

  test('a token not yet valid → 401 "Lifetime validation failed. The token is not yet valid."', async () => {
    const now = Math.floor(Date.now() / 1000);
    const service = new QueueServiceClient(
      server.queueUrl,
      credential(jwt(claims({ nbf: now + 3600, exp: now + 7200 }))),
    );
    await refused(
      service.getProperties(),
      'Lifetime validation failed. The token is not yet valid.',
    );
  });

  test('something that is not a JWT → 401', async () => {
    const service = new QueueServiceClient(server.queueUrl, credential('opaque-token'));
    await refused(service.getProperties(), 'The access token is not a JWT.');
  });

  test("Entra ID's test issuer (sts.windows-ppe.net), as Azurite's suite mints it, works", async () => {
    const tenant = 'ab1f708d-50f6-404c-a006-d71b2ac7a606';
    for (const iss of [
      `https://sts.windows-ppe.net/${tenant}/`,
      `https://sts.windows.net//${tenant}/`, // Azurite's `${prefix}/${tenant}/`
    ]) {
      const token = jwt(claims({ iss, aud: 'https://devstoreaccount1.queue.core.windows.net' }));
      const q = new QueueClient(`${server.queueUrl}/${uniqueName('ppe')}`, credential(token));
      await q.create();
      await q.sendMessage('from the test issuer');
      await q.delete();
    }
  });

  // Azure maps Get/Set Queue ACL to the RBAC actions queues/getAcl/action and setAcl/action
  // (REST reference, "Authorize with Microsoft Entra ID"): a token may call them. Azurite
  // refuses them; basic mode has no RBAC, so a valid token is served as the service serves a
  // principal holding those actions.
  test('Get and Set Queue ACL are served to a token', async () => {
    const q = new QueueClient(`${server.queueUrl}/${uniqueName('acl')}`, credential(jwt(claims())));
    await q.create();
    const expiresOn = new Date(Date.UTC(2100, 0, 1));
    await q.setAccessPolicy([{ id: 'readers', accessPolicy: { permissions: 'rp', expiresOn } }]);
    const { signedIdentifiers } = await q.getAccessPolicy();
    assert.deepEqual(
      signedIdentifiers.map((s) => [s.id, s.accessPolicy?.permissions]),
      [['readers', 'rp']],
    );
    await q.delete();
  });

  test('a refused token changes nothing', async () => {
    const name = uniqueName('untouched');
    const bad = new QueueClient(
      `${server.queueUrl}/${name}`,
      credential(jwt(claims({ aud: 'https://vault.azure.net' }))),
    );
    await assert.rejects(bad.create());
    const owner = QueueServiceClient.fromConnectionString(server.connectionString);
    assert.equal(await owner.getQueueClient(name).exists(), false);
  });
});

describe('without --oauth', () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server?.stop();
  });

  test('a bearer token is refused with 403 AuthenticationFailed, even a good one', async () => {
    const service = new QueueServiceClient(server.queueUrl, credential(jwt(claims())));
    await assert.rejects(
      service.getProperties(),
      (/** @type {import('@azure/storage-queue').RestError} */ err) => {
        assert.equal(err.statusCode, 403);
        assert.equal(err.code, 'AuthenticationFailed');
        return true;
      },
    );
  });
});

describe('--oauth basic over plain HTTP', () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  before(async () => {
    server = await startServer({ args: ['--oauth', 'basic'], plain: true });
  });
  after(async () => {
    await server?.stop();
  });

  test('the server starts on http:// and says what that means for tokens', () => {
    assert.match(server.queueUrl, /^http:\/\//);
    assert.match(
      server.output(),
      /--oauth basic without --cert: requests with a bearer token are refused/,
    );
  });

  test('the SDK itself will not send a token over HTTP', async () => {
    const service = new QueueServiceClient(server.queueUrl, credential(jwt(claims())));
    await assert.rejects(service.getProperties(), /not permitted for non-TLS protected/);
  });

  test('a bearer request over HTTP → 403 "Authentication scheme Bearer is not allowed with HTTP."', async () => {
    // The header set as a client that does send it (curl, a hand-written policy) would.
    const pipeline = newPipeline(new AnonymousCredential(), { retryOptions: { maxTries: 1 } });
    const token = jwt(claims());
    pipeline.factories.push({
      create: (next) => ({
        sendRequest: (request) => {
          request.headers.set('authorization', `Bearer ${token}`);
          return next.sendRequest(request);
        },
      }),
    });
    const name = uniqueName('http-bearer');
    const q = new QueueClient(`${server.queueUrl}/${name}`, pipeline);
    await assert.rejects(q.create(), (/** @type {any} */ err) => {
      assert.equal(err.statusCode, 403, err.message);
      assert.equal(err.code, 'AuthenticationFailed');
      assert.equal(
        err.details?.authenticationErrorDetail,
        'Authentication scheme Bearer is not allowed with HTTP.',
      );
      return true;
    });
    const owner = QueueServiceClient.fromConnectionString(server.connectionString);
    assert.equal(await owner.getQueueClient(name).exists(), false);
  });

  test('SharedKey and SAS work as without --oauth', async () => {
    const owner = QueueServiceClient.fromConnectionString(server.connectionString);
    const q = owner.getQueueClient(uniqueName('http-key'));
    await q.create();
    const sasUrl = await q.generateSasUrl({
      permissions: QueueSASPermissions.parse('rap'),
      expiresOn: new Date(Date.now() + 3600_000),
    });
    const bySas = new QueueClient(sasUrl);
    await bySas.sendMessage('by SAS');
    const [peeked] = (await bySas.peekMessages()).peekedMessageItems;
    assert.equal(peeked.messageText, 'by SAS');
    await q.delete();
  });
});
