//! Flow structure (section 2.X.5; NV_fragment_program2 and
//! NV_vertex_program2_option "Branching"): from the flat instruction list
//! to the IR's tree of subroutines, IF, REP and LOOP blocks. What a label
//! means is the dialect's [`LabelModel`].

use super::suggest::did_you_mean;
use super::Checker;
use crate::diag::Diagnostic;
use crate::ir::{
    Block, CcTest, Dest, Instruction, KillCondition, Operand, Stmt, SubId, Subroutine,
    SubroutineEnd, VarId,
};
use crate::isa::LabelModel;
use crate::span::Span;
use crate::syntax::ast::Ident;
use std::collections::HashMap;

/// One checked statement, before blocks are matched.
pub(crate) enum Flat {
    Inst(Instruction),
    If(CcTest, Span),
    Else(Span),
    EndIf(Span),
    /// REP, its count and whether the count is read at 64 bits.
    Rep(Option<Operand>, bool, Span),
    /// A REP already reported as wrong: it opens a block, and nothing more
    /// is said about it.
    BrokenRep(Span),
    EndRep(Span),
    /// LOOP with its control operand and index variable.
    Loop(Operand, VarId, Span),
    /// A LOOP already reported as wrong.
    BrokenLoop(Span),
    EndLoop(Span),
    /// BRA to a label.
    Bra(Ident, Option<CcTest>, Span),
    PushAddress(Operand, Span),
    PopAddress(Dest, Span),
    Brk(Option<CcTest>, Span),
    Cont(Option<CcTest>, Span),
    Ret(Option<CcTest>, Span),
    Cal(Ident, Option<CcTest>, Span),
    /// CALI: the subroutine parameter read, the index of the call in
    /// `SubroutineDecls::calls` (its SUBROUTINETYPE), the condition.
    Cali(Operand, usize, Option<CcTest>, Span),
    Kil(KillCondition, Span),
    Emit(Span),
    /// EMITS with its stream operand.
    EmitStream(Operand, Span),
    EndPrim(Span),
    /// STB.
    Store(Operand, crate::ir::MemoryAccess, Span),
    /// STOREIM: value, coordinates, image.
    ImageStore(Operand, Operand, crate::ir::ImageAccess, Span),
    /// BAR, MEMBAR.
    Barrier(crate::ir::BarrierKind, Span),
    Label(Ident),
}

/// An open IF or REP block.
enum Frame {
    If {
        test: CcTest,
        span: Span,
        then_block: Block,
        else_block: Option<(Block, Span)>,
        /// Nested past the limit (already reported): its contents are not
        /// kept, so the tree stays as shallow as the limit.
        over_limit: bool,
    },
    Rep {
        kind: LoopKind,
        count: Option<Operand>,
        span: Span,
        body: Block,
        has_break: bool,
        has_return: bool,
        /// Already reported as wrong: no more is said about it.
        broken: bool,
        over_limit: bool,
    },
}

/// Which loop block a `Frame::Rep` is.
enum LoopKind {
    /// REP; `count64` when its count is read at 64 bits (`Stmt::Rep`).
    Rep {
        count64: bool,
    },
    Loop {
        control: Operand,
        index: VarId,
    },
    /// A LOOP already reported as wrong.
    BrokenLoop,
}

impl Frame {
    fn span(&self) -> Span {
        match self {
            Frame::If { span, .. } | Frame::Rep { span, .. } => *span,
        }
    }
    fn opener(&self) -> &'static str {
        match self {
            Frame::If { .. } => "IF",
            Frame::Rep {
                kind: LoopKind::Rep { .. },
                ..
            } => "REP",
            Frame::Rep { .. } => "LOOP",
        }
    }
    fn closer(&self) -> &'static str {
        match self {
            Frame::If { .. } => "ENDIF",
            Frame::Rep {
                kind: LoopKind::Rep { .. },
                ..
            } => "ENDREP",
            Frame::Rep { .. } => "ENDLOOP",
        }
    }
}

struct Segment {
    label: Option<Ident>,
    body: Block,
}

