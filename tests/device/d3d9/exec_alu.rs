//! Arithmetic instructions in every version that has them, with values a
//! person computed from the instruction's page (asm-vs-instructions.md,
//! asm-ps-instructions.md). ps_1_x reads constants clamped to [-1, 1]
//! ("ps_1_x Registers", Range), so their cases keep constants in range.

use super::{alu, case, run_cases, Bind, Case};

const VS: &[&str] = &["vs_1_1", "vs_2_0", "vs_2_x", "vs_3_0"];
const VS2: &[&str] = &["vs_2_0", "vs_2_x", "vs_3_0"];
const PS1: &[&str] = &["ps_1_1", "ps_1_2", "ps_1_3", "ps_1_4"];
const PS2: &[&str] = &["ps_2_0", "ps_2_x", "ps_3_0"];

fn all() -> Vec<&'static str> {
    [VS, PS1, PS2].concat()
}

fn vs_ps2() -> Vec<&'static str> {
    [VS, PS2].concat()
}

fn vs2_ps2() -> Vec<&'static str> {
    [VS2, PS2].concat()
}

const INF: f32 = f32::INFINITY;

/// mov, add, sub, mul, mad, nop, dp3, dp4, lrp, cmp: the instructions
/// ps_1_x has too.
pub fn common_cases() -> Vec<Case> {
    let c = Bind::default()
        .c(0, [0.25, -0.5, 0.5, 1.0])
        .c(1, [0.5, 0.25, -0.25, -0.5])
        .c(2, [0.5, 0.5, 0.5, 0.5]);
    let mut v = Vec::new();
    // "mov dst, src": dest = src.
    v.extend(alu(
        "mov",
        &all(),
        "mov r0, c0",
        c.clone(),
        [0.25, -0.5, 0.5, 1.0],
    ));
    // add: (0.25+0.5, -0.5+0.25, 0.5-0.25, 1-0.5)
    v.extend(alu(
        "add",
        &all(),
        "add r0, c0, c1",
        c.clone(),
        [0.75, -0.25, 0.25, 0.5],
    ));
    // sub: src0 - src1
    v.extend(alu(
        "sub",
        &all(),
        "sub r0, c0, c1",
        c.clone(),
        [-0.25, -0.75, 0.75, 1.5],
    ));
    // mul: (0.125, -0.125, -0.125, -0.5)
    v.extend(alu(
        "mul",
        &all(),
        "mul r0, c0, c1",
        c.clone(),
        [0.125, -0.125, -0.125, -0.5],
    ));
    // mad: src0 * src1 + src2 = mul + 0.5
    v.extend(alu(
        "mad",
        &all(),
        "mad r0, c0, c1, c2",
        c.clone(),
        [0.625, 0.375, 0.375, 0.0],
    ));
    // nop does nothing.
    v.extend(alu(
        "nop",
        &all(),
        "nop\nmov r0, c0",
        c.clone(),
        [0.25, -0.5, 0.5, 1.0],
    ));
    // dp3: 0.25*0.5 + -0.5*0.25 + 0.5*-0.25 = -0.125, replicated
    v.extend(alu("dp3", &all(), "dp3 r0, c0, c1", c.clone(), [-0.125; 4]));
    // dp4: dp3 + 1*-0.5 = -0.625
    let dp4_versions: Vec<&str> = [VS, &["ps_1_2", "ps_1_3", "ps_1_4"], PS2].concat();
    v.extend(alu(
        "dp4",
        &dp4_versions,
        "dp4 r0, c0, c1",
        c.clone(),
        [-0.625; 4],
    ));
    // lrp: src0 * (src1 - src2) + src2, src0 = c2 = 0.5: (0.5, -0.125, 0.125, 0.25)
    let lrp_versions: Vec<&str> = [VS2, PS1, PS2].concat();
    v.extend(alu(
        "lrp",
        &lrp_versions,
        "lrp r0, c2, c0, c1",
        c.clone(),
        [0.375, -0.125, 0.125, 0.25],
    ));
    // cmp: src0 >= 0 ? src1 : src2, per component; -0 >= 0.
    let cmp = Bind::default()
        .c(0, [-0.5, 0.0, 0.5, -0.0])
        .c(1, [0.25, 0.25, 0.25, 0.25])
        .c(2, [-1.0, -1.0, -1.0, -1.0]);
    let cmp_versions: Vec<&str> = [&["ps_1_2", "ps_1_3", "ps_1_4"][..], PS2].concat();
    v.extend(alu(
        "cmp",
        &cmp_versions,
        "cmp r0, c0, c1, c2",
        cmp,
        [-1.0, 0.25, 0.25, 0.25],
    ));
    v
}

