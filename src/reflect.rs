//! Reflection: what a compiled module expects from the renderer — its
//! entry point, uniform blocks with member offsets, texture units, inputs
//! and outputs with their Locations, the geometry layout, and the limits the
//! program uses — with the program's own names and, for Cg output, the Cg
//! names. The JSON form (`--reflect out.json`) is documented in
//! docs/reflection.md.
//!
//! The facts are read from the SPIR-V module itself, so they are exactly
//! what it declares; the program's IR and source add the names.
//!
//! ```
//! let source = "!!NVfp4.0\n#var float4 tint :  : c[0] : 1 : 1\nPARAM c[1] = { program.local[3] };\nMUL result.color, fragment.texcoord[0], c[0];\nEND\n";
//! let compiled = nvp4c::compile(source, &nvp4c::Options::default()).unwrap();
//! let reflection = &compiled.reflection;
//! let local = &reflection.uniform_blocks[0];
//! assert_eq!((local.binding_name.as_str(), local.set, local.binding), ("program.local", 2, 1));
//! let tint = &local.parameters[0];
//! assert_eq!((tint.element, tint.offset), (3, 48));
//! assert_eq!(tint.cg[0].name, "tint");
//! assert_eq!(reflection.inputs[0].location, Some(5)); // fragment.texcoord[0]
//! ```

mod cg;
mod module;

use std::collections::{BTreeMap, BTreeSet, HashSet};

use rspirv::spirv::{Decoration, StorageClass, Word};
use serde::Serialize;

use crate::ir::{
    AttribBinding, ColorSel, ParamBinding, PerVertexAttrib, PrimitiveIn, PrimitiveOut, Program,
    ResultBinding, Stmt, VarKind,
};
use crate::isa::Stage;
use crate::spirv::{
    attrib_slot, result_slot, state_read, InterfaceSlot, FIRST_BUFFER_BINDING, STATE_BINDING,
};
use cg::{CgComments, Resource};
use module::{ModuleFacts, Ty};

/// Everything a renderer needs to bind a compiled module.
///
/// ```
/// # let r = nvp4c::compile("!!NVfp4.0\nMUL result.color, fragment.texcoord[0], program.local[2];\nEND\n", &nvp4c::Options::default()).unwrap().reflection;
/// assert_eq!(r.stage, nvp4c::Stage::Fragment);
/// assert_eq!(r.uniform_blocks.len(), 1);
/// let json = serde_json::to_value(&r).unwrap();
/// assert_eq!(json["inputs"][0]["location"], 5);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Reflection {
    /// The program type.
    pub stage: Stage,
    /// The entry point (`main`) and its execution modes.
    pub entry_point: EntryPoint,
    /// Uniform blocks (`program.env`, `program.local`, GL state, parameter
    /// buffers), by set and binding.
    pub uniform_blocks: Vec<UniformBlock>,
    /// Texture units the module declares (combined image samplers), by unit.
    pub textures: Vec<TextureUnit>,
    /// Inputs by Location, then built-ins.
    pub inputs: Vec<InterfaceVariable>,
    /// Outputs by Location, then built-ins.
    pub outputs: Vec<InterfaceVariable>,
    /// Geometry programs only.
    pub geometry: Option<GeometryLayout>,
    /// How much of each implementation-dependent limit the program uses.
    pub limits: LimitsUsed,
    /// The Cg header comments, when the program is Cg output.
    pub cg: Option<CgProgram>,
    /// A Direct3D 9 shader's version, constant table, registers and
    /// samplers (docs/reflection.md, "Direct3D 9"); `None` otherwise.
    pub d3d9: Option<crate::front::d3d9::reflect::D3d9Reflection>,
}

/// The entry point and its execution modes.
///
/// ```
/// # let r = nvp4c::compile("!!NVfp4.0\nMUL result.color, fragment.texcoord[0], program.local[2];\nEND\n", &nvp4c::Options::default()).unwrap().reflection;
/// assert_eq!(r.entry_point.name, "main");
/// assert_eq!(r.entry_point.execution_modes, ["OriginUpperLeft"]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct EntryPoint {
    /// Always `main`.
    pub name: String,
    /// `Vertex`, `Fragment` or `Geometry`.
    pub execution_model: String,
    /// E.g. `OriginUpperLeft`, `DepthReplacing`, `OutputVertices 4`.
    pub execution_modes: Vec<String>,
}

/// A uniform block (docs/interface.md, "Descriptor sets").
///
/// ```
/// # let r = nvp4c::compile("!!NVfp4.0\nMUL result.color, fragment.texcoord[0], program.local[2];\nEND\n", &nvp4c::Options::default()).unwrap().reflection;
/// let b = &r.uniform_blocks[0];
/// assert_eq!((b.binding_name.as_str(), b.set, b.binding, b.size), ("program.local", 2, 1, 48));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct UniformBlock {
    /// The block type's name in the module, e.g. `ProgramLocal`.
    pub name: String,
    /// What the block holds: `program.env`, `program.local`, `state`,
    /// `program.buffer[b]`.
    pub binding_name: String,
    /// The descriptor set.
    pub set: u32,
    /// The binding in the set.
    pub binding: u32,
    /// Bytes the shader can read: the end of the last member.
    pub size: u32,
    /// The block's members as the module declares them.
    pub members: Vec<BlockMember>,
    /// The program's parameters in this block: each element some PARAM
    /// (or a direct binding) reads, with its byte offset.
    pub parameters: Vec<BlockParameter>,
}

