//! Execution tests of NV_gpu_program5's thread-group votes (section 2.X.8.Z,
//! TGALL, TGANY, TGEQ) on the Vulkan device, compiled for `vulkan1.1`
//! (subgroup votes need SPIR-V 1.3; E1140 below it).
//!
//! The spec's thread group is the device's subgroup (docs/interface.md,
//! "Thread groups"), whose size and whose grouping of invocations the
//! program does not choose ("The method used to arrange threads into groups
//! is undefined"). So every expected value here holds for any subgroup of
//! at least two invocations: a value is the same for all invocations, or
//! alternates between neighbouring invocations, or the check is an
//! implication every grouping satisfies (a thread whose own value is
//! non-zero sees TGANY TRUE, ...).

use crate::harness;
use crate::harness::{ComputeJob, FragmentJob, Input};

fn compile(src: &str) -> Vec<u32> {
    let mut options = nvp4c::Options::default();
    options.target_env = nvp4c::TargetEnv::Vulkan1_1;
    match nvp4c::compile(src, &options) {
        Ok(c) => c.spirv,
        Err(d) => panic!("{}\n{src}", d.render("test.cp", src, false)),
    }
}

/// The default binding of `program.storage[0]` (docs/interface.md).
const STORAGE0: u32 = 64;
/// Words nothing wrote.
const UNWRITTEN: u32 = 0xDEAD_BEEF;
const F_TRUE: u32 = 0x3f80_0000; // 1.0
const I_TRUE: u32 = u32::MAX; // -1, all bits

/// Work group size: 8 invocations, one or more whole subgroups on devices
/// with subgroups of 2, 4 or 8 (lavapipe: 8), part of one on devices with
/// larger subgroups (NVIDIA: 32); the expected values hold in every case.
const N: u32 = 8;

/// Runs a compute program of one work group of `N` whose invocation i
/// stores 16 words at byte 64·i, and returns each invocation's words.
fn run(src: &str) -> Option<Vec<Vec<u32>>> {
    let device = harness::device_or_skip()?;
    let sub = device.subgroups();
    assert!(
        sub.stages
            .contains(ash::vk::ShaderStageFlags::COMPUTE | ash::vk::ShaderStageFlags::FRAGMENT),
        "subgroup operations in compute and fragment stages: {sub:?}"
    );
    assert!(
        sub.operations.contains(ash::vk::SubgroupFeatureFlags::VOTE),
        "subgroup votes: {sub:?}"
    );
    assert!(
        sub.size >= 2,
        "the expected values assume subgroups of 2 or more: {sub:?}"
    );
    let job = ComputeJob::new(
        [1, 1, 1],
        vec![(STORAGE0, vec![UNWRITTEN; 16 * N as usize])],
    );
    let out = device
        .run_compute(&compile(src), &job)
        .unwrap_or_else(|e| panic!("{e}"));
    Some(out[0].chunks(16).map(|c| c.to_vec()).collect())
}

/// The program's start: `i` = invocation.localindex, `odd` = i & 1 in
/// every component, `a.x` = 64·i (the invocation's bytes), `v` the voted
/// value (set by `value`), then the three votes stored at a.x.
fn program(value: &str, ty: &str) -> String {
    format!(
        "!!NVcp5.0
OPTION NV_shader_storage_buffer;
GROUP_SIZE {N};
STORAGE out = program.storage[0];
TEMP i, odd, a, v, r;
MOV.U i, invocation.localindex.x;
AND.U odd, i.x, {{1}}.x;
SHL.U a.x, i.x, {{6}}.x;
{value}
TGALL{ty} r, v;
STB.U32X4 r, out[a.x];
TGANY{ty} r, v;
STB.U32X4 r, out[a.x + 16];
TGEQ{ty} r, v;
STB.U32X4 r, out[a.x + 32];
END
"
    )
}

/// Checks every invocation stored TGALL, TGANY and TGEQ of the components
/// (x) the same non-zero value everywhere, (y) zero everywhere, (z)
/// non-zero in odd invocations only, (w) a different non-zero value in
/// each: (T F F T), (T F T T), (T T F T). TGEQ of w is TRUE: its
/// pseudocode compares tgall with tgany, which agree when every thread's
/// value is non-zero, different or not.
fn check_votes(words: &[Vec<u32>], t: u32, what: &str) {
    for (i, w) in words.iter().enumerate() {
        assert_eq!(w[0..4], [t, 0, 0, t], "{what}: TGALL in invocation {i}");
        assert_eq!(w[4..8], [t, 0, t, t], "{what}: TGANY in invocation {i}");
        assert_eq!(w[8..12], [t, t, 0, t], "{what}: TGEQ in invocation {i}");
        assert_eq!(w[12..16], [UNWRITTEN; 4], "{what}: invocation {i}");
    }
}

