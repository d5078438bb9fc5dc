//! NV_gpu_program5's six program types through the library without a
//! device: each header's execution model and modes (reflection), the
//! interpreter on tessellation programs (hand-computed values), `nvp4c link`
//! over a vertex → tessellation control → tessellation evaluation →
//! fragment pipeline, and texture variables.

use nvp4c::reflect::ExecutionModel;

fn compile(src: &str) -> nvp4c::Compiled {
    nvp4c::compile(src, &nvp4c::Options::default())
        .unwrap_or_else(|d| panic!("{}", d.render("test", src, false)))
}

fn fixture(path: &str) -> String {
    std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/cg")
            .join(path),
    )
    .unwrap()
}

#[test]
fn each_nv5_header_compiles_to_its_execution_model() {
    let cases = [
        ("!!NVvp5.0\nMOV result.position, vertex.position;\nEND\n", ExecutionModel::Vertex),
        ("!!NVfp5.0\nMOV result.color, fragment.color;\nEND\n", ExecutionModel::Fragment),
        (
            "!!NVgp5.0\nPRIMITIVE_IN POINTS;\nPRIMITIVE_OUT POINTS;\nVERTICES_OUT 1;\nINVOCATIONS 4;\nMOV result.position, vertex[0].position;\nEMIT;\nEND\n",
            ExecutionModel::Geometry,
        ),
        (
            "!!NVtcp5.0\nVERTICES_OUT 4;\nMOV result.patch.tessouter[0].x, 2;\nEND\n",
            ExecutionModel::TessellationControl,
        ),
        (
            "!!NVtep5.0\nTESS_MODE QUADS;\nTESS_SPACING FRACTIONAL_EVEN;\nTESS_VERTEX_ORDER CW;\nTESS_POINT_MODE;\nMOV result.position, vertex.tesscoord;\nEND\n",
            ExecutionModel::TessellationEvaluation,
        ),
        (
            "!!NVcp5.0\nGROUP_SIZE 8, 2, 2;\nTEMP t;\nMOV.U t, invocation.localid;\nEND\n",
            ExecutionModel::GLCompute,
        ),
    ];
    for (src, model) in cases {
        let r = compile(src).reflection;
        assert_eq!(r.entry_point.execution_model, model, "{src}");
    }
    // The declarations become the execution modes (docs/interface.md).
    let modes = |src: &str| {
        compile(src)
            .reflection
            .entry_point
            .execution_modes
            .join(" ")
    };
    assert!(
        modes(cases[2].0).contains("Invocations 4"),
        "{}",
        modes(cases[2].0)
    );
    assert!(
        modes(cases[3].0).contains("OutputVertices 4"),
        "{}",
        modes(cases[3].0)
    );
    let tep = modes(cases[4].0);
    for m in [
        "Quads",
        "SpacingFractionalEven",
        "VertexOrderCw",
        "PointMode",
    ] {
        assert!(tep.contains(m), "{tep}");
    }
    assert!(
        modes(cases[5].0).contains("LocalSize 8 2 2"),
        "{}",
        modes(cases[5].0)
    );
}

#[test]
fn a_tessellation_evaluation_program_runs_in_the_interpreter() {
    // position = u·vertex[0] + v·vertex[1] + w·vertex[2] with (u, v, w) =
    // (0.25, 0.5, 0.25) and only vertex[1] set to (4, 8, 12, 16):
    // 0.5·(4, 8, 12, 16) = (2, 4, 6, 8). texcoord[0] = primitive.tessouter[1]
    // = 3 in x; NV_tessellation_program5 leaves y, z, w undefined.
    let src = "!!NVtep5.0
TESS_MODE TRIANGLES;
TEMP p;
MUL p, vertex.tesscoord.x, vertex[0].position;
MAD p, vertex.tesscoord.y, vertex[1].position, p;
MAD result.position, vertex.tesscoord.z, vertex[2].position, p;
MOV result.texcoord[0].x, primitive.tessouter[1].x;
END
";
    let (program, _) = nvp4c::check(src, &nvp4c::Options::default()).unwrap();
    let mut inputs = nvp4c::interp::Inputs::default();
    let f = |v: [f32; 4]| v.map(f32::to_bits);
    inputs
        .set("vertex.tesscoord", f([0.25, 0.5, 0.25, 0.0]))
        .unwrap();
    inputs
        .set("vertex[1].position", f([4.0, 8.0, 12.0, 16.0]))
        .unwrap();
    inputs
        .set("primitive.tessouter[1]", f([3.0, 0.0, 0.0, 0.0]))
        .unwrap();
    let out = nvp4c::interp::run(&program, &inputs, &Default::default()).unwrap();
    assert_eq!(
        out.result("result.position").unwrap().bits,
        f([2.0, 4.0, 6.0, 8.0])
    );
    assert_eq!(
        out.result("result.texcoord[0]").unwrap().bits[0],
        3.0f32.to_bits()
    );
}

