//! ps_1_1 to ps_1_4: texture-address instructions (tex, texcoord,
//! texkill, texbem, texbeml, texreg2ar/gb/rgb, texm3x2pad/tex/depth,
//! texm3x3pad/tex/spec/vspec, texm3x3, texdp3, texdp3tex, texld, texcrd,
//! texdepth), the source and result modifiers, co-issue, the colour output
//! in r0 and the [-1, 1] constant range, each worked out from its page in
//! asm-ps-instructions.md / asm-ps-reference.md.

use ash::vk;

use super::exec_texture::grid;
use super::{case, run_cases, Bind, Case};
use crate::harness::{Texture, TextureKind};
use nvp4c::front::d3d9::table::SamplerType;

const PS11_13: &[&str] = &["ps_1_1", "ps_1_2", "ps_1_3"];
const PS12_13: &[&str] = &["ps_1_2", "ps_1_3"];

/// A 1x1 texture holding `v`.
fn texel(unit: u32, v: [f32; 4]) -> Texture {
    Texture::new(
        unit,
        TextureKind::D2,
        vk::Format::R32G32B32A32_SFLOAT,
        1,
        1,
        1,
        1,
        vec![v.map(f32::to_bits).to_vec()],
    )
}

fn stages(types: &[(usize, SamplerType)]) -> nvp4c::Options {
    let mut o = nvp4c::Options::default();
    for &(n, t) in types {
        o.d3d9.ps1x_stage_types[n] = t;
    }
    o
}

fn with(options: nvp4c::Options, bind: Bind) -> Bind {
    Bind {
        options: Some(options),
        ..bind
    }
}

