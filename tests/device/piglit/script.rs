//! The shader_test file format of piglit's `shader_runner`
//! (tests/shaders/shader_runner.c): sections `[require]`, `[vertex program]`,
//! `[fragment program]` and `[test]`, and the `[test]` commands the assembly
//! tests use, parsed as shader_runner parses them (its `sscanf` patterns:
//! numbers separated by blanks, commas and parentheses, anything after the
//! last number ignored, `INF`/`NAN` accepted).

use std::fmt;
use std::path::{Path, PathBuf};

/// One parsed shader_test file.
#[derive(Clone, Debug)]
pub struct ShaderTest {
    /// The `[require]` lines, comments and blanks removed.
    pub requires: Vec<String>,
    pub vertex_program: Option<Program>,
    pub fragment_program: Option<Program>,
    pub commands: Vec<Command>,
}

/// A `[vertex program]` or `[fragment program]` section: its text, given to
/// the compiler (and to `glProgramStringARB`) unchanged.
#[derive(Clone, Debug)]
pub struct Program {
    pub text: String,
    /// Line of the file where the program's first line is (1-based).
    pub first_line: usize,
}

/// One `[test]` command and the file line it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Command {
    pub line: usize,
    pub kind: CommandKind,
}

/// Which program's parameters `parameter` sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamTarget {
    EnvVertex,
    LocalVertex,
    EnvFragment,
    LocalFragment,
}

/// A texture target of `texparameter` (shader_runner's `parse_tex_target`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TexTarget {
    D1,
    D2,
    Rect,
}

/// The texture images of shader_runner's `texture …` commands, with piglit's
/// contents (tests/util/piglit-util-gl.c; see `textures.rs`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TextureCmd {
    /// `texture rgbw unit (w, h)`: quadrants red, green, blue, white.
    Rgbw { unit: u32, width: u32, height: u32 },
    /// `texture miptree unit`: 8×8, levels red, green, blue, white.
    Miptree { unit: u32 },
    /// `texture shadow1D|shadow2D|shadowRect unit (w[, h])`: a depth
    /// gradient x / (w - 1), compare mode on, compare function GREATER.
    Shadow {
        unit: u32,
        target: TexTarget,
        width: u32,
        height: u32,
    },
}

/// A `texparameter` setting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TexParam {
    /// GL's compare function, e.g. `greater`.
    CompareFunc(CompareFunc),
    /// DEPTH_TEXTURE_MODE.
    DepthMode(DepthMode),
    MinFilter(Filter),
    MagFilter(Filter),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompareFunc {
    Never,
    Less,
    Equal,
    Lequal,
    Greater,
    Notequal,
    Gequal,
    Always,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DepthMode {
    Luminance,
    Intensity,
    Alpha,
    Red,
}

/// A GL minification or magnification filter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Filter {
    Nearest,
    Linear,
    NearestMipmapNearest,
    LinearMipmapNearest,
    NearestMipmapLinear,
    LinearMipmapLinear,
}

#[derive(Clone, Debug, PartialEq)]
pub enum CommandKind {
    /// `ortho l r b t` (glOrtho(l, r, b, t, -1, 1)), or `ortho` (window
    /// coordinates: glOrtho(0, width, 0, height, -1, 1)).
    Ortho(Option<[f32; 4]>),
    ClearColor([f32; 4]),
    ClearDepth(f32),
    /// `clear`: glClear of the buffers named by `clear color`/`clear depth`.
    Clear,
    /// `draw rect x y w h`, or `draw rect tex x y w h tx ty tw th`.
    DrawRect {
        rect: [f32; 4],
        tex: Option<[f32; 4]>,
    },
    /// `color r g b a`: the current colour (glColor4fv).
    Color([f32; 4]),
    /// `texcoord n (s, t, r, q)`: the current coordinates of unit n.
    TexCoord(u32, [f32; 4]),
    Parameter {
        target: ParamTarget,
        index: u32,
        value: [f32; 4],
    },
    Texture(TextureCmd),
    TexParameter(TexTarget, TexParam),
    /// `enable GL_DEPTH_TEST` / `disable GL_DEPTH_TEST`.
    DepthTest(bool),
    /// `tolerance t0 t1 t2 t3`.
    Tolerance([f32; 4]),
    /// `probe rgba x y r g b a` / `probe rgb x y r g b` (expected has 4 or 3
    /// components).
    Probe {
        x: i32,
        y: i32,
        expected: Vec<f32>,
    },
    /// `relative probe rgba (rx, ry) (r, g, b, a)` / `… rgb …`.
    RelativeProbe {
        at: [f32; 2],
        expected: Vec<f32>,
    },
    /// `probe all rgba r g b a` / `probe all rgb r g b`.
    ProbeAll {
        expected: Vec<f32>,
    },
    /// `probe depth x y d`.
    ProbeDepth {
        x: i32,
        y: i32,
        expected: f32,
    },
}

