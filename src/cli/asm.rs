//! `nvp4c asm`: Direct3D 9 shader assembly (Microsoft's syntax, as `nvp4c
//! disasm` prints it) to a bytecode file. It encodes what it reads; the
//! compiler checks the result (`nvp4c shader.d3dbc` or `nvp4c disasm`).
//!
//! Exit codes: 0 written, 1 the text cannot be encoded or the output not
//! written, 2 an unreadable input.

use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct AsmArgs {
    /// Assembly text; `-` reads standard input.
    pub input: PathBuf,

    /// Output file; `-` writes standard output. Default: the input's name
    /// with `.d3dbc`, or standard output when reading stdin.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

pub fn main(args: AsmArgs) -> ExitCode {
    let stdin = args.input.as_os_str() == "-";
    let name = if stdin {
        "<stdin>".to_string()
    } else {
        args.input.display().to_string()
    };
    let text = if stdin {
        let mut s = String::new();
        std::io::stdin().lock().read_to_string(&mut s).map(|_| s)
    } else {
        std::fs::read_to_string(&args.input)
    };
    let text = match text {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: cannot read {name}: {e}");
            return ExitCode::from(2);
        }
    };
    let bytes = match nvp4c::front::d3d9::assemble::assemble_bytes(&text) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: {name}: {e}");
            return ExitCode::from(1);
        }
    };
    let output = match &args.output {
        Some(p) => p.clone(),
        None if stdin => PathBuf::from("-"),
        None => args.input.with_extension("d3dbc"),
    };
    if let Err(e) = crate::write_output(&output, &bytes) {
        eprintln!("error: cannot write {}: {e}", output.display());
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}
