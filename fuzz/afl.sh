#!/usr/bin/env bash
# Coverage-guided fuzzing with AFL++ through cargo-afl (stable Rust; cargo-afl builds its own
# AFL++ from source when it installs, offline). Each target of fuzz/afl runs for AFL_SECONDS
# (default 120), seeded from the SDK requests in tests/fixtures/fuzz. Prints per target the
# executions, paths found and crashes, then `afl: N passed, M failed`; any crash fails the run
# (the crashing inputs stay in target/afl/<target>/default/crashes/).
set -uo pipefail
cd "$(dirname "$0")/.."
AFL_CRATE_VERSION=0.18.2
RUN_SECONDS=${AFL_SECONDS:-120}
export PATH="$HOME/.cargo/bin:$PATH"

if ! grep -q "$AFL_CRATE_VERSION" <<<"$(cargo afl --version 2>/dev/null)"; then
  cargo install cargo-afl --locked --version "$AFL_CRATE_VERSION" || exit 1
fi
out=target/afl
rm -rf "$out"
cargo run --release --example fuzz -- seeds "$out/seeds" || exit 1
(cd fuzz/afl && cargo afl build --release) || exit 1

passed=0
failed=0
for t in http1 service xml snapshot faults; do
  AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 \
    cargo afl fuzz -i "$out/seeds/$t" -o "$out/$t" -V "$RUN_SECONDS" "fuzz/afl/target/release/$t" > "$out/$t.log" 2>&1
  stats="$out/$t/default/fuzzer_stats"
  if [ ! -f "$stats" ]; then
    echo "afl $t: did not run (see $out/$t.log)"; tail -5 "$out/$t.log"; failed=$((failed + 1)); continue
  fi
  execs=$(awk -F: '/^execs_done/ { gsub(/ /, "", $2); print $2 }' "$stats")
  paths=$(awk -F: '/^corpus_count/ { gsub(/ /, "", $2); print $2 }' "$stats")
  crashes=$(find "$out/$t/default/crashes" -type f ! -name README.txt | wc -l)
  echo "afl $t: $execs executions in ${RUN_SECONDS} s, $paths paths, $crashes crashes"
  if [ "$crashes" -eq 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
echo "afl: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