/// Why a file cannot be run.
#[derive(Clone, Debug, PartialEq)]
pub struct ParseError {
    pub path: PathBuf,
    pub line: usize,
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.path.display(), self.line, self.message)
    }
}

impl ShaderTest {
    /// Reads and parses a shader_test file.
    pub fn load(path: &Path) -> Result<ShaderTest, ParseError> {
        let text = std::fs::read_to_string(path).map_err(|e| ParseError {
            path: path.to_path_buf(),
            line: 0,
            message: format!("cannot read: {e}"),
        })?;
        ShaderTest::parse(path, &text)
    }

    /// Parses shader_test text (`path` names it in errors).
    pub fn parse(path: &Path, text: &str) -> Result<ShaderTest, ParseError> {
        let err = |line: usize, message: String| ParseError {
            path: path.to_path_buf(),
            line,
            message,
        };
        #[derive(PartialEq)]
        enum Section {
            None,
            Require,
            Vertex,
            Fragment,
            Test,
        }
        let mut test = ShaderTest {
            requires: Vec::new(),
            vertex_program: None,
            fragment_program: None,
            commands: Vec::new(),
        };
        let mut section = Section::None;
        for (i, raw) in text.lines().enumerate() {
            let line_no = i + 1;
            let trimmed = raw.trim();
            if trimmed.starts_with('[') {
                section = match trimmed {
                    "[require]" => Section::Require,
                    "[vertex program]" => Section::Vertex,
                    "[fragment program]" => Section::Fragment,
                    "[test]" => Section::Test,
                    other => {
                        return Err(err(
                            line_no,
                            format!("section {other}: the runner knows [require], [vertex program], [fragment program] and [test]"),
                        ))
                    }
                };
                let program = Program {
                    text: String::new(),
                    first_line: line_no + 1,
                };
                match section {
                    Section::Vertex if test.vertex_program.is_none() => {
                        test.vertex_program = Some(program)
                    }
                    Section::Fragment if test.fragment_program.is_none() => {
                        test.fragment_program = Some(program)
                    }
                    Section::Vertex | Section::Fragment => {
                        return Err(err(line_no, format!("a second {trimmed} section")))
                    }
                    _ => {}
                }
                continue;
            }
            match section {
                // shader_runner keeps the program text as it is, comments
                // included: the program's own grammar handles `#`.
                Section::Vertex => push_line(test.vertex_program.as_mut(), raw),
                Section::Fragment => push_line(test.fragment_program.as_mut(), raw),
                Section::None | Section::Require | Section::Test => {
                    let code = raw.split('#').next().unwrap_or("").trim();
                    if code.is_empty() {
                        continue;
                    }
                    if section == Section::Require {
                        test.requires.push(code.to_string());
                    } else if section == Section::Test {
                        let kind = parse_command(code).map_err(|m| err(line_no, m))?;
                        test.commands.push(Command {
                            line: line_no,
                            kind,
                        });
                    } else {
                        return Err(err(line_no, format!("`{code}` outside any section")));
                    }
                }
            }
        }
        Ok(test)
    }

    /// `depthbuffer` in `[require]`: the window has a depth buffer.
    pub fn wants_depth(&self) -> bool {
        self.requires.iter().any(|r| r == "depthbuffer")
    }
}

fn push_line(program: Option<&mut Program>, raw: &str) {
    if let Some(p) = program {
        p.text.push_str(raw);
        p.text.push('\n');
    }
}

/// The numbers of a command's argument text, as `sscanf`'s `%f`/`%d` read
/// them from shader_runner's patterns: blanks, commas and parentheses
/// separate; reading stops at the first thing that is not a number.
fn numbers(text: &str) -> Vec<f32> {
    let mut out = Vec::new();
    for token in text
        .split(|c: char| c.is_whitespace() || c == ',' || c == '(' || c == ')')
        .filter(|t| !t.is_empty())
    {
        match token.trim_end_matches(';').parse::<f32>() {
            Ok(v) => out.push(v),
            Err(_) => break,
        }
    }
    out
}

fn exactly<const N: usize>(text: &str, what: &str) -> Result<[f32; N], String> {
    let v = numbers(text);
    if v.len() < N {
        return Err(format!(
            "`{what}` needs {N} numbers, found {} in `{text}`",
            v.len()
        ));
    }
    let mut out = [0.0; N];
    out.copy_from_slice(&v[..N]);
    Ok(out)
}

