//! What the language server knows about a document: its declarations,
//! labels and the places that name them, read from the syntax tree (which
//! the parser builds even for a program with errors), and the hover text
//! for opcodes (from the instruction table, `crate::isa`) and names.

use crate::isa::{
    split_opcode, DataType, Modifier, OpInfo, OperandKind, ResultKind, Shape, Stage, TypeRule,
};
use crate::span::Span;
use crate::syntax::ast::{
    Arg, Ast, DeclKind, Declaration, IndexExpr, Init, InitItem, Instruction, Path, PathHead,
    PathPart, Root, Statement,
};

/// What a symbol is.
///
/// ```
/// # use nvp4c::lsp::analysis::*;
/// let source = "!!NVfp4.0\nTEMP R0;\nADDR_SAT R0, fragment.color, 1.0;\nMOV result.color, R0;\nEND\n";
/// let (ast, _) = nvp4c::syntax::parse(source);
/// let index = DocumentIndex::new(&ast.unwrap(), source.len());
/// assert_eq!(index.symbols[0].kind, SymbolKind::Temp);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymbolKind {
    Attrib,
    Param,
    Temp,
    Output,
    Alias,
    Buffer,
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
            SymbolKind::Label => "label (subroutine)",
        }
    }
}

/// A declared name or a label.
///
/// ```
/// # use nvp4c::lsp::analysis::*;
/// let source = "!!NVfp4.0\nTEMP R0;\nADDR_SAT R0, fragment.color, 1.0;\nMOV result.color, R0;\nEND\n";
/// let (ast, _) = nvp4c::syntax::parse(source);
/// let index = DocumentIndex::new(&ast.unwrap(), source.len());
/// let r0 = &index.symbols[0];
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
/// let (ast, _) = nvp4c::syntax::parse(source);
/// let index = DocumentIndex::new(&ast.unwrap(), source.len());
/// assert_eq!(index.references.len(), 2); // the two uses of R0
/// assert!(!index.references[0].label);
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
/// as the parser read it.
#[derive(Clone, Debug, PartialEq)]
pub struct BindingSite {
    pub path: Path,
    /// In a declaration's initializer, where ranges are allowed.
    pub in_declaration: bool,
    /// For `texture[n]` in a texture instruction: the target that follows.
    pub texture_target: Option<String>,
}

/// The symbols and references of one document.
///
/// ```
/// # use nvp4c::lsp::analysis::*;
/// let source = "!!NVfp4.0\nTEMP R0;\nADDR_SAT R0, fragment.color, 1.0;\nMOV result.color, R0;\nEND\n";
/// let (ast, _) = nvp4c::syntax::parse(source);
/// let index = DocumentIndex::new(&ast.unwrap(), source.len());
/// let use_of_r0 = source.find("R0, frag").unwrap() as u32;
/// let (symbol, _) = index.symbol_at(use_of_r0).unwrap();
/// assert_eq!(symbol.name, "R0");
/// let (text, _) = index.hover(source, use_of_r0).unwrap();
/// assert!(text.contains("TEMP R0;"));
/// ```
#[derive(Clone, Debug)]
pub struct DocumentIndex {
    pub stage: Stage,
    /// The header's language (`!!ARBfp1.0` ...).
    pub program_header: crate::isa::Header,
    /// The header (`!!NVfp4.0`).
    pub header: Span,
    pub symbols: Vec<Symbol>,
    pub references: Vec<Reference>,
    /// Opcode words (`ADDR_SAT`) and their stand-alone modifiers.
    pub instructions: Vec<OpcodeSite>,
    /// Bindings, in source order.
    pub bindings: Vec<BindingSite>,
    /// `OPTION` names.
    pub options: Vec<(String, Span)>,
    /// Texture targets of texture instructions (`2D`).
    pub targets: Vec<(String, Span)>,
    /// Where the declarations end and the instructions begin (the first
    /// instruction or label), for completion.
    pub first_instruction: Option<u32>,
}

/// Where an instruction names its opcode and modifiers.
///
/// ```
/// # use nvp4c::lsp::analysis::*;
/// let source = "!!NVfp4.0\nTEMP R0;\nADDR_SAT R0, fragment.color, 1.0;\nMOV result.color, R0;\nEND\n";
/// let (ast, _) = nvp4c::syntax::parse(source);
/// let index = DocumentIndex::new(&ast.unwrap(), source.len());
/// assert_eq!(index.instructions[0].word, "ADDR_SAT");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpcodeSite {
    /// The opcode word with its suffixes, e.g. `ADDR_SAT`.
    pub word: String,
    pub span: Span,
    /// Stand-alone modifiers (`SAT` of `.SAT`), without the dot.
    pub modifiers: Vec<(String, Span)>,
}

impl DocumentIndex {
    /// The document's dialect: its header and the options it names (an
    /// unknown option adds nothing).
    pub fn dialect(&self) -> crate::isa::Dialect {
        let mut d = crate::isa::Dialect::new(self.program_header);
        for (name, _) in &self.options {
            if let Some(o) =
                crate::isa::option_info(name).filter(|o| o.headers.contains(&self.program_header))
            {
                d.enable(o.features);
            }
        }
        d
    }

