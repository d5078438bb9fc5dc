//! End-to-end: cgc-style programs compiled with the library (no CLI),
//! validated (spirv-val in process, `Options::validate`) and run on the
//! Vulkan device, with LF, CRLF and CR-only line ends. Expected values are
//! computed by hand from NV_gpu_program4 section 2.X.8.

use crate::harness;
use crate::harness::{fbits, Capture, FragmentJob, Input, VertexJob};

/// The cgc 2.2 output for a tinted texture-coordinate shader, as given.
const CGC_FP: &str = "!!NVfp4.0
# cgc version 2.2.0017, build date Jan 29 2010
#profile gp4fp
#var float4 tint :  : c[0] : 1 : 1
#var float4 texCoord : $vin.TEXCOORD0 : TEX0 : 0 : 1
PARAM c[2] = { program.local[0..1] };
ATTRIB fragment_texcoord[] = { fragment.texcoord[0..0] };
TEMP R0;
TEMP RC, HC;
MUL.F R0, fragment.texcoord[0], c[0];
MAD.F R0.xyz, R0, {2, 0.5}.x, -c[1];
DP3.F.SAT R0.w, R0, {0.25, 0.5, 0.25};
ADDR_SAT R0.x, R0.x, {0.125}.x;
MOV.F result.color, R0;
END
# 5 instructions, 1 R-regs
";

/// program.local[0] (c[0], "tint") and program.local[1] (c[1]).
const TINT: [f32; 4] = [1.0, 2.0, 0.5, 4.0];
const BIAS: [f32; 4] = [0.5, 0.25, 0.125, 0.0];

/// (texcoord[0], expected result.color), computed by hand:
///   R0      = t * c0
///   R0.xyz  = R0.xyz * 2 - c1.xyz                ({2, 0.5}.x = 2)
///   R0.w    = sat(R0.x*0.25 + R0.y*0.5 + R0.z*0.25)
///   R0.x    = sat(R0.x + 0.125)
fn cgc_cases() -> Vec<([f32; 4], [f32; 4])> {
    vec![
        // R0 = [0.5*1, 0.25*2, 1*0.5, 0.75*4] = [0.5, 0.5, 0.5, 3]
        // xyz = [1-0.5, 1-0.25, 1-0.125] = [0.5, 0.75, 0.875]
        // w = sat(0.125 + 0.375 + 0.21875) = 0.71875;  x = sat(0.5+0.125) = 0.625
        ([0.5, 0.25, 1.0, 0.75], [0.625, 0.75, 0.875, 0.71875]),
        // R0 = [1, 2, 0.5, 4]; xyz = [2-0.5, 4-0.25, 1-0.125] = [1.5, 3.75, 0.875]
        // w = sat(0.375 + 1.875 + 0.21875 = 2.46875) = 1;  x = sat(1.625) = 1
        ([1.0, 1.0, 1.0, 1.0], [1.0, 3.75, 0.875, 1.0]),
        // R0 = [-1, 0, 0, 0]; xyz = [-2.5, -0.25, -0.125]
        // w = sat(-0.625 - 0.125 - 0.03125 = -0.78125) = 0;  x = sat(-2.375) = 0
        ([-1.0, 0.0, 0.0, 0.0], [0.0, -0.25, -0.125, 0.0]),
    ]
}

fn with_line_ends(src: &str, eol: &str) -> String {
    src.replace('\n', eol)
}

fn compile(src: &str, env: nvp4c::TargetEnv) -> Vec<u32> {
    let mut o = nvp4c::Options::default();
    o.target_env = env;
    o.validate = true;
    match nvp4c::compile(src, &o) {
        Ok(c) => c.spirv,
        Err(d) => panic!(
            "compile failed ({env:?}):\n{}",
            d.render("cgc.fp", src, false)
        ),
    }
}

fn run_cgc(src: &str, env: nvp4c::TargetEnv) {
    let spirv = compile(src, env);
    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    let cases = cgc_cases();
    let job = FragmentJob {
        local: vec![fbits(TINT), fbits(BIAS)],
        ..FragmentJob::new(
            cases
                .iter()
                .map(|(t, _)| vec![Input::float(5, *t)])
                .collect(),
        )
    };
    let out = dev
        .run_fragment(&spirv, &job)
        .unwrap_or_else(|e| panic!("run failed ({env:?}): {e}"));
    for (i, (t, want)) in cases.iter().enumerate() {
        // Compared by value: the clamped zeros of case 2 may be +0 or -0.
        assert_eq!(
            out.f32(i),
            *want,
            "{env:?}, case {i} (texcoord[0] = {t:?}): bits {:08x?}",
            out.bits(i)
        );
    }
}

#[test]
fn cgc_fragment_program_with_lf_line_ends() {
    run_cgc(CGC_FP, nvp4c::TargetEnv::Vulkan1_0);
}

#[test]
fn cgc_fragment_program_with_crlf_line_ends() {
    run_cgc(&with_line_ends(CGC_FP, "\r\n"), nvp4c::TargetEnv::Vulkan1_0);
}

