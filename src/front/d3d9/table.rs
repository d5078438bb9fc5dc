//! The Direct3D 9 instruction and register tables: one place that says
//! what an opcode is in each shader version (operand counts, operand
//! kinds, availability, slots, modifiers) and what a register type number
//! means. The decoder, disassembler, assembler, checker and lowering all
//! read these tables.
//!
//! Sources: Microsoft's D3DSHADER_INSTRUCTION_OPCODE_TYPE and
//! D3DSHADER_PARAM_REGISTER_TYPE pages, the per-instruction version tables
//! of the asm reference (../shared/spec/related/d3d9/asm-*-instructions.md,
//! authoritative where they differ from vkd3d's table) and the numeric
//! values in FACTS-d3d9-token-values.md §7 and §10.
//!
//! ```
//! use nvp4c::front::d3d9::table::{self, Op, Version};
//! let ps_1_3 = Version::pixel(1, 3);
//! // SM1 instructions carry no length: the table gives it.
//! let form = table::form(0x4c, ps_1_3).unwrap();
//! assert_eq!((form.op, form.name, form.srcs.len()), (Op::TexM3x3Spec, "texm3x3spec", 2));
//! // Opcode 0x42 is `tex` before ps_1_4, `texld` with one source in ps_1_4,
//! // `texld` with coordinate and sampler from ps_2_0.
//! assert_eq!(table::form(0x42, Version::pixel(1, 4)).unwrap().srcs.len(), 1);
//! assert_eq!(table::form(0x42, Version::pixel(2, 0)).unwrap().srcs.len(), 2);
//! ```

use std::fmt;

/// Vertex or pixel shader (version token bits 16-31: 0xFFFE, 0xFFFF).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ShaderKind {
    /// `vs_*`.
    Vertex,
    /// `ps_*`.
    Pixel,
}

/// A shader version from the version token.
///
/// ```
/// use nvp4c::front::d3d9::table::Version;
/// assert_eq!(Version::from_token(0xFFFE_0201).unwrap().name(), "vs_2_x");
/// assert_eq!(Version::from_token(0xFFFF_0104).unwrap().name(), "ps_1_4");
/// assert_eq!(Version::from_token(0xFFFF_03FF).unwrap().name(), "ps_3_sw");
/// assert_eq!(Version::from_token(0xFFFF_0202).unwrap().name(), "ps_2_b");
/// assert!(Version::from_token(0x0723_0203).is_none()); // SPIR-V
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Version {
    /// Vertex or pixel.
    pub kind: ShaderKind,
    /// Major version (1, 2, 3).
    pub major: u8,
    /// Minor version as encoded (2_x is 1 or more, the software versions
    /// `*_sw` are 0xFF).
    pub minor: u8,
}

/// A version reduced to the levels the documentation distinguishes:
/// 1_0 .. 1_4, 2_0, 2_x (every minor of 1 or more, and 2_sw), 3_0 (and
/// 3_sw). Ordered, so availability is a range of levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(pub u8, pub u8);

/// vs_1_1 / ps_1_1 level.
pub const L1_0: Level = Level(1, 0);
/// Level 1_1.
pub const L1_1: Level = Level(1, 1);
/// Level 1_2.
pub const L1_2: Level = Level(1, 2);
/// Level 1_3.
pub const L1_3: Level = Level(1, 3);
/// Level 1_4.
pub const L1_4: Level = Level(1, 4);
/// Level 2_0.
pub const L2_0: Level = Level(2, 0);
/// Level 2_x (and 2_sw).
pub const L2_X: Level = Level(2, 1);
/// Level 3_0 (and 3_sw).
pub const L3_0: Level = Level(3, 0);

