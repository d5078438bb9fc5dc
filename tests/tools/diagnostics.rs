//! Every diagnostic code: a program that triggers it (tests/diagnostics/),
//! the exact codes it yields (one mistake, one diagnostic), and a snapshot
//! of the rendered report. Also keeps the code registry (src/codes.rs),
//! docs/diagnostics.md and the sources in step.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn cases() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join("tests/diagnostics"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    v.sort();
    v
}

/// The bytes of a case file: Direct3D 9 shaders are kept as assembly text
/// (`.asm`, nvp4c's assembler) or as hex tokens (`.hex`, for streams no
/// assembler writes); every other file is the program itself. An `.asm`
/// the assembler refuses (E3200) is its diagnostic instead.
fn case_bytes(path: &Path) -> Result<Vec<u8>, (nvp4c::Diagnostics, String)> {
    let raw = std::fs::read(path).unwrap();
    Ok(match path.extension().and_then(|e| e.to_str()) {
        Some("asm") => {
            let text = String::from_utf8_lossy(&raw).into_owned();
            match nvp4c::front::d3d9::assemble::assemble_bytes(&text) {
                Ok(bytes) => bytes,
                Err(e) => return Err((nvp4c::Diagnostics(vec![e.diagnostic()]), text)),
            }
        }
        Some("hex") => String::from_utf8_lossy(&raw)
            .lines()
            .map(|l| l.split("//").next().unwrap_or(""))
            .flat_map(|l| l.split_whitespace().map(str::to_string).collect::<Vec<_>>())
            .flat_map(|w| u32::from_str_radix(&w, 16).unwrap().to_le_bytes())
            .collect(),
        _ => raw,
    })
}

/// The options a test program asks for in `# options: KEY=VALUE ...`
/// comment lines, for codes that only other options than the defaults can
/// trigger. The keys are the CLI's flags: `device-limits` (a JSON object,
/// no spaces), `descriptor-set`, `push-constants` (`local`, `env`, `all`),
/// `user-clip-planes`, `push-constant-offset`, `no-geometry-point-size`
/// (`true`), `transform-feedback` (`true`).
fn options_for(bytes: &[u8]) -> nvp4c::Options {
    let mut options = nvp4c::Options::default();
    let text = String::from_utf8_lossy(bytes);
    for line in text.lines() {
        let Some(settings) = line.trim().strip_prefix("# options:") else {
            continue;
        };
        for setting in settings.split_whitespace() {
            let (key, value) = setting.split_once('=').expect("KEY=VALUE");
            match key {
                "device-limits" => {
                    options.device_limits =
                        nvp4c::device_limits::DeviceLimits::from_json(value).unwrap()
                }
                "target-env" => {
                    options.target_env = match value {
                        "vulkan1.0" => nvp4c::TargetEnv::Vulkan1_0,
                        "vulkan1.1" => nvp4c::TargetEnv::Vulkan1_1,
                        "vulkan1.2" => nvp4c::TargetEnv::Vulkan1_2,
                        "vulkan1.3" => nvp4c::TargetEnv::Vulkan1_3,
                        other => panic!("target-env={other}"),
                    }
                }
                "descriptor-set" => options.descriptor_set = Some(value.parse().unwrap()),
                "user-clip-planes" => options.user_clip_planes = value.parse().unwrap(),
                "transform-feedback" => options.transform_feedback = value == "true",
                "no-geometry-point-size" => {
                    options.shader_tessellation_and_geometry_point_size = value != "true"
                }
                "push-constants" => {
                    let policy = match value {
                        "local" => nvp4c::layout::PushConstants::Local,
                        "env" => nvp4c::layout::PushConstants::Env,
                        "all" => nvp4c::layout::PushConstants::EnvAndLocal,
                        other => panic!("push-constants={other}"),
                    };
                    for l in options.layout.all_mut() {
                        l.push_constants = policy;
                    }
                }
                "push-constant-offset" => {
                    for l in options.layout.all_mut() {
                        l.push_constant_offset = value.parse().unwrap();
                    }
                }
                other => panic!("unknown test option `{other}`"),
            }
        }
    }
    options
}

/// Compiles and returns (error codes, warning codes, rendered report),
/// rendered against the text the diagnostics point into: text as it is,
/// bytecode (AGAL, Direct3D 9) as its disassembly.
fn run(name: &str, bytes: &[u8]) -> (Vec<&'static str>, Vec<&'static str>, String) {
    let shown = nvp4c::source_listing(bytes).into_owned();
    let diags = match nvp4c::compile_bytes(bytes, &options_for(bytes)) {
        Ok(c) => c.warnings,
        Err(d) => d,
    };
    codes_and_report(name, diags, &shown)
}

fn codes_and_report(
    name: &str,
    diags: nvp4c::Diagnostics,
    shown: &str,
) -> (Vec<&'static str>, Vec<&'static str>, String) {
    let errors = diags
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.code)
        .collect();
    let warnings = diags
        .iter()
        .filter(|d| !d.is_error())
        .map(|d| d.code)
        .collect();
    (errors, warnings, diags.render(name, shown, false))
}

