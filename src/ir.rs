//! The checked program: the contract between front end and back ends.
//!
//! Nothing here is syntax. Names are resolved to `VarId`s, bindings are
//! decoded, modifiers are folded into explicit fields, and flow control is a
//! tree (`If`, `Rep`, subroutines) rather than labels and jumps. The SPIR-V
//! backend and the reference interpreter read only this (plus `isa`).

use crate::isa::{CcCondition, DataType, Opcode, Stage};
use crate::span::Span;

/// Index into `Program::variables`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarId(pub u32);

/// Index into `Program::subroutines`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SubId(pub u32);

#[derive(Clone, Debug)]
pub struct Program {
    pub stage: Stage,
    /// `OPTION` names, in order.
    pub options: Vec<String>,
    pub variables: Vec<Variable>,
    /// Subroutine blocks (section 2.X.5). `entry` is where execution starts.
    pub subroutines: Vec<Subroutine>,
    pub entry: SubId,
    /// Geometry program layout (NV_geometry_program4), `None` otherwise.
    pub geometry: Option<GeometryLayout>,
}

impl Program {
    pub fn var(&self, id: VarId) -> &Variable {
        &self.variables[id.0 as usize]
    }
    pub fn sub(&self, id: SubId) -> &Subroutine {
        &self.subroutines[id.0 as usize]
    }
}

#[derive(Clone, Debug)]
pub struct Subroutine {
    /// The label; `None` for the unlabelled code at the start of the program.
    pub name: Option<String>,
    pub span: Span,
    pub body: Block,
}

/// How a variable's components are typed (section 2.X.3.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum VarType {
    /// No `INT`/`UINT`/`FLOAT` modifier: raw 32-bit patterns, read with the
    /// type the instruction asks for.
    Typeless,
    Typed(DataType),
}

/// `SHORT`/`LONG` (section 2.X.3.1). SHORT lowers to RelaxedPrecision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Precision {
    #[default]
    Default,
    Short,
    Long,
}

/// FLAT / CENTROID / NOPERSPECTIVE (NV_fragment_program4 2.X.3.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize)]
pub struct Interpolation {
    pub flat: bool,
    pub centroid: bool,
    pub noperspective: bool,
}

#[derive(Clone, Debug)]
pub struct Variable {
    /// The declared name; `None` for a binding used directly in an
    /// instruction (an implicit declaration, section 2.X.4.2).
    pub name: Option<String>,
    pub span: Span,
    pub kind: VarKind,
    pub ty: VarType,
    pub precision: Precision,
    /// `Some(n)` for arrays.
    pub array_len: Option<u32>,
    /// Fragment attributes only (NV_fragment_program4); an implicit
    /// attribute inherits the declared one's (the checker copies it).
    pub interpolation: Interpolation,
}

impl Variable {
    pub fn is_array(&self) -> bool {
        self.array_len.is_some()
    }
    /// Number of vec4 elements.
    pub fn len(&self) -> u32 {
        self.array_len.unwrap_or(1)
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[derive(Clone, Debug)]
pub enum VarKind {
    /// TEMP (section 2.X.3.4).
    Temp,
    /// ATTRIB or an attribute binding; one binding per element.
    Attrib(Vec<AttribBinding>),
    /// PARAM or a parameter binding; one binding per element.
    Param(Vec<ParamBinding>),
    /// OUTPUT or a result binding; one binding per element.
    Result(Vec<ResultBinding>),
    /// BUFFER / BUFFER4 (NV_parameter_buffer_object).
    Buffer(BufferBinding),
}

/// Which color of a color binding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct ColorSel {
    pub back: bool,
    pub secondary: bool,
}

/// Vertex, fragment and geometry attribute bindings (the vp4, fp4 and gp4
/// texts, section 2.X.3.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum AttribBinding {
    Position,
    Weight(u32),
    Normal,
    Color(ColorSel),
    FogCoord,
    TexCoord(u32),
    Generic(u32),
    VertexId,
    InstanceId,
    /// fragment.facing
    Facing,
    /// fragment.clip[n] / vertex[m].clip[n]
    Clip(u32),
    PointSize,
    PrimitiveId,
    /// A geometry program's per-vertex attribute, `vertex[m].<binding>`;
    /// `vertex: None` is the whole-array form indexed with two subscripts.
    PerVertex {
        vertex: Option<u32>,
        binding: PerVertexAttrib,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum PerVertexAttrib {
    Position,
    Color(ColorSel),
    FogCoord,
    PointSize,
    TexCoord(u32),
    Clip(u32),
    Generic(u32),
    Id,
}

/// Result bindings (section 2.X.3.5 and the program-type texts).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum ResultBinding {
    Position,
    Color(ColorSel),
    /// fragment result.color[n] (draw buffer n).
    FragColor(u32),
    Depth,
    FogCoord,
    PointSize,
    TexCoord(u32),
    Clip(u32),
    Generic(u32),
    /// vertex result.id
    Id,
    Layer,
    PrimitiveId,
}

/// A literal as written; its value depends on the type it is read as
/// (section 2.X.3.3, "Constant Bindings").
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Literal {
    /// An `<int>` with its sign.
    Int { negative: bool, magnitude: u64 },
    /// A `<float>`.
    Float(f64),
    /// A constant of a declared `PARAM`, already converted to the declared
    /// type (floating-point when none is given, section 2.X.3.3): a read of
    /// any type sees these bits, as it would any typeless parameter.
    Bits(u32),
}

impl Literal {
    pub const ZERO: Literal = Literal::Int {
        negative: false,
        magnitude: 0,
    };
    pub const ONE: Literal = Literal::Int {
        negative: false,
        magnitude: 1,
    };

