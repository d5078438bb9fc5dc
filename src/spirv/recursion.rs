//! Subroutine calls, and recursion (NV_gpu_program4 section 2.X.5 and
//! section 2.X.8.Z, CAL and RET).
//!
//! SPIR-V forbids recursion, NV_gpu_program4 allows it up to
//! MAX_PROGRAM_CALL_DEPTH. Subroutines outside call cycles stay plain
//! SPIR-V functions. Each cycle of the call graph (a strongly connected
//! component) becomes one function, `void cycle(uint entry)`, that runs a
//! state machine:
//!
//! * every member subroutine is flattened into *states*: straight-line
//!   code ending in one transfer (a goto, an IF test, the start or the
//!   ENDREP of a REP, a CAL into the cycle, a RET). IF, REP, BRK, CONT and
//!   RET therefore work from any depth;
//! * the function is `loop { switch (pc) { case state: ...; pc = next; } }`;
//! * a CAL into the cycle pushes a frame onto a Function-local return
//!   stack: the state to resume at, and the loop counters of the REP
//!   blocks around the CAL (the REP pseudocode keeps one loop count per
//!   nesting level, so a recursive call must not clobber its caller's);
//! * RET pops a frame, or returns from the function when the stack of this
//!   activation is empty (to the caller outside the cycle; from `main`,
//!   ending the program).
//!
//! The call depth (section 2.X.8.Z, CAL: `callStackDepth`) is a Private
//! counter shared by every CAL of the program. A CAL issued while
//! MAX_PROGRAM_CALL_DEPTH calls are active is skipped, as "the initial
//! implementation" does (issue 38), or ends the program where the dialect
//! says so (`ir::CallOverflow::End`); docs/semantics.md. Programs whose
//! call graph is acyclic and no deeper than the limit have no counter.
//!
//! NV_vertex_program3's PUSHA and POPA push address registers onto the same
//! stack; the program then keeps which entries are addresses, so POPA, RET
//! and CAL can tell a full stack, an empty one and an entry of the wrong
//! kind (all of which end the program) as the pseudocode does. Execution
//! running on past a label (`ir::SubroutineEnd::Continue`) is a tail call
//! that leaves the depth alone; inside a cycle it is a transfer between
//! states. The end of the program reached inside a call sets the `ended`
//! flag, and every call site returns when it is set.

use std::collections::HashMap;

use rspirv::dr::Operand as SpvOperand;
use rspirv::spirv::{self, GlslStd450Op as GLOp, Op, StorageClass, Word};

use super::emit::{Comp, LResult, Val, F32_ONE};
use super::{LowerError, Lowerer};
use crate::ir::{Block, CallOverflow, CcTest, Operand, Program, Stmt, SubId, SubroutineEnd, VarId};
use crate::isa::DataType;
use crate::span::Span;

/// The flattened subroutines of one call cycle.
pub(crate) struct Flat {
    pub states: Vec<State>,
    /// The first state of each member.
    pub entries: HashMap<SubId, u32>,
    /// The data type of each counted REP's loop count.
    pub reps: Vec<DataType>,
    /// Words per return-stack frame: the resume state and the saved loop
    /// counts.
    pub frame: u32,
    pub name: String,
}

/// Straight-line statements and the transfer that ends them.
pub(crate) struct State {
    pub body: Vec<Stmt>,
    pub term: Option<Term>,
    /// The instructions the state executes, its ending BRA, CAL or RET
    /// included (counted against MAX_PROGRAM_EXEC_INSTRUCTIONS).
    pub cost: u32,
}

pub(crate) enum Term {
    Goto(u32),
    /// BRA to a member of the cycle (NV_vertex_program2_option 2.14.5.30):
    /// to `then` where the test passes (always without one), else to
    /// `other`; the call stack is unchanged. With the instruction count
    /// kept, a BRA once MAX_PROGRAM_EXEC_INSTRUCTIONS have run ends the
    /// program instead.
    Bra {
        cond: Option<CcTest>,
        then: u32,
        other: u32,
    },
    /// IF, and a conditional BRK or CONT: `then` if any component passes.
    Branch {
        test: CcTest,
        then: u32,
        other: u32,
    },
    /// LOOP: set its count, index and increment up (counters `first`,
    /// `first + 1`, `first + 2`) and the index variable; skip to `exit` if
    /// the count is not positive.
    LoopStart {
        first: usize,
        control: Operand,
        index: VarId,
        body: u32,
        exit: u32,
    },
    /// ENDLOOP (and CONT in a LOOP): decrement, step the index, loop while
    /// positive.
    LoopEnd {
        first: usize,
        index: VarId,
        body: u32,
        exit: u32,
    },
    /// Execution runs on into a subroutine outside the cycle: call it, then
    /// act as a RET (its RET returns from this activation).
    TailCall(SubId),
    /// The end of the program text: the program ends.
    End,
    /// REP with a count: set the count up; skip to `exit` if not positive.
    RepStart {
        rep: usize,
        count: Operand,
        body: u32,
        exit: u32,
    },
    /// ENDREP of a counted REP (and CONT): decrement, loop while positive.
    RepEnd {
        rep: usize,
        body: u32,
        exit: u32,
    },
    /// CAL of a member of the cycle. `skip` when the test fails or the
    /// stack is full; otherwise push `resume` and the `saved` loop counts.
    Call {
        target: SubId,
        cond: Option<CcTest>,
        resume: u32,
        skip: u32,
        saved: Vec<usize>,
        span: Span,
    },
    /// After a RET into this call site: restore the saved loop counts
    /// from the frame just popped, and the index variables of the LOOPs
    /// around the call (`reindex`: first counter and index variable).
    Resume {
        saved: Vec<usize>,
        reindex: Vec<(usize, VarId)>,
        next: u32,
    },
    /// RET (conditional: go on at `next` when the test fails).
    Return {
        cond: Option<CcTest>,
        next: Option<u32>,
    },
}

