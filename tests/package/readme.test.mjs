// The README as a user follows it, from the packed tarball (as `make package` writes it)
// installed in an empty project with no Rust on the PATH: every link resolves inside
// node_modules/azqueue, and every fenced block runs, in order, as written; then the same for the
// pages users copy from (docs/clock.md, docs/inspector.md, docs/edge.md), read from the package.
// (docs/testing-rust.md's crate is built from `cargo package`'s output: tests/crate/.)
//
// - ```sh blocks: each command runs as written (`sh -c`). One that exits must exit 0; one that
//   serves must print its ready line (`azqueue ready: … connection "…"`, or wrangler's
//   `Ready on <url>`), is then used through the official SDK, and stopped. A curl to Azurite's
//   port runs against a fresh `npx azqueue`, and must do what it says. Port 8080 is held by a
//   listener of this test the whole time: nothing the README starts may need it.
// - ```sh clone blocks are run in a clone of the repository (make demo, make package): not here.
// - A block whose info string names a file (```js worker.js, ```js consumer.test.mjs) is written
//   to that file, for the commands after it; a ```js or ```python block with no file name is a
//   program, run with node or the Python SDK's python as it stands (with a fresh service on
//   Azurite's port when it names that port).
//
// deno, bun and Python with azure-storage-queue come from the repository's dev dependencies and
// .venv, on the PATH as if installed.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { QueueServiceClient } from '@azure/storage-queue';
import { devConnectionString } from '../../scripts/lib/shared-key.mjs';
import { blocks, commands, slug } from './markdown.mjs';
import { ROOT, USER_ENV, installedProject } from './project.mjs';

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
 * The local links and images of one installed Markdown page: each resolves inside
 * node_modules/azqueue (a PNG where it is an image), and a fragment names a heading there.
 * @param {string} pkg
 * @param {string} page
 * @returns {number} how many local links the page has
 */
