// Installs fake-indexeddb (npm, package.json's devDependencies) as this Node process's
// `indexedDB`, `IDBKeyRange` and the other IndexedDB globals, for `tests/wasm_node_idb.rs`.
// wasm-bindgen's test runner runs the test from a temporary directory, where no node_modules is
// found, so the package is resolved from the crate's directory, which the test passes in.
import { createRequire } from 'node:module';

/** Installs the globals once; true when they are fake-indexeddb's. */
export function installFakeIndexedDb(/** @type {string} */ crateDir) {
  const require = createRequire(`${crateDir}/package.json`);
  require('fake-indexeddb/auto');
  return Reflect.get(globalThis, 'indexedDB') === require('fake-indexeddb').indexedDB;
}
