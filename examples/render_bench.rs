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
//!
//! The Vulkan plumbing (device, buffers, texture upload, target, pipeline,
//! submission) is examples/common/gpu.rs, shared with examples/render.rs.

use std::process::ExitCode;
use std::time::Duration;

use ash::vk;

#[path = "common/gpu.rs"]
mod gpu;
use gpu::{fail, Failure, Gpu};

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
        Err(e) => e.report("render_bench"),
    }
}

/// Renders, prints the figures, and returns whether the image matches
/// `--compare` (true without it).
fn run(args: &Args) -> Result<bool, Failure> {
    let fragment = read_spirv(&args.fragment)?;
    let vertex = read_spirv(&args.vertex)?;
    // SAFETY: plain Vulkan usage on objects created through `Bench::gpu`,
    // destroyed when it is dropped.
    let (times, cpu, pixels) = unsafe {
        let bench = Bench::new(&vertex, &fragment)?;
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
        gpu::write_png(path, SIZE, SIZE, &pixels)?;
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

/// The device, the target and the frame's command buffer, recorded once.
struct Bench {
    gpu: Gpu,
    target: gpu::ColorTarget,
    /// Clears the target and draws the triangle.
    frame: vk::CommandBuffer,
}

impl Bench {
    /// Opens the device, uploads the texture, creates the target, the
    /// pipeline with its descriptors, and records the frame's command
    /// buffer.
    unsafe fn new(vertex: &[u32], fragment: &[u32]) -> Result<Bench, Failure> {
        let gpu = Gpu::new(c"nvp4c render_bench", "render_bench")?;
        let d = &gpu.device;

        // The albedo texture, copied from a staging buffer; GL's LINEAR /
        // REPEAT texture state, one level.
        let texture = gpu.texture(FORMAT, TEXTURE_SIZE, TEXTURE_SIZE, &bricks())?;
        let upload = gpu.begin_commands()?;
        gpu.record_upload(upload, &texture);
        d.end_command_buffer(upload)?;
        gpu.submit_and_wait(upload)?;
        let sampler = gpu.sampler(vk::Filter::LINEAR, vk::SamplerAddressMode::REPEAT)?;

        // Descriptor set layouts: sets 0 and 1 (vertex, geometry) empty,
        // set 2 the fragment program's env, local and texture[0].
        let fragment_bindings = [
            (ENV_BINDING, vk::DescriptorType::UNIFORM_BUFFER),
            (LOCAL_BINDING, vk::DescriptorType::UNIFORM_BUFFER),
            (TEXTURE_BINDING, vk::DescriptorType::COMBINED_IMAGE_SAMPLER),
        ]
        .map(|(binding, ty)| Gpu::layout_binding(binding, ty, vk::ShaderStageFlags::FRAGMENT));
        let mut layouts = Vec::new();
        for set in 0..=FRAGMENT_SET {
            let bindings: &[_] = if set == FRAGMENT_SET {
                &fragment_bindings
            } else {
                &[]
            };
            layouts.push(gpu.set_layout(bindings)?);
        }
        let pipeline_layout = gpu.pipeline_layout(&layouts)?;
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
        let set = gpu.descriptor_sets(&layouts[FRAGMENT_SET as usize..], &sizes)?[0];
        let uniforms = |rows: &[[f32; 4]]| {
            gpu.buffer(
                vk::BufferUsageFlags::UNIFORM_BUFFER,
                &gpu::float_bytes(rows),
            )
        };
        gpu.write_uniform_buffer(set, ENV_BINDING, uniforms(&ENV)?, vk::WHOLE_SIZE);
        gpu.write_uniform_buffer(set, LOCAL_BINDING, uniforms(&LOCAL)?, vk::WHOLE_SIZE);
        gpu.write_texture(set, TEXTURE_BINDING, texture.view, sampler);

        // The target, and the pipeline: no vertex buffer, the vertex
        // module makes the triangle's corners from the vertex index.
        let target = gpu.color_target(FORMAT, SIZE, SIZE)?;
        let pipeline = gpu.pipeline(
            &target,
            pipeline_layout,
            vertex,
            fragment,
            &vk::PipelineVertexInputStateCreateInfo::default(),
            vk::PrimitiveTopology::TRIANGLE_LIST,
        )?;

        // The frame: clear, draw the triangle. Recorded once, submitted
        // for every frame.
        let frame = gpu.begin_commands()?;
        gpu.begin_render_pass(
            frame,
            &target,
            pipeline,
            pipeline_layout,
            FRAGMENT_SET,
            &[set],
        );
        d.cmd_draw(frame, 3, 1, 0, 0);
        d.cmd_end_render_pass(frame);
        d.end_command_buffer(frame)?;
        Ok(Bench { gpu, target, frame })
    }

    /// Renders one frame; returns its submit-to-completion time.
    unsafe fn frame(&self) -> Result<Duration, Failure> {
        self.gpu.submit_and_wait(self.frame)
    }

    /// The target's pixels after the last frame, RGBA, row by row.
    unsafe fn read_image(&self) -> Result<Vec<u8>, Failure> {
        let command = self.gpu.begin_commands()?;
        self.gpu.record_readback(command, &self.target);
        self.gpu.device.end_command_buffer(command)?;
        self.gpu.submit_and_wait(command)?;
        self.gpu.read_back(&self.target)
    }
}