impl Version {
    /// The version a version token names, if it is one.
    pub fn from_token(token: u32) -> Option<Version> {
        let kind = match token >> 16 {
            0xFFFE => ShaderKind::Vertex,
            0xFFFF => ShaderKind::Pixel,
            _ => return None,
        };
        Some(Version {
            kind,
            major: (token >> 8) as u8,
            minor: token as u8,
        })
    }
    /// The version token.
    ///
    /// ```
    /// assert_eq!(nvp4c::front::d3d9::table::Version::vertex(3, 0).token(), 0xFFFE_0300);
    /// ```
    pub fn token(self) -> u32 {
        let high = match self.kind {
            ShaderKind::Vertex => 0xFFFE_0000,
            ShaderKind::Pixel => 0xFFFF_0000,
        };
        high | u32::from(self.major) << 8 | u32::from(self.minor)
    }
    /// `vs_major_minor`.
    pub fn vertex(major: u8, minor: u8) -> Version {
        Version {
            kind: ShaderKind::Vertex,
            major,
            minor,
        }
    }
    /// `ps_major_minor`.
    pub fn pixel(major: u8, minor: u8) -> Version {
        Version {
            kind: ShaderKind::Pixel,
            major,
            minor,
        }
    }
    /// Whether this is a version Direct3D 9 runs: vs_1_1, vs_2_0, vs_2_x,
    /// vs_2_sw, vs_3_0, vs_3_sw, ps_1_1 .. ps_1_4, ps_2_0, ps_2_x, ps_2_sw,
    /// ps_3_0, ps_3_sw (vs_1_0 and ps_1_0 are Direct3D 8's).
    ///
    /// ```
    /// use nvp4c::front::d3d9::table::Version;
    /// assert!(Version::pixel(1, 4).is_supported() && !Version::pixel(1, 5).is_supported());
    /// assert!(!Version::vertex(1, 0).is_supported() && Version::vertex(2, 2).is_supported());
    /// ```
    pub fn is_supported(self) -> bool {
        matches!(
            (self.kind, self.major, self.minor),
            (ShaderKind::Vertex, 1, 1)
                | (ShaderKind::Pixel, 1, 1..=4)
                | (_, 2, _)
                | (_, 3, 0 | 0xFF)
        )
    }
    /// The level availability is decided by.
    pub fn level(self) -> Level {
        match (self.major, self.minor) {
            (1, m) => Level(1, m.min(4)),
            (2, 0) => L2_0,
            (2, _) => L2_X,
            (m, _) => Level(m, 0),
        }
    }
    /// Whether it is a software version (`vs_2_sw`, `vs_3_sw`, `ps_2_sw`,
    /// `ps_3_sw`: minor 0xFF), with the relaxed limits of the "Software
    /// Shaders" page.
    pub fn is_software(self) -> bool {
        self.minor == 0xFF && self.major >= 2
    }
    /// Whether a vertex shader.
    pub fn is_vertex(self) -> bool {
        self.kind == ShaderKind::Vertex
    }
    /// Whether a pixel shader.
    pub fn is_pixel(self) -> bool {
        self.kind == ShaderKind::Pixel
    }
    /// Whether shader model 1 (instruction tokens carry no length).
    pub fn is_sm1(self) -> bool {
        self.major < 2
    }
    /// Whether at least `level`.
    pub fn at_least(self, level: Level) -> bool {
        self.level() >= level
    }
    /// The version as the assembler writes it: `vs_2_0`, `ps_2_x`,
    /// `vs_3_sw`.
    pub fn name(self) -> String {
        let kind = match self.kind {
            ShaderKind::Vertex => "vs",
            ShaderKind::Pixel => "ps",
        };
        // 2_x is minor 1; vkd3d-compiler writes ps_2_b as minor 2 (FACTS
        // §1), which keeps its HLSL profile name so the token round-trips.
        match (self.major, self.minor) {
            (2..=3, 0xFF) => format!("{kind}_{}_sw", self.major),
            (2, 1) => format!("{kind}_2_x"),
            (2, 2) => format!("{kind}_2_b"),
            (major, minor) => format!("{kind}_{major}_{minor}"),
        }
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl Level {
    /// The level as the documentation writes it: `1_4`, `2_0`, `2_x`.
    ///
    /// ```
    /// assert_eq!(nvp4c::front::d3d9::table::L2_X.name(), "2_x");
    /// ```
    pub fn name(self) -> String {
        match self {
            L2_X => "2_x".to_string(),
            Level(a, b) => format!("{a}_{b}"),
        }
    }
}

/// Every instruction, after the version has decided what an opcode number
/// means (0x42 is `tex`, ps_1_4's `texld` or the 2_0 `texld`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(missing_docs)]
pub enum Op {
    Nop,
    Mov,
    Add,
    Sub,
    Mad,
    Mul,
    Rcp,
    Rsq,
    Dp3,
    Dp4,
    Min,
    Max,
    Slt,
    Sge,
    Exp,
    Log,
    Lit,
    Dst,
    Lrp,
    Frc,
    M4x4,
    M4x3,
    M3x4,
    M3x3,
    M3x2,
    Call,
    CallNz,
    Loop,
    Ret,
    EndLoop,
    Label,
    Dcl,
    Pow,
    Crs,
    Sgn,
    Abs,
    Nrm,
    SinCos,
    Rep,
    EndRep,
    If,
    Ifc,
    Else,
    EndIf,
    Break,
    BreakC,
    Mova,
    DefB,
    DefI,
    /// ps_1_1-1_3 `texcoord t#`.
    TexCoord,
    /// ps_1_4 `texcrd r#, t#`.
    TexCrd,
    TexKill,
    /// ps_1_1-1_3 `tex t#`.
    Tex,
    /// ps_1_4 `texld r#, t#|r#`.
    TexLd14,
    /// ps_2_0+ `texld`, `texldp`, `texldb` (the control bits say which).
    TexLd,
    TexBem,
    TexBemL,
    TexReg2Ar,
    TexReg2Gb,
    TexM3x2Pad,
    TexM3x2Tex,
    TexM3x3Pad,
    TexM3x3Tex,
    TexM3x3Spec,
    TexM3x3VSpec,
    ExpP,
    LogP,
    Cnd,
    Def,
    TexReg2Rgb,
    TexDp3Tex,
    TexM3x2Depth,
    TexDp3,
    TexM3x3,
    TexDepth,
    Cmp,
    Bem,
    Dp2Add,
    Dsx,
    Dsy,
    TexLdd,
    Setp,
    TexLdl,
    BreakP,
    Phase,
}

/// The broad kind of an instruction (slot accounting and ps_1_x rules).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// Declarations and constants: `dcl`, `def*`, `phase` (no slots).
    Setup,
    /// Arithmetic (counts against arithmetic slots; ps_1_x may co-issue).
    Arith,
    /// Texture instructions (texture slots in ps_1_x and ps_2_0).
    Texture,
    /// Flow control.
    Flow,
}

/// What an instruction token's bits 16-23 hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    /// Nothing (must be 0).
    None,
    /// A comparison, 1-6 (FACTS §6): `if_gt`, `break_lt`, `setp_ne`.
    Comparison,
    /// 0 `texld`, 1 `texldp`, 2 `texldb`.
    TexLd,
}

