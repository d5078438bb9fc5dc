//! Front ends of the languages that are not the assembly family (which is
//! `crate::syntax` + `crate::check` for now): each turns its input into the
//! same [`crate::ir::Program`].
//!
//! Bytecode front ends share a shape (docs/architecture.md): a decoder
//! from bytes to instructions with their byte ranges, a disassembler
//! printing one line per instruction (the text diagnostics point into, and
//! what `nvp4c disasm` prints), a checker and a lowering to the IR.
//!
//! ```
//! assert_eq!(nvp4c::front::Format::of(&[0x00, 0x03, 0xFF, 0xFF]), Some(nvp4c::front::Format::D3d9));
//! assert_eq!(nvp4c::front::Format::of(b"!!NVfp4.0"), None);
//! ```

pub mod d3d9;

/// A bytecode format nvp4c reads, recognised by its first bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Format {
    /// Direct3D 9 shader tokens (a version token 0xFFFEmmnn or 0xFFFFmmnn).
    D3d9,
}

impl Format {
    /// The format of `bytes`, or `None` for text.
    pub fn of(bytes: &[u8]) -> Option<Format> {
        d3d9::decode::is_d3d9(bytes).then_some(Format::D3d9)
    }

    /// Its name.
    ///
    /// ```
    /// assert_eq!(nvp4c::front::Format::D3d9.name(), "Direct3D 9");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Format::D3d9 => "Direct3D 9",
        }
    }
}

/// The disassembly of bytecode and what is wrong with it (`nvp4c disasm`):
/// the listing's text, and diagnostics with spans into it. `None` when the
/// bytes are no bytecode format nvp4c knows.
///
/// ```
/// let bytes = nvp4c::front::d3d9::assemble::assemble_bytes("ps_2_0\nmov oC0, c0\n").unwrap();
/// let (text, diags) = nvp4c::front::disassemble(&bytes).unwrap();
/// assert_eq!(text, "ps_2_0\nmov oC0, c0\n");
/// assert!(diags.is_empty());
/// ```
pub fn disassemble(bytes: &[u8]) -> Option<(String, crate::Diagnostics)> {
    match Format::of(bytes)? {
        Format::D3d9 => {
            let (listing, diags) = d3d9::disassemble_checked(bytes, &crate::Options::default());
            Some((listing.text, diags))
        }
    }
}
