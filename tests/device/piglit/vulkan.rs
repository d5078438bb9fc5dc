//! The lavapipe backend: a shader_test's programs compiled by nvp4c (a
//! missing stage replaced by the library's fixed-function companion
//! program, `nvp4c::fixed_function`, compiled the same way), and its plan drawn
//! with `Device::run_scene` (GL's y-up window, GL's depth range, an RGBA8
//! target of 250×250).
//!
//! Each draw binds, per docs/interface.md, the vertex program's
//! `program.env`/`program.local`/`State` blocks in set 0 and the fragment
//! program's in set 2, sized as the reflection says; the fragment program's
//! texture units from the GL texture objects bound to them; and per-vertex
//! data at every Location the vertex program reads, from the rectangle's
//! corners and the current attributes.

use std::collections::BTreeMap;

use ash::vk;
use nvp4c::reflect::Reflection;

use crate::harness::{
    self, Device, Input, SamplerDesc, SceneDraw, SceneFrame, SceneOp, SceneTarget, StageResources,
    Texture, TextureKind,
};

use super::gl::{DrawCall, Plan, Step};
use super::script::{CompareFunc, Filter, ShaderTest, TexTarget};
use super::textures::{Texels, TextureObject};

/// Why a file could not be drawn.
#[derive(Clone, Debug)]
pub enum RunError {
    /// nvp4c rejected a program: the codes, the file line of the first
    /// error, and the rendered report.
    Compile {
        stage: &'static str,
        codes: Vec<&'static str>,
        line: usize,
        report: String,
    },
    /// The runner cannot draw what the file asks for.
    Unsupported(String),
    /// The device or the GL implementation failed.
    Backend(String),
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Compile {
                stage,
                codes,
                line,
                report,
            } => write!(
                f,
                "the {stage} program does not compile ({} at line {line}):\n{report}",
                codes.join(", ")
            ),
            RunError::Unsupported(m) => write!(f, "not supported by the runner: {m}"),
            RunError::Backend(m) => write!(f, "{m}"),
        }
    }
}

/// The fixed-function companion programs, from the library
/// (`nvp4c::fixed_function`) for the state shader_runner leaves GL in:
/// lighting, texture coordinate generation and fog off, all eight texture
/// coordinate sets passed on through their (identity) texture matrices,
/// the fog coordinate from the fragment depth; texturing off.
pub fn fixed_function_source(stage: &str) -> String {
    use nvp4c::fixed_function as ff;
    if stage == "vertex" {
        let mut config = ff::VertexConfig::default();
        config.units = vec![ff::TexCoord::Current; ff::MAX_UNITS];
        ff::vertex_program_source(&config)
    } else {
        ff::fragment_program_source(&ff::FragmentConfig::default())
    }
}

/// A program of the pair, compiled.
pub struct Stage {
    pub source: String,
    pub compiled: nvp4c::Compiled,
    /// The fixed-function companion stands in for a missing section.
    pub fixed_function: bool,
}

/// The file's vertex and fragment programs, compiled by nvp4c.
pub fn compile(test: &ShaderTest) -> Result<(Stage, Stage), RunError> {
    let one = |section: Option<&super::script::Program>, stage: &'static str| {
        let (source, first_line, fixed_function) = match section {
            Some(p) => (p.text.clone(), p.first_line, false),
            None => (fixed_function_source(stage), 1, true),
        };
        match nvp4c::compile(&source, &nvp4c::Options::default()) {
            Ok(compiled) => Ok(Stage {
                source,
                compiled,
                fixed_function,
            }),
            Err(d) => {
                let offset = d
                    .iter()
                    .filter(|d| d.is_error())
                    .find_map(|d| d.primary_span())
                    .map_or(0, |s| s.start as usize);
                let line = first_line + source[..offset.min(source.len())].matches('\n').count();
                Err(RunError::Compile {
                    stage,
                    codes: d.iter().filter(|d| d.is_error()).map(|d| d.code).collect(),
                    line,
                    report: d.render(stage, &source, false),
                })
            }
        }
    };
    let vertex = one(test.vertex_program.as_ref(), "vertex")?;
    let fragment = one(test.fragment_program.as_ref(), "fragment")?;
    Ok((vertex, fragment))
}

