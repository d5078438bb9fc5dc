//! `nvp4c link` and `nvp4c::link::check_pipeline`: the programs of one
//! pipeline compiled separately, then checked against each other (every
//! attribute written by the stage before, same component type, integer bits
//! read FLAT), with labels in both files.

use std::process::Command;

use nvp4c::link::{check_pipeline, LinkError, LinkReport};
use nvp4c::Options;

const VP: &str = "!!NVvp4.0
MOV result.position, vertex.position;
MOV result.texcoord[0], vertex.attrib[1];
END
";

fn check(files: &[(&str, &str)]) -> LinkReport {
    check_pipeline(files, &Options::default()).expect("a vp [gp] fp pipeline")
}

/// (code, label files) of each diagnostic.
fn summary(r: &LinkReport) -> Vec<(&'static str, Vec<usize>)> {
    r.diagnostics
        .iter()
        .map(|d| (d.diagnostic.code, d.label_files.clone()))
        .collect()
}

/// The text each label of diagnostic `i` covers, in its own file.
fn labelled<'a>(r: &LinkReport, i: usize, files: &[(&str, &'a str)]) -> Vec<&'a str> {
    let d = &r.diagnostics[i];
    d.diagnostic
        .labels
        .iter()
        .zip(&d.label_files)
        .map(|(l, &f)| &files[f].1[l.span.start as usize..l.span.end as usize])
        .collect()
}

#[test]
fn a_matching_vertex_fragment_pipeline_passes() {
    let fp = "!!NVfp4.0\nMUL result.color, fragment.texcoord[0], fragment.position;\nEND\n";
    let r = check(&[("a.vp", VP), ("c.fp", fp)]);
    assert!(
        !r.has_errors(),
        "{}",
        r.render(&[("a.vp", VP), ("c.fp", fp)], false)
    );
    assert!(r.compiled.iter().all(Result::is_ok));
}

#[test]
fn a_matching_pipeline_with_a_geometry_program_passes() {
    // The geometry program reads the position and texcoord[0] the vertex
    // program writes, and writes texcoord[0] (as INT, read FLAT INT by the
    // fragment program), result.primid (read as primitive.id) and
    // result.attrib[2].
    let gp = "!!NVgp4.0
PRIMITIVE_IN TRIANGLES;
PRIMITIVE_OUT TRIANGLE_STRIP;
VERTICES_OUT 3;
ATTRIB tc = vertex.texcoord[0];
INT OUTPUT itc = result.texcoord[0];
MOV result.position, vertex[0].position;
MOV.S itc, {1, 2, 3, 4};
ADD result.attrib[3], tc[0], 1;
MOV.S result.primid.x, primitive.id.x;
MOV result.attrib[2], vertex[1].position;
EMIT;
END
";
    let fp = "!!NVfp4.0
FLAT INT ATTRIB t = fragment.texcoord[0];
INT TEMP x;
ADD.S x, t, primitive.id.x;
I2F result.color, x;
ADD result.color.w, fragment.attrib[2], 1;
END
";
    let files = [("a.vp", VP), ("b.gp", gp), ("c.fp", fp)];
    let r = check(&files);
    assert!(!r.has_errors(), "{}", r.render(&files, false));
}

/// `fp` reads fragment.texcoord[3], which [`VP`] does not write: one
/// E1000, its primary label on the attribute in c.fp, the secondary on
/// a.vp's header.
fn assert_texcoord3_is_missing(fp: &str) {
    let files = [("a.vp", VP), ("c.fp", fp)];
    let r = check(&files);
    assert_eq!(summary(&r), [("E1000", vec![1, 0])]);
    assert_eq!(
        labelled(&r, 0, &files),
        ["fragment.texcoord[3]", "!!NVvp4.0"]
    );
}

