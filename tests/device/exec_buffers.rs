//! Execution tests of parameter buffers (NV_parameter_buffer_object;
//! NV_gpu_program4 section 2.X.3.6) on the Vulkan device: BUFFER (single
//! words, replicated to four components) and BUFFER4 (vec4s) variables,
//! single and array, with absolute and relative addressing, read from the
//! `ProgramBuffer` blocks at binding 3 + b (docs/interface.md, "Parameter
//! buffers"). Relative addressing outside the array is undefined in the
//! spec; nvp4c clamps the index into the array (docs/semantics.md).
//!
//! Word w of buffer b holds `(b << 16) | w`, so every expected value below
//! names the buffer and word it comes from.

use crate::harness;
use crate::harness::{FragmentJob, Input};
use nvp4c::TargetEnv;

const ENVS: [TargetEnv; 2] = [TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_3];

fn compile(src: &str, env: TargetEnv) -> Vec<u32> {
    let mut o = nvp4c::Options::default();
    o.target_env = env;
    match nvp4c::compile(src, &o) {
        Ok(c) => c.spirv,
        Err(d) => panic!(
            "compile failed ({env:?}):\n{}",
            d.render("t.fp", src, false)
        ),
    }
}

/// Word `w` of buffer `b`.
fn word(b: u32, w: u32) -> u32 {
    (b << 16) | w
}

/// Buffer `b` as `vec4s` uvec4s of `word(b, ..)`.
fn contents(b: u32, vec4s: u32) -> (u32, Vec<[u32; 4]>) {
    let data = (0..vec4s)
        .map(|i| [0, 1, 2, 3].map(|c| word(b, 4 * i + c)))
        .collect();
    (b, data)
}

fn splat(x: u32) -> [u32; 4] {
    [x; 4]
}

/// vec4 `i` of buffer `b`.
fn vec4(b: u32, i: u32) -> [u32; 4] {
    [0, 1, 2, 3].map(|c| word(b, 4 * i + c))
}

const PROGRAM: &str = "!!NVfp4.0
OPTION ARB_draw_buffers;
BUFFER s[] = { program.buffer[0][2..9] };
BUFFER4 v[] = { program.buffer[3][1..4] };
BUFFER4 one = program.buffer[5][2];
BUFFER4 big[] = { program.buffer[1] };
BUFFER w = program.buffer[0][13];
INT TEMP a;
UINT OUTPUT o0 = result.color[0];
UINT OUTPUT o1 = result.color[1];
UINT OUTPUT o2 = result.color[2];
UINT OUTPUT o3 = result.color[3];
UINT OUTPUT o4 = result.color[4];
FLR.S a, fragment.texcoord[0];
MOV.U o0, s[a.x];
MOV.U o1, v[a.y + 1];
ADD.U o2, one, w;
MOV.U o3, s[5];
MOV.U o4, big[a.z + 2];
END
";

