//! SPIR-V backend: lowers the checked program (`crate::ir`) to a Vulkan
//! SPIR-V module.
//!
//! The work is split by job:
//!
//! * this file — the entry point, errors, module setup and the program
//!   analysis (which subroutines run, which variables are used);
//! * `emit` — types, constants and typed instruction helpers;
//! * `interface` — inputs, outputs, uniform blocks and registers, exactly as
//!   docs/interface.md states them;
//! * the fixed layout of the `State` block (GL state bindings) is the
//!   public [`crate::state`];
//! * `operand` — operand loads (section 2.X.4.2) and destination updates
//!   (section 2.X.4.3), including relative addressing;
//! * `cc` — the condition code registers (sections 2.X.3.7 and 2.X.4.3,
//!   Table X.16);
//! * `alu` — the instructions of section 2.X.8;
//! * `flow` — statements and structured control flow (section 2.X.5);
//! * `geometry` — geometry programs (NV_geometry_program4): execution
//!   modes, per-vertex inputs, EMIT and ENDPRIM;
//! * `recursion` — CAL with the call depth, and call cycles lowered to a
//!   dispatch loop with an explicit return stack (docs/semantics.md);
//! * `texture` — texture units (binding 32 + n) and TEX, TXB, TXD, TXF,
//!   TXL, TXP, TXQ (section 2.X.4.4).
//!
//! The backend never reports source errors: the checker has accepted the
//! program. Anything not lowered yet is an explicit
//! [`LowerError::Unsupported`]; an IR that breaks the checker's guarantees
//! is a [`LowerError::Internal`].

mod alu;
mod cc;
mod debug;
mod emit;
mod fixed_function;
mod flow;
mod geometry;
mod half;
mod image;
pub use geometry::MAX_VERTEX_STREAMS;
mod interface;
mod live;
mod memory;
mod operand;
mod recursion;
#[cfg(test)]
mod tests;
mod texture;
mod thread_group;
mod wide;
mod words;

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::collections::BTreeSet;
use std::fmt;

use rspirv::spirv::{self, StorageClass, Word};
use words::Builder;

use crate::ir::{
    Block, CallOverflow, Index, Operand, Program, Stmt, SubId, SubroutineEnd, Transfer, VarId,
};
use crate::isa::Stage;
use crate::span::Span;
use crate::{Options, TargetEnv};

use emit::{LResult, TypeKey};
pub(crate) use fixed_function::FixedFunction;
use interface::Io;
pub(crate) use interface::{attrib_slot, result_slot, InterfaceSlot};

/// Why a program could not be lowered. Both kinds are internal compiler
/// errors from the user's point of view: the checker accepted the program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LowerError {
    /// A feature the backend does not lower yet (textures, geometry
    /// programs), or an index past a documented bound of the interface
    /// (a `state.*` index or a `program.buffer[b]` outside
    /// docs/interface.md).
    Unsupported { what: String, span: Span },
    /// The IR breaks an invariant the checker guarantees, or the SPIR-V
    /// builder was misused.
    Internal { what: String, span: Span },
}

impl LowerError {
    pub fn span(&self) -> Span {
        match self {
            LowerError::Unsupported { span, .. } | LowerError::Internal { span, .. } => *span,
        }
    }

    pub(crate) fn unsupported(what: impl Into<String>, span: Span) -> LowerError {
        LowerError::Unsupported {
            what: what.into(),
            span,
        }
    }

    pub(crate) fn internal(what: impl Into<String>) -> LowerError {
        LowerError::Internal {
            what: what.into(),
            span: Span::default(),
        }
    }

    pub(crate) fn internal_at(what: impl Into<String>, span: Span) -> LowerError {
        LowerError::Internal {
            what: what.into(),
            span,
        }
    }

    /// Gives a span to an error raised where none was known.
    pub(crate) fn at(self, span: Span) -> LowerError {
        match self {
            LowerError::Internal { what, span: s } if s == Span::default() => {
                LowerError::Internal { what, span }
            }
            LowerError::Unsupported { what, span: s } if s == Span::default() => {
                LowerError::Unsupported { what, span }
            }
            e => e,
        }
    }
}

impl fmt::Display for LowerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LowerError::Unsupported { what, .. } => {
                write!(f, "not supported by the SPIR-V backend yet: {what}")
            }
            LowerError::Internal { what, .. } => {
                write!(f, "internal error in SPIR-V lowering: {what}")
            }
        }
    }
}

impl std::error::Error for LowerError {}

impl From<rspirv::dr::Error> for LowerError {
    fn from(e: rspirv::dr::Error) -> LowerError {
        LowerError::internal(format!("SPIR-V builder: {e}"))
    }
}

/// Lowers a checked program to SPIR-V words for `options.target_env`.
///
/// This is the lowering stage alone, for benchmarks and tools that run
/// their own checks: the words are **not validated** here, whatever
/// `options.validate` says. [`crate::compile`] validates them (unless the
/// caller turned `Options::validate` off) and never returns a module that
/// fails spirv-val.
pub fn lower(program: &Program, options: &Options) -> Result<Vec<u32>, LowerError> {
    lower_with_source(program, options, None)
}

/// [`lower`], given the program text, which `Options::debug_info` puts in
/// the module (OpSource) and uses for the line and column of each
/// instruction (OpLine).
pub fn lower_with_source(
    program: &Program,
    options: &Options,
    source: Option<&str>,
) -> Result<Vec<u32>, LowerError> {
    let analysis = analyze(program, options)?;
    let mut lowerer = Lowerer::new(program, options, &analysis)?;
    lowerer.debug = lowerer.begin_debug_info(source);
    let cycles = lowerer.declare_program(&analysis)?;
    lowerer.lower_functions(&analysis, &cycles, Vec::new())?;
    Ok(lowerer.finish())
}

/// [`lower_with_source`] that frees the program's statements as it lowers
/// them: the bodies of the subroutines lowered as functions are taken out
/// of `program` (they are empty afterwards) and each top-level statement
/// is dropped once its words are written. For a large program the IR and
/// the module's words were both whole at the end of the lowering, the
/// larger part of a compile's peak memory (docs/performance.md, "Session
/// 7"). The words are those of [`lower_with_source`].
pub(crate) fn lower_consuming(
    program: &mut Program,
    options: &Options,
    source: Option<&str>,
) -> Result<Vec<u32>, LowerError> {
    let analysis = analyze(program, options)?;
    // The functions' statements are needed whole until the declarations
    // are made (textures, images, shared memory and the EMIT count scan
    // every body; call cycles are copied into dispatch states), so the
    // lowering first runs over the whole program, then over a copy
    // without the bodies it consumes.
    let consumed: Vec<SubId> = analysis
        .subroutines
        .iter()
        .copied()
        .filter(|&sub| {
            analysis.cycle_of(sub).is_none()
                // A tessellation control program's entry looks into what
                // it calls for reads of the output patch (geometry.rs), so
                // only the entry's own statements go.
                && (program.stage != Stage::TessControl || sub == program.entry)
        })
        .collect();
    let mut shell = program.clone_without_bodies();
    for (sub, shell_sub) in shell.subroutines.iter_mut().enumerate() {
        if !consumed.contains(&SubId(sub as u32)) {
            shell_sub.body = program.subroutines[sub].body.clone();
        }
    }
    let (lowerer, cycles) = {
        let mut lowerer = Lowerer::new(program, options, &analysis)?;
        lowerer.debug = lowerer.begin_debug_info(source);
        let cycles = lowerer.declare_program(&analysis)?;
        (lowerer.rebind(&shell, options), cycles)
    };
    let bodies = consumed
        .iter()
        .map(|&sub| {
            (
                sub,
                std::mem::take(&mut program.subroutines[sub.0 as usize].body),
            )
        })
        .collect();
    let mut lowerer = lowerer;
    lowerer.lower_functions(&analysis, &cycles, bodies)?;
    Ok(lowerer.finish())
}

