//! Execution tests of vertex programs (`!!NVvp4.0`) on the Vulkan device,
//! captured with transform feedback (tests/device/harness/vertex.rs). Expected
//! values are computed by hand from NV_gpu_program4 section 2.X.8; the
//! arithmetic is in the comments. Outputs are read back as exact bits.

use crate::harness;
use std::f32::consts::{FRAC_PI_3, FRAC_PI_6};

use crate::harness::{fbits, Capture, Input, VertexJob, VertexOutput};

const INF: f32 = f32::INFINITY;
const NAN: f32 = f32::NAN;
const Z: [f32; 4] = [0.0; 4];

fn compile(src: &str) -> Vec<u32> {
    match nvp4c::compile(src, &nvp4c::Options::default()) {
        Ok(c) => c.spirv,
        Err(d) => panic!(
            "compile failed:\n{}\n--- program ---\n{src}",
            d.render("test.vp", src, false)
        ),
    }
}

fn run(src: &str, job: &VertexJob) -> Option<VertexOutput> {
    let spirv = compile(src);
    let dev = harness::device_or_skip()?;
    Some(
        dev.run_vertex(&spirv, job)
            .unwrap_or_else(|e| panic!("run failed: {e}\n--- program ---\n{src}")),
    )
}

#[test]
fn mov_passes_vertex_position_through_bit_exactly() {
    let src = "!!NVvp4.0\nMOV result.position, vertex.position;\nEND\n";
    let verts = [
        [1.0, -2.0, 0.5, 1.0],
        [-0.0, 0.0, -1e-30, 3e38],
        [INF, -INF, 123.456, -7.0],
    ];
    let job = VertexJob::new(
        verts.iter().map(|&v| vec![Input::float(0, v)]).collect(),
        vec![Capture::Position],
    );
    let Some(out) = run(src, &job) else { return };
    for (i, v) in verts.iter().enumerate() {
        assert_eq!(out.position(i), fbits(*v), "vertex {i}");
    }
}

#[test]
fn dp4_matrix_transform_with_a_local_parameter_array() {
    let src = "!!NVvp4.0\n\
               PARAM mvp[4] = { program.local[0..3] };\n\
               DP4 result.position.x, mvp[0], vertex.position;\n\
               DP4 result.position.y, mvp[1], vertex.position;\n\
               DP4 result.position.z, mvp[2], vertex.position;\n\
               DP4 result.position.w, mvp[3], vertex.position;\n\
               END\n";
    // Rows: [1,2,0,3], [0,-1,4,0], [0.5,0,0,-2], [0,0,1,1]
    let rows = [
        [1.0, 2.0, 0.0, 3.0],
        [0.0, -1.0, 4.0, 0.0],
        [0.5, 0.0, 0.0, -2.0],
        [0.0, 0.0, 1.0, 1.0],
    ];
    let job = VertexJob {
        local: rows.iter().map(|&r| fbits(r)).collect(),
        ..VertexJob::new(
            vec![
                vec![Input::float(0, [1.0, 1.0, 1.0, 1.0])],
                vec![Input::float(0, [2.0, -3.0, 0.5, 1.0])],
                vec![Input::float(0, [0.0, 0.0, 0.0, 0.0])],
            ],
            vec![Capture::Position],
        )
    };
    let Some(out) = run(src, &job) else { return };
    // v = [1,1,1,1]: [1+2+0+3, 0-1+4+0, 0.5+0+0-2, 0+0+1+1] = [6, 3, -1.5, 2]
    assert_eq!(out.position_f32(0), [6.0, 3.0, -1.5, 2.0], "vertex 0");
    // v = [2,-3,0.5,1]: [2-6+0+3, 0+3+2+0, 1+0+0-2, 0+0+0.5+1] = [-1, 5, -1, 1.5]
    assert_eq!(out.position_f32(1), [-1.0, 5.0, -1.0, 1.5], "vertex 1");
    // v = 0: every dot product is +0 (sums of +0 products)
    assert_eq!(out.position(2), fbits([0.0; 4]), "vertex 2");
}