/// The instructions of vertex shaders and shader model 2 pixel shaders.
pub fn vs_ps2_cases() -> Vec<Case> {
    let mut v = Vec::new();
    let scalar = Bind::default().c(0, [0.0, -4.0, 1.0, 3.0]);
    // rcp: 1/src; exactly 1.0 for 1.0; infinity for 0.0 ("rcp - vs").
    v.extend(alu(
        "rcp",
        &vs_ps2(),
        "rcp r0.x, c0.y\nrcp r0.y, c0.z\nrcp r0.z, c0.x\nmov r0.w, c0.z",
        scalar.clone(),
        [-0.25, 1.0, INF, 1.0],
    ));
    // rsq: 1/sqrt(|src|): |-4| -> 0.5; 1 -> 1; 0 -> infinity.
    v.extend(alu(
        "rsq",
        &vs_ps2(),
        "rsq r0.x, c0.y\nrsq r0.y, c0.z\nrsq r0.z, c0.x\nmov r0.w, c0.z",
        scalar.clone(),
        [0.5, 1.0, INF, 1.0],
    ));
    // exp: 2^3 = 8; log: log2(|-4|) = 2, log 0 = -FLT_MAX ("log - vs").
    v.extend(alu(
        "exp",
        &vs_ps2(),
        "exp r0.x, c0.w\nexp r0.y, c0.x\nmov r0.zw, c0.z",
        scalar.clone(),
        [8.0, 1.0, 1.0, 1.0],
    ));
    v.extend(alu(
        "log",
        &vs_ps2(),
        "log r0.x, c0.y\nlog r0.y, c0.x\nlog r0.z, c0.z\nmov r0.w, c0.z",
        scalar.clone(),
        [2.0, -f32::MAX, 0.0, 1.0],
    ));
    let mm = Bind::default()
        .c(0, [0.5, -1.0, 0.25, 1.0])
        .c(1, [0.25, 0.0, 0.5, -1.0]);
    // min/max: per component.
    v.extend(alu(
        "min",
        &vs_ps2(),
        "min r0, c0, c1",
        mm.clone(),
        [0.25, -1.0, 0.25, -1.0],
    ));
    v.extend(alu(
        "max",
        &vs_ps2(),
        "max r0, c0, c1",
        mm.clone(),
        [0.5, 0.0, 0.5, 1.0],
    ));
    // frc: src - floor(src): (1.25, -0.25, 3.5, -2) -> (0.25, 0.75, 0.5, 0)
    let frc = Bind::default()
        .c(0, [1.25, -0.25, 3.5, -2.0])
        .c(1, [9.0, 9.0, 9.0, 9.0]);
    let frc_versions: Vec<&str> = [&VS[1..], PS2].concat();
    v.extend(alu(
        "frc",
        &frc_versions,
        "frc r0, c0",
        frc.clone(),
        [0.25, 0.75, 0.5, 0.0],
    ));
    // vs_1_1 frc writes .y or .xy only.
    v.extend(alu(
        "frc",
        &["vs_1_1"],
        "frc r0.xy, c0\nmov r0.zw, c1",
        frc,
        [0.25, 0.75, 9.0, 9.0],
    ));
    // Matrices: src0 = (1, 2, 3, 4) times rows c0-c3.
    let m = Bind::default()
        .c(0, [1.0, 0.0, 0.0, 0.0])
        .c(1, [0.0, 1.0, 1.0, 0.0])
        .c(2, [1.0, 1.0, 1.0, 1.0])
        .c(3, [0.0, 0.0, 0.0, 2.0])
        .c(4, [1.0, 2.0, 3.0, 4.0])
        .c(5, [7.0, 7.0, 7.0, 7.0]);
    // dp4 rows: 1, 5, 10, 8; dp3 rows: 1, 5, 6, 0
    v.extend(alu(
        "m4x4",
        &vs_ps2(),
        "m4x4 r0, c4, c0",
        m.clone(),
        [1.0, 5.0, 10.0, 8.0],
    ));
    v.extend(alu(
        "m4x3",
        &vs_ps2(),
        "mov r0, c5\nm4x3 r0.xyz, c4, c0",
        m.clone(),
        [1.0, 5.0, 10.0, 7.0],
    ));
    v.extend(alu(
        "m3x4",
        &vs_ps2(),
        "m3x4 r0, c4, c0",
        m.clone(),
        [1.0, 5.0, 6.0, 0.0],
    ));
    v.extend(alu(
        "m3x3",
        &vs_ps2(),
        "mov r0, c5\nm3x3 r0.xyz, c4, c0",
        m.clone(),
        [1.0, 5.0, 6.0, 7.0],
    ));
    v.extend(alu(
        "m3x2",
        &vs_ps2(),
        "mov r0, c5\nm3x2 r0.xy, c4, c0",
        m,
        [1.0, 5.0, 7.0, 7.0],
    ));
    // pow: |src0| ^ src1: |-2|^3 = 8.
    let p = Bind::default().c(0, [-2.0, 3.0, 0.5, 1.0]);
    v.extend(alu(
        "pow",
        &vs2_ps2(),
        "pow r0.x, c0.x, c0.y\npow r0.y, c0.z, c0.x\nmov r0.zw, c0.w",
        p,
        [8.0, 4.0, 1.0, 1.0],
    ));
    // crs: (1, 0, 0) x (0, 1, 0) = (0, 0, 1).
    let x = Bind::default()
        .c(0, [1.0, 0.0, 0.0, 5.0])
        .c(1, [0.0, 1.0, 0.0, 6.0])
        .c(2, [0.0, 0.0, 0.0, 9.0]);
    v.extend(alu(
        "crs",
        &vs2_ps2(),
        "mov r0, c2\ncrs r0.xyz, c0, c1",
        x,
        [0.0, 0.0, 1.0, 9.0],
    ));
    // abs.
    let a = Bind::default().c(0, [-1.0, 2.0, -3.0, -0.0]);
    v.extend(alu(
        "abs",
        &vs2_ps2(),
        "abs r0, c0",
        a,
        [1.0, 2.0, 3.0, 0.0],
    ));
    // nrm: (3, 0, 4, 2) / 5 with w scaled too; a zero vector gives 0
    // (f = FLT_MAX, "nrm - vs").
    let n = Bind::default()
        .c(0, [3.0, 0.0, 4.0, 2.0])
        .c(1, [0.0, 0.0, 0.0, 1.0]);
    v.extend(alu(
        "nrm",
        &vs2_ps2(),
        "nrm r0, c0",
        n.clone(),
        [0.6, 0.0, 0.8, 0.4],
    ));
    v.extend(alu(
        "nrm of a zero vector",
        &vs2_ps2(),
        "nrm r0, c1",
        n,
        [0.0, 0.0, 0.0, f32::MAX],
    ));
    // sincos: x = cos, y = sin of a replicated angle; other components
    // untouched. The shader model 2 form names two constant registers.
    let sc = Bind::default()
        .c(0, [std::f32::consts::FRAC_PI_2, 0.0, 0.0, 0.0])
        .c(
            1,
            [
                -1.550_099_2e-6,
                -2.170_139e-5,
                0.002_604_166_7,
                0.000_260_416_68,
            ],
        )
        .c(2, [-0.020_833_334, -0.125, 1.0, 0.5])
        .c(3, [5.0, 6.0, 7.0, 8.0]);
    let sm2 = ["vs_2_0", "vs_2_x", "ps_2_0", "ps_2_x"];
    v.extend(alu(
        "sincos",
        &sm2,
        "mov r0, c3\nsincos r0.xy, c0.x, c1, c2",
        sc.clone(),
        [0.0, 1.0, 7.0, 8.0],
    ));
    v.extend(alu(
        "sincos",
        &sm2,
        "mov r0, c3\nsincos r0.x, c0.y, c1, c2",
        sc.clone(),
        [1.0, 6.0, 7.0, 8.0],
    ));
    v.extend(alu(
        "sincos",
        &["vs_3_0", "ps_3_0"],
        "mov r0, c3\nsincos r0.xy, c0.x",
        sc.clone(),
        [0.0, 1.0, 7.0, 8.0],
    ));
    v.extend(alu(
        "sincos",
        &["vs_3_0", "ps_3_0"],
        "mov r0, c3\nsincos r0.y, c0.x",
        sc,
        [5.0, 1.0, 7.0, 8.0],
    ));
    v
}

