//! The older NV headers: `!!VP1.0` (NV_vertex_program), `!!VP1.1`
//! (NV_vertex_program1_1), `!!VP2.0` (NV_vertex_program2) and, in
//! [`fragment`], `!!FP1.0` (NV_fragment_program).
//!
//! These languages came before ARB_vertex_program and ARB_fragment_program,
//! which were written as their generalisation: where the old languages
//! have fixed registers (`R3`, `A0`, `v[OPOS]`, `c[12]`, `o[HPOS]`), the ARB
//! languages have declarations and bindings with the same meaning. So an
//! old program is read by the same grammar and checked by the same checker
//! as an ARB one: this module rewrites each statement, as the parser hands
//! it over, into the ARB statement that means the same (`v[OPOS]` is
//! `vertex.attrib[0]`, `o[COL1]` is `result.color.secondary`, `c` is
//! `PARAM c[96] = { program.env[0..95] };`, `R3` a `TEMP`), declaring each
//! register just before its first use. Spans stay those of the text, so
//! every diagnostic the checker gives points at what was written. What the
//! old languages forbid and ARB allows (declarations, constants, bindings,
//! two parameter registers in one instruction) is refused here, with the
//! rule; the opcodes and modifiers of each header are the instruction
//! table's `VP1`, `1.1`, `VP2` and `FP1` columns.

mod fragment;

use crate::diag::Diagnostic;
use crate::isa::{Features, Header, Shape};
use crate::span::Span;
use crate::syntax::ast::{
    Arg, ArraySize, DeclKind, Declaration, Ident, IndexExpr, Init, InitItem, IntLit, Path,
    PathHead, PathPart, Root, Statement, Text, VarModifier,
};
use std::collections::HashSet;

/// NV_vertex_program Table X.3: the attribute register mnemonics.
const ATTRIBUTE_MNEMONICS: [(&str, u32); 14] = [
    ("OPOS", 0),
    ("WGHT", 1),
    ("NRML", 2),
    ("COL0", 3),
    ("COL1", 4),
    ("FOGC", 5),
    ("TEX0", 8),
    ("TEX1", 9),
    ("TEX2", 10),
    ("TEX3", 11),
    ("TEX4", 12),
    ("TEX5", 13),
    ("TEX6", 14),
    ("TEX7", 15),
];

/// A fixed result register and the ARB binding that means it: the binding
/// members after `result`, and an index.
struct ResultRegister {
    name: &'static str,
    members: &'static [&'static str],
    index: Option<u32>,
    /// `CLP0`..`CLP5` exist only in `!!VP2.0`.
    vp2_only: bool,
}

