//! Execution tests of the floating-point instructions of NV_gpu_program4 in
//! fragment programs, run on the Vulkan device (tests/device/harness/).
//!
//! Every expected value is computed by hand from the pseudocode of
//! NV_gpu_program4 section 2.X.8 (and NV_fragment_program4 for KIL); the
//! arithmetic is in the comment next to each literal. Inputs come from
//! `fragment.texcoord[0..2]` (Locations 5..7, named `A`, `B`, `C` below); one
//! case is one pixel. Results are compared bit-exactly unless stated.
//!
//! Special values follow issue (18) of NV_gpu_program4: "Arithmetic operations
//! are carried out at single-precision using normal IEEE floating-point rules,
//! including special rules for generating infinities, NaNs, and zeros of each
//! sign." Results the spec leaves undefined are not tested: LG2 of zero or a
//! negative value, RSQ of a value <= 0, the w component of XPD and NRM, and
//! SAT/SSAT of NaN (section 2.X.4.1 says "clamped to [0,1]" without defining
//! NaN).

use crate::harness;
use std::f32::consts::{FRAC_PI_2, FRAC_PI_3, FRAC_PI_6, PI};

use crate::harness::{fbits, FragmentJob, FragmentOutput, Input};

const Z: [f32; 4] = [0.0; 4];
const INF: f32 = f32::INFINITY;
const NAN: f32 = f32::NAN;

/// Tolerance of the spec's `Approx*` functions (RCP, RSQ, EX2, LG2, POW, NRM):
/// NV_gpu_program4 gives no bound; the GL's minimum floating-point precision
/// is "1 part in 10^5" (ARB_vertex_program issue (22)), so a result must be
/// within a relative 1e-5 of the exact value (absolute 1e-5 when it is 0).
const APPROX: Mode = Mode::Rel(1e-5);

/// SIN/COS results lie in [-1, 1]: the same "1 part in 10^5" as an absolute
/// bound. The inputs are rounded multiples of PI; their rounding error
/// (at most half an ulp, 2^-20 for |x| < 32) moves the result by less than
/// 1e-6.
const TRIG: Mode = Mode::Abs(1e-5);

/// How one component is compared.
#[derive(Clone, Copy, Debug)]
enum Mode {
    /// Same bits (so +0 and -0 differ); an expected NaN accepts any NaN.
    Bits,
    /// Same value (+0 == -0); an expected NaN accepts any NaN.
    Value,
    /// |got - want| <= r * |want| (<= r when want is 0); infinities exact.
    Rel(f64),
    /// |got - want| <= a; infinities exact.
    Abs(f64),
}

fn matches(got: f32, want: f32, mode: Mode) -> bool {
    if want.is_nan() {
        return got.is_nan();
    }
    if want.is_infinite() {
        return got == want;
    }
    let (g, w) = (got as f64, want as f64);
    match mode {
        Mode::Bits => got.to_bits() == want.to_bits(),
        Mode::Value => got == want,
        Mode::Rel(r) => (g - w).abs() <= if w == 0.0 { r } else { r * w.abs() },
        Mode::Abs(a) => (g - w).abs() <= a,
    }
}

/// Collects every mismatch of one run and reports them together.
struct Check<'a> {
    out: &'a FragmentOutput,
    fails: Vec<String>,
}

