//! AGAL programs on the device: every opcode, register type and sampler
//! mode, with values a person computed from Adobe's "AGAL bytecode format"
//! definitions (and docs/semantics.md, "AGAL", where nvp4c picks).
//!
//! Fragment programs run one point per case (`FragmentJob`): varying `v<n>`
//! is Location 14 + n (docs/interface.md, "AGAL"), `fc<n>` is
//! `program.env[n]`. Vertex programs run with transform feedback
//! (`VertexJob`): `va<n>` is Location n, `vc<n>` `program.env[n]`. Samplers
//! are created from the reflection's sampler state, as a renderer would.

use ash::vk;

use crate::harness::{
    self, fbits, Capture, FragmentJob, FragmentOutput, Input, RasterJob, SamplerDesc, Texture,
    TextureKind, VertexJob,
};
use nvp4c::ir::{Filter, MipmapMode, SamplerState, Wrap};

/// Location of varying `v<n>`.
fn v(n: u32) -> u32 {
    14 + n
}

fn compile_with(text: &str, options: &nvp4c::Options) -> nvp4c::Compiled {
    nvp4c::compile(text, options)
        .unwrap_or_else(|d| panic!("{}", d.render("test.agalasm", text, false)))
}

/// Compiles AGAL assembly whose first line names its stage and version.
fn compile(text: &str) -> nvp4c::Compiled {
    compile_with(text, &nvp4c::Options::default())
}

/// The Vulkan sampler a renderer builds from the reflection's state.
fn sampler_desc(s: &SamplerState) -> SamplerDesc {
    let filter = match s.filter {
        Filter::Nearest => vk::Filter::NEAREST,
        Filter::Linear => vk::Filter::LINEAR,
    };
    let address = |w: Wrap| match w {
        Wrap::Repeat => vk::SamplerAddressMode::REPEAT,
        Wrap::ClampToEdge => vk::SamplerAddressMode::CLAMP_TO_EDGE,
    };
    let (mipmap, max_lod) = match s.mipmap {
        // Vulkan's "no mipmapping": NEAREST with maxLod 0.25.
        MipmapMode::None => (vk::SamplerMipmapMode::NEAREST, 0.25),
        MipmapMode::Nearest => (vk::SamplerMipmapMode::NEAREST, 1000.0),
        MipmapMode::Linear => (vk::SamplerMipmapMode::LINEAR, 1000.0),
    };
    SamplerDesc {
        filter,
        mipmap,
        address: address(s.wrap_u),
        address_v: Some(address(s.wrap_v)),
        max_lod,
        max_anisotropy: s.max_anisotropy as f32,
        ..SamplerDesc::default()
    }
}

/// Texture `unit` with the sampler the compiled program's reflection asks for.
fn bind(compiled: &nvp4c::Compiled, t: Texture) -> Texture {
    let unit = t.unit;
    let state = compiled
        .reflection
        .textures
        .iter()
        .find(|u| u.unit == unit)
        .and_then(|u| u.sampler)
        .unwrap_or_else(|| panic!("the reflection has no sampler state for unit {unit}"));
    t.with_sampler(sampler_desc(&state))
}

fn run_fragment(spirv: &[u32], job: &FragmentJob) -> Option<FragmentOutput> {
    let dev = harness::device_or_skip()?;
    Some(
        dev.run_fragment(spirv, job)
            .unwrap_or_else(|e| panic!("run failed: {e}")),
    )
}

/// Runs a fragment program over cases of varyings `v0`, `v1`, ... with
/// constants `fc0`, `fc1`, ...
fn fragment(text: &str, cases: &[Vec<[f32; 4]>], fc: &[[f32; 4]]) -> Option<FragmentOutput> {
    let spirv = compile(text).spirv;
    let cases = cases
        .iter()
        .map(|vs| {
            vs.iter()
                .enumerate()
                .map(|(n, x)| Input::float(v(n as u32), *x))
                .collect()
        })
        .collect();
    let job = FragmentJob {
        env: fc.iter().map(|c| fbits(*c)).collect(),
        ..FragmentJob::new(cases)
    };
    run_fragment(&spirv, &job)
}

#[track_caller]
fn close(got: [f32; 4], want: [f32; 4], tolerance: f32, what: &str) {
    for c in 0..4 {
        let ok = (got[c] - want[c]).abs() <= tolerance * want[c].abs().max(1.0);
        assert!(ok, "{what}: got {got:?}, want {want:?} (component {c})");
    }
}

#[test]
fn add_sub_mul_div_are_componentwise() {
    let text =
        "// AGAL2 fragment\nadd oc, v0, v1\nsub oc1, v0, v1\nmul oc2, v0, v1\ndiv oc3, v0, v1\n";
    let Some(out) = fragment(
        text,
        &[vec![[1.0, 2.0, 3.0, 4.0], [2.0, 4.0, 0.5, -8.0]]],
        &[],
    ) else {
        return;
    };
    assert_eq!(out.color_f32(0, 0), [3.0, 6.0, 3.5, -4.0], "add");
    assert_eq!(out.color_f32(0, 1), [-1.0, -2.0, 2.5, 12.0], "sub");
    assert_eq!(out.color_f32(0, 2), [2.0, 8.0, 1.5, -32.0], "mul");
    assert_eq!(out.color_f32(0, 3), [0.5, 0.5, 6.0, -0.5], "div");
}

