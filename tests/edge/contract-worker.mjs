// A Worker for tests/edge/contract.test.mjs: one SQLite-backed Durable Object that runs azqueue's
// store contract suite (checkStorageAdapter) against the edge's SQLite adapter, inside workerd.

import { DurableObject } from 'cloudflare:workers';
import { checkStorageAdapter } from '../../hosts/edge/wasm.mjs';
import { SqliteStore } from '../../hosts/edge/sqlite-store.mjs';

export class ContractObject extends DurableObject {
  async fetch() {
    // Every check gets a fresh, empty store: the same object's storage with its tables dropped.
    const fresh = () => {
      for (const table of ['azqueue_records', 'azqueue_edge'])
        this.ctx.storage.sql.exec(`DROP TABLE IF EXISTS ${table}`);
      return new SqliteStore(this.ctx.storage).adapter();
    };
    try {
      await checkStorageAdapter(fresh);
      return new Response('passed');
    } catch (err) {
      return new Response(String(/** @type {any} */ (err)?.message ?? err), { status: 500 });
    }
  }
}

export default {
  /**
   * @param {Request} request
   * @param {{ CONTRACT: DurableObjectNamespace<ContractObject> }} env
   */
  fetch(request, env) {
    return env.CONTRACT.get(env.CONTRACT.idFromName('contract')).fetch(request);
  },
};
