//! The instruction table of the assembly family: NV_gpu_program4's Table
//! X.13 (section 2.X.4) and the ARB family's Table X.5 (ARB_vertex_program,
//! ARB_fragment_program and each NV option), one row per opcode with one
//! column per language level ([`Column`]).
//!
//! This table is the one place that says what an opcode is: its operand
//! shapes (the grammar class of section 2.X.2), in which languages it
//! exists and with which modifiers, its default data type and the fixed
//! types of its operands and result. The lexer, parser, checker, backend,
//! interpreter and language server all read it, so they cannot drift
//! apart. The language of a program (header and options) is a [`Dialect`].
//!
//! ```
//! use nvp4c::isa::{Column, DataType, OpInfo, Opcode};
//! let dp4 = OpInfo::lookup("DP4").unwrap();
//! assert_eq!((dp4.opcode, dp4.inputs.len(), dp4.default_type), (Opcode::Dp4, 2, DataType::Float));
//! assert!(dp4.modifiers().clamp && !dp4.modifiers().integer);
//! assert!(dp4.in_column(Column::FpOption).unwrap().fixed); // DP4X
//! assert!(dp4.in_column(Column::ArbFp).is_some_and(|m| !m.cc)); // no DP4C in plain ARB
//! assert_eq!(dp4.section, "2.X.8.Z, DP4");
//! ```

use std::fmt;

use crate::TargetEnv;

mod dialect;

pub use dialect::{
    option_info, options_of, AddressModel, Column, Dialect, Features, Header, LabelModel,
    OptionInfo, SizeModifiers, OPTIONS,
};

/// Program type, chosen by the header (`!!NVvp4.0`/`!!ARBvp1.0`,
/// `!!NVfp4.0`/`!!ARBfp1.0`, `!!NVgp4.0`; see [`Header`]).
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
    /// `!!NVtcp5.0`: NV_tessellation_program5's tessellation control programs.
    #[serde(rename = "tess-control")]
    TessControl,
    /// `!!NVtep5.0`: NV_tessellation_program5's tessellation evaluation programs.
    #[serde(rename = "tess-eval")]
    TessEval,
    /// `!!NVcp5.0`: NV_compute_program5.
    Compute,
}

impl Stage {
    /// Every program type, in pipeline order (compute last, outside it).
    pub const ALL: [Stage; 6] = [
        Stage::Vertex,
        Stage::TessControl,
        Stage::TessEval,
        Stage::Geometry,
        Stage::Fragment,
        Stage::Compute,
    ];
    /// The first NV_gpu_program4-family header that selects this type
    /// (NV_gpu_program4 for the three it has, NV_gpu_program5 for the others).
    ///
    /// ```
    /// assert_eq!(nvp4c::Stage::Fragment.header(), "!!NVfp4.0");
    /// assert_eq!(nvp4c::Stage::TessControl.header(), "!!NVtcp5.0");
    /// ```
    pub fn header(self) -> &'static str {
        match self {
            Stage::Vertex => "!!NVvp4.0",
            Stage::Fragment => "!!NVfp4.0",
            Stage::Geometry => "!!NVgp4.0",
            Stage::TessControl => "!!NVtcp5.0",
            Stage::TessEval => "!!NVtep5.0",
            Stage::Compute => "!!NVcp5.0",
        }
    }
    /// Whether the program type reads the vertices of a primitive or patch
    /// as arrays (`vertex[m].position`): geometry and both tessellation types.
    ///
    /// ```
    /// assert!(nvp4c::Stage::TessEval.reads_vertex_arrays() && !nvp4c::Stage::Vertex.reads_vertex_arrays());
    /// ```
    pub fn reads_vertex_arrays(self) -> bool {
        matches!(self, Stage::Geometry | Stage::TessControl | Stage::TessEval)
    }
    /// Whether the program type writes vertices for rasterization or a later
    /// stage (`result.position`, `result.texcoord[n]`, ...).
    ///
    /// ```
    /// assert!(nvp4c::Stage::TessControl.writes_vertices() && !nvp4c::Stage::Fragment.writes_vertices());
    /// ```
    pub fn writes_vertices(self) -> bool {
        matches!(
            self,
            Stage::Vertex | Stage::Geometry | Stage::TessControl | Stage::TessEval
        )
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
            Stage::TessControl => "tess-control",
            Stage::TessEval => "tess-eval",
            Stage::Compute => "compute",
        }
    }
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The data type an instruction operates on (section 2.X.4.1). The ARB
/// family has only `Float`. NV_gpu_program5's 64-bit modifiers (`F64`,
/// `S64`, `U64`) are these base types at another precision
/// (`ir::Instruction::precision64`; the `D` and `L` letters of the
/// table's NV5 column say which instructions take them).
///
/// ```
/// use nvp4c::isa::DataType;
/// assert!(DataType::Unsigned.is_integer() && !DataType::Float.is_integer());
/// assert_eq!(DataType::Signed.name(), "INT");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
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
    /// A whole address register, without swizzle (`<instOperandAddrVNS>`
    /// of NV_vertex_program2_option: ARA and PUSHA); signed integers.
    Address,
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
            OperandKind::Address => TypeRule::Signed,
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
    /// A signed integer vector written to an address register
    /// (`<instResultAddr>`: ARL, ARR, ARA, POPA).
    Address,
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
    /// `op result, operandV, texAccess` (TEX TXB TXF TXL TXP TXQ, and
    /// NV_gpu_program5's TXG and LOD).
    Tex,
    /// `TXD result, operandV, operandV, operandV, texAccess` (and TXGO).
    Txd,
    /// `CAL label (ccMask)?`, `BRA label (ccMask)?` (`<BRAop_instruction>`).
    Call,
    /// `RET`, `BRK`, `CONT` with an optional `(ccTest)`.
    FlowCc,
    /// `IF ccTest`.
    If,
    /// `REP operandV?`, `LOOP operandV`.
    Rep,
    /// `ELSE`, `ENDIF`, `ENDREP`, `ENDLOOP`.
    EndFlow,
    /// `KIL operandV` or `KIL ccTest` (NV_fragment_program4).
    Kil,
    /// `EMIT`, `ENDPRIM` (NV_geometry_program4).
    Primitive,
    /// `PUSHA address` and `POPA address` (NV_vertex_program3).
    AddressStack,
    /// The memory instructions of NV_gpu_program5's family: `LDB result,
    /// mem`, `STB operandV, mem`, `ATOMB result, operandV, mem`, with
    /// storage (`.U32`, `.F32X4`, …) and atomic (`.ADD`, …) modifiers
    /// instead of Table X.14's (src/check/memory.rs).
    Memory,
    /// NV_compute_program5's shared memory instructions: `LDS result,
    /// mem`, `STS operandV, mem`, `ATOMS result, operandV, mem`, the same
    /// operand lists and modifiers as [`Shape::Memory`], on a SHARED
    /// variable (section 2.X.3.Y) instead of a STORAGE one.
    SharedMemory,
    /// NV_shader_buffer_load / NV_shader_buffer_store's global memory
    /// instructions: `LOAD result, address`, `STORE operandV, address`,
    /// `ATOM result, operandV, address`, the same modifiers as
    /// [`Shape::Memory`] on the flat GPU address space, the address an
    /// unsigned integer scalar operand (Table X.13's "su"; 64 bits from a
    /// LONG register) rather than a memory variable.
    GlobalMemory,
    /// `BAR` (NV_compute_program5): no operands.
    Barrier,
    /// `MEMBAR` (NV_gpu_program5 2.X.8.Z): no operands, and in compute
    /// programs the optional `CTA` modifier of NV_compute_program5.
    MemoryBarrier,
    /// EXT_shader_image_load_store's image instructions in NV_gpu_program5
    /// (its "Dependencies on NV_gpu_program5"): `LOADIM result, coord,
    /// image, TARGET`, `STOREIM image, value, coord, TARGET`, `ATOMIM
    /// result, value, coord, image, TARGET`, with storage (`.U32`,
    /// `.F32X4`, `.S8`, …) and atomic modifiers (src/check/image.rs).
    Image,
}

/// The modifiers an opcode takes in one language level: the "F I C S H"
/// columns of NV_gpu_program4's Table X.13 and the "R H X C S" columns of
/// the NV options' Table X.5. Written in the table as a string of letters
/// (`"FICSH"`, `"RHXCS"`, `"C"`, `""`); `-` there means the opcode does not
/// exist in that language.
///
/// ```
/// let m = nvp4c::isa::OpInfo::lookup("ADD").unwrap().modifiers();
/// assert!(m.float && m.integer && m.cc && m.clamp && m.half && !m.fixed);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ModifierSupport {
    /// F: `.F` (NV_gpu_program4's stand-alone float type); implies `R`.
    pub float: bool,
    /// R: the `R` suffix (full precision float).
    pub full: bool,
    /// H: the `H` suffix (at least 16-bit float precision).
    pub half: bool,
    /// X: the `X` suffix (12-bit fixed point, NV_fragment_program_option).
    pub fixed: bool,
    /// I: `.S`, `.U`.
    pub integer: bool,
    /// C: condition code update: `.CC`, `.CC0`, `.CC1`, `C`, `C0`, `C1`
    /// (which of them depends on the dialect's condition code registers).
    pub cc: bool,
    /// S: saturation: `_SAT` (and `_SSAT`, `.SAT`, `.SSAT` where the dialect
    /// has them).
    pub clamp: bool,
    /// 3: the result has three components, and a write mask that includes
    /// `w` fails to load (RFL in the NV fragment options: "A fragment program
    /// will fail to load if the w component of the result is enabled").
    pub xyz_only: bool,
    /// D: `.F64` (NV_gpu_program5 Table X.13, a "6" in the F column:
    /// "support for all modifiers, including 64-bit versions").
    pub float64: bool,
    /// L: `.S64`, `.U64` (a "6" in Table X.13's I column).
    pub integer64: bool,
}

impl ModifierSupport {
    /// Reads a column entry of the table: `-` for "does not exist", else
    /// the letters of the supported modifiers.
    const fn parse(text: &str) -> Option<ModifierSupport> {
        let b = text.as_bytes();
        if b.len() == 1 && b[0] == b'-' {
            return None;
        }
        let mut m = ModifierSupport {
            float: false,
            full: false,
            half: false,
            fixed: false,
            integer: false,
            cc: false,
            clamp: false,
            xyz_only: false,
            float64: false,
            integer64: false,
        };
        let mut i = 0;
        while i < b.len() {
            match b[i] {
                b'F' => {
                    m.float = true;
                    m.full = true;
                }
                b'R' => m.full = true,
                b'H' => m.half = true,
                b'X' => m.fixed = true,
                b'I' => m.integer = true,
                b'C' => m.cc = true,
                b'S' => m.clamp = true,
                b'3' => m.xyz_only = true,
                b'D' => m.float64 = true,
                b'L' => m.integer64 = true,
                _ => panic!("unknown modifier letter in the instruction table"),
            }
            i += 1;
        }
        Some(m)
    }
}