/// What a destination may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DstKind {
    /// A writable value register.
    Value,
    /// `p0` (`setp`).
    Predicate,
    /// `a0` (`mova`).
    Address,
    /// ps_1_x texture-address destination `t#` (or `r#` in ps_1_4).
    TexAddr,
    /// `texkill`'s operand, encoded as a destination.
    Kill,
    /// The register a `dcl` declares.
    Declared,
    /// The constant a `def`/`defi`/`defb` defines.
    Defined,
}

/// What a source may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SrcKind {
    /// A value register (with swizzle and modifiers).
    Value,
    /// A label `l#` (`call`, `callnz`, `label`).
    Label,
    /// A sampler `s#`.
    Sampler,
    /// An integer constant `i#` (`rep`, `loop`).
    Int,
    /// `aL` (`loop`).
    LoopCounter,
    /// `b#` or `p0` (`if`, `callnz`).
    Condition,
    /// `p0` (`breakp`).
    Predicate,
}

/// How the token stream of an instruction is laid out beyond its
/// destination and source parameter tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Destination and sources.
    Plain,
    /// `dcl`: a declaration token, then the destination.
    Dcl,
    /// `def`/`defi`/`defb`: the destination, then this many raw words.
    Def(u8),
}

/// One form of an opcode: what it is in a range of versions.
#[derive(Debug)]
#[non_exhaustive]
pub struct Form {
    /// D3DSIO_* number.
    pub code: u16,
    /// The instruction.
    pub op: Op,
    /// The assembler's mnemonic (without comparison or `p`/`b` suffixes).
    pub name: &'static str,
    /// Vertex shader levels it exists in (inclusive).
    pub vs: Option<(Level, Level)>,
    /// Pixel shader levels it exists in (inclusive).
    pub ps: Option<(Level, Level)>,
    /// Its destination, if it has one.
    pub dst: Option<DstKind>,
    /// Its sources, in order.
    pub srcs: &'static [SrcKind],
    /// Token layout.
    pub shape: Shape,
    /// Bits 16-23 of the instruction token.
    pub control: Control,
    /// Broad kind.
    pub class: Class,
    /// Instruction slots (the instruction lists' column; vs_1_1
    /// exceptions in [`slots`]).
    pub slots: u8,
}

impl Form {
    /// Whether it exists in `version`.
    pub fn available(&self, version: Version) -> bool {
        let range = match version.kind {
            ShaderKind::Vertex => self.vs,
            ShaderKind::Pixel => self.ps,
        };
        range.is_some_and(|(lo, hi)| (lo..=hi).contains(&version.level()))
    }
    /// Number of parameter tokens (without relative-address and predicate
    /// tokens) an SM1 instruction of this form has: destination, sources,
    /// and the `dcl` token or `def` immediates.
    pub fn sm1_length(&self) -> usize {
        let params = usize::from(self.dst.is_some()) + self.srcs.len();
        match self.shape {
            Shape::Plain => params,
            Shape::Dcl => params + 1,
            Shape::Def(n) => params + usize::from(n),
        }
    }
    /// The versions it exists in, as the documentation writes them, e.g.
    /// `vs_2_0 .. vs_3_0, ps_2_x .. ps_3_0`.
    pub fn versions_text(&self) -> String {
        let mut parts = Vec::new();
        for (kind, range) in [("vs", self.vs), ("ps", self.ps)] {
            if let Some((lo, hi)) = range {
                if lo == hi {
                    parts.push(format!("{kind}_{}", lo.name()));
                } else {
                    parts.push(format!("{kind}_{} .. {kind}_{}", lo.name(), hi.name()));
                }
            }
        }
        parts.join(", ")
    }
}

const V: SrcKind = SrcKind::Value;
const ALL: Option<(Level, Level)> = Some((L1_0, L3_0));
const NO: Option<(Level, Level)> = None;
const fn from(l: Level) -> Option<(Level, Level)> {
    Some((l, L3_0))
}
const fn only(lo: Level, hi: Level) -> Option<(Level, Level)> {
    Some((lo, hi))
}

macro_rules! form {
    ($code:expr, $op:ident, $name:literal, $vs:expr, $ps:expr, $dst:expr, [$($src:expr),*], $shape:expr, $control:ident, $class:ident, $slots:expr) => {
        Form {
            code: $code,
            op: Op::$op,
            name: $name,
            vs: $vs,
            ps: $ps,
            dst: $dst,
            srcs: &[$($src),*],
            shape: $shape,
            control: Control::$control,
            class: Class::$class,
            slots: $slots,
        }
    };
}

const D: Option<DstKind> = Some(DstKind::Value);
const TD: Option<DstKind> = Some(DstKind::TexAddr);
const N: Option<DstKind> = None;
const P: Shape = Shape::Plain;

