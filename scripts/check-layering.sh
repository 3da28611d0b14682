#!/usr/bin/env bash
# The dependency direction of design.md, checked by grep (style.md 3.1): the engine sees nothing
# above it, the REST layer never sees the store or JavaScript. Prints the offending lines.
set -uo pipefail
cd "$(dirname "$0")/.."
status=0
if grep -rnE 'crate::(rest|store|wasm)|web_sys|js_sys|wasm_bindgen' src/engine; then
  echo "layering: src/engine must not import rest, store, wasm or JS bindings" >&2
  status=1
fi
if grep -rnE 'crate::(store|wasm)|web_sys|js_sys' src/rest; then
  echo "layering: src/rest must not import store, wasm or JS bindings" >&2
  status=1
fi
[ "$status" -eq 0 ] && echo "layering: ok (engine and rest import nothing from the layers above)"
exit "$status"
