//! Execution tests of subroutines, recursion and nested flow control
//! (NV_gpu_program4 section 2.X.5; section 2.X.8.Z, CAL, RET, REP, BRK,
//! CONT), run on the Vulkan device (tests/device/harness/) for vulkan1.0 and
//! vulkan1.3 modules.
//!
//! Every expected value is worked out by hand from the pseudocode in the
//! comment next to it. Recursion is lowered through a dispatch loop with an
//! explicit return stack (src/spirv/recursion.rs); a CAL issued with
//! MAX_PROGRAM_CALL_DEPTH calls active is skipped (docs/semantics.md,
//! following issue 38 of NV_gpu_program4: "such instructions will have no
//! effect").

use crate::harness;
use crate::harness::{FragmentJob, FragmentOutput, Input};
use nvp4c::TargetEnv;

const ENVS: [TargetEnv; 2] = [TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_3];

fn compile(src: &str, env: TargetEnv, max_call_depth: Option<u32>) -> Vec<u32> {
    let mut o = nvp4c::Options::default();
    o.target_env = env;
    if let Some(d) = max_call_depth {
        o.limits.max_call_depth = d;
    }
    match nvp4c::compile(src, &o) {
        Ok(c) => c.spirv,
        Err(d) => panic!(
            "compile failed ({env:?}):\n{}",
            d.render("t.fp", src, false)
        ),
    }
}

/// Runs `src` once per input value `x` (in `fragment.texcoord[0].x`).
fn run(src: &str, env: TargetEnv, depth: Option<u32>, xs: &[f32]) -> Option<FragmentOutput> {
    let spirv = compile(src, env, depth);
    let dev = harness::device_or_skip()?;
    let cases = xs
        .iter()
        .map(|&x| vec![Input::float(5, [x, 0.0, 0.0, 0.0])])
        .collect();
    let job = FragmentJob::new(cases);
    Some(
        dev.run_fragment(&spirv, &job)
            .unwrap_or_else(|e| panic!("run failed ({env:?}): {e}\n{src}")),
    )
}

fn ints(bits: [u32; 4]) -> [i32; 4] {
    bits.map(|b| b as i32)
}

/// n! by a recursive subroutine: `fact` multiplies and calls itself until
/// n reaches 0 (a conditional RET), so fact(n) makes n + 1 nested calls.
const FACTORIAL: &str = "!!NVfp4.0
INT TEMP n, acc, k;
INT OUTPUT o = result.color;
main:
  FLR.S n.x, fragment.texcoord[0].x;
  MOV.S acc, 1;
  CAL fact;
  MOV.S acc.y, n.x;
  MOV.S o, acc;
  RET;
fact:
  SEQ.S.CC0 k.x, n.x, 0;
  RET (NE0.x);
  MUL.S acc.x, acc.x, n.x;
  SUB.S n.x, n.x, 1;
  CAL fact;
  RET;
END
";

#[test]
fn factorial_by_recursion() {
    let fact = |n: i32| (1..=n).product::<i32>();
    let xs: Vec<f32> = (0..=12).map(|n| n as f32).collect();
    for env in ENVS {
        let Some(out) = run(FACTORIAL, env, None, &xs) else {
            return;
        };
        for n in 0..=12 {
            // acc.x = n!, acc.y = n after the calls counted it down to 0.
            assert_eq!(
                ints(out.bits(n as usize)),
                [fact(n), 0, 1, 1],
                "{n}! ({env:?})"
            );
        }
    }
}