/// Whether the module declares a capability of SPV_KHR_float_controls
/// (DenormPreserve ... RoundingModeRTZ, 4464-4468).
fn declares_float_controls(words: &[u32]) -> bool {
    let mut at = 5;
    while at < words.len() {
        let (count, opcode) = ((words[at] >> 16) as usize, words[at] & 0xffff);
        if opcode == spirv::Op::Capability as u32
            && words.get(at + 1).is_some_and(|c| (4464..=4468).contains(c))
        {
            return true;
        }
        // Capabilities come first; the first other instruction ends them.
        if opcode != spirv::Op::Capability as u32 || count == 0 {
            return false;
        }
        at += count;
    }
    false
}

/// SPIRV-Tools' name for a target environment.
fn tools_env(env: TargetEnv) -> spirv_tools::TargetEnv {
    match env {
        TargetEnv::Vulkan1_0 => spirv_tools::TargetEnv::Vulkan_1_0,
        TargetEnv::Vulkan1_1 => spirv_tools::TargetEnv::Vulkan_1_1,
        TargetEnv::Vulkan1_2 => spirv_tools::TargetEnv::Vulkan_1_2,
        TargetEnv::Vulkan1_3 => spirv_tools::TargetEnv::Vulkan_1_3,
    }
}

/// Runs the spirv-tools optimiser on a valid module: the performance passes
/// (`spirv-opt -O`), with exhaustive inlining only when `inline` is set.
/// The result is not validated here; [`crate::compile`] validates it again.
///
/// Inlining every call copies a subroutine once per call path, which is
/// exponential in the depth of the call graph: three levels of four calls
/// made a 1 KB program's optimisation take ten seconds, and 32 levels (the
/// call depth limit) would never finish. [`inlining_is_bounded`] decides
/// from the program whether it is safe; Vulkan drivers inline calls
/// themselves, so a module left with calls loses little.
pub fn optimize(words: &[u32], env: TargetEnv, inline: bool) -> Result<Vec<u32>, String> {
    use spirv_tools::opt::{Optimizer, Passes};
    let target = tools_env(env);
    let mut opt = spirv_tools::opt::create(Some(target));
    // spirv-opt's performance recipe (source/opt/optimizer.cpp,
    // RegisterPerformancePasses), without the two passes the C API does not
    // offer (scalar replacement, loop unrolling), with InlineExhaustive only
    // when `inline` is set.
    //
    // With float controls (`Options::preserve_signed_zero_inf_nan`),
    // SPIRV-Tools 2023.1 refuses to fold GLSL.std.450 instructions such as
    // Exp2, Log2, Pow, UMax on constant operands (FoldFPBinaryOp checks
    // IsFloatingPointFoldingAllowed, even for integers); conditional
    // constant propagation then leaves them "not interesting" and aborts the
    // process on its "Unsettled value" assertion. Those modules skip that
    // pass; the folding it would do is the part float controls forbid.
    let float_controls = declares_float_controls(words);
    if inline && !float_controls {
        opt.register_performance_passes();
        return run_optimizer(&opt, words);
    }
    use Passes::*;
    let mut passes = vec![WrapOpKill, DeadBranchElim, MergeReturn];
    if inline {
        passes.push(InlineExhaustive);
    }
    passes.extend([
        EliminateDeadFunctions,
        AggressiveDCE,
        PrivateToLocal,
        LocalSingleBlockLoadStoreElim,
        LocalSingleStoreElim,
        AggressiveDCE,
        LocalAccessChainConvert,
        LocalSingleBlockLoadStoreElim,
        LocalSingleStoreElim,
        AggressiveDCE,
        LocalMultiStoreElim,
        AggressiveDCE,
    ]);
    if !float_controls {
        passes.push(ConditionalConstantPropagation);
    }
    passes.extend([
        AggressiveDCE,
        DeadBranchElim,
        RedundancyElimination,
        CombineAccessChains,
        Simplification,
        LocalAccessChainConvert,
        LocalSingleBlockLoadStoreElim,
        LocalSingleStoreElim,
        AggressiveDCE,
        SSARewrite,
        AggressiveDCE,
        VectorDCE,
        DeadInsertElim,
        DeadBranchElim,
        Simplification,
        IfConversion,
        CopyPropagateArrays,
        ReduceLoadSize,
        AggressiveDCE,
        BlockMerge,
        RedundancyElimination,
        DeadBranchElim,
        BlockMerge,
        Simplification,
    ]);
    for pass in passes {
        opt.register_pass(pass);
    }
    run_optimizer(&opt, words)
}

fn run_optimizer(
    opt: &impl spirv_tools::opt::Optimizer,
    words: &[u32],
) -> Result<Vec<u32>, String> {
    let mut messages = Vec::new();
    opt.optimize(
        words,
        &mut |m: spirv_tools::error::Message| messages.push(m.message),
        None,
    )
    .map(|binary| binary.as_words().to_vec())
    .map_err(|e| {
        if messages.is_empty() {
            e.to_string()
        } else {
            format!("{e}: {}", messages.join("; "))
        }
    })
}

