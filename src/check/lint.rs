//! Warnings: things a correct program may do, but a person wants to know.
//!
//! * W0001: a temporary component read before anything writes it (its value
//!   is undefined, section 2.X.3.4); not reported in Cg's output.
//! * W0002: a declared variable that no instruction uses, except Cg's
//!   boilerplate (`TEMP RC, HC;`, attribute and result arrays whose
//!   bindings the code uses directly); not reported at all in Cg's output
//!   (see [`generated_by_cgc`]).
//! * W0003: a program that never writes its main result.
//! * W0004: a chain of CALs deeper than MAX_PROGRAM_CALL_DEPTH.
//!
//! The read-before-write analysis follows source order, which is execution
//! order for straight-line code. It never warns where a write could reach
//! the read: a write anywhere in an enclosing REP counts, so do the writes
//! of the subroutines a CAL may run, and a read inside a subroutine is
//! flagged only if nothing in the program writes that component at all.

use super::census::Census;
use super::rules::{for_each_operand, walk};
use super::{Checker, ProgramText};
use crate::diag::Diagnostic;
use crate::ir::{Block, Index, Program, ResultBinding, Stmt, SubId, VarId, VarKind};
use crate::isa::Stage;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::collections::BTreeSet;

pub(super) fn lint(c: &mut Checker<'_>, p: &Program, text: &ProgramText, census: &Census) {
    if !text.generated_by_cgc {
        unused_variables(c, p, census);
        if !p.dialect.fixed_registers_initialised() {
            read_before_write(c, p, census);
        }
    }
    missing_results(c, p, text, census);
    call_depth(c, p, census);
}

/// Whether `source` is the output of NVIDIA's Cg compiler, which writes a
/// `# cgc version 3.1.0013, build date …` comment into every program.
///
/// Cg declares an alias for each range of bindings it touches
/// (`ATTRIB vertex_attrib1[] = { vertex.attrib[1..2] };`) and the
/// temporaries `RC` and `HC` for condition-code updates whether or not the
/// code uses them: in its output every W0002 would be a declaration the
/// user did not write and should not edit. Its flattened branches also read
/// registers the other branch never wrote (`CMP R0, R2.w, R1, R0;` with R0
/// unwritten, then a later select that discards it: the arbfp1 and fp40
/// fixtures do), so a W0001 there is the compiler's, not the user's.
/// Generated code is exempt, as
/// Go's tools exempt files marked "Code generated … DO NOT EDIT."
/// (tests/fixtures/cg/ holds such output). Hand-written programs keep the
/// finer boilerplate rule of `unused_variables`.
pub(super) fn generated_by_cgc(source: &str) -> bool {
    source
        .lines()
        .any(|line| line.trim_start().starts_with("# cgc version "))
}

/// The components of each variable that `block` may write ([`writes_of`]
/// for each of its statements).
fn writes_in(block: &Block, out: &mut HashMap<VarId, u8>) {
    walk(block, &mut |s| writes_of(s, out));
}

/// The components of each variable that the statement `s` itself may
/// write (whole arrays at once): the destination of an instruction or POPA,
/// the index a LOOP sets. The census (per subroutine) and the
/// read-before-write flow (per loop body) both record writes with it.
pub(super) fn writes_of(s: &Stmt, out: &mut HashMap<VarId, u8>) {
    if let Some(d) = s.dest() {
        *out.entry(d.var).or_default() |= d.mask.0;
    }
    if let Stmt::Loop { index, .. } = s {
        *out.entry(*index).or_default() |= 0b0001;
    }
}

