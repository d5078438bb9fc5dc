//! `nvp4c run`: the reference interpreter on the command line.
//!
//! ```text
//! nvp4c run prog.fp --set fragment.texcoord[0]=0.5,0.25,0,1 --set program.local[0]=i:1,2,3,4 --trace
//! ```
//!
//! Exit codes: 0 the program ran (killed or not), 1 the program has errors
//! or could not be run (texture instructions, the step limit), 2 bad usage
//! (an unreadable file, a malformed `--set` or `--inputs`), 141 a closed
//! pipe (`nvp4c run --trace | head -1`; `cli::stdio`).

use super::report::ColorChoice;
use super::stdio::{write_stderr, StreamError, EXIT_PROGRAM_ERROR, EXIT_USAGE};
use nvp4c::interp::{self, Inputs, Outcome, ResultValue, RunOptions, TraceStep};
use nvp4c::isa::DataType;
use nvp4c::span::Span;
use nvp4c::Options;
use std::collections::{BTreeMap, BTreeSet};
use std::io::{self, Read, Write};
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
#[command(after_help = "\
Values are floats unless prefixed: i: signed, u: unsigned, x: hex bits
(e.g. x:3f800000). A prefix on the first value applies to the rest; any
value may carry its own. Missing components are filled with 0, 0, 1 as in
a constant vector {x, y}. program.buffer[b] takes any number of words.

Examples:
  nvp4c run prog.fp --set fragment.texcoord[0]=0.5,0.25,0,1
  nvp4c run prog.fp --set program.local[0]=i:1,2,3,4 --trace
  nvp4c run prog.vp --inputs inputs.json --json
  nvp4c run shader.agal --set va0=1,2,3,1 --set vc0=1,0,0,0
  nvp4c run shader.pso --set c0=1,0,0,1 --set t0=0.5,0.5

AGAL programs (bytecode, or text whose first line is `// AGAL2 vertex`)
take and print their register names: va<n>, vc<n>/fc<n>, v<n> (fragment),
iid; op, oc<n>, od, v<n> (vertex).

Direct3D 9 bytecode (recognised by its version token) names inputs as the
shader does: c5, i0, b3, v0, t1, vPos, vFace, a ps_3_0 semantic such as
texcoord0, and the state bumpenvmat[n], bumpenvl[n], position_offset;
results are named oC0, oPos, oT0, or by their semantic in vs_3_0.

An --inputs file is a JSON object with the same keys:
  {\"vertex.position\": [1, 2, 3, 1], \"program.env[0]\": \"u:7,8\",
   \"program.buffer[0]\": [\"x:3f800000\", \"i:-1\"]}")]
pub struct RunArgs {
    /// Program to run; `-` reads standard input.
    pub input: PathBuf,

    /// Set an input (repeatable): NAME=V[,V...], e.g.
    /// `fragment.texcoord[0]=0.5,0.25,0,1`, `program.local[2]=i:1,2,3,4`,
    /// `program.env[0]=x:3f800000`, `state.matrix.mvp.row[0]=1,0,0,0`.
    #[arg(long = "set", value_name = "NAME=VALUES")]
    pub set: Vec<String>,

    /// Read inputs from a JSON object file (keys as for --set; values an
    /// array of numbers or prefixed strings, or one string as for --set).
    /// --set values override the file.
    #[arg(long, value_name = "FILE")]
    pub inputs: Option<PathBuf>,

    /// Print each executed statement with its source text, the value it
    /// wrote (as float or integer, and hex) and the condition codes it set.
    #[arg(long)]
    pub trace: bool,

    /// Print the outcome as JSON instead of text.
    #[arg(long)]
    pub json: bool,

    /// Stop after this many executed statements.
    #[arg(long, value_name = "N", default_value_t = 10_000_000)]
    pub max_steps: u64,

    /// Colour in diagnostics.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
}

