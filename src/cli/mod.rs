//! The `nvp4c` command line, a thin shell over the library: the options a
//! compile takes (shared with `nvp4c link`), and one module per job.

pub mod agal_args;
pub mod bytecode;
pub mod compile;
pub mod d3d9_args;
pub mod explain;
pub mod generate;
pub mod link;
pub mod output;
pub mod renderer;
pub mod report;
pub mod run;
pub mod stdio;

use clap::parser::ValueSource;
use clap::ArgMatches;
use nvp4c::{Options, TargetEnv, WarningControl, WarningLevel};
use report::{ColorChoice, MessageFormat};

/// The Vulkan environment, as the command line names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Env {
    #[value(name = "vulkan1.0")]
    Vulkan1_0,
    #[value(name = "vulkan1.1")]
    Vulkan1_1,
    #[value(name = "vulkan1.2")]
    Vulkan1_2,
    #[value(name = "vulkan1.3")]
    Vulkan1_3,
}

/// How a program is compiled and its messages printed: the options
/// `nvp4c` and `nvp4c link` share.
#[derive(clap::Args, Debug, Clone)]
pub struct CompileOptions {
    /// Vulkan environment to produce and validate SPIR-V for.
    #[arg(long, value_enum, default_value_t = Env::Vulkan1_0, help_heading = "Compiling")]
    pub target_env: Env,

    /// Descriptor set for uniform blocks and textures (default: 0 vertex,
    /// 1 geometry, 2 fragment; see docs/interface.md).
    #[arg(long, value_name = "N", help_heading = "Compiling")]
    pub descriptor_set: Option<u32>,

    /// Optimise the module (spirv-tools' performance passes), then validate it again.
    #[arg(short = 'O', long, help_heading = "Compiling")]
    pub optimize: bool,

    /// Skip the in-process spirv-val run (not recommended).
    #[arg(long, help_heading = "Compiling")]
    pub no_validate: bool,

    /// Ask the driver to keep signed zeros, infinities and NaNs
    /// (SignedZeroInfNanPreserve; needs VK_KHR_shader_float_controls).
    #[arg(long, help_heading = "Compiling")]
    pub preserve_signed_zero_inf_nan: bool,

    /// Silence every warning (the same as `-A warnings`).
    #[arg(short = 'w', help_heading = "Warnings")]
    pub no_warnings: bool,

    /// Allow (silence) a warning code, or `warnings` for all; repeatable.
    #[arg(
        short = 'A',
        long = "allow",
        value_name = "CODE",
        help_heading = "Warnings"
    )]
    pub allow: Vec<String>,

    /// Report a warning code as a warning (the default), or `warnings` for
    /// all; repeatable. A later -A/-W/-D overrides an earlier one.
    #[arg(
        short = 'W',
        long = "warn",
        value_name = "CODE",
        help_heading = "Warnings"
    )]
    pub warn: Vec<String>,

    /// Deny a warning code (report it as an error, failing the compile), or
    /// `warnings` for all; repeatable.
    #[arg(
        short = 'D',
        long = "deny",
        value_name = "CODE",
        help_heading = "Warnings"
    )]
    pub deny: Vec<String>,

    /// Treat warnings as errors (the same as `-D warnings`).
    #[arg(long, help_heading = "Warnings")]
    pub deny_warnings: bool,

    /// Colour in diagnostics.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto, help_heading = "Messages")]
    pub color: ColorChoice,

    /// How to print messages: as text, or one JSON object per line and
    /// nothing else (docs/json-diagnostics.md).
    #[arg(long, value_enum, default_value_t = MessageFormat::Human, help_heading = "Messages")]
    pub message_format: MessageFormat,

    #[command(flatten)]
    pub renderer: renderer::RendererArgs,

    #[command(flatten)]
    pub agal: agal_args::AgalArgs,

    #[command(flatten)]
    pub d3d9: d3d9_args::D3d9Args,
}

impl CompileOptions {
    /// The library's options. `matches` are the parsed arguments of the
    /// command these options belong to: the order of `-w`, `-A`, `-W`,
    /// `-D` and `--deny-warnings` there decides (a later one wins).
    pub fn options(&self, matches: &ArgMatches) -> Result<Options, String> {
        let mut options = Options::default();
        options.target_env = match self.target_env {
            Env::Vulkan1_0 => TargetEnv::Vulkan1_0,
            Env::Vulkan1_1 => TargetEnv::Vulkan1_1,
            Env::Vulkan1_2 => TargetEnv::Vulkan1_2,
            Env::Vulkan1_3 => TargetEnv::Vulkan1_3,
        };
        options.validate = !self.no_validate;
        options.preserve_signed_zero_inf_nan = self.preserve_signed_zero_inf_nan;
        options.optimize = self.optimize;
        options.descriptor_set = self.descriptor_set;
        options.warnings = warning_control(matches)?;
        self.renderer.apply(&mut options)?;
        self.agal.apply(&mut options);
        self.d3d9.apply(&mut options)?;
        Ok(options)
    }
}

/// `-w`, `-A`, `-W`, `-D`, `--deny-warnings` in command-line order.
fn warning_control(matches: &ArgMatches) -> Result<WarningControl, String> {
    let mut settings: Vec<(usize, String, WarningLevel)> = Vec::new();
    let on_command_line = |id: &str| matches.value_source(id) == Some(ValueSource::CommandLine);
    for (id, level) in [
        ("allow", WarningLevel::Allow),
        ("warn", WarningLevel::Warn),
        ("deny", WarningLevel::Deny),
    ] {
        if !on_command_line(id) {
            continue;
        }
        let (Some(values), Some(indices)) =
            (matches.get_many::<String>(id), matches.indices_of(id))
        else {
            continue;
        };
        for (value, index) in values.zip(indices) {
            settings.push((index, value.clone(), level));
        }
    }
    for (id, level) in [
        ("no_warnings", WarningLevel::Allow),
        ("deny_warnings", WarningLevel::Deny),
    ] {
        if on_command_line(id) {
            if let Some(indices) = matches.indices_of(id) {
                for index in indices {
                    settings.push((index, "warnings".to_string(), level));
                }
            }
        }
    }
    settings.sort_by_key(|s| s.0);
    let mut control = WarningControl::default();
    for (_, name, level) in settings {
        control
            .set(&name, level)
            .map_err(|e| format!("{} {name}: {e}", level.flag()))?;
    }
    Ok(control)
}
