//! What each binding means, for hovers and completion: the binding tables
//! of the specs (attributes: section 2.X.3.2 of NV_vertex_program4,
//! NV_fragment_program4 and NV_geometry_program4; parameters and GL state:
//! NV_gpu_program4 section 2.X.3.3 with ARB_vertex_program's state tables;
//! results: section 2.X.3.5) written as path templates with their meaning.
//!
//! This is documentation, not the decoder: the checker (`check::bindings`)
//! decides what a program may write, and a test holds every template to it
//! (each one decodes in the program types it lists and in no other).
//! Where a binding lives in the module (Location, block offset, descriptor)
//! is never written here: `lsp::probe` asks the back end.
//!
//! A template is dot-separated segments; `name[n]` takes a required index,
//! `name[n?]` an optional one.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use crate::check::bindings::{decode, root_of};
use crate::isa::{Dialect, Features, Stage};
use crate::syntax::ast::{Arg, Statement};

/// One binding form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BindingDoc {
    /// The template, e.g. `state.light[n].spot.direction`.
    pub path: String,
    /// The program types that have it.
    pub stages: Vec<Stage>,
    /// What it is, from the spec's table.
    pub meaning: String,
    /// Where the spec lists it.
    pub spec: &'static str,
}

const V: Stage = Stage::Vertex;
const F: Stage = Stage::Fragment;
const G: Stage = Stage::Geometry;

const ATTRIBS_VP: &str = "NV_vertex_program4 section 2.X.3.2, Table X.2";
const ATTRIBS_FP: &str = "NV_fragment_program4 section 2.X.3.2, Table X.1";
const ATTRIBS_GP: &str = "NV_geometry_program4 section 2.X.3.2, Table X.3.1";
const RESULTS: &str = "NV_gpu_program4 section 2.X.3.5 and the program type's result table";
const PARAMS: &str = "NV_gpu_program4 section 2.X.3.3";
const BUFFERS: &str = "NV_parameter_buffer_object section 2.X.3.6";
const STATE: &str =
    "NV_gpu_program4 section 2.X.3.3, Tables X.3-X.11 (ARB_vertex_program 2.14.1.x)";
const TEXTURES: &str = "NV_gpu_program4 section 2.X.4.4";

/// Every binding form of the three program types.
pub fn binding_docs() -> &'static [BindingDoc] {
    static DOCS: OnceLock<Vec<BindingDoc>> = OnceLock::new();
    DOCS.get_or_init(build)
}