/// Every form of every opcode. Where one number means different things by
/// version (SINCOS, SGN, TEX, TEXCOORD) each meaning is its own row.
#[rustfmt::skip]
pub static FORMS: &[Form] = &[
    form!(0x00, Nop, "nop", ALL, ALL, N, [], P, None, Arith, 1),
    form!(0x01, Mov, "mov", ALL, ALL, D, [V], P, None, Arith, 1),
    form!(0x02, Add, "add", ALL, ALL, D, [V, V], P, None, Arith, 1),
    form!(0x03, Sub, "sub", ALL, ALL, D, [V, V], P, None, Arith, 1),
    form!(0x04, Mad, "mad", ALL, ALL, D, [V, V, V], P, None, Arith, 1),
    form!(0x05, Mul, "mul", ALL, ALL, D, [V, V], P, None, Arith, 1),
    form!(0x06, Rcp, "rcp", ALL, from(L2_0), D, [V], P, None, Arith, 1),
    form!(0x07, Rsq, "rsq", ALL, from(L2_0), D, [V], P, None, Arith, 1),
    form!(0x08, Dp3, "dp3", ALL, ALL, D, [V, V], P, None, Arith, 1),
    form!(0x09, Dp4, "dp4", ALL, from(L1_2), D, [V, V], P, None, Arith, 1),
    form!(0x0a, Min, "min", ALL, from(L2_0), D, [V, V], P, None, Arith, 1),
    form!(0x0b, Max, "max", ALL, from(L2_0), D, [V, V], P, None, Arith, 1),
    form!(0x0c, Slt, "slt", ALL, NO, D, [V, V], P, None, Arith, 1),
    form!(0x0d, Sge, "sge", ALL, NO, D, [V, V], P, None, Arith, 1),
    form!(0x0e, Exp, "exp", ALL, from(L2_0), D, [V], P, None, Arith, 1),
    form!(0x0f, Log, "log", ALL, from(L2_0), D, [V], P, None, Arith, 1),
    form!(0x10, Lit, "lit", ALL, NO, D, [V], P, None, Arith, 1),
    form!(0x11, Dst, "dst", ALL, NO, D, [V, V], P, None, Arith, 1),
    form!(0x12, Lrp, "lrp", from(L2_0), ALL, D, [V, V, V], P, None, Arith, 2),
    form!(0x13, Frc, "frc", ALL, from(L2_0), D, [V], P, None, Arith, 1),
    form!(0x14, M4x4, "m4x4", ALL, from(L2_0), D, [V, V], P, None, Arith, 4),
    form!(0x15, M4x3, "m4x3", ALL, from(L2_0), D, [V, V], P, None, Arith, 3),
    form!(0x16, M3x4, "m3x4", ALL, from(L2_0), D, [V, V], P, None, Arith, 4),
    form!(0x17, M3x3, "m3x3", ALL, from(L2_0), D, [V, V], P, None, Arith, 3),
    form!(0x18, M3x2, "m3x2", ALL, from(L2_0), D, [V, V], P, None, Arith, 2),
    form!(0x19, Call, "call", from(L2_0), from(L2_X), N, [SrcKind::Label], P, None, Flow, 2),
    form!(0x1a, CallNz, "callnz", from(L2_0), from(L2_X), N, [SrcKind::Label, SrcKind::Condition], P, None, Flow, 3),
    form!(0x1b, Loop, "loop", from(L2_0), from(L3_0), N, [SrcKind::LoopCounter, SrcKind::Int], P, None, Flow, 3),
    form!(0x1c, Ret, "ret", from(L2_0), from(L2_X), N, [], P, None, Flow, 1),
    form!(0x1d, EndLoop, "endloop", from(L2_0), from(L3_0), N, [], P, None, Flow, 2),
    form!(0x1e, Label, "label", from(L2_0), from(L2_X), N, [SrcKind::Label], P, None, Flow, 0),
    form!(0x1f, Dcl, "dcl", ALL, from(L2_0), Some(DstKind::Declared), [], Shape::Dcl, None, Setup, 0),
    form!(0x20, Pow, "pow", from(L2_0), from(L2_0), D, [V, V], P, None, Arith, 3),
    form!(0x21, Crs, "crs", from(L2_0), from(L2_0), D, [V, V], P, None, Arith, 2),
    form!(0x22, Sgn, "sgn", only(L2_0, L2_X), NO, D, [V, V, V], P, None, Arith, 3),
    form!(0x22, Sgn, "sgn", from(L3_0), NO, D, [V], P, None, Arith, 3),
    form!(0x23, Abs, "abs", from(L2_0), from(L2_0), D, [V], P, None, Arith, 1),
    form!(0x24, Nrm, "nrm", from(L2_0), from(L2_0), D, [V], P, None, Arith, 3),
    form!(0x25, SinCos, "sincos", only(L2_0, L2_X), only(L2_0, L2_X), D, [V, V, V], P, None, Arith, 8),
    form!(0x25, SinCos, "sincos", from(L3_0), from(L3_0), D, [V], P, None, Arith, 8),
    form!(0x26, Rep, "rep", from(L2_0), from(L2_X), N, [SrcKind::Int], P, None, Flow, 3),
    form!(0x27, EndRep, "endrep", from(L2_0), from(L2_X), N, [], P, None, Flow, 2),
    form!(0x28, If, "if", from(L2_0), from(L2_X), N, [SrcKind::Condition], P, None, Flow, 3),
    form!(0x29, Ifc, "if", from(L2_X), from(L2_X), N, [V, V], P, Comparison, Flow, 3),
    form!(0x2a, Else, "else", from(L2_0), from(L2_X), N, [], P, None, Flow, 1),
    form!(0x2b, EndIf, "endif", from(L2_0), from(L2_X), N, [], P, None, Flow, 1),
    form!(0x2c, Break, "break", from(L2_X), from(L2_X), N, [], P, None, Flow, 1),
    form!(0x2d, BreakC, "break", from(L2_X), from(L2_X), N, [V, V], P, Comparison, Flow, 3),
    form!(0x2e, Mova, "mova", from(L2_0), NO, Some(DstKind::Address), [V], P, None, Arith, 1),
    form!(0x2f, DefB, "defb", from(L2_0), from(L2_X), Some(DstKind::Defined), [], Shape::Def(1), None, Setup, 0),
    form!(0x30, DefI, "defi", from(L2_0), from(L2_X), Some(DstKind::Defined), [], Shape::Def(4), None, Setup, 0),
    form!(0x40, TexCoord, "texcoord", NO, only(L1_0, L1_3), TD, [], P, None, Texture, 1),
    form!(0x40, TexCrd, "texcrd", NO, only(L1_4, L1_4), TD, [V], P, None, Texture, 1),
    form!(0x41, TexKill, "texkill", NO, ALL, Some(DstKind::Kill), [], P, None, Texture, 1),
    form!(0x42, Tex, "tex", NO, only(L1_0, L1_3), TD, [], P, None, Texture, 1),
    form!(0x42, TexLd14, "texld", NO, only(L1_4, L1_4), TD, [V], P, None, Texture, 1),
    form!(0x42, TexLd, "texld", NO, from(L2_0), D, [V, SrcKind::Sampler], P, TexLd, Texture, 1),
    form!(0x43, TexBem, "texbem", NO, only(L1_0, L1_3), TD, [V], P, None, Texture, 1),
    form!(0x44, TexBemL, "texbeml", NO, only(L1_0, L1_3), TD, [V], P, None, Texture, 2),
    form!(0x45, TexReg2Ar, "texreg2ar", NO, only(L1_0, L1_3), TD, [V], P, None, Texture, 1),
    form!(0x46, TexReg2Gb, "texreg2gb", NO, only(L1_2, L1_3), TD, [V], P, None, Texture, 1),
    form!(0x47, TexM3x2Pad, "texm3x2pad", NO, only(L1_0, L1_3), TD, [V], P, None, Texture, 1),
    form!(0x48, TexM3x2Tex, "texm3x2tex", NO, only(L1_0, L1_3), TD, [V], P, None, Texture, 1),
    form!(0x49, TexM3x3Pad, "texm3x3pad", NO, only(L1_0, L1_3), TD, [V], P, None, Texture, 1),
    form!(0x4a, TexM3x3Tex, "texm3x3tex", NO, only(L1_0, L1_3), TD, [V], P, None, Texture, 1),
    form!(0x4c, TexM3x3Spec, "texm3x3spec", NO, only(L1_0, L1_3), TD, [V, V], P, None, Texture, 1),
    form!(0x4d, TexM3x3VSpec, "texm3x3vspec", NO, only(L1_0, L1_3), TD, [V], P, None, Texture, 1),
    form!(0x4e, ExpP, "expp", ALL, NO, D, [V], P, None, Arith, 1),
    form!(0x4f, LogP, "logp", ALL, NO, D, [V], P, None, Arith, 1),
    form!(0x50, Cnd, "cnd", NO, only(L1_0, L1_4), D, [V, V, V], P, None, Arith, 1),
    form!(0x51, Def, "def", ALL, ALL, Some(DstKind::Defined), [], Shape::Def(4), None, Setup, 0),
    form!(0x52, TexReg2Rgb, "texreg2rgb", NO, only(L1_2, L1_3), TD, [V], P, None, Texture, 1),
    form!(0x53, TexDp3Tex, "texdp3tex", NO, only(L1_2, L1_3), TD, [V], P, None, Texture, 1),
    form!(0x54, TexM3x2Depth, "texm3x2depth", NO, only(L1_3, L1_3), TD, [V], P, None, Texture, 1),
    form!(0x55, TexDp3, "texdp3", NO, only(L1_2, L1_3), TD, [V], P, None, Texture, 1),
    form!(0x56, TexM3x3, "texm3x3", NO, only(L1_2, L1_3), TD, [V], P, None, Texture, 1),
    form!(0x57, TexDepth, "texdepth", NO, only(L1_4, L1_4), TD, [], P, None, Texture, 1),
    form!(0x58, Cmp, "cmp", NO, from(L1_2), D, [V, V, V], P, None, Arith, 1),
    form!(0x59, Bem, "bem", NO, only(L1_4, L1_4), D, [V, V], P, None, Arith, 2),
    form!(0x5a, Dp2Add, "dp2add", NO, from(L2_0), D, [V, V, V], P, None, Arith, 2),
    form!(0x5b, Dsx, "dsx", NO, from(L2_X), D, [V], P, None, Arith, 2),
    form!(0x5c, Dsy, "dsy", NO, from(L2_X), D, [V], P, None, Arith, 2),
    form!(0x5d, TexLdd, "texldd", NO, from(L2_X), D, [V, SrcKind::Sampler, V, V], P, None, Texture, 3),
    form!(0x5e, Setp, "setp", from(L2_X), from(L2_X), Some(DstKind::Predicate), [V, V], P, Comparison, Flow, 1),
    form!(0x5f, TexLdl, "texldl", from(L3_0), from(L3_0), D, [V, SrcKind::Sampler], P, None, Texture, 2),
    form!(0x60, BreakP, "breakp", from(L2_X), from(L2_X), N, [SrcKind::Predicate], P, None, Flow, 3),
    form!(0xfffd, Phase, "phase", NO, only(L1_4, L1_4), N, [], P, None, Setup, 0),
];