#[test]
fn min_max_frc_neg() {
    let text = "// AGAL2 fragment\nmin oc, v0, v1\nmax oc1, v0, v1\nfrc oc2, v0\nneg oc3, v0\n";
    let Some(out) = fragment(
        text,
        &[vec![[1.25, -2.75, 3.0, 0.5], [2.0, -3.0, 3.0, -1.0]]],
        &[],
    ) else {
        return;
    };
    assert_eq!(out.color_f32(0, 0), [1.25, -3.0, 3.0, -1.0], "min");
    assert_eq!(out.color_f32(0, 1), [2.0, -2.75, 3.0, 0.5], "max");
    // frc = x - floor(x): -2.75 - (-3) = 0.25.
    assert_eq!(out.color_f32(0, 2), [0.25, 0.25, 0.0, 0.5], "frc");
    assert_eq!(out.color_f32(0, 3), [-1.25, 2.75, -3.0, -0.5], "neg");
}

#[test]
fn abs_sat_and_the_set_opcodes() {
    let text = "// AGAL2 fragment\nabs oc, v0\nsat oc1, v2\nsge oc2, v0, v1\nslt oc3, v0, v1\n";
    let cases = [vec![
        [1.25, -2.75, 3.0, 0.5],
        [2.0, -3.0, 3.0, -1.0],
        [-0.5, 0.25, 1.5, 1.0],
    ]];
    let Some(out) = fragment(text, &cases, &[]) else {
        return;
    };
    assert_eq!(out.color_f32(0, 0), [1.25, 2.75, 3.0, 0.5], "abs");
    assert_eq!(out.color_f32(0, 1), [0.0, 0.25, 1.0, 1.0], "sat");
    assert_eq!(out.color_f32(0, 2), [0.0, 1.0, 1.0, 1.0], "sge");
    assert_eq!(out.color_f32(0, 3), [1.0, 0.0, 0.0, 0.0], "slt");
}

#[test]
fn seq_sne_sgn_and_swizzles_and_masks() {
    let text = "// AGAL3 fragment\nseq oc, v0, v1\nsne oc1, v0, v1\nsgn oc2, v2\n\
                mov ft0, v0.wzyx\nmov ft0.yw, v1.x\nmov oc3, ft0\n";
    let cases = [vec![
        [1.25, -2.75, 3.0, 0.5],
        [2.0, -3.0, 3.0, -1.0],
        [-2.0, 0.0, 3.0, -0.25],
    ]];
    let Some(out) = fragment(text, &cases, &[]) else {
        return;
    };
    assert_eq!(out.color_f32(0, 0), [0.0, 0.0, 1.0, 0.0], "seq");
    assert_eq!(out.color_f32(0, 1), [1.0, 1.0, 0.0, 1.0], "sne");
    // sgn(0) may come back as -0.0 on lavapipe (docs/semantics.md); compare values.
    assert_eq!(out.color_f32(0, 2), [-1.0, 0.0, 1.0, -1.0], "sgn");
    // .wzyx = (0.5, 3, -2.75, 1.25), then y and w from v1.x = 2.
    assert_eq!(
        out.color_f32(0, 3),
        [0.5, 2.0, -2.75, 2.0],
        "mov with swizzle and mask"
    );
}

#[test]
fn rcp_rsq_sqt_pow_per_component() {
    let text = "// AGAL2 fragment\nrcp oc, v0\nrsq oc1, v1\nsqt oc2, v2\npow oc3, v3, v4\n";
    let cases = [vec![
        [4.0, -0.5, 8.0, 0.25],
        [4.0, 16.0, 0.25, 1.0],
        [9.0, 0.0, 2.25, 16.0],
        [2.0, 9.0, 4.0, 10.0],
        [3.0, 0.5, -1.0, 0.0],
    ]];
    let Some(out) = fragment(text, &cases, &[]) else {
        return;
    };
    close(out.color_f32(0, 0), [0.25, -2.0, 0.125, 4.0], 3e-7, "rcp");
    close(out.color_f32(0, 1), [0.5, 0.25, 2.0, 1.0], 3e-7, "rsq");
    close(out.color_f32(0, 2), [3.0, 0.0, 1.5, 4.0], 6e-7, "sqt");
    close(out.color_f32(0, 3), [8.0, 3.0, 0.25, 1.0], 1e-5, "pow");
}

#[test]
fn log_exp_sin_cos_per_component() {
    use std::f32::consts::PI;
    let text = "// AGAL2 fragment\nlog oc, v0\nexp oc1, v1\nsin oc2, v2\ncos oc3, v3\n";
    let cases = [vec![
        [8.0, 1.0, 0.5, 1024.0],
        [3.0, 0.0, -1.0, 0.5],
        [0.0, PI / 2.0, PI, -PI / 6.0],
        [0.0, PI / 2.0, PI, PI / 3.0],
    ]];
    let Some(out) = fragment(text, &cases, &[]) else {
        return;
    };
    close(out.color_f32(0, 0), [3.0, 0.0, -1.0, 10.0], 1e-5, "log");
    close(
        out.color_f32(0, 1),
        [8.0, 1.0, 0.5, std::f32::consts::SQRT_2],
        1e-5,
        "exp",
    );
    close(out.color_f32(0, 2), [0.0, 1.0, 0.0, -0.5], 1e-4, "sin");
    close(out.color_f32(0, 3), [1.0, 0.0, -1.0, 0.5], 1e-4, "cos");
}

