//! Pipeline checks across programs: `nvp4c link a.vp [b.gp] c.fp`.
//!
//! Each program is compiled on its own (the interface of docs/interface.md
//! needs no linking step to produce SPIR-V); this module then checks that the
//! programs fit together the way the spec's pipeline expects:
//!
//! * every attribute a stage reads is written by the stage before it
//!   (NV_geometry_program4 2.X.3.2: "The value of any attribute corresponding
//!   to a vertex output not written by the vertex program is undefined";
//!   NV_fragment_program4 likewise for fragment attributes) — `E1000`;
//! * with the same component type: "Geometry program attributes should be
//!   read using the same component data type used to write the corresponding
//!   vertex program results" (NV_geometry_program4 2.X.3.2), and Vulkan
//!   requires a varying's type to match between stages — `E1001`;
//! * integer bits written to a float varying reach the fragment program
//!   unchanged only when it reads them `FLAT` (docs/interface.md,
//!   "Varyings"; NV_fragment_program4 2.X.3.1: integer attributes are flat)
//!   — `E1002`.
//!
//! Each diagnostic has its primary label in the reading program and a
//! secondary label in the writing one; [`LinkDiagnostic::label_files`] gives
//! the file of each label, and [`LinkReport::render`] shows both files.
//!
//! ```
//! let vp = "!!NVvp4.0\nMOV result.position, vertex.position;\nEND\n";
//! let fp = "!!NVfp4.0\nMOV result.color, fragment.texcoord[1];\nEND\n";
//! let report = nvp4c::link::check_pipeline(&[("a.vp", vp), ("c.fp", fp)], &nvp4c::Options::default()).unwrap();
//! assert!(report.has_errors());
//! let d = &report.diagnostics[0];
//! assert_eq!(d.diagnostic.code, "E1000");
//! assert_eq!(d.label_files, [1, 0]); // primary in c.fp, secondary in a.vp
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use crate::ir::{
    AttribBinding, Block, Index, Operand, PerVertexAttrib, Program, ResultBinding, Stmt, SubId,
    VarId, VarKind, VarType,
};
use crate::isa::{DataType, Stage};
use crate::span::Span;
use crate::spirv::{attrib_slot, result_slot, InterfaceSlot};
use crate::{Compiled, Diagnostic, Diagnostics, Options};

/// A diagnostic about a pipeline: its labels may be in different files.
///
/// ```
/// let vp = "!!NVvp4.0\nMOV result.position, vertex.position;\nEND\n";
/// let fp = "!!NVfp4.0\nMOV result.color, fragment.color;\nEND\n";
/// let report = nvp4c::link::check_pipeline(&[("a.vp", vp), ("c.fp", fp)], &nvp4c::Options::default()).unwrap();
/// let d = &report.diagnostics[0];
/// assert_eq!(d.diagnostic.code, "E1000"); // fragment.color is never written
/// assert_eq!(d.label_files[0], 1);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct LinkDiagnostic {
    /// The diagnostic; its spans are in the files `label_files` names.
    pub diagnostic: Diagnostic,
    /// The file (index into the `check_pipeline` input) of each of
    /// `diagnostic.labels`, in the same order.
    pub label_files: Vec<usize>,
}

/// The outcome of [`check_pipeline`].
///
/// ```
/// let vp = "!!NVvp4.0\nMOV result.position, vertex.position;\nMOV result.color, 1;\nEND\n";
/// let fp = "!!NVfp4.0\nMOV result.color, fragment.color;\nEND\n";
/// let report = nvp4c::link::check_pipeline(&[("a.vp", vp), ("c.fp", fp)], &nvp4c::Options::default()).unwrap();
/// assert!(report.diagnostics.is_empty());
/// assert!(report.compiled.iter().all(Result::is_ok));
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct LinkReport {
    /// Each program's compilation: the module, or its diagnostics.
    pub compiled: Vec<Result<Compiled, Diagnostics>>,
    /// Compile errors and warnings of every file (labels in that file) and
    /// the pipeline diagnostics.
    pub diagnostics: Vec<LinkDiagnostic>,
}