struct Loop {
    brk: u32,
    cont: u32,
}

struct Flattener<'p> {
    members: &'p [SubId],
    /// The first state of each member.
    entries: HashMap<SubId, u32>,
    states: Vec<State>,
    reps: Vec<DataType>,
    frame: u32,
    /// The LOOPs open around the statement being flattened: their first
    /// counter and index variable.
    open_loops: Vec<(usize, VarId)>,
}

/// Flattens the members of one call cycle into states.
pub(crate) fn flatten(program: &Program, members: &[SubId]) -> LResult<Flat> {
    let mut f = Flattener {
        members,
        entries: HashMap::new(),
        states: Vec::new(),
        reps: Vec::new(),
        frame: 1,
        open_loops: Vec::new(),
    };
    for &sub in members {
        let first = f.new_state();
        f.entries.insert(sub, first);
    }
    let entries = f.entries.clone();
    for &sub in members {
        let first = entries[&sub];
        let end = f.block(
            &program.sub(sub).body,
            first,
            &mut Vec::new(),
            &mut Vec::new(),
        )?;
        if let Some(end) = end {
            let term = match program.sub(sub).end {
                // Reaching the next label or the end of the text returns (2.X.5).
                SubroutineEnd::Return => Term::Return {
                    cond: None,
                    next: None,
                },
                // Running on past a label: into the next state, or a call of
                // a subroutine outside the cycle.
                SubroutineEnd::Continue(next) => match entries.get(&next) {
                    Some(&state) => Term::Goto(state),
                    None => Term::TailCall(next),
                },
                SubroutineEnd::EndProgram => Term::End,
            };
            f.terminate(end, term);
        }
    }
    let name = members
        .iter()
        .map(|&s| {
            program
                .sub(s)
                .name
                .clone()
                .unwrap_or_else(|| "main".to_string())
        })
        .collect::<Vec<_>>()
        .join("_");
    Ok(Flat {
        states: f.states,
        entries,
        reps: f.reps,
        frame: f.frame,
        name: format!("cycle_{name}"),
    })
}

