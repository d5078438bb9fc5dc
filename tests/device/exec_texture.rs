//! Execution tests of the texture instructions (NV_gpu_program4 section
//! 2.X.4.4 and TEX, TXB, TXD, TXF, TXL, TXP, TXQ of section 2.X.8), and
//! NV_gpu_program5's TXG, TXGO, LOD and IPAC/IPAO/IPAS, on the Vulkan
//! device, with real textures uploaded by the harness at binding
//! 32 + unit (docs/interface.md, "Textures").
//!
//! Texels name themselves: texel (i, j) of layer / face / slice k of mip
//! level L of a float texture holds `[i, j, k, tag + L]`, with a tag per
//! unit (100, 200, ...), so every expected value below says which unit,
//! level and texel the spec selects. Samplers use NEAREST filtering and
//! NEAREST mipmaps (Vulkan and GL both pick level ceil(lambda + 0.5) - 1
//! for lambda > 0.5, the base level below), CLAMP_TO_EDGE.
//!
//! In the fragment runs each case is one point, so implicit derivatives
//! of a varying are 0 (lambda = -inf: the base level) unless the program
//! computes coordinates from `fragment.position`, whose derivatives are 1
//! per pixel.

use crate::harness;
use crate::harness::{
    Capture, FragmentJob, FragmentOutput, Input, SamplerDesc, Texture, TextureKind, VertexJob,
};
use ash::vk;
use nvp4c::TargetEnv;

const ENVS: [TargetEnv; 2] = [TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_3];

fn compile(src: &str, env: TargetEnv) -> Vec<u32> {
    let mut o = nvp4c::Options::default();
    o.target_env = env;
    match nvp4c::compile(src, &o) {
        Ok(c) => c.spirv,
        Err(d) => panic!(
            "compile failed ({env:?}):\n{}",
            d.render("t.fp", src, false)
        ),
    }
}

/// Runs a fragment program for every target environment.
fn run_fp(
    src: &str,
    textures: &[Texture],
    cases: Vec<Vec<Input>>,
    check: impl Fn(&FragmentOutput),
) {
    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    for env in ENVS {
        let job = FragmentJob {
            textures: textures.to_vec(),
            ..FragmentJob::new(cases.clone())
        };
        let out = dev
            .run_fragment(&compile(src, env), &job)
            .unwrap_or_else(|e| panic!("{env:?}: {e}"));
        check(&out);
    }
}

/// `[i, j, k, tag + L]` for every texel of every level (k: the layer, the
/// cube face or the 3D slice).
fn grid(kind: TextureKind, w: u32, h: u32, d: u32, layers: u32, levels: u32, tag: f32) -> Texture {
    let mut t = Texture::new(
        0,
        kind,
        vk::Format::R32G32B32A32_SFLOAT,
        w,
        h,
        d,
        layers,
        Vec::new(),
    );
    for l in 0..levels {
        let e = t.level_extent(l);
        let mut data = Vec::new();
        for layer in 0..layers {
            for z in 0..e.depth {
                for j in 0..e.height {
                    for i in 0..e.width {
                        let k = if kind == TextureKind::D3 { z } else { layer };
                        data.extend(
                            [i as f32, j as f32, k as f32, tag + l as f32].map(f32::to_bits),
                        );
                    }
                }
            }
        }
        t.levels.push(data);
    }
    t
}

fn on(unit: u32, mut t: Texture) -> Texture {
    t.unit = unit;
    t
}

/// A D32_SFLOAT texture with one level, compared with LESS_OR_EQUAL (GL's
/// LEQUAL: 1 when the reference is <= the stored depth).
fn depth(unit: u32, kind: TextureKind, w: u32, h: u32, layers: u32, depths: &[f32]) -> Texture {
    Texture::new(
        unit,
        kind,
        vk::Format::D32_SFLOAT,
        w,
        h,
        1,
        layers,
        vec![depths.iter().map(|d| d.to_bits()).collect()],
    )
    .with_sampler(SamplerDesc {
        compare: Some(vk::CompareOp::LESS_OR_EQUAL),
        ..SamplerDesc::default()
    })
}

fn tc(n: u32, v: [f32; 4]) -> Input {
    Input::float(5 + n, v)
}

fn itc(n: u32, v: [i32; 4]) -> Input {
    Input::int(5 + n, v)
}

fn assert_cases(out: &FragmentOutput, loc: u32, what: &str, want: &[[f32; 4]]) {
    for (i, w) in want.iter().enumerate() {
        assert_eq!(out.color_f32(i, loc), *w, "{what}, case {i}");
    }
}

#[test]
fn tex_1d_2d_3d_texel_centres_and_offsets() {
    let src = "!!NVfp4.0
OPTION ARB_draw_buffers;
TEX result.color[0], fragment.texcoord[0], texture[0], 2D;
TEX result.color[1], fragment.texcoord[0], texture[0], 2D, (1, -1);
TEX result.color[2], fragment.texcoord[1], texture[1], 1D;
TEX result.color[3], fragment.texcoord[1], texture[1], 1D, (-2);
TEX result.color[4], fragment.texcoord[2], texture[2], 3D;
TEX result.color[5], fragment.texcoord[2], texture[2], 3D, (1, 1, -1);
END
";
    let textures = [
        on(0, grid(TextureKind::D2, 8, 4, 1, 1, 1, 100.0)),
        on(1, grid(TextureKind::D1, 8, 1, 1, 1, 1, 200.0)),
        on(2, grid(TextureKind::D3, 4, 4, 4, 1, 1, 300.0)),
    ];
    // Texel (i, j) of an 8x4 texture is hit by ((i + 0.5) / 8, (j + 0.5) / 4).
    let cases = vec![
        vec![
            tc(0, [0.5 / 8.0, 0.5 / 4.0, 0.0, 1.0]),
            tc(1, [0.5 / 8.0, 0.0, 0.0, 1.0]),
            tc(2, [0.125, 0.125, 0.125, 1.0]),
        ],
        vec![
            tc(0, [5.5 / 8.0, 2.5 / 4.0, 0.0, 1.0]),
            tc(1, [5.5 / 8.0, 0.0, 0.0, 1.0]),
            tc(2, [0.625, 0.875, 0.375, 1.0]),
        ],
        vec![
            tc(0, [7.9 / 8.0, 3.9 / 4.0, 0.0, 1.0]),
            tc(1, [1.2, 0.0, 0.0, 1.0]),
            tc(2, [0.875, 0.375, 0.875, 1.0]),
        ],
    ];
    run_fp(src, &textures, cases, |out| {
        // 2D: (0,0), (5,2), (7,3); offset (1,-1) then CLAMP_TO_EDGE.
        assert_cases(
            out,
            0,
            "TEX 2D",
            &[
                [0.0, 0.0, 0.0, 100.0],
                [5.0, 2.0, 0.0, 100.0],
                [7.0, 3.0, 0.0, 100.0],
            ],
        );
        assert_cases(
            out,
            1,
            "TEX 2D offset",
            &[
                [1.0, 0.0, 0.0, 100.0],
                [6.0, 1.0, 0.0, 100.0],
                [7.0, 2.0, 0.0, 100.0],
            ],
        );
        // 1D: texel 0, 5, and s = 1.2 -> u = 9.6, clamped to 7; offset -2:
        // floor(u) - 2 then clamped: 0, 3, 7.
        assert_cases(
            out,
            2,
            "TEX 1D",
            &[
                [0.0, 0.0, 0.0, 200.0],
                [5.0, 0.0, 0.0, 200.0],
                [7.0, 0.0, 0.0, 200.0],
            ],
        );
        assert_cases(
            out,
            3,
            "TEX 1D offset",
            &[
                [0.0, 0.0, 0.0, 200.0],
                [3.0, 0.0, 0.0, 200.0],
                [7.0, 0.0, 0.0, 200.0],
            ],
        );
        // 3D 4x4x4: (0,0,0), (2,3,1), (3,1,3); offset (1,1,-1) clamped.
        assert_cases(
            out,
            4,
            "TEX 3D",
            &[
                [0.0, 0.0, 0.0, 300.0],
                [2.0, 3.0, 1.0, 300.0],
                [3.0, 1.0, 3.0, 300.0],
            ],
        );
        assert_cases(
            out,
            5,
            "TEX 3D offset",
            &[
                [1.0, 1.0, 0.0, 300.0],
                [3.0, 3.0, 0.0, 300.0],
                [3.0, 2.0, 2.0, 300.0],
            ],
        );
    });
}

#[test]
fn cube_faces_and_projection() {
    let src = "!!NVfp4.0
OPTION ARB_draw_buffers;
TEX result.color[0], fragment.texcoord[0], texture[0], CUBE;
TXP result.color[1], fragment.texcoord[0], texture[0], CUBE;
END
";
    // 2x2 faces in the order +X, -X, +Y, -Y, +Z, -Z; texel [i, j, face, 100].
    let textures = [on(0, grid(TextureKind::Cube, 2, 2, 1, 6, 1, 100.0))];
    // Section 3.8.6 (GL 2.x), Table 3.19: the major axis picks the face,
    // s = (sc/|ma| + 1)/2, t = (tc/|ma| + 1)/2; texel floor(2s), floor(2t).
    let dirs = [
        [1.0, 0.5, 0.5, 2.0],    // +X: sc = -rz, tc = -ry -> (0, 0)
        [1.0, -0.5, -0.5, -1.0], // +X: (1, 1); TXP: (-1, .5, .5) -> -X, sc = rz, tc = -ry -> (1, 0)
        [-1.0, 0.5, 0.5, 1.0],   // -X: sc = rz = .5, tc = -ry = -.5 -> (1, 0)
        [0.5, 1.0, -0.5, 1.0],   // +Y: sc = rx, tc = rz -> (1, 0)
        [-0.5, -1.0, -0.5, 1.0], // -Y: sc = rx, tc = -rz -> (0, 1)
        [0.5, -0.5, 1.0, 1.0],   // +Z: sc = rx, tc = -ry -> (1, 1)
        [-0.5, 0.5, -1.0, 4.0],  // -Z: sc = -rx, tc = -ry -> (1, 0)
    ];
    let cases = dirs.iter().map(|&d| vec![tc(0, d)]).collect();
    run_fp(src, &textures, cases, |out| {
        let tex = [
            [0.0, 0.0, 0.0, 100.0],
            [1.0, 1.0, 0.0, 100.0],
            [1.0, 0.0, 1.0, 100.0],
            [1.0, 0.0, 2.0, 100.0],
            [0.0, 1.0, 3.0, 100.0],
            [1.0, 1.0, 4.0, 100.0],
            [1.0, 0.0, 5.0, 100.0],
        ];
        assert_cases(out, 0, "TEX CUBE", &tex);
        // TXP divides x, y, z by w: only a negative w changes the face.
        let mut txp = tex;
        txp[1] = [1.0, 0.0, 1.0, 100.0];
        assert_cases(out, 1, "TXP CUBE", &txp);
    });
}

