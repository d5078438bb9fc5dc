//! Execution tests of the storage modifiers of NV_gpu_program5 2.X.4.5
//! (S8, U8, S16, U16 and the 64-bit F64, S64, U64 with their X2/X4 forms)
//! and NV_gpu_program5_mem_extended (F16, F16X2, F16X4 and the 8/16-bit
//! integer vectors) on LDB/STB (storage buffers, `--target-env vulkan1.0`'s
//! Uniform BufferBlock and vulkan1.3's StorageBuffer) and LDS/STS (shared
//! memory), in single-invocation compute programs on the device and in the
//! interpreter: both must leave the words worked out by hand below from
//! BufferMemoryLoad / BufferMemoryStore (little-endian: byte 0 of a word
//! is its low byte).

use crate::harness;
use crate::harness::ComputeJob;
use nvp4c::TargetEnv;

const ENVS: [TargetEnv; 2] = [TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_3];

const HEADER: &str = "!!NVcp5.0
OPTION NV_shader_storage_buffer;
OPTION NV_gpu_program5_mem_extended;
GROUP_SIZE 1;
STORAGE src = program.storage[0];
STORAGE dst = program.storage[1];
INT TEMP s;
UINT TEMP u;
TEMP f;
LONG TEMP d;
";

/// Runs `HEADER` + `body` with `program.storage[0]` = `src` and
/// `program.storage[1]` = `dst` (their words before), in the interpreter
/// and on the device in every env of [`ENVS`]; each must leave `want` in
/// `program.storage[1]`.
fn check(body: &str, src: &[u32], dst: &[u32], want: &[u32]) {
    check_with("", body, src, dst, want);
}

/// [`check`] with `declarations` after `GROUP_SIZE`.
fn check_with(declarations: &str, body: &str, src: &[u32], dst: &[u32], want: &[u32]) {
    let header = HEADER.replace("GROUP_SIZE 1;\n", &format!("GROUP_SIZE 1;\n{declarations}"));
    let text = format!("{header}{body}END\n");
    // The interpreter.
    let (program, _) = nvp4c::check(&text, &nvp4c::Options::default())
        .unwrap_or_else(|d| panic!("{}", d.render("t.cp", &text, false)));
    let mut inputs = nvp4c::interp::Inputs::default();
    inputs.storage.insert(0, src.to_vec());
    inputs.storage.insert(1, dst.to_vec());
    let out = nvp4c::interp::run(&program, &inputs, &Default::default()).unwrap();
    assert!(out.undefined.is_empty(), "interpreter: {:?}", out.undefined);
    assert_words("interpreter", &out.storage[&1], want);
    // The device.
    for env in ENVS {
        let mut o = nvp4c::Options::default();
        o.target_env = env;
        let spirv = nvp4c::compile(&text, &o)
            .unwrap_or_else(|d| panic!("{}", d.render("t.cp", &text, false)))
            .spirv;
        let Some(device) = harness::device_or_skip() else {
            return;
        };
        let job = ComputeJob::new([1, 1, 1], vec![(64, src.to_vec()), (65, dst.to_vec())]);
        let got = device
            .run_compute(&spirv, &job)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_words(&format!("device {env:?}"), &got[1], want);
    }
}

fn assert_words(who: &str, got: &[u32], want: &[u32]) {
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert_eq!(g, w, "{who}: word {i} is {g:#010x}, expected {w:#010x}");
    }
    assert_eq!(got.len(), want.len(), "{who}");
}

/// The words the loads below read:
///
/// | word | value | bytes (low first) / halves (low first) |
/// |------|-------|-----------------------------------------|
/// | 0 | 0x807F01FF | FF 01 7F 80 |
/// | 1 | 0x80007FFF | halves 0x7FFF 0x8000 |
/// | 2 | 0x3C00B555 | F16 halves −0.333251953125, 1.0 |
/// | 3 | 0x7BFF0001 | F16 halves 2^-24 (the smallest denormal), 65504 |
/// | 4, 5 | 2^32 + 2 | U64, low word first |
/// | 6, 7 | −2^33 | S64: 0x00000000, 0xFFFFFFFE |
/// | 8, 9 | 2^40 + 0.5 | F64 0x4270000000000800 |
/// | 10, 11 | −1.5 | F64 0xBFF8000000000000 |
const SRC: [u32; 12] = [
    0x807F_01FF,
    0x8000_7FFF,
    0x3C00_B555,
    0x7BFF_0001,
    2,
    1,
    0,
    0xFFFF_FFFE,
    0x0000_0800,
    0x4270_0000,
    0,
    0xBFF8_0000,
];

