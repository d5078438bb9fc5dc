//! The `State` uniform block: where each GL state binding (`state.*`,
//! NV_gpu_program4 section 2.X.3.3, Tables X.3 to X.11, taken from
//! ARB_vertex_program section 2.14.1.5 and ARB_fragment_program section
//! 3.11.1.4) lives, as docs/interface.md ("The State block") documents it,
//! and a helper that fills the block from GL-like state ([`GlState`]), so a
//! renderer never copies an offset by hand.
//!
//! The block is one fixed array of [`ROWS`] `vec4` rows of 32-bit floats
//! (std140, stride 16, [`BLOCK_SIZE`] bytes); row *r* is at byte offset
//! 16·*r* whatever the program uses, so one structure serves every program.
//! A module declares the rows `0..=highest row it reads` only (the
//! reflection gives the size).
//!
//! The block stores what GL stores, plus what GL derives (inverses, the MVP
//! product, light products, half-angle vectors, scene colours,
//! `1/(end-start)` of the fog and `far-near` of the depth range):
//! [`GlState::to_block`] computes those. Two things are not stored: a
//! transposed matrix is read from the columns of the stored one
//! (`.transpose` from the matrix, `.invtrans` from its inverse:
//! re-indexing, bit-exact), and the components the tables fix to a constant
//! (the 0, 0, 1 of `state.material.shininess`, the 1 of
//! `state.light[n].half`, `state.point.attenuation` and
//! `state.depth.range`) are those constants, whatever the row holds. The w
//! of the `state.depth.range` row carries GL's user clip plane enables for
//! position-invariant vertex programs ([`CLIP_PLANE_ENABLES`]). The last
//! two rows hold integers, not floats: NV_shader_thread_group's
//! `state.thread.warpspersm` and `state.thread.smcount` in x.
//!
//! ```
//! use nvp4c::state::{self, Read};
//! // Where a binding is read from:
//! let mvp1 = state::locate("state.matrix.mvp.row[1]").unwrap();
//! assert_eq!(mvp1.offset(), 1168);
//! // A transposed row is a column of the stored matrix:
//! assert_eq!(state::locate("state.matrix.projection.transpose.row[2]").unwrap(),
//!            Read::Column { row: 64, column: 2 });
//! // Fill the block from GL-like state and upload its bytes:
//! let mut gl = state::GlState::default();
//! gl.fog.start = 2.0;
//! gl.fog.end = 6.0;
//! let block = gl.to_block();
//! assert_eq!(block.get("state.fog.params").unwrap(), [1.0, 2.0, 6.0, 0.25]);
//! assert_eq!(block.as_bytes().len(), state::BLOCK_SIZE as usize);
//! ```

mod gl;

pub use gl::{ClipPlane, Fog, GlState, Light, Material, Matrix, Point, TexGen};

/// Number of `vec4` rows of the full block.
pub const ROWS: u32 = 410;
/// Size of the full block in bytes: binding this much always suffices.
pub const BLOCK_SIZE: u32 = ROWS * 16;

/// `state.matrix.modelview[0..7]` (MAX_VERTEX_UNITS_ARB).
pub const MAX_MODELVIEW: u32 = 8;
/// `state.matrix.texture[0..7]` (MAX_TEXTURE_COORDS).
pub const MAX_TEXTURE_MATRICES: u32 = 8;
/// `state.matrix.program[0..7]` (MAX_PROGRAM_MATRICES_ARB).
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
const MATERIAL_ROW: u32 = 208;
const LIGHTMODEL_ROW: u32 = 218;
const LIGHT_ROW: u32 = 221;
const LIGHT_STRIDE: u32 = 7;
const LIGHTPROD_ROW: u32 = 277;
const LIGHTPROD_STRIDE: u32 = 6;
const TEXGEN_ROW: u32 = 325;
const TEXENV_ROW: u32 = 389;
const FOG_ROW: u32 = 397;
const CLIP_ROW: u32 = 399;
const POINT_ROW: u32 = 405;
const DEPTH_ROW: u32 = 407;
/// NV_shader_thread_group 2.X.3.3's `state.thread.warpspersm` and
/// `state.thread.smcount` (WARPS_PER_SM_NV, SM_COUNT_NV): integer bits in
/// x of rows 408 and 409. `state.thread.warpsize` is the subgroup size, a
/// built-in, and has no row (docs/interface.md, "Thread groups").
const THREAD_ROW: u32 = 408;