#[test]
fn writes_color_texcoords_and_generic_attribs() {
    let src = "!!NVvp4.0\n\
               ATTRIB v = vertex.attrib[1];\n\
               MOV result.position, vertex.position;\n\
               MOV result.color, v;\n\
               ADD result.texcoord[0], v, {1, 2, 3, 4};\n\
               MUL result.texcoord[3], v, -2;\n\
               MOV result.attrib[0], v.wzyx;\n\
               SUB result.attrib[5], {0}.x, v;\n\
               END\n";
    let v = [1.5, -2.0, 0.25, 8.0];
    let job = VertexJob::new(
        vec![vec![
            Input::float(0, [0.0, 0.0, 0.0, 1.0]),
            Input::float(1, v),
        ]],
        vec![
            Capture::Location(0),
            Capture::Location(5),
            Capture::Location(8),
            Capture::Location(14),
            Capture::Location(19),
        ],
    );
    let Some(out) = run(src, &job) else { return };
    // docs/interface.md: color = 0, texcoord[n] = 5+n, attrib[n] = 14+n
    assert_eq!(out.location_f32(0, 0), v, "result.color");
    // v + [1,2,3,4]
    assert_eq!(
        out.location_f32(0, 5),
        [2.5, 0.0, 3.25, 12.0],
        "result.texcoord[0]"
    );
    // v * -2
    assert_eq!(
        out.location_f32(0, 8),
        [-3.0, 4.0, -0.5, -16.0],
        "result.texcoord[3]"
    );
    // v.wzyx
    assert_eq!(
        out.location_f32(0, 14),
        [8.0, 0.25, -2.0, 1.5],
        "result.attrib[0]"
    );
    // 0 - v
    assert_eq!(
        out.location_f32(0, 19),
        [-1.5, 2.0, -0.25, -8.0],
        "result.attrib[5]"
    );
}

/// How an entry of the op table is compared.
#[derive(Clone, Copy, Debug)]
enum Mode {
    /// Bit-exact (an expected NaN accepts any NaN).
    Bits,
    /// By value (+0 == -0).
    Value,
    /// Relative 1e-5 (absolute when 0): the GL's "1 part in 10^5" minimum
    /// precision (ARB_vertex_program issue 22), for the spec's Approx* functions.
    Approx,
    /// Absolute 1e-5, for SIN/COS (results in [-1, 1]).
    Trig,
}

struct Op {
    body: &'static str,
    a: [f32; 4],
    b: [f32; 4],
    c: [f32; 4],
    /// Expected result.texcoord[0]; only the first `want.len()` components.
    want: &'static [f32],
    mode: Mode,
}

const fn op(
    body: &'static str,
    a: [f32; 4],
    b: [f32; 4],
    c: [f32; 4],
    want: &'static [f32],
    mode: Mode,
) -> Op {
    Op {
        body,
        a,
        b,
        c,
        want,
        mode,
    }
}

