// One Durable Object per account (named `<account>`): the account's list of queues with their
// metadata, its service properties (CORS included) and stats. Like a queue object it runs a full
// QueueService on its own SQLite storage, so List Queues (prefix, marker, maxresults, metadata,
// sorted), Get/Set Service Properties, Get Service Stats and CORS preflights are answered by the
// same Rust REST code as on the Node server. Its queues hold no messages: each queue's truth is
// its own object, and the directory keeps a copy of the names and metadata.
//
// Create Queue, Delete Queue and Set Queue Metadata span two objects and cannot be atomic, so
// the copy converges instead:
//   1. the queue object, about to commit a change to its queue's record (so only for a request
//      it accepted), records an intent here (`intend`: a pending row, and an alarm), and only
//      then commits;
//   2. it answers the request once the commit is durable;
//   3. it reports its queue's state here (`apply`: exists, metadata, and a generation counting
//      its record's changes), which updates the copy (reports older than what was applied are
//      ignored) and drops the pending rows its commits recorded.
// A crash between the steps leaves a pending row. List Queues first asks the queue object of
// every pending row for its state, so it never shows a queue that cannot be used nor misses
// one that can; the alarm does the same for rows left behind, and then drops them. A request
// the queue object refuses commits nothing, so it writes nothing here either.

import { DurableObject } from 'cloudflare:workers';
import { ROUTE } from './forward.mjs';
import { openService, serveRest } from './serve.mjs';
import { SqliteStore } from './sqlite-store.mjs';
import { queueObjectName } from './route.mjs';

/** @import { CorsRule, QueueService } from '../../pkg/edge/azqueue.js' */
/** @import { Env } from './serve.mjs' */
/** @import { QueueState } from './queue-object.mjs' */

/**
 * The directory's open service and the storage under it; `account` is its name.
 * @typedef {{ service: QueueService, store: SqliteStore, account: string | undefined }}
 *   OpenedDirectory
 */

/** A pending row older than this is a leftover of a crash, not a request in flight. */
const STALE_MS = 30_000;

/** @extends {DurableObject<Env>} */
export class DirectoryObject extends DurableObject {
  /**
   * @param {DurableObjectState} ctx
   * @param {Env} env
   */
  constructor(ctx, env) {
    super(ctx, env);
    /** @type {Promise<OpenedDirectory> | null} */
    this.opened = null;
    // Applies run one at a time, so a report's generation check and its update are atomic.
    /** @type {Promise<unknown>} */
    this.serial = Promise.resolve();
  }

  /**
   * @param {string | undefined} account
   * @returns {Promise<OpenedDirectory>}
   */
  open(account) {
    this.opened ??= (async () => {
      const store = new SqliteStore(this.ctx.storage, { account });
      account ??= store.get('account') ?? undefined;
      const service = await openService(store, this.env, account);
      return { service, store, account };
    })();
    this.opened.catch(() => {
      this.opened = null;
    });
    return this.opened;
  }

  /** @param {Request} request */
  async fetch(request) {
    /** @type {{ account?: string }} set by the Worker (worker.mjs) */
    const { account } = JSON.parse(/** @type {string} */ (request.headers.get(ROUTE)));
    const opened = await this.open(account);
    if (isListQueues(request)) await this.repair(opened, 0);
    return serveRest(opened.service, request);
  }

  /**
   * RPC, step 1: records that `queue` may be about to change; returns the row's token.
   * @param {string | undefined} account
   * @param {string} queue
   * @returns {Promise<number>}
   */
  async intend(account, queue) {
    const opened = await this.open(account);
    this.tables(opened);
    const now = Date.now();
    /** @type {SqlStorageCursor<{ token: number }>} */
    const inserted = this.ctx.storage.sql.exec(
      'INSERT INTO azqueue_pending (queue, since) VALUES (?, ?) RETURNING token',
      queue,
      now,
    );
    const token = inserted.one().token;
    if ((await this.ctx.storage.getAlarm()) === null)
      await this.ctx.storage.setAlarm(now + STALE_MS);
    return token;
  }

  /**
   * RPC, step 3: applies a queue object's report and drops the pending rows `tokens` (those of
   * the commits the report covers).
   * @param {string | undefined} account
   * @param {string} queue
   * @param {QueueState} state
   * @param {number[]} tokens
   */
  async apply(account, queue, state, tokens) {
    const opened = await this.open(account);
    await this.exclusive(() => this.sync(opened, queue, state));
    for (const token of tokens)
      this.ctx.storage.sql.exec('DELETE FROM azqueue_pending WHERE token = ?', token);
  }

  /**
   * RPC: the account's CORS rules, for queue objects answering cross-origin requests.
   * @param {string | undefined} account
   * @returns {Promise<CorsRule[]>}
   */
  async corsRules(account) {
    const { service } = await this.open(account);
    return (await service.getProperties()).cors ?? [];
  }

