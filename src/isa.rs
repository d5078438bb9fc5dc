//! The instruction table of NV_gpu_program4 (Table X.13, section 2.X.4) and
//! the program types built on it.
//!
//! This table is the one place that says what an opcode is: its operand
//! shapes (the grammar class of section 2.X.2), which modifiers it accepts,
//! its default data type and the fixed types of its operands and result.
//! The lexer, parser, checker, backend and interpreter all read it, so they
//! cannot drift apart.
//!
//! ```
//! use nvp4c::isa::{DataType, OpInfo, Opcode};
//! let dp4 = OpInfo::lookup("DP4").unwrap();
//! assert_eq!((dp4.opcode, dp4.inputs.len(), dp4.default_type), (Opcode::Dp4, 2, DataType::Float));
//! assert!(dp4.modifiers.clamp && !dp4.modifiers.integer);
//! assert_eq!(dp4.section, "2.X.8.Z, DP4");
//! ```

use std::fmt;

/// Program type, chosen by the header (`!!NVvp4.0`, `!!NVfp4.0`, `!!NVgp4.0`).
///
/// ```
/// use nvp4c::Stage;
/// assert_eq!(Stage::Geometry.header(), "!!NVgp4.0");
/// assert_eq!(Stage::Vertex.to_string(), "vertex");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Stage {
    /// `!!NVvp4.0`: NV_vertex_program4.
    Vertex,
    /// `!!NVfp4.0`: NV_fragment_program4.
    Fragment,
    /// `!!NVgp4.0`: NV_geometry_program4.
    Geometry,
}

impl Stage {
    /// The program header that selects this type.
    ///
    /// ```
    /// assert_eq!(nvp4c::Stage::Fragment.header(), "!!NVfp4.0");
    /// ```
    pub fn header(self) -> &'static str {
        match self {
            Stage::Vertex => "!!NVvp4.0",
            Stage::Fragment => "!!NVfp4.0",
            Stage::Geometry => "!!NVgp4.0",
        }
    }
    /// The lower-case name, as `Display` shows it.
    ///
    /// ```
    /// assert_eq!(nvp4c::Stage::Geometry.name(), "geometry");
    /// ```
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
///
/// ```
/// use nvp4c::isa::DataType;
/// assert!(DataType::Unsigned.is_integer() && !DataType::Float.is_integer());
/// assert_eq!(DataType::Signed.name(), "INT");
/// ```
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
    /// Whether it is `Signed` or `Unsigned`.
    ///
    /// ```
    /// assert!(nvp4c::isa::DataType::Signed.is_integer());
    /// ```
    pub fn is_integer(self) -> bool {
        !matches!(self, DataType::Float)
    }
    /// The declaration keyword: `FLOAT`, `INT`, `UINT`.
    ///
    /// ```
    /// assert_eq!(nvp4c::isa::DataType::Unsigned.name(), "UINT");
    /// ```
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
///
/// ```
/// use nvp4c::isa::{DataType, OpInfo, OperandKind, TypeRule};
/// // I2F reads integers of its data type and writes floats.
/// let i2f = OpInfo::lookup("I2F").unwrap();
/// assert_eq!(i2f.inputs[0], OperandKind::Vector(TypeRule::Inherit));
/// assert_eq!(i2f.result_type(DataType::Signed), Some(DataType::Float));
/// ```
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
    /// The data type given the instruction's.
    ///
    /// ```
    /// use nvp4c::isa::{DataType, TypeRule};
    /// assert_eq!(TypeRule::Inherit.resolve(DataType::Unsigned), DataType::Unsigned);
    /// assert_eq!(TypeRule::Float.resolve(DataType::Unsigned), DataType::Float);
    /// ```
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
///
/// ```
/// use nvp4c::isa::OpInfo;
/// let pow = OpInfo::lookup("POW").unwrap();
/// assert!(pow.inputs.iter().all(|k| k.is_scalar()));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OperandKind {
    /// A four-component vector (`<instOperandV>`).
    Vector(TypeRule),
    /// A scalar selected with a one-component suffix (`<instOperandS>`).
    Scalar(TypeRule),
}

impl OperandKind {
    /// How the operand's data type is decided.
    ///
    /// ```
    /// use nvp4c::isa::{OperandKind, TypeRule};
    /// assert_eq!(OperandKind::Scalar(TypeRule::Float).type_rule(), TypeRule::Float);
    /// ```
    pub fn type_rule(self) -> TypeRule {
        match self {
            OperandKind::Vector(t) | OperandKind::Scalar(t) => t,
        }
    }
    /// Whether it is a scalar operand.
    ///
    /// ```
    /// use nvp4c::isa::{OperandKind, TypeRule};
    /// assert!(!OperandKind::Vector(TypeRule::Inherit).is_scalar());
    /// ```
    pub fn is_scalar(self) -> bool {
        matches!(self, OperandKind::Scalar(_))
    }
}