#[test]
fn cgc_fragment_program_with_cr_only_line_ends() {
    // The `#` comments must end at a lone CR, or everything after the first
    // comment would be swallowed.
    run_cgc(&with_line_ends(CGC_FP, "\r"), nvp4c::TargetEnv::Vulkan1_0);
}

#[test]
fn cgc_fragment_program_for_every_target_env() {
    for env in [
        nvp4c::TargetEnv::Vulkan1_0,
        nvp4c::TargetEnv::Vulkan1_1,
        nvp4c::TargetEnv::Vulkan1_2,
        nvp4c::TargetEnv::Vulkan1_3,
    ] {
        run_cgc(CGC_FP, env);
    }
}

/// A cgc-style vertex program: transform by a matrix in program.local[0..3],
/// pass a scaled texture coordinate, and a colour computed with DP3/MAD.
const CGC_VP: &str = "!!NVvp4.0
# cgc version 2.2.0017, build date Jan 29 2010
#profile gp4vp
#var float4x4 mvp :  : c[0], 4 : 1 : 1
#var float4 scale :  : c[4] : 2 : 1
PARAM c[5] = { program.local[0..4] };
TEMP R0;
DP4.F result.position.x, vertex.attrib[0], c[0];
DP4.F result.position.y, vertex.attrib[0], c[1];
DP4.F result.position.z, vertex.attrib[0], c[2];
DP4.F result.position.w, vertex.attrib[0], c[3];
MUL.F R0, vertex.attrib[8], c[4];
MOV.F result.texcoord[0], R0;
DP3.F.SAT R0.w, R0, {0.5, 0.25, 0.25};
MAD.F result.color, R0.w, {1, 2, 3, 4}, -{0.5}.x;
END
# 9 instructions, 1 R-regs
";

fn run_cgc_vp(src: &str) {
    let spirv = compile(src, nvp4c::TargetEnv::Vulkan1_0);
    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    // Rows of the matrix: [2,0,0,1], [0,3,0,-1], [0,0,0.5,0], [0,0,0,1]
    let local = [
        fbits([2.0, 0.0, 0.0, 1.0]),
        fbits([0.0, 3.0, 0.0, -1.0]),
        fbits([0.0, 0.0, 0.5, 0.0]),
        fbits([0.0, 0.0, 0.0, 1.0]),
        fbits([2.0, 0.5, 4.0, -1.0]),
    ];
    let job = VertexJob {
        local: local.to_vec(),
        ..VertexJob::new(
            vec![
                vec![
                    Input::float(0, [1.0, 2.0, 4.0, 1.0]),
                    Input::float(8, [0.25, 1.0, 0.125, 3.0]),
                ],
                vec![
                    Input::float(0, [-1.0, 0.5, -2.0, 2.0]),
                    Input::float(8, [1.0, 2.0, 0.0, 0.0]),
                ],
            ],
            vec![
                Capture::Position,
                Capture::Location(0),
                Capture::Location(5),
            ],
        )
    };
    let out = dev.run_vertex(&spirv, &job).unwrap();
    // vertex 0: position = [2*1+1, 3*2-1, 0.5*4, 1] = [3, 5, 2, 1]
    // R0 = [0.25*2, 1*0.5, 0.125*4, 3*-1] = [0.5, 0.5, 0.5, -3]
    // R0.w = sat(0.25 + 0.125 + 0.125) = 0.5; color = 0.5*[1,2,3,4] - 0.5
    assert_eq!(out.position_f32(0), [3.0, 5.0, 2.0, 1.0], "position 0");
    assert_eq!(out.location_f32(0, 5), [0.5, 0.5, 0.5, -3.0], "texcoord 0");
    assert_eq!(out.location_f32(0, 0), [0.0, 0.5, 1.0, 1.5], "color 0");
    // vertex 1: position = [-2+2, 1.5-2, -1, 2] = [0, -0.5, -1, 2]
    // R0 = [2, 1, 0, -0]; R0.w = sat(1 + 0.25 + 0) = 1; color = [0.5, 1.5, 2.5, 3.5]
    assert_eq!(out.position_f32(1), [0.0, -0.5, -1.0, 2.0], "position 1");
    assert_eq!(out.location_f32(1, 5), [2.0, 1.0, 0.0, 0.0], "texcoord 1");
    assert_eq!(out.location_f32(1, 0), [0.5, 1.5, 2.5, 3.5], "color 1");
}

#[test]
fn cgc_vertex_program_with_lf_line_ends() {
    run_cgc_vp(CGC_VP);
}

#[test]
fn cgc_vertex_program_with_crlf_line_ends() {
    run_cgc_vp(&with_line_ends(CGC_VP, "\r\n"));
}

#[test]
fn cgc_vertex_program_with_cr_only_line_ends() {
    run_cgc_vp(&with_line_ends(CGC_VP, "\r"));
}
