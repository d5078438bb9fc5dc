//! Execution tests of NV_gpu_program5's global memory instructions, LOAD,
//! STORE and ATOM (section 2.X.8.Z; NV_shader_buffer_load,
//! NV_shader_buffer_store), on the Vulkan device and in the interpreter.
//!
//! The program reaches one buffer by GPU address: the harness creates it
//! with SHADER_DEVICE_ADDRESS usage and writes its `vkGetBufferDeviceAddress`
//! to `program.env[0]` as x = low word, y = high word; the program packs
//! the pair into a LONG register with PK64 and does its address arithmetic
//! with `ADD.U64` (docs/interface.md, "GPU addresses"). Modules are
//! compiled for `vulkan1.2` (PhysicalStorageBuffer pointers need SPIR-V
//! 1.5; E1140 below it). The interpreter runs the same program on
//! [`Inputs::global`] with the buffer at a made-up address.
//!
//! Every expected value is worked out by hand from the spec's
//! BufferMemoryLoad / BufferMemoryStore and ATOM pseudocode.

use crate::harness;
use crate::harness::{AddressedBuffer, ComputeJob};

fn compile(src: &str) -> Vec<u32> {
    let mut options = nvp4c::Options::default();
    options.target_env = nvp4c::TargetEnv::Vulkan1_2;
    match nvp4c::compile(src, &options) {
        Ok(c) => c.spirv,
        Err(d) => panic!("{}\n{src}", d.render("test.cp", src, false)),
    }
}

/// Where the interpreter's copy of the buffer lives: above 4 GiB, so that
/// an address that lost its high word would miss it.
const INTERP_BASE: u64 = 0x0000_0001_2345_6780;

/// Runs `src` (one invocation) with `words` reached by GPU address through
/// `program.env[0]`, on the device (`None` without one) and in the
/// interpreter; returns (device words, interpreter words).
pub(crate) fn run(src: &str, words: &[u32]) -> (Option<Vec<u32>>, Vec<u32>) {
    let mut options = nvp4c::Options::default();
    options.target_env = nvp4c::TargetEnv::Vulkan1_2;
    let (program, _) = nvp4c::check(src, &options).unwrap_or_else(|d| panic!("{d:?}"));
    let mut inputs = nvp4c::interp::Inputs::default();
    inputs
        .env
        .insert(0, [INTERP_BASE as u32, (INTERP_BASE >> 32) as u32, 0, 0]);
    inputs.global.insert(INTERP_BASE, words.to_vec());
    let outcome = nvp4c::interp::run(&program, &inputs, &Default::default())
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        outcome.undefined.is_empty(),
        "the interpreter found undefined behaviour: {:?}",
        outcome.undefined
    );
    let interpreted = outcome.global[&INTERP_BASE].clone();
    let device = harness::device_or_skip().map(|device| {
        assert!(
            device.buffer_device_address(),
            "bufferDeviceAddress (Vulkan 1.2 core; lavapipe has it)"
        );
        let mut job = ComputeJob::new([1, 1, 1], Vec::new());
        job.addressed.push(AddressedBuffer {
            words: words.to_vec(),
            env: 0,
        });
        let (_, _, addressed) = device
            .run_compute_all(&compile(src), &job)
            .unwrap_or_else(|e| panic!("{e}"));
        addressed[0].clone()
    });
    (device, interpreted)
}

fn f(x: f32) -> u32 {
    x.to_bits()
}

