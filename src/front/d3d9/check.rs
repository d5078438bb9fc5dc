//! What the Direct3D 9 documentation forbids, per version, as coded
//! diagnostics (E31xx, docs/diagnostics.md) located on the listing line of
//! the instruction and operand, with the byte offset: instruction
//! availability, register kinds and counts, modifiers, write masks,
//! swizzles, relative addressing, declarations, flow-control structure and
//! nesting, subroutines, predication, ps_1_x texture-register rules,
//! co-issue and slot counts. It also gathers the facts the lowering needs
//! ([`Analysis`]).
//!
//! The rules cite the asm reference pages in
//! ../shared/spec/related/d3d9/ (asm-vs-reference.md, asm-ps-reference.md,
//! asm-vs-instructions.md, asm-ps-instructions.md). Where a limit is a
//! device cap, the largest value the documentation allows is used (e.g.
//! 32 temporaries for vs_2_x, 256 float constants for hardware vertex
//! shaders).

use std::collections::{BTreeMap, BTreeSet};

use super::decode::{Decl, Dst, Instruction, Register, Shader, Src};
use super::disasm::Listing;
use super::table::{
    self, Class, DstKind, Op, RegType, SamplerType, SrcKind, SrcMod, Usage, Version, L1_1, L1_3,
    L1_4, L2_0, L2_X, L3_0,
};
use crate::diag::Diagnostic;
use crate::span::Span;

/// One `dcl`.
#[derive(Clone, Debug, PartialEq)]
pub struct Declaration {
    /// The register declared.
    pub reg: Register,
    /// Usage and index (inputs, vs_3_0 outputs, ps_3_0 inputs).
    pub usage: Option<(Usage, u8)>,
    /// The components declared.
    pub mask: u8,
    /// `_centroid`.
    pub centroid: bool,
    /// `_pp`.
    pub pp: bool,
    /// A sampler's texture type.
    pub sampler: SamplerType,
    /// The instruction.
    pub instruction: usize,
}

/// A subroutine: `label l#` to its `ret`, or the main program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Function {
    /// `l#`, `None` for the main program.
    pub label: Option<u32>,
    /// The first instruction of the body (after the `label`).
    pub start: usize,
    /// One past the last instruction of the body (its `ret` excluded).
    pub end: usize,
}

/// What the lowering needs to know about a checked shader.
#[derive(Clone, Debug, Default)]
pub struct Analysis {
    /// Every declaration, in order.
    pub decls: Vec<Declaration>,
    /// `def c#`: the four float bit patterns.
    pub float_defs: BTreeMap<u32, [u32; 4]>,
    /// `defi i#`.
    pub int_defs: BTreeMap<u32, [u32; 4]>,
    /// `defb b#`.
    pub bool_defs: BTreeMap<u32, u32>,
    /// The main program, then each subroutine in label order of appearance.
    pub functions: Vec<Function>,
    /// Whether some instruction reads `c#` relatively.
    pub relative_const: bool,
    /// Whether some instruction reads `v#` relatively (vs_3_0, ps_3_0).
    pub relative_input: bool,
    /// Whether some instruction writes `o#` relatively (vs_3_0).
    pub relative_output: bool,
    /// The ps_1_4 `phase` instruction.
    pub phase: Option<usize>,
    /// Number of float constants of the version (size of the `c#` file).
    pub const_count: u32,
    /// Number of integer and boolean constants.
    pub int_count: u32,
    /// Number of boolean constants.
    pub bool_count: u32,
}

/// What a version allows of a register type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RegInfo {
    /// How many there are.
    pub count: u32,
    /// Whether instructions may read it as a value.
    pub read: bool,
    /// Whether instructions may write it.
    pub write: bool,
}

/// The register file of a version ("Registers - vs_*", "ps_* Registers";
/// device-cap counts at the largest value the pages allow).
///
/// ```
/// use nvp4c::front::d3d9::{check::register_info, table::{RegType, Version}};
/// assert_eq!(register_info(Version::pixel(1, 4), RegType::Temp).unwrap().count, 6);
/// assert_eq!(register_info(Version::pixel(3, 0), RegType::Const).unwrap().count, 224);
/// assert!(register_info(Version::vertex(3, 0), RegType::AttrOut).is_none()); // o# replaced oD#
/// ```
pub fn register_info(v: Version, ty: RegType) -> Option<RegInfo> {
    let l = v.level();
    let sw = v.is_software();
    let r = |count| {
        Some(RegInfo {
            count,
            read: true,
            write: false,
        })
    };
    let w = |count| {
        Some(RegInfo {
            count,
            read: false,
            write: true,
        })
    };
    let rw = |count| {
        Some(RegInfo {
            count,
            read: true,
            write: true,
        })
    };
    let flow = |count| {
        Some(RegInfo {
            count,
            read: false,
            write: false,
        })
    };
    if v.is_vertex() {
        match ty {
            RegType::Temp => rw(if l >= L2_X { 32 } else { 12 }),
            RegType::Input => r(16),
            RegType::Const => r(if sw { 8192 } else { 256 }),
            RegType::Addr => Some(RegInfo {
                count: 1,
                read: false,
                write: true,
            }),
            RegType::RastOut if l < L3_0 => w(3),
            RegType::AttrOut if l < L3_0 => w(2),
            RegType::TexCrdOut if l < L3_0 => w(8),
            RegType::Output if l >= L3_0 => w(if sw { 16 } else { 12 }),
            RegType::ConstInt if l >= L2_0 => flow(if sw { 2048 } else { 16 }),
            RegType::ConstBool if l >= L2_0 => flow(if sw { 2048 } else { 16 }),
            RegType::Loop if l >= L2_0 => flow(1),
            RegType::Sampler if l >= L3_0 => flow(4),
            RegType::Label if l >= L2_0 => flow(if l >= L3_0 || sw { 2048 } else { 16 }),
            RegType::Predicate if l >= L2_X => rw(1),
            _ => None,
        }
    } else {
        match ty {
            RegType::Temp => rw(match l {
                _ if l <= L1_3 => 2,
                L1_4 => 6,
                L2_0 => 12,
                _ => 32,
            }),
            RegType::Input => r(if l >= L3_0 { 10 } else { 2 }),
            RegType::Const => r(match l {
                _ if l <= L1_4 => 8,
                _ if sw => 8192,
                L2_0 | L2_X => 32,
                _ => 224,
            }),
            RegType::Texture if l <= L1_3 => rw(4),
            RegType::Texture if l == L1_4 => r(6),
            RegType::Texture if l < L3_0 => r(8),
            RegType::ConstInt if l >= L2_X => flow(if sw { 2048 } else { 16 }),
            RegType::ConstBool if l >= L2_X => flow(if sw { 2048 } else { 16 }),
            RegType::Loop if l >= L3_0 => flow(1),
            RegType::Sampler if l >= L2_0 => flow(16),
            RegType::ColorOut if l >= L2_0 => w(4),
            RegType::DepthOut if l >= L2_0 => w(1),
            RegType::MiscType if l >= L3_0 => r(2),
            RegType::Label if l >= L2_X => flow(if l >= L3_0 || sw { 2048 } else { 16 }),
            RegType::Predicate if l >= L2_X => rw(1),
            _ => None,
        }
    }
}

/// Flow-control nesting limits ("Flow Control Nesting Limits" pages).
struct Limits {
    loops: u32,
    calls: u32,
    dynamic: u32,
    static_if: u32,
    /// vs_2_0's "static flow count" of 16.
    static_flow_count: Option<u32>,
    /// Instruction slots (arithmetic + texture), `None` unlimited.
    slots: Option<u32>,
}

fn limits(v: Version) -> Limits {
    let l = v.level();
    let sw = v.is_software();
    if v.is_vertex() {
        match l {
            L2_0 => Limits {
                loops: 1,
                calls: 1,
                dynamic: 0,
                static_if: 16,
                static_flow_count: Some(16),
                slots: Some(256),
            },
            L2_X => Limits {
                loops: 4,
                calls: 4,
                dynamic: 24,
                static_if: 24,
                static_flow_count: if sw { None } else { Some(16) },
                slots: if sw { None } else { Some(256) },
            },
            L3_0 => Limits {
                loops: 4,
                calls: 4,
                dynamic: 24,
                static_if: 24,
                static_flow_count: None,
                slots: if sw { None } else { Some(32768) },
            },
            _ => Limits {
                loops: 0,
                calls: 0,
                dynamic: 0,
                static_if: 0,
                static_flow_count: None,
                slots: Some(128),
            },
        }
    } else {
        match l {
            L2_X | L3_0 => Limits {
                loops: 4,
                calls: 4,
                dynamic: 24,
                static_if: 24,
                static_flow_count: None,
                slots: if sw {
                    None
                } else if l == L3_0 {
                    Some(32768)
                } else {
                    Some(512)
                },
            },
            _ => Limits {
                loops: 0,
                calls: 0,
                dynamic: 0,
                static_if: 0,
                static_flow_count: None,
                slots: None,
            },
        }
    }
}

/// Checks a decoded shader; the diagnostics and, when the structure is
/// sound enough to lower, the [`Analysis`].
pub fn check(
    shader: &Shader,
    listing: &Listing,
    options: &crate::Options,
) -> (Vec<Diagnostic>, Option<Analysis>) {
    let Some(version) = shader.version else {
        return (Vec::new(), None);
    };
    let mut c = Checker {
        v: version,
        shader,
        listing,
        diags: Vec::new(),
        a: Analysis {
            const_count: register_info(version, RegType::Const).map_or(0, |r| r.count),
            int_count: register_info(version, RegType::ConstInt).map_or(0, |r| r.count),
            bool_count: register_info(version, RegType::ConstBool).map_or(0, |r| r.count),
            ..Analysis::default()
        },
    };
    c.ctab_comments();
    for (i, inst) in shader.instructions.iter().enumerate() {
        c.instruction(i, inst);
    }
    c.declarations();
    c.structure();
    if version.is_pixel() && version.is_sm1() {
        c.ps1x_rules(options);
    } else if version.major < 3 && version.is_pixel() {
        c.sm2_output_rules();
    }
    c.vs3_outputs();
    c.uninitialised_reads();
    c.slots();
    let sound = !c.diags.iter().any(Diagnostic::is_error);
    (c.diags, sound.then_some(c.a))
}

struct Checker<'s> {
    v: Version,
    shader: &'s Shader,
    listing: &'s Listing,
    diags: Vec<Diagnostic>,
    a: Analysis,
}

