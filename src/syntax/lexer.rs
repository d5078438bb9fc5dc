//! The lexer for the assembly family's program text (NV_gpu_program4
//! section 2.X.2; ARB_vertex_program 2.14.2; ARB_fragment_program 3.11.2).
//!
//! Whitespace is spaces, tabs, LF and CR; `#` starts a comment that runs to
//! the next LF or CR, so LF, CR and CRLF line ends all work. Comments may
//! hold any bytes ([`program_text`]); a UTF-8 byte-order mark before the
//! header is skipped ([`read_header`]). Two tokens are
//! contextual, because the BNF is ambiguous without them:
//!
//! * Declaration keywords (`TEMP`, `PARAM`, `INT`, `FLAT`, ...) are keywords
//!   only at the start of a statement. Everywhere else they are ordinary
//!   words, so an instruction operand may be named `FLAT`.
//! * The reserved words that start a binding (`program`, `result`, `state`,
//!   `texture`, and per header `fragment`, `vertex`, `primitive`:
//!   [`Dialect::reserves_root`]) are keywords everywhere.
//! * A word followed by `:` is a label, never a keyword.
//!
//! Opcodes and condition-code rules (`EQ`, `GT1`) are plain words: the
//! parser decides by position, so `EQ` stays usable as a name.

use crate::diag::Diagnostic;
use crate::isa::{Dialect, Features, Header};
use crate::span::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tok<'a> {
    Word(&'a str),
    /// `<int>`: decimal or `0x` hex, as written.
    Int(&'a str),
    /// `<float>`, as written.
    Float(&'a str),

    // Declaration and statement keywords (statement start only).
    Option,
    End,
    Attrib,
    Param,
    Temp,
    Output,
    Alias,
    Address,
    Buffer,
    Buffer4,
    Short,
    Long,
    IntType,
    UintType,
    FloatType,
    Flat,
    Centroid,
    NoPerspective,
    PrimitiveIn,
    PrimitiveOut,
    VerticesOut,
    /// NV_geometry_program4/NV_gpu_program5 `INVOCATIONS`.
    Invocations,
    /// NV_tessellation_program5's `TESS_MODE`, `TESS_SPACING`,
    /// `TESS_VERTEX_ORDER`, `TESS_POINT_MODE`.
    TessMode,
    TessSpacing,
    TessVertexOrder,
    TessPointMode,
    /// NV_compute_program5's `GROUP_SIZE`.
    GroupSize,
    /// NV_gpu_program5's `TEXTURE` declaration.
    TextureDecl,
    /// NV_shader_storage_buffer_object's `STORAGE` declaration.
    StorageDecl,
    /// NV_parameter_buffer_object2's `CBUFFER` declaration.
    CBuffer,
    /// EXT_shader_image_load_store's `IMAGE` declaration (NV_gpu_program5).
    ImageDecl,
    /// NV_shader_atomic_counters' `COUNTER` declaration.
    Counter,
    /// NV_compute_program5's `SHARED` declaration.
    SharedDecl,
    /// NV_compute_program5's `SHARED_MEMORY` declaration.
    SharedMemory,
    /// NV_fragment_program's `DEFINE` (named constant) and `DECLARE`
    /// (named local parameter), keywords in `!!FP1.0` programs only.
    Define,
    Declare,
    /// ARB_shader_subroutine's NV_gpu_program5 edits: `SUBROUTINETYPE`,
    /// `SUBROUTINE` (declarations) and `SUBROUTINENUM` (of a label),
    /// keywords in the NV_gpu_program5 headers only.
    SubroutineType,
    Subroutine,
    SubroutineNum,
    /// NV_gpu_program5's `offset` of `<texOffsetVar> ::= "offset" "("
    /// <instOperandV> ")"`: the word, after a comma and before `(`.
    OffsetKw,
    /// NV_bindless_texture's `handle` of `<textureUseV> ::= "handle" "("
    /// <addrUseS> ")"` (and `<imageUnit>`): the word, after a comma and
    /// before `(`.
    HandleKw,

    // Reserved binding roots.
    Fragment,
    Vertex,
    Primitive,
    /// NV_compute_program5's `invocation`.
    Invocation,
    Program,
    Result,
    State,
    Texture,
    /// EXT_shader_image_load_store's `image[n]` (reserved in the
    /// NV_gpu_program5 headers).
    Image,

    Semi,
    Colon,
    Comma,
    Dot,
    DotDot,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    LParen,
    RParen,
    Pipe,
    Plus,
    Minus,
    Equals,
}

impl Tok<'_> {
    /// How the token is written, for messages.
    pub fn describe(&self) -> String {
        match self {
            Tok::Word(w) => format!("`{w}`"),
            Tok::Int(t) | Tok::Float(t) => format!("number `{t}`"),
            other => format!("`{}`", other.text()),
        }
    }

    pub fn text(&self) -> &str {
        match self {
            Tok::Word(w) | Tok::Int(w) | Tok::Float(w) => w,
            Tok::Option => "OPTION",
            Tok::End => "END",
            Tok::Attrib => "ATTRIB",
            Tok::Param => "PARAM",
            Tok::Temp => "TEMP",
            Tok::Output => "OUTPUT",
            Tok::Alias => "ALIAS",
            Tok::Address => "ADDRESS",
            Tok::Buffer => "BUFFER",
            Tok::Buffer4 => "BUFFER4",
            Tok::Short => "SHORT",
            Tok::Long => "LONG",
            Tok::IntType => "INT",
            Tok::UintType => "UINT",
            Tok::FloatType => "FLOAT",
            Tok::Flat => "FLAT",
            Tok::Centroid => "CENTROID",
            Tok::NoPerspective => "NOPERSPECTIVE",
            Tok::PrimitiveIn => "PRIMITIVE_IN",
            Tok::PrimitiveOut => "PRIMITIVE_OUT",
            Tok::VerticesOut => "VERTICES_OUT",
            Tok::Invocations => "INVOCATIONS",
            Tok::TessMode => "TESS_MODE",
            Tok::TessSpacing => "TESS_SPACING",
            Tok::TessVertexOrder => "TESS_VERTEX_ORDER",
            Tok::TessPointMode => "TESS_POINT_MODE",
            Tok::GroupSize => "GROUP_SIZE",
            Tok::TextureDecl => "TEXTURE",
            Tok::StorageDecl => "STORAGE",
            Tok::CBuffer => "CBUFFER",
            Tok::ImageDecl => "IMAGE",
            Tok::Counter => "COUNTER",
            Tok::SharedDecl => "SHARED",
            Tok::SharedMemory => "SHARED_MEMORY",
            Tok::Define => "DEFINE",
            Tok::Declare => "DECLARE",
            Tok::SubroutineType => "SUBROUTINETYPE",
            Tok::Subroutine => "SUBROUTINE",
            Tok::SubroutineNum => "SUBROUTINENUM",
            Tok::Invocation => "invocation",
            Tok::Fragment => "fragment",
            Tok::Vertex => "vertex",
            Tok::Primitive => "primitive",
            Tok::Program => "program",
            Tok::Result => "result",
            Tok::State => "state",
            Tok::Texture => "texture",
            Tok::Image => "image",
            Tok::Semi => ";",
            Tok::Colon => ":",
            Tok::Comma => ",",
            Tok::Dot => ".",
            Tok::DotDot => "..",
            Tok::LBracket => "[",
            Tok::RBracket => "]",
            Tok::LBrace => "{",
            Tok::RBrace => "}",
            Tok::LParen => "(",
            Tok::RParen => ")",
            Tok::Pipe => "|",
            Tok::Plus => "+",
            Tok::Minus => "-",
            Tok::Equals => "=",
            Tok::OffsetKw => "offset",
            Tok::HandleKw => "handle",
        }
    }
}

/// Reads the header on the first bytes of the program (section 2.X.2 and the
/// program-type specs: "Program string parsing begins with the character
/// immediately following the header string").
///
/// A UTF-8 byte-order mark before the header is skipped: editors on Windows
/// write one, and it is an encoding marker, not program text.
pub fn read_header(source: &str) -> Result<(Header, usize), Diagnostic> {
    let bom = if source.starts_with(BYTE_ORDER_MARK) {
        BYTE_ORDER_MARK.len_utf8()
    } else {
        0
    };
    if let Some(h) = Header::parse(&source[bom..]) {
        return Ok((h, bom + h.text().len()));
    }
    if source[bom..].starts_with(VERTEX_STATE_PROGRAM) {
        let span = Span::new(bom, bom + VERTEX_STATE_PROGRAM.len());
        return Err(Diagnostic::error("E1208", "vertex state programs (`!!VSP1.0`) have no Vulkan counterpart")
            .primary(span, "a vertex state program")
            .note("NV_vertex_program 2.14.4: a vertex state program is run once by ExecuteProgramNV, outside any primitive, to write the 96 program parameter registers c[0..95] from v[0]; it draws nothing")
            .note("help: compute the parameters on the CPU (or in a compute shader) and pass them as program.env values, which is what the state program's c[] writes become for the `!!VP1.0` programs that read them (docs/interface.md, \"Vertex state programs\")"));
    }
    let first_line_end = source.find(['\n', '\r']).unwrap_or(source.len()).min(64);
    let mut end = first_line_end;
    while !source.is_char_boundary(end) {
        end -= 1;
    }
    // Characters that do not show (a zero-width space, a stray mark) are
    // written escaped, so the message says what is really there.
    let found: String = source[bom.min(end)..end]
        .trim_end()
        .chars()
        .map(|c| {
            if c.is_control() || is_invisible(c) {
                c.escape_unicode().to_string()
            } else {
                c.to_string()
            }
        })
        .collect();
    let span = Span::new(0, end.max(if source.is_empty() { 0 } else { 1 }));
    let headers: Vec<String> = Header::ALL.iter().map(|h| format!("`{h}`")).collect();
    let mut d = Diagnostic::error("E0002", "missing or unknown program header").primary(
        span,
        if found.is_empty() {
            format!("expected one of {} here", headers.join(", "))
        } else {
            format!("`{found}` is not a header nvp4c compiles")
        },
    );
    if let Some(h) = Header::ALL
        .into_iter()
        .find(|h| found.trim_start().starts_with(h.text()))
    {
        d = d.note(format!(
            "the header must be the very first characters of the program, without any preceding whitespace (`{h}`)"
        ));
    }
    let mut specs: Vec<&str> = Vec::new();
    for h in Header::ALL {
        if !specs.contains(&h.spec()) {
            specs.push(h.spec());
        }
    }
    Err(d.note(format!(
        "a program begins with its header as its very first characters: {} ({}: \"A ... program is required to begin with the header string ..., without any preceding whitespace\")",
        headers.join(", "),
        specs.join(", ")
    )))
}

/// NV_vertex_program's vertex state program header.
const VERTEX_STATE_PROGRAM: &str = "!!VSP1.0";

/// U+FEFF, the byte-order mark: `EF BB BF` in UTF-8.
const BYTE_ORDER_MARK: char = '\u{feff}';

/// Characters that render as nothing: zero-width spaces and joiners, the
/// byte-order mark, directional marks.
fn is_invisible(c: char) -> bool {
    matches!(c, '\u{200b}'..='\u{200f}' | '\u{2028}'..='\u{202e}' | '\u{2060}'..='\u{2064}' | BYTE_ORDER_MARK)
}

/// The program text of a file's bytes. Comments are not program text
/// (section 2.X.2: `#` to the end of the line), so any bytes are accepted
/// there — Latin-1 comments from old tools are common — and each byte that
/// is not UTF-8 is replaced by `?`, which keeps every offset (and so every
/// span) the same. Elsewhere a byte that is not UTF-8 is `E0003`, one
/// diagnostic per run of such bytes, naming them.
pub fn program_text(bytes: &[u8]) -> Result<std::borrow::Cow<'_, str>, Vec<Diagnostic>> {
    if let Ok(text) = std::str::from_utf8(bytes) {
        return Ok(std::borrow::Cow::Borrowed(text));
    }
    let mut text = Vec::with_capacity(bytes.len());
    let mut in_comment = false;
    // Runs of bad bytes outside comments: (start, end).
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for chunk in bytes.utf8_chunks() {
        for b in chunk.valid().bytes() {
            match b {
                b'#' => in_comment = true,
                b'\n' | b'\r' => in_comment = false,
                _ => {}
            }
            text.push(b);
        }
        let bad = chunk.invalid();
        if bad.is_empty() {
            continue;
        }
        let start = text.len();
        text.extend(std::iter::repeat_n(b'?', bad.len()));
        if !in_comment {
            match runs.last_mut() {
                Some(run) if run.1 == start => run.1 = text.len(),
                _ => runs.push((start, text.len())),
            }
        }
    }
    if runs.is_empty() {
        // Every bad byte became an ASCII `?`: the text is UTF-8 (the lossy
        // conversion replaces nothing).
        return Ok(std::borrow::Cow::Owned(
            String::from_utf8_lossy(&text).into_owned(),
        ));
    }
    let utf16 = bytes.starts_with(&[0xfe, 0xff]) || bytes.starts_with(&[0xff, 0xfe]);
    Err(runs
        .into_iter()
        .map(|(start, end)| {
            let run = &bytes[start..end];
            let shown: Vec<String> = run.iter().take(8).map(|b| format!("0x{b:02X}")).collect();
            let more = if run.len() > 8 { " …" } else { "" };
            let (what, label) = match run {
                [b] if *b >= 0xa0 => (
                    format!("byte 0x{b:02X}"),
                    format!(
                        "byte 0x{b:02X} is not UTF-8 (`{}` in Latin-1)",
                        char::from(*b)
                    ),
                ),
                [b] => (
                    format!("byte 0x{b:02X}"),
                    format!("byte 0x{b:02X} is not UTF-8"),
                ),
                _ => (
                    format!("bytes {}{more}", shown.join(" ")),
                    format!("{} bytes that are not UTF-8", run.len()),
                ),
            };
            let mut d = Diagnostic::error(
                "E0003",
                format!("the program is not valid UTF-8 text: {what}"),
            )
            .primary(crate::span::Span::new(start, end), label)
            .note(
                "section 2.X.2: program strings are ASCII text; only comments may hold other bytes",
            );
            if utf16 && start == 0 {
                d = d.note(
                    "the file starts with a UTF-16 byte-order mark: save it as UTF-8 or ASCII",
                );
            }
            d
        })
        .collect())
}