#[test]
fn a_destination_that_is_also_a_source_is_read_before_it_is_written() {
    // Per-component expansions go through a temporary (lower.rs): rcp of
    // .yxwz must see the old x when it writes y.
    let text = "// AGAL2 fragment\nmov ft0, v0\nrcp ft0, ft0.yxwz\nmov oc, ft0\n\
                mov ft1, v0\ndiv ft1, ft1.wzyx, ft1\nmov oc1, ft1\n\
                mov ft2, v1\nm44 ft2, ft2, fc0\nmov oc2, ft2\n\
                mov ft3, v0\npow ft3, ft3.y, ft3\nmov oc3, ft3\n";
    let fc = [
        [1.0, 2.0, 3.0, 4.0],
        [0.0, 1.0, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.0],
        [1.0, 1.0, 1.0, 1.0],
    ];
    let cases = [vec![[2.0, 4.0, 8.0, 0.5], [1.0, 2.0, 3.0, 4.0]]];
    let Some(out) = fragment(text, &cases, &fc) else {
        return;
    };
    assert_eq!(out.color_f32(0, 0), [0.25, 0.5, 2.0, 0.125], "rcp in place");
    assert_eq!(out.color_f32(0, 1), [0.25, 2.0, 0.5, 4.0], "div in place");
    assert_eq!(out.color_f32(0, 2), [30.0, 2.0, 3.0, 10.0], "m44 in place");
    close(
        out.color_f32(0, 3),
        [16.0, 256.0, 65536.0, 2.0],
        1e-5,
        "pow in place (4^x)",
    );
}

#[test]
fn dot_products_cross_product_and_normalize() {
    let text = "// AGAL2 fragment\ndp3 oc, v0, v1\ndp4 oc1, v0, v1\n\
                crs ft0.xyz, v2, v3\nmov ft0.w, fc0.x\nmov oc2, ft0\n\
                nrm ft1.xyz, v4\nmov ft1.w, fc0.x\nmov oc3, ft1\n";
    let cases = [vec![
        [1.0, 2.0, 3.0, 4.0],
        [5.0, 6.0, 7.0, 8.0],
        [1.0, 2.0, 3.0, 9.0],
        [4.0, 5.0, 6.0, 9.0],
        [3.0, 0.0, 4.0, 9.0],
    ]];
    let Some(out) = fragment(text, &cases, &[[7.0, 0.0, 0.0, 0.0]]) else {
        return;
    };
    assert_eq!(out.color_f32(0, 0), [38.0; 4], "dp3 = 5 + 12 + 21");
    assert_eq!(out.color_f32(0, 1), [70.0; 4], "dp4 = 38 + 32");
    // (2·6 − 3·5, 3·4 − 1·6, 1·5 − 2·4)
    assert_eq!(out.color_f32(0, 2), [-3.0, 6.0, -3.0, 7.0], "crs");
    close(out.color_f32(0, 3), [0.6, 0.0, 0.8, 7.0], 1e-6, "nrm");
}

#[test]
fn matrix_opcodes_take_rows_from_consecutive_registers() {
    let text = "// AGAL2 fragment\nm33 ft0.xyz, v0, fc0\nmov ft0.w, fc9.x\nmov oc, ft0\n\
                m44 oc1, v0, fc3\n\
                m34 ft1.xyz, v0, fc7\nmov ft1.w, fc9.x\nmov oc2, ft1\n\
                m44 oc3, v0.xxxx, fc3\n";
    let fc = [
        // m33 rows fc0-fc2 (w unused)
        [1.0, 0.0, 0.0, 99.0],
        [0.0, 2.0, 0.0, 99.0],
        [1.0, 1.0, 1.0, 99.0],
        // m44 rows fc3-fc6
        [1.0, 2.0, 3.0, 4.0],
        [0.0, 1.0, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.0],
        [1.0, 1.0, 1.0, 1.0],
        // m34 rows fc7-fc9
        [1.0, 0.0, 0.0, 1.0],
        [0.0, 1.0, 0.0, 1.0],
        [0.0, 0.0, 1.0, 1.0],
    ];
    let Some(out) = fragment(text, &[vec![[1.0, 2.0, 3.0, 4.0]]], &fc) else {
        return;
    };
    assert_eq!(
        out.color_f32(0, 0),
        [1.0, 4.0, 6.0, 0.0],
        "m33: (1, 2·2, 1 + 2 + 3)"
    );
    assert_eq!(
        out.color_f32(0, 1),
        [30.0, 2.0, 3.0, 10.0],
        "m44: (1 + 4 + 9 + 16, 2, 3, 10)"
    );
    assert_eq!(
        out.color_f32(0, 2),
        [5.0, 6.0, 7.0, 0.0],
        "m34: (1 + 4, 2 + 4, 3 + 4)"
    );
    // The vector's swizzle applies: (1, 1, 1, 1).
    assert_eq!(out.color_f32(0, 3), [10.0, 1.0, 1.0, 4.0], "m44 of v0.xxxx");
}

