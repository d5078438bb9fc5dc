//! The AGAL front end on arbitrary bytecode: the input, behind the magic
//! byte, goes through `compile_bytes` (decode, check, lower, SPIR-V,
//! validation) and `disassemble_checked` (the listing and its reassembly);
//! both must return a module or diagnostics that render against the
//! listing, never panic and never report an internal error (E9xxx).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // Every input is AGAL: the magic byte, then the fuzzer's bytes (the
    // corpus holds real programs without their first byte).
    let mut bytes = vec![0xa0];
    bytes.extend_from_slice(data);
    let result = std::panic::catch_unwind(|| {
        let listing = nvp4c::source_listing(&bytes);
        let internal = match nvp4c::compile_bytes(&bytes, &nvp4c::Options::default()) {
            Ok(c) => {
                let _ = c.warnings.render("fuzz.agal", &listing, false);
                None
            }
            Err(d) => {
                let _ = d.render("fuzz.agal", &listing, false);
                d.iter()
                    .find(|d| d.code.starts_with("E9"))
                    .map(|d| format!("{}: {}", d.code, d.message))
            }
        };
        let (listing2, diags) = nvp4c::front::agal::disassemble_checked(&bytes);
        assert_eq!(listing2.text, listing, "one listing");
        let _ = diags.render("fuzz.agal", &listing2.text, false);
        internal
    });
    match result {
        Err(_) => panic!("the AGAL front end panicked"),
        Ok(Some(internal)) => panic!("internal error: {internal}"),
        Ok(None) => {}
    }
});
