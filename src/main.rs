//! The `nvp4c` command line: a thin shell over the library.

mod cli;

use clap::{Parser, Subcommand, ValueEnum};
use nvp4c::{Diagnostics, Options, TargetEnv};
use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// mimalloc instead of glibc's malloc: the compiler allocates and frees
/// many small nodes, where glibc spent a third of the time of a big compile
/// (docs/performance.md).
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Compile an NV_gpu_program4 assembly program (`!!NVvp4.0`, `!!NVfp4.0`,
/// `!!NVgp4.0`) or a Direct3D 9 shader (bytecode, vs_1_1 to ps_3_0) to
/// Vulkan SPIR-V. The program type comes from the header or version token.
#[derive(Parser, Debug)]
#[command(name = "nvp4c", version, about, long_about = None, args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,

    /// Input program; `-` reads standard input.
    #[arg(required = true)]
    input: Option<PathBuf>,

    /// Output file; `-` writes standard output. Default: the input's name
    /// with `.spv` (or `.spvasm`), or standard output when reading stdin.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,

    /// Vulkan environment to produce and validate SPIR-V for.
    #[arg(long, value_enum, default_value_t = Env::Vulkan1_0)]
    target_env: Env,

    /// What to write: the SPIR-V binary, or its disassembly.
    #[arg(long, value_enum, default_value_t = Emit::Spirv)]
    emit: Emit,

    /// Descriptor set for uniform blocks and textures (default: 0 vertex,
    /// 1 geometry, 2 fragment; see docs/interface.md).
    #[arg(long, value_name = "N")]
    descriptor_set: Option<u32>,

    /// Skip the in-process spirv-val run (not recommended).
    #[arg(long)]
    no_validate: bool,

    /// Ask the driver to keep signed zeros, infinities and NaNs
    /// (SignedZeroInfNanPreserve; needs VK_KHR_shader_float_controls).
    #[arg(long)]
    preserve_signed_zero_inf_nan: bool,

    /// Optimise the module (spirv-tools performance passes), then validate it again.
    #[arg(short = 'O', long)]
    optimize: bool,

    /// Treat warnings as errors.
    #[arg(long)]
    deny_warnings: bool,

    /// Colour in diagnostics.
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    color: Color,

    /// How to print diagnostics: as text, or one JSON object per line
    /// (docs/json-diagnostics.md).
    #[arg(long, value_enum, default_value_t = MessageFormat::Human)]
    message_format: MessageFormat,

    /// Also write the module's reflection (bindings, Locations, block
    /// offsets, Cg names) as JSON to FILE (docs/reflection.md).
    #[arg(long, value_name = "FILE")]
    reflect: Option<PathBuf>,

    #[command(flatten)]
    d3d9: cli::d3d9_args::D3d9Args,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run a program in the reference interpreter on given inputs and print
    /// its results (no GPU needed).
    Run(cli::run::RunArgs),
    /// Compile a vertex, optional geometry and fragment program and check
    /// that each stage's attributes are written by the one before it.
    Link(cli::link::LinkArgs),
    /// Run the language server on standard input/output (diagnostics,
    /// hover, go to definition, document symbols).
    Lsp,
    /// Print the disassembly of a shader bytecode file (Direct3D 9) and
    /// the problems found in it.
    Disasm(cli::disasm::DisasmArgs),
    /// Assemble Direct3D 9 shader assembly (Microsoft's syntax, as `disasm`
    /// prints it) to bytecode.
    Asm(cli::asm::AsmArgs),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum MessageFormat {
    Human,
    Json,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Env {
    #[value(name = "vulkan1.0")]
    Vulkan1_0,
    #[value(name = "vulkan1.1")]
    Vulkan1_1,
    #[value(name = "vulkan1.2")]
    Vulkan1_2,
    #[value(name = "vulkan1.3")]
    Vulkan1_3,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Emit {
    Spirv,
    Spvasm,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Color {
    Auto,
    Always,
    Never,
}

/// Exit codes: 0 success, 1 the program has errors (or the output could not
/// be written), 2 bad usage (clap's own code) or an unreadable input.
const EXIT_PROGRAM_ERROR: u8 = 1;
const EXIT_USAGE: u8 = 2;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Run(args)) => cli::run::main(args),
        Some(Command::Link(args)) => cli::link::main(args),
        Some(Command::Lsp) => lsp_main(),
        Some(Command::Disasm(args)) => cli::disasm::main(args),
        Some(Command::Asm(args)) => cli::asm::main(args),
        None => compile_main(cli),
    }
}

fn compile_main(cli: Cli) -> ExitCode {
    let Some(input) = cli.input.clone() else {
        eprintln!("error: an input program is required");
        return ExitCode::from(EXIT_USAGE);
    };
    let stdin = input.as_os_str() == "-";
    let display_name = if stdin {
        "<stdin>".to_string()
    } else {
        input.display().to_string()
    };
    let bytes = match read_input(&input, stdin) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: cannot read {display_name}: {e}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let color = match cli.color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
    };
    // Bytecode is recognised by its first bytes; its diagnostics point into
    // its disassembly.
    let bytecode = nvp4c::front::Format::of(&bytes).is_some();
    let source = match nvp4c::source_text(&bytes) {
        _ if bytecode => nvp4c::source_listing(&bytes).into_owned(),
        Ok(s) => s.to_string(),
        Err(diags) => {
            let lossy = String::from_utf8_lossy(&bytes);
            report(&diags, &display_name, &lossy, color, cli.message_format);
            return ExitCode::from(EXIT_PROGRAM_ERROR);
        }
    };
    let mut options = Options::default();
    options.target_env = match cli.target_env {
        Env::Vulkan1_0 => TargetEnv::Vulkan1_0,
        Env::Vulkan1_1 => TargetEnv::Vulkan1_1,
        Env::Vulkan1_2 => TargetEnv::Vulkan1_2,
        Env::Vulkan1_3 => TargetEnv::Vulkan1_3,
    };
    options.validate = !cli.no_validate;
    options.preserve_signed_zero_inf_nan = cli.preserve_signed_zero_inf_nan;
    options.optimize = cli.optimize;
    options.descriptor_set = cli.descriptor_set;
    if let Err(e) = cli.d3d9.apply(&mut options) {
        eprintln!("error: {e}");
        return ExitCode::from(EXIT_USAGE);
    }

    let result = if bytecode {
        nvp4c::compile_bytes(&bytes, &options)
    } else {
        nvp4c::compile(&source, &options)
    };
    let compiled = match result {
        Ok(c) => c,
        Err(diags) => {
            report(&diags, &display_name, &source, color, cli.message_format);
            if cli.message_format == MessageFormat::Human {
                let n = diags.iter().filter(|d| d.is_error()).count();
                eprintln!(
                    "error: could not compile {display_name} ({n} error{})",
                    if n == 1 { "" } else { "s" }
                );
            }
            return ExitCode::from(EXIT_PROGRAM_ERROR);
        }
    };
    if !compiled.warnings.is_empty() {
        report(
            &compiled.warnings,
            &display_name,
            &source,
            color,
            cli.message_format,
        );
        if cli.deny_warnings {
            if cli.message_format == MessageFormat::Human {
                eprintln!("error: warnings are denied (--deny-warnings)");
            }
            return ExitCode::from(EXIT_PROGRAM_ERROR);
        }
    }
    let payload: Vec<u8> = match cli.emit {
        Emit::Spirv => compiled
            .spirv
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect(),
        Emit::Spvasm => match nvp4c::spirv::disassemble(&compiled.spirv) {
            Ok(text) => text.into_bytes(),
            Err(e) => {
                eprintln!("error: internal compiler error: cannot disassemble the module: {e}");
                return ExitCode::from(EXIT_PROGRAM_ERROR);
            }
        },
    };
    let output = match &cli.output {
        Some(p) => p.clone(),
        None if stdin => PathBuf::from("-"),
        None => input.with_extension(if cli.emit == Emit::Spirv {
            "spv"
        } else {
            "spvasm"
        }),
    };
    let reflection = match &cli.reflect {
        Some(path) => match serde_json::to_vec_pretty(&compiled.reflection) {
            Ok(mut json) => {
                json.push(b'\n');
                Some((path, json))
            }
            Err(e) => {
                eprintln!("error: internal compiler error: cannot serialise the reflection: {e}");
                return ExitCode::from(EXIT_PROGRAM_ERROR);
            }
        },
        None => None,
    };
    if let Err(e) = write_output(&output, &payload) {
        eprintln!("error: cannot write {}: {e}", output.display());
        return ExitCode::from(EXIT_PROGRAM_ERROR);
    }
    if let Some((path, json)) = reflection {
        if let Err(e) = write_output(path, &json) {
            eprintln!("error: cannot write {}: {e}", path.display());
            return ExitCode::from(EXIT_PROGRAM_ERROR);
        }
    }
    ExitCode::SUCCESS
}