/// One line per float instruction: A, B, C are vertex.attrib[1..3], O is
/// result.texcoord[0] (Location 5).
const OPS: &[Op] = &[
    // MOV copies, including -0 and INF
    op(
        "MOV O, A;",
        [1.0, -2.5, -0.0, INF],
        Z,
        Z,
        &[1.0, -2.5, -0.0, INF],
        Mode::Bits,
    ),
    // 1.5+2.25, -2+0.5, 0+(-0) = +0, -0+(-0) = -0
    op(
        "ADD O, A, B;",
        [1.5, -2.0, 0.0, -0.0],
        [2.25, 0.5, -0.0, -0.0],
        Z,
        &[3.75, -1.5, 0.0, -0.0],
        Mode::Bits,
    ),
    // 5-3, 1-4, 0-0 = +0, -0-0 = -0
    op(
        "SUB O, A, B;",
        [5.0, 1.0, 0.0, -0.0],
        [3.0, 4.0, 0.0, 0.0],
        Z,
        &[2.0, -3.0, 0.0, -0.0],
        Mode::Bits,
    ),
    // 1.5*2, -3*4, -0*5 = -0, 1e30*1e30 overflows to INF
    op(
        "MUL O, A, B;",
        [1.5, -3.0, -0.0, 1e30],
        [2.0, 4.0, 5.0, 1e30],
        Z,
        &[3.0, -12.0, -0.0, INF],
        Mode::Bits,
    ),
    // 2*3+1, -1*4+0.5, 0.5*0.5-0.25, 3*0.25-0.75
    op(
        "MAD O, A, B, C;",
        [2.0, -1.0, 0.5, 3.0],
        [3.0, 4.0, 0.5, 0.25],
        [1.0, 0.5, -0.25, -0.75],
        &[7.0, -3.5, 0.0, 0.0],
        Mode::Bits,
    ),
    // 1*3 + 2*4 = 11
    op(
        "DP2 O, A, B;",
        [1.0, 2.0, 9.0, 9.0],
        [3.0, 4.0, 9.0, 9.0],
        Z,
        &[11.0; 4],
        Mode::Bits,
    ),
    // 1*3 + 2*4 + 0.5 = 11.5
    op(
        "DP2A O, A, B, C;",
        [1.0, 2.0, 9.0, 9.0],
        [3.0, 4.0, 9.0, 9.0],
        [0.5, 9.0, 9.0, 9.0],
        &[11.5; 4],
        Mode::Bits,
    ),
    // 4 + 10 + 18 = 32
    op(
        "DP3 O, A, B;",
        [1.0, 2.0, 3.0, 9.0],
        [4.0, 5.0, 6.0, 9.0],
        Z,
        &[32.0; 4],
        Mode::Bits,
    ),
    // 5 + 12 + 21 + 32 = 70
    op(
        "DP4 O, A, B;",
        [1.0, 2.0, 3.0, 4.0],
        [5.0, 6.0, 7.0, 8.0],
        Z,
        &[70.0; 4],
        Mode::Bits,
    ),
    // 4 + 10 + 18 + 0.5 = 32.5
    op(
        "DPH O, A, B;",
        [1.0, 2.0, 3.0, 9.0],
        [4.0, 5.0, 6.0, 0.5],
        Z,
        &[32.5; 4],
        Mode::Bits,
    ),
    op(
        "MIN O, A, B;",
        [1.0, -2.0, 3.5, -INF],
        [2.0, -3.0, 3.5, 5.0],
        Z,
        &[1.0, -3.0, 3.5, -INF],
        Mode::Bits,
    ),
    op(
        "MAX O, A, B;",
        [1.0, -2.0, 3.5, -INF],
        [2.0, -3.0, 3.5, 5.0],
        Z,
        &[2.0, -2.0, 3.5, 5.0],
        Mode::Bits,
    ),
    op(
        "ABS O, A;",
        [-1.5, 2.0, -0.0, -INF],
        Z,
        Z,
        &[1.5, 2.0, 0.0, INF],
        Mode::Bits,
    ),
    // spec examples: floor(-1.7) = -2, floor(1) = 1, floor(3.7) = 3; floor(-0.5) = -1
    op(
        "FLR O, A;",
        [-1.7, 1.0, 3.7, -0.5],
        Z,
        Z,
        &[-2.0, 1.0, 3.0, -1.0],
        Mode::Bits,
    ),
    // -1.7f + 2 = 0.29999995 (exact); 1.25-1; -0.25+1; 3-3 = +0
    op(
        "FRC O, A;",
        [-1.7, 1.25, -0.25, 3.0],
        Z,
        Z,
        &[0.299_999_95, 0.25, 0.75, 0.0],
        Mode::Bits,
    ),
    // ceil(-1.7) = -1, ceil(1) = 1, ceil(3.7) = 4, ceil(0.25) = 1
    op(
        "CEIL O, A;",
        [-1.7, 1.0, 3.7, 0.25],
        Z,
        Z,
        &[-1.0, 1.0, 4.0, 1.0],
        Mode::Bits,
    ),
    // trunc(-1.7) = -1, trunc(1) = 1, trunc(3.7) = 3, trunc(-2.5) = -2
    op(
        "TRUNC O, A;",
        [-1.7, 1.0, 3.7, -2.5],
        Z,
        Z,
        &[-1.0, 1.0, 3.0, -2.0],
        Mode::Bits,
    ),
    // ties to even: 0.5 -> 0, 1.5 -> 2, 2.5 -> 2, -2.5 -> -2
    op(
        "ROUND O, A;",
        [0.5, 1.5, 2.5, -2.5],
        Z,
        Z,
        &[0.0, 2.0, 2.0, -2.0],
        Mode::Bits,
    ),
    // 1/4
    op(
        "RCP O, A.x;",
        [4.0, 0.0, 0.0, 0.0],
        Z,
        Z,
        &[0.25; 4],
        Mode::Approx,
    ),
    // 1/+0 = +INF, 1/-0 = -INF (IEEE rules, issue 18)
    op(
        "RCP O.xy, A.x;\nRCP O.zw, A.y;",
        [0.0, -0.0, 0.0, 0.0],
        Z,
        Z,
        &[INF, INF, -INF, -INF],
        Mode::Bits,
    ),
    // 1/sqrt(16)
    op(
        "RSQ O, A.x;",
        [16.0, 0.0, 0.0, 0.0],
        Z,
        Z,
        &[0.25; 4],
        Mode::Approx,
    ),
    // 2^3
    op(
        "EX2 O, A.x;",
        [3.0, 0.0, 0.0, 0.0],
        Z,
        Z,
        &[8.0; 4],
        Mode::Approx,
    ),
    // 2^-INF = 0
    op(
        "EX2 O, A.x;",
        [-INF, 0.0, 0.0, 0.0],
        Z,
        Z,
        &[0.0; 4],
        Mode::Value,
    ),
    // log2(8)
    op(
        "LG2 O, A.x;",
        [8.0, 0.0, 0.0, 0.0],
        Z,
        Z,
        &[3.0; 4],
        Mode::Approx,
    ),
    // 2^10 = exp2(10 * log2(2))
    op(
        "POW O, A.x, B.x;",
        [2.0, 0.0, 0.0, 0.0],
        [10.0, 0.0, 0.0, 0.0],
        Z,
        &[1024.0; 4],
        Mode::Approx,
    ),
    // sin(pi/6) = 0.5
    op(
        "SIN O, A.x;",
        [FRAC_PI_6, 0.0, 0.0, 0.0],
        Z,
        Z,
        &[0.5; 4],
        Mode::Trig,
    ),
    // cos(pi/3) = 0.5
    op(
        "COS O, A.x;",
        [FRAC_PI_3, 0.0, 0.0, 0.0],
        Z,
        Z,
        &[0.5; 4],
        Mode::Trig,
    ),
    // a*b + (1-a)*c: 0*2+1*4, 1*2+0*4, 0.5*2+0.5*4, 0.25*8+0.75*0
    op(
        "LRP O, A, B, C;",
        [0.0, 1.0, 0.5, 0.25],
        [2.0, 2.0, 2.0, 8.0],
        [4.0, 4.0, 4.0, 0.0],
        &[4.0, 2.0, 3.0, 2.0],
        Mode::Value,
    ),
    // (a < 0) ? b : c: -1 -> 10, 0 -> 2, -0 -> 3, NaN -> 4
    op(
        "CMP O, A, B, C;",
        [-1.0, 0.0, -0.0, NAN],
        [10.0, 20.0, 30.0, 40.0],
        [1.0, 2.0, 3.0, 4.0],
        &[10.0, 2.0, 3.0, 4.0],
        Mode::Bits,
    ),
    // 1<2, 2<2, 3<2, NaN<1
    op(
        "SLT O, A, B;",
        [1.0, 2.0, 3.0, NAN],
        [2.0, 2.0, 2.0, 1.0],
        Z,
        &[1.0, 0.0, 0.0, 0.0],
        Mode::Bits,
    ),
    op(
        "SGE O, A, B;",
        [1.0, 2.0, 3.0, NAN],
        [2.0, 2.0, 2.0, 1.0],
        Z,
        &[0.0, 1.0, 1.0, 0.0],
        Mode::Bits,
    ),
    op(
        "SEQ O, A, B;",
        [1.0, 2.0, -0.0, NAN],
        [2.0, 2.0, 0.0, 1.0],
        Z,
        &[0.0, 1.0, 1.0, 0.0],
        Mode::Bits,
    ),
    op(
        "SNE O, A, B;",
        [1.0, 2.0, -0.0, NAN],
        [2.0, 2.0, 0.0, 1.0],
        Z,
        &[1.0, 0.0, 0.0, 1.0],
        Mode::Bits,
    ),
    op(
        "SGT O, A, B;",
        [1.0, 2.0, 3.0, NAN],
        [2.0, 2.0, 2.0, 1.0],
        Z,
        &[0.0, 0.0, 1.0, 0.0],
        Mode::Bits,
    ),
    op(
        "SLE O, A, B;",
        [1.0, 2.0, 3.0, NAN],
        [2.0, 2.0, 2.0, 1.0],
        Z,
        &[1.0, 1.0, 0.0, 0.0],
        Mode::Bits,
    ),
    op(
        "SFL O, A, B;",
        [1.0, 2.0, 3.0, 4.0],
        Z,
        Z,
        &[0.0; 4],
        Mode::Bits,
    ),
    op(
        "STR O, A, B;",
        [1.0, 2.0, 3.0, 4.0],
        Z,
        Z,
        &[1.0; 4],
        Mode::Bits,
    ),
    // sign: 1, -1, 0 (of -0), -1
    op(
        "SSG O, A;",
        [2.5, -0.5, -0.0, -INF],
        Z,
        Z,
        &[1.0, -1.0, 0.0, -1.0],
        Mode::Value,
    ),
    // [2*6-3*5, 3*4-1*6, 1*5-2*4]; w undefined
    op(
        "XPD O.xyz, A, B;",
        [1.0, 2.0, 3.0, 0.0],
        [4.0, 5.0, 6.0, 0.0],
        Z,
        &[-3.0, 6.0, -3.0],
        Mode::Value,
    ),
    // [3, 4, 0] / 5; w undefined
    op(
        "NRM O.xyz, A;",
        [3.0, 4.0, 0.0, 0.0],
        Z,
        Z,
        &[0.6, 0.8, 0.0],
        Mode::Approx,
    ),
    // [6, -3, 1, 0] / 2
    op(
        "DIV O, A, B.x;",
        [6.0, -3.0, 1.0, 0.0],
        [2.0, 0.0, 0.0, 0.0],
        Z,
        &[3.0, -1.5, 0.5, 0.0],
        Mode::Bits,
    ),
    // [1, a.y*b.y, a.z, b.w] = [1, 4*0.5, 4, 0.5]
    op(
        "DST O, A, B;",
        [NAN, 4.0, 4.0, NAN],
        [NAN, 0.5, NAN, 0.5],
        Z,
        &[1.0, 2.0, 4.0, 0.5],
        Mode::Bits,
    ),
    // x = 1 > 0, y = 0, w = 0: z = 0^0 = 1 (spec)
    op(
        "LIT O, A;",
        [1.0, 0.0, 0.0, 0.0],
        Z,
        Z,
        &[1.0, 1.0, 1.0, 1.0],
        Mode::Bits,
    ),
    // x < 0 -> 0, z = 0.0
    op(
        "LIT O, A;",
        [-1.0, 0.5, 0.0, 2.0],
        Z,
        Z,
        &[1.0, 0.0, 0.0, 1.0],
        Mode::Bits,
    ),
    // sat([0.75, 2, -3, INF])
    op(
        "ADD_SAT O, A, B;",
        [0.25, 2.0, -3.0, INF],
        [0.5, 0.0, 0.0, 0.0],
        Z,
        &[0.75, 1.0, 0.0, 1.0],
        Mode::Value,
    ),
    // ssat([0.75, 2, -3, INF])
    op(
        "ADD.SSAT O, A, B;",
        [0.25, 2.0, -3.0, INF],
        [0.5, 0.0, 0.0, 0.0],
        Z,
        &[0.75, 1.0, -1.0, 1.0],
        Mode::Bits,
    ),
];