/// The comment token's opcode: bits 16-30 are the length of the comment.
pub const COMMENT: u16 = 0xfffe;
/// The end token.
pub const END: u32 = 0x0000_ffff;

/// The form of `code` in `version`, if it exists there.
pub fn form(code: u16, version: Version) -> Option<&'static Form> {
    FORMS
        .iter()
        .find(|f| f.code == code && f.available(version))
}

/// Any form of `code` for this shader kind (the closest by level first),
/// whether or not `version` has it: what an instruction the version lacks
/// would be, so the rest can still be decoded and the error say where the
/// instruction exists.
pub fn any_form(code: u16, version: Version) -> Option<&'static Form> {
    if let Some(f) = form(code, version) {
        return Some(f);
    }
    let level = version.level();
    let distance = |f: &Form| -> u32 {
        let range = match version.kind {
            ShaderKind::Vertex => f.vs.or(f.ps),
            ShaderKind::Pixel => f.ps.or(f.vs),
        };
        let Some((lo, hi)) = range else {
            return u32::MAX;
        };
        let key = |l: Level| u32::from(l.0) * 16 + u32::from(l.1);
        let v = key(level);
        if v < key(lo) {
            key(lo) - v
        } else {
            v.saturating_sub(key(hi))
        }
    };
    FORMS
        .iter()
        .filter(|f| f.code == code)
        .min_by_key(|f| distance(f))
}

