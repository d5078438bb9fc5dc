//! The disassembler: a decoded shader as Microsoft's assembly syntax, one
//! line per instruction (`nvp4c disasm`). The listing is also the "source"
//! every diagnostic of a shader points into: each line records the spans of
//! its mnemonic and operands.
//!
//! Spelling follows the asm reference pages: `vs_2_x`, `dcl_texcoord1 v1.xy`,
//! `def c0, 1, 0.5, 0, -2`, `mov_x2_sat r0, 1 - r1`, `(!p0) add r2, r2, r3`,
//! `add r0, r0, c0[aL]`; full write masks and identity swizzles are left
//! out, a replicate swizzle is one letter. Comment blocks become `//` lines
//! (a CTAB's constants are listed).
//!
//! ```
//! let words = [0xFFFE_0101u32, 0x0000_0001, 0x800F_0000, 0xA0E4_2003, 0x0000_FFFF];
//! let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
//! let listing = nvp4c::front::d3d9::disasm::disassemble(&nvp4c::front::d3d9::decode::decode(&bytes));
//! assert_eq!(listing.text, "vs_1_1\nmov r0, c3[a0.x]\n");
//! ```

use super::ctab;
use super::decode::{Dst, Instruction, Register, Shader, Src};
use super::table::{Op, RegType, SamplerType, Shape, SrcMod, Version};
use crate::span::Span;
use std::fmt::Write;

/// Where one instruction is in the listing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    /// The whole line, without its newline.
    pub span: Span,
    /// The mnemonic with its modifiers (`mov_x2_sat`, `dcl_texcoord1`).
    pub mnemonic: Span,
    /// The destination operand.
    pub dst: Option<Span>,
    /// The predicate, `(p0.x)`.
    pub predicate: Option<Span>,
    /// The source operands.
    pub srcs: Vec<Span>,
}

/// A disassembled shader.
#[derive(Clone, Debug, Default)]
pub struct Listing {
    /// The text, one instruction per line, each line ending in `\n`.
    pub text: String,
    /// The version line.
    pub header: Span,
    /// One entry per decoded instruction.
    pub lines: Vec<Line>,
    /// One entry per comment block: its first line.
    pub comments: Vec<Span>,
    /// One entry per run of tokens that are no instruction: its line, and
    /// the byte offset of its first token.
    pub skipped: Vec<(usize, Span)>,
}

impl Listing {
    /// The span of an instruction's parameter, or of its line.
    pub fn param_span(&self, instruction: usize, param: Option<super::decode::ParamRef>) -> Span {
        use super::decode::ParamRef;
        let Some(line) = self.lines.get(instruction) else {
            return self.end_span();
        };
        match param {
            Some(ParamRef::Dst) => line.dst.unwrap_or(line.span),
            Some(ParamRef::Predicate) => line.predicate.unwrap_or(line.span),
            Some(ParamRef::Src(i)) => line.srcs.get(i).copied().unwrap_or(line.span),
            Some(ParamRef::Decl) => line.mnemonic,
            None => line.span,
        }
    }
    /// A zero-width span at the end of the text.
    pub fn end_span(&self) -> Span {
        Span::new(self.text.len(), self.text.len())
    }
}

/// Disassembles a decoded shader; instructions that failed to decode are
/// printed as far as they were read.
pub fn disassemble(shader: &Shader) -> Listing {
    let mut out = Listing::default();
    let Some(version) = shader.version else {
        return out;
    };
    out.text.push_str(&version.name());
    out.header = Span::new(0, out.text.len());
    out.text.push('\n');
    let mut comments = shader.comments.iter().peekable();
    let mut skipped = shader.skipped.iter().peekable();
    for (i, inst) in shader.instructions.iter().enumerate() {
        while let Some(c) = comments.next_if(|c| c.before <= i) {
            comment_lines(&mut out, &c.data);
        }
        while let Some(s) = skipped.next_if(|s| s.before <= i) {
            skipped_line(&mut out, s);
        }
        let line = instruction_line(&mut out.text, inst, version);
        out.lines.push(line);
    }
    for c in comments {
        comment_lines(&mut out, &c.data);
    }
    for s in skipped {
        skipped_line(&mut out, s);
    }
    out
}