    /// The 32-bit pattern of this literal read as `ty`. The checker has
    /// already rejected the combinations the spec forbids.
    pub fn bits(self, ty: DataType) -> u32 {
        match (self, ty) {
            (
                Literal::Int {
                    negative,
                    magnitude,
                },
                DataType::Float,
            ) => {
                let v = magnitude as f64;
                (if negative { -v } else { v } as f32).to_bits()
            }
            (
                Literal::Int {
                    negative,
                    magnitude,
                },
                _,
            ) => {
                let v = magnitude as u32;
                if negative {
                    v.wrapping_neg()
                } else {
                    v
                }
            }
            (Literal::Float(f), DataType::Float) => (f as f32).to_bits(),
            (Literal::Float(f), DataType::Signed) => (f as i32) as u32,
            (Literal::Float(f), DataType::Unsigned) => f as u32,
            (Literal::Bits(b), _) => b,
        }
    }
}

/// One vec4 of a program parameter (section 2.X.3.3).
#[derive(Clone, Debug, PartialEq)]
pub enum ParamBinding {
    /// A constant vector; missing components are already filled (0, 0, 1).
    Constant([Literal; 4]),
    Env(u32),
    Local(u32),
    /// A `state.*` item (ARB_vertex_program / ARB_fragment_program tables).
    State(StateItem),
    /// One vec4 of `program.buffer[b]` (NV_parameter_buffer_object).
    BufferElement {
        buffer: u32,
        element: u32,
    },
}

/// A GL state binding, kept as the decoded path, e.g.
/// `["matrix", "mvp", "row", "0"]`; `state_layout` in the backend gives it
/// its std140 slot.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StateItem {
    pub path: Vec<String>,
}

/// `program.buffer[b]` behind a BUFFER/BUFFER4 variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BufferBinding {
    pub buffer: u32,
    /// First element (in vec4 units for BUFFER4, scalars for BUFFER).
    pub first: u32,
    pub vec4: bool,
}

/// The geometry program declarations (NV_geometry_program4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct GeometryLayout {
    pub input: PrimitiveIn,
    pub output: PrimitiveOut,
    pub vertices_out: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum PrimitiveIn {
    Points,
    Lines,
    LinesAdjacency,
    Triangles,
    TrianglesAdjacency,
}

impl PrimitiveIn {
    pub fn vertex_count(self) -> u32 {
        match self {
            PrimitiveIn::Points => 1,
            PrimitiveIn::Lines => 2,
            PrimitiveIn::LinesAdjacency => 4,
            PrimitiveIn::Triangles => 3,
            PrimitiveIn::TrianglesAdjacency => 6,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum PrimitiveOut {
    Points,
    LineStrip,
    TriangleStrip,
}

/// Component selectors 0..=3 for x, y, z, w.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Swizzle(pub [u8; 4]);

impl Swizzle {
    pub const IDENTITY: Swizzle = Swizzle([0, 1, 2, 3]);
    pub fn splat(c: u8) -> Swizzle {
        Swizzle([c; 4])
    }
    pub fn is_identity(self) -> bool {
        self == Swizzle::IDENTITY
    }
}

/// Bit i enables component i (x = 1, y = 2, z = 4, w = 8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WriteMask(pub u8);

impl WriteMask {
    pub const ALL: WriteMask = WriteMask(0xf);
    pub fn has(self, c: usize) -> bool {
        self.0 & (1 << c) != 0
    }
}

/// Condition code register: CC0 or CC1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CcReg(pub u8);

/// A `<ccTest>`: a Table X.16 test on one register, then swizzled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CcTest {
    pub condition: CcCondition,
    pub reg: CcReg,
    pub swizzle: Swizzle,
}

/// Clamping modifiers (section 2.X.4.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clamp {
    /// SAT: [0, 1].
    Sat,
    /// SSAT: [-1, 1].
    Ssat,
}

/// MUL's special forms (section 2.X.8.Z, MUL).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MulMode {
    S24,
    U24,
    Hi,
}

