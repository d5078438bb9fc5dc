#!/bin/sh
# The whole compile's linearity (issue 17: 10x the input in at most 11x
# the time), in the process's own timing: ROUNDS rounds of one 10 MB and
# five 1 MB compiles of the generated Cg-style program, interleaved so
# both sizes see the same machine; prints medians, minima and their ratio.
#
#   scripts/linearity.sh [ROUNDS] [BINARY]
#
# BINARY defaults to the release build of examples/compile_big (built here
# if missing). docs/performance.md, "Session 11 (linearity)".
set -eu
rounds=${1:-6}
bin=${2:-target/release/examples/compile_big}
[ -x "$bin" ] || cargo build --release --example compile_big
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
seconds() { "$bin" "$1" --no-validate 2>&1 | tail -1 | sed 's/.*ok=true, \([0-9.]*\) s.*/\1/'; }
for _ in $(seq "$rounds"); do
    seconds 10 >>"$tmp/10"
    for _ in 1 2 3 4 5; do seconds 1 >>"$tmp/1"; done
done
python3 - "$tmp/10" "$tmp/1" <<'PY'
import statistics as st, sys
a = [float(x) for x in open(sys.argv[1])]
b = [float(x) for x in open(sys.argv[2])]
print(f"10 MB: median {st.median(a):.3f} s, min {min(a):.3f} s ({len(a)} runs)")
print(f"1 MB: median {st.median(b) * 1e3:.1f} ms, min {min(b) * 1e3:.1f} ms ({len(b)} runs)")
print(f"ratio of medians {st.median(a) / st.median(b):.2f}x, of minima {min(a) / min(b):.2f}x")
PY
