//! The AGAL tables: opcodes and registers, as data.
//!
//! One row per opcode says everything the decoder, the disassembler, the
//! mini-assembler, the checker and the lowering need to know about it, so
//! they cannot drift apart (the same rule as [`crate::isa`] for the
//! assembly family). Sources: Adobe's "AGAL bytecode format" page
//! (`../shared/spec/related/agal/agal-bytecode-format.airsdk-dev.md`, the
//! opcode table and "Program Registers") and the facts collected from
//! Adobe's AGALMiniAssembler (`FACTS-agal-encoding.md`, sections 3 and 4).
//!
//! ```
//! use nvp4c::front::agal::table::{OpDef, Operands};
//! let m44 = OpDef::by_name("m44").unwrap();
//! assert_eq!((m44.code, m44.operands), (0x18, Operands::DestSourceSource));
//! assert_eq!(OpDef::by_code(0x1c).unwrap().name, "ife");
//! assert!(OpDef::by_code(0x26).is_none()); // `ted` was never enabled
//! ```

use crate::Stage;

/// The register types of the 4-bit type fields (FACTS section 3).
///
/// ```
/// use nvp4c::front::agal::table::RegisterType;
/// assert_eq!(RegisterType::from_bits(4), Some(RegisterType::Varying));
/// assert_eq!(RegisterType::Constant.name(nvp4c::Stage::Fragment), Some("fc"));
/// assert_eq!(RegisterType::from_bits(8), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RegisterType {
    /// 0: `va`, vertex attribute (read).
    Attribute,
    /// 1: `vc` / `fc`, program constant (read).
    Constant,
    /// 2: `vt` / `ft`, temporary (read and write).
    Temporary,
    /// 3: `op` / `oc`, position or colour output (write).
    Output,
    /// 4: `v`, varying: written by the vertex program, read by the fragment program.
    Varying,
    /// 5: `fs` (fragment) / `vs` (vertex, AGAL3), texture sampler.
    Sampler,
    /// 6: `od`, fragment depth output (write, AGAL2).
    DepthOutput,
    /// 7: `iid`, instance id (read, vertex programs, AGAL3).
    InstanceId,
}

impl RegisterType {
    /// The type of a 4-bit field value.
    pub fn from_bits(bits: u32) -> Option<RegisterType> {
        Some(match bits {
            0 => RegisterType::Attribute,
            1 => RegisterType::Constant,
            2 => RegisterType::Temporary,
            3 => RegisterType::Output,
            4 => RegisterType::Varying,
            5 => RegisterType::Sampler,
            6 => RegisterType::DepthOutput,
            7 => RegisterType::InstanceId,
            _ => return None,
        })
    }

    /// The 4-bit field value.
    ///
    /// ```
    /// assert_eq!(nvp4c::front::agal::table::RegisterType::DepthOutput.bits(), 6);
    /// ```
    pub fn bits(self) -> u32 {
        self as u32
    }

