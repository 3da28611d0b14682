// The edge Worker with a floor beside it, for scripts/bench-edge.mjs: every azqueue request goes to
// hosts/edge/worker.mjs unchanged, and `POST /_floor/<name>` goes to FloorObject, a bare
// SQLite-backed Durable Object that inserts the request's body as one row and answers 201. Both
// run in the same workerd, behind the same Worker-to-object hop, so CPU per Put can be compared
// with the least any Durable Object pays to store one message.

import { DurableObject } from 'cloudflare:workers';
import azqueue from '../../hosts/edge/worker.mjs';

export { QueueObject, DirectoryObject } from '../../hosts/edge/worker.mjs';

const FLOOR = '/_floor/';

export class FloorObject extends DurableObject {
  /**
   * @param {DurableObjectState} ctx
   * @param {unknown} env
   */
  constructor(ctx, env) {
    super(ctx, env);
    ctx.storage.sql.exec(
      'CREATE TABLE IF NOT EXISTS messages (seq INTEGER PRIMARY KEY, body TEXT NOT NULL)',
    );
  }

  /** @param {Request} request */
  async fetch(request) {
    this.ctx.storage.sql.exec('INSERT INTO messages (body) VALUES (?)', await request.text());
    return new Response(null, { status: 201 });
  }
}

export default {
  /**
   * @param {Request} request
   * @param {import('../../hosts/edge/serve.mjs').Env & { FLOOR: DurableObjectNamespace }} env
   */
  fetch(request, env) {
    const { pathname } = new URL(request.url);
    if (!pathname.startsWith(FLOOR)) return azqueue.fetch(request, env);
    return env.FLOOR.get(env.FLOOR.idFromName(pathname.slice(FLOOR.length))).fetch(request);
  },
};
