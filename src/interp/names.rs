//! Canonical names of bindings: the keys of [`Inputs`](super::Inputs) and
//! of [`Outcome::results`](super::Outcome::results).
//!
//! A name is the binding as a program would write it, in its shortest
//! full form: `fragment.texcoord[0]`, `vertex.attrib[3]`,
//! `vertex[1].color.back`, `result.color`, `result.color[2]`,
//! `state.matrix.mvp.row[0]`. Spellings the spec treats as the same binding
//! (`fragment.texcoord` and `fragment.texcoord[0]`, `vertex.position` and
//! `vertex.attrib[0]` per the aliasing in docs/interface.md) are accepted
//! as input keys through [`attribute_aliases`].

use crate::ir::{AttribBinding, ColorSel, PatchAttrib, PerVertexAttrib, ResultBinding, StateItem};
use crate::isa::Stage;

fn color_suffix(sel: ColorSel) -> &'static str {
    match (sel.back, sel.secondary) {
        (false, false) => "",
        (false, true) => ".secondary",
        (true, false) => ".back",
        (true, true) => ".back.secondary",
    }
}

/// The name of an attribute binding as the program of `stage` reads it.
///
/// A geometry program's per-vertex binding without a vertex number
/// (`PerVertex { vertex: None, .. }`) is named without one
/// (`vertex.position`); the element actually read is named by
/// [`per_vertex_name`].
///
/// ```
/// use nvp4c::{interp::attribute_name, ir::AttribBinding, Stage};
/// assert_eq!(attribute_name(Stage::Fragment, &AttribBinding::TexCoord(2)), "fragment.texcoord[2]");
/// assert_eq!(attribute_name(Stage::Vertex, &AttribBinding::Generic(3)), "vertex.attrib[3]");
/// ```
pub fn attribute_name(stage: Stage, binding: &AttribBinding) -> String {
    let root = match stage {
        Stage::Fragment => "fragment",
        Stage::Compute => "invocation",
        Stage::Vertex | Stage::Geometry | Stage::TessControl | Stage::TessEval => "vertex",
    };
    match *binding {
        AttribBinding::Position => format!("{root}.position"),
        AttribBinding::Weight(n) => format!("{root}.weight[{n}]"),
        AttribBinding::Normal => format!("{root}.normal"),
        AttribBinding::Color(sel) => format!("{root}.color{}", color_suffix(sel)),
        AttribBinding::FogCoord => format!("{root}.fogcoord"),
        AttribBinding::TexCoord(n) => format!("{root}.texcoord[{n}]"),
        AttribBinding::Generic(n) => format!("{root}.attrib[{n}]"),
        AttribBinding::VertexId => "vertex.id".into(),
        AttribBinding::InstanceId => "vertex.instance".into(),
        AttribBinding::Facing => "fragment.facing".into(),
        AttribBinding::SampleId => "fragment.sampleid".into(),
        AttribBinding::PointCoord => "fragment.pointcoord".into(),
        AttribBinding::SampleMask => "fragment.samplemask".into(),
        AttribBinding::Clip(n) => format!("{root}.clip[{n}]"),
        AttribBinding::PointSize => format!("{root}.pointsize"),
        AttribBinding::PrimitiveId => "primitive.id".into(),
        AttribBinding::PerVertex {
            vertex: Some(v),
            binding,
        } => per_vertex_name(v, &binding),
        AttribBinding::PerVertex {
            vertex: None,
            binding,
        } => format!("vertex{}", per_vertex_suffix(&binding)),
        AttribBinding::OutputVertex {
            vertex: Some(v),
            binding,
        } => format!("vertex.out[{v}]{}", per_vertex_suffix(&binding)),
        AttribBinding::OutputVertex {
            vertex: None,
            binding,
        } => format!("vertex.out{}", per_vertex_suffix(&binding)),
        AttribBinding::Patch { output, attrib } => format!(
            "primitive.{}{}",
            if output { "out." } else { "" },
            patch_suffix(attrib)
        ),
        AttribBinding::TessCoord => "vertex.tesscoord".into(),
        AttribBinding::InvocationId => "primitive.invocation".into(),
        AttribBinding::VertexCount => "primitive.vertexcount".into(),
        AttribBinding::Compute(a) => format!("invocation.{}", a.name()),
        // NV_shader_thread_group 2.X.3.2: `vertex.`, `fragment.`,
        // `primitive.` (geometry and tessellation), `invocation.` (compute).
        AttribBinding::Thread(t) => {
            let root = match stage {
                Stage::Geometry | Stage::TessControl | Stage::TessEval => "primitive",
                _ => root,
            };
            format!("{root}.{}", t.name())
        }
    }
}

