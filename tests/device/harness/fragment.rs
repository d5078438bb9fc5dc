//! Fragment runs: one POINT per case, one pixel per case; and `Device::render`, the
//! draw into a colour (and depth) target and its read-back that fragment runs and
//! rasterised runs (`Device::run_raster`, geometry.rs) share.

use std::collections::BTreeMap;

use ash::vk;

use super::device::{host_barrier, image_barrier, Descriptor, Device, HostBuffer, Scope};
use super::storage_image::StorageImage;
use super::texture::Texture;
use super::{
    collect_inputs, shaders, to_f32, uniform_blocks, HarnessError, Input, Kind, Result,
    FRAGMENT_SET, KILL_SENTINEL,
};

/// Largest target width; more cases wrap onto further rows.
pub const MAX_WIDTH: u32 = 64;
/// Most cases one fragment run takes.
pub const MAX_CASES: usize = 64 * 1024;

/// A fragment run: `cases[i]` holds the varyings of case i (pixel (i % W, i / W)).
#[derive(Clone, Debug)]
pub struct FragmentJob {
    /// Per-case varyings. Every case may list different Locations; a Location missing
    /// from a case reads zero bits there. A Location must have the same kind in every
    /// case. Locations 0..=30 (the harness vertex shader has 31 inputs for them).
    pub cases: Vec<Vec<Input>>,
    /// `program.env[i]` (binding 0), raw bits; the rest of the 256 entries are zero.
    pub env: Vec<[u32; 4]>,
    /// `program.local[i]` (binding 1), raw bits; the rest are zero.
    pub local: Vec<[u32; 4]>,
    /// Rows of nvp4c's `State` block (binding 2, `nvp4c::state::ROWS` rows, docs/interface.md),
    /// raw bits; the rest are zero. Always bound.
    pub state: Vec<[u32; 4]>,
    /// `program.buffer[b]` contents (binding 3 + b), raw bits, as (b, uvec4s).
    pub buffers: Vec<(u32, Vec<[u32; 4]>)>,
    /// `program.subroutine[n]` (ARB_shader_subroutine), the SUBROUTINENUM
    /// each subroutine parameter holds: the `ProgramSubroutine` block at
    /// binding 19, one uvec4 per parameter with the value in x
    /// (docs/interface.md, "Subroutine parameters"). Bound only when not
    /// empty.
    pub subroutine: Vec<u32>,
    /// Colour outputs to attach and read back, besides the ones the program declares:
    /// every `Output` with a `Location` (= attachment index n of `result.color[n]`,
    /// n ≤ 7) is attached automatically with the kind of its type. An entry here
    /// overrides the kind of a declared output (e.g. to test a mismatch) or attaches
    /// one the program does not declare (its pixels keep the clear value, and the
    /// validation layer warns that it is not written). Default: empty.
    pub outputs: Vec<(u32, Kind)>,
    /// Clear value (bits) of every colour attachment; a pixel still holding it after
    /// the run was not written (KIL). Default [`KILL_SENTINEL`].
    pub clear: [u32; 4],
    /// Attach a D32_SFLOAT depth buffer (depth test ALWAYS, writes on) cleared to
    /// `depth_clear`, and read it back (for `result.depth`, clamped to [0, 1]).
    pub depth: bool,
    pub depth_clear: f32,
    /// The z (= `fragment.position.z`) of every point, in [0, 1].
    pub z: f32,
    /// Decorate the fragment program's Location inputs `Flat` before running it (default
    /// true), so float varyings arrive bit-exact: lavapipe's interpolation of a point
    /// turns -0.0 into +0.0 and flushes denormals (NaN payloads and infinities survive).
    /// Set false to run the program's own interpolation decorations unchanged.
    pub flat_varyings: bool,
    /// Width of the target; `None`: min(cases, 64).
    pub width: Option<u32>,
    /// Descriptor set of the parameters (default 2, see docs/interface.md).
    pub descriptor_set: u32,
    /// Textures, each at binding 32 + unit of the set (default: none).
    pub textures: Vec<Texture>,
    /// The fragment program's entry point, push constants (stages
    /// FRAGMENT) and specialization constants (`specialization[2]`).
    pub pipeline: PipelineExtras,
    /// Samples per pixel (1, the default, or 4). A multisampled run
    /// resolves each colour attachment into the pixel read back: the
    /// average of the samples for float outputs, sample 0 for integer ones
    /// (Vulkan's resolve modes). No depth buffer with it.
    pub samples: u32,
    /// Storage images (EXT_shader_image_load_store's `image[n]` at binding
    /// 80 + n, NV_bindless_texture's image handle arrays) of the
    /// parameters' set, uploaded before the draw and read back after it
    /// ([`FragmentOutput::images`]); the device's
    /// `fragmentStoresAndAtomics`. Not together with `textures`.
    pub images: Vec<StorageImage>,
}

