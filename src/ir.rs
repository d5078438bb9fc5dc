//! The checked program: the contract between front end and back ends.
//!
//! Nothing here is syntax. Names are resolved to `VarId`s, bindings are
//! decoded, modifiers are folded into explicit fields, and flow control is a
//! tree (`If`, `Rep`, subroutines) rather than labels and jumps. The SPIR-V
//! backend and the reference interpreter read only this (plus `isa`).
//!
//! [`crate::check`] returns a [`Program`]; [`crate::interp::run`] executes one.
//!
//! ```
//! use nvp4c::ir::{Stmt, VarKind};
//! let source = "!!NVfp4.0\nTEMP t;\nMUL t, fragment.color, 2;\nMOV result.color, t;\nEND\n";
//! let (program, _) = nvp4c::check(source, &nvp4c::Options::default()).unwrap();
//! let body = &program.sub(program.entry).body;
//! let Stmt::Inst(mul) = &body[0] else { panic!() };
//! assert_eq!(mul.op, nvp4c::isa::Opcode::Mul);
//! assert!(matches!(program.var(mul.dst.var).kind, VarKind::Temp));
//! assert_eq!(program.var(mul.dst.var).name.as_deref(), Some("t"));
//! ```

use crate::isa::{CcCondition, DataType, Dialect, Opcode, Stage};
use crate::span::Span;

/// Index into `Program::variables`.
///
/// ```
/// # let (program, _) = nvp4c::check("!!NVfp4.0\nTEMP t;\nADD t, fragment.color, {1, 2, 3, 4};\nMOV_SAT result.color.xy, -|t.wzyx|;\nEND\n", &nvp4c::Options::default()).unwrap();
/// # let nvp4c::ir::Stmt::Inst(add) = &program.sub(program.entry).body[0] else { unreachable!() };
/// # let nvp4c::ir::Stmt::Inst(mov) = &program.sub(program.entry).body[1] else { unreachable!() };
/// assert_eq!(program.var(add.dst.var).name.as_deref(), Some("t"));
/// assert_eq!(add.dst.var, nvp4c::ir::VarId(0)); // the first declared variable
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarId(pub u32);

/// Index into `Program::subroutines`.
///
/// ```
/// let (program, _) = nvp4c::check("!!NVfp4.0\nCAL f;\nRET;\nf:\nMOV result.color, 1;\nRET;\nEND\n", &nvp4c::Options::default()).unwrap();
/// let nvp4c::ir::Stmt::Call { target, .. } = program.sub(program.entry).body[0] else { panic!() };
/// assert_eq!(program.sub(target).name.as_deref(), Some("f"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SubId(pub u32);

/// A checked program: its variables, subroutines and geometry layout.
///
/// ```
/// let (program, _) = nvp4c::check("!!NVfp4.0\nOPTION ARB_precision_hint_nicest;\nMOV result.color, 1;\nEND\n", &nvp4c::Options::default()).unwrap();
/// assert_eq!(program.stage, nvp4c::Stage::Fragment);
/// assert_eq!(program.options, ["ARB_precision_hint_nicest"]);
/// assert_eq!(program.subroutines.len(), 1);
/// assert!(program.geometry.is_none());
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Program {
    /// The program type, from the header.
    pub stage: Stage,
    /// The language: the header and the features its options add.
    pub dialect: Dialect,
    /// `OPTION` names, in order.
    pub options: Vec<String>,
    /// Every variable, declared or implicit (bindings used directly); indexed by [`VarId`].
    pub variables: Vec<Variable>,
    /// Subroutine blocks (section 2.X.5). `entry` is where execution starts.
    pub subroutines: Vec<Subroutine>,
    /// The subroutine execution starts in.
    pub entry: SubId,
    /// Geometry program layout (NV_geometry_program4), `None` otherwise.
    pub geometry: Option<GeometryLayout>,
    /// Tessellation control program layout (NV_tessellation_program5), `None` otherwise.
    pub tess_control: Option<TessControlLayout>,
    /// Tessellation evaluation program layout (NV_tessellation_program5), `None` otherwise.
    pub tess_eval: Option<TessEvalLayout>,
    /// Compute program layout (NV_compute_program5), `None` otherwise.
    pub compute: Option<ComputeLayout>,
    /// Sampler states the program fixes, one per texture unit that has one
    /// (AGAL encodes the state in every `tex`; the assembly family leaves it
    /// to the renderer, so its programs have none). The reflection reports
    /// them so a renderer creates matching samplers.
    pub samplers: Vec<SamplerState>,
    /// What a CAL does when MAX_PROGRAM_CALL_DEPTH calls are active.
    pub call_overflow: CallOverflow,
}

/// What a `CAL` issued while MAX_PROGRAM_CALL_DEPTH calls are active does.
///
/// ```
/// let (nv4, _) = nvp4c::check("!!NVfp4.0\nMOV result.color, 1;\nEND\n", &nvp4c::Options::default()).unwrap();
/// assert_eq!(nv4.call_overflow, nvp4c::ir::CallOverflow::Skip);
/// let (arb, _) = nvp4c::check("!!ARBfp1.0\nOPTION NV_fragment_program2;\nMOV result.color, 1;\nEND\n", &nvp4c::Options::default()).unwrap();
/// assert_eq!(arb.call_overflow, nvp4c::ir::CallOverflow::End);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CallOverflow {
    /// The CAL has no effect and execution continues after it
    /// (NV_gpu_program4 issue 38: "such instructions will have no effect").
    Skip,
    /// The program ends, its results as they are (NV_vertex_program2_option:
    /// "terminate vertex program"; NV_fragment_program2: "a CAL instruction
    /// will cause the call stack to overflow and the fragment program to
    /// terminate"). Also what the address stack's overflow and underflow
    /// (PUSHA, POPA) and a RET onto a pushed address do.
    End,
}

impl Program {
    /// A copy of the program whose subroutines have no statements: what
    /// the lowering still reads of a program whose bodies it consumes
    /// (`spirv::lower_consuming`).
    pub(crate) fn clone_without_bodies(&self) -> Program {
        Program {
            stage: self.stage,
            dialect: self.dialect,
            options: self.options.clone(),
            variables: self.variables.clone(),
            subroutines: self
                .subroutines
                .iter()
                .map(|s| Subroutine {
                    name: s.name.clone(),
                    span: s.span,
                    body: Block::new(),
                    end: s.end,
                })
                .collect(),
            entry: self.entry,
            geometry: self.geometry,
            tess_control: self.tess_control,
            tess_eval: self.tess_eval,
            compute: self.compute,
            samplers: self.samplers.clone(),
            call_overflow: self.call_overflow,
        }
    }

    /// The variable `id`.
    ///
    /// ```
    /// # let (program, _) = nvp4c::check("!!NVfp4.0\nTEMP t;\nADD t, fragment.color, {1, 2, 3, 4};\nMOV_SAT result.color.xy, -|t.wzyx|;\nEND\n", &nvp4c::Options::default()).unwrap();
    /// # let nvp4c::ir::Stmt::Inst(add) = &program.sub(program.entry).body[0] else { unreachable!() };
    /// # let nvp4c::ir::Stmt::Inst(mov) = &program.sub(program.entry).body[1] else { unreachable!() };
    /// assert!(matches!(program.var(mov.dst.var).kind, nvp4c::ir::VarKind::Result(_)));
    /// ```
    pub fn var(&self, id: VarId) -> &Variable {
        &self.variables[id.0 as usize]
    }
    /// Whether variable `id` holds 64-bit components: a `LONG` TEMP of
    /// NV_gpu_program5 (section 2.X.3.1: "Variables declared as "LONG"
    /// will be represented with at least 64 bits per component"). In the
    /// older languages LONG is the default 32-bit size (NV_gpu_program4
    /// has no 64-bit types; NV_fragment_program_option's LONG is fp32).
    ///
    /// ```
    /// let src = "!!NVfp5.0\nLONG TEMP d;\nTEMP t;\nADD.F64 d, 1, 2;\nMOV result.color, d;\nEND\n";
    /// let (program, _) = nvp4c::check(src, &nvp4c::Options::default()).unwrap();
    /// assert!(program.long_storage(nvp4c::ir::VarId(0)) && !program.long_storage(nvp4c::ir::VarId(1)));
    /// ```
    pub fn long_storage(&self, id: VarId) -> bool {
        self.var(id).precision == Precision::Long
            && self.dialect.features.contains(crate::isa::Features::NV5)
    }
    /// The subroutine `id`.
    ///
    /// ```
    /// let (program, _) = nvp4c::check("!!NVfp4.0\nMOV result.color, 1;\nEND\n", &nvp4c::Options::default()).unwrap();
    /// let entry = program.sub(program.entry);
    /// assert_eq!((entry.name.as_deref(), entry.body.len()), (None, 1));
    /// ```
    pub fn sub(&self, id: SubId) -> &Subroutine {
        &self.subroutines[id.0 as usize]
    }
    /// Whether `OPTION ARB_position_invariant` is given: the position is
    /// computed from `state.matrix.mvp` as the fixed-function pipeline does
    /// (ARB_vertex_program section 2.14.4.5.1, NV_vertex_program4 section
    /// 2.X.6.Y), with GL's user clipping. The backend and the interpreter
    /// both apply it after the program (docs/semantics.md, "Options").
    ///
    /// ```
    /// let (program, _) = nvp4c::check("!!NVvp4.0\nOPTION ARB_position_invariant;\nMOV result.color, 1;\nEND\n", &nvp4c::Options::default()).unwrap();
    /// assert!(program.position_invariant());
    /// ```
    pub fn position_invariant(&self) -> bool {
        self.options
            .iter()
            .any(|o| o == "ARB_position_invariant" || o == "NV_position_invariant")
    }
    /// Whether `OPTION ARB_precision_hint_fastest` is given: the program
    /// asks for speed "with possibly reduced precision" (ARB_fragment_program
    /// section 3.11.4.5.2), which the backend grants by marking its float
    /// results `RelaxedPrecision`, as the `H` suffix does.
    ///
    /// ```
    /// let (program, _) = nvp4c::check("!!NVfp4.0\nOPTION ARB_precision_hint_fastest;\nMOV result.color, 1;\nEND\n", &nvp4c::Options::default()).unwrap();
    /// assert!(program.precision_hint_fastest());
    /// ```
    pub fn precision_hint_fastest(&self) -> bool {
        self.options
            .iter()
            .any(|o| o == "ARB_precision_hint_fastest")
    }
    /// The fog an `ARB_fog_*` option applies to `result.color` after the
    /// program (ARB_fragment_program section 3.11.4.5.1, NV_fragment_program4
    /// section 2.X.6.Y); the last one when several are given (ARB issue 27;
    /// NV_gpu_program4 headers refuse more than one).
    ///
    /// ```
    /// let (program, _) = nvp4c::check("!!NVfp4.0\nOPTION ARB_fog_exp2;\nMOV result.color, 1;\nEND\n", &nvp4c::Options::default()).unwrap();
    /// assert_eq!(program.fog(), Some(nvp4c::ir::FogMode::Exp2));
    /// ```
    pub fn fog(&self) -> Option<FogMode> {
        self.options.iter().rev().find_map(|o| match o.as_str() {
            "ARB_fog_linear" => Some(FogMode::Linear),
            "ARB_fog_exp" => Some(FogMode::Exp),
            "ARB_fog_exp2" => Some(FogMode::Exp2),
            _ => None,
        })
    }
    /// The transfers of control out of subroutine `id` to other code
    /// after a label: each CAL, each BRA, and running on past the next
    /// label (unless the code ends in an unconditional RET or BRA), in
    /// that order (nested blocks included).
    ///
    /// ```
    /// use nvp4c::ir::{SubId, Transfer};
    /// let src = "!!ARBvp1.0\nOPTION NV_vertex_program2;\nTEMP r;\nMOVC r, vertex.position;\nBRA done (GT.x);\nMOV result.position, r;\ndone:\nEND\n";
    /// let (program, _) = nvp4c::check(src, &nvp4c::Options::default()).unwrap();
    /// assert_eq!(program.transfers(program.entry), [(Transfer::Branch, SubId(1)), (Transfer::RunOn, SubId(1))]);
    /// ```
    pub fn transfers(&self, id: SubId) -> Vec<(Transfer, SubId)> {
        fn walk(block: &Block, out: &mut Vec<(Transfer, SubId)>) {
            for stmt in block {
                match stmt {
                    Stmt::Call { target, .. } => out.push((Transfer::Call, *target)),
                    Stmt::CallIndirect { targets, .. } => {
                        out.extend(targets.iter().map(|&(_, t)| (Transfer::Call, t)))
                    }
                    Stmt::Branch { target, .. } => out.push((Transfer::Branch, *target)),
                    _ => {}
                }
                for b in stmt.blocks() {
                    walk(b, out);
                }
            }
        }
        let sub = self.sub(id);
        let mut out = Vec::new();
        walk(&sub.body, &mut out);
        // Code after an unconditional RET or BRA never runs on.
        let ends_in_jump = matches!(
            sub.body.last(),
            Some(Stmt::Return { cond: None, .. } | Stmt::Branch { cond: None, .. })
        );
        if let (SubroutineEnd::Continue(next), false) = (sub.end, ends_in_jump) {
            out.push((Transfer::RunOn, next));
        }
        out
    }
    /// Whether a BRA closes a cycle: some reachable subroutine branches to
    /// one from which it can be reached again (through CALs, BRAs and
    /// running on past labels). Such a program can loop, so the
    /// NV_vertex_program2_option limit applies to it: "a vertex program
    /// will terminate abnormally after executing
    /// MAX_PROGRAM_EXEC_INSTRUCTIONS instructions" (docs/semantics.md,
    /// "Branches"). The backend lowers it as one dispatch loop, and both
    /// it and the interpreter count the instructions it executes.
    ///
    /// ```
    /// let looping = "!!ARBvp1.0\nOPTION NV_vertex_program2;\nTEMP r;\nMOV r, 0;\ntop:\nADDC r, r, -1;\nBRA top (GT.x);\nMOV result.position, r;\nEND\n";
    /// let (program, _) = nvp4c::check(looping, &nvp4c::Options::default()).unwrap();
    /// assert!(program.branches_loop());
    /// ```
    pub fn branches_loop(&self) -> bool {
        let count = self.subroutines.len();
        let valid = |s: SubId| (s.0 as usize) < count;
        if !valid(self.entry) {
            return false;
        }
        let edges: Vec<Vec<(Transfer, SubId)>> = (0..count)
            .map(|i| {
                let mut e = self.transfers(SubId(i as u32));
                e.retain(|&(_, t)| valid(t));
                e
            })
            .collect();
        // What each subroutine reaches (one or more transfers); a BRA from
        // `s` to `t` closes a cycle when `t` reaches `s` or is `s`.
        let reach = |from: SubId| {
            let mut seen = vec![false; count];
            let mut work = vec![from];
            while let Some(s) = work.pop() {
                for &(_, t) in &edges[s.0 as usize] {
                    if !seen[t.0 as usize] {
                        seen[t.0 as usize] = true;
                        work.push(t);
                    }
                }
            }
            seen
        };
        let mut reachable = reach(self.entry);
        reachable[self.entry.0 as usize] = true;
        (0..count).filter(|&s| reachable[s]).any(|s| {
            edges[s]
                .iter()
                .any(|&(kind, t)| kind == Transfer::Branch && (t.0 as usize == s || reach(t)[s]))
        })
    }
}

