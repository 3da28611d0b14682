// The SDK suites once more over HTTPS, plus the TLS-only suites (tests/e2e/tls/*.suite.mjs:
// --cert/--key, PFX, OAuth). Node's HTTP clients read extra trusted CAs only at process start,
// so they run in a child `node --test` with NODE_EXTRA_CA_CERTS set to a CA this test makes,
// and AZQUEUE_E2E_TLS telling the shared harness to start every server with that certificate.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { makeCertificate } from './tls_certificate.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** The suites that speak only through the SDKs (nothing raw-HTTP), rerun as they are. */
const SDK_SUITES = [
  'queues.test.mjs',
  'messages.test.mjs',
  'auth.test.mjs',
  'legacy_clients.test.mjs',
];
const TLS_SUITES = fs
  .readdirSync(path.join(HERE, 'tls'))
  .filter((f) => f.endsWith('.suite.mjs'))
  .map((f) => path.join('tls', f));

test('the SDK suites and the TLS suites pass over HTTPS', { timeout: 600_000 }, async () => {
  const cert = makeCertificate();
  try {
    /** @type {NodeJS.ProcessEnv} */
    const env = { ...process.env, AZQUEUE_E2E_TLS: cert.dir, NODE_EXTRA_CA_CERTS: cert.ca };
    // The child is a test run of its own, not a subtest stream of this one.
    delete env.NODE_TEST_CONTEXT;
    delete env.AZQUEUE_E2E; // the Node server: TLS is its feature
    const files = [...SDK_SUITES, ...TLS_SUITES].map((f) => path.join(HERE, f));
    const child = spawn(process.execPath, ['--test', '--test-reporter=tap', ...files], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    const code = await new Promise((resolve) => child.on('exit', resolve));
    const count = (/** @type {string} */ what) =>
      Number(new RegExp(`^# ${what} (\\d+)$`, 'm').exec(out)?.[1] ?? NaN);
    assert.equal(
      code,
      0,
      `child node --test failed:\n${out
        .split('\n')
        .filter((l) => /not ok|Error|expected|actual|fail/i.test(l))
        .slice(0, 60)
        .join('\n')}`,
    );
    assert.equal(count('fail'), 0);
    assert.ok(count('pass') >= 20, `only ${count('pass')} passed`);
    console.log(
      `over HTTPS: ${count('pass')} passed in ${[...SDK_SUITES, ...TLS_SUITES].join(', ')}`,
    );
  } finally {
    fs.rmSync(cert.dir, { recursive: true, force: true });
  }
});
