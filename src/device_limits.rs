//! The Vulkan device a module is compiled for: the `VkPhysicalDeviceLimits`
//! that decide whether a pipeline with the module can be created, and the
//! check that refuses, with a coded diagnostic on the binding, a program
//! whose module exceeds them (E0810-E0822) — instead of a module that
//! passes spirv-val and then fails at `vkCreateGraphicsPipelines`
//! (docs/limits.md, "Device limits").
//!
//! The check reads the reflection of the module nvp4c produced, so it
//! counts exactly what the module declares.
//!
//! ```
//! let mut options = nvp4c::Options::default();
//! assert_eq!(options.device_limits.max_clip_distances, 8);
//! let src = "!!NVvp4.0\nMOV result.position, vertex.position;\nMOV result.clip[99].x, 1;\nEND\n";
//! let errors = nvp4c::compile(src, &options).unwrap_err();
//! assert_eq!(errors.iter().next().unwrap().code, "E0810");
//! options.device_limits.max_clip_distances = 128;
//! options.device_limits.max_combined_clip_and_cull_distances = 128;
//! assert!(nvp4c::compile(src, &options).is_ok());
//! ```

use std::collections::BTreeMap;

use serde_json::Value;

use crate::diag::Diagnostic;
use crate::ir::{AttribBinding, Program, ResultBinding, Stmt, VarKind};
use crate::isa::Stage;
use crate::reflect::{BuiltIn, InterfaceVariable, Reflection};
use crate::span::Span;
use crate::spirv::{attrib_slot, result_slot, InterfaceSlot};
use crate::Options;

/// The limits of a Vulkan device that matter to nvp4c's modules, named as
/// `VkPhysicalDeviceLimits` names them (snake case). Every field is a
/// count, or a size in bytes.
///
/// [`DeviceLimits::default`] is [`DeviceLimits::desktop`]; load a real
/// device's with [`DeviceLimits::from_json`] (`vulkaninfo --json`).
///
/// ```
/// let lavapipe = std::fs::read_to_string("tests/fixtures/device-limits/lavapipe.json").unwrap();
/// let limits = nvp4c::device_limits::DeviceLimits::from_json(&lavapipe).unwrap();
/// assert_eq!(limits.max_vertex_input_attributes, 32);
/// assert_eq!(limits.max_geometry_output_vertices, 1024);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct DeviceLimits {
    /// `maxBoundDescriptorSets`: every DescriptorSet is below it.
    pub max_bound_descriptor_sets: u32,
    /// `maxPerStageDescriptorUniformBuffers`: uniform blocks of one module.
    pub max_per_stage_descriptor_uniform_buffers: u32,
    /// `maxPerStageDescriptorSamplers`: combined image samplers of one module.
    pub max_per_stage_descriptor_samplers: u32,
    /// `maxPerStageDescriptorSampledImages`: combined image samplers and
    /// uniform texel buffers of one module.
    pub max_per_stage_descriptor_sampled_images: u32,
    /// `maxPerStageDescriptorStorageImages`: storage images (image units)
    /// of one module.
    pub max_per_stage_descriptor_storage_images: u32,
    /// `maxPerStageResources`: every descriptor of one module, and a
    /// fragment module's colour outputs.
    pub max_per_stage_resources: u32,
    /// `maxUniformBufferRange`: bytes of one uniform block.
    pub max_uniform_buffer_range: u32,
    /// `maxPushConstantsSize`: the end of the push constant range.
    pub max_push_constants_size: u32,
    /// `maxVertexInputAttributes`: vertex input Locations are below it.
    pub max_vertex_input_attributes: u32,
    /// `maxVertexOutputComponents`: vertex output Locations are below a
    /// quarter of it.
    pub max_vertex_output_components: u32,
    /// `maxGeometryInputComponents`: geometry input Locations.
    pub max_geometry_input_components: u32,
    /// `maxGeometryOutputComponents`: geometry output Locations.
    pub max_geometry_output_components: u32,
    /// `maxGeometryOutputVertices`: VERTICES_OUT.
    pub max_geometry_output_vertices: u32,
    /// `maxGeometryTotalOutputComponents`: VERTICES_OUT times the output
    /// components of one vertex.
    pub max_geometry_total_output_components: u32,
    /// `maxFragmentInputComponents`: fragment input Locations.
    pub max_fragment_input_components: u32,
    /// `maxFragmentOutputAttachments`: fragment output Locations.
    pub max_fragment_output_attachments: u32,
    /// `maxColorAttachments`: fragment output Locations.
    pub max_color_attachments: u32,
    /// `maxClipDistances`: the ClipDistance array's length (0 without
    /// `shaderClipDistance`).
    pub max_clip_distances: u32,
    /// `maxCombinedClipAndCullDistances`.
    pub max_combined_clip_and_cull_distances: u32,
    /// `maxTransformFeedbackBufferDataStride`
    /// (`VkPhysicalDeviceTransformFeedbackPropertiesEXT`): the `XfbStride`
    /// of the record `Options::transform_feedback` captures.
    pub max_transform_feedback_buffer_data_stride: u32,
    /// `maxTransformFeedbackBufferDataSize`: the bytes of one vertex
    /// captured into one buffer (the record).
    pub max_transform_feedback_buffer_data_size: u32,
    /// `maxTransformFeedbackStreamDataSize`: the bytes of one vertex
    /// captured from one stream (the record: each stream has one buffer).
    pub max_transform_feedback_stream_data_size: u32,
    /// `maxTransformFeedbackStreams`: the vertex streams a geometry
    /// program may emit to (EMITS reaches streams 0 to 3).
    pub max_transform_feedback_streams: u32,
    /// `maxTransformFeedbackBuffers`: the buffers a capture binds (one per
    /// stream).
    pub max_transform_feedback_buffers: u32,
}

impl Default for DeviceLimits {
    fn default() -> DeviceLimits {
        DeviceLimits::desktop()
    }
}

