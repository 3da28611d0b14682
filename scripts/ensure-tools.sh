#!/usr/bin/env bash
# Makes sure the tools a task needs are present, installing only what is missing:
#
#   scripts/ensure-tools.sh build   the wasm32 target, wasm-bindgen-cli, the npm dev dependencies
#                                   (wasm-opt, esbuild, the SDK the page bundles): `make build`
#   scripts/ensure-tools.sh demo    what `make demo` needs: the same as build
#   scripts/ensure-tools.sh [test]  everything the test layers use besides: wasm-pack, Chromium,
#                                   Firefox ESR and geckodriver, WebKitGTK and Xvfb, openssl, the
#                                   Python venv (the default: `make test`, `make tools`)
#
# Idempotent and quick (well under a second) when everything is already there, so `make test`
# can call it every time. The versions are pinned in toolchain.md; the wasm-bindgen CLI must equal
# the `wasm-bindgen` crate in Cargo.lock or wasm-pack goes to the network.
set -euo pipefail
cd "$(dirname "$0")/.."

MODE=${1:-test}
case "$MODE" in
  build | demo | test) ;;
  *)
    printf 'usage: %s [build|demo|test]\n' "$0" >&2
    exit 2
    ;;
esac
# True when the test layers' tools are wanted too.
for_tests() { [ "$MODE" = test ]; }

WASM_PACK_VERSION=0.15.1
WASM_BINDGEN_VERSION=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
WASM_BINDGEN_VERSION=${WASM_BINDGEN_VERSION:-0.2.130}

say() { printf 'ensure-tools: %s\n' "$*"; }

# True when `$1 --version` prints a first line starting with "$2". The whole output is read
# before it is tested: `tool --version | grep -q` fails under pipefail whenever grep exits before
# the tool has written its last line (geckodriver prints several; 1 check in 8 failed that way),
# and the reinstall it set off refused to overwrite the binary.
has_version() {
  local out
  out=$("$1" --version 2>/dev/null) || return 1
  case "${out%%$'\n'*}" in "$2"*) return 0 ;; *) return 1 ;; esac
}

# 1. The wasm target. rustup downloads it; if the download is refused, the copy kept beside the
#    shared docs fits rustc 1.95.0 only.
installed_targets=$(rustup target list --installed 2>/dev/null || true)
if ! grep -qx wasm32-unknown-unknown <<<"$installed_targets"; then
  say "adding rust target wasm32-unknown-unknown"
  if ! rustup target add wasm32-unknown-unknown; then
    tarball=../shared/toolchain/rust-std-wasm32-unknown-unknown-1.95.0.tar.xz
    if [ "$(rustc --version | cut -d' ' -f2)" = 1.95.0 ] && [ -f "$tarball" ]; then
      say "rustup failed; extracting $tarball into the sysroot"
      tar -xJf "$tarball" -C "$(rustc --print sysroot)/lib/rustlib/"
    else
      say "cannot get the wasm32 target (rustup failed and no matching fallback)" >&2
      exit 1
    fi
  fi
fi

# 2. wasm-pack (its own lock file resolves offline-ish from the registry): `wasm-pack test` only;
#    the build calls the wasm-bindgen CLI itself.
if for_tests && ! has_version wasm-pack "wasm-pack $WASM_PACK_VERSION"; then
  say "installing wasm-pack $WASM_PACK_VERSION (about 2.5 minutes)"
  cargo install wasm-pack --version "$WASM_PACK_VERSION" --locked --force
fi

# 3. wasm-bindgen CLI, exactly the crate's version. Not --locked: its lock file wants a
#    webpki-roots release the registry mirror here does not have (toolchain.md, pitfall 4).
if ! has_version wasm-bindgen "wasm-bindgen $WASM_BINDGEN_VERSION"; then
  say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (about 3 minutes)"
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force
fi

# 4. Chromium and its driver for `wasm-pack test --headless --chrome` and Playwright.
#    Never Debian's binaryen: its wasm-opt 108 breaks the output (toolchain.md, pitfall 2).
if for_tests && { ! command -v chromedriver >/dev/null || ! command -v chromium >/dev/null; }; then
  say "installing chromium and chromium-driver"
  sudo_if_needed() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
  sudo_if_needed apt-get update
  sudo_if_needed env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium chromium-driver
fi
# The HTTPS tests make their certificates with the openssl CLI (Debian images carry it; a
# slimmed one may not).
if for_tests && ! command -v openssl >/dev/null; then
  say "installing openssl"
  sudo_if_needed() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
  sudo_if_needed apt-get update
  sudo_if_needed env DEBIAN_FRONTEND=noninteractive apt-get install -y openssl
fi
if [ -x /usr/bin/wasm-opt ]; then
  say "warning: /usr/bin/wasm-opt (Debian binaryen) is installed; wasm-pack may pick it up and break the output" >&2
fi

# 5. JS dependencies: reinstall when node_modules is missing or older than the manifest/lock.
if [ -f package-lock.json ]; then
  if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ] \
     || [ package.json -nt node_modules/.package-lock.json ]; then
    # `npm ci`: installs exactly what the lock names and never rewrites it, so `make test`
    # leaves the working tree as it found it. The lock is complete (deno's optional
    # @deno/<platform> packages for every system included); `npm ci` refuses one that is not in
    # step with package.json: after changing package.json, run `npm install` and commit the lock.
    say "npm ci (from package-lock.json)"
    npm ci --no-audit --no-fund
  fi
elif [ ! -d node_modules ] || [ package.json -nt node_modules ]; then
  say "npm install (no package-lock.json yet)"
  npm install --no-audit --no-fund
fi

if ! for_tests; then
  exit 0
fi

# 6. Python SDK for the smoke test, in a project-local venv.
if [ ! -x .venv/bin/python ] || ! .venv/bin/python -c 'import azure.storage.queue' 2>/dev/null; then
  say "creating .venv with azure-storage-queue"
  python3 -m venv .venv
  .venv/bin/pip install --quiet --disable-pip-version-check azure-storage-queue
fi

# 7. Firefox and geckodriver for `wasm-pack test --headless --firefox` (geckodriver builds from
#    crates.io; wasm-pack would otherwise try to download one).
GECKODRIVER_VERSION=0.37.1
if ! command -v firefox-esr >/dev/null; then
  say "installing firefox-esr"
  sudo_if_needed() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
  sudo_if_needed apt-get update
  sudo_if_needed env DEBIAN_FRONTEND=noninteractive apt-get install -y firefox-esr
fi
# 8. WebKitGTK's WebDriver (MiniBrowser) and a virtual display for it: wasm-bindgen's runner
#    drives it as it drives safaridriver (SAFARIDRIVER=/usr/bin/WebKitWebDriver), under xvfb-run.
if ! command -v WebKitWebDriver >/dev/null || ! command -v xvfb-run >/dev/null; then
  say "installing webkit2gtk-driver and xvfb"
  sudo_if_needed() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
  sudo_if_needed apt-get update
  sudo_if_needed env DEBIAN_FRONTEND=noninteractive apt-get install -y webkit2gtk-driver xvfb
fi
if ! has_version geckodriver "geckodriver $GECKODRIVER_VERSION"; then
  say "installing geckodriver $GECKODRIVER_VERSION (about 5 minutes)"
  cargo install geckodriver --version "$GECKODRIVER_VERSION" --locked --force
fi