/// Whether inlining every call of `program` keeps it within 4 times its
/// statement count (plus 4096, so small programs always inline): each
/// call costs the callee's inlined size; a recursive cycle (lowered as a
/// loop, not as calls) answers no.
///
/// ```
/// let flat = "!!NVfp4.0\nMOV result.color, 1;\nEND\n";
/// let (program, _) = nvp4c::check(flat, &nvp4c::Options::default()).unwrap();
/// assert!(nvp4c::spirv::inlining_is_bounded(&program));
/// ```
pub fn inlining_is_bounded(program: &Program) -> bool {
    fn statements(block: &crate::ir::Block, calls: &mut Vec<SubId>) -> u64 {
        let mut n = 0u64;
        for s in block {
            n += 1;
            match s {
                // A BRA outside a dispatch loop is a tail call.
                Stmt::Call { target, .. } | Stmt::Branch { target, .. } => calls.push(*target),
                Stmt::CallIndirect { targets, .. } => calls.extend(targets.iter().map(|&(_, t)| t)),
                // IF, REP and LOOP bodies.
                _ => {
                    for b in s.blocks() {
                        n += statements(b, calls);
                    }
                }
            }
        }
        n
    }
    let subs = &program.subroutines;
    let mut own = Vec::with_capacity(subs.len());
    let mut calls = Vec::with_capacity(subs.len());
    for sub in subs {
        let mut c = Vec::new();
        own.push(statements(&sub.body, &mut c));
        if let SubroutineEnd::Continue(next) = sub.end {
            c.push(next);
        }
        calls.push(c);
    }
    if subs.is_empty() {
        return true;
    }
    let last = subs.len() - 1;
    let sub = |id: SubId| (id.0 as usize).min(last);
    // The inlined size of each subroutine, depth first with an explicit
    // stack (a call chain may be thousands of subroutines long).
    let mut inlined: Vec<Option<u64>> = vec![None; subs.len()];
    let mut on_stack = vec![false; subs.len()];
    let entry = sub(program.entry);
    let mut stack = vec![(entry, 0usize)];
    on_stack[entry] = true;
    while let Some((k, next)) = stack.last_mut() {
        let k = *k;
        if let Some(&t) = calls[k].get(*next) {
            *next += 1;
            let t = sub(t);
            if on_stack[t] {
                return false;
            }
            if inlined[t].is_none() {
                on_stack[t] = true;
                stack.push((t, 0));
            }
        } else {
            let n = calls[k].iter().fold(own[k], |n, &t| {
                n.saturating_add(inlined[sub(t)].unwrap_or(u64::MAX))
            });
            inlined[k] = Some(n);
            on_stack[k] = false;
            stack.pop();
        }
    }
    let total: u64 = own.iter().sum();
    inlined[entry].unwrap_or(u64::MAX) <= total.saturating_mul(4).saturating_add(4096)
}

/// Runs spirv-val (in process) on `words` for the given environment.
///
/// A module nvp4c made is valid (E9000 otherwise, a bug), so the check runs
/// first without the validator's friendly-name table: SPIRV-Tools builds it
/// for every module only to name ids in messages, and it was 18 % of a
/// validated compile of the cg200 benchmark (docs/performance.md,
/// "Validation"). Only a module it rejects is validated again, with the
/// names, for the message.
pub fn validate(words: &[u32], env: TargetEnv) -> Result<(), String> {
    use spirv_tools::val::Validator;
    let target = tools_env(env);
    if validates_without_names(words, target) {
        return Ok(());
    }
    match spirv_tools::val::create(Some(target)).validate(words, None) {
        Err(e) => Err(e.to_string()),
        // Names change no rule; if the two runs still disagree, the module
        // is not handed out.
        Ok(()) => Err("spirv-val rejected the module (without a message)".to_string()),
    }
}

extern "C" {
    /// `libspirv.h`: whether the validator builds names for ids
    /// (FriendlyNameMapper) for its messages; on by default.
    fn spvValidatorOptionsSetFriendlyNames(
        options: *mut spirv_tools_sys::val::ValidatorOptions,
        toggle: bool,
    );
}

/// spirv-val's verdict on `words`, with the validator's default rules and
/// no names for messages (none is read).
fn validates_without_names(words: &[u32], target: spirv_tools::TargetEnv) -> bool {
    use spirv_tools_sys::{shared, val};
    let binary = shared::Binary {
        code: words.as_ptr(),
        size: words.len(),
    };
    // SAFETY: the SPIRV-Tools C API (libspirv.h) as spirv-tools' own
    // validator calls it: the context and options are created here, used
    // once and destroyed here; `binary` borrows `words`, which outlive the
    // call; the diagnostic is requested and freed (freeing null is a no-op).
    unsafe {
        let context = shared::context_create(target);
        if context.is_null() {
            return false;
        }
        let options = val::validator_options_create();
        spvValidatorOptionsSetFriendlyNames(options, false);
        let mut diagnostic = std::ptr::null_mut();
        let result = val::validate_with_options(context, options, &binary, &mut diagnostic);
        spirv_tools_sys::diagnostics::diagnostic_destroy(diagnostic);
        val::validator_options_destroy(options);
        shared::context_destroy(context);
        matches!(result, shared::SpirvResult::Success)
    }
}

/// SPIR-V assembly text of a module (for `--emit spvasm`).
pub fn disassemble(words: &[u32]) -> Result<String, String> {
    use spirv_tools::assembler::{Assembler, DisassembleOptions};
    let options = DisassembleOptions {
        color: false,
        ..DisassembleOptions::default()
    };
    match spirv_tools::assembler::create(None).disassemble(words, options) {
        Ok(Some(text)) => Ok(text),
        Ok(None) => Err("the disassembler produced no text".to_string()),
        Err(e) => Err(e.to_string()),
    }
}

/// What the lowering needs to know about the whole program up front.
pub(crate) struct Analysis {
    /// Subroutines reachable from the entry, entry first. Unreachable ones
    /// are not lowered.
    pub subroutines: Vec<SubId>,
    /// Every variable an instruction or statement of a reachable
    /// subroutine names, directly or as a relative address.
    pub variables: BTreeSet<VarId>,
    /// The cyclic strongly connected components of the call graph (each
    /// lowered as one dispatch-loop function, `recursion`), members in
    /// `subroutines` order.
    pub cycles: Vec<Vec<SubId>>,
    /// Whether the program's BRAs can loop (`Program::branches_loop`): it
    /// is then one dispatch loop (the only member of `cycles`) that counts
    /// the instructions it executes against MAX_PROGRAM_EXEC_INSTRUCTIONS.
    pub exec_limit: bool,
    /// Whether CAL must count the call depth at run time: the call graph
    /// has a cycle, or an acyclic chain of calls deeper than
    /// MAX_PROGRAM_CALL_DEPTH (section 2.X.8.Z, CAL; docs/semantics.md),
    /// or the program pushes address registers onto the call stack.
    pub depth_counter: bool,
    /// Whether PUSHA/POPA share the call stack (NV_vertex_program3): the
    /// stack then records what each entry is.
    pub address_stack: bool,
    /// Whether the program can end from inside a called subroutine (the
    /// end of the program text in a CAL'd subroutine, a CAL past the depth
    /// limit that ends the program, an address stack error), so every call
    /// site checks whether it has.
    pub end_flag: bool,
    /// For each BUFFER / BUFFER4 variable, one more than the highest
    /// element an access can reach (the array length for relative
    /// addressing); for each CBUFFER variable, one past the highest byte
    /// of the buffer an LDC can read (its whole range for a register
    /// offset).
    pub buffer_reach: HashMap<VarId, u32>,
    /// Which instructions and registers can affect the program's results
    /// (`live`); temporaries nothing needed reads are not in `variables`.
    pub live: live::Liveness,
    /// A geometry program with EMITS (NV_gpu_program5 2.X.8.Z) anywhere in
    /// its text: it emits to several vertex streams, so EMIT and ENDPRIM
    /// name stream 0 and capture copies the results per stream
    /// (geometry.rs).
    pub multi_stream: bool,
    /// How many statements each reachable subroutine has, nested ones
    /// included (by `SubId`; 0 for the others): what its function body is
    /// reserved for (`BODY_WORDS_PER_STATEMENT`), counted by the analysis'
    /// walk rather than by a walk of its own.
    pub statements: Vec<usize>,
}