impl LinkReport {
    /// Whether any diagnostic is an error (a program does not compile, or
    /// the programs do not fit together).
    ///
    /// ```
    /// let vp = "!!NVvp4.0\nMOVV result.position, vertex.position;\nEND\n";
    /// let fp = "!!NVfp4.0\nMOV result.color, 1;\nEND\n";
    /// let report = nvp4c::link::check_pipeline(&[("a.vp", vp), ("c.fp", fp)], &nvp4c::Options::default()).unwrap();
    /// assert!(report.has_errors()); // a.vp does not compile
    /// ```
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(|d| d.diagnostic.is_error())
    }

    /// Renders every diagnostic like [`Diagnostics::render`], each label in
    /// its own file. `files` is the input of [`check_pipeline`].
    ///
    /// ```
    /// let files = [
    ///     ("a.vp", "!!NVvp4.0\nMOV result.position, vertex.position;\nEND\n"),
    ///     ("c.fp", "!!NVfp4.0\nMOV result.color, fragment.texcoord[2];\nEND\n"),
    /// ];
    /// let report = nvp4c::link::check_pipeline(&files, &nvp4c::Options::default()).unwrap();
    /// let text = report.render(&files, false);
    /// assert!(text.contains("error[E1000]") && text.contains("c.fp:2:"));
    /// ```
    pub fn render(&self, files: &[(&str, &str)], color: bool) -> String {
        use codespan_reporting::diagnostic as cd;
        use codespan_reporting::files::SimpleFiles;
        use codespan_reporting::term::{self, termcolor::Buffer};
        let mut db = SimpleFiles::new();
        let ids: Vec<usize> = files.iter().map(|(n, s)| db.add(*n, *s)).collect();
        let mut buffer = if color {
            Buffer::ansi()
        } else {
            Buffer::no_color()
        };
        let config = crate::diag::render_config();
        for d in &self.diagnostics {
            let labels = d
                .diagnostic
                .labels
                .iter()
                .zip(&d.label_files)
                .filter_map(|(l, &f)| {
                    let source = files.get(f)?.1;
                    let end = (l.span.end as usize).min(source.len());
                    let start = (l.span.start as usize).min(end);
                    let style = if l.primary {
                        cd::LabelStyle::Primary
                    } else {
                        cd::LabelStyle::Secondary
                    };
                    Some(cd::Label::new(style, ids[f], start..end).with_message(l.message.clone()))
                })
                .collect();
            let severity = if d.diagnostic.is_error() {
                cd::Severity::Error
            } else {
                cd::Severity::Warning
            };
            let out = cd::Diagnostic::new(severity)
                .with_code(d.diagnostic.code)
                .with_message(d.diagnostic.message.clone())
                .with_labels(labels)
                .with_notes(d.diagnostic.notes.clone());
            // A memory buffer cannot fail on I/O and the spans are clamped.
            let _ = term::emit(&mut buffer, &config, &db, &out);
        }
        String::from_utf8_lossy(buffer.as_slice()).into_owned()
    }
}

/// Why the files do not form a pipeline at all.
///
/// ```
/// let fp = "!!NVfp4.0\nMOV result.color, 1;\nEND\n";
/// let err = nvp4c::link::check_pipeline(&[("c.fp", fp)], &nvp4c::Options::default()).unwrap_err();
/// assert!(matches!(err, nvp4c::link::LinkError::Stages(_)));
/// assert!(err.to_string().contains("1 files given"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LinkError {
    /// Not a vertex program, an optional geometry program and a fragment
    /// program, in that order.
    Stages(String),
}