#[test]
fn recursion_stops_at_the_call_depth_limit() {
    // Each activation of `fact` is one call deep; main's CAL is call 1.
    // With MAX_PROGRAM_CALL_DEPTH = 4, fact runs at depths 1..4 and the CAL
    // made at depth 4 is skipped: 5! stops after 5*4*3*2 with n = 1.
    for env in ENVS {
        let Some(out) = run(FACTORIAL, env, Some(4), &[3.0, 4.0, 5.0, 7.0]) else {
            return;
        };
        // 3!: calls at depth 1 (n=3), 2 (n=2), 3 (n=1), 4 (n=0, returns).
        assert_eq!(ints(out.bits(0)), [6, 0, 1, 1], "{env:?}");
        // 4!: depth 4 has n=1; its CAL (depth 4 = limit) is skipped.
        assert_eq!(ints(out.bits(1)), [24, 0, 1, 1], "{env:?}");
        // 5: 5*4*3*2 = 120, n left at 1.
        assert_eq!(ints(out.bits(2)), [120, 1, 1, 1], "{env:?}");
        // 7: 7*6*5*4 = 840, n left at 3.
        assert_eq!(ints(out.bits(3)), [840, 3, 1, 1], "{env:?}");
    }
}

#[test]
fn unbounded_recursion_counts_the_depth_limit() {
    // `count` always calls itself; every CAL past the limit is skipped, so
    // it runs exactly MAX_PROGRAM_CALL_DEPTH times.
    let src = "!!NVfp4.0
INT TEMP c;
INT OUTPUT o = result.color;
main:
  MOV.S c, 0;
  CAL count;
  MOV.S o, c;
  RET;
count:
  ADD.S c.x, c.x, 1;
  CAL count;
  ADD.S c.y, c.y, 1;
  RET;
END
";
    for env in ENVS {
        for (depth, want) in [(None, 32), (Some(1), 1), (Some(7), 7)] {
            let Some(out) = run(src, env, depth, &[0.0]) else {
                return;
            };
            // c.x counts activations, c.y the returns of the nested CALs
            // that happened plus the deepest one's skipped CAL: also `want`.
            assert_eq!(ints(out.bits(0)), [want, want, 0, 0], "{depth:?} {env:?}");
        }
    }
}

#[test]
fn mutual_recursion_even_odd() {
    // even(n) = n == 0 ? 1 : odd(n - 1); odd(n) = n == 0 ? 0 : even(n - 1).
    let src = "!!NVfp4.0
INT TEMP n, r, k;
INT OUTPUT o = result.color;
main:
  FLR.S n.x, fragment.texcoord[0].x;
  MOV.S r, 0;
  CAL even;
  MOV.S o, r;
  RET;
even:
  SEQ.S.CC0 k.x, n.x, 0;
  IF NE0.x;
    MOV.S r.x, 1;
    RET;
  ENDIF;
  SUB.S n.x, n.x, 1;
  ADD.S r.y, r.y, 1;
  CAL odd;
  RET;
odd:
  SEQ.S.CC0 k.x, n.x, 0;
  IF NE0.x;
    MOV.S r.x, 0;
    RET;
  ENDIF;
  SUB.S n.x, n.x, 1;
  ADD.S r.z, r.z, 1;
  CAL even;
END
";
    let xs: Vec<f32> = (0..=9).map(|n| n as f32).collect();
    for env in ENVS {
        let Some(out) = run(src, env, None, &xs) else {
            return;
        };
        for n in 0..=9i32 {
            // r.y: calls of odd from even = ceil(n/2); r.z: floor(n/2).
            let want = [i32::from(n % 2 == 0), (n + 1) / 2, n / 2, 0];
            assert_eq!(ints(out.bits(n as usize)), want, "n = {n} ({env:?})");
        }
    }
}

