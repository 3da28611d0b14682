#!/usr/bin/env bash
# Engine benchmarks (criterion), then the end-to-end SDK benchmark against Azurite.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo bench
scripts/build.sh
node scripts/bench-node.mjs "${BENCH_MESSAGES:-1000}"
