// `npx azqueue`, installed from the tarball: the official SDK's smoke path against it, and the
// teaching page served from the package.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, test } from 'node:test';
import { QueueServiceClient } from '@azure/storage-queue';
import { USER_ENV, installedProject } from './project.mjs';

/**
 * The packaged server the tests talk to.
 * @type {{ child: import('node:child_process').ChildProcess, queueUrl: string, webUrl: string,
 *   connectionString: string }}
 */
let server;

before(async () => {
  const child = spawn('npx', ['--no-install', 'azqueue', '--queuePort', '0', '--webPort', '0'], {
    cwd: installedProject().dir,
    env: USER_ENV,
    detached: true,
  });
  let out = '';
  server = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line:\n${out}`)), 30_000);
    child.stdout.on('data', (/** @type {Buffer} */ d) => {
      out += d;
      const m = /azqueue ready: queue (\S+) web (\S+) connection "([^"]+)"/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, queueUrl: m[1], webUrl: m[2], connectionString: m[3] });
      }
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    child.once('exit', (code) => reject(new Error(`azqueue exited ${code}:\n${out}`)));
  });
});

after(() => {
  // npx runs the server as its child: signal the whole group this test started.
  if (server) process.kill(-(/** @type {number} spawned */ (server.child.pid)), 'SIGTERM');
});

test('it listens on 127.0.0.1 with path-style URLs, as azurite-queue does', () => {
  assert.match(server.queueUrl, /^http:\/\/127\.0\.0\.1:\d+\/devstoreaccount1$/);
  assert.match(server.connectionString, /AccountName=devstoreaccount1/);
});

test('the official SDK: create, send, peek, receive, update, delete, delete the queue', async () => {
  const queue = QueueServiceClient.fromConnectionString(server.connectionString).getQueueClient(
    `pkg-${process.pid}`,
  );
  await queue.create();
  await queue.sendMessage('hello from npx');
  const {
    peekedMessageItems: [peeked],
  } = await queue.peekMessages();
  assert.equal(peeked.messageText, 'hello from npx');
  const {
    receivedMessageItems: [m],
  } = await queue.receiveMessages({ visibilityTimeout: 30 });
  assert.equal(m.messageText, 'hello from npx');
  assert.equal(m.dequeueCount, 1);
  const updated = await queue.updateMessage(m.messageId, m.popReceipt, 'half done', 0);
  await queue.deleteMessage(m.messageId, /** @type {string} */ (updated.popReceipt));
  assert.equal((await queue.getProperties()).approximateMessagesCount, 0);
  await queue.delete();
});

test('--webPort serves the teaching page and its engine from the package', async () => {
  const page = await fetch(server.webUrl);
  assert.equal(page.status, 200);
  assert.match(await page.text(), /<title>azqueue/);
  const wasm = await fetch(new URL('pkg/web/azqueue_bg.wasm', server.webUrl));
  assert.equal(wasm.status, 200);
  assert.equal(wasm.headers.get('content-type'), 'application/wasm');
});