/// Tokens that are no instruction, as a comment line (at most eight shown).
fn skipped_line(out: &mut Listing, s: &super::decode::Skipped) {
    let start = out.text.len();
    out.text.push_str("// not an instruction:");
    for w in s.words.iter().take(8) {
        let _ = write!(out.text, " {w:08X}");
    }
    if s.words.len() > 8 {
        let _ = write!(out.text, " ... ({} tokens)", s.words.len());
    }
    out.skipped
        .push((s.offset, Span::new(start, out.text.len())));
    out.text.push('\n');
}

fn comment_lines(out: &mut Listing, data: &[u32]) {
    let start = out.text.len();
    match ctab::parse(data) {
        Some(Ok(table)) => {
            let creator = if table.creator.is_empty() {
                String::new()
            } else {
                format!(", by {}", table.creator)
            };
            let _ = writeln!(
                out.text,
                "// CTAB constant table ({} words{creator}):",
                data.len()
            );
            for c in &table.constants {
                let _ = writeln!(out.text, "//   {}", c.describe());
            }
        }
        Some(Err(e)) => {
            let _ = writeln!(
                out.text,
                "// CTAB constant table ({} words), unreadable: {e}",
                data.len()
            );
        }
        None => {
            let tag = data
                .first()
                .map(|w| w.to_le_bytes())
                .filter(|b| b.iter().all(|c| c.is_ascii_graphic()))
                .map(|b| format!(" {}", String::from_utf8_lossy(&b)))
                .unwrap_or_default();
            let _ = writeln!(out.text, "// comment block{tag} ({} words)", data.len());
        }
    }
    // The span is the first line.
    let first_end = out.text[start..]
        .find('\n')
        .map_or(out.text.len(), |n| start + n);
    out.comments.push(Span::new(start, first_end));
}

struct LineWriter<'t> {
    text: &'t mut String,
}

impl LineWriter<'_> {
    fn push(&mut self, s: &str) -> Span {
        let start = self.text.len();
        self.text.push_str(s);
        Span::new(start, self.text.len())
    }
}

fn instruction_line(text: &mut String, inst: &Instruction, version: Version) -> Line {
    let start = text.len();
    let mut w = LineWriter { text };
    let mut line = Line::default();
    if inst.coissue && version.is_sm1() {
        w.push("+");
    }
    if let Some(p) = &inst.predicate {
        line.predicate = Some(w.push(&format!("({})", src_text(p, version, inst))));
        w.push(" ");
    }
    line.mnemonic = w.push(&mnemonic_text(inst, version));
    let mut first = true;
    let mut sep = |w: &mut LineWriter| {
        w.push(if first { " " } else { ", " });
        first = false;
    };
    if let Some(d) = &inst.dst {
        sep(&mut w);
        line.dst = Some(w.push(&dst_text(d, version, inst)));
    }
    if let Shape::Def(_) = inst.form.shape {
        for (k, &v) in inst.values.iter().enumerate() {
            sep(&mut w);
            let s = match inst.form.op {
                Op::DefI => (v as i32).to_string(),
                Op::DefB => if v != 0 { "true" } else { "false" }.to_string(),
                _ => float_text(v),
            };
            let span = w.push(&s);
            if k == 0 && line.srcs.is_empty() {
                // The values are the "sources" of a def for diagnostics.
            }
            line.srcs.push(span);
        }
    }
    for s in &inst.srcs {
        sep(&mut w);
        line.srcs.push(w.push(&src_text(s, version, inst)));
    }
    line.span = Span::new(start, w.text.len());
    w.text.push('\n');
    line
}

