// --debug FILE (issue 13): each request's and answer's headers and bodies are written, as
// Azurite's debug log has them, and no key, signature or token ever is: not the account key,
// not a SharedKey signature (even the one an error quotes back), not a SAS `sig`.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { QueueClient, QueueSASPermissions, QueueServiceClient } from '@azure/storage-queue';
import { DEV_ACCOUNT, DEV_KEY, startServer, uniqueName } from './azqueue_server.mjs';

/**
 * The log once it mentions `marker` (it is written as answers go out).
 * @param {string} file
 * @param {string} marker
 */
async function logMentioning(file, marker) {
  let text = '';
  for (let i = 0; i < 100 && !text.includes(marker); i++) {
    await new Promise((r) => setTimeout(r, 20));
    text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  }
  assert.ok(text.includes(marker), `the debug log never mentioned ${marker}`);
  return text;
}

describe('--debug FILE', () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  /** @type {string} */
  let dir;
  /** @type {string} */
  let file;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'azq-debug-'));
    file = path.join(dir, 'debug.log');
    server = await startServer({ args: ['--debug', file] });
  });
  after(async () => {
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('bodies are logged; the key, SharedKey signatures and SAS sig are not', async () => {
    const service = QueueServiceClient.fromConnectionString(server.connectionString);
    const name = uniqueName('debug');
    const q = service.getQueueClient(name);
    await q.create();
    await q.sendMessage(`a body worth seeing; the key itself: ${DEV_KEY}`);

    const sasUrl = q.generateSasUrl({
      permissions: QueueSASPermissions.parse('rp'),
      expiresOn: new Date(Date.now() + 3600_000),
    });
    const sig = /** @type {string} the SAS has one */ (new URL(sasUrl).searchParams.get('sig'));
    const {
      receivedMessageItems: [m],
    } = await new QueueClient(sasUrl).receiveMessages();
    assert.ok(m.messageText.startsWith('a body worth seeing'));

    // A forged SharedKey signature: the 403's detail quotes it back to the client.
    const forged = 'Zm9yZ2VkIHNpZ25hdHVyZSBmb3IgdGhlIGxvZw==';
    const url = new URL(`${server.queueUrl}/${name}?comp=metadata`);
    const refused = await new Promise((resolve, reject) => {
      http
        .get(
          url,
          {
            headers: {
              authorization: `SharedKey ${DEV_ACCOUNT}:${forged}`,
              'x-ms-date': new Date().toUTCString(),
              'x-ms-version': '2025-11-05',
              'x-ms-client-request-id': 'forged-signature',
            },
          },
          (res) => {
            let body = '';
            res.on('data', (d) => {
              body += d;
            });
            res.on('end', () => resolve({ status: res.statusCode, body }));
          },
        )
        .on('error', reject);
    });
    assert.equal(refused.status, 403);
    assert.ok(refused.body.includes(forged), 'the client itself is told which signature it sent');

    const text = await logMentioning(file, 'forged-signature');
    // What a debug log is for: the request and the answer, bodies included.
    assert.match(text, /> request\n/);
    assert.match(
      text,
      /<MessageText>a body worth seeing; the key itself: <redacted><\/MessageText>/,
    );
    assert.match(
      text,
      /< response 201\n(.*\n)*? {2}<\?xml [^>]*\?><QueueMessagesList><QueueMessage><MessageId>/,
    );
    assert.match(text, /< response 403\n/);
    assert.match(text, /SharedKey devstoreaccount1:<redacted>/);
    assert.match(text, /[?&]sig=<redacted>/);
    // What it must never hold.
    for (const secret of [DEV_KEY, sig, encodeURIComponent(sig), forged]) {
      assert.equal(
        text.includes(secret),
        false,
        `the debug log contains a secret (${secret.slice(0, 6)}…)`,
      );
    }
    assert.doesNotMatch(text, /SharedKey devstoreaccount1:(?!<redacted>)/);
  });
});