impl Default for FragmentJob {
    fn default() -> Self {
        FragmentJob {
            cases: Vec::new(),
            env: Vec::new(),
            local: Vec::new(),
            state: Vec::new(),
            buffers: Vec::new(),
            subroutine: Vec::new(),
            outputs: Vec::new(),
            clear: KILL_SENTINEL,
            depth: false,
            depth_clear: 1.0,
            z: 0.0,
            flat_varyings: true,
            width: None,
            descriptor_set: FRAGMENT_SET,
            textures: Vec::new(),
            pipeline: PipelineExtras::default(),
            samples: 1,
            images: Vec::new(),
        }
    }
}

impl FragmentJob {
    /// A job with these cases and defaults for everything else.
    pub fn new(cases: Vec<Vec<Input>>) -> FragmentJob {
        FragmentJob {
            cases,
            ..Default::default()
        }
    }
}

/// The results of a fragment run, per case, as bit patterns.
#[derive(Clone, Debug)]
pub struct FragmentOutput {
    pub width: u32,
    pub height: u32,
    pub cases: usize,
    pub clear: [u32; 4],
    /// Per attached Location: one `[u32; 4]` per case (not per pixel: pixels beyond
    /// the last case are dropped).
    pub colors: BTreeMap<u32, Vec<[u32; 4]>>,
    /// Depth bits per case, when the job asked for depth.
    pub depth: Option<Vec<u32>>,
    /// Each of [`FragmentJob::images`]' words after the run, in the job's
    /// order (a multisample image's are not read back).
    pub images: Vec<Vec<u32>>,
}

impl FragmentOutput {
    /// The bits written to `result.color[location]` by `case`.
    /// Panics if that Location was not attached (test code misuse).
    pub fn color(&self, case: usize, location: u32) -> [u32; 4] {
        match self.colors.get(&location) {
            Some(v) => v[case],
            None => panic!(
                "output Location {location} was neither declared by the program nor requested"
            ),
        }
    }
    /// `color` as floats.
    pub fn color_f32(&self, case: usize, location: u32) -> [f32; 4] {
        to_f32(self.color(case, location))
    }
    /// Location 0 of `case`.
    pub fn bits(&self, case: usize) -> [u32; 4] {
        self.color(case, 0)
    }
    /// Location 0 of `case` as floats.
    pub fn f32(&self, case: usize) -> [f32; 4] {
        to_f32(self.bits(case))
    }
    /// True when no attachment of `case` was written: every colour output still holds
    /// the clear value (the case was killed, or writes nothing).
    pub fn killed(&self, case: usize) -> bool {
        self.colors.values().all(|v| v[case] == self.clear)
    }
    /// The depth written by `case` (as float).
    pub fn depth_f32(&self, case: usize) -> Option<f32> {
        self.depth.as_ref().map(|d| f32::from_bits(d[case]))
    }
}

