//! The instruction table of NV_gpu_program4 (Table X.13, section 2.X.4) and
//! the program types built on it.
//!
//! This table is the one place that says what an opcode is: its operand
//! shapes (the grammar class of section 2.X.2), which modifiers it accepts,
//! its default data type and the fixed types of its operands and result.
//! The lexer, parser, checker, backend and interpreter all read it, so they
//! cannot drift apart.

use std::fmt;

/// Program type, chosen by the header (`!!NVvp4.0`, `!!NVfp4.0`, `!!NVgp4.0`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Stage {
    Vertex,
    Fragment,
    Geometry,
}

impl Stage {
    pub fn header(self) -> &'static str {
        match self {
            Stage::Vertex => "!!NVvp4.0",
            Stage::Fragment => "!!NVfp4.0",
            Stage::Geometry => "!!NVgp4.0",
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Stage::Vertex => "vertex",
            Stage::Fragment => "fragment",
            Stage::Geometry => "geometry",
        }
    }
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The data type an instruction operates on (section 2.X.4.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum DataType {
    /// `.F`, `R`, `H`: 32-bit IEEE float.
    Float,
    /// `.S`: signed 32-bit integer.
    Signed,
    /// `.U`: unsigned 32-bit integer.
    Unsigned,
}

impl DataType {
    pub fn is_integer(self) -> bool {
        !matches!(self, DataType::Float)
    }
    pub fn name(self) -> &'static str {
        match self {
            DataType::Float => "FLOAT",
            DataType::Signed => "INT",
            DataType::Unsigned => "UINT",
        }
    }
}

/// How an operand's or result's data type is decided (Table X.13 columns
/// "Out" and "Inputs").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypeRule {
    /// `v`, `s`: the instruction's data type.
    Inherit,
    /// `vf`: always floating-point.
    Float,
    /// `vs`: always signed integer.
    Signed,
    /// `vu`: always unsigned integer.
    Unsigned,
}

impl TypeRule {
    pub fn resolve(self, op_type: DataType) -> DataType {
        match self {
            TypeRule::Inherit => op_type,
            TypeRule::Float => DataType::Float,
            TypeRule::Signed => DataType::Signed,
            TypeRule::Unsigned => DataType::Unsigned,
        }
    }
}

/// The form of one operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OperandKind {
    /// A four-component vector (`<instOperandV>`).
    Vector(TypeRule),
    /// A scalar selected with a one-component suffix (`<instOperandS>`).
    Scalar(TypeRule),
}

impl OperandKind {
    pub fn type_rule(self) -> TypeRule {
        match self {
            OperandKind::Vector(t) | OperandKind::Scalar(t) => t,
        }
    }
    pub fn is_scalar(self) -> bool {
        matches!(self, OperandKind::Scalar(_))
    }
}

/// The result an instruction writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultKind {
    None,
    /// A vector result; each enabled component gets its own value.
    Vector(TypeRule),
    /// A scalar result, replicated to every enabled component.
    Scalar(TypeRule),
}

/// The grammar class of an instruction (section 2.X.2, `<VECTORop>` and so
/// on). It fixes the operand list the parser accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `op result, operands...` with the kinds of `OpInfo::inputs`.
    Alu,
    /// `SWZ result, operandVNS, extendedSwizzle`.
    Swz,
    /// `op result, operandV, texAccess` (TEX TXB TXF TXL TXP TXQ).
    Tex,
    /// `TXD result, operandV, operandV, operandV, texAccess`.
    Txd,
    /// `CAL label (ccMask)?`.
    Call,
    /// `RET`, `BRK`, `CONT` with an optional `(ccTest)`.
    FlowCc,
    /// `IF ccTest`.
    If,
    /// `REP operandV?`.
    Rep,
    /// `ELSE`, `ENDIF`, `ENDREP`.
    EndFlow,
    /// `KIL operandV` or `KIL ccTest` (NV_fragment_program4).
    Kil,
    /// `EMIT`, `ENDPRIM` (NV_geometry_program4).
    Primitive,
}

/// The modifier groups of Table X.13 ("F I C S H D" columns).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModifierSupport {
    /// F: `.F`, `R`, `H`.
    pub float: bool,
    /// I: `.S`, `.U`.
    pub integer: bool,
    /// C: `.CC`, `.CC0`, `.CC1`, `C`, `C0`, `C1`.
    pub cc: bool,
    /// S: `.SAT`, `.SSAT`, `_SAT`, `_SSAT`.
    pub clamp: bool,
    /// H: the `H` suffix.
    pub half: bool,
}