#[test]
fn buffer_and_buffer4_reads_with_absolute_and_relative_addressing() {
    // (a.x, a.y, a.z) per case.
    let addresses: [[f32; 3]; 4] = [
        [0.0, 0.0, 0.0],
        [7.0, 2.0, 5.0],
        [8.0, 3.0, -5.0],
        [-3.0, -9.0, 100.0],
    ];
    // s[i] is word 2 + i of buffer 0 (i clamped to 0..=7); v[i] is vec4
    // 1 + i of buffer 3 (i clamped to 0..=3); big[i] is vec4 i of buffer 1
    // (the whole binding point: 0..=MAX_PROGRAM_PARAMETER_BUFFER_SIZE-1).
    let expected: [[[u32; 4]; 5]; 4] = [
        [
            splat(word(0, 2)), // s[0]
            vec4(3, 2),        // v[0 + 1]
            // one (vec4 2 of buffer 5) + w (word 13 of buffer 0, replicated)
            vec4(5, 2).map(|x| x + word(0, 13)),
            splat(word(0, 7)), // s[5]: word 2 + 5
            vec4(1, 2),        // big[0 + 2]
        ],
        [
            splat(word(0, 9)), // s[7]
            vec4(3, 4),        // v[3]
            vec4(5, 2).map(|x| x + word(0, 13)),
            splat(word(0, 7)),
            vec4(1, 7), // big[7]
        ],
        [
            splat(word(0, 9)), // s[8] clamps to s[7]
            vec4(3, 4),        // v[4] clamps to v[3]
            vec4(5, 2).map(|x| x + word(0, 13)),
            splat(word(0, 7)),
            vec4(1, 0), // big[-3] clamps to big[0]
        ],
        [
            splat(word(0, 2)), // s[-3] clamps to s[0]
            vec4(3, 1),        // v[-8] clamps to v[0]
            vec4(5, 2).map(|x| x + word(0, 13)),
            splat(word(0, 7)),
            vec4(1, 102), // big[102]
        ],
    ];
    for env in ENVS {
        let spirv = compile(PROGRAM, env);
        let Some(dev) = harness::device_or_skip() else {
            return;
        };
        let cases = addresses
            .iter()
            .map(|a| vec![Input::float(5, [a[0], a[1], a[2], 0.0])])
            .collect();
        let job = FragmentJob {
            // Buffer 1 is bound with 64 KiB (4096 vec4s), less than the
            // 16384 vec4s the whole-binding array declares: only what is
            // read must be there.
            buffers: vec![
                contents(0, 4),
                contents(1, 4096),
                contents(3, 5),
                contents(5, 3),
            ],
            ..FragmentJob::new(cases)
        };
        let out = dev
            .run_fragment(&spirv, &job)
            .unwrap_or_else(|e| panic!("run failed ({env:?}): {e}"));
        for (i, want) in expected.iter().enumerate() {
            for (loc, w) in want.iter().enumerate() {
                assert_eq!(
                    out.color(i, loc as u32),
                    *w,
                    "case {i}, result.color[{loc}] ({env:?})"
                );
            }
        }
    }
}

#[test]
fn buffer_words_read_as_floats_and_integers() {
    // Buffers are typeless (section 2.X.3.6): words read as floats by ADD
    // and as integers by ADD.S. (BUFFER and BUFFER4 may not share a
    // binding point.)
    let src = "!!NVfp4.0
OPTION ARB_draw_buffers;
BUFFER4 f = program.buffer[2][0];
BUFFER i[] = { program.buffer[4][0..3] };
INT TEMP a;
OUTPUT o0 = result.color[0];
INT OUTPUT o1 = result.color[1];
FLR.S a, fragment.texcoord[0];
ADD o0, f, f;
ADD.S o1, i[a.x], i[a.x + 1];
END
";
    for env in ENVS {
        let spirv = compile(src, env);
        let Some(dev) = harness::device_or_skip() else {
            return;
        };
        let cases = (0..3)
            .map(|x| vec![Input::float(5, [x as f32, 0.0, 0.0, 0.0])])
            .collect();
        let floats = [1.5f32, -2.0, 0.25, 1e30].map(f32::to_bits);
        let job = FragmentJob {
            buffers: vec![(2, vec![floats]), (4, vec![[10, -20i32 as u32, 300, 4000]])],
            ..FragmentJob::new(cases)
        };
        let out = dev
            .run_fragment(&spirv, &job)
            .unwrap_or_else(|e| panic!("run failed ({env:?}): {e}"));
        for case in 0..3 {
            // f + f = (3.0, -4.0, 0.5, 2e30).
            assert_eq!(
                out.color_f32(case, 0),
                [3.0, -4.0, 0.5, 2e30],
                "case {case} ({env:?})"
            );
        }
        // i[a] + i[a + 1] with i = (10, -20, 300, 4000), replicated; for
        // a = 2 the second index 3 is still inside the array.
        let words = [10i32, -20, 300, 4000];
        for a in 0..3usize {
            let sum = words[a] + words[a + 1];
            assert_eq!(out.color(a, 1), [sum as u32; 4], "case {a} ({env:?})");
        }
    }
}

