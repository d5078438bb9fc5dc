//! `nvp4c link`: compile the programs of one pipeline and check that they
//! fit together (`nvp4c::link::check_pipeline_bytes`); bytecode (AGAL,
//! Direct3D 9, recognised by content) links as a vertex/fragment pair.
//!
//! ```text
//! nvp4c link shade.vp [expand.gp] shade.fp [--write-spirv | --out-dir DIR] [compile options]
//! ```
//!
//! Exit codes, like the compiler: 0 the pipeline is consistent, 1 a program
//! has errors or the programs do not fit together (or an output could not
//! be written), 2 bad usage (unreadable files, not a vertex [geometry]
//! fragment sequence, outputs that would replace an input or each other).

use super::output::{self, Contents, Destination, Input, Output};
use super::report::{Level, MessageFormat, Reporter};
use super::stdio::{write_stderr, Outcome, EXIT_PROGRAM_ERROR, EXIT_USAGE};
use clap::ArgMatches;
use nvp4c::link::check_pipeline_bytes;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct LinkArgs {
    /// The vertex program, the optional tessellation control and evaluation
    /// programs, the optional geometry program and the fragment program, in
    /// pipeline order (NV assembly, AGAL bytecode, AGAL assembly beginning
    /// `// AGAL2 vertex`, or Direct3D 9 bytecode).
    #[arg(required = true, num_args = 2..=5, value_name = "PROGRAM")]
    pub inputs: Vec<PathBuf>,

    /// When every program compiles and the pipeline is consistent, also
    /// write each program's SPIR-V beside it, named as a compile names it
    /// (`shade.vp` → `shade.spv`); all of them or none. Programs whose
    /// names differ only in the extension would collide: use --out-dir.
    #[arg(long, help_heading = "Output")]
    pub write_spirv: bool,

    /// Like --write-spirv, but into DIR (created if missing), each named
    /// after its program's whole file name (`shade.vp` → DIR/shade.vp.spv).
    #[arg(
        long,
        value_name = "DIR",
        conflicts_with = "write_spirv",
        help_heading = "Output"
    )]
    pub out_dir: Option<PathBuf>,

    #[command(flatten)]
    pub compile: super::CompileOptions,
}

pub fn main(args: &LinkArgs, matches: &ArgMatches) -> Outcome {
    let reporter = Reporter::new(args.compile.message_format, args.compile.color);
    let options = match args.compile.options(matches) {
        Ok(o) => o,
        Err(message) => {
            reporter.error(&message)?;
            return Ok(EXIT_USAGE);
        }
    };
    let destinations: Vec<Destination> = if let Some(dir) = &args.out_dir {
        args.inputs
            .iter()
            .map(|p| {
                let mut name = p.file_name().unwrap_or(p.as_os_str()).to_os_string();
                name.push(".spv");
                Destination::File(dir.join(name))
            })
            .collect()
    } else if args.write_spirv {
        args.inputs
            .iter()
            .map(|p| Destination::File(p.with_extension("spv")))
            .collect()
    } else {
        Vec::new()
    };
    let inputs: Vec<Input> = args.inputs.iter().map(|p| Input::File(p)).collect();
    let named: Vec<(Destination, String)> = destinations
        .iter()
        .zip(&args.inputs)
        .map(|(d, p)| (d.clone(), format!("the module of {}", p.display())))
        .collect();
    if let Err(clash) = output::refuse_clashes(&inputs, &named) {
        let hint = match clash {
            output::Clash::SharedFile(_) if args.write_spirv => {
                " (--out-dir DIR names each module after its program's whole file name)"
            }
            _ => "",
        };
        reporter.error(&format!("{clash}{hint}"))?;
        return Ok(EXIT_USAGE);
    }

    let mut names = Vec::with_capacity(args.inputs.len());
    let mut sources = Vec::with_capacity(args.inputs.len());
    for path in &args.inputs {
        let name = path.display().to_string();
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) => {
                reporter.error(&format!("cannot read {name}: {e}"))?;
                return Ok(EXIT_USAGE);
            }
        };
        names.push(name);
        sources.push(bytes);
    }
    // Text or bytecode (AGAL, Direct3D 9): each file's diagnostics point into its
    // text, or its disassembly.
    let inputs: Vec<(&str, &[u8])> = names
        .iter()
        .zip(&sources)
        .map(|(n, s)| (n.as_str(), s.as_slice()))
        .collect();
    let listings: Vec<String> = sources
        .iter()
        .map(|b| nvp4c::source_listing(b).into_owned())
        .collect();
    let files: Vec<(&str, &str)> = names
        .iter()
        .zip(&listings)
        .map(|(n, s)| (n.as_str(), s.as_str()))
        .collect();
    let report = match check_pipeline_bytes(&inputs, &options) {
        Ok(r) => r,
        Err(e) => {
            reporter.error(&e.to_string())?;
            return Ok(EXIT_USAGE);
        }
    };
    match reporter.format {
        MessageFormat::Human => write_stderr(&report.render(&files, reporter.color))?,
        MessageFormat::Json => {
            let mut text = String::new();
            for d in &report.diagnostics {
                text += &reporter.link_diagnostic_text(d, &files);
            }
            write_stderr(&text)?;
        }
    }
    if report.has_errors() {
        return Ok(EXIT_PROGRAM_ERROR);
    }
    if destinations.is_empty() {
        return Ok(0);
    }
    let mut outputs = Vec::with_capacity(destinations.len());
    for (destination, compiled) in destinations.into_iter().zip(&report.compiled) {
        let Ok(c) = compiled else {
            // has_errors() above covers every failed compile.
            return Ok(EXIT_PROGRAM_ERROR);
        };
        outputs.push(Output {
            destination,
            contents: Contents::Words(c.spirv.clone()),
        });
    }
    if let Some(dir) = &args.out_dir {
        if let Err(e) = std::fs::create_dir_all(dir) {
            reporter.error(&format!("cannot create {}: {e}", dir.display()))?;
            return Ok(EXIT_PROGRAM_ERROR);
        }
    }
    if let Err(e) = output::write_all(&outputs) {
        write_stderr(&reporter.message_text(Level::Error, &e.to_string()))?;
        return Ok(EXIT_PROGRAM_ERROR);
    }
    Ok(0)
}
