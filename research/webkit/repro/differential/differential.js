// Runs a bundle of random modules (research/webkit/repro/differential/src/main.rs writes it;
// `wasmBytes`, and `passes` rounds, given by ../jsc-run.c or ../node-run.mjs) and evaluates to
// "ok" and a line per module:
//   m<index> <hash of everything observed> <calls> <traps> <stack overflows>
// Every exported function is called once a round, each call on a new instance of the one
// compiled `WebAssembly.Module` (fresh memory, tables, globals and fuel), so the engine's tiers
// carry over from call to call while the state does not; the arguments depend only on the
// module, round and function. Observed: each call's results or its kind of exception, the calls
// it made to the imported functions and their arguments, then the memory's bytes, the tables and
// the globals after it. Two engines that run the modules right print the same lines; a stack
// overflow (whose depth is each engine's own) is counted, and a module with one cannot be
// compared. No argument is a NaN: the bits a JavaScript NaN becomes in wasm are each engine's
// choice. With `detail` set to a module's index, evaluates to that module's whole record instead.
(() => {
  const all =
    wasmBytes instanceof ArrayBuffer
      ? new Uint8Array(wasmBytes)
      : new Uint8Array(wasmBytes.buffer, wasmBytes.byteOffset, wasmBytes.byteLength);
  const view = new DataView(all.buffer, all.byteOffset, all.byteLength);
  const only = typeof detail === 'number' ? detail : -1;
  const fnv = (text) => {
    let h = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    return (h >>> 0).toString(16).padStart(8, '0');
  };
  // A memory's length is a multiple of 64 KiB, so it hashes as 32-bit words.
  const hashMemory = (buffer) => {
    const words = new Int32Array(buffer);
    let h = 0x811c9dc5;
    for (let i = 0; i < words.length; i++) h = Math.imul(h ^ words[i], 0x01000193);
    return (h >>> 0).toString(16).padStart(8, '0');
  };
  const refs = [null, {}, 'text', 42];
  const i32s = [0, 1, -1, 2, 7, 100, 65535, 65536, 0x7fffffff, -0x80000000];
  const f64s = [0, -0, 1, -1.5, 3.25, 1e10, -1e-10, Infinity, -Infinity, 123.456];
  const show = (v) => {
    if (typeof v === 'bigint') return `${v}n`;
    if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v);
    if (typeof v === 'function') return 'func';
    const known = refs.indexOf(v);
    return known >= 0 ? `ref${known}` : typeof v;
  };
  let overflows = 0;
  // What an exception was; a stack overflow, whose depth is each engine's own, is counted.
  const kind = (e) => {
    if (e instanceof WebAssembly.RuntimeError) return 'trap';
    if (!(e instanceof RangeError)) return e.constructor.name;
    overflows++;
    return 'stack';
  };
  const lines = ['ok'];
  let detailRecord = '';
  let offset = 0;
  for (let index = 0; offset < all.length; index++) {
    const metaLength = view.getUint32(offset, true);
    const meta = JSON.parse(
      String.fromCharCode(...all.subarray(offset + 4, offset + 4 + metaLength)),
    );
    offset += 4 + metaLength;
    const wasmLength = view.getUint32(offset, true);
    const bytes = all.slice(offset + 4, offset + 4 + wasmLength);
    offset += 4 + wasmLength;
    if (only >= 0 && index !== only) continue;
    let seed = (index * 2654435761) >>> 0;
    const next = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed;
    };
    const arg = (type) => {
      const r = next();
      const pick = r % 13;
      switch (type) {
        case 'i32':
          return pick < 10 ? i32s[pick] : next() | 0;
        case 'i64':
          return pick < 10
            ? BigInt(i32s[pick]) * (r & 1 ? 1n : 4294967296n)
            : BigInt.asIntN(64, (BigInt(next()) << 32n) | BigInt(next()));
        case 'f32':
        case 'f64':
          return pick < 10 ? f64s[pick] : (next() / 65536) * (r & 2 ? -1 : 1);
        case 'externref':
          return refs[r % refs.length];
        default:
          return null;
      }
    };
    let record = '';
    let calls = 0;
    let traps = 0;
    overflows = 0;
    // The functions a module may import (research/webkit/repro/differential/src/lib.rs, `imports`);
    // each call is part of the record.
    const env = {
      i32: (a) => {
        record += `  i32(${a})\n`;
        return Math.imul(a, 31) + 7;
      },
      i64: (a, b) => {
        record += `  i64(${a}, ${b})\n`;
        return BigInt.asIntN(64, a * 3n + BigInt(b));
      },
      multi: (a, b) => {
        record += `  multi(${a}, ${b})\n`;
        return [a ^ 5, BigInt.asIntN(64, b - 1n)];
      },
      ref: (r, i) => {
        record += `  ref(${show(r)}, ${i})\n`;
        return i & 1 ? r : refs[(i >>> 0) % refs.length];
      },
      void: (a, b, r) => {
        record += `  void(${a}, ${b}, ${show(r)})\n`;
      },
      nothing: () => {
        record += '  nothing()\n';
      },
      // Back into the module (the caller's frame waits below, and may change tiers meanwhile):
      // the `i`th exported function, three calls deep at most.
      reenter: (i) => {
        record += `  reenter(${i})\n`;
        if (depth < 3 && callable.length) {
          const entry = callable[(i >>> 0) % callable.length];
          depth++;
          try {
            const result = current[entry.name](...entry.params.map(arg));
            record += `  = ${Array.isArray(result) ? result.map(show) : show(result)}\n`;
          } catch (e) {
            record += `  threw ${kind(e)}\n`;
          } finally {
            depth--;
          }
        }
        return i ^ 1;
      },
      f64: (a, b) => {
        record += `  f64(${show(a)}, ${show(b)})\n`;
        // No NaN back into wasm: which NaN a JavaScript NaN becomes is each engine's choice.
        const clean = (x) => (Number.isNaN(x) ? 0 : x);
        return [clean(a * 2 + 1), clean(b / 2)];
      },
    };
    let current = null;
    let depth = 0;
    let module;
    try {
      module = new WebAssembly.Module(bytes);
    } catch (e) {
      lines.push(`m${index} compile-error ${e.constructor.name}`);
      continue;
    }
    const names = WebAssembly.Module.exports(module).map((e) => e.name);
    meta.forEach((entry, i) => Object.assign(entry, { name: names[i], index: i }));
    // The functions called: the module's own (an imported one exported again is not).
    const callable = meta.filter((entry) => entry.params && !entry.reexported);
    const observe = (exports) => {
      for (const entry of meta) {
        const value = exports[entry.name];
        if (value instanceof WebAssembly.Memory)
          record += `  memory ${value.buffer.byteLength} ${hashMemory(value.buffer)}\n`;
        else if (value instanceof WebAssembly.Global)
          record += `  global ${entry.index} ${show(value.value)}\n`;
        else if (value instanceof WebAssembly.Table) {
          let t = `  table ${entry.index} ${value.length}:`;
          for (let i = 0; i < value.length; i++) t += ` ${show(value.get(i))}`;
          record += `${t}\n`;
        }
      }
    };
    for (let round = 0; round < passes; round++) {
      for (const entry of callable) {
        let exports;
        try {
          exports = new WebAssembly.Instance(module, { env }).exports;
        } catch (e) {
          record += `r${round} instantiate ${e.constructor.name}\n`;
          break;
        }
        const args = entry.params.map(arg);
        current = exports;
        calls++;
        try {
          const result = exports[entry.name](...args);
          record += `f${entry.index}(${args.map(show)}) = ${Array.isArray(result) ? result.map(show) : show(result)}\n`;
        } catch (e) {
          const what = kind(e);
          if (what === 'trap') traps++;
          record += `f${entry.index}(${args.map(show)}) threw ${what}\n`;
        }
        observe(exports);
      }
    }
    if (index === only) detailRecord = record;
    lines.push(`m${index} ${fnv(record)} ${calls} ${traps} ${overflows}`);
  }
  return only >= 0 ? `ok\n${detailRecord}` : lines.join('\n');
})();