    /// Indexes a syntax tree.
    pub fn new(ast: &Ast, source_len: usize) -> DocumentIndex {
        let mut index = DocumentIndex {
            stage: ast.stage,
            program_header: ast.program_header,
            header: ast.header,
            symbols: Vec::new(),
            references: Vec::new(),
            instructions: Vec::new(),
            bindings: Vec::new(),
            options: Vec::new(),
            targets: Vec::new(),
            first_instruction: None,
        };
        let end = ast.end.map_or(source_len as u32, |s| s.start);
        for statement in &ast.statements {
            if matches!(statement, Statement::Instruction(_) | Statement::Label(_)) {
                index.first_instruction.get_or_insert(match statement {
                    Statement::Instruction(i) => i.span.start,
                    Statement::Label(l) => l.span.start,
                    _ => 0,
                });
            }
            match statement {
                Statement::Decl(d) => index.declaration(d),
                Statement::Instruction(i) => index.instruction(i),
                Statement::Option(id) => index.options.push((id.name.to_string(), id.span)),
                Statement::Label(l) => index.symbols.push(Symbol {
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
                }),
                Statement::Error(_) => {}
            }
        }
        // A label's subroutine runs to the next label or END.
        let starts: Vec<u32> = index
            .symbols
            .iter()
            .filter(|s| s.kind == SymbolKind::Label)
            .map(|s| s.span.start)
            .collect();
        for s in &mut index.symbols {
            if s.kind == SymbolKind::Label {
                let next = starts.iter().copied().find(|&x| x > s.span.start);
                s.span.end = next.unwrap_or(end).max(s.span.end);
            }
        }
        index
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
            | DeclKind::Buffer { init, .. } => Some(init),
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
            DeclKind::Output { name, size: s, .. } => add(name, SymbolKind::Output, size(s)),
            DeclKind::Buffer { name, size: s, .. } => add(name, SymbolKind::Buffer, size(s)),
            DeclKind::Temp { names } | DeclKind::Address { names } => {
                for (name, s) in names {
                    add(name, SymbolKind::Temp, size(s));
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
            DeclKind::PrimitiveIn(_) | DeclKind::PrimitiveOut(_) | DeclKind::VerticesOut(_) => {}
        }
    }

    fn instruction(&mut self, inst: &Instruction) {
        self.instructions.push(OpcodeSite {
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

    /// The places that name `symbol` (its declaration not included), in
    /// source order: labels are named by CAL, everything else by operands
    /// and ALIAS.
    ///
    /// ```
    /// # use nvp4c::lsp::analysis::*;
    /// let source = "!!NVfp4.0\nTEMP R0;\nMOV R0, fragment.color;\nMOV result.color, R0;\nEND\n";
    /// let (ast, _) = nvp4c::syntax::parse(source);
    /// let index = DocumentIndex::new(&ast.unwrap(), source.len());
    /// let uses = index.references_to(&index.symbols[0]);
    /// assert_eq!((uses.len(), uses[0].write, uses[1].write), (2, true, false));
    /// ```
    pub fn references_to(&self, symbol: &Symbol) -> Vec<&Reference> {
        let label = symbol.kind == SymbolKind::Label;
        self.references
            .iter()
            .filter(|r| r.name == symbol.name && r.label == label)
            .collect()
    }

    /// The binding whose path contains `offset`.
    pub fn binding_at(&self, offset: u32) -> Option<&BindingSite> {
        self.bindings.iter().find(|b| contains(b.path.span, offset))
    }

    /// The `OPTION` name at `offset`.
    pub fn option_at(&self, offset: u32) -> Option<&(String, Span)> {
        self.options.iter().find(|o| contains(o.1, offset))
    }

    /// The texture target at `offset`.
    pub fn target_at(&self, offset: u32) -> Option<&(String, Span)> {
        self.targets.iter().find(|t| contains(t.1, offset))
    }

    /// The symbol a reference or declaration at `offset` names.
    pub fn symbol_at(&self, offset: u32) -> Option<(&Symbol, Span)> {
        if let Some(s) = self.symbols.iter().find(|s| contains(s.name_span, offset)) {
            return Some((s, s.name_span));
        }
        let r = self.references.iter().find(|r| contains(r.span, offset))?;
        let wanted_label = r.label;
        self.symbols
            .iter()
            .find(|s| s.name == r.name && (s.kind == SymbolKind::Label) == wanted_label)
            .map(|s| (s, r.span))
    }

    /// Hover text (Markdown) for what is at `offset`, and the range it
    /// describes.
    pub fn hover(&self, source: &str, offset: u32) -> Option<(String, Span)> {
        for site in &self.instructions {
            if contains(site.span, offset) {
                return opcode_hover(&site.word).map(|text| (text, site.span));
            }
            for (m, span) in &site.modifiers {
                if contains(*span, offset) {
                    let m = Modifier::standalone(m)?;
                    return Some((
                        format!("**.{}** — {}", m.name(), modifier_meaning(m)),
                        *span,
                    ));
                }
            }
        }
        let (symbol, span) = self.symbol_at(offset)?;
        Some((symbol_hover(symbol, source), span))
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
        Shape::Call => inputs.push("label".into()),
        Shape::If | Shape::FlowCc => inputs.push("(ccTest)".into()),
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
        let (ast, _) = crate::syntax::parse(SOURCE);
        DocumentIndex::new(&ast.expect("a tree"), SOURCE.len())
    }

    #[test]
    fn symbols_and_references() {
        let index = index();
        let names: Vec<&str> = index.symbols.iter().map(|s| s.name.as_str()).collect();
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
}
