// The server as a command: Azurite's flags, port 0, errors that say what went wrong, clean
// shutdown on signals, and the static files of www/.

import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { QueueServiceClient } from '@azure/storage-queue';
import { runServer, startServer } from './azqueue_server.mjs';

describe('server command line', () => {
  test('an unknown flag is refused with usage and exit code 2', async () => {
    const r = await runServer(['--queuePort', '0', '--webPort', '0', '--frobnicate']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /unknown option "--frobnicate"/);
    assert.match(r.stderr, /usage:/);
  });

  test('a malformed port is refused', async () => {
    const r = await runServer(['--queuePort', 'ten']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--queuePort must be a port number/);
  });

  test('a busy port is a clear error and a non-zero exit', async () => {
    const blocker = net.createServer();
    await /** @type {Promise<void>} */ (new Promise((r) => blocker.listen(0, '127.0.0.1', r)));
    const { port } = /** @type {import('node:net').AddressInfo} */ (blocker.address());
    try {
      const r = await runServer(['--queuePort', String(port), '--webPort', '0']);
      assert.equal(r.code, 1);
      assert.match(r.stderr, new RegExp(`127\\.0\\.0\\.1:${port}: the port is already in use`));
    } finally {
      blocker.close();
    }
  });

  test('a busy page port leaves the queue service running and says what to do', async () => {
    const blocker = net.createServer();
    await /** @type {Promise<void>} */ (new Promise((r) => blocker.listen(0, '127.0.0.1', r)));
    const { port } = /** @type {import('node:net').AddressInfo} */ (blocker.address());
    const server = await startServer({ args: ['--webPort', String(port)] });
    try {
      assert.equal(server.webUrl, undefined);
      assert.match(
        server.output(),
        new RegExp(
          `cannot serve the page on 127\\.0\\.0\\.1:${port}: the port is already in use\\. ` +
            'The queue service runs without the page; give the page a free port with ' +
            '--webPort <port> \\(0 picks one\\), or leave --webPort out\\.',
        ),
      );
      const queue = QueueServiceClient.fromConnectionString(server.connectionString).getQueueClient(
        'page-port-taken',
      );
      await queue.create();
      await queue.delete();
    } finally {
      await server.stop();
      blocker.close();
    }
  });

  test('HTTPS and OAuth flags are checked before anything starts', async () => {
    /** @type {[string[], RegExp][]} */
    const cases = [
      [['--key', 'k.pem'], /--key needs --cert/],
      [['--cert', 'c.pem'], /--cert needs --key \(a PEM certificate\) or --pwd \(a PFX file\)/],
      [['--oauth', 'full', '--cert', 'c.pem', '--key', 'k.pem'], /--oauth takes "basic"/],
    ];
    for (const [args, message] of cases) {
      const r = await runServer(['--queuePort', '0', '--webPort', '0', ...args]);
      assert.equal(r.code, 2, args.join(' '));
      assert.match(r.stderr, message);
    }
    const missing = await runServer([
      '--queuePort',
      '0',
      '--webPort',
      '0',
      '--cert',
      '/nonexistent/c.pem',
      '--key',
      '/nonexistent/k.pem',
    ]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /cannot read the certificate \/nonexistent\/c\.pem: no such file/);
  });

  test('--help prints usage and exits 0', async () => {
    const r = await runServer(['--help']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /--queuePort PORT/);
  });

  test('Azurite flags are accepted; --inMemoryPersistence keeps data in memory despite --location', async () => {
    const server = await startServer({
      args: [
        '--inMemoryPersistence',
        '--skipApiVersionCheck',
        '--loose',
        '--location',
        '/tmp/azqueue-e2e',
        '--disableProductStyleUrl',
      ],
    });
    try {
      assert.match(server.output(), /memory-only \(--location \/tmp\/azqueue-e2e is not used\)/);
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });

  test('SIGINT and SIGTERM stop the server cleanly', async () => {
    for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
      const server = await startServer();
      const exited = new Promise((r) => server.child.once('exit', (code) => r(code)));
      server.child.kill(signal);
      assert.equal(await exited, 0, signal);
      assert.match(server.output(), new RegExp(`stopped \\(${signal}\\)`));
    }
  });
});

describe('server endpoints', () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server?.stop();
  });

  test('the ready line names both URLs and a working connection string', () => {
    assert.match(server.queueUrl, /^http:\/\/127\.0\.0\.1:\d+\/devstoreaccount1$/);
    assert.match(server.webUrl, /^http:\/\/127\.0\.0\.1:\d+\/$/);
    assert.match(
      server.connectionString,
      /AccountName=devstoreaccount1;AccountKey=[^;]+;QueueEndpoint=http:\/\/127\.0\.0\.1:\d+\/devstoreaccount1;/,
    );
  });

  test('www/ files are served, .wasm as application/wasm', async () => {
    const wasm = await fetch(new URL('pkg/web/azqueue_bg.wasm', server.webUrl));
    assert.equal(wasm.status, 200);
    assert.equal(wasm.headers.get('content-type'), 'application/wasm');
    const bytes = new Uint8Array(await wasm.arrayBuffer());
    assert.deepEqual([...bytes.slice(0, 4)], [0, 0x61, 0x73, 0x6d]);
    const js = await fetch(new URL('pkg/web/azqueue.js', server.webUrl));
    assert.match(/** @type {string} */ (js.headers.get('content-type')), /^text\/javascript/);
    await js.arrayBuffer();
  });

  test('missing files are 404 and the server never serves outside www/', async () => {
    assert.equal((await fetch(new URL('no-such-file.txt', server.webUrl))).status, 404);
    const escape = await fetch(new URL('%2e%2e/Cargo.toml', server.webUrl));
    assert.ok([403, 404].includes(escape.status), `status ${escape.status}`);
  });

  test('an unauthenticated REST request is refused with an Azure error', async () => {
    const r = await fetch(`${server.queueUrl}/some-queue`, {
      method: 'PUT',
      headers: { 'x-ms-version': '2026-04-06' },
    });
    assert.ok([401, 403, 404].includes(r.status), `status ${r.status}`);
    assert.ok(r.headers.get('x-ms-error-code'));
    assert.ok(r.headers.get('x-ms-request-id'));
  });
});