fn close(got: f32, want: f32, mode: Mode) -> bool {
    if want.is_nan() {
        return got.is_nan();
    }
    if want.is_infinite() {
        return got == want;
    }
    let d = (got as f64 - want as f64).abs();
    match mode {
        Mode::Bits => got.to_bits() == want.to_bits(),
        Mode::Value => got == want,
        Mode::Approx => {
            d <= 1e-5
                * if want == 0.0 {
                    1.0
                } else {
                    (want as f64).abs()
                }
        }
        Mode::Trig => d <= 1e-5,
    }
}

#[test]
fn every_float_op_in_a_vertex_program() {
    let mut fails = Vec::new();
    for op in OPS {
        let src = format!(
            "!!NVvp4.0\n\
             ATTRIB A = vertex.attrib[1];\n\
             ATTRIB B = vertex.attrib[2];\n\
             ATTRIB C = vertex.attrib[3];\n\
             OUTPUT O = result.texcoord[0];\n\
             {}\n\
             END\n",
            op.body
        );
        let job = VertexJob::new(
            vec![vec![
                Input::float(1, op.a),
                Input::float(2, op.b),
                Input::float(3, op.c),
            ]],
            vec![Capture::Location(5)],
        );
        let spirv = match nvp4c::compile(&src, &nvp4c::Options::default()) {
            Ok(c) => c.spirv,
            Err(d) => {
                fails.push(format!("{}: compile failed: {d}", op.body));
                continue;
            }
        };
        let Some(dev) = harness::device_or_skip() else {
            return;
        };
        let out = match dev.run_vertex(&spirv, &job) {
            Ok(o) => o,
            Err(e) => {
                fails.push(format!("{}: run failed: {e}", op.body));
                continue;
            }
        };
        let got = out.location_f32(0, 5);
        let ok = got.iter().zip(op.want).all(|(&g, &w)| close(g, w, op.mode));
        if !ok {
            fails.push(format!(
                "{}: A={:?} B={:?} C={:?}: got {:?} (bits {:08x?}), want {:?} ({:?})",
                op.body,
                op.a,
                op.b,
                op.c,
                &got[..op.want.len()],
                out.location(0, 5),
                op.want,
                op.mode
            ));
        }
    }
    assert!(
        fails.is_empty(),
        "{} of {} ops failed:\n  {}",
        fails.len(),
        OPS.len(),
        fails.join("\n  ")
    );
}