/// The result an instruction writes.
///
/// ```
/// use nvp4c::isa::{OpInfo, ResultKind, TypeRule};
/// assert_eq!(OpInfo::lookup("DP3").unwrap().result, ResultKind::Scalar(TypeRule::Inherit));
/// assert_eq!(OpInfo::lookup("KIL").unwrap().result, ResultKind::None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultKind {
    /// No result (flow control, KIL).
    None,
    /// A vector result; each enabled component gets its own value.
    Vector(TypeRule),
    /// A scalar result, replicated to every enabled component.
    Scalar(TypeRule),
}

/// The grammar class of an instruction (section 2.X.2, `<VECTORop>` and so
/// on). It fixes the operand list the parser accepts.
///
/// ```
/// use nvp4c::isa::{OpInfo, Shape};
/// assert_eq!(OpInfo::lookup("TXD").unwrap().shape, Shape::Txd);
/// assert_eq!(OpInfo::lookup("MAD").unwrap().shape, Shape::Alu);
/// ```
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
///
/// ```
/// let m = nvp4c::isa::OpInfo::lookup("ADD").unwrap().modifiers;
/// assert!(m.float && m.integer && m.cc && m.clamp && m.half);
/// ```
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
///
/// ```
/// use nvp4c::isa::Opcode;
/// assert_eq!(Opcode::Txl.name(), "TXL");
/// assert_eq!(Opcode::Mad.to_string(), "MAD");
/// assert!(Opcode::Mul.is_componentwise() && !Opcode::Dp3.is_componentwise());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Opcode {
    /// `ABS`: absolute value (2.X.8.Z, ABS).
    Abs,
    /// `ADD`: add (2.X.8.Z, ADD).
    Add,
    /// `AND`: bitwise and (2.X.8.Z, AND).
    And,
    /// `BRK`: break out of loop (2.X.8.Z, BRK).
    Brk,
    /// `CAL`: subroutine call (2.X.8.Z, CAL).
    Cal,
    /// `CEIL`: ceiling (2.X.8.Z, CEIL).
    Ceil,
    /// `CMP`: compare (2.X.8.Z, CMP).
    Cmp,
    /// `CONT`: continue with next loop iteration (2.X.8.Z, CONT).
    Cont,
    /// `COS`: cosine with reduction to [-PI,PI] (2.X.8.Z, COS).
    Cos,
    /// `DDX`: partial derivative relative to X (2.X.8.Z, DDX).
    Ddx,
    /// `DDY`: partial derivative relative to Y (2.X.8.Z, DDY).
    Ddy,
    /// `DIV`: divide vector components by scalar (2.X.8.Z, DIV).
    Div,
    /// `DP2`: 2-component dot product (2.X.8.Z, DP2).
    Dp2,
    /// `DP2A`: 2-component dot product with scalar add (2.X.8.Z, DP2A).
    Dp2a,
    /// `DP3`: 3-component dot product (2.X.8.Z, DP3).
    Dp3,
    /// `DP4`: 4-component dot product (2.X.8.Z, DP4).
    Dp4,
    /// `DPH`: homogeneous dot product (2.X.8.Z, DPH).
    Dph,
    /// `DST`: distance vector (2.X.8.Z, DST).
    Dst,
    /// `ELSE`: start if test else block (2.X.8.Z, ELSE).
    Else,
    /// `EMIT`: emit vertex (NV_geometry_program4 2.X.8.Z, EMIT).
    Emit,
    /// `ENDIF`: end if test block (2.X.8.Z, ENDIF).
    Endif,
    /// `ENDPRIM`: end of primitive (NV_geometry_program4 2.X.8.Z, ENDPRIM).
    Endprim,
    /// `ENDREP`: end of repeat block (2.X.8.Z, ENDREP).
    Endrep,
    /// `EX2`: exponential base 2 (2.X.8.Z, EX2).
    Ex2,
    /// `FLR`: floor (2.X.8.Z, FLR).
    Flr,
    /// `FRC`: fraction (2.X.8.Z, FRC).
    Frc,
    /// `I2F`: integer to float (2.X.8.Z, I2F).
    I2f,
    /// `IF`: start of if test block (2.X.8.Z, IF).
    If,
    /// `KIL`: kill fragment (NV_fragment_program4 2.X.8.Z, KIL).
    Kil,
    /// `LG2`: logarithm base 2 (2.X.8.Z, LG2).
    Lg2,
    /// `LIT`: compute lighting coefficients (2.X.8.Z, LIT).
    Lit,
    /// `LRP`: linear interpolation (2.X.8.Z, LRP).
    Lrp,
    /// `MAD`: multiply and add (2.X.8.Z, MAD).
    Mad,
    /// `MAX`: maximum (2.X.8.Z, MAX).
    Max,
    /// `MIN`: minimum (2.X.8.Z, MIN).
    Min,
    /// `MOD`: modulus vector components by scalar (2.X.8.Z, MOD).
    Mod,
    /// `MOV`: move (2.X.8.Z, MOV).
    Mov,
    /// `MUL`: multiply (2.X.8.Z, MUL).
    Mul,
    /// `NOT`: bitwise not (2.X.8.Z, NOT).
    Not,
    /// `NRM`: normalize 3-component vector (2.X.8.Z, NRM).
    Nrm,
    /// `OR`: bitwise or (2.X.8.Z, OR).
    Or,
    /// `PK2H`: pack two 16-bit floats (2.X.8.Z, PK2H).
    Pk2h,
    /// `PK2US`: pack two floats as unsigned 16-bit (2.X.8.Z, PK2US).
    Pk2us,
    /// `PK4B`: pack four floats as signed 8-bit (2.X.8.Z, PK4B).
    Pk4b,
    /// `PK4UB`: pack four floats as unsigned 8-bit (2.X.8.Z, PK4UB).
    Pk4ub,
    /// `POW`: exponentiate (2.X.8.Z, POW).
    Pow,
    /// `RCC`: reciprocal (clamped) (2.X.8.Z, RCC).
    Rcc,
    /// `RCP`: reciprocal (2.X.8.Z, RCP).
    Rcp,
    /// `REP`: start of repeat block (2.X.8.Z, REP).
    Rep,
    /// `RET`: subroutine return (2.X.8.Z, RET).
    Ret,
    /// `RFL`: reflection vector (2.X.8.Z, RFL).
    Rfl,
    /// `ROUND`: round to nearest integer (2.X.8.Z, ROUND).
    Round,
    /// `RSQ`: reciprocal square root (2.X.8.Z, RSQ).
    Rsq,
    /// `SAD`: sum of absolute differences (2.X.8.Z, SAD).
    Sad,
    /// `SCS`: sine/cosine without reduction (2.X.8.Z, SCS).
    Scs,
    /// `SEQ`: set on equal (2.X.8.Z, SEQ).
    Seq,
    /// `SFL`: set on false (2.X.8.Z, SFL).
    Sfl,
    /// `SGE`: set on greater than or equal (2.X.8.Z, SGE).
    Sge,
    /// `SGT`: set on greater than (2.X.8.Z, SGT).
    Sgt,
    /// `SHL`: shift left (2.X.8.Z, SHL).
    Shl,
    /// `SHR`: shift right (2.X.8.Z, SHR).
    Shr,
    /// `SIN`: sine with reduction to [-PI,PI] (2.X.8.Z, SIN).
    Sin,
    /// `SLE`: set on less than or equal (2.X.8.Z, SLE).
    Sle,
    /// `SLT`: set on less than (2.X.8.Z, SLT).
    Slt,
    /// `SNE`: set on not equal (2.X.8.Z, SNE).
    Sne,
    /// `SSG`: set sign (2.X.8.Z, SSG).
    Ssg,
    /// `STR`: set on true (2.X.8.Z, STR).
    Str,
    /// `SUB`: subtract (2.X.8.Z, SUB).
    Sub,
    /// `SWZ`: extended swizzle (2.X.8.Z, SWZ).
    Swz,
    /// `TEX`: texture sample (2.X.8.Z, TEX).
    Tex,
    /// `TRUNC`: truncate (round toward zero) (2.X.8.Z, TRUNC).
    Trunc,
    /// `TXB`: texture sample with bias (2.X.8.Z, TXB).
    Txb,
    /// `TXD`: texture sample with partials (2.X.8.Z, TXD).
    Txd,
    /// `TXF`: texel fetch (2.X.8.Z, TXF).
    Txf,
    /// `TXL`: texture sample with LOD (2.X.8.Z, TXL).
    Txl,
    /// `TXP`: texture sample with projection (2.X.8.Z, TXP).
    Txp,
    /// `TXQ`: texture info query (2.X.8.Z, TXQ).
    Txq,
    /// `UP2H`: unpack two 16-bit floats (2.X.8.Z, UP2H).
    Up2h,
    /// `UP2US`: unpack two unsigned 16-bit integers (2.X.8.Z, UP2US).
    Up2us,
    /// `UP4B`: unpack four signed 8-bit integers (2.X.8.Z, UP4B).
    Up4b,
    /// `UP4UB`: unpack four unsigned 8-bit integers (2.X.8.Z, UP4UB).
    Up4ub,
    /// `X2D`: 2D coordinate transformation (2.X.8.Z, X2D).
    X2d,
    /// `XOR`: exclusive or (2.X.8.Z, XOR).
    Xor,
    /// `XPD`: cross product (2.X.8.Z, XPD).
    Xpd,
}

