//! Direct3D 9 bytecode through the real binary: compiled by content
//! whatever the file's name, `nvp4c disasm` and `nvp4c asm`, `nvp4c run`
//! with the shader's register names, `nvp4c link` of a vs/ps pair,
//! `--reflect` with the CTAB names, and hostile bytes.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn nvp4c(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_nvp4c"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("nvp4c runs");
    {
        let mut pipe = child.stdin.take().unwrap();
        if let Some(bytes) = stdin {
            pipe.write_all(bytes).unwrap();
        }
    }
    child.wait_with_output().unwrap()
}

fn fixture(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/d3d9")
        .join(path)
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("nvp4c-d3d9-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn assemble(asm: &str) -> Vec<u8> {
    nvp4c::front::d3d9::assemble::assemble_bytes(asm).unwrap()
}

#[test]
fn a_shader_is_recognised_by_its_version_token_not_its_file_name() {
    let dir = scratch("sniff");
    let input = dir.join("shader.txt");
    std::fs::copy(fixture("compiled/vs_transform.vs_2_0.d3dbc"), &input).unwrap();
    let out = dir.join("shader.spv");
    let r = nvp4c(
        &[input.to_str().unwrap(), "-o", out.to_str().unwrap()],
        None,
    );
    assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
    let spv = std::fs::read(&out).unwrap();
    assert_eq!(&spv[..4], &0x0723_0203u32.to_le_bytes());
    // From standard input too.
    let bytes = std::fs::read(fixture("compiled/ps_math.ps_2_0.d3dbc")).unwrap();
    let r = nvp4c(&["-", "-o", "-"], Some(&bytes));
    assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
    assert_eq!(&r.stdout[..4], &0x0723_0203u32.to_le_bytes());
}

#[test]
fn disasm_prints_the_microsoft_listing_with_the_constant_table() {
    let r = nvp4c(
        &[
            "disasm",
            fixture("compiled/vs_transform.vs_2_0.d3dbc")
                .to_str()
                .unwrap(),
        ],
        None,
    );
    assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
    let out = text(&r.stdout);
    assert!(out.starts_with("vs_2_0\n"), "{out}");
    assert!(
        out.contains("//   float4x4 worldViewProj: c0-c3\n"),
        "{out}"
    );
    assert!(out.contains("\nmul oD0, v1, c4\n"), "{out}");
    assert!(out.ends_with("mov oT0.xy, v2.xyxx\n"), "{out}");
}

#[test]
fn disasm_of_a_broken_shader_prints_what_it_can_and_exits_1_with_a_code() {
    // lrp needs vs_2_0: the listing still shows it, the error points at it.
    let dir = scratch("disasm-bad");
    let input = dir.join("bad.vso");
    std::fs::write(&input, assemble("vs_1_1\nlrp r0, r1, r2, r3\n")).unwrap();
    let r = nvp4c(&["disasm", input.to_str().unwrap()], None);
    assert_eq!(r.status.code(), Some(1));
    assert_eq!(text(&r.stdout), "vs_1_1\nlrp r0, r1, r2, r3\n");
    assert!(text(&r.stderr).contains("E3100"), "{}", text(&r.stderr));
}

#[test]
fn asm_reproduces_every_hand_fixture_token_for_token() {
    let dir = scratch("asm");
    let mut n = 0;
    for e in std::fs::read_dir(fixture("hand")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "asm") {
            let out = dir.join(p.file_stem().unwrap()).with_extension("d3dbc");
            let r = nvp4c(
                &["asm", p.to_str().unwrap(), "-o", out.to_str().unwrap()],
                None,
            );
            assert_eq!(
                r.status.code(),
                Some(0),
                "{}: {}",
                p.display(),
                text(&r.stderr)
            );
            assert_eq!(
                std::fs::read(&out).unwrap(),
                std::fs::read(p.with_extension("d3dbc")).unwrap(),
                "{}",
                p.display()
            );
            n += 1;
        }
    }
    assert!(n >= 16, "{n} hand fixtures");
}