fn uint(v: f32, what: &str) -> Result<u32, String> {
    if v >= 0.0 && v.fract() == 0.0 && v < 65536.0 {
        Ok(v as u32)
    } else {
        Err(format!("{what}: `{v}` is not a small non-negative integer"))
    }
}

fn tex_target(word: &str) -> Result<TexTarget, String> {
    match word {
        "1D" => Ok(TexTarget::D1),
        "2D" => Ok(TexTarget::D2),
        "Rect" => Ok(TexTarget::Rect),
        other => Err(format!(
            "texture target `{other}`: the runner supports 1D, 2D and Rect"
        )),
    }
}

fn parse_command(code: &str) -> Result<CommandKind, String> {
    let words: Vec<&str> = code.split_whitespace().collect();
    let rest_after = |n: usize| -> &str {
        let mut s = code;
        for _ in 0..n {
            s = s.trim_start();
            s = &s[s.find(char::is_whitespace).unwrap_or(s.len())..];
        }
        s.trim()
    };
    let kind = match words.as_slice() {
        ["ortho"] => CommandKind::Ortho(None),
        ["ortho", ..] => CommandKind::Ortho(Some(exactly::<4>(rest_after(1), "ortho")?)),
        ["clear", "color", ..] => CommandKind::ClearColor(exactly(rest_after(2), "clear color")?),
        ["clear", "depth", ..] => {
            CommandKind::ClearDepth(exactly::<1>(rest_after(2), "clear depth")?[0])
        }
        ["clear"] => CommandKind::Clear,
        ["draw", "rect", "tex", ..] => {
            let v = exactly::<8>(rest_after(3), "draw rect tex")?;
            CommandKind::DrawRect {
                rect: [v[0], v[1], v[2], v[3]],
                tex: Some([v[4], v[5], v[6], v[7]]),
            }
        }
        ["draw", "rect", next, ..] if next.parse::<f32>().is_ok() => CommandKind::DrawRect {
            rect: exactly(rest_after(2), "draw rect")?,
            tex: None,
        },
        ["color", ..] => CommandKind::Color(exactly(rest_after(1), "color")?),
        ["texcoord", ..] => {
            let v = exactly::<5>(rest_after(1), "texcoord")?;
            let unit = uint(v[0], "texcoord unit")?;
            if unit >= 8 {
                return Err(format!("texcoord unit {unit}: GL has units 0..7"));
            }
            CommandKind::TexCoord(unit, [v[1], v[2], v[3], v[4]])
        }
        ["parameter", target, ..] => {
            let target = match *target {
                "env_vp" => ParamTarget::EnvVertex,
                "local_vp" => ParamTarget::LocalVertex,
                "env_fp" => ParamTarget::EnvFragment,
                "local_fp" => ParamTarget::LocalFragment,
                other => return Err(format!("unknown parameter type `{other}`")),
            };
            let v = exactly::<5>(rest_after(2), "parameter")?;
            CommandKind::Parameter {
                target,
                index: uint(v[0], "parameter index")?,
                value: [v[1], v[2], v[3], v[4]],
            }
        }
        ["texture", "rgbw", ..] => {
            let v = exactly::<3>(rest_after(2), "texture rgbw")?;
            CommandKind::Texture(TextureCmd::Rgbw {
                unit: uint(v[0], "unit")?,
                width: uint(v[1], "width")?,
                height: uint(v[2], "height")?,
            })
        }
        ["texture", "miptree", ..] => CommandKind::Texture(TextureCmd::Miptree {
            unit: uint(exactly::<1>(rest_after(2), "texture miptree")?[0], "unit")?,
        }),
        ["texture", kind @ ("shadow1D" | "shadow2D" | "shadowRect"), ..] => {
            let (target, n) = match *kind {
                "shadow1D" => (TexTarget::D1, 2),
                "shadow2D" => (TexTarget::D2, 3),
                _ => (TexTarget::Rect, 3),
            };
            let v = numbers(rest_after(2));
            if v.len() < n {
                return Err(format!("`texture {kind}` needs {n} numbers"));
            }
            CommandKind::Texture(TextureCmd::Shadow {
                unit: uint(v[0], "unit")?,
                target,
                width: uint(v[1], "width")?,
                height: if n == 3 { uint(v[2], "height")? } else { 1 },
            })
        }
        ["texparameter", target, name, value, ..] => {
            let target = tex_target(target)?;
            let param = match *name {
                "compare_func" => TexParam::CompareFunc(match *value {
                    "never" => CompareFunc::Never,
                    "less" => CompareFunc::Less,
                    "equal" => CompareFunc::Equal,
                    "lequal" => CompareFunc::Lequal,
                    "greater" => CompareFunc::Greater,
                    "notequal" => CompareFunc::Notequal,
                    "gequal" => CompareFunc::Gequal,
                    "always" => CompareFunc::Always,
                    other => return Err(format!("bad compare_func `{other}`")),
                }),
                "depth_mode" => TexParam::DepthMode(match *value {
                    "luminance" => DepthMode::Luminance,
                    "intensity" => DepthMode::Intensity,
                    "alpha" => DepthMode::Alpha,
                    "red" => DepthMode::Red,
                    other => return Err(format!("bad depth_mode `{other}`")),
                }),
                "min" | "mag" => {
                    let f = match *value {
                        "nearest" => Filter::Nearest,
                        "linear" => Filter::Linear,
                        "nearest_mipmap_nearest" if *name == "min" => Filter::NearestMipmapNearest,
                        "linear_mipmap_nearest" if *name == "min" => Filter::LinearMipmapNearest,
                        "nearest_mipmap_linear" if *name == "min" => Filter::NearestMipmapLinear,
                        "linear_mipmap_linear" if *name == "min" => Filter::LinearMipmapLinear,
                        other => return Err(format!("bad {name} filter `{other}`")),
                    };
                    if *name == "min" {
                        TexParam::MinFilter(f)
                    } else {
                        TexParam::MagFilter(f)
                    }
                }
                other => {
                    return Err(format!(
                        "texparameter `{other}`: the runner supports compare_func, depth_mode, min and mag"
                    ))
                }
            };
            CommandKind::TexParameter(target, param)
        }
        ["enable" | "disable", "GL_DEPTH_TEST"] => CommandKind::DepthTest(words[0] == "enable"),
        ["tolerance", ..] => CommandKind::Tolerance(exactly(rest_after(1), "tolerance")?),
        ["probe", "all", "rgba", ..] => CommandKind::ProbeAll {
            expected: exactly::<4>(rest_after(3), "probe all rgba")?.to_vec(),
        },
        ["probe", "all", "rgb", ..] => CommandKind::ProbeAll {
            expected: exactly::<3>(rest_after(3), "probe all rgb")?.to_vec(),
        },
        ["probe", "rgba", ..] => {
            let v = exactly::<6>(rest_after(2), "probe rgba")?;
            CommandKind::Probe {
                x: v[0] as i32,
                y: v[1] as i32,
                expected: v[2..].to_vec(),
            }
        }
        ["probe", "rgb", ..] => {
            let v = exactly::<5>(rest_after(2), "probe rgb")?;
            CommandKind::Probe {
                x: v[0] as i32,
                y: v[1] as i32,
                expected: v[2..].to_vec(),
            }
        }
        ["probe", "depth", ..] => {
            let v = exactly::<3>(rest_after(2), "probe depth")?;
            CommandKind::ProbeDepth {
                x: v[0] as i32,
                y: v[1] as i32,
                expected: v[2],
            }
        }
        ["relative", "probe", "rgba", ..] => {
            let v = exactly::<6>(rest_after(3), "relative probe rgba")?;
            CommandKind::RelativeProbe {
                at: [v[0], v[1]],
                expected: v[2..].to_vec(),
            }
        }
        ["relative", "probe", "rgb", ..] => {
            let v = exactly::<5>(rest_after(3), "relative probe rgb")?;
            CommandKind::RelativeProbe {
                at: [v[0], v[1]],
                expected: v[2..].to_vec(),
            }
        }
        _ => {
            return Err(format!(
                "`{code}`: not a command this runner implements (tests/piglit/README.md lists them)"
            ))
        }
    };
    Ok(kind)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(line: &str) -> CommandKind {
        parse_command(line).unwrap()
    }

    #[test]
    fn commands_read_numbers_as_sscanf_does() {
        assert_eq!(
            one("relative probe rgba (0.25, 0.5) (0.2, 0.2, 0.2, 1.0);"),
            CommandKind::RelativeProbe {
                at: [0.25, 0.5],
                expected: vec![0.2, 0.2, 0.2, 1.0]
            }
        );
        assert_eq!(
            one("draw rect 01 1 16 16"),
            CommandKind::DrawRect {
                rect: [1.0, 1.0, 16.0, 16.0],
                tex: None
            }
        );
        let CommandKind::Parameter { value, .. } =
            one("parameter local_vp 9 (INF, -INF, NAN, 0.0)")
        else {
            panic!()
        };
        assert!(value[0].is_infinite() && value[1] < 0.0 && value[2].is_nan());
        assert_eq!(one("ortho"), CommandKind::Ortho(None));
        assert!(parse_command("draw arrays GL_POINTS 0 1").is_err());
    }
}
