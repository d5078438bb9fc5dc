//! Differential testing: random valid programs (nvp4c::testgen) run on the
//! Vulkan device and in the reference interpreter, compared component by
//! component: integer registers bit-exactly, float registers bit-exactly
//! (NaN matching any NaN) except the register of approximate results,
//! compared within the bound of docs/semantics.md. A mismatch is shrunk to
//! a minimal program and saved as a regression test in tests/differential/.
//!
//! `NVP4C_DIFF_COUNT` (default 500) programs from `NVP4C_DIFF_SEED`
//! (default 0x5EED_0000); scripts/differential.sh runs any number with a
//! random seed.

use crate::common::nvtest::{self, Expect, NvTest, Probe};
use crate::harness;
use nvp4c::interp;
use nvp4c::testgen::{self, Config, Generated};
use std::path::Path;

/// Relative bound for the approximate register (docs/semantics.md: the
/// largest of Vulkan's bounds for the generated ops, with the inputs the
/// generator uses).
const APPROX_TOLERANCE: f32 = 1e-3;

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| {
            if let Some(h) = v.strip_prefix("0x") {
                u64::from_str_radix(h, 16).ok()
            } else {
                v.parse().ok()
            }
        })
        .unwrap_or(default)
}

/// Expected results from the interpreter, as an `.nvtest`.
/// Also returns how many cases are not compared because their run computes
/// an infinity, a NaN or a denormal.
fn oracle(g: &Generated) -> Result<(NvTest, usize), String> {
    let source = g.source();
    let (program, _) = nvp4c::check(&source, &nvp4c::Options::default())
        .map_err(|d| d.render("gen.fp", &source, false))?;
    let mut t = NvTest {
        program: source.clone(),
        cases: Vec::new(),
    };
    let mut skipped = 0;
    for input in &g.inputs {
        let mut inputs = interp::Inputs::default();
        let mut case = nvtest::Case::default();
        for (n, bits) in input.iter().enumerate() {
            let name = g.input_name(n);
            inputs.set(&name, *bits)?;
            case.inputs.push((name, *bits));
        }
        let mut run_options = interp::RunOptions::default();
        run_options.trace = true;
        let out = interp::run(&program, &inputs, &run_options).map_err(|e| e.to_string())?;
        case.killed = out.killed;
        // docs/semantics.md: Vulkan does not promise IEEE infinities, NaNs
        // or denormals (lavapipe flushes denormals and folds 0 * INF). A
        // case whose run computes one anywhere is not compared, only
        // counted.
        let ieee_special = out
            .trace
            .iter()
            .filter_map(|step| step.write.as_ref())
            .any(|w| {
                w.ty == nvp4c::isa::DataType::Float
                    && (0..4).any(|c| {
                        let f = f32::from_bits(w.bits[c]);
                        w.mask & (1 << c) != 0
                            && w.undefined & (1 << c) == 0
                            && (!f.is_finite() || (f != 0.0 && !f.is_normal()))
                    })
            });
        skipped += usize::from(ieee_special);
        let whole_run_defined = out.undefined.is_empty() && !ieee_special && !out.trace_truncated;
        for (name, value) in &out.results {
            let approx = name == g.approximate_output();
            let values: [Expect; 4] = std::array::from_fn(|i| {
                let bits = value.bits[i];
                if !whole_run_defined || value.defined() & (1 << i) == 0 {
                    // The spec leaves it undefined: nothing to compare.
                    Expect::Any
                } else if value.types[i] == nvp4c::isa::DataType::Float
                    && f32::from_bits(bits).is_nan()
                {
                    Expect::AnyNan
                } else if value.types[i] == nvp4c::isa::DataType::Float && bits & 0x7fff_ffff == 0 {
                    // docs/semantics.md: the sign of a zero is not promised.
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

/// Mismatches of one generated program on the device (empty: agreement).
fn mismatches(dev: &harness::Device, g: &Generated) -> Result<Vec<String>, String> {
    nvtest::run_device(dev, &oracle(g)?.0)
}

#[test]
fn generated_programs_optimised_with_o_agree_with_the_interpreter() {
    // `-O` runs spirv-opt's passes over every kind of code testgen writes
    // (flow, subroutines, condition codes, integers): the optimised module
    // must still compute the interpreter's results.
    let count = env_u64("NVP4C_DIFF_O_COUNT", 100);
    let base = env_u64("NVP4C_DIFF_O_SEED", 0x0_5EED_1000);
    let config = Config::default();
    let Some(dev) = nvtest::device() else { return };
    let mut failures = Vec::new();
    for seed in base..base + count {
        let g = testgen::generate(seed, &config);
        let (t, _) = oracle(&g).unwrap_or_else(|e| panic!("seed {seed:#x}: {e}"));
        let m = nvtest::run_device_with(dev, &t, true)
            .unwrap_or_else(|e| panic!("seed {seed:#x}: {e}\n{}", g.source()));
        if !m.is_empty() {
            failures.push(format!("seed {seed:#x}:\n{}\n{}", m.join("\n"), g.source()));
        }
    }
    assert!(
        failures.is_empty(),
        "{} program(s) differ once optimised:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// Deletes lines (single statements and whole blocks) while the program
/// stays valid and still mismatches.
fn shrink(dev: &harness::Device, mut g: Generated) -> Generated {
    let removable = |l: &str| {
        !(l.starts_with("!!")
            || l == "END"
            || l.starts_with("TEMP")
            || l.starts_with("ADDRESS")
            || l.starts_with("PARAM")
            || l.starts_with("INT OUTPUT")
            || l.starts_with("OPTION")
            || l.starts_with("MOV result")
            || l.starts_with("MOV.S o")
            || l.ends_with(':'))
    };
    let opens = |l: &str| l.starts_with("IF ") || l.starts_with("REP") || l.starts_with("LOOP");
    let closes =
        |l: &str| l.starts_with("ENDIF") || l.starts_with("ENDREP") || l.starts_with("ENDLOOP");
    let mut progress = true;
    while progress {
        progress = false;
        let mut i = 0;
        while i < g.lines.len() {
            if !removable(&g.lines[i]) {
                i += 1;
                continue;
            }
            // A block opener goes with its whole block.
            let mut end = i + 1;
            if opens(&g.lines[i]) {
                let mut depth = 0;
                for (j, l) in g.lines.iter().enumerate().skip(i) {
                    if opens(l) {
                        depth += 1;
                    }
                    if closes(l) {
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
                progress = true;
            } else {
                i += 1;
            }
        }
    }
    // Fewer cases too: keep one case that still fails.
    for k in 0..g.inputs.len() {
        let mut candidate = g.clone();
        candidate.inputs = vec![g.inputs[k]];
        if mismatches(dev, &candidate).is_ok_and(|m| !m.is_empty()) {
            return candidate;
        }
    }
    g
}

#[test]
fn generated_programs_agree_on_the_device_and_in_the_interpreter() {
    let count = env_u64("NVP4C_DIFF_COUNT", 500);
    let base = env_u64("NVP4C_DIFF_SEED", 0x5EED_0000);
    agree(&Config::default(), base, count);
}

/// The ARB languages (`!!ARBfp1.0`, `!!ARBvp1.0`, plain and with each NV
/// option): `NVP4C_DIFF_ARB_COUNT` (default 80) programs of each.
#[test]
fn generated_arb_programs_agree_on_the_device_and_in_the_interpreter() {
    let count = env_u64("NVP4C_DIFF_ARB_COUNT", 80);
    let base = env_u64("NVP4C_DIFF_ARB_SEED", 0xA4B_0000);
    for language in testgen::Language::ALL {
        if language == testgen::Language::Nv4Fragment {
            continue;
        }
        let mut config = Config::default();
        config.language = language;
        agree(&config, base, count);
    }
}

/// Runs `count` programs from seed `base` on the device and in the
/// interpreter; saves shrunk mismatches in tests/differential/.
fn agree(config: &Config, base: u64, count: u64) {
    let language = config.language;
    // Every program must compile and run in the interpreter, device or not.
    let mut skipped = 0;
    for seed in base..base + count {
        let g = testgen::generate(seed, config);
        match oracle(&g) {
            Ok((_, n)) => skipped += n,
            Err(e) => panic!("{language:?} seed {seed:#x}: {e}\n{}", g.source()),
        }
    }
    let Some(dev) = nvtest::device() else { return };
    let mut failures = Vec::new();
    for seed in base..base + count {
        let g = testgen::generate(seed, config);
        let m = mismatches(dev, &g)
            .unwrap_or_else(|e| panic!("{language:?} seed {seed:#x}: {e}\n{}", g.source()));
        if m.is_empty() {
            continue;
        }
        let small = shrink(dev, g);
        let (t, _) = oracle(&small).expect("a shrunk program still checks");
        let why = mismatches(dev, &small).unwrap_or_default().join("\n");
        let file = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!(
            "tests/differential/{}seed-{seed:x}.nvtest",
            file_prefix(language)
        ));
        let text = nvtest::render(&t, &format!("Differential mismatch, {language:?} seed {seed:#x} (shrunk). Expected values are the interpreter's;\nthe device gave:\n{why}"));
        let _ = std::fs::write(&file, text);
        failures.push(format!(
            "{language:?} seed {seed:#x}: saved {}\n{why}\n{}",
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
        "{language:?}: {count} generated programs agree (seeds {base:#x}..{:#x}); {skipped} of their {} cases compute an infinity, NaN or denormal and were not compared (docs/semantics.md)",
        base + count,
        count as usize * config.cases
    );
}

/// The saved regression's name prefix: none for NV4 (the existing files),
/// the language otherwise.
fn file_prefix(language: testgen::Language) -> String {
    if language == testgen::Language::Nv4Fragment {
        String::new()
    } else {
        format!("{language:?}-").to_lowercase()
    }
}