/// Field name ↔ `VkPhysicalDeviceLimits` member.
macro_rules! limit_names {
    ($($field:ident = $vk:literal),* $(,)?) => {
        impl DeviceLimits {
            /// Every limit with its `VkPhysicalDeviceLimits` name.
            pub fn fields(&self) -> Vec<(&'static str, u32)> {
                vec![$(($vk, self.$field)),*]
            }
            fn field_mut(&mut self, vk: &str) -> Option<&mut u32> {
                match vk {
                    $($vk => Some(&mut self.$field),)*
                    _ => None,
                }
            }
        }
    };
}

limit_names! {
    max_bound_descriptor_sets = "maxBoundDescriptorSets",
    max_per_stage_descriptor_uniform_buffers = "maxPerStageDescriptorUniformBuffers",
    max_per_stage_descriptor_samplers = "maxPerStageDescriptorSamplers",
    max_per_stage_descriptor_sampled_images = "maxPerStageDescriptorSampledImages",
    max_per_stage_descriptor_storage_images = "maxPerStageDescriptorStorageImages",
    max_per_stage_resources = "maxPerStageResources",
    max_uniform_buffer_range = "maxUniformBufferRange",
    max_push_constants_size = "maxPushConstantsSize",
    max_vertex_input_attributes = "maxVertexInputAttributes",
    max_vertex_output_components = "maxVertexOutputComponents",
    max_geometry_input_components = "maxGeometryInputComponents",
    max_geometry_output_components = "maxGeometryOutputComponents",
    max_geometry_output_vertices = "maxGeometryOutputVertices",
    max_geometry_total_output_components = "maxGeometryTotalOutputComponents",
    max_fragment_input_components = "maxFragmentInputComponents",
    max_fragment_output_attachments = "maxFragmentOutputAttachments",
    max_color_attachments = "maxColorAttachments",
    max_clip_distances = "maxClipDistances",
    max_combined_clip_and_cull_distances = "maxCombinedClipAndCullDistances",
    max_transform_feedback_buffer_data_stride = "maxTransformFeedbackBufferDataStride",
    max_transform_feedback_buffer_data_size = "maxTransformFeedbackBufferDataSize",
    max_transform_feedback_stream_data_size = "maxTransformFeedbackStreamDataSize",
    max_transform_feedback_streams = "maxTransformFeedbackStreams",
    max_transform_feedback_buffers = "maxTransformFeedbackBuffers",
}

/// Vulkan's required minimum of `maxTransformFeedbackBufferDataStride`,
/// `maxTransformFeedbackBufferDataSize` and
/// `maxTransformFeedbackStreamDataSize` (the Vulkan specification's
/// "Required Limits" table, with `transformFeedback`): 512 bytes. The
/// desktop default too: the baseline profile leaves VK_EXT_transform_feedback
/// out, and RADV and lavapipe report exactly 512.
const XFB_MINIMUM: u32 = 512;

impl DeviceLimits {
    /// nvp4c's default, a common desktop device: the LunarG desktop
    /// baseline profile (`VP_LUNARG_desktop_baseline_2022`, which every
    /// desktop GPU of the last decade meets on Windows, Linux and macOS)
    /// for everything but geometry shaders, which that profile leaves out
    /// (macOS has none): for those, Vulkan's required minimums, except 128
    /// output components (what desktop drivers and lavapipe report; 64
    /// would put `result.attrib[2]` and above out of reach). The transform
    /// feedback record sizes, which the profile leaves out too, are
    /// Vulkan's required minimum, 512 bytes. docs/limits.md lists every
    /// value.
    ///
    /// ```
    /// let d = nvp4c::device_limits::DeviceLimits::desktop();
    /// assert_eq!((d.max_vertex_input_attributes, d.max_fragment_input_components), (28, 116));
    /// ```
    pub fn desktop() -> DeviceLimits {
        DeviceLimits {
            max_bound_descriptor_sets: 8,
            max_per_stage_descriptor_uniform_buffers: 15,
            max_per_stage_descriptor_samplers: 16,
            max_per_stage_descriptor_sampled_images: 128,
            max_per_stage_descriptor_storage_images: 8,
            max_per_stage_resources: 159,
            max_uniform_buffer_range: 65536,
            max_push_constants_size: 128,
            max_vertex_input_attributes: 28,
            max_vertex_output_components: 124,
            max_geometry_input_components: 64,
            max_geometry_output_components: 128,
            max_geometry_output_vertices: 256,
            max_geometry_total_output_components: 1024,
            max_fragment_input_components: 116,
            max_fragment_output_attachments: 8,
            max_color_attachments: 8,
            max_clip_distances: 8,
            max_combined_clip_and_cull_distances: 8,
            max_transform_feedback_buffer_data_stride: XFB_MINIMUM,
            max_transform_feedback_buffer_data_size: XFB_MINIMUM,
            max_transform_feedback_stream_data_size: XFB_MINIMUM,
            // What lavapipe, RADV, ANV and NVIDIA's driver report
            // (MAX_VERTEX_STREAMS_NV); Vulkan's minimum is 1.
            max_transform_feedback_streams: crate::spirv::MAX_VERTEX_STREAMS,
            max_transform_feedback_buffers: crate::spirv::MAX_VERTEX_STREAMS,
        }
    }