#[test]
fn ife_ine_ifg_ifl_els_eif_choose_blocks() {
    let text = "// AGAL2 fragment
mov ft0, fc0
ife v0.x, v0.y
mov ft0.x, fc1.x
els
mov ft0.x, fc1.y
eif
ine v0.x, v0.y
mov ft0.y, fc1.x
eif
ifg v0.x, v0.y
mov ft0.z, fc1.x
eif
ifl v0.x, v0.y
mov ft0.w, fc1.x
ife v0.z, v0.w
mov ft0.w, fc1.z
eif
eif
mov oc, ft0
ife v1, v2
mov ft1, fc1.x
els
mov ft1, fc1.y
eif
mov oc1, ft1
";
    let fc = [[0.0; 4], [1.0, 2.0, 3.0, 0.0]];
    let cases = [
        vec![
            [1.0, 1.0, 0.0, 0.0],
            [1.0, 2.0, 3.0, 4.0],
            [1.0, 2.0, 3.0, 4.0],
        ],
        vec![
            [2.0, 1.0, 0.0, 0.0],
            [1.0, 2.0, 3.0, 4.0],
            [1.0, 2.0, 3.0, 5.0],
        ],
        vec![[0.0, 1.0, 5.0, 5.0], [0.0; 4], [0.0; 4]],
        vec![[0.0, 1.0, 5.0, 6.0], [0.0; 4], [0.0; 4]],
    ];
    let Some(out) = fragment(text, &cases, &fc) else {
        return;
    };
    // 1 == 1: ife taken (x = 1); ine not; ifg: 1 > 1 is false (docs/semantics.md:
    // greater, not greater-or-equal); ifl not.
    assert_eq!(out.color_f32(0, 0), [1.0, 0.0, 0.0, 0.0], "x = y");
    assert_eq!(out.color_f32(1, 0), [2.0, 1.0, 1.0, 0.0], "x > y");
    assert_eq!(
        out.color_f32(2, 0),
        [2.0, 1.0, 0.0, 3.0],
        "x < y, nested ife taken"
    );
    assert_eq!(
        out.color_f32(3, 0),
        [2.0, 1.0, 0.0, 1.0],
        "x < y, nested ife not taken"
    );
    // Whole vectors: every component must be equal.
    assert_eq!(out.color_f32(0, 1), [1.0; 4], "equal vectors");
    assert_eq!(out.color_f32(1, 1), [2.0; 4], "vectors differing in w");
}

#[test]
fn kil_discards_when_a_component_is_negative() {
    let text = "// AGAL1 fragment\nkil v0.x\nkil v1\nmov oc, v2\n";
    let cases = [
        vec![[-1.0, 0.0, 0.0, 0.0], [0.0; 4], [1.0; 4]],
        vec![[0.0, -5.0, 0.0, 0.0], [0.0; 4], [2.0; 4]],
        vec![[0.5, 0.0, 0.0, 0.0], [1.0, 1.0, -0.25, 1.0], [3.0; 4]],
        vec![[0.5, 0.0, 0.0, 0.0], [1.0, 1.0, 0.0, 1.0], [4.0; 4]],
    ];
    let Some(out) = fragment(text, &cases, &[]) else {
        return;
    };
    assert!(out.killed(0), "v0.x = -1");
    assert_eq!(
        out.color_f32(1, 0),
        [2.0; 4],
        "0 is not below zero; y is not read"
    );
    assert!(out.killed(2), "a negative z in `kil v1`");
    assert_eq!(out.color_f32(3, 0), [4.0; 4]);
}

#[test]
fn od_writes_the_depth_from_x() {
    let spirv = compile("// AGAL2 fragment\nmov od, v0.z\nmov oc, v0\n").spirv;
    let cases = (0..3)
        .map(|k| vec![Input::float(v(0), [0.0, 0.0, 0.25 * k as f32 + 0.125, 1.0])])
        .collect();
    let job = FragmentJob {
        depth: true,
        ..FragmentJob::new(cases)
    };
    let Some(out) = run_fragment(&spirv, &job) else {
        return;
    };
    for k in 0..3 {
        assert_eq!(out.depth_f32(k), Some(0.25 * k as f32 + 0.125), "case {k}");
    }
}

/// Per-vertex inputs `va0`, `va1`, ... of each vertex.
fn vertices(list: &[Vec<[f32; 4]>]) -> Vec<Vec<Input>> {
    list.iter()
        .map(|attrs| {
            attrs
                .iter()
                .enumerate()
                .map(|(n, a)| Input::float(n as u32, *a))
                .collect()
        })
        .collect()
}