/// How control reaches the code after a label ([`Program::transfers`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Transfer {
    /// A CAL: a return address is pushed.
    Call,
    /// A BRA: the call stack is unchanged.
    Branch,
    /// The end of a subroutine's code running on past the next label
    /// ([`SubroutineEnd::Continue`]).
    RunOn,
}

/// GL's fog modes (OpenGL 2.0 section 3.10), as the `ARB_fog_*` options
/// select them. `c` is the fragment's fog coordinate, `fragment.fogcoord.x`.
///
/// ```
/// assert_eq!(nvp4c::ir::FogMode::Linear.option(), "ARB_fog_linear");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FogMode {
    /// `ARB_fog_linear`: f = (end − c) / (end − start).
    Linear,
    /// `ARB_fog_exp`: f = e^(−density · c).
    Exp,
    /// `ARB_fog_exp2`: f = e^(−(density · c)²).
    Exp2,
}

impl FogMode {
    /// The option that selects this mode.
    pub fn option(self) -> &'static str {
        match self {
            FogMode::Linear => "ARB_fog_linear",
            FogMode::Exp => "ARB_fog_exp",
            FogMode::Exp2 => "ARB_fog_exp2",
        }
    }
}

/// A labelled block of code (section 2.X.5): what a `CAL` calls.
///
/// ```
/// let source = "!!NVfp4.0\nmain:\nMOV result.color, 1;\nEND\n";
/// let (program, _) = nvp4c::check(source, &nvp4c::Options::default()).unwrap();
/// let main = program.sub(program.entry);
/// assert_eq!(main.name.as_deref(), Some("main"));
/// assert_eq!(&source[main.span.range()], "main");
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Subroutine {
    /// The label; `None` for the unlabelled code at the start of the program.
    pub name: Option<String>,
    /// The label (or the first statement).
    pub span: Span,
    /// The statements, to the next label.
    pub body: Block,
    /// What happens when execution reaches the end of `body`.
    pub end: SubroutineEnd,
}

impl Subroutine {
    /// The name of the subroutine the checker adds when execution runs on
    /// from `main`'s segment past later labels (section 2.X.5): a copy of
    /// those segments' code, not a label anyone wrote.
    pub const RUN_ON_ENTRY: &'static str = "<entry>";

    /// Whether this is the [`Self::RUN_ON_ENTRY`] copy: what it holds is
    /// also in the segments it copies, so counting it counts them twice.
    ///
    /// ```
    /// let src = "!!NVfp4.0\nmain:\nMOV result.color, 0;\nnext:\nMOV result.color.x, 1;\nEND\n";
    /// let (program, _) = nvp4c::check(src, &nvp4c::Options::default()).unwrap();
    /// assert!(program.sub(program.entry).is_run_on_entry());
    /// assert!(!program.subroutines[0].is_run_on_entry());
    /// ```
    pub fn is_run_on_entry(&self) -> bool {
        self.name.as_deref() == Some(Self::RUN_ON_ENTRY)
    }
}

/// What happens when execution reaches the end of a subroutine's body.
///
/// ```
/// use nvp4c::ir::SubroutineEnd;
/// let src = "!!ARBvp1.0\nOPTION NV_vertex_program2;\nMOV result.position, vertex.position;\nf:\nMOV result.color, 1;\nEND\n";
/// let (program, _) = nvp4c::check(src, &nvp4c::Options::default()).unwrap();
/// assert_eq!(program.sub(program.entry).end, SubroutineEnd::Continue(nvp4c::ir::SubId(1)));
/// assert_eq!(program.subroutines[1].end, SubroutineEnd::EndProgram);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SubroutineEnd {
    /// Return to the caller; the entry subroutine ends the program
    /// (NV_gpu_program4 section 2.X.5: a subroutine ends at the next label
    /// or the end of the program text).
    Return,
    /// Execution runs on into this subroutine, the code after the next
    /// label, with the call stack unchanged (the ARB family's NV options:
    /// labels only mark places in the instruction stream).
    Continue(SubId),
    /// The program ends, even inside a called subroutine: this is the end
    /// of the program text ("A vertex program will also terminate after
    /// executing the last instruction in the program", NV_vertex_program2_option).
    EndProgram,
}

/// How a variable's components are typed (section 2.X.3.1).
///
/// ```
/// use nvp4c::{ir::VarType, isa::DataType};
/// let (program, _) = nvp4c::check("!!NVfp4.0\nINT TEMP i;\nTEMP t;\nMOV.S i, 1;\nI2F t, i;\nMOV result.color, t;\nEND\n", &nvp4c::Options::default()).unwrap();
/// assert_eq!(program.variables[0].ty, VarType::Typed(DataType::Signed));
/// assert_eq!(program.variables[1].ty, VarType::Typeless);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum VarType {
    /// No `INT`/`UINT`/`FLOAT` modifier: raw 32-bit patterns, read with the
    /// type the instruction asks for.
    Typeless,
    /// `INT`, `UINT` or `FLOAT`: components of that type.
    Typed(DataType),
}

/// `SHORT`/`LONG` (section 2.X.3.1). SHORT lowers to RelaxedPrecision.
///
/// ```
/// let (program, _) = nvp4c::check("!!NVfp4.0\nSHORT TEMP t;\nMOV t, 1;\nMOV result.color, t;\nEND\n", &nvp4c::Options::default()).unwrap();
/// assert_eq!(program.variables[0].precision, nvp4c::ir::Precision::Short);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Precision {
    /// No modifier.
    #[default]
    Default,
    /// `SHORT`.
    Short,
    /// `LONG`.
    Long,
}

/// FLAT / CENTROID / NOPERSPECTIVE (NV_fragment_program4 2.X.3.1).
///
/// ```
/// let (program, _) = nvp4c::check("!!NVfp4.0\nFLAT ATTRIB c = fragment.color;\nMOV result.color, c;\nEND\n", &nvp4c::Options::default()).unwrap();
/// let i = program.variables[0].interpolation;
/// assert!(i.flat && !i.centroid && !i.noperspective);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize)]
pub struct Interpolation {
    /// `FLAT`: no interpolation.
    pub flat: bool,
    /// `CENTROID`: sampled within the primitive.
    pub centroid: bool,
    /// `NOPERSPECTIVE`: linear in screen space.
    pub noperspective: bool,
}

/// A declared variable (TEMP, ATTRIB, PARAM, OUTPUT, BUFFER) or a binding
/// used directly in an instruction.
///
/// ```
/// let (program, _) = nvp4c::check("!!NVfp4.0\nTEMP a[3];\nMOV a[1], 1;\nMOV result.color, a[1];\nEND\n", &nvp4c::Options::default()).unwrap();
/// let a = &program.variables[0];
/// assert_eq!((a.name.as_deref(), a.array_len, a.len()), (Some("a"), Some(3), 3));
/// assert!(a.is_array() && !a.is_empty());
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Variable {
    /// The declared name; `None` for a binding used directly in an
    /// instruction (an implicit declaration, section 2.X.4.2).
    pub name: Option<String>,
    /// The declaration (or the first use of an implicit one).
    pub span: Span,
    /// What it is bound to.
    pub kind: VarKind,
    /// Its component typing.
    pub ty: VarType,
    /// `SHORT` / `LONG`.
    pub precision: Precision,
    /// `Some(n)` for arrays.
    pub array_len: Option<u32>,
    /// Fragment attributes only (NV_fragment_program4); an implicit
    /// attribute inherits the declared one's (the checker copies it).
    pub interpolation: Interpolation,
}

impl Variable {
    /// Whether it was declared as an array.
    ///
    /// ```
    /// let (program, _) = nvp4c::check("!!NVfp4.0\nMOV result.color, fragment.color;\nEND\n", &nvp4c::Options::default()).unwrap();
    /// assert!(!program.variables[0].is_array());
    /// ```
    pub fn is_array(&self) -> bool {
        self.array_len.is_some()
    }
    /// Number of vec4 elements.
    ///
    /// ```
    /// let (program, _) = nvp4c::check("!!NVfp4.0\nPARAM p[2] = { program.local[0..1] };\nADD result.color, p[0], p[1];\nEND\n", &nvp4c::Options::default()).unwrap();
    /// assert_eq!(program.variables[0].len(), 2);
    /// ```
    pub fn len(&self) -> u32 {
        self.array_len.unwrap_or(1)
    }
    /// Whether it has no elements (never, for a checked program).
    ///
    /// ```
    /// let (program, _) = nvp4c::check("!!NVfp4.0\nMOV result.color, 1;\nEND\n", &nvp4c::Options::default()).unwrap();
    /// assert!(program.variables.iter().all(|v| !v.is_empty()));
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// What a variable is.
///
/// ```
/// use nvp4c::ir::{AttribBinding, ParamBinding, VarKind};
/// let (program, _) = nvp4c::check("!!NVfp4.0\nADD result.color, fragment.texcoord[1], program.env[4];\nEND\n", &nvp4c::Options::default()).unwrap();
/// let kinds: Vec<_> = program.variables.iter().map(|v| &v.kind).collect();
/// assert!(kinds.iter().any(|k| matches!(k, VarKind::Attrib(b) if b[..] == [AttribBinding::TexCoord(1)])));
/// assert!(kinds.iter().any(|k| matches!(k, VarKind::Param(b) if b[..] == [ParamBinding::Env(4)])));
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum VarKind {
    /// TEMP (section 2.X.3.4).
    Temp,
    /// ATTRIB or an attribute binding; one binding per element.
    Attrib(Vec<AttribBinding>),
    /// PARAM or a parameter binding; one binding per element.
    Param(Vec<ParamBinding>),
    /// OUTPUT or a result binding; one binding per element.
    Result(Vec<ResultBinding>),
    /// BUFFER / BUFFER4 (NV_parameter_buffer_object).
    Buffer(BufferBinding),
    /// STORAGE (NV_shader_storage_buffer_object): the storage buffer at
    /// binding point `buffer`, `program.storage[a]`, from byte `first` on
    /// (`program.storage[a][c..d]` starts at c); read and written only by
    /// the memory instructions, byte-addressed; `vec4` is false.
    Storage(BufferBinding),
    /// SHARED (NV_compute_program5 2.X.3.Y): compute shared memory from
    /// this byte (basic machine unit) on, `program.sharedmem[a]`; read and
    /// written only by LDS, STS and ATOMS, byte-addressed.
    Shared(u32),
    /// CBUFFER (NV_parameter_buffer_object2 2.X.3.6): `program.buffer[a]`
    /// as "an array of basic machine units", read only by LDC; `first` is
    /// the first byte (`program.buffer[a][16..31]` starts at 16), the
    /// variable's elements are bytes, `vec4` is false.
    ConstantBuffer(BufferBinding),
    /// COUNTER (NV_shader_atomic_counters 2.X.3.Y): element `first + e` of
    /// the atomic counter buffer `program.counter[buffer]`, one unsigned
    /// word each, read and written only by ATOMCTR; `vec4` is false.
    Counter(BufferBinding),
    /// The flat 64-bit GPU address space of NV_shader_buffer_load and
    /// NV_shader_buffer_store ("buffer object memory" at "the GPU address
    /// ... specified as an instruction operand", NV_gpu_program5 2.X.4.5):
    /// the one memory LOAD, STORE and ATOM access, whose address is the
    /// [`MemoryAccess::address`] operand. Not declared by the program: the
    /// checker adds one unnamed variable of this kind at its first use.
    GlobalMemory,
}

/// Which color of a color binding.
///
/// ```
/// use nvp4c::ir::{AttribBinding, ColorSel, VarKind};
/// let (program, _) = nvp4c::check("!!NVvp4.0\nMOV result.position, vertex.position;\nMOV result.color.back.secondary, vertex.color.secondary;\nEND\n", &nvp4c::Options::default()).unwrap();
/// let secondary = ColorSel { back: false, secondary: true };
/// assert!(program.variables.iter().any(|v| matches!(&v.kind, VarKind::Attrib(b) if b[..] == [AttribBinding::Color(secondary)])));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct ColorSel {
    /// `.back` (vertex results; the back-facing colour).
    pub back: bool,
    /// `.secondary`.
    pub secondary: bool,
}

