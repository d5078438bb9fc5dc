//! Reference interpreter: ALU instructions, operand modifiers, clamping,
//! condition codes. Every expected value is computed by hand from the
//! pseudocode of NV_gpu_program4 section 2.X.8 (or the section named in
//! the comment), not by running another implementation.

use nvp4c::interp::{self, floats, ints, Inputs, Outcome, RunOptions};
use nvp4c::isa::CcFlags;

fn run(src: &str, inputs: &Inputs) -> Outcome {
    let (p, _) = nvp4c::check(src, &nvp4c::Options::default())
        .unwrap_or_else(|d| panic!("{}", d.render("test", src, false)));
    let mut o = RunOptions::default();
    o.trace = true;
    interp::run(&p, inputs, &o).unwrap_or_else(|e| panic!("{e}"))
}

/// A fragment program around `body`, with program.local[i] = `locals[i]`.
fn frag(body: &str, locals: &[[u32; 4]]) -> Outcome {
    let src = format!("!!NVfp4.0\nOPTION ARB_draw_buffers;\n{body}\nEND\n");
    let mut inputs = Inputs::default();
    for (i, v) in locals.iter().enumerate() {
        inputs.local.insert(i as u32, *v);
    }
    run(&src, &inputs)
}

fn out(o: &Outcome, name: &str) -> [u32; 4] {
    o.results
        .get(name)
        .unwrap_or_else(|| panic!("no {name} in {:?}", o.results.keys()))
        .bits
}

fn color(o: &Outcome) -> [u32; 4] {
    out(o, "result.color")
}

fn color_f(o: &Outcome) -> [f32; 4] {
    color(o).map(f32::from_bits)
}

fn color_i(o: &Outcome) -> [i32; 4] {
    color(o).map(|b| b as i32)
}

/// Flags as "SZOC" letters, `-` for a clear flag.
fn flag_str(f: CcFlags) -> String {
    [(f.sf, 'S'), (f.zf, 'Z'), (f.of, 'O'), (f.cf, 'C')]
        .iter()
        .map(|&(b, c)| if b { c } else { '-' })
        .collect()
}

/// The condition code flags after the `n`th executed statement.
fn cc_after(o: &Outcome, n: usize) -> Vec<String> {
    let cc = o.trace[n].cc.as_ref().expect("a CC update");
    cc.flags.iter().map(|f| flag_str(*f)).collect()
}

// ---------------------------------------------------------------- operands

#[test]
fn operand_load_is_swizzle_negate_abs_then_outer_negate() {
    // Section 2.X.4.2. c = (1, -2, 3, -4); .yxwz -> (-2, 1, -4, 3);
    // negate -> (2, -1, 4, -3); |..| -> (2, 1, 4, 3); outer - -> (-2, -1, -4, -3).
    let o = frag(
        "MOV result.color, -|-program.local[0].yxwz|;",
        &[floats([1.0, -2.0, 3.0, -4.0])],
    );
    assert_eq!(color_f(&o), [-2.0, -1.0, -4.0, -3.0]);
    // Without the inner negate: |(-2, 1, -4, 3)| = (2, 1, 4, 3).
    let o = frag(
        "MOV result.color, |program.local[0].yxwz|;",
        &[floats([1.0, -2.0, 3.0, -4.0])],
    );
    assert_eq!(color_f(&o), [2.0, 1.0, 4.0, 3.0]);
    // A one-component suffix replicates: .z -> (3, 3, 3, 3).
    let o = frag(
        "MOV result.color, -program.local[0].z;",
        &[floats([1.0, -2.0, 3.0, -4.0])],
    );
    assert_eq!(color_f(&o), [-3.0; 4]);
}

#[test]
fn integer_negation_is_twos_complement_and_unsigned_abs_does_nothing() {
    // Section 2.X.4.2: "For unsigned integer operands, the negate operand
    // performs a two's complement operation" and "the absolute value
    // operation has no effect". -5 as unsigned is 2^32 - 5 = 0xfffffffb.
    let o = frag(
        "MOV.U result.color, |-program.local[0]|;",
        &[[5, 0, 1, 0x8000_0000]],
    );
    assert_eq!(color(&o), [0xffff_fffb, 0, 0xffff_ffff, 0x8000_0000]);
    // Issue 22: |-2^31| and -(-2^31) are -2^31 for signed integers.
    let o = frag(
        "ABS.S result.color.xy, program.local[0];\nMOV.S result.color.zw, -program.local[0];",
        &[ints([i32::MIN, -7, i32::MIN, 7])],
    );
    assert_eq!(color_i(&o), [i32::MIN, 7, i32::MIN, -7]);
}

#[test]
fn constants_are_typed_by_their_use_or_declaration() {
    // Section 2.X.3.3: a constant used directly is read with the operand's
    // type; one in a PARAM declaration without a type is floating-point.
    let o = frag(
        "PARAM p = {1, 2, 3, 4};\nMOV.S result.color.xy, {1, 2, 3, 4};\nMOV.S result.color.zw, p;",
        &[],
    );
    assert_eq!(color(&o), [1, 2, 0x4040_0000, 0x4080_0000]);
    // {1, 2} fills in z = 0, w = 1.
    let o = frag("MOV result.color, {1, 2};", &[]);
    assert_eq!(color_f(&o), [1.0, 2.0, 0.0, 1.0]);
}