#[test]
fn run_takes_inputs_by_register_name_and_names_results_as_the_shader_does() {
    // vs_transform: oPos = rows c0-c3 . v0, oD0 = sat(v1 * c4), oT0.xy = v2.
    let path = fixture("compiled/vs_transform.vs_2_0.d3dbc");
    let r = nvp4c(
        &[
            "run",
            path.to_str().unwrap(),
            "--set",
            "c0=1,0,0,0",
            "--set",
            "c1=0,1,0,0",
            "--set",
            "c2=0,0,1,0",
            "--set",
            "c3=0,0,0,1",
            "--set",
            "c4=0.5,2,0.25,1",
            "--set",
            "v0=1,2,3,1",
            "--set",
            "v1=1,1,1,0.5",
            "--set",
            "v2=0.25,0.75",
            "--json",
        ],
        None,
    );
    assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
    let json: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
    let values = |name: &str| -> Vec<String> {
        json["results"][name]["values"]
            .as_array()
            .unwrap_or_else(|| panic!("no {name} in {json}"))
            .iter()
            .map(|v| v.as_str().unwrap_or("?").to_string())
            .collect()
    };
    assert_eq!(values("oPos"), ["1.0", "2.0", "3.0", "1.0"]);
    // oD0 is saturated: 2 * 1 reads 1.
    assert_eq!(values("oD0"), ["0.5", "1.0", "0.25", "0.5"]);
    assert_eq!(values("oT0"), ["0.25", "0.75", "0.0", "1.0"]);
}

#[test]
fn run_sets_boolean_constants_and_warns_about_a_constant_the_shader_defines() {
    // ps_2_x_predication with t0 = (0.5, -0.5, 0.5, 1): setp_gt against
    // c0.x = 0.5 gives p0 = (F, F, F, T); r0 = (2, 2, 2, 1); the else
    // branch sets r1 = 1, the rep adds 0.5 until r1.x >= 2; l0 adds r1
    // (4, 4, 4, 3); callnz l1 on b0 (defb true): l1 multiplies by c0.x =
    // 0.5 -> (2, 2, 2, 1.5); callnz l1 on !p0.z (p0.z false) again ->
    // (1, 1, 1, 0.75).
    let path = fixture("hand/ps_2_x_predication.d3dbc");
    let r = nvp4c(
        &[
            "run",
            path.to_str().unwrap(),
            "--set",
            "t0=0.5,-0.5,0.5,1",
            "--set",
            "c0=9,9,9,9",
            "--set",
            "b0=0",
        ],
        None,
    );
    assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
    let out = text(&r.stdout);
    assert!(out.contains("oC0  (1.0, 1.0, 1.0, 0.75)"), "{out}");
    // c0 and b0 are def'd in the shader: the given values are not read.
    let err = text(&r.stderr);
    assert!(err.contains("does not read `c0`"), "{err}");
    assert!(err.contains("does not read `b#`"), "{err}");
}

#[test]
fn run_reads_b_registers_and_ps_3_0_semantics() {
    // if b3 chooses between two colours; v0 packs texcoord0 (xy) and
    // texcoord1 (zw).
    let dir = scratch("run-b");
    let input = dir.join("b.pso");
    std::fs::write(
        &input,
        assemble(
            "ps_3_0\ndef c0, 1, 2, 3, 4\ndcl_texcoord0 v0.xy\ndcl_texcoord1 v0.zw\n\
             if b3\nmov r0, c0\nelse\nmov r0, -c0\nendif\nadd oC0, r0, v0\n",
        ),
    )
    .unwrap();
    let run = |b: &str, v: &str| -> String {
        let r = nvp4c(
            &["run", input.to_str().unwrap(), "--set", b, "--set", v],
            None,
        );
        assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
        text(&r.stdout)
    };
    let out = run("b3=1", "v0=0.5,0.5,0.5,0.5");
    assert!(out.contains("oC0  (1.5, 2.5, 3.5, 4.5)"), "{out}");
    let out = run("b3=0", "texcoord1=0,0,0.5,0.5");
    assert!(out.contains("oC0  (-1.0, -2.0, -2.5, -3.5)"), "{out}");
}