/// Runs the fragment program `src` with `program.buffer[0]` = `words` and
/// `fragment.texcoord[0]` = (a[0], a[1], 0, 0) per case, in the
/// interpreter and on the device in every env of [`ENVS`]; each case must
/// write `expected[case][n]` to `result.color[n]`.
fn check_ldc(src: &str, words: &[u32], cases: &[[f32; 2]], expected: &[[[u32; 4]; 4]]) {
    let (program, _) = nvp4c::check(src, &nvp4c::Options::default()).unwrap();
    for (case, a) in cases.iter().enumerate() {
        let mut inputs = nvp4c::interp::Inputs::default();
        inputs
            .set(
                "fragment.texcoord[0]",
                [a[0], a[1], 0.0, 0.0].map(f32::to_bits),
            )
            .unwrap();
        inputs.buffers.insert(0, words.to_vec());
        let run = nvp4c::interp::run(&program, &inputs, &Default::default()).unwrap();
        for (loc, want) in expected[case].iter().enumerate() {
            let got = run.result(&format!("result.color[{loc}]")).unwrap();
            assert_eq!(got.bits, *want, "interpreter, case {case}, color[{loc}]");
            assert_eq!(got.undefined, 0, "interpreter, case {case}, color[{loc}]");
        }
    }
    for env in ENVS {
        let spirv = compile(src, env);
        let Some(dev) = harness::device_or_skip() else {
            return;
        };
        let job = FragmentJob {
            buffers: vec![(
                0,
                words.chunks(4).map(|c| [c[0], c[1], c[2], c[3]]).collect(),
            )],
            ..FragmentJob::new(
                cases
                    .iter()
                    .map(|a| vec![Input::float(5, [a[0], a[1], 0.0, 0.0])])
                    .collect(),
            )
        };
        let out = dev
            .run_fragment(&spirv, &job)
            .unwrap_or_else(|e| panic!("run failed ({env:?}): {e}"));
        for (case, want) in expected.iter().enumerate() {
            for (loc, w) in want.iter().enumerate() {
                assert_eq!(
                    out.color(case, loc as u32),
                    *w,
                    "case {case}, color[{loc}] ({env:?})"
                );
            }
        }
    }
}

