//! Statements and structured control flow (section 2.X.5).
//!
//! Every construct becomes structured SPIR-V: IF is a selection, REP a
//! loop with its own continue block (where ENDREP decrements the count),
//! and a conditional BRK / CONT / RET / CAL / KIL is a selection around the
//! unconditional form. The unconditional forms branch directly, which
//! structured SPIR-V allows from any depth of nested selections: BRK to
//! the innermost loop's merge block, CONT to its continue block, RET is
//! OpReturn (ending the program in `main`, section 2.X.8.Z, RET). Code
//! after an unconditional branch in the same block is unreachable and is
//! not emitted. CAL is `recursion::emit_call`; subroutines in call cycles
//! are lowered by `recursion`, not here. A BRA that cannot loop is a tail
//! call of the code after its label; BRAs that can loop make the whole
//! program one dispatch loop (`recursion`; docs/semantics.md, "Branches").

use rspirv::spirv::{self, Capability, GlslStd450Op as GLOp, Op};

use super::emit::{Comp, LResult, Val, F32_ONE};
use super::operand::{Element, Enable};
use super::{LoopTargets, LowerError, Lowerer};
use crate::ir::{Block, CcTest, KillCondition, Operand, Stmt, VarId, WriteMask};
use crate::isa::Stage;
use crate::span::Span;

/// Where a statement is in the source.
fn stmt_span(stmt: &Stmt) -> Span {
    match stmt {
        Stmt::Inst(inst) => inst.span,
        Stmt::If { span, .. }
        | Stmt::Rep { span, .. }
        | Stmt::Break { span, .. }
        | Stmt::Continue { span, .. }
        | Stmt::Return { span, .. }
        | Stmt::Call { span, .. }
        | Stmt::CallIndirect { span, .. }
        | Stmt::Kill { span, .. }
        | Stmt::Emit { span }
        | Stmt::EmitStream { span, .. }
        | Stmt::EndPrimitive { span }
        | Stmt::Store { span, .. }
        | Stmt::ImageStore { span, .. }
        | Stmt::Barrier { span, .. }
        | Stmt::Loop { span, .. }
        | Stmt::Branch { span, .. }
        | Stmt::PushAddress { span, .. }
        | Stmt::PopAddress { span, .. } => *span,
    }
}

/// The smallest block buffer whose lowered part `Lowerer::lower_owned_block`
/// frees before the block ends (8192 statements: 1 MiB at 128 bytes each);
/// a smaller block is freed whole when its function is lowered.
pub(super) const BIG_BLOCK_STATEMENTS: usize = 8192;