    /// What every Vulkan 1.0 device with `geometryShader` and
    /// `shaderClipDistance` guarantees (the Vulkan specification's
    /// "Required Limits" table): a module within these runs everywhere.
    ///
    /// ```
    /// let m = nvp4c::device_limits::DeviceLimits::vulkan_minimum();
    /// assert_eq!((m.max_bound_descriptor_sets, m.max_uniform_buffer_range), (4, 16384));
    /// ```
    pub fn vulkan_minimum() -> DeviceLimits {
        DeviceLimits {
            max_bound_descriptor_sets: 4,
            max_per_stage_descriptor_uniform_buffers: 12,
            max_per_stage_descriptor_samplers: 16,
            max_per_stage_descriptor_sampled_images: 16,
            max_per_stage_descriptor_storage_images: 4,
            max_per_stage_resources: 128,
            max_uniform_buffer_range: 16384,
            max_push_constants_size: 128,
            max_vertex_input_attributes: 16,
            max_vertex_output_components: 64,
            max_geometry_input_components: 64,
            max_geometry_output_components: 64,
            max_geometry_output_vertices: 256,
            max_geometry_total_output_components: 1024,
            max_fragment_input_components: 64,
            max_fragment_output_attachments: 4,
            max_color_attachments: 4,
            max_clip_distances: 8,
            max_combined_clip_and_cull_distances: 8,
            max_transform_feedback_buffer_data_stride: XFB_MINIMUM,
            max_transform_feedback_buffer_data_size: XFB_MINIMUM,
            max_transform_feedback_stream_data_size: XFB_MINIMUM,
            max_transform_feedback_streams: 1,
            max_transform_feedback_buffers: 1,
        }
    }

    /// Reads a device's limits from JSON: what `vulkaninfo --json` writes
    /// (the Vulkan Profiles layout, `capabilities.*.properties.
    /// VkPhysicalDeviceProperties.limits`), the older devsim layout
    /// (`VkPhysicalDeviceProperties.limits` at the top), an object with a
    /// `limits` member, or the limits object itself. Limits the JSON does
    /// not give keep their [`DeviceLimits::desktop`] value; with
    /// `shaderClipDistance` or `geometryShader` given as false among the
    /// features, the clip distance or geometry limits are 0.
    ///
    /// ```
    /// use nvp4c::device_limits::DeviceLimits;
    /// let l = DeviceLimits::from_json(r#"{"maxClipDistances": 4, "maxPushConstantsSize": 256}"#).unwrap();
    /// assert_eq!((l.max_clip_distances, l.max_push_constants_size), (4, 256));
    /// assert!(DeviceLimits::from_json(r#"{"limits": {"maxClipDistances": -1}}"#).is_err());
    /// assert!(DeviceLimits::from_json("{}").is_err());
    /// ```
    pub fn from_json(text: &str) -> Result<DeviceLimits, String> {
        let root: Value = serde_json::from_str(text).map_err(|e| format!("not valid JSON: {e}"))?;
        let (limits, features, xfb) = find_limits(&root).ok_or_else(|| {
            "no Vulkan device limits in it (expected `vulkaninfo --json` output, or an object of VkPhysicalDeviceLimits members such as \"maxClipDistances\")".to_string()
        })?;
        let mut out = DeviceLimits::desktop();
        let mut found = 0;
        for (key, value) in limits.iter().chain(xfb.into_iter().flatten()) {
            let Some(field) = out.field_mut(key) else {
                continue;
            };
            let n = match value {
                Value::Number(n) => n.as_u64(),
                Value::String(s) => s.trim().parse::<u64>().ok(),
                _ => None,
            };
            *field = n
                .and_then(|n| u32::try_from(n).ok())
                .ok_or_else(|| format!("`{key}` is {value}, not a 32-bit unsigned integer"))?;
            found += 1;
        }
        if found == 0 {
            return Err(
                "none of the limits nvp4c checks is in it (docs/limits.md, \"Device limits\")"
                    .into(),
            );
        }
        if let Some(f) = features {
            if f.get("shaderClipDistance") == Some(&Value::Bool(false)) {
                out.max_clip_distances = 0;
            }
            if f.get("geometryShader") == Some(&Value::Bool(false)) {
                out.max_geometry_output_vertices = 0;
                out.max_geometry_input_components = 0;
                out.max_geometry_output_components = 0;
                out.max_geometry_total_output_components = 0;
            }
        }
        Ok(out)
    }
}

type Object = serde_json::Map<String, Value>;

/// The limits object, `VkPhysicalDeviceFeatures` and
/// `VkPhysicalDeviceTransformFeedbackPropertiesEXT`, when present.
type Found<'a> = (&'a Object, Option<&'a Object>, Option<&'a Object>);

/// `properties.VkPhysicalDeviceProperties.limits` (or
/// `VkPhysicalDeviceProperties.limits`) of `holder`, with its features and
/// its transform feedback properties (beside `VkPhysicalDeviceProperties`).
fn from_properties(holder: &Object) -> Option<Found<'_>> {
    let properties = |name: &str| {
        holder
            .get("properties")
            .and_then(|p| p.get(name))
            .or_else(|| holder.get(name))
    };
    let limits = properties("VkPhysicalDeviceProperties")?
        .get("limits")?
        .as_object()?;
    let xfb =
        properties("VkPhysicalDeviceTransformFeedbackPropertiesEXT").and_then(Value::as_object);
    let features = holder
        .get("features")
        .and_then(|f| f.get("VkPhysicalDeviceFeatures"))
        .or_else(|| holder.get("VkPhysicalDeviceFeatures"))
        .and_then(Value::as_object);
    Some((limits, features, xfb))
}

/// The limits object and, when present, `VkPhysicalDeviceFeatures` and
/// the transform feedback properties.
fn find_limits(root: &Value) -> Option<Found<'_>> {
    let obj = root.as_object()?;
    // vulkaninfo --json (Vulkan Profiles schema): the first capability
    // block with limits.
    if let Some(caps) = obj.get("capabilities").and_then(Value::as_object) {
        if let Some(found) = caps
            .values()
            .filter_map(Value::as_object)
            .find_map(from_properties)
        {
            return Some(found);
        }
    }
    if let Some(found) = from_properties(obj) {
        return Some(found);
    }
    if let Some(limits) = obj.get("limits").and_then(Value::as_object) {
        return Some((limits, None, None));
    }
    Some((obj, None, None))
}