pub fn main(args: &RunArgs) -> super::stdio::Outcome {
    let color = args.color.for_stderr();
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
            write_stderr(&format!("error: cannot read {name}: {e}\n"))?;
            return Ok(EXIT_USAGE);
        }
    };
    // AGAL programs (bytecode, or text beginning `// AGAL2 vertex`) read
    // and write their own register names (`--set va0=...`, `op`).
    let agal = nvp4c::front::agal::program_stage(&bytes);
    let bytecode = nvp4c::front::Format::of(&bytes).is_some();
    // Direct3D 9 bytecode too: its register names name inputs and results
    // (`--set c5=...`, `oC0`), resolved against its declarations.
    let d3d9 = nvp4c::front::Format::of(&bytes) == Some(nvp4c::front::Format::D3d9);
    let source = match nvp4c::source_text(&bytes) {
        _ if bytecode => nvp4c::source_listing(&bytes).into_owned(),
        Ok(s) => s.into_owned(),
        Err(diags) => {
            let lossy = String::from_utf8_lossy(&bytes);
            write_stderr(&diags.render(&name, &lossy, color))?;
            return Ok(EXIT_PROGRAM_ERROR);
        }
    };

    // Named values, in order (the file first, --set overrides it).
    let mut values: Vec<NamedValue> = Vec::new();
    if let Some(path) = &args.inputs {
        if let Err(e) = read_inputs_file(path, &mut values) {
            write_stderr(&format!("error: {}: {e}\n", path.display()))?;
            return Ok(EXIT_USAGE);
        }
    }
    for s in &args.set {
        if let Err(e) = parse_set(s, &mut values) {
            write_stderr(&format!("error: --set {s}: {e}\n"))?;
            return Ok(EXIT_USAGE);
        }
    }
    // Stored now, or for Direct3D 9 once the program is known (its names
    // need the declarations).
    let mut inputs = Inputs::default();
    if !d3d9 {
        for v in &values {
            if let Err(e) = store(&v.name, v.words.clone(), v.kind, &mut inputs, agal) {
                write_stderr(&format!("error: {}: {e}\n", v.origin))?;
                return Ok(EXIT_USAGE);
            }
        }
    }

    let options = Options::default();
    let (program, warnings) = match nvp4c::check_bytes(&bytes, &options) {
        Ok(p) => p,
        Err(diags) => {
            let n = diags.iter().filter(|d| d.is_error()).count();
            write_stderr(&format!(
                "{}error: could not compile {name} ({n} error{})\n",
                diags.render(&name, &source, color),
                if n == 1 { "" } else { "s" }
            ))?;
            return Ok(EXIT_PROGRAM_ERROR);
        }
    };
    if !warnings.is_empty() {
        write_stderr(&warnings.render(&name, &source, color))?;
    }
    if d3d9 {
        for v in &values {
            if let Err(e) = store_d3d9(&bytes, &program, v, &mut inputs) {
                write_stderr(&format!("error: {}: {e}\n", v.origin))?;
                return Ok(EXIT_USAGE);
            }
        }
    }
    for w in unused_inputs(&program, &inputs) {
        let w = if d3d9 { d3d9_names(&w) } else { w };
        write_stderr(&format!("warning: {w}\n"))?;
    }

    let mut run_options = RunOptions::from_options(&options);
    run_options.trace = args.trace;
    run_options.max_steps = args.max_steps;
    let text = SourceText::new(&source);
    // Results go to standard output through one buffer; a closed pipe or a
    // full disk there is a stream error (`cli::stdio`), never a panic.
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let (printed, code) = match interp::run(&program, &inputs, &run_options) {
        Ok(mut outcome) => {
            if agal.is_some() {
                outcome.results = std::mem::take(&mut outcome.results)
                    .into_iter()
                    .map(|(k, v)| {
                        (
                            nvp4c::front::agal::names::result_register(&k).unwrap_or(k),
                            v,
                        )
                    })
                    .collect();
            }
            if d3d9 {
                // Results under the shader's register names (oC0, oPos, o3).
                let names = nvp4c::front::d3d9::names::result_names(&program);
                outcome.results = std::mem::take(&mut outcome.results)
                    .into_iter()
                    .map(|(k, v)| (names.get(&k).cloned().unwrap_or(k), v))
                    .collect();
            }
            let printed = if args.json {
                writeln!(out, "{}", outcome_json(&program, &outcome, &text))
            } else {
                (if args.trace {
                    print_trace(&mut out, &outcome, &text)
                } else {
                    Ok(())
                })
                .and_then(|()| print_outcome(&mut out, &program, &name, &outcome, &text, d3d9))
            };
            (printed, 0)
        }
        Err(interp::InterpError::StepLimit { limit, partial }) => {
            let printed = if args.trace && !args.json {
                print_trace(&mut out, &partial, &text)
            } else {
                Ok(())
            };
            printed
                .and_then(|()| out.flush())
                .map_err(StreamError::stdout)?;
            let mut message = format!(
                "error: {name}: stopped after {limit} executed statements; is there an endless loop? (raise the limit with --max-steps)\n"
            );
            for e in &partial.undefined {
                message += &format!(
                    "note: line {}: {} (undefined by the spec; the interpreter reads never-set flags as clear)\n",
                    text.line_of(e.span),
                    e.what
                );
            }
            write_stderr(&message)?;
            return Ok(EXIT_PROGRAM_ERROR);
        }
        Err(e) => {
            write_stderr(&match e.span() {
                Some(span) => format!(
                    "error: {name}:{}: {e}\n  | {}\n",
                    text.line_of(span),
                    text.snippet(span)
                ),
                None => format!("error: {name}: {e}\n"),
            })?;
            return Ok(EXIT_PROGRAM_ERROR);
        }
    };
    printed
        .and_then(|()| out.flush())
        .map_err(StreamError::stdout)?;
    Ok(code)
}

