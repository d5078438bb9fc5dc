//! The rules of the AGAL format, checked on the decoded tokens: what
//! Adobe's "AGAL bytecode format" page and its register table forbid
//! (unknown opcodes, fields that must be zero, register types and numbers a
//! profile does not have, `tex`/`kil`/`ddx` outside fragment programs,
//! `nrm`/`crs`/`m33`/`m34` writing `w`, unbalanced `ife` ... `eif`, token
//! limits, mismatched sampler states for one sampler) and what Flash
//! Player's validator refuses at upload (reading a temporary component
//! nothing has written, a vertex program that does not write all of `op`,
//! a fragment program that does not write all of `oc`).
//!
//! Every diagnostic points at the token's line and operand in the source
//! the tokens came from (the disassembly of bytecode, or the assembly
//! text), and for bytecode names the byte offset of the field.

use std::collections::BTreeMap;

use super::decode::{SamplerField, SourceField, Token};
use super::table::{Flow, OpDef, Operands, RegisterType, Semantics, Written};
use super::{TokenSpans, Unit};
use crate::span::Span;
use crate::{Diagnostic, Stage};

/// Per token, what the lowering needs beyond the token itself.
pub(crate) struct Checked {
    /// The sampler state of each sampler number, from its first use.
    pub samplers: BTreeMap<u32, SamplerField>,
}

/// Where a field is: the operand slot (0 destination, 1 source 1, 2 source
/// 2 or sampler) and its byte offset within the token.
const FIELD_OFFSET: [usize; 3] = [4, 8, 16];
const FIELD_NAME: [&str; 3] = ["destination", "source 1", "source 2"];

struct Checker<'u> {
    unit: &'u Unit,
    diags: Vec<Diagnostic>,
    /// Components written so far, per (type, number), in token order
    /// (Flash Player validates in token order, whatever the flow).
    written: BTreeMap<(RegisterType, u32), (u8, Span)>,
    samplers: BTreeMap<u32, (SamplerField, Span)>,
}

