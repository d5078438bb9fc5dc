//! AGAL bytecode → header and tokens, each with its byte range.
//!
//! Decoding never fails as a whole and never panics: whatever the bytes are,
//! the result says what was found (a header or why there is none, every
//! whole 24-byte token, the length of a partial last one), and the checker
//! turns the problems into diagnostics. The bit layouts are Adobe's
//! "AGAL bytecode format" page with the fields it leaves out from
//! FACTS-agal-encoding.md section 2 (sampler format bits 40-43, dimension
//! 2 = 3D, OR-able special flags).
//!
//! ```
//! use nvp4c::front::agal::decode::decode;
//! let bytes = [0xa0, 1, 0, 0, 0, 0xa1, 1,
//!              0, 0, 0, 0, 0, 0, 0x0f, 3, 0, 0, 0, 0xe4, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
//! let program = decode(&bytes);
//! let header = program.header.unwrap();
//! assert_eq!((header.version, header.kind), (1, 1));
//! assert_eq!(program.tokens.len(), 1);
//! assert_eq!(program.tokens[0].dest().mask, 0xf);
//! assert_eq!(program.tokens[0].source1().swizzle, 0xe4);
//! ```

/// The AGAL magic byte (offset 0).
pub const MAGIC: u8 = 0xa0;
/// The shader-type tag (offset 5).
pub const TYPE_TAG: u8 = 0xa1;
/// Header size in bytes.
pub const HEADER_BYTES: usize = 7;
/// Token size in bytes.
pub const TOKEN_BYTES: usize = 24;

/// The 7-byte header as found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// Offset 0: must be 0xa0.
    pub magic: u8,
    /// Offsets 1-4, little-endian.
    pub version: u32,
    /// Offset 5: must be 0xa1.
    pub tag: u8,
    /// Offset 6: 0 vertex, 1 fragment.
    pub kind: u8,
}

/// One 24-byte token: `[opcode][destination][source1][source2 or sampler]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    /// Its position, 0 for the first token.
    pub index: usize,
    /// Byte offset of its first byte in the program.
    pub offset: usize,
    /// Bytes 0-3.
    pub opcode: u32,
    /// Bytes 4-7.
    pub dest_bits: u32,
    /// Bytes 8-15.
    pub source1_bits: u64,
    /// Bytes 16-23.
    pub source2_bits: u64,
}

/// A destination field: `----TTTT----MMMMNNNNNNNNNNNNNNNN`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DestField {
    /// N: register number.
    pub number: u16,
    /// M: write mask, bit 0 = x.
    pub mask: u8,
    /// T: register type.
    pub ty: u32,
    /// The `-` bits, which must be 0.
    pub reserved: u32,
}

/// A source field:
/// `D-------------QQ----IIII----TTTTSSSSSSSSOOOOOOOONNNNNNNNNNNNNNNN`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SourceField {
    /// N: register number; for an indirect source, the index register's number.
    pub number: u16,
    /// O: indirect offset; for an indirect source, the base constant index.
    pub offset: u8,
    /// S: swizzle, two bits per component, x in the low bits.
    pub swizzle: u8,
    /// T: register type.
    pub ty: u32,
    /// I: index register type (indirect only).
    pub index_ty: u32,
    /// Q: index register component (indirect only).
    pub index_select: u8,
    /// D: indirect (relative) addressing.
    pub indirect: bool,
    /// The `-` bits, which must be 0.
    pub reserved: u64,
}

/// A sampler field (source 2 of `tex` and `tld`):
/// `FFFFMMMMWWWWSSSSDDDDXXXX----TTTT--------BBBBBBBBNNNNNNNNNNNNNNNN`
/// (X, the texture format, is in the mini-assembler but not in Adobe's page).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SamplerField {
    /// N: sampler number.
    pub number: u16,
    /// B: LOD bias × 8, signed.
    pub lod_bias: i8,
    /// T: register type, must be 5.
    pub ty: u32,
    /// X: texture format: 0 rgba, 1 dxt1, 2 dxt5, 3 video.
    pub format: u32,
    /// D: dimension: 0 2D, 1 cube, 2 3D.
    pub dimension: u32,
    /// S: special flags: 1 centroid, 2 single, 4 ignoresampler.
    pub special: u32,
    /// W: wrapping: 0 clamp, 1 repeat, 2 clamp_u_repeat_v, 3 repeat_u_clamp_v.
    pub wrap: u32,
    /// M: mipmap: 0 none, 1 nearest, 2 linear.
    pub mipmap: u32,
    /// F: filter: 0 nearest, 1 linear, 2-5 anisotropic 2x-16x.
    pub filter: u32,
    /// The `-` bits, which must be 0.
    pub reserved: u64,
}