/// Every opcode of NV_gpu_program4 and the vp4/fp4/gp4 additions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Opcode {
    Abs,
    Add,
    And,
    Brk,
    Cal,
    Ceil,
    Cmp,
    Cont,
    Cos,
    Ddx,
    Ddy,
    Div,
    Dp2,
    Dp2a,
    Dp3,
    Dp4,
    Dph,
    Dst,
    Else,
    Emit,
    Endif,
    Endprim,
    Endrep,
    Ex2,
    Flr,
    Frc,
    I2f,
    If,
    Kil,
    Lg2,
    Lit,
    Lrp,
    Mad,
    Max,
    Min,
    Mod,
    Mov,
    Mul,
    Not,
    Nrm,
    Or,
    Pk2h,
    Pk2us,
    Pk4b,
    Pk4ub,
    Pow,
    Rcc,
    Rcp,
    Rep,
    Ret,
    Rfl,
    Round,
    Rsq,
    Sad,
    Scs,
    Seq,
    Sfl,
    Sge,
    Sgt,
    Shl,
    Shr,
    Sin,
    Sle,
    Slt,
    Sne,
    Ssg,
    Str,
    Sub,
    Swz,
    Tex,
    Trunc,
    Txb,
    Txd,
    Txf,
    Txl,
    Txp,
    Txq,
    Up2h,
    Up2us,
    Up4b,
    Up4ub,
    X2d,
    Xor,
    Xpd,
}

/// One row of the instruction table.
#[derive(Debug)]
pub struct OpInfo {
    pub opcode: Opcode,
    pub name: &'static str,
    pub shape: Shape,
    pub modifiers: ModifierSupport,
    /// Table X.13 column D: the data type when no type modifier is given.
    pub default_type: DataType,
    pub result: ResultKind,
    pub inputs: &'static [OperandKind],
    /// `None` when every program type has it.
    pub only_stage: Option<Stage>,
    /// Where the spec describes it.
    pub section: &'static str,
    pub summary: &'static str,
}

impl OpInfo {
    pub fn lookup(name: &str) -> Option<&'static OpInfo> {
        INSTRUCTIONS.iter().find(|i| i.name == name)
    }
    pub fn of(opcode: Opcode) -> &'static OpInfo {
        // The table is ordered like the enum, so this is an index; the
        // assertion in the tests keeps the two in step.
        &INSTRUCTIONS[opcode as usize]
    }
    /// Whether the instruction writes a floating-point result (the only
    /// kind that may be clamped, section 2.X.4.1).
    pub fn result_type(&self, op_type: DataType) -> Option<DataType> {
        match self.result {
            ResultKind::None => None,
            ResultKind::Vector(t) | ResultKind::Scalar(t) => Some(t.resolve(op_type)),
        }
    }
    pub fn has_result(&self) -> bool {
        !matches!(self.result, ResultKind::None)
    }

    /// The modifiers the instruction accepts, one group per kind, each as
    /// its stand-alone forms (Table X.14) and its suffix forms (Table X.15).
    /// Messages and editor hovers list them from here.
    pub fn modifier_groups(&self) -> Vec<(&'static [&'static str], &'static [&'static str])> {
        let m = self.modifiers;
        let mut groups: Vec<(&'static [&'static str], &'static [&'static str])> = Vec::new();
        if m.float {
            groups.push((&["F"], &["R"]));
        }
        if m.half {
            groups.push((&[], &["H"]));
        }
        if m.integer {
            groups.push((&["S", "U"], &[]));
        }
        if m.cc {
            groups.push((&["CC", "CC0", "CC1"], &["C", "C0", "C1"]));
        }
        if m.clamp {
            groups.push((&["SAT", "SSAT"], &["_SAT", "_SSAT"]));
        }
        // Section 2.X.4.1: S24, U24 and HI are for MUL only.
        if self.opcode == Opcode::Mul {
            groups.push((&["S24", "U24", "HI"], &[]));
        }
        groups
    }
}

impl Opcode {
    pub fn info(self) -> &'static OpInfo {
        OpInfo::of(self)
    }
    pub fn name(self) -> &'static str {
        self.info().name
    }
}

impl fmt::Display for Opcode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

const fn m(float: bool, integer: bool, cc: bool, clamp: bool, half: bool) -> ModifierSupport {
    ModifierSupport {
        float,
        integer,
        cc,
        clamp,
        half,
    }
}

/// Modifier sets that recur in Table X.13.
const FICSH: ModifierSupport = m(true, true, true, true, true);
const F_CSH: ModifierSupport = m(true, false, true, true, true);
const _IC__: ModifierSupport = m(false, true, true, false, false);
const FICS_: ModifierSupport = m(true, true, true, true, false);
const FI___: ModifierSupport = m(true, true, false, false, false);
const FI__H: ModifierSupport = m(true, true, false, false, true);
const NONE: ModifierSupport = m(false, false, false, false, false);

use DataType::{Float as F, Signed as S};
use OperandKind::{Scalar as Sc, Vector as Vc};
use TypeRule::{Float as TF, Inherit as TI, Signed as TS, Unsigned as TU};

const V: OperandKind = Vc(TI);
const VF: OperandKind = Vc(TF);
const VS: OperandKind = Vc(TS);
const VU: OperandKind = Vc(TU);
const SS: OperandKind = Sc(TI);
const RV: ResultKind = ResultKind::Vector(TI);
const RS: ResultKind = ResultKind::Scalar(TI);
const RN: ResultKind = ResultKind::None;

macro_rules! op {
    ($op:ident, $name:literal, $shape:ident, $mods:expr, $def:expr, $res:expr, [$($inp:expr),*], $stage:expr, $sec:literal, $sum:literal) => {
        OpInfo {
            opcode: Opcode::$op,
            name: $name,
            shape: Shape::$shape,
            modifiers: $mods,
            default_type: $def,
            result: $res,
            inputs: &[$($inp),*],
            only_stage: $stage,
            section: $sec,
            summary: $sum,
        }
    };
}

