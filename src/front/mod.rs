//! Front ends of the languages that are not the assembly family (which is
//! `crate::syntax` + `crate::check` for now): each turns its input into the
//! same [`crate::ir::Program`].
//!
//! Bytecode front ends share a shape (docs/architecture.md): a decoder
//! from bytes to instructions (AGAL tokens, Direct3D 9 instructions) with
//! their byte ranges, a disassembler printing one line per instruction (the
//! text diagnostics point into, and what `nvp4c disasm` prints), a checker
//! and a lowering to the IR.
//!
//! ```
//! use nvp4c::front::Format;
//! assert_eq!(Format::of(&[0xa0, 1, 0, 0, 0, 0xa1, 0]), Some(Format::Agal));
//! assert_eq!(Format::of(&[0x00, 0x03, 0xFF, 0xFF]), Some(Format::D3d9));
//! assert_eq!(Format::of(b"!!NVfp4.0"), None);
//! ```

pub mod agal;
pub mod d3d9;

/// A bytecode format nvp4c reads, recognised by its first bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Format {
    /// Adobe AGAL (magic 0xa0).
    Agal,
    /// Direct3D 9 shader tokens (a version token 0xFFFEmmnn or 0xFFFFmmnn).
    D3d9,
}

impl Format {
    /// The format of `bytes`, or `None` for text.
    ///
    /// A Direct3D 9 version token is tested first: it fixes three bytes
    /// (`FE`/`FF`, `FF` and a major version 1-3), AGAL's magic only the
    /// first. Bytes that have both (`a0 01 ff ff`: minor version 0xa0, or
    /// an AGAL version field of 0x??ffff01) are neither a valid Direct3D 9
    /// shader nor a valid AGAL program; they are read as Direct3D 9.
    ///
    /// ```
    /// use nvp4c::front::Format;
    /// assert_eq!(Format::of(&[0xa0, 0x01, 0xFF, 0xFF]), Some(Format::D3d9));
    /// assert_eq!(Format::of(&[0xa0, 0x01, 0x00, 0x00]), Some(Format::Agal));
    /// ```
    pub fn of(bytes: &[u8]) -> Option<Format> {
        if d3d9::decode::is_d3d9(bytes) {
            Some(Format::D3d9)
        } else if agal::decode::is_agal(bytes) {
            Some(Format::Agal)
        } else {
            None
        }
    }

    /// Its name.
    ///
    /// ```
    /// assert_eq!(nvp4c::front::Format::Agal.name(), "AGAL");
    /// assert_eq!(nvp4c::front::Format::D3d9.name(), "Direct3D 9");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Format::Agal => "AGAL",
            Format::D3d9 => "Direct3D 9",
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
///
/// let bytes = nvp4c::front::d3d9::assemble::assemble_bytes("ps_2_0\nmov oC0, c0\n").unwrap();
/// let (text, diags) = nvp4c::front::disassemble(&bytes).unwrap();
/// assert_eq!(text, "ps_2_0\nmov oC0, c0\n");
/// assert!(diags.is_empty());
/// ```
pub fn disassemble(bytes: &[u8]) -> Option<(String, crate::Diagnostics)> {
    match Format::of(bytes)? {
        Format::Agal => {
            let (listing, diags) = agal::disassemble_checked(bytes);
            Some((listing.text, diags))
        }
        Format::D3d9 => {
            let (listing, diags) = d3d9::disassemble_checked(bytes, &crate::Options::default());
            Some((listing.text, diags))
        }
    }
}

/// The listing of bytecode: the text its diagnostics point into (the
/// disassembly, one line per instruction). `None` for text.
pub(crate) fn listing(bytes: &[u8]) -> Option<String> {
    match Format::of(bytes)? {
        Format::Agal => Some(agal::disasm::disassemble(bytes).text),
        Format::D3d9 => Some(d3d9::listing(bytes)),
    }
}
