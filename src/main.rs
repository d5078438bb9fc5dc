//! The `nvp4c` command line: a thin shell over the library (the jobs are in
//! `cli/`: compile, link, run, disasm/asm, explain, completions and man
//! page).

mod cli;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use cli::stdio::{self, write_stderr, Outcome, StreamError, EXIT_PROGRAM_ERROR};
use std::process::ExitCode;

/// mimalloc instead of glibc's malloc: the compiler allocates and frees
/// many small nodes, where glibc spent a third of the time of a big compile
/// (docs/performance.md).
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const EXAMPLES: &str = "\
Examples:
  nvp4c prog.fp                        compile to prog.spv
  nvp4c prog.fp -o - --emit spvasm     print the disassembly
  nvp4c prog.vp -o prog.spv --reflect prog.json
  nvp4c shaders/*.fp shaders/*.vp --out-dir build/    batch, on all cores
  nvp4c -c shaders/*.fp -D warnings    check only, warnings are errors
  cgc -profile gp4fp x.cg | nvp4c - --stdin-name x.cg -o x.spv
  nvp4c --explain E0404                what an error code means
  nvp4c link a.vp a.fp                 check that two stages fit
  nvp4c shader.agal                    AGAL bytecode (recognised by its first byte)
  nvp4c --agal-stage fragment --agal-version 2 shader.txt    AGAL assembly
  nvp4c shader.pso                     Direct3D 9 bytecode (by its version token)
  nvp4c disasm shader.agal             bytecode to assembly
  nvp4c asm shader.asm -o shader.pso   assembly (Direct3D 9 or AGAL) to bytecode

Exit codes: 0 success; 1 a program has errors or an output could not be
written; 2 bad usage, an unreadable input, or a refused output; 141 a
closed pipe on standard output or error (as for any program a pipe ends).";

/// Compile NVIDIA assembly GPU programs (`!!NVvp4.0`, `!!NVfp4.0`,
/// `!!NVgp4.0`), Adobe AGAL programs (Stage3D bytecode, or
/// AGALMiniAssembler text) and Direct3D 9 shaders (bytecode, vs_1_1 to
/// ps_3_0) to Vulkan SPIR-V. The program type comes from the header or
/// the version token; AGAL text names it on its first line (`// AGAL2
/// vertex`) or with --agal-stage.
#[derive(Parser, Debug)]
#[command(
    name = "nvp4c",
    version = cli::generate::VERSION,
    about,
    after_help = EXAMPLES,
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,

    #[command(flatten)]
    compile: cli::compile::CompileArgs,

    /// Print the documentation of a diagnostic code (e.g. E0404) and exit.
    #[arg(long, value_name = "CODE", exclusive = true)]
    explain: Option<String>,
}

// One value per process, parsed once: its size costs nothing, and boxing
// the large variant would only add an allocation.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand, Debug)]
enum Command {
    /// Run a program in the reference interpreter on given inputs and print
    /// its results (no GPU needed).
    Run(cli::run::RunArgs),
    /// Compile a vertex, optional geometry and fragment program and check
    /// that each stage's attributes are written by the one before it.
    Link(cli::link::LinkArgs),
    /// Disassemble bytecode (AGAL, Direct3D 9) into the assembly its
    /// assembler takes, and print the problems found in it.
    Disasm(cli::bytecode::DisasmArgs),
    /// Assemble Direct3D 9 assembly (Microsoft's syntax) or AGAL assembly
    /// (byte for byte as Adobe's AGALMiniAssembler does) into bytecode, and
    /// check it.
    Asm(cli::bytecode::AsmArgs),
    /// Run the language server on standard input/output (diagnostics,
    /// hover, go to definition, document symbols).
    Lsp,
    /// Print a shell completion script: `nvp4c completions bash >
    /// /etc/bash_completion.d/nvp4c`.
    Completions(cli::generate::CompletionsArgs),
    /// Print the man page (roff): `nvp4c man | man -l -`.
    Man(cli::generate::ManArgs),
}

fn main() -> ExitCode {
    #[cfg(feature = "mimalloc")]
    nvp4c::return_freed_memory_at_once();
    let command = Cli::command().long_version(cli::generate::long_version());
    let matches = match command.try_get_matches() {
        Ok(m) => m,
        Err(e) => return stdio::exit_code(usage_error(e)),
    };
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(c) => c,
        Err(e) => return stdio::exit_code(usage_error(e)),
    };
    let outcome = match &cli.command {
        Some(Command::Run(args)) => cli::run::main(args),
        Some(Command::Link(args)) => match matches.subcommand_matches("link") {
            Some(m) => cli::link::main(args, m),
            None => Ok(EXIT_PROGRAM_ERROR),
        },
        Some(Command::Disasm(args)) => cli::bytecode::disasm_main(args),
        Some(Command::Asm(args)) => cli::bytecode::asm_main(args),
        Some(Command::Lsp) => lsp_main(),
        Some(Command::Completions(args)) => cli::generate::completions(args, Cli::command()),
        Some(Command::Man(args)) => cli::generate::man(args, Cli::command()),
        None => match &cli.explain {
            Some(code) => cli::explain::main(code),
            None => cli::compile::main(&cli.compile, &matches),
        },
    };
    stdio::exit_code(outcome)
}

/// Prints clap's message (help and version on standard output, errors on
/// standard error; with `--message-format json` an error is a JSON record
/// like every other message) and gives its exit code.
fn usage_error(e: clap::Error) -> Outcome {
    use clap::error::ErrorKind;
    let code = e.exit_code() as u8;
    let on_stdout = matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion);
    if !on_stdout && json_requested() {
        let rendered = e.render().to_string();
        let message = rendered
            .lines()
            .next()
            .unwrap_or_default()
            .trim_start_matches("error: ")
            .to_string();
        let reporter = cli::report::Reporter::new(
            cli::report::MessageFormat::Json,
            cli::report::ColorChoice::Never,
        );
        write_stderr(&reporter.message_text_rendered(
            cli::report::Level::Error,
            &message,
            &rendered,
        ))?;
        return Ok(code);
    }
    e.print().map_err(|error| {
        if on_stdout {
            StreamError::stdout(error)
        } else {
            StreamError::stderr(error)
        }
    })?;
    Ok(code)
}

/// Whether the command line asks for JSON messages, read from the raw
/// arguments (for the messages of a command line clap could not parse).
fn json_requested() -> bool {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    args.iter().any(|a| a == "--message-format=json")
        || args
            .windows(2)
            .any(|w| w[0] == "--message-format" && w[1] == "json")
}

/// `nvp4c lsp`: the language server on standard input/output.
fn lsp_main() -> Outcome {
    let (connection, io_threads) = lsp_server::Connection::stdio();
    let served = nvp4c::lsp::serve(&connection);
    drop(connection);
    let joined = io_threads.join();
    match (served, joined) {
        (Ok(()), Ok(())) => Ok(0),
        (Err(e), _) => {
            write_stderr(&format!("error: language server: {e}\n"))?;
            Ok(EXIT_PROGRAM_ERROR)
        }
        (_, Err(e)) => {
            write_stderr(&format!("error: language server I/O: {e}\n"))?;
            Ok(EXIT_PROGRAM_ERROR)
        }
    }
}