const FRAG: Option<Stage> = Some(Stage::Fragment);
const GEOM: Option<Stage> = Some(Stage::Geometry);
const ALL: Option<Stage> = None;

/// Table X.13, in the order of `Opcode`.
pub static INSTRUCTIONS: &[OpInfo] = &[
    op!(
        Abs,
        "ABS",
        Alu,
        FICSH,
        F,
        RV,
        [V],
        ALL,
        "2.X.8.Z, ABS",
        "absolute value"
    ),
    op!(
        Add,
        "ADD",
        Alu,
        FICSH,
        F,
        RV,
        [V, V],
        ALL,
        "2.X.8.Z, ADD",
        "add"
    ),
    op!(
        And,
        "AND",
        Alu,
        _IC__,
        S,
        RV,
        [V, V],
        ALL,
        "2.X.8.Z, AND",
        "bitwise and"
    ),
    op!(
        Brk,
        "BRK",
        FlowCc,
        NONE,
        F,
        RN,
        [],
        ALL,
        "2.X.8.Z, BRK",
        "break out of loop"
    ),
    op!(
        Cal,
        "CAL",
        Call,
        NONE,
        F,
        RN,
        [],
        ALL,
        "2.X.8.Z, CAL",
        "subroutine call"
    ),
    op!(
        Ceil,
        "CEIL",
        Alu,
        FICSH,
        F,
        RV,
        [VF],
        ALL,
        "2.X.8.Z, CEIL",
        "ceiling"
    ),
    op!(
        Cmp,
        "CMP",
        Alu,
        FICSH,
        F,
        RV,
        [V, V, V],
        ALL,
        "2.X.8.Z, CMP",
        "compare"
    ),
    op!(
        Cont,
        "CONT",
        FlowCc,
        NONE,
        F,
        RN,
        [],
        ALL,
        "2.X.8.Z, CONT",
        "continue with next loop iteration"
    ),
    op!(
        Cos,
        "COS",
        Alu,
        F_CSH,
        F,
        RS,
        [SS],
        ALL,
        "2.X.8.Z, COS",
        "cosine with reduction to [-PI,PI]"
    ),
    op!(
        Ddx,
        "DDX",
        Alu,
        F_CSH,
        F,
        RV,
        [V],
        FRAG,
        "2.X.8.Z, DDX",
        "partial derivative relative to X"
    ),
    op!(
        Ddy,
        "DDY",
        Alu,
        F_CSH,
        F,
        RV,
        [V],
        FRAG,
        "2.X.8.Z, DDY",
        "partial derivative relative to Y"
    ),
    op!(
        Div,
        "DIV",
        Alu,
        FICSH,
        F,
        RV,
        [V, SS],
        ALL,
        "2.X.8.Z, DIV",
        "divide vector components by scalar"
    ),
    op!(
        Dp2,
        "DP2",
        Alu,
        F_CSH,
        F,
        RS,
        [V, V],
        ALL,
        "2.X.8.Z, DP2",
        "2-component dot product"
    ),
    op!(
        Dp2a,
        "DP2A",
        Alu,
        F_CSH,
        F,
        RS,
        [V, V, V],
        ALL,
        "2.X.8.Z, DP2A",
        "2-component dot product with scalar add"
    ),
    op!(
        Dp3,
        "DP3",
        Alu,
        F_CSH,
        F,
        RS,
        [V, V],
        ALL,
        "2.X.8.Z, DP3",
        "3-component dot product"
    ),
    op!(
        Dp4,
        "DP4",
        Alu,
        F_CSH,
        F,
        RS,
        [V, V],
        ALL,
        "2.X.8.Z, DP4",
        "4-component dot product"
    ),
    op!(
        Dph,
        "DPH",
        Alu,
        F_CSH,
        F,
        RS,
        [V, V],
        ALL,
        "2.X.8.Z, DPH",
        "homogeneous dot product"
    ),
    op!(
        Dst,
        "DST",
        Alu,
        F_CSH,
        F,
        RV,
        [V, V],
        ALL,
        "2.X.8.Z, DST",
        "distance vector"
    ),
    op!(
        Else,
        "ELSE",
        EndFlow,
        NONE,
        F,
        RN,
        [],
        ALL,
        "2.X.8.Z, ELSE",
        "start if test else block"
    ),
    op!(
        Emit,
        "EMIT",
        Primitive,
        NONE,
        F,
        RN,
        [],
        GEOM,
        "NV_geometry_program4 2.X.8.Z, EMIT",
        "emit vertex"
    ),
    op!(
        Endif,
        "ENDIF",
        EndFlow,
        NONE,
        F,
        RN,
        [],
        ALL,
        "2.X.8.Z, ENDIF",
        "end if test block"
    ),
    op!(
        Endprim,
        "ENDPRIM",
        Primitive,
        NONE,
        F,
        RN,
        [],
        GEOM,
        "NV_geometry_program4 2.X.8.Z, ENDPRIM",
        "end of primitive"
    ),
    op!(
        Endrep,
        "ENDREP",
        EndFlow,
        NONE,
        F,
        RN,
        [],
        ALL,
        "2.X.8.Z, ENDREP",
        "end of repeat block"
    ),
    op!(
        Ex2,
        "EX2",
        Alu,
        F_CSH,
        F,
        RS,
        [SS],
        ALL,
        "2.X.8.Z, EX2",
        "exponential base 2"
    ),
    op!(
        Flr,
        "FLR",
        Alu,
        FICSH,
        F,
        RV,
        [VF],
        ALL,
        "2.X.8.Z, FLR",
        "floor"
    ),
    op!(
        Frc,
        "FRC",
        Alu,
        F_CSH,
        F,
        RV,
        [V],
        ALL,
        "2.X.8.Z, FRC",
        "fraction"
    ),
    op!(
        I2f,
        "I2F",
        Alu,
        _IC__,
        S,
        ResultKind::Vector(TF),
        [V],
        ALL,
        "2.X.8.Z, I2F",
        "integer to float"
    ),
    op!(
        If,
        "IF",
        If,
        NONE,
        F,
        RN,
        [],
        ALL,
        "2.X.8.Z, IF",
        "start of if test block"
    ),
    op!(
        Kil,
        "KIL",
        Kil,
        FI__H,
        F,
        RN,
        [V],
        FRAG,
        "NV_fragment_program4 2.X.8.Z, KIL",
        "kill fragment"
    ),
    op!(
        Lg2,
        "LG2",
        Alu,
        F_CSH,
        F,
        RS,
        [SS],
        ALL,
        "2.X.8.Z, LG2",
        "logarithm base 2"
    ),
    op!(
        Lit,
        "LIT",
        Alu,
        F_CSH,
        F,
        RV,
        [V],
        ALL,
        "2.X.8.Z, LIT",
        "compute lighting coefficients"
    ),
    op!(
        Lrp,
        "LRP",
        Alu,
        F_CSH,
        F,
        RV,
        [V, V, V],
        ALL,
        "2.X.8.Z, LRP",
        "linear interpolation"
    ),
    op!(
        Mad,
        "MAD",
        Alu,
        FICSH,
        F,
        RV,
        [V, V, V],
        ALL,
        "2.X.8.Z, MAD",
        "multiply and add"
    ),
    op!(
        Max,
        "MAX",
        Alu,
        FICSH,
        F,
        RV,
        [V, V],
        ALL,
        "2.X.8.Z, MAX",
        "maximum"
    ),
    op!(
        Min,
        "MIN",
        Alu,
        FICSH,
        F,
        RV,
        [V, V],
        ALL,
        "2.X.8.Z, MIN",
        "minimum"
    ),
    op!(
        Mod,
        "MOD",
        Alu,
        _IC__,
        S,
        RV,
        [V, SS],
        ALL,
        "2.X.8.Z, MOD",
        "modulus vector components by scalar"
    ),
    op!(
        Mov,
        "MOV",
        Alu,
        FICSH,
        F,
        RV,
        [V],
        ALL,
        "2.X.8.Z, MOV",
        "move"
    ),
    op!(
        Mul,
        "MUL",
        Alu,
        FICSH,
        F,
        RV,
        [V, V],
        ALL,
        "2.X.8.Z, MUL",
        "multiply"
    ),
    op!(
        Not,
        "NOT",
        Alu,
        _IC__,
        S,
        RV,
        [V],
        ALL,
        "2.X.8.Z, NOT",
        "bitwise not"
    ),
    op!(
        Nrm,
        "NRM",
        Alu,
        F_CSH,
        F,
        RV,
        [V],
        ALL,
        "2.X.8.Z, NRM",
        "normalize 3-component vector"
    ),
    op!(
        Or,
        "OR",
        Alu,
        _IC__,
        S,
        RV,
        [V, V],
        ALL,
        "2.X.8.Z, OR",
        "bitwise or"
    ),
    op!(
        Pk2h,
        "PK2H",
        Alu,
        FI___,
        F,
        RS,
        [VF],
        ALL,
        "2.X.8.Z, PK2H",
        "pack two 16-bit floats"
    ),
    op!(
        Pk2us,
        "PK2US",
        Alu,
        FI___,
        F,
        RS,
        [VF],
        ALL,
        "2.X.8.Z, PK2US",
        "pack two floats as unsigned 16-bit"
    ),
    op!(
        Pk4b,
        "PK4B",
        Alu,
        FI___,
        F,
        RS,
        [VF],
        ALL,
        "2.X.8.Z, PK4B",
        "pack four floats as signed 8-bit"
    ),
    op!(
        Pk4ub,
        "PK4UB",
        Alu,
        FI___,
        F,
        RS,
        [VF],
        ALL,
        "2.X.8.Z, PK4UB",
        "pack four floats as unsigned 8-bit"
    ),
    op!(
        Pow,
        "POW",
        Alu,
        F_CSH,
        F,
        RS,
        [SS, SS],
        ALL,
        "2.X.8.Z, POW",
        "exponentiate"
    ),
    op!(
        Rcc,
        "RCC",
        Alu,
        F_CSH,
        F,
        RS,
        [SS],
        ALL,
        "2.X.8.Z, RCC",
        "reciprocal (clamped)"
    ),
    op!(
        Rcp,
        "RCP",
        Alu,
        F_CSH,
        F,
        RS,
        [SS],
        ALL,
        "2.X.8.Z, RCP",
        "reciprocal"
    ),
    op!(
        Rep,
        "REP",
        Rep,
        FI__H,
        F,
        RN,
        [V],
        ALL,
        "2.X.8.Z, REP",
        "start of repeat block"
    ),
    op!(
        Ret,
        "RET",
        FlowCc,
        NONE,
        F,
        RN,
        [],
        ALL,
        "2.X.8.Z, RET",
        "subroutine return"
    ),
    op!(
        Rfl,
        "RFL",
        Alu,
        F_CSH,
        F,
        RV,
        [V, V],
        ALL,
        "2.X.8.Z, RFL",
        "reflection vector"
    ),
    op!(
        Round,
        "ROUND",
        Alu,
        FICSH,
        F,
        RV,
        [VF],
        ALL,
        "2.X.8.Z, ROUND",
        "round to nearest integer"
    ),
    op!(
        Rsq,
        "RSQ",
        Alu,
        F_CSH,
        F,
        RS,
        [SS],
        ALL,
        "2.X.8.Z, RSQ",
        "reciprocal square root"
    ),
    op!(
        Sad,
        "SAD",
        Alu,
        _IC__,
        S,
        ResultKind::Vector(TU),
        [V, V, VU],
        ALL,
        "2.X.8.Z, SAD",
        "sum of absolute differences"
    ),
    op!(
        Scs,
        "SCS",
        Alu,
        F_CSH,
        F,
        RV,
        [SS],
        ALL,
        "2.X.8.Z, SCS",
        "sine/cosine without reduction"
    ),
    op!(
        Seq,
        "SEQ",
        Alu,
        FICSH,
        F,
        RV,
        [V, V],
        ALL,
        "2.X.8.Z, SEQ",
        "set on equal"
    ),
    op!(
        Sfl,
        "SFL",
        Alu,
        FICSH,
        F,
        RV,
        [V, V],
        ALL,
        "2.X.8.Z, SFL",
        "set on false"
    ),
    op!(
        Sge,
        "SGE",
        Alu,
        FICSH,
        F,
        RV,
        [V, V],
        ALL,
        "2.X.8.Z, SGE",
        "set on greater than or equal"
    ),
    op!(
        Sgt,
        "SGT",
        Alu,
        FICSH,
        F,
        RV,
        [V, V],
        ALL,
        "2.X.8.Z, SGT",
        "set on greater than"
    ),
    op!(
        Shl,
        "SHL",
        Alu,
        _IC__,
        S,
        RV,
        [V, SS],
        ALL,
        "2.X.8.Z, SHL",
        "shift left"
    ),
    op!(
        Shr,
        "SHR",
        Alu,
        _IC__,
        S,
        RV,
        [V, SS],
        ALL,
        "2.X.8.Z, SHR",
        "shift right"
    ),
    op!(
        Sin,
        "SIN",
        Alu,
        F_CSH,
        F,
        RS,
        [SS],
        ALL,
        "2.X.8.Z, SIN",
        "sine with reduction to [-PI,PI]"
    ),
    op!(
        Sle,
        "SLE",
        Alu,
        FICSH,
        F,
        RV,
        [V, V],
        ALL,
        "2.X.8.Z, SLE",
        "set on less than or equal"
    ),
    op!(
        Slt,
        "SLT",
        Alu,
        FICSH,
        F,
        RV,
        [V, V],
        ALL,
        "2.X.8.Z, SLT",
        "set on less than"
    ),
    op!(
        Sne,
        "SNE",
        Alu,
        FICSH,
        F,
        RV,
        [V, V],
        ALL,
        "2.X.8.Z, SNE",
        "set on not equal"
    ),
    op!(
        Ssg,
        "SSG",
        Alu,
        F_CSH,
        F,
        RV,
        [V],
        ALL,
        "2.X.8.Z, SSG",
        "set sign"
    ),
    op!(
        Str,
        "STR",
        Alu,
        FICSH,
        F,
        RV,
        [V, V],
        ALL,
        "2.X.8.Z, STR",
        "set on true"
    ),
    op!(
        Sub,
        "SUB",
        Alu,
        FICSH,
        F,
        RV,
        [V, V],
        ALL,
        "2.X.8.Z, SUB",
        "subtract"
    ),
    op!(
        Swz,
        "SWZ",
        Swz,
        F_CSH,
        F,
        RV,
        [V],
        ALL,
        "2.X.8.Z, SWZ",
        "extended swizzle"
    ),
    op!(
        Tex,
        "TEX",
        Tex,
        FICS_,
        F,
        RV,
        [VF],
        ALL,
        "2.X.8.Z, TEX",
        "texture sample"
    ),
    op!(
        Trunc,
        "TRUNC",
        Alu,
        FICSH,
        F,
        RV,
        [VF],
        ALL,
        "2.X.8.Z, TRUNC",
        "truncate (round toward zero)"
    ),
    op!(
        Txb,
        "TXB",
        Tex,
        FICS_,
        F,
        RV,
        [VF],
        ALL,
        "2.X.8.Z, TXB",
        "texture sample with bias"
    ),
    op!(
        Txd,
        "TXD",
        Txd,
        FICS_,
        F,
        RV,
        [VF, VF, VF],
        ALL,
        "2.X.8.Z, TXD",
        "texture sample with partials"
    ),
    op!(
        Txf,
        "TXF",
        Tex,
        FICS_,
        F,
        RV,
        [VS],
        ALL,
        "2.X.8.Z, TXF",
        "texel fetch"
    ),
    op!(
        Txl,
        "TXL",
        Tex,
        FICS_,
        F,
        RV,
        [VF],
        ALL,
        "2.X.8.Z, TXL",
        "texture sample with LOD"
    ),
    op!(
        Txp,
        "TXP",
        Tex,
        FICS_,
        F,
        RV,
        [VF],
        ALL,
        "2.X.8.Z, TXP",
        "texture sample with projection"
    ),
    op!(
        Txq,
        "TXQ",
        Tex,
        NONE,
        S,
        ResultKind::Vector(TS),
        [VS],
        ALL,
        "2.X.8.Z, TXQ",
        "texture info query"
    ),
    op!(
        Up2h,
        "UP2H",
        Alu,
        FICS_,
        F,
        ResultKind::Vector(TF),
        [SS],
        ALL,
        "2.X.8.Z, UP2H",
        "unpack two 16-bit floats"
    ),
    op!(
        Up2us,
        "UP2US",
        Alu,
        FICS_,
        F,
        ResultKind::Vector(TF),
        [SS],
        ALL,
        "2.X.8.Z, UP2US",
        "unpack two unsigned 16-bit integers"
    ),
    op!(
        Up4b,
        "UP4B",
        Alu,
        FICS_,
        F,
        ResultKind::Vector(TF),
        [SS],
        ALL,
        "2.X.8.Z, UP4B",
        "unpack four signed 8-bit integers"
    ),
    op!(
        Up4ub,
        "UP4UB",
        Alu,
        FICS_,
        F,
        ResultKind::Vector(TF),
        [SS],
        ALL,
        "2.X.8.Z, UP4UB",
        "unpack four unsigned 8-bit integers"
    ),
    op!(
        X2d,
        "X2D",
        Alu,
        F_CSH,
        F,
        RV,
        [V, V, V],
        ALL,
        "2.X.8.Z, X2D",
        "2D coordinate transformation"
    ),
    op!(
        Xor,
        "XOR",
        Alu,
        _IC__,
        S,
        RV,
        [V, V],
        ALL,
        "2.X.8.Z, XOR",
        "exclusive or"
    ),
    op!(
        Xpd,
        "XPD",
        Alu,
        F_CSH,
        F,
        RV,
        [V, V],
        ALL,
        "2.X.8.Z, XPD",
        "cross product"
    ),
];

