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
use serde::{Deserialize, Serialize};

use crate::ir::{
    AttribBinding, ColorSel, ParamBinding, PerVertexAttrib, PrimitiveIn, PrimitiveOut, Program,
    ResultBinding, Stmt, VarKind,
};
use crate::isa::Stage;
use crate::layout::{Param, StageLayout, SUBROUTINE_BINDING_OFFSET};
use crate::spirv::{attrib_slot, result_slot, FixedFunction, InterfaceSlot};
use crate::state::read_path as state_read;
use crate::Options;
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
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Reflection {
    /// The program type.
    pub stage: Stage,
    /// The entry point (`main`) and its execution modes.
    pub entry_point: EntryPoint,
    /// Uniform blocks (`program.env`, `program.local`, GL state, parameter
    /// buffers), by set and binding.
    pub uniform_blocks: Vec<UniformBlock>,
    /// The push constant block, when `program.local` or `program.env` is
    /// a push constant (docs/interface.md, "Push constants").
    pub push_constants: Option<PushConstantBlock>,
    /// The parameters the module reads as specialization constants
    /// (docs/interface.md, "Specialization constants").
    pub specialization_constants: Vec<SpecializationConstant>,
    /// Texture units the module declares (combined image samplers), by unit.
    pub textures: Vec<TextureUnit>,
    /// Image units the module declares (storage images; LOADIM, STOREIM,
    /// ATOMIM), by unit (docs/interface.md, "Images").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub images: Vec<ImageUnit>,
    /// NV_bindless_texture's descriptor arrays, one per target the
    /// program's handles name (docs/interface.md, "Bindless textures").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bindless_textures: Vec<BindlessTextures>,
    /// NV_bindless_texture's image handle arrays, one per target and
    /// format the program's image handles use (docs/interface.md,
    /// "Bindless images").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bindless_images: Vec<BindlessImages>,
    /// Inputs by Location, then built-ins.
    pub inputs: Vec<InterfaceVariable>,
    /// Outputs by Location, then built-ins.
    pub outputs: Vec<InterfaceVariable>,
    /// Geometry programs only.
    pub geometry: Option<GeometryLayout>,
    /// How much of each implementation-dependent limit the program uses.
    pub limits: LimitsUsed,
    /// The Vulkan device features the module's SPIR-V capabilities need
    /// enabled at device creation (Vulkan's "SPIR-V Environment"
    /// appendix), by their `VkPhysicalDevice*Features` member names,
    /// sorted: `bufferDeviceAddress` for LOAD, STORE and ATOM
    /// (docs/interface.md, "GPU addresses"), `shaderInt64` for 64-bit
    /// integers, ... Left out when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub device_features: Vec<String>,
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
/// assert_eq!(r.entry_point.execution_model, nvp4c::reflect::ExecutionModel::Fragment);
/// assert_eq!(r.entry_point.execution_modes, ["OriginUpperLeft"]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct EntryPoint {
    /// `Options::entry_point` (`main` by default).
    pub name: String,
    /// The SPIR-V execution model.
    pub execution_model: ExecutionModel,
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
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct UniformBlock {
    /// The block type's name in the module, e.g. `ProgramLocal`.
    pub name: String,
    /// What the block holds: `program.env`, `program.local`, `state`,
    /// `program.buffer[b]`.
    pub binding_name: String,
    /// Always [`DescriptorType::UniformBuffer`].
    pub descriptor_type: DescriptorType,
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
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
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
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
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
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct TextureUnit {
    /// The `texture[n]` unit.
    pub unit: u32,
    /// The target the program uses it with, e.g. `2D`, `SHADOWCUBE`.
    pub target: Option<String>,
    /// A combined image sampler, or a uniform texel buffer (BUFFER).
    pub descriptor_type: DescriptorType,
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
    /// The sampler state the program fixes for this unit (AGAL's sampler
    /// flags): create the unit's `VkSampler` from it (docs/interface.md,
    /// "AGAL"). Absent when the program leaves it to the renderer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sampler: Option<crate::ir::SamplerState>,
}

/// NV_bindless_texture's array of one target: element `h` is the texture
/// handle `h` names (docs/interface.md, "Bindless textures").
///
/// ```
/// let source = "!!NVfp5.0\nOPTION NV_bindless_texture;\nUINT TEMP h;\nMOV.U h, 3;\nTEX result.color, fragment.texcoord[0], handle(h.x), 2D;\nEND\n";
/// let r = nvp4c::compile(source, &nvp4c::Options::default()).unwrap().reflection;
/// let b = &r.bindless_textures[0];
/// assert_eq!((b.target.as_str(), b.set, b.binding, b.count, b.ty.as_str()), ("2D", 2, 97, 16, "sampler2D[16]"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct BindlessTextures {
    /// The target, e.g. `2D`, `BUFFER`.
    pub target: String,
    /// Combined image samplers, or uniform texel buffers (BUFFER).
    pub descriptor_type: DescriptorType,
    /// The descriptor set.
    pub set: u32,
    /// The binding: 96 + the target's number by default.
    pub binding: u32,
    /// The array's length: the handles are 0 to `count` - 1.
    pub count: u32,
    /// The SPIR-V type, e.g. `sampler2D[16]`.
    #[serde(rename = "type")]
    pub ty: String,
    /// The component type of the sampled values.
    pub sampled_type: Option<ComponentType>,
}

/// NV_bindless_texture's image handle array of one target and format:
/// element `h` is the storage image (a storage texel buffer for BUFFER)
/// image handle `h` names in the program's accesses of that target and
/// format (docs/interface.md, "Bindless images").
///
/// ```
/// let source = "!!NVcp5.0\nOPTION NV_bindless_texture;\nGROUP_SIZE 1;\nUINT TEMP h, r;\nMOV.U h, 3;\nLOADIM.U32 r, {0, 0, 0, 0}, handle(h.x), 2D;\nEND\n";
/// let r = nvp4c::compile(source, &nvp4c::Options::default()).unwrap().reflection;
/// let b = &r.bindless_images[0];
/// assert_eq!((b.target.as_str(), b.format.as_deref(), b.set, b.binding, b.count), ("2D", Some("r32ui"), 0, 152, 8));
/// assert_eq!((b.ty.as_str(), b.access.as_str()), ("uimage2D[8]", "read"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct BindlessImages {
    /// The target, e.g. `2D`, `BUFFER`.
    pub target: String,
    /// The declared format in GLSL's spelling (`r32ui`, `rgba32f`), which
    /// every image view of the array must have; `None` for formatted
    /// stores only (any storage format, with
    /// `shaderStorageImageWriteWithoutFormat`).
    pub format: Option<String>,
    /// The format of the images' data when the views bound have another
    /// one: `rg16f` (`rgba16f`) for the R32ui array NV_shader_atomic_fp16_vector's
    /// ATOMIM.F16X2 (F16X4 on BUFFER) through a handle uses, element `h`
    /// an R32_UINT view of the image handle `h` names (of an rgba16f
    /// texel buffer: twice the elements); absent otherwise
    /// (docs/interface.md, "Bindless images").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data_format: Option<String>,
    /// The descriptor set.
    pub set: u32,
    /// The binding: 112 + 32 × the target's number + the format's number
    /// by default (`StageLayout::bindless_image_binding`).
    pub binding: u32,
    /// The array's length: the handles are 0 to `count` - 1.
    pub count: u32,
    /// The GLSL-style type, e.g. `uimage2D[8]`.
    #[serde(rename = "type")]
    pub ty: String,
    /// The component type texels are read and written as.
    pub sampled_type: Option<ComponentType>,
    /// `read`, `write` or `read_write`: what the program does with it.
    pub access: String,
}

