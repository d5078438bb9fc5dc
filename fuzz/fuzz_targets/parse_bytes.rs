//! The lexer and parser on arbitrary bytes: E0003 for invalid UTF-8,
//! otherwise a tree or diagnostics; never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let result = std::panic::catch_unwind(|| {
        if let Ok(text) = nvp4c::source_text(data) {
            let (_ast, diags) = nvp4c::syntax::parse(text);
            for d in &diags {
                let _ = d.primary_span();
            }
        }
    });
    if result.is_err() {
        panic!("the parser panicked");
    }
});
