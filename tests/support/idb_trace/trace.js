// What IndexedDB was asked and what it answered, for one database, seen from JavaScript (issue
// 23: when a browser test fails with a corrupt-looking value, were the records IndexedDB gave
// back already wrong, or was the wasm heap?). Every put, delete and clear on a traced database
// updates a model of what it must hold; every get and getAll answer is compared with the model
// when it arrives, before wasm sees it. Each event is logged as it happens, with lengths and
// hashes only (the test runner prints a test's console output only when it fails, so a trap in
// wasm, which no Rust code sees, still leaves them); a wrong answer is printed whole.

/** @typedef {{ key: IDBValidKey, value: unknown }} Entry */
/** @typedef {{ stores: Map<string, Map<string, Entry>>, wrong: number, reads: number }} Trace */

/** @type {Map<string, Trace>} */
const traces = new Map();
let patched = false;

/** FNV-1a over UTF-16 units: enough to tell two values apart in a log. */
function hash(/** @type {unknown} */ value) {
  const s = typeof value === 'string' ? value : (JSON.stringify(value) ?? 'undefined');
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return `${s.length}:${(h >>> 0).toString(16).padStart(8, '0')}`;
}

const keyText = (/** @type {unknown} */ key) =>
  key instanceof IDBKeyRange
    ? `[${keyText(key.lower)}..${keyText(key.upper)}]`
    : JSON.stringify(key);

function event(/** @type {string} */ line) {
  console.log(`idb trace: ${line}`);
}

/** @returns {Trace | undefined} */
function traceOf(/** @type {IDBObjectStore} */ store) {
  return traces.get(store.transaction.db.name);
}

function modelOf(/** @type {Trace} */ t, /** @type {string} */ name) {
  let m = t.stores.get(name);
  if (!m) t.stores.set(name, (m = new Map()));
  return m;
}

/** The model's entries `query` selects, in key order, at most `count`. */
function selected(
  /** @type {Map<string, Entry>} */ m,
  /** @type {unknown} */ query,
  /** @type {number | undefined} */ count,
) {
  const all = [...m.values()].filter((e) =>
    query === undefined || query === null
      ? true
      : query instanceof IDBKeyRange
        ? query.includes(e.key)
        : indexedDB.cmp(e.key, /** @type {IDBValidKey} */ (query)) === 0,
  );
  all.sort((a, b) => indexedDB.cmp(a.key, b.key));
  return count ? all.slice(0, count) : all;
}

function compare(
  /** @type {Trace} */ t,
  /** @type {string} */ what,
  /** @type {unknown[]} */ want,
  /** @type {unknown[]} */ got,
) {
  t.reads++;
  const same = want.length === got.length && want.every((w, i) => w === got[i]);
  event(`${what} -> ${got.length} values ${hash(got.join('\n'))}${same ? '' : ' WRONG'}`);
  if (!same) {
    t.wrong++;
    console.error(`idb trace: ${what} answered other values than were written`);
    console.error(
      `  written (${want.length}):\n${want.map((v) => `    ${hash(v)} ${v}`).join('\n')}`,
    );
    console.error(
      `  answered (${got.length}):\n${got.map((v) => `    ${hash(v)} ${v}`).join('\n')}`,
    );
  }
}

function patch() {
  if (patched) return;
  patched = true;
  const P = IDBObjectStore.prototype;
  const { put, delete: remove, clear, get, getAll } = P;
  P.put = function (value, key) {
    const t = traceOf(this);
    if (t && key !== undefined) {
      modelOf(t, this.name).set(keyText(key), { key, value });
      event(`put ${this.name} ${keyText(key)} ${hash(value)}`);
    }
    return put.call(this, value, key);
  };
  P.delete = function (query) {
    const t = traceOf(this);
    if (t) {
      const m = modelOf(t, this.name);
      const gone = selected(m, query, undefined);
      for (const e of gone) m.delete(keyText(e.key));
      event(`delete ${this.name} ${keyText(query)} (${gone.length})`);
    }
    return remove.call(this, query);
  };
  P.clear = function () {
    const t = traceOf(this);
    if (t) {
      modelOf(t, this.name).clear();
      event(`clear ${this.name}`);
    }
    return clear.call(this);
  };
  P.get = function (query) {
    const request = get.call(this, query);
    const t = traceOf(this);
    if (t) {
      const want = selected(modelOf(t, this.name), query, 1).map((e) => e.value);
      const what = `get ${this.name} ${keyText(query)}`;
      request.addEventListener('success', () =>
        compare(t, what, want, request.result === undefined ? [] : [request.result]),
      );
    }
    return request;
  };
  P.getAll = function (query, count) {
    const request = getAll.call(this, query, count);
    const t = traceOf(this);
    if (t) {
      const want = selected(modelOf(t, this.name), query, count).map((e) => e.value);
      const what = `getAll ${this.name} ${keyText(query)} ${count ?? ''}`;
      request.addEventListener('success', () => compare(t, what, want, request.result));
    }
    return request;
  };
}

/** Starts tracing the database `name`, which must be empty (just created or never opened). */
export function traceDatabase(/** @type {string} */ name) {
  patch();
  traces.set(name, { stores: new Map(), wrong: 0, reads: 0 });
}

/** Records a line of the test's own (what wasm encoded, what it decoded) among the events. */
export function traceNote(/** @type {string} */ line) {
  event(line);
}

/** The hash the events show for `value`. */
export function traceHash(/** @type {string} */ value) {
  return hash(value);
}

/** How many answers differed from the model, of how many reads. */
export function traceWrong(/** @type {string} */ name) {
  const t = traces.get(name);
  return t ? [t.wrong, t.reads] : [0, 0];
}

/** Prints every record the model holds: whole (`full`), or their hashes. */
export function traceDump(/** @type {string} */ name, /** @type {boolean} */ full) {
  const t = traces.get(name);
  if (!t) return;
  console.error(`idb trace of ${name}: ${t.wrong} wrong answers of ${t.reads} reads`);
  for (const [store, m] of t.stores) {
    for (const e of selected(m, undefined, undefined)) {
      console.error(
        `record ${store} ${keyText(e.key)} ${hash(e.value)}${full ? `\n${e.value}` : ''}`,
      );
    }
  }
}

/** Stops tracing `name`. */
export function traceEnd(/** @type {string} */ name) {
  traces.delete(name);
}