pub struct Lexer<'a> {
    src: &'a str,
    bytes: &'a [u8],
    pos: usize,
    dialect: Dialect,
    at_statement_start: bool,
    /// The previous token was a comma (an argument starts).
    after_comma: bool,
    /// The statement is a STOREIM and no comma has come yet: its first
    /// argument is the image, which may be `handle(a.x)`
    /// (NV_bindless_texture <imageUnit>); STOREIM takes no CC mask, so
    /// `handle (` cannot be a destination named `handle` with one there.
    storeim_image: bool,
    /// Which of [`RESERVED_ROOTS`] this header reserves, one bit each
    /// (asked of [`Dialect::reserves_root`] once, not per word).
    reserved_roots: u16,
    finished: bool,
    pub diagnostics: Vec<Diagnostic>,
}

/// The binding roots a header may reserve (section 2.X.2, "reserved
/// keywords"), with their tokens; bit `i` of `Lexer::reserved_roots` is
/// `RESERVED_ROOTS[i]`.
const RESERVED_ROOTS: [(&str, Tok<'static>); 9] = [
    ("program", Tok::Program),
    ("result", Tok::Result),
    ("state", Tok::State),
    ("texture", Tok::Texture),
    ("image", Tok::Image),
    ("fragment", Tok::Fragment),
    ("vertex", Tok::Vertex),
    ("primitive", Tok::Primitive),
    ("invocation", Tok::Invocation),
];

/// Byte classes of the program text: section 2.X.2's tokens are ASCII, so
/// one look-up in a 256-entry table classifies a byte, where a chain of
/// range tests (`is_ascii_alphanumeric() || b == b'_' || ...`) took four
/// compares and branches per byte of every name (docs/performance.md,
/// "Session 9 (lexer and token)").
const WORD_START: u8 = 1;
/// Letters, digits, `_` and `$`: the bytes of an `<identifier>` after its
/// first.
const WORD_CHAR: u8 = 2;
const DIGIT: u8 = 4;
/// Whitespace: space, tab, LF and CR.
const SPACE: u8 = 8;

static BYTE_CLASSES: [u8; 256] = byte_classes();

const fn byte_classes() -> [u8; 256] {
    let mut classes = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        if b.is_ascii_alphabetic() || b == b'_' || b == b'$' {
            classes[i] = WORD_START | WORD_CHAR;
        } else if b.is_ascii_digit() {
            classes[i] = WORD_CHAR | DIGIT;
        } else if matches!(b, b' ' | b'\t' | b'\n' | b'\r') {
            classes[i] = SPACE;
        }
        i += 1;
    }
    classes
}