#[test]
fn a_missing_varying_is_reported_in_both_files() {
    let fp = "!!NVfp4.0\nADD result.color, fragment.texcoord[0], fragment.texcoord[3];\nEND\n";
    assert_texcoord3_is_missing(fp);
    let files = [("a.vp", VP), ("c.fp", fp)];
    let r = check(&files);
    let d = &r.diagnostics[0].diagnostic;
    assert!(d.labels[0].primary && !d.labels[1].primary);
    assert!(d.labels[1]
        .message
        .contains("result.texcoord[3] (Location 8)"));
    let text = r.render(&files, false);
    assert!(text.contains("c.fp:2:41"), "{text}");
    assert!(text.contains("a.vp:1:1"), "{text}");
}

#[test]
fn a_type_mismatch_is_reported_in_both_files() {
    // The vertex program writes Location 15 as UINT; the fragment program
    // reads it typeless (float).
    let vp = "!!NVvp4.0
UINT OUTPUT flags = result.attrib[1];
MOV result.position, vertex.position;
MOV.U flags, {1, 2, 3, 4};
END
";
    let fp = "!!NVfp4.0\nATTRIB f = fragment.attrib[1];\nMOV result.color, f;\nEND\n";
    let files = [("a.vp", vp), ("c.fp", fp)];
    let r = check(&files);
    assert_eq!(summary(&r), [("E1001", vec![1, 0])]);
    assert_eq!(labelled(&r, 0, &files), ["f", "flags"]);
    assert!(r.diagnostics[0]
        .diagnostic
        .message
        .contains("read as float"));
    assert!(r.diagnostics[0]
        .diagnostic
        .message
        .contains("written as UINT"));
    // Both sides UINT: consistent (the fragment attribute must be FLAT).
    let fp = "!!NVfp4.0\nFLAT UINT ATTRIB f = fragment.attrib[1];\nMOV.U result.color, f;\nEND\n";
    let r = check(&[("a.vp", vp), ("c.fp", fp)]);
    assert!(!r.has_errors(), "{:?}", summary(&r));
}

#[test]
fn integer_bits_need_a_flat_fragment_attribute() {
    let vp = "!!NVvp4.0\nMOV result.position, vertex.position;\nMOV.S result.texcoord[1], {1, 2, 3, 4};\nEND\n";
    let fp = "!!NVfp4.0\nMOV result.color, fragment.texcoord[1];\nEND\n";
    let files = [("a.vp", vp), ("c.fp", fp)];
    let r = check(&files);
    assert_eq!(summary(&r), [("E1002", vec![1, 0])]);
    assert_eq!(
        labelled(&r, 0, &files),
        ["fragment.texcoord[1]", "result.texcoord[1]"]
    );
    let fp = "!!NVfp4.0\nFLAT ATTRIB t = fragment.texcoord[1];\nMOV result.color, t;\nEND\n";
    let r = check(&[("a.vp", vp), ("c.fp", fp)]);
    assert!(!r.has_errors(), "{:?}", summary(&r));
}

#[test]
fn a_geometry_program_reading_an_unwritten_position_and_a_missing_primid() {
    // The vertex program writes no position; the geometry program reads
    // vertex[0].position. The fragment program reads primitive.id, which
    // after a geometry program is result.primid (NV_geometry_program4
    // 2.X.3.5), never written here.
    let vp = "!!NVvp4.0\nMOV result.texcoord[0], vertex.attrib[1];\nEND\n";
    let gp = "!!NVgp4.0
PRIMITIVE_IN POINTS;
PRIMITIVE_OUT POINTS;
VERTICES_OUT 1;
MOV result.position, vertex[0].position;
MOV result.texcoord[0], vertex[0].texcoord[0];
EMIT;
END
";
    let fp = "!!NVfp4.0\nINT TEMP p;\nMOV.S p, primitive.id;\nI2F result.color, p;\nEND\n";
    let files = [("a.vp", vp), ("b.gp", gp), ("c.fp", fp)];
    let r = check(&files);
    assert_eq!(
        summary(&r)
            .into_iter()
            .filter(|(c, _)| c.starts_with("E1"))
            .collect::<Vec<_>>(),
        [("E1000", vec![1, 0]), ("E1000", vec![2, 1])]
    );
    let e = r.diagnostics.len() - 2;
    assert_eq!(labelled(&r, e, &files)[0], "vertex[0].position");
    assert_eq!(labelled(&r, e + 1, &files)[0], "primitive.id");
    // Without the geometry program primitive.id is the GL's count.
    let vp2 = "!!NVvp4.0\nMOV result.position, vertex.position;\nEND\n";
    let r = check(&[("a.vp", vp2), ("c.fp", fp)]);
    assert!(!r.has_errors(), "{:?}", summary(&r));
}

