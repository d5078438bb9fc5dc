//! Front end, part two: the syntax tree to the checked IR.
//!
//! The checker resolves names and bindings, decides every instruction's
//! data type and operand types from the instruction table, builds the flow
//! tree and enforces the spec's load-time rules. It reports every error it
//! finds; a construct that is already wrong produces one diagnostic, and
//! whatever depends on it is dropped silently rather than reported again.

pub(crate) mod bindings;
mod census;
mod convert;
mod counter;
mod dialect;
mod flow;
mod image;
mod instr;
mod legacy;
mod lint;
pub(crate) mod memory;
mod program_type;
mod rules;
mod subroutine;
mod suggest;

use crate::diag::Diagnostic;
use crate::ir::{self, Literal, Precision, VarId, VarKind, VarType, Variable};
use crate::isa::{
    option_info, options_of, AddressModel, DataType, Dialect, Features, Header, Stage,
};
use crate::span::Span;
use crate::syntax::ast::{
    self, Ast, DeclKind, Ident, Init, InitItem, Number, SignedNumber, Statement, VarModifier,
};
use crate::Options;
use bindings::{decode, Binding};
use rustc_hash::FxHashMap as HashMap;

pub use memory::MAX_STORAGE_BINDINGS;

/// NV_gpu_program5 2.X.3.6 on `program.buffer[a..b]` (E1280, E1281).
const BUFFER_RANGE_RULE: &str = "NV_gpu_program5 2.X.3.6, Table X.12.1: `program.buffer[a..b]` variables \"must be accessed as an arrays, with the first index specifying an offset into the range of buffer object binding points\"; \"A program will fail to compile if such bindings are used when <a> or <b> is negative or greater than or equal to the number of buffer binding points supported for the program type, or if <a> is greater than <b>.\"";
pub use program_type::MAX_PATCH_VERTICES;
pub use suggest::did_you_mean;

/// Checks a parsed program. The IR is returned only when there is no error.
pub fn check(ast: &Ast, options: &Options) -> (Option<ir::Program>, Vec<Diagnostic>) {
    let mut checker = ProgramChecker::new(ast.program_header, options);
    for st in &ast.statements {
        checker.statement(st);
    }
    checker.finish(ast.header, ast.end)
}

/// The checker fed one statement at a time, in program order. The compiler
/// hands it each statement as the parser reads it (a
/// [`StatementSink`](crate::syntax::StatementSink)), so a program's whole
/// syntax tree never exists at once: only the checked IR grows with the
/// program.
pub(crate) struct ProgramChecker<'o> {
    /// The flow tree being built, and the checker inside it.
    flow: flow::Builder<'o>,
    /// Where each instruction statement is, for the instruction limit.
    instructions: Vec<Span>,
    /// The program is NVIDIA's Cg compiler's output ([`lint::generated_by_cgc`]).
    generated_by_cgc: bool,
    /// The rewriter of an older NV header's fixed registers.
    legacy: Option<legacy::Legacy>,
    /// The statements the rewriter gives for the current one.
    rewritten: Vec<Statement>,
}

/// About the fewest bytes a statement takes in a program's text: an
/// instruction with three operands and its line end (`ADD R0,R1,R2;` and a
/// newline). A denser program's blocks grow as they need.
const BYTES_PER_STATEMENT: usize = 16;

impl<'o> ProgramChecker<'o> {
    pub(crate) fn new(header: Header, options: &'o Options) -> ProgramChecker<'o> {
        ProgramChecker {
            flow: flow::Builder::new(Checker::new(header, options)),
            instructions: Vec::new(),
            generated_by_cgc: false,
            legacy: legacy::Legacy::new(header),
            rewritten: Vec::new(),
        }
    }

    /// Looks at the program's text, which the statements do not carry:
    /// whether cgc wrote it ([`lint::generated_by_cgc`]), and its size.
    ///
    /// The code before the first label and the instruction spans are
    /// reserved room for as many statements as the text can hold at
    /// [`BYTES_PER_STATEMENT`]: grown by doubling, a big program's entry
    /// block was copied at each step, and those copies were two fifths of
    /// the page faults of a 10 MB compile (docs/performance.md, "Session 10
    /// (memory)"). Room never written costs address space, not memory.
    pub(crate) fn source_text(mut self, source: &str) -> Self {
        self.generated_by_cgc = lint::generated_by_cgc(source);
        let statements = source.len() / BYTES_PER_STATEMENT;
        self.flow.reserve(statements);
        self.instructions.reserve(statements);
        self
    }

    pub(crate) fn statement(&mut self, st: &Statement) {
        if let Some(legacy) = &mut self.legacy {
            let mut rewritten = std::mem::take(&mut self.rewritten);
            legacy.statement(st, &mut rewritten, &mut self.flow.c.diags);
            for st in rewritten.drain(..) {
                self.checked_statement(&st);
            }
            self.rewritten = rewritten;
        } else {
            self.checked_statement(st);
        }
    }

    fn checked_statement(&mut self, st: &Statement) {
        let flow = &mut self.flow;
        match st {
            Statement::Option(id) => flow.c.option(id),
            Statement::Decl(d) => {
                flow.c.options_done();
                flow.c.declaration(d)
            }
            Statement::Instruction(i) => {
                flow.c.options_done();
                self.instructions.push(i.span);
                if let Some(f) = flow.c.instruction(i) {
                    flow.add(f);
                }
            }
            Statement::Label(id, num) => {
                flow.c.options_done();
                if flow.c.label(id) {
                    if let Some(n) = num {
                        flow.c.subroutine_num(id, n);
                    }
                    flow.add(flow::Flat::Label(id.clone()));
                }
            }
            Statement::Error(_) => flow.c.had_syntax_error = true,
        }
    }

    /// The whole-program rules, once every statement is in. `header` is the
    /// header's span, `end` the `END`'s.
    pub(crate) fn finish(
        self,
        header: Span,
        end: Option<Span>,
    ) -> (Option<ir::Program>, Vec<Diagnostic>) {
        let ProgramChecker {
            mut flow,
            instructions,
            generated_by_cgc,
            legacy,
            rewritten: _,
        } = self;
        if let Some(legacy) = &legacy {
            legacy.finish(header, end.unwrap_or(header), &mut flow.c.diags);
        }
        let text = ProgramText {
            header,
            end: end.unwrap_or(header),
            instructions,
            generated_by_cgc,
        };
        let geometry = flow.c.geometry_layout(&text);
        let tess_control = if flow.c.stage == Stage::TessControl {
            let decl = flow.c.tess_control_vertices_out();
            flow.c.tess_control_layout(&text, decl)
        } else {
            None
        };
        let tess_eval = (flow.c.stage == Stage::TessEval)
            .then(|| flow.c.tess_eval_layout(&text))
            .flatten();
        let compute = (flow.c.stage == Stage::Compute)
            .then(|| flow.c.compute_layout(&text))
            .flatten();
        let (subroutines, entry, mut c) = flow.finish();
        let errors_so_far = c.diags.iter().any(Diagnostic::is_error) || c.had_syntax_error;
        let program = ir::Program {
            stage: c.stage,
            dialect: c.dialect,
            options: c.options_seen.iter().map(|(n, _)| n.clone()).collect(),
            variables: std::mem::take(&mut c.vars),
            subroutines,
            entry,
            geometry,
            tess_control,
            tess_eval,
            compute,
            samplers: Vec::new(),
            call_overflow: match c.dialect.labels() {
                crate::isa::LabelModel::Flat => ir::CallOverflow::End,
                _ => ir::CallOverflow::Skip,
            },
        };
        if !errors_so_far {
            c.indirect_recursion(&program);
            c.emits_needs_points(&program);
            let census = census::Census::of(&program);
            c.program_rules(&program, &text, &census);
            // Warnings only for programs without errors: a broken
            // program's warnings would mostly be echoes of its errors.
            if !c.diags.iter().any(Diagnostic::is_error) {
                lint::lint(&mut c, &program, &text, &census);
            }
        }
        let mut diags = std::mem::take(&mut c.diags);
        diags.sort_by_key(|d| d.primary_span().map(|s| s.start));
        if diags.iter().any(Diagnostic::is_error) || c.had_syntax_error {
            return (None, diags);
        }
        (Some(program), diags)
    }
}

impl crate::syntax::StatementSink for ProgramChecker<'_> {
    fn statement(&mut self, statement: Statement) {
        ProgramChecker::statement(self, &statement);
    }
}

/// What the whole-program rules need of the program text, kept while its
/// statements stream past.
pub(crate) struct ProgramText {
    /// The header (`!!NVfp4.0`).
    header: Span,
    /// `END` (the header when the program has none).
    end: Span,
    /// Every instruction statement, in order.
    instructions: Vec<Span>,
    /// Cg's output ([`lint::generated_by_cgc`]).
    generated_by_cgc: bool,
}

/// What a name in the program refers to.
#[derive(Clone, Copy, Debug)]
struct Symbol {
    var: VarId,
    /// Where this name was declared (the ALIAS for an alias).
    span: Span,
}

