//! Instructions: opcode and modifiers (Tables X.13 to X.15, section
//! 2.X.4.1), operands (2.X.4.2) and destinations (2.X.4.3), all driven by
//! the instruction table and the program's dialect (which column of the
//! table applies, and the dialect's properties: condition code registers,
//! address registers, scalar constants, ...).

use super::bindings::{self, decode, Binding};
use super::flow::Flat;
use super::program_type::TextureUse;
use super::suggest::did_you_mean;
use super::Checker;
use crate::diag::Diagnostic;
use crate::ir::{
    self, BarrierKind, CcReg, CcTest, Clamp, Index, Literal, MulMode, Swizzle, VarId, VarKind,
    VarType, Variable, WriteMask,
};
use crate::isa::{
    split_opcode, AddressModel, CcCondition, DataType, Dialect, Features, Modifier, ModifierKind,
    ModifierSupport, OpInfo, Opcode, OperandKind, ResultKind, Shape, SplitOpcode, Stage,
    INSTRUCTIONS,
};
use crate::span::Span;
use crate::syntax::ast::{
    self, Arg, CcMask, Ident, IndexExpr, Number, Path, PathHead, PathPart, SignedNumber,
};

/// The decoded modifiers of one instruction.
struct Mods {
    ty: DataType,
    half: bool,
    fixed: bool,
    clamp: Option<Clamp>,
    cc_update: Option<CcReg>,
    ntc: bool,
    mul_mode: Option<MulMode>,
    /// `.F64`, `.S64`, `.U64`: the operation runs at 64-bit precision.
    precision64: bool,
}

const SWIZZLE_NOTE: &str = "section 2.X.4.2: a swizzle is one component (`.x`) or four (`.xyzw`), all from xyzw or all from rgba";