impl Lowerer<'_> {
    /// Whether the block under construction can still be reached.
    fn open(&self) -> bool {
        self.b.selected_block().is_some()
    }

    pub(crate) fn lower_block(&mut self, block: &Block) -> LResult<()> {
        for stmt in block {
            if !self.open() {
                break;
            }
            self.lower_stmt(stmt)?;
        }
        Ok(())
    }

    /// `lower_block` for a block the lowering owns: each statement, with
    /// the blocks nested in it, is freed as soon as it is lowered
    /// (`lower_consuming`).
    ///
    /// The block's own buffer is not freed by taking statements out of it,
    /// and a big program's entry block is megabytes that would stay
    /// resident beside the growing module. So the pages of the buffer whose
    /// statements are all lowered are given back to the operating system
    /// as the lowering goes ([`crate::pages::ReleasedPrefix`]); where that
    /// is not available, once a quarter of the buffer is lowered the
    /// statements left are moved to a buffer of their size and the old one
    /// is freed (docs/performance.md, "Session 9 (memory)" and "Session 10
    /// (memory)": the move's copy was the peak of a 1 MB compile).
    pub(crate) fn lower_owned_block(&mut self, block: Block) -> LResult<()> {
        let big = block.capacity() >= BIG_BLOCK_STATEMENTS;
        #[cfg(unix)]
        let mut lowered = big.then(|| crate::pages::ReleasedPrefix::of(&block));
        #[cfg(not(unix))]
        let mut held = block.capacity();
        let mut rest = block.into_iter();
        while let Some(stmt) = rest.next() {
            if !self.open() {
                break;
            }
            self.lower_stmt(&stmt)?;
            drop(stmt);
            #[cfg(unix)]
            if let Some(lowered) = &mut lowered {
                lowered.release_before(rest.as_slice());
            }
            #[cfg(not(unix))]
            if big && 4 * rest.len() <= 3 * held {
                let mut left = Vec::with_capacity(rest.len());
                left.extend(rest);
                held = left.capacity();
                rest = left.into_iter();
            }
        }
        Ok(())
    }

    pub(crate) fn lower_stmt(&mut self, stmt: &Stmt) -> LResult<()> {
        if self.debug.is_some() {
            self.debug_line(stmt_span(stmt));
        }
        self.output_patch_barrier(stmt)?;
        if !matches!(stmt, Stmt::Inst(_)) && stmt.blocks().next().is_some() {
            let uniform = std::mem::replace(&mut self.uniform_flow, false);
            let result = self.lower_stmt_in(stmt);
            self.uniform_flow = uniform;
            return result;
        }
        self.lower_stmt_in(stmt)
    }

    fn lower_stmt_in(&mut self, stmt: &Stmt) -> LResult<()> {
        match stmt {
            Stmt::Inst(inst) => self.lower_instruction(inst),
            // Only unobservable instructions inside (live.rs).
            Stmt::If { .. } if !self.live.stmt_needed(stmt) => Ok(()),
            Stmt::If {
                test,
                then_block,
                else_block,
                span,
            } => self
                .lower_if(test, then_block, else_block)
                .map_err(|e| e.at(*span)),
            Stmt::Rep {
                count,
                count64,
                body,
                span,
            } => self
                .lower_rep(count.as_ref(), *count64, body)
                .map_err(|e| e.at(*span)),
            Stmt::Loop {
                control,
                index,
                body,
                span,
            } => self
                .lower_loop_stmt(control, *index, body)
                .map_err(|e| e.at(*span)),
            // A BRA outside a dispatch loop cannot loop (analyze() puts
            // every program whose BRAs can loop in one): it is a tail
            // call, which leaves the call stack as it is (NV_vertex_program2_option
            // 2.14.5.30), and the target's RET returns from this call too.
            Stmt::Branch { target, cond, span } => self
                .guarded(cond.as_ref(), |l| {
                    l.call_function(*target, *span)?;
                    if l.open() {
                        l.b.ret()?;
                    }
                    Ok(())
                })
                .map_err(|e| e.at(*span)),
            Stmt::PushAddress { value, span } => {
                self.lower_push_address(value).map_err(|e| e.at(*span))
            }
            Stmt::PopAddress { dst, span } => self.lower_pop_address(dst).map_err(|e| e.at(*span)),
            Stmt::Break { cond, span } => {
                let target = self.innermost_loop(*span)?.merge;
                self.guarded(cond.as_ref(), |l| Ok(l.b.branch(target)?))
                    .map_err(|e| e.at(*span))
            }
            Stmt::Continue { cond, span } => {
                let target = self.innermost_loop(*span)?.continue_target;
                self.guarded(cond.as_ref(), |l| Ok(l.b.branch(target)?))
                    .map_err(|e| e.at(*span))
            }
            Stmt::Return { cond, span } => self
                .guarded(cond.as_ref(), |l| {
                    l.check_return()?;
                    if l.open() {
                        l.b.ret()?;
                    }
                    Ok(())
                })
                .map_err(|e| e.at(*span)),
            Stmt::Call { target, cond, span } => self
                .guarded(cond.as_ref(), |l| l.emit_call(*target, *span))
                .map_err(|e| e.at(*span)),
            Stmt::CallIndirect {
                selector,
                targets,
                cond,
                span,
            } => self
                .guarded(cond.as_ref(), |l| {
                    l.lower_call_indirect(selector, targets, *span)
                })
                .map_err(|e| e.at(*span)),
            Stmt::Kill { cond, span } => self.lower_kill(cond).map_err(|e| e.at(*span)),
            Stmt::Emit { span } => self.lower_emit(None).map_err(|e| e.at(*span)),
            Stmt::EmitStream { stream, span } => {
                self.lower_emit_stream(stream).map_err(|e| e.at(*span))
            }
            Stmt::Store {
                value,
                memory,
                span,
            } => self.lower_store(value, memory).map_err(|e| e.at(*span)),
            Stmt::ImageStore {
                value,
                coord,
                image,
                span,
            } => self
                .image_store(value, coord, image)
                .map_err(|e| e.at(*span)),
            Stmt::Barrier { kind, span } => self.lower_barrier(*kind).map_err(|e| e.at(*span)),
            Stmt::EndPrimitive { span } => self.lower_end_primitive().map_err(|e| e.at(*span)),
        }
    }

    fn innermost_loop(&self, span: Span) -> LResult<LoopTargets> {
        self.loops
            .last()
            .copied()
            .ok_or_else(|| LowerError::internal_at("BRK or CONT outside a REP block", span))
    }

    /// Runs `body` only if the condition code test passes for any
    /// component (section 2.X.5), as a selection construct.
    fn guarded(
        &mut self,
        cond: Option<&CcTest>,
        body: impl FnOnce(&mut Self) -> LResult<()>,
    ) -> LResult<()> {
        let cond = match cond {
            Some(test) => Some(self.cc_any(test)?),
            None => None,
        };
        self.guarded_by(cond, body)
    }

    pub(crate) fn guarded_by(
        &mut self,
        cond: Option<Val>,
        body: impl FnOnce(&mut Self) -> LResult<()>,
    ) -> LResult<()> {
        let Some(cond) = cond else {
            return body(self);
        };
        let then_label = self.b.id();
        let merge = self.b.id();
        self.b
            .selection_merge(merge, spirv::SelectionControl::NONE)?;
        self.b.branch_conditional(cond.id, then_label, merge, [])?;
        self.b.begin_block(Some(then_label))?;
        body(self)?;
        if self.open() {
            self.b.branch(merge)?;
        }
        self.b.begin_block(Some(merge))?;
        Ok(())
    }

    /// IF / ELSE / ENDIF (section 2.X.8.Z, IF).
    fn lower_if(&mut self, test: &CcTest, then_block: &Block, else_block: &Block) -> LResult<()> {
        let cond = self.cc_any(test)?;
        let then_label = self.b.id();
        let merge = self.b.id();
        let else_label = if else_block.is_empty() {
            merge
        } else {
            self.b.id()
        };
        self.b
            .selection_merge(merge, spirv::SelectionControl::NONE)?;
        self.b
            .branch_conditional(cond.id, then_label, else_label, [])?;
        self.b.begin_block(Some(then_label))?;
        self.lower_block(then_block)?;
        if self.open() {
            self.b.branch(merge)?;
        }
        if !else_block.is_empty() {
            self.b.begin_block(Some(else_label))?;
            self.lower_block(else_block)?;
            if self.open() {
                self.b.branch(merge)?;
            }
        }
        self.b.begin_block(Some(merge))?;
        Ok(())
    }

    /// REP / ENDREP (sections 2.X.8.Z, REP and ENDREP). With a count:
    ///
    /// ```text
    /// LoopCount = floor(tmp.x);            // float counts; integer as is
    /// if (!(LoopCount <= 0)) do { body; LoopCount--; } while (LoopCount > 0);
    /// ```
    ///
    /// which is the pseudocode's order of tests (a NaN count runs once).
    /// REP (section 2.X.8.Z, REP); `count64`: the count of a LONG register
    /// read at 64 bits (REP.F64/S64/U64), the counter kept at 64 bits.
    fn lower_rep(&mut self, count: Option<&Operand>, count64: bool, body: &Block) -> LResult<()> {
        let Some(count) = count else {
            let header = self.b.id();
            self.b.branch(header)?;
            return self.lower_loop(header, body, None);
        };
        let x = self.load_operand_sized(count, true, count64)?.value;
        let initial = match x.comp {
            Comp::F32 | Comp::F64 => self.glsl(GLOp::Floor, &[x])?,
            _ => x,
        };
        let counter_ty = self.t(x.comp, 1);
        let counter = self.function_variable(counter_ty, Some("loop_count"))?;
        self.store(counter, initial)?;
        let zero = self.counter_const(x.comp, false);
        let skip = match x.comp {
            Comp::F32 | Comp::F64 => self.cmp(Op::FOrdLessThanEqual, initial, zero)?,
            Comp::I32 | Comp::I64 => self.cmp(Op::SLessThanEqual, initial, zero)?,
            _ => self.cmp(Op::IEqual, initial, zero)?,
        };
        let enter = self.not(skip)?;
        let preheader = self.b.id();
        let after = self.b.id();
        self.b
            .selection_merge(after, spirv::SelectionControl::NONE)?;
        self.b.branch_conditional(enter.id, preheader, after, [])?;
        self.b.begin_block(Some(preheader))?;
        let header = self.b.id();
        self.b.branch(header)?;
        self.lower_loop(header, body, Some((counter, x.comp)))?;
        if self.open() {
            self.b.branch(after)?;
        }
        self.b.begin_block(Some(after))?;
        Ok(())
    }

    /// LOOP (NV_fragment_program2 3.11.X.8 and 3.11.X.5):
    ///
    /// ```text
    /// LoopCount = floor(op.x); LoopIndex = floor(op.y); LoopIncr = floor(op.z);
    /// if (!(LoopCount <= 0)) do { A0.x = max(LoopIndex, 0); body;
    ///     LoopCount--; LoopIndex += LoopIncr; } while (LoopCount > 0);
    /// ```
    ///
    /// The count, index and increment are kept as floats (floored), as
    /// REP keeps its float count; the index variable gets the clamped
    /// integer before each iteration.
    fn lower_loop_stmt(&mut self, control: &Operand, index: VarId, body: &Block) -> LResult<()> {
        let (count, start, step) = self.loop_control(control)?;
        let float = self.t(Comp::F32, 1);
        let counter = self.function_variable(float, Some("loop_count"))?;
        let position = self.function_variable(float, Some("loop_index"))?;
        self.store(counter, count)?;
        self.store(position, start)?;
        let zero = self.konst(Comp::F32, &[0]);
        let skip = self.cmp(Op::FOrdLessThanEqual, count, zero)?;
        let enter = self.not(skip)?;
        let preheader = self.b.id();
        let after = self.b.id();
        self.b
            .selection_merge(after, spirv::SelectionControl::NONE)?;
        self.b.branch_conditional(enter.id, preheader, after, [])?;
        self.b.begin_block(Some(preheader))?;
        let header = self.b.id();
        self.b.branch(header)?;
        let body_label = self.b.id();
        let continue_target = self.b.id();
        let merge = self.b.id();
        self.b.begin_block(Some(header))?;
        self.b
            .loop_merge(merge, continue_target, spirv::LoopControl::NONE, [])?;
        self.b.branch(body_label)?;
        self.b.begin_block(Some(body_label))?;
        let i = self.load(position, Comp::F32, 1)?;
        self.write_loop_index(index, i)?;
        self.loops.push(LoopTargets {
            merge,
            continue_target,
        });
        let lowered = self.lower_block(body);
        self.loops.pop();
        lowered?;
        if self.open() {
            self.b.branch(continue_target)?;
        }
        self.b.begin_block(Some(continue_target))?;
        let c = self.load(counter, Comp::F32, 1)?;
        let one = self.konst(Comp::F32, &[F32_ONE]);
        let n = self.op(Op::FSub, &[c, one])?;
        self.store(counter, n)?;
        let i = self.load(position, Comp::F32, 1)?;
        let next = self.op(Op::FAdd, &[i, step])?;
        self.store(position, next)?;
        let more = self.cmp(Op::FOrdGreaterThan, n, zero)?;
        self.b.branch_conditional(more.id, header, merge, [])?;
        self.b.begin_block(Some(merge))?;
        if self.open() {
            self.b.branch(after)?;
        }
        self.b.begin_block(Some(after))?;
        Ok(())
    }

    /// LOOP's operand: the floored count, initial index and increment
    /// (x, y, z) as floats.
    pub(crate) fn loop_control(&mut self, control: &Operand) -> LResult<(Val, Val, Val)> {
        let v = self.load_operand(control, false)?.value;
        let v = match v.comp {
            Comp::F32 => v,
            Comp::I32 => self.convert(Op::ConvertSToF, v, Comp::F32)?,
            _ => self.convert(Op::ConvertUToF, v, Comp::F32)?,
        };
        let v = self.glsl(GLOp::Floor, &[v])?;
        Ok((
            self.extract(v, 0)?,
            self.extract(v, 1)?,
            self.extract(v, 2)?,
        ))
    }

    /// Writes a LOOP's index (a float) to its variable as a signed
    /// integer, "clamped to be greater than or equal to 0"
    /// (NV_fragment_program2 3.11.3.Y), and below 2^31.
    pub(crate) fn write_loop_index(&mut self, var: VarId, index: Val) -> LResult<()> {
        if !self.live.var_live(var) {
            return Ok(());
        }
        let lo = self.konst(Comp::F32, &[0]);
        // The largest float below 2^31.
        let hi = self.konst(Comp::F32, &[0x4eff_ffff]);
        let v = self.glsl(GLOp::NMax, &[index, lo])?;
        let v = self.glsl(GLOp::NMin, &[v, hi])?;
        let i = self.convert(Op::ConvertFToS, v, Comp::I32)?;
        let i4 = self.splat(i, 4)?;
        let enable = Enable {
            mask: WriteMask::ALL,
            dynamic: None,
        };
        self.store_element(
            var,
            Element::Fixed(0),
            i4,
            &enable,
            crate::span::Span::default(),
        )
    }

    /// The loop construct itself, starting at `header` (not yet begun).
    /// With a counter, the continue block decrements it and loops while it
    /// is above zero; without, it always loops.
    fn lower_loop(
        &mut self,
        header: spirv::Word,
        body: &Block,
        counter: Option<(spirv::Word, Comp)>,
    ) -> LResult<()> {
        let body_label = self.b.id();
        let continue_target = self.b.id();
        let merge = self.b.id();
        self.b.begin_block(Some(header))?;
        self.b
            .loop_merge(merge, continue_target, spirv::LoopControl::NONE, [])?;
        self.b.branch(body_label)?;
        self.b.begin_block(Some(body_label))?;
        self.loops.push(LoopTargets {
            merge,
            continue_target,
        });
        let lowered = self.lower_block(body);
        self.loops.pop();
        lowered?;
        if self.open() {
            self.b.branch(continue_target)?;
        }
        self.b.begin_block(Some(continue_target))?;
        match counter {
            None => self.b.branch(header)?,
            Some((var, comp)) => {
                let c = self.load(var, comp, 1)?;
                let one = self.counter_const(comp, true);
                let zero = self.counter_const(comp, false);
                let (sub, greater) = match comp {
                    Comp::F32 | Comp::F64 => (Op::FSub, Op::FOrdGreaterThan),
                    Comp::I32 | Comp::I64 => (Op::ISub, Op::SGreaterThan),
                    _ => (Op::ISub, Op::UGreaterThan),
                };
                let next = self.op(sub, &[c, one])?;
                self.store(var, next)?;
                let more = self.cmp(greater, next, zero)?;
                self.b.branch_conditional(more.id, header, merge, [])?;
            }
        }
        self.b.begin_block(Some(merge))?;
        Ok(())
    }

    /// 0 or 1 in a loop counter's type: f32, f64 or an integer of 32 or
    /// 64 bits.
    fn counter_const(&mut self, comp: Comp, one: bool) -> Val {
        let bits = match (comp, one) {
            (_, false) => 0,
            (Comp::F32, true) => u64::from(super::emit::F32_ONE),
            (Comp::F64, true) => super::wide::F64_ONE,
            (_, true) => 1,
        };
        if comp.is_64() {
            self.splat_const64(comp, bits, 1)
        } else {
            self.konst(comp, &[bits as u32])
        }
    }

    /// KIL (NV_fragment_program4 2.X.8.Z, KIL): kill if any component of
    /// the operand is negative, or if any component of the test passes.
    /// OpKill up to SPIR-V 1.5; OpDemoteToHelperInvocation in 1.6, after
    /// which the invocation runs on but its results are discarded.
    fn lower_kill(&mut self, cond: &KillCondition) -> LResult<()> {
        if self.program.stage != Stage::Fragment {
            return Err(LowerError::internal("KIL outside a fragment program"));
        }
        let cond = match cond {
            KillCondition::Cc(test) => self.cc_any(test)?,
            KillCondition::Operand(op) => {
                let v = self.load_operand(op, false)?.value;
                let negative = match v.comp {
                    Comp::F32 => {
                        let zero = self.splat_const(Comp::F32, 0, 4);
                        self.cmp(Op::FOrdLessThan, v, zero)?
                    }
                    Comp::I32 => {
                        let zero = self.splat_const(Comp::I32, 0, 4);
                        self.cmp(Op::SLessThan, v, zero)?
                    }
                    // "KIL.U will have no effect as no component is
                    // negative by definition."
                    _ => return Ok(()),
                };
                self.any(negative)?
            }
        };
        let demote = self.demote_for_kill();
        if demote {
            self.capability(Capability::DemoteToHelperInvocation);
        }
        self.guarded_by(Some(cond), |l| {
            if demote {
                // Not a terminator, whatever rspirv's helper assumes.
                let inst =
                    rspirv::dr::Instruction::new(Op::DemoteToHelperInvocation, None, None, vec![]);
                l.b.push(&inst)?;
            } else {
                l.b.kill()?;
            }
            Ok(())
        })
    }
}