#[test]
fn float_votes_give_one_or_zero() {
    // v = (5.0, -0.0, odd ? 1.0 : 0.0, i + 1.0); -0.0 is zero.
    let value = "MOV v.x, {5}.x;
MOV v.y, -{0}.x;
I2F.U v.z, odd.x;
ADD.U r.x, i.x, {1}.x;
I2F.U v.w, r.x;";
    if let Some(words) = run(&program(value, "")) {
        check_votes(&words, F_TRUE, "float");
    }
}

#[test]
fn float_votes_count_nan_as_non_zero() {
    // v = (NaN, 0.0, odd ? NaN : 0.0, -NaN): 2.X.8.Z, TGALL's
    // `if (tmp.x == 0) result.x = FALSE` is false for a NaN.
    let value = "MOV.U r, {0x7fc00000}.x;
MOV.U v.x, r.x;
MOV.U v.y, {0}.x;
MUL.U v.z, r.z, odd.x;
MOV.U v.w, {0xffc00000}.x;";
    if let Some(words) = run(&program(value, "")) {
        for (i, w) in words.iter().enumerate() {
            assert_eq!(w[0..4], [F_TRUE, 0, 0, F_TRUE], "TGALL in invocation {i}");
            assert_eq!(
                w[4..8],
                [F_TRUE, 0, F_TRUE, F_TRUE],
                "TGANY in invocation {i}"
            );
            assert_eq!(
                w[8..12],
                [F_TRUE, F_TRUE, 0, F_TRUE],
                "TGEQ in invocation {i}"
            );
        }
    }
}

#[test]
fn signed_votes_give_minus_one_or_zero() {
    // v = (-5, 0, odd ? -1 : 0, -(i + 1)).
    let value = "MOV.S v.x, {-5}.x;
MOV.S v.y, {0}.x;
MOV.S v.z, -odd.x;
ADD.U r.x, i.x, {1}.x;
MOV.S v.w, -r.x;";
    if let Some(words) = run(&program(value, ".S")) {
        check_votes(&words, I_TRUE, "signed");
    }
}

#[test]
fn unsigned_votes_give_all_ones_or_zero() {
    // v = (0x80000000, 0, odd, i + 1).
    let value = "MOV.U v.x, {0x80000000}.x;
MOV.U v.y, {0}.x;
MOV.U v.z, odd.x;
ADD.U v.w, i.x, {1}.x;";
    if let Some(words) = run(&program(value, ".U")) {
        check_votes(&words, I_TRUE, "unsigned");
    }
}

#[test]
fn threads_outside_the_if_have_no_bearing_on_the_vote() {
    // 2.X.8.Z, TGALL: "If the TGALL instruction is contained inside
    // conditional flow control blocks and not all threads in the group
    // execute the instruction, the operand values for threads not executing
    // the instruction have no bearing on the value returned." Inside
    // `IF NE.x` on odd, only odd invocations vote on odd: all non-zero.
    // Outside, all vote: TGALL FALSE. Issue 21's pattern: TGALL.S.CC
    // then IF NE.x runs the block only where all threads agree.
    let src = format!(
        "!!NVcp5.0
OPTION NV_shader_storage_buffer;
GROUP_SIZE {N};
STORAGE out = program.storage[0];
TEMP i, odd, a, r, c;
MOV.U i, invocation.localindex.x;
AND.U odd, i.x, {{1}}.x;
SHL.U a.x, i.x, {{6}}.x;
TGALL.U r, odd;
STB.U32X4 r, out[a.x];
MOV.U.CC c.x, odd.x;
IF NE.x;
  TGALL.U r, odd;
  STB.U32X4 r, out[a.x + 16];
  TGEQ.U r, odd;
  STB.U32X4 r, out[a.x + 32];
ENDIF;
TGALL.U.CC c.x, odd.x;
IF NE.x;
  STB.U32 {{7}}.x, out[a.x + 48];
ENDIF;
END
"
    );
    if let Some(words) = run(&src) {
        for (i, w) in words.iter().enumerate() {
            assert_eq!(w[0..4], [0; 4], "TGALL of all in invocation {i}");
            let (inside, eq) = if i % 2 == 1 {
                ([I_TRUE; 4], [I_TRUE; 4])
            } else {
                ([UNWRITTEN; 4], [UNWRITTEN; 4])
            };
            assert_eq!(w[4..8], inside, "TGALL inside IF in invocation {i}");
            assert_eq!(w[8..12], eq, "TGEQ inside IF in invocation {i}");
            assert_eq!(w[12], UNWRITTEN, "the fast path ran in invocation {i}");
        }
    }
}