#[test]
fn vertex_registers_relative_constants_and_matrices() {
    let text = "// AGAL2 vertex
mov vt0, vc[va0.x+2]
mov v0, vt0
mov v1, vc[va0.y+0]
mov v2, vc[va0.z+250].zw
m44 op, va1, vc4
mov v3, va1
add v3, v3, vc7
";
    let mut vc = vec![[0.0f32; 4]; 256];
    vc[0] = [10.0, 11.0, 12.0, 13.0];
    vc[3] = [30.0, 31.0, 32.0, 33.0];
    vc[4] = [1.0, 0.0, 0.0, 0.0];
    vc[5] = [0.0, 2.0, 0.0, 0.0];
    vc[6] = [0.0, 0.0, 3.0, 0.0];
    vc[7] = [0.0, 0.0, 0.0, 1.0];
    vc[249] = [0.0, 0.0, 249.0, 249.5];
    let spirv = compile(text).spirv;
    let job = VertexJob {
        env: vc.iter().map(|c| fbits(*c)).collect(),
        ..VertexJob::new(
            vertices(&[
                // index 1.7 truncates to 1: vc[1 + 2] = vc3; -3 + 0 clamps to vc0;
                // 10 + 250 clamps to the last constant, vc249.
                vec![[1.7, -3.0, 10.0, 0.0], [1.0, 1.0, 1.0, 1.0]],
                vec![[1.0, 0.0, 0.0, 0.0], [2.0, -1.0, 0.5, 1.0]],
            ]),
            vec![
                Capture::Position,
                Capture::Location(v(0)),
                Capture::Location(v(1)),
                Capture::Location(v(2)),
                Capture::Location(v(3)),
            ],
        )
    };
    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    let out = dev.run_vertex(&spirv, &job).expect("runs");
    assert_eq!(
        out.location_f32(0, v(0)),
        [30.0, 31.0, 32.0, 33.0],
        "vc[1.7 + 2] is vc3"
    );
    assert_eq!(
        out.location_f32(0, v(1)),
        [10.0, 11.0, 12.0, 13.0],
        "vc[-3] clamps to vc0"
    );
    assert_eq!(
        out.location_f32(0, v(2)),
        [249.0, 249.5, 249.5, 249.5],
        "vc[260] clamps to vc249, .zw"
    );
    assert_eq!(
        out.location_f32(1, v(0)),
        [30.0, 31.0, 32.0, 33.0],
        "vc[1 + 2]"
    );
    assert_eq!(out.position_f32(0), [1.0, 2.0, 3.0, 1.0], "m44 op");
    assert_eq!(out.position_f32(1), [2.0, -2.0, 1.5, 1.0], "m44 op");
    // A vertex program may read back the varying it wrote.
    assert_eq!(
        out.location_f32(0, v(3)),
        [1.0, 1.0, 1.0, 2.0],
        "v3 read back"
    );
}

#[test]
fn flip_y_negates_the_positions_y() {
    let mut options = nvp4c::Options::default();
    options.agal.flip_y = true;
    let spirv = compile_with("// AGAL1 vertex\nmov op, va0\n", &options).spirv;
    let job = VertexJob::new(
        vertices(&[vec![[0.5, 0.25, 0.75, 1.0]]]),
        vec![Capture::Position],
    );
    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    let out = dev.run_vertex(&spirv, &job).expect("runs");
    assert_eq!(out.position_f32(0), [0.5, -0.25, 0.75, 1.0]);
}

#[test]
fn iid_is_the_instance_index_as_a_float() {
    let spirv = compile("// AGAL3 vertex\nmov op, va0\nadd v0, va1, iid.x\nmov v1, iid\n").spirv;
    let job = VertexJob {
        first_instance: 3,
        ..VertexJob::new(
            vertices(&[vec![[0.0; 4], [1.0, 2.0, 3.0, 4.0]]]),
            vec![Capture::Location(v(0)), Capture::Location(v(1))],
        )
    };
    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    let out = dev.run_vertex(&spirv, &job).expect("runs");
    assert_eq!(out.location_f32(0, v(0)), [4.0, 5.0, 6.0, 7.0]);
    // A scalar built-in read as a vector is (v, 0, 0, 0) (docs/semantics.md).
    assert_eq!(out.location_f32(0, v(1)), [3.0, 0.0, 0.0, 0.0]);
}

/// A 4×4 RGBA32F texture whose texel (i, j) is (i, j, 0, 1), with `levels`
/// mip levels of the same pattern scaled by 10^level.
fn grid_texture(unit: u32) -> Texture {
    let texels = (0..4)
        .flat_map(|j| (0..4).map(move |i| [i as f32, j as f32, 0.0, 1.0]))
        .collect();
    Texture::rgba32f_2d(unit, 4, 4, vec![texels])
}

#[test]
fn tld_fetches_textures_in_vertex_programs() {
    // Level 0 of a 2×2 texture and its 1×1 level 1; the bias is the level.
    let text = "// AGAL3 vertex\nmov op, va0\ntld v0, va1, vs0 <2d,nearest,mipnearest>\ntld v1, va1, vs0 <2d,nearest,mipnearest,1>\n";
    let compiled = compile(text);
    let level0 = vec![
        [1.0, 0.0, 0.0, 1.0],
        [2.0, 0.0, 0.0, 1.0],
        [3.0, 0.0, 0.0, 1.0],
        [4.0, 0.0, 0.0, 1.0],
    ];
    let level1 = vec![[9.0, 9.0, 9.0, 1.0]];
    let texture = bind(
        &compiled,
        Texture::rgba32f_2d(0, 2, 2, vec![level0, level1]),
    );
    let job = VertexJob {
        textures: vec![texture],
        ..VertexJob::new(
            vertices(&[
                vec![[0.0; 4], [0.75, 0.75, 0.0, 0.0]],
                vec![[0.0; 4], [0.25, 0.75, 0.0, 0.0]],
            ]),
            vec![Capture::Location(v(0)), Capture::Location(v(1))],
        )
    };
    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    let out = dev.run_vertex(&compiled.spirv, &job).expect("runs");
    assert_eq!(
        out.location_f32(0, v(0)),
        [4.0, 0.0, 0.0, 1.0],
        "texel (1, 1)"
    );
    assert_eq!(
        out.location_f32(1, v(0)),
        [3.0, 0.0, 0.0, 1.0],
        "texel (0, 1)"
    );
    assert_eq!(out.location_f32(0, v(1)), [9.0, 9.0, 9.0, 1.0], "level 1");
}