/// Vertex-shader-only arithmetic: slt, sge, lit, dst, expp, logp, sgn.
pub fn vs_cases() -> Vec<Case> {
    let mut v = Vec::new();
    let c = Bind::default()
        .c(0, [0.5, -1.0, 0.25, 1.0])
        .c(1, [0.25, 0.0, 0.5, 1.0]);
    // slt: src0 < src1 ? 1 : 0; sge: src0 >= src1 ? 1 : 0.
    v.extend(alu(
        "slt",
        VS,
        "slt r0, c0, c1",
        c.clone(),
        [0.0, 1.0, 1.0, 0.0],
    ));
    v.extend(alu("sge", VS, "sge r0, c0, c1", c, [1.0, 0.0, 0.0, 1.0]));
    // lit (N.L, N.H, -, power): (1, N.L, N.H^power, 1) when both are
    // positive; N.L <= 0 gives (1, 0, 0, 1); N.H <= 0 gives z = 0.
    let l = Bind::default()
        .c(0, [0.5, 0.25, 0.0, 2.0])
        .c(1, [-0.5, 0.25, 0.0, 2.0])
        .c(2, [0.5, -0.25, 0.0, 2.0])
        .c(3, [0.5, 0.5, 0.0, 300.0]);
    v.extend(alu(
        "lit",
        VS,
        "lit r0, c0",
        l.clone(),
        [1.0, 0.5, 0.0625, 1.0],
    ));
    v.extend(alu(
        "lit with N.L <= 0",
        VS,
        "lit r0, c1",
        l.clone(),
        [1.0, 0.0, 0.0, 1.0],
    ));
    v.extend(alu(
        "lit with N.H <= 0",
        VS,
        "lit r0, c2",
        l.clone(),
        [1.0, 0.5, 0.0, 1.0],
    ));
    // The power clamps to 127.9961: 0.5^127.9961.
    v.extend(alu(
        "lit clamps the power",
        VS,
        "lit r0, c3",
        l,
        [1.0, 0.5, 0.5f32.powf(127.9961), 1.0],
    ));
    // dst: (1, src0.y * src1.y, src0.z, src1.w).
    let d = Bind::default()
        .c(0, [9.0, 2.0, 3.0, 4.0])
        .c(1, [7.0, 0.5, 5.0, 0.25]);
    v.extend(alu("dst", VS, "dst r0, c0, c1", d, [1.0, 1.0, 3.0, 0.25]));
    // expp: vs_1_1 (2^floor(v), v - floor(v), 2^v, 1); later 2^v.
    let e = Bind::default().c(0, [2.5, 8.0, 0.0, 1.0]);
    v.extend(alu(
        "expp",
        &["vs_1_1"],
        "expp r0, c0.x",
        e.clone(),
        [4.0, 0.5, 2.5f32.exp2(), 1.0],
    ));
    v.extend(alu(
        "expp",
        VS2,
        "expp r0.x, c0.x\nmov r0.yzw, r0.x",
        e.clone(),
        [2.5f32.exp2(); 4],
    ));
    // logp: log2(|src|), -FLT_MAX at 0.
    v.extend(alu(
        "logp",
        VS,
        "logp r0.x, c0.y\nlogp r0.y, c0.z\nmov r0.zw, c0.w",
        e,
        [3.0, -f32::MAX, 1.0, 1.0],
    ));
    // sgn: -1, 0, 1 per component; shader model 2 names two scratch temps.
    let s = Bind::default().c(0, [-2.0, 0.0, 3.0, -0.5]);
    v.extend(alu(
        "sgn",
        &["vs_2_0", "vs_2_x"],
        "sgn r0, c0, r1, r2",
        s.clone(),
        [-1.0, 0.0, 1.0, -1.0],
    ));
    v.extend(alu(
        "sgn",
        &["vs_3_0"],
        "sgn r0, c0",
        s,
        [-1.0, 0.0, 1.0, -1.0],
    ));
    v
}