/// One member of a uniform block.
///
/// ```
/// # let r = nvp4c::compile("!!NVfp4.0\nMUL result.color, fragment.texcoord[0], program.local[2];\nEND\n", &nvp4c::Options::default()).unwrap().reflection;
/// let m = &r.uniform_blocks[0].members[0];
/// assert_eq!((m.ty.as_str(), m.array_stride), ("uvec4[3]", Some(16)));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct BlockMember {
    /// The member's name in the module, e.g. `param`.
    pub name: String,
    /// Byte offset in the block.
    pub offset: u32,
    /// GLSL-like type, e.g. `uvec4[4]`.
    #[serde(rename = "type")]
    pub ty: String,
    /// Size in bytes.
    pub size: u32,
    /// For arrays: the element count and the byte stride.
    pub array_length: Option<u32>,
    /// The byte stride between array elements, for arrays.
    pub array_stride: Option<u32>,
}

/// One vec4 element of a parameter block, and who reads it.
///
/// ```
/// # let r = nvp4c::compile("!!NVfp4.0\nMUL result.color, fragment.texcoord[0], program.local[2];\nEND\n", &nvp4c::Options::default()).unwrap().reflection;
/// let p = &r.uniform_blocks[0].parameters[0];
/// assert_eq!((p.binding.as_str(), p.element, p.offset), ("program.local[2]", 2, 32));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct BlockParameter {
    /// The binding, e.g. `program.local[5]`.
    pub binding: String,
    /// The element index in the block's array.
    pub element: u32,
    /// Byte offset in the block.
    pub offset: u32,
    /// Program names bound to it, e.g. `c[5]`, `mvp[1]`; empty for a
    /// binding used directly in an instruction.
    pub names: Vec<String>,
    /// Cg parameters stored here.
    pub cg: Vec<CgName>,
}

/// A texture unit: a combined image sampler (or, for the BUFFER target, a
/// uniform texel buffer), docs/interface.md "Textures".
///
/// ```
/// let source = "!!NVfp4.0\n#var sampler2D decal :  : texunit 3 : 1 : 1\nTEX result.color, fragment.texcoord[0], texture[3], 2D;\nEND\n";
/// let r = nvp4c::compile(source, &nvp4c::Options::default()).unwrap().reflection;
/// let t = &r.textures[0];
/// assert_eq!((t.unit, t.target.as_deref(), t.set, t.binding), (3, Some("2D"), 2, 35));
/// assert_eq!((t.ty.as_str(), t.sampled_type), ("sampler2D", Some(nvp4c::reflect::ComponentType::Float)));
/// assert_eq!(t.cg[0].name, "decal");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct TextureUnit {
    /// The `texture[n]` unit.
    pub unit: u32,
    /// The target the program uses it with, e.g. `2D`, `SHADOWCUBE`.
    pub target: Option<String>,
    /// The descriptor set.
    pub set: u32,
    /// The binding: 32 + `unit`.
    pub binding: u32,
    /// The SPIR-V type, e.g. `sampler2D`, `usampler2DArray`.
    #[serde(rename = "type")]
    pub ty: String,
    /// The component type of the sampled values.
    pub sampled_type: Option<ComponentType>,
    /// Cg samplers bound to this unit (`texunit n`).
    pub cg: Vec<CgName>,
}

/// An input or output of the module.
///
/// ```
/// # let r = nvp4c::compile("!!NVfp4.0\nMUL result.color, fragment.texcoord[0], program.local[2];\nEND\n", &nvp4c::Options::default()).unwrap().reflection;
/// let input = &r.inputs[0];
/// assert_eq!(input.bindings, ["fragment.texcoord[0]"]);
/// assert_eq!(input.interpolation, Some(nvp4c::reflect::Interpolation::Smooth));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct InterfaceVariable {
    /// The Location, for a user-defined input or output.
    pub location: Option<u32>,
    /// The SPIR-V built-in, e.g. `Position`, `FragCoord`.
    pub built_in: Option<String>,
    /// The type of each component.
    pub component_type: ComponentType,
    /// 1 to 4.
    pub components: u32,
    /// For arrays (ClipDistance).
    pub array_length: Option<u32>,
    /// How a varying (a vertex or geometry output, a geometry or fragment
    /// input) is interpolated; `None` for built-ins, vertex inputs and
    /// fragment outputs.
    pub interpolation: Option<Interpolation>,
    /// Interpolated at the centroid (`CENTROID`).
    pub centroid: bool,
    /// The program bindings at this slot, e.g. `vertex.texcoord[0]`,
    /// `result.color`.
    pub bindings: Vec<String>,
    /// Program names (ATTRIB / OUTPUT) bound to it.
    pub names: Vec<String>,
    /// Cg variables at this slot.
    pub cg: Vec<CgName>,
}