/// A per-patch attribute after `primitive.` or `result.patch.`.
///
/// ```
/// use nvp4c::ir::PatchAttrib;
/// assert_eq!(nvp4c::interp::patch_suffix(PatchAttrib::TessOuter(2)), "tessouter[2]");
/// assert_eq!(nvp4c::interp::patch_suffix(PatchAttrib::Generic(1)), "patch.attrib[1]");
/// ```
pub fn patch_suffix(attrib: PatchAttrib) -> String {
    match attrib {
        PatchAttrib::TessOuter(n) => format!("tessouter[{n}]"),
        PatchAttrib::TessInner(n) => format!("tessinner[{n}]"),
        PatchAttrib::Generic(n) => format!("patch.attrib[{n}]"),
    }
}

fn per_vertex_suffix(binding: &PerVertexAttrib) -> String {
    match *binding {
        PerVertexAttrib::Position => ".position".into(),
        PerVertexAttrib::Color(sel) => format!(".color{}", color_suffix(sel)),
        PerVertexAttrib::FogCoord => ".fogcoord".into(),
        PerVertexAttrib::PointSize => ".pointsize".into(),
        PerVertexAttrib::TexCoord(n) => format!(".texcoord[{n}]"),
        PerVertexAttrib::Clip(n) => format!(".clip[{n}]"),
        PerVertexAttrib::Generic(n) => format!(".attrib[{n}]"),
        PerVertexAttrib::Id => ".id".into(),
    }
}

/// The name of a geometry program's per-vertex attribute of input vertex
/// `vertex`, e.g. `vertex[1].texcoord[0]` (NV_geometry_program4 2.X.3.2).
///
/// ```
/// use nvp4c::ir::PerVertexAttrib;
/// assert_eq!(nvp4c::interp::per_vertex_name(1, &PerVertexAttrib::TexCoord(0)), "vertex[1].texcoord[0]");
/// ```
pub fn per_vertex_name(vertex: u32, binding: &PerVertexAttrib) -> String {
    format!("vertex[{vertex}]{}", per_vertex_suffix(binding))
}

/// Other spellings of the same attribute, tried in order when the
/// canonical name is not among the inputs: `[0]`-less forms, `.primary`,
/// and for vertex programs the conventional/generic aliasing of
/// docs/interface.md (`vertex.position` is `vertex.attrib[0]`, ...,
/// `vertex.texcoord[n]` is `vertex.attrib[8 + n]`).
///
/// ```
/// use nvp4c::{interp::attribute_aliases, ir::AttribBinding, Stage};
/// assert!(attribute_aliases(Stage::Vertex, &AttribBinding::Position).contains(&"vertex.attrib[0]".to_string()));
/// ```
pub fn attribute_aliases(stage: Stage, binding: &AttribBinding) -> Vec<String> {
    let canonical = attribute_name(stage, binding);
    let mut v = Vec::new();
    if let Some(base) = canonical.strip_suffix("[0]") {
        v.push(base.to_string());
    }
    if let AttribBinding::Color(sel) = binding {
        if !sel.secondary {
            v.push(format!("{canonical}.primary"));
        }
    }
    if stage == Stage::Vertex {
        let generic = match *binding {
            AttribBinding::Position => Some(0),
            AttribBinding::Weight(0) => Some(1),
            AttribBinding::Normal => Some(2),
            AttribBinding::Color(ColorSel {
                secondary: false, ..
            }) => Some(3),
            AttribBinding::Color(ColorSel {
                secondary: true, ..
            }) => Some(4),
            AttribBinding::FogCoord => Some(5),
            AttribBinding::TexCoord(n) if n < 8 => Some(8 + n),
            _ => None,
        };
        if let Some(g) = generic {
            v.push(format!("vertex.attrib[{g}]"));
        }
        if let AttribBinding::Generic(g) = *binding {
            let conventional = match g {
                0 => Some("vertex.position".to_string()),
                1 => Some("vertex.weight[0]".to_string()),
                2 => Some("vertex.normal".to_string()),
                3 => Some("vertex.color".to_string()),
                4 => Some("vertex.color.secondary".to_string()),
                5 => Some("vertex.fogcoord".to_string()),
                8..=15 => Some(format!("vertex.texcoord[{}]", g - 8)),
                _ => None,
            };
            v.extend(conventional);
        }
    }
    v
}

