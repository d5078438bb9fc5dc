//! `nvp4c link`: compile the programs of one pipeline and check that they
//! fit together (`nvp4c::link::check_pipeline_bytes`); Direct3D 9 shaders
//! (bytecode, recognised by content) link as a vs/ps pair.
//!
//! ```text
//! nvp4c link shade.vp [expand.gp] shade.fp [--write-spirv]
//! ```
//!
//! Exit codes, like the compiler: 0 the pipeline is consistent, 1 a program
//! has errors or the programs do not fit together, 2 bad usage (unreadable
//! files, not a vertex [geometry] fragment sequence).

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use nvp4c::link::check_pipeline_bytes;
use nvp4c::Options;

const EXIT_PROGRAM_ERROR: u8 = 1;
const EXIT_USAGE: u8 = 2;

#[derive(clap::Args, Debug)]
pub struct LinkArgs {
    /// The vertex program, the optional geometry program and the fragment
    /// program, in pipeline order.
    #[arg(required = true, num_args = 2..=3, value_name = "PROGRAM")]
    pub inputs: Vec<PathBuf>,

    /// Also write each program's SPIR-V next to it (`<input>.spv`) when
    /// the pipeline is consistent.
    #[arg(long)]
    pub write_spirv: bool,

    /// Colour in diagnostics: auto, always or never.
    #[arg(long, default_value = "auto", value_parser = ["auto", "always", "never"])]
    pub color: String,
}

pub fn main(args: LinkArgs) -> ExitCode {
    let mut names = Vec::with_capacity(args.inputs.len());
    let mut contents = Vec::with_capacity(args.inputs.len());
    for path in &args.inputs {
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("error: cannot read {}: {e}", path.display());
                return ExitCode::from(EXIT_USAGE);
            }
        };
        // Bytecode (a Direct3D 9 shader) is recognised by content; text
        // must be UTF-8.
        if nvp4c::front::Format::of(&bytes).is_none() {
            if let Err(d) = nvp4c::source_text(&bytes) {
                let shown = String::from_utf8_lossy(&bytes);
                eprint!("{}", d.render(&path.display().to_string(), &shown, false));
                return ExitCode::from(EXIT_PROGRAM_ERROR);
            }
        }
        names.push(path.display().to_string());
        contents.push(bytes);
    }
    let raw: Vec<(&str, &[u8])> = names
        .iter()
        .zip(&contents)
        .map(|(n, b)| (n.as_str(), b.as_slice()))
        .collect();
    let report = match check_pipeline_bytes(&raw, &Options::default()) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let listings: Vec<String> = contents
        .iter()
        .map(|b| nvp4c::source_listing(b).into_owned())
        .collect();
    let files: Vec<(&str, &str)> = names
        .iter()
        .zip(&listings)
        .map(|(n, s)| (n.as_str(), s.as_str()))
        .collect();
    let color = match args.color.as_str() {
        "always" => true,
        "never" => false,
        _ => std::io::stderr().is_terminal(),
    };
    eprint!("{}", report.render(&files, color));
    if report.has_errors() {
        return ExitCode::from(EXIT_PROGRAM_ERROR);
    }
    if args.write_spirv {
        for (path, compiled) in args.inputs.iter().zip(&report.compiled) {
            let Ok(c) = compiled else { continue };
            let out = path.with_extension("spv");
            let bytes: Vec<u8> = c.spirv.iter().flat_map(|w| w.to_le_bytes()).collect();
            if let Err(e) = std::fs::write(&out, bytes) {
                eprintln!("error: cannot write {}: {e}", out.display());
                return ExitCode::from(EXIT_PROGRAM_ERROR);
            }
        }
    }
    ExitCode::SUCCESS
}