/// Which kind of modifier a stand-alone modifier or suffix is; at most one of
/// each kind per instruction (section 2.X.4.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModifierKind {
    DataType,
    CcUpdate,
    Clamp,
    NoTypeCheck,
    Multiply,
}

/// A modifier as written, stand-alone (Table X.14) or as a suffix (Table X.15).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Modifier {
    F,
    U,
    S,
    Cc0,
    Cc1,
    Sat,
    Ssat,
    Ntc,
    S24,
    U24,
    Hi,
    /// Suffix `R`: float at full precision.
    PrecisionFull,
    /// Suffix `H`: float at half precision or better.
    PrecisionHalf,
}

impl ModifierKind {
    pub fn describe(self) -> &'static str {
        match self {
            ModifierKind::DataType => "data type",
            ModifierKind::CcUpdate => "condition code update",
            ModifierKind::Clamp => "clamping",
            ModifierKind::NoTypeCheck => "NTC",
            ModifierKind::Multiply => "multiply (S24/U24/HI)",
        }
    }
}

impl Modifier {
    pub fn name(self) -> &'static str {
        match self {
            Modifier::F => "F",
            Modifier::U => "U",
            Modifier::S => "S",
            Modifier::Cc0 => "CC0",
            Modifier::Cc1 => "CC1",
            Modifier::Sat => "SAT",
            Modifier::Ssat => "SSAT",
            Modifier::Ntc => "NTC",
            Modifier::S24 => "S24",
            Modifier::U24 => "U24",
            Modifier::Hi => "HI",
            Modifier::PrecisionFull => "R",
            Modifier::PrecisionHalf => "H",
        }
    }

    /// Stand-alone modifiers of Table X.14.
    pub fn standalone(text: &str) -> Option<Modifier> {
        Some(match text {
            "F" => Modifier::F,
            "U" => Modifier::U,
            "S" => Modifier::S,
            "CC" | "CC0" => Modifier::Cc0,
            "CC1" => Modifier::Cc1,
            "SAT" => Modifier::Sat,
            "SSAT" => Modifier::Ssat,
            "NTC" => Modifier::Ntc,
            "S24" => Modifier::S24,
            "U24" => Modifier::U24,
            "HI" => Modifier::Hi,
            _ => return None,
        })
    }
    pub const STANDALONE_NAMES: &'static [&'static str] = &[
        "F", "U", "S", "CC", "CC0", "CC1", "SAT", "SSAT", "NTC", "S24", "U24", "HI",
    ];
    pub fn kind(self) -> ModifierKind {
        match self {
            // Table X.15: `R` and `H` are the F data type modifier with a
            // precision, so `ADDR.F` names the data type twice.
            Modifier::F
            | Modifier::U
            | Modifier::S
            | Modifier::PrecisionFull
            | Modifier::PrecisionHalf => ModifierKind::DataType,
            Modifier::Cc0 | Modifier::Cc1 => ModifierKind::CcUpdate,
            Modifier::Sat | Modifier::Ssat => ModifierKind::Clamp,
            Modifier::Ntc => ModifierKind::NoTypeCheck,
            Modifier::S24 | Modifier::U24 | Modifier::Hi => ModifierKind::Multiply,
        }
    }
}

