//! Which instructions can affect what a program observably does, so the
//! lowering emits only those (docs/semantics.md, "Unobservable code").
//!
//! A program's only effects are its result variables (section 2.X.3.5),
//! KIL, EMIT / ENDPRIM, and termination. Temporaries and the condition
//! code registers are private to one invocation (sections 2.X.3.4 and
//! 2.X.3.7), so an instruction whose destination is a temporary nothing
//! needed reads, and whose condition code update nothing needed tests,
//! changes nothing observable. The analysis is flow-insensitive over the
//! whole program (every reachable subroutine at once): a register counts as
//! read if any needed statement anywhere reads it, in any order, so it is
//! correct across IF / REP / BRK / CONT / CAL / RET and call cycles without
//! modelling them. Relative addresses count as reads of the address
//! register. It iterates to a fixed point because a needed instruction
//! makes its operands' writers needed.

use crate::isa::DataType;

#[cfg(test)]
thread_local! {
    /// Unit tests of instruction shapes (tests.rs) lower programs that
    /// observe nothing; this keeps every instruction for them.
    pub(crate) static KEEP_ALL: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

use crate::ir::{Block, CcTest, Index, Instruction, KillCondition, Operand, Program, Stmt, VarId};
use crate::ir::{SubId, VarKind};

/// The data types a temporary is accessed as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Access {
    None,
    One(DataType),
    Mixed,
}

/// The result of the analysis.
#[derive(Clone, Debug)]
pub(crate) struct Liveness {
    /// Per variable (indexed by `VarId`): whether it is a temporary, and
    /// whether a needed statement reads it. Plain vectors: looked up for
    /// every operand of a program of possibly 400 000 instructions.
    temp: Vec<bool>,
    read: Vec<bool>,
    /// How many variables `read` marks (to detect the fixed point).
    reads: usize,
    /// CC0 / CC1: whether a needed statement tests it.
    cc: [bool; 2],
    /// Whether a reachable statement writes a result, or is KIL, EMIT or
    /// ENDPRIM (as the last pass found).
    effects: bool,
    /// For each temporary a lowered statement accesses, the one data type
    /// every access uses, or `None` when accesses mix types.
    access: Vec<Access>,
}

impl Liveness {
    pub(crate) fn of(program: &Program, subroutines: &[SubId]) -> Liveness {
        let temp: Vec<bool> = program
            .variables
            .iter()
            .map(|v| matches!(v.kind, VarKind::Temp))
            .collect();
        let count = temp.len();
        let mut live = Liveness {
            temp,
            read: vec![false; count],
            reads: 0,
            cc: [false; 2],
            effects: false,
            access: vec![Access::None; count],
        };
        #[cfg(test)]
        if KEEP_ALL.with(|k| k.get()) {
            live.read = live.temp.clone();
            live.cc = [true; 2];
            live.effects = true;
            return live;
        }
        // Walking each block backwards finds straight-line chains in one
        // pass; loops and calls take a few more. Every pass records the
        // access types and whether there is any effect afresh: `read` and
        // `cc` only grow, so in the pass that changes neither (the last)
        // every statement was judged against the fixed point, and what it
        // recorded is what a pass after it would (both records are
        // independent of the order statements are met in). A separate
        // recording pass was a third of the analysis (docs/performance.md,
        // "Session 11").
        loop {
            let before = (live.reads, live.cc);
            live.effects = false;
            live.access.fill(Access::None);
            for &sub in subroutines.iter().rev() {
                live.block(&program.sub(sub).body);
            }
            if (live.reads, live.cc) == before {
                break;
            }
        }
        if !live.effects {
            // The body is left out, so no register is read.
            live.read.iter_mut().for_each(|r| *r = false);
            live.cc = [false; 2];
        }
        live
    }

    /// Whether the program can do anything observable at all. When it
    /// cannot, its flow control steers nothing either and the lowering
    /// leaves out the whole body (docs/semantics.md).
    pub(crate) fn has_effects(&self) -> bool {
        self.effects
    }

    /// The data type of every lowered access to temporary `var`, if they
    /// all use one. A typeless register accessed only as one type can be
    /// stored as that type: the bit patterns are the same, and no access
    /// needs a bitcast (interface.rs).
    pub(crate) fn single_type(&self, var: VarId) -> Option<DataType> {
        match self.access.get(var.0 as usize) {
            Some(Access::One(t)) => Some(*t),
            _ => None,
        }
    }

    fn access(&mut self, var: VarId, ty: DataType) {
        if self.is_temp(var) {
            let a = &mut self.access[var.0 as usize];
            *a = match *a {
                Access::None => Access::One(ty),
                Access::One(t) if t == ty => Access::One(t),
                _ => Access::Mixed,
            };
        }
    }

    fn is_temp(&self, var: VarId) -> bool {
        self.temp.get(var.0 as usize).copied().unwrap_or(false)
    }

    /// Whether the value written to `var` can be observed.
    pub(crate) fn var_live(&self, var: VarId) -> bool {
        !self.is_temp(var) || self.read[var.0 as usize]
    }

    /// Whether some needed statement tests condition code register `reg`.
    pub(crate) fn cc_live(&self, reg: u8) -> bool {
        self.cc.get(reg as usize).copied().unwrap_or(true)
    }

    /// Whether the instruction must be lowered.
    pub(crate) fn inst_needed(&self, inst: &Instruction) -> bool {
        // An atomic writes memory whether or not its result is read.
        inst.memory.as_ref().is_some_and(|m| m.atomic.is_some())
            || inst.image.as_ref().is_some_and(|m| m.atomic.is_some())
            || self.var_live(inst.dst.var)
            || inst.cc_update.is_some_and(|r| self.cc_live(r.0))
    }