/// The component of the block that holds GL's user clip plane enables
/// (`CLIP_PLANE0..5`): (row, component). Bit *n* of its 32 bits, read as an
/// unsigned integer (not as a float value), enables plane *n* for
/// position-invariant vertex programs (docs/semantics.md, "Options"). It is
/// the w of the `state.depth.range` row, which programs read as the
/// constant 1.0: a row filled with GL's (n, f, f − n, 1.0) enables no plane.
///
/// ```
/// let (row, component) = nvp4c::state::CLIP_PLANE_ENABLES;
/// assert_eq!((16 * row + 4 * component), 6524);
/// ```
pub const CLIP_PLANE_ENABLES: (u32, u32) = (DEPTH_ROW, 3);

/// How one state binding is read from the block.
///
/// ```
/// use nvp4c::state::{locate, Read};
/// assert_eq!(locate("state.fog.color").unwrap(), Read::Row { row: 397, constant: [None; 4] });
/// let shininess = locate("state.material.shininess").unwrap();
/// assert_eq!(shininess, Read::Row { row: 212, constant: [None, Some(0.0), Some(0.0), Some(1.0)] });
/// assert_eq!(shininess.offset(), 3392);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Read {
    /// Row `row` (byte offset 16·`row`), a vec4 of floats; a component
    /// with `Some(value)` in `constant` reads as that constant instead of
    /// what the row holds.
    Row {
        /// The row.
        row: u32,
        /// Components fixed by the spec's tables.
        constant: [Option<f32>; 4],
    },
    /// Column `column` of the matrix stored at rows `row..row + 4`: row
    /// `column` of its transpose. Component *k* is component `column` of
    /// row `row + k`.
    Column {
        /// The first of the matrix's four rows.
        row: u32,
        /// Which column.
        column: u32,
    },
}

