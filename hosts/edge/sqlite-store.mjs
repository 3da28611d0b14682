// azqueue's JS storage adapter (`{ load(), commit(batch) }`, src/wasm/adapter.rs) over a Durable
// Object's SQLite storage (`ctx.storage`), the SQL a queue's messages are kept in
// (`QueueService.open({ sql })`, src/wasm/sql_host.rs), and the object's own bookkeeping table.
//
// Layout (LAYOUT_VERSION 2):
//   azqueue_records(key TEXT PRIMARY KEY, value TEXT)   one row per azqueue record other than a
//       message (queue, service properties, meta): the adapter's opaque keys and JSON values;
//   "azqueue_messages/<account>/<queue>"                 the queue's messages, one row each, with
//       indexes on (visible, seq) and (expires, seq), and azqueue_tables(name, messages, bytes,
//       next_seq) with its kept counts: the engine's SqlTable (src/store/sql/) owns
//       them, but a deleted queue's table is dropped here, where its record is deleted, in the
//       same transaction (`dropQueueTable`);
//   azqueue_edge(name TEXT PRIMARY KEY, value TEXT)     this file's own values: `layout` (the
//       version below), and whatever the object keeps beside the engine (a queue's listing
//       `generation`, a directory's account name).
// Layout 1 kept messages as azqueue_records rows (`message/<account>/<queue>/<id>`) and loaded
// them all into the engine; `upgrade` moves them into their table, in bounded steps.
//
// Durability: every commit, every REST request's SQL and every upgrade step is one
// `transactionSync`. Workers hold an object's outgoing messages (its HTTP answers included)
// until the writes before them are confirmed (the output gate), so nothing is acknowledged
// before it is durable.

import { dropQueueTable, importLegacyMessages } from './wasm.mjs';

/** @import { SqlHost, StorageAdapter, StorageOp } from '../../pkg/edge/azqueue.js' */

/** The table layout this build writes and the newest it reads. */
export const LAYOUT_VERSION = 2;
/** Layout-1 message rows moved per upgrade step (one transaction each). */
export const UPGRADE_STEP = 1000;

const MESSAGE_PREFIX = 'message/';
/** The first key after every `message/…` key ('0' follows '/'). */
const AFTER_MESSAGES = 'message0';
const QUEUE_PREFIX = 'queue/';
/** The bookkeeping value counting the commits that changed a queue record (see `commit`). */
export const GENERATION = 'generation';
const SCHEMA_KEY = 'meta/schema';

/** Thrown when the object was written by a newer build: refuse rather than misread it. */
export class LayoutTooNew extends Error {}

export class SqliteStore {
  /**
   * @param {DurableObjectStorage} storage
   * @param {Record<string, string | undefined>} identity values written with the first write
   *   (the object's own name, which an alarm needs and no request tells it).
   * @param {{ beforeQueueChange?: () => Promise<unknown> }} [hooks] `beforeQueueChange` is
   *   awaited before writing a batch that changes a queue record (create, delete, metadata,
   *   ACL); what it resolves to is kept, once that batch is written, for `takeQueueChanges`.
   *   With it, such a batch also adds one to the `generation` value, in the same transaction.
   */
  constructor(storage, identity = {}, hooks = {}) {
    this.storage = storage;
    this.sql = storage.sql;
    this.identity = identity;
    this.beforeQueueChange = hooks.beforeQueueChange;
    /**
     * What `beforeQueueChange` gave for batches written since the last `takeQueueChanges`.
     * @type {unknown[]}
     */
    this.queueChanges = [];
    // Nothing is created until something is written: an object addressed only for answers
    // such as 404 QueueNotFound keeps no storage at all.
    const tables =
      this.sql
        .exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'azqueue_edge'")
        .toArray().length > 0;
    const found = tables
      ? (this.sql.exec("SELECT value FROM azqueue_edge WHERE name = 'layout'").toArray()[0]
          ?.value ?? null)
      : null;
    // Stored without a layout row (before the row existed) or by layout 1: its messages are
    // moved into their table by `upgrade`, and the object is marked on the next write.
    this.ready = found !== null && Number(found) >= LAYOUT_VERSION;
    if (found !== null && Number(found) > LAYOUT_VERSION) {
      throw new LayoutTooNew(
        `this object's storage layout is version ${found}; this build reads up to ${LAYOUT_VERSION}`,
      );
    }
    /**
     * The schema record of a store nobody has written to yet, held until a real write.
     * @type {StorageOp | null}
     */
    this.heldSchema = null;
    /** SQLite transactions written since the object started (each one flush to disk). */
    this.transactions = 0;
  }

