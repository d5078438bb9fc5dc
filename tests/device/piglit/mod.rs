//! piglit's shader_test runner for nvp4c, and Mesa's OpenGL as an oracle.
//!
//! A shader_test file (tests/piglit/spec/, vendored from piglit; see
//! tests/piglit/README.md) holds an assembly program pair and a `[test]`
//! script of GL commands and probes. The runner:
//!
//! 1. parses it (`script`), as piglit's shader_runner.c does;
//! 2. runs the script over a model of the GL state it builds (`gl`):
//!    matrices, current attributes, program parameters, texture objects
//!    (`textures`, piglit's texel contents), and makes a plan of clears,
//!    draws (each with its state), read-backs and probes;
//! 3. draws the plan on lavapipe with the programs compiled by nvp4c
//!    (`vulkan`; a missing stage is a fixed-function companion program from
//!    `nvp4c::fixed_function`), or on Mesa's GL with the programs given
//!    to `glProgramStringARB` unchanged (`mesa`);
//! 4. checks the probes with piglit's tolerances (`probe`), checks the
//!    device's probed pixels against the interpreter (`interp`), and
//!    compares the two backends' frames pixel by pixel (the differential).
//!
//! It is test code, not a library module: it needs a Vulkan device (the
//! harness, ash) and Mesa's EGL, neither of which a user of the compiler
//! should have to link, and the shader_test format is piglit's test
//! language rather than a way to hand programs to a renderer.

pub mod gl;
pub mod interp;
pub mod mesa;
pub mod probe;
pub mod scene;
pub mod script;
pub mod textures;
pub mod vulkan;

mod generated;
mod suite;

use std::path::{Path, PathBuf};

use crate::harness::{Device, SceneFrame};

use gl::{Plan, ProbeKind};
use probe::ProbeFailure;
use script::ShaderTest;
use vulkan::RunError;

/// tests/piglit/.
pub fn piglit_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/piglit")
}

/// Every `*.shader_test` under `dir`, sorted.
pub fn shader_tests(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "shader_test") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The interpreter's reading of the probed pixels against the device's.
#[derive(Clone, Debug, Default)]
pub struct InterpCheck {
    /// Pixels computed by the interpreter and compared.
    pub compared: usize,
    /// Probed pixels where the comparison is not meaningful (texture
    /// instructions, a pixel centre on an edge).
    pub not_meaningful: usize,
    pub disagreements: Vec<String>,
}

/// One file drawn on lavapipe.
pub struct LavapipeRun {
    pub plan: Plan,
    /// The vertex program as the interpreter runs it.
    pub vertex: interp::Checked,
    /// The fragment program as the interpreter runs it.
    pub fragment: interp::Checked,
    pub frames: Vec<SceneFrame>,
    pub failures: Vec<ProbeFailure>,
    pub interp: InterpCheck,
}

/// Compiles and draws `test` on the device, checks its probes and the
/// interpreter's reading of the probed pixels.
pub fn run_on_lavapipe(dev: &Device, test: &ShaderTest) -> Result<LavapipeRun, RunError> {
    let (vertex, fragment) = vulkan::compile(test)?;
    let plan = gl::plan(test);
    let frames = vulkan::render(dev, &plan, &vertex, &fragment)?;
    let failures = probe::check(&plan, &frames);
    let interp = interp_check(&plan, &frames, &vertex, &fragment);
    Ok(LavapipeRun {
        vertex: interp::Checked::new(&vertex),
        fragment: interp::Checked::new(&fragment),
        plan,
        frames,
        failures,
        interp,
    })
}

/// The greatest difference, in 8-bit steps, allowed between the
/// interpreter's pixel (rounded to 8 bits as UNORM conversion does, in
/// double precision) and the device's: none, except on a rounding tie
/// ([`byte_may_be`]).
pub const INTERP_MAX_BYTE_DIFF: u8 = 0;

