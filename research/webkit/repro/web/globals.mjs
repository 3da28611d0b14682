// What the shipped glue and fake-indexeddb expect of a browser, for a bare JavaScriptCore
// context (jsc-run), which has the language and WebAssembly only. Each is the smallest faithful
// version of the web API for what the sequence uses: UTF-8 text, `setTimeout` as a task queue
// that jsc-run's `__tick()` runs (one task a tick, microtasks drained between), DOMException,
// `structuredClone`
// of the strings, numbers and plain objects IndexedDB is given, and `crypto.getRandomValues`
// (unused: the service is opened with a seed, so the run is the same every time).
const g = /** @type {any} */ (globalThis);

/** Tasks queued by setTimeout, run one per `__tick()` in the order they were queued. */
const tasks = [];
if (typeof g.setTimeout !== 'function') {
  g.setTimeout = (/** @type {() => void} */ f, /** @type {number} */ _ms, ...args) => {
    tasks.push(() => f(...args));
    return tasks.length;
  };
  g.clearTimeout = () => {};
}
g.__tasks = tasks;

if (typeof g.queueMicrotask !== 'function') {
  g.queueMicrotask = (/** @type {() => void} */ f) => void Promise.resolve().then(f);
}

if (typeof g.TextEncoder !== 'function') {
  g.TextEncoder = class {
    encode(/** @type {string} */ s = '') {
      const bytes = [];
      for (const ch of s) {
        let c = /** @type {number} */ (ch.codePointAt(0));
        if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
        if (c < 0x80) bytes.push(c);
        else if (c < 0x800) bytes.push(0xc0 | (c >> 6), 0x80 | (c & 63));
        else if (c < 0x10000) bytes.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
        else
          bytes.push(
            0xf0 | (c >> 18),
            0x80 | ((c >> 12) & 63),
            0x80 | ((c >> 6) & 63),
            0x80 | (c & 63),
          );
      }
      return new Uint8Array(bytes);
    }
    encodeInto(/** @type {string} */ s, /** @type {Uint8Array} */ view) {
      // Whole code points only, as the web API: stop before one that does not fit.
      let read = 0;
      let written = 0;
      for (const ch of s) {
        const bytes = this.encode(ch);
        if (written + bytes.length > view.length) break;
        view.set(bytes, written);
        written += bytes.length;
        read += ch.length;
      }
      return { read, written };
    }
  };
}

if (typeof g.TextDecoder !== 'function') {
  g.TextDecoder = class {
    decode(/** @type {Uint8Array | undefined} */ bytes) {
      if (!bytes) return '';
      let out = '';
      for (let i = 0; i < bytes.length;) {
        const b = bytes[i];
        let c;
        let n;
        if (b < 0x80) [c, n] = [b, 1];
        else if (b >= 0xf0) [c, n] = [b & 7, 4];
        else if (b >= 0xe0) [c, n] = [b & 15, 3];
        else [c, n] = [b & 31, 2];
        for (let k = 1; k < n; k++) c = (c << 6) | (bytes[i + k] & 63);
        out += String.fromCodePoint(c);
        i += n;
      }
      return out;
    }
  };
}

if (typeof g.structuredClone !== 'function') {
  g.structuredClone = function clone(/** @type {any} */ v) {
    if (v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) return v.map(clone);
    if (v instanceof Date) return new Date(v.getTime());
    if (ArrayBuffer.isView(v)) return v.slice();
    if (v instanceof ArrayBuffer) return v.slice(0);
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, clone(x)]));
  };
}

if (typeof g.DOMException !== 'function') {
  g.DOMException = class DOMException extends Error {
    constructor(message = '', name = 'Error') {
      super(message);
      this.name = name;
    }
  };
}

if (typeof g.crypto !== 'object') {
  g.crypto = {
    getRandomValues() {
      throw new Error('crypto.getRandomValues: the sequence runs with a seed');
    },
  };
}

/** What was logged, printed with a failure (a panic's message comes through console.error). */
const logged = [];
g.__logged = logged;
if (typeof g.console !== 'object') {
  const log = (/** @type {unknown[]} */ ...args) => void logged.push(args.map(String).join(' '));
  g.console = { log, warn: log, error: log, debug: log, info: log };
}
