//! Execution tests of `!!ARBfp1.0`/`!!ARBvp1.0` programs that need
//! textures or the fragment's position, on the Vulkan device (the ALU,
//! flow and address-register cases are `.nvtest` files in
//! tests/conformance/arb/, which also run in the interpreter). Expected
//! values are computed by hand from ARB_fragment_program 3.11.6,
//! ARB_fragment_program_shadow, NV_fragment_program_option (TXD),
//! NV_fragment_program2 (TXL), NV_vertex_program3 (vertex textures) and
//! ARB_fragment_coord_conventions.

use crate::harness::{
    self, Capture, FragmentJob, FragmentOutput, Input, SamplerDesc, Texture, TextureKind, VertexJob,
};
use ash::vk;

fn compile(src: &str) -> Vec<u32> {
    match nvp4c::compile(src, &nvp4c::Options::default()) {
        Ok(c) => c.spirv,
        Err(d) => panic!("compile failed:\n{}", d.render("t", src, false)),
    }
}

fn run_fp(src: &str, textures: Vec<Texture>, cases: Vec<Vec<Input>>) -> Option<FragmentOutput> {
    let dev = harness::device_or_skip()?;
    let job = FragmentJob {
        textures,
        ..FragmentJob::new(cases)
    };
    Some(
        dev.run_fragment(&compile(src), &job)
            .unwrap_or_else(|e| panic!("{e}\n--- program ---\n{src}")),
    )
}

fn tc(n: u32, v: [f32; 4]) -> Input {
    Input::float(5 + n, v)
}

/// `[i, j, k, tag]` at texel (i, j) of layer or face k, one level.
fn grid(unit: u32, kind: TextureKind, w: u32, h: u32, layers: u32, tag: f32) -> Texture {
    let mut data = Vec::new();
    for k in 0..layers {
        for j in 0..h {
            for i in 0..w {
                data.extend([i as f32, j as f32, k as f32, tag].map(f32::to_bits));
            }
        }
    }
    Texture::new(
        unit,
        kind,
        vk::Format::R32G32B32A32_SFLOAT,
        w,
        h,
        1,
        layers,
        vec![data],
    )
}

/// Levels of an 8x8 texture, level L holding `[L, 0, 0, 1]` everywhere.
fn mip_levels(unit: u32, levels: u32) -> Texture {
    let data = (0..levels)
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
        data,
    )
}

/// A D32_SFLOAT texture compared with LEQUAL (1 when the reference is <=
/// the stored depth), as GL's TEXTURE_COMPARE_FUNC LEQUAL.
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

fn expect(out: &FragmentOutput, loc: u32, what: &str, want: &[[f32; 4]]) {
    for (case, w) in want.iter().enumerate() {
        assert_eq!(out.color_f32(case, loc), *w, "{what}, case {case}");
    }
}

#[test]
fn texture_instructions_in_loop_bodies_and_the_subroutines_they_call_sample_their_units() {
    // NV_fragment_program2: `LOOP {3, 0, 1}` runs its body three times; a
    // TEX in the body, and one in a subroutine the body CALs, each sample
    // their unit on every iteration (units used only inside a LOOP were
    // once left undeclared).
    let src = "!!ARBfp1.0
OPTION NV_fragment_program2;
TEMP r, t;
MOV r, 0;
LOOP {3, 0, 1};
TEX t, fragment.texcoord[0], texture[2], 2D;
ADD r, r, t;
CAL sample;
ENDLOOP;
MOV result.color, r;
RET;
sample:
TEX t, fragment.texcoord[1], texture[1], 2D;
ADD r, r, t;
RET;
END
";
    let textures = vec![
        grid(1, TextureKind::D2, 2, 2, 1, 5.0),
        grid(2, TextureKind::D2, 2, 2, 1, 2.0),
    ];
    // texcoord[0] is texel (1, 0) of unit 2: [1, 0, 0, 2]; texcoord[1]
    // texel (0, 1) of unit 1: [0, 1, 0, 5]; three iterations of both.
    let cases = vec![vec![
        tc(0, [0.75, 0.25, 0.0, 1.0]),
        tc(1, [0.25, 0.75, 0.0, 1.0]),
    ]];
    let Some(out) = run_fp(src, textures, cases) else {
        return;
    };
    expect(
        &out,
        0,
        "TEX in LOOP and in a CAL'd subroutine",
        &[[3.0, 3.0, 0.0, 21.0]],
    );
}

