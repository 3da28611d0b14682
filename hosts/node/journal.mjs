// The Node journal: durable storage for `node www/server.mjs --location DIR`, as a storage
// adapter (`{ load, commit }`) that `QueueService.open({ store: journal })` drives. Glue only:
// it stores opaque keys and values and never interprets a record.
//
// Files in DIR:
//   journal.azq   append-only; one frame per committed batch
//   snapshot.azq  every record at the last compaction (one frame, replaced atomically)
//   azqueue.lock  the pid of the process using DIR (one writer per directory)
//
// A frame is `magic "AZQJ" | u32 length | u32 CRC-32 of the payload | payload (UTF-8 JSON)`,
// little-endian. A journal frame's payload is `{ g, ops }`: the snapshot generation it applies
// on top of, and the batch. `commit` appends one frame, fsyncs it, and only then resolves, so
// the service answers only after the batch is on disk.
//
// Reading back: frames are replayed in order. A crash can only tear the last append, so an
// incomplete or failing final frame is dropped (and cut off before the next append) — never
// misread. A bad frame *followed by* a valid one is corruption, not a crash: the journal
// refuses to open rather than guess.
//
// Compaction keeps the journal from growing without bound: when it outgrows the live data (and
// `compactBytes`), every record is written to snapshot.azq.tmp, fsynced, renamed over
// snapshot.azq (the directory fsynced), and the journal truncated. The new snapshot carries
// the next generation, so if the process dies between the rename and the truncation, the
// old journal's frames (older generation) are skipped.

import fsp from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';

/** @import { FileHandle } from 'node:fs/promises' */
/** @import { StorageOp } from '../../pkg/node/azqueue.js' */

const MAGIC = Buffer.from('AZQJ', 'latin1');
const HEADER = 12;
const SNAPSHOT_FORMAT = 'azqueue-journal-snapshot';
const SNAPSHOT_VERSION = 1;

/** The directory holds data this code will not read (bad frame mid-file, newer format). */
export class JournalCorrupt extends Error {
  name = 'JournalCorrupt';
}

/** Another process (or another Journal in this one) is using the directory. */
export class JournalLocked extends Error {
  name = 'JournalLocked';
}

/**
 * Directories opened by a Journal of this process (pid files cannot tell those apart).
 * @type {Set<string>}
 */
const openHere = new Set();

/**
 * One frame around `payload` (a Buffer).
 * @param {Buffer} payload
 */
export function frame(payload) {
  const out = Buffer.allocUnsafe(HEADER + payload.length);
  MAGIC.copy(out, 0);
  out.writeUInt32LE(payload.length, 4);
  out.writeUInt32LE(zlib.crc32(payload), 8);
  payload.copy(out, HEADER);
  return out;
}

/**
 * The frame at `offset`, or null if there is no complete, valid one there.
 * @param {Buffer} buf
 * @param {number} offset
 */
function frameAt(buf, offset) {
  if (buf.length - offset < HEADER || !buf.subarray(offset, offset + 4).equals(MAGIC)) return null;
  const length = buf.readUInt32LE(offset + 4);
  const end = offset + HEADER + length;
  if (end > buf.length) return null;
  const payload = buf.subarray(offset + HEADER, end);
  if (zlib.crc32(payload) !== buf.readUInt32LE(offset + 8)) return null;
  return { payload, end };
}

/**
 * Splits a journal into its valid frames. Returns `{ payloads, end, torn }`: `end` is where the
 * valid prefix stops; `torn` describes what was after it, if anything. Throws JournalCorrupt if
 * a valid frame follows an invalid one.
 * @param {Buffer} buf
 * @returns {{ payloads: Buffer[], end: number, torn: string | null }}
 */
export function readFrames(buf) {
  const payloads = [];
  let offset = 0;
  while (offset < buf.length) {
    const f = frameAt(buf, offset);
    if (!f) {
      // Is anything valid after this point? Then it is not a torn final append.
      for (let at = buf.indexOf(MAGIC, offset + 1); at !== -1; at = buf.indexOf(MAGIC, at + 1)) {
        if (frameAt(buf, at)) {
          throw new JournalCorrupt(
            `journal frame at byte ${offset} is damaged but a valid frame follows at byte ${at}: not a crash tear; refusing to guess`,
          );
        }
      }
      return {
        payloads,
        end: offset,
        torn: `${buf.length - offset} bytes of an incomplete or damaged final frame`,
      };
    }
    payloads.push(f.payload);
    offset = f.end;
  }
  return { payloads, end: offset, torn: null };
}

/**
 * A snapshot's payload: a JSON header line, then keys and values on alternate lines — far
 * quicker to read back than one JSON document (no escaping). A store whose keys or values
 * contain line feeds (not azqueue's: its keys are escaped and its values are JSON) is written
 * as JSON instead (`lines: false`).
 * @param {number} gen
 * @param {Map<string, string>} records
 */
