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

/// Rows and columns of the grid a generated program's scene draws: each
/// cell a rectangle with its own inputs, 25 × 25 pixels of the 250 × 250
/// window, so that every cell edge lies between pixel centres.
const GRID: u32 = 10;

/// The registers a generated program computes (`nvp4c::testgen`'s F0..F3),
/// each drawn in cells of its own: the four components of the register as
/// the colour's four channels.
const REGISTERS: usize = 4;

/// The selection and encoding that end a drawn generated program: the
/// register named by the one-hot `fragment.texcoord[7]` (x: F0 … w: F3),
/// chosen with CMP (no arithmetic, so infinities stay out of the other
/// registers' cells), each component v mapped to 0.501 + 0.498 · v / (1 + |v|):
/// monotonic and continuous over the whole float range, so that a
/// difference anywhere shows as a difference in the byte, and a value too
/// close to call (a rounding tie) is still recognised as one by the
/// interpreter's replay (`interp::value_tie`).
fn select_and_encode(sources: [&str; REGISTERS]) -> Vec<String> {
    let mut out = vec![format!("MOV S, {};", sources[3])];
    for (k, comp) in ["z", "y", "x"].iter().enumerate() {
        out.push(format!(
            "CMP S, -fragment.texcoord[7].{comp}, {}, S;",
            sources[2 - k]
        ));
    }
    out.push("ABS E, S;".into());
    out.push("ADD E, E, {1, 1, 1, 1};".into());
    for c in ["x", "y", "z", "w"] {
        out.push(format!("RCP E.{c}, E.{c};"));
    }
    out.push("MUL E, S, E;".into());
    // 0.501 + 0.498 · (…): a zero (the commonest result) is 127.755 steps,
    // clear of the rounding tie at 127.5 that 0.5 would put it on.
    out.push(
        "MAD result.color, E, {0.498, 0.498, 0.498, 0.498}, {0.501, 0.501, 0.501, 0.501};".into(),
    );
    out
}

/// The ARB options Mesa implements that a generated program may carry when
/// drawn, picked by `variant`: a precision hint (either, or none) in a
/// fragment program; `ARB_position_invariant` (which takes the place of
/// the program's position) in a vertex program.
fn drawn_options(vertex: bool, variant: u64) -> Vec<&'static str> {
    if vertex {
        if variant % 2 == 1 {
            vec!["ARB_position_invariant"]
        } else {
            Vec::new()
        }
    } else {
        match variant % 3 {
            1 => vec!["ARB_precision_hint_nicest"],
            2 => vec!["ARB_precision_hint_fastest"],
            _ => Vec::new(),
        }
    }
}

/// A program of `nvp4c::testgen` (the plain `!!ARBfp1.0` or `!!ARBvp1.0`
/// dialect) as a shader_test drawn by both implementations: each input case
/// fills four cells, one per register, of the inner 8 × 8 of a 10 × 10 grid, the case's
/// input bits given as the current texture coordinates 0..3 of the cell's
/// `draw rect` and the register's one-hot selector as texture coordinate 7.
///
/// The program computes exactly what testgen wrote; only its ending differs,
/// because a drawn frame holds one colour per pixel and GL clamps it to
/// [0, 1]:
/// * a fragment program selects and encodes its register itself
///   ([`select_and_encode`]) instead of writing `result.color[0..3]`;
/// * a vertex program reads the inputs as `vertex.texcoord[n]` (testgen's
///   `vertex.attrib[8 + n]`, which ARB_vertex_program lets an
///   implementation alias with them, and Mesa does not), keeps the
///   rectangle's position instead of F0, passes the selector on, and a
///   fixed fragment program selects and encodes its `result.texcoord[0..3]`.
pub fn generated_scene(g: &nvp4c::testgen::Generated, variant: u64) -> Result<ShaderTest, String> {
    let text = generated_shader_test(g, variant)?;
    ShaderTest::parse(Path::new("generated.shader_test"), &text).map_err(|e| e.to_string())
}

/// The cell of [`generated_scene`]'s grid that window pixel (x, y) lies in.
pub fn generated_cell(plan: &super::gl::Plan, x: u32, y: u32) -> (u32, u32) {
    (x * GRID / plan.width, y * GRID / plan.height)
}

/// The text of [`generated_scene`]'s shader_test.
pub fn generated_shader_test(
    g: &nvp4c::testgen::Generated,
    variant: u64,
) -> Result<String, String> {
    let vertex = g.language.is_vertex();
    let options = drawn_options(vertex, variant);
    let mut program = Vec::new();
    for line in &g.lines {
        let mut line = line.clone();
        if line.starts_with("MOV result.color[") {
            continue;
        }
        if line == "MOV result.position, F0;" {
            if options.contains(&"ARB_position_invariant") {
                continue;
            }
            line = "MOV result.position, vertex.position;".into();
        }
        if line == "END" {
            if vertex {
                program.push("MOV result.texcoord[7], vertex.texcoord[7];".into());
            } else {
                program.extend(select_and_encode(["F0", "F1", "F2", "F3"]));
            }
        }
        for n in 0..REGISTERS {
            line = line.replace(
                &format!("vertex.attrib[{}]", 8 + n),
                &format!("vertex.texcoord[{n}]"),
            );
        }
        program.push(line);
        if program.len() == 1 {
            for o in &options {
                program.push(format!("OPTION {o};"));
            }
        }
        if program.last().is_some_and(|l| l.starts_with("TEMP F0")) && !vertex {
            program.push("TEMP S, E;".into());
        }
    }
    let stage = if vertex { "vertex" } else { "fragment" };
    let mut s = format!("[require]\n\n[{stage} program]\n{}\n", program.join("\n"));
    if vertex {
        let texcoords = [
            "fragment.texcoord[0]",
            "fragment.texcoord[1]",
            "fragment.texcoord[2]",
            "fragment.texcoord[3]",
        ];
        let _ = write!(
            s,
            "\n[fragment program]\n!!ARBfp1.0\nTEMP S, E;\n{}\nEND\n",
            select_and_encode(texcoords).join("\n")
        );
    }
    s.push_str("\n[test]\nclear color 0 0 0 0\nclear\n");
    let cells = g.inputs.len() * REGISTERS;
    if cells > ((GRID - 2) * (GRID - 2)) as usize {
        return Err(format!(
            "{} cases of {REGISTERS} registers do not fit the grid's {} cells",
            g.inputs.len(),
            (GRID - 2) * (GRID - 2)
        ));
    }
    let size = 2.0 / GRID as f32;
    for (case, input) in g.inputs.iter().enumerate() {
        for (n, bits) in input.iter().enumerate() {
            let v: Vec<String> = bits
                .iter()
                .map(|b| format!("{:?}", f32::from_bits(*b)))
                .collect();
            let _ = writeln!(s, "texcoord {n} ({})", v.join(", "));
        }
        for register in 0..REGISTERS {
            let one_hot: Vec<&str> = (0..REGISTERS)
                .map(|k| if k == register { "1" } else { "0" })
                .collect();
            let _ = writeln!(s, "texcoord 7 ({})", one_hot.join(", "));
            // Cells 1..9 of each row and column: a margin of one cell keeps
            // every vertex strictly inside the clip volume, where the
            // interpreter's replay places it (`interp::pixel`).
            let cell = (case * REGISTERS + register) as u32;
            let (col, row) = (1 + cell % (GRID - 2), 1 + cell / (GRID - 2));
            let _ = writeln!(
                s,
                "draw rect {} {} {size} {size}",
                -1.0 + col as f32 * size,
                -1.0 + row as f32 * size
            );
        }
    }
    Ok(s)
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