impl Flattener<'_> {
    fn new_state(&mut self) -> u32 {
        self.states.push(State {
            body: Vec::new(),
            term: None,
            cost: 0,
        });
        self.states.len() as u32 - 1
    }

    fn terminate(&mut self, state: u32, term: Term) {
        self.states[state as usize].term = Some(term);
    }

    /// Flattens `block` starting in the open state `cur`; returns the state
    /// open at its end, or `None` when it ends in an unconditional transfer.
    fn block(
        &mut self,
        block: &Block,
        mut cur: u32,
        loops: &mut Vec<Loop>,
        counted: &mut Vec<usize>,
    ) -> LResult<Option<u32>> {
        for stmt in block {
            match stmt {
                Stmt::If {
                    test,
                    then_block,
                    else_block,
                    ..
                } => {
                    let then = self.new_state();
                    let other = self.new_state();
                    let join = self.new_state();
                    self.terminate(
                        cur,
                        Term::Branch {
                            test: *test,
                            then,
                            other,
                        },
                    );
                    for (start, body) in [(then, then_block), (other, else_block)] {
                        if let Some(end) = self.block(body, start, loops, counted)? {
                            self.terminate(end, Term::Goto(join));
                        }
                    }
                    cur = join;
                }
                Stmt::Rep { count, body, .. } => {
                    let start = self.new_state();
                    let exit = self.new_state();
                    match count {
                        Some(count) => {
                            let rep = self.reps.len();
                            self.reps.push(count.ty);
                            let end = self.new_state();
                            self.terminate(
                                cur,
                                Term::RepStart {
                                    rep,
                                    count: count.clone(),
                                    body: start,
                                    exit,
                                },
                            );
                            self.terminate(
                                end,
                                Term::RepEnd {
                                    rep,
                                    body: start,
                                    exit,
                                },
                            );
                            loops.push(Loop {
                                brk: exit,
                                cont: end,
                            });
                            counted.push(rep);
                            let last = self.block(body, start, loops, counted);
                            counted.pop();
                            loops.pop();
                            if let Some(last) = last? {
                                self.terminate(last, Term::Goto(end));
                            }
                        }
                        None => {
                            self.terminate(cur, Term::Goto(start));
                            loops.push(Loop {
                                brk: exit,
                                cont: start,
                            });
                            let last = self.block(body, start, loops, counted);
                            loops.pop();
                            if let Some(last) = last? {
                                self.terminate(last, Term::Goto(start));
                            }
                        }
                    }
                    cur = exit;
                }
                Stmt::Loop {
                    control,
                    index,
                    body,
                    ..
                } => {
                    let start = self.new_state();
                    let exit = self.new_state();
                    let end = self.new_state();
                    let first = self.reps.len();
                    self.reps.extend([DataType::Float; 3]);
                    self.terminate(
                        cur,
                        Term::LoopStart {
                            first,
                            control: control.clone(),
                            index: *index,
                            body: start,
                            exit,
                        },
                    );
                    self.terminate(
                        end,
                        Term::LoopEnd {
                            first,
                            index: *index,
                            body: start,
                            exit,
                        },
                    );
                    loops.push(Loop {
                        brk: exit,
                        cont: end,
                    });
                    counted.extend([first, first + 1, first + 2]);
                    self.open_loops.push((first, *index));
                    let last = self.block(body, start, loops, counted);
                    self.open_loops.pop();
                    counted.truncate(counted.len() - 3);
                    loops.pop();
                    if let Some(last) = last? {
                        self.terminate(last, Term::Goto(end));
                    }
                    cur = exit;
                }
                Stmt::Break { cond, span } | Stmt::Continue { cond, span } => {
                    let l = loops.last().ok_or_else(|| {
                        LowerError::internal_at("BRK or CONT outside a REP block", *span)
                    })?;
                    let target = if matches!(stmt, Stmt::Break { .. }) {
                        l.brk
                    } else {
                        l.cont
                    };
                    match cond {
                        Some(test) => {
                            let next = self.new_state();
                            self.terminate(
                                cur,
                                Term::Branch {
                                    test: *test,
                                    then: target,
                                    other: next,
                                },
                            );
                            cur = next;
                        }
                        None => {
                            self.terminate(cur, Term::Goto(target));
                            return Ok(None);
                        }
                    }
                }
                Stmt::Branch { target, cond, .. } => {
                    self.states[cur as usize].cost += 1;
                    let then = match self.entries.get(target) {
                        Some(&state) => state,
                        // Out of the cycle: a tail call (the call stack
                        // unchanged), then a return from this activation.
                        None => {
                            let tail = self.new_state();
                            self.terminate(tail, Term::TailCall(*target));
                            tail
                        }
                    };
                    // Without a test, nothing after the BRA runs from here.
                    let next = match cond {
                        Some(_) => self.new_state(),
                        None => then,
                    };
                    self.terminate(
                        cur,
                        Term::Bra {
                            cond: *cond,
                            then,
                            other: next,
                        },
                    );
                    if cond.is_none() {
                        return Ok(None);
                    }
                    cur = next;
                }
                Stmt::Return { cond, .. } => match cond {
                    Some(test) => {
                        self.states[cur as usize].cost += 1;
                        let next = self.new_state();
                        self.terminate(
                            cur,
                            Term::Return {
                                cond: Some(*test),
                                next: Some(next),
                            },
                        );
                        cur = next;
                    }
                    None => {
                        self.states[cur as usize].cost += 1;
                        self.terminate(
                            cur,
                            Term::Return {
                                cond: None,
                                next: None,
                            },
                        );
                        return Ok(None);
                    }
                },
                Stmt::Call { target, cond, span } if self.members.contains(target) => {
                    self.states[cur as usize].cost += 1;
                    let next = self.new_state();
                    let saved = counted.clone();
                    self.frame = self.frame.max(1 + saved.len() as u32);
                    let resume = if saved.is_empty() {
                        next
                    } else {
                        let r = self.new_state();
                        self.terminate(
                            r,
                            Term::Resume {
                                saved: saved.clone(),
                                reindex: self.open_loops.clone(),
                                next,
                            },
                        );
                        r
                    };
                    self.terminate(
                        cur,
                        Term::Call {
                            target: *target,
                            cond: *cond,
                            resume,
                            skip: next,
                            saved,
                            span: *span,
                        },
                    );
                    cur = next;
                }
                _ => {
                    let state = &mut self.states[cur as usize];
                    state.cost += 1;
                    state.body.push(stmt.clone());
                }
            }
        }
        Ok(Some(cur))
    }
}

/// The Function variables of one dispatch function.
struct Machine {
    pc: Word,
    sp: Word,
    stack: Word,
    frame: u32,
    counters: Vec<(Word, Comp)>,
    entries: HashMap<SubId, u32>,
}