impl Checker<'_> {
    pub(super) fn instruction(&mut self, inst: &ast::Instruction) -> Option<Flat> {
        let flat = self.instruction_checked(inst);
        if flat.is_some() {
            return flat;
        }
        // A flow instruction that is wrong still opens or closes its block,
        // so one mistake does not also unbalance every block after it.
        let span = inst.span;
        let op = split_opcode(&inst.opcode.name).ok().map(|s| s.info.opcode);
        let dummy = CcTest {
            condition: CcCondition::Tr,
            reg: CcReg(0),
            swizzle: Swizzle::IDENTITY,
        };
        match op? {
            Opcode::If => Some(Flat::If(dummy, span)),
            Opcode::Else => Some(Flat::Else(span)),
            Opcode::Endif => Some(Flat::EndIf(span)),
            Opcode::Rep => Some(Flat::BrokenRep(span)),
            Opcode::Endrep => Some(Flat::EndRep(span)),
            Opcode::Loop => {
                // Its block still opens, with an index so that `A0` inside
                // is not reported again.
                let index = self.loop_index_var(span);
                self.loop_indices.push(index);
                Some(Flat::BrokenLoop(span))
            }
            Opcode::Endloop => {
                self.loop_indices.pop();
                Some(Flat::EndLoop(span))
            }
            Opcode::Brk => Some(Flat::Brk(None, span)),
            Opcode::Ret => Some(Flat::Ret(None, span)),
            _ => None,
        }
    }

    fn instruction_checked(&mut self, inst: &ast::Instruction) -> Option<Flat> {
        // Split once: the suffixes are the modifiers' first part.
        let split = self.opcode(&inst.opcode)?;
        let info = split.info;
        if let Some(only) = info.only_stage {
            if only != self.stage {
                self.error(
                    Diagnostic::error(
                        "E0410",
                        format!("{} is not available in {} programs", info.name, self.stage),
                    )
                    .primary(inst.opcode.span, format!("{} only", only))
                    .note(format!(
                        "{}: \"{} is available only to {} programs.\"",
                        info.section, info.name, only
                    )),
                );
                return None;
            }
        }
        if info.in_dialect(self.dialect).is_none() {
            let rule = format!(
                "{} ({}) exists in {}",
                info.name,
                info.section,
                info.languages()
                    .filter_map(|c| c.describe_for(self.stage))
                    .collect::<Vec<_>>()
                    .join("; ")
            );
            self.unavailable(
                &format!("the {} instruction", info.name),
                inst.opcode.span,
                |d| info.in_dialect(d).is_some(),
                &rule,
            );
            return None;
        }
        // What the instruction becomes in SPIR-V must exist in the
        // environment compiled for (E1140): refused here, with the
        // environment it needs, rather than as an invalid module.
        if self.options.target_env < info.min_env {
            let need = info.min_env.name();
            self.error(
                Diagnostic::error(
                    "E1140",
                    format!("{} needs `--target-env {need}` or newer", info.name),
                )
                .primary(
                    inst.opcode.span,
                    format!(
                        "not in {}: compile with `--target-env {need}`",
                        self.options.target_env.name()
                    ),
                )
                .note(format!("{}: {}", info.section, info.min_env_why))
                .note(format!(
                    "{need} is the oldest environment with it (library: `Options::target_env`); \
                     docs/interface.md, \"{}\", says what the device must support",
                    if info.shape == Shape::GlobalMemory {
                        "GPU addresses"
                    } else {
                        "Thread groups"
                    }
                )),
            );
            return None;
        }
        // A modifier error does not hide the operands' errors: they are
        // checked as the instruction's default data type and without type
        // checks (as under `.NTC`), so none of them stems from the modifier.
        if matches!(
            info.shape,
            Shape::Memory | Shape::SharedMemory | Shape::GlobalMemory
        ) {
            // Storage and atomic modifiers instead of Table X.14's.
            return self.memory_instruction(info, inst);
        }
        if info.shape == Shape::MemoryBarrier {
            // NV_compute_program5's `CTA`, not one of Table X.14's.
            return self.memory_barrier(info, inst);
        }
        if info.opcode == Opcode::Cvt {
            // Storage and rounding modifiers instead of a data type.
            return self.cvt_instruction(info, inst);
        }
        if info.shape == Shape::Image {
            return self.image_instruction(info, inst);
        }
        let Some(mods) = self.modifiers(info, &split.suffixes, inst) else {
            let lenient = Mods {
                ty: info.default_type,
                half: false,
                fixed: false,
                clamp: None,
                cc_update: None,
                ntc: true,
                mul_mode: None,
                precision64: false,
            };
            let _operands_checked = self.instruction_body(info, lenient, inst);
            return None;
        };
        self.instruction_body(info, mods, inst)
    }

    /// The instruction's operands and shape, once its modifiers are known.
    fn instruction_body(
        &mut self,
        info: &'static OpInfo,
        mods: Mods,
        inst: &ast::Instruction,
    ) -> Option<Flat> {
        let span = inst.span;
        match info.shape {
            Shape::Alu | Shape::Swz | Shape::Tex | Shape::Txd => {
                self.alu(info, mods, inst).map(Flat::Inst)
            }
            Shape::Primitive if info.opcode == Opcode::Emits => {
                // NV_gpu_program5 2.X.2: <SpecialInstruction> ::= "EMITS"
                // <instOperandS>, a signed integer scalar.
                self.expect_args(inst, 1, info)?;
                self.no_cc_mask(inst, info)?;
                let Arg::Operand(o) = &inst.args[0] else {
                    self.error(
                        Diagnostic::error("E1142", "EMITS takes a stream operand")
                            .primary(inst.args[0].span(), "not an operand")
                            .note("NV_gpu_program5 2.X.2: <SpecialInstruction> ::= \"EMITS\" <instOperandS>"),
                    );
                    return None;
                };
                let stream = self.source(o, info.inputs[0], DataType::Signed, mods.ntc)?;
                Some(Flat::EmitStream(stream, span))
            }
            Shape::EndFlow | Shape::Primitive => {
                self.expect_args(inst, 0, info)?;
                self.no_cc_mask(inst, info)?;
                Some(match info.opcode {
                    Opcode::Else => Flat::Else(span),
                    Opcode::Endif => Flat::EndIf(span),
                    Opcode::Endrep => Flat::EndRep(span),
                    Opcode::Endloop => {
                        self.loop_indices.pop();
                        Flat::EndLoop(span)
                    }
                    Opcode::Emit => Flat::Emit(span),
                    _ => Flat::EndPrim(span),
                })
            }
            Shape::AddressStack => self.address_stack(info, inst),
            Shape::Memory | Shape::SharedMemory | Shape::GlobalMemory => {
                self.memory_instruction(info, inst)
            }
            Shape::Image => self.image_instruction(info, inst),
            Shape::Barrier => {
                self.expect_args(inst, 0, info)?;
                self.no_cc_mask(inst, info)?;
                Some(Flat::Barrier(BarrierKind::Execution, span))
            }
            Shape::MemoryBarrier => self.memory_barrier(info, inst),
            Shape::FlowCc => {
                let cond = self.optional_condition(inst, info)?;
                Some(match info.opcode {
                    Opcode::Brk => Flat::Brk(cond, span),
                    Opcode::Cont => Flat::Cont(cond, span),
                    _ => Flat::Ret(cond, span),
                })
            }
            Shape::Call => {
                let name = info.name;
                let Some(Arg::Operand(o)) = inst.args.first() else {
                    self.error(
                        Diagnostic::error("E0420", format!("{name} needs a label"))
                            .primary(inst.span, format!("write `{name} label;`"))
                            .note("section 2.X.2: <BRAop_instruction> ::= <BRAop> <opModifiers> <instTarget> <optBranchCond>"),
                    );
                    return None;
                };
                self.expect_args(inst, 1, info)?;
                if info.opcode == Opcode::Cali {
                    return self.cali(inst, o);
                }
                let target = match (
                    &o.path.head,
                    o.path.parts.is_empty(),
                    o.negate || o.abs.is_some(),
                ) {
                    (PathHead::Name(id), true, false) => id.clone(),
                    _ => {
                        self.error(
                            Diagnostic::error("E0420", format!("{name} takes a label name"))
                                .primary(o.span, "not a label")
                                .note("section 2.X.2: <instTarget> ::= <identifier>"),
                        );
                        return None;
                    }
                };
                let cond = match &inst.cc_mask {
                    Some(m) => Some(self.cc_test(m)?),
                    None => None,
                };
                Some(if info.opcode == Opcode::Bra {
                    Flat::Bra(target, cond, span)
                } else {
                    Flat::Cal(target, cond, span)
                })
            }
            Shape::If => {
                if let Some(m) = &inst.cc_mask {
                    self.error(
                        Diagnostic::error("E0421", "IF takes its condition without parentheses")
                            .primary(m.span, "write `IF GT.x;`")
                            .note("section 2.X.2: <IFop_instruction> ::= <IFop> <opModifiers> <ccTest>"),
                    );
                    return None;
                }
                let test = match inst.args.as_slice() {
                    [Arg::Operand(o)] => self.bare_cc_test(o)?,
                    _ => {
                        self.error(
                            Diagnostic::error("E0421", "IF needs one condition code test")
                                .primary(inst.span, "write e.g. `IF NE.x;`")
                                .note("section 2.X.2: <IFop_instruction> ::= <IFop> <opModifiers> <ccTest>"),
                        );
                        return None;
                    }
                };
                Some(Flat::If(test, span))
            }
            Shape::Rep => {
                self.no_cc_mask(inst, info)?;
                // NV_fragment_program2: <LOOPop_instruction> ::= <LOOPop>
                // <instOperandV>, "a fragment program will fail to load if
                // the vector operand is not a program parameter".
                let from_parameters = self.dialect.loop_counts_from_parameters();
                let op = match inst.args.as_slice() {
                    [] if info.opcode == Opcode::Rep && !from_parameters => None,
                    [Arg::Operand(o)] => {
                        let op = self.source(
                            o,
                            OperandKind::Vector(crate::isa::TypeRule::Inherit),
                            mods.ty,
                            mods.ntc,
                        )?;
                        if from_parameters && !matches!(self.var(op.var).kind, VarKind::Param(_)) {
                            let vspan = self.var(op.var).span;
                            self.error(
                                Diagnostic::error("E0349", format!("the {} count is not a program parameter", info.name))
                                    .primary(o.span, "read from a variable that is not a PARAM or a parameter binding")
                                    .secondary(vspan, "declared here")
                                    .note(format!("NV_fragment_program2 3.11.X.8/9: \"{} blocks do not support fully general branching -- a fragment program will fail to load if the vector operand is not a program parameter.\"", info.name)),
                            );
                            return None;
                        }
                        Some(op)
                    }
                    _ => {
                        self.expect_args(inst, 1, info)?;
                        return None;
                    }
                };
                if info.opcode == Opcode::Loop {
                    let control = op?;
                    let index = self.loop_index_var(span);
                    self.loop_indices.push(index);
                    return Some(Flat::Loop(control, index, span));
                }
                // REP.F64/S64/U64 (Table X.13: "6"): an operand of fewer
                // bits "will be promoted" (section 2.X.4.1), which keeps its
                // value, so the count of a 32-bit register is the 32-bit
                // REP's; a LONG register's count is read at 64 bits.
                let count64 = mods.precision64
                    && op
                        .as_ref()
                        .is_some_and(|o| self.var(o.var).precision == ir::Precision::Long);
                Some(Flat::Rep(op, count64, span))
            }
            Shape::Kil => {
                // NV_fragment_program4 (and the NV fragment options): KIL
                // takes a vector operand or a condition code test (the BNF
                // lists only the operand; the instruction text allows both).
                if let Some(m) = &inst.cc_mask {
                    if inst.args.is_empty() {
                        let t = self.cc_test(m)?;
                        return Some(Flat::Kil(ir::KillCondition::Cc(t), span));
                    }
                }
                self.no_cc_mask(inst, info)?;
                let [Arg::Operand(o)] = inst.args.as_slice() else {
                    self.error(
                        Diagnostic::error("E0422", "KIL needs one operand or condition code test")
                            .primary(inst.span, "write `KIL R0;` or `KIL LT.x;`")
                            .note("NV_fragment_program4 section 2.X.8.Z, KIL"),
                    );
                    return None;
                };
                if let PathHead::Name(id) = &o.path.head {
                    if !self.names.contains_key(&id.name)
                        && CcCondition::parse_rule(&id.name).is_some()
                        && self.dialect.cc_registers() > 0
                    {
                        let t = self.bare_cc_test(o)?;
                        return Some(Flat::Kil(ir::KillCondition::Cc(t), span));
                    }
                }
                let op = self.source(
                    o,
                    OperandKind::Vector(crate::isa::TypeRule::Inherit),
                    mods.ty,
                    mods.ntc,
                )?;
                Some(Flat::Kil(ir::KillCondition::Operand(op), span))
            }
        }
    }

    /// PUSHA and POPA (NV_vertex_program3 2.14.5.43-44).
    fn address_stack(&mut self, info: &'static OpInfo, inst: &ast::Instruction) -> Option<Flat> {
        self.expect_args(inst, 1, info)?;
        let Arg::Operand(o) = &inst.args[0] else {
            self.expect_args(inst, 0, info)?;
            return None;
        };
        if info.opcode == Opcode::Pusha {
            self.no_cc_mask(inst, info)?;
            let value = self.source(o, OperandKind::Address, DataType::Signed, false)?;
            return Some(Flat::PushAddress(value, inst.span));
        }
        let dst = self.dest(o, inst.cc_mask.as_deref(), DataType::Signed, false, info)?;
        let partial = dst.mask != WriteMask::ALL;
        let conditional = dst.cc_mask.is_some_and(|t| t.condition != CcCondition::Tr);
        if partial || conditional {
            let span = if partial {
                o.span
            } else {
                inst.cc_mask.as_ref().map_or(o.span, |m| m.span)
            };
            self.error(
                Diagnostic::error("E0452", "POPA writes the whole address register, unconditionally")
                    .primary(span, if partial { "write mask other than .xyzw" } else { "condition code mask other than TR" })
                    .note("NV_vertex_program3 2.14.5.43: \"POPA does not support non-default write masks; a program will fail to load if it includes a component write mask other than \".xyzw\" or a condition code write mask test other than \"TR\".\""),
            );
            return None;
        }
        Some(Flat::PopAddress(dst, inst.span))
    }

    /// MEMBAR (NV_gpu_program5 2.X.8.Z): no operands; its one optional
    /// modifier, `CTA`, is NV_compute_program5's, for compute programs.
    fn memory_barrier(&mut self, info: &'static OpInfo, inst: &ast::Instruction) -> Option<Flat> {
        let mut kind = BarrierKind::Memory;
        let mut ok = true;
        for m in &inst.modifiers {
            if m.name.as_str() == "CTA" && self.stage == Stage::Compute {
                kind = BarrierKind::MemoryWorkGroup;
            } else if m.name.as_str() == "CTA" {
                self.error(
                    Diagnostic::error("E1170", format!("`MEMBAR.CTA` in a {} program", self.stage))
                        .primary(m.span, "compute programs only")
                        .note("NV_compute_program5 2.X.2 and 2.X.4.1: the \"CTA\" modifier (\"Memory barrier orders only memory transactions relative to invocations within local work group\") is added to the grammar of compute programs; other program types have no local work group (write `MEMBAR`)"),
                );
                ok = false;
            } else {
                self.error(
                    Diagnostic::error("E0404", format!("MEMBAR does not support the `.{}` modifier", m.name))
                        .primary(m.span, "not supported here")
                        .secondary(inst.opcode.span, format!("{} ({})", info.name, info.section))
                        .note("NV_gpu_program5 Table X.13: MEMBAR takes no modifier; NV_compute_program5 2.X.8.Z, MEMBAR: \"The MEMBAR instruction has one optional instruction modifier\", CTA, in compute programs"),
                );
                ok = false;
            }
        }
        self.expect_args(inst, 0, info)?;
        self.no_cc_mask(inst, info)?;
        ok.then_some(Flat::Barrier(kind, inst.span))
    }

    /// The opcode of an instruction word and its Table X.15 suffixes.
    fn opcode(&mut self, word: &Ident) -> Option<SplitOpcode> {
        match split_opcode(&word.name) {
            Ok(s) => Some(s),
            // An opcode followed only by suffix letters in the wrong order
            // (`ADD_SATR`).
            Err(Some((info, at))) if is_suffix_soup(&word.name[info.name.len()..]) => {
                let start = word.span.start + at as u32;
                self.error(
                    Diagnostic::error("E0401", format!("`{}` is not a valid suffix of {}", &word.name[at..], info.name))
                        .primary(Span { start, end: word.span.end }, "unknown or misplaced suffix")
                        .secondary(Span { start: word.span.start, end: start }, format!("the {} instruction", info.name))
                        .note("section 2.X.4.1, Table X.15: the suffixes are R, H (X in the NV fragment options), C, C0, C1, _SAT and _SSAT, written in that order: data type or precision, then condition code, then clamping (e.g. `ADDRC1_SSAT`)"),
                );
                None
            }
            // Any other word, or an opcode followed by letters that are not
            // suffixes (`MOVE`), is a misspelled instruction.
            Err(_) => {
                let mut d =
                    Diagnostic::error("E0400", format!("unknown instruction `{}`", word.name))
                        .primary(word.span, "not an instruction");
                if let Some(s) = did_you_mean(&word.name, INSTRUCTIONS.iter().map(|i| i.name)) {
                    d = d.note(format!("did you mean `{s}`?"));
                }
                self.error(d.note("the instructions are listed in Table X.13 (section 2.X.4)"));
                None
            }
        }
    }

    /// The instruction's Table X.14 modifiers: its opcode's `suffixes`
    /// (`split_opcode`'s) and its stand-alone modifiers.
    fn modifiers(
        &mut self,
        info: &'static OpInfo,
        suffixes: &[(Modifier, usize, usize)],
        inst: &ast::Instruction,
    ) -> Option<Mods> {
        // One list reused for every instruction: a new `Vec` per
        // instruction was an allocation for most of them.
        let mut list = std::mem::take(&mut self.modifier_list);
        list.clear();
        let s = inst.opcode.span.start;
        list.extend(suffixes.iter().map(|&(m, a, b)| {
            (
                m,
                Span {
                    start: s + a as u32,
                    end: s + b as u32,
                },
            )
        }));
        let mods = self.modifiers_in(info, inst, &mut list);
        self.modifier_list = list;
        mods
    }

    fn modifiers_in(
        &mut self,
        info: &'static OpInfo,
        inst: &ast::Instruction,
        list: &mut Vec<(Modifier, Span)>,
    ) -> Option<Mods> {
        let suffixes = list.len();
        if !self.modifiers_valid(info, inst, list) {
            // The same rules again, with their messages, out of line: the
            // messages' code made every instruction's check slower
            // (docs/performance.md, "Session 10 (checker)").
            list.truncate(suffixes);
            if !self.modifier_errors(info, inst, list) {
                return None;
            }
        }
        self.mods_of(info, inst, list)
    }

    /// Whether the instruction's modifiers pass [`Self::modifier_errors`]'s
    /// rules, without a message: its stand-alone modifiers are added to
    /// `list` (all of them only when it does).
    fn modifiers_valid(
        &self,
        info: &'static OpInfo,
        inst: &ast::Instruction,
        list: &mut Vec<(Modifier, Span)>,
    ) -> bool {
        let dialect = self.dialect;
        if !inst.modifiers.is_empty() && !dialect.standalone_modifiers() {
            return false;
        }
        for id in &inst.modifiers {
            match Modifier::standalone(&id.name) {
                Some(m) => list.push((m, id.span)),
                None => return false,
            }
        }
        // One of each kind (section 2.X.4.1).
        for i in 0..list.len() {
            if list[..i].iter().any(|(m, _)| m.kind() == list[i].0.kind()) {
                return false;
            }
        }
        let sup = info.in_dialect(dialect).unwrap_or_default();
        list.iter()
            .all(|&(m, _)| modifier_allowed(info, m, sup, dialect))
    }

    /// The modifier rules of [`Self::modifiers_valid`], reporting each
    /// modifier that breaks one; whether none does.
    #[cold]
    #[inline(never)]
    fn modifier_errors(
        &mut self,
        info: &'static OpInfo,
        inst: &ast::Instruction,
        list: &mut Vec<(Modifier, Span)>,
    ) -> bool {
        let mut ok = true;
        if let Some(first) = inst.modifiers.first() {
            if !self.dialect.standalone_modifiers() {
                self.unavailable(
                    &format!("the stand-alone modifier `.{}`", first.name),
                    first.span.to(inst.modifiers.last().map_or(first.span, |m| m.span)),
                    |d| d.standalone_modifiers(),
                    "NV_gpu_program4 2.X.4.1, Table X.14: stand-alone modifiers (`.F`, `.CC1`, `.SAT`); the ARB family writes opcode suffixes only (`ADDC_SAT`)",
                );
                return false;
            }
        }
        for id in &inst.modifiers {
            match Modifier::standalone(&id.name) {
                Some(m) => list.push((m, id.span)),
                None => {
                    let mut d =
                        Diagnostic::error("E0402", format!("unknown modifier `.{}`", id.name))
                            .primary(id.span, "not an instruction modifier");
                    if let Some(s) =
                        did_you_mean(&id.name, Modifier::STANDALONE_NAMES.iter().copied())
                    {
                        d = d.note(format!("did you mean `.{s}`?"));
                    }
                    self.error(d.note("section 2.X.4.1, Table X.14: the modifiers are F, U, S, CC, CC0, CC1, SAT, SSAT, NTC, S24, U24 and HI; NV_gpu_program5 adds F64, S64, U64 and PREC"));
                    ok = false;
                }
            }
        }
        // One of each kind (section 2.X.4.1).
        for i in 0..list.len() {
            for j in 0..i {
                if list[i].0.kind() == list[j].0.kind() {
                    let kind = list[i].0.kind().describe();
                    self.error(
                        Diagnostic::error("E0403", format!("more than one {kind} modifier"))
                            .primary(list[i].1, format!("second {kind} modifier"))
                            .secondary(list[j].1, "first one here")
                            .note("section 2.X.4.1: a program will fail to load if it contains an instruction that \"specifies more than one modifier of any given type\""),
                    );
                    ok = false;
                    break;
                }
            }
        }
        let dialect = self.dialect;
        let sup = info.in_dialect(dialect).unwrap_or_default();
        for &(m, span) in list.iter() {
            if modifier_allowed(info, m, sup, dialect) {
                continue;
            }
            let exists = |d: Dialect| {
                info.in_dialect(d)
                    .is_some_and(|s| modifier_allowed(info, m, s, d))
            };
            if super::dialect::option_providing(dialect, exists).is_some() {
                self.unavailable(
                    &format!(
                        "the `{}` modifier of {}",
                        suffix_text(&inst.opcode.name, span, inst.opcode.span, m),
                        info.name
                    ),
                    span,
                    exists,
                    "",
                );
                ok = false;
                continue;
            }
            if matches!(m, Modifier::F64 | Modifier::S64 | Modifier::U64) {
                self.precision64_unavailable(info, m, span, inst.opcode.span);
                ok = false;
                continue;
            }
            let why = match m.kind() {
                ModifierKind::Multiply => "section 2.X.4.1: \"S24\", \"U24\", and \"HI\" are special modifiers that are allowed only for the MUL instruction".to_string(),
                _ if dialect.is_arb() => format!("{}, Table X.5: {} takes {}", dialect.column().spec(), info.name, supported_list_in(info, dialect)),
                _ => format!("section 2.X.4.1: a program will fail to load if an instruction \"specifies a modifier that is not supported by the instruction\"; {} supports {}", info.name, supported_list(info)),
            };
            self.error(
                Diagnostic::error(
                    "E0404",
                    format!(
                        "{} does not support the `{}` modifier",
                        info.name,
                        suffix_text(&inst.opcode.name, span, inst.opcode.span, m)
                    ),
                )
                .primary(span, "not supported here")
                .secondary(
                    inst.opcode.span,
                    format!("{} ({})", info.name, info.section),
                )
                .note(why),
            );
            ok = false;
        }
        ok
    }

    /// The instruction's [`Mods`] from its valid modifier list, and the
    /// rules between modifiers (MUL's, clamping).
    fn mods_of(
        &mut self,
        info: &'static OpInfo,
        inst: &ast::Instruction,
        list: &[(Modifier, Span)],
    ) -> Option<Mods> {
        // The first modifier of each kind, from one pass over the list
        // (a search of the list per kind was most of this function's cost).
        let mut first: [Option<(Modifier, Span)>; 6] = [None; 6];
        for &(m, span) in list.iter().rev() {
            first[kind_slot(m.kind())] = Some((m, span));
        }
        let find = |k: ModifierKind| first[kind_slot(k)];
        let mul_mode = find(ModifierKind::Multiply).map(|(m, _)| match m {
            Modifier::S24 => MulMode::S24,
            Modifier::U24 => MulMode::U24,
            _ => MulMode::Hi,
        });
        let dt = find(ModifierKind::DataType);
        let mut ty = match dt.map(|d| d.0) {
            Some(Modifier::U | Modifier::U64) => DataType::Unsigned,
            Some(Modifier::S | Modifier::S64) => DataType::Signed,
            Some(_) => DataType::Float,
            None => info.default_type,
        };
        // Section 2.X.8.Z, MUL: S24/U24 imply the data type; HI needs S or U.
        match (mul_mode, dt) {
            (Some(MulMode::S24 | MulMode::U24), Some((_, span))) => {
                self.error(
                    Diagnostic::error("E0405", "S24 and U24 imply the data type")
                        .primary(span, "data type modifier not allowed with S24/U24")
                        .note("section 2.X.8.Z, MUL: \"If \"S24\" or \"U24\" is specified, the data type is implied and normal data type modifiers may not be provided.\""),
                );
                return None;
            }
            (Some(MulMode::S24), None) => ty = DataType::Signed,
            (Some(MulMode::U24), None) => ty = DataType::Unsigned,
            (Some(MulMode::Hi), d) if !matches!(d, Some((Modifier::S | Modifier::U, _))) => {
                let span = find(ModifierKind::Multiply).map_or(inst.opcode.span, |m| m.1);
                self.error(
                    Diagnostic::error("E0405", "MUL.HI needs `.S` or `.U`")
                        .primary(span, "HI without an integer data type")
                        .note("section 2.X.8.Z, MUL: \"If \"HI\" is specified, either of the \"S\" or \"U\" integer data type modifiers must also be specified.\""),
                );
                return None;
            }
            _ => {}
        }
        let clamp = find(ModifierKind::Clamp).map(|(m, _)| {
            if m == Modifier::Sat {
                Clamp::Sat
            } else {
                Clamp::Ssat
            }
        });
        if let Some((_, span)) = find(ModifierKind::Clamp) {
            if info.result_type(ty) != Some(DataType::Float) {
                self.error(
                    Diagnostic::error("E0406", format!("clamping an instruction whose result is not floating-point ({})", info.name))
                        .primary(span, "clamp modifier")
                        .note("section 2.X.4.1: a program will fail to load if it \"specifies a clamping modifier on an instruction, unless it produces floating-point results\""),
                );
                return None;
            }
        }
        let precision64 = matches!(dt, Some((Modifier::F64 | Modifier::S64 | Modifier::U64, _)));
        Some(Mods {
            ty,
            precision64,
            half: list.iter().any(|(m, _)| *m == Modifier::PrecisionHalf),
            fixed: list.iter().any(|(m, _)| *m == Modifier::PrecisionFixed),
            clamp,
            cc_update: find(ModifierKind::CcUpdate)
                .map(|(m, _)| CcReg(if m == Modifier::Cc1 { 1 } else { 0 })),
            ntc: find(ModifierKind::NoTypeCheck).is_some(),
            mul_mode,
        })
    }

    pub(super) fn expect_args(
        &mut self,
        inst: &ast::Instruction,
        n: usize,
        info: &OpInfo,
    ) -> Option<()> {
        if inst.args.len() == n {
            return Some(());
        }
        let span = if inst.args.len() > n {
            inst.args[n]
                .span()
                .to(inst.args.last().map_or(inst.span, Arg::span))
        } else {
            inst.span
        };
        self.error(
            Diagnostic::error(
                "E0411",
                format!(
                    "{} takes {} operand{}, found {}",
                    info.name,
                    n,
                    if n == 1 { "" } else { "s" },
                    inst.args.len()
                ),
            )
            .primary(
                span,
                if inst.args.len() > n {
                    "extra operands"
                } else {
                    "operands missing"
                },
            )
            .note(format!("{}: {}", info.section, usage(info))),
        );
        None
    }

    pub(super) fn no_cc_mask(&mut self, inst: &ast::Instruction, info: &OpInfo) -> Option<()> {
        if let Some(m) = &inst.cc_mask {
            self.error(
                Diagnostic::error(
                    "E0412",
                    format!("{} takes no condition code mask", info.name),
                )
                .primary(m.span, "unexpected condition")
                .note(format!("{}: {}", info.section, usage(info))),
            );
            return None;
        }
        Some(())
    }

    /// `BRK`, `BRK (GT.x)`.
    fn optional_condition(
        &mut self,
        inst: &ast::Instruction,
        info: &OpInfo,
    ) -> Option<Option<CcTest>> {
        if let Some(Arg::Operand(o)) = inst.args.first() {
            if let PathHead::Name(id) = &o.path.head {
                if CcCondition::parse_rule(&id.name).is_some() {
                    self.error(
                        Diagnostic::error("E0413", format!("the condition of {} goes in parentheses", info.name))
                            .primary(o.span, format!("write `{} ({})`", info.name, &o.path.span_text(id)))
                            .note("section 2.X.2: <optBranchCond> ::= /* empty */ | <ccMask>, and <ccMask> ::= \"(\" <ccTest> \")\""),
                    );
                    return None;
                }
            }
        }
        self.expect_args(inst, 0, info)?;
        match &inst.cc_mask {
            Some(m) => Some(Some(self.cc_test(m)?)),
            None => Some(None),
        }
    }

    /// A `<ccTest>` written as an operand: `GT.x`, `NE1`.
    fn bare_cc_test(&mut self, o: &ast::Operand) -> Option<CcTest> {
        let PathHead::Name(rule) = &o.path.head else {
            self.cc_rule_error(o.path.span);
            return None;
        };
        let swizzle = match o.path.parts.as_slice() {
            [] => None,
            [PathPart::Member(s)] => Some(s.clone()),
            _ => {
                self.cc_rule_error(o.path.span);
                return None;
            }
        };
        if o.negate || o.abs.is_some() {
            self.cc_rule_error(o.span);
            return None;
        }
        self.cc_test(&CcMask {
            rule: rule.clone(),
            swizzle,
            span: o.span,
        })
    }

    fn cc_rule_error(&mut self, span: Span) {
        self.error(
            Diagnostic::error("E0414", "expected a condition code test such as `GT.x`")
                .primary(span, "not a condition code test")
                .note("section 2.X.4.3, Table X.16: the tests are EQ GE GT LE LT NE TR FL NAN LEG CF NCF OF NOF SF NSF AB BLE, with an optional 0 or 1 and a swizzle"),
        );
    }

    pub(super) fn cc_test(&mut self, m: &CcMask) -> Option<CcTest> {
        if self.dialect.cc_registers() == 0 {
            self.unavailable(
                "a condition code test",
                m.span,
                |d| d.cc_registers() > 0,
                "the condition code register and its tests (`(GT.x)`, `IF NE.x`) come with the NV options: NV_vertex_program2_option 2.14.3.X, NV_fragment_program_option 3.11.3.X",
            );
            return None;
        }
        let Some((condition, reg)) = CcCondition::parse_rule(&m.rule.name) else {
            let names: Vec<String> = CcCondition::ALL
                .iter()
                .flat_map(|(n, _)| [n.to_string(), format!("{n}0"), format!("{n}1")])
                .collect();
            let mut d = Diagnostic::error(
                "E0414",
                format!("unknown condition code test `{}`", m.rule.name),
            )
            .primary(m.rule.span, "not a test of Table X.16");
            if let Some(s) = did_you_mean(&m.rule.name, names.iter().map(String::as_str)) {
                d = d.note(format!("did you mean `{s}`?"));
            }
            self.error(d.note("section 2.X.4.3, Table X.16: EQ GE GT LE LT NE TR FL NAN LEG CF NCF OF NOF SF NSF AB BLE, each with an optional 0 or 1"));
            return None;
        };
        let dialect = self.dialect;
        if !dialect.cc_test_exists(condition) {
            self.unavailable(
                &format!("the condition code test `{}`", condition.name()),
                m.rule.span,
                |d| d.cc_test_exists(condition),
                "the NV options' <ccMaskRule> is one of EQ GE GT LE LT NE TR FL; NV_gpu_program4 Table X.16 adds NAN LEG CF NCF OF NOF SF NSF AB BLE",
            );
            return None;
        }
        let numbered = m.rule.name.ends_with(['0', '1']);
        if numbered && dialect.cc_registers() < 2 {
            self.unavailable(
                &format!("the numbered condition code test `{}`", m.rule.name),
                m.rule.span,
                |d| d.cc_registers() > 1,
                "NV_vertex_program3: \"The vertex program condition code registers are two four-component vectors, called CC0 and CC1\" (<ccMaskRule> EQ0 ... FL1); the other NV options have one register and unnumbered tests",
            );
            return None;
        }
        let swizzle = match &m.swizzle {
            None => Swizzle::IDENTITY,
            Some(s) => self.swizzle(s, false)?,
        };
        Some(CcTest {
            condition,
            reg: CcReg(reg),
            swizzle,
        })
    }

    /// Parses `.x` or `.xyzw` (or rgba) after an operand.
    fn swizzle(&mut self, s: &Ident, scalar: bool) -> Option<Swizzle> {
        let comps = match components(&s.name) {
            Ok(c) => c,
            Err(msg) => {
                self.error(
                    Diagnostic::error("E0430", format!("invalid swizzle `.{}`", s.name))
                        .primary(s.span, msg)
                        .note(SWIZZLE_NOTE),
                );
                return None;
            }
        };
        match (comps.len(), scalar) {
            (1, _) => Some(Swizzle::splat(comps[0])),
            (4, false) => Some(Swizzle([comps[0], comps[1], comps[2], comps[3]])),
            (_, true) => {
                self.error(
                    Diagnostic::error("E0431", format!("`.{}` selects more than one component where a scalar is needed", s.name))
                        .primary(s.span, "write one component, e.g. `.x`")
                        .note("section 2.X.4.2: a scalar operand (<instOperandS>) takes a <scalarSuffix> of exactly one component"),
                );
                None
            }
            (_, false) => {
                self.error(
                    Diagnostic::error("E0430", format!("invalid swizzle `.{}`", s.name))
                        .primary(
                            s.span,
                            format!("{} components; a swizzle has one or four", comps.len()),
                        )
                        .note(SWIZZLE_NOTE),
                );
                None
            }
        }
    }

    fn write_mask(&mut self, s: &Ident) -> Option<WriteMask> {
        let comps = match components(&s.name) {
            Ok(c) => c,
            Err(msg) => {
                self.error(Diagnostic::error("E0432", format!("invalid write mask `.{}`", s.name)).primary(s.span, msg).note("section 2.X.4.3: a write mask names components in xyzw (or rgba) order, without mixing the two sets"));
                return None;
            }
        };
        let mut mask = 0u8;
        let mut last: i32 = -1;
        for &c in comps.iter() {
            if (c as i32) <= last {
                self.error(
                    Diagnostic::error("E0432", format!("invalid write mask `.{}`", s.name))
                        .primary(s.span, "components must be listed once each, in xyzw order")
                        .note("section 2.X.4.3: \"The grammar requires that the destination register mask components must be listed in \"xyzw\" order.\""),
                );
                return None;
            }
            last = c as i32;
            mask |= 1 << c;
        }
        Some(WriteMask(mask))
    }

    /// ALU and texture instructions: destination then operands per the table.
    fn alu(
        &mut self,
        info: &'static OpInfo,
        mods: Mods,
        inst: &ast::Instruction,
    ) -> Option<ir::Instruction> {
        let expected = 1 + match info.shape {
            Shape::Swz => 5,
            Shape::Tex | Shape::Txd => info.inputs.len() + 2,
            _ => info.inputs.len(),
        };
        let with_offset =
            matches!(info.shape, Shape::Tex | Shape::Txd) && inst.args.len() == expected + 1;
        if !with_offset {
            self.expect_args(inst, expected, info)?;
        }
        let Arg::Operand(dst_ast) = &inst.args[0] else {
            self.error(
                Diagnostic::error("E0411", "expected a destination")
                    .primary(inst.args[0].span(), "not a variable"),
            );
            return None;
        };
        let result_ty = info.result_type(mods.ty).unwrap_or(mods.ty);
        let dst = self.dest(dst_ast, inst.cc_mask.as_deref(), result_ty, mods.ntc, info);
        let mut ok = dst.is_some();
        let operand_count = if info.shape == Shape::Swz {
            1
        } else {
            info.inputs.len()
        };
        // Exactly as many as are read: a `Vec` grown by pushes keeps room
        // for four, and the operands are most of a big program's IR
        // (docs/performance.md, "Session 6").
        let mut srcs = Vec::with_capacity(operand_count);
        for (i, kind) in info.inputs.iter().take(operand_count).enumerate() {
            match &inst.args[1 + i] {
                Arg::Operand(o) => {
                    let kind = if info.shape == Shape::Swz {
                        OperandKind::Vector(kind.type_rule())
                    } else if info.opcode == Opcode::Arl
                        && self.dialect.address_model() == AddressModel::ArbScalar
                    {
                        // ARB_vertex_program: <ARL_instruction> ::= "ARL"
                        // <maskedAddrReg> "," <scalarSrcReg>; the
                        // NV_vertex_program2 option makes it a vector
                        // operand ("<ARLop_src> ::= <instOperandV>").
                        OperandKind::Scalar(kind.type_rule())
                    } else {
                        *kind
                    };
                    match self.source(o, kind, mods.ty, mods.ntc) {
                        // Section 2.X.2: SWZ's source is an <instOperandVNS>,
                        // with no swizzle; the extended swizzle selects.
                        Some(s) if info.shape == Shape::Swz && !s.swizzle.is_identity() => {
                            self.error(
                                Diagnostic::error("E0433", "SWZ's source takes no swizzle suffix")
                                    .primary(s.span, "the extended swizzle that follows selects the components")
                                    .note("section 2.X.2: <SWZop_instruction> ::= <SWZop> <opModifiers> <instResult> \",\" <instOperandVNS> \",\" <extendedSwizzle>"),
                            );
                            ok = false;
                        }
                        Some(mut s) => {
                            // The ARB languages' RSQ: "tmp =
                            // fabs(ScalarLoad(op0))" (the IR's |...|).
                            if info.opcode == Opcode::Rsq && self.dialect.rsq_of_absolute_value() {
                                s.abs = true;
                                s.negate_abs = false;
                            }
                            srcs.push(s)
                        }
                        None => ok = false,
                    }
                }
                Arg::Offset(_, span) | Arg::VariableOffset(_, span) | Arg::Handle(_, span) => {
                    self.error(
                        Diagnostic::error("E0411", "expected an operand")
                            .primary(*span, "a texel offset or handle is not an operand")
                            .note(usage(info)),
                    );
                    ok = false;
                }
            }
        }
        let ext_swizzle = if info.shape == Shape::Swz {
            self.extended_swizzle(&inst.args[2..6])
        } else {
            None
        };
        if info.shape == Shape::Swz && ext_swizzle.is_none() {
            ok = false;
        }
        let tex = if matches!(info.shape, Shape::Tex | Shape::Txd) {
            let at = 1 + info.inputs.len();
            let access = self.tex_access(&inst.args[at..], info);
            if access.is_none() {
                ok = false;
            }
            let (t, unit_index) = match access {
                Some((t, index)) => (Some(t), index),
                None => (None, None),
            };
            // NV_gpu_program5 <texOffsetVar>: the offset is a signed
            // integer vector operand, read after the others.
            if let (Some(t), Some(Arg::VariableOffset(o, _))) = (&t, inst.args.get(at + 2)) {
                if t.variable_offset {
                    let kind = crate::isa::OperandKind::Vector(crate::isa::TypeRule::Signed);
                    match self.source(o, kind, DataType::Signed, false) {
                        Some(s) => srcs.push(s),
                        None => ok = false,
                    }
                }
            }
            srcs.extend(unit_index);
            // NV_bindless_texture <textureUseV> ::= "handle" "(" <addrUseS>
            // ")": the handle, an unsigned scalar, read last.
            if let (Some(t), Some(Arg::Handle(o, _))) = (&t, inst.args.get(at)) {
                if t.handle {
                    let kind = crate::isa::OperandKind::Scalar(crate::isa::TypeRule::Unsigned);
                    match self.source(o, kind, DataType::Unsigned, false) {
                        Some(s) => srcs.push(s),
                        None => ok = false,
                    }
                }
            }
            t
        } else {
            None
        };
        if !ok {
            return None;
        }
        let dst = dst?;
        if matches!(info.opcode, Opcode::Ipac | Opcode::Ipao | Opcode::Ipas)
            && !self.interpolated_attribute(info, &srcs[0])
        {
            return None;
        }
        if !self.short_operand_rules(info, &dst, &srcs)
            || !self.long_operand_rules(info, &dst, &srcs)
        {
            return None;
        }
        // Sections 2.X.8.Z, XPD and NRM: "result.w = undefined". Writing it
        // is legal, so this is a warning, not an error.
        if matches!(info.opcode, Opcode::Xpd | Opcode::Nrm) && dst.mask.has(3) {
            self.error(
                Diagnostic::warning(
                    "W0005",
                    format!("{} leaves the w component undefined", info.name),
                )
                .primary(dst_ast.span, "the write mask includes w")
                .note(format!(
                    "{}: \"result.w = undefined\"; write `.xyz` to keep w's old value",
                    info.section
                )),
            );
        }
        self.result_size_rule(&dst);
        Some(ir::Instruction {
            op: info.opcode,
            ty: mods.ty,
            half: mods.half,
            fixed: mods.fixed,
            clamp: mods.clamp,
            cc_update: mods.cc_update,
            mul_mode: mods.mul_mode,
            precision64: mods.precision64,
            convert: None,
            dst,
            srcs,
            ext_swizzle: ext_swizzle.map(Box::new),
            memory: None,
            image: None,
            tex: tex.map(Box::new),
            span: inst.span,
        })
    }

    fn extended_swizzle(&mut self, args: &[Arg]) -> Option<[ir::ExtSwizzleComp; 4]> {
        let mut out = [ir::ExtSwizzleComp {
            negate: false,
            sel: ir::ExtSwizzleSel::Zero,
        }; 4];
        let mut ok = true;
        let mut set: Option<bool> = None;
        for (i, a) in args.iter().enumerate() {
            let comp = match a {
                Arg::Operand(o) if o.abs.is_none() && o.path.parts.is_empty() => match &o.path.head
                {
                    PathHead::Number(Number::Int(n)) if n.text == "0" => {
                        Some(ir::ExtSwizzleSel::Zero)
                    }
                    PathHead::Number(Number::Int(n)) if n.text == "1" => {
                        Some(ir::ExtSwizzleSel::One)
                    }
                    PathHead::Name(id) => match components(&id.name) {
                        Ok(c) if c.len() == 1 => {
                            let xyzw = "xyzw".contains(id.name.as_str());
                            if *set.get_or_insert(xyzw) != xyzw {
                                None
                            } else {
                                Some(ir::ExtSwizzleSel::Component(c[0]))
                            }
                        }
                        _ => None,
                    },
                    _ => None,
                },
                _ => None,
            };
            match (comp, a) {
                (Some(sel), Arg::Operand(o)) => {
                    out[i] = ir::ExtSwizzleComp {
                        negate: o.negate,
                        sel,
                    }
                }
                _ => {
                    self.error(
                        Diagnostic::error("E0435", "invalid extended swizzle component")
                            .primary(a.span(), "expected 0, 1, or one of x y z w (or r g b a), optionally signed")
                            .note("section 2.X.2: <extSwizComp> ::= <optSign> <xyzwExtSwizSel> | <optSign> <rgbaExtSwizSel>; the four components may not mix xyzw and rgba"),
                    );
                    ok = false;
                }
            }
        }
        ok.then_some(out)
    }

    /// The texture operand, and the unit index operand of a
    /// register-indexed texture array (the instruction's last source).
    fn tex_access(
        &mut self,
        args: &[Arg],
        info: &OpInfo,
    ) -> Option<(ir::TexAccess, Option<ir::Operand>)> {
        let bad = |c: &mut Self, span: Span, msg: &str| {
            c.error(
                Diagnostic::error("E0440", format!("invalid texture access for {}", info.name))
                    .primary(span, msg.to_string())
                    .note("section 2.X.2: <texAccess> ::= <texImageUnit> \",\" <texTarget> [\",\" <texOffset>], e.g. `texture[0], 2D`"),
            );
        };
        // NV_gpu_program5 2.X.4.4, <texImageUnitComp>: a scalar suffix on
        // the texture (`texture[0].y`, `tex.w`) selects the component TXG
        // and TXGO gather; it is taken off before the unit is read.
        let mut component = 0u8;
        let stripped;
        let args: &[Arg] = match args.first() {
            Some(Arg::Operand(o)) => match o.path.parts.last() {
                Some(PathPart::Member(m)) if component_index(&m.name).is_some() => {
                    if !matches!(info.opcode, Opcode::Txg | Opcode::Txgo) {
                        self.error(
                            Diagnostic::error("E1134", format!("{} cannot select a texture component", info.name))
                                .primary(m.span, "a component selection is for TXG and TXGO only")
                                .note("NV_gpu_program5 2.X.4.4: \"Component selection is not supported for any other instruction, and a program will fail to load if <texImageUnitComp> is matched for any texture instruction other than TXG or TXGO.\""),
                        );
                        return None;
                    }
                    component = component_index(&m.name).unwrap_or(0);
                    let mut o = o.clone();
                    o.path.parts.pop();
                    let mut v = args.to_vec();
                    v[0] = Arg::Operand(o);
                    stripped = v;
                    &stripped
                }
                _ => args,
            },
            _ => args,
        };
        let handle = match args.first() {
            Some(Arg::Handle(_, span)) => {
                self.texture_handle_allowed(*span, "a texture handle")?;
                true
            }
            _ => false,
        };
        let texture_variable = match args.first() {
            Some(Arg::Operand(o)) if o.abs.is_none() && !o.negate => {
                self.texture_variable_unit(&super::program_type::TEXTURE_UNITS, o)
            }
            _ => None,
        };
        let through_variable = texture_variable.is_some();
        let mut unit_select = None;
        let unit = match (texture_variable, args.first()) {
            _ if handle => 0,
            (Some(None), _) => return None,
            (Some(Some(TextureUse::Unit(unit))), _) => unit,
            (
                Some(Some(TextureUse::Selected {
                    units,
                    address,
                    offset,
                })),
                _,
            ) => {
                let first = units[0];
                unit_select = Some((ir::UnitSelect { units, offset }, address));
                first
            }
            (None, Some(Arg::Operand(o))) if o.abs.is_none() && !o.negate => match &o.path.head {
                PathHead::Root(ast::Root::Texture, rs) => {
                    match decode(self.dialect, ast::Root::Texture, *rs, &o.path, false) {
                        Ok(d) if d.rest.is_empty() => match d.binding {
                            Binding::Texture(u) => u,
                            _ => return None,
                        },
                        Ok(_) => {
                            bad(self, o.span, "a texture unit takes no suffix");
                            return None;
                        }
                        Err(d) => {
                            self.error(d);
                            return None;
                        }
                    }
                }
                _ => {
                    bad(self, o.span, "expected `texture[n]`");
                    return None;
                }
            },
            (None, Some(a)) => {
                bad(self, a.span(), "expected `texture[n]`");
                return None;
            }
            (None, None) => return None,
        };
        if unit >= self.options.limits.max_texture_units {
            self.error(
                Diagnostic::error("E0441", format!("texture unit {unit} is out of range"))
                    .primary(args[0].span(), format!("units are 0 to {}", self.options.limits.max_texture_units - 1))
                    .note("section 2.X.4.4: the texture image unit must be less than MAX_TEXTURE_IMAGE_UNITS (docs/limits.md)"),
            );
            return None;
        }
        let target = match args.get(1) {
            Some(Arg::Operand(ast::Operand {
                path:
                    Path {
                        head: PathHead::Name(id),
                        parts,
                        ..
                    },
                abs: None,
                negate: false,
                ..
            })) if parts.is_empty() => {
                let names = [
                    "1D",
                    "2D",
                    "3D",
                    "CUBE",
                    "RECT",
                    "SHADOW1D",
                    "SHADOW2D",
                    "SHADOWRECT",
                    "ARRAY1D",
                    "ARRAY2D",
                    "SHADOWCUBE",
                    "SHADOWARRAY1D",
                    "SHADOWARRAY2D",
                    "BUFFER",
                    "ARRAYCUBE",
                ];
                let t = match id.name.as_str() {
                    "1D" => ir::TexTarget::T1D,
                    "2D" => ir::TexTarget::T2D,
                    "3D" => ir::TexTarget::T3D,
                    "CUBE" => ir::TexTarget::Cube,
                    "RECT" => ir::TexTarget::Rect,
                    "SHADOW1D" => ir::TexTarget::Shadow1D,
                    "SHADOW2D" => ir::TexTarget::Shadow2D,
                    "SHADOWRECT" => ir::TexTarget::ShadowRect,
                    "ARRAY1D" => ir::TexTarget::Array1D,
                    "ARRAY2D" => ir::TexTarget::Array2D,
                    "SHADOWCUBE" => ir::TexTarget::ShadowCube,
                    "SHADOWARRAY1D" => ir::TexTarget::ShadowArray1D,
                    "SHADOWARRAY2D" => ir::TexTarget::ShadowArray2D,
                    "BUFFER" => ir::TexTarget::Buffer,
                    "ARRAYCUBE" => ir::TexTarget::ArrayCube,
                    "SHADOWARRAYCUBE" => {
                        self.error(
                            Diagnostic::error("E1135", "the SHADOWARRAYCUBE target is not supported")
                                .primary(id.span, "a depth-compared cube map array")
                                .note("NV_gpu_program5 adds SHADOWARRAYCUBE to <texTarget>; where its depth reference comes from (a cube map array coordinate already fills x, y, z and w) is defined by NV_gpu_program4_1 and ARB_texture_cube_map_array, which are not among the specifications nvp4c implements, so nvp4c refuses it rather than guess")
                                .note("help: ARRAYCUBE (without SHADOW) is supported"),
                        );
                        return None;
                    }
                    other => {
                        let names: Vec<&str> = names
                            .into_iter()
                            .filter(|n| self.dialect.texture_target_exists(n))
                            .collect();
                        let mut d =
                            Diagnostic::error("E0442", format!("unknown texture target `{other}`"))
                                .primary(id.span, "not a texture target");
                        if let Some(s) = did_you_mean(other, names.iter().copied()) {
                            d = d.note(format!("did you mean `{s}`?"));
                        }
                        self.error(d.note(format!("the texture targets of {} programs are {}", self.dialect.header, names.join(" "))).note("section 2.X.2: <texTarget> is one of 1D 2D 3D CUBE RECT SHADOW1D SHADOW2D SHADOWRECT ARRAY1D ARRAY2D SHADOWCUBE SHADOWARRAY1D SHADOWARRAY2D (and BUFFER for TXF, EXT_texture_buffer_object); ARB_fragment_program: 1D 2D 3D CUBE RECT, ARB_fragment_program_shadow adds SHADOW1D SHADOW2D SHADOWRECT"));
                        return None;
                    }
                };
                if !self.dialect.texture_target_exists(&id.name) {
                    let name = id.name.to_string();
                    self.unavailable(
                        &format!("the {name} texture target"),
                        id.span,
                        |d| d.texture_target_exists(&name),
                        "ARB_fragment_program_shadow: <texTarget> ::= ... | \"SHADOW1D\" | \"SHADOW2D\" | \"SHADOWRECT\"; the array, SHADOWCUBE, SHADOWARRAY and BUFFER targets are NV_gpu_program4's",
                    );
                    return None;
                }
                t
            }
            Some(a) => {
                bad(self, a.span(), "expected a texture target such as `2D`");
                return None;
            }
            None => {
                bad(
                    self,
                    args[0].span(),
                    "a texture target must follow the unit",
                );
                return None;
            }
        };
        // Section 2.X.4.4: one unit, one target (the SHADOW forms count as
        // targets of their own). NV_gpu_program5 2.X.4.4: sampling through a
        // texture array variable counts as sampling every unit it binds.
        let target_span = args[0].span().to(args[1].span());
        // A handle names a texture of its own, not a unit (NV_bindless_texture:
        // its "target ... must match the target specified by the <texTarget>
        // grammar rule or else the result is undefined").
        if !handle {
            let array_units = match (through_variable, args.first()) {
                (
                    true,
                    Some(Arg::Operand(ast::Operand {
                        path:
                            Path {
                                head: PathHead::Name(id),
                                ..
                            },
                        ..
                    })),
                ) => self
                    .textures
                    .get(&id.name)
                    .map(|(units, _)| units.clone())
                    .filter(|u| u.len() > 1),
                _ => None,
            };
            let through_array = array_units.is_some();
            for used in array_units.unwrap_or_else(|| vec![unit]) {
                match self.texture_targets.get(&used).copied() {
                    Some((t, first, first_through_array)) if t != target => {
                        let mut d = Diagnostic::error("E0444", format!("texture unit {used} is used with two targets"))
                        .primary(target_span, format!("used as {} here", target.name()))
                        .secondary(first, format!("used as {} here", t.name()))
                        .note("section 2.X.4.4: \"A program will fail to load if it attempts to sample from multiple texture targets (including the SHADOW pseudo-targets) on the same texture image unit.\"");
                        if through_array || first_through_array {
                            d = d.note(format!("NV_gpu_program5 2.X.4.4: \"sampling using a texture variable declared as an array is treated as though all texture image units bound to the variable were accessed\"; the array binds unit {used}"));
                        }
                        self.error(d);
                        return None;
                    }
                    Some(_) => {}
                    None => {
                        self.texture_targets
                            .insert(used, (target, target_span, through_array));
                    }
                }
            }
        }
        let offset = match args.get(2) {
            None => None,
            Some(Arg::Offset(_, span)) if !self.dialect.texel_offsets() => {
                self.unavailable(
                    "a texel offset",
                    *span,
                    |d| d.texel_offsets(),
                    "NV_gpu_program4 2.X.4.4: <texOffset> (texel offsets)",
                );
                return None;
            }
            Some(Arg::Offset(comps, span)) => {
                let mut o = [0i32; 3];
                if comps.len() > 3 {
                    bad(self, *span, "an offset has one to three components");
                    return None;
                }
                for (i, c) in comps.iter().enumerate() {
                    let v = match &c.number {
                        Number::Int(n) => n.value().filter(|v| *v <= 8).map(|v| {
                            if c.negative {
                                -(v as i32)
                            } else {
                                v as i32
                            }
                        }),
                        _ => None,
                    };
                    match v {
                        Some(v) if (-8..=7).contains(&v) => o[i] = v,
                        _ => {
                            self.error(
                                Diagnostic::error("E0443", "texel offset out of range")
                                    .primary(c.span, "offsets are integers from -8 to 7")
                                    .note("section 2.X.4.4: offsets must lie in [MIN_PROGRAM_TEXEL_OFFSET_EXT, MAX_PROGRAM_TEXEL_OFFSET_EXT] = [-8, 7]"),
                            );
                            return None;
                        }
                    }
                }
                Some(o)
            }
            Some(Arg::VariableOffset(_, span)) => {
                if !self.variable_texel_offset_allowed(info, target, *span) {
                    return None;
                }
                None
            }
            Some(a) => {
                bad(self, a.span(), "expected a texel offset such as `(1, -2)`");
                return None;
            }
        };
        if !self.texture_target_allowed(info, target, offset, args) {
            return None;
        }
        let (unit_select, unit_index) = match unit_select {
            Some((select, address)) => (Some(select), Some(address)),
            None => (None, None),
        };
        Some((
            ir::TexAccess {
                unit,
                target,
                offset,
                component,
                variable_offset: matches!(args.get(2), Some(Arg::VariableOffset(..))),
                unit_select,
                handle,
            },
            unit_index,
        ))
    }

    /// NV_bindless_texture's `handle(a.x)` needs its option (2.X.5.Y: "If
    /// a program ... specifies the option "NV_bindless_texture", the
    /// grammar edits described in section 2.X.2 will apply").
    ///
    /// `what` names the handle (`a texture handle`, `an image handle`).
    pub(super) fn texture_handle_allowed(&mut self, span: Span, what: &str) -> Option<()> {
        if !self.dialect.has(crate::isa::Features::BINDLESS_TEXTURE) {
            self.unavailable(
                what,
                span,
                |d| d.has(crate::isa::Features::BINDLESS_TEXTURE),
                "NV_bindless_texture 2.X.5.Y: `handle(a.x)` (<textureUseV>, <imageUnit>) exists with `OPTION NV_bindless_texture;`",
            );
            return None;
        }
        Some(())
    }

    /// NV_gpu_program5 2.X.8.Z, IPAC/IPAO/IPAS: "A program will fail to
    /// load if it contains an IPAC instruction whose single operand is not
    /// a fragment program attribute variable or matches the
    /// "fragment.facing" or "primitive.id" binding" (the same sentence for
    /// IPAO and IPAS, of their first operand).
    fn interpolated_attribute(&mut self, info: &OpInfo, src: &ir::Operand) -> bool {
        let v = self.var(src.var);
        let (why, decl) = match &v.kind {
            VarKind::Attrib(bindings) => match bindings.iter().find(|b| {
                matches!(
                    b,
                    ir::AttribBinding::Facing | ir::AttribBinding::PrimitiveId
                )
            }) {
                Some(ir::AttribBinding::Facing) => ("`fragment.facing` is not interpolated", None),
                Some(_) => ("`primitive.id` is not interpolated", None),
                None => return true,
            },
            _ => ("not a fragment attribute", Some(v.span)),
        };
        let mut d = Diagnostic::error(
            "E1130",
            format!(
                "{}'s operand is not a fragment attribute it can interpolate",
                info.name
            ),
        )
        .primary(src.span, why);
        if let Some(decl) = decl.filter(|s| *s != Span::default()) {
            d = d.secondary(decl, "declared here");
        }
        self.error(d.note(format!(
            "{}: \"A program will fail to load if it contains an {} instruction whose {} operand is not a fragment program attribute variable or matches the \"fragment.facing\" or \"primitive.id\" binding.\"",
            info.section,
            info.name,
            if info.opcode == Opcode::Ipac { "single" } else { "first" }
        )));
        false
    }

    /// NV_gpu_program5 2.X.4.4, `offset(a)` (<texOffsetVar>): which
    /// instructions and targets take a texel offset from an operand.
    fn variable_texel_offset_allowed(
        &mut self,
        info: &OpInfo,
        target: ir::TexTarget,
        span: Span,
    ) -> bool {
        use ir::TexTarget as T;
        if !self.dialect.has(crate::isa::Features::NV5) {
            self.unavailable(
                "a texel offset from an operand",
                span,
                |d| d.has(crate::isa::Features::NV5),
                "NV_gpu_program5 2.X.4.4: <texOffsetVar> ::= \"offset\" \"(\" <instOperandV> \")\"",
            );
            return false;
        }
        let rule = if matches!(info.opcode, Opcode::Txd | Opcode::Txgo) {
            Some(("E1136", format!("{} cannot take a texel offset from an operand", info.name), "NV_gpu_program5 2.X.4.4: a program will fail to load \"if a TXD or TXGO instruction specifies a non-constant texel offset according to the <texOffsetVar> grammar rule\""))
        } else if matches!(target, T::Cube | T::ShadowCube | T::ArrayCube) {
            Some(("E1136", format!("a {} texture takes no texel offset", target.name()), "NV_gpu_program5 2.X.4.4: a program will fail to load \"if any instruction specifies a non-constant texel offset according to the <texOffsetVar> grammar rule and the texture target is CUBE, SHADOWCUBE, ARRAYCUBE, or SHADOWARRAYCUBE\""))
        } else if !matches!(info.opcode, Opcode::Txf | Opcode::Txg) {
            Some(("E1137", format!("{} with a texel offset from an operand is not supported on Vulkan", info.name), "Vulkan allows a non-constant Offset image operand on gathers only (VUID-StandaloneSpirv-Offset-04663, without VK_KHR_maintenance8); nvp4c lowers `offset(…)` for TXF (added to the integer texel coordinates) and TXG (a gather's Offset), and a constant `(x, y)` offset for every instruction"))
        } else {
            None
        };
        if let Some((code, message, note)) = rule {
            self.error(
                Diagnostic::error(code, message)
                    .primary(span, "a texel offset from an operand")
                    .note(note),
            );
            return false;
        }
        true
    }

    /// Section 2.X.4.4 and the texture instructions of 2.X.8: which targets
    /// and offsets each instruction takes.
    fn texture_target_allowed(
        &mut self,
        info: &OpInfo,
        target: ir::TexTarget,
        offset: Option<[i32; 3]>,
        args: &[Arg],
    ) -> bool {
        use ir::TexTarget as T;
        let span = args.get(1).map_or(args[0].span(), Arg::span);
        let rule: Option<(&str, String)> = match (info.opcode, target) {
            (Opcode::Txf, T::Shadow1D | T::Shadow2D | T::ShadowRect | T::ShadowCube | T::ShadowArray1D | T::ShadowArray2D | T::Cube | T::ArrayCube) => Some((
                "E0445",
                "section 2.X.8.Z, TXF: \"If a program contains a TXF instruction specifying one of the \"SHADOW\" or \"CUBE\" targets, it will fail to load.\"".into(),
            )),
            (Opcode::Txb | Opcode::Txl | Opcode::Txp, T::ShadowCube | T::ShadowArray2D) => Some((
                "E0446",
                format!("{}: \"A program will fail to load if it contains a {} instruction with a target of SHADOWCUBE or SHADOWARRAY2D.\"", info.section, info.name),
            )),
            (Opcode::Txg, T::T1D | T::T3D | T::Array1D | T::Shadow1D | T::ShadowArray1D | T::Buffer) => Some((
                "E1131",
                "NV_gpu_program5 2.X.8.Z, TXG: \"TXG only operates on 2D, SHADOW2D, CUBE, SHADOWCUBE, ARRAY2D, SHADOWARRAY2D, ARRAYCUBE, SHADOWARRAYCUBE, RECT, and SHADOWRECT texture targets; a program will fail to compile if any other texture target is used.\"".into(),
            )),
            (Opcode::Txgo, T::T1D | T::T3D | T::Cube | T::ShadowCube | T::ArrayCube | T::Array1D | T::Shadow1D | T::ShadowArray1D | T::Buffer) => Some((
                "E1132",
                "NV_gpu_program5 2.X.8.Z, TXGO: \"TXGO only operates on 2D, SHADOW2D, ARRAY2D, SHADOWARRAY2D, RECT, and SHADOWRECT texture targets; a program will fail to compile if any other texture target is used.\"".into(),
            )),
            (op, T::Buffer) if op != Opcode::Txf && op != Opcode::Txq => Some((
                "E0447",
                "EXT_texture_buffer_object: the BUFFER target is read only with TXF (and queried with TXQ)".into(),
            )),
            _ => None,
        };
        if let Some((code, note)) = rule {
            self.error(
                Diagnostic::error(
                    code,
                    format!("{} cannot use the {} target", info.name, target.name()),
                )
                .primary(span, "target not allowed for this instruction")
                .note(note),
            );
            return false;
        }
        if info.opcode == Opcode::Txgo && offset.is_some_and(|o| o.iter().any(|&c| c != 0)) {
            let ospan = args.get(2).map_or(span, Arg::span);
            self.error(
                Diagnostic::error("E1133", "TXGO takes its texel offsets from its operands")
                    .primary(ospan, "a non-zero constant texel offset on TXGO")
                    .note("NV_gpu_program5 2.X.4.4: a program will fail to load \"if any component of the constant offset vector of a TXGO instruction is non-zero -- non-constant offsets are provided in separate operands\""),
            );
            return false;
        }
        if let Some(o) = offset {
            // Section 2.X.4.4: offset components beyond the target's
            // dimensions must be zero; cube maps and buffers take none.
            let dims = match target {
                T::T1D | T::Array1D | T::Shadow1D | T::ShadowArray1D => 1,
                T::T2D | T::Rect | T::Array2D | T::Shadow2D | T::ShadowRect | T::ShadowArray2D => 2,
                T::T3D => 3,
                T::Cube | T::ShadowCube | T::ArrayCube | T::Buffer => 0,
            };
            if o.iter().skip(dims).any(|&c| c != 0) {
                let ospan = args.get(2).map_or(span, Arg::span);
                self.error(
                    Diagnostic::error("E0448", format!("a {} texture takes {} offset component{}", target.name(), dims, if dims == 1 { "" } else { "s" }))
                        .primary(ospan, "non-zero offset component for a dimension the target does not have")
                        .note("section 2.X.4.4: a program will fail to load if the offset has a non-zero component beyond the target's dimensions; \"texel offsets are not supported for cube map or buffer textures\""),
                );
                return false;
            }
        }
        true
    }

    /// NV_fragment_program_option 3.11.3.4: "A fragment program will fail to
    /// load if contains instructions writing to variables bound to the same
    /// result, but declared with different sizes."
    fn result_size_rule(&mut self, dst: &ir::Dest) {
        if !self.dialect.one_size_per_result() {
            return;
        }
        let v = self.var(dst.var);
        let VarKind::Result(bindings) = &v.kind else {
            return;
        };
        let (bindings, precision) = (bindings.clone(), v.precision);
        for b in bindings {
            match self.result_sizes.get(&b).copied() {
                Some((p, first)) if p != precision => {
                    let size = |p: ir::Precision| match p {
                        ir::Precision::Short => "SHORT",
                        ir::Precision::Long => "LONG",
                        ir::Precision::Default => "no size",
                    };
                    self.error(
                        Diagnostic::error("E0451", "one result written through variables of different sizes")
                            .primary(dst.span, format!("written here through a variable of {}", size(precision)))
                            .secondary(first, format!("and here through one of {}", size(p)))
                            .note("NV_fragment_program_option 3.11.3.4: \"A fragment program will fail to load if contains instructions writing to variables bound to the same result, but declared with different sizes.\""),
                    );
                    return;
                }
                Some(_) => {}
                None => {
                    self.result_sizes.insert(b, (precision, dst.span));
                }
            }
        }
    }

    /// E1160: a 64-bit data type modifier (`.F64`, `.S64`, `.U64`) where
    /// NV_gpu_program5's Table X.13 has no "6" for the instruction, or in
    /// a language without them (NV_gpu_program4 and the ARB family).
    fn precision64_unavailable(&mut self, info: &OpInfo, m: Modifier, span: Span, opcode: Span) {
        let nv5 = info.in_column(crate::isa::Column::Nv5).is_some_and(|s| {
            if m == Modifier::F64 {
                s.float64
            } else {
                s.integer64
            }
        });
        let why = if nv5 && !self.dialect.features.contains(Features::NV5) {
            "NV_gpu_program5 2.X.4.1: the 64-bit modifiers are NV_gpu_program5's (`!!NVvp5.0`, `!!NVfp5.0`, ...); NV_gpu_program4 and the ARB languages have none".to_string()
        } else {
            let kind = if m == Modifier::F64 { "F" } else { "I" };
            format!("NV_gpu_program5 2.X.4, Table X.13: a \"6\" in the {kind} column \"indicates support for all modifiers, including 64-bit versions\"; {} has none there, and 2.X.4.1: \"The \"F64\", \"U64\", and \"S64\" modifiers are supported on only a subset of instructions, as documented in the instruction table.\"", info.name)
        };
        self.error(
            Diagnostic::error(
                "E1160",
                format!("{} has no 64-bit form `.{}`", info.name, m.name()),
            )
            .primary(span, "64-bit data type modifier")
            .secondary(opcode, format!("{} ({})", info.name, info.section))
            .note(why),
        );
    }

    /// E1161: NV_gpu_program5 2.X.8.Z, PK64 and UP64: the 64-bit side of
    /// the pack is a LONG variable.
    fn long_operand_rules(&mut self, info: &OpInfo, dst: &ir::Dest, srcs: &[ir::Operand]) -> bool {
        let is_long = |c: &Self, v: VarId| c.var(v).precision == ir::Precision::Long;
        let (span, var, what, quote) = match info.opcode {
            Opcode::Pk64 if !is_long(self, dst.var) => (
                dst.span,
                dst.var,
                "PK64 writes a variable not declared LONG",
                "A program will fail to load if it contains a PK64 instruction that writes its results to a variable not declared as \"LONG\".",
            ),
            Opcode::Up64 if srcs.first().is_some_and(|o| !is_long(self, o.var)) => (
                srcs[0].span,
                srcs[0].var,
                "UP64 reads a variable not declared LONG",
                "A program will fail to load if it contains a UP64 instruction whose operand is a variable not declared as \"LONG\".",
            ),
            _ => return true,
        };
        let decl = self.var(var).span;
        self.error(
            Diagnostic::error("E1161", what)
                .primary(span, "its 64-bit components need a LONG variable")
                .secondary(decl, "declared here")
                .note(format!("{}: \"{quote}\"", info.section)),
        );
        false
    }

    /// Sections 2.X.8.Z, PK2H ... UP4UB: packed values may not live in
    /// SHORT variables.
    fn short_operand_rules(&mut self, info: &OpInfo, dst: &ir::Dest, srcs: &[ir::Operand]) -> bool {
        let is_short = |c: &Self, v: VarId| c.var(v).precision == ir::Precision::Short;
        match info.opcode {
            Opcode::Pk2h | Opcode::Pk2us | Opcode::Pk4b | Opcode::Pk4ub
                if is_short(self, dst.var) =>
            {
                let decl = self.var(dst.var).span;
                self.error(
                    Diagnostic::error("E0449", format!("{} writes a SHORT variable", info.name))
                        .primary(dst.span, "packed result written here")
                        .secondary(decl, "declared SHORT here")
                        .note(format!("{}: \"A program will fail to load if it contains a {} instruction that writes its results to a variable declared as \"SHORT\".\"", info.section, info.name)),
                );
                false
            }
            Opcode::Up2h | Opcode::Up2us | Opcode::Up4b | Opcode::Up4ub
                if srcs.first().is_some_and(|o| is_short(self, o.var)) =>
            {
                let o = &srcs[0];
                let decl = self.var(o.var).span;
                self.error(
                    Diagnostic::error("E0449", format!("{} reads a SHORT variable", info.name))
                        .primary(o.span, "packed operand read here")
                        .secondary(decl, "declared SHORT here")
                        .note(format!("{}: \"A program will fail to load if it contains a {} instruction whose operand is a variable declared as \"SHORT\".\"", info.section, info.name)),
                );
                false
            }
            _ => true,
        }
    }

    /// Looks a path up: a declared name, or an implicit binding; for a
    /// binding indexed by an address register (`vertex.attrib[A0.x+1]`),
    /// also the index into the implicit array it names.
    fn lookup<'p>(
        &mut self,
        path: &'p Path,
        for_write: bool,
    ) -> Option<(VarId, &'p [PathPart], Span, Option<Index>)> {
        match &path.head {
            PathHead::Name(id) => match self.names.get(&id.name).copied() {
                Some(sym) if self.subroutines.is_subroutine_var(sym.var) => {
                    self.subroutine_var_misused(sym.var, id.span);
                    None
                }
                Some(sym) => Some((sym.var, &path.parts[..], id.span, None)),
                None => {
                    if let Some(first) = self.reported_undeclared.get(&id.name).copied() {
                        // Reported once; later uses only add a label.
                        if let Some(d) = self
                            .diags
                            .iter_mut()
                            .rev()
                            .find(|d| d.code == "E0301" && d.primary_span() == Some(first))
                        {
                            d.labels.push(crate::diag::Label {
                                span: id.span,
                                message: "also used here".into(),
                                primary: false,
                            });
                        }
                        return None;
                    }
                    if matches!(id.name.as_str(), "vertex" | "fragment" | "primitive")
                        && !path.parts.is_empty()
                    {
                        let stages = match id.name.as_str() {
                            "vertex" => "vertex and geometry programs",
                            "fragment" => "fragment programs",
                            _ => "fragment and geometry programs",
                        };
                        self.error(
                            Diagnostic::error("E0221", format!("`{}.…` bindings do not exist in {} programs", id.name, self.stage))
                                .primary(path.span, format!("a binding of {stages}"))
                                .note(format!("section 2.X.2: `{}` is a binding prefix only in {stages}; each program type has its own attribute bindings (NV_vertex_program4, NV_fragment_program4, NV_geometry_program4 section 2.X.3.2)", id.name)),
                        );
                        self.reported_undeclared.insert(id.name.clone(), id.span);
                        return None;
                    }
                    let rule = if for_write {
                        "section 2.X.3.4: temporaries must be declared with TEMP before use; results are written through OUTPUT variables or `result.*` bindings"
                    } else {
                        "section 2.X.4.2: an operand names a variable declared earlier, or a binding such as `fragment.texcoord[0]`"
                    };
                    let d = self.undeclared(id, rule);
                    self.error(d);
                    None
                }
            },
            PathHead::Root(root, rs) => {
                let decoded = match decode(self.dialect, *root, *rs, path, false) {
                    Ok(d) => d,
                    Err(d) => {
                        self.error(d);
                        return None;
                    }
                };
                let span = decoded.span;
                if let Some(rel) = &decoded.relative {
                    let index = self.relative_binding_index(rel, &decoded.binding)?;
                    let var = self.relative_binding_var(&decoded.binding, span)?;
                    return Some((var, decoded.rest, span, Some(index)));
                }
                let kind = match decoded.binding {
                    Binding::Attrib(v) => VarKind::Attrib(v),
                    Binding::Result(v) => VarKind::Result(v),
                    Binding::Param(v) => VarKind::Param(v),
                    Binding::Buffer { span: bspan, .. } => {
                        self.error(
                            Diagnostic::error("E0208", "a parameter buffer binding used directly in an instruction")
                                .primary(span.to(bspan), "declare a BUFFER or BUFFER4 variable bound to this and use that")
                                .note("NV_parameter_buffer_object section 2.X.3.6: program parameter buffer bindings may be used only in BUFFER and BUFFER4 declarations; using one in an instruction fails to load"),
                        );
                        return None;
                    }
                    Binding::Texture(_) => {
                        self.error(
                            Diagnostic::error("E0209", "a texture unit is not an operand")
                                .primary(span, "`texture[n]` appears only in a texture instruction's <texAccess>")
                                .note("section 2.X.4.4"),
                        );
                        return None;
                    }
                };
                let var = self.implicit_var(kind, span);
                Some((var, decoded.rest, span, None))
            }
            PathHead::Vector(_) | PathHead::Number(_) => None,
        }
    }

    /// The implicit array a relatively indexed binding reads or writes:
    /// every element of its family (`vertex.attrib[0..15]`), one variable
    /// per family and kind.
    fn relative_binding_var(&mut self, binding: &Binding, span: Span) -> Option<VarId> {
        let (key, kind, len) = match binding {
            Binding::Attrib(v) => (
                format!("A{:?}", v.first()),
                VarKind::Attrib(v.clone()),
                v.len(),
            ),
            Binding::Result(v) => (
                format!("R{:?}", v.first()),
                VarKind::Result(v.clone()),
                v.len(),
            ),
            _ => return None,
        };
        if let Some(&v) = self.relative_bindings.get(&key) {
            return Some(v);
        }
        let v = self.add_var(Variable {
            name: None,
            span,
            kind,
            ty: VarType::Typeless,
            precision: ir::Precision::Default,
            array_len: Some(len as u32),
            interpolation: ir::Interpolation::default(),
        });
        self.relative_bindings.insert(key, v);
        Some(v)
    }

    /// The index of `vertex.attrib[A0.x + n]` into its implicit array.
    fn relative_binding_index(
        &mut self,
        rel: &bindings::RelativeIndex<'_>,
        binding: &Binding,
    ) -> Option<Index> {
        let len = match binding {
            Binding::Attrib(v) => v.len(),
            Binding::Result(v) => v.len(),
            _ => 0,
        } as u32;
        let name = format!("{}[]", rel.family);
        self.relative_index(
            rel.register,
            rel.component,
            rel.offset,
            rel.span,
            len,
            &name,
        )
    }

    /// `[A0.x + offset]` into something of `len` elements: the address
    /// operand and the offset, checked as the dialect says (the register
    /// must be an address register in the ARB family, `A0` inside a LOOP
    /// with NV_fragment_program2; the offset within the dialect's range or
    /// within the array).
    pub(super) fn relative_index(
        &mut self,
        register: &Ident,
        component: &Ident,
        offset: i64,
        span: Span,
        len: u32,
        name: &str,
    ) -> Option<Index> {
        match self.dialect.relative_offsets() {
            Some((lo, hi)) if offset < i64::from(lo) || offset > i64::from(hi) => {
                self.error(
                    Diagnostic::error("E0347", format!("relative offset {offset} is outside [{lo}, {hi}]"))
                        .primary(span, "offset out of range")
                        .note(if self.dialect.has(Features::NV_VP2) {
                            "NV_vertex_program2_option: <arrayMemRelOffset> ::= \"+\" <integer> | \"-\" <integer> (a 32-bit offset)"
                        } else if self.dialect.has(Features::ARB_VP) {
                            "ARB_vertex_program 2.14.2: <addrRegPosOffset> ::= <integer> from 0 to 63; <addrRegNegOffset> ::= <integer> from 0 to 64"
                        } else {
                            "NV_fragment_program2 3.11.2: <addrRegPosOffset> ::= <integer> from 0 to 9"
                        }),
                );
                return None;
            }
            Some(_) => {}
            None if offset < 0 || offset >= i64::from(len) => {
                self.error(
                    Diagnostic::error("E0341", format!("relative offset {offset} is outside [0, {}]", len.saturating_sub(1)))
                        .primary(span, format!("`{name}` has {len} element{}", if len == 1 { "" } else { "s" }))
                        .note("section 2.X.4.2: \"The set of constant offsets supported for relative addressing is limited to values in the range [0,<n>-1] ... A program will fail to load if it specifies an offset outside that range.\"")
                        .note("to go further, add to the address register with an integer ADD first"),
                );
                return None;
            }
            None => {}
        }
        let address = self.address_operand(register, component)?;
        Some(Index::Relative {
            address: Box::new(address),
            offset: offset as i32,
        })
    }

    /// The address register component of a relative index, per the
    /// dialect's address model.
    fn address_operand(&mut self, register: &Ident, component: &Ident) -> Option<ir::Operand> {
        let span = register.span.to(component.span);
        let model = self.dialect.address_model();
        if model == AddressModel::None {
            // NV_gpu_program4: any integer scalar.
            let addr = ast::Operand {
                negate: false,
                abs: None,
                path: Path {
                    head: PathHead::Name(register.clone()),
                    parts: vec![PathPart::Member(component.clone())],
                    span,
                },
                span,
            };
            return self.source(
                &addr,
                OperandKind::Scalar(crate::isa::TypeRule::Signed),
                DataType::Signed,
                false,
            );
        }
        let var = if model == AddressModel::LoopIndex {
            if register.name != "A0" {
                self.error(
                    Diagnostic::error("E0457", format!("`{}` is not an address register", register.name))
                        .primary(register.span, "the only address register is A0")
                        .note("NV_fragment_program2 3.11.3.Y: \"There is only a single built-in address register, \"A0.x\" (loop index), which is available inside LOOP/ENDLOOP blocks.\""),
                );
                return None;
            }
            let Some(&v) = self.loop_indices.last() else {
                self.error(
                    Diagnostic::error("E0348", "A0.x outside a LOOP block")
                        .primary(span, "no loop index here")
                        .note("NV_fragment_program2 3.11.3.Y: \"A fragment program that accesses A0.x outside a LOOP/ENDLOOP block will fail to load.\" (the scope is static: a subroutine called from a loop has none)"),
                );
                return None;
            };
            v
        } else {
            let var = match self.names.get(&register.name) {
                Some(sym) => sym.var,
                None => {
                    let d = self.undeclared(
                        register,
                        "ARB_vertex_program 2.14.3.5: address registers are declared with ADDRESS",
                    );
                    self.error(d);
                    return None;
                }
            };
            if !self.address_vars.contains(&var) {
                let vspan = self.var(var).span;
                self.error(
                    Diagnostic::error("E0457", format!("`{}` is not an address register", register.name))
                        .primary(register.span, "relative addressing needs an address register")
                        .secondary(vspan, "declared here")
                        .note("ARB_vertex_program 2.14.2: <progParamArrayRel> ::= <addrReg> <addrComponent> <addrRegRelOffset>; address registers are declared with ADDRESS and written by ARL"),
                );
                return None;
            }
            var
        };
        let c = match (component.name.as_str(), model) {
            ("x", _) => 0,
            ("y", AddressModel::ArbVector) => 1,
            ("z", AddressModel::ArbVector) => 2,
            ("w", AddressModel::ArbVector) => 3,
            (other, _) => {
                let vector = model == AddressModel::ArbVector;
                self.error(
                    Diagnostic::error("E0455", format!("`.{other}` is not an address register component here"))
                        .primary(component.span, if vector { "one of x, y, z, w" } else { "only `.x`" })
                        .note(if vector {
                            "NV_vertex_program2_option: <addrComponent> ::= <xyzwComponent>"
                        } else {
                            "ARB_vertex_program 2.14.2: <addrComponent> ::= \".\" \"x\"; NV_fragment_program2: <addrComponent> ::= \"x\" (the NV_vertex_program2 option gives four components)"
                        }),
                );
                return None;
            }
        };
        Some(ir::Operand {
            var,
            index: Index::None,
            swizzle: Swizzle::splat(c),
            negate: false,
            abs: false,
            negate_abs: false,
            ty: DataType::Signed,
            span,
        })
    }

    /// The index variable of a LOOP: a signed integer temporary the loop
    /// writes (NV_fragment_program2's `A0.x`).
    pub(super) fn loop_index_var(&mut self, span: Span) -> VarId {
        self.add_var(Variable {
            name: None,
            span,
            kind: VarKind::Temp,
            ty: VarType::Typed(DataType::Signed),
            precision: ir::Precision::Default,
            array_len: None,
            interpolation: ir::Interpolation::default(),
        })
    }

    fn implicit_var(&mut self, kind: VarKind, span: Span) -> VarId {
        let key = super::ImplicitKey::of(&kind);
        if let Some(&v) = self.implicit.get(&key) {
            return v;
        }
        // An implicit fragment attribute inherits the interpolation of a
        // declared one with the same binding (NV_fragment_program4 2.X.3.1).
        let interpolation = match &kind {
            VarKind::Attrib(b) if b.len() == 1 => self
                .interp_by_binding
                .get(&b[0])
                .map(|x| x.0)
                .unwrap_or_default(),
            _ => ir::Interpolation::default(),
        };
        let v = self.add_var(Variable {
            name: None,
            span,
            kind,
            ty: VarType::Typeless,
            precision: ir::Precision::Default,
            array_len: None,
            interpolation,
        });
        self.implicit.insert(key, v);
        v
    }

    /// `name[k]...` or `name[A.x + k]...` on a BUFFER or BUFFER4 variable
    /// bound to `program.buffer[a..b]` (NV_gpu_program5 2.X.3.6: "the
    /// first index specifying an offset into the range of buffer object
    /// binding points"; "If such a variable is declared as an array, a
    /// second index must be provided to identify the individual array
    /// element"): the picked binding point's variable (the range's first
    /// when a register picks it), the index and the parts after it.
    fn buffer_range_index<'p>(
        &mut self,
        vars: &[VarId],
        parts: &'p [PathPart],
        name: &str,
        name_span: Span,
    ) -> Option<(VarId, Index, &'p [PathPart])> {
        let (var, select, rest) = match self.pick_binding_point(vars, parts, name, name_span) {
            Ok(picked) => picked?,
            Err((span, what)) => {
                let d = super::buffer_pick_error(span, name, &what);
                self.error(d);
                return None;
            }
        };
        let (element, rest) = self.index(var, rest, name_span)?;
        match select {
            None => Some((var, element, rest)),
            Some(select) => Some((
                var,
                Index::BufferRange(Box::new(ir::BufferRangeIndex {
                    select: *select,
                    element,
                })),
                rest,
            )),
        }
    }

    /// Resolves `[...]` on a variable; returns the index and the parts after it.
    pub(super) fn index<'p>(
        &mut self,
        var: VarId,
        parts: &'p [PathPart],
        name_span: Span,
    ) -> Option<(Index, &'p [PathPart])> {
        // NV_geometry_program4 2.X.3.2: a variable bound to `vertex.<x>`
        // with no vertex number is indexed by vertex first.
        let per_vertex = matches!(&self.var(var).kind, VarKind::Attrib(b) if b.iter().all(|b| matches!(b, ir::AttribBinding::PerVertex { vertex: None, .. } | ir::AttribBinding::OutputVertex { vertex: None, .. })));
        if per_vertex {
            let vertices = self.vertex_count();
            let name = self.var(var).name.clone().unwrap_or_default();
            let Some(PathPart::Index(ix, span)) = parts.first() else {
                self.error(
                    Diagnostic::error("E0344", format!("per-vertex attribute `{name}` used without a vertex number"))
                        .primary(name_span, "write `name[v]` to select the vertex")
                        .note(if matches!(self.stage, crate::isa::Stage::TessControl | crate::isa::Stage::TessEval) {
                            "NV_tessellation_program5 2.X.3.2: attribute variables bound to `vertex.<binding>` or `vertex.out.<binding>` without a vertex number are arrays over the vertices of the patch"
                        } else {
                            "NV_geometry_program4 section 2.X.3.2: attribute variables bound to `vertex.<binding>` are arrays over the vertices of the input primitive"
                        }),
                );
                return None;
            };
            let declared = self.var(var).span;
            let vertex = self.element_index(ix, *span, vertices, &name, declared)?;
            let (element, rest) = if self.var(var).is_array() {
                self.index_plain(var, &parts[1..], name_span)?
            } else {
                (Index::None, &parts[1..])
            };
            return Some((
                Index::PerVertex(Box::new(ir::PerVertexIndex { vertex, element })),
                rest,
            ));
        }
        self.index_plain(var, parts, name_span)
    }

    /// The number of vertices of the input primitive (PRIMITIVE_IN).
    fn vertex_count(&self) -> u32 {
        self.geometry_decls
            .iter()
            .find(|d| d.0 == "PRIMITIVE_IN")
            .and_then(|d| d.2.as_deref())
            .map_or(6, |p| match p {
                "POINTS" => 1,
                "LINES" => 2,
                "LINES_ADJACENCY" => 4,
                "TRIANGLES" => 3,
                _ => 6,
            })
    }

    fn index_plain<'p>(
        &mut self,
        var: VarId,
        parts: &'p [PathPart],
        name_span: Span,
    ) -> Option<(Index, &'p [PathPart])> {
        let v: &Variable = self.var(var);
        let len = v.array_len;
        // The name is for the messages: made only where one may be written,
        // not cloned for every operand.
        let name = |c: &Self| c.var(var).name.clone().unwrap_or_else(|| "binding".into());
        match (parts.first(), len) {
            (Some(PathPart::Index(ix, span)), Some(n)) => {
                // A literal index in range, the common case: what
                // `element_index` makes of it, without its messages.
                if let IndexExpr::Int(lit) = ix {
                    if let Some(i) = bindings::int_value(lit).ok().filter(|&i| i < n) {
                        return Some((Index::Absolute(i), &parts[1..]));
                    }
                }
                let name = name(self);
                let declared = self.var(var).span;
                let index = self.element_index(ix, *span, n, &name, declared)?;
                Some((index, &parts[1..]))
            }
            (Some(PathPart::Index(_, span)), None) => {
                let name = name(self);
                self.error(
                    Diagnostic::error("E0343", format!("`{name}` is not an array"))
                        .primary(*span, "cannot be indexed")
                        .secondary(self.var(var).span, "declared here without a size")
                        .note("section 2.X.4.2: \"If the operand variable is not an array, its contents are loaded directly.\""),
                );
                None
            }
            (_, Some(n)) => {
                let name = name(self);
                self.error(
                    Diagnostic::error("E0344", format!("array `{name}` used without an index"))
                        .primary(name_span, format!("select one of its {n} elements with `[n]`"))
                        .secondary(self.var(var).span, "declared here as an array")
                        .note("section 2.X.4.2: \"If the operand variable is an array, a single element of the array is loaded according to the <arrayMem> grammar rule.\""),
                );
                None
            }
            _ => Some((Index::None, parts)),
        }
    }

    /// `[n]` or `[A0.x + n]` into something of `n` elements.
    fn element_index(
        &mut self,
        ix: &IndexExpr,
        span: Span,
        n: u32,
        name: &str,
        declared: Span,
    ) -> Option<Index> {
        let span = &span;
        Some(match ix {
            IndexExpr::Int(i) => {
                let i = match bindings::int_value(i) {
                    Ok(i) => i,
                    Err(d) => {
                        self.error(d);
                        return None;
                    }
                };
                if i >= n {
                    self.error(
                                Diagnostic::error("E0340", format!("index {i} is out of range for `{name}`"))
                                    .primary(*span, format!("`{name}` has {n} element{}", if n == 1 { "" } else { "s" }))
                                    .secondary(declared, "declared here")
                                    .note("section 2.X.4.2: \"If the specified member number is greater than or equal to the size of the array, the program will fail to load.\""),
                            );
                    return None;
                }
                Index::Absolute(i)
            }
            IndexExpr::Relative {
                register,
                component,
                offset,
            } => {
                let off = super::instr::relative_offset(offset.as_deref());
                self.relative_index(register, component, off, *span, n, name)?
            }
            IndexExpr::Word(w) => {
                self.error(bindings::word_index_error(w));
                return None;
            }
            IndexExpr::Range(..) | IndexExpr::Empty => {
                self.error(
                            Diagnostic::error("E0342", format!("`{name}` needs a single index here"))
                                .primary(*span, "write `[n]` or `[A0.x + n]`")
                                .note("section 2.X.2: an operand selects one element with <arrayMemAbs> or <arrayMemRel>"),
                        );
                return None;
            }
        })
    }

    fn type_conflict(
        &mut self,
        var: VarId,
        span: Span,
        ty: DataType,
        ntc: bool,
        what: &str,
    ) -> bool {
        let v = self.var(var);
        if let VarType::Typed(declared) = v.ty {
            if declared != ty && !ntc {
                let vspan = v.span;
                let name = v.name.clone().unwrap_or_default();
                self.error(
                    Diagnostic::error("E0350", format!("`{name}` is {} but is {what} as {}", declared.name(), ty.name()))
                        .primary(span, format!("{what} as {}", ty.name()))
                        .secondary(vspan, format!("declared here as {}", declared.name()))
                        .note("section 2.X.4: \"If any variables with a conflicting data type are used in the instruction, the program will fail to load unless the \"NTC\" (no type checking) instruction modifier is specified.\""),
                );
                return true;
            }
        }
        false
    }

    /// A source operand (section 2.X.4.2).
    pub(super) fn source(
        &mut self,
        o: &ast::Operand,
        kind: OperandKind,
        op_ty: DataType,
        ntc: bool,
    ) -> Option<ir::Operand> {
        if kind == OperandKind::Address {
            return self.address_source(o);
        }
        let ty = kind.type_rule().resolve(op_ty);
        if o.abs.is_some() && !self.dialect.absolute_value() {
            self.unavailable(
                "the absolute value operator `|...|`",
                o.span,
                |d| d.absolute_value(),
                "NV_vertex_program2_option / NV_fragment_program_option: <instOperandAbsV> ::= <optSign> \"|\" <instOperandBaseV> \"|\"",
            );
            return None;
        }
        let (negate, abs, negate_abs) = match o.abs {
            Some(inner) => (inner, true, o.negate),
            None => (o.negate, false, false),
        };
        // Constants used directly: typed by the operand (section 2.X.3.3).
        let (var, rest) = match &o.path.head {
            PathHead::Vector(v) => {
                let c = self.constant(&v.components, false, ty)?;
                (self.constant_var(c, v.span), &o.path.parts[..])
            }
            PathHead::Number(n) => {
                let sn = SignedNumber {
                    negative: false,
                    number: n.clone(),
                    span: n.span(),
                };
                let c = self.constant(&[sn], true, ty)?;
                let var = self.constant_var(c, n.span());
                if self.dialect.scalar_constant_suffix() {
                    // ARB_vertex_program / ARB_fragment_program: a scalar
                    // constant is <constantScalar> <swizzleSuffix> in a vector
                    // operand and <constantScalar> <scalarSuffix> in a scalar
                    // one ("you have to say "11.0.x" to use the constant").
                    if kind.is_scalar() && o.path.parts.is_empty() {
                        self.error(
                            Diagnostic::error("E0431", "a scalar operand needs a component suffix, even on a constant")
                                .primary(o.path.span, format!("write `{}.x`", n_text(n)))
                                .note(format!("{}: <scalarSrcReg> ::= <optionalSign> <srcReg> <scalarSuffix>; the NV options drop the suffix on constants (\"you have to say \"11.0.x\" to use the constant \"11.0\"\")", self.dialect.header.spec())),
                        );
                        return None;
                    }
                    let swizzle = self.operand_suffix(&o.path.parts, kind, o.path.span)?;
                    return Some(ir::Operand {
                        var,
                        index: Index::None,
                        swizzle,
                        negate,
                        abs,
                        negate_abs,
                        ty,
                        span: o.span,
                    });
                }
                if !o.path.parts.is_empty() {
                    self.error(
                        Diagnostic::error("E0345", "a scalar constant takes no suffix")
                            .primary(
                                o.path.span,
                                "write `{1, 2}.x` for a vector constant, or the number alone",
                            )
                            .note("section 2.X.2: <paramUseV> ::= ... | <constantScalar>; NV_vertex_program2_option / NV_fragment_program_option: \"<paramUseV> ::= <constantScalar> (*** instead of <constantScalar> <swizzleSuffix>)\""),
                    );
                    return None;
                }
                (var, &o.path.parts[..])
            }
            _ => {
                let (var, rest, name_span, rel) = self.lookup(&o.path, false)?;
                let (var, index, rest) = if let Some(index) = rel {
                    (var, index, rest)
                } else if let (Some(vars), PathHead::Name(id)) =
                    (self.buffer_ranges.get(&var).cloned(), &o.path.head)
                {
                    self.buffer_range_index(&vars, rest, &id.name, name_span)?
                } else if matches!(o.path.head, PathHead::Name(_)) {
                    let (index, rest) = self.index(var, rest, name_span)?;
                    (var, index, rest)
                } else {
                    (var, Index::None, rest)
                };
                if self.address_vars.contains(&var) {
                    self.address_misuse(var, o.path.span, "read");
                    return None;
                }
                let v = self.var(var);
                if let VarKind::Result(_) = v.kind {
                    let vspan = v.span;
                    self.error(
                        Diagnostic::error("E0351", "a result variable is read")
                            .primary(o.path.span, "results are write-only")
                            .secondary(vspan, "declared here as a result")
                            .note("section 2.X.3.5: \"All result variables ... are write-only during program execution\""),
                    );
                    return None;
                }
                if let VarKind::Counter(_) = v.kind {
                    let vspan = v.span;
                    self.error(
                        Diagnostic::error(
                            "E1174",
                            "a COUNTER variable is read by an instruction other than ATOMCTR",
                        )
                        .primary(o.path.span, "only ATOMCTR takes it")
                        .secondary(vspan, "declared here")
                        .note(super::counter::USE_RULE),
                    );
                    return None;
                }
                if let VarKind::ConstantBuffer(_) = v.kind {
                    let vspan = v.span;
                    self.error(
                        Diagnostic::error(
                            "E1171",
                            "a CBUFFER variable is read by an instruction other than LDC",
                        )
                        .primary(o.path.span, "only LDC takes it")
                        .secondary(vspan, "declared here")
                        .note(super::memory::CBUFFER_RULE),
                    );
                    return None;
                }
                if let VarKind::Storage(_) | VarKind::Shared(_) = v.kind {
                    // NV_compute_program5 2.X.3.Y and
                    // NV_shader_storage_buffer_object 2.X.3.Y: memory
                    // variables are operands of the memory instructions only.
                    let (code, rule) = match v.kind {
                        VarKind::Shared(_) => ("E1155", super::memory::SHARED_RULE),
                        _ => ("E1106", super::memory::STORAGE_RULE),
                    };
                    let vspan = v.span;
                    self.error(
                        Diagnostic::error(
                            code,
                            "a memory variable is read by a general instruction",
                        )
                        .primary(o.path.span, "only LDB/STB/ATOMB and LDS/STS/ATOMS take it")
                        .secondary(vspan, "declared here")
                        .note(rule),
                    );
                    return None;
                }
                if self.type_conflict(var, o.path.span, ty, ntc, "read") {
                    return None;
                }
                let swizzle = self.operand_suffix(rest, kind, o.path.span)?;
                return Some(ir::Operand {
                    var,
                    index,
                    swizzle,
                    negate,
                    abs,
                    negate_abs,
                    ty,
                    span: o.span,
                });
            }
        };
        // <paramUseS> ::= ... | <constantScalar>: a bare number is a scalar
        // operand without a suffix (its four components are equal).
        let swizzle = if matches!(o.path.head, PathHead::Number(_)) {
            Swizzle::IDENTITY
        } else {
            self.operand_suffix(rest, kind, o.path.span)?
        };
        Some(ir::Operand {
            var,
            index: Index::None,
            swizzle,
            negate,
            abs,
            negate_abs,
            ty,
            span: o.span,
        })
    }

    /// An address register operand of ARA or PUSHA: the whole register, no
    /// swizzle or sign (<instOperandAddrVNS>).
    fn address_source(&mut self, o: &ast::Operand) -> Option<ir::Operand> {
        let bad = |c: &mut Self, span: Span, label: &str| {
            c.error(
                Diagnostic::error("E0453", "expected a whole address register")
                    .primary(span, label.to_string())
                    .note("NV_vertex_program2_option: <instOperandAddrVNS> ::= <addrUseVNS>; <addrUseVNS> ::= <addrVarName>: \"Component swizzling is not supported when the operand is loaded.\""),
            );
        };
        let PathHead::Name(id) = &o.path.head else {
            bad(self, o.span, "not an address register");
            return None;
        };
        if o.negate || o.abs.is_some() {
            bad(self, o.span, "no sign or |...| on an address register");
            return None;
        }
        if let Some(part) = o.path.parts.first() {
            let span = match part {
                PathPart::Member(m) => m.span,
                PathPart::Index(_, s) => *s,
            };
            bad(self, span, "no swizzle or index here");
            return None;
        }
        let (var, _, _, _) = self.lookup(&o.path, false)?;
        if !self.address_vars.contains(&var) {
            bad(self, id.span, "not declared with ADDRESS");
            return None;
        }
        Some(ir::Operand {
            var,
            index: Index::None,
            swizzle: Swizzle::IDENTITY,
            negate: false,
            abs: false,
            negate_abs: false,
            ty: DataType::Signed,
            span: o.span,
        })
    }

    /// An address register used where it cannot be (ARB_vertex_program
    /// 2.14.2: <srcReg> and <dstReg> name temporaries, attributes,
    /// parameters and results; address registers are written by ARL, ARR,
    /// ARA and POPA and read by relative addressing, ARA and PUSHA).
    fn address_misuse(&mut self, var: VarId, span: Span, what: &str) {
        let name = self.var(var).name.clone().unwrap_or_default();
        let decl = self.var(var).span;
        self.error(
            Diagnostic::error("E0454", format!("address register `{name}` {what} as an ordinary operand"))
                .primary(span, "an address register")
                .secondary(decl, "declared with ADDRESS here")
                .note("ARB_vertex_program 2.14.2 (and NV_vertex_program2_option, NV_vertex_program3): address registers are written only by ARL, ARR, ARA and POPA, and read only by relative addressing (`c[A0.x]`), ARA and PUSHA"),
        );
    }

    fn constant_var(&mut self, c: [Literal; 4], span: Span) -> VarId {
        // Looked up by its key first: a constant used again (most are)
        // needs no binding list, which is an allocation.
        if let Some(&v) = self.implicit.get(&super::ImplicitKey::constant(&c)) {
            return v;
        }
        self.implicit_var(VarKind::Param(vec![ir::ParamBinding::Constant(c)]), span)
    }

    pub(super) fn operand_suffix(
        &mut self,
        rest: &[PathPart],
        kind: OperandKind,
        at: Span,
    ) -> Option<Swizzle> {
        match rest {
            [] if kind.is_scalar() => {
                self.error(
                    Diagnostic::error("E0431", "a scalar operand needs a component suffix")
                        .primary(at, "add e.g. `.x`")
                        .note("section 2.X.4.2: a scalar operand (<instOperandS>) ends in a <scalarSuffix>, such as `.x`"),
                );
                None
            }
            [] => Some(Swizzle::IDENTITY),
            [PathPart::Member(s)] => self.swizzle(s, kind.is_scalar()),
            [PathPart::Member(_), extra, ..] | [extra @ PathPart::Index(..), ..] => {
                let span = match extra {
                    PathPart::Member(id) => id.span,
                    PathPart::Index(_, s) => *s,
                };
                self.error(
                    Diagnostic::error("E0346", "unexpected suffix after the operand")
                        .primary(span, "not part of this operand")
                        .note("section 2.X.4.2: an operand is a variable or binding, an optional array index, and an optional swizzle"),
                );
                None
            }
        }
    }

    /// The destination (section 2.X.4.3).
    pub(super) fn dest(
        &mut self,
        o: &ast::Operand,
        cc: Option<&CcMask>,
        ty: DataType,
        ntc: bool,
        info: &OpInfo,
    ) -> Option<ir::Dest> {
        if o.negate || o.abs.is_some() {
            self.error(
                Diagnostic::error("E0360", "a destination cannot be negated or take an absolute value")
                    .primary(o.span, "destination")
                    .note("section 2.X.2: <instResult> ::= <tempUseW> | <resultUseW>, with no sign or bars"),
            );
            return None;
        }
        if !matches!(
            o.path.head,
            PathHead::Name(_) | PathHead::Root(ast::Root::Result, _)
        ) {
            self.error(
                Diagnostic::error(
                    "E0361",
                    format!("{} writes to a temporary or a result", info.name),
                )
                .primary(o.path.span, "not writable")
                .note("section 2.X.2: <instResultBase> ::= <tempUseW> | <resultUseW>"),
            );
            return None;
        }
        let (var, rest, name_span, rel) = self.lookup(&o.path, true)?;
        let (index, rest) = if let Some(index) = rel {
            (index, rest)
        } else if matches!(o.path.head, PathHead::Name(_)) {
            self.index(var, rest, name_span)?
        } else {
            (Index::None, rest)
        };
        let address_result = matches!(info.result, ResultKind::Address);
        if address_result != self.address_vars.contains(&var) {
            if address_result {
                let name = self
                    .var(var)
                    .name
                    .clone()
                    .unwrap_or_else(|| "this binding".into());
                self.error(
                    Diagnostic::error("E0454", format!("{} writes an address register, and `{name}` is not one", info.name))
                        .primary(o.path.span, "not declared with ADDRESS")
                        .note(format!("{}: <instResultAddr> ::= <addrUseW>: ARL, ARR, ARA and POPA write address registers only", info.section)),
                );
            } else {
                self.address_misuse(var, o.path.span, "written");
            }
            return None;
        }
        let v = self.var(var);
        if let VarKind::Shared(_) = v.kind {
            // NV_compute_program5 2.X.3.Y: "they may not be used by used
            // as results ... in general instructions".
            let vspan = v.span;
            self.error(
                Diagnostic::error(
                    "E1155",
                    "a SHARED variable is written by a general instruction",
                )
                .primary(o.path.span, "only STS and ATOMS write shared memory")
                .secondary(vspan, "declared here")
                .note(super::memory::SHARED_RULE),
            );
            return None;
        }
        if !matches!(v.kind, VarKind::Temp | VarKind::Result(_)) {
            let vspan = v.span;
            self.error(
                Diagnostic::error("E0361", format!("`{}` cannot be written", v.name.clone().unwrap_or_else(|| "this binding".into())))
                    .primary(o.path.span, "not a temporary or a result")
                    .secondary(vspan, "declared here")
                    .note("section 2.X.2: <instResultBase> ::= <tempUseW> | <resultUseW>; attributes and parameters are read-only"),
            );
            return None;
        }
        if self.type_conflict(var, o.path.span, ty, ntc, "written") {
            return None;
        }
        let mask = match rest {
            [] => WriteMask::ALL,
            [PathPart::Member(m)] => self.write_mask(m)?,
            [_, extra, ..] | [extra] => {
                let span = match extra {
                    PathPart::Member(id) => id.span,
                    PathPart::Index(_, s) => *s,
                };
                self.error(
                    Diagnostic::error("E0346", "unexpected suffix after the destination")
                        .primary(span, "not part of this destination")
                        .note("section 2.X.4.3: a destination is a variable, an optional index and an optional write mask"),
                );
                return None;
            }
        };
        // ARB_vertex_program: the address register has one accessible
        // component; <maskedAddrReg> ::= <addrReg> <addrWriteMask>,
        // <addrWriteMask> ::= "." "x".
        if address_result
            && self.dialect.address_model() == AddressModel::ArbScalar
            && mask != WriteMask(1)
        {
            self.error(
                Diagnostic::error("E0455", format!("{} writes `.x` of an address register only", info.name))
                    .primary(o.path.span, "write `A0.x`")
                    .note("ARB_vertex_program 2.14.2: <maskedAddrReg> ::= <addrReg> <addrWriteMask>; <addrWriteMask> ::= \".\" \"x\" (NV_vertex_program2_option makes address registers four-component)"),
            );
            return None;
        }
        // RFL in the NV fragment options: "A fragment program will fail to
        // load if the w component of the result is enabled in the component
        // write mask."
        if mask.has(3) && info.in_dialect(self.dialect).is_some_and(|m| m.xyz_only) {
            self.error(
                Diagnostic::error("E0450", format!("{} writes the w component", info.name))
                    .primary(o.span, "the write mask includes w; write `.xyz`")
                    .note(format!("{} 3.11.5.36, {}: \"A fragment program will fail to load if the w component of the result is enabled in the component write mask.\"", self.dialect.column().spec(), info.name)),
            );
            return None;
        }
        let cc_mask = match cc {
            Some(m) => Some(self.cc_test(m)?),
            None => None,
        };
        Some(ir::Dest {
            var,
            index,
            mask,
            cc_mask,
            ty,
            span: o.span,
        })
    }
}

