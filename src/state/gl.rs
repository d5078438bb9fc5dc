//! [`GlState`]: the GL state the `state.*` bindings read, in GL's own
//! terms, and [`GlState::to_block`], which lays it out as the State block
//! with everything GL derives from it (NV_gpu_program4 section 2.X.3.3):
//! inverses, `state.matrix.mvp` = projection × modelview[0], light
//! products, half-angle vectors, scene colours, `1/(end-start)`,
//! `far-near`, the cosine of the spot cutoff.

use super::{Block, Read, CLIP_PLANE_ENABLES, MAX_CLIP_PLANES, MAX_LIGHTS, MAX_TEXTURE_UNITS};

/// A 4×4 matrix as GL stores it: **column-major**, element (row *r*,
/// column *c*) at index 4·*c* + *r* (what `glLoadMatrixf` takes and
/// `glGetFloatv(GL_MODELVIEW_MATRIX)` returns).
pub type Matrix = [f32; 16];

/// The identity matrix.
pub const IDENTITY: Matrix = [
    1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
];

/// Material colours of one face (OpenGL 2.0 Table 2.11; defaults as GL's).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Material {
    /// Default (0.2, 0.2, 0.2, 1).
    pub ambient: [f32; 4],
    /// Default (0.8, 0.8, 0.8, 1).
    pub diffuse: [f32; 4],
    /// Default (0, 0, 0, 1).
    pub specular: [f32; 4],
    /// Default (0, 0, 0, 1).
    pub emission: [f32; 4],
    /// Specular exponent; default 0.
    pub shininess: f32,
}

impl Default for Material {
    fn default() -> Material {
        Material {
            ambient: [0.2, 0.2, 0.2, 1.0],
            diffuse: [0.8, 0.8, 0.8, 1.0],
            specular: [0.0, 0.0, 0.0, 1.0],
            emission: [0.0, 0.0, 0.0, 1.0],
            shininess: 0.0,
        }
    }
}

/// One light (OpenGL 2.0 Table 2.10; defaults as GL's for lights 1 to 7,
/// see [`GlState::default`] for light 0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Light {
    /// Default (0, 0, 0, 1).
    pub ambient: [f32; 4],
    /// Default (0, 0, 0, 1) ((1, 1, 1, 1) for light 0).
    pub diffuse: [f32; 4],
    /// Default (0, 0, 0, 1) ((1, 1, 1, 1) for light 0).
    pub specular: [f32; 4],
    /// **Eye-space** position (GL transforms `glLightfv(GL_POSITION)` by
    /// the modelview matrix when it is set); default (0, 0, 1, 0).
    pub position: [f32; 4],
    /// Eye-space spot direction; default (0, 0, −1).
    pub spot_direction: [f32; 3],
    /// Default 0.
    pub spot_exponent: f32,
    /// Spot cutoff angle in **degrees** (180: no spot); default 180.
    pub spot_cutoff: f32,
    /// Constant, linear and quadratic attenuation; default (1, 0, 0).
    pub attenuation: [f32; 3],
}

impl Default for Light {
    fn default() -> Light {
        Light {
            ambient: [0.0, 0.0, 0.0, 1.0],
            diffuse: [0.0, 0.0, 0.0, 1.0],
            specular: [0.0, 0.0, 0.0, 1.0],
            position: [0.0, 0.0, 1.0, 0.0],
            spot_direction: [0.0, 0.0, -1.0],
            spot_exponent: 0.0,
            spot_cutoff: 180.0,
            attenuation: [1.0, 0.0, 0.0],
        }
    }
}

/// Texture coordinate generation planes of one unit, in the order s, t,
/// r, q (OpenGL 2.0 section 2.11.4).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TexGen {
    /// Eye-linear planes p′ as GL stores them (already multiplied by the
    /// inverse modelview matrix at `glTexGen` time). Default s = (1, 0, 0,
    /// 0), t = (0, 1, 0, 0), r = q = 0.
    pub eye: [[f32; 4]; 4],
    /// Object-linear planes; the same defaults.
    pub object: [[f32; 4]; 4],
}

