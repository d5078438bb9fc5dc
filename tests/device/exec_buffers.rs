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

/// Buffer `b` as its first `n` words, `word(b, ..)`.
fn words(b: u32, n: u32) -> (u32, Vec<u32>) {
    (b, (0..n).map(|w| word(b, w)).collect())
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
    let cases: Vec<[f32; 4]> = cases.iter().map(|a| [a[0], a[1], 0.0, 0.0]).collect();
    let expected: Vec<Vec<[u32; 4]>> = expected.iter().map(|e| e.to_vec()).collect();
    check_fragment(src, &[(0, words.to_vec())], &cases, &expected, &[]);
}

/// Runs the fragment program `src` with each `(b, words)` of `buffers` as
/// `program.buffer[b]` (a whole number of uvec4s) and
/// `fragment.texcoord[0]` = `cases[case]`, in the interpreter and on the
/// device in every env of [`ENVS`]; each case must write
/// `expected[case][n]` to `result.color[n]`. The `(case, n)` of
/// `outside` read words past the buffer: the device gives the expected 0
/// (past the declared block), the interpreter marks them undefined ("not
/// large enough to hold element <b>", docs/semantics.md).
fn check_fragment(
    src: &str,
    buffers: &[(u32, Vec<u32>)],
    cases: &[[f32; 4]],
    expected: &[Vec<[u32; 4]>],
    outside: &[(usize, usize)],
) {
    let (program, _) = nvp4c::check(src, &nvp4c::Options::default()).unwrap();
    for (case, a) in cases.iter().enumerate() {
        let mut inputs = nvp4c::interp::Inputs::default();
        inputs
            .set("fragment.texcoord[0]", a.map(f32::to_bits))
            .unwrap();
        for (b, words) in buffers {
            inputs.buffers.insert(*b, words.clone());
        }
        let run = nvp4c::interp::run(&program, &inputs, &Default::default()).unwrap();
        for (loc, want) in expected[case].iter().enumerate() {
            let got = run.result(&format!("result.color[{loc}]")).unwrap();
            if outside.contains(&(case, loc)) {
                assert_eq!(got.undefined, 0xf, "interpreter, case {case}, color[{loc}]");
                continue;
            }
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
            buffers: buffers
                .iter()
                .map(|(b, words)| {
                    let vec4s = words.chunks(4).map(|c| [c[0], c[1], c[2], c[3]]);
                    (*b, vec4s.collect())
                })
                .collect(),
            ..FragmentJob::new(cases.iter().map(|a| vec![Input::float(5, *a)]).collect())
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

/// NV_gpu_program5 2.X.3.6, Table X.12.1: BUFFER, BUFFER4 and CBUFFER
/// variables on ranges of parameter buffers, `program.buffer[a..b]` with
/// `[c]`, `[c..d]` or all elements. The first index of an access picks the
/// binding point ("A buffer index of zero identifies binding point <a>"),
/// a constant or a register plus a constant, clamped into the range (the
/// spec leaves an index outside it undefined, as section 2.X.4.2 leaves
/// relative addressing outside an array; docs/semantics.md); the second
/// is the element as for one buffer (a relative one clamped into the
/// element range). An LDC past the declared bytes reads 0 on the device
/// (docs/interface.md, "CBUFFER and LDC").
///
/// Word w of buffer b is `(b << 16) | w`; a = floor(texcoord[0]).
#[test]
fn buffer_ranges_pick_binding_points_by_constant_and_register() {
    let src = "!!NVfp5.0
OPTION ARB_draw_buffers;
BUFFER4 v[] = { program.buffer[1..3][1..2] };
BUFFER w = program.buffer[4..5][3];
BUFFER s[] = { program.buffer[9..10][2..9] };
BUFFER4 whole[] = { program.buffer[11..12] };
CBUFFER cb[] = { program.buffer[6..8][0..15] };
INT TEMP a;
UINT OUTPUT o0 = result.color[0];
UINT OUTPUT o1 = result.color[1];
UINT OUTPUT o2 = result.color[2];
UINT OUTPUT o3 = result.color[3];
UINT OUTPUT o4 = result.color[4];
UINT OUTPUT o5 = result.color[5];
FLR.S a, fragment.texcoord[0];
MOV.U o0, v[2][1];
MOV.U o1, v[a.x][a.y];
ADD.U o2, w[a.x], s[a.x + 1][a.z];
LDC.U32X4 o3, cb[a.x + 1][a.w];
LDC.U32X2 o4, cb[1][8];
MOV.U o5, whole[a.x - 1][3];
END
";
    let buffers = [
        // v: vec4s 1..2 of buffers 1 to 3.
        words(1, 12),
        words(2, 12),
        words(3, 12),
        // w: word 3 of buffers 4 and 5.
        words(4, 4),
        words(5, 4),
        // cb: bytes 0..15 of buffers 6 to 8.
        words(6, 4),
        words(7, 4),
        words(8, 4),
        // s: words 2..9 of buffers 9 and 10.
        words(9, 12),
        words(10, 12),
        // whole: vec4 3 of buffers 11 and 12.
        words(11, 16),
        words(12, 16),
    ];
    let cases: [[f32; 4]; 4] = [
        [0.0, 0.0, 0.0, 0.0],
        [1.0, 1.0, 7.0, 16.0],
        [2.0, 5.0, -1.0, 0.0],
        [-4.0, -2.0, 100.0, 0.0],
    ];
    // o0 = v[2][1]: binding point 1 + 2 = 3, vec4 1 + 1 = 2, whatever a is;
    // o4 = cb[1][8]: buffer 7, bytes 8..15 = words 2, 3, then zeros.
    let o0 = vec4(3, 2);
    let o4 = [word(7, 2), word(7, 3), 0, 0];
    let expected = [
        // a = (0, 0, 0, 0): v[0][0] = buffer 1 vec4 1; w[0] = buffer 4 word
        // 3, s[1][0] = buffer 10 word 2; cb[1][0] = buffer 7 words 0..3;
        // whole[-1] clamps to buffer 11, vec4 3.
        vec![
            o0,
            vec4(1, 1),
            splat(word(4, 3) + word(10, 2)),
            vec4(7, 0),
            o4,
            vec4(11, 3),
        ],
        // a = (1, 1, 7, 16): v[1][1] = buffer 2 vec4 2; w[1] = buffer 5 word
        // 3, s[2] clamps to s[1] (buffer 10), element 7 = word 9; cb[2][16]
        // = buffer 8 bytes 16..31, past the 16 declared: 0; whole[0] =
        // buffer 11.
        vec![
            o0,
            vec4(2, 2),
            splat(word(5, 3) + word(10, 9)),
            [0; 4],
            o4,
            vec4(11, 3),
        ],
        // a = (2, 5, -1, 0): v[2][5] = buffer 3, element clamped to 1: vec4
        // 2; w[2] clamps to w[1] (buffer 5), s[3][-1] clamps to s[1][0]
        // (buffer 10 word 2); cb[3] clamps to cb[2] (buffer 8) bytes 0..15;
        // whole[1] = buffer 12.
        vec![
            o0,
            vec4(3, 2),
            splat(word(5, 3) + word(10, 2)),
            vec4(8, 0),
            o4,
            vec4(12, 3),
        ],
        // a = (-4, -2, 100, 0): everything clamps to the first binding
        // point: v[0][0] = buffer 1 vec4 1; w[0] = buffer 4, s[0][7] =
        // buffer 9 word 9; cb[0] = buffer 6; whole[0] = buffer 11.
        vec![
            o0,
            vec4(1, 1),
            splat(word(4, 3) + word(9, 9)),
            vec4(6, 0),
            o4,
            vec4(11, 3),
        ],
    ];
    check_fragment(src, &buffers, &cases, &expected, &[(1, 3)]);
}

/// More forms of Table X.12.1: a whole range of BUFFER words
/// (`program.buffer[a..b]`, every element) with NV_gpu_program5's two
/// array sizes (binding points, then elements), a BUFFER4 element range
/// declared `[2][2]`, and CBUFFER bytes read as U8 with a register
/// picking the binding point and a register offset. Word w of buffer b is
/// `(b << 16) | w`, so byte 4w is w, byte 4w + 2 is b; a = floor(texcoord[0]).
#[test]
fn buffer_ranges_with_two_array_sizes_whole_words_and_bytes() {
    let src = "!!NVfp5.0
OPTION ARB_draw_buffers;
BUFFER words[2][] = { program.buffer[0..1] };
BUFFER4 pair[2][2] = { program.buffer[2..3][1..2] };
CBUFFER bytes[] = { program.buffer[4..5][8..15] };
INT TEMP a;
UINT OUTPUT o0 = result.color[0];
UINT OUTPUT o1 = result.color[1];
UINT OUTPUT o2 = result.color[2];
FLR.S a, fragment.texcoord[0];
MOV.U o0, words[a.x][a.y];
MOV.U o1, pair[a.x + 1][a.z];
LDC.U8 o2, bytes[a.w][a.y];
END
";
    // The whole-binding BUFFER arrays declare MAX_PROGRAM_PARAMETER_BUFFER_SIZE
    // words; 16 are bound, and the reads stay inside them.
    let buffers = [
        words(0, 16),
        words(1, 16),
        words(2, 12),
        words(3, 12),
        words(4, 4),
        words(5, 4),
    ];
    let cases: [[f32; 4]; 4] = [
        [0.0, 2.0, 0.0, 0.0],
        [1.0, 4.0, 1.0, 1.0],
        [-1.0, 6.0, 5.0, 1.0],
        [3.0, 0.0, -2.0, 7.0],
    ];
    let expected = [
        // words[0][2]; pair[1][0] = buffer 3 vec4 1; bytes[0][2] = buffer 4
        // byte 8 + 2 = 10: the high half of word 2, its low byte 4.
        vec![splat(word(0, 2)), vec4(3, 1), [4, 0, 0, 0]],
        // words[1][4]; pair[2] clamps to pair[1], [1] = vec4 2; bytes[1][4]
        // = buffer 5 byte 12, word 3's low byte: 3.
        vec![splat(word(1, 4)), vec4(3, 2), [3, 0, 0, 0]],
        // words[-1] clamps to words[0], [6]; pair[0][5] clamps to pair[0][1]
        // = buffer 2 vec4 2; bytes[1][6] = buffer 5 byte 14: 5.
        vec![splat(word(0, 6)), vec4(2, 2), [5, 0, 0, 0]],
        // words[3] clamps to words[1], [0]; pair[4][-2] clamps to
        // pair[1][0] = buffer 3 vec4 1; bytes[7] clamps to bytes[1], byte
        // 8 = word 2's low byte: 2.
        vec![splat(word(1, 0)), vec4(3, 1), [2, 0, 0, 0]],
    ];
    check_fragment(src, &buffers, &cases, &expected, &[]);
}

/// An LDC whose first words lie in the CBUFFER block and whose last ones
/// do not is undefined as a whole (NV_parameter_buffer_object2 2.X.3.6:
/// "the bound buffer object is not large enough to hold element <b>, the
/// values used are undefined"): the interpreter marks every component
/// undefined, the device reads 0 (docs/semantics.md, "Accesses partly
/// outside their memory"). The block is a whole number of uvec4s, so
/// only an offset off the fetch size's alignment (itself undefined,
/// 2.X.8.Z, LDC) can straddle its end; nvp4c rounds such an offset down
/// to a word. Word w of the buffer is `0x11 * (w + 1)`; it has 8 words,
/// the declaration 16 bytes (4 words): word 4 exists but is past the
/// block, so outside as well.
#[test]
fn ldc_partly_past_the_block_is_undefined_as_a_whole() {
    let src = "!!NVfp5.0
OPTION ARB_draw_buffers;
CBUFFER cb[] = { program.buffer[0][0..15] };
INT TEMP a;
UINT OUTPUT o0 = result.color[0];
UINT OUTPUT o1 = result.color[1];
FLR.S a, fragment.texcoord[0];
LDC.U32X2 o0, cb[a.x];
LDC.U32X4 o1, cb[a.y];
END
";
    let words = [0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88];
    let cases: [[f32; 2]; 2] = [[8.0, 0.0], [12.0, 4.0]];
    let cases: Vec<[f32; 4]> = cases.iter().map(|a| [a[0], a[1], 0.0, 0.0]).collect();
    let expected = [
        // Byte 8: words 2, 3, then zeros; byte 0: words 0..3.
        vec![[0x33, 0x44, 0, 0], [0x11, 0x22, 0x33, 0x44]],
        // Byte 12: words 3, 4 (4 past the block); byte 4: words 1..4.
        vec![[0; 4], [0; 4]],
    ];
    check_fragment(
        src,
        &[(0, words.to_vec())],
        &cases,
        &expected,
        &[(1, 0), (1, 1)],
    );
}
