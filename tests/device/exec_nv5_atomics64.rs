//! Execution tests of the atomic extensions NV_shader_atomic_int64 (S64
//! and U64 atomics), NV_shader_atomic_float64 (F64 ADD and EXCH) and
//! NV_shader_atomic_fp16_vector (F16X2 and F16X4 ADD, MIN, MAX, EXCH) on
//! ATOMB and ATOMS, on the Vulkan device (64-bit ones need
//! shaderBufferInt64Atomics) and, for one invocation, in the interpreter:
//! both must give the old values and final memory worked out here by hand
//! from NV_gpu_program5 2.X.8.Z (ATOM's pseudocode) and the three specs.
//!
//! 64-bit values sit in memory as two words, low word first; the programs
//! build 64-bit operands with PK64 (x | y << 32) and return old values
//! through UP64 (low word first). Halves are packed two to a word, x in
//! the low 16 bits; old values come back as f32.

use crate::harness;
use crate::harness::ComputeJob;

/// The default binding of `program.storage[a]` (docs/interface.md).
fn storage(a: u32) -> u32 {
    64 + a
}

/// Runs the one-invocation program `src` (storage buffers 0 and 1) in the
/// interpreter and on the device, from buffer 0 = `start` and buffer 1 of
/// `out_words` zeros, and checks both end with `want` in buffer 0 and
/// `want_out` in buffer 1.
fn check(src: &str, start: &[u32], out_words: usize, want: &[u32], want_out: &[u32]) {
    let compiled = nvp4c::compile(src, &nvp4c::Options::default())
        .unwrap_or_else(|d| panic!("{}", d.render("t.cp", src, false)));
    // The interpreter.
    let (program, _) = nvp4c::check(src, &nvp4c::Options::default()).unwrap();
    let mut inputs = nvp4c::interp::Inputs::default();
    inputs.storage.insert(0, start.to_vec());
    inputs.storage.insert(1, vec![0; out_words]);
    let run = nvp4c::interp::run(&program, &inputs, &Default::default()).unwrap();
    assert_eq!(hex(&run.storage[&0]), hex(want), "interpreter: memory");
    assert_eq!(
        hex(&run.storage[&1]),
        hex(want_out),
        "interpreter: old values"
    );
    // The device.
    let Some(device) = harness::device_or_skip() else {
        return;
    };
    let job = ComputeJob::new(
        [1, 1, 1],
        vec![
            (storage(0), start.to_vec()),
            (storage(1), vec![0; out_words]),
        ],
    );
    let out = device
        .run_compute(&compiled.spirv, &job)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(hex(&out[0]), hex(want), "device: memory");
    assert_eq!(hex(&out[1]), hex(want_out), "device: old values");
}

/// Runs `src` over `groups` work groups on the device only (many
/// invocations), from these buffers; gives their words after the run.
fn run_on_device(src: &str, groups: u32, buffers: Vec<(u32, Vec<u32>)>) -> Option<Vec<Vec<u32>>> {
    let compiled = nvp4c::compile(src, &nvp4c::Options::default())
        .unwrap_or_else(|d| panic!("{}", d.render("t.cp", src, false)));
    let device = harness::device_or_skip()?;
    let job = ComputeJob::new([groups, 1, 1], buffers);
    Some(
        device
            .run_compute(&compiled.spirv, &job)
            .unwrap_or_else(|e| panic!("{e}")),
    )
}

fn hex(words: &[u32]) -> Vec<String> {
    words.iter().map(|w| format!("{w:#010x}")).collect()
}

/// `lo, hi` of a 64-bit value, as memory holds it.
fn words64(v: u64) -> [u32; 2] {
    [v as u32, (v >> 32) as u32]
}

fn flat(values: &[u64]) -> Vec<u32> {
    values.iter().flat_map(|&v| words64(v)).collect()
}

