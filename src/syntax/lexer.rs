//! The lexer for the assembly family's program text (NV_gpu_program4
//! section 2.X.2; ARB_vertex_program 2.14.2; ARB_fragment_program 3.11.2).
//!
//! Whitespace is spaces, tabs, LF and CR; `#` starts a comment that runs to
//! the next LF or CR, so LF, CR and CRLF line ends all work. Two tokens are
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
use crate::isa::{Dialect, Header};
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

    // Reserved binding roots.
    Fragment,
    Vertex,
    Primitive,
    Program,
    Result,
    State,
    Texture,

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
            Tok::Fragment => "fragment",
            Tok::Vertex => "vertex",
            Tok::Primitive => "primitive",
            Tok::Program => "program",
            Tok::Result => "result",
            Tok::State => "state",
            Tok::Texture => "texture",
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
        }
    }
}

/// Reads the header on the first bytes of the program (section 2.X.2 and the
/// program-type specs: "Program string parsing begins with the character
/// immediately following the header string").
pub fn read_header(source: &str) -> Result<(Header, usize), Diagnostic> {
    if let Some(h) = Header::parse(source) {
        return Ok((h, h.text().len()));
    }
    let first_line_end = source.find(['\n', '\r']).unwrap_or(source.len()).min(64);
    let mut end = first_line_end;
    while !source.is_char_boundary(end) {
        end -= 1;
    }
    let found = source[..end].trim_end();
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
    Err(d.note(format!(
        "a program begins with its header as its very first characters: {} (NV_vertex_program4, NV_fragment_program4, NV_geometry_program4, ARB_vertex_program, ARB_fragment_program: \"A ... program is required to begin with the header string ..., without any preceding whitespace\")",
        headers.join(", ")
    )))
}

pub struct Lexer<'a> {
    src: &'a str,
    bytes: &'a [u8],
    pos: usize,
    dialect: Dialect,
    at_statement_start: bool,
    finished: bool,
    pub diagnostics: Vec<Diagnostic>,
}

pub type Spanned<'a> = (usize, Tok<'a>, usize);

impl<'a> Lexer<'a> {
    /// Lexes `src` from byte `start` (just after the header).
    pub fn new(src: &'a str, start: usize, header: Header) -> Lexer<'a> {
        Lexer {
            src,
            bytes: src.as_bytes(),
            pos: start,
            dialect: Dialect::new(header),
            at_statement_start: true,
            finished: false,
            diagnostics: Vec::new(),
        }
    }

    fn skip_trivia(&mut self) {
        while let Some(&b) = self.bytes.get(self.pos) {
            match b {
                b' ' | b'\t' | b'\n' | b'\r' => self.pos += 1,
                b'#' => {
                    while let Some(&c) = self.bytes.get(self.pos) {
                        if c == b'\n' || c == b'\r' {
                            break;
                        }
                        self.pos += 1;
                    }
                }
                _ => return,
            }
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
            _ => return None,
        })
    }

    fn reserved(&self, word: &str) -> Option<Tok<'static>> {
        if !self.dialect.reserves_root(word) {
            return None;
        }
        Some(match word {
            "program" => Tok::Program,
            "result" => Tok::Result,
            "state" => Tok::State,
            "texture" => Tok::Texture,
            "fragment" => Tok::Fragment,
            "vertex" => Tok::Vertex,
            "primitive" => Tok::Primitive,
            _ => return None,
        })
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

    fn is_word_start(b: u8) -> bool {
        b.is_ascii_alphabetic() || b == b'_' || b == b'$'
    }
    fn is_word_char(b: u8) -> bool {
        b.is_ascii_alphanumeric() || b == b'_' || b == b'$'
    }

