//! The syntax tree: what the program says, with a byte span on every node,
//! and no meaning yet. Names are not resolved and bindings are kept as the
//! dotted paths they were written as; the checker gives them meaning.

use crate::isa::{Header, Stage};
use crate::span::Span;

#[derive(Clone, Debug, PartialEq)]
pub struct Ast {
    pub stage: Stage,
    /// The header (`!!ARBfp1.0`, ...).
    pub program_header: Header,
    /// Where the header is.
    pub header: Span,
    pub statements: Vec<Statement>,
    /// The `END` keyword; `None` if it is missing (already reported).
    pub end: Option<Span>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    pub name: Text,
    pub span: Span,
}

/// The text of a name or number, as written. Short texts (up to 15 bytes,
/// nearly every name and number in real programs) are stored inline, so the
/// syntax tree of a large program costs no allocation per token; longer
/// ones go to the heap behind a thin pointer. 16 bytes, so that an `Ident`
/// (text and span) is 24 and the parser's stack symbol, sized by its
/// largest value, stays small (docs/performance.md, "Session 10 (parser
/// symbol)"). Reads as a `&str`.
#[derive(Clone, PartialEq, Eq)]
pub struct Text(TextRepr);

const _: () = assert!(std::mem::size_of::<Text>() == 16);

// Equal texts have equal representations: the length decides inline or
// heap, and inline bytes past the length are zero. The inline length is an
// enum of 0..=15, so the values 16..=255 of its byte are free and tell the
// heap variant apart without a separate tag.
#[derive(Clone, PartialEq, Eq)]
enum TextRepr {
    Inline {
        len: InlineLen,
        bytes: [u8; Text::INLINE],
    },
    Heap(Box<Box<str>>),
}

#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
enum InlineLen {
    L0,
    L1,
    L2,
    L3,
    L4,
    L5,
    L6,
    L7,
    L8,
    L9,
    L10,
    L11,
    L12,
    L13,
    L14,
    L15,
}

impl InlineLen {
    const ALL: [InlineLen; Text::INLINE + 1] = [
        InlineLen::L0,
        InlineLen::L1,
        InlineLen::L2,
        InlineLen::L3,
        InlineLen::L4,
        InlineLen::L5,
        InlineLen::L6,
        InlineLen::L7,
        InlineLen::L8,
        InlineLen::L9,
        InlineLen::L10,
        InlineLen::L11,
        InlineLen::L12,
        InlineLen::L13,
        InlineLen::L14,
        InlineLen::L15,
    ];
}

impl Text {
    const INLINE: usize = 15;

    pub fn new(s: &str) -> Text {
        if s.len() <= Text::INLINE {
            let mut bytes = [0; Text::INLINE];
            bytes[..s.len()].copy_from_slice(s.as_bytes());
            Text(TextRepr::Inline {
                len: InlineLen::ALL[s.len()],
                bytes,
            })
        } else {
            Text(TextRepr::Heap(Box::new(s.into())))
        }
    }

    pub fn as_str(&self) -> &str {
        match &self.0 {
            TextRepr::Inline { len, bytes } => {
                let b = &bytes[..*len as usize];
                // SAFETY: the bytes were copied from a `&str` in `new`, whole.
                unsafe { std::str::from_utf8_unchecked(b) }
            }
            TextRepr::Heap(s) => s,
        }
    }
}

impl std::hash::Hash for Text {
    // As `str` hashes, which `Borrow<str>` requires.
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.as_str().hash(h)
    }
}

