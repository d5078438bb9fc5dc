//! Execution tests of NV_gpu_program5's 64-bit data types in `!!NVfp5.0`
//! programs on the Vulkan device (shaderFloat64, shaderInt64), each also
//! run in the interpreter: both must give the values worked out here by
//! hand from NV_gpu_program5 sections 2.X.4.1 (`.F64`, `.S64`, `.U64`,
//! promotion and conversion), 2.X.3.1 (LONG variables hold 64-bit
//! components) and 2.X.8.Z (the instructions, PK64 and UP64).
//!
//! The operands are chosen so that a 32-bit computation would give another
//! answer: 1 + 2^-40 is no f32, 2^40 + 0.5 and 2^53 + 1 are no f32 either,
//! and integers above 2^32 have high words. Results leave through a 32-bit
//! output, as a difference small enough to survive the conversion to f32,
//! or as the two halves UP64 unpacks (low word first).

use crate::harness;
use crate::harness::{Capture, FragmentJob, Input, VertexJob};

/// 2^-40, an f32 literal whose sum with 1.0 only an f64 holds.
const TINY: &str = "0.0000000000009094947017729282379150390625";

/// Runs `body` (after `LONG TEMP d, e, f;` and an output `o` of
/// `output_type` bound to `result.color`) with `FLAT UINT ATTRIB a =
/// fragment.texcoord[0]` = `a`, on the device and in the interpreter, and
/// checks both give the bits `want`.
fn check(output_type: &str, body: &str, a: [u32; 4], want: [u32; 4]) {
    let body = body.replace("TINY", TINY);
    let src = format!(
        "!!NVfp5.0\nLONG TEMP d, e, f;\n{output_type} OUTPUT o = result.color;\nFLAT UINT ATTRIB a = fragment.texcoord[0];\n{body}\nEND\n"
    );
    let compiled = nvp4c::compile(&src, &nvp4c::Options::default())
        .unwrap_or_else(|d| panic!("{}", d.render("t.fp", &src, false)));
    // The interpreter.
    let (program, _) = nvp4c::check(&src, &nvp4c::Options::default()).unwrap();
    let mut inputs = nvp4c::interp::Inputs::default();
    inputs.set("fragment.texcoord[0]", a).unwrap();
    let out = nvp4c::interp::run(&program, &inputs, &Default::default()).unwrap();
    let r = out.result("result.color").unwrap();
    assert_eq!(r.undefined, 0, "{body}: the interpreter calls it undefined");
    assert_eq!(r.bits, want, "interpreter: {body}");
    // The device.
    let Some(device) = harness::device_or_skip() else {
        return;
    };
    let job = FragmentJob::new(vec![vec![Input::uint(5, a)]]);
    let got = device
        .run_fragment(&compiled.spirv, &job)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(got.bits(0), want, "device: {body}");
}

/// f32 bits of 2^-40, 2^-39 and -2^-40.
const F_2M40: u32 = 0x2b80_0000;
const F_2M39: u32 = 0x2c00_0000;
const F_NEG_2M40: u32 = 0xab80_0000;
const F_ONE: u32 = 0x3f80_0000;
const F_HALF: u32 = 0x3f00_0000;
const F_QUARTER: u32 = 0x3e80_0000;
const F_NEG_HALF: u32 = 0xbf00_0000;
const F_ONE_AND_HALF: u32 = 0x3fc0_0000;
const F_NEG_ONE: u32 = 0xbf80_0000;

#[test]
fn f64_add_sub_mul_mad_keep_what_an_f32_loses() {
    // d = 1 + 2^-40 (exact in f64). d - 1 = 2^-40. d*d = 1 + 2^-39 +
    // 2^-80, rounded to 1 + 2^-39 (2^-80 is below half an ulp, 2^-53), so
    // d*d - 1 = 2^-39; MAD rounds the product the same way. MOV.F64 to the
    // 32-bit output converts 1 + 2^-40 to the nearest f32, 1.0.
    check(
        "FLOAT",
        "ADD.F64 d, {1, 1, 1, 1}, {TINY, TINY, TINY, TINY};\nSUB.F64 o.x, d, {1, 1, 1, 1};\nMUL.F64 e, d, d;\nSUB.F64 o.y, e, {1, 1, 1, 1};\nMAD.F64 o.z, d, d, {-1, -1, -1, -1};\nMOV.F64 o.w, d;",
        [0; 4],
        [F_2M40, F_2M39, F_2M39, F_ONE],
    );
}

#[test]
fn pk64_packs_pairs_and_up64_unpacks_them_low_word_first() {
    // PK64: x|y<<32 = 0x3ff00000_00001000 = 1 + 2^-40, z|w<<32 =
    // 0x40000000_00000800 = 2 + 2^-40 (the f64 2^-40 above 2.0 is bit 11).
    // d - (1, 2, 1, 2) = 2^-40 everywhere (d = (x, y, x, y) of those two).
    let a = [0x1000, 0x3ff0_0000, 0x800, 0x4000_0000];
    check(
        "FLOAT",
        "PK64.U d, a;\nSUB.F64 o, d, {1, 2, 1, 2};",
        a,
        [F_2M40; 4],
    );
    // d + d = (2 + 2^-39, 4 + 2^-39): 2^-39 is bit 12 above 2.0 (0x1000
    // in the low word, 0x40000000 high) and bit 11 above 4.0 (0x800,
    // 0x40100000). UP64 gives x's low and high words, then y's.
    check(
        "UINT",
        "PK64.U d, a;\nADD.F64 d, d, d;\nUP64.U o, d;",
        a,
        [0x1000, 0x4000_0000, 0x800, 0x4010_0000],
    );
}