#[test]
fn arb_fragment_program_texture_instructions_and_targets() {
    // ARB_fragment_program 3.11.6: TEX samples (s, t, r) of the target;
    // TXP divides s, t, r by q first; TXB adds q to the LOD; RECT takes
    // texel coordinates; CUBE picks the face of the major axis; _SAT clamps
    // the sampled colour.
    let src = "!!ARBfp1.0
OPTION ARB_draw_buffers;
TEMP c;
TEX result.color[0], fragment.texcoord[0], texture[0], 2D;
TXP result.color[1], fragment.texcoord[1], texture[0], 2D;
TEX result.color[2], fragment.texcoord[2], texture[1], RECT;
TEX result.color[3], fragment.texcoord[3], texture[2], CUBE;
TEX_SAT result.color[4], fragment.texcoord[0], texture[3], 2D;
MUL c, fragment.position, 0.125;
MOV c.w, fragment.texcoord[4].w;
TXB result.color[5], c, texture[4], 2D;
END
";
    let textures = vec![
        grid(0, TextureKind::D2, 8, 4, 1, 100.0),
        grid(1, TextureKind::D2, 8, 4, 1, 200.0),
        grid(2, TextureKind::Cube, 1, 1, 6, 300.0),
        Texture::new(
            3,
            TextureKind::D2,
            vk::Format::R32G32B32A32_SFLOAT,
            1,
            1,
            1,
            1,
            vec![[-0.5f32, 0.5, 2.0, 1.0].map(f32::to_bits).to_vec()],
        ),
        mip_levels(4, 4),
    ];
    let cases = vec![
        vec![
            tc(0, [5.5 / 8.0, 2.5 / 4.0, 0.0, 1.0]),
            tc(1, [5.5 / 4.0, 2.5 / 2.0, 0.0, 2.0]),
            tc(2, [3.5, 1.5, 0.0, 1.0]),
            tc(3, [0.0, -1.0, 0.25, 0.0]),
            tc(4, [0.0, 0.0, 0.0, 0.0]),
        ],
        vec![
            tc(0, [0.5 / 8.0, 3.5 / 4.0, 0.0, 1.0]),
            tc(1, [7.5 / 8.0 * 0.5, 0.5 / 4.0 * 0.5, 0.0, 0.5]),
            tc(2, [7.9, 0.2, 0.0, 1.0]),
            tc(3, [0.5, 0.25, -2.0, 0.0]),
            tc(4, [0.0, 0.0, 0.0, 2.0]),
        ],
    ];
    let Some(out) = run_fp(src, textures, cases) else {
        return;
    };
    expect(
        &out,
        0,
        "TEX 2D",
        &[[5.0, 2.0, 0.0, 100.0], [0.0, 3.0, 0.0, 100.0]],
    );
    // TXP: (5.5/4, 2.5/2) / 2 = (5.5/8, 2.5/4); (7.5/16, 0.5/32) / 0.5.
    expect(
        &out,
        1,
        "TXP 2D",
        &[[5.0, 2.0, 0.0, 100.0], [7.0, 0.0, 0.0, 100.0]],
    );
    expect(
        &out,
        2,
        "TEX RECT",
        &[[3.0, 1.0, 0.0, 200.0], [7.0, 0.0, 0.0, 200.0]],
    );
    // Faces +X 0, -X 1, +Y 2, -Y 3, +Z 4, -Z 5: (0, -1, .25) is -Y,
    // (.5, .25, -2) is -Z.
    expect(
        &out,
        3,
        "TEX CUBE",
        &[[0.0, 0.0, 3.0, 300.0], [0.0, 0.0, 5.0, 300.0]],
    );
    expect(
        &out,
        4,
        "TEX_SAT",
        &[[0.0, 0.5, 1.0, 1.0], [0.0, 0.5, 1.0, 1.0]],
    );
    // TXB: c.xy = fragment.position.xy / 8 changes by 1/8 per pixel: rho = 1
    // texel, lambda 0; plus the bias in w: 0 -> level 0, 2 -> level 2.
    expect(
        &out,
        5,
        "TXB",
        &[[0.0, 0.0, 0.0, 1.0], [2.0, 0.0, 0.0, 1.0]],
    );
}

