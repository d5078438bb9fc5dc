//! What the language server knows about a document: its declarations,
//! labels, the places that name them, bindings, options and opcodes (the
//! syntax index), and the hover text for opcodes (from the instruction
//! table, `crate::isa`) and names.
//!
//! **Statement by statement.** The index is a list of statements, each
//! read on its own: the lexer runs from the end of the statement before to
//! the next `;` (or a label's `:`), and those tokens are parsed as a
//! program of one statement ([`crate::syntax::parse_statement`]). The
//! program's structure beyond that is flat for the index (`IF`/`REP`
//! nesting and the order of options, declarations and instructions are the
//! checker's business, and its diagnostics report them), so:
//!
//! * a statement that does not parse costs only itself: an `OPTION` with
//!   no name, a half-typed instruction, do not hide the statements after
//!   them;
//! * an edit re-reads only the statements it touches
//!   ([`DocumentIndex::edited`]): reading starts at the end of the last
//!   statement before the edit (after a `;` or `:` the lexer is in the
//!   same state as at the start of a program) and stops at the first
//!   statement end past the edit that is also a statement end of the old
//!   text — from there on the text, and so every statement, is the same.
//!   Each statement keeps its positions relative to its own start, so the
//!   statements after an edit are shared with the old index unchanged;
//!   only the table of where each one starts moves.
//!
//! An edit thus costs the statements it touches plus a pass over a table
//! of one `u32` per statement, whatever the size of the file.

use std::sync::Arc;

use super::text::TextChange;
use crate::isa::{
    split_opcode, DataType, Header, Modifier, OpInfo, OperandKind, ResultKind, Shape, Stage,
    TypeRule,
};
use crate::span::Span;
use crate::syntax::ast::{
    Arg, DeclKind, Declaration, IndexExpr, Init, InitItem, Instruction, Path, PathHead, PathPart,
    Root, Statement,
};
use crate::syntax::lexer::{Lexer, Tok};

/// What a symbol is.
///
/// ```
/// # use nvp4c::lsp::analysis::*;
/// let source = "!!NVfp4.0\nTEMP R0;\nADDR_SAT R0, fragment.color, 1.0;\nMOV result.color, R0;\nEND\n";
/// let index = DocumentIndex::new(source).unwrap();
/// assert_eq!(index.symbols()[0].kind, SymbolKind::Temp);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymbolKind {
    Attrib,
    Param,
    Temp,
    Output,
    Alias,
    Buffer,
    /// NV_gpu_program5's texture variables.
    Texture,
    /// `ADDRESS` (ARB_vertex_program 2.14.3.5).
    Address,
    Label,
}

impl SymbolKind {
    fn describe(self) -> &'static str {
        match self {
            SymbolKind::Attrib => "attribute",
            SymbolKind::Param => "parameter",
            SymbolKind::Temp => "temporary",
            SymbolKind::Output => "output",
            SymbolKind::Alias => "alias",
            SymbolKind::Buffer => "parameter buffer",
            SymbolKind::Texture => "texture variable",
            SymbolKind::Address => "address register",
            SymbolKind::Label => "label (subroutine)",
        }
    }
}

/// A declared name or a label.
///
/// ```
/// # use nvp4c::lsp::analysis::*;
/// let source = "!!NVfp4.0\nTEMP R0;\nADDR_SAT R0, fragment.color, 1.0;\nMOV result.color, R0;\nEND\n";
/// let index = DocumentIndex::new(source).unwrap();
/// let r0 = &index.symbols()[0];
/// assert_eq!((r0.name.as_str(), &source[r0.name_span.range()]), ("R0", "R0"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    pub name: String,
    pub kind: SymbolKind,
    /// The name where it is declared.
    pub name_span: Span,
    /// The whole declaration (for a label: the label up to the next one or
    /// `END`).
    pub span: Span,
    /// The declaration statement (for a label: `name:`).
    pub statement: Span,
    /// `[n]` / `[]` for arrays.
    pub array: Option<String>,
    /// `INT`, `UINT`, `FLOAT`, `FLAT`, ... as written.
    pub modifiers: Vec<String>,
}

/// A place that names a symbol.
///
/// ```
/// # use nvp4c::lsp::analysis::*;
/// let source = "!!NVfp4.0\nTEMP R0;\nADDR_SAT R0, fragment.color, 1.0;\nMOV result.color, R0;\nEND\n";
/// let index = DocumentIndex::new(source).unwrap();
/// let uses = index.references_to(&index.symbols()[0]);
/// assert_eq!(uses.len(), 2); // the two uses of R0
/// assert!(!uses[0].label);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reference {
    pub name: String,
    pub span: Span,
    /// A CAL target (labels have their own namespace).
    pub label: bool,
    /// The destination of an instruction (written, not read).
    pub write: bool,
}

/// A binding written in the program (`fragment.color`, `state.matrix.mvp`),
/// as the parser read it. Its spans are relative to the start of its
/// statement; [`DocumentIndex::binding_at`] says where that is.
#[derive(Clone, Debug, PartialEq)]
pub struct BindingSite {
    pub path: Path,
    /// In a declaration's initializer, where ranges are allowed.
    pub in_declaration: bool,
    /// For `texture[n]` in a texture instruction: the target that follows.
    pub texture_target: Option<String>,
}

/// Where an instruction names its opcode and modifiers.
///
/// ```
/// # use nvp4c::lsp::analysis::*;
/// let source = "!!NVfp4.0\nTEMP R0;\nADDR_SAT R0, fragment.color, 1.0;\nMOV result.color, R0;\nEND\n";
/// let index = DocumentIndex::new(source).unwrap();
/// let at = source.find("ADDR_SAT").unwrap() as u32;
/// assert!(index.hover(source, at).unwrap().0.starts_with("**ADD**"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpcodeSite {
    /// The opcode word with its suffixes, e.g. `ADDR_SAT`.
    pub word: String,
    pub span: Span,
    /// Stand-alone modifiers (`SAT` of `.SAT`), without the dot.
    pub modifiers: Vec<(String, Span)>,
}