#[test]
fn recursion_inside_rep_keeps_each_levels_loop_count() {
    // walk: level d (a global counter) calls itself twice from a REP 2
    // unless d has reached the limit L; a full binary tree of 2^L - 1
    // activations. The REP pseudocode keeps one loop count per nesting
    // level, so the inner calls must not consume the caller's count (with
    // one shared count this program would make 4 calls for L = 3, not 7).
    let src = "!!NVfp4.0
INT TEMP d, calls, lim, k;
INT PARAM two = {2};
INT OUTPUT o = result.color;
main:
  FLR.S lim.x, fragment.texcoord[0].x;
  MOV.S d, 0;
  MOV.S calls, 0;
  CAL walk;
  MOV.S calls.y, d.x;
  MOV.S o, calls;
  RET;
walk:
  ADD.S d.x, d.x, 1;
  ADD.S calls.x, calls.x, 1;
  MAX.S calls.z, calls.z, d.x;
  SGE.S.CC0 k.x, d.x, lim.x;
  IF NE0.x;
    SUB.S d.x, d.x, 1;
    RET;
  ENDIF;
  REP.S two.x;
    CAL walk;
    ADD.S calls.w, calls.w, 1;
  ENDREP;
  SUB.S d.x, d.x, 1;
END
";
    for env in ENVS {
        let Some(out) = run(src, env, None, &[1.0, 2.0, 3.0, 4.0, 5.0]) else {
            return;
        };
        for l in 1..=5i32 {
            // calls = 2^l - 1, d back to 0, deepest level l, loop
            // iterations = 2 * (internal nodes) = 2 * (2^(l-1) - 1).
            let want = [(1 << l) - 1, 0, l, 2 * ((1 << (l - 1)) - 1)];
            assert_eq!(ints(out.bits(l as usize - 1)), want, "L = {l} ({env:?})");
        }
    }
}

/// A loop inside an IF inside a loop inside a subroutine, with BRK, CONT
/// and RET at every level, conditional and unconditional; `t.y` (the
/// case's code) picks which one fires. Counters: c.x outer iterations
/// begun, c.y inner iterations begun, c.z inner iterations finished, c.w
/// inner loops finished; e.x outer iterations finished (+100 per ELSE),
/// e.y end of `sub` (+1 after the loop, +10 at the very end), e.z back in
/// main, e.w the code. `{SELF}` is replaced by a CAL of `sub` that never
/// runs (CC1 is zero) or by nothing: the first makes `sub` recursive, so
/// the same body runs in the dispatch-loop lowering.
const NESTED: &str = "!!NVfp4.0
OPTION ARB_draw_buffers;
INT TEMP c, e, t, k;
INT PARAM two = {2};
INT OUTPUT o0 = result.color[0];
INT OUTPUT o1 = result.color[1];
main:
  FLR.S t.y, fragment.texcoord[0].x;
  MOV.S c, 0;
  MOV.S e, 0;
  MOV.S.CC1 k.x, 0;
  CAL sub;
  ADD.S e.z, e.z, 1;
  MOV.S e.w, t.y;
  MOV.S o0, c;
  MOV.S o1, e;
  RET;
sub:
  {SELF}
  REP.S two.x;
    ADD.S c.x, c.x, 1;
    SEQ.S k.x, t.y, 1;
    SEQ.S k.y, c.x, 2;
    AND.S.CC0 k.z, k.x, k.y;
    CONT (NE0.z);
    SEQ.S.CC0 k.x, t.y, 7;
    IF EQ0.x;
      REP.S two.x;
        ADD.S c.y, c.y, 1;
        SEQ.S.CC0 k.x, t.y, 2;
        BRK (NE0.x);
        SEQ.S k.x, t.y, 3;
        SEQ.S k.y, c.y, 1;
        AND.S.CC0 k.z, k.x, k.y;
        CONT (NE0.z);
        SEQ.S k.x, t.y, 4;
        SEQ.S k.y, c.y, 3;
        AND.S.CC0 k.z, k.x, k.y;
        IF NE0.z;
          RET;
        ENDIF;
        SEQ.S.CC0 k.x, t.y, 8;
        IF NE0.x;
          BRK;
        ENDIF;
        ADD.S c.z, c.z, 1;
      ENDREP;
      ADD.S c.w, c.w, 1;
      SEQ.S.CC0 k.x, t.y, 5;
      IF NE0.x;
        BRK;
      ENDIF;
      SEQ.S.CC0 k.x, t.y, 6;
      RET (NE0.x);
    ELSE;
      ADD.S e.x, e.x, 100;
      CONT;
    ENDIF;
    ADD.S e.x, e.x, 1;
  ENDREP;
  ADD.S e.y, e.y, 1;
  SEQ.S.CC0 k.x, t.y, 9;
  RET (NE0.x);
  ADD.S e.y, e.y, 10;
  RET;
