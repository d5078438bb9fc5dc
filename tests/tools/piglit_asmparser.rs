//! piglit's asmparsertest (tests/piglit/asmparsertest/, MIT, see
//! tests/piglit/COPYING): 292 `!!ARBvp1.0`/`!!ARBfp1.0` programs that GL
//! must load or reject. As piglit's asmparsertest.c does, each program is
//! loaded twice, with Unix and with DOS line endings, as the program type
//! of its directory; a program containing `# FAIL` must be rejected, every
//! other one must compile (to validated SPIR-V). A rejection must carry a
//! diagnostic code, never an internal error.
//!
//! Where piglit and the specification disagree the specification wins; the
//! cases, with the spec sentence, are in docs/conformance.md and in
//! `SPEC_OVERRIDES` below.

use std::path::{Path, PathBuf};

/// Programs piglit expects to load that the specification says fail to
/// load: (file, the code nvp4c reports, the spec sentence).
const SPEC_OVERRIDES: &[(&str, &str, &str)] = &[
    (
        "ARBfp1.0/size_specifier-68.txt",
        "E0450",
        "NV_fragment_program_option 3.11.5.36, RFL: \"A fragment program will fail to load if the w component of the result is enabled in the component write mask.\"",
    ),
    (
        "ARBvp1.0/astack-08.txt",
        "E0452",
        "NV_vertex_program3 (revision 7), POPA: \"a program will fail to load if it includes a component write mask other than \".xyzw\" or a condition code write mask test other than \"TR\".\"",
    ),
    (
        "ARBvp1.0/astack-09.txt",
        "E0452",
        "NV_vertex_program3 (revision 7), POPA: \"a program will fail to load if it includes a component write mask other than \".xyzw\" or a condition code write mask test other than \"TR\".\"",
    ),
];

/// The extensions the programs name in `# REQUIRE`: every one is a
/// specification nvp4c implements (as an option of the ARB headers).
const IMPLEMENTED_EXTENSIONS: &[&str] = &[
    "GL_ARB_fragment_program_shadow",
    "GL_NV_fragment_program_option",
    "GL_NV_vertex_program2_option",
    "GL_NV_vertex_program3",
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/piglit/asmparsertest")
}

/// Every program, as (directory/file, directory's program type, text).
fn programs() -> Vec<(String, nvp4c::Stage, String)> {
    let mut all = Vec::new();
    for (dir, stage) in [
        ("ARBfp1.0", nvp4c::Stage::Fragment),
        ("ARBvp1.0", nvp4c::Stage::Vertex),
    ] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "txt"))
            .collect();
        files.sort();
        for f in files {
            let name = format!("{dir}/{}", f.file_name().unwrap().to_string_lossy());
            all.push((name, stage, std::fs::read_to_string(&f).unwrap()));
        }
    }
    all
}

/// What loading `text` as a program of type `target` gives: `Ok` or the
/// error codes. A program of the other type is rejected, as GL's
/// `glProgramStringARB(target, ...)` rejects it.
fn load(text: &str, target: nvp4c::Stage) -> Result<(), Vec<&'static str>> {
    match nvp4c::compile(text, &nvp4c::Options::default()) {
        Ok(c) if c.stage == target => Ok(()),
        Ok(_) => Err(vec!["wrong program type for the target"]),
        Err(d) => Err(d.iter().filter(|d| d.is_error()).map(|d| d.code).collect()),
    }
}

#[test]
fn every_asmparsertest_program_is_accepted_or_rejected_as_piglit_or_the_spec_expects() {
    let programs = programs();
    assert_eq!(
        programs.len(),
        292,
        "piglit's asmparsertest has 292 programs"
    );
    let mut failures = Vec::new();
    let (mut accepted, mut rejected) = (0, 0);
    for (name, target, text) in &programs {
        let unix = text.replace("\r\n", "\n");
        let dos = unix.replace('\n', "\r\n");
        let result = load(&unix, *target);
        if load(&dos, *target) != result {
            failures.push(format!("{name}: DOS line endings change the result"));
        }
        if let Err(codes) = &result {
            if codes.is_empty() || codes.iter().any(|c| c.starts_with("E9")) {
                failures.push(format!(
                    "{name}: rejected without a code, or with an internal error: {codes:?}"
                ));
            }
        }
        let piglit_fails = text.contains("# FAIL");
        let override_ = SPEC_OVERRIDES.iter().find(|o| o.0 == name);
        match (result, piglit_fails, override_) {
            (Err(codes), false, Some((_, code, _))) => {
                if codes.iter().any(|c| c != code) {
                    failures.push(format!(
                        "{name}: the spec rejects it with {code}, got {codes:?}"
                    ));
                }
                rejected += 1;
            }
            (Ok(()), false, Some(_)) => failures.push(format!(
                "{name}: accepted, but the spec says it fails to load (docs/conformance.md)"
            )),
            (Ok(()), false, None) => accepted += 1,
            (Err(codes), false, None) => failures.push(format!(
                "{name}: rejected with {codes:?}, piglit expects it to load"
            )),
            (Err(_), true, _) => rejected += 1,
            (Ok(()), true, _) => {
                failures.push(format!("{name}: accepted, piglit expects it to fail"))
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} programs disagree:\n{}",
        failures.len(),
        programs.len(),
        failures.join("\n")
    );
    // 292 programs: 3 decided by the spec against piglit, 2 awaiting BRA.
    assert_eq!(accepted + rejected, 292);
}

#[test]
fn every_required_extension_is_one_nvp4c_implements() {
    for (name, _, text) in programs() {
        for line in text.lines() {
            if let Some(ext) = line.trim().strip_prefix("# REQUIRE ") {
                assert!(
                    IMPLEMENTED_EXTENSIONS.contains(&ext.trim()),
                    "{name} requires {ext}, which is not in the list of implemented specifications"
                );
            }
        }
    }
}

#[test]
fn every_spec_override_is_a_program_piglit_expects_to_load() {
    let programs = programs();
    for (file, _, _) in SPEC_OVERRIDES {
        let (_, _, text) = programs
            .iter()
            .find(|p| p.0 == *file)
            .unwrap_or_else(|| panic!("{file} is not in the suite"));
        assert!(
            !text.contains("# FAIL"),
            "{file}: piglit already expects failure, no override needed"
        );
    }
    let conformance =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/conformance.md"))
            .unwrap();
    for (file, _, _) in SPEC_OVERRIDES {
        assert!(
            conformance.contains(file),
            "{file} is not listed in docs/conformance.md"
        );
    }
}
