//! Scene runs: a sequence of clears, draws and read-backs into one persistent
//! RGBA8 colour target (and optional depth buffer), the way an OpenGL test
//! draws into its window ([`Device::run_scene`]). The piglit shader_test runner
//! (tests/device/piglit/) is built on it.
//!
//! GL conventions, so that a GL test's coordinates mean the same here:
//!
//! * **y points up.** The viewport has a negative height (Vulkan 1.1,
//!   VK_KHR_maintenance1), so clip-space y = -1 is the bottom row, as GL's
//!   window coordinates have it. Read-backs are returned bottom row first:
//!   `pixel(x, y)` is GL's window pixel (x, y). (`FragCoord` stays Vulkan's:
//!   its y still counts from the top.)
//! * **Depth is GL's.** With VK_EXT_depth_clip_control the pipeline uses
//!   `negativeOneToOne`: clip-space z in [-w, w] is kept and mapped to window
//!   depth (z/w + 1)/2, as GL's default `glDepthRange(0, 1)` does.
//! * **The colour target is RGBA8 UNORM**, like a piglit window: colours are
//!   clamped to [0, 1] and rounded to 8 bits when written.
//!
//! Each stage of a draw has its own descriptor set (the vertex program's
//! parameters and the fragment program's are different GL state), so both
//! sets are bound; the sets between them are empty.

use std::collections::BTreeMap;

use ash::vk;

use super::device::{image_barrier, Device, HostBuffer, Object, Scope};
use super::texture::Texture;
use super::{HarnessError, Input, Result, VertexBuffer, VkContext};

/// The colour target's format: a GL window's 8 bits per channel.
pub const SCENE_COLOR_FORMAT: vk::Format = vk::Format::R8G8B8A8_UNORM;
const SCENE_DEPTH_FORMAT: vk::Format = vk::Format::D32_SFLOAT;

/// The target of a scene: `width`×`height` RGBA8, with a D32 depth buffer when
/// `depth` is set. Both start cleared to zero colour and depth 1.0.
#[derive(Clone, Copy, Debug)]
pub struct SceneTarget {
    pub width: u32,
    pub height: u32,
    pub depth: bool,
}

/// What one stage of a draw binds in its descriptor set `set`: uniform blocks
/// (binding, words) and textures (binding 32 + unit).
#[derive(Clone, Debug, Default)]
pub struct StageResources {
    pub set: u32,
    pub blocks: Vec<(u32, Vec<u32>)>,
    pub textures: Vec<Texture>,
}

/// One draw: a vertex and a fragment module (entry points `main`), the
/// vertices (per-vertex attributes by Location), the topology, each stage's
/// resources, and whether GL's depth test (`LESS`, writes on) is enabled.
#[derive(Clone, Debug)]
pub struct SceneDraw {
    pub vertex: Vec<u32>,
    pub fragment: Vec<u32>,
    pub topology: vk::PrimitiveTopology,
    pub vertices: Vec<Vec<Input>>,
    pub vertex_resources: StageResources,
    pub fragment_resources: StageResources,
    pub depth_test: bool,
}

/// One step of a scene.
#[derive(Clone, Debug)]
pub enum SceneOp {
    /// `glClear`: the colour buffer to `color`, the depth buffer to `depth`
    /// (each only when given).
    Clear {
        color: Option<[f32; 4]>,
        depth: Option<f32>,
    },
    Draw(Box<SceneDraw>),
    /// Read the whole target back: one [`SceneFrame`] per `Read`.
    Read,
}

/// The target's contents at a `Read`, bottom row first (GL's window
/// coordinates).
#[derive(Clone, Debug, PartialEq)]
pub struct SceneFrame {
    pub width: u32,
    pub height: u32,
    /// RGBA8 per pixel, index `y * width + x`, y = 0 the bottom row.
    pub rgba8: Vec<[u8; 4]>,
    /// Depth per pixel in the same order, when the target has depth.
    pub depth: Option<Vec<f32>>,
}