impl Device {
    /// Runs the fragment program `frag_spirv` (entry point `main`) once per case.
    pub fn run_fragment(&self, frag_spirv: &[u32], job: &FragmentJob) -> Result<FragmentOutput> {
        let n = job.cases.len();
        if n == 0 || n > MAX_CASES {
            return Err(HarnessError::Job(format!(
                "{n} cases; a fragment job takes 1..={MAX_CASES}"
            )));
        }
        let width = job.width.unwrap_or(MAX_WIDTH).clamp(1, 4096).min(n as u32);
        let height = (n as u32).div_ceil(width);
        let varyings: Vec<(u32, Kind)> =
            collect_inputs(&job.cases, "varying")?.into_iter().collect();
        if varyings.len() > 31 || varyings.iter().any(|&(l, _)| l > 30) {
            return Err(HarnessError::Job(
                "varyings must use Locations 0..=30".into(),
            ));
        }
        let mut outputs: BTreeMap<u32, Kind> =
            shaders::fragment_outputs(frag_spirv)?.into_iter().collect();
        let mut requested = BTreeMap::new();
        for &(loc, kind) in &job.outputs {
            if requested.insert(loc, kind).is_some() {
                return Err(HarnessError::Job(format!(
                    "output Location {loc} is listed twice"
                )));
            }
        }
        outputs.extend(requested);
        if let Some(loc) = outputs.keys().find(|&&l| l > 7) {
            return Err(HarnessError::Job(format!(
                "output Location {loc}: colour outputs are Locations 0..=7"
            )));
        }
        let samples = match job.samples {
            1 => vk::SampleCountFlags::TYPE_1,
            4 if !job.depth => vk::SampleCountFlags::TYPE_4,
            n => {
                return Err(HarnessError::Job(format!(
                    "{n} samples{}: a fragment job takes 1, or 4 without depth",
                    if job.depth { " with depth" } else { "" }
                )))
            }
        };
        if outputs.is_empty() && !job.depth {
            return Err(HarnessError::Job("the job reads back nothing".into()));
        }
        let vs = shaders::point_vertex_shader(&varyings)?;
        let flattened = if job.flat_varyings {
            shaders::flatten_fragment_inputs(frag_spirv)?
        } else {
            None
        };
        let frag_spirv = flattened.as_deref().unwrap_or(frag_spirv);

        // Vertex data: per case, the clip-space pixel centre, then each varying.
        let stride = 16 * (1 + varyings.len());
        let mut vdata = vec![0u32; n * stride / 4];
        for (i, case) in job.cases.iter().enumerate() {
            let rec = &mut vdata[i * stride / 4..(i + 1) * stride / 4];
            let (x, y) = (i as u32 % width, i as u32 / width);
            let cx = (2.0 * (x as f32 + 0.5)) / width as f32 - 1.0;
            let cy = (2.0 * (y as f32 + 0.5)) / height as f32 - 1.0;
            rec[..4].copy_from_slice(&[cx, cy, job.z, 1.0].map(f32::to_bits));
            for input in case {
                let k = varyings
                    .iter()
                    .position(|&(l, _)| l == input.location)
                    .unwrap_or(0);
                rec[4 + 4 * k..8 + 4 * k].copy_from_slice(&input.bits);
            }
        }
        let mut attributes = vec![vk::VertexInputAttributeDescription {
            location: 0,
            binding: 0,
            format: vk::Format::R32G32B32A32_SFLOAT,
            offset: 0,
        }];
        for k in 0..varyings.len() as u32 {
            attributes.push(vk::VertexInputAttributeDescription {
                location: k + 1,
                binding: 0,
                format: vk::Format::R32G32B32A32_UINT,
                offset: 16 * (k + 1),
            });
        }
        let mut blocks = uniform_blocks(&job.env, &job.local, &job.state, &job.buffers)?;
        if !job.subroutine.is_empty() {
            let words = job.subroutine.iter().flat_map(|&n| [n, 0, 0, 0]).collect();
            blocks.push((nvp4c::layout::SUBROUTINE_BINDING_OFFSET, words));
        }
        let pixels = self.render(&Draw {
            vertex: &vs,
            geometry: None,
            tessellation: None,
            fragment: frag_spirv,
            topology: vk::PrimitiveTopology::POINT_LIST,
            vertex_data: &vdata,
            stride: stride as u32,
            attributes,
            vertex_count: n as u32,
            width,
            height,
            outputs: &outputs,
            clear: job.clear,
            depth_clear: job.depth.then_some(job.depth_clear),
            blocks: &blocks,
            textures: &job.textures,
            descriptor_set: job.descriptor_set,
            stages: vk::ShaderStageFlags::FRAGMENT,
            pipeline: &job.pipeline,
            samples,
            storage_images: &job.images,
        })?;
        // Pixels beyond the last case are dropped.
        let colors = pixels
            .colors
            .into_iter()
            .map(|(loc, mut px)| {
                px.truncate(n);
                (loc, px)
            })
            .collect();
        let depth = pixels.depth.map(|mut d| {
            d.truncate(n);
            d
        });
        Ok(FragmentOutput {
            width,
            height,
            cases: n,
            clear: job.clear,
            colors,
            depth,
            images: pixels.images,
        })
    }