#[test]
fn fragment_votes_agree_with_each_fragments_own_value() {
    // 64 points, fragment.texcoord[0].x = case % 3 (0, 1, 2, ...), y = 7
    // everywhere. Whatever fragments (and helpers) share a subgroup: y
    // gives TRUE from all three; for x, a fragment whose own value is
    // non-zero sees TGANY TRUE, one whose value is zero sees TGALL FALSE,
    // TGALL TRUE implies TGANY TRUE, and TGEQ is TRUE exactly when
    // TGALL == TGANY.
    let src = "!!NVfp5.0
OPTION ARB_draw_buffers;
FLAT ATTRIB t = fragment.texcoord[0];
OUTPUT all = result.color[0];
OUTPUT any = result.color[1];
OUTPUT eq = result.color[2];
TGALL all, t;
TGANY any, t;
TGEQ eq, t;
END
";
    let Some(device) = harness::device_or_skip() else {
        return;
    };
    let cases: Vec<Vec<Input>> = (0..64)
        .map(|c| vec![Input::float(5, [(c % 3) as f32, 7.0, 0.0, 0.0])])
        .collect();
    let job = FragmentJob::new(cases);
    let got = device
        .run_fragment(&compile(src), &job)
        .unwrap_or_else(|e| panic!("{e}"));
    for c in 0..64 {
        let (all, any, eq) = (
            got.color_f32(c, 0),
            got.color_f32(c, 1),
            got.color_f32(c, 2),
        );
        for v in [all, any, eq] {
            assert!(v.iter().all(|&x| x == 0.0 || x == 1.0), "case {c}: {v:?}");
        }
        assert_eq!(
            [all[1], any[1], eq[1]],
            [1.0; 3],
            "y = 7 everywhere, case {c}"
        );
        assert_eq!(
            [all[2], any[2], eq[2]],
            [0.0, 0.0, 1.0],
            "z = 0 everywhere, case {c}"
        );
        if c % 3 != 0 {
            assert_eq!(any[0], 1.0, "case {c} is non-zero itself");
        } else {
            assert_eq!(all[0], 0.0, "case {c} is zero itself");
        }
        assert!(all[0] <= any[0], "case {c}: TGALL without TGANY");
        assert_eq!(
            eq[0] == 1.0,
            all[0] == any[0],
            "case {c}: TGEQ is tgall == tgany"
        );
    }
}

#[test]
fn the_interpreter_runs_one_thread() {
    // docs/semantics.md, "Thread groups": the interpreter's one thread is
    // its whole group: TGALL and TGANY test its value, TGEQ is TRUE.
    let src = "!!NVfp5.0
OPTION ARB_draw_buffers;
OUTPUT all = result.color[0];
OUTPUT any = result.color[1];
OUTPUT eq = result.color[2];
TEMP t;
MOV t, {3, 0, -0.0, 0.5};
TGALL all, t;
TGANY any, t;
TGEQ eq, t;
END
";
    let mut options = nvp4c::Options::default();
    options.target_env = nvp4c::TargetEnv::Vulkan1_1;
    let (program, _) = nvp4c::check(src, &options).unwrap();
    let out = nvp4c::interp::run(&program, &Default::default(), &Default::default()).unwrap();
    let f = |name: &str| out.result(name).unwrap().bits;
    assert_eq!(f("result.color[0]"), [F_TRUE, 0, 0, F_TRUE]);
    assert_eq!(f("result.color[1]"), [F_TRUE, 0, 0, F_TRUE]);
    assert_eq!(f("result.color[2]"), [F_TRUE; 4]);
    // And the device agrees for a value that is the same in every fragment.
    let Some(device) = harness::device_or_skip() else {
        return;
    };
    let got = device
        .run_fragment(&compile(src), &FragmentJob::new(vec![vec![]; 16]))
        .unwrap_or_else(|e| panic!("{e}"));
    for c in 0..16 {
        assert_eq!(got.color(c, 0), [F_TRUE, 0, 0, F_TRUE], "TGALL, case {c}");
        assert_eq!(got.color(c, 1), [F_TRUE, 0, 0, F_TRUE], "TGANY, case {c}");
        assert_eq!(got.color(c, 2), [F_TRUE; 4], "TGEQ, case {c}");
    }
}

// ---- NV_shader_thread_shuffle: SHFIDX, SHFUP, SHFDOWN, SHFXOR -------------

/// Runs the shuffle (or ballot) cases `body` (a shuffle stores `r.xy`,
/// (valid, value), at `out[a.x + 8·k]`) with `v.x` = 100 + i in invocation
/// i, and returns each invocation's words. The expected values name threads by
/// `invocation.localindex`: they assume a work group of 8 is one subgroup of
/// 8 with lane = local index, which is lavapipe's arrangement (the spec
/// leaves "the method used to arrange threads into groups" undefined, and
/// Vulkan does not promise it either), so the test checks the subgroup size
/// and leaves other devices alone.
fn run_shuffles(ty: &str, body: &str) -> Option<Vec<Vec<u32>>> {
    let device = harness::device_or_skip()?;
    let sub = device.subgroups();
    assert!(
        sub.operations
            .contains(ash::vk::SubgroupFeatureFlags::SHUFFLE),
        "subgroup shuffles: {sub:?}"
    );
    if sub.size != N {
        eprintln!("the shuffle tests expect subgroups of {N}: {sub:?}");
        return None;
    }
    let value = if ty.is_empty() {
        "ADD.U r.x, i.x, {100}.x;\nI2F.U v.x, r.x;"
    } else {
        "ADD.U v.x, i.x, {100}.x;"
    };
    let src = format!(
        "!!NVcp5.0
OPTION NV_shader_storage_buffer;
OPTION NV_shader_thread_shuffle;
OPTION NV_shader_thread_group;
GROUP_SIZE {N};
STORAGE out = program.storage[0];
TEMP i, a, v, r;
MOV.U i, invocation.localindex.x;
SHL.U a.x, i.x, {{6}}.x;
{value}
{body}
END
"
    );
    let job = ComputeJob::new(
        [1, 1, 1],
        vec![(STORAGE0, vec![UNWRITTEN; 16 * N as usize])],
    );
    let out = device
        .run_compute(&compile(&src), &job)
        .unwrap_or_else(|e| panic!("{e}"));
    Some(out[0].chunks(16).map(|c| c.to_vec()).collect())
}

