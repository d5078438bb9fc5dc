//! A small assembler: Microsoft's assembly syntax (what [`super::disasm`]
//! prints) to tokens. It is how the tests write shaders no compiler emits
//! (ps_1_x, predication, calls), how the random program generator makes
//! bytecode, and it checks the disassembler: assembling a listing gives
//! back the same tokens. It encodes; it does not validate (the checker
//! does), so it can also write the invalid shaders of the diagnostics
//! tests. `nvp4c asm` runs it, then the checker, and writes only a shader
//! without errors; what it cannot encode is [`AsmError`] (E3200).
//!
//! ```
//! let tokens = nvp4c::front::d3d9::assemble::assemble("ps_2_x\nsetp_gt p0, r0, r1\n(!p0) add r2, r2, r3\n").unwrap();
//! // FACTS §11: the predicate token right after the destination, NOT = 0xD.
//! assert_eq!(tokens, [0xFFFF0201, 0x0301005E, 0xB00F1000, 0x80E40000, 0x80E40001,
//!                     0x14000002, 0x800F0002, 0xBDE41000, 0x80E40002, 0x80E40003, 0x0000FFFF]);
//! ```

use super::table::{
    self, Comparison, Control, Form, Op, RegType, SamplerType, Shape, SrcKind, SrcMod, Usage,
    Version,
};
use crate::diag::Diagnostic;
use crate::span::Span;

/// Why a text does not assemble: the line and what is wrong with it.
///
/// ```
/// let e = nvp4c::front::d3d9::assemble::assemble("ps_2_0\n\nmovv oC0, c0\n").unwrap_err();
/// assert_eq!(e.to_string(), "line 3: unknown instruction `movv`");
/// assert_eq!((e.span.start, e.span.end), (8, 20));
/// assert_eq!(e.diagnostic().code, "E3200");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct AsmError {
    /// The line, counted from 1.
    pub line: usize,
    /// The line's text (its comment and surrounding blanks left out) in
    /// the assembled text; empty at the end for a text without a version.
    pub span: Span,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for AsmError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for AsmError {}

impl AsmError {
    /// The error as diagnostic `E3200`, with its span in the text.
    pub fn diagnostic(&self) -> Diagnostic {
        let rule = crate::codes::lookup("E3200").map_or("", |c| c.rule);
        Diagnostic::error("E3200", format!("cannot assemble: {}", self.message))
            .primary(self.span, "here")
            .note(rule.to_string())
    }
}

/// Assembles a shader; the error names the line.
pub fn assemble(text: &str) -> Result<Vec<u32>, AsmError> {
    let mut lines = significant_lines(text);
    let at = |n: usize, line: &str, message: String| AsmError {
        line: n,
        span: Span::new(
            line.as_ptr() as usize - text.as_ptr() as usize,
            line.as_ptr() as usize - text.as_ptr() as usize + line.len(),
        ),
        message,
    };
    let (n, first) = lines.next().ok_or_else(|| AsmError {
        line: text.lines().count().max(1),
        span: Span::new(text.len(), text.len()),
        message: "no version line (e.g. `vs_3_0`, `ps_2_0`) begins the shader".to_string(),
    })?;
    let version = parse_version(first)
        .ok_or_else(|| at(n, first, format!("`{first}` is no shader version")))?;
    let mut out = vec![version.token()];
    for (n, line) in lines {
        let words = instruction(line, version).map_err(|e| at(n, line, e))?;
        out.extend(words);
    }
    out.push(table::END);
    Ok(out)
}

/// [`assemble`] as little-endian bytes, the file format.
pub fn assemble_bytes(text: &str) -> Result<Vec<u8>, AsmError> {
    Ok(assemble(text)?
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect())
}

/// The lines that hold something, numbered from 1, comments (and a byte
/// order mark) stripped; each a slice of `text`.
fn significant_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    text.lines()
        .enumerate()
        .map(|(n, l)| (n + 1, strip_comment(l).trim()))
        .filter(|(_, l)| !l.is_empty())
}