impl Default for TexGen {
    fn default() -> TexGen {
        let planes = [
            [1.0, 0.0, 0.0, 0.0],
            [0.0, 1.0, 0.0, 0.0],
            [0.0; 4],
            [0.0; 4],
        ];
        TexGen {
            eye: planes,
            object: planes,
        }
    }
}

/// Fog parameters (OpenGL 2.0 section 3.10; defaults as GL's).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fog {
    /// Default (0, 0, 0, 0).
    pub color: [f32; 4],
    /// Default 1.
    pub density: f32,
    /// Linear fog start; default 0.
    pub start: f32,
    /// Linear fog end; default 1.
    pub end: f32,
}

impl Default for Fog {
    fn default() -> Fog {
        Fog {
            color: [0.0; 4],
            density: 1.0,
            start: 0.0,
            end: 1.0,
        }
    }
}

/// A user clip plane (OpenGL 2.0 section 2.11).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ClipPlane {
    /// **Eye-space** coefficients (GL multiplies `glClipPlane`'s by the
    /// inverse modelview matrix when it is set); default 0.
    pub plane: [f32; 4],
    /// `glEnable(GL_CLIP_PLANEn)`: position-invariant vertex programs clip
    /// against it (the block's [`CLIP_PLANE_ENABLES`]). Default off.
    pub enabled: bool,
}

/// Point parameters (OpenGL 2.0 section 3.3; ARB_point_parameters).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// Default 1.
    pub size: f32,
    /// Default 0.
    pub min_size: f32,
    /// Default 64 (GL's default is the largest supported size).
    pub max_size: f32,
    /// Default 1.
    pub fade_threshold: f32,
    /// Distance attenuation a, b, c; default (1, 0, 0).
    pub attenuation: [f32; 3],
}

impl Default for Point {
    fn default() -> Point {
        Point {
            size: 1.0,
            min_size: 0.0,
            max_size: 64.0,
            fade_threshold: 1.0,
            attenuation: [1.0, 0.0, 0.0],
        }
    }
}

/// The GL state that `state.*` bindings read, with GL's defaults
/// (`GlState::default()`). Set what the renderer uses, then
/// [`GlState::to_block`].
///
/// ```
/// use nvp4c::state::GlState;
/// let mut gl = GlState::default();
/// // glTranslatef(1, 2, 3) on the modelview matrix, column-major:
/// gl.modelview[0][12..15].copy_from_slice(&[1.0, 2.0, 3.0]);
/// let block = gl.to_block();
/// assert_eq!(block.get("state.matrix.modelview.row[0]").unwrap(), [1.0, 0.0, 0.0, 1.0]);
/// assert_eq!(block.get("state.matrix.modelview.inverse.row[2]").unwrap(), [0.0, 0.0, 1.0, -3.0]);
/// // mvp = projection (identity) × modelview:
/// assert_eq!(block.get("state.matrix.mvp.row[1]").unwrap(), [0.0, 1.0, 0.0, 2.0]);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct GlState {
    /// `state.matrix.modelview[n]` (vertex blending units; 0 is GL's
    /// modelview matrix).
    pub modelview: [Matrix; 8],
    /// `state.matrix.projection`.
    pub projection: Matrix,
    /// `state.matrix.texture[n]`.
    pub texture: [Matrix; 8],
    /// `state.matrix.program[n]` (ARB_vertex_program's program matrices).
    pub program: [Matrix; 8],
    /// Front material (`state.material[.front]`).
    pub front: Material,
    /// Back material (`state.material.back`).
    pub back: Material,
    /// `state.lightmodel.ambient`; default (0.2, 0.2, 0.2, 1).
    pub light_model_ambient: [f32; 4],
    /// `state.light[n]`.
    pub lights: [Light; 8],
    /// `state.texgen[n]`.
    pub texgen: [TexGen; 8],
    /// `state.texenv[n].color` (`GL_TEXTURE_ENV_COLOR`); default 0.
    pub texenv_color: [[f32; 4]; 8],
    /// `state.fog`.
    pub fog: Fog,
    /// `state.clip[n].plane`, and whether each plane is enabled.
    pub clip_planes: [ClipPlane; 6],
    /// `state.point`.
    pub point: Point,
    /// `glDepthRange(near, far)`; default (0, 1).
    pub depth_range: [f32; 2],
    /// `state.thread.warpspersm` (NV_shader_thread_group 2.X.3.3,
    /// WARPS_PER_SM_NV: "maximum number of warp executing on a SM"),
    /// stored as integer bits. Core Vulkan has no such number; on NVIDIA
    /// VK_NV_shader_sm_builtins' `shaderWarpsPerSM` is it. Default 1.
    pub warps_per_sm: u32,
    /// `state.thread.smcount` (SM_COUNT_NV: "number of SM on the GPU"),
    /// integer bits; VK_NV_shader_sm_builtins' `shaderSMCount`. Default 1.
    pub sm_count: u32,
}