/// What kind of statement a [`Chunk`] holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum StatementKind {
    Option,
    Declaration,
    Instruction,
    Label,
    /// Tokens that are not a statement (yet).
    Unreadable,
}

/// One statement of the index and the text before it back to the end of
/// the statement before (comments, blank lines), with everything it
/// contributes. Spans are relative to the chunk's start.
#[derive(Clone, Debug, PartialEq)]
struct Chunk {
    /// Bytes of text: up to and including its `;` or `:`.
    len: u32,
    /// Whether it ends with `;` or `:` (only the last chunk may not: the
    /// text ends, or `END` comes, first).
    terminated: bool,
    kind: StatementKind,
    /// Where its first token starts.
    first: u32,
    symbols: Vec<Symbol>,
    references: Vec<Reference>,
    instruction: Option<OpcodeSite>,
    bindings: Vec<BindingSite>,
    option: Option<(String, Span)>,
    targets: Vec<(String, Span)>,
}

/// Why reading stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stop {
    /// At `END` (absolute span); the text after it is not program.
    End(Span),
    /// At the end of the text, without `END`.
    Eof,
}

/// Reads the chunks of a text one by one from a statement start.
struct Reader<'t> {
    text: &'t str,
    pos: usize,
    header: Header,
    stop: Option<Stop>,
}

impl Reader<'_> {
    fn next(&mut self) -> Option<Chunk> {
        if self.stop.is_some() {
            return None;
        }
        let rest = &self.text[self.pos..];
        let mut tokens: Vec<(usize, Tok<'_>, usize)> = Vec::new();
        let mut end_token = None;
        for (l, tok, r) in Lexer::new(rest, 0, self.header) {
            if tok == Tok::End {
                end_token = Some(Span::new(self.pos + l, self.pos + r));
                break;
            }
            tokens.push((l, tok, r));
            if matches!(tok, Tok::Semi | Tok::Colon) {
                break;
            }
        }
        let terminated = tokens
            .last()
            .is_some_and(|t| matches!(t.1, Tok::Semi | Tok::Colon));
        let len = match (terminated, end_token) {
            (true, _) => tokens.last().map_or(0, |t| t.2),
            (false, Some(end)) => end.start as usize - self.pos,
            (false, None) => rest.len(),
        };
        if !terminated {
            self.stop = Some(end_token.map_or(Stop::Eof, Stop::End));
        }
        if tokens.is_empty() {
            return None;
        }
        let first = tokens[0].0 as u32;
        let statements = crate::syntax::parse_statement(tokens, len).unwrap_or_default();
        self.pos += len;
        Some(Chunk::new(len as u32, terminated, first, &statements))
    }
}

impl Chunk {
    fn new(len: u32, terminated: bool, first: u32, statements: &[Statement]) -> Chunk {
        let mut chunk = Chunk {
            len,
            terminated,
            kind: StatementKind::Unreadable,
            first,
            symbols: Vec::new(),
            references: Vec::new(),
            instruction: None,
            bindings: Vec::new(),
            option: None,
            targets: Vec::new(),
        };
        for statement in statements {
            match statement {
                Statement::Decl(d) => {
                    chunk.kind = StatementKind::Declaration;
                    chunk.declaration(d);
                }
                Statement::Instruction(i) => {
                    chunk.kind = StatementKind::Instruction;
                    chunk.instruction(i);
                }
                Statement::Option(id) => {
                    chunk.kind = StatementKind::Option;
                    chunk.option = Some((id.name.to_string(), id.span));
                }
                Statement::Label(l, _) => {
                    chunk.kind = StatementKind::Label;
                    chunk.symbols.push(Symbol {
                        name: l.name.to_string(),
                        kind: SymbolKind::Label,
                        name_span: l.span,
                        span: l.span,
                        statement: Span {
                            start: l.span.start,
                            end: l.span.end + 1,
                        },
                        array: None,
                        modifiers: Vec::new(),
                    });
                }
                Statement::Error(_) => {}
            }
        }
        chunk
    }