impl fmt::Display for LinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LinkError::Stages(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for LinkError {}

/// Compiles each `(name, source)` — a vertex program, optionally a
/// tessellation control and evaluation program pair, optionally a geometry
/// program, and a fragment program, in pipeline order — and checks that
/// each stage's attributes are written by the stage before it, with the
/// same component type and, for integer bits, flat interpolation.
///
/// Programs that do not compile are reported (their own diagnostics, in
/// their own file) and leave the pipeline unchecked.
/// `Options::transform_feedback` applies to the program before the
/// fragment program only, the one transform feedback captures.
///
/// ```
/// let vp = "!!NVvp4.0\nMOV result.position, vertex.position;\nMOV.S result.texcoord[0], 7;\nEND\n";
/// let fp = "!!NVfp4.0\nMOV result.color, fragment.texcoord[0];\nEND\n";
/// let report = nvp4c::link::check_pipeline(&[("a.vp", vp), ("c.fp", fp)], &nvp4c::Options::default()).unwrap();
/// assert!(report.compiled.iter().all(Result::is_ok)); // each compiles alone
/// // Integer bits in an interpolated varying: the fragment program must read it FLAT.
/// let codes: Vec<_> = report.diagnostics.iter().map(|d| d.diagnostic.code).collect();
/// assert_eq!(codes, ["E1002"]);
/// ```
pub fn check_pipeline(files: &[(&str, &str)], options: &Options) -> Result<LinkReport, LinkError> {
    let inputs: Vec<(&str, &[u8])> = files.iter().map(|&(n, s)| (n, s.as_bytes())).collect();
    check_pipeline_bytes(&inputs, options)
}

/// [`check_pipeline`] for programs given as bytes: text, or bytecode such
/// as an AGAL or Direct3D 9 vertex/fragment pair (recognised by content,
/// as [`crate::compile_bytes`] does). The labels of each file point into
/// its [`crate::source_listing`]; pass those to [`LinkReport::render`].
///
/// ```
/// let vs = nvp4c::front::agal::assemble("mov op, va0\nmov v1, va1", nvp4c::Stage::Vertex, 1).unwrap().bytes;
/// let fs = nvp4c::front::agal::assemble("mov oc, v1", nvp4c::Stage::Fragment, 1).unwrap().bytes;
/// let report = nvp4c::link::check_pipeline_bytes(&[("a.vs", &vs), ("a.fs", &fs)], &nvp4c::Options::default()).unwrap();
/// assert!(!report.has_errors());
///
/// use nvp4c::front::d3d9::assemble::assemble_bytes;
/// let vs = assemble_bytes("vs_2_0\ndcl_position v0\nmov oPos, v0\nmov oT1, v0\n").unwrap();
/// let ps = assemble_bytes("ps_2_0\ndcl t1\ndcl t2\nadd r0, t1, t2\nmov oC0, r0\n").unwrap();
/// let report = nvp4c::link::check_pipeline_bytes(&[("a.vso", &vs), ("b.pso", &ps)], &nvp4c::Options::default()).unwrap();
/// // t2 is read but the vertex shader never writes oT2.
/// let codes: Vec<_> = report.diagnostics.iter().map(|d| d.diagnostic.code).collect();
/// assert_eq!(codes, ["E1000"]);
/// ```
pub fn check_pipeline_bytes(
    files: &[(&str, &[u8])],
    options: &Options,
) -> Result<LinkReport, LinkError> {
    let listings: Vec<std::borrow::Cow<'_, str>> = files
        .iter()
        .map(|(_, b)| crate::source_listing(b))
        .collect();
    let files: Vec<(&str, &[u8], &str)> = files
        .iter()
        .zip(&listings)
        .map(|(&(n, b), l)| (n, b, l.as_ref()))
        .collect();
    if !(2..=5).contains(&files.len()) {
        return Err(LinkError::Stages(format!(
            "a pipeline is a vertex program, optional tessellation control and evaluation programs, an optional geometry program and a fragment program; {} files given",
            files.len()
        )));
    }
    let mut report = LinkReport {
        compiled: Vec::with_capacity(files.len()),
        diagnostics: Vec::new(),
    };
    let mut programs = Vec::with_capacity(files.len());
    // Transform feedback captures the pipeline's last stage before the
    // fragment program, and Vulkan allows `Xfb` there only
    // (docs/interface.md, "Transform feedback"): the option is that
    // program's alone.
    let without_capture = Options {
        transform_feedback: false,
        ..options.clone()
    };
    let captured = files.len() - 2;
    for (i, (_, source, _)) in files.iter().enumerate() {
        let options = if i == captured {
            options
        } else {
            &without_capture
        };
        let compiled = crate::compile_bytes(source, options);
        let diags = match &compiled {
            Ok(c) => c.warnings.clone(),
            Err(d) => d.clone(),
        };
        report
            .diagnostics
            .extend(diags.into_iter().map(|d| in_file(d, i)));
        // The IR for the interface (the same check `compile` ran).
        programs.push(if compiled.is_ok() {
            crate::check_bytes(source, options).ok().map(|(p, _)| p)
        } else {
            None
        });
        report.compiled.push(compiled);
    }
    let Some(programs) = programs.into_iter().collect::<Option<Vec<Program>>>() else {
        return Ok(report);
    };
    let stages: Vec<Stage> = programs.iter().map(|p| p.stage).collect();
    // The pipeline's order: vertex, [tessellation control, tessellation
    // evaluation], [geometry], fragment.
    let mut expected = vec![Stage::Vertex];
    if stages.contains(&Stage::TessControl) || stages.contains(&Stage::TessEval) {
        expected.extend([Stage::TessControl, Stage::TessEval]);
    }
    if stages.contains(&Stage::Geometry) {
        expected.push(Stage::Geometry);
    }
    expected.push(Stage::Fragment);
    if stages != expected {
        let names: Vec<String> = files
            .iter()
            .zip(&stages)
            .map(|((n, _, _), s)| format!("{n} ({s})"))
            .collect();
        let want: Vec<String> = expected.iter().map(|s| format!("a {s} program")).collect();
        return Err(LinkError::Stages(format!(
            "expected {} in that order; got {}",
            want.join(", "),
            names.join(", ")
        )));
    }
    let interfaces: Vec<Interface> = programs.iter().map(Interface::of).collect();
    for reader in 1..programs.len() {
        let writer = reader - 1;
        let first = report.diagnostics.len();
        check_pair(
            (
                &programs[writer],
                &interfaces[writer],
                writer,
                (files[writer].0, files[writer].2),
            ),
            (
                &programs[reader],
                &interfaces[reader],
                reader,
                (files[reader].0, files[reader].2),
            ),
            &mut report.diagnostics,
        );
        // In the reading program's source order.
        report.diagnostics[first..].sort_by_key(|d| d.diagnostic.primary_span().map(|s| s.start));
    }
    Ok(report)
}

fn in_file(d: Diagnostic, file: usize) -> LinkDiagnostic {
    LinkDiagnostic {
        label_files: vec![file; d.labels.len()],
        diagnostic: d,
    }
}

/// What passes between two stages: a Location or a built-in varying.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Varying {
    Location(u32),
    Position,
    PointSize,
    Clip(u32),
    PrimitiveId,
}