#[test]
fn arb_fragment_program_shadow_compares_r_with_the_depth() {
    // ARB_fragment_program_shadow: SHADOW1D/2D/RECT compare the r (third)
    // coordinate, after TXP's division, with the depth texel; the result
    // with LUMINANCE depth mode is (c, c, c, 1).
    let src = "!!ARBfp1.0
OPTION ARB_fragment_program_shadow;
OPTION ARB_draw_buffers;
TEX result.color[0], fragment.texcoord[0], texture[0], SHADOW2D;
TEX result.color[1], fragment.texcoord[0], texture[1], SHADOW1D;
TEX result.color[2], fragment.texcoord[1], texture[2], SHADOWRECT;
TXP result.color[3], fragment.texcoord[2], texture[0], SHADOW2D;
END
";
    let row = [0.25, 0.5, 0.75, 1.0];
    let textures = vec![
        depth(0, TextureKind::D2, 4, 1, 1, &row),
        depth(1, TextureKind::D1, 4, 1, 1, &row),
        depth(2, TextureKind::D2, 4, 1, 1, &row),
    ];
    let cases = vec![
        // texel 1 (0.5): 0.4 <= 0.5; RECT texel 3 (1.0): 0.9 <= 1;
        // TXP (0.75, 1, 0.9, 2) -> (0.375, 0.5, 0.45): texel 1, 0.45 <= 0.5.
        vec![
            tc(0, [0.375, 0.5, 0.4, 1.0]),
            tc(1, [3.5, 0.5, 0.9, 1.0]),
            tc(2, [0.75, 1.0, 0.9, 2.0]),
        ],
        // 0.6 > 0.5; RECT texel 0 (0.25): 0.3 > 0.25; TXP (0.25, .., 1.2,
        // 2) -> (0.125, 0.6): texel 0 (0.25), 0.6 > 0.25.
        vec![
            tc(0, [0.375, 0.5, 0.6, 1.0]),
            tc(1, [0.5, 0.5, 0.3, 1.0]),
            tc(2, [0.25, 1.0, 1.2, 2.0]),
        ],
    ];
    let Some(out) = run_fp(src, textures, cases) else {
        return;
    };
    let c = |v: [f32; 2]| v.map(|x| [x, x, x, 1.0]);
    expect(&out, 0, "SHADOW2D", &c([1.0, 0.0]));
    expect(&out, 1, "SHADOW1D", &c([1.0, 0.0]));
    expect(&out, 2, "SHADOWRECT", &c([1.0, 0.0]));
    expect(&out, 3, "TXP SHADOW2D", &c([1.0, 0.0]));
}

#[test]
fn nv_fragment_options_txd_and_txl() {
    // NV_fragment_program_option TXD: the LOD from the given partials
    // (rho = 8 texels x the longest); NV_fragment_program2 TXL: the LOD in w.
    let src = "!!ARBfp1.0
OPTION NV_fragment_program2;
OPTION ARB_draw_buffers;
TXD result.color[0], fragment.texcoord[0], fragment.texcoord[1], fragment.texcoord[2], texture[0], 2D;
TXL result.color[1], fragment.texcoord[0], texture[0], 2D;
END
";
    let cases = vec![
        // ddx (1/8, 0): rho 1, level 0; TXL w = 2.
        vec![
            tc(0, [0.5, 0.5, 0.0, 2.0]),
            tc(1, [0.125, 0.0, 0.0, 0.0]),
            tc(2, [0.0; 4]),
        ],
        // ddy (0, 1/2): rho 4, level 2; TXL w = 1.
        vec![
            tc(0, [0.5, 0.5, 0.0, 1.0]),
            tc(1, [0.0; 4]),
            tc(2, [0.0, 0.5, 0.0, 0.0]),
        ],
    ];
    let Some(out) = run_fp(src, vec![mip_levels(0, 4)], cases) else {
        return;
    };
    expect(
        &out,
        0,
        "TXD",
        &[[0.0, 0.0, 0.0, 1.0], [2.0, 0.0, 0.0, 1.0]],
    );
    expect(
        &out,
        1,
        "TXL",
        &[[2.0, 0.0, 0.0, 1.0], [1.0, 0.0, 0.0, 1.0]],
    );
}