/// Vertex, fragment and geometry attribute bindings (the vp4, fp4 and gp4
/// texts, section 2.X.3.2).
///
/// ```
/// use nvp4c::ir::{AttribBinding, VarKind};
/// let (program, _) = nvp4c::check("!!NVvp4.0\nMOV result.position, vertex.attrib[3];\nEND\n", &nvp4c::Options::default()).unwrap();
/// let bindings = program.variables.iter().find_map(|v| match &v.kind {
///     VarKind::Attrib(b) => Some(b),
///     _ => None,
/// }).unwrap();
/// assert_eq!(bindings[..], [AttribBinding::Generic(3)]);
/// assert_eq!(nvp4c::interp::attribute_name(program.stage, &bindings[0]), "vertex.attrib[3]");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[non_exhaustive]
pub enum AttribBinding {
    /// `vertex.position`, `fragment.position` (window position).
    Position,
    /// `vertex.weight[n]`.
    Weight(u32),
    /// `vertex.normal`.
    Normal,
    /// `vertex.color`, `fragment.color`, with `.secondary` (and `.back` for geometry inputs).
    Color(ColorSel),
    /// `vertex.fogcoord`, `fragment.fogcoord`.
    FogCoord,
    /// `vertex.texcoord[n]`, `fragment.texcoord[n]`.
    TexCoord(u32),
    /// `vertex.attrib[n]`, `fragment.attrib[n]`.
    Generic(u32),
    /// `vertex.id`.
    VertexId,
    /// `vertex.instance`.
    InstanceId,
    /// fragment.facing
    Facing,
    /// `fragment.clip[n]` / `vertex[m].clip[n]`
    Clip(u32),
    /// `vertex[m].pointsize` read through the whole array.
    PointSize,
    /// `primitive.id`.
    PrimitiveId,
    /// A geometry program's per-vertex attribute, `vertex[m].<binding>`;
    /// `vertex: None` is the whole-array form indexed with two subscripts.
    /// Tessellation programs read their input patch the same way.
    PerVertex {
        /// The input vertex `m`, or `None` for the two-subscript form.
        vertex: Option<u32>,
        /// The attribute of that vertex.
        binding: PerVertexAttrib,
    },
    /// A tessellation control program's `vertex.out[m].<binding>`: what
    /// invocation `m` wrote to its per-vertex result (NV_tessellation_program5
    /// 2.X.3.2); `vertex: None` is the two-subscript form.
    OutputVertex {
        /// The output vertex `m`, or `None` for the two-subscript form.
        vertex: Option<u32>,
        /// The attribute of that vertex.
        binding: PerVertexAttrib,
    },
    /// A per-patch attribute: `primitive.tessouter[n]` and the others of a
    /// tessellation evaluation program's input patch (`output: false`), or
    /// a tessellation control program's own `primitive.out.<binding>`
    /// (`output: true`).
    Patch {
        /// Whether it is the output patch of a tessellation control program.
        output: bool,
        /// Which attribute.
        attrib: PatchAttrib,
    },
    /// `vertex.tesscoord` of a tessellation evaluation program: (u, v, w).
    TessCoord,
    /// `primitive.invocation`: a tessellation control program's invocation
    /// (its output vertex), a geometry program's invocation (INVOCATIONS).
    InvocationId,
    /// `primitive.vertexcount`: the vertices of the input patch or primitive.
    VertexCount,
    /// A compute program's `invocation.<binding>` (NV_compute_program5 2.X.3.2).
    Compute(ComputeAttrib),
    /// NV_shader_thread_group 2.X.3.2's thread bindings
    /// (`fragment.threadid`, `vertex.threadeqmask`, `primitive.…`,
    /// `invocation.…`): one unsigned integer in x.
    Thread(ThreadAttrib),
    /// NV_gpu_program5 `fragment.sampleid` (2.X.2 <attribBasic>): the
    /// number of the sample the fragment program runs for.
    SampleId,
    /// NV_gpu_program5 `fragment.samplemask` (2.X.3.2): the coverage mask,
    /// "bit <n> is one if the sample number <n> is covered".
    SampleMask,
    /// NV_gpu_program5 `fragment.pointcoord` (2.X.3.2): "(s,t,-,-)
    /// fragment point sprite coordinate".
    PointCoord,
}

/// A thread binding of NV_shader_thread_group 2.X.3.2 ("(id,-,-,-)",
/// "(m,-,-,-)", "(k,-,-,-)": only x is defined).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum ThreadAttrib {
    /// `threadid`: "the thread id of the current thread", 0 to 31.
    ThreadId,
    /// `threadeqmask`: the bit of the current thread id.
    EqMask,
    /// `threadgemask`: the bits greater than or equal to it.
    GeMask,
    /// `threadgtmask`: the bits greater than it.
    GtMask,
    /// `threadlemask`: the bits lower than or equal to it.
    LeMask,
    /// `threadltmask`: the bits lower than it.
    LtMask,
    /// `fragment.helperthread`: -1 for a helper thread, else 0.
    Helper,
}

impl ThreadAttrib {
    /// The member name after the prefix.
    pub fn name(self) -> &'static str {
        match self {
            ThreadAttrib::ThreadId => "threadid",
            ThreadAttrib::EqMask => "threadeqmask",
            ThreadAttrib::GeMask => "threadgemask",
            ThreadAttrib::GtMask => "threadgtmask",
            ThreadAttrib::LeMask => "threadlemask",
            ThreadAttrib::LtMask => "threadltmask",
            ThreadAttrib::Helper => "helperthread",
        }
    }
    /// The binding of member `name`, if it is one.
    pub fn of_name(name: &str) -> Option<ThreadAttrib> {
        [
            ThreadAttrib::ThreadId,
            ThreadAttrib::EqMask,
            ThreadAttrib::GeMask,
            ThreadAttrib::GtMask,
            ThreadAttrib::LeMask,
            ThreadAttrib::LtMask,
            ThreadAttrib::Helper,
        ]
        .into_iter()
        .find(|t| t.name() == name)
    }
    /// Its value for a thread alone in its group (thread id 0): what the
    /// interpreter, which runs one thread, gives (docs/semantics.md,
    /// "Thread groups").
    pub fn single_thread_value(self) -> u32 {
        match self {
            ThreadAttrib::ThreadId | ThreadAttrib::LtMask | ThreadAttrib::Helper => 0,
            ThreadAttrib::EqMask | ThreadAttrib::LeMask => 1,
            ThreadAttrib::GeMask => u32::MAX,
            ThreadAttrib::GtMask => u32::MAX - 1,
        }
    }
}

/// A per-patch attribute (NV_tessellation_program5 Tables X.4 and X.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum PatchAttrib {
    /// `tessouter[n]`, n < 4.
    TessOuter(u32),
    /// `tessinner[n]`, n < 2.
    TessInner(u32),
    /// `patch.attrib[n]`.
    Generic(u32),
}

/// A compute program's attribute (NV_compute_program5 Table X.1); every
/// one is an unsigned integer vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum ComputeAttrib {
    /// `invocation.localid`.
    LocalId,
    /// `invocation.globalid`.
    GlobalId,
    /// `invocation.groupid`.
    GroupId,
    /// `invocation.groupcount`.
    GroupCount,
    /// `invocation.groupsize`.
    GroupSize,
    /// `invocation.localindex`.
    LocalIndex,
}

impl ComputeAttrib {
    /// The member name after `invocation.`.
    pub fn name(self) -> &'static str {
        match self {
            ComputeAttrib::LocalId => "localid",
            ComputeAttrib::GlobalId => "globalid",
            ComputeAttrib::GroupId => "groupid",
            ComputeAttrib::GroupCount => "groupcount",
            ComputeAttrib::GroupSize => "groupsize",
            ComputeAttrib::LocalIndex => "localindex",
        }
    }
}

/// A geometry program's per-vertex attribute, `vertex[m].<this>`.
///
/// ```
/// use nvp4c::ir::PerVertexAttrib;
/// assert_eq!(nvp4c::interp::per_vertex_name(0, &PerVertexAttrib::Clip(2)), "vertex[0].clip[2]");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[non_exhaustive]
pub enum PerVertexAttrib {
    /// `.position`.
    Position,
    /// `.color`, `.color.secondary`, `.color.back`, ...
    Color(ColorSel),
    /// `.fogcoord`.
    FogCoord,
    /// `.pointsize`.
    PointSize,
    /// `.texcoord[n]`.
    TexCoord(u32),
    /// `.clip[n]`.
    Clip(u32),
    /// `.attrib[n]`.
    Generic(u32),
    /// `.id`.
    Id,
}

/// Result bindings (section 2.X.3.5 and the program-type texts).
///
/// ```
/// use nvp4c::ir::{ResultBinding, VarKind};
/// let (program, _) = nvp4c::check("!!NVfp4.0\nOPTION ARB_draw_buffers;\nMOV result.color[1], 1;\nMOV result.depth.z, 0.5;\nEND\n", &nvp4c::Options::default()).unwrap();
/// let results: Vec<_> = program.variables.iter().filter_map(|v| match &v.kind {
///     VarKind::Result(b) => Some(b[0]),
///     _ => None,
/// }).collect();
/// assert_eq!(results, [ResultBinding::FragColor(1), ResultBinding::Depth]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[non_exhaustive]
pub enum ResultBinding {
    /// `result.position`.
    Position,
    /// A vertex or geometry program's `result.color` (front/back, primary/secondary).
    Color(ColorSel),
    /// A fragment program's `result.color[n]` (draw buffer n).
    FragColor(u32),
    /// `result.depth`.
    Depth,
    /// NV_gpu_program5 `result.samplemask` (2.X.2 <resultBasic>): the
    /// fragment's coverage mask, x.
    SampleMask,
    /// `result.fogcoord`.
    FogCoord,
    /// `result.pointsize`.
    PointSize,
    /// `result.texcoord[n]`.
    TexCoord(u32),
    /// `result.clip[n]`.
    Clip(u32),
    /// `result.attrib[n]`.
    Generic(u32),
    /// vertex result.id
    Id,
    /// geometry `result.layer`.
    Layer,
    /// geometry `result.primid`.
    PrimitiveId,
    /// A tessellation control program's per-patch result,
    /// `result.patch.tessouter[n]`, `result.patch.tessinner[n]`,
    /// `result.patch.attrib[n]` (NV_tessellation_program5 Table X.6).
    Patch(PatchAttrib),
}

/// A literal as written; its value depends on the type it is read as
/// (section 2.X.3.3, "Constant Bindings").
///
/// ```
/// use nvp4c::{ir::Literal, isa::DataType};
/// assert_eq!(Literal::Float(1.5).bits(DataType::Float), 1.5f32.to_bits());
/// assert_eq!(Literal::Int { negative: true, magnitude: 2 }.bits(DataType::Signed), (-2i32) as u32);
/// assert_eq!(Literal::ONE.bits(DataType::Float), 1.0f32.to_bits());
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Literal {
    /// An `<int>` with its sign.
    ///
    Int {
        /// A `-` before it.
        negative: bool,
        /// The value without the sign.
        magnitude: u64,
    },
    /// A `<float>`.
    Float(f64),
    /// A constant of a declared `PARAM`, already converted to the declared
    /// type (floating-point when none is given, section 2.X.3.3): a read of
    /// any type sees these bits, as it would any typeless parameter.
    Bits(u32),
}

impl Literal {
    /// The integer 0.
    ///
    /// ```
    /// assert_eq!(nvp4c::ir::Literal::ZERO.bits(nvp4c::isa::DataType::Float), 0);
    /// ```
    pub const ZERO: Literal = Literal::Int {
        negative: false,
        magnitude: 0,
    };
    /// The integer 1.
    ///
    /// ```
    /// assert_eq!(nvp4c::ir::Literal::ONE.bits(nvp4c::isa::DataType::Unsigned), 1);
    /// ```
    pub const ONE: Literal = Literal::Int {
        negative: false,
        magnitude: 1,
    };

    /// The 32-bit pattern of this literal read as `ty`. The checker has
    /// already rejected the combinations the spec forbids.
    ///
    /// ```
    /// use nvp4c::{ir::Literal, isa::DataType};
    /// assert_eq!(Literal::Float(2.75).bits(DataType::Signed), 2); // truncated
    /// assert_eq!(Literal::Int { negative: false, magnitude: 3 }.bits(DataType::Float), 3.0f32.to_bits());
    /// assert_eq!(Literal::Bits(7).bits(DataType::Float), 7);
    /// ```
    pub fn bits(self, ty: DataType) -> u32 {
        match (self, ty) {
            (
                Literal::Int {
                    negative,
                    magnitude,
                },
                DataType::Float,
            ) => {
                let v = magnitude as f64;
                (if negative { -v } else { v } as f32).to_bits()
            }
            (
                Literal::Int {
                    negative,
                    magnitude,
                },
                _,
            ) => {
                let v = magnitude as u32;
                if negative {
                    v.wrapping_neg()
                } else {
                    v
                }
            }
            (Literal::Float(f), DataType::Float) => (f as f32).to_bits(),
            (Literal::Float(f), DataType::Signed) => (f as i32) as u32,
            (Literal::Float(f), DataType::Unsigned) => f as u32,
            (Literal::Bits(b), _) => b,
        }
    }
}

/// One vec4 of a program parameter (section 2.X.3.3).
///
/// ```
/// use nvp4c::ir::{ParamBinding, VarKind};
/// let (program, _) = nvp4c::check("!!NVfp4.0\nPARAM p[2] = { {1, 2}, program.local[3] };\nADD result.color, p[0], p[1];\nEND\n", &nvp4c::Options::default()).unwrap();
/// let VarKind::Param(elements) = &program.variables[0].kind else { panic!() };
/// assert!(matches!(elements[0], ParamBinding::Constant(_)));
/// assert_eq!(elements[1], ParamBinding::Local(3));
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum ParamBinding {
    /// A constant vector; missing components are already filled (0, 0, 1).
    Constant([Literal; 4]),
    /// `program.env[n]`.
    Env(u32),
    /// `program.local[n]`.
    Local(u32),
    /// A `state.*` item (ARB_vertex_program / ARB_fragment_program tables).
    State(StateItem),
    /// One vec4 of `program.buffer[b]` (NV_parameter_buffer_object).
    BufferElement {
        /// The buffer binding `b`.
        buffer: u32,
        /// The vec4 element.
        element: u32,
    },
    /// `program.subroutine[n]` (ARB_shader_subroutine, NV_gpu_program5
    /// edits): a scalar unsigned SUBROUTINENUM, read only by CALI through a
    /// SUBROUTINE variable; the value is in `x`.
    Subroutine(u32),
}

/// A GL state binding, kept as the decoded path, e.g.
/// `["matrix", "mvp", "row", "0"]`; `state_layout` in the backend gives it
/// its std140 slot.
///
/// ```
/// let item = nvp4c::ir::StateItem { path: vec!["light".into(), "1".into(), "diffuse".into()] };
/// assert_eq!(nvp4c::interp::state_name(&item), "state.light[1].diffuse");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StateItem {
    /// The binding's words after `state.`, numbers as their own items.
    pub path: Vec<String>,
}

