//! AGAL assembly text → bytecode, exactly as Adobe's AGALMiniAssembler
//! produces it.
//!
//! AGALMiniAssembler is not a parser with a grammar: it cuts each line with
//! a handful of regular expressions (openfl 8.9.6's port, the one that runs
//! under node, and Adobe's v3 ActionScript original). To give the same
//! bytes for the same text, this module reproduces those steps one by one —
//! comments (`//`), the sampler options (`<` to the last `>`), the opcode
//! (the first three characters, lower case), the operands (every match of
//! the operand expression, commas or not), register names, masks and
//! swizzles (lower case `.xyzw`, the last component repeated), relative
//! addresses `vc[va0.x+5]` and the sampler bits — including the quirks a
//! program may depend on: a line whose first three characters are not an
//! opcode is skipped (nvp4c warns, W2001), a sampler option it does not know
//! is read as a number for the LOD bias (W2002).
//!
//! Where the two assemblers differ, nvp4c takes the v3 original's side: it
//! knows `tld` and the vertex samplers `vs0`-`vs3`, and `fs8`-`fs15`.
//! It refuses what AGALMiniAssembler refuses about the text itself
//! (operand counts, register names and their limits, relative addresses:
//! E2100-E2106); whether opcodes, registers and versions fit together is
//! the checker's job, the same rules as for bytecode.
//!
//! ```
//! let a = nvp4c::front::agal::asm::assemble("mov oc, v0", nvp4c::Stage::Fragment, 1).unwrap();
//! assert_eq!(a.bytes, [0xa0, 1, 0, 0, 0, 0xa1, 1,
//!                      0, 0, 0, 0, 0, 0, 0x0f, 3, 0, 0, 0, 0xe4, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
//! ```

use super::table::{OpDef, Operands, SAMPLER_OPTIONS, SPECIAL_SHIFT};
use super::TokenSpans;
use crate::span::Span;
use crate::{Diagnostic, Diagnostics, Stage};

/// AGALMiniAssembler's `MAX_OPCODES`.
pub const MAX_OPCODES: usize = 4096;

/// The bytes of an assembled program and where each token came from.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Assembled {
    /// The bytecode: header and tokens.
    pub bytes: Vec<u8>,
    /// Per token: its line, opcode and operands in the text.
    pub spans: Vec<TokenSpans>,
    /// Lines skipped and options not understood (W2001-W2003).
    pub warnings: Diagnostics,
}

/// A register name the mini-assembler knows: `(name, emitted type,
/// vertex, fragment, canonical name)`. The canonical name matters: the
/// number is read after it (so `op`, whose canonical name is `vo`, reads
/// its number after one character).
const REGISTERS: &[(&str, u8, bool, bool, &str)] = &[
    ("va", 0, true, false, "va"),
    ("vc", 1, true, false, "vc"),
    ("vt", 2, true, false, "vt"),
    ("vo", 3, true, false, "vo"),
    ("vi", 4, true, true, "vi"),
    ("fc", 1, false, true, "fc"),
    ("ft", 2, false, true, "ft"),
    ("fs", 5, false, true, "fs"),
    ("fo", 3, false, true, "fo"),
    ("fd", 6, false, true, "fd"),
    ("iid", 7, true, false, "iid"),
    ("vs", 5, true, false, "vs"),
    ("op", 3, true, false, "vo"),
    ("i", 4, true, true, "vi"),
    ("v", 4, true, true, "vi"),
    ("oc", 3, false, true, "fo"),
    ("od", 6, false, true, "fd"),
    ("fi", 4, true, true, "vi"),
];

fn register(name: &str) -> Option<&'static (&'static str, u8, bool, bool, &'static str)> {
    REGISTERS.iter().find(|r| r.0 == name)
}

