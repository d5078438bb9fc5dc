//! Decoding binding paths such as `fragment.texcoord[2]`,
//! `state.matrix.mvp.row[1..2]` or `vertex[1].color.back` into the IR's
//! binding enums, per program type.
//!
//! The binding tables are those of NV_vertex_program4, NV_fragment_program4
//! and NV_geometry_program4 (section 2.X.3.2 and 2.X.3.5 of each),
//! NV_gpu_program4 section 2.X.3.3 (program parameters), the ARB
//! vertex/fragment program specs (Tables X.1 to X.4, the `state.*`
//! tables) and what the NV options add. Which members exist depends on the
//! dialect: every table below has an availability column, read by
//! [`decode`]; a member the dialect lacks is reported with the option
//! that provides it (`E0730`/`E0731`).

use super::suggest::did_you_mean;
use crate::diag::Diagnostic;
use crate::ir::{
    AttribBinding, ColorSel, ComputeAttrib, ParamBinding, PatchAttrib, PerVertexAttrib,
    ResultBinding, StateItem, ThreadAttrib,
};
use crate::isa::{Dialect, Features, Stage};
use crate::span::Span;
use crate::syntax::ast::{Ident, IndexExpr, IntLit, Path, PathHead, PathPart, Root};

/// MAX_TEXTURE_COORDS_ARB: the texture coordinate sets (the Locations of
/// docs/interface.md hold eight).
pub const MAX_TEXTURE_COORDS: u32 = 8;
/// MAX_VERTEX_ATTRIBS_ARB: the generic vertex attributes.
pub const MAX_VERTEX_ATTRIBS: u32 = 16;
/// MAX_CLIP_PLANES: the clip distances of NV_vertex_program2's
/// `result.clip[n]` (and the State block's clip planes).
pub const MAX_CLIP_PLANES: u32 = 6;