#[test]
fn run_rejects_a_register_the_shader_does_not_have_with_exit_2() {
    let r = nvp4c(
        &[
            "run",
            fixture("compiled/ps_math.ps_2_0.d3dbc").to_str().unwrap(),
            "--set",
            "v7=1,2,3,4",
        ],
        None,
    );
    assert_eq!(r.status.code(), Some(2));
    let err = text(&r.stderr);
    assert!(
        err.contains("`v7` is no register the shader reads"),
        "{err}"
    );
}

#[test]
fn link_checks_a_vertex_and_pixel_shader_pair() {
    let dir = scratch("link");
    let vs = dir.join("a.vso");
    let good = dir.join("good.pso");
    let bad = dir.join("bad.pso");
    std::fs::write(
        &vs,
        assemble("vs_1_1\ndcl_position v0\nmov oPos, v0\nmov oT0, v0\nmov oD0, v0\n"),
    )
    .unwrap();
    std::fs::write(&good, assemble("ps_1_1\ntex t0\nmul r0, t0, v0\n")).unwrap();
    // A ps_3_0 reading TEXCOORD1, which the vertex shader never writes.
    std::fs::write(
        &bad,
        assemble("ps_3_0\ndcl_texcoord0 v0\ndcl_texcoord1 v1\nadd oC0, v0, v1\n"),
    )
    .unwrap();
    let r = nvp4c(
        &["link", vs.to_str().unwrap(), good.to_str().unwrap()],
        None,
    );
    assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
    let r = nvp4c(
        &[
            "link",
            vs.to_str().unwrap(),
            bad.to_str().unwrap(),
            "--color",
            "never",
        ],
        None,
    );
    assert_eq!(r.status.code(), Some(1));
    let err = text(&r.stderr);
    assert!(err.contains("E1000"), "{err}");
    // The label is on the disassembled line that declares v1.
    assert!(err.contains("dcl_texcoord1 v1"), "{err}");
}