/// `program.buffer[b]` behind a BUFFER/BUFFER4 variable.
///
/// ```
/// use nvp4c::ir::{BufferBinding, VarKind};
/// let (program, _) = nvp4c::check("!!NVfp4.0\nBUFFER4 b[] = { program.buffer[2][4..7] };\nMOV result.color, b[0];\nEND\n", &nvp4c::Options::default()).unwrap();
/// let VarKind::Buffer(binding) = program.variables[0].kind else { panic!() };
/// assert_eq!((binding.buffer, binding.first, binding.vec4), (2, 4, true));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BufferBinding {
    /// The buffer binding `b`.
    pub buffer: u32,
    /// First element (in vec4 units for BUFFER4, scalars for BUFFER).
    pub first: u32,
    /// `BUFFER4` (vec4 elements) rather than `BUFFER` (scalars).
    pub vec4: bool,
}

/// The sampler state a program fixes for one texture unit (what a
/// renderer puts in its `VkSamplerCreateInfo`), with what the program
/// expects of the texture. AGAL's sampler field is the source
/// (docs/interface.md, "AGAL").
///
/// ```
/// use nvp4c::ir::{SamplerState, Filter, MipmapMode, Wrap, TextureFormat};
/// let s = SamplerState { unit: 0, filter: Filter::Linear, mipmap: MipmapMode::Nearest,
///     wrap_u: Wrap::Repeat, wrap_v: Wrap::Repeat, wrap_w: Wrap::Repeat, max_anisotropy: 1,
///     format: TextureFormat::Rgba, centroid: false, single: false };
/// assert_eq!(serde_json::to_value(&s).unwrap()["mipmap"], "nearest");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SamplerState {
    /// The texture unit (`texture[n]`, AGAL `fs<n>`/`vs<n>`).
    pub unit: u32,
    /// Magnification and minification filter.
    pub filter: Filter,
    /// How mipmap levels are chosen; `None`: level 0 only.
    pub mipmap: MipmapMode,
    /// Addressing of s.
    pub wrap_u: Wrap,
    /// Addressing of t.
    pub wrap_v: Wrap,
    /// Addressing of r (3D textures; cube maps ignore it).
    pub wrap_w: Wrap,
    /// 1 (off), 2, 4, 8 or 16.
    pub max_anisotropy: u32,
    /// What the texture holds (its upload format decides the Vulkan format).
    pub format: TextureFormat,
    /// Sampled at the centroid (AGAL's `centroid` flag).
    pub centroid: bool,
    /// AGAL's `single` flag (no documented meaning; no effect).
    pub single: bool,
}

/// A sampler's filter.
///
/// ```
/// assert_eq!(serde_json::to_string(&nvp4c::ir::Filter::Linear).unwrap(), "\"linear\"");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Filter {
    /// `VK_FILTER_NEAREST`.
    Nearest,
    /// `VK_FILTER_LINEAR`.
    Linear,
}

/// A sampler's mipmap mode.
///
/// ```
/// assert_eq!(serde_json::to_string(&nvp4c::ir::MipmapMode::None).unwrap(), "\"none\"");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MipmapMode {
    /// Level 0 only (`maxLod` 0.25 with `VK_SAMPLER_MIPMAP_MODE_NEAREST`).
    None,
    /// `VK_SAMPLER_MIPMAP_MODE_NEAREST`.
    Nearest,
    /// `VK_SAMPLER_MIPMAP_MODE_LINEAR`.
    Linear,
}

/// A sampler's address mode.
///
/// ```
/// assert_eq!(serde_json::to_string(&nvp4c::ir::Wrap::ClampToEdge).unwrap(), "\"clamp_to_edge\"");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Wrap {
    /// `VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE`.
    ClampToEdge,
    /// `VK_SAMPLER_ADDRESS_MODE_REPEAT`.
    Repeat,
}

/// What a texture holds, as the program declares it.
///
/// ```
/// assert_eq!(serde_json::to_string(&nvp4c::ir::TextureFormat::Dxt5).unwrap(), "\"dxt5\"");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TextureFormat {
    /// Uncompressed RGBA.
    Rgba,
    /// DXT1 (BC1) compressed.
    Dxt1,
    /// DXT5 (BC3) compressed, with alpha.
    Dxt5,
    /// Video frames (Stage3D VideoTexture).
    Video,
}

/// The geometry program declarations (NV_geometry_program4).
///
/// ```
/// use nvp4c::ir::{PrimitiveIn, PrimitiveOut};
/// let source = "!!NVgp4.0\nPRIMITIVE_IN TRIANGLES;\nPRIMITIVE_OUT LINE_STRIP;\nVERTICES_OUT 4;\nEMIT;\nEND\n";
/// let (program, _) = nvp4c::check(source, &nvp4c::Options::default()).unwrap();
/// let layout = program.geometry.unwrap();
/// assert_eq!((layout.input, layout.output, layout.vertices_out), (PrimitiveIn::Triangles, PrimitiveOut::LineStrip, 4));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct GeometryLayout {
    /// `PRIMITIVE_IN`.
    pub input: PrimitiveIn,
    /// `PRIMITIVE_OUT`.
    pub output: PrimitiveOut,
    /// `VERTICES_OUT`.
    pub vertices_out: u32,
    /// NV_gpu_program5's `INVOCATIONS`: how many times the program runs
    /// for each input primitive (1 without the declaration).
    pub invocations: u32,
}

/// A tessellation control program's declarations (NV_tessellation_program5
/// section 2.X.7.Y).
///
/// ```
/// let source = "!!NVtcp5.0\nVERTICES_OUT 3;\nMOV result.patch.tessouter[0].x, 2;\nEND\n";
/// let (program, _) = nvp4c::check(source, &nvp4c::Options::default()).unwrap();
/// assert_eq!(program.tess_control.unwrap().vertices_out, 3);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct TessControlLayout {
    /// `VERTICES_OUT`: vertices of the output patch, and invocations per patch.
    pub vertices_out: u32,
}

/// A tessellation evaluation program's declarations (NV_tessellation_program5
/// section 2.X.7.Y), with the spec's defaults for the optional ones.
///
/// ```
/// use nvp4c::ir::{TessMode, TessSpacing};
/// let source = "!!NVtep5.0\nTESS_MODE QUADS;\nMOV result.position, vertex.tesscoord;\nEND\n";
/// let (program, _) = nvp4c::check(source, &nvp4c::Options::default()).unwrap();
/// let t = program.tess_eval.unwrap();
/// assert_eq!((t.mode, t.spacing, t.clockwise, t.point_mode), (TessMode::Quads, TessSpacing::Equal, false, false));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct TessEvalLayout {
    /// `TESS_MODE`.
    pub mode: TessMode,
    /// `TESS_SPACING` (default `EQUAL`).
    pub spacing: TessSpacing,
    /// `TESS_VERTEX_ORDER CW` (default `CCW`).
    pub clockwise: bool,
    /// `TESS_POINT_MODE`.
    pub point_mode: bool,
}

/// `TESS_MODE`: how the primitive generator subdivides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum TessMode {
    /// `TRIANGLES`.
    Triangles,
    /// `QUADS`.
    Quads,
    /// `ISOLINES`.
    Isolines,
}

/// `TESS_SPACING`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum TessSpacing {
    /// `EQUAL`.
    Equal,
    /// `FRACTIONAL_ODD`.
    FractionalOdd,
    /// `FRACTIONAL_EVEN`.
    FractionalEven,
}

/// A compute program's declarations (NV_compute_program5 section 2.X.7.Y).
///
/// ```
/// let source = "!!NVcp5.0\nGROUP_SIZE 8, 4;\nEND\n";
/// let (program, _) = nvp4c::check(source, &nvp4c::Options::default()).unwrap();
/// assert_eq!(program.compute.unwrap().group_size, [8, 4, 1]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct ComputeLayout {
    /// `GROUP_SIZE`: the local work group's size, missing dimensions 1.
    pub group_size: [u32; 3],
    /// `SHARED_MEMORY`: the work group's shared memory in bytes (basic
    /// machine units), 0 without the declaration.
    pub shared_memory: u32,
}

/// The input primitive type (`PRIMITIVE_IN`).
///
/// ```
/// assert_eq!(nvp4c::ir::PrimitiveIn::LinesAdjacency.vertex_count(), 4);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum PrimitiveIn {
    /// `POINTS`.
    Points,
    /// `LINES`.
    Lines,
    /// `LINES_ADJACENCY`.
    LinesAdjacency,
    /// `TRIANGLES`.
    Triangles,
    /// `TRIANGLES_ADJACENCY`.
    TrianglesAdjacency,
}

impl PrimitiveIn {
    /// Vertices per input primitive.
    ///
    /// ```
    /// assert_eq!(nvp4c::ir::PrimitiveIn::TrianglesAdjacency.vertex_count(), 6);
    /// ```
    pub fn vertex_count(self) -> u32 {
        match self {
            PrimitiveIn::Points => 1,
            PrimitiveIn::Lines => 2,
            PrimitiveIn::LinesAdjacency => 4,
            PrimitiveIn::Triangles => 3,
            PrimitiveIn::TrianglesAdjacency => 6,
        }
    }
}

/// The output primitive type (`PRIMITIVE_OUT`).
///
/// ```
/// let (program, _) = nvp4c::check("!!NVgp4.0\nPRIMITIVE_IN POINTS;\nPRIMITIVE_OUT POINTS;\nVERTICES_OUT 1;\nEMIT;\nEND\n", &nvp4c::Options::default()).unwrap();
/// assert_eq!(program.geometry.unwrap().output, nvp4c::ir::PrimitiveOut::Points);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum PrimitiveOut {
    /// `POINTS`.
    Points,
    /// `LINE_STRIP`.
    LineStrip,
    /// `TRIANGLE_STRIP`.
    TriangleStrip,
}

/// Component selectors 0..=3 for x, y, z, w.
///
/// ```
/// use nvp4c::ir::Swizzle;
/// # let (program, _) = nvp4c::check("!!NVfp4.0\nTEMP t;\nADD t, fragment.color, {1, 2, 3, 4};\nMOV_SAT result.color.xy, -|t.wzyx|;\nEND\n", &nvp4c::Options::default()).unwrap();
/// # let nvp4c::ir::Stmt::Inst(add) = &program.sub(program.entry).body[0] else { unreachable!() };
/// # let nvp4c::ir::Stmt::Inst(mov) = &program.sub(program.entry).body[1] else { unreachable!() };
/// assert_eq!(mov.srcs[0].swizzle, Swizzle([3, 2, 1, 0])); // .wzyx
/// assert!(add.srcs[0].swizzle.is_identity());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Swizzle(pub [u8; 4]);

impl Swizzle {
    /// `.xyzw`.
    ///
    /// ```
    /// assert_eq!(nvp4c::ir::Swizzle::IDENTITY.0, [0, 1, 2, 3]);
    /// ```
    pub const IDENTITY: Swizzle = Swizzle([0, 1, 2, 3]);
    /// Component `c` four times (`.x` is `splat(0)`).
    ///
    /// ```
    /// assert_eq!(nvp4c::ir::Swizzle::splat(2).0, [2, 2, 2, 2]);
    /// ```
    pub fn splat(c: u8) -> Swizzle {
        Swizzle([c; 4])
    }
    /// Whether it is `.xyzw`.
    ///
    /// ```
    /// use nvp4c::ir::Swizzle;
    /// assert!(Swizzle([0, 1, 2, 3]).is_identity() && !Swizzle::splat(0).is_identity());
    /// ```
    pub fn is_identity(self) -> bool {
        self == Swizzle::IDENTITY
    }
    /// The components of the source register this swizzle reads for the
    /// operand components in `components` (bit i = component i).
    ///
    /// ```
    /// use nvp4c::ir::Swizzle;
    /// // `.zzxy` read for x and w: z and y.
    /// assert_eq!(Swizzle([2, 2, 0, 1]).source_components(0b1001), 0b0110);
    /// ```
    pub fn source_components(self, components: u8) -> u8 {
        (0..4)
            .filter(|c| components & (1 << c) != 0)
            .fold(0, |m, c| m | 1 << self.0[c])
    }
}

/// Bit i enables component i (x = 1, y = 2, z = 4, w = 8).
///
/// ```
/// # let (program, _) = nvp4c::check("!!NVfp4.0\nTEMP t;\nADD t, fragment.color, {1, 2, 3, 4};\nMOV_SAT result.color.xy, -|t.wzyx|;\nEND\n", &nvp4c::Options::default()).unwrap();
/// # let nvp4c::ir::Stmt::Inst(add) = &program.sub(program.entry).body[0] else { unreachable!() };
/// # let nvp4c::ir::Stmt::Inst(mov) = &program.sub(program.entry).body[1] else { unreachable!() };
/// assert_eq!(mov.dst.mask, nvp4c::ir::WriteMask(0b0011)); // .xy
/// assert!(mov.dst.mask.has(1) && !mov.dst.mask.has(2));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WriteMask(pub u8);

impl WriteMask {
    /// `.xyzw`.
    ///
    /// ```
    /// assert!((0..4).all(|c| nvp4c::ir::WriteMask::ALL.has(c)));
    /// ```
    pub const ALL: WriteMask = WriteMask(0xf);
    /// Whether component `c` (0 to 3) is written.
    ///
    /// ```
    /// assert!(nvp4c::ir::WriteMask(0b1000).has(3));
    /// ```
    pub fn has(self, c: usize) -> bool {
        self.0 & (1 << c) != 0
    }
}

/// Condition code register: CC0 or CC1.
///
/// ```
/// let (program, _) = nvp4c::check("!!NVfp4.0\nTEMP t;\nMOVC1 t, fragment.color;\nMOV result.color, t;\nEND\n", &nvp4c::Options::default()).unwrap();
/// let nvp4c::ir::Stmt::Inst(mov) = &program.sub(program.entry).body[0] else { panic!() };
/// assert_eq!(mov.cc_update, Some(nvp4c::ir::CcReg(1)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CcReg(pub u8);