/// A float constant as the assembler reads it back: the shortest decimal
/// that round-trips, or the bits in hex for NaN and infinities.
///
/// ```
/// use nvp4c::front::d3d9::disasm::float_text;
/// assert_eq!(float_text(0.5f32.to_bits()), "0.5");
/// assert_eq!(float_text((-4.0f32).to_bits()), "-4");
/// assert_eq!(float_text(f32::NAN.to_bits()), "0x7fc00000");
/// ```
pub fn float_text(bits: u32) -> String {
    let v = f32::from_bits(bits);
    if !v.is_finite() {
        return format!("{bits:#010x}");
    }
    let plain = format!("{v}");
    if plain.len() > 12 {
        format!("{v:e}")
    } else {
        plain
    }
}

fn mnemonic_text(inst: &Instruction, version: Version) -> String {
    let mut m = inst.mnemonic();
    if inst.form.op == Op::Dcl {
        if let (Some(decl), Some(dst)) = (&inst.decl, &inst.dst) {
            m = dcl_mnemonic(decl, dst, version);
        }
        return m;
    }
    if let Some(d) = &inst.dst {
        m.push_str(&dst_modifier_text(d));
    }
    m
}

/// `_x2`, `_sat`, `_pp`, `_centroid` in that order.
fn dst_modifier_text(d: &Dst) -> String {
    let mut m = String::new();
    match d.shift {
        0 => {}
        1 => m.push_str("_x2"),
        2 => m.push_str("_x4"),
        3 => m.push_str("_x8"),
        -1 => m.push_str("_d2"),
        -2 => m.push_str("_d4"),
        -3 => m.push_str("_d8"),
        s => {
            let _ = write!(m, "_shift{s}");
        }
    }
    if d.sat {
        m.push_str("_sat");
    }
    if d.pp {
        m.push_str("_pp");
    }
    if d.centroid {
        m.push_str("_centroid");
    }
    m
}

fn dcl_mnemonic(decl: &super::decode::Decl, dst: &Dst, version: Version) -> String {
    let mut m = String::from("dcl");
    match dst.reg.ty {
        RegType::Sampler if decl.sampler != SamplerType::Unknown => {
            m.push('_');
            m.push_str(decl.sampler.name());
        }
        RegType::MiscType => {}
        RegType::Input | RegType::Output if version.major >= 3 || version.is_vertex() => {
            m.push('_');
            m.push_str(decl.usage.name());
            if decl.index != 0 {
                let _ = write!(m, "{}", decl.index);
            }
        }
        _ => {}
    }
    // Declarations carry _pp and _centroid, never a shift or _sat.
    m.push_str(&dst_modifier_text(&Dst {
        shift: 0,
        sat: false,
        ..dst.clone()
    }));
    m
}

/// A register's assembler name: `r0`, `c12`, `oPos`, `vFace`, `aL`.
///
/// ```
/// use nvp4c::front::d3d9::{decode::Register, disasm::register_name, table::{RegType, Version}};
/// assert_eq!(register_name(Register { ty: RegType::RastOut, num: 1 }, Version::vertex(1, 1)), "oFog");
/// assert_eq!(register_name(Register { ty: RegType::TexCrdOut, num: 3 }, Version::vertex(2, 0)), "oT3");
/// ```
pub fn register_name(reg: Register, _version: Version) -> String {
    let n = reg.num;
    match reg.ty {
        RegType::Temp => format!("r{n}"),
        RegType::Input => format!("v{n}"),
        RegType::Const => format!("c{n}"),
        RegType::Addr => format!("a{n}"),
        RegType::Texture => format!("t{n}"),
        RegType::RastOut => match n {
            0 => "oPos".to_string(),
            1 => "oFog".to_string(),
            2 => "oPts".to_string(),
            _ => format!("oRast{n}"),
        },
        RegType::AttrOut => format!("oD{n}"),
        RegType::TexCrdOut => format!("oT{n}"),
        RegType::Output => format!("o{n}"),
        RegType::ConstInt => format!("i{n}"),
        RegType::ColorOut => format!("oC{n}"),
        RegType::DepthOut => {
            if n == 0 {
                "oDepth".to_string()
            } else {
                format!("oDepth{n}")
            }
        }
        RegType::Sampler => format!("s{n}"),
        RegType::ConstBool => format!("b{n}"),
        RegType::Loop => "aL".to_string(),
        RegType::TempFloat16 => format!("h{n}"),
        RegType::MiscType => match n {
            0 => "vPos".to_string(),
            1 => "vFace".to_string(),
            _ => format!("vMisc{n}"),
        },
        RegType::Label => format!("l{n}"),
        RegType::Predicate => format!("p{n}"),
    }
}