/// Whether a modifier is allowed on `info` given its modifiers in the
/// dialect (`sup`): the table's letters, and the dialect's condition code
/// registers (`C0`/`C1` need two) and saturations (`_SSAT`).
fn modifier_allowed(info: &OpInfo, m: Modifier, sup: ModifierSupport, d: Dialect) -> bool {
    match m {
        Modifier::F => sup.float,
        Modifier::PrecisionFull => sup.full,
        Modifier::PrecisionHalf => sup.half,
        Modifier::PrecisionFixed => sup.fixed,
        Modifier::U | Modifier::S => sup.integer,
        Modifier::F64 => sup.float64,
        Modifier::S64 | Modifier::U64 => sup.integer64,
        Modifier::Cc => sup.cc && d.cc_registers() > 0,
        Modifier::Cc0 | Modifier::Cc1 => sup.cc && d.cc_registers() > 1,
        Modifier::Sat => sup.clamp,
        Modifier::Ssat => sup.clamp && d.signed_saturation(),
        Modifier::Ntc => info.has_result() || !info.inputs.is_empty(),
        Modifier::S24 | Modifier::U24 | Modifier::Hi => {
            info.opcode == Opcode::Mul && d.standalone_modifiers()
        }
        // NV_gpu_program5 2.X.4.1: "For arithmetic and logical operations,
        // the "PREC" modifier controls whether the instruction result should
        // be treated as precise." The backend already rounds every float
        // operation on its own (NoContraction, src/spirv/alu.rs), which is
        // what PREC asks for, so it changes nothing in the module.
        Modifier::Prec => {
            d.has(Features::NV5) && matches!(info.shape, Shape::Alu) && info.has_result()
        }
    }
}