/// Assembles `text` for a program of `stage` and AGAL `version` (1 to 3).
///
/// Errors are what the bytecode could not express (E2100-E2105); a
/// program that assembles may still break the format's rules, which
/// [`super::check`] reports.
pub fn assemble(text: &str, stage: Stage, version: u32) -> Result<Assembled, Diagnostics> {
    let mut bytes = vec![0xa0];
    bytes.extend_from_slice(&version.to_le_bytes());
    bytes.push(0xa1);
    bytes.push(u8::from(stage == Stage::Fragment));
    let mut spans = Vec::new();
    let mut warnings = Vec::new();
    let mut errors = Vec::new();
    // The Haxe port turns every \r into \n before splitting lines.
    let mut line_start = 0;
    let mut lines = Vec::new();
    for (i, c) in text.char_indices() {
        if c == '\n' || c == '\r' {
            lines.push((line_start, i));
            line_start = i + 1;
        }
    }
    lines.push((line_start, text.len()));
    for (start, end) in lines {
        if spans.len() >= MAX_OPCODES {
            errors.push(
                Diagnostic::error(
                    "E2104",
                    format!("more than {MAX_OPCODES} instructions"),
                )
                .primary(Span::new(start, end), "instruction 4097")
                .note("AGALMiniAssembler stops at MAX_OPCODES = 4096 tokens; AGAL3 programs may have at most 2048"),
            );
            break;
        }
        match assemble_line(text, start, end, stage, version, &mut bytes) {
            Line::Empty => {}
            Line::Error(d) => errors.push(d),
            Line::Skipped(d) => warnings.push(d),
            Line::Token(s, w) => {
                spans.push(s);
                warnings.extend(w);
            }
        }
    }
    if errors.is_empty() {
        Ok(Assembled {
            bytes,
            spans,
            warnings: Diagnostics(warnings),
        })
    } else {
        errors.extend(warnings);
        errors.sort_by_key(|d| d.primary_span().map(|s| s.start));
        Err(Diagnostics(errors))
    }
}

enum Line {
    Empty,
    Skipped(Diagnostic),
    Error(Diagnostic),
    Token(TokenSpans, Vec<Diagnostic>),
}

/// JavaScript's `String.prototype.trim` as Haxe's `StringTools.trim` does
/// it: characters 9-13 and space.
fn is_haxe_space(b: u8) -> bool {
    (9..14).contains(&b) || b == b' '
}