/// Builds the flow tree from the program's instructions and labels as the
/// checker produces them, one at a time (section 2.X.5).
pub(crate) struct Builder<'o> {
    /// The checker, which reports the flow errors (and owns everything else).
    pub(crate) c: Checker<'o>,
    frames: Vec<Frame>,
    block: Block,
    if_depth: u32,
    loop_depth: u32,
    /// CALs and BRAs to resolve once every label is known, in order: the
    /// label and the instruction (`CAL` or `BRA`).
    pending_calls: Vec<(Ident, &'static str)>,
    /// Closers (`ENDIF`, `ENDREP`) owed by blocks a label cut off.
    orphan_closers: Vec<&'static str>,
    /// Open frames nested past a depth limit; while any is open, statements
    /// are checked but not kept (the program already has an error).
    over_limit_frames: usize,
    /// The code before the first label, then one segment per label.
    segments: Vec<Segment>,
    /// The last statement seen, where blocks still open are reported.
    end: Span,
}

impl Builder<'_> {
    fn push(&mut self, s: Stmt) {
        if self.over_limit_frames > 0 {
            return;
        }
        match self.frames.last_mut() {
            Some(Frame::If {
                then_block,
                else_block: None,
                ..
            }) => then_block.push(s),
            Some(Frame::If {
                else_block: Some((b, _)),
                ..
            }) => b.push(s),
            Some(Frame::Rep { body, .. }) => body.push(s),
            None => self.block.push(s),
        }
    }

    fn wrong_closer(&mut self, what: &str, span: Span) {
        // The closers of blocks already cut off by a label (E0503) are
        // expected without their openers; they are not a second mistake.
        if self.frames.is_empty() {
            if let Some(k) = self
                .orphan_closers
                .iter()
                .position(|c| *c == what || (what == "ELSE" && *c == "ENDIF"))
            {
                if what != "ELSE" {
                    self.orphan_closers.remove(k);
                }
                return;
            }
        }
        let d = match self.frames.last() {
            Some(f) => Diagnostic::error("E0501", format!("{what} closes the wrong block"))
                .primary(span, format!("this {what} ..."))
                .secondary(f.span(), format!("... but the innermost open block is this {}, closed by {}", f.opener(), f.closer()))
                .note("section 2.X.5: \"A program will fail to load if any instruction block is terminated by an incorrect instruction\""),
            None => Diagnostic::error("E0502", format!("{what} without an open block"))
                .primary(span, format!("no block for this {what} to close"))
                .note("section 2.X.5: IF/ELSE/ENDIF and REP/ENDREP blocks must be opened before they are closed"),
        };
        self.c.error(d);
        // An ENDIF or ENDREP that closes the wrong block still ends the
        // innermost one, so the mistake is reported once and not again as
        // a block left open.
        if what != "ELSE" {
            if let Some(mut f) = self.frames.pop() {
                if let Frame::Rep { broken, .. } = &mut f {
                    *broken = true;
                }
                self.finish_frame(f);
            }
        }
    }

    fn close_all(&mut self, at: Span, label: bool) {
        while let Some(f) = self.frames.pop() {
            if label {
                self.orphan_closers.push(f.closer());
            }
            let d = if label {
                Diagnostic::error("E0503", "a label inside a block")
                    .primary(at, "label here")
                    .secondary(f.span(), format!("inside this {} block", f.opener()))
                    .note("section 2.X.5: a program will fail to load if an instruction block \"contains an instruction label\"; subroutines may not be nested inside IF or REP blocks")
            } else {
                Diagnostic::error("E0504", format!("{} block is never closed", f.opener()))
                    .primary(f.span(), format!("opened here, needs {}", f.closer()))
                    .secondary(at, "subroutine or program ends here")
                    .note("section 2.X.5: a program will fail to load if an instruction block \"is not terminated before the block containing it\"")
            };
            self.c.error(d);
            self.finish_frame(f);
        }
    }

    fn finish_frame(&mut self, f: Frame) {
        match f {
            Frame::If {
                test,
                span,
                mut then_block,
                mut else_block,
                over_limit,
            } => {
                // A finished block takes no more statements: its room for
                // more, up to half of a block grown by doubling, was a
                // quarter of the IR of nested code (docs/performance.md,
                // "Session 8").
                then_block.shrink_to_fit();
                if let Some((e, _)) = &mut else_block {
                    e.shrink_to_fit();
                }
                self.if_depth -= 1;
                if over_limit {
                    self.over_limit_frames -= 1;
                    return;
                }
                self.push(Stmt::If {
                    test,
                    then_block,
                    else_block: else_block.map(|e| e.0).unwrap_or_default(),
                    span,
                });
            }
            Frame::Rep {
                kind,
                count,
                span,
                mut body,
                has_break,
                has_return,
                broken,
                over_limit,
            } => {
                body.shrink_to_fit();
                self.loop_depth -= 1;
                if over_limit {
                    self.over_limit_frames -= 1;
                    return;
                }
                let is_rep = matches!(kind, LoopKind::Rep { .. });
                if is_rep && count.is_none() && !has_break && !has_return && !broken {
                    self.c.error(
                        Diagnostic::error("E0505", "REP without a count can never end")
                            .primary(span, "no loop count, and no BRK or RET inside")
                            .note("section 2.X.5: \"a program will fail to load if it contains a REP/ENDREP block that contains neither a BRK instruction at the current nesting level or a RET instruction at any nesting level\""),
                    );
                }
                // A RET inside makes the enclosing loops escapable too.
                if has_return {
                    for f in self.frames.iter_mut() {
                        if let Frame::Rep { has_return, .. } = f {
                            *has_return = true;
                        }
                    }
                }
                match kind {
                    LoopKind::Rep { count64 } => self.push(Stmt::Rep {
                        count,
                        count64,
                        body,
                        span,
                    }),
                    LoopKind::Loop { control, index } => self.push(Stmt::Loop {
                        control,
                        index,
                        body,
                        span,
                    }),
                    LoopKind::BrokenLoop => {}
                }
            }
        }
    }

    fn open_rep(&mut self, kind: LoopKind, count: Option<Operand>, span: Span, broken: bool) {
        let limit = self.c.options.limits.max_loop_depth;
        let over_limit = self.loop_depth >= limit;
        let name = if matches!(kind, LoopKind::Rep { .. }) {
            "REP"
        } else {
            "LOOP"
        };
        // Reported once, where the limit is crossed.
        if self.loop_depth == limit {
            self.c.error(
                Diagnostic::error("E0507", format!("{name} nested {} deep", self.loop_depth + 1))
                    .primary(span, format!("inside {} loop blocks", self.loop_depth))
                    .note(format!("section 2.X.5: \"a program will fail to load if a REP instruction is nested inside MAX_PROGRAM_LOOP_DEPTH_NV or more REP/ENDREP blocks\" (NV_fragment_program2: \"... a LOOP or REP instruction is nested inside MAX_PROGRAM_LOOP_DEPTH_NV or more LOOP/ENDLOOP or REP/ENDREP blocks\"); the limit is {limit} (docs/limits.md)")),
            );
        }
        self.loop_depth += 1;
        self.over_limit_frames += usize::from(over_limit);
        self.frames.push(Frame::Rep {
            kind,
            count,
            span,
            body: Vec::new(),
            has_break: false,
            has_return: false,
            broken,
            over_limit,
        });
    }

    fn statement(&mut self, f: Flat) {
        match f {
            Flat::Inst(i) => self.push(Stmt::Inst(i)),
            Flat::If(test, span) => {
                let over_limit = self.if_depth >= self.c.options.limits.max_if_depth;
                // Reported once, where the limit is crossed; the IFs inside
                // it are part of the same mistake.
                if self.if_depth == self.c.options.limits.max_if_depth {
                    self.c.error(
                        Diagnostic::error("E0506", format!("IF nested {} deep", self.if_depth + 1))
                            .primary(span, format!("inside {} IF blocks", self.if_depth))
                            .note(format!("section 2.X.5: \"a program will fail to load if an IF instruction is nested inside MAX_PROGRAM_IF_DEPTH_NV or more IF/ELSE/ENDIF blocks\"; the limit is {} (docs/limits.md)", self.c.options.limits.max_if_depth)),
                    );
                }
                self.if_depth += 1;
                self.over_limit_frames += usize::from(over_limit);
                self.frames.push(Frame::If {
                    test,
                    span,
                    then_block: Vec::new(),
                    else_block: None,
                    over_limit,
                });
            }
            Flat::Else(span) => match self.frames.last_mut() {
                Some(Frame::If {
                    else_block: e @ None,
                    ..
                }) => *e = Some((Vec::new(), span)),
                Some(Frame::If {
                    else_block: Some((_, first)),
                    ..
                }) => {
                    let first = *first;
                    self.c.error(
                        Diagnostic::error("E0501", "a second ELSE in one IF block")
                            .primary(span, "second ELSE")
                            .secondary(first, "first ELSE here")
                            .note("section 2.X.5: an IF/ELSE/ENDIF block has at most one ELSE"),
                    );
                }
                _ => self.wrong_closer("ELSE", span),
            },
            Flat::EndIf(span) => {
                if matches!(self.frames.last(), Some(Frame::If { .. })) {
                    if let Some(f) = self.frames.pop() {
                        self.finish_frame(f);
                    }
                } else {
                    self.wrong_closer("ENDIF", span);
                }
            }
            Flat::BrokenRep(span) => {
                self.open_rep(LoopKind::Rep { count64: false }, None, span, true)
            }
            Flat::Rep(count, count64, span) => {
                self.open_rep(LoopKind::Rep { count64 }, count, span, false)
            }
            Flat::Loop(control, index, span) => {
                self.open_rep(LoopKind::Loop { control, index }, None, span, false)
            }
            Flat::BrokenLoop(span) => self.open_rep(LoopKind::BrokenLoop, None, span, true),
            Flat::EndRep(span) | Flat::EndLoop(span) => {
                let (closer, want_rep) = match f {
                    Flat::EndRep(_) => ("ENDREP", true),
                    _ => ("ENDLOOP", false),
                };
                if matches!(self.frames.last(), Some(Frame::Rep { kind, .. }) if matches!(kind, LoopKind::Rep { .. }) == want_rep)
                {
                    if let Some(f) = self.frames.pop() {
                        self.finish_frame(f);
                    }
                } else {
                    self.wrong_closer(closer, span);
                }
            }
            Flat::Brk(cond, span) | Flat::Cont(cond, span) => {
                let is_break = matches!(f, Flat::Brk(..));
                let innermost = self.frames.iter_mut().rev().find_map(|f| match f {
                    Frame::Rep { has_break, .. } => Some(has_break),
                    _ => None,
                });
                match innermost {
                    Some(has_break) => {
                        if is_break {
                            *has_break = true;
                        }
                        self.push(if is_break {
                            Stmt::Break { cond, span }
                        } else {
                            Stmt::Continue { cond, span }
                        });
                    }
                    None => {
                        let name = if is_break { "BRK" } else { "CONT" };
                        self.c.error(
                            Diagnostic::error("E0508", format!("{name} outside a REP or LOOP block"))
                                .primary(span, "no loop to leave")
                                .note("section 2.X.5: \"A program will fail to load if it includes a CONT or BRK instruction that is not contained inside a REP/ENDREP block.\" (NV_fragment_program2: \"... a BRK instruction that is not nested inside a LOOP/ENDLOOP or REP/ENDREP block\")"),
                        );
                    }
                }
            }
            Flat::Ret(cond, span) => {
                for f in self.frames.iter_mut() {
                    if let Frame::Rep { has_return, .. } = f {
                        *has_return = true;
                    }
                }
                self.push(Stmt::Return { cond, span });
            }
            Flat::Cal(target, cond, span) => {
                // Resolved after all labels are seen; the index is patched.
                self.pending_calls.push((target, "CAL"));
                self.push(Stmt::Call {
                    target: SubId(u32::MAX - (self.pending_calls.len() as u32 - 1)),
                    cond,
                    span,
                });
            }
            Flat::Cali(selector, call, cond, span) => {
                // Its candidates are known once all labels are: until
                // then `targets` holds only the call's index (patched by
                // `patch_calls`).
                self.push(Stmt::CallIndirect {
                    selector,
                    targets: vec![(call as u32, SubId(u32::MAX))],
                    cond,
                    span,
                });
            }
            Flat::Bra(target, cond, span) => {
                self.pending_calls.push((target, "BRA"));
                self.push(Stmt::Branch {
                    target: SubId(u32::MAX - (self.pending_calls.len() as u32 - 1)),
                    cond,
                    span,
                });
            }
            Flat::PushAddress(value, span) => self.push(Stmt::PushAddress { value, span }),
            Flat::PopAddress(dst, span) => self.push(Stmt::PopAddress { dst, span }),
            Flat::Kil(cond, span) => self.push(Stmt::Kill { cond, span }),
            Flat::Emit(span) => self.push(Stmt::Emit { span }),
            Flat::EmitStream(stream, span) => self.push(Stmt::EmitStream { stream, span }),
            Flat::EndPrim(span) => self.push(Stmt::EndPrimitive { span }),
            Flat::Store(value, memory, span) => self.push(Stmt::Store {
                value,
                memory: Box::new(memory),
                span,
            }),
            Flat::ImageStore(value, coord, image, span) => self.push(Stmt::ImageStore {
                value,
                coord,
                image: Box::new(image),
                span,
            }),
            Flat::Barrier(kind, span) => self.push(Stmt::Barrier { kind, span }),
            Flat::Label(_) => {}
        }
    }
}

