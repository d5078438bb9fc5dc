//! DDX and DDY (NV_fragment_program4 2.X.8.Z): partial derivatives across
//! the 2×2 quad, on the device. fragment.position moves by one pixel per
//! pixel, so its x has DDX = 1 and DDY = 0, and its y the reverse; z and w
//! are the same across a point (every pixel of the harness is a point), so
//! their derivatives are 0. An attribute that is constant over the
//! primitive has derivative 0 too.

use crate::harness;
use crate::harness::{FragmentJob, Input};

#[test]
fn derivatives_of_the_window_position_are_one_pixel_per_pixel() {
    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    for env in [nvp4c::TargetEnv::Vulkan1_0, nvp4c::TargetEnv::Vulkan1_3] {
        let src = "!!NVfp4.0
OPTION ARB_draw_buffers;
DDX result.color[0], fragment.position;
DDY result.color[1], fragment.position;
DDX result.color[2], fragment.texcoord[0];
DDY.SAT result.color[3], fragment.texcoord[0];
END
";
        let mut options = nvp4c::Options::default();
        options.target_env = env;
        let spirv = nvp4c::compile(src, &options).expect("compiles").spirv;
        let cases: Vec<Vec<Input>> = (0..16)
            .map(|k| vec![Input::float(5, [k as f32, 2.0, -3.0, 0.5])])
            .collect();
        let out = dev
            .run_fragment(&spirv, &FragmentJob::new(cases))
            .expect("runs");
        for k in 0..16 {
            assert_eq!(
                out.color_f32(k, 0),
                [1.0, 0.0, 0.0, 0.0],
                "DDX position, case {k}, {env:?}"
            );
            assert_eq!(
                out.color_f32(k, 1),
                [0.0, 1.0, 0.0, 0.0],
                "DDY position, case {k}, {env:?}"
            );
            assert_eq!(
                out.color_f32(k, 2),
                [0.0; 4],
                "DDX of a constant attribute, case {k}, {env:?}"
            );
            assert_eq!(
                out.color_f32(k, 3),
                [0.0; 4],
                "DDY.SAT of a constant attribute, case {k}, {env:?}"
            );
        }
    }
}