/// A component type.
///
/// ```
/// # let r = nvp4c::compile("!!NVfp4.0\nMUL result.color, fragment.texcoord[0], program.local[2];\nEND\n", &nvp4c::Options::default()).unwrap().reflection;
/// assert_eq!(r.outputs[0].component_type, nvp4c::reflect::ComponentType::Float);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ComponentType {
    /// 32-bit float.
    Float,
    /// 32-bit signed integer.
    Int,
    /// 32-bit unsigned integer.
    Uint,
    /// Boolean (`FrontFacing`).
    Bool,
}

impl ComponentType {
    fn glsl_name(self) -> &'static str {
        match self {
            ComponentType::Float => "float",
            ComponentType::Int => "int",
            ComponentType::Uint => "uint",
            ComponentType::Bool => "bool",
        }
    }
}

/// Interpolation of a varying.
///
/// ```
/// # let r = nvp4c::compile("!!NVfp4.0\nMUL result.color, fragment.texcoord[0], program.local[2];\nEND\n", &nvp4c::Options::default()).unwrap().reflection;
/// assert_eq!(r.outputs[0].interpolation, None); // a fragment output
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Interpolation {
    /// Perspective-correct (the default).
    Smooth,
    /// Not interpolated: the provoking vertex's value (`FLAT`).
    Flat,
    /// Linear in screen space (`NOPERSPECTIVE`).
    NoPerspective,
}

/// The geometry program's declarations, as written in the program.
///
/// ```
/// # let r = nvp4c::compile("!!NVfp4.0\nMUL result.color, fragment.texcoord[0], program.local[2];\nEND\n", &nvp4c::Options::default()).unwrap().reflection;
/// assert!(r.geometry.is_none()); // a fragment program
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct GeometryLayout {
    /// `POINTS`, `LINES`, `LINES_ADJACENCY`, `TRIANGLES`, `TRIANGLES_ADJACENCY`.
    pub input: String,
    /// Vertices per input primitive.
    pub input_vertices: u32,
    /// `POINTS`, `LINE_STRIP`, `TRIANGLE_STRIP`.
    pub output: String,
    /// `VERTICES_OUT`: the most vertices one invocation emits.
    pub vertices_out: u32,
}

/// The implementation-dependent limits (docs/limits.md) the program uses.
///
/// ```
/// # let r = nvp4c::compile("!!NVfp4.0\nMUL result.color, fragment.texcoord[0], program.local[2];\nEND\n", &nvp4c::Options::default()).unwrap().reflection;
/// assert_eq!((r.limits.instructions, r.limits.local_parameters), (1, 3));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct LimitsUsed {
    /// Instructions as written: each IF, ELSE (with a non-empty block),
    /// ENDIF, REP and ENDREP counts.
    pub instructions: u32,
    /// vec4 temporaries (array elements counted).
    pub temporaries: u32,
    /// vec4 parameters (array elements and direct bindings counted).
    pub parameters: u32,
    /// Distinct attribute bindings.
    pub attribs: u32,
    /// One more than the highest `program.env` element (0 when unused).
    pub env_parameters: u32,
    /// One more than the highest `program.local` element (0 when unused).
    pub local_parameters: u32,
    /// Distinct texture units.
    pub texture_units: u32,
    /// Deepest IF nesting (1 for an IF in no other).
    pub if_depth: u32,
    /// Deepest REP nesting.
    pub loop_depth: u32,
    /// Subroutines, counting the unlabelled start of the program.
    pub subroutines: u32,
}

/// The Cg compiler's header comments.
///
/// ```
/// # let r = nvp4c::compile("!!NVfp4.0\nMUL result.color, fragment.texcoord[0], program.local[2];\nEND\n", &nvp4c::Options::default()).unwrap().reflection;
/// assert!(r.cg.is_none()); // no Cg comments in this program
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct CgProgram {
    /// `#profile`, e.g. `gp4fp`.
    pub profile: Option<String>,
    /// `#program`: the Cg entry function.
    pub program: Option<String>,
    /// `#semantic` lines, as written.
    pub semantics: Vec<String>,
    /// Every `#var` line.
    pub variables: Vec<CgVariable>,
}

/// One `#var` line and what it resolved to.
///
/// ```
/// # let r = nvp4c::compile("!!NVfp4.0\n#var float4 tint :  : c[0] : 1 : 1\nPARAM c[1] = { program.local[4] };\nMOV result.color, c[0];\nEND\n", &nvp4c::Options::default()).unwrap().reflection;
/// let tint = &r.cg.as_ref().unwrap().variables[0];
/// assert_eq!((tint.name.as_str(), tint.resource.as_str()), ("tint", "c[0]"));
/// assert_eq!(tint.bound_to, ["program.local[4]"]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct CgVariable {
    /// The Cg name, e.g. `lightColor`, `IN.texCoord`.
    pub name: String,
    /// The Cg type, e.g. `float3`, `float4x4`, `sampler2D`.
    #[serde(rename = "type")]
    pub ty: String,
    /// E.g. `$vin.TEXCOORD0`; empty for uniforms.
    pub semantic: String,
    /// E.g. `c[5]`, `c[0], 4`, `texunit 0`, `TEX0`; empty when unused.
    pub resource: String,
    /// The fourth field: Cg's parameter number.
    pub parameter_number: Option<i64>,
    /// The fifth field: whether the program uses it.
    pub referenced: bool,
    /// The program bindings it resolved to, e.g. `program.local[5]`,
    /// `texture[0]`, `fragment.texcoord[0]` (one per element of a matrix).
    pub bound_to: Vec<String>,
}