/// A `<ccTest>`: a Table X.16 test on one register, then swizzled.
///
/// ```
/// use nvp4c::{ir::{CcReg, Stmt, Swizzle}, isa::CcCondition};
/// let (program, _) = nvp4c::check("!!NVfp4.0\nTEMP t;\nMOVC t, fragment.color;\nIF GT.y;\nMOV result.color, t;\nENDIF;\nEND\n", &nvp4c::Options::default()).unwrap();
/// let Stmt::If { test, .. } = &program.sub(program.entry).body[1] else { panic!() };
/// assert_eq!((test.condition, test.reg, test.swizzle), (CcCondition::Gt, CcReg(0), Swizzle::splat(1)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CcTest {
    /// The Table X.16 test.
    pub condition: CcCondition,
    /// The register tested.
    pub reg: CcReg,
    /// Which components are tested.
    pub swizzle: Swizzle,
}

/// Clamping modifiers (section 2.X.4.1).
///
/// ```
/// # let (program, _) = nvp4c::check("!!NVfp4.0\nTEMP t;\nADD t, fragment.color, {1, 2, 3, 4};\nMOV_SAT result.color.xy, -|t.wzyx|;\nEND\n", &nvp4c::Options::default()).unwrap();
/// # let nvp4c::ir::Stmt::Inst(add) = &program.sub(program.entry).body[0] else { unreachable!() };
/// # let nvp4c::ir::Stmt::Inst(mov) = &program.sub(program.entry).body[1] else { unreachable!() };
/// assert_eq!(mov.clamp, Some(nvp4c::ir::Clamp::Sat));
/// assert_eq!(add.clamp, None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clamp {
    /// SAT: [0, 1].
    Sat,
    /// SSAT: [-1, 1].
    Ssat,
}

/// MUL's special forms (section 2.X.8.Z, MUL).
///
/// ```
/// let (program, _) = nvp4c::check("!!NVfp4.0\nINT TEMP i;\nMUL.S24 i, 3, 4;\nI2F result.color, i;\nEND\n", &nvp4c::Options::default()).unwrap();
/// let nvp4c::ir::Stmt::Inst(mul) = &program.sub(program.entry).body[0] else { panic!() };
/// assert_eq!(mul.mul_mode, Some(nvp4c::ir::MulMode::S24));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MulMode {
    /// `S24`: signed 24-bit operands.
    S24,
    /// `U24`: unsigned 24-bit operands.
    U24,
    /// `HI`: the high 32 bits of the 64-bit product.
    Hi,
}

/// Which element of a variable an operand or destination names.
///
/// ```
/// use nvp4c::ir::{Index, Stmt};
/// let source = "!!NVvp4.0\nPARAM p[4] = { program.env[0..3] };\nINT TEMP a;\nMOV.S a, 1;\nMOV result.position, p[a.x + 2];\nEND\n";
/// let (program, _) = nvp4c::check(source, &nvp4c::Options::default()).unwrap();
/// let Stmt::Inst(mov) = &program.sub(program.entry).body[1] else { panic!() };
/// assert!(matches!(mov.srcs[0].index, Index::Relative { offset: 2, .. }));
/// assert_eq!(mov.dst.index, Index::None);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Index {
    /// Not an array.
    None,
    /// `[n]`.
    Absolute(u32),
    /// `[A.x + n]`: an integer scalar operand plus a constant offset.
    ///
    Relative {
        /// The address register's component (`A.x`).
        address: Box<Operand>,
        /// The constant `n`.
        offset: i32,
    },
    /// A geometry program's per-vertex attribute variable (bound to
    /// `vertex.<binding>` without a vertex number): `name[v]` or, for an
    /// array, `name[v][n]` (NV_geometry_program4 section 2.X.3.2).
    ///
    /// Both indices in one box, so an [`Index`] (in every operand and
    /// destination) is 16 bytes (docs/performance.md, "Session 6").
    PerVertex(Box<PerVertexIndex>),
    /// A BUFFER or BUFFER4 variable on a range of parameter buffers
    /// (`program.buffer[a..b]`, NV_gpu_program5 2.X.3.6) whose binding
    /// point a register picks: `name[A.x + k]`, then the element of the
    /// picked binding point's variable as for one buffer. The operand's
    /// variable is the range's first ([`BufferSelect::vars`]); a constant
    /// binding point is resolved by the checker to its variable instead.
    BufferRange(Box<BufferRangeIndex>),
}

/// The two indices of [`Index::BufferRange`].
#[derive(Clone, Debug, PartialEq)]
pub struct BufferRangeIndex {
    /// The binding point: `vars[index.x + constant]`, clamped into the
    /// range.
    pub select: BufferSelect,
    /// The element of its variable, or [`Index::None`].
    pub element: Index,
}

/// The two indices of [`Index::PerVertex`].
#[derive(Clone, Debug, PartialEq)]
pub struct PerVertexIndex {
    /// The input vertex `v`.
    pub vertex: Index,
    /// The array element `n`, or [`Index::None`].
    pub element: Index,
}

/// A source operand (section 2.X.4.2): load, swizzle, negate, then absolute
/// value, then the outer negate.
///
/// ```
/// # let (program, _) = nvp4c::check("!!NVfp4.0\nTEMP t;\nADD t, fragment.color, {1, 2, 3, 4};\nMOV_SAT result.color.xy, -|t.wzyx|;\nEND\n", &nvp4c::Options::default()).unwrap();
/// # let nvp4c::ir::Stmt::Inst(add) = &program.sub(program.entry).body[0] else { unreachable!() };
/// # let nvp4c::ir::Stmt::Inst(mov) = &program.sub(program.entry).body[1] else { unreachable!() };
/// let src = &mov.srcs[0];
/// assert!(src.negate_abs && src.abs && !src.negate); // -|t.wzyx|
/// assert_eq!(src.ty, nvp4c::isa::DataType::Float);
/// assert_eq!(program.var(src.var).name.as_deref(), Some("t"));
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Operand {
    /// The variable read.
    pub var: VarId,
    /// The element read.
    pub index: Index,
    /// The swizzle (a scalar suffix is a splat).
    pub swizzle: Swizzle,
    /// `<operandNeg>`: applied after the swizzle.
    pub negate: bool,
    /// `|...|`.
    pub abs: bool,
    /// `<operandAbsNeg>`: the `-` before `|...|`.
    pub negate_abs: bool,
    /// The data type this operand is read as (Table X.13 inputs).
    pub ty: DataType,
    /// The operand in the source.
    pub span: Span,
}

/// The destination of an instruction (section 2.X.4.3).
///
/// ```
/// # let (program, _) = nvp4c::check("!!NVfp4.0\nTEMP t;\nADD t, fragment.color, {1, 2, 3, 4};\nMOV_SAT result.color.xy, -|t.wzyx|;\nEND\n", &nvp4c::Options::default()).unwrap();
/// # let nvp4c::ir::Stmt::Inst(add) = &program.sub(program.entry).body[0] else { unreachable!() };
/// # let nvp4c::ir::Stmt::Inst(mov) = &program.sub(program.entry).body[1] else { unreachable!() };
/// assert_eq!(mov.dst.mask, nvp4c::ir::WriteMask(0b0011));
/// assert!(mov.dst.cc_mask.is_none());
/// assert_eq!(add.dst.ty, nvp4c::isa::DataType::Float);
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Dest {
    /// The variable written.
    pub var: VarId,
    /// The element written.
    pub index: Index,
    /// The write mask.
    pub mask: WriteMask,
    /// The run-time condition code write mask, if any.
    pub cc_mask: Option<CcTest>,
    /// The data type of the written value.
    pub ty: DataType,
    /// The destination in the source.
    pub span: Span,
}

/// One selector of SWZ's extended swizzle.
///
/// ```
/// use nvp4c::ir::{ExtSwizzleSel, Stmt};
/// let (program, _) = nvp4c::check("!!NVfp4.0\nSWZ result.color, fragment.color, x, -y, 0, 1;\nEND\n", &nvp4c::Options::default()).unwrap();
/// let Stmt::Inst(swz) = &program.sub(program.entry).body[0] else { panic!() };
/// let sel = *swz.ext_swizzle.as_deref().unwrap();
/// assert_eq!(sel.map(|c| c.sel), [ExtSwizzleSel::Component(0), ExtSwizzleSel::Component(1), ExtSwizzleSel::Zero, ExtSwizzleSel::One]);
/// assert!(sel[1].negate);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExtSwizzleSel {
    /// A component of the operand, 0 to 3.
    Component(u8),
    /// The constant 0.
    Zero,
    /// The constant 1.
    One,
}

/// One component of SWZ's extended swizzle; see [`ExtSwizzleSel`].
///
/// ```
/// use nvp4c::ir::{ExtSwizzleComp, ExtSwizzleSel};
/// let minus_one = ExtSwizzleComp { negate: true, sel: ExtSwizzleSel::One };
/// assert!(minus_one.negate);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExtSwizzleComp {
    /// A `-` before the selector.
    pub negate: bool,
    /// The selector.
    pub sel: ExtSwizzleSel,
}

/// Texture targets of `<texTarget>` plus the BUFFER target.
///
/// ```
/// use nvp4c::ir::{Stmt, TexTarget};
/// let (program, _) = nvp4c::check("!!NVfp4.0\nTEX result.color, fragment.texcoord[0], texture[1], SHADOW2D;\nEND\n", &nvp4c::Options::default()).unwrap();
/// let Stmt::Inst(tex) = &program.sub(program.entry).body[0] else { panic!() };
/// assert_eq!(tex.tex.as_ref().unwrap().target, TexTarget::Shadow2D);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[non_exhaustive]
pub enum TexTarget {
    /// `1D`.
    T1D,
    /// `2D`.
    T2D,
    /// `3D`.
    T3D,
    /// `CUBE`.
    Cube,
    /// `RECT`.
    Rect,
    /// `SHADOW1D`.
    Shadow1D,
    /// `SHADOW2D`.
    Shadow2D,
    /// `SHADOWRECT`.
    ShadowRect,
    /// `ARRAY1D`.
    Array1D,
    /// `ARRAY2D`.
    Array2D,
    /// `SHADOWCUBE`.
    ShadowCube,
    /// `SHADOWARRAY1D`.
    ShadowArray1D,
    /// `SHADOWARRAY2D`.
    ShadowArray2D,
    /// `BUFFER` (TXF, TXQ).
    Buffer,
    /// `ARRAYCUBE` (NV_gpu_program5 <texTarget>): an array of cube maps,
    /// the direction in x, y, z and the layer (a whole cube) in w.
    ArrayCube,
}

impl TexTarget {
    /// Every target, in the order of the enum (`TexTarget as u32`; the
    /// bindless arrays' bindings follow it, docs/interface.md).
    pub const ALL: [TexTarget; 15] = [
        TexTarget::T1D,
        TexTarget::T2D,
        TexTarget::T3D,
        TexTarget::Cube,
        TexTarget::Rect,
        TexTarget::Shadow1D,
        TexTarget::Shadow2D,
        TexTarget::ShadowRect,
        TexTarget::Array1D,
        TexTarget::Array2D,
        TexTarget::ShadowCube,
        TexTarget::ShadowArray1D,
        TexTarget::ShadowArray2D,
        TexTarget::Buffer,
        TexTarget::ArrayCube,
    ];
    /// The target as written in a program.
    ///
    /// ```
    /// assert_eq!(nvp4c::ir::TexTarget::ShadowArray2D.name(), "SHADOWARRAY2D");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            TexTarget::T1D => "1D",
            TexTarget::T2D => "2D",
            TexTarget::T3D => "3D",
            TexTarget::Cube => "CUBE",
            TexTarget::Rect => "RECT",
            TexTarget::Shadow1D => "SHADOW1D",
            TexTarget::Shadow2D => "SHADOW2D",
            TexTarget::ShadowRect => "SHADOWRECT",
            TexTarget::Array1D => "ARRAY1D",
            TexTarget::Array2D => "ARRAY2D",
            TexTarget::ShadowCube => "SHADOWCUBE",
            TexTarget::ShadowArray1D => "SHADOWARRAY1D",
            TexTarget::ShadowArray2D => "SHADOWARRAY2D",
            TexTarget::Buffer => "BUFFER",
            TexTarget::ArrayCube => "ARRAYCUBE",
        }
    }
}

/// The texture operand of a texture instruction: unit, target and texel
/// offset.
///
/// ```
/// let (program, _) = nvp4c::check("!!NVfp4.0\nTEX result.color, fragment.texcoord[0], texture[2], 2D, (1, -2);\nEND\n", &nvp4c::Options::default()).unwrap();
/// let nvp4c::ir::Stmt::Inst(tex) = &program.sub(program.entry).body[0] else { panic!() };
/// let access = tex.tex.as_ref().unwrap();
/// assert_eq!((access.unit, access.offset), (2, Some([1, -2, 0])));
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct TexAccess {
    /// `texture[n]`.
    pub unit: u32,
    /// The target.
    pub target: TexTarget,
    /// The texel offset, missing components 0.
    pub offset: Option<[i32; 3]>,
    /// The texel component TXG and TXGO gather (NV_gpu_program5 2.X.4.4,
    /// `<texImageUnitComp>`: `texture[0].y` is 1); 0 when none is given
    /// ("the first component is selected") and for every other
    /// instruction.
    pub component: u8,
    /// NV_gpu_program5's `offset(a)` (<texOffsetVar>): the instruction's
    /// last source is the texel offset, a signed integer vector (TXF and
    /// TXG only: docs/semantics.md, "Textures").
    pub variable_offset: bool,
    /// NV_gpu_program5 2.X.3.8: a texture array variable indexed with a
    /// register (`textures[A0.x + 1]`), so the unit is chosen at run time
    /// among the array's; `unit` is its first. The index is the
    /// instruction's last source, a signed scalar.
    pub unit_select: Option<UnitSelect>,
    /// NV_bindless_texture's `handle(a.x)`: the texture is the one the
    /// handle names (`unit` is 0 and means nothing); the instruction's
    /// last source is the handle, an unsigned scalar (docs/interface.md,
    /// "Bindless textures").
    pub handle: bool,
}

/// The units a register-indexed texture array may name, and the constant
/// added to the index (`[A0.x + offset]`).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct UnitSelect {
    /// The array's units, element 0 first.
    pub units: Vec<u32>,
    /// The constant part of the index.
    pub offset: i32,
}

