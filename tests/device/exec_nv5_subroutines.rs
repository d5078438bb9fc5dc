//! Execution tests of indirect subroutine calls (ARB_shader_subroutine,
//! "Dependencies on NV_gpu_program5": SUBROUTINETYPE, SUBROUTINE,
//! `label SUBROUTINENUM(n):` and CALI) in a `!!NVfp5.0` program on the
//! Vulkan device, each also run in the interpreter. The subroutine
//! parameters (`program.subroutine[n]`, the `ProgramSubroutine` block at
//! binding 19, docs/interface.md) choose what each CALI calls, so the same
//! module gives different colours for different parameter values; the
//! expected colours are worked out here by hand from 2.X.5's rule that a
//! CALI "will transfer control to one of a set of labels, where the
//! specific label ... is set through a "subroutine" parameter".

use crate::harness;
use crate::harness::{FragmentJob, Input};

/// Each subroutine adds one to a different component of `c`: batman x,
/// robin y, superman z. `anyHero` may call any of the three, the
/// `heroes` array (parameters 1 and 2) only Gotham's two; `heroes` is
/// indexed by `fragment.texcoord[0].x`, and a second, conditional CALI of
/// `anyHero` runs where `fragment.texcoord[0].y` is not zero.
const PROGRAM: &str = "!!NVfp5.0
SUBROUTINETYPE Hero { batman, robin };
SUBROUTINETYPE Hero { superman };
SUBROUTINETYPE Gotham { batman, robin };
SUBROUTINE Hero anyHero = program.subroutine[0];
SUBROUTINE Gotham heroes[] = { program.subroutine[1..2] };
FLAT INT ATTRIB sel = fragment.texcoord[0];
INT TEMP a;
TEMP c;
batman SUBROUTINENUM(0):
  ADD c, c, {1, 0, 0, 0};
  RET;
robin SUBROUTINENUM(1):
  ADD c, c, {0, 1, 0, 0};
  RET;
superman SUBROUTINENUM(5):
  ADD c, c, {0, 0, 1, 0};
  RET;
main:
  MOV c, {0, 0, 0, 1};
  CALI anyHero;
  MOV.S a, sel;
  CALI heroes[a.x];
  MOVC.S a, sel.y;
  CALI anyHero (NE.x);
  MOV result.color, c;
END
";

/// The four cases' `fragment.texcoord[0]`: (heroes index, second call).
const SELECT: [[i32; 4]; 4] = [[0, 0, 0, 0], [1, 0, 0, 0], [0, 1, 0, 0], [1, 1, 0, 0]];

/// Runs the program with `program.subroutine[0..3]` = `params` on the
/// device and, when `interpreted`, in the interpreter; both must give
/// `want[case]`.
fn check(params: [u32; 3], want: [[f32; 4]; 4], interpreted: bool) {
    let options = nvp4c::Options::default();
    let compiled = nvp4c::compile(PROGRAM, &options)
        .unwrap_or_else(|d| panic!("{}", d.render("t.fp", PROGRAM, false)));
    if interpreted {
        let (program, _) = nvp4c::check(PROGRAM, &options).unwrap();
        for (case, sel) in SELECT.iter().enumerate() {
            let mut inputs = nvp4c::interp::Inputs::default();
            inputs
                .set("fragment.texcoord[0]", nvp4c::interp::ints(*sel))
                .unwrap();
            for (n, &p) in params.iter().enumerate() {
                inputs
                    .set(&format!("program.subroutine[{n}]"), [p, 0, 0, 0])
                    .unwrap();
            }
            let out = nvp4c::interp::run(&program, &inputs, &Default::default()).unwrap();
            let r = out.result("result.color").unwrap();
            assert_eq!(
                r.undefined, 0,
                "case {case}: the interpreter calls it undefined"
            );
            assert_eq!(
                r.floats(),
                want[case],
                "interpreter, parameters {params:?}, case {case}"
            );
        }
    }
    let Some(device) = harness::device_or_skip() else {
        return;
    };
    let mut job = FragmentJob::new(SELECT.iter().map(|s| vec![Input::int(5, *s)]).collect());
    job.subroutine = params.to_vec();
    let got = device
        .run_fragment(&compiled.spirv, &job)
        .unwrap_or_else(|e| panic!("{e}"));
    for (case, w) in want.iter().enumerate() {
        assert_eq!(
            got.f32(case),
            *w,
            "device, parameters {params:?}, case {case}"
        );
    }
}

#[test]
fn cali_calls_the_label_whose_subroutinenum_the_parameter_holds() {
    // anyHero = 5 (superman, +z); heroes = {0 (batman, +x), 1 (robin, +y)}.
    // c starts (0, 0, 0, 1); +z; then +x (index 0) or +y (index 1); then
    // +z again where texcoord.y != 0.
    check(
        [5, 0, 1],
        [
            [1.0, 0.0, 1.0, 1.0],
            [0.0, 1.0, 1.0, 1.0],
            [1.0, 0.0, 2.0, 1.0],
            [0.0, 1.0, 2.0, 1.0],
        ],
        true,
    );
    // The same module with other parameters: anyHero = 1 (robin, +y);
    // heroes = {1 (robin), 0 (batman)}.
    check(
        [1, 1, 0],
        [
            [0.0, 2.0, 0.0, 1.0],
            [1.0, 1.0, 0.0, 1.0],
            [0.0, 3.0, 0.0, 1.0],
            [1.0, 2.0, 0.0, 1.0],
        ],
        true,
    );
}

#[test]
fn cali_with_a_parameter_naming_no_subroutine_of_its_type_calls_the_first() {
    // anyHero = 7 and heroes[1] = 5 (superman, not a Gotham subroutine):
    // values the API refuses (issue (3)); nvp4c calls the lowest-numbered
    // candidate, batman (+x), as issue (4)'s "default function"
    // (docs/interface.md). The interpreter reports these runs undefined,
    // so only the device is checked. heroes[0] = 1 (robin, +y).
    check(
        [7, 1, 5],
        [
            [1.0, 1.0, 0.0, 1.0],
            [2.0, 0.0, 0.0, 1.0],
            [2.0, 1.0, 0.0, 1.0],
            [3.0, 0.0, 0.0, 1.0],
        ],
        false,
    );
}