/// Whether byte `b` is of any class in `class`.
#[inline]
fn is(b: u8, class: u8) -> bool {
    BYTE_CLASSES[b as usize] & class != 0
}

pub type Spanned<'a> = (usize, Tok<'a>, usize);

impl<'a> Lexer<'a> {
    /// Lexes `src` from byte `start` (just after the header).
    pub fn new(src: &'a str, start: usize, header: Header) -> Lexer<'a> {
        let dialect = Dialect::new(header);
        let reserved_roots = RESERVED_ROOTS
            .iter()
            .enumerate()
            .filter(|(_, (root, _))| dialect.reserves_root(root))
            .fold(0, |bits, (i, _)| bits | 1 << i);
        Lexer {
            src,
            bytes: src.as_bytes(),
            pos: start,
            dialect,
            at_statement_start: true,
            after_comma: false,
            storeim_image: false,
            reserved_roots,
            finished: false,
            diagnostics: Vec::new(),
        }
    }

    /// The end of the run of bytes of `class` that starts at `from` (a
    /// name, a digit string, whitespace).
    #[inline]
    fn run_end(&self, from: usize, class: u8) -> usize {
        let rest = &self.bytes[from..];
        from + rest
            .iter()
            .position(|&b| !is(b, class))
            .unwrap_or(rest.len())
    }

    /// Steps over whitespace and comments (`#` to the next LF or CR).
    fn skip_trivia(&mut self) {
        let mut pos = self.pos;
        loop {
            pos = self.run_end(pos, SPACE);
            if self.bytes.get(pos) != Some(&b'#') {
                break;
            }
            let rest = &self.bytes[pos..];
            pos += rest
                .iter()
                .position(|&c| c == b'\n' || c == b'\r')
                .unwrap_or(rest.len());
        }
        self.pos = pos;
    }

    /// The text of bytes `start..end`, which the caller has seen are ASCII
    /// (a name or a number).
    #[inline]
    fn ascii(&self, start: usize, end: usize) -> &'a str {
        let bytes: &'a [u8] = &self.bytes[start..end];
        debug_assert!(bytes.is_ascii());
        // SAFETY: ASCII bytes are UTF-8 on their own; this skips the char
        // boundary tests `&self.src[start..end]` would make per token.
        unsafe { std::str::from_utf8_unchecked(bytes) }
    }

