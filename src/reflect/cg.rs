//! The header comments NVIDIA's Cg compiler writes into its `gp4vp` /
//! `gp4fp` / `gp4gp` output, which carry the source-level names:
//!
//! ```text
//! #profile gp4fp
//! #program main
//! #semantic main.tint
//! #var float4 tint :  : c[0] : 1 : 1
//! #var float4x4 mvp :  : c[1], 4 : 2 : 1
//! #var float4 texCoord : $vin.TEXCOORD0 : TEX0 : 0 : 1
//! #var sampler2D decal :  : texunit 0 : 3 : 1
//! #var float4 color : $vout.COLOR : COL : 4 : 1
//! ```
//!
//! A `#var` line is `type name : semantic : resource : parameter number :
//! referenced`. The lexer skips comments, so they are read here from the
//! source text.

use crate::ir::{AttribBinding, ColorSel, PatchAttrib, PerVertexAttrib, ResultBinding};
use crate::isa::Stage;

/// The Cg comments of a program.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct CgComments {
    pub profile: Option<String>,
    pub program: Option<String>,
    pub semantics: Vec<String>,
    pub vars: Vec<CgVar>,
}

/// One `#var` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct CgVar {
    pub ty: String,
    pub name: String,
    pub semantic: String,
    pub resource: String,
    pub parameter_number: Option<i64>,
    pub referenced: bool,
}

/// What a `#var` resource names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Resource {
    /// `c[5]`, `c[0], 4`: `count` consecutive elements of the PARAM array
    /// `array` (or the single PARAM `array` when `first` is `None`).
    Param {
        array: String,
        first: Option<u32>,
        count: u32,
    },
    /// `texunit 0`.
    TexUnit(u32),
    /// `counter[0][3]`: counter 3 of `program.counter[0]`
    /// (NV_shader_atomic_counters).
    Counter {
        buffer: u32,
        element: u32,
    },
    /// `TEX0`, `ATTR3`, `HPOS`, `COL`: an input or output binding.
    Attrib(AttribBinding),
    Result(ResultBinding),
    /// Empty (an unreferenced parameter) or not understood.
    None,
}

/// Reads the Cg comments; `None` when the program has none.
pub(super) fn parse(source: &str) -> Option<CgComments> {
    let mut cg = CgComments::default();
    let mut any = false;
    for line in lines_with_hash(source) {
        let line = line.trim();
        let Some(rest) = line.strip_prefix('#') else {
            continue;
        };
        let (keyword, rest) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        let rest = rest.trim();
        match keyword {
            "profile" => cg.profile = Some(rest.to_string()),
            "program" => cg.program = Some(rest.to_string()),
            "semantic" => cg.semantics.push(rest.to_string()),
            "var" => match parse_var(rest) {
                Some(v) => cg.vars.push(v),
                None => continue,
            },
            _ => continue,
        }
        any = true;
    }
    any.then_some(cg)
}

/// The lines of `source` (as `str::lines` gives them) that contain a `#`:
/// only those can be Cg comments, and a program's other lines, most of a
/// large one, are skipped by searching for `#` instead of splitting every
/// line (docs/performance.md, "Session 8").
fn lines_with_hash(source: &str) -> impl Iterator<Item = &str> {
    let mut from = 0;
    std::iter::from_fn(move || {
        let hash = from + source.get(from..)?.find('#')?;
        let start = source[..hash].rfind('\n').map_or(0, |n| n + 1);
        let end = source[hash..].find('\n').map_or(source.len(), |n| hash + n);
        from = end;
        let line = &source[start..end];
        Some(line.strip_suffix('\r').unwrap_or(line))
    })
}

fn parse_var(text: &str) -> Option<CgVar> {
    let fields: Vec<&str> = text.split(':').map(str::trim).collect();
    let [decl, semantic, resource, number, referenced] = fields.as_slice() else {
        return None;
    };
    let (ty, name) = decl.split_once(char::is_whitespace)?;
    Some(CgVar {
        ty: ty.to_string(),
        name: name.trim().to_string(),
        semantic: semantic.to_string(),
        resource: resource.to_string(),
        parameter_number: number.parse().ok(),
        referenced: *referenced == "1",
    })
}