#[test]
fn write_mask_leaves_other_components_unwritten() {
    let o = frag("MOV result.color.yw, {1, 2, 3, 4};", &[]);
    let r = &o.results["result.color"];
    assert_eq!(r.written, 0b1010);
    assert_eq!(r.bits[1], 2.0f32.to_bits());
    assert_eq!(r.bits[3], 4.0f32.to_bits());
    // Unwritten result components are undefined (section 2.X.3.5).
    assert_eq!(r.undefined, 0b0101);
    assert_eq!(r.defined(), 0b1010);
}

// ---------------------------------------------------------------- clamping

#[test]
fn sat_and_ssat_clamp_float_results() {
    // Section 2.X.4.1: SAT clamps to [0,1], SSAT to [-1,1].
    let c = floats([0.75, -0.5, 3.0, -3.0]);
    let o = frag("MOV.SAT result.color, program.local[0];", &[c]);
    assert_eq!(color_f(&o), [0.75, 0.0, 1.0, 0.0]);
    let o = frag("MOV_SSAT result.color, program.local[0];", &[c]);
    assert_eq!(color_f(&o), [0.75, -0.5, 1.0, -1.0]);
    // The condition code sees the clamped value: 3 - 3 = 0 is not what
    // sets ZF; 0.75 + 0.75 = 1.5 clamps to 1, -0.5 + -0.5 = -1 clamps to 0,
    // so CC0.y gets ZF and not SF.
    let o = frag(
        "ADDC_SAT result.color, program.local[0], program.local[0];",
        &[c],
    );
    assert_eq!(cc_after(&o, 0), ["----", "-Z--", "----", "-Z--"]);
    // Clamping a NaN is not defined by section 2.X.4.1: flagged.
    let o = frag(
        "MOV_SAT result.color, program.local[0];",
        &[floats([f32::NAN, 0.5, 0.5, 0.5])],
    );
    assert_eq!(o.results["result.color"].undefined, 0b0001);
    assert_eq!(color_f(&o), [0.0, 0.5, 0.5, 0.5]);
}

// ---------------------------------------------------------------- condition codes

#[test]
fn float_condition_codes() {
    // Section 2.X.4.3: SF if < 0 or NaN, ZF if == 0 or NaN; OF and CF clear.
    let o = frag(
        "MOV.CC result.color, program.local[0];",
        &[floats([-1.0, 0.0, 2.0, f32::NAN])],
    );
    assert_eq!(cc_after(&o, 0), ["S---", "-Z--", "----", "SZ--"]);
    // -0.0 is zero, not negative.
    let o = frag(
        "MOV.CC1 result.color, -program.local[0];",
        &[floats([0.0; 4])],
    );
    assert_eq!(cc_after(&o, 0), ["-Z--"; 4]);
    assert_eq!(o.trace[0].cc.as_ref().unwrap().reg.0, 1);
}

#[test]
fn condition_code_tests_of_table_x16_mask_writes() {
    // CC0 from (-1, 0, 2, NaN); each MOV writes 1.0 where its test holds.
    // EQ: !SF && ZF -> (0,1,0,0); GT: (!SF ^ OF) && !ZF -> (0,0,1,0);
    // LE: SF ^ (ZF || OF) -> (1,1,0,0) (NaN: 1 ^ 1 = 0);
    // NE: SF || !ZF -> (1,0,1,1); NAN: SF && ZF -> (0,0,0,1);
    // LEG: !SF || !ZF -> (1,1,1,0).
    let body = "TEMP t;\nMOV.CC t, program.local[0];\n\
        MOV result.color, 0;\nMOV result.color (EQ), 1;\n\
        MOV result.color[1], 0;\nMOV result.color[1] (GT), 1;\n\
        MOV result.color[2], 0;\nMOV result.color[2] (LE), 1;\n\
        MOV result.color[3], 0;\nMOV result.color[3] (NE), 1;\n\
        MOV result.color[4], 0;\nMOV result.color[4] (NAN), 1;\n\
        MOV result.color[5], 0;\nMOV result.color[5] (LEG), 1;";
    let o = frag(body, &[floats([-1.0, 0.0, 2.0, f32::NAN])]);
    let f = |n: &str| out(&o, n).map(f32::from_bits);
    assert_eq!(f("result.color"), [0.0, 1.0, 0.0, 0.0]);
    assert_eq!(f("result.color[1]"), [0.0, 0.0, 1.0, 0.0]);
    assert_eq!(f("result.color[2]"), [1.0, 1.0, 0.0, 0.0]);
    assert_eq!(f("result.color[3]"), [1.0, 0.0, 1.0, 1.0]);
    assert_eq!(f("result.color[4]"), [0.0, 0.0, 0.0, 1.0]);
    assert_eq!(f("result.color[5]"), [1.0, 1.0, 1.0, 0.0]);
}

