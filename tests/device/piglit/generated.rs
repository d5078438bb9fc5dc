//! Programs from the random generator (`nvp4c::testgen`) drawn by Mesa's GL
//! and by nvp4c on lavapipe, every pixel compared: the independent oracle
//! for the generated programs of the plain ARB dialects (Mesa implements
//! none of the NV options; those programs are checked against the
//! interpreter by tests/device/differential.rs).
//!
//! `NVP4C_MESA_DIFF_COUNT` programs of each of `!!ARBfp1.0` and
//! `!!ARBvp1.0` (default 16) from `NVP4C_MESA_DIFF_SEED` (default
//! 0x3E5A_0000); scripts/differential.sh runs any number with a random
//! seed.

use crate::harness;

use nvp4c::testgen::{self, Config, Language};

use super::probe::FrameDiff;
use super::run_on_lavapipe;
use super::scene;
use super::suite::{mesa_or_skip, mesa_run, Ties};
use super::{interp, probe, DIFFERENTIAL_MAX_BYTE_DIFF};

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .map(|v| v.replace('_', ""))
        .and_then(|v| match v.strip_prefix("0x") {
            Some(h) => u64::from_str_radix(h, 16).ok(),
            None => v.parse().ok(),
        })
        .unwrap_or(default)
}

/// The languages Mesa draws: the plain ARB dialects.
const LANGUAGES: [Language; 2] = [Language::ArbFragment, Language::ArbVertex];

#[test]
fn generated_arb_programs_draw_the_same_on_mesa_gl_and_lavapipe() {
    let count = env_u64("NVP4C_MESA_DIFF_COUNT", 16);
    let base = env_u64("NVP4C_MESA_DIFF_SEED", 0x3E5A_0000);
    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    if !mesa_or_skip() {
        return;
    }
    let mut report = Vec::new();
    let mut hit = vec![false; MESA_DEVIATIONS.len()];
    for language in LANGUAGES {
        let mut config = Config::default();
        config.language = language;
        let mut total = FrameDiff::default();
        let mut causes = Causes::default();
        let mut failing = 0;
        let mut colours = std::collections::HashSet::new();
        let known = DEVIATION_SEEDS
            .iter()
            .filter(|&&(l, seed)| l == language && !(base..base + count).contains(&seed))
            .map(|&(_, seed)| seed);
        for seed in (base..base + count).chain(known) {
            let g = testgen::generate(seed, &config);
            let label = format!("{language:?} seed {seed:#x}");
            let text = scene::generated_shader_test(&g, seed)
                .unwrap_or_else(|e| panic!("{label}: {e}\n{}", g.source()));
            let test = scene::generated_scene(&g, seed).expect("the scene parses");
            let gl = match mesa_run(&test) {
                Ok(r) => r,
                Err(e) => {
                    report.push(format!("{label}: Mesa: {e}\n{}", text));
                    failing += 1;
                    continue;
                }
            };
            let vk = match run_on_lavapipe(dev, &test) {
                Ok(r) => r,
                Err(e) => {
                    report.push(format!("{label}: lavapipe: {e}\n{}", text));
                    failing += 1;
                    continue;
                }
            };
            colours.extend(vk.frames.iter().flat_map(|f| {
                (0..f.height).flat_map(move |y| (0..f.width).map(move |x| f.rgba8_at(x, y)))
            }));
            let before = report.len();
            compare_cells(
                &label,
                &text,
                &gl,
                &vk,
                &mut report,
                &mut total,
                &mut causes,
            );
            if report.len() > before {
                failing += 1;
                // Shown at once too: a long run stops only at the end.
                report.push(text);
                eprintln!("{}", report[before..].join("\n"));
            }
            if failing >= 5 {
                break;
            }
        }
        let ties = &causes.ties;
        eprintln!(
            "{language:?} from Mesa's GL and lavapipe: {count} generated programs (seeds {base:#x}..{:#x}, and those of DEVIATION_SEEDS), {} pixels compared ({} distinct colours); {} differ on a tie ({} in a channel the spec leaves undefined, {} on a rounding tie, {} by Mesa's single rounding per instruction), {} by a documented Mesa deviation; {failing} programs differ otherwise",
            base + count,
            total.pixels,
            colours.len(),
            ties.count,
            causes.undefined,
            causes.rounding,
            causes.precision,
            ties.deviation_count,
        );
        let names = MESA_DEVIATIONS
            .iter()
            .map(|d| d.name)
            .chain(["several of these in one pixel"]);
        for (name, (pixels, programs)) in names.zip(&causes.deviations) {
            eprintln!("  Mesa deviation: {pixels} pixels in {programs} programs: {name}");
        }
        for t in ties.first.iter().take(4).chain(&ties.deviations) {
            eprintln!("  {t}");
        }
        // Each deviation is still seen (DEVIATION_SEEDS): a Mesa that
        // stops deviating, or a model that stops matching it, shows here.
        for (k, h) in hit.iter_mut().enumerate() {
            *h |= causes.deviations[k].0 > 0;
        }
    }
    assert!(report.is_empty(), "{}", report.join("\n"));
    for (k, dev) in MESA_DEVIATIONS.iter().enumerate() {
        assert!(
            hit[k],
            "no pixel was put down to the documented Mesa deviation \"{}\" (seeds {DEVIATION_SEEDS:x?}): update docs/conformance.md and MESA_DEVIATIONS",
            dev.name
        );
    }
}