    /// Draws `draw` into a fresh W×H target and reads every attachment back, per
    /// pixel: the part of a fragment run that does not depend on where the vertices
    /// come from (fragment runs draw harness-made points; [`Device::run_raster`]
    /// draws a vertex and a geometry program's primitives).
    pub(crate) fn render(&self, draw: &Draw<'_>) -> Result<Pixels> {
        let (width, height) = (draw.width, draw.height);
        let outputs = draw.outputs;
        self.run(|d| {
            let mut s = Scope::new(d);
            s.push_constant_ranges = draw
                .pipeline
                .push_constants
                .iter()
                .map(|(stage_flags, offset, words)| vk::PushConstantRange {
                    stage_flags: *stage_flags,
                    offset: *offset,
                    size: 4 * words.len() as u32,
                })
                .collect();
            let vbuf = s.buffer(0, vk::BufferUsageFlags::VERTEX_BUFFER, draw.vertex_data)?;
            let uploaded = s.uniform_buffers(draw.blocks)?;
            let uniforms: Vec<(u32, &HostBuffer)> =
                uploaded.iter().map(|(b, buf)| (*b, buf)).collect();
            // Storage images: the uniform blocks and the images as one set's
            // descriptors (textures have their own path, resource_set).
            let mut storage_images = Vec::new();
            let (layout, set) = if draw.storage_images.is_empty() {
                s.resource_set(draw.descriptor_set, draw.stages, &uniforms, draw.textures)?
            } else {
                if !draw.textures.is_empty() {
                    return Err(HarnessError::Job(
                        "a draw with both textures and storage images is not supported by the harness"
                            .into(),
                    ));
                }
                let mut descriptors: Vec<(u32, u32, Descriptor)> = uniforms
                    .iter()
                    .map(|&(b, buf)| {
                        (
                            b,
                            0,
                            Descriptor::Buffer(vk::DescriptorType::UNIFORM_BUFFER, buf.buffer),
                        )
                    })
                    .collect();
                for image in draw.storage_images {
                    let bound = s.storage_image(image)?;
                    descriptors.push((image.binding, image.element, bound.descriptor));
                    storage_images.push(bound);
                }
                s.descriptor_set_elements(draw.descriptor_set, draw.stages, &descriptors)?
            };

            // Attachments: index = Location; unused indices have format UNDEFINED.
            let count = outputs.keys().next_back().map_or(0, |&l| l + 1) as usize;
            let mut formats = vec![vk::Format::UNDEFINED; count];
            let mut images: Vec<(u32, vk::Image, vk::ImageView, HostBuffer)> = Vec::new();
            // With several samples: per Location, the multisampled image
            // drawn into (images then holds the resolved ones) and the
            // resolve mode of its kind.
            let multisampled = draw.samples != vk::SampleCountFlags::TYPE_1;
            let mut sampled: Vec<(vk::Image, vk::ImageView, vk::ResolveModeFlags)> = Vec::new();
            let pixel_bytes = 16 * width as u64 * height as u64;
            for (&loc, &kind) in outputs {
                formats[loc as usize] = kind.format();
                if multisampled {
                    let (image, view) = s.image_samples(
                        kind.format(),
                        vk::ImageUsageFlags::COLOR_ATTACHMENT,
                        vk::ImageAspectFlags::COLOR,
                        width,
                        height,
                        draw.samples,
                    )?;
                    let mode = if kind.format() == vk::Format::R32G32B32A32_SFLOAT {
                        vk::ResolveModeFlags::AVERAGE
                    } else {
                        vk::ResolveModeFlags::SAMPLE_ZERO
                    };
                    sampled.push((image, view, mode));
                }
                let (image, view) = s.image(
                    kind.format(),
                    vk::ImageUsageFlags::COLOR_ATTACHMENT | vk::ImageUsageFlags::TRANSFER_SRC,
                    vk::ImageAspectFlags::COLOR,
                    width,
                    height,
                )?;
                let readback = s.buffer(pixel_bytes, vk::BufferUsageFlags::TRANSFER_DST, &[])?;
                images.push((loc, image, view, readback));
            }
            let depth = if draw.depth_clear.is_some() {
                let (image, view) = s.image(
                    vk::Format::D32_SFLOAT,
                    vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT
                        | vk::ImageUsageFlags::TRANSFER_SRC,
                    vk::ImageAspectFlags::DEPTH,
                    width,
                    height,
                )?;
                let readback =
                    s.buffer(pixel_bytes / 4, vk::BufferUsageFlags::TRANSFER_DST, &[])?;
                Some((image, view, readback))
            } else {
                None
            };

            let vs = s.shader(draw.vertex)?;
            let gs = draw.geometry.map(|g| s.shader(g)).transpose()?;
            let tess = match draw.tessellation {
                Some((tcp, tep, _)) => Some((s.shader(tcp)?, s.shader(tep)?)),
                None => None,
            };
            let fs = s.shader(draw.fragment)?;
            let pipeline = {
                // Entry point names and specialization constants per stage
                // (vertex, geometry, fragment).
                let names = draw.pipeline.entry_point_names()?;
                let spec_data: Vec<Vec<u32>> = draw
                    .pipeline
                    .specialization
                    .iter()
                    .map(|s| s.iter().map(|&(_, v)| v).collect())
                    .collect();
                let spec_entries: Vec<Vec<vk::SpecializationMapEntry>> = draw
                    .pipeline
                    .specialization
                    .iter()
                    .map(|s| {
                        s.iter()
                            .enumerate()
                            .map(|(k, &(id, _))| vk::SpecializationMapEntry {
                                constant_id: id,
                                offset: 4 * k as u32,
                                size: 4,
                            })
                            .collect()
                    })
                    .collect();
                let spec_infos: Vec<vk::SpecializationInfo<'_>> = (0..3)
                    .map(|k| {
                        vk::SpecializationInfo::default()
                            .map_entries(&spec_entries[k])
                            .data(bytemuck_words(&spec_data[k]))
                    })
                    .collect();
                let stage_info = |k: usize, stage, module| {
                    let info = vk::PipelineShaderStageCreateInfo::default()
                        .stage(stage)
                        .module(module)
                        .name(names[k].as_c_str());
                    if draw.pipeline.specialization[k].is_empty() {
                        info
                    } else {
                        info.specialization_info(&spec_infos[k])
                    }
                };
                let mut stages = vec![stage_info(0, vk::ShaderStageFlags::VERTEX, vs)];
                if let Some((tcs, tes)) = tess {
                    for (stage, module) in [
                        (vk::ShaderStageFlags::TESSELLATION_CONTROL, tcs),
                        (vk::ShaderStageFlags::TESSELLATION_EVALUATION, tes),
                    ] {
                        stages.push(
                            vk::PipelineShaderStageCreateInfo::default()
                                .stage(stage)
                                .module(module)
                                .name(c"main"),
                        );
                    }
                }
                if let Some(gs) = gs {
                    stages.push(stage_info(1, vk::ShaderStageFlags::GEOMETRY, gs));
                }
                stages.push(stage_info(2, vk::ShaderStageFlags::FRAGMENT, fs));
                let bindings = [vk::VertexInputBindingDescription {
                    binding: 0,
                    stride: draw.stride,
                    input_rate: vk::VertexInputRate::VERTEX,
                }];
                let mut vertex_input = vk::PipelineVertexInputStateCreateInfo::default();
                if !draw.attributes.is_empty() {
                    vertex_input = vertex_input
                        .vertex_binding_descriptions(&bindings)
                        .vertex_attribute_descriptions(&draw.attributes);
                }
                let input_assembly =
                    vk::PipelineInputAssemblyStateCreateInfo::default().topology(draw.topology);
                let viewports = [vk::Viewport {
                    x: 0.0,
                    y: 0.0,
                    width: width as f32,
                    height: height as f32,
                    min_depth: 0.0,
                    max_depth: 1.0,
                }];
                let scissors = [vk::Rect2D {
                    offset: vk::Offset2D { x: 0, y: 0 },
                    extent: vk::Extent2D { width, height },
                }];
                let viewport = vk::PipelineViewportStateCreateInfo::default()
                    .viewports(&viewports)
                    .scissors(&scissors);
                let raster = vk::PipelineRasterizationStateCreateInfo::default()
                    .polygon_mode(vk::PolygonMode::FILL)
                    .cull_mode(vk::CullModeFlags::NONE)
                    .front_face(vk::FrontFace::COUNTER_CLOCKWISE)
                    .line_width(1.0);
                let multisample = vk::PipelineMultisampleStateCreateInfo::default()
                    .rasterization_samples(draw.samples);
                let with_depth = draw.depth_clear.is_some();
                let depth_state = vk::PipelineDepthStencilStateCreateInfo::default()
                    .depth_test_enable(with_depth)
                    .depth_write_enable(with_depth)
                    .depth_compare_op(vk::CompareOp::ALWAYS);
                // Unused attachment indices (between requested Locations) get no
                // writes at all.
                let blend_attachments: Vec<_> = formats
                    .iter()
                    .map(|&f| {
                        vk::PipelineColorBlendAttachmentState::default()
                            .blend_enable(false)
                            .color_write_mask(if f == vk::Format::UNDEFINED {
                                vk::ColorComponentFlags::empty()
                            } else {
                                vk::ColorComponentFlags::RGBA
                            })
                    })
                    .collect();
                let blend = vk::PipelineColorBlendStateCreateInfo::default()
                    .attachments(&blend_attachments);
                let mut rendering =
                    vk::PipelineRenderingCreateInfo::default().color_attachment_formats(&formats);
                if with_depth {
                    rendering = rendering.depth_attachment_format(vk::Format::D32_SFLOAT);
                }
                let tessellation = vk::PipelineTessellationStateCreateInfo::default()
                    .patch_control_points(draw.tessellation.map_or(1, |t| t.2));
                let mut info = vk::GraphicsPipelineCreateInfo::default()
                    .stages(&stages)
                    .vertex_input_state(&vertex_input)
                    .input_assembly_state(&input_assembly)
                    .viewport_state(&viewport)
                    .rasterization_state(&raster)
                    .multisample_state(&multisample)
                    .depth_stencil_state(&depth_state)
                    .color_blend_state(&blend)
                    .layout(layout)
                    .push_next(&mut rendering);
                if draw.tessellation.is_some() {
                    info = info.tessellation_state(&tessellation);
                }
                s.graphics_pipeline(&info)?
            };

            let clear = vk::ClearValue {
                color: vk::ClearColorValue { uint32: draw.clear },
            };
            let mut color_attachments = vec![vk::RenderingAttachmentInfo::default(); count];
            for (k, &(loc, _, view, _)) in images.iter().enumerate() {
                let attachment = vk::RenderingAttachmentInfo::default()
                    .image_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)
                    .load_op(vk::AttachmentLoadOp::CLEAR)
                    .store_op(vk::AttachmentStoreOp::STORE)
                    .clear_value(clear);
                color_attachments[loc as usize] = match sampled.get(k) {
                    Some(&(_, samples_view, mode)) => attachment
                        .image_view(samples_view)
                        .resolve_mode(mode)
                        .resolve_image_view(view)
                        .resolve_image_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL),
                    None => attachment.image_view(view),
                };
            }
            let depth_attachment = depth.as_ref().map(|&(_, view, _)| {
                vk::RenderingAttachmentInfo::default()
                    .image_view(view)
                    .image_layout(vk::ImageLayout::DEPTH_STENCIL_ATTACHMENT_OPTIMAL)
                    .load_op(vk::AttachmentLoadOp::CLEAR)
                    .store_op(vk::AttachmentStoreOp::STORE)
                    .clear_value(vk::ClearValue {
                        depth_stencil: vk::ClearDepthStencilValue {
                            depth: draw.depth_clear.unwrap_or(1.0),
                            stencil: 0,
                        },
                    })
            });
            let area = vk::Rect2D {
                offset: vk::Offset2D { x: 0, y: 0 },
                extent: vk::Extent2D { width, height },
            };
            let mut rendering_info = vk::RenderingInfo::default()
                .render_area(area)
                .layer_count(1)
                .color_attachments(&color_attachments);
            if let Some(a) = depth_attachment.as_ref() {
                rendering_info = rendering_info.depth_attachment(a);
            }

            let region = |aspect| vk::BufferImageCopy {
                buffer_offset: 0,
                buffer_row_length: 0,
                buffer_image_height: 0,
                image_subresource: vk::ImageSubresourceLayers {
                    aspect_mask: aspect,
                    mip_level: 0,
                    base_array_layer: 0,
                    layer_count: 1,
                },
                image_offset: vk::Offset3D { x: 0, y: 0, z: 0 },
                image_extent: vk::Extent3D {
                    width,
                    height,
                    depth: 1,
                },
            };
            let descriptor_set = draw.descriptor_set;
            s.submit(|dev, cb| unsafe {
                let color = vk::ImageAspectFlags::COLOR;
                let depth_aspect = vk::ImageAspectFlags::DEPTH;
                let top = vk::PipelineStageFlags::TOP_OF_PIPE;
                let transfer = vk::PipelineStageFlags::TRANSFER;
                let drawn = images
                    .iter()
                    .map(|i| i.1)
                    .chain(sampled.iter().map(|m| m.0));
                for image in drawn {
                    image_barrier(
                        dev,
                        cb,
                        image,
                        color,
                        (vk::ImageLayout::UNDEFINED, vk::AccessFlags::empty(), top),
                        (
                            vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL,
                            vk::AccessFlags::COLOR_ATTACHMENT_WRITE,
                            vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT,
                        ),
                    );
                }
                let depth_stages = vk::PipelineStageFlags::EARLY_FRAGMENT_TESTS
                    | vk::PipelineStageFlags::LATE_FRAGMENT_TESTS;
                for i in &storage_images {
                    i.upload(dev, cb, vk::PipelineStageFlags::ALL_GRAPHICS);
                }
                if let Some(&(image, _, _)) = depth.as_ref() {
                    image_barrier(
                        dev,
                        cb,
                        image,
                        depth_aspect,
                        (vk::ImageLayout::UNDEFINED, vk::AccessFlags::empty(), top),
                        (
                            vk::ImageLayout::DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
                            vk::AccessFlags::DEPTH_STENCIL_ATTACHMENT_WRITE
                                | vk::AccessFlags::DEPTH_STENCIL_ATTACHMENT_READ,
                            depth_stages,
                        ),
                    );
                }
                dev.cmd_begin_rendering(cb, &rendering_info);
                dev.cmd_bind_pipeline(cb, vk::PipelineBindPoint::GRAPHICS, pipeline);
                dev.cmd_bind_descriptor_sets(
                    cb,
                    vk::PipelineBindPoint::GRAPHICS,
                    layout,
                    descriptor_set,
                    &[set],
                    &[],
                );
                for (stage_flags, offset, words) in &draw.pipeline.push_constants {
                    dev.cmd_push_constants(
                        cb,
                        layout,
                        *stage_flags,
                        *offset,
                        bytemuck_words(words),
                    );
                }
                if !draw.attributes.is_empty() {
                    dev.cmd_bind_vertex_buffers(cb, 0, &[vbuf.buffer], &[0]);
                }
                dev.cmd_draw(cb, draw.vertex_count, 1, 0, 0);
                dev.cmd_end_rendering(cb);
                for i in &storage_images {
                    i.download(dev, cb, vk::PipelineStageFlags::ALL_GRAPHICS);
                }
                for &(_, image, _, readback) in &images {
                    image_barrier(
                        dev,
                        cb,
                        image,
                        color,
                        (
                            vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL,
                            vk::AccessFlags::COLOR_ATTACHMENT_WRITE,
                            vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT,
                        ),
                        (
                            vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
                            vk::AccessFlags::TRANSFER_READ,
                            transfer,
                        ),
                    );
                    dev.cmd_copy_image_to_buffer(
                        cb,
                        image,
                        vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
                        readback.buffer,
                        &[region(color)],
                    );
                }
                if let Some(&(image, _, readback)) = depth.as_ref() {
                    image_barrier(
                        dev,
                        cb,
                        image,
                        depth_aspect,
                        (
                            vk::ImageLayout::DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
                            vk::AccessFlags::DEPTH_STENCIL_ATTACHMENT_WRITE,
                            depth_stages,
                        ),
                        (
                            vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
                            vk::AccessFlags::TRANSFER_READ,
                            transfer,
                        ),
                    );
                    dev.cmd_copy_image_to_buffer(
                        cb,
                        image,
                        vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
                        readback.buffer,
                        &[region(depth_aspect)],
                    );
                }
                host_barrier(dev, cb, transfer, vk::AccessFlags::TRANSFER_WRITE);
            })?;

            let pixels = (width * height) as usize;
            let colors = images
                .iter()
                .map(|&(loc, _, _, readback)| {
                    let words = readback.read_words();
                    let per_pixel = words[..4 * pixels]
                        .chunks_exact(4)
                        .map(|w| [w[0], w[1], w[2], w[3]])
                        .collect();
                    (loc, per_pixel)
                })
                .collect();
            let depth = depth.map(|(_, _, readback)| readback.read_words()[..pixels].to_vec());
            let images = storage_images
                .iter()
                .zip(draw.storage_images)
                .map(|(b, i)| {
                    let mut w = b.staging.read_words();
                    w.truncate(i.words.len());
                    w
                })
                .collect();
            Ok(Pixels {
                colors,
                depth,
                images,
            })
        })
    }
}