#[test]
fn cc_mask_swizzle_and_write_mask_combine_and_limit_the_cc_update() {
    // CC0 = (-1, 1, -1, 1) flags. The mask test GT.yxwz = (T, F, T, F)
    // after swizzle ((GT of 1, -1, 1, -1)); with write mask .xyz only x and
    // z are written. The second instruction's CC update touches exactly
    // those components.
    let o = frag(
        "TEMP t;\nMOV.CC t, program.local[0];\n\
         MOV result.color, 0;\n\
         MOV.CC result.color.xyz (GT.yxwz), program.local[1];",
        &[floats([-1.0, 1.0, -1.0, 1.0]), floats([5.0, 6.0, 0.0, 8.0])],
    );
    assert_eq!(color_f(&o), [5.0, 0.0, 0.0, 0.0]);
    let w = o.trace[2].write.as_ref().unwrap();
    assert_eq!(w.mask, 0b0101);
    let cc = o.trace[2].cc.as_ref().unwrap();
    assert_eq!(cc.mask, 0b0101);
    // x: 5 -> no flags; z: 0 -> ZF. y and w keep the flags the first MOV
    // gave them (1.0: no flags).
    assert_eq!(cc_after(&o, 2), ["----", "----", "-Z--", "----"]);
}

#[test]
fn integer_add_sets_overflow_and_carry() {
    // Section 2.X.4.3. x: 0x7fffffff + 1 = 0x80000000, signed overflow, no
    // carry. y: 0xffffffff + 1 = 0, carry, no signed overflow (-1 + 1).
    // z: 1 + 2 = 3, nothing. w: 0x80000000 + 0x80000000 = 0, both.
    let o = frag(
        "ADD.U.CC result.color, program.local[0], program.local[1];",
        &[
            [0x7fff_ffff, 0xffff_ffff, 1, 0x8000_0000],
            [1, 1, 2, 0x8000_0000],
        ],
    );
    assert_eq!(color(&o), [0x8000_0000, 0, 3, 0]);
    assert_eq!(cc_after(&o, 0), ["S-O-", "-Z-C", "----", "-ZOC"]);
}

#[test]
fn integer_subtract_carry_means_no_borrow() {
    // "If the result of a subtract is greater than or equal to zero, the
    // carry flag is set." x: 5 - 3: CF. y: 3 - 5: no CF, SF (0xfffffffe).
    // z: 4 - 4 = 0: ZF, CF. w: 0x80000000 - 1 = 0x7fffffff: signed
    // overflow (-2^31 - 1), CF.
    let o = frag(
        "SUB.S.CC result.color, program.local[0], program.local[1];",
        &[[5, 3, 4, 0x8000_0000], [3, 5, 4, 1]],
    );
    assert_eq!(cc_after(&o, 0), ["---C", "S---", "-Z-C", "--OC"]);
}

#[test]
fn negation_turns_add_into_subtract_for_the_flags() {
    // "For the purposes of condition code setting, negation modifiers turn
    // add operations into subtracts and vice versa."
    // x: ADD 5, -0 is the subtract 5 - 0 >= 0: CF set (a plain add of 5 + 0
    // would not carry).
    // y: ADD 0, -(0x80000000) is 0 - (-2^31) = 2^31: signed overflow.
    // z: ADD -0, 5 is the subtract 5 - 0: CF set again.
    let o = frag(
        "ADD.S.CC result.color.xy, program.local[0], -program.local[1];\n\
         ADD.S.CC result.color.z, -program.local[1], program.local[0];",
        &[[5, 0, 5, 0], [0, 0x8000_0000, 0, 0]],
    );
    assert_eq!(color_i(&o)[..3], [5, i32::MIN, 5]);
    assert_eq!(cc_after(&o, 0)[..2], ["---C", "S-O-"]);
    assert_eq!(cc_after(&o, 1)[2], "---C");
    // SUB with a negated operand is an add: 0xffffffff - (-1) as the add
    // 0xffffffff + 1 carries and is zero.
    let o = frag(
        "SUB.U.CC result.color, program.local[0], -program.local[1];",
        &[[0xffff_ffff; 4], [1; 4]],
    );
    assert_eq!(color(&o), [0; 4]);
    assert_eq!(cc_after(&o, 0)[0], "-Z-C");
}

#[test]
fn minus_a_minus_b_leaves_carry_and_overflow_undefined() {
    // "If the operation is equivalent to an add with both operands negated
    // (-A-B), the carry and overflow flags are both undefined": a CF test
    // on it is an undefined branch.
    let src = "!!NVfp4.0\nTEMP t;\nADD.S.CC t, -program.local[0], -program.local[0];\n\
               IF CF.x;\nMOV result.color, 1;\nENDIF;\nIF EQ.x;\nMOV result.color, 2;\nENDIF;\nEND\n";
    let o = run(src, &Inputs::default());
    assert_eq!(o.undefined.len(), 1, "{:?}", o.undefined);
    assert!(o.undefined[0].what.contains("CF"));
    // EQ reads only SF and ZF, which are defined: 0 + 0 = 0, so taken.
    assert_eq!(o.results["result.color"].floats(), [2.0; 4]);
}