    fn declaration(&mut self, d: &Declaration) {
        let modifiers: Vec<String> = d
            .modifiers
            .iter()
            .map(|(m, _)| m.name().to_string())
            .collect();
        let mut add = |name: &crate::syntax::ast::Ident, kind, array: Option<String>| {
            self.symbols.push(Symbol {
                name: name.name.to_string(),
                kind,
                name_span: name.span,
                span: d.span,
                statement: d.span,
                array,
                modifiers: modifiers.clone(),
            })
        };
        let size = |s: &Option<crate::syntax::ast::ArraySize>| {
            s.as_ref()
                .map(|s| format!("[{}]", s.len.as_ref().map_or("", |l| l.text.as_str())))
        };
        let init = match &d.kind {
            DeclKind::Attrib { init, .. }
            | DeclKind::Param { init, .. }
            | DeclKind::Output { init, .. }
            | DeclKind::Buffer { init, .. }
            | DeclKind::ConstantBuffer { init, .. } => Some(init),
            _ => None,
        };
        let items: Vec<&InitItem> = match init {
            Some(Init::Single(item)) => vec![item],
            Some(Init::List(items, _)) => items.iter().collect(),
            None => Vec::new(),
        };
        for item in items {
            if let InitItem::Binding(path) = item {
                if matches!(path.head, PathHead::Root(..)) {
                    self.bindings.push(BindingSite {
                        path: path.clone(),
                        in_declaration: true,
                        texture_target: None,
                    });
                }
            }
        }
        match &d.kind {
            DeclKind::Attrib { name, size: s, .. } => add(name, SymbolKind::Attrib, size(s)),
            DeclKind::Param { name, size: s, .. } => add(name, SymbolKind::Param, size(s)),
            // `!!FP1.0`'s named constants and local parameters.
            DeclKind::Define { name, .. } | DeclKind::Declare { name, .. } => {
                add(name, SymbolKind::Param, None)
            }
            DeclKind::Output { name, size: s, .. } => add(name, SymbolKind::Output, size(s)),
            DeclKind::Buffer { name, size: s, .. }
            | DeclKind::ConstantBuffer { name, size: s, .. } => {
                add(name, SymbolKind::Buffer, size(s))
            }
            DeclKind::Temp { names } => {
                for (name, s) in names {
                    add(name, SymbolKind::Temp, size(s));
                }
            }
            DeclKind::Address { names } => {
                for (name, s) in names {
                    add(name, SymbolKind::Address, size(s));
                }
            }
            DeclKind::Alias { name, target } => {
                add(name, SymbolKind::Alias, None);
                self.references.push(Reference {
                    name: target.name.to_string(),
                    span: target.span,
                    label: false,
                    write: false,
                });
            }
            DeclKind::Texture { name, size: s, .. } | DeclKind::Image { name, size: s, .. } => {
                add(name, SymbolKind::Texture, size(s))
            }
            DeclKind::Storage { name, size: s, .. }
            | DeclKind::Shared { name, size: s, .. }
            | DeclKind::Counter { name, size: s, .. } => add(name, SymbolKind::Buffer, size(s)),
            // ARB_shader_subroutine: a subroutine variable is a program
            // (subroutine) parameter; a SUBROUTINETYPE names labels.
            DeclKind::Subroutine { name, size: s, .. } => add(name, SymbolKind::Param, size(s)),
            DeclKind::SubroutineType { labels, .. } => {
                for l in labels {
                    self.references.push(Reference {
                        name: l.name.to_string(),
                        span: l.span,
                        label: true,
                        write: false,
                    });
                }
            }
            DeclKind::PrimitiveIn(_)
            | DeclKind::PrimitiveOut(_)
            | DeclKind::VerticesOut(_)
            | DeclKind::Layout { .. } => {}
        }
    }

    fn instruction(&mut self, inst: &Instruction) {
        self.instruction = Some(OpcodeSite {
            word: inst.opcode.name.to_string(),
            span: inst.opcode.span,
            modifiers: inst
                .modifiers
                .iter()
                .map(|m| (m.name.to_string(), m.span))
                .collect(),
        });
        let info = split_opcode(&inst.opcode.name).ok().map(|s| s.info);
        let is_call = info.is_some_and(|i| i.name == "CAL");
        let has_result = info.is_some_and(|i| i.has_result());
        let is_texture = info.is_some_and(|i| matches!(i.shape, Shape::Tex | Shape::Txd));
        for (n, arg) in inst.args.iter().enumerate() {
            let Arg::Operand(op) = arg else { continue };
            if let PathHead::Root(root, _) = op.path.head {
                // The target is the operand after `texture[n]`.
                let target = match (root, inst.args.get(n + 1)) {
                    (Root::Texture, Some(Arg::Operand(t))) if is_texture => match &t.path.head {
                        PathHead::Name(id) if t.path.parts.is_empty() => {
                            self.targets.push((id.name.to_string(), id.span));
                            Some(id.name.to_string())
                        }
                        _ => None,
                    },
                    _ => None,
                };
                self.bindings.push(BindingSite {
                    path: op.path.clone(),
                    in_declaration: false,
                    texture_target: target,
                });
                continue;
            }
            if is_texture && n > 0 && self.targets.last().is_some_and(|t| t.1 == op.path.span) {
                continue;
            }
            self.path(&op.path, is_call, has_result && n == 0);
        }
    }

    fn path(&mut self, path: &Path, label: bool, write: bool) {
        if let PathHead::Name(id) = &path.head {
            self.references.push(Reference {
                name: id.name.to_string(),
                span: id.span,
                label,
                write,
            });
        }
        for part in &path.parts {
            if let PathPart::Index(IndexExpr::Relative { register, .. }, _) = part {
                self.references.push(Reference {
                    name: register.name.to_string(),
                    span: register.span,
                    label: false,
                    write: false,
                });
            }
        }
    }
}

fn shift(span: Span, by: u32) -> Span {
    Span {
        start: span.start + by,
        end: span.end + by,
    }
}

/// The syntax index of one document (module documentation).
///
/// ```
/// # use nvp4c::lsp::analysis::*;
/// let source = "!!NVfp4.0\nTEMP R0;\nADDR_SAT R0, fragment.color, 1.0;\nMOV result.color, R0;\nEND\n";
/// let index = DocumentIndex::new(source).unwrap();
/// let use_of_r0 = source.find("R0, frag").unwrap() as u32;
/// let (symbol, _) = index.symbol_at(use_of_r0).unwrap();
/// assert_eq!(symbol.name, "R0");
/// let (text, _) = index.hover(source, use_of_r0).unwrap();
/// assert!(text.contains("TEMP R0;"));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct DocumentIndex {
    pub stage: Stage,
    /// The header's language (`!!ARBfp1.0` ...).
    pub program_header: Header,
    /// The header (`!!NVfp4.0`).
    pub header: Span,
    /// The statements in source order, shared between versions.
    chunks: Vec<Arc<Chunk>>,
    /// Where each chunk starts.
    starts: Vec<u32>,
    /// Why reading stopped.
    stop: Stop,
    /// The length of the text.
    len: u32,
}

impl DocumentIndex {
    /// Indexes a document; `None` without a program header.
    pub fn new(source: &str) -> Option<DocumentIndex> {
        let (program_header, header_end) = crate::syntax::lexer::read_header(source).ok()?;
        let mut index = DocumentIndex {
            stage: program_header.stage(),
            program_header,
            header: Span::new(0, header_end),
            chunks: Vec::new(),
            starts: Vec::new(),
            stop: Stop::Eof,
            len: source.len() as u32,
        };
        index.read(source, header_end, None);
        Some(index)
    }