impl<'a> Check<'a> {
    fn new(out: &'a FragmentOutput) -> Check<'a> {
        Check {
            out,
            fails: Vec::new(),
        }
    }

    /// Compares the first `want.len()` components of `result.color[loc]` of `case`.
    fn at(&mut self, case: usize, loc: u32, want: &[f32], mode: Mode) {
        let got = self.out.color_f32(case, loc);
        if got.iter().zip(want).any(|(&g, &w)| !matches(g, w, mode)) {
            self.fails.push(format!(
                "case {case}, result.color[{loc}]: got {:?} (bits {:08x?}), want {want:?} ({mode:?})",
                &got[..want.len()],
                &got.map(f32::to_bits)[..want.len()],
            ));
        }
    }

    /// Component `i` of `result.color[loc]` of `case`.
    fn comp(&mut self, case: usize, loc: u32, i: usize, want: f32, mode: Mode) {
        let got = self.out.color_f32(case, loc)[i];
        if !matches(got, want, mode) {
            self.fails.push(format!(
                "case {case}, result.color[{loc}].{}: got {got:?} (bits {:08x}), want {want:?} ({mode:?})",
                ["x", "y", "z", "w"][i],
                got.to_bits()
            ));
        }
    }

    /// `result.color` of `case`, bit-exact.
    fn bits(&mut self, case: usize, want: [f32; 4]) {
        self.at(case, 0, &want, Mode::Bits);
    }

    fn killed(&mut self, case: usize, want: bool) {
        if self.out.killed(case) != want {
            self.fails.push(format!(
                "case {case}: killed = {}, want {want} (result.color = {:?})",
                self.out.killed(case),
                self.out.f32(case)
            ));
        }
    }

    fn done(self) {
        assert!(
            self.fails.is_empty(),
            "{} mismatch(es):\n  {}",
            self.fails.len(),
            self.fails.join("\n  ")
        );
    }
}

fn compile(src: &str) -> Vec<u32> {
    match nvp4c::compile(src, &nvp4c::Options::default()) {
        Ok(c) => c.spirv,
        Err(d) => panic!(
            "compile failed:\n{}\n--- program ---\n{src}",
            d.render("test.fp", src, false)
        ),
    }
}

/// A fragment program around `body`: A, B, C are texcoord[0..2], O is
/// result.color, R0..R2 are typeless temporaries. ARB_draw_buffers allows
/// the extra outputs `result.color[n]` (NV_fragment_program4).
fn program(body: &str) -> String {
    format!(
        "!!NVfp4.0\n\
         OPTION ARB_draw_buffers;\n\
         ATTRIB A = fragment.texcoord[0];\n\
         ATTRIB B = fragment.texcoord[1];\n\
         ATTRIB C = fragment.texcoord[2];\n\
         OUTPUT O = result.color;\n\
         TEMP R0, R1, R2;\n\
         {body}\n\
         END\n"
    )
}

/// Compiles `program(body)` and runs it with `cases[i] = [A, B, C]` and the
/// given `program.local` values. `None` when there is no device (skip).
fn run_local(body: &str, cases: &[[[f32; 4]; 3]], local: &[[f32; 4]]) -> Option<FragmentOutput> {
    let src = program(body);
    let spirv = compile(&src);
    let dev = harness::device_or_skip()?;
    let cases = cases
        .iter()
        .map(|c| (0..3).map(|i| Input::float(5 + i as u32, c[i])).collect())
        .collect();
    let job = FragmentJob {
        local: local.iter().map(|&v| fbits(v)).collect(),
        ..FragmentJob::new(cases)
    };
    Some(
        dev.run_fragment(&spirv, &job)
            .unwrap_or_else(|e| panic!("run failed: {e}\n--- program ---\n{src}")),
    )
}

fn run(body: &str, cases: &[[[f32; 4]; 3]]) -> Option<FragmentOutput> {
    run_local(body, cases, &[])
}

/// Runs a one-operand scalar instruction `OP O, A.x;` over `xs` (one case each)
/// and checks the replicated result against `want[i]`.
fn scalar_op(op: &str, xs: &[f32], want: &[(f32, Mode)]) {
    let cases: Vec<_> = xs.iter().map(|&x| [[x, 0.0, 0.0, 0.0], Z, Z]).collect();
    let Some(out) = run(&format!("{op} O, A.x;"), &cases) else {
        return;
    };
    let mut c = Check::new(&out);
    for (i, &(w, mode)) in want.iter().enumerate() {
        c.at(i, 0, &[w; 4], mode);
    }
    c.done();
}

// ---------------------------------------------------------------- MOV, ADD, SUB, MUL, MAD

#[test]
fn mov_copies_every_component_including_signed_zero_inf_and_nan() {
    // MOV: result = VectorLoad(op0).
    let a0 = [1.0, -2.5, 0.0, -0.0];
    let a1 = [INF, -INF, NAN, 1e-30];
    let Some(out) = run("MOV O, A;", &[[a0, Z, Z], [a1, Z, Z]]) else {
        return;
    };
    let mut c = Check::new(&out);
    c.bits(0, [1.0, -2.5, 0.0, -0.0]);
    c.bits(1, [INF, -INF, NAN, 1e-30]);
    c.done();
}

#[test]
fn add_is_ieee_single_precision_addition() {
    let Some(out) = run(
        "ADD O, A, B;",
        &[
            [[1.5, -2.0, 0.0, -0.0], [2.25, 0.5, -0.0, -0.0], Z],
            [[INF, INF, 3e38, NAN], [1.0, -INF, 3e38, 1.0], Z],
            [
                [16777216.0, 16777216.0, 1.0, -1.0],
                [1.0, 3.0, -1.0, 0.5],
                Z,
            ],
        ],
    ) else {
        return;
    };
    let mut c = Check::new(&out);
    // 1.5+2.25 = 3.75; -2+0.5 = -1.5; 0 + -0 = +0 (round to nearest); -0 + -0 = -0
    c.bits(0, [3.75, -1.5, 0.0, -0.0]);
    // INF+1 = INF; INF + -INF = NaN; 3e38+3e38 = 6e38 > FLT_MAX -> +INF (2.X.4.3); NaN+1 = NaN
    c.bits(1, [INF, NAN, INF, NAN]);
    // 2^24+1 is a tie between 2^24 and 2^24+2 -> even 2^24; 2^24+3 -> tie -> 2^24+4;
    // 1 + -1 = +0; -1 + 0.5 = -0.5
    c.bits(2, [16777216.0, 16777220.0, 0.0, -0.5]);
    c.done();
}

#[test]
fn sub_subtracts_second_operand_from_first() {
    let Some(out) = run(
        "SUB O, A, B;",
        &[
            [[5.0, 1.0, 0.0, -0.0], [3.0, 4.0, 0.0, 0.0], Z],
            [[INF, INF, -INF, NAN], [INF, -INF, 1.0, 0.0], Z],
        ],
    ) else {
        return;
    };
    let mut c = Check::new(&out);
    // 5-3 = 2; 1-4 = -3; 0-0 = +0; -0 - +0 = -0
    c.bits(0, [2.0, -3.0, 0.0, -0.0]);
    // INF-INF = NaN; INF - -INF = INF; -INF - 1 = -INF; NaN - 0 = NaN
    c.bits(1, [NAN, INF, -INF, NAN]);
    c.done();
}

#[test]
fn mul_multiplies_componentwise_with_ieee_signs_and_overflow() {
    let Some(out) = run(
        "MUL O, A, B;",
        &[
            [[1.5, -3.0, -0.0, 0.0], [2.0, 4.0, 5.0, INF], Z],
            [[1e30, -1e30, -0.0, 2.0], [1e30, 1e30, -3.0, -0.25], Z],
        ],
    ) else {
        return;
    };
    let mut c = Check::new(&out);
    // 1.5*2 = 3; -3*4 = -12; -0*5 = -0; 0*INF = NaN
    c.bits(0, [3.0, -12.0, -0.0, NAN]);
    // 1e60 overflows -> INF; -1e60 -> -INF; -0*-3 = +0; 2*-0.25 = -0.5
    c.bits(1, [INF, -INF, 0.0, -0.5]);
    c.done();
}

#[test]
fn mad_multiplies_then_adds_third_operand() {
    let Some(out) = run(
        "MAD O, A, B, C;",
        &[
            [
                [2.0, -1.0, 0.5, 3.0],
                [3.0, 4.0, 0.5, 0.25],
                [1.0, 0.5, -0.25, -0.75],
            ],
            [
                [INF, 0.0, 1e30, NAN],
                [1.0, INF, 1e30, 1.0],
                [1.0, 1.0, 0.0, 1.0],
            ],
        ],
    ) else {
        return;
    };
    let mut c = Check::new(&out);
    // 2*3+1 = 7; -1*4+0.5 = -3.5; 0.5*0.5-0.25 = +0; 3*0.25-0.75 = +0
    c.bits(0, [7.0, -3.5, 0.0, 0.0]);
    // INF*1+1 = INF; 0*INF+1 = NaN; 1e60 -> INF, +0 = INF; NaN
    c.bits(1, [INF, NAN, INF, NAN]);
    c.done();
}

// ---------------------------------------------------------------- dot products

#[test]
fn dp2_uses_only_x_and_y_and_replicates() {
    let Some(out) = run(
        "DP2 O, A, B;",
        &[
            [[1.0, 2.0, NAN, NAN], [3.0, 4.0, NAN, INF], Z],
            [[-1.5, 0.5, 9.0, 9.0], [2.0, 4.0, 9.0, 9.0], Z],
        ],
    ) else {
        return;
    };
    let mut c = Check::new(&out);
    c.bits(0, [11.0; 4]); // 1*3 + 2*4 = 11 (z, w are not read)
    c.bits(1, [-1.0; 4]); // -1.5*2 + 0.5*4 = -3 + 2 = -1
    c.done();
}

#[test]
fn dp2a_adds_x_of_third_operand() {
    let Some(out) = run(
        "DP2A O, A, B, C;",
        &[
            [
                [1.0, 2.0, NAN, NAN],
                [3.0, 4.0, NAN, NAN],
                [0.5, NAN, NAN, NAN],
            ],
            [
                [-2.0, 0.25, 0.0, 0.0],
                [3.0, 8.0, 0.0, 0.0],
                [-1.0, 7.0, 7.0, 7.0],
            ],
        ],
    ) else {
        return;
    };
    let mut c = Check::new(&out);
    c.bits(0, [11.5; 4]); // 1*3 + 2*4 + 0.5 = 11.5
    c.bits(1, [-5.0; 4]); // -2*3 + 0.25*8 + -1 = -6 + 2 - 1 = -5
    c.done();
}

#[test]
fn dp3_ignores_w() {
    let Some(out) = run(
        "DP3 O, A, B;",
        &[
            [[1.0, 2.0, 3.0, NAN], [4.0, 5.0, 6.0, NAN], Z],
            [[1.0, -1.0, 0.5, 7.0], [2.0, 3.0, -4.0, 100.0], Z],
        ],
    ) else {
        return;
    };
    let mut c = Check::new(&out);
    c.bits(0, [32.0; 4]); // 1*4 + 2*5 + 3*6 = 32
    c.bits(1, [-3.0; 4]); // 1*2 - 1*3 + 0.5*-4 = 2 - 3 - 2 = -3
    c.done();
}

#[test]
fn dp4_sums_all_four_products() {
    let Some(out) = run(
        "DP4 O, A, B;",
        &[
            [[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], Z],
            [[0.5, -1.0, 2.0, -0.25], [4.0, 2.0, 0.5, 8.0], Z],
        ],
    ) else {
        return;
    };
    let mut c = Check::new(&out);
    c.bits(0, [70.0; 4]); // 5 + 12 + 21 + 32 = 70
    c.bits(1, [-1.0; 4]); // 2 - 2 + 1 - 2 = -1
    c.done();
}

#[test]
fn dph_adds_w_of_second_operand_and_ignores_w_of_first() {
    let Some(out) = run(
        "DPH O, A, B;",
        &[
            [[1.0, 2.0, 3.0, NAN], [4.0, 5.0, 6.0, 0.5], Z],
            [[1.0, 1.0, 1.0, 1000.0], [1.0, 2.0, 3.0, -6.0], Z],
        ],
    ) else {
        return;
    };
    let mut c = Check::new(&out);
    c.bits(0, [32.5; 4]); // 4 + 10 + 18 + 0.5 = 32.5
    c.bits(1, [0.0; 4]); // 1 + 2 + 3 + -6 = +0
    c.done();
}

// ---------------------------------------------------------------- MIN, MAX, ABS

#[test]
fn min_and_max_pick_the_smaller_and_larger_component() {
    let Some(out) = run(
        "MIN O, A, B;\nMAX result.color[1], A, B;",
        &[[[1.0, -2.0, 3.5, -INF], [2.0, -3.0, 3.5, 5.0], Z]],
    ) else {
        return;
    };
    let mut c = Check::new(&out);
    c.at(0, 0, &[1.0, -3.0, 3.5, -INF], Mode::Bits); // MIN
    c.at(0, 1, &[2.0, -2.0, 3.5, 5.0], Mode::Bits); // MAX
    c.done();
}

#[test]
fn min_and_max_with_nan_and_signed_zero_follow_the_pseudocode_operand_order() {
    // MAX: (a > b) ? a : b;  MIN: (a > b) ? b : a. A comparison with NaN is false,
    // and -0 > +0 is false, so the pseudocode picks a definite operand.
    let Some(out) = run(
        "MIN O, A, B;\nMAX result.color[1], A, B;",
        &[[[NAN, 1.0, -0.0, 0.0], [1.0, NAN, 0.0, -0.0], Z]],
    ) else {
        return;
    };
    let mut c = Check::new(&out);
    // MIN: NaN>1 false -> a = NaN; 1>NaN false -> a = 1; -0>0 false -> a = -0; 0>-0 false -> a = +0
    c.at(0, 0, &[NAN, 1.0, -0.0, 0.0], Mode::Bits);
    // MAX: NaN>1 false -> b = 1; 1>NaN false -> b = NaN; -0>0 false -> b = +0; 0>-0 false -> b = -0
    c.at(0, 1, &[1.0, NAN, 0.0, -0.0], Mode::Bits);
    c.done();
}

#[test]
fn abs_clears_the_sign() {
    let Some(out) = run(
        "ABS O, A;",
        &[
            [[-1.5, 2.0, -0.0, -INF], Z, Z],
            [[NAN, 0.0, -3e38, -1e-30], Z, Z],
        ],
    ) else {
        return;
    };
    let mut c = Check::new(&out);
    c.bits(0, [1.5, 2.0, 0.0, INF]); // abs(-0) = +0
    c.bits(1, [NAN, 0.0, 3e38, 1e-30]);
    c.done();
}

// ---------------------------------------------------------------- FLR, FRC, CEIL, TRUNC, ROUND

#[test]
fn flr_gives_the_spec_examples() {
    let Some(out) = run(
        "FLR O, A;",
        &[
            [[-1.7, 1.0, 3.7, -0.5], Z, Z],
            [[2.5, -3.0, 1e10, 0.25], Z, Z],
        ],
    ) else {
        return;
    };
    let mut c = Check::new(&out);
    // spec: floor(-1.7) = -2, floor(+1.0) = +1, floor(+3.7) = +3; floor(-0.5) = -1
    c.bits(0, [-2.0, 1.0, 3.0, -1.0]);
    // floor(2.5) = 2; -3 is an integer; 1e10 = 9765625 * 2^10 is an integer; floor(0.25) = +0
    c.bits(1, [2.0, -3.0, 1e10, 0.0]);
    c.done();
}

#[test]
fn frc_of_negative_gives_spec_example() {
    let Some(out) = run(
        "FRC O, A;",
        &[
            [[-1.7, 1.25, -0.25, 3.0], Z, Z],
            [[5.5, -5.5, 100.125, -0.5], Z, Z],
        ],
    ) else {
        return;
    };
    let mut c = Check::new(&out);
    // spec: fraction(-1.7) = -1.7 - floor(-1.7) = -1.7 + 2 = 0.3. The f32 input is
    // -1.70000004768371582 (0xBFD9999A); + 2 is exact: 0.29999995231628418 (0x3E999998).
    // 1.25 - 1 = 0.25; -0.25 - (-1) = 0.75; 3 - 3 = +0
    c.bits(0, [0.299_999_95, 0.25, 0.75, 0.0]);
    // 5.5 - 5 = 0.5; -5.5 + 6 = 0.5; 100.125 - 100 = 0.125; -0.5 + 1 = 0.5
    c.bits(1, [0.5, 0.5, 0.125, 0.5]);
    c.done();
}

#[test]
fn ceil_gives_the_spec_examples() {
    let Some(out) = run(
        "CEIL O, A;",
        &[
            [[-1.7, 1.0, 3.7, 0.25], Z, Z],
            [[-3.0, 2.5, -2.5, 7.999], Z, Z],
        ],
    ) else {
        return;
    };
    let mut c = Check::new(&out);
    // spec: ceil(-1.7) = -1, ceil(+1.0) = +1, ceil(+3.7) = +4; ceil(0.25) = 1
    c.bits(0, [-1.0, 1.0, 4.0, 1.0]);
    // -3; ceil(2.5) = 3; ceil(-2.5) = -2; ceil(7.999) = 8
    c.bits(1, [-3.0, 3.0, -2.0, 8.0]);
    c.done();
}

#[test]
fn trunc_rounds_toward_zero() {
    let Some(out) = run(
        "TRUNC O, A;",
        &[
            [[-1.7, 1.0, 3.7, -2.5], Z, Z],
            [[0.75, 9.99, -9.99, 100.5], Z, Z],
        ],
    ) else {
        return;
    };
    let mut c = Check::new(&out);
    // spec: trunc(-1.7) = -1, trunc(+1.0) = +1, trunc(+3.7) = +3; trunc(-2.5) = -2
    c.bits(0, [-1.0, 1.0, 3.0, -2.0]);
    // trunc(0.75) = +0; 9.99 -> 9; -9.99 -> -9; 100.5 -> 100
    c.bits(1, [0.0, 9.0, -9.0, 100.0]);
    c.done();
}

#[test]
fn round_breaks_ties_to_even() {
    let Some(out) = run(
        "ROUND O, A;",
        &[
            [[-1.7, 1.0, 3.7, 0.25], Z, Z],
            [[0.5, 1.5, 2.5, -2.5], Z, Z],
            [[3.5, -3.5, 4.5, 1.25], Z, Z],
        ],
    ) else {
        return;
    };
    let mut c = Check::new(&out);
    // spec: round(-1.7) = -2, round(+1.0) = +1, round(+3.7) = +4; round(0.25) = +0
    c.bits(0, [-2.0, 1.0, 4.0, 0.0]);
    // "If the fractional portion of the operand is 0.5, round() selects the nearest
    // even integer": 0.5 -> +0, 1.5 -> 2, 2.5 -> 2, -2.5 -> -2
    c.bits(1, [0.0, 2.0, 2.0, -2.0]);
    // 3.5 -> 4, -3.5 -> -4, 4.5 -> 4; 1.25 -> 1
    c.bits(2, [4.0, -4.0, 4.0, 1.0]);
    c.done();
}

// ---------------------------------------------------------------- RCP, RSQ, EX2, LG2, POW

#[test]
fn rcp_approximates_the_reciprocal() {
    scalar_op(
        "RCP",
        &[2.0, -4.0, 3.0, 0.125, 1.0],
        &[
            (0.5, APPROX),          // 1/2
            (-0.25, APPROX),        // 1/-4
            (0.333_333_34, APPROX), // 1/3
            (8.0, APPROX),          // 1/0.125
            // ARB_vertex_program's reciprocation rule: ApproxReciprocal(+1.0) = +1.0 exactly
            (1.0, Mode::Bits),
        ],
    );
}

#[test]
fn rcp_of_zero_is_infinity_and_of_infinity_is_zero() {
    // IEEE rules (issue 18): 1/+0 = +INF, 1/-0 = -INF, 1/+INF = +0, 1/-INF = -0.
    scalar_op(
        "RCP",
        &[0.0, -0.0, INF, -INF],
        &[
            (INF, Mode::Bits),
            (-INF, Mode::Bits),
            (0.0, Mode::Bits),
            (-0.0, Mode::Bits),
        ],
    );
}

#[test]
fn rsq_of_positive_values_and_of_abs_of_negative_values() {
    // RSQ does not take |x| itself (spec: "it does not implicitly take the absolute
    // value of its operand"); RSQ of x <= 0 is undefined, so negative inputs are
    // only read through |abs|.
    let xs = [4.0, 16.0, 0.25, 2.0, INF];
    let cases: Vec<_> = xs.iter().map(|&x| [[x, -x, 0.0, 0.0], Z, Z]).collect();
    let Some(out) = run("RSQ O, A.x;\nRSQ result.color[1], |A.y|;", &cases) else {
        return;
    };
    let mut c = Check::new(&out);
    // 1/sqrt(4) = 0.5; 1/sqrt(16) = 0.25; 1/sqrt(0.25) = 2; 1/sqrt(2) = 0.70710677;
    // 1/sqrt(+INF) = +0
    let want = [0.5, 0.25, 2.0, std::f32::consts::FRAC_1_SQRT_2, 0.0];
    for (i, &w) in want.iter().enumerate() {
        c.at(i, 0, &[w; 4], APPROX);
        c.at(i, 1, &[w; 4], APPROX); // |-x| = x
    }
    c.done();
}

#[test]
fn ex2_of_negative_infinity_is_zero() {
    scalar_op(
        "EX2",
        &[0.0, 3.0, -1.0, 0.5, 10.0, -0.0, -INF, INF],
        &[
            (1.0, APPROX),                      // 2^0
            (8.0, APPROX),                      // 2^3
            (0.5, APPROX),                      // 2^-1
            (std::f32::consts::SQRT_2, APPROX), // 2^0.5 = 1.41421356
            (1024.0, APPROX),                   // 2^10
            (1.0, APPROX),                      // 2^-0
            (0.0, Mode::Value),                 // 2^-INF = 0
            (INF, Mode::Bits),                  // 2^+INF = +INF
        ],
    );
}

#[test]
fn lg2_of_positive_values() {
    // LG2 of zero or a negative value is undefined (spec), so not tested.
    scalar_op(
        "LG2",
        &[1.0, 8.0, 0.25, 1024.0, 1.0 / 1048576.0, 10.0, INF],
        &[
            (0.0, APPROX),                       // log2(1) = 0 (within 1e-5)
            (3.0, APPROX),                       // log2(8)
            (-2.0, APPROX),                      // log2(1/4)
            (10.0, APPROX),                      // log2(1024)
            (-20.0, APPROX),                     // log2(2^-20)
            (std::f32::consts::LOG2_10, APPROX), // log2(10) = 3.32192809
            (INF, Mode::Bits),                   // log2(+INF) = +INF
        ],
    );
}

#[test]
fn pow_is_exp2_of_b_times_log2_a() {
    // ApproxPower(a, b) = ApproxExp2(b * ApproxLog2(a)); negative bases are not
    // tested (the spec warns they may not work), nor a = 0 (LG2(0) is undefined).
    let pairs = [
        (2.0, 10.0),
        (4.0, 0.5),
        (2.0, -2.0),
        (5.0, 0.0),
        (9.0, 0.5),
        (0.5, 3.0),
        (10.0, 2.0),
    ];
    let cases: Vec<_> = pairs
        .iter()
        .map(|&(a, b)| [[a, 0.0, 0.0, 0.0], [b, 0.0, 0.0, 0.0], Z])
        .collect();
    let Some(out) = run("POW O, A.x, B.x;", &cases) else {
        return;
    };
    let mut c = Check::new(&out);
    // 2^10 = 1024; 4^0.5 = 2; 2^-2 = 0.25; 5^0 = exp2(0) = 1; 9^0.5 = 3; 0.5^3 = 0.125;
    // 10^2 = 100
    for (i, w) in [1024.0, 2.0, 0.25, 1.0, 3.0, 0.125, 100.0]
        .into_iter()
        .enumerate()
    {
        c.at(i, 0, &[w; 4], APPROX);
    }
    c.done();
}

// ---------------------------------------------------------------- SIN, COS

#[test]
fn sin_reduces_any_angle() {
    scalar_op(
        "SIN",
        &[
            0.0,
            FRAC_PI_6,
            -FRAC_PI_2,
            2.0 * PI + FRAC_PI_2,
            PI,
            -7.0 * FRAC_PI_6,
        ],
        &[
            (0.0, TRIG),  // sin 0
            (0.5, TRIG),  // sin(pi/6)
            (-1.0, TRIG), // sin(-pi/2)
            (1.0, TRIG),  // sin(5pi/2) = sin(pi/2), outside [-pi, pi]
            (0.0, TRIG),  // sin(pi)
            (0.5, TRIG),  // sin(-7pi/6) = -sin(7pi/6) = 0.5, outside [-pi, pi]
        ],
    );
}

#[test]
fn cos_reduces_any_angle() {
    scalar_op(
        "COS",
        &[
            0.0,
            FRAC_PI_3,
            PI,
            -2.0 * PI,
            2.0 * FRAC_PI_3,
            10.0 * PI + FRAC_PI_3,
        ],
        &[
            (1.0, TRIG),  // cos 0
            (0.5, TRIG),  // cos(pi/3)
            (-1.0, TRIG), // cos(pi)
            (1.0, TRIG),  // cos(-2pi), outside [-pi, pi]
            (-0.5, TRIG), // cos(2pi/3)
            (0.5, TRIG),  // cos(10pi + pi/3) = cos(pi/3), far outside [-pi, pi]
        ],
    );
}

// ---------------------------------------------------------------- LRP, CMP

#[test]
fn lrp_blends_second_and_third_operand_by_first() {
    let Some(out) = run(
        "LRP O, A, B, C;",
        &[
            [
                [0.0, 1.0, 0.5, 0.25],
                [2.0, 2.0, 2.0, 8.0],
                [4.0, 4.0, 4.0, 0.0],
            ],
            [
                [2.0, -1.0, 0.5, 0.75],
                [1.0, 1.0, -2.0, 4.0],
                [0.0, 0.0, 2.0, 0.0],
            ],
        ],
    ) else {
        return;
    };
    let mut c = Check::new(&out);
    // a*b + (1-a)*c: 0*2+1*4 = 4; 1*2+0*4 = 2; 0.5*2+0.5*4 = 3; 0.25*8+0.75*0 = 2
    c.at(0, 0, &[4.0, 2.0, 3.0, 2.0], Mode::Value);
    // 2*1 + (-1)*0 = 2; -1*1 + 2*0 = -1; 0.5*-2 + 0.5*2 = 0; 0.75*4 + 0.25*0 = 3
    c.at(1, 0, &[2.0, -1.0, 0.0, 3.0], Mode::Value);
    c.done();
}

#[test]
fn cmp_selects_second_operand_only_where_first_is_negative() {
    let b = [10.0, 20.0, 30.0, 40.0];
    let cc = [1.0, 2.0, 3.0, 4.0];
    let Some(out) = run(
        "CMP O, A, B, C;",
        &[
            [[-1.0, 0.0, -0.0, NAN], b, cc],
            [[1.0, -INF, INF, -1e-30], b, cc],
        ],
    ) else {
        return;
    };
    let mut c = Check::new(&out);
    // (a < 0) ? b : c: -1<0 -> 10; 0<0 false -> 2; -0<0 false -> 3; NaN<0 false -> 4
    c.bits(0, [10.0, 2.0, 3.0, 4.0]);
    // 1 -> 1; -INF<0 -> 20; INF -> 3; -1e-30<0 -> 40
    c.bits(1, [1.0, 20.0, 3.0, 40.0]);
    c.done();
}

// ---------------------------------------------------------------- set-on instructions

/// Runs `OP O, A, B;` over two cases: A=[1,2,3,NaN] B=[2,2,2,1], and
/// A=[-0,0,NaN,-INF] B=[0,-0,NaN,-INF]. TRUE is 1.0, FALSE 0.0 for floats.
fn set_on(op: &str, want0: [f32; 4], want1: [f32; 4]) {
    let Some(out) = run(
        &format!("{op} O, A, B;"),
        &[
            [[1.0, 2.0, 3.0, NAN], [2.0, 2.0, 2.0, 1.0], Z],
            [[-0.0, 0.0, NAN, -INF], [0.0, -0.0, NAN, -INF], Z],
        ],
    ) else {
        return;
    };
    let mut c = Check::new(&out);
    c.bits(0, want0);
    c.bits(1, want1);
    c.done();
}

#[test]
fn slt_is_one_where_less_and_false_for_nan() {
    // 1<2, 2<2, 3<2, NaN<1 | -0<0, 0<-0, NaN<NaN, -INF<-INF
    set_on("SLT", [1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]);
}

#[test]
fn sge_is_one_where_greater_or_equal_and_false_for_nan() {
    // 1>=2, 2>=2, 3>=2, NaN>=1 | -0>=0, 0>=-0, NaN>=NaN, -INF>=-INF
    set_on("SGE", [0.0, 1.0, 1.0, 0.0], [1.0, 1.0, 0.0, 1.0]);
}

#[test]
fn seq_is_one_where_equal_and_zeros_of_both_signs_are_equal() {
    // 1==2, 2==2, 3==2, NaN==1 | -0==0, 0==-0, NaN==NaN, -INF==-INF
    set_on("SEQ", [0.0, 1.0, 0.0, 0.0], [1.0, 1.0, 0.0, 1.0]);
}

#[test]
fn sne_is_one_where_not_equal_including_nan() {
    // != is true when either side is NaN: 1!=2, 2!=2, 3!=2, NaN!=1 | -0!=0, 0!=-0,
    // NaN!=NaN, -INF!=-INF
    set_on("SNE", [1.0, 0.0, 1.0, 1.0], [0.0, 0.0, 1.0, 0.0]);
}

#[test]
fn sgt_is_one_where_greater() {
    // 1>2, 2>2, 3>2, NaN>1 | -0>0, 0>-0, NaN>NaN, -INF>-INF
    set_on("SGT", [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 0.0]);
}

#[test]
fn sle_is_one_where_less_or_equal() {
    // 1<=2, 2<=2, 3<=2, NaN<=1 | -0<=0, 0<=-0, NaN<=NaN, -INF<=-INF
    set_on("SLE", [1.0, 1.0, 0.0, 0.0], [1.0, 1.0, 0.0, 1.0]);
}

#[test]
fn sfl_is_all_false_and_str_all_true() {
    let Some(out) = run(
        "SFL O, A, B;\nSTR result.color[1], A, B;",
        &[[[NAN, 1.0, -1.0, 0.0], [0.0, NAN, 2.0, -0.0], Z]],
    ) else {
        return;
    };
    let mut c = Check::new(&out);
    c.at(0, 0, &[0.0; 4], Mode::Bits); // FALSE = 0.0
    c.at(0, 1, &[1.0; 4], Mode::Bits); // TRUE = 1.0
    c.done();
}

#[test]
fn ssg_of_zero_and_negative_zero_is_zero() {
    let Some(out) = run(
        "SSG O, A;",
        &[
            [[2.5, -0.5, INF, -INF], Z, Z],
            [[0.0, -0.0, 1e-30, -1e-30], Z, Z],
        ],
    ) else {
        return;
    };
    let mut c = Check::new(&out);
    // > 0 -> 1.0, < 0 -> -1.0, == 0 -> 0.0 (-0 == 0; the spec names no sign, so compare values)
    c.at(0, 0, &[1.0, -1.0, 1.0, -1.0], Mode::Bits);
    c.at(1, 0, &[0.0, 0.0, 1.0, -1.0], Mode::Value);
    c.done();
}

// ---------------------------------------------------------------- XPD, NRM, DIV, DST, LIT

#[test]
fn xpd_computes_cross_product_in_xyz() {
    let Some(out) = run(
        "XPD R0.xyz, A, B;\nMOV O, R0;",
        &[
            [[1.0, 0.0, 0.0, NAN], [0.0, 1.0, 0.0, NAN], Z],
            [[1.0, 2.0, 3.0, 0.0], [4.0, 5.0, 6.0, 0.0], Z],
        ],
    ) else {
        return;
    };
    let mut c = Check::new(&out);
    // x = a.y*b.z - a.z*b.y, y = a.z*b.x - a.x*b.z, z = a.x*b.y - a.y*b.x; w undefined
    c.at(0, 0, &[0.0, 0.0, 1.0], Mode::Value); // 0*0-0*1, 0*0-1*0, 1*1-0*0
    c.at(1, 0, &[-3.0, 6.0, -3.0], Mode::Value); // 2*6-3*5, 3*4-1*6, 1*5-2*4
    c.done();
}

#[test]
fn nrm_normalizes_xyz() {
    let Some(out) = run(
        "NRM R0.xyz, A;\nMOV O, R0;",
        &[
            [[3.0, 4.0, 0.0, NAN], Z, Z],
            [[0.0, 0.0, -2.0, 5.0], Z, Z],
            [[1.0, 2.0, 2.0, 0.0], Z, Z],
        ],
    ) else {
        return;
    };
    let mut c = Check::new(&out);
    // scale = RSQ(x*x + y*y + z*z); w undefined
    c.at(0, 0, &[0.6, 0.8, 0.0], APPROX); // 1/sqrt(9+16) = 1/5
    c.at(1, 0, &[0.0, 0.0, -1.0], APPROX); // 1/sqrt(4) = 1/2
    c.at(2, 0, &[1.0 / 3.0, 2.0 / 3.0, 2.0 / 3.0], APPROX); // 1/sqrt(1+4+4) = 1/3
    c.done();
}

#[test]
fn xpd_and_nrm_accept_a_full_write_mask_with_undefined_w() {
    // 2.X.8.Z XPD / NRM only say "The w component of the result [vector] is
    // undefined"; nothing makes a program that writes w fail to load. So these
    // compile, x, y, z are exact, and w may be anything.
    let Some(out) = run(
        "XPD O, A, B;\nNRM result.color[1], B;",
        &[[[1.0, 2.0, 3.0, 0.0], [0.0, 0.0, 4.0, 0.0], Z]],
    ) else {
        return;
    };
    let mut c = Check::new(&out);
    // [2*4 - 3*0, 3*0 - 1*4, 1*0 - 2*0] = [8, -4, 0]
    c.at(0, 0, &[8.0, -4.0, 0.0], Mode::Value);
    // [0, 0, 4] * RSQ(16) = [0, 0, 1]
    c.at(0, 1, &[0.0, 0.0, 1.0], APPROX);
    c.done();
}

#[test]
fn div_divides_each_component_by_the_scalar() {
    let Some(out) = run(
        "DIV O, A, B.x;",
        &[
            [[6.0, -3.0, 1.0, 0.0], [2.0, 0.0, 0.0, 0.0], Z],
            [[1.0, -1.0, 0.0, 7.0], [0.0, 9.0, 9.0, 9.0], Z],
            [[1.0, -1.0, 0.0, 1.0], [-0.0, 9.0, 9.0, 9.0], Z],
        ],
    ) else {
        return;
    };
    let mut c = Check::new(&out);
    c.bits(0, [3.0, -1.5, 0.5, 0.0]); // 6/2, -3/2, 1/2, 0/2 = +0
    c.bits(1, [INF, -INF, NAN, INF]); // 1/+0, -1/+0, 0/0, 7/+0
    c.bits(2, [-INF, INF, NAN, -INF]); // 1/-0, -1/-0, 0/-0, 1/-0
    c.done();
}

#[test]
fn dst_builds_the_distance_vector() {
    let Some(out) = run(
        "DST O, A, B;",
        &[
            [[NAN, 4.0, 4.0, NAN], [NAN, 0.5, NAN, 0.5], Z],
            [[7.0, 9.0, 16.0, 7.0], [7.0, 0.25, 7.0, 0.125], Z],
        ],
    ) else {
        return;
    };
    let mut c = Check::new(&out);
    // [1, a.y*b.y, a.z, b.w]: d = 2: [1, 4*0.5, 4, 0.5]
    c.bits(0, [1.0, 2.0, 4.0, 0.5]);
    // [1, 9*0.25, 16, 0.125]
    c.bits(1, [1.0, 2.25, 16.0, 0.125]);
    c.done();
}

#[test]
fn lit_clamps_dot_products_and_specular_power() {
    let Some(out) = run(
        "LIT O, A;",
        &[
            [[0.5, 0.5, NAN, 2.0], Z, Z],
            [[-1.0, 0.5, 0.0, 2.0], Z, Z],
            [[0.0, 0.5, 0.0, 2.0], Z, Z],
            [[1.0, 0.0, 0.0, 0.0], Z, Z],
            [[0.75, -0.5, 0.0, 0.0], Z, Z],
            [[2.0, 0.25, 0.0, 0.5], Z, Z],
            [[1.0, 2.0, 0.0, 200.0], Z, Z],
            [[1.0, 0.5, 0.0, -200.0], Z, Z],
        ],
    ) else {
        return;
    };
    let mut c = Check::new(&out);
    // result = [1, max(x,0), x > 0 ? RoughApproxPower(max(y,0), clamp(w)) : 0, 1].
    // RoughApproxPower = RoughApproxExp2(w * RoughApproxLog2(y)); ARB_vertex_program
    // bounds both rough functions by 2^-11, so for |w| <= 2 the result is within a
    // relative (2^(2 * 2^-11) - 1) + 2^-11 ~ 1.2e-3 < 2^-9.
    let rough = Mode::Rel(1.0 / 512.0);
    // 0.5^2 = 0.25
    c.at(0, 0, &[1.0, 0.5], Mode::Bits);
    c.comp(0, 0, 2, 0.25, rough);
    c.comp(0, 0, 3, 1.0, Mode::Bits);
    // x < 0 -> x = 0, and z = 0.0 because x is not > 0
    c.bits(1, [1.0, 0.0, 0.0, 1.0]);
    // x = 0 -> z = 0.0
    c.bits(2, [1.0, 0.0, 0.0, 1.0]);
    // 0^0 is defined to be 1: RoughApproxPower(0.0, 0.0) = 1.0
    c.bits(3, [1.0, 1.0, 1.0, 1.0]);
    // y = -0.5 is clamped to 0 first, so z = 0^0 = 1.0 (unclamped it would be
    // exp2(0 * log2(-0.5)) = NaN)
    c.bits(4, [1.0, 0.75, 1.0, 1.0]);
    // 0.25^0.5 = 0.5
    c.at(5, 0, &[1.0, 2.0], Mode::Bits);
    c.comp(5, 0, 2, 0.5, rough);
    c.comp(5, 0, 3, 1.0, Mode::Bits);
    // w = 200 is clamped to 128-epsilon (< 128), so 2^(128-epsilon) is finite and
    // at least 2^127 (even with the rough error 128 * 2^-11 = 1/16 in the exponent);
    // unclamped, 2^200 would be +INF.
    // w = -200 is clamped to -(128-epsilon): 0.5^-(128-epsilon) = 2^(128-epsilon) too.
    for case in [6, 7] {
        let z = out.f32(case)[2];
        if !(z.is_finite() && z >= 2f32.powi(127)) {
            c.fails.push(format!(
                "case {case}: LIT z = {z:e}, want finite and >= 2^127 (specular power clamped to +-(128-eps))"
            ));
        }
        c.at(case, 0, &[1.0, 1.0], Mode::Bits);
        c.comp(case, 0, 3, 1.0, Mode::Bits);
    }
    c.done();
}

// ---------------------------------------------------------------- KIL

#[test]
fn kil_discards_fragments_with_any_negative_component() {
    let b = [0.25, 0.5, 0.75, 1.0];
    let Some(out) = run(
        "KIL A;\nMOV O, B;",
        &[
            [[0.0, 0.0, 0.0, 0.0], b, Z],
            [[1.0, -0.0, 2.0, 3.0], b, Z],
            [[1.0, 2.0, -0.5, 3.0], b, Z],
            [[NAN, 1.0, 1.0, 1.0], b, Z],
            [[-INF, 1.0, 1.0, 1.0], b, Z],
            [[1.0, 1.0, 1.0, -1e-30], b, Z],
        ],
    ) else {
        return;
    };
    let mut c = Check::new(&out);
    // killed iff (x < 0) || (y < 0) || (z < 0) || (w < 0)
    c.killed(0, false); // all zero
    c.killed(1, false); // -0 < 0 is false
    c.killed(2, true); // z = -0.5
    c.killed(3, false); // NaN < 0 is false
    c.killed(4, true); // -INF
    c.killed(5, true); // -1e-30
    for case in [0, 1, 3] {
        c.bits(case, b);
    }
    c.done();
}

#[test]
fn kil_tests_the_negated_swizzled_operand() {
    let Some(out) = run(
        "KIL -A.wwww;\nMOV O, A;",
        &[
            [[-5.0, -5.0, -5.0, 1.0], Z, Z],
            [[-5.0, -5.0, -5.0, 0.0], Z, Z],
            [[-5.0, -5.0, -5.0, -1.0], Z, Z],
        ],
    ) else {
        return;
    };
    let mut c = Check::new(&out);
    c.killed(0, true); // -1 < 0 (x, y, z are not read)
    c.killed(1, false); // -(+0) = -0, not < 0
    c.killed(2, false); // -(-1) = 1
    c.bits(1, [-5.0, -5.0, -5.0, 0.0]);
    c.bits(2, [-5.0, -5.0, -5.0, -1.0]);
    c.done();
}

// ---------------------------------------------------------------- operand and result forms

#[test]
fn swizzles_reorder_replicate_and_accept_rgba() {
    let Some(out) = run(
        "MOV O, A.yzwx;\n\
         MOV result.color[1], A.w;\n\
         MOV result.color[2], A.abgr;\n\
         MOV result.color[3], A.xxzy;\n\
         MOV result.color[4], A.rgba;",
        &[[[1.0, 2.0, 3.0, 4.0], Z, Z]],
    ) else {
        return;
    };
    let mut c = Check::new(&out);
    c.at(0, 0, &[2.0, 3.0, 4.0, 1.0], Mode::Bits); // .yzwx
    c.at(0, 1, &[4.0, 4.0, 4.0, 4.0], Mode::Bits); // .w replicates
    c.at(0, 2, &[4.0, 3.0, 2.0, 1.0], Mode::Bits); // .abgr = .wzyx
    c.at(0, 3, &[1.0, 1.0, 3.0, 2.0], Mode::Bits); // .xxzy
    c.at(0, 4, &[1.0, 2.0, 3.0, 4.0], Mode::Bits); // .rgba = identity
    c.done();
}

#[test]
fn scalar_suffix_selects_one_component() {
    let Some(out) = run(
        "DIV O, A, B.z;\n\
         ADD result.color[1], A.w, B.x;\n\
         MUL result.color[2], A, B.y;",
        &[[[2.0, 4.0, 6.0, 8.0], [1.0, 2.0, 0.5, 4.0], Z]],
    ) else {
        return;
    };
    let mut c = Check::new(&out);
    c.at(0, 0, &[4.0, 8.0, 12.0, 16.0], Mode::Bits); // A / 0.5
    c.at(0, 1, &[9.0; 4], Mode::Bits); // 8 + 1, replicated
    c.at(0, 2, &[4.0, 8.0, 12.0, 16.0], Mode::Bits); // A * 2
    c.done();
}

#[test]
fn negate_abs_and_negated_abs_operands() {
    let ones = [1.0; 4];
    let Some(out) = run(
        "MOV O, -A;\n\
         MOV result.color[1], |A|;\n\
         MOV result.color[2], -|A|;\n\
         ADD result.color[3], -A.yxwz, B;",
        &[
            [[1.5, -2.0, -0.0, INF], ones, Z],
            [[NAN, 0.5, -7.0, 7.0], ones, Z],
        ],
    ) else {
        return;
    };
    let mut c = Check::new(&out);
    // zeros are compared by value: the spec does not say whether negation is a sign flip
    c.at(0, 0, &[-1.5, 2.0, 0.0, -INF], Mode::Value); // -A
    c.at(0, 1, &[1.5, 2.0, 0.0, INF], Mode::Value); // |A|
    c.at(0, 2, &[-1.5, -2.0, 0.0, -INF], Mode::Value); // -|A|
                                                       // -A.yxwz = -[-2, 1.5, INF, -0] = [2, -1.5, -INF, 0]; + 1
    c.at(0, 3, &[3.0, -0.5, -INF, 1.0], Mode::Value);
    c.at(1, 0, &[NAN, -0.5, 7.0, -7.0], Mode::Value);
    c.at(1, 1, &[NAN, 0.5, 7.0, 7.0], Mode::Value);
    c.at(1, 2, &[NAN, -0.5, -7.0, -7.0], Mode::Value);
    // -A.yxwz = -[0.5, NaN, 7, -7] = [-0.5, NaN, -7, 7]; + 1
    c.at(1, 3, &[0.5, NAN, -6.0, 8.0], Mode::Value);
    c.done();
}

#[test]
fn write_masks_leave_unwritten_components_unchanged() {
    let Some(out) = run(
        "MOV R0, A;\n\
         MOV R0.xz, B;\n\
         MOV R0.a, C;\n\
         MOV O, R0;\n\
         MOV R1, A;\n\
         ADD R1.yw, R1, B;\n\
         MOV result.color[1], R1;\n\
         MOV R2, C;\n\
         MUL R2.rgb, A, B;\n\
         MOV result.color[2], R2;",
        &[[
            [1.0, 2.0, 3.0, 4.0],
            [10.0, 20.0, 30.0, 40.0],
            [-1.0, -2.0, -3.0, -4.0],
        ]],
    ) else {
        return;
    };
    let mut c = Check::new(&out);
    c.at(0, 0, &[10.0, 2.0, 30.0, -4.0], Mode::Bits); // x,z from B, y from A, w (.a) from C
    c.at(0, 1, &[1.0, 22.0, 3.0, 44.0], Mode::Bits); // y: 2+20, w: 4+40
    c.at(0, 2, &[10.0, 40.0, 90.0, -4.0], Mode::Bits); // .rgb = 1*10, 2*20, 3*30; w from C
    c.done();
}

#[test]
fn sat_clamps_to_zero_one_in_suffix_and_modifier_forms() {
    let Some(out) = run(
        "ADD_SAT O, A, B;\n\
         ADD.SAT result.color[1], A, B;\n\
         MOV_SAT result.color[2], A;\n\
         MUL.F.SAT result.color[3], A, B;",
        &[
            [[0.25, 2.0, -3.0, INF], [0.5, 0.0, 0.0, 0.5], Z],
            [[-INF, 0.5, 1.0, -0.5], [1.0, 1.0, 1.0, 0.5], Z],
        ],
    ) else {
        return;
    };
    let mut c = Check::new(&out);
    // zeros by value: clamping -3 to [0,1] gives 0; its sign is not specified
    // ADD: [0.75, 2, -3, INF] -> [0.75, 1, 0, 1]
    c.at(0, 0, &[0.75, 1.0, 0.0, 1.0], Mode::Value);
    c.at(0, 1, &[0.75, 1.0, 0.0, 1.0], Mode::Value);
    c.at(0, 2, &[0.25, 1.0, 0.0, 1.0], Mode::Value); // MOV: [0.25, 2, -3, INF]
    c.at(0, 3, &[0.125, 0.0, 0.0, 1.0], Mode::Value); // MUL: [0.125, 0, -0, INF]
                                                      // ADD: [-INF, 1.5, 2, 0] -> [0, 1, 1, 0]
    c.at(1, 0, &[0.0, 1.0, 1.0, 0.0], Mode::Value);
    c.at(1, 1, &[0.0, 1.0, 1.0, 0.0], Mode::Value);
    c.at(1, 2, &[0.0, 0.5, 1.0, 0.0], Mode::Value); // MOV: [-INF, 0.5, 1, -0.5]
    c.at(1, 3, &[0.0, 0.5, 1.0, 0.0], Mode::Value); // MUL: [-INF, 0.5, 1, -0.25]
    c.done();
}

#[test]
fn ssat_clamps_to_minus_one_one_in_suffix_and_modifier_forms() {
    let Some(out) = run(
        "ADD_SSAT O, A, B;\n\
         ADD.SSAT result.color[1], A, B;\n\
         MOV.SSAT result.color[2], A;",
        &[
            [[0.25, 2.0, -3.0, INF], [0.5, 0.0, 0.0, 0.0], Z],
            [[-INF, 0.5, 1.0, -0.5], [0.0, 0.0, 0.0, -0.25], Z],
        ],
    ) else {
        return;
    };
    let mut c = Check::new(&out);
    // ADD: [0.75, 2, -3, INF] -> [0.75, 1, -1, 1]
    c.at(0, 0, &[0.75, 1.0, -1.0, 1.0], Mode::Bits);
    c.at(0, 1, &[0.75, 1.0, -1.0, 1.0], Mode::Bits);
    c.at(0, 2, &[0.25, 1.0, -1.0, 1.0], Mode::Bits); // MOV: [0.25, 2, -3, INF]
                                                     // ADD: [-INF, 0.5, 1, -0.75] -> [-1, 0.5, 1, -0.75]
    c.at(1, 0, &[-1.0, 0.5, 1.0, -0.75], Mode::Bits);
    c.at(1, 1, &[-1.0, 0.5, 1.0, -0.75], Mode::Bits);
    c.at(1, 2, &[-1.0, 0.5, 1.0, -0.5], Mode::Bits); // MOV: [-INF, 0.5, 1, -0.5]
    c.done();
}

#[test]
fn precision_and_condition_code_suffixes_act_as_modifiers() {
    // Table X.15: R = F (fp32), H = F (>= fp16), C/C1 = CC0/CC1, _SAT/_SSAT clamps;
    // the values below are exact in fp16, so H may not change them.
    let Some(out) = run(
        "ADDR R0.x, A.x, B.x;\n\
         MULH R0.y, A.y, B.y;\n\
         ADDRC_SAT R0.z, A.z, B.z;\n\
         ADDRC1_SSAT R0.w, A.w, B.w;\n\
         MOV O, R0;\n\
         MADR_SAT result.color[1], A, B, C;\n\
         DP3RC result.color[2], A, B;\n\
         ADDH_SAT result.color[3], A, C;",
        &[[
            [1.5, 2.0, 0.75, -3.0],
            [2.25, -0.5, 0.5, 1.25],
            [-3.0, 0.5, 0.0, 4.0],
        ]],
    ) else {
        return;
    };
    let mut c = Check::new(&out);
    // 1.5+2.25 = 3.75; 2*-0.5 = -1; sat(0.75+0.5 = 1.25) = 1; ssat(-3+1.25 = -1.75) = -1
    c.at(0, 0, &[3.75, -1.0, 1.0, -1.0], Mode::Bits);
    // sat(a*b+c): 3.375-3 = 0.375; -1+0.5 = -0.5 -> 0; 0.375+0 = 0.375; -3.75+4 = 0.25
    c.at(0, 1, &[0.375, 0.0, 0.375, 0.25], Mode::Value);
    // 1.5*2.25 + 2*-0.5 + 0.75*0.5 = 3.375 - 1 + 0.375 = 2.75
    c.at(0, 2, &[2.75; 4], Mode::Bits);
    // sat(a+c): -1.5 -> 0; 2.5 -> 1; 0.75; 1
    c.at(0, 3, &[0.0, 1.0, 0.75, 1.0], Mode::Value);
    c.done();
}

#[test]
fn immediate_constants_scalars_and_vectors() {
    let Some(out) = run(
        "MOV O, {1, 0}.xyyx;\n\
         ADD result.color[1], A, 0.5;\n\
         MUL result.color[2], A, {2, -3, 0.25, 8};\n\
         MOV result.color[3], {7, -2};\n\
         ADD result.color[4], A, {0}.x;\n\
         MAD result.color[5], A, {-1.5}.x, {1, 2, 3, 4};\n\
         MOV result.color[6], {3};",
        &[[[1.0, 2.0, 4.0, -8.0], Z, Z]],
    ) else {
        return;
    };
    let mut c = Check::new(&out);
    c.at(0, 0, &[1.0, 0.0, 0.0, 1.0], Mode::Bits); // (1, 0, 0, 1).xyyx
    c.at(0, 1, &[1.5, 2.5, 4.5, -7.5], Mode::Bits); // scalar 0.5 is (0.5, 0.5, 0.5, 0.5)
    c.at(0, 2, &[2.0, -6.0, 1.0, -64.0], Mode::Bits); // 1*2, 2*-3, 4*0.25, -8*8
                                                      // 2.X.3.3: missing Y, Z, W default to 0, 0, 1
    c.at(0, 3, &[7.0, -2.0, 0.0, 1.0], Mode::Bits);
    c.at(0, 4, &[1.0, 2.0, 4.0, -8.0], Mode::Bits); // + 0
    c.at(0, 5, &[-0.5, -1.0, -3.0, 16.0], Mode::Bits); // -1.5+1, -3+2, -6+3, 12+4
    c.at(0, 6, &[3.0, 0.0, 0.0, 1.0], Mode::Bits); // {3} = (3, 0, 0, 1)
    c.done();
}

#[test]
fn param_single_array_and_range_bindings() {
    let local = [
        [1.0, 2.0, 3.0, 4.0],
        [-1.0, -2.0, -3.0, -4.0],
        [0.5, 0.5, 0.5, 0.5],
        [9.0, 8.0, 7.0, 6.0],
    ];
    let Some(out) = run_local(
        "PARAM k = {0.5, 1.5, 2.5, 3.5};\n\
         PARAM one = program.local[2];\n\
         PARAM c[2] = { program.local[0..1] };\n\
         PARAM mixed[] = { {10, 20, 30, 40}, program.local[3], 0.25 };\n\
         MOV O, c[0];\n\
         MOV result.color[1], c[1];\n\
         ADD result.color[2], k, one;\n\
         MOV result.color[3], mixed[0];\n\
         MOV result.color[4], mixed[1];\n\
         MOV result.color[5], mixed[2];\n\
         ADD result.color[6], program.local[3], A;",
        &[[[1.0, 1.0, 1.0, 1.0], Z, Z]],
        &local,
    ) else {
        return;
    };
    let mut c = Check::new(&out);
    c.at(0, 0, &[1.0, 2.0, 3.0, 4.0], Mode::Bits); // c[0] = local[0]
    c.at(0, 1, &[-1.0, -2.0, -3.0, -4.0], Mode::Bits); // c[1] = local[1]
    c.at(0, 2, &[1.0, 2.0, 3.0, 4.0], Mode::Bits); // k + local[2] = k + 0.5
    c.at(0, 3, &[10.0, 20.0, 30.0, 40.0], Mode::Bits);
    c.at(0, 4, &[9.0, 8.0, 7.0, 6.0], Mode::Bits); // local[3]
    c.at(0, 5, &[0.25; 4], Mode::Bits); // scalar constant (X, X, X, X)
    c.at(0, 6, &[10.0, 9.0, 8.0, 7.0], Mode::Bits); // local[3] + 1
    c.done();
}

#[test]
fn alias_names_the_same_variable() {
    let Some(out) = run(
        "ALIAS T = R0;\n\
         ALIAS tc = B;\n\
         MOV T, A;\n\
         ADD O, R0, T;\n\
         MUL result.color[1], tc, T;",
        &[[[1.0, -2.0, 3.0, 0.5], [2.0, 2.0, 2.0, 2.0], Z]],
    ) else {
        return;
    };
    let mut c = Check::new(&out);
    c.at(0, 0, &[2.0, -4.0, 6.0, 1.0], Mode::Bits); // A + A
    c.at(0, 1, &[2.0, -4.0, 6.0, 1.0], Mode::Bits); // B * A = 2A
    c.done();
}

#[test]
fn relative_addressing_of_a_param_array() {
    let local: Vec<[f32; 4]> = (0..4)
        .map(|i| {
            let b = 10.0 * i as f32;
            [b + 1.0, b + 2.0, b + 3.0, b + 4.0]
        })
        .collect();
    let Some(out) = run_local(
        "INT TEMP A0, A1;\n\
         PARAM c[4] = { program.local[0..3] };\n\
         FLR.S A0, A;\n\
         MOV.S A1, {1};\n\
         MOV O, c[A0.x];\n\
         MOV result.color[1], c[A0.x + 1];\n\
         MOV result.color[2], c[A1.x + 2];\n\
         MOV result.color[3], c[A0.y];",
        &[
            [[0.0, 3.0, 0.0, 0.0], Z, Z],
            [[1.0, 2.0, 0.0, 0.0], Z, Z],
            [[2.5, 0.0, 0.0, 0.0], Z, Z],
        ],
        &local,
    ) else {
        return;
    };
    let mut c = Check::new(&out);
    let row = |i: usize| local[i];
    // A0 = floor(A) as integers; c[i] = local[i] = [10i+1, 10i+2, 10i+3, 10i+4]
    for (case, (x, y)) in [(0, 3), (1, 2), (2, 0)].into_iter().enumerate() {
        c.at(case, 0, &row(x), Mode::Bits); // c[A0.x]
        c.at(case, 1, &row(x + 1), Mode::Bits); // c[A0.x + 1]
        c.at(case, 2, &row(3), Mode::Bits); // A1.x = 1: c[1 + 2]
        c.at(case, 3, &row(y), Mode::Bits); // c[A0.y]
    }
    c.done();
}

#[test]
fn relative_addressing_with_an_integer_attribute() {
    let src = "!!NVfp4.0\n\
               FLAT INT ATTRIB ix = fragment.texcoord[3];\n\
               PARAM c[3] = { program.local[0..2] };\n\
               INT TEMP A0;\n\
               MOV.S A0, ix;\n\
               MOV result.color, c[A0.z + 1];\n\
               END\n";
    let spirv = compile(src);
    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    let local = [
        fbits([1.0, 2.0, 3.0, 4.0]),
        fbits([5.0, 6.0, 7.0, 8.0]),
        fbits([9.0, 10.0, 11.0, 12.0]),
    ];
    let cases = vec![
        vec![Input::int(8, [7, 7, 0, 7])],
        vec![Input::int(8, [7, 7, 1, 7])],
        vec![Input::int(8, [0, 0, -1, 0])],
    ];
    let job = FragmentJob {
        local: local.to_vec(),
        ..FragmentJob::new(cases)
    };
    let out = dev.run_fragment(&spirv, &job).unwrap();
    let mut c = Check::new(&out);
    c.bits(0, [5.0, 6.0, 7.0, 8.0]); // c[0 + 1]
    c.bits(1, [9.0, 10.0, 11.0, 12.0]); // c[1 + 1]
    c.bits(2, [1.0, 2.0, 3.0, 4.0]); // c[-1 + 1]
    c.done();
}