/// Where a finding points: the binding (a declared or implicit variable)
/// that exceeds a limit, or the program's first line.
fn span_of_result(program: &Program, slot: InterfaceSlot) -> Option<Span> {
    program.variables.iter().find_map(|v| match &v.kind {
        VarKind::Result(b)
            if b.iter()
                .any(|b| result_slot(program.stage, b) == Some(slot)) =>
        {
            Some(v.span)
        }
        _ => None,
    })
}

fn span_of_attrib(program: &Program, slot: InterfaceSlot) -> Option<Span> {
    program.variables.iter().find_map(|v| match &v.kind {
        VarKind::Attrib(b)
            if b.iter()
                .any(|b| attrib_slot(program.stage, b) == Some(slot)) =>
        {
            Some(v.span)
        }
        _ => None,
    })
}

/// The first occurrence of the word `word` in the program text, outside
/// comments.
fn span_of_word(source: &str, word: &str) -> Option<Span> {
    let mut offset = 0;
    for line in source.split_inclusive('\n') {
        let code = line.split('#').next().unwrap_or("");
        if let Some(i) = code.find(word) {
            return Some(Span::new(offset + i, offset + i + word.len()));
        }
        offset += line.len();
    }
    None
}

/// The span of the first variable reading `binding_name`'s block
/// (`program.env`, `program.local`, `state`, `program.buffer[b]`).
fn span_of_block(program: &Program, binding_name: &str) -> Option<Span> {
    use crate::ir::ParamBinding as P;
    program.variables.iter().find_map(|v| {
        let hit = match &v.kind {
            VarKind::Param(bindings) => bindings.iter().any(|b| match b {
                P::Env(_) => binding_name == "program.env",
                P::Local(_) => binding_name == "program.local",
                P::State(_) => binding_name == "state",
                P::BufferElement { buffer, .. } => {
                    binding_name == format!("program.buffer[{buffer}]")
                }
                P::Subroutine(_) => binding_name == "program.subroutine",
                P::Constant(_) => false,
            }),
            VarKind::Buffer(b) => binding_name == format!("program.buffer[{}]", b.buffer),
            _ => false,
        };
        hit.then_some(v.span)
    })
}

/// Where each texture and image unit is first used, for the diagnostics
/// that point at one: gathered before the lowering frees the statements
/// (`spirv::lower_consuming`).
#[derive(Default)]
pub(crate) struct UnitSpans {
    /// The first instruction that uses `texture[unit]`.
    textures: BTreeMap<u32, Span>,
    /// The first image instruction on image unit `unit`.
    images: BTreeMap<u32, Span>,
}

impl UnitSpans {
    pub(crate) fn of(program: &Program) -> UnitSpans {
        // One walk for both maps: each walk of every statement is a pass of
        // cache misses on a big program (docs/performance.md, "Session 11
        // (linearity)").
        fn walk(block: &[Stmt], out: &mut UnitSpans) {
            for s in block {
                match s {
                    Stmt::Inst(i) => {
                        for &unit in i.tex.as_ref().map_or(&[][..], |t| t.units()) {
                            out.textures.entry(unit).or_insert(i.span);
                        }
                        for &unit in i.image.as_ref().map_or(&[][..], |a| a.units()) {
                            out.images.entry(unit).or_insert(i.span);
                        }
                    }
                    Stmt::ImageStore { image, span, .. } => {
                        for &unit in image.units() {
                            out.images.entry(unit).or_insert(*span);
                        }
                    }
                    // IF, REP and LOOP bodies.
                    _ => s.blocks().for_each(|b| walk(b, out)),
                }
            }
        }
        let mut spans = UnitSpans::default();
        for sub in &program.subroutines {
            walk(&sub.body, &mut spans);
        }
        spans
    }

    fn texture(&self, unit: u32) -> Option<Span> {
        self.textures.get(&unit).copied()
    }

    fn image(&self, unit: u32) -> Option<Span> {
        self.images.get(&unit).copied()
    }
}

