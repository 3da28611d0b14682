// The soak's Node host: `hosts/node/server.mjs` in memory or with --location (a temporary directory),
// driven over loopback HTTP by the workload in this process.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { QueueServiceClient } from '@azure/storage-queue';
import { watchedClient } from './fault-watch.mjs';
import { injectedCounts } from './faults.mjs';
import { rssMiB } from './process-memory.mjs';
import { createQueues, runWorkload } from './workload.mjs';

/** @import { SoakHost } from './workload.mjs' */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Starts the server; resolves to { connectionString, origin, pid, stop() }.
 * @param {string} store
 * @returns {Promise<{ connectionString: string, origin: string, pid: number,
 *   stop: () => Promise<void> }>}
 */
function startServer(store) {
  const dir = store === 'location' ? fs.mkdtempSync(path.join(os.tmpdir(), 'azqueue-soak-')) : null;
  const child = spawn(
    process.execPath,
    [
      path.join(ROOT, 'hosts', 'node', 'server.mjs'),
      '--queuePort',
      '0',
      '--webPort',
      '0',
      '--silent',
      ...(dir ? ['--location', dir] : ['--inMemoryPersistence']),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  return new Promise((resolve, reject) => {
    const onData = (/** @type {Buffer} */ d) => {
      out += d;
      const m = /azqueue ready: queue (\S+) web \S+ connection "([^"]+)"/.exec(out);
      if (!m) return;
      child.stdout.off('data', onData);
      resolve({
        connectionString: m[2],
        origin: new URL(m[1]).origin,
        pid: /** @type {number} spawned */ (child.pid),
        stop: () =>
          /** @type {Promise<void>} */ (
            new Promise((done) => {
              child.once('exit', () => {
                if (dir) fs.rmSync(dir, { recursive: true, force: true });
                done();
              });
              child.kill('SIGTERM');
            })
          ),
      });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (d) => {
      out += d;
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
}

/**
 * Everything a server holds in `queues` (invisible messages included), from its inspection path.
 * @param {string} origin
 * @param {string[]} queues
 */
export async function presentOverHttp(origin, queues) {
  /** @type {Map<string, { text: string, dequeueCount: number }>} */
  const out = new Map();
  for (const q of queues) {
    const r = await fetch(`${origin}/_azqueue/inspect/devstoreaccount1/${q}`);
    if (r.status === 404) continue;
    if (!r.ok) throw new Error(`inspecting ${q}: ${r.status} ${await r.text()}`);
    for (const m of (await r.json()).messages)
      out.set(m.messageId, { text: m.messageText, dequeueCount: m.dequeueCount });
  }
  return out;
}

/**
 * A client with no retries: a failed operation is reported as it failed, never hidden.
 * @param {string} connectionString
 */
export function sdkClient(connectionString) {
  return QueueServiceClient.fromConnectionString(connectionString, {
    retryOptions: { maxTries: 1 },
  });
}

/** The workload's clock in Node. */
export const now = () => performance.now();

/**
 * Sends a development request (`/_azqueue/…`) to a server; resolves to its JSON answer.
 * @param {string} origin
 * @param {string} path
 * @param {unknown} [body] POSTed when given
 */
async function devRequest(origin, path, body) {
  const r = await fetch(`${origin}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'x-azqueue-dev': '1' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`);
  return r.json();
}

/**
 * A soak host (see soak.mjs) for the Node server with `store` 'memory' or 'location'; with
 * `faults`, the rule set (faults.mjs) is POSTed to it before the workload starts.
 * @param {string} store
 * @param {{ faults?: object }} [options]
 * @returns {Promise<SoakHost>}
 */
export async function serverHost(store, { faults } = {}) {
  const server = await startServer(store);
  if (faults) await devRequest(server.origin, '/_azqueue/faults', faults);
  return {
    title: store,
    interrupted: () => false,
    events: [],
    async run({ ledger, seconds, churnEveryMs, failed }) {
      const client = faults
        ? watchedClient(server.connectionString, ledger, now)
        : sdkClient(server.connectionString);
      await createQueues(client);
      await runWorkload({
        client: () => client,
        ledger,
        now,
        until: now() + seconds * 1000,
        churnEveryMs,
        failed,
      });
    },
    memory: async () => ({ 'server RSS': rssMiB(server.pid) }),
    present: (queues) => presentOverHttp(server.origin, queues),
    injected: async () => injectedCounts(await devRequest(server.origin, '/_azqueue/faults')),
    stop: () => server.stop(),
  };
}