#[test]
fn int64_atomics_carry_across_the_32_bit_halves() {
    // Ten 64-bit cells q0..q9 at bytes 0, 8, ..., 72 of buffer 0; each
    // ATOMB returns the old value (Table X.Y, "The result of the ATOM
    // instruction is the scalar value read from memory"):
    // q0 = 2^33 - 1      ADD.U64 1             -> 2^33 (carry into the high word)
    //   then             CSWAP.S64 (2^33 - 1, 9): stale compare, no store; returns 2^33
    // q1 = 5             ADD.S64 -7            -> -2 = 0xffffffff_fffffffe
    // q2 = 3·2^32        MIN.U64 0x2_ffffffff  -> 0x2_ffffffff
    // q3 = -2^33         MIN.S64 7             -> stays -2^33 (unsigned would pick 7)
    // q4 = 0xf0f0f0f0_0f0f0f0f AND.U64 0xff00ff00_ff00ff00 -> 0xf000f000_0f000f00
    // q5 = 0x12345678_9abcdef0 OR.S64 0x80000000_00000001 -> 0x92345678_9abcdef1
    // q6 = 0xffffffff_00000000 XOR.U64 0x1_00000001 -> 0xfffffffe_00000001
    // q7 = 0x7_00000009  CSWAP.U64 (0x7_00000009, 0xaaaaaaaa_bbbbbbbb) -> stored
    // q8 = 0x11111111_22222222 EXCH.S64 0x33333333_44444444 -> stored
    // q9 = 2^32          MAX.U64 0xffffffff    -> stays 2^32 (a low-word compare would not)
    // q9 again           MAX.S64 -1            -> stays 2^32
    let src = "!!NVcp5.0
OPTION NV_shader_storage_buffer;
OPTION NV_shader_atomic_int64;
GROUP_SIZE 1;
STORAGE b = program.storage[0];
STORAGE out = program.storage[1];
LONG TEMP d, e;
UINT TEMP u;
PK64.U d, {1, 0, 4294967295, 1};
ATOMB.ADD.U64 e.x, d.x, b[0];
PK64.U d, {4294967295, 1, 9, 0};
ATOMB.CSWAP.S64 e.y, d, b[0];
UP64.U u, e.xyxy;
STB.U32X4 u, out[0];
PK64.U d, {4294967289, 4294967295, 4294967295, 2};
ATOMB.ADD.S64 e.x, d.x, b[8];
ATOMB.MIN.U64 e.y, d.y, b[16];
UP64.U u, e.xyxy;
STB.U32X4 u, out[16];
PK64.U d, {7, 0, 4278255360, 4278255360};
ATOMB.MIN.S64 e.x, d.x, b[24];
ATOMB.AND.U64 e.y, d.y, b[32];
UP64.U u, e.xyxy;
STB.U32X4 u, out[32];
PK64.U d, {1, 2147483648, 1, 1};
ATOMB.OR.S64 e.x, d.x, b[40];
ATOMB.XOR.U64 e.y, d.y, b[48];
UP64.U u, e.xyxy;
STB.U32X4 u, out[48];
PK64.U d, {9, 7, 3149642683, 2863311530};
ATOMB.CSWAP.U64 e.x, d, b[56];
PK64.U d, {1145324612, 858993459, 4294967295, 0};
ATOMB.EXCH.S64 e.y, d.x, b[64];
UP64.U u, e.xyxy;
STB.U32X4 u, out[64];
ATOMB.MAX.U64 e.x, d.y, b[72];
PK64.U d, {4294967295, 4294967295, 0, 0};
ATOMB.MAX.S64 e.y, d.x, b[72];
UP64.U u, e.xyxy;
STB.U32X4 u, out[80];
END
";
    let start = flat(&[
        (1 << 33) - 1,
        5,
        3 << 32,
        (-(1i64 << 33)) as u64,
        0xf0f0_f0f0_0f0f_0f0f,
        0x1234_5678_9abc_def0,
        0xffff_ffff_0000_0000,
        0x7_0000_0009,
        0x1111_1111_2222_2222,
        1 << 32,
    ]);
    let want = flat(&[
        1 << 33,
        (-2i64) as u64,
        0x2_ffff_ffff,
        (-(1i64 << 33)) as u64,
        0xf000_f000_0f00_0f00,
        0x9234_5678_9abc_def1,
        0xffff_fffe_0000_0001,
        0xaaaa_aaaa_bbbb_bbbb,
        0x3333_3333_4444_4444,
        1 << 32,
    ]);
    let want_out = flat(&[
        (1 << 33) - 1,
        1 << 33,
        5,
        3 << 32,
        (-(1i64 << 33)) as u64,
        0xf0f0_f0f0_0f0f_0f0f,
        0x1234_5678_9abc_def0,
        0xffff_ffff_0000_0000,
        0x7_0000_0009,
        0x1111_1111_2222_2222,
        1 << 32,
        1 << 32,
    ]);
    check(src, &start, want_out.len(), &want, &want_out);
}