#[test]
fn rect_takes_unnormalized_coordinates() {
    let src = "!!NVfp4.0
OPTION ARB_draw_buffers;
TEX result.color[0], fragment.texcoord[0], texture[0], RECT;
TEX result.color[1], fragment.texcoord[0], texture[0], RECT, (-1, 1);
TXP result.color[2], fragment.texcoord[0], texture[0], RECT;
TXD result.color[3], fragment.texcoord[0], fragment.texcoord[1], fragment.texcoord[1], texture[0], RECT;
TXL result.color[4], fragment.texcoord[0], texture[0], RECT;
END
";
    // 5x3, not a power of two: texel [i, j, 0, 100].
    let textures = [on(0, grid(TextureKind::D2, 5, 3, 1, 1, 1, 100.0))];
    let coords = [
        [0.5, 0.5, 0.0, 1.0],
        [4.5, 2.5, 0.0, 1.0],
        [2.25, 1.75, 0.0, 0.5],
        [9.0, -1.0, 0.0, 2.0],
    ];
    let cases = coords
        .iter()
        .map(|&c| vec![tc(0, c), tc(1, [0.0; 4])])
        .collect();
    run_fp(src, &textures, cases, |out| {
        // Texel (floor(s), floor(t)), clamped to [0,4] x [0,2].
        let tex = [
            [0.0, 0.0, 0.0, 100.0],
            [4.0, 2.0, 0.0, 100.0],
            [2.0, 1.0, 0.0, 100.0],
            [4.0, 0.0, 0.0, 100.0],
        ];
        assert_cases(out, 0, "TEX RECT", &tex);
        // Offset (-1, 1): (0-1, 0+1) -> (0, 1); (3, 3) -> (3, 2); (1, 2);
        // (9-1, -1+1) -> (4, 0).
        assert_cases(
            out,
            1,
            "TEX RECT offset",
            &[
                [0.0, 1.0, 0.0, 100.0],
                [3.0, 2.0, 0.0, 100.0],
                [1.0, 2.0, 0.0, 100.0],
                [4.0, 0.0, 0.0, 100.0],
            ],
        );
        // TXP: (s, t) / q: (0.5, 0.5), (4.5, 2.5), (4.5, 3.5) -> (4, 2),
        // (4.5, -0.5) -> (4, 0).
        assert_cases(
            out,
            2,
            "TXP RECT",
            &[
                [0.0, 0.0, 0.0, 100.0],
                [4.0, 2.0, 0.0, 100.0],
                [4.0, 2.0, 0.0, 100.0],
                [4.0, 0.0, 0.0, 100.0],
            ],
        );
        // TXD with zero partials and TXL (one level): the same texels as TEX.
        assert_cases(out, 3, "TXD RECT", &tex);
        assert_cases(out, 4, "TXL RECT", &tex);
    });
}

#[test]
fn array_layers_round_to_nearest_and_clamp() {
    let src = "!!NVfp4.0
OPTION ARB_draw_buffers;
TEX result.color[0], fragment.texcoord[0], texture[0], ARRAY1D;
TEX result.color[1], fragment.texcoord[1], texture[1], ARRAY2D;
TXP result.color[2], fragment.texcoord[0], texture[0], ARRAY1D;
TEX result.color[3], fragment.texcoord[0], texture[0], ARRAY1D, (1);
TXL result.color[4], fragment.texcoord[1], texture[1], ARRAY2D, (1, 0);
END
";
    // ARRAY1D: 4 texels x 3 layers, [i, 0, layer, 100]; ARRAY2D: 2x2 x 4
    // layers, [i, j, layer, 200].
    let textures = [
        on(0, grid(TextureKind::Array1D, 4, 1, 1, 3, 1, 100.0)),
        on(1, grid(TextureKind::Array2D, 2, 2, 1, 4, 1, 200.0)),
    ];
    let cases = vec![
        vec![tc(0, [0.1, 0.5, 0.0, 1.0]), tc(1, [0.2, 0.8, 0.5, 0.0])],
        vec![tc(0, [0.9, 1.49, 0.0, 1.0]), tc(1, [0.7, 0.2, 2.5, 0.0])],
        vec![tc(0, [0.6, 7.0, 0.0, 1.0]), tc(1, [0.2, 0.2, -3.0, 0.0])],
        vec![tc(0, [0.3, 2.0, 0.0, 2.0]), tc(1, [0.7, 0.7, 3.49, 0.0])],
    ];
    run_fp(src, &textures, cases, |out| {
        // Layer = floor(y + 0.5) clamped to [0, 2] (section 2.X.4.4): 0.5 ->
        // 1 (round-half-even would give 0), 1.49 -> 1, 7 -> 2, 2 -> 2.
        assert_cases(
            out,
            0,
            "TEX ARRAY1D",
            &[
                [0.0, 0.0, 1.0, 100.0],
                [3.0, 0.0, 1.0, 100.0],
                [2.0, 0.0, 2.0, 100.0],
                [1.0, 0.0, 2.0, 100.0],
            ],
        );
        // ARRAY2D, layer from z: 0.5 -> 1, 2.5 -> 3, -3 -> 0, 3.49 -> 3.
        assert_cases(
            out,
            1,
            "TEX ARRAY2D",
            &[
                [0.0, 1.0, 1.0, 200.0],
                [1.0, 0.0, 3.0, 200.0],
                [0.0, 0.0, 0.0, 200.0],
                [1.0, 1.0, 3.0, 200.0],
            ],
        );
        // TXP divides the layer too: case 3 is (0.15, 1.0) -> texel 0, layer 1.
        assert_cases(
            out,
            2,
            "TXP ARRAY1D",
            &[
                [0.0, 0.0, 1.0, 100.0],
                [3.0, 0.0, 1.0, 100.0],
                [2.0, 0.0, 2.0, 100.0],
                [0.0, 0.0, 1.0, 100.0],
            ],
        );
        // Offset (1): texel 1, 4 -> 3, 3, 2.
        assert_cases(
            out,
            3,
            "TEX ARRAY1D offset",
            &[
                [1.0, 0.0, 1.0, 100.0],
                [3.0, 0.0, 1.0, 100.0],
                [3.0, 0.0, 2.0, 100.0],
                [2.0, 0.0, 2.0, 100.0],
            ],
        );
        // TXL at LOD w = 0 with offset (1, 0): i + 1 clamped to 1.
        assert_cases(
            out,
            4,
            "TXL ARRAY2D offset",
            &[
                [1.0, 1.0, 1.0, 200.0],
                [1.0, 0.0, 3.0, 200.0],
                [1.0, 0.0, 0.0, 200.0],
                [1.0, 1.0, 3.0, 200.0],
            ],
        );
    });
}

#[test]
fn shadow_targets_compare_with_the_right_component() {
    let src = "!!NVfp4.0
OPTION ARB_draw_buffers;
TEX result.color[0], fragment.texcoord[0], texture[0], SHADOW2D;
TEX result.color[1], fragment.texcoord[0], texture[1], SHADOW1D;
TEX result.color[2], fragment.texcoord[1], texture[2], SHADOWRECT;
TEX result.color[3], fragment.texcoord[2], texture[3], SHADOWCUBE;
TEX result.color[4], fragment.texcoord[3], texture[4], SHADOWARRAY1D;
TEX result.color[5], fragment.texcoord[4], texture[5], SHADOWARRAY2D;
TXP result.color[6], fragment.texcoord[0], texture[0], SHADOW2D;
TXB result.color[7], fragment.texcoord[0], texture[1], SHADOW1D, (1);
END
";
    let row = [0.25, 0.5, 0.75, 1.0];
    let textures = [
        depth(0, TextureKind::D2, 4, 1, 1, &row),
        depth(1, TextureKind::D1, 4, 1, 1, &row),
        depth(2, TextureKind::D2, 4, 1, 1, &row),
        depth(
            3,
            TextureKind::Cube,
            1,
            1,
            6,
            &[0.1, 0.2, 0.3, 0.4, 0.5, 0.6],
        ),
        depth(4, TextureKind::Array1D, 2, 1, 2, &[0.2, 0.4, 0.6, 0.8]),
        depth(5, TextureKind::Array2D, 1, 1, 3, &[0.3, 0.6, 0.9]),
    ];
    let cases = vec![
        vec![
            tc(0, [0.375, 0.5, 0.4, 1.0]), // texel 1 (0.5): 0.4 <= 0.5
            tc(1, [1.5, 0.5, 0.4, 0.0]),   // RECT texel 1 (0.5)
            tc(2, [1.0, 0.0, 0.0, 0.05]),  // +X (0.1)
            tc(3, [0.25, 0.0, 0.3, 0.0]),  // layer 0 texel 0 (0.2)
            tc(4, [0.5, 0.5, 0.0, 0.2]),   // layer 0 (0.3)
        ],
        vec![
            tc(0, [0.375, 0.5, 0.6, 1.0]), // 0.6 > 0.5
            tc(1, [3.5, 0.5, 0.9, 0.0]),   // texel 3 (1.0)
            tc(2, [0.0, -1.0, 0.0, 0.5]),  // -Y (0.4)
            tc(3, [0.75, 1.0, 0.7, 0.0]),  // layer 1 texel 1 (0.8)
            tc(4, [0.5, 0.5, 1.0, 0.7]),   // layer 1 (0.6)
        ],
        vec![
            tc(0, [0.375, 0.5, 0.5, 1.0]), // equal
            tc(1, [2.5, 0.5, 0.8, 0.0]),   // texel 2 (0.75)
            tc(2, [0.0, 0.0, 1.0, 0.5]),   // +Z (0.5), equal
            tc(3, [0.25, 1.0, 0.6, 0.0]),  // layer 1 texel 0 (0.6), equal
            tc(4, [0.5, 0.5, 2.0, 0.9]),   // layer 2 (0.9), equal
        ],
        vec![
            tc(0, [0.5, 0.5, 0.9, 2.0]), // texel 2 (0.75); TXP: texel 1 (0.5), ref 0.45
            tc(1, [0.5, 0.5, 0.25, 0.0]), // texel 0 (0.25), equal
            tc(2, [0.0, 0.0, -1.0, 0.7]), // -Z (0.6)
            tc(3, [0.75, 0.4, 0.5, 0.0]), // layer 0 texel 1 (0.4)
            tc(4, [0.5, 0.5, 5.0, 0.95]), // layer clamped to 2 (0.9)
        ],
    ];
    run_fp(src, &textures, cases, |out| {
        // The comparison result c is returned as (c, c, c, 1).
        let c = |v: [f32; 4]| v.map(|x| [x, x, x, 1.0]);
        assert_cases(out, 0, "SHADOW2D", &c([1.0, 0.0, 1.0, 0.0]));
        assert_cases(out, 1, "SHADOW1D", &c([1.0, 0.0, 1.0, 0.0]));
        assert_cases(out, 2, "SHADOWRECT", &c([1.0, 1.0, 0.0, 1.0]));
        assert_cases(
            out,
            3,
            "SHADOWCUBE (reference in w)",
            &c([1.0, 0.0, 1.0, 0.0]),
        );
        assert_cases(out, 4, "SHADOWARRAY1D", &c([0.0, 1.0, 1.0, 0.0]));
        assert_cases(
            out,
            5,
            "SHADOWARRAY2D (reference in w)",
            &c([1.0, 0.0, 1.0, 0.0]),
        );
        // TXP divides the reference too: case 3 compares 0.45 <= 0.5.
        assert_cases(out, 6, "TXP SHADOW2D", &c([1.0, 0.0, 1.0, 1.0]));
        // TXB (bias w = 1, one level) with offset 1: texel 2 (0.75) for
        // cases 0-2, texel 3 (1.0) for case 3.
        assert_cases(out, 7, "TXB SHADOW1D offset", &c([1.0, 1.0, 1.0, 1.0]));
    });
}

