//! `nvp4c INPUT...`: compile one program, or several in parallel (batch
//! mode), or only check them (`--check`).
//!
//! ```text
//! nvp4c prog.fp -o prog.spv --reflect prog.json
//! nvp4c shaders/*.vp shaders/*.fp --out-dir build/spirv
//! nvp4c --check shaders/*.fp
//! ```
//!
//! Each input is a unit: its outputs (module and reflection) are all
//! written or none is (`output::write_all`); in batch mode an input that
//! fails does not stop the others, and the exit code is the worst of them.

use super::output::{self, Contents, Destination, Input, Output};
use super::report::{Reporter, Summary};
use super::stdio::{write_stderr, Outcome, StreamError, EXIT_PROGRAM_ERROR, EXIT_USAGE};
use clap::ArgMatches;
use nvp4c::{Diagnostics, Options};
use std::io::{IsTerminal, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// What to write for each input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Emit {
    /// The SPIR-V binary.
    Spirv,
    /// Its disassembly (text).
    Spvasm,
}

impl Emit {
    fn extension(self) -> &'static str {
        match self {
            Emit::Spirv => "spv",
            Emit::Spvasm => "spvasm",
        }
    }
}

/// The arguments of a compile.
#[derive(clap::Args, Debug, Clone)]
pub struct CompileArgs {
    /// Input programs; `-` reads standard input. Several are compiled in
    /// parallel (batch mode).
    #[arg(value_name = "INPUT", required_unless_present_any = ["explain"])]
    pub inputs: Vec<PathBuf>,

    /// Output file; `-` writes standard output. Default: the input's name
    /// with `.spv` (or `.spvasm`), or standard output when reading stdin.
    #[arg(short, long, value_name = "FILE", help_heading = "Output")]
    pub output: Option<PathBuf>,

    /// Write each output into DIR (created if missing), named after its
    /// input's whole file name: `a.fp` gives DIR/a.fp.spv, so a pipeline's
    /// `a.vp` and `a.fp` do not collide.
    #[arg(
        long,
        value_name = "DIR",
        conflicts_with = "output",
        help_heading = "Output"
    )]
    pub out_dir: Option<PathBuf>,

    /// What to write: the SPIR-V binary, or its disassembly.
    #[arg(long, value_enum, default_value_t = Emit::Spirv, help_heading = "Output")]
    pub emit: Emit,

    /// Also write the module's reflection (bindings, Locations, block
    /// offsets, Cg names) as JSON to FILE (docs/reflection.md).
    #[arg(long, value_name = "FILE", help_heading = "Output")]
    pub reflect: Option<PathBuf>,

    /// Check and validate only: write nothing.
    #[arg(short = 'c', long, conflicts_with_all = ["output", "out_dir", "reflect"], help_heading = "Output")]
    pub check: bool,

    /// The name standard input's program has in messages (default: `<stdin>`).
    #[arg(long, value_name = "NAME", help_heading = "Messages")]
    pub stdin_name: Option<String>,

    #[command(flatten)]
    pub compile: super::CompileOptions,
}

/// One input and where its outputs go.
struct Job {
    /// `None`: standard input.
    input: Option<PathBuf>,
    /// The name in messages.
    name: String,
    module: Option<Destination>,
    reflection: Option<Destination>,
}

/// What compiling one input came to.
#[derive(Default)]
struct JobResult {
    code: u8,
    /// Everything to print on standard error, in order.
    messages: String,
    errors: usize,
    warnings: usize,
}

/// `nvp4c INPUT...`. `matches` are the whole command line's (for the order
/// of the warning options).
pub fn main(args: &CompileArgs, matches: &ArgMatches) -> Outcome {
    let reporter = Reporter::new(args.compile.message_format, args.compile.color);
    let options = match args.compile.options(matches) {
        Ok(o) => o,
        Err(message) => {
            reporter.error(&message)?;
            return Ok(EXIT_USAGE);
        }
    };
    let jobs = match plan(args) {
        Ok(jobs) => jobs,
        Err(message) => {
            reporter.error(&message)?;
            return Ok(EXIT_USAGE);
        }
    };
    if jobs.len() == 1 {
        single(&jobs[0], args, &options, &reporter)
    } else {
        batch(&jobs, args, &options, &reporter)
    }
}