#[test]
fn float64_add_rounds_to_nearest_even_and_exch_swaps_bits() {
    // q0 = 1.0           ADD.F64 2^-40  -> 1 + 2^-40 = 0x3ff00000_00001000 (no f32 holds it)
    // q1 = 2^53          ADD.F64 1.0    -> 2^53 + 1 is a tie: the even 2^53 stays
    // q2 = 2^53          ADD.F64 3.0    -> 2^53 + 3 is a tie: the even 2^53 + 4 = 0x43400000_00000002
    // q3 = 2.5           EXCH.F64 -0.75 -> 0xbfe80000_00000000
    // Old values: 1.0, 2^53, 2^53, 2.5.
    let src = "!!NVcp5.0
OPTION NV_shader_storage_buffer;
OPTION NV_shader_atomic_float64;
GROUP_SIZE 1;
STORAGE b = program.storage[0];
STORAGE out = program.storage[1];
LONG TEMP d, e;
UINT TEMP u;
PK64.U d, {0, 1030750208, 0, 1072693248};
ATOMB.ADD.F64 e.x, d.x, b[0];
ATOMB.ADD.F64 e.y, d.y, b[8];
UP64.U u, e.xyxy;
STB.U32X4 u, out[0];
PK64.U d, {0, 1074266112, 0, 3219652608};
ATOMB.ADD.F64 e.x, d.x, b[16];
ATOMB.EXCH.F64 e.y, d.y, b[24];
UP64.U u, e.xyxy;
STB.U32X4 u, out[16];
END
";
    const TWO_53: u64 = 0x4340_0000_0000_0000;
    let start = flat(&[0x3ff0_0000_0000_0000, TWO_53, TWO_53, 0x4004_0000_0000_0000]);
    let want = flat(&[
        0x3ff0_0000_0000_1000,
        TWO_53,
        0x4340_0000_0000_0002,
        0xbfe8_0000_0000_0000,
    ]);
    let want_out = flat(&[0x3ff0_0000_0000_0000, TWO_53, TWO_53, 0x4004_0000_0000_0000]);
    check(src, &start, want_out.len(), &want, &want_out);
}

/// f32 bits of the halves' values the fp16 tests read back.
const F_ONE: u32 = 0x3f80_0000;
const F_2048: u32 = 0x4500_0000;
const F_THREE: u32 = 0x4040_0000;
const F_NEG_1_5: u32 = 0xbfc0_0000;
const F_NEG_ONE: u32 = 0xbf80_0000;
const F_HALF: u32 = 0x3f00_0000;
const F_65504: u32 = 0x477f_e000;
const F_FIVE: u32 = 0x40a0_0000;
const F_SIX: u32 = 0x40c0_0000;
const F_QUARTER: u32 = 0x3e80_0000;
const F_NEG_TWO: u32 = 0xc000_0000;

/// Two halves in a word, x low.
fn halves(x: u16, y: u16) -> u32 {
    u32::from(x) | u32::from(y) << 16
}

/// The fp16 vector atomics on words w0..w6 (buffer 0 starts with them;
/// on shared memory the program first copies them there), old values to
/// buffer 1 as f32:
/// w0 = (1.0, 2048)   ADD.F16X2 (2^-11, 3): 1 + 2^-11 is a tie between
///    1.0 and 1 + 2^-10, the even 1.0 stays (0x3c00); 2051 a tie between
///    2050 and 2052, the even 2052 (0x6802).
/// w1 = (3.0, -1.5)   MIN.F16X2 (0.1, -2): 0.1 rounds to the half 0x2e66;
///    min: (0x2e66, -2.0 = 0xc000).
/// w2,w3 = (1, -1, 0.5, 65504) MAX.F16X4 (2, -3, 0.25, 1): (2, -1, 0.5,
///    65504) = 0x4000, 0xbc00, 0x3800, 0x7bff.
/// w4 = (5, 6)        EXCH.F16X2 (-0.5, 1024): 0xb800, 0x6400.
/// w5,w6 = (65504, 1, 0.25, -2) ADD.F16X4 (16, 1, 0.125, 0.5): 65520 is a
///    tie between 65504 and 65536, which is even and beyond the largest
///    half: infinity (0x7c00); 2 (0x4000); 0.375 (0x3600); -1.5 (0xbe00).
const FP16_ATOMICS: &str = "ATOM.ADD.F16X2 r, {0.00048828125, 3, 0, 0}, MEM[0];
STB.F32X2 r, out[0];
ATOM.MIN.F16X2 r, {0.1, -2, 0, 0}, MEM[4];
STB.F32X2 r, out[8];
ATOM.MAX.F16X4 r, {2, -3, 0.25, 1}, MEM[8];
STB.F32X4 r, out[16];
ATOM.EXCH.F16X2 r, {-0.5, 1024, 0, 0}, MEM[16];
STB.F32X2 r, out[32];
ATOM.ADD.F16X4 r, {16, 1, 0.125, 0.5}, MEM[20];
STB.F32X4 r, out[40];
";

