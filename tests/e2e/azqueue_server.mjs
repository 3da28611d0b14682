// The e2e suites' helpers: the shared launcher and signer (scripts/lib/, which benchmarks and
// the soak use too) and the assertions and names only tests need.
// Not a test file itself (the name matches none of node --test's patterns).

export {
  ROOT,
  SERVER,
  EDGE,
  TARGET,
  runServer,
  startServer,
} from '../../scripts/lib/azqueue-server.mjs';
export { API_VERSION, DEV_ACCOUNT, DEV_KEY, sharedKey } from '../../scripts/lib/shared-key.mjs';

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