function encodeSnapshot(gen, records) {
  let lines = true;
  for (const [k, v] of records) {
    if (k.includes('\n') || v.includes('\n')) {
      lines = false;
      break;
    }
  }
  const header = {
    format: SNAPSHOT_FORMAT,
    version: SNAPSHOT_VERSION,
    gen,
    count: records.size,
    lines,
  };
  if (!lines) return JSON.stringify({ ...header, records: [...records] });
  const parts = [JSON.stringify(header)];
  for (const [k, v] of records) parts.push(k, v);
  return parts.join('\n');
}

/**
 * @param {string} text
 * @param {string} file
 * @returns {{ gen: number, records: Map<string, string> }}
 */
function decodeSnapshot(text, file) {
  const nl = text.indexOf('\n');
  const header = JSON.parse(nl === -1 ? text : text.slice(0, nl));
  if (header.format !== SNAPSHOT_FORMAT || !(header.version <= SNAPSHOT_VERSION)) {
    throw new JournalCorrupt(
      `${file} has format ${header.format} v${header.version}, which this build does not read`,
    );
  }
  if (!header.lines) return { gen: header.gen, records: new Map(header.records) };
  /** @type {Map<string, string>} */
  const records = new Map();
  const parts = nl === -1 ? [] : text.slice(nl + 1).split('\n');
  for (let i = 0; i + 1 < parts.length; i += 2) records.set(parts[i], parts[i + 1]);
  if (records.size !== header.count) {
    throw new JournalCorrupt(
      `${file} holds ${records.size} records, its header says ${header.count}`,
    );
  }
  return { gen: header.gen, records };
}

/**
 * fsyncs a directory, so a file created or renamed in it survives a crash.
 * @param {string} dir
 */
async function syncDir(dir) {
  const fh = await fsp.open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** @param {number} pid */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return /** @type {NodeJS.ErrnoException} */ (e).code === 'EPERM';
  }
}

export class Journal {
  #dir;
  #journalPath;
  #snapshotPath;
  #lockPath;
  #compactBytes;
  /** @type {(line: string) => void} */
  #log;
  /** @type {Map<string, string>} key → value: exactly what the files hold. */
  #records = new Map();
  #gen = 0;
  /** @type {FileHandle | null} the journal file, open for appends */
  #fh = null;
  #size = 0;
  #snapshotBytes = 0;
  /** @type {Promise<void> | null} */
  #opening = null;
  /** @type {Error | null} why the journal failed for good */
  #failed = null;
  #closed = false;
  /** @type {Promise<unknown>} Serializes commits and compactions. */
  #tail = Promise.resolve();

  /** What the journal has done since it opened. */
  stats = { commits: 0, ops: 0, bytes: 0, compactions: 0, droppedTailBytes: 0 };

  /**
   * `compactBytes`: compact once the journal is larger than this and than the last snapshot
   * (default 16 MiB). `log(line)`: notices (a dropped torn tail, compactions).
   * @param {string} dir
   * @param {{ compactBytes?: number, log?: (line: string) => void }} [options]
   */
  constructor(dir, { compactBytes = 16 * 1024 * 1024, log = () => {} } = {}) {
    this.#dir = path.resolve(dir);
    this.#journalPath = path.join(this.#dir, 'journal.azq');
    this.#snapshotPath = path.join(this.#dir, 'snapshot.azq');
    this.#lockPath = path.join(this.#dir, 'azqueue.lock');
    this.#compactBytes = compactBytes;
    this.#log = log;
  }

  get dir() {
    return this.#dir;
  }