/// Four levels of an 8x8 texture, each one colour: `[L, 0, 0, 1]`.
fn mip_levels(unit: u32) -> Texture {
    let levels = (0..4u32)
        .map(|l| {
            let n = (8 >> l) * (8 >> l);
            (0..n)
                .flat_map(|_| [l as f32, 0.0, 0.0, 1.0].map(f32::to_bits))
                .collect()
        })
        .collect();
    Texture::new(
        unit,
        TextureKind::D2,
        vk::Format::R32G32B32A32_SFLOAT,
        8,
        8,
        1,
        1,
        levels,
    )
}

#[test]
fn lod_selection_tex_txb_txl_txd_txp() {
    // c.xy = fragment.position.xy * k: derivatives k per pixel, rho = 8k
    // texels on an 8x8 texture, lambda = log2(8k). c.w = the bias of TXB
    // (and the LOD of TXL, which reads texcoord[1] directly).
    let src = "!!NVfp4.0
OPTION ARB_draw_buffers;
TEMP c, p;
MUL c, fragment.position, fragment.texcoord[0];
MOV c.zw, fragment.texcoord[1];
TEX result.color[0], c, texture[0], 2D;
TXB result.color[1], c, texture[0], 2D;
TXL result.color[2], fragment.texcoord[1], texture[0], 2D;
TXD result.color[3], fragment.texcoord[1], fragment.texcoord[2], fragment.texcoord[3], texture[0], 2D;
MUL p, c, 2;
MOV p.w, 2;
TXP result.color[4], p, texture[0], 2D;
END
";
    let textures = [mip_levels(0)];
    // (k, w, TXD's ddx, ddy)
    let table: [(f32, f32, [f32; 2], [f32; 2]); 9] = [
        (0.125, 0.0, [0.125, 0.0], [0.0, 0.125]),
        (0.25, 1.0, [0.25, 0.0], [0.0, 0.0]),
        (0.125, 2.0, [0.5, 0.0], [0.0, 0.0]),
        (0.5, -1.0, [1.0, 0.0], [0.0, 0.0]),
        (0.125, 1.3, [0.1875, 0.0], [0.0, 0.0]),
        (1.0, 5.0, [4.0, 0.0], [0.0, 0.0]),
        (0.125, 0.4, [0.0, 0.0], [0.0, 0.0]),
        (0.125, 0.7, [0.0625, 0.0], [0.0, 0.0]),
        (0.25, -0.7, [0.0, 0.5], [0.125, 0.0]),
    ];
    let cases = table
        .iter()
        .map(|&(k, w, dx, dy)| {
            vec![
                tc(0, [k, k, 0.0, 0.0]),
                tc(1, [0.5, 0.5, 0.0, w]),
                tc(2, [dx[0], dx[1], 0.0, 0.0]),
                tc(3, [dy[0], dy[1], 0.0, 0.0]),
            ]
        })
        .collect();
    run_fp(src, &textures, cases, |out| {
        let lv = |l: [f32; 9]| l.map(|x| [x, 0.0, 0.0, 1.0]);
        // TEX: lambda = log2(8k): k = 1/8 -> 0, 1/4 -> 1, 1/2 -> 2, 1 -> 3.
        assert_cases(
            out,
            0,
            "TEX",
            &lv([0.0, 1.0, 0.0, 2.0, 0.0, 3.0, 0.0, 0.0, 1.0]),
        );
        // TXB: lambda + w: 0, 2, 2, 1, 1.3 -> 1, 8 -> 3, 0.4 -> 0, 0.7 -> 1,
        // 0.3 -> 0.
        assert_cases(
            out,
            1,
            "TXB",
            &lv([0.0, 2.0, 2.0, 1.0, 1.0, 3.0, 0.0, 1.0, 0.0]),
        );
        // TXL: lambda = w: 0, 1, 2, -1 -> 0, 1.3 -> 1, 5 -> 3, 0.4 -> 0,
        // 0.7 -> 1, -0.7 -> 0.
        assert_cases(
            out,
            2,
            "TXL",
            &lv([0.0, 1.0, 2.0, 0.0, 1.0, 3.0, 0.0, 1.0, 0.0]),
        );
        // TXD: rho = 8 * the longest partial: 1 -> 0, 2 -> 1, 4 -> 2, 8 -> 3,
        // 1.5 -> 0.585 -> 1, 32 -> 3, 0 -> 0, 0.5 -> 0, (dt/dx = 4) -> 2.
        assert_cases(
            out,
            3,
            "TXD",
            &lv([0.0, 1.0, 2.0, 3.0, 1.0, 3.0, 0.0, 0.0, 2.0]),
        );
        // TXP: (2c.xy) / 2 = c.xy, so the same derivatives as TEX.
        assert_cases(
            out,
            4,
            "TXP",
            &lv([0.0, 1.0, 0.0, 2.0, 0.0, 3.0, 0.0, 0.0, 1.0]),
        );
    });
}

#[test]
fn txf_fetches_exact_texels_of_every_target() {
    let src = "!!NVfp4.0
OPTION ARB_draw_buffers;
FLAT INT ATTRIB a0 = fragment.texcoord[0];
FLAT INT ATTRIB a1 = fragment.texcoord[1];
FLAT INT ATTRIB a2 = fragment.texcoord[2];
FLAT INT ATTRIB a3 = fragment.texcoord[3];
FLAT INT ATTRIB a4 = fragment.texcoord[4];
FLAT INT ATTRIB a5 = fragment.texcoord[5];
FLAT INT ATTRIB a6 = fragment.texcoord[6];
FLAT INT ATTRIB a7 = fragment.texcoord[7];
TXF result.color[0], a0, texture[0], 2D;
TXF result.color[1], a1, texture[0], 2D, (1, -1);
TXF result.color[2], a2, texture[1], 1D;
TXF result.color[3], a3, texture[2], 3D;
TXF result.color[4], a4, texture[3], ARRAY1D;
TXF result.color[5], a5, texture[4], ARRAY2D;
TXF result.color[6], a6, texture[5], RECT;
TXF result.color[7], a7, texture[6], BUFFER;
END
";
    let buffer_texels: Vec<u32> = (0..10)
        .flat_map(|i| [i as f32, 0.0, 0.0, 700.0].map(f32::to_bits))
        .collect();
    let textures = [
        on(0, grid(TextureKind::D2, 4, 4, 1, 1, 3, 100.0)),
        on(1, grid(TextureKind::D1, 8, 1, 1, 1, 2, 200.0)),
        on(2, grid(TextureKind::D3, 4, 2, 2, 1, 1, 300.0)),
        on(3, grid(TextureKind::Array1D, 4, 1, 1, 3, 1, 400.0)),
        on(4, grid(TextureKind::Array2D, 2, 2, 1, 3, 1, 500.0)),
        on(5, grid(TextureKind::D2, 5, 3, 1, 1, 1, 600.0)),
        Texture::buffer(6, vk::Format::R32G32B32A32_SFLOAT, buffer_texels).unwrap(),
    ];
    // Table X.18: (i, j, k) from x, y, z, the layer after the coordinates,
    // the level from w.
    let inputs: [[[i32; 4]; 8]; 4] = [
        [
            [1, 2, 0, 0],
            [1, 2, 0, 0],
            [7, 0, 0, 0],
            [3, 1, 1, 0],
            [2, 1, 0, 0],
            [1, 0, 2, 0],
            [4, 2, 0, 0],
            [9, 0, 0, 0],
        ],
        [
            [1, 0, 0, 1],
            [0, 1, 0, 1],
            [3, 9, 9, 1],
            [0, 0, 1, 0],
            [3, 2, 0, 0],
            [0, 1, 1, 0],
            [0, 1, 0, 0],
            [0, 0, 0, 0],
        ],
        [
            [0, 0, 0, 2],
            [-1, 1, 0, 2],
            [0, 0, 0, 1],
            [2, 1, 0, 0],
            [0, 0, 5, 0],
            [1, 1, 0, 0],
            [3, 0, 0, 0],
            [5, 3, 2, 1],
        ],
        [
            [3, 3, 0, 0],
            [2, 3, 0, 0],
            [4, 0, 0, 0],
            [1, 0, 1, 0],
            [1, 2, 0, 0],
            [0, 0, 2, 0],
            [2, 2, 0, 0],
            [7, 0, 0, 0],
        ],
    ];
    let cases = inputs
        .iter()
        .map(|c| (0..8).map(|n| itc(n, c[n as usize])).collect())
        .collect();
    run_fp(src, &textures, cases, |out| {
        // 2D, level w: 4x4, 2x2, 1x1.
        assert_cases(
            out,
            0,
            "TXF 2D",
            &[
                [1.0, 2.0, 0.0, 100.0],
                [1.0, 0.0, 0.0, 101.0],
                [0.0, 0.0, 0.0, 102.0],
                [3.0, 3.0, 0.0, 100.0],
            ],
        );
        // Offset (1, -1): (2,1) L0, (1,0) L1, (0,0) L2, (3,2) L0.
        assert_cases(
            out,
            1,
            "TXF 2D offset",
            &[
                [2.0, 1.0, 0.0, 100.0],
                [1.0, 0.0, 0.0, 101.0],
                [0.0, 0.0, 0.0, 102.0],
                [3.0, 2.0, 0.0, 100.0],
            ],
        );
        // 1D: only x and w count.
        assert_cases(
            out,
            2,
            "TXF 1D",
            &[
                [7.0, 0.0, 0.0, 200.0],
                [3.0, 0.0, 0.0, 201.0],
                [0.0, 0.0, 0.0, 201.0],
                [4.0, 0.0, 0.0, 200.0],
            ],
        );
        assert_cases(
            out,
            3,
            "TXF 3D",
            &[
                [3.0, 1.0, 1.0, 300.0],
                [0.0, 0.0, 1.0, 300.0],
                [2.0, 1.0, 0.0, 300.0],
                [1.0, 0.0, 1.0, 300.0],
            ],
        );
        // ARRAY1D: layer from y (z ignored); the grid writes the layer in z.
        assert_cases(
            out,
            4,
            "TXF ARRAY1D",
            &[
                [2.0, 0.0, 1.0, 400.0],
                [3.0, 0.0, 2.0, 400.0],
                [0.0, 0.0, 0.0, 400.0],
                [1.0, 0.0, 2.0, 400.0],
            ],
        );
        assert_cases(
            out,
            5,
            "TXF ARRAY2D",
            &[
                [1.0, 0.0, 2.0, 500.0],
                [0.0, 1.0, 1.0, 500.0],
                [1.0, 1.0, 0.0, 500.0],
                [0.0, 0.0, 2.0, 500.0],
            ],
        );
        assert_cases(
            out,
            6,
            "TXF RECT",
            &[
                [4.0, 2.0, 0.0, 600.0],
                [0.0, 1.0, 0.0, 600.0],
                [3.0, 0.0, 0.0, 600.0],
                [2.0, 2.0, 0.0, 600.0],
            ],
        );
        // BUFFER: texel x.
        assert_cases(
            out,
            7,
            "TXF BUFFER",
            &[
                [9.0, 0.0, 0.0, 700.0],
                [0.0, 0.0, 0.0, 700.0],
                [5.0, 0.0, 0.0, 700.0],
                [7.0, 0.0, 0.0, 700.0],
            ],
        );
    });
}