impl Checker<'_> {
    fn spans(&self, t: &Token) -> &TokenSpans {
        &self.unit.spans[t.index]
    }

    /// The span of slot `slot` of token `t`, or its line.
    fn at(&self, t: &Token, slot: usize) -> Span {
        let s = self.spans(t);
        s.operands[slot].unwrap_or(s.line)
    }

    /// A note naming the byte offset, for bytecode.
    fn located(&self, d: Diagnostic, t: &Token, slot: Option<usize>) -> Diagnostic {
        if !self.unit.bytecode {
            return d;
        }
        match slot {
            Some(s) => d.note(format!(
                "at byte {} (token {}, {} field)",
                t.offset + FIELD_OFFSET[s],
                t.index,
                FIELD_NAME[s]
            )),
            None => d.note(format!("at byte {} (token {})", t.offset, t.index)),
        }
    }

    fn error(
        &mut self,
        code: &'static str,
        message: String,
        t: &Token,
        slot: Option<usize>,
        label: &str,
        note: &str,
    ) {
        let span = match slot {
            Some(s) => self.at(t, s),
            None => self.spans(t).line,
        };
        let d = Diagnostic::error(code, message).primary(span, label);
        let d = if note.is_empty() { d } else { d.note(note) };
        let d = self.located(d, t, slot);
        self.diags.push(d);
    }

    fn stage(&self) -> Stage {
        self.unit.stage
    }

    fn version(&self) -> u32 {
        self.unit.version
    }

    /// Checks a register reference; `Some(type)` when it exists here.
    fn register(
        &mut self,
        t: &Token,
        slot: usize,
        ty: u32,
        number: u32,
        rows: u32,
    ) -> Option<RegisterType> {
        let stage = self.stage();
        let version = self.version();
        let Some(rt) = RegisterType::from_bits(ty) else {
            self.error(
                "E2020",
                format!("unknown register type {ty}"),
                t,
                Some(slot),
                "register type",
                "AGAL register types are 0 (attribute) to 7 (instance id) (FACTS-agal-encoding.md section 3; Adobe's table lists 0 to 6)",
            );
            return None;
        };
        let count = rt.count(stage, version);
        if count == 0 {
            let name = rt
                .name(stage)
                .or_else(|| rt.name(other(stage)))
                .unwrap_or("?");
            let (why, rule) = match rt.name(stage) {
                None => (
                    format!("{stage} programs have no {} registers", rt.description()),
                    "Adobe's \"Program Registers\" table: attributes (and `iid`) exist in vertex programs, `od` in fragment programs",
                ),
                Some(_) => (
                    format!("`{name}` needs a newer AGAL version than {version}"),
                    "Adobe's \"Program Registers\" table: `od` from AGAL2 (\"standard\" profile); vertex samplers and `iid` from AGAL3",
                ),
            };
            self.error(
                "E2021",
                format!(
                    "{} register `{name}` in an AGAL{version} {stage} program",
                    rt.description()
                ),
                t,
                Some(slot),
                &why,
                rule,
            );
            return None;
        }
        let last = number.saturating_add(rows.saturating_sub(1));
        if last >= count {
            let name = rt.name(stage).unwrap_or("?");
            let what = if rows > 1 && number < count {
                format!(
                    "the matrix's rows {name}{number} to {name}{last} go past {name}{}",
                    count - 1
                )
            } else {
                format!(
                    "`{name}{number}` is past the last {} register, {name}{}",
                    rt.description(),
                    count - 1
                )
            };
            self.error(
                "E2022",
                format!(
                    "{} register {name}{last} does not exist in AGAL{version}",
                    rt.description()
                ),
                t,
                Some(slot),
                &what,
                "Adobe's \"Program Registers\" table gives the registers of each profile",
            );
            return None;
        }
        Some(rt)
    }

    fn source(
        &mut self,
        t: &Token,
        slot: usize,
        s: &SourceField,
        rows: u32,
    ) -> Option<RegisterType> {
        if s.reserved != 0 {
            self.error(
                "E2013",
                format!("reserved bits of the {} field are set", FIELD_NAME[slot]),
                t,
                Some(slot),
                "bits 36-39, 44-47 and 50-62 must be 0",
                "AGAL bytecode format, \"Source field format\": \"- = undefined, must be 0\"",
            );
        }
        if !s.indirect && (s.offset != 0 || s.index_ty != 0 || s.index_select != 0) {
            self.error(
                "E2013",
                format!(
                    "the {} field is direct but has indirect fields set",
                    FIELD_NAME[slot]
                ),
                t,
                Some(slot),
                "offset, index type and component must be 0",
                "AGAL bytecode format: unused fields must be set to 0",
            );
        }
        // An indirect source's element is known at run time only (and
        // clamped into the constants, docs/semantics.md); its base offset
        // may be anything the 8-bit field holds.
        let rt = if s.indirect {
            self.register(t, slot, s.ty, 0, 1)?
        } else {
            self.register(t, slot, s.ty, u32::from(s.number), rows)?
        };
        if !rt.readable(self.stage()) {
            let name = rt.name(self.stage()).unwrap_or("?");
            let name = if matches!(rt, RegisterType::Output | RegisterType::DepthOutput)
                && s.number == 0
            {
                name.to_string()
            } else {
                format!("{name}{}", s.number)
            };
            self.error("E2023", format!("`{name}` cannot be read"), t, Some(slot), "a write-only or sampler register as a source", "AGAL: outputs (`op`, `oc`, `od`) are written only; samplers are only the last operand of `tex`/`tld`");
            return None;
        }
        if s.indirect {
            if self.stage() != Stage::Vertex || rt != RegisterType::Constant {
                self.error("E2030", "relative addressing outside vertex constants".into(), t, Some(slot), "only `vc[...]` in vertex programs", "AGALMiniAssembler: \"relative addressing not allowed in fragment programs\"; relative addresses index the constants");
                return Some(rt);
            }
            let index_ok = matches!(
                RegisterType::from_bits(s.index_ty),
                Some(RegisterType::Attribute | RegisterType::Constant | RegisterType::Temporary)
            );
            if !index_ok {
                self.error("E2030", format!("index register of type {} in a relative address", s.index_ty), t, Some(slot), "the index must be a `va`, `vc` or `vt` register", "the index register is read as a float (a vertex attribute, constant or temporary)");
                return Some(rt);
            }
            if let Some(it) = self.register(t, slot, s.index_ty, u32::from(s.number), 1) {
                self.read(t, slot, it, u32::from(s.number), 1 << s.index_select);
            }
        }
        Some(rt)
    }

    /// Records a read of `components` of a register; reading a temporary
    /// (or a vertex program's varying) component nothing has written is
    /// an error.
    fn read(&mut self, t: &Token, slot: usize, rt: RegisterType, number: u32, components: u8) {
        let tracked = rt == RegisterType::Temporary
            || (rt == RegisterType::Varying && self.stage() == Stage::Vertex);
        if !tracked || components == 0 {
            return;
        }
        let have = self.written.get(&(rt, number)).map_or(0, |w| w.0);
        let missing = components & !have;
        if missing != 0 {
            let name = rt.name(self.stage()).unwrap_or("?");
            let comps: String = (0..4)
                .filter(|c| missing & (1 << c) != 0)
                .map(|c| b"xyzw"[c] as char)
                .collect();
            let d = Diagnostic::warning(
                "W2060",
                format!("`{name}{number}.{comps}` is read before anything writes it"),
            )
            .primary(self.at(t, slot), "read here")
            .note("the value is undefined in Stage3D, whose validator refuses such programs; nvp4c reads 0, as ruffle does");
            let d = self.located(d, t, Some(slot));
            self.diags.push(d);
            // Once reported, treat it as written.
            let e = self
                .written
                .entry((rt, number))
                .or_insert((0, Span::default()));
            e.0 |= missing;
        }
    }

    fn write(&mut self, t: &Token, rt: RegisterType, number: u32, mask: u8) {
        let span = self.at(t, 0);
        let e = self.written.entry((rt, number)).or_insert((0, span));
        e.0 |= mask;
    }

    fn sampler(&mut self, t: &Token, s: &SamplerField) -> bool {
        if s.reserved != 0 {
            self.error(
                "E2013",
                "reserved bits of the sampler field are set".into(),
                t,
                Some(2),
                "bits 24-31 and 36-39 must be 0",
                "AGAL bytecode format, \"Sampler field format\"",
            );
        }
        if s.ty != RegisterType::Sampler.bits() {
            self.error("E2025", format!("the sampler operand has register type {}, not 5 (sampler)", s.ty), t, Some(2), "not a sampler", "AGAL bytecode format: \"source2 must be in sampler format\"; \"T = Register type, must be 5\"");
            return false;
        }
        let stage = self.stage();
        if self.register(t, 2, s.ty, u32::from(s.number), 1).is_none() {
            return false;
        }
        let bad: Vec<String> = [
            ("format", s.format, 3),
            ("dimension", s.dimension, 2),
            ("special flags", s.special, 7),
            ("wrapping", s.wrap, 3),
            ("mipmap", s.mipmap, 2),
            ("filter", s.filter, 5),
        ]
        .iter()
        .filter(|(_, v, max)| v > max)
        .map(|(n, v, _)| format!("{n} {v}"))
        .collect();
        if !bad.is_empty() {
            self.error("E2071", format!("invalid sampler field value: {}", bad.join(", ")), t, Some(2), "no such sampler setting", "sampler field: format 0-3, dimension 0 (2D), 1 (cube), 2 (3D), special flags 1|2|4, wrapping 0-3, mipmap 0-2, filter 0-5 (FACTS-agal-encoding.md section 2)");
            return false;
        }
        let span = self.at(t, 2);
        let key = u32::from(s.number);
        match self.samplers.get(&key) {
            None => {
                self.samplers.insert(key, (*s, span));
            }
            Some((first, first_span)) => {
                let state = |f: &SamplerField| {
                    (f.format, f.dimension, f.special, f.wrap, f.mipmap, f.filter)
                };
                if state(first) != state(s) {
                    let first_span = *first_span;
                    let name = RegisterType::Sampler.name(stage).unwrap_or("fs");
                    let d = Diagnostic::error("E2070", format!("`{name}{key}` is used with two different sampler states"))
                        .primary(span, "these flags")
                        .secondary(first_span, "differ from the first use")
                        .note("one sampler is one Vulkan sampler and image view: its dimension, filter, mipmap, wrapping, format and special flags must be the same in every instruction (ruffle reports SamplerConfigMismatch); only the LOD bias may differ");
                    let d = self.located(d, t, Some(2));
                    self.diags.push(d);
                }
            }
        }
        if s.special & 2 != 0 {
            let d = Diagnostic::warning("W2010", "the `single` sampler flag has no effect")
                .primary(span, "ignored")
                .note("Adobe documents no meaning for the `single` flag; nvp4c reports it in the reflection and samples as without it");
            self.diags.push(d);
        }
        true
    }
}

