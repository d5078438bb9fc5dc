//! Geometry runs: a vertex program and a geometry program in one pipeline, the
//! geometry program's emitted vertices captured with transform feedback
//! ([`Device::run_geometry`]); and rasterised runs: a vertex, an optional geometry
//! and a fragment program in one pipeline drawn into a colour target read back
//! per pixel ([`Device::run_raster`], through the fragment runs' `Device::render`).
//!
//! The geometry program's SPIR-V is patched for capture exactly like a vertex
//! program's (`VertexProgram::with_xfb`: `Xfb` mode, `XfbBuffer`/`XfbStride`/
//! `Offset`). Transform feedback records the *decomposed* primitives
//! (Vulkan, "Transform Feedback"): a point is one record, each line of a line strip
//! two, each triangle of a triangle strip three, in the order the topology defines
//! (triangle *i* of a strip is vertices i, i + 1 + i % 2, i + 2 - i % 2). The number
//! of records is read from the transform feedback counter buffer.

use std::collections::BTreeMap;

use ash::vk;
use rspirv::spirv::ExecutionModel;

use super::device::{host_barrier, Device, HostBuffer, Scope};
use super::fragment::{Draw, PipelineExtras};
use super::shaders::{self, VertexProgram};
use super::texture::Texture;
use super::vertex::{decode_record, wanted_outputs, Capture, VertexOutput, VertexRecord};
use super::{
    to_f32, uniform_blocks, HarnessError, Input, Kind, Result, VertexBuffer, GEOMETRY_SET,
    KILL_SENTINEL,
};

/// A geometry run: `vertices` go through the vertex program, are assembled with
/// `topology` into the geometry program's input primitives, and the vertices it
/// emits are captured.
#[derive(Clone, Debug)]
pub struct GeometryJob {
    /// Per-vertex attributes of the vertex program (`vertex.attrib[n]` is Location n).
    pub vertices: Vec<Vec<Input>>,
    /// The draw's topology; must suit the geometry program's PRIMITIVE_IN
    /// (e.g. `LINE_LIST_WITH_ADJACENCY` for LINES_ADJACENCY).
    pub topology: vk::PrimitiveTopology,
    /// The geometry program's `program.env[i]` (binding 0), raw bits.
    pub env: Vec<[u32; 4]>,
    /// The geometry program's `program.local[i]` (binding 1), raw bits.
    pub local: Vec<[u32; 4]>,
    /// Rows of the geometry program's `State` block (binding 2).
    pub state: Vec<[u32; 4]>,
    /// `program.buffer[b]` of the geometry program (binding 3 + b).
    pub buffers: Vec<(u32, Vec<[u32; 4]>)>,
    /// Outputs of the geometry program to capture. Default: `[Position]`.
    pub capture: Vec<Capture>,
    /// Room for this many captured records. Default 4096.
    pub max_records: usize,
    /// Descriptor set of the geometry program's parameters (default 1); the vertex
    /// program gets no parameters.
    pub descriptor_set: u32,
}

impl Default for GeometryJob {
    fn default() -> Self {
        GeometryJob {
            vertices: Vec::new(),
            topology: vk::PrimitiveTopology::TRIANGLE_LIST,
            env: Vec::new(),
            local: Vec::new(),
            state: Vec::new(),
            buffers: Vec::new(),
            capture: vec![Capture::Position],
            max_records: 4096,
            descriptor_set: GEOMETRY_SET,
        }
    }
}

impl GeometryJob {
    pub fn new(
        vertices: Vec<Vec<Input>>,
        topology: vk::PrimitiveTopology,
        capture: Vec<Capture>,
    ) -> GeometryJob {
        GeometryJob {
            vertices,
            topology,
            capture,
            ..Default::default()
        }
    }
}