fn unused_variables(c: &mut Checker<'_>, p: &Program, census: &Census) {
    let mut used = census.used.clone();
    // A variable on a range of buffers is one declaration: used when any
    // of its binding points is read.
    for vars in c.buffer_ranges.values() {
        let any = vars.iter().any(|v| used.get(v.0 as usize) == Some(&true));
        for v in vars {
            if let Some(u) = used.get_mut(v.0 as usize) {
                *u |= any;
            }
        }
    }
    // The bindings the program reaches, by any variable or directly.
    let mut attribs_used = HashSet::default();
    let mut results_used = HashSet::default();
    for (v, _) in p.variables.iter().zip(&used).filter(|(_, &u)| u) {
        match &v.kind {
            VarKind::Attrib(bs) => attribs_used.extend(bs.iter().copied()),
            VarKind::Result(bs) => results_used.extend(bs.iter().copied()),
            _ => {}
        }
    }
    for (i, v) in p.variables.iter().enumerate() {
        let Some(name) = &v.name else { continue };
        if used[i] {
            continue;
        }
        // Harmless boilerplate, which Cg writes into every program
        // (docs/diagnostics.md, W0002):
        let harmless = match &v.kind {
            // NV_fragment_program's write-only pseudo-registers for
            // instructions that only update the condition code (its
            // section 3.11.1); Cg declares them in every program.
            VarKind::Temp => name == "RC" || name == "HC",
            // An attribute or result array the code bypasses, reaching the
            // same bindings by their own names (`ATTRIB vertex_attrib[] =
            // { vertex.attrib[0..8] };` beside `vertex.attrib[0]`).
            VarKind::Attrib(bs) => bs.iter().any(|b| attribs_used.contains(b)),
            VarKind::Result(bs) => bs.iter().any(|b| results_used.contains(b)),
            _ => false,
        };
        if harmless {
            continue;
        }
        let what = match v.kind {
            VarKind::Temp => "temporary",
            VarKind::Attrib(_) => "attribute",
            VarKind::Param(_) => "parameter",
            VarKind::Result(_) => "result",
            VarKind::Buffer(_) | VarKind::ConstantBuffer(_) => "buffer",
            VarKind::Storage(_) => "storage buffer",
            VarKind::Counter(_) => "atomic counter",
            VarKind::Shared(_) => "shared memory",
            VarKind::GlobalMemory => "GPU memory",
        };
        c.error(
            Diagnostic::warning("W0002", format!("{what} `{name}` is never used"))
                .primary(v.span, "declared here")
                .note("no instruction reads or writes it; remove the declaration, or check for a misspelled name"),
        );
    }
}

fn read_before_write(c: &mut Checker<'_>, p: &Program, census: &Census) {
    // Everything the program can write, for reads in subroutines.
    let anywhere = census.writes_anywhere();
    // What each subroutine may write, including through its own calls.
    let sub_writes: Vec<&HashMap<VarId, u8>> =
        census.subroutines.iter().map(|s| &s.writes).collect();
    let mut reported: BTreeSet<VarId> = BTreeSet::new();
    for (index, sub) in p.subroutines.iter().enumerate() {
        let is_entry = SubId(index as u32) == p.entry;
        if !is_entry && sub.is_run_on_entry() {
            continue;
        }
        // Code with BRA runs in an order the source does not show (a
        // backward branch brings later writes before a read): its reads
        // are judged like a subroutine's, against every write.
        let mut state = Flow {
            p,
            written: HashMap::default(),
            subroutine: !is_entry || census.subroutines[index].branches,
            anywhere: &anywhere,
            sub_writes: &sub_writes,
            reported: &mut reported,
            warnings: Vec::new(),
        };
        state.block(&sub.body);
        let warnings = std::mem::take(&mut state.warnings);
        for w in warnings {
            c.error(w);
        }
    }
}

struct Flow<'a> {
    p: &'a Program,
    written: HashMap<VarId, u8>,
    /// Inside a CAL'd subroutine: its caller may have written anything.
    subroutine: bool,
    anywhere: &'a HashMap<VarId, u8>,
    sub_writes: &'a [&'a HashMap<VarId, u8>],
    reported: &'a mut BTreeSet<VarId>,
    warnings: Vec<Diagnostic>,
}

