// The Worker as miniflare runs it: the same modules, bindings and SQLite-backed object classes
// that wrangler.jsonc declares for `wrangler deploy`. Shared by dev.mjs and the tests that
// start workerd themselves.

import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The repository (or the installed package): the Worker imports the build output beside hosts/.
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Miniflare options for the edge Worker: `accounts` (an AZURITE_ACCOUNTS string or undefined),
 * `persist` (the directory of the objects' SQLite files), `bindings` (more variables).
 * @param {{ accounts?: string, persist?: string, bindings?: Record<string, string>, scriptPath?: string }} options
 */
export function workerOptions({
  accounts,
  persist,
  bindings = {},
  scriptPath = path.join(ROOT, 'hosts', 'edge', 'worker.mjs'),
}) {
  return {
    modules: true,
    scriptPath,
    modulesRoot: ROOT,
    // wasm-bindgen's glue is ESM in a `.js` file, which miniflare would take for CommonJS.
    modulesRules: [
      { type: 'ESModule', include: ['**/*.js', '**/*.mjs'] },
      { type: 'CompiledWasm', include: ['**/*.wasm'] },
    ],
    compatibilityDate: '2025-07-01',
    durableObjects: {
      QUEUE: { className: 'QueueObject', useSQLite: true },
      DIRECTORY: { className: 'DirectoryObject', useSQLite: true },
    },
    durableObjectsPersist: persist,
    bindings: { ...(accounts ? { AZURITE_ACCOUNTS: accounts } : {}), ...bindings },
  };
}
