//! `.nvtest` conformance files, in the spirit of vkd3d's and piglit's
//! shader_runner: a program, then cases of inputs, each with the expected
//! results. Each file runs on the Vulkan device and in the reference
//! interpreter, and both must match the expectations.
//!
//! ```text
//! # comments start with '#'
//! [program]
//! !!NVfp4.0
//! MOV result.color, fragment.texcoord[0];
//! END
//! [case]
//! fragment.texcoord[0] = 1.0, -0.5, inf, x:7fc00000
//! program.local[0] = i:3, 4, 5, 6
//! [expect]
//! result.color = 1.0, -0.5, inf, nan
//! result.color[4] = i:-1, 0, 1, 2
//! result.color ~ 1e-6 = 0.333333, 1, 1, 1      (a tolerance, relative)
//! killed
//! ```
//!
//! `result.depth = d` probes the fragment depth: the device's depth buffer
//! (a D32_SFLOAT attachment, so `d` must be in [0, 1]) and the
//! interpreter's `result.depth.z` (ARB_fragment_program and
//! NV_fragment_program both take the depth from z).
//!
//! Values: floats (`1.5`, `-0`, `inf`, `-inf`, `nan` matches any NaN,
//! `*` matches anything, `±0` either zero),
//! `x:` hex bits (exact), `i:` signed and `u:` unsigned integers (exact).
//! One to four values; a single value is replicated.
//!
//! Fragment programs (`!!NVfp4.0`, `!!ARBfp1.0`) run one pixel per case;
//! vertex programs (`!!NVvp4.0`, `!!ARBvp1.0`) one vertex per case, their
//! results captured by transform feedback: inputs `vertex.position`,
//! `vertex.attrib[n]`, ... and probes `result.position`, `result.color`,
//! `result.texcoord[n]`, ... (the Locations of docs/interface.md).
#![allow(dead_code)]

use crate::harness::{self, Capture, Device, FragmentJob, Input, Kind, VertexJob};
use nvp4c::interp;