/// Samples `fs0` of `text` (fragment, `v0` the coordinate) with the
/// reflection's sampler at `coords`; returns oc per case.
fn sample(text: &str, texture: Texture, coords: &[[f32; 4]]) -> Option<Vec<[f32; 4]>> {
    let compiled = compile(text);
    let texture = bind(&compiled, texture);
    let job = FragmentJob {
        textures: vec![texture],
        ..FragmentJob::new(
            coords
                .iter()
                .map(|c| vec![Input::float(v(0), *c)])
                .collect(),
        )
    };
    let out = run_fragment(&compiled.spirv, &job)?;
    Some((0..coords.len()).map(|k| out.color_f32(k, 0)).collect())
}

#[test]
fn nearest_and_linear_filters() {
    let coords = [[0.375, 0.625, 0.0, 0.0], [0.5, 0.625, 0.0, 0.0]];
    let Some(nearest) = sample(
        "// AGAL1 fragment\ntex ft0, v0, fs0 <2d,nearest,mipnone,clamp>\nmov oc, ft0\n",
        grid_texture(0),
        &coords,
    ) else {
        return;
    };
    assert_eq!(nearest[0], [1.0, 2.0, 0.0, 1.0], "texel (1, 2)");
    let Some(linear) = sample(
        "// AGAL1 fragment\ntex ft0, v0, fs0 <2d,linear,mipnone,clamp>\nmov oc, ft0\n",
        grid_texture(0),
        &coords,
    ) else {
        return;
    };
    assert_eq!(linear[0], [1.0, 2.0, 0.0, 1.0], "at a texel centre");
    // u = 0.5 is halfway between the centres of texels 1 and 2.
    close(
        linear[1],
        [1.5, 2.0, 0.0, 1.0],
        1.0 / 256.0,
        "between two texels",
    );
    for a in [
        "anisotropic2x",
        "anisotropic4x",
        "anisotropic8x",
        "anisotropic16x",
    ] {
        let text =
            format!("// AGAL2 fragment\ntex ft0, v0, fs0 <2d,{a},mipnone,clamp>\nmov oc, ft0\n");
        let compiled = compile(&text);
        let state = compiled.reflection.textures[0].sampler.unwrap();
        let n: u32 = a
            .trim_start_matches("anisotropic")
            .trim_end_matches('x')
            .parse()
            .unwrap();
        assert_eq!(
            (state.filter, state.max_anisotropy),
            (Filter::Linear, n),
            "{a}"
        );
        // A point has no footprint: anisotropic filtering is linear filtering.
        let Some(got) = sample(&text, grid_texture(0), &coords) else {
            return;
        };
        close(got[1], [1.5, 2.0, 0.0, 1.0], 1.0 / 256.0, a);
    }
}

#[test]
fn wrap_modes() {
    // u = 1.375 repeats to 0.375 (texel 1) or clamps to texel 3; v = 1.625
    // repeats to 0.625 (texel 2) or clamps to 3.
    let at = [[1.375, 1.625, 0.0, 0.0], [-0.625, 0.125, 0.0, 0.0]];
    let expect = [
        ("repeat", [[1.0, 2.0, 0.0, 1.0], [1.0, 0.0, 0.0, 1.0]]),
        ("wrap", [[1.0, 2.0, 0.0, 1.0], [1.0, 0.0, 0.0, 1.0]]),
        ("clamp", [[3.0, 3.0, 0.0, 1.0], [0.0, 0.0, 0.0, 1.0]]),
        (
            "clamp_u_repeat_v",
            [[3.0, 2.0, 0.0, 1.0], [0.0, 0.0, 0.0, 1.0]],
        ),
        (
            "repeat_u_clamp_v",
            [[1.0, 3.0, 0.0, 1.0], [1.0, 0.0, 0.0, 1.0]],
        ),
    ];
    for (mode, want) in expect {
        let text = format!(
            "// AGAL2 fragment\ntex ft0, v0, fs0 <2d,nearest,mipnone,{mode}>\nmov oc, ft0\n"
        );
        let Some(got) = sample(&text, grid_texture(0), &at) else {
            return;
        };
        assert_eq!(got, want, "{mode}");
    }
}

