//! Differential testing of the Direct3D 9 front end: random valid shaders
//! of every version (`nvp4c::front::d3d9::testgen`) run on the device and
//! in the reference interpreter, every output compared component by
//! component: bit-exactly (NaN matching any NaN, a zero matching either
//! sign), except the output of the sink register, whose approximate values
//! compare within [`APPROX_TOLERANCE`] (docs/semantics.md). A case whose
//! run computes an infinity, a NaN or a denormal anywhere, or reads what
//! the interpreter calls undefined, is counted and not compared, as in the
//! NV differential test (tests/device/differential.rs).
//!
//! `NVP4C_D3D9_DIFF_COUNT` (default 24) programs per version from seed
//! `NVP4C_D3D9_DIFF_SEED` (default 0xD3D9_0000); `NVP4C_D3D9_DIFF_SHOW`
//! prints each shader, `NVP4C_D3D9_DIFF_VERSIONS=vs_3_0,ps_2_x` limits the
//! versions.

use std::collections::BTreeMap;
use std::path::Path;

use super::{compile_bytes, Shader};
use crate::harness::{self, Capture, FragmentJob, Input, Kind, VertexJob};
use nvp4c::front::d3d9::{assemble, table::Version, testgen};
use nvp4c::interp::{self, Inputs, Outcome, RunOptions};
use nvp4c::ir::VarKind;

const APPROX_TOLERANCE: f32 = 1e-3;
const CASES: usize = 8;

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| match v.strip_prefix("0x") {
            Some(h) => u64::from_str_radix(h, 16).ok(),
            None => v.parse().ok(),
        })
        .unwrap_or(default)
}

/// A generated shader the checker accepts (after dropping the arithmetic
/// lines it rejects) and how many lines that took.
fn valid(version: Version, seed: u64) -> (testgen::Generated, Vec<u8>, usize) {
    let mut rng = nvp4c::testgen::Rng::new(seed);
    let mut g = testgen::generate(version, &mut rng, CASES);
    let mut dropped = 0;
    loop {
        let source = g.source();
        let bytes = assemble::assemble_bytes(&source).unwrap_or_else(|e| {
            panic!("seed {seed:#x}: the generator wrote what the assembler rejects: {e}\n{source}")
        });
        let diags = match nvp4c::check_bytes(&bytes, &nvp4c::Options::default()) {
            Ok(_) => return (g, bytes, dropped),
            Err(d) => d,
        };
        let listing = nvp4c::source_listing(&bytes);
        let first = diags
            .iter()
            .find(|d| d.is_error())
            .expect("an error among the diagnostics");
        let at = first.primary_span().map_or(0, |s| s.start as usize);
        let line = listing[..at.min(listing.len())].matches('\n').count();
        // A limit of the whole shader (slots) is met by any line.
        let limit = first.code == "E3113";
        if !(g.drop_line(line) || limit && g.drop_before(line + 1)) {
            panic!(
                "seed {seed:#x}: the generator wrote a structural line the checker rejects:\n{}",
                diags.render("gen", &listing, false)
            );
        }
        dropped += 1;
    }
}

/// The interpreter's inputs for case `k`.
fn interp_inputs(s: &Shader, g: &testgen::Generated, k: usize) -> Inputs {
    let mut inputs = Inputs::default();
    for (n, v) in &g.c {
        inputs.env.insert(*n, *v);
    }
    for (n, v) in &g.i {
        inputs.local.insert(*n, harness::ibits(*v));
    }
    if !g.b.is_empty() {
        let mut words = vec![0u32; 16];
        for (n, v) in &g.b {
            words[*n as usize] = u32::from(*v);
        }
        inputs.buffers.insert(0, words);
    }
    // What the device gives a point drawn at pixel (k % W, k / W).
    let (x, y) = ((k % CASES) as f32, (k / CASES) as f32);
    inputs
        .set(
            "fragment.position",
            interp::floats([x + 0.5, y + 0.5, 0.0, 1.0]),
        )
        .unwrap();
    inputs
        .set("fragment.facing", interp::floats([1.0, 0.0, 0.0, 1.0]))
        .unwrap();
    for var in &s.program.variables {
        let (VarKind::Attrib(b), Some(name)) = (&var.kind, &var.name) else {
            continue;
        };
        if let Some(bits) = g.inputs[k].get(name) {
            inputs
                .set(&interp::attribute_name(s.program.stage, &b[0]), *bits)
                .unwrap();
        }
    }
    inputs
}