/// One expected component.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Expect {
    Bits(u32),
    Float(f32),
    AnyNan,
    /// `*`: not compared (the spec leaves the value undefined).
    Any,
    /// `±0`: +0.0 or -0.0 (docs/semantics.md: Vulkan does not promise the
    /// sign of a zero).
    Zero,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Probe {
    pub binding: String,
    pub values: [Expect; 4],
    /// Relative tolerance for `Float` components.
    pub tolerance: f32,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Case {
    pub inputs: Vec<(String, [u32; 4])>,
    pub probes: Vec<Probe>,
    pub killed: bool,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct NvTest {
    pub program: String,
    pub cases: Vec<Case>,
}

fn parse_component(text: &str) -> Result<(u32, Expect), String> {
    let t = text.trim();
    let parse_int = |s: &str| s.parse::<i64>().map_err(|e| format!("`{t}`: {e}"));
    if let Some(h) = t.strip_prefix("x:") {
        let b = u32::from_str_radix(h, 16).map_err(|e| format!("`{t}`: {e}"))?;
        return Ok((b, Expect::Bits(b)));
    }
    if let Some(i) = t.strip_prefix("i:") {
        let b = parse_int(i)? as i32 as u32;
        return Ok((b, Expect::Bits(b)));
    }
    if let Some(u) = t.strip_prefix("u:") {
        let b = parse_int(u)? as u32;
        return Ok((b, Expect::Bits(b)));
    }
    let f: f32 = match t {
        "inf" | "+inf" => f32::INFINITY,
        "-inf" => f32::NEG_INFINITY,
        "nan" => return Ok((f32::NAN.to_bits(), Expect::AnyNan)),
        "*" => return Ok((0, Expect::Any)),
        "±0" | "+-0" => return Ok((0, Expect::Zero)),
        _ => t.parse().map_err(|e| format!("`{t}`: {e}"))?,
    };
    Ok((f.to_bits(), Expect::Float(f)))
}

fn parse_values(text: &str) -> Result<([u32; 4], [Expect; 4]), String> {
    let parts: Vec<&str> = text.split(',').collect();
    if parts.len() != 1 && parts.len() != 4 {
        return Err(format!("`{text}`: give one value or four"));
    }
    let mut bits = [0u32; 4];
    let mut exp = [Expect::Bits(0); 4];
    for i in 0..4 {
        let (b, e) = parse_component(parts[if parts.len() == 1 { 0 } else { i }])?;
        bits[i] = b;
        exp[i] = e;
    }
    Ok((bits, exp))
}

/// Parses a `.nvtest` file.
pub fn parse(text: &str) -> Result<NvTest, String> {
    let mut t = NvTest::default();
    let mut section = "";
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim_end();
        let here = |e: String| format!("line {}: {e}", n + 1);
        match line.trim() {
            "[program]" | "[case]" | "[expect]" => {
                section = match line.trim() {
                    "[program]" => "program",
                    "[case]" => {
                        t.cases.push(Case::default());
                        "case"
                    }
                    _ => "expect",
                };
                continue;
            }
            _ => {}
        }
        if section == "program" {
            t.program.push_str(raw);
            t.program.push('\n');
            continue;
        }
        let body = line.split('#').next().unwrap_or("").trim();
        if body.is_empty() {
            continue;
        }
        let case = t
            .cases
            .last_mut()
            .ok_or_else(|| here("a value before any [case]".into()))?;
        match section {
            "case" => {
                let (name, value) = body
                    .split_once('=')
                    .ok_or_else(|| here(format!("`{body}`: expected `binding = values`")))?;
                let (bits, _) = parse_values(value).map_err(here)?;
                case.inputs.push((name.trim().to_string(), bits));
            }
            "expect" => {
                if body == "killed" {
                    case.killed = true;
                    continue;
                }
                let (lhs, value) = body
                    .split_once('=')
                    .ok_or_else(|| here(format!("`{body}`: expected `result = values`")))?;
                let (binding, tolerance) = match lhs.split_once('~') {
                    Some((b, tol)) => (
                        b.trim(),
                        tol.trim()
                            .parse::<f32>()
                            .map_err(|e| here(format!("tolerance: {e}")))?,
                    ),
                    None => (lhs.trim(), 0.0),
                };
                let (_, values) = parse_values(value).map_err(here)?;
                case.probes.push(Probe {
                    binding: binding.to_string(),
                    values,
                    tolerance,
                });
            }
            _ => return Err(here("text outside any section".into())),
        }
    }
    if t.program.trim().is_empty() {
        return Err("no [program] section".into());
    }
    Ok(t)
}

/// Prints a test back in the file format (for saved regressions).
pub fn render(t: &NvTest, comment: &str) -> String {
    let mut s = String::new();
    for l in comment.lines() {
        s.push_str(&format!("# {l}\n"));
    }
    s.push_str("[program]\n");
    s.push_str(&t.program);
    for c in &t.cases {
        s.push_str("[case]\n");
        for (name, bits) in &c.inputs {
            s.push_str(&format!(
                "{name} = {}\n",
                bits.map(|b| format!("x:{b:08x}")).join(", ")
            ));
        }
        s.push_str("[expect]\n");
        if c.killed {
            s.push_str("killed\n");
        }
        for p in &c.probes {
            let v: Vec<String> = p
                .values
                .iter()
                .map(|e| match e {
                    Expect::Bits(b) => format!("x:{b:08x}"),
                    Expect::Float(f) => format!("{f:?}"),
                    Expect::AnyNan => "nan".into(),
                    Expect::Any => "*".into(),
                    Expect::Zero => "±0".into(),
                })
                .collect();
            if p.tolerance > 0.0 {
                s.push_str(&format!(
                    "{} ~ {} = {}\n",
                    p.binding,
                    p.tolerance,
                    v.join(", ")
                ));
            } else {
                s.push_str(&format!("{} = {}\n", p.binding, v.join(", ")));
            }
        }
    }
    s
}

/// The harness Location of a fragment attribute binding (docs/interface.md).
pub fn fragment_location(name: &str) -> Option<u32> {
    let idx = |prefix: &str| {
        name.strip_prefix(prefix)
            .and_then(|r| r.strip_suffix(']'))
            .and_then(|n| n.parse::<u32>().ok())
    };
    match name {
        "fragment.color" | "fragment.color.primary" => Some(0),
        "fragment.color.secondary" => Some(1),
        "fragment.fogcoord" => Some(4),
        "fragment.texcoord" => Some(5),
        _ => idx("fragment.texcoord[")
            .map(|n| 5 + n)
            .or_else(|| idx("fragment.attrib[").map(|n| 14 + n)),
    }
}

/// The Location of a vertex attribute binding (docs/interface.md, "Vertex
/// attributes").
pub fn vertex_location(name: &str) -> Option<u32> {
    let idx = |prefix: &str| {
        name.strip_prefix(prefix)
            .and_then(|r| r.strip_suffix(']'))
            .and_then(|n| n.parse::<u32>().ok())
    };
    match name {
        "vertex.position" => Some(0),
        "vertex.weight" | "vertex.weight[0]" => Some(1),
        "vertex.normal" => Some(2),
        "vertex.color" | "vertex.color.primary" => Some(3),
        "vertex.color.secondary" => Some(4),
        "vertex.fogcoord" => Some(5),
        "vertex.texcoord" => Some(8),
        _ => idx("vertex.texcoord[")
            .map(|n| 8 + n)
            .or_else(|| idx("vertex.attrib[")),
    }
}

/// What to capture for a vertex result binding (docs/interface.md,
/// "Varyings").
pub fn vertex_result(name: &str) -> Option<Capture> {
    let idx = |prefix: &str| {
        name.strip_prefix(prefix)
            .and_then(|r| r.strip_suffix(']'))
            .and_then(|n| n.parse::<u32>().ok())
    };
    let location = match name {
        "result.position" => return Some(Capture::Position),
        "result.color"
        | "result.color.primary"
        | "result.color.front"
        | "result.color.front.primary" => 0,
        "result.color.secondary" | "result.color.front.secondary" => 1,
        "result.color.back" | "result.color.back.primary" => 2,
        "result.color.back.secondary" => 3,
        "result.fogcoord" => 4,
        "result.texcoord" => 5,
        _ => idx("result.texcoord[")
            .map(|n| 5 + n)
            .or_else(|| idx("result.attrib[").map(|n| 14 + n))?,
    };
    Some(Capture::Location(location))
}

/// The colour attachment of a fragment result binding.
pub fn result_location(name: &str) -> Option<u32> {
    if name == "result.color" {
        return Some(0);
    }
    name.strip_prefix("result.color[")
        .and_then(|r| r.strip_suffix(']'))
        .and_then(|n| n.parse().ok())
}

fn matches(bits: u32, e: Expect, tolerance: f32) -> bool {
    match e {
        Expect::Bits(b) => bits == b,
        Expect::AnyNan => f32::from_bits(bits).is_nan(),
        Expect::Any => true,
        Expect::Zero => bits & 0x7fff_ffff == 0,
        Expect::Float(f) => {
            let g = f32::from_bits(bits);
            if tolerance == 0.0 {
                g.to_bits() == f.to_bits() || (g == 0.0 && f == 0.0 && g.to_bits() == f.to_bits())
            } else {
                g == f || (g - f).abs() <= tolerance * f.abs().max(g.abs()).max(1.0)
            }
        }
    }
}

/// Runs a test in the interpreter; returns a description of each mismatch.
pub fn run_interp(t: &NvTest) -> Result<Vec<String>, String> {
    let (program, _) = nvp4c::check(&t.program, &nvp4c::Options::default())
        .map_err(|d| d.render("test", &t.program, false))?;
    let mut fails = Vec::new();
    for (k, c) in t.cases.iter().enumerate() {
        let mut inputs = interp::Inputs::default();
        for (name, bits) in &c.inputs {
            inputs.set(name, *bits)?;
        }
        let out = interp::run(&program, &inputs, &interp::RunOptions::default())
            .map_err(|e| e.to_string())?;
        if out.killed != c.killed {
            fails.push(format!(
                "case {k}: interpreter killed = {}, expected {}",
                out.killed, c.killed
            ));
            continue;
        }
        if out.killed {
            continue;
        }
        for p in &c.probes {
            if p.binding == "result.depth" {
                let got = out.results.get("result.depth").map_or(0, |r| r.bits[2]);
                if !matches(got, p.values[2], p.tolerance) {
                    fails.push(format!(
                        "case {k}: interpreter result.depth.z = {got:#010x} ({:?}), expected {:?}",
                        f32::from_bits(got),
                        p.values[2]
                    ));
                }
                continue;
            }
            // `result.color` and `result.color[0]` are one binding.
            let alias = if p.binding == "result.color[0]" {
                "result.color"
            } else if p.binding == "result.color" {
                "result.color[0]"
            } else {
                ""
            };
            let got = out
                .results
                .get(&p.binding)
                .or_else(|| out.results.get(alias))
                .map(|r| r.bits)
                .unwrap_or([0; 4]);
            for (i, (&bits, &want)) in got.iter().zip(&p.values).enumerate() {
                if !matches(bits, want, p.tolerance) {
                    fails.push(format!(
                        "case {k}: interpreter {}.{} = {:#010x} ({:?}), expected {:?}",
                        p.binding,
                        "xyzw".as_bytes()[i] as char,
                        bits,
                        f32::from_bits(bits),
                        want
                    ));
                }
            }
        }
    }
    Ok(fails)
}

/// Runs a test on the device; returns a description of each mismatch.
pub fn run_device(dev: &Device, t: &NvTest) -> Result<Vec<String>, String> {
    run_device_with(dev, t, false)
}

/// [`run_device`] with the module optimised by spirv-opt (`-O`) when
/// `optimize` is set: the optimised module must compute the same results.
pub fn run_device_with(dev: &Device, t: &NvTest, optimize: bool) -> Result<Vec<String>, String> {
    // Signed zeros and IEEE specials are part of what these tests check;
    // lavapipe supports keeping them (docs/semantics.md).
    let mut options = nvp4c::Options::default();
    options.preserve_signed_zero_inf_nan = true;
    options.optimize = optimize;
    let compiled =
        nvp4c::compile(&t.program, &options).map_err(|d| d.render("test", &t.program, false))?;
    let spirv = compiled.spirv;
    if compiled.stage == nvp4c::Stage::Vertex {
        return run_vertex(dev, t, &spirv);
    }
    let mut job = FragmentJob::new(Vec::new());
    for c in &t.cases {
        let mut case = Vec::new();
        for (name, bits) in &c.inputs {
            if let Some(n) = name
                .strip_prefix("program.local[")
                .and_then(|r| r.strip_suffix(']'))
                .and_then(|n| n.parse::<usize>().ok())
            {
                if job.local.len() <= n {
                    job.local.resize(n + 1, [0; 4]);
                }
                job.local[n] = *bits;
            } else if let Some(n) = name
                .strip_prefix("program.env[")
                .and_then(|r| r.strip_suffix(']'))
                .and_then(|n| n.parse::<usize>().ok())
            {
                if job.env.len() <= n {
                    job.env.resize(n + 1, [0; 4]);
                }
                job.env[n] = *bits;
            } else {
                let loc = fragment_location(name)
                    .ok_or_else(|| format!("`{name}`: not an input this runner maps"))?;
                case.push(Input::new(loc, Kind::Float, *bits));
            }
        }
        job.cases.push(case);
    }
    // Inputs the program declares but no case gives (e.g. the texcoords a
    // relative `fragment.texcoord[A0.x]` may reach) read zero, so the
    // harness's vertex stage writes every Location the program reads.
    let given: Vec<u32> = job.cases.iter().flatten().map(|i| i.location).collect();
    for input in &compiled.reflection.inputs {
        let Some(location) = input.location else {
            continue;
        };
        if given.contains(&location) {
            continue;
        }
        let kind = match input.component_type {
            nvp4c::reflect::ComponentType::Int => Kind::Int,
            nvp4c::reflect::ComponentType::Uint => Kind::Uint,
            _ => Kind::Float,
        };
        if let Some(first) = job.cases.first_mut() {
            first.push(Input::new(location, kind, [0; 4]));
        }
    }
    job.depth = t
        .cases
        .iter()
        .any(|c| c.probes.iter().any(|p| p.binding == "result.depth"));
    let out = dev
        .run_fragment(&spirv, &job)
        .map_err(|e| format!("{e:?}"))?;
    let mut fails = Vec::new();
    for (k, c) in t.cases.iter().enumerate() {
        let killed = out.killed(k);
        if killed != c.killed {
            fails.push(format!(
                "case {k}: device killed = {killed}, expected {}",
                c.killed
            ));
            continue;
        }
        if killed {
            continue;
        }
        for p in &c.probes {
            if p.binding == "result.depth" {
                let got = out.depth_f32(k).map_or(0, f32::to_bits);
                if !matches(got, p.values[2], p.tolerance) {
                    fails.push(format!(
                        "case {k}: device result.depth = {got:#010x} ({:?}), expected {:?}",
                        f32::from_bits(got),
                        p.values[2]
                    ));
                }
                continue;
            }
            let loc = result_location(&p.binding)
                .ok_or_else(|| format!("`{}`: not a result this runner maps", p.binding))?;
            let got = out.color(k, loc);
            for (i, (&bits, &want)) in got.iter().zip(&p.values).enumerate() {
                if !matches(bits, want, p.tolerance) {
                    fails.push(format!(
                        "case {k}: device {}.{} = {:#010x} ({:?}), expected {:?}",
                        p.binding,
                        "xyzw".as_bytes()[i] as char,
                        bits,
                        f32::from_bits(bits),
                        want
                    ));
                }
            }
        }
    }
    Ok(fails)
}

/// The parameter `program.env[n]` or `program.local[n]` an input names:
/// (true for local, n).
fn parameter(name: &str) -> Option<(bool, usize)> {
    let n = |prefix: &str| {
        name.strip_prefix(prefix)
            .and_then(|r| r.strip_suffix(']'))
            .and_then(|n| n.parse::<usize>().ok())
    };
    n("program.local[")
        .map(|i| (true, i))
        .or_else(|| n("program.env[").map(|i| (false, i)))
}

/// A vertex program test: one vertex per case, results captured.
fn run_vertex(dev: &Device, t: &NvTest, spirv: &[u32]) -> Result<Vec<String>, String> {
    let mut job = VertexJob::new(Vec::new(), Vec::new());
    for c in &t.cases {
        let mut vertex = Vec::new();
        for (name, bits) in &c.inputs {
            if let Some((local, n)) = parameter(name) {
                let params = if local { &mut job.local } else { &mut job.env };
                if params.len() <= n {
                    params.resize(n + 1, [0; 4]);
                }
                params[n] = *bits;
            } else {
                let loc = vertex_location(name)
                    .ok_or_else(|| format!("`{name}`: not a vertex input this runner maps"))?;
                vertex.push(Input::new(loc, Kind::Float, *bits));
            }
        }
        for p in &c.probes {
            let capture = vertex_result(&p.binding)
                .ok_or_else(|| format!("`{}`: not a vertex result this runner maps", p.binding))?;
            if !job.capture.contains(&capture) {
                job.capture.push(capture);
            }
        }
        job.vertices.push(vertex);
    }
    let out = dev.run_vertex(spirv, &job).map_err(|e| format!("{e:?}"))?;
    let mut fails = Vec::new();
    for (k, c) in t.cases.iter().enumerate() {
        for p in &c.probes {
            let got = match vertex_result(&p.binding) {
                Some(Capture::Position) => out.position(k),
                Some(Capture::Location(l)) => out.location(k, l),
                _ => unreachable!("mapped above"),
            };
            for (i, (&bits, &want)) in got.iter().zip(&p.values).enumerate() {
                if !matches(bits, want, p.tolerance) {
                    fails.push(format!(
                        "case {k}: device {}.{} = {:#010x} ({:?}), expected {:?}",
                        p.binding,
                        "xyzw".as_bytes()[i] as char,
                        bits,
                        f32::from_bits(bits),
                        want
                    ));
                }
            }
        }
    }
    Ok(fails)
}

/// The device, or `None` when it is missing outside CI (then the caller
/// skips; under CI=true this fails).
pub fn device() -> Option<&'static Device> {
    harness::device_or_skip()
}