impl Device {
    /// Runs `vert_spirv` (a `Vertex` entry point) then `geom_spirv` (a `Geometry`
    /// entry point) over the job's vertices and captures what the geometry program
    /// emits, one record per vertex of each decomposed primitive.
    pub fn run_geometry(
        &self,
        vert_spirv: &[u32],
        geom_spirv: &[u32],
        job: &GeometryJob,
    ) -> Result<VertexOutput> {
        self.run_capture(
            vert_spirv,
            &[(
                vk::ShaderStageFlags::GEOMETRY,
                geom_spirv,
                ExecutionModel::Geometry,
            )],
            None,
            job,
        )
    }

    /// Runs `vert_spirv`, then a tessellation control program (`tcp_spirv`,
    /// patches of `patch_vertices` vertices) and a tessellation evaluation program
    /// (`tep_spirv`) over the job's vertices (drawn as `PATCH_LIST`), and captures
    /// the vertices the tessellator generates as the evaluation program writes
    /// them, one record per vertex of each decomposed primitive (three per
    /// triangle, two per isoline segment, one per point in point mode). The job's
    /// parameters are bound in its `descriptor_set` for every stage.
    pub fn run_tessellation(
        &self,
        vert_spirv: &[u32],
        tcp_spirv: &[u32],
        tep_spirv: &[u32],
        patch_vertices: u32,
        job: &GeometryJob,
    ) -> Result<VertexOutput> {
        let mut job = job.clone();
        job.topology = vk::PrimitiveTopology::PATCH_LIST;
        self.run_capture(
            vert_spirv,
            &[
                (
                    vk::ShaderStageFlags::TESSELLATION_CONTROL,
                    tcp_spirv,
                    ExecutionModel::TessellationControl,
                ),
                (
                    vk::ShaderStageFlags::TESSELLATION_EVALUATION,
                    tep_spirv,
                    ExecutionModel::TessellationEvaluation,
                ),
            ],
            Some(patch_vertices),
            &job,
        )
    }

    /// Runs `vert_spirv` then `geom_spirv`, a geometry program compiled with
    /// `Options::transform_feedback` (which declares its own capture: the
    /// harness does not patch it), binding transform feedback buffer k to
    /// vertex stream k for each of `streams` streams (1 to 4; `stride` bytes
    /// per record, as the reflection says). Returns, per stream, the words of
    /// each captured record, in the order the vertices were emitted to it.
    /// `job.capture` is not used.
    pub fn run_geometry_streams(
        &self,
        vert_spirv: &[u32],
        geom_spirv: &[u32],
        job: &GeometryJob,
        streams: u32,
        stride: u32,
    ) -> Result<Vec<Vec<Vec<u32>>>> {
        let later = [(
            vk::ShaderStageFlags::GEOMETRY,
            geom_spirv,
            ExecutionModel::Geometry,
        )];
        self.run_declared(vert_spirv, &later, None, job, streams, stride)
    }

    /// Runs `vert_spirv` alone, a vertex program compiled with
    /// `Options::transform_feedback` (its own capture, not patched), drawn
    /// with `job.topology`, and returns the words of each record captured
    /// into transform feedback buffer 0 (`stride` bytes each, as the
    /// reflection says), one per vertex of each decomposed primitive.
    /// `job.capture` is not used.
    pub fn run_vertex_declared(
        &self,
        vert_spirv: &[u32],
        job: &GeometryJob,
        stride: u32,
    ) -> Result<Vec<Vec<u32>>> {
        let mut streams = self.run_declared(vert_spirv, &[], None, job, 1, stride)?;
        Ok(streams.swap_remove(0))
    }

    /// [`Device::run_tessellation`] with an evaluation program compiled with
    /// `Options::transform_feedback` (its own capture, not patched): the
    /// words of each record captured into transform feedback buffer 0
    /// (`stride` bytes each, as the reflection says). `job.capture` is not
    /// used.
    pub fn run_tessellation_declared(
        &self,
        vert_spirv: &[u32],
        (tcp_spirv, tep_spirv, patch_vertices): (&[u32], &[u32], u32),
        job: &GeometryJob,
        stride: u32,
    ) -> Result<Vec<Vec<u32>>> {
        let mut job = job.clone();
        job.topology = vk::PrimitiveTopology::PATCH_LIST;
        let later = [
            (
                vk::ShaderStageFlags::TESSELLATION_CONTROL,
                tcp_spirv,
                ExecutionModel::TessellationControl,
            ),
            (
                vk::ShaderStageFlags::TESSELLATION_EVALUATION,
                tep_spirv,
                ExecutionModel::TessellationEvaluation,
            ),
        ];
        let mut streams =
            self.run_declared(vert_spirv, &later, Some(patch_vertices), &job, 1, stride)?;
        Ok(streams.swap_remove(0))
    }

