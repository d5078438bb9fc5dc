//! Shader model 2 and 3 texture instructions (texld, texldp, texldb,
//! texldl, texldd, texkill, dsx, dsy) on uploaded textures, with the texel
//! each sample must hit worked out from the coordinates (NEAREST filtering,
//! texel i covering [i/w, (i+1)/w)).

use ash::vk;

use super::{case, run_cases, Bind, Case};
use crate::harness::{self, SamplerDesc, Texture, TextureKind};

/// `[i, j, k, tag]` for texel (i, j) of slice, layer or face k, every level
/// tagged `tag + level`.
#[allow(clippy::too_many_arguments)] // a texture has this many dimensions
pub fn grid(
    unit: u32,
    kind: TextureKind,
    w: u32,
    h: u32,
    d: u32,
    layers: u32,
    levels: u32,
    tag: f32,
) -> Texture {
    let mut t = Texture::new(
        unit,
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
    t.sampler = SamplerDesc {
        mipmap: vk::SamplerMipmapMode::NEAREST,
        ..SamplerDesc::default()
    };
    t
}

/// An 8x8 2D texture with 4 levels, each texel of level l = (l, 0, 0, 1).
pub fn levels(unit: u32) -> Texture {
    let mut t = grid(unit, TextureKind::D2, 8, 8, 1, 1, 4, 0.0);
    for (l, data) in t.levels.iter_mut().enumerate() {
        for texel in data.chunks_mut(4) {
            texel.copy_from_slice(&[l as f32, 0.0, 0.0, 1.0].map(f32::to_bits));
        }
    }
    t
}

const PS2: &[&str] = &["ps_2_0", "ps_2_x", "ps_3_0"];

/// The ps_2_x/ps_2_0 input register or the ps_3_0 semantic of texture
/// coordinate set 0.
fn tc(ver: &str) -> (&'static str, &'static str) {
    if ver == "ps_3_0" {
        ("dcl_texcoord0 v0", "texcoord0")
    } else {
        ("dcl t0", "t0")
    }
}

fn reg(ver: &str) -> &'static str {
    if ver == "ps_3_0" {
        "v0"
    } else {
        "t0"
    }
}

