//! The AGAL front end without a device: ruffle's ten programs compile,
//! validate and reflect; the assembler gives AGALMiniAssembler's bytes for
//! every fixture (tests/agal/asm/, made with the real assembler by
//! scripts/agal-fixtures.sh); disassembling and reassembling is byte-exact.

use std::path::{Path, PathBuf};

use nvp4c::front::agal;
use nvp4c::{Options, Stage};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn files(dir: &str, ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    v.sort();
    v
}

#[test]
fn ruffles_ten_programs_compile_validate_and_reflect() {
    let programs = files("tests/agal/ruffle", "agal");
    assert_eq!(programs.len(), 10);
    let mut failures = String::new();
    for path in programs {
        let bytes = std::fs::read(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let compiled = match nvp4c::compile_bytes(&bytes, &Options::default()) {
            Ok(c) => c,
            Err(d) => {
                failures.push_str(&d.render(&name, &nvp4c::source_listing(&bytes), false));
                continue;
            }
        };
        let stage = if name.contains("fragment") {
            Stage::Fragment
        } else {
            Stage::Vertex
        };
        assert_eq!(compiled.stage, stage, "{name}");
        assert_eq!(compiled.reflection.stage, stage, "{name}");
    }
    assert!(failures.is_empty(), "{failures}");
}

/// (stage, version) from a fixture's first line.
fn target(text: &str) -> (Stage, u32) {
    agal::header_directive(text).expect("fixtures begin with `// AGAL<n> <stage>`")
}

#[test]
fn the_assembler_gives_agalminiassemblers_bytes_for_every_fixture() {
    let fixtures = files("tests/agal/asm", "agalasm");
    assert!(fixtures.len() >= 8);
    for path in fixtures {
        let text = std::fs::read_to_string(&path).unwrap();
        let (stage, version) = target(&text);
        let expected = std::fs::read(path.with_extension("agal")).unwrap();
        let ours = agal::assemble(&text, stage, version)
            .unwrap_or_else(|d| panic!("{}", d.render(&path.display().to_string(), &text, false)));
        assert_eq!(ours.bytes, expected, "{}", path.display());
    }
}

#[test]
fn ruffles_sources_assemble_to_ruffles_bytes() {
    for path in files("tests/agal/ruffle", "source") {
        let text = std::fs::read_to_string(&path).unwrap();
        let expected = std::fs::read(path.with_extension("agal")).unwrap();
        let stage = if path.to_string_lossy().contains("fragment") {
            Stage::Fragment
        } else {
            Stage::Vertex
        };
        let ours = agal::assemble(&text, stage, u32::from(expected[1])).unwrap();
        assert_eq!(ours.bytes, expected, "{}", path.display());
    }
}

/// Disassembles `bytes` and assembles the listing with the header's stage
/// and version (taken from the listing's own first line).
fn round_trip(bytes: &[u8]) -> Vec<u8> {
    let listing = agal::disasm::disassemble(bytes);
    let (stage, version) = target(&listing.text);
    agal::assemble(&listing.text, stage, version)
        .unwrap_or_else(|d| panic!("{}", d.render("listing", &listing.text, false)))
        .bytes
}

#[test]
fn disassembling_and_reassembling_every_fixture_is_byte_exact() {
    let mut all = files("tests/agal/asm", "agal");
    all.extend(files("tests/agal/ruffle", "agal"));
    assert!(all.len() >= 18);
    for path in all {
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(round_trip(&bytes), bytes, "{}", path.display());
        let (_, diags) = agal::disassemble_checked(&bytes);
        assert!(
            !diags.iter().any(|d| d.code == "W2011"),
            "{}",
            path.display()
        );
    }
}

#[test]
fn the_opcode_fixtures_compile_from_bytes_and_from_text_to_the_same_module() {
    for path in files("tests/agal/asm", "agalasm") {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !name.starts_with("ops_") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let bytes = std::fs::read(path.with_extension("agal")).unwrap();
        let from_text = nvp4c::compile(&text, &Options::default())
            .unwrap_or_else(|d| panic!("{}", d.render(&name, &text, false)));
        let from_bytes = nvp4c::compile_bytes(&bytes, &Options::default()).unwrap_or_else(|d| {
            panic!("{}", d.render(&name, &nvp4c::source_listing(&bytes), false))
        });
        assert_eq!(from_text.spirv, from_bytes.spirv, "{name}");
    }
}

/// 3000 random lines (scripts/agal/random_lines.py) and what the real
/// AGALMiniAssembler made of each (tests/agal/random-lines.json): where it
/// gave bytes, nvp4c's assembler gives the same bytes; where it refused the
/// line, nvp4c refuses it too (its assembler or its checker, apart from
/// the whole-program rules a single line cannot meet), except for what
/// Adobe's v3 original accepts and openfl's port does not (fs8-fs15).
#[test]
fn random_lines_assemble_as_agalminiassembler_assembles_them() {
    let text = std::fs::read_to_string(root().join("tests/agal/random-lines.json")).unwrap();
    let cases: Vec<serde_json::Value> = serde_json::from_str(&text).unwrap();
    assert!(cases.len() >= 3000);
    let whole_program = ["E2050", "E2051", "E2052", "E2061", "E2063"];
    let mut mismatches = Vec::new();
    let (mut same_bytes, mut both_refuse) = (0, 0);
    for case in &cases {
        let line = case["text"].as_str().unwrap();
        let stage = if case["stage"] == "vertex" {
            Stage::Vertex
        } else {
            Stage::Fragment
        };
        let version = case["version"].as_u64().unwrap() as u32;
        let ours = agal::assemble(line, stage, version);
        match (&case["bytes"], &ours) {
            (serde_json::Value::String(hex), Ok(a)) => {
                let theirs: Vec<u8> = (0..hex.len())
                    .step_by(2)
                    .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
                    .collect();
                if a.bytes == theirs {
                    same_bytes += 1;
                } else {
                    mismatches.push(format!("{line:?}: bytes differ"));
                }
            }
            (serde_json::Value::String(_), Err(d)) => mismatches.push(format!(
                "{line:?}: refused ({})",
                d.iter().next().unwrap().message
            )),
            (_, Err(_)) => both_refuse += 1,
            (_, Ok(_)) => {
                let mut options = Options::default();
                options.agal.assembly = Some((stage, version));
                let refused = match nvp4c::check(line, &options) {
                    Ok(_) => false,
                    Err(d) => d
                        .iter()
                        .any(|d| d.is_error() && !whole_program.contains(&d.code)),
                };
                let extension =
                    (1..=15).any(|n| line.contains(&format!("fs{}", n + 7))) && version >= 2;
                if refused || extension {
                    both_refuse += 1;
                } else {
                    mismatches.push(format!(
                        "{line:?}: AGALMiniAssembler says {}",
                        case["error"]
                    ));
                }
            }
        }
    }
    assert!(
        mismatches.is_empty(),
        "{} mismatches:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
    assert!(
        same_bytes > 1000 && both_refuse > 1000,
        "{same_bytes} {both_refuse}"
    );
}

#[test]
fn too_many_assembly_lines_is_e2104() {
    let text = format!("// AGAL3 fragment\n{}", "mov oc, v0\n".repeat(4097));
    let errors = nvp4c::compile(&text, &Options::default()).unwrap_err();
    let codes: Vec<_> = errors
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.code)
        .collect();
    assert_eq!(
        codes,
        ["E2104"],
        "{}",
        errors.render("big.agalasm", &text, false)
    );
}

#[test]
fn disasm_flags_lines_that_do_not_assemble_back() {
    // `mov oc, v0` with a sampler field's type nibble in source 2 (which
    // `mov` does not use): the listing shows `mov oc, v0`, whose bytes
    // differ, so W2011 says so (next to the checker's E2013).
    let mut bytes = agal::assemble("mov oc, v0", Stage::Fragment, 1)
        .unwrap()
        .bytes;
    bytes[7 + 16 + 4] = 5;
    let (listing, diags) = agal::disassemble_checked(&bytes);
    assert!(listing.text.ends_with("mov oc, v0\n"));
    let codes: Vec<_> = diags.iter().map(|d| d.code).collect();
    assert_eq!(
        codes,
        ["E2013", "W2011"],
        "{}",
        diags.render("x.agal", &listing.text, false)
    );
    // A valid program's listing has none.
    let bytes = std::fs::read(root().join("tests/agal/ruffle/raytrace_fragment.agal")).unwrap();
    assert!(agal::disassemble_checked(&bytes).1.is_empty());
}

// ---------------------------------------------------------------------------
// The command line with AGAL.

fn nvp4c(args: &[&str], stdin: &[u8]) -> std::process::Output {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_nvp4c"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("nvp4c runs");
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("nvp4c-agal-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn ruffle(name: &str) -> PathBuf {
    root().join("tests/agal/ruffle").join(name)
}

#[test]
fn the_cli_compiles_agal_bytecode_recognised_by_its_magic_byte() {
    let dir = scratch("bytecode");
    // Any extension: the content decides.
    let input = dir.join("shader.bin");
    std::fs::copy(ruffle("relative_vertex.agal"), &input).unwrap();
    let out = nvp4c(
        &[
            input.to_str().unwrap(),
            "--reflect",
            dir.join("r.json").to_str().unwrap(),
        ],
        b"",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let spirv = std::fs::read(dir.join("shader.spv")).unwrap();
    assert_eq!(&spirv[..4], &0x0723_0203u32.to_le_bytes());
    let reflection: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("r.json")).unwrap()).unwrap();
    assert_eq!(reflection["stage"], "vertex");
    // Diagnostics point into the disassembly, with the byte offset.
    let mut bad = std::fs::read(ruffle("relative_vertex.agal")).unwrap();
    bad[7 + 24] = 0x30;
    let out = nvp4c(
        &[
            "-",
            "-o",
            dir.join("x.spv").to_str().unwrap(),
            "--color",
            "never",
        ],
        &bad,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("error[E2010]") && stderr.contains("<stdin>:3:1"),
        "{stderr}"
    );
    assert!(stderr.contains("at byte 31 (token 1)"), "{stderr}");
    assert!(!dir.join("x.spv").exists());
    // The JSON form has the same spans.
    let out = nvp4c(&["-", "--message-format", "json"], &bad);
    let line = String::from_utf8_lossy(&out.stderr)
        .lines()
        .next()
        .unwrap()
        .to_string();
    let json: serde_json::Value = serde_json::from_str(&line).unwrap();
    assert_eq!(json["code"], "E2010");
}

#[test]
fn the_cli_compiles_agal_assembly_given_its_stage() {
    let dir = scratch("text");
    let input = dir.join("shader.txt");
    std::fs::write(&input, "m44 op, va0, vc0\nmov v0, va1\n").unwrap();
    // Without a stage, the text is not AGAL (nor NV assembly).
    let out = nvp4c(&[input.to_str().unwrap(), "--color", "never"], b"");
    assert_eq!(out.status.code(), Some(1));
    let out = nvp4c(
        &[
            input.to_str().unwrap(),
            "--agal-stage",
            "vertex",
            "--agal-version",
            "2",
        ],
        b"",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(dir.join("shader.spv").exists());
    // --agal-version alone is a usage error.
    let out = nvp4c(&[input.to_str().unwrap(), "--agal-version", "2"], b"");
    assert_eq!(out.status.code(), Some(2));
    // Or the first line names them.
    let out = nvp4c(&["-", "-o", "-"], b"// AGAL1 fragment\nmov oc, v0\n");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(&out.stdout[..4], &0x0723_0203u32.to_le_bytes());
}

#[test]
fn disasm_and_asm_round_trip_on_the_command_line() {
    let dir = scratch("disasm");
    let listing = dir.join("raytrace.agalasm");
    let out = nvp4c(
        &[
            "disasm",
            ruffle("raytrace_fragment.agal").to_str().unwrap(),
            "-o",
            listing.to_str().unwrap(),
        ],
        b"",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&listing).unwrap();
    assert!(text.starts_with("// AGAL2 fragment program, 833 tokens\n"));
    // `asm` takes the stage and version from that first line.
    let out = nvp4c(&["asm", listing.to_str().unwrap()], b"");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read(dir.join("raytrace.agal")).unwrap(),
        std::fs::read(ruffle("raytrace_fragment.agal")).unwrap()
    );
    // disasm of something that is not bytecode is a usage error.
    let out = nvp4c(&["disasm", "-"], b"!!NVfp4.0\nEND\n");
    assert_eq!(out.status.code(), Some(2));
    // asm refuses what the checker refuses, and writes nothing.
    let out = nvp4c(
        &[
            "asm",
            "-",
            "--agal-stage",
            "vertex",
            "-o",
            dir.join("bad.agal").to_str().unwrap(),
        ],
        b"mov vt0, va0\n",
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("E2061"));
    assert!(!dir.join("bad.agal").exists());
}

#[test]
fn run_takes_and_prints_agal_register_names() {
    let out = nvp4c(
        &[
            "run",
            ruffle("relative_vertex.agal").to_str().unwrap(),
            "--set",
            "va0=1.7,0,0,0",
            "--set",
            "va1=0,2.2,0,0",
            "--set",
            "vc6=10,20,30,40",
            "--set",
            "vc8=1,1,1,1",
        ],
        b"",
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // vc[1.7 + 5] = vc6 plus vc[2.2 + 6] = vc8.
    assert!(stdout.contains("op  (11.0, 21.0, 31.0, 41.0)"), "{stdout}");
}

#[test]
fn link_checks_an_agal_pair() {
    let dir = scratch("link");
    let vs = dir.join("a.vs.agal");
    let fs = dir.join("a.fs.agal");
    std::fs::write(
        &vs,
        agal::assemble("m44 op, va0, vc0\nmov v0, va1", Stage::Vertex, 1)
            .unwrap()
            .bytes,
    )
    .unwrap();
    std::fs::write(
        &fs,
        agal::assemble("add oc, v0, v1", Stage::Fragment, 1)
            .unwrap()
            .bytes,
    )
    .unwrap();
    let out = nvp4c(
        &[
            "link",
            vs.to_str().unwrap(),
            fs.to_str().unwrap(),
            "--color",
            "never",
        ],
        b"",
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    // v1 is read but never written; the label is on the fragment program's listing.
    assert!(
        stderr.contains("error[E1000]") && stderr.contains("`v1`"),
        "{stderr}"
    );
    std::fs::write(
        &fs,
        agal::assemble("add oc, v0, fc0", Stage::Fragment, 1)
            .unwrap()
            .bytes,
    )
    .unwrap();
    let out = nvp4c(&["link", vs.to_str().unwrap(), fs.to_str().unwrap()], b"");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn help_shows_agal_use() {
    let out = nvp4c(&["--help"], b"");
    let help = String::from_utf8_lossy(&out.stdout);
    for want in [
        "AGAL",
        "--agal-stage",
        "--agal-version",
        "--agal-flip-y",
        "disasm",
        "asm",
    ] {
        assert!(help.contains(want), "--help lacks {want}:\n{help}");
    }
}

#[test]
fn the_language_server_reports_agal_assembly_diagnostics() {
    use lsp_server::{Connection, Message, Notification, Request, RequestId};
    use serde_json::json;
    let (server, client) = Connection::memory();
    let thread = std::thread::spawn(move || nvp4c::lsp::serve(&server));
    let send = |m: Message| client.sender.send(m).unwrap();
    send(
        Request::new(
            RequestId::from(1),
            "initialize".into(),
            json!({"capabilities": {}}),
        )
        .into(),
    );
    let Ok(Message::Response(_)) = client.receiver.recv() else {
        panic!()
    };
    send(Notification::new("initialized".into(), json!({})).into());
    // The first line makes the document AGAL assembly; `ddx` needs AGAL2.
    let text = "// AGAL1 fragment\nmov ft0, v0\nddx ft1, ft0\nadd oc, ft0, ft1\n";
    let uri = "file:///work/shader.agalasm";
    let doc =
        json!({"textDocument": {"uri": uri, "languageId": "agal", "version": 1, "text": text}});
    send(Notification::new("textDocument/didOpen".into(), doc).into());
    let Ok(Message::Notification(n)) = client.receiver.recv() else {
        panic!()
    };
    assert_eq!(n.method, "textDocument/publishDiagnostics");
    let d = &n.params["diagnostics"][0];
    assert_eq!(d["code"], "E2011");
    assert_eq!(d["range"]["start"], json!({"line": 2, "character": 0}));
    // Requests on it answer (with nothing to say), the server stays up.
    let at = json!({"textDocument": {"uri": uri}, "position": {"line": 1, "character": 1}});
    send(Request::new(RequestId::from(2), "textDocument/hover".into(), at).into());
    let Ok(Message::Response(r)) = client.receiver.recv() else {
        panic!()
    };
    assert_eq!(r.id, RequestId::from(2));
    send(Request::new(RequestId::from(3), "shutdown".into(), ()).into());
    let Ok(Message::Response(_)) = client.receiver.recv() else {
        panic!()
    };
    send(Notification::new("exit".into(), ()).into());
    thread.join().unwrap().unwrap();
}

#[test]
fn warning_flags_apply_to_agal_warnings_as_to_every_other() {
    // W2060: a temporary component read before it is written.
    let program = b"// AGAL1 fragment\nmov ft0.xy, v0\nmov oc, ft0\n";
    let out = nvp4c(&["-", "-o", "-", "--color", "never"], program);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && stderr.contains("warning[W2060]"),
        "{stderr}"
    );
    let out = nvp4c(&["-", "-o", "-", "-A", "W2060"], program);
    assert!(out.status.success() && out.stderr.is_empty(), "{:?}", out);
    let out = nvp4c(
        &["-", "-o", "-", "-D", "W2060", "--color", "never"],
        program,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("error[W2060]") && out.stdout.is_empty(),
        "{stderr}"
    );
}

#[test]
fn batch_mode_compiles_agal_bytecode_beside_assembly_programs() {
    let dir = scratch("batch");
    std::fs::copy(ruffle("relative_vertex.agal"), dir.join("a.agal")).unwrap();
    std::fs::write(
        dir.join("b.fp"),
        "!!NVfp4.0\nMOV result.color, fragment.color;\nEND\n",
    )
    .unwrap();
    let out_dir = dir.join("out");
    let out = nvp4c(
        &[
            dir.join("a.agal").to_str().unwrap(),
            dir.join("b.fp").to_str().unwrap(),
            "--out-dir",
            out_dir.to_str().unwrap(),
        ],
        b"",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for name in ["a.agal.spv", "b.fp.spv"] {
        let spirv = std::fs::read(out_dir.join(name)).unwrap();
        assert_eq!(&spirv[..4], &0x0723_0203u32.to_le_bytes(), "{name}");
    }
}

#[test]
fn disasm_refuses_to_write_its_listing_over_its_input() {
    let dir = scratch("disasm-over-input");
    let input = dir.join("x.agal");
    std::fs::copy(ruffle("relative_vertex.agal"), &input).unwrap();
    let before = std::fs::read(&input).unwrap();
    let out = nvp4c(
        &[
            "disasm",
            input.to_str().unwrap(),
            "-o",
            input.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(std::fs::read(&input).unwrap(), before);
}
