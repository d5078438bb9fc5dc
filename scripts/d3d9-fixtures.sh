#!/bin/sh
# Regenerates tests/fixtures/d3d9/ with vkd3d-compiler 2.1 (a fixture-making
# tool, not a build or test dependency; ../shared/spec/related/d3d9/README.md
# shows how to run it unpacked from Debian's unstable suite):
#
#   compiled/NAME.PROFILE.d3dbc      HLSL hlsl/NAME.hlsl compiled for PROFILE
#   */NAME.d3d-asm                   vkd3d-compiler's disassembly (-b d3d-asm)
#   */NAME.vkd3d.spv                 vkd3d-compiler's own SPIR-V, where it can
#                                    translate the shader (the second oracle)
#
# The hand fixtures' .d3dbc come from their .asm through nvp4c's assembler:
#   NVP4C_BLESS_D3D9=1 cargo test --test tools d3d9_fixtures::hand
#
# Usage: VKD3D=/path/to/vkd3d-compiler scripts/d3d9-fixtures.sh
set -eu
: "${VKD3D:?set VKD3D to a vkd3d-compiler 2.1 command}"
cd "$(dirname "$0")/../tests/fixtures/d3d9"
for src in hlsl/*.hlsl; do
    name=$(basename "$src" .hlsl)
    case "$name" in
        vs_*) profiles="vs_1_1 vs_2_0 vs_2_a vs_3_0" ;;
        ps_*) profiles="ps_2_0 ps_2_a ps_2_b ps_3_0" ;;
    esac
    for p in $profiles; do
        out="compiled/$name.$p.d3dbc"
        # Not every profile can express every source (vkd3d-compiler says
        # why on stderr); those combinations have no fixture.
        $VKD3D -x hlsl -p "$p" -b d3dbc -o "$out" "$src" 2>/dev/null || rm -f "$out"
    done
done
for bin in compiled/*.d3dbc hand/*.d3dbc; do
    base=${bin%.d3dbc}
    $VKD3D -x d3dbc -b d3d-asm -o "$base.d3d-asm" "$bin" 2>/dev/null || rm -f "$base.d3d-asm"
    if $VKD3D -x d3dbc -b spirv-binary -o "$base.vkd3d.spv" "$bin" 2>/dev/null; then
        spirv-val "$base.vkd3d.spv" || rm -f "$base.vkd3d.spv"
    else
        rm -f "$base.vkd3d.spv"
    fi
done