pub fn cases() -> Vec<Case> {
    let mut v = Vec::new();
    let tex2d = grid(0, TextureKind::D2, 4, 4, 1, 1, 1, 7.0);
    let cube = grid(1, TextureKind::Cube, 1, 1, 1, 6, 1, 0.0);
    let volume = grid(2, TextureKind::D3, 2, 2, 2, 1, 1, 3.0);
    for ver in PS2 {
        let (dcl, input) = tc(ver);
        let r = reg(ver);
        // texld on 2D: texel (1, 2) centre is (1.5/4, 2.5/4).
        v.push(case(
            &format!("texld 2D ({ver})"),
            &format!("{ver}\n{dcl}\ndcl_2d s0\ntexld r0, {r}, s0\nmov oC0, r0\n"),
            &[(input, [0.375, 0.625, 0.0, 1.0])],
            Bind::default().texture(tex2d.clone()),
            &[("oC0", [1.0, 2.0, 0.0, 7.0])],
        ));
        // texldp divides by w: (0.75, 1.25, -, 2) -> (0.375, 0.625).
        v.push(case(
            &format!("texldp ({ver})"),
            &format!("{ver}\n{dcl}\ndcl_2d s0\ntexldp r0, {r}, s0\nmov oC0, r0\n"),
            &[(input, [0.75, 1.25, 0.0, 2.0])],
            Bind::default().texture(tex2d.clone()),
            &[("oC0", [1.0, 2.0, 0.0, 7.0])],
        ));
        // A cube map: the direction (0, -1, 0) is the -Y face (face 3).
        v.push(case(
            &format!("texld CUBE ({ver})"),
            &format!("{ver}\n{dcl}\ndcl_cube s1\ntexld r0, {r}, s1\nmov oC0, r0\n"),
            &[(input, [0.1, -1.0, 0.2, 1.0])],
            Bind::default().texture(cube.clone()),
            &[("oC0", [0.0, 0.0, 3.0, 0.0])],
        ));
        // A volume: (0.25, 0.75, 0.75) is texel (0, 1) of slice 1.
        v.push(case(
            &format!("texld VOLUME ({ver})"),
            &format!("{ver}\n{dcl}\ndcl_volume s2\ntexld r0, {r}, s2\nmov oC0, r0\n"),
            &[(input, [0.25, 0.75, 0.75, 1.0])],
            Bind::default().texture(volume.clone()),
            &[("oC0", [0.0, 1.0, 1.0, 3.0])],
        ));
        // texkill: any component of the register (its write mask) < 0
        // discards the pixel.
        v.push(case(
            &format!("texkill kills on a negative component ({ver})"),
            &format!("{ver}\n{dcl}\ntexkill {r}\nmov oC0, {r}\n"),
            &[(input, [0.5, 0.5, 0.5, -0.25])],
            Bind::default(),
            &[("killed", [0.0; 4])],
        ));
        v.push(case(
            &format!("texkill keeps a non-negative register ({ver})"),
            &format!("{ver}\n{dcl}\ntexkill {r}\nmov oC0, {r}\n"),
            &[(input, [0.5, 0.0, 0.5, 0.25])],
            Bind::default(),
            &[("oC0", [0.5, 0.0, 0.5, 0.25])],
        ));
    }
    // texldl (ps_3_0): the level from w, 2 -> level 2.
    v.push(case(
        "texldl (ps_3_0)",
        "ps_3_0\ndcl_texcoord0 v0\ndcl_2d s0\ntexldl r0, v0, s0\nmov oC0, r0\n",
        &[("texcoord0", [0.5, 0.5, 0.0, 2.0])],
        Bind::default().texture(levels(0)),
        &[("oC0", [2.0, 0.0, 0.0, 1.0])],
    ));
    // texldd: gradients (0.5, 0) on an 8-texel texture = 4 texels per
    // pixel, level log2(4) = 2.
    for ver in ["ps_2_x", "ps_3_0"] {
        let (dcl, input) = tc(ver);
        let r = reg(ver);
        v.push(case(
            &format!("texldd ({ver})"),
            &format!("{ver}\n{dcl}\ndcl_2d s0\ndef c0, 0.5, 0, 0, 0\ndef c1, 0, 0.125, 0, 0\ntexldd r0, {r}, s0, c0, c1\nmov oC0, r0\n"),
            &[(input, [0.5, 0.5, 0.0, 1.0])],
            Bind::default().texture(levels(0)),
            &[("oC0", [2.0, 0.0, 0.0, 1.0])],
        ));
    }
    // ps_3_0: texld's sampler swizzle picks from the texel.
    v.push(case(
        "texld with a sampler swizzle (ps_3_0)",
        "ps_3_0\ndcl_texcoord0 v0\ndcl_2d s0\ntexld r0, v0, s0.wzyx\nmov oC0, r0\n",
        &[("texcoord0", [0.375, 0.625, 0.0, 1.0])],
        Bind::default().texture(tex2d.clone()),
        &[("oC0", [7.0, 0.0, 2.0, 1.0])],
    ));
    // vPos moves one pixel per pixel: texture coordinates vPos / 8 on an
    // 8x8 texture move one texel per pixel, level 0; texldb's bias of 2
    // picks level 2; dsx/dsy of vPos are (1, 0) and (0, 1).
    v.push(case(
        "texld, texldb and dsx, dsy of vPos (ps_3_0)",
        "ps_3_0\ndcl vPos.xy\ndcl_2d s0\ndef c0, 0.125, 0.125, 0, 2\ndef c1, 0, 0, 0, 0\nmov r1, c1\nmul r1.xy, vPos, c0\nmov r1.w, c0.w\ntexld r0, r1, s0\ntexldb r2, r1, s0\ndsx r3, vPos.xyyy\ndsy r4, vPos.xyyy\nmov oC0, r0\nmov oC1, r2\nmov oC2, r3\nmov oC3, r4\n",
        &[],
        Bind::default().texture(levels(0)),
        &[
            ("oC0", [0.0, 0.0, 0.0, 1.0]),
            ("oC1", [2.0, 0.0, 0.0, 1.0]),
            ("oC2", [1.0, 0.0, 0.0, 0.0]),
            ("oC3", [0.0, 1.0, 1.0, 1.0]),
        ],
    ));
    // vs_3_0 texldl: vertex texture fetch of level 1.
    v.push(case(
        "texldl in a vertex shader (vs_3_0)",
        "vs_3_0\ndcl_position v0\ndcl_texcoord0 v1\ndcl_2d s0\ndcl_position o0\ndcl_texcoord0 o1\nmov o0, v0\ntexldl r0, v1, s0\nmov o1, r0\n",
        &[("v0", [0.0, 0.0, 0.0, 1.0]), ("v1", [0.5, 0.5, 0.0, 1.0])],
        Bind::default().texture(levels(0)),
        &[("texcoord0", [1.0, 0.0, 0.0, 1.0])],
    ));
    v
}

