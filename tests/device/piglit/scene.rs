//! Any single program as a shader_test, for the differential against Mesa:
//! the program drawn over the whole window with the other stage
//! fixed-function, varied current attributes and program parameters, and a
//! texture on every unit it samples. No probes: the two implementations'
//! frames are compared pixel by pixel.
//!
//! This is how programs that come without a `[test]` script — the ARB
//! programs under tests/ (piglit's asmparsertest, the Cg fixtures) and
//! programs from the random generator (`nvp4c::testgen`) — enter the
//! differential: `program_scene(text)` gives the shader_test, and
//! `mod.rs`'s runners draw it on both sides.

use std::fmt::Write;
use std::path::Path;

use super::script::ShaderTest;

/// The stage a program's header names, or `None` for a header that is not
/// an assembly vertex or fragment program.
pub fn stage_of(text: &str) -> Option<&'static str> {
    let header = text.trim_start();
    if header.starts_with("!!ARBvp1.0") || header.starts_with("!!NVvp4.0") {
        Some("vertex")
    } else if header.starts_with("!!ARBfp1.0") || header.starts_with("!!NVfp4.0") {
        Some("fragment")
    } else {
        None
    }
}

/// `texture[n], TARGET` (or `texture, TARGET`, unit 0) in a program's text:
/// the units it samples and their targets.
pub fn texture_targets(text: &str) -> Vec<(u32, String)> {
    let mut out: Vec<(u32, String)> = Vec::new();
    let code: String = text
        .lines()
        .map(|l| l.split('#').next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let mut rest = code.as_str();
    while let Some(at) = rest.find("texture") {
        let after = &rest[at + "texture".len()..];
        rest = after;
        let (unit, tail) = match after.trim_start().strip_prefix('[') {
            Some(t) => {
                let Some(close) = t.find(']') else { continue };
                let Ok(n) = t[..close].trim().parse::<u32>() else {
                    continue;
                };
                (n, &t[close + 1..])
            }
            None => (0, after),
        };
        let Some(tail) = tail.trim_start().strip_prefix(',') else {
            continue;
        };
        let target: String = tail
            .trim_start()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        if !target.is_empty() && !out.iter().any(|(u, _)| *u == unit) {
            out.push((unit, target));
        }
    }
    out
}

/// The texture command a unit sampled with `target` gets, or why the runner
/// has none for it.
fn texture_command(unit: u32, target: &str) -> Result<String, String> {
    match target {
        "2D" => Ok(format!("texture rgbw {unit} (8, 8)")),
        "SHADOW1D" => Ok(format!("texture shadow1D {unit} (32)")),
        "SHADOW2D" => Ok(format!("texture shadow2D {unit} (32, 32)")),
        "SHADOWRECT" => Ok(format!("texture shadowRect {unit} (32, 32)")),
        other => Err(format!(
            "texture[{unit}] is sampled as {other}, a target the runner sets up no texture for"
        )),
    }
}

/// A value in [-1, 1] from a small index, varied per component.
fn value(i: u32, c: u32, salt: u32) -> f32 {
    let h = (i.wrapping_mul(2_654_435_761) ^ c.wrapping_mul(40_503) ^ salt).wrapping_mul(97);
    ((h % 17) as f32 - 8.0) / 8.0
}

/// The shader_test drawing `text` alone: the whole window (`draw rect -1 -1
/// 2 2` with identity matrices), the current colour and texture coordinates
/// and parameters 0..24 of every kind set to fixed values in [-1, 1].
pub fn program_scene(path: &Path, text: &str) -> Result<ShaderTest, String> {
    let stage = stage_of(text).ok_or("not a vertex or fragment program")?;
    let mut s = String::from("[require]\n\n");
    let _ = write!(s, "[{stage} program]\n{text}");
    if !text.ends_with('\n') {
        s.push('\n');
    }
    s.push_str("\n[test]\ncolor 0.2 0.6 0.8 1.0\n");
    for n in 0..8 {
        let v: Vec<String> = (0..4).map(|c| value(n, c, 1).to_string()).collect();
        let _ = writeln!(s, "texcoord {n} ({})", v.join(", "));
    }
    for (k, kind) in ["env_vp", "local_vp", "env_fp", "local_fp"]
        .iter()
        .enumerate()
    {
        for i in 0..24 {
            let v: Vec<String> = (0..4)
                .map(|c| value(i, c, 7 + k as u32).to_string())
                .collect();
            let _ = writeln!(s, "parameter {kind} {i} ({})", v.join(", "));
        }
    }
    for (unit, target) in texture_targets(text) {
        s.push_str(&texture_command(unit, &target)?);
        s.push('\n');
    }
    s.push_str("clear color 0.5 0.5 0.5 0.5\nclear\ndraw rect -1 -1 2 2\n");
    ShaderTest::parse(path, &s).map_err(|e| e.to_string())
}

/// The `[program]` section of a `.nvtest` conformance file.
fn nvtest_program(text: &str) -> Option<String> {
    let start = text.find("[program]\n")? + "[program]\n".len();
    let rest = &text[start..];
    let end = rest.find("\n[").map_or(rest.len(), |e| e + 1);
    Some(rest[..end].to_string())
}

/// Every assembly program under `root` (tests/ or examples/) whose header
/// is `!!ARBvp1.0` or `!!ARBfp1.0` and that must load (no `# FAIL` mark,
/// piglit asmparsertest's sign for a program to be rejected; not one of
/// tests/diagnostics/'s `E…` examples, each written to fail to load), and
/// the `[program]` of every ARB `.nvtest` conformance file, except the
/// shader_tests (drawn with their own scripts).
pub fn arb_programs_in_tests(root: &Path) -> Vec<(std::path::PathBuf, String)> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            if p.extension()
                .is_some_and(|x| x == "shader_test" || x == "snap")
            {
                continue;
            }
            let error_example = p.parent().is_some_and(|d| d.ends_with("diagnostics"))
                && p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with('E'));
            if error_example {
                continue;
            }
            let Ok(mut text) = std::fs::read_to_string(&p) else {
                continue;
            };
            if p.extension().is_some_and(|x| x == "nvtest") {
                match nvtest_program(&text) {
                    Some(program) => text = program,
                    None => continue,
                }
            }
            let t = text.trim_start();
            if (t.starts_with("!!ARBvp1.0") || t.starts_with("!!ARBfp1.0"))
                && !text.contains("# FAIL")
            {
                out.push((p, text));
            }
        }
    }
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texture_targets_are_read_from_the_program_text() {
        let text = "!!ARBfp1.0\nTEX r, a, texture[2], SHADOW2D; # texture[5], 3D\nTXP r, a, texture, 2D;\nEND\n";
        assert_eq!(
            texture_targets(text),
            vec![(2, "SHADOW2D".to_string()), (0, "2D".to_string())]
        );
    }
}
