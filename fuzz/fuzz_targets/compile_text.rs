//! The whole pipeline on arbitrary text: a validated module or diagnostics
//! (which must render), never a panic and never E9000/E9001 (an internal
//! error is a bug).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let result =
        std::panic::catch_unwind(|| match nvp4c::compile(text, &nvp4c::Options::default()) {
            Ok(_) => None,
            Err(d) => {
                let _ = d.render("fuzz.fp", text, false);
                d.iter()
                    .find(|d| d.code.starts_with("E9"))
                    .map(|d| format!("{}: {}", d.code, d.message))
            }
        });
    match result {
        Err(_) => panic!("compile panicked"),
        Ok(Some(internal)) => panic!("internal error: {internal}"),
        Ok(None) => {}
    }
});