impl Flow<'_> {
    fn block(&mut self, b: &Block) {
        for s in b {
            match s {
                Stmt::Rep { count, body, .. } => {
                    if let Some(cnt) = count {
                        self.read(cnt, 0b0001);
                    }
                    // A write anywhere in the loop may reach a read at its top.
                    let mut w = HashMap::default();
                    writes_in(body, &mut w);
                    for (v, m) in w {
                        *self.written.entry(v).or_default() |= m;
                    }
                    self.block(body);
                }
                Stmt::Loop {
                    control,
                    index,
                    body,
                    ..
                } => {
                    self.read(control, 0b0111);
                    *self.written.entry(*index).or_default() |= 0b0001;
                    let mut w = HashMap::default();
                    writes_in(body, &mut w);
                    for (v, m) in w {
                        *self.written.entry(v).or_default() |= m;
                    }
                    self.block(body);
                }
                Stmt::If {
                    then_block,
                    else_block,
                    ..
                } => {
                    self.block(then_block);
                    self.block(else_block);
                }
                // A CALI may call any of its candidates: what any of them
                // writes counts as written.
                Stmt::Call { .. } | Stmt::CallIndirect { .. } => {
                    let targets: Vec<SubId> = match s {
                        Stmt::Call { target, .. } => vec![*target],
                        Stmt::CallIndirect { targets, .. } => {
                            targets.iter().map(|&(_, t)| t).collect()
                        }
                        _ => Vec::new(),
                    };
                    for target in targets {
                        if let Some(w) = self.sub_writes.get(target.0 as usize) {
                            for (v, m) in w.iter() {
                                *self.written.entry(*v).or_default() |= m;
                            }
                        }
                    }
                }
                _ => {
                    if let Stmt::Store { value, memory, .. } = s {
                        // STB/STS store the first `components` components
                        // of their value only (section 2.X.4.5).
                        self.read(value, (1u8 << memory.components) - 1);
                        for a in memory.registers() {
                            self.read(a, 0b0001);
                        }
                    } else if let Stmt::ImageStore {
                        value,
                        coord,
                        image,
                        ..
                    } = s
                    {
                        // An unformatted STOREIM stores the storage
                        // modifier's components, a formatted one all four;
                        // the coordinates are the target's.
                        let n = image.format.map_or(4, |f| f.components);
                        self.read(value, (1u8 << n) - 1);
                        self.read(coord, image.target.coordinate_mask());
                        for index in image.registers() {
                            self.read(index, 0b0001);
                        }
                    } else if let Stmt::Inst(i) = s {
                        for (k, o) in i.srcs.iter().enumerate() {
                            // ATOMB/ATOMS/ATOMIM read x (and y for CSWAP)
                            // only; LOADIM and ATOMIM the target's
                            // coordinates.
                            let atomic = i
                                .memory
                                .as_ref()
                                .map(|m| m.atomic)
                                .or(i.image.as_ref().map(|m| m.atomic));
                            let coordinate = i.image.as_ref().filter(|_| k + 1 == i.srcs.len());
                            let comps = match (atomic, coordinate) {
                                (_, Some(image)) => image.target.coordinate_mask(),
                                (Some(Some(crate::ir::AtomicOp::CSwap)), _) => 0b0011,
                                (Some(_), _) => 0b0001,
                                (None, _) => i.op.components_read(k, i.dst.mask.0),
                            };
                            self.read(o, comps);
                        }
                        if let Index::Relative { address, .. } = &i.dst.index {
                            self.read(address, 0b0001);
                        }
                        for index in i.image.iter().flat_map(|a| a.registers()) {
                            self.read(index, 0b0001);
                        }
                        *self.written.entry(i.dst.var).or_default() |= i.dst.mask.0;
                    } else {
                        for_each_operand(s, |o| self.read(o, 0b1111));
                        if let Some(d) = s.dest() {
                            *self.written.entry(d.var).or_default() |= d.mask.0;
                        }
                    }
                }
            }
        }
    }

    fn read(&mut self, o: &crate::ir::Operand, comps: u8) {
        if let Index::Relative { address, .. } = &o.index {
            self.read(address, 0b0001);
        }
        let v = self.p.var(o.var);
        if !matches!(v.kind, VarKind::Temp) || self.reported.contains(&o.var) {
            return;
        }
        let needed = o.swizzle.source_components(comps);
        let have = if self.subroutine {
            self.anywhere.get(&o.var).copied().unwrap_or(0)
        } else {
            self.written.get(&o.var).copied().unwrap_or(0)
        };
        let missing = needed & !have;
        if missing == 0 {
            return;
        }
        self.reported.insert(o.var);
        let names: String = (0..4)
            .filter(|c| missing & (1 << c) != 0)
            .map(|c| ['x', 'y', 'z', 'w'][c])
            .collect();
        let name = v.name.clone().unwrap_or_default();
        self.warnings.push(
            Diagnostic::warning("W0001", format!("`{name}.{names}` is read before anything writes it"))
                .primary(o.span, "read here")
                .secondary(v.span, "declared here")
                .note("section 2.X.3.4: temporaries \"are undefined at the beginning of each program invocation\""),
        );
    }
}

