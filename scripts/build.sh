#!/usr/bin/env bash
# Builds the wasm package three times: `pkg/web` (--target web: browsers, service workers,
# workerd, Deno, Bun), `pkg/node` (--target nodejs: the Node server and tests) and
# `pkg/edge` (pkg/web with the `sql-host` feature: the edge Worker, whose queue objects keep
# their messages in the object's SQLite; browsers need none of it, so pkg/web's size stays put).
# - pkg/web is downloaded by every page and worker, so it is built for size: the `web` profile
#   (opt-level "z") and no name section.
# - pkg/node is read from disk by Node, so it is built for speed (`release`, opt-level 3)
#   and keeps its function names for stack traces: at "z" the server spent about 1.5× the CPU
#   per request.
# BENCHMARKS.md, "Build size", has the figures; research/benchmarks/notes.md, the same section,
# what each choice measured.
# Calls the wasm-bindgen CLI directly rather than wasm-pack, so no step can try to download
# anything; the only wasm-opt it runs is npm's binaryen (Debian's breaks the output;
# toolchain.md).
set -euo pipefail
cd "$(dirname "$0")/.."

# Without `server-clock` (Cargo.toml): a server feature, and pkg/web has a size ceiling.
cargo build --lib --profile web --target wasm32-unknown-unknown --no-default-features
cargo build --lib --release --target wasm32-unknown-unknown
# Ask cargo where it put the output (CARGO_TARGET_DIR or a config may move it from target/).
target_dir=$(cargo metadata --format-version 1 --no-deps --offline \
  | node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => console.log(JSON.parse(s).target_directory))')
wasm-bindgen --target web --remove-name-section --remove-producers-section --out-dir pkg/web \
  "$target_dir/wasm32-unknown-unknown/web/azqueue.wasm"
# binaryen's -O1 over LLVM's "z" output: about 1% smaller gzipped. -Os and -Oz make the module
# smaller but compress worse (research/benchmarks/notes.md, "Build size"). npm's binaryen (pinned in
# package.json), never Debian's, whose wasm-opt breaks the output; the features are the ones
# rustc enables for wasm32-unknown-unknown.
# --converge repeats -O1 until it finds nothing more: about 200 B less gzipped, for pkg/web only.
node_modules/.bin/wasm-opt -O1 --converge --enable-bulk-memory --enable-multivalue \
  --enable-mutable-globals --enable-nontrapping-float-to-int --enable-reference-types \
  --enable-sign-ext pkg/web/azqueue_bg.wasm -o pkg/web/azqueue_bg.wasm
# pkg/edge: no `server-clock` either (the edge answers `/_azqueue/clock` 404, as pkg/web would);
# `faults` for its AZQUEUE_FAULTS variable (docs/faults.md).
cargo build --lib --profile web --target wasm32-unknown-unknown --no-default-features --features sql-host,faults
wasm-bindgen --target web --remove-name-section --remove-producers-section --out-dir pkg/edge \
  "$target_dir/wasm32-unknown-unknown/web/azqueue.wasm"
node_modules/.bin/wasm-opt -O1 --enable-bulk-memory --enable-multivalue --enable-mutable-globals \
  --enable-nontrapping-float-to-int --enable-reference-types --enable-sign-ext \
  pkg/edge/azqueue_bg.wasm -o pkg/edge/azqueue_bg.wasm
wasm-bindgen --target nodejs --out-dir pkg/node "$target_dir/wasm32-unknown-unknown/release/azqueue.wasm"
# The nodejs glue is CommonJS, but the repository's package.json says "type": "module"; a nested
# package.json scopes the directory back to CommonJS so `require()` and `createRequire` load it.
echo '{ "type": "commonjs" }' > pkg/node/package.json
# wasm-bindgen ships the crate's JS modules (snippets/, e.g. src/wasm/result_shapes.js) as they
# are written, in ES module syntax, and this glue require()s them: rewrite them as CommonJS, in
# place, so every Node 20 loads them (require() of an ES module needs 20.19 and a module scope).
find pkg/node/snippets -name '*.js' -print0 2>/dev/null | while IFS= read -r -d '' snippet; do
  node_modules/.bin/esbuild "$snippet" --format=cjs --platform=node --log-level=warning \
    --outfile="$snippet" --allow-overwrite
done
# Node 20's V8 aborts the process when it deoptimizes optimized code at an inlined JS→wasm call
# that returns an externref, which this glue makes on every call (seen under load). Not inlining
# such calls avoids it; the flag must be set before the glue is optimized, so the package sets it
# as it loads, for every Node program that uses it, not only our server.
glue=pkg/node/azqueue.js
# (After the first line, which is the glue's @ts-self-types directive.)
sed -i "1a require('node:v8').setFlagsFromString('--no-turbo-inline-js-wasm-calls');" "$glue"
# The official SDK as one ES module served from pkg/vendor/, for the teaching page's snippet.
node scripts/build-sdk.mjs
printf 'build: pkg/web (web: %s KiB of wasm, %s KiB gzipped), pkg/edge (%s KiB gzipped) and pkg/node (nodejs: %s KiB)\n' \
  "$(( $(stat -c %s pkg/web/azqueue_bg.wasm) / 1024 ))" "$(( $(gzip -9 -c pkg/web/azqueue_bg.wasm | wc -c) / 1024 ))" \
  "$(( $(gzip -9 -c pkg/edge/azqueue_bg.wasm | wc -c) / 1024 ))" \
  "$(( $(stat -c %s pkg/node/azqueue_bg.wasm) / 1024 ))"
