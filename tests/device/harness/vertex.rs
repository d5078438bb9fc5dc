//! Vertex runs: transform feedback capture of a vertex program's outputs.

use std::collections::{BTreeMap, BTreeSet};

use ash::vk;
use rspirv::spirv::BuiltIn;

use super::device::{host_barrier, Device, HostBuffer, Scope};
use super::shaders::{OutputKey, VertexProgram};
use super::texture::Texture;
use super::{to_f32, uniform_blocks, HarnessError, Input, Result, VertexBuffer, VERTEX_SET};

/// Most vertices one vertex run takes.
pub const MAX_VERTICES: usize = 64 * 1024;

/// An output of the vertex program to read back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Capture {
    /// `result.position` (built-in `Position`).
    Position,
    /// `result.pointsize` (built-in `PointSize`).
    PointSize,
    /// `result.clip[n]` (built-in `ClipDistance`, the whole array).
    ClipDistance,
    /// The output at this Location (every variable covering it, merged by Component).
    Location(u32),
    /// `result.layer` of a geometry program (built-in `Layer`).
    Layer,
    /// `result.primid` of a geometry program (built-in `PrimitiveId`).
    PrimitiveId,
}

/// A vertex run: `vertices[i]` holds the attributes of vertex i.
#[derive(Clone, Debug)]
pub struct VertexJob {
    /// Per-vertex attributes (`vertex.attrib[n]` is Location n); the format of each
    /// Location follows its kind (`R32G32B32A32_SFLOAT`/`_SINT`/`_UINT`), which must
    /// match the program's input type. Missing ones read zero bits.
    pub vertices: Vec<Vec<Input>>,
    /// `program.env[i]` (binding 0), raw bits; the rest of the 256 entries are zero.
    pub env: Vec<[u32; 4]>,
    /// `program.local[i]` (binding 1), raw bits; the rest are zero.
    pub local: Vec<[u32; 4]>,
    /// Rows of nvp4c's `State` block (binding 2, `nvp4c::state::ROWS` rows, docs/interface.md),
    /// raw bits; the rest are zero. Always bound.
    pub state: Vec<[u32; 4]>,
    /// `program.buffer[b]` contents (binding 3 + b), raw bits, as (b, uvec4s).
    pub buffers: Vec<(u32, Vec<[u32; 4]>)>,
    /// Outputs to read back. Default: `[Position]`.
    pub capture: Vec<Capture>,
    /// Descriptor set of the parameters (default 0, see docs/interface.md).
    pub descriptor_set: u32,
    /// `firstVertex` of the draw: vertex i has `VertexIndex` = first_vertex + i.
    pub first_vertex: u32,
    /// `firstInstance` of the draw (one instance): `InstanceIndex` of every vertex.
    pub first_instance: u32,
    /// Textures, each at binding 32 + unit of the set (default: none).
    pub textures: Vec<Texture>,
}

impl Default for VertexJob {
    fn default() -> Self {
        VertexJob {
            vertices: Vec::new(),
            env: Vec::new(),
            local: Vec::new(),
            state: Vec::new(),
            buffers: Vec::new(),
            capture: vec![Capture::Position],
            descriptor_set: VERTEX_SET,
            first_vertex: 0,
            first_instance: 0,
            textures: Vec::new(),
        }
    }
}

impl VertexJob {
    /// A job with these vertices, capturing `capture`, defaults for the rest.
    pub fn new(vertices: Vec<Vec<Input>>, capture: Vec<Capture>) -> VertexJob {
        VertexJob {
            vertices,
            capture,
            ..Default::default()
        }
    }
}

/// The captured outputs of one vertex, as bit patterns.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VertexRecord {
    pub position: Option<[u32; 4]>,
    pub point_size: Option<u32>,
    pub clip_distance: Option<Vec<u32>>,
    /// `Layer` (geometry runs).
    pub layer: Option<u32>,
    /// `PrimitiveId` (geometry runs).
    pub primitive_id: Option<u32>,
    /// Captured Locations; components the program does not declare are zero.
    pub locations: BTreeMap<u32, [u32; 4]>,
}

/// The results of a vertex run, one record per vertex.
#[derive(Clone, Debug)]
pub struct VertexOutput {
    pub vertices: Vec<VertexRecord>,
}

impl VertexOutput {
    /// `Position` of vertex `v`. Panics if not captured (test code misuse).
    pub fn position(&self, v: usize) -> [u32; 4] {
        self.vertices[v]
            .position
            .expect("the vertex job did not capture Position")
    }
    pub fn position_f32(&self, v: usize) -> [f32; 4] {
        to_f32(self.position(v))
    }
    /// The output at `location` of vertex `v`. Panics if not captured.
    pub fn location(&self, v: usize, location: u32) -> [u32; 4] {
        match self.vertices[v].locations.get(&location) {
            Some(x) => *x,
            None => panic!("the vertex job did not capture Location {location}"),
        }
    }
    pub fn location_f32(&self, v: usize, location: u32) -> [f32; 4] {
        to_f32(self.location(v, location))
    }
}