/// The shader version a Direct3D 9 assembly text begins with (its first
/// line that is not blank or a comment), or `None` when it begins with
/// anything else: how `nvp4c asm` tells Direct3D 9 assembly from AGAL's.
///
/// ```
/// use nvp4c::front::d3d9::assemble::text_version;
/// assert_eq!(text_version("// a comment\n\nps_2_0\nmov oC0, c0\n").unwrap().name(), "ps_2_0");
/// assert!(text_version("// AGAL1 fragment\nmov oc, v0\n").is_none());
/// ```
pub fn text_version(text: &str) -> Option<Version> {
    significant_lines(text)
        .next()
        .and_then(|(_, first)| parse_version(first))
}

fn strip_comment(line: &str) -> &str {
    let cut = [line.find("//"), line.find(';')]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(line.len());
    &line[..cut]
}

/// `vs_2_0`, `ps_2_x`, `ps_2_a` (minor 1), `ps_2_b` (minor 2), `vs_3_sw`;
/// `vs.1.1` as Direct3D 8 wrote it.
///
/// ```
/// use nvp4c::front::d3d9::assemble::parse_version;
/// assert_eq!(parse_version("ps_2_b").unwrap().token(), 0xFFFF_0202);
/// assert_eq!(parse_version("vs.1.1").unwrap().token(), 0xFFFE_0101);
/// ```
pub fn parse_version(s: &str) -> Option<Version> {
    let s = s.replace('.', "_");
    let mut parts = s.split('_');
    let kind = parts.next()?;
    let major: u8 = parts.next()?.parse().ok()?;
    let minor = match parts.next()? {
        "x" | "a" => 1,
        "b" => 2,
        "sw" => 0xFF,
        m => m.parse().ok()?,
    };
    if parts.next().is_some() {
        return None;
    }
    match kind {
        "vs" => Some(Version::vertex(major, minor)),
        "ps" => Some(Version::pixel(major, minor)),
        _ => None,
    }
}

#[derive(Default)]
struct Suffixes {
    sat: bool,
    pp: bool,
    centroid: bool,
    shift: i32,
    comparison: Option<Comparison>,
    usage: Option<(Usage, u32)>,
    sampler: Option<SamplerType>,
}

fn instruction(line: &str, version: Version) -> Result<Vec<u32>, String> {
    let mut rest = line;
    let coissue = if let Some(r) = rest.strip_prefix('+') {
        rest = r.trim_start();
        true
    } else {
        false
    };
    let mut predicate = None;
    if let Some(r) = rest.strip_prefix('(') {
        let close = r.find(')').ok_or("unclosed predicate")?;
        predicate = Some(src_token(r[..close].trim(), version, &mut Vec::new())?);
        rest = r[close + 1..].trim_start();
    }
    let (mnemonic, operands) = match rest.find(char::is_whitespace) {
        Some(i) => (&rest[..i], rest[i..].trim()),
        None => (rest, ""),
    };
    let operands = split_operands(operands);
    let (form, control, sfx) = resolve(mnemonic, version, operands.len())?;
    let mut params: Vec<u32> = Vec::new();
    let mut ops = operands.iter();
    match form.shape {
        Shape::Dcl => {
            let dst = ops.next().ok_or("dcl needs a register")?;
            let (reg_token, rel) = dst_token(dst, version)?;
            if !rel.is_empty() {
                return Err("a declaration cannot be relative".into());
            }
            let mut decl = 0x8000_0000u32;
            if let Some((usage, index)) = sfx.usage {
                decl |= usage.encode() | (index & 0xf) << 16;
            }
            if let Some(s) = sfx.sampler {
                decl |= s.encode() << 27;
            }
            let mut reg_token = reg_token;
            if sfx.pp {
                reg_token |= 0x20_0000;
            }
            if sfx.centroid {
                reg_token |= 0x40_0000;
            }
            params.push(decl);
            params.push(reg_token);
        }
        Shape::Def(n) => {
            let dst = ops.next().ok_or("def needs a register")?;
            params.push(dst_token(dst, version)?.0);
            for _ in 0..n {
                let v = ops.next().ok_or("too few values")?;
                params.push(value(v, form.op)?);
            }
        }
        Shape::Plain => {
            if form.dst.is_some() {
                let dst = ops.next().ok_or("missing destination")?;
                let (mut t, rel) = dst_token(dst, version)?;
                if sfx.sat {
                    t |= 0x10_0000;
                }
                if sfx.pp {
                    t |= 0x20_0000;
                }
                if sfx.centroid {
                    t |= 0x40_0000;
                }
                t |= ((sfx.shift as u32) & 0xf) << 24;
                params.push(t);
                params.extend(rel);
            }
            if let Some(p) = predicate {
                params.push(p);
            }
            for (i, _) in form.srcs.iter().enumerate() {
                let s = ops
                    .next()
                    .ok_or_else(|| format!("missing source {}", i + 1))?;
                let mut rel = Vec::new();
                let t = src_token(s, version, &mut rel)?;
                params.push(t);
                params.extend(rel);
            }
        }
    }
    if ops.next().is_some() {
        return Err("too many operands".into());
    }
    let mut token = u32::from(form.code) | control << 16;
    if !version.is_sm1() {
        if params.len() > 15 {
            return Err("more than 15 parameter tokens".into());
        }
        token |= (params.len() as u32) << 24;
    }
    if predicate.is_some() {
        token |= 0x1000_0000;
    }
    if coissue {
        token |= 0x4000_0000;
    }
    let mut words = vec![token];
    words.extend(params);
    Ok(words)
}

