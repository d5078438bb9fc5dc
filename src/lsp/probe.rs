//! Where a binding lives in the compiled module, for hovers: nvp4c asks its
//! own back end. A probe is a tiny program of the document's type (its
//! header and `OPTION`s) that reads or writes just that binding; it is
//! compiled without validation and its reflection (which reads the module's
//! Locations, built-ins, sets, bindings and offsets, docs/reflection.md)
//! says where the binding went. So the hover is exactly what the back end
//! does with the options in force, with no second table of Locations or
//! bindings to keep in step with `spirv::interface`.
//!
//! Probes are small (a few statements), so one costs well under a
//! millisecond; the server keeps their answers.

use std::collections::HashMap;

use crate::check::bindings::Binding;
use crate::interp::{attribute_name, result_name, state_name};
use crate::ir::ParamBinding;
use crate::isa::Stage;
use crate::reflect::{ComponentType, InterfaceVariable, Interpolation, Reflection};
use crate::Options;

/// Probes for one document type, with their answers kept.
pub struct Prober {
    stage: Stage,
    /// The header line and the `OPTION` statements of the document.
    prelude: String,
    options: Options,
    cache: HashMap<String, Option<Reflection>>,
}

impl Prober {
    /// Probes programs that start with `prelude` (the document's header and
    /// options).
    pub fn new(stage: Stage, prelude: String, options: &Options) -> Prober {
        let mut options = options.clone();
        options.validate = false;
        options.optimize = false;
        Prober {
            stage,
            prelude,
            options,
            cache: HashMap::new(),
        }
    }

    /// The reflection of a probe whose body is `body`, or `None` when the
    /// probe does not compile (a binding the back end does not lower).
    fn reflect(&mut self, body: &str) -> Option<&Reflection> {
        // A geometry program needs its three declarations; six input
        // vertices admit every `vertex[m]` (the Locations do not depend on
        // the primitive type).
        let geometry = match self.stage {
            Stage::Geometry => {
                "PRIMITIVE_IN TRIANGLES_ADJACENCY;\nPRIMITIVE_OUT POINTS;\nVERTICES_OUT 1;\n"
            }
            Stage::TessControl => "VERTICES_OUT 3;\n",
            Stage::TessEval => "TESS_MODE TRIANGLES;\n",
            Stage::Compute => "GROUP_SIZE 1;\nTEMP probe_read;\n",
            _ => "",
        };
        let emit = if self.stage == Stage::Geometry {
            "EMIT;\n"
        } else {
            ""
        };
        let source = format!("{}\n{geometry}{body}{emit}END\n", self.prelude);
        let options = &self.options;
        self.cache
            .entry(source)
            .or_insert_with_key(|source| crate::compile(source, options).ok().map(|c| c.reflection))
            .as_ref()
    }

    /// A statement that reads `operand` into a result the probe does not
    /// ask about.
    fn read(&self, operand: &str) -> String {
        match self.stage {
            Stage::Fragment => format!("MOV result.color, {operand};\n"),
            Stage::Vertex | Stage::Geometry | Stage::TessControl | Stage::TessEval => {
                format!("MOV result.position, {operand};\n")
            }
            // A compute program has no results; the probe's reads stay unused.
            Stage::Compute => format!("MOV probe_read, {operand};\n"),
        }
    }

