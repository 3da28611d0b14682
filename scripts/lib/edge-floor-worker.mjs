// The edge Worker with a floor beside it, for scripts/bench/edge.mjs: every azqueue request goes to
// hosts/edge/worker.mjs unchanged, and `POST /_floor/<name>` goes to FloorObject, a bare
// SQLite-backed Durable Object that inserts the request's body as one row and answers 201. Both
// run in the same workerd, behind the same Worker-to-object hop, so CPU per Put can be compared
// with the least any Durable Object pays to store one message. `POST /_floor-table/<name>` goes
// to TableFloorObject, which stores the body as azqueue stores a message (its table, indexes and
// the trigger that keeps its counts), so the gap splits into what azqueue's storage costs and
// what the rest of its Put (the REST request, its answer, the Worker's routing) does.

import { DurableObject } from 'cloudflare:workers';
import azqueue from '../../hosts/edge/worker.mjs';

export { QueueObject, DirectoryObject } from '../../hosts/edge/worker.mjs';

const FLOOR = '/_floor/';
const TABLE_FLOOR = '/_floor-table/';

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

/**
 * A message stored as src/store/sql/table.rs stores one in a Put: one INSERT of a row of the
 * queue's table (with the unique id and the visible and expires indexes), whose trigger adds it
 * to the table's kept counts; answered 201 with no body.
 */
export class TableFloorObject extends DurableObject {
  /**
   * @param {DurableObjectState} ctx
   * @param {unknown} env
   */
  constructor(ctx, env) {
    super(ctx, env);
    const { sql } = ctx.storage;
    sql.exec(
      'CREATE TABLE IF NOT EXISTS messages (seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, ' +
        'text TEXT NOT NULL, bytes INTEGER NOT NULL, inserted INTEGER NOT NULL, ' +
        'expires INTEGER NOT NULL, visible INTEGER NOT NULL, dequeues INTEGER NOT NULL, ' +
        'receipt TEXT NOT NULL)',
    );
    sql.exec('CREATE INDEX IF NOT EXISTS "messages/visible" ON messages (visible)');
    sql.exec('CREATE INDEX IF NOT EXISTS "messages/expires" ON messages (expires)');
    sql.exec(
      'CREATE TABLE IF NOT EXISTS tables (name TEXT PRIMARY KEY, messages INTEGER NOT NULL, ' +
        'bytes INTEGER NOT NULL, next_seq INTEGER NOT NULL)',
    );
    sql.exec("INSERT OR IGNORE INTO tables VALUES ('messages', 0, 0, 0)");
    sql.exec(
      'CREATE TRIGGER IF NOT EXISTS "messages/counted" AFTER INSERT ON messages BEGIN ' +
        'UPDATE tables SET messages = messages + 1, bytes = bytes + NEW.bytes + 512, ' +
        "next_seq = max(next_seq, NEW.seq + 1) WHERE name = 'messages'; END",
    );
    // The kept counts, read once as the engine's table reads them when it opens.
    const [[messages, bytes, next]] = /** @type {number[][]} */ (
      Array.from(
        sql.exec("SELECT messages, bytes, next_seq FROM tables WHERE name = 'messages'").raw(),
      )
    );
    this.kept = { messages, bytes, next };
  }

  /** @param {Request} request */
  async fetch(request) {
    const text = await request.text();
    const { storage } = this.ctx;
    const now = Date.now();
    const { kept } = this;
    const seq = kept.next;
    storage.sql.exec(
      'INSERT INTO messages (seq, id, text, bytes, inserted, expires, visible, dequeues, receipt) ' +
        'VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      seq,
      crypto.randomUUID(),
      text,
      text.length,
      now,
      now + 7 * 86_400_000,
      now,
      0,
      'AgAAAAMAAAAAAAAA',
    );
    kept.messages += 1;
    kept.bytes += text.length;
    kept.next = seq + 1;
    return new Response(null, { status: 201 });
  }
}

export default {
  /**
   * @param {Request} request
   * @param {import('../../hosts/edge/serve.mjs').Env & { FLOOR: DurableObjectNamespace,
   *   TABLE_FLOOR: DurableObjectNamespace }} env
   */
  fetch(request, env) {
    const { pathname } = new URL(request.url);
    if (pathname.startsWith(TABLE_FLOOR)) {
      const name = pathname.slice(TABLE_FLOOR.length);
      return env.TABLE_FLOOR.get(env.TABLE_FLOOR.idFromName(name)).fetch(request);
    }
    if (!pathname.startsWith(FLOOR)) return azqueue.fetch(request, env);
    return env.FLOOR.get(env.FLOOR.idFromName(pathname.slice(FLOOR.length))).fetch(request);
  },
};