    /// Whether a statement must be lowered: an IF only when some
    /// statement of its blocks is. At the fixed point this depends only on
    /// the registers and condition codes found read, not on where the
    /// statement is, so the lowering may move (and free) the statements it
    /// has lowered. Asked when an IF is lowered, it looks inside up to the
    /// first needed statement: a needed IF nested n deep (bounded by
    /// MAX_PROGRAM_IF_DEPTH, section 2.X.5) is looked at n times.
    pub(crate) fn stmt_needed(&self, stmt: &Stmt) -> bool {
        match stmt {
            Stmt::Inst(inst) => self.inst_needed(inst),
            Stmt::If {
                then_block,
                else_block,
                ..
            } => then_block
                .iter()
                .chain(else_block.iter())
                .any(|s| self.stmt_needed(s)),
            _ => true,
        }
    }

    /// Marks what the needed statements of `block` read; returns whether
    /// any statement of it is needed.
    fn block(&mut self, block: &Block) -> bool {
        let mut any = false;
        for stmt in block.iter().rev() {
            any |= self.stmt(stmt);
        }
        any
    }

    fn stmt(&mut self, stmt: &Stmt) -> bool {
        match stmt {
            Stmt::Inst(inst) => {
                if !self.inst_needed(inst) {
                    return false;
                }
                if !self.is_temp(inst.dst.var)
                    || inst.memory.is_some()
                    || inst.image.as_ref().is_some_and(|m| m.atomic.is_some())
                {
                    self.effects = true;
                }
                for src in &inst.srcs {
                    self.operand(src);
                }
                for a in inst.memory.iter().flat_map(|m| m.registers()) {
                    self.operand(a);
                }
                for index in inst.image.iter().flat_map(|a| a.registers()) {
                    self.operand(index);
                }
                self.index(&inst.dst.index);
                if self.var_live(inst.dst.var) {
                    self.access(inst.dst.var, inst.dst.ty);
                }
                if let Some(test) = &inst.dst.cc_mask {
                    self.test(test);
                }
                true
            }
            Stmt::If {
                test,
                then_block,
                else_block,
                ..
            } => {
                let then = self.block(then_block);
                let other = self.block(else_block);
                if then || other {
                    self.test(test);
                }
                then || other
            }
            // REP stays even when its body does nothing observable: a REP
            // without a count may not end, and call cycles (recursion.rs)
            // load the count themselves. Flow control, KIL, EMIT and
            // ENDPRIM are effects or steer them.
            Stmt::Rep { count, body, .. } => {
                if let Some(c) = count {
                    self.operand(c);
                }
                self.block(body);
                true
            }
            // LOOP: as REP; its index variable is written for the body,
            // as the integer type relative addressing reads.
            Stmt::Loop {
                control,
                index,
                body,
                ..
            } => {
                self.operand(control);
                self.block(body);
                if self.var_live(*index) {
                    self.access(*index, DataType::Signed);
                }
                true
            }
            // The call stack's entries steer RET and can end the program.
            Stmt::PushAddress { value, .. } => {
                self.operand(value);
                true
            }
            // EMITS reads its stream number.
            Stmt::EmitStream { stream, .. } => {
                self.operand(stream);
                true
            }
            // CALI reads its subroutine parameter to choose the callee.
            Stmt::CallIndirect { selector, cond, .. } => {
                self.operand(selector);
                if let Some(test) = cond {
                    self.test(test);
                }
                true
            }
            Stmt::PopAddress { dst, .. } => {
                if self.var_live(dst.var) {
                    self.access(dst.var, DataType::Signed);
                }
                true
            }
            Stmt::Break { cond, .. }
            | Stmt::Continue { cond, .. }
            | Stmt::Return { cond, .. }
            | Stmt::Call { cond, .. }
            | Stmt::Branch { cond, .. } => {
                if let Some(test) = cond {
                    self.test(test);
                }
                true
            }
            Stmt::Kill { cond, .. } => {
                self.effects = true;
                match cond {
                    KillCondition::Operand(op) => self.operand(op),
                    KillCondition::Cc(test) => self.test(test),
                }
                true
            }
            Stmt::Emit { .. } | Stmt::EndPrimitive { .. } | Stmt::Barrier { .. } => {
                self.effects = true;
                true
            }
            Stmt::Store { value, memory, .. } => {
                self.effects = true;
                self.operand(value);
                for a in memory.registers() {
                    self.operand(a);
                }
                true
            }
            Stmt::ImageStore {
                value,
                coord,
                image,
                ..
            } => {
                self.effects = true;
                self.operand(value);
                self.operand(coord);
                for index in image.registers() {
                    self.operand(index);
                }
                true
            }
        }
    }

    fn test(&mut self, test: &CcTest) {
        match self.cc.get_mut(test.reg.0 as usize) {
            Some(c) => *c = true,
            None => self.cc = [true; 2],
        }
    }

    fn operand(&mut self, op: &Operand) {
        self.access(op.var, op.ty);
        if self.is_temp(op.var) && !self.read[op.var.0 as usize] {
            self.read[op.var.0 as usize] = true;
            self.reads += 1;
        }
        self.index(&op.index);
    }

    fn index(&mut self, index: &Index) {
        match index {
            Index::Relative { address, .. } => self.operand(address),
            Index::PerVertex(per_vertex) => {
                self.index(&per_vertex.vertex);
                self.index(&per_vertex.element);
            }
            Index::BufferRange(range) => {
                self.operand(&range.select.index);
                self.index(&range.element);
            }
            Index::None | Index::Absolute(_) => {}
        }
    }
}