// ---------------------------------------------------------------------------
// Inputs

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Float,
    Signed,
    Unsigned,
    Hex,
}

fn split_prefix(s: &str) -> (Option<Kind>, &str) {
    let s = s.trim();
    for (p, k) in [
        ("i:", Kind::Signed),
        ("u:", Kind::Unsigned),
        ("x:", Kind::Hex),
        ("f:", Kind::Float),
    ] {
        if let Some(rest) = s.strip_prefix(p) {
            return (Some(k), rest.trim());
        }
    }
    (None, s)
}

fn parse_one(text: &str, kind: Kind) -> Result<u32, String> {
    match kind {
        Kind::Float => text.parse::<f32>().map(f32::to_bits).map_err(|_| {
            format!("`{text}` is not a number (use i:, u: or x: for integers and bits)")
        }),
        Kind::Signed => text
            .parse::<i32>()
            .map(|v| v as u32)
            .map_err(|_| format!("`{text}` is not a 32-bit signed integer")),
        Kind::Unsigned => text
            .parse::<u32>()
            .map_err(|_| format!("`{text}` is not a 32-bit unsigned integer")),
        Kind::Hex => {
            let t = text
                .strip_prefix("0x")
                .or_else(|| text.strip_prefix("0X"))
                .unwrap_or(text);
            u32::from_str_radix(t, 16).map_err(|_| format!("`{text}` is not 32 bits of hex"))
        }
    }
}

/// Parses values given as strings (a prefix on the first one is the
/// default for the rest); returns the words and the default kind.
fn parse_list<'a>(items: impl IntoIterator<Item = &'a str>) -> Result<(Vec<u32>, Kind), String> {
    let mut default = Kind::Float;
    let mut out = Vec::new();
    for (i, item) in items.into_iter().enumerate() {
        let (kind, text) = split_prefix(item);
        if i == 0 {
            if let Some(k) = kind {
                default = k;
            }
        }
        if text.is_empty() {
            return Err("empty value".into());
        }
        out.push(parse_one(text, kind.unwrap_or(default))?);
    }
    if out.is_empty() {
        return Err("no values".into());
    }
    Ok((out, default))
}

/// Stores `words` under `name`: buffers take any number of words; other
/// inputs one to four components, padded with 0, 0, 1 as a constant
/// vector is (section 2.X.3.3).
fn store(
    name: &str,
    words: Vec<u32>,
    kind: Kind,
    inputs: &mut Inputs,
    agal: Option<nvp4c::Stage>,
) -> Result<(), String> {
    let name = name.trim();
    let agal_name = agal.and_then(|stage| nvp4c::front::agal::names::input_name(stage, name));
    let name = agal_name.as_deref().unwrap_or(name);
    if let Some(rest) = name.strip_prefix("program.buffer[") {
        let b = rest
            .strip_suffix(']')
            .and_then(|n| n.trim().parse::<u32>().ok())
            .ok_or_else(|| {
                format!("`{name}`: expected program.buffer[N] (the whole buffer, as words)")
            })?;
        inputs.buffers.insert(b, words);
        return Ok(());
    }
    if words.len() > 4 {
        return Err(format!(
            "`{name}` takes at most 4 components, got {}",
            words.len()
        ));
    }
    let one = match kind {
        Kind::Float => 1.0f32.to_bits(),
        _ => 1,
    };
    let fill = [0, 0, 0, one];
    let mut v = fill;
    v[..words.len()].copy_from_slice(&words);
    inputs.set(name, v)
}

