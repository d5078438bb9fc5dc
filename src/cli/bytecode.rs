//! `nvp4c disasm` and `nvp4c asm`: bytecode to text and back, for every
//! bytecode front end (AGAL, Direct3D 9).
//!
//! ```text
//! nvp4c disasm shader.agal [-o shader.agalasm]
//! nvp4c disasm shader.d3dbc [-o shader.asm]
//! nvp4c asm shader.agalasm [--agal-stage vertex --agal-version 2] [-o shader.agal]
//! nvp4c asm shader.asm [-o shader.d3dbc]
//! ```
//!
//! `disasm` recognises the format by its first bytes and prints one line
//! per instruction in the syntax the format's assembler accepts, so
//! assembling the listing gives the bytes back. `asm` takes the language
//! from the text: Direct3D 9 assembly begins with its version (`vs_3_0`,
//! `ps_2_0`), AGAL's with a `// AGAL2 vertex` line or the `--agal-*`
//! flags. Either way the bytes are checked as any program of the format
//! is, and not written when they have errors. Outputs are written as the compiler writes its own
//! (`cli::output`: devices in place, files atomically, never over the
//! input). Exit codes: 0 done, 1 the program has errors (the listing is
//! still written; the diagnostics point into it), 2 bad usage or an
//! unreadable input (or not bytecode nvp4c knows).

use super::agal_args::{agal_target, AgalStage};
use super::output::{self, Destination, Input, Output};
use super::report::{ColorChoice, MessageFormat, Reporter};
use super::stdio::{write_stderr, Outcome, StreamError, EXIT_PROGRAM_ERROR, EXIT_USAGE};
use std::io::Read;
use std::path::{Path, PathBuf};

#[derive(clap::Args, Debug)]
pub struct DisasmArgs {
    /// Bytecode to disassemble (AGAL or Direct3D 9, recognised by its first
    /// bytes); `-` reads standard input.
    pub input: PathBuf,
    /// Where to write the listing (default: standard output).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Colour in diagnostics.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// How to print messages: as text, or one JSON object per line.
    #[arg(long, value_enum, default_value_t = MessageFormat::Human)]
    pub message_format: MessageFormat,
}

#[derive(clap::Args, Debug)]
pub struct AsmArgs {
    /// Assembly text: Direct3D 9 (Microsoft's syntax, beginning with its
    /// version, e.g. `ps_2_0`) or AGAL (AGALMiniAssembler's syntax); `-`
    /// reads standard input.
    pub input: PathBuf,
    /// Where to write the bytecode (default: the input with `.d3dbc` or
    /// `.agal`, or standard output when reading standard input).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Read the text as AGAL assembly of this program type (default: from
    /// a `// AGAL2 vertex` first line).
    #[arg(long, value_enum, value_name = "STAGE")]
    pub agal_stage: Option<AgalStage>,
    /// The AGAL version, 1 to 3 (default: from the first line, else 1, as
    /// AGALMiniAssembler's default).
    #[arg(long, value_name = "N")]
    pub agal_version: Option<u32>,
    /// Colour in diagnostics.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// How to print messages: as text, or one JSON object per line.
    #[arg(long, value_enum, default_value_t = MessageFormat::Human)]
    pub message_format: MessageFormat,
}

/// The input's name in messages and its bytes; `None` after reporting an
/// unreadable input.
fn read(input: &Path, reporter: &Reporter) -> Result<Option<(String, Vec<u8>)>, StreamError> {
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
        Ok(b) => Ok(Some((name, b))),
        Err(e) => {
            reporter.error(&format!("cannot read {name}: {e}"))?;
            Ok(None)
        }
    }
}

/// Writes `bytes` to `destination` unless it is the input; the exit code
/// of a failed write, or `None`.
fn write_one(
    input: &Path,
    destination: Destination,
    what: &str,
    bytes: Vec<u8>,
    reporter: &Reporter,
) -> Result<Option<u8>, StreamError> {
    let inputs = [if input.as_os_str() == "-" {
        Input::Stdin
    } else {
        Input::File(input)
    }];
    if let Err(clash) = output::refuse_clashes(&inputs, &[(destination.clone(), what.into())]) {
        reporter.error(&clash.to_string())?;
        return Ok(Some(EXIT_USAGE));
    }
    match output::write_all(&[Output {
        destination,
        contents: output::Contents::Bytes(bytes),
    }]) {
        Ok(()) => Ok(None),
        Err(e)
            if e.destination == Destination::Stdout
                && e.error.kind() == std::io::ErrorKind::BrokenPipe =>
        {
            Err(StreamError::stdout(e.error))
        }
        Err(e) => {
            reporter.error(&e.to_string())?;
            Ok(Some(EXIT_PROGRAM_ERROR))
        }
    }
}