#[test]
fn u64_arithmetic_carries_into_the_high_word() {
    // MOV.U64 zero-extends the 32-bit attribute: d = (2^32 - 1, 3, 2^31, 7);
    // d + d = (0x1_FFFFFFFE, 6, 0x1_00000000, 14).
    let a = [0xFFFF_FFFF, 3, 0x8000_0000, 7];
    check(
        "UINT",
        "MOV.U64 d, a;\nADD.U64 d, d, d;\nUP64.U o, d;",
        a,
        [0xFFFF_FFFE, 1, 6, 0],
    );
    check(
        "UINT",
        "MOV.U64 d, a;\nADD.U64 d, d, d;\nUP64.U o, d.zwzw;",
        a,
        [0, 1, 14, 0],
    );
}

#[test]
fn integers_above_2_pow_53_and_their_conversion_to_f64() {
    // 1 << 53 = 2^53 (high word 0x200000); + (1, 3, 0, 0).
    let a = [1, 3, 0, 0];
    check(
        "UINT",
        "MOV.U64 d, {1, 1, 1, 1};\nSHL.U64 d, d, 53;\nADD.U64 d, d, a;\nUP64.U o, d;",
        a,
        [1, 0x20_0000, 3, 0x20_0000],
    );
    // I2F.U64 rounds to the nearest f64, ties to even: 2^53 + 1 lies
    // halfway between 2^53 and 2^53 + 2 and goes to 2^53 (even
    // significand); 2^53 + 3 goes to 2^53 + 4. Minus 2^53: (0, 4, 0, 2^53).
    check(
        "FLOAT",
        "MOV.U64 d, {1, 1, 1, 1};\nSHL.U64 d, d, 53;\nADD.U64 d, d, a;\nI2F.U64 e, d;\nSUB.F64 o, e, {9007199254740992, 9007199254740992, 9007199254740992, 0};",
        a,
        [0, 0x4080_0000, 0, 0x5a00_0000],
    );
}

#[test]
fn s64_sign_extends_multiplies_and_divides() {
    // Sign-extended (-1, -2^31, 5, 0) times 2^30: (-2^30, -2^61, 5*2^30, 0):
    // -2^30 = 0xFFFFFFFF_C0000000, -2^61 = 0xE0000000_00000000,
    // 5*2^30 = 0x1_40000000.
    let mul = "MOV.S64 d, {-1, -2147483648, 5, 0};\nMUL.S64 d, d, {1073741824, 1073741824, 1073741824, 1073741824};";
    check(
        "UINT",
        &format!("{mul}\nUP64.U o, d;"),
        [0; 4],
        [0xC000_0000, 0xFFFF_FFFF, 0, 0xE000_0000],
    );
    check(
        "UINT",
        &format!("{mul}\nUP64.U o, d.zwzw;"),
        [0; 4],
        [0x4000_0000, 1, 0, 0],
    );
    // (-1, -1, 7, 1) << 40 = (-2^40, -2^40, 7*2^40, 2^40); arithmetic
    // shift right by 36: (-16, -16, 112, 16).
    let shifted = "MOV.S64 d, {-1, -1, 7, 1};\nSHL.S64 d, d, 40;";
    check(
        "INT",
        &format!("{shifted}\nSHR.S64 e, d, 36;\nMOV.S o, e;"),
        [0; 4],
        [(-16i32) as u32, (-16i32) as u32, 112, 16],
    );
    // DIV truncates: -2^40 / -3 = 366503875925 (0x55_55555555);
    // 7*2^40 / -3 = -2565527131477 (0xFFFFFDAA_AAAAAAAB).
    check(
        "UINT",
        &format!("{shifted}\nDIV.S64 e, d, -3;\nUP64.U o, e.xzxz;"),
        [0; 4],
        [0x5555_5555, 0x55, 0xAAAA_AAAB, 0xFFFF_FDAA],
    );
}

#[test]
fn u64_bitwise_mod_and_sad() {
    let d = "MOV.U64 d, {1, 1, 1, 1};\nSHL.U64 d, d, 40;\nOR.U64 d, d, {7, 5, 3, 1};";
    // d = 2^40 + (7, 5, 3, 1). NOT: ~(2^40 + 7) = 0xFFFFFEFF_FFFFFFF8,
    // ~(2^40 + 5) = 0xFFFFFEFF_FFFFFFFA.
    check(
        "UINT",
        &format!("{d}\nNOT.U64 e, d;\nUP64.U o, e;"),
        [0; 4],
        [0xFFFF_FFF8, 0xFFFF_FEFF, 0xFFFF_FFFA, 0xFFFF_FEFF],
    );
    // 2^40 = 4^20 is 1 modulo 3: (2^40 + (7, 5, 3, 1)) % 3 = (2, 0, 1, 2).
    check(
        "UINT",
        &format!("{d}\nMOD.U64 e, d, 3;\nMOV.U o, e;"),
        [0; 4],
        [2, 0, 1, 2],
    );
    // SAD: |d - 10| + 1 = 2^40 + (7, 5, 3, 1) - 9: x = 2^40 - 2 =
    // 0xFF_FFFFFFFE, y = 2^40 - 4 = 0xFF_FFFFFFFC.
    check(
        "UINT",
        &format!("{d}\nSAD.U64 f, d, {{10, 10, 10, 10}}, {{1, 1, 1, 1}};\nUP64.U o, f;"),
        [0; 4],
        [0xFFFF_FFFE, 0xFF, 0xFFFF_FFFC, 0xFF],
    );
    // XOR with (w, z, y, x): 7^1, 5^3, 3^5, 1^7 = 6 (2^40 cancels); AND
    // with zero-extended constants keeps the low bits: (7, 5, 1, 0).
    check(
        "UINT",
        &format!("{d}\nXOR.U64 e, d, d.wzyx;\nMOV.U o, e;"),
        [0; 4],
        [6; 4],
    );
    check(
        "UINT",
        &format!("{d}\nAND.U64 o, d, {{4294967295, 4294967295, 1, 6}};"),
        [0; 4],
        [7, 5, 1, 0],
    );
}

