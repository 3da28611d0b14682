#!/usr/bin/env node
// Runs the edge Worker (worker.mjs) and its Durable Objects locally under workerd (miniflare 4),
// as `wrangler dev` would, without network access:
//
//   npx azqueue-edge --port P [--host H] [--persist DIR]     (the package's command)
//   node hosts/edge/dev.mjs --port P [--host H] [--persist DIR]  (in a clone)
//
// Objects keep their SQLite storage in DIR (kept across restarts), or in a temporary directory
// removed on exit. Prints `azqueue ready: queue <url> connection "<connection string>"`, stops
// workerd and exits 0 on SIGINT/SIGTERM, and exits 1 with a message if workerd stops on its own. Accounts come from AZURITE_ACCOUNTS, as for the Node server.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { workerOptions } from './miniflare-options.mjs';

/** The miniflare this runner is tested with (the last release for Node 20). */
const MINIFLARE = 'miniflare@4.20260426.0';

/**
 * miniflare, an optional peer dependency of the package: a user who never runs the Worker
 * locally should not download workerd. Exits with what to install when it is missing.
 * @returns {Promise<typeof import('miniflare')>}
 */
async function loadMiniflare() {
  try {
    return await import('miniflare');
  } catch (err) {
    if (/** @type {NodeJS.ErrnoException} */ (err).code !== 'ERR_MODULE_NOT_FOUND') throw err;
    console.error(
      'azqueue: this runner starts the Worker under workerd through miniflare, which is not ' +
        `installed. Install it beside azqueue: npm install --save-dev ${MINIFLARE}`,
    );
    process.exit(1);
  }
}

const USAGE = `usage: npx azqueue-edge [--port P] [--host H] [--persist DIR]
       (in a clone of the repository: node hosts/edge/dev.mjs …)
  --port P       listen on port P (0 picks a free one; default 8787)
  --host H       listen on H (default 127.0.0.1)
  --persist DIR  keep the objects' storage in DIR (default: a temporary directory, removed on exit)
Accounts come from AZURITE_ACCOUNTS ("name:key1[:key2];name2:key"), else devstoreaccount1.
AZQUEUE_PURGE_FLOOR_MS sets how soon the queue objects' housekeeping alarm may fire (default 60000),
AZQUEUE_UPGRADE_STEP how many layout-1 messages an upgrade moves per transaction (default 1000),
AZQUEUE_FAULTS the fault rules and limits every object starts with, as JSON (docs/faults.md).
If workerd stops (killed, out of memory), the runner says so and exits with status 1.`;

const DEV_KEY =
  'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';

/**
 * @param {string[]} argv
 * @returns {{ port: number, host: string, persist: string | null, help?: boolean }}
 */