/// A Cg name attached to a parameter, texture unit or varying.
///
/// ```
/// # let r = nvp4c::compile("!!NVfp4.0\n#var float4 tint :  : c[0] : 1 : 1\nPARAM c[1] = { program.local[4] };\nMOV result.color, c[0];\nEND\n", &nvp4c::Options::default()).unwrap().reflection;
/// let p = &r.uniform_blocks[0].parameters[0];
/// assert_eq!((p.cg[0].name.as_str(), p.cg[0].ty.as_str(), p.offset), ("tint", "float4", 64));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct CgName {
    /// The Cg name.
    pub name: String,
    /// The Cg type, e.g. `float4x4`.
    #[serde(rename = "type")]
    pub ty: String,
    /// For a parameter spanning several elements (a matrix): which row
    /// this element holds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub row: Option<u32>,
}

/// Reflects a module compiled from `program` (whose text is `source`).
/// [`crate::compile`] calls this; the error is an internal one (the module
/// could not be read back).
///
/// ```
/// let source = "!!NVvp4.0\nMOV result.position, vertex.position;\nEND\n";
/// let (program, _) = nvp4c::check(source, &nvp4c::Options::default()).unwrap();
/// let spirv = nvp4c::spirv::lower(&program, &nvp4c::Options::default()).unwrap();
/// let reflection = nvp4c::reflect::reflect(&program, &spirv, source).unwrap();
/// assert_eq!(reflection.inputs[0].location, Some(0));
/// assert_eq!(reflection.outputs[0].built_in.as_deref(), Some("Position"));
/// ```
pub fn reflect(program: &Program, spirv: &[u32], source: &str) -> Result<Reflection, String> {
    let facts = ModuleFacts::load(spirv)?;
    let cg = cg::parse(source);
    let resolved = resolve_cg(program, cg.as_ref());
    let mut uniform_blocks = Vec::new();
    let mut textures = Vec::new();
    let mut inputs = Vec::new();
    let mut outputs = Vec::new();
    let units = texture_targets(program);
    for var in facts.globals() {
        match var.class {
            StorageClass::Uniform | StorageClass::StorageBuffer => {
                if let Some(block) = uniform_block(&facts, &var, program, &resolved) {
                    uniform_blocks.push(block);
                }
            }
            StorageClass::UniformConstant => {
                if let Some(t) = texture_unit(&facts, &var, &units, &resolved) {
                    textures.push(t);
                }
            }
            StorageClass::Input => {
                inputs.extend(interface_variables(&facts, &var, program, &resolved, false))
            }
            StorageClass::Output => {
                outputs.extend(interface_variables(&facts, &var, program, &resolved, true))
            }
            _ => {}
        }
    }
    uniform_blocks.sort_by_key(|b| (b.set, b.binding));
    textures.sort_by_key(|t| t.unit);
    let slot_order = |v: &InterfaceVariable| (v.location.is_none(), v.location, v.built_in.clone());
    inputs.sort_by_key(slot_order);
    outputs.sort_by_key(slot_order);
    Ok(Reflection {
        stage: program.stage,
        entry_point: entry_point(&facts),
        uniform_blocks,
        textures,
        inputs,
        outputs,
        geometry: program.geometry.map(|g| GeometryLayout {
            input: match g.input {
                PrimitiveIn::Points => "POINTS",
                PrimitiveIn::Lines => "LINES",
                PrimitiveIn::LinesAdjacency => "LINES_ADJACENCY",
                PrimitiveIn::Triangles => "TRIANGLES",
                PrimitiveIn::TrianglesAdjacency => "TRIANGLES_ADJACENCY",
            }
            .to_string(),
            input_vertices: g.input.vertex_count(),
            output: match g.output {
                PrimitiveOut::Points => "POINTS",
                PrimitiveOut::LineStrip => "LINE_STRIP",
                PrimitiveOut::TriangleStrip => "TRIANGLE_STRIP",
            }
            .to_string(),
            vertices_out: g.vertices_out,
        }),
        limits: limits_used(program),
        cg: cg.map(|c| CgProgram {
            profile: c.profile,
            program: c.program,
            semantics: c.semantics,
            variables: c
                .vars
                .into_iter()
                .zip(&resolved)
                .map(|(v, r)| CgVariable {
                    bound_to: r
                        .targets
                        .iter()
                        .map(|(t, _)| t.text(program.stage))
                        .collect(),
                    name: v.name,
                    ty: v.ty,
                    semantic: v.semantic,
                    resource: v.resource,
                    parameter_number: v.parameter_number,
                    referenced: v.referenced,
                })
                .collect(),
        }),
        d3d9: None,
    })
}