/// The mask operand: clamp in bits 0-4, segmentation mask in bits 8-12.
fn mask(clamp: u32, segmentation: u32) -> u32 {
    clamp | segmentation << 8
}

#[test]
fn unsigned_shuffles_follow_the_min_and_max_thread_ids() {
    // Each case: minThreadId = i & seg, maxThreadId = min | (clamp & ~seg);
    // in range: SHFDOWN/SHFXOR/SHFIDX source <= max, SHFUP source >= max;
    // out of range reads the thread's own value (100 + i).
    let seg4 = 0b11100; // segments of 4 threads
    let body = format!(
        "SHFXOR.U r, v, {{1}}.x, {{{x}}}.x;
STB.U32X2 r, out[a.x];
SHFDOWN.U r, v, {{2}}.x, {{{d}}}.x;
STB.U32X2 r, out[a.x + 8];
SHFUP.U r, v, {{3}}.x, {{0}}.x;
STB.U32X2 r, out[a.x + 16];
SHFIDX.U r, v, {{5}}.x, {{{idx}}}.x;
STB.U32X2 r, out[a.x + 24];
SHFUP.U r, v, {{1}}.x, {{{up4}}}.x;
STB.U32X2 r, out[a.x + 32];
SHFDOWN.U r, v, {{4}}.x, {{31}}.x;
STB.U32X2 r, out[a.x + 40];
SHFIDX.U r, v, {{0x27}}.x, {{31}}.x;
STB.U32X2 r, out[a.x + 48];",
        x = mask(31, 0),
        d = mask(7, 0),
        idx = mask(31, seg4),
        up4 = mask(0, seg4),
    );
    let Some(words) = run_shuffles(".U", &body) else {
        return;
    };
    let t = I_TRUE;
    for (i, w) in words.iter().enumerate() {
        let i = i as u32;
        let own = 100 + i;
        // SHFXOR 1, clamp 31: source i ^ 1, always in range.
        assert_eq!(w[0..2], [t, 100 + (i ^ 1)], "SHFXOR in invocation {i}");
        // SHFDOWN 2, clamp 7: source i + 2 <= 7 for i <= 5.
        let down = if i + 2 <= 7 { [t, own + 2] } else { [0, own] };
        assert_eq!(w[2..4], down, "SHFDOWN in invocation {i}");
        // SHFUP 3, mask 0: max 0, source i - 3 >= 0 for i >= 3.
        let up = if i >= 3 { [t, own - 3] } else { [0, own] };
        assert_eq!(w[4..6], up, "SHFUP in invocation {i}");
        // SHFIDX 5 in segments of 4: source (5 & ~28) | min = min + 1,
        // max = min | 3: in range.
        let min = i & !3;
        assert_eq!(w[6..8], [t, 100 + min + 1], "SHFIDX in invocation {i}");
        // SHFUP 1 in segments of 4, clamp 0: max = min, so the first
        // thread of each segment is out of range.
        let up4 = if !i.is_multiple_of(4) {
            [t, own - 1]
        } else {
            [0, own]
        };
        assert_eq!(w[8..10], up4, "SHFUP in segments in invocation {i}");
        // SHFDOWN 4, clamp 31: in range up to thread 31, but threads 8 and
        // up are not in this subgroup of 8 (no active thread: undefined in
        // the spec, the own value in nvp4c, docs/semantics.md).
        let far = if i + 4 < N { own + 4 } else { own };
        assert_eq!(
            w[10..12],
            [t, far],
            "SHFDOWN past the subgroup in invocation {i}"
        );
        // SHFIDX 0x27: the index's bits above 4 are ignored, 0x27 & 31 = 7.
        assert_eq!(w[12..14], [t, 107], "SHFIDX of 0x27 in invocation {i}");
        assert_eq!(w[14..16], [UNWRITTEN; 2], "invocation {i}");
    }
}

