#!/usr/bin/env bash
# nvp4c (release) on NV_gpu_program4 programs against glslangValidator -V on
# hand-written GLSL equivalents (benches/glsl/), side by side with hyperfine.
# Prints the ratio nvp4c/glslang per program, with and without nvp4c's
# in-process validation (docs/performance.md has the targets and figures).
#
#   scripts/bench-vs-glslang.sh            # needs hyperfine, glslang-tools
set -euo pipefail
cd "$(dirname "$0")/.."

for tool in hyperfine glslangValidator; do
  command -v "$tool" >/dev/null || { echo "bench-vs-glslang: $tool missing (Debian: apt-get install hyperfine glslang-tools)" >&2; exit 1; }
done
command -v jq >/dev/null || { echo "bench-vs-glslang: jq missing (apt-get install jq)" >&2; exit 1; }

cargo build --release --quiet
nvp4c=target/release/nvp4c
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

pairs=(
  "examples/tint.fp benches/glsl/tint.frag"
  "tests/programs/lighting.vp benches/glsl/lighting.vert"
)

mean() { jq -r ".results[$1].mean" "$out/r.json"; }

printf '%-28s %12s %12s %12s %9s %9s\n' program nvp4c nvp4c-noval glslang ratio ratio-noval
for pair in "${pairs[@]}"; do
  set -- $pair
  nv=$1 gl=$2
  hyperfine -N --warmup 20 --min-runs 200 --export-json "$out/r.json" --style none \
    "$nvp4c $nv -o $out/nv.spv" \
    "$nvp4c --no-validate $nv -o $out/nv.spv" \
    "glslangValidator -V $gl -o $out/gl.spv" >/dev/null 2>&1
  a=$(mean 0) b=$(mean 1) g=$(mean 2)
  printf '%-28s %10.3fms %10.3fms %10.3fms %8.3fx %8.3fx\n' "$(basename "$nv")" \
    "$(echo "$a*1000" | bc -l)" "$(echo "$b*1000" | bc -l)" "$(echo "$g*1000" | bc -l)" \
    "$(echo "$a/$g" | bc -l)" "$(echo "$b/$g" | bc -l)"
done
echo "ratio = nvp4c time / glslangValidator -V time (targets: <= 0.05 validated, <= 0.02 with --no-validate)"