fn entry_point(facts: &ModuleFacts) -> EntryPoint {
    use rspirv::dr::Operand;
    let module = &facts.module;
    let (execution_model, name) = module
        .entry_points
        .first()
        .map(|e| match e.operands.as_slice() {
            [Operand::ExecutionModel(m), _, Operand::LiteralString(n), ..] => {
                (format!("{m:?}"), n.clone())
            }
            _ => (String::new(), String::new()),
        })
        .unwrap_or_default();
    let execution_modes = module
        .execution_modes
        .iter()
        .filter_map(|m| match m.operands.as_slice() {
            [_, Operand::ExecutionMode(mode), rest @ ..] => {
                let mut text = format!("{mode:?}");
                for op in rest {
                    if let Operand::LiteralBit32(v) = op {
                        text.push_str(&format!(" {v}"));
                    }
                }
                Some(text)
            }
            _ => None,
        })
        .collect();
    EntryPoint {
        name,
        execution_model,
        execution_modes,
    }
}

/// A program binding a Cg variable or a reflected slot refers to.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Target {
    /// An element of a parameter block, by block binding (docs/interface.md).
    Block {
        binding: u32,
        element: u32,
    },
    /// A constant or GL state parameter.
    Other(String),
    Texture(u32),
    Attrib(AttribBinding),
    Result(ResultBinding),
}

/// Binding numbers of docs/interface.md, "Descriptor sets" (the backend's
/// constants where it has them).
const ENV_BINDING: u32 = 0;
const LOCAL_BINDING: u32 = 1;
const TEXTURE_BINDING_BASE: u32 = 32;

fn block_binding_name(binding: u32) -> String {
    match binding {
        ENV_BINDING => "program.env".to_string(),
        LOCAL_BINDING => "program.local".to_string(),
        STATE_BINDING => "state".to_string(),
        b if b < TEXTURE_BINDING_BASE => format!("program.buffer[{}]", b - FIRST_BUFFER_BINDING),
        b => format!("binding {b}"),
    }
}

/// Where one element of a PARAM lives.
fn param_target(binding: &ParamBinding) -> Target {
    match binding {
        ParamBinding::Env(n) => Target::Block {
            binding: ENV_BINDING,
            element: *n,
        },
        ParamBinding::Local(n) => Target::Block {
            binding: LOCAL_BINDING,
            element: *n,
        },
        ParamBinding::BufferElement { buffer, element } => Target::Block {
            binding: FIRST_BUFFER_BINDING + buffer,
            element: *element,
        },
        ParamBinding::State(item) => Target::Other(state_text(&item.path)),
        ParamBinding::Constant(_) => Target::Other("constant".to_string()),
    }
}

/// A state binding as written, from its canonical path:
/// `["matrix", "mvp", "row", "0"]` is `state.matrix.mvp.row[0]`.
fn state_text(path: &[String]) -> String {
    let mut text = String::from("state");
    for part in path {
        if part.bytes().all(|b| b.is_ascii_digit()) {
            text.push_str(&format!("[{part}]"));
        } else {
            text.push('.');
            text.push_str(part);
        }
    }
    text
}

impl Target {
    /// The binding as written in a program of type `stage`.
    fn text(&self, stage: Stage) -> String {
        match self {
            Target::Block { binding, element } => {
                format!("{}[{element}]", block_binding_name(*binding))
            }
            Target::Other(s) => s.clone(),
            Target::Texture(n) => format!("texture[{n}]"),
            Target::Attrib(b) => attrib_text(stage, b),
            Target::Result(b) => result_text(b),
        }
    }
}

/// A Cg variable's targets, each with its row (for multi-element ones).
struct ResolvedCg {
    name: String,
    ty: String,
    targets: Vec<(Target, Option<u32>)>,
}

impl ResolvedCg {
    fn names_for(list: &[ResolvedCg], wanted: impl Fn(&Target) -> bool) -> Vec<CgName> {
        let mut out = Vec::new();
        for r in list {
            for (t, row) in &r.targets {
                if wanted(t) {
                    out.push(CgName {
                        name: r.name.clone(),
                        ty: r.ty.clone(),
                        row: *row,
                    });
                }
            }
        }
        out
    }
}

fn resolve_cg(program: &Program, cg: Option<&CgComments>) -> Vec<ResolvedCg> {
    let Some(cg) = cg else {
        return Vec::new();
    };
    cg.vars
        .iter()
        .map(|v| {
            let mut targets = Vec::new();
            match v.resource(program.stage) {
                Resource::Param {
                    array,
                    first,
                    count,
                } => {
                    let bindings = program.variables.iter().find_map(|var| match &var.kind {
                        VarKind::Param(b) if var.name.as_deref() == Some(array.as_str()) => Some(b),
                        _ => None,
                    });
                    if let Some(bindings) = bindings {
                        let first = first.unwrap_or(0);
                        for row in 0..count {
                            if let Some(b) = bindings.get(first.saturating_add(row) as usize) {
                                targets.push((param_target(b), (count > 1).then_some(row)));
                            }
                        }
                    }
                }
                Resource::TexUnit(n) => targets.push((Target::Texture(n), None)),
                Resource::Attrib(b) => targets.push((Target::Attrib(b), None)),
                Resource::Result(b) => targets.push((Target::Result(b), None)),
                Resource::None => {}
            }
            ResolvedCg {
                name: v.name.clone(),
                ty: v.ty.clone(),
                targets,
            }
        })
        .collect()
}

