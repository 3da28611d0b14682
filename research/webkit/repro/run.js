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
  const { run, message, panic_message, panic_message_len, memory } = new WebAssembly.Instance(
    module,
    imports,
  ).exports;
  const text = (at, length) => String.fromCharCode(...new Uint8Array(memory.buffer, at, length));
  for (let pass = 0; pass < passes; pass++) {
    let length;
    try {
      length = run(pass);
    } catch (e) {
      let panic = '';
      try {
        panic = `\npanic: ${text(panic_message(), panic_message_len())}`;
      } catch {}
      return `pass ${pass}: ${e} ${e.stack ?? ''}${panic}`;
    }
    if (length !== 0) {
      return `pass ${pass}: ${text(message(), length)}`;
    }
  }
  return `ok: ${passes} passes`;
})();