/// Which dialects have a binding member.
#[derive(Clone, Copy)]
enum Avail {
    /// Every dialect of the program type.
    All,
    /// Only dialects with one of these features.
    With(Features),
    /// Every dialect of a program type (in the ARB family, state items are
    /// per program type; NV_gpu_program4 has them all everywhere).
    ArbStage(Stage),
    /// An extension nvp4c does not implement (ARB_matrix_palette).
    Extension(&'static str),
}

impl Avail {
    fn exists(self, d: Dialect) -> bool {
        match self {
            Avail::All => true,
            Avail::With(f) => d.has(f),
            Avail::ArbStage(s) => d.has(Features::NV4) || d.stage() == s,
            Avail::Extension(_) => false,
        }
    }
}

/// One member of a binding table: its name, where it exists, and the spec
/// that defines it (for messages).
struct Member(&'static str, Avail, &'static str);

const NV4: Features = Features::NV4;

#[rustfmt::skip]
const VERTEX_ATTRIBS: &[Member] = &[
    Member("position",    Avail::All, ""),
    Member("weight",      Avail::All, ""),
    Member("normal",      Avail::All, ""),
    Member("fogcoord",    Avail::All, ""),
    Member("color",       Avail::All, ""),
    Member("texcoord",    Avail::All, ""),
    Member("attrib",      Avail::All, ""),
    Member("id",          Avail::With(NV4), "NV_vertex_program4 2.X.3.2: vertex.id"),
    Member("instance",    Avail::With(NV4), "NV_vertex_program4 2.X.3.2: vertex.instance"),
    Member("threadid",     Avail::With(Features::THREAD_GROUP), "NV_shader_thread_group 2.X.3.2: \"the \"x\" component is filled with the thread id of the current thread\""),
    Member("threadeqmask", Avail::With(Features::THREAD_GROUP), "NV_shader_thread_group 2.X.3.2: a \"bitfield in which the bit equal to the current thread id is set\""),
    Member("threadltmask", Avail::With(Features::THREAD_GROUP), "NV_shader_thread_group 2.X.3.2: a \"bitfield in which bits lower than the current thread id are set\""),
    Member("threadlemask", Avail::With(Features::THREAD_GROUP), "NV_shader_thread_group 2.X.3.2: a \"bitfield in which bits lower or equal to the current thread id are set\""),
    Member("threadgtmask", Avail::With(Features::THREAD_GROUP), "NV_shader_thread_group 2.X.3.2: a \"bitfield in which bits greater than the current thread id are set\""),
    Member("threadgemask", Avail::With(Features::THREAD_GROUP), "NV_shader_thread_group 2.X.3.2: a \"bitfield in which bits greater or equal to the current thread id are set\""),
    Member("warpid",       Avail::With(Features::THREAD_GROUP), "NV_shader_thread_group 2.X.3.2: \"the warp id of the current thread\""),
    Member("smid",         Avail::With(Features::THREAD_GROUP), "NV_shader_thread_group 2.X.3.2: \"the SM id of the current thread\""),
    Member("matrixindex", Avail::Extension("ARB_matrix_palette"), "ARB_vertex_program, \"Dependencies on ARB_matrix_palette\": without it \"matrixindex\" is removed from the grammar"),
];

#[rustfmt::skip]
const FRAGMENT_ATTRIBS: &[Member] = &[
    Member("color",    Avail::All, ""),
    Member("texcoord", Avail::All, ""),
    Member("fogcoord", Avail::All, ""),
    Member("clip",     Avail::With(NV4), "NV_fragment_program4 2.X.3.2: fragment.clip[n]"),
    Member("attrib",   Avail::With(NV4), "NV_fragment_program4 2.X.3.2: fragment.attrib[n]"),
    Member("position", Avail::All, ""),
    Member("facing",   Avail::With(Features::NV4.union(Features::NV_FP2)), "NV_fragment_program2 3.11.3.1: fragment.facing"),
    Member("threadid",     Avail::With(Features::THREAD_GROUP), "NV_shader_thread_group 2.X.3.2: \"the \"x\" component is filled with the thread id of the current thread\""),
    Member("threadeqmask", Avail::With(Features::THREAD_GROUP), "NV_shader_thread_group 2.X.3.2: a \"bitfield in which the bit equal to the current thread id is set\""),
    Member("threadltmask", Avail::With(Features::THREAD_GROUP), "NV_shader_thread_group 2.X.3.2: a \"bitfield in which bits lower than the current thread id are set\""),
    Member("threadlemask", Avail::With(Features::THREAD_GROUP), "NV_shader_thread_group 2.X.3.2: a \"bitfield in which bits lower or equal to the current thread id are set\""),
    Member("threadgtmask", Avail::With(Features::THREAD_GROUP), "NV_shader_thread_group 2.X.3.2: a \"bitfield in which bits greater than the current thread id are set\""),
    Member("threadgemask", Avail::With(Features::THREAD_GROUP), "NV_shader_thread_group 2.X.3.2: a \"bitfield in which bits greater or equal to the current thread id are set\""),
    Member("warpid",       Avail::With(Features::THREAD_GROUP), "NV_shader_thread_group 2.X.3.2: \"the warp id of the current thread\""),
    Member("smid",         Avail::With(Features::THREAD_GROUP), "NV_shader_thread_group 2.X.3.2: \"the SM id of the current thread\""),
    Member("sampleid",     Avail::With(Features::NV5), "NV_gpu_program5 2.X.2: <attribBasic> ::= <fragPrefix> \"sampleid\""),
    Member("samplemask",   Avail::With(Features::NV5), "NV_gpu_program5 2.X.3.2: fragment.samplemask, the fragment coverage mask"),
    Member("pointcoord",   Avail::With(Features::NV5), "NV_gpu_program5 2.X.3.2: fragment.pointcoord, \"(s,t,-,-) fragment point sprite coordinate\""),
    Member("helperthread", Avail::With(Features::THREAD_GROUP), "NV_shader_thread_group 2.X.3.2: \"-1 when the current thread is a helper thread and 0 otherwise\""),
];

/// The compute program's thread bindings (NV_shader_thread_group,
/// "Dependencies on NV_compute_program5").
#[rustfmt::skip]
const COMPUTE_THREAD_ATTRIBS: &[Member] = &[
    Member("threadid",     Avail::With(Features::THREAD_GROUP), "NV_shader_thread_group, \"Dependencies on NV_compute_program5\": invocation.threadid"),
    Member("threadeqmask", Avail::With(Features::THREAD_GROUP), "NV_shader_thread_group, \"Dependencies on NV_compute_program5\": invocation.threadeqmask"),
    Member("threadltmask", Avail::With(Features::THREAD_GROUP), "NV_shader_thread_group, \"Dependencies on NV_compute_program5\": invocation.threadltmask"),
    Member("threadlemask", Avail::With(Features::THREAD_GROUP), "NV_shader_thread_group, \"Dependencies on NV_compute_program5\": invocation.threadlemask"),
    Member("threadgtmask", Avail::With(Features::THREAD_GROUP), "NV_shader_thread_group, \"Dependencies on NV_compute_program5\": invocation.threadgtmask"),
    Member("threadgemask", Avail::With(Features::THREAD_GROUP), "NV_shader_thread_group, \"Dependencies on NV_compute_program5\": invocation.threadgemask"),
    Member("warpid",       Avail::With(Features::THREAD_GROUP), "NV_shader_thread_group, \"Dependencies on NV_compute_program5\": invocation.warpid"),
    Member("smid",         Avail::With(Features::THREAD_GROUP), "NV_shader_thread_group, \"Dependencies on NV_compute_program5\": invocation.smid"),
];

#[rustfmt::skip]
const VERTEX_RESULTS: &[Member] = &[
    Member("position",  Avail::All, ""),
    Member("color",     Avail::All, ""),
    Member("fogcoord",  Avail::All, ""),
    Member("pointsize", Avail::All, ""),
    Member("texcoord",  Avail::All, ""),
    Member("clip",      Avail::With(Features::NV4.union(Features::NV_VP2)), "NV_vertex_program2_option 2.14.3.4: result.clip[n]"),
    Member("attrib",    Avail::With(NV4), "NV_vertex_program4 2.X.3.5: result.attrib[n]"),
    Member("id",        Avail::With(NV4), "NV_vertex_program4 2.X.3.5: result.id"),
];

#[rustfmt::skip]
const GEOMETRY_RESULTS: &[Member] = &[
    Member("position",  Avail::All, ""),
    Member("color",     Avail::All, ""),
    Member("fogcoord",  Avail::All, ""),
    Member("pointsize", Avail::All, ""),
    Member("texcoord",  Avail::All, ""),
    Member("clip",      Avail::All, ""),
    Member("attrib",    Avail::All, ""),
    Member("primid",    Avail::All, ""),
    Member("layer",     Avail::All, ""),
];

/// NV_tessellation_program5 Table X.5 (both types) and X.6 (control only).
#[rustfmt::skip]
const TESS_CONTROL_RESULTS: &[Member] = &[
    Member("position",  Avail::All, ""),
    Member("color",     Avail::All, ""),
    Member("fogcoord",  Avail::All, ""),
    Member("pointsize", Avail::All, ""),
    Member("texcoord",  Avail::All, ""),
    Member("clip",      Avail::All, ""),
    Member("attrib",    Avail::All, ""),
    Member("patch",     Avail::All, ""),
];

#[rustfmt::skip]
const TESS_EVAL_RESULTS: &[Member] = &[
    Member("position",  Avail::All, ""),
    Member("color",     Avail::All, ""),
    Member("fogcoord",  Avail::All, ""),
    Member("pointsize", Avail::All, ""),
    Member("texcoord",  Avail::All, ""),
    Member("clip",      Avail::All, ""),
    Member("attrib",    Avail::All, ""),
];

#[rustfmt::skip]
const FRAGMENT_RESULTS: &[Member] = &[
    Member("color", Avail::All, ""),
    Member("depth", Avail::All, ""),
    Member("samplemask", Avail::With(Features::NV5), "NV_gpu_program5 2.X.2: <resultBasic> ::= <resPrefix> \"samplemask\""),
];

#[rustfmt::skip]
const PROGRAM_PARAMETERS: &[Member] = &[
    Member("env",    Avail::All, ""),
    Member("local",  Avail::All, ""),
    Member("buffer", Avail::With(NV4), "NV_parameter_buffer_object 2.X.3.6: program.buffer[n]"),
    Member("storagelen", Avail::With(Features::STORAGE_BUFFER), "NV_shader_storage_buffer_object 2.X.3.3: program.storagelen[a], the unsized array length of storage buffer a (with `OPTION NV_shader_storage_buffer`)"),
];

/// The GL state of Tables X.3.2 to X.3.8 (ARB_vertex_program) and their
/// fragment counterparts (ARB_fragment_program 3.11.3.2).
#[rustfmt::skip]
const STATE_ITEMS: &[Member] = &[
    Member("material",   Avail::All, ""),
    Member("light",      Avail::All, ""),
    Member("lightmodel", Avail::All, ""),
    Member("lightprod",  Avail::All, ""),
    Member("fog",        Avail::All, ""),
    Member("matrix",     Avail::All, ""),
    Member("texgen",     Avail::ArbStage(Stage::Vertex), "ARB_vertex_program Table X.3.4: texture coordinate generation state is a vertex program binding"),
    Member("clip",       Avail::ArbStage(Stage::Vertex), "ARB_vertex_program Table X.3.6: clip planes are a vertex program binding"),
    Member("point",      Avail::ArbStage(Stage::Vertex), "ARB_vertex_program Table X.3.7: point state is a vertex program binding"),
    Member("texenv",     Avail::ArbStage(Stage::Fragment), "ARB_fragment_program 3.11.3.2: texture environment colors are a fragment program binding"),
    Member("depth",      Avail::ArbStage(Stage::Fragment), "ARB_fragment_program 3.11.3.2: the depth range is a fragment program binding"),
    Member("thread",     Avail::With(Features::THREAD_GROUP), "NV_shader_thread_group 2.X.3.3: state.thread.warpsize, warpspersm, smcount: \"the total number of thread in a warp\", \"the maximum number of warp executing on a SM\", \"the number of SM on the GPU\""),
];

#[rustfmt::skip]
const MATRICES: &[Member] = &[
    Member("modelview",  Avail::All, ""),
    Member("projection", Avail::All, ""),
    Member("mvp",        Avail::All, ""),
    Member("texture",    Avail::All, ""),
    Member("program",    Avail::All, ""),
    Member("palette",    Avail::Extension("ARB_matrix_palette"), "ARB_vertex_program, \"Dependencies on ARB_matrix_palette\": without it \"palette\" is removed from the grammar"),
];

/// What a binding path names.
#[derive(Clone, Debug, PartialEq)]
pub enum Binding {
    Attrib(Vec<AttribBinding>),
    Result(Vec<ResultBinding>),
    Param(Vec<ParamBinding>),
    /// `program.buffer[b]`, optionally `[n]` or `[a..c]` into it; on a
    /// range of binding points `program.buffer[b..last]` (NV_gpu_program5
    /// 2.X.3.6, Table X.12.1), `last` is its last binding point.
    Buffer {
        buffer: u32,
        last: u32,
        elements: Option<(u32, u32)>,
        span: Span,
    },
    Texture(u32),
}

/// A decoded binding and the parts of the path after it (a swizzle or a
/// write mask, or an index the binding does not take).
pub struct Decoded<'p> {
    pub binding: Binding,
    pub rest: &'p [PathPart],
    /// The span of the binding itself, without the suffix.
    pub span: Span,
    /// `vertex.attrib[A0.x + 1]`: the binding is the whole array of its
    /// kind, indexed by this address register component and offset.
    pub relative: Option<RelativeIndex<'p>>,
}