fn uniform_block(
    facts: &ModuleFacts,
    var: &module::GlobalVar,
    program: &Program,
    cg: &[ResolvedCg],
) -> Option<UniformBlock> {
    let block = var.pointee;
    if !matches!(facts.ty(block), Ty::Struct(_)) {
        return None;
    }
    let set = facts.literal(var.id, Decoration::DescriptorSet)?;
    let binding = facts.literal(var.id, Decoration::Binding)?;
    let members: Vec<BlockMember> = facts
        .struct_members(block)
        .iter()
        .enumerate()
        .map(|(m, &ty)| {
            let m = m as u32;
            let (array_length, array_stride) = match facts.ty(ty) {
                Ty::Array(_, len) => (len, facts.literal(ty, Decoration::ArrayStride)),
                _ => (None, None),
            };
            BlockMember {
                name: facts
                    .member_name(block, m)
                    .map_or_else(|| format!("member{m}"), str::to_string),
                offset: facts
                    .member_literal(block, m, Decoration::Offset)
                    .unwrap_or(0),
                ty: facts.type_name(ty),
                size: facts.size(ty, facts.member_literal(block, m, Decoration::MatrixStride)),
                array_length,
                array_stride,
            }
        })
        .collect();
    // Parameter blocks are one array of vec4 (docs/interface.md); their
    // elements are the program's parameters.
    let mut parameters = Vec::new();
    if let [BlockMember {
        offset,
        array_length: Some(len),
        array_stride: Some(stride),
        ..
    }] = members.as_slice()
    {
        // Per element: the bindings that read it (their text and targets)
        // and the program names bound to it.
        #[derive(Default)]
        struct Element {
            bindings: BTreeSet<String>,
            targets: Vec<Target>,
            names: BTreeSet<String>,
        }
        let mut by_element: BTreeMap<u32, Element> = BTreeMap::new();
        let mut add = |element: u32, target: Target, name: Option<String>| {
            if element < *len {
                let e = by_element.entry(element).or_default();
                e.bindings.insert(target.text(program.stage));
                if !e.targets.contains(&target) {
                    e.targets.push(target);
                }
                e.names.extend(name);
            }
        };
        for v in &program.variables {
            let name = |k: usize| match (&v.name, v.array_len) {
                (Some(n), Some(_)) => Some(format!("{n}[{k}]")),
                (Some(n), None) => Some(n.clone()),
                (None, _) => None,
            };
            match &v.kind {
                VarKind::Param(bindings) => {
                    for (k, b) in bindings.iter().enumerate() {
                        match (param_target(b), b) {
                            (
                                Target::Block {
                                    binding: bb,
                                    element,
                                },
                                _,
                            ) if bb == binding => {
                                add(element, Target::Block { binding, element }, name(k))
                            }
                            // GL state: the rows the backend reads it from.
                            (target, ParamBinding::State(item)) if binding == STATE_BINDING => {
                                if let Ok(read) = state_read(&item.path) {
                                    for row in read.rows() {
                                        add(row, target.clone(), name(k));
                                    }
                                }
                            }
                            _ => {}
                        }
                    }
                }
                // BUFFER4 arrays: element `first + k` of the buffer.
                VarKind::Buffer(b)
                    if b.vec4 && FIRST_BUFFER_BINDING.checked_add(b.buffer) == Some(binding) =>
                {
                    for k in 0..v.len() {
                        let element = b.first.saturating_add(k);
                        add(
                            element,
                            Target::Block { binding, element },
                            name(k as usize),
                        );
                    }
                }
                _ => {}
            }
        }
        for (element, e) in by_element {
            parameters.push(BlockParameter {
                binding: e.bindings.into_iter().collect::<Vec<_>>().join(", "),
                element,
                offset: offset.saturating_add(stride.saturating_mul(element)),
                names: e.names.into_iter().collect(),
                cg: ResolvedCg::names_for(cg, |t| e.targets.contains(t)),
            });
        }
    }
    Some(UniformBlock {
        name: facts.name(block).unwrap_or("").to_string(),
        binding_name: block_binding_name(binding),
        set,
        binding,
        size: facts.size(block, None),
        members,
        parameters,
    })
}

/// The target each texture unit is used with.
fn texture_targets(program: &Program) -> BTreeMap<u32, String> {
    fn walk(block: &[Stmt], out: &mut BTreeMap<u32, String>) {
        for s in block {
            match s {
                Stmt::Inst(i) => {
                    if let Some(tex) = &i.tex {
                        out.insert(tex.unit, tex.target.name().to_string());
                    }
                }
                Stmt::If {
                    then_block,
                    else_block,
                    ..
                } => {
                    walk(then_block, out);
                    walk(else_block, out);
                }
                Stmt::Rep { body, .. } => walk(body, out),
                _ => {}
            }
        }
    }
    let mut out = BTreeMap::new();
    for sub in &program.subroutines {
        walk(&sub.body, &mut out);
    }
    out
}

