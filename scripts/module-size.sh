#!/usr/bin/env bash
# Measures how much bigger nvp4c's unoptimised SPIR-V is than its optimised
# output (`-O`, the spirv-tools performance passes) over spec-corpus/valid
# (issue 8: unoptimised within 1.5x of optimised). Prints one line per
# program and the totals; exits non-zero if any compile fails.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo build --release --quiet --bin nvp4c
nvp4c=target/release/nvp4c
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

total_plain=0
total_opt=0
status=0
printf '%-44s %10s %10s %7s\n' program unoptimised optimised ratio
for f in spec-corpus/valid/*.[vfg]p; do
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
  printf '%-44s %10d %10d %7s\n' "$name" "$plain" "$opt" \
    "$(awk -v a="$plain" -v b="$opt" 'BEGIN { printf "%.2f", a / b }')"
done
printf '%-44s %10d %10d %7s\n' TOTAL "$total_plain" "$total_opt" \
  "$(awk -v a="$total_plain" -v b="$total_opt" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')"
exit $status