/// Whether the interpreter's run computed an infinity, a NaN or a
/// denormal, or met something it calls undefined: such a case is counted,
/// not compared.
fn uncomparable(o: &Outcome) -> bool {
    !o.undefined.is_empty()
        || o.trace_truncated
        || o.trace.iter().filter_map(|s| s.write.as_ref()).any(|w| {
            w.ty == nvp4c::isa::DataType::Float
                && (0..4).any(|c| {
                    let f = f32::from_bits(w.bits[c]);
                    w.mask & (1 << c) != 0 && (!f.is_finite() || (f != 0.0 && !f.is_normal()))
                })
        })
}

fn same(device: u32, interp: u32, approximate: bool) -> bool {
    let (a, b) = (f32::from_bits(device), f32::from_bits(interp));
    if approximate {
        return (a.is_nan() && b.is_nan())
            || (a - b).abs() <= APPROX_TOLERANCE * a.abs().max(b.abs()).max(1.0);
    }
    device == interp || (a.is_nan() && b.is_nan()) || (a == 0.0 && b == 0.0)
}

/// Per case: compared or not; mismatches.
struct Tally {
    compared: usize,
    components: usize,
    skipped: usize,
    mismatches: Vec<String>,
}

/// Each output of the program: its name, where the device writes it and
/// the interpreter's name.
fn outputs(s: &Shader) -> Vec<(String, Capture, String)> {
    let mut out = Vec::new();
    for var in &s.program.variables {
        let VarKind::Result(b) = &var.kind else {
            continue;
        };
        let name = var.name.clone().unwrap_or_default();
        let Some(slot) = s
            .reflection
            .outputs
            .iter()
            .find(|o| o.names.contains(&name))
        else {
            continue;
        };
        let capture = match (slot.location, slot.built_in) {
            (Some(l), _) => Capture::Location(l),
            (None, Some(nvp4c::reflect::BuiltIn::Position)) => Capture::Position,
            _ => continue,
        };
        out.push((name, capture, interp::result_name(&b[0])));
    }
    out
}