impl Analysis {
    /// The index into `cycles` of the component `sub` belongs to.
    pub(crate) fn cycle_of(&self, sub: SubId) -> Option<usize> {
        self.cycles.iter().position(|c| c.contains(&sub))
    }
}

/// Finds the reachable subroutines, the cycles of the call graph (section
/// 2.X.5 allows recursion up to MAX_PROGRAM_CALL_DEPTH; SPIR-V does not,
/// so `recursion` lowers them), and the used variables.
fn analyze(program: &Program, options: &Options) -> Result<Analysis, LowerError> {
    let count = program.subroutines.len();
    if program.entry.0 as usize >= count {
        return Err(LowerError::internal("the entry subroutine does not exist"));
    }
    // Reachable subroutines in depth-first order and the transfers between
    // them (`Program::transfers`). A BRA and execution running on past a
    // label are calls that do not count against the depth (a tail call,
    // or a transfer between states of a dispatch loop): edges of the graph
    // with depth 0 in `longest` below.
    let mut seen = vec![false; count];
    let mut order = Vec::new();
    let mut edges: HashMap<SubId, Vec<SubId>> = HashMap::default();
    let mut calls_to: HashMap<SubId, BTreeSet<SubId>> = HashMap::default();
    let mut stack = vec![program.entry];
    seen[program.entry.0 as usize] = true;
    while let Some(sub) = stack.pop() {
        order.push(sub);
        let mut callees = Vec::new();
        for (kind, target) in program.transfers(sub) {
            if target.0 as usize >= count {
                return Err(LowerError::internal_at(
                    "a transfer to a subroutine that does not exist",
                    program.sub(sub).span,
                ));
            }
            if kind == Transfer::Call {
                calls_to.entry(sub).or_default().insert(target);
            }
            if !callees.contains(&target) {
                callees.push(target);
            }
        }
        for &t in callees.iter().rev() {
            if !seen[t.0 as usize] {
                seen[t.0 as usize] = true;
                stack.push(t);
            }
        }
        edges.insert(sub, callees);
    }
    // Which subroutines each one reaches through one or more transfers;
    // two that reach each other share a cycle.
    let reaches: HashMap<SubId, BTreeSet<SubId>> = order
        .iter()
        .map(|&s| {
            let mut r = BTreeSet::new();
            let mut work: Vec<SubId> = edges.get(&s).cloned().unwrap_or_default();
            while let Some(t) = work.pop() {
                if r.insert(t) {
                    work.extend(edges.get(&t).into_iter().flatten().copied());
                }
            }
            (s, r)
        })
        .collect();
    let exec_limit = program.branches_loop();
    let mut cycles: Vec<Vec<SubId>> = Vec::new();
    if exec_limit {
        // BRAs that loop: the whole program is one dispatch loop, so every
        // instruction it executes is counted against
        // MAX_PROGRAM_EXEC_INSTRUCTIONS (docs/semantics.md, "Branches").
        cycles.push(order.clone());
    } else {
        for &s in &order {
            if !reaches[&s].contains(&s) || cycles.iter().any(|c| c.contains(&s)) {
                continue;
            }
            let members = order
                .iter()
                .copied()
                .filter(|t| reaches[&s].contains(t) && reaches[t].contains(&s))
                .collect();
            cycles.push(members);
        }
    }
    let multi_stream = program.stage == Stage::Geometry
        && program.subroutines.iter().any(|s| {
            let mut found = false;
            walk_stmts(&s.body, &mut |st| {
                found |= matches!(st, Stmt::EmitStream { .. });
            });
            found
        });
    // One walk of the reachable subroutines for what the rest of the
    // analysis reads from their statements: whether any PUSHA / POPA or
    // call is there, the variables named and the BUFFER elements reached
    // (four walks of the whole program were 19.7 M instructions of a 1 MB
    // compile; docs/performance.md, "Session 11").
    let mut address_stack = false;
    let mut calls = false;
    let mut used = UsedVariables {
        used: vec![false; program.variables.len()],
        missing: None,
    };
    let mut buffer_reach = HashMap::default();
    let mut statements = vec![0; count];
    for &sub in &order {
        let mut n = 0;
        walk_stmts(&program.sub(sub).body, &mut |stmt| {
            n += 1;
            match stmt {
                Stmt::PushAddress { .. } | Stmt::PopAddress { .. } => address_stack = true,
                Stmt::Call { .. } => calls = true,
                Stmt::CallIndirect { targets, .. } => calls |= !targets.is_empty(),
                _ => {}
            }
            variables_of(stmt, &mut used);
            buffer_reach_of(program, stmt, &mut buffer_reach);
        });
        statements[sub.0 as usize] = n;
    }
    let depth_counter = address_stack || !cycles.is_empty() || {
        // The longest chain of calls from the entry (acyclic here); running
        // on past a label keeps the depth.
        fn longest(
            s: SubId,
            edges: &HashMap<SubId, Vec<SubId>>,
            calls_to: &HashMap<SubId, BTreeSet<SubId>>,
            memo: &mut HashMap<SubId, u32>,
        ) -> u32 {
            if let Some(&d) = memo.get(&s) {
                return d;
            }
            let d = edges
                .get(&s)
                .into_iter()
                .flatten()
                .map(|&t| {
                    let call = calls_to.get(&s).is_some_and(|c| c.contains(&t));
                    u32::from(call) + longest(t, edges, calls_to, memo)
                })
                .max()
                .unwrap_or(0);
            memo.insert(s, d);
            d
        }
        longest(program.entry, &edges, &calls_to, &mut HashMap::default())
            > options.limits.max_call_depth
    };
    // The program can end inside a call: at the end of the text reached in
    // a CAL'd subroutine, at a CAL past the depth limit when that ends the
    // program, or at an address stack error.
    let end_flag = address_stack
        || (depth_counter && program.call_overflow == CallOverflow::End)
        || (calls
            && order
                .iter()
                .any(|&s| program.sub(s).end == SubroutineEnd::EndProgram));
    if let Some(v) = used.missing {
        return Err(LowerError::internal(format!(
            "variable #{v} does not exist"
        )));
    }
    let mut variables: BTreeSet<VarId> = (0..used.used.len())
        .filter(|&v| used.used[v])
        .map(|v| VarId(v as u32))
        .collect();
    let live = live::Liveness::of(program, &order);
    variables.retain(|&v| live.var_live(v));
    if !live.has_effects() {
        // Nothing to observe: `main` stays empty (live.rs), so no other
        // subroutine, call stack or depth counter is needed.
        return Ok(Analysis {
            subroutines: vec![program.entry],
            variables,
            cycles: Vec::new(),
            exec_limit: false,
            depth_counter: false,
            address_stack: false,
            end_flag: false,
            buffer_reach,
            live,
            multi_stream,
            statements,
        });
    }
    Ok(Analysis {
        subroutines: order,
        variables,
        cycles,
        exec_limit,
        depth_counter,
        address_stack,
        end_flag,
        buffer_reach,
        live,
        multi_stream,
        statements,
    })
}

