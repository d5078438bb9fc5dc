//! The Vulkan plumbing of the examples that draw, written once:
//! examples/render.rs (the embedding example) and examples/render_bench.rs
//! (the render-time benchmark) each include it with
//!
//! ```text
//! #[path = "common/gpu.rs"]
//! mod gpu;
//! ```
//!
//! (a file below examples/ other than a top-level `*.rs` is not built as an
//! example of its own). What is here does not depend on nvp4c: picking the
//! device and its queue ([`Gpu::new`], which reports a missing device as
//! [`Failure::NoDevice`], exit code 3), memory, host-visible buffers,
//! sampled textures and their upload, an offscreen RGBA target with its
//! render pass, framebuffer and read-back, descriptor sets, a graphics
//! pipeline of one vertex and one fragment module, and one-shot command
//! submission. What each example binds and draws stays in the example.
//!
//! Every object is owned by the [`Gpu`] that created it and destroyed by its
//! `Drop`, newest first, on every path. The `unsafe fn`s are plain Vulkan
//! calls: the caller keeps to Vulkan's rules for the handles it passes
//! (usages, layouts, waiting for the GPU before reading what it wrote).

use std::cell::RefCell;
use std::error::Error;
use std::ffi::CStr;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use ash::vk;

/// Why an example stopped.
pub enum Failure {
    /// No Vulkan loader, instance or device with a graphics queue: exit
    /// code 3, which tests/device/reflect_render_example.rs and
    /// scripts/bench-render.sh take as "cannot run here".
    NoDevice(String),
    /// Anything else: exit code 1.
    Other(Box<dyn Error>),
}

impl<E: Error + 'static> From<E> for Failure {
    fn from(e: E) -> Failure {
        Failure::Other(Box::new(e))
    }
}

/// A [`Failure::Other`] with `message`.
pub fn fail(message: impl Into<String>) -> Failure {
    Failure::Other(message.into().into())
}

impl Failure {
    /// Prints the failure on stderr as `program: …` and returns its exit
    /// code: 3 for [`Failure::NoDevice`], 1 otherwise.
    pub fn report(self, program: &str) -> ExitCode {
        match self {
            Failure::NoDevice(why) => {
                eprintln!("{program}: no Vulkan device: {why}");
                ExitCode::from(3)
            }
            Failure::Other(e) => {
                eprintln!("{program}: {e}");
                ExitCode::FAILURE
            }
        }
    }
}

/// The one level and layer of a colour image.
const COLOR_RANGE: vk::ImageSubresourceRange = vk::ImageSubresourceRange {
    aspect_mask: vk::ImageAspectFlags::COLOR,
    base_mip_level: 0,
    level_count: 1,
    base_array_layer: 0,
    layer_count: 1,
};
const COLOR_LAYERS: vk::ImageSubresourceLayers = vk::ImageSubresourceLayers {
    aspect_mask: vk::ImageAspectFlags::COLOR,
    mip_level: 0,
    base_array_layer: 0,
    layer_count: 1,
};

/// `rows` as little-endian 32-bit floats, row after row: a std140 `vec4`
/// array for a uniform buffer, or interleaved vertex attributes.
pub fn float_bytes<const N: usize>(rows: &[[f32; N]]) -> Vec<u8> {
    rows.iter()
        .flatten()
        .flat_map(|f| f.to_le_bytes())
        .collect()
}