/// Where [`Checker::mods_of`] keeps the first modifier of a kind.
fn kind_slot(k: ModifierKind) -> usize {
    match k {
        ModifierKind::DataType => 0,
        ModifierKind::CcUpdate => 1,
        ModifierKind::Clamp => 2,
        ModifierKind::NoTypeCheck => 3,
        ModifierKind::Multiply => 4,
        ModifierKind::Precise => 5,
    }
}

/// A modifier as the program wrote it (`C1`, `_SAT`, `.CC1`).
fn suffix_text(word: &str, span: Span, word_span: Span, m: Modifier) -> String {
    if word_span.start <= span.start && span.end <= word_span.end {
        let a = (span.start - word_span.start) as usize;
        let b = (span.end - word_span.start) as usize;
        if let Some(t) = word.get(a..b) {
            return t.to_string();
        }
    }
    format!(".{}", m.name())
}

/// Whether `name` is an instruction of the dialect, with suffixes it
/// allows there (the ARB family reserves these words, "and variants").
pub(super) fn is_instruction_name(d: Dialect, name: &str) -> bool {
    let Ok(split) = split_opcode(name) else {
        return false;
    };
    let Some(sup) = split.info.in_dialect(d) else {
        return false;
    };
    split
        .suffixes
        .iter()
        .all(|(m, _, _)| modifier_allowed(split.info, *m, sup, d))
}