/// NV_parameter_buffer_object2's LDC on CBUFFER variables (bytes of
/// `program.buffer[0]`), as `!!NVfp5.0` has it without the OPTION: every
/// storage size, sign extension, a sub-range's base added to the index, a
/// non-array variable, register offsets, and the operand's swizzle,
/// negation and absolute value (2.X.8.Z, LDC). A single-component load
/// fills x only ("remaining components are filled with zeroes", 2.X.4.5),
/// so writes to y, z, w smear it with `.x` (the spec's issue 10).
/// Little-endian words:
///
/// | word | value       | bytes (low first) |
/// |------|-------------|-------------------|
/// | 0    | 0x4433F201  | 01 F2 33 44       |
/// | 1    | 0x8081FF7F  | 7F FF 81 80       |
/// | 2, 3 | 0x12345678, 0xDEADBEEF | |
/// | 4    | 4           |                   |
/// | 5, 6 | 1.5, −2.25 (bits) |             |
/// | 7    | 7           |                   |
/// | 10, 11 | 0xAAAA0010, 0xBBBB0011 |      |
#[test]
fn ldc_reads_bytes_halves_words_and_vectors() {
    let src = "!!NVfp5.0
OPTION ARB_draw_buffers;
CBUFFER cb[] = { program.buffer[0] };
CBUFFER sub[] = { program.buffer[0][16..47] };
CBUFFER one = program.buffer[0][40];
INT TEMP a;
TEMP f, t;
UINT OUTPUT o0 = result.color[0];
INT OUTPUT o1 = result.color[1];
OUTPUT o2 = result.color[2];
UINT OUTPUT o3 = result.color[3];
FLR.S a, fragment.texcoord[0];
LDC.U32X4 o0, cb[a.x];
LDC.S8 t.x, cb[a.y + 1];
LDC.S16 t.y, cb[a.y + 2].x;
LDC.U8 t.z, cb[a.y + 3].x;
LDC.U16 t.w, cb[6].x;
MOV.S o1, t;
LDC.F32X2 f, sub[4];
MOV o2.xy, f;
LDC.F32 o2.zw, -|sub[8].x|;
LDC.U32X2 o3, one;
END
";
    let words: [u32; 12] = [
        0x4433_F201,
        0x8081_FF7F,
        0x1234_5678,
        0xDEAD_BEEF,
        4,
        1.5f32.to_bits(),
        (-2.25f32).to_bits(),
        7,
        8,
        9,
        0xAAAA_0010,
        0xBBBB_0011,
    ];
    // (a.x, a.y) per case: byte offsets of the U32X4 and of the 8/16-bit reads.
    let cases: [[f32; 2]; 2] = [[0.0, 4.0], [16.0, 0.0]];
    let common = |o0: [u32; 4], o1xyz: [i32; 3]| {
        [
            o0,
            // o1.w: U16 at byte 6 = bytes 81 80 = 0x8081.
            [o1xyz[0] as u32, o1xyz[1] as u32, o1xyz[2] as u32, 0x8081],
            // o2.xy: F32X2 at byte 16 + 4 = words 5, 6; o2.zw: -|word 6|
            // (bytes 16 + 8 = 24), the x smeared by the swizzle.
            [1.5f32, -2.25, -2.25, -2.25].map(f32::to_bits),
            // U32X2 at byte 40: words 10, 11, then zeros.
            [0xAAAA_0010, 0xBBBB_0011, 0, 0],
        ]
    };
    let expected = [
        // a = (0, 4): U32X4 at byte 0 = words 0..3; S8 at byte 5 = FF = -1;
        // S16 at bytes 6..7 = 0x8081 = -32639; U8 at byte 7 = 0x80 = 128.
        common([words[0], words[1], words[2], words[3]], [-1, -32639, 128]),
        // a = (16, 0): U32X4 at byte 16 = words 4..7; S8 at byte 1 = F2 =
        // -14; S16 at bytes 2..3 = 0x4433 = 17459; U8 at byte 3 = 0x44 = 68.
        common([words[4], words[5], words[6], words[7]], [-14, 17459, 68]),
    ];
    check_ldc(src, &words, &cases, &expected);
}