impl CgVar {
    /// What the resource names in a program of type `stage`.
    pub fn resource(&self, stage: Stage) -> Resource {
        let r = self.resource.as_str();
        if let Some(unit) = r.strip_prefix("texunit") {
            return unit
                .trim()
                .parse()
                .map_or(Resource::None, Resource::TexUnit);
        }
        if let Some(rest) = r.strip_prefix("counter[") {
            let indices = rest
                .strip_suffix(']')
                .and_then(|s| s.split_once("]["))
                .and_then(|(a, b)| Some((a.trim().parse().ok()?, b.trim().parse().ok()?)));
            return indices.map_or(Resource::None, |(buffer, element)| Resource::Counter {
                buffer,
                element,
            });
        }
        if let Some(param) = parse_param(r) {
            return param;
        }
        let tessellation = matches!(stage, Stage::TessControl | Stage::TessEval);
        if tessellation {
            if let Some(r) = tessellation_resource(&self.semantic, r) {
                return r;
            }
        }
        let output = if self.semantic.starts_with("$vout.") {
            true
        } else if self.semantic.starts_with("$vin.") {
            false
        } else {
            return Resource::None;
        };
        let (kind, n) = split_register(r);
        if stage == Stage::Geometry && !output {
            // `$vin.VERTEX[1].COLOR0 : COL0[1][33]`: vertex 1's colour.
            if let Some(m) = vertex_number(r) {
                return per_vertex(m, kind, n);
            }
        }
        // A tessellation program's per-vertex results are those of a
        // vertex program (NV_tessellation_program5 Table X.5).
        let stage = if tessellation { Stage::Vertex } else { stage };
        varying(stage, output, kind, n)
    }
}

/// cgc's tessellation registers: `INVOCATIONID`, `TESSCOORD`, the
/// per-patch `$ppvout.OUTER0 : OUTER0[34]` / `INNER0` (and `$ppvin.`), and
/// per-vertex inputs numbered `vertex × 256 + register`, plus 65536 for
/// the control program's output patch (`vertex.out`): `HPOS[288]` is
/// vertex 1's position, `ATTR0[65792]` output vertex 1's attrib[0].
fn tessellation_resource(semantic: &str, r: &str) -> Option<Resource> {
    let (kind, n) = split_register(r);
    let n0 = n.unwrap_or(0);
    let patch = |output: bool| {
        match kind {
            "OUTER" => Some(PatchAttrib::TessOuter(n0)),
            "INNER" => Some(PatchAttrib::TessInner(n0)),
            _ => None,
        }
        .map(|a| {
            if output {
                Resource::Result(ResultBinding::Patch(a))
            } else {
                Resource::Attrib(AttribBinding::Patch {
                    output: false,
                    attrib: a,
                })
            }
        })
    };
    if semantic.starts_with("$ppvout.") {
        return Some(patch(true).unwrap_or(Resource::None));
    }
    if semantic.starts_with("$ppvin.") {
        return Some(patch(false).unwrap_or(Resource::None));
    }
    if !semantic.starts_with("$vin.") {
        return None;
    }
    match kind {
        "INVOCATIONID" => return Some(Resource::Attrib(AttribBinding::InvocationId)),
        "TESSCOORD" => return Some(Resource::Attrib(AttribBinding::TessCoord)),
        _ => {}
    }
    let index = vertex_number(r)?;
    let vertex = (index >> 8) & 0xff;
    let output_patch = index >= 65536;
    Some(match per_vertex(vertex, kind, n) {
        Resource::Attrib(AttribBinding::PerVertex { vertex, binding }) if output_patch => {
            Resource::Attrib(AttribBinding::OutputVertex { vertex, binding })
        }
        other => other,
    })
}

/// The input vertex of a geometry program's per-vertex register:
/// `HPOS[2][32]` (Cg) and `ATTR0[2][0]` (GLSL) are vertex 2's.
fn vertex_number(r: &str) -> Option<u32> {
    let (_, rest) = r.split_once('[')?;
    rest.split_once(']')?.0.trim().parse().ok()
}