/// Whether `rest` is made only of Table X.15 suffixes (in any order), so a
/// failure to split it is an ordering mistake rather than a misspelling.
fn is_suffix_soup(mut rest: &str) -> bool {
    while !rest.is_empty() {
        let Some(n) = ["_SSAT", "_SAT", "C0", "C1", "C", "R", "H", "X"]
            .iter()
            .find(|p| rest.starts_with(**p))
        else {
            return false;
        };
        rest = &rest[n.len()..];
    }
    true
}

/// The component numbers of a swizzle or write mask (at most four), in
/// the order written.
///
/// Held in place, not in a `Vec`: every operand suffix and write mask of
/// a program is read through [`components`], and a `Vec` was an
/// allocation for each (docs/performance.md, "Session 10 (checker)").
struct Components {
    comps: [u8; 4],
    len: usize,
}

impl std::ops::Deref for Components {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.comps[..self.len]
    }
}

/// Component numbers of a swizzle or mask string; rejects mixing xyzw with rgba.
fn components(s: &str) -> Result<Components, String> {
    let mut out = Components {
        comps: [0; 4],
        len: 0,
    };
    // Every character is looked at before the count is, so that a bad
    // letter past the fourth is reported as the letter (as before).
    let mut count = 0;
    let mut set: Option<bool> = None;
    for ch in s.chars() {
        let (c, xyzw) = match ch {
            'x' => (0, true),
            'y' => (1, true),
            'z' => (2, true),
            'w' => (3, true),
            'r' => (0, false),
            'g' => (1, false),
            'b' => (2, false),
            'a' => (3, false),
            other => return Err(format!("`{other}` is not a component (x y z w or r g b a)")),
        };
        if *set.get_or_insert(xyzw) != xyzw {
            return Err("mixes xyzw with rgba components".into());
        }
        if count < 4 {
            out.comps[count] = c;
        }
        count += 1;
    }
    if count > 4 {
        return Err("more than four components".into());
    }
    out.len = count;
    Ok(out)
}