impl Default for GlState {
    fn default() -> GlState {
        let mut lights = [Light::default(); 8];
        lights[0].diffuse = [1.0; 4];
        lights[0].specular = [1.0; 4];
        GlState {
            modelview: [IDENTITY; 8],
            projection: IDENTITY,
            texture: [IDENTITY; 8],
            program: [IDENTITY; 8],
            front: Material::default(),
            back: Material::default(),
            light_model_ambient: [0.2, 0.2, 0.2, 1.0],
            lights,
            texgen: [TexGen::default(); 8],
            texenv_color: [[0.0; 4]; 8],
            fog: Fog::default(),
            clip_planes: [ClipPlane::default(); 6],
            point: Point::default(),
            depth_range: [0.0, 1.0],
            warps_per_sm: 1,
            sm_count: 1,
        }
    }
}

/// Row *r* of a column-major matrix.
fn row_of(m: &Matrix, r: usize) -> [f32; 4] {
    [m[r], m[4 + r], m[8 + r], m[12 + r]]
}

/// `a × b` of column-major matrices, each element a dot product in double
/// precision rounded once.
pub(crate) fn multiply(a: &Matrix, b: &Matrix) -> Matrix {
    let mut out = [0.0f32; 16];
    for c in 0..4 {
        for r in 0..4 {
            let sum: f64 = (0..4)
                .map(|k| f64::from(a[4 * k + r]) * f64::from(b[4 * c + k]))
                .sum();
            out[4 * c + r] = sum as f32;
        }
    }
    out
}

/// The inverse of a column-major matrix (cofactors in double precision),
/// or all zeros for a singular one (GL leaves that inverse undefined).
pub(crate) fn inverse(m: &Matrix) -> Matrix {
    let a: [f64; 16] = m.map(f64::from);
    // Element (r, c) of the column-major input.
    let e = |r: usize, c: usize| a[4 * c + r];
    let minor = |skip_r: usize, skip_c: usize| -> f64 {
        let rows: Vec<usize> = (0..4).filter(|&r| r != skip_r).collect();
        let cols: Vec<usize> = (0..4).filter(|&c| c != skip_c).collect();
        let m3 = |i: usize, j: usize| e(rows[i], cols[j]);
        m3(0, 0) * (m3(1, 1) * m3(2, 2) - m3(1, 2) * m3(2, 1))
            - m3(0, 1) * (m3(1, 0) * m3(2, 2) - m3(1, 2) * m3(2, 0))
            + m3(0, 2) * (m3(1, 0) * m3(2, 1) - m3(1, 1) * m3(2, 0))
    };
    let cofactor = |r: usize, c: usize| {
        let sign = if (r + c).is_multiple_of(2) { 1.0 } else { -1.0 };
        sign * minor(r, c)
    };
    let det: f64 = (0..4).map(|c| e(0, c) * cofactor(0, c)).sum();
    if det == 0.0 || !det.is_finite() {
        return [0.0; 16];
    }
    let mut out = [0.0f32; 16];
    for r in 0..4 {
        for c in 0..4 {
            // inverse(r, c) = cofactor(c, r) / det (the adjugate).
            out[4 * c + r] = (cofactor(c, r) / det) as f32;
        }
    }
    out
}

fn normalize3(v: [f64; 3]) -> [f64; 3] {
    let len = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    if len == 0.0 {
        return [0.0; 3];
    }
    v.map(|x| x / len)
}

impl GlState {
    /// `state.matrix.mvp`: projection × modelview[0] (NV_gpu_program4
    /// Table X.11).
    pub fn mvp(&self) -> Matrix {
        multiply(&self.projection, &self.modelview[0])
    }