/// One draw of [`Device::render`]: the shader modules (entry points `main`), the
/// vertex buffer (one binding of `stride`-byte records; no binding when
/// `attributes` is empty), the target and the one descriptor set of parameters.
pub(crate) struct Draw<'a> {
    pub vertex: &'a [u32],
    pub geometry: Option<&'a [u32]>,
    /// Tessellation control and evaluation programs (entry points `main`)
    /// and the patch size; the topology is then `PATCH_LIST`.
    pub tessellation: Option<(&'a [u32], &'a [u32], u32)>,
    pub fragment: &'a [u32],
    pub topology: vk::PrimitiveTopology,
    pub vertex_data: &'a [u32],
    pub stride: u32,
    pub attributes: Vec<vk::VertexInputAttributeDescription>,
    pub vertex_count: u32,
    pub width: u32,
    pub height: u32,
    /// The colour attachments: index = Location, format from the kind.
    pub outputs: &'a BTreeMap<u32, Kind>,
    /// Clear value (bits) of every colour attachment.
    pub clear: [u32; 4],
    /// `Some(clear)`: a D32_SFLOAT depth buffer (test ALWAYS, writes on), read back.
    pub depth_clear: Option<f32>,
    /// Uniform blocks (binding, words) and textures of `descriptor_set`, visible to
    /// `stages`.
    pub blocks: &'a [(u32, Vec<u32>)],
    pub textures: &'a [Texture],
    pub descriptor_set: u32,
    pub stages: vk::ShaderStageFlags,
    /// Entry points, push constants and specialization constants.
    pub pipeline: &'a PipelineExtras,
    /// Samples per pixel; above one, each colour attachment is resolved
    /// (float: the average; integer: sample 0) into the image read back.
    pub samples: vk::SampleCountFlags,
    /// Storage images of `descriptor_set` (not together with `textures`),
    /// read back into [`Pixels::images`].
    pub storage_images: &'a [StorageImage],
}