/// Programs in which Mesa 22.3.6 shows each documented deviation, drawn in
/// every run besides the seed range, so that the allow-list stays visible:
/// LIT 0^w (fragment 0x3E5A0005), FRC (fragment 0x3E5A0014), LRP (fragment
/// 0x3E5A001D).
const DEVIATION_SEEDS: &[(Language, u64)] = &[
    (Language::ArbFragment, 0x3E5A_0005),
    (Language::ArbFragment, 0x3E5A_0014),
    (Language::ArbFragment, 0x3E5A_001D),
];

/// The comparison can fail: lavapipe drawing a program whose encoding of
/// the registers differs from the one Mesa draws (an offset of 0.601 for
/// 0.501) is reported.
#[test]
fn a_generated_program_drawn_differently_by_the_two_sides_is_reported() {
    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    if !mesa_or_skip() {
        return;
    }
    for language in LANGUAGES {
        let mut config = Config::default();
        config.language = language;
        // A program that loads the address register only from constants,
        // so that every read of the array is inside it and the whole
        // scene is defined.
        let g = (0x3E5A_0000..)
            .map(|seed| testgen::generate(seed, &config))
            .find(|g| {
                !g.lines
                    .iter()
                    .any(|l| l.starts_with("ARL A0.x, F") || l.starts_with("ARL A0.x, -F"))
            })
            .unwrap();
        let text = scene::generated_shader_test(&g, 0).unwrap();
        let wrong = text.replace(
            "{0.501, 0.501, 0.501, 0.501}",
            "{0.601, 0.601, 0.601, 0.601}",
        );
        assert_ne!(text, wrong);
        let parse = |t: &str| {
            super::script::ShaderTest::parse(std::path::Path::new("generated.shader_test"), t)
                .unwrap()
        };
        let gl = mesa_run(&parse(&text)).unwrap();
        let vk = run_on_lavapipe(dev, &parse(&wrong)).unwrap();
        let (mut report, mut total, mut causes) =
            (Vec::new(), FrameDiff::default(), Causes::default());
        compare_cells(
            "mutated",
            &wrong,
            &gl,
            &vk,
            &mut report,
            &mut total,
            &mut causes,
        );
        assert_eq!(report.len(), 1, "{language:?}: {report:?}");
    }
}

/// A documented way Mesa's GL departs from the specification
/// (docs/conformance.md, "Mesa deviations"), as a rewrite of the program
/// text that makes the interpreter compute what Mesa computes. A pixel
/// that differs is put down to the deviation only when nvp4c's byte is the
/// specification's and Mesa's is the rewritten program's, channel by
/// channel.
struct MesaDeviation {
    name: &'static str,
    /// Whether the deviation can touch the program at all.
    applies: fn(&str) -> bool,
    /// The shader_test with the program rewritten to Mesa's behaviour.
    model: fn(&str) -> String,
}

