#!/usr/bin/env bash
# Runs settings of JavaScriptCore (and builds of the module) side by side: process after
# process, each the next setting in turn, each started with the kernel's page cache dropped
# (root), as loop-cold.sh does; counts each setting's processes apart. A setting is
#   name|JSC_x=v JSC_y=w|module.wasm|script.js
# (the script as for jsc-run: run.js for the bare module, target/web-sequence.js for the
# shipped package, see web/README.md). Every process appends a line to $LOOP_LOGS/processes.tsv
# (time, process, setting, result, seconds, the 1-minute load) and $LOOP_LOGS/counts is
# rewritten after each, so a loop stopped at any point leaves its counts; a failed process's
# output goes to $LOOP_LOGS/fail-<n>.txt. A setting's variables are all it sets: with none,
# JavaScriptCore runs with its defaults (every tier on).
#   loop-mix.sh <processes> <passes> <setting> [<setting> ...]
set -uo pipefail
cd "$(dirname "$0")"
processes=${1:?number of processes}
passes=${2:?passes a process}
shift 2
settings=("$@")
[ ${#settings[@]} -gt 0 ] || { echo "loop-mix: no setting" >&2; exit 2; }
logs=${LOOP_LOGS:-/tmp/loop-mix}; mkdir -p "$logs"
[ -x jsc-run ] || gcc -O2 -o jsc-run jsc-run.c -l:libjavascriptcoregtk-4.1.so.0
declare -A ok=() failed=()
for i in $(seq 1 "$processes"); do
  IFS='|' read -r name env wasm script <<< "${settings[$(( (i - 1) % ${#settings[@]} ))]}"
  sync; echo 3 > /proc/sys/vm/drop_caches
  start=$(date +%s.%N)
  # shellcheck disable=SC2086 # the setting's variables are words
  out=$(env $env timeout 300 ./jsc-run "$wasm" "$script" "$passes" 2>&1)
  rc=$?
  seconds=$(echo "$(date +%s.%N) - $start" | bc)
  if [ $rc = 0 ] && [ "$out" = "ok: $passes passes" ]; then result=ok; ok[$name]=$((${ok[$name]:-0} + 1)); else
    result=failed; failed[$name]=$((${failed[$name]:-0} + 1))
    printf '%s (%s, %s, %s)\n%s\n' "$name" "$env" "$wasm" "$script" "$out" > "$logs/fail-$i.txt"
  fi
  printf '%s\t%s\t%s\t%s\t%.1f\t%s\n' "$(date -u +%FT%TZ)" "$i" "$name" "$result" "$seconds" \
    "$(cut -d' ' -f1 /proc/loadavg)" >> "$logs/processes.tsv"
  for setting in "${settings[@]}"; do
    n=${setting%%|*}
    echo "$n: $((${ok[$n]:-0} + ${failed[$n]:-0})) processes, ${ok[$n]:-0} ok, ${failed[$n]:-0} failed"
  done > "$logs/counts"
done
cat "$logs/counts"