fn supported_list(info: &OpInfo) -> String {
    supported_list_in(info, Dialect::new(crate::isa::Header::NvFp4))
}

fn supported_list_in(info: &OpInfo, dialect: Dialect) -> String {
    let groups: Vec<String> = info
        .modifier_groups_in(dialect)
        .iter()
        .map(
            |(standalone, suffixes)| match (standalone.is_empty(), suffixes.is_empty()) {
                (false, false) => {
                    format!("{} (suffix {})", standalone.join(", "), suffixes.join(", "))
                }
                (false, true) => standalone.join(", "),
                _ => format!("suffix {}", suffixes.join(", ")),
            },
        )
        .collect();
    if groups.is_empty() {
        "no modifiers".into()
    } else {
        groups.join("; ")
    }
}

/// A number as written.
fn n_text(n: &Number) -> String {
    match n {
        Number::Int(i) => i.text.to_string(),
        Number::Float { text, .. } => text.to_string(),
    }
}

/// How the instruction is written, from the table.
fn usage(info: &OpInfo) -> String {
    let ops: Vec<&str> = info
        .inputs
        .iter()
        .map(|k| match k {
            OperandKind::Scalar(_) => "scalar",
            OperandKind::Vector(_) => "vector",
            OperandKind::Address => "addressRegister",
        })
        .collect();
    match info.shape {
        Shape::Alu => format!("`{} result, {}`", info.name, ops.join(", ")),
        Shape::Memory if info.opcode == Opcode::Stb => {
            format!("`{}.U32 value, storage[offset]`", info.name)
        }
        Shape::Memory if info.opcode == Opcode::Ldb => {
            format!("`{}.U32 result, storage[offset]`", info.name)
        }
        Shape::Memory => format!("`{}.ADD.U32 result, value, storage[offset]`", info.name),
        Shape::SharedMemory if info.result == ResultKind::None => {
            format!("`{}.U32 value, shared[offset]`", info.name)
        }
        Shape::SharedMemory if info.inputs.is_empty() => {
            format!("`{}.U32 result, shared[offset]`", info.name)
        }
        Shape::SharedMemory => format!("`{}.ADD.U32 result, value, shared[offset]`", info.name),
        Shape::GlobalMemory => match info.opcode {
            Opcode::Load => format!("`{}.U32 result, address.x`", info.name),
            Opcode::Store => format!("`{}.U32 value, address.x`", info.name),
            _ => format!("`{}.ADD.U32 result, value, address.x`", info.name),
        },
        Shape::Barrier => format!("`{}`", info.name),
        Shape::MemoryBarrier => {
            format!("`{}` (`{}.CTA` in compute programs)", info.name, info.name)
        }
        Shape::Image => match info.opcode {
            Opcode::Loadim => format!("`{}.U32 result, coord, image[n], TARGET`", info.name),
            Opcode::Storeim => format!("`{}.U32 image[n], value, coord, TARGET`", info.name),
            _ => format!(
                "`{}.ADD.U32 result, value, coord, image[n], TARGET`",
                info.name
            ),
        },
        Shape::Swz => format!("`{} result, source, c0, c1, c2, c3`", info.name),
        Shape::Tex => format!(
            "`{} result, coord, texture[n], TARGET[, (offset)]`",
            info.name
        ),
        Shape::Txd => format!(
            "`{} result, coord, ddx, ddy, texture[n], TARGET[, (offset)]`",
            info.name
        ),
        Shape::Call if info.opcode == Opcode::Cali => {
            format!("`{} subroutineVar[ (cc)]`", info.name)
        }
        Shape::Call => format!("`{} label[ (cc)]`", info.name),
        Shape::FlowCc => format!("`{}[ (cc)]`", info.name),
        Shape::If => format!("`{} cc`", info.name),
        Shape::Rep => format!("`{}[ count]`", info.name),
        Shape::Primitive if info.opcode == Opcode::Emits => format!("`{} stream`", info.name),
        Shape::EndFlow | Shape::Primitive => format!("`{}`", info.name),
        Shape::Kil => format!("`{} vector` or `{} cc`", info.name, info.name),
        Shape::AddressStack => format!("`{} addressRegister`", info.name),
    }
}