    /// The runs of a last stage (`vert_spirv` when `later` is empty) that
    /// declares its own capture: per stream, the words of each record.
    fn run_declared(
        &self,
        vert_spirv: &[u32],
        later: &[(vk::ShaderStageFlags, &[u32], ExecutionModel)],
        patch_vertices: Option<u32>,
        job: &GeometryJob,
        streams: u32,
        stride: u32,
    ) -> Result<Vec<Vec<Vec<u32>>>> {
        if !(1..=4).contains(&streams) || stride == 0 || !stride.is_multiple_of(4) {
            return Err(HarnessError::Job(format!(
                "{streams} streams of {stride}-byte records: 1 to 4 streams, a stride of whole words"
            )));
        }
        let captured = self.run_capture_with(
            vert_spirv,
            later,
            patch_vertices,
            job,
            Layout::Declared { streams, stride },
        )?;
        let words = (stride / 4) as usize;
        Ok(captured
            .into_iter()
            .map(|(data, counter)| {
                let records = (counter / stride) as usize;
                (0..records)
                    .map(|r| data[r * words..(r + 1) * words].to_vec())
                    .collect()
            })
            .collect())
    }

    /// The shared body of the capture runs: the vertex program, then `later`
    /// stages, the last of which is patched for transform feedback and captured.
    fn run_capture(
        &self,
        vert_spirv: &[u32],
        later: &[(vk::ShaderStageFlags, &[u32], ExecutionModel)],
        patch_vertices: Option<u32>,
        job: &GeometryJob,
    ) -> Result<VertexOutput> {
        let Some(&(_, last_spirv, last_model)) = later.last() else {
            return Err(HarnessError::Job(
                "a capture run needs a stage after the vertex program".into(),
            ));
        };
        let program = VertexProgram::load_model(last_spirv, last_model)?;
        let wanted = wanted_outputs(&program, &job.capture)?;
        let mut caps = Vec::new();
        let mut stride = 0u32;
        for &i in &wanted {
            caps.push((i, stride));
            stride += program.outputs[i].bytes()?;
        }
        let captured = self.run_capture_with(
            vert_spirv,
            later,
            patch_vertices,
            job,
            Layout::Patched {
                words: program.with_xfb(&caps, stride),
                stride,
            },
        )?;
        let (words, counter) = captured.into_iter().next().unwrap_or_default();
        let stride_words = (stride / 4).max(1) as usize;
        let records = (counter / stride.max(1)) as usize;
        let mut vertices = vec![VertexRecord::default(); records];
        for (v, rec) in vertices.iter_mut().enumerate() {
            decode_record(&program, &caps, &words[v * stride_words..], rec);
        }
        Ok(VertexOutput { vertices })
    }