function checkLinks(pkg, page) {
  const text = fs.readFileSync(path.join(pkg, page), 'utf8');
  const targets = [...text.matchAll(/(!?)\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => ({
    image: m[1] === '!',
    target: m[2],
  }));
  const local = targets.filter(
    ({ target }) => !/^[a-z]+:/i.test(target) && !target.startsWith('#'),
  );
  for (const { image, target } of local) {
    const [file, fragment] = target.split('#');
    const at = path.join(pkg, path.dirname(page), decodeURIComponent(file));
    assert.ok(fs.existsSync(at), `${page} links to ${target}, which the package does not hold`);
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
  return local.length;
}

test('every link and image of the installed README resolves inside node_modules/azqueue', () => {
  const pkg = path.join(installedProject().dir, 'node_modules', 'azqueue');
  const local = checkLinks(pkg, 'README.md');
  assert.ok(local >= 15, `only ${local} local links found`);
});

test('so does every link of the other documents the package ships (docs/, BENCHMARKS.md, …)', () => {
  const pkg = path.join(installedProject().dir, 'node_modules', 'azqueue');
  const pages = [
    ...fs.readdirSync(pkg).filter((f) => f.endsWith('.md') && f !== 'README.md'),
    ...fs
      .readdirSync(path.join(pkg, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  assert.ok(pages.length >= 10, `only ${pages.length} documents shipped: ${pages.join(', ')}`);
  for (const page of pages) checkLinks(pkg, page);
});

/** The pages whose blocks a user copies, in the order a reader meets them. */
const PAGES = ['README.md', 'docs/clock.md', 'docs/inspector.md', 'docs/edge.md'];

/**
 * Runs `use` while a service answers on Azurite's port, as the pages assume one does: `npx
 * azqueue` in memory, so each block meets a fresh service whatever the blocks before it did.
 * @template T
 * @param {NodeJS.ProcessEnv} env
 * @param {(connectionString: string) => Promise<T>} use
 */
async function withService(env, use) {
  const server = await run('npx azqueue --inMemoryPersistence', env);
  assert.ok(server.ready, server.out);
  try {
    return await use(server.ready.connectionString);
  } finally {
    await server.stop?.();
  }
}

/**
 * One curl command of a page against the service: exits 0, and does what it says. `$ID` is the
 * id of a message a reader has in `orders`.
 * @param {string} command
 * @param {NodeJS.ProcessEnv} env
 */
function curl(command, env) {
  return withService(env, async (connectionString) => {
    const service = QueueServiceClient.fromConnectionString(connectionString);
    /** @type {string | undefined} */
    let id;
    if (command.includes('$ID')) {
      const orders = service.getQueueClient('orders');
      await orders.create();
      id = (await orders.sendMessage('move me')).messageId;
    }
    const r = await run(command, { ...env, ...(id && { ID: id }) });
    assert.equal(r.code, 0, r.out);
    const advance = /"advanceMs":\s*(\d+)/.exec(command);
    if (advance) assert.match(r.out, new RegExp(`"offsetMs":${advance[1]}\\b`), r.out);
    if (/\/poison$/.test(command)) {
      const {
        peekedMessageItems: [moved],
      } = await service.getQueueClient('orders-poison').peekMessages();
      assert.equal(moved?.messageText, 'move me', r.out);
    }
  });
}

test('every block the README and the pages it sends users to give runs as written', async (t) => {
  const { dir } = installedProject();
  const installed = path.join(dir, 'node_modules', 'azqueue');
  const python = fs.mkdtempSync(path.join(dir, '.python-'));
  // The official Python SDK, as a user who installed it has it (the repository's venv).
  fs.writeFileSync(
    path.join(python, 'python'),
    `#!/bin/sh\nexec ${JSON.stringify(path.join(ROOT, '.venv', 'bin', 'python'))} "$@"\n`,
    { mode: 0o755 },
  );
  const env = {
    ...USER_ENV,
    PATH: [toolBin(), python, USER_ENV.PATH].join(path.delimiter),
    // Packages the README installs come from the npm cache the repository's install filled,
    // or (vitest) from the registry.
    npm_config_prefer_offline: 'true',
    NO_COLOR: '1',
    DENO_NO_UPDATE_CHECK: '1',
    WRANGLER_SEND_METRICS: 'false',
  };
  /** @type {Record<string, number>} */
  const ran = { sh: 0, js: 0, python: 0 };
  for (const page of PAGES) {
    const markdown = fs.readFileSync(path.join(installed, page), 'utf8');
    for (const [i, block] of blocks(markdown).entries()) {
      const name = `${page} block ${i + 1}`;
      const program = `${page.replace(/\W/g, '-')}-${i + 1}`;
      if (block.file && block.lang !== 'sh') {
        fs.writeFileSync(path.join(dir, block.file), block.text);
        continue;
      }
      if (block.lang === 'js' || block.lang === 'python') {
        const [file, command] =
          block.lang === 'js'
            ? [`${program}.mjs`, `node ${program}.mjs`]
            : [`${program}.py`, `python ${program}.py`];
        await t.test(`${name} (${block.lang})`, async () => {
          fs.writeFileSync(path.join(dir, file), block.text);
          const alone = !block.text.includes('127.0.0.1:10001');
          const r = alone
            ? await run(command, env)
            : await withService(env, () => run(command, env));
          assert.equal(r.code, 0, r.out);
        });
        ran[block.lang] += 1;
        continue;
      }
      if (block.lang !== 'sh' || block.file === 'clone') continue;
      for (const command of commands(block.text)) {
        await t.test(`${name}: ${command}`, async () => {
          if (/^curl\b.*127\.0\.0\.1:10001\//.test(command)) return curl(command, env);
          const r = await run(command, env);
          if (!r.ready) {
            assert.equal(r.code, 0, r.out);
            // A test runner's exit status alone would also pass a file with no tests in it.
            if (/^npx vitest run\b/.test(command)) assert.match(r.out, /Tests\s+1 passed/, r.out);
            return;
          }
          try {
            if (/^npx azqueue(\s|$)/.test(command) && !command.includes('--queuePort')) {
              // Azurite's port, answering while 8080 is held.
              assert.match(r.ready.connectionString, /QueueEndpoint=http:\/\/127\.0\.0\.1:10001\//);
            }
            if (/--webPort 8080\b/.test(command)) {
              assert.match(
                r.out,
                /cannot serve the page on 127\.0\.0\.1:8080: the port is already in use/,
              );
            }
            await roundTrip(r.ready.connectionString, `readme-${ran.sh}`);
          } finally {
            await r.stop?.();
          }
        });
        ran.sh += 1;
      }
    }
  }
  assert.ok(ran.sh >= 15, `only ${ran.sh} commands found in ${PAGES.join(', ')}`);
  assert.ok(ran.js >= 2 && ran.python >= 3, `programs run: ${JSON.stringify(ran)}`);
});