/// A value given on the command line or in the --inputs file.
struct NamedValue {
    name: String,
    words: Vec<u32>,
    kind: Kind,
    /// Where it came from, for messages (`--set NAME=...`, the file).
    origin: String,
}

/// Stores a value named as a Direct3D 9 shader names it (`c5`, `b0`, `v1`,
/// `texcoord0`, `bumpenvmat[0]`): docs/interface.md's bindings.
fn store_d3d9(
    bytes: &[u8],
    program: &nvp4c::ir::Program,
    v: &NamedValue,
    inputs: &mut Inputs,
) -> Result<(), String> {
    use nvp4c::front::d3d9::names::{run_input, RunInput};
    for target in run_input(bytes, program, &v.name)? {
        match target {
            RunInput::Binding(binding) => store(&binding, v.words.clone(), v.kind, inputs, None)?,
            RunInput::Words {
                buffer,
                word,
                count,
            } => {
                if v.words.len() > count {
                    return Err(format!(
                        "`{}` takes at most {count} value{}, got {}",
                        v.name,
                        if count == 1 { "" } else { "s" },
                        v.words.len()
                    ));
                }
                let words = inputs.buffers.entry(buffer).or_default();
                let end = (word as usize + count).max(words.len());
                words.resize(end, 0);
                words[word as usize..word as usize + v.words.len()].copy_from_slice(&v.words);
            }
        }
    }
    Ok(())
}

/// A message about interpreter bindings in a Direct3D 9 shader's terms:
/// `program.env[5]` is `c5`, `program.local[0]` `i0`, `program.buffer[0]`
/// the `b#` registers, `program.buffer[1]` the D3D9 state.
fn d3d9_names(message: &str) -> String {
    let mut out = String::new();
    let mut rest = message;
    while let Some(at) = rest.find("program.") {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        let renamed = [("program.env[", "c"), ("program.local[", "i")]
            .iter()
            .find_map(|(prefix, reg)| {
                let n = tail.strip_prefix(prefix)?;
                let close = n.find(']')?;
                Some((format!("{reg}{}", &n[..close]), prefix.len() + close + 1))
            })
            .or_else(|| {
                [
                    ("program.buffer[0]", "b#"),
                    ("program.buffer[1]", "D3D9 state"),
                ]
                .iter()
                .find(|(p, _)| tail.starts_with(p))
                .map(|(p, r)| (r.to_string(), p.len()))
            });
        match renamed {
            Some((text, len)) => {
                out.push_str(&text);
                rest = &tail[len..];
            }
            None => {
                out.push_str("program.");
                rest = &tail["program.".len()..];
            }
        }
    }
    out.push_str(rest);
    out
}

fn parse_set(arg: &str, values: &mut Vec<NamedValue>) -> Result<(), String> {
    let (name, list) = arg
        .split_once('=')
        .ok_or("expected NAME=VALUES, e.g. fragment.texcoord[0]=0.5,0.25,0,1")?;
    let (words, kind) = parse_list(list.split(','))?;
    values.push(NamedValue {
        name: name.trim().to_string(),
        words,
        kind,
        origin: format!("--set {arg}"),
    });
    Ok(())
}

fn read_inputs_file(path: &std::path::Path, values: &mut Vec<NamedValue>) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let json: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("not valid JSON: {e}"))?;
    let obj = json
        .as_object()
        .ok_or("expected a JSON object of NAME: values")?;
    for (name, value) in obj {
        let items: Vec<String> = match value {
            serde_json::Value::String(s) => s.split(',').map(str::to_string).collect(),
            serde_json::Value::Number(n) => vec![n.to_string()],
            serde_json::Value::Array(a) => a
                .iter()
                .map(|v| match v {
                    serde_json::Value::String(s) => Ok(s.clone()),
                    serde_json::Value::Number(n) => Ok(n.to_string()),
                    other => Err(format!("`{name}`: {other} is not a number or a string")),
                })
                .collect::<Result<_, _>>()?,
            other => {
                return Err(format!(
                    "`{name}`: {other} is not an array, a number or a string"
                ))
            }
        };
        let (words, kind) =
            parse_list(items.iter().map(String::as_str)).map_err(|e| format!("`{name}`: {e}"))?;
        values.push(NamedValue {
            name: name.trim().to_string(),
            words,
            kind,
            origin: path.display().to_string(),
        });
    }
    Ok(())
}