/// Decides every input's outputs, and refuses what cannot be done.
fn plan(args: &CompileArgs) -> Result<Vec<Job>, String> {
    let batch = args.inputs.len() > 1;
    let stdin_name = args.stdin_name.as_deref().unwrap_or("<stdin>");
    if batch {
        if args.inputs.iter().any(|p| p.as_os_str() == "-") {
            return Err("standard input (`-`) cannot be one of several inputs".into());
        }
        if args.output.is_some() {
            return Err(
                "-o names the output of one input; with several inputs use --out-dir DIR".into(),
            );
        }
        if args.reflect.is_some() {
            return Err("--reflect names the reflection of one input; compile each program on its own to write its reflection".into());
        }
    }
    let ext = args.emit.extension();
    let mut jobs = Vec::with_capacity(args.inputs.len());
    for path in &args.inputs {
        let stdin = path.as_os_str() == "-";
        let name = if stdin {
            stdin_name.to_string()
        } else {
            path.display().to_string()
        };
        let module = if args.check {
            None
        } else if let Some(o) = &args.output {
            Some(Destination::from_arg(o))
        } else if let Some(dir) = &args.out_dir {
            let file_name = if stdin {
                Path::new(stdin_name)
                    .file_name()
                    .map(|n| n.to_os_string())
                    .unwrap_or_else(|| "stdin".into())
            } else {
                path.file_name()
                    .map(|n| n.to_os_string())
                    .ok_or_else(|| format!("{name} has no file name to name its output after"))?
            };
            let mut file_name = file_name;
            file_name.push(".");
            file_name.push(ext);
            Some(Destination::File(dir.join(file_name)))
        } else if stdin {
            Some(Destination::Stdout)
        } else {
            Some(Destination::File(path.with_extension(ext)))
        };
        jobs.push(Job {
            input: (!stdin).then(|| path.clone()),
            name,
            module,
            reflection: args.reflect.as_deref().map(Destination::from_arg),
        });
    }
    // Binary on a terminal is noise at best; nobody wants it there.
    let to_terminal = jobs.iter().any(|j| j.module == Some(Destination::Stdout))
        && args.emit == Emit::Spirv
        && std::io::stdout().is_terminal();
    if to_terminal {
        return Err("refusing to write binary SPIR-V to a terminal: name an output file with -o FILE, or write the disassembly with --emit spvasm".into());
    }
    let inputs: Vec<Input> = jobs
        .iter()
        .map(|j| match &j.input {
            Some(p) => Input::File(p),
            None => Input::Stdin,
        })
        .collect();
    let mut outputs: Vec<(Destination, String)> = Vec::new();
    for j in &jobs {
        let of = if batch {
            format!(" of {}", j.name)
        } else {
            String::new()
        };
        if let Some(m) = &j.module {
            outputs.push((m.clone(), format!("the module{of}")));
        }
        if let Some(r) = &j.reflection {
            outputs.push((r.clone(), format!("the reflection{of}")));
        }
    }
    if let Err(clash) = output::refuse_clashes(&inputs, &outputs) {
        // Say which flag gives distinct names when two inputs collide.
        let hint = match clash {
            output::Clash::SharedFile(_) if batch && args.out_dir.is_none() => {
                " (--out-dir DIR names each output after its input's whole file name)"
            }
            _ => "",
        };
        return Err(format!("{clash}{hint}"));
    }
    Ok(jobs)
}