/// Records, for every BUFFER variable an operand of `stmt` reads, the
/// highest element + 1 it can reach.
fn buffer_reach_of(program: &Program, stmt: &Stmt, out: &mut HashMap<VarId, u32>) {
    fn operand(program: &Program, op: &Operand, out: &mut HashMap<VarId, u32>) {
        // A BUFFER range whose binding point a register picks reads the
        // same element of each of them.
        let (vars, index) = match &op.index {
            Index::BufferRange(range) => {
                operand(program, &range.select.index, out);
                (&range.select.vars[..], &range.element)
            }
            index => (std::slice::from_ref(&op.var), index),
        };
        for &id in vars {
            if let Some(var) = program.variables.get(id.0 as usize) {
                if matches!(var.kind, crate::ir::VarKind::Buffer(_)) {
                    let reach = match index {
                        Index::Absolute(n) => n.saturating_add(1),
                        Index::None => 1,
                        _ => var.len(),
                    };
                    let r = out.entry(id).or_insert(0);
                    *r = (*r).max(reach.min(var.len()));
                }
            }
        }
        if let Index::Relative { address, .. } = index {
            operand(program, address, out);
        }
    }
    for op in stmt.operands() {
        operand(program, op, out);
    }
    // LDC (NV_parameter_buffer_object2 2.X.8.Z): the bytes its storage
    // modifier reads from the offset; with a register offset, the
    // variable's whole byte range.
    if let Stmt::Inst(inst) = stmt {
        if let Some(m) = &inst.memory {
            if let Some(crate::ir::VarKind::ConstantBuffer(b)) =
                program.variables.get(m.var.0 as usize).map(|v| &v.kind)
            {
                let end = match m.address {
                    Some(_) => b.first.saturating_add(program.var(m.var).len()),
                    None => m
                        .offset
                        .saturating_add(u32::from(m.bits / 8) * u32::from(m.components)),
                };
                // A CBUFFER range whose binding point a register
                // picks reads the same bytes of each of them.
                let picked = m.buffer_select.as_ref().map(|s| &s.vars[..]);
                for &var in picked.unwrap_or(std::slice::from_ref(&m.var)) {
                    let r = out.entry(var).or_insert(0);
                    *r = (*r).max(end);
                }
            }
        }
    }
}

/// About how many words one statement adds to its function's body and
/// the decorations, rounded up: 64 and 6 for the generated Cg-style
/// program of docs/performance.md (every operand an OpLoad and a swizzle,
/// every write a load, a shuffle and a store; a NoContraction per rounded
/// operation). The body of a function, which becomes the module in place
/// (`words::Builder::assemble`), is reserved for this many per statement
/// before it is lowered: a buffer that grows by doubling is copied at each
/// step, and the allocator may keep the old copy's pages for a while; for
/// a 10 MB program that was a fifth of the peak memory ("Session 6").
/// Room reserved and never written costs address space, not memory; a
/// body that needs more grows as before.
const BODY_WORDS_PER_STATEMENT: usize = 80;

/// Calls `f` on every statement of `block` and of the blocks nested in it.
pub(crate) fn walk_stmts(block: &Block, f: &mut dyn FnMut(&Stmt)) {
    for stmt in block {
        f(stmt);
        for b in stmt.blocks() {
            walk_stmts(b, f);
        }
    }
}

/// The variables a program's statements name: a flag per id instead of a
/// `BTreeSet` insert for every operand, which was 1 % of a large compile
/// (docs/performance.md, "Session 8").
struct UsedVariables {
    used: Vec<bool>,
    /// The lowest id named that is not a variable of the program.
    missing: Option<u32>,
}

impl UsedVariables {
    fn mark(&mut self, v: VarId) {
        match self.used.get_mut(v.0 as usize) {
            Some(u) => *u = true,
            None => self.missing = Some(self.missing.map_or(v.0, |m| m.min(v.0))),
        }
    }
}

/// Marks the variables `stmt` names.
fn variables_of(stmt: &Stmt, used: &mut UsedVariables) {
    fn operand(op: &Operand, used: &mut UsedVariables) {
        used.mark(op.var);
        index(&op.index, used);
    }
    fn index(ix: &Index, used: &mut UsedVariables) {
        match ix {
            Index::Relative { address, .. } => operand(address, used),
            Index::PerVertex(per_vertex) => {
                index(&per_vertex.vertex, used);
                index(&per_vertex.element, used);
            }
            // Every binding point the register may pick is declared.
            Index::BufferRange(range) => {
                for &v in &range.select.vars {
                    used.mark(v);
                }
                operand(&range.select.index, used);
                index(&range.element, used);
            }
            Index::None | Index::Absolute(_) => {}
        }
    }
    if let Some(dst) = stmt.dest() {
        used.mark(dst.var);
        index(&dst.index, used);
    }
    if let Stmt::Loop { index: var, .. } = stmt {
        used.mark(*var);
    }
    for op in stmt.operands() {
        operand(op, used);
    }
    // Every binding point a register may pick on a CBUFFER or STORAGE
    // range is declared.
    if let Some(select) = stmt.memory().and_then(|m| m.buffer_select.as_ref()) {
        for &v in &select.vars {
            used.mark(v);
        }
    }
}

/// Where BRK and CONT of the innermost REP or LOOP go.
#[derive(Clone, Copy)]
pub(crate) struct LoopTargets {
    pub merge: Word,
    pub continue_target: Word,
}