fn assemble_line(
    text: &str,
    start: usize,
    end: usize,
    stage: Stage,
    version: u32,
    out: &mut Vec<u8>,
) -> Line {
    let raw = &text.as_bytes()[start..end];
    let mut a = 0;
    let mut b = raw.len();
    while a < b && is_haxe_space(raw[a]) {
        a += 1;
    }
    while b > a && is_haxe_space(raw[b - 1]) {
        b -= 1;
    }
    // Offsets from here on are into `text`.
    let (mut lo, mut hi) = (start + a, start + b);
    let line_span = Span::new(lo, hi);
    if let Some(c) = text[lo..hi].find("//") {
        hi = lo + c;
    }
    // Options: the first `<` with a later `>` (JavaScript's `.` stops at
    // line terminators), to the last such `>`; the option words are read
    // from the `<` to the end of the line.
    let mut options: Option<(usize, usize)> = None;
    {
        let s = &text[lo..hi];
        for (p, _) in s.match_indices('<') {
            let rest = &s[p..];
            let segment_end = rest.find(['\u{2028}', '\u{2029}']).unwrap_or(rest.len());
            if let Some(q) = rest[..segment_end].rfind('>') {
                options = Some((lo + p, lo + p + q + 1));
                break;
            }
        }
    }
    let option_words: Vec<(usize, usize)> = match options {
        Some((p, _)) => words(text, p, hi),
        None => Vec::new(),
    };
    let code_end = options.map_or(hi, |(p, _)| p);
    let code = &text[lo..code_end];
    let head = code.as_bytes();
    let is_word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let op = if head.len() >= 3 && head[..3].iter().all(|&c| is_word(c)) {
        OpDef::by_name(&code[..3])
    } else {
        None
    };
    let Some(op) = op else {
        if code.len() >= 3 {
            let first = code.split_whitespace().next().unwrap_or(code);
            let mut d = Diagnostic::warning(
                "W2001",
                format!("line ignored: `{first}` is not an AGAL instruction"),
            )
            .primary(Span::new(lo, code_end), "skipped")
            .note("AGALMiniAssembler skips a line whose first three characters are not an opcode (it only traces a warning)");
            if let Some(known) = first
                .get(..3)
                .and_then(|f| OpDef::by_name(&f.to_ascii_lowercase()))
            {
                d = d.note(format!("opcodes are lower case: `{}`", known.name));
            }
            return Line::Skipped(d);
        }
        return Line::Empty;
    };
    let opcode_span = Span::new(lo, lo + 3);
    lo += 3;
    let operands = operand_matches(text, lo, code_end);
    let expected = op.operands.assembler_count();
    if operands.len() != expected {
        let mut d = Diagnostic::error(
            "E2100",
            format!(
                "`{}` takes {expected} operand{}, found {}",
                op.name,
                if expected == 1 { "" } else { "s" },
                operands.len()
            ),
        )
        .primary(line_span, "in this instruction");
        for &(s, e) in &operands {
            d = d.secondary(Span::new(s, e), "read as an operand");
        }
        return Line::Error(d.note(
            "AGALMiniAssembler takes every word starting with v, o, f or i (optionally `vc[...]`) as an operand",
        ));
    }
    let mut warnings = Vec::new();
    if options.is_some() && op.operands != Operands::DestSourceSampler {
        let (p, q) = options.unwrap_or_default();
        warnings.push(
            Diagnostic::warning(
                "W2003",
                format!("sampler options on `{}`, which has no sampler", op.name),
            )
            .primary(Span::new(p, q), "ignored")
            .note("only `tex` and `tld` take <...> options"),
        );
    }
    let token_start = out.len();
    out.extend_from_slice(&op.code.to_le_bytes());
    let mut slots = [None; 3];
    let mut written_bits = 32;
    for (j, &(s, e)) in operands.iter().enumerate() {
        let is_dest = j == 0 && op.operands.has_dest();
        let is_sampler = j == 2 && op.operands == Operands::DestSourceSampler;
        let slot = if op.operands.has_dest() { j } else { j + 1 };
        let span = Span::new(s, e);
        slots[slot] = Some(match (is_sampler, options) {
            (true, Some((_, q))) if q >= e => Span::new(s, q),
            _ => span,
        });
        let encoded = match encode_operand(&text[s..e], span, stage, version, is_dest) {
            Ok(x) => x,
            Err(d) => {
                out.truncate(token_start);
                return Line::Error(d);
            }
        };
        if is_dest {
            out.extend_from_slice(&(encoded.number as u16).to_le_bytes());
            out.push(encoded.mask);
            out.push(encoded.ty);
            written_bits += 32;
        } else if is_sampler {
            let mut bits: u32 = 5;
            let mut bias = 0.0f64;
            for &(ws, we) in &option_words {
                let word = &text[ws..we];
                match SAMPLER_OPTIONS.iter().find(|(w, _, _)| *w == word) {
                    Some(&(_, shift, value)) => {
                        if shift != SPECIAL_SHIFT {
                            bits &= !(0xf << shift);
                        }
                        bits |= value << shift;
                    }
                    None => {
                        let (value, used) = js_parse_float(word);
                        bias = value;
                        if used != word.len() {
                            warnings.push(unknown_option(word, value, Span::new(ws, we)));
                        }
                    }
                }
            }
            out.extend_from_slice(&(encoded.number as u16).to_le_bytes());
            out.push(js_to_int32(bias * 8.0) as u8);
            out.push(0);
            out.extend_from_slice(&bits.to_le_bytes());
            written_bits += 64;
        } else {
            if j == 0 {
                out.extend_from_slice(&[0; 4]);
                written_bits += 32;
            }
            out.extend_from_slice(&(encoded.number as u16).to_le_bytes());
            out.push(encoded.offset);
            out.push(encoded.mask);
            out.push(encoded.ty);
            out.push(encoded.index_ty);
            let select: u16 = if encoded.relative {
                u16::from(encoded.index_select) | 0x8000
            } else {
                0
            };
            out.extend_from_slice(&select.to_le_bytes());
            written_bits += 64;
        }
    }
    out.extend(std::iter::repeat_n(0u8, (192 - written_bits) / 8));
    Line::Token(
        TokenSpans {
            line: line_span,
            opcode: opcode_span,
            operands: slots,
        },
        warnings,
    )
}

fn unknown_option(word: &str, value: f64, span: Span) -> Diagnostic {
    let lower = word.to_ascii_lowercase();
    let mut d = Diagnostic::warning("W2002", format!("unknown sampler option `{word}`"))
        .primary(
            span,
            format!(
                "read as a LOD bias of {}",
                f64::from(js_to_int32(value * 8.0) as u8 as i8) / 8.0
            ),
        )
        .note("AGALMiniAssembler reads any option word it does not know as a number, the LOD bias");
    if SAMPLER_OPTIONS.iter().any(|(w, _, _)| *w == lower) {
        d = d.note(format!("sampler options are lower case: `{lower}`"));
    }
    d
}