/// One row of the instruction table.
///
/// ```
/// let tex = nvp4c::isa::Opcode::Tex.info();
/// assert_eq!((tex.name, tex.only_stage, tex.section), ("TEX", None, "2.X.8.Z, TEX"));
/// let kil = nvp4c::isa::OpInfo::lookup("KIL").unwrap();
/// assert_eq!(kil.only_stage, Some(nvp4c::Stage::Fragment));
/// assert!(!kil.summary.is_empty());
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub struct OpInfo {
    /// The opcode.
    pub opcode: Opcode,
    /// The opcode as written, e.g. `DP4`.
    pub name: &'static str,
    /// The operand list the grammar accepts.
    pub shape: Shape,
    /// The modifier groups it accepts.
    pub modifiers: ModifierSupport,
    /// Table X.13 column D: the data type when no type modifier is given.
    pub default_type: DataType,
    /// What it writes.
    pub result: ResultKind,
    /// Its source operands (for `Shape::Alu`).
    pub inputs: &'static [OperandKind],
    /// `None` when every program type has it.
    pub only_stage: Option<Stage>,
    /// Where the spec describes it.
    pub section: &'static str,
    /// A few words on what it does, e.g. `4-component dot product`.
    pub summary: &'static str,
}

impl OpInfo {
    /// The row of an opcode name without suffixes.
    ///
    /// ```
    /// assert_eq!(nvp4c::isa::OpInfo::lookup("RSQ").unwrap().opcode, nvp4c::isa::Opcode::Rsq);
    /// assert!(nvp4c::isa::OpInfo::lookup("RSQC").is_none());
    /// ```
    pub fn lookup(name: &str) -> Option<&'static OpInfo> {
        INSTRUCTIONS.iter().find(|i| i.name == name)
    }
    /// The row of `opcode`.
    ///
    /// ```
    /// use nvp4c::isa::{OpInfo, Opcode};
    /// assert_eq!(OpInfo::of(Opcode::Xpd).name, "XPD");
    /// ```
    pub fn of(opcode: Opcode) -> &'static OpInfo {
        // The table is ordered like the enum, so this is an index; the
        // assertion in the tests keeps the two in step.
        &INSTRUCTIONS[opcode as usize]
    }
    /// The data type of the result given the instruction's data type;
    /// `None` when it writes none. (Only a floating-point result may be
    /// clamped, section 2.X.4.1.)
    ///
    /// ```
    /// use nvp4c::isa::{DataType, OpInfo};
    /// assert_eq!(OpInfo::lookup("SEQ").unwrap().result_type(DataType::Signed), Some(DataType::Signed));
    /// assert_eq!(OpInfo::lookup("BRK").unwrap().result_type(DataType::Float), None);
    /// ```
    pub fn result_type(&self, op_type: DataType) -> Option<DataType> {
        match self.result {
            ResultKind::None => None,
            ResultKind::Vector(t) | ResultKind::Scalar(t) => Some(t.resolve(op_type)),
        }
    }
    /// Whether it writes a result.
    ///
    /// ```
    /// assert!(nvp4c::isa::OpInfo::lookup("TXQ").unwrap().has_result());
    /// assert!(!nvp4c::isa::OpInfo::lookup("EMIT").unwrap().has_result());
    /// ```
    pub fn has_result(&self) -> bool {
        !matches!(self.result, ResultKind::None)
    }

    /// The modifiers the instruction accepts, one group per kind, each as
    /// its stand-alone forms (Table X.14) and its suffix forms (Table X.15).
    /// Messages and editor hovers list them from here.
    ///
    /// ```
    /// let groups = nvp4c::isa::OpInfo::lookup("MUL").unwrap().modifier_groups();
    /// assert!(groups.contains(&(&["S24", "U24", "HI"][..], &[][..])));
    /// ```
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
    /// The opcode's row of the table.
    ///
    /// ```
    /// assert_eq!(nvp4c::isa::Opcode::Lrp.info().inputs.len(), 3);
    /// ```
    pub fn info(self) -> &'static OpInfo {
        OpInfo::of(self)
    }
    /// The opcode as written.
    ///
    /// ```
    /// assert_eq!(nvp4c::isa::Opcode::Pk2us.name(), "PK2US");
    /// ```
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
///
/// ```
/// use nvp4c::isa::{INSTRUCTIONS, Stage};
/// assert!(INSTRUCTIONS.iter().any(|i| i.name == "EMIT" && i.only_stage == Some(Stage::Geometry)));
/// ```
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
// Internal and unstable (the parser's suffix splitting).
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModifierKind {
    DataType,
    CcUpdate,
    Clamp,
    NoTypeCheck,
    Multiply,
}