impl SceneFrame {
    /// GL window pixel (x, y) as bytes.
    pub fn rgba8_at(&self, x: u32, y: u32) -> [u8; 4] {
        self.rgba8[(y * self.width + x) as usize]
    }
    /// GL window pixel (x, y) as floats in [0, 1] (byte / 255).
    pub fn rgba_at(&self, x: u32, y: u32) -> [f32; 4] {
        self.rgba8_at(x, y).map(|b| f32::from(b) / 255.0)
    }
    /// The depth of GL window pixel (x, y).
    pub fn depth_at(&self, x: u32, y: u32) -> Option<f32> {
        self.depth
            .as_ref()
            .map(|d| d[(y * self.width + x) as usize])
    }
}

impl Device {
    /// Runs `ops` in order on one persistent target and returns the frames read.
    pub fn run_scene(&self, target: &SceneTarget, ops: &[SceneOp]) -> Result<Vec<SceneFrame>> {
        let (width, height) = (target.width, target.height);
        if !(1..=4096).contains(&width) || !(1..=4096).contains(&height) {
            return Err(HarnessError::Job(format!(
                "a {width}x{height} target; width and height are 1..=4096"
            )));
        }
        let clip_control = self.depth_clip_control;
        self.run(|d| {
            let mut s = Scope::new(d);
            let color_usage = vk::ImageUsageFlags::COLOR_ATTACHMENT
                | vk::ImageUsageFlags::TRANSFER_SRC
                | vk::ImageUsageFlags::TRANSFER_DST;
            let (color, color_view) = s.image(
                SCENE_COLOR_FORMAT,
                color_usage,
                vk::ImageAspectFlags::COLOR,
                width,
                height,
            )?;
            let depth = if target.depth {
                Some(s.image(
                    SCENE_DEPTH_FORMAT,
                    vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT
                        | vk::ImageUsageFlags::TRANSFER_SRC,
                    vk::ImageAspectFlags::DEPTH,
                    width,
                    height,
                )?)
            } else {
                None
            };
            let pixels = u64::from(width) * u64::from(height);
            let color_readback = s.buffer(pixels * 4, vk::BufferUsageFlags::TRANSFER_DST, &[])?;
            let depth_readback = s.buffer(pixels * 4, vk::BufferUsageFlags::TRANSFER_DST, &[])?;

            // Initial contents, and the layouts every later step keeps:
            // COLOR_ATTACHMENT_OPTIMAL / DEPTH_STENCIL_ATTACHMENT_OPTIMAL.
            let attachments = Attachments {
                color_view,
                depth_view: depth.map(|(_, v)| v),
                width,
                height,
            };
            s.submit(|dev, cb| unsafe {
                initial_layouts(dev, cb, color, depth.map(|(i, _)| i));
                attachments.clear(dev, cb, Some([0.0; 4]), Some(1.0));
            })?;

            let mut frames = Vec::new();
            let mut pipelines = PipelineCache::default();
            for op in ops {
                match op {
                    SceneOp::Clear { color, depth: z } => {
                        let z = if depth.is_some() { *z } else { None };
                        let c = *color;
                        s.submit(|dev, cb| unsafe { attachments.clear(dev, cb, c, z) })?;
                    }
                    SceneOp::Draw(draw) => {
                        draw_one(&mut s, &attachments, draw, clip_control, &mut pipelines)?;
                    }
                    SceneOp::Read => {
                        let cbuf = color_readback.buffer;
                        let dbuf = depth_readback.buffer;
                        let depth_image = depth.map(|(i, _)| i);
                        s.submit(|dev, cb| unsafe {
                            read_back(dev, cb, color, cbuf, depth_image, dbuf, width, height)
                        })?;
                        frames.push(frame(
                            width,
                            height,
                            &color_readback,
                            depth.is_some().then_some(&depth_readback),
                        ));
                    }
                }
            }
            Ok(frames)
        })
    }
}