/// Every opcode of the assembly family: NV_gpu_program4 and the vp4/fp4/gp4
/// additions, ARB_vertex_program, ARB_fragment_program and the NV options.
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
    /// `ARA`: address register add (NV_vertex_program2_option 2.14.5.28).
    Ara,
    /// `ARL`: address register load, floor (ARB_vertex_program 2.14.5.3).
    Arl,
    /// `ARR`: address register load, round (NV_vertex_program2_option 2.14.5.29).
    Arr,
    /// `ATOM`: atomic operation on the memory at a GPU address
    /// (NV_gpu_program5 2.X.8.Z, ATOM; NV_shader_buffer_store).
    Atom,
    /// `ATOMB`: atomic operation on storage buffer memory
    /// (NV_shader_storage_buffer_object 2.X.8.Z, ATOMB).
    Atomb,
    /// `ATOMIM`: atomic operation on an image
    /// (EXT_shader_image_load_store, NV_gpu_program5 2.X.8.Z, ATOMIM).
    Atomim,
    /// `ATOMCTR`: atomic counter operation (NV_shader_atomic_counters
    /// 2.X.8.Z, ATOMCTR).
    Atomctr,
    /// `ATOMS`: atomic operation on compute shared memory
    /// (NV_compute_program5 2.X.8.Z, ATOMS).
    Atoms,
    /// `BAR`: work group execution barrier (NV_compute_program5 2.X.8.Z, BAR).
    Bar,
    /// `BFE`: bitfield extract (NV_gpu_program5 2.X.8.Z, BFE).
    Bfe,
    /// `BFI`: bitfield insert (NV_gpu_program5 2.X.8.Z, BFI).
    Bfi,
    /// `BFR`: bitfield reverse (NV_gpu_program5 2.X.8.Z, BFR).
    Bfr,
    /// `BRA`: branch to a label (NV_vertex_program2_option 2.14.5.30).
    Bra,
    /// `BRK`: break out of loop (2.X.8.Z, BRK).
    Brk,
    /// `BTC`: bit count (NV_gpu_program5 2.X.8.Z, BTC).
    Btc,
    /// `BTFL`: find least significant bit (NV_gpu_program5 2.X.8.Z, BTFL).
    Btfl,
    /// `BTFM`: find most significant bit (NV_gpu_program5 2.X.8.Z, BTFM).
    Btfm,
    /// `CAL`: subroutine call (2.X.8.Z, CAL).
    Cal,
    /// `CALI`: indirect subroutine call (ARB_shader_subroutine,
    /// NV_gpu_program5 edits, 2.X.8.Z CALI).
    Cali,
    /// `CEIL`: ceiling (2.X.8.Z, CEIL).
    Ceil,
    /// `CMP`: compare (2.X.8.Z, CMP).
    Cmp,
    /// `CONT`: continue with next loop iteration (2.X.8.Z, CONT).
    Cont,
    /// `COS`: cosine with reduction to [-PI,PI] (2.X.8.Z, COS).
    Cos,
    /// `CVT`: general data type conversion (NV_gpu_program5 2.X.8.Z, CVT).
    Cvt,
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
    /// `EMITS`: emit vertex to stream (NV_gpu_program5 2.X.8.Z, EMITS).
    Emits,
    /// `ENDIF`: end if test block (2.X.8.Z, ENDIF).
    Endif,
    /// `ENDLOOP`: end of loop block (NV_fragment_program2 3.11.X.5).
    Endloop,
    /// `ENDPRIM`: end of primitive (NV_geometry_program4 2.X.8.Z, ENDPRIM).
    Endprim,
    /// `ENDREP`: end of repeat block (2.X.8.Z, ENDREP).
    Endrep,
    /// `EX2`: exponential base 2 (2.X.8.Z, EX2).
    Ex2,
    /// `EXP`: exponential base 2, approximate (ARB_vertex_program 2.14.5.9).
    Exp,
    /// `FLR`: floor (2.X.8.Z, FLR).
    Flr,
    /// `FRC`: fraction (2.X.8.Z, FRC).
    Frc,
    /// `I2F`: integer to float (2.X.8.Z, I2F).
    I2f,
    /// `IF`: start of if test block (2.X.8.Z, IF).
    If,
    /// `IPAC`: interpolate at centroid (NV_gpu_program5 2.X.8.Z, IPAC).
    Ipac,
    /// `IPAO`: interpolate with offset (NV_gpu_program5 2.X.8.Z, IPAO).
    Ipao,
    /// `IPAS`: interpolate at sample location (NV_gpu_program5 2.X.8.Z, IPAS).
    Ipas,
    /// `KIL`: kill fragment (NV_fragment_program4 2.X.8.Z, KIL).
    Kil,
    /// `LDB`: load from storage buffer memory (NV_shader_storage_buffer_object 2.X.8.Z, LDB).
    Ldb,
    /// `LDC`: load from constant buffer (NV_parameter_buffer_object2
    /// 2.X.8.Z, LDC).
    Ldc,
    /// `LDS`: load from compute shared memory (NV_compute_program5 2.X.8.Z, LDS).
    Lds,
    /// `LG2`: logarithm base 2 (2.X.8.Z, LG2).
    Lg2,
    /// `LIT`: compute lighting coefficients (2.X.8.Z, LIT).
    Lit,
    /// `LOAD`: load from a GPU address (NV_shader_buffer_load 2.X.8.Z,
    /// LOAD; NV_gpu_program5 2.X.8.Z, LOAD).
    Load,
    /// `LOADIM`: image load (EXT_shader_image_load_store, NV_gpu_program5
    /// 2.X.8.Z, LOADIM).
    Loadim,
    /// `LOD`: compute texture level of detail (NV_gpu_program4_1 2.X.8.Z, LOD).
    Lod,
    /// `LOG`: logarithm base 2, approximate (ARB_vertex_program 2.14.5.14).
    Log,
    /// `LOOP`: start of loop block with an index (NV_fragment_program2 3.11.X.8).
    Loop,
    /// `LRP`: linear interpolation (2.X.8.Z, LRP).
    Lrp,
    /// `MAD`: multiply and add (2.X.8.Z, MAD).
    Mad,
    /// `MAX`: maximum (2.X.8.Z, MAX).
    Max,
    /// `MEMBAR`: memory barrier (NV_gpu_program5 2.X.8.Z, MEMBAR).
    Membar,
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
    /// `PK64`: pack pairs of 32-bit components into 64-bit ones
    /// (NV_gpu_program5 2.X.8.Z, PK64).
    Pk64,
    /// `POPA`: pop an address register off the call stack (NV_vertex_program3 2.14.5.43).
    Popa,
    /// `POW`: exponentiate (2.X.8.Z, POW).
    Pow,
    /// `PUSHA`: push an address register onto the call stack (NV_vertex_program3 2.14.5.44).
    Pusha,
    /// `QSWZ0`: add fragment 0 in a quad (NV_shader_thread_group 2.X.8.Z, QSWZ0).
    Qswz0,
    /// `QSWZ1`: add fragment 1 in a quad (NV_shader_thread_group 2.X.8.Z, QSWZ1).
    Qswz1,
    /// `QSWZ2`: add fragment 2 in a quad (NV_shader_thread_group 2.X.8.Z, QSWZ2).
    Qswz2,
    /// `QSWZ3`: add fragment 3 in a quad (NV_shader_thread_group 2.X.8.Z, QSWZ3).
    Qswz3,
    /// `QSWZX`: add fragments horizontally in a quad (NV_shader_thread_group 2.X.8.Z, QSWZX).
    Qswzx,
    /// `QSWZY`: add fragments vertically in a quad (NV_shader_thread_group 2.X.8.Z, QSWZY).
    Qswzy,
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
    /// `SHFDOWN`: warp shuffle with added index (NV_shader_thread_shuffle 2.X.8.Z, SHFDOWN).
    Shfdown,
    /// `SHFIDX`: warp shuffle with absolute index (NV_shader_thread_shuffle 2.X.8.Z, SHFIDX).
    Shfidx,
    /// `SHFUP`: warp shuffle with subtracted index (NV_shader_thread_shuffle 2.X.8.Z, SHFUP).
    Shfup,
    /// `SHFXOR`: warp shuffle with XORed index (NV_shader_thread_shuffle 2.X.8.Z, SHFXOR).
    Shfxor,
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
    /// `STB`: store to storage buffer memory (NV_shader_storage_buffer_object 2.X.8.Z, STB).
    Stb,
    /// `STORE`: store to a GPU address (NV_gpu_program5 2.X.8.Z, STORE;
    /// NV_shader_buffer_store).
    Store,
    /// `STOREIM`: image store (EXT_shader_image_load_store,
    /// NV_gpu_program5 2.X.8.Z, STOREIM).
    Storeim,
    /// `STR`: set on true (2.X.8.Z, STR).
    Str,
    /// `STS`: store to compute shared memory (NV_compute_program5 2.X.8.Z, STS).
    Sts,
    /// `SUB`: subtract (2.X.8.Z, SUB).
    Sub,
    /// `SWZ`: extended swizzle (2.X.8.Z, SWZ).
    Swz,
    /// `TEX`: texture sample (2.X.8.Z, TEX).
    Tex,
    /// `TGALL`: test all non-zero in thread group (NV_gpu_program5 2.X.8.Z, TGALL).
    Tgall,
    /// `TGANY`: test any non-zero in thread group (NV_gpu_program5 2.X.8.Z, TGANY).
    Tgany,
    /// `TGBALLOT`: query a boolean in thread group (NV_shader_thread_group 2.X.8.Z, TGBALLOT).
    Tgballot,
    /// `TGEQ`: test all equal in thread group (NV_gpu_program5 2.X.8.Z, TGEQ).
    Tgeq,
    /// `TRUNC`: truncate (round toward zero) (2.X.8.Z, TRUNC).
    Trunc,
    /// `TXB`: texture sample with bias (2.X.8.Z, TXB).
    Txb,
    /// `TXD`: texture sample with partials (2.X.8.Z, TXD).
    Txd,
    /// `TXF`: texel fetch (2.X.8.Z, TXF).
    Txf,
    /// `TXG`: texture gather (NV_gpu_program5 2.X.8.Z, TXG).
    Txg,
    /// `TXGO`: texture gather with per-texel offsets (NV_gpu_program5 2.X.8.Z, TXGO).
    Txgo,
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
    /// `UP64`: unpack 64-bit components into pairs of 32-bit ones
    /// (NV_gpu_program5 2.X.8.Z, UP64).
    Up64,
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
    /// Per language level ([`Column::index`]): the modifiers it accepts,
    /// or `None` where the opcode does not exist.
    pub columns: [Option<ModifierSupport>; Column::COUNT],
    /// Table X.13 column D: the data type when no type modifier is given.
    pub default_type: DataType,
    /// What it writes.
    pub result: ResultKind,
    /// Its source operands (for `Shape::Alu`).
    pub inputs: &'static [OperandKind],
    /// `None` when every program type of its languages has it.
    pub only_stage: Option<Stage>,
    /// Features (options) it needs beyond its column, e.g.
    /// `OPTION NV_shader_storage_buffer` for LDB ([`requires_of`]).
    pub requires: Features,
    /// The oldest target environment whose SPIR-V can express it
    /// ([`target_env_of`]): Vulkan 1.0 for all but the thread-group
    /// instructions, which become subgroup operations (SPIR-V 1.3).
    pub min_env: TargetEnv,
    /// Why it needs `min_env`: the spec's words on what it reads and the
    /// SPIR-V that does the same (the note of E1140); empty for Vulkan 1.0.
    pub min_env_why: &'static str,
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
            ResultKind::Address => Some(DataType::Signed),
        }
    }
    /// Whether its result depends on other invocations: the thread-group
    /// instructions (TGALL … TGBALLOT, the shuffles, the quad swizzles),
    /// exactly those whose SPIR-V is a subgroup operation and so needs
    /// [`OpInfo::min_env`] Vulkan 1.1. A test comparing one invocation with
    /// the interpreter cannot use them.
    ///
    /// ```
    /// use nvp4c::isa::Opcode;
    /// assert!(Opcode::Shfxor.info().reads_other_invocations());
    /// assert!(!Opcode::Ddx.info().reads_other_invocations()); // derivatives: the quad, but no subgroup
    /// ```
    pub fn reads_other_invocations(&self) -> bool {
        self.min_env >= TargetEnv::Vulkan1_1
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

    /// Its modifiers in NV_gpu_program4 (Table X.13); none where it is not
    /// an NV_gpu_program4 opcode.
    ///
    /// ```
    /// assert!(nvp4c::isa::OpInfo::lookup("MUL").unwrap().modifiers().integer);
    /// assert_eq!(nvp4c::isa::OpInfo::lookup("ARL").unwrap().modifiers(), Default::default());
    /// ```
    pub fn modifiers(&self) -> ModifierSupport {
        self.in_column(Column::Nv4).unwrap_or_default()
    }

    /// Its modifiers in one language level, or `None` where it does not exist.
    ///
    /// ```
    /// use nvp4c::isa::{Column, OpInfo};
    /// let seq = OpInfo::lookup("SEQ").unwrap();
    /// assert!(seq.in_column(Column::ArbFp).is_none() && seq.in_column(Column::Vp2).is_some());
    /// ```
    pub fn in_column(&self, column: Column) -> Option<ModifierSupport> {
        self.columns[column.index()]
    }

    /// Its modifiers in a dialect, or `None` where the opcode does not
    /// exist there (its column, and its program type).
    ///
    /// ```
    /// use nvp4c::isa::{Dialect, Header, OpInfo};
    /// let kil = OpInfo::lookup("KIL").unwrap();
    /// assert!(kil.in_dialect(Dialect::new(Header::ArbFp1)).is_some());
    /// assert!(kil.in_dialect(Dialect::new(Header::NvVp4)).is_none());
    /// ```
    pub fn in_dialect(&self, dialect: Dialect) -> Option<ModifierSupport> {
        if self.only_stage.is_some_and(|s| s != dialect.stage()) {
            return None;
        }
        if !self.requires.is_empty() && !dialect.features.contains(self.requires) {
            return None;
        }
        self.in_column(dialect.column())
    }

    /// The languages the opcode exists in.
    ///
    /// ```
    /// use nvp4c::isa::{Column, OpInfo};
    /// let cols: Vec<_> = OpInfo::lookup("ARA").unwrap().languages().collect();
    /// assert_eq!(cols, [Column::Vp2, Column::Vp3, Column::NvVp2]);
    /// ```
    pub fn languages(&self) -> impl Iterator<Item = Column> + '_ {
        Column::ALL
            .into_iter()
            .filter(|c| self.in_column(*c).is_some())
    }

    /// The modifiers the instruction accepts in NV_gpu_program4, one group
    /// per kind, each as its stand-alone forms (Table X.14) and its suffix
    /// forms (Table X.15). Messages and editor hovers list them from here.
    ///
    /// ```
    /// let groups = nvp4c::isa::OpInfo::lookup("MUL").unwrap().modifier_groups();
    /// assert!(groups.contains(&(&["S24", "U24", "HI"][..], &[][..])));
    /// ```
    pub fn modifier_groups(&self) -> Vec<(&'static [&'static str], &'static [&'static str])> {
        self.modifier_groups_in(Dialect::new(Header::NvFp4))
    }

    /// The modifier groups of [`OpInfo::modifier_groups`] as a dialect
    /// spells them: the ARB family has suffixes only, one or two condition
    /// code registers, and `_SSAT` only with NV_fragment_program2.
    ///
    /// ```
    /// use nvp4c::isa::{Dialect, Features, Header, OpInfo};
    /// let mut d = Dialect::new(Header::ArbFp1);
    /// d.enable(Features::NV_FP);
    /// let groups = OpInfo::lookup("ADD").unwrap().modifier_groups_in(d);
    /// assert!(groups.contains(&(&[][..], &["X"][..])));
    /// assert!(groups.contains(&(&[][..], &["C"][..])));
    /// ```
    pub fn modifier_groups_in(
        &self,
        dialect: Dialect,
    ) -> Vec<(&'static [&'static str], &'static [&'static str])> {
        let Some(m) = self
            .in_dialect(dialect)
            .or_else(|| self.in_column(dialect.column()))
        else {
            return Vec::new();
        };
        let nv4 = dialect.standalone_modifiers();
        let mut groups: Vec<(&'static [&'static str], &'static [&'static str])> = Vec::new();
        if m.float && nv4 {
            groups.push((&["F"], &["R"]));
        } else if m.full {
            groups.push((&[], &["R"]));
        }
        if m.half {
            groups.push((&[], &["H"]));
        }
        if m.fixed {
            groups.push((&[], &["X"]));
        }
        if m.integer && nv4 {
            groups.push((&["S", "U"], &[]));
        }
        if m.cc {
            match (nv4, dialect.cc_registers()) {
                (true, _) => groups.push((&["CC", "CC0", "CC1"], &["C", "C0", "C1"])),
                (false, 2) => groups.push((&[], &["C", "C0", "C1"])),
                _ => groups.push((&[], &["C"])),
            }
        }
        if m.clamp {
            match (nv4, dialect.signed_saturation()) {
                (true, _) => groups.push((&["SAT", "SSAT"], &["_SAT", "_SSAT"])),
                (false, true) => groups.push((&[], &["_SAT", "_SSAT"])),
                _ => groups.push((&[], &["_SAT"])),
            }
        }
        // Section 2.X.4.1: S24, U24 and HI are for MUL only.
        if self.opcode == Opcode::Mul && nv4 {
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

use DataType::{Float as F, Signed as S, Unsigned as U};
use OperandKind::{Address as AD, Scalar as Sc, Vector as Vc};
use TypeRule::{Float as TF, Inherit as TI, Signed as TS, Unsigned as TU};

const V: OperandKind = Vc(TI);
const VF: OperandKind = Vc(TF);
const VS: OperandKind = Vc(TS);
const VU: OperandKind = Vc(TU);
const SS: OperandKind = Sc(TI);
const SU: OperandKind = Sc(TU);
const SSI: OperandKind = Sc(TS);
const RV: ResultKind = ResultKind::Vector(TI);
const RVF: ResultKind = ResultKind::Vector(TF);
const RVS: ResultKind = ResultKind::Vector(TS);
const RVU: ResultKind = ResultKind::Vector(TU);
const RS: ResultKind = ResultKind::Scalar(TI);
const RA: ResultKind = ResultKind::Address;
const RN: ResultKind = ResultKind::None;

const FRAG: Option<Stage> = Some(Stage::Fragment);
const GEOM: Option<Stage> = Some(Stage::Geometry);
const VERT: Option<Stage> = Some(Stage::Vertex);
const COMP: Option<Stage> = Some(Stage::Compute);
const ALL: Option<Stage> = None;

/// The option an opcode needs within its languages (the table's option
/// column): the NV_gpu_program5 extensions' instructions exist only with
/// their `OPTION`.
pub const fn requires_of(op: Opcode) -> Features {
    match op {
        // NV_shader_storage_buffer_object 2.X.6: "If the option is not
        // specified, a program will fail to load if it contains "ATOMB",
        // "LDB", or "STB" opcodes".
        Opcode::Atomb | Opcode::Ldb | Opcode::Stb => Features::STORAGE_BUFFER,
        // NV_parameter_buffer_object2 2.X.2: "If a program specifies the
        // NV_parameter_buffer_object2 program option, the following rules
        // are added": <VECTORop> ::= "LDC" (implied by the NV5 headers).
        Opcode::Ldc => Features::PARAMETER_BUFFERS2,
        // NV_shader_buffer_load 2.X.2: "If a program specifies the
        // NV_shader_buffer_load program option ... Append to <SCALARop>
        // list: | "LOAD"" (implied by the NV5 headers).
        Opcode::Load => Features::SHADER_BUFFER_LOAD,
        // NV_shader_atomic_counters 2.X.6: "If a program specifies the
        // "NV_shader_atomic_counters" option, it may use ... the ATOMCTR
        // instruction".
        Opcode::Atomctr => Features::ATOMIC_COUNTERS,
        // NV_shader_thread_shuffle 2.X.6: "If this option is not specified,
        // a program will fail to compile if it uses those instructions."
        Opcode::Shfdown | Opcode::Shfidx | Opcode::Shfup | Opcode::Shfxor => {
            Features::THREAD_SHUFFLE
        }
        // NV_shader_thread_group 2.X.6: "If this option is not specified, a
        // program will fail to compile if it uses those instructions".
        Opcode::Tgballot
        | Opcode::Qswz0
        | Opcode::Qswz1
        | Opcode::Qswz2
        | Opcode::Qswz3
        | Opcode::Qswzx
        | Opcode::Qswzy => Features::THREAD_GROUP,
        _ => Features::NONE,
    }
}

/// The oldest target environment an opcode can be lowered for. NV_gpu_program5
/// 2.X.8.Z, TGALL/TGANY/TGEQ read "a vector operand for each active thread
/// in the current thread group"; SPIR-V's counterpart is the subgroup vote
/// (OpGroupNonUniformAll/Any/AllEqual, capability GroupNonUniformVote),
/// which SPIR-V 1.3, i.e. Vulkan 1.1, introduced (docs/interface.md,
/// "Thread groups").
///
/// ```
/// use nvp4c::{isa::{target_env_of, Opcode}, TargetEnv};
/// assert_eq!(target_env_of(Opcode::Tgall), TargetEnv::Vulkan1_1);
/// assert_eq!(target_env_of(Opcode::Mov), TargetEnv::Vulkan1_0);
/// ```
pub const fn target_env_of(op: Opcode) -> TargetEnv {
    target_env_need(op).0
}

/// [`target_env_of`] with the reason, for the checker's note.
const fn target_env_need(op: Opcode) -> (TargetEnv, &'static str) {
    match op {
        Opcode::Tgall | Opcode::Tgany | Opcode::Tgeq => (
            TargetEnv::Vulkan1_1,
            "it reads \"a vector operand for each active thread in the current thread group\"; \
             its SPIR-V is a subgroup vote (OpGroupNonUniformAll/Any/AllEqual, capability \
             GroupNonUniformVote), which needs SPIR-V 1.3",
        ),
        // NV_shader_thread_shuffle 2.X.8.Z, SHFIDX...: "allows a 32-bit
        // scalar value to be exchanged between multiple thread within a
        // thread group".
        Opcode::Shfdown | Opcode::Shfidx | Opcode::Shfup | Opcode::Shfxor => (
            TargetEnv::Vulkan1_1,
            "it reads a value \"exchanged between multiple thread within a thread group\"; \
             its SPIR-V is a subgroup shuffle (OpGroupNonUniformShuffle, capability \
             GroupNonUniformShuffle), which needs SPIR-V 1.3",
        ),
        Opcode::Tgballot => (
            TargetEnv::Vulkan1_1,
            "it reads \"a vector operand for each active thread in the current thread group\"; \
             its SPIR-V is a subgroup ballot (OpGroupNonUniformBallot, capability \
             GroupNonUniformBallot), which needs SPIR-V 1.3",
        ),
        Opcode::Qswz0
        | Opcode::Qswz1
        | Opcode::Qswz2
        | Opcode::Qswz3
        | Opcode::Qswzx
        | Opcode::Qswzy => (
            TargetEnv::Vulkan1_1,
            "it reads \"a floating point operand <swizzledValue>, which can come from any \
             fragment in the quad\"; its SPIR-V is a quad operation \
             (OpGroupNonUniformQuadBroadcast/QuadSwap, capability GroupNonUniformQuad), which \
             needs SPIR-V 1.3",
        ),
        // NV_gpu_program5 2.X.4.5: "the GPU address is specified as an
        // instruction operand"; SPIR-V reaches memory by address only
        // through a PhysicalStorageBuffer pointer (OpConvertUToPtr,
        // addressing model PhysicalStorageBuffer64), core in SPIR-V 1.5.
        // nvp4c does not use SPV_KHR_physical_storage_buffer on SPIR-V 1.0
        // or 1.3: Vulkan 1.2 made bufferDeviceAddress core, so one path
        // serves every device that has it (docs/interface.md, "GPU
        // addresses").
        Opcode::Load | Opcode::Store | Opcode::Atom => (
            TargetEnv::Vulkan1_2,
            "it reads or writes \"buffer object memory\" at \"the GPU address ... specified as an \
             instruction operand\" (2.X.4.5); its SPIR-V is an OpConvertUToPtr to a \
             PhysicalStorageBuffer pointer (capability PhysicalStorageBufferAddresses, \
             addressing model PhysicalStorageBuffer64), which needs SPIR-V 1.5",
        ),
        _ => (TargetEnv::Vulkan1_0, ""),
    }
}

/// One column entry: `-` (the opcode does not exist there) or the letters
/// of its modifiers.
macro_rules! col {
    (-) => {
        None
    };
    ($letters:literal) => {
        ModifierSupport::parse($letters)
    };
}

macro_rules! op {
    ($op:ident $name:literal $shape:ident [$($inp:expr),*] $res:ident $def:ident $stage:ident
     | $nv4:tt $nv5:tt $arbvp:tt $vp2:tt $vp3:tt $arbfp:tt $fpo:tt $fp2:tt
       $vp10:tt $vp11:tt $vp20:tt $fp10:tt | $sec:literal $sum:literal) => {
        OpInfo {
            opcode: Opcode::$op,
            name: $name,
            shape: Shape::$shape,
            columns: [
                col!($nv4), col!($nv5), col!($arbvp), col!($vp2), col!($vp3), col!($arbfp),
                col!($fpo), col!($fp2), col!($vp10), col!($vp11), col!($vp20), col!($fp10),
            ],
            default_type: $def,
            result: $res,
            inputs: &[$($inp),*],
            only_stage: $stage,
            requires: requires_of(Opcode::$op),
            min_env: target_env_need(Opcode::$op).0,
            min_env_why: target_env_need(Opcode::$op).1,
            section: $sec,
            summary: $sum,
        }
    };
}

/// The instruction table, in the order of `Opcode`: NV_gpu_program4's
/// Table X.13 (inputs, result, default data type D, program type and the
/// "F I C S H" modifier columns) with the ARB family's columns beside it.
/// Inputs: `V` vector, `SS` scalar, `VF`/`VS`/`VU` always float / signed /
/// unsigned, `AD` a whole address register. Results: `RV` vector, `RS`
/// scalar replicated, `RVF`/`RVS`/`RVU` typed, `RA` an address register,
/// `RN` none. Each column gives the modifiers in that language (letters
/// as in [`ModifierSupport`]) or `-` where the opcode does not exist. The
/// ARB columns transcribe Table X.5 of ARB_vertex_program,
/// NV_vertex_program2_option, NV_vertex_program3, ARB_fragment_program,
/// NV_fragment_program_option and NV_fragment_program2; the last four, the
/// older NV headers: `!!VP1.0` (NV_vertex_program Table X.4), `!!VP1.1`
/// (NV_vertex_program1_1), `!!VP2.0` (NV_vertex_program2 Table X.5) and
/// `!!FP1.0` (NV_fragment_program Table X.4).
///
/// ```
/// use nvp4c::isa::{INSTRUCTIONS, Stage};
/// assert!(INSTRUCTIONS.iter().any(|i| i.name == "EMIT" && i.only_stage == Some(Stage::Geometry)));
/// ```
#[rustfmt::skip]
pub static INSTRUCTIONS: &[OpInfo] = &[
    // opcode  name      shape        inputs       out D stage | NV4     NV5      ARBvp vp2  vp3   ARBfp fpOpt    fp2      VP1 1.1 VP2 FP1      | section, summary
    op!(Abs     "ABS"     Alu          [V]          RV  F ALL  | "FICSH" "FICSHDL" ""    "C"  "CS"  "S"   "RHXCS"  "RHXCS"  -   ""  "C" -        | "2.X.8.Z, ABS" "absolute value"),
    op!(Add     "ADD"     Alu          [V, V]       RV  F ALL  | "FICSH" "FICSHDL" ""    "C"  "CS"  "S"   "RHXCS"  "RHXCS"  ""  ""  "C" "RHXCS"  | "2.X.8.Z, ADD" "add"),
    op!(And     "AND"     Alu          [V, V]       RV  S ALL  | "IC"    "ICL"    -     -    -     -     -        -        -   -   -   -        | "2.X.8.Z, AND" "bitwise and"),
    op!(Ara     "ARA"     Alu          [AD]         RA  F VERT | -       -        -     "C"  "C"   -     -        -        -   -   "C" -        | "NV_vertex_program2_option 2.14.5.28, ARA" "address register add"),
    op!(Arl     "ARL"     Alu          [VF]         RA  F VERT | -       -        ""    "C"  "C"   -     -        -        ""  ""  "C" -        | "ARB_vertex_program 2.14.5.3, ARL" "address register load (floor)"),
    op!(Arr     "ARR"     Alu          [VF]         RA  F VERT | -       -        -     "C"  "C"   -     -        -        -   -   "C" -        | "NV_vertex_program2_option 2.14.5.29, ARR" "address register load (round)"),
    op!(Atom    "ATOM"    GlobalMemory [V]          RS  U ALL  | -       "C"      -     -    -     -     -        -        -   -   -   -        | "NV_gpu_program5 2.X.8.Z, ATOM" "atomic operation on the memory at a GPU address"),
    op!(Atomb   "ATOMB"   Memory       [V]          RS  U ALL  | -       "C"      -     -    -     -     -        -        -   -   -   -        | "NV_shader_storage_buffer_object 2.X.8.Z, ATOMB" "atomic operation on storage buffer memory"),
    op!(Atomim  "ATOMIM"  Image        [V, VS]      RS  U ALL  | -       "C"      -     -    -     -     -        -        -   -   -   -        | "EXT_shader_image_load_store, NV_gpu_program5 2.X.8.Z, ATOMIM" "atomic operation on an image"),
    op!(Atomctr "ATOMCTR" Memory       []           RS  U ALL  | -       "IC"     -     -    -     -     -        -        -   -   -   -        | "NV_shader_atomic_counters 2.X.8.Z, ATOMCTR" "atomic counter operation"),
    op!(Atoms   "ATOMS"   SharedMemory [V]          RS  U COMP | -       "C"      -     -    -     -     -        -        -   -   -   -        | "NV_compute_program5 2.X.8.Z, ATOMS" "atomic operation on shared memory"),
    op!(Bar     "BAR"     Barrier      []           RN  F COMP | -       ""       -     -    -     -     -        -        -   -   -   -        | "NV_compute_program5 2.X.8.Z, BAR" "work group execution barrier"),
    op!(Bfe     "BFE"     Alu          [V, V]       RV  S ALL  | -       "IC"     -     -    -     -     -        -        -   -   -   -        | "NV_gpu_program5 2.X.8.Z, BFE" "bitfield extract"),
    op!(Bfi     "BFI"     Alu          [V, V, V]    RV  S ALL  | -       "IC"     -     -    -     -     -        -        -   -   -   -        | "NV_gpu_program5 2.X.8.Z, BFI" "bitfield insert"),
    op!(Bfr     "BFR"     Alu          [V]          RV  S ALL  | -       "IC"     -     -    -     -     -        -        -   -   -   -        | "NV_gpu_program5 2.X.8.Z, BFR" "bitfield reverse"),
    op!(Bra     "BRA"     Call         []           RN  F VERT | -       -        -     ""   ""    -     -        -        -   -   ""  -        | "NV_vertex_program2_option 2.14.5.30, BRA" "branch to a label"),
    op!(Brk     "BRK"     FlowCc       []           RN  F ALL  | ""      ""       -     -    -     -     -        ""       -   -   -   -        | "2.X.8.Z, BRK" "break out of loop"),
    op!(Btc     "BTC"     Alu          [V]          RV  S ALL  | -       "IC"     -     -    -     -     -        -        -   -   -   -        | "NV_gpu_program5 2.X.8.Z, BTC" "bit count"),
    op!(Btfl    "BTFL"    Alu          [V]          RV  S ALL  | -       "IC"     -     -    -     -     -        -        -   -   -   -        | "NV_gpu_program5 2.X.8.Z, BTFL" "find least significant bit"),
    op!(Btfm    "BTFM"    Alu          [V]          RV  S ALL  | -       "IC"     -     -    -     -     -        -        -   -   -   -        | "NV_gpu_program5 2.X.8.Z, BTFM" "find most significant bit"),
    op!(Cal     "CAL"     Call         []           RN  F ALL  | ""      ""       -     ""   ""    -     -        ""       -   -   ""  -        | "2.X.8.Z, CAL" "subroutine call"),
    op!(Cali    "CALI"    Call         []           RN  F ALL  | -       ""       -     -    -     -     -        -        -   -   -   -        | "ARB_shader_subroutine (NV_gpu_program5 edits), 2.X.8.Z CALI" "indirect subroutine call"),
    op!(Ceil    "CEIL"    Alu          [VF]         RV  F ALL  | "FICSH" "FICSHDL" -     -    -     -     -        -        -   -   -   -        | "2.X.8.Z, CEIL" "ceiling"),
    op!(Cmp     "CMP"     Alu          [V, V, V]    RV  F ALL  | "FICSH" "FICSHDL" -     -    -     "S"   "S"      "CS"     -   -   -   -        | "2.X.8.Z, CMP" "compare"),
    op!(Cont    "CONT"    FlowCc       []           RN  F ALL  | ""      ""       -     -    -     -     -        -        -   -   -   -        | "2.X.8.Z, CONT" "continue with next loop iteration"),
    op!(Cos     "COS"     Alu          [SS]         RS  F ALL  | "FCSH"  "FCSH"   -     "C"  "CS"  "S"   "RHCS"   "RHCS"   -   -   "C" "RHCS"   | "2.X.8.Z, COS" "cosine with reduction to [-PI,PI]"),
    op!(Cvt     "CVT"     Alu          [V]          RV  F ALL  | -       "CS"     -     -    -     -     -        -        -   -   -   -        | "NV_gpu_program5 2.X.8.Z, CVT" "general data type conversion"),
    op!(Ddx     "DDX"     Alu          [V]          RV  F FRAG | "FCSH"  "FCSH"   -     -    -     -     "RHCS"   "RHCS"   -   -   -   "RHCS"   | "2.X.8.Z, DDX" "partial derivative relative to X"),
    op!(Ddy     "DDY"     Alu          [V]          RV  F FRAG | "FCSH"  "FCSH"   -     -    -     -     "RHCS"   "RHCS"   -   -   -   "RHCS"   | "2.X.8.Z, DDY" "partial derivative relative to Y"),
    op!(Div     "DIV"     Alu          [V, SS]      RV  F ALL  | "FICSH" "FICSHDL" -     -    -     -     -        "RHCS"   -   -   -   -        | "2.X.8.Z, DIV" "divide vector components by scalar"),
    op!(Dp2     "DP2"     Alu          [V, V]       RS  F ALL  | "FCSH"  "FCSH"   -     -    -     -     -        "RHXCS"  -   -   -   -        | "2.X.8.Z, DP2" "2-component dot product"),
    op!(Dp2a    "DP2A"    Alu          [V, V, V]    RS  F ALL  | "FCSH"  "FCSH"   -     -    -     -     -        "RHXCS"  -   -   -   -        | "2.X.8.Z, DP2A" "2-component dot product with scalar add"),
    op!(Dp3     "DP3"     Alu          [V, V]       RS  F ALL  | "FCSH"  "FCSH"   ""    "C"  "CS"  "S"   "RHXCS"  "RHXCS"  ""  ""  "C" "RHXCS"  | "2.X.8.Z, DP3" "3-component dot product"),
    op!(Dp4     "DP4"     Alu          [V, V]       RS  F ALL  | "FCSH"  "FCSH"   ""    "C"  "CS"  "S"   "RHXCS"  "RHXCS"  ""  ""  "C" "RHXCS"  | "2.X.8.Z, DP4" "4-component dot product"),
    op!(Dph     "DPH"     Alu          [V, V]       RS  F ALL  | "FCSH"  "FCSH"   ""    "C"  "CS"  "S"   "RHXCS"  "RHXCS"  -   ""  "C" -        | "2.X.8.Z, DPH" "homogeneous dot product"),
    op!(Dst     "DST"     Alu          [V, V]       RV  F ALL  | "FCSH"  "FCSH"   ""    "C"  "CS"  "S"   "RHCS"   "RHCS"   ""  ""  "C" "RHCS"   | "2.X.8.Z, DST" "distance vector"),
    op!(Else    "ELSE"    EndFlow      []           RN  F ALL  | ""      ""       -     -    -     -     -        ""       -   -   -   -        | "2.X.8.Z, ELSE" "start if test else block"),
    op!(Emit    "EMIT"    Primitive    []           RN  F GEOM | ""      ""       -     -    -     -     -        -        -   -   -   -        | "NV_geometry_program4 2.X.8.Z, EMIT" "emit vertex"),
    op!(Emits   "EMITS"   Primitive    [SSI]        RN  S GEOM | -       ""       -     -    -     -     -        -        -   -   -   -        | "NV_gpu_program5 2.X.8.Z, EMITS" "emit vertex to stream"),
    op!(Endif   "ENDIF"   EndFlow      []           RN  F ALL  | ""      ""       -     -    -     -     -        ""       -   -   -   -        | "2.X.8.Z, ENDIF" "end if test block"),
    op!(Endloop "ENDLOOP" EndFlow      []           RN  F FRAG | -       -        -     -    -     -     -        ""       -   -   -   -        | "NV_fragment_program2 3.11.X.5, ENDLOOP" "end of loop block"),
    op!(Endprim "ENDPRIM" Primitive    []           RN  F GEOM | ""      ""       -     -    -     -     -        -        -   -   -   -        | "NV_geometry_program4 2.X.8.Z, ENDPRIM" "end of primitive"),
    op!(Endrep  "ENDREP"  EndFlow      []           RN  F ALL  | ""      ""       -     -    -     -     -        ""       -   -   -   -        | "2.X.8.Z, ENDREP" "end of repeat block"),
    op!(Ex2     "EX2"     Alu          [SS]         RS  F ALL  | "FCSH"  "FCSH"   ""    "C"  "CS"  "S"   "RHCS"   "RHCS"   -   -   "C" "RHCS"   | "2.X.8.Z, EX2" "exponential base 2"),
    op!(Exp     "EXP"     Alu          [SS]         RV  F VERT | -       -        ""    "C"  "CS"  -     -        -        ""  ""  "C" -        | "ARB_vertex_program 2.14.5.9, EXP" "exponential base 2 (approximate)"),
    op!(Flr     "FLR"     Alu          [VF]         RV  F ALL  | "FICSH" "FICSHDL" ""    "C"  "CS"  "S"   "RHXCS"  "RHXCS"  -   -   "C" "RHXCS"  | "2.X.8.Z, FLR" "floor"),
    op!(Frc     "FRC"     Alu          [V]          RV  F ALL  | "FCSH"  "FCSHD"  ""    "C"  "CS"  "S"   "RHXCS"  "RHXCS"  -   -   "C" "RHXCS"  | "2.X.8.Z, FRC" "fraction"),
    op!(I2f     "I2F"     Alu          [V]          RVF S ALL  | "IC"    "ICL"    -     -    -     -     -        -        -   -   -   -        | "2.X.8.Z, I2F" "integer to float"),
    op!(If      "IF"      If           []           RN  F ALL  | ""      ""       -     -    -     -     -        ""       -   -   -   -        | "2.X.8.Z, IF" "start of if test block"),
    op!(Ipac    "IPAC"    Alu          [VF]         RV  F FRAG | -       "FCS"    -     -    -     -     -        -        -   -   -   -        | "NV_gpu_program5 2.X.8.Z, IPAC" "interpolate at centroid"),
    op!(Ipao    "IPAO"    Alu          [VF, VF]     RV  F FRAG | -       "FCS"    -     -    -     -     -        -        -   -   -   -        | "NV_gpu_program5 2.X.8.Z, IPAO" "interpolate with offset"),
    op!(Ipas    "IPAS"    Alu          [VF, SU]     RV  F FRAG | -       "FCS"    -     -    -     -     -        -        -   -   -   -        | "NV_gpu_program5 2.X.8.Z, IPAS" "interpolate at sample location"),
    op!(Kil     "KIL"     Kil          [V]          RN  F FRAG | "FIH"   "FIH"    -     -    -     ""    ""       ""       -   -   -   ""       | "NV_fragment_program4 2.X.8.Z, KIL" "kill fragment"),
    op!(Ldb     "LDB"     Memory       []           RV  U ALL  | -       "CS"     -     -    -     -     -        -        -   -   -   -        | "NV_shader_storage_buffer_object 2.X.8.Z, LDB" "load from storage buffer memory"),
    op!(Ldc     "LDC"     Memory       [V]          RV  U ALL  | "CS"    "CS"     -     -    -     -     -        -        -   -   -   -        | "NV_parameter_buffer_object2 2.X.8.Z, LDC" "load from constant buffer"),
    op!(Lds     "LDS"     SharedMemory []           RV  U COMP | -       "CS"     -     -    -     -     -        -        -   -   -   -        | "NV_compute_program5 2.X.8.Z, LDS" "load from shared memory"),
    op!(Lg2     "LG2"     Alu          [SS]         RS  F ALL  | "FCSH"  "FCSH"   ""    "C"  "CS"  "S"   "RHCS"   "RHCS"   -   -   "C" "RHCS"   | "2.X.8.Z, LG2" "logarithm base 2"),
    op!(Lit     "LIT"     Alu          [V]          RV  F ALL  | "FCSH"  "FCSH"   ""    "C"  "CS"  "S"   "RHCS"   "RHCS"   ""  ""  "C" "RHCS"   | "2.X.8.Z, LIT" "compute lighting coefficients"),
    op!(Load    "LOAD"    GlobalMemory []           RV  U ALL  | "CS"    "CS"     -     -    -     -     -        -        -   -   -   -        | "NV_gpu_program5 2.X.8.Z, LOAD" "load from a GPU address"),
    op!(Loadim  "LOADIM"  Image        [VS]         RV  U ALL  | -       "CS"     -     -    -     -     -        -        -   -   -   -        | "EXT_shader_image_load_store, NV_gpu_program5 2.X.8.Z, LOADIM" "image load"),
    op!(Lod     "LOD"     Tex          [VF]         RV  F ALL  | -       "FCS"    -     -    -     -     -        -        -   -   -   -        | "NV_gpu_program4_1 2.X.8.Z, LOD" "compute texture level of detail"),
    op!(Log     "LOG"     Alu          [SS]         RV  F VERT | -       -        ""    "C"  "CS"  -     -        -        ""  ""  "C" -        | "ARB_vertex_program 2.14.5.14, LOG" "logarithm base 2 (approximate)"),
    op!(Loop    "LOOP"    Rep          [V]          RN  F FRAG | -       -        -     -    -     -     -        ""       -   -   -   -        | "NV_fragment_program2 3.11.X.8, LOOP" "start of loop block with a loop index (A0.x)"),
    op!(Lrp     "LRP"     Alu          [V, V, V]    RV  F ALL  | "FCSH"  "FCSH"   -     -    -     "S"   "RHXCS"  "RHXCS"  -   -   -   "RHXCS"  | "2.X.8.Z, LRP" "linear interpolation"),
    op!(Mad     "MAD"     Alu          [V, V, V]    RV  F ALL  | "FICSH" "FICSHDL" ""    "C"  "CS"  "S"   "RHXCS"  "RHXCS"  ""  ""  "C" "RHXCS"  | "2.X.8.Z, MAD" "multiply and add"),
    op!(Max     "MAX"     Alu          [V, V]       RV  F ALL  | "FICSH" "FICSHDL" ""    "C"  "CS"  "S"   "RHXCS"  "RHXCS"  ""  ""  "C" "RHXCS"  | "2.X.8.Z, MAX" "maximum"),
    op!(Membar  "MEMBAR"  MemoryBarrier []          RN  F ALL  | -       ""       -     -    -     -     -        -        -   -   -   -        | "NV_gpu_program5 2.X.8.Z, MEMBAR" "memory barrier"),
    op!(Min     "MIN"     Alu          [V, V]       RV  F ALL  | "FICSH" "FICSHDL" ""    "C"  "CS"  "S"   "RHXCS"  "RHXCS"  ""  ""  "C" "RHXCS"  | "2.X.8.Z, MIN" "minimum"),
    op!(Mod     "MOD"     Alu          [V, SS]      RV  S ALL  | "IC"    "ICL"    -     -    -     -     -        -        -   -   -   -        | "2.X.8.Z, MOD" "modulus vector components by scalar"),
    op!(Mov     "MOV"     Alu          [V]          RV  F ALL  | "FICSH" "FICSHDL" ""    "C"  "CS"  "S"   "RHXCS"  "RHXCS"  ""  ""  "C" "RHXCS"  | "2.X.8.Z, MOV" "move"),
    op!(Mul     "MUL"     Alu          [V, V]       RV  F ALL  | "FICSH" "FICSHDL" ""    "C"  "CS"  "S"   "RHXCS"  "RHXCS"  ""  ""  "C" "RHXCS"  | "2.X.8.Z, MUL" "multiply"),
    op!(Not     "NOT"     Alu          [V]          RV  S ALL  | "IC"    "ICL"    -     -    -     -     -        -        -   -   -   -        | "2.X.8.Z, NOT" "bitwise not"),
    op!(Nrm     "NRM"     Alu          [V]          RV  F ALL  | "FCSH"  "FCSH"   -     -    -     -     -        "RHCS"   -   -   -   -        | "2.X.8.Z, NRM" "normalize 3-component vector"),
    op!(Or      "OR"      Alu          [V, V]       RV  S ALL  | "IC"    "ICL"    -     -    -     -     -        -        -   -   -   -        | "2.X.8.Z, OR" "bitwise or"),
    op!(Pk2h    "PK2H"    Alu          [VF]         RS  F ALL  | "FI"    "FI"     -     -    -     -     ""       ""       -   -   -   ""       | "2.X.8.Z, PK2H" "pack two 16-bit floats"),
    op!(Pk2us   "PK2US"   Alu          [VF]         RS  F ALL  | "FI"    "FI"     -     -    -     -     ""       ""       -   -   -   ""       | "2.X.8.Z, PK2US" "pack two floats as unsigned 16-bit"),
    op!(Pk4b    "PK4B"    Alu          [VF]         RS  F ALL  | "FI"    "FI"     -     -    -     -     ""       ""       -   -   -   ""       | "2.X.8.Z, PK4B" "pack four floats as signed 8-bit"),
    op!(Pk4ub   "PK4UB"   Alu          [VF]         RS  F ALL  | "FI"    "FI"     -     -    -     -     ""       ""       -   -   -   ""       | "2.X.8.Z, PK4UB" "pack four floats as unsigned 8-bit"),
    op!(Pk64    "PK64"    Alu          [V]          RV  F ALL  | -       "FI"     -     -    -     -     -        -        -   -   -   -        | "NV_gpu_program5 2.X.8.Z, PK64" "pack pairs of 32-bit components into 64-bit ones"),
    op!(Popa    "POPA"    AddressStack []           RA  F VERT | -       -        -     -    ""    -     -        -        -   -   -   -        | "NV_vertex_program3 2.14.5.43, POPA" "pop address register from the call stack"),
    op!(Pow     "POW"     Alu          [SS, SS]     RS  F ALL  | "FCSH"  "FCSH"   ""    "C"  "CS"  "S"   "RHCS"   "RHCS"   -   -   -   "RHCS"   | "2.X.8.Z, POW" "exponentiate"),
    op!(Pusha   "PUSHA"   AddressStack [AD]         RN  F VERT | -       -        -     -    ""    -     -        -        -   -   -   -        | "NV_vertex_program3 2.14.5.44, PUSHA" "push address register onto the call stack"),
    op!(Qswz0   "QSWZ0"   Alu          [V, V]       RV  F FRAG | -       "F"      -     -    -     -     -        -        -   -   -   -        | "NV_shader_thread_group 2.X.8.Z, QSWZ0" "add fragment 0 in a quad"),
    op!(Qswz1   "QSWZ1"   Alu          [V, V]       RV  F FRAG | -       "F"      -     -    -     -     -        -        -   -   -   -        | "NV_shader_thread_group 2.X.8.Z, QSWZ1" "add fragment 1 in a quad"),
    op!(Qswz2   "QSWZ2"   Alu          [V, V]       RV  F FRAG | -       "F"      -     -    -     -     -        -        -   -   -   -        | "NV_shader_thread_group 2.X.8.Z, QSWZ2" "add fragment 2 in a quad"),
    op!(Qswz3   "QSWZ3"   Alu          [V, V]       RV  F FRAG | -       "F"      -     -    -     -     -        -        -   -   -   -        | "NV_shader_thread_group 2.X.8.Z, QSWZ3" "add fragment 3 in a quad"),
    op!(Qswzx   "QSWZX"   Alu          [V, V]       RV  F FRAG | -       "F"      -     -    -     -     -        -        -   -   -   -        | "NV_shader_thread_group 2.X.8.Z, QSWZX" "add fragments horizontally"),
    op!(Qswzy   "QSWZY"   Alu          [V, V]       RV  F FRAG | -       "F"      -     -    -     -     -        -        -   -   -   -        | "NV_shader_thread_group 2.X.8.Z, QSWZY" "add fragments vertically"),
    op!(Rcc     "RCC"     Alu          [SS]         RS  F ALL  | "FCSH"  "FCSH"   -     "C"  "CS"  -     -        -        -   ""  "C" -        | "2.X.8.Z, RCC" "reciprocal (clamped)"),
    op!(Rcp     "RCP"     Alu          [SS]         RS  F ALL  | "FCSH"  "FCSHD"  ""    "C"  "CS"  "S"   "RHCS"   "RHCS"   ""  ""  "C" "RHCS"   | "2.X.8.Z, RCP" "reciprocal"),
    op!(Rep     "REP"     Rep          [V]          RN  F ALL  | "FIH"   "FIHDL"  -     -    -     -     -        ""       -   -   -   -        | "2.X.8.Z, REP" "start of repeat block"),
    op!(Ret     "RET"     FlowCc       []           RN  F ALL  | ""      ""       -     ""   ""    -     -        ""       -   -   ""  -        | "2.X.8.Z, RET" "subroutine return"),
    op!(Rfl     "RFL"     Alu          [V, V]       RV  F ALL  | "FCSH"  "FCSH"   -     -    -     -     "RHCS3"  "RHCS3"  -   -   -   "RHCS3"  | "2.X.8.Z, RFL" "reflection vector"),
    op!(Round   "ROUND"   Alu          [VF]         RV  F ALL  | "FICSH" "FICSHDL" -     -    -     -     -        -        -   -   -   -        | "2.X.8.Z, ROUND" "round to nearest integer"),
    op!(Rsq     "RSQ"     Alu          [SS]         RS  F ALL  | "FCSH"  "FCSHD"  ""    "C"  "CS"  "S"   "RHCS"   "RHCS"   ""  ""  "C" "RHCS"   | "2.X.8.Z, RSQ" "reciprocal square root"),
    op!(Sad     "SAD"     Alu          [V, V, VU]   RVU S ALL  | "IC"    "ICL"    -     -    -     -     -        -        -   -   -   -        | "2.X.8.Z, SAD" "sum of absolute differences"),
    op!(Scs     "SCS"     Alu          [SS]         RV  F ALL  | "FCSH"  "FCSH"   -     -    -     "S"   "S"      "RHCS"   -   -   -   -        | "2.X.8.Z, SCS" "sine/cosine without reduction"),
    op!(Seq     "SEQ"     Alu          [V, V]       RV  F ALL  | "FICSH" "FICSHDL" -     "C"  "CS"  -     "RHXCS"  "RHXCS"  -   -   "C" "RHXCS"  | "2.X.8.Z, SEQ" "set on equal"),
    op!(Sfl     "SFL"     Alu          [V, V]       RV  F ALL  | "FICSH" "FICSHDL" -     "C"  "CS"  -     "RHXCS"  "RHXCS"  -   -   "C" "RHXCS"  | "2.X.8.Z, SFL" "set on false"),
    op!(Sge     "SGE"     Alu          [V, V]       RV  F ALL  | "FICSH" "FICSHDL" ""    "C"  "CS"  "S"   "RHXCS"  "RHXCS"  ""  ""  "C" "RHXCS"  | "2.X.8.Z, SGE" "set on greater than or equal"),
    op!(Sgt     "SGT"     Alu          [V, V]       RV  F ALL  | "FICSH" "FICSHDL" -     "C"  "CS"  -     "RHXCS"  "RHXCS"  -   -   "C" "RHXCS"  | "2.X.8.Z, SGT" "set on greater than"),
    op!(Shl     "SHL"     Alu          [V, SS]      RV  S ALL  | "IC"    "ICL"    -     -    -     -     -        -        -   -   -   -        | "2.X.8.Z, SHL" "shift left"),
    op!(Shr     "SHR"     Alu          [V, SS]      RV  S ALL  | "IC"    "ICL"    -     -    -     -     -        -        -   -   -   -        | "2.X.8.Z, SHR" "shift right"),
    op!(Shfdown "SHFDOWN" Alu          [V, VU, VU]  RV  F ALL  | -       "FI"     -     -    -     -     -        -        -   -   -   -        | "NV_shader_thread_shuffle 2.X.8.Z, SHFDOWN" "warp shuffle with added index"),
    op!(Shfidx  "SHFIDX"  Alu          [V, VU, VU]  RV  F ALL  | -       "FI"     -     -    -     -     -        -        -   -   -   -        | "NV_shader_thread_shuffle 2.X.8.Z, SHFIDX" "warp shuffle with absolute index"),
    op!(Shfup   "SHFUP"   Alu          [V, VU, VU]  RV  F ALL  | -       "FI"     -     -    -     -     -        -        -   -   -   -        | "NV_shader_thread_shuffle 2.X.8.Z, SHFUP" "warp shuffle with subtracted index"),
    op!(Shfxor  "SHFXOR"  Alu          [V, VU, VU]  RV  F ALL  | -       "FI"     -     -    -     -     -        -        -   -   -   -        | "NV_shader_thread_shuffle 2.X.8.Z, SHFXOR" "warp shuffle with XORed index"),
    op!(Sin     "SIN"     Alu          [SS]         RS  F ALL  | "FCSH"  "FCSH"   -     "C"  "CS"  "S"   "RHCS"   "RHCS"   -   -   "C" "RHCS"   | "2.X.8.Z, SIN" "sine with reduction to [-PI,PI]"),
    op!(Sle     "SLE"     Alu          [V, V]       RV  F ALL  | "FICSH" "FICSHDL" -     "C"  "CS"  -     "RHXCS"  "RHXCS"  -   -   "C" "RHXCS"  | "2.X.8.Z, SLE" "set on less than or equal"),
    op!(Slt     "SLT"     Alu          [V, V]       RV  F ALL  | "FICSH" "FICSHDL" ""    "C"  "CS"  "S"   "RHXCS"  "RHXCS"  ""  ""  "C" "RHXCS"  | "2.X.8.Z, SLT" "set on less than"),
    op!(Sne     "SNE"     Alu          [V, V]       RV  F ALL  | "FICSH" "FICSHDL" -     "C"  "CS"  -     "RHXCS"  "RHXCS"  -   -   "C" "RHXCS"  | "2.X.8.Z, SNE" "set on not equal"),
    op!(Ssg     "SSG"     Alu          [V]          RV  F ALL  | "FCSH"  "FCSHD"  -     "C"  "CS"  -     -        -        -   -   "C" -        | "2.X.8.Z, SSG" "set sign"),
    op!(Stb     "STB"     Memory       [V]          RN  U ALL  | -       ""       -     -    -     -     -        -        -   -   -   -        | "NV_shader_storage_buffer_object 2.X.8.Z, STB" "store to storage buffer memory"),
    op!(Store   "STORE"   GlobalMemory [V]          RN  U ALL  | -       ""       -     -    -     -     -        -        -   -   -   -        | "NV_gpu_program5 2.X.8.Z, STORE" "store to a GPU address"),
    op!(Storeim "STOREIM" Image        [V, VS]      RN  F ALL  | -       "FI"     -     -    -     -     -        -        -   -   -   -        | "EXT_shader_image_load_store, NV_gpu_program5 2.X.8.Z, STOREIM" "image store"),
    op!(Str     "STR"     Alu          [V, V]       RV  F ALL  | "FICSH" "FICSHDL" -     "C"  "CS"  -     "RHXCS"  "RHXCS"  -   -   "C" "RHXCS"  | "2.X.8.Z, STR" "set on true"),
    op!(Sts     "STS"     SharedMemory [V]          RN  U COMP | -       ""       -     -    -     -     -        -        -   -   -   -        | "NV_compute_program5 2.X.8.Z, STS" "store to shared memory"),
    op!(Sub     "SUB"     Alu          [V, V]       RV  F ALL  | "FICSH" "FICSHDL" ""    "C"  "CS"  "S"   "RHXCS"  "RHXCS"  -   ""  "C" "RHXCS"  | "2.X.8.Z, SUB" "subtract"),
    op!(Swz     "SWZ"     Swz          [V]          RV  F ALL  | "FCSH"  "FCSH"   ""    "C"  "CS"  "S"   "S"      "RHCS"   -   -   -   -        | "2.X.8.Z, SWZ" "extended swizzle"),
    op!(Tex     "TEX"     Tex          [VF]         RV  F ALL  | "FICS"  "FICS"   -     -    "CS"  "S"   "CS"     "CS"     -   -   -   "CS"     | "2.X.8.Z, TEX" "texture sample"),
    op!(Tgall   "TGALL"   Alu          [V]          RV  F ALL  | -       "FICS"   -     -    -     -     -        -        -   -   -   -        | "NV_gpu_program5 2.X.8.Z, TGALL" "test all non-zero in thread group"),
    op!(Tgany   "TGANY"   Alu          [V]          RV  F ALL  | -       "FICS"   -     -    -     -     -        -        -   -   -   -        | "NV_gpu_program5 2.X.8.Z, TGANY" "test any non-zero in thread group"),
    op!(Tgballot "TGBALLOT" Alu        [V]          RVU F ALL  | -       "FICS"   -     -    -     -     -        -        -   -   -   -        | "NV_shader_thread_group 2.X.8.Z, TGBALLOT" "query a boolean in thread group"),
    op!(Tgeq    "TGEQ"    Alu          [V]          RV  F ALL  | -       "FICS"   -     -    -     -     -        -        -   -   -   -        | "NV_gpu_program5 2.X.8.Z, TGEQ" "test all equal in thread group"),
    op!(Trunc   "TRUNC"   Alu          [VF]         RV  F ALL  | "FICSH" "FICSHDL" -     -    -     -     -        -        -   -   -   -        | "2.X.8.Z, TRUNC" "truncate (round toward zero)"),
    op!(Txb     "TXB"     Tex          [VF]         RV  F ALL  | "FICS"  "FICS"   -     -    "CS"  "S"   "CS"     "CS"     -   -   -   -        | "2.X.8.Z, TXB" "texture sample with bias"),
    op!(Txd     "TXD"     Txd          [VF, VF, VF] RV  F ALL  | "FICS"  "FICS"   -     -    -     -     "CS"     "CS"     -   -   -   "CS"     | "2.X.8.Z, TXD" "texture sample with partials"),
    op!(Txf     "TXF"     Tex          [VS]         RV  F ALL  | "FICS"  "FICS"   -     -    -     -     -        -        -   -   -   -        | "2.X.8.Z, TXF" "texel fetch"),
    op!(Txg     "TXG"     Tex          [VF]         RV  F ALL  | -       "FICS"   -     -    -     -     -        -        -   -   -   -        | "NV_gpu_program5 2.X.8.Z, TXG" "texture gather"),
    op!(Txgo    "TXGO"    Txd          [VF, VS, VS] RV  F ALL  | -       "FICS"   -     -    -     -     -        -        -   -   -   -        | "NV_gpu_program5 2.X.8.Z, TXGO" "texture gather with per-texel offsets"),
    op!(Txl     "TXL"     Tex          [VF]         RV  F ALL  | "FICS"  "FICS"   -     -    "CS"  -     -        "CS"     -   -   -   -        | "2.X.8.Z, TXL" "texture sample with LOD"),
    op!(Txp     "TXP"     Tex          [VF]         RV  F ALL  | "FICS"  "FICS"   -     -    "CS"  "S"   "CS"     "CS"     -   -   -   "CS"     | "2.X.8.Z, TXP" "texture sample with projection"),
    op!(Txq     "TXQ"     Tex          [VS]         RVS S ALL  | ""      ""       -     -    -     -     -        -        -   -   -   -        | "2.X.8.Z, TXQ" "texture info query"),
    op!(Up2h    "UP2H"    Alu          [SS]         RVF F ALL  | "FICS"  "FICS"   -     -    -     -     "CS"     "CS"     -   -   -   "CS"     | "2.X.8.Z, UP2H" "unpack two 16-bit floats"),
    op!(Up2us   "UP2US"   Alu          [SS]         RVF F ALL  | "FICS"  "FICS"   -     -    -     -     "CS"     "CS"     -   -   -   "CS"     | "2.X.8.Z, UP2US" "unpack two unsigned 16-bit integers"),
    op!(Up4b    "UP4B"    Alu          [SS]         RVF F ALL  | "FICS"  "FICS"   -     -    -     -     "CS"     "CS"     -   -   -   "CS"     | "2.X.8.Z, UP4B" "unpack four signed 8-bit integers"),
    op!(Up4ub   "UP4UB"   Alu          [SS]         RVF F ALL  | "FICS"  "FICS"   -     -    -     -     "CS"     "CS"     -   -   -   "CS"     | "2.X.8.Z, UP4UB" "unpack four unsigned 8-bit integers"),
    op!(Up64    "UP64"    Alu          [V]          RV  F ALL  | -       "FICS"   -     -    -     -     -        -        -   -   -   -        | "NV_gpu_program5 2.X.8.Z, UP64" "unpack 64-bit components into pairs of 32-bit ones"),
    op!(X2d     "X2D"     Alu          [V, V, V]    RV  F ALL  | "FCSH"  "FCSH"   -     -    -     -     "RHCS"   "RHCS"   -   -   -   "RHCS"   | "2.X.8.Z, X2D" "2D coordinate transformation"),
    op!(Xor     "XOR"     Alu          [V, V]       RV  S ALL  | "IC"    "ICL"    -     -    -     -     -        -        -   -   -   -        | "2.X.8.Z, XOR" "exclusive or"),
    op!(Xpd     "XPD"     Alu          [V, V]       RV  F ALL  | "FCSH"  "FCSH"   ""    "C"  "CS"  "S"   "S"      "RHCS"   -   -   -   -        | "2.X.8.Z, XPD" "cross product"),
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
    Precise,
}

/// A modifier as written, stand-alone (Table X.14) or as a suffix (Table X.15).
// Internal and unstable (the parser's suffix splitting).
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Modifier {
    F,
    U,
    S,
    /// `.CC` or the suffix `C`: the condition code register without a
    /// number (CC0; in the ARB family's NV options, the only one).
    Cc,
    Cc0,
    Cc1,
    Sat,
    Ssat,
    Ntc,
    S24,
    U24,
    Hi,
    /// `.F64`: floating-point at 64-bit precision (NV_gpu_program5
    /// 2.X.4.1: "precision-specific data type modifiers").
    F64,
    /// `.S64`: signed integer at 64-bit precision.
    S64,
    /// `.U64`: unsigned integer at 64-bit precision.
    U64,
    /// `.PREC`: the result must not depend on how neighbouring
    /// instructions are combined (NV_gpu_program5 2.X.4.1).
    Prec,
    /// Suffix `R`: float at full precision.
    PrecisionFull,
    /// Suffix `H`: float at half precision or better.
    PrecisionHalf,
    /// Suffix `X`: 12-bit fixed point (NV_fragment_program_option).
    PrecisionFixed,
}

impl ModifierKind {
    pub fn describe(self) -> &'static str {
        match self {
            ModifierKind::DataType => "data type",
            ModifierKind::CcUpdate => "condition code update",
            ModifierKind::Clamp => "clamping",
            ModifierKind::NoTypeCheck => "NTC",
            ModifierKind::Multiply => "multiply (S24/U24/HI)",
            ModifierKind::Precise => "PREC",
        }
    }
}