#[test]
fn load_and_store_at_gpu_addresses_with_storage_modifiers() {
    // Words 0..15 are read, 16..31 written. Each LOAD fills the components
    // its storage modifier names and zeroes the others (2.X.4.5, "remaining
    // components are filled with zeroes"); each STORE writes only the
    // components its modifier names.
    let src = "!!NVcp5.0
GROUP_SIZE 1;
LONG TEMP base, a;
TEMP r, s, t, off;
PK64.U base, program.env[0];
LOAD.U32X4 r, base.x;
ADD.U64 a.x, base.x, 64;
STORE.U32X4 r, a.x;
ADD.U64 a.x, base.x, 16;
LOAD.F32X2 s, a.x;
ADD.F s, s, s;
ADD.U64 a.x, base.x, 80;
STORE.F32X4 s, a.x;
ADD.U64 a.x, base.x, 24;
LOAD.S32 t, a.x;
ADD.U64 a.x, base.x, 96;
STORE.S32X2 t, a.x;
LOAD.U32.COH t, base.x;
ADD.U64 a.x, base.x, 104;
STORE.U32.VOL t, a.x;
ADD.U64 a.x, base.x, 28;
LOAD.F32.SAT s, a.x;
ADD.U64 a.x, base.x, 108;
STORE.F32 s, a.x;
MOV.U off, 40;
ADD.U64 a.x, base.x, off.x;
LOAD.U32 t, a.x;
ADD.U64 a.x, base.x, 112;
STORE.U32 t, a.x;
END
";
    let mut words = vec![0xDEAD_BEEFu32; 32];
    words[..4].copy_from_slice(&[0x100, 0x101, 0x102, 0x103]);
    words[4] = f(1.5);
    words[5] = f(-2.25);
    words[6] = (-7i32) as u32;
    words[7] = f(2.5);
    words[10] = 0xABCD;
    let mut expected = words.clone();
    // STORE.U32X4 of LOAD.U32X4: words 0..3 copied to 16..19.
    expected[16..20].copy_from_slice(&[0x100, 0x101, 0x102, 0x103]);
    // LOAD.F32X2 reads (1.5, -2.25, 0, 0); doubled; STORE.F32X4 writes all four.
    expected[20..24].copy_from_slice(&[f(3.0), f(-4.5), 0, 0]);
    // LOAD.S32 reads (-7, 0, 0, 0); STORE.S32X2 writes x and y.
    expected[24] = (-7i32) as u32;
    expected[25] = 0;
    // LOAD.U32.COH of word 0, STORE.U32.VOL: word 26 = 0x100.
    expected[26] = 0x100;
    // LOAD.F32.SAT of 2.5 clamps to 1.0 (section 2.X.4.1).
    expected[27] = f(1.0);
    // A 32-bit register offset (40: word 10) added to the LONG address.
    expected[28] = 0xABCD;
    let (device, interpreted) = run(src, &words);
    assert_eq!(interpreted, expected, "interpreter");
    if let Some(device) = device {
        assert_eq!(device, expected, "device");
    }
}

