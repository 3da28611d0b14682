#!/usr/bin/env bash
# Engine benchmarks (criterion) and, when present, the Node end-to-end benchmark.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo bench
if [ -f benches/node.mjs ]; then
  node benches/node.mjs
fi
