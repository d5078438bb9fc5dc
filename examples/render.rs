//! Embedding nvp4c in a Vulkan renderer: compile a `!!NVvp4.0` /
//! `!!NVfp4.0` pair with the library, build the pipeline from the
//! reflection (descriptor set layouts, uniform buffer sizes, parameter
//! offsets and texture units found by their Cg names, vertex attribute
//! Locations), upload a checkerboard texture, draw the textured quad
//! offscreen and write it as a PNG.
//!
//! ```text
//! cargo run --example render -- quad.png
//! ```
//!
//! Uses only nvp4c's public API and `ash` (plus `png` to write the file).
//! Runs on any Vulkan 1.0 device, e.g. Mesa's lavapipe.
//!
//! Exit codes: 0 success, 1 failure, 3 no Vulkan device found.

use std::error::Error;
use std::ffi::CStr;
use std::process::ExitCode;

use ash::vk;
use nvp4c::reflect::{ComponentType, Reflection, TextureUnit};

const WIDTH: u32 = 64;
const HEIGHT: u32 = 64;
const FORMAT: vk::Format = vk::Format::R8G8B8A8_UNORM;
/// The texture's format: UNORM, so the program's `TEX` (a float read,
/// docs/interface.md "Sampled type") sees values in [0, 1].
const TEXTURE_FORMAT: vk::Format = vk::Format::R8G8B8A8_UNORM;
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

/// Transforms the unit quad by `xform` (scale in xy, offset in zw) and
/// passes its texture coordinate on. The `#var` line is what Cg writes;
/// the renderer finds the parameter by that name in the reflection.
const VERTEX_PROGRAM: &str = "!!NVvp4.0
#var float4 xform :  : c[0] : 0 : 1
PARAM c[1] = { program.local[0] };
TEMP p;
MAD p.xy, vertex.position, c[0], c[0].zwzw;
MOV p.zw, {0, 0, 0, 1};
MOV result.position, p;
MOV result.texcoord[0], vertex.texcoord[0];
END
";

/// Samples the texture unit the renderer bound to `checker` (unit 0, a
/// 2D target: a combined image sampler at set 2, binding 32, per
/// docs/interface.md, "Textures") and multiplies the texel by `tint`.
const FRAGMENT_PROGRAM: &str = "!!NVfp4.0
#var float4 uv : $vin.TEXCOORD0 : TEX0 : 0 : 1
#var sampler2D checker :  : texunit 0 : 1 : 1
#var float4 tint :  : c[0] : 2 : 1
PARAM c[1] = { program.local[0] };
TEMP t;
TEX t, fragment.texcoord[0], texture[0], 2D;
MUL result.color, t, c[0];
END
";

/// The texture's side in texels.
const TEXTURE_SIZE: u32 = 8;

/// An 8×8 RGBA8 checkerboard: `EVEN` where x + y is even, `ODD` where it
/// is odd, except texel (7, 0) (the top right corner), which is `MARK`, so
/// the picture shows which way the texture is oriented.
fn checkerboard() -> Vec<u8> {
    const EVEN: [u8; 4] = [255, 160, 0, 255];
    const ODD: [u8; 4] = [0, 64, 200, 255];
    const MARK: [u8; 4] = [0, 255, 0, 255];
    let mut texels = Vec::new();
    for y in 0..TEXTURE_SIZE {
        for x in 0..TEXTURE_SIZE {
            texels.extend(match (x, y) {
                (7, 0) => MARK,
                _ if (x + y) % 2 == 0 => EVEN,
                _ => ODD,
            });
        }
    }
    texels
}

/// The quad: (position, texcoord) per vertex, drawn as a triangle strip.
const QUAD: [[f32; 8]; 4] = [
    [-1.0, -1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0],
    [1.0, -1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0],
    [-1.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0],
    [1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 0.0, 1.0],
];

fn main() -> ExitCode {
    let out = std::env::args().nth(1).unwrap_or_else(|| "quad.png".into());
    match run(&out) {
        Ok(()) => {
            println!("wrote {out} ({WIDTH}x{HEIGHT})");
            ExitCode::SUCCESS
        }
        Err(Failure::NoDevice(why)) => {
            eprintln!("render: no Vulkan device: {why}");
            ExitCode::from(3)
        }
        Err(Failure::Other(e)) => {
            eprintln!("render: {e}");
            ExitCode::FAILURE
        }
    }
}

enum Failure {
    NoDevice(String),
    Other(Box<dyn Error>),
}

