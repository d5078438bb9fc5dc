//! Execution tests of NV_bindless_texture's texture handles in
//! NV_gpu_program5 assembly (`handle(a.x)` in place of `texture[n]`) on the
//! Vulkan device: each target's handles index a descriptor array of 16 at
//! binding 96 + target (2D: 97, BUFFER: 109; docs/interface.md, "Bindless
//! textures"), with handles that differ between fragments, for Vulkan 1.0
//! and 1.3. Expected values are computed by hand.

use ash::vk;

use crate::harness::{self, FragmentJob, Input, Texture, TextureKind};
use nvp4c::TargetEnv;

/// Element `e` of the 2D array: one RGBA32F texel (e, 10 e, 0, 1); of the
/// BUFFER array: one R32UI texel 100 + e.
fn arrays() -> Vec<Texture> {
    let mut out = Vec::new();
    for e in 0..16u32 {
        let texel = [e as f32, 10.0 * e as f32, 0.0, 1.0]
            .map(f32::to_bits)
            .to_vec();
        out.push(
            Texture::new(
                e,
                TextureKind::D2,
                vk::Format::R32G32B32A32_SFLOAT,
                1,
                1,
                1,
                1,
                vec![texel],
            )
            .at_element(97, e),
        );
        out.push(
            Texture::buffer(16 + e, vk::Format::R32_UINT, vec![100 + e])
                .expect("buffer texture")
                .at_element(109, e),
        );
    }
    out
}

#[test]
fn texture_handles_select_array_elements_per_fragment() {
    let src = "!!NVfp5.0
OPTION NV_bindless_texture;
OPTION ARB_draw_buffers;
UINT TEMP h, t;
TEMP a, b;
UINT OUTPUT o1 = result.color[1];
FLR.U h, fragment.texcoord[0];
TEX a, {0.5, 0.5, 0, 0}, handle(h.x), 2D;
TEX b, {0.5, 0.5, 0, 0}, handle(h.y), 2D;
ADD result.color[0], a, b;
TXF.U t, {0, 0, 0, 0}, handle(h.z), BUFFER;
MOV.U o1, t;
END
";
    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    // (h.x, h.y, h.z) per fragment; 40 is past the arrays' 16 elements:
    // nvp4c clamps it to element 15 (an invalid handle is undefined in
    // the spec).
    let handles: [[f32; 3]; 4] = [
        [1.0, 2.0, 3.0],
        [15.0, 7.0, 0.0],
        [40.0, 3.0, 9.0],
        [4.0, 4.0, 40.0],
    ];
    let cases: Vec<Vec<Input>> = handles
        .iter()
        .map(|h| vec![Input::float(5, [h[0], h[1], h[2], 0.0])])
        .collect();
    for env in [TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_3] {
        let mut o = nvp4c::Options::default();
        o.target_env = env;
        let spirv = match nvp4c::compile(src, &o) {
            Ok(c) => c.spirv,
            Err(d) => panic!("{}", d.render("t.fp", src, false)),
        };
        let mut job = FragmentJob::new(cases.clone());
        job.textures = arrays();
        let out = dev
            .run_fragment(&spirv, &job)
            .unwrap_or_else(|e| panic!("{env:?}: {e}"));
        // Texel of x plus texel of y: (x + y, 10 (x + y), 0, 2).
        let sums = [3.0, 22.0, 18.0, 8.0];
        for (i, s) in sums.iter().enumerate() {
            assert_eq!(
                out.color_f32(i, 0),
                [*s, 10.0 * s, 0.0, 2.0],
                "{env:?} case {i}"
            );
        }
        // TXF of the buffer: (100 + z, 0, 0, 1) with R32UI's (0, 0, 1).
        for (i, z) in [3, 0, 9, 15].iter().enumerate() {
            assert_eq!(out.color(i, 1), [100 + z, 0, 0, 1], "{env:?} case {i}");
        }
    }
}

#[test]
fn a_long_register_holds_a_64_bit_texture_handle() {
    // NV_bindless_texture's handles are 64-bit values: with NV_gpu_program5's
    // LONG registers the program can hold one whole (PK64 of two words),
    // and nvp4c compares it at 64 bits: 0x1_0000_0003 is past the array
    // (element 15, as every handle past it), not element 3 of its low word.
    let src = "!!NVfp5.0
OPTION NV_bindless_texture;
LONG TEMP h;
UINT TEMP w;
TEMP a;
FLR.U w, fragment.texcoord[0];
PK64.U h, w;
TEX a, {0.5, 0.5, 0, 0}, handle(h.x), 2D;
MOV result.color, a;
END
";
    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    // (low word, high word) of each fragment's handle, and the element read.
    let handles: [([f32; 2], f32); 4] = [
        ([5.0, 0.0], 5.0),
        ([3.0, 1.0], 15.0),
        ([15.0, 0.0], 15.0),
        ([2.0, 0.0], 2.0),
    ];
    let cases: Vec<Vec<Input>> = handles
        .iter()
        .map(|(h, _)| vec![Input::float(5, [h[0], h[1], 0.0, 0.0])])
        .collect();
    for env in [TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_3] {
        let mut o = nvp4c::Options::default();
        o.target_env = env;
        let spirv = match nvp4c::compile(src, &o) {
            Ok(c) => c.spirv,
            Err(d) => panic!("{}", d.render("t.fp", src, false)),
        };
        let mut job = FragmentJob::new(cases.clone());
        job.textures = arrays();
        let out = dev
            .run_fragment(&spirv, &job)
            .unwrap_or_else(|e| panic!("{env:?}: {e}"));
        // Element e's texel: (e, 10 e, 0, 1).
        for (i, (_, e)) in handles.iter().enumerate() {
            assert_eq!(
                out.color_f32(i, 0),
                [*e, 10.0 * e, 0.0, 1.0],
                "{env:?} case {i}"
            );
        }
    }
}