#[test]
fn each_program_yields_exactly_its_code_and_the_report_matches_its_snapshot() {
    let mut failures = Vec::new();
    for path in cases() {
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let code = file.split('-').next().unwrap().to_string();
        let (errors, warnings, report) = match case_bytes(&path) {
            Ok(bytes) => run(&file, &bytes),
            Err((diags, text)) => codes_and_report(&file, diags, &text),
        };
        let ok = if code.starts_with('E') {
            errors.iter().all(|c| *c == code) && !errors.is_empty()
        } else {
            errors.is_empty() && warnings.contains(&code.as_str())
        };
        if !ok {
            failures.push(format!(
                "{file}: errors {errors:?}, warnings {warnings:?}\n{report}"
            ));
            continue;
        }
        let stem = file.rsplit_once('.').unwrap().0.to_string();
        insta::assert_snapshot!(stem, report);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn too_many_instructions_is_e0800() {
    let src = format!(
        "!!NVfp4.0\nTEMP R0;\nMOV R0, fragment.color;\n{}MOV result.color, R0;\nEND\n",
        "ADD R0, R0, 1;\n".repeat(65536)
    );
    let (errors, _, report) = run("E0800.fp", src.as_bytes());
    assert_eq!(errors, ["E0800"], "{report}");
}

#[test]
fn a_source_over_max_source_bytes_is_e0004() {
    let mut options = nvp4c::Options::default();
    options.max_source_bytes = 16;
    let err = nvp4c::compile(
        "!!NVfp4.0\nMOV result.color, fragment.color;\nEND\n",
        &options,
    )
    .unwrap_err();
    assert_eq!(err.iter().map(|d| d.code).collect::<Vec<_>>(), ["E0004"]);
}

#[test]
fn too_many_parameters_is_e0802() {
    let ones = vec!["1"; 70000].join(", ");
    let src =
        format!("!!NVfp4.0\nPARAM big[70000] = {{ {ones} }};\nMOV result.color, big[0];\nEND\n");
    let (errors, _, report) = run("E0802.fp", src.as_bytes());
    assert_eq!(errors, ["E0802"], "{report}");
}

#[test]
fn every_code_is_registered_documented_and_tested() {
    let registry: BTreeSet<&str> = nvp4c::codes::CODES.iter().map(|c| c.code).collect();
    // Codes the sources can emit.
    let mut emitted = BTreeSet::new();
    let mut stack = vec![root().join("src")];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") && !p.ends_with("codes.rs") {
                let full = std::fs::read_to_string(&p).unwrap();
                // Doc comments may show example codes.
                let text: String = full
                    .lines()
                    .filter(|l| !l.trim_start().starts_with("//"))
                    .collect::<Vec<_>>()
                    .join("\n");
                let bytes = text.as_bytes();
                for (i, _) in text.match_indices('"') {
                    let lit = &text[i + 1..];
                    let Some(code) = lit.get(..5) else { continue };
                    let well_formed = (code.starts_with('E') || code.starts_with('W'))
                        && code[1..].chars().all(|c| c.is_ascii_digit());
                    let closed = lit[5..].starts_with('"');
                    let opens = i == 0 || !bytes[i - 1].is_ascii_alphanumeric();
                    if well_formed && closed && opens {
                        emitted.insert(code.to_string());
                    }
                }
            }
        }
    }
    let unregistered: Vec<_> = emitted
        .iter()
        .filter(|c| !registry.contains(c.as_str()))
        .collect();
    assert!(
        unregistered.is_empty(),
        "codes used in src/ but not in src/codes.rs: {unregistered:?}"
    );
    let unused: Vec<_> = registry.iter().filter(|c| !emitted.contains(**c)).collect();
    assert!(
        unused.is_empty(),
        "codes in src/codes.rs that nothing emits: {unused:?}"
    );
    let doc = std::fs::read_to_string(root().join("docs/diagnostics.md")).unwrap();
    let tested: BTreeSet<String> = cases()
        .iter()
        .map(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .split('-')
                .next()
                .unwrap()
                .to_string()
        })
        .collect();
    // Internal errors cannot be triggered by a program; the limits that
    // need huge programs or other options are tested above.
    // Pipeline diagnostics (E1000-E1002) need two or three programs; they
    // are tested in tests/tools/link_pipeline.rs.
    // E2104 needs 4097 instructions and W2011 `nvp4c disasm`; both are
    // tested in tests/tools/agal.rs.
    // E3000 is the Direct3D 9 decoder's answer to bytes that start with no
    // version token, which compile_bytes reads as text instead; the
    // decoder's unit tests cover it.
    let by_hand_exempt = [
        "E9000", "E9001", "E0800", "E0802", "E0004", "E1000", "E1001", "E1002", "E2104", "W2011",
        "E3000",
    ];
    for c in &registry {
        assert!(
            doc.contains(&format!("| {c} |")),
            "{c} has no row in docs/diagnostics.md"
        );
        assert!(
            tested.contains(*c) || by_hand_exempt.contains(c),
            "{c} has no program in tests/diagnostics/"
        );
    }
}