/// Which element of a variable an operand or destination names.
#[derive(Clone, Debug, PartialEq)]
pub enum Index {
    /// Not an array.
    None,
    /// `[n]`.
    Absolute(u32),
    /// `[A.x + n]`: an integer scalar operand plus a constant offset.
    Relative { address: Box<Operand>, offset: i32 },
    /// A geometry program's per-vertex attribute variable (bound to
    /// `vertex.<binding>` without a vertex number): `name[v]` or, for an
    /// array, `name[v][n]` (NV_geometry_program4 section 2.X.3.2).
    PerVertex {
        vertex: Box<Index>,
        element: Box<Index>,
    },
}

/// A source operand (section 2.X.4.2): load, swizzle, negate, then absolute
/// value, then the outer negate.
#[derive(Clone, Debug, PartialEq)]
pub struct Operand {
    pub var: VarId,
    pub index: Index,
    pub swizzle: Swizzle,
    /// `<operandNeg>`: applied after the swizzle.
    pub negate: bool,
    /// `|...|`.
    pub abs: bool,
    /// `<operandAbsNeg>`: the `-` before `|...|`.
    pub negate_abs: bool,
    /// The data type this operand is read as (Table X.13 inputs).
    pub ty: DataType,
    pub span: Span,
}

/// The destination of an instruction (section 2.X.4.3).
#[derive(Clone, Debug, PartialEq)]
pub struct Dest {
    pub var: VarId,
    pub index: Index,
    pub mask: WriteMask,
    /// The run-time condition code write mask, if any.
    pub cc_mask: Option<CcTest>,
    /// The data type of the written value.
    pub ty: DataType,
    pub span: Span,
}

/// One selector of SWZ's extended swizzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExtSwizzleSel {
    Component(u8),
    Zero,
    One,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExtSwizzleComp {
    pub negate: bool,
    pub sel: ExtSwizzleSel,
}

/// Texture targets of `<texTarget>` plus the BUFFER target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum TexTarget {
    T1D,
    T2D,
    T3D,
    Cube,
    Rect,
    Shadow1D,
    Shadow2D,
    ShadowRect,
    Array1D,
    Array2D,
    ShadowCube,
    ShadowArray1D,
    ShadowArray2D,
    Buffer,
}

impl TexTarget {
    /// The target as written in a program.
    pub fn name(self) -> &'static str {
        match self {
            TexTarget::T1D => "1D",
            TexTarget::T2D => "2D",
            TexTarget::T3D => "3D",
            TexTarget::Cube => "CUBE",
            TexTarget::Rect => "RECT",
            TexTarget::Shadow1D => "SHADOW1D",
            TexTarget::Shadow2D => "SHADOW2D",
            TexTarget::ShadowRect => "SHADOWRECT",
            TexTarget::Array1D => "ARRAY1D",
            TexTarget::Array2D => "ARRAY2D",
            TexTarget::ShadowCube => "SHADOWCUBE",
            TexTarget::ShadowArray1D => "SHADOWARRAY1D",
            TexTarget::ShadowArray2D => "SHADOWARRAY2D",
            TexTarget::Buffer => "BUFFER",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct TexAccess {
    pub unit: u32,
    pub target: TexTarget,
    pub offset: Option<[i32; 3]>,
}

/// An ALU or texture instruction: everything but flow control.
#[derive(Clone, Debug, PartialEq)]
pub struct Instruction {
    pub op: Opcode,
    /// The operation's data type after defaults (Table X.13 column D).
    pub ty: DataType,
    /// `H` suffix: at least 16-bit precision (RelaxedPrecision).
    pub half: bool,
    pub clamp: Option<Clamp>,
    pub cc_update: Option<CcReg>,
    pub mul_mode: Option<MulMode>,
    pub dst: Dest,
    pub srcs: Vec<Operand>,
    /// SWZ only.
    pub ext_swizzle: Option<[ExtSwizzleComp; 4]>,
    /// Texture instructions only.
    pub tex: Option<TexAccess>,
    pub span: Span,
}

/// KIL's condition (NV_fragment_program4 2.X.8.Z, KIL).
#[derive(Clone, Debug, PartialEq)]
pub enum KillCondition {
    /// Kill if any component of the operand is negative.
    Operand(Operand),
    /// Kill if any component of the test passes.
    Cc(CcTest),
}

pub type Block = Vec<Stmt>;

#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    Inst(Instruction),
    If {
        test: CcTest,
        then_block: Block,
        else_block: Block,
        span: Span,
    },
    /// REP with an optional count (section 2.X.8.Z, REP).
    Rep {
        count: Option<Operand>,
        body: Block,
        span: Span,
    },
    Break {
        cond: Option<CcTest>,
        span: Span,
    },
    Continue {
        cond: Option<CcTest>,
        span: Span,
    },
    Return {
        cond: Option<CcTest>,
        span: Span,
    },
    Call {
        target: SubId,
        cond: Option<CcTest>,
        span: Span,
    },
    Kill {
        cond: KillCondition,
        span: Span,
    },
    Emit {
        span: Span,
    },
    EndPrimitive {
        span: Span,
    },
}
