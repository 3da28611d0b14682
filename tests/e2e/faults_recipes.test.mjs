// docs/faults.md's recipes, run as written against the server (its address in place of
// 127.0.0.1:10001): each sets the rule it says, and the official SDK's own retries then send
// through its two 503s into one message.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { QueueServiceClient } from '@azure/storage-queue';
import { ROOT, startServer, uniqueName } from './azqueue_server.mjs';

const DOC = fs.readFileSync(path.join(ROOT, 'docs', 'faults.md'), 'utf8');

/** The fenced blocks of the "Recipes" section, by language. */
function recipes() {
  const start = DOC.indexOf('\n## Recipes\n');
  const end = DOC.indexOf('\n## ', start + 1);
  const section = DOC.slice(start, end);
  return [...section.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].map((m) => ({
    lang: m[1],
    text: m[2],
  }));
}

/** @type {Record<string, (file: string) => string[]>} how each language's recipe runs */
const RUN = {
  sh: (file) => ['sh', file],
  python: (file) => [path.join(ROOT, '.venv', 'bin', 'python'), file],
  js: (file) => [process.execPath, file],
};

describe('docs/faults.md, "Recipes"', () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'azqueue-recipes-'));
  before(async () => {
    server = await startServer({ plain: true });
  });
  after(() => {
    fs.rmSync(dir, { recursive: true, force: true });
    return server?.stop();
  });

  test('there is one recipe each for curl, Python and JavaScript', () => {
    assert.deepEqual(
      recipes().map((r) => r.lang),
      ['sh', 'python', 'js'],
    );
  });

  for (const [i, { lang }] of recipes().entries()) {
    test(`the ${lang} recipe sets its rule, and a retrying SDK sends once`, async () => {
      const { text } = recipes()[i];
      const address = new URL(server.origin).host;
      const file = path.join(dir, `recipe-${i}.${lang === 'js' ? 'mjs' : lang}`);
      fs.writeFileSync(file, text.replaceAll('127.0.0.1:10001', address));
      const [command, ...args] = RUN[lang](file);
      const r = spawnSync(command, args, { encoding: 'utf8', timeout: 30_000 });
      assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);

      const state = await fetch(`${server.origin}/_azqueue/faults`).then((res) => res.json());
      assert.deepEqual(
        state.rules.map((/** @type {any} */ rule) => [rule.operation, rule.times, rule.status]),
        [['PutMessage', 2, 503]],
      );
      const queue = QueueServiceClient.fromConnectionString(server.connectionString, {
        retryOptions: { maxTries: 3, retryDelayInMs: 5, maxRetryDelayInMs: 20 },
      }).getQueueClient(uniqueName('recipe'));
      await queue.create();
      await queue.sendMessage('once');
      const { approximateMessagesCount } = await queue.getProperties();
      assert.equal(approximateMessagesCount, 1);
      await fetch(`${server.origin}/_azqueue/faults`, {
        method: 'DELETE',
        headers: { 'x-azqueue-dev': '1' },
      });
    });
  }
});