/// LDC with NV_gpu_program5's 64-bit and NV_gpu_program5_mem_extended's
/// storage modifiers (`OPTION NV_gpu_program5_mem_extended`): S8X4 sign
/// extension, F16X2 and F16 widened to f32 (then the operand's negation
/// and swizzle), U16X4, and a U64 above 2^32 in a LONG register. Words:
///
/// | word | value | bytes / halves (low first) |
/// |------|-------|----------------------------|
/// | 0 | 0x807F01FF | FF 01 7F 80 |
/// | 1 | 0x3C00B555 | F16 −1365/4096, 1.0 |
/// | 2 | 0xC0004100 | F16 2.5, −2.0 |
/// | 3 | 0x80007FFF | FF 7F 00 80 |
/// | 4, 5 | 2^32 + 2 | U64, low word first |
#[test]
fn ldc_with_mem_extended_and_64_bit_storage_modifiers() {
    let src = "!!NVfp5.0
OPTION ARB_draw_buffers;
OPTION NV_gpu_program5_mem_extended;
CBUFFER cb[] = { program.buffer[0] };
INT TEMP a;
TEMP f;
LONG TEMP d;
UINT OUTPUT o0 = result.color[0];
INT OUTPUT o1 = result.color[1];
OUTPUT o2 = result.color[2];
UINT OUTPUT o3 = result.color[3];
FLR.S a, fragment.texcoord[0];
LDC.S8X4 o1, cb[a.x];
LDC.F16X2 f, cb[a.y];
MOV o2.xy, f;
LDC.F16 o2.zw, -cb[a.y + 2].x;
LDC.U64 d, cb[16];
ADD.U64 d, d, d;
UP64.U o3, d;
LDC.U16X4 o0, cb[8];
END
";
    let words: [u32; 8] = [
        0x807F_01FF,
        0x3C00_B555,
        0xC000_4100,
        0x8000_7FFF,
        2,
        1,
        0,
        0,
    ];
    // (a.x, a.y) per case: the byte offsets of the S8X4 and F16X2 reads.
    let cases: [[f32; 2]; 2] = [[0.0, 4.0], [12.0, 8.0]];
    let common = |o1: [i32; 4], o2: [u32; 4]| {
        [
            // U16X4 at byte 8: the halves of words 2 and 3.
            [0x4100, 0xC000, 0x7FFF, 0x8000],
            o1.map(|v| v as u32),
            o2,
            // 2 * (2^32 + 2) = 2^33 + 4, unpacked low word first.
            [4, 2, 0, 0],
        ]
    };
    let expected = [
        // S8X4 at byte 0: FF 01 7F 80; F16X2 at byte 4: -1365/4096
        // (0xBEAAA000), 1.0; F16 at byte 6 is 1.0, negated.
        common(
            [-1, 1, 127, -128],
            [0xBEAA_A000, 0x3F80_0000, 0xBF80_0000, 0xBF80_0000],
        ),
        // S8X4 at byte 12: FF 7F 00 80; F16X2 at byte 8: 2.5, -2.0; F16
        // at byte 10 is -2.0, negated.
        common(
            [-1, 127, 0, -128],
            [0x4020_0000, 0xC000_0000, 0x4000_0000, 0x4000_0000],
        ),
    ];
    check_ldc(src, &words, &cases, &expected);
}

/// LDC with 64-bit storage modifiers and the operand's modifiers, which
/// apply to the loaded 64-bit values (2.X.8.Z, LDC), and SAT, which clamps
/// them at 64 bits: words 0, 1 hold the f64 −(2^40 + 0.5)
/// (0xC270000000000800), words 2, 3 the f64 0.75 (0x3FE8000000000000).
#[test]
fn ldc_f64_with_operand_modifiers_and_sat() {
    let src = "!!NVfp5.0
OPTION ARB_draw_buffers;
CBUFFER cb[] = { program.buffer[0] };
INT TEMP a;
LONG TEMP d, e;
OUTPUT o0 = result.color[0];
UINT OUTPUT o1 = result.color[1];
OUTPUT o2 = result.color[2];
OUTPUT o3 = result.color[3];
FLR.S a, fragment.texcoord[0];
LDC.F64X2 d, -|cb[a.x]|;
ADD.F64 d, d, {1099511627776, 1099511627776, 1099511627776, 1099511627776};
MOV o0, d;
LDC.U64 e, cb[a.x];
UP64.U o1, e;
LDC.F64X2.SAT o2, cb[a.x];
LDC.F64 o3, cb[a.x + 8].x;
END
";
    let words = [0x0000_0800, 0xC270_0000, 0, 0x3FE8_0000];
    let expected = [[
        // -|x| + 2^40 at 64 bits: -0.5 exactly; -0.75 + 2^40 rounds to the
        // f32 2^40 only when written; z, w: -|0| + 2^40.
        [0xBF00_0000, 0x5380_0000, 0x5380_0000, 0x5380_0000],
        // The same bits as U64, unpacked low word first; y is 0.
        [0x0000_0800, 0xC270_0000, 0, 0],
        // SAT at 64 bits: 0, 0.75, and the zeros.
        [0, 0x3F40_0000, 0, 0],
        // F64 at byte 8: 0.75, smeared by `.x`.
        [0x3F40_0000; 4],
    ]];
    check_ldc(src, &words, &[[0.0, 0.0]], &expected);
}