impl TexAccess {
    /// A fixed unit (what every front end but NV_gpu_program5's texture
    /// arrays writes).
    pub fn fixed(unit: u32, target: TexTarget) -> TexAccess {
        TexAccess {
            unit,
            target,
            offset: None,
            component: 0,
            variable_offset: false,
            unit_select: None,
            handle: false,
        }
    }

    /// Every unit the instruction may sample: its unit, or all of a
    /// register-indexed array's; none for a bindless handle, whose
    /// textures are the handle arrays' (docs/interface.md).
    pub fn units(&self) -> &[u32] {
        match &self.unit_select {
            _ if self.handle => &[],
            Some(select) => &select.units,
            None => std::slice::from_ref(&self.unit),
        }
    }
}

/// An ALU or texture instruction: everything but flow control.
///
/// ```
/// use nvp4c::{isa::{DataType, Opcode}};
/// # let (program, _) = nvp4c::check("!!NVfp4.0\nTEMP t;\nADD t, fragment.color, {1, 2, 3, 4};\nMOV_SAT result.color.xy, -|t.wzyx|;\nEND\n", &nvp4c::Options::default()).unwrap();
/// # let nvp4c::ir::Stmt::Inst(add) = &program.sub(program.entry).body[0] else { unreachable!() };
/// # let nvp4c::ir::Stmt::Inst(mov) = &program.sub(program.entry).body[1] else { unreachable!() };
/// assert_eq!((add.op, add.ty, add.srcs.len()), (Opcode::Add, DataType::Float, 2));
/// assert_eq!((mov.op, mov.half, mov.cc_update), (Opcode::Mov, false, None));
/// assert!(add.tex.is_none() && add.ext_swizzle.is_none() && add.mul_mode.is_none());
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Instruction {
    /// The opcode.
    pub op: Opcode,
    /// The operation's data type after defaults (Table X.13 column D).
    pub ty: DataType,
    /// `H` suffix: at least 16-bit precision (RelaxedPrecision).
    pub half: bool,
    /// `X` suffix: 12-bit fixed point with 10 fraction bits
    /// (NV_fragment_program_option); operands and result are rounded to a
    /// multiple of 1/1024 and clamped to [-2, 2047/1024] (docs/semantics.md).
    pub fixed: bool,
    /// `SAT` / `SSAT`.
    pub clamp: Option<Clamp>,
    /// `.CC0` / `.CC1` (`C`, `C0`, `C1`): the register updated.
    pub cc_update: Option<CcReg>,
    /// MUL only: `S24`, `U24`, `HI`.
    pub mul_mode: Option<MulMode>,
    /// `.F64`, `.S64`, `.U64` (NV_gpu_program5 2.X.4.1): the operation is
    /// carried out at 64-bit precision, `ty` being its base type. Operands
    /// of 32-bit variables are promoted, results written to 32-bit
    /// variables converted back (docs/semantics.md, "64-bit data types").
    pub precision64: bool,
    /// CVT only: its two storage modifiers and its rounding modifier.
    pub convert: Option<Conversion>,
    /// The destination (unused by instructions without a result, e.g. KIL).
    pub dst: Dest,
    /// The source operands, in order.
    pub srcs: Vec<Operand>,
    // The parts only a few opcodes have are boxed: every statement of a
    // block is as large as its largest variant, an instruction, and most
    // instructions are arithmetic (docs/performance.md, "Session 6").
    /// SWZ only.
    pub ext_swizzle: Option<Box<[ExtSwizzleComp; 4]>>,
    /// Texture instructions only.
    pub tex: Option<Box<TexAccess>>,
    /// Memory instructions only (LDB, ATOMB): what they access.
    pub memory: Option<Box<MemoryAccess>>,
    /// Image instructions only (LOADIM, ATOMIM): the image unit, target
    /// and format.
    pub image: Option<Box<ImageAccess>>,
    /// The whole instruction.
    pub span: Span,
}

impl Instruction {
    /// The kind of each source operand, in order: the instruction table's
    /// inputs (Table X.13), then, for `offset(a)` (NV_gpu_program5
    /// <texOffsetVar>), the offset's signed integer vector.
    ///
    /// ```
    /// let (program, _) = nvp4c::check("!!NVfp5.0\nINT TEMP o;\nMOV.S o, 1;\nTXG result.color, fragment.texcoord[0], texture[0], 2D, offset(o);\nEND\n", &nvp4c::Options::default()).unwrap();
    /// let nvp4c::ir::Stmt::Inst(txg) = &program.sub(program.entry).body[1] else { panic!() };
    /// assert_eq!((txg.srcs.len(), txg.operand_kinds().count()), (2, 2));
    /// ```
    pub fn operand_kinds(&self) -> impl Iterator<Item = crate::isa::OperandKind> + '_ {
        let offset = self
            .tex
            .as_ref()
            .filter(|t| t.variable_offset)
            .map(|_| crate::isa::OperandKind::Vector(crate::isa::TypeRule::Signed));
        let unit_index = self
            .tex
            .as_ref()
            .filter(|t| t.unit_select.is_some())
            .map(|_| crate::isa::OperandKind::Scalar(crate::isa::TypeRule::Signed));
        // NV_bindless_texture's `handle(a.x)`: an unsigned scalar, last.
        let handle = self
            .tex
            .as_ref()
            .filter(|t| t.handle)
            .map(|_| crate::isa::OperandKind::Scalar(crate::isa::TypeRule::Unsigned));
        self.op
            .info()
            .inputs
            .iter()
            .copied()
            .chain(offset)
            .chain(unit_index)
            .chain(handle)
    }

    /// Whether the result has 64-bit components: a `.F64`/`.S64`/`.U64`
    /// instruction, PK64, CVT to a 64-bit type, and a load with a 64-bit
    /// storage modifier (NV_gpu_program5 2.X.4.5: "result.x =
    /// ((float64_t *)address)[0]"). Written as it is to a LONG variable,
    /// converted for a 32-bit one (section 2.X.4.1).
    pub fn result64(&self) -> bool {
        self.precision64
            || self.op == crate::isa::Opcode::Pk64
            || self
                .convert
                .is_some_and(|c| c.to.bits == 64 || c.long_half_result)
            || self
                .memory
                .as_ref()
                .is_some_and(|m| m.bits == 64 && m.atomic.is_none())
    }
}

/// A storage modifier of CVT (NV_gpu_program5 2.X.4.1): a base type and a
/// component size, `F16` ... `U64`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StorageType {
    /// F, S or U.
    pub ty: DataType,
    /// 8, 16, 32 or 64.
    pub bits: u8,
}

impl StorageType {
    /// Whether this is `F16` (CVT's 16-bit float, NV_gpu_program5 2.X.8.Z).
    pub fn is_half(self) -> bool {
        self.ty == crate::isa::DataType::Float && self.bits == 16
    }

    /// The modifier as written (`S16`).
    ///
    /// ```
    /// use nvp4c::{ir::StorageType, isa::DataType};
    /// assert_eq!(StorageType { ty: DataType::Unsigned, bits: 8 }.name(), "U8");
    /// ```
    pub fn name(self) -> String {
        let base = match self.ty {
            DataType::Float => 'F',
            DataType::Signed => 'S',
            DataType::Unsigned => 'U',
        };
        format!("{base}{}", self.bits)
    }
}

/// CVT's rounding modifier (NV_gpu_program5 2.X.8.Z, CVT); `Round` when
/// none is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rounding {
    /// `ROUND`: to nearest, ties to even.
    Round,
    /// `CEIL`: toward +infinity.
    Ceil,
    /// `FLR`: toward -infinity.
    Floor,
    /// `TRUNC`: toward zero.
    Trunc,
}

/// CVT's conversion (NV_gpu_program5 2.X.8.Z, CVT: "The first specifies
/// the data type of the result components; the second specifies the data
/// type of the operand components").
///
/// ```
/// let src = "!!NVfp5.0\nTEMP t;\nCVT.S8.F32.FLR t, fragment.color;\nMOV result.color, t;\nEND\n";
/// let (program, _) = nvp4c::check(src, &nvp4c::Options::default()).unwrap();
/// let nvp4c::ir::Stmt::Inst(cvt) = &program.sub(program.entry).body[0] else { panic!() };
/// let c = cvt.convert.unwrap();
/// assert_eq!((c.to.name(), c.from.name(), c.rounding), ("S8".into(), "F32".into(), nvp4c::ir::Rounding::Floor));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conversion {
    /// The result's type.
    pub to: StorageType,
    /// The operand's type.
    pub from: StorageType,
    /// How inexact results round.
    pub rounding: Rounding,
    /// `SAT` on an integer result: "Integer values are clamped to the
    /// closest value representable in the result data type" (without it
    /// "Integer values drop the most significant bits").
    pub saturate: bool,
    /// An F16 operand read from a LONG register: the low 16 bits of its
    /// 64-bit component (docs/semantics.md, "CVT").
    pub long_half_operand: bool,
    /// An F16 result written to a LONG register: its encoding in the low
    /// 16 bits of the 64-bit component, the other 48 zero.
    pub long_half_result: bool,
}

/// What a memory instruction accesses (NV_gpu_program5 section 2.X.4.5,
/// NV_shader_storage_buffer_object): a STORAGE variable, at a byte offset
/// (a constant plus an optional unsigned scalar operand), in a format from
/// the storage modifier, with an atomic operation for ATOMB.
///
/// ```
/// use nvp4c::ir::{AtomicOp, Stmt};
/// let src = "!!NVcp5.0\nOPTION NV_shader_storage_buffer;\nGROUP_SIZE 1;\nSTORAGE sbo = program.storage[2];\nTEMP r;\nATOMB.ADD.U32 r.x, {1, 0, 0, 0}, sbo[8];\nEND\n";
/// let (program, _) = nvp4c::check(src, &nvp4c::Options::default()).unwrap();
/// let Stmt::Inst(atom) = &program.sub(program.entry).body[0] else { panic!() };
/// let m = atom.memory.as_ref().unwrap();
/// assert_eq!((m.offset, m.components, m.atomic), (8, 1, Some(AtomicOp::Add)));
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct MemoryAccess {
    /// The STORAGE variable ([`VarKind::Storage`]), the SHARED one
    /// ([`VarKind::Shared`]), or the GPU address space
    /// ([`VarKind::GlobalMemory`]); which says what memory it is.
    pub var: VarId,
    /// The constant byte offset: from the start of the storage buffer, or
    /// of the work group's shared memory (a SHARED variable's first byte
    /// is already added in); 0 for a GPU address.
    pub offset: u32,
    /// A byte offset read from a register, added to `offset`; for
    /// [`VarKind::GlobalMemory`], the GPU address itself (an unsigned
    /// integer scalar: a LONG register's 64-bit component, or a 32-bit
    /// one zero-extended); for a COUNTER array indexed with a register
    /// (`ctrs[a.x + 1]`), the element index instead (`counter_select`).
    pub address: Option<Operand>,
    /// A COUNTER array indexed with a register: the index's constant part
    /// and the array's length. The counter is element `address.x +
    /// constant`, clamped into the array like every relatively addressed
    /// array (docs/semantics.md), at byte `offset + 4 · element`.
    pub counter_select: Option<(i32, u32)>,
    /// A STORAGE variable on a range of buffers (`program.storage[a..b]`)
    /// whose binding point the access picks with a register.
    pub buffer_select: Option<Box<BufferSelect>>,
    /// The storage modifier's data type (`F32`, `S32`, `U32`, `F16`, ...).
    pub ty: crate::isa::DataType,
    /// Its component count: 1, 2 (`X2`) or 4 (`X4`).
    pub components: u8,
    /// Its component size in bits: 8, 16, 32 or 64 (NV_gpu_program5
    /// 2.X.4.5; 16 with `ty` Float is NV_gpu_program5_mem_extended's F16).
    pub bits: u8,
    /// ATOMB's operation.
    pub atomic: Option<AtomicOp>,
    /// LOAD's and STORE's `COH` or `VOL` (NV_gpu_program5 Table X.14):
    /// every access reaches the memory itself, seen by other invocations.
    pub volatile: bool,
}

impl MemoryAccess {
    /// The registers the access reads: the offset (or GPU address) and a
    /// STORAGE range's binding point.
    pub fn registers(&self) -> impl Iterator<Item = &Operand> {
        self.address
            .iter()
            .chain(self.buffer_select.iter().map(|s| &s.index))
    }
}

/// The binding point of an access to a STORAGE variable on a range of
/// buffers, picked by a register (`sb[i.x + 1][8]`;
/// NV_shader_storage_buffer_object 2.X.3.Y: "the first index specifying an
/// offset into the range of buffer binding points"): `vars[index.x +
/// constant]`, the index clamped into the range as every relatively
/// addressed array's is (docs/semantics.md). `MemoryAccess::var` is the
/// range's first variable.
#[derive(Clone, Debug, PartialEq)]
pub struct BufferSelect {
    /// The register's component (a signed integer scalar).
    pub index: Operand,
    /// The constant added to it.
    pub constant: i32,
    /// The variable of each binding point of the range, in order.
    pub vars: Vec<VarId>,
}

/// What an image instruction (LOADIM, STOREIM, ATOMIM;
/// EXT_shader_image_load_store, "Dependencies on NV_gpu_program5")
/// accesses: an image unit (`image[n]`, or an IMAGE variable resolved to
/// one), the target it is read as, and the storage modifier's format
/// (`None`: a formatted STOREIM, which converts to the unit's format).
///
/// ```
/// use nvp4c::ir::{ImageTarget, Stmt};
/// let src = "!!NVfp5.0\nIMAGE img = image[1];\nINT TEMP c;\nTEMP r;\nMOV.S c, 0;\nLOADIM.U32 r, c, img, 2D;\nMOV result.color, r;\nEND\n";
/// let (program, _) = nvp4c::check(src, &nvp4c::Options::default()).unwrap();
/// let Stmt::Inst(load) = &program.sub(program.entry).body[1] else { panic!() };
/// let image = load.image.as_ref().unwrap();
/// assert_eq!((image.unit, image.target), (1, ImageTarget::T2D));
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct ImageAccess {
    /// The image unit.
    pub unit: u32,
    /// The image target named by the instruction.
    pub target: ImageTarget,
    /// The storage modifier (unformatted access), if any.
    pub format: Option<ImageFormat>,
    /// ATOMIM's operation.
    pub atomic: Option<AtomicOp>,
    /// An IMAGE array indexed with a register (`imgs[a.x + 1]`,
    /// NV_gpu_program5 2.X.2 <imageVarName> <optArrayMem>): the units the
    /// index picks among at run time (`unit` is the first) and the index,
    /// a signed scalar (docs/semantics.md, "Images").
    pub unit_select: Option<(UnitSelect, Operand)>,
    /// NV_bindless_texture's `handle(a.x)` as the image (<imageUnit> ::=
    /// "handle" "(" <addrUseS> ")"): the handle, an unsigned scalar (a
    /// LONG register's 64-bit value), which names an element of the
    /// access's [`BindlessImageArray`] (`unit` is 0 and means nothing;
    /// docs/interface.md, "Bindless images").
    pub handle: Option<Operand>,
}