pub(crate) struct Checker<'o> {
    /// The language: the header, then each option as it is read.
    dialect: Dialect,
    stage: Stage,
    /// Whether the option sequence is over (the dialect is final).
    options_done: bool,
    options: &'o Options,
    diags: Vec<Diagnostic>,
    vars: Vec<Variable>,
    names: rustc_hash::FxHashMap<ast::Text, Symbol>,
    /// Implicit variables, keyed by what they bind, so that one binding used
    /// twice is one variable.
    implicit: rustc_hash::FxHashMap<ImplicitKey, VarId>,
    /// Undeclared names already reported, so each is reported once.
    reported_undeclared: rustc_hash::FxHashMap<ast::Text, Span>,
    options_seen: Vec<(String, Span)>,
    geometry_decls: Vec<(&'static str, Span, Option<String>)>,
    /// NV_gpu_program5's program-type declarations (`program_type`).
    layout_decls: Vec<program_type::LayoutDecl>,
    /// NV_compute_program5's shared memory uses, for the whole-program
    /// rules against `SHARED_MEMORY` (`memory::SharedUse`).
    shared_uses: Vec<memory::SharedUse>,
    /// NV_gpu_program5's texture variables: name → texture image units.
    textures: rustc_hash::FxHashMap<ast::Text, (Vec<u32>, Span)>,
    /// IMAGE variables: their image units and where each was declared.
    images: rustc_hash::FxHashMap<ast::Text, (Vec<u32>, Span)>,
    /// STORAGE, BUFFER, BUFFER4 and CBUFFER variables bound to a range of
    /// buffers (`program.storage[a..b]`, `program.buffer[a..b]`): the
    /// variable of each binding point, in order; the first is the
    /// declared one (src/check/memory.rs, `declaration`).
    buffer_ranges: HashMap<VarId, Vec<VarId>>,
    /// The target and format each image unit is used with, and where
    /// (src/check/image.rs).
    image_uses: HashMap<u32, image::UnitUse>,
    /// The first VERTICES_OUT declaration, for the output limits.
    vertices_out_decl: Option<Span>,
    /// Interpolation of each fragment attribute declared so far, for the
    /// rule that one attribute has one interpolation.
    interp_by_binding: HashMap<ir::AttribBinding, (ir::Interpolation, Span)>,
    /// The target each texture unit is used with, for the one-target rule.
    /// Each unit's target, where it was first used, and whether that use
    /// went through a texture array (which uses all of its units).
    texture_targets: HashMap<u32, (ir::TexTarget, Span, bool)>,
    /// Variables declared by ADDRESS (ARB_vertex_program 2.14.3.5).
    address_vars: rustc_hash::FxHashSet<VarId>,
    /// The index variable of each open LOOP, innermost last: what `A0`
    /// names (NV_fragment_program2 3.11.3.Y).
    loop_indices: Vec<VarId>,
    /// Implicit arrays of attributes or results indexed by an address
    /// register directly in a binding (`fragment.texcoord[A0.x+1]`), by
    /// their first binding.
    relative_bindings: HashMap<String, VarId>,
    /// Where each size-declared result is written, for the rule that one
    /// result has one size (NV_fragment_program_option 3.11.3.4).
    result_sizes: HashMap<ir::ResultBinding, (Precision, Span)>,
    /// ARB_shader_subroutine's SUBROUTINETYPEs, SUBROUTINE variables,
    /// SUBROUTINENUMs and CALIs (`subroutine`).
    subroutines: subroutine::SubroutineDecls,
    had_syntax_error: bool,
    /// The current instruction's modifiers (`Checker::modifiers`), kept
    /// between instructions so that the list is not allocated for each.
    modifier_list: Vec<(crate::isa::Modifier, Span)>,
}

/// What an implicit variable binds: its key in `Checker::implicit`. Keys are
/// equal exactly when the bindings are (literals by their bits: a float
/// literal is never NaN).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum ImplicitKey {
    Attrib(ir::AttribBinding),
    Attribs(Vec<ir::AttribBinding>),
    Result(ir::ResultBinding),
    Results(Vec<ir::ResultBinding>),
    /// Parameter bindings by their `Debug` form (they hold floats).
    Param(String),
    Constant([LiteralKey; 4]),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum LiteralKey {
    Int { negative: bool, magnitude: u64 },
    Float(u64),
    Bits(u32),
}

impl ImplicitKey {
    fn of(kind: &VarKind) -> ImplicitKey {
        match kind {
            VarKind::Attrib(b) if b.len() == 1 => ImplicitKey::Attrib(b[0]),
            VarKind::Attrib(b) => ImplicitKey::Attribs(b.clone()),
            VarKind::Result(b) if b.len() == 1 => ImplicitKey::Result(b[0]),
            VarKind::Result(b) => ImplicitKey::Results(b.clone()),
            VarKind::Param(b) => match b.as_slice() {
                [ir::ParamBinding::Constant(c)] => ImplicitKey::constant(c),
                _ => ImplicitKey::Param(format!("{b:?}")),
            },
            other => ImplicitKey::Param(format!("{other:?}")),
        }
    }

    /// The key of a constant's variable (`VarKind::Param` of one
    /// `ParamBinding::Constant`).
    fn constant(c: &[Literal; 4]) -> ImplicitKey {
        ImplicitKey::Constant(c.map(|l| match l {
            Literal::Int {
                negative,
                magnitude,
            } => LiteralKey::Int {
                negative,
                magnitude,
            },
            Literal::Float(f) => LiteralKey::Float(f.to_bits()),
            Literal::Bits(b) => LiteralKey::Bits(b),
        }))
    }
}

/// Declared properties collected from `<varMods>`.
#[derive(Default, Clone, Copy)]
struct DeclMods {
    ty: Option<(DataType, Span)>,
    precision: Option<(Precision, Span)>,
    interpolation: ir::Interpolation,
    interp_span: Option<Span>,
}

