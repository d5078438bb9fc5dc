//! The `State` uniform block: where each GL state binding of
//! NV_gpu_program4 section 2.X.3.3 (Tables X.3 to X.11, taken from
//! ARB_vertex_program section 2.14.1.5 and ARB_fragment_program section
//! 3.11.1.4) lives, as docs/interface.md ("The State block") documents it.
//!
//! The block is one fixed array of 408 `vec4` rows (std140, stride 16, 6528
//! bytes); row *r* is at byte offset 16·*r* whatever the program uses, so a
//! renderer fills one structure for every program. A module declares the
//! rows `0..=highest row it reads` only.
//!
//! nvp4c derives nothing that GL computes from other state: inverses, the
//! MVP product, light products, half-angle vectors, scene colours,
//! `1/(end-start)` of the fog and `far-near` of the depth range are rows (or
//! components) the renderer fills. Two things are not stored: a transposed
//! matrix is read from the columns of the stored one (`.transpose` from the
//! matrix, `.invtrans` from its inverse: re-indexing, bit-exact), and the
//! components the tables fix to a constant (the 0, 0, 1 of
//! `state.material.shininess`, the 1 of `state.light[n].half`,
//! `state.point.attenuation` and `state.depth.range`) are those constants,
//! whatever the row holds.

/// Number of rows of the full block.
pub const STATE_ROWS: u32 = 408;

/// Matrices per kind: `state.matrix.modelview[0..7]`, `texture[0..7]`,
/// `program[0..7]`.
pub const MAX_MODELVIEW: u32 = 8;
pub const MAX_TEXTURE_MATRICES: u32 = 8;
pub const MAX_PROGRAM_MATRICES: u32 = 8;
/// `state.light[0..7]` and `state.lightprod[0..7]` (GL's minimum MAX_LIGHTS).
pub const MAX_LIGHTS: u32 = 8;
/// `state.texgen[0..7]` and `state.texenv[0..7]`.
pub const MAX_TEXTURE_UNITS: u32 = 8;
/// `state.clip[0..5].plane` (GL's minimum MAX_CLIP_PLANES).
pub const MAX_CLIP_PLANES: u32 = 6;

/// Each matrix takes 8 rows: the matrix (rows 0..3), then its inverse.
const MATRIX_ROWS: u32 = 8;
const MODELVIEW_SLOT: u32 = 0;
const PROJECTION_SLOT: u32 = 8;
const MVP_SLOT: u32 = 9;
const TEXTURE_SLOT: u32 = 10;
const PROGRAM_SLOT: u32 = 18;
/// First row after the 26 matrices.
pub const MATERIAL_ROW: u32 = 208;
pub const LIGHTMODEL_ROW: u32 = 218;
pub const LIGHT_ROW: u32 = 221;
const LIGHT_STRIDE: u32 = 7;
pub const LIGHTPROD_ROW: u32 = 277;
const LIGHTPROD_STRIDE: u32 = 6;
pub const TEXGEN_ROW: u32 = 325;
pub const TEXENV_ROW: u32 = 389;
pub const FOG_ROW: u32 = 397;
pub const CLIP_ROW: u32 = 399;
pub const POINT_ROW: u32 = 405;
pub const DEPTH_ROW: u32 = 407;

const F32_ONE: u32 = 0x3f80_0000;

/// How one state binding is read from the block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum StateRead {
    /// Row `row`; a component with `Some(bits)` in `fixed` is that float
    /// constant instead of the row's value.
    Row { row: u32, fixed: [Option<u32>; 4] },
    /// Column `column` of the matrix stored at rows `first..first + 4`:
    /// row `column` of its transpose.
    Column { first: u32, column: u32 },
}

impl StateRead {
    fn row(row: u32) -> StateRead {
        StateRead::Row {
            row,
            fixed: [None; 4],
        }
    }
    fn row_w1(row: u32) -> StateRead {
        StateRead::Row {
            row,
            fixed: [None, None, None, Some(F32_ONE)],
        }
    }
    /// The rows of the block this read touches.
    pub(crate) fn rows(self) -> std::ops::Range<u32> {
        match self {
            StateRead::Row { row, .. } => row..row + 1,
            StateRead::Column { first, .. } => first..first + 4,
        }
    }
}