    /// NV_fragment_program 3.11.3: `DEFINE` and `DECLARE` are statements of
    /// `!!FP1.0` only; in every other header they stay names, so programs
    /// that use them as identifiers keep compiling.
    fn fp1_keyword(&self, word: &str) -> Option<Tok<'static>> {
        if self.dialect.header != Header::Fp1 {
            return None;
        }
        match word {
            "DEFINE" => Some(Tok::Define),
            "DECLARE" => Some(Tok::Declare),
            _ => None,
        }
    }

    /// ARB_shader_subroutine, "Dependencies on NV_gpu_program5": the
    /// SUBROUTINETYPE and SUBROUTINE declarations exist in the
    /// NV_gpu_program5 headers only ("implied by NV_gpu_program5 program
    /// headers"); elsewhere the words stay names.
    fn nv5_keyword(&self, word: &str) -> Option<Tok<'static>> {
        if !self.dialect.has(Features::NV5) {
            return None;
        }
        match word {
            "SUBROUTINETYPE" => Some(Tok::SubroutineType),
            "SUBROUTINE" => Some(Tok::Subroutine),
            _ => None,
        }
    }

    fn statement_keyword(word: &str) -> Option<Tok<'static>> {
        Some(match word {
            "OPTION" => Tok::Option,
            "END" => Tok::End,
            "ATTRIB" => Tok::Attrib,
            "PARAM" => Tok::Param,
            "TEMP" => Tok::Temp,
            "OUTPUT" => Tok::Output,
            "ALIAS" => Tok::Alias,
            "ADDRESS" => Tok::Address,
            "BUFFER" => Tok::Buffer,
            "BUFFER4" => Tok::Buffer4,
            "SHORT" => Tok::Short,
            "LONG" => Tok::Long,
            "INT" => Tok::IntType,
            "UINT" => Tok::UintType,
            "FLOAT" => Tok::FloatType,
            "FLAT" => Tok::Flat,
            "CENTROID" => Tok::Centroid,
            "NOPERSPECTIVE" => Tok::NoPerspective,
            "PRIMITIVE_IN" => Tok::PrimitiveIn,
            "PRIMITIVE_OUT" => Tok::PrimitiveOut,
            "VERTICES_OUT" => Tok::VerticesOut,
            "INVOCATIONS" => Tok::Invocations,
            "TESS_MODE" => Tok::TessMode,
            "TESS_SPACING" => Tok::TessSpacing,
            "TESS_VERTEX_ORDER" => Tok::TessVertexOrder,
            "TESS_POINT_MODE" => Tok::TessPointMode,
            "GROUP_SIZE" => Tok::GroupSize,
            "TEXTURE" => Tok::TextureDecl,
            "STORAGE" => Tok::StorageDecl,
            "CBUFFER" => Tok::CBuffer,
            "IMAGE" => Tok::ImageDecl,
            "COUNTER" => Tok::Counter,
            "SHARED" => Tok::SharedDecl,
            "SHARED_MEMORY" => Tok::SharedMemory,
            _ => return None,
        })
    }

    /// The reserved binding root `word` is in this header, if any. Most
    /// words are register names and modifiers, so the length and the first
    /// letter rule nearly every one out before any text is compared.
    #[inline(always)]
    fn reserved(&self, word: &str) -> Option<Tok<'static>> {
        let root = match (word.len(), word.as_bytes()[0]) {
            (7, b'p') => 0,
            (6, b'r') => 1,
            (5, b's') => 2,
            (7, b't') => 3,
            (5, b'i') => 4,
            (8, b'f') => 5,
            (6, b'v') => 6,
            (9, b'p') => 7,
            (10, b'i') => 8,
            _ => return None,
        };
        let (text, tok) = RESERVED_ROOTS[root];
        (self.reserved_roots & 1 << root != 0 && word == text).then_some(tok)
    }

    /// Whether the next character after trivia is a `:` (the word before it
    /// is a label).
    fn label_follows(&self) -> bool {
        let mut i = self.pos;
        while let Some(&b) = self.bytes.get(i) {
            match b {
                b' ' | b'\t' | b'\n' | b'\r' => i += 1,
                b':' => return true,
                _ => return false,
            }
        }
        false
    }

    /// Whether the next character after trivia is `c`.
    fn next_is(&self, c: u8) -> bool {
        let mut i = self.pos;
        while let Some(&b) = self.bytes.get(i) {
            match b {
                b' ' | b'\t' | b'\n' | b'\r' => i += 1,
                _ => return b == c,
            }
        }
        false
    }

    fn lex_number(&mut self) -> Tok<'a> {
        let start = self.pos;
        let b = self.bytes;
        let peek = |i: usize| b.get(i).copied().unwrap_or(0);
        if peek(start) == b'0'
            && matches!(peek(start + 1), b'x' | b'X')
            && peek(start + 2).is_ascii_hexdigit()
        {
            let mut pos = start + 2;
            while peek(pos).is_ascii_hexdigit() {
                pos += 1;
            }
            return self.finish_number(start, pos, false);
        }
        let mut is_float = false;
        let mut pos = self.run_end(start, DIGIT);
        // `0..12` is a range, not the float `0.` followed by `.12`.
        if peek(pos) == b'.' && peek(pos + 1) != b'.' {
            is_float = true;
            pos = self.run_end(pos + 1, DIGIT);
        }
        if matches!(peek(pos), b'e' | b'E') {
            let sign = matches!(peek(pos + 1), b'+' | b'-') as usize;
            if peek(pos + 1 + sign).is_ascii_digit() {
                is_float = true;
                pos = self.run_end(pos + 1 + sign, DIGIT);
            }
        }
        self.finish_number(start, pos, is_float)
    }

    fn finish_number(&mut self, start: usize, end: usize, is_float: bool) -> Tok<'a> {
        // Texture targets `1D`, `2D`, `3D` start with a digit: a number run
        // straight into letters is one word.
        if !is_float && self.bytes.get(end).is_some_and(|&c| is(c, WORD_START)) {
            self.pos = self.run_end(end, WORD_CHAR);
            return Tok::Word(self.ascii(start, self.pos));
        }
        self.pos = end;
        let text = self.ascii(start, end);
        if is_float {
            Tok::Float(text)
        } else {
            Tok::Int(text)
        }
    }

    /// The word at the start of a statement (an opcode, a declaration
    /// keyword or a label), out of line: one statement in several words.
    #[inline(never)]
    fn statement_word(&mut self, word: &'a str) -> Tok<'a> {
        self.storeim_image = word.eq_ignore_ascii_case("STOREIM");
        if let Some(t) = self.reserved(word) {
            return t;
        }
        if self.label_follows() {
            return Tok::Word(word);
        }
        self.fp1_keyword(word)
            .or_else(|| self.nv5_keyword(word))
            .or_else(|| Self::statement_keyword(word))
            .unwrap_or(Tok::Word(word))
    }

    /// Reports the character at `start` (first byte `b`), which is no
    /// token, and steps over it; out of line, as it is an error.
    #[cold]
    #[inline(never)]
    fn stray_characters(&mut self, start: usize, b: u8) {
        // Step over the whole character, and over a whole
        // run of non-ASCII ones, so `é` or a pasted
        // sentence is reported once with its real extent.
        let mut end = start + 1;
        while end < self.src.len()
            && (!self.src.is_char_boundary(end) || (b >= 0x80 && self.bytes[end] >= 0x80))
        {
            end += 1;
        }
        self.pos = end;
        let text = &self.src[start..end];
        let shown = if text == "\0" {
            "character NUL".to_string()
        } else if b < 0x80 {
            format!("character {text:?}")
        } else {
            // Code points, since many non-ASCII characters
            // look like ASCII ones or like nothing at all.
            let points: Vec<String> = text
                .chars()
                .take(8)
                .map(|c| format!("U+{:04X}", c as u32))
                .collect();
            let more = if text.chars().nth(8).is_some() {
                " …"
            } else {
                ""
            };
            let plural = if points.len() > 1 { "s" } else { "" };
            format!("character{plural} {text:?} ({}{more})", points.join(" "))
        };
        self.diagnostics.push(
            Diagnostic::error("E0001", format!("unexpected {shown}"))
                .primary(Span::new(start, end), "not part of the program language")
                .note(
                    "section 2.X.2: \"A program is invalid if it contains any tokens or \
                     characters not defined in this specification.\"",
                ),
        );
    }

    fn next_token(&mut self) -> Option<Spanned<'a>> {
        loop {
            if self.finished {
                return None;
            }
            self.skip_trivia();
            let start = self.pos;
            let &b = self.bytes.get(self.pos)?;
            let tok = if is(b, WORD_START) {
                self.pos = self.run_end(start + 1, WORD_CHAR);
                let word = self.ascii(start, self.pos);
                if self.at_statement_start {
                    self.statement_word(word)
                } else if let Some(t) = self.reserved(word) {
                    t
                } else if word == "SUBROUTINENUM"
                    && self.dialect.has(Features::NV5)
                    && self.next_is(b'(')
                {
                    // `<instLabel> ::= <identifier> "SUBROUTINENUM" "(" <int> ")"`:
                    // an operand is never followed by `(` there either.
                    Tok::SubroutineNum
                } else if word == "offset" && self.after_comma && self.next_is(b'(') {
                    // Only there is `offset (` not an operand: an operand
                    // is never followed by `(` inside an argument list.
                    Tok::OffsetKw
                } else if word == "handle"
                    && (self.after_comma || self.storeim_image)
                    && self.next_is(b'(')
                {
                    Tok::HandleKw
                } else {
                    Tok::Word(word)
                }
            } else if is(b, DIGIT)
                || (b == b'.' && self.bytes.get(start + 1).is_some_and(|&c| is(c, DIGIT)))
            {
                self.lex_number()
            } else {
                self.pos += 1;
                match b {
                    b';' => Tok::Semi,
                    b':' => Tok::Colon,
                    b',' => Tok::Comma,
                    b'.' if self.bytes.get(self.pos) == Some(&b'.') => {
                        self.pos += 1;
                        Tok::DotDot
                    }
                    b'.' => Tok::Dot,
                    b'[' => Tok::LBracket,
                    b']' => Tok::RBracket,
                    b'{' => Tok::LBrace,
                    b'}' => Tok::RBrace,
                    b'(' => Tok::LParen,
                    b')' => Tok::RParen,
                    b'|' => Tok::Pipe,
                    b'+' => Tok::Plus,
                    b'-' => Tok::Minus,
                    b'=' => Tok::Equals,
                    _ => {
                        self.stray_characters(start, b);
                        continue;
                    }
                }
            };
            self.after_comma = tok == Tok::Comma;
            if matches!(tok, Tok::Comma | Tok::Semi) {
                self.storeim_image = false;
            }
            self.at_statement_start = match tok {
                Tok::Semi | Tok::Colon => true,
                // A declaration's modifiers precede its keyword.
                Tok::Short
                | Tok::Long
                | Tok::IntType
                | Tok::UintType
                | Tok::FloatType
                | Tok::Flat
                | Tok::Centroid
                | Tok::NoPerspective => true,
                _ => false,
            };
            if tok == Tok::End {
                // Text after END is not part of the program (Cg writes
                // `# N instructions` there).
                self.finished = true;
            }
            return Some((start, tok, self.pos));
        }
    }
}