/// An opcode name with its Table X.15 suffixes split off, e.g. `ADDRC1_SSAT`.
#[derive(Clone, Debug)]
pub struct SplitOpcode {
    pub info: &'static OpInfo,
    /// Suffixes in source order, with their byte offset within the word.
    pub suffixes: Vec<(Modifier, usize, usize)>,
}

/// Splits an opcode word into its base name and suffixes. Suffixes must come
/// in the order the spec requires (data type, then condition code, then
/// clamping, section 2.X.4.1); `Err` carries the base opcode and the byte
/// offset where the suffixes stop making sense.
pub fn split_opcode(word: &str) -> Result<SplitOpcode, Option<(&'static OpInfo, usize)>> {
    // The longest base name that prefixes the word wins, so `SUB` is not
    // taken for `S` + ..., and `DP2A` is not `DP2` + `A`.
    // Looked up by prefix, longest first, in a table built once (a scan of
    // the whole table per instruction was a hot spot).
    static BY_NAME: std::sync::OnceLock<(
        std::collections::HashMap<&'static str, &'static OpInfo>,
        usize,
    )> = std::sync::OnceLock::new();
    let (by_name, longest) = BY_NAME.get_or_init(|| {
        let mut m = std::collections::HashMap::new();
        for info in INSTRUCTIONS {
            m.entry(info.name).or_insert(info);
        }
        (
            m,
            INSTRUCTIONS.iter().map(|i| i.name.len()).max().unwrap_or(0),
        )
    });
    let info = (1..=word.len().min(*longest))
        .rev()
        .filter(|&n| word.is_char_boundary(n))
        .find_map(|n| by_name.get(&word[..n]).copied())
        .ok_or(None)?;
    let mut rest = &word[info.name.len()..];
    let mut at = info.name.len();
    let mut suffixes = Vec::new();
    // Stages of the order: 0 = data type, 1 = cc, 2 = clamp.
    let mut stage = 0;
    while !rest.is_empty() {
        let (m, len, st) = if stage <= 0 && rest.starts_with('R') {
            (Modifier::PrecisionFull, 1, 0)
        } else if stage <= 0 && rest.starts_with('H') {
            (Modifier::PrecisionHalf, 1, 0)
        } else if stage <= 1 && rest.starts_with("C0") {
            (Modifier::Cc0, 2, 1)
        } else if stage <= 1 && rest.starts_with("C1") {
            (Modifier::Cc1, 2, 1)
        } else if stage <= 1 && rest.starts_with('C') {
            (Modifier::Cc0, 1, 1)
        } else if stage <= 2 && rest.starts_with("_SSAT") {
            (Modifier::Ssat, 5, 2)
        } else if stage <= 2 && rest.starts_with("_SAT") {
            (Modifier::Sat, 4, 2)
        } else {
            return Err(Some((info, at)));
        };
        suffixes.push((m, at, at + len));
        rest = &rest[len..];
        at += len;
        // One of each kind: the next must be a later kind.
        stage = st + 1;
    }
    Ok(SplitOpcode { info, suffixes })
}