/// An address register index written in a binding (NV_vertex_program3,
/// NV_fragment_program2).
pub struct RelativeIndex<'p> {
    pub register: &'p Ident,
    pub component: &'p Ident,
    pub offset: i64,
    /// The `[...]`.
    pub span: Span,
    /// Which array: `"texcoord"` or `"attrib"`.
    pub family: &'static str,
}

const BINDINGS_NOTE: &str =
    "the valid bindings are listed in the tables of section 2.X.3.2 (attributes), \
2.X.3.3 (parameters) and 2.X.3.5 (results) of the program type's specification";

struct Cursor<'p> {
    parts: &'p [PathPart],
    at: usize,
    /// End of the last consumed part (or of the root).
    end: u32,
    start: u32,
}

impl<'p> Cursor<'p> {
    fn peek_member(&self) -> Option<&'p Ident> {
        match self.parts.get(self.at) {
            Some(PathPart::Member(id)) => Some(id),
            _ => None,
        }
    }
    fn take_member_if(&mut self, names: &[&str]) -> Option<&'p Ident> {
        let id = self.peek_member()?;
        if names.contains(&id.name.as_str()) {
            self.at += 1;
            self.end = id.span.end;
            Some(id)
        } else {
            None
        }
    }
    /// Requires a `.member` from `names`.
    fn expect_member(&mut self, names: &[&str], after: &str) -> Result<&'p Ident, Diagnostic> {
        match self.parts.get(self.at) {
            Some(PathPart::Member(id)) if names.contains(&id.name.as_str()) => {
                self.at += 1;
                self.end = id.span.end;
                Ok(id)
            }
            Some(PathPart::Member(id)) => Err(unknown_member(id, names, after)),
            Some(PathPart::Index(_, span)) => Err(Diagnostic::error(
                "E0200",
                format!("`{after}` is not followed by an index"),
            )
            .primary(*span, "unexpected index")
            .note(format!("expected one of: {}", names.join(", ")))),
            None => Err(
                Diagnostic::error("E0200", format!("incomplete binding `{after}`"))
                    .primary(
                        Span {
                            start: self.start,
                            end: self.end,
                        },
                        format!("expected `.{}` or another member after this", names[0]),
                    )
                    .note(format!("it continues with one of: {}", names.join(", ")))
                    .note(BINDINGS_NOTE),
            ),
        }
    }
    fn peek_index(&self) -> Option<(&'p IndexExpr, Span)> {
        match self.parts.get(self.at) {
            Some(PathPart::Index(ix, span)) => Some((ix, *span)),
            _ => None,
        }
    }
    fn take_index(&mut self) -> Option<(&'p IndexExpr, Span)> {
        let r = self.peek_index()?;
        self.at += 1;
        self.end = r.1.end;
        Some(r)
    }
    fn span(&self) -> Span {
        Span {
            start: self.start,
            end: self.end,
        }
    }
}

impl<'p> Cursor<'p> {
    /// Requires a `.member` of `table` that exists in the dialect.
    fn member(
        &mut self,
        table: &[Member],
        after: &str,
        dialect: Dialect,
    ) -> Result<&'p Ident, Diagnostic> {
        // The common case first: a member of the table that exists in the
        // dialect (the first entry of its name decides, as below). The
        // list of the available ones is for the messages only: building
        // it for every binding an operand names was most of the cost of
        // decoding one (docs/performance.md, "Session 10 (checker)").
        if let Some(PathPart::Member(id)) = self.parts.get(self.at) {
            if table
                .iter()
                .find(|m| m.0 == id.name.as_str())
                .is_some_and(|m| m.1.exists(dialect))
            {
                self.at += 1;
                self.end = id.span.end;
                return Ok(id);
            }
        }
        let available: Vec<&str> = table
            .iter()
            .filter(|m| m.1.exists(dialect))
            .map(|m| m.0)
            .collect();
        let Some(PathPart::Member(id)) = self.parts.get(self.at) else {
            return self.expect_member(&available, after);
        };
        let Some(m) = table.iter().find(|m| m.0 == id.name.as_str()) else {
            return self.expect_member(&available, after);
        };
        if m.1.exists(dialect) {
            return self.expect_member(&available, after);
        }
        self.at += 1;
        self.end = id.span.end;
        let what = format!("`{after}.{}`", id.name);
        Err(match m.1 {
            Avail::Extension(ext) => Diagnostic::error(
                "E0224",
                format!("{what} needs {ext}, which nvp4c does not implement"),
            )
            .primary(self.span(), format!("a binding of {ext}"))
            .note(m.2),
            avail => {
                super::dialect::unavailable(dialect, &what, self.span(), |d| avail.exists(d), m.2)
            }
        })
    }
}

fn unknown_member(id: &Ident, names: &[&str], after: &str) -> Diagnostic {
    let mut d = Diagnostic::error("E0200", format!("unknown binding `{after}.{}`", id.name))
        .primary(id.span, "not a member of this binding");
    if let Some(s) = did_you_mean(&id.name, names.iter().copied()) {
        d = d.note(format!("did you mean `{after}.{s}`?"));
    }
    d.note(format!(
        "`{after}` continues with one of: {}",
        names.join(", ")
    ))
    .note(BINDINGS_NOTE)
}

pub fn int_value(lit: &IntLit) -> Result<u32, Diagnostic> {
    lit.value().and_then(|v| u32::try_from(v).ok()).ok_or_else(|| {
        Diagnostic::error("E0201", format!("integer `{}` is too large", lit.text))
            .primary(lit.span, "does not fit in 32 bits")
            .note("section 2.X.3.3: \"If the value used to specify an integer constant is too large to be represented, the program will fail to load.\"")
    })
}

/// A binding word as messages name it (`vertex.attrib`), written only
/// when a message is: formatting it for every binding an operand names
/// was a quarter of decoding one (docs/performance.md, "Session 10
/// (checker)").
struct BindingWord<'a>(&'static str, &'a str);

impl std::fmt::Display for BindingWord<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.0, self.1)
    }
}

/// An optional `[n]`, `[a..b]` or `[A0.x + n]` after a binding word.
enum Sel<'p> {
    None,
    One(u32),
    Range(u32, u32),
    Relative(RelativeIndex<'p>),
}

fn selection<'p>(
    c: &mut Cursor<'p>,
    what: &(impl std::fmt::Display + ?Sized),
    allow_range: bool,
) -> Result<Sel<'p>, Diagnostic> {
    selection_in(c, what, allow_range, None)
}

