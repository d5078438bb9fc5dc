//! Embedding nvp4c in a Vulkan renderer: compile a `!!NVvp4.0` /
//! `!!NVfp4.0` pair with the library, build the pipeline from the
//! reflection (descriptor set layouts, uniform buffer sizes, parameter
//! offsets and texture units found by their Cg names, vertex attribute
//! Locations), fill the GL state block from GL-like state
//! (`nvp4c::state::GlState`), upload a checkerboard texture, draw the
//! textured quad offscreen and write it as a PNG.
//!
//! ```text
//! cargo run --example render -- quad.png
//! ```
//!
//! Uses only nvp4c's public API and `ash` (plus `png` to write the file).
//! Runs on any Vulkan 1.0 device, e.g. Mesa's lavapipe.
//!
//! This file holds what a renderer does with nvp4c's output; the Vulkan
//! plumbing that does not depend on it (device and queue, memory, buffers,
//! texture upload, the offscreen target and its read-back, descriptor
//! sets, the pipeline object, command submission) is in
//! examples/common/gpu.rs, shared with examples/render_bench.rs.
//!
//! Exit codes: 0 success, 1 failure, 3 no Vulkan device found.

use std::process::ExitCode;

use ash::vk;
use nvp4c::reflect::{ComponentType, Reflection, TextureUnit};
use nvp4c::state::GlState;

#[path = "common/gpu.rs"]
mod gpu;
use gpu::{fail, Failure, Gpu};

const WIDTH: u32 = 64;
const HEIGHT: u32 = 64;
const FORMAT: vk::Format = vk::Format::R8G8B8A8_UNORM;
/// The texture's format: UNORM, so the program's `TEX` (a float read,
/// docs/interface.md "Sampled type") sees values in [0, 1].
const TEXTURE_FORMAT: vk::Format = vk::Format::R8G8B8A8_UNORM;

/// Transforms the unit quad by GL's modelview-projection matrix
/// (`state.matrix.mvp`, which the renderer sets as GL state through
/// `nvp4c::state::GlState`) and passes its texture coordinate on.
const VERTEX_PROGRAM: &str = "!!NVvp4.0
PARAM mvp[4] = { state.matrix.mvp };
DP4 result.position.x, mvp[0], vertex.position;
DP4 result.position.y, mvp[1], vertex.position;
DP4 result.position.z, mvp[2], vertex.position;
DP4 result.position.w, mvp[3], vertex.position;
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
        Err(e) => e.report("render"),
    }
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
    let mut params: Vec<(vk::ShaderStageFlags, &Reflection, &str, [f32; 4])> = vec![(
        vk::ShaderStageFlags::FRAGMENT,
        &fragment.reflection,
        "tint",
        [1.0, 1.0, 0.5, 1.0],
    )];
    // GL state, as a GL program would set it: glScalef(0.5, 0.5, 1) on the
    // modelview matrix (column-major); the projection stays the identity.
    // nvp4c::state lays it out, with the MVP product GL derives.
    let mut gl = GlState::default();
    gl.modelview[0][0] = 0.5;
    gl.modelview[0][5] = 0.5;
    let state = gl.to_block().as_bytes();
    params.sort_by_key(|p| p.2);
    let position = input_location(&vertex.reflection, "vertex.position")?;
    let texcoord = input_location(&vertex.reflection, "vertex.texcoord[0]")?;
    // Texture contents, bound to the unit the reflection names `checker`.
    let checker = checkerboard();
    let textures: [(vk::ShaderStageFlags, &str, &[u8]); 1] =
        [(vk::ShaderStageFlags::FRAGMENT, "checker", &checker)];

    // SAFETY: everything below is plain Vulkan usage on objects created
    // through `gpu`, destroyed in reverse order when it is dropped.
    let pixels = unsafe {
        let gpu = Gpu::new(c"nvp4c render example", "render")?;
        draw(
            &gpu, &vertex, &fragment, &params, &state, &textures, position, texcoord,
        )?
    };
    gpu::write_png(out, WIDTH, HEIGHT, &pixels)
}

