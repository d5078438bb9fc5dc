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
use nvp4c::interp::{self, ImageUnitUse, Inputs, Outcome, ResultValue, RunOptions, TraceStep};
use nvp4c::ir::{BindlessImageArray, ImageFormat, BINDLESS_IMAGE_ARRAY_LEN};
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
   \"program.buffer[0]\": [\"x:3f800000\", \"i:-1\"]}

Image units (LOADIM, STOREIM, ATOMIM) are image[N]: the texels' components
in order, laid out as the program's accesses name the unit (U32, F32X4,
S16X2...; a unit only written by formatted stores holds four 32-bit
components). Unprefixed values are of the format's type; x: gives a
component's bits. The size is W, WxH or WxHxD along the target's
coordinates (a cube's third size is its 6 faces, an array's last its
layers); without one the values are one row:
  --set image[0]=2x2:u:1,2,3,4     --set image[1]=8x8:   (zeros)
  {\"image[0]\": {\"size\": [2, 2], \"texels\": [1, 2, 3, 4],
                \"format\": \"U32\", \"target\": \"2D\", \"samples\": 1}}
(format and target, if given, must be the program's.) image.handle[H]
gives the image an NV_bindless_texture handle H (0 to 7) names, alike;
when the program's handles name several target/format arrays, an --inputs
object's target and format pick one. After the run every texel of each
image is printed, marked where the run changed it; a unit or handle
without an image reads zeros and keeps nothing (\"images\" and
\"image_handles\" in --json).")]
pub struct RunArgs {
    /// Program to run; `-` reads standard input.
    pub input: PathBuf,

    /// Set an input (repeatable): NAME=V[,V...], e.g.
    /// `fragment.texcoord[0]=0.5,0.25,0,1`, `program.local[2]=i:1,2,3,4`,
    /// `program.env[0]=x:3f800000`, `state.matrix.mvp.row[0]=1,0,0,0`,
    /// `image[0]=2x2:u:1,2,3,4` (an image unit's size and texels).
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
    let mut images: Vec<ImageValue> = Vec::new();
    if let Some(path) = &args.inputs {
        if let Err(e) = read_inputs_file(path, &mut values, &mut images) {
            write_stderr(&format!("error: {}: {e}\n", path.display()))?;
            return Ok(EXIT_USAGE);
        }
    }
    for s in &args.set {
        if let Err(e) = parse_set(s, &mut values, &mut images) {
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
    // Image units once the program's accesses give their layout (a --set
    // replaces the file's image of the same unit).
    for image in &images {
        match store_image(&program, image, &mut inputs) {
            Ok(Some(w)) => write_stderr(&format!("warning: {}: {w}\n", image.origin))?,
            Ok(None) => {}
            Err(e) => {
                write_stderr(&format!("error: {}: {e}\n", image.origin))?;
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
                writeln!(out, "{}", outcome_json(&program, &inputs, &outcome, &text))
            } else {
                (if args.trace {
                    print_trace(&mut out, &outcome, &text)
                } else {
                    Ok(())
                })
                .and_then(|()| print_outcome(&mut out, &program, &name, &outcome, &text, d3d9))
                .and_then(|()| print_images(&mut out, &program, &inputs, &outcome))
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
    for (kind, text) in typed_items(items, &mut default) {
        if text.is_empty() {
            return Err("empty value".into());
        }
        out.push(parse_one(text, kind)?);
    }
    if out.is_empty() {
        return Err("no values".into());
    }
    Ok((out, default))
}

/// Each value string's kind and text: its own prefix's kind, else the
/// first value's prefix's, else `default` (which the first prefix
/// replaces).
fn typed_items<'a, 'd>(
    items: impl IntoIterator<Item = &'a str> + 'd,
    default: &'d mut Kind,
) -> impl Iterator<Item = (Kind, &'a str)> + 'd {
    items.into_iter().enumerate().map(move |(i, item)| {
        let (kind, text) = split_prefix(item);
        if i == 0 {
            *default = kind.unwrap_or(*default);
        }
        (kind.unwrap_or(*default), text)
    })
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

fn parse_set(
    arg: &str,
    values: &mut Vec<NamedValue>,
    images: &mut Vec<ImageValue>,
) -> Result<(), String> {
    let (name, list) = arg
        .split_once('=')
        .ok_or("expected NAME=VALUES, e.g. fragment.texcoord[0]=0.5,0.25,0,1")?;
    if let Some(slot) = image_slot_key(name) {
        images.push(parse_image_set(slot?, list, format!("--set {arg}"))?);
        return Ok(());
    }
    let (words, kind) = parse_list(list.split(','))?;
    values.push(NamedValue {
        name: name.trim().to_string(),
        words,
        kind,
        origin: format!("--set {arg}"),
    });
    Ok(())
}

/// A JSON value as the value strings of `name`: an array of numbers and
/// prefixed strings, one number, or one string as for --set.
fn json_items(name: &str, value: &serde_json::Value) -> Result<Vec<String>, String> {
    match value {
        serde_json::Value::String(s) => Ok(s.split(',').map(str::to_string).collect()),
        serde_json::Value::Number(n) => Ok(vec![n.to_string()]),
        serde_json::Value::Array(a) => a
            .iter()
            .map(|v| match v {
                serde_json::Value::String(s) => Ok(s.clone()),
                serde_json::Value::Number(n) => Ok(n.to_string()),
                other => Err(format!("`{name}`: {other} is not a number or a string")),
            })
            .collect(),
        other => Err(format!(
            "`{name}`: {other} is not an array, a number or a string"
        )),
    }
}

fn read_inputs_file(
    path: &std::path::Path,
    values: &mut Vec<NamedValue>,
    images: &mut Vec<ImageValue>,
) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let json: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("not valid JSON: {e}"))?;
    let obj = json
        .as_object()
        .ok_or("expected a JSON object of NAME: values")?;
    for (name, value) in obj {
        if let Some(slot) = image_slot_key(name) {
            let origin = path.display().to_string();
            images.push(parse_image_json(slot?, name, value, origin)?);
            continue;
        }
        let items = json_items(name, value)?;
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

fn outcome_json(
    program: &nvp4c::ir::Program,
    inputs: &Inputs,
    o: &Outcome,
    text: &SourceText,
) -> String {
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
    let (images, image_handles) = images_json(program, inputs, o);
    let value = serde_json::json!({
        "stage": program.stage.name(),
        "steps": o.steps,
        "killed": o.killed,
        "results": results,
        "vertices": vertices,
        "images": images,
        "image_handles": image_handles,
        "undefined": events(&o.undefined),
        "notes": events(&o.notes),
    });
    serde_json::to_string_pretty(&value).unwrap_or_default()
}

// ---------------------------------------------------------------------------
// Images

/// Where a given image goes: an image unit, `image[N]`, or what an image
/// handle names, `image.handle[H]` (NV_bindless_texture).
#[derive(Clone, Copy)]
enum ImageSlot {
    Unit(u32),
    Handle(u32),
}

impl ImageSlot {
    fn key(self) -> String {
        match self {
            ImageSlot::Unit(n) => format!("image[{n}]"),
            ImageSlot::Handle(h) => format!("image.handle[{h}]"),
        }
    }
}

/// An image's texels given as `image[N]` or `image.handle[H]` (an
/// --inputs object or `--set image[N]=[WxHxD:]VALUES`), stored once the
/// program is known: its accesses give the texel layout
/// (`interp::image_units`, `interp::image_handle_arrays`).
struct ImageValue {
    slot: ImageSlot,
    /// The extent along the target's coordinates (`interp::Image::extent`);
    /// `None`: one row of the given texels.
    extent: Option<[u32; 3]>,
    samples: u32,
    /// The storage modifier the input says the program uses (`U32`).
    format: Option<String>,
    /// The target the input says the program uses (`2D`).
    target: Option<String>,
    /// The component values, texel after texel; `None`: all zero.
    texels: Option<Vec<String>>,
    /// Where it came from, for messages.
    origin: String,
}

/// The image of an `image[N]` or `image.handle[H]` key, `None` for
/// another key.
fn image_slot_key(name: &str) -> Option<Result<ImageSlot, String>> {
    let name = name.trim();
    let index = |rest: &str| {
        rest.strip_suffix(']')
            .and_then(|n| n.trim().parse::<u32>().ok())
    };
    if let Some(rest) = name.strip_prefix("image.handle[") {
        return Some(
            index(rest)
                .map(ImageSlot::Handle)
                .ok_or_else(|| format!("`{name}`: expected image.handle[H], H an image handle")),
        );
    }
    let rest = name.strip_prefix("image[")?;
    Some(
        index(rest)
            .map(ImageSlot::Unit)
            .ok_or_else(|| format!("`{name}`: expected image[N], N an image unit number")),
    )
}

/// `W`, `WxH` or `WxHxD` (each at least 1); missing sizes are 1.
fn parse_extent(text: &str) -> Result<[u32; 3], String> {
    let sizes: Vec<&str> = text.split('x').collect();
    if sizes.len() > 3 {
        return Err(format!("`{text}`: a size is W, WxH or WxHxD"));
    }
    let mut extent = [1; 3];
    for (e, s) in extent.iter_mut().zip(sizes) {
        *e = s
            .trim()
            .parse::<u32>()
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| format!("`{text}`: a size is W, WxH or WxHxD of positive integers"))?;
    }
    Ok(extent)
}

/// `--set image[N]=[WxHxD:]V,V,...`: the size prefix is digits and `x`
/// before a colon (`2x2:u:1,2,3,4`, `4x4:` for zeros).
fn parse_image_set(slot: ImageSlot, list: &str, origin: String) -> Result<ImageValue, String> {
    let list = list.trim();
    let (extent, values) = match list.split_once(':') {
        Some((size, rest))
            if size.starts_with(|c: char| c.is_ascii_digit())
                && size.chars().all(|c| c.is_ascii_digit() || c == 'x') =>
        {
            (Some(parse_extent(size)?), rest)
        }
        _ if list.contains('x')
            && list.starts_with(|c: char| c.is_ascii_digit())
            && list.chars().all(|c| c.is_ascii_digit() || c == 'x') =>
        {
            return Err(format!(
                "`{list}` looks like a size: end it with a colon (`{list}:` for an image of zeros, `{list}:V,V,...`)"
            ));
        }
        _ => (None, list),
    };
    let texels = if values.trim().is_empty() {
        if extent.is_none() {
            return Err("no values (give WxH: for an image of zeros)".into());
        }
        None
    } else {
        Some(values.split(',').map(str::to_string).collect())
    };
    Ok(ImageValue {
        slot,
        extent,
        samples: 1,
        format: None,
        target: None,
        texels,
        origin,
    })
}

/// An --inputs `image[N]` object: `size`, `texels`, and optionally
/// `format`, `target`, `samples`.
fn parse_image_json(
    slot: ImageSlot,
    name: &str,
    value: &serde_json::Value,
    origin: String,
) -> Result<ImageValue, String> {
    let obj = value.as_object().ok_or_else(|| {
        format!("`{name}`: expected an object such as {{\"size\": [2, 2], \"texels\": [\"u:1\", 2, 3, 4]}}")
    })?;
    let mut image = ImageValue {
        slot,
        extent: None,
        samples: 1,
        format: None,
        target: None,
        texels: None,
        origin,
    };
    let positive = |v: &serde_json::Value, what: &str| -> Result<u32, String> {
        v.as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .filter(|&n| n > 0)
            .ok_or_else(|| format!("`{name}`: {what} {v} is not a positive integer"))
    };
    for (key, v) in obj {
        match key.as_str() {
            "size" => {
                let sizes = match v {
                    serde_json::Value::Array(a) if (1..=3).contains(&a.len()) => a.clone(),
                    serde_json::Value::Number(_) => vec![v.clone()],
                    _ => return Err(format!("`{name}`: size {v} is not [W], [W, H] or [W, H, D]")),
                };
                let mut extent = [1; 3];
                for (e, s) in extent.iter_mut().zip(&sizes) {
                    *e = positive(s, "size")?;
                }
                image.extent = Some(extent);
            }
            "samples" => image.samples = positive(v, "samples")?,
            "format" | "target" => {
                let s = v
                    .as_str()
                    .ok_or_else(|| format!("`{name}`: {key} {v} is not a string"))?;
                if key == "format" {
                    image.format = Some(s.to_string());
                } else {
                    image.target = Some(s.to_string());
                }
            }
            "texels" => image.texels = Some(json_items(&format!("{name}.texels"), v)?),
            other => {
                return Err(format!(
                    "`{name}`: unknown key `{other}` (an image takes size, texels, format, target and samples)"
                ))
            }
        }
    }
    if image.extent.is_none() && image.texels.is_none() {
        return Err(format!("`{name}`: give its size or its texels"));
    }
    Ok(image)
}

/// The handle array an `image.handle[H]` goes to: the one the program's
/// handles name, or among several the one of the given target and format.
fn handle_array(
    program: &nvp4c::ir::Program,
    given: &ImageValue,
    key: &str,
) -> Result<Option<(BindlessImageArray, ImageUnitUse)>, String> {
    let arrays = interp::image_handle_arrays(program);
    if arrays.is_empty() {
        return Ok(None);
    }
    let names = |a: &[(&BindlessImageArray, &ImageUnitUse)]| -> String {
        a.iter()
            .map(|(_, u)| format!("{} {}", u.target.name(), u.layout.name()))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let all: Vec<_> = arrays.iter().collect();
    let matching: Vec<_> = arrays
        .iter()
        .filter(|(_, u)| {
            given
                .target
                .as_ref()
                .is_none_or(|t| t.trim().eq_ignore_ascii_case(u.target.name()))
                && given
                    .format
                    .as_ref()
                    .is_none_or(|f| f.trim().eq_ignore_ascii_case(&u.layout.name()))
        })
        .collect();
    match matching[..] {
        [(array, used)] => Ok(Some((*array, *used))),
        [] => Err(format!(
            "`{key}`: the program's image handles are {}; none is {} {}",
            names(&all),
            given.target.as_deref().unwrap_or("of any target"),
            given.format.as_deref().unwrap_or("")
        )),
        _ => Err(format!(
            "`{key}`: the program's image handles name {}: give the target and format (an --inputs object's \"target\" and \"format\")",
            names(&matching)
        )),
    }
}

/// The image's texels as the program's layout of its unit (or handle
/// array) holds them; a unit the program does not access, or a handle in
/// a program without handles, is skipped with a warning.
fn store_image(
    program: &nvp4c::ir::Program,
    given: &ImageValue,
    inputs: &mut Inputs,
) -> Result<Option<String>, String> {
    let key = given.slot.key();
    let (used, array) = match given.slot {
        ImageSlot::Unit(unit) => match interp::image_units(program).get(&unit) {
            Some(used) => (*used, None),
            None => {
                return Ok(Some(format!(
                    "the program does not access `{key}`; it is not stored"
                )))
            }
        },
        ImageSlot::Handle(h) => match handle_array(program, given, &key)? {
            Some(_) if h >= BINDLESS_IMAGE_ARRAY_LEN => {
                return Err(format!(
                    "`{key}`: image handles are 0 to {} (docs/interface.md, \"Bindless images\"); a larger one names no image",
                    BINDLESS_IMAGE_ARRAY_LEN - 1
                ))
            }
            Some((array, used)) => (used, Some(array)),
            None => {
                return Ok(Some(format!(
                    "the program names no image handles; `{key}` is not stored"
                )))
            }
        },
    };
    let layout = used.layout;
    if let Some(f) = &given.format {
        if !f.trim().eq_ignore_ascii_case(&layout.name()) {
            return Err(format!(
                "`{key}`: the program accesses it as {}{}, not {f}",
                layout.name(),
                if used.formatted_only {
                    " (only formatted stores: four 32-bit components)"
                } else {
                    ""
                }
            ));
        }
    }
    if let Some(t) = &given.target {
        if !t.trim().eq_ignore_ascii_case(used.target.name()) {
            return Err(format!(
                "`{key}`: the program accesses it as a {} image, not {t}",
                used.target.name()
            ));
        }
    }
    if given.samples > 1 && !used.target.multisampled() {
        return Err(format!(
            "`{key}`: samples {} needs a 2DMS or ARRAY2DMS target; the program's is {}",
            given.samples,
            used.target.name()
        ));
    }
    let components = usize::from(layout.components);
    let samples = given.samples as usize;
    let values = given.texels.as_deref().unwrap_or(&[]);
    let extent = match given.extent {
        Some(e) => e,
        None => {
            if !values.len().is_multiple_of(components * samples) {
                return Err(format!(
                    "`{key}`: {} values are not whole texels of {} ({components} per texel)",
                    values.len(),
                    layout.name()
                ));
            }
            let n = u32::try_from(values.len() / (components * samples))
                .map_err(|_| format!("`{key}`: too many texels"))?;
            [n, 1, 1]
        }
    };
    let texels = extent.iter().map(|&e| e as usize).product::<usize>() * samples;
    if given.texels.is_some() && values.len() != texels * components {
        return Err(format!(
            "`{key}`: a {} image of {} has {texels} texel{} of {components} component{}: {} values, got {}",
            extent_text(extent),
            layout.name(),
            if texels == 1 { "" } else { "s" },
            if components == 1 { "" } else { "s" },
            texels * components,
            values.len()
        ));
    }
    let mut bytes = vec![0u8; texels * layout.texel_bytes()];
    let size = usize::from(layout.bits / 8);
    // Unprefixed values are of the format's type (integers for U32,
    // floats for F32X4); a prefix on the first one applies to the rest.
    let mut default = match layout.ty {
        DataType::Float => Kind::Float,
        DataType::Signed => Kind::Signed,
        DataType::Unsigned => Kind::Unsigned,
    };
    let items = typed_items(values.iter().map(String::as_str), &mut default);
    for (i, (kind, text)) in items.enumerate() {
        let bits = component_bits(layout, text, kind)
            .map_err(|e| format!("`{key}`: value {} (`{text}`): {e}", i + 1))?;
        bytes[i * size..(i + 1) * size].copy_from_slice(&bits.to_le_bytes()[..size]);
    }
    let image = interp::Image {
        extent,
        bytes,
        samples: given.samples,
    };
    match (given.slot, array) {
        (ImageSlot::Handle(h), Some(array)) => {
            inputs.bindless_images.insert((array, h), image);
        }
        (ImageSlot::Unit(unit), _) | (ImageSlot::Handle(unit), None) => {
            inputs.images.insert(unit, image);
        }
    }
    Ok(None)
}

/// One component value, as the bits the format stores: floats in a float
/// format (an F16 one rounds to the nearest half), integers that fit the
/// component's range, or `x:` bits that fit its size.
fn component_bits(layout: ImageFormat, text: &str, kind: Kind) -> Result<u32, String> {
    if text.is_empty() {
        return Err("empty value".into());
    }
    let word = parse_one(text, kind)?;
    let bits = u32::from(layout.bits);
    match kind {
        Kind::Hex if bits < 32 && word >> bits != 0 => {
            Err(format!("{} holds {bits}-bit components", layout.name()))
        }
        Kind::Hex => Ok(word),
        Kind::Float if layout.ty != DataType::Float => Err(format!(
            "{} holds integers (use i:, u: or x:)",
            layout.name()
        )),
        Kind::Float => Ok(layout.component_bits(word)),
        _ if layout.ty == DataType::Float => Err(format!(
            "{} holds floats (write the number, or x: for its bits)",
            layout.name()
        )),
        Kind::Signed | Kind::Unsigned => {
            let value = if kind == Kind::Signed {
                i64::from(word as i32)
            } else {
                i64::from(word)
            };
            let (min, max) = if layout.ty == DataType::Signed {
                (-(1i64 << (bits - 1)), (1i64 << (bits - 1)) - 1)
            } else {
                (0, (1i64 << bits) - 1)
            };
            if !(min..=max).contains(&value) {
                return Err(format!(
                    "{value} is outside {}'s range {min} to {max}",
                    layout.name()
                ));
            }
            Ok(layout.component_bits(value as u32))
        }
    }
}

fn extent_text(extent: [u32; 3]) -> String {
    format!("{}x{}x{}", extent[0], extent[1], extent[2])
}

/// One texel of an image after the run, for printing.
struct TexelText {
    /// Its coordinates along the target's (and its sample).
    at: Vec<u32>,
    values: Vec<String>,
    bits: Vec<String>,
    changed: bool,
}

/// The texels of a unit after the run, in coordinate order.
fn image_texels(
    used: ImageUnitUse,
    before: &interp::Image,
    after: &interp::Image,
) -> Vec<TexelText> {
    let layout = used.layout;
    let size = usize::from(layout.bits / 8);
    let texel = layout.texel_bytes();
    let samples = after.samples.max(1);
    let dims = used.target.coordinate_components().len();
    let [w, h, d] = after.extent;
    let mut out = Vec::new();
    let mut index = 0usize;
    for k in 0..d {
        for j in 0..h {
            for i in 0..w {
                for s in 0..samples {
                    let at = index * texel;
                    index += 1;
                    let Some(bytes) = after.bytes.get(at..at + texel) else {
                        continue;
                    };
                    let mut coordinate = [i, j, k][..dims].to_vec();
                    if used.target.multisampled() {
                        coordinate.push(s);
                    }
                    let mut values = Vec::new();
                    let mut bits = Vec::new();
                    for c in bytes.chunks(size) {
                        let mut word = [0u8; 4];
                        word[..size].copy_from_slice(c);
                        let raw = u32::from_le_bytes(word);
                        values.push(component_text(layout.component_value(raw), layout.ty));
                        bits.push(format!("0x{raw:0width$x}", width = size * 2));
                    }
                    out.push(TexelText {
                        at: coordinate,
                        values,
                        bits,
                        changed: before.bytes.get(at..at + texel) != Some(bytes),
                    });
                }
            }
        }
    }
    out
}

/// An image the program can access, for printing: a unit, or a handle
/// array's element given in the inputs (`handle` `None`: the array's
/// elements, none given).
struct ImageEntry<'a> {
    key: String,
    handle: Option<u32>,
    used: ImageUnitUse,
    before: Option<&'a interp::Image>,
    after: Option<&'a interp::Image>,
}

/// Every unit the program accesses, then every handle array's given
/// elements (or the array, when none is given).
fn image_entries<'a>(
    program: &nvp4c::ir::Program,
    inputs: &'a Inputs,
    outcome: &'a Outcome,
) -> Vec<ImageEntry<'a>> {
    let mut out: Vec<ImageEntry> = interp::image_units(program)
        .into_iter()
        .map(|(unit, used)| ImageEntry {
            key: format!("image[{unit}]"),
            handle: None,
            used,
            before: inputs.images.get(&unit),
            after: outcome.images.get(&unit),
        })
        .collect();
    for (array, used) in interp::image_handle_arrays(program) {
        let given: Vec<_> = inputs
            .bindless_images
            .iter()
            .filter(|((a, _), _)| *a == array)
            .map(|(&(_, h), image)| ImageEntry {
                key: format!("image.handle[{h}]"),
                handle: Some(h),
                used,
                before: Some(image),
                after: outcome.bindless_images.get(&(array, h)),
            })
            .collect();
        if given.is_empty() {
            out.push(ImageEntry {
                key: "image.handle[*]".into(),
                handle: None,
                used,
                before: None,
                after: None,
            });
        }
        out.extend(given);
    }
    out
}

/// The heading of an image: its key, target, format and size.
fn image_heading(key: &str, used: ImageUnitUse, image: Option<&interp::Image>) -> String {
    let size = match image {
        Some(i) if i.samples > 1 => format!(", {}, {} samples", extent_text(i.extent), i.samples),
        Some(i) => format!(", {}", extent_text(i.extent)),
        None => String::new(),
    };
    format!(
        "{key} ({} {}{}{size})",
        used.target.name(),
        used.layout.name(),
        if used.formatted_only {
            ", formatted stores"
        } else {
            ""
        }
    )
}

/// The program's image units after the run: every texel, marked where the
/// run changed it; a unit without an image read zeros and kept nothing.
fn print_images(
    out: &mut impl Write,
    program: &nvp4c::ir::Program,
    inputs: &Inputs,
    outcome: &Outcome,
) -> io::Result<()> {
    for entry in image_entries(program, inputs, outcome) {
        let used = entry.used;
        let heading = image_heading(&entry.key, used, entry.after);
        let (Some(before), Some(after)) = (entry.before, entry.after) else {
            writeln!(
                out,
                "{heading}: no image given (its loads read 0, its stores and atomics did nothing)"
            )?;
            continue;
        };
        writeln!(out, "{heading}:")?;
        let texels = image_texels(used, before, after);
        let at: Vec<String> = texels
            .iter()
            .map(|t| {
                let c: Vec<String> = t.at.iter().map(u32::to_string).collect();
                format!("({})", c.join(", "))
            })
            .collect();
        let values: Vec<String> = texels
            .iter()
            .map(|t| format!("({})", t.values.join(", ")))
            .collect();
        let at_width = at.iter().map(String::len).max().unwrap_or(0);
        let value_width = values.iter().map(String::len).max().unwrap_or(0);
        for ((t, at), v) in texels.iter().zip(&at).zip(&values) {
            writeln!(
                out,
                "  {at:<at_width$}  {v:<value_width$}  [{}]{}",
                t.bits.join(" "),
                if t.changed { "  changed" } else { "" }
            )?;
        }
    }
    Ok(())
}

/// The units under `"images"` by key, the handle arrays' elements in
/// `"image_handles"` (two arrays may both have a handle 3).
fn images_json(
    program: &nvp4c::ir::Program,
    inputs: &Inputs,
    outcome: &Outcome,
) -> (serde_json::Value, serde_json::Value) {
    let mut units = serde_json::Map::new();
    let mut handles = Vec::new();
    for entry in image_entries(program, inputs, outcome) {
        let used = entry.used;
        let given = entry.before.zip(entry.after);
        let texels: Vec<serde_json::Value> = given
            .map(|(before, after)| image_texels(used, before, after))
            .unwrap_or_default()
            .into_iter()
            .map(|t| {
                serde_json::json!({
                    "at": t.at,
                    "values": t.values,
                    "bits": t.bits,
                    "changed": t.changed,
                })
            })
            .collect();
        let mut value = serde_json::json!({
            "target": used.target.name(),
            "format": used.layout.name(),
            "formatted_stores_only": used.formatted_only,
            "given": given.is_some(),
            "size": entry.after.map(|i| i.extent),
            "samples": entry.after.map(|i| i.samples.max(1)),
            "texels": texels,
        });
        if entry.key.starts_with("image.handle[") {
            value["handle"] = serde_json::json!(entry.handle);
            handles.push(value);
        } else {
            units.insert(entry.key, value);
        }
    }
    (
        serde_json::Value::Object(units),
        serde_json::Value::Array(handles),
    )
}