#[test]
fn nv_vertex_program3_samples_textures_in_the_vertex_program() {
    // NV_vertex_program3 2.14.5: TEX, TXL, TXP and (with OPTION
    // ARB_fragment_program_shadow) SHADOW2D in a vertex program. Vertex
    // programs have no derivatives: TEX is level 0, TXL takes the LOD.
    let src = "!!ARBvp1.0
OPTION NV_vertex_program3;
OPTION ARB_fragment_program_shadow;
MOV result.position, vertex.position;
TEX result.texcoord[0], vertex.texcoord[0], texture[0], 2D;
TXL result.texcoord[1], vertex.texcoord[0], texture[1], 2D;
TXP result.texcoord[2], vertex.texcoord[1], texture[0], 2D;
TEX result.texcoord[3], vertex.texcoord[2], texture[2], SHADOW2D;
END
";
    let textures = vec![
        grid(0, TextureKind::D2, 8, 4, 1, 100.0),
        mip_levels(1, 4),
        depth(2, TextureKind::D2, 4, 1, 1, &[0.25, 0.5, 0.75, 1.0]),
    ];
    let v = |tc0: [f32; 4], tc1: [f32; 4], tc2: [f32; 4]| {
        vec![
            Input::float(0, [0.0, 0.0, 0.0, 1.0]),
            Input::float(8, tc0),
            Input::float(9, tc1),
            Input::float(10, tc2),
        ]
    };
    let vertices = vec![
        v(
            [2.5 / 8.0, 1.5 / 4.0, 0.0, 3.0],
            [6.5 / 4.0, 0.5 / 2.0, 0.0, 2.0],
            [0.375, 0.5, 0.5, 1.0],
        ),
        v(
            [7.5 / 8.0, 3.5 / 4.0, 0.0, 1.0],
            [0.5 / 8.0, 3.5 / 4.0, 0.0, 1.0],
            [0.625, 0.5, 0.9, 1.0],
        ),
    ];
    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    let job = VertexJob {
        textures,
        ..VertexJob::new(vertices, (5..9).map(Capture::Location).collect())
    };
    let out = dev
        .run_vertex(&compile(src), &job)
        .unwrap_or_else(|e| panic!("{e}"));
    let f = |vx: usize, n: u32| out.location_f32(vx, 5 + n);
    assert_eq!(f(0, 0), [2.0, 1.0, 0.0, 100.0], "TEX");
    assert_eq!(f(0, 1), [3.0, 0.0, 0.0, 1.0], "TXL w = 3");
    assert_eq!(f(0, 2), [6.0, 0.0, 0.0, 100.0], "TXP /2");
    assert_eq!(f(0, 3), [1.0, 1.0, 1.0, 1.0], "SHADOW2D 0.5 <= 0.5");
    assert_eq!(f(1, 0), [7.0, 3.0, 0.0, 100.0], "TEX");
    assert_eq!(f(1, 1), [1.0, 0.0, 0.0, 1.0], "TXL w = 1");
    assert_eq!(f(1, 2), [0.0, 3.0, 0.0, 100.0], "TXP /1");
    assert_eq!(f(1, 3), [0.0, 0.0, 0.0, 1.0], "SHADOW2D 0.9 > 0.75");
}

/// `fragment.position.xy` of one pixel.
type Xy = [f32; 2];

/// Runs `src` (which writes fragment.position to result.color) for four
/// pixels on the device, and in the interpreter with fragment.position at
/// the pixel centres GL and Vulkan give: (x + 0.5, y + 0.5).
fn fragment_positions(src: &str) -> Option<(Vec<Xy>, Vec<Xy>)> {
    let (program, _) = nvp4c::check(src, &nvp4c::Options::default()).unwrap();
    let mut interp = Vec::new();
    for x in 0..4 {
        let mut inputs = nvp4c::interp::Inputs::default();
        inputs
            .set(
                "fragment.position",
                [x as f32 + 0.5, 0.5, 0.0, 1.0].map(f32::to_bits),
            )
            .unwrap();
        let out =
            nvp4c::interp::run(&program, &inputs, &nvp4c::interp::RunOptions::default()).unwrap();
        let b = out.results["result.color"].bits;
        interp.push([f32::from_bits(b[0]), f32::from_bits(b[1])]);
    }
    let dev = harness::device_or_skip()?;
    let out = dev
        .run_fragment(&compile(src), &FragmentJob::new(vec![Vec::new(); 4]))
        .unwrap_or_else(|e| panic!("{e}"));
    let device = (0..4).map(|c| {
        let v = out.color_f32(c, 0);
        [v[0], v[1]]
    });
    Some((device.collect(), interp))
}