/// Builds the subroutines. Returns them and the entry point.
impl<'o> Builder<'o> {
    pub(crate) fn new(c: Checker<'o>) -> Builder<'o> {
        Builder {
            c,
            frames: Vec::new(),
            block: Vec::new(),
            if_depth: 0,
            loop_depth: 0,
            pending_calls: Vec::new(),
            orphan_closers: Vec::new(),
            over_limit_frames: 0,
            segments: vec![Segment {
                label: None,
                body: Vec::new(),
            }],
            end: Span::default(),
        }
    }

    /// Room for `statements` more in the code before the first label.
    pub(crate) fn reserve(&mut self, statements: usize) {
        self.block.reserve(statements);
    }

    /// Takes the next instruction or label.
    pub(crate) fn add(&mut self, f: Flat) {
        if let Flat::Label(id) = f {
            self.close_all(id.span, true);
            if let Some(seg) = self.segments.last_mut() {
                seg.body = std::mem::take(&mut self.block);
            }
            self.segments.push(Segment {
                label: Some(id),
                body: Vec::new(),
            });
            return;
        }
        self.end = match &f {
            Flat::Inst(i) => i.span,
            Flat::If(_, s)
            | Flat::Else(s)
            | Flat::EndIf(s)
            | Flat::Rep(_, _, s)
            | Flat::BrokenRep(s)
            | Flat::EndRep(s)
            | Flat::Loop(_, _, s)
            | Flat::BrokenLoop(s)
            | Flat::EndLoop(s)
            | Flat::Bra(_, _, s)
            | Flat::PushAddress(_, s)
            | Flat::PopAddress(_, s)
            | Flat::Brk(_, s)
            | Flat::Cont(_, s)
            | Flat::Ret(_, s)
            | Flat::Cal(_, _, s)
            | Flat::Cali(_, _, _, s)
            | Flat::Kil(_, s)
            | Flat::Emit(s)
            | Flat::EmitStream(_, s)
            | Flat::EndPrim(s)
            | Flat::Store(_, _, s)
            | Flat::ImageStore(_, _, _, s)
            | Flat::Barrier(_, s) => *s,
            Flat::Label(id) => id.span,
        };
        self.statement(f);
    }

    /// Closes what is still open, resolves the CALs and returns the
    /// subroutines, the entry and the checker.
    pub(crate) fn finish(mut self) -> (Vec<Subroutine>, SubId, Checker<'o>) {
        let end = self.end;
        self.close_all(end, false);
        let mut segments = std::mem::take(&mut self.segments);
        if let Some(seg) = segments.last_mut() {
            seg.body = std::mem::take(&mut self.block);
        }
        let pending = std::mem::take(&mut self.pending_calls);
        let mut c = self.c;
        let model = c.dialect.labels();
        let (subs, entry) = link_segments(segments, pending, model, &mut c);
        (subs, entry, c)
    }
}

/// Section 2.X.5: labels name subroutines; CAL and BRA targets are
/// resolved and the entry point chosen once the whole program is read.
fn link_segments(
    mut segments: Vec<Segment>,
    pending: Vec<(Ident, &'static str)>,
    model: LabelModel,
    c: &mut Checker<'_>,
) -> (Vec<Subroutine>, SubId) {
    // The unlabelled start is a segment only if it has code, or if no
    // label exists at all.
    if segments.len() > 1 && segments[0].body.is_empty() {
        segments.remove(0);
    }
    let mut labels: HashMap<String, (usize, Span)> = HashMap::new();
    for (i, s) in segments.iter().enumerate() {
        if let Some(l) = &s.label {
            if let Some(&(_, first)) = labels.get(l.name.as_str()) {
                c.error(
                    Diagnostic::error("E0509", format!("label `{}` is defined twice", l.name))
                        .primary(l.span, "defined again here")
                        .secondary(first, "first defined here")
                        .note(
                            "section 2.X.5: each subroutine label names one place in the program",
                        ),
                );
            } else {
                labels.insert(l.name.to_string(), (i, l.span));
            }
        }
    }
    // Resolve CAL and BRA targets.
    let mut targets = Vec::with_capacity(pending.len());
    for (t, op) in &pending {
        match labels.get(t.name.as_str()) {
            Some(&(i, _)) => targets.push(Some(i as u32)),
            None => {
                let mut d =
                    Diagnostic::error("E0510", format!("{op} to undefined label `{}`", t.name))
                        .primary(t.span, "no such label");
                if let Some(s) = did_you_mean(&t.name, labels.keys().map(String::as_str)) {
                    d = d.note(format!("did you mean `{s}`?"));
                }
                c.error(d.note("section 2.X.5: \"a program will fail to load if it includes a CAL instruction that references an instruction label that is not defined anywhere in the program\"; NV_vertex_program2_option: \"A vertex program will fail to load if an instruction refers to a label that is not defined in the program string.\""));
                targets.push(None);
            }
        }
    }
    let label_subs: HashMap<String, SubId> = labels
        .iter()
        .map(|(name, &(i, _))| (name.clone(), SubId(i as u32)))
        .collect();
    let indirect = c.resolve_indirect_calls(&label_subs);
    // Every CAL and BRA is in `pending` and every CALI in `indirect`: a
    // program with neither has nothing to patch, and the walk over all its
    // statements is a cache-missing pass at 10 MB (docs/performance.md,
    // "Session 11 (linearity)").
    if !pending.is_empty() || !indirect.is_empty() {
        for s in segments.iter_mut() {
            patch_calls(&mut s.body, &targets, &indirect);
        }
    }
    // Section 2.X.5: execution starts after the label `main` if there is
    // one, else at the first instruction, and runs until RET in main or the
    // end of the program text (labels do not stop it).
    let entry_index = labels.get("main").map_or(0, |&(i, _)| i);
    if model == LabelModel::Flat {
        // The NV options on ARB headers: labels mark places in one stream
        // of instructions. Each segment runs on into the next; the end of
        // the text ends the program, from any call depth.
        let count = segments.len();
        let subs = segments
            .into_iter()
            .enumerate()
            .map(|(i, s)| Subroutine {
                name: s.label.as_ref().map(|l| l.name.to_string()),
                span: s.label.as_ref().map_or(Span::default(), |l| l.span),
                body: s.body,
                end: if i + 1 < count {
                    SubroutineEnd::Continue(SubId(i as u32 + 1))
                } else {
                    SubroutineEnd::EndProgram
                },
            })
            .collect();
        return (subs, SubId(entry_index as u32));
    }
    // Execution that runs past the entry segment into later ones needs a
    // subroutine of its own: those segments' code, copied. Every other body
    // is moved, so the IR is never held twice.
    let run_on: Option<Block> = (entry_index + 1 != segments.len()).then(|| {
        segments[entry_index..]
            .iter()
            .flat_map(|s| s.body.iter().cloned())
            .collect()
    });
    let mut subs: Vec<Subroutine> = segments
        .into_iter()
        .map(|s| Subroutine {
            name: s.label.as_ref().map(|l| l.name.to_string()),
            span: s.label.as_ref().map_or(Span::default(), |l| l.span),
            body: s.body,
            end: SubroutineEnd::Return,
        })
        .collect();
    let entry = match run_on {
        None => SubId(entry_index as u32),
        Some(body) => {
            subs.push(Subroutine {
                name: Some(Subroutine::RUN_ON_ENTRY.into()),
                span: subs[entry_index].span,
                body,
                end: SubroutineEnd::Return,
            });
            SubId(subs.len() as u32 - 1)
        }
    };
    (subs, entry)
}

fn patch_calls(block: &mut Block, targets: &[Option<u32>], indirect: &[Option<Vec<(u32, SubId)>>]) {
    for s in block.iter_mut() {
        match s {
            Stmt::CallIndirect { targets: t, .. } => {
                // An unresolved call was reported (E1226); its list stays
                // unusable and the program is not lowered.
                let k = t.first().map_or(usize::MAX, |&(k, _)| k as usize);
                *t = indirect.get(k).cloned().flatten().unwrap_or_default();
            }
            Stmt::Call { target, .. } | Stmt::Branch { target, .. } => {
                let k = (u32::MAX - target.0) as usize;
                // An unresolved target was reported; its id stays unusable
                // and the program is not lowered.
                *target = SubId(targets.get(k).copied().flatten().unwrap_or(u32::MAX));
            }
            Stmt::If {
                then_block,
                else_block,
                ..
            } => {
                patch_calls(then_block, targets, indirect);
                patch_calls(else_block, targets, indirect);
            }
            Stmt::Rep { body, .. } | Stmt::Loop { body, .. } => {
                patch_calls(body, targets, indirect)
            }
            _ => {}
        }
    }
}