  async alarm() {
    const opened = await this.open(undefined);
    await this.repair(opened, STALE_MS);
    /** @type {SqlStorageCursor<{ since: number | null }>} */
    const oldest = this.ctx.storage.sql.exec('SELECT min(since) AS since FROM azqueue_pending');
    const left = oldest.one().since;
    if (left !== null)
      await this.ctx.storage.setAlarm(Math.max(left + STALE_MS, Date.now() + 1000));
  }

  /**
   * Asks the queue object of every pending row for its state and applies it; drops the rows
   * older than `olderThanMs` (fresher ones may belong to a request still in flight, whose own
   * report will follow).
   * @param {OpenedDirectory} opened
   * @param {number} olderThanMs
   */
  async repair(opened, olderThanMs) {
    if (!this.hasTables()) return;
    /** @type {SqlStorageCursor<{ token: number, queue: string, since: number }>} */
    const pending = this.ctx.storage.sql.exec('SELECT token, queue, since FROM azqueue_pending');
    const rows = pending.toArray();
    const cutoff = Date.now() - olderThanMs;
    for (const queue of new Set(rows.map((r) => r.queue))) {
      const stub = this.env.QUEUE.get(
        this.env.QUEUE.idFromName(queueObjectName(opened.account, queue)),
      );
      const state = await stub.state(opened.account, queue);
      await this.exclusive(() => this.sync(opened, queue, state));
      for (const row of rows) {
        if (row.queue === queue && row.since <= cutoff && olderThanMs > 0) {
          this.ctx.storage.sql.exec('DELETE FROM azqueue_pending WHERE token = ?', row.token);
        }
      }
    }
  }

  /**
   * Makes the listed copy of `queue` match `state`, unless a newer report was applied already.
   * @param {OpenedDirectory} opened
   * @param {string} queue
   * @param {QueueState} state
   */
  async sync(opened, queue, state) {
    const { service } = opened;
    this.tables(opened);
    /** @type {SqlStorageCursor<{ generation: number }>} */
    const generations = this.ctx.storage.sql.exec(
      'SELECT generation FROM azqueue_generations WHERE queue = ?',
      queue,
    );
    const seen = generations.toArray()[0];
    if (seen && seen.generation > state.generation) return;
    let listed;
    try {
      listed = (await service.queue(queue).getProperties()).metadata;
    } catch (err) {
      const { code } = /** @type {{ code?: string }} */ (err);
      if (
        !['QueueNotFound', 'InvalidResourceName', 'OutOfRangeInput'].includes(
          /** @type {string} */ (code),
        )
      )
        throw err;
      listed = null;
    }
    if (state.exists && listed === null)
      await service.createQueue(queue, { metadata: state.metadata });
    else if (state.exists && !sameMetadata(listed, state.metadata))
      await service.queue(queue).setMetadata(state.metadata);
    else if (!state.exists && listed !== null) await service.deleteQueue(queue);
    this.ctx.storage.sql.exec(
      'INSERT OR REPLACE INTO azqueue_generations (queue, generation) VALUES (?, ?)',
      queue,
      state.generation,
    );
  }

  /**
   * @template T
   * @param {() => T | PromiseLike<T>} fn
   * @returns {Promise<T>}
   */
  exclusive(fn) {
    const run = this.serial.then(fn);
    this.serial = run.catch(() => {});
    return run;
  }

  /** @param {OpenedDirectory} opened */
  tables({ store }) {
    if (this.hasTables()) return;
    store.ensure();
    this.ctx.storage.sql.exec(
      'CREATE TABLE IF NOT EXISTS azqueue_pending (token INTEGER PRIMARY KEY AUTOINCREMENT, queue TEXT NOT NULL, since INTEGER NOT NULL)',
    );
    this.ctx.storage.sql.exec(
      'CREATE TABLE IF NOT EXISTS azqueue_generations (queue TEXT PRIMARY KEY, generation INTEGER NOT NULL)',
    );
    this.tablesReady = true;
  }

  hasTables() {
    this.tablesReady ??=
      this.ctx.storage.sql
        .exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'azqueue_pending'")
        .toArray().length > 0;
    return this.tablesReady;
  }
}

/** @param {Request} request */
function isListQueues(request) {
  const url = new URL(request.url);
  return request.method === 'GET' && url.searchParams.get('comp') === 'list';
}

/**
 * @param {Record<string, string> | null | undefined} a
 * @param {Record<string, string> | null | undefined} b
 */
function sameMetadata(a, b) {
  const norm = (/** @type {Record<string, string> | null | undefined} */ m) =>
    JSON.stringify(Object.entries(m ?? {}).sort());
  return norm(a) === norm(b);
}
