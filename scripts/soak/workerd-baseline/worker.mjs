// The control for the edge soak's memory figures: a Worker with no azqueue in it, whose Durable
// Objects each keep a rolling window of 300 rows in SQLite, one insert (and one delete) per
// request, so workerd's own memory under a stream of object requests can be read beside azqueue's.

import { DurableObject } from 'cloudflare:workers';

const WINDOW = 300;

/** @typedef {{ ROWS: DurableObjectNamespace<Rows> }} Env */

/** @extends {DurableObject<Env>} */
export class Rows extends DurableObject {
  /**
   * @param {DurableObjectState} ctx
   * @param {Env} env
   */
  constructor(ctx, env) {
    super(ctx, env);
    ctx.storage.sql.exec('CREATE TABLE IF NOT EXISTS rows (key INTEGER PRIMARY KEY, value BLOB)');
    this.next = 0;
  }

  /** @param {Request} request */
  async fetch(request) {
    const body = new Uint8Array(await request.arrayBuffer());
    const key = this.next++;
    this.ctx.storage.sql.exec('INSERT OR REPLACE INTO rows (key, value) VALUES (?, ?)', key, body);
    this.ctx.storage.sql.exec('DELETE FROM rows WHERE key = ?', key - WINDOW);
    return new Response(`<Row>${key}</Row>`, { headers: { 'content-type': 'application/xml' } });
  }
}

export default {
  /**
   * @param {Request} request
   * @param {Env} env
   */
  async fetch(request, env) {
    const name = new URL(request.url).pathname.split('/')[1] || 'a';
    const forwarded = new Request(request.url, {
      method: 'PUT',
      headers: request.headers,
      body: request.body,
    });
    return env.ROWS.get(env.ROWS.idFromName(name)).fetch(forwarded);
  },
};