#[test]
fn ldb_sign_and_zero_extends_bytes_and_halves_and_widens_f16() {
    let body = "LDB.S8X4 s, src[0];
STB.S32X4 s, dst[0];
LDB.U8X4 u, src[0];
STB.U32X4 u, dst[16];
LDB.S16X2 s, src[4];
STB.S32X4 s, dst[32];
LDB.U16X4 u, src[0];
STB.U32X4 u, dst[48];
LDB.S8X2 s, src[2];
STB.S32X2 s, dst[64];
LDB.S16 s, src[2];
STB.S32 s.x, dst[72];
LDB.F16X4 f, src[8];
STB.F32X4 f, dst[76];
LDB.U8 u, src[3];
STB.U32X2 u, dst[92];
";
    let want = [
        // S8X4 of FF 01 7F 80: -1, 1, 127, -128.
        0xFFFF_FFFF,
        1,
        127,
        0xFFFF_FF80,
        // U8X4: 255, 1, 127, 128.
        255,
        1,
        127,
        128,
        // S16X2 at byte 4: 0x7FFF, 0x8000 = 32767, -32768; z, w zero.
        32767,
        0xFFFF_8000,
        0,
        0,
        // U16X4 at byte 0: the halves of words 0 and 1.
        0x01FF,
        0x807F,
        0x7FFF,
        0x8000,
        // S8X2 at byte 2: 7F 80 = 127, -128.
        127,
        0xFFFF_FF80,
        // S16 at byte 2: 0x807F = -32641.
        0xFFFF_807F,
        // F16X4 at byte 8, as f32: -1365/4096 (sign, exponent 125,
        // mantissa 0x155 << 13), 1.0, 2^-24, 65504.
        0xBEAA_A000,
        0x3F80_0000,
        0x3380_0000,
        0x477F_E000,
        // U8 at byte 3: 0x80, and y filled with zero.
        0x80,
        0,
    ];
    check(body, &SRC, &[0xAAAA_AAAA; 25], &want);
}

#[test]
fn stb_truncates_integers_rounds_f16_and_keeps_the_other_bytes() {
    // Narrow stores change only their own bytes: the destination starts
    // as 0xAA bytes.
    let body = "MOV.S s, {-1, 300, -129, 65536};
STB.S8X4 s, dst[0];
STB.S16X2 s, dst[4];
STB.S16X4 s, dst[8];
STB.S8 s.y, dst[17];
STB.S16 s.z, dst[22];
STB.S8X2 s, dst[26];
MOV f, {0.33333333, -65520, 0.00000001, 2.5};
STB.F16X4 f, dst[32];
STB.F16 f.x, dst[42];
STB.F16X2 f.wzyx, dst[44];
";
    let want = [
        // S8X4: the low bytes FF, 2C (300 = 0x12C), 7F (-129 = 0x..FF7F), 00.
        0x007F_2CFF,
        // S16X2: 0xFFFF, 0x012C.
        0x012C_FFFF,
        // S16X4: 0xFFFF, 0x012C | 0xFF7F, 0x0000.
        0x012C_FFFF,
        0x0000_FF7F,
        // S8 at byte 17: word 4's byte 1.
        0xAAAA_2CAA,
        // S16 at byte 22: word 5's high half.
        0xFF7F_AAAA,
        // S8X2 at byte 26: word 6's bytes 2, 3.
        0x2CFF_AAAA,
        0xAAAA_AAAA,
        // F16X4 (to nearest, ties to even): f32(0.33333333) = 0x3EAAAAAB
        // is nearer 0x3555 (0.333251953) than 0x3556 (0.333496094);
        // -65520 is the tie between 65504 (odd mantissa) and 2^16, so
        // -infinity (0xFC00); 1e-8 is below 2^-25, half the smallest
        // denormal: +0; 2.5 = 0x4100.
        0xFC00_3555,
        0x4100_0000,
        // F16 at byte 42: word 10's high half.
        0x3555_AAAA,
        // F16X2 of (w, z) at byte 44.
        0x0000_4100,
    ];
    check(body, &SRC, &[0xAAAA_AAAA; 12], &want);
}