/// The allow-list: every entry is in docs/conformance.md with the
/// specification's sentence.
const MESA_DEVIATIONS: &[MesaDeviation] = &[
    MesaDeviation {
        name: "LIT's specular term with a zero or negative y is 0 (the spec: 0^0 = 1, 0^w = +Inf for w < 0)",
        applies: |text| text.lines().any(|l| l.starts_with("LIT")),
        model: lit_without_zero_power,
    },
    MesaDeviation {
        name: "FRC of a tiny negative x is 1.0 (the spec: always in [0.0, 1.0))",
        applies: |text| text.lines().any(|l| l.starts_with("FRC")),
        model: frc_as_a_subtraction,
    },
    MesaDeviation {
        name: "LRP computed as c + a(b - c), which loses b where |c| >> |b| (the spec: a·b + (1 - a)·c)",
        applies: |text| text.lines().any(|l| l.starts_with("LRP")),
        model: lrp_as_a_difference,
    },
];

/// The source operands of an instruction, split at the commas outside
/// constant vectors.
fn sources(src: &str) -> Vec<&str> {
    let (mut out, mut depth, mut start) = (Vec::new(), 0, 0);
    for (i, ch) in src.char_indices() {
        match ch {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(src[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(src[start..].trim());
    out
}

/// Mesa's LRP: a·(b − c) + c, where ARB_vertex_program has no LRP and
/// ARB_fragment_program 3.11.5.14 defines it as
/// `result.x = tmp0.x * tmp1.x + (1 - tmp0.x) * tmp2.x`: with a = 1 the
/// specification's result is b exactly, Mesa's is (b − c) + c, which is 0
/// for b = 1 and c = −8.6e9.
fn lrp_as_a_difference(text: &str) -> String {
    rewrite_instruction(text, "LRP", "MesaLrp", |op, dst, src| {
        let suffix = &op["LRP".len()..];
        let s = sources(src);
        vec![
            format!("SUB MesaLrp, {}, {};", s[1], s[2]),
            format!("MAD{suffix} {dst}, {}, MesaLrp, {};", s[0], s[2]),
        ]
    })
}

/// The operation and the operands of an instruction line (`OP dst, src;`).
fn instruction(line: &str) -> Option<(&str, &str, &str)> {
    let (op, operands) = line.split_once(' ')?;
    let (dst, src) = operands.trim_end_matches(';').split_once(", ")?;
    Some((op, dst, src))
}

/// `text` with each line of instruction `name` replaced by `rewrite(op,
/// dst, src)`, and `temps` declared after the program's `TEMP F0` line.
fn rewrite_instruction(
    text: &str,
    name: &str,
    temps: &str,
    rewrite: impl Fn(&str, &str, &str) -> Vec<String>,
) -> String {
    let mut out = Vec::new();
    for line in text.lines() {
        match instruction(line).filter(|(op, _, _)| op.split('_').next() == Some(name)) {
            Some((op, dst, src)) => out.extend(rewrite(op, dst, src)),
            None => out.push(line.to_string()),
        }
        if line.starts_with("TEMP F0") {
            out.push(format!("TEMP {temps};"));
        }
    }
    out.push(String::new());
    out.join("\n")
}

/// Mesa's FRC: x − floor(x) in single precision, which is 1.0 for a
/// negative x of magnitude below 2^-25, where ARB_vertex_program 2.14.5.11
/// and ARB_fragment_program 3.11.5.11 say the fraction "is always in the
/// range [0.0, 1.0)" (nvp4c gives the float just below 1.0,
/// docs/semantics.md).
fn frc_as_a_subtraction(text: &str) -> String {
    rewrite_instruction(text, "FRC", "MesaFloor", |op, dst, src| {
        let suffix = &op["FRC".len()..];
        vec![
            format!("FLR MesaFloor, {src};"),
            format!("SUB{suffix} {dst}, {src}, MesaFloor;"),
        ]
    })
}

/// Mesa's LIT: z = (x > 0 and y > 0) ? y^w : 0, where ARB_vertex_program
/// 2.14.5.10 and ARB_fragment_program 3.11.5.13 give z = y'^w' for every
/// x > 0, "since 0^0 is defined to be 1, RoughApproxPower(0.0, 0.0) will
/// produce 1.0" (and 0^w = +Inf for w < 0). The rewrite sets w to 1 where
/// y <= 0 before the LIT (0^1 = 0 by the specification too).
fn lit_without_zero_power(text: &str) -> String {
    rewrite_instruction(text, "LIT", "MesaLit, MesaLitW", |op, dst, src| {
        vec![
            format!("MOV MesaLit, {src};"),
            "SGE MesaLitW.w, {0}.x, MesaLit.y;".to_string(),
            "SUB MesaLitW.x, {1}.x, MesaLit.w;".to_string(),
            "MAD MesaLit.w, MesaLitW.x, MesaLitW.w, MesaLit.w;".to_string(),
            format!("{op} {dst}, MesaLit;"),
        ]
    })
}

/// Pixels that differ by cause.
#[derive(Default)]
struct Causes {
    ties: Ties,
    /// Tie pixels with a channel the specification leaves undefined (an
    /// out-of-range relative read, SCS's z and w, …), and the others: a
    /// value on a rounding tie.
    undefined: usize,
    rounding: usize,
    /// Tie pixels whose Mesa bytes are the program's values evaluated with
    /// one rounding per instruction (`interp::wide_pixel`).
    precision: usize,
    /// Per entry of [`MESA_DEVIATIONS`], then for several together:
    /// pixels, programs.
    deviations: Vec<(usize, usize)>,
}

/// Why a cell differs when Mesa's bytes are the values with one rounding
/// per instruction.
const PRECISION: &str = "precision: Mesa's bytes are the program's values with one rounding per instruction (fused multiply-adds), nvp4c's with one per operation; the ARB specifications allow both";

/// Compares Mesa's frame with lavapipe's as `suite::compare_runs` does,
/// judging each distinct difference once per cell: every pixel of a cell
/// has the same inputs (each `draw rect` gives its four vertices the same
/// attributes, and no cell edge passes through a pixel centre), so the
/// interpreter's verdict at one pixel holds for all of them. A difference
/// that is no tie is put down to a documented Mesa deviation where one
/// explains it ([`MESA_DEVIATIONS`]).
fn compare_cells(
    label: &str,
    text: &str,
    gl: &super::MesaRun,
    vk: &super::LavapipeRun,
    report: &mut Vec<String>,
    total: &mut FrameDiff,
    causes: &mut Causes,
) {
    // One entry per deviation, and one for pixels several explain together.
    causes.deviations.resize(MESA_DEVIATIONS.len() + 1, (0, 0));
    let d = match probe::compare(&gl.frames, &vk.frames, DIFFERENTIAL_MAX_BYTE_DIFF) {
        Ok(d) => d,
        Err(e) => {
            report.push(format!("{label}: {e}"));
            return;
        }
    };
    let reads = vk.plan.read_steps();
    // The deviations that can touch the program, each alone and (for a
    // pixel two of them touch) all together; their rewritten programs are
    // made on demand.
    let applicable: Vec<usize> = (0..MESA_DEVIATIONS.len())
        .filter(|&k| (MESA_DEVIATIONS[k].applies)(text))
        .collect();
    let mut candidates: Vec<Vec<usize>> = applicable.iter().map(|&k| vec![k]).collect();
    if applicable.len() > 1 {
        candidates.push(applicable.clone());
    }
    let mut models: std::collections::HashMap<
        Vec<usize>,
        Option<(interp::Checked, interp::Checked)>,
    > = std::collections::HashMap::new();
    let mut verdicts = std::collections::HashMap::new();
    let mut unexplained = Vec::new();
    let mut deviated = vec![false; MESA_DEVIATIONS.len() + 1];
    for &(frame, x, y, a, b) in &d.mismatches {
        let cell = scene::generated_cell(&vk.plan, x, y);
        let verdict = verdicts.entry((frame, cell, a, b)).or_insert_with(|| {
            let until = reads[frame];
            if let Some(why) =
                interp::value_tie(&vk.plan, until, (&vk.vertex, &vk.fragment), (x, y), a, b)
            {
                return Some(Err(why));
            }
            let spec = interp::pixel(&vk.plan, until, &vk.vertex, &vk.fragment, x, y).ok()??;
            for set in &candidates {
                let model = models.entry(set.clone()).or_insert_with(|| {
                    let rewritten = set
                        .iter()
                        .fold(text.to_string(), |t, &k| (MESA_DEVIATIONS[k].model)(&t));
                    let test = super::script::ShaderTest::parse(
                        std::path::Path::new("model.shader_test"),
                        &rewritten,
                    )
                    .ok()?;
                    let (v, f) = super::vulkan::compile(&test).ok()?;
                    Some((interp::Checked::new(&v), interp::Checked::new(&f)))
                });
                let Some((mv, mf)) = model else { continue };
                // The deviation's model, with the operations rounded as the
                // specification orders them and, as Mesa fuses them (see
                // PRECISION below), once per instruction.
                for replay in [interp::pixel, interp::wide_pixel] {
                    let Ok(Some(mesa)) = replay(&vk.plan, until, mv, mf, x, y) else {
                        continue;
                    };
                    let explained = (0..4).all(|c| {
                        a[c] == b[c]
                            || (spec.1[c]
                                && mesa.1[c]
                                && super::byte_may_be(spec.0[c], b[c])
                                && super::byte_may_be(mesa.0[c], a[c]))
                    });
                    if explained {
                        return Some(Ok(set.clone()));
                    }
                }
            }
            // Precision: llvmpipe fuses multiply-adds, so an instruction
            // with several roundings (MAD, DP4, LRP, ...) may come out of
            // Mesa rounded once. The ARB specifications set only a floor
            // (ARB_vertex_program issue 22), so both are right; the cell is put
            // down to it when Mesa's bytes are what the program gives with
            // one rounding per instruction and nvp4c's the per-operation
            // rounding the interpreter and the module both use.
            let (wide, wide_ok) =
                interp::wide_pixel(&vk.plan, until, &vk.vertex, &vk.fragment, x, y).ok()??;
            let precision = (0..4).all(|c| {
                a[c] == b[c]
                    || (spec.1[c]
                        && wide_ok[c]
                        && super::byte_may_be(spec.0[c], b[c])
                        && super::byte_may_be(wide[c], a[c]))
            });
            if precision {
                return Some(Err(PRECISION.to_string()));
            }
            None
        });
        match verdict {
            Some(Err(why)) => {
                let ties = &mut causes.ties;
                if ties.first.len() < 20 {
                    ties.first.push(format!(
                        "{label}: ({x}, {y}) Mesa {a:?}, nvp4c {b:?}: {why}"
                    ));
                }
                ties.count += 1;
                if why.contains("undefined") {
                    causes.undefined += 1;
                } else if why == PRECISION {
                    causes.precision += 1;
                } else {
                    causes.rounding += 1;
                }
            }
            Some(Ok(set)) => {
                let ties = &mut causes.ties;
                let names: Vec<&str> = set.iter().map(|&k| MESA_DEVIATIONS[k].name).collect();
                if ties.deviations.len() < 4 {
                    ties.deviations.push(format!(
                        "{label}: ({x}, {y}) Mesa {a:?}, nvp4c {b:?}: {}",
                        names.join(" and ")
                    ));
                }
                ties.deviation_count += 1;
                let k = if set.len() == 1 {
                    set[0]
                } else {
                    MESA_DEVIATIONS.len()
                };
                causes.deviations[k].0 += 1;
                deviated[k] = true;
            }
            None => unexplained.push((frame, x, y, a, b)),
        }
    }
    for (k, hit) in deviated.iter().enumerate() {
        causes.deviations[k].1 += usize::from(*hit);
    }
    let more = d.mismatch_count - d.mismatches.len();
    if !unexplained.is_empty() || more > 0 {
        report.push(format!(
            "{label}: {} of {} pixels differ by more than {DIFFERENTIAL_MAX_BYTE_DIFF}/255 (first: {:?})",
            unexplained.len() + more,
            d.pixels,
            &unexplained[..unexplained.len().min(8)],
        ));
    }
    total.pixels += d.pixels;
}