impl Varying {
    /// The result binding that writes this varying (docs/interface.md,
    /// "Varyings"), with its Location.
    fn result_name(self) -> String {
        match self {
            Varying::Location(l) => {
                let name = match l {
                    0 => "result.color".to_string(),
                    1 => "result.color.secondary".to_string(),
                    2 => "result.color.back".to_string(),
                    3 => "result.color.back.secondary".to_string(),
                    4 => "result.fogcoord".to_string(),
                    5..=12 => format!("result.texcoord[{}]", l - 5),
                    13 => "result.id".to_string(),
                    _ => format!("result.attrib[{}]", l.saturating_sub(14)),
                };
                format!("{name} (Location {l})")
            }
            Varying::Position => "result.position".to_string(),
            Varying::PointSize => "result.pointsize".to_string(),
            Varying::Clip(n) => format!("result.clip[{n}]"),
            Varying::PrimitiveId => "result.primid".to_string(),
        }
    }
    /// Built-ins have fixed types on both sides.
    fn typed_by_program(self) -> bool {
        matches!(self, Varying::Location(_))
    }
}

/// One element of a variable that reads or writes a varying.
#[derive(Clone, Copy, Debug)]
struct End {
    var: VarId,
    span: Span,
    /// The SPIR-V component type: typeless varyings are `vec4` float.
    ty: DataType,
    /// Written with integer bits (an instruction of type S or U).
    integer_bits: bool,
    /// FLAT (fragment attributes).
    flat: bool,
}

/// The varyings a program reads and writes.
struct Interface {
    reads: BTreeMap<Varying, End>,
    writes: BTreeMap<Varying, End>,
}

/// Which elements of a variable an access touches: `None` is all of them.
type Elements = Option<BTreeSet<u32>>;