impl Modifier {
    pub fn name(self) -> &'static str {
        match self {
            Modifier::F => "F",
            Modifier::U => "U",
            Modifier::S => "S",
            Modifier::Cc => "CC",
            Modifier::Cc0 => "CC0",
            Modifier::Cc1 => "CC1",
            Modifier::Sat => "SAT",
            Modifier::Ssat => "SSAT",
            Modifier::Ntc => "NTC",
            Modifier::S24 => "S24",
            Modifier::U24 => "U24",
            Modifier::Hi => "HI",
            Modifier::F64 => "F64",
            Modifier::S64 => "S64",
            Modifier::U64 => "U64",
            Modifier::Prec => "PREC",
            Modifier::PrecisionFull => "R",
            Modifier::PrecisionHalf => "H",
            Modifier::PrecisionFixed => "X",
        }
    }

    /// Stand-alone modifiers of Table X.14.
    pub fn standalone(text: &str) -> Option<Modifier> {
        Some(match text {
            "F" => Modifier::F,
            "U" => Modifier::U,
            "S" => Modifier::S,
            "CC" => Modifier::Cc,
            "CC0" => Modifier::Cc0,
            "CC1" => Modifier::Cc1,
            "SAT" => Modifier::Sat,
            "SSAT" => Modifier::Ssat,
            "NTC" => Modifier::Ntc,
            "S24" => Modifier::S24,
            "U24" => Modifier::U24,
            "HI" => Modifier::Hi,
            "F64" => Modifier::F64,
            "S64" => Modifier::S64,
            "U64" => Modifier::U64,
            "PREC" => Modifier::Prec,
            _ => return None,
        })
    }
    pub const STANDALONE_NAMES: &'static [&'static str] = &[
        "F", "U", "S", "CC", "CC0", "CC1", "SAT", "SSAT", "NTC", "S24", "U24", "HI", "F64", "S64",
        "U64", "PREC",
    ];
    pub fn kind(self) -> ModifierKind {
        match self {
            // Table X.15: `R` and `H` are the F data type modifier with a
            // precision, so `ADDR.F` names the data type twice.
            // NV_gpu_program5 2.X.4.1: "an instruction may not specify both
            // base and precision-specific data type modifiers".
            Modifier::F
            | Modifier::U
            | Modifier::S
            | Modifier::F64
            | Modifier::S64
            | Modifier::U64
            | Modifier::PrecisionFull
            | Modifier::PrecisionHalf
            | Modifier::PrecisionFixed => ModifierKind::DataType,
            Modifier::Cc | Modifier::Cc0 | Modifier::Cc1 => ModifierKind::CcUpdate,
            Modifier::Sat | Modifier::Ssat => ModifierKind::Clamp,
            Modifier::Ntc => ModifierKind::NoTypeCheck,
            Modifier::S24 | Modifier::U24 | Modifier::Hi => ModifierKind::Multiply,
            Modifier::Prec => ModifierKind::Precise,
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
/// in the order the spec requires (data type or precision, then condition
/// code, then clamping: section 2.X.4.1; the NV options' "ADDRC_SAT"
/// forms); `Err` carries the base opcode and the byte offset where the
/// suffixes stop making sense. Which suffixes an opcode takes in a given
/// dialect is the checker's question, answered by the table.
// Internal and unstable (the parser's suffix splitting).
#[doc(hidden)]
pub fn split_opcode(word: &str) -> Result<SplitOpcode, Option<(&'static OpInfo, usize)>> {
    // The longest base name that prefixes the word wins, so `SUB` is not
    // taken for `S` + ..., and `DP2A` is not `DP2` + `A`.
    // Looked up by prefix, longest first, in a table built once (a scan of
    // the whole table per instruction was a hot spot), with FxHash (SipHash
    // made this lookup 3 % of a large compile, docs/performance.md).
    static BY_NAME: std::sync::OnceLock<(
        rustc_hash::FxHashMap<&'static str, &'static OpInfo>,
        usize,
    )> = std::sync::OnceLock::new();
    let (by_name, longest) = BY_NAME.get_or_init(|| {
        let mut m = rustc_hash::FxHashMap::default();
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
        } else if stage <= 0 && rest.starts_with('X') {
            (Modifier::PrecisionFixed, 1, 0)
        } else if stage <= 1 && rest.starts_with("C0") {
            (Modifier::Cc0, 2, 1)
        } else if stage <= 1 && rest.starts_with("C1") {
            (Modifier::Cc1, 2, 1)
        } else if stage <= 1 && rest.starts_with('C') {
            (Modifier::Cc, 1, 1)
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
                | Arl
                | Arr
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
            // ARA: result.xz = x + z, result.yw = y + w.
            (Ara, _) => {
                let xz = if write_mask & 0b0101 != 0 { 0b0101 } else { 0 };
                let yw = if write_mask & 0b1010 != 0 { 0b1010 } else { 0 };
                xz | yw
            }
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
        // NV_fragment_program_option's forms: precision, C, _SAT.
        let s = split_opcode("ADDXC_SAT").unwrap();
        let mods: Vec<_> = s.suffixes.iter().map(|x| x.0).collect();
        assert_eq!(
            mods,
            vec![Modifier::PrecisionFixed, Modifier::Cc, Modifier::Sat]
        );
        // Longest base name first: RCC + C, not RCP; ARL, not ARA.
        assert_eq!(split_opcode("RCCC").unwrap().info.opcode, Opcode::Rcc);
        assert_eq!(split_opcode("ARLC").unwrap().info.opcode, Opcode::Arl);
        assert_eq!(
            split_opcode("ENDLOOP").unwrap().info.opcode,
            Opcode::Endloop
        );
    }

    #[test]
    fn every_opcode_exists_somewhere_and_only_with_its_own_modifiers() {
        for info in INSTRUCTIONS {
            assert!(info.languages().next().is_some(), "{}", info.name);
            for column in Column::ALL {
                let Some(m) = info.in_column(column) else {
                    continue;
                };
                if !matches!(column, Column::Nv4 | Column::Nv5) {
                    // Stand-alone types and integers are NV_gpu_program4's
                    // (and NV_gpu_program5's).
                    assert!(!m.float && !m.integer, "{} in {column:?}", info.name);
                } else {
                    assert!(
                        !m.fixed,
                        "{}: X is not an NV_gpu_program4 suffix",
                        info.name
                    );
                }
            }
        }
    }

    #[test]
    fn the_arb_base_languages_match_their_instruction_counts() {
        // ARB_vertex_program: "There are twenty-seven vertex program
        // instructions"; ARB_fragment_program: "There are 33"; the NV
        // options' tables: 42 (vp2), 48 (vp3), 52 (fp option), 67 (fp2).
        let count = |c: Column| {
            INSTRUCTIONS
                .iter()
                .filter(|i| i.in_column(c).is_some())
                .count()
        };
        assert_eq!(count(Column::ArbVp), 27);
        assert_eq!(count(Column::ArbFp), 33);
        assert_eq!(count(Column::Vp2), 42);
        assert_eq!(count(Column::Vp3), 48);
        assert_eq!(count(Column::FpOption), 52);
        assert_eq!(count(Column::Fp2), 67);
    }

    #[test]
    fn cc_rules_name_the_register() {
        assert_eq!(CcCondition::parse_rule("GT1"), Some((CcCondition::Gt, 1)));
        assert_eq!(CcCondition::parse_rule("NAN0"), Some((CcCondition::Nan, 0)));
        assert_eq!(CcCondition::parse_rule("LE"), Some((CcCondition::Le, 0)));
        assert_eq!(CcCondition::parse_rule("XX"), None);
    }
}