/// Reads, compiles and prepares one input's outputs; the diagnostics go in
/// `result.messages`. `None` outputs: nothing to write (an error, or
/// `--check`).
fn prepare(
    job: &Job,
    emit: Emit,
    options: &Options,
    agal: &super::agal_args::AgalArgs,
    reporter: &Reporter,
    result: &mut JobResult,
) -> Option<Vec<Output>> {
    let bytes = match &job.input {
        None => {
            let mut b = Vec::new();
            std::io::stdin().lock().read_to_end(&mut b).map(|_| b)
        }
        Some(path) => std::fs::read(path),
    };
    let bytes = match bytes {
        Ok(b) => b,
        Err(e) => {
            result.messages += &reporter.message_text(
                super::report::Level::Error,
                &format!("cannot read {}: {e}", job.name),
            );
            result.errors += 1;
            result.code = EXIT_USAGE;
            return None;
        }
    };
    // Bytecode is recognised by its first bytes; its diagnostics point into
    // its disassembly.
    let bytecode = nvp4c::front::Format::of(&bytes).is_some();
    let source = match nvp4c::source_text(&bytes) {
        _ if bytecode => nvp4c::source_listing(&bytes),
        Ok(s) => s,
        Err(diags) => {
            let shown = String::from_utf8_lossy(&bytes);
            failed(job, &diags, &shown, reporter, result);
            return None;
        }
    };
    // Debug information names the program after its input; AGAL flags
    // decide how this input's text is read.
    let named;
    let options = if options.debug_info || agal.agal_stage.is_some() || agal.agal_version.is_some()
    {
        let mut o = options.clone();
        if o.debug_info {
            o.source_name = Some(job.name.clone());
        }
        if !bytecode {
            if let Err(message) = agal.apply_to_text(&source, &mut o) {
                result.messages += &reporter.message_text(
                    super::report::Level::Error,
                    &format!("{}: {message}", job.name),
                );
                result.errors += 1;
                result.code = EXIT_USAGE;
                return None;
            }
        }
        named = o;
        &named
    } else {
        options
    };
    let mut compiled = match if bytecode {
        nvp4c::compile_bytes(&bytes, options)
    } else {
        nvp4c::compile(&source, options)
    } {
        Ok(c) => c,
        Err(diags) => {
            failed(job, &diags, &source, reporter, result);
            return None;
        }
    };
    result.warnings += compiled.warnings.len();
    if !compiled.warnings.is_empty() {
        result.messages += &reporter.diagnostics_text(&compiled.warnings, &job.name, &source);
    }
    let internal = |result: &mut JobResult, what: String| {
        result.messages += &reporter.message_text(
            super::report::Level::Error,
            &format!("internal compiler error: {what}"),
        );
        result.errors += 1;
        result.code = EXIT_PROGRAM_ERROR;
    };
    let mut outputs = Vec::new();
    if let Some(destination) = &job.module {
        let contents = match emit {
            // The words themselves, not a byte copy of them (output.rs).
            Emit::Spirv => Contents::Words(std::mem::take(&mut compiled.spirv)),
            Emit::Spvasm => match nvp4c::spirv::disassemble(&compiled.spirv) {
                Ok(text) => Contents::Bytes(text.into_bytes()),
                Err(e) => {
                    internal(result, format!("cannot disassemble the module: {e}"));
                    return None;
                }
            },
        };
        outputs.push(Output {
            destination: destination.clone(),
            contents,
        });
    }
    if let Some(destination) = &job.reflection {
        match serde_json::to_vec_pretty(&compiled.reflection) {
            Ok(mut json) => {
                json.push(b'\n');
                outputs.push(Output {
                    destination: destination.clone(),
                    contents: Contents::Bytes(json),
                });
            }
            Err(e) => {
                internal(result, format!("cannot serialise the reflection: {e}"));
                return None;
            }
        }
    }
    Some(outputs)
}

fn failed(job: &Job, diags: &Diagnostics, source: &str, reporter: &Reporter, r: &mut JobResult) {
    r.messages += &reporter.diagnostics_text(diags, &job.name, source);
    r.messages += &reporter.could_not_compile_text(&job.name, diags);
    r.errors += diags.iter().filter(|d| d.is_error()).count();
    r.warnings += diags.iter().filter(|d| !d.is_error()).count();
    r.code = EXIT_PROGRAM_ERROR;
}