/// The state of one lowering.
pub(crate) struct Lowerer<'a> {
    pub program: &'a Program,
    pub options: &'a Options,
    pub b: Builder,
    pub glsl_set: Word,
    // Fx-hashed: looked up for nearly every emitted instruction.
    pub types: rustc_hash::FxHashMap<TypeKey, Word>,
    /// The scalar and vector types of `emit::t`, by component type and
    /// size (0 = not made yet): asked for by nearly every emitted
    /// instruction, where even the Fx-hashed `types` lookup was 4 % of a
    /// large compile (docs/performance.md).
    pub value_types: [[Word; 4]; emit::Comp::COUNT],
    pub consts: emit::ConstCache,
    /// How each used variable is stored.
    pub storage: interface::VarStorage,
    /// Interface variables and uniform blocks.
    pub io: Io,
    /// CC0 and CC1 (created on first use).
    pub cc_regs: [Option<Word>; 2],
    /// Every global variable with its storage class, for the entry point's
    /// interface list.
    pub globals: Vec<(Word, StorageClass)>,
    /// One OpFunction per reachable subroutine outside call cycles (and
    /// the entry, always).
    pub functions: HashMap<SubId, Word>,
    /// Subroutines of call cycles: the dispatch function of their cycle
    /// and the state that starts them (`recursion`).
    pub cycle_entries: HashMap<SubId, (Word, u32)>,
    /// The run-time call depth (a Private `uint`), when CAL must check
    /// MAX_PROGRAM_CALL_DEPTH.
    pub call_depth: Option<Word>,
    /// The call stack's entries when PUSHA/POPA share it: a Private `ivec4`
    /// array of pushed address registers and a `uint` array saying which
    /// entries are addresses (1) rather than CALs (0).
    pub address_stack: Option<(Word, Word)>,
    /// A Private `bool` set when the program ends inside a call; every
    /// call site returns when it is set.
    pub ended: Option<Word>,
    /// The count of instructions executed (a Private uint), in a program
    /// whose BRAs loop (`Analysis::exec_limit`).
    pub executed: Option<Word>,
    /// REP nesting of the function being lowered.
    pub loops: Vec<LoopTargets>,
    /// Registers live in Private storage (the program has more than one
    /// function), otherwise in the entry function.
    pub private_registers: bool,
    capabilities: HashSet<u32>,
    /// Geometry programs whose EMITs can exceed VERTICES_OUT: the number
    /// of vertices emitted so far (a Private `uint`, geometry.rs).
    pub emit_count: Option<Word>,
    /// What the lowering may leave out (`live`).
    pub live: live::Liveness,
    /// The fixed-function work of options around the program.
    pub fixed: FixedFunction,
    /// Source locations, with `Options::debug_info`.
    pub debug: Option<debug::DebugInfo>,
    /// `ARB_precision_hint_fastest`: float results are RelaxedPrecision.
    pub relax_floats: bool,
    /// Whether the statement being lowered runs in the entry subroutine
    /// outside any IF, REP or LOOP: where every invocation of a
    /// tessellation control program is (its output-patch barriers).
    pub(crate) uniform_flow: bool,
    /// The `SubgroupLocalInvocationId` and `SubgroupSize` inputs, declared
    /// by the first shuffle (thread_group.rs).
    pub(crate) subgroup_inputs: Option<(Word, Word)>,
    /// Registers' values known in the straight-line code being emitted.
    pub(crate) register_values: operand::RegisterValues,
    /// The operands `alu::lower_instruction` loaded for the instruction it
    /// lowers (kept to reuse its allocation).
    pub(crate) loaded_operands: Vec<operand::Loaded>,
}

impl<'a> Lowerer<'a> {
    fn new(
        program: &'a Program,
        options: &'a Options,
        analysis: &Analysis,
    ) -> Result<Self, LowerError> {
        if program.stage == Stage::Geometry && program.geometry.is_none() {
            return Err(LowerError::internal(
                "a geometry program without PRIMITIVE_IN / PRIMITIVE_OUT / VERTICES_OUT",
            ));
        }
        let mut b = Builder::new();
        let (major, minor) = options.target_env.spirv_version();
        b.set_version(major, minor);
        let glsl_set = b.ext_inst_import("GLSL.std.450");
        // LOAD, STORE and ATOM address memory by GPU address: pointers made
        // from 64-bit integers (memory.rs; docs/interface.md, "GPU
        // addresses").
        let gpu_addresses = program
            .variables
            .iter()
            .any(|v| matches!(v.kind, crate::ir::VarKind::GlobalMemory));
        let addressing = if gpu_addresses {
            spirv::AddressingModel::PhysicalStorageBuffer64
        } else {
            spirv::AddressingModel::Logical
        };
        b.memory_model(addressing, spirv::MemoryModel::GLSL450);
        let mut l = Lowerer {
            program,
            options,
            b,
            glsl_set,
            types: Default::default(),
            value_types: [[0; 4]; emit::Comp::COUNT],
            consts: Default::default(),
            storage: interface::VarStorage::default(),
            io: Io::default(),
            cc_regs: [None, None],
            globals: Vec::new(),
            functions: HashMap::default(),
            cycle_entries: HashMap::default(),
            call_depth: None,
            address_stack: None,
            ended: None,
            executed: None,
            loops: Vec::new(),
            private_registers: analysis.subroutines.len() > 1 || !analysis.cycles.is_empty(),
            capabilities: HashSet::default(),
            emit_count: None,
            live: analysis.live.clone(),
            fixed: FixedFunction::of(program, options),
            debug: None,
            relax_floats: program.precision_hint_fastest(),
            uniform_flow: false,
            subgroup_inputs: None,
            register_values: operand::RegisterValues::default(),
            loaded_operands: Vec::new(),
        };
        l.capability(spirv::Capability::Shader);
        if gpu_addresses {
            l.capability(spirv::Capability::PhysicalStorageBufferAddresses);
        }
        if program.stage == Stage::Geometry {
            l.capability(spirv::Capability::Geometry);
        }
        if matches!(program.stage, Stage::TessControl | Stage::TessEval) {
            l.capability(spirv::Capability::Tessellation);
        }
        Ok(l)
    }

    /// The name of the program's entry function: the entry point's, or
    /// `program` when the entry point is a wrapper running fixed-function
    /// work after it.
    pub(crate) fn entry_function_name(&self) -> String {
        if self.fixed.wraps_program() {
            "program".to_string()
        } else {
            self.options.entry_point.clone()
        }
    }

    pub(crate) fn capability(&mut self, cap: spirv::Capability) {
        if self.capabilities.insert(cap as u32) {
            self.b.capability(cap);
        }
    }

    /// Whether KIL uses OpDemoteToHelperInvocation (SPIR-V 1.6 core)
    /// rather than OpKill.
    pub(crate) fn demote_for_kill(&self) -> bool {
        self.options.target_env.spirv_version() >= (1, 6)
    }

    /// The same lowering state over `program`, a copy of the one it was
    /// made for (`lower_consuming`), with the same `options`.
    fn rebind<'b>(self, program: &'b Program, options: &'b Options) -> Lowerer<'b> {
        Lowerer {
            program,
            options,
            b: self.b,
            glsl_set: self.glsl_set,
            types: self.types,
            value_types: self.value_types,
            consts: self.consts,
            storage: self.storage,
            io: self.io,
            cc_regs: self.cc_regs,
            globals: self.globals,
            functions: self.functions,
            cycle_entries: self.cycle_entries,
            call_depth: self.call_depth,
            address_stack: self.address_stack,
            ended: self.ended,
            executed: self.executed,
            loops: self.loops,
            private_registers: self.private_registers,
            capabilities: self.capabilities,
            emit_count: self.emit_count,
            live: self.live,
            fixed: self.fixed,
            debug: self.debug,
            relax_floats: self.relax_floats,
            uniform_flow: self.uniform_flow,
            subgroup_inputs: self.subgroup_inputs,
            register_values: self.register_values,
            loaded_operands: self.loaded_operands,
        }
    }

