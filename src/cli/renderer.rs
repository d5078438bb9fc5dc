//! The command line's renderer control: binding layout, push and
//! specialization constants, entry point, clip-space conventions, device
//! limits and debug information (docs/interface.md, "Binding layout";
//! docs/limits.md, "Device limits"). Flattened into the compile command.
//!
//! Options that depend on the program type take an optional `STAGE=`
//! prefix (`vertex`, `geometry`, `fragment`, or `vp`, `gp`, `fp`): the
//! value applies to programs of that type only, so one command line (or a
//! batch of programs) can lay out a whole pipeline; without a prefix it
//! applies to every type.

use std::path::PathBuf;
use std::str::FromStr;

use nvp4c::device_limits::DeviceLimits;
use nvp4c::layout::{DepthRange, Param, PushConstants, Specialization, StageLayout};
use nvp4c::{Options, Stage};

/// A value for one program type, or (without a prefix) for all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerStage<T> {
    stage: Option<Stage>,
    value: T,
}

fn parse_stage(s: &str) -> Option<Stage> {
    match s {
        "vertex" | "vp" => Some(Stage::Vertex),
        "geometry" | "gp" => Some(Stage::Geometry),
        "fragment" | "fp" => Some(Stage::Fragment),
        _ => None,
    }
}

impl<T: FromStr> FromStr for PerStage<T>
where
    T::Err: std::fmt::Display,
{
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let (stage, value) = match s.split_once('=') {
            Some((stage, value)) => match parse_stage(stage) {
                Some(st) => (Some(st), value),
                None => {
                    return Err(format!(
                        "`{stage}` is not a program type (vertex, geometry, fragment)"
                    ))
                }
            },
            None => (None, s),
        };
        let value = value.parse::<T>().map_err(|e| e.to_string())?;
        Ok(PerStage { stage, value })
    }
}

/// `--push-constants`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PushPolicy(PushConstants);

impl FromStr for PushPolicy {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Ok(PushPolicy(match s {
            "none" => PushConstants::None,
            "local" => PushConstants::Local,
            "env" => PushConstants::Env,
            "all" => PushConstants::EnvAndLocal,
            "fit" => PushConstants::Fit,
            _ => return Err(format!("`{s}`: expected none, local, env, all or fit")),
        }))
    }
}

/// `--spec-constant [STAGE:]BINDING=ID`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecConstant {
    stage: Option<Stage>,
    param: Param,
    spec_id: u32,
}

impl FromStr for SpecConstant {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let (stage, rest) = match s.split_once(':') {
            Some((stage, rest)) => (
                Some(parse_stage(stage).ok_or_else(|| {
                    format!("`{stage}` is not a program type (vertex, geometry, fragment)")
                })?),
                rest,
            ),
            None => (None, s),
        };
        let (param, id) = rest
            .split_once('=')
            .ok_or_else(|| format!("`{s}`: expected BINDING=ID, e.g. program.local[3]=10"))?;
        Ok(SpecConstant {
            stage,
            param: param.parse()?,
            spec_id: id
                .trim()
                .parse()
                .map_err(|_| format!("`{id}` is not a SpecId (an unsigned integer)"))?,
        })
    }
}

/// `--depth-range`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum DepthRangeArg {
    /// z in [0, w] (Vulkan's): written as computed.
    Vulkan,
    /// z in [-w, w] (GL's): converted to Vulkan's as (z + w) / 2.
    Gl,
}

#[derive(clap::Args, Debug, Default, Clone)]
#[command(next_help_heading = "Renderer control (docs/interface.md, \"Binding layout\")")]
pub struct RendererArgs {
    /// Binding of program.env; program.local, the State block and
    /// program.buffer[b] follow it (+1, +2, +3+b). Default 0.
    #[arg(long, value_name = "[STAGE=]N")]
    pub uniform_binding_base: Vec<PerStage<u32>>,

    /// Binding of texture[0]; texture[n] is at this + n. Default 32.
    #[arg(long, value_name = "[STAGE=]N")]
    pub texture_binding_base: Vec<PerStage<u32>>,

    /// Which of program.env and program.local are push constants: none
    /// (default), local, env, all, or fit (each that fits the device's
    /// push constant size).
    #[arg(long, value_name = "[STAGE=]WHICH")]
    pub push_constants: Vec<PerStage<PushPolicy>>,

    /// Byte offset (a multiple of 16) of the program's push constants, so
    /// that stages use disjoint ranges. Default 0.
    #[arg(long, value_name = "[STAGE=]BYTES")]
    pub push_constant_offset: Vec<PerStage<u32>>,

    /// Read program.env[n] or program.local[n] as specialization
    /// constants ID to ID+3 (x to w) instead of from a buffer, e.g.
    /// `--spec-constant program.local[3]=10`; repeatable.
    #[arg(long, value_name = "[STAGE:]BINDING=ID")]
    pub spec_constant: Vec<SpecConstant>,

    /// The entry point's name. Default main.
    #[arg(long, value_name = "NAME")]
    pub entry_point: Option<String>,

    /// Negate the clip-space y a vertex or geometry program writes (GL's y
    /// points up, Vulkan's down).
    #[arg(long)]
    pub invert_y: bool,