#[test]
fn fragment_coordinate_conventions() {
    // ARB_fragment_coord_conventions: pixel centres are at half-integers
    // unless ARB_fragment_coord_pixel_center_integer puts them at integers
    // (nvp4c subtracts 0.5 from FragCoord.xy: Vulkan forbids the
    // PixelCenterInteger mode). The origin is Vulkan's upper left, which is
    // exactly what ARB_fragment_coord_origin_upper_left asks for
    // (docs/interface.md).
    let half = "!!ARBfp1.0\nMOV result.color, fragment.position;\nEND\n";
    let integer = "!!ARBfp1.0\nOPTION ARB_fragment_coord_pixel_center_integer;\nMOV result.color, fragment.position;\nEND\n";
    let upper_left = "!!ARBfp1.0\nOPTION ARB_fragment_coord_origin_upper_left;\nOPTION ARB_fragment_coord_pixel_center_integer;\nMOV result.color, fragment.position;\nEND\n";
    let centres: Vec<[f32; 2]> = (0..4).map(|x| [x as f32 + 0.5, 0.5]).collect();
    let integers: Vec<[f32; 2]> = (0..4).map(|x| [x as f32, 0.0]).collect();
    for (src, want) in [
        (half, &centres),
        (integer, &integers),
        (upper_left, &integers),
    ] {
        let Some((device, interp)) = fragment_positions(src) else {
            return;
        };
        assert_eq!(&device, want, "device: {src}");
        assert_eq!(&interp, want, "interpreter: {src}");
    }
}

