//! Compiles a generated Cg-style program of N megabytes with raised limits,
//! for measuring time and peak memory of the whole pipeline:
//!
//! ```text
//! cargo build --release --example compile_big
//! /usr/bin/time -v target/release/examples/compile_big 10 [--no-validate] [--check-only]
//! ```
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
    let mb: f64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(10.0);
    let source = common::cg_program((mb * 1e6) as usize);
    let mut options = common::big_options();
    options.validate = !args.iter().any(|a| a == "--no-validate");
    let check_only = args.iter().any(|a| a == "--check-only");
    let t = std::time::Instant::now();
    let ok = if check_only {
        nvp4c::check(&source, &options).is_ok()
    } else {
        match nvp4c::compile(&source, &options) {
            Ok(c) => {
                eprintln!("{} SPIR-V words", c.spirv.len());
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
