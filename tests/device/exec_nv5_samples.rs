//! Execution tests of NV_gpu_program5's sample bindings in `!!NVfp5.0`
//! programs: `fragment.sampleid`, `fragment.samplemask` and
//! `result.samplemask` (2.X.2 <attribBasic>, <resultBasic>; 2.X.3.2), on
//! the Vulkan device and in the interpreter.
//!
//! The first two render single-sampled, so the values are the ones the
//! spec gives without multisample buffers: sample 0, and a coverage mask
//! whose bit zero "indicates if the center of the pixel corresponding to
//! the fragment is covered" (set for every fragment drawn). Writing a mask
//! without bit 0 leaves the pixel's one sample uncovered: the fragment
//! writes nothing. The last two render four samples per pixel and read
//! back their average (`FragmentJob::samples`).

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

/// Four samples per pixel: `fragment.sampleid` makes the program run once
/// per sample (Vulkan: an entry point reading SampleId shades per sample),
/// each with its own id and a coverage mask holding its own bit (Vulkan's
/// SampleMask input under sample shading). The harness resolves the four
/// float samples to their average: ids (0 + 1 + 2 + 3) / 4 = 1.5, masks
/// (1 + 2 + 4 + 8) / 4 = 3.75. The interpreter runs one sample (sample 0).
#[test]
fn each_of_four_samples_has_its_own_id_and_coverage_bit() {
    let src = "!!NVfp5.0
INT TEMP t;
UINT TEMP u;
MOV.S t.x, fragment.sampleid.x;
MOV.U u.x, fragment.samplemask.x;
I2F.S result.color.x, t.x;
I2F.U result.color.y, u.x;
MOV result.color.zw, 1;
END
";
    let spirv = compile(src);
    let Some(device) = harness::device_or_skip() else {
        return;
    };
    let job = FragmentJob {
        samples: 4,
        ..FragmentJob::new((0..4).map(|_| vec![Input::float(5, [0.0; 4])]).collect())
    };
    let got = device
        .run_fragment(&spirv, &job)
        .unwrap_or_else(|e| panic!("{e}"));
    for case in 0..4 {
        assert_eq!(got.f32(case), [1.5, 3.75, 1.0, 1.0], "device, case {case}");
    }
}

/// Four samples per pixel, shaded once: `result.samplemask` (2.X.2
/// `<resultBasic>`; the spec text adds no rule, so it is the SampleMask
/// output of docs/interface.md, which Vulkan ANDs with the coverage) makes
/// mask k write the samples of its set bits. White on a
/// zero clear, resolved to the average: popcount(k) / 4 in every component
/// (mask 0 writes nothing and leaves the clear value).
#[test]
fn a_result_sample_mask_writes_the_samples_of_its_bits() {
    let src = "!!NVfp5.0
FLAT UINT ATTRIB sel = fragment.texcoord[0];
MOV result.color, 1;
MOV.U result.samplemask.x, sel.x;
END
";
    let spirv = compile(src);
    let Some(device) = harness::device_or_skip() else {
        return;
    };
    let job = FragmentJob {
        samples: 4,
        clear: [0; 4],
        ..FragmentJob::new((0..16u32).map(|k| vec![Input::uint(5, [k; 4])]).collect())
    };
    let got = device
        .run_fragment(&spirv, &job)
        .unwrap_or_else(|e| panic!("{e}"));
    for k in 0..16u32 {
        let covered = k.count_ones() as f32 / 4.0;
        assert_eq!(got.f32(k as usize), [covered; 4], "device, mask {k:#06b}");
    }
}

/// `fragment.pointcoord` (NV_gpu_program5 2.X.3.2, "(s,t,-,-) fragment
/// point sprite coordinate"): a point of size 4 centred at (16, 16) of a
/// 32×32 target covers pixels 14..=17 in x and y, and each fragment's
/// coordinate is 0.5 + (pixel centre - point centre) / size: 0.125, 0.375,
/// 0.625, 0.875 (s to the right, t downwards: the upper-left origin of
/// Vulkan and of GL's default POINT_SPRITE_COORD_ORIGIN). z and w read 0
/// (docs/interface.md). A pixel outside the point keeps the clear value.
#[test]
fn point_coordinates_run_across_a_point_sprite() {
    let vertex =
        "!!NVvp4.0\nMOV result.position, vertex.attrib[0];\nMOV result.pointsize, 4;\nEND\n";
    let fragment = "!!NVfp5.0\nMOV result.color, fragment.pointcoord;\nEND\n";
    // The interpreter: the coordinates it is given, z and w 0.
    let (program, _) = nvp4c::check(fragment, &Default::default()).unwrap();
    let mut inputs = nvp4c::interp::Inputs::default();
    inputs
        .set(
            "fragment.pointcoord",
            [0.375f32, 0.875, 5.0, 6.0].map(f32::to_bits),
        )
        .unwrap();
    let out = nvp4c::interp::run(&program, &inputs, &Default::default()).unwrap();
    let r = out.result("result.color").unwrap();
    assert_eq!(r.bits, [0.375f32, 0.875, 0.0, 0.0].map(f32::to_bits));
    assert_eq!(r.undefined, 0);
    let Some(device) = harness::device_or_skip() else {
        return;
    };
    let job = harness::RasterJob::new(
        vec![vec![Input::float(0, [0.0, 0.0, 0.0, 1.0])]],
        ash::vk::PrimitiveTopology::POINT_LIST,
    );
    let got = device
        .run_raster(&compile(vertex), None, &compile(fragment), &job)
        .unwrap_or_else(|e| panic!("{e}"));
    let coordinate = [0.125f32, 0.375, 0.625, 0.875];
    for (i, y) in (14..18).enumerate() {
        for (j, x) in (14..18).enumerate() {
            let want = [coordinate[j], coordinate[i], 0.0, 0.0].map(f32::to_bits);
            assert_eq!(got.color(x, y, 0), want, "pixel ({x}, {y})");
        }
    }
    assert_eq!(got.color(13, 16, 0), got.clear, "outside the point");
    assert_eq!(got.color(16, 18, 0), got.clear, "outside the point");
}