fn split_operands(s: &str) -> Vec<&str> {
    if s.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut depth = 0;
    let mut start = 0;
    for (i, c) in s.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(s[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(s[start..].trim());
    out
}

/// The form, control bits and modifiers a mnemonic names.
fn resolve(
    mnemonic: &str,
    version: Version,
    operand_count: usize,
) -> Result<(&'static Form, u32, Suffixes), String> {
    let mut parts = mnemonic.split('_');
    let base = parts.next().unwrap_or_default().to_ascii_lowercase();
    let mut sfx = Suffixes::default();
    for p in parts {
        let p = p.to_ascii_lowercase();
        match p.as_str() {
            "sat" => sfx.sat = true,
            "pp" => sfx.pp = true,
            "centroid" => sfx.centroid = true,
            "x2" => sfx.shift = 1,
            "x4" => sfx.shift = 2,
            "x8" => sfx.shift = 3,
            "d2" => sfx.shift = -1,
            "d4" => sfx.shift = -2,
            "d8" => sfx.shift = -3,
            "1d" => sfx.sampler = Some(SamplerType::T1D),
            "2d" => sfx.sampler = Some(SamplerType::T2D),
            "cube" => sfx.sampler = Some(SamplerType::Cube),
            "volume" => sfx.sampler = Some(SamplerType::Volume),
            _ => {
                if let Some(c) = Comparison::ALL.iter().find(|c| c.name() == p) {
                    sfx.comparison = Some(*c);
                    continue;
                }
                let digits = p.trim_start_matches(|c: char| c.is_ascii_alphabetic());
                let name = &p[..p.len() - digits.len()];
                let usage = Usage::ALL
                    .iter()
                    .find(|u| u.name() == name)
                    .ok_or_else(|| format!("unknown modifier `_{p}`"))?;
                let index = if digits.is_empty() {
                    0
                } else {
                    digits
                        .parse()
                        .map_err(|_| format!("bad usage index `{digits}`"))?
                };
                sfx.usage = Some((*usage, index));
            }
        }
    }
    let (name, control) = match base.as_str() {
        "texldp" => ("texld", 1),
        "texldb" => ("texld", 2),
        b => (b, 0),
    };
    let comparison = sfx.comparison.map_or(0, Comparison::encode);
    let candidates: Vec<&'static Form> = table::FORMS
        .iter()
        .filter(|f| f.name == name)
        .filter(|f| match f.control {
            Control::Comparison => comparison != 0,
            _ => comparison == 0 || f.op == Op::Dcl,
        })
        .collect();
    if candidates.is_empty() {
        return Err(format!("unknown instruction `{base}`"));
    }
    // The form of this version, else any (the checker reports it).
    let form = candidates
        .iter()
        .copied()
        .find(|f| f.available(version))
        .or_else(|| {
            candidates
                .iter()
                .copied()
                .find(|f| operands_of(f) == operand_count)
        })
        .unwrap_or(candidates[0]);
    let control = match form.control {
        Control::Comparison => comparison,
        Control::TexLd => control,
        Control::None => 0,
    };
    Ok((form, control, sfx))
}

fn operands_of(f: &Form) -> usize {
    usize::from(f.dst.is_some())
        + f.srcs.len()
        + match f.shape {
            Shape::Def(n) => usize::from(n),
            _ => 0,
        }
}

/// A register name: type and number.
fn register(name: &str, version: Version) -> Result<(RegType, u32), String> {
    let fixed = |ty, n| Ok((ty, n));
    match name {
        "oPos" => return fixed(RegType::RastOut, 0),
        "oFog" => return fixed(RegType::RastOut, 1),
        "oPts" => return fixed(RegType::RastOut, 2),
        "oDepth" => return fixed(RegType::DepthOut, 0),
        "vPos" => return fixed(RegType::MiscType, 0),
        "vFace" => return fixed(RegType::MiscType, 1),
        "aL" => return fixed(RegType::Loop, 0),
        _ => {}
    }
    let split = name
        .find(|c: char| c.is_ascii_digit())
        .unwrap_or(name.len());
    let (prefix, digits) = name.split_at(split);
    let num: u32 = if digits.is_empty() {
        0
    } else {
        digits
            .parse()
            .map_err(|_| format!("bad register `{name}`"))?
    };
    let ty = match prefix {
        "r" => RegType::Temp,
        "v" => RegType::Input,
        "c" => RegType::Const,
        "a" => RegType::Addr,
        "t" => RegType::Texture,
        "oD" => RegType::AttrOut,
        "oT" => RegType::TexCrdOut,
        "o" => RegType::Output,
        "i" => RegType::ConstInt,
        "oC" => RegType::ColorOut,
        "s" => RegType::Sampler,
        "b" => RegType::ConstBool,
        "l" => RegType::Label,
        "p" => RegType::Predicate,
        "h" => RegType::TempFloat16,
        _ => return Err(format!("unknown register `{name}`")),
    };
    // t# and a0 share a number; the version decides which it is.
    let ty = match (ty, version.is_vertex()) {
        (RegType::Texture, true) => return Err("t# is a pixel shader register".into()),
        (RegType::Addr, false) => return Err("a0 is a vertex shader register".into()),
        (ty, _) => ty,
    };
    Ok((ty, num))
}

fn reg_bits(ty: RegType, num: u32) -> Result<u32, String> {
    let (t, n) = ty.encode(num);
    if n > 0x7ff {
        return Err(format!("register number {num} is too large"));
    }
    Ok(0x8000_0000 | (t & 7) << 28 | (t & 0x18) << 8 | n)
}

fn letters(s: &str) -> Result<Vec<u8>, String> {
    s.chars()
        .map(|c| match c {
            'x' | 'r' => Ok(0),
            'y' | 'g' => Ok(1),
            'z' | 'b' => Ok(2),
            'w' | 'a' => Ok(3),
            _ => Err(format!("bad component `{c}`")),
        })
        .collect()
}

/// `c3[a0.x]`, `c[a0.x + 3]`, `o[aL + 2]`, `v1[aL]`: the register and its
/// address token(s).
fn reg_with_rel(text: &str, version: Version) -> Result<(RegType, u32, Option<u32>), String> {
    let Some(open) = text.find('[') else {
        let (ty, n) = register(text, version)?;
        return Ok((ty, n, None));
    };
    let close = text.rfind(']').ok_or("unclosed `[`")?;
    let (ty, mut n) = register(&text[..open], version)?;
    let mut addr = None;
    for term in text[open + 1..close].split('+') {
        let term = term.trim();
        if let Ok(k) = term.parse::<u32>() {
            n += k;
        } else {
            let (reg, comp) = match term.split_once('.') {
                Some((r, c)) => (r, letters(c)?.first().copied().unwrap_or(0)),
                None => (term, 0),
            };
            let (aty, an) = register(reg, version)?;
            addr = Some(reg_bits(aty, an)? | (u32::from(comp) * 0x55) << 16);
        }
    }
    Ok((
        ty,
        n,
        Some(addr.ok_or("relative addressing needs a0 or aL")?),
    ))
}

fn dst_token(text: &str, version: Version) -> Result<(u32, Vec<u32>), String> {
    // A mask follows the register and any `[...]`.
    let after = text.rfind(']').map_or(0, |i| i + 1);
    let (reg, mask) = match text[after..].find('.') {
        Some(i) => (&text[..after + i], Some(&text[after + i + 1..])),
        None => (text, None),
    };
    let (ty, n, rel) = reg_with_rel(reg, version)?;
    let mut t = reg_bits(ty, n)?;
    let mask = match mask {
        Some(m) => letters(m)?.iter().fold(0, |acc, &c| acc | 1 << c),
        None => 0xf,
    };
    t |= mask << 16;
    let mut extra = Vec::new();
    if let Some(a) = rel {
        t |= 0x2000;
        if !version.is_sm1() {
            extra.push(a);
        }
    }
    Ok((t, extra))
}

fn src_token(text: &str, version: Version, extra: &mut Vec<u32>) -> Result<u32, String> {
    let mut s = text.trim();
    let mut neg = false;
    let mut not = false;
    let mut comp = false;
    if let Some(r) = s.strip_prefix("1 -").or_else(|| s.strip_prefix("1-")) {
        comp = true;
        s = r.trim_start();
    }
    if let Some(r) = s.strip_prefix('-') {
        neg = true;
        s = r.trim_start();
    }
    if let Some(r) = s.strip_prefix('!') {
        not = true;
        s = r.trim_start();
    }
    // The modifier suffix comes before the swizzle in Microsoft's syntax
    // (`t1_dw.xyw`); after it is accepted too.
    let mut modifier = SrcMod::None;
    let mut body = s.to_string();
    for (suffix, m) in [
        ("_bias", SrcMod::Bias),
        ("_bx2", SrcMod::Sign),
        ("_x2", SrcMod::X2),
        ("_dz", SrcMod::Dz),
        ("_db", SrcMod::Dz),
        ("_dw", SrcMod::Dw),
        ("_da", SrcMod::Dw),
        ("_abs", SrcMod::Abs),
    ] {
        if let Some(at) = body.find(suffix) {
            let after = &body[at + suffix.len()..];
            if after.is_empty() || after.starts_with('.') {
                modifier = m;
                body = format!("{}{}", &body[..at], after);
                break;
            }
        }
    }
    let s = body.as_str();
    let modifier = match (modifier, neg, comp, not) {
        (_, _, true, _) => SrcMod::Comp,
        (_, _, _, true) => SrcMod::Not,
        (SrcMod::None, true, ..) => SrcMod::Neg,
        (SrcMod::Bias, true, ..) => SrcMod::BiasNeg,
        (SrcMod::Sign, true, ..) => SrcMod::SignNeg,
        (SrcMod::X2, true, ..) => SrcMod::X2Neg,
        (SrcMod::Abs, true, ..) => SrcMod::AbsNeg,
        (m, ..) => m,
    };
    let (reg, swz) = match s.rfind('.') {
        Some(i) if !s[i..].contains(']') => (&s[..i], Some(&s[i + 1..])),
        _ => (s, None),
    };
    let (ty, n, rel) = reg_with_rel(reg, version)?;
    let mut t = reg_bits(ty, n)?;
    let swizzle = match swz {
        Some(sw) => {
            let mut c = letters(sw)?;
            if c.is_empty() || c.len() > 4 {
                return Err(format!("bad swizzle `{sw}`"));
            }
            while c.len() < 4 {
                c.push(*c.last().unwrap_or(&0));
            }
            c
        }
        None => vec![0, 1, 2, 3],
    };
    for (i, c) in swizzle.iter().enumerate() {
        t |= u32::from(*c) << (16 + 2 * i);
    }
    t |= modifier.encode() << 24;
    if let Some(a) = rel {
        t |= 0x2000;
        if !version.is_sm1() {
            extra.push(a);
        }
    }
    Ok(t)
}

fn value(text: &str, op: Op) -> Result<u32, String> {
    let t = text.trim();
    if let Some(hex) = t.strip_prefix("0x") {
        return u32::from_str_radix(hex, 16).map_err(|_| format!("bad value `{text}`"));
    }
    let t = t.trim_end_matches('f');
    match op {
        Op::DefB => match t {
            "true" => Ok(1),
            "false" => Ok(0),
            _ => Err(format!("bad boolean `{text}`")),
        },
        Op::DefI => t
            .parse::<i32>()
            .map(|v| v as u32)
            .map_err(|_| format!("bad integer `{text}`")),
        _ => t
            .parse::<f32>()
            .map(f32::to_bits)
            .map_err(|_| format!("bad float `{text}`")),
    }
}

/// Whether a source kind is one the assembler writes with an identity
/// swizzle regardless of the text (labels, samplers, `i#` of `rep`).
#[allow(dead_code)]
fn bare(kind: SrcKind) -> bool {
    matches!(
        kind,
        SrcKind::Label | SrcKind::Sampler | SrcKind::Int | SrcKind::LoopCounter
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn worked_encodings_of_facts_section_11() {
        let cases: &[(&str, &[u32])] = &[
            (
                "vs_1_1\nadd r0, r1, r2",
                &[
                    0xFFFE0101, 0x00000002, 0x800F0000, 0x80E40001, 0x80E40002, 0xFFFF,
                ],
            ),
            (
                "vs_1_1\nmov r0, c1[a0.x + 2]",
                &[0xFFFE0101, 0x00000001, 0x800F0000, 0xA0E42003, 0xFFFF],
            ),
            (
                "vs_1_1\ndcl_normal12 v15",
                &[0xFFFE0101, 0x0000001F, 0x800C0003, 0x900F000F, 0xFFFF],
            ),
            (
                "ps_1_1\ntex t0\nadd r0.rgb, r0, r1\n+mov r0.a, t0",
                &[
                    0xFFFF0101, 0x00000042, 0xB00F0000, 0x00000002, 0x80070000, 0x80E40000,
                    0x80E40001, 0x40000001, 0x80080000, 0xB0E40000, 0xFFFF,
                ],
            ),
            (
                "ps_1_3\nmov_x2_sat r0, 1 - r1",
                &[0xFFFF0103, 0x00000001, 0x811F0000, 0x86E40001, 0xFFFF],
            ),
            (
                "ps_1_3\ntexm3x3spec t3, t0, c0",
                &[
                    0xFFFF0103, 0x0000004C, 0xB00F0003, 0xB0E40000, 0xA0E40000, 0xFFFF,
                ],
            ),
            (
                "ps_1_4\ntexld r0, t0",
                &[0xFFFF0104, 0x00000042, 0x800F0000, 0xB0E40000, 0xFFFF],
            ),
            (
                "ps_2_0\nadd_pp r0, r0, c1.x",
                &[
                    0xFFFF0200, 0x03000002, 0x802F0000, 0x80E40000, 0xA0000001, 0xFFFF,
                ],
            ),
            (
                "ps_2_0\nmov_pp oC0, r0",
                &[0xFFFF0200, 0x02000001, 0x802F0800, 0x80E40000, 0xFFFF],
            ),
            (
                "vs_3_0\nloop aL, i0",
                &[0xFFFE0300, 0x0200001B, 0xF0E40800, 0xF0E40000, 0xFFFF],
            ),
            (
                "vs_3_0\nadd r0, r0, c0[aL.x]",
                &[
                    0xFFFE0300, 0x04000002, 0x800F0000, 0x80E40000, 0xA0E42000, 0xF0000800, 0xFFFF,
                ],
            ),
            (
                "ps_3_0\nsetp_gt p0.x, v0.x, c0.x",
                &[
                    0xFFFF0300, 0x0301005E, 0xB0011000, 0x90000000, 0xA0000000, 0xFFFF,
                ],
            ),
            (
                "ps_3_0\n(p0.x) mov r0, c1",
                &[
                    0xFFFF0300, 0x13000001, 0x800F0000, 0xB0001000, 0xA0E40001, 0xFFFF,
                ],
            ),
            (
                "ps_3_0\nif_gt v0.x, c0.x",
                &[0xFFFF0300, 0x02010029, 0x90000000, 0xA0000000, 0xFFFF],
            ),
            (
                "ps_3_0\ndcl_texcoord0 v0",
                &[0xFFFF0300, 0x0200001F, 0x80000005, 0x900F0000, 0xFFFF],
            ),
            (
                "ps_2_0\ndcl_2d s0",
                &[0xFFFF0200, 0x0200001F, 0x90000000, 0xA00F0800, 0xFFFF],
            ),
            (
                "ps_2_x\ncallnz l0, !b0",
                &[0xFFFF0201, 0x0200001A, 0xA0E41000, 0xEDE40800, 0xFFFF],
            ),
            (
                "ps_2_x\nlabel l0",
                &[0xFFFF0201, 0x0100001E, 0xA0E41000, 0xFFFF],
            ),
            (
                "ps_2_x\nrep i0\nbreakp p0.w\nendrep",
                &[
                    0xFFFF0201, 0x01000026, 0xF0E40000, 0x01000060, 0xB0FF1000, 0x00000027, 0xFFFF,
                ],
            ),
            (
                "ps_2_0\ntexldp r0, t1, s2",
                &[
                    0xFFFF0200, 0x03010042, 0x800F0000, 0xB0E40001, 0xA0E40802, 0xFFFF,
                ],
            ),
            (
                "ps_2_0\ntexldb r0, t1, s2",
                &[
                    0xFFFF0200, 0x03020042, 0x800F0000, 0xB0E40001, 0xA0E40802, 0xFFFF,
                ],
            ),
            (
                "ps_2_0\ndcl_cube s0\ndcl_volume s0",
                &[
                    0xFFFF0200, 0x0200001F, 0x98000000, 0xA00F0800, 0x0200001F, 0xA0000000,
                    0xA00F0800, 0xFFFF,
                ],
            ),
            (
                "vs_3_0\nmov o[a0.x + 12], r0",
                &[
                    0xFFFE0300, 0x03000001, 0xE00F200C, 0xB0000000, 0x80E40000, 0xFFFF,
                ],
            ),
            (
                "vs_3_0\nmova_sat a0.x, r1",
                &[0xFFFE0300, 0x0200002E, 0xB0110000, 0x80E40001, 0xFFFF],
            ),
            (
                "ps_3_0\ndcl_texcoord0_centroid v0",
                &[0xFFFF0300, 0x0200001F, 0x80000005, 0x904F0000, 0xFFFF],
            ),
            (
                "ps_3_0\nmov r0, vPos\nmov r0, vFace",
                &[
                    0xFFFF0300, 0x02000001, 0x800F0000, 0x90E41000, 0x02000001, 0x800F0000,
                    0x90E41001, 0xFFFF,
                ],
            ),
        ];
        for (text, words) in cases {
            assert_eq!(assemble(text).as_deref(), Ok(*words), "{text}");
        }
    }
}