fn build() -> Vec<BindingDoc> {
    let mut docs = Vec::new();
    let mut add = |path: &str, stages: &[Stage], meaning: &str, spec: &'static str| {
        docs.push(BindingDoc {
            path: path.to_string(),
            stages: stages.to_vec(),
            meaning: meaning.to_string(),
            spec,
        })
    };

    // Vertex program attributes.
    add(
        "vertex.position",
        &[V],
        "object-space vertex position (x, y, z, w)",
        ATTRIBS_VP,
    );
    add(
        "vertex.weight[n?]",
        &[V],
        "vertex weights n to n+3 (vertex blending); `vertex.weight` is `vertex.weight[0]`",
        ATTRIBS_VP,
    );
    add("vertex.normal", &[V], "normal (nx, ny, nz, 1)", ATTRIBS_VP);
    add(
        "vertex.color",
        &[V],
        "primary color (r, g, b, a)",
        ATTRIBS_VP,
    );
    add(
        "vertex.color.primary",
        &[V],
        "primary color (r, g, b, a)",
        ATTRIBS_VP,
    );
    add(
        "vertex.color.secondary",
        &[V],
        "secondary color (r, g, b, a)",
        ATTRIBS_VP,
    );
    add(
        "vertex.fogcoord",
        &[V],
        "fog coordinate (f, 0, 0, 1)",
        ATTRIBS_VP,
    );
    add(
        "vertex.texcoord[n?]",
        &[V],
        "texture coordinate set n (s, t, r, q); `vertex.texcoord` is set 0",
        ATTRIBS_VP,
    );
    add(
        "vertex.attrib[n]",
        &[V],
        "generic vertex attribute n",
        ATTRIBS_VP,
    );
    add(
        "vertex.id",
        &[V],
        "the vertex number (integer, in x)",
        ATTRIBS_VP,
    );
    add(
        "vertex.instance",
        &[V],
        "the instance number of the draw (integer, in x)",
        ATTRIBS_VP,
    );

    // Geometry program attributes: per input vertex, `vertex[m].…`, or the
    // whole array without `[m]` in a declaration.
    let per_vertex: &[(&str, &str)] = &[
        ("position", "position of input vertex m (clip coordinates)"),
        ("color", "front primary color of input vertex m"),
        ("color.primary", "front primary color of input vertex m"),
        ("color.secondary", "front secondary color of input vertex m"),
        ("color.front", "front primary color of input vertex m"),
        (
            "color.front.primary",
            "front primary color of input vertex m",
        ),
        (
            "color.front.secondary",
            "front secondary color of input vertex m",
        ),
        ("color.back", "back primary color of input vertex m"),
        ("color.back.primary", "back primary color of input vertex m"),
        (
            "color.back.secondary",
            "back secondary color of input vertex m",
        ),
        ("fogcoord", "fog coordinate of input vertex m (f, 0, 0, 1)"),
        ("pointsize", "point size of input vertex m (s, 0, 0, 1)"),
        ("texcoord[n?]", "texture coordinate set n of input vertex m"),
        ("clip[n]", "clip distance n of input vertex m (in x)"),
        ("attrib[n]", "generic attribute n of input vertex m"),
        (
            "id",
            "vertex identifier of input vertex m, the vertex program's `result.id` (integer, in x)",
        ),
    ];
    for (member, meaning) in per_vertex {
        add(&format!("vertex[m?].{member}"), &[G], meaning, ATTRIBS_GP);
    }
    add(
        "primitive.id",
        &[G, F],
        "the primitive number (integer, in x)",
        ATTRIBS_GP,
    );

    // Fragment program attributes.
    add(
        "fragment.color",
        &[F],
        "interpolated primary color (r, g, b, a)",
        ATTRIBS_FP,
    );
    add(
        "fragment.color.primary",
        &[F],
        "interpolated primary color (r, g, b, a)",
        ATTRIBS_FP,
    );
    add(
        "fragment.color.secondary",
        &[F],
        "interpolated secondary color (r, g, b, a)",
        ATTRIBS_FP,
    );
    add(
        "fragment.texcoord[n?]",
        &[F],
        "interpolated texture coordinate set n (s, t, r, q); `fragment.texcoord` is set 0",
        ATTRIBS_FP,
    );
    add(
        "fragment.fogcoord",
        &[F],
        "interpolated fog coordinate (f, 0, 0, 1)",
        ATTRIBS_FP,
    );
    add(
        "fragment.clip[n]",
        &[F],
        "interpolated clip distance n (in x)",
        ATTRIBS_FP,
    );
    add(
        "fragment.attrib[n]",
        &[F],
        "interpolated generic attribute n",
        ATTRIBS_FP,
    );
    add(
        "fragment.position",
        &[F],
        "window position (x, y, z, 1/w)",
        ATTRIBS_FP,
    );
    add(
        "fragment.facing",
        &[F],
        "facing: +1.0 for a front-facing primitive, -1.0 for a back-facing one (in x)",
        ATTRIBS_FP,
    );

    // Vertex and geometry program results.
    let vg = &[V, G];
    add(
        "result.position",
        vg,
        "position in clip coordinates (x, y, z, w)",
        RESULTS,
    );
    for (face, fm) in [("", "front "), (".front", "front "), (".back", "back ")] {
        for (kind, km) in [
            ("", "primary"),
            (".primary", "primary"),
            (".secondary", "secondary"),
        ] {
            add(
                &format!("result.color{face}{kind}"),
                vg,
                &format!("{fm}{km} color (r, g, b, a)"),
                RESULTS,
            );
        }
    }
    add("result.fogcoord", vg, "fog coordinate (in x)", RESULTS);
    add("result.pointsize", vg, "point size (in x)", RESULTS);
    add(
        "result.texcoord[n?]",
        vg,
        "texture coordinate set n; `result.texcoord` is set 0",
        RESULTS,
    );
    add("result.clip[n]", vg, "clip distance n (in x)", RESULTS);
    add(
        "result.attrib[n]",
        vg,
        "generic attribute n, read by the next stage as `.attrib[n]`",
        RESULTS,
    );
    add(
        "result.id",
        &[V],
        "vertex identifier for the geometry program's `vertex[m].id` (integer, in x)",
        RESULTS,
    );
    add(
        "result.primid",
        &[G],
        "primitive identifier, the fragment program's `primitive.id` (integer, in x)",
        RESULTS,
    );
    add(
        "result.layer",
        &[G],
        "layer of a layered framebuffer to render to (integer, in x)",
        RESULTS,
    );
    // Fragment program results.
    add(
        "result.color[n?]",
        &[F],
        "color for draw buffer n (ARB_draw_buffers); `result.color` is buffer 0",
        RESULTS,
    );
    add("result.depth", &[F], "window depth (in z)", RESULTS);

    // Program parameters.
    let all = &[V, F, G];
    add(
        "program.env[n]",
        all,
        "program environment parameter n, shared by every program of this type",
        PARAMS,
    );
    add(
        "program.local[n]",
        all,
        "program local parameter n, this program's own",
        PARAMS,
    );
    add(
        "program.buffer[n]",
        all,
        "parameter buffer binding point n (words, or `[a..b]` a range of them)",
        BUFFERS,
    );
    add(
        "texture[n]",
        all,
        "texture image unit n (with a target such as `2D` in a texture instruction)",
        TEXTURES,
    );

    // GL state (ARB_vertex_program section 2.14.1.5's tables).
    for (face, fm) in [("", "front "), (".front", "front "), (".back", "back ")] {
        for (what, m) in [
            ("ambient", "ambient color"),
            ("diffuse", "diffuse color"),
            ("specular", "specular color"),
            ("emission", "emissive color"),
            ("shininess", "specular exponent (s, 0, 0, 1)"),
        ] {
            add(
                &format!("state.material{face}.{what}"),
                all,
                &format!("{fm}material {m}"),
                STATE,
            );
        }
    }
    for (what, m) in [
        ("ambient", "ambient color of light n"),
        ("diffuse", "diffuse color of light n"),
        ("specular", "specular color of light n"),
        ("position", "position of light n (eye space)"),
        (
            "attenuation",
            "attenuation of light n: constant, linear, quadratic, spot exponent",
        ),
        (
            "spot.direction",
            "spot direction of light n (x, y, z) and cosine of the cutoff angle",
        ),
        ("half", "infinite half-angle vector of light n (x, y, z, 1)"),
    ] {
        add(&format!("state.light[n].{what}"), all, m, STATE);
    }
    add(
        "state.lightmodel.ambient",
        all,
        "light model ambient color",
        STATE,
    );
    for (face, fm) in [("", "front"), (".front", "front"), (".back", "back")] {
        add(&format!("state.lightmodel{face}.scenecolor"), all, &format!("{fm} scene color: ambient × material ambient + material emission, material diffuse alpha"), STATE);
        for (what, m) in [
            ("ambient", "ambient"),
            ("diffuse", "diffuse"),
            ("specular", "specular"),
        ] {
            add(
                &format!("state.lightprod[n]{face}.{what}"),
                all,
                &format!("{fm} product of light n's and the material's {m} colors"),
                STATE,
            );
        }
    }
    for (kind, km) in [("eye", "eye-linear"), ("object", "object-linear")] {
        for c in ["s", "t", "r", "q"] {
            add(
                &format!("state.texgen[n?].{kind}.{c}"),
                all,
                &format!("{km} texture generation plane of coordinate {c}, unit n"),
                STATE,
            );
        }
    }
    add("state.fog.color", all, "fog color (r, g, b, a)", STATE);
    add(
        "state.fog.params",
        all,
        "fog parameters: density, linear start, linear end, 1/(end − start)",
        STATE,
    );
    add(
        "state.clip[n].plane",
        all,
        "clip plane n coefficients (eye space)",
        STATE,
    );
    add(
        "state.point.size",
        all,
        "point size, minimum, maximum, fade threshold",
        STATE,
    );
    add(
        "state.point.attenuation",
        all,
        "point attenuation: constant, linear, quadratic, 1",
        STATE,
    );
    add(
        "state.texenv[n?].color",
        all,
        "texture environment color of unit n",
        STATE,
    );
    add(
        "state.depth.range",
        all,
        "depth range: near, far, far − near, 1",
        STATE,
    );
    for (matrix, m) in [
        ("modelview[n?]", "modelview matrix n"),
        ("projection", "projection matrix"),
        (
            "mvp",
            "modelview-projection matrix (projection × modelview 0)",
        ),
        ("texture[n?]", "texture matrix n"),
        ("program[n]", "program matrix n"),
    ] {
        for (modifier, mm) in [
            ("", ""),
            (".inverse", "inverse of the "),
            (".transpose", "transpose of the "),
            (".invtrans", "inverse transpose of the "),
        ] {
            let base = format!("state.matrix.{matrix}{modifier}");
            add(
                &base,
                all,
                &format!("{mm}{m}: rows 0 to 3 (a declaration's four array elements)"),
                STATE,
            );
            add(
                &format!("{base}.row[n]"),
                all,
                &format!("row n of the {mm}{m}"),
                STATE,
            );
        }
    }
    docs
}

