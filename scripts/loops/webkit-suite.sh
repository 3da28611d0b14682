#!/usr/bin/env bash
# Runs all of wasm_idb (or the tests a filter picks) again and again through wasm-bindgen-test-
# runner's own headless mode in WebKitGTK, as make test's wasm-webkit layer runs it (issue 23,
# research/webkit/investigation.md): a new runner, browser and page each run, nothing retried.
#   scripts/loops/webkit-suite.sh <runs> [test filter ...]
# Settings as scripts/test-webkit.sh's unless JSC_* is set. Output in $LOOP_LOGS (default
# /tmp/loop-webkit-suite): out.txt (a line a run, the tally last) and each failed run's log.
# A run still going after HANG_AFTER s (default 120; a run takes 40-60 s here) gets its
# WebProcesses' CPU times (twice, 5 s apart) and all their threads' stacks (gdb) recorded in
# hang-<run>.txt, before the runner's own timeout kills them. LOOP_COLD_CACHE=1 empties the
# browser's cache directory (XDG_CACHE_HOME) before each run, LOOP_DROP_PAGE_CACHE=1 (root) drops
# the kernel's page cache: a machine's first browser run, each time.
set -uo pipefail
runs=${1:?number of runs}; shift
dir=${LOOP_LOGS:-/tmp/loop-webkit-suite}; mkdir -p "$dir"
cd "$(dirname "$0")/../.."
export SAFARIDRIVER=/usr/bin/WebKitWebDriver CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
export WASM_BINDGEN_TEST_TIMEOUT=${WASM_BINDGEN_TEST_TIMEOUT:-180}
export JSC_useWasmIPInt=${JSC_useWasmIPInt:-0} JSC_useWasmLLInt=${JSC_useWasmLLInt:-0} JSC_useOMGJIT=${JSC_useOMGJIT:-0}
env | grep '^JSC_' | sort > $dir/settings.txt
descendants() { # pids under $1
  ps -e -o pid=,ppid= | awk -v root=$1 '{p[$1]=$2} END {for (x in p) {y=x; while (y in p && y!=root && y>1) y=p[y]; if (y==root && x!=root) print x}}'
}
dump() { # $1 run, $2 root pid
  local out=$dir/hang-$1.txt
  echo "hang dump of run $1 at $(date -u +%FT%TZ)" > $out
  for pid in $(descendants $2); do
    comm=$(cat /proc/$pid/comm 2>/dev/null) || continue
    echo "pid $pid $comm $(awk '{print "state", $3, "utime", $14, "stime", $15}' /proc/$pid/stat)" >> $out
  done
  sleep 5
  for pid in $(descendants $2); do
    comm=$(cat /proc/$pid/comm 2>/dev/null) || continue
    echo "5 s later: pid $pid $comm $(awk '{print "state", $3, "utime", $14, "stime", $15}' /proc/$pid/stat)" >> $out
    case $comm in WebKitWebProces*)
      timeout 120 gdb -p $pid -batch -ex 'handle SIGUSR1 SIGUSR2 SIGSEGV SIGBUS nostop noprint pass' \
        -ex 'info threads' -ex 'thread apply all bt 30' 2>&1 | grep -v '^\[New LWP' >> $out ;;
    esac
  done
}
passed=0; failed=0
for i in $(seq 1 $runs); do
  if [ "${LOOP_COLD_CACHE:-}" = 1 ]; then rm -rf "$dir/cold-cache"; export XDG_CACHE_HOME=$dir/cold-cache; fi
  if [ "${LOOP_DROP_PAGE_CACHE:-}" = 1 ]; then sync; echo 3 > /proc/sys/vm/drop_caches; fi
  start=$(date +%s)
  nice -n 10 xvfb-run -a -s '-screen 0 1280x1024x24 -noreset' cargo test --target wasm32-unknown-unknown --test wasm_idb -- "$@" > $dir/run.log 2>&1 &
  cpid=$!; dumped=0
  while kill -0 $cpid 2>/dev/null; do
    sleep 5
    if [ $dumped = 0 ] && [ $(( $(date +%s) - start )) -gt ${HANG_AFTER:-120} ]; then dump $i $cpid; dumped=1; fi
  done
  wait $cpid; rc=$?
  if [ $rc = 0 ]; then
    passed=$((passed+1))
  else
    failed=$((failed+1)); cp $dir/run.log $dir/run-$i.log
    echo "run $i failed: $(grep -E 'panicked|RuntimeError|CRASH|WRONG|FAILED|Error' $dir/run.log | head -3)" >> $dir/out.txt
  fi
  echo "progress: $i runs, $passed passed, $failed failed $(date -u +%FT%TZ) ($(( $(date +%s)-start )) s)" >> $dir/out.txt
done
echo "loop-webkit-suite: $((passed+failed)) runs, $passed passed, $failed failed" >> $dir/out.txt
