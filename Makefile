# Entry points. Each recipe is a small script under scripts/ so it can be run on its own.
.PHONY: tools build test demo bench fuzz

tools:
	scripts/ensure-tools.sh

# www/pkg (web) and www/pkg-node (nodejs) from one release build of the wasm library.
build:
	scripts/build.sh

# Every layer, in order of cost; ends with `N passed, M failed` (layers) and fails if any did.
test:
	scripts/test-all.sh

# The Azurite-compatible server: REST on 127.0.0.1:10001, the page on 127.0.0.1:8080.
demo: tools build
	node www/server.mjs

bench:
	scripts/bench.sh

# The structured fuzzer over every target for FUZZ_SECONDS (default 600; failures go to
# target/fuzz-failures/), then AFL++ on each coverage-guided target for AFL_SECONDS (default 120).
fuzz:
	cargo run --release --example fuzz -- run --seconds $${FUZZ_SECONDS:-600}
	scripts/fuzz/afl.sh
