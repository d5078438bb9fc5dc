//! Tokens → AGAL assembly text, one line per token, in the syntax
//! AGALMiniAssembler accepts (assembling the listing of a valid program
//! with the header's stage and version gives back the same bytes). The
//! listing is also the "source" that diagnostics about bytecode point into:
//! [`Listing::spans`] gives each token's line and operands.
//!
//! ```
//! let bytes = nvp4c::front::agal::assemble("m44 op, va0, vc0\nmov v0, va1\n", nvp4c::Stage::Vertex, 1).unwrap().bytes;
//! let listing = nvp4c::front::agal::disasm::disassemble(&bytes);
//! assert_eq!(listing.text, "// AGAL1 vertex program, 2 tokens\nm44 op, va0, vc0\nmov v0, va1\n");
//! ```

use std::fmt::Write;

use super::decode::{decode, Decoded, SourceField, Token, MAGIC, TYPE_TAG};
use super::table::{OpDef, Operands, RegisterType, SAMPLER_OPTIONS, SPECIAL_SHIFT};
use super::TokenSpans;
use crate::span::Span;
use crate::Stage;

/// A disassembly and where each token is in it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Listing {
    /// The text: a header comment line, then one line per token.
    pub text: String,
    /// The header comment line.
    pub header: Span,
    /// Per token, its line and operands.
    pub spans: Vec<TokenSpans>,
    /// The comment line about a partial token at the end, if any.
    pub trailing: Option<Span>,
}

/// The header comment of a listing for a program of `stage` and `version`
/// (also how AGAL assembly text names its stage and version; see
/// [`super::header_directive`]).
///
/// ```
/// assert_eq!(nvp4c::front::agal::disasm::header_line(nvp4c::Stage::Fragment, 2, 5), "// AGAL2 fragment program, 5 tokens");
/// ```
pub fn header_line(stage: Stage, version: u32, tokens: usize) -> String {
    format!(
        "// AGAL{version} {stage} program, {tokens} token{}",
        if tokens == 1 { "" } else { "s" }
    )
}

/// The stage a header's type byte names.
pub(crate) fn header_stage(kind: u8) -> Option<Stage> {
    match kind {
        0 => Some(Stage::Vertex),
        1 => Some(Stage::Fragment),
        _ => None,
    }
}

/// Disassembles `bytes` (any bytes: what cannot be shown as assembly is
/// shown as a comment, and the checker reports it).
pub fn disassemble(bytes: &[u8]) -> Listing {
    listing(&decode(bytes))
}

/// The listing of decoded bytecode.
pub fn listing(decoded: &Decoded) -> Listing {
    let mut text = String::new();
    let stage = decoded
        .header
        .and_then(|h| header_stage(h.kind))
        .unwrap_or(Stage::Vertex);
    match decoded.header {
        None => {
            let _ = write!(
                text,
                "// not an AGAL program: {} byte{}, the header needs 7",
                decoded.len,
                if decoded.len == 1 { "" } else { "s" }
            );
        }
        Some(h) if h.magic != MAGIC || h.tag != TYPE_TAG || header_stage(h.kind).is_none() => {
            let _ = write!(
                text,
                "// AGAL header {:02x} {:08x} {:02x} {:02x}: magic 0xa0, version, tag 0xa1, type 0 (vertex) or 1 (fragment) expected",
                h.magic, h.version, h.tag, h.kind
            );
        }
        Some(h) => text.push_str(&header_line(stage, h.version, decoded.tokens.len())),
    }
    let header = Span::new(0, text.len());
    text.push('\n');
    let mut spans = Vec::with_capacity(decoded.tokens.len());
    for token in &decoded.tokens {
        spans.push(write_token(&mut text, token, stage));
        text.push('\n');
    }
    let trailing = decoded.trailing.map(|(offset, len)| {
        let start = text.len();
        let _ = write!(
            text,
            "// {len} byte{} at byte {offset}: a partial token (tokens are 24 bytes)",
            if len == 1 { "" } else { "s" }
        );
        let span = Span::new(start, text.len());
        text.push('\n');
        span
    });
    Listing {
        text,
        header,
        spans,
        trailing,
    }
}