impl ImageAccess {
    /// NV_shader_atomic_fp16_vector's ATOMIM.F16X2 and ATOMIM.F16X4: an
    /// atomic on an rg16f (rgba16f) texel, which the backend declares
    /// R32ui and updates as one (two) words of two halves
    /// (docs/interface.md, "Images").
    pub fn packed_halves_atomic(&self) -> bool {
        self.atomic.is_some() && self.format.is_some_and(ImageFormat::is_halves)
    }

    /// The format the unit is declared with for this access: R32ui for
    /// [`ImageAccess::packed_halves_atomic`], else the storage modifier's.
    pub fn declared_format(&self) -> Option<ImageFormat> {
        if self.packed_halves_atomic() {
            Some(ImageFormat {
                ty: crate::isa::DataType::Unsigned,
                bits: 32,
                components: 1,
            })
        } else {
            self.format
        }
    }

    /// Every unit the access may use: its unit, or all of a
    /// register-indexed array's; none for a bindless handle, whose images
    /// are the handle arrays' (docs/interface.md, "Bindless images").
    pub fn units(&self) -> &[u32] {
        match &self.unit_select {
            _ if self.handle.is_some() => &[],
            Some((select, _)) => &select.units,
            None => std::slice::from_ref(&self.unit),
        }
    }

    /// The registers that pick the image: a register-indexed IMAGE
    /// array's index, or a bindless handle (each read in x only).
    pub fn registers(&self) -> impl Iterator<Item = &Operand> {
        self.unit_select
            .as_ref()
            .map(|(_, index)| index)
            .into_iter()
            .chain(self.handle.as_ref())
    }

    /// The descriptor array a bindless handle access goes through, for an
    /// access of data type `ty` (the instruction's, a STOREIM's value's);
    /// `None` for an image unit.
    ///
    /// ```
    /// use nvp4c::ir::{ImageTarget, Stmt};
    /// let src = "!!NVcp5.0\nOPTION NV_bindless_texture;\nGROUP_SIZE 1;\nUINT TEMP h, r;\nMOV.U h, 3;\nLOADIM.U32 r, {0, 0, 0, 0}, handle(h.x), 2D;\nEND\n";
    /// let (program, _) = nvp4c::check(src, &nvp4c::Options::default()).unwrap();
    /// let Stmt::Inst(load) = &program.sub(program.entry).body[1] else { panic!() };
    /// let array = load.image.as_ref().unwrap().bindless_array(load.ty).unwrap();
    /// assert_eq!((array.target, array.format.unwrap().name()), (ImageTarget::T2D, "U32".to_string()));
    /// assert_eq!((array.target_number(), array.format_number()), (1, 8));
    /// ```
    /// An ATOMIM.F16X2 (F16X4) goes through the target's R32ui array
    /// ([`ImageAccess::declared_format`]), whose element `h` is an R32_UINT
    /// view of the rg16f (rgba16f) image handle `h` names.
    pub fn bindless_array(&self, ty: crate::isa::DataType) -> Option<BindlessImageArray> {
        self.handle.as_ref()?;
        let format = self.declared_format();
        Some(BindlessImageArray {
            target: self.target,
            format,
            ty: format.map_or(ty, |f| f.ty),
        })
    }
}

/// The elements of each NV_bindless_texture texture array: the texture
/// handles a program can name per target (docs/interface.md, "Bindless
/// textures").
pub const BINDLESS_ARRAY_LEN: u32 = 16;

/// The elements of each NV_bindless_texture image handle array: the image
/// handles a program can name per target and format (docs/interface.md,
/// "Bindless images"). 8, the storage images per stage of nvp4c's default
/// device limits (`maxPerStageDescriptorStorageImages` of the LunarG
/// desktop baseline, docs/limits.md), so that a program with one such
/// array loads on every desktop device.
pub const BINDLESS_IMAGE_ARRAY_LEN: u32 = 8;

/// NV_bindless_texture's image handles: one descriptor array of storage
/// images per target and format the program's handles use, whose element
/// `h` is the image handle `h` names (docs/interface.md, "Bindless
/// images"). A storage image's SPIR-V type has one format, so each
/// storage modifier of an unformatted access is an array of its own; the
/// formatted stores of one data type (no storage modifier: format
/// `Unknown`) share one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BindlessImageArray {
    /// The image target of the accesses.
    pub target: ImageTarget,
    /// Their storage modifier; `None` for formatted stores.
    pub format: Option<ImageFormat>,
    /// The data type of the texels (the format's, or the formatted
    /// stores').
    pub ty: crate::isa::DataType,
}

impl BindlessImageArray {
    /// The storage modifiers in the order of their format numbers: Table
    /// X.3's, then NV_gpu_program5_mem_extended's; numbers 24, 25, 26 are
    /// the formatted stores of F, S and U.
    pub const FORMATS: [ImageFormat; 24] = {
        use crate::isa::DataType::{Float as F, Signed as S, Unsigned as U};
        const fn f(ty: crate::isa::DataType, bits: u8, components: u8) -> ImageFormat {
            ImageFormat {
                ty,
                bits,
                components,
            }
        }
        [
            f(F, 32, 4),
            f(S, 32, 4),
            f(U, 32, 4),
            f(F, 32, 2),
            f(S, 32, 2),
            f(U, 32, 2),
            f(F, 32, 1),
            f(S, 32, 1),
            f(U, 32, 1),
            f(S, 16, 1),
            f(U, 16, 1),
            f(S, 8, 1),
            f(U, 8, 1),
            f(F, 16, 4),
            f(S, 16, 4),
            f(U, 16, 4),
            f(S, 8, 4),
            f(U, 8, 4),
            f(F, 16, 2),
            f(F, 16, 1),
            f(S, 16, 2),
            f(U, 16, 2),
            f(S, 8, 2),
            f(U, 8, 2),
        ]
    };
    /// The data types of formatted stores, numbered from 24.
    const STORE_TYPES: [crate::isa::DataType; 3] = [
        crate::isa::DataType::Float,
        crate::isa::DataType::Signed,
        crate::isa::DataType::Unsigned,
    ];
    /// Room for the format numbers of one target: bindings step by this.
    pub const FORMATS_PER_TARGET: u32 = 32;

    /// The target's number: its place in [`ImageTarget::ALL`].
    pub fn target_number(self) -> u32 {
        ImageTarget::ALL
            .iter()
            .position(|(_, t)| *t == self.target)
            .unwrap_or(0) as u32
    }
    /// The format's number ([`BindlessImageArray::FORMATS`]).
    pub fn format_number(self) -> u32 {
        let n = match self.format {
            Some(f) => Self::FORMATS.iter().position(|g| *g == f),
            None => Self::STORE_TYPES
                .iter()
                .position(|t| *t == self.ty)
                .map(|k| Self::FORMATS.len() + k),
        };
        n.unwrap_or(0) as u32
    }
    /// The array of a target and format number (the inverse of
    /// [`BindlessImageArray::target_number`] and
    /// [`BindlessImageArray::format_number`]).
    pub fn from_numbers(target: u32, format: u32) -> Option<BindlessImageArray> {
        let (_, target) = *ImageTarget::ALL.get(target as usize)?;
        let format = format as usize;
        Some(match Self::FORMATS.get(format) {
            Some(&f) => BindlessImageArray {
                target,
                format: Some(f),
                ty: f.ty,
            },
            None => BindlessImageArray {
                target,
                format: None,
                ty: *Self::STORE_TYPES.get(format - Self::FORMATS.len())?,
            },
        })
    }
}

/// The image targets of LOADIM, STOREIM and ATOMIM (`<imageTarget>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ImageTarget {
    /// `1D`.
    T1D,
    /// `2D`.
    T2D,
    /// `3D`.
    T3D,
    /// `RECT`.
    Rect,
    /// `CUBE`.
    Cube,
    /// `BUFFER`.
    Buffer,
    /// `ARRAY1D`.
    Array1D,
    /// `ARRAY2D`.
    Array2D,
    /// `ARRAYCUBE`.
    ArrayCube,
    /// `2DMS`.
    T2DMS,
    /// `ARRAY2DMS`.
    Array2DMS,
}

impl ImageTarget {
    /// Every target with its name as written.
    pub const ALL: [(&'static str, ImageTarget); 11] = [
        ("1D", ImageTarget::T1D),
        ("2D", ImageTarget::T2D),
        ("3D", ImageTarget::T3D),
        ("RECT", ImageTarget::Rect),
        ("CUBE", ImageTarget::Cube),
        ("BUFFER", ImageTarget::Buffer),
        ("ARRAY1D", ImageTarget::Array1D),
        ("ARRAY2D", ImageTarget::Array2D),
        ("ARRAYCUBE", ImageTarget::ArrayCube),
        ("2DMS", ImageTarget::T2DMS),
        ("ARRAY2DMS", ImageTarget::Array2DMS),
    ];
    /// The target as written.
    pub fn name(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(_, t)| *t == self)
            .map_or("?", |(n, _)| n)
    }
    /// Whether the target is multisampled (2DMS, ARRAY2DMS): the
    /// coordinate's w is the sample number (EXT_shader_image_load_store
    /// Table X.5).
    pub fn multisampled(self) -> bool {
        matches!(self, ImageTarget::T2DMS | ImageTarget::Array2DMS)
    }
    /// The components of the coordinate vector an access reads: those of
    /// [`ImageTarget::coordinate_components`], and w, the sample, for a
    /// multisample target.
    pub fn coordinate_mask(self) -> u8 {
        let sample = if self.multisampled() { 1 << 3 } else { 0 };
        self.coordinate_components()
            .iter()
            .fold(sample, |m, &c| m | (1 << c))
    }
    /// Which components of the coordinate vector select the texel
    /// (EXT_shader_image_load_store Table X.5: i, j, k, then the layer or
    /// face), in the order the Vulkan image coordinate takes them: x; x y;
    /// x y z; and for the arrays the layer from z (ARRAY1D too: issue 36,
    /// "the third (z) component selects the layer").
    pub fn coordinate_components(self) -> &'static [usize] {
        match self {
            ImageTarget::T1D | ImageTarget::Buffer => &[0],
            ImageTarget::T2D | ImageTarget::Rect | ImageTarget::T2DMS => &[0, 1],
            ImageTarget::Array1D => &[0, 2],
            ImageTarget::T3D
            | ImageTarget::Cube
            | ImageTarget::Array2D
            | ImageTarget::ArrayCube
            | ImageTarget::Array2DMS => &[0, 1, 2],
        }
    }
}

/// A storage modifier of an image instruction (EXT_shader_image_load_store
/// Table X.3): the base data type, the bits of one component (8, 16, 32)
/// and the component count (1, 2, 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ImageFormat {
    /// `F`, `S` or `U`.
    pub ty: crate::isa::DataType,
    /// 8, 16 or 32.
    pub bits: u8,
    /// 1, 2 (`X2`) or 4 (`X4`).
    pub components: u8,
}

impl ImageFormat {
    /// `F16X2`: rg16f.
    pub const F16X2: ImageFormat = ImageFormat {
        ty: crate::isa::DataType::Float,
        bits: 16,
        components: 2,
    };

    /// `F16X4`: rgba16f.
    pub const F16X4: ImageFormat = ImageFormat {
        ty: crate::isa::DataType::Float,
        bits: 16,
        components: 4,
    };

    /// F16X2 or F16X4: pairs of halves, one 32-bit word per pair.
    pub fn is_halves(self) -> bool {
        self == ImageFormat::F16X2 || self == ImageFormat::F16X4
    }

    /// The modifier as written (`U32`, `F32X4`, `S8`).
    pub fn name(self) -> String {
        let t = match self.ty {
            crate::isa::DataType::Float => 'F',
            crate::isa::DataType::Signed => 'S',
            crate::isa::DataType::Unsigned => 'U',
        };
        match self.components {
            1 => format!("{t}{}", self.bits),
            n => format!("{t}{}X{n}", self.bits),
        }
    }
    /// The Vulkan/GLSL format the image is declared with: the format
    /// whose texels are exactly the modifier's bits (`r32ui` for `U32`,
    /// `rgba32f` for `F32X4`, `r8i` for `S8`), so that an unformatted
    /// access is the formatted access of that format.
    pub fn glsl_name(self) -> String {
        let c = ["r", "rg", "", "rgba"][usize::from(self.components) - 1];
        let t = match self.ty {
            crate::isa::DataType::Float => "f",
            crate::isa::DataType::Signed => "i",
            crate::isa::DataType::Unsigned => "ui",
        };
        format!("{c}{}{t}", self.bits)
    }
}

/// The atomic modifier of ATOMB and ATOMS (NV_gpu_program5 Table X.Y, ATOM;
/// NV_compute_program5 Table X.Y, ATOMS).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomicOp {
    /// `ADD`.
    Add,
    /// `MIN`.
    Min,
    /// `MAX`.
    Max,
    /// `AND`.
    And,
    /// `OR`.
    Or,
    /// `XOR`.
    Xor,
    /// `EXCH`.
    Exch,
    /// `CSWAP`: compare with op0.x, store op0.y when equal.
    CSwap,
    /// `IWRAP`: `(old >= op0.x) ? 0 : old + 1` (U32 only).
    IWrap,
    /// `DWRAP`: `(old == 0 || old > op0.x) ? op0.x : old - 1` (U32 only).
    DWrap,
    /// ATOMCTR's `INCR` (NV_shader_atomic_counters 2.X.8.Z, ATOMCTR):
    /// increments, returns the value before.
    Incr,
    /// ATOMCTR's `DECR`: decrements, returns the value after.
    Decr,
    /// ATOMCTR's `GET`: reads the counter, stores nothing.
    Get,
}