#[test]
fn a_control_program_reads_other_invocations_results_as_inputs_in_the_interpreter() {
    // One invocation at a time: `vertex.out[2].texcoord[0]` is what
    // invocation 2 wrote, given as an input; through an array variable
    // bound to `vertex.out.texcoord[0..0]` indexed [id][0] with id = 2.
    let src = "!!NVtcp5.0
VERTICES_OUT 3;
ATTRIB outs[] = { vertex.out.texcoord[0..0] };
INT TEMP id;
MOV.S id.x, 2;
MOV result.patch.attrib[0], outs[id.x][0];
MOV result.patch.attrib[1], vertex.out[2].texcoord[0];
END
";
    let (program, _) = nvp4c::check(src, &nvp4c::Options::default()).unwrap();
    let mut inputs = nvp4c::interp::Inputs::default();
    let v = [1.0f32, 2.0, 3.0, 4.0].map(f32::to_bits);
    inputs.set("vertex.out[2].texcoord[0]", v).unwrap();
    let out = nvp4c::interp::run(&program, &inputs, &Default::default()).unwrap();
    assert_eq!(out.result("result.patch.attrib[0]").unwrap().bits, v);
    assert_eq!(out.result("result.patch.attrib[1]").unwrap().bits, v);
}

#[test]
fn link_checks_a_vertex_tessellation_fragment_pipeline() {
    let vp = "!!NVvp5.0\nMOV result.position, vertex.position;\nMOV result.texcoord[0], vertex.attrib[2];\nMOV result.texcoord[1], vertex.attrib[3];\nEND\n";
    let fp = "!!NVfp5.0\nMOV result.color, fragment.texcoord[0];\nEND\n";
    let tcp = fixture("gp5tcp/tess_control_phong.tcp");
    let tep = fixture("gp5tep/tess_eval_phong.tep");
    let files = [
        ("a.vp", vp),
        ("b.tcp", tcp.as_str()),
        ("c.tep", tep.as_str()),
        ("d.fp", fp),
    ];
    let report = nvp4c::link::check_pipeline(&files, &nvp4c::Options::default()).unwrap();
    assert!(report.compiled.iter().all(Result::is_ok));
    let codes: Vec<_> = report
        .diagnostics
        .iter()
        .map(|d| d.diagnostic.code)
        .collect();
    assert!(codes.is_empty(), "{codes:?}");

    // The vertex program without texcoord[1]: the control program's
    // normal input is unwritten (E1000, pointed at the reader).
    let vp_short = "!!NVvp5.0\nMOV result.position, vertex.position;\nMOV result.texcoord[0], vertex.attrib[2];\nEND\n";
    let files = [
        ("a.vp", vp_short),
        ("b.tcp", tcp.as_str()),
        ("c.tep", tep.as_str()),
        ("d.fp", fp),
    ];
    let report = nvp4c::link::check_pipeline(&files, &nvp4c::Options::default()).unwrap();
    let codes: Vec<_> = report
        .diagnostics
        .iter()
        .map(|d| d.diagnostic.code)
        .collect();
    assert_eq!(codes, ["E1000"]);

    // The evaluation program before the control program is no pipeline.
    let files = [
        ("a.vp", vp),
        ("c.tep", tep.as_str()),
        ("b.tcp", tcp.as_str()),
        ("d.fp", fp),
    ];
    let err = nvp4c::link::check_pipeline(&files, &nvp4c::Options::default()).unwrap_err();
    assert!(err.to_string().contains("tess-control"), "{err}");
}

#[test]
fn texture_variables_name_texture_units() {
    // NV_gpu_program5 2.X.3.8: `maps[1]` is texture[3] of the range 2..3.
    let src = "!!NVfp5.0
TEXTURE maps[] = { texture[2..3] };
TEXTURE one = texture[5];
TEMP a, b;
TEX a, fragment.texcoord[0], maps[1], 2D;
TEX b, fragment.texcoord[0], one, CUBE;
ADD result.color, a, b;
END
";
    let r = compile(src).reflection;
    let mut units: Vec<u32> = r.textures.iter().map(|t| t.binding).collect();
    units.sort();
    assert_eq!(units, [32 + 3, 32 + 5]);
    // A texture variable in an NV4 program: the declaration does not exist there.
    let nv4 =
        "!!NVfp4.0\nTEXTURE t = texture[0];\nTEX result.color, fragment.texcoord[0], t, 2D;\nEND\n";
    let codes: Vec<_> = nvp4c::compile(nv4, &nvp4c::Options::default())
        .unwrap_err()
        .iter()
        .map(|d| d.code)
        .collect();
    assert_eq!(codes.first(), Some(&"E0731"), "{codes:?}");
}