#[test]
fn txq_gives_the_size_of_each_level() {
    let src = "!!NVfp4.0
OPTION ARB_draw_buffers;
FLAT INT ATTRIB l = fragment.texcoord[0];
FLAT INT ATTRIB z = fragment.texcoord[1];
INT OUTPUT o0 = result.color[0];
INT OUTPUT o1 = result.color[1];
INT OUTPUT o2 = result.color[2];
INT OUTPUT o3 = result.color[3];
INT OUTPUT o4 = result.color[4];
INT OUTPUT o5 = result.color[5];
INT OUTPUT o6 = result.color[6];
INT OUTPUT o7 = result.color[7];
TXQ o0, l, texture[0], 2D;
TXQ o1, l, texture[1], 1D;
TXQ o2, l, texture[2], 3D;
TXQ o3, l, texture[3], CUBE;
TXQ o4, l, texture[4], ARRAY1D;
TXQ o5, l, texture[5], ARRAY2D;
TXQ o6, l, texture[6], BUFFER;
TXQ o7, z, texture[7], RECT;
END
";
    let textures = [
        on(0, grid(TextureKind::D2, 8, 4, 1, 1, 4, 100.0)),
        on(1, grid(TextureKind::D1, 8, 1, 1, 1, 4, 200.0)),
        on(2, grid(TextureKind::D3, 8, 4, 2, 1, 2, 300.0)),
        on(3, grid(TextureKind::Cube, 4, 4, 1, 6, 3, 400.0)),
        on(4, grid(TextureKind::Array1D, 8, 1, 1, 5, 2, 500.0)),
        on(5, grid(TextureKind::Array2D, 4, 2, 1, 3, 2, 600.0)),
        // Read by TXQ only, so declared float (docs/interface.md).
        Texture::buffer(6, vk::Format::R32G32B32A32_SFLOAT, vec![0; 40]).unwrap(),
        on(7, grid(TextureKind::D2, 5, 3, 1, 1, 1, 800.0)),
    ];
    let cases = vec![
        vec![itc(0, [0, 5, 5, 5]), itc(1, [0, 0, 0, 0])],
        vec![itc(0, [1, 0, 0, 0]), itc(1, [0, 1, 1, 1])],
    ];
    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    for env in ENVS {
        let job = FragmentJob {
            textures: textures.to_vec(),
            ..FragmentJob::new(cases.clone())
        };
        let out = dev.run_fragment(&compile(src, env), &job).unwrap();
        let i = |case: usize, loc: u32| harness::to_i32(out.color(case, loc));
        // Section 2.X.8.Z, TXQ: width in x; height in y (2D, RECT, CUBE,
        // ARRAY2D), depth in z (3D), layers in y (ARRAY1D) or z (ARRAY2D);
        // nvp4c writes 0 to the components the spec leaves undefined.
        assert_eq!(i(0, 0), [8, 4, 0, 0], "2D level 0");
        assert_eq!(i(1, 0), [4, 2, 0, 0], "2D level 1");
        assert_eq!(i(0, 1), [8, 0, 0, 0], "1D level 0");
        assert_eq!(i(1, 1), [4, 0, 0, 0], "1D level 1");
        assert_eq!(i(0, 2), [8, 4, 2, 0], "3D level 0");
        assert_eq!(i(1, 2), [4, 2, 1, 0], "3D level 1");
        assert_eq!(i(0, 3), [4, 4, 0, 0], "CUBE level 0");
        assert_eq!(i(1, 3), [2, 2, 0, 0], "CUBE level 1");
        assert_eq!(i(0, 4), [8, 5, 0, 0], "ARRAY1D level 0");
        assert_eq!(i(1, 4), [4, 5, 0, 0], "ARRAY1D level 1");
        assert_eq!(i(0, 5), [4, 2, 3, 0], "ARRAY2D level 0");
        assert_eq!(i(1, 5), [2, 1, 3, 0], "ARRAY2D level 1");
        // A buffer has no levels: its size in texels, whatever x says.
        assert_eq!(i(0, 6), [10, 0, 0, 0], "BUFFER");
        assert_eq!(i(1, 6), [10, 0, 0, 0], "BUFFER");
        assert_eq!(i(0, 7), [5, 3, 0, 0], "RECT");
        assert_eq!(i(1, 7), [5, 3, 0, 0], "RECT");
    }
}

#[test]
fn txq_on_shadow_targets() {
    let src = "!!NVfp4.0
OPTION ARB_draw_buffers;
FLAT INT ATTRIB l = fragment.texcoord[0];
INT OUTPUT o0 = result.color[0];
INT OUTPUT o1 = result.color[1];
INT OUTPUT o2 = result.color[2];
INT OUTPUT o3 = result.color[3];
INT OUTPUT o4 = result.color[4];
INT OUTPUT o5 = result.color[5];
TXQ o0, l, texture[0], SHADOW1D;
TXQ o1, l, texture[1], SHADOW2D;
TXQ o2, l, texture[2], SHADOWRECT;
TXQ o3, l, texture[3], SHADOWCUBE;
TXQ o4, l, texture[4], SHADOWARRAY1D;
TXQ o5, l, texture[5], SHADOWARRAY2D;
END
";
    let textures = [
        depth(0, TextureKind::D1, 4, 1, 1, &[0.0; 4]),
        depth(1, TextureKind::D2, 4, 2, 1, &[0.0; 8]),
        depth(2, TextureKind::D2, 3, 1, 1, &[0.0; 3]),
        depth(3, TextureKind::Cube, 2, 2, 6, &[0.0; 24]),
        depth(4, TextureKind::Array1D, 2, 1, 3, &[0.0; 6]),
        depth(5, TextureKind::Array2D, 1, 2, 4, &[0.0; 8]),
    ];
    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    for env in ENVS {
        let job = FragmentJob {
            textures: textures.to_vec(),
            ..FragmentJob::new(vec![vec![itc(0, [0; 4])]])
        };
        let out = dev.run_fragment(&compile(src, env), &job).unwrap();
        let i = |loc: u32| harness::to_i32(out.color(0, loc));
        assert_eq!(i(0), [4, 0, 0, 0], "SHADOW1D");
        assert_eq!(i(1), [4, 2, 0, 0], "SHADOW2D");
        assert_eq!(i(2), [3, 1, 0, 0], "SHADOWRECT");
        assert_eq!(i(3), [2, 2, 0, 0], "SHADOWCUBE");
        assert_eq!(i(4), [2, 3, 0, 0], "SHADOWARRAY1D");
        assert_eq!(i(5), [1, 2, 4, 0], "SHADOWARRAY2D");
    }
}

