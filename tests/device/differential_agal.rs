//! Differential testing of the AGAL front end: random valid AGAL1, AGAL2
//! (with ife/ine/ifg/ifl/els/eif) and AGAL3 fragment programs
//! (nvp4c::front::agal::testgen) run on the Vulkan device and in the
//! reference interpreter, compared component by component: bit-exactly
//! (NaN matching any NaN, a zero of either sign matching a zero), except
//! `oc3`, the register of approximate results, within the bound of
//! docs/semantics.md. Cases whose run computes an infinity, a NaN or a
//! denormal are counted, not compared (Vulkan does not promise IEEE
//! specials, docs/semantics.md).
//!
//! `NVP4C_AGAL_DIFF_COUNT` (default 300) programs from
//! `NVP4C_AGAL_DIFF_SEED` (default 0xA6A1_0000); a mismatch is shrunk and
//! saved as tests/differential/agal-seed-<seed>.nvtest.

use std::path::Path;

use crate::common::nvtest::{self, Expect, NvTest, Probe};
use nvp4c::front::agal::testgen::{self, Generated};
use nvp4c::interp;

/// docs/semantics.md's bounds for the approximate opcodes, with the
/// inputs the generator uses (as tests/device/differential.rs).
const APPROX_TOLERANCE: f32 = 1e-3;

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| match v.strip_prefix("0x") {
            Some(h) => u64::from_str_radix(h, 16).ok(),
            None => v.parse().ok(),
        })
        .unwrap_or(default)
}

/// The expected results of `g` from the interpreter, and how many cases
/// were not compared.
fn oracle(g: &Generated) -> Result<(NvTest, usize), String> {
    let source = g.source();
    let (program, _) = nvp4c::check(&source, &nvp4c::Options::default())
        .map_err(|d| d.render("gen.agalasm", &source, false))?;
    let mut t = NvTest {
        program: source.clone(),
        cases: Vec::new(),
    };
    let mut skipped = 0;
    for input in &g.inputs {
        let mut inputs = interp::Inputs::default();
        let mut case = nvtest::Case::default();
        for (n, bits) in input.iter().enumerate() {
            let name = format!("fragment.attrib[{n}]");
            inputs.set(&name, *bits)?;
            case.inputs.push((name, *bits));
        }
        for (n, bits) in g.constants.iter().enumerate() {
            let name = format!("program.env[{n}]");
            inputs.set(&name, *bits)?;
            case.inputs.push((name, *bits));
        }
        let mut run_options = interp::RunOptions::default();
        run_options.trace = true;
        let out = interp::run(&program, &inputs, &run_options).map_err(|e| e.to_string())?;
        case.killed = out.killed;
        // ft3 (and oc3, and the scratch temporaries of `sqt` and the `if`
        // comparisons) hold approximations computed from exact values only:
        // an infinity or NaN there affects nothing else, and oc3's final
        // value is compared only where it is finite and normal.
        let approximate = |t: &str| t == "ft3" || t == "oc3" || t.starts_with("tmp");
        let ieee_special = out
            .trace
            .iter()
            .filter_map(|s| s.write.as_ref())
            .filter(|w| !approximate(&w.target))
            .any(|w| {
                (0..4).any(|c| {
                    let f = f32::from_bits(w.bits[c]);
                    w.ty == nvp4c::isa::DataType::Float
                        && w.mask & (1 << c) != 0
                        && w.undefined & (1 << c) == 0
                        && (!f.is_finite() || (f != 0.0 && !f.is_normal()))
                })
            });
        skipped += usize::from(ieee_special);
        let defined = out.undefined.is_empty() && !ieee_special && !out.trace_truncated;
        for (name, value) in &out.results {
            let approx = g.version >= 2 && name == "result.color[3]";
            let values: [Expect; 4] = std::array::from_fn(|i| {
                let bits = value.bits[i];
                let f = f32::from_bits(bits);
                if !defined
                    || value.defined() & (1 << i) == 0
                    || (approx && !(f.is_normal() || f == 0.0))
                {
                    Expect::Any
                } else if f32::from_bits(bits).is_nan() {
                    Expect::AnyNan
                } else if bits & 0x7fff_ffff == 0 {
                    Expect::Zero
                } else if approx {
                    Expect::Float(f32::from_bits(bits))
                } else {
                    Expect::Bits(bits)
                }
            });
            if values.iter().all(|v| *v == Expect::Any) {
                continue;
            }
            case.probes.push(Probe {
                binding: name.clone(),
                values,
                tolerance: if approx { APPROX_TOLERANCE } else { 0.0 },
            });
        }
        t.cases.push(case);
    }
    Ok((t, skipped))
}

