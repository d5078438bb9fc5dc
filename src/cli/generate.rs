//! What the command says about itself: `--version`, shell completions
//! (`nvp4c completions bash|zsh|fish|elvish|powershell`, clap_complete) and
//! the man page (`nvp4c man`, clap_mangen), generated from the same
//! argument definitions as `--help`, so they never disagree with it.

use super::stdio::{write_stdout, Outcome, StreamError, EXIT_USAGE};
use std::ffi::{c_char, CStr};

/// `nvp4c --version`: the package version and, when built from a git
/// checkout, the commit (build.rs).
pub const VERSION: &str = if env!("NVP4C_GIT_HASH").is_empty() {
    env!("CARGO_PKG_VERSION")
} else {
    concat!(
        env!("CARGO_PKG_VERSION"),
        " (git ",
        env!("NVP4C_GIT_HASH"),
        ")"
    )
};

extern "C" {
    /// SPIRV-Tools' own version string, e.g. "SPIRV-Tools v2025.3
    /// v2025.3-0-g33e02568" (`libspirv.h`); linked in with the validator.
    fn spvSoftwareVersionDetailsString() -> *const c_char;
}

/// The SPIRV-Tools version the validator and optimiser come from.
pub fn spirv_tools_version() -> String {
    // SAFETY: the function takes nothing and returns a pointer to a
    // NUL-terminated string literal compiled into SPIRV-Tools
    // (source/software_version.cpp), valid for the whole run.
    let text = unsafe { CStr::from_ptr(spvSoftwareVersionDetailsString()) };
    text.to_string_lossy().into_owned()
}

/// `nvp4c --version` in full: also the SPIRV-Tools version.
pub fn long_version() -> String {
    format!(
        "{VERSION}\nvalidator and optimiser: {}",
        spirv_tools_version()
    )
}

/// `nvp4c completions SHELL`.
#[derive(clap::Args, Debug)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// `nvp4c man [COMMAND]`.
#[derive(clap::Args, Debug)]
pub struct ManArgs {
    /// A subcommand (run, link, lsp, completions) for its own page; none
    /// for nvp4c's.
    pub command: Option<String>,
}

pub fn completions(args: &CompletionsArgs, mut command: clap::Command) -> Outcome {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "nvp4c", &mut script);
    write_stdout(&script)?;
    Ok(0)
}

pub fn man(args: &ManArgs, command: clap::Command) -> Outcome {
    let command = command.long_version(long_version());
    let page = match &args.command {
        None => command,
        Some(name) => match command.find_subcommand(name) {
            // Named as man(1) names subcommand pages.
            Some(sub) => sub.clone().name(format!("nvp4c-{name}")).version(VERSION),
            None => {
                super::stdio::write_stderr(&format!(
                    "error: `{name}` is not an nvp4c command (run, link, lsp, completions, man)\n"
                ))?;
                return Ok(EXIT_USAGE);
            }
        },
    };
    let mut roff = Vec::new();
    clap_mangen::Man::new(page)
        .render(&mut roff)
        .map_err(StreamError::stdout)?;
    write_stdout(&roff)?;
    Ok(0)
}
