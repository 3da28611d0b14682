// A server process a benchmark started: its port and pid (to read its CPU time from /proc), why
// it exited, the end of what it printed, and how to stop it.

import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * A server this run started: its port and pid, why it exited (false while it runs), the end of
 * what it printed, and `stop()`.
 * @typedef {{ name: string, port: number, pid: number, exited: () => string | false,
 *   tail: () => string, stop: () => Promise<void> }} Server
 */

/**
 * Starts the azqueue server of the build in `www` (memory store, no access log, free ports);
 * resolves as `startServer` does.
 * @param {string} name
 * @param {string} www
 * @param {string} cwd
 */
export function startAzqueue(name, www, cwd) {
  return startServer(
    name,
    [
      path.join(www, 'server.mjs'),
      '--inMemoryPersistence',
      '--silent',
      '--queuePort',
      '0',
      '--webPort',
      '0',
    ],
    /azqueue ready: queue (http:\/\/[\d.]+:\d+)\//,
    cwd,
  );
}

/**
 * Spawns a server; resolves { name, port, pid, stop() } once `pattern` shows its URL.
 * @param {string} name
 * @param {string[]} args
 * @param {RegExp} pattern
 * @param {string} cwd
 * @returns {Promise<Server>}
 */
export function startServer(name, args, pattern, cwd) {
  const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  /** @type {string | false} */
  let exited = false;
  child.on('exit', (code, signal) => {
    exited = `exited (${signal ?? code})`;
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name}: no ready line:\n${out}`));
    }, 30_000);
    let ready = false;
    const onData = (/** @type {Buffer} */ d) => {
      out = (out + d).slice(-20_000);
      const m = ready ? null : pattern.exec(out);
      if (!m) return;
      ready = true;
      clearTimeout(timer);
      resolve({
        name,
        port: Number(new URL(m[1]).port),
        pid: /** @type {number} spawned */ (child.pid),
        /** Why the process is gone, or false while it runs; and the end of what it printed. */
        exited: () => exited,
        tail: () => out.slice(-1500),
        stop: () =>
          /** @type {Promise<void>} */ (
            new Promise((done) => {
              if (exited) return done();
              const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
              child.once('exit', () => {
                clearTimeout(kill);
                done();
              });
              child.kill('SIGTERM');
            })
          ),
      });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      if (ready) return;
      clearTimeout(timer);
      reject(new Error(`${name} exited ${code}:\n${out}`));
    });
  });
}

const TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString()) || 100;
  } catch {
    return 100;
  }
})();

/**
 * A process's user+system CPU time in seconds (Linux /proc).
 * @param {number} pid
 */
export function cpuSeconds(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS;
}