fn other(stage: Stage) -> Stage {
    match stage {
        Stage::Vertex => Stage::Fragment,
        _ => Stage::Vertex,
    }
}

/// The swizzled positions an opcode reads of source `slot` (1 or 2), given
/// the destination mask.
fn read_positions(op: &OpDef, slot: usize, mask: u8, dimension: u32) -> u8 {
    match op.semantics {
        Semantics::Componentwise(_)
        | Semantics::PerComponent(_)
        | Semantics::Divide
        | Semantics::SquareRoot
        | Semantics::Modified(_) => mask,
        Semantics::Direct(crate::isa::Opcode::Dp4) => 0xf,
        Semantics::Direct(crate::isa::Opcode::Ssg) => mask,
        Semantics::Direct(_) => 0x7,
        Semantics::Matrix { columns } => {
            if columns == 3 {
                0x7
            } else {
                0xf
            }
        }
        Semantics::Compare(_) | Semantics::Kill => 0xf,
        Semantics::Sample => {
            if slot == 1 && dimension == 0 {
                0x3
            } else {
                0x7
            }
        }
        Semantics::Flow => 0,
    }
}

/// Register components read through `swizzle` at `positions`.
pub(crate) fn swizzled(swizzle: u8, positions: u8) -> u8 {
    (0..4)
        .filter(|p| positions & (1 << p) != 0)
        .fold(0, |m, p| m | 1 << ((swizzle >> (2 * p)) & 3))
}