impl Interface {
    fn of(program: &Program) -> Interface {
        let mut read: BTreeMap<VarId, Elements> = BTreeMap::new();
        let mut written: BTreeMap<VarId, (Elements, bool)> = BTreeMap::new();
        for sub in reachable(program) {
            walk(&program.sub(sub).body, &mut read, &mut written);
        }
        let mut reads = BTreeMap::new();
        let mut writes = BTreeMap::new();
        for (&id, elements) in &read {
            let var = program.var(id);
            let VarKind::Attrib(bindings) = &var.kind else {
                continue;
            };
            for (e, b) in bindings.iter().enumerate() {
                if !elements.as_ref().is_none_or(|s| s.contains(&(e as u32))) {
                    continue;
                }
                if let Some((v, ty)) = attrib_varying(program.stage, b, var.ty) {
                    reads.entry(v).or_insert(End {
                        var: id,
                        span: var.span,
                        ty,
                        integer_bits: false,
                        flat: var.interpolation.flat,
                    });
                }
            }
        }
        for (&id, (elements, integer_bits)) in &written {
            let var = program.var(id);
            let VarKind::Result(bindings) = &var.kind else {
                continue;
            };
            for (e, b) in bindings.iter().enumerate() {
                if !elements.as_ref().is_none_or(|s| s.contains(&(e as u32))) {
                    continue;
                }
                if let Some((v, ty)) = result_varying(program.stage, b, var.ty) {
                    writes.entry(v).or_insert(End {
                        var: id,
                        span: var.span,
                        ty,
                        integer_bits: *integer_bits,
                        flat: false,
                    });
                }
            }
        }
        Interface { reads, writes }
    }
}

fn var_type(ty: VarType) -> DataType {
    match ty {
        VarType::Typeless => DataType::Float,
        VarType::Typed(t) => t,
    }
}

/// The varying an attribute binding reads, with its type; `None` for what
/// no earlier stage writes (`fragment.position`, `fragment.facing`,
/// `primitive.id` of a geometry program, vertex attributes).
fn attrib_varying(stage: Stage, b: &AttribBinding, ty: VarType) -> Option<(Varying, DataType)> {
    use AttribBinding as A;
    let float = DataType::Float;
    match (stage, b) {
        (Stage::Vertex, _) => None,
        (Stage::Fragment, A::Clip(n)) => Some((Varying::Clip(*n), float)),
        (Stage::Fragment, A::PrimitiveId) => Some((Varying::PrimitiveId, DataType::Signed)),
        // What a tessellation control program reads of its own output
        // patch, and the tessellator's values, come from no earlier stage.
        (
            _,
            A::OutputVertex { .. }
            | A::Patch { output: true, .. }
            | A::Patch {
                attrib: crate::ir::PatchAttrib::TessOuter(_) | crate::ir::PatchAttrib::TessInner(_),
                ..
            }
            | A::TessCoord
            | A::InvocationId
            | A::VertexCount
            | A::Compute(_),
        ) => None,
        (Stage::Geometry | Stage::TessControl | Stage::TessEval, A::PerVertex { binding, .. }) => {
            match binding {
                PerVertexAttrib::Position => Some((Varying::Position, float)),
                PerVertexAttrib::PointSize => Some((Varying::PointSize, float)),
                PerVertexAttrib::Clip(n) => Some((Varying::Clip(*n), float)),
                PerVertexAttrib::Id => location(stage, b).map(|l| (l, DataType::Signed)),
                _ => location(stage, b).map(|l| (l, var_type(ty))),
            }
        }
        _ => location(stage, b).map(|l| (l, var_type(ty))),
    }
}

fn location(stage: Stage, b: &AttribBinding) -> Option<Varying> {
    match attrib_slot(stage, b)? {
        InterfaceSlot::Location(l) => Some(Varying::Location(l)),
        InterfaceSlot::BuiltIn(_) => None,
    }
}

/// The varying a result binding writes, with its type.
fn result_varying(stage: Stage, b: &ResultBinding, ty: VarType) -> Option<(Varying, DataType)> {
    use ResultBinding as R;
    let float = DataType::Float;
    match b {
        R::Position => Some((Varying::Position, float)),
        R::PointSize => Some((Varying::PointSize, float)),
        R::Clip(n) => Some((Varying::Clip(*n), float)),
        R::PrimitiveId => Some((Varying::PrimitiveId, DataType::Signed)),
        R::Layer | R::Depth | R::SampleMask | R::FragColor(_) => None,
        _ => match result_slot(stage, b)? {
            InterfaceSlot::Location(l) => {
                let t = if *b == R::Id {
                    DataType::Signed
                } else {
                    var_type(ty)
                };
                Some((Varying::Location(l), t))
            }
            InterfaceSlot::BuiltIn(_) => None,
        },
    }
}