    /// The State block of this state: every stored row, derived values
    /// computed.
    pub fn to_block(&self) -> Block {
        let mut b = Block::new();
        let matrix = |b: &mut Block, name: &str, m: &Matrix| {
            let inv = inverse(m);
            for r in 0..4 {
                set(b, &format!("state.matrix.{name}.row[{r}]"), row_of(m, r));
                set(
                    b,
                    &format!("state.matrix.{name}.inverse.row[{r}]"),
                    row_of(&inv, r),
                );
            }
        };
        for (n, m) in self.modelview.iter().enumerate() {
            matrix(&mut b, &format!("modelview[{n}]"), m);
        }
        matrix(&mut b, "projection", &self.projection);
        matrix(&mut b, "mvp", &self.mvp());
        for (n, m) in self.texture.iter().enumerate() {
            matrix(&mut b, &format!("texture[{n}]"), m);
        }
        for (n, m) in self.program.iter().enumerate() {
            matrix(&mut b, &format!("program[{n}]"), m);
        }
        for (face, mat) in [("front", &self.front), ("back", &self.back)] {
            set(
                &mut b,
                &format!("state.material.{face}.ambient"),
                mat.ambient,
            );
            set(
                &mut b,
                &format!("state.material.{face}.diffuse"),
                mat.diffuse,
            );
            set(
                &mut b,
                &format!("state.material.{face}.specular"),
                mat.specular,
            );
            set(
                &mut b,
                &format!("state.material.{face}.emission"),
                mat.emission,
            );
            set(
                &mut b,
                &format!("state.material.{face}.shininess"),
                [mat.shininess, 0.0, 0.0, 1.0],
            );
            // c_scene = a_cs * a_cm + e_cm; alpha: the diffuse alpha.
            let scene: [f32; 4] = std::array::from_fn(|c| {
                if c == 3 {
                    mat.diffuse[3]
                } else {
                    self.light_model_ambient[c] * mat.ambient[c] + mat.emission[c]
                }
            });
            set(
                &mut b,
                &format!("state.lightmodel.{face}.scenecolor"),
                scene,
            );
        }
        set(&mut b, "state.lightmodel.ambient", self.light_model_ambient);
        for (n, light) in self.lights.iter().enumerate().take(MAX_LIGHTS as usize) {
            let l = |what: &str| format!("state.light[{n}].{what}");
            set(&mut b, &l("ambient"), light.ambient);
            set(&mut b, &l("diffuse"), light.diffuse);
            set(&mut b, &l("specular"), light.specular);
            set(&mut b, &l("position"), light.position);
            let [k0, k1, k2] = light.attenuation;
            set(&mut b, &l("attenuation"), [k0, k1, k2, light.spot_exponent]);
            let [dx, dy, dz] = light.spot_direction;
            let cos_cutoff = f64::from(light.spot_cutoff).to_radians().cos() as f32;
            set(&mut b, &l("spot.direction"), [dx, dy, dz, cos_cutoff]);
            set(&mut b, &l("half"), half_vector(light.position));
            for (face, mat) in [("front", &self.front), ("back", &self.back)] {
                let p = |what: &str| format!("state.lightprod[{n}].{face}.{what}");
                let product = |lc: [f32; 4], mc: [f32; 4]| -> [f32; 4] {
                    [lc[0] * mc[0], lc[1] * mc[1], lc[2] * mc[2], mc[3]]
                };
                set(&mut b, &p("ambient"), product(light.ambient, mat.ambient));
                set(&mut b, &p("diffuse"), product(light.diffuse, mat.diffuse));
                set(
                    &mut b,
                    &p("specular"),
                    product(light.specular, mat.specular),
                );
            }
        }
        for (n, tg) in self
            .texgen
            .iter()
            .enumerate()
            .take(MAX_TEXTURE_UNITS as usize)
        {
            for (k, coord) in ["s", "t", "r", "q"].iter().enumerate() {
                set(&mut b, &format!("state.texgen[{n}].eye.{coord}"), tg.eye[k]);
                set(
                    &mut b,
                    &format!("state.texgen[{n}].object.{coord}"),
                    tg.object[k],
                );
            }
        }
        for (n, c) in self.texenv_color.iter().enumerate() {
            set(&mut b, &format!("state.texenv[{n}].color"), *c);
        }
        set(&mut b, "state.fog.color", self.fog.color);
        let Fog {
            density,
            start,
            end,
            ..
        } = self.fog;
        set(
            &mut b,
            "state.fog.params",
            [
                density,
                start,
                end,
                (1.0 / (f64::from(end) - f64::from(start))) as f32,
            ],
        );
        let mut enables = 0u32;
        for (n, p) in self
            .clip_planes
            .iter()
            .enumerate()
            .take(MAX_CLIP_PLANES as usize)
        {
            set(&mut b, &format!("state.clip[{n}].plane"), p.plane);
            enables |= u32::from(p.enabled) << n;
        }
        let pt = &self.point;
        set(
            &mut b,
            "state.point.size",
            [pt.size, pt.min_size, pt.max_size, pt.fade_threshold],
        );
        let [pa, pb, pc] = pt.attenuation;
        set(&mut b, "state.point.attenuation", [pa, pb, pc, 1.0]);
        let [near, far] = self.depth_range;
        set(&mut b, "state.depth.range", [near, far, far - near, 1.0]);
        // Integers, read as the bits of x (2.X.3.3: "filled with an
        // integer value").
        let int_row = |n: u32| [f32::from_bits(n), 0.0, 0.0, 0.0];
        set(
            &mut b,
            "state.thread.warpspersm",
            int_row(self.warps_per_sm),
        );
        set(&mut b, "state.thread.smcount", int_row(self.sm_count));
        debug_assert_eq!(CLIP_PLANE_ENABLES.0, super::DEPTH_ROW);
        b.set_clip_plane_enables(enables);
        b
    }
}