const fn result(name: &'static str, members: &'static [&'static str]) -> ResultRegister {
    ResultRegister {
        name,
        members,
        index: None,
        vp2_only: false,
    }
}

const fn texcoord(name: &'static str, n: u32) -> ResultRegister {
    ResultRegister {
        name,
        members: &["texcoord"],
        index: Some(n),
        vp2_only: false,
    }
}

const fn clip(name: &'static str, n: u32) -> ResultRegister {
    ResultRegister {
        name,
        members: &["clip"],
        index: Some(n),
        vp2_only: true,
    }
}

/// NV_vertex_program Table X.1 and NV_vertex_program2's `CLP0`..`CLP5`,
/// with ARB_vertex_program's binding for each (its Table X.3).
const VERTEX_RESULTS: [ResultRegister; 21] = [
    result("HPOS", &["position"]),
    result("COL0", &["color"]),
    result("COL1", &["color", "secondary"]),
    result("BFC0", &["color", "back"]),
    result("BFC1", &["color", "back", "secondary"]),
    result("FOGC", &["fogcoord"]),
    result("PSIZ", &["pointsize"]),
    texcoord("TEX0", 0),
    texcoord("TEX1", 1),
    texcoord("TEX2", 2),
    texcoord("TEX3", 3),
    texcoord("TEX4", 4),
    texcoord("TEX5", 5),
    texcoord("TEX6", 6),
    texcoord("TEX7", 7),
    clip("CLP0", 0),
    clip("CLP1", 1),
    clip("CLP2", 2),
    clip("CLP3", 3),
    clip("CLP4", 4),
    clip("CLP5", 5),
];

/// What differs between the vertex headers, as data.
struct VertexLanguage {
    /// Temporaries `R0` .. `R<temps - 1>`.
    temps: u32,
    /// Address registers `A0` (and `A1`).
    address_registers: u32,
    /// Program parameter registers `c[0]` .. `c[params - 1]`.
    params: u32,
    /// The instruction limit.
    max_instructions: usize,
    /// The grammar rules that say so, for the notes.
    registers_rule: &'static str,
    limit_rule: &'static str,
}

const VP1: VertexLanguage = VertexLanguage {
    temps: 12,
    address_registers: 1,
    params: 96,
    max_instructions: 128,
    registers_rule: "NV_vertex_program 2.14.1.7: <temporaryReg> is R0 to R11, <addrReg> A0.x, <vertexAttribReg> v[0] to v[15] or a Table X.3 mnemonic, <progParamReg> c[0] to c[95], <vertexResultReg> o[HPOS], o[COL0] ... o[TEX7]",
    limit_rule: "NV_vertex_program 2.14.1.7: \"A vertex program fails to load if it contains more than 128 instructions.\"",
};

const VP2: VertexLanguage = VertexLanguage {
    temps: 16,
    address_registers: 2,
    params: 256,
    max_instructions: 256,
    registers_rule: "NV_vertex_program2 2.14.1.8: <tempRegister> is R0 to R15, <addrRegister> A0 or A1, <vtxAttribRegister> v[0] to v[15] or a Table X.3 mnemonic, <progParamRegister> c[0] to c[255], <vtxResultRegister> o[HPOS] ... o[CLP5], and CC",
    limit_rule: "NV_vertex_program2 2.14.1.8: \"A vertex program fails to load in the VP2 execution environment if it contains more than 256 instructions.\"",
};

/// The statement rewriter of an older NV header (see the module text).
pub(crate) struct Legacy {
    header: Header,
    /// The registers declared so far.
    declared: HashSet<Text>,
    /// Instructions seen, for the instruction limit.
    instructions: usize,
    /// The first instruction past the limit.
    over_limit: Option<Span>,
    /// Whether an instruction writes `o[HPOS]`.
    hpos_written: bool,
    /// `OPTION NV_position_invariant;`.
    position_invariant: bool,
    /// `!!FP1.0`'s rewriter, which does the rest for that header.
    fragment: Option<fragment::Fragment>,
}

impl Legacy {
    /// The rewriter for `header`, if it is one of the older NV headers.
    pub(crate) fn new(header: Header) -> Option<Legacy> {
        if !header.base().intersects(Features::NV_LEGACY) {
            return None;
        }
        Some(Legacy {
            header,
            declared: HashSet::new(),
            instructions: 0,
            over_limit: None,
            hpos_written: false,
            position_invariant: false,
            fragment: (header == Header::Fp1).then(fragment::Fragment::new),
        })
    }

    fn vertex(&self) -> &'static VertexLanguage {
        if self.header == Header::Vp2 {
            &VP2
        } else {
            &VP1
        }
    }

    /// Rewrites one statement into the statements the checker reads in its
    /// place (declarations of registers first used here, then the
    /// statement), or reports why the old language does not have it.
    pub(crate) fn statement(
        &mut self,
        st: &Statement,
        out: &mut Vec<Statement>,
        diags: &mut Vec<Diagnostic>,
    ) {
        if let Some(f) = &mut self.fragment {
            f.statement(st, out, diags);
            return;
        }
        match st {
            Statement::Option(id) => {
                if id.name == "NV_position_invariant" {
                    self.position_invariant = true;
                }
                out.push(st.clone());
            }
            Statement::Decl(d) => diags.push(declaration_error(self.header, d)),
            Statement::Label(..) | Statement::Error(_) => out.push(st.clone()),
            Statement::Instruction(inst) => {
                self.count_instruction(inst.span);
                let mut inst = inst.clone();
                let info = crate::isa::OpInfo::lookup(&inst.opcode.name);
                let label_operand = info.is_some_and(|i| i.shape == Shape::Call);
                let mut ok = true;
                let mut params: Vec<(String, Span)> = Vec::new();
                let mut attribs: Vec<(u32, Span)> = Vec::new();
                for (k, arg) in inst.args.iter_mut().enumerate() {
                    let Arg::Operand(op) = arg else {
                        diags.push(not_in_language(self.header, arg.span(), "a texel offset"));
                        ok = false;
                        continue;
                    };
                    if label_operand && k == 0 {
                        continue;
                    }
                    match self.vertex_path(&mut op.path, k == 0, out, diags) {
                        Ok(Some(Register::Param(key))) => params.push((key, op.path.span)),
                        Ok(Some(Register::Attrib(n))) => attribs.push((n, op.path.span)),
                        Ok(_) => {}
                        Err(()) => ok = false,
                    }
                }
                if let Some(d) =
                    one_register_rule(&params, "E1204", "program parameter", self.header.spec())
                {
                    diags.push(d);
                    ok = false;
                }
                if let Some(d) =
                    one_register_rule(&attribs, "E1205", "vertex attribute", self.header.spec())
                {
                    diags.push(d);
                    ok = false;
                }
                if ok {
                    out.push(Statement::Instruction(inst));
                }
            }
        }
    }

    fn count_instruction(&mut self, span: Span) {
        self.instructions += 1;
        let max = self.vertex().max_instructions;
        if self.instructions > max && self.over_limit.is_none() {
            self.over_limit = Some(span);
        }
    }

    /// Rewrites an operand's register into its ARB form.
    fn vertex_path(
        &mut self,
        path: &mut Path,
        destination: bool,
        out: &mut Vec<Statement>,
        diags: &mut Vec<Diagnostic>,
    ) -> Result<Option<Register>, ()> {
        let lang = self.vertex();
        let header = self.header;
        // Relative addressing names an address register: declare it.
        for part in &path.parts {
            if let PathPart::Index(
                IndexExpr::Relative {
                    register, offset, ..
                },
                span,
            ) = part
            {
                self.address_register(register, out, diags)?;
                if self.position_invariant && header == Header::Vp11 && offset.is_some() {
                    diags.push(
                        Diagnostic::error(
                            "E1201",
                            "relative addressing with an offset in a position-invariant `!!VP1.1` program",
                        )
                        .primary(*span, "only `c[A0.x]` is allowed here")
                        .note("NV_vertex_program1_1 2.14.B: \"The <relProgParamReg> rule for version 1.1 position-invariant vertex programs is replaced by (eliminating the relative addressing cases): <relProgParamReg> ::= \"c\" \"[\" <addrReg> \"]\"\""),
                    );
                    return Err(());
                }
            }
        }
        let head = match &path.head {
            PathHead::Name(id) => id.clone(),
            PathHead::Root(root, span) => {
                diags.push(binding_error(
                    header,
                    root.name(),
                    *span,
                    lang.registers_rule,
                ));
                return Err(());
            }
            PathHead::Vector(v) => {
                diags.push(constant_error(header, v.span));
                return Err(());
            }
            PathHead::Number(n) => {
                diags.push(constant_error(header, n.span()));
                return Err(());
            }
        };
        let name = head.name.as_str();
        match name {
            "v" => {
                let n = attribute_number(header, &head, path.parts.first(), diags)?;
                rewrite_head(path, Root::Vertex, head.span, &["attrib"], Some(n));
                Ok(Some(Register::Attrib(n)))
            }
            "o" => {
                let Some(PathPart::Index(IndexExpr::Word(w), span)) = path.parts.first() else {
                    diags.push(index_error(
                        header,
                        &head,
                        path.parts.first(),
                        "a result register name such as `o[HPOS]`",
                        lang.registers_rule,
                    ));
                    return Err(());
                };
                let span = *span;
                let found = VERTEX_RESULTS
                    .iter()
                    .find(|r| r.name == w.name.as_str() && (!r.vp2_only || header == Header::Vp2));
                let Some(r) = found else {
                    diags.push(
                        Diagnostic::error(
                            "E1201",
                            format!("`o[{}]` is not a result register of `{header}`", w.name),
                        )
                        .primary(w.span, "no such result register")
                        .note(format!(
                            "the result registers are {}",
                            VERTEX_RESULTS
                                .iter()
                                .filter(|r| !r.vp2_only || header == Header::Vp2)
                                .map(|r| r.name)
                                .collect::<Vec<_>>()
                                .join(", ")
                        ))
                        .note(lang.registers_rule),
                    );
                    return Err(());
                };
                if r.name == "HPOS" {
                    if self.position_invariant {
                        diags.push(
                            Diagnostic::error("E1201", "`o[HPOS]` in a position-invariant program")
                                .primary(span, "the position is computed as the fixed-function pipeline does")
                                .note("NV_vertex_program1_1 2.14.B: \"When a position-invariant vertex program is specified, the <vertexResultRegName> rule is replaced with the following rule (that does not provide \"HPOS\")\""),
                        );
                        return Err(());
                    }
                    if destination {
                        self.hpos_written = true;
                    }
                }
                rewrite_head(path, Root::Result, head.span, r.members, r.index);
                Ok(None)
            }
            "c" => {
                let key = match path.parts.first() {
                    Some(PathPart::Index(IndexExpr::Int(i), _)) => i.text.to_string(),
                    Some(PathPart::Index(
                        IndexExpr::Relative {
                            register,
                            component,
                            offset,
                        },
                        _,
                    )) => {
                        let off = offset.as_ref().map_or(String::new(), |o| {
                            format!("{}{}", if o.0 { '-' } else { '+' }, o.1.text)
                        });
                        format!("{}.{}{off}", register.name, component.name)
                    }
                    other => {
                        diags.push(index_error(
                            header,
                            &head,
                            other,
                            "`c[n]` or `c[A0.x + n]`",
                            lang.registers_rule,
                        ));
                        return Err(());
                    }
                };
                if self.declared.insert(Text::new("c")) {
                    out.push(param_declaration(&head, lang.params));
                }
                Ok(Some(Register::Param(key)))
            }
            "CC" if header == Header::Vp2 && destination && path.parts.len() <= 1 => {
                // NV_vertex_program2's <vp2-nullRegister>: a destination
                // that only updates the condition code. A temporary never
                // read does the same.
                self.declare_temp(&head, out);
                Ok(None)
            }
            _ => {
                if let Some(n) = name.strip_prefix('R').and_then(register_number) {
                    if n < lang.temps {
                        self.declare_temp(&head, out);
                        return Ok(None);
                    }
                }
                if name.starts_with('A') && self.address_register(&head, out, diags).is_ok() {
                    return Ok(None);
                }
                diags.push(
                    Diagnostic::error("E1200", format!("`{name}` is not a register of `{header}`"))
                        .primary(head.span, "no such register")
                        .note(lang.registers_rule),
                );
                Err(())
            }
        }
    }

    fn declare_temp(&mut self, head: &Ident, out: &mut Vec<Statement>) {
        if self.declared.insert(head.name.clone()) {
            let names = vec![(head.clone(), None)];
            out.push(register_declaration(
                Vec::new(),
                DeclKind::Temp { names },
                head,
            ));
        }
    }

    /// Declares `A0` (or `A1` in `!!VP2.0`) at its first use.
    fn address_register(
        &mut self,
        reg: &Ident,
        out: &mut Vec<Statement>,
        diags: &mut Vec<Diagnostic>,
    ) -> Result<(), ()> {
        let lang = self.vertex();
        let n = reg.name.strip_prefix('A').and_then(register_number);
        if n.is_none_or(|n| n >= lang.address_registers) {
            diags.push(
                Diagnostic::error(
                    "E1200",
                    format!(
                        "`{}` is not an address register of `{}`",
                        reg.name, self.header
                    ),
                )
                .primary(reg.span, "no such register")
                .note(lang.registers_rule),
            );
            return Err(());
        }
        if self.declared.insert(reg.name.clone()) {
            let names = vec![(reg.clone(), None)];
            out.push(register_declaration(
                Vec::new(),
                DeclKind::Address { names },
                reg,
            ));
        }
        Ok(())
    }

    /// The whole-program rules, once every statement is in.
    pub(crate) fn finish(&self, header: Span, end: Span, diags: &mut Vec<Diagnostic>) {
        if let Some(f) = &self.fragment {
            f.finish(header, end, diags);
            return;
        }
        if let Some(span) = self.over_limit {
            let (max, rule) = (self.vertex().max_instructions, self.vertex().limit_rule);
            diags.push(
                Diagnostic::error(
                    "E1207",
                    format!(
                        "`{}` program with {} instructions; at most {max} are allowed",
                        self.header, self.instructions
                    ),
                )
                .primary(span, format!("instruction {} is one too many", max + 1))
                .note(rule),
            );
        }
        if !self.hpos_written && !self.position_invariant {
            diags.push(
                Diagnostic::error("E1206", format!("`{}` program never writes `o[HPOS]`", self.header))
                    .primary(end, "the program ends without writing the position")
                    .secondary(header, "a vertex program of this type must write `o[HPOS]`")
                    .note(format!("{} 2.14.1.7: \"A vertex program fails to load if it does not write at least one component of the HPOS register.\"", self.header.spec())),
            );
        }
    }
}