#[test]
fn vertex_point_size_option_draws_points_one_pixel_wide() {
    // A vertex program drawn as POINT_LIST with no later stage must write
    // PointSize (VUID-VkGraphicsPipelineCreateInfo-Vertex-07722, later
    // -topology-08773, which the validation layer reports without it). This one writes none; with
    // Options::vertex_point_size nvp4c writes GL's default, 1.0
    // (NV_geometry_program4 section 3.3: PointSize's "default value is
    // 1.0"), so each point covers exactly the pixel whose centre it is on:
    // pixels (3, 5) and (20, 9) get the colour, every other pixel keeps the
    // clear value. Clip-space x = p/16 - 1 on the 32×32 target.
    let vertex = "!!ARBvp1.0
MOV result.position, vertex.attrib[0];
MOV result.color, vertex.attrib[1];
END
";
    let fragment = "!!ARBfp1.0
MOV result.color, fragment.color;
END
";
    let mut options = nvp4c::Options::default();
    options.vertex_point_size = true;
    let vs = nvp4c::compile(vertex, &options).unwrap().spirv;
    let fs = compile(fragment);
    let points = [
        ([3u32, 5u32], [1.0, 0.5, 0.25, 1.0]),
        ([20, 9], [0.0, 0.75, 1.0, 1.0]),
    ];
    let vertices = points
        .iter()
        .map(|&(p, colour)| {
            let ndc = |c: u32| (c as f32 + 0.5) / 16.0 - 1.0;
            vec![
                Input::float(0, [ndc(p[0]), ndc(p[1]), 0.0, 1.0]),
                Input::float(1, colour),
            ]
        })
        .collect();
    let job = harness::RasterJob::new(vertices, ash::vk::PrimitiveTopology::POINT_LIST);
    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    let out = dev
        .run_raster(&vs, None, &fs, &job)
        .unwrap_or_else(|e| panic!("run failed: {e}"));
    for y in 0..32u32 {
        for x in 0..32u32 {
            let want = match points.iter().find(|(p, _)| *p == [x, y]) {
                Some((_, colour)) => fbits(*colour),
                None => out.clear,
            };
            assert_eq!(out.bits(x, y), want, "pixel ({x}, {y})");
        }
    }
}

