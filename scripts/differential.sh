#!/usr/bin/env bash
# Runs N generated programs (default 10000) from a random seed (or SEED) on
# the Vulkan device and in the reference interpreter, and compares them:
# N assembly-family programs and N AGAL programs.
# Mismatches are shrunk and saved in tests/differential/.
#   scripts/differential.sh [N] [SEED]
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-10000}
seed=${2:-$(( (RANDOM << 32) | (RANDOM << 16) | RANDOM ))}
echo "differential: $n programs from seed $seed"
lvp=$(compgen -G "/usr/share/vulkan/icd.d/lvp_icd.*.json" | head -n 1 || true)
[ -n "${VK_DRIVER_FILES:-}" ] || [ -z "$lvp" ] || export VK_DRIVER_FILES="$lvp"
export MESA_SHADER_CACHE_DISABLE=true
NVP4C_DIFF_COUNT=$n NVP4C_DIFF_SEED=$seed NVP4C_AGAL_DIFF_COUNT=$n NVP4C_AGAL_DIFF_SEED=$seed \
    exec cargo test --release --test device differential -- --nocapture