impl std::ops::Deref for Text {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Text {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl std::borrow::Borrow<str> for Text {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl std::fmt::Debug for Text {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.as_str(), f)
    }
}

impl std::fmt::Display for Text {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl From<&str> for Text {
    fn from(s: &str) -> Text {
        Text::new(s)
    }
}

impl From<String> for Text {
    fn from(s: String) -> Text {
        Text::new(&s)
    }
}

impl From<Text> for String {
    fn from(t: Text) -> String {
        t.as_str().to_string()
    }
}

impl PartialEq<str> for Text {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Text {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for Text {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other.as_str()
    }
}

impl PartialEq<Text> for str {
    fn eq(&self, other: &Text) -> bool {
        self == other.as_str()
    }
}

impl PartialEq<Text> for &str {
    fn eq(&self, other: &Text) -> bool {
        *self == other.as_str()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Statement {
    /// `OPTION name;` (section 2.X.6).
    Option(Ident),
    /// `<namingStatement>` and the geometry `<declaration>`s (boxed: the
    /// largest statement and a rare one, see the grammar).
    Decl(Box<Declaration>),
    /// `<instruction>`.
    Instruction(Instruction),
    /// `<instLabel> ":"`, with the `SUBROUTINENUM(n)` ARB_shader_subroutine
    /// gives a label in the NV_gpu_program5 headers (a subroutine CALI can
    /// call).
    Label(Ident, Option<IntLit>),
    /// A statement the parser could not read; already reported.
    Error(Span),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VarModifier {
    Short,
    Long,
    Int,
    Uint,
    Float,
    Flat,
    Centroid,
    NoPerspective,
}

impl VarModifier {
    pub fn name(self) -> &'static str {
        match self {
            VarModifier::Short => "SHORT",
            VarModifier::Long => "LONG",
            VarModifier::Int => "INT",
            VarModifier::Uint => "UINT",
            VarModifier::Float => "FLOAT",
            VarModifier::Flat => "FLAT",
            VarModifier::Centroid => "CENTROID",
            VarModifier::NoPerspective => "NOPERSPECTIVE",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Declaration {
    /// `<varMods>`, in source order.
    pub modifiers: Vec<(VarModifier, Span)>,
    pub kind: DeclKind,
    /// The keyword (`TEMP`, `PARAM`, ...).
    pub keyword: Span,
    pub span: Span,
}

/// `<optArraySize>`: `[]` or `[n]`.
#[derive(Clone, Debug, PartialEq)]
pub struct ArraySize {
    pub len: Option<IntLit>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum DeclKind {
    Attrib {
        name: Ident,
        size: Option<ArraySize>,
        init: Init,
    },
    Param {
        name: Ident,
        size: Option<ArraySize>,
        init: Init,
    },
    Temp {
        names: Vec<(Ident, Option<ArraySize>)>,
    },
    /// `ADDRESS a, b;` (ARB_vertex_program 2.14.3.5).
    Address {
        names: Vec<(Ident, Option<ArraySize>)>,
    },
    Output {
        name: Ident,
        size: Option<ArraySize>,
        init: Init,
    },
    Alias {
        name: Ident,
        target: Ident,
    },
    /// `BUFFER name[] = ...` / `BUFFER4`; NV_gpu_program5's
    /// <BUFFER_statement> has two <optArraySize>: with both written,
    /// `points` is the first, the number of binding points of a
    /// `program.buffer[a..b]` range, and `size` the elements.
    Buffer {
        vec4: bool,
        name: Ident,
        points: Option<ArraySize>,
        size: Option<ArraySize>,
        init: Init,
    },
    /// NV_parameter_buffer_object2's `CBUFFER name[] = { program.buffer[a] };`:
    /// the binding as bytes, read only by LDC (`points` as for `Buffer`).
    ConstantBuffer {
        name: Ident,
        points: Option<ArraySize>,
        size: Option<ArraySize>,
        init: Init,
    },
    /// NV_shader_atomic_counters' `COUNTER name[] = { program.counter[a] };`.
    Counter {
        name: Ident,
        size: Option<ArraySize>,
        init: Init,
    },
    PrimitiveIn(Ident),
    PrimitiveOut(Ident),
    VerticesOut(IntLit),
    /// NV_gpu_program5's `TEXTURE name = texture[n];` or
    /// `TEXTURE name[] = { texture[a..b] };`.
    Texture {
        name: Ident,
        size: Option<ArraySize>,
        init: Init,
    },
    /// EXT_shader_image_load_store's `IMAGE name = image[n];` or `IMAGE
    /// name[] = { image[a..b] };` (NV_gpu_program5).
    Image {
        name: Ident,
        size: Option<ArraySize>,
        init: Init,
    },
    /// NV_shader_storage_buffer_object's `STORAGE name = program.storage[a];`.
    Storage {
        name: Ident,
        size: Option<ArraySize>,
        init: Init,
    },
    /// NV_compute_program5's `SHARED name = program.sharedmem[a];` or
    /// `SHARED name[n] = { program.sharedmem[a..b] };`.
    Shared {
        name: Ident,
        size: Option<ArraySize>,
        init: Init,
    },
    /// NV_fragment_program's `DEFINE name = constant;` (a named constant;
    /// the init may be an earlier name, as a `Name` path).
    Define {
        name: Ident,
        init: Init,
    },
    /// NV_fragment_program's `DECLARE name [= constant];` (a named local
    /// parameter the application sets with ProgramNamedParameterNV).
    Declare {
        name: Ident,
        init: Option<Init>,
    },
    /// ARB_shader_subroutine's `SUBROUTINETYPE name { label, ... };`
    /// (NV_gpu_program5 edits): adds the labels to the type.
    SubroutineType {
        name: Ident,
        labels: Vec<Ident>,
    },
    /// ARB_shader_subroutine's `SUBROUTINE type name = program.subroutine[n];`
    /// or `SUBROUTINE type name[] = { program.subroutine[a..b] };`.
    Subroutine {
        ty: Ident,
        name: Ident,
        size: Option<ArraySize>,
        init: Init,
    },
    /// The NV_gpu_program5 family's other program-type declarations:
    /// `INVOCATIONS n`, `TESS_MODE m`, `TESS_SPACING s`,
    /// `TESS_VERTEX_ORDER o`, `TESS_POINT_MODE`, `GROUP_SIZE x[, y[, z]]`.
    Layout {
        keyword: &'static str,
        args: Vec<LayoutArg>,
    },
}

/// An argument of a [`DeclKind::Layout`] declaration.
#[derive(Clone, Debug, PartialEq)]
pub enum LayoutArg {
    Word(Ident),
    Int(IntLit),
}

impl LayoutArg {
    /// The argument as written.
    pub fn text(&self) -> &str {
        match self {
            LayoutArg::Word(w) => w.name.as_str(),
            LayoutArg::Int(n) => n.text.as_str(),
        }
    }
    /// Where it is.
    pub fn span(&self) -> Span {
        match self {
            LayoutArg::Word(w) => w.span,
            LayoutArg::Int(n) => n.span,
        }
    }
}

/// The right-hand side of a declaration.
#[derive(Clone, Debug, PartialEq)]
pub enum Init {
    /// `= binding`.
    Single(InitItem),
    /// `= { item, item, ... }`.
    List(Vec<InitItem>, Span),
}

#[derive(Clone, Debug, PartialEq)]
pub enum InitItem {
    Binding(Path),
    Vector(ConstVector),
    Scalar(SignedNumber),
}

impl InitItem {
    pub fn span(&self) -> Span {
        match self {
            InitItem::Binding(p) => p.span,
            InitItem::Vector(v) => v.span,
            InitItem::Scalar(s) => s.span,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IntLit {
    pub text: Text,
    pub span: Span,
}

impl IntLit {
    /// The value, or `None` when it does not fit in 64 bits.
    pub fn value(&self) -> Option<u64> {
        if let Some(hex) = self
            .text
            .strip_prefix("0x")
            .or_else(|| self.text.strip_prefix("0X"))
        {
            u64::from_str_radix(hex, 16).ok()
        } else {
            self.text.parse().ok()
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Number {
    Int(IntLit),
    Float { text: Text, span: Span },
}

impl Number {
    pub fn span(&self) -> Span {
        match self {
            Number::Int(i) => i.span,
            Number::Float { span, .. } => *span,
        }
    }
}

/// `<signedConstantScalar>`.
#[derive(Clone, Debug, PartialEq)]
pub struct SignedNumber {
    pub negative: bool,
    pub number: Number,
    pub span: Span,
}

/// `<constantVector>`: `{ a, b, c, d }`.
#[derive(Clone, Debug, PartialEq)]
pub struct ConstVector {
    pub components: Vec<SignedNumber>,
    pub span: Span,
}

/// A reserved word that begins a binding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Root {
    Fragment,
    Vertex,
    Primitive,
    Invocation,
    Program,
    Result,
    State,
    Texture,
    /// `image` (EXT_shader_image_load_store in NV_gpu_program5).
    Image,
}

impl Root {
    pub fn name(self) -> &'static str {
        match self {
            Root::Fragment => "fragment",
            Root::Vertex => "vertex",
            Root::Primitive => "primitive",
            Root::Invocation => "invocation",
            Root::Program => "program",
            Root::Result => "result",
            Root::State => "state",
            Root::Texture => "texture",
            Root::Image => "image",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum PathHead {
    /// A declared name (or, in flow instructions, a label or a
    /// condition-code rule).
    Name(Ident),
    /// A binding: `fragment`, `result`, `state`, ...
    Root(Root, Span),
    /// `{1, 0}`.
    Vector(ConstVector),
    /// `0.5`, `3` (an unsigned constant; a sign is the operand's negate).
    Number(Number),
}

/// A name or binding followed by `.member` and `[index]` parts, e.g.
/// `state.matrix.mvp.row[0].x`, `c[A0.x + 3].xyzw`, `R0.xy`. Where the
/// binding ends and the swizzle or write mask begins is the checker's call.
#[derive(Clone, Debug, PartialEq)]
pub struct Path {
    pub head: PathHead,
    pub parts: Vec<PathPart>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum PathPart {
    /// `.word`
    Member(Ident),
    /// `[...]`
    Index(IndexExpr, Span),
}

#[derive(Clone, Debug, PartialEq)]
pub enum IndexExpr {
    /// `[]`
    Empty,
    /// `[n]`
    Int(IntLit),
    /// `[a..b]`
    Range(IntLit, IntLit),
    /// `[OPOS]`: a register name of the older NV headers (`v[OPOS]`,
    /// `o[HPOS]`); nothing else takes one.
    Word(Ident),
    /// `[A0.x]`, `[A0.x + 3]`, `[A0.x - 3]`
    Relative {
        register: Ident,
        component: Ident,
        /// `+ n` (false) or `- n` (true); boxed, as rare.
        offset: Option<Box<(bool, IntLit)>>,
    },
}

/// `<instOperand...>`: `-|x|`, `-x`, `x`.
#[derive(Clone, Debug, PartialEq)]
pub struct Operand {
    pub negate: bool,
    /// `Some(negate inside)` when written `|...|`; `negate` is then the
    /// sign before the bars.
    pub abs: Option<bool>,
    pub path: Path,
    pub span: Span,
}

/// `<ccMask>` or a bare `<ccTest>`: a rule such as `GT1` and its swizzle.
#[derive(Clone, Debug, PartialEq)]
pub struct CcMask {
    pub rule: Ident,
    pub swizzle: Option<Ident>,
    pub span: Span,
}

/// One argument of an instruction, as written.
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    Operand(Operand),
    /// `(1, -2)`: a texel offset.
    Offset(Vec<SignedNumber>, Span),
    /// `offset(a)`: NV_gpu_program5's texel offset from an operand
    /// (`<texOffsetVar>`); boxed, as rare.
    VariableOffset(Box<Operand>, Span),
    /// `handle(a.x)`: NV_bindless_texture's texture or image named by a
    /// handle read from an operand; boxed, as rare.
    Handle(Box<Operand>, Span),
}

impl Arg {
    pub fn span(&self) -> Span {
        match self {
            Arg::Operand(o) => o.span,
            Arg::Offset(_, s) | Arg::VariableOffset(_, s) | Arg::Handle(_, s) => *s,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Instruction {
    /// The opcode with any Table X.15 suffixes, e.g. `ADDR_SAT`.
    pub opcode: Ident,
    /// Stand-alone modifiers `.F`, `.CC1`, ... (Table X.14), without dots.
    pub modifiers: Vec<Ident>,
    /// The first argument's run-time mask `(GT.x)`, or the whole condition
    /// of `BRK (GT.x)` (boxed, as rare).
    pub cc_mask: Option<Box<CcMask>>,
    pub args: Vec<Arg>,
    pub span: Span,
}