impl<E: Error + 'static> From<E> for Failure {
    fn from(e: E) -> Failure {
        Failure::Other(Box::new(e))
    }
}

fn fail(message: impl Into<String>) -> Failure {
    Failure::Other(message.into().into())
}

/// Compiles a program, printing its diagnostics the way the CLI does.
fn compile(name: &str, source: &str) -> Result<nvp4c::Compiled, Failure> {
    nvp4c::compile(source, &nvp4c::Options::default()).map_err(|diagnostics| {
        eprint!("{}", diagnostics.render(name, source, false));
        fail(format!("{name} does not compile"))
    })
}

/// The byte offset of the Cg parameter `name` in its uniform block, and
/// the block's binding.
fn cg_parameter(reflection: &Reflection, name: &str) -> Result<(u32, u32), Failure> {
    reflection
        .uniform_blocks
        .iter()
        .flat_map(|b| b.parameters.iter().map(move |p| (b, p)))
        .find(|(_, p)| p.cg.iter().any(|c| c.name == name))
        .map(|(b, p)| (b.binding, p.offset))
        .ok_or_else(|| fail(format!("no Cg parameter `{name}`")))
}

/// The texture unit the program uses for the Cg sampler `name`.
fn cg_texture<'r>(reflection: &'r Reflection, name: &str) -> Option<&'r TextureUnit> {
    reflection
        .textures
        .iter()
        .find(|t| t.cg.iter().any(|c| c.name == name))
}

/// The Location of an input, by its program binding.
fn input_location(reflection: &Reflection, binding: &str) -> Result<u32, Failure> {
    reflection
        .inputs
        .iter()
        .find(|i| i.bindings.iter().any(|b| b == binding))
        .and_then(|i| i.location)
        .ok_or_else(|| fail(format!("no input `{binding}`")))
}

fn run(out: &str) -> Result<(), Failure> {
    let vertex = compile("quad.vp", VERTEX_PROGRAM)?;
    let fragment = compile("checker.fp", FRAGMENT_PROGRAM)?;

    // Parameter values, placed by the reflection.
    let mut params: Vec<(vk::ShaderStageFlags, &Reflection, &str, [f32; 4])> = vec![
        (
            vk::ShaderStageFlags::VERTEX,
            &vertex.reflection,
            "xform",
            [0.5, 0.5, 0.0, 0.0],
        ),
        (
            vk::ShaderStageFlags::FRAGMENT,
            &fragment.reflection,
            "tint",
            [1.0, 1.0, 0.5, 1.0],
        ),
    ];
    params.sort_by_key(|p| p.2);
    let position = input_location(&vertex.reflection, "vertex.position")?;
    let texcoord = input_location(&vertex.reflection, "vertex.texcoord[0]")?;
    // Texture contents, bound to the unit the reflection names `checker`.
    let checker = checkerboard();
    let textures: [(vk::ShaderStageFlags, &str, &[u8]); 1] =
        [(vk::ShaderStageFlags::FRAGMENT, "checker", &checker)];

    // SAFETY: everything below is plain Vulkan usage on objects created
    // here, destroyed in reverse order by `Gpu::drop`.
    unsafe {
        let gpu = Gpu::new()?;
        let pixels = gpu.draw(&vertex, &fragment, &params, &textures, position, texcoord)?;
        write_png(out, &pixels)?;
    }
    Ok(())
}

fn write_png(path: &str, rgba: &[u8]) -> Result<(), Failure> {
    let file = std::io::BufWriter::new(std::fs::File::create(path)?);
    let mut encoder = png::Encoder::new(file, WIDTH, HEIGHT);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(rgba)?;
    writer.finish()?;
    Ok(())
}

/// The instance, device and queue, and every object created on them (so
/// they are destroyed on every path).
struct Gpu {
    _entry: ash::Entry,
    instance: ash::Instance,
    device: ash::Device,
    queue: vk::Queue,
    queue_family: u32,
    memory: vk::PhysicalDeviceMemoryProperties,
    objects: std::cell::RefCell<Vec<Object>>,
}

/// An uploaded texture (its objects are owned by `Gpu::objects`).
struct Texture {
    image: vk::Image,
    extent: vk::Extent3D,
    view: vk::ImageView,
    sampler: vk::Sampler,
    /// Holds the texels until the upload recorded by `Gpu::record_upload`.
    staging: vk::Buffer,
}