/// An image unit: a storage image, docs/interface.md "Images".
///
/// ```
/// let source = "!!NVfp5.0\nINT TEMP c;\nTEMP r;\nMOV.S c, 0;\nLOADIM.U32 r, c, image[2], ARRAY2D;\nMOV result.color, r;\nEND\n";
/// let r = nvp4c::compile(source, &nvp4c::Options::default()).unwrap().reflection;
/// let i = &r.images[0];
/// assert_eq!((i.unit, i.target.as_str(), i.set, i.binding), (2, "ARRAY2D", 2, 82));
/// assert_eq!((i.ty.as_str(), i.format.as_deref(), i.access.as_str()), ("uimage2DArray", Some("r32ui"), "read"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ImageUnit {
    /// The `image[n]` unit.
    pub unit: u32,
    /// The target the program uses it with, e.g. `2D`, `BUFFER`.
    pub target: String,
    /// The descriptor set.
    pub set: u32,
    /// The binding: 80 + `unit` by default.
    pub binding: u32,
    /// The GLSL-style type, e.g. `uimage2D`, `imageBuffer`.
    #[serde(rename = "type")]
    pub ty: String,
    /// The component type texels are read and written as.
    pub sampled_type: Option<ComponentType>,
    /// The declared format in GLSL's spelling (`r32ui`, `rgba32f`), which
    /// the bound image view must have; `None` for a unit only written by
    /// formatted stores (any storage format, with
    /// `shaderStorageImageWriteWithoutFormat`).
    pub format: Option<String>,
    /// The format of the image's data when the view bound has another
    /// one: `rg16f` for a unit NV_shader_atomic_fp16_vector's ATOMIM.F16X2
    /// uses, declared `r32ui` (bind an R32_UINT view of the R16G16_SFLOAT
    /// image, created with VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT); `rgba16f`
    /// for a BUFFER unit ATOMIM.F16X4 uses (an R32_UINT view of the
    /// texel buffer, twice the elements); docs/interface.md, "Images".
    /// Absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data_format: Option<String>,
    /// `read`, `write` or `read_write`: what the program does with it.
    pub access: String,
}

/// An input or output of the module.
///
/// ```
/// # let r = nvp4c::compile("!!NVfp4.0\nMUL result.color, fragment.texcoord[0], program.local[2];\nEND\n", &nvp4c::Options::default()).unwrap().reflection;
/// let input = &r.inputs[0];
/// assert_eq!(input.bindings, ["fragment.texcoord[0]"]);
/// assert_eq!(input.interpolation, Some(nvp4c::reflect::Interpolation::Smooth));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct InterfaceVariable {
    /// The Location, for a user-defined input or output.
    pub location: Option<u32>,
    /// The SPIR-V built-in, e.g. `Position`, `FragCoord`.
    pub built_in: Option<BuiltIn>,
    /// The type of each component.
    pub component_type: ComponentType,
    /// 1 to 4.
    pub components: u32,
    /// For arrays (ClipDistance; a LONG vertex attribute's two Locations).
    pub array_length: Option<u32>,
    /// A vertex program input's Vulkan vertex format, e.g.
    /// `R32G32B32A32_SFLOAT`, for each Location it takes (a LONG
    /// attribute: `R32G32B32A32_UINT` at Locations n and n + 1;
    /// docs/interface.md, "Vertex attributes"); `None` for other
    /// variables.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vertex_format: Option<String>,
    /// How a varying (a vertex or geometry output, a geometry or fragment
    /// input) is interpolated; `None` for built-ins, vertex inputs and
    /// fragment outputs.
    pub interpolation: Option<Interpolation>,
    /// Interpolated at the centroid (`CENTROID`).
    pub centroid: bool,
    /// Decorated `Invariant` (the position of an `ARB_position_invariant`
    /// program).
    #[serde(default)]
    pub invariant: bool,
    /// The program bindings at this slot, e.g. `vertex.texcoord[0]`,
    /// `result.color`.
    pub bindings: Vec<String>,
    /// Program names (ATTRIB / OUTPUT) bound to it.
    pub names: Vec<String>,
    /// Cg variables at this slot.
    pub cg: Vec<CgName>,
    /// Where transform feedback captures this output (a vertex,
    /// tessellation evaluation or geometry program compiled with
    /// `Options::transform_feedback`; docs/interface.md,
    /// "Transform feedback"). A copy for vertex stream k ≥ 1 carries the
    /// bindings of the result it copies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transform_feedback: Option<TransformFeedback>,
}

/// The capture of one output (`Stream`, `XfbBuffer`, `Offset`,
/// `XfbStride`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct TransformFeedback {
    /// The vertex stream (EMITS' operand; 0 for EMIT).
    pub stream: u32,
    /// The transform feedback buffer (the stream's number).
    pub buffer: u32,
    /// Byte offset in the vertex's record.
    pub offset: u32,
    /// Bytes per vertex record.
    pub stride: u32,
}

/// A component type.
///
/// ```
/// # let r = nvp4c::compile("!!NVfp4.0\nMUL result.color, fragment.texcoord[0], program.local[2];\nEND\n", &nvp4c::Options::default()).unwrap().reflection;
/// assert_eq!(r.outputs[0].component_type, nvp4c::reflect::ComponentType::Float);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
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
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
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
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct LimitsUsed {
    /// Instructions as written: each IF, ELSE (with a non-empty block),
    /// ENDIF, REP, ENDREP, LOOP and ENDLOOP counts.
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
    /// Deepest REP and LOOP nesting.
    pub loop_depth: u32,
    /// Subroutines as written: each label, and the unlabelled start of the
    /// program when it has code (or when there is no label).
    pub subroutines: u32,
}

/// The Cg compiler's header comments.
///
/// ```
/// # let r = nvp4c::compile("!!NVfp4.0\nMUL result.color, fragment.texcoord[0], program.local[2];\nEND\n", &nvp4c::Options::default()).unwrap().reflection;
/// assert!(r.cg.is_none()); // no Cg comments in this program
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
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
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
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
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct CgName {
    /// The Cg name.
    pub name: String,
    /// The Cg type, e.g. `float4x4`.
    #[serde(rename = "type")]
    pub ty: String,
    /// For a parameter spanning several elements (a matrix): which row
    /// this element holds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub row: Option<u32>,
}

/// The push constant block (docs/interface.md, "Push constants"):
/// `program.local` first, then `program.env`, each an array of `uvec4`.
///
/// ```
/// let mut options = nvp4c::Options::default();
/// options.layout.fragment.push_constants = nvp4c::layout::PushConstants::Local;
/// options.layout.fragment.push_constant_offset = 32;
/// let r = nvp4c::compile("!!NVfp4.0\nMOV result.color, program.local[1];\nEND\n", &options).unwrap().reflection;
/// let pc = r.push_constants.unwrap();
/// assert_eq!((pc.offset, pc.size), (32, 32));
/// assert_eq!((pc.parameters[0].binding.as_str(), pc.parameters[0].offset), ("program.local[1]", 48));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct PushConstantBlock {
    /// The block type's name in the module: `PushConstants`.
    pub name: String,
    /// Byte offset of the first member in the push constant range
    /// (`StageLayout::push_constant_offset`).
    pub offset: u32,
    /// Bytes from `offset` to the end of the last member: the
    /// `VkPushConstantRange` is `offset..offset + size`.
    pub size: u32,
    /// The members: `local`, `env`.
    pub members: Vec<BlockMember>,
    /// The program's parameters in the block, with their absolute offsets.
    pub parameters: Vec<BlockParameter>,
}

