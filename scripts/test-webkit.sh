#!/usr/bin/env bash
# The wasm browser suites (tests/wasm_browser.rs, tests/wasm_idb.rs) in WebKitGTK: wasm-bindgen's
# test runner drives Debian's WebKitWebDriver as it drives safaridriver, and WebKitGTK has no
# headless mode, so it runs under xvfb-run.
#
# JSC_useWasmIPIntLoopOSR=0: WebKitGTK 2.50's JavaScriptCore corrupts a float that is live when a
# hot loop moves from its wasm interpreter to the baseline JIT (loop OSR entry; WebKit bug
# 301435, fixed upstream in 302112@main). It once turned the 100k reopen test's start time into
# 0 and failed that run; `a_float_held_across_a_hot_loop_survives_tier_up` in
# tests/wasm_browser.rs fails without this setting. Functions still reach the JIT when next
# called; only the jump into it in the middle of a loop is off.
set -euo pipefail
cd "$(dirname "$0")/.."
export SAFARIDRIVER=/usr/bin/WebKitWebDriver
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
export WASM_BINDGEN_TEST_TIMEOUT=${WASM_BINDGEN_TEST_TIMEOUT:-180}
export JSC_useWasmIPIntLoopOSR=${JSC_useWasmIPIntLoopOSR:-0}
# -noreset: Xvfb otherwise resets when its last client goes (the first test binary's browser), and
# a browser that connects meanwhile gets "cannot open display" (tests/persistence/browsers.mjs).
exec xvfb-run -a -s '-screen 0 1280x1024x24 -noreset' cargo test --target wasm32-unknown-unknown --test wasm_browser --test wasm_idb "$@"