/// The `[\w.\-+]+` words from `from` to `to`: the option words.
fn words(text: &str, from: usize, to: usize) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let is_word = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'-' | b'+');
    let mut out = Vec::new();
    let mut i = from;
    while i < to {
        if is_word(b[i]) {
            let s = i;
            while i < to && is_word(b[i]) {
                i += 1;
            }
            out.push((s, i));
        } else {
            i += 1;
        }
    }
    out
}

/// Every match of AGALMiniAssembler's operand expression
/// `vc\[([vofi][acostdip]?[d]?)(\d*)?(\.[xyzw](\+\d{1,3})?)?\](\.[xyzw]{1,4})?|([vofi][acostdip]?[d]?)(\d*)?(\.[xyzw]{1,4})?`
/// (case-insensitive) in `text[from..to]`, leftmost first. Each optional
/// part is followed by characters it cannot match, so taking each greedily
/// is exactly what the backtracking engine does.
pub(crate) fn operand_matches(text: &str, from: usize, to: usize) -> Vec<(usize, usize)> {
    let b = &text.as_bytes()[..to];
    let mut out = Vec::new();
    let mut p = from;
    while p < to {
        if let Some(e) = relative_operand_at(b, p).or_else(|| plain_operand_at(b, p)) {
            out.push((p, e));
            p = e;
        } else {
            p += 1;
        }
    }
    out
}

fn in_set(b: &[u8], i: usize, set: &[u8]) -> bool {
    b.get(i)
        .is_some_and(|c| set.contains(&c.to_ascii_lowercase()))
}

/// `[vofi][acostdip]?[d]?(\d*)?`: the end of the register part.
fn register_part(b: &[u8], mut i: usize) -> Option<usize> {
    if !in_set(b, i, b"vofi") {
        return None;
    }
    i += 1;
    if in_set(b, i, b"acostdip") {
        i += 1;
    }
    if in_set(b, i, b"d") {
        i += 1;
    }
    while b.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    Some(i)
}

/// `(\.[xyzw]{1,4})?`: the end after an optional mask or swizzle.
fn suffix(b: &[u8], i: usize) -> usize {
    if b.get(i) == Some(&b'.') && in_set(b, i + 1, b"xyzw") {
        let mut j = i + 1;
        while j < i + 5 && in_set(b, j, b"xyzw") {
            j += 1;
        }
        j
    } else {
        i
    }
}

fn plain_operand_at(b: &[u8], p: usize) -> Option<usize> {
    register_part(b, p).map(|i| suffix(b, i))
}

fn relative_operand_at(b: &[u8], p: usize) -> Option<usize> {
    if !(in_set(b, p, b"v") && in_set(b, p + 1, b"c") && b.get(p + 2) == Some(&b'[')) {
        return None;
    }
    let mut i = register_part(b, p + 3)?;
    if b.get(i) == Some(&b'.') && in_set(b, i + 1, b"xyzw") {
        i += 2;
        if b.get(i) == Some(&b'+') && b.get(i + 1).is_some_and(u8::is_ascii_digit) {
            i += 1;
            let digits = i;
            while i < digits + 3 && b.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
        }
    }
    if b.get(i) != Some(&b']') {
        return None;
    }
    Some(suffix(b, i + 1))
}

/// One operand as the token encodes it.
struct Encoded {
    number: u64,
    mask: u8,
    ty: u8,
    offset: u8,
    index_ty: u8,
    index_select: u8,
    relative: bool,
}

/// The first run of ASCII digits in `s`, as AGALMiniAssembler's
/// `Std.parseInt` reads it (saturating; larger numbers are refused anyway).
fn first_number(s: &str) -> Option<u64> {
    let start = s.find(|c: char| c.is_ascii_digit())?;
    let digits = &s[start..];
    let len = digits
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(digits.len());
    Some(digits[..len].bytes().fold(0u64, |n, d| {
        n.saturating_mul(10).saturating_add(u64::from(d - b'0'))
    }))
}

/// The first `.` followed by lower-case `xyzw` letters (at most four): the
/// mask or swizzle (this expression is case-sensitive).
fn component_suffix(s: &str) -> Option<&str> {
    let b = s.as_bytes();
    for (i, _) in s.match_indices('.') {
        let mut j = i + 1;
        while j < b.len() && j < i + 5 && b"xyzw".contains(&b[j]) {
            j += 1;
        }
        if j > i + 1 {
            return Some(&s[i + 1..j]);
        }
    }
    None
}