/// A register an instruction reads, for the one-register-per-instruction
/// rules.
enum Register {
    /// `c[...]`, by the index as written.
    Param(String),
    /// `v[n]`.
    Attrib(u32),
}

/// `<temporaryReg>` digits: a decimal number without leading zeros.
fn register_number(digits: &str) -> Option<u32> {
    if digits.is_empty() || (digits.len() > 1 && digits.starts_with('0')) {
        return None;
    }
    digits.parse().ok()
}

/// NV_vertex_program 2.14.1.7: "A vertex program fails to load if any
/// instruction sources more than one unique program parameter register"
/// (and the same for vertex attribute registers).
fn one_register_rule<K: PartialEq>(
    regs: &[(K, Span)],
    code: &'static str,
    what: &str,
    spec: &str,
) -> Option<Diagnostic> {
    let (first_key, first) = regs.first()?;
    let (_, other) = regs.iter().find(|(k, _)| k != first_key)?;
    Some(
        Diagnostic::error(code, format!("instruction reads two different {what} registers"))
            .primary(*other, format!("a second {what} register"))
            .secondary(*first, "the first")
            .note(format!("{spec} 2.14.1.7: \"A vertex program fails to load if any instruction sources more than one unique {what} register.\""))
            .note("help: copy one of them to a temporary register with MOV first"),
    )
}