impl Read {
    fn row(row: u32) -> Read {
        Read::Row {
            row,
            constant: [None; 4],
        }
    }
    fn row_w1(row: u32) -> Read {
        Read::Row {
            row,
            constant: [None, None, None, Some(1.0)],
        }
    }
    /// The rows of the block this read touches.
    ///
    /// ```
    /// let read = nvp4c::state::locate("state.matrix.mvp.transpose.row[0]").unwrap();
    /// assert_eq!(read.rows(), 72..76);
    /// ```
    pub fn rows(self) -> std::ops::Range<u32> {
        match self {
            Read::Row { row, .. } => row..row + 1,
            Read::Column { row, .. } => row..row + 4,
        }
    }
    /// Byte offset of the (first) row read.
    pub fn offset(self) -> u32 {
        16 * self.rows().start
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

/// Where the state binding `path` (as the checker canonicalises it, e.g.
/// `["matrix", "mvp", "row", "0"]`) is read. `Err` says why it cannot be:
/// an index past the block's documented bounds, or an unknown path.
pub(crate) fn read_path<S: AsRef<str>>(path: &[S]) -> Result<Read, String> {
    let p: Vec<&str> = path.iter().map(AsRef::as_ref).collect();
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
                "" => Ok(Read::row(base + r)),
                "inverse" => Ok(Read::row(base + 4 + r)),
                "transpose" => Ok(Read::Column {
                    row: base,
                    column: r,
                }),
                "invtrans" => Ok(Read::Column {
                    row: base + 4,
                    column: r,
                }),
                _ => Err(unknown()),
            }
        }
        // Table X.3.
        ["material", f, what] => {
            let base = MATERIAL_ROW + 5 * face(f)?;
            match *what {
                "ambient" => Ok(Read::row(base)),
                "diffuse" => Ok(Read::row(base + 1)),
                "specular" => Ok(Read::row(base + 2)),
                "emission" => Ok(Read::row(base + 3)),
                // (s, 0, 0, 1)
                "shininess" => Ok(Read::Row {
                    row: base + 4,
                    constant: [None, Some(0.0), Some(0.0), Some(1.0)],
                }),
                _ => Err(unknown()),
            }
        }
        // Table X.4.
        ["lightmodel", "ambient"] => Ok(Read::row(LIGHTMODEL_ROW)),
        ["lightmodel", f, "scenecolor"] => Ok(Read::row(LIGHTMODEL_ROW + 1 + face(f)?)),
        ["light", n, what @ ..] => {
            let base = LIGHT_ROW + LIGHT_STRIDE * index(n, MAX_LIGHTS, "state.light")?;
            match what {
                ["ambient"] => Ok(Read::row(base)),
                ["diffuse"] => Ok(Read::row(base + 1)),
                ["specular"] => Ok(Read::row(base + 2)),
                ["position"] => Ok(Read::row(base + 3)),
                ["attenuation"] => Ok(Read::row(base + 4)),
                ["spot", "direction"] => Ok(Read::row(base + 5)),
                // (x, y, z, 1)
                ["half"] => Ok(Read::row_w1(base + 6)),
                _ => Err(unknown()),
            }
        }
        ["lightprod", n, f, what] => {
            let base = LIGHTPROD_ROW
                + LIGHTPROD_STRIDE * index(n, MAX_LIGHTS, "state.lightprod")?
                + 3 * face(f)?;
            match *what {
                "ambient" => Ok(Read::row(base)),
                "diffuse" => Ok(Read::row(base + 1)),
                "specular" => Ok(Read::row(base + 2)),
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
            Ok(Read::row(base + kind + coord))
        }
        // Table X.9.
        ["texenv", n, "color"] => Ok(Read::row(
            TEXENV_ROW + index(n, MAX_TEXTURE_UNITS, "state.texenv")?,
        )),
        // Table X.6.
        ["fog", "color"] => Ok(Read::row(FOG_ROW)),
        ["fog", "params"] => Ok(Read::row(FOG_ROW + 1)),
        // Table X.7.
        ["clip", n, "plane"] => Ok(Read::row(
            CLIP_ROW + index(n, MAX_CLIP_PLANES, "state.clip")?,
        )),
        // Table X.8.
        ["point", "size"] => Ok(Read::row(POINT_ROW)),
        // (a, b, c, 1)
        ["point", "attenuation"] => Ok(Read::row_w1(POINT_ROW + 1)),
        // Table X.10: (n, f, d, 1)
        ["depth", "range"] => Ok(Read::row_w1(DEPTH_ROW)),
        // NV_shader_thread_group 2.X.3.3: (x, -, -, -), an integer.
        ["thread", "warpspersm"] => Ok(Read::row(THREAD_ROW)),
        ["thread", "smcount"] => Ok(Read::row(THREAD_ROW + 1)),
        ["thread", "warpsize"] => Err(
            "`state.thread.warpsize` is the device's subgroup size (the SubgroupSize built-in), not a State block row".to_string(),
        ),
        _ => Err(unknown()),
    }
}

/// Where a state binding, spelled as in a program, is read: e.g.
/// `state.matrix.mvp.row[1]`, `state.matrix.modelview[2].invtrans.row[0]`,
/// `state.light[0].half`, `state.material.back.diffuse`. The optional parts
/// take their defaults as in a program (`state.matrix.modelview` is
/// modelview 0, `state.material.ambient` the front material,
/// `state.lightmodel.scenecolor` the front one, `state.texgen.eye.s` unit
/// 0). A whole matrix (no `.row[n]`) is four rows: name one.
///
/// ```
/// use nvp4c::state::locate;
/// assert_eq!(locate("state.matrix.modelview.row[0]").unwrap().offset(), 0);
/// assert_eq!(locate("state.lightprod[1].back.specular").unwrap().offset(), 4432 + 96 + 80);
/// assert!(locate("state.matrix.mvp").unwrap_err().contains("row"));
/// assert!(locate("state.light[8].diffuse").is_err());
/// ```
pub fn locate(binding: &str) -> Result<Read, String> {
    let path = canonical_path(binding)?;
    read_path(&path)
}