/// The name of a result binding, e.g. `result.texcoord[1]`. A fragment
/// program's `result.color[0]` is `result.color` (they are one output,
/// docs/interface.md).
///
/// ```
/// use nvp4c::ir::ResultBinding;
/// assert_eq!(nvp4c::interp::result_name(&ResultBinding::TexCoord(1)), "result.texcoord[1]");
/// assert_eq!(nvp4c::interp::result_name(&ResultBinding::FragColor(0)), "result.color");
/// ```
pub fn result_name(binding: &ResultBinding) -> String {
    match *binding {
        ResultBinding::Position => "result.position".into(),
        ResultBinding::Color(sel) => format!("result.color{}", color_suffix(sel)),
        ResultBinding::FragColor(0) => "result.color".into(),
        ResultBinding::FragColor(n) => format!("result.color[{n}]"),
        ResultBinding::Depth => "result.depth".into(),
        ResultBinding::SampleMask => "result.samplemask".into(),
        ResultBinding::FogCoord => "result.fogcoord".into(),
        ResultBinding::PointSize => "result.pointsize".into(),
        ResultBinding::TexCoord(n) => format!("result.texcoord[{n}]"),
        ResultBinding::Clip(n) => format!("result.clip[{n}]"),
        ResultBinding::Generic(n) => format!("result.attrib[{n}]"),
        ResultBinding::Id => "result.id".into(),
        ResultBinding::Layer => "result.layer".into(),
        ResultBinding::PrimitiveId => "result.primid".into(),
        ResultBinding::Patch(PatchAttrib::Generic(n)) => format!("result.patch.attrib[{n}]"),
        ResultBinding::Patch(a) => format!("result.patch.{}", patch_suffix(a)),
    }
}

/// The canonical form of a result name written another way:
/// `result.color[0]` (a fragment program's first draw buffer) and the
/// `.front` / `.primary` spellings of `result.color` (ARB_vertex_program
/// defaults) become [`result_name`]'s form. Other names are returned as
/// they are.
///
/// ```
/// use nvp4c::interp::canonical_result_name;
/// assert_eq!(canonical_result_name("result.color[0]"), "result.color");
/// assert_eq!(canonical_result_name("result.texcoord[1]"), "result.texcoord[1]");
/// ```
pub fn canonical_result_name(name: &str) -> String {
    let name = name.trim();
    if name == "result.color[0]" {
        return "result.color".into();
    }
    match name.strip_prefix("result.color") {
        Some(rest) if rest.starts_with('.') => {
            let parts: Vec<&str> = rest
                .split('.')
                .filter(|p| !p.is_empty() && *p != "front" && *p != "primary")
                .collect();
            let mut s = String::from("result.color");
            for p in parts {
                s.push('.');
                s.push_str(p);
            }
            s
        }
        _ => name.to_string(),
    }
}

/// The name of a GL state binding: the decoded path with numbers as
/// subscripts, e.g. `state.matrix.mvp.row[0]`, `state.light[1].diffuse`,
/// `state.material.front.ambient`.
///
/// ```
/// use nvp4c::ir::StateItem;
/// let item = StateItem { path: ["matrix", "mvp", "row", "0"].map(String::from).to_vec() };
/// assert_eq!(nvp4c::interp::state_name(&item), "state.matrix.mvp.row[0]");
/// ```
pub fn state_name(item: &StateItem) -> String {
    let mut s = String::from("state");
    for part in &item.path {
        if !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()) {
            s.push('[');
            s.push_str(part);
            s.push(']');
        } else {
            s.push('.');
            s.push_str(part);
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_like_the_program_text() {
        assert_eq!(
            attribute_name(Stage::Fragment, &AttribBinding::TexCoord(2)),
            "fragment.texcoord[2]"
        );
        assert_eq!(
            attribute_name(
                Stage::Vertex,
                &AttribBinding::Color(ColorSel {
                    back: false,
                    secondary: true
                })
            ),
            "vertex.color.secondary"
        );
        assert_eq!(
            per_vertex_name(
                1,
                &PerVertexAttrib::Color(ColorSel {
                    back: true,
                    secondary: false
                })
            ),
            "vertex[1].color.back"
        );
        assert_eq!(result_name(&ResultBinding::FragColor(0)), "result.color");
        assert_eq!(result_name(&ResultBinding::FragColor(3)), "result.color[3]");
        assert_eq!(canonical_result_name("result.color[0]"), "result.color");
        assert_eq!(
            canonical_result_name("result.color.front.secondary"),
            "result.color.secondary"
        );
        assert_eq!(
            canonical_result_name("result.texcoord[0]"),
            "result.texcoord[0]"
        );
        assert_eq!(
            state_name(&StateItem {
                path: vec!["matrix".into(), "mvp".into(), "row".into(), "0".into()]
            }),
            "state.matrix.mvp.row[0]"
        );
        assert_eq!(
            attribute_aliases(Stage::Vertex, &AttribBinding::TexCoord(0)),
            vec![
                "vertex.texcoord".to_string(),
                "vertex.attrib[8]".to_string()
            ]
        );
    }
}