fn plural(n: u32, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// Components of one interface variable counted against a components
/// limit: 4 per Location (a Location is the unit Vulkan assigns), the
/// built-in's own components otherwise.
fn components(v: &InterfaceVariable) -> u32 {
    match v.location {
        Some(_) => 4,
        None => v.components.saturating_mul(v.array_length.unwrap_or(1)),
    }
}

/// Checks a compiled module's reflection against `options.device_limits`:
/// the E0810-E0822 errors, each on the binding that exceeds a limit (or on
/// the program text that asks for it).
pub(crate) fn check(
    program: &Program,
    units: &UnitSpans,
    reflection: &Reflection,
    source: &str,
    options: &Options,
) -> Vec<Diagnostic> {
    let limits = &options.device_limits;
    let stage = program.stage;
    let start = Span::new(0, 0);
    let mut out = Vec::new();
    let vk = |name: &str| {
        format!("the device's {name} (Options::device_limits, --device-limits; docs/limits.md, \"Device limits\")")
    };

    // E0810: clip distances.
    let clip_limit = limits
        .max_clip_distances
        .min(limits.max_combined_clip_and_cull_distances);
    for v in reflection.inputs.iter().chain(&reflection.outputs) {
        if v.built_in != Some(BuiltIn::ClipDistance) {
            continue;
        }
        let len = v.array_length.unwrap_or(1);
        if len <= clip_limit {
            continue;
        }
        // The highest clip distance the program names, else the option
        // that adds user clipping.
        let mut worst: Option<(u32, Span)> = None;
        for var in &program.variables {
            let ns: Vec<u32> = match &var.kind {
                VarKind::Result(b) => b
                    .iter()
                    .filter_map(|r| match r {
                        ResultBinding::Clip(n) => Some(*n),
                        _ => None,
                    })
                    .collect(),
                VarKind::Attrib(b) => b
                    .iter()
                    .filter_map(|a| match a {
                        AttribBinding::Clip(n) => Some(*n),
                        AttribBinding::PerVertex {
                            binding: crate::ir::PerVertexAttrib::Clip(n),
                            ..
                        } => Some(*n),
                        _ => None,
                    })
                    .collect(),
                _ => continue,
            };
            for n in ns {
                if n >= clip_limit && worst.is_none_or(|(w, _)| n > w) {
                    worst = Some((n, var.span));
                }
            }
        }
        let (span, label) = match worst {
            Some((n, span)) => (span, format!("clip distance {n}")),
            None => (
                span_of_word(source, "ARB_position_invariant").unwrap_or(start),
                format!(
                    "user clipping with {} clip planes (Options::user_clip_planes, --user-clip-planes)",
                    options.user_clip_planes
                ),
            ),
        };
        out.push(
            Diagnostic::error("E0810", format!("{len} clip distances, more than the device's {clip_limit}"))
                .primary(span, label)
                .note(format!("the module's ClipDistance array has {len} elements; {}", vk(&format!("maxClipDistances is {} and maxCombinedClipAndCullDistances {}", limits.max_clip_distances, limits.max_combined_clip_and_cull_distances))))
                .note("Vulkan: a pipeline whose shader declares more clip distances than maxClipDistances cannot be created"),
        );
    }

    // E0811: vertex input Locations.
    if stage == Stage::Vertex {
        for v in &reflection.inputs {
            if let Some(l) = v
                .location
                .filter(|&l| l >= limits.max_vertex_input_attributes)
            {
                let span = span_of_attrib(program, InterfaceSlot::Location(l)).unwrap_or(start);
                out.push(
                    Diagnostic::error("E0811", format!("vertex attribute Location {l} is past the device's {} vertex input attributes", limits.max_vertex_input_attributes))
                        .primary(span, format!("{} is Location {l}", v.bindings.join(", ")))
                        .note(format!("vertex inputs use Locations 0 to {}: {}", limits.max_vertex_input_attributes.saturating_sub(1), vk(&format!("maxVertexInputAttributes is {}", limits.max_vertex_input_attributes))))
                        .note("docs/interface.md, \"Vertex attributes\": vertex.attrib[n] is Location n, vertex.texcoord[n] Location 8 + n"),
                );
            }
        }
    }

    // E0812 / E0813: varying Locations (Vulkan, "Shader Input and Output
    // Locations": a quarter of the components limit).
    let varying_limits: &[(bool, u32, &str, &str)] = match stage {
        Stage::Vertex => &[(
            true,
            limits.max_vertex_output_components,
            "maxVertexOutputComponents",
            "E0812",
        )],
        Stage::Geometry => &[
            (
                false,
                limits.max_geometry_input_components,
                "maxGeometryInputComponents",
                "E0813",
            ),
            (
                true,
                limits.max_geometry_output_components,
                "maxGeometryOutputComponents",
                "E0812",
            ),
        ],
        Stage::Fragment => &[(
            false,
            limits.max_fragment_input_components,
            "maxFragmentInputComponents",
            "E0813",
        )],
        // DeviceLimits does not read the tessellation component limits
        // yet (docs/limits.md); a compute program has no varyings.
        Stage::TessControl | Stage::TessEval | Stage::Compute => &[],
    };
    for &(output, limit, name, code) in varying_limits {
        let list = if output {
            &reflection.outputs
        } else {
            &reflection.inputs
        };
        for v in list {
            let Some(l) = v.location else { continue };
            if u64::from(l) * 4 + 4 <= u64::from(limit) {
                continue;
            }
            // A result's copy for vertex stream k (Options::
            // transform_feedback) has a Location of its own, after the
            // program's.
            let copy_stream = v.transform_feedback.map_or(0, |x| x.stream);
            let slot = InterfaceSlot::Location(l);
            let span = if copy_stream > 0 {
                None
            } else if output {
                span_of_result(program, slot)
            } else {
                span_of_attrib(program, slot)
            }
            .unwrap_or(start);
            let what = if output { "output" } else { "input" };
            let label = if copy_stream > 0 {
                format!(
                    "the copy of {} for vertex stream {copy_stream} is Location {l}",
                    v.bindings.join(", ")
                )
            } else {
                format!("{} is Location {l}", v.bindings.join(", "))
            };
            let mut d = Diagnostic::error(code, format!("{stage} program {what} Location {l} is past the device's {} {what} Locations", limit / 4))
                .primary(span, label)
                .note(format!("Location {l} needs {} components; {}", 4 * l + 4, vk(&format!("{name} is {limit}"))))
                .note("docs/interface.md, \"Varyings\": result.texcoord[n] is Location 5 + n, result.attrib[n] Location 14 + n");
            if copy_stream > 0 {
                d = d.note("docs/interface.md, \"Transform feedback\": with transform feedback capture, each vertex stream 1 to 3 of a program with EMITS has a copy of the results at Locations after the program's own");
            }
            out.push(d);
        }
    }

    // E0814: fragment outputs.
    if stage == Stage::Fragment {
        let limit = limits
            .max_fragment_output_attachments
            .min(limits.max_color_attachments);
        for v in &reflection.outputs {
            if let Some(l) = v.location.filter(|&l| l >= limit) {
                let span = span_of_result(program, InterfaceSlot::Location(l)).unwrap_or(start);
                out.push(
                    Diagnostic::error(
                        "E0814",
                        format!(
                            "colour output {l} is past the device's {limit} colour attachments"
                        ),
                    )
                    .primary(span, format!("{} is Location {l}", v.bindings.join(", ")))
                    .note(vk(&format!(
                        "maxFragmentOutputAttachments is {} and maxColorAttachments {}",
                        limits.max_fragment_output_attachments, limits.max_color_attachments
                    ))),
                );
            }
        }
    }

    // E0815: uniform block sizes.
    for b in &reflection.uniform_blocks {
        if b.size > limits.max_uniform_buffer_range {
            let span = span_of_block(program, &b.binding_name).unwrap_or(start);
            out.push(
                Diagnostic::error("E0815", format!("the {} block is {} bytes, more than the device's uniform buffer range of {}", b.binding_name, b.size, limits.max_uniform_buffer_range))
                    .primary(span, format!("reads {}", b.binding_name))
                    .note(vk(&format!("maxUniformBufferRange is {}", limits.max_uniform_buffer_range)))
                    .note("docs/interface.md: a block is as large as the highest element the program can reach (a relatively addressed array counts whole)"),
            );
        }
    }

    // E0816: uniform blocks per stage.
    let ubos = reflection.uniform_blocks.len() as u32;
    if ubos > limits.max_per_stage_descriptor_uniform_buffers {
        let last = &reflection.uniform_blocks[reflection.uniform_blocks.len() - 1];
        let span = span_of_block(program, &last.binding_name).unwrap_or(start);
        out.push(
            Diagnostic::error("E0816", format!("{ubos} uniform blocks, more than the device's {} per shader stage", limits.max_per_stage_descriptor_uniform_buffers))
                .primary(span, format!("{} is the last one", last.binding_name))
                .note(format!("the blocks: {}", reflection.uniform_blocks.iter().map(|b| b.binding_name.as_str()).collect::<Vec<_>>().join(", ")))
                .note(vk(&format!("maxPerStageDescriptorUniformBuffers is {}", limits.max_per_stage_descriptor_uniform_buffers)))
                .note("program.env and program.local can be push constants instead (Options::layout, --push-constants)"),
        );
    }

    // E0817: texture descriptors, NV_bindless_texture's arrays' elements
    // included.
    let combined = crate::reflect::DescriptorType::CombinedImageSampler;
    let bindless_samplers: u32 = reflection
        .bindless_textures
        .iter()
        .filter(|b| b.descriptor_type == combined)
        .map(|b| b.count)
        .sum();
    let bindless: u32 = reflection.bindless_textures.iter().map(|b| b.count).sum();
    let samplers = reflection
        .textures
        .iter()
        .filter(|t| t.descriptor_type == combined)
        .count() as u32
        + bindless_samplers;
    let images = reflection.textures.len() as u32 + bindless;
    for (count, limit, name) in [
        (
            samplers,
            limits.max_per_stage_descriptor_samplers,
            "maxPerStageDescriptorSamplers",
        ),
        (
            images,
            limits.max_per_stage_descriptor_sampled_images,
            "maxPerStageDescriptorSampledImages",
        ),
    ] {
        if count > limit {
            let last = reflection.textures.last().map(|t| t.unit);
            let span = last.and_then(|unit| units.texture(unit)).unwrap_or(start);
            let mut d = Diagnostic::error(
                "E0817",
                format!("{count} texture units, more than the device's {limit} per shader stage"),
            )
            .primary(
                span,
                last.map_or("this program".to_string(), |unit| {
                    format!("texture[{unit}] is the last one")
                }),
            )
            .note(vk(&format!("{name} is {limit}")));
            if bindless > 0 {
                d = d.note(format!("NV_bindless_texture's arrays hold {bindless} of them (docs/interface.md, \"Bindless textures\")"));
            }
            out.push(d);
            break;
        }
    }

    // E1199: image units (storage images), NV_bindless_texture's image
    // handle arrays' elements included.
    let bindless_images: u32 = reflection.bindless_images.iter().map(|b| b.count).sum();
    let storage_images = reflection.images.len() as u32 + bindless_images;
    if storage_images > limits.max_per_stage_descriptor_storage_images {
        let unit = reflection.images.last().map(|i| i.unit);
        let span = unit.and_then(|unit| units.image(unit)).unwrap_or(start);
        let mut d = Diagnostic::error(
            "E1199",
            format!(
                "{storage_images} image units, more than the device's {} per shader stage",
                limits.max_per_stage_descriptor_storage_images
            ),
        )
        .primary(
            span,
            unit.map_or("this program".to_string(), |unit| {
                format!("image[{unit}] is the last one")
            }),
        )
        .note(vk(&format!(
            "maxPerStageDescriptorStorageImages is {}",
            limits.max_per_stage_descriptor_storage_images
        )))
        .note("EXT_shader_image_load_store's image units are storage images (docs/interface.md, \"Images\")");
        if bindless_images > 0 {
            d = d.note(format!("NV_bindless_texture's image handle arrays hold {bindless_images} of them, 8 per target and format (docs/interface.md, \"Bindless images\")"));
        }
        out.push(d);
    }

    // E0818: every resource of the stage.
    let attachments = if stage == Stage::Fragment {
        reflection
            .outputs
            .iter()
            .filter(|v| v.location.is_some())
            .count() as u32
    } else {
        0
    };
    let resources = ubos + images + storage_images + attachments;
    if resources > limits.max_per_stage_resources {
        out.push(
            Diagnostic::error(
                "E0818",
                format!(
                    "{resources} resources, more than the device's {} per shader stage",
                    limits.max_per_stage_resources
                ),
            )
            .primary(start, "this program")
            .note(format!(
                "{}, {}{}{}",
                plural(ubos, "uniform block"),
                plural(images, "texture unit"),
                if storage_images > 0 {
                    format!(", {}", plural(storage_images, "image unit"))
                } else {
                    String::new()
                },
                if stage == Stage::Fragment {
                    format!(", {}", plural(attachments, "colour attachment"))
                } else {
                    String::new()
                }
            ))
            .note(vk(&format!(
                "maxPerStageResources is {}",
                limits.max_per_stage_resources
            ))),
        );
    }

    // E0819: descriptor sets.
    let sets = reflection
        .uniform_blocks
        .iter()
        .map(|b| (b.set, span_of_block(program, &b.binding_name)))
        .chain(
            reflection
                .textures
                .iter()
                .map(|t| (t.set, units.texture(t.unit))),
        );
    if let Some((set, span)) = sets
        .into_iter()
        .find(|(set, _)| *set >= limits.max_bound_descriptor_sets)
    {
        out.push(
            Diagnostic::error(
                "E0819",
                format!(
                    "descriptor set {set} is past the device's {} bound descriptor sets",
                    limits.max_bound_descriptor_sets
                ),
            )
            .primary(span.unwrap_or(start), format!("a resource in set {set}"))
            .note(format!(
                "sets are 0 to {}: {}",
                limits.max_bound_descriptor_sets.saturating_sub(1),
                vk(&format!(
                    "maxBoundDescriptorSets is {}",
                    limits.max_bound_descriptor_sets
                ))
            ))
            .note(
                "the set comes from Options::layout / Options::descriptor_set (--descriptor-set)",
            ),
        );
    }

    // E0820: push constants.
    if let Some(pc) = &reflection.push_constants {
        let end = u64::from(pc.offset) + u64::from(pc.size);
        if end > u64::from(limits.max_push_constants_size) {
            let pushed = pc
                .members
                .iter()
                .map(|m| format!("program.{}", m.name))
                .collect::<Vec<_>>();
            let span = pushed
                .iter()
                .find_map(|b| span_of_block(program, b))
                .unwrap_or(start);
            out.push(
                Diagnostic::error("E0820", format!("the push constants end at byte {end}, past the device's {}", limits.max_push_constants_size))
                    .primary(span, format!("{} in push constants", pushed.join(" and ")))
                    .note(format!("{} bytes from offset {}; {}", pc.size, pc.offset, vk(&format!("maxPushConstantsSize is {}", limits.max_push_constants_size))))
                    .note("PushConstants::Fit (--push-constants fit) keeps what does not fit in uniform blocks"),
            );
        }
    }

    // E1262: a point size in a geometry or tessellation program, for a
    // device without shaderTessellationAndGeometryPointSize.
    if !options.shader_tessellation_and_geometry_point_size
        && matches!(
            stage,
            Stage::Geometry | Stage::TessControl | Stage::TessEval
        )
    {
        for (list, output) in [(&reflection.outputs, true), (&reflection.inputs, false)] {
            let Some(v) = list.iter().find(|v| v.built_in == Some(BuiltIn::PointSize)) else {
                continue;
            };
            let slot = InterfaceSlot::BuiltIn(rspirv::spirv::BuiltIn::PointSize);
            let span = if output {
                span_of_result(program, slot)
            } else {
                span_of_attrib(program, slot)
            }
            .unwrap_or(start);
            let what = if output { "writes" } else { "reads" };
            out.push(
                Diagnostic::error("E1262", format!("{stage} program {what} a point size, and the device lacks shaderTessellationAndGeometryPointSize"))
                    .primary(span, format!("{} is PointSize", v.bindings.join(", ")))
                    .note("Vulkan, shaderTessellationAndGeometryPointSize: \"If this feature is not enabled, members decorated with the PointSize built-in decoration must not be read from or written to and all points written from a tessellation or geometry shader will have a size of 1.0\" (VUID-VkGraphicsPipelineCreateInfo-Geometry-07726)")
                    .note("Options::shader_tessellation_and_geometry_point_size is off (CLI --no-geometry-point-size); docs/interface.md, \"Point size\""),
            );
        }
    }

    // E1263: transform feedback capture for a program whose vertices
    // transform feedback never sees: Vulkan ("Transform Feedback")
    // captures the vertices of the last vertex processing stage (vertex,
    // tessellation evaluation or geometry). A tessellation control program
    // feeds the tessellator, a fragment program comes after rasterization,
    // a compute program has no vertices: the option there is a mistake
    // (the program meant for capture is compiled without it), not
    // something to ignore silently.
    if options.transform_feedback
        && matches!(stage, Stage::TessControl | Stage::Fragment | Stage::Compute)
    {
        out.push(
            Diagnostic::error("E1263", format!("transform feedback capture asked for a {stage} program"))
                .primary(start, format!("a {stage} program"))
                .note("Vulkan captures the vertices of the last stage before rasterization: a vertex, tessellation evaluation or geometry program (docs/interface.md, \"Transform feedback\")")
                .note("Options::transform_feedback (--transform-feedback) is for that program; compile this one without it"),
        );
    }

    // E1264: the transform feedback record (Options::transform_feedback)
    // is larger than the device captures per vertex.
    let record = reflection
        .outputs
        .iter()
        .filter_map(|v| v.transform_feedback)
        .map(|x| x.stride)
        .max();
    let xfb_limits = [
        (
            limits.max_transform_feedback_buffer_data_stride,
            "maxTransformFeedbackBufferDataStride",
        ),
        (
            limits.max_transform_feedback_buffer_data_size,
            "maxTransformFeedbackBufferDataSize",
        ),
        (
            limits.max_transform_feedback_stream_data_size,
            "maxTransformFeedbackStreamDataSize",
        ),
    ];
    if let (Some(record), Some(&(limit, name))) =
        (record, xfb_limits.iter().min_by_key(|(limit, _)| *limit))
    {
        if record > limit {
            // The first result (stream 0, by offset) whose bytes end past
            // the limit.
            let mut captured: Vec<(u32, &InterfaceVariable)> = reflection
                .outputs
                .iter()
                .filter_map(|v| {
                    v.transform_feedback
                        .filter(|x| x.stream == 0)
                        .map(|x| (x.offset, v))
                })
                .collect();
            captured.sort_by_key(|&(offset, _)| offset);
            let past = captured.iter().find(|(offset, v)| {
                offset + v.components * v.array_length.unwrap_or(1) * 4 > limit
            });
            let (span, label) = match past {
                Some((offset, v)) => {
                    let slot = match (v.location, v.built_in) {
                        (Some(l), _) => Some(InterfaceSlot::Location(l)),
                        (None, Some(b)) => Some(InterfaceSlot::BuiltIn(b.to_spirv())),
                        (None, None) => None,
                    };
                    (
                        slot.and_then(|slot| span_of_result(program, slot))
                            .unwrap_or(start),
                        format!("{} is captured at byte {offset}", v.bindings.join(", ")),
                    )
                }
                None => (start, "this program's results".to_string()),
            };
            out.push(
                Diagnostic::error("E1264", format!("the transform feedback record is {record} bytes, more than the device's {limit}"))
                    .primary(span, label)
                    .note(format!("every result is captured, 4 bytes a component: Position, then the Location results, then the other built-ins (docs/interface.md, \"Transform feedback\"); {}", vk(&format!("{name} is {limit}"))))
                    .note("Vulkan: XfbStride must not exceed maxTransformFeedbackBufferDataStride, nor a vertex's captured bytes maxTransformFeedbackBufferDataSize and maxTransformFeedbackStreamDataSize"),
            );
        }
    }

    // E1265: EMITS emits to vertex streams 0 to 3 (a switch over them,
    // geometry.rs), and with capture each stream has its buffer; Vulkan
    // requires every stream a module emits to be below
    // maxTransformFeedbackStreams, and binding no more buffers than
    // maxTransformFeedbackBuffers.
    if reflection
        .device_features
        .iter()
        .any(|f| f == "geometryStreams")
    {
        let streams = crate::spirv::MAX_VERTEX_STREAMS;
        let buffers = reflection
            .outputs
            .iter()
            .filter_map(|v| v.transform_feedback.map(|x| x.buffer + 1))
            .max()
            .unwrap_or(0);
        let span = span_of_word(source, "EMITS").unwrap_or(start);
        for (needed, limit, name, what) in [
            (
                streams,
                limits.max_transform_feedback_streams,
                "maxTransformFeedbackStreams",
                "vertex streams",
            ),
            (
                buffers,
                limits.max_transform_feedback_buffers,
                "maxTransformFeedbackBuffers",
                "transform feedback buffers",
            ),
        ] {
            if needed > limit {
                out.push(
                    Diagnostic::error("E1265", format!("EMITS needs {needed} {what}, more than the device's {limit}"))
                        .primary(span, "EMITS emits to streams 0 to 3")
                        .note(format!("a run-time or constant stream number selects among the MAX_VERTEX_STREAMS_NV = {streams} streams, each an OpEmitStreamVertex; with transform feedback capture each stream has its own buffer (docs/interface.md, \"Geometry programs\", \"Transform feedback\"); {}", vk(&format!("{name} is {limit}")))),
                );
                break;
            }
        }
    }

    // E0821 / E0822: geometry output.
    if let Some(g) = &reflection.geometry {
        let span = span_of_word(source, "VERTICES_OUT").unwrap_or(start);
        if g.vertices_out > limits.max_geometry_output_vertices {
            out.push(
                Diagnostic::error(
                    "E0821",
                    format!(
                        "VERTICES_OUT {} is more than the device's {} geometry output vertices",
                        g.vertices_out, limits.max_geometry_output_vertices
                    ),
                )
                .primary(span, "the vertex count")
                .note(vk(&format!(
                    "maxGeometryOutputVertices is {}",
                    limits.max_geometry_output_vertices
                ))),
            );
        } else {
            let per_vertex: u32 = reflection.outputs.iter().map(components).sum();
            let total = u64::from(per_vertex) * u64::from(g.vertices_out);
            if total > u64::from(limits.max_geometry_total_output_components) {
                out.push(
                    Diagnostic::error("E0822", format!("VERTICES_OUT {} times {per_vertex} output components is {total}, more than the device's {}", g.vertices_out, limits.max_geometry_total_output_components))
                        .primary(span, "the vertex count")
                        .note("each vertex's components: 4 per output Location, and the built-ins' own (Position 4, PointSize 1, one per clip distance, Layer 1, PrimitiveId 1)")
                        .note(vk(&format!("maxGeometryTotalOutputComponents is {}", limits.max_geometry_total_output_components))),
                );
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    /// E0817 points at the instruction that uses the last texture unit,
    /// also when that instruction is in a LOOP body.
    #[test]
    fn a_texture_unit_past_the_device_limit_is_pointed_at_inside_a_loop_body() {
        let src = "!!ARBfp1.0\nOPTION NV_fragment_program2;\nTEMP r;\nTEX r, fragment.texcoord[0], texture[0], 2D;\nLOOP {2, 0, 1};\nTEX r, fragment.texcoord[0], texture[1], 2D;\nENDLOOP;\nMOV result.color, r;\nEND\n";
        let mut options = crate::Options::default();
        options
            .device_limits
            .max_per_stage_descriptor_sampled_images = 1;
        let d = crate::compile(src, &options).expect_err("2 units > 1");
        let e = d.iter().find(|d| d.code == "E0817").expect("E0817");
        let span = e.primary_span().expect("a primary label");
        assert_eq!(
            &src[span.start as usize..span.end as usize],
            "TEX r, fragment.texcoord[0], texture[1], 2D"
        );
    }

    /// NV_bindless_texture's image handle arrays are 8 storage images
    /// each: one fits the default limit of 8 per stage, a second is past
    /// it (E1199, with a note naming the arrays), and a device with more
    /// room takes both.
    #[test]
    fn image_handle_arrays_count_as_storage_images() {
        let one = "!!NVcp5.0\nOPTION NV_bindless_texture;\nGROUP_SIZE 1;\nUINT TEMP h, r;\nMOV.U h, 1;\nLOADIM.U32 r, {0, 0, 0, 0}, handle(h.x), 2D;\n";
        let two = format!("{one}STOREIM.U32 handle(h.x), r, {{0, 0, 0, 0}}, 1D;\n");
        let mut options = crate::Options::default();
        assert!(crate::compile(&format!("{one}END\n"), &options).is_ok());
        let d = crate::compile(&format!("{two}END\n"), &options).expect_err("16 > 8");
        let rendered = d.render("t.cp", &two, false);
        assert!(rendered.contains("E1199"), "{rendered}");
        assert!(
            rendered.contains("image handle arrays hold 16"),
            "{rendered}"
        );
        options
            .device_limits
            .max_per_stage_descriptor_storage_images = 64;
        assert!(crate::compile(&format!("{two}END\n"), &options).is_ok());
    }
}