pub fn disasm_main(args: &DisasmArgs) -> Outcome {
    let reporter = Reporter::new(args.message_format, args.color);
    let Some((name, bytes)) = read(&args.input, &reporter)? else {
        return Ok(EXIT_USAGE);
    };
    let Some((listing, diags)) = nvp4c::front::disassemble(&bytes) else {
        reporter.error(&format!(
            "{name} is not bytecode nvp4c knows (AGAL programs begin with the byte 0xa0, Direct3D 9 shaders with a version token 0xFFFEmmnn or 0xFFFFmmnn)"
        ))?;
        return Ok(EXIT_USAGE);
    };
    let destination = args
        .output
        .as_deref()
        .map_or(Destination::Stdout, Destination::from_arg);
    if let Some(code) = write_one(
        &args.input,
        destination,
        "the listing",
        listing.clone().into_bytes(),
        &reporter,
    )? {
        return Ok(code);
    }
    if !diags.is_empty() {
        write_stderr(&reporter.diagnostics_text(&diags, &name, &listing))?;
    }
    Ok(if diags.has_errors() {
        EXIT_PROGRAM_ERROR
    } else {
        0
    })
}

pub fn asm_main(args: &AsmArgs) -> Outcome {
    let reporter = Reporter::new(args.message_format, args.color);
    let Some((name, bytes)) = read(&args.input, &reporter)? else {
        return Ok(EXIT_USAGE);
    };
    let failed = |diags: &nvp4c::Diagnostics, text: &str| -> Outcome {
        write_stderr(&reporter.diagnostics_text(diags, &name, text))?;
        write_stderr(&reporter.could_not_compile_text(&name, diags))?;
        Ok(EXIT_PROGRAM_ERROR)
    };
    let text = match nvp4c::source_text(&bytes) {
        Ok(t) => t,
        Err(d) => return failed(&d, &String::from_utf8_lossy(&bytes)),
    };
    let destination = |extension: &str| match &args.output {
        Some(p) => Destination::from_arg(p),
        None if args.input.as_os_str() == "-" => Destination::Stdout,
        None => Destination::File(args.input.with_extension(extension)),
    };
    // Direct3D 9 assembly names its version first; the --agal-* flags say
    // the text is AGAL whatever it begins with.
    let agal_flags = args.agal_stage.is_some() || args.agal_version.is_some();
    if !agal_flags && nvp4c::front::d3d9::assemble::text_version(&text).is_some() {
        let assembled = match nvp4c::front::d3d9::assemble::assemble_bytes(&text) {
            Ok(b) => b,
            Err(e) => return failed(&nvp4c::Diagnostics(vec![e.diagnostic()]), &text),
        };
        // Checked as any Direct3D 9 shader: the diagnostics point into
        // its disassembly, as a compile's do.
        let listing = nvp4c::source_listing(&assembled);
        match nvp4c::check_bytes(&assembled, &nvp4c::Options::default()) {
            Ok((_, warnings)) if !warnings.is_empty() => {
                write_stderr(&reporter.diagnostics_text(&warnings, &name, &listing))?
            }
            Ok(_) => {}
            Err(d) => return failed(&d, &listing),
        }
        return Ok(write_one(
            &args.input,
            destination("d3dbc"),
            "the bytecode",
            assembled,
            &reporter,
        )?
        .unwrap_or(0));
    }
    let Some((stage, version)) = agal_target(&text, args.agal_stage, args.agal_version) else {
        reporter.error(&format!(
            "{name}: the assembly language is unknown: begin Direct3D 9 assembly with its version (`vs_3_0`, `ps_2_0`), or give --agal-stage vertex|fragment or begin AGAL assembly with `// AGAL<version> <vertex|fragment>`"
        ))?;
        return Ok(EXIT_USAGE);
    };
    // Assemble, then check the bytes as any AGAL program is checked.
    let assembled = match nvp4c::front::agal::assemble(&text, stage, version) {
        Ok(a) => a,
        Err(d) => return failed(&d, &text),
    };
    let mut options = nvp4c::Options::default();
    options.agal.assembly = Some((stage, version));
    match nvp4c::check(&text, &options) {
        Ok((_, warnings)) if !warnings.is_empty() => {
            write_stderr(&reporter.diagnostics_text(&warnings, &name, &text))?
        }
        Ok(_) => {}
        Err(d) => return failed(&d, &text),
    }
    Ok(write_one(
        &args.input,
        destination("agal"),
        "the bytecode",
        assembled.bytes,
        &reporter,
    )?
    .unwrap_or(0))
}
