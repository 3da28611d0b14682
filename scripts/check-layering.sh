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
# forbid LAYER PATTERN WHAT: no code line under src/LAYER may match PATTERN.
forbid() {
  if grep -rnE "$2" "src/$1" | code_only; then
    echo "layering: src/$1 must not import $3" >&2
    status=1
  fi
}
forbid engine 'crate::(rest|store|wasm)|web_sys|js_sys|wasm_bindgen' 'rest, store, wasm or JS bindings'
forbid rest 'crate::(store|wasm|http1)|web_sys|js_sys' 'store, wasm, http1 or JS bindings'
forbid store 'crate::(rest|wasm|http1)|web_sys|js_sys|wasm_bindgen' 'rest, wasm, http1 or JS bindings'
forbid http1 'crate::(engine|rest|store|wasm)|web_sys|js_sys|wasm_bindgen' 'engine, rest, store, wasm or JS bindings'
forbid extensions 'crate::|web_sys|js_sys|wasm_bindgen' 'anything of this crate or JS bindings (it is the leaf all layers share)'

# No file in src/wasm imports one that imports it back (`super::x` names the sibling file x.rs).
imports() { grep -vE '^[[:space:]]*//' "src/wasm/$1.rs" | grep -oE 'super::[a-z_0-9]+' | sed 's/super:://' | sort -u; }
for file in src/wasm/*.rs; do
  a=$(basename "$file" .rs)
  [ "$a" = mod ] && continue
  for b in $(imports "$a"); do
    if [ -f "src/wasm/$b.rs" ] && [[ "$a" < "$b" ]] && grep -qx "$a" <<<"$(imports "$b")"; then
      echo "layering: src/wasm/$a.rs and src/wasm/$b.rs import each other" >&2
      status=1
    fi
  done
done
[ "$status" -eq 0 ] && echo "layering: ok (engine, rest, store, http1 and extensions import nothing from the layers above; no two files of src/wasm import each other)"
exit "$status"
