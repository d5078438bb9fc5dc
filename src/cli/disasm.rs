//! `nvp4c disasm`: a bytecode file's disassembly on standard output, its
//! problems (coded diagnostics pointing into that text) on standard error.
//!
//! Exit codes: 0 the shader is valid, 1 it has errors (the disassembly is
//! still printed as far as it could be decoded), 2 an unreadable file or
//! no bytecode format nvp4c knows.

use std::io::{IsTerminal, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct DisasmArgs {
    /// Bytecode file; `-` reads standard input.
    pub input: PathBuf,

    /// Colour in diagnostics.
    #[arg(long, value_enum, default_value_t = super::run::ColorChoice::Auto)]
    pub color: super::run::ColorChoice,
}

pub fn main(args: DisasmArgs) -> ExitCode {
    let stdin = args.input.as_os_str() == "-";
    let name = if stdin {
        "<stdin>".to_string()
    } else {
        args.input.display().to_string()
    };
    let bytes = if stdin {
        let mut b = Vec::new();
        std::io::stdin().lock().read_to_end(&mut b).map(|_| b)
    } else {
        std::fs::read(&args.input)
    };
    let bytes = match bytes {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: cannot read {name}: {e}");
            return ExitCode::from(2);
        }
    };
    let Some((text, diags)) = nvp4c::front::disassemble(&bytes) else {
        eprintln!("error: {name} is no bytecode nvp4c knows (a Direct3D 9 shader starts with a version token, 0xFFFEmmnn or 0xFFFFmmnn)");
        return ExitCode::from(2);
    };
    let color = match args.color {
        super::run::ColorChoice::Always => true,
        super::run::ColorChoice::Never => false,
        super::run::ColorChoice::Auto => {
            std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none()
        }
    };
    let mut out = std::io::stdout().lock();
    if out
        .write_all(text.as_bytes())
        .and_then(|_| out.flush())
        .is_err()
    {
        return ExitCode::from(1);
    }
    if !diags.is_empty() {
        eprint!("{}", diags.render(&name, &text, color));
    }
    if diags.has_errors() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