#[test]
fn reflect_names_the_constants_from_the_ctab() {
    let dir = scratch("reflect");
    let json = dir.join("r.json");
    let spv = dir.join("r.spv");
    let r = nvp4c(
        &[
            fixture("compiled/vs_skinning.vs_3_0.d3dbc")
                .to_str()
                .unwrap(),
            "-o",
            spv.to_str().unwrap(),
            "--reflect",
            json.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let names: Vec<&str> = v["d3d9"]["constant_table"]["constants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"bones"), "{names:?}");
    assert!(names.contains(&"viewProj"), "{names:?}");
    assert_eq!(v["d3d9"]["version"], "vs_3_0");
}

#[test]
fn hostile_bytes_get_a_coded_error_exit_1_and_no_output() {
    let dir = scratch("hostile");
    let good = std::fs::read(fixture("compiled/ps_texturing.ps_3_0.d3dbc")).unwrap();
    let mut cases: Vec<(String, Vec<u8>)> = vec![
        // Every truncation of a real shader (not on a word boundary too).
        ("version only".into(), good[..4].to_vec()),
        ("odd length".into(), good[..good.len() - 3].to_vec()),
        ("no end token".into(), good[..good.len() - 4].to_vec()),
        // A comment claiming more words than the file has.
        ("long comment".into(), {
            let mut b = 0xFFFF_0300u32.to_le_bytes().to_vec();
            b.extend(0x7FFF_FFFEu32.to_le_bytes());
            b
        }),
        // An unknown opcode.
        ("unknown opcode".into(), {
            let mut b = 0xFFFF_0200u32.to_le_bytes().to_vec();
            b.extend(0x0000_00F0u32.to_le_bytes());
            b.extend(0x0000_FFFFu32.to_le_bytes());
            b
        }),
    ];
    for cut in (8..good.len()).step_by(12) {
        cases.push((format!("cut at {cut}"), good[..cut].to_vec()));
    }
    for (what, bytes) in cases {
        let input = dir.join("in.pso");
        let out = dir.join("out.spv");
        let _ = std::fs::remove_file(&out);
        std::fs::write(&input, &bytes).unwrap();
        let r = nvp4c(
            &[
                input.to_str().unwrap(),
                "-o",
                out.to_str().unwrap(),
                "--message-format",
                "json",
            ],
            None,
        );
        assert_eq!(r.status.code(), Some(1), "{what}: {}", text(&r.stderr));
        assert!(!out.exists(), "{what}: half-written output");
        let err = text(&r.stderr);
        assert!(err.contains("\"code\":\"E3"), "{what}: {err}");
    }
}

#[test]
fn the_direct3d_9_options_reach_the_module() {
    let dir = scratch("options");
    let vs = dir.join("a.vso");
    std::fs::write(&vs, assemble("vs_2_0\ndcl_position v0\nmov oPos, v0\n")).unwrap();
    let spvasm = |extra: &[&str], input: &Path| -> String {
        let mut args = vec![input.to_str().unwrap(), "--emit", "spvasm", "-o", "-"];
        args.extend_from_slice(extra);
        let r = nvp4c(&args, None);
        assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
        text(&r.stdout)
    };
    // flip_y negates y: its sign bit flipped (an xor with 0x80000000).
    let plain = spvasm(&[], &vs);
    let flipped = spvasm(&["--d3d9-flip-y"], &vs);
    assert!(!plain.contains("OpConstant %uint 2147483648"), "{plain}");
    assert!(flipped.contains("OpConstant %uint 2147483648"), "{flipped}");
    // A ps_1_1 texture stage declared a cube map samples a cube.
    let ps = dir.join("b.pso");
    std::fs::write(&ps, assemble("ps_1_1\ntex t0\nmov r0, t0\n")).unwrap();
    assert!(!spvasm(&[], &ps).contains("OpTypeImage %float Cube"));
    assert!(spvasm(&["--d3d9-stage-types", "cube"], &ps).contains("OpTypeImage %float Cube"));
    // A bad stage type is a usage error.
    let r = nvp4c(
        &[ps.to_str().unwrap(), "--d3d9-stage-types", "1d", "-o", "-"],
        None,
    );
    assert_eq!(r.status.code(), Some(2));
}

#[test]
fn software_versions_compile_as_their_hardware_versions() {
    // vs_2_sw, vs_3_sw, ps_2_sw, ps_3_sw: version token minor 0xFF.
    for (asm, stage) in [
        (
            "vs_2_sw\ndcl_position v0\nmov oPos, v0\n",
            nvp4c::Stage::Vertex,
        ),
        (
            "vs_3_sw\ndcl_position v0\ndcl_position o0\nmov o0, v0\n",
            nvp4c::Stage::Vertex,
        ),
        ("ps_2_sw\ndcl t0\nmov oC0, t0\n", nvp4c::Stage::Fragment),
        (
            "ps_3_sw\ndcl_texcoord0 v0\nmov oC0, v0\n",
            nvp4c::Stage::Fragment,
        ),
    ] {
        let bytes = assemble(asm);
        assert_eq!(bytes[0], 0xFF, "{asm}");
        let c = nvp4c::compile_bytes(&bytes, &nvp4c::Options::default()).unwrap_or_else(|d| {
            panic!(
                "{asm}: {}",
                d.render("sw", &nvp4c::source_listing(&bytes), false)
            )
        });
        assert_eq!(c.stage, stage);
        assert!(nvp4c::source_listing(&bytes).starts_with(asm.lines().next().unwrap()));
    }
}

#[test]
fn asm_takes_direct3d_9_by_its_version_line_and_agal_by_its_header_or_flags() {
    let dir = scratch("asm-languages");
    // Direct3D 9: the first line that is not a comment is the version.
    let d3d9 = dir.join("shader.asm");
    let source = "// a comment first\n\nps_2_0\ndcl t0\nmov oC0, t0\n";
    std::fs::write(&d3d9, source).unwrap();
    let r = nvp4c(&["asm", d3d9.to_str().unwrap()], None);
    assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
    assert_eq!(
        std::fs::read(dir.join("shader.d3dbc")).unwrap(),
        assemble(source)
    );
    // AGAL: by its `// AGAL1 fragment` line, or by --agal-stage.
    let agal = dir.join("shader.agalasm");
    std::fs::write(&agal, "// AGAL1 fragment\nmov oc, v0\n").unwrap();
    let r = nvp4c(&["asm", agal.to_str().unwrap()], None);
    assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
    assert_eq!(std::fs::read(dir.join("shader.agal")).unwrap()[0], 0xa0);
    let r = nvp4c(
        &["asm", "-", "--agal-stage", "fragment", "-o", "-"],
        Some(b"mov oc, v0\n"),
    );
    assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
    assert_eq!(r.stdout[0], 0xa0);
    // Neither: a usage error naming both ways.
    let r = nvp4c(&["asm", "-", "-o", "-"], Some(b"mov r0, c0\n"));
    assert_eq!(r.status.code(), Some(2));
    let err = text(&r.stderr);
    assert!(
        err.contains("ps_2_0") && err.contains("--agal-stage"),
        "{err}"
    );
}

#[test]
fn asm_reports_a_line_it_cannot_encode_as_e3200_and_writes_nothing() {
    let dir = scratch("asm-e3200");
    let input = dir.join("bad.asm");
    let out = dir.join("bad.d3dbc");
    std::fs::write(&input, "ps_2_0\n\nmovv oC0, c0\n").unwrap();
    let r = nvp4c(
        &[
            "asm",
            input.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--message-format",
            "json",
        ],
        None,
    );
    assert_eq!(r.status.code(), Some(1));
    assert!(!out.exists());
    let records: Vec<serde_json::Value> = text(&r.stderr)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let e = records
        .iter()
        .find(|v| v["code"] == "E3200")
        .unwrap_or_else(|| panic!("{records:?}"));
    // On the line of the text, not of a disassembly.
    assert_eq!(e["spans"][0]["line_start"], 3, "{e}");
}

#[test]
fn asm_checks_the_shader_and_refuses_one_with_errors() {
    let dir = scratch("asm-check");
    let out = dir.join("bad.vso");
    // lrp needs vs_2_0: the bytes encode, but the checker refuses them.
    let r = nvp4c(
        &["asm", "-", "-o", out.to_str().unwrap(), "--color", "never"],
        Some(b"vs_1_1\nlrp r0, r1, r2, r3\n"),
    );
    assert_eq!(r.status.code(), Some(1));
    assert!(
        text(&r.stderr).contains("error[E3100]"),
        "{}",
        text(&r.stderr)
    );
    assert!(!out.exists());
}

#[test]
fn disasm_serves_agal_and_direct3d_9_by_their_bytes() {
    let dir = scratch("disasm-both");
    let agal = dir.join("a.bin");
    let d3d9 = dir.join("b.bin");
    std::fs::write(
        &agal,
        nvp4c::front::agal::assemble("mov oc, v0", nvp4c::Stage::Fragment, 1)
            .unwrap()
            .bytes,
    )
    .unwrap();
    std::fs::write(&d3d9, assemble("ps_2_0\nmov oC0, c0\n")).unwrap();
    let r = nvp4c(&["disasm", agal.to_str().unwrap()], None);
    assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
    assert!(text(&r.stdout).ends_with("mov oc, v0\n"));
    let r = nvp4c(&["disasm", d3d9.to_str().unwrap()], None);
    assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
    assert_eq!(text(&r.stdout), "ps_2_0\nmov oC0, c0\n");
    // Text is no bytecode: the message says what each format begins with.
    let r = nvp4c(&["disasm", "-"], Some(b"!!NVfp4.0\nEND\n"));
    assert_eq!(r.status.code(), Some(2));
    let err = text(&r.stderr);
    assert!(err.contains("0xa0") && err.contains("0xFFFEmmnn"), "{err}");
}

#[test]
fn the_direct3d_9_flags_reach_batch_check_and_link() {
    let dir = scratch("shared-options");
    let vs = dir.join("a.vso");
    let ps = dir.join("b.pso");
    std::fs::write(
        &vs,
        assemble("vs_2_0\ndcl_position v0\nmov oPos, v0\nmov oT0, v0\n"),
    )
    .unwrap();
    std::fs::write(&ps, assemble("ps_2_0\ndcl t0\nmov oC0, t0\n")).unwrap();
    let flipped = "OpConstant %uint 2147483648";
    // Batch mode: both inputs, one flag.
    let out_dir = dir.join("batch");
    let r = nvp4c(
        &[
            vs.to_str().unwrap(),
            ps.to_str().unwrap(),
            "--out-dir",
            out_dir.to_str().unwrap(),
            "--emit",
            "spvasm",
            "--d3d9-flip-y",
        ],
        None,
    );
    assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
    let vs_text = std::fs::read_to_string(out_dir.join("a.vso.spvasm")).unwrap();
    assert!(vs_text.contains(flipped), "{vs_text}");
    assert!(out_dir.join("b.pso.spvasm").exists());
    // --check parses them too: a bad value is a usage error, a good one
    // checks.
    let r = nvp4c(
        &["--check", vs.to_str().unwrap(), "--d3d9-stage-types", "1d"],
        None,
    );
    assert_eq!(r.status.code(), Some(2));
    let r = nvp4c(
        &[
            "--check",
            vs.to_str().unwrap(),
            ps.to_str().unwrap(),
            "--d3d9-flat-shading",
        ],
        None,
    );
    assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
    // link: the flag changes the vertex shader's module and not the pixel
    // shader's.
    let link = |extra: &[&str], into: &Path| -> (Vec<u8>, Vec<u8>) {
        let mut args = vec![
            "link",
            vs.to_str().unwrap(),
            ps.to_str().unwrap(),
            "--out-dir",
            into.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let r = nvp4c(&args, None);
        assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
        (
            std::fs::read(into.join("a.vso.spv")).unwrap(),
            std::fs::read(into.join("b.pso.spv")).unwrap(),
        )
    };
    let plain = link(&[], &dir.join("link-plain"));
    let with_flag = link(&["--d3d9-flip-y"], &dir.join("link-flipped"));
    assert_ne!(plain.0, with_flag.0);
    assert_eq!(plain.1, with_flag.1);
}

#[test]
fn warning_control_applies_to_direct3d_9_warnings() {
    let dir = scratch("warnings");
    let ps = dir.join("w.pso");
    // W3002: ps_2_0 writes oC# with mov only.
    std::fs::write(&ps, assemble("ps_2_0\nadd oC0, c0, c1\n")).unwrap();
    let check = |extra: &[&str]| {
        let mut args = vec!["--check", ps.to_str().unwrap(), "--color", "never"];
        args.extend_from_slice(extra);
        let r = nvp4c(&args, None);
        (r.status.code(), text(&r.stderr))
    };
    let (code, err) = check(&[]);
    assert_eq!(code, Some(0));
    assert!(err.contains("warning[W3002]"), "{err}");
    let (code, err) = check(&["-A", "W3002"]);
    assert_eq!(code, Some(0));
    assert!(!err.contains("W3002"), "{err}");
    let (code, err) = check(&["-D", "W3002"]);
    assert_eq!(code, Some(1));
    assert!(err.contains("error[W3002]"), "{err}");
    let (code, _) = check(&["--deny-warnings"]);
    assert_eq!(code, Some(1));
}

#[test]
fn the_direct3d_9_reflection_is_typed_and_loads_back_from_json() {
    let bytes = std::fs::read(fixture("compiled/vs_skinning.vs_3_0.d3dbc")).unwrap();
    let mut options = nvp4c::Options::default();
    // Under another binding layout the blocks keep their D3D9 names.
    options.layout.vertex.uniform_binding = 8;
    let c = nvp4c::compile_bytes(&bytes, &options).unwrap();
    let r = &c.reflection;
    let blocks: Vec<(&str, u32)> = r
        .uniform_blocks
        .iter()
        .map(|b| (b.binding_name.as_str(), b.binding))
        .collect();
    assert!(blocks.contains(&("c", 8)), "{blocks:?}");
    let d3d9 = r.d3d9.as_ref().unwrap();
    let position = d3d9
        .registers
        .iter()
        .find(|reg| reg.built_in == Some(nvp4c::reflect::BuiltIn::Position))
        .expect("the position output");
    assert_eq!(
        position.direction,
        nvp4c::front::d3d9::reflect::Direction::Output
    );
    let json = serde_json::to_string(r).unwrap();
    let back: nvp4c::reflect::Reflection = serde_json::from_str(&json).unwrap();
    assert_eq!(&back, r);
    // The JSON keeps its spelling: "output", "Position", "2d", "row_major".
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert!(v["d3d9"]["registers"]
        .as_array()
        .unwrap()
        .iter()
        .any(|reg| reg["direction"] == "output" && reg["built_in"] == "Position"));
}

#[test]
fn bytecode_gets_the_option_check_and_debug_information() {
    let bytes = assemble("ps_2_0\ndef c1, 1, 0, 0, 1\nmov oC0, c1\n");
    // E0005: options that cannot be satisfied, as for text.
    let mut bad = nvp4c::Options::default();
    bad.layout.fragment.push_constant_offset = 3;
    let err = nvp4c::compile_bytes(&bytes, &bad).unwrap_err();
    assert_eq!(err.iter().next().unwrap().code, "E0005");
    // -g: the listing is the module's source text.
    let mut options = nvp4c::Options::default();
    options.debug_info = true;
    let c = nvp4c::compile_bytes(&bytes, &options).unwrap();
    let spvasm = nvp4c::spirv::disassemble(&c.spirv).unwrap();
    assert!(spvasm.contains("OpSource"), "{spvasm}");
    assert!(spvasm.contains("mov oC0, c1"), "{spvasm}");
}

#[test]
fn explain_shows_what_nvp4c_reports_for_each_direct3d_9_example() {
    // Every D3D9 code whose docs/diagnostics.md row has a whole example
    // (assembly or hex tokens) shows the report of that example, rendered
    // against the shader's disassembly (E3200: against the assembly text).
    for c in nvp4c::codes::CODES
        .iter()
        .filter(|c| c.code.starts_with("E3") || c.code.starts_with("W3"))
        .filter(|c| c.code != "E3000")
    {
        let r = nvp4c(&["--explain", c.code], None);
        assert_eq!(r.status.code(), Some(0), "{}", c.code);
        let out = text(&r.stdout);
        let kind = if c.code.starts_with('E') {
            "error"
        } else {
            "warning"
        };
        assert!(
            out.contains("What nvp4c reports for it:")
                && out.contains(&format!("{kind}[{}]", c.code)),
            "{}: {out}",
            c.code
        );
    }
    let out = text(&nvp4c(&["--explain", "E3100"], None).stdout);
    assert!(out.contains("3 │ lrp r0, v0, c0, c1"), "{out}");
}

#[test]
fn a_relatively_addressed_constant_file_does_not_fit_in_push_constants() {
    // vs_2_0's whole c# file (256 × 16 bytes) is what c1[a0.x] can read.
    let bytes = assemble("vs_2_0\ndcl_position v0\nmova a0.x, c0.x\nmov oPos, c1[a0.x]\n");
    let mut options = nvp4c::Options::default();
    options.layout.vertex.push_constants = nvp4c::layout::PushConstants::Fit;
    let c = nvp4c::compile_bytes(&bytes, &options).unwrap();
    assert!(c.reflection.push_constants.is_none());
    assert_eq!(c.reflection.uniform_blocks[0].binding_name, "c");
    assert_eq!(c.reflection.uniform_blocks[0].size, 4096);
    // Forced, it is past maxPushConstantsSize.
    options.layout.vertex.push_constants = nvp4c::layout::PushConstants::Env;
    let err = nvp4c::compile_bytes(&bytes, &options).unwrap_err();
    assert_eq!(err.iter().next().unwrap().code, "E0820");
}