fn fp16_start() -> Vec<u32> {
    vec![
        halves(0x3c00, 0x6800),
        halves(0x4200, 0xbe00),
        halves(0x3c00, 0xbc00),
        halves(0x3800, 0x7bff),
        halves(0x4500, 0x4600),
        halves(0x7bff, 0x3c00),
        halves(0x3400, 0xc000),
    ]
}

fn fp16_want() -> (Vec<u32>, Vec<u32>) {
    let memory = vec![
        halves(0x3c00, 0x6802),
        halves(0x2e66, 0xc000),
        halves(0x4000, 0xbc00),
        halves(0x3800, 0x7bff),
        halves(0xb800, 0x6400),
        halves(0x7c00, 0x4000),
        halves(0x3600, 0xbe00),
    ];
    let old = vec![
        F_ONE, F_2048, F_THREE, F_NEG_1_5, F_ONE, F_NEG_ONE, F_HALF, F_65504, F_FIVE, F_SIX,
        F_65504, F_ONE, F_QUARTER, F_NEG_TWO,
    ];
    (memory, old)
}

#[test]
fn fp16_vector_atomics_on_a_storage_buffer_round_each_half_to_nearest_even() {
    let src = format!(
        "!!NVcp5.0
OPTION NV_shader_storage_buffer;
OPTION NV_shader_atomic_fp16_vector;
GROUP_SIZE 1;
STORAGE b = program.storage[0];
STORAGE out = program.storage[1];
FLOAT TEMP r;
{}END
",
        FP16_ATOMICS.replace("ATOM.", "ATOMB.").replace("MEM", "b")
    );
    let (memory, old) = fp16_want();
    check(&src, &fp16_start(), old.len(), &memory, &old);
}

#[test]
fn fp16_vector_atomics_on_shared_memory_match_the_storage_buffer_ones() {
    // The same operations on shared memory: copied in from buffer 0 first
    // (LDB/STS), copied back after (LDS/STB).
    let src = format!(
        "!!NVcp5.0
OPTION NV_shader_storage_buffer;
OPTION NV_shader_atomic_fp16_vector;
GROUP_SIZE 1;
SHARED_MEMORY 28;
SHARED s = program.sharedmem[0];
STORAGE b = program.storage[0];
STORAGE out = program.storage[1];
FLOAT TEMP r;
UINT TEMP u;
LDB.U32X4 u, b[0];
STS.U32X4 u, s[0];
LDB.U32X2 u, b[16];
STS.U32X2 u, s[16];
LDB.U32 u, b[24];
STS.U32 u, s[24];
{}LDS.U32X4 u, s[0];
STB.U32X4 u, b[0];
LDS.U32X2 u, s[16];
STB.U32X2 u, b[16];
LDS.U32 u, s[24];
STB.U32 u, b[24];
END
",
        FP16_ATOMICS.replace("ATOM.", "ATOMS.").replace("MEM", "s")
    );
    let (memory, old) = fp16_want();
    check(&src, &fp16_start(), old.len(), &memory, &old);
}