    /// Draws and captures: per transform feedback buffer, its words and the
    /// bytes written (its counter).
    fn run_capture_with(
        &self,
        vert_spirv: &[u32],
        later: &[(vk::ShaderStageFlags, &[u32], ExecutionModel)],
        patch_vertices: Option<u32>,
        job: &GeometryJob,
        layout: Layout,
    ) -> Result<Vec<(Vec<u32>, u32)>> {
        let n = job.vertices.len();
        if n == 0 || n > 64 * 1024 || job.max_records == 0 || job.max_records > 1 << 20 {
            return Err(HarnessError::Job(format!(
                "{n} vertices, {} records; a geometry job takes 1..=65536 vertices and \
                 1..=2^20 records",
                job.max_records
            )));
        }
        let vertex_buffer = VertexBuffer::new(&job.vertices, 0, job.vertices.len())?;
        let attributes = vertex_buffer.attributes.clone();
        if self.xfb_max_bytes == 0 {
            return Err(HarnessError::NoDevice(
                "the device lacks VK_EXT_transform_feedback, needed for geometry runs".into(),
            ));
        }
        let (stride, buffers) = match &layout {
            Layout::Patched { stride, .. } => (*stride, 1u32),
            Layout::Declared { streams, stride } => (*stride, *streams),
        };
        if stride > self.xfb_max_bytes {
            return Err(HarnessError::Job(format!(
                "{stride} bytes per vertex exceed the {}-byte transform feedback limit",
                self.xfb_max_bytes
            )));
        }
        if buffers > 1 && !self.geometry_streams {
            return Err(HarnessError::NoDevice(
                "the device lacks geometryStreams (or 4 transform feedback streams)".into(),
            ));
        }
        let last_words = match &layout {
            Layout::Patched { words, .. } => words.clone(),
            // Without later stages the vertex program is the last one.
            Layout::Declared { .. } => later
                .last()
                .map_or_else(|| vert_spirv.to_vec(), |l| l.1.to_vec()),
        };

        let blocks = uniform_blocks(&job.env, &job.local, &job.state, &job.buffers)?;
        let out_bytes = u64::from(stride) * job.max_records as u64;

        self.run(|d| {
            let Some(xfb) = d.xfb.as_ref() else {
                return Err(HarnessError::NoDevice(
                    "the device lacks VK_EXT_transform_feedback".into(),
                ));
            };
            let mut s = Scope::new(d);
            let vbuf = s.buffer(0, vk::BufferUsageFlags::VERTEX_BUFFER, &vertex_buffer.data)?;
            let uploaded = s.uniform_buffers(&blocks)?;
            let uniforms: Vec<(u32, &HostBuffer)> =
                uploaded.iter().map(|(b, buf)| (*b, buf)).collect();
            let stage_flags = later
                .iter()
                .fold(vk::ShaderStageFlags::VERTEX, |f, (stage, ..)| f | *stage);
            let (layout, set) = s.uniform_set(job.descriptor_set, stage_flags, &uniforms)?;
            let vmodule = s.shader(vert_spirv)?;
            let mut stages = vec![vk::PipelineShaderStageCreateInfo::default()
                .stage(vk::ShaderStageFlags::VERTEX)
                .module(vmodule)
                .name(c"main")];
            for (i, &(stage, words, _)) in later.iter().enumerate() {
                let module = if i + 1 == later.len() {
                    s.shader(&last_words)?
                } else {
                    s.shader(words)?
                };
                stages.push(
                    vk::PipelineShaderStageCreateInfo::default()
                        .stage(stage)
                        .module(module)
                        .name(c"main"),
                );
            }
            let tessellation = vk::PipelineTessellationStateCreateInfo::default()
                .patch_control_points(patch_vertices.unwrap_or(1));
            let bindings = [vk::VertexInputBindingDescription {
                binding: 0,
                stride: vertex_buffer.stride,
                input_rate: vk::VertexInputRate::VERTEX,
            }];
            let attribute_desc = vertex_buffer.descriptions();
            let mut vertex_input = vk::PipelineVertexInputStateCreateInfo::default();
            if !attributes.is_empty() {
                vertex_input = vertex_input
                    .vertex_binding_descriptions(&bindings)
                    .vertex_attribute_descriptions(&attribute_desc);
            }
            let input_assembly =
                vk::PipelineInputAssemblyStateCreateInfo::default().topology(job.topology);
            let raster = vk::PipelineRasterizationStateCreateInfo::default()
                .rasterizer_discard_enable(true)
                .polygon_mode(vk::PolygonMode::FILL)
                .cull_mode(vk::CullModeFlags::NONE)
                .line_width(1.0);
            let mut rendering = vk::PipelineRenderingCreateInfo::default();
            let mut info = vk::GraphicsPipelineCreateInfo::default()
                .stages(&stages)
                .vertex_input_state(&vertex_input)
                .input_assembly_state(&input_assembly)
                .rasterization_state(&raster)
                .layout(layout)
                .push_next(&mut rendering);
            if patch_vertices.is_some() {
                info = info.tessellation_state(&tessellation);
            }
            let pipeline = s.graphics_pipeline(&info)?;
            let mut outs = Vec::new();
            let mut counters = Vec::new();
            for _ in 0..buffers {
                outs.push(s.buffer(
                    out_bytes,
                    vk::BufferUsageFlags::TRANSFORM_FEEDBACK_BUFFER_EXT,
                    &[],
                )?);
                counters.push(s.buffer(
                    16,
                    vk::BufferUsageFlags::TRANSFORM_FEEDBACK_COUNTER_BUFFER_EXT,
                    &[],
                )?);
            }
            let out_handles: Vec<vk::Buffer> = outs.iter().map(|b| b.buffer).collect();
            let counter_handles: Vec<vk::Buffer> = counters.iter().map(|b| b.buffer).collect();
            let rendering_info = vk::RenderingInfo::default()
                .render_area(vk::Rect2D {
                    offset: vk::Offset2D { x: 0, y: 0 },
                    extent: vk::Extent2D {
                        width: 1,
                        height: 1,
                    },
                })
                .layer_count(1);
            let descriptor_set = job.descriptor_set;
            s.submit(|dev, cb| unsafe {
                let fp = xfb.fp();
                dev.cmd_begin_rendering(cb, &rendering_info);
                if !attributes.is_empty() {
                    dev.cmd_bind_vertex_buffers(cb, 0, &[vbuf.buffer], &[0]);
                }
                dev.cmd_bind_pipeline(cb, vk::PipelineBindPoint::GRAPHICS, pipeline);
                dev.cmd_bind_descriptor_sets(
                    cb,
                    vk::PipelineBindPoint::GRAPHICS,
                    layout,
                    descriptor_set,
                    &[set],
                    &[],
                );
                let offsets = vec![0u64; out_handles.len()];
                let sizes = vec![out_bytes; out_handles.len()];
                (fp.cmd_bind_transform_feedback_buffers_ext)(
                    cb,
                    0,
                    buffers,
                    out_handles.as_ptr(),
                    offsets.as_ptr(),
                    sizes.as_ptr(),
                );
                (fp.cmd_begin_transform_feedback_ext)(cb, 0, 0, std::ptr::null(), std::ptr::null());
                dev.cmd_draw(cb, n as u32, 1, 0, 0);
                (fp.cmd_end_transform_feedback_ext)(
                    cb,
                    0,
                    buffers,
                    counter_handles.as_ptr(),
                    offsets.as_ptr(),
                );
                dev.cmd_end_rendering(cb);
                host_barrier(
                    dev,
                    cb,
                    vk::PipelineStageFlags::TRANSFORM_FEEDBACK_EXT,
                    vk::AccessFlags::TRANSFORM_FEEDBACK_WRITE_EXT
                        | vk::AccessFlags::TRANSFORM_FEEDBACK_COUNTER_WRITE_EXT,
                );
            })?;
            let mut captured = Vec::new();
            for (out, counter) in outs.iter().zip(&counters) {
                let written = counter.read_words()[0];
                let records = (written / stride.max(1)) as usize;
                if records > job.max_records {
                    return Err(HarnessError::Job(format!(
                        "{records} records captured, room for {}",
                        job.max_records
                    )));
                }
                captured.push((out.read_words(), written));
            }
            Ok(captured)
        })
    }
}