#[test]
fn comparisons_see_differences_below_f32_precision_and_above_32_bits() {
    // d = (1 + 2^-40, 1, 1 + 2^-40, 1) > 1: (1.0, 0.0, 1.0, 0.0).
    check(
        "FLOAT",
        "ADD.F64 d, {1, 1, 1, 1}, {TINY, 0, TINY, 0};\nSGT.F64 o, d, {1, 1, 1, 1};",
        [0; 4],
        [F_ONE, 0, F_ONE, 0],
    );
    // SEQ/SNE/SLE on the same: x: 1 + 2^-40 == 1 is false; y: 1 != 1 is
    // false; z: 1 + 2^-40 <= 1 false; w: 1 <= 1 true.
    check(
        "FLOAT",
        "ADD.F64 d, {1, 1, 1, 1}, {TINY, 0, TINY, 0};\nSEQ.F64 o.x, d, {1, 1, 1, 1};\nSNE.F64 o.y, d, {1, 1, 1, 1};\nSLE.F64 o.zw, d, {1, 1, 1, 1};",
        [0; 4],
        [0, 0, 0, F_ONE],
    );
    // 2^32 differs from 0 only in its high word: SNE true (all ones, whose
    // low 32 bits the output gets), SEQ false, 2^32 < 1 false, and
    // 2^32 >= 2^32 - 1 true (a 32-bit compare would see 0 in each).
    check(
        "UINT",
        "MOV.U64 d, {1, 1, 1, 1};\nSHL.U64 d, d, 32;\nSNE.U64 o.x, d, {0, 0, 0, 0};\nSEQ.U64 o.y, d, {0, 0, 0, 0};\nSLT.U64 o.z, d, {1, 1, 1, 1};\nSGE.U64 o.w, d, {4294967295, 4294967295, 4294967295, 4294967295};",
        [0; 4],
        [u32::MAX, 0, 0, u32::MAX],
    );
}

#[test]
fn f64_rounding_instructions() {
    // d = (2^40 + 0.5, 2^40 + 0.25, 2.5, -2.5): neither of the first two is
    // an f32.
    let d = "ADD.F64 d, {1099511627776, 1099511627776, 2.5, -2.5}, {0.5, 0.25, 0, 0};";
    // FLR: (2^40, 2^40, 2, -3); d - FLR(d) = (0.5, 0.25, 0.5, 0.5).
    check(
        "FLOAT",
        &format!("{d}\nFLR.F64 e, d;\nSUB.F64 o, d, e;"),
        [0; 4],
        [F_HALF, F_QUARTER, F_HALF, F_HALF],
    );
    // ROUND, ties to even: (2^40, 2^40, 2, -2); d - ROUND(d) = (0.5, 0.25,
    // 0.5, -0.5). TRUNC gives the same integers here.
    check(
        "FLOAT",
        &format!("{d}\nROUND.F64 e, d;\nSUB.F64 o, d, e;"),
        [0; 4],
        [F_HALF, F_QUARTER, F_HALF, F_NEG_HALF],
    );
    check(
        "FLOAT",
        &format!("{d}\nTRUNC.F64 e, d;\nSUB.F64 o, d, e;"),
        [0; 4],
        [F_HALF, F_QUARTER, F_HALF, F_NEG_HALF],
    );
    // FRC: x - floor(x): (0.5, 0.25, 0.5, 0.5).
    check(
        "FLOAT",
        &format!("{d}\nFRC.F64 o, d;"),
        [0; 4],
        [F_HALF, F_QUARTER, F_HALF, F_HALF],
    );
    // CEIL.S64: (2^40 + 1, 2^40 + 1, 3, -2) as signed 64-bit integers;
    // x = 0x100_00000001, w = 0xFFFFFFFF_FFFFFFFE.
    check(
        "UINT",
        &format!("{d}\nCEIL.S64 e, d;\nUP64.U o, e.xwxw;"),
        [0; 4],
        [1, 0x100, 0xFFFF_FFFE, 0xFFFF_FFFF],
    );
}

#[test]
fn f64_division_reciprocal_and_reciprocal_square_root() {
    // 1/3 = 0x3FD55555_55555555; 1/sqrt(4) = 0.5 = 0x3FE00000_00000000;
    // 1/sqrt(0.25) = 2 = 0x40000000_00000000.
    let k = "PARAM k = {3, 4, 0.25, 2};\nRCP.F64 d.x, k.x;\nRSQ.F64 d.y, k.y;\nRSQ.F64 d.z, k.z;";
    check(
        "UINT",
        &format!("{k}\nUP64.U o, d.xyxy;"),
        [0; 4],
        [0x5555_5555, 0x3FD5_5555, 0, 0x3FE0_0000],
    );
    check(
        "UINT",
        &format!("{k}\nUP64.U o, d.zzzz;"),
        [0; 4],
        [0, 0x4000_0000, 0, 0x4000_0000],
    );
    // DIV by the scalar k.x = 3: 4/3 = 0x3FF55555_55555555, 0.25/3 = 1/12 =
    // 0x3FB55555_55555555.
    check(
        "UINT",
        &format!("{k}\nDIV.F64 e, k, k.x;\nUP64.U o, e.yzyz;"),
        [0; 4],
        [0x5555_5555, 0x3FF5_5555, 0x5555_5555, 0x3FB5_5555],
    );
}

