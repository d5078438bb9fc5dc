//! Vulkan execution harness for nvp4c's integration tests.
//!
//! Runs compiled SPIR-V on a real Vulkan device (Mesa lavapipe on the CI machines)
//! and reads every result back as raw 32-bit patterns, so tests can compare
//! results bit-exactly (NaN payloads, signed zeros, denormals, integer bits).
//!
//! * [`Device`] owns the instance, device and queue. One device is shared per test
//!   process ([`shared_device`], [`device_or_skip`]); runs are serialised by a mutex.
//!   `VK_LAYER_KHRONOS_validation` is enabled when installed, and a debug-utils
//!   messenger records every validation error or warning. Any message recorded during
//!   a run turns that run's result into [`HarnessError::Validation`], so API misuse
//!   (a wrong binding, a missing input, invalid SPIR-V) fails the test.
//! * [`Device::run_fragment`] runs a fragment program over N cases. Case *i* is one
//!   pixel, *(i % W, i / W)* of a W×H target (W = min(N, 64) unless the job says
//!   otherwise), drawn as one POINT (size 1.0, at the pixel centre) per case. Each point
//!   carries its own varyings, written by a vertex shader generated here with rspirv
//!   (`shaders::point_vertex_shader`). By default the harness also decorates the
//!   fragment program's Location inputs `Flat` (`FragmentJob::flat_varyings`): a point
//!   has one vertex, so this changes no value, except that lavapipe's interpolation
//!   would turn -0.0 into +0.0 and flush denormals; so values arrive bit-exact. Every
//!   colour output the program declares (plus any in `FragmentJob::outputs`) is an
//!   RGBA32 attachment of its kind at index n = Location, cleared to the job's clear
//!   value ([`KILL_SENTINEL`] by default), so a killed pixel still holds the clear value.
//! * [`Device::run_vertex`] runs a vertex program over N vertices and captures its
//!   outputs with `VK_EXT_transform_feedback`: the program's SPIR-V is patched
//!   (`TransformFeedback` capability, `Xfb` execution mode, `XfbBuffer`/`XfbStride`/
//!   `Offset` on the captured outputs, whether `Position` is a plain built-in variable
//!   or a member of a `gl_PerVertex` block) and drawn with rasterizer discard. The draw
//!   uses TRIANGLE_LIST, padded to a multiple of three vertices, not POINT_LIST: Vulkan
//!   requires a point-list vertex shader to write `PointSize` and most vertex programs
//!   do not; a triangle list is captured in exactly the vertex order. When the captured
//!   outputs exceed the device's per-vertex transform feedback size (512 bytes on
//!   lavapipe), the outputs are captured over several draws.
//!
//! * [`Device::run_geometry`] runs a vertex program and a geometry program drawn with
//!   a given topology and captures the geometry program's emitted vertices with
//!   transform feedback (the geometry module patched like a vertex program), one
//!   record per vertex of each decomposed output primitive; the record count comes
//!   from the transform feedback counter buffer. Parameters are in set 1.
//! * [`Device::run_geometry_streams`] runs a geometry program compiled with
//!   `Options::transform_feedback`, which declares its own capture (not patched):
//!   transform feedback buffer k takes vertex stream k (EMITS), with the record
//!   stride the reflection gives; it returns each stream's records as words. Needs
//!   `geometryStreams` and 4 streams (else a `NoDevice` error).
//!   [`Device::run_vertex_declared`] and [`Device::run_tessellation_declared`] do
//!   the same for a vertex program alone and for an evaluation program compiled
//!   with the option: one stream, buffer 0.
//! * [`Device::run_raster`] runs a vertex program, an optional geometry program and a
//!   fragment program as one pipeline, rasterises the draw into a W×H target (32×32 by
//!   default) and reads back every pixel of every colour output (cleared to
//!   [`KILL_SENTINEL`] by default). It shares the target, pipeline and read-back code
//!   of fragment runs (`Device::render`). Parameters are in one set (default 1).
//!
//! * [`Device::run_scene`] runs clears, draws and read-backs in order on one
//!   persistent RGBA8 target with GL's conventions (y up, depth range [-w, w]
//!   → [0, 1]), each stage with its own descriptor set: what the piglit
//!   shader_test runner (tests/device/piglit/) draws with.
//!
//! Textures: `FragmentJob::textures` / `VertexJob::textures` ([`Texture`]) are
//! uploaded (every mip level, layer and cube face) and bound at binding 32 + unit of
//! the stage's set, with their samplers; a BUFFER unit is a uniform texel buffer.
//!
//! Parameters: both kinds of run bind `program.env` (binding 0) and `program.local`
//! (binding 1) as 4096-byte uniform buffers (256 `uvec4`, zero unless the job sets
//! them) in the stage's descriptor set (vertex 0, fragment 2, see docs/interface.md).
#![allow(dead_code)]