    fn lex_number(&mut self) -> Tok<'a> {
        let start = self.pos;
        let b = self.bytes;
        let peek = |i: usize| b.get(i).copied().unwrap_or(0);
        if peek(self.pos) == b'0'
            && matches!(peek(self.pos + 1), b'x' | b'X')
            && peek(self.pos + 2).is_ascii_hexdigit()
        {
            self.pos += 2;
            while peek(self.pos).is_ascii_hexdigit() {
                self.pos += 1;
            }
            return self.finish_number(start, false);
        }
        let mut is_float = false;
        while peek(self.pos).is_ascii_digit() {
            self.pos += 1;
        }
        // `0..12` is a range, not the float `0.` followed by `.12`.
        if peek(self.pos) == b'.' && peek(self.pos + 1) != b'.' {
            is_float = true;
            self.pos += 1;
            while peek(self.pos).is_ascii_digit() {
                self.pos += 1;
            }
        }
        if matches!(peek(self.pos), b'e' | b'E') {
            let sign = matches!(peek(self.pos + 1), b'+' | b'-') as usize;
            if peek(self.pos + 1 + sign).is_ascii_digit() {
                is_float = true;
                self.pos += 1 + sign;
                while peek(self.pos).is_ascii_digit() {
                    self.pos += 1;
                }
            }
        }
        self.finish_number(start, is_float)
    }

    fn finish_number(&mut self, start: usize, is_float: bool) -> Tok<'a> {
        // Texture targets `1D`, `2D`, `3D` start with a digit: a number run
        // straight into letters is one word.
        if !is_float
            && self
                .bytes
                .get(self.pos)
                .is_some_and(|&c| Self::is_word_start(c))
        {
            while self
                .bytes
                .get(self.pos)
                .is_some_and(|&c| Self::is_word_char(c))
            {
                self.pos += 1;
            }
            return Tok::Word(&self.src[start..self.pos]);
        }
        let text = &self.src[start..self.pos];
        if is_float {
            Tok::Float(text)
        } else {
            Tok::Int(text)
        }
    }

    fn next_token(&mut self) -> Option<Spanned<'a>> {
        loop {
            if self.finished {
                return None;
            }
            self.skip_trivia();
            let start = self.pos;
            let &b = self.bytes.get(self.pos)?;
            let tok = if Self::is_word_start(b) {
                while self
                    .bytes
                    .get(self.pos)
                    .is_some_and(|&c| Self::is_word_char(c))
                {
                    self.pos += 1;
                }
                let word = &self.src[start..self.pos];
                if let Some(t) = self.reserved(word) {
                    t
                } else if self.at_statement_start && !self.label_follows() {
                    Self::statement_keyword(word).unwrap_or(Tok::Word(word))
                } else {
                    Tok::Word(word)
                }
            } else if b.is_ascii_digit()
                || (b == b'.'
                    && self
                        .bytes
                        .get(self.pos + 1)
                        .is_some_and(|c| c.is_ascii_digit()))
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
                        // Step over the whole character, so a multi-byte
                        // one is reported once with its real extent.
                        let mut end = start + 1;
                        while end < self.src.len() && !self.src.is_char_boundary(end) {
                            end += 1;
                        }
                        self.pos = end;
                        let ch = &self.src[start..end];
                        let shown = if ch == "\0" {
                            "NUL".to_string()
                        } else {
                            format!("{ch:?}")
                        };
                        self.diagnostics.push(
                            Diagnostic::error("E0001", format!("unexpected character {shown}"))
                                .primary(Span::new(start, end), "not part of the program language")
                                .note(
                                    "section 2.X.2: \"A program is invalid if it contains any tokens or \
                                     characters not defined in this specification.\"",
                                ),
                        );
                        continue;
                    }
                }
            };
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

impl<'a> Iterator for Lexer<'a> {
    type Item = Result<Spanned<'a>, super::parse::Stop>;
    fn next(&mut self) -> Option<Self::Item> {
        self.next_token().map(Ok)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(src: &str) -> Vec<Tok<'_>> {
        Lexer::new(src, 0, Header::NvFp4)
            .map(|t| t.unwrap().1)
            .collect()
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
            .map(|t| t.unwrap().1)
            .collect();
        assert_eq!(
            v,
            vec![Tok::Vertex, Tok::Word("fragment"), Tok::Word("primitive")]
        );
        // ARB_fragment_program reserves neither `vertex` nor `primitive`.
        let v: Vec<_> = Lexer::new("vertex fragment primitive", 0, Header::ArbFp1)
            .map(|t| t.unwrap().1)
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
        let v: Vec<_> = (&mut lx).map(|t| t.unwrap().1).collect();
        assert_eq!(v, vec![Tok::Word("MOV"), Tok::Word("R0"), Tok::Semi]);
        assert_eq!(lx.diagnostics.len(), 2);
        assert_eq!(lx.diagnostics[1].primary_span(), Some(Span::new(8, 10)));
    }
}
