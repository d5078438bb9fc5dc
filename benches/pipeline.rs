//! Criterion benchmarks of each compiler stage and of the whole pipeline, in
//! MB/s of program text (docs/performance.md):
//!
//! ```text
//! cargo bench --bench pipeline              # everything
//! cargo bench --bench pipeline -- 10MB      # one input
//! cargo bench --bench pipeline -- command   # start-up and batch mode
//! ```
//!
//! Inputs: a program of spec-corpus/valid (the largest when first measured), a 200-instruction
//! Cg-style vertex program, and a generated 10 MB one (checked with raised
//! `Options::limits`; it is not validated, since its module is beyond
//! spirv-val's id bound of 4 194 303).
#[path = "common/mod.rs"]
mod common;

/// The command line's allocator (src/main.rs), so the figures are the CLI's;
/// `--no-default-features` measures with the system allocator.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use std::time::Duration;

/// The corpus input: the largest program of spec-corpus/valid when the
/// figures in docs/performance.md were first taken, kept by name so that
/// figures stay comparable as the corpus grows.
fn largest_corpus_program() -> (String, String) {
    let name = "gpu4-34-cc-tests.fp";
    let text = std::fs::read_to_string(format!("spec-corpus/valid/{name}")).expect("corpus file");
    (name.to_string(), text)
}

fn stages(c: &mut Criterion, name: &str, source: &str, options: &nvp4c::Options, validate: bool) {
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Bytes(source.len() as u64));
    if source.len() > 1 << 20 {
        g.sample_size(10)
            .measurement_time(Duration::from_secs(20))
            .warm_up_time(Duration::from_secs(1));
    }
    let (ast, _) = nvp4c::syntax::parse(source);
    let ast = ast.expect("the program parses");
    let (program, diags) = nvp4c::check::check(&ast, options);
    let program = program.unwrap_or_else(|| panic!("the program checks: {diags:?}"));
    let words = nvp4c::spirv::lower(&program, options).expect("the program lowers");

    g.bench_function(BenchmarkId::new("parse", source.len()), |b| {
        b.iter(|| nvp4c::syntax::parse(black_box(source)))
    });
    g.bench_function(BenchmarkId::new("check", source.len()), |b| {
        b.iter(|| nvp4c::check::check(black_box(&ast), options))
    });
    g.bench_function(BenchmarkId::new("lower", source.len()), |b| {
        b.iter(|| nvp4c::spirv::lower(black_box(&program), options))
    });
    if validate {
        g.bench_function(BenchmarkId::new("validate", source.len()), |b| {
            b.iter(|| nvp4c::spirv::validate(black_box(&words), options.target_env))
        });
        // spirv-val's own time, the floor of issue 17's "within 1.2×": the
        // validator with spirv-val's default options (its friendly-name
        // table included, which `validate` above leaves out), in process.
        assert_eq!(options.target_env, nvp4c::TargetEnv::Vulkan1_0);
        g.bench_function(BenchmarkId::new("spirv-val", source.len()), |b| {
            use spirv_tools::val::Validator;
            let validator = spirv_tools::val::create(Some(spirv_tools::TargetEnv::Vulkan_1_0));
            b.iter(|| validator.validate(black_box(&words), None).expect("valid"))
        });
    }
    // The front end as `compile` runs it: statements stream from the parser
    // to the checker, no whole syntax tree.
    g.bench_function(BenchmarkId::new("parse+check", source.len()), |b| {
        b.iter(|| nvp4c::check(black_box(source), options).expect("checks"))
    });
    // parse + check + lower, the front end and backend without spirv-val
    // and reflection: the figure the 50 MB/s target is about.
    g.bench_function(BenchmarkId::new("parse+check+lower", source.len()), |b| {
        b.iter(|| {
            let (program, _) = nvp4c::check(black_box(source), options).expect("checks");
            nvp4c::spirv::lower(&program, options).expect("lowers")
        })
    });
    let mut whole = options.clone();
    whole.validate = validate;
    g.bench_function(BenchmarkId::new("compile", source.len()), |b| {
        b.iter(|| nvp4c::compile(black_box(source), &whole).expect("compiles"))
    });
    g.finish();
}