fn index(s: &str, limit: u32, what: &str) -> Result<u32, String> {
    let n: u32 = s
        .parse()
        .map_err(|_| format!("state binding with index `{s}`"))?;
    if n >= limit {
        return Err(format!(
            "{what}[{n}]: nvp4c's State block holds {what}[0..{}] (docs/interface.md, \"The State block\")",
            limit - 1
        ));
    }
    Ok(n)
}

/// Where the state binding `path` (as `check::bindings` canonicalises it,
/// e.g. `["matrix", "mvp", "row", "0"]`) is read. `Err` says why it cannot
/// be: an index past the block's documented bounds, or a path the checker
/// does not produce.
pub(crate) fn state_read(path: &[String]) -> Result<StateRead, String> {
    let p: Vec<&str> = path.iter().map(String::as_str).collect();
    let unknown = || format!("unknown state binding `state.{}`", p.join("."));
    let face = |f: &str| match f {
        "front" => Ok(0),
        "back" => Ok(1),
        _ => Err(unknown()),
    };
    match p.as_slice() {
        // Table X.11; ".row[r]" is always present (the checker expands whole
        // matrices into their four rows).
        ["matrix", rest @ ..] => {
            let (slot, rest) = match rest {
                ["modelview", n, rest @ ..] => (
                    MODELVIEW_SLOT + index(n, MAX_MODELVIEW, "state.matrix.modelview")?,
                    rest,
                ),
                ["projection", rest @ ..] => (PROJECTION_SLOT, rest),
                ["mvp", rest @ ..] => (MVP_SLOT, rest),
                ["texture", n, rest @ ..] => (
                    TEXTURE_SLOT + index(n, MAX_TEXTURE_MATRICES, "state.matrix.texture")?,
                    rest,
                ),
                ["program", n, rest @ ..] => (
                    PROGRAM_SLOT + index(n, MAX_PROGRAM_MATRICES, "state.matrix.program")?,
                    rest,
                ),
                _ => return Err(unknown()),
            };
            let base = slot * MATRIX_ROWS;
            let (modifier, r) = match rest {
                ["row", r] => ("", *r),
                [m, "row", r] => (*m, *r),
                _ => return Err(unknown()),
            };
            let r = index(r, 4, "row")?;
            match modifier {
                "" => Ok(StateRead::row(base + r)),
                "inverse" => Ok(StateRead::row(base + 4 + r)),
                "transpose" => Ok(StateRead::Column {
                    first: base,
                    column: r,
                }),
                "invtrans" => Ok(StateRead::Column {
                    first: base + 4,
                    column: r,
                }),
                _ => Err(unknown()),
            }
        }
        // Table X.3.
        ["material", f, what] => {
            let base = MATERIAL_ROW + 5 * face(f)?;
            match *what {
                "ambient" => Ok(StateRead::row(base)),
                "diffuse" => Ok(StateRead::row(base + 1)),
                "specular" => Ok(StateRead::row(base + 2)),
                "emission" => Ok(StateRead::row(base + 3)),
                // (s, 0, 0, 1)
                "shininess" => Ok(StateRead::Row {
                    row: base + 4,
                    fixed: [None, Some(0), Some(0), Some(F32_ONE)],
                }),
                _ => Err(unknown()),
            }
        }
        // Table X.4.
        ["lightmodel", "ambient"] => Ok(StateRead::row(LIGHTMODEL_ROW)),
        ["lightmodel", f, "scenecolor"] => Ok(StateRead::row(LIGHTMODEL_ROW + 1 + face(f)?)),
        ["light", n, what @ ..] => {
            let base = LIGHT_ROW + LIGHT_STRIDE * index(n, MAX_LIGHTS, "state.light")?;
            match what {
                ["ambient"] => Ok(StateRead::row(base)),
                ["diffuse"] => Ok(StateRead::row(base + 1)),
                ["specular"] => Ok(StateRead::row(base + 2)),
                ["position"] => Ok(StateRead::row(base + 3)),
                ["attenuation"] => Ok(StateRead::row(base + 4)),
                ["spot", "direction"] => Ok(StateRead::row(base + 5)),
                // (x, y, z, 1)
                ["half"] => Ok(StateRead::row_w1(base + 6)),
                _ => Err(unknown()),
            }
        }
        ["lightprod", n, f, what] => {
            let base = LIGHTPROD_ROW
                + LIGHTPROD_STRIDE * index(n, MAX_LIGHTS, "state.lightprod")?
                + 3 * face(f)?;
            match *what {
                "ambient" => Ok(StateRead::row(base)),
                "diffuse" => Ok(StateRead::row(base + 1)),
                "specular" => Ok(StateRead::row(base + 2)),
                _ => Err(unknown()),
            }
        }
        // Table X.5.
        ["texgen", n, kind, coord] => {
            let base = TEXGEN_ROW + 8 * index(n, MAX_TEXTURE_UNITS, "state.texgen")?;
            let kind = match *kind {
                "eye" => 0,
                "object" => 4,
                _ => return Err(unknown()),
            };
            let coord = match *coord {
                "s" => 0,
                "t" => 1,
                "r" => 2,
                "q" => 3,
                _ => return Err(unknown()),
            };
            Ok(StateRead::row(base + kind + coord))
        }
        // Table X.9.
        ["texenv", n, "color"] => Ok(StateRead::row(
            TEXENV_ROW + index(n, MAX_TEXTURE_UNITS, "state.texenv")?,
        )),
        // Table X.6.
        ["fog", "color"] => Ok(StateRead::row(FOG_ROW)),
        ["fog", "params"] => Ok(StateRead::row(FOG_ROW + 1)),
        // Table X.7.
        ["clip", n, "plane"] => Ok(StateRead::row(
            CLIP_ROW + index(n, MAX_CLIP_PLANES, "state.clip")?,
        )),
        // Table X.8.
        ["point", "size"] => Ok(StateRead::row(POINT_ROW)),
        // (a, b, c, 1)
        ["point", "attenuation"] => Ok(StateRead::row_w1(POINT_ROW + 1)),
        // Table X.10: (n, f, d, 1)
        ["depth", "range"] => Ok(StateRead::row_w1(DEPTH_ROW)),
        _ => Err(unknown()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(s: &str) -> Result<StateRead, String> {
        let path: Vec<String> = s.split('.').map(String::from).collect();
        state_read(&path)
    }

    fn row(s: &str) -> u32 {
        match read(s) {
            Ok(StateRead::Row { row, .. }) => row,
            other => panic!("{s}: {other:?}"),
        }
    }

    #[test]
    fn documented_offsets() {
        // The byte offsets of docs/interface.md, "The State block".
        assert_eq!(16 * row("matrix.modelview.0.row.0"), 0);
        assert_eq!(16 * row("matrix.modelview.0.inverse.row.2"), 96);
        assert_eq!(16 * row("matrix.modelview.7.row.3"), 7 * 128 + 48);
        assert_eq!(16 * row("matrix.projection.row.0"), 1024);
        assert_eq!(16 * row("matrix.mvp.row.1"), 1152 + 16);
        assert_eq!(16 * row("matrix.mvp.inverse.row.0"), 1216);
        assert_eq!(16 * row("matrix.texture.0.row.0"), 1280);
        assert_eq!(16 * row("matrix.program.0.row.0"), 2304);
        assert_eq!(16 * row("matrix.program.7.inverse.row.3"), 3312);
        assert_eq!(16 * row("material.front.ambient"), 3328);
        assert_eq!(16 * row("material.back.shininess"), 3328 + 9 * 16);
        assert_eq!(16 * row("lightmodel.ambient"), 3488);
        assert_eq!(16 * row("lightmodel.front.scenecolor"), 3504);
        assert_eq!(16 * row("lightmodel.back.scenecolor"), 3520);
        assert_eq!(16 * row("light.0.ambient"), 3536);
        assert_eq!(16 * row("light.1.ambient"), 3536 + 112);
        assert_eq!(16 * row("light.7.half"), 3536 + 7 * 112 + 96);
        assert_eq!(16 * row("lightprod.0.front.ambient"), 4432);
        assert_eq!(16 * row("lightprod.7.back.specular"), 4432 + 7 * 96 + 80);
        assert_eq!(16 * row("texgen.0.eye.s"), 5200);
        assert_eq!(16 * row("texgen.1.object.q"), 5200 + 128 + 112);
        assert_eq!(16 * row("texenv.0.color"), 6224);
        assert_eq!(16 * row("fog.color"), 6352);
        assert_eq!(16 * row("fog.params"), 6368);
        assert_eq!(16 * row("clip.0.plane"), 6384);
        assert_eq!(16 * row("clip.5.plane"), 6464);
        assert_eq!(16 * row("point.size"), 6480);
        assert_eq!(16 * row("point.attenuation"), 6496);
        assert_eq!(16 * row("depth.range"), 6512);
        assert_eq!(STATE_ROWS * 16, 6528);
    }

    #[test]
    fn every_row_has_one_binding() {
        let mut seen = vec![0u32; STATE_ROWS as usize];
        let mut paths: Vec<String> = Vec::new();
        for (kind, n) in [
            ("modelview.", MAX_MODELVIEW),
            ("texture.", MAX_TEXTURE_MATRICES),
            ("program.", MAX_PROGRAM_MATRICES),
            ("projection", 1),
            ("mvp", 1),
        ] {
            for i in 0..n {
                let m = if kind.ends_with('.') {
                    format!("matrix.{kind}{i}")
                } else {
                    format!("matrix.{kind}")
                };
                for r in 0..4 {
                    paths.push(format!("{m}.row.{r}"));
                    paths.push(format!("{m}.inverse.row.{r}"));
                }
            }
        }
        for f in ["front", "back"] {
            for w in ["ambient", "diffuse", "specular", "emission", "shininess"] {
                paths.push(format!("material.{f}.{w}"));
            }
            paths.push(format!("lightmodel.{f}.scenecolor"));
        }
        paths.push("lightmodel.ambient".into());
        for n in 0..MAX_LIGHTS {
            for w in [
                "ambient",
                "diffuse",
                "specular",
                "position",
                "attenuation",
                "spot.direction",
                "half",
            ] {
                paths.push(format!("light.{n}.{w}"));
            }
            for f in ["front", "back"] {
                for w in ["ambient", "diffuse", "specular"] {
                    paths.push(format!("lightprod.{n}.{f}.{w}"));
                }
            }
        }
        for n in 0..MAX_TEXTURE_UNITS {
            for k in ["eye", "object"] {
                for c in ["s", "t", "r", "q"] {
                    paths.push(format!("texgen.{n}.{k}.{c}"));
                }
            }
            paths.push(format!("texenv.{n}.color"));
        }
        for n in 0..MAX_CLIP_PLANES {
            paths.push(format!("clip.{n}.plane"));
        }
        for p in [
            "fog.color",
            "fog.params",
            "point.size",
            "point.attenuation",
            "depth.range",
        ] {
            paths.push(p.into());
        }
        for p in &paths {
            seen[row(p) as usize] += 1;
        }
        assert!(seen.iter().all(|&c| c == 1), "{seen:?}");
    }

    #[test]
    fn transposes_read_columns_and_constants_are_fixed() {
        assert_eq!(
            read("matrix.mvp.transpose.row.2"),
            Ok(StateRead::Column {
                first: 72,
                column: 2
            })
        );
        assert_eq!(
            read("matrix.modelview.1.invtrans.row.0"),
            Ok(StateRead::Column {
                first: 12,
                column: 0
            })
        );
        assert_eq!(
            read("material.front.shininess"),
            Ok(StateRead::Row {
                row: 212,
                fixed: [None, Some(0), Some(0), Some(F32_ONE)]
            })
        );
    }

    #[test]
    fn indices_past_the_bounds_are_errors() {
        for p in [
            "matrix.modelview.8.row.0",
            "matrix.texture.8.row.0",
            "matrix.program.8.row.0",
            "light.8.ambient",
            "lightprod.8.front.ambient",
            "texgen.8.eye.s",
            "texenv.8.color",
            "clip.6.plane",
        ] {
            let e = read(p).unwrap_err();
            assert!(e.contains("docs/interface.md"), "{p}: {e}");
        }
        assert!(read("fog.density").is_err());
    }
}