/// The subroutines execution can reach from the entry.
fn reachable(program: &Program) -> Vec<SubId> {
    fn calls(b: &Block, out: &mut Vec<SubId>) {
        for s in b {
            match s {
                Stmt::Call { target, .. } => out.push(*target),
                Stmt::CallIndirect { targets, .. } => out.extend(targets.iter().map(|&(_, t)| t)),
                // IF, REP and LOOP bodies.
                _ => s.blocks().for_each(|b| calls(b, out)),
            }
        }
    }
    let mut seen = vec![program.entry];
    let mut work = vec![program.entry];
    while let Some(s) = work.pop() {
        let Some(sub) = program.subroutines.get(s.0 as usize) else {
            continue;
        };
        let mut out = Vec::new();
        calls(&sub.body, &mut out);
        for t in out {
            if !seen.contains(&t) && (t.0 as usize) < program.subroutines.len() {
                seen.push(t);
                work.push(t);
            }
        }
    }
    seen.retain(|s| (s.0 as usize) < program.subroutines.len());
    seen
}

fn elements_of(index: &Index) -> Elements {
    match index {
        Index::None => Some([0].into()),
        Index::Absolute(n) => Some([*n].into()),
        Index::Relative { .. } => None,
        Index::PerVertex(per_vertex) => elements_of(&per_vertex.element),
        // The operand's variable is the first binding point's; another
        // may be read.
        Index::BufferRange(_) => None,
    }
}

fn merge(into: &mut Elements, more: Elements) {
    match (into.as_mut(), more) {
        (Some(set), Some(more)) => set.extend(more),
        _ => *into = None,
    }
}

fn walk(
    block: &Block,
    read: &mut BTreeMap<VarId, Elements>,
    written: &mut BTreeMap<VarId, (Elements, bool)>,
) {
    fn operand(op: &Operand, read: &mut BTreeMap<VarId, Elements>) {
        merge(
            read.entry(op.var).or_insert_with(|| Some(BTreeSet::new())),
            elements_of(&op.index),
        );
        let mut index = &op.index;
        loop {
            match index {
                Index::Relative { address, .. } => {
                    operand(address, read);
                    break;
                }
                Index::PerVertex(per_vertex) => {
                    if let Index::Relative { address, .. } = &per_vertex.vertex {
                        operand(address, read);
                    }
                    index = &per_vertex.element;
                }
                Index::BufferRange(range) => {
                    operand(&range.select.index, read);
                    index = &range.element;
                }
                Index::None | Index::Absolute(_) => break,
            }
        }
    }
    for stmt in block {
        // Every operand any statement reads: an instruction's sources, a
        // REP count, a LOOP control, KIL's, a store's value and
        // coordinates, a memory access's registers.
        for o in stmt.operands() {
            operand(o, read);
        }
        if let Stmt::Inst(inst) = stmt {
            let entry = written
                .entry(inst.dst.var)
                .or_insert_with(|| (Some(BTreeSet::new()), false));
            merge(&mut entry.0, elements_of(&inst.dst.index));
            entry.1 |= inst.dst.ty != DataType::Float;
            if let Index::Relative { address, .. } = &inst.dst.index {
                operand(address, read);
            }
        }
        for b in stmt.blocks() {
            walk(b, read, written);
        }
    }
}

fn stage_name(s: Stage) -> &'static str {
    match s {
        Stage::Vertex => "vertex program",
        Stage::Geometry => "geometry program",
        Stage::Fragment => "fragment program",
        Stage::TessControl => "tessellation control program",
        Stage::TessEval => "tessellation evaluation program",
        Stage::Compute => "compute program",
    }
}

fn type_name(t: DataType) -> &'static str {
    match t {
        DataType::Float => "float",
        DataType::Signed => "INT",
        DataType::Unsigned => "UINT",
    }
}

/// A program of the pipeline: its IR, interface, file index and (name,
/// source).
type Side<'a> = (&'a Program, &'a Interface, usize, (&'a str, &'a str));