#[test]
fn mad_and_sad_set_add_flags_mul_clears_them() {
    // MAD.U: 0xffffffff * 1 + 1 = 0 with carry. SAD.U: |2 - 7| + 0xfffffffb
    // = 5 + (2^32 - 5) = 0 with carry. MUL.S: 0x10000 * 0x10000 = 2^32
    // wraps to 0, but "the overflow or carry flags are always cleared".
    let o = frag(
        "MAD.U.CC result.color.x, program.local[0], 1, 1;\n\
         SAD.U.CC result.color.y, 2, 7, program.local[0].y;\n\
         MUL.S.CC result.color.z, program.local[0].z, program.local[0].z;",
        &[[0xffff_ffff, 0xffff_fffb, 0x10000, 0]],
    );
    assert_eq!(color(&o)[..3], [0, 0, 0]);
    assert_eq!(cc_after(&o, 0)[0], "-Z-C");
    assert_eq!(cc_after(&o, 1)[1], "-Z-C");
    assert_eq!(cc_after(&o, 2)[2], "-Z--");
}

#[test]
fn integer_cc_sign_is_the_msb_even_for_unsigned() {
    // Issue 23: very large unsigned values set SF. SEQ.U true is all ones.
    let o = frag(
        "SEQ.U.CC result.color, program.local[0], program.local[1];",
        &[[1, 2, 3, 4], [1, 0, 3, 0]],
    );
    assert_eq!(color(&o), [u32::MAX, 0, u32::MAX, 0]);
    assert_eq!(cc_after(&o, 0), ["S---", "-Z--", "S---", "-Z--"]);
}

// ---------------------------------------------------------------- arithmetic

#[test]
fn float_arithmetic() {
    let a = floats([1.5, -2.0, 0.25, 8.0]);
    let b = floats([2.0, 3.0, -4.0, 0.5]);
    let o = frag(
        "ADD result.color[0], program.local[0], program.local[1];\n\
         SUB result.color[1], program.local[0], program.local[1];\n\
         MUL result.color[2], program.local[0], program.local[1];\n\
         MAD result.color[3], program.local[0], program.local[1], 1;\n\
         DIV result.color[4], program.local[0], program.local[1].w;\n\
         MIN result.color[5], program.local[0], program.local[1];\n\
         MAX result.color[6], program.local[0], program.local[1];\n\
         ABS result.color[7], program.local[1];",
        &[a, b],
    );
    let f = |n: &str| out(&o, n).map(f32::from_bits);
    assert_eq!(f("result.color"), [3.5, 1.0, -3.75, 8.5]);
    assert_eq!(f("result.color[1]"), [-0.5, -5.0, 4.25, 7.5]);
    assert_eq!(f("result.color[2]"), [3.0, -6.0, -1.0, 4.0]);
    assert_eq!(f("result.color[3]"), [4.0, -5.0, 0.0, 5.0]);
    assert_eq!(f("result.color[4]"), [3.0, -4.0, 0.5, 16.0]);
    assert_eq!(f("result.color[5]"), [1.5, -2.0, -4.0, 0.5]);
    assert_eq!(f("result.color[6]"), [2.0, 3.0, 0.25, 8.0]);
    assert_eq!(f("result.color[7]"), [2.0, 3.0, 4.0, 0.5]);
}

#[test]
fn integer_arithmetic() {
    let o = frag(
        "DIV.S result.color[0], program.local[0], program.local[1].x;\n\
         MOD.U result.color[1], program.local[2], program.local[1].x;\n\
         SHR.S result.color[2], program.local[0], {1}.x;\n\
         SHR.U result.color[3], program.local[0], {1}.x;\n\
         SHL.S result.color[4], 1, program.local[3].x;\n\
         AND result.color[5].x, 12, 10;\nOR result.color[5].y, 12, 10;\n\
         XOR result.color[5].z, 12, 10;\nNOT result.color[5].w, 12;",
        &[
            ints([7, -7, 8, -8]),
            ints([2, 0, 0, 0]),
            [7, 8, 9, 10],
            [31, 0, 0, 0],
        ],
    );
    // DIV.S truncates: 7/2 = 3, -7/2 = -3.
    assert_eq!(out(&o, "result.color").map(|b| b as i32), [3, -3, 4, -4]);
    assert_eq!(out(&o, "result.color[1]"), [1, 0, 1, 0]);
    // SHR.S fills with the sign, SHR.U with zeros.
    assert_eq!(out(&o, "result.color[2]").map(|b| b as i32), [3, -4, 4, -4]);
    assert_eq!(out(&o, "result.color[3]"), [3, 0x7fff_fffc, 4, 0x7fff_fffc]);
    assert_eq!(out(&o, "result.color[4]"), [0x8000_0000; 4]);
    // AND/OR/XOR/NOT default to signed (the bits are the same).
    assert_eq!(out(&o, "result.color[5]"), [8, 14, 6, !12u32]);
}