/// The canonical path of a binding written as in a program.
fn canonical_path(binding: &str) -> Result<Vec<String>, String> {
    let rest = binding
        .trim()
        .strip_prefix("state.")
        .ok_or_else(|| format!("`{binding}` is not a state binding (they start with `state.`)"))?;
    // Split `light[2].spot.direction` into members and indices.
    let mut parts: Vec<String> = Vec::new();
    for member in rest.split('.') {
        let (name, tail) = match member.find('[') {
            Some(i) => (&member[..i], &member[i..]),
            None => (member, ""),
        };
        if name.is_empty() {
            return Err(format!("`{binding}`: an empty member name"));
        }
        parts.push(name.to_string());
        let mut tail = tail;
        while let Some(t) = tail.strip_prefix('[') {
            let close = t
                .find(']')
                .ok_or_else(|| format!("`{binding}`: `[` without `]`"))?;
            let n = t[..close].trim();
            if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
                return Err(format!("`{binding}`: `[{n}]` is not an index"));
            }
            parts.push(n.to_string());
            tail = &t[close + 1..];
        }
        if !tail.is_empty() {
            return Err(format!("`{binding}`: unexpected `{tail}`"));
        }
    }
    let is_index = |s: Option<&String>| s.is_some_and(|s| s.bytes().all(|b| b.is_ascii_digit()));
    let is_face = |s: Option<&String>| s.is_some_and(|s| s == "front" || s == "back");
    // The optional parts of the grammar take their defaults (section
    // 2.X.2: unit 0, modelview 0, the front face).
    match parts[0].as_str() {
        "material" if !is_face(parts.get(1)) => parts.insert(1, "front".into()),
        "lightmodel" if parts.get(1).is_some_and(|p| p == "scenecolor") => {
            parts.insert(1, "front".into())
        }
        "lightprod" if !is_face(parts.get(2)) && parts.len() > 2 => parts.insert(2, "front".into()),
        "texgen" | "texenv" if !is_index(parts.get(1)) => parts.insert(1, "0".into()),
        "matrix" => {
            if matches!(
                parts.get(1).map(String::as_str),
                Some("modelview" | "texture")
            ) && !is_index(parts.get(2))
            {
                parts.insert(2, "0".into());
            }
            if !parts.iter().any(|p| p == "row") {
                return Err(format!(
                    "`{binding}` is a whole matrix (four rows): name one with `.row[n]`"
                ));
            }
        }
        _ => {}
    }
    Ok(parts)
}

/// Every row of the block and the binding stored in it, in row order: one
/// entry per row, e.g. `("state.matrix.modelview[0].inverse.row[2]", 96)`
/// (byte offsets).
///
/// ```
/// let rows = nvp4c::state::stored_rows();
/// assert_eq!(rows.len(), nvp4c::state::ROWS as usize);
/// assert_eq!(rows[72], ("state.matrix.mvp.row[0]".to_string(), 1152));
/// ```
pub fn stored_rows() -> Vec<(String, u32)> {
    let mut names: Vec<String> = Vec::with_capacity(ROWS as usize);
    let matrix = |names: &mut Vec<String>, m: &str| {
        for r in 0..4 {
            names.push(format!("state.matrix.{m}.row[{r}]"));
        }
        for r in 0..4 {
            names.push(format!("state.matrix.{m}.inverse.row[{r}]"));
        }
    };
    for n in 0..MAX_MODELVIEW {
        matrix(&mut names, &format!("modelview[{n}]"));
    }
    matrix(&mut names, "projection");
    matrix(&mut names, "mvp");
    for n in 0..MAX_TEXTURE_MATRICES {
        matrix(&mut names, &format!("texture[{n}]"));
    }
    for n in 0..MAX_PROGRAM_MATRICES {
        matrix(&mut names, &format!("program[{n}]"));
    }
    for f in ["front", "back"] {
        for w in ["ambient", "diffuse", "specular", "emission", "shininess"] {
            names.push(format!("state.material.{f}.{w}"));
        }
    }
    names.push("state.lightmodel.ambient".into());
    names.push("state.lightmodel.front.scenecolor".into());
    names.push("state.lightmodel.back.scenecolor".into());
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
            names.push(format!("state.light[{n}].{w}"));
        }
    }
    for n in 0..MAX_LIGHTS {
        for f in ["front", "back"] {
            for w in ["ambient", "diffuse", "specular"] {
                names.push(format!("state.lightprod[{n}].{f}.{w}"));
            }
        }
    }
    for n in 0..MAX_TEXTURE_UNITS {
        for k in ["eye", "object"] {
            for c in ["s", "t", "r", "q"] {
                names.push(format!("state.texgen[{n}].{k}.{c}"));
            }
        }
    }
    for n in 0..MAX_TEXTURE_UNITS {
        names.push(format!("state.texenv[{n}].color"));
    }
    names.push("state.fog.color".into());
    names.push("state.fog.params".into());
    for n in 0..MAX_CLIP_PLANES {
        names.push(format!("state.clip[{n}].plane"));
    }
    names.push("state.point.size".into());
    names.push("state.point.attenuation".into());
    names.push("state.depth.range".into());
    names.push("state.thread.warpspersm".into());
    names.push("state.thread.smcount".into());
    names
        .into_iter()
        .enumerate()
        .map(|(r, n)| (n, 16 * r as u32))
        .collect()
}