/// Which operand of an instruction a rule is about.
#[derive(Clone, Copy)]
enum Where {
    Line,
    Mnemonic,
    Dst,
    Predicate,
    Src(usize),
}

impl Checker<'_> {
    fn span(&self, i: usize, w: Where) -> Span {
        let Some(line) = self.listing.lines.get(i) else {
            return self.listing.end_span();
        };
        match w {
            Where::Line => line.span,
            Where::Mnemonic => line.mnemonic,
            Where::Dst => line.dst.unwrap_or(line.span),
            Where::Predicate => line.predicate.unwrap_or(line.span),
            Where::Src(k) => line.srcs.get(k).copied().unwrap_or(line.span),
        }
    }

    fn offset(&self, i: usize, w: Where) -> usize {
        let inst = &self.shader.instructions[i];
        match w {
            Where::Dst => inst.dst.as_ref().map_or(inst.offset, |d| d.offset),
            Where::Predicate => inst.predicate.as_ref().map_or(inst.offset, |p| p.offset),
            Where::Src(k) => inst.srcs.get(k).map_or(inst.offset, |s| s.offset),
            Where::Line | Where::Mnemonic => inst.offset,
        }
    }

    fn err(&mut self, code: &'static str, i: usize, w: Where, message: impl Into<String>) {
        let d = super::at(code, message, self.span(i, w), self.offset(i, w));
        self.diags.push(d);
    }

    /// A restriction of the version's hardware whose violation leaves the
    /// meaning clear: a warning (W3002), so shaders real compilers emit
    /// (vkd3d-compiler writes `add oC0, ...` in ps_2_0) still compile.
    fn restriction(&mut self, i: usize, w: Where, message: impl Into<String>) {
        let d = Diagnostic::warning("W3002", message)
            .primary(self.span(i, w), "here")
            .note(format!("at byte offset {:#x} of the shader", self.offset(i, w)))
            .note("the documentation forbids this in this version; the meaning is clear, so nvp4c compiles it (--deny-warnings rejects it)");
        self.diags.push(d);
    }

    fn name(&self, reg: Register) -> String {
        super::disasm::register_name(reg, self.v)
    }

    fn ctab_comments(&mut self) {
        for (k, c) in self.shader.comments.iter().enumerate() {
            if let Some(Err(e)) = super::ctab::parse(&c.data) {
                let span = self.listing.comments.get(k).copied().unwrap_or_default();
                self.diags.push(
                    Diagnostic::warning("W3001", format!("the CTAB constant table cannot be read: {e}"))
                        .primary(span, "this comment block")
                        .note(format!("at byte offset {:#x} of the shader", c.offset))
                        .note("the reflection will not name the constants; the shader is compiled all the same"),
                );
            }
        }
    }

    /// Rules about one instruction on its own.
    fn instruction(&mut self, i: usize, inst: &Instruction) {
        let v = self.v;
        let form = inst.form;
        if !form.available(v) {
            self.err(
                "E3100",
                i,
                Where::Mnemonic,
                format!(
                    "`{}` does not exist in {v} (it exists in {})",
                    inst.mnemonic(),
                    form.versions_text()
                ),
            );
            return;
        }
        // Reserved bits of the instruction token: bit 29, bit 31; bit 28 in
        // shader model 1; the co-issue bit outside ps_1_x.
        let t = inst.token;
        if t & 0x2000_0000 != 0 || (v.is_sm1() && t & 0x1000_0000 != 0) {
            self.err(
                "E3103",
                i,
                Where::Mnemonic,
                format!("reserved bits are set in instruction token {t:#010x}"),
            );
        }
        if inst.coissue && !(v.is_pixel() && v.is_sm1()) {
            self.err(
                "E3103",
                i,
                Where::Mnemonic,
                "the co-issue bit (30) is only for ps_1_x instructions",
            );
        }
        self.control(i, inst);
        if let Some(d) = &inst.dst {
            self.dst(i, inst, d);
        }
        for (k, s) in inst.srcs.iter().enumerate() {
            self.src(i, inst, k, s);
        }
        if let Some(p) = &inst.predicate {
            self.predicate(i, inst, p);
        }
        self.op_rules(i, inst);
        match form.op {
            Op::Def => {
                if let Some(d) = &inst.dst {
                    let vals: [u32; 4] =
                        std::array::from_fn(|k| inst.values.get(k).copied().unwrap_or(0));
                    self.a.float_defs.insert(d.reg.num, vals);
                }
            }
            Op::DefI => {
                if let Some(d) = &inst.dst {
                    let vals: [u32; 4] =
                        std::array::from_fn(|k| inst.values.get(k).copied().unwrap_or(0));
                    self.a.int_defs.insert(d.reg.num, vals);
                }
            }
            Op::DefB => {
                if let Some(d) = &inst.dst {
                    self.a
                        .bool_defs
                        .insert(d.reg.num, inst.values.first().copied().unwrap_or(0));
                }
            }
            Op::Phase => self.a.phase = Some(i),
            _ => {}
        }
    }

    fn control(&mut self, i: usize, inst: &Instruction) {
        match inst.form.control {
            table::Control::Comparison => {
                if inst.comparison().is_none() {
                    self.err(
                        "E3103",
                        i,
                        Where::Mnemonic,
                        format!(
                            "comparison {} in bits 16-23 is none of gt, eq, ge, lt, ne, le (1-6)",
                            inst.control
                        ),
                    );
                }
            }
            table::Control::TexLd => {
                if inst.control > 2 {
                    self.err(
                        "E3103",
                        i,
                        Where::Mnemonic,
                        format!("texld flags {} in bits 16-23 are none of 0 (texld), 1 (texldp), 2 (texldb)", inst.control),
                    );
                }
            }
            table::Control::None => {
                if inst.control != 0 {
                    self.err(
                        "E3103",
                        i,
                        Where::Mnemonic,
                        format!(
                            "`{}` takes no control bits, but bits 16-23 hold {}",
                            inst.mnemonic(),
                            inst.control
                        ),
                    );
                }
            }
        }
    }

    fn register_exists(&mut self, i: usize, w: Where, reg: Register) -> Option<RegInfo> {
        let Some(info) = register_info(self.v, reg.ty) else {
            let n = self.name(reg);
            self.err(
                "E3101",
                i,
                w,
                format!("{n}: {} has no register of this type", self.v),
            );
            return None;
        };
        if reg.num >= info.count {
            let n = self.name(reg);
            self.err(
                "E3102",
                i,
                w,
                format!(
                    "{n}: {} has {} such registers (numbers 0 to {})",
                    self.v,
                    info.count,
                    info.count - 1
                ),
            );
            return None;
        }
        Some(info)
    }

    fn dst(&mut self, i: usize, inst: &Instruction, d: &Dst) {
        let v = self.v;
        let kind = inst.form.dst.unwrap_or(DstKind::Value);
        let name = self.name(d.reg);
        let Some(info) = self.register_exists(i, Where::Dst, d.reg) else {
            return;
        };
        match kind {
            DstKind::Declared | DstKind::Defined => {}
            DstKind::Predicate => {
                if d.reg.ty != RegType::Predicate {
                    self.err(
                        "E3101",
                        i,
                        Where::Dst,
                        format!(
                            "`{}` writes the predicate register p0, not {name}",
                            inst.mnemonic()
                        ),
                    );
                }
            }
            DstKind::Address => {
                if d.reg.ty != RegType::Addr {
                    self.err(
                        "E3101",
                        i,
                        Where::Dst,
                        format!("mova writes the address register a0, not {name}"),
                    );
                }
            }
            DstKind::Value | DstKind::TexAddr | DstKind::Kill => {
                let vs11_a0 = v.is_vertex()
                    && v.level() == L1_1
                    && inst.form.op == Op::Mov
                    && d.reg.ty == RegType::Addr;
                let ok = match d.reg.ty {
                    RegType::Predicate => false,
                    RegType::Addr => vs11_a0,
                    _ => info.write || (kind == DstKind::Kill && info.read),
                };
                if !ok {
                    let why = match d.reg.ty {
                        RegType::Predicate => "only setp writes p0".to_string(),
                        RegType::Addr if v.level() >= L2_0 => {
                            "only mova writes a0 from vs_2_0 on".to_string()
                        }
                        _ => format!("{name} is read-only in {v}"),
                    };
                    self.err(
                        "E3101",
                        i,
                        Where::Dst,
                        format!("`{}` cannot write {name}: {why}", inst.mnemonic()),
                    );
                }
            }
        }
        // Modifiers.
        if d.shift != 0 {
            let allowed = v.is_pixel() && v.is_sm1() && inst.form.class == Class::Arith;
            let in_range = if v.level() == L1_4 {
                (-3..=3).contains(&d.shift)
            } else {
                matches!(d.shift, -1..=2)
            };
            if !allowed {
                self.err("E3103", i, Where::Mnemonic, "result shifts (_x2, _x4, _x8, _d2, _d4, _d8) are only for ps_1_x arithmetic instructions (Modifiers for ps_1_X)");
            } else if !in_range {
                self.err("E3103", i, Where::Mnemonic, format!("this result shift is not in {v}: ps_1_1 to ps_1_3 have _x2, _x4, _d2; ps_1_4 adds _x8, _d4, _d8"));
            }
        }
        if d.sat {
            let sat_ok = match inst.form.op {
                Op::Dcl | Op::Def | Op::DefI | Op::DefB | Op::Setp | Op::TexKill => false,
                Op::Frc | Op::SinCos if v.is_pixel() && v.level() >= L2_0 => false,
                _ if v.is_pixel() && v.level() >= L2_0 && inst.form.class == Class::Texture => {
                    false
                }
                _ if v.is_pixel() && v.is_sm1() && inst.form.class == Class::Texture => false,
                _ => true,
            };
            if !sat_ok {
                self.err(
                    "E3103",
                    i,
                    Where::Mnemonic,
                    format!("`{}` cannot saturate (_sat)", inst.form.name),
                );
            }
            if v.is_pixel()
                && v.major == 2
                && matches!(d.reg.ty, RegType::ColorOut | RegType::DepthOut)
            {
                self.restriction(i, Where::Mnemonic, "in ps_2_0 and ps_2_x, _sat cannot be used on an instruction writing oC# or oDepth");
            }
        }
        if d.pp && (v.major < 2 || v.is_vertex()) && inst.form.op != Op::Dcl {
            self.err(
                "E3103",
                i,
                Where::Mnemonic,
                "_pp (partial precision) is a ps_2_0 and later modifier",
            );
        }
        if d.centroid && inst.form.op != Op::Dcl {
            self.err(
                "E3103",
                i,
                Where::Mnemonic,
                "_centroid belongs on a declaration",
            );
        }
        if d.token & 0xC000 != 0 {
            self.err(
                "E3103",
                i,
                Where::Dst,
                format!(
                    "reserved bits 14-15 are set in destination token {:#010x}",
                    d.token
                ),
            );
        }
        // Relative destination: vs_3_0 o# only.
        if let Some(rel) = &d.rel {
            let ok = v.is_vertex() && v.level() >= L3_0 && d.reg.ty == RegType::Output;
            if !ok {
                self.err("E3107", i, Where::Dst, format!("{name} cannot be relatively addressed here: only vs_3_0 output registers (o[aL + n]) can"));
            } else {
                self.a.relative_output = true;
                self.rel_address(i, Where::Dst, rel);
            }
        }
        // Write masks.
        if matches!(kind, DstKind::Value | DstKind::TexAddr) {
            if d.mask == 0 {
                self.err("E3105", i, Where::Dst, "an empty write mask writes nothing");
            }
            if v.is_pixel() && v.level() <= L1_3 && !matches!(d.mask, 0xf | 0x7 | 0x8) {
                self.err("E3105", i, Where::Dst, "ps_1_1 to ps_1_3 write masks are .rgba, .rgb or .a (Destination Register Write Mask)");
            }
            if inst.form.class == Class::Texture
                && v.is_pixel()
                && v.level() <= L1_3
                && d.mask != 0xf
            {
                self.err(
                    "E3105",
                    i,
                    Where::Dst,
                    "texture address instructions take no write mask before ps_1_4",
                );
            }
            match d.reg.ty {
                RegType::RastOut if d.reg.num > 0 && d.mask.count_ones() != 1 && d.mask != 0xf => {
                    self.err(
                        "E3105",
                        i,
                        Where::Dst,
                        format!("{name} is a scalar: write one component"),
                    );
                }
                RegType::DepthOut
                    if d.mask != 0xf && !(v.level() >= L3_0 && d.mask.count_ones() == 1) =>
                {
                    self.err("E3105", i, Where::Dst, "oDepth takes no write mask");
                }
                _ => {}
            }
        }
    }

    fn rel_address(&mut self, i: usize, w: Where, rel: &super::decode::RelAddr) {
        match rel.reg.ty {
            RegType::Addr => {
                if self.v.level() == L1_1 && rel.component != 0 {
                    self.err("E3107", i, w, "vs_1_1 addresses with a0.x only");
                }
                if self.v.is_pixel() {
                    self.err("E3107", i, w, "pixel shaders have no address register a0");
                }
            }
            RegType::Loop => {}
            _ => {
                let n = self.name(rel.reg);
                self.err(
                    "E3107",
                    i,
                    w,
                    format!("{n} cannot be an address: relative addressing uses a0 or aL"),
                );
            }
        }
        if rel.token != 0 && rel.token & 0x2000 != 0 {
            self.err("E3107", i, w, "relative addressing cannot nest");
        }
    }

    fn src(&mut self, i: usize, inst: &Instruction, k: usize, s: &Src) {
        let v = self.v;
        let w = Where::Src(k);
        let kind = inst.form.srcs.get(k).copied().unwrap_or(SrcKind::Value);
        let name = self.name(s.reg);
        let Some(info) = self.register_exists(i, w, s.reg) else {
            return;
        };
        let expect = |ty: RegType| s.reg.ty == ty;
        let kind_ok = match kind {
            SrcKind::Value => info.read && s.reg.ty != RegType::Predicate,
            SrcKind::Label => expect(RegType::Label),
            SrcKind::Sampler => expect(RegType::Sampler),
            SrcKind::Int => expect(RegType::ConstInt),
            SrcKind::LoopCounter => expect(RegType::Loop),
            SrcKind::Condition => expect(RegType::ConstBool) || expect(RegType::Predicate),
            SrcKind::Predicate => expect(RegType::Predicate),
        };
        if !kind_ok {
            let wanted = match kind {
                SrcKind::Value => "a value register (r#, v#, c#, t#, vPos, vFace)",
                SrcKind::Label => "a label l#",
                SrcKind::Sampler => "a sampler s#",
                SrcKind::Int => "an integer constant i#",
                SrcKind::LoopCounter => "the loop counter aL",
                SrcKind::Condition => "a boolean constant b# or the predicate p0",
                SrcKind::Predicate => "the predicate p0",
            };
            self.err(
                "E3101",
                i,
                w,
                format!(
                    "operand {} of `{}` must be {wanted}, not {name}",
                    k + 1,
                    inst.mnemonic()
                ),
            );
            return;
        }
        if s.token & 0xC000 != 0 {
            self.err(
                "E3103",
                i,
                w,
                format!(
                    "reserved bits 14-15 are set in source token {:#010x}",
                    s.token
                ),
            );
        }
        // Source modifiers.
        let m = s.modifier;
        let sm1_ps = v.is_pixel() && v.is_sm1();
        let ok = match m {
            SrcMod::None => true,
            SrcMod::Not => matches!(kind, SrcKind::Condition | SrcKind::Predicate),
            _ if matches!(
                kind,
                SrcKind::Condition
                    | SrcKind::Predicate
                    | SrcKind::Label
                    | SrcKind::Int
                    | SrcKind::LoopCounter
            ) =>
            {
                false
            }
            SrcMod::Neg => true,
            SrcMod::Abs | SrcMod::AbsNeg => v.level() >= L3_0,
            SrcMod::Dz | SrcMod::Dw => {
                v.level() == L1_4 && matches!(inst.form.op, Op::TexLd14 | Op::TexCrd)
            }
            SrcMod::X2 | SrcMod::X2Neg => v.level() == L1_4 && inst.form.class == Class::Arith,
            SrcMod::Bias | SrcMod::BiasNeg | SrcMod::Comp => {
                sm1_ps && inst.form.class == Class::Arith
            }
            SrcMod::Sign | SrcMod::SignNeg => {
                sm1_ps
                    && (inst.form.class == Class::Arith
                        || match v.level() {
                            L1_1 => matches!(
                                inst.form.op,
                                Op::TexM3x2Pad
                                    | Op::TexM3x2Tex
                                    | Op::TexM3x3Pad
                                    | Op::TexM3x3Tex
                                    | Op::TexM3x3Spec
                                    | Op::TexM3x3VSpec
                            ),
                            L1_4 => false,
                            _ => !matches!(
                                inst.form.op,
                                Op::TexReg2Ar | Op::TexReg2Gb | Op::TexBem | Op::TexBemL
                            ),
                        })
            }
        };
        if !ok {
            self.err("E3104", i, w, format!("the source modifier of {name} is not allowed here in {v} (Source Register Modifiers)"));
        }
        if m == SrcMod::Dz && s.reg.ty != RegType::Temp {
            self.err(
                "E3104",
                i,
                w,
                "_dz is only valid on an r# source of texld (ps_1_4 phase 2)",
            );
        }
        if v.level() == L1_4 && m != SrcMod::None && s.reg.ty == RegType::Const {
            self.err(
                "E3104",
                i,
                w,
                "ps_1_4 allows no source modifier on a constant register",
            );
        }
        // Swizzles.
        let sw = s.swizzle;
        let identity = sw == [0, 1, 2, 3];
        let replicate = sw.iter().all(|&c| c == sw[0]);
        if kind == SrcKind::Value && v.is_pixel() && v.level() < L2_X {
            let allowed = match v.level() {
                l if l <= L1_3 => {
                    identity
                        || sw == [3; 4]
                        || (sw == [2; 4] && inst.dst.as_ref().is_some_and(|d| d.mask == 0x8))
                }
                L1_4 => {
                    identity
                        || replicate
                        || (matches!(inst.form.op, Op::TexLd14 | Op::TexCrd) && sw == [0, 1, 3, 3])
                }
                _ => {
                    identity
                        || replicate
                        || sw == [1, 2, 0, 3]
                        || sw == [2, 0, 1, 3]
                        || sw == [3, 2, 1, 0]
                }
            };
            if !allowed {
                self.restriction(
                    i,
                    w,
                    format!("this swizzle is not available in {v} (Source Register Swizzling)"),
                );
            }
        }
        if matches!(kind, SrcKind::Predicate) && !replicate {
            self.err(
                "E3106",
                i,
                w,
                "the predicate needs a replicate swizzle (p0.x, p0.y, p0.z or p0.w)",
            );
        }
        if kind == SrcKind::Condition && s.reg.ty == RegType::Predicate && !replicate {
            self.err(
                "E3106",
                i,
                w,
                "the predicate needs a replicate swizzle (p0.x, p0.y, p0.z or p0.w)",
            );
        }
        // Relative addressing.
        if let Some(rel) = &s.rel {
            let ok = match (v.kind, s.reg.ty) {
                (table::ShaderKind::Vertex, RegType::Const) => true,
                (table::ShaderKind::Vertex, RegType::Input) => v.level() >= L3_0,
                (table::ShaderKind::Pixel, RegType::Input) => {
                    v.level() >= L3_0 && rel.reg.ty == RegType::Loop
                }
                _ => false,
            };
            if !ok {
                self.err(
                    "E3107",
                    i,
                    w,
                    format!("{name} cannot be relatively addressed in {v} (Relative Addressing: c# in vertex shaders, v# in vs_3_0 and ps_3_0)"),
                );
            } else {
                match s.reg.ty {
                    RegType::Const => self.a.relative_const = true,
                    _ => self.a.relative_input = true,
                }
                if v.level() < L2_0 && rel.reg.ty == RegType::Loop {
                    self.err("E3107", i, w, "aL exists from vs_2_0");
                }
                self.rel_address(i, w, rel);
            }
        }
    }

    fn predicate(&mut self, i: usize, inst: &Instruction, p: &Src) {
        if p.reg.ty != RegType::Predicate || p.reg.num != 0 {
            let n = self.name(p.reg);
            self.err(
                "E3111",
                i,
                Where::Predicate,
                format!("an instruction is predicated on p0, not {n}"),
            );
            return;
        }
        if self.v.level() < L2_X {
            self.err(
                "E3111",
                i,
                Where::Predicate,
                format!(
                    "{} has no predication (it is a vs_2_x/ps_2_x feature)",
                    self.v
                ),
            );
        }
        if !matches!(inst.form.class, Class::Arith | Class::Texture) || inst.form.op == Op::Setp {
            self.err(
                "E3111",
                i,
                Where::Predicate,
                format!("`{}` cannot be predicated: only arithmetic and texture instructions can (setp_comp, Applying the Predicate Register)", inst.mnemonic()),
            );
        }
        if !matches!(p.modifier, SrcMod::None | SrcMod::Not) {
            self.err(
                "E3104",
                i,
                Where::Predicate,
                "the predicate takes only the NOT modifier (!p0)",
            );
        }
        let sw = p.swizzle;
        if sw != [0, 1, 2, 3] && !sw.iter().all(|&c| c == sw[0]) {
            self.err(
                "E3106",
                i,
                Where::Predicate,
                "the predicate swizzle is .xyzw or a replicate (.x, .y, .z, .w)",
            );
        }
        if self.v.level() < L3_0 && inst.form.op == Op::SinCos && !sw.iter().all(|&c| c == sw[0]) {
            self.err(
                "E3106",
                i,
                Where::Predicate,
                "a predicated sincos takes a replicate swizzle on p0 before shader model 3",
            );
        }
    }

    /// Rules of individual instruction pages.
    fn op_rules(&mut self, i: usize, inst: &Instruction) {
        let v = self.v;
        let dst = inst.dst.as_ref();
        let mask = dst.map_or(0xf, |d| d.mask);
        let dst_temp = dst.is_some_and(|d| d.reg.ty == RegType::Temp);
        let same = |a: &Src| dst.is_some_and(|d| d.reg == a.reg);
        let replicate = |s: &Src| {
            let sw = s.swizzle;
            sw.iter().all(|&c| c == sw[0]) || sw == [0, 1, 2, 3]
        };
        let op = inst.form.op;
        match op {
            Op::Rcp | Op::Rsq | Op::Exp | Op::Log | Op::ExpP | Op::LogP | Op::Pow => {
                for (k, s) in inst.srcs.iter().enumerate() {
                    if !replicate(s) {
                        self.err(
                            "E3106",
                            i,
                            Where::Src(k),
                            format!(
                                "`{}` reads one component: the source needs a replicate swizzle",
                                inst.form.name
                            ),
                        );
                    }
                }
                let four_components = matches!(op, Op::ExpP | Op::LogP) && v.level() == L1_1;
                if v.is_vertex() && mask.count_ones() != 1 && !four_components {
                    self.err("E3105", i, Where::Dst, format!("`{}` writes one component in a vertex shader (Destination Register Masking)", inst.form.name));
                }
            }
            Op::Frc if v.is_vertex() && v.level() == L1_1 && !matches!(mask, 0x2 | 0x3) => {
                self.err("E3105", i, Where::Dst, "vs_1_1 frc writes .y or .xy");
            }
            Op::Crs => {
                if !dst_temp {
                    self.err("E3115", i, Where::Dst, "crs writes a temporary register");
                }
                if !(1..=7).contains(&mask) {
                    self.err(
                        "E3105",
                        i,
                        Where::Dst,
                        "crs writes .x, .y, .z, .xy, .xz, .yz or .xyz",
                    );
                }
                for (k, s) in inst.srcs.iter().enumerate() {
                    if s.swizzle != [0, 1, 2, 3] {
                        self.err("E3106", i, Where::Src(k), "crs sources take no swizzle");
                    }
                    if same(s) {
                        self.err(
                            "E3115",
                            i,
                            Where::Src(k),
                            "crs cannot read its destination register",
                        );
                    }
                }
            }
            Op::M4x4 | Op::M4x3 | Op::M3x4 | Op::M3x3 | Op::M3x2 => {
                let allowed: &[u8] = match op {
                    Op::M4x4 | Op::M3x4 => &[0xf, 0x7],
                    Op::M4x3 | Op::M3x3 => &[0x7],
                    _ => &[0x3],
                };
                if !allowed.contains(&mask) {
                    self.err(
                        "E3105",
                        i,
                        Where::Dst,
                        format!(
                            "`{}` requires the {} write mask",
                            inst.form.name,
                            if mask == 0 {
                                ".xyzw"
                            } else {
                                match op {
                                    Op::M4x4 | Op::M3x4 => ".xyzw (or .xyz)",
                                    Op::M3x2 => ".xy",
                                    _ => ".xyz",
                                }
                            }
                        ),
                    );
                }
                if let Some(s1) = inst.srcs.get(1) {
                    if s1.swizzle != [0, 1, 2, 3] || s1.modifier != SrcMod::None {
                        self.err(
                            "E3106",
                            i,
                            Where::Src(1),
                            format!(
                                "the matrix of `{}` takes no swizzle or negation",
                                inst.form.name
                            ),
                        );
                    }
                    let rows = match op {
                        Op::M4x4 | Op::M3x4 => 4,
                        Op::M4x3 | Op::M3x3 => 3,
                        _ => 2,
                    };
                    if let Some(info) = register_info(v, s1.reg.ty) {
                        if s1.rel.is_none() && s1.reg.num + rows > info.count {
                            self.err(
                                "E3102",
                                i,
                                Where::Src(1),
                                format!(
                                    "the matrix {} to {} runs past the last register",
                                    self.name(s1.reg),
                                    s1.reg.num + rows - 1
                                ),
                            );
                        }
                    }
                    if dst.is_some_and(|d| {
                        d.reg.ty == s1.reg.ty
                            && (s1.reg.num..s1.reg.num + rows).contains(&d.reg.num)
                    }) {
                        self.err(
                            "E3115",
                            i,
                            Where::Dst,
                            format!("`{}` cannot write a register of its matrix", inst.form.name),
                        );
                    }
                }
                if let Some(s0) = inst.srcs.first() {
                    if same(s0) {
                        self.err(
                            "E3115",
                            i,
                            Where::Src(0),
                            format!("`{}` cannot read its destination register", inst.form.name),
                        );
                    }
                }
            }
            Op::Nrm => {
                if !dst_temp {
                    self.err("E3115", i, Where::Dst, "nrm writes a temporary register");
                }
                if inst.srcs.first().is_some_and(same) {
                    self.err(
                        "E3115",
                        i,
                        Where::Src(0),
                        "nrm cannot read its destination register",
                    );
                }
            }
            Op::SinCos => {
                if !dst_temp {
                    self.err("E3115", i, Where::Dst, "sincos writes a temporary register");
                }
                if !(1..=3).contains(&mask) {
                    self.err("E3105", i, Where::Dst, "sincos writes .x, .y or .xy");
                }
                if let Some(s0) = inst.srcs.first() {
                    if !s0.swizzle.iter().all(|&c| c == s0.swizzle[0]) {
                        self.err(
                            "E3106",
                            i,
                            Where::Src(0),
                            "the angle of sincos needs a replicate swizzle",
                        );
                    }
                }
                if inst.srcs.len() == 3 {
                    for k in 1..3 {
                        if inst.srcs[k].reg.ty != RegType::Const {
                            self.err("E3115", i, Where::Src(k), "sincos's second and third operands are constant registers (D3DSINCOSCONST1, D3DSINCOSCONST2)");
                        }
                    }
                    if inst.srcs[1].reg == inst.srcs[2].reg {
                        self.err(
                            "E3115",
                            i,
                            Where::Src(2),
                            "sincos's two constant operands must be different registers",
                        );
                    }
                }
            }
            Op::Sgn if inst.srcs.len() == 3 => {
                for k in 1..3 {
                    if inst.srcs[k].reg.ty != RegType::Temp {
                        self.err(
                            "E3115",
                            i,
                            Where::Src(k),
                            "sgn's second and third operands are temporary registers",
                        );
                    }
                }
                if inst.srcs[1].reg == inst.srcs[2].reg {
                    self.err(
                        "E3115",
                        i,
                        Where::Src(2),
                        "sgn's two temporaries must be different registers",
                    );
                }
            }
            Op::Dp2Add => {
                if let Some(s2) = inst.srcs.get(2) {
                    if !s2.swizzle.iter().all(|&c| c == s2.swizzle[0]) {
                        self.err(
                            "E3106",
                            i,
                            Where::Src(2),
                            "dp2add's third operand needs a replicate swizzle",
                        );
                    }
                }
            }
            Op::Ifc | Op::BreakC => {
                for (k, s) in inst.srcs.iter().enumerate() {
                    if !s.swizzle.iter().all(|&c| c == s.swizzle[0]) {
                        self.err("E3106", i, Where::Src(k), format!("`{}` compares one component: each source needs a replicate swizzle", inst.mnemonic()));
                    }
                }
            }
            // vs_2_0's a0 has four components too ("All four components
            // of a0 are available"): mova takes any mask.
            Op::Mova => {}
            Op::Mov
                if v.is_vertex()
                    && v.level() == L1_1
                    && dst.is_some_and(|d| d.reg.ty == RegType::Addr)
                    && mask != 1 =>
            {
                self.err("E3105", i, Where::Dst, "vs_1_1 has only a0.x");
            }
            Op::TexLd | Op::TexLdl | Op::TexLdd => {
                let ps2 = v.is_pixel() && v.major == 2;
                if op == Op::TexLd && ps2 {
                    if !dst_temp {
                        self.err(
                            "E3115",
                            i,
                            Where::Dst,
                            "in ps_2_0 and ps_2_x, texld writes a temporary register",
                        );
                    }
                    if mask != 0xf {
                        self.err(
                            "E3105",
                            i,
                            Where::Dst,
                            "in ps_2_0 and ps_2_x, texld writes all four components",
                        );
                    }
                    if let Some(s0) = inst.srcs.first() {
                        if !matches!(s0.reg.ty, RegType::Temp | RegType::Texture)
                            || s0.modifier != SrcMod::None
                        {
                            self.err("E3115", i, Where::Src(0), "in ps_2_0 and ps_2_x, the coordinate of texld is a t# or r# register without modifier");
                        } else if s0.swizzle != [0, 1, 2, 3] {
                            // vkd3d-compiler writes `texld r0, t0.xyxx, s0`.
                            self.restriction(i, Where::Src(0), "in ps_2_0 and ps_2_x, the coordinate of texld takes no swizzle (texld - ps_2_0 and up)");
                        }
                    }
                }
                if let Some(s1) = inst.srcs.get(1) {
                    if s1.modifier != SrcMod::None {
                        self.err("E3104", i, Where::Src(1), "a sampler takes no modifier");
                    }
                    if ps2 && s1.swizzle != [0, 1, 2, 3] {
                        self.err(
                            "E3106",
                            i,
                            Where::Src(1),
                            "in ps_2_0 and ps_2_x, the sampler takes no swizzle",
                        );
                    }
                }
                if op == Op::TexLdl && !dst_temp {
                    self.err("E3115", i, Where::Dst, "texldl writes a temporary register");
                }
            }
            Op::Setp => {}
            Op::Cnd if v.level() <= L1_3 => {
                if let Some(s0) = inst.srcs.first() {
                    if !(s0.reg
                        == Register {
                            ty: RegType::Temp,
                            num: 0,
                        }
                        && s0.swizzle == [3; 4])
                    {
                        self.err(
                            "E3115",
                            i,
                            Where::Src(0),
                            "in ps_1_1 to ps_1_3, the condition of cnd is r0.a",
                        );
                    }
                }
            }
            Op::Cmp if v.level() <= L1_3 => {
                for (k, s) in inst.srcs.iter().enumerate() {
                    if same(s) {
                        self.err(
                            "E3115",
                            i,
                            Where::Src(k),
                            "in ps_1_2 and ps_1_3, cmp cannot read its destination register",
                        );
                    }
                }
            }
            Op::Bem => {
                if mask != 0x3 {
                    self.err("E3105", i, Where::Dst, "bem writes .rg");
                }
                if inst.coissue {
                    self.err("E3116", i, Where::Mnemonic, "bem cannot be co-issued");
                }
            }
            Op::Dp4 if v.is_pixel() && v.is_sm1() && inst.coissue => {
                self.err(
                    "E3116",
                    i,
                    Where::Mnemonic,
                    "dp4 cannot be co-issued (it runs in the vector and alpha pipes)",
                );
            }
            Op::Dp3 if v.is_pixel() && v.level() <= L1_3 && !matches!(mask, 0x7 | 0xf) => {
                self.err(
                    "E3105",
                    i,
                    Where::Dst,
                    "in ps_1_1 to ps_1_3, dp3 writes .rgb or .rgba",
                );
            }
            Op::Label | Op::Call | Op::CallNz => {
                if let Some(l) = inst.srcs.first() {
                    if l.modifier != SrcMod::None || l.rel.is_some() {
                        self.err("E3104", i, Where::Src(0), "a label takes no modifier");
                    }
                }
            }
            Op::Def | Op::DefI | Op::DefB => {
                let want = match op {
                    Op::Def => RegType::Const,
                    Op::DefI => RegType::ConstInt,
                    _ => RegType::ConstBool,
                };
                if let Some(d) = dst {
                    if d.reg.ty != want {
                        let n = self.name(d.reg);
                        self.err(
                            "E3101",
                            i,
                            Where::Dst,
                            format!(
                                "`{}` defines a {} register, not {n}",
                                inst.form.name,
                                match want {
                                    RegType::Const => "c#",
                                    RegType::ConstInt => "i#",
                                    _ => "b#",
                                }
                            ),
                        );
                    }
                }
                if op == Op::DefI {
                    self.defi_ranges(i, inst);
                }
            }
            _ => {}
        }
    }

    /// defi values used by loop/rep: count and start 0-255, step -128-127
    /// ("loop - vs", "rep - vs"; relaxed for the software versions).
    fn defi_ranges(&mut self, i: usize, inst: &Instruction) {
        if self.v.is_software() {
            return;
        }
        let vals: Vec<i32> = inst.values.iter().map(|&v| v as i32).collect();
        if let [count, start, step, _] = vals[..] {
            if !(0..=255).contains(&count)
                || !(0..=255).contains(&start)
                || !(-128..=127).contains(&step)
            {
                self.err(
                    "E3115",
                    i,
                    Where::Line,
                    "integer constants used by loop and rep hold a count and start of 0 to 255 and a step of -128 to 127",
                );
            }
        }
    }

    /// dcl rules: registers that must be declared are, declarations come
    /// before the first executable instruction, no register or semantic is
    /// declared twice.
    fn declarations(&mut self) {
        let v = self.v;
        let mut first_code = None;
        let mut declared: BTreeMap<Register, Vec<usize>> = BTreeMap::new();
        let mut semantics: BTreeMap<(bool, Usage, u8), usize> = BTreeMap::new();
        for (i, inst) in self.shader.instructions.iter().enumerate() {
            let op = inst.form.op;
            if !inst.form.available(v) {
                continue;
            }
            if op != Op::Dcl {
                if !matches!(op, Op::Def | Op::DefI | Op::DefB | Op::Nop) && first_code.is_none() {
                    first_code = Some(i);
                }
                continue;
            }
            let (Some(d), Some(decl)) = (&inst.dst, &inst.decl) else {
                continue;
            };
            if let Some(code) = first_code {
                let d = super::at(
                    "E3108",
                    "declarations must come before the first executable instruction",
                    self.span(i, Where::Mnemonic),
                    inst.offset,
                )
                .secondary(
                    self.span(code, Where::Line),
                    "the first executable instruction",
                );
                self.diags.push(d);
            }
            let name = self.name(d.reg);
            let allowed = match (v.kind, d.reg.ty) {
                (table::ShaderKind::Vertex, RegType::Input) => true,
                (table::ShaderKind::Vertex, RegType::Output) => true,
                (table::ShaderKind::Vertex, RegType::Sampler) => v.level() >= L3_0,
                (table::ShaderKind::Pixel, RegType::Input) => v.level() >= L2_0,
                (table::ShaderKind::Pixel, RegType::Texture) => {
                    v.level() >= L2_0 && v.level() < L3_0
                }
                (table::ShaderKind::Pixel, RegType::Sampler) => v.level() >= L2_0,
                (table::ShaderKind::Pixel, RegType::MiscType) => v.level() >= L3_0,
                _ => false,
            };
            if !allowed {
                self.err(
                    "E3108",
                    i,
                    Where::Dst,
                    format!("{name} cannot be declared in {v}"),
                );
                continue;
            }
            if register_info(v, d.reg.ty).is_none_or(|r| d.reg.num >= r.count) {
                continue; // reported as E3102
            }
            let semantic = matches!(d.reg.ty, RegType::Input | RegType::Output)
                && (v.is_vertex() || v.level() >= L3_0);
            if d.reg.ty == RegType::Sampler {
                if decl.sampler == SamplerType::Unknown
                    || (decl.sampler == SamplerType::T1D && !v.is_vertex())
                {
                    self.err(
                        "E3108",
                        i,
                        Where::Mnemonic,
                        "a sampler is declared _2d, _cube or _volume (dcl_samplerType)",
                    );
                }
            } else if decl.token & 0x7800_0000 != 0 {
                self.err(
                    "E3108",
                    i,
                    Where::Mnemonic,
                    "a texture type belongs only on a sampler declaration",
                );
            }
            if !semantic && d.reg.ty != RegType::Sampler && decl.token & 0x000F_001F != 0 {
                self.err(
                    "E3108",
                    i,
                    Where::Mnemonic,
                    format!("{name} takes no usage in {v}"),
                );
            }
            if d.reg.ty == RegType::MiscType {
                let ok = match d.reg.num {
                    0 => matches!(d.mask, 1 | 2 | 3 | 0xf),
                    _ => true,
                };
                if !ok {
                    self.err("E3105", i, Where::Dst, "vPos is declared .x, .y or .xy");
                }
            }
            if semantic {
                if decl.index > 15 {
                    self.err("E3108", i, Where::Mnemonic, "usage indices are 0 to 15");
                }
                let key = (d.reg.ty == RegType::Output, decl.usage, decl.index);
                if let Some(&prev) = semantics.get(&key) {
                    let dd = super::at(
                        "E3108",
                        format!("dcl_{}{} is declared twice", decl.usage.name(), decl.index),
                        self.span(i, Where::Mnemonic),
                        inst.offset,
                    )
                    .secondary(self.span(prev, Where::Line), "first declared here");
                    self.diags.push(dd);
                } else {
                    semantics.insert(key, i);
                }
            }
            let list = declared.entry(d.reg).or_default();
            let overlapping = list.iter().copied().find(|&p| {
                let pm = self.shader.instructions[p]
                    .dst
                    .as_ref()
                    .map_or(0, |x| x.mask);
                pm & d.mask != 0 || !semantic
            });
            if let Some(prev) = overlapping {
                let dd = super::at(
                    "E3108",
                    format!("{name} is declared twice"),
                    self.span(i, Where::Dst),
                    inst.offset,
                )
                .secondary(self.span(prev, Where::Line), "first declared here");
                self.diags.push(dd);
            }
            list.push(i);
            self.a.decls.push(Declaration {
                reg: d.reg,
                usage: semantic.then_some((decl.usage, decl.index)),
                mask: d.mask,
                centroid: d.centroid,
                pp: d.pp,
                sampler: decl.sampler,
                instruction: i,
            });
            let _: &Decl = decl;
        }
        // Registers that need a declaration ("Requires DCL").
        let needs_dcl = |ty: RegType| match (v.kind, ty) {
            (table::ShaderKind::Vertex, RegType::Input) => true,
            (table::ShaderKind::Vertex, RegType::Output) => true,
            (table::ShaderKind::Vertex, RegType::Sampler) => true,
            (
                table::ShaderKind::Pixel,
                RegType::Input | RegType::Texture | RegType::Sampler | RegType::MiscType,
            ) => v.level() >= L2_0,
            _ => false,
        };
        let mut reported = BTreeSet::new();
        for (i, inst) in self.shader.instructions.iter().enumerate() {
            if inst.form.op == Op::Dcl || !inst.form.available(v) {
                continue;
            }
            let regs = inst
                .srcs
                .iter()
                .enumerate()
                .map(|(k, s)| (Where::Src(k), s.reg, s.rel.is_some()))
                .chain(
                    inst.dst
                        .iter()
                        .map(|d| (Where::Dst, d.reg, d.rel.is_some())),
                );
            for (w, reg, rel) in regs {
                if rel
                    || !needs_dcl(reg.ty)
                    || register_info(v, reg.ty).is_none_or(|r| reg.num >= r.count)
                {
                    continue;
                }
                if declared.contains_key(&reg) || !reported.insert(reg) {
                    continue;
                }
                let n = self.name(reg);
                self.err(
                    "E3108",
                    i,
                    w,
                    format!("{n} is used without a declaration (dcl) in {v}"),
                );
            }
        }
    }

    /// Flow control: matching blocks, nesting limits, breaks inside
    /// loops, subroutines (label after ret, forward calls, targets exist),
    /// aL only in loops, the ps_2_0+ gradient rule is left to the device.
    fn structure(&mut self) {
        let v = self.v;
        let lim = limits(v);
        #[derive(Clone, Copy, PartialEq)]
        enum Block {
            If { dynamic: bool, has_else: bool },
            Rep,
            Loop,
        }
        let mut stack: Vec<(Block, usize)> = Vec::new();
        let mut functions: Vec<Function> = vec![Function {
            label: None,
            start: 0,
            end: self.shader.instructions.len(),
        }];
        let mut labels: BTreeMap<u32, usize> = BTreeMap::new();
        let mut calls: Vec<(usize, u32, usize)> = Vec::new(); // (instruction, label, function)
        let mut after_ret = false;
        let mut static_flow = 0u32;
        let mut loop_depth_at: Vec<u32> = vec![0; self.shader.instructions.len()];
        let mut al_uses: Vec<(usize, usize)> = Vec::new(); // (instruction, function)
        let instructions = &self.shader.instructions;
        for (i, inst) in instructions.iter().enumerate() {
            if !inst.form.available(v) {
                continue;
            }
            let op = inst.form.op;
            let f = functions.len() - 1;
            let loops = stack
                .iter()
                .filter(|(b, _)| matches!(b, Block::Rep | Block::Loop))
                .count() as u32;
            loop_depth_at[i] = loops;
            if after_ret && !matches!(op, Op::Label | Op::Def | Op::DefI | Op::DefB | Op::Dcl) {
                self.err(
                    "E3110",
                    i,
                    Where::Line,
                    "after ret, the next instruction must be a label starting a subroutine",
                );
                after_ret = false;
            }
            let uses_al = inst
                .srcs
                .iter()
                .any(|s| s.rel.is_some_and(|r| r.reg.ty == RegType::Loop))
                || inst
                    .dst
                    .as_ref()
                    .is_some_and(|d| d.rel.is_some_and(|r| r.reg.ty == RegType::Loop));
            if uses_al && (loops == 0 || !stack.iter().any(|(b, _)| *b == Block::Loop)) {
                if f == 0 || stack.iter().any(|(b, _)| *b == Block::Rep) {
                    self.err(
                        "E3109",
                        i,
                        Where::Line,
                        "aL is only valid inside a loop...endloop block (Loop Counter Register)",
                    );
                } else {
                    al_uses.push((i, f));
                }
            }
            let dynamic_if_depth = stack
                .iter()
                .filter(|(b, _)| matches!(b, Block::If { dynamic: true, .. }))
                .count() as u32;
            match op {
                Op::If | Op::Ifc => {
                    let dynamic = op == Op::Ifc
                        || inst
                            .srcs
                            .first()
                            .is_some_and(|s| s.reg.ty == RegType::Predicate);
                    if dynamic && dynamic_if_depth + 1 > lim.dynamic {
                        self.err(
                            "E3109",
                            i,
                            Where::Line,
                            format!(
                                "if blocks with dynamic conditions nest at most {} deep in {v}",
                                lim.dynamic
                            ),
                        );
                    }
                    let static_depth = stack
                        .iter()
                        .filter(|(b, _)| matches!(b, Block::If { dynamic: false, .. }))
                        .count() as u32;
                    if !dynamic && static_depth + 1 > lim.static_if {
                        self.err(
                            "E3109",
                            i,
                            Where::Line,
                            format!("if blocks on b# nest at most {} deep in {v}", lim.static_if),
                        );
                    }
                    if !dynamic {
                        static_flow += 1;
                    }
                    stack.push((
                        Block::If {
                            dynamic,
                            has_else: false,
                        },
                        i,
                    ));
                }
                Op::Else => match stack.last_mut() {
                    Some((Block::If { has_else, dynamic }, _)) if !*has_else => {
                        *has_else = true;
                        if !*dynamic {
                            static_flow += 1;
                        }
                    }
                    _ => self.err("E3109", i, Where::Line, "else without an open if block"),
                },
                Op::EndIf => match stack.last() {
                    Some((Block::If { .. }, _)) => {
                        stack.pop();
                    }
                    _ => self.unmatched(i, &stack, "endif"),
                },
                Op::Rep | Op::Loop => {
                    if loops + 1 > lim.loops {
                        self.err(
                            "E3109",
                            i,
                            Where::Line,
                            format!("loop and rep blocks nest at most {} deep in {v}", lim.loops),
                        );
                    }
                    static_flow += 1;
                    stack.push((
                        if op == Op::Rep {
                            Block::Rep
                        } else {
                            Block::Loop
                        },
                        i,
                    ));
                }
                Op::EndRep | Op::EndLoop => {
                    let want = if op == Op::EndRep {
                        Block::Rep
                    } else {
                        Block::Loop
                    };
                    match stack.last() {
                        Some((b, _)) if *b == want => {
                            stack.pop();
                        }
                        _ => self.unmatched(i, &stack, inst.form.name),
                    }
                }
                Op::Break | Op::BreakC | Op::BreakP => {
                    if loops == 0 {
                        self.err(
                            "E3109",
                            i,
                            Where::Line,
                            format!("`{}` outside a loop or rep block", inst.mnemonic()),
                        );
                    }
                    if op == Op::BreakC && dynamic_if_depth + 1 > lim.dynamic {
                        self.err(
                            "E3109",
                            i,
                            Where::Line,
                            format!(
                                "dynamic flow control nests at most {} deep in {v}",
                                lim.dynamic
                            ),
                        );
                    }
                }
                Op::Call | Op::CallNz => {
                    if let Some(l) = inst.srcs.first() {
                        calls.push((i, l.reg.num, f));
                    }
                    static_flow += 1;
                }
                Op::Ret => {
                    if let Some((_, open)) = stack.last() {
                        let d = super::at(
                            "E3109",
                            "ret inside a flow-control block: ret ends the main program or a subroutine",
                            self.span(i, Where::Line),
                            inst.offset,
                        )
                        .secondary(self.span(*open, Where::Line), "this block is still open");
                        self.diags.push(d);
                    }
                    functions[f].end = functions[f].end.min(i);
                    after_ret = true;
                }
                Op::Label => {
                    after_ret = false;
                    if let Some((_, open)) = stack.last() {
                        let d = super::at(
                            "E3109",
                            "a label inside a flow-control block",
                            self.span(i, Where::Line),
                            inst.offset,
                        )
                        .secondary(self.span(*open, Where::Line), "this block is still open");
                        self.diags.push(d);
                        stack.clear();
                    }
                    // A label ends the body before it (a missing ret is the
                    // end of main or of the previous subroutine).
                    if functions[f].end > i {
                        let after_ret = matches!(
                            instructions.get(i.wrapping_sub(1)).map(|p| p.form.op),
                            Some(Op::Ret)
                        );
                        if (f == 0 || i > functions[f].start) && !after_ret {
                            self.err(
                                "E3110",
                                i,
                                Where::Line,
                                "a label must directly follow a ret (label - vs, label - ps)",
                            );
                        }
                        functions[f].end = i;
                    }
                    let Some(l) = inst.srcs.first() else { continue };
                    if let Some(&prev) = labels.get(&l.reg.num) {
                        let d = super::at(
                            "E3110",
                            format!("label l{} is defined twice", l.reg.num),
                            self.span(i, Where::Src(0)),
                            inst.offset,
                        )
                        .secondary(self.span(prev, Where::Line), "first defined here");
                        self.diags.push(d);
                    } else {
                        labels.insert(l.reg.num, i);
                    }
                    functions.push(Function {
                        label: Some(l.reg.num),
                        start: i + 1,
                        end: instructions.len(),
                    });
                }
                _ => {}
            }
        }
        for (b, open) in stack.iter().rev() {
            let name = match b {
                Block::If { .. } => "if",
                Block::Rep => "rep",
                Block::Loop => "loop",
            };
            self.err(
                "E3109",
                *open,
                Where::Line,
                format!("this {name} block is never closed"),
            );
        }
        if let Some(max) = lim.static_flow_count {
            if static_flow > max {
                self.err(
                    "E3109",
                    self.shader.instructions.len().saturating_sub(1),
                    Where::Line,
                    format!("{v} allows {max} static flow-control instructions (if b#, else, rep, loop, call, callnz), this shader has {static_flow}"),
                );
            }
        }
        // Calls: the label exists, comes after the call (forward calls
        // only), and the call depth stays within the limit.
        let mut callees: BTreeMap<usize, BTreeSet<usize>> = BTreeMap::new();
        for &(i, label, from) in &calls {
            match labels.get(&label) {
                None => self.err(
                    "E3110",
                    i,
                    Where::Src(0),
                    format!("l{label} is not defined by any label instruction"),
                ),
                Some(&at) => {
                    if at < i {
                        let d = super::at("E3110", format!("call to l{label} before this instruction: only forward calls are allowed (call - vs, call - ps)"), self.span(i, Where::Src(0)), self.shader.instructions[i].offset)
                            .secondary(self.span(at, Where::Line), "the label");
                        self.diags.push(d);
                    }
                    if let Some(to) = functions.iter().position(|f| f.label == Some(label)) {
                        callees.entry(from).or_default().insert(to);
                    }
                }
            }
        }
        if !self.diags.iter().any(|d| d.code == "E3110") {
            // Forward calls make the call graph acyclic; its depth is the
            // nesting of calls.
            fn depth(
                f: usize,
                callees: &BTreeMap<usize, BTreeSet<usize>>,
                memo: &mut BTreeMap<usize, u32>,
            ) -> u32 {
                if let Some(&d) = memo.get(&f) {
                    return d;
                }
                memo.insert(f, 0);
                let d = callees.get(&f).map_or(0, |c| {
                    c.iter()
                        .map(|&g| 1 + depth(g, callees, memo))
                        .max()
                        .unwrap_or(0)
                });
                memo.insert(f, d);
                d
            }
            let mut memo = BTreeMap::new();
            let d = depth(0, &callees, &mut memo);
            if d > lim.calls {
                let first_call = calls.first().map_or(0, |c| c.0);
                self.err(
                    "E3110",
                    first_call,
                    Where::Line,
                    format!("calls nest {d} deep; {v} allows {}", lim.calls),
                );
            }
            // aL in a subroutine: every call of it is inside a loop block.
            for (i, f) in al_uses {
                let outside = calls.iter().find(|&&(ci, label, _)| {
                    functions[f].label == Some(label) && loop_depth_at[ci] == 0
                });
                if let Some(&(ci, ..)) = outside {
                    let d = super::at("E3110", "this subroutine reads aL, but a call of it is outside any loop block (call - vs)", self.span(i, Where::Line), self.shader.instructions[i].offset)
                        .secondary(self.span(ci, Where::Line), "called here outside a loop");
                    self.diags.push(d);
                }
            }
        }
        self.a.functions = functions;
    }

    fn unmatched(&mut self, i: usize, stack: &[(impl Copy, usize)], what: &str) {
        match stack.last() {
            Some((_, open)) => {
                let d = super::at(
                    "E3109",
                    format!("{what} does not close the innermost open block"),
                    self.span(i, Where::Line),
                    self.shader.instructions[i].offset,
                )
                .secondary(self.span(*open, Where::Line), "the innermost open block");
                self.diags.push(d);
            }
            None => self.err(
                "E3109",
                i,
                Where::Line,
                format!("{what} without an open block"),
            ),
        }
    }

    /// ps_1_x: texture instructions before arithmetic (1_1-1_3) or in
    /// each phase (1_4), the texm3x2/texm3x3 sequences, t# registers
    /// written once and read as the pages say, co-issue pairs, the single
    /// bem, texdepth on r5, v# only in phase 2.
    fn ps1x_rules(&mut self, options: &crate::Options) {
        let _ = options;
        let v = self.v;
        let insts = &self.shader.instructions;
        let mut seen_arith = false;
        let mut tex_written: BTreeMap<u32, usize> = BTreeMap::new();
        let mut bem_read: BTreeSet<u32> = BTreeSet::new();
        let mut bem_count = 0;
        let mut phase = if v.level() == L1_4 && self.a.phase.is_some() {
            1
        } else {
            2
        };
        let mut k = 0;
        while k < insts.len() {
            let inst = &insts[k];
            let op = inst.form.op;
            if op == Op::Phase {
                phase = 2;
                seen_arith = false;
                k += 1;
                continue;
            }
            let class = inst.form.class;
            if class == Class::Texture {
                if seen_arith {
                    let where_ = if v.level() == L1_4 {
                        "before the arithmetic instructions of its phase"
                    } else {
                        "before every arithmetic instruction"
                    };
                    self.err(
                        "E3112",
                        k,
                        Where::Line,
                        format!("texture instructions come {where_} in {v}"),
                    );
                }
            } else if class == Class::Arith {
                seen_arith = true;
            }
            // Co-issue.
            if inst.coissue {
                let prev = k.checked_sub(1).map(|p| &insts[p]);
                match prev {
                    Some(p) if p.form.class == Class::Arith && !p.coissue && class == Class::Arith => {
                        let m1 = p.dst.as_ref().map_or(0, |d| d.mask);
                        let m2 = inst.dst.as_ref().map_or(0, |d| d.mask);
                        let pair_ok = if v.level() == L1_4 {
                            m1 & m2 == 0 && (m1 == 8 || m2 == 8)
                        } else {
                            (m1 == 0x7 && m2 == 0x8) || (m1 == 0x8 && m2 == 0x7)
                        };
                        if !pair_ok {
                            self.err("E3116", k, Where::Line, "a co-issued pair writes the color (.rgb) in one instruction and alpha (.a) in the other");
                        }
                    }
                    _ => self.err("E3116", k, Where::Line, "only an arithmetic instruction can be co-issued, with the arithmetic instruction before it"),
                }
            }
            // Source registers.
            for (s_i, s) in inst.srcs.iter().enumerate() {
                match s.reg.ty {
                    RegType::Texture if v.level() <= L1_3 => {
                        if !tex_written.contains_key(&s.reg.num) {
                            self.err(
                                "E3114",
                                k,
                                Where::Src(s_i),
                                format!(
                                    "t{} is read before a texture instruction writes it",
                                    s.reg.num
                                ),
                            );
                        } else if bem_read.contains(&s.reg.num)
                            && !matches!(op, Op::TexBem | Op::TexBemL)
                        {
                            self.err("E3112", k, Where::Src(s_i), "register data read by texbem or texbeml cannot be read by other instructions (texbem - ps)");
                        }
                    }
                    RegType::Texture if v.level() == L1_4 && class != Class::Texture => {
                        self.err(
                            "E3112",
                            k,
                            Where::Src(s_i),
                            "in ps_1_4, arithmetic instructions cannot read t# registers",
                        );
                    }
                    RegType::Input if v.level() == L1_4 && phase == 1 => {
                        self.err(
                            "E3112",
                            k,
                            Where::Src(s_i),
                            "in ps_1_4, color registers v# are available only in phase 2",
                        );
                    }
                    RegType::Temp if v.level() == L1_4 && phase == 1 && op == Op::TexLd14 => {
                        self.err(
                            "E3112",
                            k,
                            Where::Src(s_i),
                            "in phase 1 of ps_1_4, texld reads a t# register",
                        );
                    }
                    _ => {}
                }
            }
            // Texture-instruction destinations and sequences.
            if let Some(d) = &inst.dst {
                let m = d.reg.num;
                if class == Class::Texture && v.level() <= L1_3 {
                    if d.reg.ty != RegType::Texture {
                        self.err(
                            "E3112",
                            k,
                            Where::Dst,
                            "texture instructions write t# registers before ps_1_4",
                        );
                    } else if let Some(&prev) = tex_written.get(&m) {
                        let dd = super::at(
                            "E3112",
                            format!("t{m} is written by two texture instructions"),
                            self.span(k, Where::Dst),
                            inst.offset,
                        )
                        .secondary(self.span(prev, Where::Line), "first written here");
                        self.diags.push(dd);
                    }
                    if let Some(src) = inst.srcs.first() {
                        if src.reg.ty == RegType::Texture && src.reg.num >= m {
                            self.err(
                                "E3112",
                                k,
                                Where::Src(0),
                                format!("`{}` t(m), t(n) needs m > n", inst.form.name),
                            );
                        }
                        if matches!(op, Op::TexBem | Op::TexBemL) {
                            bem_read.insert(src.reg.num);
                        }
                    }
                    tex_written.insert(m, k);
                } else if class == Class::Texture && v.level() == L1_4 && op != Op::TexKill {
                    if d.reg.ty != RegType::Temp {
                        self.err(
                            "E3112",
                            k,
                            Where::Dst,
                            "ps_1_4 texture instructions write r# registers",
                        );
                    }
                    if op == Op::TexDepth && d.reg.num != 5 {
                        self.err("E3112", k, Where::Dst, "texdepth works on r5 only");
                    }
                    if op == Op::TexDepth && phase == 1 {
                        self.err(
                            "E3112",
                            k,
                            Where::Line,
                            "texdepth belongs in phase 2 of ps_1_4",
                        );
                    }
                } else if class == Class::Arith && d.reg.ty == RegType::Texture && v.level() <= L1_3
                {
                    tex_written.entry(m).or_insert(k);
                }
            }
            if op == Op::Bem {
                bem_count += 1;
                if bem_count > 1 {
                    self.err(
                        "E3112",
                        k,
                        Where::Line,
                        "only one bem is allowed per shader",
                    );
                }
                if phase == 2 && self.a.phase.is_some() || self.a.phase.is_none() {
                    self.err(
                        "E3112",
                        k,
                        Where::Line,
                        "bem belongs in phase 1 of a ps_1_4 shader (before phase)",
                    );
                }
            }
            // The texm3x2 and texm3x3 sequences.
            let seq_len = match op {
                Op::TexM3x2Pad => 2,
                Op::TexM3x3Pad => 3,
                _ => 0,
            };
            if seq_len > 0 {
                let src = inst.srcs.first().map(|s| s.reg);
                let m = inst.dst.as_ref().map_or(0, |d| d.reg.num);
                let mut ok = true;
                for step in 1..seq_len {
                    let Some(next) = insts.get(k + step) else {
                        ok = false;
                        break;
                    };
                    let want: &[Op] = match (seq_len, step) {
                        (2, 1) => &[Op::TexM3x2Tex, Op::TexM3x2Depth],
                        (3, 1) => &[Op::TexM3x3Pad],
                        _ => &[
                            Op::TexM3x3,
                            Op::TexM3x3Tex,
                            Op::TexM3x3Spec,
                            Op::TexM3x3VSpec,
                        ],
                    };
                    let dst_ok = next
                        .dst
                        .as_ref()
                        .is_some_and(|d| d.reg.num == m + step as u32);
                    let src_ok = next.srcs.first().map(|s| s.reg) == src;
                    if !want.contains(&next.form.op) || !dst_ok || !src_ok {
                        ok = false;
                        break;
                    }
                }
                for step in 0..seq_len {
                    if let Some(d) = insts.get(k + step).and_then(|n| n.dst.as_ref()) {
                        tex_written.entry(d.reg.num).or_insert(k + step);
                    }
                }
                if !ok {
                    let what = if seq_len == 2 {
                        "texm3x2pad t(m), t(n) is followed by texm3x2tex or texm3x2depth t(m+1), t(n)"
                    } else {
                        "texm3x3pad t(m), t(n) is followed by texm3x3pad t(m+1), t(n) and texm3x3, texm3x3tex, texm3x3spec or texm3x3vspec t(m+2), t(n)"
                    };
                    self.err("E3112", k, Where::Line, what);
                }
                k += seq_len;
                continue;
            }
            if matches!(
                op,
                Op::TexM3x2Tex
                    | Op::TexM3x2Depth
                    | Op::TexM3x3
                    | Op::TexM3x3Tex
                    | Op::TexM3x3Spec
                    | Op::TexM3x3VSpec
            ) {
                self.err(
                    "E3112",
                    k,
                    Where::Line,
                    format!(
                        "`{}` completes a texm3x2pad/texm3x3pad sequence and cannot stand alone",
                        inst.form.name
                    ),
                );
            }
            k += 1;
        }
        // r0 is the output.
        let writes_r0 = insts.iter().any(|i| {
            i.dst.as_ref().is_some_and(|d| {
                d.reg
                    == Register {
                        ty: RegType::Temp,
                        num: 0,
                    }
            })
        });
        if !writes_r0 {
            let last = insts.len().saturating_sub(1);
            self.restriction(
                last,
                Where::Line,
                "a ps_1_x shader writes its color to r0, and this one never does",
            );
        }
    }

    /// ps_2_0 and ps_2_x output rules ("Output Color Register", "Output
    /// Depth Register"): mov only, once each, oC0 written, no gaps, not in
    /// flow control or predicated.
    fn sm2_output_rules(&mut self) {
        let insts = &self.shader.instructions;
        let mut written: BTreeMap<Register, usize> = BTreeMap::new();
        let mut depth = 0i32;
        for (i, inst) in insts.iter().enumerate() {
            match inst.form.op {
                Op::If | Op::Ifc | Op::Rep | Op::Loop => depth += 1,
                Op::EndIf | Op::EndRep | Op::EndLoop => depth -= 1,
                _ => {}
            }
            let Some(d) = &inst.dst else { continue };
            if !matches!(d.reg.ty, RegType::ColorOut | RegType::DepthOut) {
                continue;
            }
            let name = self.name(d.reg);
            if inst.form.op != Op::Mov {
                self.restriction(
                    i,
                    Where::Mnemonic,
                    format!("in {}, {name} can only be written by mov", self.v),
                );
            }
            if let Some(s) = inst.srcs.first() {
                if s.modifier != SrcMod::None
                    || (d.reg.ty == RegType::ColorOut && s.swizzle != [0, 1, 2, 3])
                {
                    self.restriction(
                        i,
                        Where::Src(0),
                        format!("the mov writing {name} takes no source modifier or swizzle"),
                    );
                }
                if d.reg.ty == RegType::DepthOut && !s.swizzle.iter().all(|&c| c == s.swizzle[0]) {
                    self.restriction(i, Where::Src(0), "writing oDepth needs a replicate swizzle");
                }
            }
            if d.reg.ty == RegType::ColorOut && d.mask != 0xf {
                self.restriction(
                    i,
                    Where::Dst,
                    format!("in {}, {name} is written whole (no write mask)", self.v),
                );
            }
            if inst.predicate.is_some()
                || depth > 0 && self.v.level() >= L2_X && d.reg.ty == RegType::DepthOut
            {
                self.restriction(
                    i,
                    Where::Dst,
                    format!(
                        "{name} cannot be written under predication or in flow control in {}",
                        self.v
                    ),
                );
            }
            if let Some(&prev) = written.get(&d.reg) {
                let _ = prev;
                self.restriction(
                    i,
                    Where::Dst,
                    format!("{name} is written twice; {} allows one write", self.v),
                );
            } else {
                written.insert(d.reg, i);
            }
        }
        let colors: Vec<u32> = written
            .keys()
            .filter(|r| r.ty == RegType::ColorOut)
            .map(|r| r.num)
            .collect();
        let last = insts.len().saturating_sub(1);
        if !colors.contains(&0) {
            self.restriction(
                last,
                Where::Line,
                format!("{} shaders must write oC0", self.v),
            );
        } else if let Some(&max) = colors.iter().max() {
            if (0..max).any(|n| !colors.contains(&n)) {
                let at = written[&Register {
                    ty: RegType::ColorOut,
                    num: max,
                }];
                self.restriction(
                    at,
                    Where::Dst,
                    format!(
                        "oC{max} is written, so oC0 to oC{} must be written too",
                        max - 1
                    ),
                );
            }
        }
    }

    /// vs_3_0: a position output is declared (with all four components),
    /// a point-size output has no mask, and every semantic has a Location
    /// in docs/interface.md.
    fn vs3_outputs(&mut self) {
        let v = self.v;
        let semantic_regs: Vec<Declaration> = self
            .a
            .decls
            .iter()
            .filter(|d| {
                d.usage.is_some()
                    && (d.reg.ty == RegType::Output || (v.is_pixel() && d.reg.ty == RegType::Input))
            })
            .cloned()
            .collect();
        for d in &semantic_regs {
            let (usage, index) = d.usage.unwrap_or((Usage::Position, 0));
            let output = d.reg.ty == RegType::Output;
            if super::lower::varying_slot(usage, index, output, v.is_pixel()).is_none() {
                self.err(
                    "E3117",
                    d.instruction,
                    Where::Mnemonic,
                    format!("dcl_{}{index} has no Location in nvp4c's varying table (docs/interface.md, \"Direct3D 9 varyings\")", usage.name()),
                );
            }
            if output && usage == Usage::PSize && d.mask != 0xf {
                self.err(
                    "E3105",
                    d.instruction,
                    Where::Dst,
                    "a point-size output is declared without a mask (dcl_usage output)",
                );
            }
        }
        if v.is_vertex() && v.level() >= L3_0 {
            let pos = semantic_regs.iter().find(|d| {
                d.reg.ty == RegType::Output
                    && matches!(d.usage, Some((Usage::Position | Usage::PositionT, 0)))
            });
            match pos {
                None => {
                    let last = self.shader.instructions.len().saturating_sub(1);
                    self.err("E3108", last, Where::Line, "a vs_3_0 shader declares an output with the position semantic (dcl_position o#)");
                }
                Some(p) if p.mask != 0xf => {
                    self.err(
                        "E3105",
                        p.instruction,
                        Where::Dst,
                        "the position output is declared with all four components",
                    );
                }
                _ => {}
            }
        }
    }

    /// "Vertex shaders that read a value from a temporary register before
    /// writing to it will fail", and ps_1_x "will fail ... any shader that
    /// attempts to read from a temporary register that has not been
    /// written": a read of r# with no write earlier in the text.
    fn uninitialised_reads(&mut self) {
        let v = self.v;
        if !(v.is_vertex() || v.is_sm1()) {
            return;
        }
        let mut written: BTreeMap<u32, u8> = BTreeMap::new();
        let insts = &self.shader.instructions;
        for (i, inst) in insts.iter().enumerate() {
            // Subroutines can be entered with anything written: a textual
            // scan stops at the first label.
            if inst.form.op == Op::Label {
                break;
            }
            for (k, s) in inst.srcs.iter().enumerate() {
                if s.reg.ty != RegType::Temp || inst.form.srcs.get(k) != Some(&SrcKind::Value) {
                    continue;
                }
                // Scratch operands of vs_2_x sgn are written by it.
                if inst.form.op == Op::Sgn && k > 0 {
                    continue;
                }
                let needed: u8 = match inst.form.op {
                    Op::Rcp
                    | Op::Rsq
                    | Op::Exp
                    | Op::Log
                    | Op::ExpP
                    | Op::LogP
                    | Op::Pow
                    | Op::SinCos
                        if k == 0 || inst.form.op == Op::Pow =>
                    {
                        1 << s.swizzle[0]
                    }
                    Op::Dp3
                    | Op::M3x2
                    | Op::M3x3
                    | Op::M3x4
                    | Op::Crs
                    | Op::Nrm
                    | Op::TexLd14
                    | Op::TexCrd => s.swizzle[..3].iter().fold(0, |m, &c| m | 1 << c),
                    _ => {
                        let mask = inst.dst.as_ref().map_or(0xf, |d| d.mask);
                        (0..4)
                            .filter(|&c| mask & (1 << c) != 0)
                            .fold(0, |m, c| m | 1 << s.swizzle[c])
                    }
                };
                let have = written.get(&s.reg.num).copied().unwrap_or(0);
                if needed & !have != 0 {
                    let n = self.name(s.reg);
                    self.err(
                        "E3114",
                        i,
                        Where::Src(k),
                        format!("{n} is read before any instruction writes it"),
                    );
                    written.insert(s.reg.num, 0xf);
                }
            }
            if let Some(d) = &inst.dst {
                if d.reg.ty == RegType::Temp {
                    *written.entry(d.reg.num).or_default() |= d.mask;
                }
            }
            if inst.form.op == Op::Sgn {
                for s in inst.srcs.iter().skip(1) {
                    written.insert(s.reg.num, 0xf);
                }
            }
        }
    }

    /// Instruction slots per version ("Instruction Slots", the
    /// instruction lists' slot columns; a predicated instruction takes one
    /// more).
    fn slots(&mut self) {
        let v = self.v;
        let insts = &self.shader.instructions;
        if v.is_pixel() && v.level() <= L2_0 {
            let (max_tex, max_arith) = match v.level() {
                L1_4 => (6, 8),
                L2_0 => (32, 64),
                _ => (4, 8),
            };
            let mut tex = 0u32;
            let mut arith = 0u32;
            for (i, inst) in insts.iter().enumerate() {
                if inst.form.op == Op::Phase {
                    self.slot_limit(i, tex, max_tex, arith, max_arith);
                    tex = 0;
                    arith = 0;
                    continue;
                }
                let n = table::slots(inst.form, v);
                match inst.form.class {
                    Class::Texture if inst.form.op == Op::TexBemL && v.is_sm1() => {
                        tex += 1;
                        arith += 1;
                    }
                    Class::Texture => tex += n,
                    Class::Arith if inst.coissue => {}
                    Class::Arith => {
                        arith += if v.is_sm1()
                            && matches!(inst.form.op, Op::Dp4 | Op::Cmp)
                            && v.level() != L1_4
                        {
                            2
                        } else {
                            n.min(if v.is_sm1() { 1 } else { n })
                        };
                        if inst.form.op == Op::Bem {
                            arith += 1;
                        }
                    }
                    _ => {}
                }
            }
            self.slot_limit(
                insts.len().saturating_sub(1),
                tex,
                max_tex,
                arith,
                max_arith,
            );
            return;
        }
        let Some(max) = limits(v).slots else { return };
        let total: u32 = insts
            .iter()
            .map(|i| table::slots(i.form, v) + u32::from(i.predicate.is_some()))
            .sum();
        if total > max {
            self.err(
                "E3113",
                insts.len().saturating_sub(1),
                Where::Line,
                format!("the shader needs {total} instruction slots; {v} has {max}"),
            );
        }
    }

    fn slot_limit(&mut self, at: usize, tex: u32, max_tex: u32, arith: u32, max_arith: u32) {
        if tex > max_tex || arith > max_arith {
            self.err(
                "E3113",
                at,
                Where::Line,
                format!(
                    "{} allows {max_tex} texture and {max_arith} arithmetic instruction slots{}; this uses {tex} and {arith}",
                    self.v,
                    if self.v.level() == L1_4 { " per phase" } else { "" }
                ),
            );
        }
    }
}
