mod harness;
use harness::{FragmentJob, Input};

#[test]
fn smoke() {
    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    let src = "!!NVfp4.0\nATTRIB A = fragment.texcoord[0];\nOUTPUT O = result.color;\nMOV O, A.yzwx;\nMOV result.color[1], -|A|;\nEND\n";
    let c = nvp4c::compile(src, &nvp4c::Options::default())
        .unwrap_or_else(|d| panic!("{}", d.render("t", src, false)));
    let job = FragmentJob::new(vec![vec![Input::float(5, [1.0, -2.0, 3.0, 4.0])]]);
    let out = dev.run_fragment(&c.spirv, &job).unwrap();
    println!("{:?} {:?}", out.f32(0), out.color_f32(0, 1));
}