#[test]
fn integer_textures_return_integer_texels() {
    let src = "!!NVfp4.0
OPTION ARB_draw_buffers;
FLAT INT ATTRIB a = fragment.texcoord[2];
UINT OUTPUT o0 = result.color[0];
INT OUTPUT o1 = result.color[1];
UINT OUTPUT o2 = result.color[2];
INT OUTPUT o3 = result.color[3];
TEX.U o0, fragment.texcoord[0], texture[0], 2D;
TXL.S o1, fragment.texcoord[1], texture[1], ARRAY2D;
TXF.U o2, a, texture[2], BUFFER;
TXF.S o3, a, texture[1], ARRAY2D;
END
";
    // 2x2 RGBA32UI: [i, j, 0xFFFFFFFF, 0x80000000 + 2j + i].
    let uint2d: Vec<u32> = (0..4u32)
        .flat_map(|n| [n % 2, n / 2, 0xFFFF_FFFF, 0x8000_0000 + n])
        .collect();
    // 2x1 RGBA32I, 2 layers: [-(i + 1), layer, i32::MIN, -7].
    let int_array: Vec<u32> = (0..4i32)
        .flat_map(|n| [-(n % 2 + 1), n / 2, i32::MIN, -7].map(|x| x as u32))
        .collect();
    // 4 RGBA32UI texels: [3i, 0xDEADBEEF, i, 5].
    let uint_buffer: Vec<u32> = (0..4u32).flat_map(|i| [3 * i, 0xDEAD_BEEF, i, 5]).collect();
    let textures = [
        Texture::new(
            0,
            TextureKind::D2,
            vk::Format::R32G32B32A32_UINT,
            2,
            2,
            1,
            1,
            vec![uint2d],
        ),
        Texture::new(
            1,
            TextureKind::Array2D,
            vk::Format::R32G32B32A32_SINT,
            2,
            1,
            1,
            2,
            vec![int_array],
        ),
        Texture::buffer(2, vk::Format::R32G32B32A32_UINT, uint_buffer).unwrap(),
    ];
    let cases = vec![
        vec![
            tc(0, [0.25, 0.75, 0.0, 1.0]),
            tc(1, [0.75, 0.5, 1.0, 0.0]),
            itc(2, [1, 0, 0, 0]),
        ],
        vec![
            tc(0, [0.75, 0.25, 0.0, 1.0]),
            tc(1, [0.25, 0.5, 0.0, 0.0]),
            itc(2, [3, 0, 1, 0]),
        ],
    ];
    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    for env in ENVS {
        let job = FragmentJob {
            textures: textures.to_vec(),
            ..FragmentJob::new(cases.clone())
        };
        let out = dev.run_fragment(&compile(src, env), &job).unwrap();
        // TEX.U: texel (0, 1), then (1, 0), bit-exact.
        assert_eq!(out.color(0, 0), [0, 1, 0xFFFF_FFFF, 0x8000_0002]);
        assert_eq!(out.color(1, 0), [1, 0, 0xFFFF_FFFF, 0x8000_0001]);
        // TXL.S ARRAY2D: texel 1 of layer 1, texel 0 of layer 0.
        let i = |case: usize, loc: u32| harness::to_i32(out.color(case, loc));
        assert_eq!(i(0, 1), [-2, 1, i32::MIN, -7]);
        assert_eq!(i(1, 1), [-1, 0, i32::MIN, -7]);
        // TXF.U BUFFER: texel x = 1, 3.
        assert_eq!(out.color(0, 2), [3, 0xDEAD_BEEF, 1, 5]);
        assert_eq!(out.color(1, 2), [9, 0xDEAD_BEEF, 3, 5]);
        // TXF.S ARRAY2D (x, y = 0, layer z): texel 1 layer 0; x = 3 is
        // out of range (undefined), so case 1 is not checked.
        assert_eq!(i(0, 3), [-2, 0, i32::MIN, -7]);
    }
}

#[test]
fn vertex_programs_sample_the_base_level_unless_told() {
    let src = "!!NVvp4.0
INT ATTRIB ia = vertex.attrib[4];
INT ATTRIB iq = vertex.attrib[6];
INT OUTPUT q = result.texcoord[6];
TEX result.texcoord[0], vertex.attrib[1], texture[0], 2D;
TXB result.texcoord[1], vertex.attrib[1], texture[0], 2D;
TXL result.texcoord[2], vertex.attrib[1], texture[0], 2D;
TXP result.texcoord[3], vertex.attrib[1], texture[0], 2D;
TXD result.texcoord[4], vertex.attrib[1], vertex.attrib[2], vertex.attrib[3], texture[0], 2D;
TXF result.texcoord[5], ia, texture[0], 2D;
TXQ q, iq, texture[0], 2D;
TEX result.texcoord[7], vertex.attrib[5], texture[1], SHADOWCUBE;
MOV result.position, vertex.attrib[0];
END
";
    let textures = [
        on(0, grid(TextureKind::D2, 8, 8, 1, 1, 4, 100.0)),
        depth(
            1,
            TextureKind::Cube,
            1,
            1,
            6,
            &[0.1, 0.2, 0.3, 0.4, 0.5, 0.6],
        ),
    ];
    let v = |l: u32, x: [f32; 4]| Input::float(l, x);
    let vertices = vec![
        vec![
            v(0, [0.0; 4]),
            v(1, [2.5 / 8.0, 5.5 / 8.0, 0.0, 2.0]),
            v(2, [0.25, 0.0, 0.0, 0.0]),
            v(3, [0.0; 4]),
            Input::int(4, [1, 1, 0, 1]),
            Input::int(6, [1, 0, 0, 0]),
            v(5, [1.0, 0.0, 0.0, 0.05]),
        ],
        vec![
            v(1, [7.5 / 8.0, 0.5 / 8.0, 0.0, 1.0]),
            v(2, [0.0; 4]),
            v(3, [0.0, 1.0, 0.0, 0.0]),
            Input::int(4, [0, 0, 0, 3]),
            Input::int(6, [1, 0, 0, 0]),
            v(5, [0.0, 0.0, -1.0, 0.7]),
        ],
        vec![
            v(1, [0.5, 0.5, 0.0, -4.0]),
            v(2, [0.125, 0.0, 0.0, 0.0]),
            v(3, [0.0, 0.125, 0.0, 0.0]),
            Input::int(4, [1, 1, 0, 2]),
            Input::int(6, [1, 0, 0, 0]),
            v(5, [0.0, 0.0, 1.0, 0.5]),
        ],
    ];
    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    for env in ENVS {
        let job = VertexJob {
            textures: textures.to_vec(),
            ..VertexJob::new(vertices.clone(), (5..13).map(Capture::Location).collect())
        };
        let out = dev
            .run_vertex(&compile(src, env), &job)
            .unwrap_or_else(|e| panic!("{env:?}: {e}"));
        let f = |vx: usize, n: u32| out.location_f32(vx, 5 + n);
        // Vertex 0: (2.5, 5.5)/8 at level 0 for TEX and TXB (no
        // derivatives outside fragment programs, section 2.X.4.4, so the
        // bias w = 2 changes nothing); TXL level 2 (2x2): (0, 1); TXP
        // (s, t)/2 -> (1, 2); TXD ddx = (1/4, 0): rho 2, level 1 (4x4):
        // (1, 2); TXF (1, 1) of level 1; TXQ level 1: 4x4. (TXQ's level is
        // the same for every vertex: lavapipe's size query takes the LOD of
        // the first SIMD lane; the fragment tests cover levels.)
        assert_eq!(f(0, 0), [2.0, 5.0, 0.0, 100.0], "{env:?} TEX");
        assert_eq!(f(0, 1), [2.0, 5.0, 0.0, 100.0], "{env:?} TXB");
        assert_eq!(f(0, 2), [0.0, 1.0, 0.0, 102.0], "{env:?} TXL");
        assert_eq!(f(0, 3), [1.0, 2.0, 0.0, 100.0], "{env:?} TXP");
        assert_eq!(f(0, 4), [1.0, 2.0, 0.0, 101.0], "{env:?} TXD");
        assert_eq!(f(0, 5), [1.0, 1.0, 0.0, 101.0], "{env:?} TXF");
        assert_eq!(
            harness::to_i32(out.location(0, 11)),
            [4, 4, 0, 0],
            "{env:?} TXQ"
        );
        assert_eq!(
            f(0, 7),
            [1.0, 1.0, 1.0, 1.0],
            "{env:?} SHADOWCUBE +X 0.05 <= 0.1"
        );
        // Vertex 1: texel (7, 0); TXL level 1: (3, 0); TXD dt/dy = 1: rho
        // 8, level 3; TXF (0, 0) of level 3.
        assert_eq!(f(1, 0), [7.0, 0.0, 0.0, 100.0], "{env:?} TEX");
        assert_eq!(f(1, 1), [7.0, 0.0, 0.0, 100.0], "{env:?} TXB");
        assert_eq!(f(1, 2), [3.0, 0.0, 0.0, 101.0], "{env:?} TXL");
        assert_eq!(f(1, 3), [7.0, 0.0, 0.0, 100.0], "{env:?} TXP");
        assert_eq!(f(1, 4), [0.0, 0.0, 0.0, 103.0], "{env:?} TXD");
        assert_eq!(f(1, 5), [0.0, 0.0, 0.0, 103.0], "{env:?} TXF");
        assert_eq!(
            harness::to_i32(out.location(1, 11)),
            [4, 4, 0, 0],
            "{env:?} TXQ"
        );
        assert_eq!(
            f(1, 7),
            [0.0, 0.0, 0.0, 1.0],
            "{env:?} SHADOWCUBE -Z 0.7 > 0.6"
        );
        // Vertex 2: (4, 4); TXL LOD -4 -> level 0; TXP (-1/8, -1/8) clamps
        // to (0, 0); TXD rho 1: level 0; TXF (1, 1) of level 2.
        assert_eq!(f(2, 0), [4.0, 4.0, 0.0, 100.0], "{env:?} TEX");
        assert_eq!(f(2, 1), [4.0, 4.0, 0.0, 100.0], "{env:?} TXB");
        assert_eq!(f(2, 2), [4.0, 4.0, 0.0, 100.0], "{env:?} TXL");
        assert_eq!(f(2, 3), [0.0, 0.0, 0.0, 100.0], "{env:?} TXP");
        assert_eq!(f(2, 4), [4.0, 4.0, 0.0, 100.0], "{env:?} TXD");
        assert_eq!(f(2, 5), [1.0, 1.0, 0.0, 102.0], "{env:?} TXF");
        assert_eq!(
            harness::to_i32(out.location(2, 11)),
            [4, 4, 0, 0],
            "{env:?} TXQ"
        );
        assert_eq!(
            f(2, 7),
            [1.0, 1.0, 1.0, 1.0],
            "{env:?} SHADOWCUBE +Z 0.5 <= 0.5"
        );
    }
}