/// The target's views, for `vkCmdBeginRendering`.
struct Attachments {
    color_view: vk::ImageView,
    depth_view: Option<vk::ImageView>,
    width: u32,
    height: u32,
}

impl Attachments {
    fn area(&self) -> vk::Rect2D {
        vk::Rect2D {
            offset: vk::Offset2D { x: 0, y: 0 },
            extent: vk::Extent2D {
                width: self.width,
                height: self.height,
            },
        }
    }

    /// Begins rendering that keeps what the target holds (LOAD/STORE).
    unsafe fn begin(&self, dev: &ash::Device, cb: vk::CommandBuffer) {
        let color = [vk::RenderingAttachmentInfo::default()
            .image_view(self.color_view)
            .image_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)
            .load_op(vk::AttachmentLoadOp::LOAD)
            .store_op(vk::AttachmentStoreOp::STORE)];
        let depth = self.depth_view.map(|v| {
            vk::RenderingAttachmentInfo::default()
                .image_view(v)
                .image_layout(vk::ImageLayout::DEPTH_STENCIL_ATTACHMENT_OPTIMAL)
                .load_op(vk::AttachmentLoadOp::LOAD)
                .store_op(vk::AttachmentStoreOp::STORE)
        });
        let mut info = vk::RenderingInfo::default()
            .render_area(self.area())
            .layer_count(1)
            .color_attachments(&color);
        if let Some(d) = depth.as_ref() {
            info = info.depth_attachment(d);
        }
        dev.cmd_begin_rendering(cb, &info);
    }

    /// `glClear` of the whole target, inside a rendering pass.
    unsafe fn clear(
        &self,
        dev: &ash::Device,
        cb: vk::CommandBuffer,
        color: Option<[f32; 4]>,
        depth: Option<f32>,
    ) {
        self.begin(dev, cb);
        let mut clears = Vec::new();
        if let Some(c) = color {
            clears.push(vk::ClearAttachment {
                aspect_mask: vk::ImageAspectFlags::COLOR,
                color_attachment: 0,
                clear_value: vk::ClearValue {
                    color: vk::ClearColorValue { float32: c },
                },
            });
        }
        if let (Some(z), Some(_)) = (depth, self.depth_view) {
            clears.push(vk::ClearAttachment {
                aspect_mask: vk::ImageAspectFlags::DEPTH,
                color_attachment: 0,
                clear_value: vk::ClearValue {
                    depth_stencil: vk::ClearDepthStencilValue {
                        depth: z,
                        stencil: 0,
                    },
                },
            });
        }
        if !clears.is_empty() {
            let rect = [vk::ClearRect {
                rect: self.area(),
                base_array_layer: 0,
                layer_count: 1,
            }];
            dev.cmd_clear_attachments(cb, &clears, &rect);
        }
        dev.cmd_end_rendering(cb);
        attachment_barrier(dev, cb);
    }
}

/// Orders one step's attachment writes before the next step's.
unsafe fn attachment_barrier(dev: &ash::Device, cb: vk::CommandBuffer) {
    let barrier = vk::MemoryBarrier::default()
        .src_access_mask(
            vk::AccessFlags::COLOR_ATTACHMENT_WRITE
                | vk::AccessFlags::DEPTH_STENCIL_ATTACHMENT_WRITE,
        )
        .dst_access_mask(
            vk::AccessFlags::COLOR_ATTACHMENT_READ
                | vk::AccessFlags::COLOR_ATTACHMENT_WRITE
                | vk::AccessFlags::DEPTH_STENCIL_ATTACHMENT_READ
                | vk::AccessFlags::DEPTH_STENCIL_ATTACHMENT_WRITE,
        );
    let stages = vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT
        | vk::PipelineStageFlags::EARLY_FRAGMENT_TESTS
        | vk::PipelineStageFlags::LATE_FRAGMENT_TESTS;
    dev.cmd_pipeline_barrier(
        cb,
        stages,
        stages,
        vk::DependencyFlags::empty(),
        &[barrier],
        &[],
        &[],
    );
}