#[test]
fn float_and_signed_shuffles_give_their_true_value() {
    // v.x = 100.0 + i; SHFXOR 2 with clamp 3 and segments of 4 (seg 28):
    // min = i & 28, max = min | 3, source i ^ 2 stays in the segment.
    let body = format!(
        "SHFXOR r, v, {{2}}.x, {{{m}}}.x;\nSTB.U32X2 r, out[a.x];\nSHFDOWN r, v, {{1}}.x, {{{m}}}.x;\nSTB.U32X2 r, out[a.x + 8];",
        m = mask(3, 0b11100)
    );
    if let Some(words) = run_shuffles("", &body) {
        for (i, w) in words.iter().enumerate() {
            let f = |k: usize| (100 + k) as f32;
            assert_eq!(w[0], F_TRUE, "SHFXOR valid in invocation {i}");
            assert_eq!(f32::from_bits(w[1]), f(i ^ 2), "SHFXOR in invocation {i}");
            // SHFDOWN 1 within the segment of 4: the last thread of each
            // segment is out of range and keeps its own value.
            let (valid, from) = if i % 4 != 3 { (F_TRUE, i + 1) } else { (0, i) };
            assert_eq!(w[2], valid, "SHFDOWN valid in invocation {i}");
            assert_eq!(f32::from_bits(w[3]), f(from), "SHFDOWN in invocation {i}");
        }
    }
    let body = "SHFUP.S r, v, {1}.x, {0}.x;\nSTB.U32X2 r, out[a.x];";
    if let Some(words) = run_shuffles(".S", body) {
        for (i, w) in words.iter().enumerate() {
            let i = i as u32;
            let want = if i >= 1 { [I_TRUE, 99 + i] } else { [0, 100] };
            assert_eq!(w[0..2], want, "SHFUP.S in invocation {i}");
        }
    }
}

#[test]
fn the_interpreter_shuffles_in_a_group_of_one() {
    // Thread 0 alone: SHFXOR 0 reads itself (valid, defined); SHFDOWN 1 with
    // clamp 0 is out of range (FALSE, own value); SHFDOWN 1 with clamp 31
    // names thread 1, which does not exist: valid TRUE, value undefined.
    let src = "!!NVfp5.0
OPTION NV_shader_thread_shuffle;
OPTION ARB_draw_buffers;
INT OUTPUT o0 = result.color[0];
INT OUTPUT o1 = result.color[1];
INT OUTPUT o2 = result.color[2];
SHFXOR.S o0, {42}.x, {0}.x, {31}.x;
SHFDOWN.S o1, {42}.x, {1}.x, {0}.x;
SHFDOWN.S o2, {42}.x, {1}.x, {31}.x;
END
";
    let mut options = nvp4c::Options::default();
    options.target_env = nvp4c::TargetEnv::Vulkan1_1;
    let (program, _) = nvp4c::check(src, &options).unwrap();
    let out = nvp4c::interp::run(&program, &Default::default(), &Default::default()).unwrap();
    let r = |n: u32| out.result(&format!("result.color[{n}]")).unwrap();
    assert_eq!(
        (r(0).bits[..2].to_vec(), r(0).undefined),
        (vec![I_TRUE, 42], 0b1100)
    );
    assert_eq!(
        (r(1).bits[..2].to_vec(), r(1).undefined),
        (vec![0, 42], 0b1100)
    );
    assert_eq!((r(2).bits[0], r(2).undefined), (I_TRUE, 0b1110));
}

// ---- NV_shader_thread_group: TGBALLOT -------------------------------------

#[test]
fn ballot_sets_the_bit_of_each_active_thread_with_a_non_zero_value() {
    // NV_shader_thread_group 2.X.8.Z, TGBALLOT: "result.x |= 1 << thread"
    // for each active thread with a non-zero value; "It's possible to query
    // the active thread mask by calling TGBALLOT with 1 as the first
    // operand". Lanes = local indices 0-7 (run_shuffles' assumption):
    // v = (1, odd, i >= 5, 0) as floats gives (0xFF, 0xAA, 0xE0, 0); inside
    // IF on odd, only odd threads are active: the ballot of 1 is 0xAA.
    let body = "AND.U r.x, i.x, {1}.x;
I2F.U v.y, r.x;
MOV v.x, {1}.x;
SGE.U r.z, i.x, {5}.x;
I2F.U v.z, r.z;
MOV v.w, {0}.x;
TGBALLOT r, v;
STB.U32X4 r, out[a.x];
AND.U r.x, i.x, {1}.x;
MOV.U.CC r.x, r.x;
IF NE.x;
  TGBALLOT.U r, {1, 1, 1, 1};
  STB.U32X4 r, out[a.x + 16];
ENDIF;";
    let Some(words) = run_shuffles("", body) else {
        return;
    };
    for (i, w) in words.iter().enumerate() {
        assert_eq!(w[0..4], [0xFF, 0xAA, 0xE0, 0], "TGBALLOT in invocation {i}");
        let inside = if i % 2 == 1 {
            [0xAA; 4]
        } else {
            [UNWRITTEN; 4]
        };
        assert_eq!(w[4..8], inside, "TGBALLOT inside IF in invocation {i}");
    }
}