    /// The register's name in a program of `stage`, as the mini-assembler
    /// spells it (and the disassembler prints it); `None` where the type
    /// does not exist in that stage.
    pub fn name(self, stage: Stage) -> Option<&'static str> {
        let vertex = stage == Stage::Vertex;
        Some(match self {
            RegisterType::Attribute if vertex => "va",
            RegisterType::Constant => {
                if vertex {
                    "vc"
                } else {
                    "fc"
                }
            }
            RegisterType::Temporary => {
                if vertex {
                    "vt"
                } else {
                    "ft"
                }
            }
            RegisterType::Output => {
                if vertex {
                    "op"
                } else {
                    "oc"
                }
            }
            RegisterType::Varying => "v",
            RegisterType::Sampler => {
                if vertex {
                    "vs"
                } else {
                    "fs"
                }
            }
            RegisterType::DepthOutput if !vertex => "od",
            RegisterType::InstanceId if vertex => "iid",
            _ => return None,
        })
    }

    /// What the register is, in words, for messages.
    pub fn description(self) -> &'static str {
        match self {
            RegisterType::Attribute => "vertex attribute",
            RegisterType::Constant => "constant",
            RegisterType::Temporary => "temporary",
            RegisterType::Output => "output",
            RegisterType::Varying => "varying",
            RegisterType::Sampler => "texture sampler",
            RegisterType::DepthOutput => "depth output",
            RegisterType::InstanceId => "instance id",
        }
    }

    /// Whether a program of `stage` may read it as a source.
    pub fn readable(self, stage: Stage) -> bool {
        match self {
            RegisterType::Attribute | RegisterType::InstanceId => stage == Stage::Vertex,
            RegisterType::Constant | RegisterType::Temporary => true,
            // The fragment program reads what the vertex program wrote; a
            // vertex program may read back a varying it has written (the
            // mini-assembler marks varyings read/write in both stages).
            RegisterType::Varying => true,
            RegisterType::Output | RegisterType::Sampler | RegisterType::DepthOutput => false,
        }
    }

    /// Whether a program of `stage` may write it as a destination.
    pub fn writable(self, stage: Stage) -> bool {
        match self {
            RegisterType::Temporary | RegisterType::Output => true,
            RegisterType::Varying => stage == Stage::Vertex,
            RegisterType::DepthOutput => stage == Stage::Fragment,
            _ => false,
        }
    }

    /// How many registers of this type a program of `stage` has in AGAL
    /// `version` (Adobe's "Program Registers" table, with the
    /// mini-assembler's limits where the table says nothing: four colour
    /// outputs from AGAL2, vertex samplers and `iid` in AGAL3). 0: the type
    /// does not exist there.
    ///
    /// ```
    /// use nvp4c::{front::agal::table::RegisterType, Stage};
    /// assert_eq!(RegisterType::Constant.count(Stage::Vertex, 1), 128);
    /// assert_eq!(RegisterType::Constant.count(Stage::Fragment, 3), 200);
    /// assert_eq!(RegisterType::DepthOutput.count(Stage::Fragment, 1), 0);
    /// ```
    pub fn count(self, stage: Stage, version: u32) -> u32 {
        let v = version.clamp(1, 3) as usize - 1;
        let vertex = stage == Stage::Vertex;
        let by_version: [u32; 3] = match self {
            RegisterType::Attribute if vertex => [8, 8, 16],
            RegisterType::Constant if vertex => [128, 250, 250],
            RegisterType::Constant => [28, 64, 200],
            RegisterType::Temporary => [8, 26, 26],
            RegisterType::Output if vertex => [1, 1, 1],
            RegisterType::Output => [1, 4, 4],
            RegisterType::Varying => [8, 10, 10],
            RegisterType::Sampler if vertex => [0, 0, 4],
            RegisterType::Sampler => [8, 16, 16],
            RegisterType::DepthOutput if !vertex => [0, 1, 1],
            RegisterType::InstanceId if vertex => [0, 0, 1],
            _ => [0, 0, 0],
        };
        by_version[v]
    }
}

/// The tokens a program of each version may have (Adobe's table, "Tokens").
///
/// ```
/// assert_eq!(nvp4c::front::agal::table::max_tokens(2), 1024);
/// ```
pub fn max_tokens(version: u32) -> usize {
    match version {
        1 => 200,
        2 => 1024,
        _ => 2048,
    }
}

/// The operand list of an opcode, in token order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operands {
    /// `op dest, source1`.
    DestSource,
    /// `op dest, source1, source2`.
    DestSourceSource,
    /// `op dest, source1, sampler` (`tex`, `tld`).
    DestSourceSampler,
    /// `op source1` with a zero destination field (`kil`).
    Source,
    /// `op source1, source2` with a zero destination field (`ife` ...).
    SourceSource,
    /// No operands (`els`, `eif`).
    None,
}

impl Operands {
    /// Whether the token has a destination.
    pub fn has_dest(self) -> bool {
        matches!(
            self,
            Operands::DestSource | Operands::DestSourceSource | Operands::DestSourceSampler
        )
    }
    /// How many source fields it uses (the sampler counts).
    pub fn sources(self) -> usize {
        match self {
            Operands::DestSource | Operands::Source => 1,
            Operands::DestSourceSource | Operands::DestSourceSampler | Operands::SourceSource => 2,
            Operands::None => 0,
        }
    }
    /// The operand count AGALMiniAssembler expects (the destination counts).
    pub fn assembler_count(self) -> usize {
        self.sources() + usize::from(self.has_dest())
    }
}

/// Which components a destination may name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Written {
    /// Any of x, y, z, w.
    Any,
    /// x, y, z only: the opcode "produces only a 3 component result,
    /// destination must be masked to .xyz or less" (nrm, crs, m33, m34).
    Xyz,
}

/// Structured flow (AGAL2 `ife` ... `els` ... `eif`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Not flow control.
    None,
    /// Opens a block.
    If,
    /// Closes the block and opens its other half.
    Else,
    /// Closes the block.
    EndIf,
}