/// Compiles `src` with `options` and `Options::transform_feedback`, checks that every
/// output is in buffer 0's `stride`-byte record at the offsets `offsets`
/// (bindings, byte offset) the reflection gives, and runs it over
/// `vertices` (one triangle list) capturing the records the module
/// declares; the records as floats, `None` without a device.
fn captured_records(
    src: &str,
    options: &nvp4c::Options,
    offsets: &[(&str, u32)],
    stride: u32,
    vertices: Vec<Vec<Input>>,
) -> Option<Vec<Vec<f32>>> {
    let mut options = options.clone();
    options.transform_feedback = true;
    let compiled = nvp4c::compile(src, &options).unwrap();
    let mut got: Vec<(String, u32)> = compiled
        .reflection
        .outputs
        .iter()
        .map(|o| {
            let x = o.transform_feedback.expect("every result is captured");
            assert_eq!((x.stream, x.buffer, x.stride), (0, 0, stride), "{o:?}");
            (o.bindings.join(" "), x.offset)
        })
        .collect();
    got.sort_by_key(|o| o.1);
    let got: Vec<(&str, u32)> = got.iter().map(|(n, o)| (n.as_str(), *o)).collect();
    assert_eq!(got, offsets);
    let dev = harness::device_or_skip()?;
    let n = vertices.len();
    let job = harness::GeometryJob {
        vertices,
        ..Default::default()
    };
    let records = dev
        .run_vertex_declared(&compiled.spirv, &job, stride)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        records.len(),
        n,
        "one record per vertex of the triangle list"
    );
    Some(
        records
            .iter()
            .map(|r| r.iter().map(|&w| f32::from_bits(w)).collect())
            .collect(),
    )
}