#[test]
fn cube_and_3d_dimensions() {
    // A 1×1 cube map: face k holds (k, 0, 0, 1) (+X, -X, +Y, -Y, +Z, -Z).
    let faces: Vec<u32> = (0..6)
        .flat_map(|k| fbits([k as f32, 0.0, 0.0, 1.0]))
        .collect();
    let cube = Texture::new(
        0,
        TextureKind::Cube,
        vk::Format::R32G32B32A32_SFLOAT,
        1,
        1,
        1,
        6,
        vec![faces],
    );
    let dirs = [
        [1.0, 0.1, 0.2, 0.0],
        [-1.0, 0.1, 0.2, 0.0],
        [0.1, -1.0, 0.2, 0.0],
        [0.2, 0.1, 1.0, 0.0],
    ];
    let Some(got) = sample(
        "// AGAL1 fragment\ntex ft0, v0, fs0 <cube,nearest,mipnone,clamp>\nmov oc, ft0\n",
        cube,
        &dirs,
    ) else {
        return;
    };
    assert_eq!(
        got.iter().map(|c| c[0]).collect::<Vec<_>>(),
        [0.0, 1.0, 3.0, 4.0],
        "faces +X, -X, -Y, +Z"
    );
    // A 2×2×2 3D texture: voxel (i, j, k) holds (i, j, k, 1).
    let voxels: Vec<u32> = (0..2)
        .flat_map(|k| {
            (0..2).flat_map(move |j| {
                (0..2).flat_map(move |i| fbits([i as f32, j as f32, k as f32, 1.0]))
            })
        })
        .collect();
    let volume = Texture::new(
        0,
        TextureKind::D3,
        vk::Format::R32G32B32A32_SFLOAT,
        2,
        2,
        2,
        1,
        vec![voxels],
    );
    let at = [[0.75, 0.25, 0.75, 0.0], [0.25, 0.75, 0.25, 0.0]];
    let Some(got) = sample(
        "// AGAL2 fragment\ntex ft0, v0, fs0 <3d,nearest,mipnone,clamp>\nmov oc, ft0\n",
        volume,
        &at,
    ) else {
        return;
    };
    assert_eq!(got, [[1.0, 0.0, 1.0, 1.0], [0.0, 1.0, 0.0, 1.0]]);
}

#[test]
fn format_hints_and_special_flags() {
    let coords = [[0.375, 0.625, 0.0, 0.0]];
    for (word, format) in [
        ("rgba", nvp4c::ir::TextureFormat::Rgba),
        ("compressed", nvp4c::ir::TextureFormat::Dxt1),
        ("dxt1", nvp4c::ir::TextureFormat::Dxt1),
        ("compressedalpha", nvp4c::ir::TextureFormat::Dxt5),
        ("dxt5", nvp4c::ir::TextureFormat::Dxt5),
        ("video", nvp4c::ir::TextureFormat::Video),
    ] {
        let text =
            format!("// AGAL2 fragment\ntex ft0, v0, fs0 <2d,nearest,{word}>\nmov oc, ft0\n");
        assert_eq!(
            compile(&text).reflection.textures[0]
                .sampler
                .unwrap()
                .format,
            format,
            "{word}"
        );
        // What the texture holds is the renderer's upload; sampling is the same.
        let Some(got) = sample(&text, grid_texture(0), &coords) else {
            return;
        };
        assert_eq!(got[0], [1.0, 2.0, 0.0, 1.0], "{word}");
    }
    // `single`: reported, warned about (W2010), no effect.
    let single = "// AGAL2 fragment\ntex ft0, v0, fs0 <2d,nearest,single>\nmov oc, ft0\n";
    let compiled = compile(single);
    assert!(compiled.reflection.textures[0].sampler.unwrap().single);
    assert_eq!(
        compiled.warnings.iter().map(|d| d.code).collect::<Vec<_>>(),
        ["W2010"]
    );
    let Some(got) = sample(single, grid_texture(0), &coords) else {
        return;
    };
    assert_eq!(got[0], [1.0, 2.0, 0.0, 1.0], "single");
    // `centroid`: the coordinate varying is interpolated at the centroid.
    let centroid = "// AGAL2 fragment\ntex ft0, v0, fs0 <2d,nearest,centroid>\nmov oc, ft0\n";
    let compiled = compile(centroid);
    assert!(compiled.reflection.textures[0].sampler.unwrap().centroid);
    assert!(compiled.reflection.inputs[0].centroid, "v0 is centroid");
    let texture = bind(&compiled, grid_texture(0));
    let job = FragmentJob {
        textures: vec![texture],
        flat_varyings: false,
        ..FragmentJob::new(vec![vec![Input::float(v(0), coords[0])]])
    };
    let Some(out) = run_fragment(&compiled.spirv, &job) else {
        return;
    };
    assert_eq!(out.color_f32(0, 0), [1.0, 2.0, 0.0, 1.0], "centroid");
    // `ignoresampler`: no state in the reflection; the renderer's sampler
    // (here linear) is used, not the token's nearest.
    let ignore = "// AGAL2 fragment\ntex ft0, v0, fs0 <2d,nearest,ignoresampler>\nmov oc, ft0\n";
    let compiled = compile(ignore);
    assert!(compiled.reflection.textures[0].sampler.is_none());
    let texture = grid_texture(0).with_sampler(SamplerDesc {
        filter: vk::Filter::LINEAR,
        ..SamplerDesc::default()
    });
    let job = FragmentJob {
        textures: vec![texture],
        ..FragmentJob::new(vec![vec![Input::float(v(0), [0.5, 0.625, 0.0, 0.0])]])
    };
    let Some(out) = run_fragment(&compiled.spirv, &job) else {
        return;
    };
    close(
        out.color_f32(0, 0),
        [1.5, 2.0, 0.0, 1.0],
        1.0 / 256.0,
        "ignoresampler",
    );
}

