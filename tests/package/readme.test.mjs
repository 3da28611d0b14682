// The README as a user follows it: every fenced block, in order, in an empty project that has
// the packed tarball in ./dist (as `make package` writes it), with no Rust on the PATH; then the
// user sections the README links to for more (docs/edge.md, "Deploy it"), in the same project.
//
// - ```sh blocks: each command runs as written (`sh -c`). One that exits must exit 0; one that
//   serves must print its ready line (`azqueue ready: … connection "…"`, or wrangler's
//   `Ready on <url>`), is then used through the official SDK, and stopped. Port 8080 is held by
//   a listener of this test the whole time: nothing the README starts may need it.
// - ```sh clone blocks are run in a clone of the repository (make demo, make package): not here.
// - A block whose info string names a file (```js worker.js, ```jsonc wrangler.jsonc) is written
//   to that file; a ```js block with no file name is a program, run with node as it stands.
//
// deno and bun come from the repository's dev dependencies, on the PATH as if installed.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { QueueServiceClient } from '@azure/storage-queue';
import { devConnectionString } from '../../scripts/lib/shared-key.mjs';
import { ROOT, USER_ENV, installedProject } from './project.mjs';

/** @typedef {{ lang: string, file: string, text: string }} Block */

/**
 * The fenced blocks of a Markdown text, in order.
 * @param {string} markdown
 * @returns {Block[]}
 */
export function blocks(markdown) {
  return [...markdown.matchAll(/^```(\w*)[ \t]*([^\n]*)\n([\s\S]*?)^```[ \t]*$/gm)].map((m) => ({
    lang: m[1],
    file: m[2].trim(),
    text: m[3],
  }));
}

/**
 * The commands of an sh block: comments dropped, `\` continuations joined.
 * @param {string} text
 */
export function commands(text) {
  return text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.replace(/(^|\s)#.*$/, '').trim())
    .filter(Boolean);
}

/**
 * One `## ` section of a Markdown text, from its heading to the next.
 * @param {string} markdown
 * @param {string} heading
 */
export function section(markdown, heading) {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  assert.ok(start >= 0, `no section "${heading}"`);
  const end = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, end < 0 ? undefined : end);
}

/** deno and bun, as a user who installed them would have them. */
function toolBin() {
  const dir = fs.mkdtempSync(path.join(installedProject().dir, '.bin-'));
  for (const tool of ['deno', 'bun']) {
    fs.symlinkSync(path.join(ROOT, 'node_modules', '.bin', tool), path.join(dir, tool));
  }
  return dir;
}

/** @type {import('node:net').Server | null} */
let holder = null;

before(async () => {
  holder = net.createServer();
  // If something else holds 8080 already, it is held all the same.
  await new Promise((resolve) => {
    /** @type {import('node:net').Server} */ (holder).once('error', resolve);
    /** @type {import('node:net').Server} */ (holder).listen(8080, '127.0.0.1', () =>
      resolve(null),
    );
  });
});
after(() => holder?.close());

/**
 * Runs one command in the project until it exits or prints a ready line.
 * @param {string} command
 * @param {NodeJS.ProcessEnv} env
 * @returns {Promise<{ code: number | null, out: string, ready?: { connectionString: string },
 *   stop?: () => Promise<void> }>}
 */
function run(command, env) {
  const child = spawn('sh', ['-c', command], {
    cwd: installedProject().dir,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const stop = () =>
    /** @type {Promise<void>} */ (
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        process.kill(-(/** @type {number} */ (child.pid)), 'SIGTERM');
      })
    );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      process.kill(-(/** @type {number} */ (child.pid)), 'SIGKILL');
      reject(new Error(`${command}: neither exited nor ready in 180 s:\n${out}`));
    }, 180_000);
    const onData = (/** @type {Buffer} */ d) => {
      out += d;
      const azqueue = /azqueue ready: queue \S+(?: web \S+)? connection "([^"]+)"/.exec(out);
      const wrangler = /Ready on (http:\/\/\S+)/.exec(out);
      if (!azqueue && !wrangler) return;
      clearTimeout(timer);
      const connectionString = azqueue
        ? azqueue[1]
        : devConnectionString(/** @type {RegExpExecArray} */ (wrangler)[1]);
      resolve({ code: null, out, ready: { connectionString }, stop });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

/** What a user does first with a server the README started: the SDK's round trip. */
async function roundTrip(/** @type {string} */ connectionString, /** @type {string} */ name) {
  const queue = QueueServiceClient.fromConnectionString(connectionString).getQueueClient(name);
  await queue.create();
  await queue.sendMessage('from the README');
  const {
    receivedMessageItems: [m],
  } = await queue.receiveMessages({ visibilityTimeout: 30 });
  assert.equal(m.messageText, 'from the README');
  await queue.deleteMessage(m.messageId, m.popReceipt);
  await queue.delete();
}