/// Writes `rgba` (8 bits a channel, row by row) as a PNG file.
pub fn write_png(path: &str, width: u32, height: u32, rgba: &[u8]) -> Result<(), Failure> {
    let file = std::io::BufWriter::new(std::fs::File::create(path)?);
    let mut encoder = png::Encoder::new(file, width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(rgba)?;
    writer.finish()?;
    Ok(())
}

/// The instance, the device and its graphics queue, a command pool and a
/// fence for [`Gpu::submit_and_wait`], and how to destroy every object
/// created through it.
pub struct Gpu {
    _entry: ash::Entry,
    instance: ash::Instance,
    /// The device, for the calls an example makes itself (recording its
    /// draw, for one).
    pub device: ash::Device,
    queue: vk::Queue,
    memory: vk::PhysicalDeviceMemoryProperties,
    command_pool: vk::CommandPool,
    fence: vk::Fence,
    /// How to destroy the objects created so far, oldest first (run in
    /// reverse).
    destroy: RefCell<Vec<Destroy>>,
}

/// Destroys one object created on the device.
type Destroy = Box<dyn FnOnce(&ash::Device)>;
/// How `ash` destroys (or frees) an object of type `T`, e.g.
/// `ash::Device::destroy_buffer`.
type DestroyFn<T> = unsafe fn(&ash::Device, T, Option<&vk::AllocationCallbacks<'_>>);

impl Drop for Gpu {
    fn drop(&mut self) {
        // SAFETY: the device is idle (waited for here) and each object is
        // destroyed once, newest first, then the device and the instance.
        unsafe {
            let _ = self.device.device_wait_idle();
            for destroy in self.destroy.get_mut().drain(..).rev() {
                destroy(&self.device);
            }
            self.device.destroy_device(None);
            self.instance.destroy_instance(None);
        }
    }
}

/// A sampled 2D texture and the staging buffer holding its texels until
/// [`Gpu::record_upload`] copies them in.
pub struct Texture {
    image: vk::Image,
    extent: vk::Extent3D,
    /// The view to bind, e.g. with [`Gpu::write_texture`].
    pub view: vk::ImageView,
    staging: vk::Buffer,
}

/// An offscreen colour image to draw into, with a render pass of one
/// subpass that clears it and leaves it ready to copy, its framebuffer, and
/// a host-visible buffer to read it back ([`Gpu::record_readback`],
/// [`Gpu::read_back`]).
pub struct ColorTarget {
    extent: vk::Extent2D,
    image: vk::Image,
    render_pass: vk::RenderPass,
    framebuffer: vk::Framebuffer,
    readback: vk::Buffer,
    readback_memory: vk::DeviceMemory,
    /// Bytes a read-back holds: 4 a pixel.
    readback_size: usize,
}

impl Gpu {
    /// Opens the first device with a graphics queue, a Vulkan 1.0 instance
    /// named `application`, and prints `program: using DEVICE` on stderr
    /// (scripts/bench-render.sh reads that line).
    pub unsafe fn new(application: &CStr, program: &str) -> Result<Gpu, Failure> {
        let entry = ash::Entry::load().map_err(|e| Failure::NoDevice(e.to_string()))?;
        let app = vk::ApplicationInfo::default()
            .application_name(application)
            .api_version(vk::API_VERSION_1_0);
        let instance = entry
            .create_instance(
                &vk::InstanceCreateInfo::default().application_info(&app),
                None,
            )
            .map_err(|e| Failure::NoDevice(format!("vkCreateInstance: {e}")))?;
        let found = instance
            .enumerate_physical_devices()
            .unwrap_or_default()
            .into_iter()
            .find_map(|pd| {
                instance
                    .get_physical_device_queue_family_properties(pd)
                    .iter()
                    .position(|q| q.queue_flags.contains(vk::QueueFlags::GRAPHICS))
                    .map(|family| (pd, family as u32))
            });
        let Some((physical, queue_family)) = found else {
            instance.destroy_instance(None);
            return Err(Failure::NoDevice("no device with a graphics queue".into()));
        };
        let properties = instance.get_physical_device_properties(physical);
        let name = CStr::from_ptr(properties.device_name.as_ptr()).to_string_lossy();
        eprintln!("{program}: using {name}");
        let priorities = [1.0];
        let queues = [vk::DeviceQueueCreateInfo::default()
            .queue_family_index(queue_family)
            .queue_priorities(&priorities)];
        let device = match instance.create_device(
            physical,
            &vk::DeviceCreateInfo::default().queue_create_infos(&queues),
            None,
        ) {
            Ok(d) => d,
            Err(e) => {
                instance.destroy_instance(None);
                return Err(fail(format!("vkCreateDevice: {e}")));
            }
        };
        // From here on, `Drop` cleans up after a failure.
        let mut gpu = Gpu {
            queue: device.get_device_queue(queue_family, 0),
            memory: instance.get_physical_device_memory_properties(physical),
            _entry: entry,
            instance,
            device,
            command_pool: vk::CommandPool::null(),
            fence: vk::Fence::null(),
            destroy: Default::default(),
        };
        let pool = gpu.device.create_command_pool(
            &vk::CommandPoolCreateInfo::default().queue_family_index(queue_family),
            None,
        )?;
        gpu.keep(pool, ash::Device::destroy_command_pool);
        gpu.command_pool = pool;
        let fence = gpu
            .device
            .create_fence(&vk::FenceCreateInfo::default(), None)?;
        gpu.keep(fence, ash::Device::destroy_fence);
        gpu.fence = fence;
        Ok(gpu)
    }

    /// Registers `handle`, just created, to be destroyed with `destroy`
    /// (the `ash::Device` method for its type) when the `Gpu` is dropped;
    /// returns it.
    fn keep<T: Copy + 'static>(&self, handle: T, destroy: DestroyFn<T>) -> T {
        // SAFETY: run by `Drop`, once, on the device that created `handle`.
        let destroy = move |d: &ash::Device| unsafe { destroy(d, handle, None) };
        self.destroy.borrow_mut().push(Box::new(destroy));
        handle
    }

    /// Memory for `requirements` of the first memory type with `flags`.
    unsafe fn allocate(
        &self,
        requirements: vk::MemoryRequirements,
        flags: vk::MemoryPropertyFlags,
    ) -> Result<vk::DeviceMemory, Failure> {
        let types = &self.memory.memory_types[..self.memory.memory_type_count as usize];
        let index = (0..types.len())
            .find(|&i| {
                requirements.memory_type_bits & (1 << i) != 0
                    && types[i].property_flags.contains(flags)
            })
            .ok_or_else(|| fail(format!("no memory type with {flags:?}")))?;
        let memory = self.device.allocate_memory(
            &vk::MemoryAllocateInfo::default()
                .allocation_size(requirements.size)
                .memory_type_index(index as u32),
            None,
        )?;
        self.keep(memory, ash::Device::free_memory);
        Ok(memory)
    }

    /// A host-visible, host-coherent buffer of `size` bytes (at least 16:
    /// Vulkan has no empty buffers) holding `contents` at its start.
    unsafe fn host_buffer(
        &self,
        usage: vk::BufferUsageFlags,
        size: usize,
        contents: &[u8],
    ) -> Result<(vk::Buffer, vk::DeviceMemory), Failure> {
        let d = &self.device;
        let buffer = d.create_buffer(
            &vk::BufferCreateInfo::default()
                .size(size.max(contents.len()).max(16) as u64)
                .usage(usage),
            None,
        )?;
        self.keep(buffer, ash::Device::destroy_buffer);
        let memory = self.allocate(
            d.get_buffer_memory_requirements(buffer),
            vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT,
        )?;
        d.bind_buffer_memory(buffer, memory, 0)?;
        if !contents.is_empty() {
            let ptr = d.map_memory(memory, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty())?;
            std::ptr::copy_nonoverlapping(contents.as_ptr(), ptr.cast::<u8>(), contents.len());
            d.unmap_memory(memory);
        }
        Ok((buffer, memory))
    }

    /// A host-visible buffer for `usage` holding `contents` (a uniform
    /// buffer, a vertex buffer).
    pub unsafe fn buffer(
        &self,
        usage: vk::BufferUsageFlags,
        contents: &[u8],
    ) -> Result<vk::Buffer, Failure> {
        Ok(self.host_buffer(usage, contents.len(), contents)?.0)
    }

    /// A device-local 2D image of one level and layer, and its view.
    unsafe fn image(
        &self,
        format: vk::Format,
        extent: vk::Extent2D,
        usage: vk::ImageUsageFlags,
    ) -> Result<(vk::Image, vk::ImageView), Failure> {
        let d = &self.device;
        let image = d.create_image(
            &vk::ImageCreateInfo::default()
                .image_type(vk::ImageType::TYPE_2D)
                .format(format)
                .extent(extent.into())
                .mip_levels(1)
                .array_layers(1)
                .samples(vk::SampleCountFlags::TYPE_1)
                .tiling(vk::ImageTiling::OPTIMAL)
                .usage(usage),
            None,
        )?;
        self.keep(image, ash::Device::destroy_image);
        let memory = self.allocate(
            d.get_image_memory_requirements(image),
            vk::MemoryPropertyFlags::DEVICE_LOCAL,
        )?;
        d.bind_image_memory(image, memory, 0)?;
        let view = d.create_image_view(
            &vk::ImageViewCreateInfo::default()
                .image(image)
                .view_type(vk::ImageViewType::TYPE_2D)
                .format(format)
                .subresource_range(COLOR_RANGE),
            None,
        )?;
        self.keep(view, ash::Device::destroy_image_view);
        Ok((image, view))
    }

    /// A `width`×`height` 2D texture of a 4-byte-a-texel `format` (RGBA8),
    /// and a staging buffer holding `texels` (row by row) for
    /// [`Gpu::record_upload`].
    pub unsafe fn texture(
        &self,
        format: vk::Format,
        width: u32,
        height: u32,
        texels: &[u8],
    ) -> Result<Texture, Failure> {
        if texels.len() != (4 * width * height) as usize {
            return Err(fail(format!(
                "{} bytes of texture data, not {width}×{height} texels of 4 bytes",
                texels.len()
            )));
        }
        let extent = vk::Extent2D { width, height };
        let (image, view) = self.image(
            format,
            extent,
            vk::ImageUsageFlags::SAMPLED | vk::ImageUsageFlags::TRANSFER_DST,
        )?;
        let (staging, _) = self.host_buffer(vk::BufferUsageFlags::TRANSFER_SRC, 0, texels)?;
        Ok(Texture {
            image,
            extent: extent.into(),
            view,
            staging,
        })
    }

    /// Records the copy of `texture`'s staging buffer into its image, and
    /// the layout transitions that leave the image ready for shader reads
    /// (`SHADER_READ_ONLY_OPTIMAL`) in the vertex and fragment stages.
    pub unsafe fn record_upload(&self, command: vk::CommandBuffer, texture: &Texture) {
        let d = &self.device;
        let barrier = |old, new, src, dst| {
            vk::ImageMemoryBarrier::default()
                .src_access_mask(src)
                .dst_access_mask(dst)
                .old_layout(old)
                .new_layout(new)
                .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .image(texture.image)
                .subresource_range(COLOR_RANGE)
        };
        d.cmd_pipeline_barrier(
            command,
            vk::PipelineStageFlags::TOP_OF_PIPE,
            vk::PipelineStageFlags::TRANSFER,
            vk::DependencyFlags::empty(),
            &[],
            &[],
            &[barrier(
                vk::ImageLayout::UNDEFINED,
                vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                vk::AccessFlags::empty(),
                vk::AccessFlags::TRANSFER_WRITE,
            )],
        );
        d.cmd_copy_buffer_to_image(
            command,
            texture.staging,
            texture.image,
            vk::ImageLayout::TRANSFER_DST_OPTIMAL,
            &[vk::BufferImageCopy::default()
                .image_subresource(COLOR_LAYERS)
                .image_extent(texture.extent)],
        );
        d.cmd_pipeline_barrier(
            command,
            vk::PipelineStageFlags::TRANSFER,
            vk::PipelineStageFlags::VERTEX_SHADER | vk::PipelineStageFlags::FRAGMENT_SHADER,
            vk::DependencyFlags::empty(),
            &[],
            &[],
            &[barrier(
                vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL,
                vk::AccessFlags::TRANSFER_WRITE,
                vk::AccessFlags::SHADER_READ,
            )],
        );
    }

    /// A sampler with GL's texture state `filter` (minification and
    /// magnification) and `wrap` (all coordinates), one mipmap level.
    pub unsafe fn sampler(
        &self,
        filter: vk::Filter,
        wrap: vk::SamplerAddressMode,
    ) -> Result<vk::Sampler, Failure> {
        let sampler = self.device.create_sampler(
            &vk::SamplerCreateInfo::default()
                .mag_filter(filter)
                .min_filter(filter)
                .mipmap_mode(vk::SamplerMipmapMode::NEAREST)
                .address_mode_u(wrap)
                .address_mode_v(wrap)
                .address_mode_w(wrap)
                .max_lod(0.0),
            None,
        )?;
        Ok(self.keep(sampler, ash::Device::destroy_sampler))
    }

    /// A `width`×`height` colour target of `format` (4 bytes a pixel): the
    /// image, a render pass that clears it, stores it and leaves it in
    /// `TRANSFER_SRC_OPTIMAL` with its writes visible to a copy, the
    /// framebuffer, and the buffer [`Gpu::record_readback`] copies it to.
    pub unsafe fn color_target(
        &self,
        format: vk::Format,
        width: u32,
        height: u32,
    ) -> Result<ColorTarget, Failure> {
        let d = &self.device;
        let extent = vk::Extent2D { width, height };
        let (image, view) = self.image(
            format,
            extent,
            vk::ImageUsageFlags::COLOR_ATTACHMENT | vk::ImageUsageFlags::TRANSFER_SRC,
        )?;
        let attachments = [vk::AttachmentDescription::default()
            .format(format)
            .samples(vk::SampleCountFlags::TYPE_1)
            .load_op(vk::AttachmentLoadOp::CLEAR)
            .store_op(vk::AttachmentStoreOp::STORE)
            .initial_layout(vk::ImageLayout::UNDEFINED)
            .final_layout(vk::ImageLayout::TRANSFER_SRC_OPTIMAL)];
        let color = [vk::AttachmentReference {
            attachment: 0,
            layout: vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL,
        }];
        let subpasses = [vk::SubpassDescription::default()
            .pipeline_bind_point(vk::PipelineBindPoint::GRAPHICS)
            .color_attachments(&color)];
        // Make the colour writes visible to the copy that follows.
        let dependencies = [vk::SubpassDependency::default()
            .src_subpass(0)
            .dst_subpass(vk::SUBPASS_EXTERNAL)
            .src_stage_mask(vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT)
            .src_access_mask(vk::AccessFlags::COLOR_ATTACHMENT_WRITE)
            .dst_stage_mask(vk::PipelineStageFlags::TRANSFER)
            .dst_access_mask(vk::AccessFlags::TRANSFER_READ)];
        let render_pass = d.create_render_pass(
            &vk::RenderPassCreateInfo::default()
                .attachments(&attachments)
                .subpasses(&subpasses)
                .dependencies(&dependencies),
            None,
        )?;
        self.keep(render_pass, ash::Device::destroy_render_pass);
        let views = [view];
        let framebuffer = d.create_framebuffer(
            &vk::FramebufferCreateInfo::default()
                .render_pass(render_pass)
                .attachments(&views)
                .width(width)
                .height(height)
                .layers(1),
            None,
        )?;
        self.keep(framebuffer, ash::Device::destroy_framebuffer);
        let readback_size = (4 * width * height) as usize;
        let (readback, readback_memory) =
            self.host_buffer(vk::BufferUsageFlags::TRANSFER_DST, readback_size, &[])?;
        Ok(ColorTarget {
            extent,
            image,
            render_pass,
            framebuffer,
            readback,
            readback_memory,
            readback_size,
        })
    }

    /// The layout of one descriptor (not an array) of type `ty` at
    /// `binding`, seen by `stages`: an entry for [`Gpu::set_layout`].
    pub fn layout_binding(
        binding: u32,
        ty: vk::DescriptorType,
        stages: vk::ShaderStageFlags,
    ) -> vk::DescriptorSetLayoutBinding<'static> {
        vk::DescriptorSetLayoutBinding::default()
            .binding(binding)
            .descriptor_type(ty)
            .descriptor_count(1)
            .stage_flags(stages)
    }

    /// A descriptor set layout of `bindings`.
    pub unsafe fn set_layout(
        &self,
        bindings: &[vk::DescriptorSetLayoutBinding],
    ) -> Result<vk::DescriptorSetLayout, Failure> {
        let layout = self.device.create_descriptor_set_layout(
            &vk::DescriptorSetLayoutCreateInfo::default().bindings(bindings),
            None,
        )?;
        Ok(self.keep(layout, ash::Device::destroy_descriptor_set_layout))
    }

    /// A pipeline layout of `set_layouts` (set 0 first), no push constants.
    pub unsafe fn pipeline_layout(
        &self,
        set_layouts: &[vk::DescriptorSetLayout],
    ) -> Result<vk::PipelineLayout, Failure> {
        let layout = self.device.create_pipeline_layout(
            &vk::PipelineLayoutCreateInfo::default().set_layouts(set_layouts),
            None,
        )?;
        Ok(self.keep(layout, ash::Device::destroy_pipeline_layout))
    }

    /// One descriptor set for each of `layouts`, from a new pool with room
    /// for `sizes`.
    pub unsafe fn descriptor_sets(
        &self,
        layouts: &[vk::DescriptorSetLayout],
        sizes: &[vk::DescriptorPoolSize],
    ) -> Result<Vec<vk::DescriptorSet>, Failure> {
        let pool = self.device.create_descriptor_pool(
            &vk::DescriptorPoolCreateInfo::default()
                .max_sets(layouts.len() as u32)
                .pool_sizes(sizes),
            None,
        )?;
        self.keep(pool, ash::Device::destroy_descriptor_pool);
        Ok(self.device.allocate_descriptor_sets(
            &vk::DescriptorSetAllocateInfo::default()
                .descriptor_pool(pool)
                .set_layouts(layouts),
        )?)
    }

    /// Points `binding` of `set` at the first `range` bytes of the uniform
    /// buffer `buffer` (`vk::WHOLE_SIZE`: all of it).
    pub unsafe fn write_uniform_buffer(
        &self,
        set: vk::DescriptorSet,
        binding: u32,
        buffer: vk::Buffer,
        range: vk::DeviceSize,
    ) {
        let info = [vk::DescriptorBufferInfo {
            buffer,
            offset: 0,
            range,
        }];
        let write = vk::WriteDescriptorSet::default()
            .dst_set(set)
            .dst_binding(binding)
            .descriptor_type(vk::DescriptorType::UNIFORM_BUFFER)
            .buffer_info(&info);
        self.device.update_descriptor_sets(&[write], &[]);
    }

    /// Points `binding` of `set`, a combined image sampler, at `view`
    /// (uploaded: `SHADER_READ_ONLY_OPTIMAL`) and `sampler`.
    pub unsafe fn write_texture(
        &self,
        set: vk::DescriptorSet,
        binding: u32,
        view: vk::ImageView,
        sampler: vk::Sampler,
    ) {
        let info = [vk::DescriptorImageInfo {
            sampler,
            image_view: view,
            image_layout: vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL,
        }];
        let write = vk::WriteDescriptorSet::default()
            .dst_set(set)
            .dst_binding(binding)
            .descriptor_type(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
            .image_info(&info);
        self.device.update_descriptor_sets(&[write], &[]);
    }

    unsafe fn shader(&self, spirv: &[u32]) -> Result<vk::ShaderModule, Failure> {
        let module = self
            .device
            .create_shader_module(&vk::ShaderModuleCreateInfo::default().code(spirv), None)?;
        self.keep(module, ash::Device::destroy_shader_module);
        Ok(module)
    }

    /// A graphics pipeline drawing into all of `target`: the SPIR-V modules
    /// `vertex` and `fragment` (entry point `main`), `vertex_input`,
    /// primitives of `topology`, filled, not culled, not blended, no depth.
    pub unsafe fn pipeline(
        &self,
        target: &ColorTarget,
        layout: vk::PipelineLayout,
        vertex: &[u32],
        fragment: &[u32],
        vertex_input: &vk::PipelineVertexInputStateCreateInfo,
        topology: vk::PrimitiveTopology,
    ) -> Result<vk::Pipeline, Failure> {
        let stages = [
            vk::PipelineShaderStageCreateInfo::default()
                .stage(vk::ShaderStageFlags::VERTEX)
                .module(self.shader(vertex)?)
                .name(c"main"),
            vk::PipelineShaderStageCreateInfo::default()
                .stage(vk::ShaderStageFlags::FRAGMENT)
                .module(self.shader(fragment)?)
                .name(c"main"),
        ];
        let assembly = vk::PipelineInputAssemblyStateCreateInfo::default().topology(topology);
        let viewports = [vk::Viewport {
            x: 0.0,
            y: 0.0,
            width: target.extent.width as f32,
            height: target.extent.height as f32,
            min_depth: 0.0,
            max_depth: 1.0,
        }];
        let scissors = [target.extent.into()];
        let viewport = vk::PipelineViewportStateCreateInfo::default()
            .viewports(&viewports)
            .scissors(&scissors);
        let raster = vk::PipelineRasterizationStateCreateInfo::default()
            .polygon_mode(vk::PolygonMode::FILL)
            .cull_mode(vk::CullModeFlags::NONE)
            .line_width(1.0);
        let multisample = vk::PipelineMultisampleStateCreateInfo::default()
            .rasterization_samples(vk::SampleCountFlags::TYPE_1);
        let blend_attachments = [vk::PipelineColorBlendAttachmentState::default()
            .color_write_mask(vk::ColorComponentFlags::RGBA)];
        let blend =
            vk::PipelineColorBlendStateCreateInfo::default().attachments(&blend_attachments);
        let info = [vk::GraphicsPipelineCreateInfo::default()
            .stages(&stages)
            .vertex_input_state(vertex_input)
            .input_assembly_state(&assembly)
            .viewport_state(&viewport)
            .rasterization_state(&raster)
            .multisample_state(&multisample)
            .color_blend_state(&blend)
            .layout(layout)
            .render_pass(target.render_pass)
            .subpass(0)];
        let pipeline = self
            .device
            .create_graphics_pipelines(vk::PipelineCache::null(), &info, None)
            .map_err(|(_, e)| e)?[0];
        self.keep(pipeline, ash::Device::destroy_pipeline);
        Ok(pipeline)
    }

    /// A primary command buffer from the `Gpu`'s pool, begun; end it and
    /// give it to [`Gpu::submit_and_wait`] (as often as needed).
    pub unsafe fn begin_commands(&self) -> Result<vk::CommandBuffer, Failure> {
        let command = self.device.allocate_command_buffers(
            &vk::CommandBufferAllocateInfo::default()
                .command_pool(self.command_pool)
                .level(vk::CommandBufferLevel::PRIMARY)
                .command_buffer_count(1),
        )?[0];
        self.device
            .begin_command_buffer(command, &vk::CommandBufferBeginInfo::default())?;
        Ok(command)
    }

    /// Records the start of `target`'s render pass over all of it, cleared
    /// to opaque black, and binds `pipeline` and its descriptor `sets`
    /// (set numbers `first_set` on, in `layout`); the caller records its
    /// draw and ends the pass (`cmd_end_render_pass`).
    pub unsafe fn begin_render_pass(
        &self,
        command: vk::CommandBuffer,
        target: &ColorTarget,
        pipeline: vk::Pipeline,
        layout: vk::PipelineLayout,
        first_set: u32,
        sets: &[vk::DescriptorSet],
    ) {
        let d = &self.device;
        let clear = [vk::ClearValue {
            color: vk::ClearColorValue {
                float32: [0.0, 0.0, 0.0, 1.0],
            },
        }];
        d.cmd_begin_render_pass(
            command,
            &vk::RenderPassBeginInfo::default()
                .render_pass(target.render_pass)
                .framebuffer(target.framebuffer)
                .render_area(target.extent.into())
                .clear_values(&clear),
            vk::SubpassContents::INLINE,
        );
        d.cmd_bind_pipeline(command, vk::PipelineBindPoint::GRAPHICS, pipeline);
        d.cmd_bind_descriptor_sets(
            command,
            vk::PipelineBindPoint::GRAPHICS,
            layout,
            first_set,
            sets,
            &[],
        );
    }

    /// Records the copy of `target` (after its render pass) into its
    /// read-back buffer, made visible to the host for [`Gpu::read_back`].
    pub unsafe fn record_readback(&self, command: vk::CommandBuffer, target: &ColorTarget) {
        let d = &self.device;
        d.cmd_copy_image_to_buffer(
            command,
            target.image,
            vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
            target.readback,
            &[vk::BufferImageCopy::default()
                .image_subresource(COLOR_LAYERS)
                .image_extent(target.extent.into())],
        );
        let to_host = vk::BufferMemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::TRANSFER_WRITE)
            .dst_access_mask(vk::AccessFlags::HOST_READ)
            .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .buffer(target.readback)
            .size(vk::WHOLE_SIZE);
        d.cmd_pipeline_barrier(
            command,
            vk::PipelineStageFlags::TRANSFER,
            vk::PipelineStageFlags::HOST,
            vk::DependencyFlags::empty(),
            &[],
            &[to_host],
            &[],
        );
    }

    /// Submits an ended command buffer to the queue and waits for it to
    /// finish; returns the time from the submit to the end of the wait.
    pub unsafe fn submit_and_wait(&self, command: vk::CommandBuffer) -> Result<Duration, Failure> {
        let d = &self.device;
        let commands = [command];
        let start = Instant::now();
        d.queue_submit(
            self.queue,
            &[vk::SubmitInfo::default().command_buffers(&commands)],
            self.fence,
        )?;
        d.wait_for_fences(&[self.fence], true, u64::MAX)?;
        let elapsed = start.elapsed();
        d.reset_fences(&[self.fence])?;
        Ok(elapsed)
    }

    /// `target`'s pixels as the last submitted [`Gpu::record_readback`]
    /// copied them: 4 bytes a pixel, row by row from the top.
    pub unsafe fn read_back(&self, target: &ColorTarget) -> Result<Vec<u8>, Failure> {
        let d = &self.device;
        let ptr = d.map_memory(
            target.readback_memory,
            0,
            vk::WHOLE_SIZE,
            vk::MemoryMapFlags::empty(),
        )?;
        let pixels = std::slice::from_raw_parts(ptr.cast::<u8>(), target.readback_size).to_vec();
        d.unmap_memory(target.readback_memory);
        Ok(pixels)
    }
}