/// How the last stage's transform feedback is set up.
enum Layout {
    /// The harness patched it: these words, one buffer of `stride`-byte
    /// records.
    Patched { words: Vec<u32>, stride: u32 },
    /// The module declares its own capture (`Options::transform_feedback`):
    /// buffer k is stream k.
    Declared { streams: u32, stride: u32 },
}

/// A rasterised run: `vertices` go through the vertex program, are assembled with
/// `topology`, go through the geometry program (if any), and its primitives are
/// rasterised into a `width`×`height` target (viewport = the whole target, no
/// culling, one sample) and shaded by the fragment program. Every colour output
/// the fragment program declares is an RGBA32 attachment of its kind, cleared to
/// `clear`, read back per pixel.
#[derive(Clone, Debug)]
pub struct RasterJob {
    /// Per-vertex attributes of the vertex program (`vertex.attrib[n]` is Location n).
    pub vertices: Vec<Vec<Input>>,
    /// The draw's topology; with a geometry program it must suit its PRIMITIVE_IN.
    pub topology: vk::PrimitiveTopology,
    /// `program.env[i]` (binding 0) of the set `descriptor_set`, raw bits.
    pub env: Vec<[u32; 4]>,
    /// `program.local[i]` (binding 1), raw bits.
    pub local: Vec<[u32; 4]>,
    /// Rows of the `State` block (binding 2).
    pub state: Vec<[u32; 4]>,
    /// `program.buffer[b]` (binding 3 + b).
    pub buffers: Vec<(u32, Vec<[u32; 4]>)>,
    /// The one descriptor set of parameters (default 1, the geometry program's);
    /// it is visible to every stage, the other sets are empty.
    pub descriptor_set: u32,
    /// Target size in pixels (default 32×32).
    pub width: u32,
    pub height: u32,
    /// Clear value (bits) of every colour attachment; a pixel still holding it was
    /// not covered. Default [`KILL_SENTINEL`].
    pub clear: [u32; 4],
    /// When set, the uniform blocks of the set as (binding, words), instead of
    /// `env`/`local`/`state`/`buffers` at the default bindings (modules compiled
    /// with another binding layout).
    pub blocks: Option<Vec<(u32, Vec<u32>)>>,
    /// Textures of the set (at `Texture::binding`).
    pub textures: Vec<Texture>,
    /// Entry points, push constants and specialization constants.
    pub pipeline: PipelineExtras,
}

