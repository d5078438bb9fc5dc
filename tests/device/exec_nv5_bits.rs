//! Execution tests of NV_gpu_program5's bit instructions (BFE, BFI, BFR,
//! BTC, BTFL, BTFM) in `!!NVfp5.0` programs on the Vulkan device, each
//! also run in the interpreter: both must give the values worked out here
//! by hand from the pseudocode of NV_gpu_program5 section 2.X.8.Z.
//!
//! Each program writes one integer result to `result.color` (an RGBA32I or
//! RGBA32UI attachment); operands are integer constants or
//! `fragment.texcoord[0]` read as integers (one case).

use crate::harness;
use crate::harness::{FragmentJob, Input};

/// Runs `body` (after `INT TEMP r; UINT TEMP u;` and an integer output
/// `o`) in one case with `fragment.texcoord[0]` = `a` (as integer bits),
/// on the device and in the interpreter, and checks both give `want`.
fn check(output_type: &str, body: &str, a: [u32; 4], want: [u32; 4]) {
    let src = format!(
        "!!NVfp5.0\nINT TEMP r;\nUINT TEMP u;\n{output_type} OUTPUT o = result.color;\nFLAT {output_type} ATTRIB a = fragment.texcoord[0];\n{body}\nEND\n"
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
    let input = if output_type == "INT" {
        Input::int(5, a.map(|x| x as i32))
    } else {
        Input::uint(5, a)
    };
    let job = FragmentJob::new(vec![vec![input]]);
    let got = device
        .run_fragment(&compiled.spirv, &job)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(got.bits(0), want, "device: {body}");
}

const M1: u32 = u32::MAX; // -1

#[test]
fn bfe_extracts_width_op0x_at_offset_op0y_sign_or_zero_extended() {
    // a = 0xF0F0_1234 in every component; fields (bits, offset) in op0.
    // (4, 4): bits 4..7 of 0x...34 = 0x3; (8, 24): 0xF0, signed -16;
    // (0, 5): zero width gives 0; (12, 20): bits 20..31 = 0xF0F, signed
    // 0xF0F has its top bit (bit 11) set: 0xFFFFFF0F.
    let a = [0xF0F0_1234; 4];
    check(
        "INT",
        "MOV.S r, {4, 4, 0, 0};\nBFE.S o.x, r, a;\nMOV.S r, {8, 24, 0, 0};\nBFE.S o.y, r, a;\nMOV.S r, {0, 5, 0, 0};\nBFE.S o.z, r, a;\nMOV.S r, {12, 20, 0, 0};\nBFE.S o.w, r, a;",
        a,
        [0x3, (-16i32) as u32, 0, 0xFFFF_FF0F],
    );
    check(
        "UINT",
        "MOV.U u, {8, 24, 0, 0};\nBFE.U o.x, u, a;\nMOV.U u, {12, 20, 0, 0};\nBFE.U o.y, u, a;\nMOV.U u, {32, 0, 0, 0};\nBFE.U o.zw, u, a;",
        a,
        [0xF0, 0xF0F, 0xF0F0_1234, 0xF0F0_1234],
    );
}

#[test]
fn bfi_inserts_the_low_bits_of_op1_into_op2() {
    // BitfieldInsert(bits, offset, src, dst): mask = ((1 << bits) - 1) << offset.
    // (8, 8) of src 0xAB into dst 0x11223344: 0x1122AB44.
    // (4, 28) of src 0x5 into 0x11223344: 0x51223344.
    // (32, 0): src itself, 0xCAFEBABE. (0, 3): mask 0, dst unchanged.
    let a = [0x1122_3344, 0x1122_3344, 0x1122_3344, 0x1122_3344];
    check(
        "UINT",
        "MOV.U u, {8, 8, 0, 0};\nBFI.U o.x, u, {0xAB, 0, 0, 0}, a;\nMOV.U u, {4, 28, 0, 0};\nBFI.U o.y, u, {5, 5, 5, 5}, a;\nMOV.U u, {32, 0, 0, 0};\nBFI.U o.z, u, {0xCAFEBABE, 0xCAFEBABE, 0xCAFEBABE, 0xCAFEBABE}, a;\nMOV.U u, {0, 3, 0, 0};\nBFI.U o.w, u, {7, 7, 7, 7}, a;",
        a,
        [0x1122_AB44, 0x5122_3344, 0xCAFE_BABE, 0x1122_3344],
    );
}

#[test]
fn bfr_btc_reverse_and_count_bits() {
    // BFR: 1 → 0x80000000, 0x80000000 → 1, 0x0000FFFF → 0xFFFF0000, 0.
    check(
        "UINT",
        "BFR.U o, a;",
        [1, 0x8000_0000, 0x0000_FFFF, 0],
        [0x8000_0000, 1, 0xFFFF_0000, 0],
    );
    // BTC: one bits of 0, 7, -1 (32 ones), 0x0F0F0F0F (16).
    check(
        "INT",
        "BTC.S o, a;",
        [0, 7, M1, 0x0F0F_0F0F],
        [0, 3, 32, 16],
    );
}

#[test]
fn btfl_and_btfm_find_the_lowest_and_highest_bits() {
    // BTFL: 0 → -1 (no bit), 1 → 0, 8 → 3, -8 (…11111000) → 3.
    check(
        "INT",
        "BTFL.S o, a;",
        [0, 1, 8, (-8i32) as u32],
        [M1, 0, 3, 3],
    );
    // BTFM signed: 0 → -1; 1 → 0; -1 → -1 (no zero bit); -8 = …11111000:
    // the most significant zero bit is bit 2.
    check(
        "INT",
        "BTFM.S o, a;",
        [0, 1, M1, (-8i32) as u32],
        [M1, 0, M1, 2],
    );
    // BTFM unsigned: 0 → all ones; 1 → 0; 0xFFFFFFFF → 31; 8 → 3.
    check("UINT", "BTFM.U o, a;", [0, 1, M1, 8], [M1, 0, 31, 3]);
}
