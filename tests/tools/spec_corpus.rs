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
                Some("vp" | "fp" | "gp" | "tcp" | "tep" | "cp")
            )
        })
        .collect();
    files.sort();
    files
}

/// Features whose lowering belongs to later work: a valid program that uses
/// them must still parse and check, and may only fail with E0900.
const NOT_YET_LOWERED: &str = "E0900";

const ENVS: [nvp4c::TargetEnv; 4] = [
    nvp4c::TargetEnv::Vulkan1_0,
    nvp4c::TargetEnv::Vulkan1_1,
    nvp4c::TargetEnv::Vulkan1_2,
    nvp4c::TargetEnv::Vulkan1_3,
];

/// The codes a valid spec program is refused with on Vulkan, from its
/// comments: `# vulkan: E1137 (why)` for a construct Vulkan cannot express
/// at all, `# below vulkan1.1: E1140 (why)` for one that needs a newer
/// target environment. Anything else must compile.
fn vulkan_refusals(src: &str, env: nvp4c::TargetEnv) -> Vec<String> {
    let mut codes = Vec::new();
    for line in src.lines() {
        let (applies, rest) = if let Some(r) = line.strip_prefix("# vulkan:") {
            (true, r)
        } else if let Some(r) = line.strip_prefix("# below ") {
            let (needed, r) = r.split_once(':').expect("`# below <env>: <code>`");
            let needed = ENVS
                .iter()
                .find(|e| e.name() == needed.trim())
                .unwrap_or_else(|| panic!("unknown target env in `{line}`"));
            (env < *needed, r)
        } else {
            continue;
        };
        if applies {
            codes.push(rest.split_whitespace().next().expect("a code").to_string());
        }
    }
    codes
}

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
        for env in ENVS {
            let mut options = nvp4c::Options::default();
            options.target_env = env;
            let refusals = vulkan_refusals(&src, env);
            match nvp4c::compile(&src, &options) {
                Ok(c) => {
                    assert!(!c.spirv.is_empty());
                    assert!(
                        refusals.is_empty(),
                        "{} compiled for {}, but its comments say Vulkan refuses it with {refusals:?}",
                        f.display(),
                        env.name()
                    );
                }
                Err(d) => {
                    let mut codes: Vec<&str> = d
                        .iter()
                        .filter(|d| d.is_error() && d.code != NOT_YET_LOWERED)
                        .map(|d| d.code)
                        .collect();
                    codes.sort();
                    codes.dedup();
                    assert_eq!(
                        codes,
                        refusals,
                        "{} for {}:\n{}",
                        f.display(),
                        env.name(),
                        d.render(&f.display().to_string(), &src, false)
                    );
                    if refusals.is_empty() && env == nvp4c::TargetEnv::Vulkan1_3 {
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
