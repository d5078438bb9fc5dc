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