/// Draws a full-target quad (32×32 pixels) with texture coordinates 0..1
/// through `fragment` (v0 the coordinate) and returns pixel (x, y)'s colour.
fn textured_quad(fragment: &str, texture: Texture) -> Option<Vec<[f32; 4]>> {
    let mut options = nvp4c::Options::default();
    // The raster harness binds one descriptor set for both stages.
    options.descriptor_set = Some(1);
    let vs = compile_with("// AGAL1 vertex\nmov op, va0\nmov v0, va1\n", &options);
    let fs = compile_with(fragment, &options);
    let texture = bind(&fs, texture);
    let corner = |x: f32, y: f32| {
        vec![
            Input::float(0, [x, y, 0.0, 1.0]),
            Input::float(1, [(x + 1.0) / 2.0, (y + 1.0) / 2.0, 0.0, 0.0]),
        ]
    };
    let quad = vec![
        corner(-1.0, -1.0),
        corner(1.0, -1.0),
        corner(-1.0, 1.0),
        corner(1.0, 1.0),
    ];
    let job = RasterJob {
        textures: vec![texture],
        ..RasterJob::new(quad, vk::PrimitiveTopology::TRIANGLE_STRIP)
    };
    let dev = harness::device_or_skip()?;
    let out = dev
        .run_raster(&vs.spirv, None, &fs.spirv, &job)
        .expect("runs");
    Some((0..32 * 32).map(|i| out.f32(i % 32, i / 32)).collect())
}

/// A 128×128 texture whose level n is one colour: red, green, blue, white,
/// then grey.
fn levels_texture() -> Texture {
    let colours = [
        [1.0, 0.0, 0.0, 1.0],
        [0.0, 1.0, 0.0, 1.0],
        [0.0, 0.0, 1.0, 1.0],
        [1.0, 1.0, 1.0, 1.0],
    ];
    let levels = (0..8)
        .map(|l| {
            let side = 128usize >> l;
            vec![*colours.get(l).unwrap_or(&[0.5, 0.5, 0.5, 1.0]); side * side]
        })
        .collect();
    Texture::rgba32f_2d(0, 128, 128, levels)
}

#[test]
fn mipmap_modes_and_lod_bias() {
    // 128 texels over 32 pixels: 4 texels a pixel, level of detail 2.
    let cases = [
        ("mipnone", "", [1.0, 0.0, 0.0, 1.0]),
        ("nomip", "", [1.0, 0.0, 0.0, 1.0]),
        ("mipnearest", "", [0.0, 0.0, 1.0, 1.0]),
        ("mipnearest", ",1", [1.0, 1.0, 1.0, 1.0]),
        ("mipnearest", ",-1", [0.0, 1.0, 0.0, 1.0]),
        ("miplinear", ",-0.5", [0.0, 0.5, 0.5, 1.0]),
    ];
    for (mip, bias, want) in cases {
        let text =
            format!("// AGAL2 fragment\ntex ft0, v0, fs0 <2d,nearest,{mip}{bias}>\nmov oc, ft0\n");
        let Some(pixels) = textured_quad(&text, levels_texture()) else {
            return;
        };
        for (i, p) in pixels.iter().enumerate() {
            close(*p, want, 1.0 / 64.0, &format!("{mip}{bias}, pixel {i}"));
        }
    }
}

#[test]
fn ddx_and_ddy_are_derivatives_across_pixels() {
    // v0 = (u, v) grows by 1/32 a pixel across the quad.
    let text = "// AGAL2 fragment\nddx ft0, v0\nddy ft1, v0\nadd ft0.zw, ft0.xy, ft1.xy\nmov ft0.y, ft1.y\nmul oc, ft0, fc0\n";
    let mut options = nvp4c::Options::default();
    options.descriptor_set = Some(1);
    let vs = compile_with("// AGAL1 vertex\nmov op, va0\nmov v0, va1\n", &options);
    let fs = compile_with(text, &options);
    let corner = |x: f32, y: f32| {
        vec![
            Input::float(0, [x, y, 0.0, 1.0]),
            Input::float(1, [(x + 1.0) / 2.0, (y + 1.0) / 2.0, 0.0, 0.0]),
        ]
    };
    let job = RasterJob {
        env: vec![fbits([32.0; 4])],
        ..RasterJob::new(
            vec![
                corner(-1.0, -1.0),
                corner(1.0, -1.0),
                corner(-1.0, 1.0),
                corner(1.0, 1.0),
            ],
            vk::PrimitiveTopology::TRIANGLE_STRIP,
        )
    };
    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    let out = dev
        .run_raster(&vs.spirv, None, &fs.spirv, &job)
        .expect("runs");
    for (x, y) in [(0, 0), (5, 9), (31, 31)] {
        // ddx v0 = (1/32, 0), ddy v0 = (0, 1/32); times 32: x = 1, y = 1, z = 1, w = 1.
        close(
            out.f32(x, y),
            [1.0, 1.0, 1.0, 1.0],
            1e-5,
            &format!("pixel ({x}, {y})"),
        );
    }
}