/// How an opcode computes its result; `lower.rs` turns each into IR
/// instructions of the instruction table ([`crate::isa`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Semantics {
    /// Component-wise with an instruction of the same meaning
    /// (`mov`, `add`, `min`, `frc`, `sge`, `ddx` ...).
    Componentwise(crate::isa::Opcode),
    /// Component-wise through an instruction with scalar operands, one
    /// instruction per written component (`rcp`, `rsq`, `log`, `exp`,
    /// `sin`, `cos`, `pow`).
    PerComponent(crate::isa::Opcode),
    /// `div`: each written component divided by the same component of source 2.
    Divide,
    /// `sqt`: the square root as 1 / rsq(x), per component.
    SquareRoot,
    /// `abs`, `neg`, `sat`: a move with a modifier.
    Modified(Modifier),
    /// `dp3`, `dp4`, `nrm`, `crs`, `sgn`: one instruction, as is.
    Direct(crate::isa::Opcode),
    /// `m33`, `m34`, `m44`: one dot product (`columns` components) per row
    /// of the matrix whose first row is source 2.
    Matrix {
        /// Components of each dot product.
        columns: u8,
    },
    /// `ife`, `ine`, `ifg`, `ifl`: compare and open a block.
    Compare(Comparison),
    /// `els`, `eif`.
    Flow,
    /// `kil`.
    Kill,
    /// `tex` (fragment) and `tld` (vertex): sample the sampler's texture.
    Sample,
}

/// The modifier of `abs`, `neg`, `sat`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Modifier {
    /// |x|.
    Abs,
    /// -x.
    Negate,
    /// clamp to [0, 1].
    Saturate,
}

/// The comparison of an `if*` opcode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Comparison {
    /// `ife`: source1 == source2.
    Equal,
    /// `ine`: source1 != source2.
    NotEqual,
    /// `ifg`: source1 > source2 (docs/semantics.md, "AGAL": Adobe's page
    /// says "greater than or equal", its name and ruffle say greater).
    Greater,
    /// `ifl`: source1 < source2.
    Less,
}

/// One opcode.
#[derive(Debug)]
#[non_exhaustive]
pub struct OpDef {
    /// The opcode field value.
    pub code: u32,
    /// The mnemonic.
    pub name: &'static str,
    /// Its operands.
    pub operands: Operands,
    /// The lowest AGAL version (header) with it.
    pub min_version: u32,
    /// `Some` when only one program type has it.
    pub only_stage: Option<Stage>,
    /// Which components it may write.
    pub written: Written,
    /// Flow control role.
    pub flow: Flow,
    /// How it computes.
    pub semantics: Semantics,
    /// AGALMiniAssembler's `OP_VERSION2` flag: it refuses the opcode when
    /// assembling for version 1.
    pub assembler_version2: bool,
    /// What it does, for the listing and editors.
    pub summary: &'static str,
}

impl OpDef {
    /// The row of an opcode field value.
    pub fn by_code(code: u32) -> Option<&'static OpDef> {
        OPCODES.iter().find(|o| o.code == code)
    }
    /// The row of a mnemonic (lower case, as the mini-assembler wants).
    pub fn by_name(name: &str) -> Option<&'static OpDef> {
        OPCODES.iter().find(|o| o.name == name)
    }
}

use crate::isa::Opcode as Nv;
use Operands::{
    DestSource as D1, DestSourceSampler as DS, DestSourceSource as D2, None as N0, Source as S1,
    SourceSource as S2,
};

const FRAG: Option<Stage> = Some(Stage::Fragment);
const VERT: Option<Stage> = Some(Stage::Vertex);

macro_rules! op {
    ($code:literal, $name:literal, $ops:expr, $ver:literal, $stage:expr, $written:ident, $flow:ident, $sem:expr, $v2:literal, $sum:literal) => {
        OpDef {
            code: $code,
            name: $name,
            operands: $ops,
            min_version: $ver,
            only_stage: $stage,
            written: Written::$written,
            flow: Flow::$flow,
            semantics: $sem,
            assembler_version2: $v2,
            summary: $sum,
        }
    };
}

use Semantics::{Componentwise as Cw, Direct, Matrix, Modified, PerComponent as Pc};