mod compute;
mod device;
mod fragment;
mod geometry;
mod scene;
mod shaders;
mod storage_image;
mod texture;
mod vertex;

use std::fmt;

use ash::vk;

#[allow(unused_imports)]
pub use compute::{AddressedBuffer, ComputeJob};
#[allow(unused_imports)]
pub use device::{device_or_skip, shared_device, Device, Subgroups};
#[allow(unused_imports)]
pub use fragment::{FragmentJob, FragmentOutput, PipelineExtras};
#[allow(unused_imports)]
pub use geometry::{GeometryJob, RasterJob, RasterOutput};
#[allow(unused_imports)]
pub use scene::{SceneDraw, SceneFrame, SceneOp, SceneTarget, StageResources};
pub use storage_image::StorageImage;
#[allow(unused_imports)]
pub use texture::{SamplerDesc, Texture, TextureKind, FIRST_TEXTURE_BINDING};
#[allow(unused_imports)]
pub use vertex::{Capture, VertexJob, VertexOutput, VertexRecord};

/// The default clear value of every colour attachment of a fragment run: a quiet NaN
/// with a recognisable payload. A pixel that still holds it was not written (killed).
pub const KILL_SENTINEL: [u32; 4] = [0x7FC0_DEAD; 4];

/// Number of `uvec4` in each of the `program.env` and `program.local` buffers.
pub const PARAM_VEC4S: usize = 256;

/// Descriptor set of vertex programs (docs/interface.md).
pub const VERTEX_SET: u32 = 0;
/// Descriptor set of geometry programs (docs/interface.md).
pub const GEOMETRY_SET: u32 = 1;
/// Descriptor set of fragment programs (docs/interface.md).
pub const FRAGMENT_SET: u32 = 2;

/// Everything that can go wrong in a harness run.
#[derive(Debug)]
pub enum HarnessError {
    /// No usable Vulkan implementation (loader, ICD or device missing).
    NoDevice(String),
    /// A Vulkan call failed.
    Vulkan {
        call: &'static str,
        result: vk::Result,
    },
    /// The validation layer reported errors or warnings during the run.
    /// `run_error` is the run's own error, if it also failed.
    Validation {
        messages: Vec<String>,
        run_error: Option<Box<HarnessError>>,
    },
    /// The SPIR-V given to the harness could not be parsed or patched.
    Spirv(String),
    /// The job is inconsistent (conflicting kinds, too many cases, an output the
    /// shader does not have, ...).
    Job(String),
    /// The GPU did not finish within the timeout (an endless loop in a shader?).
    Timeout,
}

impl fmt::Display for HarnessError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HarnessError::NoDevice(m) => write!(f, "no Vulkan device: {m}"),
            HarnessError::Vulkan { call, result } => write!(f, "{call} failed: {result}"),
            HarnessError::Validation {
                messages,
                run_error,
            } => {
                write!(f, "{} validation message(s):", messages.len())?;
                for m in messages {
                    write!(f, "\n  - {m}")?;
                }
                if let Some(e) = run_error {
                    write!(f, "\n  (the run itself also failed: {e})")?;
                }
                Ok(())
            }
            HarnessError::Spirv(m) => write!(f, "SPIR-V: {m}"),
            HarnessError::Job(m) => write!(f, "bad job: {m}"),
            HarnessError::Timeout => write!(f, "the GPU did not finish in time"),
        }
    }
}

impl std::error::Error for HarnessError {}

pub type Result<T> = std::result::Result<T, HarnessError>;

