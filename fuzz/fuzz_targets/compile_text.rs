//! The whole pipeline on arbitrary text: a validated module or diagnostics
//! (which must render), never a panic and never E9000/E9001 (an internal
//! error is a bug).
#![no_main]
use libfuzzer_sys::fuzz_target;

/// The input's length picks the options, so one corpus covers the default
/// path, the optimiser (`-O`, whose output is validated again), the
/// signed-zero mode and tiny limits (every limit check reachable by short
/// programs).
fn options(len: usize) -> nvp4c::Options {
    let mut options = nvp4c::Options::default();
    match len % 4 {
        1 => options.optimize = true,
        2 => options.preserve_signed_zero_inf_nan = true,
        3 => {
            let l = &mut options.limits;
            l.max_instructions = 6;
            l.max_if_depth = 2;
            l.max_loop_depth = 2;
            l.max_call_depth = 2;
            l.max_temporaries = 3;
            l.max_parameters = 4;
            l.max_attribs = 3;
            l.max_texture_units = 2;
            l.max_buffer_bindings = 2;
            l.max_buffer_size = 8;
            l.max_output_vertices = 4;
        }
        _ => {}
    }
    options
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let options = options(data.len());
    let result = std::panic::catch_unwind(|| match nvp4c::compile(text, &options) {
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