#[test]
fn f64_abs_min_max_cmp_ssg() {
    // d = (-(1 + 2^-40), 1 + 2^-40, 0, 3).
    let d = "ADD.F64 d, {-1, 1, 0, 3}, {-TINY, TINY, 0, 0};";
    // |d.x| - 1 = 2^-40; max(d, 1).y - 1 = 2^-40; min(d, -1).x + 1 =
    // -2^-40; CMP picks 5 for the negative d.x.
    check(
        "FLOAT",
        &format!("{d}\nABS.F64 e, d;\nSUB.F64 o.x, e, {{1, 1, 1, 1}};\nMAX.F64 e, d, {{1, 1, 1, 1}};\nSUB.F64 o.y, e, {{1, 1, 1, 1}};\nMIN.F64 e, d, {{-1, -1, -1, -1}};\nADD.F64 o.z, e.x, {{1, 1, 1, 1}};\nCMP.F64 o.w, d.x, {{5, 5, 5, 5}}, {{7, 7, 7, 7}};"),
        [0; 4],
        [F_2M40, F_2M40, F_NEG_2M40, 0x40a0_0000],
    );
    // SSG: (-1, 1, 0, 1); |x| of a negated operand at 64 bits:
    // -|d.x| + 1 = -2^-40.
    check(
        "FLOAT",
        &format!("{d}\nSSG.F64 o, d;"),
        [0; 4],
        [0xbf80_0000, F_ONE, 0, F_ONE],
    );
    check(
        "FLOAT",
        &format!("{d}\nADD.F64 o, -|d|, {{1, 1, 1, 1}};"),
        [0; 4],
        [F_NEG_2M40, F_NEG_2M40, F_ONE, 0xc000_0000],
    );
}

#[test]
fn sat_and_32_bit_instructions_on_long_variables() {
    // ADD.F64.SAT clamps to [0, 1] before the conversion to f32:
    // (0.5, 1, 0, 0.75 + 2^-40 -> 0.75).
    check(
        "FLOAT",
        "ADD.F64.SAT o, {0.5, 2, -3, 0.75}, {0, 0, 0, TINY};",
        [0; 4],
        [F_HALF, F_ONE, 0, 0x3f40_0000],
    );
    // A 32-bit ADD writes a LONG variable promoted (2.5 exactly), and a
    // 32-bit MOV reads one converted to f32: 2.5 + 2^-40 -> 2.5.
    check(
        "FLOAT",
        "ADD d, {1, 1, 1, 1}, {1.5, 1.5, 1.5, 1.5};\nADD.F64 d, d, {TINY, 0, 0, 0};\nSUB.F64 o.x, d, {2.5, 2.5, 2.5, 2.5};\nMOV o.yzw, d;",
        [0; 4],
        [F_2M40, 0x4020_0000, 0x4020_0000, 0x4020_0000],
    );
}

#[test]
fn cvt_float_to_integer_rounds_then_wraps_or_saturates() {
    // ROUND (the default): 300.7 -> 301, whose low 8 bits are 45; -1.5 ->
    // -2 (even); 127.5 -> 128 (even), which wraps to -128; -129 wraps to
    // 127. With SAT the integers clamp to [-128, 127] instead.
    let v = "{300.7, -1.5, 127.5, -129}";
    check(
        "INT",
        &format!("CVT.S8.F32 o, {v};"),
        [0; 4],
        [45, (-2i32) as u32, (-128i32) as u32, 127],
    );
    check(
        "INT",
        &format!("CVT.S8.F32.SAT o, {v};"),
        [0; 4],
        [127, (-2i32) as u32, 127, (-128i32) as u32],
    );
    // FLR(-2.5) = -3, CEIL(-2.5) = -2, TRUNC(-2.7) = -2, ROUND(3.5) = 4.
    check(
        "INT",
        "CVT.S32.F32.FLR o.x, {-2.5, -2.5, -2.7, 3.5};\nCVT.S32.F32.CEIL o.y, {-2.5, -2.5, -2.7, 3.5};\nCVT.S32.F32.TRUNC o.z, {-2.5, -2.5, -2.7, 3.5};\nCVT.S32.F32.ROUND o.w, {-2.5, -2.5, -2.7, 3.5};",
        [0; 4],
        [(-3i32) as u32, (-2i32) as u32, (-2i32) as u32, 4],
    );
}

