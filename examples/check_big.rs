//! The checker alone on a generated Cg-style program (the one
//! `compile_big` compiles): the program is parsed to a whole syntax tree
//! first, then checked `N` times from it, so that callgrind can count the
//! checker's instructions apart from the parser's (which a compile
//! interleaves with them: statements stream from the parser into the
//! checker). docs/performance.md, "Session 10 (checker)":
//!
//! ```text
//! cargo build --release --example check_big
//! valgrind --tool=callgrind --toggle-collect='check_big::check_once' \
//!     target/release/examples/check_big 1
//! ```
//!
//! `N` (megabytes) ending in `i` generates at least N instructions
//! (`200i` is the benchmarks' cg200); a second argument repeats the check.
#[path = "../benches/common/mod.rs"]
mod common;

/// The command line's allocator (src/main.rs), so the figures are the CLI's.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let size = args.get(1).map(String::as_str).unwrap_or("1");
    let repeat: usize = args.get(2).and_then(|r| r.parse().ok()).unwrap_or(1);
    let source = match size.strip_suffix('i') {
        Some(n) => common::cg_program_instructions(n.parse().unwrap_or(200)),
        None => common::cg_program((size.parse::<f64>().unwrap_or(1.0) * 1e6) as usize),
    };
    let options = common::big_options();
    let (ast, _) = nvp4c::syntax::parse(&source);
    let ast = ast.expect("the generated program parses");
    let t = std::time::Instant::now();
    for _ in 0..repeat {
        check_once(std::hint::black_box(&ast), &options);
    }
    let secs = t.elapsed().as_secs_f64() / repeat as f64;
    eprintln!(
        "{} bytes, check {:.3} ms, {:.1} MB/s",
        source.len(),
        secs * 1e3,
        source.len() as f64 / 1e6 / secs
    );
}

/// One check, kept out of line so that callgrind can collect it alone.
#[inline(never)]
fn check_once(ast: &nvp4c::syntax::ast::Ast, options: &nvp4c::Options) {
    let (program, diags) = nvp4c::check::check(ast, options);
    assert!(program.is_some(), "the generated program checks: {diags:?}");
}