  /** Every record, as `[key, value]` pairs. */
  async load() {
    await this.#open();
    return [...this.#records];
  }

  /**
   * Appends one batch, fsyncs it, then applies it. Rejects (and fails for good) on any error.
   * @param {StorageOp[]} batch
   */
  commit(batch) {
    const run = this.#tail.then(() => this.#commit(batch));
    this.#tail = run.catch(() => {});
    return run;
  }

  /** Rewrites the snapshot from the live records and empties the journal. */
  compact() {
    const run = this.#tail.then(async () => {
      await this.#open();
      await this.#compact();
    });
    this.#tail = run.catch(() => {});
    return run;
  }

  /** Waits for pending commits, closes the files and releases the directory. */
  async close() {
    await this.#tail;
    if (this.#closed) return;
    this.#closed = true;
    if (this.#fh) {
      await this.#fh.close();
      this.#fh = null;
    }
    if (openHere.delete(this.#dir)) {
      await fsp.rm(this.#lockPath, { force: true });
    }
  }

  /** @param {StorageOp[]} batch */
  async #commit(batch) {
    await this.#open();
    const fh = /** @type {FileHandle} open */ (this.#fh);
    if (this.#failed) throw this.#failed;
    if (this.#closed) throw new Error(`the journal in ${this.#dir} is closed`);
    if (!Array.isArray(batch)) throw new TypeError('commit(batch) takes an array of operations');
    try {
      const bytes = frame(Buffer.from(JSON.stringify({ g: this.#gen, ops: batch })));
      await fh.write(bytes);
      await fh.datasync();
      this.#size += bytes.length;
      this.stats.commits++;
      this.stats.ops += batch.length;
      this.stats.bytes += bytes.length;
    } catch (e) {
      // The file may now end in a partial frame; a reopen drops it. Until then, fail.
      const { message } = /** @type {Error} */ (e);
      this.#failed = new Error(`journal write failed in ${this.#dir}: ${message}`);
      throw this.#failed;
    }
    for (const op of batch) this.#apply(op);
    if (this.#size > this.#compactBytes && this.#size > this.#snapshotBytes) {
      await this.#compact();
    }
  }

  /** @param {StorageOp} op */
  #apply(op) {
    switch (op.op) {
      case 'put':
        this.#records.set(op.key, op.value);
        break;
      case 'delete':
        this.#records.delete(op.key);
        break;
      case 'deletePrefix':
        for (const key of this.#records.keys())
          if (key.startsWith(op.prefix)) this.#records.delete(key);
        break;
      case 'clear':
        this.#records.clear();
        break;
      default:
        throw new JournalCorrupt(
          `unknown journal operation ${JSON.stringify(/** @type {{ op: unknown }} */ (op).op)}`,
        );
    }
  }

  async #compact() {
    try {
      const gen = this.#gen + 1;
      const payload = Buffer.from(encodeSnapshot(gen, this.#records));
      const bytes = frame(payload);
      const tmp = `${this.#snapshotPath}.tmp`;
      const fh = await fsp.open(tmp, 'w');
      try {
        await fh.write(bytes);
        await fh.sync();
      } finally {
        await fh.close();
      }
      await fsp.rename(tmp, this.#snapshotPath);
      await syncDir(this.#dir);
      // From here the snapshot is the truth and the journal's frames (older generation) are
      // ignored, so truncating it is safe whenever it happens.
      this.#gen = gen;
      this.#snapshotBytes = bytes.length;
      const journal = /** @type {FileHandle} open */ (this.#fh);
      await journal.truncate(0);
      await journal.datasync();
      this.#size = 0;
      this.stats.compactions++;
      this.#log(`azqueue: journal compacted: ${this.#records.size} records, ${bytes.length} bytes`);
    } catch (e) {
      const { message } = /** @type {Error} */ (e);
      this.#failed = new Error(`journal compaction failed in ${this.#dir}: ${message}`);
      throw this.#failed;
    }
  }

  #open() {
    this.#opening ??= this.#doOpen();
    return this.#opening;
  }

  async #doOpen() {
    await fsp.mkdir(this.#dir, { recursive: true });
    await this.#lock();
    await fsp.rm(`${this.#snapshotPath}.tmp`, { force: true });

    const snapshot = await fsp
      .readFile(this.#snapshotPath)
      .catch((/** @type {NodeJS.ErrnoException} */ e) => {
        if (e.code === 'ENOENT') return null;
        throw e;
      });
    if (snapshot) {
      const f = frameAt(snapshot, 0);
      if (!f || f.end !== snapshot.length) {
        throw new JournalCorrupt(
          `${this.#snapshotPath} is damaged (it is written atomically, so this is not a crash)`,
        );
      }
      const { gen, records } = decodeSnapshot(f.payload.toString('utf8'), this.#snapshotPath);
      this.#gen = gen;
      this.#records = records;
      this.#snapshotBytes = snapshot.length;
    }

    const journal = await fsp
      .readFile(this.#journalPath)
      .catch((/** @type {NodeJS.ErrnoException} */ e) => {
        if (e.code === 'ENOENT') return null;
        throw e;
      });
    const { payloads, end, torn } = journal
      ? readFrames(journal)
      : { payloads: [], end: 0, torn: null };
    for (const payload of payloads) {
      const { g, ops } = JSON.parse(payload.toString('utf8'));
      if (g !== this.#gen) continue; // written before the last compaction's snapshot
      for (const op of ops) this.#apply(op);
    }
    const fh = await fsp.open(this.#journalPath, 'a');
    this.#fh = fh;
    if (journal === null) await syncDir(this.#dir);
    if (torn) {
      this.#log(
        `azqueue: journal ${this.#journalPath}: dropped ${torn} (an append cut short by a crash; it was never acknowledged)`,
      );
      this.stats.droppedTailBytes += /** @type {Buffer} torn */ (journal).length - end;
      await fh.truncate(end);
      await fh.datasync();
    }
    this.#size = end;
  }

  /** Takes DIR for this process: a pid file, taken over only if its process is gone. */
  async #lock() {
    if (openHere.has(this.#dir)) {
      throw new JournalLocked(`${this.#dir} is already open in this process`);
    }
    for (;;) {
      try {
        await fsp.writeFile(this.#lockPath, `${process.pid}\n`, { flag: 'wx' });
        openHere.add(this.#dir);
        return;
      } catch (e) {
        if (/** @type {NodeJS.ErrnoException} */ (e).code !== 'EEXIST') throw e;
      }
      const pid = Number((await fsp.readFile(this.#lockPath, 'utf8').catch(() => '')).trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) {
        throw new JournalLocked(
          `${this.#dir} is in use by another azqueue, process ${pid}: stop that one or give ` +
            `another --location (or delete ${this.#lockPath} if process ${pid} is no azqueue)`,
        );
      }
      // Left by a process that died (SIGKILL, power loss): take it over.
      await fsp.rm(this.#lockPath, { force: true });
    }
  }
}