    /// The declarations before the first function, and the call cycles
    /// flattened into the states of their dispatch functions.
    fn declare_program(
        &mut self,
        analysis: &Analysis,
    ) -> Result<Vec<(Word, recursion::Flat)>, LowerError> {
        self.declare_variables(analysis)?;
        self.declare_textures(analysis)?;
        self.declare_images(analysis)?;
        if analysis.depth_counter {
            let uint = self.t(emit::Comp::U32, 1);
            let zero = self.c_u32(0);
            let var = self.global_variable(uint, StorageClass::Private, Some(zero), "call_depth");
            self.call_depth = Some(var);
        }
        if analysis.address_stack {
            let n = self.options.limits.max_call_depth.max(1);
            let ivec4 = self.t(emit::Comp::I32, 4);
            let uint = self.t(emit::Comp::U32, 1);
            let values_ty = self.t_array(ivec4, n);
            let kinds_ty = self.t_array(uint, n);
            let values =
                self.global_variable(values_ty, StorageClass::Private, None, "address_stack");
            let kinds = self.global_variable(kinds_ty, StorageClass::Private, None, "stack_kinds");
            self.address_stack = Some((values, kinds));
        }
        if analysis.end_flag {
            let bool_ty = self.t(emit::Comp::Bool, 1);
            let f = self.b.constant_false(bool_ty);
            let var = self.global_variable(bool_ty, StorageClass::Private, Some(f), "ended");
            self.ended = Some(var);
        }
        if analysis.exec_limit {
            let uint = self.t(emit::Comp::U32, 1);
            let zero = self.c_u32(0);
            let var = self.global_variable(uint, StorageClass::Private, Some(zero), "executed");
            self.executed = Some(var);
        }
        self.declare_transform_feedback(analysis)?;
        if self.program.stage == Stage::Geometry {
            self.declare_emit_count(analysis)?;
        }
        // Flatten each call cycle into the states of one dispatch function.
        let mut flat_cycles = Vec::with_capacity(analysis.cycles.len());
        for members in &analysis.cycles {
            let flat = recursion::flatten(self.program, members)?;
            let function = self.b.id();
            for (&sub, &state) in &flat.entries {
                self.cycle_entries.insert(sub, (function, state));
            }
            flat_cycles.push((function, flat));
        }
        for &sub in &analysis.subroutines {
            if sub == self.program.entry || analysis.cycle_of(sub).is_none() {
                let id = self.b.id();
                self.functions.insert(sub, id);
            }
        }
        Ok(flat_cycles)
    }

    /// The functions, the entry point and the execution modes. `bodies`
    /// are the statements of subroutines taken out of the program
    /// (`lower_consuming`), lowered from there and freed as they go.
    fn lower_functions(
        &mut self,
        analysis: &Analysis,
        flat_cycles: &[(Word, recursion::Flat)],
        mut bodies: Vec<(SubId, Block)>,
    ) -> Result<(), LowerError> {
        for &sub in &analysis.subroutines {
            let is_entry = sub == self.program.entry;
            if analysis.cycle_of(sub).is_none() {
                let body = bodies
                    .iter()
                    .position(|&(s, _)| s == sub)
                    .map(|at| bodies.swap_remove(at).1);
                self.lower_subroutine(sub, is_entry, analysis, body)?;
            } else if is_entry {
                self.lower_entry_wrapper(sub)?;
            }
        }
        for (function, flat) in flat_cycles {
            self.lower_cycle(*function, flat)?;
        }
        let program_main = self
            .functions
            .get(&self.program.entry)
            .copied()
            .ok_or_else(|| LowerError::internal("the entry subroutine was not lowered"))?;
        let main = if self.fixed.wraps_program() {
            self.lower_fixed_function_main(program_main)?
        } else {
            program_main
        };
        let model = match self.program.stage {
            Stage::Vertex => spirv::ExecutionModel::Vertex,
            Stage::Fragment => spirv::ExecutionModel::Fragment,
            Stage::Geometry => spirv::ExecutionModel::Geometry,
            Stage::TessControl => spirv::ExecutionModel::TessellationControl,
            Stage::TessEval => spirv::ExecutionModel::TessellationEvaluation,
            Stage::Compute => spirv::ExecutionModel::GLCompute,
        };
        // SPIR-V 1.4 and later list every global the entry point uses;
        // before that, only Input and Output variables.
        let all_globals = self.options.target_env.spirv_version() >= (1, 4);
        let interface: Vec<Word> = self
            .globals
            .iter()
            .filter(|(_, class)| {
                all_globals || matches!(class, StorageClass::Input | StorageClass::Output)
            })
            .map(|&(id, _)| id)
            .collect();
        self.b
            .entry_point(model, main, self.options.entry_point.as_str(), interface);
        if self.options.preserve_signed_zero_inf_nan {
            // Without this mode Vulkan may change the sign of a zero and
            // does not promise IEEE infinities and NaNs (lavapipe, for one,
            // folds `x < 0 ? -1.0 : 0.0` into a negation that gives -0.0).
            // The spec's results are exact IEEE values, so on request the
            // module asks for them (VK_KHR_shader_float_controls,
            // shaderSignedZeroInfNanPreserveFloat32).
            self.capability(spirv::Capability::SignedZeroInfNanPreserve);
            if self.options.target_env.spirv_version() < (1, 4) {
                self.b.extension("SPV_KHR_float_controls");
            }
            self.b
                .execution_mode(main, spirv::ExecutionMode::SignedZeroInfNanPreserve, [32]);
        }
        if self.program.stage == Stage::Fragment {
            self.b
                .execution_mode(main, spirv::ExecutionMode::OriginUpperLeft, []);
            if self.io.writes_depth {
                self.b
                    .execution_mode(main, spirv::ExecutionMode::DepthReplacing, []);
            }
        }
        if self.program.stage == Stage::Geometry {
            self.geometry_execution_modes(main)?;
        }
        self.program_type_execution_modes(main)?;
        // Transform feedback capture (geometry.rs, declare_transform_feedback).
        if self.io.xfb {
            self.b.execution_mode(main, spirv::ExecutionMode::Xfb, []);
        }
        Ok(())
    }

    /// One OpFunction per subroutine; the entry subroutine is `main`
    /// itself, so RET there ends the program (section 2.X.8.Z, RET).
    /// `owned` is the subroutine's body when it was taken out of the
    /// program (`lower_consuming`): each statement is freed once lowered.
    fn lower_subroutine(
        &mut self,
        sub: SubId,
        is_entry: bool,
        analysis: &Analysis,
        owned: Option<Block>,
    ) -> Result<(), LowerError> {
        let subroutine = self.program.sub(sub);
        let id = self.functions.get(&sub).copied().ok_or_else(|| {
            LowerError::internal_at("subroutine without a function id", subroutine.span)
        })?;
        let void = self.t_void();
        let fn_ty = self.t_void_fn();
        let statements = analysis.statements.get(sub.0 as usize).copied();
        self.b
            .reserve_body(statements.unwrap_or(0) * BODY_WORDS_PER_STATEMENT);
        self.b
            .begin_function(void, Some(id), spirv::FunctionControl::NONE, fn_ty)?;
        let name = match &subroutine.name {
            Some(n) => n.clone(),
            None if is_entry => self.entry_function_name(),
            None => format!("sub{}", sub.0),
        };
        self.b.name(id, name);
        self.b.begin_block(None)?;
        if is_entry && !self.private_registers {
            self.declare_function_registers(analysis)?;
        }
        if is_entry && matches!(self.program.stage, Stage::TessEval | Stage::Vertex) {
            self.write_default_point_size()?;
        }
        self.loops.clear();
        self.uniform_flow = is_entry;
        if self.live.has_effects() {
            match owned {
                Some(body) => self.lower_owned_block(body)?,
                None => self.lower_block(&subroutine.body)?,
            }
            if self.b.selected_block().is_some() {
                self.lower_subroutine_end(subroutine.end, is_entry)?;
            }
        }
        if self.b.selected_block().is_some() {
            self.b.ret()?;
        }
        self.b.end_function()?;
        Ok(())
    }

