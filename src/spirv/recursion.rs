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
//! implementation" does (issue 38); docs/semantics.md. Programs whose call
//! graph is acyclic and no deeper than the limit have no counter.

use std::collections::HashMap;

use rspirv::dr::Operand as SpvOperand;
use rspirv::spirv::{self, GlslStd450Op as GLOp, Op, StorageClass, Word};

use super::emit::{Comp, LResult, Val, F32_ONE};
use super::{LowerError, Lowerer};
use crate::ir::{Block, CcTest, Operand, Program, Stmt, SubId};
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
}

pub(crate) enum Term {
    Goto(u32),
    /// IF, and a conditional BRK or CONT: `then` if any component passes.
    Branch {
        test: CcTest,
        then: u32,
        other: u32,
    },
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
    /// from the frame just popped.
    Resume {
        saved: Vec<usize>,
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
    states: Vec<State>,
    reps: Vec<DataType>,
    frame: u32,
}

/// Flattens the members of one call cycle into states.
pub(crate) fn flatten(program: &Program, members: &[SubId]) -> LResult<Flat> {
    let mut f = Flattener {
        members,
        states: Vec::new(),
        reps: Vec::new(),
        frame: 1,
    };
    let mut entries = HashMap::new();
    for &sub in members {
        let first = f.new_state();
        entries.insert(sub, first);
        let end = f.block(
            &program.sub(sub).body,
            first,
            &mut Vec::new(),
            &mut Vec::new(),
        )?;
        // Reaching the next label or the end of the text returns (2.X.5).
        if let Some(end) = end {
            f.terminate(
                end,
                Term::Return {
                    cond: None,
                    next: None,
                },
            );
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
                Stmt::Return { cond, .. } => match cond {
                    Some(test) => {
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
                _ => self.states[cur as usize].body.push(stmt.clone()),
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
    /// A CAL of `target` (its condition already tested): an OpFunctionCall
    /// of its function, or of its cycle's dispatch function with its first
    /// state; with the call depth counted when the program needs it.
    pub(crate) fn emit_call(&mut self, target: SubId, span: Span) -> LResult<()> {
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
        let Some(depth) = self.call_depth else {
            self.b.function_call(void, None, function, arg)?;
            return Ok(());
        };
        let d = self.load(depth, Comp::U32, 1)?;
        let max = self.konst(Comp::U32, &[self.options.limits.max_call_depth]);
        let room = self.cmp(Op::ULessThan, d, max)?;
        self.guarded_by(Some(room), |l| {
            let one = l.konst(Comp::U32, &[1]);
            let deeper = l.op(Op::IAdd, &[d, one])?;
            l.store(depth, deeper)?;
            l.b.function_call(void, None, function, arg)?;
            l.store(depth, d)
        })
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
                let mut go = self.cmp(Op::ULessThan, d, max)?;
                if let Some(test) = cond {
                    let pass = self.cc_any(test)?;
                    go = self.and(go, pass)?;
                }
                self.guarded_by(Some(go), |l| {
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
            Term::Resume { saved, next } => {
                let slot = self.load(m.sp, Comp::U32, 1)?;
                for (k, &rep) in saved.iter().enumerate() {
                    let (var, comp) = self.counter(m, rep)?;
                    let p = self.frame_word(m, slot, 1 + k as u32)?;
                    let bits = self.load(p, Comp::U32, 1)?;
                    let v = self.cast(bits, comp)?;
                    self.store(var, v)?;
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