fn component_index(c: u8) -> u8 {
    // `charCode - 'x'`, anything past 2 (w is -1) becoming 3.
    match c {
        b'x' => 0,
        b'y' => 1,
        b'z' => 2,
        _ => 3,
    }
}

/// The last register number AGALMiniAssembler takes for a (canonical)
/// register name in `version`; `None`: no limit (its `fd` in version 1,
/// whose limit -1 compares as an unsigned maximum).
fn assembler_limit(canonical: &str, version: u32) -> Option<u32> {
    let v1 = version == 1;
    Some(match canonical {
        "va" => {
            if version <= 2 {
                7
            } else {
                15
            }
        }
        "vc" => {
            if v1 {
                127
            } else {
                249
            }
        }
        "vt" | "ft" => {
            if v1 {
                7
            } else {
                25
            }
        }
        "vo" | "iid" => 0,
        "vi" => {
            if v1 {
                7
            } else {
                9
            }
        }
        "fc" => match version {
            1 => 27,
            2 => 63,
            _ => 199,
        },
        // openfl's port has 7; Adobe's v3 original 15, AGAL2's 16 samplers.
        "fs" => 15,
        "fo" => {
            if v1 {
                0
            } else {
                3
            }
        }
        "fd" if v1 => return None,
        "fd" => 0,
        "vs" => 3,
        _ => return None,
    })
}