    /// Reads chunks from `pos` (a statement start) to the end, or until
    /// `old` — the index of the text before `change` — has a chunk ending
    /// where the reading does, past the change: its chunks from there on
    /// are taken over.
    fn read(&mut self, source: &str, pos: usize, old: Option<(&DocumentIndex, TextChange)>) {
        let mut reader = Reader {
            text: source,
            pos,
            header: self.program_header,
            stop: None,
        };
        loop {
            let start = reader.pos;
            let Some(chunk) = reader.next() else {
                self.stop = reader.stop.unwrap_or(Stop::Eof);
                return;
            };
            let end = start + chunk.len as usize;
            let terminated = chunk.terminated;
            self.starts.push(start as u32);
            self.chunks.push(Arc::new(chunk));
            let Some((old, change)) = old else {
                continue;
            };
            if !terminated || end < change.new_end {
                continue;
            }
            // The text from `end` on here is the text from `old_end` on
            // there; if a statement ended there too, the rest is the same.
            let old_end = (end as isize - change.delta()) as u32;
            let after = old.starts.partition_point(|&s| s < old_end);
            let aligned = match old.starts.get(after) {
                Some(&s) => s == old_end,
                None => old
                    .chunks
                    .last()
                    .is_some_and(|c| c.terminated && old.starts[after - 1] + c.len == old_end),
            };
            if aligned {
                let moved = |s: u32| (s as isize + change.delta()) as u32;
                self.chunks.extend(old.chunks[after..].iter().cloned());
                self.starts
                    .extend(old.starts[after..].iter().map(|&s| moved(s)));
                self.stop = match old.stop {
                    Stop::End(span) => Stop::End(Span {
                        start: moved(span.start),
                        end: moved(span.end),
                    }),
                    Stop::Eof => Stop::Eof,
                };
                return;
            }
        }
    }

    /// The index of `source`, which `change` made from the text this index
    /// is of, re-reading only the statements the change touches (module
    /// documentation). Equal to `DocumentIndex::new(source)`.
    ///
    /// ```
    /// # use nvp4c::lsp::analysis::*;
    /// # use nvp4c::lsp::text::difference;
    /// let old = "!!NVfp4.0\nTEMP a;\nMOV a, fragment.color;\nMOV result.color, a;\nEND\n";
    /// let new = old.replace("TEMP a;", "TEMP a, b;");
    /// let index = DocumentIndex::new(old).unwrap();
    /// let edited = index.edited(&new, difference(old, &new)).unwrap();
    /// assert_eq!(edited, DocumentIndex::new(&new).unwrap());
    /// assert_eq!(edited.symbols().len(), 2);
    /// ```
    pub fn edited(&self, source: &str, change: TextChange) -> Option<DocumentIndex> {
        // The header decides the program type, and with it the tokens.
        if change.start <= self.header.end as usize {
            return DocumentIndex::new(source);
        }
        let mut index = DocumentIndex {
            stage: self.stage,
            program_header: self.program_header,
            header: self.header,
            chunks: Vec::new(),
            starts: Vec::new(),
            stop: self.stop,
            len: source.len() as u32,
        };
        // Past `END`: not program text.
        if let Stop::End(end) = self.stop {
            if change.start > end.end as usize {
                index.chunks = self.chunks.clone();
                index.starts = self.starts.clone();
                return Some(index);
            }
        }
        // The chunks that end (with `;` or `:`) before the change stay.
        let mut keep = self
            .starts
            .partition_point(|&s| (s as usize) < change.start);
        if keep > 0 && self.end_of(keep - 1) > change.start {
            keep -= 1;
        }
        if keep > 0 && !self.chunks[keep - 1].terminated {
            keep -= 1;
        }
        index.chunks.extend(self.chunks[..keep].iter().cloned());
        index.starts.extend_from_slice(&self.starts[..keep]);
        let pos = if keep > 0 {
            (self.starts[keep - 1] + self.chunks[keep - 1].len) as usize
        } else {
            self.header.end as usize
        };
        index.read(source, pos, Some((self, change)));
        Some(index)
    }

    /// The document's dialect: its header and the options it names (an
    /// unknown option adds nothing).
    pub fn dialect(&self) -> crate::isa::Dialect {
        let mut d = crate::isa::Dialect::new(self.program_header);
        for (name, _) in &self.options() {
            if let Some(o) =
                crate::isa::option_info(name).filter(|o| o.headers.contains(&self.program_header))
            {
                d.enable(o.features);
            }
        }
        d
    }

    fn end_of(&self, i: usize) -> usize {
        (self.starts[i] + self.chunks[i].len) as usize
    }

    /// How many statements (and unreadable runs of tokens) the index holds.
    pub fn statements(&self) -> usize {
        self.chunks.len()
    }

    /// The chunk holding `offset`, and its start (the one before too when
    /// `offset` is where it ends, for a cursor just after a word).
    fn chunks_at(&self, offset: u32) -> impl Iterator<Item = (u32, &Chunk)> {
        let i = self.starts.partition_point(|&s| s <= offset);
        let from = i.saturating_sub(2);
        (from..i).rev().map(|i| (self.starts[i], &*self.chunks[i]))
    }

    /// Where a label's subroutine ends: at the next label, or `END`.
    fn label_end(&self, chunk: usize) -> u32 {
        self.chunks[chunk + 1..]
            .iter()
            .zip(&self.starts[chunk + 1..])
            .find(|(c, _)| c.kind == StatementKind::Label)
            .map_or(self.program_end(), |(c, s)| s + c.first)
    }

    /// Where the statements end: `END`, or the end of the text.
    fn program_end(&self) -> u32 {
        match self.stop {
            Stop::End(span) => span.start,
            Stop::Eof => self.len,
        }
    }

    fn absolute(&self, chunk: usize, symbol: &Symbol) -> Symbol {
        let base = self.starts[chunk];
        let mut s = symbol.clone();
        s.name_span = shift(s.name_span, base);
        s.span = shift(s.span, base);
        s.statement = shift(s.statement, base);
        if s.kind == SymbolKind::Label {
            s.span.end = self.label_end(chunk).max(s.span.end);
        }
        s
    }