/// A parameter read as specialization constants (docs/interface.md,
/// "Specialization constants"): component *c* is the `uint` constant
/// `spec_ids[c]`, holding raw bits.
///
/// ```
/// let mut options = nvp4c::Options::default();
/// options.layout.vertex.specialize.push(nvp4c::layout::Specialization::new("program.env[2]".parse().unwrap(), 7));
/// let r = nvp4c::compile("!!NVvp4.0\nMOV result.position, program.env[2];\nEND\n", &options).unwrap().reflection;
/// let s = &r.specialization_constants[0];
/// assert_eq!((s.binding.as_str(), s.spec_ids), ("program.env[2]", [7, 8, 9, 10]));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct SpecializationConstant {
    /// `program.env[n]` or `program.local[n]`.
    pub binding: String,
    /// The SpecId of each component, x to w.
    pub spec_ids: [u32; 4],
    /// The values the module uses when not specialized (raw bits).
    pub default: [u32; 4],
    /// Program names bound to it.
    pub names: Vec<String>,
    /// Cg parameters stored here.
    pub cg: Vec<CgName>,
}

/// What kind of descriptor a resource needs (`VkDescriptorType`).
///
/// ```
/// let json = serde_json::to_string(&nvp4c::reflect::DescriptorType::CombinedImageSampler).unwrap();
/// assert_eq!(json, "\"combined_image_sampler\"");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum DescriptorType {
    /// `VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER`.
    UniformBuffer,
    /// `VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER`.
    CombinedImageSampler,
    /// `VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER`.
    UniformTexelBuffer,
    /// `VK_DESCRIPTOR_TYPE_STORAGE_BUFFER`: `program.storage[a]`
    /// (NV_shader_storage_buffer_object) and `program.counter[a]`
    /// (NV_shader_atomic_counters).
    StorageBuffer,
}

/// The SPIR-V execution model of the entry point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub enum ExecutionModel {
    /// `!!NVvp4.0`.
    Vertex,
    /// `!!NVgp4.0`.
    Geometry,
    /// `!!NVfp4.0`.
    Fragment,
    /// `!!NVtcp5.0`.
    TessellationControl,
    /// `!!NVtep5.0`.
    TessellationEvaluation,
    /// `!!NVcp5.0`.
    GLCompute,
}

/// The SPIR-V built-ins a module's inputs and outputs can be
/// (docs/interface.md), named as SPIR-V names them.
///
/// ```
/// # let r = nvp4c::compile("!!NVvp4.0\nMOV result.position, vertex.position;\nEND\n", &nvp4c::Options::default()).unwrap().reflection;
/// assert_eq!(r.outputs[0].built_in, Some(nvp4c::reflect::BuiltIn::Position));
/// assert_eq!(serde_json::to_string(&r.outputs[0].built_in).unwrap(), "\"Position\"");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub enum BuiltIn {
    /// `result.position`, a geometry program's `vertex[m].position`.
    Position,
    /// `result.pointsize`, `vertex[m].pointsize`.
    PointSize,
    /// `result.clip[n]`, `fragment.clip[n]`, `vertex[m].clip[n]`.
    ClipDistance,
    /// `vertex.id`.
    VertexIndex,
    /// `vertex.instance`.
    InstanceIndex,
    /// `fragment.position`.
    FragCoord,
    /// `fragment.facing`.
    FrontFacing,
    /// `primitive.id`, `result.primid`.
    PrimitiveId,
    /// `result.depth`.
    FragDepth,
    /// `result.layer`.
    Layer,
}

impl BuiltIn {
    fn from_spirv(b: rspirv::spirv::BuiltIn) -> Option<BuiltIn> {
        use rspirv::spirv::BuiltIn as B;
        Some(match b {
            B::Position => BuiltIn::Position,
            B::PointSize => BuiltIn::PointSize,
            B::ClipDistance => BuiltIn::ClipDistance,
            B::VertexIndex => BuiltIn::VertexIndex,
            B::InstanceIndex => BuiltIn::InstanceIndex,
            B::FragCoord => BuiltIn::FragCoord,
            B::FrontFacing => BuiltIn::FrontFacing,
            B::PrimitiveId => BuiltIn::PrimitiveId,
            B::FragDepth => BuiltIn::FragDepth,
            B::Layer => BuiltIn::Layer,
            _ => return None,
        })
    }

    /// The SPIR-V built-in (`from_spirv`'s inverse).
    pub(crate) fn to_spirv(self) -> rspirv::spirv::BuiltIn {
        use rspirv::spirv::BuiltIn as B;
        match self {
            BuiltIn::Position => B::Position,
            BuiltIn::PointSize => B::PointSize,
            BuiltIn::ClipDistance => B::ClipDistance,
            BuiltIn::VertexIndex => B::VertexIndex,
            BuiltIn::InstanceIndex => B::InstanceIndex,
            BuiltIn::FragCoord => B::FragCoord,
            BuiltIn::FrontFacing => B::FrontFacing,
            BuiltIn::PrimitiveId => B::PrimitiveId,
            BuiltIn::FragDepth => B::FragDepth,
            BuiltIn::Layer => B::Layer,
        }
    }
}

/// Reflects a module compiled from `program` (whose text is `source`).
/// [`crate::compile`] calls this; the error is an internal one (the module
/// could not be read back).
///
/// ```
/// let source = "!!NVvp4.0\nMOV result.position, vertex.position;\nEND\n";
/// let (program, _) = nvp4c::check(source, &nvp4c::Options::default()).unwrap();
/// let spirv = nvp4c::spirv::lower(&program, &nvp4c::Options::default()).unwrap();
/// let options = nvp4c::Options::default();
/// let reflection = nvp4c::reflect::reflect(&program, &spirv, source, &options).unwrap();
/// assert_eq!(reflection.inputs[0].location, Some(0));
/// assert_eq!(reflection.outputs[0].built_in, Some(nvp4c::reflect::BuiltIn::Position));
/// ```
pub fn reflect(
    program: &Program,
    spirv: &[u32],
    source: &str,
    options: &Options,
) -> Result<Reflection, String> {
    reflect_with(program, &BodyFacts::of(program), spirv, source, options)
}

/// What the reflection reads from the program's statements, gathered
/// before the lowering frees them (`spirv::lower_consuming`).
pub(crate) struct BodyFacts {
    image_uses: BTreeMap<u32, ImageUse>,
    bindless_image_uses: BTreeMap<crate::ir::BindlessImageArray, ImageUse>,
    texture_targets: BTreeMap<u32, &'static str>,
    counters_used: BTreeSet<(crate::ir::VarId, u32)>,
    limits: LimitsUsed,
}

impl BodyFacts {
    /// One walk over every statement gathers all of it: a walk per fact
    /// was five passes over the IR, each a pass of cache misses once the
    /// IR outgrows the caches (docs/performance.md, "Session 11
    /// (linearity)").
    pub(crate) fn of(program: &Program) -> BodyFacts {
        let mut w = BodyWalk {
            images: (BTreeMap::new(), BTreeMap::new()),
            textures: BTreeMap::new(),
            counters: BTreeSet::new(),
            count: true,
            subroutines: 0,
            instructions: 0,
            if_depth: 0,
            loop_depth: 0,
        };
        for sub in &program.subroutines {
            // The synthesized entry is a copy of source segments (it adds
            // nothing to the unions), whose instructions are counted where
            // they are written.
            w.count = !sub.is_run_on_entry();
            w.subroutines += u32::from(w.count);
            w.block(&sub.body, 0, 0);
        }
        let limits = limits_used(program, &w);
        let BodyWalk {
            images: (image_uses, bindless_image_uses),
            textures: texture_targets,
            counters: counters_used,
            ..
        } = w;
        BodyFacts {
            image_uses,
            bindless_image_uses,
            texture_targets,
            counters_used,
            limits,
        }
    }
}

