//! Render-time benchmark: draws a full-screen triangle with a given vertex
//! and fragment SPIR-V module into a 1024×1024 RGBA8 target, frame after
//! frame, and reports how long the device took per frame.
//!
//! ```text
//! cargo run --release --example render_bench -- FRAGMENT.spv VERTEX.spv FRAMES \
//!     [--warmup N] [--save FILE.rgba] [--compare FILE.rgba] [--png FILE.png]
//! ```
//!
//! It is the runner of `scripts/bench-render.sh`, which passes the same
//! vertex module (benches/render/fullscreen.vp, compiled by nvp4c) with
//! fragment modules compiled from benches/render/shade.fp by nvp4c and
//! from benches/render/shade.frag by glslangValidator. Both have the
//! interface nvp4c gives shade.fp (docs/interface.md), which this runner
//! binds: descriptor set 2 with `program.env` (2 vec4) at binding 0,
//! `program.local` (8 vec4) at binding 1 and `texture[0]` (a 256×256
//! RGBA8 albedo texture, linear filtering, repeat) at binding 32; sets 0
//! and 1 are empty. The vertex stage needs no vertex buffer.
//!
//! Each frame is one submit of a pre-recorded command buffer (clear, draw
//! three vertices) and a wait on its fence; the time of that
//! submit-and-wait is the frame time. Pipeline creation and the first
//! `--warmup` frames (default 5: lavapipe compiles the fragment shader
//! variant at the first draw) are not timed. Output, one `key value` per
//! line: frame count, median, mean, minimum and maximum frame time in
//! milliseconds; the CPU time the whole process (lavapipe rasterizes on
//! threads of this process) spent per timed frame, from `/proc/self/stat`
//! (Linux; less disturbed by other load on the machine than the wall time,
//! which includes waiting for a core); and an FNV-1a hash of the final
//! image. `--save` writes
//! the image's raw RGBA bytes; `--compare` checks it against such a file
//! and fails (exit code 4) when a channel differs by more than
//! `TOLERANCE`; `--png` writes a PNG to look at.
//!
//! Exit codes: 0 success, 1 failure, 2 bad usage, 3 no Vulkan device
//! found, 4 the image differs from `--compare`.

use std::error::Error;
use std::ffi::CStr;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use ash::vk;

const SIZE: u32 = 1024;
const FORMAT: vk::Format = vk::Format::R8G8B8A8_UNORM;
const TEXTURE_SIZE: u32 = 256;
/// The largest difference of one 8-bit channel `--compare` accepts: the two
/// compilers may round differently (nvp4c keeps every multiply and add
/// separately rounded, GLSL lets the driver fuse them).
const TOLERANCE: u8 = 2;
/// The descriptor set of fragment programs (docs/interface.md).
const FRAGMENT_SET: u32 = 2;
const ENV_BINDING: u32 = 0;
const LOCAL_BINDING: u32 = 1;
const TEXTURE_BINDING: u32 = 32;

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

/// `program.env[0..1]` of shade.fp: eye position and fog density; fog
/// colour and gamma exponent.
const ENV: [[f32; 4]; 2] = [[0.0, 0.0, 2.0, 0.6], [0.55, 0.6, 0.68, 0.8]];
/// `program.local[0..7]` of shade.fp: uv tiling and bump frequency and
/// height; shininess, ambient, specular strength and light count; three
/// light positions (w = 1/radius²); three light colours.
const LOCAL: [[f32; 4]; 8] = [
    [4.0, 4.0, 6.0, 0.35],
    [32.0, 0.08, 0.6, 3.0],
    [-0.6, -0.5, 0.6, 0.25],
    [0.7, -0.3, 0.5, 0.3],
    [0.0, 0.7, 0.8, 0.2],
    [1.0, 0.85, 0.7, 0.0],
    [0.4, 0.6, 1.0, 0.0],
    [0.9, 0.4, 0.5, 0.0],
];

struct Args {
    fragment: String,
    vertex: String,
    frames: usize,
    warmup: usize,
    save: Option<String>,
    compare: Option<String>,
    png: Option<String>,
}

const USAGE: &str = "usage: render_bench FRAGMENT.spv VERTEX.spv FRAMES \
                     [--warmup N] [--save FILE.rgba] [--compare FILE.rgba] [--png FILE.png]";