  /** @param {string} name */
  hasTable(name) {
    return (
      this.sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", name).toArray()
        .length > 0
    );
  }

  /** Creates the tables and writes the layout version and identity, once. */
  ensure() {
    if (this.ready) return;
    this.storage.transactionSync(() => {
      this.sql.exec(
        'CREATE TABLE IF NOT EXISTS azqueue_edge (name TEXT PRIMARY KEY, value TEXT NOT NULL)',
      );
      this.sql.exec(
        'CREATE TABLE IF NOT EXISTS azqueue_records (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID',
      );
      this.sql.exec(
        'INSERT OR REPLACE INTO azqueue_edge (name, value) VALUES (?, ?)',
        'layout',
        String(LAYOUT_VERSION),
      );
      for (const [name, value] of Object.entries(this.identity)) {
        if (value !== undefined)
          this.sql.exec(
            'INSERT OR REPLACE INTO azqueue_edge (name, value) VALUES (?, ?)',
            name,
            value,
          );
      }
    });
    this.ready = true;
  }

  /**
   * A value of the bookkeeping table, or null.
   * @param {string} name
   * @returns {string | null}
   */
  get(name) {
    if (!this.ready && !this.hasTable('azqueue_edge')) return null;
    /** @type {SqlStorageCursor<{ value: string }>} */
    const values = this.sql.exec('SELECT value FROM azqueue_edge WHERE name = ?', name);
    const row = values.toArray()[0];
    return row ? row.value : null;
  }

  /**
   * @param {string} name
   * @param {string} value
   */
  set(name, value) {
    this.ensure();
    this.sql.exec('INSERT OR REPLACE INTO azqueue_edge (name, value) VALUES (?, ?)', name, value);
  }

  /**
   * The SQL the engine keeps messages in (`QueueService.open({ sql })`).
   * @returns {SqlHost}
   */
  sqlHost() {
    return {
      exec: (sql, params) => Array.from(this.sql.exec(sql, ...params).raw()),
      transaction: (run) => this.storage.transactionSync(run),
    };
  }