#[test]
fn every_atomic_operation_at_a_gpu_address_returns_the_old_value() {
    // Memory words 0..12 are the atomics' targets; the values each ATOM
    // returns (the word before, 2.X.8.Z, ATOM) are stored at words
    // 16..28, the same order.
    let src = "!!NVcp5.0
OPTION NV_shader_atomic_float;
GROUP_SIZE 1;
LONG TEMP base, a;
TEMP o, p, q, v;
PK64.U base, program.env[0];
ATOM.ADD.U32 o.x, 5, base.x;
ADD.U64 a.x, base.x, 4;
ATOM.MIN.S32 o.y, -4, a.x;
ADD.U64 a.x, base.x, 8;
ATOM.MAX.U32 o.z, 0xFFFFFFF0, a.x;
ADD.U64 a.x, base.x, 12;
ATOM.AND.U32 o.w, 0xFF00, a.x;
ADD.U64 a.x, base.x, 16;
ATOM.OR.U32 p.x, 0x00F0, a.x;
ADD.U64 a.x, base.x, 20;
ATOM.XOR.S32 p.y, 0x0F0F, a.x;
ADD.U64 a.x, base.x, 24;
ATOM.EXCH.U32 p.z, 456, a.x;
ADD.U64 a.x, base.x, 28;
MOV.U v, {9, 77, 0, 0};
ATOM.CSWAP.U32 p.w, v, a.x;
ADD.U64 a.x, base.x, 32;
MOV.U v, {8, 77, 0, 0};
ATOM.CSWAP.S32 q.x, v, a.x;
ADD.U64 a.x, base.x, 36;
ATOM.IWRAP.U32 q.y, 3, a.x;
ADD.U64 a.x, base.x, 40;
ATOM.DWRAP.U32 q.z, 5, a.x;
ADD.U64 a.x, base.x, 44;
ATOM.ADD.F32 q.w, 2.25, a.x;
ADD.U64 a.x, base.x, 64;
STORE.U32X4 o, a.x;
ADD.U64 a.x, base.x, 80;
STORE.U32X4 p, a.x;
ADD.U64 a.x, base.x, 96;
STORE.U32X4 q, a.x;
ADD.U64 a.x, base.x, 48;
ATOM.EXCH.F32 o.x, -0.5, a.x;
ADD.U64 a.x, base.x, 112;
STORE.U32 o, a.x;
END
";
    let initial: [u32; 13] = [
        10,
        7,
        7,
        0xF0F0,
        0x0F00,
        0xFFFF,
        123,
        9,
        9,
        3,
        0,
        f(1.5),
        f(4.0),
    ];
    let mut words = vec![0xDEAD_BEEFu32; 32];
    words[..13].copy_from_slice(&initial);
    let mut expected = words.clone();
    // The new values, by the pseudocode's `writeval`:
    expected[0] = 15; // ADD: 10 + 5
    expected[1] = (-4i32) as u32; // MIN.S32: min(7, -4)
    expected[2] = 0xFFFF_FFF0; // MAX.U32: unsigned, 0xFFFFFFF0 > 7
    expected[3] = 0xF000; // AND: 0xF0F0 & 0xFF00
    expected[4] = 0x0FF0; // OR: 0x0F00 | 0x00F0
    expected[5] = 0xF0F0; // XOR: 0xFFFF ^ 0x0F0F
    expected[6] = 456; // EXCH
    expected[7] = 77; // CSWAP: 9 == 9, write y
    expected[8] = 9; // CSWAP: 9 != 8, no store
    expected[9] = 0; // IWRAP: 3 >= 3 wraps to 0
    expected[10] = 5; // DWRAP: 0 wraps to the operand
    expected[11] = f(3.75); // ADD.F32: 1.5 + 2.25
    expected[12] = f(-0.5); // EXCH.F32
                            // The returned values: each word before its operation.
    expected[16..29].copy_from_slice(&initial);
    let (device, interpreted) = run(src, &words);
    assert_eq!(interpreted, expected, "interpreter");
    if let Some(device) = device {
        assert_eq!(device, expected, "device");
    }
}

#[test]
fn an_atom_whose_result_is_masked_off_still_updates_memory() {
    // NV_gpu_program5 issue 16: "the result will always be discarded if a
    // conditional write mask of "(FL)" is used" -- the register keeps its
    // value, while the atomic operation on memory still happens.
    let src = "!!NVcp5.0
GROUP_SIZE 1;
LONG TEMP base, a;
TEMP o;
PK64.U base, program.env[0];
MOV.U o, 0x55;
ATOM.ADD.U32 o (FL), 5, base.x;
ADD.U64 a.x, base.x, 16;
STORE.U32X4 o, a.x;
END
";
    let mut words = vec![0xDEAD_BEEFu32; 8];
    words[0] = 10;
    let mut expected = words.clone();
    expected[0] = 15; // 10 + 5
    expected[4..8].copy_from_slice(&[0x55; 4]); // o untouched
    let (device, interpreted) = run(src, &words);
    assert_eq!(interpreted, expected, "interpreter");
    if let Some(device) = device {
        assert_eq!(device, expected, "device");
    }
}