/// [`selection`] of an attribute or result array that an address register
/// may index directly in the dialect (`family` is `texcoord` or `attrib`).
fn selection_in<'p>(
    c: &mut Cursor<'p>,
    what: &(impl std::fmt::Display + ?Sized),
    allow_range: bool,
    relative: Option<(&'static str, Dialect)>,
) -> Result<Sel<'p>, Diagnostic> {
    let Some((ix, span)) = c.peek_index() else {
        return Ok(Sel::None);
    };
    if let (
        IndexExpr::Relative {
            register,
            component,
            offset,
        },
        Some((family, dialect)),
    ) = (ix, relative.filter(|(_, d)| d.is_arb()))
    {
        // (NV_gpu_program4 indexes only declared arrays: E0204 below.)
        if !dialect.relative_bindings() {
            return Err(super::dialect::unavailable(
                dialect,
                &format!("relative addressing of `{what}`"),
                span,
                |d| d.relative_bindings(),
                "NV_vertex_program3: vertex.texcoord[A+n], vertex.attrib[A+n] and result.texcoord[A+n]; NV_fragment_program2: fragment.texcoord[A0.x+n]",
            ));
        }
        let offset = match offset.as_deref() {
            None => 0,
            Some((neg, lit)) => {
                let m = lit.value().unwrap_or(u64::MAX).min(i64::MAX as u64) as i64;
                if *neg {
                    -m
                } else {
                    m
                }
            }
        };
        c.take_index();
        return Ok(Sel::Relative(RelativeIndex {
            register,
            component,
            offset,
            span,
            family,
        }));
    }
    let sel = match ix {
        IndexExpr::Int(n) => Sel::One(int_value(n)?),
        IndexExpr::Range(a, b) if allow_range => {
            let (a, b) = (int_value(a)?, int_value(b)?);
            if a > b {
                return Err(Diagnostic::error("E0202", format!("range `[{a}..{b}]` of `{what}` is empty"))
                    .primary(span, "the first index is greater than the last")
                    .note("section 2.X.3.3: a program using `[a..b]` \"will fail to load if <a> is greater than <b>\""));
            }
            Sel::Range(a, b)
        }
        IndexExpr::Range(..) => {
            return Err(Diagnostic::error("E0203", format!("a range of `{what}` is only allowed in an array declaration"))
                .primary(span, "range used here")
                .note("section 2.X.2: <arrayRange> appears only in <attribUseD>, <paramUseDM>, <resultUseD> and <bufferUseDM>, the initializers of array declarations"))
        }
        IndexExpr::Relative { .. } => {
            return Err(Diagnostic::error("E0204", format!("`{what}` must be indexed with a constant"))
                .primary(span, "relative addressing is not allowed on a binding")
                .note("section 2.X.2: bindings take <arrayMemAbs> (`[n]`); to index with a register, declare an array variable with these bindings and index that"))
        }
        IndexExpr::Empty => {
            return Err(Diagnostic::error("E0205", format!("`{what}[]` needs an index")).primary(span, "empty index"))
        }
        IndexExpr::Word(w) => return Err(word_index_error(w)),
    };
    c.take_index();
    Ok(sel)
}

/// `[OPOS]` outside the older NV headers: their grammars alone have names
/// in brackets; an index is an integer or `A0.x + n` (section 2.X.2,
/// <arrayMemAbs>, <arrayMemRel>).
pub(crate) fn word_index_error(w: &crate::syntax::ast::Ident) -> Diagnostic {
    Diagnostic::error("E0100", format!("`{}` is not an array index", w.name))
        .primary(w.span, "expected an integer or an address register component")
        .note("section 2.X.2: an index is <arrayMemAbs> (`[n]`) or <arrayMemRel> (`[A0.x + n]`); register names in brackets (`v[OPOS]`, `o[HPOS]`) belong to the `!!VP1.0`, `!!VP1.1`, `!!VP2.0` and `!!FP1.0` grammars")
}

/// The bindings a selection names; a relative one names the whole array of
/// `len` elements (the address register picks one at run time).
fn expand<T>(sel: &Sel<'_>, default: u32, len: u32, f: impl Fn(u32) -> T) -> Vec<T> {
    match sel {
        Sel::None => vec![f(default)],
        Sel::One(n) => vec![f(*n)],
        Sel::Range(a, b) => (*a..=*b).map(f).collect(),
        Sel::Relative(_) => (0..len).map(f).collect(),
    }
}

/// The selection, checked against the array's size where the dialect's
/// grammar bounds the index (the ARB family: `<vtxAttribNum>` "from 0 to
/// MAX_VERTEX_ATTRIBS_ARB-1", `<texCoordNum>` "from 0 to
/// MAX_TEXTURE_COORDS_ARB-1", `<clipPlaneNum>` "from 0 to MAX_CLIP_PLANES-1").
fn bounded<'p>(
    sel: Sel<'p>,
    c: &Cursor<'_>,
    what: &(impl std::fmt::Display + ?Sized),
    max: u32,
    limit: &str,
    dialect: Dialect,
) -> Result<Sel<'p>, Diagnostic> {
    if !dialect.is_arb() {
        return Ok(sel);
    }
    let last = match &sel {
        Sel::One(n) => *n,
        Sel::Range(_, b) => *b,
        _ => return Ok(sel),
    };
    if last >= max {
        return Err(Diagnostic::error(
            "E0223",
            format!("`{what}[{last}]` is past the last one ({})", max - 1),
        )
        .primary(c.span(), format!("{limit} is {max}"))
        .note(format!(
            "{}: the index is an integer \"from 0 to {limit}-1\" (docs/limits.md)",
            dialect.header.spec()
        )));
    }
    Ok(sel)
}

fn required<'p>(
    sel: Sel<'p>,
    c: &Cursor<'_>,
    what: &(impl std::fmt::Display + ?Sized),
) -> Result<Sel<'p>, Diagnostic> {
    if let Sel::None = sel {
        Err(
            Diagnostic::error("E0205", format!("`{what}` needs an index `[n]`"))
                .primary(c.span(), "index missing after this")
                .note(BINDINGS_NOTE),
        )
    } else {
        Ok(sel)
    }
}

fn color_sel(c: &mut Cursor<'_>, faces: bool) -> ColorSel {
    let mut sel = ColorSel {
        back: false,
        secondary: false,
    };
    if faces {
        if let Some(f) = c.take_member_if(&["front", "back"]) {
            sel.back = f.name == "back";
        }
    }
    if let Some(t) = c.take_member_if(&["primary", "secondary"]) {
        sel.secondary = t.name == "secondary";
    }
    sel
}