/// Every opcode of AGAL1 to AGAL3, by opcode value. `sgn` and `tld` are in
/// Adobe's v3 mini-assembler only (not in the bytecode page); nvp4c accepts
/// them from AGAL3, the profile that assembler was made for. 0x22-0x26
/// (the AGAL1-era `els`/`eif`/`rep`/`erp`/`brk` numbering and `ted`) were
/// never enabled and are unknown opcodes.
pub static OPCODES: &[OpDef] = &[
    op!(
        0x00,
        "mov",
        D1,
        1,
        None,
        Any,
        None,
        Cw(Nv::Mov),
        false,
        "move"
    ),
    op!(
        0x01,
        "add",
        D2,
        1,
        None,
        Any,
        None,
        Cw(Nv::Add),
        false,
        "add"
    ),
    op!(
        0x02,
        "sub",
        D2,
        1,
        None,
        Any,
        None,
        Cw(Nv::Sub),
        false,
        "subtract"
    ),
    op!(
        0x03,
        "mul",
        D2,
        1,
        None,
        Any,
        None,
        Cw(Nv::Mul),
        false,
        "multiply"
    ),
    op!(
        0x04,
        "div",
        D2,
        1,
        None,
        Any,
        None,
        Semantics::Divide,
        false,
        "divide"
    ),
    op!(
        0x05,
        "rcp",
        D1,
        1,
        None,
        Any,
        None,
        Pc(Nv::Rcp),
        false,
        "reciprocal"
    ),
    op!(
        0x06,
        "min",
        D2,
        1,
        None,
        Any,
        None,
        Cw(Nv::Min),
        false,
        "minimum"
    ),
    op!(
        0x07,
        "max",
        D2,
        1,
        None,
        Any,
        None,
        Cw(Nv::Max),
        false,
        "maximum"
    ),
    op!(
        0x08,
        "frc",
        D1,
        1,
        None,
        Any,
        None,
        Cw(Nv::Frc),
        false,
        "fractional part"
    ),
    op!(
        0x09,
        "sqt",
        D1,
        1,
        None,
        Any,
        None,
        Semantics::SquareRoot,
        false,
        "square root"
    ),
    op!(
        0x0a,
        "rsq",
        D1,
        1,
        None,
        Any,
        None,
        Pc(Nv::Rsq),
        false,
        "reciprocal square root"
    ),
    op!(
        0x0b,
        "pow",
        D2,
        1,
        None,
        Any,
        None,
        Pc(Nv::Pow),
        false,
        "power"
    ),
    op!(
        0x0c,
        "log",
        D1,
        1,
        None,
        Any,
        None,
        Pc(Nv::Lg2),
        false,
        "logarithm base 2"
    ),
    op!(
        0x0d,
        "exp",
        D1,
        1,
        None,
        Any,
        None,
        Pc(Nv::Ex2),
        false,
        "2 to the power"
    ),
    op!(
        0x0e,
        "nrm",
        D1,
        1,
        None,
        Xyz,
        None,
        Direct(Nv::Nrm),
        false,
        "normalize (3 components)"
    ),
    op!(
        0x0f,
        "sin",
        D1,
        1,
        None,
        Any,
        None,
        Pc(Nv::Sin),
        false,
        "sine"
    ),
    op!(
        0x10,
        "cos",
        D1,
        1,
        None,
        Any,
        None,
        Pc(Nv::Cos),
        false,
        "cosine"
    ),
    op!(
        0x11,
        "crs",
        D2,
        1,
        None,
        Xyz,
        None,
        Direct(Nv::Xpd),
        false,
        "cross product"
    ),
    op!(
        0x12,
        "dp3",
        D2,
        1,
        None,
        Any,
        None,
        Direct(Nv::Dp3),
        false,
        "3-component dot product"
    ),
    op!(
        0x13,
        "dp4",
        D2,
        1,
        None,
        Any,
        None,
        Direct(Nv::Dp4),
        false,
        "4-component dot product"
    ),
    op!(
        0x14,
        "abs",
        D1,
        1,
        None,
        Any,
        None,
        Modified(Modifier::Abs),
        false,
        "absolute value"
    ),
    op!(
        0x15,
        "neg",
        D1,
        1,
        None,
        Any,
        None,
        Modified(Modifier::Negate),
        false,
        "negate"
    ),
    op!(
        0x16,
        "sat",
        D1,
        1,
        None,
        Any,
        None,
        Modified(Modifier::Saturate),
        false,
        "clamp to [0, 1]"
    ),
    op!(
        0x17,
        "m33",
        D2,
        1,
        None,
        Xyz,
        None,
        Matrix { columns: 3 },
        false,
        "3x3 matrix multiply"
    ),
    op!(
        0x18,
        "m44",
        D2,
        1,
        None,
        Any,
        None,
        Matrix { columns: 4 },
        false,
        "4x4 matrix multiply"
    ),
    op!(
        0x19,
        "m34",
        D2,
        1,
        None,
        Xyz,
        None,
        Matrix { columns: 4 },
        false,
        "3x4 matrix multiply"
    ),
    op!(
        0x1a,
        "ddx",
        D1,
        2,
        FRAG,
        Any,
        None,
        Cw(Nv::Ddx),
        true,
        "partial derivative in x"
    ),
    op!(
        0x1b,
        "ddy",
        D1,
        2,
        FRAG,
        Any,
        None,
        Cw(Nv::Ddy),
        true,
        "partial derivative in y"
    ),
    op!(
        0x1c,
        "ife",
        S2,
        2,
        None,
        Any,
        If,
        Semantics::Compare(Comparison::Equal),
        true,
        "if equal"
    ),
    op!(
        0x1d,
        "ine",
        S2,
        2,
        None,
        Any,
        If,
        Semantics::Compare(Comparison::NotEqual),
        true,
        "if not equal"
    ),
    op!(
        0x1e,
        "ifg",
        S2,
        2,
        None,
        Any,
        If,
        Semantics::Compare(Comparison::Greater),
        true,
        "if greater"
    ),
    op!(
        0x1f,
        "ifl",
        S2,
        2,
        None,
        Any,
        If,
        Semantics::Compare(Comparison::Less),
        true,
        "if less"
    ),
    op!(
        0x20,
        "els",
        N0,
        2,
        None,
        Any,
        Else,
        Semantics::Flow,
        true,
        "else"
    ),
    op!(
        0x21,
        "eif",
        N0,
        2,
        None,
        Any,
        EndIf,
        Semantics::Flow,
        true,
        "end if"
    ),
    op!(
        0x27,
        "kil",
        S1,
        1,
        FRAG,
        Any,
        None,
        Semantics::Kill,
        false,
        "discard the fragment if negative"
    ),
    op!(
        0x28,
        "tex",
        DS,
        1,
        FRAG,
        Any,
        None,
        Semantics::Sample,
        false,
        "texture sample"
    ),
    op!(
        0x29,
        "sge",
        D2,
        1,
        None,
        Any,
        None,
        Cw(Nv::Sge),
        false,
        "set if greater or equal"
    ),
    op!(
        0x2a,
        "slt",
        D2,
        1,
        None,
        Any,
        None,
        Cw(Nv::Slt),
        false,
        "set if less"
    ),
    op!(
        0x2b,
        "sgn",
        D1,
        3,
        None,
        Any,
        None,
        Direct(Nv::Ssg),
        false,
        "sign"
    ),
    op!(
        0x2c,
        "seq",
        D2,
        1,
        None,
        Any,
        None,
        Cw(Nv::Seq),
        false,
        "set if equal"
    ),
    op!(
        0x2d,
        "sne",
        D2,
        1,
        None,
        Any,
        None,
        Cw(Nv::Sne),
        false,
        "set if not equal"
    ),
    op!(
        0x2e,
        "tld",
        DS,
        3,
        VERT,
        Any,
        None,
        Semantics::Sample,
        false,
        "vertex texture fetch"
    ),
];