impl AtomicOp {
    /// The modifier as written.
    pub fn name(self) -> &'static str {
        match self {
            AtomicOp::Add => "ADD",
            AtomicOp::Min => "MIN",
            AtomicOp::Max => "MAX",
            AtomicOp::And => "AND",
            AtomicOp::Or => "OR",
            AtomicOp::Xor => "XOR",
            AtomicOp::Exch => "EXCH",
            AtomicOp::CSwap => "CSWAP",
            AtomicOp::IWrap => "IWRAP",
            AtomicOp::DWrap => "DWRAP",
            AtomicOp::Incr => "INCR",
            AtomicOp::Decr => "DECR",
            AtomicOp::Get => "GET",
        }
    }
}

/// KIL's condition (NV_fragment_program4 2.X.8.Z, KIL).
///
/// ```
/// use nvp4c::ir::{KillCondition, Stmt};
/// let (program, _) = nvp4c::check("!!NVfp4.0\nKIL fragment.color;\nMOV result.color, 1;\nEND\n", &nvp4c::Options::default()).unwrap();
/// let Stmt::Kill { cond, .. } = &program.sub(program.entry).body[0] else { panic!() };
/// assert!(matches!(cond, KillCondition::Operand(_)));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum KillCondition {
    /// Kill if any component of the operand is negative.
    Operand(Operand),
    /// Kill if any component of the test passes.
    Cc(CcTest),
}

/// A sequence of statements.
///
/// ```
/// let (program, _) = nvp4c::check("!!NVfp4.0\nMOV result.color, 1;\nEND\n", &nvp4c::Options::default()).unwrap();
/// let body: &nvp4c::ir::Block = &program.sub(program.entry).body;
/// assert_eq!(body.len(), 1);
/// ```
pub type Block = Vec<Stmt>;

/// A statement: an instruction or flow control (section 2.X.5, 2.X.8.Z).
///
/// ```
/// use nvp4c::ir::Stmt;
/// let source = "!!NVfp4.0\nTEMP t;\nMOVC t, fragment.color;\nREP 3;\nIF GT.x;\nBRK;\nENDIF;\nENDREP;\nMOV result.color, t;\nEND\n";
/// let (program, _) = nvp4c::check(source, &nvp4c::Options::default()).unwrap();
/// let body = &program.sub(program.entry).body;
/// let Stmt::Rep { count: Some(_), body: rep, .. } = &body[1] else { panic!() };
/// let Stmt::If { then_block, else_block, .. } = &rep[0] else { panic!() };
/// assert!(matches!(then_block[..], [Stmt::Break { cond: None, .. }]) && else_block.is_empty());
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Stmt {
    /// An ALU or texture instruction.
    Inst(Instruction),
    /// `IF` test, then and optional `ELSE` blocks.
    If {
        /// The condition code test.
        test: CcTest,
        /// Runs when the test passes for any tested component.
        then_block: Block,
        /// The `ELSE` block (empty without one).
        else_block: Block,
        /// The statement in the source.
        span: Span,
    },
    /// REP with an optional count (section 2.X.8.Z, REP).
    Rep {
        /// The loop count operand; `None` loops until a `BRK`.
        count: Option<Operand>,
        /// The count is read at 64 bits: REP.F64/S64/U64 of a LONG
        /// register (NV_gpu_program5 Table X.13). A 32-bit register's count
        /// is promoted with its value kept, so it is the 32-bit REP.
        count64: bool,
        /// The loop body.
        body: Block,
        /// The statement in the source.
        span: Span,
    },
    /// A counted loop with an index register (NV_fragment_program2 LOOP;
    /// D3D9's `loop aL, i#` has the same form): `control.x` is the loop
    /// count, `control.y` the initial index and `control.z` the increment,
    /// each floored (3.11.X.8). The body runs `count` times (none when
    /// `count` is not positive); before each iteration `index.x` holds the
    /// current index, clamped to be at least 0 ("The value of A0.x is
    /// clamped to be greater than or equal to 0"). BRK and CONT act on it
    /// as on a REP.
    Loop {
        /// The (count, initial index, increment) operand.
        control: Operand,
        /// The signed integer variable the body reads the index from.
        index: VarId,
        /// The loop body.
        body: Block,
        /// The statement in the source.
        span: Span,
    },
    /// `BRA label (ccTest)` (NV_vertex_program2_option 2.14.5.30): execution
    /// continues at the start of `target`, the code after the label, with
    /// the call stack unchanged. The backend lowers a BRA that can loop
    /// ([`Program::branches_loop`]) in a dispatch loop, others as tail
    /// calls (docs/semantics.md, "Branches").
    Branch {
        /// The subroutine (the code after the label) branched to.
        target: SubId,
        /// Branches only where the test passes.
        cond: Option<CcTest>,
        /// The statement in the source.
        span: Span,
    },
    /// `PUSHA a` (NV_vertex_program3 2.14.5.44): pushes an address register
    /// onto the call stack; with MAX_PROGRAM_CALL_DEPTH entries already on
    /// it, the program ends abnormally instead (results undefined).
    PushAddress {
        /// The address register pushed (a whole signed integer vector).
        value: Operand,
        /// The statement in the source.
        span: Span,
    },
    /// `POPA a` (NV_vertex_program3 2.14.5.43): pops the top of the call
    /// stack into an address register; when the stack is empty or its top
    /// was pushed by a CAL, the program ends abnormally instead.
    PopAddress {
        /// The address register written (all four components).
        dst: Dest,
        /// The statement in the source.
        span: Span,
    },
    /// `BRK`, with an optional condition code test.
    Break {
        /// Acts only where the test passes.
        cond: Option<CcTest>,
        /// The statement in the source.
        span: Span,
    },
    /// `CONT`, with an optional condition code test.
    Continue {
        /// Acts only where the test passes.
        cond: Option<CcTest>,
        /// The statement in the source.
        span: Span,
    },
    /// `RET`, with an optional condition code test.
    Return {
        /// Acts only where the test passes.
        cond: Option<CcTest>,
        /// The statement in the source.
        span: Span,
    },
    /// `CAL` of a subroutine, with an optional condition code test.
    Call {
        /// The subroutine called.
        target: SubId,
        /// Acts only where the test passes.
        cond: Option<CcTest>,
        /// The statement in the source.
        span: Span,
    },
    /// `CALI` (ARB_shader_subroutine, "Dependencies on NV_gpu_program5",
    /// 2.X.8.Z CALI): a CAL of the subroutine whose SUBROUTINENUM the
    /// subroutine parameter read by `selector` holds, among the labels of
    /// the subroutine variable's SUBROUTINETYPE.
    CallIndirect {
        /// The subroutine parameter (`program.subroutine[n]` behind the
        /// SUBROUTINE variable, possibly a relatively addressed element):
        /// its `x` is the SUBROUTINENUM, read as an unsigned integer.
        selector: Operand,
        /// The candidates, as (SUBROUTINENUM, subroutine), in increasing
        /// SUBROUTINENUM order, never empty. A parameter value that names
        /// none of them calls the first (the API never sets one: issue (3)
        /// makes it an error, and issue (4) lets a subroutine parameter
        /// without a valid value revert to "a default function of those
        /// associated with it").
        targets: Vec<(u32, SubId)>,
        /// Acts only where the test passes.
        cond: Option<CcTest>,
        /// The statement in the source.
        span: Span,
    },
    /// `KIL` (fragment programs).
    Kill {
        /// When to discard the fragment.
        cond: KillCondition,
        /// The statement in the source.
        span: Span,
    },
    /// `EMIT` (geometry programs).
    Emit {
        /// The statement in the source.
        span: Span,
    },
    /// `EMITS s` (NV_gpu_program5 2.X.8.Z, EMITS; geometry programs): EMIT
    /// to the vertex stream the signed integer scalar `stream` gives.
    EmitStream {
        /// The stream number (its x).
        stream: Operand,
        /// The statement in the source.
        span: Span,
    },
    /// `ENDPRIM` (geometry programs).
    EndPrimitive {
        /// The statement in the source.
        span: Span,
    },
    /// STB: stores `value` (its first `memory.components` components)
    /// to memory.
    Store {
        /// The value stored.
        value: Operand,
        /// Where (boxed, as `Instruction::memory` is: a statement is as
        /// large as its largest variant, and STB is rare).
        memory: Box<MemoryAccess>,
        /// The statement in the source.
        span: Span,
    },
    /// STOREIM: stores `value` to the texel of the image `coord` selects.
    ImageStore {
        /// The value stored.
        value: Operand,
        /// The texel coordinates (a signed integer vector).
        coord: Operand,
        /// The image, target and format (boxed, as `Instruction::image`
        /// is).
        image: Box<ImageAccess>,
        /// The statement in the source.
        span: Span,
    },
    /// BAR: every invocation of the local work group waits here, and
    /// storage memory written before it is visible after it; MEMBAR:
    /// memory transactions before it complete before those after it.
    Barrier {
        /// Which barrier.
        kind: BarrierKind,
        /// The statement in the source.
        span: Span,
    },
}

/// The barriers of NV_compute_program5 and NV_gpu_program5.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BarrierKind {
    /// BAR (NV_compute_program5 2.X.8.Z): an execution barrier of the
    /// local work group.
    Execution,
    /// MEMBAR (NV_gpu_program5 2.X.8.Z): "memory transactions resulting
    /// from any instruction executed by the thread prior to the MEMBAR
    /// instruction complete prior to any memory transactions issued after
    /// the instruction", as observed by every other invocation.
    Memory,
    /// MEMBAR.CTA (NV_compute_program5 2.X.8.Z, MEMBAR): the same order,
    /// observed only by "other shader invocations in the same local work
    /// group".
    MemoryWorkGroup,
}

// Every slot of a block is as large as the largest statement, and a big
// program's entry block stays resident until its function is lowered, so a
// rare statement that grows past an instruction grows every block
// (docs/performance.md, "Session 9 (memory)": STB's and STOREIM's accesses
// inline made a statement 216 bytes).
const _: () = assert!(std::mem::size_of::<Stmt>() <= std::mem::size_of::<Instruction>());

impl Stmt {
    /// The blocks nested directly in this statement: the two sides of an
    /// IF, the body of a REP or LOOP. Every walk over the flow tree goes
    /// through here, so a new kind of block is seen by all of them.
    ///
    /// ```
    /// let src = "!!NVfp4.0\nTEMP t;\nMOVC t, fragment.color;\nIF GT.x;\nMOV result.color, t;\nELSE;\nKIL t;\nENDIF;\nEND\n";
    /// let (program, _) = nvp4c::check(src, &nvp4c::Options::default()).unwrap();
    /// let stmt = &program.sub(program.entry).body[1];
    /// assert_eq!(stmt.blocks().map(|b| b.len()).collect::<Vec<_>>(), [1, 1]);
    /// ```
    pub fn blocks(&self) -> impl Iterator<Item = &Block> {
        let (a, b): (Option<&Block>, Option<&Block>) = match self {
            Stmt::If {
                then_block,
                else_block,
                ..
            } => (Some(then_block), Some(else_block)),
            Stmt::Rep { body, .. } | Stmt::Loop { body, .. } => (Some(body), None),
            _ => (None, None),
        };
        a.into_iter().chain(b)
    }

    /// The operands the statement reads itself (not those of nested
    /// blocks, nor the address operands of relative indices): an
    /// instruction's sources, a REP count, a LOOP control, KIL's operand,
    /// PUSHA's register, CALI's subroutine parameter.
    ///
    /// ```
    /// let (program, _) = nvp4c::check("!!NVfp4.0\nADD result.color, fragment.color, 1;\nEND\n", &nvp4c::Options::default()).unwrap();
    /// assert_eq!(program.sub(program.entry).body[0].operands().count(), 2);
    /// ```
    pub fn operands(&self) -> impl Iterator<Item = &Operand> {
        let (list, one): (&[Operand], Option<&Operand>) = match self {
            Stmt::Inst(i) => (&i.srcs, None),
            Stmt::Rep { count, .. } => (&[], count.as_ref()),
            Stmt::Loop { control, .. } => (&[], Some(control)),
            Stmt::Kill {
                cond: KillCondition::Operand(o),
                ..
            } => (&[], Some(o)),
            Stmt::PushAddress { value, .. } => (&[], Some(value)),
            Stmt::CallIndirect { selector, .. } => (&[], Some(selector)),
            Stmt::EmitStream { stream, .. } => (&[], Some(stream)),
            Stmt::Store { value, .. } => (&[], Some(value)),
            Stmt::ImageStore { value, .. } => (&[], Some(value)),
            _ => (&[], None),
        };
        // A memory access's registers are read too (its offset, a STORAGE
        // range's binding point), and a STOREIM's coordinates.
        let address = self.memory().into_iter().flat_map(MemoryAccess::registers);
        let coord = match self {
            Stmt::ImageStore { coord, .. } => Some(coord),
            _ => None,
        };
        // A register-indexed IMAGE array's index, a bindless handle.
        let image_index = match self {
            Stmt::Inst(i) => i.image.as_deref(),
            Stmt::ImageStore { image, .. } => Some(&**image),
            _ => None,
        }
        .into_iter()
        .flat_map(ImageAccess::registers);
        list.iter()
            .chain(one)
            .chain(address)
            .chain(coord)
            .chain(image_index)
    }

    /// The memory a statement accesses (LDB, ATOMB, STB).
    pub fn memory(&self) -> Option<&MemoryAccess> {
        match self {
            Stmt::Inst(i) => i.memory.as_deref(),
            Stmt::Store { memory, .. } => Some(memory),
            _ => None,
        }
    }

    /// The destination the statement writes, if any (an instruction's,
    /// POPA's).
    pub fn dest(&self) -> Option<&Dest> {
        match self {
            Stmt::Inst(i) => Some(&i.dst),
            Stmt::PopAddress { dst, .. } => Some(dst),
            _ => None,
        }
    }
}