/// What [`BodyFacts::of`] gathers while it walks.
struct BodyWalk {
    images: ImageUses,
    /// The target each texture unit is used with.
    textures: BTreeMap<u32, &'static str>,
    /// The counters (variable, counter index in its buffer) some ATOMCTR
    /// reaches.
    counters: BTreeSet<(crate::ir::VarId, u32)>,
    /// Whether the subroutine walked is counted in `subroutines` and
    /// `instructions`.
    count: bool,
    subroutines: u32,
    /// Instructions as written (IF, ELSE with a block, ENDIF, REP, ENDREP,
    /// LOOP, ENDLOOP count), and the deepest IF and loop nesting.
    instructions: u32,
    if_depth: u32,
    loop_depth: u32,
}

impl BodyWalk {
    fn block(&mut self, block: &[Stmt], ifs: u32, loops: u32) {
        for s in block {
            let written = match s {
                Stmt::If {
                    then_block,
                    else_block,
                    ..
                } => {
                    self.if_depth = self.if_depth.max(ifs + 1);
                    self.block(then_block, ifs + 1, loops);
                    self.block(else_block, ifs + 1, loops);
                    2 + u32::from(!else_block.is_empty())
                }
                // REP/ENDREP, LOOP/ENDLOOP.
                Stmt::Rep { body, .. } | Stmt::Loop { body, .. } => {
                    self.loop_depth = self.loop_depth.max(loops + 1);
                    self.block(body, ifs, loops + 1);
                    2
                }
                _ => {
                    self.statement(s);
                    1
                }
            };
            if self.count {
                self.instructions += written;
            }
        }
    }

    fn statement(&mut self, s: &Stmt) {
        let (access, reads, writes, ty) = match s {
            Stmt::Inst(i) => {
                if let Some(tex) = &i.tex {
                    for &unit in tex.units() {
                        self.textures.insert(unit, tex.target.name());
                    }
                }
                if let (Some(m), crate::isa::Opcode::Atomctr) = (&i.memory, i.op) {
                    self.counters.insert((m.var, m.offset / 4));
                }
                match i.image.as_deref() {
                    Some(a) => (a, true, a.atomic.is_some(), i.ty),
                    None => return,
                }
            }
            Stmt::ImageStore { image, value, .. } => (&**image, false, true, value.ty),
            _ => return,
        };
        for &unit in access.units() {
            self.images
                .0
                .entry(unit)
                .or_insert_with(|| ImageUse::of(access))
                .add(access, reads, writes);
        }
        if let Some(array) = access.bindless_array(ty) {
            self.images
                .1
                .entry(array)
                .or_insert_with(|| ImageUse::of(access))
                .add(access, reads, writes);
        }
    }
}