enum Object {
    Buffer(vk::Buffer),
    Image(vk::Image),
    ImageView(vk::ImageView),
    Sampler(vk::Sampler),
    Memory(vk::DeviceMemory),
    Shader(vk::ShaderModule),
    SetLayout(vk::DescriptorSetLayout),
    PipelineLayout(vk::PipelineLayout),
    Pool(vk::DescriptorPool),
    RenderPass(vk::RenderPass),
    Framebuffer(vk::Framebuffer),
    Pipeline(vk::Pipeline),
    CommandPool(vk::CommandPool),
}

impl Drop for Gpu {
    fn drop(&mut self) {
        // SAFETY: the device is idle (every submission was waited for) and
        // each object is destroyed once, newest first.
        unsafe {
            let _ = self.device.device_wait_idle();
            for object in self.objects.get_mut().drain(..).rev() {
                let d = &self.device;
                match object {
                    Object::Buffer(x) => d.destroy_buffer(x, None),
                    Object::Image(x) => d.destroy_image(x, None),
                    Object::ImageView(x) => d.destroy_image_view(x, None),
                    Object::Sampler(x) => d.destroy_sampler(x, None),
                    Object::Memory(x) => d.free_memory(x, None),
                    Object::Shader(x) => d.destroy_shader_module(x, None),
                    Object::SetLayout(x) => d.destroy_descriptor_set_layout(x, None),
                    Object::PipelineLayout(x) => d.destroy_pipeline_layout(x, None),
                    Object::Pool(x) => d.destroy_descriptor_pool(x, None),
                    Object::RenderPass(x) => d.destroy_render_pass(x, None),
                    Object::Framebuffer(x) => d.destroy_framebuffer(x, None),
                    Object::Pipeline(x) => d.destroy_pipeline(x, None),
                    Object::CommandPool(x) => d.destroy_command_pool(x, None),
                }
            }
            self.device.destroy_device(None);
            self.instance.destroy_instance(None);
        }
    }
}

impl Gpu {
    unsafe fn new() -> Result<Gpu, Failure> {
        let entry = ash::Entry::load().map_err(|e| Failure::NoDevice(e.to_string()))?;
        let app = vk::ApplicationInfo::default()
            .application_name(c"nvp4c render example")
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
        let name = CStr::from_ptr(
            instance
                .get_physical_device_properties(physical)
                .device_name
                .as_ptr(),
        )
        .to_string_lossy()
        .into_owned();
        eprintln!("render: using {name}");
        let priorities = [1.0];
        let queue_info = [vk::DeviceQueueCreateInfo::default()
            .queue_family_index(queue_family)
            .queue_priorities(&priorities)];
        let device = match instance.create_device(
            physical,
            &vk::DeviceCreateInfo::default().queue_create_infos(&queue_info),
            None,
        ) {
            Ok(d) => d,
            Err(e) => {
                instance.destroy_instance(None);
                return Err(fail(format!("vkCreateDevice: {e}")));
            }
        };
        Ok(Gpu {
            queue: device.get_device_queue(queue_family, 0),
            memory: instance.get_physical_device_memory_properties(physical),
            _entry: entry,
            instance,
            device,
            queue_family,
            objects: Default::default(),
        })
    }

    fn keep(&self, object: Object) {
        self.objects.borrow_mut().push(object);
    }

    unsafe fn allocate(
        &self,
        requirements: vk::MemoryRequirements,
        flags: vk::MemoryPropertyFlags,
    ) -> Result<vk::DeviceMemory, Failure> {
        let index = (0..self.memory.memory_type_count)
            .find(|&i| {
                requirements.memory_type_bits & (1 << i) != 0
                    && self.memory.memory_types[i as usize]
                        .property_flags
                        .contains(flags)
            })
            .ok_or_else(|| fail("no suitable memory type"))?;
        let memory = self.device.allocate_memory(
            &vk::MemoryAllocateInfo::default()
                .allocation_size(requirements.size)
                .memory_type_index(index),
            None,
        )?;
        self.keep(Object::Memory(memory));
        Ok(memory)
    }