impl Path {
    fn span_text(&self, rule: &Ident) -> String {
        match self.parts.first() {
            Some(PathPart::Member(s)) => format!("{}.{}", rule.name, s.name),
            _ => rule.name.to_string(),
        }
    }
}

/// The component a scalar suffix names (`x`..`w`, `r`..`a`; section 2.X.2,
/// <component>).
fn component_index(name: &str) -> Option<u8> {
    match name {
        "x" | "r" => Some(0),
        "y" | "g" => Some(1),
        "z" | "b" => Some(2),
        "w" | "a" => Some(3),
        _ => None,
    }
}

/// The constant of a relative index (`[A0.x - 3]`) as written, saturated
/// to i64 (`relative_index` checks its range).
pub(super) fn relative_offset(offset: Option<&(bool, crate::syntax::ast::IntLit)>) -> i64 {
    match offset {
        None => 0,
        Some((neg, lit)) => {
            let m = lit.value().unwrap_or(u64::MAX).min(i64::MAX as u64) as i64;
            if *neg {
                -m
            } else {
                m
            }
        }
    }
}

#[cfg(test)]
mod modifier_rule_tests {
    use super::*;
    use crate::isa::{options_of, Header};
    use crate::Options;

    /// Every modifier as a suffix entry of the list (`split_opcode`'s
    /// output), whether or not a real opcode word could carry it.
    const SUFFIXES: [Modifier; 19] = [
        Modifier::F,
        Modifier::U,
        Modifier::S,
        Modifier::Cc,
        Modifier::Cc0,
        Modifier::Cc1,
        Modifier::Sat,
        Modifier::Ssat,
        Modifier::Ntc,
        Modifier::S24,
        Modifier::U24,
        Modifier::Hi,
        Modifier::F64,
        Modifier::S64,
        Modifier::U64,
        Modifier::Prec,
        Modifier::PrecisionFull,
        Modifier::PrecisionHalf,
        Modifier::PrecisionFixed,
    ];