/**
 * The anchor GitHub gives a Markdown heading: lower case, punctuation dropped, spaces as `-`.
 * @param {string} heading
 */
function slug(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

test('every link and image of the installed README resolves inside node_modules/azqueue', () => {
  const pkg = path.join(installedProject().dir, 'node_modules', 'azqueue');
  const readme = fs.readFileSync(path.join(pkg, 'README.md'), 'utf8');
  const targets = [...readme.matchAll(/(!?)\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => ({
    image: m[1] === '!',
    target: m[2],
  }));
  const local = targets.filter(
    ({ target }) => !/^[a-z]+:/i.test(target) && !target.startsWith('#'),
  );
  assert.ok(local.length >= 15, `only ${local.length} local links found`);
  for (const { image, target } of local) {
    const [file, fragment] = target.split('#');
    const at = path.join(pkg, decodeURIComponent(file));
    assert.ok(fs.existsSync(at), `README links to ${target}, which the package does not hold`);
    if (image) {
      const png = fs.readFileSync(at).subarray(0, 8);
      assert.deepEqual(
        [...png],
        [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
        `${target} is a PNG`,
      );
    }
    if (fragment) {
      const headings = [...fs.readFileSync(at, 'utf8').matchAll(/^#+ (.*)$/gm)].map((m) =>
        slug(m[1]),
      );
      assert.ok(headings.includes(fragment), `${file} has no heading for #${fragment}`);
    }
  }
});

test('every command the README gives runs as written from the packed tarball', async (t) => {
  const { dir } = installedProject();
  const readme = fs.readFileSync(path.join(dir, 'node_modules', 'azqueue', 'README.md'), 'utf8');
  const edge = section(fs.readFileSync(path.join(ROOT, 'docs', 'edge.md'), 'utf8'), 'Deploy it');
  const env = {
    ...USER_ENV,
    PATH: `${toolBin()}${path.delimiter}${USER_ENV.PATH}`,
    // Packages the README installs come from the npm cache the repository's install filled.
    npm_config_prefer_offline: 'true',
    NO_COLOR: '1',
    DENO_NO_UPDATE_CHECK: '1',
    WRANGLER_SEND_METRICS: 'false',
  };
  let ran = 0;
  for (const [i, block] of [...blocks(readme), ...blocks(edge)].entries()) {
    if (block.file && block.lang !== 'sh') {
      fs.writeFileSync(path.join(dir, block.file), block.text);
      continue;
    }
    if (block.lang === 'js') {
      await t.test(`js block ${i + 1}`, async () => {
        fs.writeFileSync(path.join(dir, `readme-${i + 1}.mjs`), block.text);
        const r = await run(`node readme-${i + 1}.mjs`, env);
        assert.equal(r.code, 0, r.out);
      });
      ran += 1;
      continue;
    }
    if (block.lang !== 'sh' || block.file === 'clone') continue;
    for (const command of commands(block.text)) {
      await t.test(command, async () => {
        if (/^curl\b.*127\.0\.0\.1:10001\//.test(command)) {
          // A request to a running service: the README's `npx azqueue` answers it.
          const server = await run('npx azqueue', env);
          assert.ok(server.ready, server.out);
          try {
            const r = await run(command, env);
            assert.equal(r.code, 0, r.out);
            const advance = /"advanceMs":\s*(\d+)/.exec(command);
            if (advance) assert.match(r.out, new RegExp(`"offsetMs":${advance[1]}\\b`), r.out);
          } finally {
            await server.stop?.();
          }
          return;
        }
        const r = await run(command, env);
        if (!r.ready) {
          assert.equal(r.code, 0, r.out);
          return;
        }
        try {
          if (/^npx azqueue\b/.test(command) && !command.includes('--queuePort')) {
            // Azurite's port, answering while 8080 is held.
            assert.match(r.ready.connectionString, /QueueEndpoint=http:\/\/127\.0\.0\.1:10001\//);
          }
          if (/--webPort 8080\b/.test(command)) {
            assert.match(
              r.out,
              /cannot serve the page on 127\.0\.0\.1:8080: the port is already in use/,
            );
          }
          await roundTrip(r.ready.connectionString, `readme-${i + 1}-${ran}`);
        } finally {
          await r.stop?.();
        }
      });
      ran += 1;
    }
  }
  assert.ok(ran >= 10, `only ${ran} commands and programs found in the README and docs/edge.md`);
});