/// A modifier as written, stand-alone (Table X.14) or as a suffix (Table X.15).
// Internal and unstable (the parser's suffix splitting).
#[doc(hidden)]
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
// Internal and unstable (the parser's suffix splitting).
#[doc(hidden)]
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
// Internal and unstable (the parser's suffix splitting).
#[doc(hidden)]
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
///
/// ```
/// use nvp4c::isa::{CcCondition, CcFlags};
/// assert_eq!(CcCondition::parse_rule("LE1"), Some((CcCondition::Le, 1)));
/// assert_eq!(CcCondition::Nan.name(), "NAN");
/// let negative = CcFlags { sf: true, ..CcFlags::default() };
/// assert!(CcCondition::Lt.holds(negative) && !CcCondition::Ge.holds(negative));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum CcCondition {
    /// `EQ`: equal.
    Eq,
    /// `GE`: greater or equal.
    Ge,
    /// `GT`: greater.
    Gt,
    /// `LE`: less or equal.
    Le,
    /// `LT`: less.
    Lt,
    /// `NE`: not equal (NaN included).
    Ne,
    /// `FL`: false.
    Fl,
    /// `TR`: true.
    Tr,
    /// `NAN`: not a number.
    Nan,
    /// `LEG`: less, equal or greater (not NaN).
    Leg,
    /// `CF`: carry flag set.
    Cf,
    /// `NCF`: carry flag clear.
    Ncf,
    /// `OF`: overflow flag set.
    Of,
    /// `NOF`: overflow flag clear.
    Nof,
    /// `SF`: sign flag set.
    Sf,
    /// `NSF`: sign flag clear.
    Nsf,
    /// `AB`: above (unsigned greater).
    Ab,
    /// `BLE`: below or equal (unsigned).
    Ble,
}

