// Bun and Deno (npm's `bun` and `deno`, dev dependencies of the repository) load the installed
// package through their own export conditions, which lead to the web glue, and round-trip a
// message with it.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import test from 'node:test';
import { ROOT, USER_ENV, installedProject } from './project.mjs';

const SCRIPT = `import * as azqueue from "azqueue";
const service = await azqueue.QueueService.open();
const q = await service.createQueue("orders");
await q.sendMessage("hello");
const { receivedMessageItems: [m] } = await q.receiveMessages();
console.log(JSON.stringify({ text: m.messageText, dequeueCount: m.dequeueCount, webGlue: typeof azqueue.initSync === "function" }));
`;

/** @type {[string, string[]][]} */
const RUNTIMES = [
  ['bun', ['runtime.mjs']],
  ['deno', ['run', '--allow-read', 'runtime.mjs']],
];
for (const [runtime, args] of RUNTIMES) {
  test(`${runtime} takes the web glue and round-trips a message`, () => {
    const { dir } = installedProject();
    fs.writeFileSync(path.join(dir, 'runtime.mjs'), SCRIPT);
    const r = spawnSync(path.join(ROOT, 'node_modules', '.bin', runtime), args, {
      cwd: dir,
      env: { ...USER_ENV, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(/** @type {string} */ (r.stdout.trim().split('\n').pop())), {
      text: 'hello',
      dequeueCount: 1,
      webGlue: true,
    });
  });
}