fn run(dev: &harness::Device, g: &testgen::Generated, bytes: &[u8]) -> Tally {
    let s = compile_bytes(bytes, &nvp4c::Options::default());
    let pixel = g.version.is_pixel();
    // Device inputs: each input variable at its Location.
    let location = |name: &str| -> Option<u32> {
        s.reflection
            .inputs
            .iter()
            .find(|i| i.names.iter().any(|n| n == name))
            .and_then(|i| i.location)
    };
    let device_inputs: Vec<Vec<Input>> = g
        .inputs
        .iter()
        .map(|case| {
            case.iter()
                .filter_map(|(name, bits)| {
                    location(name).map(|l| Input::new(l, Kind::Float, *bits))
                })
                .collect()
        })
        .collect();
    let mut env = vec![[0u32; 4]; 16];
    for (n, v) in &g.c {
        env[*n as usize] = *v;
    }
    let mut local = vec![[0u32; 4]; 16];
    for (n, v) in &g.i {
        local[*n as usize] = harness::ibits(*v);
    }
    let mut bools = vec![[0u32; 4]; 4];
    for (n, v) in &g.b {
        bools[*n as usize / 4][*n as usize % 4] = u32::from(*v);
    }
    let buffers = vec![(0, bools)];
    let outs = outputs(&s);
    // Device results per case, by output name.
    let mut device: Vec<BTreeMap<String, [u32; 4]>> = vec![BTreeMap::new(); CASES];
    let mut killed = [false; CASES];
    if pixel {
        let job = FragmentJob {
            env,
            local,
            buffers,
            width: Some(CASES as u32),
            ..FragmentJob::new(device_inputs)
        };
        let r = dev
            .run_fragment(&s.spirv, &job)
            .unwrap_or_else(|e| panic!("{e:?}\n{}", g.source()));
        for k in 0..CASES {
            killed[k] = r.killed(k);
            for (name, capture, _) in &outs {
                if let Capture::Location(l) = capture {
                    device[k].insert(name.clone(), r.color(k, *l));
                }
            }
        }
    } else {
        let job = VertexJob {
            env,
            local,
            buffers,
            ..VertexJob::new(device_inputs, outs.iter().map(|o| o.1).collect())
        };
        let r = dev
            .run_vertex(&s.spirv, &job)
            .unwrap_or_else(|e| panic!("{e:?}\n{}", g.source()));
        for (k, d) in device.iter_mut().enumerate() {
            for (name, capture, _) in &outs {
                let v = match capture {
                    Capture::Location(l) => r.location_f32(k, *l),
                    _ => r.position_f32(k),
                };
                d.insert(name.clone(), v.map(f32::to_bits));
            }
        }
    }
    let mut t = Tally {
        compared: 0,
        components: 0,
        skipped: 0,
        mismatches: Vec::new(),
    };
    for k in 0..CASES {
        let mut options = RunOptions::default();
        options.trace = true;
        let o = interp::run(&s.program, &interp_inputs(&s, g, k), &options)
            .unwrap_or_else(|e| panic!("{e}\n{}", g.source()));
        if uncomparable(&o) {
            t.skipped += 1;
            continue;
        }
        t.compared += 1;
        if o.killed != killed[k] {
            t.mismatches.push(format!(
                "case {k}: killed {} on the device, {} in the interpreter",
                killed[k], o.killed
            ));
            continue;
        }
        if o.killed {
            continue;
        }
        for (name, _, iname) in &outs {
            let Some(r) = o.results.get(iname) else {
                continue;
            };
            let got = device[k][name];
            let approximate = g.approximate == Some(name.as_str());
            t.components += r.defined().count_ones() as usize;
            for c in 0..4 {
                if r.defined() & (1 << c) != 0 && !same(got[c], r.bits[c], approximate) {
                    t.mismatches.push(format!(
                        "case {k} {name}.{}: device {:?} ({:#010x}), interpreter {:?} ({:#010x}); inputs {:?}",
                        ["x", "y", "z", "w"][c],
                        f32::from_bits(got[c]),
                        got[c],
                        f32::from_bits(r.bits[c]),
                        r.bits[c],
                        g.inputs[k]
                            .iter()
                            .map(|(n, b)| (n.clone(), b.map(f32::from_bits)))
                            .collect::<Vec<_>>()
                    ));
                }
            }
        }
    }
    t
}

/// The programs of a run, in order: (version, seed).
fn programs() -> Vec<(Version, u64)> {
    let count = env_u64("NVP4C_D3D9_DIFF_COUNT", 24);
    let base = env_u64("NVP4C_D3D9_DIFF_SEED", 0xD3D9_0000);
    let only = std::env::var("NVP4C_D3D9_DIFF_VERSIONS").ok();
    let mut out = Vec::new();
    for v in testgen::versions() {
        if only
            .as_ref()
            .is_some_and(|o| !o.split(',').any(|n| n == v.name()))
        {
            continue;
        }
        out.extend((base..base + count).map(|seed| (v, seed)));
    }
    out
}

/// The worker: runs programs `from..` on the device in this process and
/// reports each on standard output (`START i`, `DONE i compared skipped
/// components`, `MISMATCH i text`), for the parent to read even if the
/// driver kills the process.
fn worker(dev: &harness::Device, list: &[(Version, u64)], from: usize) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    for (i, &(v, seed)) in list.iter().enumerate().skip(from) {
        let (g, bytes, _) = valid(v, seed);
        writeln!(out, "START {i}").unwrap();
        out.flush().unwrap();
        let t = run(dev, &g, &bytes);
        for m in &t.mismatches {
            writeln!(out, "MISMATCH {i} {}", m.replace('\n', " ")).unwrap();
        }
        writeln!(
            out,
            "DONE {i} {} {} {}",
            t.compared, t.skipped, t.components
        )
        .unwrap();
        out.flush().unwrap();
    }
}