/// Adds the failing call's name to an `ash` result.
pub(crate) trait VkContext<T> {
    fn vk(self, call: &'static str) -> Result<T>;
}

impl<T> VkContext<T> for std::result::Result<T, vk::Result> {
    fn vk(self, call: &'static str) -> Result<T> {
        self.map_err(|result| HarnessError::Vulkan { call, result })
    }
}

/// The numeric type of a vertex attribute, a varying or a colour output.
/// Selects the SPIR-V type (`vec4`/`ivec4`/`uvec4`) and the Vulkan format
/// (`R32G32B32A32_SFLOAT`/`_SINT`/`_UINT`). Integer varyings are declared `Flat`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Float,
    Int,
    Uint,
}

impl Kind {
    pub fn format(self) -> vk::Format {
        match self {
            Kind::Float => vk::Format::R32G32B32A32_SFLOAT,
            Kind::Int => vk::Format::R32G32B32A32_SINT,
            Kind::Uint => vk::Format::R32G32B32A32_UINT,
        }
    }
}

/// One per-case input: a vertex attribute (vertex runs) or a varying (fragment runs)
/// at `location`, as four 32-bit patterns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Input {
    pub location: u32,
    pub bits: [u32; 4],
    pub kind: Kind,
}

impl Input {
    pub fn new(location: u32, kind: Kind, bits: [u32; 4]) -> Input {
        Input {
            location,
            bits,
            kind,
        }
    }
    /// A `vec4` input from float values.
    pub fn float(location: u32, v: [f32; 4]) -> Input {
        Input::new(location, Kind::Float, fbits(v))
    }
    /// A `vec4` input from raw bits (NaN payloads, denormals, ...).
    pub fn float_bits(location: u32, bits: [u32; 4]) -> Input {
        Input::new(location, Kind::Float, bits)
    }
    /// An `ivec4` input.
    pub fn int(location: u32, v: [i32; 4]) -> Input {
        Input::new(location, Kind::Int, ibits(v))
    }
    /// A `uvec4` input.
    pub fn uint(location: u32, v: [u32; 4]) -> Input {
        Input::new(location, Kind::Uint, v)
    }
}

/// IEEE-754 bits of four floats.
pub fn fbits(v: [f32; 4]) -> [u32; 4] {
    v.map(f32::to_bits)
}

/// Two's-complement bits of four ints.
pub fn ibits(v: [i32; 4]) -> [u32; 4] {
    v.map(|x| x as u32)
}

/// Four floats from their bits.
pub fn to_f32(bits: [u32; 4]) -> [f32; 4] {
    bits.map(f32::from_bits)
}

/// Four ints from their bits.
pub fn to_i32(bits: [u32; 4]) -> [i32; 4] {
    bits.map(|x| x as i32)
}

/// Collects the (location, kind) pairs used by a list of cases; a location used
/// with two kinds is an error. Cases that lack a location get zero bits for it.
pub(crate) fn collect_inputs(
    cases: &[Vec<Input>],
    what: &str,
) -> Result<std::collections::BTreeMap<u32, Kind>> {
    let mut map = std::collections::BTreeMap::new();
    for (i, case) in cases.iter().enumerate() {
        for input in case {
            match map.insert(input.location, input.kind) {
                Some(k) if k != input.kind => {
                    return Err(HarnessError::Job(format!(
                        "{what} Location {} is {k:?} in an earlier case but {:?} in case {i}",
                        input.location, input.kind
                    )))
                }
                _ => {}
            }
        }
    }
    Ok(map)
}

/// Rows of nvp4c's `State` block (binding 2, docs/interface.md).
pub const STATE_ROWS: usize = nvp4c::state::ROWS as usize;

/// The rows of a State block image (`nvp4c::state::Block`, e.g. from
/// `GlState::to_block`) as a job's `state`.
pub fn state_rows(block: &nvp4c::state::Block) -> Vec<[u32; 4]> {
    block.rows().iter().map(|r| fbits(*r)).collect()
}

/// Most `uvec4` a `program.buffer[b]` block of a job may hold (64 KiB).
pub const MAX_BUFFER_VEC4S: usize = 4096;

/// Packs the `State` rows of a job into the full block image (zero past `rows`).
pub(crate) fn state_block(rows: &[[u32; 4]]) -> Result<Vec<u32>> {
    if rows.len() > STATE_ROWS {
        return Err(HarnessError::Job(format!(
            "state has {} rows, at most {STATE_ROWS}",
            rows.len()
        )));
    }
    let mut words = vec![0u32; STATE_ROWS * 4];
    for (i, v) in rows.iter().enumerate() {
        words[i * 4..i * 4 + 4].copy_from_slice(v);
    }
    Ok(words)
}