/// A geometry program's input register of vertex `m`.
fn per_vertex(m: u32, kind: &str, n: Option<u32>) -> Resource {
    let n0 = n.unwrap_or(0);
    let color = |back| {
        PerVertexAttrib::Color(ColorSel {
            back,
            secondary: n == Some(1),
        })
    };
    let binding = match kind {
        "HPOS" => PerVertexAttrib::Position,
        "COL" => color(false),
        "BCOL" => color(true),
        "FOGC" | "FOG" => PerVertexAttrib::FogCoord,
        "PSIZ" | "PSIZE" => PerVertexAttrib::PointSize,
        "TEX" => PerVertexAttrib::TexCoord(n0),
        "ATTR" => PerVertexAttrib::Generic(n0),
        "CLP" => PerVertexAttrib::Clip(n0),
        _ => return Resource::None,
    };
    Resource::Attrib(AttribBinding::PerVertex {
        vertex: Some(m),
        binding,
    })
}

/// `c[5]`, `c[0], 4`, `name`: a PARAM (array) element range.
fn parse_param(r: &str) -> Option<Resource> {
    let (head, count) = match r.split_once(',') {
        Some((h, c)) => (h.trim(), c.trim().parse().ok()?),
        None => (r, 1),
    };
    let (array, first) = match head.split_once('[') {
        Some((a, rest)) => (a, Some(rest.strip_suffix(']')?.trim().parse().ok()?)),
        None => (head, None),
    };
    let is_name = array
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c == '_')
        && array
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
    // Register names (`TEX0`, `COL`) are upper case; PARAM arrays Cg
    // declares (`c`) are lower case. In `!!FP1.0` (fp30) the resource is
    // the DECLARE'd name, with `$` for members and rows (`lights$0$color`,
    // `projection$0, 4`: NV_fragment_program 3.11.2 allows `$` in names).
    is_name.then(|| Resource::Param {
        array: array.to_string(),
        first,
        count,
    })
}

/// `TEX3` → (`TEX`, Some(3)); `COL0[0]` → (`COL`, Some(0)); `HPOS` → (`HPOS`, None).
fn split_register(r: &str) -> (&str, Option<u32>) {
    let r = r.split('[').next().unwrap_or(r);
    let digits = r.len() - r.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    let (kind, n) = r.split_at(r.len() - digits);
    (kind, n.parse().ok())
}