#[test]
fn many_invocations_add_64_bit_and_packed_half_values_atomically() {
    // 4 work groups of 64 invocations (256 in all) each add, to buffer 0:
    // ADD.U64 2^31 + 1 at byte 0: 256 · (2^31 + 1) = 2^39 + 256, whose low
    //   word overflows 128 times: 0x80_00000100;
    // ADD.F64 0.5 at byte 8: 128.0 exactly (0x40600000_00000000);
    // ADD.F16X2 (1.0, 0.25) at byte 16: (256, 64), both exact halves
    //   (0x5c00, 0x5400);
    // ADD.S64 -3 at byte 24 from 0: -768 = 0xffffffff_fffffd00.
    // Lost updates (a non-atomic read-modify-write) would leave less.
    let src = "!!NVcp5.0
OPTION NV_shader_storage_buffer;
OPTION NV_shader_atomic_int64;
OPTION NV_shader_atomic_float64;
OPTION NV_shader_atomic_fp16_vector;
GROUP_SIZE 64;
STORAGE b = program.storage[0];
LONG TEMP d, e;
FLOAT TEMP r;
PK64.U d, {2147483649, 0, 0, 1071644672};
ATOMB.ADD.U64 e.x, d.x, b[0];
ATOMB.ADD.F64 e.x, d.y, b[8];
ATOMB.ADD.F16X2 r, {1, 0.25, 0, 0}, b[16];
PK64.U d, {4294967293, 4294967295, 0, 0};
ATOMB.ADD.S64 e.x, d.x, b[24];
END
";
    let Some(out) = run_on_device(src, 4, vec![(storage(0), vec![0; 8])]) else {
        return;
    };
    let want = [
        0x0000_0100,
        0x80,
        0,
        0x4060_0000,
        halves(0x5c00, 0x5400),
        0,
        0xffff_fd00,
        0xffff_ffff,
    ];
    assert_eq!(hex(&out[0]), hex(&want));
}

#[test]
fn shared_memory_with_64_bit_atomics_keeps_each_32_bit_word_apart() {
    // A 64-bit ATOMS makes shared memory an array of 64-bit elements
    // (docs/interface.md, "Shared memory"), so every 32-bit access below
    // works on half of one: a carry out of a word must not reach its
    // neighbour. Buffer 0 is copied in (STS), the atomics run, and shared
    // memory is copied back (LDS):
    // q0 = 2^33 - 1     ADD.U64 1          -> 2^33
    // q1 = -2^33        MIN.S64 7          -> stays
    // q2 = 0xffffffff_00000000 XOR.U64 0x1_00000001 -> 0xfffffffe_00000001
    // q3 = 1.0          ADD.F64 2^-40      -> 0x3ff00000_00001000
    // w8 = 0xffffffff   ADD.U32 1          -> 0 (no carry into w9)
    // w9 = 0x12345678   MIN.S32 -5         -> -5 = 0xfffffffb
    // w10 = 3           IWRAP.U32 3        -> 0 (3 >= 3)
    // w11 = 7           CSWAP.U32 (7, 99)  -> 99
    // w12 = 1.5         ADD.F32 2.25       -> 3.75 = 0x40700000
    // w13 = (1.0, 2048) ADD.F16X2 (2^-11, 3) -> (1.0, 2052) as in the fp16 tests
    // w14, w15 = STS.U32X2 (0xaaaa5555, 0x0badf00d); MAX.U32 0xaaaa5556 on w14
    // Old values to buffer 1: the four 64-bit ones (UP64), w8..w11's, w12's
    // as f32, w13's halves as f32, 0, then w14's.
    let src = "!!NVcp5.0
OPTION NV_shader_storage_buffer;
OPTION NV_shader_atomic_int64;
OPTION NV_shader_atomic_float64;
OPTION NV_shader_atomic_fp16_vector;
GROUP_SIZE 1;
SHARED_MEMORY 64;
SHARED s = program.sharedmem[0];
STORAGE b = program.storage[0];
STORAGE out = program.storage[1];
LONG TEMP d, e;
UINT TEMP u, v;
TEMP i;
FLOAT TEMP f, h;
LDB.U32X4 u, b[0];
STS.U32X4 u, s[0];
LDB.U32X4 u, b[16];
STS.U32X4 u, s[16];
LDB.U32X4 u, b[32];
STS.U32X4 u, s[32];
LDB.U32X2 u, b[48];
STS.U32X2 u, s[48];
MOV.U u, {2863289685, 195948557, 0, 0};
STS.U32X2 u, s[56];
PK64.U d, {1, 0, 7, 0};
ATOMS.ADD.U64 e.x, d.x, s[0];
ATOMS.MIN.S64 e.y, d.y, s[8];
UP64.U u, e.xyxy;
STB.U32X4 u, out[0];
PK64.U d, {1, 1, 0, 1030750208};
ATOMS.XOR.U64 e.x, d.x, s[16];
ATOMS.ADD.F64 e.y, d.y, s[24];
UP64.U u, e.xyxy;
STB.U32X4 u, out[16];
ATOMS.ADD.U32 v.x, 1, s[32];
ATOMS.MIN.S32 i.x, -5, s[36];
MOV.U v.y, i.x;
ATOMS.IWRAP.U32 v.z, 3, s[40];
ATOMS.CSWAP.U32 v.w, {7, 99, 0, 0}, s[44];
STB.U32X4 v, out[32];
ATOMS.ADD.F32 f.x, 2.25, s[48];
ATOMS.ADD.F16X2 h, {0.00048828125, 3, 0, 0}, s[52];
MOV.F f.yz, h.xxyw;
MOV.F f.w, 0;
STB.F32X4 f, out[48];
ATOMS.MAX.U32 v.x, 2863289686, s[56];
STB.U32 v.x, out[64];
LDS.U32X4 u, s[0];
STB.U32X4 u, b[0];
LDS.U32X4 u, s[16];
STB.U32X4 u, b[16];
LDS.U32X4 u, s[32];
STB.U32X4 u, b[32];
LDS.U32X4 u, s[48];
STB.U32X4 u, b[48];
END
";
    let mut start = flat(&[
        (1 << 33) - 1,
        (-(1i64 << 33)) as u64,
        0xffff_ffff_0000_0000,
        0x3ff0_0000_0000_0000,
    ]);
    start.extend([
        0xffff_ffff,
        0x1234_5678,
        3,
        7,
        0x3fc0_0000,
        halves(0x3c00, 0x6800),
        0,
        0,
    ]);
    let mut want = flat(&[
        1 << 33,
        (-(1i64 << 33)) as u64,
        0xffff_fffe_0000_0001,
        0x3ff0_0000_0000_1000,
    ]);
    want.extend([
        0,
        0xffff_fffb,
        0,
        99,
        0x4070_0000,
        halves(0x3c00, 0x6802),
        0xaaaa_5556,
        0x0bad_f00d,
    ]);
    let mut want_out = flat(&[
        (1 << 33) - 1,
        (-(1i64 << 33)) as u64,
        0xffff_ffff_0000_0000,
        0x3ff0_0000_0000_0000,
    ]);
    want_out.extend([
        0xffff_ffff,
        0x1234_5678,
        3,
        7,
        0x3fc0_0000,
        F_ONE,
        F_2048,
        0,
        0xaaaa_5555,
    ]);
    check(src, &start, want_out.len(), &want, &want_out);
}