pub fn texture_cases() -> Vec<Case> {
    let mut v = Vec::new();
    let g = |unit, tag| grid(unit, TextureKind::D2, 4, 4, 1, 1, 1, tag);
    for ver in PS11_13 {
        // tex t0: stage 0 at coordinate set 0; texel (1, 2).
        v.push(case(
            &format!("tex ({ver})"),
            &format!("{ver}\ntex t0\nmov r0, t0\n"),
            &[("t0", [0.375, 0.625, 0.0, 1.0])],
            Bind::default().texture(g(0, 7.0)),
            &[("oC0", [1.0, 2.0, 0.0, 7.0])],
        ));
        // texcoord: (u, v, w) clamped to [0, 1], 1 in the fourth.
        v.push(case(
            &format!("texcoord ({ver})"),
            &format!("{ver}\ntexcoord t0\nmov r0, t0\n"),
            &[("t0", [1.5, -0.25, 0.5, 7.0])],
            Bind::default(),
            &[("oC0", [1.0, 0.0, 0.5, 1.0])],
        ));
        // texkill tests x, y, z of coordinate set n, not w.
        v.push(case(
            &format!("texkill ignores w ({ver})"),
            &format!("{ver}\ntexkill t0\nmov r0, v0\n"),
            &[
                ("t0", [0.5, 0.5, 0.5, -1.0]),
                ("v0", [0.25, 0.5, 0.75, 1.0]),
            ],
            Bind::default(),
            &[("oC0", [0.25, 0.5, 0.75, 1.0])],
        ));
        v.push(case(
            &format!("texkill kills ({ver})"),
            &format!("{ver}\ntexkill t0\nmov r0, v0\n"),
            &[
                ("t0", [0.5, -0.1, 0.5, 1.0]),
                ("v0", [0.25, 0.5, 0.75, 1.0]),
            ],
            Bind::default(),
            &[("killed", [0.0; 4])],
        ));
        // texbem t1, t0: (u, v) of set 1 + M(stage 1) (du, dv), M =
        // (M00, M01, M10, M11) = (0.5, 0, 0.5, 1), (du, dv) = (0.25, 0.5):
        // u' = 0.125 + 0.5*0.25 + 0.5*0.5 = 0.5, v' = 0.125 + 0.5 = 0.625,
        // texel (2, 2) of stage 1.
        let bump = Bind::default()
            .texture(texel(0, [0.25, 0.5, 0.75, 0.0]))
            .texture(g(1, 5.0))
            .state(2, [0.5, 0.0, 0.5, 1.0])
            .state(3, [2.0, 0.25, 0.0, 0.0]);
        v.push(case(
            &format!("texbem ({ver})"),
            &format!("{ver}\ntex t0\ntexbem t1, t0\nmov r0, t1\n"),
            &[
                ("t0", [0.5, 0.5, 0.0, 1.0]),
                ("t1", [0.125, 0.125, 0.0, 1.0]),
            ],
            bump.clone(),
            &[("oC0", [2.0, 2.0, 0.0, 5.0])],
        ));
        // texbeml also scales by t0.b * LSCALE + LOFFSET = 0.75*2 + 0.25.
        v.push(case(
            &format!("texbeml ({ver})"),
            &format!("{ver}\ntex t0\ntexbeml t1, t0\nmov r0, t1\n"),
            &[
                ("t0", [0.5, 0.5, 0.0, 1.0]),
                ("t1", [0.125, 0.125, 0.0, 1.0]),
            ],
            bump,
            &[("oC0", [3.5, 3.5, 0.0, 8.75])],
        ));
        // texreg2ar: (t0.a, t0.r) as coordinates: (0.375, 0.625).
        let reg = Bind::default()
            .texture(texel(0, [0.625, 0.125, 0.375, 0.375]))
            .texture(g(1, 4.0));
        v.push(case(
            &format!("texreg2ar ({ver})"),
            &format!("{ver}\ntex t0\ntexreg2ar t1, t0\nmov r0, t1\n"),
            &[("t0", [0.5, 0.5, 0.0, 1.0])],
            reg.clone(),
            &[("oC0", [1.0, 2.0, 0.0, 4.0])],
        ));
        // texm3x2pad/tex: (u, v) = (tc1 . t0, tc2 . t0) with t0 = (1, 0.5,
        // 0.25): (0.25 + 0.125, 0.5 + 0.125) -> texel (1, 2) of stage 2.
        let m = Bind::default()
            .texture(texel(0, [1.0, 0.5, 0.25, 0.0]))
            .texture(g(2, 6.0));
        v.push(case(
            &format!("texm3x2pad + texm3x2tex ({ver})"),
            &format!("{ver}\ntex t0\ntexm3x2pad t1, t0\ntexm3x2tex t2, t0\nmov r0, t2\n"),
            &[
                ("t0", [0.5, 0.5, 0.0, 1.0]),
                ("t1", [0.25, 0.0, 0.5, 0.0]),
                ("t2", [0.0, 1.0, 0.5, 0.0]),
            ],
            m,
            &[("oC0", [1.0, 2.0, 0.0, 6.0])],
        ));
        // texm3x3pad x2 + texm3x3tex on a volume at stage 3: (u, v, w) =
        // (0.25, 0.75, 0.75) -> texel (0, 1) of slice 1.
        let vol = with(
            stages(&[(3, SamplerType::Volume)]),
            Bind::default()
                .texture(texel(0, [1.0, 0.5, 0.25, 0.0]))
                .texture(grid(3, TextureKind::D3, 2, 2, 2, 1, 1, 9.0)),
        );
        v.push(case(
            &format!("texm3x3pad + texm3x3tex ({ver})"),
            &format!("{ver}\ntex t0\ntexm3x3pad t1, t0\ntexm3x3pad t2, t0\ntexm3x3tex t3, t0\nmov r0, t3\n"),
            &[("t0", [0.5, 0.5, 0.0, 1.0]), ("t1", [0.25, 0.0, 0.0, 0.0]), ("t2", [0.0, 1.5, 0.0, 0.0]), ("t3", [0.0, 0.0, 3.0, 0.0])],
            vol,
            &[("oC0", [0.0, 1.0, 1.0, 9.0])],
        ));
        // texm3x3spec: N = (0, 0, 1), E = c0 = (0.25, 0, 0.5): R = 2 (N.E /
        // N.N) N - E = (-0.25, 0, 0.5), the +Z face (4) of a cube at stage 3.
        let spec = with(
            stages(&[(3, SamplerType::Cube)]),
            Bind::default()
                .texture(texel(0, [1.0, 0.5, 0.25, 0.0]))
                .texture(grid(3, TextureKind::Cube, 1, 1, 1, 6, 1, 0.0))
                .c(0, [0.25, 0.0, 0.5, 0.0]),
        );
        v.push(case(
            &format!("texm3x3spec ({ver})"),
            &format!("{ver}\ntex t0\ntexm3x3pad t1, t0\ntexm3x3pad t2, t0\ntexm3x3spec t3, t0, c0\nmov r0, t3\n"),
            &[("t0", [0.5, 0.5, 0.0, 1.0]), ("t1", [0.0; 4]), ("t2", [0.0; 4]), ("t3", [0.0, 0.0, 4.0, 0.0])],
            spec.clone(),
            &[("oC0", [0.0, 0.0, 4.0, 0.0])],
        ));
        // texm3x3vspec: E = the w of the three coordinate sets.
        v.push(case(
            &format!("texm3x3vspec ({ver})"),
            &format!("{ver}\ntex t0\ntexm3x3pad t1, t0\ntexm3x3pad t2, t0\ntexm3x3vspec t3, t0\nmov r0, t3\n"),
            &[("t0", [0.5, 0.5, 0.0, 1.0]), ("t1", [0.0, 0.0, 0.0, 0.25]), ("t2", [0.0; 4]), ("t3", [0.0, 0.0, 4.0, 0.5])],
            spec,
            &[("oC0", [0.0, 0.0, 4.0, 0.0])],
        ));
    }
    for ver in PS12_13 {
        let reg = Bind::default()
            .texture(texel(0, [0.625, 0.125, 0.375, 0.375]))
            .texture(g(1, 4.0));
        // texreg2gb: (t0.g, t0.b) = (0.125, 0.375) -> texel (0, 1).
        v.push(case(
            &format!("texreg2gb ({ver})"),
            &format!("{ver}\ntex t0\ntexreg2gb t1, t0\nmov r0, t1\n"),
            &[("t0", [0.5, 0.5, 0.0, 1.0])],
            reg.clone(),
            &[("oC0", [0.0, 1.0, 0.0, 4.0])],
        ));
        // texreg2rgb on 2D: (0.625, 0.125) -> texel (2, 0).
        v.push(case(
            &format!("texreg2rgb ({ver})"),
            &format!("{ver}\ntex t0\ntexreg2rgb t1, t0\nmov r0, t1\n"),
            &[("t0", [0.5, 0.5, 0.0, 1.0])],
            reg,
            &[("oC0", [2.0, 0.0, 0.0, 4.0])],
        ));
        // texm3x3: t3 = (u, v, w, 1).
        v.push(case(
            &format!("texm3x3 ({ver})"),
            &format!(
                "{ver}\ntex t0\ntexm3x3pad t1, t0\ntexm3x3pad t2, t0\ntexm3x3 t3, t0\nmov r0, t3\n"
            ),
            &[
                ("t0", [0.5, 0.5, 0.0, 1.0]),
                ("t1", [0.25, 0.0, 0.0, 0.0]),
                ("t2", [0.0, 1.5, 0.0, 0.0]),
                ("t3", [0.0, 0.0, 3.0, 0.0]),
            ],
            Bind::default().texture(texel(0, [1.0, 0.5, 0.25, 0.0])),
            &[("oC0", [0.25, 0.75, 0.75, 1.0])],
        ));
        // texdp3: tc1 . t0 = 0.5 + 0.5 + 0.5 replicated.
        v.push(case(
            &format!("texdp3 ({ver})"),
            &format!("{ver}\ntex t0\ntexdp3 t1, t0\nmov r0, t1\n"),
            &[("t0", [0.5, 0.5, 0.0, 1.0]), ("t1", [0.5, 1.0, 2.0, 0.0])],
            Bind::default().texture(texel(0, [1.0, 0.5, 0.25, 0.0])),
            &[("oC0", [1.5; 4])],
        ));
        // texdp3tex: a 1D lookup at (tc1 . t0, 0) = (0.25, 0) -> texel (1, 0).
        v.push(case(
            &format!("texdp3tex ({ver})"),
            &format!("{ver}\ntex t0\ntexdp3tex t1, t0\nmov r0, t1\n"),
            &[("t0", [0.5, 0.5, 0.0, 1.0]), ("t1", [0.25, 0.0, 0.0, 0.0])],
            Bind::default()
                .texture(texel(0, [1.0, 0.5, 0.25, 0.0]))
                .texture(g(1, 3.0)),
            &[("oC0", [1.0, 0.0, 0.0, 3.0])],
        ));
    }
    // texm3x2depth (ps_1_3): depth = z / w = (tc1 . t0) / (tc2 . t0).
    let mut depth = Bind::default().texture(texel(0, [1.0, 0.5, 0.25, 0.0]));
    depth.depth = true;
    v.push(case(
        "texm3x2depth (ps_1_3)",
        "ps_1_3\ntex t0\ntexm3x2pad t1, t0\ntexm3x2depth t2, t0\nmov r0, t0\n",
        &[
            ("t0", [0.5, 0.5, 0.0, 1.0]),
            ("t1", [0.25, 0.0, 0.0, 0.0]),
            ("t2", [0.5, 0.0, 0.0, 0.0]),
        ],
        depth.clone(),
        &[
            ("depth", [0.5, 0.0, 0.0, 0.0]),
            ("oC0", [1.0, 0.5, 0.25, 0.0]),
        ],
    ));
    // ps_1_4: texld r(n) samples stage n; texcrd copies coordinates
    // unclamped; _dw and _dz divide x, y (1 where the divisor is 0).
    let g0 = g(0, 7.0);
    v.push(case(
        "texld (ps_1_4)",
        "ps_1_4\ntexld r0, t0\n",
        &[("t0", [0.375, 0.625, 0.0, 1.0])],
        Bind::default().texture(g0.clone()),
        &[("oC0", [1.0, 2.0, 0.0, 7.0])],
    ));
    v.push(case(
        "texcrd (ps_1_4)",
        "ps_1_4\ndef c0, 0, 0, 0, 0.5\ntexcrd r0.rgb, t0\nmov r0.a, c0.a\n",
        &[("t0", [1.5, -2.0, 3.0, 9.0])],
        Bind::default(),
        &[("oC0", [1.5, -2.0, 3.0, 0.5])],
    ));
    v.push(case(
        "texcrd _dw.xyw (ps_1_4)",
        "ps_1_4\ndef c0, 0, 0, 0.25, 0.5\ntexcrd r0.rg, t0_dw.xyw\nmov r0.ba, c0\n",
        &[("t0", [1.0, 2.0, 9.0, 4.0])],
        Bind::default(),
        &[("oC0", [0.25, 0.5, 0.25, 0.5])],
    ));
    v.push(case(
        "texcrd _dw with w = 0 (ps_1_4)",
        "ps_1_4\ndef c0, 0, 0, 0.25, 0.5\ntexcrd r0.rg, t0_dw.xyw\nmov r0.ba, c0\n",
        &[("t0", [1.0, 2.0, 9.0, 0.0])],
        Bind::default(),
        &[("oC0", [1.0, 1.0, 0.25, 0.5])],
    ));
    v.push(case(
        "texld _dz from r# in phase 2 (ps_1_4)",
        "ps_1_4\ntexcrd r2.rgb, t0\nphase\ntexld r1, r2_dz\nmov r0, r1\n",
        &[("t0", [0.75, 1.25, 2.0, 1.0])],
        Bind::default().texture(g(1, 2.0)),
        &[("oC0", [1.0, 2.0, 0.0, 2.0])],
    ));
    let d14 = Bind {
        depth: true,
        ..Bind::default()
    };
    v.push(case(
        "texdepth r5 (ps_1_4)",
        "ps_1_4\ntexcrd r5.rgb, t0\nphase\ntexdepth r5\nmov r0, v0\n",
        &[
            ("t0", [0.25, 0.5, 0.0, 1.0]),
            ("v0", [0.25, 0.5, 0.75, 1.0]),
        ],
        d14.clone(),
        &[
            ("depth", [0.5, 0.0, 0.0, 0.0]),
            ("oC0", [0.25, 0.5, 0.75, 1.0]),
        ],
    ));
    v.push(case(
        "texdepth with r5.g = 0 (ps_1_4)",
        "ps_1_4\ntexcrd r5.rgb, t0\nphase\ntexdepth r5\nmov r0, v0\n",
        &[
            ("t0", [0.25, 0.0, 0.0, 1.0]),
            ("v0", [0.25, 0.5, 0.75, 1.0]),
        ],
        d14,
        &[("depth", [1.0, 0.0, 0.0, 0.0])],
    ));
    v.push(case(
        "texkill on a register (ps_1_4)",
        "ps_1_4\ntexcrd r0.rgb, t0\ntexkill r0\nmov r0, v0\n",
        &[
            ("t0", [0.5, -0.1, 0.5, 1.0]),
            ("v0", [0.25, 0.5, 0.75, 1.0]),
        ],
        Bind::default(),
        &[("killed", [0.0; 4])],
    ));
    v
}