fn texture_unit(
    facts: &ModuleFacts,
    var: &module::GlobalVar,
    targets: &BTreeMap<u32, String>,
    cg: &[ResolvedCg],
) -> Option<TextureUnit> {
    let ty = match facts.ty(var.pointee) {
        Ty::Array(e, _) => *e,
        t => t,
    };
    let sampled_type = match &ty {
        Ty::SampledImage(i) | Ty::Image(i) => i.sampled_type,
        _ => return None,
    };
    let set = facts.literal(var.id, Decoration::DescriptorSet)?;
    let binding = facts.literal(var.id, Decoration::Binding)?;
    let unit = binding.checked_sub(TEXTURE_BINDING_BASE)?;
    Some(TextureUnit {
        unit,
        target: targets.get(&unit).cloned(),
        set,
        binding,
        ty: facts.type_name(var.pointee),
        sampled_type,
        cg: ResolvedCg::names_for(cg, |t| *t == Target::Texture(unit)),
    })
}

fn interface_variables(
    facts: &ModuleFacts,
    var: &module::GlobalVar,
    program: &Program,
    cg: &[ResolvedCg],
    output: bool,
) -> Vec<InterfaceVariable> {
    // A block of built-ins (gl_PerVertex) gives one entry per member.
    if let Ty::Struct(s) = facts.ty(var.pointee) {
        return facts
            .struct_members(s)
            .iter()
            .enumerate()
            .filter_map(|(m, &ty)| {
                let builtin = facts.member_builtin(s, m as u32)?;
                Some(slot_variable(
                    facts,
                    ty,
                    None,
                    Some(builtin),
                    None,
                    program,
                    cg,
                    output,
                ))
            })
            .collect();
    }
    let location = facts.literal(var.id, Decoration::Location);
    let builtin = facts.builtin(var.id);
    if location.is_none() && builtin.is_none() {
        return Vec::new();
    }
    // Interpolation is a property of varyings: vertex and geometry outputs,
    // geometry and fragment inputs.
    let varying = match program.stage {
        Stage::Vertex => output,
        Stage::Fragment => !output,
        Stage::Geometry => true,
    };
    let interpolation = (builtin.is_none() && varying).then(|| {
        if facts.has(var.id, Decoration::Flat) {
            Interpolation::Flat
        } else if facts.has(var.id, Decoration::NoPerspective) {
            Interpolation::NoPerspective
        } else {
            Interpolation::Smooth
        }
    });
    let mut v = slot_variable(
        facts,
        var.pointee,
        location,
        builtin,
        interpolation,
        program,
        cg,
        output,
    );
    v.centroid = facts.has(var.id, Decoration::Centroid);
    vec![v]
}

#[allow(clippy::too_many_arguments)]
fn slot_variable(
    facts: &ModuleFacts,
    ty: Word,
    location: Option<u32>,
    builtin: Option<rspirv::spirv::BuiltIn>,
    interpolation: Option<Interpolation>,
    program: &Program,
    cg: &[ResolvedCg],
    output: bool,
) -> InterfaceVariable {
    let (component_type, components, array_length) = match facts.ty(ty) {
        Ty::Scalar(c) => (c, 1, None),
        Ty::Vector(c, n) => (c, n, None),
        Ty::Array(e, len) => match *e {
            Ty::Scalar(c) => (c, 1, len),
            Ty::Vector(c, n) => (c, n, len),
            _ => (ComponentType::Float, 0, len),
        },
        _ => (ComponentType::Float, 0, None),
    };
    let slot = match (location, builtin) {
        (Some(l), _) => Some(InterfaceSlot::Location(l)),
        (None, Some(b)) => Some(InterfaceSlot::BuiltIn(b)),
        _ => None,
    };
    let stage = program.stage;
    let mut bindings = BTreeSet::new();
    let mut names = BTreeSet::new();
    for v in &program.variables {
        let texts: Vec<String> = match &v.kind {
            VarKind::Attrib(list) if !output => list
                .iter()
                .filter(|b| slot.is_some() && attrib_slot(stage, b) == slot)
                .map(|b| attrib_text(stage, b))
                .collect(),
            VarKind::Result(list) if output => list
                .iter()
                .filter(|b| slot.is_some() && result_slot(stage, b) == slot)
                .map(result_text)
                .collect(),
            _ => continue,
        };
        if texts.is_empty() {
            continue;
        }
        if let Some(name) = &v.name {
            names.insert(name.clone());
        }
        bindings.extend(texts);
    }
    let cg = ResolvedCg::names_for(cg, |t| match t {
        Target::Attrib(b) if !output => slot.is_some() && attrib_slot(stage, b) == slot,
        Target::Result(b) if output => slot.is_some() && result_slot(stage, b) == slot,
        _ => false,
    });
    InterfaceVariable {
        location,
        built_in: builtin.map(|b| format!("{b:?}")),
        component_type,
        components,
        array_length,
        interpolation,
        centroid: false,
        bindings: bindings.into_iter().collect(),
        names: names.into_iter().collect(),
        cg,
    }
}