/// Two levels of depth, every texel of level 0 at 0.25 and of level 1 at
/// 0.75, compared with LESS_OR_EQUAL.
fn two_depth_levels(kind: TextureKind, w: u32, h: u32, layers: u32, levels: u32) -> Texture {
    let mut t = depth(0, kind, w, h, layers, &[]);
    t.levels.clear();
    for (l, d) in [0.25f32, 0.75]
        .into_iter()
        .take(levels as usize)
        .enumerate()
    {
        let e = t.level_extent(l as u32);
        t.levels
            .push(vec![d.to_bits(); (e.width * e.height * layers) as usize]);
    }
    t
}

/// One target of the instruction x target matrix: its texture, the
/// coordinate of each case, and what TEX (and TXB, TXD: no derivatives,
/// so the base level), TXL (LOD w) and TXP (x, y, z divided by w) return.
struct Row {
    target: &'static str,
    texture: Texture,
    coords: Vec<[f32; 4]>,
    /// Per case: [TEX = TXB = TXD, TXL, TXP].
    want: Vec<[[f32; 4]; 3]>,
}

fn t(i: f32, j: f32, k: f32, level: f32) -> [f32; 4] {
    [i, j, k, 100.0 + level]
}

/// A depth comparison result c, returned as (c, c, c, 1).
fn c(x: f32) -> [f32; 4] {
    [x, x, x, 1.0]
}

fn matrix() -> Vec<Row> {
    use TextureKind as K;
    let shadow = |target, texture, coords: [[f32; 4]; 3], want: [[f32; 3]; 3]| Row {
        target,
        texture,
        coords: coords.to_vec(),
        want: want.iter().map(|w| w.map(c)).collect(),
    };
    vec![
        // 1D, 4 texels (level 1: 2): texel floor(4s) (floor(2s)).
        Row {
            target: "1D",
            texture: grid(K::D1, 4, 1, 1, 1, 2, 100.0),
            coords: vec![[0.6, 0.0, 0.0, 1.0], [0.9, 0.0, 0.0, 2.0]],
            want: vec![
                [t(2., 0., 0., 0.), t(1., 0., 0., 1.), t(2., 0., 0., 0.)],
                // TXL: LOD 2 clamps to level 1; TXP: s = 0.45 -> texel 1.
                [t(3., 0., 0., 0.), t(1., 0., 0., 1.), t(1., 0., 0., 0.)],
            ],
        },
        Row {
            target: "2D",
            texture: grid(K::D2, 4, 4, 1, 1, 2, 100.0),
            coords: vec![[0.6, 0.3, 0.0, 1.0], [0.9, 0.7, 0.0, 2.0]],
            want: vec![
                [t(2., 1., 0., 0.), t(1., 0., 0., 1.), t(2., 1., 0., 0.)],
                [t(3., 2., 0., 0.), t(1., 1., 0., 1.), t(1., 1., 0., 0.)],
            ],
        },
        Row {
            target: "3D",
            texture: grid(K::D3, 4, 4, 4, 1, 2, 100.0),
            coords: vec![[0.6, 0.3, 0.9, 1.0], [0.9, 0.7, 0.2, 2.0]],
            want: vec![
                [t(2., 1., 3., 0.), t(1., 0., 1., 1.), t(2., 1., 3., 0.)],
                // TXP: (0.45, 0.35, 0.1) -> (1, 1, 0).
                [t(3., 2., 0., 0.), t(1., 1., 0., 1.), t(1., 1., 0., 0.)],
            ],
        },
        // CUBE, 2x2 faces (level 1: 1x1), k = face.
        Row {
            target: "CUBE",
            texture: grid(K::Cube, 2, 2, 1, 6, 2, 100.0),
            coords: vec![[1.0, 0.5, 0.5, 1.0], [0.5, -1.0, -0.5, -2.0]],
            want: vec![
                // +X: sc = -rz, tc = -ry: (0, 0).
                [t(0., 0., 0., 0.), t(0., 0., 0., 1.), t(0., 0., 0., 0.)],
                // -Y: sc = rx, tc = -rz: (1, 1) of face 3; TXL LOD -2: level
                // 0; TXP: (-0.25, 0.5, 0.25) is +Y, sc = rx, tc = rz: (0, 1)
                // of face 2.
                [t(1., 1., 3., 0.), t(1., 1., 3., 0.), t(0., 1., 2., 0.)],
            ],
        },
        // RECT 3x2, one level: texel (floor(s), floor(t)).
        Row {
            target: "RECT",
            texture: grid(K::D2, 3, 2, 1, 1, 1, 100.0),
            coords: vec![[2.5, 0.5, 0.0, 1.0], [1.5, 1.5, 0.0, 2.0]],
            want: vec![
                [t(2., 0., 0., 0.), t(2., 0., 0., 0.), t(2., 0., 0., 0.)],
                [t(1., 1., 0., 0.), t(1., 1., 0., 0.), t(0., 0., 0., 0.)],
            ],
        },
        // ARRAY1D, 4 texels (level 1: 2) x 3 layers, layer from y.
        Row {
            target: "ARRAY1D",
            texture: grid(K::Array1D, 4, 1, 1, 3, 2, 100.0),
            coords: vec![[0.6, 1.0, 0.0, 1.0], [0.9, 2.0, 0.0, 2.0]],
            want: vec![
                [t(2., 0., 1., 0.), t(1., 0., 1., 1.), t(2., 0., 1., 0.)],
                // TXP: s 0.45 -> 1, layer 1.0 -> 1.
                [t(3., 0., 2., 0.), t(1., 0., 2., 1.), t(1., 0., 1., 0.)],
            ],
        },
        // ARRAY2D, 4x4 (level 1: 2x2) x 3 layers, layer from z.
        Row {
            target: "ARRAY2D",
            texture: grid(K::Array2D, 4, 4, 1, 3, 2, 100.0),
            coords: vec![[0.6, 0.3, 2.0, 1.0], [0.9, 0.7, 2.0, 2.0]],
            want: vec![
                [t(2., 1., 2., 0.), t(1., 0., 2., 1.), t(2., 1., 2., 0.)],
                [t(3., 2., 2., 0.), t(1., 1., 2., 1.), t(1., 1., 1., 0.)],
            ],
        },
        // SHADOW targets: level 0 holds 0.25, level 1 0.75; reference r
        // in z. Cases (r, w) = (0.5, 1), (0.5, 2), (0.2, 1): TEX r <= 0.25;
        // TXL (level 1) r <= 0.75; TXP r/w <= 0.25.
        shadow(
            "SHADOW1D",
            two_depth_levels(K::D1, 4, 1, 1, 2),
            [
                [0.5, 0.0, 0.5, 1.0],
                [0.5, 0.0, 0.5, 2.0],
                [0.5, 0.0, 0.2, 1.0],
            ],
            [[0., 1., 0.], [0., 1., 1.], [1., 1., 1.]],
        ),
        shadow(
            "SHADOW2D",
            two_depth_levels(K::D2, 4, 4, 1, 2),
            [
                [0.5, 0.5, 0.5, 1.0],
                [0.5, 0.5, 0.5, 2.0],
                [0.5, 0.5, 0.2, 1.0],
            ],
            [[0., 1., 0.], [0., 1., 1.], [1., 1., 1.]],
        ),
        // One level: TXL compares with 0.25 too.
        shadow(
            "SHADOWRECT",
            two_depth_levels(K::D2, 3, 2, 1, 1),
            [
                [1.5, 0.5, 0.5, 1.0],
                [1.5, 0.5, 0.5, 2.0],
                [1.5, 0.5, 0.2, 1.0],
            ],
            [[0., 0., 0.], [0., 0., 1.], [1., 1., 1.]],
        ),
        shadow(
            "SHADOWARRAY1D",
            two_depth_levels(K::Array1D, 4, 1, 2, 2),
            [
                [0.5, 1.0, 0.5, 1.0],
                [0.5, 1.0, 0.5, 2.0],
                [0.5, 1.0, 0.2, 1.0],
            ],
            [[0., 1., 0.], [0., 1., 1.], [1., 1., 1.]],
        ),
        // Reference in w; TXB, TXL and TXP do not take these targets.
        shadow(
            "SHADOWCUBE",
            two_depth_levels(K::Cube, 2, 2, 6, 2),
            [
                [1.0, 0.2, 0.3, 0.5],
                [1.0, 0.2, 0.3, 0.25],
                [-0.2, 0.3, 1.0, 0.2],
            ],
            [[0., 0., 0.], [1., 0., 0.], [1., 0., 0.]],
        ),
        shadow(
            "SHADOWARRAY2D",
            two_depth_levels(K::Array2D, 2, 2, 2, 2),
            [
                [0.5, 0.5, 1.0, 0.5],
                [0.5, 0.5, 1.0, 0.25],
                [0.5, 0.5, 0.0, 0.2],
            ],
            [[0., 0., 0.], [1., 0., 0.], [1., 0., 0.]],
        ),
    ]
}

/// The instructions of the matrix with the output (texcoord or colour
/// index) each writes, and which expectation of a row it checks.
const MATRIX_OPS: [(&str, u32, usize); 5] = [
    ("TEX", 0, 0),
    ("TXB", 1, 0),
    ("TXL", 2, 1),
    ("TXD", 3, 0),
    ("TXP", 4, 2),
];

/// TXB, TXL and TXP do not take SHADOWCUBE or SHADOWARRAY2D (section
/// 2.X.8.Z).
fn matrix_op_allowed(op: &str, target: &str) -> bool {
    !(matches!(op, "TXB" | "TXL" | "TXP") && matches!(target, "SHADOWCUBE" | "SHADOWARRAY2D"))
}