#[test]
fn integer_results_the_spec_leaves_undefined_are_flagged() {
    // Division by zero, a shift by 32, MOD of a negative value.
    let o = frag(
        "DIV.U result.color.x, 1, program.local[0].x;\n\
         SHL.U result.color.y, 1, program.local[0].y;\n\
         MOD.S result.color.z, program.local[0].z, {3}.x;\n\
         ADD.U result.color.w, 1, 1;",
        &[[0, 32, (-4i32) as u32, 0]],
    );
    let r = &o.results["result.color"];
    assert_eq!(r.written, 0xf);
    assert_eq!(r.undefined, 0b0111);
    assert_eq!(r.bits[3], 2);
}

#[test]
fn mul_s24_u24_hi() {
    // HI: the 32 most significant bits of the 64-bit product.
    // S: 2^30 * 4 = 2^32 -> 1; -1 * 1 = -1 -> 0xffffffff (sign).
    // U: 0xffffffff^2 = 0xfffffffe_00000001 -> 0xfffffffe.
    let o = frag(
        "MUL.S.HI result.color.xy, program.local[0], program.local[1];\n\
         MUL.U.HI result.color.z, program.local[0].z, program.local[0].z;\n\
         MUL.S24 result.color.w, program.local[1].z, program.local[1].w;",
        &[
            [0x4000_0000, 0xffff_ffff, 0xffff_ffff, 0],
            ints([4, 1, -3, 1000]),
        ],
    );
    assert_eq!(color(&o), [1, 0xffff_ffff, 0xffff_fffe, (-3000i32) as u32]);
    // U24 with an operand >= 2^24 is undefined.
    let o = frag(
        "MUL.U24 result.color, program.local[0], 2;",
        &[[1 << 24, 5, 0, 0]],
    );
    assert_eq!(o.results["result.color"].undefined, 0b0001);
    assert_eq!(color(&o)[1], 10);
}

#[test]
fn rounding_instructions() {
    let v = floats([-1.7, 2.5, -1.5, 3.7]);
    let o = frag(
        "FLR result.color[0], program.local[0];\n\
         CEIL result.color[1], program.local[0];\n\
         TRUNC result.color[2], program.local[0];\n\
         ROUND result.color[3], program.local[0];\n\
         FRC result.color[4], program.local[0];\n\
         FLR.S result.color[5], program.local[0];",
        &[v],
    );
    let f = |n: &str| out(&o, n).map(f32::from_bits);
    assert_eq!(f("result.color"), [-2.0, 2.0, -2.0, 3.0]);
    assert_eq!(f("result.color[1]"), [-1.0, 3.0, -1.0, 4.0]);
    assert_eq!(f("result.color[2]"), [-1.0, 2.0, -1.0, 3.0]);
    // "If the fractional portion of the operand is 0.5, round() selects the
    // nearest even integer": 2.5 -> 2, -1.5 -> -2.
    assert_eq!(f("result.color[3]"), [-2.0, 2.0, -2.0, 4.0]);
    // FRC(-1.7) = -1.7 - (-2) (the spec's 0.3, as f32 arithmetic gives it).
    let frc = f("result.color[4]");
    assert_eq!(frc[0], -1.7f32 - -2.0f32);
    assert_eq!(frc[1..], [0.5, 0.5, 3.7f32 - 3.0f32]);
    // FLR.S writes signed integers.
    assert_eq!(out(&o, "result.color[5]").map(|b| b as i32), [-2, 2, -2, 3]);
}

#[test]
fn frc_stays_below_one_and_unrepresentable_conversions_are_undefined() {
    // FRC: "always in the range [0.0, 1.0)". -1e-10 - floor(-1e-10) rounds
    // to 1.0 in f32; the result is the largest float below 1.
    let o = frag(
        "FRC result.color, program.local[0];",
        &[floats([-1e-10, 0.0, 0.0, 0.0])],
    );
    assert_eq!(color_f(&o)[0], 1.0f32.next_down());
    // FLR.U of -1: "writing a negative value to an unsigned integer" is
    // undefined; ROUND.S of 3e9 overflows.
    let o = frag(
        "FLR.U result.color.x, program.local[0].x;\nROUND.S result.color.y, program.local[0].y;\n\
         FLR.U result.color.zw, program.local[0].z;",
        &[floats([-1.0, 3e9, 5.5, 0.0])],
    );
    assert_eq!(o.results["result.color"].undefined, 0b0011);
    assert_eq!(color(&o)[2], 5);
}

#[test]
fn set_on_instructions_per_type() {
    // Float TRUE is 1.0, signed TRUE is -1, unsigned TRUE all ones. NaN
    // compares unequal to everything (SNE true, the others false).
    let a = floats([1.0, 2.0, 3.0, f32::NAN]);
    let b = floats([2.0, 2.0, 2.0, f32::NAN]);
    let o = frag(
        "SLT result.color[0], program.local[0], program.local[1];\n\
         SGE result.color[1], program.local[0], program.local[1];\n\
         SNE result.color[2], program.local[0], program.local[1];\n\
         SLE.S result.color[3], program.local[2], program.local[3];\n\
         SGT.U result.color[4], program.local[2], program.local[3];\n\
         SFL result.color[5].xy, 1, 2;\nSTR.S result.color[5].zw, 1, 2;",
        &[a, b, ints([-1, 0, 1, 2]), ints([0, 0, 0, 0])],
    );
    let f = |n: &str| out(&o, n).map(f32::from_bits);
    assert_eq!(f("result.color"), [1.0, 0.0, 0.0, 0.0]);
    assert_eq!(f("result.color[1]"), [0.0, 1.0, 1.0, 0.0]);
    assert_eq!(f("result.color[2]"), [1.0, 0.0, 1.0, 1.0]);
    // Signed: -1 <= 0, 0 <= 0 true; unsigned: 0xffffffff > 0 true.
    assert_eq!(out(&o, "result.color[3]"), [u32::MAX, u32::MAX, 0, 0]);
    assert_eq!(
        out(&o, "result.color[4]"),
        [u32::MAX, 0, u32::MAX, u32::MAX]
    );
    assert_eq!(out(&o, "result.color[5]"), [0, 0, u32::MAX, u32::MAX]);
}