fn check_pair(writer: Side<'_>, reader: Side<'_>, out: &mut Vec<LinkDiagnostic>) {
    let (wp, wi, wf, (wname, wsource)) = writer;
    let (rp, ri, rf, (_, rsource)) = reader;
    let wstage = stage_name(wp.stage);
    let rstage = stage_name(rp.stage);
    // The writer's header: where a missing result is pointed at.
    let header = Span::new(0, 9.min(wsource.len()));
    for (&v, read) in &ri.reads {
        // Without a geometry program, the fragment program's primitive ID
        // is the GL's count (NV_fragment_program4); after one, it is
        // result.primid (NV_geometry_program4 2.X.3.5).
        if v == Varying::PrimitiveId && wp.stage != Stage::Geometry {
            continue;
        }
        let name = binding_name(rp, rsource, read.var);
        let Some(write) = wi.writes.get(&v) else {
            let d = Diagnostic::error(
                "E1000",
                format!("`{name}` is not written by the {wstage}"),
            )
            .primary(read.span, format!("the {rstage} reads this"))
            .secondary(
                header,
                format!("this {wstage} never writes {}", v.result_name()),
            )
            .note(if matches!(rp.stage, Stage::TessControl | Stage::TessEval) {
                "NV_tessellation_program5 2.X.3.2: \"The value of any attribute corresponding to a vertex output not written by the previous program stage is undefined\""
            } else if rp.stage == Stage::Geometry {
                "NV_geometry_program4 2.X.3.2: \"The value of any attribute corresponding to a vertex output not written by the vertex program is undefined.\""
            } else {
                "NV_fragment_program4 2.X.3.2: \"The value of any attribute corresponding to a vertex output not written by the geometry or vertex program is undefined.\""
            })
            .note("docs/interface.md, \"Varyings\", gives the result each attribute reads");
            out.push(LinkDiagnostic {
                diagnostic: d,
                label_files: vec![rf, wf],
            });
            continue;
        };
        let wname_var = binding_name(wp, wsource, write.var);
        if v.typed_by_program() && read.ty != write.ty {
            let d = Diagnostic::error(
                "E1001",
                format!(
                    "`{name}` is read as {} but `{wname_var}` is written as {}",
                    type_name(read.ty),
                    type_name(write.ty)
                ),
            )
            .primary(read.span, format!("read as {} here", type_name(read.ty)))
            .secondary(write.span, format!("written as {} in {wname}", type_name(write.ty)))
            .note(if matches!(rp.stage, Stage::TessControl | Stage::TessEval) {
                "NV_tessellation_program5 2.X.3.2: \"Tessellation control and evaluation program attributes should be read using the same component data type used to write the corresponding vertex program results.\""
            } else if rp.stage == Stage::Geometry {
                "NV_geometry_program4 2.X.3.2: \"Geometry program attributes should be read using the same component data type used to write the corresponding vertex program results.\""
            } else {
                "NV_fragment_program4 2.X.3.2: \"the fragment program attributes should be read using the same component data type used to write the vertex output attributes in the geometry or vertex program\""
            })
            .note("Vulkan requires a varying's component type to match between stages (docs/interface.md, \"Varyings\")")
            .note("declare both INT, both UINT, or both without a type (float)");
            out.push(LinkDiagnostic {
                diagnostic: d,
                label_files: vec![rf, wf],
            });
            continue;
        }
        if rp.stage == Stage::Fragment
            && v.typed_by_program()
            && read.ty == DataType::Float
            && write.integer_bits
            && !read.flat
        {
            let d = Diagnostic::error(
                "E1002",
                format!("`{name}` carries integer bits but is interpolated"),
            )
            .primary(read.span, "declare this attribute FLAT")
            .secondary(write.span, format!("written by an integer instruction in {wname}"))
            .note("NV_fragment_program4 2.X.3.1: \"Implementations are not required to support arithmetic interpolation of integer values written by a previous pipeline stage.\"")
            .note("docs/interface.md, \"Varyings\": a typeless result written by an integer instruction carries its bits through a vec4 varying; read it FLAT, or interpolation changes the bits");
            out.push(LinkDiagnostic {
                diagnostic: d,
                label_files: vec![rf, wf],
            });
        }
    }
}

/// The name a diagnostic shows for a variable: its declared name, or the
/// binding as the program wrote it (the span of an implicit variable).
fn binding_name(p: &Program, source: &str, id: VarId) -> String {
    let var = p.var(id);
    if let Some(n) = &var.name {
        return n.clone();
    }
    source
        .get(var.span.start as usize..var.span.end as usize)
        .unwrap_or_default()
        .to_string()
}
