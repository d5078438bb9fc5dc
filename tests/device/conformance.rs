//! Runs every `.nvtest` file in tests/conformance/ (format: tests/device/common/nvtest.rs)
//! on the Vulkan device, unoptimised and with `-O`, and in the reference
//! interpreter.

use crate::common::nvtest;
use std::path::Path;

fn files(dir: &str) -> Vec<std::path::PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let Ok(rd) = std::fs::read_dir(&root) else {
        return Vec::new();
    };
    let mut v: Vec<_> = rd
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "nvtest"))
        .collect();
    v.sort();
    v
}

fn run_dir(dir: &str, minimum: usize) {
    let files = files(dir);
    assert!(files.len() >= minimum, "{dir} has {} tests", files.len());
    let dev = nvtest::device();
    let mut fails = Vec::new();
    for f in &files {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let t = match nvtest::parse(&std::fs::read_to_string(f).unwrap()) {
            Ok(t) => t,
            Err(e) => {
                fails.push(format!("{name}: {e}"));
                continue;
            }
        };
        match nvtest::run_interp(&t) {
            Ok(v) => fails.extend(v.into_iter().map(|m| format!("{name}: {m}"))),
            Err(e) => fails.push(format!("{name}: interpreter: {e}")),
        }
        if let Some(dev) = dev {
            // The module as compiled, and as `-O` optimises it: both must
            // give the expected results.
            for optimize in [false, true] {
                let how = if optimize { " (-O)" } else { "" };
                match nvtest::run_device_with(dev, &t, optimize) {
                    Ok(v) => fails.extend(v.into_iter().map(|m| format!("{name}{how}: {m}"))),
                    Err(e) => fails.push(format!("{name}{how}: device: {e}")),
                }
            }
        }
    }
    assert!(
        fails.is_empty(),
        "{} mismatch(es):\n{}",
        fails.len(),
        fails.join("\n")
    );
}

#[test]
fn conformance_files_pass_on_the_device_and_in_the_interpreter() {
    run_dir("tests/conformance", 1);
}

/// The ARB headers and their options (tests/conformance/arb/): every
/// program's values computed from ARB_vertex_program, ARB_fragment_program
/// and the NV option specifications.
#[test]
fn arb_conformance_files_pass_on_the_device_and_in_the_interpreter() {
    run_dir("tests/conformance/arb", 15);
}

/// The older NV headers (tests/conformance/nv/): `!!VP1.0`, `!!VP1.1`,
/// `!!VP2.0` and `!!FP1.0`, each value computed from NV_vertex_program,
/// NV_vertex_program1_1, NV_vertex_program2 and NV_fragment_program.
#[test]
fn nv_legacy_conformance_files_pass_on_the_device_and_in_the_interpreter() {
    run_dir("tests/conformance/nv", 15);
}

#[test]
fn saved_differential_regressions_pass() {
    run_dir("tests/differential", 0);
}