/// The vertex attribute number of `v[n]` or `v[MNEMONIC]`.
fn attribute_number(
    header: Header,
    head: &Ident,
    part: Option<&PathPart>,
    diags: &mut Vec<Diagnostic>,
) -> Result<u32, ()> {
    let rule = "NV_vertex_program 2.14.1.7: <vertexAttribRegNum> ::= decimal integer from 0 to 15 inclusive | \"OPOS\" | \"WGHT\" | \"NRML\" | \"COL0\" | \"COL1\" | \"FOGC\" | \"TEX0\" ... \"TEX7\" (Table X.3)";
    match part {
        Some(PathPart::Index(IndexExpr::Int(i), span)) => match i.value() {
            Some(n) if n < 16 => Ok(n as u32),
            _ => {
                diags.push(
                    Diagnostic::error(
                        "E1201",
                        format!("`v[{}]` is not a vertex attribute register", i.text),
                    )
                    .primary(*span, "attribute registers are v[0] to v[15]")
                    .note(rule),
                );
                Err(())
            }
        },
        Some(PathPart::Index(IndexExpr::Word(w), _)) => {
            match ATTRIBUTE_MNEMONICS
                .iter()
                .find(|(m, _)| *m == w.name.as_str())
            {
                Some(&(_, n)) => Ok(n),
                None => {
                    let mut d = Diagnostic::error(
                        "E1201",
                        format!("`{}` is not a vertex attribute mnemonic", w.name),
                    )
                    .primary(w.span, "no such attribute register");
                    if let Some(s) =
                        super::did_you_mean(&w.name, ATTRIBUTE_MNEMONICS.iter().map(|m| m.0))
                    {
                        d = d.note(format!("did you mean `{s}`?"));
                    }
                    diags.push(d.note(rule));
                    Err(())
                }
            }
        }
        other => {
            diags.push(index_error(
                header,
                head,
                other,
                "`v[n]` or a mnemonic such as `v[OPOS]`",
                rule,
            ));
            Err(())
        }
    }
}