#[test]
fn many_invocations_update_both_halves_of_a_shared_64_bit_element() {
    // 64 invocations: after zeroing shared memory and a BAR, each adds
    // 2^31 + 1 to q0 (ADD.U64: 64 · (2^31 + 1) = 2^37 + 64, the low word
    // overflowing 32 times: 0x20_00000040) and, with ATOMS.ADD.U32, 1 to
    // word 2 and 2 to word 3, the two halves of one 64-bit element: 64 and
    // 128, neither losing the other's updates. After a second BAR each
    // copies words 0..3 to the buffer (all copy the same values).
    let src = "!!NVcp5.0
OPTION NV_shader_storage_buffer;
OPTION NV_shader_atomic_int64;
GROUP_SIZE 64;
SHARED_MEMORY 16;
SHARED s = program.sharedmem[0];
STORAGE b = program.storage[0];
LONG TEMP d, e;
UINT TEMP u;
MOV.U u, 0;
STS.U32X4 u, s[0];
BAR;
PK64.U d, {2147483649, 0, 0, 0};
ATOMS.ADD.U64 e.x, d.x, s[0];
ATOMS.ADD.U32 u.x, 1, s[8];
ATOMS.ADD.U32 u.y, 2, s[12];
BAR;
LDS.U32X4 u, s[0];
STB.U32X4 u, b[0];
END
";
    let Some(out) = run_on_device(src, 1, vec![(storage(0), vec![0; 4])]) else {
        return;
    };
    assert_eq!(hex(&out[0]), hex(&[0x40, 0x20, 64, 128]));
}

