//! Input and output registers: the vertex shader outputs of each version
//! (oPos, oD#, oT#, oFog, oPts; vs_3_0's o# with semantics, packed and
//! indexed), vs_3_0's v[aL], pixel shader inputs and outputs (v#, t#,
//! ps_3_0 semantics, vPos, vFace, oC#, oDepth), the SM3 abs modifier, and
//! the conventions nvp4c applies (docs/interface.md, "Direct3D 9").

use super::{case, run_cases, Bind, Case};

fn options(f: impl FnOnce(&mut nvp4c::Options)) -> Option<nvp4c::Options> {
    let mut o = nvp4c::Options::default();
    f(&mut o);
    Some(o)
}

pub fn cases() -> Vec<Case> {
    let mut v = Vec::new();
    let k = Bind::default()
        .c(0, [1.5, -0.5, 0.25, 2.0])
        .c(1, [0.5, 0.5, 0.5, 0.5]);
    for ver in ["vs_1_1", "vs_2_0", "vs_2_x"] {
        // oD# are saturated, oFog is its x saturated, oPts its x, oT# as
        // written; a partly written oT# keeps (0, 0, 0, 1) elsewhere.
        v.push(case(
            &format!("fixed output registers ({ver})"),
            &format!("{ver}\ndcl_position v0\ndcl_texcoord v1\nmov oPos, v0\nmov oD0, c0\nmov oD1, -c0\nmov oT0, v1\nmov oT1.xy, c0\nmov oFog, c0.x\nmov oPts, c0.w\n"),
            &[("v0", [0.25, -0.5, 0.5, 1.0]), ("v1", [3.0, 4.0, 5.0, 6.0])],
            k.clone(),
            &[
                ("oPos", [0.25, -0.5, 0.5, 1.0]),
                ("oD0", [1.0, 0.0, 0.25, 1.0]),
                ("oD1", [0.0, 0.5, 0.0, 0.0]),
                ("oT0", [3.0, 4.0, 5.0, 6.0]),
                ("oT1", [1.5, -0.5, 0.0, 1.0]),
                ("oFog", [1.0; 4]),
                ("oPts", [2.0, 0.0, 0.0, 1.0]),
            ],
        ));
    }
    // vs_3_0: o# by semantic, two semantics packed into o2, colours not
    // saturated.
    v.push(case(
        "vs_3_0 outputs by semantic, packed",
        "vs_3_0\ndcl_position v0\ndcl_position o0\ndcl_color0 o1\ndcl_texcoord0 o2.xy\ndcl_texcoord1 o2.zw\ndcl_fog o3.x\ndcl_psize o4\nmov o0, v0\nmov o1, c0\nmov o2, c0.wzyx\nmov o3.x, c0.x\nmov o4, c0.w\n",
        &[("v0", [0.25, -0.5, 0.5, 1.0])],
        k.clone(),
        &[
            ("oPos", [0.25, -0.5, 0.5, 1.0]),
            ("color0", [1.5, -0.5, 0.25, 2.0]),
            ("texcoord0", [2.0, 0.25, 0.0, 1.0]),
            ("texcoord1", [0.0, 0.0, -0.5, 1.5]),
            ("psize", [2.0, 0.0, 0.0, 1.0]),
        ],
    ));
    // o[aL] and v[aL]: i0 = (3, 0, 1): o1..o3 = v1..v3 * c0.
    v.push(case(
        "vs_3_0 o[aL] and v[aL]",
        "vs_3_0\ndefi i0, 3, 0, 1, 0\ndcl_position v0\ndcl_texcoord0 v1\ndcl_texcoord1 v2\ndcl_texcoord2 v3\ndcl_position o0\ndcl_texcoord0 o1\ndcl_texcoord1 o2\ndcl_texcoord2 o3\nmov o0, v0\nloop aL, i0\nmul o1[aL], v1[aL], c1\nendloop\n",
        &[("v0", [0.0, 0.0, 0.0, 1.0]), ("v1", [2.0, 4.0, 6.0, 8.0]), ("v2", [1.0, 1.0, 1.0, 1.0]), ("v3", [-2.0, 0.0, 2.0, 4.0])],
        k.clone(),
        &[("texcoord0", [1.0, 2.0, 3.0, 4.0]), ("texcoord1", [0.5; 4]), ("texcoord2", [-1.0, 0.0, 1.0, 2.0])],
    ));
    // The abs source modifier of shader model 3, and negation.
    v.push(case(
        "abs and negate source modifiers (vs_3_0)",
        "vs_3_0\ndcl_position v0\ndcl_position o0\ndcl_texcoord0 o1\nmov o0, v0\nadd o1, c0_abs, -c1\n",
        &[("v0", [0.0, 0.0, 0.0, 1.0])],
        k.clone(),
        &[("texcoord0", [1.0, 0.0, -0.25, 1.5])],
    ));
    // Options: flip_y negates the position's y; half_pixel_offset adds
    // w * (state element 16).xy.
    v.push(case(
        "flip_y",
        "vs_2_0\ndcl_position v0\nmov oPos, v0\n",
        &[("v0", [0.25, -0.5, 0.5, 2.0])],
        Bind {
            options: options(|o| o.d3d9.flip_y = true),
            ..Bind::default()
        },
        &[("oPos", [0.25, 0.5, 0.5, 2.0])],
    ));
    v.push(case(
        "half_pixel_offset",
        "vs_3_0\ndcl_position v0\ndcl_position o0\nmov o0, v0\n",
        &[("v0", [0.25, -0.5, 0.5, 2.0])],
        Bind {
            options: options(|o| o.d3d9.half_pixel_offset = true),
            ..Bind::default().state(16, [-0.125, 0.25, 0.0, 0.0])
        },
        &[("oPos", [0.0, 0.0, 0.5, 2.0])],
    ));
    // Pixel shader inputs: ps_2_0 colours and texture coordinates, ps_3_0
    // semantics (packed), vFace, MRT and oDepth.
    for ver in ["ps_2_0", "ps_2_x"] {
        v.push(case(
            &format!("v0, v1, t3 inputs and oC1 ({ver})"),
            &format!("{ver}\ndcl v0\ndcl v1\ndcl t3\nadd r0, v0, v1\nmul r1, t3, c1\nmov oC0, r0\nmov oC1, r1\n"),
            &[("v0", [0.25, 0.5, 0.75, 1.0]), ("v1", [0.25, 0.25, 0.25, 0.0]), ("t3", [4.0, -6.0, 8.0, 10.0])],
            k.clone(),
            &[("oC0", [0.5, 0.75, 1.0, 1.0]), ("oC1", [2.0, -3.0, 4.0, 5.0])],
        ));
        let mut d = k.clone();
        d.depth = true;
        v.push(case(
            &format!("oDepth ({ver})"),
            &format!("{ver}\ndcl t0\nmov r0, t0.y\nmov oDepth, r0.x\nmov oC0, t0\n"),
            &[("t0", [0.25, 0.75, 0.0, 1.0])],
            d,
            &[
                ("depth", [0.75, 0.0, 0.0, 0.0]),
                ("oC0", [0.25, 0.75, 0.0, 1.0]),
            ],
        ));
    }
    v.push(case(
        "ps_3_0 packed semantics, vFace, four render targets and oDepth",
        "ps_3_0\ndcl_texcoord0 v0.xy\ndcl_texcoord1 v0.zw\ndcl_color0 v1\ndcl vFace\nmov r0, v0\nmov oC0, r0\nmov oC1, v1\nmov oC2, vFace\nadd oC3, v0_abs, -v1\nmov oDepth, v1.w\n",
        &[("texcoord0", [1.0, 2.0, 9.0, 9.0]), ("texcoord1", [9.0, 9.0, 3.0, -4.0]), ("color0", [0.5, 0.25, 0.125, 0.5])],
        {
            let mut b = k.clone();
            b.depth = true;
            b
        },
        &[
            ("oC0", [1.0, 2.0, 3.0, -4.0]),
            ("oC1", [0.5, 0.25, 0.125, 0.5]),
            ("oC2", [1.0; 4]),
            ("oC3", [0.5, 1.75, 2.875, 3.5]),
            ("depth", [0.5, 0.0, 0.0, 0.0]),
        ],
    ));
    // vPos: the pixel's integer coordinates (FragCoord - 0.5); the option
    // off gives FragCoord. The harness draws case 0 at pixel (0, 0).
    v.push(case(
        "vPos holds integer pixel coordinates (ps_3_0)",
        "ps_3_0\ndcl vPos.xy\nmov oC0, vPos.xyyy\n",
        &[],
        Bind::default(),
        &[("oC0", [0.0, 0.0, 0.0, 0.0])],
    ));
    v.push(case(
        "vPos with integer_pixel_centers off (ps_3_0)",
        "ps_3_0\ndcl vPos.xy\nmov oC0, vPos.xyyy\n",
        &[],
        Bind {
            options: options(|o| o.d3d9.integer_pixel_centers = false),
            ..Bind::default()
        },
        &[("oC0", [0.5, 0.5, 0.5, 0.5])],
    ));
    v
}

#[test]
fn input_and_output_registers_follow_the_interface() {
    run_cases(&cases());
}