/// Condition code tests of Table X.16.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum CcCondition {
    Eq,
    Ge,
    Gt,
    Le,
    Lt,
    Ne,
    Fl,
    Tr,
    Nan,
    Leg,
    Cf,
    Ncf,
    Of,
    Nof,
    Sf,
    Nsf,
    Ab,
    Ble,
}

impl CcCondition {
    pub const ALL: [(&'static str, CcCondition); 18] = [
        ("EQ", CcCondition::Eq),
        ("GE", CcCondition::Ge),
        ("GT", CcCondition::Gt),
        ("LE", CcCondition::Le),
        ("LT", CcCondition::Lt),
        ("NE", CcCondition::Ne),
        ("FL", CcCondition::Fl),
        ("TR", CcCondition::Tr),
        ("NAN", CcCondition::Nan),
        ("LEG", CcCondition::Leg),
        ("CF", CcCondition::Cf),
        ("NCF", CcCondition::Ncf),
        ("OF", CcCondition::Of),
        ("NOF", CcCondition::Nof),
        ("SF", CcCondition::Sf),
        ("NSF", CcCondition::Nsf),
        ("AB", CcCondition::Ab),
        ("BLE", CcCondition::Ble),
    ];

    /// Parses a `<ccMaskRule>` such as `GT1`: the test and the register.
    pub fn parse_rule(text: &str) -> Option<(CcCondition, u8)> {
        let (base, reg) = match text.as_bytes().last() {
            Some(b'0') => (&text[..text.len() - 1], 0),
            Some(b'1') => (&text[..text.len() - 1], 1),
            _ => (text, 0),
        };
        CcCondition::ALL
            .iter()
            .find(|(n, _)| *n == base)
            .map(|&(_, c)| (c, reg))
    }

    pub fn name(self) -> &'static str {
        CcCondition::ALL
            .iter()
            .find(|(_, c)| *c == self)
            .map(|(n, _)| *n)
            .unwrap_or("?")
    }