#[test]
fn cmp_ssg_i2f() {
    // CMP: (a < 0) ? b : c; -0.0 is not less than zero.
    let o = frag(
        "CMP result.color[0], program.local[0], 1, 2;\n\
         SSG result.color[1], program.local[0];\n\
         I2F.S result.color[2], program.local[1];\n\
         I2F.U result.color[3], program.local[1];",
        &[floats([-1.0, 0.0, 5.0, -0.0]), ints([-3, 7, -1, 0])],
    );
    let f = |n: &str| out(&o, n).map(f32::from_bits);
    assert_eq!(f("result.color"), [1.0, 2.0, 2.0, 2.0]);
    assert_eq!(f("result.color[1]"), [-1.0, 0.0, 1.0, 0.0]);
    assert_eq!(f("result.color[2]"), [-3.0, 7.0, -1.0, 0.0]);
    // 0xfffffffd and 0xffffffff as unsigned round to 2^32 in f32.
    assert_eq!(
        f("result.color[3]"),
        [4_294_967_296.0, 7.0, 4_294_967_296.0, 0.0]
    );
}

#[test]
fn dot_products_and_vector_instructions() {
    let a = floats([1.0, 2.0, 3.0, 4.0]);
    let b = floats([5.0, 6.0, 7.0, 8.0]);
    let o = frag(
        "DP2 result.color[0].x, program.local[0], program.local[1];\n\
         DP2A result.color[0].y, program.local[0], program.local[1], 0.5;\n\
         DP3 result.color[0].z, program.local[0], program.local[1];\n\
         DP4 result.color[0].w, program.local[0], program.local[1];\n\
         DPH result.color[1], program.local[0], program.local[1];\n\
         XPD result.color[2].xyz, program.local[0], program.local[1];\n\
         LRP result.color[3], 0.25, program.local[0], program.local[1];\n\
         X2D result.color[4], program.local[0], {3, 4, 0, 0}, program.local[1];",
        &[a, b],
    );
    let f = |n: &str| out(&o, n).map(f32::from_bits);
    // DP2 = 5 + 12 = 17; DP2A = 17 + 0.5; DP3 = 17 + 21 = 38; DP4 = 38 + 32 = 70.
    assert_eq!(f("result.color"), [17.0, 17.5, 38.0, 70.0]);
    // DPH = DP3 + b.w = 38 + 8 = 46, replicated.
    assert_eq!(f("result.color[1]"), [46.0; 4]);
    // (1,2,3) x (5,6,7) = (2*7-3*6, 3*5-1*7, 1*6-2*5) = (-4, 8, -4).
    assert_eq!(f("result.color[2]")[..3], [-4.0, 8.0, -4.0]);
    // LRP 0.25: 0.25*a + 0.75*b = (4, 5, 6, 7).
    assert_eq!(f("result.color[3]"), [4.0, 5.0, 6.0, 7.0]);
    // X2D: x = 1 + 3*5 + 4*6 = 40, y = 2 + 3*7 + 4*8 = 55, z = x, w = y.
    assert_eq!(f("result.color[4]"), [40.0, 55.0, 40.0, 55.0]);
}

#[test]
fn xpd_nrm_rfl_leave_w_undefined() {
    let o = frag(
        "XPD result.color[0], {1, 0, 0, 0}, {0, 1, 0, 0};\n\
         NRM result.color[1], {3, 4, 0, 9};\n\
         RFL result.color[2], {0, 1, 0, 0}, {1, 1, 0, 0};",
        &[],
    );
    let r = |n: &str| o.results[n].clone();
    assert_eq!(r("result.color").floats()[..3], [0.0, 0.0, 1.0]);
    assert_eq!(r("result.color").undefined, 0b1000);
    // NRM: scale = RSQ(9 + 16 + 0) = 0.2; (3*0.2, 4*0.2, 0).
    let s = 1.0f32 / 5.0;
    assert_eq!(r("result.color[1]").floats()[..3], [3.0 * s, 4.0 * s, 0.0]);
    assert_eq!(r("result.color[1]").undefined, 0b1000);
    // RFL: tmp.w = 1, tmp.x = 2 * 1 / 1 = 2; (2*0 - 1, 2*1 - 1, 0 - 0).
    assert_eq!(r("result.color[2]").floats()[..3], [-1.0, 1.0, 0.0]);
    assert_eq!(r("result.color[2]").undefined, 0b1000);
}

