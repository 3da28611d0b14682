#!/usr/bin/env bash
# The dependency direction of docs/architecture.md, checked by grep (docs/style.md, "Layers"):
# the Rust layers in the order its layer table draws (each imports only the rows below it), the
# branches it keeps apart, and no JavaScript below src/wasm/; in the JavaScript, the page and the hosts
# never import each other, only tests/ imports tests/, and only the entry modules load the wasm
# glue. Comment lines are skipped, because each layer's `//!` doc names exactly what it may not
# import. Prints the offending lines.
set -uo pipefail
cd "$(dirname "$0")/../.."

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

# The order of the Rust layers, top first, is the one docs/architecture.md draws: the `src/<layer>/`
# rows of the code block under its "## Layers" heading. The table and src/ must name the same
# folders, or the check cannot say what it checks.
table=docs/architecture.md
mapfile -t layers < <(awk '/^## Layers/ { on = 1; next } on && /^## / { exit }
  on && /^```/ { block++; next } on && block == 1 && match($0, /^ *src\/[a-z0-9_]+\//) {
    s = substr($0, RSTART, RLENGTH); sub(/^ *src\//, "", s); sub(/\/$/, "", s); print s }' "$table")
if [ "${#layers[@]}" -eq 0 ]; then
  echo "layering: found no src/ rows in the layer table under \"## Layers\" in $table" >&2
  exit 1
fi
mapfile -t folders < <(find src -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort)
in_table=$(printf '%s\n' "${layers[@]}" | sort)
for folder in $(comm -23 <(printf '%s\n' "${folders[@]}") <(echo "$in_table")); do
  echo "layering: src/$folder/ is not in the layer table of $table: add its row where it sits" >&2
  status=1
done
for row in $(comm -13 <(printf '%s\n' "${folders[@]}") <(echo "$in_table")); do
  echo "layering: the layer table of $table names src/$row/, which does not exist" >&2
  status=1
done
[ "$status" -eq 0 ] || exit "$status"

# Down only: no layer names a layer above it, and only src/wasm/ touches JavaScript.
above=()
for layer in "${layers[@]}"; do
  pattern='' what=''
  if [ "${#above[@]}" -gt 0 ]; then
    pattern="crate::($(IFS='|'; echo "${above[*]}"))\b"
    what="$(IFS=,; echo "${above[*]}" | sed 's/,/, /g') (above it in $table)"
  fi
  if [ "$layer" != wasm ]; then
    pattern="${pattern:+$pattern|}web_sys|js_sys|wasm_bindgen"
    what="${what:+$what or }JS bindings"
  fi
  [ -n "$pattern" ] && forbid "$layer" "$pattern" "$what"
  above+=("$layer")
done
# Beside the order: the branches that stay apart (docs/architecture.md, "Layers").
forbid rest 'crate::(store|http1)\b' 'store or http1 (they are beside it, not below)'
forbid sdk 'crate::(store|http1)\b' 'store or http1 (it is the SDK transport over rest)'
forbid http1 'crate::(engine|store)\b' 'engine or store (it frames bytes and knows no queue)'

# No circle among the files of one directory of src/, of any length: in a file, `super::x` and
# `crate::<its directory's path>::x` name the sibling x.rs (or the folder x/); a file's unit
# tests (from `mod tests {` on) may use any sibling, and a folder's mod.rs and the crate's lib.rs
# only declare and re-export their children, so they are left out. tsort names the files of a
# circle.
sibling_imports() {
  local file=$1 modpath=$2
  sed '/^mod tests {/,$d' "$file" | grep -vE '^[[:space:]]*//' | grep -oE "(super|$modpath)::[a-z_0-9]+" | sed -E 's/.*:://' | sort -u
}
while read -r dir; do
  modpath=crate$(sed -E 's|^src||; s|/|::|g' <<<"$dir")
  edges=""
  for file in "$dir"/*.rs; do
    [ -f "$file" ] || continue
    a=$(basename "$file" .rs)
    [[ $a == mod || ($dir == src && ($a == lib || $a == main)) ]] && continue
    for b in $(sibling_imports "$file" "$modpath"); do
      if [ "$b" != "$a" ] && { [ -f "$dir/$b.rs" ] || [ -d "$dir/$b" ]; }; then
        edges+="$a $b"$'\n'
      fi
    done
  done
  [ -z "$edges" ] && continue
  circle=$(printf '%s' "$edges" | tsort 2>&1 >/dev/null | sed -nE 's/^tsort: ([a-z_0-9]+)$/\1/p' | sort -u | tr '\n' ' ')
  [ -z "$circle" ] && continue
  echo "layering: a circle among $dir's files: $circle" >&2
  status=1
done < <(find src -type d | sort)

# The JavaScript: every module a code line imports (`from '…'`, `import('…')`, `import '…'`,
# `require('…')`), resolved to a repository path: relative to the importing file, and `/pkg/…`
# (the URL browser code loads the build output by) to pkg/. Type-only imports live in JSDoc
# comments and are not counted. Prints `file:line:target`.
js_imports() {
  grep -nHE "(from|import|require)[[:space:]]*\(?[[:space:]]*['\"][^'\"]+['\"]" "$@" 2>/dev/null \
    | grep -vE '^[^:]+:[0-9]+:[[:space:]]*(//|\*|/\*)' \
    | sed -nE "s/^([^:]+):([0-9]+):.*(from|import|require)[[:space:]]*\(?[[:space:]]*['\"]([^'\"]+)['\"].*/\1 \2 \4/p" \
    | while read -r file line spec; do
      case $spec in
        /pkg/*) target=${spec#/} ;;
        ./* | ../*) target=$(realpath -m --relative-to=. "$(dirname "$file")/$spec") ;;
        *) continue ;; # a package or node: built-in
      esac
      # package/lib sits beside pkg/, www/ and hosts/ in the packed package (scripts/package.mjs).
      [[ $file == package/* && $target =~ ^package/(pkg|www|hosts)/ ]] && target=${target#package/}
      echo "$file:$line:$target"
    done
}
js_files() { find "$@" -type f \( -name '*.js' -o -name '*.mjs' -o -name '*.cjs' \) 2>/dev/null | sort; }
# js_forbid WHAT PATTERN FILES...: no import of FILES may resolve to a path matching PATTERN.
js_forbid() {
  local what=$1 pattern=$2
  shift 2
  [ "$#" -eq 0 ] && return
  if js_imports "$@" | grep -E ":[0-9]+:($pattern)"; then
    echo "layering: $what" >&2
    status=1
  fi
}
# The page and the service worker (www/, but for the thin command entries www/server.mjs and
# www/edge/dev.mjs, which start a host) import no host, script or test.
mapfile -t page < <(js_files www | grep -vxE 'www/server.mjs|www/edge/dev.mjs')
js_forbid 'the page (www/) must not import a host, a script or a test' '(hosts|scripts|tests)/' "${page[@]}"
# A host imports no page file, script or test.
mapfile -t hosts < <(js_files hosts)
js_forbid 'a host (hosts/) must not import the page (www/), a script or a test' '(www|scripts|tests)/' "${hosts[@]}"
# Nothing outside tests/ imports a test helper: what tests and scripts share is in scripts/lib.
mapfile -t not_tests < <(js_files www hosts scripts package src/wasm types)
js_forbid 'only tests/ may import from tests/ (shared helpers belong in scripts/lib)' 'tests/' "${not_tests[@]}"
# The wasm glue (pkg/, built by scripts/build.sh) is loaded by the entry modules alone; the rest
# of the product gets the engine's classes from them.
glue_loaders='www/main.js|www/sw.js|hosts/edge/wasm.mjs|hosts/edge/standalone.mjs|hosts/edge/dev.mjs|package/lib/(web|workerd)\.js|package/lib/node\.cjs'
mapfile -t product < <(js_files www hosts package | grep -vxE "$glue_loaders")
js_forbid "only $glue_loaders may load the build output (pkg/)" 'pkg/' "${product[@]}"

[ "$status" -eq 0 ] && echo "layering: ok (the src/ layers in docs/architecture.md's order, $(IFS=' '; echo "${layers[*]}" | sed 's/ / > /g'), import nothing from the layers above; no circle among the files of a directory of src/; the page imports no host and no host the page; nothing outside tests/ imports tests/; only the entry modules load pkg/)"
exit "$status"