unsafe fn initial_layouts(
    dev: &ash::Device,
    cb: vk::CommandBuffer,
    color: vk::Image,
    depth: Option<vk::Image>,
) {
    let top = vk::PipelineStageFlags::TOP_OF_PIPE;
    image_barrier(
        dev,
        cb,
        color,
        vk::ImageAspectFlags::COLOR,
        (vk::ImageLayout::UNDEFINED, vk::AccessFlags::empty(), top),
        (
            vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL,
            vk::AccessFlags::COLOR_ATTACHMENT_WRITE,
            vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT,
        ),
    );
    if let Some(depth) = depth {
        image_barrier(
            dev,
            cb,
            depth,
            vk::ImageAspectFlags::DEPTH,
            (vk::ImageLayout::UNDEFINED, vk::AccessFlags::empty(), top),
            (
                vk::ImageLayout::DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
                vk::AccessFlags::DEPTH_STENCIL_ATTACHMENT_WRITE,
                vk::PipelineStageFlags::EARLY_FRAGMENT_TESTS
                    | vk::PipelineStageFlags::LATE_FRAGMENT_TESTS,
            ),
        );
    }
}

/// Copies the target into the read-back buffers and returns the images to
/// their attachment layouts.
#[allow(clippy::too_many_arguments)]
unsafe fn read_back(
    dev: &ash::Device,
    cb: vk::CommandBuffer,
    color: vk::Image,
    color_buffer: vk::Buffer,
    depth: Option<vk::Image>,
    depth_buffer: vk::Buffer,
    width: u32,
    height: u32,
) {
    let transfer = vk::PipelineStageFlags::TRANSFER;
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
    let mut images = vec![(
        color,
        vk::ImageAspectFlags::COLOR,
        color_buffer,
        vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL,
        vk::AccessFlags::COLOR_ATTACHMENT_WRITE,
        vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT,
    )];
    if let Some(depth) = depth {
        images.push((
            depth,
            vk::ImageAspectFlags::DEPTH,
            depth_buffer,
            vk::ImageLayout::DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
            vk::AccessFlags::DEPTH_STENCIL_ATTACHMENT_WRITE,
            vk::PipelineStageFlags::EARLY_FRAGMENT_TESTS
                | vk::PipelineStageFlags::LATE_FRAGMENT_TESTS,
        ));
    }
    for &(image, aspect, buffer, layout, access, stage) in &images {
        image_barrier(
            dev,
            cb,
            image,
            aspect,
            (layout, access, stage),
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
            buffer,
            &[region(aspect)],
        );
        image_barrier(
            dev,
            cb,
            image,
            aspect,
            (
                vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
                vk::AccessFlags::TRANSFER_READ,
                transfer,
            ),
            (layout, access, stage),
        );
    }
    super::device::host_barrier(dev, cb, transfer, vk::AccessFlags::TRANSFER_WRITE);
}

/// The read-back buffers as a frame, rows flipped to bottom first.
fn frame(width: u32, height: u32, color: &HostBuffer, depth: Option<&HostBuffer>) -> SceneFrame {
    let n = (width * height) as usize;
    let words = color.read_words();
    let flip = |i: usize| {
        let (x, y) = (i % width as usize, i / width as usize);
        (height as usize - 1 - y) * width as usize + x
    };
    let rgba8 = (0..n).map(|i| words[flip(i)].to_le_bytes()).collect();
    let depth = depth.map(|d| {
        let w = d.read_words();
        (0..n).map(|i| f32::from_bits(w[flip(i)])).collect()
    });
    SceneFrame {
        width,
        height,
        rgba8,
        depth,
    }
}

/// Pipelines of a scene by what they are made of: draws of the same program
/// pair with the same descriptor-set shapes and depth test reuse one (a GL
/// test draws many times with one program), each with its own sets, which
/// are identically defined and so compatible with its layout.
#[derive(Default)]
struct PipelineCache {
    pipelines: std::collections::HashMap<u64, (vk::PipelineLayout, vk::Pipeline)>,
}