    /// A modifier's place in [`SUFFIXES`]. The match names every variant,
    /// so a modifier added to the enum does not compile until it is listed.
    fn place(m: Modifier) -> usize {
        match m {
            Modifier::F => 0,
            Modifier::U => 1,
            Modifier::S => 2,
            Modifier::Cc => 3,
            Modifier::Cc0 => 4,
            Modifier::Cc1 => 5,
            Modifier::Sat => 6,
            Modifier::Ssat => 7,
            Modifier::Ntc => 8,
            Modifier::S24 => 9,
            Modifier::U24 => 10,
            Modifier::Hi => 11,
            Modifier::F64 => 12,
            Modifier::S64 => 13,
            Modifier::U64 => 14,
            Modifier::Prec => 15,
            Modifier::PrecisionFull => 16,
            Modifier::PrecisionHalf => 17,
            Modifier::PrecisionFixed => 18,
        }
    }

    fn ident(name: &str) -> Ident {
        Ident {
            name: name.into(),
            span: Span::default(),
        }
    }

    /// `modifiers_valid` (the fast path, no messages) against
    /// `modifier_errors` (the same rules, reporting): for one instruction,
    /// both accept or both refuse, the refusal comes with an error, and an
    /// accepted list is the same list.
    fn assert_agree(
        c: &mut Checker<'_>,
        info: &'static OpInfo,
        suffixes: &[Modifier],
        standalone: &[&str],
    ) -> bool {
        let inst = ast::Instruction {
            opcode: ident(info.name),
            modifiers: standalone.iter().map(|n| ident(n)).collect(),
            cc_mask: None,
            args: Vec::new(),
            span: Span::default(),
        };
        let start: Vec<(Modifier, Span)> = suffixes.iter().map(|&m| (m, Span::default())).collect();
        let mut fast_list = start.clone();
        let fast = c.modifiers_valid(info, &inst, &mut fast_list);
        let mut slow_list = start;
        c.diags.clear();
        let slow = c.modifier_errors(info, &inst, &mut slow_list);
        let reported = c.diags.iter().any(Diagnostic::is_error);
        let what = format!(
            "{} {:?} with suffixes {suffixes:?} and .{standalone:?}",
            info.name, c.dialect
        );
        assert_eq!(fast, slow, "the two modifier checks disagree on {what}");
        assert_eq!(
            slow, !reported,
            "a refusal without an error (or the reverse) on {what}"
        );
        if fast {
            assert_eq!(fast_list, slow_list, "different modifier lists for {what}");
        }
        fast
    }

    /// Section 2.X.4.1 and Table X.14 (and the ARB family's opcode suffixes,
    /// Table X.15): the checker's fast path (`modifiers_valid`) and the path
    /// that reports (`modifier_errors`) are two copies of one set of rules,
    /// kept apart for speed. Over every opcode of the table, every header
    /// with no option, each of its options and all of them, every suffix
    /// and every stand-alone modifier (and an unknown one) alone, each
    /// stand-alone one after every suffix the instruction takes, and every
    /// pair of modifiers it takes alone (same-kind pairs included), they
    /// accept exactly the same programs.
    #[test]
    fn the_fast_modifier_check_accepts_exactly_what_the_reporting_check_accepts() {
        for (i, &m) in SUFFIXES.iter().enumerate() {
            assert_eq!(place(m), i, "SUFFIXES lists every modifier once, in order");
        }
        let options = Options::default();
        let mut names: Vec<&str> = Modifier::STANDALONE_NAMES.to_vec();
        names.push("XYZ");
        let mut checked = 0usize;
        let mut seen = std::collections::HashSet::new();
        for header in Header::ALL {
            let mut dialects = vec![Dialect::new(header)];
            let mut all = Dialect::new(header);
            for o in options_of(header) {
                let mut d = Dialect::new(header);
                d.enable(o.features);
                dialects.push(d);
                all.enable(o.features);
            }
            dialects.push(all);
            for dialect in dialects {
                let mut c = Checker::new(header, &options);
                c.dialect = dialect;
                for info in INSTRUCTIONS {
                    // What the rules read of the dialect; dialects that
                    // agree on all of it for this opcode are checked once.
                    let key = format!(
                        "{:?} {:?} {} {} {} {}",
                        info.opcode,
                        info.in_dialect(dialect),
                        dialect.standalone_modifiers(),
                        dialect.cc_registers(),
                        dialect.signed_saturation(),
                        dialect.has(Features::NV5),
                    );
                    if !seen.insert(key) {
                        continue;
                    }
                    // Alone: what the instruction takes, as a suffix and as
                    // a stand-alone modifier.
                    let mut taken: Vec<Modifier> = Vec::new();
                    assert_agree(&mut c, info, &[], &[]);
                    for &m in &SUFFIXES {
                        if assert_agree(&mut c, info, &[m], &[]) {
                            taken.push(m);
                        }
                    }
                    let mut taken_names: Vec<&str> = Vec::new();
                    // After each suffix it takes alone (one of each kind
                    // across suffixes and stand-alone modifiers).
                    for &n in &names {
                        if assert_agree(&mut c, info, &[], &[n]) {
                            taken_names.push(n);
                        }
                        for &m in &taken {
                            assert_agree(&mut c, info, &[m], &[n]);
                        }
                    }
                    // Pairs of what it takes alone: the rules between
                    // modifiers (one of each kind) are all that can refuse.
                    for &a in &taken_names {
                        for &b in &taken_names {
                            assert_agree(&mut c, info, &[], &[a, b]);
                        }
                    }
                    for &a in &taken {
                        for &b in &taken {
                            assert_agree(&mut c, info, &[a, b], &[]);
                        }
                    }
                    checked += 1;
                }
            }
        }
        assert!(
            checked > 500,
            "only {checked} opcode and dialect pairs checked"
        );
    }
}