/// One segment of a written or template path: its name and whether it has
/// an index (`texcoord[2]`), or, in a template, may or must have one.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Segment<'a> {
    name: &'a str,
    index: Index,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Index {
    None,
    Required,
    Optional,
}

fn template_segments(path: &str) -> Vec<Segment<'_>> {
    path.split('.')
        .map(|s| match s.find('[') {
            Some(i) if s.ends_with("?]") => Segment {
                name: &s[..i],
                index: Index::Optional,
            },
            Some(i) => Segment {
                name: &s[..i],
                index: Index::Required,
            },
            None => Segment {
                name: s,
                index: Index::None,
            },
        })
        .collect()
}

/// The segments of a binding as written, e.g. `state.light[0].half` or
/// `vertex[1].texcoord[0..2]`: names, with `Required` for an index.
fn written_segments(text: &str) -> Option<Vec<Segment<'_>>> {
    let mut out = Vec::new();
    let mut depth = 0;
    let mut start = 0;
    let bytes = text.as_bytes();
    let mut i = 0;
    let mut name_end = None;
    while i <= bytes.len() {
        let b = bytes.get(i).copied();
        match b {
            Some(b'[') => {
                if depth == 0 && name_end.is_none() {
                    name_end = Some(i);
                }
                depth += 1;
            }
            Some(b']') => depth -= 1,
            Some(b'.') if depth == 0 => {
                push_segment(&mut out, text, start, name_end, i)?;
                start = i + 1;
                name_end = None;
            }
            None => {
                push_segment(&mut out, text, start, name_end, i)?;
            }
            _ => {}
        }
        i += 1;
    }
    Some(out)
}