/// Prints diagnostics to stderr: rendered like rustc's, or one JSON object
/// per line (docs/json-diagnostics.md).
fn report(diags: &Diagnostics, file: &str, source: &str, color: bool, format: MessageFormat) {
    match format {
        MessageFormat::Human => eprint!("{}", diags.render(file, source, color)),
        MessageFormat::Json => {
            let mut err = std::io::stderr().lock();
            for d in nvp4c::diag::json::all_to_json(diags, file, source) {
                // A diagnostic always serialises. A failed write to stderr
                // is ignored: there is nowhere left to report it.
                if let Ok(line) = serde_json::to_string(&d) {
                    let _ = writeln!(err, "{line}");
                }
            }
        }
    }
}

/// `nvp4c lsp`: the language server on standard input/output.
fn lsp_main() -> ExitCode {
    let (connection, io_threads) = lsp_server::Connection::stdio();
    let served = nvp4c::lsp::serve(&connection);
    drop(connection);
    let joined = io_threads.join();
    match (served, joined) {
        (Ok(()), Ok(())) => ExitCode::SUCCESS,
        (Err(e), _) => {
            eprintln!("error: language server: {e}");
            ExitCode::from(EXIT_PROGRAM_ERROR)
        }
        (_, Err(e)) => {
            eprintln!("error: language server I/O: {e}");
            ExitCode::from(EXIT_PROGRAM_ERROR)
        }
    }
}