#[test]
fn dst_lit_scs_swz() {
    let o = frag(
        "DST result.color[0], {9, 4, 4, 9}, {9, 0.5, 9, 0.5};\n\
         LIT result.color[1], {0.5, 0.25, 9, 2};\n\
         LIT result.color[2], {-0.5, 0.25, 9, 2};\n\
         LIT result.color[3], {1, 0, 9, 0};\n\
         SCS result.color[4], {0}.x;\n\
         SWZ result.color[5], {2, 3, 4, 5}, -w, 1, 0, -x;",
        &[],
    );
    let f = |n: &str| out(&o, n).map(f32::from_bits);
    // DST: (1, d^2 * 1/d, d^2, 1/d) = (1, 2, 4, 0.5).
    assert_eq!(f("result.color"), [1.0, 2.0, 4.0, 0.5]);
    // LIT: (1, x, x > 0 ? y^w : 0, 1) = (1, 0.5, 0.25^2, 1).
    assert_eq!(f("result.color[1]"), [1.0, 0.5, 0.0625, 1.0]);
    // x < 0 clamps to 0 and forces the specular term to 0.
    assert_eq!(f("result.color[2]"), [1.0, 0.0, 0.0, 1.0]);
    // "RoughApproxPower(0.0, 0.0) will produce 1.0".
    assert_eq!(f("result.color[3]"), [1.0, 1.0, 1.0, 1.0]);
    // SCS(0) = (cos 0, sin 0, undefined, undefined).
    assert_eq!(f("result.color[4]")[..2], [1.0, 0.0]);
    assert_eq!(o.results["result.color[4]"].undefined, 0b1100);
    // SWZ: (-w, 1, 0, -x) of (2, 3, 4, 5).
    assert_eq!(f("result.color[5]"), [-5.0, 1.0, 0.0, -2.0]);
}

#[test]
fn lit_clamps_the_specular_exponent_below_128() {
    // w = 200 clamps to 128 - epsilon, the float below 128. 0.5^w is then
    // 2^-127.99999237, a denormal just above 2^-128.
    let o = frag("LIT result.color, {1, 0.5, 0, 200};", &[]);
    let z = color_f(&o)[2];
    let expected = (-(128.0f32.next_down() as f64)).exp2() as f32;
    assert_eq!(z, expected);
    assert!(z > 2.0f32.powi(-128));
}

#[test]
fn scalar_instructions_replicate_and_follow_ieee_special_values() {
    let o = frag(
        "RCP result.color[0].x, program.local[0].x;\n\
         RCP result.color[0].y, program.local[0].y;\n\
         RSQ result.color[0].z, {4}.x;\n\
         EX2 result.color[0].w, {3}.x;\n\
         LG2 result.color[1], {8}.x;\n\
         POW result.color[2], {2}.x, {10}.x;\n\
         EX2 result.color[3], program.local[0].z;\n\
         COS result.color[4], {0}.x;\n\
         SIN result.color[5], {0}.x;",
        &[floats([0.0, -0.0, f32::NEG_INFINITY, 0.0])],
    );
    let f = |n: &str| out(&o, n).map(f32::from_bits);
    // RCP(+0) = +INF, RCP(-0) = -INF (issue 18: IEEE rules).
    assert_eq!(
        f("result.color"),
        [f32::INFINITY, f32::NEG_INFINITY, 0.5, 8.0]
    );
    assert_eq!(f("result.color[1]"), [3.0; 4]);
    assert_eq!(f("result.color[2]"), [1024.0; 4]);
    assert_eq!(f("result.color[3]"), [0.0; 4], "2^-INF = 0");
    assert_eq!(f("result.color[4]"), [1.0; 4]);
    assert_eq!(f("result.color[5]"), [0.0; 4]);
}

#[test]
fn rcc_clamps_the_reciprocal() {
    // [2^-64, 2^64] for positive reciprocals, [-2^64, -2^-64] otherwise.
    let o = frag(
        "RCC result.color.x, program.local[0].x;\nRCC result.color.y, program.local[0].y;\n\
         RCC result.color.z, program.local[0].z;\nRCC result.color.w, program.local[0].w;",
        &[floats([0.0, -0.0, 1e30, 4.0])],
    );
    assert_eq!(
        color_f(&o),
        [2.0f32.powi(64), -2.0f32.powi(64), 2.0f32.powi(-64), 0.25]
    );
}