#[test]
fn ballot_needs_its_option_and_vulkan_1_1() {
    let without = "!!NVfp5.0\nUINT TEMP b;\nTGBALLOT b, {1}.x;\nMOV result.color, {0}.x;\nEND\n";
    let mut options = nvp4c::Options::default();
    options.target_env = nvp4c::TargetEnv::Vulkan1_1;
    let d = nvp4c::compile(without, &options).unwrap_err();
    assert_eq!(d.iter().map(|d| d.code).collect::<Vec<_>>(), ["E0730"]);
    // The interpreter: thread 0 alone sets bit 0 where the value is non-zero.
    let src = "!!NVfp5.0\nOPTION NV_shader_thread_group;\nUINT OUTPUT o = result.color;\nTGBALLOT.S o, {3, 0, -1, 0};\nEND\n";
    let (program, _) = nvp4c::check(src, &options).unwrap();
    let out = nvp4c::interp::run(&program, &Default::default(), &Default::default()).unwrap();
    assert_eq!(out.result("result.color").unwrap().bits, [1, 0, 1, 0]);
}

// ---- NV_shader_thread_group: QSWZ0-3, QSWZX, QSWZY ------------------------

#[test]
fn quad_swizzles_read_the_quads_pixels() {
    // One point per pixel of a 4×4 target; each covers only its own pixel,
    // so its quad is the fragment and three helper invocations, which the
    // spec counts as active (not divergent) and which compute
    // fragment.position for their own pixels. With op0 = fragment.position (pixel centres x + 0.5,
    // y + 0.5): QSWZ0 reads quad pixel 0 (even x, even row of the
    // framebuffer), QSWZ3 pixel 3 (odd x, odd row), QSWZX the neighbour in
    // x, QSWZY the neighbour in y, each plus op1.
    let src = "!!NVfp5.0
OPTION NV_shader_thread_group;
OPTION ARB_draw_buffers;
OUTPUT o0 = result.color[0];
OUTPUT o1 = result.color[1];
OUTPUT o2 = result.color[2];
OUTPUT o3 = result.color[3];
QSWZ0 o0, fragment.position, {0, 0, 0, 0};
QSWZ3 o1, fragment.position, {0, 0, 0, 0};
QSWZX o2, fragment.position, fragment.position;
QSWZY o3, fragment.position, {0, 0, 0, 0};
END
";
    let Some(device) = harness::device_or_skip() else {
        return;
    };
    let mut job = FragmentJob::new(vec![vec![]; 16]);
    job.width = Some(4);
    let got = device
        .run_fragment(&compile(src), &job)
        .unwrap_or_else(|e| panic!("{e}"));
    for c in 0..16 {
        let (px, row) = ((c % 4) as f32, (c / 4) as u32);
        let pos_x = px + 0.5;
        let even_x = ((c % 4) & !1) as f32 + 0.5;
        let q0 = got.color_f32(c, 0);
        let q3 = got.color_f32(c, 1);
        let qx = got.color_f32(c, 2);
        let qy = got.color_f32(c, 3);
        assert_eq!(q0[0], even_x, "QSWZ0.x in case {c}");
        assert_eq!(q3[0], even_x + 1.0, "QSWZ3.x in case {c}");
        // QSWZX: neighbour (x ^ 1) + own x.
        assert_eq!(
            qx[0],
            ((c % 4) ^ 1) as f32 + 0.5 + pos_x,
            "QSWZX.x in case {c}"
        );
        // QSWZY: the same x, the other row of the quad.
        assert_eq!(qy[0], pos_x, "QSWZY.x in case {c}");
        // fragment.position.y is the row's centre, whichever way y runs:
        // quad pixel 0 and 3 are in different rows, the y neighbour is one
        // row away, and a quad's rows are 2k and 2k + 1 of the target.
        let y = (q0[1], q3[1], qy[1]);
        assert!(
            (y.0 - y.1).abs() == 1.0,
            "QSWZ0.y / QSWZ3.y in case {c}: {y:?}"
        );
        let quad_rows = [(row & !1) as f32 + 0.5, (row | 1) as f32 + 0.5];
        assert!(
            quad_rows.contains(&y.0) && quad_rows.contains(&y.1),
            "case {c}: {y:?}"
        );
        assert_eq!(
            (qy[1] - (row as f32 + 0.5)).abs(),
            1.0,
            "QSWZY.y in case {c}"
        );
        assert!(quad_rows.contains(&qy[1]), "QSWZY.y in case {c}");
    }
}

