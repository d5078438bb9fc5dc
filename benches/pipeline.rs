//! Criterion benchmarks of each compiler stage and of the whole pipeline, in
//! MB/s of program text (docs/performance.md):
//!
//! ```text
//! cargo bench --bench pipeline              # everything
//! cargo bench --bench pipeline -- 10MB      # one input
//! ```
//!
//! Inputs: the largest program of spec-corpus/valid, a 200-instruction
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

fn largest_corpus_program() -> (String, String) {
    let mut best = (String::new(), String::new());
    for entry in std::fs::read_dir("spec-corpus/valid").expect("spec-corpus/valid") {
        let path = entry.expect("dir entry").path();
        let text = std::fs::read_to_string(&path).expect("corpus file");
        if text.len() > best.1.len() {
            best = (
                path.file_name().unwrap().to_string_lossy().into_owned(),
                text,
            );
        }
    }
    best
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

criterion_group!(pipeline, benches);
criterion_main!(pipeline);