/// Decodes a path whose head is a reserved word, in the program's dialect.
pub fn decode<'p>(
    dialect: Dialect,
    root: Root,
    root_span: Span,
    path: &'p Path,
    allow_range: bool,
) -> Result<Decoded<'p>, Diagnostic> {
    let stage = dialect.stage();
    let mut c = Cursor {
        parts: &path.parts,
        at: 0,
        end: root_span.end,
        start: root_span.start,
    };
    let mut relative = None;
    let binding = match root {
        Root::Vertex if stage == Stage::Vertex => {
            let m = c.member(VERTEX_ATTRIBS, "vertex", dialect)?;
            if is_thread_member(&m.name) {
                thread_binding(m, "vertex")?
            } else {
                vertex_attrib(&mut c, allow_range, dialect, &mut relative)?
            }
        }
        Root::Vertex if matches!(stage, Stage::TessControl | Stage::TessEval) => {
            tessellation_vertex(&mut c, allow_range, stage)?
        }
        Root::Vertex => geometry_attrib(&mut c, allow_range)?,
        // NV_shader_thread_group, "Dependencies on NV_compute_program5":
        // `invocation.threadid` ... with the option.
        Root::Invocation if c.peek_member().is_some_and(|m| is_thread_member(&m.name)) => {
            let m = c.member(COMPUTE_THREAD_ATTRIBS, "invocation", dialect)?;
            thread_binding(m, "invocation")?
        }
        Root::Invocation => {
            let m = c.expect_member(
                &[
                    "localid",
                    "globalid",
                    "groupid",
                    "groupcount",
                    "groupsize",
                    "localindex",
                ],
                "invocation",
            )?;
            let a = match m.name.as_str() {
                "localid" => ComputeAttrib::LocalId,
                "globalid" => ComputeAttrib::GlobalId,
                "groupid" => ComputeAttrib::GroupId,
                "groupcount" => ComputeAttrib::GroupCount,
                "groupsize" => ComputeAttrib::GroupSize,
                _ => ComputeAttrib::LocalIndex,
            };
            Binding::Attrib(vec![AttribBinding::Compute(a)])
        }
        Root::Primitive
            if dialect.has(Features::NV5)
                && stage != Stage::Fragment
                && c.peek_member().is_some_and(|m| is_thread_member(&m.name)) =>
        {
            // NV_shader_thread_group's `primitive.threadid` ... (geometry
            // and tessellation programs): the vertex table's thread rows.
            let m = c.member(VERTEX_ATTRIBS, "primitive", dialect)?;
            thread_binding(m, "primitive")?
        }
        Root::Primitive if dialect.has(Features::NV5) => {
            primitive_attrib(&mut c, allow_range, stage)?
        }
        Root::Fragment if c.peek_member().is_some_and(|m| is_thread_member(&m.name)) => {
            let m = c.member(FRAGMENT_ATTRIBS, "fragment", dialect)?;
            thread_binding(m, "fragment")?
        }
        Root::Fragment => {
            let m = c.member(FRAGMENT_ATTRIBS, "fragment", dialect)?;
            let name = m.name.as_str();
            let w = BindingWord("fragment", name);
            let v = match name {
                "color" => vec![AttribBinding::Color(color_sel(&mut c, false))],
                "texcoord" => {
                    let sel = selection_in(&mut c, &w, allow_range, Some(("texcoord", dialect)))?;
                    let sel = bounded(
                        sel,
                        &c,
                        &w,
                        MAX_TEXTURE_COORDS,
                        "MAX_TEXTURE_COORDS_ARB",
                        dialect,
                    )?;
                    let v = expand(&sel, 0, MAX_TEXTURE_COORDS, AttribBinding::TexCoord);
                    if let Sel::Relative(r) = sel {
                        relative = Some(r);
                    }
                    v
                }
                "fogcoord" => vec![AttribBinding::FogCoord],
                "clip" => expand(
                    &required(selection(&mut c, &w, allow_range)?, &c, &w)?,
                    0,
                    0,
                    AttribBinding::Clip,
                ),
                "attrib" => expand(
                    &required(selection(&mut c, &w, allow_range)?, &c, &w)?,
                    0,
                    0,
                    AttribBinding::Generic,
                ),
                "position" => vec![AttribBinding::Position],
                "sampleid" => vec![AttribBinding::SampleId],
                "samplemask" => vec![AttribBinding::SampleMask],
                "pointcoord" => vec![AttribBinding::PointCoord],
                _ => vec![AttribBinding::Facing],
            };
            Binding::Attrib(v)
        }
        Root::Primitive => {
            c.expect_member(&["id"], "primitive")?;
            Binding::Attrib(vec![AttribBinding::PrimitiveId])
        }
        Root::Result => result_binding(dialect, &mut c, allow_range, &mut relative)?,
        Root::Program => program_binding(&mut c, allow_range, dialect)?,
        Root::State => state_binding(&mut c, allow_range, dialect)?,
        // EXT_shader_image_load_store, NV_gpu_program5 2.X.3.X: "Image
        // variables may only be used to identify a texture object in image
        // instructions, and may not be used as operands in any other
        // instruction."
        Root::Image => {
            return Err(Diagnostic::error("E1193", "an image unit used outside an image instruction")
                .primary(path.span, "`image[n]` names an image unit")
                .note("EXT_shader_image_load_store, NV_gpu_program5 2.X.3.X: \"Image variables may only be used to identify a texture object in image instructions, and may not be used as operands in any other instruction.\" (LOADIM, STOREIM, ATOMIM; IMAGE declarations)"));
        }
        Root::Texture => {
            let unit = match selection(&mut c, "texture", false)? {
                Sel::One(n) => n,
                _ => 0,
            };
            Binding::Texture(unit)
        }
    };
    Ok(Decoded {
        binding,
        rest: &path.parts[c.at..],
        span: c.span(),
        relative,
    })
}

/// Whether `name` is one of NV_shader_thread_group's thread bindings
/// (2.X.3.2), under any prefix.
fn is_thread_member(name: &str) -> bool {
    matches!(name, "warpid" | "smid") || ThreadAttrib::of_name(name).is_some()
}

/// A thread binding the table allowed (`m`, after `after.`): the binding,
/// or E1141 for `warpid` and `smid`, which name hardware (a warp slot, a
/// streaming multiprocessor) that Vulkan does not expose portably.
fn thread_binding(m: &Ident, after: &str) -> Result<Binding, Diagnostic> {
    match ThreadAttrib::of_name(&m.name) {
        Some(t) => Ok(Binding::Attrib(vec![AttribBinding::Thread(t)])),
        None => Err(Diagnostic::error("E1141", format!("`{after}.{}` has no portable Vulkan equivalent", m.name))
            .primary(m.span, "nvp4c cannot lower this binding")
            .note(format!("NV_shader_thread_group 2.X.3.2: \"the {} id of the current thread\" is \"an unsigned integer, the range of this value is hw dependent\"", if m.name == "warpid" { "warp" } else { "SM" }))
            .note("core Vulkan has no warp slot or SM index; SPV_NV_shader_sm_builtins (WarpIDNV, SMIDNV) exists on NVIDIA devices only, and nvp4c emits core SPIR-V (docs/interface.md, \"Thread groups\")")),
    }
}

fn vertex_attrib<'p>(
    c: &mut Cursor<'p>,
    allow_range: bool,
    dialect: Dialect,
    relative: &mut Option<RelativeIndex<'p>>,
) -> Result<Binding, Diagnostic> {
    let name = c.parts[c.at - 1].member_name();
    let w = BindingWord("vertex", name);
    let v = match name {
        "position" => vec![AttribBinding::Position],
        "weight" => expand(&selection(c, &w, false)?, 0, 0, AttribBinding::Weight),
        "normal" => vec![AttribBinding::Normal],
        "fogcoord" => vec![AttribBinding::FogCoord],
        "color" => vec![AttribBinding::Color(color_sel(c, false))],
        "texcoord" | "attrib" => {
            let (family, len, limit): (&'static str, u32, &str) = if name == "texcoord" {
                ("texcoord", MAX_TEXTURE_COORDS, "MAX_TEXTURE_COORDS_ARB")
            } else {
                ("attrib", MAX_VERTEX_ATTRIBS, "MAX_VERTEX_ATTRIBS_ARB")
            };
            let mut sel = selection_in(c, &w, allow_range, Some((family, dialect)))?;
            if family == "attrib" {
                sel = required(sel, c, &w)?;
            }
            let sel = bounded(sel, c, &w, len, limit, dialect)?;
            let v = if family == "texcoord" {
                expand(&sel, 0, len, AttribBinding::TexCoord)
            } else {
                expand(&sel, 0, len, AttribBinding::Generic)
            };
            if let Sel::Relative(r) = sel {
                *relative = Some(r);
            }
            v
        }
        "id" => vec![AttribBinding::VertexId],
        _ => vec![AttribBinding::InstanceId],
    };
    Ok(Binding::Attrib(v))
}