/// Draws the quad with the two programs and returns the RGBA8 pixels, row
/// by row.
///
/// `params` are uniform values by Cg name; `state` the bytes of the GL
/// state block (`nvp4c::state`); `textures` texture contents
/// (`TEXTURE_SIZE`² RGBA8 texels) by the Cg name of their sampler;
/// `position` and `texcoord` the Locations of the quad's two attributes.
#[allow(clippy::too_many_arguments)]
unsafe fn draw(
    gpu: &Gpu,
    vertex: &nvp4c::Compiled,
    fragment: &nvp4c::Compiled,
    params: &[(vk::ShaderStageFlags, &Reflection, &str, [f32; 4])],
    state: &[u8],
    textures: &[(vk::ShaderStageFlags, &str, &[u8])],
    position: u32,
    texcoord: u32,
) -> Result<Vec<u8>, Failure> {
    let d = &gpu.device;

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
    // Each texture a stage binds, by the unit its Cg sampler names, all
    // sampled with GL's NEAREST / CLAMP_TO_EDGE texture state.
    let sampler = gpu.sampler(vk::Filter::NEAREST, vk::SamplerAddressMode::CLAMP_TO_EDGE)?;
    let mut bound: Vec<(vk::ShaderStageFlags, u32, gpu::Texture)> = Vec::new();
    for (stage, name, texels) in textures {
        let Some((_, reflection)) = stages.iter().find(|(s, _)| s == stage) else {
            return Err(fail(format!("no {stage:?} program for texture `{name}`")));
        };
        let unit =
            cg_texture(reflection, name).ok_or_else(|| fail(format!("no Cg sampler `{name}`")))?;
        // This example uploads 2D float (UNORM) textures only.
        if unit.target.as_deref() != Some("2D") || unit.sampled_type != Some(ComponentType::Float) {
            return Err(fail(format!(
                "`{name}` is a {} ({:?}); this example binds 2D float textures",
                unit.ty, unit.target
            )));
        }
        let texture = gpu.texture(TEXTURE_FORMAT, TEXTURE_SIZE, TEXTURE_SIZE, texels)?;
        bound.push((*stage, unit.unit, texture));
    }
    let mut layouts = Vec::new();
    let mut writes: Vec<(u32, u32, vk::Buffer, u64)> = Vec::new();
    let mut image_writes: Vec<(u32, u32, vk::ImageView)> = Vec::new();
    for set in 0..=max_set {
        let mut bindings = Vec::new();
        for (stage, reflection) in stages {
            for block in reflection.uniform_blocks.iter().filter(|b| b.set == set) {
                bindings.push(Gpu::layout_binding(
                    block.binding,
                    vk::DescriptorType::UNIFORM_BUFFER,
                    stage,
                ));
                let mut bytes = vec![0u8; block.size as usize];
                // The State block holds GL state at fixed offsets: the
                // module reads its first `size` bytes.
                if block.binding_name == "state" {
                    bytes.copy_from_slice(&state[..block.size as usize]);
                }
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
                let buffer = gpu.buffer(vk::BufferUsageFlags::UNIFORM_BUFFER, &bytes)?;
                writes.push((set, block.binding, buffer, block.size as u64));
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
                bindings.push(Gpu::layout_binding(
                    unit.binding,
                    vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
                    stage,
                ));
                image_writes.push((set, unit.binding, texture.view));
            }
        }
        layouts.push(gpu.set_layout(&bindings)?);
    }
    let pipeline_layout = gpu.pipeline_layout(&layouts)?;
    let pool_sizes = [
        vk::DescriptorPoolSize {
            ty: vk::DescriptorType::UNIFORM_BUFFER,
            descriptor_count: (writes.len() as u32).max(1),
        },
        vk::DescriptorPoolSize {
            ty: vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
            descriptor_count: (image_writes.len() as u32).max(1),
        },
    ];
    let sets = gpu.descriptor_sets(&layouts, &pool_sizes)?;
    for (set, binding, buffer, size) in writes {
        gpu.write_uniform_buffer(sets[set as usize], binding, buffer, size);
    }
    for (set, binding, view) in image_writes {
        gpu.write_texture(sets[set as usize], binding, view, sampler);
    }

    // The colour target (and a buffer to read it back), and the pipeline:
    // nvp4c's modules, entry point `main`, the quad's two attributes at the
    // Locations the reflection gives.
    let target = gpu.color_target(FORMAT, WIDTH, HEIGHT)?;
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
    let pipeline = gpu.pipeline(
        &target,
        pipeline_layout,
        &vertex.spirv,
        &fragment.spirv,
        &vertex_input,
        vk::PrimitiveTopology::TRIANGLE_STRIP,
    )?;
    let vertex_buffer = gpu.buffer(
        vk::BufferUsageFlags::VERTEX_BUFFER,
        &gpu::float_bytes(&QUAD),
    )?;

    // Record (upload the textures, draw, copy the picture out), submit,
    // wait, read.
    let cmd = gpu.begin_commands()?;
    for (_, _, texture) in &bound {
        gpu.record_upload(cmd, texture);
    }
    gpu.begin_render_pass(cmd, &target, pipeline, pipeline_layout, 0, &sets);
    d.cmd_bind_vertex_buffers(cmd, 0, &[vertex_buffer], &[0]);
    d.cmd_draw(cmd, QUAD.len() as u32, 1, 0, 0);
    d.cmd_end_render_pass(cmd);
    gpu.record_readback(cmd, &target);
    d.end_command_buffer(cmd)?;
    gpu.submit_and_wait(cmd)?;
    gpu.read_back(&target)
}
