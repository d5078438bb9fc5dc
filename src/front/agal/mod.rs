//! Adobe AGAL (Stage3D): bytecode of versions 1 to 3 and
//! AGALMiniAssembler's assembly text, to the IR.
//!
//! ```text
//! bytes ──decode──▶ tokens ──disasm──▶ listing (the text diagnostics point into)
//! text ──asm (AGALMiniAssembler's bytes)──▶ tokens (spans into the text)
//! tokens ──check (the format's rules)──▶ lower ──▶ ir::Program
//! ```
//!
//! The stage and version of bytecode come from its header. Assembly text
//! has none: they come from [`AgalOptions::assembly`] (the CLI's
//! `--agal-stage`/`--agal-version`) or from a first line of the form the
//! disassembler writes, `// AGAL2 vertex ...` ([`header_directive`]).
//!
//! ```
//! let text = "// AGAL1 vertex\nm44 op, va0, vc0\nmov v0, va1\n";
//! let compiled = nvp4c::compile(text, &nvp4c::Options::default()).unwrap();
//! assert_eq!(compiled.stage, nvp4c::Stage::Vertex);
//! let bytes = nvp4c::front::agal::assemble(text, nvp4c::Stage::Vertex, 1).unwrap().bytes;
//! assert_eq!(nvp4c::compile_bytes(&bytes, &nvp4c::Options::default()).unwrap().spirv, compiled.spirv);
//! ```

pub mod asm;
pub(crate) mod check;
pub mod decode;
pub mod disasm;
mod lower;
pub mod names;
pub mod table;
pub mod testgen;

pub use asm::{assemble, Assembled};

use crate::span::Span;
use crate::{ir, Diagnostic, Diagnostics, Options, Stage};
use decode::{Token, HEADER_BYTES, MAGIC, TYPE_TAG};

/// Where one token is in its source text (the assembly, or the listing of
/// bytecode).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TokenSpans {
    /// The whole line.
    pub line: Span,
    /// The opcode mnemonic.
    pub opcode: Span,
    /// The destination, source 1 and source 2 (or sampler, with its
    /// options) fields' operands, where the token has them.
    pub operands: [Option<Span>; 3],
}

/// The AGAL settings of [`Options`].
///
/// ```
/// let mut options = nvp4c::Options::default();
/// options.agal.assembly = Some((nvp4c::Stage::Fragment, 2));
/// let compiled = nvp4c::compile("mov oc, v0", &options).unwrap();
/// assert_eq!(compiled.stage, nvp4c::Stage::Fragment);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct AgalOptions {
    /// Read program text as AGAL assembly for this stage and AGAL version
    /// (1 to 3). `None`: text is AGAL assembly only when its first line is
    /// a `// AGAL<version> <vertex|fragment>` comment.
    pub assembly: Option<(Stage, u32)>,
    /// Convert Stage3D's clip space to Vulkan's by negating the y of `op`
    /// (Stage3D's y points up, Vulkan's down; both put z in [0, w]).
    /// Default off: values are copied as the program computes them, as for
    /// every other language (docs/interface.md, "AGAL").
    pub flip_y: bool,
}

/// A program ready for checking: tokens and where they are.
pub(crate) struct Unit {
    pub stage: Stage,
    pub version: u32,
    pub tokens: Vec<Token>,
    pub spans: Vec<TokenSpans>,
    /// The header line (listing) or the directive (text), or an empty span.
    pub header: Span,
    /// Tokens came from bytes: diagnostics name byte offsets.
    pub bytecode: bool,
}

/// The stage and version an AGAL assembly text names on its first line,
/// `// AGAL<version> <vertex|fragment>` (what [`disasm`] writes; anything
/// may follow). Case-insensitive.
///
/// ```
/// use nvp4c::{front::agal::header_directive, Stage};
/// assert_eq!(header_directive("// AGAL2 fragment program, 3 tokens\nmov oc, v0"), Some((Stage::Fragment, 2)));
/// assert_eq!(header_directive("//agal1 VERTEX\n"), Some((Stage::Vertex, 1)));
/// assert_eq!(header_directive("mov oc, v0"), None);
/// ```
pub fn header_directive(text: &str) -> Option<(Stage, u32)> {
    directive_span(text).map(|(s, v, _)| (s, v))
}

fn directive_span(text: &str) -> Option<(Stage, u32, Span)> {
    let full = text.len();
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let bom = full - text.len();
    let skipped = text.len() - text.trim_start().len();
    let line = text[skipped..].lines().next()?;
    let rest = line.strip_prefix("//")?.trim_start();
    let lower = rest.to_ascii_lowercase();
    let rest = lower.strip_prefix("agal")?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let version: u32 = rest[..digits].parse().ok()?;
    let mut words = rest[digits..].split_whitespace();
    let stage = match words.next()? {
        "vertex" => Stage::Vertex,
        "fragment" => Stage::Fragment,
        _ => return None,
    };
    let start = bom + skipped;
    Some((stage, version, Span::new(start, start + line.len())))
}