/// A tessellation program's `vertex…` binding (NV_tessellation_program5
/// Tables X.2 and X.3): `vertex.tesscoord` (evaluation programs),
/// `vertex[m].<b>` / `vertex.in[m].<b>` of the input patch, and a control
/// program's `vertex.out[m].<b>`.
fn tessellation_vertex(
    c: &mut Cursor<'_>,
    allow_range: bool,
    stage: Stage,
) -> Result<Binding, Diagnostic> {
    if c.peek_index().is_none() {
        if let Some(m) = c.take_member_if(&["tesscoord", "in", "out"]) {
            match m.name.as_str() {
                "tesscoord" if stage == Stage::TessEval => {
                    return Ok(Binding::Attrib(vec![AttribBinding::TessCoord]))
                }
                "tesscoord" => return Err(not_in_program_type(m, "vertex.tesscoord", stage, "NV_tessellation_program5 Table X.4: \"This suffix is not available to tessellation control shaders\"")),
                "out" if stage == Stage::TessControl => {
                    return match geometry_attrib(c, allow_range)? {
                        Binding::Attrib(v) => Ok(Binding::Attrib(
                            v.into_iter()
                                .map(|b| match b {
                                    AttribBinding::PerVertex { vertex, binding } => {
                                        AttribBinding::OutputVertex { vertex, binding }
                                    }
                                    other => other,
                                })
                                .collect(),
                        )),
                        other => Ok(other),
                    }
                }
                "out" => return Err(not_in_program_type(m, "vertex.out", stage, "NV_tessellation_program5 Table X.2: \"Tessellation evaluation programs do not have an output patch and do not support this attribute binding prefix.\"")),
                _ => {}
            }
        }
    }
    geometry_attrib(c, allow_range)
}

/// NV5's `primitive…` bindings (NV_tessellation_program5 Table X.4,
/// NV_gpu_program5's geometry additions): `id`, `invocation`,
/// `vertexcount`, and the per-patch `tessouter[n]`, `tessinner[n]`,
/// `patch.attrib[n]`, with the `in` and `out` prefixes where they exist.
fn primitive_attrib(
    c: &mut Cursor<'_>,
    allow_range: bool,
    stage: Stage,
) -> Result<Binding, Diagnostic> {
    let prefix = c
        .take_member_if(&["in", "out"])
        .map(|m| (m.name.to_string(), m.span));
    let output = prefix.as_ref().is_some_and(|p| p.0 == "out");
    if output && stage != Stage::TessControl {
        let (_, span) = prefix.clone().unwrap_or_default();
        return Err(Diagnostic::error("E1105", format!("`primitive.out` in a {stage} program"))
            .primary(span, "only tessellation control programs have an output patch")
            .note("NV_tessellation_program5 Table X.2: \"Tessellation evaluation programs do not have an output patch and do not support this attribute binding suffix.\""));
    }
    let m = c.expect_member(
        &[
            "id",
            "invocation",
            "vertexcount",
            "tessouter",
            "tessinner",
            "patch",
        ],
        "primitive",
    )?;
    let name = m.name.to_string();
    let m = m.clone();
    let rule = "NV_tessellation_program5 Table X.4 and the text after it; NV_gpu_program5's geometry program grammar";
    let patch = |c: &mut Cursor<'_>,
                 f: fn(u32) -> PatchAttrib,
                 max: Option<u32>,
                 what: &str|
     -> Result<Vec<AttribBinding>, Diagnostic> {
        let sel = required(selection(c, what, allow_range)?, c, what)?;
        if let (Some(max), Sel::One(n) | Sel::Range(_, n)) = (max, &sel) {
            if *n >= max {
                return Err(Diagnostic::error("E1105", format!("`{what}[{n}]` does not exist"))
                    .primary(c.span(), format!("{what} has {max} levels"))
                    .note("NV_tessellation_program5 Table X.4: tessouter[n] \"<n> must be less than four\", tessinner[n] \"<n> must be less than two\""));
            }
        }
        Ok(expand(&sel, 0, 0, |n| AttribBinding::Patch {
            output,
            attrib: f(n),
        }))
    };
    let v = match name.as_str() {
        "id" => vec![AttribBinding::PrimitiveId],
        "invocation" if matches!(stage, Stage::TessControl | Stage::Geometry) => {
            vec![AttribBinding::InvocationId]
        }
        "vertexcount"
            if !output
                && matches!(
                    stage,
                    Stage::TessControl | Stage::TessEval | Stage::Geometry
                ) =>
        {
            vec![AttribBinding::VertexCount]
        }
        "tessouter" | "tessinner" | "patch"
            if (stage == Stage::TessEval && !output) || (stage == Stage::TessControl && output) =>
        {
            match name.as_str() {
                "tessouter" => patch(c, PatchAttrib::TessOuter, Some(4), "primitive.tessouter")?,
                "tessinner" => patch(c, PatchAttrib::TessInner, Some(2), "primitive.tessinner")?,
                _ => {
                    c.expect_member(&["attrib"], "primitive.patch")?;
                    patch(c, PatchAttrib::Generic, None, "primitive.patch.attrib")?
                }
            }
        }
        _ => {
            return Err(not_in_program_type(
                &m,
                &format!("primitive.{}{name}", if output { "out." } else { "" }),
                stage,
                rule,
            ))
        }
    };
    Ok(Binding::Attrib(v))
}

/// A binding member that exists in NV5's family, but not in this program
/// type or with this prefix.
fn not_in_program_type(m: &Ident, what: &str, stage: Stage, rule: &str) -> Diagnostic {
    Diagnostic::error(
        "E1105",
        format!("`{what}` is not a binding of {stage} programs"),
    )
    .primary(m.span, "not available here")
    .note(rule.to_string())
}

fn geometry_attrib(c: &mut Cursor<'_>, allow_range: bool) -> Result<Binding, Diagnostic> {
    let vertex = match selection(c, "vertex", false)? {
        Sel::One(n) => Some(n),
        _ => None,
    };
    if vertex.is_some() || c.peek_index().is_none() {
        // `vertex.in[m].<b>` is `vertex[m].<b>` (Table X.2).
        if vertex.is_none() && c.take_member_if(&["in"]).is_some() {
            return geometry_attrib(c, allow_range);
        }
    }
    let m = c.expect_member(
        &[
            "position",
            "color",
            "fogcoord",
            "pointsize",
            "id",
            "texcoord",
            "clip",
            "attrib",
        ],
        "vertex",
    )?;
    let name = m.name.as_str();
    let w = BindingWord("vertex", name);
    let pv = |b| AttribBinding::PerVertex { vertex, binding: b };
    let v = match name {
        "position" => vec![pv(PerVertexAttrib::Position)],
        "color" => vec![pv(PerVertexAttrib::Color(color_sel(c, true)))],
        "fogcoord" => vec![pv(PerVertexAttrib::FogCoord)],
        "pointsize" => vec![pv(PerVertexAttrib::PointSize)],
        "id" => vec![pv(PerVertexAttrib::Id)],
        "texcoord" => expand(&selection(c, &w, allow_range)?, 0, 0, |n| {
            pv(PerVertexAttrib::TexCoord(n))
        }),
        "clip" => expand(
            &required(selection(c, &w, allow_range)?, c, &w)?,
            0,
            0,
            |n| pv(PerVertexAttrib::Clip(n)),
        ),
        _ => expand(
            &required(selection(c, &w, allow_range)?, c, &w)?,
            0,
            0,
            |n| pv(PerVertexAttrib::Generic(n)),
        ),
    };
    Ok(Binding::Attrib(v))
}

