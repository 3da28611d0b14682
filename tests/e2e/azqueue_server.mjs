// Starts `node www/server.mjs` on free ports for one test suite and stops it afterwards.
// Not a test file itself (the name matches none of node --test's patterns).
//
// With AZQUEUE_E2E_TLS=<dir> (a directory made by tls_certificate.mjs) every server is started
// with --cert/--key from it, so a suite runs unchanged over HTTPS; the client side then needs
// NODE_EXTRA_CA_CERTS=<dir>/ca.pem (tls_suites.test.mjs sets both).

import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runNode } from '../run_node.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SERVER = path.join(ROOT, 'www', 'server.mjs');
/** The edge Worker under workerd (www/edge/dev.mjs), served instead when AZQUEUE_E2E=edge. */
export const EDGE = path.join(ROOT, 'www', 'edge', 'dev.mjs');
/** Which server the SDK suites run against: 'node' (default) or 'edge'. */
export const TARGET = process.env.AZQUEUE_E2E === 'edge' ? 'edge' : 'node';
export const DEV_ACCOUNT = 'devstoreaccount1';
/** The x-ms-version that raw-socket tests send: the page's, the newest the server speaks. */
export { API_VERSION } from '../../www/page/rest.js';
export const DEV_KEY =
  'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';

/**
 * Runs the server CLI with `args`; resolves when it exits: { code, signal, stdout, stderr }.
 * @param {string[]} args
 * @param {{ env?: Record<string, string>, timeoutMs?: number }} [options]
 */
export function runServer(args, { env = {}, timeoutMs = 10_000 } = {}) {
  return runNode([SERVER, ...args], { env: { ...process.env, ...env }, timeoutMs });
}

/**
 * Starts the server on free ports and waits for its ready line.
 * Resolves to { queueUrl, origin, webUrl, connectionString, child, output(), stop() }.
 * With AZQUEUE_E2E=edge (TARGET), the edge Worker's dev.mjs instead (no webUrl; `args` are its own).
 * @param {{ args?: string[], env?: Record<string, string>, timeoutMs?: number }} [options]
 * @returns {Promise<{ queueUrl: string, origin: string, webUrl: string, connectionString: string,
 *   child: import('node:child_process').ChildProcess, output: () => string,
 *   stop: () => Promise<number | null> }>}
 */
export function startServer({ args = [], env = {}, timeoutMs = 15_000 } = {}) {
  const tlsDir = process.env.AZQUEUE_E2E_TLS;
  const tlsArgs =
    tlsDir && TARGET !== 'edge' && !args.includes('--cert')
      ? ['--cert', path.join(tlsDir, 'cert.pem'), '--key', path.join(tlsDir, 'key.pem')]
      : [];
  const argv =
    TARGET === 'edge'
      ? [EDGE, '--port', '0', ...args]
      : [SERVER, '--queuePort', '0', '--webPort', '0', '--silent', ...tlsArgs, ...args];
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

/** Resolves after `ms` of real time: only for TTL and visibility expiry against the real clock. */
export const pause = (/** @type {number} */ ms) => new Promise((r) => setTimeout(r, ms));

/** A fresh queue name per test, so tests sharing a server never collide. */
let counter = 0;
export function uniqueName(prefix = 'q') {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}`.toLowerCase();
}

/**
 * Asserts that `promise` rejects with an Azure RestError of this status and code.
 * @param {typeof import('node:assert/strict')} assert
 * @param {Promise<unknown>} promise
 * @param {number} statusCode
 * @param {string} [code]
 */
export async function rejectsWith(assert, promise, statusCode, code) {
  await assert.rejects(promise, (/** @type {any} */ err) => {
    assert.equal(err.statusCode, statusCode, `status of ${err.message}`);
    if (code) assert.equal(err.code, code, `code of ${err.message}`);
    return true;
  });
}

/**
 * The SharedKey `Authorization` value for a raw request (tests that write HTTP by hand):
 * `headers` are lower-case names → values; path-style resource, as the SDKs sign.
 * @param {string} method
 * @param {string} path
 * @param {string | Record<string, string>} query as URLSearchParams takes it
 * @param {Record<string, string>} headers
 */
export function sharedKey(method, path, query, headers) {
  const h = (/** @type {string} */ name) => headers[name] ?? '';
  const length = h('content-length') === '0' ? '' : h('content-length');
  const xms = Object.keys(headers)
    .filter((k) => k.startsWith('x-ms-'))
    .sort()
    .map((k) => `${k}:${headers[k]}\n`)
    .join('');
  const params = [...new URLSearchParams(query)]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => `\n${k}:${v}`)
    .join('');
  const toSign =
    [
      method,
      h('content-encoding'),
      h('content-language'),
      length,
      h('content-md5'),
      h('content-type'),
      '',
      h('if-modified-since'),
      h('if-match'),
      h('if-none-match'),
      h('if-unmodified-since'),
      h('range'),
    ].join('\n') + `\n${xms}/${DEV_ACCOUNT}${path}${params}`;
  const key = Buffer.from(DEV_KEY, 'base64');
  return `SharedKey ${DEV_ACCOUNT}:${crypto.createHmac('sha256', key).update(toSign, 'utf8').digest('base64')}`;
}