#[test]
fn quad_swizzles_need_their_option_and_give_zero_alone_in_the_interpreter() {
    let mut options = nvp4c::Options::default();
    options.target_env = nvp4c::TargetEnv::Vulkan1_1;
    let without = "!!NVfp5.0\nQSWZX result.color, {1}.x, {2}.x;\nEND\n";
    let d = nvp4c::compile(without, &options).unwrap_err();
    assert_eq!(d.iter().map(|d| d.code).collect::<Vec<_>>(), ["E0730"]);
    let old = nvp4c::compile(
        "!!NVfp5.0\nOPTION NV_shader_thread_group;\nQSWZX result.color, {1}.x, {2}.x;\nEND\n",
        &nvp4c::Options::default(),
    )
    .unwrap_err();
    assert_eq!(old.iter().map(|d| d.code).collect::<Vec<_>>(), ["E1140"]);
    // The interpreter's fragment is alone in its quad: divergent, 0.
    let src = "!!NVfp5.0\nOPTION NV_shader_thread_group;\nQSWZ0 result.color, {1}.x, {2}.x;\nEND\n";
    let (program, _) = nvp4c::check(src, &options).unwrap();
    let out = nvp4c::interp::run(&program, &Default::default(), &Default::default()).unwrap();
    assert_eq!(out.result("result.color").unwrap().bits, [0; 4]);
}

// ---- NV_shader_thread_group: thread bindings ------------------------------

#[test]
fn thread_bindings_give_the_thread_id_and_its_masks() {
    // NV_shader_thread_group 2.X.3.2: threadid is the thread's id t; the
    // masks set bit t (eq), the bits below t (lt), below or at t (le),
    // above t (gt) and at or above t (ge). In a subgroup of 8 with lane =
    // local index (run_shuffles' assumption), t = i, and the bits above
    // are those of the subgroup's threads, 0-7 (docs/interface.md,
    // "Thread groups").
    let body = "MOV.U r.x, invocation.threadid.x;
MOV.U r.y, invocation.threadeqmask.x;
MOV.U r.z, invocation.threadltmask.x;
MOV.U r.w, invocation.threadlemask.x;
STB.U32X4 r, out[a.x];
MOV.U r.x, invocation.threadgtmask.x;
MOV.U r.y, invocation.threadgemask.x;
STB.U32X2 r, out[a.x + 16];";
    let Some(words) = run_shuffles("", body) else {
        return;
    };
    for (i, w) in words.iter().enumerate() {
        let t = i as u32;
        let eq = 1u32 << t;
        let lt = eq - 1;
        let le = lt | eq;
        let group = 0xFF; // the subgroup's eight threads
        assert_eq!(
            w[0..4],
            [t, eq, lt, le],
            "id, eq, lt, le masks of invocation {i}"
        );
        assert_eq!(
            w[4..6],
            [group & !le, group & !lt],
            "gt, ge masks of invocation {i}"
        );
    }
}

#[test]
fn thread_bindings_need_their_option_and_vulkan_1_1_and_the_interpreter_is_thread_0() {
    let vk11 = {
        let mut o = nvp4c::Options::default();
        o.target_env = nvp4c::TargetEnv::Vulkan1_1;
        o
    };
    let codes = |src: &str, o: &nvp4c::Options| -> Vec<&'static str> {
        nvp4c::compile(src, o)
            .err()
            .map(|d| d.iter().map(|d| d.code).collect())
            .unwrap_or_default()
    };
    let read = |binding: &str| {
        format!("!!NVfp5.0\nOPTION NV_shader_thread_group;\nUINT OUTPUT o = result.color;\nMOV.U o.x, {binding}.x;\nEND\n")
    };
    let without =
        "!!NVfp5.0\nUINT OUTPUT o = result.color;\nMOV.U o.x, fragment.threadid.x;\nEND\n";
    assert_eq!(codes(without, &vk11), ["E0730"]);
    assert_eq!(
        codes(&read("fragment.threadid"), &Default::default()),
        ["E1140"]
    );
    assert_eq!(codes(&read("fragment.threadid"), &vk11), [] as [&str; 0]);
    // The helper flag is a Vulkan 1.0 built-in.
    assert_eq!(
        codes(&read("fragment.helperthread"), &Default::default()),
        [] as [&str; 0]
    );
    // warpid and smid have no portable equivalent.
    assert_eq!(codes(&read("fragment.warpid"), &vk11), ["E1141"]);
    assert_eq!(codes(&read("fragment.smid"), &vk11), ["E1141"]);
    // The interpreter runs thread 0 alone in its group: id 0, eq = le = 1,
    // lt = 0, gt = all bits but 0, ge = all bits, not a helper.
    for (binding, want) in [
        ("fragment.threadid", 0),
        ("fragment.threadeqmask", 1),
        ("fragment.threadltmask", 0),
        ("fragment.threadlemask", 1),
        ("fragment.threadgtmask", 0xFFFF_FFFE),
        ("fragment.threadgemask", 0xFFFF_FFFF),
        ("fragment.helperthread", 0),
    ] {
        let src = read(binding);
        let (program, _) = nvp4c::check(&src, &vk11).unwrap();
        let out = nvp4c::interp::run(&program, &Default::default(), &Default::default()).unwrap();
        assert_eq!(
            out.result("result.color").unwrap().bits[0],
            want,
            "{binding}"
        );
    }
}

