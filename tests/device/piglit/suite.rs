//! The piglit tests: the vendored shader_tests on lavapipe through nvp4c and
//! on Mesa's GL, the NV_gpu_program4 translations, and the differential
//! between the two implementations.

use std::path::{Path, PathBuf};

use crate::harness;

use super::probe::{self, FrameDiff};
use super::script::ShaderTest;
use super::vulkan::RunError;
use super::{
    ci_mode, interp, mesa, piglit_dir, run_on_lavapipe, run_on_mesa, scene, shader_tests,
    DIFFERENTIAL_MAX_BYTE_DIFF,
};

/// piglit's 89 assembly shader_tests (tests/piglit/README.md).
const VENDORED: usize = 89;

fn spec_files() -> Vec<PathBuf> {
    shader_tests(&piglit_dir().join("spec"))
}

fn nv4_files() -> Vec<PathBuf> {
    shader_tests(&piglit_dir().join("nv4"))
}

fn load(path: &Path) -> ShaderTest {
    ShaderTest::load(path).unwrap_or_else(|e| panic!("{e}"))
}

fn name(path: &Path) -> String {
    path.strip_prefix(piglit_dir())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// The original piglit file an NV4 translation stands for: the same path
/// under spec/.
fn original_of(nv4: &Path) -> PathBuf {
    let rel = nv4.strip_prefix(piglit_dir().join("nv4")).unwrap();
    piglit_dir().join("spec").join(rel)
}

/// Whether Mesa's GL can be used; outside CI a missing one is a loud
/// SKIPPED line, in CI a failure.
pub(super) fn mesa_or_skip() -> bool {
    let probe = mesa::with_context(|m| {
        let missing: Vec<&str> = [
            "GL_ARB_vertex_program",
            "GL_ARB_fragment_program",
            "GL_ARB_fragment_program_shadow",
            "GL_ARB_texture_rectangle",
        ]
        .into_iter()
        .filter(|e| !m.has_extension(e))
        .collect();
        (format!("{} {}", m.renderer, m.version), missing)
    });
    match probe {
        Ok((_, missing)) if !missing.is_empty() => {
            panic!("Mesa's GL lacks {missing:?}, which the oracle needs")
        }
        Ok(_) => true,
        Err(e) if ci_mode() => panic!("CI=true and Mesa's GL is not usable: {e}"),
        Err(e) => {
            use std::io::Write;
            let _ = writeln!(
                std::io::stderr(),
                "SKIPPED: no Mesa GL (install libegl1 libegl-mesa0 libgl1-mesa-dri): {e}"
            );
            false
        }
    }
}

/// Draws `test` with Mesa's GL in a context of its own, so that no GL state
/// (a bound program, an enable) carries over from another file.
pub(super) fn mesa_run(test: &ShaderTest) -> Result<super::MesaRun, RunError> {
    mesa::with_context(|m| run_on_mesa(m, test))
        .map_err(RunError::Backend)
        .and_then(|r| r)
}

#[test]
fn every_vendored_shader_test_parses_into_commands_the_runner_implements() {
    let files = spec_files();
    assert_eq!(
        files.len(),
        VENDORED,
        "tests/piglit/spec/ holds piglit's 89 files"
    );
    for f in files.iter().chain(&nv4_files()) {
        let t = load(f);
        assert!(
            t.vertex_program.is_some() || t.fragment_program.is_some(),
            "{}",
            name(f)
        );
        assert!(!t.commands.is_empty(), "{}: no [test] commands", name(f));
    }
}

/// Each NV_gpu_program4 translation keeps its original's `[test]` section
/// byte for byte, so both must pass the same probes.
#[test]
fn nv4_translations_keep_the_original_test_section() {
    let files = nv4_files();
    assert!(files.len() >= 5, "at least five translations");
    let section = |p: &Path| {
        let text = std::fs::read_to_string(p).unwrap();
        let at = text.find("[test]").expect("a [test] section");
        text[at..].to_string()
    };
    for f in &files {
        assert_eq!(section(f), section(&original_of(f)), "{}", name(f));
    }
}

#[test]
fn nv4_translations_pass_on_lavapipe_and_the_interpreter_agrees() {
    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    let mut report = Vec::new();
    let (mut probes, mut compared) = (0, 0);
    for f in nv4_files() {
        let t = load(&f);
        match run_on_lavapipe(dev, &t) {
            Ok(run) => {
                probes += run.plan.probes().count();
                compared += run.interp.compared;
                for fail in &run.failures {
                    report.push(format!("{}:{}: {}", name(&f), fail.line, fail.message));
                }
                for d in &run.interp.disagreements {
                    report.push(format!("{}: interpreter: {d}", name(&f)));
                }
            }
            Err(e) => report.push(format!("{}: {e}", name(&f))),
        }
    }
    assert!(report.is_empty(), "{}", report.join("\n"));
    assert!(probes > 0 && compared > 0);
    eprintln!("nv4 translations: {probes} probes passed; {compared} probed pixels computed by the interpreter agree");
}

/// The vendored files whose program the specification rejects, with the
/// code nvp4c gives (docs/conformance.md, "piglit's ARB shader_tests",
/// quotes the sentence): every other file must pass.
const SPEC_REJECTS: &[(&str, &str)] = &[(
    "spec/arb_vertex_program/vp-arl-constant-array-huge-relative-offset.shader_test",
    "E0347",
)];

/// The code nvp4c must reject `path` with, if the specification rejects it.
fn spec_rejects(path: &Path) -> Option<&'static str> {
    let n = name(path);
    SPEC_REJECTS
        .iter()
        .find(|(file, _)| n == *file)
        .map(|&(_, code)| code)
}