#[test]
fn atom_at_a_gpu_address_takes_the_64_bit_and_half_vector_forms() {
    // ATOM (NV_gpu_program5 2.X.8.Z) reaches a buffer by GPU address
    // (tests/device/exec_nv5_global.rs: program.env[0] holds it), with the
    // same storage modifiers as ATOMB:
    // q0 (bytes 0..8) = 2^33 - 1   ADD.U64 1                  -> 2^33
    // q1 (8..16) = 0x12345678_9abcdef0 OR.S64 0x80000000_00000001 -> 0x92345678_9abcdef1
    // q2 (16..24) = 2^53           ADD.F64 3.0                -> 2^53 + 4 (tie to even)
    // q3 (24..32) = 0x7_00000009   CSWAP.U64 (0x7_00000009, 0xaaaaaaaa_bbbbbbbb) -> stored
    // w8 (32) = (1.0, 2048)        ADD.F16X2 (2^-11, 3)       -> (1.0, 2052)
    // w10, w11 (40) = (1, -1, 0.5, 65504) MAX.F16X4 (2, -3, 0.25, 1) -> (2, -1, 0.5, 65504)
    // Old values: the 64-bit ones through UP64 at bytes 64 and 80, the
    // halves as f32 at 96 (X2) and 112 (X4); 0xdeadbeef elsewhere stays.
    let src = "!!NVcp5.0
OPTION NV_shader_atomic_int64;
OPTION NV_shader_atomic_float64;
OPTION NV_shader_atomic_fp16_vector;
GROUP_SIZE 1;
LONG TEMP base, a, d, e;
UINT TEMP u;
FLOAT TEMP h, g;
PK64.U base, program.env[0];
PK64.U d, {1, 0, 1, 2147483648};
ATOM.ADD.U64 e.x, d.x, base.x;
ADD.U64 a.x, base.x, 8;
ATOM.OR.S64 e.y, d.y, a.x;
UP64.U u, e.xyxy;
ADD.U64 a.x, base.x, 64;
STORE.U32X4 u, a.x;
PK64.U d, {0, 1074266112, 0, 0};
ADD.U64 a.x, base.x, 16;
ATOM.ADD.F64 e.x, d.x, a.x;
PK64.U d, {9, 7, 3149642683, 2863311530};
ADD.U64 a.x, base.x, 24;
ATOM.CSWAP.U64 e.y, d, a.x;
UP64.U u, e.xyxy;
ADD.U64 a.x, base.x, 80;
STORE.U32X4 u, a.x;
ADD.U64 a.x, base.x, 32;
ATOM.ADD.F16X2 h, {0.00048828125, 3, 0, 0}, a.x;
ADD.U64 a.x, base.x, 40;
ATOM.MAX.F16X4 g, {2, -3, 0.25, 1}, a.x;
ADD.U64 a.x, base.x, 96;
STORE.F32X2 h, a.x;
ADD.U64 a.x, base.x, 112;
STORE.F32X4 g, a.x;
END
";
    const TWO_53_HIGH: u32 = 0x4340_0000;
    let mut words = vec![0xdead_beefu32; 32];
    words[..12].copy_from_slice(&[
        0xffff_ffff,
        1,
        0x9abc_def0,
        0x1234_5678,
        0,
        TWO_53_HIGH,
        9,
        7,
        halves(0x3c00, 0x6800),
        0xdead_beef,
        halves(0x3c00, 0xbc00),
        halves(0x3800, 0x7bff),
    ]);
    let mut expected = words.clone();
    expected[..12].copy_from_slice(&[
        0,
        2,
        0x9abc_def1,
        0x9234_5678,
        2,
        TWO_53_HIGH,
        0xbbbb_bbbb,
        0xaaaa_aaaa,
        halves(0x3c00, 0x6802),
        0xdead_beef,
        halves(0x4000, 0xbc00),
        halves(0x3800, 0x7bff),
    ]);
    expected[16..24].copy_from_slice(&[
        0xffff_ffff,
        1,
        0x9abc_def0,
        0x1234_5678,
        0,
        TWO_53_HIGH,
        9,
        7,
    ]);
    expected[24..26].copy_from_slice(&[F_ONE, F_2048]);
    expected[28..32].copy_from_slice(&[F_ONE, F_NEG_ONE, F_HALF, F_65504]);
    let (device, interpreted) = crate::exec_nv5_global::run(src, &words);
    assert_eq!(hex(&interpreted), hex(&expected), "interpreter");
    if let Some(device) = device {
        assert_eq!(hex(&device), hex(&expected), "device");
    }
}