#[test]
fn cvt_between_integer_sizes() {
    // U8 of -1, 256, 255, -256: the low bytes 0xFF, 0, 0xFF, 0; with SAT
    // clamped to [0, 255]: 0, 255, 255, 0.
    let v = "{-1, 256, 255, -256}";
    check(
        "UINT",
        &format!("CVT.U8.S32 o, {v};"),
        [0; 4],
        [255, 0, 255, 0],
    );
    check(
        "UINT",
        &format!("CVT.U8.S32.SAT o, {v};"),
        [0; 4],
        [0, 255, 255, 0],
    );
    // The lower bounds of these clamps are what lavapipe once dropped
    // (spirv/wide.rs, int_saturated): S8 of -256 is -128, U32 of -1 is 0.
    check(
        "INT",
        &format!("CVT.S8.S32.SAT o, {v};"),
        [0; 4],
        [u32::MAX, 127, 127, (-128i32) as u32],
    );
    check(
        "UINT",
        &format!("CVT.U32.S32.SAT o, {v};"),
        [0; 4],
        [0, 256, 255, 0],
    );
    // S16 of unsigned 70000, 32768, 65535, 5: 70000 - 65536 = 4464,
    // -32768, -1, 5; SAT: 32767, 32767, 32767, 5.
    let u = "{70000, 32768, 65535, 5}";
    check(
        "INT",
        &format!("CVT.S16.U32 o, {u};"),
        [0; 4],
        [4464, (-32768i32) as u32, u32::MAX, 5],
    );
    check(
        "INT",
        &format!("CVT.S16.U32.SAT o, {u};"),
        [0; 4],
        [32767, 32767, 32767, 5],
    );
    // An S8 operand is the register's low byte: 511 -> 0xFF = -1, 128 ->
    // -128, 127, -256 -> 0.
    check(
        "INT",
        "CVT.S32.S8 o, {511, 128, 127, -256};",
        [0; 4],
        [u32::MAX, (-128i32) as u32, 127, 0],
    );
    // U32 of 2^40 + 7: the low 32 bits, 7.
    check(
        "UINT",
        "MOV.U64 d, {1, 1, 1, 1};\nSHL.U64 d, d, 40;\nADD.U64 d, d, {7, 7, 7, 7};\nCVT.U32.U64 o, d;",
        [0; 4],
        [7; 4],
    );
}

#[test]
fn cvt_rounds_inexact_floats_by_its_rounding_modifier() {
    // 1 + 2^-40 to F32: the nearest f32 is 1.0; CEIL gives the next one,
    // 1 + 2^-23 (0x3f800001); FLR of -(1 + 2^-40) gives -(1 + 2^-23).
    check(
        "FLOAT",
        "ADD.F64 d, {1, 1, -1, -1}, {TINY, TINY, -TINY, -TINY};\nCVT.F32.F64.CEIL o.xz, d;\nCVT.F32.F64.FLR o.yw, d;",
        [0; 4],
        [0x3f80_0001, F_ONE, 0xbf80_0000, 0xbf80_0001],
    );
    // Integers to F32 near 2^24 (the f32 spacing there is 2): TRUNC
    // 16777217 -> 16777216; CEIL 16777217 -> 16777218; FLR -16777217 ->
    // -16777218; ROUND 16777219 (halfway) -> 16777220 (even significand).
    check(
        "FLOAT",
        "CVT.F32.S32.TRUNC o.x, {16777217, 16777217, -16777217, 16777219};\nCVT.F32.S32.CEIL o.y, {16777217, 16777217, -16777217, 16777219};\nCVT.F32.S32.FLR o.z, {16777217, 16777217, -16777217, 16777219};\nCVT.F32.S32 o.w, {16777217, 16777217, -16777217, 16777219};",
        [0; 4],
        [0x4b80_0000, 0x4b80_0001, 0xcb80_0001, 0x4b80_0002],
    );
    // U64 2^53 + 1 to F64: ROUND and TRUNC and FLR give 2^53, CEIL
    // 2^53 + 2; minus 2^53: (0, 2, 0, 0).
    check(
        "FLOAT",
        "MOV.U64 d, {1, 1, 1, 1};\nSHL.U64 d, d, 53;\nADD.U64 d, d, {1, 1, 1, 1};\nCVT.F64.U64 e.x, d;\nCVT.F64.U64.CEIL e.y, d;\nCVT.F64.U64.FLR e.z, d;\nCVT.F64.U64.TRUNC e.w, d;\nSUB.F64 o, e, {9007199254740992, 9007199254740992, 9007199254740992, 9007199254740992};",
        [0; 4],
        [0, 0x4000_0000, 0, 0],
    );
    // F64 2^40 + 0.5 to S64 with CEIL: 2^40 + 1 = 0x100_00000001; a float
    // result clamps with SAT: (5, -3, 0.25, 1) -> (1, 0, 0.25, 1).
    check(
        "UINT",
        "ADD.F64 e, {1099511627776, 1099511627776, 1099511627776, 1099511627776}, {0.5, 0.5, 0.5, 0.5};\nCVT.S64.F64.CEIL d, e;\nUP64.U o, d;",
        [0; 4],
        [1, 0x100, 1, 0x100],
    );
    check(
        "FLOAT",
        "CVT.F32.F32.SAT o, {5, -3, 0.25, 1};",
        [0; 4],
        [F_ONE, 0, F_QUARTER, F_ONE],
    );
}

/// CVT to F16 (NV_gpu_program5 2.X.8.Z, CVT: "whose sixteen least
/// significant bits describe a 16-bit floating-point value"), read back as
/// the register's bits: 0x0000hhhh.
fn check_f16(body: &str, want: [u32; 4]) {
    check(
        "UINT",
        &format!("TEMP h;\n{body}\nMOV.U o, h;"),
        [0; 4],
        want,
    );
}