/// The tokens as LALRPOP takes them. A plain triple, not a `Result`: the
/// lexer reports what it cannot read as a diagnostic and goes on, so it has
/// no error to give the parser, and each token then passes to the parser
/// without being wrapped and unwrapped (docs/performance.md, "Session 9
/// (lexer and token)").
impl<'a> Iterator for Lexer<'a> {
    type Item = Spanned<'a>;
    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        self.next_token()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(src: &str) -> Vec<Tok<'_>> {
        Lexer::new(src, 0, Header::NvFp4).map(|t| t.1).collect()
    }

    #[test]
    fn subroutine_keywords_exist_in_the_nv5_headers_only() {
        let lex = |h: Header, src: &'static str| -> Vec<Tok<'static>> {
            Lexer::new(src, 0, h).map(|t| t.1).collect()
        };
        let src = "SUBROUTINE T v; f SUBROUTINENUM(2): SUBROUTINENUM;";
        assert_eq!(
            lex(Header::NvFp5, src),
            vec![
                Tok::Subroutine,
                Tok::Word("T"),
                Tok::Word("v"),
                Tok::Semi,
                Tok::Word("f"),
                Tok::SubroutineNum,
                Tok::LParen,
                Tok::Int("2"),
                Tok::RParen,
                Tok::Colon,
                Tok::Word("SUBROUTINENUM"),
                Tok::Semi
            ]
        );
        let nv4 = lex(Header::NvFp4, src);
        assert_eq!(nv4[0], Tok::Word("SUBROUTINE"));
        assert_eq!(nv4[5], Tok::Word("SUBROUTINENUM"));
    }

    /// `handle (` is NV_bindless_texture's keyword after a comma and as
    /// STOREIM's first argument (its image); elsewhere a first operand
    /// `handle` followed by `(` is a variable with a CC mask.
    #[test]
    fn handle_is_a_keyword_after_a_comma_and_first_in_storeim() {
        let handles = |src| {
            toks(src)
                .into_iter()
                .filter(|t| *t == Tok::HandleKw)
                .count()
        };
        assert_eq!(handles("STOREIM.U32 handle(h.x), r, c, 2D;"), 1);
        assert_eq!(handles("LOADIM.U32 r, c, handle(h.x), 2D;"), 1);
        assert_eq!(handles("MOV handle (GT.x), r;"), 0);
        assert_eq!(
            handles("STOREIM.U32 image[0], r, c, 2D; MOV handle (GT), r;"),
            0
        );
    }

    #[test]
    fn ranges_are_not_floats() {
        assert_eq!(
            toks("PARAM c[2] = { program.local[0..1] };"),
            vec![
                Tok::Param,
                Tok::Word("c"),
                Tok::LBracket,
                Tok::Int("2"),
                Tok::RBracket,
                Tok::Equals,
                Tok::LBrace,
                Tok::Program,
                Tok::Dot,
                Tok::Word("local"),
                Tok::LBracket,
                Tok::Int("0"),
                Tok::DotDot,
                Tok::Int("1"),
                Tok::RBracket,
                Tok::RBrace,
                Tok::Semi
            ]
        );
    }

    #[test]
    fn floats_follow_section_2_x_2() {
        assert_eq!(
            toks("MOV 1.5 .5 1. 1e5 2E-3 0x1F 12"),
            vec![
                Tok::Word("MOV"),
                Tok::Float("1.5"),
                Tok::Float(".5"),
                Tok::Float("1."),
                Tok::Float("1e5"),
                Tok::Float("2E-3"),
                Tok::Int("0x1F"),
                Tok::Int("12")
            ]
        );
    }

    #[test]
    fn texture_targets_starting_with_digits_are_words() {
        assert_eq!(
            toks("X 2D, 3D"),
            vec![Tok::Word("X"), Tok::Word("2D"), Tok::Comma, Tok::Word("3D")]
        );
    }

    #[test]
    fn declaration_keywords_only_start_statements() {
        assert_eq!(
            toks("INT TEMP a; MOV TEMP, FLAT;"),
            vec![
                Tok::IntType,
                Tok::Temp,
                Tok::Word("a"),
                Tok::Semi,
                Tok::Word("MOV"),
                Tok::Word("TEMP"),
                Tok::Comma,
                Tok::Word("FLAT"),
                Tok::Semi
            ]
        );
    }

    #[test]
    fn comments_end_at_lf_cr_and_crlf() {
        assert_eq!(
            toks("# a\rA;# b\r\nB;# c\nC;#d"),
            vec![
                Tok::Word("A"),
                Tok::Semi,
                Tok::Word("B"),
                Tok::Semi,
                Tok::Word("C"),
                Tok::Semi
            ]
        );
    }

    #[test]
    fn reserved_words_depend_on_program_type() {
        let v: Vec<_> = Lexer::new("vertex fragment primitive", 0, Header::NvVp4)
            .map(|t| t.1)
            .collect();
        assert_eq!(
            v,
            vec![Tok::Vertex, Tok::Word("fragment"), Tok::Word("primitive")]
        );
        // ARB_fragment_program reserves neither `vertex` nor `primitive`.
        let v: Vec<_> = Lexer::new("vertex fragment primitive", 0, Header::ArbFp1)
            .map(|t| t.1)
            .collect();
        assert_eq!(
            v,
            vec![Tok::Word("vertex"), Tok::Fragment, Tok::Word("primitive")]
        );
    }

    #[test]
    fn a_word_before_a_colon_is_a_label_not_a_keyword() {
        assert_eq!(
            toks("TEMP: MOV TEMP, 1;"),
            vec![
                Tok::Word("TEMP"),
                Tok::Colon,
                Tok::Word("MOV"),
                Tok::Word("TEMP"),
                Tok::Comma,
                Tok::Int("1"),
                Tok::Semi
            ]
        );
    }

    #[test]
    fn text_after_end_is_ignored() {
        assert_eq!(toks("END\n# 5 instructions\n@@"), vec![Tok::End]);
    }

    #[test]
    fn stray_characters_are_reported_and_skipped() {
        let mut lx = Lexer::new("MOV @ R0\u{e9};", 0, Header::NvFp4);
        let v: Vec<_> = (&mut lx).map(|t| t.1).collect();
        assert_eq!(v, vec![Tok::Word("MOV"), Tok::Word("R0"), Tok::Semi]);
        assert_eq!(lx.diagnostics.len(), 2);
        assert_eq!(lx.diagnostics[1].primary_span(), Some(Span::new(8, 10)));
    }

    #[test]
    fn a_run_of_non_ascii_characters_is_one_diagnostic_naming_the_code_points() {
        let mut lx = Lexer::new("MOV R0, «é»;", 0, Header::NvFp4);
        let v: Vec<_> = (&mut lx).map(|t| t.1).collect();
        assert_eq!(
            v,
            vec![Tok::Word("MOV"), Tok::Word("R0"), Tok::Comma, Tok::Semi]
        );
        assert_eq!(lx.diagnostics.len(), 1);
        let d = &lx.diagnostics[0];
        assert_eq!(d.primary_span(), Some(Span::new(8, 14)));
        assert!(d.message.contains("U+00AB U+00E9 U+00BB"), "{}", d.message);
    }

    #[test]
    fn a_utf8_byte_order_mark_before_the_header_is_skipped() {
        assert_eq!(
            read_header("\u{feff}!!NVfp4.0\nEND\n").unwrap(),
            (Header::NvFp4, 12)
        );
        // Elsewhere it is not program text.
        let d = read_header("\u{200b}!!NVfp4.0\n").unwrap_err();
        assert!(
            d.labels[0].message.contains("\\u{200b}"),
            "{}",
            d.labels[0].message
        );
    }

    #[test]
    fn comments_may_hold_any_bytes() {
        let text = program_text(b"!!NVfp4.0\n# caf\xe9\r# \xff\xfe\nEND # \x80\n").unwrap();
        assert_eq!(text, "!!NVfp4.0\n# caf?\r# ??\nEND # ?\n");
        assert!(matches!(
            program_text(b"!!NVfp4.0\nEND\n").unwrap(),
            std::borrow::Cow::Borrowed(_)
        ));
    }

    #[test]
    fn bytes_outside_comments_are_named_one_diagnostic_per_run() {
        let d = program_text(b"!!NVfp4.0\nMOV caf\xe9, \xff\xfe; # \xe9\n\xe9").unwrap_err();
        assert_eq!(d.len(), 3, "{d:?}");
        assert_eq!(
            d[0].message,
            "the program is not valid UTF-8 text: byte 0xE9"
        );
        assert!(d[0].labels[0].message.contains("`é` in Latin-1"));
        assert_eq!(
            d[1].message,
            "the program is not valid UTF-8 text: bytes 0xFF 0xFE"
        );
        assert_eq!(d[1].primary_span(), Some(Span::new(20, 22)));
        // After the comment's line end, bytes are program text again.
        assert_eq!(d[2].primary_span(), Some(Span::new(28, 29)));
    }
}
