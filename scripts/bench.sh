#!/usr/bin/env bash
# Engine benchmarks (criterion), the server benchmark against Azurite (scripts/bench-node.mjs), then
# the persistence benchmarks and crash runs.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo bench
scripts/build.sh
node scripts/bench-node.mjs
# Persistence: acknowledged puts/s strict vs relaxed (Chromium IndexedDB, Node journal, server over
# HTTP) at 1/8/32 producers, reopen at 10k/100k; then longer SIGKILL crash runs.
node scripts/bench-persistence.mjs
CRASH_ROUNDS=${CRASH_ROUNDS:-10} CRASH_ACKS=${CRASH_ACKS:-2000,5000} node --test tests/persistence/crash_node.test.mjs tests/persistence/crash_chromium.test.mjs
