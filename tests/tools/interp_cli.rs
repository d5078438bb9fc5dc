//! `nvp4c run`: inputs from --set and --inputs, the printed results and
//! trace, JSON output, exit codes.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn nvp4c_run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_nvp4c"))
        .arg("run")
        .args(args)
        .args(["--color", "never"])
        .output()
        .expect("nvp4c runs")
}

fn program(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("nvp4c-interp-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs `nvp4c run` on `text` (written to a file called `name`) with
/// `args`, asserts it exits 0, and returns what it printed.
fn run_ok(name: &str, text: &str, args: &[&str]) -> String {
    run_file_ok(&program(name, text), args)
}

/// Runs `nvp4c run` on the program file `p` with `args`, asserts it exits
/// 0, and returns what it printed.
fn run_file_ok(p: &Path, args: &[&str]) -> String {
    let o = nvp4c_run(&[&[p.to_str().unwrap()][..], args].concat());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    stdout(&o)
}

/// Asserts that `out` contains each of `parts`.
fn assert_has(out: &str, parts: &[&str]) {
    for part in parts {
        assert!(out.contains(part), "no {part:?} in:\n{out}");
    }
}

const PROG: &str = "!!NVfp4.0\n\
TEMP r;\n\
ADD.CC r, fragment.texcoord[0], program.local[0];\n\
MUL result.color, r, 2;\n\
END\n";

#[test]
fn prints_results_as_floats_and_hex() {
    let out = run_ok(
        "add.fp",
        PROG,
        &[
            "--set",
            "fragment.texcoord[0]=0.5,0.25,0,1",
            "--set",
            "program.local[0]=0.25",
        ],
    );
    // local[0] = (0.25, 0, 0, 1) (missing components filled as {x}):
    // r = (0.75, 0.25, 0, 2); result = (1.5, 0.5, 0, 4).
    assert_has(
        &out,
        &[
            "result.color",
            "(1.5, 0.5, 0.0, 4.0)",
            "0x3fc00000 0x3f000000 0x00000000 0x40800000",
            "fragment program",
        ],
    );
}

#[test]
fn integer_and_hex_inputs() {
    let out = run_ok("int.fp", "!!NVfp4.0\nINT TEMP a;\nADD.S a, program.local[0], program.local[1];\nMOV.S result.color, a;\nEND\n", &["--set", "program.local[0]=i:1,-2,3,4", "--set", "program.local[1]=x:ffffffff,1,u:7,0x10"]);
    // (1 - 1, -2 + 1, 3 + 7, 4 + 16), shown as integers (written by ADD.S).
    assert_has(
        &out,
        &[
            "(0, -1, 10, 20)",
            "0x00000000 0xffffffff 0x0000000a 0x00000014",
        ],
    );
}

#[test]
fn trace_shows_source_values_and_condition_codes() {
    let out = run_ok(
        "trace.fp",
        PROG,
        &["--set", "fragment.texcoord[0]=-1,0,1,0", "--trace"],
    );
    assert_has(
        &out,
        &[
            "3 | ADD.CC r, fragment.texcoord[0], program.local[0]",
            "r.x = -1.0",
            "0xbf800000",
            "CC0.x: SF=1 ZF=0 OF=0 CF=0",
            "CC0.y: SF=0 ZF=1 OF=0 CF=0",
            "4 | MUL result.color, r, 2",
        ],
    );
}

#[test]
fn inputs_from_a_json_file_and_set_overrides() {
    let p = program("json.fp", PROG);
    let inputs = program(
        "inputs.json",
        r#"{"fragment.texcoord[0]": [1, 2, 3, 4], "program.local[0]": "x:3f800000,0,0,0"}"#,
    );
    let out = run_file_ok(
        &p,
        &[
            "--inputs",
            inputs.to_str().unwrap(),
            "--set",
            "program.local[0]=0,0,0,1",
        ],
    );
    // (1, 2, 3, 4) + (0, 0, 0, 1) = (1, 2, 3, 5), times 2.
    assert_has(&out, &["(2.0, 4.0, 6.0, 10.0)"]);
}

#[test]
fn json_output() {
    let p = program("out.fp", PROG);
    let out = run_file_ok(&p, &["--set", "fragment.texcoord[0]=1,1,1,1", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["killed"], false);
    assert_eq!(v["stage"], "fragment");
    assert_eq!(v["results"]["result.color"]["bits"][0], "0x40000000");
    assert_eq!(v["results"]["result.color"]["written"], "xyzw");
}

#[test]
fn kil_is_reported() {
    let p = program(
        "kil.fp",
        "!!NVfp4.0\nMOV result.color, 1;\nKIL fragment.texcoord[0];\nEND\n",
    );
    let out = run_file_ok(&p, &["--set", "fragment.texcoord[0]=1,-1,1,1"]);
    assert_has(&out, &["killed: yes"]);
    let o = nvp4c_run(&[p.to_str().unwrap(), "--set", "fragment.texcoord[0]=1,1,1,1"]);
    assert!(!stdout(&o).contains("killed"), "{}", stdout(&o));
}

#[test]
fn never_written_and_undefined_results_are_marked() {
    let out = run_ok("undef.fp", "!!NVfp4.0\nOPTION ARB_draw_buffers;\nTEMP t;\nMOV result.color.xy, t;\nMOV result.color.z, 1;\nMOV result.color[1].x, 1;\nEND\n", &[]);
    // x, y from an unwritten temporary (undefined, ~), z = 1, w never written (?).
    assert_has(&out, &["(0.0~, 0.0~, 1.0, ?)", "----------"]);
}

#[test]
fn compile_errors_are_rendered_with_exit_code_1() {
    let p = program("bad.fp", "!!NVfp4.0\nMOV result.color, nonsense;\nEND\n");
    let o = nvp4c_run(&[p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("error["), "{err}");
    assert!(err.contains("bad.fp:2:"), "{err}");
}

#[test]
fn bad_usage_exits_with_2() {
    let p = program("usage.fp", PROG);
    for set in [
        "fragment.texcoord[0]",
        "fragment.texcoord[0]=a,b",
        "program.local[0]=1,2,3,4,5",
        "program.local[zz]=1",
        "nonsense=1",
        "program.local[0]=i:1.5",
    ] {
        let o = nvp4c_run(&[p.to_str().unwrap(), "--set", set]);
        assert_eq!(o.status.code(), Some(2), "--set {set}: {}", stderr(&o));
        assert!(stderr(&o).contains("error: --set"), "{}", stderr(&o));
    }
    let o = nvp4c_run(&["/nonexistent/prog.fp"]);
    assert_eq!(o.status.code(), Some(2));
    let bad_json = program("bad.json", "[1, 2]");
    let o = nvp4c_run(&[p.to_str().unwrap(), "--inputs", bad_json.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn inputs_the_program_does_not_read_are_warned_about() {
    let p = program("warn.fp", PROG);
    let o = nvp4c_run(&[p.to_str().unwrap(), "--set", "fragment.texcoord[1]=1"]);
    assert_eq!(o.status.code(), Some(0));
    let err = stderr(&o);
    assert!(
        err.contains("does not read `fragment.texcoord[1]`"),
        "{err}"
    );
    assert!(
        err.contains("fragment.texcoord[0]"),
        "it lists what is read: {err}"
    );
}

#[test]
fn an_endless_loop_and_textures_exit_with_1() {
    let p = program(
        "loop.fp",
        "!!NVfp4.0\nTEMP t;\nMOV t, 0;\nREP;\nADD t, t, 1;\nBRK (FL);\nENDREP;\nMOV result.color, t;\nEND\n",
    );
    let o = nvp4c_run(&[p.to_str().unwrap(), "--max-steps", "500"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("stopped after 500"), "{}", stderr(&o));
    let p = program(
        "tex.fp",
        "!!NVfp4.0\nTEX result.color, fragment.texcoord[0], texture[0], 2D;\nEND\n",
    );
    let o = nvp4c_run(&[p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("TEX"), "{}", stderr(&o));
}

#[test]
fn geometry_vertices_are_listed() {
    let p = program(
        "g.gp",
        "!!NVgp4.0\nPRIMITIVE_IN POINTS;\nPRIMITIVE_OUT POINTS;\nVERTICES_OUT 2;\n\
         MOV result.position, vertex[0].position;\nEMIT;\nADD result.position, vertex[0].position, 1;\nEMIT;\nEND\n",
    );
    let out = run_file_ok(&p, &["--set", "vertex[0].position=1,2,3,4"]);
    assert_has(
        &out,
        &[
            "2 vertex(es) emitted",
            "vertex 1 (primitive 0):",
            "(2.0, 3.0, 4.0, 5.0)",
        ],
    );
}

/// LOADIM, ATOMIM and STOREIM on image unit 0 (U32, 2D), a formatted
/// STOREIM on unit 2 (EXT_shader_image_load_store, NV_gpu_program5
/// 2.X.8.Z).
const IMAGE_PROG: &str = "!!NVfp5.0\n\
IMAGE img = image[0];\n\
IMAGE out = image[2];\n\
UINT TEMP t, old;\n\
LOADIM.U32 t, {1, 0, 0, 0}, img, 2D;\n\
ATOMIM.ADD.U32 old.x, 5, {0, 1, 0, 0}, img, 2D;\n\
STOREIM.U32 img, t, {1, 1, 0, 0}, 2D;\n\
STOREIM.F out, {0.5, 2, 0, 1}, {0, 0, 0, 0}, 2D;\n\
MOV.U result.color.x, old.x;\n\
MOV.U result.color.y, t.x;\n\
END\n";

#[test]
fn images_from_set_are_loaded_updated_and_printed() {
    let out = run_ok(
        "images.fp",
        IMAGE_PROG,
        &["--set", "image[0]=2x2:1,2,3,4", "--set", "image[2]=1x1:"],
    );
    // Texel (i, j) is value j*2 + i: (0,0)=1 (1,0)=2 (0,1)=3 (1,1)=4.
    // LOADIM (1,0) = 2; ATOMIM.ADD 5 at (0,1): returns 3, leaves 8;
    // STOREIM of t = 2 at (1,1) replaces 4.
    assert_has(
        &out,
        &[
            "result.color  (3u, 2u, ?, ?)",
            "image[0] (2D U32, 2x2x1):",
            "  (0, 0)  (1u)  [0x00000001]\n",
            "  (1, 0)  (2u)  [0x00000002]\n",
            "  (0, 1)  (8u)  [0x00000008]  changed\n",
            "  (1, 1)  (2u)  [0x00000002]  changed\n",
        ],
    );
    // A unit only written by formatted stores: four 32-bit components of
    // the stored type (an RGBA32F view).
    assert!(
        out.contains("image[2] (2D F32X4, formatted stores, 1x1x1):"),
        "{out}"
    );
    assert!(
        out.contains(
            "  (0, 0)  (0.5, 2.0, 0.0, 1.0)  [0x3f000000 0x40000000 0x00000000 0x3f800000]  changed"
        ),
        "{out}"
    );
}

#[test]
fn an_image_the_inputs_omit_reads_zero_and_keeps_nothing() {
    let p = program("images-omitted.fp", IMAGE_PROG);
    let out = run_file_ok(&p, &["--set", "image[0]=2x2:1,2,3,4"]);
    assert!(
        out.contains("image[2] (2D F32X4, formatted stores): no image given (its loads read 0, its stores and atomics did nothing)"),
        "{out}"
    );
    // Without image[0] too: LOADIM reads 0 and ATOMIM returns 0 (section
    // 3.9.X, invalid image loads and atomics return zero).
    let o = nvp4c_run(&[p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("result.color  (0u, 0u, ?, ?)"),
        "{}",
        stdout(&o)
    );
    // A unit the program does not access is warned about.
    let o = nvp4c_run(&[p.to_str().unwrap(), "--set", "image[5]=u:1"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("the program does not access `image[5]`"),
        "{}",
        stderr(&o)
    );
}

/// An S16X2 1D image from an --inputs file: texels given as the format's
/// components, stored as 16-bit halves of a word each.
const S16_PROG: &str = "!!NVfp5.0\n\
OPTION NV_gpu_program5_mem_extended;\n\
IMAGE img = image[3];\n\
INT TEMP t;\n\
LOADIM.S16X2 t, {0, 0, 0, 0}, img, 1D;\n\
ADD.S t, t, 1;\n\
STOREIM.S16X2 img, t, {1, 0, 0, 0}, 1D;\n\
MOV.S result.color, t;\n\
END\n";

#[test]
fn images_from_an_inputs_file_in_json_output() {
    let p = program("images-s16.fp", S16_PROG);
    let inputs = program(
        "images-s16.json",
        r#"{"image[3]": {"target": "1D", "format": "S16X2", "size": [2],
            "texels": [-5, 32766, "x:1", "x:ffff"]}}"#,
    );
    let o = nvp4c_run(&[
        p.to_str().unwrap(),
        "--inputs",
        inputs.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let image = &json["images"]["image[3]"];
    assert_eq!(image["format"], "S16X2");
    assert_eq!(image["target"], "1D");
    assert_eq!(image["size"], serde_json::json!([2, 1, 1]));
    let texels = image["texels"].as_array().unwrap();
    // Texel 0 as given: (-5, 32766), bits 0xfffb, 0x7ffe.
    assert_eq!(texels[0]["at"], serde_json::json!([0]));
    assert_eq!(texels[0]["values"], serde_json::json!(["-5", "32766"]));
    assert_eq!(texels[0]["bits"], serde_json::json!(["0xfffb", "0x7ffe"]));
    assert_eq!(texels[0]["changed"], false);
    // Texel 1 was (1, -1) (x:ffff sign-extends); STOREIM of t + 1 =
    // (-4, 32767) replaces it.
    assert_eq!(texels[1]["values"], serde_json::json!(["-4", "32767"]));
    assert_eq!(texels[1]["bits"], serde_json::json!(["0xfffc", "0x7fff"]));
    assert_eq!(texels[1]["changed"], true);
    // LOADIM of a two-component format fills z, w with 0, 1; plus 1.
    assert_eq!(
        json["results"]["result.color"]["values"],
        serde_json::json!(["-4", "32767", "1", "2"])
    );
}

#[test]
fn bad_image_inputs_exit_with_2_naming_the_key() {
    let p = program("images-bad.fp", IMAGE_PROG);
    for (set, says) in [
        ("image[0]=2x2:1,2,3", "4 values, got 3"),
        ("image[0]=f:1.5", "U32 holds integers"),
        ("image[0]=i:-1", "outside U32's range"),
        ("image[0]=0x2:1", "positive integers"),
        ("image[x]=1", "expected image[N]"),
        ("image[0]=2x2", "looks like a size"),
    ] {
        let o = nvp4c_run(&[p.to_str().unwrap(), "--set", set]);
        assert_eq!(o.status.code(), Some(2), "--set {set}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(err.contains(&format!("error: --set {set}")), "{err}");
        assert!(err.contains(says), "--set {set}: {err}");
    }
    for (json, says) in [
        (
            r#"{"image[0]": {"size": [2], "format": "F32"}}"#,
            "accesses it as U32, not F32",
        ),
        (
            r#"{"image[0]": {"size": [2], "target": "3D"}}"#,
            "as a 2D image, not 3D",
        ),
        (
            r#"{"image[0]": {"size": [2], "layers": 2}}"#,
            "unknown key `layers`",
        ),
        (
            r#"{"image[0]": {"size": [2], "samples": 4}}"#,
            "needs a 2DMS",
        ),
        (r#"{"image[0]": [1, 2]}"#, "expected an object"),
        (r#"{"image[0]": {}}"#, "give its size or its texels"),
    ] {
        let inputs = program("images-bad.json", json);
        let o = nvp4c_run(&[p.to_str().unwrap(), "--inputs", inputs.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{json}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(err.contains("`image[0]`"), "{json}: {err}");
        assert!(err.contains(says), "{json}: {err}");
    }
}

/// NV_bindless_texture's image handles: the handle in program.local[0].x
/// names element H of the 2D U32 handle array (docs/interface.md,
/// "Bindless images").
const HANDLE_PROG: &str = "!!NVfp5.0\n\
OPTION NV_bindless_texture;\n\
TEMP h, v, old, w;\n\
MOV.U h.x, program.local[0].x;\n\
LOADIM.U32 v, {0, 0, 0, 0}, handle(h.x), 2D;\n\
ADD.U w.x, h.x, 1;\n\
ATOMIM.ADD.U32 old.x, w.x, {0, 0, 0, 0}, handle(h.x), 2D;\n\
STOREIM.U32 handle(h.x), v, {1, 0, 0, 0}, 2D;\n\
MOV.U result.color.x, v.x;\n\
MOV.U result.color.y, old.x;\n\
END\n";

#[test]
fn images_of_image_handles_are_given_and_printed() {
    let p = program("handles.fp", HANDLE_PROG);
    let out = run_file_ok(
        &p,
        &[
            "--set",
            "program.local[0]=u:3",
            "--set",
            "image.handle[3]=2x1:3007,0",
            "--set",
            "image.handle[2]=1:",
        ],
    );
    // Handle 3: LOADIM (0, 0) reads 3007; ATOMIM.ADD of 3 + 1 returns it
    // and leaves 3011; STOREIM puts 3007 at (1, 0). Handle 2 is untouched.
    assert_has(
        &out,
        &[
            "result.color  (3007u, 3007u, ?, ?)",
            "image.handle[2] (2D U32, 1x1x1):\n  (0, 0)  (0u)  [0x00000000]\n",
            "image.handle[3] (2D U32, 2x1x1):\n",
            "  (0, 0)  (3011u)  [0x00000bc3]  changed\n",
            "  (1, 0)  (3007u)  [0x00000bbf]  changed\n",
        ],
    );
    let o = nvp4c_run(&[
        p.to_str().unwrap(),
        "--set",
        "program.local[0]=u:3",
        "--set",
        "image.handle[3]=2x1:3007,0",
        "--json",
    ]);
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let handles = json["image_handles"].as_array().unwrap();
    assert_eq!(handles.len(), 1, "{json}");
    assert_eq!(handles[0]["handle"], 3);
    assert_eq!(handles[0]["target"], "2D");
    assert_eq!(handles[0]["format"], "U32");
    assert_eq!(
        handles[0]["texels"][0]["values"],
        serde_json::json!(["3011u"])
    );
    // Without images the handle names none: its load and atomic return 0.
    let o = nvp4c_run(&[p.to_str().unwrap(), "--set", "program.local[0]=u:3"]);
    assert!(
        stdout(&o).contains("result.color  (0u, 0u, ?, ?)"),
        "{}",
        stdout(&o)
    );
    assert!(
        stdout(&o).contains("image.handle[*] (2D U32): no image given"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn image_handles_of_several_arrays_need_target_and_format() {
    let p = program(
        "handles-two.fp",
        "!!NVfp5.0\n\
OPTION NV_bindless_texture;\n\
TEMP v;\n\
LOADIM.U32 v, {0, 0, 0, 0}, handle(program.local[0].x), 2D;\n\
STOREIM.U32X4 handle(program.local[0].y), v, {0, 0, 0, 0}, 1D;\n\
MOV.U result.color, v;\n\
END\n",
    );
    let o = nvp4c_run(&[p.to_str().unwrap(), "--set", "image.handle[0]=u:1"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("`image.handle[0]`: the program's image handles name 1D U32X4, 2D U32: give the target and format"),
        "{}",
        stderr(&o)
    );
    let inputs = program(
        "handles-two.json",
        r#"{"image.handle[1]": {"target": "1D", "format": "U32X4", "size": [1], "texels": [1, 2, 3, 4]},
            "image.handle[0]": {"target": "2D", "size": [1], "texels": [7]}}"#,
    );
    let out = run_file_ok(
        &p,
        &[
            "--inputs",
            inputs.to_str().unwrap(),
            "--set",
            "program.local[0]=u:0,1",
        ],
    );
    // LOADIM.U32 of handle 0 reads (7, 0, 0, 1); STOREIM.U32X4 writes it
    // to handle 1 of the 1D array.
    assert_has(&out, &["image.handle[1] (1D U32X4, 1x1x1):\n  (0)  (7u, 0u, 0u, 1u)  [0x00000007 0x00000000 0x00000000 0x00000001]  changed"]);
    let o = nvp4c_run(&[p.to_str().unwrap(), "--set", "image.handle[8]=u:1"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

/// An F16X2 unit (NV_gpu_program5_mem_extended): float texel values are
/// rounded to the nearest half when stored, as a store to it would be.
#[test]
fn float_texels_of_a_half_format_are_rounded_to_halves() {
    let p = program(
        "images-f16.fp",
        "!!NVfp5.0\n\
OPTION NV_gpu_program5_mem_extended;\n\
IMAGE img = image[0];\n\
TEMP t;\n\
LOADIM.F16X2 t, {0, 0, 0, 0}, img, 1D;\n\
MOV result.color, t;\n\
END\n",
    );
    let out = run_file_ok(&p, &["--set", "image[0]=1.5,0.1"]);
    // 1.5 is 0x3e00; 0.1 = 1.6 × 2^-4: exponent 11, mantissa 0.6 × 1024 =
    // 614.4, rounded to 614: 0x2e66, which is 1638 / 16384 = 0.0999755859375.
    assert!(
        out.contains("image[0] (1D F16X2, 1x1x1):\n  (0)  (1.5, 0.099975586)  [0x3e00 0x2e66]\n"),
        "{out}"
    );
    // LOADIM fills z, w with 0, 1.
    assert!(
        out.contains("result.color  (1.5, 0.099975586, 0.0, 1.0)"),
        "{out}"
    );
    // An integer does not fit a float format unless given as bits.
    let o = nvp4c_run(&[p.to_str().unwrap(), "--set", "image[0]=u:1,2"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("F16X2 holds floats"), "{}", stderr(&o));
    let o = nvp4c_run(&[p.to_str().unwrap(), "--set", "image[0]=x:3c00,10000"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("F16X2 holds 16-bit components"),
        "{}",
        stderr(&o)
    );
}
