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