/// Checks `unit`; returns the diagnostics (errors and warnings) and what
/// the lowering needs.
pub(crate) fn check(unit: &Unit) -> (Vec<Diagnostic>, Checked) {
    let mut c = Checker {
        unit,
        diags: Vec::new(),
        written: BTreeMap::new(),
        samplers: BTreeMap::new(),
    };
    let stage = unit.stage;
    let version = unit.version;
    let mut blocks: Vec<(Span, bool)> = Vec::new();
    for t in &unit.tokens {
        let Some(op) = OpDef::by_code(t.opcode) else {
            let hint = if (0x22..=0x26).contains(&t.opcode) {
                " (numbered for the AGAL1-era flow opcodes and `ted`, which were never enabled)"
            } else {
                ""
            };
            c.error("E2010", format!("unknown opcode 0x{:02x}{hint}", t.opcode), t, None, "not an AGAL opcode", "AGAL bytecode format, \"Operation codes\" (0x00-0x21, 0x27-0x2d; 0x2b `sgn` and 0x2e `tld` from Adobe's v3 assembler)");
            continue;
        };
        if op.min_version > version {
            let span = c.spans(t).opcode;
            let d = Diagnostic::error("E2011", format!("`{}` needs AGAL{} (this program is AGAL{version})", op.name, op.min_version))
                .primary(span, "not in this version")
                .note(if op.min_version == 2 {
                    "AGAL bytecode format: \"In AGAL2, the following opcodes have been introduced\"; version 2 is the \"standard\" profile"
                } else {
                    "`sgn` and `tld` are in Adobe's v3 mini-assembler (AGAL3, \"standard extended\" profile), not in the AGAL1/AGAL2 table"
                });
            let d = c.located(d, t, None);
            c.diags.push(d);
        }
        if let Some(only) = op.only_stage {
            if only != stage {
                let span = c.spans(t).opcode;
                let d = Diagnostic::error("E2012", format!("`{}` in a {stage} program", op.name))
                    .primary(span, format!("only in {only} programs"))
                    .note("AGAL bytecode format: kil and tex are \"fragment shader only\"; ddx/ddy are fragment derivatives; tld is the vertex texture fetch");
                let d = c.located(d, t, None);
                c.diags.push(d);
            }
        }
        // Fields the opcode does not use.
        if !op.operands.has_dest() && t.dest_bits != 0 {
            c.error("E2013", format!("`{}` has no destination, but its destination field is not 0", op.name), t, None, "the destination field must be 0", "AGAL bytecode format: \"Unused fields must be set to 0\" (kil: \"Destination register must be set to all 0\")");
        }
        if op.operands.sources() < 1 && t.source1_bits != 0 {
            c.error(
                "E2013",
                format!("`{}` has no source 1, but its field is not 0", op.name),
                t,
                None,
                "source 1 must be 0",
                "AGAL bytecode format: \"Unused fields must be set to 0\"",
            );
        }
        if op.operands.sources() < 2 && t.source2_bits != 0 {
            c.error(
                "E2013",
                format!("`{}` has no source 2, but its field is not 0", op.name),
                t,
                None,
                "source 2 must be 0",
                "AGAL bytecode format: \"Unused fields must be set to 0\"",
            );
        }
        let dest = t.dest();
        let mask = if op.operands.has_dest() { dest.mask } else { 0 };
        let sampler = t.sampler();
        let dimension = if op.operands == Operands::DestSourceSampler {
            sampler.dimension
        } else {
            0
        };
        // Sources, before the destination is written.
        let rows = match op.semantics {
            Semantics::Matrix { .. } => {
                if op.written == Written::Xyz {
                    3
                } else {
                    4
                }
            }
            _ => 1,
        };
        if op.operands.sources() >= 1 {
            let s = t.source1();
            if let Some(rt) = c.source(t, 1, &s, 1) {
                if !s.indirect {
                    let comps = swizzled(s.swizzle, read_positions(op, 1, mask, dimension));
                    c.read(t, 1, rt, u32::from(s.number), comps);
                }
            }
        }
        if op.operands == Operands::DestSourceSampler {
            c.sampler(t, &sampler);
            if sampler.special & 1 != 0 {
                let coordinate_is_varying = stage == Stage::Fragment
                    && t.source1().ty == RegisterType::Varying.bits()
                    && !t.source1().indirect;
                if !coordinate_is_varying {
                    let span = c.at(t, 2);
                    c.diags.push(
                        Diagnostic::warning("W2010", "the `centroid` sampler flag has no effect here")
                            .primary(span, "ignored")
                            .note("nvp4c interpolates the varying a `centroid` sample reads its coordinate from at the centroid; this coordinate is not a varying of a fragment program"),
                    );
                }
            }
        } else if op.operands.sources() >= 2 {
            let s = t.source2();
            if let Some(rt) = c.source(t, 2, &s, rows) {
                if !s.indirect {
                    let comps = swizzled(s.swizzle, read_positions(op, 2, mask, dimension));
                    for r in 0..rows {
                        c.read(t, 2, rt, u32::from(s.number) + r, comps);
                    }
                }
            }
        }
        if op.operands.has_dest() {
            if dest.reserved != 0 {
                c.error("E2013", "reserved bits of the destination field are set".into(), t, Some(0), "bits 20-23 and 28-31 must be 0", "AGAL bytecode format, \"Destination field format\": \"- = undefined, must be 0\"");
            }
            if let Some(rt) = c.register(t, 0, dest.ty, u32::from(dest.number), 1) {
                if !rt.writable(stage) {
                    let name = rt.name(stage).unwrap_or("?");
                    c.error("E2024", format!("`{name}{}` cannot be written", dest.number), t, Some(0), "a read-only register as the destination", "AGAL: attributes, constants, samplers and the instance id are read only; a fragment program reads its varyings");
                } else {
                    if dest.mask == 0 {
                        c.error("E2026", "the write mask is empty".into(), t, Some(0), "writes no component", "an instruction that writes nothing cannot be written in AGAL assembly; AGALMiniAssembler never produces it");
                    }
                    if op.written == Written::Xyz && dest.mask & 8 != 0 {
                        let d = Diagnostic::warning("W2040", format!("`{}` writes w, which it does not compute", op.name))
                            .primary(c.at(t, 0), "mask this destination to .xyz or less")
                            .note("AGAL bytecode format: nrm, crs, m33 and m34 produce \"only a 3 component result, destination must be masked to .xyz or less\"")
                            .note("nvp4c writes 1.0 to w, as ruffle does (docs/semantics.md, \"AGAL\")");
                        let d = c.located(d, t, Some(0));
                        c.diags.push(d);
                    }
                    c.write(t, rt, u32::from(dest.number), dest.mask);
                }
            }
        }
        // Flow.
        match op.flow {
            Flow::None => {}
            Flow::If => blocks.push((c.spans(t).line, false)),
            Flow::Else => match blocks.last_mut() {
                Some((_, in_else @ false)) => *in_else = true,
                Some((open, true)) => {
                    let open = *open;
                    let d = Diagnostic::error("E2050", "a second `els` in one block")
                        .primary(c.spans(t).line, "second els")
                        .secondary(open, "the block opened here already has its els")
                        .note("AGAL2: els closes the if block and opens its other half, once");
                    let d = c.located(d, t, None);
                    c.diags.push(d);
                }
                None => c.error(
                    "E2050",
                    "`els` without an open `ife`/`ine`/`ifg`/`ifl`".into(),
                    t,
                    None,
                    "nothing to close",
                    "AGAL2: els closes an if block",
                ),
            },
            Flow::EndIf => {
                if blocks.pop().is_none() {
                    c.error(
                        "E2051",
                        "`eif` without an open `ife`/`ine`/`ifg`/`ifl`".into(),
                        t,
                        None,
                        "nothing to close",
                        "AGAL2: eif closes an if or else block",
                    );
                }
            }
        }
    }
    for (open, _) in &blocks {
        c.diags.push(
            Diagnostic::error("E2052", "block never closed")
                .primary(*open, "this block has no `eif`")
                .note("AGAL2: every ife/ine/ifg/ifl block ends with eif"),
        );
    }
    let limit = super::table::max_tokens(version);
    if unit.tokens.len() > limit {
        let t = &unit.tokens[limit];
        c.error(
            "E2062",
            format!("{} tokens, more than the {limit} of AGAL{version}", unit.tokens.len()),
            t,
            None,
            &format!("token {} is past the limit", limit + 1),
            "Adobe's \"Program Registers\" table, \"Tokens\": 200 (AGAL1), 1024 (AGAL2), 2048 (AGAL3)",
        );
    }
    // The main output must be written, every component.
    let (main, main_name) = match stage {
        Stage::Fragment => (RegisterType::Output, "oc"),
        _ => (RegisterType::Output, "op"),
    };
    let have = c.written.get(&(main, 0)).map_or(0, |w| w.0);
    if have != 0xf {
        let missing: String = (0..4)
            .filter(|i| have & (1 << i) == 0)
            .map(|i| b"xyzw"[i] as char)
            .collect();
        let span = c.written.get(&(main, 0)).map_or(unit.header, |w| w.1);
        c.diags.push(
            Diagnostic::error("E2061", format!("the {stage} program never writes `{main_name}.{missing}`"))
                .primary(span, if have == 0 { "no instruction writes it".to_string() } else { format!("`{main_name}` written here, without .{missing}") })
                .note(match stage {
                    Stage::Fragment => "AGAL bytecode format, \"Program Registers\": a fragment program's output is the colour; an unwritten component would be undefined",
                    _ => "AGAL bytecode format, \"Program Registers\": a vertex program's output is the clip space position; an unwritten component would be undefined",
                }),
        );
    }
    if let Some(&(m, span)) = c.written.get(&(RegisterType::DepthOutput, 0)) {
        if m & 1 == 0 {
            c.diags.push(
                Diagnostic::error("E2063", "`od` is written, but not its x component")
                    .primary(span, "written without .x")
                    .note("the depth is the x component of what is written to od (docs/semantics.md, \"AGAL\"); `mov od, ft0.z` writes ft0.z to every component, x included"),
            );
        }
    }
    let checked = Checked {
        samplers: c.samplers.iter().map(|(k, (s, _))| (*k, *s)).collect(),
    };
    (c.diags, checked)
}