fn parse_args() -> Result<Args, String> {
    let mut positional = Vec::new();
    let (mut warmup, mut save, mut compare, mut png) = (5, None, None, None);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--warmup" => warmup = value()?.parse().map_err(|e| format!("--warmup: {e}"))?,
            "--save" => save = Some(value()?),
            "--compare" => compare = Some(value()?),
            "--png" => png = Some(value()?),
            _ if arg.starts_with("--") => return Err(format!("unknown option {arg}")),
            _ => positional.push(arg),
        }
    }
    let [fragment, vertex, frames] = <[String; 3]>::try_from(positional)
        .map_err(|_| "expected FRAGMENT.spv VERTEX.spv FRAMES".to_string())?;
    let frames = match frames.parse() {
        Ok(n) if n > 0 => n,
        _ => return Err(format!("FRAMES must be a positive number, not `{frames}`")),
    };
    Ok(Args {
        fragment,
        vertex,
        frames,
        warmup,
        save,
        compare,
        png,
    })
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

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("render_bench: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(&args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(4),
        Err(Failure::NoDevice(why)) => {
            eprintln!("render_bench: no Vulkan device: {why}");
            ExitCode::from(3)
        }
        Err(Failure::Other(e)) => {
            eprintln!("render_bench: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Renders, prints the figures, and returns whether the image matches
/// `--compare` (true without it).
fn run(args: &Args) -> Result<bool, Failure> {
    let fragment = read_spirv(&args.fragment)?;
    let vertex = read_spirv(&args.vertex)?;
    // SAFETY: plain Vulkan usage on objects created by `Bench`, destroyed
    // by its `Drop`.
    let (times, cpu, pixels) = unsafe {
        let bench = Bench::new()?;
        bench.setup(&vertex, &fragment)?;
        for _ in 0..args.warmup {
            bench.frame()?;
        }
        let cpu_before = process_cpu_time();
        let times = (0..args.frames)
            .map(|_| bench.frame())
            .collect::<Result<Vec<_>, _>>()?;
        let cpu = process_cpu_time()
            .zip(cpu_before)
            .map(|(after, before)| after - before);
        (times, cpu, bench.read_image()?)
    };

    let mut ms: Vec<f64> = times.iter().map(|t| t.as_secs_f64() * 1e3).collect();
    ms.sort_by(f64::total_cmp);
    let mid = ms.len() / 2;
    let median = if ms.len() % 2 == 1 {
        ms[mid]
    } else {
        (ms[mid - 1] + ms[mid]) / 2.0
    };
    let mean = ms.iter().sum::<f64>() / ms.len() as f64;
    println!("frames {}", ms.len());
    println!("median_ms {median:.3}");
    println!("mean_ms {mean:.3}");
    println!("min_ms {:.3}", ms[0]);
    println!("max_ms {:.3}", ms[ms.len() - 1]);
    if let Some(cpu) = cpu {
        println!(
            "cpu_ms_per_frame {:.3}",
            cpu.as_secs_f64() * 1e3 / ms.len() as f64
        );
    }
    println!("checksum {:016x}", fnv1a(&pixels));

    if let Some(path) = &args.save {
        std::fs::write(path, &pixels)?;
    }
    if let Some(path) = &args.png {
        write_png(path, &pixels)?;
    }
    let Some(path) = &args.compare else {
        return Ok(true);
    };
    let reference = std::fs::read(path)?;
    if reference.len() != pixels.len() {
        return Err(fail(format!("{path} is not a {SIZE}×{SIZE} RGBA8 image")));
    }
    let diffs = pixels.iter().zip(&reference).map(|(a, b)| a.abs_diff(*b));
    let (max_diff, over) = diffs.fold((0, 0usize), |(max, over), d| {
        (max.max(d), over + usize::from(d > TOLERANCE))
    });
    println!("max_channel_diff {max_diff}");
    println!("channels_over_tolerance {over}");
    Ok(over == 0)
}

fn read_spirv(path: &str) -> Result<Vec<u32>, Failure> {
    let bytes = std::fs::read(path).map_err(|e| fail(format!("{path}: {e}")))?;
    ash::util::read_spv(&mut std::io::Cursor::new(bytes))
        .map_err(|e| fail(format!("{path}: not SPIR-V: {e}")))
}

/// User plus system time of all threads of this process so far, from
/// `/proc/self/stat` (fields 14 and 15, in clock ticks of 1/100 s: Linux's
/// USER_HZ); `None` where that file does not exist or parse.
fn process_cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name (field 2) is in parentheses and may hold spaces.
    let fields: Vec<&str> = stat.get(stat.rfind(')')? + 2..)?.split(' ').collect();
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some(Duration::from_millis((utime + stime) * 10))
}

/// FNV-1a, 64 bits.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

fn write_png(path: &str, rgba: &[u8]) -> Result<(), Failure> {
    let file = std::io::BufWriter::new(std::fs::File::create(path)?);
    let mut encoder = png::Encoder::new(file, SIZE, SIZE);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(rgba)?;
    writer.finish()?;
    Ok(())
}

/// The albedo texture: 256×256 RGBA8 bricks (4 rows of 2, offset every
/// other row) in mortar, each brick's colour varied by a hash of its
/// index and every texel by a little noise, alpha 1.
fn bricks() -> Vec<u8> {
    let hash = |x: u32| {
        x.wrapping_mul(0x9e37_79b9)
            .rotate_left(13)
            .wrapping_mul(0x85eb_ca6b)
            >> 24
    };
    let mut texels = Vec::with_capacity((4 * TEXTURE_SIZE * TEXTURE_SIZE) as usize);
    for y in 0..TEXTURE_SIZE {
        let row = y / 64;
        for x in 0..TEXTURE_SIZE {
            let shifted = (x + if row % 2 == 1 { 64 } else { 0 }) % TEXTURE_SIZE;
            let mortar = y % 64 < 4 || shifted % 128 < 4;
            let noise = hash(y * TEXTURE_SIZE + x) / 8; // 0..31
            let rgb = if mortar {
                [170 + noise, 165 + noise, 155 + noise]
            } else {
                let tint = hash(row * 16 + shifted / 128 + 7) / 4; // 0..63
                [150 + tint + noise, 60 + tint / 2 + noise, 40 + noise]
            };
            texels.extend(rgb.map(|c| c.min(255) as u8));
            texels.push(255);
        }
    }
    texels
}

/// The device and everything created on it.
struct Bench {
    _entry: ash::Entry,
    instance: ash::Instance,
    device: ash::Device,
    queue: vk::Queue,
    queue_family: u32,
    memory_types: vk::PhysicalDeviceMemoryProperties,
    /// Filled by `setup`.
    state: std::cell::RefCell<Frame>,
    destroy: std::cell::RefCell<Vec<Destroy>>,
}

/// Destroys one object created on the device.
type Destroy = Box<dyn FnOnce(&ash::Device)>;

/// What a frame submits, and the image and buffer to read its result.
#[derive(Default)]
struct Frame {
    command: vk::CommandBuffer,
    pool: vk::CommandPool,
    fence: vk::Fence,
    target: vk::Image,
    readback: vk::Buffer,
    readback_memory: vk::DeviceMemory,
}

impl Drop for Bench {
    fn drop(&mut self) {
        // SAFETY: the device is idle; each object is destroyed once, in
        // reverse order of creation, then the device and instance.
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

impl Bench {
    /// The first device with a graphics queue.
    unsafe fn new() -> Result<Bench, Failure> {
        let entry = ash::Entry::load().map_err(|e| Failure::NoDevice(e.to_string()))?;
        let app = vk::ApplicationInfo::default()
            .application_name(c"nvp4c render_bench")
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
        eprintln!("render_bench: using {name}");
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
        Ok(Bench {
            queue: device.get_device_queue(queue_family, 0),
            memory_types: instance.get_physical_device_memory_properties(physical),
            _entry: entry,
            instance,
            device,
            queue_family,
            state: Default::default(),
            destroy: Default::default(),
        })
    }

    /// Registers how to destroy an object just created.
    fn on_drop(&self, destroy: impl FnOnce(&ash::Device) + 'static) {
        self.destroy.borrow_mut().push(Box::new(destroy));
    }

    unsafe fn allocate(
        &self,
        needs: vk::MemoryRequirements,
        flags: vk::MemoryPropertyFlags,
    ) -> Result<vk::DeviceMemory, Failure> {
        let types = &self.memory_types.memory_types[..self.memory_types.memory_type_count as usize];
        let index = (0..types.len())
            .find(|&i| {
                needs.memory_type_bits & (1 << i) != 0 && types[i].property_flags.contains(flags)
            })
            .ok_or_else(|| fail(format!("no memory type with {flags:?}")))?;
        let memory = self.device.allocate_memory(
            &vk::MemoryAllocateInfo::default()
                .allocation_size(needs.size)
                .memory_type_index(index as u32),
            None,
        )?;
        self.on_drop(move |d| d.free_memory(memory, None));
        Ok(memory)
    }

    /// A host-visible buffer of `size` bytes, holding `bytes` at its start.
    unsafe fn buffer(
        &self,
        usage: vk::BufferUsageFlags,
        size: usize,
        bytes: &[u8],
    ) -> Result<(vk::Buffer, vk::DeviceMemory), Failure> {
        let d = &self.device;
        let buffer = d.create_buffer(
            &vk::BufferCreateInfo::default()
                .size(size as u64)
                .usage(usage),
            None,
        )?;
        self.on_drop(move |d| d.destroy_buffer(buffer, None));
        let memory = self.allocate(
            d.get_buffer_memory_requirements(buffer),
            vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT,
        )?;
        d.bind_buffer_memory(buffer, memory, 0)?;
        if !bytes.is_empty() {
            let ptr = d.map_memory(memory, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty())?;
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), ptr.cast::<u8>(), bytes.len());
            d.unmap_memory(memory);
        }
        Ok((buffer, memory))
    }

    /// A uniform buffer holding `rows` as 32-bit floats (std140 vec4 array).
    unsafe fn uniforms(&self, rows: &[[f32; 4]]) -> Result<vk::Buffer, Failure> {
        let bytes: Vec<u8> = rows
            .iter()
            .flatten()
            .flat_map(|f| f.to_le_bytes())
            .collect();
        Ok(self
            .buffer(vk::BufferUsageFlags::UNIFORM_BUFFER, bytes.len(), &bytes)?
            .0)
    }

    /// A device-local 2D image of one level and its view.
    unsafe fn image(
        &self,
        size: u32,
        usage: vk::ImageUsageFlags,
    ) -> Result<(vk::Image, vk::ImageView), Failure> {
        let d = &self.device;
        let image = d.create_image(
            &vk::ImageCreateInfo::default()
                .image_type(vk::ImageType::TYPE_2D)
                .format(FORMAT)
                .extent(vk::Extent3D {
                    width: size,
                    height: size,
                    depth: 1,
                })
                .mip_levels(1)
                .array_layers(1)
                .samples(vk::SampleCountFlags::TYPE_1)
                .tiling(vk::ImageTiling::OPTIMAL)
                .usage(usage),
            None,
        )?;
        self.on_drop(move |d| d.destroy_image(image, None));
        let memory = self.allocate(
            d.get_image_memory_requirements(image),
            vk::MemoryPropertyFlags::DEVICE_LOCAL,
        )?;
        d.bind_image_memory(image, memory, 0)?;
        let view = d.create_image_view(
            &vk::ImageViewCreateInfo::default()
                .image(image)
                .view_type(vk::ImageViewType::TYPE_2D)
                .format(FORMAT)
                .subresource_range(COLOR_RANGE),
            None,
        )?;
        self.on_drop(move |d| d.destroy_image_view(view, None));
        Ok((image, view))
    }

    unsafe fn shader(&self, code: &[u32]) -> Result<vk::ShaderModule, Failure> {
        let module = self
            .device
            .create_shader_module(&vk::ShaderModuleCreateInfo::default().code(code), None)?;
        self.on_drop(move |d| d.destroy_shader_module(module, None));
        Ok(module)
    }

    /// Submits one command buffer and waits for it; returns the time
    /// from the submit to the end of the wait.
    unsafe fn submit(
        &self,
        command: vk::CommandBuffer,
        fence: vk::Fence,
    ) -> Result<Duration, Failure> {
        let d = &self.device;
        let commands = [command];
        let start = Instant::now();
        d.queue_submit(
            self.queue,
            &[vk::SubmitInfo::default().command_buffers(&commands)],
            fence,
        )?;
        d.wait_for_fences(&[fence], true, u64::MAX)?;
        let elapsed = start.elapsed();
        d.reset_fences(&[fence])?;
        Ok(elapsed)
    }

    /// One begun one-time command buffer from the frame's pool.
    unsafe fn begin(&self, pool: vk::CommandPool) -> Result<vk::CommandBuffer, Failure> {
        let command = self.device.allocate_command_buffers(
            &vk::CommandBufferAllocateInfo::default()
                .command_pool(pool)
                .level(vk::CommandBufferLevel::PRIMARY)
                .command_buffer_count(1),
        )?[0];
        self.device
            .begin_command_buffer(command, &vk::CommandBufferBeginInfo::default())?;
        Ok(command)
    }

    /// Creates the target, the pipeline with its descriptors, uploads the
    /// texture and records the frame's command buffer.
    unsafe fn setup(&self, vertex: &[u32], fragment: &[u32]) -> Result<(), Failure> {
        let d = &self.device;
        let pool = d.create_command_pool(
            &vk::CommandPoolCreateInfo::default().queue_family_index(self.queue_family),
            None,
        )?;
        self.on_drop(move |d| d.destroy_command_pool(pool, None));
        let fence = d.create_fence(&vk::FenceCreateInfo::default(), None)?;
        self.on_drop(move |d| d.destroy_fence(fence, None));

        // The albedo texture, copied from a staging buffer.
        let texels = bricks();
        let (staging, _) =
            self.buffer(vk::BufferUsageFlags::TRANSFER_SRC, texels.len(), &texels)?;
        let (texture, texture_view) = self.image(
            TEXTURE_SIZE,
            vk::ImageUsageFlags::SAMPLED | vk::ImageUsageFlags::TRANSFER_DST,
        )?;
        let upload = self.begin(pool)?;
        let barrier = |image, old, new, src, dst| {
            vk::ImageMemoryBarrier::default()
                .src_access_mask(src)
                .dst_access_mask(dst)
                .old_layout(old)
                .new_layout(new)
                .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .image(image)
                .subresource_range(COLOR_RANGE)
        };
        d.cmd_pipeline_barrier(
            upload,
            vk::PipelineStageFlags::TOP_OF_PIPE,
            vk::PipelineStageFlags::TRANSFER,
            vk::DependencyFlags::empty(),
            &[],
            &[],
            &[barrier(
                texture,
                vk::ImageLayout::UNDEFINED,
                vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                vk::AccessFlags::empty(),
                vk::AccessFlags::TRANSFER_WRITE,
            )],
        );
        d.cmd_copy_buffer_to_image(
            upload,
            staging,
            texture,
            vk::ImageLayout::TRANSFER_DST_OPTIMAL,
            &[vk::BufferImageCopy::default()
                .image_subresource(COLOR_LAYERS)
                .image_extent(vk::Extent3D {
                    width: TEXTURE_SIZE,
                    height: TEXTURE_SIZE,
                    depth: 1,
                })],
        );
        d.cmd_pipeline_barrier(
            upload,
            vk::PipelineStageFlags::TRANSFER,
            vk::PipelineStageFlags::FRAGMENT_SHADER,
            vk::DependencyFlags::empty(),
            &[],
            &[],
            &[barrier(
                texture,
                vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL,
                vk::AccessFlags::TRANSFER_WRITE,
                vk::AccessFlags::SHADER_READ,
            )],
        );
        d.end_command_buffer(upload)?;
        self.submit(upload, fence)?;

        // GL's LINEAR / REPEAT texture state, one level.
        let sampler = d.create_sampler(
            &vk::SamplerCreateInfo::default()
                .mag_filter(vk::Filter::LINEAR)
                .min_filter(vk::Filter::LINEAR)
                .mipmap_mode(vk::SamplerMipmapMode::NEAREST)
                .address_mode_u(vk::SamplerAddressMode::REPEAT)
                .address_mode_v(vk::SamplerAddressMode::REPEAT)
                .address_mode_w(vk::SamplerAddressMode::REPEAT)
                .max_lod(0.0),
            None,
        )?;
        self.on_drop(move |d| d.destroy_sampler(sampler, None));

        // Descriptor set layouts: sets 0 and 1 (vertex, geometry) empty,
        // set 2 the fragment program's env, local and texture[0].
        let fragment_bindings = [
            (ENV_BINDING, vk::DescriptorType::UNIFORM_BUFFER),
            (LOCAL_BINDING, vk::DescriptorType::UNIFORM_BUFFER),
            (TEXTURE_BINDING, vk::DescriptorType::COMBINED_IMAGE_SAMPLER),
        ]
        .map(|(binding, ty)| {
            vk::DescriptorSetLayoutBinding::default()
                .binding(binding)
                .descriptor_type(ty)
                .descriptor_count(1)
                .stage_flags(vk::ShaderStageFlags::FRAGMENT)
        });
        let mut layouts = Vec::new();
        for set in 0..=FRAGMENT_SET {
            let bindings: &[_] = if set == FRAGMENT_SET {
                &fragment_bindings
            } else {
                &[]
            };
            let layout = d.create_descriptor_set_layout(
                &vk::DescriptorSetLayoutCreateInfo::default().bindings(bindings),
                None,
            )?;
            self.on_drop(move |d| d.destroy_descriptor_set_layout(layout, None));
            layouts.push(layout);
        }
        let pipeline_layout = d.create_pipeline_layout(
            &vk::PipelineLayoutCreateInfo::default().set_layouts(&layouts),
            None,
        )?;
        self.on_drop(move |d| d.destroy_pipeline_layout(pipeline_layout, None));

        let sizes = [
            vk::DescriptorPoolSize {
                ty: vk::DescriptorType::UNIFORM_BUFFER,
                descriptor_count: 2,
            },
            vk::DescriptorPoolSize {
                ty: vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
                descriptor_count: 1,
            },
        ];
        let descriptor_pool = d.create_descriptor_pool(
            &vk::DescriptorPoolCreateInfo::default()
                .max_sets(1)
                .pool_sizes(&sizes),
            None,
        )?;
        self.on_drop(move |d| d.destroy_descriptor_pool(descriptor_pool, None));
        let set = d.allocate_descriptor_sets(
            &vk::DescriptorSetAllocateInfo::default()
                .descriptor_pool(descriptor_pool)
                .set_layouts(&layouts[FRAGMENT_SET as usize..]),
        )?[0];
        let env = [vk::DescriptorBufferInfo {
            buffer: self.uniforms(&ENV)?,
            offset: 0,
            range: vk::WHOLE_SIZE,
        }];
        let local = [vk::DescriptorBufferInfo {
            buffer: self.uniforms(&LOCAL)?,
            offset: 0,
            range: vk::WHOLE_SIZE,
        }];
        let albedo = [vk::DescriptorImageInfo {
            sampler,
            image_view: texture_view,
            image_layout: vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL,
        }];
        let write = |binding, ty| {
            vk::WriteDescriptorSet::default()
                .dst_set(set)
                .dst_binding(binding)
                .descriptor_type(ty)
        };
        d.update_descriptor_sets(
            &[
                write(ENV_BINDING, vk::DescriptorType::UNIFORM_BUFFER).buffer_info(&env),
                write(LOCAL_BINDING, vk::DescriptorType::UNIFORM_BUFFER).buffer_info(&local),
                write(TEXTURE_BINDING, vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
                    .image_info(&albedo),
            ],
            &[],
        );

        // The target, left in TRANSFER_SRC_OPTIMAL by the render pass for
        // the final read-back.
        let (target, target_view) = self.image(
            SIZE,
            vk::ImageUsageFlags::COLOR_ATTACHMENT | vk::ImageUsageFlags::TRANSFER_SRC,
        )?;
        let attachments = [vk::AttachmentDescription::default()
            .format(FORMAT)
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
        self.on_drop(move |d| d.destroy_render_pass(render_pass, None));
        let views = [target_view];
        let framebuffer = d.create_framebuffer(
            &vk::FramebufferCreateInfo::default()
                .render_pass(render_pass)
                .attachments(&views)
                .width(SIZE)
                .height(SIZE)
                .layers(1),
            None,
        )?;
        self.on_drop(move |d| d.destroy_framebuffer(framebuffer, None));

        let vs = self.shader(vertex)?;
        let fs = self.shader(fragment)?;
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
        let area = vk::Rect2D {
            offset: vk::Offset2D { x: 0, y: 0 },
            extent: vk::Extent2D {
                width: SIZE,
                height: SIZE,
            },
        };
        let viewports = [vk::Viewport {
            x: 0.0,
            y: 0.0,
            width: SIZE as f32,
            height: SIZE as f32,
            min_depth: 0.0,
            max_depth: 1.0,
        }];
        let scissors = [area];
        let vertex_input = vk::PipelineVertexInputStateCreateInfo::default();
        let assembly = vk::PipelineInputAssemblyStateCreateInfo::default()
            .topology(vk::PrimitiveTopology::TRIANGLE_LIST);
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
            .vertex_input_state(&vertex_input)
            .input_assembly_state(&assembly)
            .viewport_state(&viewport)
            .rasterization_state(&raster)
            .multisample_state(&multisample)
            .color_blend_state(&blend)
            .layout(pipeline_layout)
            .render_pass(render_pass)
            .subpass(0)];
        let pipeline = d
            .create_graphics_pipelines(vk::PipelineCache::null(), &info, None)
            .map_err(|(_, e)| e)?[0];
        self.on_drop(move |d| d.destroy_pipeline(pipeline, None));

        // The frame: clear, draw the triangle. Recorded once, submitted
        // for every frame.
        let command = d.allocate_command_buffers(
            &vk::CommandBufferAllocateInfo::default()
                .command_pool(pool)
                .level(vk::CommandBufferLevel::PRIMARY)
                .command_buffer_count(1),
        )?[0];
        d.begin_command_buffer(command, &vk::CommandBufferBeginInfo::default())?;
        let clear = [vk::ClearValue {
            color: vk::ClearColorValue {
                float32: [0.0, 0.0, 0.0, 1.0],
            },
        }];
        d.cmd_begin_render_pass(
            command,
            &vk::RenderPassBeginInfo::default()
                .render_pass(render_pass)
                .framebuffer(framebuffer)
                .render_area(area)
                .clear_values(&clear),
            vk::SubpassContents::INLINE,
        );
        d.cmd_bind_pipeline(command, vk::PipelineBindPoint::GRAPHICS, pipeline);
        d.cmd_bind_descriptor_sets(
            command,
            vk::PipelineBindPoint::GRAPHICS,
            pipeline_layout,
            FRAGMENT_SET,
            &[set],
            &[],
        );
        d.cmd_draw(command, 3, 1, 0, 0);
        d.cmd_end_render_pass(command);
        d.end_command_buffer(command)?;

        let readback_size = (4 * SIZE * SIZE) as usize;
        let (readback, readback_memory) =
            self.buffer(vk::BufferUsageFlags::TRANSFER_DST, readback_size, &[])?;
        *self.state.borrow_mut() = Frame {
            command,
            pool,
            fence,
            target,
            readback,
            readback_memory,
        };
        Ok(())
    }

    /// Renders one frame; returns its submit-to-completion time.
    unsafe fn frame(&self) -> Result<Duration, Failure> {
        let (command, fence) = {
            let f = self.state.borrow();
            (f.command, f.fence)
        };
        self.submit(command, fence)
    }

    /// The target's pixels after the last frame, RGBA, row by row.
    unsafe fn read_image(&self) -> Result<Vec<u8>, Failure> {
        let d = &self.device;
        let f = self.state.borrow();
        let command = self.begin(f.pool)?;
        d.cmd_copy_image_to_buffer(
            command,
            f.target,
            vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
            f.readback,
            &[vk::BufferImageCopy::default()
                .image_subresource(COLOR_LAYERS)
                .image_extent(vk::Extent3D {
                    width: SIZE,
                    height: SIZE,
                    depth: 1,
                })],
        );
        let to_host = vk::BufferMemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::TRANSFER_WRITE)
            .dst_access_mask(vk::AccessFlags::HOST_READ)
            .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .buffer(f.readback)
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
        d.end_command_buffer(command)?;
        self.submit(command, f.fence)?;
        let size = (4 * SIZE * SIZE) as usize;
        let ptr = d.map_memory(
            f.readback_memory,
            0,
            vk::WHOLE_SIZE,
            vk::MemoryMapFlags::empty(),
        )?;
        let pixels = std::slice::from_raw_parts(ptr.cast::<u8>(), size).to_vec();
        d.unmap_memory(f.readback_memory);
        Ok(pixels)
    }
}
