// The server as a command: Azurite's flags, port 0, errors that say what went wrong, clean
// shutdown on signals, and the static files of www/.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { QueueServiceClient } from '@azure/storage-queue';
import { runNode } from '../../scripts/lib/run-node.mjs';
import { SERVER, runServer, startServer } from './azqueue_server.mjs';

/**
 * The server as a user's shell starts it: in `cwd`, with exactly `args` (no flags added), until
 * its ready line; resolves { connectionString, out(), stop() }.
 * @param {string} cwd
 * @param {string[]} args
 */
function startIn(cwd, args) {
  const child = spawn(process.execPath, [SERVER, '--queuePort', '0', ...args], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return /** @type {Promise<{ connectionString: string, out: () => string, stop: () => Promise<number | null> }>} */ (
    new Promise((resolve, reject) => {
      const onData = (/** @type {Buffer} */ d) => {
        out += d;
        const m = /azqueue ready: .* connection "([^"]+)"/.exec(out);
        if (!m) return;
        resolve({
          connectionString: m[1],
          out: () => out,
          stop: () =>
            new Promise((done) => {
              child.once('exit', (code) => done(code));
              child.kill('SIGTERM');
            }),
        });
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.once('exit', (code) => reject(new Error(`exited ${code} before ready:\n${out}`)));
    })
  );
}

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

  test('every flag of azurite-queue 3.37 is accepted, and --help says which change nothing', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'azqueue-flags-'));
    try {
      // Azurite's own list (its queue QueueEnvironment at 3.37.0), all at once, in the
      // spellings its CI users write (short forms and --flag=value included).
      const server = await startIn(dir, [
        '-l',
        dir,
        '-s',
        '-L',
        '--disableProductStyleUrl',
        '--skipApiVersionCheck',
        '--disableTelemetry',
        '--extentMemoryLimit=50',
        '-d',
        path.join(dir, 'debug.log'),
        '--queueHost',
        '127.0.0.1',
      ]);
      assert.equal(await server.stop(), 0);
      const help = await runServer(['--help']);
      for (const flag of [
        '--queueHost',
        '--queuePort',
        '-l, --location',
        '-s, --silent',
        '-L, --loose',
        '--disableProductStyleUrl',
        '--skipApiVersionCheck',
        '--oauth',
        '--cert',
        '--key',
        '--pwd',
        '--inMemoryPersistence',
        '--extentMemoryLimit',
        '-d, --debug',
        '--disableTelemetry',
        '-h, --help',
        '-v, --version',
      ]) {
        assert.ok(help.stdout.includes(`  ${flag} `), `--help names ${flag}`);
      }
      const noEffect = help.stdout.slice(help.stdout.indexOf('change nothing here'));
      for (const flag of ['--skipApiVersionCheck', '--loose', '--disableProductStyleUrl']) {
        assert.ok(noEffect.includes(flag), `--help says ${flag} changes nothing`);
      }
      assert.match(noEffect, /--disableTelemetry\s+nothing is ever collected/);
      const version = await runServer(['-v']);
      assert.equal(version.code, 0);
      assert.match(version.stdout, /^\d+\.\d+\.\d+\n$/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('with no --location the data is kept in the current directory, as azurite-queue keeps it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'azqueue-cwd-'));
    try {
      let server = await startIn(dir, []);
      assert.match(server.out(), new RegExp(`data in ${dir.replace(/[.]/g, '\\.')} `));
      const queue = () =>
        QueueServiceClient.fromConnectionString(server.connectionString).getQueueClient('kept');
      await queue().create();
      await queue().sendMessage('across a restart');
      assert.equal(await server.stop(), 0);
      assert.ok(fs.existsSync(path.join(dir, 'journal.azq')), 'the journal is in the cwd');
      server = await startIn(dir, []);
      const {
        peekedMessageItems: [m],
      } = await queue().peekMessages();
      assert.equal(m.messageText, 'across a restart');
      assert.equal(await server.stop(), 0);

      // --inMemoryPersistence writes nothing at all.
      const empty = fs.mkdtempSync(path.join(dir, 'memory-'));
      server = await startIn(empty, ['--inMemoryPersistence']);
      await queue().create();
      assert.equal(await server.stop(), 0);
      assert.deepEqual(fs.readdirSync(empty), []);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a second server on the same directory says, in one sentence, which process holds it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'azqueue-held-'));
    try {
      const first = await startIn(dir, []);
      const second = await runNode([SERVER, '--queuePort', '0', '--location', dir], {
        timeoutMs: 15_000,
      });
      const pid = Number(fs.readFileSync(path.join(dir, 'azqueue.lock'), 'utf8'));
      assert.equal(await first.stop(), 0);
      assert.equal(second.code, 1);
      const said = second.stderr.trim().split('\n').pop();
      assert.equal(
        said,
        `azqueue: ${dir} is in use by another azqueue, process ${pid}: stop that one or give ` +
          `another --location (or delete ${path.join(dir, 'azqueue.lock')} if process ${pid} is no azqueue)`,
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
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
