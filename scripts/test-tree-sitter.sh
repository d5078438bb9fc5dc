#!/usr/bin/env bash
# Generates the tree-sitter grammar in editors/tree-sitter-nvasm into
# target/tree-sitter-nvasm (the generated parser is not committed: see
# editors/tree-sitter-nvasm/README.md) and runs its corpus and highlight
# tests with the tree-sitter CLI (`tree-sitter generate`, `tree-sitter
# test`, which compiles the parser with the system C compiler).
# Needs `tree-sitter` on PATH: scripts/test.sh installs it with
# `cargo install tree-sitter-cli` when it is missing.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
src="$root/editors/tree-sitter-nvasm"
out="$root/target/tree-sitter-nvasm"

if ! command -v tree-sitter >/dev/null; then
  echo "test-tree-sitter.sh: tree-sitter is not installed (cargo install tree-sitter-cli --locked)" >&2
  exit 1
fi

rm -rf "$out"
mkdir -p "$out/config"
cp -r "$src/grammar.js" "$src/tree-sitter.json" "$src/queries" "$src/test" "$out/"
# The highlight tests see only the capture names of the CLI's theme; this
# one names every capture of queries/highlights.scm (the default theme has
# no `label`, for one), and no parser directories are searched.
names=$(grep -o '@[a-z][a-z.]*' "$src/queries/highlights.scm" | sort -u | sed 's/^@//')
{
  echo '{"parser-directories": [], "theme": {'
  first=1
  for n in $names; do
    [ $first = 1 ] || echo ','
    first=0
    printf '"%s": 1' "$n"
  done
  echo '}}'
} > "$out/config/config.json"

cd "$out"
tree-sitter generate
tree-sitter test --config-path "$out/config/config.json"
