//! Front ends of the languages that are not the assembly family (which is
//! `crate::syntax` + `crate::check` for now): each turns its input into the
//! same [`crate::ir::Program`].
//!
//! Bytecode front ends share a shape (docs/architecture.md): a decoder
//! from bytes to tokens with their byte ranges, a disassembler printing one
//! line per token (the text diagnostics point into, and what `nvp4c
//! disasm` prints), a checker and a lowering to the IR.
//!
//! ```
//! assert_eq!(nvp4c::front::Format::of(&[0xa0, 1, 0, 0, 0, 0xa1, 0]), Some(nvp4c::front::Format::Agal));
//! assert_eq!(nvp4c::front::Format::of(b"!!NVfp4.0"), None);
//! ```

pub mod agal;

/// A bytecode format nvp4c reads, recognised by its first bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Format {
    /// Adobe AGAL (magic 0xa0).
    Agal,
}

impl Format {
    /// The format of `bytes`, or `None` for text.
    pub fn of(bytes: &[u8]) -> Option<Format> {
        agal::decode::is_agal(bytes).then_some(Format::Agal)
    }

    /// Its name.
    ///
    /// ```
    /// assert_eq!(nvp4c::front::Format::Agal.name(), "AGAL");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Format::Agal => "AGAL",
        }
    }
}

/// The disassembly of bytecode and what is wrong with it (`nvp4c disasm`):
/// the listing's text, and diagnostics with spans into it. `None` when the
/// bytes are no bytecode format nvp4c knows.
///
/// ```
/// let bytes = nvp4c::front::agal::assemble("mov oc, v0", nvp4c::Stage::Fragment, 2).unwrap().bytes;
/// let (text, diags) = nvp4c::front::disassemble(&bytes).unwrap();
/// assert!(text.ends_with("mov oc, v0\n") && diags.is_empty());
/// ```
pub fn disassemble(bytes: &[u8]) -> Option<(String, crate::Diagnostics)> {
    match Format::of(bytes)? {
        Format::Agal => {
            let (listing, diags) = agal::disassemble_checked(bytes);
            Some((listing.text, diags))
        }
    }
}
