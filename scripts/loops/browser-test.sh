#!/usr/bin/env bash
# Runs one wasm browser test alone, again and again, each run in a fresh browser, and counts:
#   scripts/loops/browser-test.sh <webkit|chrome|firefox> <runs> [test binary] [test name]
# Defaults: tests/wasm_idb.rs, the_log_folds_and_replays_to_the_engine_state (issue 23). The
# test binary is built once; scripts/loops/browser-test.mjs then serves its page once and runs
# it in a new browser each time (WebKitGTK under one Xvfb, with the settings of
# scripts/test-webkit.sh unless JSC_* is set). A failed run's page output is kept in
# $LOOP_LOGS (default /tmp/loop-<browser>), the driver's and browser's own output in
# $LOOP_LOGS/driver.log; the last line is the tally. Nothing is retried. Ignored tests run too
# when named (the_log_sequence_again_and_again, the stress variant).
set -euo pipefail
cd "$(dirname "$0")/../.."
browser=${1:?browser: webkit, chrome or firefox}
runs=${2:?number of runs}
binary=${3:-wasm_idb}
test=${4:-the_log_folds_and_replays_to_the_engine_state}
logs=${LOOP_LOGS:-/tmp/loop-$browser}
mkdir -p "$logs"

# LOOP_WASM: a test binary built (or rewritten, scripts/loops/wasm-target-features.mjs) elsewhere.
wasm=${LOOP_WASM:-}
[ -n "$wasm" ] || wasm=$(cargo test --target wasm32-unknown-unknown --test "$binary" --no-run --message-format=json 2>/dev/null |
  node -e '
    let last = "";
    require("readline").createInterface({ input: process.stdin }).on("line", (l) => {
      const m = JSON.parse(l);
      if (m.reason === "compiler-artifact" && m.executable && m.target.kind.includes("test")) last = m.executable;
    }).on("close", () => console.log(last));')
[ -n "$wasm" ] || { echo "no test binary built for $binary" >&2; exit 1; }

export WASM_BINDGEN_TEST_TIMEOUT=${WASM_BINDGEN_TEST_TIMEOUT:-180}
unset SAFARIDRIVER CHROMEDRIVER GECKODRIVER
case $browser in
  webkit)
    export SAFARIDRIVER=/usr/bin/WebKitWebDriver
    export JSC_useWasmIPInt=${JSC_useWasmIPInt:-0} JSC_useWasmLLInt=${JSC_useWasmLLInt:-0}
    export JSC_useOMGJIT=${JSC_useOMGJIT:-0}
    ;;
  chrome) export CHROMEDRIVER=${CHROMEDRIVER:-$(command -v chromedriver)} ;;
  firefox) export GECKODRIVER=${GECKODRIVER:-$(command -v geckodriver)} ;;
  *) echo "unknown browser $browser" >&2; exit 2 ;;
esac
env | grep '^JSC_' | sort | sed 's/^/loop setting: /' || true

if [ "$browser" = webkit ]; then
  exec xvfb-run -a -s '-screen 0 1280x1024x24 -noreset' \
    node scripts/loops/browser-test.mjs "$browser" "$runs" "$wasm" "$test"
fi
exec node scripts/loops/browser-test.mjs "$browser" "$runs" "$wasm" "$test"