impl Token {
    /// The destination field.
    pub fn dest(&self) -> DestField {
        let d = self.dest_bits;
        DestField {
            number: d as u16,
            mask: ((d >> 16) & 0xf) as u8,
            ty: (d >> 24) & 0xf,
            reserved: d & 0xf0f0_0000,
        }
    }
    /// Source 1.
    pub fn source1(&self) -> SourceField {
        source_field(self.source1_bits)
    }
    /// Source 2 read as a source field.
    pub fn source2(&self) -> SourceField {
        source_field(self.source2_bits)
    }
    /// Source 2 read as a sampler field.
    pub fn sampler(&self) -> SamplerField {
        let s = self.source2_bits;
        SamplerField {
            number: s as u16,
            lod_bias: (s >> 16) as u8 as i8,
            ty: ((s >> 32) & 0xf) as u32,
            format: ((s >> 40) & 0xf) as u32,
            dimension: ((s >> 44) & 0xf) as u32,
            special: ((s >> 48) & 0xf) as u32,
            wrap: ((s >> 52) & 0xf) as u32,
            mipmap: ((s >> 56) & 0xf) as u32,
            filter: ((s >> 60) & 0xf) as u32,
            reserved: s & 0x0000_00f0_ff00_0000,
        }
    }
    /// The token's bytes, as they were read.
    pub fn bytes(&self) -> [u8; TOKEN_BYTES] {
        let mut b = [0u8; TOKEN_BYTES];
        b[0..4].copy_from_slice(&self.opcode.to_le_bytes());
        b[4..8].copy_from_slice(&self.dest_bits.to_le_bytes());
        b[8..16].copy_from_slice(&self.source1_bits.to_le_bytes());
        b[16..24].copy_from_slice(&self.source2_bits.to_le_bytes());
        b
    }
}

fn source_field(s: u64) -> SourceField {
    SourceField {
        number: s as u16,
        offset: (s >> 16) as u8,
        swizzle: (s >> 24) as u8,
        ty: ((s >> 32) & 0xf) as u32,
        index_ty: ((s >> 40) & 0xf) as u32,
        index_select: ((s >> 48) & 0x3) as u8,
        indirect: s >> 63 != 0,
        reserved: s & 0x7ffc_f0f0_0000_0000,
    }
}

/// What the bytes hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded {
    /// The header, or `None` when the program is shorter than 7 bytes.
    pub header: Option<Header>,
    /// Every whole token after the header.
    pub tokens: Vec<Token>,
    /// A partial token at the end: its offset and length.
    pub trailing: Option<(usize, usize)>,
    /// The program's length in bytes.
    pub len: usize,
}

/// Decodes `bytes` (never fails; see the module documentation).
pub fn decode(bytes: &[u8]) -> Decoded {
    let header = (bytes.len() >= HEADER_BYTES).then(|| Header {
        magic: bytes[0],
        version: u32::from_le_bytes([bytes[1], bytes[2], bytes[3], bytes[4]]),
        tag: bytes[5],
        kind: bytes[6],
    });
    let body = bytes.get(HEADER_BYTES..).unwrap_or(&[]);
    let mut tokens = Vec::with_capacity(body.len() / TOKEN_BYTES);
    let mut chunks = body.chunks_exact(TOKEN_BYTES);
    for (index, t) in chunks.by_ref().enumerate() {
        let word = |at: usize| u32::from_le_bytes([t[at], t[at + 1], t[at + 2], t[at + 3]]);
        let dword = |at: usize| u64::from(word(at)) | u64::from(word(at + 4)) << 32;
        tokens.push(Token {
            index,
            offset: HEADER_BYTES + index * TOKEN_BYTES,
            opcode: word(0),
            dest_bits: word(4),
            source1_bits: dword(8),
            source2_bits: dword(16),
        });
    }
    let rest = chunks.remainder().len();
    Decoded {
        header,
        trailing: (rest > 0 && header.is_some())
            .then(|| (HEADER_BYTES + tokens.len() * TOKEN_BYTES, rest)),
        tokens,
        len: bytes.len(),
    }
}

/// Whether `bytes` start like an AGAL program (the magic byte). Text
/// programs never do: 0xa0 cannot begin UTF-8 text.
///
/// ```
/// assert!(nvp4c::front::agal::decode::is_agal(&[0xa0, 2, 0, 0, 0, 0xa1, 0]));
/// assert!(!nvp4c::front::agal::decode::is_agal(b"!!NVfp4.0"));
/// ```
pub fn is_agal(bytes: &[u8]) -> bool {
    bytes.first() == Some(&MAGIC)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_follow_the_documented_bit_layout() {
        // FACTS section 6: `mov vt0, vc[va0.x+5]`.
        let t = Token {
            index: 0,
            offset: 7,
            opcode: 0,
            dest_bits: 0x020f_0000,
            source1_bits: 0x8000_0001_e405_0000,
            source2_bits: 0,
        };
        let s = t.source1();
        assert_eq!((s.number, s.offset, s.swizzle, s.ty), (0, 5, 0xe4, 1));
        assert!(s.indirect && s.reserved == 0);
        assert_eq!((s.index_ty, s.index_select), (0, 0));
        // `tex ft0, v0, fs0 <2d,linear,repeat,mipnearest>`: 05 00 10 11 high word.
        let t = Token {
            source2_bits: 0x1110_0005_0000_0000,
            ..t
        };
        let s = t.sampler();
        assert_eq!(
            (s.ty, s.filter, s.mipmap, s.wrap, s.dimension),
            (5, 1, 1, 1, 0)
        );
    }

    #[test]
    fn short_and_partial_inputs_decode_without_panicking() {
        assert_eq!(decode(&[0xa0, 1]).header, None);
        let d = decode(&[0xa0, 1, 0, 0, 0, 0xa1, 0, 1, 2, 3]);
        assert_eq!((d.tokens.len(), d.trailing), (0, Some((7, 3))));
    }
}