END
";

/// (code, c, e) worked out by hand; see NESTED.
const NESTED_EXPECTED: [(i32, [i32; 4], [i32; 4]); 10] = [
    // Nothing fires: 2 outer x 2 inner iterations.
    (0, [2, 4, 4, 2], [2, 11, 1, 0]),
    // Outer CONT at the start of the 2nd outer iteration: ENDREP ends it.
    (1, [2, 2, 2, 1], [1, 11, 1, 1]),
    // Conditional inner BRK on every inner loop's first iteration.
    (2, [2, 2, 0, 2], [2, 11, 1, 2]),
    // Inner CONT on the very first inner iteration only (c.y == 1).
    (3, [2, 4, 3, 2], [2, 11, 1, 3]),
    // RET from the inner loop (inside an IF) when c.y reaches 3.
    (4, [2, 3, 2, 1], [1, 0, 1, 4]),
    // Unconditional BRK (inside an IF) of the outer loop after the inner one.
    (5, [1, 2, 2, 1], [0, 11, 1, 5]),
    // Conditional RET inside the IF of the outer loop.
    (6, [1, 2, 2, 1], [0, 0, 1, 6]),
    // ELSE: +100 and an unconditional CONT of the outer loop, twice.
    (7, [2, 0, 0, 0], [200, 11, 1, 7]),
    // Unconditional BRK inside an IF inside the inner loop.
    (8, [2, 2, 0, 2], [2, 11, 1, 8]),
    // Conditional RET at the subroutine's own level.
    (9, [2, 4, 4, 2], [2, 1, 1, 9]),
];

fn nested(self_call: &str) {
    let src = NESTED.replace("{SELF}", self_call);
    let xs: Vec<f32> = NESTED_EXPECTED.iter().map(|&(c, ..)| c as f32).collect();
    for env in ENVS {
        let Some(out) = run(&src, env, None, &xs) else {
            return;
        };
        for (i, &(code, c, e)) in NESTED_EXPECTED.iter().enumerate() {
            assert_eq!(ints(out.color(i, 0)), c, "c, code {code} ({env:?})");
            assert_eq!(ints(out.color(i, 1)), e, "e, code {code} ({env:?})");
        }
    }
}

#[test]
fn nested_flow_in_a_plain_subroutine() {
    nested("");
}

#[test]
fn nested_flow_in_a_recursive_subroutine() {
    nested("CAL sub (GT1.x);");
}

#[test]
fn recursive_main_and_a_plain_callee() {
    // main is itself in the cycle (CAL main), and calls an acyclic
    // subroutine `bump` from inside the cycle. main runs at depth 0, then
    // 1, 2; at r.x == 3 it stops recursing. RET with an empty stack in the
    // outermost main ends the program; the writes after each nested
    // CAL main run on the way back. Only the first activation clears r:
    // CC1 starts clear in nvp4c (docs/semantics.md), so NE1.x holds until
    // the MOV.S.CC1 sets its zero flag.
    let src = "!!NVfp4.0
INT TEMP r, k;
INT OUTPUT o = result.color;
main:
  IF NE1.x;
    MOV.S r, 0;
    MOV.S.CC1 k.x, 0;
  ENDIF;
  CAL bump;
  SLT.S.CC0 k.x, r.x, 3;
  CAL main (NE0.x);
  MAD.S r.y, r.y, 10, r.x;
  MOV.S o, r;
  RET;
bump:
  ADD.S r.x, r.x, 1;
END
";
    for env in ENVS {
        let Some(out) = run(src, env, None, &[0.0]) else {
            return;
        };
        // r.x = 3 after three bumps; r.y = ((0*10+3)*10+3)*10+3 = 333.
        assert_eq!(ints(out.bits(0)), [3, 333, 0, 0], "{env:?}");
    }
}