/// An image of the whole State block: [`ROWS`] rows of four floats, zero
/// until set. Upload [`Block::as_bytes`] to the uniform buffer bound at the
/// State block's binding (the reflection's `state` block).
///
/// ```
/// let mut block = nvp4c::state::Block::new();
/// block.set("state.light[1].position", [0.0, 0.0, 1.0, 0.0]).unwrap();
/// assert_eq!(block.row(221 + 7 + 3), [0.0, 0.0, 1.0, 0.0]);
/// assert_eq!(block.get("state.light[1].half").unwrap()[3], 1.0); // the table's constant
/// assert!(block.set("state.matrix.mvp.transpose.row[0]", [0.0; 4]).is_err());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    rows: Vec<[f32; 4]>,
}

impl Default for Block {
    fn default() -> Block {
        Block::new()
    }
}

impl Block {
    /// A block of zeros.
    pub fn new() -> Block {
        Block {
            rows: vec![[0.0; 4]; ROWS as usize],
        }
    }
    /// Row `row` (panics past [`ROWS`]).
    pub fn row(&self, row: u32) -> [f32; 4] {
        self.rows[row as usize]
    }
    /// Sets row `row` (panics past [`ROWS`]).
    pub fn set_row(&mut self, row: u32, value: [f32; 4]) {
        self.rows[row as usize] = value;
    }
    /// The rows.
    pub fn rows(&self) -> &[[f32; 4]] {
        &self.rows
    }
    /// Stores the value a program reads from `binding`. Bindings that are
    /// read, not stored (a transposed row), are an error; components the
    /// table fixes are stored but never read.
    pub fn set(&mut self, binding: &str, value: [f32; 4]) -> Result<(), String> {
        match locate(binding)? {
            Read::Row { row, .. } => {
                self.set_row(row, value);
                Ok(())
            }
            Read::Column { .. } => Err(format!(
                "`{binding}` is read from the columns of a stored matrix; set the matrix's rows"
            )),
        }
    }
    /// The value a program reads from `binding` (constants and transposes
    /// applied), as a program would see it.
    pub fn get(&self, binding: &str) -> Result<[f32; 4], String> {
        Ok(self.read(locate(binding)?))
    }
    /// The value of `read` (constants and transposes applied).
    pub fn read(&self, read: Read) -> [f32; 4] {
        match read {
            Read::Row { row, constant } => {
                let v = self.row(row);
                std::array::from_fn(|c| constant[c].unwrap_or(v[c]))
            }
            Read::Column { row, column } => {
                std::array::from_fn(|k| self.row(row + k as u32)[column as usize])
            }
        }
    }
    /// The user clip planes enabled for position-invariant programs: bit
    /// *n* for `CLIP_PLANE`*n* ([`CLIP_PLANE_ENABLES`]).
    pub fn clip_plane_enables(&self) -> u32 {
        let (row, c) = CLIP_PLANE_ENABLES;
        self.row(row)[c as usize].to_bits()
    }
    /// Sets the user clip plane enables ([`CLIP_PLANE_ENABLES`]).
    pub fn set_clip_plane_enables(&mut self, mask: u32) {
        let (row, c) = CLIP_PLANE_ENABLES;
        self.rows[row as usize][c as usize] = f32::from_bits(mask);
    }
    /// The rows as 32-bit words (IEEE-754 bits), row after row.
    pub fn words(&self) -> Vec<u32> {
        self.rows.iter().flatten().map(|v| v.to_bits()).collect()
    }
    /// The rows as little-endian bytes: [`BLOCK_SIZE`] bytes, the uniform
    /// buffer's contents.
    pub fn as_bytes(&self) -> Vec<u8> {
        self.words().iter().flat_map(|w| w.to_le_bytes()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(s: &str) -> Result<Read, String> {
        let path: Vec<String> = s.split('.').map(String::from).collect();
        read_path(&path)
    }

    fn row(s: &str) -> u32 {
        match read(s) {
            Ok(Read::Row { row, .. }) => row,
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
        assert_eq!(16 * row("thread.warpspersm"), 6528);
        assert_eq!(16 * row("thread.smcount"), 6544);
        assert_eq!(ROWS * 16, 6560);
    }

    #[test]
    fn every_row_has_one_binding() {
        let mut seen = vec![0u32; ROWS as usize];
        for (name, offset) in stored_rows() {
            let read = locate(&name).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(read.offset(), offset, "{name}");
            assert!(matches!(read, Read::Row { .. }), "{name}");
            seen[read.rows().start as usize] += 1;
        }
        assert!(seen.iter().all(|&c| c == 1), "{seen:?}");
    }

    #[test]
    fn program_spellings_take_their_defaults() {
        let same = |a: &str, b: &str| assert_eq!(locate(a), locate(b), "{a} vs {b}");
        same(
            "state.matrix.modelview.row[1]",
            "state.matrix.modelview[0].row[1]",
        );
        same(
            "state.matrix.texture.inverse.row[0]",
            "state.matrix.texture[0].inverse.row[0]",
        );
        same("state.material.ambient", "state.material.front.ambient");
        same(
            "state.lightmodel.scenecolor",
            "state.lightmodel.front.scenecolor",
        );
        same(
            "state.lightprod[3].diffuse",
            "state.lightprod[3].front.diffuse",
        );
        same("state.texgen.eye.s", "state.texgen[0].eye.s");
        same("state.texenv.color", "state.texenv[0].color");
        assert!(locate("state.matrix.program.row[0]").is_err()); // program[n] needs n
        assert!(locate("fog.color").is_err());
        assert!(locate("state.fog.colour").is_err());
        assert!(locate("state.light[x].ambient").is_err());
    }

    #[test]
    fn transposes_read_columns_and_constants_are_fixed() {
        assert_eq!(
            read("matrix.mvp.transpose.row.2"),
            Ok(Read::Column { row: 72, column: 2 })
        );
        assert_eq!(
            read("matrix.modelview.1.invtrans.row.0"),
            Ok(Read::Column { row: 12, column: 0 })
        );
        assert_eq!(
            read("material.front.shininess"),
            Ok(Read::Row {
                row: 212,
                constant: [None, Some(0.0), Some(0.0), Some(1.0)]
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

    #[test]
    fn block_reads_apply_constants_and_columns() {
        let mut b = Block::new();
        for r in 0..4 {
            b.set(
                &format!("state.matrix.mvp.row[{r}]"),
                std::array::from_fn(|c| (4 * r + c) as f32),
            )
            .unwrap();
        }
        assert_eq!(
            b.get("state.matrix.mvp.transpose.row[1]").unwrap(),
            [1.0, 5.0, 9.0, 13.0]
        );
        b.set("state.depth.range", [0.0, 1.0, 1.0, 7.0]).unwrap();
        assert_eq!(b.get("state.depth.range").unwrap(), [0.0, 1.0, 1.0, 1.0]);
        b.set_clip_plane_enables(0b101);
        assert_eq!(b.clip_plane_enables(), 5);
        assert_eq!(b.get("state.depth.range").unwrap()[3], 1.0);
        assert_eq!(b.as_bytes().len(), BLOCK_SIZE as usize);
    }
}