    /// Every declared name and label, in source order.
    pub fn symbols(&self) -> Vec<Symbol> {
        let mut out: Vec<Symbol> = Vec::new();
        let mut labels = Vec::new();
        for (i, chunk) in self.chunks.iter().enumerate() {
            for s in &chunk.symbols {
                let mut s = s.clone();
                let base = self.starts[i];
                s.name_span = shift(s.name_span, base);
                s.span = shift(s.span, base);
                s.statement = shift(s.statement, base);
                if s.kind == SymbolKind::Label {
                    labels.push(out.len());
                }
                out.push(s);
            }
        }
        // A label's subroutine runs to the next label or END.
        let mut next = self.program_end();
        for &l in labels.iter().rev() {
            out[l].span.end = next.max(out[l].span.end);
            next = out[l].span.start;
        }
        out
    }

    /// The first symbol named `name` in its namespace (labels, or the rest).
    pub fn symbol_named(&self, name: &str, label: bool) -> Option<Symbol> {
        self.chunks.iter().enumerate().find_map(|(i, c)| {
            c.symbols
                .iter()
                .find(|s| s.name == name && (s.kind == SymbolKind::Label) == label)
                .map(|s| self.absolute(i, s))
        })
    }

    /// The `OPTION` names, in source order.
    pub fn options(&self) -> Vec<(String, Span)> {
        self.chunks
            .iter()
            .zip(&self.starts)
            .filter_map(|(c, &base)| c.option.as_ref().map(|(n, s)| (n.clone(), shift(*s, base))))
            .collect()
    }

    /// Where the declarations end and the instructions begin (the first
    /// instruction or label).
    pub fn first_instruction(&self) -> Option<u32> {
        self.chunks
            .iter()
            .zip(&self.starts)
            .find(|(c, _)| matches!(c.kind, StatementKind::Instruction | StatementKind::Label))
            .map(|(c, s)| s + c.first)
    }

    /// The places that name `symbol` (its declaration not included), in
    /// source order: labels are named by CAL, everything else by operands
    /// and ALIAS.
    ///
    /// ```
    /// # use nvp4c::lsp::analysis::*;
    /// let source = "!!NVfp4.0\nTEMP R0;\nMOV R0, fragment.color;\nMOV result.color, R0;\nEND\n";
    /// let index = DocumentIndex::new(source).unwrap();
    /// let uses = index.references_to(&index.symbols()[0]);
    /// assert_eq!((uses.len(), uses[0].write, uses[1].write), (2, true, false));
    /// ```
    pub fn references_to(&self, symbol: &Symbol) -> Vec<Reference> {
        let label = symbol.kind == SymbolKind::Label;
        let mut out = Vec::new();
        for (chunk, &base) in self.chunks.iter().zip(&self.starts) {
            for r in &chunk.references {
                if r.name == symbol.name && r.label == label {
                    let mut r = r.clone();
                    r.span = shift(r.span, base);
                    out.push(r);
                }
            }
        }
        out
    }

    /// The binding whose path contains `offset`, and where its statement
    /// starts (the site's spans are relative to it).
    pub fn binding_at(&self, offset: u32) -> Option<(&BindingSite, u32)> {
        self.chunks_at(offset).find_map(|(base, c)| {
            c.bindings
                .iter()
                .find(|b| contains(shift(b.path.span, base), offset))
                .map(|b| (b, base))
        })
    }

    /// The `OPTION` name at `offset`.
    pub fn option_at(&self, offset: u32) -> Option<(String, Span)> {
        self.chunks_at(offset).find_map(|(base, c)| {
            let (name, span) = c.option.as_ref()?;
            let span = shift(*span, base);
            contains(span, offset).then(|| (name.clone(), span))
        })
    }

    /// The texture target at `offset`.
    pub fn target_at(&self, offset: u32) -> Option<(String, Span)> {
        self.chunks_at(offset).find_map(|(base, c)| {
            c.targets
                .iter()
                .map(|(t, s)| (t, shift(*s, base)))
                .find(|(_, s)| contains(*s, offset))
                .map(|(t, s)| (t.clone(), s))
        })
    }

    /// The symbol a reference or declaration at `offset` names, and the
    /// span of the name there.
    pub fn symbol_at(&self, offset: u32) -> Option<(Symbol, Span)> {
        let i = self.starts.partition_point(|&s| s <= offset);
        for i in (i.saturating_sub(2)..i).rev() {
            let (base, chunk) = (self.starts[i], &self.chunks[i]);
            if let Some(s) = chunk
                .symbols
                .iter()
                .find(|s| contains(shift(s.name_span, base), offset))
            {
                let s = self.absolute(i, s);
                let span = s.name_span;
                return Some((s, span));
            }
            if let Some(r) = chunk
                .references
                .iter()
                .find(|r| contains(shift(r.span, base), offset))
            {
                return self
                    .symbol_named(&r.name, r.label)
                    .map(|s| (s, shift(r.span, base)));
            }
        }
        None
    }

    /// Hover text (Markdown) for what is at `offset`, and the range it
    /// describes.
    pub fn hover(&self, source: &str, offset: u32) -> Option<(String, Span)> {
        for (base, chunk) in self.chunks_at(offset) {
            let Some(site) = &chunk.instruction else {
                continue;
            };
            let span = shift(site.span, base);
            if contains(span, offset) {
                return opcode_hover(&site.word).map(|text| (text, span));
            }
            for (m, span) in &site.modifiers {
                let span = shift(*span, base);
                if contains(span, offset) {
                    let m = Modifier::standalone(m)?;
                    return Some((format!("**.{}** — {}", m.name(), modifier_meaning(m)), span));
                }
            }
        }
        match self.symbol_at(offset) {
            Some((symbol, span)) => Some((symbol_hover(&symbol, source), span)),
            None => self.predefined_at(offset),
        }
    }

