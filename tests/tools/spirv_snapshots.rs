//! The SPIR-V disassembly of every program the project keeps (spec-corpus,
//! examples, tests/programs, the render benchmark, cgc fixtures, the
//! conformance and differential `.nvtest` files) and of a fixed set of
//! generated programs, as insta snapshots under `tests/out/spv/` (as naga
//! keeps `tests/out/spv/`). Any change to the emitted code shows up in
//! review as a diff of these files; `cargo insta review` accepts it.
//!
//! Programs that do not compile snapshot their diagnostics' codes instead,
//! so a program that starts or stops compiling is visible too.

use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The program files under `dir` (recursively), sorted: `.vp`, `.fp`,
/// `.gp` sources and the `[program]` section of `.nvtest` files.
fn programs(dir: &str) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if matches!(
                path.extension().and_then(|e| e.to_str()),
                Some("vp" | "fp" | "gp" | "tcp" | "tep" | "cp" | "nvtest")
            ) {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    walk(&root().join(dir), &mut files);
    files.sort();
    files
}

/// The program text of a file: a `.nvtest` file's `[program]` section, or
/// the whole file.
fn program_text(path: &Path) -> String {
    let bytes = std::fs::read(path).unwrap();
    let text = nvp4c::source_text(&bytes)
        .map(|t| t.into_owned())
        .unwrap_or_else(|_| String::from_utf8_lossy(&bytes).into_owned());
    if path.extension().and_then(|e| e.to_str()) != Some("nvtest") {
        return text;
    }
    let mut program = String::new();
    let mut inside = false;
    for line in text.lines() {
        match line.trim() {
            "[program]" => inside = true,
            "[case]" | "[expect]" => inside = false,
            _ if inside => {
                program.push_str(line);
                program.push('\n');
            }
            _ => {}
        }
    }
    program
}

/// The disassembly of `source` compiled for `env`, or the codes of the
/// errors that stopped it.
fn disassembly(source: &str, env: nvp4c::TargetEnv) -> String {
    let mut options = nvp4c::Options::default();
    options.target_env = env;
    match nvp4c::compile(source, &options) {
        Ok(compiled) => nvp4c::spirv::disassemble(&compiled.spirv)
            .unwrap_or_else(|e| panic!("a compiled module does not disassemble: {e}")),
        Err(diags) => {
            let codes: Vec<_> = diags
                .iter()
                .filter(|d| d.is_error())
                .map(|d| d.code)
                .collect();
            format!("does not compile: {}\n", codes.join(" "))
        }
    }
}

/// Checks one snapshot; a mismatch is collected instead of stopping the
/// test, so every changed module is written for review in one run.
fn check(name: &str, text: String, failures: &mut Vec<String>) {
    let outcome = std::panic::catch_unwind(|| {
        insta::with_settings!({
            snapshot_path => root().join("tests/out/spv"),
            prepend_module_to_snapshot => false,
            omit_expression => true,
        }, {
            insta::assert_snapshot!(name, text);
        });
    });
    if outcome.is_err() {
        failures.push(name.to_string());
    }
}

/// A snapshot name for a file: its path under the package with `/` as
/// `__`, and the target environment.
fn snapshot_name(path: &Path, env: &str) -> String {
    let relative = path.strip_prefix(root()).unwrap_or(path);
    format!(
        "{}@{env}",
        relative.to_string_lossy().replace(['/', '\\'], "__")
    )
}

const ENVS: [(nvp4c::TargetEnv, &str); 2] = [
    (nvp4c::TargetEnv::Vulkan1_0, "vulkan1.0"),
    // SPIR-V 1.4+ lists every global in the entry point's interface and
    // KIL demotes to a helper invocation (1.6): a second form of the code.
    (nvp4c::TargetEnv::Vulkan1_3, "vulkan1.3"),
];

#[test]
fn every_kept_program_compiles_to_its_snapshotted_disassembly() {
    let mut failures = Vec::new();
    let mut count = 0;
    for dir in [
        "spec-corpus/valid",
        "examples",
        "tests/programs",
        "benches/render",
        "tests/fixtures/cg",
        "tests/conformance",
        "tests/differential",
    ] {
        for path in programs(dir) {
            let source = program_text(&path);
            for (env, env_name) in ENVS {
                let name = snapshot_name(&path, env_name);
                check(&name, disassembly(&source, env), &mut failures);
                count += 1;
            }
        }
    }
    assert!(count >= 2 * 45, "only {count} programs were found");
    assert!(
        failures.is_empty(),
        "{} of {count} modules differ from their snapshots (tests/out/spv/, `cargo insta review`): {}",
        failures.len(),
        failures.join(", ")
    );
}

#[test]
fn generated_programs_compile_to_their_snapshotted_disassembly() {
    // Random programs of the differential test (src/testgen.rs) reach
    // what the kept programs rarely do: condition codes of every kind,
    // subroutine cycles, BRK/CONT, integer arithmetic.
    let mut failures = Vec::new();
    let config = nvp4c::testgen::Config::default();
    for seed in 1..=12u64 {
        let source = nvp4c::testgen::generate(seed, &config).source();
        for (env, env_name) in ENVS {
            let name = format!("generated__seed-{seed}@{env_name}");
            check(&name, disassembly(&source, env), &mut failures);
        }
    }
    assert!(
        failures.is_empty(),
        "generated modules differ from their snapshots (tests/out/spv/, `cargo insta review`): {}",
        failures.join(", ")
    );
}