#[test]
fn cvt_to_f16_rounds_by_its_rounding_modifier() {
    // f32(1/3) = 0x3EAAAAAB lies between the f16s 0x3555 (0.333251953) and
    // 0x3556 (0.333496094), nearer the first; 65520 is the tie between
    // 65504 (0x7BFF, odd mantissa) and 2^16 (overflow: infinity, 0x7C00);
    // 1e-8 lies between +0 and 2^-24 (0x0001), below their midpoint 2^-25.
    let values = "{0.33333333, -0.33333333, 65520, 0.00000001}";
    check_f16(
        &format!("CVT.F16.F32 h, {values};"),
        [0x3555, 0xB555, 0x7C00, 0],
    );
    check_f16(
        &format!("CVT.F16.F32.CEIL h, {values};"),
        [0x3556, 0xB555, 0x7C00, 1],
    );
    check_f16(
        &format!("CVT.F16.F32.FLR h, {values};"),
        [0x3555, 0xB556, 0x7BFF, 0],
    );
    check_f16(
        &format!("CVT.F16.F32.TRUNC h, {values};"),
        [0x3555, 0xB555, 0x7BFF, 0],
    );
    // SAT and SSAT clamp before the rounding: 1.5 -> 1.0 (0x3C00), -0.25
    // -> 0 or -0.25 (0xB400), 0.5 (0x3800), -2 -> -1.0 (0xBC00) with SSAT;
    // 70000 would overflow, clamped it is 1.0.
    check_f16(
        "CVT.F16.F32.SAT h, {1.5, -0.25, 0.5, 70000};",
        [0x3C00, 0, 0x3800, 0x3C00],
    );
    check_f16(
        "CVT.F16.F32.SSAT h, {1.5, -0.25, -2, 70000};",
        [0x3C00, 0xB400, 0xBC00, 0x3C00],
    );
    // Integers: -3 = -1.5 * 2^1 (0xC200); 65519 is below the 65520 tie
    // (0x7BFF); 70000 overflows; 2049 is the tie between 2048 (0x6800,
    // even) and 2050 (f16 spacing 2 above 2048).
    check_f16(
        "INT TEMP i;\nMOV.S i, {-3, 65519, 70000, 2049};\nCVT.F16.S32 h, i;",
        [0xC200, 0x7BFF, 0x7C00, 0x6800],
    );
    // F64 1 + 2^-11 + 2^-40 is just above the midpoint of 1.0 (0x3C00) and
    // 1 + 2^-10 (0x3C01): rounded once it is 0x3C01; through an f32 (which
    // drops the 2^-40) it would be the tie, to even 0x3C00.
    check_f16(
        "ADD.F64 d, {1.00048828125, 1.00048828125, -1.00048828125, -1.00048828125}, {TINY, TINY, -TINY, -TINY};\nCVT.F16.F64 h, d;",
        [0x3C01, 0x3C01, 0xBC01, 0xBC01],
    );
}

#[test]
fn cvt_from_f16_reads_the_low_16_bits_exactly() {
    // 0x3555 = +1.0101010101b * 2^-2 = 1365/4096 (f32 exponent 125,
    // mantissa 0x155 << 13); 0xC000 = -2; 0x7BFF = 65504; 0x0001 = 2^-24
    // (a denormal: 0x33800000 as an f32). The high 16 bits are ignored.
    check(
        "FLOAT",
        "TEMP h;\nMOV.U h, {13653, 49152, 31743, 65537};\nCVT.F32.F16 o, h;",
        [0; 4],
        [0x3EAA_A000, 0xC000_0000, 0x477F_E000, 0x3380_0000],
    );
    // F16 to S32 rounds as CVT from any float: -2.5 (0xC100) by FLR is -3,
    // 1.5 (0x3E00) by CEIL 2.
    check(
        "INT",
        "TEMP h;\nMOV.U h, {49408, 15872, 49408, 15872};\nCVT.S32.F16.FLR o.xy, h;\nCVT.S32.F16.CEIL o.zw, h;",
        [0; 4],
        [(-3i32) as u32, 1, (-2i32) as u32, 2],
    );
}