/// How far, in 8-bit steps, past half a step a channel may be and still
/// round either way: a colour computed as exactly k + 1/2 steps (0.3 is
/// 76.5/255 in single precision) is converted by the device as f × 255 in
/// single precision, where the half may round down, while the interpreter's
/// double-precision product rounds up; an approximate instruction
/// (ARB_vertex_program's "at least 1 part in 10^5") moves a value that
/// close to the half by a few thousandths of a step either way.
pub const ROUNDING_TIE: f64 = 0.005;

/// Whether a device may store `byte` for a channel whose value is `v`:
/// the nearest byte, or the other neighbour of a value within
/// [`ROUNDING_TIE`] of the half between them.
pub fn byte_may_be(v: f32, byte: u8) -> bool {
    let steps = f64::from(v.clamp(0.0, 1.0)) * 255.0;
    (f64::from(byte) - steps).abs() <= 0.5 + ROUNDING_TIE
}

fn interp_check(
    plan: &Plan,
    frames: &[SceneFrame],
    vertex: &vulkan::Stage,
    fragment: &vulkan::Stage,
) -> InterpCheck {
    let (vp, fp) = (interp::Checked::new(vertex), interp::Checked::new(fragment));
    let mut check = InterpCheck::default();
    let reads = plan.read_steps();
    for p in plan.probes() {
        let (x, y) = match &p.kind {
            ProbeKind::Pixel { x, y, .. } if *x >= 0 && *y >= 0 => (*x as u32, *y as u32),
            ProbeKind::All { .. } => (plan.width / 2, plan.height / 2),
            _ => continue,
        };
        if x >= plan.width || y >= plan.height {
            continue;
        }
        let (Some(&until), Some(frame)) = (reads.get(p.frame), frames.get(p.frame)) else {
            continue;
        };
        match interp::pixel(plan, until, &vp, &fp, x, y) {
            Ok(None) => check.not_meaningful += 1,
            Ok(Some((rgba, defined))) => {
                check.compared += 1;
                let want = rgba.map(|v| (f64::from(v.clamp(0.0, 1.0)) * 255.0).round() as u8);
                let got = frame.rgba8_at(x, y);
                let differs = |i: usize| {
                    want[i].abs_diff(got[i]) > INTERP_MAX_BYTE_DIFF && !byte_may_be(rgba[i], got[i])
                };
                if (0..4).any(|i| defined[i] && differs(i)) {
                    check.disagreements.push(format!(
                        "line {}: pixel ({x}, {y}) is {got:?} on the device, {want:?} in the interpreter (defined {defined:?})",
                        p.line
                    ));
                }
            }
            Err(e) => check
                .disagreements
                .push(format!("line {}: the interpreter failed: {e}", p.line)),
        }
    }
    check
}

/// One file drawn by Mesa's GL: its frames and its probes' failures.
pub struct MesaRun {
    pub frames: Vec<SceneFrame>,
    pub failures: Vec<ProbeFailure>,
}

/// Draws `test` with Mesa's GL in a fresh context.
pub fn run_on_mesa(mesa: &mesa::Mesa, test: &ShaderTest) -> Result<MesaRun, RunError> {
    let plan = gl::plan(test);
    let frames = mesa.render(test, &plan)?;
    let failures = probe::check(&plan, &frames);
    Ok(MesaRun { frames, failures })
}

/// The 8-bit channel difference the differential allows between Mesa's GL
/// and nvp4c on lavapipe: none. (Pixels whose texture coordinate lies on a
/// texel boundary or with a primitive edge through their centre are told
/// apart separately, `interp::rasterisation_tie`.)
pub const DIFFERENTIAL_MAX_BYTE_DIFF: u8 = 0;

/// A CI run must use the oracle; elsewhere a missing one is reported.
pub fn ci_mode() -> bool {
    std::env::var("CI")
        .map(|v| matches!(v.to_ascii_lowercase().as_str(), "true" | "1" | "yes"))
        .unwrap_or(false)
}