pub fn modifier_cases() -> Vec<Case> {
    let mut v = Vec::new();
    let all = ["ps_1_1", "ps_1_2", "ps_1_3", "ps_1_4"];
    let v0 = ("v0", [1.0, 0.5, 0.25, 0.0]);
    let v1 = ("v1", [0.5, 0.75, 1.0, 0.25]);
    for ver in all {
        let one = |name: &str, body: &str, want: [f32; 4]| {
            case(
                &format!("{name} ({ver})"),
                &format!("{ver}\n{body}\n"),
                &[v0, v1],
                Bind::default(),
                &[("oC0", want)],
            )
        };
        // Colour registers are read as they are.
        v.push(one("v0 + v1", "add r0, v0, v1", [1.5, 1.25, 1.25, 0.25]));
        // _bias: r - 0.5; _bx2: 2r - 1; 1 - r; -r; and negated forms.
        v.push(one("_bias", "mov r0, v0_bias", [0.5, 0.0, -0.25, -0.5]));
        v.push(one("-_bias", "mov r0, -v0_bias", [-0.5, 0.0, 0.25, 0.5]));
        v.push(one("_bx2", "mov r0, v0_bx2", [1.0, 0.0, -0.5, -1.0]));
        v.push(one("-_bx2", "mov r0, -v0_bx2", [-1.0, 0.0, 0.5, 1.0]));
        v.push(one("1 - r", "mov r0, 1 - v0", [0.0, 0.5, 0.75, 1.0]));
        v.push(one("negate", "mov r0, -v0", [-1.0, -0.5, -0.25, 0.0]));
        // Result shifts apply after the operation, saturation after them.
        v.push(one("_x2", "mov_x2 r0, v0", [2.0, 1.0, 0.5, 0.0]));
        v.push(one("_x4", "mov_x4 r0, v0", [4.0, 2.0, 1.0, 0.0]));
        v.push(one("_d2", "mov_d2 r0, v0", [0.5, 0.25, 0.125, 0.0]));
        v.push(one(
            "_x2_sat",
            "add_x2_sat r0, v0, -v1",
            [1.0, 0.0, 0.0, 0.0],
        ));
        v.push(one("_sat", "add_sat r0, v0, v1", [1.0, 1.0, 1.0, 0.25]));
        // A co-issued pair reads its sources before either writes: r0.a
        // gets the old r0.r (1), not the new one (0.5).
        v.push(one(
            "co-issue reads before writing",
            "mov r0, v0\nmul r0.rgb, r0, v1\n+mov r0.a, r0.r",
            [0.5, 0.375, 0.25, 1.0],
        ));
        // Constants are clamped to [-1, 1].
        v.push(case(
            &format!("constants read in [-1, 1] ({ver})"),
            &format!("{ver}\nmov r0, c0\n"),
            &[],
            Bind::default().c(0, [2.0, -3.0, 0.5, 1.0]),
            &[("oC0", [1.0, -1.0, 0.5, 1.0])],
        ));
        let mut unclamped = nvp4c::Options::default();
        unclamped.d3d9.ps1x_clamp_constants = false;
        v.push(case(
            &format!("constants unclamped by option ({ver})"),
            &format!("{ver}\nmov r0, c0\n"),
            &[],
            with(unclamped, Bind::default().c(0, [2.0, -3.0, 0.5, 1.0])),
            &[("oC0", [2.0, -3.0, 0.5, 1.0])],
        ));
        // PixelShader1xMaxValue clamps every result.
        let mut max = nvp4c::Options::default();
        max.d3d9.ps1x_max_value = Some(1.0);
        v.push(case(
            &format!("ps1x_max_value clamps results ({ver})"),
            &format!("{ver}\nadd r0, v0, v1\n"),
            &[v0, v1],
            with(max, Bind::default()),
            &[("oC0", [1.0, 1.0, 1.0, 0.25])],
        ));
    }
    // ps_1_4: _x2 on a source, _x8, _d4, _d8 results.
    let one = |name: &str, body: &str, want: [f32; 4]| {
        case(
            &format!("{name} (ps_1_4)"),
            &format!("ps_1_4\n{body}\n"),
            &[v0, v1],
            Bind::default(),
            &[("oC0", want)],
        )
    };
    v.push(one("source _x2", "mov r0, v0_x2", [2.0, 1.0, 0.5, 0.0]));
    v.push(one(
        "source -_x2",
        "mov r0, -v0_x2",
        [-2.0, -1.0, -0.5, 0.0],
    ));
    v.push(one("_x8", "mov_x8 r0, v0", [8.0, 4.0, 2.0, 0.0]));
    v.push(one("_d4", "mov_d4 r0, v0", [0.25, 0.125, 0.0625, 0.0]));
    v.push(one("_d8", "mov_d8 r0, v0", [0.125, 0.0625, 0.03125, 0.0]));
    v.push(one(
        "arbitrary write mask",
        "mov r0, v1\nmov r0.rb, v0",
        [1.0, 0.75, 0.25, 0.25],
    ));
    v
}

#[test]
fn ps_1_x_texture_instructions_sample_the_worked_out_texels() {
    run_cases(&texture_cases());
}

#[test]
fn ps_1_x_source_and_result_modifiers_co_issue_and_ranges() {
    run_cases(&modifier_cases());
}