/// [`reflect`] with the facts of the program's statements gathered
/// already: `program`'s bodies are not read.
pub(crate) fn reflect_with(
    program: &Program,
    bodies: &BodyFacts,
    spirv: &[u32],
    source: &str,
    options: &Options,
) -> Result<Reflection, String> {
    let facts = ModuleFacts::load(spirv)?;
    let cg = cg::parse(source);
    let resolved = resolve_cg(program, cg.as_ref());
    let ctx = Context {
        facts: &facts,
        program,
        bodies,
        cg: &resolved,
        layout: options.stage_layout(program.stage),
        fixed: FixedFunction::of(program, options),
    };
    let mut uniform_blocks = Vec::new();
    let mut push_constants = None;
    let mut textures = Vec::new();
    let mut images = Vec::new();
    let mut bindless_textures = Vec::new();
    let mut bindless_images = Vec::new();
    let image_uses = &bodies.image_uses;
    let mut inputs = Vec::new();
    let mut outputs = Vec::new();
    let units = &bodies.texture_targets;
    for var in facts.globals() {
        match var.class {
            StorageClass::Uniform | StorageClass::StorageBuffer => {
                // A storage buffer's 64-bit view (64-bit atomics,
                // docs/interface.md "Storage buffers") is a second variable
                // at the buffer's binding: one descriptor, listed once.
                if let Some(block) = uniform_block(&ctx, &var).filter(|b| {
                    !uniform_blocks
                        .iter()
                        .any(|o: &UniformBlock| (o.set, o.binding) == (b.set, b.binding))
                }) {
                    uniform_blocks.push(block);
                }
            }
            StorageClass::PushConstant => push_constants = push_constant_block(&ctx, &var),
            StorageClass::UniformConstant => {
                if let Some(b) = bindless_array(&ctx, &var) {
                    bindless_textures.push(b);
                } else if let Some(b) = bindless_image_array(&ctx, &var) {
                    bindless_images.push(b);
                } else if let Some(t) = texture_unit(&ctx, &var, units) {
                    textures.push(t);
                } else if let Some(i) = image_unit(&ctx, &var, image_uses) {
                    images.push(i);
                }
            }
            StorageClass::Input => inputs.extend(interface_variables(&ctx, &var, false)),
            StorageClass::Output => outputs.extend(interface_variables(&ctx, &var, true)),
            _ => {}
        }
    }
    let specialization_constants = specialization_constants(&ctx);
    uniform_blocks.sort_by_key(|b| (b.set, b.binding));
    textures.sort_by_key(|t| t.unit);
    images.sort_by_key(|i| i.unit);
    bindless_textures.sort_by_key(|b| b.binding);
    bindless_images.sort_by_key(|b| b.binding);
    let slot_order = |v: &InterfaceVariable| {
        (
            v.location.is_none(),
            v.location,
            v.built_in.map(|b| format!("{b:?}")),
        )
    };
    inputs.sort_by_key(slot_order);
    outputs.sort_by_key(slot_order);
    copy_stream_bindings(&mut outputs);
    Ok(Reflection {
        stage: program.stage,
        entry_point: entry_point(&facts, program.stage),
        uniform_blocks,
        push_constants,
        specialization_constants,
        textures,
        images,
        bindless_textures,
        bindless_images,
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
        limits: bodies.limits.clone(),
        device_features: device_features(&facts),
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

fn entry_point(facts: &ModuleFacts, stage: Stage) -> EntryPoint {
    use rspirv::dr::Operand;
    let module = &facts.module;
    let name = module
        .entry_points
        .first()
        .and_then(|e| match e.operands.as_slice() {
            [Operand::ExecutionModel(_), _, Operand::LiteralString(n), ..] => Some(n.clone()),
            _ => None,
        })
        .unwrap_or_default();
    // One entry point per module, of the program's type (docs/interface.md).
    let execution_model = match stage {
        Stage::Vertex => ExecutionModel::Vertex,
        Stage::Geometry => ExecutionModel::Geometry,
        Stage::Fragment => ExecutionModel::Fragment,
        Stage::TessControl => ExecutionModel::TessellationControl,
        Stage::TessEval => ExecutionModel::TessellationEvaluation,
        Stage::Compute => ExecutionModel::GLCompute,
    };
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

/// What the module's everything is read from, for the reflection: the
/// module, the program and its Cg names, and the layout it was built with.
struct Context<'a> {
    facts: &'a ModuleFacts,
    program: &'a Program,
    bodies: &'a BodyFacts,
    cg: &'a [ResolvedCg],
    layout: StageLayout,
    fixed: FixedFunction,
}

/// A parameter array of docs/interface.md, "Descriptor sets".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BlockKind {
    Env,
    Local,
    State,
    Buffer(u32),
    /// `program.subroutine` (ARB_shader_subroutine, NV_gpu_program5 edits).
    Subroutine,
    /// `program.storage[a]`.
    Storage(u32),
    /// `program.counter[a]`.
    Counter(u32),
}

impl BlockKind {
    fn binding_name(self) -> String {
        match self {
            BlockKind::Env => "program.env".to_string(),
            BlockKind::Local => "program.local".to_string(),
            BlockKind::State => "state".to_string(),
            BlockKind::Buffer(b) => format!("program.buffer[{b}]"),
            BlockKind::Subroutine => "program.subroutine".to_string(),
            BlockKind::Storage(a) => format!("program.storage[{a}]"),
            BlockKind::Counter(a) => format!("program.counter[{a}]"),
        }
    }
    /// The block at uniform binding `binding` of `layout`.
    fn at_binding(layout: &StageLayout, binding: u32) -> Option<BlockKind> {
        // Storage and counter buffers (docs/interface.md, "Storage
        // buffers", "Atomic counters") lie past the texture units.
        let max = crate::check::MAX_STORAGE_BINDINGS;
        if let Some(a) = binding.checked_sub(layout.storage_binding(0)) {
            return Some(if a < max {
                BlockKind::Storage(a)
            } else {
                BlockKind::Counter(a - max)
            });
        }
        match binding.checked_sub(layout.uniform_binding)? {
            0 => Some(BlockKind::Env),
            1 => Some(BlockKind::Local),
            2 => Some(BlockKind::State),
            SUBROUTINE_BINDING_OFFSET => Some(BlockKind::Subroutine),
            b => Some(BlockKind::Buffer(b - 3)),
        }
    }
}

/// A program binding a Cg variable or a reflected slot refers to.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Target {
    /// An element of a parameter array.
    Block {
        block: BlockKind,
        element: u32,
    },
    /// A constant or GL state parameter.
    Other(String),
    Texture(u32),
    Attrib(AttribBinding),
    Result(ResultBinding),
}

/// Where one element of a PARAM lives.
fn param_target(binding: &ParamBinding) -> Target {
    match binding {
        ParamBinding::Env(n) => Target::Block {
            block: BlockKind::Env,
            element: *n,
        },
        ParamBinding::Local(n) => Target::Block {
            block: BlockKind::Local,
            element: *n,
        },
        ParamBinding::BufferElement { buffer, element } => Target::Block {
            block: BlockKind::Buffer(*buffer),
            element: *element,
        },
        ParamBinding::Subroutine(n) => Target::Block {
            block: BlockKind::Subroutine,
            element: *n,
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
            Target::Block { block, element } => {
                format!("{}[{element}]", block.binding_name())
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

/// Row `row` of cgc's fp30 parameter `name$k`: `name$(k + row)` (and
/// `name` itself for row 0 of a name without a `$k`).
fn fp30_row(array: &str, row: u32) -> String {
    match array.rsplit_once('$') {
        Some((base, k)) if !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()) => {
            let k: u32 = k.parse().unwrap_or(0);
            format!("{base}${}", k.saturating_add(row))
        }
        _ if row == 0 => array.to_string(),
        _ => format!("{array}${row}"),
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
                    } else {
                        // cgc's fp30 output declares each row of a matrix
                        // as its own DECLARE: `projection$0, 4` is
                        // `projection$0` .. `projection$3`.
                        for row in 0..count {
                            let name = fp30_row(&array, row);
                            let b = program.variables.iter().find_map(|var| match &var.kind {
                                VarKind::Param(b) if var.name.as_deref() == Some(name.as_str()) => {
                                    b.first()
                                }
                                _ => None,
                            });
                            if let Some(b) = b {
                                targets.push((param_target(b), (count > 1).then_some(row)));
                            }
                        }
                    }
                }
                Resource::TexUnit(n) => targets.push((Target::Texture(n), None)),
                Resource::Counter { buffer, element } => targets.push((
                    Target::Block {
                        block: BlockKind::Counter(buffer),
                        element,
                    },
                    None,
                )),
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

/// The members of a block struct as the module declares them.
fn block_members(facts: &ModuleFacts, block: Word) -> Vec<BlockMember> {
    facts
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
        .collect()
}

/// The program's parameters in the array `kind` (a block member at byte
/// `offset`, `len` elements `stride` bytes apart): each element some PARAM
/// (or a direct binding, or the fixed-function work) reads.
fn block_parameters(
    ctx: &Context<'_>,
    kind: BlockKind,
    offset: u32,
    stride: u32,
    len: u32,
) -> Vec<BlockParameter> {
    let program = ctx.program;
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
        if element < len {
            let e = by_element.entry(element).or_default();
            e.bindings.insert(target.text(program.stage));
            if !e.targets.contains(&target) {
                e.targets.push(target);
            }
            e.names.extend(name);
        }
    };
    // GL state: the rows the backend reads a binding from.
    let state = |path: &[String],
                 name: Option<String>,
                 add: &mut dyn FnMut(u32, Target, Option<String>)| {
        if let Ok(read) = state_read(path) {
            for row in read.rows() {
                add(row, Target::Other(state_text(path)), name.clone());
            }
        }
    };
    let counters_used = &ctx.bodies.counters_used;
    for (index, v) in program.variables.iter().enumerate() {
        let name = |k: usize| match (&v.name, v.array_len) {
            (Some(n), Some(_)) => Some(format!("{n}[{k}]")),
            (Some(n), None) => Some(n.clone()),
            (None, _) => None,
        };
        match &v.kind {
            VarKind::Param(bindings) => {
                for (k, b) in bindings.iter().enumerate() {
                    match (param_target(b), b) {
                        (Target::Block { block, element }, _) if block == kind => {
                            // A specialized element is not read from memory.
                            let specialized = match block {
                                BlockKind::Env => ctx.layout.specialization(Param::Env(element)),
                                BlockKind::Local => {
                                    ctx.layout.specialization(Param::Local(element))
                                }
                                _ => None,
                            };
                            if specialized.is_none() {
                                add(element, Target::Block { block, element }, name(k))
                            }
                        }
                        (_, ParamBinding::State(item)) if kind == BlockKind::State => {
                            state(&item.path, name(k), &mut add)
                        }
                        _ => {}
                    }
                }
            }
            // COUNTER variables: the counters ATOMCTR reaches (an array
            // bound to a whole buffer has thousands).
            VarKind::Counter(b) if kind == BlockKind::Counter(b.buffer) => {
                let id = crate::ir::VarId(index as u32);
                for k in 0..v.len() {
                    let element = b.first.saturating_add(k);
                    if !counters_used.contains(&(id, element)) {
                        continue;
                    }
                    add(
                        element,
                        Target::Block {
                            block: kind,
                            element,
                        },
                        name(k as usize),
                    );
                }
            }
            // BUFFER4 arrays: element `first + k` of the buffer.
            VarKind::Buffer(b) if b.vec4 && kind == BlockKind::Buffer(b.buffer) => {
                for k in 0..v.len() {
                    let element = b.first.saturating_add(k);
                    add(
                        element,
                        Target::Block {
                            block: kind,
                            element,
                        },
                        name(k as usize),
                    );
                }
            }
            _ => {}
        }
    }
    if kind == BlockKind::State {
        for path in ctx.fixed.state_reads() {
            state(&path, None, &mut add);
        }
    }
    by_element
        .into_iter()
        .map(|(element, e)| BlockParameter {
            binding: e.bindings.into_iter().collect::<Vec<_>>().join(", "),
            element,
            offset: offset.saturating_add(stride.saturating_mul(element)),
            names: e.names.into_iter().collect(),
            cg: ResolvedCg::names_for(ctx.cg, |t| e.targets.contains(t)),
        })
        .collect()
}

fn uniform_block(ctx: &Context<'_>, var: &module::GlobalVar) -> Option<UniformBlock> {
    let facts = ctx.facts;
    let block = var.pointee;
    if !matches!(facts.ty(block), Ty::Struct(_)) {
        return None;
    }
    let set = facts.literal(var.id, Decoration::DescriptorSet)?;
    let binding = facts.literal(var.id, Decoration::Binding)?;
    let kind = BlockKind::at_binding(&ctx.layout, binding)?;
    let members = block_members(facts, block);
    // Parameter blocks are one array of vec4 (docs/interface.md); their
    // elements are the program's parameters.
    let parameters = match (members.as_slice(), kind) {
        (
            [BlockMember {
                offset,
                array_length: Some(len),
                array_stride: Some(stride),
                ..
            }],
            _,
        ) => block_parameters(ctx, kind, *offset, *stride, *len),
        // An atomic counter buffer's runtime array: its counters are the
        // COUNTER variables' elements (docs/interface.md, "Atomic counters").
        ([BlockMember { offset, .. }], BlockKind::Counter(_)) => {
            block_parameters(ctx, kind, *offset, 4, u32::MAX)
        }
        _ => Vec::new(),
    };
    Some(UniformBlock {
        name: facts.name(block).unwrap_or("").to_string(),
        binding_name: kind.binding_name(),
        descriptor_type: match kind {
            BlockKind::Storage(_) | BlockKind::Counter(_) => DescriptorType::StorageBuffer,
            _ => DescriptorType::UniformBuffer,
        },
        set,
        binding,
        size: facts.size(block, None),
        members,
        parameters,
    })
}

/// The push constant block: members `local` and `env` (docs/interface.md,
/// "Push constants").
fn push_constant_block(ctx: &Context<'_>, var: &module::GlobalVar) -> Option<PushConstantBlock> {
    let facts = ctx.facts;
    let block = var.pointee;
    if !matches!(facts.ty(block), Ty::Struct(_)) {
        return None;
    }
    let members = block_members(facts, block);
    let mut parameters = Vec::new();
    for m in &members {
        let kind = match m.name.as_str() {
            "local" => BlockKind::Local,
            "env" => BlockKind::Env,
            _ => continue,
        };
        if let (Some(len), Some(stride)) = (m.array_length, m.array_stride) {
            parameters.extend(block_parameters(ctx, kind, m.offset, stride, len));
        }
    }
    let offset = members.iter().map(|m| m.offset).min().unwrap_or(0);
    let end = members
        .iter()
        .map(|m| m.offset.saturating_add(m.size))
        .max()
        .unwrap_or(0);
    Some(PushConstantBlock {
        name: facts.name(block).unwrap_or("").to_string(),
        offset,
        size: end.saturating_sub(offset),
        members,
        parameters,
    })
}

/// The layout's specializations of parameters the module reads (those
/// whose SpecIds it declares).
fn specialization_constants(ctx: &Context<'_>) -> Vec<SpecializationConstant> {
    let declared = ctx.facts.spec_ids();
    let program = ctx.program;
    let mut out = Vec::new();
    for spec in &ctx.layout.specialize {
        if !declared.contains(&spec.spec_id) {
            continue;
        }
        let (target, binding) = match spec.param {
            Param::Env(n) => (
                Target::Block {
                    block: BlockKind::Env,
                    element: n,
                },
                ParamBinding::Env(n),
            ),
            Param::Local(n) => (
                Target::Block {
                    block: BlockKind::Local,
                    element: n,
                },
                ParamBinding::Local(n),
            ),
        };
        let mut names = BTreeSet::new();
        for v in &program.variables {
            if let (VarKind::Param(bindings), Some(name)) = (&v.kind, &v.name) {
                for (k, b) in bindings.iter().enumerate() {
                    if *b == binding {
                        names.insert(match v.array_len {
                            Some(_) => format!("{name}[{k}]"),
                            None => name.clone(),
                        });
                    }
                }
            }
        }
        out.push(SpecializationConstant {
            binding: spec.param.text(),
            spec_ids: std::array::from_fn(|c| spec.spec_id.saturating_add(c as u32)),
            default: spec.default,
            names: names.into_iter().collect(),
            cg: ResolvedCg::names_for(ctx.cg, |t| *t == target),
        });
    }
    out
}

/// How the program uses one image unit.
#[derive(Clone)]
struct ImageUse {
    target: String,
    reads: bool,
    writes: bool,
    /// The format of its unformatted accesses (`ImageFormat::glsl_name`).
    format: Option<String>,
    /// The format of the data, when it is not `format` (ATOMIM.F16X2).
    data_format: Option<String>,
}

/// Image units, and NV_bindless_texture's image handle arrays, by how the
/// program uses them.
type ImageUses = (
    BTreeMap<u32, ImageUse>,
    BTreeMap<crate::ir::BindlessImageArray, ImageUse>,
);

impl ImageUse {
    fn of(access: &crate::ir::ImageAccess) -> ImageUse {
        ImageUse {
            target: access.target.name().to_string(),
            reads: false,
            writes: false,
            format: None,
            data_format: None,
        }
    }
    fn add(&mut self, access: &crate::ir::ImageAccess, reads: bool, writes: bool) {
        self.reads |= reads;
        self.writes |= writes;
        // An ATOMIM.F16X2 (F16X4) declares the unit R32ui whatever the
        // unit's other accesses (of the same format) are.
        if access.packed_halves_atomic() {
            self.data_format = access.format.map(|f| f.glsl_name());
            self.format = access.declared_format().map(|f| f.glsl_name());
        } else if let (Some(f), None) = (access.format, &self.data_format) {
            self.format = Some(f.glsl_name());
        }
    }
    /// `read`, `write` or `read_write`.
    fn access(&self) -> String {
        match (self.reads, self.writes) {
            (true, true) => "read_write",
            (true, false) => "read",
            _ => "write",
        }
        .to_string()
    }
}

/// An image handle array: an array of storage images at a binding of
/// `StageLayout::bindless_image_binding`.
fn bindless_image_array(ctx: &Context<'_>, var: &module::GlobalVar) -> Option<BindlessImages> {
    let facts = ctx.facts;
    let Ty::Array(element, Some(count)) = facts.ty(var.pointee) else {
        return None;
    };
    let Ty::Image(i) = *element else {
        return None;
    };
    if !i.storage {
        return None;
    }
    let set = facts.literal(var.id, Decoration::DescriptorSet)?;
    let binding = facts.literal(var.id, Decoration::Binding)?;
    let first = crate::ir::BindlessImageArray::from_numbers(0, 0)?;
    let k = binding.checked_sub(ctx.layout.bindless_image_binding(first))?;
    let per_target = crate::ir::BindlessImageArray::FORMATS_PER_TARGET;
    let array = crate::ir::BindlessImageArray::from_numbers(k / per_target, k % per_target)?;
    let uses = ctx.bodies.bindless_image_uses.get(&array)?;
    Some(BindlessImages {
        target: array.target.name().to_string(),
        format: array.format.map(|f| f.glsl_name()),
        data_format: uses.data_format.clone(),
        set,
        binding,
        count,
        ty: facts.type_name(var.pointee),
        sampled_type: i.sampled_type,
        access: uses.access(),
    })
}

/// A bindless texture array: an array variable at a binding of
/// `StageLayout::bindless_binding`.
fn bindless_array(ctx: &Context<'_>, var: &module::GlobalVar) -> Option<BindlessTextures> {
    let facts = ctx.facts;
    let Ty::Array(element, Some(count)) = facts.ty(var.pointee) else {
        return None;
    };
    let (sampled_type, descriptor_type) = match *element {
        Ty::SampledImage(i) => (i.sampled_type, DescriptorType::CombinedImageSampler),
        Ty::Image(i) if !i.storage => (i.sampled_type, DescriptorType::UniformTexelBuffer),
        _ => return None,
    };
    let set = facts.literal(var.id, Decoration::DescriptorSet)?;
    let binding = facts.literal(var.id, Decoration::Binding)?;
    let k = binding.checked_sub(ctx.layout.bindless_binding(0))?;
    let target = crate::ir::TexTarget::ALL
        .get(k as usize)?
        .name()
        .to_string();
    Some(BindlessTextures {
        target,
        descriptor_type,
        set,
        binding,
        count,
        ty: facts.type_name(var.pointee),
        sampled_type,
    })
}

fn image_unit(
    ctx: &Context<'_>,
    var: &module::GlobalVar,
    uses: &BTreeMap<u32, ImageUse>,
) -> Option<ImageUnit> {
    let facts = ctx.facts;
    let Ty::Image(i) = facts.ty(var.pointee) else {
        return None;
    };
    if !i.storage {
        return None;
    }
    let set = facts.literal(var.id, Decoration::DescriptorSet)?;
    let binding = facts.literal(var.id, Decoration::Binding)?;
    let unit = binding.checked_sub(ctx.layout.image_binding(0))?;
    let u = uses.get(&unit)?;
    Some(ImageUnit {
        unit,
        target: u.target.clone(),
        set,
        binding,
        ty: facts.type_name(var.pointee),
        sampled_type: i.sampled_type,
        format: i.format.and(u.format.clone()),
        data_format: u.data_format.clone(),
        access: u.access(),
    })
}

fn texture_unit(
    ctx: &Context<'_>,
    var: &module::GlobalVar,
    targets: &BTreeMap<u32, &'static str>,
) -> Option<TextureUnit> {
    let facts = ctx.facts;
    let cg = ctx.cg;
    let ty = match facts.ty(var.pointee) {
        Ty::Array(e, _) => *e,
        t => t,
    };
    let (sampled_type, descriptor_type) = match &ty {
        Ty::SampledImage(i) => (i.sampled_type, DescriptorType::CombinedImageSampler),
        Ty::Image(i) if !i.storage => (i.sampled_type, DescriptorType::UniformTexelBuffer),
        _ => return None,
    };
    let set = facts.literal(var.id, Decoration::DescriptorSet)?;
    let binding = facts.literal(var.id, Decoration::Binding)?;
    let unit = binding.checked_sub(ctx.layout.texture_binding)?;
    Some(TextureUnit {
        unit,
        target: targets.get(&unit).map(|t| t.to_string()),
        descriptor_type,
        set,
        binding,
        ty: facts.type_name(var.pointee),
        sampled_type,
        cg: ResolvedCg::names_for(cg, |t| *t == Target::Texture(unit)),
        sampler: ctx
            .program
            .samplers
            .iter()
            .find(|s| s.unit == unit)
            .copied(),
    })
}

fn interface_variables(
    ctx: &Context<'_>,
    var: &module::GlobalVar,
    output: bool,
) -> Vec<InterfaceVariable> {
    let facts = ctx.facts;
    // A block of built-ins (gl_PerVertex) gives one entry per member.
    if let Ty::Struct(s) = facts.ty(var.pointee) {
        return facts
            .struct_members(s)
            .iter()
            .enumerate()
            .filter_map(|(m, &ty)| {
                let builtin = facts.member_builtin(s, m as u32)?;
                Some(slot_variable(ctx, ty, None, Some(builtin), None, output))
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
    let varying = match ctx.program.stage {
        Stage::Vertex => output,
        Stage::Fragment => !output,
        Stage::Geometry | Stage::TessControl | Stage::TessEval => true,
        Stage::Compute => false,
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
    // A stream's copy of a result (docs/interface.md, "Transform
    // feedback") is at a Location of its own: its bindings are those of
    // the result it copies (`copy_stream_bindings`).
    let stream = facts.literal(var.id, Decoration::Stream).unwrap_or(0);
    let slot_location = location.filter(|_| stream == 0);
    let slot_builtin = builtin.filter(|_| stream == 0);
    let mut v = slot_variable(
        ctx,
        var.pointee,
        slot_location,
        slot_builtin,
        interpolation,
        output,
    );
    v.location = location;
    v.built_in = builtin.and_then(BuiltIn::from_spirv);
    v.centroid = facts.has(var.id, Decoration::Centroid);
    v.invariant = facts.has(var.id, Decoration::Invariant);
    v.transform_feedback =
        facts
            .literal(var.id, Decoration::XfbBuffer)
            .map(|buffer| TransformFeedback {
                stream,
                buffer,
                offset: facts.literal(var.id, Decoration::Offset).unwrap_or(0),
                stride: facts.literal(var.id, Decoration::XfbStride).unwrap_or(0),
            });
    vec![v]
}

/// The copies of the results for vertex streams 1 to 3 (docs/interface.md,
/// "Transform feedback") take the bindings, names and Cg names of the
/// stream-0 result captured at the same offset.
fn copy_stream_bindings(outputs: &mut [InterfaceVariable]) {
    let originals: Vec<(u32, InterfaceVariable)> = outputs
        .iter()
        .filter_map(|v| {
            let x = v.transform_feedback?;
            (x.stream == 0).then(|| (x.offset, v.clone()))
        })
        .collect();
    for v in outputs.iter_mut() {
        let Some(x) = v.transform_feedback.filter(|x| x.stream > 0) else {
            continue;
        };
        if let Some((_, o)) = originals.iter().find(|(offset, _)| *offset == x.offset) {
            v.bindings = o.bindings.clone();
            v.names = o.names.clone();
            v.cg = o.cg.clone();
        }
    }
}

fn slot_variable(
    ctx: &Context<'_>,
    ty: Word,
    location: Option<u32>,
    builtin: Option<rspirv::spirv::BuiltIn>,
    interpolation: Option<Interpolation>,
    output: bool,
) -> InterfaceVariable {
    let program = ctx.program;
    let (component_type, components, array_length) = match ctx.facts.ty(ty) {
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
    // The slots the fixed-function work of options reads and writes
    // (docs/semantics.md, "Options").
    if slot.is_some() {
        if output {
            for b in ctx.fixed.results() {
                if result_slot(stage, &b) == slot {
                    bindings.insert(result_text(&b));
                }
            }
        } else {
            let mut implicit = ctx.fixed.attribs();
            if ctx.fixed.two_sided {
                // The back colours two-sided selection reads.
                for secondary in [false, true] {
                    implicit.push(AttribBinding::Color(ColorSel {
                        back: true,
                        secondary,
                    }));
                }
            }
            for b in implicit {
                if attrib_slot(stage, &b) == slot {
                    bindings.insert(attrib_text(stage, &b));
                }
            }
        }
    }
    let cg = ResolvedCg::names_for(ctx.cg, |t| match t {
        Target::Attrib(b) if !output => slot.is_some() && attrib_slot(stage, b) == slot,
        Target::Result(b) if output => slot.is_some() && result_slot(stage, b) == slot,
        _ => false,
    });
    // The renderer's VkVertexInputAttributeDescription::format: 32-bit
    // components of the input's numeric type (Vulkan's "Vertex Input
    // Extraction": the format's numeric type must match the input's).
    let vertex_format = (stage == Stage::Vertex && !output && location.is_some()).then(|| {
        let channels = ["R32", "G32", "B32", "A32"];
        let suffix = match component_type {
            ComponentType::Float => "SFLOAT",
            ComponentType::Int => "SINT",
            ComponentType::Uint | ComponentType::Bool => "UINT",
        };
        format!(
            "{}_{suffix}",
            channels[..(components as usize).clamp(1, 4)].concat()
        )
    });
    InterfaceVariable {
        location,
        built_in: builtin.and_then(BuiltIn::from_spirv),
        component_type,
        components,
        array_length,
        vertex_format,
        interpolation,
        centroid: false,
        invariant: false,
        bindings: bindings.into_iter().collect(),
        names: names.into_iter().collect(),
        cg,
        transform_feedback: None,
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
        Stage::Geometry | Stage::TessControl | Stage::TessEval => "primitive",
        Stage::Compute => "invocation",
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
        other => crate::interp::attribute_name(stage, other),
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
        R::SampleMask => "result.samplemask".to_string(),
        R::FogCoord => "result.fogcoord".to_string(),
        R::PointSize => "result.pointsize".to_string(),
        R::TexCoord(n) => format!("result.texcoord[{n}]"),
        R::Clip(n) => format!("result.clip[{n}]"),
        R::Generic(n) => format!("result.attrib[{n}]"),
        R::Id => "result.id".to_string(),
        R::Layer => "result.layer".to_string(),
        R::PrimitiveId => "result.primid".to_string(),
        R::Patch(_) => crate::interp::result_name(binding),
    }
}

/// Int64Atomics needs a feature per kind of memory its 64-bit atomics
/// reach (Vulkan 1.3, appendix "SPIR-V Environment"): Workgroup memory
/// `shaderSharedInt64Atomics` (64-bit ATOMS), buffer memory
/// `shaderBufferInt64Atomics` (ATOMB, ATOM). The reflection reads only
/// declarations, so it goes by the pointer types to 64-bit integers the
/// module declares in each class, which nvp4c makes for those atomics.
fn int64_atomic_features(module: &rspirv::dr::Module) -> Vec<&'static str> {
    use rspirv::dr::Operand as O;
    use rspirv::spirv::{Capability, Op, StorageClass as S};
    let declared = module
        .capabilities
        .iter()
        .any(|i| i.operands.first() == Some(&O::Capability(Capability::Int64Atomics)));
    if !declared {
        return Vec::new();
    }
    let types = &module.types_global_values;
    let is_int64 = |ty: &Word| {
        types.iter().any(|i| {
            i.result_id == Some(*ty)
                && i.class.opcode == Op::TypeInt
                && i.operands.first() == Some(&O::LiteralBit32(64))
        })
    };
    let mut features = Vec::new();
    for i in types.iter().filter(|i| i.class.opcode == Op::TypePointer) {
        if let [O::StorageClass(class), O::IdRef(pointee)] = i.operands.as_slice() {
            if !is_int64(pointee) {
                continue;
            }
            match class {
                S::Workgroup => features.push("shaderSharedInt64Atomics"),
                S::StorageBuffer | S::Uniform | S::PhysicalStorageBuffer => {
                    features.push("shaderBufferInt64Atomics")
                }
                _ => {}
            }
        }
    }
    features
}

/// Whether the module has atomics on float texels (ATOMIM's F32 with
/// NV_shader_atomic_float): a pointer into an image to a float, which only
/// OpImageTexelPointer of an r32f image gives. Vulkan gates them by
/// VK_EXT_shader_atomic_float's shaderImageFloat32Atomics, not by a
/// capability.
fn float_image_atomics(module: &rspirv::dr::Module) -> bool {
    use rspirv::dr::Operand as O;
    use rspirv::spirv::{Op, StorageClass as S};
    let types = &module.types_global_values;
    let is_float = |ty: &Word| {
        types
            .iter()
            .any(|i| i.result_id == Some(*ty) && i.class.opcode == Op::TypeFloat)
    };
    types.iter().any(|i| {
        i.class.opcode == Op::TypePointer
            && matches!(i.operands.as_slice(), [O::StorageClass(S::Image), O::IdRef(t)] if is_float(t))
    })
}

/// [`Reflection::device_features`]: the feature each declared capability
/// needs (Vulkan 1.3, appendix "SPIR-V Environment", "Capabilities");
/// capabilities every device has (Shader, ImageQuery, Sampled1D, ...) and
/// those gated by properties rather than features (the GroupNonUniform
/// ones: `subgroupSupportedOperations`) need none.
fn device_features(facts: &ModuleFacts) -> Vec<String> {
    use rspirv::spirv::Capability as C;
    let mut features: Vec<String> = facts
        .module
        .capabilities
        .iter()
        .filter_map(|i| match i.operands.first() {
            Some(rspirv::dr::Operand::Capability(c)) => Some(*c),
            _ => None,
        })
        .filter_map(|c| {
            Some(match c {
                C::Geometry => "geometryShader",
                C::Tessellation => "tessellationShader",
                C::GeometryPointSize | C::TessellationPointSize => {
                    "shaderTessellationAndGeometryPointSize"
                }
                C::GeometryStreams => "geometryStreams",
                C::TransformFeedback => "transformFeedback",
                C::Float64 => "shaderFloat64",
                C::Int64 => "shaderInt64",
                C::Int16 => "shaderInt16",
                C::Float16 => "shaderFloat16",
                C::Int8 => "shaderInt8",
                C::SampleRateShading => "sampleRateShading",
                C::ClipDistance => "shaderClipDistance",
                C::CullDistance => "shaderCullDistance",
                C::ImageCubeArray | C::SampledCubeArray => "imageCubeArray",
                C::ImageGatherExtended => "shaderImageGatherExtended",
                C::StorageImageExtendedFormats => "shaderStorageImageExtendedFormats",
                C::StorageImageReadWithoutFormat => "shaderStorageImageReadWithoutFormat",
                C::StorageImageWriteWithoutFormat => "shaderStorageImageWriteWithoutFormat",
                C::StorageImageMultisample => "shaderStorageImageMultisample",
                C::MinLod => "shaderResourceMinLod",
                C::PhysicalStorageBufferAddresses => "bufferDeviceAddress",
                C::DemoteToHelperInvocation => "shaderDemoteToHelperInvocation",
                C::VulkanMemoryModel => "vulkanMemoryModel",
                // Only ATOMIM.ADD.F32 on an r32f image declares it
                // (docs/interface.md, "Images").
                C::AtomicFloat32AddEXT => "shaderImageFloat32AtomicAdd",
                _ => return None,
            })
        })
        .map(str::to_string)
        .collect();
    if float_image_atomics(&facts.module) {
        features.push("shaderImageFloat32Atomics".into());
    }
    features.extend(
        int64_atomic_features(&facts.module)
            .iter()
            .map(|f| f.to_string()),
    );
    features.sort();
    features.dedup();
    features
}

fn limits_used(program: &Program, walked: &BodyWalk) -> LimitsUsed {
    let mut used = LimitsUsed {
        instructions: walked.instructions,
        if_depth: walked.if_depth,
        loop_depth: walked.loop_depth,
        subroutines: walked.subroutines,
        texture_units: walked.textures.len() as u32,
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
