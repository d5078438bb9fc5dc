//! The lexer and parser on arbitrary bytes: E0003 for bytes that are not
//! UTF-8 outside comments,
//! otherwise a tree or diagnostics that render; never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let result = std::panic::catch_unwind(|| {
        if let Ok(text) = nvp4c::source_text(data) {
            // Half the inputs get an instruction limit of 4, so that short
            // inputs reach the parser's early stop (E0800 at 16
            // instructions) as well as its end.
            let (_ast, diags) = if data.len() % 2 == 0 {
                nvp4c::syntax::parse(&text)
            } else {
                nvp4c::syntax::parse_bounded(&text, 4)
            };
            let _ = nvp4c::Diagnostics(diags).render("fuzz.fp", &text, false);
        }
    });
    if result.is_err() {
        panic!("the parser panicked");
    }
});