fn mismatches(dev: &crate::harness::Device, g: &Generated) -> Result<Vec<String>, String> {
    nvtest::run_device(dev, &oracle(g)?.0)
}

/// Deletes lines (an `if` with its whole block) while the program still
/// compiles and still mismatches; the header and the output moves stay.
fn shrink(dev: &crate::harness::Device, mut g: Generated) -> Generated {
    let keep = |l: &str| l.starts_with("//") || l.contains(" oc");
    let mut i = 1;
    while i < g.lines.len() {
        if keep(&g.lines[i]) || g.lines[i] == "els" || g.lines[i] == "eif" {
            i += 1;
            continue;
        }
        let mut end = i + 1;
        if g.lines[i].starts_with("if") {
            let mut depth = 0;
            for (j, l) in g.lines.iter().enumerate().skip(i) {
                if l.starts_with("if") {
                    depth += 1;
                } else if l == "eif" {
                    depth -= 1;
                    if depth == 0 {
                        end = j + 1;
                        break;
                    }
                }
            }
        }
        let mut candidate = g.clone();
        candidate.lines.drain(i..end);
        let still = nvp4c::compile(&candidate.source(), &nvp4c::Options::default()).is_ok()
            && mismatches(dev, &candidate).is_ok_and(|m| !m.is_empty());
        if still {
            g = candidate;
        } else {
            i += 1;
        }
    }
    g
}

#[test]
fn generated_agal_programs_agree_on_the_device_and_in_the_interpreter() {
    let count = env_u64("NVP4C_AGAL_DIFF_COUNT", 300);
    let base = env_u64("NVP4C_AGAL_DIFF_SEED", 0xA6A1_0000);
    let program = |seed: u64| testgen::generate(seed, 1 + (seed % 3) as u32);
    // Every program compiles and runs in the interpreter, device or not.
    let mut skipped = 0;
    let mut compared = 0;
    for seed in base..base + count {
        let g = program(seed);
        match oracle(&g) {
            Ok((_, n)) => {
                skipped += n;
                compared += g.inputs.len() - n;
            }
            Err(e) => panic!("seed {seed:#x}: {e}\n{}", g.source()),
        }
    }
    let Some(dev) = nvtest::device() else { return };
    let mut failures = Vec::new();
    for seed in base..base + count {
        let g = program(seed);
        let m =
            mismatches(dev, &g).unwrap_or_else(|e| panic!("seed {seed:#x}: {e}\n{}", g.source()));
        if m.is_empty() {
            continue;
        }
        let small = shrink(dev, g);
        let (t, _) = oracle(&small).expect("a shrunk program still checks");
        let why = mismatches(dev, &small).unwrap_or_default().join("\n");
        let file = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(format!("tests/differential/agal-seed-{seed:x}.nvtest"));
        let text = nvtest::render(&t, &format!("AGAL differential mismatch, seed {seed:#x} (shrunk). Expected values are the interpreter's;\nthe device gave:\n{why}"));
        let _ = std::fs::write(&file, text);
        failures.push(format!(
            "seed {seed:#x}: saved {}\n{why}\n{}",
            file.display(),
            small.source()
        ));
        if failures.len() >= 5 {
            break;
        }
    }
    assert!(
        failures.is_empty(),
        "{} mismatching program(s):\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    eprintln!(
        "{count} generated AGAL programs agree (seeds {base:#x}..{:#x}): {compared} cases compared, {skipped} computing an infinity, NaN or denormal not compared (docs/semantics.md)",
        base + count
    );
}