/// Programs Mesa 22.3.6 draws differently from the specification
/// (docs/conformance.md, "Mesa deviations"): the file, the channels that
/// differ, and why. Pixels differing in other channels still fail.
const MESA_DEVIATIONS: &[(&str, [bool; 4], &str)] = &[(
    "asmparsertest/ARBvp1.0/lit.txt",
    [false, false, true, false],
    "LIT's specular term is 0^-0.5 = +Inf, clamped to 1 (NV_vertex_program 2.14.1.10.17: EXP(t.w*LOG(t.y)), LOG(0.0) = -Inf); Mesa gives 0",
)];

/// The channels Mesa may draw differently in `label`'s file, and why.
fn mesa_deviation(label: &str) -> Option<([bool; 4], &'static str)> {
    MESA_DEVIATIONS
        .iter()
        .find(|(file, _, _)| label == *file)
        .map(|&(_, channels, why)| (channels, why))
}

/// All 89 files through nvp4c on lavapipe: each passes its probes and the
/// interpreter agrees with every probed pixel it can compute, except the
/// files of [`SPEC_REJECTS`], which must fail to load with their code.
#[test]
fn every_vendored_shader_test_passes_on_lavapipe() {
    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    let mut report = Vec::new();
    let (mut passed, mut rejected, mut probes, mut compared) = (0, 0, 0, 0);
    for f in spec_files() {
        let t = load(&f);
        match (spec_rejects(&f), run_on_lavapipe(dev, &t)) {
            (None, Ok(run)) if run.failures.is_empty() && run.interp.disagreements.is_empty() => {
                passed += 1;
                probes += run.plan.probes().count();
                compared += run.interp.compared;
            }
            (None, Ok(run)) => {
                for fail in &run.failures {
                    report.push(format!("{}:{}: {}", name(&f), fail.line, fail.message));
                }
                for d in &run.interp.disagreements {
                    report.push(format!("{}: interpreter: {d}", name(&f)));
                }
            }
            (None, Err(e)) => report.push(format!("{}: {e}", name(&f))),
            (Some(code), Err(RunError::Compile { codes, .. })) if codes.contains(&code) => {
                rejected += 1
            }
            (Some(code), other) => report.push(format!(
                "{}: the specification rejects this program, so nvp4c must fail with {code}; got {}",
                name(&f),
                match other {
                    Ok(_) => "a run".to_string(),
                    Err(e) => e.to_string(),
                }
            )),
        }
    }
    assert!(report.is_empty(), "{}", report.join("\n"));
    assert_eq!(passed + rejected, VENDORED);
    assert_eq!(rejected, SPEC_REJECTS.len());
    eprintln!(
        "piglit shader_tests on lavapipe: {passed} of {VENDORED} pass ({probes} probes; {compared} probed pixels computed by the interpreter agree); {rejected} rejected as the specification requires (docs/conformance.md)"
    );
}