fn version_error(version: u32, span: Span) -> Diagnostic {
    Diagnostic::error("E2002", format!("AGAL version {version} is not 1, 2 or 3"))
        .primary(span, "version")
        .note("AGAL1 (\"baseline\" profiles), AGAL2 (\"standard\", SWF 25) and AGAL3 (\"standard extended\", SWF 28+) exist (Adobe's \"Program Registers\" table); Adobe's page says the version \"must be 1\", later players take 2 and 3")
}

fn size_error(len: usize, options: &Options) -> Diagnostic {
    Diagnostic::error(
        "E0004",
        format!(
            "the program is {len} bytes, more than the {} allowed",
            options.max_source_bytes
        ),
    )
    .primary(Span::new(0, 0), "program starts here")
    .note("Options::max_source_bytes bounds the size of programs nvp4c accepts")
}

/// Checks AGAL bytecode and lowers it: the IR and the warnings, or every
/// diagnostic (spans into [`disasm::disassemble`]'s listing).
pub(crate) fn check_bytecode(
    bytes: &[u8],
    options: &Options,
) -> Result<(ir::Program, Diagnostics), Diagnostics> {
    if bytes.len() > options.max_source_bytes {
        return Err(Diagnostics(vec![size_error(bytes.len(), options)]));
    }
    let decoded = decode::decode(bytes);
    let listing = disasm::listing(&decoded);
    let mut diags = Vec::new();
    let Some(h) = decoded.header else {
        return Err(Diagnostics(vec![Diagnostic::error(
            "E2000",
            format!("{} bytes are too few for an AGAL header", bytes.len()),
        )
        .primary(listing.header, "truncated")
        .note("AGAL bytecode format, \"Bytecode Header\": a program begins with a 7-byte header (A0, version, A1, type)")]));
    };
    let field = |what: &str, byte: usize| {
        Diagnostic::error("E2001", format!("bad AGAL header: {what}"))
            .primary(listing.header, "header")
            .note(format!("at byte {byte}"))
            .note("AGAL bytecode format, \"Bytecode Header\": magic 0xa0, version, shader type ID 0xa1, shader type 0 (vertex) or 1 (fragment)")
    };
    if h.magic != MAGIC {
        diags.push(field(&format!("magic 0x{:02x}, not 0xa0", h.magic), 0));
    }
    if h.tag != TYPE_TAG {
        diags.push(field(
            &format!("shader type ID 0x{:02x}, not 0xa1", h.tag),
            5,
        ));
    }
    let stage = disasm::header_stage(h.kind);
    if stage.is_none() {
        diags.push(field(
            &format!("shader type {}, not 0 (vertex) or 1 (fragment)", h.kind),
            6,
        ));
    }
    if !(1..=3).contains(&h.version) {
        diags.push(version_error(h.version, listing.header).note("at byte 1"));
    }
    if let Some((offset, len)) = decoded.trailing {
        diags.push(
            Diagnostic::error(
                "E2003",
                format!(
                    "{len} byte{} after the last whole token",
                    if len == 1 { "" } else { "s" }
                ),
            )
            .primary(
                listing.trailing.unwrap_or(listing.header),
                "a partial token",
            )
            .note(format!(
                "at byte {offset}; tokens are 24 bytes (AGAL bytecode format, \"Tokens\")"
            )),
        );
    }
    let Some(stage) = stage.filter(|_| diags.iter().all(|d| d.code == "E2003")) else {
        return Err(Diagnostics(diags));
    };
    let _ = HEADER_BYTES;
    let unit = Unit {
        stage,
        version: h.version,
        tokens: decoded.tokens,
        spans: listing.spans,
        header: listing.header,
        bytecode: true,
    };
    finish(unit, diags, options)
}

/// Checks AGAL assembly text of `stage` and `version` and lowers it.
pub(crate) fn check_assembly(
    text: &str,
    stage: Stage,
    version: u32,
    options: &Options,
) -> Result<(ir::Program, Diagnostics), Diagnostics> {
    if text.len() > options.max_source_bytes {
        return Err(Diagnostics(vec![size_error(text.len(), options)]));
    }
    let header = directive_span(text).map_or(Span::new(0, 0), |d| d.2);
    if !(1..=3).contains(&version) {
        return Err(Diagnostics(vec![version_error(version, header)]));
    }
    let assembled = asm::assemble(text, stage, version)?;
    let decoded = decode::decode(&assembled.bytes);
    let unit = Unit {
        stage,
        version,
        tokens: decoded.tokens,
        spans: assembled.spans,
        header,
        bytecode: false,
    };
    finish(unit, assembled.warnings.0, options)
}

