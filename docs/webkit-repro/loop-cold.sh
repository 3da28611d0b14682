#!/usr/bin/env bash
# Runs the WAL sequence module in JavaScriptCore alone, one process after another, each started
# with the kernel's page cache dropped (root), as on a machine's first run; counts the processes
# whose passes all came out right. Run it beside load (the failure of 2026-11-26 came with two
# browser loops and a CPU burner on the 2 cores):
#   loop-cold.sh <processes> [passes a process]      # JSC_* as for jsc-run (default: OMG on)
# A failed process's output goes to $LOOP_LOGS/fail-<n>.txt (default /tmp/loop-cold).
set -uo pipefail
cd "$(dirname "$0")"
processes=${1:?number of processes}
passes=${2:-3}
logs=${LOOP_LOGS:-/tmp/loop-cold}; mkdir -p "$logs"
export JSC_useWasmIPInt=${JSC_useWasmIPInt:-0} JSC_useWasmLLInt=${JSC_useWasmLLInt:-0} JSC_useOMGJIT=${JSC_useOMGJIT:-1}
wasm=target/wasm32-unknown-unknown/debug/wal_sequence_wasm.wasm
[ -f "$wasm" ] || cargo build --target wasm32-unknown-unknown
[ -x jsc-run ] || gcc -O2 -o jsc-run jsc-run.c -l:libjavascriptcoregtk-4.1.so.0
ok=0; failed=0
for i in $(seq 1 "$processes"); do
  sync; echo 3 > /proc/sys/vm/drop_caches
  out=$(timeout 300 ./jsc-run "$wasm" run.js "$passes" 2>&1)
  if [ $? = 0 ] && [ "$out" = "ok: $passes passes" ]; then ok=$((ok + 1)); else
    failed=$((failed + 1)); printf '%s\n' "$out" > "$logs/fail-$i.txt"; fi
done
echo "loop-cold: $processes processes, $ok ok, $failed failed"