fn read_input(path: &Path, stdin: bool) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    if stdin {
        std::io::stdin().lock().read_to_end(&mut bytes)?;
    } else {
        bytes = std::fs::read(path)?;
    }
    Ok(bytes)
}

#[cfg(unix)]
fn new_file_permissions() -> Option<std::fs::Permissions> {
    use std::os::unix::fs::PermissionsExt;
    Some(std::fs::Permissions::from_mode(0o666))
}

#[cfg(not(unix))]
fn new_file_permissions() -> Option<std::fs::Permissions> {
    None
}

/// Writes atomically: a temporary file beside the target, renamed over it,
/// so an interrupted or failed run leaves the old file (or none).
pub(crate) fn write_output(path: &Path, payload: &[u8]) -> std::io::Result<()> {
    if path.as_os_str() == "-" {
        let mut out = std::io::stdout().lock();
        out.write_all(payload)?;
        return out.flush();
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    // A temporary file is private (0600); the output is not: a replaced file
    // keeps its permissions, a new one gets what any new file gets (0666
    // less the umask, which open(2) applies).
    let permissions = match std::fs::metadata(path) {
        Ok(m) => Some(m.permissions()),
        Err(_) => new_file_permissions(),
    };
    let mut builder = tempfile::Builder::new();
    if let Some(p) = permissions {
        builder.permissions(p);
    }
    let mut tmp = builder.tempfile_in(dir).map_err(|e| {
        // tempfile's error names its random temporary path, which the user
        // never asked for: report the directory's own error if it has one,
        // else the kind of failure.
        std::fs::metadata(dir)
            .err()
            .unwrap_or_else(|| std::io::Error::from(e.kind()))
    })?;
    tmp.write_all(payload)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}
