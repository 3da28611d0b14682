// Runs the module's `run(pass)` `passes` times on one instance (`wasmBytes`, `passes` given by
// jsc-run.c or node-run.mjs); evaluates to "ok: N passes" or to what went wrong and at which
// pass. Every import is a function that throws: the sequence calls none.
(() => {
  const module = new WebAssembly.Module(wasmBytes);
  const imports = {};
  for (const i of WebAssembly.Module.imports(module)) {
    imports[i.module] ??= {};
    imports[i.module][i.name] = () => {
      throw new Error(`import ${i.module}.${i.name} called`);
    };
  }
  const { run, message, memory } = new WebAssembly.Instance(module, imports).exports;
  for (let pass = 0; pass < passes; pass++) {
    let length;
    try {
      length = run(pass);
    } catch (e) {
      return `pass ${pass}: ${e} ${e.stack ?? ''}`;
    }
    if (length !== 0) {
      const bytes = new Uint8Array(memory.buffer, message(), length);
      return `pass ${pass}: ${String.fromCharCode(...bytes)}`;
    }
  }
  return `ok: ${passes} passes`;
})();