/// The interpreter's results `names` (the first `components` of each)
/// for `src` with the vertex attributes `attribs` (name, value).
fn interpreted(src: &str, attribs: &[(&str, [f32; 4])], names: &[(&str, usize)]) -> Vec<f32> {
    let (program, _) = nvp4c::check(src, &nvp4c::Options::default()).unwrap();
    let mut inputs = nvp4c::interp::Inputs::default();
    for (name, value) in attribs {
        inputs.set(name, fbits(*value)).unwrap();
    }
    let out = nvp4c::interp::run(&program, &inputs, &Default::default()).unwrap();
    names
        .iter()
        .flat_map(|&(name, n)| {
            out.results[name].bits[..n]
                .iter()
                .map(|&b| f32::from_bits(b))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// `Options::transform_feedback` on a vertex program (docs/interface.md,
/// "Transform feedback"): the module declares its own capture, not patched
/// by the harness, into transform feedback buffer 0, one record per vertex:
/// `result.position` at byte 0, the Location results by Location
/// (`result.color` Location 0 at 16, `result.texcoord[2]` Location 7 at
/// 32), then the other built-ins by their SPIR-V number (`PointSize` 1 at
/// 48, the two `ClipDistance`s 3 at 52): 60 bytes. Checked against values
/// worked out from NV_gpu_program4 2.X.8.Z (ADD, MUL, MOV) and against the
/// interpreter.
#[test]
fn a_vertex_program_captures_its_record_with_options_transform_feedback() {
    let src = "!!NVvp4.0
ATTRIB p = vertex.attrib[0];
ATTRIB c = vertex.attrib[1];
MOV result.position, p;
ADD result.color, c, {0.5, 0.25, 0, 1};
MUL result.texcoord[2], c, p;
MOV result.pointsize.x, 3;
MOV result.clip[0].x, p.x;
MOV result.clip[1].x, c.y;
END
";
    // Vertex i: p = (i + 1, 2i, -i, 1), c = (i / 2, 1, 2, 3).
    let p = |i: usize| {
        let f = i as f32;
        [f + 1.0, 2.0 * f, -f, 1.0]
    };
    let c = |i: usize| [i as f32 / 2.0, 1.0, 2.0, 3.0];
    let expected = |i: usize| -> Vec<f32> {
        let (p, c) = (p(i), c(i));
        let mut r = Vec::new();
        r.extend(p); // result.position
        r.extend([c[0] + 0.5, c[1] + 0.25, c[2], c[3] + 1.0]); // result.color
        r.extend([c[0] * p[0], c[1] * p[1], c[2] * p[2], c[3] * p[3]]); // texcoord[2]
        r.push(3.0); // result.pointsize
        r.extend([p[0], c[1]]); // result.clip[0], result.clip[1]
        r
    };
    // The interpreter agrees with the hand-worked values.
    for i in 0..3 {
        let names = [
            ("result.position", 4),
            ("result.color", 4),
            ("result.texcoord[2]", 4),
            ("result.pointsize", 1),
            ("result.clip[0]", 1),
            ("result.clip[1]", 1),
        ];
        let attribs = [("vertex.attrib[0]", p(i)), ("vertex.attrib[1]", c(i))];
        assert_eq!(
            interpreted(src, &attribs, &names),
            expected(i),
            "interpreter, vertex {i}"
        );
    }
    let offsets = [
        ("result.position", 0),
        ("result.color", 16),
        ("result.texcoord[2]", 32),
        ("result.pointsize", 48),
        ("result.clip[0] result.clip[1]", 52),
    ];
    let vertices = (0..3)
        .map(|i| vec![Input::float(0, p(i)), Input::float(1, c(i))])
        .collect();
    let Some(records) = captured_records(src, &Default::default(), &offsets, 60, vertices) else {
        return;
    };
    for (i, r) in records.iter().enumerate() {
        assert_eq!(*r, expected(i), "vertex {i}");
    }
}

/// The same for an `!!ARBvp1.0` program: `result.position` at 0,
/// `result.color.secondary` (Location 1) at 16, `result.texcoord[3]`
/// (Location 8) at 32: 48 bytes. MAD (ARB_vertex_program 2.14.5.15):
/// c · 2 + p; the colour is captured clamped.
#[test]
fn an_arb_vertex_program_captures_its_record_with_options_transform_feedback() {
    let src = "!!ARBvp1.0
ATTRIB p = vertex.attrib[0];
ATTRIB c = vertex.attrib[1];
MOV result.position, p;
MOV result.color.secondary, c;
MAD result.texcoord[3], c, 2, p;
END
";
    // Vertex i: p = (i, -1, 0.5, 1), c = (1, i, 0.25, -i).
    let p = |i: usize| [i as f32, -1.0, 0.5, 1.0];
    let c = |i: usize| [1.0, i as f32, 0.25, -(i as f32)];
    let expected = |i: usize| -> Vec<f32> {
        let (p, c) = (p(i), c(i));
        let mut r = Vec::new();
        r.extend(p);
        // GL clamps an ARB vertex program's colours to [0, 1] after it
        // (section 2.13.6, CLAMP_VERTEX_COLOR; docs/semantics.md): c.y = 2
        // is 1, c.w = -1 and -2 are 0.
        r.extend(c.map(|x| x.clamp(0.0, 1.0)));
        r.extend([
            c[0] * 2.0 + p[0],
            c[1] * 2.0 + p[1],
            c[2] * 2.0 + p[2],
            c[3] * 2.0 + p[3],
        ]);
        r
    };
    for i in 0..3 {
        let names = [
            ("result.position", 4),
            ("result.color.secondary", 4),
            ("result.texcoord[3]", 4),
        ];
        let attribs = [("vertex.attrib[0]", p(i)), ("vertex.attrib[1]", c(i))];
        assert_eq!(
            interpreted(src, &attribs, &names),
            expected(i),
            "interpreter, vertex {i}"
        );
    }
    let offsets = [
        ("result.position", 0),
        ("result.color.secondary", 16),
        ("result.texcoord[3]", 32),
    ];
    let vertices = (0..3)
        .map(|i| vec![Input::float(0, p(i)), Input::float(1, c(i))])
        .collect();
    let Some(records) = captured_records(src, &Default::default(), &offsets, 48, vertices) else {
        return;
    };
    for (i, r) in records.iter().enumerate() {
        assert_eq!(*r, expected(i), "vertex {i}");
    }
}

/// The record holds what the module writes: with `Options::invert_y` the
/// position after the clip-space conversion (docs/interface.md, "Clip
/// space": y negated), so (1, 2, 3, 1) is captured as (1, -2, 3, 1).
#[test]
fn the_captured_position_is_the_converted_one() {
    let src = "!!NVvp4.0\nMOV result.position, vertex.attrib[0];\nEND\n";
    let mut options = nvp4c::Options::default();
    options.invert_y = true;
    let vertices = vec![vec![Input::float(0, [1.0, 2.0, 3.0, 1.0])]; 3];
    let Some(records) = captured_records(src, &options, &[("result.position", 0)], 16, vertices)
    else {
        return;
    };
    for r in &records {
        assert_eq!(*r, [1.0, -2.0, 3.0, 1.0]);
    }
}