/// The oracle's own check: Mesa's GL passes every vendored file through
/// this runner, which validates the runner's reading of shader_runner's
/// commands independently of nvp4c.
#[test]
fn every_vendored_shader_test_passes_on_mesa_gl() {
    if !mesa_or_skip() {
        return;
    }
    let mut report = Vec::new();
    for f in spec_files() {
        match mesa_run(&load(&f)) {
            Ok(run) => {
                for fail in &run.failures {
                    report.push(format!("{}:{}: {}", name(&f), fail.line, fail.message));
                }
            }
            Err(e) => report.push(format!("{}: {e}", name(&f))),
        }
    }
    assert!(report.is_empty(), "{}", report.join("\n"));
}

/// Mesa's GL against nvp4c on lavapipe, every pixel of every read-back:
/// the NV_gpu_program4 translations against Mesa drawing their ARB
/// originals, and every vendored file (but those of [`SPEC_REJECTS`]) drawn
/// by both from the same text.
#[test]
fn mesa_gl_and_nvp4c_on_lavapipe_draw_the_same_pixels() {
    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    let mut pairs: Vec<(PathBuf, PathBuf)> = nv4_files()
        .into_iter()
        .map(|f| (original_of(&f), f))
        .collect();
    // The files the specification rejects are drawn by Mesa only (by
    // every_vendored_shader_test_passes_on_mesa_gl).
    pairs.extend(
        spec_files()
            .into_iter()
            .filter(|f| spec_rejects(f).is_none())
            .map(|f| (f.clone(), f)),
    );
    if !mesa_or_skip() {
        return;
    }
    let mut report = Vec::new();
    let mut total = FrameDiff::default();
    let mut ties = Ties::default();
    for (gl_file, vk_file) in &pairs {
        let label = format!("{} (Mesa) / {} (nvp4c)", name(gl_file), name(vk_file));
        let gl = match mesa_run(&load(gl_file)) {
            Ok(r) => r,
            Err(e) => {
                report.push(format!("{label}: Mesa: {e}"));
                continue;
            }
        };
        let vk = match run_on_lavapipe(dev, &load(vk_file)) {
            Ok(r) => r,
            Err(e) => {
                report.push(format!("{label}: lavapipe: {e}"));
                continue;
            }
        };
        compare_runs(&label, &gl, &vk, &mut report, &mut total, &mut ties);
    }
    assert!(report.is_empty(), "{}", report.join("\n"));
    assert!(total.pixels > 0);
    // Mesa implements no NV_gpu_program4: the NV4 translations are drawn by
    // nvp4c only, against Mesa drawing the ARB originals.
    let nv4_on_mesa = mesa::with_context(|m| m.has_extension("GL_NV_gpu_program4")).unwrap();
    assert!(
        !nv4_on_mesa,
        "Mesa now has NV_gpu_program4: draw the translations there too"
    );
    eprintln!(
        "differential: {} file pairs, {} pixels and {} depth samples compared; {} pixels differ on a tie (rasterisation, rounding, or a channel the spec leaves undefined), no other",
        pairs.len(),
        total.pixels,
        total.depth_samples,
        ties.count
    );
    for t in ties.first.iter().chain(&ties.deviations) {
        eprintln!("  {t}");
    }
}

/// Pixels that differ on a tie (`interp::rasterisation_tie`,
/// `interp::value_tie`):
/// how many, and the first few.
#[derive(Default)]
pub(super) struct Ties {
    pub count: usize,
    pub first: Vec<String>,
    /// Pixels explained by a documented Mesa deviation ([`MESA_DEVIATIONS`]).
    pub deviation_count: usize,
    pub deviations: Vec<String>,
}

