//! AGALMiniAssembler's syntax on arbitrary text: `compile` with the text
//! read as AGAL assembly (the input's length picks the stage and version)
//! gives a module or diagnostics that render, never a panic or an
//! internal error (E9xxx).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut options = nvp4c::Options::default();
    let stage = if data.len() % 2 == 0 { nvp4c::Stage::Vertex } else { nvp4c::Stage::Fragment };
    options.agal.assembly = Some((stage, (data.len() / 2 % 3) as u32 + 1));
    options.agal.flip_y = data.len() % 7 == 0;
    let result = std::panic::catch_unwind(|| match nvp4c::compile(text, &options) {
        Ok(_) => None,
        Err(d) => {
            let _ = d.render("fuzz.agalasm", text, false);
            d.iter()
                .find(|d| d.code.starts_with("E9"))
                .map(|d| format!("{}: {}", d.code, d.message))
        }
    });
    match result {
        Err(_) => panic!("the AGAL assembler or checker panicked"),
        Ok(Some(internal)) => panic!("internal error: {internal}"),
        Ok(None) => {}
    }
});