/// The binding a Cg varying register stands for.
fn varying(stage: Stage, output: bool, kind: &str, n: Option<u32>) -> Resource {
    let color = |n: Option<u32>, back| ColorSel {
        back,
        secondary: n == Some(1),
    };
    let n0 = n.unwrap_or(0);
    match (stage, output, kind) {
        (Stage::Fragment, true, "COL") => Resource::Result(ResultBinding::FragColor(n0)),
        (Stage::Fragment, true, "DEPR" | "DEPTH") => Resource::Result(ResultBinding::Depth),
        (Stage::Fragment, false, "WPOS") => Resource::Attrib(AttribBinding::Position),
        (Stage::Fragment, false, "FACE") => Resource::Attrib(AttribBinding::Facing),
        (Stage::Fragment, false, "PRIMID") => Resource::Attrib(AttribBinding::PrimitiveId),
        (Stage::Vertex, false, "ATTR") => Resource::Attrib(AttribBinding::Generic(n0)),
        // The arbvp1 and vp40 profiles name a conventional attribute by its
        // Cg semantic (`$vin.NORMAL : NORMAL`, `$vin.TEXCOORD0 :
        // TEXCOORD0`) where gp4vp names the aliased generic (`ATTR2`).
        (Stage::Vertex, false, "POSITION") => Resource::Attrib(AttribBinding::Position),
        (Stage::Vertex, false, "NORMAL") => Resource::Attrib(AttribBinding::Normal),
        (Stage::Vertex, false, "COLOR") => Resource::Attrib(AttribBinding::Color(color(n, false))),
        (Stage::Vertex, false, "TEXCOORD") => Resource::Attrib(AttribBinding::TexCoord(n0)),
        (Stage::Vertex, false, "BLENDWEIGHT") => Resource::Attrib(AttribBinding::Weight(n0)),
        (Stage::Vertex, false, "FOGCOORD") => Resource::Attrib(AttribBinding::FogCoord),
        (Stage::Vertex, false, "INSTANCEID") => Resource::Attrib(AttribBinding::InstanceId),
        (Stage::Vertex, false, "VERTEXID") => Resource::Attrib(AttribBinding::VertexId),
        (Stage::Geometry, false, "PRIMID") => Resource::Attrib(AttribBinding::PrimitiveId),
        (Stage::Vertex | Stage::Geometry, true, kind) => match kind {
            "HPOS" => Resource::Result(ResultBinding::Position),
            "COL" => Resource::Result(ResultBinding::Color(color(n, false))),
            "BCOL" => Resource::Result(ResultBinding::Color(color(n, true))),
            "FOGC" | "FOG" => Resource::Result(ResultBinding::FogCoord),
            "PSIZ" | "PSIZE" => Resource::Result(ResultBinding::PointSize),
            "TEX" => Resource::Result(ResultBinding::TexCoord(n0)),
            "ATTR" => Resource::Result(ResultBinding::Generic(n0)),
            "CLP" => Resource::Result(ResultBinding::Clip(n0)),
            "LAYER" => Resource::Result(ResultBinding::Layer),
            _ => Resource::None,
        },
        (Stage::Fragment, false, kind) => match kind {
            "COL" => Resource::Attrib(AttribBinding::Color(color(n, false))),
            "FOGC" | "FOG" => Resource::Attrib(AttribBinding::FogCoord),
            "TEX" => Resource::Attrib(AttribBinding::TexCoord(n0)),
            "ATTR" => Resource::Attrib(AttribBinding::Generic(n0)),
            "CLP" => Resource::Attrib(AttribBinding::Clip(n0)),
            _ => Resource::None,
        },
        _ => Resource::None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOURCE: &str = "!!NVfp4.0\n# cgc version 2.2.0017\n#profile gp4fp\n#program main\n#semantic main.lightColor\n#var float3 lightColor :  : c[5] : 6 : 1\n#var float4x4 mvp :  : c[0], 4 : 3 : 1\n#var float3 unused :  :  : 4 : 0\n#var float4 texCoord : $vin.TEXCOORD0 : TEX0 : 0 : 1\n#var sampler2D decal :  : texunit 2 : 1 : 1\n#var float4 color : $vout.COLOR : COL : -1 : 1\n#var float4 gl_FragColor : $vout.COLOR : COL0[0] : -1 : 1\nEND\n";

    #[test]
    fn the_lines_searched_are_the_lines_with_a_hash() {
        for source in [
            SOURCE,
            "",
            "#",
            "#a\r\n#b\r\nc\r\n",
            "MOV r0, c; # two # hashes\n\n  #var x\n#\n#\n",
            "no hash\nat all",
            "\n\n#end without newline",
        ] {
            let lines: Vec<&str> = source.lines().filter(|l| l.contains('#')).collect();
            assert_eq!(
                lines_with_hash(source).collect::<Vec<_>>(),
                lines,
                "{source:?}"
            );
        }
    }

    #[test]
    fn var_lines_are_split_into_their_fields() {
        let cg = parse(SOURCE).expect("Cg comments");
        assert_eq!(cg.profile.as_deref(), Some("gp4fp"));
        assert_eq!(cg.program.as_deref(), Some("main"));
        assert_eq!(cg.semantics, vec!["main.lightColor"]);
        assert_eq!(cg.vars.len(), 7);
        let v = &cg.vars[0];
        assert_eq!(
            (v.ty.as_str(), v.name.as_str(), v.resource.as_str()),
            ("float3", "lightColor", "c[5]")
        );
        assert_eq!((v.parameter_number, v.referenced), (Some(6), true));
        assert!(!cg.vars[2].referenced);
        assert_eq!(cg.vars[5].parameter_number, Some(-1));
    }

    #[test]
    fn resources_name_bindings() {
        let cg = parse(SOURCE).unwrap();
        let r: Vec<Resource> = cg
            .vars
            .iter()
            .map(|v| v.resource(Stage::Fragment))
            .collect();
        assert_eq!(
            r[0],
            Resource::Param {
                array: "c".into(),
                first: Some(5),
                count: 1
            }
        );
        assert_eq!(
            r[1],
            Resource::Param {
                array: "c".into(),
                first: Some(0),
                count: 4
            }
        );
        assert_eq!(r[2], Resource::None);
        assert_eq!(r[3], Resource::Attrib(AttribBinding::TexCoord(0)));
        assert_eq!(r[4], Resource::TexUnit(2));
        assert_eq!(r[5], Resource::Result(ResultBinding::FragColor(0)));
        assert_eq!(r[6], Resource::Result(ResultBinding::FragColor(0)));
    }

    #[test]
    fn geometry_inputs_name_their_vertex() {
        let var = |semantic: &str, resource: &str| CgVar {
            ty: "float4".into(),
            name: "x".into(),
            semantic: semantic.into(),
            resource: resource.into(),
            parameter_number: Some(0),
            referenced: true,
        };
        let g = Stage::Geometry;
        let per_vertex = |m, binding| {
            Resource::Attrib(AttribBinding::PerVertex {
                vertex: Some(m),
                binding,
            })
        };
        // As cgc 3.1 writes them for gp4gp (tests/fixtures/cg/gp4gp/).
        assert_eq!(
            var("$vin.VERTEX[2].POSITION", "HPOS[2][32]").resource(g),
            per_vertex(2, PerVertexAttrib::Position)
        );
        assert_eq!(
            var("$vin.VERTEX[0].COLOR0", "COL0[0][33]").resource(g),
            per_vertex(
                0,
                PerVertexAttrib::Color(ColorSel {
                    back: false,
                    secondary: false
                })
            )
        );
        assert_eq!(
            var("$vin.VERTEX[1].TEXCOORD1", "TEX1[1][38]").resource(g),
            per_vertex(1, PerVertexAttrib::TexCoord(1))
        );
        // A GLSL `in` array: `vColor[0]`.
        assert_eq!(
            var("$vin.ATTR0[0][0]", "ATTR0[0][0]").resource(g),
            per_vertex(0, PerVertexAttrib::Generic(0))
        );
        assert_eq!(
            var("$vout.POSITION", "HPOS").resource(g),
            Resource::Result(ResultBinding::Position)
        );
    }

    #[test]
    fn vertex_registers() {
        let var = |semantic: &str, resource: &str| CgVar {
            ty: "float4".into(),
            name: "x".into(),
            semantic: semantic.into(),
            resource: resource.into(),
            parameter_number: Some(0),
            referenced: true,
        };
        let v = Stage::Vertex;
        assert_eq!(
            var("$vin.POSITION", "ATTR0").resource(v),
            Resource::Attrib(AttribBinding::Generic(0))
        );
        assert_eq!(
            var("$vout.POSITION", "HPOS").resource(v),
            Resource::Result(ResultBinding::Position)
        );
        assert_eq!(
            var("$vout.COLOR1", "COL1").resource(v),
            Resource::Result(ResultBinding::Color(ColorSel {
                back: false,
                secondary: true
            }))
        );
        assert_eq!(
            var("$vout.ATTR2", "ATTR2").resource(v),
            Resource::Result(ResultBinding::Generic(2))
        );
        assert_eq!(
            var("$vin.INSTANCEID", "INSTANCEID").resource(v),
            Resource::Attrib(AttribBinding::InstanceId)
        );
        assert_eq!(
            var("$vin.VERTEXID", "VERTEXID").resource(v),
            Resource::Attrib(AttribBinding::VertexId)
        );
        // arbvp1/vp40 name conventional attributes by semantic.
        assert_eq!(
            var("$vin.POSITION", "POSITION").resource(v),
            Resource::Attrib(AttribBinding::Position)
        );
        assert_eq!(
            var("$vin.TEXCOORD1", "TEXCOORD1").resource(v),
            Resource::Attrib(AttribBinding::TexCoord(1))
        );
        assert_eq!(
            var("$vin.COLOR0", "COLOR0").resource(v),
            Resource::Attrib(AttribBinding::Color(ColorSel {
                back: false,
                secondary: false
            }))
        );
        assert_eq!(
            var("$vin.NORMAL", "NORMAL").resource(v),
            Resource::Attrib(AttribBinding::Normal)
        );
    }
}