/// What a draw's pipeline needs beyond its modules and descriptor set, for
/// modules compiled with a binding layout (docs/interface.md, "Binding
/// layout"): entry point names, push constant ranges with their data, and
/// specialization constants, per stage (vertex, geometry, fragment).
#[derive(Clone, Debug)]
pub struct PipelineExtras {
    /// Entry point of the vertex, geometry and fragment module.
    pub entry_points: [String; 3],
    /// (stages, byte offset, words) of each push constant range; the words
    /// are pushed before the draw.
    pub push_constants: Vec<(vk::ShaderStageFlags, u32, Vec<u32>)>,
    /// (SpecId, value) of each specialization constant of the vertex,
    /// geometry and fragment module.
    pub specialization: [Vec<(u32, u32)>; 3],
}

impl Default for PipelineExtras {
    fn default() -> Self {
        PipelineExtras {
            entry_points: ["main".into(), "main".into(), "main".into()],
            push_constants: Vec::new(),
            specialization: [Vec::new(), Vec::new(), Vec::new()],
        }
    }
}

impl PipelineExtras {
    fn entry_point_names(&self) -> Result<Vec<std::ffi::CString>> {
        self.entry_points
            .iter()
            .map(|n| {
                std::ffi::CString::new(n.as_str())
                    .map_err(|_| HarnessError::Job(format!("entry point {n:?} contains NUL")))
            })
            .collect()
    }
}

/// The bytes of `words` (native endianness, as Vulkan reads them).
fn bytemuck_words(words: &[u32]) -> &[u8] {
    // SAFETY: any u32 is four initialised bytes; the slice covers exactly
    // the words' memory.
    unsafe { std::slice::from_raw_parts(words.as_ptr().cast::<u8>(), std::mem::size_of_val(words)) }
}

/// What [`Device::render`] reads back: per attached Location, one `[u32; 4]` per
/// pixel, row-major from the top left (row y = framebuffer y); the depth bits per
/// pixel when the draw has a depth buffer.
pub(crate) struct Pixels {
    pub colors: BTreeMap<u32, Vec<[u32; 4]>>,
    pub depth: Option<Vec<u32>>,
    pub images: Vec<Vec<u32>>,
}