/// ATOM with the storage modifiers of the atomic extensions at a GPU
/// address: U64 ADD (NV_gpu_program5 has it without an option) carrying
/// into the high word, S64 CSWAP (NV_shader_atomic_int64), F64 ADD
/// (NV_shader_atomic_float64) and F16X2 ADD / F16X4 MAX
/// (NV_shader_atomic_fp16_vector), each returning the value before.
#[test]
fn wide_and_half_vector_atomics_at_a_gpu_address() {
    // Words 0-1: a 64-bit integer; 2-3: an f64; 4: two halves; 6-7: four
    // halves. The old values are stored at words 8-13 (64-bit ones) and
    // 16-23 (the halves as floats).
    let src = "!!NVcp5.0
OPTION NV_shader_atomic_int64;
OPTION NV_shader_atomic_float64;
OPTION NV_shader_atomic_fp16_vector;
GROUP_SIZE 1;
LONG TEMP base, a, d, r;
TEMP t, h;
PK64.U base, program.env[0];
PK64.U d, {1, 0, 0, 0};
ATOM.ADD.U64 r.x, d, base.x;
UP64.U t, r;
ADD.U64 a.x, base.x, 32;
STORE.U32X2 t, a.x;
PK64.S d, {0, 2, -5, -1};
ATOM.CSWAP.S64 r.x, d, base.x;
UP64.U t, r;
ADD.U64 a.x, base.x, 40;
STORE.U32X2 t, a.x;
PK64.U d, {0, 1070596096, 0, 0};
ADD.U64 a.x, base.x, 8;
ATOM.ADD.F64 r.x, d, a.x;
UP64.U t, r;
ADD.U64 a.x, base.x, 48;
STORE.U32X2 t, a.x;
ADD.U64 a.x, base.x, 16;
ATOM.ADD.F16X2 h, {0.5, 3.0, 0, 0}, a.x;
ADD.U64 a.x, base.x, 64;
STORE.F32X4 h, a.x;
ADD.U64 a.x, base.x, 24;
ATOM.MAX.F16X4 h, {0.5, 8.0, 3.0, -1.0}, a.x;
ADD.U64 a.x, base.x, 80;
STORE.F32X4 h, a.x;
END
";
    // f16: 1.0 = 0x3C00, 2.0 = 0x4000, 3.0 = 0x4200, 4.0 = 0x4400.
    let mut words = vec![0u32; 24];
    words[..8].copy_from_slice(&[
        0xFFFF_FFFF,
        1, // 0x1_FFFF_FFFF
        0,
        0x3FF8_0000, // 1.5
        0x4000_3C00, // (1.0, 2.0)
        0,
        0x4000_3C00, // (1.0, 2.0)
        0x4400_4200, // (3.0, 4.0)
    ]);
    let mut expected = words.clone();
    // ADD.U64: 0x1_FFFF_FFFF + 1 = 0x2_0000_0000; then CSWAP.S64 finds
    // 0x2_0000_0000 equal to d.x and stores d.y = -5.
    expected[0] = 0xFFFF_FFFB;
    expected[1] = 0xFFFF_FFFF;
    // ADD.F64: 1.5 + 0.25 (0x3FD0_0000_0000_0000) = 1.75.
    expected[3] = 0x3FFC_0000;
    // ADD.F16X2: (1.0 + 0.5, 2.0 + 3.0) = (1.5 = 0x3E00, 5.0 = 0x4500).
    expected[4] = 0x4500_3E00;
    // MAX.F16X4: (max(1, 0.5), max(2, 8), max(3, 3), max(4, -1)) =
    // (1, 8 = 0x4800, 3, 4).
    expected[6] = 0x4800_3C00;
    // The old values: ADD's 0x1_FFFF_FFFF, CSWAP's 0x2_0000_0000, the f64
    // 1.5, the halves (1, 2) as floats, then (1, 2, 3, 4).
    expected[8..14].copy_from_slice(&[0xFFFF_FFFF, 1, 0, 2, 0, 0x3FF8_0000]);
    expected[16..24].copy_from_slice(&[f(1.0), f(2.0), 0, 0, f(1.0), f(2.0), f(3.0), f(4.0)]);
    let (device, interpreted) = run(src, &words);
    assert_eq!(interpreted, expected, "interpreter");
    if let Some(device) = device {
        assert_eq!(device, expected, "device");
    }
}