/// Pixel-shader-only arithmetic: cnd, dp2add, bem.
pub fn ps_cases() -> Vec<Case> {
    let mut v = Vec::new();
    // cnd: src0 > 0.5 ? src1 : src2; ps_1_1-1_3 on r0.a, ps_1_4 per
    // component.
    let c = Bind::default()
        .c(0, [0.25, 0.5, 0.75, 1.0])
        .c(1, [1.0, 1.0, 1.0, 1.0])
        .c(2, [-1.0, -1.0, -1.0, -1.0])
        .c(3, [0.0, 0.0, 0.0, 0.5]);
    v.extend(alu(
        "cnd on r0.a",
        &PS1[..3],
        "mov r0, c0\ncnd r0, r0.a, c1, c2",
        c.clone(),
        [1.0; 4],
    ));
    v.extend(alu(
        "cnd on r0.a = 0.5",
        &PS1[..3],
        "mov r0, c3\ncnd r0, r0.a, c1, c2",
        c.clone(),
        [-1.0; 4],
    ));
    v.extend(alu(
        "cnd per component",
        &["ps_1_4"],
        "cnd r0, c0, c1, c2",
        c,
        [-1.0, -1.0, 1.0, 1.0],
    ));
    // dp2add: src0.x*src1.x + src0.y*src1.y + src2.x.
    let d = Bind::default()
        .c(0, [1.0, 2.0, 9.0, 9.0])
        .c(1, [3.0, 4.0, 9.0, 9.0])
        .c(2, [0.5, 7.0, 7.0, 7.0]);
    v.extend(alu("dp2add", PS2, "dp2add r0, c0, c1, c2.x", d, [11.5; 4]));
    // bem (ps_1_4, stage = destination register 0): r = src0.r +
    // M00*src1.r + M10*src1.g, g = src0.g + M01*src1.r + M11*src1.g with
    // (M00, M01, M10, M11) = (1, 0.5, 0.25, 2) in state element 0.
    v.push(case(
        "bem (ps_1_4)",
        "ps_1_4\ndef c0, 0.5, 0.25, 0, 0\ndef c1, 0.5, 1, 0, 0\ndef c2, 0, 0, 0.75, 1\nbem r0.rg, c0, c1\nphase\nmov r0.ba, c2\n",
        &[],
        Bind::default().state(0, [1.0, 0.5, 0.25, 2.0]),
        &[("oC0", [1.25, 2.5, 0.75, 1.0])],
    ));
    v
}

#[test]
fn mov_add_sub_mul_mad_nop_dp3_dp4_lrp_cmp_in_every_version() {
    run_cases(&common_cases());
}

#[test]
fn vertex_and_shader_model_2_arithmetic_matches_the_instruction_pages() {
    run_cases(&vs_ps2_cases());
}

#[test]
fn vertex_only_arithmetic_matches_the_instruction_pages() {
    run_cases(&vs_cases());
}

#[test]
fn pixel_only_arithmetic_matches_the_instruction_pages() {
    run_cases(&ps_cases());
}