impl CcCondition {
    /// Every test with its name, in Table X.16's order.
    ///
    /// ```
    /// assert_eq!(nvp4c::isa::CcCondition::ALL.len(), 18);
    /// ```
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
    ///
    /// ```
    /// use nvp4c::isa::CcCondition;
    /// assert_eq!(CcCondition::parse_rule("GT"), Some((CcCondition::Gt, 0)));
    /// assert_eq!(CcCondition::parse_rule("XX"), None);
    /// ```
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

    /// The test as written, e.g. `GE`.
    ///
    /// ```
    /// assert_eq!(nvp4c::isa::CcCondition::Ble.name(), "BLE");
    /// ```
    pub fn name(self) -> &'static str {
        CcCondition::ALL
            .iter()
            .find(|(_, c)| *c == self)
            .map(|(n, _)| *n)
            .unwrap_or("?")
    }

    /// Table X.16's condition, for one component's flags.
    ///
    /// ```
    /// use nvp4c::isa::{CcCondition, CcFlags};
    /// let zero = CcFlags { zf: true, ..CcFlags::default() };
    /// assert!(CcCondition::Eq.holds(zero) && !CcCondition::Ne.holds(zero));
    /// ```
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
///
/// ```
/// let flags = nvp4c::isa::CcFlags { sf: false, zf: true, of: false, cf: false };
/// assert!(nvp4c::isa::CcCondition::Ge.holds(flags));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CcFlags {
    /// Sign flag.
    pub sf: bool,
    /// Zero flag.
    pub zf: bool,
    /// Overflow flag.
    pub of: bool,
    /// Carry flag.
    pub cf: bool,
}

impl Opcode {
    /// Whether each result component depends only on the same component of
    /// each vector operand (after swizzling), so a write mask limits which
    /// operand components are read.
    ///
    /// ```
    /// use nvp4c::isa::Opcode;
    /// assert!(Opcode::Add.is_componentwise() && !Opcode::Xpd.is_componentwise());
    /// ```
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
    ///
    /// ```
    /// use nvp4c::isa::Opcode;
    /// assert_eq!(Opcode::Add.components_read(0, 0b0011), 0b0011);
    /// assert_eq!(Opcode::Dp3.components_read(1, 0b0001), 0b0111);
    /// ```
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