impl Default for RasterJob {
    fn default() -> Self {
        RasterJob {
            vertices: Vec::new(),
            topology: vk::PrimitiveTopology::TRIANGLE_LIST,
            env: Vec::new(),
            local: Vec::new(),
            state: Vec::new(),
            buffers: Vec::new(),
            descriptor_set: GEOMETRY_SET,
            width: 32,
            height: 32,
            clear: KILL_SENTINEL,
            blocks: None,
            textures: Vec::new(),
            pipeline: PipelineExtras::default(),
        }
    }
}

impl RasterJob {
    pub fn new(vertices: Vec<Vec<Input>>, topology: vk::PrimitiveTopology) -> RasterJob {
        RasterJob {
            vertices,
            topology,
            ..Default::default()
        }
    }
}

/// The pixels of a rasterised run, as bit patterns. Pixel (x, y) is column x, row y
/// from the top left (Vulkan's framebuffer coordinates: clip-space y = -1 is row 0).
#[derive(Clone, Debug)]
pub struct RasterOutput {
    pub width: u32,
    pub height: u32,
    pub clear: [u32; 4],
    /// Per attached Location, one `[u32; 4]` per pixel, row-major.
    pub colors: BTreeMap<u32, Vec<[u32; 4]>>,
}

impl RasterOutput {
    /// The bits of pixel (x, y) of the attachment at `location`.
    /// Panics if that Location was not attached or (x, y) is outside the target.
    pub fn color(&self, x: u32, y: u32, location: u32) -> [u32; 4] {
        assert!(
            x < self.width && y < self.height,
            "pixel ({x}, {y}) is outside"
        );
        match self.colors.get(&location) {
            Some(v) => v[(y * self.width + x) as usize],
            None => panic!("output Location {location} is not declared by the program"),
        }
    }
    /// Location 0 of pixel (x, y).
    pub fn bits(&self, x: u32, y: u32) -> [u32; 4] {
        self.color(x, y, 0)
    }
    /// Location 0 of pixel (x, y) as floats.
    pub fn f32(&self, x: u32, y: u32) -> [f32; 4] {
        to_f32(self.bits(x, y))
    }
    /// True when pixel (x, y) of Location 0 still holds the clear value.
    pub fn cleared(&self, x: u32, y: u32) -> bool {
        self.bits(x, y) == self.clear
    }
}