/// Compares Mesa's frames with lavapipe's. A differing pixel on a
/// rasterisation tie (a primitive edge through its centre, a texture
/// coordinate on a texel boundary) or whose differing channels the
/// interpreter finds undefined by the spec or on a rounding tie may rightly
/// differ (docs/conformance.md, "Differential testing against Mesa"); any
/// other is reported.
pub(super) fn compare_runs(
    label: &str,
    gl: &super::MesaRun,
    vk: &super::LavapipeRun,
    report: &mut Vec<String>,
    total: &mut FrameDiff,
    ties: &mut Ties,
) {
    let d = match probe::compare(&gl.frames, &vk.frames, DIFFERENTIAL_MAX_BYTE_DIFF) {
        Ok(d) => d,
        Err(e) => {
            report.push(format!("{label}: {e}"));
            return;
        }
    };
    let reads = vk.plan.read_steps();
    let mut unexplained = Vec::new();
    let deviation = mesa_deviation(label);
    for &(frame, x, y, a, b) in &d.mismatches {
        if let Some((channels, why)) = deviation {
            if (0..4).all(|c| a[c] == b[c] || channels[c]) {
                if ties.deviations.len() < 4 {
                    ties.deviations.push(format!(
                        "{label}: ({x}, {y}) Mesa {a:?}, nvp4c {b:?}: {why}"
                    ));
                }
                ties.deviation_count += 1;
                continue;
            }
        }
        let tie =
            interp::rasterisation_tie(&vk.plan, reads[frame], &vk.vertex, x, y).or_else(|| {
                interp::value_tie(
                    &vk.plan,
                    reads[frame],
                    (&vk.vertex, &vk.fragment),
                    (x, y),
                    a,
                    b,
                )
            });
        match tie {
            Some(why) => {
                if ties.first.len() < 20 {
                    ties.first.push(format!(
                        "{label}: ({x}, {y}) Mesa {a:?}, nvp4c {b:?}: {why}"
                    ));
                }
                ties.count += 1;
            }
            None => unexplained.push((frame, x, y, a, b)),
        }
    }
    let more = d.mismatch_count - d.mismatches.len();
    if !unexplained.is_empty() || more > 0 || d.depth_mismatches > 0 {
        report.push(format!(
            "{label}: {} of {} pixels differ by more than {DIFFERENTIAL_MAX_BYTE_DIFF}/255 (first: {:?}), {} depth samples differ",
            unexplained.len() + more,
            d.pixels,
            &unexplained[..unexplained.len().min(8)],
            d.depth_mismatches
        ));
    }
    total.pixels += d.pixels;
    total.depth_samples += d.depth_samples;
}

/// Whether the interpreter says the spec defines the drawn colour of a
/// single-program scene: the vertex program's colour at every vertex, and
/// the colour of the pixel at the window's centre. `None`: the
/// interpreter cannot tell (a texture instruction); the pixels are compared.
fn scene_is_defined(test: &ShaderTest) -> Option<bool> {
    let (vertex, fragment) = super::vulkan::compile(test).ok()?;
    let plan = super::gl::plan(test);
    let (vp, fp) = (
        interp::Checked::new(&vertex),
        interp::Checked::new(&fragment),
    );
    // A vertex program drawn with the fixed-function fragment stage: the
    // colour it hands that stage, at every vertex (a vertex the interpreter
    // cannot place in the window still colours what GL draws of it).
    if fragment.fixed_function
        && interp::vertex_results_defined(&plan, &vp, &["result.color"]) == Some(false)
    {
        return Some(false);
    }
    let reads = plan.read_steps();
    match interp::pixel(
        &plan,
        *reads.last()?,
        &vp,
        &fp,
        plan.width / 2,
        plan.height / 2,
    ) {
        Ok(Some((_, defined))) => Some(defined.iter().all(|&d| d)),
        _ => None,
    }
}

/// Whether the scene's colour is one the program never writes, so that
/// neither GL nor Vulkan defines it: a program that never writes its main
/// result (nvp4c's W0003: `result.color`, or `result.position`), or a
/// vertex program that writes no `result.color` for the fixed-function
/// fragment stage to read (Vulkan's validation also rejects that pipeline:
/// the fragment stage reads Location 0, which nothing writes).
fn draws_an_unwritten_colour(test: &ShaderTest) -> bool {
    let Ok((vertex, fragment)) = super::vulkan::compile(test) else {
        return false;
    };
    let never_writes_result = |s: &super::vulkan::Stage| {
        !s.fixed_function && s.compiled.warnings.iter().any(|d| d.code == "W0003")
    };
    let colour_for_fixed_function = fragment.fixed_function
        && !vertex
            .compiled
            .reflection
            .outputs
            .iter()
            .any(|o| o.location == Some(0));
    never_writes_result(&vertex) || never_writes_result(&fragment) || colour_for_fixed_function
}