#[test]
fn long_vertex_attributes_read_64_bit_components_from_two_locations() {
    // NV_gpu_program5 2.X.3.1: a LONG ATTRIB of a vertex program has 64-bit
    // components; docs/interface.md, "64-bit vertex attributes": each is
    // two R32G32B32A32_UINT Locations, n (x, y) and n + 1 (z, w), low word
    // first.
    //
    // d = (1 + 2^-40, 2^40 + 0.5, -3, 0.25) as f64: 1 + 2^-40 is
    // 0x3ff00000_00001000 (2^-40 is mantissa bit 52 - 40 = 12), 2^40 + 0.5
    // is 0x42700000_00000800 (exponent 1023 + 40 = 0x427, 0.5 = 2^-41 of
    // 2^40 is bit 11), -3 is 0xc0080000_00000000, 0.25 0x3fd00000_00000000.
    // d - (1, 2^40, 0, 0) = (2^-40, 0.5, -3, 0.25), each an f32 exactly
    // (an f32 input could not have held either fraction).
    //
    // u = (2^33 - 1, 2^63, 5, 2^64 - 1) as u64; u + 1 = (2^33, 2^63 + 1, 6,
    // 0): the carry crosses into the high word and the last one wraps
    // (2.X.4.1). UP64 of (x, y) gives (lo x, hi x, lo y, hi y) = (0, 2, 1,
    // 0x80000000); of (z, w): (6, 0, 0, 0).
    let src = "!!NVvp5.0\n\
               LONG ATTRIB d = vertex.attrib[1];\n\
               LONG ATTRIB u = vertex.attrib[4];\n\
               LONG TEMP e;\n\
               UINT OUTPUT xy = result.attrib[1];\n\
               UINT OUTPUT zw = result.attrib[2];\n\
               MOV result.position, {0, 0, 0, 1};\n\
               SUB.F64 result.attrib[0], d, {1, 1099511627776, 0, 0};\n\
               ADD.U64 e, u, {1, 1, 1, 1};\n\
               UP64.U xy, e.xyxy;\n\
               UP64.U zw, e.zwzw;\n\
               END\n";
    let d: [u64; 4] = [
        0x3ff0_0000_0000_1000,
        0x4270_0000_0000_0800,
        0xc008_0000_0000_0000,
        0x3fd0_0000_0000_0000,
    ];
    let u: [u64; 4] = [(1 << 33) - 1, 1 << 63, 5, u64::MAX];
    let want_f = [F_2M40, F_HALF, 0xc040_0000, F_QUARTER];
    let want_xy = [0, 2, 1, 0x8000_0000];
    let want_zw = [6, 0, 0, 0];
    // The interpreter.
    let (program, _) = nvp4c::check(src, &nvp4c::Options::default())
        .unwrap_or_else(|d| panic!("{}", d.render("t.vp", src, false)));
    let mut inputs = nvp4c::interp::Inputs::default();
    inputs.attribs64.insert("vertex.attrib[1]".into(), d);
    inputs.attribs64.insert("vertex.attrib[4]".into(), u);
    let out = nvp4c::interp::run(&program, &inputs, &Default::default()).unwrap();
    for (name, want) in [
        ("result.attrib[0]", want_f),
        ("result.attrib[1]", want_xy),
        ("result.attrib[2]", want_zw),
    ] {
        let r = out.result(name).unwrap();
        assert_eq!((r.bits, r.undefined), (want, 0), "interpreter: {name}");
    }
    // The device: the words of each 64-bit pair, low first, at n and n + 1.
    let words = |v: [u64; 4], k: usize| {
        let (a, b) = (v[2 * k], v[2 * k + 1]);
        [a as u32, (a >> 32) as u32, b as u32, (b >> 32) as u32]
    };
    let compiled = nvp4c::compile(src, &nvp4c::Options::default()).unwrap();
    let inputs_of = |r: &nvp4c::reflect::Reflection| -> Vec<(u32, Option<u32>, String)> {
        r.inputs
            .iter()
            .map(|i| {
                (
                    i.location.unwrap_or(u32::MAX),
                    i.array_length,
                    i.vertex_format.clone().unwrap_or_default(),
                )
            })
            .collect()
    };
    // Reflection names the format of each Location.
    let uint4 = "R32G32B32A32_UINT".to_string();
    assert_eq!(
        inputs_of(&compiled.reflection),
        [(1, Some(2), uint4.clone()), (4, Some(2), uint4)]
    );
    let Some(device) = harness::device_or_skip() else {
        return;
    };
    let job = VertexJob::new(
        vec![vec![
            Input::uint(1, words(d, 0)),
            Input::uint(2, words(d, 1)),
            Input::uint(4, words(u, 0)),
            Input::uint(5, words(u, 1)),
        ]],
        vec![
            Capture::Location(14),
            Capture::Location(15),
            Capture::Location(16),
        ],
    );
    let got = device
        .run_vertex(&compiled.spirv, &job)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(got.location(0, 14), want_f, "device: result.attrib[0]");
    assert_eq!(got.location(0, 15), want_xy, "device: result.attrib[1]");
    assert_eq!(got.location(0, 16), want_zw, "device: result.attrib[2]");
}

/// REP.S64, REP.U64 and REP.F64 (Table X.13: "6") with the count in a
/// 32-bit register: "Operands represented with fewer bits than used to
/// perform the instruction will be promoted" (section 2.X.4.1), which
/// keeps the value, so each loops as the 32-bit REP does: a.x = 3 times,
/// a.y = 0 times, floor(2.5) = 2 times; and -1 (signed) not at all.
#[test]
fn rep_with_a_64_bit_count_of_a_32_bit_register_loops_its_value_times() {
    check(
        "UINT",
        "UINT TEMP n;\nINT TEMP s;\nFLOAT TEMP x;\nMOV.U n, 0;\nREP.U64 a.x;\nADD.U n.x, n.x, 1;\nENDREP;\nREP.U64 a.y;\nADD.U n.y, n.y, 1;\nENDREP;\nMOV.F x.x, 2.5;\nREP.F64 x.x;\nADD.U n.z, n.z, 1;\nENDREP;\nMOV.S s.x, -1;\nREP.S64 s.x;\nADD.U n.w, n.w, 1;\nENDREP;\nMOV.U o, n;",
        [3, 0, 0, 0],
        [3, 0, 2, 0],
    );
}

/// `.CC` on a 64-bit result sets the flags of the 64-bit value: ZF from
/// all 64 bits, SF from bit 63, CF and OF from the 64-bit add (section
/// 2.X.4.3 on the value of NV_gpu_program5 2.X.4.1's 64-bit operation;
/// docs/semantics.md, "Condition codes of 64-bit and F16 results"). With
/// a = (0, 1, 0x80000000, 0x40000000), PK64 gives d.x = 2^32 and d.y =
/// 0x40000000_80000000. d.x is not zero though its low word is (NE: 1);
/// d.y is positive though its low word is negative (GE: 2); d.y + d.y =
/// 0x80000001_00000000 overflows as S64 without a carry out of bit 63,
/// while the low words' add would carry (NCF: 3, OF: 4).
#[test]
fn condition_codes_of_64_bit_results_are_the_flags_of_the_64_bit_value() {
    check(
        "UINT",
        "PK64.U d, a;\nMOV.U o, 0;\nMOV.U64.CC e, d;\nMOV.U o.x (NE.x), 1;\nMOV.U o.y (GE.y), 2;\nADD.S64.CC e, d, d;\nMOV.U o.z (NCF.y), 3;\nMOV.U o.w (OF.y), 4;",
        [0, 1, 0x8000_0000, 0x4000_0000],
        [1, 2, 3, 4],
    );
}

