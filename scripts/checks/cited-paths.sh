#!/usr/bin/env bash
# Every repository path the documents and the code's comments name must exist: README.md, docs/,
# the other top-level notes and the comments of every source, script, test and config file are
# searched for paths that start at a top-level directory (`hosts/edge/worker.mjs`, `docs/edge.md`, `src/rest/`) and for
# the relative links of the Markdown files. Globs and placeholders (`*`, `<…>`, `{…}`) are not
# paths; pkg/ is build output and counts when it names one of its four directories. Prints each
# missing path with where it is cited, and fails if there is one.
set -uo pipefail
cd "$(dirname "$0")/../.."

tops='src|www|hosts|package|scripts|tests|docs|research|benches|examples|fuzz|types|pkg'
mapfile -t files < <(git ls-files -- '*.md' '*.rs' '*.js' '*.mjs' '*.cjs' '*.ts' '*.sh' '*.py' \
  '*.json' '*.jsonc' '*.toml' '*.html' '*.css' Makefile | grep -vx 'package-lock.json')

missing=0
report() {
  echo "cited but missing: $2 ($1)" >&2
  missing=$((missing + 1))
}
exists() {
  case $1 in
    pkg | pkg/*) [[ $1 =~ ^pkg(/(web|node|edge|vendor))?(/|$) ]] ;;
    *) [ -e "$1" ] ;;
  esac
}

# The text that cites: every line of a Markdown file, the comments of the others (from `//`,
# `#` or a leading `*` or `/*` to the end of the line), as `file:line:text`.
cited_text() {
  awk '
    FNR == 1 { md = FILENAME ~ /\.md$/; hash = FILENAME ~ /(\.sh|\.py|\.toml|Makefile)$/ }
    {
      text = ""
      if (md) text = $0
      else if (hash) { if (match($0, /(^|[ \t])#/)) text = substr($0, RSTART) }
      else if (match($0, /^[ \t]*(\*|\/\*)/)) text = $0
      else if (match($0, /(^|[^:])\/\//)) text = substr($0, RSTART)
      else if (match($0, /<!--/)) text = substr($0, RSTART)
      if (text != "") print FILENAME ":" FNR ":" text
    }
  ' "${files[@]}"
}

# Paths from the repository root, wherever they are cited.
while IFS= read -r hit; do
  where=${hit%%:*}
  rest=${hit#*:}
  line=${rest%%:*}
  path=${rest#*:}
  path=${path%%[,;:)\`\'\"]*}
  path=${path%.}
  # Globs, placeholders (`<name>`, `{a,b}`, `$VAR`, `src/LAYER`) and shell variables are no path.
  [[ $path == *[\*\<\>{}\$]* || $path =~ /[A-Z][A-Z_]*(/|$) ]] && continue
  exists "$path" || report "$where:$line" "$path"
done < <(cited_text | grep -oE "^[^:]+:[0-9]+:|(^|[[:space:]\`'\"(\[])($tops)/[A-Za-z0-9_./*<>{}\$-]*" \
  | awk '/^[^:]+:[0-9]+:$/ { at = $0; next } { sub(/^[[:space:]`\x27"(\[]/, ""); print at $0 }')

# Relative links of the Markdown files, resolved from the file's directory.
while IFS= read -r hit; do
  where=${hit%%:*}
  rest=${hit#*:}
  line=${rest%%:*}
  link=${rest#*:}
  link=${link#](}
  link=${link%)}
  link=${link%%#*}
  [ -z "$link" ] && continue
  [[ $link =~ ^[a-z]+: ]] && continue
  exists "$(realpath -m --relative-to=. "$(dirname "$where")/$link")" || report "$where:$line" "$link"
done < <(git ls-files -- '*.md' | xargs grep -noHE '\]\([^)[:space:]]+\)')

if [ "$missing" -gt 0 ]; then
  echo "cited paths: $missing missing" >&2
  exit 1
fi
echo "cited paths: ok (every repository path the documents and code name exists)"
