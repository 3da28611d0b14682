// azqueue's JS storage adapter (`{ load(), commit(batch) }`, src/wasm/adapter.rs) over a Durable
// Object's SQLite storage (`ctx.storage`), plus the object's own small bookkeeping table.
//
// Layout (LAYOUT_VERSION 1):
//   azqueue_records(key TEXT PRIMARY KEY, value TEXT)   one row per azqueue record (queue,
//       message, service properties, meta): the adapter's opaque keys and JSON values, so a
//       change costs the rows it touches;
//   azqueue_edge(name TEXT PRIMARY KEY, value TEXT)     this file's own values: `layout` (the
//       version below), and whatever the object keeps beside the engine (a queue's listing
//       `generation`, a directory's account name).
//
// Durability: every commit is one `transactionSync`. Workers hold an object's outgoing
// messages (its HTTP answers included) until the writes before them are confirmed (the output
// gate), so nothing is acknowledged before it is durable. The queue object also tracks the bytes
// of message values it holds, which bounds what its engine keeps in memory (docs/edge.md, "Memory").

/** @import { StorageAdapter, StorageOp } from '../../pkg/web/azqueue.js' */

/** The table layout this build writes and the newest it reads. */
export const LAYOUT_VERSION = 1;

const MESSAGE_PREFIX = 'message/';
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
    // Stored without a layout row (before the row existed): read as is, marked on the next write.
    this.ready = found !== null;
    if (found !== null && Number(found) > LAYOUT_VERSION) {
      throw new LayoutTooNew(
        `this object's storage layout is version ${found}; this build reads up to ${LAYOUT_VERSION}`,
      );
    }
    /** Bytes of message values held (the engine's share of this object's memory). */
    this.messageBytes = 0;
    this.messageCount = 0;
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
    let bytes = 0;
    let count = 0;
    if (!this.hasTable('azqueue_records')) return;
    /** @type {SqlStorageCursor<{ key: string, value: string }>} */
    const records = this.sql.exec('SELECT key, value FROM azqueue_records');
    for (const row of records) {
      if (row.key.startsWith(MESSAGE_PREFIX)) {
        bytes += row.value.length;
        count += 1;
      }
      yield row;
    }
    this.messageBytes = bytes;
    this.messageCount = count;
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
        if (op.key.startsWith(MESSAGE_PREFIX)) {
          const old = this.valueLength(op.key);
          this.messageBytes += op.value.length - (old ?? 0);
          if (old === null) this.messageCount += 1;
        }
        this.sql.exec(
          'INSERT OR REPLACE INTO azqueue_records (key, value) VALUES (?, ?)',
          op.key,
          op.value,
        );
        break;
      }
      case 'delete': {
        if (op.key.startsWith(MESSAGE_PREFIX)) {
          const old = this.valueLength(op.key);
          if (old !== null) {
            this.messageBytes -= old;
            this.messageCount -= 1;
          }
        }
        this.sql.exec('DELETE FROM azqueue_records WHERE key = ?', op.key);
        break;
      }
      case 'deletePrefix': {
        // Keys are ASCII, so every key with the prefix sorts before prefix + U+FFFF.
        const range = [op.prefix, `${op.prefix}\uffff`];
        /** @type {SqlStorageCursor<{ n: number, bytes: number }>} */
        const counted = this.sql.exec(
          'SELECT count(*) AS n, coalesce(sum(length(value)), 0) AS bytes FROM azqueue_records WHERE key >= ? AND key < ?',
          ...range,
        );
        const gone = counted.one();
        if (op.prefix.startsWith(MESSAGE_PREFIX)) {
          this.messageBytes -= gone.bytes;
          this.messageCount -= gone.n;
        }
        this.sql.exec('DELETE FROM azqueue_records WHERE key >= ? AND key < ?', ...range);
        break;
      }
      case 'clear':
        this.sql.exec('DELETE FROM azqueue_records');
        this.messageBytes = 0;
        this.messageCount = 0;
        break;
      default:
        throw new Error(
          `unknown storage operation ${JSON.stringify(/** @type {{ op: unknown }} */ (op).op)}`,
        );
    }
  }

  /** The length of `key`'s value, null when there is no such record. @param {string} key */
  valueLength(key) {
    /** @type {SqlStorageCursor<{ n: number }>} */
    const lengths = this.sql.exec(
      'SELECT length(value) AS n FROM azqueue_records WHERE key = ?',
      key,
    );
    const row = lengths.toArray()[0];
    return row ? row.n : null;
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