    /// Markdown lines saying where the decoded binding lives, for each of
    /// its first and last elements (a range in a declaration).
    pub fn describe(&mut self, binding: &Binding, texture_target: Option<&str>) -> Vec<String> {
        let stage = self.stage;
        match binding {
            Binding::Attrib(list) => ends(list)
                .into_iter()
                .filter_map(|b| {
                    let name = attribute_name(stage, b);
                    let body = self.read(&name);
                    let r = self.reflect(&body)?;
                    let var = pick(&r.inputs, &name)?;
                    Some(format!("`{name}` → input {}", variable(var)))
                })
                .collect(),
            Binding::Result(list) => ends(list)
                .into_iter()
                .filter_map(|b| {
                    let name = result_name(b);
                    let r = self.reflect(&format!("MOV {name}, 0;\n"))?;
                    let var = pick(&r.outputs, &name)?;
                    Some(format!("`{name}` → output {}", variable(var)))
                })
                .collect(),
            Binding::Param(list) => ends(list)
                .into_iter()
                .filter_map(|p| {
                    let name = match p {
                        ParamBinding::Env(n) => format!("program.env[{n}]"),
                        ParamBinding::Local(n) => format!("program.local[{n}]"),
                        ParamBinding::State(item) => state_name(item),
                        _ => return None,
                    };
                    let body = self.read(&name);
                    let r = self.reflect(&body)?;
                    let (block, param) = r.uniform_blocks.iter().find_map(|b| {
                        b.parameters
                            .iter()
                            .find(|p| p.binding == name)
                            .map(|p| (b, p))
                    })?;
                    Some(format!(
                        "`{name}` → uniform block `{}` (set {}, binding {}), byte offset {}, 16 bytes",
                        block.name, block.set, block.binding, param.offset
                    ))
                })
                .collect(),
            // A range `program.buffer[a..b]` is a block per binding point
            // (docs/interface.md, "Ranges of parameter buffers").
            Binding::Buffer { buffer, last, .. } => (*buffer..=*last)
                .flat_map(|buffer| {
                    let body = format!(
                        "BUFFER4 probe[] = {{ program.buffer[{buffer}] }};\n{}",
                        self.read("probe[0]")
                    );
                    let blocks = self.reflect(&body).map(|r| &r.uniform_blocks);
                    let lines: Vec<String> = blocks.into_iter().flatten().map(|b| {
                        format!(
                            "`program.buffer[{buffer}]` → uniform block `{}` (set {}, binding {}); word w at byte offset 4·w",
                            b.name, b.set, b.binding
                        )
                    }).collect();
                    lines
                })
                .collect(),
            Binding::Texture(unit) => {
                let target = texture_target.unwrap_or("2D");
                let coordinate = match stage {
                    Stage::Fragment => "fragment.texcoord[0]",
                    Stage::Vertex => "vertex.position",
                    Stage::Geometry | Stage::TessControl | Stage::TessEval => "vertex[0].position",
                    Stage::Compute => "invocation.globalid",
                };
                let (op, coordinate) = if target == "BUFFER" {
                    ("TXF", "{0, 0, 0, 0}")
                } else {
                    ("TEX", coordinate)
                };
                let destination = match stage {
                    Stage::Fragment => "result.color",
                    _ => "result.position",
                };
                let body =
                    format!("{op} {destination}, {coordinate}, texture[{unit}], {target};\n");
                let Some(r) = self.reflect(&body) else {
                    return Vec::new();
                };
                r.textures
                    .iter()
                    .map(|t| {
                        let kind = if target == "BUFFER" {
                            "uniform texel buffer"
                        } else {
                            "combined image sampler"
                        };
                        format!(
                            "`texture[{unit}]`, {target} → {kind} `{}` (set {}, binding {})",
                            t.ty, t.set, t.binding
                        )
                    })
                    .collect()
            }
        }
    }

    /// What the program type becomes in SPIR-V: the execution model and
    /// modes of an empty program of the type.
    pub fn entry_point(&mut self) -> Option<String> {
        let body = match self.stage {
            Stage::Fragment => "MOV result.color, 0;\n",
            _ => "MOV result.position, 0;\n",
        };
        let r = self.reflect(body)?;
        let e = &r.entry_point;
        let mut text = format!("SPIR-V `{:?}` entry point `{}`", e.execution_model, e.name);
        if !e.execution_modes.is_empty() {
            let modes: Vec<String> = e.execution_modes.iter().map(|m| format!("`{m}`")).collect();
            text.push_str(&format!(", execution modes {}", modes.join(", ")));
        }
        Some(text)
    }
}

/// The first and (if different) the last element of a list of bindings.
fn ends<T>(list: &[T]) -> Vec<&T> {
    match list {
        [] => Vec::new(),
        [one] => vec![one],
        [first, .., last] => vec![first, last],
    }
}

/// The interface variable carrying `name` (the probe's only one otherwise).
fn pick<'r>(vars: &'r [InterfaceVariable], name: &str) -> Option<&'r InterfaceVariable> {
    vars.iter()
        .find(|v| v.bindings.iter().any(|b| b == name))
        .or(match vars {
            [only] => Some(only),
            _ => None,
        })
}

/// `Location 5, vec4, smooth` / `built-in FragCoord, vec4`.
fn variable(v: &InterfaceVariable) -> String {
    let slot = match (v.location, &v.built_in) {
        (Some(l), _) => format!("`Location {l}`"),
        (None, Some(b)) => format!("built-in `{b:?}`"),
        (None, None) => "(no slot)".to_string(),
    };
    let scalar = match v.component_type {
        ComponentType::Float => "float",
        ComponentType::Int => "int",
        ComponentType::Uint => "uint",
        ComponentType::Bool => "bool",
    };
    let mut ty = if v.components == 1 {
        scalar.to_string()
    } else {
        let prefix = match v.component_type {
            ComponentType::Float => "",
            ComponentType::Int => "i",
            ComponentType::Uint => "u",
            ComponentType::Bool => "b",
        };
        format!("{prefix}vec{}", v.components)
    };
    if let Some(n) = v.array_length {
        ty.push_str(&format!("[{n}]"));
    }
    let mut text = format!("{slot}, `{ty}`");
    match v.interpolation {
        Some(Interpolation::Flat) => text.push_str(", flat"),
        Some(Interpolation::NoPerspective) => text.push_str(", noperspective"),
        Some(Interpolation::Smooth) => text.push_str(", smooth"),
        None => {}
    }
    if v.centroid {
        text.push_str(", centroid");
    }
    text
}
