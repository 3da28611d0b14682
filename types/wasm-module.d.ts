// workerd (and wrangler's bundler) load a `.wasm` import as a compiled module, which is how the
// Worker gets the engine without compiling bytes at run time (refused there).
declare module '*.wasm' {
  const module: WebAssembly.Module;
  export default module;
}
