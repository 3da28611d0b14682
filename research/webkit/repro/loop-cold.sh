#!/usr/bin/env bash
# Runs the WAL sequence module in JavaScriptCore alone, one process after another, each started
# with the kernel's page cache dropped (root), as on a machine's first run; counts the processes
# whose passes all came out right. Run it beside load (the failures of 2026-11-26 came with other
# loops and a CPU burner on the 2 cores):
#   loop-cold.sh <processes> [passes a process]      # JSC_* as for jsc-run (default: OMG on)
#   LOOP_OMG_MIX=1 loop-cold.sh <processes> [passes]  # odd processes OMG on, even ones BBQ only,
#                                                     # counted apart: the two settings side by side
# LOOP_WASM picks another build of the module (default: the debug build here).
# A failed process's output goes to $LOOP_LOGS/fail-<n>.txt (default /tmp/loop-cold).
set -uo pipefail
cd "$(dirname "$0")"
processes=${1:?number of processes}
passes=${2:-3}
logs=${LOOP_LOGS:-/tmp/loop-cold}; mkdir -p "$logs"
export JSC_useWasmIPInt=${JSC_useWasmIPInt:-0} JSC_useWasmLLInt=${JSC_useWasmLLInt:-0} JSC_useOMGJIT=${JSC_useOMGJIT:-1}
wasm=${LOOP_WASM:-target/wasm32-unknown-unknown/debug/wal_sequence_wasm.wasm}
[ -f "$wasm" ] || cargo build --target wasm32-unknown-unknown
[ -x jsc-run ] || gcc -O2 -o jsc-run jsc-run.c -l:libjavascriptcoregtk-4.1.so.0
declare -A ok=() failed=()
for i in $(seq 1 "$processes"); do
  if [ "${LOOP_OMG_MIX:-0}" = 1 ]; then JSC_useOMGJIT=$((i % 2)); fi
  setting="OMG $([ "$JSC_useOMGJIT" = 1 ] && echo on || echo off)"
  sync; echo 3 > /proc/sys/vm/drop_caches
  out=$(timeout 300 ./jsc-run "$wasm" run.js "$passes" 2>&1)
  if [ $? = 0 ] && [ "$out" = "ok: $passes passes" ]; then ok[$setting]=$((${ok[$setting]:-0} + 1)); else
    failed[$setting]=$((${failed[$setting]:-0} + 1))
    printf '%s\n%s\n' "$setting" "$out" > "$logs/fail-$i.txt"
    echo "loop-cold: process $i ($setting) failed: ${out:0:200}"
  fi
done
for setting in "OMG on" "OMG off"; do
  n=$((${ok[$setting]:-0} + ${failed[$setting]:-0}))
  [ "$n" = 0 ] || echo "loop-cold: $setting: $n processes, ${ok[$setting]:-0} ok, ${failed[$setting]:-0} failed"
done