/// Every ARB program under tests/ and examples/ that must load (piglit's
/// asmparsertest, the Cg fixtures, the diagnostics' examples, the ARB
/// conformance files' programs, the Doom 3-style interaction pair), drawn
/// alone with varied
/// inputs by Mesa's GL and by nvp4c on lavapipe, every pixel compared.
/// Programs Mesa rejects (the NV options Mesa does not implement) are
/// counted: the interpreter and hand-computed values cover them.
#[test]
fn arb_programs_in_tests_draw_the_same_on_mesa_gl_and_lavapipe() {
    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    if !mesa_or_skip() {
        return;
    }
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut programs = scene::arb_programs_in_tests(&manifest.join("tests"));
    programs.extend(scene::arb_programs_in_tests(&manifest.join("examples")));
    assert!(!programs.is_empty(), "tests/ holds ARB programs");
    let mut report = Vec::new();
    let mut total = FrameDiff::default();
    let mut ties = Ties::default();
    let (mut drawn, mut mesa_rejects, mut no_texture, mut undefined) = (0, 0, 0, 0);
    for (path, text) in &programs {
        let label = name(path);
        let test = match scene::program_scene(path, text) {
            Ok(t) => t,
            Err(why) => {
                no_texture += 1;
                eprintln!("not drawn: {label}: {why}");
                continue;
            }
        };
        let gl = match mesa_run(&test) {
            Ok(r) => r,
            Err(RunError::Compile { report: why, .. }) => {
                mesa_rejects += 1;
                eprintln!("Mesa rejects {label}: {why}");
                continue;
            }
            Err(e) => {
                report.push(format!("{label}: Mesa: {e}"));
                continue;
            }
        };
        if gl.frames.is_empty() {
            report.push(format!("{label}: Mesa read nothing back"));
            continue;
        }
        if scene_is_defined(&test) == Some(false) || draws_an_unwritten_colour(&test) {
            undefined += 1;
            continue;
        }
        match run_on_lavapipe(dev, &test) {
            Ok(vk) => {
                drawn += 1;
                compare_runs(&label, &gl, &vk, &mut report, &mut total, &mut ties);
            }
            Err(e) => report.push(format!("{label}: lavapipe: {e}")),
        }
    }
    assert!(report.is_empty(), "{}", report.join("\n"));
    eprintln!(
        "ARB programs in tests/ and examples/: {} found; {drawn} drawn by both ({} pixels compared; {} differ on a tie, {} by a documented Mesa deviation, no other); {mesa_rejects} rejected by Mesa; {no_texture} sample a target the runner sets up no texture for; {undefined} draw a colour the spec leaves undefined",
        programs.len(),
        total.pixels,
        ties.count,
        ties.deviation_count,
    );
    for t in ties.first.iter().chain(&ties.deviations) {
        eprintln!("  {t}");
    }
}

/// The probes can fail: a colour off by more than piglit's tolerance is
/// reported (with the line), one within it is not, and `probe all` sees a
/// single wrong pixel.
#[test]
fn probes_fail_outside_piglits_tolerance_and_pass_inside_it() {
    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    let text =
        "[require]\n\n[fragment program]\n!!NVfp4.0\nMOV result.color, program.local[0];\nEND\n\n\
                [test]\northo -1 1 -1 1\nclear color 0 0 0 1\nclear\n\
                parameter local_fp 0 (0.5, 0.25, 1, 0)\ndraw rect -1 -1 2 2\n\
                probe rgba 3 4 0.505 0.25 1 0\n\
                relative probe rgb (0.5, 0.5) (0.52, 0.25, 1)\n\
                probe all rgba 0.5 0.25 1 0\n\
                parameter local_fp 0 (0, 1, 0, 1)\ndraw rect 0.5 0.5 0.01 0.01\n\
                probe all rgba 0.5 0.25 1 0\n";
    let test = ShaderTest::parse(Path::new("inline.shader_test"), text).unwrap();
    let run = run_on_lavapipe(dev, &test).unwrap();
    let lines: Vec<usize> = run.failures.iter().map(|f| f.line).collect();
    // Line 15: the pixel holds 128/255 = 0.502, 0.018 from 0.52 (line 14's
    // 0.505 is within 0.01); line 19: the small rectangle made a pixel
    // green.
    assert_eq!(lines, vec![15, 19], "{:?}", run.failures);
    assert!(
        run.failures[1].message.contains("is [0, 255, 0, 255]"),
        "{:?}",
        run.failures
    );
    assert!(run.failures[0].message.contains("(125, 125)"));
}

