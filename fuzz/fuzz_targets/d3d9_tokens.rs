//! Direct3D 9 token streams: the decoder, disassembler, checker, lowering
//! and back end on arbitrary tokens must never panic, never report an
//! internal error (E9xxx: a module that fails validation or a lowering
//! bug), and their diagnostics must render against the listing.
//!
//! The first byte picks the input's shape:
//! - even: a version token of one of the eleven versions (or a software
//!   or unknown one) followed by the rest of the bytes as tokens, so the
//!   fuzzer spends its time past the version check;
//! - odd: a valid shader from `nvp4c::front::d3d9::testgen` (its choices
//!   read from the bytes) with some of its tokens then overwritten by
//!   later bytes, so damaged real programs reach the checker and the
//!   lowering too.
#![no_main]
use libfuzzer_sys::fuzz_target;
use nvp4c::front::d3d9::{assemble, table::Version, testgen};

const VERSIONS: &[u32] = &[
    0xFFFE_0101,
    0xFFFE_0200,
    0xFFFE_0201,
    0xFFFE_0300,
    0xFFFF_0101,
    0xFFFF_0102,
    0xFFFF_0103,
    0xFFFF_0104,
    0xFFFF_0200,
    0xFFFF_0201,
    0xFFFF_0300,
    0xFFFE_02FF,
    0xFFFF_03FF,
    0xFFFF_0105,
    0xFFFE_0400,
];

fn check(bytes: &[u8]) {
    let result = std::panic::catch_unwind(|| {
        let listing = nvp4c::source_listing(bytes).into_owned();
        let (_, diags) = nvp4c::front::disassemble(bytes).expect("a version token");
        let _ = diags.render("fuzz.pso", &listing, false);
        match nvp4c::compile_bytes(bytes, &nvp4c::Options::default()) {
            Ok(_) => None,
            Err(d) => {
                let _ = d.render("fuzz.pso", &listing, false);
                d.iter()
                    .find(|d| d.code.starts_with("E9"))
                    .map(|d| format!("{}: {}", d.code, d.message))
            }
        }
    });
    match result {
        Err(_) => panic!("the Direct3D 9 front end panicked"),
        Ok(Some(internal)) => panic!("internal error: {internal}"),
        Ok(None) => {}
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    if first % 2 == 0 {
        let version = VERSIONS[(first as usize / 2) % VERSIONS.len()];
        let mut bytes = version.to_le_bytes().to_vec();
        bytes.extend_from_slice(rest);
        check(&bytes);
        return;
    }
    // A generated shader, then damaged: the first half of the bytes
    // chooses it, the second half gives (word index, new word) pairs.
    let versions = testgen::versions();
    let version: Version = versions[(first as usize / 2) % versions.len()];
    let (choose, damage) = rest.split_at(rest.len() / 2);
    let mut rng = nvp4c::testgen::Rng::from_bytes(choose);
    let g = testgen::generate(version, &mut rng, 1);
    let Ok(mut bytes) = assemble::assemble_bytes(&g.source()) else {
        return;
    };
    let words = bytes.len() / 4;
    for pair in damage.chunks_exact(5) {
        let at = 4 * (1 + pair[0] as usize % (words - 1).max(1));
        if at + 4 <= bytes.len() {
            bytes[at..at + 4].copy_from_slice(&pair[1..5]);
        }
    }
    check(&bytes);
});