  /**
   * Moves the messages of an object written by layout 1 (azqueue_records rows) into their
   * tables, UPGRADE_STEP rows per transaction: each step inserts its messages and deletes
   * their rows together, so a crash between steps leaves every message in exactly one place
   * and the next load goes on from there. Resolves to how many it moved.
   *
   * Each step is waited on (`sync`) before the next: a Durable Object commits the writes of
   * one turn of its event loop together, so steps run without a wait between them would be
   * one transaction of any size, not bounded ones. Then a timer lets workerd's event loop poll:
   * its HTTP server closes a keep-alive connection idle for 5 s by the loop's clock, which
   * moves only when the loop polls, so a conversion that never let it (seconds of steps) left
   * that clock behind, and the connection the request came on was closed as its client sent
   * the next request (ECONNRESET).
   * @param {number} [step] rows per transaction
   */
  async upgrade(step = UPGRADE_STEP) {
    if (this.ready || !this.hasTable('azqueue_records')) return 0;
    const exec = this.sqlHost().exec;
    let moved = 0;
    for (;;) {
      const movedNow = this.storage.transactionSync(() => {
        /** @type {SqlStorageCursor<{ key: string, value: string }>} */
        const cursor = this.sql.exec(
          'SELECT key, value FROM azqueue_records WHERE key >= ? AND key < ? ORDER BY key LIMIT ?',
          MESSAGE_PREFIX,
          AFTER_MESSAGES,
          step,
        );
        const rows = cursor.toArray();
        if (rows.length === 0) return 0;
        importLegacyMessages(
          exec,
          rows.map((r) => r.value),
        );
        this.sql.exec(
          'DELETE FROM azqueue_records WHERE key >= ? AND key <= ?',
          MESSAGE_PREFIX,
          rows[rows.length - 1].key,
        );
        return rows.length;
      });
      if (movedNow === 0) break;
      moved += movedNow;
      await this.storage.sync();
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    this.ready = false; // marked with this layout by `ensure`, now that no message row is left
    this.ensure();
    return moved;
  }

  /** True when no azqueue record has been written. */
  empty() {
    return (
      !this.hasTable('azqueue_records') ||
      this.sql.exec('SELECT 1 FROM azqueue_records LIMIT 1').toArray().length === 0
    );
  }

  /**
   * The storage adapter handed to `QueueService.open({ store })`.
   * @returns {StorageAdapter}
   */
  adapter() {
    return {
      // A generator over the SQL cursor: rows reach the engine one at a time, so a load holds
      // the decoded queue and never a second copy of every record in JS.
      load: () => this.rows(),
      commit: (batch) => this.commit(batch),
    };
  }

  *rows() {
    if (!this.hasTable('azqueue_records')) return;
    // A queue object holds no message records once `upgrade` has run (its messages are in their
    // table, which the engine reads itself); as a plain storage adapter (the contract suite)
    // this store keeps and loads every record it is given.
    /** @type {SqlStorageCursor<{ key: string, value: string }>} */
    const records = this.sql.exec('SELECT key, value FROM azqueue_records');
    yield* records;
  }

  /** Messages kept in this object's tables (`azqueue_tables`, kept by the engine), and their bytes. */
  messageTotals() {
    if (!this.hasTable('azqueue_tables')) return { messages: 0, bytes: 0 };
    /** @type {SqlStorageCursor<{ messages: number, bytes: number }>} */
    const totals = this.sql.exec(
      'SELECT coalesce(sum(messages), 0) AS messages, coalesce(sum(bytes), 0) AS bytes FROM azqueue_tables',
    );
    return totals.one();
  }

  /** @param {StorageOp[]} batch */
  commit(batch) {
    // Writing waits for the event loop to turn once: the requests already waiting are served
    // (their changes pile up behind this commit), so under load one SQLite commit, and the
    // one flush to disk that holds their answers, carries many requests' changes.
    return new Promise((resolve) => setTimeout(resolve, 0)).then(async () => {
      // The engine commits one batch at a time, so nothing is written while this one waits.
      if (this.beforeQueueChange && batch.some(changesQueueRecord)) {
        const hooked = await this.beforeQueueChange();
        this.write(batch, true);
        this.queueChanges.push(hooked);
      } else {
        this.write(batch, false);
      }
    });
  }

  /** What `beforeQueueChange` gave for the queue-record batches written since the last call. */
  takeQueueChanges() {
    const taken = this.queueChanges;
    this.queueChanges = [];
    return taken;
  }

  /**
   * @param {StorageOp[]} batch
   * @param {boolean} counted whether the batch adds one to the `generation` value
   */
  write(batch, counted) {
    // The first thing an empty store is told is its schema version; writing that alone would
    // give every object ever addressed (a 404 for a queue that does not exist) a stored row.
    if (
      batch.length === 1 &&
      batch[0].op === 'put' &&
      batch[0].key === SCHEMA_KEY &&
      this.empty()
    ) {
      this.heldSchema = batch[0];
      return;
    }
    if (this.heldSchema) batch = [this.heldSchema, ...batch];
    this.ensure();
    this.storage.transactionSync(() => {
      for (const op of batch) this.apply(op);
      if (counted) {
        this.sql.exec(
          "INSERT INTO azqueue_edge (name, value) VALUES (?, '1') ON CONFLICT (name) DO UPDATE SET value = CAST(value AS INTEGER) + 1",
          GENERATION,
        );
      }
    });
    this.transactions += 1;
    this.heldSchema = null;
  }

  /** @param {StorageOp} op */
  apply(op) {
    switch (op.op) {
      case 'put': {
        this.sql.exec(
          'INSERT OR REPLACE INTO azqueue_records (key, value) VALUES (?, ?)',
          op.key,
          op.value,
        );
        break;
      }
      case 'delete': {
        this.sql.exec('DELETE FROM azqueue_records WHERE key = ?', op.key);
        // A deleted queue's messages go with its record, in this transaction: the engine
        // leaves its table to this (Delete Queue's own statements ran earlier, before the
        // directory heard of the change), so a failure in between changes nothing.
        if (op.key.startsWith(QUEUE_PREFIX)) dropQueueTable(this.sqlHost().exec, op.key);
        break;
      }
      case 'deletePrefix': {
        // Keys are ASCII, so every key with the prefix sorts before prefix + U+FFFF.
        const range = [op.prefix, `${op.prefix}\uffff`];
        this.sql.exec('DELETE FROM azqueue_records WHERE key >= ? AND key < ?', ...range);
        break;
      }
      case 'clear':
        this.sql.exec('DELETE FROM azqueue_records');
        break;
      default:
        throw new Error(
          `unknown storage operation ${JSON.stringify(/** @type {{ op: unknown }} */ (op).op)}`,
        );
    }
  }
}

/**
 * Whether a storage operation changes a queue record (its existence, metadata or ACL).
 * @param {StorageOp} op
 */
function changesQueueRecord(op) {
  if (op.op === 'clear') return true;
  const key = op.op === 'deletePrefix' ? op.prefix : op.key;
  return key.startsWith(QUEUE_PREFIX) || QUEUE_PREFIX.startsWith(key);
}
