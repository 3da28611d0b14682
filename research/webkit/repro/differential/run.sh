#!/usr/bin/env bash
# Runs random modules in V8 (Node) and in JavaScriptCore under several tier settings, and
# prints each module whose observations differ from V8's (issue 23; README.md):
#   differential/run.sh <first seed> <batches> [modules a batch, default 200] [rounds, default 20]
# DIFF_KIND=integers: modules without floating-point values or instructions; DIFF_KIND=rust-like:
# integers only, no multi-value blocks or results, larger functions (src/lib.rs, `Kind`).
# One line a batch: the settings, and for each the seeds that differed; the last line the tally.
# Needs ../jsc-run (see ../README.md) and `cargo build --release` here.
set -euo pipefail
cd "$(dirname "$0")"
# Each setting below is all of JavaScriptCore's options that differ from its defaults.
while read -r name; do unset "$name"; done < <(compgen -e | grep '^JSC_' || true)
first=${1:?first seed}; batches=${2:?batches}; size=${3:-200}; rounds=${4:-20}
work=${DIFF_WORK:-/tmp/tierup-differential}; mkdir -p "$work"
generate=target/release/tierup-differential
[ -x $generate ] || cargo build --release -q
# name|JSC options. "sync": OMG compiles at the trigger, so tier-up points are deterministic.
low='JSC_thresholdForOMGOptimizeAfterWarmUp=20 JSC_thresholdForOMGOptimizeSoon=2'
settings=(
  "defaults|"
  "bbq-only|JSC_useWasmIPInt=0 JSC_useWasmLLInt=0 JSC_useOMGJIT=0"
  "bbq-omg|JSC_useWasmIPInt=0 JSC_useWasmLLInt=0 JSC_useOMGJIT=1"
  "bbq-omg-soon|JSC_useWasmIPInt=0 JSC_useWasmLLInt=0 JSC_useOMGJIT=1 $low"
  "bbq-omg-soon-sync|JSC_useWasmIPInt=0 JSC_useWasmLLInt=0 JSC_useOMGJIT=1 JSC_useConcurrentJIT=0 $low"
)
declare -A differed
modules=0
case ${DIFF_KIND:-floats} in
  integers) flag=--no-floats ;;
  rust-like) flag=--rust-like ;;
  *) flag= ;;
esac
for ((b = 0; b < batches; b++)); do
  seed=$((first + b * size))
  $generate $flag $seed $size $work/bundle.bin
  node ../node-run.mjs $work/bundle.bin $rounds differential/differential.js > $work/v8.txt
  [ $(wc -l < $work/v8.txt) = $((size + 1)) ] || { echo "V8 did not finish seeds $seed.." >&2; exit 1; }
  line="seeds $seed..$((seed + size - 1)):"
  for s in "${settings[@]}"; do
    name=${s%%|*}
    env ${s#*|} ../jsc-run $work/bundle.bin differential.js $rounds > $work/$name.txt || true
    if [ "$(head -1 $work/$name.txt)" != ok ] || [ $(wc -l < $work/$name.txt) != $(wc -l < $work/v8.txt) ]; then
      echo "$name: JavaScriptCore did not finish seeds $seed..: $(head -c 300 $work/$name.txt)" >&2; exit 1
    fi
    seeds=$(paste -d' ' $work/v8.txt $work/$name.txt | awk -v first=$seed 'NR > 1 && $2 != $7 && $5 == 0 && $10 == 0 { sub("m", "", $1); printf "%d ", first + $1 }')
    line+=" $name [${seeds% }]"
    differed[$name]=$(( ${differed[$name]:-0} + $(wc -w <<< "$seeds") ))
  done
  modules=$((modules + size))
  echo "$line"
done
tally="differential: $modules modules, $rounds rounds:"
for s in "${settings[@]}"; do name=${s%%|*}; tally+=" $name ${differed[$name]} differed;"; done
echo "$tally"