fn finish(
    mut unit: Unit,
    mut diags: Vec<Diagnostic>,
    options: &Options,
) -> Result<(ir::Program, Diagnostics), Diagnostics> {
    // A program far past the token limit (E2062) is checked only that far:
    // what hostile input costs stays bounded, as for the assembly family.
    let cap = 4 * table::max_tokens(unit.version);
    if unit.tokens.len() > cap {
        let limit = table::max_tokens(unit.version);
        let t = &unit.tokens[limit];
        let mut d = Diagnostic::error(
            "E2062",
            format!("{} tokens, more than the {limit} of AGAL{}", unit.tokens.len(), unit.version),
        )
        .primary(unit.spans[t.index].line, format!("token {} is past the limit", limit + 1))
        .note("Adobe's \"Program Registers\" table, \"Tokens\": 200 (AGAL1), 1024 (AGAL2), 2048 (AGAL3)")
        .note(format!("only the first {cap} tokens were checked"));
        if unit.bytecode {
            d = d.note(format!("at byte {} (token {})", t.offset, t.index));
        }
        diags.push(d);
        unit.tokens.truncate(cap);
        unit.spans.truncate(cap);
        diags.extend(
            check::check(&unit)
                .0
                .into_iter()
                .filter(|d| d.code != "E2062"),
        );
        diags.sort_by_key(|d| d.primary_span().map(|s| s.start));
        return Err(Diagnostics(diags));
    }
    let (more, checked) = check::check(&unit);
    diags.extend(more);
    diags.sort_by_key(|d| d.primary_span().map(|s| s.start));
    if diags.iter().any(Diagnostic::is_error) {
        return Err(Diagnostics(diags));
    }
    let program = lower::lower(&unit, &checked, &options.agal);
    Ok((program, Diagnostics(diags)))
}

/// Whether `text` is read as AGAL assembly under `options`, and as which
/// stage and version.
pub(crate) fn assembly_target(text: &str, options: &Options) -> Option<(Stage, u32)> {
    options.agal.assembly.or_else(|| {
        if text.trim_start().starts_with("!!") {
            None
        } else {
            header_directive(text)
        }
    })
}

/// The program type of an AGAL program given as bytes: bytecode with a
/// valid header, or text beginning with a `// AGAL2 vertex` line; `None`
/// for anything else.
///
/// ```
/// let bytes = nvp4c::front::agal::assemble("mov oc, v0", nvp4c::Stage::Fragment, 1).unwrap().bytes;
/// assert_eq!(nvp4c::front::agal::program_stage(&bytes), Some(nvp4c::Stage::Fragment));
/// assert_eq!(nvp4c::front::agal::program_stage(b"// AGAL2 vertex\nmov op, va0"), Some(nvp4c::Stage::Vertex));
/// assert_eq!(nvp4c::front::agal::program_stage(b"!!NVfp4.0\nEND\n"), None);
/// ```
pub fn program_stage(bytes: &[u8]) -> Option<Stage> {
    if decode::is_agal(bytes) {
        return decode::decode(bytes)
            .header
            .and_then(|h| disasm::header_stage(h.kind));
    }
    let text = std::str::from_utf8(bytes).ok()?;
    if text.trim_start().starts_with("!!") {
        return None;
    }
    header_directive(text).map(|(s, _)| s)
}

/// A listing and what is wrong with the bytes: `nvp4c disasm`. The
/// diagnostics are the compiler's (spans into the listing), plus W2011 for
/// a line that would not assemble back to its token's bytes.
///
/// ```
/// let bytes = [0xa0, 1, 0, 0, 0, 0xa1, 1,
///              0, 0, 0, 0, 0, 0, 0x0f, 3, 0, 0, 0, 0xe4, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
/// let (listing, diags) = nvp4c::front::agal::disassemble_checked(&bytes);
/// assert_eq!(listing.text, "// AGAL1 fragment program, 1 token\nmov oc, v0\n");
/// assert!(diags.is_empty());
/// ```
pub fn disassemble_checked(bytes: &[u8]) -> (disasm::Listing, Diagnostics) {
    let decoded = decode::decode(bytes);
    let listing = disasm::listing(&decoded);
    let options = Options::default();
    let mut diags = match check_bytecode(bytes, &options) {
        Ok((_, w)) => w.0,
        Err(d) => d.0,
    };
    if let (Some(h), Some(stage)) = (
        decoded.header,
        decoded.header.and_then(|h| disasm::header_stage(h.kind)),
    ) {
        // Reassemble each line on its own: a line that does not give its
        // token back is shown, but is not valid assembly of those bytes.
        for (t, spans) in decoded.tokens.iter().zip(&listing.spans) {
            let line = &listing.text[spans.line.range()];
            let again = asm::assemble(line, stage, h.version).ok().map(|a| a.bytes);
            if again.as_ref().and_then(|b| b.get(HEADER_BYTES..)) != Some(&t.bytes()[..]) {
                diags.push(
                    Diagnostic::warning(
                        "W2011",
                        "this line does not assemble back to its token's bytes",
                    )
                    .primary(spans.line, "not an exact disassembly")
                    .note(format!(
                        "token {} at byte {}: {}",
                        t.index,
                        t.offset,
                        hex(&t.bytes())
                    )),
                );
            }
        }
    }
    diags.sort_by_key(|d| d.primary_span().map(|s| s.start));
    (listing, Diagnostics(diags))
}

fn hex(bytes: &[u8]) -> String {
    bytes
        .chunks(4)
        .map(|c| c.iter().map(|b| format!("{b:02x}")).collect::<String>())
        .collect::<Vec<_>>()
        .join(" ")
}