impl Device {
    /// Runs the vertex program `vert_spirv` (a `Vertex` entry point) over the job's
    /// vertices and captures the requested outputs bit-exactly.
    pub fn run_vertex(&self, vert_spirv: &[u32], job: &VertexJob) -> Result<VertexOutput> {
        self.run_vertex_limited(vert_spirv, job, self.xfb_max_bytes)
    }

    /// `run_vertex` capturing at most `max_bytes` per vertex in each transform feedback
    /// pass (capped by the device limit); lets the self-tests exercise the splitting.
    pub(crate) fn run_vertex_limited(
        &self,
        vert_spirv: &[u32],
        job: &VertexJob,
        max_bytes: u32,
    ) -> Result<VertexOutput> {
        let max_bytes = max_bytes.min(self.xfb_max_bytes);
        let n = job.vertices.len();
        if n == 0 || n > MAX_VERTICES {
            return Err(HarnessError::Job(format!(
                "{n} vertices; a vertex job takes 1..={MAX_VERTICES}"
            )));
        }
        if job.first_vertex > 1 << 20 {
            return Err(HarnessError::Job("first_vertex above 2^20".into()));
        }
        // Vertex data, TRIANGLE_LIST padded to a multiple of 3 vertices, starting at
        // index `first_vertex` so that attribute fetch matches VertexIndex.
        let padded = n.div_ceil(3) * 3;
        let first = job.first_vertex as usize;
        let vertex_buffer = VertexBuffer::new(&job.vertices, first, padded)?;
        let attributes = &vertex_buffer.attributes;
        if self.xfb_max_bytes == 0 {
            return Err(HarnessError::NoDevice(
                "the device lacks VK_EXT_transform_feedback, needed for vertex runs".into(),
            ));
        }
        let program = VertexProgram::load(vert_spirv)?;

        // Which outputs to capture.
        let wanted = wanted_outputs(&program, &job.capture)?;

        // Split the captures into passes that fit the per-vertex transform feedback size.
        let mut passes: Vec<(Vec<(usize, u32)>, u32)> = Vec::new();
        let mut current: Vec<(usize, u32)> = Vec::new();
        let mut offset = 0u32;
        for &i in &wanted {
            let bytes = program.outputs[i].bytes()?;
            if bytes > max_bytes {
                return Err(HarnessError::Job(format!(
                    "an output of {bytes} bytes exceeds the {max_bytes}-byte transform \
                     feedback limit"
                )));
            }
            if offset + bytes > max_bytes && !current.is_empty() {
                passes.push((std::mem::take(&mut current), offset));
                offset = 0;
            }
            current.push((i, offset));
            offset += bytes;
        }
        if !current.is_empty() {
            passes.push((current, offset));
        }
        let pass_words: Vec<Vec<u32>> = passes
            .iter()
            .map(|(caps, stride)| program.with_xfb(caps, *stride))
            .collect();

        let blocks = uniform_blocks(&job.env, &job.local, &job.state, &job.buffers)?;

        let captured: Vec<Vec<u32>> = self.run(|d| {
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
            let (layout, set) = s.resource_set(
                job.descriptor_set,
                vk::ShaderStageFlags::VERTEX,
                &uniforms,
                &job.textures,
            )?;
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
            let input_assembly = vk::PipelineInputAssemblyStateCreateInfo::default()
                .topology(vk::PrimitiveTopology::TRIANGLE_LIST);
            let raster = vk::PipelineRasterizationStateCreateInfo::default()
                .rasterizer_discard_enable(true)
                .polygon_mode(vk::PolygonMode::FILL)
                .cull_mode(vk::CullModeFlags::NONE)
                .line_width(1.0);

            let mut work = Vec::new();
            for ((_, pass_stride), words) in passes.iter().zip(&pass_words) {
                let module = s.shader(words)?;
                let stages = [vk::PipelineShaderStageCreateInfo::default()
                    .stage(vk::ShaderStageFlags::VERTEX)
                    .module(module)
                    .name(c"main")];
                let mut rendering = vk::PipelineRenderingCreateInfo::default();
                let info = vk::GraphicsPipelineCreateInfo::default()
                    .stages(&stages)
                    .vertex_input_state(&vertex_input)
                    .input_assembly_state(&input_assembly)
                    .rasterization_state(&raster)
                    .layout(layout)
                    .push_next(&mut rendering);
                let pipeline = s.graphics_pipeline(&info)?;
                let size = *pass_stride as u64 * padded as u64;
                let out = s.buffer(
                    size,
                    vk::BufferUsageFlags::TRANSFORM_FEEDBACK_BUFFER_EXT,
                    &[],
                )?;
                work.push((pipeline, out, size));
            }

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
                for &(pipeline, out, size) in &work {
                    dev.cmd_bind_pipeline(cb, vk::PipelineBindPoint::GRAPHICS, pipeline);
                    dev.cmd_bind_descriptor_sets(
                        cb,
                        vk::PipelineBindPoint::GRAPHICS,
                        layout,
                        descriptor_set,
                        &[set],
                        &[],
                    );
                    let offsets = [0u64];
                    let sizes = [size];
                    (fp.cmd_bind_transform_feedback_buffers_ext)(
                        cb,
                        0,
                        1,
                        &out.buffer,
                        offsets.as_ptr(),
                        sizes.as_ptr(),
                    );
                    (fp.cmd_begin_transform_feedback_ext)(
                        cb,
                        0,
                        0,
                        std::ptr::null(),
                        std::ptr::null(),
                    );
                    dev.cmd_draw(cb, padded as u32, 1, job.first_vertex, job.first_instance);
                    (fp.cmd_end_transform_feedback_ext)(
                        cb,
                        0,
                        0,
                        std::ptr::null(),
                        std::ptr::null(),
                    );
                }
                dev.cmd_end_rendering(cb);
                host_barrier(
                    dev,
                    cb,
                    vk::PipelineStageFlags::TRANSFORM_FEEDBACK_EXT,
                    vk::AccessFlags::TRANSFORM_FEEDBACK_WRITE_EXT,
                );
            })?;
            Ok(work.iter().map(|(_, out, _)| out.read_words()).collect())
        })?;

        // Decode.
        let mut vertices = vec![VertexRecord::default(); n];
        for ((caps, pass_stride), words) in passes.iter().zip(&captured) {
            let stride_words = (*pass_stride / 4) as usize;
            for (v, rec) in vertices.iter_mut().enumerate() {
                decode_record(&program, caps, &words[v * stride_words..], rec);
            }
        }
        Ok(VertexOutput { vertices })
    }
}