/// The GL state the runner puts in nvp4c's State block (`DrawCall::gl_state`:
/// GL's initial values) is the state Mesa's GL gives an ARB vertex program:
/// one program reads the bindings through a relatively addressed PARAM
/// array and draws binding i as the colour of cell i of a grid, on Mesa as
/// `!!ARBvp1.0` and through nvp4c as its `!!NVvp4.0` twin; every pixel is
/// compared. `state.light[n].spot.direction` and `state.light[n].half` are
/// left out: Mesa deviates there (docs/conformance.md).
#[test]
fn the_runners_gl_state_is_the_state_mesa_gives_programs() {
    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    if !mesa_or_skip() {
        return;
    }
    let mut bindings: Vec<String> = [
        "state.material.ambient",
        "state.material.diffuse",
        "state.material.back.diffuse",
        "state.material.specular",
        "state.material.emission",
        "state.material.shininess",
        "state.lightmodel.ambient",
        "state.lightmodel.scenecolor",
        "state.lightmodel.back.scenecolor",
        "state.fog.color",
        "state.fog.params",
        "state.point.size",
        "state.point.attenuation",
        "state.clip[2].plane",
        "state.matrix.mvp.row[1]",
        "state.matrix.projection.inverse.row[2]",
        "state.matrix.texture[1].transpose.row[3]",
    ]
    .map(String::from)
    .to_vec();
    for n in [0, 1] {
        for p in ["ambient", "diffuse", "specular", "position", "attenuation"] {
            bindings.push(format!("state.light[{n}].{p}"));
        }
        for p in [
            "ambient",
            "diffuse",
            "specular",
            "back.ambient",
            "back.diffuse",
            "back.specular",
        ] {
            bindings.push(format!("state.lightprod[{n}].{p}"));
        }
        for p in [
            "eye.s", "eye.t", "eye.r", "eye.q", "object.s", "object.t", "object.q",
        ] {
            bindings.push(format!("state.texgen[{n}].{p}"));
        }
    }
    let count = bindings.len();
    let array = format!("PARAM s[{count}] = {{ {} }};\n", bindings.join(", "));
    let arb = format!(
        "!!ARBvp1.0\n{array}ADDRESS a;\nARL a.x, program.local[0].x;\n\
         MOV result.position, vertex.position;\nMAD result.color, s[a.x], 0.25, 0.5;\nEND\n"
    );
    let nv4 = format!(
        "!!NVvp4.0\n{array}INT TEMP a;\nFLR.S a.x, program.local[0].x;\n\
         MOV result.position, vertex.position;\nMAD result.color, s[a.x], 0.25, 0.5;\nEND\n"
    );
    // A grid of 25-pixel cells, one per binding (edges on whole pixels, so
    // no pixel centre is on an edge); colour = binding × 0.25 + 0.5.
    let side = 10;
    assert!(count <= side * side);
    let cell = 0.2f32;
    let mut script = String::from("[test]\nclear color 0 0 0 0\nclear\n");
    for i in 0..count {
        let (x, y) = (
            -1.0 + cell * (i % side) as f32,
            -1.0 + cell * (i / side) as f32,
        );
        script.push_str(&format!(
            "parameter local_vp 0 ({i}, 0, 0, 0)\ndraw rect {x} {y} {cell} {cell}\n"
        ));
    }
    let test = |program: &str| {
        ShaderTest::parse(
            Path::new("state.shader_test"),
            &format!("[require]\n\n[vertex program]\n{program}\n{script}"),
        )
        .unwrap()
    };
    let gl = mesa_run(&test(&arb)).unwrap_or_else(|e| panic!("Mesa: {e}"));
    let vk = run_on_lavapipe(dev, &test(&nv4)).unwrap_or_else(|e| panic!("lavapipe: {e}"));
    let mut report = Vec::new();
    let mut total = FrameDiff::default();
    let mut ties = Ties::default();
    compare_runs("GL state", &gl, &vk, &mut report, &mut total, &mut ties);
    if let Some(first) = report.first() {
        // Name the binding of the first differing cell.
        let cell_of = |x: u32, y: u32| {
            let (cx, cy) = (
                (x as f32 / 250.0 * side as f32) as usize,
                (y as f32 / 250.0 * side as f32) as usize,
            );
            bindings.get(cy * side + cx).cloned().unwrap_or_default()
        };
        let named: Vec<String> = probe::compare(&gl.frames, &vk.frames, 0)
            .unwrap()
            .mismatches
            .iter()
            .map(|&(_, x, y, a, b)| format!("{}: Mesa {a:?}, nvp4c {b:?}", cell_of(x, y)))
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        panic!("{first}\n{}", named.join("\n"));
    }
    assert_eq!(ties.count, 0);
    eprintln!(
        "GL state: {count} bindings, {} pixels compared with Mesa",
        total.pixels
    );
}