impl Lowerer<'_> {
    /// A transfer of control to `target` as a call: an OpFunctionCall of
    /// its function, or of its cycle's dispatch function with its first
    /// state; then, where the program can end inside a call, a return at
    /// once if it has. The call depth is the caller's business.
    pub(crate) fn call_function(&mut self, target: SubId, span: Span) -> LResult<()> {
        let (function, arg) = match self.cycle_entries.get(&target) {
            Some(&(f, state)) => (f, Some(self.c_u32(state))),
            None => (
                self.functions.get(&target).copied().ok_or_else(|| {
                    LowerError::internal_at("call to a subroutine that was not lowered", span)
                })?,
                None,
            ),
        };
        let void = self.t_void();
        self.b.function_call(void, None, function, arg)?;
        self.return_if_ended()
    }

    /// Returns from the current function if the program has ended.
    pub(crate) fn return_if_ended(&mut self) -> LResult<()> {
        let Some(flag) = self.ended else {
            return Ok(());
        };
        let ended = self.load(flag, Comp::Bool, 1)?;
        self.guarded_by(Some(ended), |l| Ok(l.b.ret()?))
    }

    /// A CALI (its condition already tested; ARB_shader_subroutine,
    /// NV_gpu_program5 edits, 2.X.8.Z CALI): "transfers control to the
    /// instruction following some label, as described in CAL", the label
    /// whose SUBROUTINENUM the subroutine parameter holds. A selection on
    /// the parameter's `x` with one CAL per candidate; a value that names
    /// none calls the first candidate (`ir::Stmt::CallIndirect`).
    pub(crate) fn lower_call_indirect(
        &mut self,
        selector: &Operand,
        targets: &[(u32, SubId)],
        span: Span,
    ) -> LResult<()> {
        let Some((&(_, first), rest)) = targets.split_first() else {
            return Err(LowerError::internal_at("CALI without a candidate", span));
        };
        if rest.is_empty() {
            return self.emit_call(first, span);
        }
        let value = self.load_operand(selector, true)?.value;
        let num = self.extract(value, 0)?;
        let num = self.cast(num, Comp::U32)?;
        let merge = self.b.id();
        let labels: Vec<Word> = targets.iter().map(|_| self.b.id()).collect();
        self.b
            .selection_merge(merge, spirv::SelectionControl::NONE)?;
        self.b.switch(
            num.id,
            labels[0],
            rest.iter()
                .zip(&labels[1..])
                .map(|(&(n, _), &l)| (SpvOperand::LiteralBit32(n), l)),
        )?;
        for (&(_, target), &label) in targets.iter().zip(&labels) {
            self.b.begin_block(Some(label))?;
            self.emit_call(target, span)?;
            if self.b.selected_block().is_some() {
                self.b.branch(merge)?;
            }
        }
        self.b.begin_block(Some(merge))?;
        Ok(())
    }

    /// A CAL of `target` (its condition already tested): the call, with the
    /// call depth counted when the program needs it. A CAL with
    /// MAX_PROGRAM_CALL_DEPTH entries on the stack is skipped or ends the
    /// program (`ir::CallOverflow`).
    pub(crate) fn emit_call(&mut self, target: SubId, span: Span) -> LResult<()> {
        let Some(depth) = self.call_depth else {
            return self.call_function(target, span);
        };
        let d = self.load(depth, Comp::U32, 1)?;
        let max = self.konst(Comp::U32, &[self.options.limits.max_call_depth]);
        let room = self.cmp(Op::ULessThan, d, max)?;
        if self.program.call_overflow == CallOverflow::End {
            let full = self.not(room)?;
            self.guarded_by(Some(full), |l| l.end_program())?;
        }
        self.guarded_by(Some(room), |l| {
            l.mark_stack_entry(d, false)?;
            let one = l.konst(Comp::U32, &[1]);
            let deeper = l.op(Op::IAdd, &[d, one])?;
            l.store(depth, deeper)?;
            l.call_function(target, span)?;
            l.store(depth, d)
        })
    }

    /// Records what call stack entry `slot` is (with PUSHA/POPA only).
    fn mark_stack_entry(&mut self, slot: Val, address: bool) -> LResult<()> {
        let Some((_, kinds)) = self.address_stack else {
            return Ok(());
        };
        let uint = self.t(Comp::U32, 1);
        let p = self.access(StorageClass::Private, uint, kinds, &[slot.id])?;
        let v = self.konst(Comp::U32, &[u32::from(address)]);
        self.store(p, v)
    }

    /// Whether the top of the call stack is an address register pushed by
    /// PUSHA (false when the stack is empty).
    fn address_on_top(&mut self) -> LResult<Val> {
        let (Some(depth), Some((_, kinds))) = (self.call_depth, self.address_stack) else {
            return Err(LowerError::internal("the address stack was not declared"));
        };
        let d = self.load(depth, Comp::U32, 1)?;
        let zero = self.konst(Comp::U32, &[0]);
        let one = self.konst(Comp::U32, &[1]);
        let some = self.cmp(Op::UGreaterThan, d, zero)?;
        // Slot (d > 0 ? d : 1) - 1: in range even when the stack is
        // empty. A select, not GLSL UMax: spirv-opt's constant propagation
        // cannot fold UMax in a module with float controls and aborts on
        // the unsettled value (SPIRV-Tools 2023.1, FoldFPBinaryOp).
        let d1 = self.sel(some, d, one)?;
        let top = self.op(Op::ISub, &[d1, one])?;
        let uint = self.t(Comp::U32, 1);
        let p = self.access(StorageClass::Private, uint, kinds, &[top.id])?;
        let kind = self.load(p, Comp::U32, 1)?;
        let is_address = self.cmp(Op::IEqual, kind, one)?;
        self.and(some, is_address)
    }

    /// RET's check where PUSHA/POPA share the stack (NV_vertex_program3
    /// 2.14.5.34): an address register on top ends the program abnormally.
    pub(crate) fn check_return(&mut self) -> LResult<()> {
        if self.address_stack.is_none() {
            return Ok(());
        }
        let bad = self.address_on_top()?;
        self.guarded_by(Some(bad), |l| l.end_program())
    }

    /// PUSHA (NV_vertex_program3 2.14.5.44): onto the call stack, or the end
    /// of the program on a full stack.
    pub(crate) fn lower_push_address(&mut self, value: &Operand) -> LResult<()> {
        let (Some(depth), Some((values, _))) = (self.call_depth, self.address_stack) else {
            return Err(LowerError::internal("the address stack was not declared"));
        };
        let v = self.load_operand(value, false)?.value;
        let v = self.cast(v, Comp::I32)?;
        let d = self.load(depth, Comp::U32, 1)?;
        let max = self.konst(Comp::U32, &[self.options.limits.max_call_depth]);
        let room = self.cmp(Op::ULessThan, d, max)?;
        let full = self.not(room)?;
        self.guarded_by(Some(full), |l| l.end_program())?;
        let ivec4 = self.t(Comp::I32, 4);
        let p = self.access(StorageClass::Private, ivec4, values, &[d.id])?;
        self.store(p, v)?;
        self.mark_stack_entry(d, true)?;
        let one = self.konst(Comp::U32, &[1]);
        let up = self.op(Op::IAdd, &[d, one])?;
        self.store(depth, up)
    }

    /// POPA (NV_vertex_program3 2.14.5.43): the top of the call stack into
    /// the address register, or the end of the program when the stack is
    /// empty or its top is a CAL's.
    pub(crate) fn lower_pop_address(&mut self, dst: &crate::ir::Dest) -> LResult<()> {
        let (Some(depth), Some((values, _))) = (self.call_depth, self.address_stack) else {
            return Err(LowerError::internal("the address stack was not declared"));
        };
        let ok = self.address_on_top()?;
        let bad = self.not(ok)?;
        self.guarded_by(Some(bad), |l| l.end_program())?;
        let d = self.load(depth, Comp::U32, 1)?;
        let one = self.konst(Comp::U32, &[1]);
        let top = self.op(Op::ISub, &[d, one])?;
        self.store(depth, top)?;
        if !self.live.var_live(dst.var) {
            return Ok(());
        }
        let ivec4 = self.t(Comp::I32, 4);
        let p = self.access(StorageClass::Private, ivec4, values, &[top.id])?;
        let v = self.load(p, Comp::I32, 4)?;
        let enable = super::operand::Enable {
            mask: dst.mask,
            dynamic: None,
        };
        self.write_dest(dst, v, &enable)
    }

    /// `main` when the entry subroutine is in a call cycle: it starts the
    /// cycle's dispatch function at the entry (at depth 0, not a call).
    pub(crate) fn lower_entry_wrapper(&mut self, entry: SubId) -> LResult<()> {
        let id = self
            .functions
            .get(&entry)
            .copied()
            .ok_or_else(|| LowerError::internal("the entry has no function id"))?;
        let (function, state) = self
            .cycle_entries
            .get(&entry)
            .copied()
            .ok_or_else(|| LowerError::internal("the entry is not in a cycle"))?;
        let void = self.t_void();
        let fn_ty = self.t_void_fn();
        self.b
            .begin_function(void, Some(id), spirv::FunctionControl::NONE, fn_ty)?;
        let name = self.entry_function_name();
        self.b.name(id, name);
        self.b.begin_block(None)?;
        if matches!(
            self.program.stage,
            crate::isa::Stage::TessEval | crate::isa::Stage::Vertex
        ) {
            self.write_default_point_size()?;
        }
        let arg = self.c_u32(state);
        self.b.function_call(void, None, function, [arg])?;
        self.b.ret()?;
        self.b.end_function()?;
        Ok(())
    }

    /// The dispatch function of one call cycle.
    pub(crate) fn lower_cycle(&mut self, function: Word, flat: &Flat) -> LResult<()> {
        let depth = self
            .call_depth
            .ok_or_else(|| LowerError::internal("a call cycle without a call depth counter"))?;
        let void = self.t_void();
        let uint = self.t(Comp::U32, 1);
        let fn_ty = self.b.type_function(void, [uint]);
        self.b
            .begin_function(void, Some(function), spirv::FunctionControl::NONE, fn_ty)?;
        self.b.name(function, flat.name.as_str());
        let entry = self.b.function_parameter(uint)?;
        self.b.begin_block(None)?;
        self.loops.clear();
        let pc = self.function_variable(uint, Some("pc"))?;
        let sp = self.function_variable(uint, Some("sp"))?;
        let frames = self.options.limits.max_call_depth.max(1);
        let words = frames.saturating_mul(flat.frame);
        let stack_ty = self.t_array(uint, words);
        let stack = self.function_variable(stack_ty, Some("call_stack"))?;
        let mut counters = Vec::with_capacity(flat.reps.len());
        for (r, &ty) in flat.reps.iter().enumerate() {
            let comp = Comp::from(ty);
            let t = self.t(comp, 1);
            let var = self.function_variable(t, Some(&format!("loop_count{r}")))?;
            counters.push((var, comp));
        }
        let entry_val = Val {
            id: entry,
            comp: Comp::U32,
            n: 1,
        };
        self.store(pc, entry_val)?;
        let zero = self.konst(Comp::U32, &[0]);
        self.store(sp, zero)?;

        let header = self.b.id();
        let dispatch = self.b.id();
        let next = self.b.id();
        let continue_target = self.b.id();
        let merge = self.b.id();
        let default = self.b.id();
        let labels: Vec<Word> = flat.states.iter().map(|_| self.b.id()).collect();
        self.b.branch(header)?;
        self.b.begin_block(Some(header))?;
        self.b
            .loop_merge(merge, continue_target, spirv::LoopControl::NONE, [])?;
        self.b.branch(dispatch)?;
        self.b.begin_block(Some(dispatch))?;
        let pcv = self.load(pc, Comp::U32, 1)?;
        self.b
            .selection_merge(next, spirv::SelectionControl::NONE)?;
        self.b.switch(
            pcv.id,
            default,
            labels
                .iter()
                .enumerate()
                .map(|(i, &l)| (SpvOperand::LiteralBit32(i as u32), l)),
        )?;
        // An unknown state cannot happen; end the call rather than spin.
        self.b.begin_block(Some(default))?;
        self.b.ret()?;
        let m = Machine {
            pc,
            sp,
            stack,
            frame: flat.frame,
            counters,
            entries: flat.entries.clone(),
        };
        for (state, &label) in flat.states.iter().zip(&labels) {
            self.b.begin_block(Some(label))?;
            if let (Some(executed), true) = (self.executed, state.cost > 0) {
                let n = self.load(executed, Comp::U32, 1)?;
                let cost = self.konst(Comp::U32, &[state.cost]);
                let more = self.op(Op::IAdd, &[n, cost])?;
                self.store(executed, more)?;
            }
            for stmt in &state.body {
                if self.b.selected_block().is_none() {
                    break;
                }
                self.lower_stmt(stmt)?;
            }
            if self.b.selected_block().is_none() {
                continue;
            }
            match &state.term {
                Some(term) => self.lower_term(&m, depth, term)?,
                None => return Err(LowerError::internal("a flattened state without an end")),
            }
            if self.b.selected_block().is_some() {
                self.b.branch(next)?;
            }
        }
        self.b.begin_block(Some(next))?;
        self.b.branch(continue_target)?;
        self.b.begin_block(Some(continue_target))?;
        self.b.branch(header)?;
        self.b.begin_block(Some(merge))?;
        self.b.unreachable()?;
        self.b.end_function()?;
        Ok(())
    }

    fn set_pc(&mut self, m: &Machine, state: u32) -> LResult<()> {
        let v = self.konst(Comp::U32, &[state]);
        self.store(m.pc, v)
    }

    /// A pointer to word `index` (a `uint` value) of the return stack.
    fn stack_word(&mut self, m: &Machine, index: Val) -> LResult<Word> {
        let uint = self.t(Comp::U32, 1);
        self.access(StorageClass::Function, uint, m.stack, &[index.id])
    }

    /// Word `k` of the frame at stack slot `slot`.
    fn frame_word(&mut self, m: &Machine, slot: Val, k: u32) -> LResult<Word> {
        let f = self.konst(Comp::U32, &[m.frame]);
        let base = self.op(Op::IMul, &[slot, f])?;
        let k = self.konst(Comp::U32, &[k]);
        let index = self.op(Op::IAdd, &[base, k])?;
        self.stack_word(m, index)
    }

    fn counter(&self, m: &Machine, rep: usize) -> LResult<(Word, Comp)> {
        m.counters
            .get(rep)
            .copied()
            .ok_or_else(|| LowerError::internal("a REP without a loop counter"))
    }

    fn lower_term(&mut self, m: &Machine, depth: Word, term: &Term) -> LResult<()> {
        match term {
            Term::Goto(s) => self.set_pc(m, *s),
            Term::TailCall(next) => {
                self.call_function(*next, Span::default())?;
                if self.b.selected_block().is_none() {
                    return Ok(());
                }
                self.lower_term(
                    m,
                    depth,
                    &Term::Return {
                        cond: None,
                        next: None,
                    },
                )
            }
            Term::End => self.end_program(),
            // NV_fragment_program2 3.11.X.8, LOOP (as flow.rs's lower_loop_stmt).
            Term::LoopStart {
                first,
                control,
                index,
                body,
                exit,
            } => {
                let (count, start, step) = self.loop_control(control)?;
                for (k, v) in [count, start, step].into_iter().enumerate() {
                    let (var, _) = self.counter(m, first + k)?;
                    self.store(var, v)?;
                }
                self.write_loop_index(*index, start)?;
                let zero = self.konst(Comp::F32, &[0]);
                let skip = self.cmp(Op::FOrdLessThanEqual, count, zero)?;
                let a = self.konst(Comp::U32, &[*exit]);
                let b = self.konst(Comp::U32, &[*body]);
                let v = self.sel(skip, a, b)?;
                self.store(m.pc, v)
            }
            // NV_fragment_program2 3.11.X.5, ENDLOOP: "LoopCount--; LoopIndex
            // += LoopIncr; if (LoopCount > 0) continue ... at the top".
            Term::LoopEnd {
                first,
                index,
                body,
                exit,
            } => {
                let (cv, _) = self.counter(m, *first)?;
                let (iv, _) = self.counter(m, first + 1)?;
                let (sv, _) = self.counter(m, first + 2)?;
                let c = self.load(cv, Comp::F32, 1)?;
                let one = self.konst(Comp::F32, &[F32_ONE]);
                let n = self.op(Op::FSub, &[c, one])?;
                self.store(cv, n)?;
                let i = self.load(iv, Comp::F32, 1)?;
                let step = self.load(sv, Comp::F32, 1)?;
                let next = self.op(Op::FAdd, &[i, step])?;
                self.store(iv, next)?;
                self.write_loop_index(*index, next)?;
                let zero = self.konst(Comp::F32, &[0]);
                let more = self.cmp(Op::FOrdGreaterThan, n, zero)?;
                let a = self.konst(Comp::U32, &[*body]);
                let b = self.konst(Comp::U32, &[*exit]);
                let v = self.sel(more, a, b)?;
                self.store(m.pc, v)
            }
            Term::Bra { cond, then, other } => {
                if let Some(executed) = self.executed {
                    // NV_vertex_program2_option 2.14.4.3: "terminate
                    // abnormally after executing MAX_PROGRAM_EXEC_INSTRUCTIONS
                    // instructions", checked at each BRA (the count
                    // includes it; the interpreter checks at the same place).
                    let n = self.load(executed, Comp::U32, 1)?;
                    let max = self.konst(Comp::U32, &[self.options.limits.max_exec_instructions]);
                    let over = self.cmp(Op::UGreaterThanEqual, n, max)?;
                    self.guarded_by(Some(over), |l| l.end_program())?;
                }
                match cond {
                    None => self.set_pc(m, *then),
                    Some(test) => self.lower_term(
                        m,
                        depth,
                        &Term::Branch {
                            test: *test,
                            then: *then,
                            other: *other,
                        },
                    ),
                }
            }
            Term::Branch { test, then, other } => {
                let c = self.cc_any(test)?;
                let a = self.konst(Comp::U32, &[*then]);
                let b = self.konst(Comp::U32, &[*other]);
                let v = self.sel(c, a, b)?;
                self.store(m.pc, v)
            }
            // Section 2.X.8.Z, REP: LoopCount = floor(tmp.x); skip the
            // block if it is not positive (as flow.rs's lower_rep).
            Term::RepStart {
                rep,
                count,
                body,
                exit,
            } => {
                let (var, comp) = self.counter(m, *rep)?;
                let x = self.load_operand(count, true)?.value;
                let x = self.cast(x, comp)?;
                let initial = match comp {
                    Comp::F32 => self.glsl(GLOp::Floor, &[x])?,
                    _ => x,
                };
                self.store(var, initial)?;
                let zero = self.konst(comp, &[0]);
                let skip = match comp {
                    Comp::F32 => self.cmp(Op::FOrdLessThanEqual, initial, zero)?,
                    Comp::I32 => self.cmp(Op::SLessThanEqual, initial, zero)?,
                    _ => self.cmp(Op::IEqual, initial, zero)?,
                };
                let a = self.konst(Comp::U32, &[*exit]);
                let b = self.konst(Comp::U32, &[*body]);
                let v = self.sel(skip, a, b)?;
                self.store(m.pc, v)
            }
            // Section 2.X.8.Z, ENDREP: LoopCount--; loop while positive.
            Term::RepEnd { rep, body, exit } => {
                let (var, comp) = self.counter(m, *rep)?;
                let c = self.load(var, comp, 1)?;
                let one = self.konst(comp, &[if comp == Comp::F32 { F32_ONE } else { 1 }]);
                let zero = self.konst(comp, &[0]);
                let (sub, greater) = match comp {
                    Comp::F32 => (Op::FSub, Op::FOrdGreaterThan),
                    Comp::I32 => (Op::ISub, Op::SGreaterThan),
                    _ => (Op::ISub, Op::UGreaterThan),
                };
                let n = self.op(sub, &[c, one])?;
                self.store(var, n)?;
                let more = self.cmp(greater, n, zero)?;
                let a = self.konst(Comp::U32, &[*body]);
                let b = self.konst(Comp::U32, &[*exit]);
                let v = self.sel(more, a, b)?;
                self.store(m.pc, v)
            }
            // Section 2.X.8.Z, CAL: push the return point unless the stack
            // is full (then the CAL has no effect, issue 38).
            Term::Call {
                target,
                cond,
                resume,
                skip,
                saved,
                span,
            } => {
                let start = m.entries.get(target).copied().ok_or_else(|| {
                    LowerError::internal_at("a call into the cycle without an entry", *span)
                })?;
                self.set_pc(m, *skip)?;
                let d = self.load(depth, Comp::U32, 1)?;
                let max = self.konst(Comp::U32, &[self.options.limits.max_call_depth]);
                let room = self.cmp(Op::ULessThan, d, max)?;
                let pass = match cond {
                    Some(test) => Some(self.cc_any(test)?),
                    None => None,
                };
                let go = match pass {
                    Some(p) => self.and(room, p)?,
                    None => room,
                };
                if self.program.call_overflow == CallOverflow::End {
                    let full = self.not(room)?;
                    let end = match pass {
                        Some(p) => self.and(full, p)?,
                        None => full,
                    };
                    self.guarded_by(Some(end), |l| l.end_program())?;
                }
                self.guarded_by(Some(go), |l| {
                    l.mark_stack_entry(d, false)?;
                    let slot = l.load(m.sp, Comp::U32, 1)?;
                    let p = l.frame_word(m, slot, 0)?;
                    let r = l.konst(Comp::U32, &[*resume]);
                    l.store(p, r)?;
                    for (k, &rep) in saved.iter().enumerate() {
                        let (var, comp) = l.counter(m, rep)?;
                        let v = l.load(var, comp, 1)?;
                        let bits = l.cast(v, Comp::U32)?;
                        let p = l.frame_word(m, slot, 1 + k as u32)?;
                        l.store(p, bits)?;
                    }
                    let one = l.konst(Comp::U32, &[1]);
                    let up = l.op(Op::IAdd, &[slot, one])?;
                    l.store(m.sp, up)?;
                    let deeper = l.op(Op::IAdd, &[d, one])?;
                    l.store(depth, deeper)?;
                    l.set_pc(m, start)
                })
                .map_err(|e| e.at(*span))
            }
            Term::Resume {
                saved,
                reindex,
                next,
            } => {
                let slot = self.load(m.sp, Comp::U32, 1)?;
                for (k, &rep) in saved.iter().enumerate() {
                    let (var, comp) = self.counter(m, rep)?;
                    let p = self.frame_word(m, slot, 1 + k as u32)?;
                    let bits = self.load(p, Comp::U32, 1)?;
                    let v = self.cast(bits, comp)?;
                    self.store(var, v)?;
                }
                // A recursive activation of a LOOP wrote its own index.
                for &(first, index) in reindex {
                    let (var, _) = self.counter(m, first + 1)?;
                    let i = self.load(var, Comp::F32, 1)?;
                    self.write_loop_index(index, i)?;
                }
                self.set_pc(m, *next)
            }
            // Section 2.X.8.Z, RET: pop the return point; with this
            // activation's stack empty, return from the function.
            Term::Return { cond, next } => {
                if let Some(n) = next {
                    self.set_pc(m, *n)?;
                }
                let pass = match cond {
                    Some(test) => Some(self.cc_any(test)?),
                    None => None,
                };
                self.guarded_by(pass, |l| {
                    l.check_return()?;
                    let slot = l.load(m.sp, Comp::U32, 1)?;
                    let zero = l.konst(Comp::U32, &[0]);
                    let empty = l.cmp(Op::IEqual, slot, zero)?;
                    let leave = l.b.id();
                    let pop = l.b.id();
                    let merge = l.b.id();
                    l.b.selection_merge(merge, spirv::SelectionControl::NONE)?;
                    l.b.branch_conditional(empty.id, leave, pop, [])?;
                    l.b.begin_block(Some(leave))?;
                    l.b.ret()?;
                    l.b.begin_block(Some(pop))?;
                    let one = l.konst(Comp::U32, &[1]);
                    let down = l.op(Op::ISub, &[slot, one])?;
                    l.store(m.sp, down)?;
                    let d = l.load(depth, Comp::U32, 1)?;
                    let shallower = l.op(Op::ISub, &[d, one])?;
                    l.store(depth, shallower)?;
                    let p = l.frame_word(m, down, 0)?;
                    let back = l.load(p, Comp::U32, 1)?;
                    l.store(m.pc, back)?;
                    l.b.branch(merge)?;
                    l.b.begin_block(Some(merge))?;
                    Ok(())
                })
            }
        }
    }
}