#[test]
fn undefined_special_values_are_flagged() {
    // LG2 of 0 or a negative, RSQ of 0, POW of a negative base: undefined
    // by the spec (values are IEEE's: -INF, NaN, +INF, NaN).
    let o = frag(
        "LG2 result.color[0], {0}.x;\nLG2 result.color[1], {-1}.x;\nRSQ result.color[2], {0}.x;\n\
         POW result.color[3], {-2}.x, {2}.x;\nPOW result.color[4], {0}.x, {2}.x;",
        &[],
    );
    assert_eq!(o.results["result.color"].floats()[0], f32::NEG_INFINITY);
    assert!(o.results["result.color[1]"].floats()[0].is_nan());
    assert_eq!(o.results["result.color[2]"].floats()[0], f32::INFINITY);
    for n in [
        "result.color",
        "result.color[1]",
        "result.color[2]",
        "result.color[3]",
    ] {
        assert_eq!(o.results[n].undefined, 0xf, "{n}");
    }
    // 0^2 = 2^(2 * -INF) = 0 is fine.
    assert_eq!(o.results["result.color[4]"].undefined, 0);
    assert_eq!(o.results["result.color[4]"].floats(), [0.0; 4]);
    // x^0 = 1, as LIT defines 0^0.
    let o = frag("POW result.color, {0}.x, {0}.x;", &[]);
    assert_eq!(color_f(&o), [1.0; 4]);
    assert_eq!(o.results["result.color"].undefined, 0);
}

#[test]
fn pack_instructions() {
    // PK2H (1, -2): halves 0x3c00 and 0xc000 -> 0xc0003c00, replicated.
    // PK2US (0.5, 2): round(32767.5) = 32768 (to even), 2 clamps to 1 ->
    // 65535: 0xffff8000.
    // PK4UB (0, 0.5, 1, 2): 0, round(127.5) = 128, 255, 255 -> 0xffff8000.
    // PK4B (-1, 0, 1, 2): round(127*x + 128) = 1, 128, 255, 255 -> 0xffff8001.
    let o = frag(
        "PK2H.U result.color[0], {1, -2, 0, 0};\n\
         PK2US.U result.color[1], {0.5, 2, 0, 0};\n\
         PK4UB.U result.color[2], {0, 0.5, 1, 2};\n\
         PK4B.U result.color[3], {-1, 0, 1, 2};",
        &[],
    );
    assert_eq!(out(&o, "result.color"), [0xc000_3c00; 4]);
    assert_eq!(out(&o, "result.color[1]"), [0xffff_8000; 4]);
    assert_eq!(out(&o, "result.color[2]"), [0xffff_8000; 4]);
    assert_eq!(out(&o, "result.color[3]"), [0xffff_8001; 4]);
}

#[test]
fn unpack_instructions() {
    let o = frag(
        "UP2H.U result.color[0], program.local[0].x;\n\
         UP2US.U result.color[1], program.local[0].y;\n\
         UP4B.U result.color[2], program.local[0].z;\n\
         UP4UB.U result.color[3], program.local[0].w;",
        &[[0xc000_3c00, 0xffff_8000, 0xffff_8001, 0x80ff_0000]],
    );
    let f = |n: &str| out(&o, n).map(f32::from_bits);
    // UP2H: x, z from the low half (1.0), y, w from the high half (-2.0).
    assert_eq!(f("result.color"), [1.0, -2.0, 1.0, -2.0]);
    // UP2US: 0x8000 / 65535 and 0xffff / 65535 = 1.
    let lo = 32768.0f32 / 65535.0;
    assert_eq!(f("result.color[1]"), [lo, 1.0, lo, 1.0]);
    // UP4B: (byte - 128) / 127: (1-128)/127 = -1, 0, 1, 1.
    assert_eq!(f("result.color[2]"), [-1.0, 0.0, 1.0, 1.0]);
    // UP4UB: byte / 255: 0, 0, 1, 128/255.
    assert_eq!(f("result.color[3]"), [0.0, 0.0, 1.0, 128.0 / 255.0]);
}

#[test]
fn derivatives_of_a_single_fragment_are_zero() {
    let o = frag(
        "DDX result.color.xy, fragment.texcoord[0];\nDDY result.color.zw, fragment.texcoord[0];",
        &[],
    );
    assert_eq!(color_f(&o), [0.0; 4]);
}

#[test]
fn reading_an_unwritten_temporary_is_undefined() {
    // Section 2.X.3.4: temporaries "are undefined at the beginning of each
    // program invocation". x is computed from t.x (unwritten), y from t.y
    // (written).
    let o = frag("TEMP t;\nMOV t.y, 2;\nADD result.color, t, 1;", &[]);
    let r = &o.results["result.color"];
    assert_eq!(r.undefined, 0b1101);
    assert_eq!(r.floats()[1], 3.0);
}

#[test]
fn typeless_registers_keep_bits_across_types() {
    // A typeless temporary written as float and read as unsigned gives the
    // float's bits (section 2.X.3.1), so ADD.U on 1.0 adds to 0x3f800000.
    let o = frag("TEMP t;\nMOV t, 1;\nADD.U result.color, t, 1;", &[]);
    assert_eq!(color(&o), [0x3f80_0001; 4]);
}

#[test]
fn textures_are_unsupported() {
    let src = "!!NVfp4.0\nTEX result.color, fragment.texcoord[0], texture[0], 2D;\nEND\n";
    let (p, _) = nvp4c::check(src, &nvp4c::Options::default()).unwrap();
    match interp::run(&p, &Inputs::default(), &RunOptions::default()) {
        Err(interp::InterpError::Unsupported { what, .. }) => assert!(what.contains("TEX")),
        other => panic!("expected Unsupported, got {other:?}"),
    }
}