/// Inputs the program never reads: probably a typo.
fn unused_inputs(program: &nvp4c::ir::Program, inputs: &Inputs) -> Vec<String> {
    use nvp4c::ir::{AttribBinding, ParamBinding, VarKind};
    let mut attribs = BTreeSet::new();
    let mut env = BTreeSet::new();
    let mut local = BTreeSet::new();
    let mut state = BTreeSet::new();
    let mut buffers = BTreeSet::new();
    let mut subroutine = BTreeSet::new();
    for name in interp::attribute_inputs(program) {
        attribs.insert(name);
    }
    for var in &program.variables {
        match &var.kind {
            VarKind::Attrib(bs) => {
                for b in bs {
                    if !matches!(
                        b,
                        AttribBinding::PerVertex { vertex: None, .. }
                            | AttribBinding::OutputVertex { vertex: None, .. }
                    ) {
                        attribs.extend(interp::attribute_aliases(program.stage, b));
                    }
                }
            }
            VarKind::Param(bs) => {
                for b in bs {
                    match b {
                        ParamBinding::Env(n) => {
                            env.insert(*n);
                        }
                        ParamBinding::Local(n) => {
                            local.insert(*n);
                        }
                        ParamBinding::State(item) => {
                            state.insert(interp::state_name(item));
                        }
                        ParamBinding::BufferElement { buffer, .. } => {
                            buffers.insert(*buffer);
                        }
                        ParamBinding::Subroutine(n) => {
                            subroutine.insert(*n);
                        }
                        // Constants need no input.
                        _ => {}
                    }
                }
            }
            // (A range `program.buffer[a..b]` has one variable per
            // binding point.)
            VarKind::Buffer(b) | VarKind::ConstantBuffer(b) => {
                buffers.insert(b.buffer);
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    for name in inputs.attribs.keys() {
        if !attribs.contains(name) {
            let reads: Vec<_> = interp::attribute_inputs(program);
            out.push(format!(
                "the program does not read `{name}`{}",
                if reads.is_empty() {
                    String::from(" (it reads no attributes)")
                } else {
                    format!(" (it reads {})", reads.join(", "))
                }
            ));
        }
    }
    for n in inputs.env.keys().filter(|n| !env.contains(n)) {
        out.push(format!("the program does not read `program.env[{n}]`"));
    }
    for n in inputs.local.keys().filter(|n| !local.contains(n)) {
        out.push(format!("the program does not read `program.local[{n}]`"));
    }
    for name in inputs.state.keys().filter(|n| !state.contains(*n)) {
        out.push(format!("the program does not read `{name}`"));
    }
    for n in inputs.buffers.keys().filter(|n| !buffers.contains(n)) {
        out.push(format!("the program does not read `program.buffer[{n}]`"));
    }
    for n in inputs.subroutine.keys().filter(|n| !subroutine.contains(n)) {
        out.push(format!(
            "the program does not read `program.subroutine[{n}]`"
        ));
    }
    out
}

// ---------------------------------------------------------------------------
// Output

struct SourceText<'s> {
    source: &'s str,
    line_starts: Vec<usize>,
}

impl<'s> SourceText<'s> {
    fn new(source: &'s str) -> SourceText<'s> {
        let mut line_starts = vec![0];
        line_starts.extend(source.match_indices('\n').map(|(i, _)| i + 1));
        SourceText {
            source,
            line_starts,
        }
    }
    fn line_of(&self, span: Span) -> usize {
        let at = span.start as usize;
        self.line_starts.partition_point(|&s| s <= at)
    }
    /// The statement's text on one line.
    fn snippet(&self, span: Span) -> String {
        let text = self.source.get(span.range()).unwrap_or("");
        let one_line: Vec<&str> = text.split_whitespace().collect();
        one_line.join(" ")
    }
}

const COMPONENTS: [char; 4] = ['x', 'y', 'z', 'w'];

fn component_text(bits: u32, ty: DataType) -> String {
    match ty {
        DataType::Float => format!("{:?}", f32::from_bits(bits)),
        DataType::Signed => format!("{}", bits as i32),
        DataType::Unsigned => format!("{bits}u"),
    }
}

fn mask_text(mask: u8) -> String {
    (0..4)
        .filter(|c| mask & (1 << c) != 0)
        .map(|c| COMPONENTS[c])
        .collect()
}

fn print_trace(out: &mut impl Write, outcome: &Outcome, text: &SourceText) -> io::Result<()> {
    writeln!(out, "trace ({} statements executed):", outcome.steps)?;
    let width = outcome
        .trace
        .iter()
        .map(|s| text.snippet(s.span).len())
        .max()
        .unwrap_or(0)
        .min(48);
    for step in &outcome.trace {
        print_step(out, step, text, width)?;
    }
    if outcome.trace_truncated {
        writeln!(out, "      ... (trace truncated)")?;
    }
    writeln!(out)?;
    Ok(())
}

fn print_step(
    out: &mut impl Write,
    step: &TraceStep,
    text: &SourceText,
    width: usize,
) -> io::Result<()> {
    let line = text.line_of(step.span);
    let snippet = text.snippet(step.span);
    match &step.write {
        // The end of a REP body: ENDREP itself has no statement of its own.
        None if step.what.starts_with("ENDREP") => {
            let endrep = format!("ENDREP (of line {line})");
            writeln!(out, "{:>5} | {endrep:<width$}   {}", "", step.what)?
        }
        None => writeln!(out, "{line:>5} | {snippet:<width$}   {}", step.what)?,
        Some(w) => {
            writeln!(out, "{line:>5} | {snippet}")?;
            if w.mask == 0 {
                writeln!(
                    out,
                    "      |     {}: nothing written (condition code mask false)",
                    w.target
                )?;
            }
            for c in (0..4).filter(|c| w.mask & (1 << c) != 0) {
                let undefined = if w.undefined & (1 << c) != 0 {
                    "   (undefined by the spec)"
                } else {
                    ""
                };
                writeln!(
                    out,
                    "      |     {}.{} = {:<16} 0x{:08x}{undefined}",
                    w.target,
                    COMPONENTS[c],
                    component_text(w.bits[c], w.ty),
                    w.bits[c]
                )?;
            }
        }
    }
    if let Some(cc) = &step.cc {
        for c in (0..4).filter(|c| cc.mask & (1 << c) != 0) {
            let f = cc.flags[c];
            writeln!(
                out,
                "      |     CC{}.{}: SF={} ZF={} OF={} CF={}",
                cc.reg.0,
                COMPONENTS[c],
                u8::from(f.sf),
                u8::from(f.zf),
                u8::from(f.of),
                u8::from(f.cf)
            )?;
        }
    }
    Ok(())
}

fn result_line(name: &str, r: &ResultValue, width: usize) -> String {
    if r.written == 0 {
        return format!("{name:<width$}  never written");
    }
    let mut values = Vec::new();
    let mut hex = Vec::new();
    for c in 0..4 {
        if r.written & (1 << c) == 0 {
            values.push("?".to_string());
            hex.push("----------".to_string());
            continue;
        }
        let mut v = component_text(r.bits[c], r.types[c]);
        if r.undefined & (1 << c) != 0 {
            v.push('~');
        }
        values.push(v);
        hex.push(format!("0x{:08x}", r.bits[c]));
    }
    format!(
        "{name:<width$}  ({})\n{:<width$}  [{}]",
        values.join(", "),
        "",
        hex.join(" ")
    )
}

fn print_results(
    out: &mut impl Write,
    results: &BTreeMap<String, ResultValue>,
    only_written: bool,
    indent: &str,
) -> io::Result<()> {
    let width = results.keys().map(String::len).max().unwrap_or(0);
    for (name, r) in results {
        if only_written && r.written == 0 {
            continue;
        }
        for line in result_line(name, r, width).lines() {
            writeln!(out, "{indent}{line}")?;
        }
    }
    Ok(())
}

fn print_outcome(
    out: &mut impl Write,
    program: &nvp4c::ir::Program,
    name: &str,
    outcome: &Outcome,
    text: &SourceText,
    d3d9: bool,
) -> io::Result<()> {
    writeln!(
        out,
        "{} program {name}: {} statement{} executed",
        program.stage,
        outcome.steps,
        if outcome.steps == 1 { "" } else { "s" }
    )?;
    if outcome.killed {
        writeln!(out, "killed: yes -- KIL discarded the fragment; the results below are what was written before it")?;
    }
    if program.geometry.is_some() {
        writeln!(out, "{} vertex(es) emitted", outcome.vertices.len())?;
        for (i, v) in outcome.vertices.iter().enumerate() {
            if v.stream == 0 {
                writeln!(out, "vertex {i} (primitive {}):", v.primitive)?;
            } else {
                // EMITS to another vertex stream (NV_gpu_program5).
                writeln!(
                    out,
                    "vertex {i} (primitive {}, stream {}):",
                    v.primitive, v.stream
                )?;
            }
            print_results(out, &v.results, true, "  ")?;
        }
        if outcome.results.values().any(|r| r.written != 0) {
            writeln!(out, "results written after the last EMIT (not emitted):")?;
            print_results(out, &outcome.results, true, "  ")?;
        }
    } else if outcome.results.is_empty() {
        writeln!(out, "(the program declares no results)")?;
    } else {
        print_results(out, &outcome.results, false, "")?;
    }
    let any_undefined = outcome
        .results
        .values()
        .any(|r| r.written & r.undefined != 0)
        || outcome
            .vertices
            .iter()
            .any(|v| v.results.values().any(|r| r.written & r.undefined != 0));
    if any_undefined && d3d9 {
        // The marks come from the IR's NV_gpu_program4 rules; Direct3D 9
        // defines rsq, log and pow at 0, and the value shown is its.
        writeln!(out, "(~ marks a value computed from an unwritten register, or through rsq, log or pow of 0, which the IR leaves undefined but Direct3D 9 defines: the value shown is Direct3D 9's, docs/semantics.md; ? a component never written)")?;
    } else if any_undefined {
        writeln!(out, "(~ marks a value the spec leaves undefined, e.g. computed from an unwritten temporary; ? a component never written)")?;
    } else if outcome
        .results
        .values()
        .any(|r| r.written != 0 && r.written != 0xf)
    {
        writeln!(out, "(? marks a component never written)")?;
    }
    for e in &outcome.undefined {
        writeln!(
            out,
            "warning: line {}: {} -- the rest of the run is undefined by the spec",
            text.line_of(e.span),
            e.what
        )?;
    }
    for n in &outcome.notes {
        writeln!(out, "note: line {}: {}", text.line_of(n.span), n.what)?;
    }
    Ok(())
}

fn result_json(r: &ResultValue) -> serde_json::Value {
    let values: Vec<serde_json::Value> = (0..4)
        .map(|c| {
            if r.written & (1 << c) == 0 {
                serde_json::Value::Null
            } else {
                serde_json::Value::String(component_text(r.bits[c], r.types[c]))
            }
        })
        .collect();
    serde_json::json!({
        "bits": r.bits.iter().map(|b| format!("0x{b:08x}")).collect::<Vec<_>>(),
        "values": values,
        "written": mask_text(r.written),
        "undefined": mask_text(r.undefined & r.written),
    })
}

fn outcome_json(program: &nvp4c::ir::Program, o: &Outcome, text: &SourceText) -> String {
    let results: serde_json::Map<String, serde_json::Value> = o
        .results
        .iter()
        .map(|(k, v)| (k.clone(), result_json(v)))
        .collect();
    let vertices: Vec<serde_json::Value> = o
        .vertices
        .iter()
        .map(|v| {
            let results: serde_json::Map<String, serde_json::Value> = v
                .results
                .iter()
                .filter(|(_, r)| r.written != 0)
                .map(|(k, r)| (k.clone(), result_json(r)))
                .collect();
            serde_json::json!({"primitive": v.primitive, "stream": v.stream, "results": results})
        })
        .collect();
    let events = |list: &[interp::UndefinedEvent]| -> Vec<serde_json::Value> {
        list.iter()
            .map(|e| serde_json::json!({"line": text.line_of(e.span), "what": e.what}))
            .collect()
    };
    let value = serde_json::json!({
        "stage": program.stage.name(),
        "steps": o.steps,
        "killed": o.killed,
        "results": results,
        "vertices": vertices,
        "undefined": events(&o.undefined),
        "notes": events(&o.notes),
    });
    serde_json::to_string_pretty(&value).unwrap_or_default()
}