const LETTERS: [char; 4] = ['x', 'y', 'z', 'w'];

/// A write mask: empty for all four.
pub fn mask_text(mask: u8) -> String {
    if mask == 0xf {
        return String::new();
    }
    let mut s = String::from(".");
    for (c, letter) in LETTERS.iter().enumerate() {
        if mask & (1 << c) != 0 {
            s.push(*letter);
        }
    }
    s
}

/// A swizzle: empty for `.xyzw`, one letter for a replicate, else four.
pub fn swizzle_text(swizzle: [u8; 4]) -> String {
    if swizzle == [0, 1, 2, 3] {
        return String::new();
    }
    if swizzle.iter().all(|&c| c == swizzle[0]) {
        return format!(".{}", LETTERS[usize::from(swizzle[0] & 3)]);
    }
    let mut s = String::from(".");
    for &c in &swizzle {
        s.push(LETTERS[usize::from(c & 3)]);
    }
    s
}

fn relative_text(reg: Register, rel: &super::decode::RelAddr, version: Version) -> String {
    let base = register_name(reg, version);
    let addr = match rel.reg.ty {
        RegType::Loop => "aL".to_string(),
        _ => format!(
            "{}.{}",
            register_name(rel.reg, version),
            LETTERS[usize::from(rel.component & 3)]
        ),
    };
    format!("{base}[{addr}]")
}

fn dst_text(d: &Dst, version: Version, inst: &Instruction) -> String {
    let mut s = match &d.rel {
        Some(rel) => relative_text(d.reg, rel, version),
        None => register_name(d.reg, version),
    };
    // A declaration of a sampler has no mask worth printing.
    if !(inst.form.op == Op::Dcl && d.reg.ty == RegType::Sampler) {
        s.push_str(&mask_text(d.mask));
    }
    s
}

fn src_text(src: &Src, version: Version, inst: &Instruction) -> String {
    let mut reg = match &src.rel {
        Some(rel) => relative_text(src.reg, rel, version),
        None => register_name(src.reg, version),
    };
    // Operands whose swizzle means nothing are printed bare.
    let bare = matches!(
        src.reg.ty,
        RegType::Label | RegType::Sampler | RegType::ConstBool | RegType::Loop
    ) || (src.reg.ty == RegType::ConstInt && matches!(inst.form.op, Op::Rep | Op::Loop));
    let swizzle = if bare {
        String::new()
    } else {
        swizzle_text(src.swizzle)
    };
    // Microsoft's order: sign, register, modifier, swizzle (`t1_dw.xyw`,
    // `-r0_bias.a`).
    let m = src.modifier;
    let sign = if m == SrcMod::Not {
        "!"
    } else if m == SrcMod::Comp {
        "1 - "
    } else if m.negates() {
        "-"
    } else {
        ""
    };
    let suffix = match m.base() {
        SrcMod::Bias => "_bias",
        SrcMod::Sign => "_bx2",
        SrcMod::X2 => "_x2",
        SrcMod::Dz => "_dz",
        SrcMod::Dw => "_dw",
        SrcMod::Abs => "_abs",
        _ => "",
    };
    reg.push_str(suffix);
    format!("{sign}{reg}{swizzle}")
}