/// The sampler field's option words, as the mini-assembler knows them
/// (FACTS section 2, "Sampler field"): `(word, nibble shift, value)`.
/// The shifts count from bit 32 of the field.
pub static SAMPLER_OPTIONS: &[(&str, u32, u32)] = &[
    ("rgba", 8, 0),
    ("compressed", 8, 1),
    ("compressedalpha", 8, 2),
    ("dxt1", 8, 1),
    ("dxt5", 8, 2),
    ("video", 8, 3),
    ("2d", 12, 0),
    ("3d", 12, 2),
    ("cube", 12, 1),
    ("mipnearest", 24, 1),
    ("miplinear", 24, 2),
    ("mipnone", 24, 0),
    ("nomip", 24, 0),
    ("nearest", 28, 0),
    ("linear", 28, 1),
    ("anisotropic2x", 28, 2),
    ("anisotropic4x", 28, 3),
    ("anisotropic8x", 28, 4),
    ("anisotropic16x", 28, 5),
    ("centroid", 16, 1),
    ("single", 16, 2),
    ("ignoresampler", 16, 4),
    ("repeat", 20, 1),
    ("wrap", 20, 1),
    ("clamp", 20, 0),
    ("clamp_u_repeat_v", 20, 2),
    ("repeat_u_clamp_v", 20, 3),
];

/// The special-flags nibble's shift (bits 48-51 of the field), whose values
/// are OR-ed rather than replaced.
pub const SPECIAL_SHIFT: u32 = 16;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opcodes_are_sorted_and_unique() {
        for pair in OPCODES.windows(2) {
            assert!(
                pair[0].code < pair[1].code,
                "{} / {}",
                pair[0].name,
                pair[1].name
            );
        }
    }

    #[test]
    fn the_assembler_flags_version2_exactly_on_the_agal2_additions() {
        for op in OPCODES {
            assert_eq!(
                op.assembler_version2,
                (0x1a..=0x21).contains(&op.code),
                "{}",
                op.name
            );
        }
    }
}
