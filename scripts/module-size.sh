#!/usr/bin/env bash
# Measures how much bigger nvp4c's unoptimised SPIR-V is than its optimised
# output (`-O`, the spirv-tools performance passes) (issue 8: unoptimised
# within 1.5x of optimised), over two sets: spec-corpus/valid, the spec's
# excerpts (most write no result, so both modules are nearly empty), and the
# whole programs that do real work (examples/, tests/programs/,
# benches/render/). Prints one line per program and each set's totals;
# exits non-zero if any compile fails.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo build --release --quiet --bin nvp4c
nvp4c=target/release/nvp4c
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }

# measure TITLE FILE...: one line per file, then the set's total.
measure() {
  local title=$1 total_plain=0 total_opt=0 f name plain opt
  shift
  printf '\n%-44s %10s %10s %7s\n' "$title" unoptimised optimised ratio
  for f in "$@"; do
    name=$(basename "$f")
    if ! "$nvp4c" "$f" -o "$tmp/plain.spv" 2>"$tmp/err" ||
       ! "$nvp4c" -O "$f" -o "$tmp/opt.spv" 2>>"$tmp/err"; then
      echo "module-size.sh: compiling $f failed:" >&2
      cat "$tmp/err" >&2
      status=1
      continue
    fi
    plain=$(stat -c %s "$tmp/plain.spv")
    opt=$(stat -c %s "$tmp/opt.spv")
    total_plain=$((total_plain + plain))
    total_opt=$((total_opt + opt))
    printf '%-44s %10d %10d %7s\n' "$name" "$plain" "$opt" "$(ratio "$plain" "$opt")"
  done
  printf '%-44s %10d %10d %7s\n' TOTAL "$total_plain" "$total_opt" "$(ratio "$total_plain" "$total_opt")"
}

measure "spec-corpus/valid" spec-corpus/valid/*.[vfg]p
measure "programs that do work" examples/*.[vf]p tests/programs/*.[vfg]p benches/render/*.[vfg]p
exit $status