    /// A host-visible buffer holding `bytes`.
    unsafe fn buffer(
        &self,
        usage: vk::BufferUsageFlags,
        bytes: &[u8],
    ) -> Result<(vk::Buffer, vk::DeviceMemory), Failure> {
        let buffer = self.device.create_buffer(
            &vk::BufferCreateInfo::default()
                .size(bytes.len().max(16) as u64)
                .usage(usage),
            None,
        )?;
        self.keep(Object::Buffer(buffer));
        let memory = self.allocate(
            self.device.get_buffer_memory_requirements(buffer),
            vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT,
        )?;
        self.device.bind_buffer_memory(buffer, memory, 0)?;
        if !bytes.is_empty() {
            let ptr =
                self.device
                    .map_memory(memory, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty())?;
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), ptr.cast::<u8>(), bytes.len());
            self.device.unmap_memory(memory);
        }
        Ok((buffer, memory))
    }

    unsafe fn shader(&self, spirv: &[u32]) -> Result<vk::ShaderModule, Failure> {
        let module = self
            .device
            .create_shader_module(&vk::ShaderModuleCreateInfo::default().code(spirv), None)?;
        self.keep(Object::Shader(module));
        Ok(module)
    }

    /// A sampled 2D RGBA8 texture of `TEXTURE_SIZE`² texels, its view and
    /// a NEAREST sampler, and a staging buffer holding `texels`, to be copied
    /// into the image by [`Gpu::record_upload`].
    unsafe fn texture(&self, texels: &[u8]) -> Result<Texture, Failure> {
        let d = &self.device;
        let extent = vk::Extent3D {
            width: TEXTURE_SIZE,
            height: TEXTURE_SIZE,
            depth: 1,
        };
        if texels.len() != (4 * extent.width * extent.height) as usize {
            return Err(fail("texture data is not TEXTURE_SIZE² RGBA8 texels"));
        }
        let image = d.create_image(
            &vk::ImageCreateInfo::default()
                .image_type(vk::ImageType::TYPE_2D)
                .format(TEXTURE_FORMAT)
                .extent(extent)
                .mip_levels(1)
                .array_layers(1)
                .samples(vk::SampleCountFlags::TYPE_1)
                .tiling(vk::ImageTiling::OPTIMAL)
                .usage(vk::ImageUsageFlags::SAMPLED | vk::ImageUsageFlags::TRANSFER_DST),
            None,
        )?;
        self.keep(Object::Image(image));
        let memory = self.allocate(
            d.get_image_memory_requirements(image),
            vk::MemoryPropertyFlags::DEVICE_LOCAL,
        )?;
        d.bind_image_memory(image, memory, 0)?;
        let view = d.create_image_view(
            &vk::ImageViewCreateInfo::default()
                .image(image)
                .view_type(vk::ImageViewType::TYPE_2D)
                .format(TEXTURE_FORMAT)
                .subresource_range(COLOR_RANGE),
            None,
        )?;
        self.keep(Object::ImageView(view));
        // GL's NEAREST / CLAMP_TO_EDGE texture state, one level.
        let sampler = d.create_sampler(
            &vk::SamplerCreateInfo::default()
                .mag_filter(vk::Filter::NEAREST)
                .min_filter(vk::Filter::NEAREST)
                .mipmap_mode(vk::SamplerMipmapMode::NEAREST)
                .address_mode_u(vk::SamplerAddressMode::CLAMP_TO_EDGE)
                .address_mode_v(vk::SamplerAddressMode::CLAMP_TO_EDGE)
                .address_mode_w(vk::SamplerAddressMode::CLAMP_TO_EDGE)
                .max_lod(0.0),
            None,
        )?;
        self.keep(Object::Sampler(sampler));
        let (staging, _) = self.buffer(vk::BufferUsageFlags::TRANSFER_SRC, texels)?;
        Ok(Texture {
            image,
            extent,
            view,
            sampler,
            staging,
        })
    }

    /// Records the copy of a texture's staging buffer into its image, leaving
    /// the image ready for fragment shader reads.
    unsafe fn record_upload(&self, cmd: vk::CommandBuffer, texture: &Texture) {
        let d = &self.device;
        let to_transfer = vk::ImageMemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::empty())
            .dst_access_mask(vk::AccessFlags::TRANSFER_WRITE)
            .old_layout(vk::ImageLayout::UNDEFINED)
            .new_layout(vk::ImageLayout::TRANSFER_DST_OPTIMAL)
            .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .image(texture.image)
            .subresource_range(COLOR_RANGE);
        d.cmd_pipeline_barrier(
            cmd,
            vk::PipelineStageFlags::TOP_OF_PIPE,
            vk::PipelineStageFlags::TRANSFER,
            vk::DependencyFlags::empty(),
            &[],
            &[],
            &[to_transfer],
        );
        d.cmd_copy_buffer_to_image(
            cmd,
            texture.staging,
            texture.image,
            vk::ImageLayout::TRANSFER_DST_OPTIMAL,
            &[vk::BufferImageCopy {
                buffer_offset: 0,
                buffer_row_length: 0,
                buffer_image_height: 0,
                image_subresource: COLOR_LAYERS,
                image_offset: vk::Offset3D { x: 0, y: 0, z: 0 },
                image_extent: texture.extent,
            }],
        );
        let to_shader = vk::ImageMemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::TRANSFER_WRITE)
            .dst_access_mask(vk::AccessFlags::SHADER_READ)
            .old_layout(vk::ImageLayout::TRANSFER_DST_OPTIMAL)
            .new_layout(vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL)
            .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .image(texture.image)
            .subresource_range(COLOR_RANGE);
        d.cmd_pipeline_barrier(
            cmd,
            vk::PipelineStageFlags::TRANSFER,
            vk::PipelineStageFlags::VERTEX_SHADER | vk::PipelineStageFlags::FRAGMENT_SHADER,
            vk::DependencyFlags::empty(),
            &[],
            &[],
            &[to_shader],
        );
    }

    /// Draws the quad and returns the RGBA8 pixels, row by row.
    ///
    /// `params` are uniform values by Cg name; `textures` texture contents
    /// (`TEXTURE_SIZE`² RGBA8 texels) by the Cg name of their sampler.
    unsafe fn draw(
        &self,
        vertex: &nvp4c::Compiled,
        fragment: &nvp4c::Compiled,
        params: &[(vk::ShaderStageFlags, &Reflection, &str, [f32; 4])],
        textures: &[(vk::ShaderStageFlags, &str, &[u8])],
        position: u32,
        texcoord: u32,
    ) -> Result<Vec<u8>, Failure> {
        let d = &self.device;

        // Descriptor sets from the reflection: one uniform buffer per block,
        // sized as the reflection says, parameters written at their offsets;
        // one combined image sampler per texture unit, with the image type
        // the reflection gives for the unit's target.
        let stages = [
            (vk::ShaderStageFlags::VERTEX, &vertex.reflection),
            (vk::ShaderStageFlags::FRAGMENT, &fragment.reflection),
        ];
        let max_set = stages
            .iter()
            .flat_map(|(_, r)| {
                let blocks = r.uniform_blocks.iter().map(|b| b.set);
                blocks.chain(r.textures.iter().map(|t| t.set))
            })
            .max()
            .unwrap_or(0);
        // Each texture a stage binds, by the unit its Cg sampler names.
        let mut bound: Vec<(vk::ShaderStageFlags, u32, Texture)> = Vec::new();
        for (stage, name, texels) in textures {
            let Some((_, reflection)) = stages.iter().find(|(s, _)| s == stage) else {
                return Err(fail(format!("no {stage:?} program for texture `{name}`")));
            };
            let unit = cg_texture(reflection, name)
                .ok_or_else(|| fail(format!("no Cg sampler `{name}`")))?;
            // This example uploads 2D float (UNORM) textures only.
            if unit.target.as_deref() != Some("2D")
                || unit.sampled_type != Some(ComponentType::Float)
            {
                return Err(fail(format!(
                    "`{name}` is a {} ({:?}); this example binds 2D float textures",
                    unit.ty, unit.target
                )));
            }
            bound.push((*stage, unit.unit, self.texture(texels)?));
        }
        let mut layouts = Vec::new();
        let mut writes: Vec<(u32, u32, vk::Buffer, u64)> = Vec::new();
        let mut image_writes: Vec<(u32, u32, vk::ImageView, vk::Sampler)> = Vec::new();
        let mut block_count = 0;
        for set in 0..=max_set {
            let mut bindings = Vec::new();
            for (stage, reflection) in stages {
                for block in reflection.uniform_blocks.iter().filter(|b| b.set == set) {
                    bindings.push(
                        vk::DescriptorSetLayoutBinding::default()
                            .binding(block.binding)
                            .descriptor_type(vk::DescriptorType::UNIFORM_BUFFER)
                            .descriptor_count(1)
                            .stage_flags(stage),
                    );
                    let mut bytes = vec![0u8; block.size as usize];
                    for (p_stage, p_reflection, name, value) in params {
                        if *p_stage != stage {
                            continue;
                        }
                        let (binding, offset) = cg_parameter(p_reflection, name)?;
                        if binding == block.binding {
                            for (k, v) in value.iter().enumerate() {
                                let at = offset as usize + 4 * k;
                                bytes[at..at + 4].copy_from_slice(&v.to_le_bytes());
                            }
                        }
                    }
                    let (buffer, _) = self.buffer(vk::BufferUsageFlags::UNIFORM_BUFFER, &bytes)?;
                    writes.push((set, block.binding, buffer, block.size as u64));
                    block_count += 1;
                }
                for unit in reflection.textures.iter().filter(|t| t.set == set) {
                    let Some((_, _, texture)) = bound
                        .iter()
                        .find(|(s, u, _)| *s == stage && *u == unit.unit)
                    else {
                        return Err(fail(format!(
                            "the {stage:?} program samples texture[{}]; no texture given",
                            unit.unit
                        )));
                    };
                    bindings.push(
                        vk::DescriptorSetLayoutBinding::default()
                            .binding(unit.binding)
                            .descriptor_type(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
                            .descriptor_count(1)
                            .stage_flags(stage),
                    );
                    image_writes.push((set, unit.binding, texture.view, texture.sampler));
                }
            }
            let layout = d.create_descriptor_set_layout(
                &vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings),
                None,
            )?;
            self.keep(Object::SetLayout(layout));
            layouts.push(layout);
        }
        let pipeline_layout = d.create_pipeline_layout(
            &vk::PipelineLayoutCreateInfo::default().set_layouts(&layouts),
            None,
        )?;
        self.keep(Object::PipelineLayout(pipeline_layout));
        let pool_sizes = [
            vk::DescriptorPoolSize {
                ty: vk::DescriptorType::UNIFORM_BUFFER,
                descriptor_count: block_count.max(1),
            },
            vk::DescriptorPoolSize {
                ty: vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
                descriptor_count: (image_writes.len() as u32).max(1),
            },
        ];
        let pool = d.create_descriptor_pool(
            &vk::DescriptorPoolCreateInfo::default()
                .max_sets(layouts.len() as u32)
                .pool_sizes(&pool_sizes),
            None,
        )?;
        self.keep(Object::Pool(pool));
        let sets = d.allocate_descriptor_sets(
            &vk::DescriptorSetAllocateInfo::default()
                .descriptor_pool(pool)
                .set_layouts(&layouts),
        )?;
        for (set, binding, buffer, size) in &writes {
            let info = [vk::DescriptorBufferInfo {
                buffer: *buffer,
                offset: 0,
                range: *size,
            }];
            let write = vk::WriteDescriptorSet::default()
                .dst_set(sets[*set as usize])
                .dst_binding(*binding)
                .descriptor_type(vk::DescriptorType::UNIFORM_BUFFER)
                .buffer_info(&info);
            d.update_descriptor_sets(&[write], &[]);
        }
        for (set, binding, view, sampler) in &image_writes {
            let info = [vk::DescriptorImageInfo {
                sampler: *sampler,
                image_view: *view,
                image_layout: vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL,
            }];
            let write = vk::WriteDescriptorSet::default()
                .dst_set(sets[*set as usize])
                .dst_binding(*binding)
                .descriptor_type(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
                .image_info(&info);
            d.update_descriptor_sets(&[write], &[]);
        }

        // The colour target and a buffer to read it back.
        let image = d.create_image(
            &vk::ImageCreateInfo::default()
                .image_type(vk::ImageType::TYPE_2D)
                .format(FORMAT)
                .extent(vk::Extent3D {
                    width: WIDTH,
                    height: HEIGHT,
                    depth: 1,
                })
                .mip_levels(1)
                .array_layers(1)
                .samples(vk::SampleCountFlags::TYPE_1)
                .tiling(vk::ImageTiling::OPTIMAL)
                .usage(vk::ImageUsageFlags::COLOR_ATTACHMENT | vk::ImageUsageFlags::TRANSFER_SRC),
            None,
        )?;
        self.keep(Object::Image(image));
        let image_memory = self.allocate(
            d.get_image_memory_requirements(image),
            vk::MemoryPropertyFlags::DEVICE_LOCAL,
        )?;
        d.bind_image_memory(image, image_memory, 0)?;
        let view = d.create_image_view(
            &vk::ImageViewCreateInfo::default()
                .image(image)
                .view_type(vk::ImageViewType::TYPE_2D)
                .format(FORMAT)
                .subresource_range(COLOR_RANGE),
            None,
        )?;
        self.keep(Object::ImageView(view));
        let readback_size = (WIDTH * HEIGHT * 4) as usize;
        let (readback, readback_memory) =
            self.buffer(vk::BufferUsageFlags::TRANSFER_DST, &vec![0; readback_size])?;

        let attachment = [vk::AttachmentDescription::default()
            .format(FORMAT)
            .samples(vk::SampleCountFlags::TYPE_1)
            .load_op(vk::AttachmentLoadOp::CLEAR)
            .store_op(vk::AttachmentStoreOp::STORE)
            .initial_layout(vk::ImageLayout::UNDEFINED)
            .final_layout(vk::ImageLayout::TRANSFER_SRC_OPTIMAL)];
        let color_ref = [vk::AttachmentReference {
            attachment: 0,
            layout: vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL,
        }];
        let subpass = [vk::SubpassDescription::default()
            .pipeline_bind_point(vk::PipelineBindPoint::GRAPHICS)
            .color_attachments(&color_ref)];
        // Make the colour writes visible to the copy that follows.
        let dependency = [vk::SubpassDependency::default()
            .src_subpass(0)
            .dst_subpass(vk::SUBPASS_EXTERNAL)
            .src_stage_mask(vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT)
            .src_access_mask(vk::AccessFlags::COLOR_ATTACHMENT_WRITE)
            .dst_stage_mask(vk::PipelineStageFlags::TRANSFER)
            .dst_access_mask(vk::AccessFlags::TRANSFER_READ)];
        let render_pass = d.create_render_pass(
            &vk::RenderPassCreateInfo::default()
                .attachments(&attachment)
                .subpasses(&subpass)
                .dependencies(&dependency),
            None,
        )?;
        self.keep(Object::RenderPass(render_pass));
        let views = [view];
        let framebuffer = d.create_framebuffer(
            &vk::FramebufferCreateInfo::default()
                .render_pass(render_pass)
                .attachments(&views)
                .width(WIDTH)
                .height(HEIGHT)
                .layers(1),
            None,
        )?;
        self.keep(Object::Framebuffer(framebuffer));

        // The pipeline: nvp4c's modules, entry point `main`.
        let vs = self.shader(&vertex.spirv)?;
        let fs = self.shader(&fragment.spirv)?;
        let entry = c"main";
        let shader_stages = [
            vk::PipelineShaderStageCreateInfo::default()
                .stage(vk::ShaderStageFlags::VERTEX)
                .module(vs)
                .name(entry),
            vk::PipelineShaderStageCreateInfo::default()
                .stage(vk::ShaderStageFlags::FRAGMENT)
                .module(fs)
                .name(entry),
        ];
        let vertex_binding = [vk::VertexInputBindingDescription {
            binding: 0,
            stride: std::mem::size_of::<[f32; 8]>() as u32,
            input_rate: vk::VertexInputRate::VERTEX,
        }];
        let attributes = [
            vk::VertexInputAttributeDescription {
                location: position,
                binding: 0,
                format: vk::Format::R32G32B32A32_SFLOAT,
                offset: 0,
            },
            vk::VertexInputAttributeDescription {
                location: texcoord,
                binding: 0,
                format: vk::Format::R32G32B32A32_SFLOAT,
                offset: 16,
            },
        ];
        let vertex_input = vk::PipelineVertexInputStateCreateInfo::default()
            .vertex_binding_descriptions(&vertex_binding)
            .vertex_attribute_descriptions(&attributes);
        let assembly = vk::PipelineInputAssemblyStateCreateInfo::default()
            .topology(vk::PrimitiveTopology::TRIANGLE_STRIP);
        let viewport = [vk::Viewport {
            x: 0.0,
            y: 0.0,
            width: WIDTH as f32,
            height: HEIGHT as f32,
            min_depth: 0.0,
            max_depth: 1.0,
        }];
        let scissor = [vk::Rect2D {
            offset: vk::Offset2D { x: 0, y: 0 },
            extent: vk::Extent2D {
                width: WIDTH,
                height: HEIGHT,
            },
        }];
        let viewport_state = vk::PipelineViewportStateCreateInfo::default()
            .viewports(&viewport)
            .scissors(&scissor);
        let raster = vk::PipelineRasterizationStateCreateInfo::default()
            .polygon_mode(vk::PolygonMode::FILL)
            .cull_mode(vk::CullModeFlags::NONE)
            .line_width(1.0);
        let multisample = vk::PipelineMultisampleStateCreateInfo::default()
            .rasterization_samples(vk::SampleCountFlags::TYPE_1);
        let blend_attachment = [vk::PipelineColorBlendAttachmentState::default()
            .color_write_mask(vk::ColorComponentFlags::RGBA)];
        let blend = vk::PipelineColorBlendStateCreateInfo::default().attachments(&blend_attachment);
        let pipeline_info = [vk::GraphicsPipelineCreateInfo::default()
            .stages(&shader_stages)
            .vertex_input_state(&vertex_input)
            .input_assembly_state(&assembly)
            .viewport_state(&viewport_state)
            .rasterization_state(&raster)
            .multisample_state(&multisample)
            .color_blend_state(&blend)
            .layout(pipeline_layout)
            .render_pass(render_pass)
            .subpass(0)];
        let pipeline = d
            .create_graphics_pipelines(vk::PipelineCache::null(), &pipeline_info, None)
            .map_err(|(_, e)| e)?[0];
        self.keep(Object::Pipeline(pipeline));

        let quad: Vec<u8> = QUAD
            .iter()
            .flatten()
            .flat_map(|f| f.to_le_bytes())
            .collect();
        let (vertex_buffer, _) = self.buffer(vk::BufferUsageFlags::VERTEX_BUFFER, &quad)?;

        // Record, submit, wait.
        let command_pool = d.create_command_pool(
            &vk::CommandPoolCreateInfo::default().queue_family_index(self.queue_family),
            None,
        )?;
        self.keep(Object::CommandPool(command_pool));
        let cmd = d.allocate_command_buffers(
            &vk::CommandBufferAllocateInfo::default()
                .command_pool(command_pool)
                .level(vk::CommandBufferLevel::PRIMARY)
                .command_buffer_count(1),
        )?[0];
        d.begin_command_buffer(cmd, &vk::CommandBufferBeginInfo::default())?;
        for (_, _, texture) in &bound {
            self.record_upload(cmd, texture);
        }
        let clear = [vk::ClearValue {
            color: vk::ClearColorValue {
                float32: [0.0, 0.0, 0.0, 1.0],
            },
        }];
        d.cmd_begin_render_pass(
            cmd,
            &vk::RenderPassBeginInfo::default()
                .render_pass(render_pass)
                .framebuffer(framebuffer)
                .render_area(scissor[0])
                .clear_values(&clear),
            vk::SubpassContents::INLINE,
        );
        d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::GRAPHICS, pipeline);
        d.cmd_bind_descriptor_sets(
            cmd,
            vk::PipelineBindPoint::GRAPHICS,
            pipeline_layout,
            0,
            &sets,
            &[],
        );
        d.cmd_bind_vertex_buffers(cmd, 0, &[vertex_buffer], &[0]);
        d.cmd_draw(cmd, QUAD.len() as u32, 1, 0, 0);
        d.cmd_end_render_pass(cmd);
        d.cmd_copy_image_to_buffer(
            cmd,
            image,
            vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
            readback,
            &[vk::BufferImageCopy {
                buffer_offset: 0,
                buffer_row_length: 0,
                buffer_image_height: 0,
                image_subresource: COLOR_LAYERS,
                image_offset: vk::Offset3D { x: 0, y: 0, z: 0 },
                image_extent: vk::Extent3D {
                    width: WIDTH,
                    height: HEIGHT,
                    depth: 1,
                },
            }],
        );
        // Make the copy visible to the host read.
        let to_host = vk::BufferMemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::TRANSFER_WRITE)
            .dst_access_mask(vk::AccessFlags::HOST_READ)
            .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .buffer(readback)
            .offset(0)
            .size(vk::WHOLE_SIZE);
        d.cmd_pipeline_barrier(
            cmd,
            vk::PipelineStageFlags::TRANSFER,
            vk::PipelineStageFlags::HOST,
            vk::DependencyFlags::empty(),
            &[],
            &[to_host],
            &[],
        );
        d.end_command_buffer(cmd)?;
        let cmds = [cmd];
        d.queue_submit(
            self.queue,
            &[vk::SubmitInfo::default().command_buffers(&cmds)],
            vk::Fence::null(),
        )?;
        d.queue_wait_idle(self.queue)?;

        let ptr = d.map_memory(
            readback_memory,
            0,
            vk::WHOLE_SIZE,
            vk::MemoryMapFlags::empty(),
        )?;
        let pixels = std::slice::from_raw_parts(ptr.cast::<u8>(), readback_size).to_vec();
        d.unmap_memory(readback_memory);
        Ok(pixels)
    }
}