fn pipeline_key(
    draw: &SceneDraw,
    stride: u32,
    attributes: &[vk::VertexInputAttributeDescription],
) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    draw.vertex.hash(&mut h);
    draw.fragment.hash(&mut h);
    draw.depth_test.hash(&mut h);
    format!("{:?}", draw.topology).hash(&mut h);
    stride.hash(&mut h);
    for a in attributes {
        (a.location, a.offset, a.format.as_raw()).hash(&mut h);
    }
    for r in [&draw.vertex_resources, &draw.fragment_resources] {
        r.set.hash(&mut h);
        for (binding, words) in &r.blocks {
            (binding, words.len()).hash(&mut h);
        }
        for t in &r.textures {
            (t.unit, format!("{:?}", t.kind)).hash(&mut h);
        }
    }
    h.finish()
}

/// Records and submits one draw: the two stages' descriptor sets, the
/// pipeline (GL's y-up viewport and depth range) and the vertex buffer.
fn draw_one(
    s: &mut Scope<'_>,
    attachments: &Attachments,
    draw: &SceneDraw,
    clip_control: bool,
    cache: &mut PipelineCache,
) -> Result<()> {
    let (vr, fr) = (&draw.vertex_resources, &draw.fragment_resources);
    if vr.set == fr.set || vr.set > 7 || fr.set > 7 {
        return Err(HarnessError::Job(format!(
            "vertex set {} and fragment set {}: two different sets in 0..=7",
            vr.set, fr.set
        )));
    }
    if draw.vertices.is_empty() {
        return Err(HarnessError::Job("a draw without vertices".into()));
    }
    let mut sets = BTreeMap::new();
    for (stage, res) in [
        (vk::ShaderStageFlags::VERTEX, vr),
        (vk::ShaderStageFlags::FRAGMENT, fr),
    ] {
        let uploaded = s.uniform_buffers(&res.blocks)?;
        let uniforms: Vec<(u32, &HostBuffer)> = uploaded.iter().map(|(b, buf)| (*b, buf)).collect();
        let (layout, set) = s.resource_descriptor_set(stage, &uniforms, &res.textures)?;
        sets.insert(res.set, (layout, set));
    }
    let vertex_buffer = VertexBuffer::new(&draw.vertices, 0, draw.vertices.len())?;
    let vbuf = s.buffer(0, vk::BufferUsageFlags::VERTEX_BUFFER, &vertex_buffer.data)?;
    let key = pipeline_key(draw, vertex_buffer.stride, &vertex_buffer.descriptions());
    let (layout, pipeline) = if let Some(&cached) = cache.pipelines.get(&key) {
        cached
    } else {
        let empty = unsafe {
            s.dev()
                .create_descriptor_set_layout(&vk::DescriptorSetLayoutCreateInfo::default(), None)
        }
        .vk("vkCreateDescriptorSetLayout")?;
        s.own(Object::SetLayout(empty));
        let last = *sets.keys().next_back().unwrap_or(&0);
        let set_layouts: Vec<_> = (0..=last)
            .map(|i| sets.get(&i).map_or(empty, |&(l, _)| l))
            .collect();
        let layout = unsafe {
            s.dev().create_pipeline_layout(
                &vk::PipelineLayoutCreateInfo::default().set_layouts(&set_layouts),
                None,
            )
        }
        .vk("vkCreatePipelineLayout")?;
        s.own(Object::PipelineLayout(layout));
        let vs = s.shader(&draw.vertex)?;
        let fs = s.shader(&draw.fragment)?;
        let stages = [
            vk::PipelineShaderStageCreateInfo::default()
                .stage(vk::ShaderStageFlags::VERTEX)
                .module(vs)
                .name(c"main"),
            vk::PipelineShaderStageCreateInfo::default()
                .stage(vk::ShaderStageFlags::FRAGMENT)
                .module(fs)
                .name(c"main"),
        ];
        let bindings = [vk::VertexInputBindingDescription {
            binding: 0,
            stride: vertex_buffer.stride,
            input_rate: vk::VertexInputRate::VERTEX,
        }];
        let attributes = vertex_buffer.descriptions();
        let mut vertex_input = vk::PipelineVertexInputStateCreateInfo::default();
        if !attributes.is_empty() {
            vertex_input = vertex_input
                .vertex_binding_descriptions(&bindings)
                .vertex_attribute_descriptions(&attributes);
        }
        let input_assembly =
            vk::PipelineInputAssemblyStateCreateInfo::default().topology(draw.topology);
        let (w, h) = (attachments.width as f32, attachments.height as f32);
        // Negative height: clip-space y = -1 at the bottom row, as in GL.
        let viewports = [vk::Viewport {
            x: 0.0,
            y: h,
            width: w,
            height: -h,
            min_depth: 0.0,
            max_depth: 1.0,
        }];
        let scissors = [attachments.area()];
        let mut clip =
            vk::PipelineViewportDepthClipControlCreateInfoEXT::default().negative_one_to_one(true);
        let mut viewport = vk::PipelineViewportStateCreateInfo::default()
            .viewports(&viewports)
            .scissors(&scissors);
        if clip_control {
            viewport = viewport.push_next(&mut clip);
        }
        let raster = vk::PipelineRasterizationStateCreateInfo::default()
            .polygon_mode(vk::PolygonMode::FILL)
            .cull_mode(vk::CullModeFlags::NONE)
            .front_face(vk::FrontFace::COUNTER_CLOCKWISE)
            .line_width(1.0);
        let multisample = vk::PipelineMultisampleStateCreateInfo::default()
            .rasterization_samples(vk::SampleCountFlags::TYPE_1);
        let with_depth = attachments.depth_view.is_some();
        let depth_state = vk::PipelineDepthStencilStateCreateInfo::default()
            .depth_test_enable(with_depth && draw.depth_test)
            .depth_write_enable(with_depth && draw.depth_test)
            .depth_compare_op(vk::CompareOp::LESS);
        let blend_attachments = [vk::PipelineColorBlendAttachmentState::default()
            .blend_enable(false)
            .color_write_mask(vk::ColorComponentFlags::RGBA)];
        let blend =
            vk::PipelineColorBlendStateCreateInfo::default().attachments(&blend_attachments);
        let formats = [SCENE_COLOR_FORMAT];
        let mut rendering =
            vk::PipelineRenderingCreateInfo::default().color_attachment_formats(&formats);
        if with_depth {
            rendering = rendering.depth_attachment_format(SCENE_DEPTH_FORMAT);
        }
        let info = vk::GraphicsPipelineCreateInfo::default()
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
        let pipeline = s.graphics_pipeline(&info)?;
        cache.pipelines.insert(key, (layout, pipeline));
        (layout, pipeline)
    };
    let count = draw.vertices.len() as u32;
    let bound: Vec<(u32, vk::DescriptorSet)> =
        sets.iter().map(|(&i, &(_, set))| (i, set)).collect();
    let has_attributes = !vertex_buffer.attributes.is_empty();
    s.submit(|dev, cb| unsafe {
        attachments.begin(dev, cb);
        dev.cmd_bind_pipeline(cb, vk::PipelineBindPoint::GRAPHICS, pipeline);
        for &(index, set) in &bound {
            dev.cmd_bind_descriptor_sets(
                cb,
                vk::PipelineBindPoint::GRAPHICS,
                layout,
                index,
                &[set],
                &[],
            );
        }
        if has_attributes {
            dev.cmd_bind_vertex_buffers(cb, 0, &[vbuf.buffer], &[0]);
        }
        dev.cmd_draw(cb, count, 1, 0, 0);
        dev.cmd_end_rendering(cb);
        attachment_barrier(dev, cb);
    })
}