fn result_binding<'p>(
    dialect: Dialect,
    c: &mut Cursor<'p>,
    allow_range: bool,
    relative: &mut Option<RelativeIndex<'p>>,
) -> Result<Binding, Diagnostic> {
    let stage = dialect.stage();
    let table = match stage {
        Stage::Vertex => VERTEX_RESULTS,
        Stage::Geometry => GEOMETRY_RESULTS,
        Stage::Fragment => FRAGMENT_RESULTS,
        Stage::TessControl => TESS_CONTROL_RESULTS,
        Stage::TessEval => TESS_EVAL_RESULTS,
        Stage::Compute => &[],
    };
    let m = c.member(table, "result", dialect)?;
    let name = m.name.as_str();
    let w = BindingWord("result", name);
    let v = match (stage, name) {
        (Stage::Fragment, "color") => expand(
            &selection(c, &w, allow_range)?,
            0,
            0,
            ResultBinding::FragColor,
        ),
        (Stage::Fragment, "samplemask") => vec![ResultBinding::SampleMask],
        (Stage::Fragment, _) => vec![ResultBinding::Depth],
        (_, "color") => vec![ResultBinding::Color(color_sel(c, true))],
        (_, "position") => vec![ResultBinding::Position],
        (_, "fogcoord") => vec![ResultBinding::FogCoord],
        (_, "pointsize") => vec![ResultBinding::PointSize],
        (_, "texcoord") => {
            let rel = (stage == Stage::Vertex).then_some(("texcoord", dialect));
            let sel = selection_in(c, &w, allow_range, rel)?;
            let sel = bounded(
                sel,
                c,
                &w,
                MAX_TEXTURE_COORDS,
                "MAX_TEXTURE_COORDS_ARB",
                dialect,
            )?;
            let v = expand(&sel, 0, MAX_TEXTURE_COORDS, ResultBinding::TexCoord);
            if let Sel::Relative(r) = sel {
                *relative = Some(r);
            }
            v
        }
        (_, "clip") => {
            let sel = required(selection(c, &w, allow_range)?, c, &w)?;
            let sel = bounded(sel, c, &w, MAX_CLIP_PLANES, "MAX_CLIP_PLANES", dialect)?;
            expand(&sel, 0, 0, ResultBinding::Clip)
        }
        (_, "attrib") => expand(
            &required(selection(c, &w, allow_range)?, c, &w)?,
            0,
            0,
            ResultBinding::Generic,
        ),
        (_, "id") => vec![ResultBinding::Id],
        (_, "primid") => vec![ResultBinding::PrimitiveId],
        (_, "patch") => {
            let m = c.expect_member(&["tessouter", "tessinner", "attrib"], "result.patch")?;
            let member = m.name.to_string();
            let w = format!("result.patch.{member}");
            let sel = required(selection(c, &w, allow_range)?, c, &w)?;
            let max = match member.as_str() {
                "tessouter" => Some(4),
                "tessinner" => Some(2),
                _ => None,
            };
            if let (Some(max), Sel::One(n) | Sel::Range(_, n)) = (max, &sel) {
                if *n >= max {
                    return Err(Diagnostic::error("E1105", format!("`{w}[{n}]` does not exist"))
                        .primary(c.span(), format!("{w} has {max} levels"))
                        .note("NV_tessellation_program5 Table X.6: four outer and two inner tessellation levels"));
                }
            }
            let f: fn(u32) -> PatchAttrib = match member.as_str() {
                "tessouter" => PatchAttrib::TessOuter,
                "tessinner" => PatchAttrib::TessInner,
                _ => PatchAttrib::Generic,
            };
            expand(&sel, 0, 0, |n| ResultBinding::Patch(f(n)))
        }
        _ => vec![ResultBinding::Layer],
    };
    Ok(Binding::Result(v))
}

fn program_binding(
    c: &mut Cursor<'_>,
    allow_range: bool,
    dialect: Dialect,
) -> Result<Binding, Diagnostic> {
    let m = c.member(PROGRAM_PARAMETERS, "program", dialect)?;
    let name = m.name.as_str();
    let w = BindingWord("program", name);
    match name {
        "env" => {
            let v = expand(
                &required(selection(c, &w, allow_range)?, c, &w)?,
                0,
                0,
                ParamBinding::Env,
            );
            Ok(Binding::Param(v))
        }
        "local" => {
            let v = expand(
                &required(selection(c, &w, allow_range)?, c, &w)?,
                0,
                0,
                ParamBinding::Local,
            );
            Ok(Binding::Param(v))
        }
        // NV_shader_storage_buffer_object 2.X.3.3: "If the program is an
        // assembly program specified via ProgramStringARB or LoadProgramNV,
        // the "x" component will hold the integer value zero"; nvp4c's
        // programs are assembly, so every component is the integer 0
        // (y, z and w are undefined; docs/interface.md).
        "storagelen" => {
            let zero = crate::ir::Literal::Int {
                negative: false,
                magnitude: 0,
            };
            let v = expand(
                &required(selection(c, &w, allow_range)?, c, &w)?,
                0,
                0,
                |_| ParamBinding::Constant([zero; 4]),
            );
            Ok(Binding::Param(v))
        }
        _ => {
            // NV_parameter_buffer_object: <bufferBinding> ::= "program" "." "buffer" <arrayMemAbs>
            // NV_gpu_program5 2.X.3.6 adds "program.buffer[a..b]" to
            // declarations (<bufferBinding> ::= "program" "." "buffer"
            // <arrayRange>); `!!NV…4.0` keeps E0203 for it.
            let ranges = allow_range && dialect.has(Features::NV5);
            let (buffer, last) = match required(selection(c, &w, ranges)?, c, &w)? {
                Sel::One(b) => (b, b),
                Sel::Range(a, b) => (a, b),
                _ => (0, 0),
            };
            let what = if buffer == last {
                format!("program.buffer[{buffer}]")
            } else {
                format!("program.buffer[{buffer}..{last}]")
            };
            let start = c.end;
            let elements = match selection(c, &what, allow_range)? {
                Sel::None => None,
                Sel::One(n) => Some((n, n)),
                Sel::Range(a, b) => Some((a, b)),
                Sel::Relative(_) => None,
            };
            Ok(Binding::Buffer {
                buffer,
                last,
                elements,
                span: Span { start, end: c.end },
            })
        }
    }
}