/// The declaration of a register at its first use, spanning the register
/// as written.
fn register_declaration(
    modifiers: Vec<(VarModifier, Span)>,
    kind: DeclKind,
    at: &Ident,
) -> Statement {
    Statement::Decl(Box::new(Declaration {
        modifiers,
        kind,
        keyword: at.span,
        span: at.span,
    }))
}

/// The path `root.members[index]`.
fn binding(root: Root, span: Span, members: &[&str], index: Option<u32>, index_span: Span) -> Path {
    let mut path = Path {
        head: PathHead::Root(root, span),
        parts: Vec::new(),
        span,
    };
    for m in members {
        path.parts.push(PathPart::Member(Ident {
            name: Text::new(m),
            span,
        }));
    }
    if let Some(n) = index {
        path.parts.push(PathPart::Index(
            IndexExpr::Int(IntLit {
                text: Text::new(&n.to_string()),
                span: index_span,
            }),
            index_span,
        ));
    }
    path
}

/// Replaces the register at the head of `path` (and its `[...]`) with the
/// ARB binding `root.members[index]`, keeping the suffixes after it.
fn rewrite_head(path: &mut Path, root: Root, span: Span, members: &[&str], index: Option<u32>) {
    let index_span = match path.parts.first() {
        Some(PathPart::Index(_, s)) => *s,
        _ => span,
    };
    let rest = path.parts.drain(..).skip(1);
    let mut new = binding(root, span, members, index, index_span);
    new.parts.extend(rest);
    path.head = new.head;
    path.parts = new.parts;
}