/// The 64-bit carry and borrow, and a float below f32's range: d.x =
/// 2^32 - 1 + 1 = 2^32 carries into the high word, not out of bit 63
/// (NCF: 1), while 2^64 - 1 + 1 carries out (CF: 2); SUB.U64 2^32 - 1
/// is a subtract without borrow (CF set: 3); (2^-40)^5 = 2^-200 is not
/// zero as an f64 though it is as an f32 (NE: 4).
#[test]
fn carry_borrow_and_zero_of_64_bit_results() {
    check(
        "UINT",
        "PK64.U d, a;\nMOV.U o, 0;\nADD.U64.CC e.x, d.x, 1;\nMOV.U o.x (NCF.x), 1;\nADD.U64.CC e.y, d.y, 1;\nMOV.U o.y (CF.y), 2;\nSUB.U64.CC e.z, d.x, 1;\nMOV.U o.z (CF.z), 3;\nMUL.F64 f, {TINY, TINY, TINY, TINY}, {TINY, TINY, TINY, TINY};\nMUL.F64 f, f, f;\nMUL.F64.CC f.w, f, {TINY, TINY, TINY, TINY};\nMOV.U o.w (NE.w), 4;",
        [0xffff_ffff, 0, 0xffff_ffff, 0xffff_ffff],
        [1, 2, 3, 4],
    );
}

/// CVT's F16 result sets the flags of the 16-bit float it encodes, not of
/// the register's bits read as an f32 (0x0000b800 is a positive
/// denormal): -0.5 is negative (LT: 1), 0 is zero (EQ: 2), 2.0 is
/// positive (GT: 3); the encodings are written as well (0xb800 in w).
#[test]
fn cvt_to_f16_sets_the_flags_of_the_16_bit_value() {
    check(
        "UINT",
        "TEMP h;\nMOV.U o, 0;\nCVT.F16.F32.CC h, {-0.5, 0, 2, -0.5};\nMOV.U o.x (LT.x), 1;\nMOV.U o.y (EQ.y), 2;\nMOV.U o.z (GT.z), 3;\nMOV.U o.w, h.w;",
        [0; 4],
        [1, 2, 3, 0xb800],
    );
}

/// An F16 result in a LONG register is its encoding in the low 16 bits of
/// the 64-bit component, the other 48 bits zero (2.X.8.Z, CVT: "sixteen
/// least significant bits describe a 16-bit floating-point value";
/// docs/semantics.md): -0.5 is 0xb800, 2.0 is 0x4000 — not the f64 -0.5
/// (0xbfe00000_00000000) a conversion to the register's size would give.
#[test]
fn cvt_to_f16_in_a_long_register_writes_the_low_16_bits() {
    check(
        "UINT",
        "CVT.F16.F32 d, {-0.5, 2, 0, -0.5};\nUP64.U o, d;",
        [0; 4],
        [0xb800, 0, 0x4000, 0],
    );
}

/// ... and sets the flags of that 16-bit float, not of the 64-bit bits
/// read as an f64 (a positive denormal for every negative F16).
#[test]
fn cvt_to_f16_in_a_long_register_sets_the_flags_of_the_16_bit_value() {
    check(
        "UINT",
        "CVT.F16.F32.CC d, {-0.5, 0, 2, -0.5};\nMOV.U o, 0;\nMOV.U o.x (LT.x), 1;\nMOV.U o.y (EQ.y), 2;\nMOV.U o.z (GT.z), 3;",
        [0; 4],
        [1, 2, 3, 0],
    );
}

/// An F16 operand in a LONG register is the low 16 bits of its 64-bit
/// component, whatever the high 48 are: 0xffff0000_00003e00 is 1.5 and
/// 0x12345678_ffffbc00 is -1.0 (as f64s both would be NaN or garbage).
#[test]
fn cvt_from_f16_in_a_long_register_reads_the_low_16_bits() {
    check(
        "UINT",
        "TEMP g;\nPK64.U d, a;\nCVT.F32.F16 g.xy, d;\nMOV.U o, 0;\nMOV.U o.xy, g;",
        [0x3e00, 0xffff_0000, 0xffff_bc00, 0x1234_5678],
        [F_ONE_AND_HALF, F_NEG_ONE, 0, 0],
    );
}

/// REP.S64/U64/F64 of a LONG register counts at 64 bits (Table X.13: REP
/// takes the 64-bit modifiers): d.x = 3 loops 3 times; d.y =
/// 0xffffffff_00000002 is negative as an S64, so the block is skipped
/// though its low word, 2, is positive; e.x = 2.5 as an f64 loops
/// floor(2.5) = 2 times; REP.U64 d.x 3 times again.
#[test]
fn rep_with_a_64_bit_count_of_a_long_register_counts_at_64_bits() {
    check(
        "UINT",
        "UINT TEMP n;\nPK64.U d, a;\nMOV.U n, 0;\nREP.S64 d.x;\nADD.U n.x, n.x, 1;\nENDREP;\nREP.S64 d.y;\nADD.U n.y, n.y, 1;\nENDREP;\nMOV.F64 e.x, 2.5;\nREP.F64 e.x;\nADD.U n.z, n.z, 1;\nENDREP;\nREP.U64 d.x;\nADD.U n.w, n.w, 1;\nENDREP;\nMOV.U o, n;",
        [3, 0, 2, 0xffff_ffff],
        [3, 0, 2, 3],
    );
}