fn benches(c: &mut Criterion) {
    let defaults = nvp4c::Options::default();
    let (name, corpus) = largest_corpus_program();
    stages(c, &format!("corpus/{name}"), &corpus, &defaults, true);

    let cg200 = common::cg_program_instructions(200);
    stages(c, "cg200", &cg200, &defaults, true);

    let big = common::cg_program(10_000_000);
    stages(c, "10MB", &big, &common::big_options(), false);
}

/// Linearity (issue 17: 10× the input in at most 11× the time): the 1 MB
/// program through the two whole-program stages, to compare with the
/// `10MB` group's figures of the same run.
fn linearity(c: &mut Criterion) {
    let options = common::big_options();
    let mut whole = options.clone();
    whole.validate = false;
    let source = common::cg_program(1_000_000);
    let mut g = c.benchmark_group("1MB");
    g.throughput(Throughput::Bytes(source.len() as u64));
    g.sample_size(20).measurement_time(Duration::from_secs(10));
    g.bench_function(BenchmarkId::new("parse+check+lower", source.len()), |b| {
        b.iter(|| {
            let (program, _) = nvp4c::check(black_box(&source), &options).expect("checks");
            nvp4c::spirv::lower(&program, &options).expect("lowers")
        })
    });
    g.bench_function(BenchmarkId::new("compile", source.len()), |b| {
        b.iter(|| nvp4c::compile(black_box(&source), &whole).expect("compiles"))
    });
    g.finish();
}

/// The `nvp4c` command as a process: start-up (`nvp4c --version`, issue
/// 17: at most 1 ms) and batch mode over spec-corpus and tests/programs on
/// one core and on two (`taskset`; at least 1.8× faster on two). This is
/// the binary cargo builds (dynamically linked); `scripts/build-release.sh`
/// makes the statically linked one that docs/performance.md measures
/// beside it with hyperfine.
fn command(c: &mut Criterion) {
    use std::process::{Command, Stdio};
    let nvp4c = env!("CARGO_BIN_EXE_nvp4c");
    let mut g = c.benchmark_group("command");
    g.bench_function("--version", |b| {
        b.iter(|| {
            let status = Command::new(nvp4c)
                .arg("--version")
                .stdout(Stdio::null())
                .status()
                .expect("nvp4c runs");
            assert!(status.success());
        })
    });
    let mut inputs = Vec::new();
    for dir in ["spec-corpus/valid", "spec-corpus/invalid", "tests/programs"] {
        for entry in std::fs::read_dir(dir).expect("program directory") {
            let path = entry.expect("dir entry").path();
            if matches!(
                path.extension().and_then(|e| e.to_str()),
                Some("vp" | "fp" | "gp")
            ) {
                inputs.push(path);
            }
        }
    }
    inputs.sort();
    let out = tempfile::tempdir().expect("a temporary directory");
    let taskset = Command::new("taskset").arg("--version").output().is_ok();
    for cores in ["0", "0,1"] {
        if !taskset {
            eprintln!("command/batch: no `taskset`, not measured");
            break;
        }
        let name = format!("batch/{} programs/cores {cores}", inputs.len());
        g.bench_function(name, |b| {
            b.iter(|| {
                // The invalid programs make the batch exit with 1; every
                // input is still compiled.
                Command::new("taskset")
                    .args(["-c", cores, nvp4c])
                    .args(&inputs)
                    .arg("--out-dir")
                    .arg(out.path())
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .status()
                    .expect("nvp4c runs")
            })
        });
    }
    g.finish();
}

criterion_group!(pipeline, benches, linearity, command);
criterion_main!(pipeline);