fn encode_operand(
    operand: &str,
    span: Span,
    stage: Stage,
    version: u32,
    is_dest: bool,
) -> Result<Encoded, Diagnostic> {
    let start = span.start as usize;
    // `\[.*\]`: a relative address, replaced by `0` for the rest.
    let bracket = operand
        .find('[')
        .and_then(|a| operand.rfind(']').map(|z| (a, z + 1)));
    let replaced;
    let (plain, relative) = match bracket {
        Some((a, z)) if z > a => {
            replaced = operand.replace(&operand[a..z], "0");
            (replaced.as_str(), Some(&operand[a..z]))
        }
        _ => (operand, None),
    };
    let letters = plain
        .bytes()
        .take_while(u8::is_ascii_alphabetic)
        .take(3)
        .count();
    let name = &plain[..letters];
    let Some(&(_, ty, vertex, fragment, canonical)) = register(name) else {
        return Err(Diagnostic::error("E2101", format!("unknown register `{name}`"))
            .primary(span, "not a register name")
            .note("AGAL registers: va vc vt op v iid vs (vertex), fc ft fs oc od v (fragment); register names are lower case"));
    };
    // Register types are shared (`vc` and `fc` are both type 1): the name
    // says which program type it belongs to.
    if !(if stage == Stage::Vertex {
        vertex
    } else {
        fragment
    }) {
        return Err(Diagnostic::error("E2106", format!("`{name}` is not a register of {stage} programs"))
            .primary(span, format!("a {} program register", if vertex { "vertex" } else { "fragment" }))
            .note("AGALMiniAssembler: \"only allowed in vertex programs\" / \"only allowed in fragment programs\"; vertex programs have va vc vt op v iid vs, fragment programs fc ft fs oc od v"));
    }
    // The number is read after the canonical name, or after one character
    // when the name is an alias (`op` is `vo`): `indexOf` gives -1.
    let after = plain
        .find(canonical)
        .map_or(canonical.len() - 1, |i| i + canonical.len());
    let rest = plain.get(after..).unwrap_or("");
    let number = match relative {
        Some(r) => first_number(r),
        None => first_number(rest),
    }
    .unwrap_or(0);
    if let Some(last) = assembler_limit(canonical, version) {
        if number > u64::from(last) {
            return Err(Diagnostic::error(
                "E2105",
                format!("`{name}{number}`: AGAL{version} has {name}0 to {name}{last}"),
            )
            .primary(span, "register number too large")
            .note("AGALMiniAssembler's register limits per version (\"index exceeds limit\"), which are Adobe's \"Program Registers\" table"));
        }
    } else if number > u64::from(u16::MAX) {
        return Err(Diagnostic::error(
            "E2105",
            format!("`{name}{number}`: register numbers are 16 bits"),
        )
        .primary(span, "register number too large")
        .note("the register number field has 16 bits"));
    }
    let mask = match component_suffix(rest) {
        Some(comps) => {
            let mut m = 0u8;
            let mut last = 0u8;
            for (k, &c) in comps.as_bytes().iter().enumerate() {
                last = component_index(c);
                if is_dest {
                    m |= 1 << last;
                } else {
                    m |= last << (2 * k);
                }
            }
            if !is_dest {
                for k in comps.len()..4 {
                    m |= last << (2 * k);
                }
            }
            m
        }
        None => {
            if is_dest {
                0xf
            } else {
                0xe4
            }
        }
    };
    let mut encoded = Encoded {
        number,
        mask,
        ty,
        offset: 0,
        index_ty: 0,
        index_select: 0,
        relative: false,
    };
    if let Some(r) = relative {
        let at = start + operand.find('[').unwrap_or(0);
        let r_span = Span::new(at, at + r.len());
        if is_dest {
            return Err(Diagnostic::error("E2103", "a destination cannot be addressed relatively")
                .primary(r_span, "relative address")
                .note("the destination field has no indirect bit (AGAL bytecode format, \"Destination field format\")"));
        }
        let index_name: String = r
            .bytes()
            .skip_while(|c| !c.is_ascii_alphabetic())
            .take_while(u8::is_ascii_alphabetic)
            .take(3)
            .map(char::from)
            .collect();
        let Some(&(_, index_ty, ..)) = register(&index_name) else {
            return Err(Diagnostic::error(
                "E2102",
                format!("unknown index register `{index_name}`"),
            )
            .primary(r_span, "in this relative address")
            .note(
                "a relative address is `vc[<register>.<component>+<offset>]`, e.g. `vc[va0.x+5]`",
            ));
        };
        let select = r.match_indices('.').find_map(|(i, _)| {
            r.as_bytes()
                .get(i + 1)
                .filter(|c| b"xyzw".contains(c))
                .map(|&c| component_index(c))
        });
        let Some(select) = select else {
            return Err(Diagnostic::error("E2102", "relative address without an index component")
                .primary(r_span, "no `.x`, `.y`, `.z` or `.w` here")
                .note("a relative address is `vc[<register>.<component>+<offset>]`, e.g. `vc[va0.x+5]`; the component is lower case"));
        };
        let offset = r.match_indices('+').find_map(|(i, _)| {
            let digits: &str = &r[i + 1..];
            let n = digits
                .bytes()
                .take_while(u8::is_ascii_digit)
                .take(3)
                .count();
            (n > 0).then(|| digits[..n].parse::<u32>().unwrap_or(0))
        });
        let offset = offset.unwrap_or(0);
        if offset > 255 {
            return Err(
                Diagnostic::error("E2102", format!("index offset {offset} out of range"))
                    .primary(r_span, "the offset must be 0 to 255")
                    .note("the offset is the source field's 8-bit indirect offset"),
            );
        }
        encoded.offset = offset as u8;
        encoded.index_ty = index_ty;
        encoded.index_select = select;
        encoded.relative = true;
    }
    Ok(encoded)
}