#[test]
fn texld_texldp_texldl_texldd_texldb_texkill_dsx_dsy_hit_the_worked_out_texels() {
    run_cases(&cases());
}

/// dsx and dsy of ps_2_x, and texldb's bias in ps_2_0 and ps_2_x, need
/// coordinates that vary across pixels: a vs_2_0 shader draws a quad over
/// an 8x8 target with texture coordinates 0..1, so they change by 1/8 per
/// pixel (one texel of an 8x8 texture: level 0).
/// The shaders of `dsx_dsy_and_texldb_on_a_rasterised_quad`.
pub fn raster_shaders() -> Vec<String> {
    let mut v =
        vec!["vs_2_0\ndcl_position v0\ndcl_texcoord v1\nmov oPos, v0\nmov oT0, v1\n".to_string()];
    for ver in ["ps_2_0", "ps_2_x"] {
        let deriv = if ver == "ps_2_x" {
            "dsx r2, t0\ndsy r3, t0\n"
        } else {
            "mov r2, c1\nmov r3, c1\n"
        };
        v.push(format!("{ver}\ndcl t0\ndcl_2d s0\ndef c0, 0, 0, 0, 2\ndef c1, 0, 0, 0, 0\nmov r1, t0\nmov r1.w, c0.w\ntexld r0, t0, s0\ntexldb r1, r1, s0\n{deriv}mov oC0, r0\nmov oC1, r1\nmov oC2, r2\nmov oC3, r3\n"));
    }
    v
}

#[test]
fn dsx_dsy_and_texldb_on_a_rasterised_quad() {
    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    let mut options = nvp4c::Options::default();
    options.descriptor_set = Some(1);
    let shaders = raster_shaders();
    let vs = super::compile(&shaders[0], &options);
    let quad = [
        (-1.0, -1.0, 0.0, 0.0),
        (1.0, -1.0, 1.0, 0.0),
        (-1.0, 1.0, 0.0, 1.0),
        (1.0, 1.0, 1.0, 1.0),
    ];
    let vertices: Vec<Vec<harness::Input>> = [0usize, 1, 2, 2, 1, 3]
        .iter()
        .map(|&k| {
            let (x, y, s, t) = quad[k];
            vec![
                harness::Input::float(0, [x, y, 0.0, 1.0]),
                harness::Input::float(1, [s, t, 0.0, 1.0]),
            ]
        })
        .collect();
    for (ver, ps) in ["ps_2_0", "ps_2_x"].into_iter().zip(&shaders[1..]) {
        let ps = super::compile(ps, &options);
        let job = harness::RasterJob {
            width: 8,
            height: 8,
            textures: vec![levels(0)],
            ..harness::RasterJob::new(vertices.clone(), vk::PrimitiveTopology::TRIANGLE_LIST)
        };
        let out = dev
            .run_raster(&vs.spirv, None, &ps.spirv, &job)
            .unwrap_or_else(|e| panic!("{ver}: {e:?}"));
        for (x, y) in [(1, 1), (6, 2), (3, 5)] {
            assert_eq!(
                harness::to_f32(out.color(x, y, 0)),
                [0.0, 0.0, 0.0, 1.0],
                "{ver} texld level 0 at ({x}, {y})"
            );
            assert_eq!(
                harness::to_f32(out.color(x, y, 1)),
                [2.0, 0.0, 0.0, 1.0],
                "{ver} texldb bias 2 at ({x}, {y})"
            );
            if ver == "ps_2_x" {
                assert_eq!(
                    harness::to_f32(out.color(x, y, 2)),
                    [0.125, 0.0, 0.0, 0.0],
                    "dsx at ({x}, {y})"
                );
                assert_eq!(
                    harness::to_f32(out.color(x, y, 3)),
                    [0.0, 0.125, 0.0, 0.0],
                    "dsy at ({x}, {y})"
                );
            }
        }
    }
}
