#!/usr/bin/env bash
# Runs N generated programs (default 10000) from a random seed (or SEED) on
# the Vulkan device and in the reference interpreter, and compares them:
# N assembly-family programs and N AGAL programs.
# Mismatches are shrunk and saved in tests/differential/.
# Then MESA_N generated !!ARBfp1.0 and MESA_N !!ARBvp1.0 programs (default
# N / 10: each is drawn twice, as 64 rectangles, by Mesa's GL and by nvp4c
# on lavapipe) from the same seed, every pixel compared
# (tests/device/piglit/generated.rs, docs/conformance.md).
#   scripts/differential.sh [N] [SEED]
#   MESA_N=2000 scripts/differential.sh 0       # only the Mesa differential
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-10000}
seed=${2:-$(( (RANDOM << 32) | (RANDOM << 16) | RANDOM ))}
mesa_n=${MESA_N:-$(( n / 10 ))}
echo "differential: $n programs from seed $seed; $mesa_n of each ARB type through Mesa's GL"
lvp=$(compgen -G "/usr/share/vulkan/icd.d/lvp_icd.*.json" | head -n 1 || true)
[ -n "${VK_DRIVER_FILES:-}" ] || [ -z "$lvp" ] || export VK_DRIVER_FILES="$lvp"
export MESA_SHADER_CACHE_DISABLE=true
if [ "$n" -gt 0 ]; then
    NVP4C_DIFF_COUNT=$n NVP4C_DIFF_SEED=$seed NVP4C_AGAL_DIFF_COUNT=$n NVP4C_AGAL_DIFF_SEED=$seed \
        cargo test --release --test device differential -- --nocapture
fi
if [ "$mesa_n" -gt 0 ]; then
    NVP4C_MESA_DIFF_COUNT=$mesa_n NVP4C_MESA_DIFF_SEED=$seed \
        cargo test --release --test device generated_arb_programs_draw_the_same_on_mesa_gl_and_lavapipe -- --nocapture
fi