/// The Doom 3-style interaction pair of examples/interaction.vp and .fp
/// (ARBvp1.0 + ARBfp1.0, 48 instructions, five textures, program.env and
/// program.local): a full-screen quad lit by a projected light, rasterised
/// on the device, and every pixel compared with the lighting the two
/// programs describe, computed here in f32 from the same inputs.
#[test]
fn doom3_style_interaction_pair_renders_the_lit_bumped_quad() {
    const W: u32 = 32;
    const H: u32 = 32;
    let vp = include_str!("../../examples/interaction.vp");
    let fp = include_str!("../../examples/interaction.fp");
    // One descriptor set for both stages (the raster harness binds one):
    // the vertex program reads program.env, the fragment program
    // program.local.
    let set = crate::harness::GEOMETRY_SET;
    let mut options = nvp4c::Options::default();
    options.descriptor_set = Some(set);
    let build = |src: &str| match nvp4c::compile(src, &options) {
        Ok(c) => c.spirv,
        Err(d) => panic!("{}", d.render("interaction", src, false)),
    };
    let (vert, frag) = (build(vp), build(fp));

    // Textures: a 4x4 normal map of tilted normals stored as (n + 1) / 2, a
    // 4x4 two-colour diffuse checker, a grey specular map, a 4x1 falloff
    // ramp and a 2x2 projected light image.
    let normal = |i: u32, j: u32| {
        let n = [(i as f32 - 1.5) * 0.25, (j as f32 - 1.5) * 0.25, 1.0];
        let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
        [n[0] / len, n[1] / len, n[2] / len]
    };
    let diffuse = |i: u32, j: u32| {
        if (i + j).is_multiple_of(2) {
            [0.8, 0.6, 0.4, 1.0]
        } else {
            [0.3, 0.5, 0.9, 1.0]
        }
    };
    let specular_map = [0.5f32, 0.5, 0.5, 1.0];
    let falloff = [1.0f32, 0.75, 0.5, 0.25];
    let projection = [
        [1.0f32, 1.0, 1.0, 1.0],
        [1.0, 0.8, 0.6, 1.0],
        [0.9, 1.0, 0.7, 1.0],
        [0.6, 0.7, 1.0, 1.0],
    ];
    let grid4 = |f: &dyn Fn(u32, u32) -> [f32; 4]| -> Vec<[f32; 4]> {
        (0..4)
            .flat_map(|j| (0..4).map(move |i| (i, j)))
            .map(|(i, j)| f(i, j))
            .collect()
    };
    let normal_texels = grid4(&|i, j| {
        let n = normal(i, j);
        [
            (n[0] + 1.0) / 2.0,
            (n[1] + 1.0) / 2.0,
            (n[2] + 1.0) / 2.0,
            1.0,
        ]
    });
    let textures = vec![
        Texture::rgba32f_2d(0, 4, 4, vec![normal_texels.clone()]),
        Texture::rgba32f_2d(1, 4, 4, vec![grid4(&diffuse)]),
        Texture::rgba32f_2d(2, 1, 1, vec![vec![specular_map]]),
        Texture::rgba32f_2d(
            3,
            4,
            1,
            vec![falloff.iter().map(|&f| [f, f, f, 1.0]).collect()],
        ),
        Texture::rgba32f_2d(4, 2, 2, vec![projection.to_vec()]),
    ];
    let light_origin = [0.3f32, -0.2, 0.8, 1.0];
    let view_origin = [0.0f32, 0.0, 2.0, 1.0];
    let (project_s, project_t, project_q) = (
        [0.5f32, 0.0, 0.0, 0.5],
        [0.0f32, 0.5, 0.0, 0.5],
        [0.1f32, 0.2, 0.0, 1.0],
    );
    let falloff_s = [0.5f32, 0.0, 0.0, 0.5];
    let light_color = [1.0f32, 0.9, 0.8, 1.0];
    let specular_color = [0.6f32, 0.6, 0.6, 16.0];
    let env: Vec<[u32; 4]> = [
        [1.0, 0.0, 0.0, 0.0],
        [0.0, 1.0, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.0],
        [0.0, 0.0, 0.0, 1.0],
        light_origin,
        view_origin,
        project_s,
        project_t,
        project_q,
        falloff_s,
    ]
    .iter()
    .map(|v| v.map(f32::to_bits))
    .collect();
    // The quad: two triangles over the whole target, tangent frame = the
    // object axes, texture coordinates 0..1.
    let corner = |x: f32, y: f32| {
        vec![
            Input::float(0, [x, y, 0.0, 1.0]),
            Input::float(8, [(x + 1.0) / 2.0, (y + 1.0) / 2.0, 0.0, 1.0]),
            Input::float(9, [1.0, 0.0, 0.0, 0.0]),
            Input::float(10, [0.0, 1.0, 0.0, 0.0]),
            Input::float(11, [0.0, 0.0, 1.0, 0.0]),
        ]
    };
    let vertices = [
        (-1.0, -1.0),
        (1.0, -1.0),
        (1.0, 1.0),
        (-1.0, -1.0),
        (1.0, 1.0),
        (-1.0, 1.0),
    ]
    .iter()
    .map(|&(x, y)| corner(x, y))
    .collect();
    let job = crate::harness::RasterJob {
        env,
        local: vec![
            light_color.map(f32::to_bits),
            specular_color.map(f32::to_bits),
        ],
        descriptor_set: set,
        width: W,
        height: H,
        textures,
        ..crate::harness::RasterJob::new(vertices, vk::PrimitiveTopology::TRIANGLE_LIST)
    };
    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    let out = dev
        .run_raster(&vert, None, &frag, &job)
        .unwrap_or_else(|e| panic!("{e}"));

    // The expected colour of pixel (x, y): the object position at its
    // centre (clip y = -1 is row 0), the varyings the vertex program
    // computes there (all linear in the position), then the fragment
    // program's arithmetic. `None` where a NEAREST lookup is within 1e-3
    // of a texel edge (either texel is right).
    let dot3 = |a: [f32; 3], b: [f32; 3]| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    let normalize = |a: [f32; 3]| {
        let r = 1.0 / dot3(a, a).sqrt();
        [a[0] * r, a[1] * r, a[2] * r]
    };
    let texel = |u: f32, size: u32| -> Option<u32> {
        let s = u * size as f32;
        if (s - s.round()).abs() < 1e-3 && s.round() > 0.0 && s.round() < size as f32 {
            return None;
        }
        Some((s.floor().max(0.0) as u32).min(size - 1))
    };
    let expected = |x: u32, y: u32| -> Option<[f32; 3]> {
        let px = (x as f32 + 0.5) / W as f32 * 2.0 - 1.0;
        let py = (y as f32 + 0.5) / H as f32 * 2.0 - 1.0;
        let (u, v) = ((px + 1.0) / 2.0, (py + 1.0) / 2.0);
        let (i, j) = (texel(u, 4)?, texel(v, 4)?);
        let l = normalize([light_origin[0] - px, light_origin[1] - py, light_origin[2]]);
        let e = normalize([view_origin[0] - px, view_origin[1] - py, view_origin[2]]);
        let h = normalize([l[0] + e[0], l[1] + e[1], l[2] + e[2]]);
        let t = normal_texels[(j * 4 + i) as usize];
        let n = [t[0] * 2.0 - 1.0, t[1] * 2.0 - 1.0, t[2] * 2.0 - 1.0];
        let d = dot3(n, l).clamp(0.0, 1.0);
        let s = dot3(n, h).clamp(0.0, 1.0).powf(specular_color[3]);
        let q = project_q[0] * px + project_q[1] * py + project_q[3];
        let (ps, pt) = ((0.5 * px + 0.5) / q, (0.5 * py + 0.5) / q);
        let p = projection[(texel(pt, 2)? * 2 + texel(ps, 2)?) as usize];
        let f = falloff[texel(0.5 * px + 0.5, 4)? as usize];
        let dif = diffuse(i, j);
        Some(std::array::from_fn(|c| {
            let lit = dif[c] * d + specular_map[c] * s * specular_color[c];
            lit * p[c] * f * light_color[c]
        }))
    };
    let (mut compared, mut brightest, mut fails) = (0, 0.0f32, Vec::new());
    for y in 0..H {
        for x in 0..W {
            let got = out.f32(x, y);
            assert_eq!(got[3], 1.0, "pixel ({x}, {y}) alpha");
            let Some(want) = expected(x, y) else { continue };
            compared += 1;
            brightest = brightest.max(got[0]);
            if (0..3).any(|c| (got[c] - want[c]).abs() > 2e-3) {
                fails.push(format!("({x}, {y}): got {got:?}, want {want:?}"));
            }
        }
    }
    assert!(
        fails.is_empty(),
        "{} of {compared} pixels differ:\n{}",
        fails.len(),
        fails.join("\n")
    );
    assert!(
        compared > (W * H * 9 / 10) as usize,
        "only {compared} pixels compared"
    );
    // Not a flat picture: the light's falloff, the checker and the
    // specular highlight spread the colours.
    assert!(brightest > 0.5, "the brightest red is {brightest}");
}