/// Writes one input's outputs. A closed standard output comes back as a
/// stream error (the command ends quietly); other failures are messages.
fn write(
    outputs: &[Output],
    reporter: &Reporter,
    result: &mut JobResult,
) -> Result<(), StreamError> {
    match output::write_all(outputs) {
        Ok(()) => Ok(()),
        Err(e)
            if e.destination == Destination::Stdout
                && e.error.kind() == std::io::ErrorKind::BrokenPipe =>
        {
            Err(StreamError::stdout(e.error))
        }
        Err(e) => {
            result.messages += &reporter.message_text(super::report::Level::Error, &e.to_string());
            result.errors += 1;
            result.code = EXIT_PROGRAM_ERROR;
            Ok(())
        }
    }
}

fn single(job: &Job, args: &CompileArgs, options: &Options, reporter: &Reporter) -> Outcome {
    let mut result = JobResult::default();
    let outputs = prepare(
        job,
        args.emit,
        options,
        &args.compile.agal,
        reporter,
        &mut result,
    );
    // The diagnostics first: they are printed even if writing fails.
    write_stderr(&std::mem::take(&mut result.messages))?;
    if let Some(outputs) = outputs {
        write(&outputs, reporter, &mut result)?;
        write_stderr(&result.messages)?;
    }
    Ok(result.code)
}

/// Compiles every input on all cores; prints each input's messages in
/// input order as soon as it and those before it are done, with a
/// progress bar when standard error is a terminal, then a summary.
fn batch(jobs: &[Job], args: &CompileArgs, options: &Options, reporter: &Reporter) -> Outcome {
    if let Some(dir) = &args.out_dir {
        if let Err(e) = std::fs::create_dir_all(dir) {
            reporter.error(&format!("cannot create {}: {e}", dir.display()))?;
            return Ok(EXIT_PROGRAM_ERROR);
        }
    }
    let progress = (reporter.format == super::report::MessageFormat::Human
        && std::io::stderr().is_terminal())
    .then(|| {
        let bar = indicatif::ProgressBar::with_draw_target(
            Some(jobs.len() as u64),
            indicatif::ProgressDrawTarget::stderr(),
        );
        if let Ok(style) =
            indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} {wide_msg}")
        {
            bar.set_style(style);
        }
        bar
    });
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(jobs.len());
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (sender, receiver) = std::sync::mpsc::channel::<(usize, JobResult)>();
    let mut summary = Summary {
        programs: jobs.len(),
        checked_only: args.check,
        ..Summary::default()
    };
    let mut worst = 0u8;
    let printed: Result<(), StreamError> = std::thread::scope(|scope| {
        for _ in 0..workers {
            let sender = sender.clone();
            let (next, stop) = (&next, &stop);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= jobs.len() || stop.load(Ordering::Relaxed) {
                    break;
                }
                let mut result = JobResult::default();
                if let Some(outputs) = prepare(
                    &jobs[i],
                    args.emit,
                    options,
                    &args.compile.agal,
                    reporter,
                    &mut result,
                ) {
                    // Batch outputs are files: standard output is never one.
                    let _ = write(&outputs, reporter, &mut result);
                }
                if sender.send((i, result)).is_err() {
                    break;
                }
            });
        }
        drop(sender);
        let mut done: Vec<Option<JobResult>> = jobs.iter().map(|_| None).collect();
        let mut shown = 0;
        for (i, result) in receiver.iter() {
            done[i] = Some(result);
            while let Some(Some(r)) = done.get(shown) {
                let text = &r.messages;
                let print = || write_stderr(text);
                let outcome = match &progress {
                    Some(bar) => bar.suspend(print),
                    None => print(),
                };
                if let Err(e) = outcome {
                    stop.store(true, Ordering::Relaxed);
                    return Err(e);
                }
                summary.errors += r.errors;
                summary.warnings += r.warnings;
                if r.code == 0 {
                    summary.succeeded += 1;
                } else {
                    summary.failed += 1;
                }
                worst = worst.max(r.code);
                if let Some(bar) = &progress {
                    bar.set_message(jobs[shown].name.clone());
                    bar.inc(1);
                }
                shown += 1;
            }
        }
        Ok(())
    });
    if let Some(bar) = &progress {
        bar.finish_and_clear();
    }
    printed?;
    write_stderr(&reporter.summary_text(&summary))?;
    Ok(worst)
}