impl Device {
    /// Runs `vert_spirv` (a `Vertex` entry point), `geom_spirv` (a `Geometry` entry
    /// point, if any) and `frag_spirv` (a `Fragment` entry point) as one pipeline
    /// over the job's vertices, rasterising into a target read back per pixel.
    pub fn run_raster(
        &self,
        vert_spirv: &[u32],
        geom_spirv: Option<&[u32]>,
        frag_spirv: &[u32],
        job: &RasterJob,
    ) -> Result<RasterOutput> {
        self.raster(vert_spirv, None, geom_spirv, frag_spirv, job)
    }

    /// [`Device::run_raster`] with a tessellation control program
    /// (`tcp_spirv`, patches of `patch_vertices`) and evaluation program
    /// between the vertex and fragment programs; the job's vertices are
    /// drawn as `PATCH_LIST`.
    pub fn run_raster_tessellated(
        &self,
        vert_spirv: &[u32],
        (tcp_spirv, tep_spirv, patch_vertices): (&[u32], &[u32], u32),
        frag_spirv: &[u32],
        job: &RasterJob,
    ) -> Result<RasterOutput> {
        let mut job = job.clone();
        job.topology = vk::PrimitiveTopology::PATCH_LIST;
        self.raster(
            vert_spirv,
            Some((tcp_spirv, tep_spirv, patch_vertices)),
            None,
            frag_spirv,
            &job,
        )
    }

    fn raster(
        &self,
        vert_spirv: &[u32],
        tessellation: Option<(&[u32], &[u32], u32)>,
        geom_spirv: Option<&[u32]>,
        frag_spirv: &[u32],
        job: &RasterJob,
    ) -> Result<RasterOutput> {
        let n = job.vertices.len();
        if n == 0 || n > 64 * 1024 {
            return Err(HarnessError::Job(format!(
                "{n} vertices; a raster job takes 1..=65536"
            )));
        }
        if !(1..=4096).contains(&job.width) || !(1..=4096).contains(&job.height) {
            return Err(HarnessError::Job(format!(
                "a {}x{} target; width and height are 1..=4096",
                job.width, job.height
            )));
        }
        let outputs: BTreeMap<u32, Kind> =
            shaders::fragment_outputs(frag_spirv)?.into_iter().collect();
        if outputs.is_empty() {
            return Err(HarnessError::Job(
                "the fragment program declares no colour output".into(),
            ));
        }
        if let Some(loc) = outputs.keys().find(|&&l| l > 7) {
            return Err(HarnessError::Job(format!(
                "output Location {loc}: colour outputs are Locations 0..=7"
            )));
        }
        let vertex_buffer = VertexBuffer::new(&job.vertices, 0, job.vertices.len())?;
        let blocks = match &job.blocks {
            Some(b) => b.clone(),
            None => uniform_blocks(&job.env, &job.local, &job.state, &job.buffers)?,
        };
        let pixels = self.render(&Draw {
            vertex: vert_spirv,
            geometry: geom_spirv,
            tessellation,
            fragment: frag_spirv,
            topology: job.topology,
            vertex_data: &vertex_buffer.data,
            stride: vertex_buffer.stride,
            attributes: vertex_buffer.descriptions(),
            vertex_count: n as u32,
            width: job.width,
            height: job.height,
            outputs: &outputs,
            clear: job.clear,
            depth_clear: None,
            blocks: &blocks,
            textures: &job.textures,
            descriptor_set: job.descriptor_set,
            stages: vk::ShaderStageFlags::ALL_GRAPHICS,
            pipeline: &job.pipeline,
            samples: vk::SampleCountFlags::TYPE_1,
            storage_images: &[],
        })?;
        Ok(RasterOutput {
            width: job.width,
            height: job.height,
            clear: job.clear,
            colors: pixels.colors,
        })
    }
}