/// Instruction slots of a form in `version`: the instruction lists'
/// column, with vs_1_1's macro expansions (exp and log 10, frc and lit 3;
/// "Instructions - vs_1_1").
pub fn slots(form: &Form, version: Version) -> u32 {
    if version.is_vertex() && version.level() == L1_1 {
        match form.op {
            Op::Exp | Op::Log => return 10,
            Op::Frc | Op::Lit => return 3,
            _ => {}
        }
    }
    u32::from(form.slots)
}

/// The register types (D3DSHADER_PARAM_REGISTER_TYPE, FACTS §7), with the
/// two numbers whose meaning depends on the shader resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(missing_docs)]
pub enum RegType {
    /// `r#`.
    Temp,
    /// `v#`.
    Input,
    /// `c#` (CONST, CONST2-4 fold into numbers 0-8191).
    Const,
    /// `a0` (vertex shaders; type 3).
    Addr,
    /// `t#` (pixel shaders; type 3).
    Texture,
    /// `oPos` (0), `oFog` (1), `oPts` (2).
    RastOut,
    /// `oD#`.
    AttrOut,
    /// `oT#` (vertex shaders before 3_0; type 6).
    TexCrdOut,
    /// `o#` (vs_3_0; type 6).
    Output,
    /// `i#`.
    ConstInt,
    /// `oC#`.
    ColorOut,
    /// `oDepth`.
    DepthOut,
    /// `s#`.
    Sampler,
    /// `b#`.
    ConstBool,
    /// `aL`.
    Loop,
    /// `half#` (TEMPFLOAT16; no compiler writes it).
    TempFloat16,
    /// `vPos` (0), `vFace` (1).
    MiscType,
    /// `l#`.
    Label,
    /// `p0`.
    Predicate,
}