#[test]
fn ldb_and_stb_move_64_bit_values_above_2_pow_32() {
    let body = "LDB.U64X2 d, src[16];
ADD.U64 d.x, d.x, d.x;
STB.U64X2 d, dst[0];
LDB.S64 d, src[24];
STB.S64X4 d, dst[16];
LDB.F64 d, src[32];
ADD.F64 d.x, d.x, 0.25;
STB.F64 d, dst[48];
LDB.U64 u, src[16];
STB.U32 u.x, dst[56];
LDB.F64X2 f, src[32];
STB.F32X2 f, dst[60];
MOV.S s.x, -5;
STB.S64 s, dst[72];
";
    let want = [
        // U64X2: x = 2 (2^32 + 2) = 2^33 + 4, y = 0xFFFFFFFE00000000 (the
        // bits of words 6, 7 as unsigned).
        4,
        2,
        0,
        0xFFFF_FFFE,
        // S64 then S64X4: x = -2^33, y, z, w zero.
        0,
        0xFFFF_FFFE,
        0,
        0,
        0,
        0,
        0,
        0,
        // F64: 2^40 + 0.5 + 0.25 = 0x4270000000000C00 (no f32 holds it).
        0x0000_0C00,
        0x4270_0000,
        // U64 into a 32-bit register: the low 32 bits of 2^32 + 2.
        2,
        // F64X2 into a 32-bit register: the nearest f32s, 2^40 and -1.5.
        0x5380_0000,
        0xBFC0_0000,
        0xAAAA_AAAA,
        // S64 of a 32-bit register's -5: sign-extended.
        0xFFFF_FFFB,
        0xFFFF_FFFF,
    ];
    check(body, &SRC, &[0xAAAA_AAAA; 20], &want);
}

#[test]
fn lds_and_sts_with_narrow_and_64_bit_modifiers() {
    // Shared memory starts undefined: every byte read below is written
    // first.
    let body = "MOV.S s, {-1, 300, -129, 65536};
STS.S8X4 s, sh[0];
STS.S16X2 s.zwxy, sh[4];
STS.S8 s.y, sh[9];
MOV f, {-2, 0.5, 0, 0};
STS.F16X2 f, sh[12];
LDB.U64 d, src[16];
STS.U64 d, sh[16];
LDS.S8X4 s, sh[0];
STB.S32X4 s, dst[0];
LDS.U16X2 u, sh[4];
STB.U32X2 u, dst[16];
LDS.U8 u, sh[9];
STB.U32 u, dst[24];
LDS.F16X2 f, sh[12];
STB.F32X2 f, dst[28];
LDS.U64 d, sh[16];
STB.U64 d, dst[40];
LDS.U32X2 u, sh[16];
STB.U32X2 u, dst[48];
";
    let want = [
        // S8X4 round trip: -1, 300 -> 0x2C = 44, -129 -> 0x7F = 127, 0.
        0xFFFF_FFFF,
        44,
        127,
        0,
        // U16X2 of (z, w) = (-129, 65536): 0xFF7F, 0x0000.
        0xFF7F,
        0,
        // U8 at byte 9: 300's low byte.
        0x2C,
        // F16X2 round trip: -2.0 and 0.5 are exact.
        0xC000_0000,
        0x3F00_0000,
        0xAAAA_AAAA,
        // U64 round trip: 2^32 + 2.
        2,
        1,
        // The same bytes as U32X2: low word first.
        2,
        1,
    ];
    let shared = "SHARED_MEMORY 24;\nSHARED sh[] = { program.sharedmem };\n";
    check_with(shared, body, &SRC, &[0xAAAA_AAAA; 14], &want);
}

