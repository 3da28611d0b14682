#!/usr/bin/env bash
# The dependency direction of design.md, checked by grep (style.md 3.1): the engine sees nothing
# above it, the REST layer never sees the store or JavaScript, the store layer (record layouts
# included) stays pure Rust. Comment lines are skipped, because
# each layer's `//!` doc names exactly what it may not import. Prints the offending lines.
set -uo pipefail
cd "$(dirname "$0")/.."

# grep -rn output is `file:line:text`; drop hits whose text is a comment.
code_only() { grep -vE '^[^:]+:[0-9]+:[[:space:]]*//'; }

status=0
if grep -rnE 'crate::(rest|store|wasm)|web_sys|js_sys|wasm_bindgen' src/engine | code_only; then
  echo "layering: src/engine must not import rest, store, wasm or JS bindings" >&2
  status=1
fi
if grep -rnE 'crate::(store|wasm)|web_sys|js_sys' src/rest | code_only; then
  echo "layering: src/rest must not import store, wasm or JS bindings" >&2
  status=1
fi
if grep -rnE 'crate::(rest|wasm|http1)|web_sys|js_sys|wasm_bindgen' src/store | code_only; then
  echo "layering: src/store must not import rest, wasm, http1 or JS bindings" >&2
  status=1
fi
if grep -rnE 'crate::(engine|rest|store|wasm)|web_sys|js_sys|wasm_bindgen' src/http1 | code_only; then
  echo "layering: src/http1 must not import engine, rest, store, wasm or JS bindings" >&2
  status=1
fi
[ "$status" -eq 0 ] && echo "layering: ok (engine, rest, store and http1 import nothing from the layers above)"
exit "$status"