#[test]
fn programs_out_of_order_and_compile_errors() {
    let fp = "!!NVfp4.0\nMOV result.color, fragment.texcoord[0];\nEND\n";
    match check_pipeline(&[("c.fp", fp), ("a.vp", VP)], &Options::default()) {
        Err(LinkError::Stages(m)) => assert!(m.contains("c.fp (fragment)"), "{m}"),
        other => panic!("expected a stage order error, got {other:?}"),
    }
    assert!(check_pipeline(&[("a.vp", VP)], &Options::default()).is_err());
    // A program that does not compile: its own diagnostics, in its file.
    let bad = "!!NVfp4.0\nMOVV result.color, fragment.texcoord[0];\nEND\n";
    let r = check(&[("a.vp", VP), ("c.fp", bad)]);
    assert_eq!(summary(&r), [("E0400", vec![1])]);
    assert!(r.compiled[1].is_err());
}

fn nvp4c(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_nvp4c"))
        .args(args)
        .output()
        .expect("run nvp4c");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_link_command_exit_codes() {
    let dir = std::env::temp_dir().join(format!("nvp4c-link-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p.display().to_string()
    };
    let vp = write("a.vp", VP);
    let good = write(
        "good.fp",
        "!!NVfp4.0\nMOV result.color, fragment.texcoord[0];\nEND\n",
    );
    let bad = write(
        "bad.fp",
        "!!NVfp4.0\nMOV result.color, fragment.texcoord[2];\nEND\n",
    );

    let (code, err) = nvp4c(&["link", &vp, &good, "--color", "never", "--write-spirv"]);
    assert_eq!(code, 0, "{err}");
    assert!(dir.join("a.spv").exists() && dir.join("good.spv").exists());

    let (code, err) = nvp4c(&["link", &vp, &bad, "--color", "never"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("error[E1000]"), "{err}");
    assert!(
        err.contains("bad.fp:2:19") && err.contains("a.vp:1:1"),
        "{err}"
    );

    let (code, err) = nvp4c(&["link", &good, &vp]);
    assert_eq!(code, 2, "{err}");
    let (code, _) = nvp4c(&["link", &vp]);
    assert_eq!(code, 2);
    let missing = dir.join("missing.fp").display().to_string();
    let (code, _) = nvp4c(&["link", &vp, &missing]);
    assert_eq!(code, 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_fragment_input_read_only_inside_a_loop_body_must_be_written() {
    // NV_fragment_program2's LOOP body reads fragment.texcoord[3], which
    // the vertex program does not write: the same E1000 as a read outside.
    let fp = "!!ARBfp1.0
OPTION NV_fragment_program2;
TEMP r;
MOV r, fragment.texcoord[0];
LOOP {2, 0, 1};
ADD r, r, fragment.texcoord[3];
ENDLOOP;
MOV result.color, r;
END
";
    assert_texcoord3_is_missing(fp);
}

#[test]
fn a_fragment_input_stored_to_an_image_must_be_written() {
    // NV_gpu_program5's STOREIM reads its value operand like any source:
    // storing fragment.texcoord[3] reads an attribute the vertex program
    // does not write.
    assert_texcoord3_is_missing(
        "!!NVfp5.0
IMAGE res = image[0];
STOREIM.F32X4 res, fragment.texcoord[3], {0, 0, 0, 0}, 2D;
MOV result.color, fragment.texcoord[0];
END
",
    );
}