#[test]
fn eight_and_sixteen_bit_loads_and_stores_at_gpu_addresses() {
    // 2.X.4.5: S8/U8/S16/U16 loads read one byte or half-word ("result.x =
    // ((int8_t *)address)[0]"), sign- or zero-extended, the other
    // components zero; stores write x's low 8 or 16 bits and leave the
    // rest of the word as it was. Memory is little-endian.
    let src = "!!NVcp5.0
GROUP_SIZE 1;
LONG TEMP base, a;
TEMP o, p, t;
PK64.U base, program.env[0];
LOAD.U8 t, base.x;
MOV.U o.x, t.x;
ADD.U64 a.x, base.x, 2;
LOAD.S8 t, a.x;
MOV.U o.y, t.x;
ADD.U64 a.x, base.x, 3;
LOAD.U8 t, a.x;
MOV.U o.z, t.x;
ADD.U64 a.x, base.x, 6;
LOAD.S16 t, a.x;
MOV.U o.w, t.x;
ADD.U64 a.x, base.x, 4;
LOAD.U16 p, a.x;
ADD.U64 a.x, base.x, 32;
STORE.U32X4 o, a.x;
ADD.U64 a.x, base.x, 48;
STORE.U32X4 p, a.x;
MOV.U t, 0x123456AB;
ADD.U64 a.x, base.x, 9;
STORE.U8 t, a.x;
MOV.S t, -2;
ADD.U64 a.x, base.x, 14;
STORE.S16 t, a.x;
MOV.U t, 0x100;
ADD.U64 a.x, base.x, 16;
STORE.U8 t, a.x;
END
";
    let mut words = vec![0xDEAD_BEEFu32; 16];
    words[0] = 0x80FF_7F01; // bytes 01 7F FF 80
    words[1] = 0x8001_7FFE; // half-words 7FFE 8001
    words[2] = 0x1122_3344;
    words[3] = 0x5566_7788;
    words[4] = 0xAAAA_AAAA;
    let mut expected = words.clone();
    // Loads: U8 at 0 = 0x01; S8 at 2 = 0xFF = -1; U8 at 3 = 0x80;
    // S16 at 6 = 0x8001 = -32767; U16 at 4 = 0x7FFE with y, z, w zero.
    expected[8..12].copy_from_slice(&[0x01, u32::MAX, 0x80, (-32767i32) as u32]);
    expected[12..16].copy_from_slice(&[0x7FFE, 0, 0, 0]);
    // Stores: U8 0xAB at byte 9 (word 2's second byte); S16 -2 = 0xFFFE
    // at byte 14 (word 3's high half); U8 of 0x100 writes 0x00 at byte 16.
    expected[2] = 0x1122_AB44;
    expected[3] = 0xFFFE_7788;
    expected[4] = 0xAAAA_AA00;
    let (device, interpreted) = run(src, &words);
    assert_eq!(interpreted, expected, "interpreter");
    if let Some(device) = device {
        assert_eq!(device, expected, "device");
    }
}

#[test]
fn nv_gpu_program4_loads_with_the_option_read_a_32_bit_address() {
    // NV_shader_buffer_load in an NV_gpu_program4 program: LOAD reads its
    // address from a 32-bit register ("the single unsigned integer scalar
    // operand"), zero-extended to 64 bits, so it reaches the first 4 GiB
    // only. Vulkan does not place buffers there on request, so this runs
    // in the interpreter (the buffer at 0x1000) and is compiled and
    // validated for the device, not run on it.
    let src = "!!NVfp4.0
OPTION NV_shader_buffer_load;
TEMP t, u;
LOAD.F32X4 t, program.env[0].x;
LOAD.S16 u, program.env[0].y;
MOV t.w, u.x;
MOV result.color, t;
END
";
    let mut options = nvp4c::Options::default();
    options.target_env = nvp4c::TargetEnv::Vulkan1_2;
    let (program, _) = nvp4c::check(src, &options).unwrap_or_else(|d| panic!("{d:?}"));
    let mut inputs = nvp4c::interp::Inputs::default();
    // x: the address of the four floats; y: of the half-word 0xFFF6 (-10)
    // in the high half of word 4 (byte 0x1012).
    inputs.env.insert(0, [0x1000, 0x1012, 0, 0]);
    inputs
        .global
        .insert(0x1000, vec![f(0.5), f(-1.0), f(2.0), f(9.0), 0xFFF6_1234]);
    let outcome = nvp4c::interp::run(&program, &inputs, &Default::default())
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(outcome.undefined.is_empty(), "{:?}", outcome.undefined);
    // LOAD.S16 writes the integer -10 to u.x; MOV (a float MOV of a
    // typeless register) moves its bits to t.w.
    assert_eq!(
        outcome.results["result.color"].bits,
        [f(0.5), f(-1.0), f(2.0), (-10i32) as u32]
    );
    let compiled = nvp4c::compile(src, &options).unwrap_or_else(|d| panic!("{d:?}"));
    assert!(compiled
        .reflection
        .device_features
        .contains(&"bufferDeviceAddress".to_string()));
}

