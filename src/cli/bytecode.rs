//! `nvp4c disasm` and `nvp4c asm`: bytecode to text and back.
//!
//! ```text
//! nvp4c disasm shader.agal [-o shader.agalasm]
//! nvp4c asm shader.agalasm [--agal-stage vertex --agal-version 2] [-o shader.agal]
//! ```
//!
//! `disasm` recognises the format by its first bytes (AGAL today; the same
//! command serves every bytecode front end) and prints one line per token
//! in the syntax the format's assembler accepts, so assembling the listing
//! gives the bytes back. Exit codes: 0 done, 1 the program has errors (the
//! listing is still printed; the diagnostics point into it), 2 bad usage or
//! an unreadable input (or not bytecode nvp4c knows).

use std::io::{IsTerminal, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use nvp4c::{Diagnostics, Stage};

const EXIT_PROGRAM_ERROR: u8 = 1;
const EXIT_USAGE: u8 = 2;

#[derive(clap::Args, Debug)]
pub struct DisasmArgs {
    /// Bytecode to disassemble (AGAL); `-` reads standard input.
    pub input: PathBuf,
    /// Where to write the listing (default: standard output).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Colour in diagnostics: auto, always or never.
    #[arg(long, default_value = "auto", value_parser = ["auto", "always", "never"])]
    pub color: String,
}

#[derive(clap::Args, Debug)]
pub struct AsmArgs {
    /// AGAL assembly (AGALMiniAssembler's syntax); `-` reads standard input.
    pub input: PathBuf,
    /// Where to write the bytecode (default: the input with `.agal`).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// The program type (default: from a `// AGAL2 vertex` first line).
    #[arg(long, value_enum, value_name = "STAGE")]
    pub agal_stage: Option<AgalStage>,
    /// The AGAL version, 1 to 3 (default: from the first line, else 1, as
    /// AGALMiniAssembler's default).
    #[arg(long, value_name = "N")]
    pub agal_version: Option<u32>,
    /// Colour in diagnostics: auto, always or never.
    #[arg(long, default_value = "auto", value_parser = ["auto", "always", "never"])]
    pub color: String,
}

/// A program type AGAL has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum AgalStage {
    Vertex,
    Fragment,
}

impl From<AgalStage> for Stage {
    fn from(s: AgalStage) -> Stage {
        match s {
            AgalStage::Vertex => Stage::Vertex,
            AgalStage::Fragment => Stage::Fragment,
        }
    }
}

/// The stage and version of AGAL assembly text: the flags, else its
/// `// AGAL2 vertex` first line, else version 1; `None` without a stage.
pub fn agal_target(
    text: &str,
    stage: Option<AgalStage>,
    version: Option<u32>,
) -> Option<(Stage, u32)> {
    let named = nvp4c::front::agal::header_directive(text);
    let stage = stage.map(Stage::from).or(named.map(|n| n.0))?;
    Some((stage, version.or(named.map(|n| n.1)).unwrap_or(1)))
}

fn color(choice: &str) -> bool {
    match choice {
        "always" => true,
        "never" => false,
        _ => std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
    }
}

fn read(input: &PathBuf) -> Result<(String, Vec<u8>), ExitCode> {
    let stdin = input.as_os_str() == "-";
    let name = if stdin {
        "<stdin>".to_string()
    } else {
        input.display().to_string()
    };
    let bytes = if stdin {
        let mut b = Vec::new();
        std::io::stdin().lock().read_to_end(&mut b).map(|_| b)
    } else {
        std::fs::read(input)
    };
    match bytes {
        Ok(b) => Ok((name, b)),
        Err(e) => {
            eprintln!("error: cannot read {name}: {e}");
            Err(ExitCode::from(EXIT_USAGE))
        }
    }
}

fn write(output: Option<&PathBuf>, payload: &[u8]) -> Result<(), ExitCode> {
    let result = match output {
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(payload).and_then(|_| out.flush())
        }
        Some(p) if p.as_os_str() == "-" => {
            let mut out = std::io::stdout().lock();
            out.write_all(payload).and_then(|_| out.flush())
        }
        Some(p) => crate::write_output(p, payload),
    };
    result.map_err(|e| {
        eprintln!(
            "error: cannot write {}: {e}",
            output.map_or("standard output".to_string(), |p| p.display().to_string())
        );
        ExitCode::from(EXIT_PROGRAM_ERROR)
    })
}

fn report(diags: &Diagnostics, name: &str, text: &str, color: bool) {
    if !diags.is_empty() {
        eprint!("{}", diags.render(name, text, color));
    }
}

pub fn disasm_main(args: DisasmArgs) -> ExitCode {
    let (name, bytes) = match read(&args.input) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let Some((listing, diags)) = nvp4c::front::disassemble(&bytes) else {
        eprintln!(
            "error: {name} is not bytecode nvp4c knows (AGAL programs begin with the byte 0xa0)"
        );
        return ExitCode::from(EXIT_USAGE);
    };
    if let Err(code) = write(args.output.as_ref(), listing.as_bytes()) {
        return code;
    }
    report(&diags, &name, &listing, color(&args.color));
    if diags.has_errors() {
        return ExitCode::from(EXIT_PROGRAM_ERROR);
    }
    ExitCode::SUCCESS
}

pub fn asm_main(args: AsmArgs) -> ExitCode {
    let (name, bytes) = match read(&args.input) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let color = color(&args.color);
    let text = match nvp4c::source_text(&bytes) {
        Ok(t) => t,
        Err(d) => {
            report(&d, &name, &String::from_utf8_lossy(&bytes), color);
            return ExitCode::from(EXIT_PROGRAM_ERROR);
        }
    };
    let Some((stage, version)) = agal_target(text, args.agal_stage, args.agal_version) else {
        eprintln!("error: {name}: the program type is unknown: give --agal-stage vertex|fragment or begin the text with `// AGAL<version> <vertex|fragment>`");
        return ExitCode::from(EXIT_USAGE);
    };
    let output = match &args.output {
        Some(p) => p.clone(),
        None if args.input.as_os_str() == "-" => PathBuf::from("-"),
        None => {
            let p = args.input.with_extension("agal");
            if p == args.input {
                eprintln!("error: {name} would be replaced by its own bytecode; give -o FILE");
                return ExitCode::from(EXIT_USAGE);
            }
            p
        }
    };
    // Assemble, then check the bytes as any AGAL program is checked.
    let assembled = match nvp4c::front::agal::assemble(text, stage, version) {
        Ok(a) => a,
        Err(d) => {
            report(&d, &name, text, color);
            return ExitCode::from(EXIT_PROGRAM_ERROR);
        }
    };
    let mut options = nvp4c::Options::default();
    options.agal.assembly = Some((stage, version));
    match nvp4c::check(text, &options) {
        Ok((_, warnings)) => report(&warnings, &name, text, color),
        Err(d) => {
            report(&d, &name, text, color);
            return ExitCode::from(EXIT_PROGRAM_ERROR);
        }
    }
    match write(Some(&output), &assembled.bytes) {
        Ok(()) => ExitCode::SUCCESS,
        Err(code) => code,
    }
}