/// The GL state of the ARB option tests: modelview[0] scales by 2 and
/// translates by (1, -1, 0); the projection has w = -z (column-major, as
/// GL stores them); linear fog from 1 to 5 towards blue.
fn arb_option_state() -> nvp4c::state::GlState {
    let mut gl = nvp4c::state::GlState::default();
    gl.modelview[0] = [
        2.0, 0.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 2.0, 0.0, 1.0, -1.0, 0.0, 1.0,
    ];
    gl.projection = [
        1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, -1.0, -1.0, 0.0, 0.0, -2.0, 0.0,
    ];
    gl.fog = nvp4c::state::Fog {
        color: [0.0, 0.0, 1.0, 0.5],
        density: 0.5,
        start: 1.0,
        end: 5.0,
    };
    gl
}

/// The interpreter's inputs for every state binding, from `gl`.
fn state_inputs(gl: &nvp4c::state::GlState, inputs: &mut nvp4c::interp::Inputs) {
    let block = gl.to_block();
    for (name, _) in nvp4c::state::stored_rows() {
        if let Ok(nvp4c::state::Read::Row { row, .. }) = nvp4c::state::locate(&name) {
            inputs.set(&name, harness::fbits(block.row(row))).unwrap();
        }
    }
}

#[test]
fn arb_position_invariant_computes_the_position_from_the_mvp() {
    // ARB_vertex_program 2.14.4.5.1 on a !!ARBvp1.0 program: the position
    // is state.matrix.mvp x vertex.position.
    let src = "!!ARBvp1.0\nOPTION ARB_position_invariant;\nMOV result.color, vertex.color;\nEND\n";
    position_from_the_mvp(src, "vertex.color");
}

#[test]
fn nv_position_invariant_on_vp11_computes_the_position_from_the_mvp() {
    // NV_vertex_program1_1 2.14.B: with OPTION NV_position_invariant the
    // program does not write o[HPOS]; the position is "computed ... in a
    // manner exactly identical to how the homogenous position ... are
    // computed for a vertex by conventional OpenGL transformation", from
    // v[OPOS] (attribute 0, which is the conventional position).
    let src = "!!VP1.1\nOPTION NV_position_invariant;\nMOV o[COL0], v[COL0];\nEND\n";
    position_from_the_mvp(src, "vertex.attrib[3]");
}