fn push_segment<'a>(
    out: &mut Vec<Segment<'a>>,
    text: &'a str,
    start: usize,
    name_end: Option<usize>,
    end: usize,
) -> Option<()> {
    let name = text.get(start..name_end.unwrap_or(end))?.trim();
    out.push(Segment {
        name,
        index: if name_end.is_some() {
            Index::Required
        } else {
            Index::None
        },
    });
    Some(())
}

fn segment_matches(template: &Segment<'_>, written: &Segment<'_>) -> bool {
    template.name == written.name
        && match (template.index, written.index) {
            (Index::Optional, _) => true,
            (t, w) => t == w,
        }
}

/// A template made concrete: indices filled in.
fn instance(template: &str) -> String {
    template
        .replace("[n?]", "[1]")
        .replace("[m?]", "[1]")
        .replace("[n]", "[1]")
}

fn decodes_in(dialect: Dialect, binding: &str) -> bool {
    // As the source of a MOV, or (for results) its destination; whole
    // matrices only in a declaration. Read with the dialect's header, whose
    // reserved words differ (`primitive` is a name in `!!ARBfp1.0`).
    let source = format!(
        "{}\nPARAM probe[] = {{ {binding} }};\nMOV {binding}, {binding};\nEND\n",
        dialect.header.text()
    );
    let (ast, _) = crate::syntax::parse(&source);
    let Some(ast) = ast else { return false };
    let mut paths = Vec::new();
    for s in &ast.statements {
        match s {
            Statement::Instruction(i) => {
                for a in &i.args {
                    if let Arg::Operand(o) = a {
                        paths.push((o.path.clone(), false));
                    }
                }
            }
            Statement::Decl(d) => {
                if let crate::syntax::ast::DeclKind::Param {
                    init: crate::syntax::ast::Init::List(items, _),
                    ..
                } = &d.kind
                {
                    for it in items {
                        if let crate::syntax::ast::InitItem::Binding(p) = it {
                            paths.push((p.clone(), true));
                        }
                    }
                }
            }
            _ => {}
        }
    }
    paths.iter().any(|(p, in_decl)| {
        let Some((root, span)) = root_of(p) else {
            return false;
        };
        match decode(dialect, root, span, p, *in_decl) {
            Ok(d) => d.rest.is_empty(),
            Err(_) => false,
        }
    })
}