impl RegType {
    /// The type of encoded number `n` (bits 28-30 and 11-12) in this
    /// version, and the register-number offset (CONST2-4 number from 2048,
    /// 4096, 6144).
    ///
    /// ```
    /// use nvp4c::front::d3d9::table::{RegType, Version};
    /// assert_eq!(RegType::decode(3, Version::vertex(2, 0)), Some((RegType::Addr, 0)));
    /// assert_eq!(RegType::decode(3, Version::pixel(2, 0)), Some((RegType::Texture, 0)));
    /// assert_eq!(RegType::decode(12, Version::vertex(3, 0)), Some((RegType::Const, 4096)));
    /// assert_eq!(RegType::decode(20, Version::vertex(3, 0)), None);
    /// ```
    pub fn decode(n: u32, version: Version) -> Option<(RegType, u32)> {
        let vertex = version.is_vertex();
        Some(match n {
            0 => (RegType::Temp, 0),
            1 => (RegType::Input, 0),
            2 => (RegType::Const, 0),
            3 if vertex => (RegType::Addr, 0),
            3 => (RegType::Texture, 0),
            4 => (RegType::RastOut, 0),
            5 => (RegType::AttrOut, 0),
            6 if vertex && version.major >= 3 => (RegType::Output, 0),
            6 => (RegType::TexCrdOut, 0),
            7 => (RegType::ConstInt, 0),
            8 => (RegType::ColorOut, 0),
            9 => (RegType::DepthOut, 0),
            10 => (RegType::Sampler, 0),
            11 => (RegType::Const, 2048),
            12 => (RegType::Const, 4096),
            13 => (RegType::Const, 6144),
            14 => (RegType::ConstBool, 0),
            15 => (RegType::Loop, 0),
            16 => (RegType::TempFloat16, 0),
            17 => (RegType::MiscType, 0),
            18 => (RegType::Label, 0),
            19 => (RegType::Predicate, 0),
            _ => return None,
        })
    }
    /// The encoded type number of register `num` of this type, and the
    /// number to encode (for CONST2-4, `num` less 2048·k).
    ///
    /// ```
    /// use nvp4c::front::d3d9::table::RegType;
    /// assert_eq!(RegType::Const.encode(2050), (11, 2));
    /// assert_eq!(RegType::Texture.encode(1), (3, 1));
    /// ```
    pub fn encode(self, num: u32) -> (u32, u32) {
        match self {
            RegType::Temp => (0, num),
            RegType::Input => (1, num),
            RegType::Const => match num / 2048 {
                0 => (2, num),
                k => (10 + k.min(3), num - 2048 * k.min(3)),
            },
            RegType::Addr | RegType::Texture => (3, num),
            RegType::RastOut => (4, num),
            RegType::AttrOut => (5, num),
            RegType::TexCrdOut | RegType::Output => (6, num),
            RegType::ConstInt => (7, num),
            RegType::ColorOut => (8, num),
            RegType::DepthOut => (9, num),
            RegType::Sampler => (10, num),
            RegType::ConstBool => (14, num),
            RegType::Loop => (15, num),
            RegType::TempFloat16 => (16, num),
            RegType::MiscType => (17, num),
            RegType::Label => (18, num),
            RegType::Predicate => (19, num),
        }
    }
}

/// A source modifier (FACTS §4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum SrcMod {
    None,
    Neg,
    Bias,
    BiasNeg,
    Sign,
    SignNeg,
    Comp,
    X2,
    X2Neg,
    Dz,
    Dw,
    Abs,
    AbsNeg,
    Not,
}

impl SrcMod {
    /// The modifier of encoded value `n` (bits 24-27).
    pub fn decode(n: u32) -> Option<SrcMod> {
        Some(match n {
            0 => SrcMod::None,
            1 => SrcMod::Neg,
            2 => SrcMod::Bias,
            3 => SrcMod::BiasNeg,
            4 => SrcMod::Sign,
            5 => SrcMod::SignNeg,
            6 => SrcMod::Comp,
            7 => SrcMod::X2,
            8 => SrcMod::X2Neg,
            9 => SrcMod::Dz,
            10 => SrcMod::Dw,
            11 => SrcMod::Abs,
            12 => SrcMod::AbsNeg,
            13 => SrcMod::Not,
            _ => return None,
        })
    }
    /// The encoded value.
    pub fn encode(self) -> u32 {
        self as u32
    }
    /// Whether it negates after its own operation.
    pub fn negates(self) -> bool {
        matches!(
            self,
            SrcMod::Neg | SrcMod::BiasNeg | SrcMod::SignNeg | SrcMod::X2Neg | SrcMod::AbsNeg
        )
    }
    /// The modifier without its negation.
    pub fn base(self) -> SrcMod {
        match self {
            SrcMod::Neg => SrcMod::None,
            SrcMod::BiasNeg => SrcMod::Bias,
            SrcMod::SignNeg => SrcMod::Sign,
            SrcMod::X2Neg => SrcMod::X2,
            SrcMod::AbsNeg => SrcMod::Abs,
            m => m,
        }
    }
    /// Whether only ps_1_x has it (bias, bx2, 1-, x2, dz, dw).
    pub fn is_ps1x(self) -> bool {
        matches!(
            self.base(),
            SrcMod::Bias | SrcMod::Sign | SrcMod::Comp | SrcMod::X2 | SrcMod::Dz | SrcMod::Dw
        )
    }
}

/// A comparison of `if_*`, `break_*`, `setp_*` (FACTS §6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Comparison {
    Gt,
    Eq,
    Ge,
    Lt,
    Ne,
    Le,
}

impl Comparison {
    /// The comparison of control value `n`.
    pub fn decode(n: u32) -> Option<Comparison> {
        Some(match n {
            1 => Comparison::Gt,
            2 => Comparison::Eq,
            3 => Comparison::Ge,
            4 => Comparison::Lt,
            5 => Comparison::Ne,
            6 => Comparison::Le,
            _ => return None,
        })
    }
    /// The control value.
    pub fn encode(self) -> u32 {
        match self {
            Comparison::Gt => 1,
            Comparison::Eq => 2,
            Comparison::Ge => 3,
            Comparison::Lt => 4,
            Comparison::Ne => 5,
            Comparison::Le => 6,
        }
    }
    /// The asm suffix without the underscore: `gt`.
    pub fn name(self) -> &'static str {
        match self {
            Comparison::Gt => "gt",
            Comparison::Eq => "eq",
            Comparison::Ge => "ge",
            Comparison::Lt => "lt",
            Comparison::Ne => "ne",
            Comparison::Le => "le",
        }
    }
    /// Every comparison.
    pub const ALL: [Comparison; 6] = [
        Comparison::Gt,
        Comparison::Eq,
        Comparison::Ge,
        Comparison::Lt,
        Comparison::Ne,
        Comparison::Le,
    ];
}