#[test]
fn every_sampling_instruction_on_every_target_in_both_stages() {
    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    for row in matrix() {
        let ops: Vec<_> = MATRIX_OPS
            .iter()
            .filter(|(op, _, _)| matrix_op_allowed(op, row.target))
            .collect();
        let texture = on(0, row.texture.clone());
        // Fragment program: TXD's partials (texcoord[1]) are zero.
        let mut fp = String::from("!!NVfp4.0\nOPTION ARB_draw_buffers;\n");
        let mut vp = String::from("!!NVvp4.0\n");
        for &&(op, out, _) in &ops {
            let (fa, va) = if op == "TXD" {
                (
                    "fragment.texcoord[0], fragment.texcoord[1], fragment.texcoord[1]",
                    "vertex.attrib[1], vertex.attrib[2], vertex.attrib[2]",
                )
            } else {
                ("fragment.texcoord[0]", "vertex.attrib[1]")
            };
            let target = row.target;
            fp += &format!("{op} result.color[{out}], {fa}, texture[0], {target};\n");
            vp += &format!("{op} result.texcoord[{out}], {va}, texture[0], {target};\n");
        }
        fp += "END\n";
        vp += "MOV result.position, vertex.attrib[0];\nEND\n";
        let cases: Vec<Vec<Input>> = row
            .coords
            .iter()
            .map(|&x| vec![tc(0, x), tc(1, [0.0; 4])])
            .collect();
        let vertices: Vec<Vec<Input>> = row
            .coords
            .iter()
            .map(|&x| {
                vec![
                    Input::float(0, [0.0; 4]),
                    Input::float(1, x),
                    Input::float(2, [0.0; 4]),
                ]
            })
            .collect();
        for env in ENVS {
            let job = FragmentJob {
                textures: vec![texture.clone()],
                ..FragmentJob::new(cases.clone())
            };
            let out = dev
                .run_fragment(&compile(&fp, env), &job)
                .unwrap_or_else(|e| panic!("{} {env:?}: {e}", row.target));
            let capture = ops.iter().map(|&&(_, o, _)| Capture::Location(5 + o));
            let job = VertexJob {
                textures: vec![texture.clone()],
                ..VertexJob::new(vertices.clone(), capture.collect())
            };
            let vout = dev
                .run_vertex(&compile(&vp, env), &job)
                .unwrap_or_else(|e| panic!("{} {env:?} (vertex): {e}", row.target));
            for (i, want) in row.want.iter().enumerate() {
                for &&(op, o, w) in &ops {
                    let what = format!("{op} {}, case {i}, {env:?}", row.target);
                    assert_eq!(out.color_f32(i, o), want[w], "fragment {what}");
                    assert_eq!(vout.location_f32(i, 5 + o), want[w], "vertex {what}");
                }
            }
        }
    }
}

/// `!!FP1.0` (NV_fragment_program 3.11.5.38): `TEX R0, f[TEX0], TEX1, 2D`
/// names texture image unit 1 by `TEX1`, which nvp4c reads as ARB's
/// `texture[1], 2D`; TXP divides by q first (3.11.5.38's TXP). Texel (i, j)
/// of the 8x4 grid holds (i, j, 0, 100).
#[test]
fn fp1_tex_and_txp_read_the_named_texture_unit() {
    let src = "!!FP1.0
TEX R0, f[TEX0], TEX1, 2D;
TXP R1, f[TEX0], TEX1, 2D;
ADDR o[COLR], R0, R1;
END
";
    let textures = [on(1, grid(TextureKind::D2, 8, 4, 1, 1, 1, 100.0))];
    // q = 1: TEX and TXP both hit texel (5, 2); q = 2 halves TXP's
    // coordinates: TEX hits (5, 2) from (5.5/8, 2.5/4) and TXP (2, 1) from
    // (2.75/8, 1.25/4).
    let cases = vec![
        vec![tc(0, [5.5 / 8.0, 2.5 / 4.0, 0.0, 1.0])],
        vec![tc(0, [5.5 / 8.0, 2.5 / 4.0, 0.0, 2.0])],
    ];
    run_fp(src, &textures, cases, |out| {
        assert_cases(
            out,
            0,
            "FP1 TEX + TXP",
            &[[10.0, 4.0, 0.0, 200.0], [7.0, 3.0, 0.0, 200.0]],
        );
    });
}

/// NV_gpu_program5 2.X.8.Z, TXG: the texels T_i0j1, T_i1j1, T_i1j0, T_i0j0
/// LINEAR filtering would read, one component of each, in that order. On
/// a 4x4 texture the coordinate (0.5, 0.5) is the corner shared by texels
/// (1..2, 1..2): u - 0.5 = 1.5, so i0 = j0 = 1 and i1 = j1 = 2. A texel
/// (i, j) holds [i, j, 0, 100], so `.x` names the column, `.y` the row.
#[test]
fn nv5_txg_gathers_one_component_of_the_four_linear_texels() {
    let src = "!!NVfp5.0
OPTION ARB_draw_buffers;
INT TEMP ox, oy;
ROUND.S ox, fragment.texcoord[1];
ROUND.S oy, fragment.texcoord[2];
TXG result.color[0], fragment.texcoord[0], texture[0], 2D;
TXG result.color[1], fragment.texcoord[0], texture[0].y, 2D;
TXG result.color[2], fragment.texcoord[0], texture[0].w, 2D;
TXG result.color[3], fragment.texcoord[0], texture[0], 2D, (1, 0);
TXGO result.color[4], fragment.texcoord[0], {0, 1, -1, 2}, {0, 0, 1, 2}, texture[0], 2D;
TXGO result.color[5], fragment.texcoord[0], ox, oy, texture[0].y, 2D;
END
";
    let textures = [on(0, grid(TextureKind::D2, 4, 4, 1, 1, 1, 100.0))];
    // The offsets of the register TXGO: x (0, 1, -1, 2), y (0, 0, 1, 2).
    let cases = vec![vec![
        tc(0, [0.5, 0.5, 0.0, 1.0]),
        tc(1, [0.0, 1.0, -1.0, 2.0]),
        tc(2, [0.0, 0.0, 1.0, 2.0]),
    ]];
    run_fp(src, &textures, cases, |out| {
        // (i0, j1), (i1, j1), (i1, j0), (i0, j0) = (1, 2), (2, 2), (2, 1), (1, 1).
        assert_cases(out, 0, "TXG .x (default)", &[[1.0, 2.0, 2.0, 1.0]]);
        assert_cases(out, 1, "TXG .y", &[[2.0, 2.0, 1.0, 1.0]]);
        assert_cases(out, 2, "TXG .w", &[[100.0; 4]]);
        // The constant offset (1, 0) moves every texel one column right.
        assert_cases(out, 3, "TXG offset (1, 0)", &[[2.0, 3.0, 3.0, 2.0]]);
        // TXGO: texel k is T_i0j0 moved by (x[k], y[k]): (1, 1), (2, 1),
        // (0, 2), (3, 3).
        assert_cases(out, 4, "TXGO literal offsets, .x", &[[1.0, 2.0, 0.0, 3.0]]);
        assert_cases(out, 5, "TXGO register offsets, .y", &[[1.0, 1.0, 2.0, 3.0]]);
    });
}

/// TXG on SHADOW2D (NV_gpu_program5 2.X.8.Z, TXG: "depth comparisons are
/// performed on the depth values for each of the four selected texels,
/// and 0/1 values are returned"). A 2x2 depth texture, row by row 0.2 0.4
/// / 0.6 0.8, gathered at its centre (i0 = j0 = 0, i1 = j1 = 1) against
/// the reference 0.5 (coordinate z) with LEQUAL: (0, 1) 0.6 -> 1, (1, 1)
/// 0.8 -> 1, (1, 0) 0.4 -> 0, (0, 0) 0.2 -> 0.
#[test]
fn nv5_txg_on_a_shadow_target_returns_four_comparisons() {
    let src = "!!NVfp5.0
TXG result.color, fragment.texcoord[0], texture[0], SHADOW2D;
END
";
    let textures = [depth(0, TextureKind::D2, 2, 2, 1, &[0.2, 0.4, 0.6, 0.8])];
    let cases = vec![
        vec![tc(0, [0.5, 0.5, 0.5, 1.0])],
        vec![tc(0, [0.5, 0.5, 0.1, 1.0])],
        vec![tc(0, [0.5, 0.5, 0.9, 1.0])],
    ];
    run_fp(src, &textures, cases, |out| {
        assert_cases(
            out,
            0,
            "TXG SHADOW2D",
            &[
                [1.0, 1.0, 0.0, 0.0],
                [1.0, 1.0, 1.0, 1.0],
                [0.0, 0.0, 0.0, 0.0],
            ],
        );
    });
}

/// LOD (NV_gpu_program4_1, kept by NV_gpu_program5): the level of detail
/// the texture's filtering would use, as OpImageQueryLod gives it
/// (docs/semantics.md, "Textures"): x the level accessed, y the computed
/// lambda. c.xy = fragment.position.xy * k has derivatives of k per pixel,
/// rho = 8k texels on the 8x8 base level of a four-level texture, lambda =
/// log2(8k): k = 1/8 -> 0, 1/2 -> 2, 1 -> 3, 4 -> 5 (accessed: level 3,
/// the last).
#[test]
fn nv5_lod_reports_the_level_and_lambda_of_the_derivatives() {
    let src = "!!NVfp5.0
TEMP c;
MUL c, fragment.position, fragment.texcoord[0];
LOD result.color, c, texture[0], 2D;
END
";
    let textures = [mip_levels(0).with_sampler(SamplerDesc {
        mipmap: vk::SamplerMipmapMode::LINEAR,
        ..SamplerDesc::default()
    })];
    let ks = [0.125f32, 0.5, 1.0, 4.0];
    let cases = ks.iter().map(|&k| vec![tc(0, [k, k, 0.0, 0.0])]).collect();
    run_fp(src, &textures, cases, |out| {
        let want = [[0.0, 0.0], [2.0, 2.0], [3.0, 3.0], [3.0, 5.0]];
        for (i, w) in want.iter().enumerate() {
            let got = out.color_f32(i, 0);
            // Vulkan allows the LOD computation an approximation (its
            // "lodPrecision" bits, and rho's estimate): 1/16 of a level.
            assert!(
                (got[0] - w[0]).abs() < 0.0625 && (got[1] - w[1]).abs() < 0.0625,
                "LOD, k = {}: got {got:?}, want ({}, {}, 0, 0)",
                ks[i],
                w[0],
                w[1]
            );
            assert_eq!(&got[2..], &[0.0, 0.0], "LOD z, w");
        }
    });
}