/// Whether a documented binding exists in a dialect: the documentation is
/// written for NV_gpu_program4's program types; the ARB family and its NV
/// options have a subset (`check::bindings` says which), asked of the
/// decoder once per template and dialect.
fn available(doc: &BindingDoc, dialect: Dialect) -> bool {
    if !doc.stages.contains(&dialect.stage()) {
        return false;
    }
    if dialect.has(Features::NV4) {
        return true;
    }
    static KNOWN: OnceLock<Mutex<HashMap<(String, Dialect), bool>>> = OnceLock::new();
    let known = KNOWN.get_or_init(Default::default);
    let key = (doc.path.clone(), dialect);
    if let Some(&b) = known.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return b;
    }
    let b = decodes_in(dialect, &instance(&doc.path));
    known
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(key, b);
    b
}

/// The documentation of a binding as written (without its swizzle), in a
/// dialect.
///
/// ```
/// use nvp4c::{isa::{Dialect, Header}, lsp::bindings::describe};
/// let doc = describe(Dialect::new(Header::NvFp4), "fragment.texcoord[2]").unwrap();
/// assert_eq!(doc.path, "fragment.texcoord[n?]");
/// assert!(describe(Dialect::new(Header::NvVp4), "fragment.texcoord[2]").is_none());
/// // NV_fragment_program4's `fragment.attrib[n]` is not ARB_fragment_program's.
/// assert!(describe(Dialect::new(Header::ArbFp1), "fragment.attrib[0]").is_none());
/// ```
pub fn describe(dialect: Dialect, written: &str) -> Option<&'static BindingDoc> {
    let w = written_segments(written)?;
    binding_docs().iter().find(|d| {
        if !available(d, dialect) {
            return false;
        }
        let t = template_segments(&d.path);
        t.len() == w.len() && t.iter().zip(&w).all(|(t, w)| segment_matches(t, w))
    })
}

/// The members that may follow a binding prefix, for completion: `prefix`
/// is the binding as written up to its last `.` (e.g. `state.matrix`,
/// `vertex[0]`, `state.light[1]`), and each member comes with the meaning
/// of the shortest binding it starts.
///
/// ```
/// use nvp4c::{isa::{Dialect, Header}, lsp::bindings::members_after};
/// let names: Vec<&str> = members_after(Dialect::new(Header::NvVp4), "state.matrix").iter().map(|m| m.0).collect();
/// assert_eq!(names, ["modelview", "projection", "mvp", "texture", "program"]);
/// ```
pub fn members_after(dialect: Dialect, prefix: &str) -> Vec<(&'static str, &'static BindingDoc)> {
    let Some(w) = written_segments(prefix) else {
        return Vec::new();
    };
    let mut out: Vec<(&'static str, &'static BindingDoc)> = Vec::new();
    for d in binding_docs() {
        if !available(d, dialect) {
            continue;
        }
        let t = template_segments(&d.path);
        if t.len() <= w.len() || !t.iter().zip(&w).all(|(t, w)| segment_matches(t, w)) {
            continue;
        }
        let next = t[w.len()].name;
        match out.iter_mut().find(|(n, _)| *n == next) {
            Some(entry) => {
                if template_segments(&entry.1.path).len() > t.len() {
                    entry.1 = d;
                }
            }
            None => out.push((next, d)),
        }
    }
    out
}