    /// What happens at the end of a subroutine's body: a return, a tail
    /// call of the code after the next label (execution runs on, the call
    /// depth unchanged), or the end of the program.
    fn lower_subroutine_end(&mut self, end: SubroutineEnd, is_entry: bool) -> LResult<()> {
        match end {
            SubroutineEnd::Return => Ok(()),
            SubroutineEnd::Continue(next) => {
                self.call_function(next, Span::default())?;
                Ok(self.b.ret()?)
            }
            SubroutineEnd::EndProgram => {
                if !is_entry {
                    self.end_program()?;
                }
                Ok(())
            }
        }
    }

    /// Ends the program from any call depth: sets the `ended` flag (each
    /// call site then returns) and returns.
    pub(crate) fn end_program(&mut self) -> LResult<()> {
        if let Some(flag) = self.ended {
            let bool_ty = self.t(emit::Comp::Bool, 1);
            let t = self.b.constant_true(bool_ty);
            self.b.store(flag, t, None, [])?;
        }
        Ok(self.b.ret()?)
    }

    /// Declares an OpVariable at the top of the current function's first
    /// block (where SPIR-V requires Function variables to be).
    pub(crate) fn function_variable(
        &mut self,
        pointee: Word,
        name: Option<&str>,
    ) -> Result<Word, LowerError> {
        self.function_variable_init(pointee, name, None)
    }

    /// `function_variable` with an initial value (a constant id).
    pub(crate) fn function_variable_init(
        &mut self,
        pointee: Word,
        name: Option<&str>,
        init: Option<Word>,
    ) -> Result<Word, LowerError> {
        let ptr_ty = self.t_ptr(StorageClass::Function, pointee);
        let id = self.b.id();
        self.b.function_variable(ptr_ty, id, init)?;
        if let Some(name) = name {
            self.b.name(id, name);
        }
        Ok(id)
    }

    /// A global variable, recorded for the entry point's interface.
    pub(crate) fn global_variable(
        &mut self,
        pointee: Word,
        class: StorageClass,
        initializer: Option<Word>,
        name: &str,
    ) -> Word {
        let ptr_ty = self.t_ptr(class, pointee);
        let id = self.b.id();
        let mut operands = vec![rspirv::dr::Operand::StorageClass(class)];
        if let Some(init) = initializer {
            operands.push(rspirv::dr::Operand::IdRef(init));
        }
        // Straight into the global section: `Builder::variable` would put
        // it into the block under construction.
        let inst =
            rspirv::dr::Instruction::new(spirv::Op::Variable, Some(ptr_ty), Some(id), operands);
        self.b
            .insert_types_global_values(rspirv::dr::InsertPoint::End, inst);
        self.b.name(id, name);
        self.globals.push((id, class));
        id
    }

    fn finish(self) -> Vec<u32> {
        self.b.assemble()
    }
}

#[cfg(test)]
mod consuming_tests {
    use crate::Options;

    /// `lower_consuming` frees the statements as it lowers them; the words
    /// must be those of `lower_with_source`, which borrows the program:
    /// dead IFs (found by what they contain, not where they are), nested
    /// flow, subroutines, a call cycle (whose bodies stay) and a
    /// tessellation control program (whose callees stay).
    #[test]
    fn consuming_the_program_gives_the_words_of_borrowing_it() {
        let programs = [
            "!!NVvp4.0\nTEMP t, u;\nMOVC t, vertex.position;\nIF GT.x;\n MUL u, t, t;\n IF LT.y;\n  ADD u, u, t;\n ENDIF;\nENDIF;\nIF GT.y;\n MOV result.position, t;\nELSE;\n MOV result.position, -t;\nENDIF;\nREP 3;\n ADD t, t, 1;\nENDREP;\nCAL sub;\nMOV result.color, t;\nRET;\nsub:\nADD t, t, 2;\nRET;\nEND\n",
            "!!NVfp4.0\nTEMP t;\nMOV t, fragment.color;\nCAL a;\nMOV result.color, t;\nRET;\na:\nSUBC t.x, t.x, 1;\nCAL b (GT.x);\nRET;\nb:\nCAL a;\nRET;\nEND\n",
            "!!NVtcp5.0\nVERTICES_OUT 3;\nTEMP t;\nCAL s;\nMOV result.patch.attrib[0], t;\nRET;\ns:\nMOV t, vertex.out[0].position;\nRET;\nEND\n",
        ];
        for text in programs {
            let options = Options::default();
            let (mut program, _) = crate::check(text, &options).expect(text);
            let borrowed = super::lower_with_source(&program, &options, Some(text)).unwrap();
            let consumed = super::lower_consuming(&mut program, &options, Some(text)).unwrap();
            assert_eq!(borrowed, consumed, "{text}");
            assert!(
                program.subroutines[program.entry.0 as usize]
                    .body
                    .is_empty(),
                "{text}"
            );
        }
    }

    /// An entry block of more statements than
    /// `flow::BIG_BLOCK_STATEMENTS`: the pages of its lowered part are
    /// given back (elsewhere than on Unix, what is left is moved to smaller
    /// buffers) several times while it is lowered, with an IF (and a
    /// conditional RET, after which the block goes on) among them, and the
    /// words are those of lowering the borrowed program.
    #[test]
    fn freeing_the_lowered_part_of_a_big_block_gives_the_same_words() {
        let mut text = String::from("!!NVvp4.0\nTEMP t;\nMOVC t, vertex.position;\n");
        for i in 0..3 * super::flow::BIG_BLOCK_STATEMENTS {
            text.push_str(match i % 1000 {
                500 => "IF GT.x;\n MUL t, t, 0.5;\nENDIF;\n",
                999 => "RET (LT.w);\n",
                _ => "ADD t.x, t, 1;\n",
            });
        }
        text.push_str("MOV result.position, t;\nEND\n");
        let mut options = Options::default();
        options.limits.max_instructions = u32::MAX;
        let (mut program, _) = crate::check(&text, &options).unwrap();
        let borrowed = super::lower_with_source(&program, &options, Some(&text)).unwrap();
        let consumed = super::lower_consuming(&mut program, &options, Some(&text)).unwrap();
        assert!(borrowed == consumed, "the words differ");
    }
}