/// Draws the plan on the device; one frame per read.
pub fn render(
    dev: &Device,
    plan: &Plan,
    vertex: &Stage,
    fragment: &Stage,
) -> Result<Vec<SceneFrame>, RunError> {
    if fragment.fixed_function && plan.draws().any(|d| !d.textures.is_empty()) {
        return Err(RunError::Unsupported(
            "fixed-function texturing (a texture without a [fragment program])".into(),
        ));
    }
    let mut ops = Vec::new();
    for step in &plan.steps {
        match step {
            Step::Clear { color, depth } => ops.push(SceneOp::Clear {
                color: *color,
                depth: *depth,
            }),
            Step::Draw(d) => ops.push(SceneOp::Draw(Box::new(draw(d, vertex, fragment)?))),
            Step::Read => ops.push(SceneOp::Read),
            Step::Probe(_) => {}
        }
    }
    let target = SceneTarget {
        width: plan.width,
        height: plan.height,
        depth: plan.depth,
    };
    dev.run_scene(&target, &ops)
        .map_err(|e| RunError::Backend(e.to_string()))
}

fn draw(d: &DrawCall, vertex: &Stage, fragment: &Stage) -> Result<SceneDraw, RunError> {
    let vr = &vertex.compiled.reflection;
    let fr = &fragment.compiled.reflection;
    let vertices = (0..4)
        .map(|v| {
            vr.inputs
                .iter()
                .filter_map(|i| i.location)
                .map(|loc| Input::float(loc, d.attribute(loc, v)))
                .collect()
        })
        .collect();
    let state = d.state_rows();
    Ok(SceneDraw {
        vertex: vertex.compiled.spirv.clone(),
        fragment: fragment.compiled.spirv.clone(),
        topology: vk::PrimitiveTopology::TRIANGLE_STRIP,
        vertices,
        vertex_resources: resources(vr, &d.env_vp, &d.local_vp, &state, d)?,
        fragment_resources: resources(fr, &d.env_fp, &d.local_fp, &state, d)?,
        depth_test: d.depth_test,
    })
}

/// The stage's descriptor set: every uniform block its reflection lists,
/// sized as declared, and its texture units.
fn resources(
    r: &Reflection,
    env: &BTreeMap<u32, [f32; 4]>,
    local: &BTreeMap<u32, [f32; 4]>,
    state: &[[u32; 4]],
    d: &DrawCall,
) -> Result<StageResources, RunError> {
    let set = match r.stage {
        nvp4c::Stage::Vertex => harness::VERTEX_SET,
        _ => harness::FRAGMENT_SET,
    };
    let params = |m: &BTreeMap<u32, [f32; 4]>, size: u32| {
        let mut words = vec![0u32; size as usize / 4];
        for (&i, v) in m {
            let at = i as usize * 4;
            if at + 4 <= words.len() {
                words[at..at + 4].copy_from_slice(&v.map(f32::to_bits));
            }
        }
        words
    };
    let mut blocks = Vec::new();
    for b in &r.uniform_blocks {
        let words = match b.binding {
            0 => params(env, b.size),
            1 => params(local, b.size),
            2 => {
                let mut w: Vec<u32> = state.iter().flatten().copied().collect();
                w.resize((b.size as usize / 4).max(w.len()), 0);
                w
            }
            other => {
                return Err(RunError::Unsupported(format!(
                    "uniform block at binding {other} (program.buffer)"
                )))
            }
        };
        blocks.push((b.binding, words));
    }
    let mut textures = Vec::new();
    for t in &r.textures {
        let object = d.textures.get(&t.unit).ok_or_else(|| {
            RunError::Unsupported(format!(
                "texture[{}] is sampled but no texture is bound to unit {}",
                t.unit, t.unit
            ))
        })?;
        textures.push(texture(
            t.unit,
            t.target.as_deref().unwrap_or("2D"),
            object,
        )?);
    }
    Ok(StageResources {
        set,
        blocks,
        textures,
    })
}