/// `state.light[n].half`: ‖P + (0, 0, 1)‖ with P the normalised vector from
/// the eye (the origin) to the eye-space light position (its direction for
/// a light at infinity, w = 0); w is 1 (NV_gpu_program4 Table X.4).
fn half_vector(position: [f32; 4]) -> [f32; 4] {
    let [x, y, z, w] = position.map(f64::from);
    let to_light = if w == 0.0 {
        [x, y, z]
    } else {
        [x / w, y / w, z / w]
    };
    let p = normalize3(to_light);
    let h = normalize3([p[0], p[1], p[2] + 1.0]);
    [h[0] as f32, h[1] as f32, h[2] as f32, 1.0]
}

fn set(b: &mut Block, binding: &str, value: [f32; 4]) {
    match super::locate(binding) {
        Ok(Read::Row { row, .. }) => b.set_row(row, value),
        // Every name above is a stored row (the unit tests check it).
        _ => debug_assert!(false, "{binding} is not a stored row"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_state_is_gls() {
        let b = GlState::default().to_block();
        assert_eq!(
            b.get("state.matrix.mvp.row[2]").unwrap(),
            [0.0, 0.0, 1.0, 0.0]
        );
        assert_eq!(
            b.get("state.matrix.projection.inverse.row[3]").unwrap(),
            [0.0, 0.0, 0.0, 1.0]
        );
        assert_eq!(b.get("state.light[0].diffuse").unwrap(), [1.0; 4]);
        assert_eq!(
            b.get("state.light[1].diffuse").unwrap(),
            [0.0, 0.0, 0.0, 1.0]
        );
        // Light 0 at (0, 0, 1, 0): P = (0, 0, 1), h = ||(0, 0, 2)|| = (0, 0, 1).
        assert_eq!(b.get("state.light[0].half").unwrap(), [0.0, 0.0, 1.0, 1.0]);
        // cos(180 degrees)
        assert_eq!(
            b.get("state.light[0].spot.direction").unwrap(),
            [0.0, 0.0, -1.0, -1.0]
        );
        // scene colour 0.2 * 0.2 + 0 = 0.04 (in f32 arithmetic), alpha 1
        let scene = b.get("state.lightmodel.scenecolor").unwrap();
        assert_eq!(scene, [0.2f32 * 0.2, 0.2 * 0.2, 0.2 * 0.2, 1.0]);
        assert_eq!(
            b.get("state.lightprod[0].diffuse").unwrap(),
            [0.8, 0.8, 0.8, 1.0]
        );
        assert_eq!(b.get("state.fog.params").unwrap(), [1.0, 0.0, 1.0, 1.0]);
        assert_eq!(b.get("state.depth.range").unwrap(), [0.0, 1.0, 1.0, 1.0]);
        assert_eq!(b.get("state.texgen.eye.t").unwrap(), [0.0, 1.0, 0.0, 0.0]);
        assert_eq!(b.clip_plane_enables(), 0);
    }

    #[test]
    fn derived_values() {
        let mut gl = GlState::default();
        // A scale and a translation; P a perspective-like matrix.
        gl.modelview[0] = [
            2.0, 0.0, 0.0, 0.0, 0.0, 4.0, 0.0, 0.0, 0.0, 0.0, 8.0, 0.0, 1.0, 2.0, 3.0, 1.0,
        ];
        gl.projection = [
            1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, -1.0, -1.0, 0.0, 0.0, -2.0, 0.0,
        ];
        let b = gl.to_block();
        // Inverse of the modelview: x' = (x - 1) / 2 ...
        assert_eq!(
            b.get("state.matrix.modelview.inverse.row[0]").unwrap(),
            [0.5, 0.0, 0.0, -0.5]
        );
        assert_eq!(
            b.get("state.matrix.modelview.inverse.row[2]").unwrap(),
            [0.0, 0.0, 0.125, -0.375]
        );
        // mvp = P * M: row 2 = (0, 0, -8, -3 - 2), row 3 = (0, 0, -8, -3).
        assert_eq!(
            b.get("state.matrix.mvp.row[2]").unwrap(),
            [0.0, 0.0, -8.0, -5.0]
        );
        assert_eq!(
            b.get("state.matrix.mvp.row[3]").unwrap(),
            [0.0, 0.0, -8.0, -3.0]
        );
        // The transposed inverse reads columns of the stored inverse.
        assert_eq!(
            b.get("state.matrix.modelview.invtrans.row[3]").unwrap(),
            [-0.5, -0.5, -0.375, 1.0]
        );
        // A singular matrix's inverse is left zero.
        let mut singular = GlState::default();
        singular.program[3] = [0.0; 16];
        let b = singular.to_block();
        assert_eq!(
            b.get("state.matrix.program[3].inverse.row[0]").unwrap(),
            [0.0; 4]
        );
    }

    #[test]
    fn lights_fog_clip_planes() {
        let mut gl = GlState::default();
        gl.lights[2].position = [0.0, 3.0, 0.0, 0.0];
        gl.lights[2].ambient = [0.5, 0.5, 0.5, 1.0];
        gl.back.ambient = [1.0, 0.5, 0.25, 0.75];
        gl.lights[3].spot_cutoff = 60.0;
        gl.fog = Fog {
            color: [0.25; 4],
            density: 0.5,
            start: 1.0,
            end: 5.0,
        };
        gl.clip_planes[1] = ClipPlane {
            plane: [0.0, 1.0, 0.0, 2.0],
            enabled: true,
        };
        gl.clip_planes[4].enabled = true;
        gl.depth_range = [0.25, 0.75];
        let b = gl.to_block();
        // P = (0, 1, 0); P + (0, 0, 1) = (0, 1, 1), normalised.
        let h = b.get("state.light[2].half").unwrap();
        let s = std::f32::consts::FRAC_1_SQRT_2;
        assert!((h[1] - s).abs() < 1e-7 && (h[2] - s).abs() < 1e-7 && h[0] == 0.0 && h[3] == 1.0);
        assert_eq!(
            b.get("state.lightprod[2].back.ambient").unwrap(),
            [0.5, 0.25, 0.125, 0.75]
        );
        assert!((b.get("state.light[3].spot.direction").unwrap()[3] - 0.5).abs() < 1e-7);
        assert_eq!(b.get("state.fog.params").unwrap(), [0.5, 1.0, 5.0, 0.25]);
        assert_eq!(b.get("state.clip[1].plane").unwrap(), [0.0, 1.0, 0.0, 2.0]);
        assert_eq!(b.clip_plane_enables(), 0b10010);
        assert_eq!(b.get("state.depth.range").unwrap(), [0.25, 0.75, 0.5, 1.0]);
    }
}