fn color_suffix(sel: ColorSel) -> String {
    format!(
        "{}{}",
        if sel.back { ".back" } else { "" },
        if sel.secondary { ".secondary" } else { "" }
    )
}

/// An attribute binding as written in a program of type `stage`.
fn attrib_text(stage: Stage, binding: &AttribBinding) -> String {
    use AttribBinding as A;
    let root = match stage {
        Stage::Vertex => "vertex",
        Stage::Fragment => "fragment",
        Stage::Geometry => "primitive",
    };
    match binding {
        A::Position => format!("{root}.position"),
        A::Weight(n) => format!("{root}.weight[{n}]"),
        A::Normal => format!("{root}.normal"),
        A::Color(sel) => format!("{root}.color{}", color_suffix(*sel)),
        A::FogCoord => format!("{root}.fogcoord"),
        A::TexCoord(n) => format!("{root}.texcoord[{n}]"),
        A::Generic(n) => format!("{root}.attrib[{n}]"),
        A::VertexId => "vertex.id".to_string(),
        A::InstanceId => "vertex.instance".to_string(),
        A::Facing => "fragment.facing".to_string(),
        A::Clip(n) => format!("{root}.clip[{n}]"),
        A::PointSize => format!("{root}.pointsize"),
        A::PrimitiveId => "primitive.id".to_string(),
        A::PerVertex { vertex, binding } => {
            let head = match vertex {
                Some(m) => format!("vertex[{m}]"),
                None => "vertex".to_string(),
            };
            let tail = match binding {
                PerVertexAttrib::Position => "position".to_string(),
                PerVertexAttrib::Color(sel) => format!("color{}", color_suffix(*sel)),
                PerVertexAttrib::FogCoord => "fogcoord".to_string(),
                PerVertexAttrib::PointSize => "pointsize".to_string(),
                PerVertexAttrib::TexCoord(n) => format!("texcoord[{n}]"),
                PerVertexAttrib::Clip(n) => format!("clip[{n}]"),
                PerVertexAttrib::Generic(n) => format!("attrib[{n}]"),
                PerVertexAttrib::Id => "id".to_string(),
            };
            format!("{head}.{tail}")
        }
    }
}

/// A result binding as written.
fn result_text(binding: &ResultBinding) -> String {
    use ResultBinding as R;
    match binding {
        R::Position => "result.position".to_string(),
        R::Color(sel) => format!("result.color{}", color_suffix(*sel)),
        R::FragColor(n) => format!("result.color[{n}]"),
        R::Depth => "result.depth".to_string(),
        R::FogCoord => "result.fogcoord".to_string(),
        R::PointSize => "result.pointsize".to_string(),
        R::TexCoord(n) => format!("result.texcoord[{n}]"),
        R::Clip(n) => format!("result.clip[{n}]"),
        R::Generic(n) => format!("result.attrib[{n}]"),
        R::Id => "result.id".to_string(),
        R::Layer => "result.layer".to_string(),
        R::PrimitiveId => "result.primid".to_string(),
    }
}

fn limits_used(program: &Program) -> LimitsUsed {
    #[derive(Default)]
    struct Walk {
        instructions: u32,
        if_depth: u32,
        loop_depth: u32,
    }
    fn walk(block: &[Stmt], ifs: u32, reps: u32, w: &mut Walk) {
        for s in block {
            match s {
                Stmt::If {
                    then_block,
                    else_block,
                    ..
                } => {
                    w.instructions += 2 + u32::from(!else_block.is_empty());
                    w.if_depth = w.if_depth.max(ifs + 1);
                    walk(then_block, ifs + 1, reps, w);
                    walk(else_block, ifs + 1, reps, w);
                }
                Stmt::Rep { body, .. } => {
                    w.instructions += 2;
                    w.loop_depth = w.loop_depth.max(reps + 1);
                    walk(body, ifs, reps + 1, w);
                }
                _ => w.instructions += 1,
            }
        }
    }
    let mut w = Walk::default();
    for sub in &program.subroutines {
        walk(&sub.body, 0, 0, &mut w);
    }
    let mut used = LimitsUsed {
        instructions: w.instructions,
        if_depth: w.if_depth,
        loop_depth: w.loop_depth,
        subroutines: program.subroutines.len() as u32,
        texture_units: texture_targets(program).len() as u32,
        ..LimitsUsed::default()
    };
    let mut attribs = HashSet::new();
    for v in &program.variables {
        match &v.kind {
            VarKind::Temp => used.temporaries += v.len(),
            VarKind::Param(bindings) => {
                used.parameters += v.len();
                for b in bindings {
                    match b {
                        ParamBinding::Env(n) => {
                            used.env_parameters = used.env_parameters.max(n + 1)
                        }
                        ParamBinding::Local(n) => {
                            used.local_parameters = used.local_parameters.max(n + 1)
                        }
                        _ => {}
                    }
                }
            }
            VarKind::Attrib(bindings) => attribs.extend(bindings.iter().copied()),
            _ => {}
        }
    }
    used.attribs = attribs.len() as u32;
    used
}