    /// Table X.16's condition, for one component's flags.
    pub fn holds(self, f: CcFlags) -> bool {
        let CcFlags { sf, zf, of, cf } = f;
        match self {
            CcCondition::Eq => !sf && zf,
            CcCondition::Ge => !(sf ^ of),
            CcCondition::Gt => (!sf ^ of) && !zf,
            CcCondition::Le => sf ^ (zf || of),
            CcCondition::Lt => (sf && !zf) ^ of,
            CcCondition::Ne => sf || !zf,
            CcCondition::Fl => false,
            CcCondition::Tr => true,
            CcCondition::Nan => sf && zf,
            CcCondition::Leg => !sf || !zf,
            CcCondition::Cf => cf,
            CcCondition::Ncf => !cf,
            CcCondition::Of => of,
            CcCondition::Nof => !of,
            CcCondition::Sf => sf,
            CcCondition::Nsf => !sf,
            CcCondition::Ab => cf && !zf,
            CcCondition::Ble => !cf || zf,
        }
    }
}

/// The four flags of one condition code component (section 2.X.3.7).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CcFlags {
    pub sf: bool,
    pub zf: bool,
    pub of: bool,
    pub cf: bool,
}

impl Opcode {
    /// Whether each result component depends only on the same component of
    /// each vector operand (after swizzling), so a write mask limits which
    /// operand components are read.
    pub fn is_componentwise(self) -> bool {
        use Opcode::*;
        matches!(
            self,
            Abs | Add
                | And
                | Ceil
                | Cmp
                | Ddx
                | Ddy
                | Div
                | Flr
                | Frc
                | I2f
                | Lrp
                | Mad
                | Max
                | Min
                | Mod
                | Mov
                | Mul
                | Not
                | Or
                | Round
                | Sad
                | Seq
                | Sfl
                | Sge
                | Sgt
                | Shl
                | Shr
                | Sle
                | Slt
                | Sne
                | Ssg
                | Str
                | Sub
                | Trunc
                | Xor
        )
    }