    /// The clip-space depth convention the program computes; gl converts
    /// z in [-w, w] to Vulkan's [0, w].
    #[arg(long, value_enum, value_name = "CONVENTION")]
    pub depth_range: Option<DepthRangeArg>,

    /// GL's two-sided colour: a fragment program's fragment.color is the
    /// back colour (result.color.back) on back-facing primitives.
    #[arg(long)]
    pub two_sided_color: bool,

    /// Declare transform feedback capture in a vertex, tessellation
    /// evaluation or geometry program: Xfb, XfbBuffer/XfbStride/Offset on
    /// its results, and a copy of them per vertex stream 1-3 when a
    /// geometry program has EMITS (docs/interface.md).
    #[arg(long)]
    pub transform_feedback: bool,

    /// The device does not enable shaderTessellationAndGeometryPointSize:
    /// geometry and tessellation programs write no point size (and one
    /// that uses result.pointsize is refused, E1262).
    #[arg(long)]
    pub no_geometry_point_size: bool,

    /// A vertex program that writes no result.pointsize writes 1.0, for
    /// drawing it as points (Vulkan requires a point size then).
    #[arg(long)]
    pub vertex_point_size: bool,

    /// How many of GL's user clip planes (0 to 6, default 6) a
    /// position-invariant vertex program clips against.
    #[arg(long, value_name = "N")]
    pub user_clip_planes: Option<u32>,

    /// The Vulkan device's limits, as `vulkaninfo --json` writes them:
    /// programs that exceed them are refused (E0810-E0822). Default: a
    /// common desktop device (docs/limits.md).
    #[arg(long, value_name = "FILE.json")]
    pub device_limits: Option<PathBuf>,

    /// Emit debug information: the program text (OpSource), the line and
    /// column of each instruction (OpLine) and the program's names
    /// (OpName), for RenderDoc and other SPIR-V debuggers.
    #[arg(short = 'g', long = "debug-info")]
    pub debug_info: bool,
}

/// Applies `values` to the layouts of the stages they name.
fn per_stage<T: Clone>(
    options: &mut Options,
    values: &[PerStage<T>],
    mut set: impl FnMut(&mut StageLayout, T),
) {
    for v in values {
        for stage in [Stage::Vertex, Stage::Geometry, Stage::Fragment] {
            if v.stage.is_none_or(|s| s == stage) {
                set(options.layout.stage_mut(stage), v.value.clone());
            }
        }
    }
}

impl RendererArgs {
    /// Sets `options` from the flags. `Err` is a usage error (an
    /// unreadable or malformed device limits file). The name debug
    /// information gives the program is each input's own (`cli::compile`).
    pub fn apply(&self, options: &mut Options) -> Result<(), String> {
        per_stage(options, &self.uniform_binding_base, |l, v| {
            l.uniform_binding = v
        });
        per_stage(options, &self.texture_binding_base, |l, v| {
            l.texture_binding = v
        });
        per_stage(options, &self.push_constants, |l, v| l.push_constants = v.0);
        per_stage(options, &self.push_constant_offset, |l, v| {
            l.push_constant_offset = v
        });
        for s in &self.spec_constant {
            for stage in [Stage::Vertex, Stage::Geometry, Stage::Fragment] {
                if s.stage.is_none_or(|st| st == stage) {
                    options
                        .layout
                        .stage_mut(stage)
                        .specialize
                        .push(Specialization::new(s.param, s.spec_id));
                }
            }
        }
        if let Some(name) = &self.entry_point {
            options.entry_point = name.clone();
        }
        options.invert_y = self.invert_y;
        options.two_sided_color = self.two_sided_color;
        options.transform_feedback = self.transform_feedback;
        options.shader_tessellation_and_geometry_point_size = !self.no_geometry_point_size;
        options.vertex_point_size = self.vertex_point_size;
        if let Some(d) = self.depth_range {
            options.depth_range = match d {
                DepthRangeArg::Vulkan => DepthRange::Vulkan,
                DepthRangeArg::Gl => DepthRange::Gl,
            };
        }
        if let Some(n) = self.user_clip_planes {
            options.user_clip_planes = n;
        }
        if let Some(path) = &self.device_limits {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            options.device_limits =
                DeviceLimits::from_json(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        }
        options.debug_info = self.debug_info;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stage_prefixes_select_one_program_type() {
        let v: PerStage<u32> = "fragment=8".parse().unwrap();
        assert_eq!((v.stage, v.value), (Some(Stage::Fragment), 8));
        let v: PerStage<u32> = "5".parse().unwrap();
        assert_eq!((v.stage, v.value), (None, 5));
        assert!("pixel=3".parse::<PerStage<u32>>().is_err());
        let s: SpecConstant = "vp:program.env[2]=7".parse().unwrap();
        assert_eq!(
            (s.stage, s.param, s.spec_id),
            (Some(Stage::Vertex), Param::Env(2), 7)
        );
        assert!("program.local[1]".parse::<SpecConstant>().is_err());
        assert!("program.buffer[1]=3".parse::<SpecConstant>().is_err());
    }
}