/// A GL texture object as the harness uploads it: RGBA as RGBA8 UNORM (what
/// Mesa stores GL_RGBA as), depth as D32_SFLOAT; NEAREST/LINEAR filters and
/// CLAMP_TO_EDGE as piglit sets them; a depth comparison for SHADOW targets.
fn texture(unit: u32, target: &str, t: &TextureObject) -> Result<Texture, RunError> {
    let kind = match t.target {
        TexTarget::D1 => TextureKind::D1,
        TexTarget::D2 | TexTarget::Rect => TextureKind::D2,
    };
    let levels = t.levels_used();
    let (format, words): (vk::Format, Vec<Vec<u32>>) = match &t.texels {
        Texels::Rgba(l) => (
            vk::Format::R8G8B8A8_UNORM,
            l[..levels]
                .iter()
                .map(|level| {
                    level
                        .iter()
                        .map(|c| {
                            u32::from_le_bytes(c.map(|v| (v.clamp(0.0, 1.0) * 255.0).round() as u8))
                        })
                        .collect()
                })
                .collect(),
        ),
        Texels::Depth(l) => (
            vk::Format::D32_SFLOAT,
            l[..levels]
                .iter()
                .map(|level| level.iter().map(|v| v.to_bits()).collect())
                .collect(),
        ),
    };
    let shadow = target.starts_with("SHADOW");
    if shadow != matches!(t.texels, Texels::Depth(_)) {
        return Err(RunError::Unsupported(format!(
            "texture[{unit}] is sampled as {target} but holds {} texels",
            if shadow { "colour" } else { "depth" }
        )));
    }
    let linear = |f: Filter| {
        matches!(
            f,
            Filter::Linear | Filter::LinearMipmapNearest | Filter::LinearMipmapLinear
        )
    };
    if linear(t.min_filter) != linear(t.mag_filter) {
        return Err(RunError::Unsupported(
            "different minification and magnification filters".into(),
        ));
    }
    let sampler = SamplerDesc {
        filter: if linear(t.min_filter) {
            vk::Filter::LINEAR
        } else {
            vk::Filter::NEAREST
        },
        mipmap: if matches!(
            t.min_filter,
            Filter::NearestMipmapLinear | Filter::LinearMipmapLinear
        ) {
            vk::SamplerMipmapMode::LINEAR
        } else {
            vk::SamplerMipmapMode::NEAREST
        },
        address: vk::SamplerAddressMode::CLAMP_TO_EDGE,
        compare: (shadow && t.compare).then_some(match t.compare_func {
            CompareFunc::Never => vk::CompareOp::NEVER,
            CompareFunc::Less => vk::CompareOp::LESS,
            CompareFunc::Equal => vk::CompareOp::EQUAL,
            CompareFunc::Lequal => vk::CompareOp::LESS_OR_EQUAL,
            CompareFunc::Greater => vk::CompareOp::GREATER,
            CompareFunc::Notequal => vk::CompareOp::NOT_EQUAL,
            CompareFunc::Gequal => vk::CompareOp::GREATER_OR_EQUAL,
            CompareFunc::Always => vk::CompareOp::ALWAYS,
        }),
        min_lod: 0.0,
        max_lod: (levels - 1) as f32,
        ..SamplerDesc::default()
    };
    let height = if kind == TextureKind::D1 { 1 } else { t.height };
    Ok(Texture::new(unit, kind, format, t.width, height, 1, 1, words).with_sampler(sampler))
}