/// Writes one token's line and returns its spans.
fn write_token(text: &mut String, token: &Token, stage: Stage) -> TokenSpans {
    let start = text.len();
    let Some(op) = OpDef::by_code(token.opcode) else {
        let _ = write!(text, "// unknown opcode 0x{:02x}:", token.opcode);
        for b in token.bytes().chunks(4) {
            let _ = write!(text, " {:02x}{:02x}{:02x}{:02x}", b[0], b[1], b[2], b[3]);
        }
        let line = Span::new(start, text.len());
        return TokenSpans {
            line,
            opcode: line,
            operands: [None; 3],
        };
    };
    text.push_str(op.name);
    let opcode = Span::new(start, text.len());
    let mut operands = [None; 3];
    let mut first = true;
    let mut operand = |text: &mut String, slot: usize, f: &dyn Fn(&mut String)| {
        text.push_str(if first { " " } else { ", " });
        first = false;
        let s = text.len();
        f(text);
        operands[slot] = Some(Span::new(s, text.len()));
    };
    if op.operands.has_dest() {
        let d = token.dest();
        operand(text, 0, &|t| {
            register(t, d.ty, u32::from(d.number), stage);
            if d.mask != 0xf {
                t.push('.');
                for c in 0..4 {
                    if d.mask & (1 << c) != 0 {
                        t.push(b"xyzw"[c] as char);
                    }
                }
            }
        });
    }
    if op.operands.sources() >= 1 {
        let s = token.source1();
        operand(text, 1, &|t| source(t, &s, stage));
    }
    if op.operands == Operands::DestSourceSampler {
        let s = token.sampler();
        operand(text, 2, &|t| {
            register(t, s.ty, u32::from(s.number), stage);
            t.push_str(" <");
            let mut words: Vec<String> = Vec::new();
            let mut word = |shift: u32, value: u32| {
                if let Some((w, _, _)) = SAMPLER_OPTIONS
                    .iter()
                    .find(|(_, sh, v)| *sh == shift && *v == value)
                {
                    words.push((*w).to_string());
                } else {
                    words.push(format!("#{shift}:{value}"));
                }
            };
            word(12, s.dimension);
            word(28, s.filter);
            word(20, s.wrap);
            word(24, s.mipmap);
            if s.format != 0 {
                word(8, s.format);
            }
            for bit in [1, 2, 4, 8] {
                if s.special & bit != 0 {
                    word(SPECIAL_SHIFT, bit);
                }
            }
            if s.lod_bias != 0 {
                words.push(format!("{}", f64::from(s.lod_bias) / 8.0));
            }
            t.push_str(&words.join(","));
            t.push('>');
        });
    } else if op.operands.sources() >= 2 {
        let s = token.source2();
        operand(text, 2, &|t| source(t, &s, stage));
    }
    TokenSpans {
        line: Span::new(start, text.len()),
        opcode,
        operands,
    }
}

/// A register's name and number: `vt3`, `op`, `fs0`; `#T:N` for a type
/// with no name (invalid; the checker says so).
fn register(text: &mut String, ty: u32, number: u32, stage: Stage) {
    let rt = RegisterType::from_bits(ty);
    let other = match stage {
        Stage::Vertex => Stage::Fragment,
        _ => Stage::Vertex,
    };
    match rt.and_then(|r| r.name(stage).or_else(|| r.name(other))) {
        Some(name) => {
            text.push_str(name);
            // The mini-assembler reads no number after `op`, `oc`, `od` as 0.
            let single = matches!(rt, Some(RegisterType::Output | RegisterType::DepthOutput))
                || rt == Some(RegisterType::InstanceId);
            if !(single && number == 0) {
                let _ = write!(text, "{number}");
            }
        }
        None => {
            let _ = write!(text, "#{ty}:{number}");
        }
    }
}

/// The shortest swizzle suffix the mini-assembler expands to `swizzle`
/// (it repeats the last component given; none is .xyzw).
///
/// ```
/// use nvp4c::front::agal::disasm::swizzle_suffix;
/// assert_eq!(swizzle_suffix(0xe4), "");
/// assert_eq!(swizzle_suffix(0x00), ".x");
/// assert_eq!(swizzle_suffix(0x54), ".xy"); // .xyyy
/// assert_eq!(swizzle_suffix(0x1b), ".wzyx");
/// ```
pub fn swizzle_suffix(swizzle: u8) -> String {
    if swizzle == 0xe4 {
        return String::new();
    }
    let c: [u8; 4] = std::array::from_fn(|i| (swizzle >> (2 * i)) & 3);
    let mut n = 4;
    while n > 1 && c[n - 1] == c[n - 2] {
        n -= 1;
    }
    let mut s = String::from(".");
    for &x in &c[..n] {
        s.push(b"xyzw"[x as usize] as char);
    }
    s
}

fn source(text: &mut String, s: &SourceField, stage: Stage) {
    if s.indirect {
        register(text, s.ty, 0, stage);
        // `vc0` → `vc[va0.x+5]`: the number is the index register's.
        while text.ends_with(|c: char| c.is_ascii_digit()) {
            text.pop();
        }
        text.push('[');
        register(text, s.index_ty, u32::from(s.number), stage);
        text.push('.');
        text.push(b"xyzw"[s.index_select as usize] as char);
        if s.offset != 0 {
            let _ = write!(text, "+{}", s.offset);
        }
        text.push(']');
    } else {
        register(text, s.ty, u32::from(s.number), stage);
    }
    text.push_str(&swizzle_suffix(s.swizzle));
}