/// JavaScript's `parseFloat` on an option word: the value of its longest
/// prefix that is a decimal literal (or `Infinity`), NaN if none, and how
/// many bytes that prefix has.
pub(crate) fn js_parse_float(s: &str) -> (f64, usize) {
    let b = s.as_bytes();
    let mut i = 0;
    if matches!(b.first(), Some(b'+' | b'-')) {
        i = 1;
    }
    if s[i..].starts_with("Infinity") {
        let v = if b.first() == Some(&b'-') {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        return (v, i + 8);
    }
    let digits_from = i;
    while b.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    let mut mantissa_digits = i - digits_from;
    if b.get(i) == Some(&b'.') {
        let frac = i + 1;
        let mut j = frac;
        while b.get(j).is_some_and(u8::is_ascii_digit) {
            j += 1;
        }
        if mantissa_digits > 0 || j > frac {
            mantissa_digits += j - frac;
            i = j;
        }
    }
    if mantissa_digits == 0 {
        return (f64::NAN, 0);
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        let mut j = i + 1;
        if matches!(b.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        let exp = j;
        while b.get(j).is_some_and(u8::is_ascii_digit) {
            j += 1;
        }
        if j > exp {
            i = j;
        }
    }
    (s[..i].parse::<f64>().unwrap_or(f64::NAN), i)
}

/// JavaScript's ToInt32 (`x | 0`, Haxe's `Std.int`).
pub(crate) fn js_to_int32(x: f64) -> i32 {
    if !x.is_finite() {
        return 0;
    }
    let t = x.trunc();
    let m = t.rem_euclid(4_294_967_296.0);
    (m as u64 as u32) as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes(text: &str, stage: Stage, version: u32) -> Vec<u8> {
        assemble(text, stage, version).unwrap().bytes
    }

    fn hex(b: &[u8]) -> String {
        b.iter().map(|x| format!("{x:02x}")).collect()
    }

    #[test]
    fn reference_encodings_of_the_facts_table() {
        // FACTS-agal-encoding.md section 6.
        let v = bytes("m44 op, va0, vc0\nmov v0, va1", Stage::Vertex, 1);
        // ruffle's inline vector 1 (corpus-ruffle-naga-agal.md).
        let ruffle: &[u8] = &[
            160, 1, 0, 0, 0, 161, 0, 24, 0, 0, 0, 0, 0, 15, 3, 0, 0, 0, 228, 0, 0, 0, 0, 0, 0, 0,
            228, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 15, 4, 1, 0, 0, 228, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
            0, 0,
        ];
        assert_eq!(v, ruffle);
        let f = bytes("mov vt0, vc[va0.x+5]", Stage::Vertex, 2);
        assert_eq!(
            hex(&f[7..]),
            "00000000".to_owned() + "00000f02" + "000005e4" + "01000080" + &"0".repeat(16)
        );
        let k = bytes("kil ft1.x", Stage::Fragment, 2);
        assert_eq!(
            hex(&k[7..]),
            "27000000".to_owned() + "00000000" + "01000000" + "02000000" + &"0".repeat(16)
        );
        let t = bytes(
            "tex ft0, v0, fs0 <2d,linear,repeat,mipnearest>",
            Stage::Fragment,
            2,
        );
        assert_eq!(
            hex(&t[7..]),
            "28000000".to_owned() + "00000f02" + "000000e4" + "04000000" + "00000000" + "05001011"
        );
        let i = bytes("ife ft0.x, fc0.x", Stage::Fragment, 2);
        assert_eq!(
            hex(&i[7..]),
            "1c000000".to_owned() + "00000000" + "00000000" + "02000000" + "00000000" + "01000000"
        );
        let d = bytes("mov od, fc0.x", Stage::Fragment, 2);
        assert_eq!(
            hex(&d[7..]),
            "00000000".to_owned() + "00000f06" + "00000000" + "01000000" + &"0".repeat(16)
        );
    }

    #[test]
    fn quirks_of_the_regular_expressions_are_kept() {
        // No commas needed; `op` reads its number after one character.
        assert_eq!(
            bytes("mov op va0", Stage::Vertex, 1),
            bytes("mov op, va0", Stage::Vertex, 1)
        );
        // An upper-case swizzle is not seen by the case-sensitive mask expression.
        assert_eq!(
            bytes("mov ft0, v0.XY", Stage::Fragment, 1),
            bytes("mov ft0, v0", Stage::Fragment, 1)
        );
        // A skipped line warns and emits nothing.
        let a = assemble("MOV oc, v0\nmov oc, v0", Stage::Fragment, 1).unwrap();
        assert_eq!(a.spans.len(), 1);
        assert_eq!(a.warnings.iter().next().unwrap().code, "W2001");
        // Unknown sampler words are a bias.
        let t = bytes("tex ft0, v0, fs0 <2D>", Stage::Fragment, 2);
        assert_eq!(t[7 + 18], 16); // 2 * 8
    }

    #[test]
    fn js_number_conversions() {
        assert_eq!(js_parse_float("1.5x"), (1.5, 3));
        assert_eq!(js_parse_float("-.25"), (-0.25, 4));
        assert!(js_parse_float("abc").0.is_nan());
        assert_eq!(js_parse_float("1e2"), (100.0, 3));
        assert_eq!(js_parse_float("1e"), (1.0, 1));
        assert_eq!(js_to_int32(-12.9), -12);
        assert_eq!(js_to_int32(f64::NAN), 0);
        assert_eq!(js_to_int32(3_000_000_000.0), -1_294_967_296);
    }
}
