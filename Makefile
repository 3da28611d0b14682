# Entry points. Each recipe is a small script under scripts/ so it can be run on its own.
.PHONY: tools build test demo bench package fuzz test-webkit

tools:
	scripts/ensure-tools.sh

# pkg/web (web, built for size) and pkg/node (nodejs, built for speed): scripts/build.sh, after
# installing only the tools the build needs (scripts/ensure-tools.sh build).
build:
	scripts/ensure-tools.sh build
	scripts/build.sh

# Every layer, in order of cost; ends with `N passed, M failed` (layers) and fails if any did.
test:
	scripts/test-all.sh

# The Azurite-compatible server: REST on 127.0.0.1:10001, the page on 127.0.0.1:8080.
# Installs only what the demo needs (no browsers, drivers or Python).
demo:
	scripts/ensure-tools.sh demo
	scripts/build.sh
	node hosts/node/server.mjs --inMemoryPersistence --webPort 8080

bench:
	scripts/bench.sh

# The npm package: dist/azqueue-<version>.tgz (prebuilt wasm and glue; the path is the last line).
package: build
	node scripts/package.mjs

# The structured fuzzer over every target for FUZZ_SECONDS (default 600; failures go to
# target/fuzz-failures/), then AFL++ on each coverage-guided target for AFL_SECONDS (default 120).
fuzz:
	cargo run --release --example fuzz -- run --seconds $${FUZZ_SECONDS:-600}
	fuzz/afl.sh

# The browser suites in WebKitGTK alone (make test runs them too, layer wasm-webkit):
# scripts/test-webkit.sh, then the JavaScriptCore faults it is set against (tests/webkit/), then
# the shipped pkg/web in JavaScriptCore with every tier on, as Safari runs it (layer package).
test-webkit: tools build
	scripts/test-webkit.sh
	node --test tests/webkit/
	node --test tests/package/javascriptcore.test.mjs