/// Checks the parameter buffers of a job: binding points b < 16, each once, at
/// most [`MAX_BUFFER_VEC4S`] entries; returns (binding 3 + b, words).
pub(crate) fn buffer_blocks(buffers: &[(u32, Vec<[u32; 4]>)]) -> Result<Vec<(u32, Vec<u32>)>> {
    let mut out: Vec<(u32, Vec<u32>)> = Vec::new();
    for (b, data) in buffers {
        if *b >= 16 || out.iter().any(|(x, _)| *x == 3 + b) || data.len() > MAX_BUFFER_VEC4S {
            return Err(HarnessError::Job(format!(
                "program.buffer[{b}]: binding points 0..=15, once each, at most {MAX_BUFFER_VEC4S} uvec4"
            )));
        }
        out.push((3 + b, data.iter().flatten().copied().collect()));
    }
    Ok(out)
}

/// Every uniform block a job binds, as (binding, words): `program.env` (0),
/// `program.local` (1), the `State` block (2) and `program.buffer[b]` (3 + b),
/// per docs/interface.md.
pub(crate) fn uniform_blocks(
    env: &[[u32; 4]],
    local: &[[u32; 4]],
    state: &[[u32; 4]],
    buffers: &[(u32, Vec<[u32; 4]>)],
) -> Result<Vec<(u32, Vec<u32>)>> {
    let mut blocks = vec![
        (0, param_block(env, "env")?),
        (1, param_block(local, "local")?),
        (2, state_block(state)?),
    ];
    blocks.extend(buffer_blocks(buffers)?);
    Ok(blocks)
}

/// Packs a list of `uvec4` parameters into a 4096-byte std140 block image.
pub(crate) fn param_block(values: &[[u32; 4]], what: &str) -> Result<Vec<u32>> {
    if values.len() > PARAM_VEC4S {
        return Err(HarnessError::Job(format!(
            "{what} has {} entries, at most {PARAM_VEC4S}",
            values.len()
        )));
    }
    let mut words = vec![0u32; PARAM_VEC4S * 4];
    for (i, v) in values.iter().enumerate() {
        words[i * 4..i * 4 + 4].copy_from_slice(v);
    }
    Ok(words)
}

/// The vertex buffer of a job's per-vertex attributes: one binding, one 16-byte
/// slot per Location the vertices use (in Location order), zero bits where a
/// vertex does not list a Location.
pub(crate) struct VertexBuffer {
    /// (Location, kind) of each slot.
    pub(crate) attributes: Vec<(u32, Kind)>,
    pub(crate) stride: u32,
    pub(crate) data: Vec<u32>,
}

impl VertexBuffer {
    /// `vertices[i]` at index `first + i` of a buffer of `first + len`
    /// vertices (`len` ≥ the number of vertices; the rest are zero).
    pub(crate) fn new(vertices: &[Vec<Input>], first: usize, len: usize) -> Result<VertexBuffer> {
        let attributes: Vec<_> = collect_inputs(vertices, "attribute")?.into_iter().collect();
        if attributes.iter().any(|&(l, _)| l > 31) {
            return Err(HarnessError::Job(
                "attributes must use Locations 0..=31".into(),
            ));
        }
        let stride = 16 * attributes.len().max(1);
        let mut data = vec![0u32; (first + len.max(vertices.len())) * stride / 4];
        for (i, v) in vertices.iter().enumerate() {
            for input in v {
                let k = attributes
                    .iter()
                    .position(|&(l, _)| l == input.location)
                    .unwrap_or(0);
                let at = (first + i) * stride / 4 + 4 * k;
                data[at..at + 4].copy_from_slice(&input.bits);
            }
        }
        Ok(VertexBuffer {
            attributes,
            stride: stride as u32,
            data,
        })
    }

    pub(crate) fn descriptions(&self) -> Vec<vk::VertexInputAttributeDescription> {
        self.attributes
            .iter()
            .enumerate()
            .map(
                |(k, &(location, kind))| vk::VertexInputAttributeDescription {
                    location,
                    binding: 0,
                    format: kind.format(),
                    offset: 16 * k as u32,
                },
            )
            .collect()
    }
}