#[test]
fn narrow_stores_of_neighbouring_invocations_keep_each_others_bytes() {
    // 16 invocations: invocation i stores the byte 0x10 + i at byte i of
    // words 0..3 (STB.U8) and the half 0x100 + i at half i of words 4..11
    // (STS.U16; after BAR every invocation copies the same 32 bytes of
    // shared memory to words 4..11), at the same time. A word-wide
    // read-modify-write would lose some of them; each store changes only
    // its own bytes, so every word holds its four bytes or two halves.
    let src = "!!NVcp5.0
OPTION NV_shader_storage_buffer;
GROUP_SIZE 16;
SHARED_MEMORY 32;
SHARED sh[] = { program.sharedmem };
STORAGE dst = program.storage[0];
UINT TEMP i, v, b;
MOV.U i, invocation.localindex;
ADD.U v, i, 16;
STB.U8 v, dst[i.x];
ADD.U v, i, 256;
SHL.U b, i, 1;
STS.U16 v, sh[b.x];
BAR;
LDS.U32X4 v, sh[0];
STB.U32X4 v, dst[16];
LDS.U32X4 v, sh[16];
STB.U32X4 v, dst[32];
END
";
    let spirv = match nvp4c::compile(src, &nvp4c::Options::default()) {
        Ok(c) => c.spirv,
        Err(d) => panic!("{}", d.render("t.cp", src, false)),
    };
    let Some(device) = harness::device_or_skip() else {
        return;
    };
    let job = ComputeJob::new([1, 1, 1], vec![(64, vec![0xAAAA_AAAA; 12])]);
    let got = device
        .run_compute(&spirv, &job)
        .unwrap_or_else(|e| panic!("{e}"));
    let want: Vec<u32> = (0..4u32)
        .map(|w| u32::from_le_bytes([0, 1, 2, 3].map(|k| 0x10 + 4 * w as u8 + k)))
        .chain((0..8u32).map(|w| (0x100 + 2 * w) | (0x100 + 2 * w + 1) << 16))
        .collect();
    assert_words("device", &got[0], &want);
}

/// `program.storagelen[a]` and `[a..b]` (NV_shader_storage_buffer_object
/// 2.X.3.3): "If the program is an assembly program ... the "x" component
/// will hold the integer value zero", whatever the buffer's size; nvp4c
/// fills y, z and w with 0 as well. So 0, 0 + 5, and zeros.
#[test]
fn storage_lengths_of_an_assembly_program_are_zero() {
    check_with(
        "PARAM len = program.storagelen[0];\nPARAM lens[] = { program.storagelen[1..3] };\n",
        "MOV.S s.x, len.x;\nADD.S s.y, lens[2].x, 5;\nMOV.S s.zw, lens[0];\nSTB.S32X4 s, dst[0];\n",
        &[7; 4],
        &[9; 4],
        &[0, 5, 0, 0],
    );
}

/// One buffer's element bindings (NV_shader_storage_buffer_object Table
/// X.2): `program.storage[0][8..15]` is "elements 8 through 15 ... in
/// order", so its byte 4 is the buffer's byte 12 (word 3);
/// `program.storage[0][4]` is "element 4", the buffer's byte 4 (word 1).
/// Stores go through the same offsets: byte 4 of `program.storage[1][8]`
/// is word 3 of the destination.
#[test]
fn storage_element_bindings_start_at_their_first_element() {
    check_with(
        "STORAGE part[] = { program.storage[0][8..15] };\nSTORAGE one = program.storage[0][4];\nSTORAGE out = program.storage[1][8];\n",
        "LDB.U32 u.x, part[4];\nSTB.U32 u.x, dst[0];\nLDB.U32 u.x, one;\nSTB.U32 u.x, dst[4];\nLDB.U32 u.x, part[0];\nSTB.U32 u.x, out[4];\n",
        &[10, 11, 12, 13],
        &[0; 4],
        &[13, 11, 0, 12],
    );
}

/// A range of buffers (NV_shader_storage_buffer_object Table X.2,
/// `program.storage[a..b]`: "accessed as an array, with the first index
/// specifying an offset into the range of buffer binding points"), alone
/// and with an element range: `both[0][8]` is the source's byte 8 (12),
/// stored at `both[1][4]`, the destination's word 1; `tail[0][0]` is the
/// source's byte 4 (11), stored at `tail[1][8]`, the destination's byte
/// 4 + 8 = 12 (word 3).
#[test]
fn storage_buffer_ranges_pick_the_binding_point_by_their_first_index() {
    check_with(
        "STORAGE both[] = { program.storage[0..1] };\nSTORAGE tail[] = { program.storage[0..1][4..15] };\n",
        "LDB.U32 u.x, both[0][8];\nSTB.U32 u.x, both[1][4];\nLDB.U32 u.x, tail[0][0];\nSTB.U32 u.x, tail[1][8];\n",
        &[10, 11, 12, 13],
        &[0; 4],
        &[0, 12, 0, 11],
    );
}