/// IPAC, IPAO and IPAS (NV_gpu_program5 2.X.8.Z): the attribute
/// interpolated at the centroid, at an offset from the pixel centre, at a
/// sample. A triangle covers the 32x32 target with texcoord[0] = the
/// window position / 32, so at pixel (x, y) the attribute at the centre is
/// ((x + 0.5) / 32, (y + 0.5) / 32). With one sample per pixel the
/// centroid and sample 0 are the centre; IPAO's offset (0.25, -0.5) moves
/// it to ((x + 0.75) / 32, y / 32). The operand's modifiers apply after
/// the interpolation.
#[test]
fn nv5_ipa_instructions_interpolate_at_the_centroid_an_offset_and_a_sample() {
    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    let vp = "!!NVvp5.0
MOV result.position, vertex.attrib[0];
MOV result.texcoord[0], vertex.attrib[1];
END
";
    let fp = "!!NVfp5.0
OPTION ARB_draw_buffers;
IPAC result.color[0], fragment.texcoord[0];
IPAO result.color[1], fragment.texcoord[0], {0.25, -0.5, 0, 0};
IPAS result.color[2], -fragment.texcoord[0].yxzw, 0;
MOV result.color[3], fragment.texcoord[0];
END
";
    // Clip (-1, -1) .. (3, 3): the window's 32 pixels span clip -1..1, so
    // window x = (clip x + 1) * 16 and the attribute (clip + 1) / 2 is
    // window / 32.
    let corner = |x: f32, y: f32| {
        vec![
            Input::float(0, [x, y, 0.0, 1.0]),
            Input::float(1, [(x + 1.0) / 2.0, (y + 1.0) / 2.0, 0.25, 1.0]),
        ]
    };
    let job = harness::RasterJob::new(
        vec![corner(-1.0, -1.0), corner(3.0, -1.0), corner(-1.0, 3.0)],
        vk::PrimitiveTopology::TRIANGLE_LIST,
    );
    for env in ENVS {
        let out = dev
            .run_raster(&compile(vp, env), None, &compile(fp, env), &job)
            .unwrap_or_else(|e| panic!("{env:?}: {e}"));
        for (x, y) in [(3u32, 5u32), (20, 11), (31, 0)] {
            let (fx, fy) = (x as f32, y as f32);
            let centre = [(fx + 0.5) / 32.0, (fy + 0.5) / 32.0, 0.25, 1.0];
            let want = [
                centre,
                [(fx + 0.75) / 32.0, fy / 32.0, 0.25, 1.0],
                [-centre[1], -centre[0], -0.25, -1.0],
                centre,
            ];
            for (loc, w) in want.iter().enumerate() {
                let got = harness::to_f32(out.color(x, y, loc as u32));
                assert!(
                    got.iter().zip(w).all(|(g, w)| (g - w).abs() < 1e-5),
                    "{env:?} pixel ({x}, {y}) result.color[{loc}]: got {got:?}, want {w:?}"
                );
            }
        }
    }
}

/// NV_gpu_program5's ARRAYCUBE target: a cube map array, the direction in
/// x, y, z and the cube in w (rounded, as every array layer). Two cubes of
/// 2x2 faces; every texel of layer k holds [k, 0, k, 100], so k names the
/// face (+X 0, -X 1, +Y 2, -Y 3, +Z 4, -Z 5) plus 6 per cube. The
/// directions point at face centres, where TXG's 2x2 footprint is the
/// face's own four texels (off-centre, Vulkan's seamless cube filtering
/// would take texels of the neighbouring faces). TXQ gives the face size
/// and the number of cubes.
#[test]
fn nv5_arraycube_samples_the_face_of_the_selected_cube() {
    let src = "!!NVfp5.0
OPTION ARB_draw_buffers;
TEX result.color[0], fragment.texcoord[0], texture[0], ARRAYCUBE;
TXL result.color[1], fragment.texcoord[0], texture[0], ARRAYCUBE;
TXG result.color[2], fragment.texcoord[0], texture[0].z, ARRAYCUBE;
TXQ result.color[3], {0, 0, 0, 0}, texture[0], ARRAYCUBE;
END
";
    let data = (0..12u32)
        .flat_map(|k| (0..4).flat_map(move |_| [k as f32, 0.0, k as f32, 100.0].map(f32::to_bits)))
        .collect();
    let texture = Texture::new(
        0,
        TextureKind::CubeArray,
        vk::Format::R32G32B32A32_SFLOAT,
        2,
        2,
        1,
        12,
        vec![data],
    );
    let cases = vec![
        // +X of cube 0; -Y of cube 1 (w = 0.6 rounds to 1); +Z of cube 1.
        vec![tc(0, [1.0, 0.0, 0.0, 0.0])],
        vec![tc(0, [0.0, -2.0, 0.0, 0.6])],
        vec![tc(0, [0.0, 0.0, 5.0, 1.0])],
    ];
    run_fp(src, &[texture], cases, |out| {
        let at = |k: f32| [k, 0.0, k, 100.0];
        assert_cases(out, 0, "TEX ARRAYCUBE", &[at(0.0), at(9.0), at(10.0)]);
        // TXL reads the LOD from w, which is the layer here: the texture
        // has one level, so every LOD reads it.
        assert_cases(out, 1, "TXL ARRAYCUBE", &[at(0.0), at(9.0), at(10.0)]);
        assert_cases(out, 2, "TXG ARRAYCUBE .z", &[[0.0; 4], [9.0; 4], [10.0; 4]]);
        let size = [2.0, 2.0, 2.0, 0.0].map(|v: f32| f32::from_bits(v as i32 as u32));
        assert_cases(out, 3, "TXQ ARRAYCUBE", &[size, size, size]);
    });
}

/// NV_gpu_program5's `offset(a)` (<texOffsetVar>, 2.X.4.4): the texel
/// offset from a signed integer operand, "added to the computed <u>, <v>,
/// and <w> texel locations". TXF adds it to its integer coordinates; TXG
/// moves its 2x2 footprint. The 8x4 grid texel (i, j) holds [i, j, 0, 100].
#[test]
fn nv5_texel_offsets_from_an_operand_move_txf_and_txg() {
    let src = "!!NVfp5.0
OPTION ARB_draw_buffers;
INT TEMP o, c;
ROUND.S o, fragment.texcoord[1];
MOV.S c, {2, 1, 0, 0};
TXF result.color[0], c, texture[0], 2D, offset(o);
TXG result.color[1], fragment.texcoord[0], texture[0], 2D, offset(o);
TXG result.color[2], fragment.texcoord[0], texture[0].y, 2D, offset(o);
END
";
    let textures = [on(0, grid(TextureKind::D2, 8, 4, 1, 1, 1, 100.0))];
    // (0.25, 0.5) on 8x4: u - 0.5 = 1.5, v - 0.5 = 1.5: the footprint
    // (1..2, 1..2) before the offset.
    let cases = vec![
        vec![tc(0, [0.25, 0.5, 0.0, 1.0]), tc(1, [1.0, -1.0, 0.0, 0.0])],
        vec![tc(0, [0.25, 0.5, 0.0, 1.0]), tc(1, [3.0, 1.0, 5.0, 7.0])],
    ];
    run_fp(src, &textures, cases, |out| {
        // TXF (2, 1) + (1, -1) = (3, 0); + (3, 1) = (5, 2) (z and w ignored).
        assert_cases(
            out,
            0,
            "TXF offset(o)",
            &[[3.0, 0.0, 0.0, 100.0], [5.0, 2.0, 0.0, 100.0]],
        );
        // TXG x: footprint (2..3, 0..1), then (4..5, 2..3): (i0, i1, i1, i0).
        assert_cases(
            out,
            1,
            "TXG offset(o) .x",
            &[[2.0, 3.0, 3.0, 2.0], [4.0, 5.0, 5.0, 4.0]],
        );
        // TXG y: (j1, j1, j0, j0).
        assert_cases(
            out,
            2,
            "TXG offset(o) .y",
            &[[1.0, 1.0, 0.0, 0.0], [3.0, 3.0, 2.0, 2.0]],
        );
    });
}

/// NV_gpu_program5 2.X.3.8 and issue 1: a texture array indexed with a
/// register picks its unit at run time, and the index may differ from one
/// fragment to the next. `textures` binds units 1, 2, 3, whose 4x4 grids
/// are tagged 100, 200, 300 (texel (i, j) holds [i, j, 0, tag]);
/// `textures[i.x + 1]` with i.x = floor(z) = -1, 0, 1 reads units 1, 2, 3.
/// TEX samples texel (2, 1) from (2.5/4, 1.5/4); TXF fetches texel (3, 0)
/// through `textures[i.x]`, one element earlier. An index past the end is
/// undefined in the spec; nvp4c clamps it (docs/semantics.md), so z = 7
/// reads unit 3 for both.
#[test]
fn nv5_a_texture_array_indexed_by_a_register_samples_the_unit_it_names() {
    let src = "!!NVfp5.0
OPTION ARB_draw_buffers;
TEXTURE textures[] = { texture[1..3] };
INT TEMP i;
TEMP c, f;
FLR.S i.x, fragment.texcoord[0].z;
TEX c, fragment.texcoord[0], textures[i.x + 1], 2D;
TXF f, {3, 0, 0, 0}, textures[i.x], 2D;
MOV result.color[0], c;
MOV result.color[1], f;
END
";
    let textures = [
        on(1, grid(TextureKind::D2, 4, 4, 1, 1, 1, 100.0)),
        on(2, grid(TextureKind::D2, 4, 4, 1, 1, 1, 200.0)),
        on(3, grid(TextureKind::D2, 4, 4, 1, 1, 1, 300.0)),
    ];
    let cases: Vec<Vec<Input>> = [-1.0f32, 0.0, 1.0, 7.0]
        .iter()
        .map(|&z| vec![tc(0, [2.5 / 4.0, 1.5 / 4.0, z, 1.0])])
        .collect();
    run_fp(src, &textures, cases, |out| {
        assert_cases(
            out,
            0,
            "TEX through textures[i.x + 1]",
            &[
                [2.0, 1.0, 0.0, 100.0],
                [2.0, 1.0, 0.0, 200.0],
                [2.0, 1.0, 0.0, 300.0],
                [2.0, 1.0, 0.0, 300.0],
            ],
        );
        // textures[i.x]: -1 clamps to element 0 (unit 1), then units 1, 2, 3.
        assert_cases(
            out,
            1,
            "TXF through textures[i.x]",
            &[
                [3.0, 0.0, 0.0, 100.0],
                [3.0, 0.0, 0.0, 100.0],
                [3.0, 0.0, 0.0, 200.0],
                [3.0, 0.0, 0.0, 300.0],
            ],
        );
    });
}