function parseArgs(argv) {
  /** @type {{ port: number, host: string, persist: string | null, help?: boolean }} */
  const opts = { port: 8787, host: '127.0.0.1', persist: null };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${flag} needs a value`);
      return argv[++i];
    };
    if (flag === '--port') opts.port = Number(value());
    else if (flag === '--host') opts.host = value();
    else if (flag === '--persist') opts.persist = path.resolve(value());
    else if (flag === '--help' || flag === '-h') opts.help = true;
    else throw new Error(`unknown flag ${flag}`);
  }
  if (!Number.isInteger(opts.port) || opts.port < 0 || opts.port > 65535)
    throw new Error('--port must be 0–65535');
  return opts;
}

/**
 * The first configured account and its first key, checked as the Worker will read them.
 * @param {string | undefined} accounts
 */
async function firstAccount(accounts) {
  const require = (await import('node:module')).createRequire(import.meta.url);
  /** @type {typeof import('../../pkg/node/azqueue.js')} */
  const { QueueService } = require('../../pkg/node/azqueue.js');
  const service = await QueueService.open({ store: 'memory', accounts });
  const account = service.account;
  const key = /AccountKey=([^;]*)/.exec(service.connectionString('http://x'))?.[1] ?? DEV_KEY;
  await service.close();
  service.free();
  return { account, key };
}

/** This process's children (workerd), read from /proc. */
function children() {
  return fs
    .readdirSync(`/proc/${process.pid}/task`)
    .flatMap((task) =>
      fs.readFileSync(`/proc/${process.pid}/task/${task}/children`, 'utf8').trim().split(/\s+/),
    )
    .filter(Boolean)
    .map(Number);
}

/** @param {number} pid */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGKILLs this process's children (workerd). */
function killChildren() {
  for (const pid of children()) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

export async function main() {
  let opts;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (err) {
    console.error(`azqueue: ${/** @type {Error} */ (err).message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (opts.help) {
    console.log(USAGE);
    return;
  }
  const { Miniflare } = await loadMiniflare();
  const accounts = process.env.AZURITE_ACCOUNTS?.trim() || undefined;
  let first;
  try {
    first = await firstAccount(accounts);
  } catch (err) {
    console.error(`azqueue: ${/** @type {Error} */ (err).message}`);
    process.exit(1);
  }

  const temporary = opts.persist === null;
  const dir = opts.persist ?? fs.mkdtempSync(path.join(os.tmpdir(), 'azqueue-edge-'));
  fs.mkdirSync(dir, { recursive: true });
  // AZQUEUE_PURGE_FLOOR_MS: how soon the queue objects' housekeeping alarm may fire;
  // AZQUEUE_UPGRADE_STEP: layout-1 messages an upgrade moves per transaction (sqlite-store.mjs);
  // AZQUEUE_FAULTS: the fault rules and limits every object starts with (docs/faults.md).
  /** @type {Record<string, string>} */
  const bindings = {};
  for (const name of ['AZQUEUE_PURGE_FLOOR_MS', 'AZQUEUE_UPGRADE_STEP', 'AZQUEUE_FAULTS']) {
    if (process.env[name]) bindings[name] = process.env[name];
  }
  const mf = new Miniflare({
    ...workerOptions({ accounts, persist: dir, bindings }),
    host: opts.host,
    port: opts.port,
  });

  let stopping = false;
  const stop = async (/** @type {string} */ signal) => {
    if (stopping) return;
    stopping = true;
    // dispose() stops workerd; should it not finish, workerd is killed rather than orphaned.
    const disposed = await Promise.race([
      mf.dispose().then(
        () => true,
        () => false,
      ),
      new Promise((resolve) => setTimeout(resolve, 10_000, false)),
    ]);
    if (!disposed) killChildren();
    if (temporary) fs.rmSync(dir, { recursive: true, force: true });
    console.log(`azqueue: stopped (${signal})`);
    process.exit(0);
  };
  // Miniflare's own handlers exit at once with 128 + the signal; ours waits for dispose(), which
  // stops workerd, and exits 0 as the Node server does.
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.removeAllListeners(signal);
    process.on(signal, () => stop(signal));
  }

  let url;
  try {
    url = await mf.ready;
  } catch (err) {
    console.error(`azqueue: workerd did not start: ${/** @type {Error} */ (err).message}`);
    await stop('error');
    return;
  }
  const origin = `http://${opts.host.includes(':') ? `[${opts.host}]` : opts.host}:${url.port}`;
  const queueUrl = `${origin}/${first.account}`;
  const connection = `DefaultEndpointsProtocol=http;AccountName=${first.account};AccountKey=${first.key};QueueEndpoint=${queueUrl};`;
  console.log(`azqueue: objects' storage in ${dir}${temporary ? ' (temporary)' : ''}`);
  console.log(`azqueue ready: queue ${queueUrl} connection "${connection}"`);

  // workerd can die under us (killed, out of memory). A runner that stayed alive with its port
  // closed would look healthy to a supervisor or a test runner while serving nothing, so it
  // says what happened and exits non-zero; the supervisor decides whether to start it again.
  const workerd = children();
  const watch = setInterval(() => {
    if (stopping || workerd.some(alive)) return;
    clearInterval(watch);
    stopping = true;
    console.error(
      `azqueue: workerd (process ${workerd.join(', ')}) has stopped, so nothing serves ` +
        `${origin} any more; exiting.` +
        (temporary ? '' : ` Start the runner again to serve the objects kept in ${dir}.`),
    );
    if (temporary) fs.rmSync(dir, { recursive: true, force: true });
    process.exit(1);
  }, 250);
  watch.unref();
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  await main();
