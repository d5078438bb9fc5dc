//! Execution tests of NV_gpu_program5's sample bindings in `!!NVfp5.0`
//! programs: `fragment.sampleid`, `fragment.samplemask` and
//! `result.samplemask` (2.X.2 <attribBasic>, <resultBasic>; 2.X.3.2), on
//! the Vulkan device and in the interpreter.
//!
//! The harness renders single-sampled (one sample per pixel), so the
//! values are the ones the spec gives without multisample buffers: sample
//! 0, and a coverage mask whose bit zero "indicates if the center of the
//! pixel corresponding to the fragment is covered" (set for every fragment
//! drawn). Writing a mask without bit 0 leaves the pixel's one sample
//! uncovered: the fragment writes nothing.

use crate::harness;
use crate::harness::{FragmentJob, Input};

fn compile(src: &str) -> Vec<u32> {
    match nvp4c::compile(src, &nvp4c::Options::default()) {
        Ok(c) => c.spirv,
        Err(d) => panic!("{}\n{src}", d.render("t.fp", src, false)),
    }
}

#[test]
fn sample_id_and_coverage_mask_of_a_single_sampled_fragment() {
    // Sample 0; coverage bit 0 set; the mask written back keeps it.
    let src = "!!NVfp5.0
TEMP t;
UINT OUTPUT o = result.color;
MOV.S t.x, fragment.sampleid.x;
MOV.U o.x, t.x;
MOV.U o.y, fragment.samplemask.x;
MOV.U o.zw, {7, 9, 7, 9};
MOV.U result.samplemask.x, fragment.samplemask.x;
END
";
    let want = [0, 1, 7, 9];
    // The interpreter: sample 0 of a covering fragment by default.
    let (program, _) = nvp4c::check(src, &Default::default()).unwrap();
    let out = nvp4c::interp::run(&program, &Default::default(), &Default::default()).unwrap();
    assert_eq!(
        out.result("result.color").unwrap().bits,
        want,
        "interpreter"
    );
    assert_eq!(
        out.result("result.samplemask").unwrap().bits[0],
        1,
        "interpreter"
    );
    let spirv = compile(src);
    let Some(device) = harness::device_or_skip() else {
        return;
    };
    let job = FragmentJob::new((0..4).map(|_| vec![Input::float(5, [0.0; 4])]).collect());
    let got = device
        .run_fragment(&spirv, &job)
        .unwrap_or_else(|e| panic!("{e}"));
    for case in 0..4 {
        assert_eq!(got.bits(case), want, "device, case {case}");
    }
}

#[test]
fn a_result_sample_mask_without_bit_0_leaves_the_pixel_unwritten() {
    // result.samplemask.x = texcoord.x (0, 1, 2, 3): bit 0 of 1 and 3
    // covers the pixel's sample; 0 and 2 (bit 1 only: no sample 1 in a
    // single-sampled target) cover nothing, and the pixel keeps its clear
    // value.
    let src = "!!NVfp5.0
FLAT UINT ATTRIB sel = fragment.texcoord[0];
UINT OUTPUT o = result.color;
MOV.U o, {5, 6, 7, 8};
MOV.U result.samplemask.x, sel.x;
END
";
    let spirv = compile(src);
    let Some(device) = harness::device_or_skip() else {
        return;
    };
    let job = FragmentJob::new((0..4u32).map(|k| vec![Input::uint(5, [k; 4])]).collect());
    let got = device
        .run_fragment(&spirv, &job)
        .unwrap_or_else(|e| panic!("{e}"));
    for case in 0..4 {
        if case % 2 == 1 {
            assert_eq!(got.bits(case), [5, 6, 7, 8], "device, case {case}: covered");
        } else {
            assert!(
                got.killed(case),
                "device, case {case}: mask {case} covers no sample"
            );
        }
    }
}