/// D3DDECLUSAGE (FACTS §8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[allow(missing_docs)]
pub enum Usage {
    Position,
    BlendWeight,
    BlendIndices,
    Normal,
    PSize,
    TexCoord,
    Tangent,
    Binormal,
    TessFactor,
    PositionT,
    Color,
    Fog,
    Depth,
    Sample,
}

impl Usage {
    /// The usage of value `n` (bits 0-4 of the declaration token).
    pub fn decode(n: u32) -> Option<Usage> {
        Some(match n {
            0 => Usage::Position,
            1 => Usage::BlendWeight,
            2 => Usage::BlendIndices,
            3 => Usage::Normal,
            4 => Usage::PSize,
            5 => Usage::TexCoord,
            6 => Usage::Tangent,
            7 => Usage::Binormal,
            8 => Usage::TessFactor,
            9 => Usage::PositionT,
            10 => Usage::Color,
            11 => Usage::Fog,
            12 => Usage::Depth,
            13 => Usage::Sample,
            _ => return None,
        })
    }
    /// The encoded value.
    pub fn encode(self) -> u32 {
        self as u32
    }
    /// The `dcl_` suffix: `position`, `texcoord`, `blendweight`.
    pub fn name(self) -> &'static str {
        match self {
            Usage::Position => "position",
            Usage::BlendWeight => "blendweight",
            Usage::BlendIndices => "blendindices",
            Usage::Normal => "normal",
            Usage::PSize => "psize",
            Usage::TexCoord => "texcoord",
            Usage::Tangent => "tangent",
            Usage::Binormal => "binormal",
            Usage::TessFactor => "tessfactor",
            Usage::PositionT => "positiont",
            Usage::Color => "color",
            Usage::Fog => "fog",
            Usage::Depth => "depth",
            Usage::Sample => "sample",
        }
    }
    /// Every usage.
    pub const ALL: [Usage; 14] = [
        Usage::Position,
        Usage::BlendWeight,
        Usage::BlendIndices,
        Usage::Normal,
        Usage::PSize,
        Usage::TexCoord,
        Usage::Tangent,
        Usage::Binormal,
        Usage::TessFactor,
        Usage::PositionT,
        Usage::Color,
        Usage::Fog,
        Usage::Depth,
        Usage::Sample,
    ];
}

/// D3DSAMPLER_TEXTURE_TYPE of a `dcl_*` sampler declaration (bits 27-30).
/// Serialized as its `dcl_` suffix ([`SamplerType::name`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[allow(missing_docs)]
pub enum SamplerType {
    /// 0: not declared (ps_1_x stages, or a `dcl` without a type).
    #[serde(rename = "unknown")]
    Unknown,
    /// 1 (vkd3d's extension; not in Microsoft's enumeration).
    #[serde(rename = "1d")]
    T1D,
    #[serde(rename = "2d")]
    T2D,
    #[serde(rename = "cube")]
    Cube,
    #[serde(rename = "volume")]
    Volume,
}

impl SamplerType {
    /// The type of value `n`.
    pub fn decode(n: u32) -> Option<SamplerType> {
        Some(match n {
            0 => SamplerType::Unknown,
            1 => SamplerType::T1D,
            2 => SamplerType::T2D,
            3 => SamplerType::Cube,
            4 => SamplerType::Volume,
            _ => return None,
        })
    }
    /// The encoded value.
    pub fn encode(self) -> u32 {
        match self {
            SamplerType::Unknown => 0,
            SamplerType::T1D => 1,
            SamplerType::T2D => 2,
            SamplerType::Cube => 3,
            SamplerType::Volume => 4,
        }
    }
    /// The `dcl_` suffix: `2d`, `cube`, `volume`.
    pub fn name(self) -> &'static str {
        match self {
            SamplerType::Unknown => "unknown",
            SamplerType::T1D => "1d",
            SamplerType::T2D => "2d",
            SamplerType::Cube => "cube",
            SamplerType::Volume => "volume",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_opcode_has_one_form_per_version() {
        for kind in [ShaderKind::Vertex, ShaderKind::Pixel] {
            for (major, minor) in [(1, 1), (1, 2), (1, 3), (1, 4), (2, 0), (2, 1), (3, 0)] {
                let v = Version { kind, major, minor };
                for code in FORMS.iter().map(|f| f.code) {
                    let n = FORMS
                        .iter()
                        .filter(|f| f.code == code && f.available(v))
                        .count();
                    assert!(n <= 1, "{code:#x} has {n} forms in {v}");
                }
            }
        }
    }

    #[test]
    fn register_types_round_trip() {
        for n in 0..20 {
            let v = if n == 3 {
                Version::vertex(3, 0)
            } else {
                Version::pixel(3, 0)
            };
            let (ty, base) = RegType::decode(n, v).unwrap();
            assert_eq!(ty.encode(base + 5), (n, 5));
        }
    }
}
