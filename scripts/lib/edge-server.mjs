// Starts hosts/edge/dev.mjs (the Worker under workerd) for the edge tests and the soak, and stops
// or kills it.
// Not a test file itself.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { runNode } from './run-node.mjs';
import { EDGE } from './azqueue-server.mjs';

/**
 * A dev.mjs this process started (see startEdge).
 * @typedef {{ queueUrl: string, origin: string, connectionString: string,
 *   child: import('node:child_process').ChildProcess, output: () => string,
 *   stop: (signal?: NodeJS.Signals) => Promise<unknown>, kill: () => Promise<unknown> }}
 *   RunningEdge
 */

/**
 * Starts dev.mjs on a free port, in its own process group (so a crash test can kill workerd with
 * it), and waits for its ready line. Resolves to
 * { origin, queueUrl, connectionString, child, output(), stop(signal), kill() }.
 * @param {{ args?: string[], env?: Record<string, string>, timeoutMs?: number }} [options]
 * @returns {Promise<RunningEdge>}
 */
export function startEdge({ args = [], env = {}, timeoutMs = 30_000 } = {}) {
  const child = spawn(process.execPath, [EDGE, '--port', '0', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  const exited = new Promise((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal)),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      kill();
      reject(new Error(`dev.mjs not ready within ${timeoutMs} ms:\n${out}`));
    }, timeoutMs);
    const kill = () => {
      try {
        process.kill(-(/** @type {number} spawned */ (child.pid)), 'SIGKILL');
      } catch {
        // already gone
      }
      return exited;
    };
    child.stdout.on('data', (/** @type {Buffer} */ d) => {
      out += d;
      const m = /azqueue ready: queue (\S+) connection "([^"]+)"/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      resolve({
        queueUrl: m[1],
        origin: new URL(m[1]).origin,
        connectionString: m[2],
        child,
        output: () => out,
        /**
         * Signals dev.mjs alone and resolves to its exit code; one that has not exited within
         * 20 s is killed with workerd, and resolves to 'hung', so a test fails rather than hangs.
         * @param {NodeJS.Signals} [signal]
         */
        stop: (signal = 'SIGTERM') => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          /** @type {ReturnType<typeof setTimeout> | undefined} */
          let timer;
          const hung = new Promise((resolve) => {
            timer = setTimeout(() => kill().then(() => resolve('hung')), 20_000);
          });
          return Promise.race([exited, hung]).finally(() => clearTimeout(timer));
        },
        /** SIGKILLs dev.mjs and workerd together, as a crash would. */
        kill,
      });
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`dev.mjs exited with ${code} before it was ready:\n${out}`));
    });
  });
}

/**
 * Runs dev.mjs to completion with `args`: { code, stdout, stderr }.
 * @param {string[]} args
 * @param {{ env?: Record<string, string> }} [options]
 */
export function runEdge(args, { env = {} } = {}) {
  return runNode([EDGE, ...args], { env: { ...process.env, ...env } });
}

/**
 * The pids of the direct children of `pid` (Linux /proc).
 * @param {number} pid
 */
export function childrenOf(pid) {
  /** @type {number[]} */
  const pids = [];
  for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
    const text = fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
    if (text) pids.push(...text.split(/\s+/).map(Number));
  }
  return pids;
}

/**
 * Whether `pid` is a running process (a zombie waiting to be reaped is not).
 * @param {number} pid
 */
export function running(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}