fn state_binding(
    c: &mut Cursor<'_>,
    allow_range: bool,
    dialect: Dialect,
) -> Result<Binding, Diagnostic> {
    let item = c.member(STATE_ITEMS, "state", dialect)?;
    let item = item.name.to_string();
    let mut path = vec![item.clone()];
    let mut rows: Option<(u32, u32)> = None;
    let one = |c: &mut Cursor<'_>, what: &str, default: Option<u32>| -> Result<u32, Diagnostic> {
        match selection(c, what, false)? {
            Sel::One(n) => Ok(n),
            _ => match default {
                Some(d) => Ok(d),
                None => Err(
                    Diagnostic::error("E0205", format!("`{what}` needs an index `[n]`"))
                        .primary(c.span(), "index missing after this"),
                ),
            },
        }
    };
    match item.as_str() {
        "material" => {
            let face = c
                .take_member_if(&["front", "back"])
                .map_or("front".to_string(), |f| f.name.to_string());
            let p = c.expect_member(
                &["ambient", "diffuse", "specular", "emission", "shininess"],
                "state.material",
            )?;
            path.extend([face, p.name.to_string()]);
        }
        "light" => {
            let n = one(c, "state.light", None)?;
            let p = c.expect_member(
                &[
                    "ambient",
                    "diffuse",
                    "specular",
                    "position",
                    "attenuation",
                    "spot",
                    "half",
                ],
                "state.light[n]",
            )?;
            path.extend([n.to_string(), p.name.to_string()]);
            if p.name == "spot" {
                c.expect_member(&["direction"], "state.light[n].spot")?;
                path.push("direction".into());
            }
        }
        "lightmodel" => {
            let p = c.expect_member(
                &["ambient", "scenecolor", "front", "back"],
                "state.lightmodel",
            )?;
            if p.name == "front" || p.name == "back" {
                let face = p.name.to_string();
                c.expect_member(&["scenecolor"], &format!("state.lightmodel.{face}"))?;
                path.extend([face, "scenecolor".into()]);
            } else if p.name == "scenecolor" {
                path.extend(["front".into(), "scenecolor".into()]);
            } else {
                path.push("ambient".into());
            }
        }
        "lightprod" => {
            let n = one(c, "state.lightprod", None)?;
            let face = c
                .take_member_if(&["front", "back"])
                .map_or("front".to_string(), |f| f.name.to_string());
            let p = c.expect_member(&["ambient", "diffuse", "specular"], "state.lightprod[n]")?;
            path.extend([n.to_string(), face, p.name.to_string()]);
        }
        "fog" => {
            let p = c.expect_member(&["color", "params"], "state.fog")?;
            path.push(p.name.to_string());
        }
        "matrix" => {
            let m = c.member(MATRICES, "state.matrix", dialect)?;
            let name = m.name.clone();
            path.push(name.to_string());
            match name.as_str() {
                "modelview" | "texture" => {
                    path.push(one(c, &format!("state.matrix.{name}"), Some(0))?.to_string())
                }
                "program" => path.push(one(c, "state.matrix.program", None)?.to_string()),
                _ => {}
            }
            if let Some(m) = c.take_member_if(&["inverse", "transpose", "invtrans"]) {
                path.push(m.name.to_string());
            }
            if c.take_member_if(&["row"]).is_some() {
                match selection(c, "row", allow_range)? {
                    Sel::One(r) if r < 4 => rows = Some((r, r)),
                    Sel::Range(a, b) if b < 4 => rows = Some((a, b)),
                    Sel::None => {
                        return Err(Diagnostic::error("E0205", "`row` needs an index `[n]`")
                            .primary(c.span(), "index missing after this"))
                    }
                    _ => return Err(Diagnostic::error("E0206", "a matrix has rows 0 to 3 only")
                        .primary(c.span(), "row index out of range")
                        .note(
                            "ARB_vertex_program section 2.14.1.x: matrix rows are numbered 0 to 3",
                        )),
                }
            } else {
                rows = Some((0, 3));
            }
        }
        "texgen" => {
            let n = one(c, "state.texgen", Some(0))?;
            let t = c.expect_member(&["eye", "object"], "state.texgen[n]")?;
            let t = t.name.to_string();
            let coord = c.expect_member(&["s", "t", "r", "q"], &format!("state.texgen[n].{t}"))?;
            path.extend([n.to_string(), t, coord.name.to_string()]);
        }
        "clip" => {
            let n = one(c, "state.clip", None)?;
            c.expect_member(&["plane"], "state.clip[n]")?;
            path.extend([n.to_string(), "plane".into()]);
        }
        "point" => {
            let p = c.expect_member(&["size", "attenuation"], "state.point")?;
            path.push(p.name.to_string());
        }
        // NV_shader_thread_group 2.X.3.3, Thread Group Property Bindings.
        "thread" => {
            let p = c.expect_member(&["warpsize", "warpspersm", "smcount"], "state.thread")?;
            path.push(p.name.to_string());
        }
        "texenv" => {
            let n = one(c, "state.texenv", Some(0))?;
            c.expect_member(&["color"], "state.texenv[n]")?;
            path.extend([n.to_string(), "color".into()]);
        }
        _ => {
            c.expect_member(&["range"], "state.depth")?;
            path.push("range".into());
        }
    }
    // The GL state arrays have fixed sizes (docs/interface.md, the State
    // block): MAX_LIGHTS, MAX_CLIP_PLANES, MAX_TEXTURE_COORDS,
    // MAX_VERTEX_UNITS and MAX_PROGRAM_MATRICES.
    let (index_at, bound, what) = match path[0].as_str() {
        "light" => (1, 8, "MAX_LIGHTS"),
        "lightprod" => (1, 8, "MAX_LIGHTS"),
        "clip" => (1, 6, "MAX_CLIP_PLANES"),
        "texgen" | "texenv" => (1, 8, "MAX_TEXTURE_COORDS"),
        "matrix" if matches!(path[1].as_str(), "modelview") => (2, 8, "MAX_VERTEX_UNITS_ARB"),
        "matrix" if matches!(path[1].as_str(), "texture") => (2, 8, "MAX_TEXTURE_COORDS"),
        "matrix" if matches!(path[1].as_str(), "program") => (2, 8, "MAX_PROGRAM_MATRICES_ARB"),
        _ => (0, 0, ""),
    };
    if bound > 0 {
        if let Some(n) = path
            .get(index_at)
            .and_then(|n| n.parse::<u32>().ok())
            .filter(|n| *n >= bound)
        {
            return Err(Diagnostic::error("E0222", format!("`state.{}` index {n} is past the last one ({})", path[..index_at].join("."), bound - 1))
                .primary(c.span(), format!("{what} is {bound} in nvp4c's State block"))
                .note("ARB_vertex_program section 2.14.1.x: state array bindings are numbered from 0 to the GL limit minus one; docs/interface.md gives nvp4c's State block"));
        }
    }
    match rows {
        Some((a, b)) => {
            let whole = a != b;
            if whole && !allow_range {
                return Err(Diagnostic::error("E0203", "a whole matrix or a range of rows is only allowed in an array declaration")
                    .primary(c.span(), "several rows")
                    .note("section 2.X.2: <stateMatrixRows> appears only in <paramUseDM>; in an instruction, name one row with `.row[n]`"));
            }
            let v = (a..=b)
                .map(|r| {
                    let mut p = path.clone();
                    p.extend(["row".into(), r.to_string()]);
                    ParamBinding::State(StateItem { path: p })
                })
                .collect();
            Ok(Binding::Param(v))
        }
        None => Ok(Binding::Param(vec![ParamBinding::State(StateItem {
            path,
        })])),
    }
}

impl PathPart {
    fn member_name(&self) -> &str {
        match self {
            PathPart::Member(id) => &id.name,
            PathPart::Index(..) => "",
        }
    }
}

/// The head of a path when it is a reserved word.
pub fn root_of(path: &Path) -> Option<(Root, Span)> {
    match path.head {
        PathHead::Root(r, s) => Some((r, s)),
        _ => None,
    }
}
