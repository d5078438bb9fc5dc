//! Every program quoted in the spec texts (spec-corpus/): the valid ones
//! parse and compile, the invalid ones fail with the expected diagnostic.

use std::path::{Path, PathBuf};

fn corpus(dir: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("spec-corpus")
        .join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", root.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| {
            matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("vp" | "fp" | "gp")
            )
        })
        .collect();
    files.sort();
    files
}

/// Features whose lowering belongs to later work: a valid program that uses
/// them must still parse and check, and may only fail with E0900.
const NOT_YET_LOWERED: &str = "E0900";

#[test]
fn valid_spec_programs_parse_check_and_compile() {
    let files = corpus("valid");
    assert!(
        files.len() >= 30,
        "the corpus has {} valid programs",
        files.len()
    );
    let mut pending = Vec::new();
    for f in &files {
        let src = std::fs::read_to_string(f).unwrap();
        let (ast, diags) = nvp4c::syntax::parse(&src);
        assert!(
            ast.is_some() && diags.is_empty(),
            "{} does not parse:\n{}",
            f.display(),
            nvp4c::Diagnostics(diags).render(&f.display().to_string(), &src, false)
        );
        for env in [nvp4c::TargetEnv::Vulkan1_0, nvp4c::TargetEnv::Vulkan1_3] {
            let mut options = nvp4c::Options::default();
            options.target_env = env;
            match nvp4c::compile(&src, &options) {
                Ok(c) => assert!(!c.spirv.is_empty()),
                Err(d) => {
                    let unexpected: Vec<_> = d
                        .iter()
                        .filter(|d| d.is_error() && d.code != NOT_YET_LOWERED)
                        .collect();
                    assert!(
                        unexpected.is_empty(),
                        "{} fails:\n{}",
                        f.display(),
                        d.render(&f.display().to_string(), &src, false)
                    );
                    if env == nvp4c::TargetEnv::Vulkan1_0 {
                        pending.push(f.file_name().unwrap().to_string_lossy().into_owned());
                    }
                }
            }
        }
    }
    eprintln!("valid spec programs waiting for later lowering work: {pending:?}");
}

#[test]
fn invalid_spec_programs_fail_with_the_expected_code() {
    let files = corpus("invalid");
    assert!(files.len() >= 15);
    for f in &files {
        let src = std::fs::read_to_string(f).unwrap();
        let expect: Vec<&str> = src
            .lines()
            .find_map(|l| l.strip_prefix("# expect:"))
            .unwrap_or_else(|| panic!("{} has no `# expect:` line", f.display()))
            .split_whitespace()
            .collect();
        let err = match nvp4c::compile(&src, &nvp4c::Options::default()) {
            Ok(_) => panic!("{} compiled, but the spec says it is invalid", f.display()),
            Err(e) => e,
        };
        let mut codes: Vec<&str> = err
            .iter()
            .filter(|d| d.is_error())
            .map(|d| d.code)
            .collect();
        codes.sort();
        codes.dedup();
        assert_eq!(
            codes,
            expect,
            "{}:\n{}",
            f.display(),
            err.render(&f.display().to_string(), &src, false)
        );
    }
}