/// A range's binding point picked by a register, plus a constant, clamped
/// into the range as relative array addressing is (docs/semantics.md):
/// s = (1, 0, 5, -3). `both[s.y][8]` reads the source's word 2 (12) into
/// the destination's word 0 (`both[s.x]`); `both[s.w + 3][4]`, binding
/// point 0, reads 11 into word 2 of `both[s.z]`, 5 clamped to 1; the
/// atomic on `both[s.x - 1][12]` returns the source's 13, stored at word
/// 3.
#[test]
fn a_register_picks_the_binding_point_of_a_storage_range() {
    check_with(
        "STORAGE both[] = { program.storage[0..1] };\n",
        "MOV.S s, {1, 0, 5, -3};\nLDB.U32 u.x, both[s.y][8];\nSTB.U32 u.x, both[s.x][0];\nLDB.U32 u.x, both[s.w + 3][4];\nSTB.U32 u.x, both[s.z][8];\nATOMB.ADD.U32 u.y, u.x, both[s.x - 1][12];\nSTB.U32 u.y, both[s.x][12];\n",
        &[10, 11, 12, 13],
        &[0; 4],
        &[12, 0, 11, 13],
    );
}

/// Accesses wider than a word whose first words lie inside the buffer and
/// whose last ones do not are outside as a whole: NV_shader_storage_buffer_object
/// 2.X.3.Y, "the bound buffer object is not large enough to hold an
/// element <c>, reads from the binding return zero and writes to the
/// binding have no effect" — the element being the access's bytes
/// (docs/semantics.md, "Accesses partly outside their memory"). `src`
/// has 6 words (2^32 + 2 as U64 in words 4, 5) and `dst` 8.
#[test]
fn ldb_and_stb_partly_past_the_buffer_read_zero_and_write_nothing() {
    let body = "LDB.U64X2 d, src[16];
STB.U64X2 d, dst[0];
LDB.U32X4 u, src[16];
STB.U32X2 u, dst[16];
MOV.U u, {1, 2, 3, 4};
STB.U32X4 u, dst[24];
";
    let want = [
        // U64X2 at byte 16: words 4..7, of which 6, 7 are past `src`: 0.
        0,
        0,
        0,
        0,
        // U32X4 at byte 16 (words 4..7): 0, not words 4, 5 (2, 1).
        0,
        0,
        // U32X4 at byte 24 of `dst`: words 6..9, 8, 9 past it: nothing
        // written, words 6, 7 keep their value.
        0xAAAA_AAAA,
        0xAAAA_AAAA,
    ];
    check(body, &SRC[..6], &[0xAAAA_AAAA; 8], &want);
}

/// LDS and STS with a register offset partly past SHARED_MEMORY (24
/// bytes, words 0..5): the load reads zero and the store writes nothing,
/// as for a storage buffer (docs/semantics.md, "Shared memory"; a
/// constant offset past it fails to load, NV_compute_program5 2.X.3.Y).
#[test]
fn lds_and_sts_partly_past_shared_memory_read_zero_and_write_nothing() {
    let body = "MOV.U u, {5, 6, 7, 8};
STS.U32X4 u, sh[0];
STS.U32X2 u, sh[16];
MOV.U at.x, 16;
MOV.U u, {1, 2, 3, 4};
STS.U32X4 u, sh[at.x];
LDS.U32X4 u, sh[at.x];
STB.U32X4 u, dst[0];
LDS.U32X2 u, sh[at.x];
STB.U32X2 u, dst[16];
";
    let want = [
        // U32X4 at byte 16: words 4..7, 6 and 7 past the 24 bytes: 0.
        0, 0, 0, 0,
        // Words 4, 5 as the first STS.U32X2 left them: the partial
        // STS.U32X4 wrote nothing.
        5, 6,
    ];
    let shared = "SHARED_MEMORY 24;\nSHARED sh[] = { program.sharedmem };\nUINT TEMP at;\n";
    check_with(shared, body, &SRC, &[0xAAAA_AAAA; 6], &want);
}