    /// A register the dialect predefines, named at `offset` without a
    /// declaration: NV_fragment_program2's `A0`, the loop index.
    fn predefined_at(&self, offset: u32) -> Option<(String, Span)> {
        let (name, span) = self.chunks_at(offset).find_map(|(base, c)| {
            c.references
                .iter()
                .map(|r| (&r.name, shift(r.span, base)))
                .find(|(_, s)| contains(*s, offset))
        })?;
        let loop_index = self.dialect().address_model() == crate::isa::AddressModel::LoopIndex;
        (loop_index && name == "A0").then(|| {
            (
                "**A0** — the loop index: `A0.x` is the counter of the innermost `LOOP` (`{count, start, step}`), for relative addressing such as `c[A0.x + 1]`; it is read-only\n\nSpec: NV_fragment_program2 section 3.11.3.Y".to_string(),
                span,
            )
        })
    }
}

/// Whether `offset` is in `span` (its end included, so a cursor just after
/// a word still names it).
pub(crate) fn contains(span: Span, offset: u32) -> bool {
    span.start <= offset && offset <= span.end && span.start < span.end
}

fn symbol_hover(symbol: &Symbol, source: &str) -> String {
    let text = source
        .get(symbol.statement.range())
        .unwrap_or(&symbol.name)
        .trim();
    // A declaration's span ends before its `;`.
    let terminator = if symbol.kind == SymbolKind::Label || text.ends_with(';') {
        ""
    } else {
        ";"
    };
    let mut out = format!("```nvp4\n{text}{terminator}\n```\n\n");
    let ty = symbol
        .modifiers
        .iter()
        .find_map(|m| match m.as_str() {
            "INT" => Some("signed integer (`INT`)"),
            "UINT" => Some("unsigned integer (`UINT`)"),
            "FLOAT" => Some("floating-point (`FLOAT`)"),
            _ => None,
        })
        .unwrap_or(match symbol.kind {
            SymbolKind::Label | SymbolKind::Alias => "",
            SymbolKind::Address => "signed integer, for relative addressing (`c[A0.x + n]`)",
            _ => "typeless (32-bit patterns, read as each instruction's data type)",
        });
    out.push_str(&format!("**{}** — {}", symbol.name, symbol.kind.describe()));
    if let Some(a) = &symbol.array {
        out.push_str(&format!(" array {a}"));
    }
    if !ty.is_empty() {
        out.push_str(&format!(", {ty}"));
    }
    let others: Vec<&str> = symbol
        .modifiers
        .iter()
        .map(String::as_str)
        .filter(|m| !matches!(*m, "INT" | "UINT" | "FLOAT"))
        .collect();
    if !others.is_empty() {
        out.push_str(&format!(" ({})", others.join(", ")));
    }
    out
}

/// Hover text for an opcode word, suffixes included (`ADDR_SAT`).
///
/// ```
/// let text = nvp4c::lsp::analysis::opcode_hover("MULC").unwrap();
/// assert!(text.contains("`C`: update condition code CC0"));
/// ```
pub fn opcode_hover(word: &str) -> Option<String> {
    let split = split_opcode(word).ok()?;
    let info = split.info;
    let mut out = format!("**{}** — {}\n\n", info.name, info.summary);
    if !split.suffixes.is_empty() {
        let parts: Vec<String> = split
            .suffixes
            .iter()
            .map(|(m, a, b)| format!("`{}`: {}", &word[*a..*b], modifier_meaning(*m)))
            .collect();
        out.push_str(&format!(
            "`{word}` = `{}` + {}\n\n",
            info.name,
            parts.join(", ")
        ));
    }
    out.push_str(&format!("Form: `{}`\n\n", signature(info)));
    out.push_str(&format!(
        "Default data type: {}. Modifiers: {}.\n\n",
        match info.default_type {
            DataType::Float => "float",
            DataType::Signed => "signed integer",
            DataType::Unsigned => "unsigned integer",
        },
        modifier_support(info)
    ));
    if let Some(stage) = info.only_stage {
        out.push_str(&format!("Only in {stage} programs.\n\n"));
    }
    // The instruction table's availability columns (src/isa.rs).
    let languages: Vec<&str> = info.languages().map(|c| c.describe()).collect();
    out.push_str(&format!("Exists in: {}.\n\n", languages.join("; ")));
    out.push_str(&format!("Spec: section {}", info.section));
    Some(out)
}

fn signature(info: &OpInfo) -> String {
    let rule = |r: TypeRule| match r {
        TypeRule::Inherit => "",
        TypeRule::Float => "f",
        TypeRule::Signed => "s",
        TypeRule::Unsigned => "u",
    };
    let mut args: Vec<String> = Vec::new();
    match info.result {
        ResultKind::None => {}
        ResultKind::Vector(r) => args.push(format!("v{}", rule(r))),
        ResultKind::Scalar(r) => args.push(format!("s{}", rule(r))),
        ResultKind::Address => args.push("a".into()),
    }
    let mut inputs: Vec<String> = info
        .inputs
        .iter()
        .map(|k| match k {
            OperandKind::Vector(r) => format!("v{}", rule(*r)),
            OperandKind::Scalar(r) => format!("s{}", rule(*r)),
            OperandKind::Address => "a".to_string(),
        })
        .collect();
    match info.shape {
        Shape::Tex => inputs.push("texImageUnit, texTarget".into()),
        Shape::Txd => inputs.push("texImageUnit, texTarget".into()),
        Shape::Swz => inputs.push("extendedSwizzle".into()),
        // EXT_shader_image_load_store: the image and its target.
        Shape::Image => inputs.push("imageUnit, imageTarget".into()),
        Shape::Call => inputs.push("label".into()),
        Shape::If | Shape::FlowCc => inputs.push("(ccTest)".into()),
        // The memory operand: a byte offset into a STORAGE or SHARED
        // variable (Table X.13's "su" for the shared memory instructions).
        Shape::Memory => inputs.push("storageUse".into()),
        Shape::SharedMemory => inputs.push("sharedUse".into()),
        // NV_gpu_program5 Table X.13: the GPU address, "su".
        Shape::GlobalMemory => inputs.push("address".into()),
        _ => {}
    }
    if args.is_empty() {
        format!("{} {}", info.name, inputs.join(", "))
            .trim_end()
            .to_string()
    } else {
        format!(
            "{} {} = op({})",
            info.name,
            args.join(", "),
            inputs.join(", ")
        )
    }
}