impl<'o> Checker<'o> {
    fn new(header: Header, options: &'o Options) -> Checker<'o> {
        Checker {
            dialect: Dialect::new(header),
            stage: header.stage(),
            options_done: false,
            options,
            diags: Vec::new(),
            vars: Vec::new(),
            names: Default::default(),
            implicit: Default::default(),
            reported_undeclared: Default::default(),
            options_seen: Vec::new(),
            geometry_decls: Vec::new(),
            layout_decls: Vec::new(),
            shared_uses: Vec::new(),
            textures: Default::default(),
            images: Default::default(),
            buffer_ranges: HashMap::default(),
            image_uses: HashMap::default(),
            vertices_out_decl: None,
            interp_by_binding: HashMap::default(),
            texture_targets: HashMap::default(),
            address_vars: Default::default(),
            loop_indices: Vec::new(),
            subroutines: Default::default(),
            relative_bindings: HashMap::default(),
            result_sizes: HashMap::default(),
            had_syntax_error: false,
            modifier_list: Vec::new(),
        }
    }

    fn error(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    fn add_var(&mut self, v: Variable) -> VarId {
        self.thread_binding_env(&v);
        self.vars.push(v);
        VarId(self.vars.len() as u32 - 1)
    }

    /// NV_shader_thread_group's thread bindings other than
    /// `fragment.helperthread` are SPIR-V 1.3 subgroup built-ins: E1140
    /// below `--target-env vulkan1.1`, as for the thread-group
    /// instructions (`OpInfo::min_env`).
    fn thread_binding_env(&mut self, v: &Variable) {
        let need = crate::TargetEnv::Vulkan1_1;
        if self.options.target_env >= need {
            return;
        }
        let name = match &v.kind {
            VarKind::Attrib(bindings) => bindings.iter().find_map(|b| match b {
                ir::AttribBinding::Thread(t) if *t != ir::ThreadAttrib::Helper => {
                    Some(t.name().to_string())
                }
                _ => None,
            }),
            // 2.X.3.3's `state.thread.warpsize`: the SubgroupSize built-in.
            VarKind::Param(bindings) => bindings.iter().find_map(|b| match b {
                ir::ParamBinding::State(item) if item.path == ["thread", "warpsize"] => {
                    Some("state.thread.warpsize".to_string())
                }
                _ => None,
            }),
            _ => None,
        };
        let Some(name) = name else {
            return;
        };
        let need = need.name();
        self.error(
            Diagnostic::error(
                "E1140",
                format!("the `{name}` binding needs `--target-env {need}` or newer"),
            )
            .primary(
                v.span,
                format!(
                    "not in {}: compile with `--target-env {need}`",
                    self.options.target_env.name()
                ),
            )
            .note("NV_shader_thread_group 2.X.3.2 and 2.X.3.3: the thread id, the masks and the warp size are those of the thread group, SPIR-V 1.3's SubgroupLocalInvocationId, Subgroup*Mask and SubgroupSize built-ins (GroupNonUniform, GroupNonUniformBallot)")
            .note(format!(
                "{need} is the oldest environment with them (library: `Options::target_env`); \
                 docs/interface.md, \"Thread groups\", says what the device must support"
            )),
        );
    }

    pub(crate) fn var(&self, id: VarId) -> &Variable {
        &self.vars[id.0 as usize]
    }

    // ----- options (section 2.X.6) -----

    /// An `OPTION` statement: its row of the option table decides whether
    /// the header has it, what it adds to the dialect and what it conflicts
    /// with.
    fn option(&mut self, id: &Ident) {
        let header = self.dialect.header;
        let Some(info) = option_info(&id.name).filter(|o| o.headers.contains(&header)) else {
            let known: Vec<&str> = options_of(header).map(|o| o.name).collect();
            if let Some(other) = option_info(&id.name) {
                let owners: Vec<String> = other.headers.iter().map(|h| format!("`{h}`")).collect();
                self.error(
                    Diagnostic::error("E0705", format!("`{}` is not an option of {header} programs", id.name))
                        .primary(id.span, format!("an option of {} programs", owners.join(", ")))
                        .note(format!("{}: {}", other.spec, other.summary))
                        .note(format!("the options of {header} programs are: {}", known.join(", ")))
                        .note("section 2.X.6: \"The set of available options depends on the program type\"; a program naming an option its type does not support fails to load"),
                );
                return;
            }
            let mut d = Diagnostic::error("E0700", format!("unknown option `{}` for a {} program", id.name, self.stage))
                .primary(id.span, "not an option of this program type")
                .note(format!("the options of {header} programs are: {}", known.join(", ")))
                .note("section 2.X.6: \"The set of available options depends on the program type\"; ARB_vertex_program: \"A program will fail to load if it specifies a program option not supported by the GL.\"");
            if let Some(s) = did_you_mean(&id.name, known.iter().copied()) {
                d = d.note(format!("did you mean `{s}`?"));
            }
            self.error(d);
            return;
        };
        if let Some((group, rule)) = info.exclusive {
            if let Some((first_name, first)) = self
                .options_seen
                .iter()
                .find(|(n, _)| {
                    *n != info.name
                        && option_info(n).and_then(|o| o.exclusive).map(|e| e.0) == Some(group)
                })
                .cloned()
            {
                self.error(
                    Diagnostic::error("E0701", format!("more than one {group} option"))
                        .primary(id.span, format!("conflicts with `{first_name}`"))
                        .secondary(first, format!("`{first_name}` given here"))
                        .note(rule),
                );
            }
        }
        self.dialect.enable(info.features);
        self.options_seen.push((id.name.to_string(), id.span));
    }

    /// The first statement after the options: the dialect is final, and
    /// the rules between options can be checked.
    fn options_done(&mut self) {
        if std::mem::replace(&mut self.options_done, true) {
            return;
        }
        let header = self.dialect.header;
        for (name, span) in self.options_seen.clone() {
            let Some((h, needs)) = option_info(&name).and_then(|o| o.requires) else {
                continue;
            };
            if h == header && !self.dialect.features.contains(needs) {
                let provider = options_of(header)
                    .find(|o| o.features.contains(needs))
                    .map_or("?", |o| o.name);
                self.error(
                    Diagnostic::error("E0704", format!("`{name}` needs `OPTION {provider};` on {header} programs"))
                        .primary(span, format!("a {header} program has no texture instructions for it to change without `{provider}`"))
                        .note("NV_vertex_program3, \"Dependencies on ARB_fragment_program_shadow\": \"If this extension and ARB_fragment_program shadow are both supported, vertex programs may include the option statement: OPTION ARB_fragment_program_shadow;\"")
                        .note(format!("add `OPTION {provider};`")),
                );
            }
        }
    }

    /// An instruction label: whether the language has labels (reported
    /// when it does not, or when the label is a reserved word).
    fn label(&mut self, id: &Ident) -> bool {
        let has_labels = |d: Dialect| d.labels() != crate::isa::LabelModel::None;
        if !has_labels(self.dialect) {
            self.unavailable(
                "an instruction label",
                id.span,
                has_labels,
                "ARB_vertex_program 2.14.4 / ARB_fragment_program 3.11.4: programs \"execute a sequence of instructions without branching\"; labels come with branches and subroutines",
            );
            return false;
        }
        !self.reserved_name(id)
    }

    // ----- declarations (section 2.X.3) -----

    /// Whether `name` is a reserved keyword of the program's language
    /// that the lexer passes on as a word: in the ARB family, the
    /// declaration keywords and every instruction name and variant.
    fn reserved_word(&self, name: &str) -> bool {
        if !self.dialect.reserves_opcodes() {
            return false;
        }
        if matches!(
            name,
            "ALIAS" | "ATTRIB" | "END" | "OPTION" | "OUTPUT" | "PARAM" | "TEMP"
        ) || (name == "ADDRESS" && self.stage == Stage::Vertex)
        {
            return true;
        }
        instr::is_instruction_name(self.dialect, name)
    }

    /// Reports a reserved keyword used as a name; true if it was one.
    fn reserved_name(&mut self, name: &Ident) -> bool {
        if !self.reserved_word(&name.name) {
            return false;
        }
        let header = self.dialect.header;
        self.error(
            Diagnostic::error("E0302", format!("`{}` is a reserved keyword", name.name))
                .primary(name.span, "cannot be used as a name")
                .note(format!(
                    "{}: instruction names (with their suffixed variants) and the declaration keywords \"may not be used as identifiers\" in {header} programs",
                    header.spec()
                )),
        );
        true
    }

    /// NV_gpu_program5's second <optArraySize> on a BUFFER, BUFFER4 or
    /// CBUFFER declaration (`b[3][4]`): the first counts the binding points
    /// of the `program.buffer[a..b]` range the variable was just bound to
    /// (E1282 on another binding, another count, or a `!!NV…4.0` header,
    /// whose grammar has one size).
    fn binding_point_size(&mut self, name: &Ident, points: Option<&ast::ArraySize>) {
        let Some(points) = points else { return };
        let rule = "NV_gpu_program5 2.X.2: <BUFFER_statement> ::= <bufferDeclType> <establishName> <optArraySize> <optArraySize> \"=\" <bufferMultInit>; 2.X.3.6: `program.buffer[a..b]` variables are \"accessed as an arrays, with the first index specifying an offset into the range of buffer object binding points\", and a second index the element";
        if !self.dialect.has(Features::NV5) {
            self.error(
                Diagnostic::error(
                    "E1282",
                    "two array sizes on a buffer declaration outside NV_gpu_program5",
                )
                .primary(
                    points.span,
                    "NV_parameter_buffer_object's <BUFFER_statement> has one <optArraySize>",
                )
                .note(rule),
            );
            return;
        }
        let Some(var) = self.names.get(&name.name).map(|s| s.var) else {
            return;
        };
        let count = self.buffer_ranges.get(&var).map(Vec::len);
        let declared = points.len.as_ref().map(|n| self.array_len(n));
        match (count, declared) {
            (Some(n), Some(d)) if d != n as u32 => self.error(
                Diagnostic::error(
                    "E1282",
                    format!(
                        "`{}` is declared with {d} binding points but bound to {n}",
                        name.name
                    ),
                )
                .primary(points.span, format!("{d} declared here"))
                .note(rule),
            ),
            (Some(_), _) => {}
            (None, _) => self.error(
                Diagnostic::error(
                    "E1282",
                    format!(
                        "`{}` has a size for binding points but is not bound to a range of them",
                        name.name
                    ),
                )
                .primary(
                    points.span,
                    "the first of two sizes counts the binding points of `program.buffer[a..b]`",
                )
                .note(rule),
            ),
        }
    }

    fn declare_name(&mut self, name: &Ident, var: VarId) {
        if self.reserved_name(name) {
            return;
        }
        if let Some(prev) = self.names.get(&name.name) {
            let prev = prev.span;
            self.error(
                Diagnostic::error("E0300", format!("`{}` is declared twice", name.name))
                    .primary(name.span, "declared again here")
                    .secondary(prev, "first declared here")
                    .note("section 2.X.3: each variable name may be established only once"),
            );
            return;
        }
        self.names.insert(
            name.name.clone(),
            Symbol {
                var,
                span: name.span,
            },
        );
    }

    fn decl_mods(&mut self, d: &ast::Declaration) -> DeclMods {
        let mut m = DeclMods::default();
        let is_attrib = matches!(d.kind, DeclKind::Attrib { .. });
        for &(vm, span) in &d.modifiers {
            let exists = |d: Dialect| match vm {
                VarModifier::Short | VarModifier::Long => d.size_modifiers().is_some(),
                _ => d.typed_variables(),
            };
            if !exists(self.dialect) {
                let rule = match vm {
                    VarModifier::Short | VarModifier::Long => "NV_fragment_program_option 3.11.3.3: \"Temporary declaration can optionally specify a variable size, using the <varSize> grammar rule\"",
                    VarModifier::Int | VarModifier::Uint | VarModifier::Float => "NV_gpu_program4 2.X.3.1: data type modifiers",
                    _ => "NV_fragment_program4 2.X.3.1: interpolation modifiers",
                };
                self.unavailable(
                    &format!("the `{}` declaration modifier", vm.name()),
                    span,
                    exists,
                    rule,
                );
                continue;
            }
            match vm {
                VarModifier::Int | VarModifier::Uint | VarModifier::Float => {
                    let ty = match vm {
                        VarModifier::Int => DataType::Signed,
                        VarModifier::Uint => DataType::Unsigned,
                        _ => DataType::Float,
                    };
                    if let Some((_, first)) = m.ty {
                        self.error(
                            Diagnostic::error("E0310", "more than one data type modifier in a declaration")
                                .primary(span, "second type modifier")
                                .secondary(first, "first type modifier here")
                                .note("section 2.X.3.1: a variable declaration may have at most one of INT, UINT and FLOAT"),
                        );
                    } else {
                        m.ty = Some((ty, span));
                    }
                }
                VarModifier::Short | VarModifier::Long => {
                    let p = if vm == VarModifier::Short {
                        Precision::Short
                    } else {
                        Precision::Long
                    };
                    if let Some((_, first)) = m.precision {
                        self.error(
                            Diagnostic::error("E0311", "more than one size modifier in a declaration")
                                .primary(span, "second size modifier")
                                .secondary(first, "first size modifier here")
                                .note("section 2.X.3.1: a variable declaration may have at most one of SHORT and LONG"),
                        );
                        continue;
                    }
                    let long_outputs = self
                        .dialect
                        .size_modifiers()
                        .is_some_and(|s| s.long_outputs);
                    let allowed = matches!(
                        (p, &d.kind),
                        (_, DeclKind::Temp { .. }) | (Precision::Short, DeclKind::Output { .. })
                    ) || (long_outputs && matches!(d.kind, DeclKind::Output { .. }));
                    // NV_gpu_program5 2.X.3.1: "The "LONG" modifier is
                    // supported only for declarations of temporary variables
                    // ("TEMP"), and attribute variables ("ATTRIB") in vertex
                    // programs" (VertexAttribL*; docs/interface.md, "64-bit
                    // vertex attributes"). `rules.rs` checks the Locations
                    // such an attribute takes.
                    let long_vertex_attrib = p == Precision::Long
                        && matches!(d.kind, DeclKind::Attrib { .. })
                        && self.stage == Stage::Vertex
                        && self.dialect.has(Features::NV5);
                    let allowed = allowed || long_vertex_attrib;
                    if !allowed {
                        let rule = if self.dialect.has(Features::NV5) && p == Precision::Long {
                            "NV_gpu_program5: \"The LONG modifier can only be used vertex program inputs, and can not be used for inputs of any program type or outputs of any program type\" (and on TEMP declarations, 2.X.3.1)"
                        } else if long_outputs {
                            "NV_fragment_program_option: <TEMP_statement> ::= <varSize> \"TEMP\" <varNameList>; <OUTPUT_statement> ::= <varSize> \"OUTPUT\" ..."
                        } else {
                            "section 2.X.3.1: \"LONG\" may be used only on TEMP declarations, \"SHORT\" only on TEMP and OUTPUT declarations"
                        };
                        self.error(
                            Diagnostic::error(
                                "E0312",
                                format!("`{}` is not allowed on this declaration", vm.name()),
                            )
                            .primary(span, "size modifier here")
                            .secondary(d.keyword, "declaration")
                            .note(rule),
                        );
                    }
                    m.precision = Some((p, span));
                }
                VarModifier::Flat | VarModifier::Centroid | VarModifier::NoPerspective => {
                    if self.stage != Stage::Fragment || !is_attrib {
                        self.error(
                            Diagnostic::error("E0313", format!("interpolation modifier `{}` on a non-attribute", vm.name()))
                                .primary(span, "interpolation modifier here")
                                .secondary(d.keyword, "not a fragment program ATTRIB")
                                .note("NV_fragment_program4 section 2.X.3.1: a fragment program will fail to load \"if an interpolation modifier is specified when declaring a non-attribute variable\""),
                        );
                        continue;
                    }
                    let slot = match vm {
                        VarModifier::Flat => &mut m.interpolation.flat,
                        VarModifier::Centroid => &mut m.interpolation.centroid,
                        _ => &mut m.interpolation.noperspective,
                    };
                    if *slot {
                        self.error(
                            Diagnostic::error("E0314", format!("`{}` given twice", vm.name()))
                                .primary(span, "repeated modifier")
                                .note("NV_fragment_program4 section 2.X.3.1: a fragment program will fail to load \"if the same interpolation modifier is specified more than once in a single declaration\""),
                        );
                    }
                    *slot = true;
                    m.interp_span.get_or_insert(span);
                }
            }
        }
        let i = m.interpolation;
        if i.flat && (i.centroid || i.noperspective) {
            self.error(
                Diagnostic::error("E0315", "FLAT combined with CENTROID or NOPERSPECTIVE")
                    .primary(m.interp_span.unwrap_or(d.keyword), "conflicting interpolation modifiers")
                    .note("NV_fragment_program4 section 2.X.3.1: a fragment program will fail to load \"if the \"FLAT\" modifier is used together with either \"CENTROID\" or \"NOPERSPECTIVE\" in a single declaration\""),
            );
        }
        m
    }

    fn declaration(&mut self, d: &ast::Declaration) {
        let mods = self.decl_mods(d);
        let ty = mods
            .ty
            .map_or(VarType::Typeless, |(t, _)| VarType::Typed(t));
        let precision = mods.precision.map_or(Precision::Default, |p| p.0);
        if !self.declaration_exists(d) {
            return;
        }
        match &d.kind {
            DeclKind::Address { names } => {
                for (name, _) in names {
                    // Four-component signed integers, of which ARB_vertex_program
                    // uses `x` only (2.14.3.5); the checker keeps the rest.
                    let v = self.add_var(Variable {
                        name: Some(name.name.to_string()),
                        span: name.span,
                        kind: VarKind::Temp,
                        ty: VarType::Typed(DataType::Signed),
                        precision: Precision::Default,
                        array_len: None,
                        interpolation: ir::Interpolation::default(),
                    });
                    self.address_vars.insert(v);
                    self.declare_name(name, v);
                }
            }
            DeclKind::Temp { names } => {
                for (name, size) in names {
                    let array_len = match size {
                        None => None,
                        Some(s) => match &s.len {
                            Some(n) => Some(self.array_len(n)),
                            None => {
                                self.error(
                                    Diagnostic::error("E0320", format!("temporary array `{}` needs a size", name.name))
                                        .primary(s.span, "write the number of elements here")
                                        .note("section 2.X.3.4: a TEMP array has no bindings to count, so its size must be given"),
                                );
                                Some(1)
                            }
                        },
                    };
                    let v = self.add_var(Variable {
                        name: Some(name.name.to_string()),
                        span: name.span,
                        kind: VarKind::Temp,
                        ty,
                        precision,
                        array_len,
                        interpolation: ir::Interpolation::default(),
                    });
                    self.declare_name(name, v);
                }
            }
            DeclKind::Alias { name, target } => match self.names.get(&target.name).copied() {
                Some(_) if self.reserved_name(name) => {}
                Some(sym) => {
                    let sym = Symbol {
                        var: sym.var,
                        span: name.span,
                    };
                    if self.names.contains_key(&name.name) {
                        self.declare_name(name, sym.var);
                    } else {
                        self.names.insert(name.name.clone(), sym);
                    }
                }
                None => {
                    let d = self.undeclared(target, "section 2.X.3.8: an ALIAS must name a variable established earlier in the program");
                    self.error(d);
                }
            },
            DeclKind::Attrib { name, size, init } => self.bound_declaration(
                d,
                name,
                size.as_ref(),
                init,
                ty,
                precision,
                mods,
                BoundKind::Attrib,
            ),
            DeclKind::Param { name, size, init } => self.bound_declaration(
                d,
                name,
                size.as_ref(),
                init,
                ty,
                precision,
                mods,
                BoundKind::Param,
            ),
            DeclKind::Output { name, size, init } => self.bound_declaration(
                d,
                name,
                size.as_ref(),
                init,
                ty,
                precision,
                mods,
                BoundKind::Result,
            ),
            DeclKind::Buffer {
                name,
                points,
                size,
                init,
                ..
            }
            | DeclKind::ConstantBuffer {
                name,
                points,
                size,
                init,
            } => {
                // BUFFER4 reads vec4s; CBUFFER is addressed in bytes (LDC).
                let kind = match &d.kind {
                    DeclKind::Buffer { vec4, .. } => BoundKind::Buffer {
                        vec4: *vec4,
                        bytes: false,
                    },
                    _ => BoundKind::Buffer {
                        vec4: false,
                        bytes: true,
                    },
                };
                self.bound_declaration(d, name, size.as_ref(), init, ty, precision, mods, kind);
                self.binding_point_size(name, points.as_ref());
            }
            DeclKind::PrimitiveIn(t) => {
                self.geometry_decls
                    .push(("PRIMITIVE_IN", d.span, Some(t.name.to_string())))
            }
            DeclKind::PrimitiveOut(t) => {
                self.geometry_decls
                    .push(("PRIMITIVE_OUT", d.span, Some(t.name.to_string())))
            }
            DeclKind::VerticesOut(n) => {
                self.geometry_decls
                    .push(("VERTICES_OUT", d.span, Some(n.text.to_string())))
            }
            DeclKind::Layout { keyword, args } => {
                self.layout_declaration(program_type::LayoutDecl {
                    keyword,
                    keyword_span: d.keyword,
                    span: d.span,
                    args: args.clone(),
                });
            }
            DeclKind::Texture { name, size, init } => {
                self.texture_declaration(&program_type::TEXTURE_UNITS, d, name, size.as_ref(), init)
            }
            DeclKind::Image { name, size, init } => {
                self.texture_declaration(&program_type::IMAGE_UNITS, d, name, size.as_ref(), init)
            }
            DeclKind::Storage { name, size, init } => {
                self.storage_declaration(d, name, size.as_ref(), init)
            }
            DeclKind::Counter { name, size, init } => {
                self.counter_declaration(d, name, size.as_ref(), init)
            }
            DeclKind::Shared { name, size, init } => {
                self.shared_declaration(d, name, size.as_ref(), init)
            }
            DeclKind::SubroutineType { name, labels } => {
                self.subroutine_type_declaration(d, name, labels)
            }
            DeclKind::Subroutine {
                ty,
                name,
                size,
                init,
            } => self.subroutine_declaration(d, ty, name, size.as_ref(), init),
            // `!!FP1.0`'s rewriter (check::legacy::fragment) replaces these
            // with PARAM declarations before the checker reads them, and
            // `declaration_exists` refused them in every other header.
            DeclKind::Define { .. } | DeclKind::Declare { .. } => {}
        }
        // NV_tessellation_program5 2.X.7.Y: VERTICES_OUT is also the
        // tessellation control program's output patch size.
        let tcp_vertices_out =
            matches!(d.kind, DeclKind::VerticesOut(_)) && self.stage == Stage::TessControl;
        if matches!(
            d.kind,
            DeclKind::PrimitiveIn(_) | DeclKind::PrimitiveOut(_) | DeclKind::VerticesOut(_)
        ) && self.stage != Stage::Geometry
            && !tcp_vertices_out
        {
            self.error(
                Diagnostic::error("E0720", "geometry program declaration in a non-geometry program")
                    .primary(d.keyword, "only `!!NVgp4.0` programs declare this")
                    .note("NV_geometry_program4 section 2.X.7: PRIMITIVE_IN, PRIMITIVE_OUT and VERTICES_OUT are geometry program declarations"),
            );
        }
    }

    /// Whether the declaration exists in the program's dialect (reported
    /// when it does not): ADDRESS in ARB vertex programs, BUFFER in
    /// NV_gpu_program4, arrays of temporaries, attributes and results in
    /// NV_gpu_program4 (the ARB grammars declare only parameter arrays).
    fn declaration_exists(&mut self, d: &ast::Declaration) -> bool {
        let arb_address = |d: Dialect| {
            matches!(
                d.address_model(),
                AddressModel::ArbScalar | AddressModel::ArbVector
            )
        };
        let nv4 = |d: Dialect| d.has(Features::NV4);
        let nv5 = |d: Dialect| d.has(Features::NV5);
        let storage = |d: Dialect| d.has(Features::STORAGE_BUFFER);
        let cbuffer = |d: Dialect| d.has(Features::PARAMETER_BUFFERS2);
        let counters = |d: Dialect| d.has(Features::ATOMIC_COUNTERS);
        let fp1 = |d: Dialect| d.has(Features::NV_FP1);
        let (keyword, exists, rule): (&str, &dyn Fn(Dialect) -> bool, &str) = match &d.kind {
            DeclKind::Address { .. } => ("ADDRESS", &arb_address, "ARB_vertex_program 2.14.3.5: address registers are declared with the <ADDRESS_statement> of vertex programs"),
            DeclKind::Buffer { vec4: false, .. } => ("BUFFER", &nv4, "NV_parameter_buffer_object 2.X.3.6"),
            DeclKind::Buffer { vec4: true, .. } => ("BUFFER4", &nv4, "NV_parameter_buffer_object 2.X.3.6"),
            DeclKind::ConstantBuffer { .. } => ("CBUFFER", &cbuffer, "NV_parameter_buffer_object2 2.X.6: \"If a program specifies the \"NV_parameter_buffer_object2\" option, it may use the CBUFFER statement\" (implied by the NV_gpu_program5 headers)"),
            DeclKind::Texture { .. } => ("TEXTURE", &nv5, "NV_gpu_program5 2.X.3.8: texture variables"),
            DeclKind::Image { .. } => ("IMAGE", &nv5, "EXT_shader_image_load_store, \"Dependencies on NV_gpu_program5\": image variables are implied by the NV_gpu_program5 headers"),
            DeclKind::Shared { .. } => ("SHARED", &nv5, "NV_compute_program5 2.X.2: <SHARED_statement> is a statement of `!!NVcp5.0` programs"),
            DeclKind::Define { .. } => ("DEFINE", &fp1, "NV_fragment_program 3.11.3: <constantDefinition> is a statement of `!!FP1.0` programs"),
            DeclKind::Declare { .. } => ("DECLARE", &fp1, "NV_fragment_program 3.11.3: <localDeclaration> is a statement of `!!FP1.0` programs"),
            DeclKind::Counter { .. } => ("COUNTER", &counters, "NV_shader_atomic_counters 2.X.6: \"If a program specifies the \"NV_shader_atomic_counters\" option, it may use the COUNTER statement to declare atomic counter variables\""),
            DeclKind::Storage { .. } => ("STORAGE", &storage, "NV_shader_storage_buffer_object 2.X.6: \"a program will fail to load if it contains ... \"STORAGE\" declarations\" without the NV_shader_storage_buffer option"),
            _ => ("", &|_| true, ""),
        };
        if !exists(self.dialect) {
            self.unavailable(
                &format!("the `{keyword}` declaration"),
                d.keyword,
                exists,
                rule,
            );
            return false;
        }
        // Arrays: only PARAM arrays in the ARB grammars.
        let sized = match &d.kind {
            DeclKind::Temp { names } | DeclKind::Address { names } => names
                .iter()
                .find_map(|(n, s)| s.as_ref().map(|s| (n, s.span))),
            DeclKind::Attrib { name, size, .. } | DeclKind::Output { name, size, .. } => {
                size.as_ref().map(|s| (name, s.span))
            }
            _ => None,
        };
        if let Some((name, span)) = sized {
            let what = match &d.kind {
                DeclKind::Address { .. } => "an ADDRESS array",
                DeclKind::Temp { .. } => "a TEMP array",
                DeclKind::Attrib { .. } => "an ATTRIB array",
                _ => "an OUTPUT array",
            };
            let address = matches!(d.kind, DeclKind::Address { .. });
            if address || !nv4(self.dialect) {
                let _ = name;
                self.unavailable(
                    what,
                    span,
                    |d| !address && d.has(Features::NV4),
                    "the ARB grammars declare arrays of program parameters only (<PARAM_multipleStmt>); NV_gpu_program4 2.X.3 adds arrays of the other kinds",
                );
                return false;
            }
        }
        true
    }

    fn array_len(&mut self, n: &ast::IntLit) -> u32 {
        match bindings::int_value(n) {
            Ok(0) => {
                self.error(
                    Diagnostic::error("E0321", "an array needs at least one element")
                        .primary(n.span, "size 0"),
                );
                1
            }
            Ok(v) => v,
            Err(d) => {
                self.error(d);
                1
            }
        }
    }

    /// ATTRIB, PARAM, OUTPUT and BUFFER declarations: a name bound to one
    /// or more bindings.
    #[allow(clippy::too_many_arguments)]
    fn bound_declaration(
        &mut self,
        d: &ast::Declaration,
        name: &Ident,
        size: Option<&ast::ArraySize>,
        init: &Init,
        ty: VarType,
        precision: Precision,
        mods: DeclMods,
        kind: BoundKind,
    ) {
        let before = self.names.contains_key(&name.name);
        self.bound_declaration_inner(d, name, size, init, ty, precision, mods, kind);
        // A declaration already reported as wrong still establishes its
        // name, so its uses are not reported again as undeclared.
        if !before && !self.names.contains_key(&name.name) {
            self.reported_undeclared
                .insert(name.name.clone(), name.span);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn bound_declaration_inner(
        &mut self,
        d: &ast::Declaration,
        name: &Ident,
        size: Option<&ast::ArraySize>,
        init: &Init,
        ty: VarType,
        precision: Precision,
        mods: DeclMods,
        kind: BoundKind,
    ) {
        let is_array = size.is_some();
        let declared_len = size.and_then(|s| s.len.as_ref()).map(|n| self.array_len(n));
        // `PARAM v = { 1, 2 }` is a constant vector; with a size it is a
        // list of bindings (section 2.X.2, <PARAM_singleStmt> and
        // <PARAM_multipleStmt>).
        let items: Vec<InitItem> = match init {
            Init::Single(item) => vec![item.clone()],
            Init::List(items, span) if !is_array => {
                if kind == BoundKind::Param
                    && items.iter().all(|i| matches!(i, InitItem::Scalar(_)))
                    && items.len() <= 4
                {
                    vec![InitItem::Vector(ast::ConstVector {
                        components: items
                            .iter()
                            .filter_map(|i| {
                                if let InitItem::Scalar(s) = i {
                                    Some(s.clone())
                                } else {
                                    None
                                }
                            })
                            .collect(),
                        span: *span,
                    })]
                } else if items.len() == 1 {
                    items.clone()
                } else {
                    self.error(
                        Diagnostic::error("E0322", format!("`{}` is bound to a list but is not declared as an array", name.name))
                            .primary(*span, format!("{} bindings", items.len()))
                            .secondary(name.span, "declare it as `name[]` or `name[n]`")
                            .note("section 2.X.2: a { } list of bindings initializes an array variable (<PARAM_multipleStmt>)"),
                    );
                    return;
                }
            }
            Init::List(items, _) => items.clone(),
        };
        let mut elements = Elements::default();
        let mut ok = true;
        for item in &items {
            if !self.init_item(item, kind, ty, is_array, &mut elements) {
                ok = false;
            }
        }
        if !ok {
            return;
        }
        let count = elements.len() as u32;
        if let (Some(n), Some(s)) = (declared_len, size) {
            if n != count {
                self.error(
                    Diagnostic::error("E0323", format!("`{}` is declared with {} elements but bound to {}", name.name, n, count))
                        .primary(s.span, format!("{n} declared here"))
                        .secondary(init_span(init), format!("{count} bindings"))
                        .note("section 2.X.3.3: a program will fail to load if it \"specifies an array size ... that does not match the number of parameter bindings\""),
                );
                return;
            }
        }
        if !is_array && count != 1 {
            self.error(
                Diagnostic::error(
                    "E0322",
                    format!(
                        "`{}` is bound to {} elements but is not declared as an array",
                        name.name, count
                    ),
                )
                .primary(init_span(init), "a range of bindings")
                .secondary(name.span, "declare it as `name[]`")
                .note("section 2.X.2: ranges such as `[0..3]` initialize array variables"),
            );
            return;
        }
        if is_array && !self.consecutive_bindings(&elements, init) {
            return;
        }
        // Interpolation rules on fragment attributes.
        if let Elements::Attrib(ref v) = elements {
            self.check_interpolation(d, v, mods, ty);
        }
        let kind = match elements {
            Elements::Attrib(v) => VarKind::Attrib(v),
            Elements::Param(v) => VarKind::Param(v),
            Elements::Result(v) => VarKind::Result(v),
            Elements::Buffer { binding, last, .. } => {
                let constant = kind
                    == BoundKind::Buffer {
                        vec4: false,
                        bytes: true,
                    };
                // A range's variables are named for their binding point,
                // `name[k]`: the messages about the element index and the
                // reflection then say which binding point they mean.
                let ranged = last > binding.buffer;
                let buffer_var = |buffer: u32| Variable {
                    name: Some(if ranged {
                        format!("{}[{}]", name.name, buffer - binding.buffer)
                    } else {
                        name.name.to_string()
                    }),
                    span: name.span,
                    kind: if constant {
                        VarKind::ConstantBuffer(ir::BufferBinding { buffer, ..binding })
                    } else {
                        VarKind::Buffer(ir::BufferBinding { buffer, ..binding })
                    },
                    ty,
                    precision,
                    array_len: if is_array { Some(count) } else { None },
                    interpolation: mods.interpolation,
                };
                let var = self.add_var(buffer_var(binding.buffer));
                self.declare_name(name, var);
                // NV_gpu_program5 2.X.3.6: `program.buffer[a..b]` "behave[s]
                // identically to ... "program.buffer[a]", except that the
                // variable is filled with a separate set of values for each
                // buffer binding point from <a> to <b> inclusive": one
                // variable per binding point, as STORAGE ranges have.
                if ranged {
                    let mut vars = vec![var];
                    for buffer in binding.buffer + 1..=last {
                        vars.push(self.add_var(buffer_var(buffer)));
                    }
                    self.buffer_ranges.insert(var, vars);
                }
                return;
            }
            Elements::None => return,
        };
        let var = self.add_var(Variable {
            name: Some(name.name.to_string()),
            span: name.span,
            kind,
            ty,
            precision,
            array_len: if is_array { Some(count) } else { None },
            interpolation: mods.interpolation,
        });
        self.declare_name(name, var);
    }

    /// Adds one initializer item's bindings; false if it was in error.
    fn init_item(
        &mut self,
        item: &InitItem,
        kind: BoundKind,
        ty: VarType,
        is_array: bool,
        out: &mut Elements,
    ) -> bool {
        let data_ty = match ty {
            VarType::Typed(t) => t,
            // Section 2.X.3.3: "If no data type modifier is specified in a
            // declaration, constants are interpreted as floating-point values."
            VarType::Typeless => DataType::Float,
        };
        match item {
            InitItem::Scalar(_) | InitItem::Vector(_) if kind != BoundKind::Param => {
                let sp = item.span();
                self.error(
                    Diagnostic::error("E0324", format!("a constant cannot initialize {}", kind.describe()))
                        .primary(sp, "constant here")
                        .note("section 2.X.2: only PARAM declarations take constants (<paramUseDB>, <paramUseDM>)"),
                );
                false
            }
            // Section 2.X.3.3: "For constants in variable declarations, the
            // components of the constant are interpreted according to the
            // variable's component data type modifier", so their bits are
            // fixed here, whatever type later reads them.
            InitItem::Scalar(s) => match self.constant(std::slice::from_ref(s), true, data_ty) {
                Some(c) => out.push_param(ir::ParamBinding::Constant(
                    c.map(|l| Literal::Bits(l.bits(data_ty))),
                )),
                None => false,
            },
            InitItem::Vector(v) => match self.constant(&v.components, false, data_ty) {
                Some(c) => out.push_param(ir::ParamBinding::Constant(
                    c.map(|l| Literal::Bits(l.bits(data_ty))),
                )),
                None => false,
            },
            InitItem::Binding(path) => {
                let Some((root, root_span)) = bindings::root_of(path) else {
                    return false;
                };
                // NV_gpu_program5's <BUFFER_statement> takes <bufferMultInit>
                // with or without an array size, so `program.buffer[a..b]`
                // may bind a variable that is not an array (Table X.12.1,
                // `program.buffer[a..b][c]`: one element per binding point).
                let allow_range = is_array
                    || (matches!(kind, BoundKind::Buffer { .. })
                        && self.dialect.has(Features::NV5));
                let decoded = match decode(self.dialect, root, root_span, path, allow_range) {
                    Ok(d) => d,
                    Err(d) => {
                        self.error(d);
                        return false;
                    }
                };
                if let Some(rel) = &decoded.relative {
                    self.error(
                        Diagnostic::error("E0204", "a declaration binds fixed elements")
                            .primary(rel.span, "relative addressing is not allowed in a declaration")
                            .note("NV_vertex_program3 / NV_fragment_program2: `[A0.x + n]` indexes a binding inside an instruction operand; a declaration binds constant elements"),
                    );
                    return false;
                }
                if let Some(extra) = decoded.rest.first() {
                    let sp = match extra {
                        ast::PathPart::Member(id) => id.span,
                        ast::PathPart::Index(_, s) => *s,
                    };
                    self.error(
                        Diagnostic::error("E0207", "a declaration binds whole vectors")
                            .primary(sp, "no swizzle, mask or extra index is allowed here")
                            .note("section 2.X.2: <attribUseD>, <paramUseDB>, <resultUseD> take a binding without a suffix"),
                    );
                    return false;
                }
                let ok = match (kind, decoded.binding) {
                    (BoundKind::Attrib, Binding::Attrib(v)) => out.push_attribs(v),
                    (BoundKind::Result, Binding::Result(v)) => out.push_results(v),
                    (BoundKind::Param, Binding::Param(v)) => {
                        v.into_iter().all(|b| out.push_param(b))
                    }
                    (
                        BoundKind::Buffer { vec4, bytes },
                        Binding::Buffer {
                            buffer,
                            last,
                            elements,
                            ..
                        },
                    ) => {
                        // NV_gpu_program5 2.X.3.6: "A program will fail to
                        // compile if such bindings are used when <a> or <b>
                        // is ... greater than or equal to the number of
                        // buffer binding points supported for the program
                        // type" (a > b is E0202 in `decode`).
                        let bindings = self.options.limits.max_buffer_bindings;
                        if last != buffer && last >= bindings {
                            self.error(
                                Diagnostic::error("E1280", format!("parameter buffer range `program.buffer[{buffer}..{last}]` reaches past the last binding point ({})", bindings.saturating_sub(1)))
                                    .primary(decoded.span, format!("binding points are 0 to {}", bindings.saturating_sub(1)))
                                    .note(BUFFER_RANGE_RULE)
                                    .note("MAX_PROGRAM_PARAMETER_BUFFER_BINDINGS_NV is `Options::limits.max_buffer_bindings` (docs/limits.md)"),
                            );
                            return false;
                        }
                        let first = elements.map_or(0, |e| e.0);
                        // A buffer array covers the range it names, or the
                        // whole binding point: MAX_PROGRAM_PARAMETER_BUFFER_SIZE_NV
                        // words, a quarter as many vec4s for BUFFER4, four
                        // times as many bytes for CBUFFER (LDC, "4*<n> or
                        // more basic machine units ... undefined").
                        let max = self.options.limits.max_buffer_size;
                        let whole = match (vec4, bytes) {
                            (_, true) => max.saturating_mul(4),
                            (true, false) => max / 4,
                            (false, false) => max,
                        };
                        let len = elements.map_or(whole, |(a, b)| b - a + 1);
                        match out {
                            Elements::None => {
                                *out = Elements::Buffer {
                                    binding: ir::BufferBinding {
                                        buffer,
                                        first,
                                        vec4,
                                    },
                                    last,
                                    len,
                                };
                                true
                            }
                            // NV_parameter_buffer_object 2.X.3.6: "all bindings
                            // assigned to the array must use the same binding
                            // point and must increase consecutively";
                            // NV_gpu_program5 2.X.3.6: "the same single buffer
                            // *or* buffer range".
                            Elements::Buffer {
                                binding: prev,
                                last: prev_last,
                                len: n,
                            } if prev.buffer == buffer
                                && *prev_last == last
                                && prev.first + *n == first
                                && elements.is_some() =>
                            {
                                *n += len;
                                true
                            }
                            _ => {
                                self.error(
                                    Diagnostic::error("E0330", "buffer array bindings are not one consecutive range of one binding point")
                                        .primary(item.span(), "does not continue the bindings before it")
                                        .note("NV_parameter_buffer_object section 2.X.3.6: \"all bindings assigned to the array must use the same binding point and must increase consecutively\"; NV_gpu_program5 2.X.3.6: \"the same single buffer *or* buffer range\""),
                                );
                                false
                            }
                        }
                    }
                    (BoundKind::Param, Binding::Buffer { span, .. }) => {
                        self.error(
                            Diagnostic::error("E0208", "a parameter buffer binding in a PARAM declaration")
                                .primary(span.to(decoded.span), "`program.buffer` binds BUFFER and BUFFER4 variables")
                                .note("NV_parameter_buffer_object section 2.X.3.6: program parameter buffer bindings are used only in BUFFER and BUFFER4 declarations"),
                        );
                        false
                    }
                    (k, b) => {
                        self.error(
                            Diagnostic::error(
                                "E0209",
                                format!(
                                    "{} cannot be bound to {}",
                                    binding_describe(&b),
                                    k.describe()
                                ),
                            )
                            .primary(decoded.span, "wrong kind of binding")
                            .note(format!(
                                "{} takes {}",
                                k.keyword(),
                                k.takes()
                            )),
                        );
                        false
                    }
                };
                ok
            }
        }
    }

    /// Reads a constant's components, filling missing ones with (0, 0, 1)
    /// per section 2.X.3.3, and checks each against the data type it will be
    /// read as (when known).
    fn constant(
        &mut self,
        comps: &[SignedNumber],
        scalar: bool,
        ty: DataType,
    ) -> Option<[Literal; 4]> {
        if comps.len() > 4 {
            self.error(
                Diagnostic::error("E0210", "a constant vector has at most four components")
                    .primary(comps[4].span, "fifth component"),
            );
            return None;
        }
        // In place, not in a `Vec` (an allocation per constant operand).
        let mut out = [Literal::ZERO, Literal::ZERO, Literal::ZERO, Literal::ONE];
        for (i, c) in comps.iter().enumerate() {
            out[i] = self.literal(c, ty)?;
        }
        if scalar {
            return Some([out[0]; 4]);
        }
        Some(out)
    }

    fn literal(&mut self, c: &SignedNumber, ty: DataType) -> Option<Literal> {
        let lit = match &c.number {
            Number::Int(i) => match i.value() {
                Some(m) if m <= u32::MAX as u64 || ty == DataType::Float => Literal::Int {
                    negative: c.negative,
                    magnitude: m,
                },
                _ => {
                    self.error(
                        Diagnostic::error("E0201", format!("integer `{}` is too large", i.text))
                            .primary(i.span, "does not fit in 32 bits")
                            .note("section 2.X.3.3: \"If the value used to specify an integer constant is too large to be represented, the program will fail to load.\""),
                    );
                    return None;
                }
            },
            Number::Float { text, span } => match text.parse::<f64>() {
                Ok(f) => Literal::Float(if c.negative { -f } else { f }),
                Err(_) => {
                    self.error(
                        // The lexer only forms <float>s that Rust parses.
                        Diagnostic::error(
                            "E9001",
                            format!("internal compiler error: cannot read the number `{text}`"),
                        )
                        .primary(*span, "here")
                        .note("this is a bug in nvp4c; please report it with the program"),
                    );
                    return None;
                }
            },
        };
        if !self.literal_fits(&lit, c.span, ty) {
            return None;
        }
        Some(lit)
    }

    /// Section 2.X.3.3: a float constant read as an integer, or a negative
    /// integer read as unsigned, fails to load.
    fn literal_fits(&mut self, lit: &Literal, span: Span, ty: DataType) -> bool {
        let rule = "section 2.X.3.3: \"A program will fail to load if it specifies a floating-point constant value (matching the <floatConstant> grammar rule) that should be interpreted as a signed or unsigned integer, or a negative integer constant value that should be interpreted as an unsigned integer.\"";
        match (lit, ty) {
            (Literal::Float(_), DataType::Signed | DataType::Unsigned) => {
                self.error(
                    Diagnostic::error(
                        "E0212",
                        format!("floating-point constant read as {}", ty.name()),
                    )
                    .primary(span, format!("this constant is read as {}", ty.name()))
                    .note(rule)
                    .note("write an integer such as `3`, not `3.0`"),
                );
                false
            }
            (
                Literal::Int {
                    negative: true,
                    magnitude,
                },
                DataType::Unsigned,
            ) if *magnitude != 0 => {
                self.error(
                    Diagnostic::error("E0213", "negative constant read as UINT")
                        .primary(span, "this constant is read as UINT")
                        .note(rule),
                );
                false
            }
            (
                Literal::Int {
                    negative: true,
                    magnitude,
                },
                DataType::Signed,
            ) if *magnitude > 1 << 31 => {
                self.error(
                    Diagnostic::error("E0201", "integer constant is too small for INT")
                        .primary(span, "below -2^31")
                        .note(rule),
                );
                false
            }
            (
                Literal::Int {
                    negative: false,
                    magnitude,
                },
                DataType::Signed,
            ) if *magnitude > i32::MAX as u64 && *magnitude <= u32::MAX as u64 => {
                // Written as a bit pattern such as 0x80000000: taken as the
                // same 32 bits, as NVIDIA's assembler does.
                true
            }
            _ => true,
        }
    }

    fn undeclared(&mut self, id: &Ident, rule: &str) -> Diagnostic {
        let candidates: Vec<&str> = self.names.keys().map(|k| k.as_str()).collect();
        let mut d = Diagnostic::error("E0301", format!("`{}` is not declared", id.name))
            .primary(id.span, "not declared");
        if let Some(s) = did_you_mean(&id.name, candidates) {
            d = d.note(format!("did you mean `{s}`?"));
        }
        self.reported_undeclared.insert(id.name.clone(), id.span);
        d.note(rule.to_string())
    }

    fn check_interpolation(
        &mut self,
        d: &ast::Declaration,
        elems: &[ir::AttribBinding],
        mods: DeclMods,
        ty: VarType,
    ) {
        if self.stage != Stage::Fragment {
            return;
        }
        let any = mods.interpolation != ir::Interpolation::default();
        if any {
            if let Some(b) = elems.iter().find(|b| {
                matches!(
                    b,
                    ir::AttribBinding::Position
                        | ir::AttribBinding::Facing
                        | ir::AttribBinding::FogCoord
                        | ir::AttribBinding::Clip(_)
                        | ir::AttribBinding::PrimitiveId
                )
            }) {
                self.error(
                    Diagnostic::error("E0316", "interpolation modifier on a binding that takes none")
                        .primary(mods.interp_span.unwrap_or(d.keyword), "interpolation modifier")
                        .secondary(d.span, format!("binds {b:?}"))
                        .note("NV_fragment_program4 section 2.X.3.1: a fragment program will fail to load \"if any interpolation modifier is specified when declaring a variable bound to a fragment's position, face direction, fog coordinate, or any interpolated clip distance\""),
                );
            }
        }
        if let VarType::Typed(t) = ty {
            if t.is_integer() && !mods.interpolation.flat {
                self.error(
                    Diagnostic::error("E0317", format!("{} fragment attribute without FLAT", t.name()))
                        .primary(mods.ty.map_or(d.keyword, |m| m.1), "integer attribute")
                        .note("NV_fragment_program4 section 2.X.3.1: \"a program will fail to load if it declares a variable with the \"INT\" or \"UINT\" data type modifiers without the \"FLAT\" interpolation modifier\"")
                        .note("write `FLAT INT ATTRIB ...`"),
                );
            }
        }
        // Conflicting modifiers on one binding (also across the primary and
        // secondary colors).
        for b in elems {
            let key = match b {
                ir::AttribBinding::Color(_) => ir::AttribBinding::Color(ir::ColorSel {
                    back: false,
                    secondary: false,
                }),
                other => *other,
            };
            if let Some(&(prev_i, prev_span)) = self.interp_by_binding.get(&key) {
                if prev_i != mods.interpolation {
                    self.error(
                        Diagnostic::error("E0318", "one fragment attribute declared with different interpolation modifiers")
                            .primary(d.span, "interpolation differs")
                            .secondary(prev_span, "earlier declaration of the same attribute")
                            .note("NV_fragment_program4 section 2.X.3.1: a program fails to load \"if multiple attribute variables with different interpolation modifiers are bound to the same fragment attribute\" or to the primary and secondary colors"),
                    );
                    return;
                }
            } else {
                self.interp_by_binding
                    .insert(key, (mods.interpolation, d.span));
            }
        }
    }

    /// Sections 2.X.3.2 and 2.X.3.5: attribute and result arrays take only
    /// bindings grouped in arrays, of one binding type, increasing
    /// consecutively.
    fn consecutive_bindings(&mut self, elements: &Elements, init: &Init) -> bool {
        let families: Vec<Option<(String, u32)>> = match elements {
            Elements::Attrib(v) => v.iter().map(attrib_family).collect(),
            Elements::Result(v) => v.iter().map(result_family).collect(),
            _ => return true,
        };
        let (section, what) = match elements {
            Elements::Attrib(_) => ("section 2.X.3.2", "attribute"),
            _ => ("section 2.X.3.5", "result"),
        };
        let item_spans: Vec<Span> = match init {
            Init::List(items, _) => items.iter().map(InitItem::span).collect(),
            Init::Single(i) => vec![i.span()],
        };
        // Spans per element: a range item covers several elements.
        let span_at = |i: usize| {
            item_spans
                .get(i)
                .or(item_spans.last())
                .copied()
                .unwrap_or_default()
        };
        let rule = format!("{section}: \"all bindings assigned to the array must be of the same binding type and must increase consecutively\"");
        for (i, f) in families.iter().enumerate() {
            let Some((fam, n)) = f else {
                self.error(
                    Diagnostic::error("E0325", format!("this {what} binding cannot be an array element"))
                        .primary(span_at(i.min(item_spans.len().saturating_sub(1))), "not part of a binding array")
                        .note(format!("{section}: the bindings allowed in arrays are limited to state grouped in arrays (texture coordinates, generic attributes, clip distances, colors)")),
                );
                return false;
            };
            if i == 0 {
                continue;
            }
            let Some((pfam, pn)) = &families[i - 1] else {
                return false;
            };
            // Element i came from item k: find which item by counting.
            let item = item_of_element(elements, init, i);
            if fam != pfam {
                self.error(
                    Diagnostic::error("E0326", format!("{what} array mixes binding types"))
                        .primary(span_at(item), format!("a `{fam}` binding"))
                        .secondary(
                            span_at(item.saturating_sub(1)),
                            format!("after a `{pfam}` binding"),
                        )
                        .note(rule.clone()),
                );
                return false;
            }
            if *n != pn + 1 {
                let label = if *n <= *pn {
                    "wrong order".to_string()
                } else {
                    format!(
                        "skips {}",
                        (pn + 1..*n)
                            .map(|k| k.to_string())
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                };
                self.error(
                    Diagnostic::error(
                        "E0327",
                        format!("{what} array bindings are not consecutive"),
                    )
                    .primary(
                        span_at(item),
                        format!("{fam}[{n}] after {fam}[{pn}]: {label}"),
                    )
                    .note(rule.clone()),
                );
                return false;
            }
        }
        true
    }

    /// A tessellation control program's VERTICES_OUT, a second one reported.
    fn tess_control_vertices_out(&mut self) -> Option<(Span, String)> {
        let decls = std::mem::take(&mut self.geometry_decls);
        let mut found = decls.iter().filter(|(kw, ..)| *kw == "VERTICES_OUT");
        let first = found
            .next()
            .map(|(_, span, arg)| (*span, arg.clone().unwrap_or_default()));
        for (_, span, _) in found {
            self.error(
                Diagnostic::error("E1101", "`VERTICES_OUT` declared twice")
                    .primary(*span, "second declaration")
                    .secondary(first.as_ref().map_or(*span, |f| f.0), "first declaration")
                    .note("NV_tessellation_program5 2.X.7.Y: \"A program will fail to load unless it contains exactly one VERTICES_OUT declaration.\""),
            );
        }
        self.vertices_out_decl = first.as_ref().map(|f| f.0);
        first
    }

    fn geometry_layout(&mut self, text: &ProgramText) -> Option<ir::GeometryLayout> {
        if self.stage != Stage::Geometry {
            return None;
        }
        let mut input = None;
        let mut output = None;
        let mut vertices = None;
        let decls = std::mem::take(&mut self.geometry_decls);
        self.vertices_out_decl = decls
            .iter()
            .find(|(kw, ..)| *kw == "VERTICES_OUT")
            .map(|(_, span, _)| *span);
        let mut seen: HashMap<&str, Span> = HashMap::default();
        for (kw, span, arg) in &decls {
            if let Some(first) = seen.insert(kw, *span) {
                self.error(
                    Diagnostic::error("E0721", format!("`{kw}` declared twice"))
                        .primary(*span, "second declaration")
                        .secondary(first, "first declaration")
                        .note("NV_geometry_program4 section 2.X.7: a program will fail to load if it has more than one PRIMITIVE_IN, PRIMITIVE_OUT or VERTICES_OUT declaration"),
                );
                continue;
            }
            let arg = arg.as_deref().unwrap_or("");
            match *kw {
                "PRIMITIVE_IN" => {
                    input = match arg {
                        "POINTS" => Some(ir::PrimitiveIn::Points),
                        "LINES" => Some(ir::PrimitiveIn::Lines),
                        "LINES_ADJACENCY" => Some(ir::PrimitiveIn::LinesAdjacency),
                        "TRIANGLES" => Some(ir::PrimitiveIn::Triangles),
                        "TRIANGLES_ADJACENCY" => Some(ir::PrimitiveIn::TrianglesAdjacency),
                        _ => {
                            self.bad_primitive(*span, arg, &["POINTS", "LINES", "LINES_ADJACENCY", "TRIANGLES", "TRIANGLES_ADJACENCY"]);
                            None
                        }
                    }
                }
                "PRIMITIVE_OUT" => {
                    output = match arg {
                        "POINTS" => Some(ir::PrimitiveOut::Points),
                        "LINE_STRIP" => Some(ir::PrimitiveOut::LineStrip),
                        "TRIANGLE_STRIP" => Some(ir::PrimitiveOut::TriangleStrip),
                        _ => {
                            self.bad_primitive(*span, arg, &["POINTS", "LINE_STRIP", "TRIANGLE_STRIP"]);
                            None
                        }
                    }
                }
                _ => match arg.parse::<u32>() {
                    Ok(n) if n > 0 => vertices = Some(n),
                    _ => self.error(
                        Diagnostic::error("E0722", "VERTICES_OUT needs a positive vertex count")
                            .primary(*span, "count")
                            .note("NV_geometry_program4 section 2.X.7: VERTICES_OUT gives the maximum number of vertices emitted, which must be positive"),
                    ),
                },
            }
        }
        let end = text.end;
        for (kw, present) in [
            (
                "PRIMITIVE_IN",
                input.is_some() || seen.contains_key("PRIMITIVE_IN"),
            ),
            (
                "PRIMITIVE_OUT",
                output.is_some() || seen.contains_key("PRIMITIVE_OUT"),
            ),
            (
                "VERTICES_OUT",
                vertices.is_some() || seen.contains_key("VERTICES_OUT"),
            ),
        ] {
            if !present {
                self.error(
                    Diagnostic::error("E0723", format!("geometry program without `{kw}`"))
                        .primary(text.header, "this geometry program")
                        .secondary(end, "program ends here")
                        .note("NV_geometry_program4 section 2.X.7: a geometry program will fail to load unless it has exactly one PRIMITIVE_IN, one PRIMITIVE_OUT and one VERTICES_OUT declaration"),
                );
            }
        }
        let invocations = self.geometry_invocations();
        Some(ir::GeometryLayout {
            input: input?,
            output: output?,
            vertices_out: vertices?,
            invocations,
        })
    }

    fn bad_primitive(&mut self, span: Span, arg: &str, allowed: &[&str]) {
        let mut d = Diagnostic::error("E0724", format!("unknown primitive type `{arg}`"))
            .primary(span, "not a primitive type")
            .note(format!("allowed here: {}", allowed.join(", ")));
        if let Some(s) = did_you_mean(arg, allowed.iter().copied()) {
            d = d.note(format!("did you mean `{s}`?"));
        }
        self.error(d);
    }
}

/// Which initializer item produced element `i` of an array.
fn item_of_element(elements: &Elements, init: &Init, i: usize) -> usize {
    let Init::List(items, _) = init else { return 0 };
    let _ = elements;
    let mut seen = 0usize;
    for (k, item) in items.iter().enumerate() {
        let n = match item {
            InitItem::Binding(p) => p
                .parts
                .iter()
                .find_map(|part| match part {
                    ast::PathPart::Index(ast::IndexExpr::Range(a, b), _) => Some(
                        (b.value()
                            .unwrap_or(0)
                            .saturating_sub(a.value().unwrap_or(0))
                            + 1) as usize,
                    ),
                    _ => None,
                })
                .unwrap_or(1),
            _ => 1,
        };
        seen += n;
        if i < seen {
            return k;
        }
    }
    items.len().saturating_sub(1)
}

/// The array a binding belongs to and its number in it, if it is one of
/// the bindings grouped in arrays.
fn attrib_family(b: &ir::AttribBinding) -> Option<(String, u32)> {
    use ir::{AttribBinding as A, PerVertexAttrib as P};
    match *b {
        A::TexCoord(n) => Some(("texcoord".into(), n)),
        A::Generic(n) => Some(("attrib".into(), n)),
        A::Clip(n) => Some(("clip".into(), n)),
        A::Weight(n) => Some(("weight".into(), n)),
        A::PerVertex {
            vertex,
            binding: P::TexCoord(n),
        } => Some((format!("vertex{vertex:?}.texcoord"), n)),
        A::PerVertex {
            vertex,
            binding: P::Generic(n),
        } => Some((format!("vertex{vertex:?}.attrib"), n)),
        A::PerVertex {
            vertex,
            binding: P::Clip(n),
        } => Some((format!("vertex{vertex:?}.clip"), n)),
        A::OutputVertex {
            vertex,
            binding: P::TexCoord(n),
        } => Some((format!("vertex.out{vertex:?}.texcoord"), n)),
        A::OutputVertex {
            vertex,
            binding: P::Generic(n),
        } => Some((format!("vertex.out{vertex:?}.attrib"), n)),
        A::OutputVertex {
            vertex,
            binding: P::Clip(n),
        } => Some((format!("vertex.out{vertex:?}.clip"), n)),
        // NV_tessellation_program5 Table X.4: the level and patch attribute ranges.
        A::Patch { output, attrib } => {
            let (family, n) = patch_family(attrib);
            Some((
                format!("primitive{}.{family}", if output { ".out" } else { "" }),
                n,
            ))
        }
        _ => None,
    }
}

fn patch_family(a: ir::PatchAttrib) -> (&'static str, u32) {
    match a {
        ir::PatchAttrib::TessOuter(n) => ("tessouter", n),
        ir::PatchAttrib::TessInner(n) => ("tessinner", n),
        ir::PatchAttrib::Generic(n) => ("patch.attrib", n),
    }
}

fn result_family(b: &ir::ResultBinding) -> Option<(String, u32)> {
    use ir::ResultBinding as R;
    match *b {
        R::TexCoord(n) => Some(("texcoord".into(), n)),
        R::Generic(n) => Some(("attrib".into(), n)),
        R::Clip(n) => Some(("clip".into(), n)),
        // NV_tessellation_program5 Table X.6: result.patch.* ranges.
        R::Patch(a) => {
            let (family, n) = patch_family(a);
            Some((format!("patch.{family}"), n))
        }
        // NV_fragment_program4 issue 5: fragment program results cannot be
        // declared as arrays, so result.color[n] is not listed here.
        _ => None,
    }
}

fn init_span(init: &Init) -> Span {
    match init {
        Init::Single(i) => i.span(),
        Init::List(_, s) => *s,
    }
}

fn binding_describe(b: &Binding) -> &'static str {
    match b {
        Binding::Attrib(_) => "an attribute binding",
        Binding::Result(_) => "a result binding",
        Binding::Param(_) => "a parameter binding",
        Binding::Buffer { .. } => "a parameter buffer binding",
        Binding::Texture(_) => "a texture unit",
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BoundKind {
    Attrib,
    Param,
    Result,
    /// BUFFER (words), BUFFER4 (`vec4`) or CBUFFER (`bytes`).
    Buffer {
        vec4: bool,
        bytes: bool,
    },
}

impl BoundKind {
    fn describe(self) -> &'static str {
        match self {
            BoundKind::Attrib => "an ATTRIB variable",
            BoundKind::Param => "a PARAM variable",
            BoundKind::Result => "an OUTPUT variable",
            BoundKind::Buffer { bytes: true, .. } => "a CBUFFER variable",
            BoundKind::Buffer { .. } => "a BUFFER variable",
        }
    }
    fn keyword(self) -> &'static str {
        match self {
            BoundKind::Attrib => "ATTRIB",
            BoundKind::Param => "PARAM",
            BoundKind::Result => "OUTPUT",
            BoundKind::Buffer { bytes: true, .. } => "CBUFFER",
            BoundKind::Buffer { vec4: false, .. } => "BUFFER",
            BoundKind::Buffer { vec4: true, .. } => "BUFFER4",
        }
    }
    fn takes(self) -> &'static str {
        match self {
            BoundKind::Attrib => {
                "attribute bindings such as `fragment.texcoord[0]` or `vertex.position`"
            }
            BoundKind::Param => {
                "parameter bindings (`program.local[n]`, `program.env[n]`, `state.*`) and constants"
            }
            BoundKind::Result => "result bindings such as `result.color` or `result.texcoord[0]`",
            BoundKind::Buffer { .. } => "parameter buffer bindings `program.buffer[n]`",
        }
    }
}

/// E1281: the first index of an access to a BUFFER, BUFFER4 or CBUFFER
/// variable on a range of parameter buffers does not pick one of them.
fn buffer_pick_error(span: Span, name: &str, what: &str) -> Diagnostic {
    Diagnostic::error("E1281", format!("the access to `{name}` {what}"))
        .primary(
            span,
            "expected the binding point's offset in the range: `name[k]...` or `name[R0.x + k]...`",
        )
        .note(BUFFER_RANGE_RULE)
}

/// The elements of an array declaration as they are collected.
#[derive(Default)]
enum Elements {
    #[default]
    None,
    Attrib(Vec<ir::AttribBinding>),
    Param(Vec<ir::ParamBinding>),
    Result(Vec<ir::ResultBinding>),
    /// The binding (of the first binding point), the last binding point
    /// (`program.buffer[a..last]`; `binding.buffer` for one buffer) and
    /// the number of elements it spans.
    Buffer {
        binding: ir::BufferBinding,
        last: u32,
        len: u32,
    },
}

impl Elements {
    fn len(&self) -> usize {
        match self {
            Elements::None => 0,
            Elements::Attrib(v) => v.len(),
            Elements::Param(v) => v.len(),
            Elements::Result(v) => v.len(),
            Elements::Buffer { len, .. } => *len as usize,
        }
    }
    fn push_param(&mut self, b: ir::ParamBinding) -> bool {
        match self {
            Elements::None => *self = Elements::Param(vec![b]),
            Elements::Param(v) => v.push(b),
            _ => return false,
        }
        true
    }
    fn push_attribs(&mut self, b: Vec<ir::AttribBinding>) -> bool {
        match self {
            Elements::None => *self = Elements::Attrib(b),
            Elements::Attrib(v) => v.extend(b),
            _ => return false,
        }
        true
    }
    fn push_results(&mut self, b: Vec<ir::ResultBinding>) -> bool {
        match self {
            Elements::None => *self = Elements::Result(b),
            Elements::Result(v) => v.extend(b),
            _ => return false,
        }
        true
    }
}
