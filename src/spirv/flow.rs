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
//! are lowered by `recursion`, not here.

use rspirv::spirv::{self, Capability, GlslStd450Op as GLOp, Op};

use super::emit::{Comp, LResult, Val};
use super::{LoopTargets, LowerError, Lowerer};
use crate::ir::{Block, CcTest, KillCondition, Operand, Stmt};
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
        | Stmt::Kill { span, .. }
        | Stmt::Emit { span }
        | Stmt::EndPrimitive { span } => *span,
    }
}

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

    pub(crate) fn lower_stmt(&mut self, stmt: &Stmt) -> LResult<()> {
        if self.debug.is_some() {
            self.debug_line(stmt_span(stmt));
        }
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
            Stmt::Rep { count, body, span } => self
                .lower_rep(count.as_ref(), body)
                .map_err(|e| e.at(*span)),
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
                .guarded(cond.as_ref(), |l| Ok(l.b.ret()?))
                .map_err(|e| e.at(*span)),
            Stmt::Call { target, cond, span } => self
                .guarded(cond.as_ref(), |l| l.emit_call(*target, *span))
                .map_err(|e| e.at(*span)),
            Stmt::Kill { cond, span } => self.lower_kill(cond).map_err(|e| e.at(*span)),
            Stmt::Emit { span } => self.lower_emit().map_err(|e| e.at(*span)),
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
    fn lower_rep(&mut self, count: Option<&Operand>, body: &Block) -> LResult<()> {
        let Some(count) = count else {
            let header = self.b.id();
            self.b.branch(header)?;
            return self.lower_loop(header, body, None);
        };
        let x = self.load_operand(count, true)?.value;
        let initial = match x.comp {
            Comp::F32 => self.glsl(GLOp::Floor, &[x])?,
            _ => x,
        };
        let counter_ty = self.t(x.comp, 1);
        let counter = self.function_variable(counter_ty, Some("loop_count"))?;
        self.store(counter, initial)?;
        let zero = self.konst(x.comp, &[0]);
        let skip = match x.comp {
            Comp::F32 => self.cmp(Op::FOrdLessThanEqual, initial, zero)?,
            Comp::I32 => self.cmp(Op::SLessThanEqual, initial, zero)?,
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
                let one = self.konst(
                    comp,
                    &[if comp == Comp::F32 {
                        super::emit::F32_ONE
                    } else {
                        1
                    }],
                );
                let zero = self.konst(comp, &[0]);
                let (sub, greater) = match comp {
                    Comp::F32 => (Op::FSub, Op::FOrdGreaterThan),
                    Comp::I32 => (Op::ISub, Op::SGreaterThan),
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
                l.b.insert_into_block(rspirv::dr::InsertPoint::End, inst)?;
            } else {
                l.b.kill()?;
            }
            Ok(())
        })
    }
}
