//! Linearity of the bytecode front ends (issue 17: 10× the input in at most
//! 11× the time, for every front end), in the same terms as
//! `benches/pipeline.rs`' `1MB`/`10MB` groups:
//!
//! ```text
//! cargo bench --bench bytecode
//! ```
//!
//! * Direct3D 9: `vs_3_sw` bytecode (the software vertex shader version,
//!   which has no instruction-slot limit) of about 1 MB and 10 MB, through
//!   `compile_bytes` (decode, check, lower) without validation: the modules
//!   are past spirv-val's id bound, as the assembly family's 10 MB one is.
//! * AGAL: the format caps a program at 2048 tokens (AGAL3, E2062), so its
//!   10× is 200 → 2000 tokens (4.8 → 48 KB), validated as a renderer would.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::fmt::Write;
use std::hint::black_box;
use std::time::Duration;

/// A `vs_3_sw` shader of about `bytes` bytes of bytecode: blocks of
/// arithmetic over eight temporaries and 256 constants, with a `rep` loop
/// and an `if` per block.
fn d3d9_program(bytes: usize) -> Vec<u8> {
    let mut text = String::from(
        "vs_3_sw\ndcl_position v0\ndcl_normal v1\ndcl_texcoord0 v2\ndcl_position o0\ndcl_texcoord0 o1\n\
         defi i0, 3, 0, 1, 0\nmov r0, v0\nmov r1, v1\nmov r2, v2\nmov r3, c0\nmov r4, c1\nmov r5, c2\nmov r6, c3\nmov r7, c4\n",
    );
    // A block is 213 bytes of bytecode.
    for i in 0..bytes.div_ceil(213) {
        let (a, b) = (i % 8, (i + 3) % 8);
        let k = (i * 7) % 250;
        let _ = write!(
            text,
            "dp4 r{a}.x, r{b}, c{k}\ndp4 r{a}.y, r{b}, c{k1}\nmad r{b}.xyz, r{a}, c{k2}, -r{a}\n\
             dp3 r4.w, r{a}, r{a}\nrsq r4.w, r4.w\nmul r{b}.xyz, r{b}, r4.w\n\
             rep i0\nmul r{a}.xyz, r{a}, c{k3}.x\nendrep\nif_gt r{a}.x, c{k}.y\nmax r{b}, r{a}, c{k1}\n\
             else\nmin r{b}, r{a}, c{k2}\nendif\nadd r0, r0, r{b}\n",
            k1 = k + 1,
            k2 = k + 2,
            k3 = k + 3,
        );
    }
    text.push_str("mov o0, r0\nmov o1, r2\n");
    nvp4c::front::d3d9::assemble::assemble_bytes(&text).expect("the generated shader assembles")
}

/// An AGAL3 vertex program of `tokens` tokens.
fn agal_program(tokens: usize) -> Vec<u8> {
    let mut text = String::from("mov vt0, va0\nmov vt1, va1\n");
    for i in 0..tokens - 4 {
        let (a, b) = (i % 8, (i + 3) % 8);
        let k = (i * 7) % 120;
        let _ = match i % 4 {
            0 => writeln!(text, "dp4 vt{a}.x, vt{b}, vc{k}"),
            1 => writeln!(text, "mul vt{b}.xyz, vt{a}.xyz, vc{k}.xxx"),
            2 => writeln!(text, "add vt{a}, vt{b}, vc{k}"),
            _ => writeln!(text, "max vt{b}, vt{a}, vc{k}"),
        };
    }
    text.push_str("mov op, vt0\nmov v0, vt1\n");
    nvp4c::front::agal::assemble(&text, nvp4c::Stage::Vertex, 3)
        .expect("the generated program assembles")
        .bytes
}

fn linearity(c: &mut Criterion) {
    let mut off = nvp4c::Options::default();
    off.validate = false;
    let mut g = c.benchmark_group("d3d9");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(15))
        .warm_up_time(Duration::from_secs(1));
    for size in [1_000_000, 10_000_000] {
        let program = d3d9_program(size);
        nvp4c::compile_bytes(&program, &off).expect("the generated shader compiles");
        g.throughput(Throughput::Bytes(program.len() as u64));
        g.bench_function(BenchmarkId::new("compile", program.len()), |b| {
            b.iter(|| nvp4c::compile_bytes(black_box(&program), &off).expect("compiles"))
        });
    }
    g.finish();

    let on = nvp4c::Options::default();
    let mut g = c.benchmark_group("agal");
    for tokens in [200, 2000] {
        let program = agal_program(tokens);
        nvp4c::compile_bytes(&program, &on).expect("the generated program compiles");
        g.throughput(Throughput::Bytes(program.len() as u64));
        g.bench_function(BenchmarkId::new("compile", program.len()), |b| {
            b.iter(|| nvp4c::compile_bytes(black_box(&program), &on).expect("compiles"))
        });
        g.bench_function(
            BenchmarkId::new("compile-unvalidated", program.len()),
            |b| b.iter(|| nvp4c::compile_bytes(black_box(&program), &off).expect("compiles")),
        );
    }
    g.finish();
}

criterion_group!(bytecode, linearity);
criterion_main!(bytecode);
