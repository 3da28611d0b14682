#!/usr/bin/env bash
# Engine benchmarks (criterion), then the server benchmark against Azurite (scripts/bench-node.mjs).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo bench
scripts/build.sh
node scripts/bench-node.mjs