fn missing_results(c: &mut Checker<'_>, p: &Program, text: &ProgramText, census: &Census) {
    let mut written: Vec<ResultBinding> = Vec::new();
    for (v, _) in p
        .variables
        .iter()
        .zip(&census.instruction_dest)
        .filter(|(_, &d)| d)
    {
        if let VarKind::Result(b) = &v.kind {
            written.extend(b.iter().copied());
        }
    }
    let (ok, what) = match p.stage {
        Stage::Fragment => (
            written
                .iter()
                .any(|r| matches!(r, ResultBinding::FragColor(_) | ResultBinding::Depth)),
            "a colour or depth result",
        ),
        Stage::Vertex => (
            written.contains(&ResultBinding::Position) || p.position_invariant(),
            "result.position",
        ),
        Stage::Geometry | Stage::TessEval => (
            written.contains(&ResultBinding::Position),
            "result.position",
        ),
        // A tessellation control program's results may all be per-patch,
        // and a compute program has none (it writes memory).
        Stage::TessControl | Stage::Compute => (true, ""),
    };
    if !ok {
        c.error(
            Diagnostic::warning("W0003", format!("this {} program never writes {what}", p.stage))
                .primary(text.header, format!("this {} program", p.stage))
                .secondary(text.end, "ends here without writing it")
                .note("section 2.X.3.5: result variables are undefined at the beginning of each invocation, so an unwritten result is undefined in later stages"),
        );
    }
}

/// W0004: a static chain of calls deeper than the call stack.
fn call_depth(c: &mut Checker<'_>, p: &Program, census: &Census) {
    let limit = c.options.limits.max_call_depth;
    let calls: Vec<&[(SubId, crate::span::Span)]> =
        census.subroutines.iter().map(|s| &s.calls[..]).collect();
    // Longest acyclic chain from the entry (cycles are bounded at run
    // time), explored iteratively and only as deep as the limit + 1, so a
    // program of a hundred thousand chained subroutines costs no stack.
    let entry = p.entry.0 as usize;
    let mut d = 0u32;
    let mut stack: Vec<(usize, usize)> = vec![(entry, 0)];
    let mut on_path = vec![false; calls.len()];
    if let Some(x) = on_path.get_mut(entry) {
        *x = true;
    }
    while let Some(&(v, next)) = stack.last() {
        d = d.max(stack.len() as u32 - 1);
        if d > limit {
            break;
        }
        match calls.get(v).and_then(|c| c.get(next)) {
            Some(&(t, _)) => {
                if let Some(top) = stack.last_mut() {
                    top.1 += 1;
                }
                let t = t.0 as usize;
                if t < calls.len() && !on_path[t] {
                    on_path[t] = true;
                    stack.push((t, 0));
                }
            }
            None => {
                on_path[v] = false;
                stack.pop();
            }
        }
    }
    if d > limit {
        let span = calls
            .get(p.entry.0 as usize)
            .and_then(|c| c.first())
            .map(|c| c.1)
            .unwrap_or_default();
        c.error(
            Diagnostic::warning("W0004", format!("calls nest {d} deep, past MAX_PROGRAM_CALL_DEPTH ({limit})"))
                .primary(span, "the chain starts here")
                .note("section 2.X.5: a CAL issued while MAX_PROGRAM_CALL_DEPTH subroutines are active has undefined results; see docs/semantics.md for what nvp4c does"),
        );
    }
}
#[cfg(test)]
mod tests {
    use super::generated_by_cgc;

    #[test]
    fn cgc_output_is_recognised_by_its_version_comment() {
        assert!(generated_by_cgc(
            "!!NVfp4.0\nOPTION ARB_draw_buffers;\n# cgc version 3.1.0013, build date Apr 24 2012\nEND\n"
        ));
        assert!(generated_by_cgc(
            "!!NVfp4.0\n# cgc version 2.2.0017, build date Jan 29 2010\nEND\n"
        ));
        assert!(!generated_by_cgc(
            "!!NVfp4.0\n# written by hand, not by cgc\nEND\n"
        ));
        assert!(!generated_by_cgc(
            "!!NVfp4.0\n#var float4 tint :  : c[0] : 1 : 1\nEND\n"
        ));
    }
}
