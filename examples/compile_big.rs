//! Compiles a generated Cg-style program of N megabytes with raised limits,
//! for measuring time and peak memory of the whole pipeline:
//!
//! ```text
//! cargo build --release --example compile_big
//! /usr/bin/time -v target/release/examples/compile_big 10 [--no-validate] [--check-only]
//! ```
//!
//! `N` ending in `i` (`200i`) generates at least N instructions instead of N
//! megabytes (`200i` is the benchmarks' cg200). The module's size is
//! printed in words and in instructions, and its instructions per source
//! instruction (docs/performance.md).
#[path = "../benches/common/mod.rs"]
mod common;

/// The command line's allocator (src/main.rs), so the figures are the CLI's.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    #[cfg(feature = "mimalloc")]
    nvp4c::return_freed_memory_at_once();
    let args: Vec<String> = std::env::args().collect();
    let size = args.get(1).map(String::as_str).unwrap_or("10");
    let source = match size.strip_suffix('i') {
        Some(n) => common::cg_program_instructions(n.parse().unwrap_or(200)),
        None => common::cg_program((size.parse::<f64>().unwrap_or(10.0) * 1e6) as usize),
    };
    let mut options = common::big_options();
    options.validate = !args.iter().any(|a| a == "--no-validate");
    let check_only = args.iter().any(|a| a == "--check-only");
    let t = std::time::Instant::now();
    let ok = if check_only {
        nvp4c::check(&source, &options).is_ok()
    } else {
        match nvp4c::compile(&source, &options) {
            Ok(c) => {
                let instructions = module_instructions(&c.spirv);
                let statements = source_instructions(&source);
                eprintln!(
                    "{} SPIR-V words, {instructions} instructions, {:.2} per source instruction ({statements})",
                    c.spirv.len(),
                    instructions as f64 / statements as f64
                );
                true
            }
            Err(d) => {
                eprintln!(
                    "{}",
                    d.render("big.vp", &source, false)
                        .lines()
                        .take(20)
                        .collect::<Vec<_>>()
                        .join("\n")
                );
                false
            }
        }
    };
    let secs = t.elapsed().as_secs_f64();
    eprintln!(
        "{} bytes, ok={ok}, {:.3} s, {:.1} MB/s",
        source.len(),
        secs,
        source.len() as f64 / 1e6 / secs
    );
}

/// The instructions of a SPIR-V module: each one's first word holds its
/// word count in the high half (SPIR-V 2.3, "Physical Layout"); the
/// header is five words.
fn module_instructions(words: &[u32]) -> usize {
    let mut at = 5;
    let mut n = 0;
    while at < words.len() {
        at += ((words[at] >> 16) as usize).max(1);
        n += 1;
    }
    n
}

/// The generated program's instructions: its statements after the
/// declarations, one a line, each ending with `;`.
fn source_instructions(source: &str) -> usize {
    source
        .lines()
        .map(str::trim)
        .filter(|l| l.ends_with(';'))
        .filter(|l| {
            !["PARAM", "TEMP", "INT", "OUTPUT"]
                .iter()
                .any(|d| l.starts_with(d))
        })
        .count()
}