    /// The components (bit i = component i, after the operand's swizzle) of
    /// operand `index` that the instruction reads, given the destination's
    /// write mask. From each instruction's pseudocode in section 2.X.8.
    pub fn components_read(self, index: usize, write_mask: u8) -> u8 {
        use Opcode::*;
        let info = self.info();
        if info.inputs.get(index).is_some_and(|k| k.is_scalar()) {
            return 0b0001;
        }
        if self.is_componentwise() {
            return write_mask;
        }
        match (self, index) {
            (Dp2 | Dp2a, 0 | 1) | (X2d, 0 | 1) | (Pk2h | Pk2us, 0) => 0b0011,
            (Dp2a, _) => 0b0001,
            (Dp3 | Xpd | Nrm | Rfl, _) | (Dph, 0) => 0b0111,
            // DST: result = (1, a.y*b.y, a.z, b.w).
            (Dst, 0) => 0b0110,
            (Dst, _) => 0b1010,
            // LIT reads x, y and w.
            (Lit, _) => 0b1011,
            // Texture coordinates: at least x; how many more depends on the
            // target, so only x is counted.
            (Tex | Txb | Txd | Txf | Txl | Txp | Txq, _) => 0b0001,
            _ => 0b1111,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_indexed_by_opcode() {
        for (i, info) in INSTRUCTIONS.iter().enumerate() {
            assert_eq!(info.opcode as usize, i, "{} is out of place", info.name);
        }
    }

    #[test]
    fn suffixes_split_in_spec_order() {
        let s = split_opcode("ADDRC1_SSAT").unwrap();
        assert_eq!(s.info.opcode, Opcode::Add);
        let mods: Vec<_> = s.suffixes.iter().map(|x| x.0).collect();
        assert_eq!(
            mods,
            vec![Modifier::PrecisionFull, Modifier::Cc1, Modifier::Ssat]
        );
        assert!(
            split_opcode("ADD_SATR").is_err(),
            "suffixes out of order are rejected"
        );
        assert_eq!(split_opcode("DP2A").unwrap().info.opcode, Opcode::Dp2a);
        assert_eq!(split_opcode("SUBC").unwrap().info.opcode, Opcode::Sub);
        assert_eq!(
            split_opcode("MOVH").unwrap().suffixes[0].0,
            Modifier::PrecisionHalf
        );
    }

    #[test]
    fn cc_rules_name_the_register() {
        assert_eq!(CcCondition::parse_rule("GT1"), Some((CcCondition::Gt, 1)));
        assert_eq!(CcCondition::parse_rule("NAN0"), Some((CcCondition::Nan, 0)));
        assert_eq!(CcCondition::parse_rule("LE"), Some((CcCondition::Le, 0)));
        assert_eq!(CcCondition::parse_rule("XX"), None);
    }
}
