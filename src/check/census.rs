//! What the whole-program rules (`rules`) and the warnings (`lint`) need to
//! know about every statement, gathered in one walk over the program.
//!
//! Each rule used to walk every statement itself: ten walks of the whole
//! IR for a straight-line program, each a pass of cache misses once the IR
//! outgrows the caches (docs/performance.md, "Session 11 (linearity)").
//! The facts here are unions (masks, flags, sets), so walking the
//! synthesized run-on entry (`Subroutine::RUN_ON_ENTRY`), a copy of source
//! segments, changes none of them; what is per subroutine is kept per
//! subroutine.

use super::rules::{for_each_operand, walk};
use crate::ir::{Index, Program, Stmt, SubId, VarId};
use crate::isa::Stage;
use crate::span::Span;
use rustc_hash::FxHashMap as HashMap;
use std::collections::BTreeMap;

pub(super) struct Census {
    /// Components of each variable (by id) that something reads: an
    /// instruction's sources through their swizzles (the components
    /// Table X.13 says the opcode reads), all four for every other operand.
    pub(super) read: Vec<u8>,
    /// Components of each variable that instructions' destinations write.
    pub(super) written: Vec<u8>,
    /// Whether an instruction's destination is the variable.
    pub(super) instruction_dest: Vec<bool>,
    /// Whether any statement reads, writes or accesses the variable.
    pub(super) used: Vec<bool>,
    /// Whether the variable is indexed with a register anywhere.
    pub(super) relative: Vec<bool>,
    /// The texture units a vertex program's instructions reference, each
    /// with the first instruction that does (empty in other stages).
    pub(super) vertex_texture_units: BTreeMap<u32, Span>,
    /// Per subroutine, by id.
    pub(super) subroutines: Vec<SubroutineCensus>,
}

#[derive(Default)]
pub(super) struct SubroutineCensus {
    /// The components each variable may get written (whole arrays at
    /// once): destinations of instructions and POPA, the index a LOOP sets.
    pub(super) writes: HashMap<VarId, u8>,
    /// Whether it has a BRA: then source order is not execution order.
    pub(super) branches: bool,
    /// What its CALs and CALIs may call, with the call's span.
    pub(super) calls: Vec<(SubId, Span)>,
}

impl Census {
    pub(super) fn of(p: &Program) -> Census {
        let n = p.variables.len();
        let mut census = Census {
            read: vec![0; n],
            written: vec![0; n],
            instruction_dest: vec![false; n],
            used: vec![false; n],
            relative: vec![false; n],
            vertex_texture_units: BTreeMap::new(),
            subroutines: Vec::with_capacity(p.subroutines.len()),
        };
        let vertex = p.stage == Stage::Vertex;
        for sub in &p.subroutines {
            let mut here = SubroutineCensus::default();
            walk(&sub.body, &mut |s| census.statement(s, vertex, &mut here));
            census.subroutines.push(here);
        }
        census
    }

    fn statement(&mut self, s: &Stmt, vertex: bool, sub: &mut SubroutineCensus) {
        let instruction = matches!(s, Stmt::Inst(_));
        for_each_operand(s, |o| {
            let v = o.var.0 as usize;
            self.used[v] = true;
            self.relative[v] |= matches!(o.index, Index::Relative { .. });
            if !instruction {
                self.read[v] = 0b1111;
            }
        });
        if let Some(m) = s.memory() {
            self.used[m.var.0 as usize] = true;
        }
        if let Some(d) = s.dest() {
            self.used[d.var.0 as usize] = true;
        }
        super::lint::writes_of(s, &mut sub.writes);
        match s {
            Stmt::Inst(i) => {
                for (k, o) in i.srcs.iter().enumerate() {
                    let comps = i.op.components_read(k, i.dst.mask.0);
                    self.read[o.var.0 as usize] |= o.swizzle.source_components(comps);
                }
                let d = i.dst.var.0 as usize;
                self.written[d] |= i.dst.mask.0;
                self.instruction_dest[d] = true;
                self.relative[d] |= matches!(i.dst.index, Index::Relative { .. });
                if vertex {
                    if let Some(t) = &i.tex {
                        for &unit in t.units() {
                            self.vertex_texture_units.entry(unit).or_insert(i.span);
                        }
                    }
                }
            }
            Stmt::Branch { .. } => sub.branches = true,
            Stmt::Call { target, span, .. } => sub.calls.push((*target, *span)),
            Stmt::CallIndirect { targets, span, .. } => {
                sub.calls.extend(targets.iter().map(|&(_, t)| (t, *span)))
            }
            _ => {}
        }
    }

    /// Everything the program can write: the union of every subroutine's
    /// writes.
    pub(super) fn writes_anywhere(&self) -> HashMap<VarId, u8> {
        let mut all: HashMap<VarId, u8> = HashMap::default();
        for sub in &self.subroutines {
            for (&v, &m) in &sub.writes {
                *all.entry(v).or_default() |= m;
            }
        }
        all
    }
}