#[test]
fn generated_shaders_of_every_version_agree_on_the_device_and_in_the_interpreter() {
    const WORKER: &str = "NVP4C_D3D9_DIFF_WORKER";
    let list = programs();
    if let Ok(from) = std::env::var(WORKER) {
        let dev = harness::device_or_skip().expect("a device in the worker");
        worker(dev, &list, from.parse().unwrap());
        return;
    }
    // Every program must check, device or not.
    let (mut dropped, mut lines) = (0, 0);
    let mut generated = Vec::new();
    for &(v, seed) in &list {
        let (g, _, d) = valid(v, seed);
        dropped += d;
        lines += g.lines.len() + d;
        generated.push(g);
    }
    if harness::device_or_skip().is_none() {
        return;
    }
    // The device runs in a child process (this test binary as the worker),
    // restarted after a program that crashes the driver: lavapipe (Mesa
    // 22.3.6) crashes compiling a few valid modules (docs/semantics.md); such
    // a program is reported, its shader saved, and the run goes on.
    let show = std::env::var_os("NVP4C_D3D9_DIFF_SHOW").is_some();
    let mut failures = Vec::new();
    let mut crashes = Vec::new();
    let (mut compared, mut skipped, mut components) = (0, 0, 0);
    let mut per_version: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut next = 0;
    while next < list.len() {
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "d3d9::differential::generated_shaders_of_every_version_agree_on_the_device_and_in_the_interpreter",
                "--nocapture",
                "--test-threads",
                "1",
            ])
            .env(WORKER, next.to_string())
            .stderr(std::process::Stdio::inherit())
            .output()
            .expect("the test binary runs as a worker");
        let text = String::from_utf8_lossy(&out.stdout);
        let mut started = None;
        for line in text.lines() {
            let mut f = line.splitn(3, ' ');
            let (kind, i) = (f.next(), f.next().and_then(|i| i.parse::<usize>().ok()));
            let Some(i) = i else { continue };
            let (v, seed) = list[i];
            match kind {
                Some("START") => {
                    started = Some(i);
                    if show {
                        eprintln!("{} seed {seed:#x}:\n{}", v.name(), generated[i].source());
                    }
                }
                Some("MISMATCH") if failures.len() < 5 => failures.push(format!(
                    "{} seed {seed:#x}: {}\n{}",
                    v.name(),
                    f.next().unwrap_or(""),
                    generated[i].source()
                )),
                Some("DONE") => {
                    let n: Vec<usize> = f
                        .next()
                        .unwrap_or("")
                        .split(' ')
                        .filter_map(|x| x.parse().ok())
                        .collect();
                    compared += n[0];
                    skipped += n[1];
                    components += n[2];
                    let e = per_version.entry(v.name()).or_default();
                    e.0 += 1;
                    e.1 += n[0];
                    started = None;
                }
                _ => {}
            }
        }
        if out.status.success() {
            break;
        }
        // The worker died in program `started`: a driver crash.
        let Some(i) = started else {
            panic!("the worker failed before any program: {:?}", out.status);
        };
        let (v, seed) = list[i];
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("d3d9-lavapipe-crashes");
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join(format!("{}-{seed:x}.asm", v.name()));
        std::fs::write(&file, generated[i].source()).unwrap();
        crashes.push(format!("{} seed {seed:#x} ({})", v.name(), file.display()));
        next = i + 1;
    }
    assert!(
        failures.is_empty(),
        "{} mismatching shader(s):\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    eprintln!(
        "{} generated Direct3D 9 shaders: {} ran and agree, {} crashed the driver ({crashes:?}); {compared} cases ({components} output components) compared, {skipped} not compared for an infinity, NaN, denormal or undefined read; {dropped} of {lines} generated lines dropped as the checker rejected them; per version (programs, cases compared): {per_version:?}",
        list.len(),
        list.len() - crashes.len(),
        crashes.len(),
    );
    // A driver crash is rare; many would mean something else is wrong.
    assert!(
        crashes.len() * 100 <= list.len(),
        "{} of {} shaders crashed the driver: {crashes:?}",
        crashes.len(),
        list.len()
    );
    // Each version compares most of its cases.
    for (v, (programs, cases)) in &per_version {
        assert!(
            *cases * 2 >= programs * CASES,
            "{v}: only {cases} of {} cases compared",
            programs * CASES
        );
    }
}