/// Decodes the captured outputs `caps` (output index, byte offset) of one vertex
/// from `words` (starting at the vertex's record) into `rec`.
pub(crate) fn decode_record(
    program: &VertexProgram,
    caps: &[(usize, u32)],
    words: &[u32],
    rec: &mut VertexRecord,
) {
    for &(i, offset) in caps {
        let o = &program.outputs[i];
        let comps = *o.comps.as_ref().unwrap_or(&0) as usize;
        let at = (offset / 4) as usize;
        let data = &words[at..at + comps * o.elems as usize];
        match o.key {
            OutputKey::BuiltIn(BuiltIn::Position) => {
                let mut p = [0u32; 4];
                p[..comps.min(4)].copy_from_slice(&data[..comps.min(4)]);
                rec.position = Some(p);
            }
            OutputKey::BuiltIn(BuiltIn::PointSize) => rec.point_size = Some(data[0]),
            OutputKey::BuiltIn(BuiltIn::ClipDistance) => rec.clip_distance = Some(data.to_vec()),
            OutputKey::BuiltIn(BuiltIn::Layer) => rec.layer = Some(data[0]),
            OutputKey::BuiltIn(BuiltIn::PrimitiveId) => rec.primitive_id = Some(data[0]),
            OutputKey::BuiltIn(_) => {}
            OutputKey::Location {
                location,
                component,
            } => {
                for e in 0..o.elems {
                    let slot = rec.locations.entry(location + e).or_insert([0; 4]);
                    let src = &data[e as usize * comps..(e as usize + 1) * comps];
                    for (c, &w) in src.iter().enumerate() {
                        if let Some(dst) = slot.get_mut(component as usize + c) {
                            *dst = w;
                        }
                    }
                }
            }
        }
    }
}

/// The outputs of `program` that `capture` asks for (indices into `outputs`).
pub(crate) fn wanted_outputs(
    program: &VertexProgram,
    capture: &[Capture],
) -> Result<BTreeSet<usize>> {
    let mut wanted = BTreeSet::new();
    for &c in capture {
        let hits: Vec<usize> = program
            .outputs
            .iter()
            .enumerate()
            .filter(|(_, o)| match (c, o.key) {
                (Capture::Position, OutputKey::BuiltIn(BuiltIn::Position))
                | (Capture::PointSize, OutputKey::BuiltIn(BuiltIn::PointSize))
                | (Capture::ClipDistance, OutputKey::BuiltIn(BuiltIn::ClipDistance))
                | (Capture::Layer, OutputKey::BuiltIn(BuiltIn::Layer))
                | (Capture::PrimitiveId, OutputKey::BuiltIn(BuiltIn::PrimitiveId)) => true,
                (Capture::Location(l), OutputKey::Location { location, .. }) => {
                    (location..location + o.elems).contains(&l)
                }
                _ => false,
            })
            .map(|(i, _)| i)
            .collect();
        if hits.is_empty() {
            return Err(HarnessError::Job(format!(
                "the program has no output for {c:?}"
            )));
        }
        wanted.extend(hits);
    }
    Ok(wanted)
}