#[test]
fn fragments_read_their_thread_id_masks_and_no_helper_flag() {
    // Covered fragments are not helpers ("-1 when the current thread is a
    // helper thread and 0 otherwise"); each reads an id below the subgroup
    // size whose eq mask is its bit and whose le mask is eq | lt.
    let src = "!!NVfp5.0
OPTION NV_shader_thread_group;
UINT OUTPUT o = result.color;
TEMP h;
MOV.U o.x, fragment.threadid.x;
MOV.U o.y, fragment.threadeqmask.x;
SUB.U o.z, fragment.threadlemask.x, fragment.threadltmask.x;
MOV.S h.x, fragment.helperthread.x;
MOV.U o.w, h.x;
END
";
    let spirv = compile(src);
    let Some(device) = harness::device_or_skip() else {
        return;
    };
    let size = device.subgroups().size;
    let job = FragmentJob::new(
        (0..8)
            .map(|k| vec![Input::float(5, [k as f32; 4])])
            .collect(),
    );
    let got = device
        .run_fragment(&spirv, &job)
        .unwrap_or_else(|e| panic!("{e}"));
    for case in 0..8 {
        let [t, eq, le_minus_lt, helper] = got.bits(case);
        assert!(
            t < size.min(32),
            "case {case}: thread id {t}, subgroup size {size}"
        );
        assert_eq!(eq, 1 << t, "case {case}: eq mask of thread {t}");
        assert_eq!(le_minus_lt, eq, "case {case}: le - lt of thread {t}");
        assert_eq!(helper, 0, "case {case}: a covered fragment is no helper");
    }
}

#[test]
fn thread_group_properties_are_the_subgroup_size_and_the_state_blocks_counts() {
    // NV_shader_thread_group 2.X.3.3: each binding's x is "an integer
    // value". warpsize, "the total number of thread in a warp", is the
    // thread group's size, which is the subgroup's (docs/interface.md,
    // "Thread groups"): the device's subgroupSize. warpspersm and smcount
    // are what the renderer writes in State rows 408 and 409 (x, integer
    // bits): 48 and 30 here, read through a PARAM array indexed with a
    // register as well. y, z, w (undefined in the spec) read 0.
    let src = "!!NVfp5.0
OPTION NV_shader_thread_group;
UINT OUTPUT o = result.color;
PARAM counts[] = { state.thread.warpspersm, state.thread.smcount };
INT TEMP k;
TRUNC.S k.x, fragment.texcoord[0].x;
MOV.U o.x, state.thread.warpsize.x;
MOV.U o.y, counts[0].x;
MOV.U o.z, counts[k.x].x;
MOV.U o.w, state.thread.warpsize.y;
END
";
    // The interpreter: the spec's 32-thread warp unless the inputs give
    // another; the counts as given.
    let vk11 = {
        let mut o = nvp4c::Options::default();
        o.target_env = nvp4c::TargetEnv::Vulkan1_1;
        o
    };
    let (program, _) = nvp4c::check(src, &vk11).unwrap();
    let mut inputs = nvp4c::interp::Inputs::default();
    inputs
        .set("state.thread.warpspersm", [48, 0, 0, 0])
        .unwrap();
    inputs.set("state.thread.smcount", [30, 0, 0, 0]).unwrap();
    inputs
        .set("fragment.texcoord[0]", [1f32.to_bits(); 4])
        .unwrap();
    let out = nvp4c::interp::run(&program, &inputs, &Default::default()).unwrap();
    assert_eq!(out.result("result.color").unwrap().bits, [32, 48, 30, 0]);
    // Below vulkan1.1 SubgroupSize does not exist: E1140.
    let codes: Vec<&str> = nvp4c::compile(src, &Default::default())
        .err()
        .map(|d| d.iter().map(|d| d.code).collect())
        .unwrap_or_default();
    assert_eq!(codes, ["E1140"]);
    // GlState lays the counts out where the program reads them.
    let gl = nvp4c::state::GlState {
        warps_per_sm: 48,
        sm_count: 30,
        ..Default::default()
    };
    let block = gl.to_block();
    let bits = |name: &str| block.get(name).unwrap().map(f32::to_bits);
    assert_eq!(bits("state.thread.warpspersm"), [48, 0, 0, 0]);
    assert_eq!(bits("state.thread.smcount"), [30, 0, 0, 0]);
    let spirv = compile(src);
    let Some(device) = harness::device_or_skip() else {
        return;
    };
    let size = device.subgroups().size;
    let mut job = FragmentJob::new((0..4).map(|_| vec![Input::float(5, [1.0; 4])]).collect());
    job.state = vec![[0; 4]; harness::STATE_ROWS];
    job.state[408] = [48, 0, 0, 0];
    job.state[409] = [30, 0, 0, 0];
    let got = device
        .run_fragment(&spirv, &job)
        .unwrap_or_else(|e| panic!("{e}"));
    for case in 0..4 {
        assert_eq!(got.bits(case), [size, 48, 30, 0], "case {case}");
    }
}
