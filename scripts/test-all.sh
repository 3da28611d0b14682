#!/usr/bin/env bash
# Runs every test layer in order of cost, never stopping early, then prints one summary line
# `N passed, M failed` counting layers. A layer that cannot run (missing tool, build failure,
# timeout) counts as failed, never as skipped, so a green line means every layer really ran.
set -uo pipefail
cd "$(dirname "$0")/.."

# Per-layer time limit, so a hung browser or server cannot stall the whole run.
LAYER_TIMEOUT=${LAYER_TIMEOUT:-900}

names=()
results=()
durations=()
total=11
n=0

layer() {
  local name=$1
  shift
  n=$((n + 1))
  printf '\n\033[1m==> [%d/%d] %s\033[0m: %s\n' "$n" "$total" "$name" "$*"
  local start=$SECONDS status
  timeout --kill-after=10 "$LAYER_TIMEOUT" bash -c "$*"
  status=$?
  local took=$((SECONDS - start))
  names+=("$name")
  durations+=("$took")
  if [ "$status" -eq 0 ]; then
    results+=(pass)
    printf '\033[32m<== %s: passed\033[0m (%ds)\n' "$name" "$took"
  else
    results+=(FAIL)
    [ "$status" -eq 124 ] && printf 'timed out after %ss\n' "$LAYER_TIMEOUT"
    printf '\033[31m<== %s: FAILED (exit %d)\033[0m (%ds)\n' "$name" "$status" "$took"
  fi
}

layer tools        scripts/ensure-tools.sh
layer fmt          cargo fmt --check
layer clippy       cargo clippy --all-targets -- -D warnings
layer clippy-wasm  cargo clippy --target wasm32-unknown-unknown --lib -- -D warnings
layer layering     scripts/check-layering.sh
layer cargo-test   cargo test
layer wasm-node    wasm-pack test --node
layer wasm-chrome  wasm-pack test --headless --chrome
layer build        scripts/build.sh
layer e2e          node --test tests/e2e/
layer python       .venv/bin/python tests/e2e/python_smoke.py

passed=0
failed=0
printf '\n\033[1mSummary\033[0m\n'
for i in "${!names[@]}"; do
  printf '  %-12s %-5s %4ss\n' "${names[$i]}" "${results[$i]}" "${durations[$i]}"
  if [ "${results[$i]}" = pass ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