/// `PARAM c[n] = { program.env[0..n-1] };`: NV_vertex_program's program
/// parameter registers are ARB's program environment parameters ("The
/// program environment parameters ... are shared with
/// NV_vertex_program's program parameters", ARB_vertex_program
/// "Interactions with NV_vertex_program").
fn param_declaration(head: &Ident, len: u32) -> Statement {
    let span = head.span;
    let int = |n: u32| IntLit {
        text: Text::new(&n.to_string()),
        span,
    };
    let binding = Path {
        head: PathHead::Root(Root::Program, span),
        parts: vec![
            PathPart::Member(Ident {
                name: Text::new("env"),
                span,
            }),
            PathPart::Index(IndexExpr::Range(int(0), int(len - 1)), span),
        ],
        span,
    };
    Statement::Decl(Box::new(Declaration {
        modifiers: Vec::new(),
        kind: DeclKind::Param {
            name: head.clone(),
            size: Some(ArraySize {
                len: Some(int(len)),
                span,
            }),
            init: Init::List(vec![InitItem::Binding(binding)], span),
        },
        keyword: span,
        span,
    }))
}

fn declaration_error(header: Header, d: &Declaration) -> Diagnostic {
    Diagnostic::error("E1202", format!("declarations do not exist in `{header}` programs"))
        .primary(d.keyword, "not a statement of this language")
        .note(format!("{}: the program's registers are fixed names, and the grammar has no declarations; `!!ARBvp1.0` / `!!ARBfp1.0` programs declare variables", header.spec()))
}

fn binding_error(header: Header, root: &str, span: Span, rule: &str) -> Diagnostic {
    Diagnostic::error("E1200", format!("`{root}` bindings do not exist in `{header}` programs"))
        .primary(span, "not a register of this language")
        .note(rule.to_string())
        .note(format!("help: bindings such as `{root}.…` are ARB syntax; write the fixed register, or change the header to the ARB one"))
}

fn constant_error(header: Header, span: Span) -> Diagnostic {
    Diagnostic::error(
        "E1203",
        format!("constants do not exist in `{header}` programs"),
    )
    .primary(span, "a literal constant as an operand")
    .note(format!(
        "{}: an operand is a register; there are no literal constants in the grammar",
        header.spec()
    ))
    .note("help: load the value into a program parameter register (`c[n]`) and read that")
}

fn not_in_language(header: Header, span: Span, what: &str) -> Diagnostic {
    Diagnostic::error(
        "E1203",
        format!("{what} does not exist in `{header}` programs"),
    )
    .primary(span, "not in this language's grammar")
    .note(format!("{}: see its grammar", header.spec()))
}

fn index_error(
    header: Header,
    head: &Ident,
    part: Option<&PathPart>,
    expected: &str,
    rule: &str,
) -> Diagnostic {
    let span = match part {
        Some(PathPart::Index(_, s)) => head.span.to(*s),
        _ => head.span,
    };
    Diagnostic::error(
        "E1201",
        format!(
            "`{}` needs a register index in `{header}` programs",
            head.name
        ),
    )
    .primary(span, format!("expected {expected}"))
    .note(rule.to_string())
}