fn modifier_support(info: &OpInfo) -> String {
    let list: Vec<String> = info
        .modifier_groups()
        .iter()
        .map(|(standalone, suffixes)| {
            let a: Vec<String> = standalone.iter().map(|m| format!("`.{m}`")).collect();
            let b: Vec<String> = suffixes.iter().map(|m| format!("`{m}`")).collect();
            match (a.is_empty(), b.is_empty()) {
                (false, false) => format!("{} ({})", a.join(" "), b.join(" ")),
                (false, true) => a.join(" "),
                _ => b.join(" "),
            }
        })
        .collect();
    if list.is_empty() {
        "none".to_string()
    } else {
        list.join(", ")
    }
}

/// What a modifier does (section 2.X.4.1, Tables X.14 and X.15).
fn modifier_meaning(m: Modifier) -> &'static str {
    match m {
        Modifier::F => "floating-point data type",
        Modifier::U => "unsigned integer data type",
        Modifier::S => "signed integer data type",
        Modifier::Cc => "update condition code CC0 (in the ARB family's NV options, the only one)",
        Modifier::Cc0 => "update condition code CC0",
        Modifier::Cc1 => "update condition code CC1",
        Modifier::Sat => "clamp the result to [0, 1]",
        Modifier::Ssat => "clamp the result to [-1, 1]",
        Modifier::Ntc => "no type checking of operands",
        Modifier::S24 => "multiply 24-bit signed integers",
        Modifier::U24 => "multiply 24-bit unsigned integers",
        Modifier::Hi => "the high 32 bits of the 64-bit integer product",
        Modifier::F64 => "floating-point data type at 64-bit precision (NV_gpu_program5)",
        Modifier::S64 => "signed integer data type at 64-bit precision (NV_gpu_program5)",
        Modifier::U64 => "unsigned integer data type at 64-bit precision (NV_gpu_program5)",
        Modifier::Prec => {
            "a precise result, not merged with neighbouring instructions (NV_gpu_program5)"
        }
        Modifier::PrecisionFull => "floating-point at full (32-bit) precision",
        Modifier::PrecisionHalf => "floating-point at half (16-bit) precision or better",
        Modifier::PrecisionFixed => {
            "12-bit fixed point with 10 fraction bits (NV_fragment_program_option)"
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOURCE: &str = "!!NVfp4.0\nPARAM c[2] = { program.local[0..1] };\nTEMP R0, A;\nMOV R0, c[A.x];\nCAL sub;\nMOV result.color, R0;\nRET;\nsub:\nADDR_SAT R0, R0, c[1];\nRET;\nEND\n";

    fn index() -> DocumentIndex {
        DocumentIndex::new(SOURCE).expect("a header")
    }

    #[test]
    fn symbols_and_references() {
        let index = index();
        let symbols = index.symbols();
        let names: Vec<&str> = symbols.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["c", "R0", "A", "sub"]);
        let at = |needle: &str, nth: usize| {
            SOURCE.match_indices(needle).nth(nth).expect("in source").0 as u32
        };
        // `A` inside `c[A.x]` is the relative address register.
        let (a, _) = index.symbol_at(at("A.x", 0)).expect("A");
        assert_eq!(a.kind, SymbolKind::Temp);
        let (sub, _) = index.symbol_at(at("sub", 0) + 1).expect("label");
        assert_eq!(sub.kind, SymbolKind::Label);
        assert_eq!(
            &SOURCE[sub.span.range()],
            "sub:\nADDR_SAT R0, R0, c[1];\nRET;\n"
        );
    }

    #[test]
    fn opcode_hover_explains_suffixes() {
        let text = opcode_hover("ADDR_SAT").expect("hover");
        assert!(text.starts_with("**ADD** — "), "{text}");
        assert!(
            text.contains("`_SAT`: clamp the result to [0, 1]"),
            "{text}"
        );
        assert!(text.contains("section 2.X.8.Z, ADD"), "{text}");
        assert_eq!(opcode_hover("NOPE"), None);
    }

    #[test]
    fn opcode_hover_names_the_languages_of_the_arb_family_opcodes() {
        let text = opcode_hover("ARR").expect("hover");
        assert!(
            text.starts_with("**ARR** — address register load (round)"),
            "{text}"
        );
        assert!(
            text.contains("`!!ARBvp1.0` with `OPTION NV_vertex_program2`"),
            "{text}"
        );
        assert!(!text.contains("NV_gpu_program4 (`"), "{text}");
        assert!(
            text.contains("NV_vertex_program2_option 2.14.5.29"),
            "{text}"
        );
        let text = opcode_hover("LOOP").expect("hover");
        assert!(
            text.contains("`!!ARBfp1.0` with `OPTION NV_fragment_program2`"),
            "{text}"
        );
    }

    #[test]
    fn hover_on_a_name_shows_its_declaration() {
        let index = index();
        let at = SOURCE.find("c[A.x]").unwrap() as u32;
        let (text, span) = index.hover(SOURCE, at).expect("hover");
        assert!(
            text.contains("PARAM c[2] = { program.local[0..1] }"),
            "{text}"
        );
        assert!(text.contains("**c** — parameter array [2]"), "{text}");
        assert_eq!(span, Span::new(at as usize, at as usize + 1));
    }

    #[test]
    fn a_statement_that_does_not_parse_hides_only_itself() {
        // The parser cannot recover from `OPTION ;` (options come before
        // any statement it could skip to); the index reads on.
        let source = "!!NVfp4.0\nOPTION ;\nTEMP R0;\nMOV R0, fragment.color;\nMOV result.color R0;\nMOV result.color, R0;\nEND\n";
        let index = DocumentIndex::new(source).unwrap();
        assert_eq!(index.symbols().len(), 1);
        assert_eq!(index.references_to(&index.symbols()[0]).len(), 2);
        let at = source.rfind("R0;").unwrap() as u32;
        assert_eq!(index.symbol_at(at).unwrap().0.name, "R0");
        // Unterminated at the end of the text (being typed).
        let typing = "!!NVfp4.0\nTEMP R0;\nMOV R0, fragment.color;\nMOV resu";
        let index = DocumentIndex::new(typing).unwrap();
        assert_eq!(index.statements(), 3);
        assert_eq!(index.references_to(&index.symbols()[0]).len(), 1);
    }

    #[test]
    fn text_after_end_is_not_indexed() {
        let source = "!!NVfp4.0\nTEMP a;\nEND\nTEMP b;\n";
        let index = DocumentIndex::new(source).unwrap();
        assert_eq!(index.symbols().len(), 1);
        assert_eq!(index.program_end() as usize, source.find("END").unwrap());
    }

    /// A small deterministic generator (xorshift), so failures reproduce
    /// from the seed printed with them.
    struct Rng(u64);
    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n.max(1) as u64) as usize
        }
    }

    /// Pieces of program text, whole statements and the characters that
    /// end, start or hide them (`;`, `:`, `#`, line ends, `END`).
    const PIECES: &[&str] = &[
        "MOV R0, R1;",
        "ADDR_SAT R0.x, c[A.x + 1], fragment.color;",
        "TEX R0, R0, texture[0], 2D;",
        "TEMP R0, R1, A;",
        "PARAM c[2] = { program.local[0..1] };",
        "OPTION ARB_fog_linear;",
        "OPTION ;",
        "CAL sub;",
        "sub:",
        "RET;",
        "IF GT.x;",
        "ENDIF;",
        ";",
        ":",
        "#",
        "# a comment ; with : marks\n",
        "\n",
        "\r\n",
        "\r",
        " ",
        "END",
        "EN",
        "D",
        "INT ",
        "R",
        "0",
        ",",
        ".xy",
        "{",
        "é",
        "state.matrix.mvp.row[0]",
        "ADDRESS A0;",
        "ARL A0.x, R0.x;",
        "OPTION NV_vertex_program2;",
        "BRA sub (GT.x);",
        "TEMP :",
        "LOOP",
    ];

    fn random_text(rng: &mut Rng, pieces: usize) -> String {
        (0..pieces)
            .map(|_| PIECES[rng.below(PIECES.len())])
            .collect()
    }

    #[test]
    fn incremental_index_equals_a_fresh_one_after_random_edits() {
        let headers = [
            "!!NVfp4.0\n",
            "!!NVvp4.0\n",
            "!!NVgp4.0 ",
            "!!ARBvp1.0\n",
            "!!ARBfp1.0\n",
        ];
        for seed in 1..=400u64 {
            let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
            let mut text = headers[rng.below(headers.len())].to_string();
            let pieces = 5 + rng.below(40);
            text.push_str(&random_text(&mut rng, pieces));
            if rng.below(2) == 0 {
                text.push_str("\nEND\n# after END; x:\n");
            }
            let mut index = DocumentIndex::new(&text).expect("a header");
            for step in 0..8 {
                let mut start = rng.below(text.len() + 1);
                while !text.is_char_boundary(start) {
                    start -= 1;
                }
                let mut end = (start + rng.below(12)).min(text.len());
                while !text.is_char_boundary(end) {
                    end -= 1;
                }
                let pieces = rng.below(3);
                let insert = random_text(&mut rng, pieces);
                let before = text.clone();
                text.replace_range(start..end, &insert);
                let change = TextChange {
                    start,
                    old_end: end,
                    new_end: start + insert.len(),
                };
                let fresh = DocumentIndex::new(&text);
                let edited = index.edited(&text, change);
                assert_eq!(
                    edited, fresh,
                    "seed {seed}, step {step}: {before:?} → {text:?} ({change:?})"
                );
                match edited {
                    Some(i) => index = i,
                    None => break,
                }
            }
        }
    }

    #[test]
    fn an_edit_rereads_only_the_statements_it_touches() {
        let mut text = String::from("!!NVvp4.0\nTEMP R0, R1;\n");
        for _ in 0..2000 {
            text.push_str("ADD R0, R0, vertex.position;\n");
        }
        text.push_str("MOV result.position, R1;\nEND\n");
        let index = DocumentIndex::new(&text).unwrap();
        let at = text.rfind("R1;").unwrap() + 2;
        let mut new = text.clone();
        new.insert(at, '2');
        let change = TextChange {
            start: at,
            old_end: at,
            new_end: at + 1,
        };
        let edited = index.edited(&new, change).unwrap();
        // Every statement but the edited one is the old one, shared.
        let shared = edited
            .chunks
            .iter()
            .zip(&index.chunks)
            .filter(|(a, b)| Arc::ptr_eq(a, b))
            .count();
        assert_eq!(shared, index.chunks.len() - 1);
        assert_eq!(edited, DocumentIndex::new(&new).unwrap());
        // An edit in the middle moves the starts of the statements after it.
        let middle = text.len() / 2;
        let middle = text[middle..].find("ADD").unwrap() + middle;
        let mut new = text.clone();
        new.insert_str(middle, "# ");
        let change = TextChange {
            start: middle,
            old_end: middle,
            new_end: middle + 2,
        };
        let edited = index.edited(&new, change).unwrap();
        assert_eq!(edited.statements(), index.statements() - 1);
        assert_eq!(edited, DocumentIndex::new(&new).unwrap());
    }
}