/// Runs a position-invariant vertex program that copies the colour (read
/// as `color_input`, attribute 3) on two vertices under
/// [`arb_option_state`], in the interpreter and on the device. MVP = P x M
/// by hand: rows (2 0 0 1), (0 2 0 -1), (0 0 -2 -2), (0 0 -2 0); (1, 2, 3,
/// 1) -> (3, 3, -8, -6), (-1, 0.5, 0, 2) -> (0, -1, -4, 0).
fn position_from_the_mvp(src: &str, color_input: &str) {
    let gl = arb_option_state();
    let vertices = [[1.0f32, 2.0, 3.0, 1.0], [-1.0, 0.5, 0.0, 2.0]];
    let want = [[3.0f32, 3.0, -8.0, -6.0], [0.0, -1.0, -4.0, 0.0]];
    let color = [0.5, 0.25, 0.125, 1.0];
    let (program, _) = nvp4c::check(src, &nvp4c::Options::default()).unwrap();
    for (v, vertex) in vertices.iter().enumerate() {
        let mut inputs = nvp4c::interp::Inputs::default();
        inputs
            .set("vertex.position", harness::fbits(*vertex))
            .unwrap();
        inputs.set(color_input, harness::fbits(color)).unwrap();
        state_inputs(&gl, &mut inputs);
        let out =
            nvp4c::interp::run(&program, &inputs, &nvp4c::interp::RunOptions::default()).unwrap();
        assert_eq!(
            out.results["result.position"].floats(),
            want[v],
            "interpreter {v}"
        );
        assert_eq!(out.results["result.color"].floats(), color);
    }
    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    let job = VertexJob {
        state: harness::state_rows(&gl.to_block()),
        ..VertexJob::new(
            vertices
                .iter()
                .map(|v| vec![Input::float(0, *v), Input::float(3, color)])
                .collect(),
            vec![Capture::Position, Capture::Location(0)],
        )
    };
    let out = dev
        .run_vertex(&compile(src), &job)
        .unwrap_or_else(|e| panic!("{e}"));
    for (v, want) in want.iter().enumerate() {
        assert_eq!(out.position_f32(v), *want, "position {v}");
        assert_eq!(out.location_f32(v, 0), color);
    }
}

#[test]
fn arb_fog_linear_blends_the_colour_after_an_arb_fragment_program() {
    // ARB_fragment_program 3.11.4.5.1: f = (end - c) / (end - start) =
    // (5 - c) / 4 clamped, C' = f C + (1 - f) C_fog on rgb. C = (1, 0.5,
    // 0.25, 0.75), fog colour (0, 0, 1): c = 3 -> f = 0.5 -> (0.5, 0.25,
    // 0.625, 0.75); c = 0 -> f = 1 -> C; c = 7 -> f = 0 -> (0, 0, 1, 0.75).
    let src = "!!ARBfp1.0\nOPTION ARB_fog_linear;\nMOV result.color, fragment.color;\nEND\n";
    let gl = arb_option_state();
    let color = [1.0f32, 0.5, 0.25, 0.75];
    let cases = [
        (3.0f32, [0.5f32, 0.25, 0.625, 0.75]),
        (0.0, color),
        (7.0, [0.0, 0.0, 1.0, 0.75]),
    ];
    let (program, _) = nvp4c::check(src, &nvp4c::Options::default()).unwrap();
    for (c, want) in cases {
        let mut inputs = nvp4c::interp::Inputs::default();
        inputs.set("fragment.color", harness::fbits(color)).unwrap();
        inputs
            .set("fragment.fogcoord", harness::fbits([c, 0.0, 0.0, 0.0]))
            .unwrap();
        state_inputs(&gl, &mut inputs);
        let out =
            nvp4c::interp::run(&program, &inputs, &nvp4c::interp::RunOptions::default()).unwrap();
        assert_eq!(
            out.results["result.color"].floats(),
            want,
            "interpreter, c = {c}"
        );
    }
    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    let job = FragmentJob {
        state: harness::state_rows(&gl.to_block()),
        ..FragmentJob::new(
            cases
                .iter()
                .map(|(c, _)| vec![Input::float(0, color), Input::float(4, [*c, 0.0, 0.0, 0.0])])
                .collect(),
        )
    };
    let out = dev
        .run_fragment(&compile(src), &job)
        .unwrap_or_else(|e| panic!("{e}"));
    for (i, (c, want)) in cases.iter().enumerate() {
        assert_eq!(out.f32(i), *want, "device, c = {c}");
    }
}
