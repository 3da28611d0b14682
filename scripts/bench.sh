#!/usr/bin/env bash
# Engine benchmarks (criterion), the server benchmark against Azurite (scripts/bench/node.mjs), then
# the persistence benchmarks and crash runs.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo bench
scripts/build.sh
node scripts/bench/node.mjs
# Producers with and without an open inspector (headless Chromium on the queue they fill).
node scripts/bench/inspector.mjs
# The in-process Queue API against the previous build (BENCH_BASE, default HEAD~1), side by side.
node scripts/bench/inprocess.mjs
# What fault rules that match nothing cost Put through the Node server and the in-process
# sendMessage: no rules and 100 rules against the build before fault rules, side by side. The
# previous build is BENCH_PREVIOUS (a built checkout; the script's header says how to make one
# from a git revision), else BENCH_BASE built in a temporary worktree.
node scripts/bench/faults.mjs
# Persistence: acknowledged puts/s strict vs relaxed (Chromium IndexedDB, Node journal, server over
# HTTP) at 1/8/32 producers, reopen at 10k/100k; then longer SIGKILL crash runs.
node scripts/bench/persistence.mjs
# IndexedDB in Chromium, Firefox ESR and WebKitGTK side by side: strict puts/s, reopen 10k/100k.
node scripts/bench/browsers.mjs
CRASH_BROWSERS=${CRASH_BROWSERS:-firefox,webkit} CRASH_ROUNDS=${CRASH_ROUNDS:-10} CRASH_ACKS=${CRASH_ACKS:-2000,5000} node --test tests/persistence/crash_node.test.mjs tests/persistence/crash_chromium.test.mjs tests/persistence/crash_browsers.test.mjs
# Ten million fuzzed inputs over every entry point (zero panics, zero oracle failures), then the
# soak: 5 minutes per store (memory, --location) with the ledger and RSS over time, then 10 minutes
# each on IndexedDB in Chromium (reloaded, then killed midway) and on the edge Worker (workerd
# killed midway).
cargo run --release --example fuzz -- run --requests ${FUZZ_REQUESTS:-10000000}
node scripts/soak.mjs --seconds ${SOAK_SECONDS:-300}
node scripts/soak.mjs --store chromium,edge --seconds ${SOAK_HOST_SECONDS:-600}
# workerd's RSS with no azqueue in it, for reading the edge soak's beside it.
node scripts/soak/workerd-baseline.mjs ${SOAK_HOST_SECONDS:-600}
# The edge Worker under workerd against the Node server (1 vs 16 queues, 8 and 64 clients) and
# CPU per Put against a bare Durable Object; one queue filled to 100,000 messages of 1 KiB through
# the API (wasm memory sampled), then one object seeded to 1,000,000 against depth 0 (first
# request after a restart, CPU per Put, Get(32)+Delete and Peek, wasm memory); then longer
# SIGKILL crash runs.
node scripts/bench/edge.mjs
node scripts/bench/edge-memory.mjs 100000
node scripts/bench/edge-memory.mjs --cold 1000000
EDGE_CRASH_ROUNDS=${EDGE_CRASH_ROUNDS:-10} node --test tests/edge/crash.test.mjs
