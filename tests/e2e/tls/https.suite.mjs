// HTTPS on the server: --cert/--key (PEM) and --cert FILE.pfx --pwd, as Azurite takes them.
// Run by tls_suites.test.mjs in a child `node --test` with NODE_EXTRA_CA_CERTS set to the test
// CA (the SDK's HTTP client reads trusted CAs only at process start) and AZQUEUE_E2E_TLS to
// the certificate directory, so every server the harness starts serves TLS.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import tls from 'node:tls';
import { after, before, describe, test } from 'node:test';
import {
  QueueClient,
  QueueSASPermissions,
  QueueServiceClient,
  SASProtocol,
} from '@azure/storage-queue';
import { rejectsWith, runServer, startServer, uniqueName } from '../azqueue_server.mjs';
import { PFX_PASSWORD } from '../tls_certificate.mjs';

const dir = process.env.AZQUEUE_E2E_TLS;
assert.ok(dir, 'run through tls_suites.test.mjs (AZQUEUE_E2E_TLS names the certificate directory)');

/**
 * Create, send, receive and delete through the SDK: a whole round over the TLS port.
 * @param {QueueServiceClient} service
 */
async function roundTrip(service) {
  const q = service.getQueueClient(uniqueName('tls'));
  await q.create();
  await q.sendMessage('over tls');
  const {
    receivedMessageItems: [m],
  } = await q.receiveMessages();
  assert.equal(m.messageText, 'over tls');
  await q.deleteMessage(m.messageId, m.popReceipt);
  await q.delete();
}

describe('--cert and --key (PEM)', () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server?.stop();
  });

  test('the ready line prints https:// URLs and DefaultEndpointsProtocol=https', () => {
    assert.match(server.queueUrl, /^https:\/\/127\.0\.0\.1:\d+\/devstoreaccount1$/);
    assert.match(server.webUrl, /^https:\/\//);
    assert.match(server.connectionString, /^DefaultEndpointsProtocol=https;/);
    assert.match(
      server.connectionString,
      /QueueEndpoint=https:\/\/127\.0\.0\.1:\d+\/devstoreaccount1;/,
    );
  });

  test('the SDK works from the connection string, and listings name the https endpoint', async () => {
    const service = QueueServiceClient.fromConnectionString(server.connectionString);
    await roundTrip(service);
    const page = await service.listQueues().byPage().next();
    assert.equal(page.value.serviceEndpoint, `${server.queueUrl}/`);
  });

  test('the server presents the test certificate, verified against the test CA', async () => {
    const { port } = new URL(server.queueUrl);
    const socket = tls.connect({
      host: '127.0.0.1',
      port: Number(port),
      ca: fs.readFileSync(path.join(dir, 'ca.pem')),
    });
    await new Promise((resolve, reject) => {
      socket.once('secureConnect', resolve);
      socket.once('error', reject);
    });
    assert.equal(socket.authorized, true);
    assert.equal(socket.getPeerCertificate().subject.CN, '127.0.0.1');
    socket.destroy();
  });

  test('a SAS limited to HTTPS (spr=https) is served: requests on the TLS port are HTTPS', async () => {
    const service = QueueServiceClient.fromConnectionString(server.connectionString);
    const name = uniqueName('spr');
    await service.createQueue(name);
    const url = service.getQueueClient(name).generateSasUrl({
      permissions: QueueSASPermissions.parse('a'),
      protocol: SASProtocol.Https,
      expiresOn: new Date(Date.now() + 3600_000),
    });
    assert.match(url, /spr=https(&|$)/);
    await new QueueClient(url).sendMessage('https only');
  });

  test('plain HTTP sent to the TLS port gets no HTTP answer', async () => {
    const { port } = new URL(server.queueUrl);
    const socket = net.connect(Number(port), '127.0.0.1');
    let got = '';
    socket.on('data', (d) => {
      got += d.toString('latin1');
    });
    socket.on('error', () => {});
    socket.write('GET /devstoreaccount1?comp=list HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise((resolve) => socket.once('close', resolve));
    assert.doesNotMatch(got, /^HTTP\/1\.1/);
  });

  test('the page is served over HTTPS too', async () => {
    const res = await fetch(server.webUrl);
    assert.equal(res.status, 200);
    assert.match(await res.text(), /<html/i);
  });
});

describe('--cert FILE.pfx --pwd PASSWORD', () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  before(async () => {
    server = await startServer({
      args: ['--cert', path.join(dir, 'cert.pfx'), '--pwd', PFX_PASSWORD],
    });
  });
  after(async () => {
    await server?.stop();
  });

  test('serves HTTPS with the certificate from the PFX file', async () => {
    assert.match(server.connectionString, /^DefaultEndpointsProtocol=https;/);
    await roundTrip(QueueServiceClient.fromConnectionString(server.connectionString));
  });

  test('a wrong password or a key of another certificate is a clear error at start', async () => {
    const wrongPwd = await runServer([
      '--queuePort',
      '0',
      '--webPort',
      '0',
      '--cert',
      path.join(dir, 'cert.pfx'),
      '--pwd',
      'not-it',
    ]);
    assert.equal(wrongPwd.code, 1);
    assert.match(wrongPwd.stderr, /cannot use .*cert\.pfx as the server's certificate: /);
    const mismatch = await runServer([
      '--queuePort',
      '0',
      '--webPort',
      '0',
      '--cert',
      path.join(dir, 'cert.pem'),
      '--key',
      path.join(dir, 'ca.key'),
    ]);
    assert.equal(mismatch.code, 1);
    assert.match(mismatch.stderr, /cannot use .*cert\.pem as the server's certificate: /);
  });

  test('SharedKey failures are still the usual 403 over TLS', async () => {
    const wrong = server.connectionString.replace(
      /AccountKey=[^;]+/,
      `AccountKey=${Buffer.from('nope').toString('base64')}`,
    );
    const service = QueueServiceClient.fromConnectionString(wrong);
    await rejectsWith(
      assert,
      service.createQueue(uniqueName('wrong')),
      403,
      'AuthenticationFailed',
    );
  });
});
