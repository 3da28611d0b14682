// Starts azqueue as a process for tests, benchmarks and the soak: `node hosts/node/server.mjs` on
// free ports (or, with AZQUEUE_E2E=edge, the edge Worker's `node hosts/edge/dev.mjs`), and stops
// it. Unless given --location, a server keeps its data in memory (--inMemoryPersistence): the
// command's own default, the current directory, would leave a journal in whatever directory the
// test runs in.
//
// With AZQUEUE_E2E_TLS=<dir> (a directory made by tests/e2e/tls_certificate.mjs) every server is
// started with --cert/--key from it, so a suite runs unchanged over HTTPS; the client side then
// needs NODE_EXTRA_CA_CERTS=<dir>/ca.pem (tests/e2e/tls_suites.test.mjs sets both).

import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runNode } from './run-node.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The Node server's command. */
export const SERVER = path.join(ROOT, 'hosts', 'node', 'server.mjs');
/** The edge Worker under workerd, served instead when AZQUEUE_E2E=edge. */
export const EDGE = path.join(ROOT, 'hosts', 'edge', 'dev.mjs');

/**
 * `args`, with --inMemoryPersistence first unless they name a --location.
 * @param {string[]} args
 */
export function inMemoryUnlessLocated(args) {
  const located = args.some((a) => a === '-l' || a === '--location' || a.startsWith('--location='));
  return located ? args : ['--inMemoryPersistence', ...args];
}
/** Which server the SDK suites run against: 'node' (default) or 'edge'. */
export const TARGET = process.env.AZQUEUE_E2E === 'edge' ? 'edge' : 'node';

/**
 * Runs the server CLI with `args`; resolves when it exits: { code, signal, stdout, stderr }.
 * @param {string[]} args
 * @param {{ env?: Record<string, string>, timeoutMs?: number }} [options]
 */
export function runServer(args, { env = {}, timeoutMs = 10_000 } = {}) {
  return runNode([SERVER, ...inMemoryUnlessLocated(args)], {
    env: { ...process.env, ...env },
    timeoutMs,
  });
}

/**
 * Starts the server on free ports and waits for its ready line.
 * Resolves to { queueUrl, origin, webUrl, connectionString, child, output(), stop() }.
 * With AZQUEUE_E2E=edge (TARGET), the edge Worker's dev.mjs instead (no webUrl; `args` are its own).
 * `plain`: plain HTTP even under AZQUEUE_E2E_TLS.
 * @param {{ args?: string[], env?: Record<string, string>, timeoutMs?: number, plain?: boolean }} [options]
 * @returns {Promise<{ queueUrl: string, origin: string, webUrl: string, connectionString: string,
 *   child: import('node:child_process').ChildProcess, output: () => string,
 *   stop: () => Promise<number | null> }>}
 */
export function startServer({ args = [], env = {}, timeoutMs = 15_000, plain = false } = {}) {
  const tlsDir = process.env.AZQUEUE_E2E_TLS;
  const tlsArgs =
    tlsDir && !plain && TARGET !== 'edge' && !args.includes('--cert')
      ? ['--cert', path.join(tlsDir, 'cert.pem'), '--key', path.join(tlsDir, 'key.pem')]
      : [];
  const argv =
    TARGET === 'edge'
      ? [EDGE, '--port', '0', ...args]
      : [
          SERVER,
          '--queuePort',
          '0',
          '--webPort',
          '0',
          '--silent',
          ...tlsArgs,
          ...inMemoryUnlessLocated(args),
        ];
  const child = spawn(process.execPath, argv, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server not ready within ${timeoutMs} ms:\n${out}`));
    }, timeoutMs);
    const onData = (/** @type {Buffer} */ d) => {
      out += d;
      const m = /azqueue ready: queue (\S+)(?: web (\S+))? connection "([^"]+)"/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      const queueUrl = m[1];
      resolve({
        queueUrl,
        origin: new URL(queueUrl).origin,
        webUrl: m[2],
        connectionString: m[3],
        child,
        output: () => out,
        stop: () =>
          new Promise((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done(child.exitCode);
            child.once('exit', (code) => done(code));
            child.kill('SIGTERM');
          }),
      });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (d) => {
      out += d;
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before it was ready:\n${out}`));
    });
  });
}