#[test]
fn sixty_four_bit_and_mem_extended_loads_and_stores_at_gpu_addresses() {
    // NV_gpu_program5 2.X.4.5 with the 64-bit storage modifiers and
    // NV_gpu_program5_mem_extended's: LOAD.U64X2 reads two 64-bit values
    // (the low word first) into x and y; STORE.F64 writes x only; S8X4
    // sign-extends four bytes; F16 reads a half-word as a 16-bit float;
    // STORE.F16X2 rounds two floats to nearest even; STORE.S8X2 writes two
    // bytes and keeps the rest of their word.
    let src = "!!NVcp5.0
OPTION NV_gpu_program5_mem_extended;
GROUP_SIZE 1;
LONG TEMP base, a, d;
TEMP t;
PK64.U base, program.env[0];
LOAD.U64X2 d, base.x;
ADD.U64 d.x, d.x, 1;
ADD.U64 a.x, base.x, 64;
STORE.U64X2 d, a.x;
ADD.U64 a.x, base.x, 16;
LOAD.F64 d, a.x;
ADD.F64 d.x, d.x, d.x;
ADD.U64 a.x, base.x, 80;
STORE.F64 d, a.x;
ADD.U64 a.x, base.x, 24;
LOAD.S8X4 t, a.x;
ADD.U64 a.x, base.x, 96;
STORE.U32X4 t, a.x;
ADD.U64 a.x, base.x, 30;
LOAD.F16 t, a.x;
ADD.U64 a.x, base.x, 112;
STORE.F32 t, a.x;
MOV t, {0.333333343, -65520, 1, 2};
ADD.U64 a.x, base.x, 116;
STORE.F16X2 t, a.x;
MOV.S t, {-1, 2, -3, 4};
ADD.U64 a.x, base.x, 122;
STORE.S8X2 t, a.x;
END
";
    let mut words = vec![0xDEAD_BEEFu32; 32];
    // 0x1_FFFFFFFF and 0x01234567_89ABCDEF.
    words[..4].copy_from_slice(&[0xFFFF_FFFF, 1, 0x89AB_CDEF, 0x0123_4567]);
    // The f64 1 + 2^-40 = 0x3FF00000_00001000.
    words[4] = 0x0000_1000;
    words[5] = 0x3FF0_0000;
    words[6] = 0x80FF_7F01; // bytes 01 7F FF 80
    words[7] = 0xC000_1234; // the half-word at byte 30 is 0xC000 = -2.0
    let mut expected = words.clone();
    // 0x1_FFFFFFFF + 1 = 0x2_00000000 carries into the high word; y as read.
    expected[16..20].copy_from_slice(&[0, 2, 0x89AB_CDEF, 0x0123_4567]);
    // 2 × (1 + 2^-40) = 2 + 2^-39 = 0x40000000_00001000 (the same mantissa
    // bit one exponent up).
    expected[20] = 0x0000_1000;
    expected[21] = 0x4000_0000;
    expected[24..28].copy_from_slice(&[1, 127, u32::MAX, (-128i32) as u32]);
    expected[28] = f(-2.0);
    // 1/3 rounds to 0x3555; -65520 lies halfway between -65504 (odd
    // mantissa) and -65536, so it rounds to even: -infinity, 0xFC00.
    expected[29] = 0xFC00_3555;
    // Bytes 122, 123 = 0xFF, 0x02; bytes 120, 121 keep 0xEF, 0xBE.
    expected[30] = 0x02FF_BEEF;
    let (device, interpreted) = run(src, &words);
    assert_eq!(interpreted, expected, "interpreter");
    if let Some(device) = device {
        assert_eq!(device, expected, "device");
    }
}