/// The binding roots of a dialect (section 2.X.2's reserved words that
/// start a binding).
pub fn roots(dialect: Dialect) -> Vec<&'static str> {
    let mut seen: Vec<&'static str> = Vec::new();
    for d in binding_docs() {
        if available(d, dialect) {
            let root = d.path.split(['.', '[']).next().unwrap_or("");
            if let Some(r) = [
                "fragment",
                "vertex",
                "primitive",
                "program",
                "result",
                "state",
                "texture",
            ]
            .into_iter()
            .find(|r| *r == root)
            {
                if !seen.contains(&r) {
                    seen.push(r);
                }
            }
        }
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::Header;

    fn decodes(stage: Stage, binding: &str) -> bool {
        decodes_in(Dialect::nv4(stage), binding)
    }

    /// The documentation and the decoder agree: a documented binding
    /// decodes in exactly the program types where some template describes
    /// it (`vertex.position` is a vertex attribute, and in a geometry
    /// program the whole-array form of `vertex[m].position`).
    #[test]
    fn every_documented_binding_decodes_where_it_is_documented() {
        for d in binding_docs() {
            let b = instance(&d.path);
            for stage in [Stage::Vertex, Stage::Fragment, Stage::Geometry] {
                assert_eq!(
                    decodes(stage, &b),
                    describe(Dialect::nv4(stage), &b).is_some(),
                    "`{b}` ({}) in a {stage} program",
                    d.path
                );
            }
            assert!(
                d.stages.iter().all(|s| decodes(*s, &b)),
                "`{b}` in {:?}",
                d.stages
            );
        }
    }

    #[test]
    fn written_bindings_find_their_template() {
        let d = describe(Dialect::nv4(Stage::Vertex), "state.matrix.mvp.row[1]").unwrap();
        assert_eq!(d.path, "state.matrix.mvp.row[n]");
        let d = describe(Dialect::nv4(Stage::Geometry), "vertex[2].color.back").unwrap();
        assert_eq!(d.path, "vertex[m?].color.back");
        let d = describe(Dialect::nv4(Stage::Fragment), "program.local[0..3]").unwrap();
        assert_eq!(d.path, "program.local[n]");
        assert!(describe(Dialect::nv4(Stage::Fragment), "program.local").is_none());
    }

    #[test]
    fn completion_offers_the_members_a_prefix_can_continue_with() {
        let names = |stage, p| -> Vec<&str> {
            members_after(Dialect::nv4(stage), p)
                .iter()
                .map(|m| m.0)
                .collect()
        };
        assert_eq!(
            names(Stage::Fragment, "state.light[0]"),
            [
                "ambient",
                "diffuse",
                "specular",
                "position",
                "attenuation",
                "spot",
                "half"
            ]
        );
        assert_eq!(
            names(Stage::Fragment, "fragment"),
            ["color", "texcoord", "fogcoord", "clip", "attrib", "position", "facing"]
        );
        assert_eq!(names(Stage::Fragment, "result"), ["color", "depth"]);
        assert_eq!(
            names(Stage::Vertex, "state.matrix.mvp"),
            ["row", "inverse", "transpose", "invtrans"]
        );
        assert!(names(Stage::Fragment, "vertex").is_empty());
        assert_eq!(
            roots(Dialect::nv4(Stage::Fragment)),
            [
                "primitive",
                "fragment",
                "result",
                "program",
                "texture",
                "state"
            ]
        );
    }

    /// The dialects of the ARB family, with and without each NV option.
    fn arb_dialects() -> Vec<Dialect> {
        let mut out = Vec::new();
        for (header, options) in [
            (
                Header::ArbVp1,
                [Features::NONE, Features::NV_VP2, Features::NV_VP3],
            ),
            (
                Header::ArbFp1,
                [Features::NONE, Features::NV_FP, Features::NV_FP2],
            ),
        ] {
            for f in options {
                let mut d = Dialect::new(header);
                d.enable(f);
                out.push(d);
            }
        }
        out
    }

    /// In the ARB family the documentation offers exactly the bindings the
    /// decoder accepts in that dialect.
    #[test]
    fn arb_dialects_document_exactly_their_bindings() {
        for dialect in arb_dialects() {
            for d in binding_docs() {
                let b = instance(&d.path);
                if describe(dialect, &b).is_some_and(|found| found.path == d.path) {
                    assert!(decodes_in(dialect, &b), "`{b}` documented in {dialect:?}");
                } else if d.stages.contains(&dialect.stage()) {
                    assert!(
                        !decodes_in(dialect, &b) || describe(dialect, &b).is_some(),
                        "`{b}` decodes in {dialect:?} but has no documentation"
                    );
                }
            }
        }
        let arb_fp = Dialect::new(Header::ArbFp1);
        let mut fp2 = arb_fp;
        fp2.enable(Features::NV_FP2);
        assert!(describe(arb_fp, "fragment.facing").is_none());
        assert!(describe(fp2, "fragment.facing").is_some());
        assert!(describe(arb_fp, "state.texenv[0].color").is_some());
        assert!(describe(Dialect::new(Header::ArbVp1), "state.texenv[0].color").is_none());
        let mut vp2 = Dialect::new(Header::ArbVp1);
        vp2.enable(Features::NV_VP2);
        assert!(describe(Dialect::new(Header::ArbVp1), "result.clip[0]").is_none());
        assert!(describe(vp2, "result.clip[0]").is_some());
        assert!(describe(Dialect::new(Header::ArbVp1), "vertex.id").is_none());
        assert_eq!(
            roots(arb_fp),
            ["fragment", "result", "program", "texture", "state"]
        );
        let names: Vec<&str> = members_after(arb_fp, "fragment")
            .iter()
            .map(|m| m.0)
            .collect();
        assert_eq!(names, ["color", "texcoord", "fogcoord", "position"]);
    }
}
