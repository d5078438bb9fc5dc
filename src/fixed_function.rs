//! OpenGL's fixed-function vertex and fragment stages, as programs of the
//! assembly family (OpenGL 2.1 sections 2.11 to 2.14 and 3.8 to 3.10).
//!
//! A fragment-only program still needs a vertex stage and a vertex-only
//! program a fragment stage; in OpenGL the fixed-function pipeline
//! provides them. On Vulkan a renderer pairs such a program with the
//! companion this module generates for the fixed-function state it would
//! have set: [`VertexConfig`] (lights, normalisation, texture coordinate
//! generation, the fog coordinate's source) and [`FragmentConfig`]
//! (texture units with their target and environment mode, colour sum,
//! fog). Each companion is `!!ARBvp1.0` / `!!ARBfp1.0` text
//! ([`vertex_program_source`], [`fragment_program_source`]) compiled by
//! nvp4c like any program ([`vertex_program`], [`fragment_program`]), so
//! it has the same interface (docs/interface.md: the Locations of
//! `result.color`, `result.texcoord[n]`, `result.fogcoord`, the State
//! block filled from [`crate::state::GlState`], one texture binding per
//! unit) and links with user programs (`nvp4c link`). The generated text
//! is how a fixed-function state is computed, in the form the specs
//! define it; like Mesa's `ffvertex_prog.c` and `ff_fragment_shader.cpp`,
//! the configuration plays the part of the shader key.
//!
//! ```
//! use nvp4c::fixed_function::{vertex_program, FragmentConfig, Light, Lighting, VertexConfig};
//! let mut config = VertexConfig::default();
//! config.lighting = Some(Lighting { lights: vec![Light::Directional], ..Lighting::default() });
//! let lit = vertex_program(&config, &nvp4c::Options::default()).unwrap();
//! assert_eq!(lit.stage, nvp4c::Stage::Vertex);
//! let frag = nvp4c::fixed_function::fragment_program(&FragmentConfig::default(), &nvp4c::Options::default()).unwrap();
//! assert_eq!(frag.stage, nvp4c::Stage::Fragment);
//! ```

use std::fmt::Write;

use crate::ir::FogMode;
use crate::{Compiled, Diagnostics, Options};

/// The fixed-function vertex state that decides the program.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct VertexConfig {
    /// `GL_LIGHTING` on, with its lights; `None`: the colours pass through
    /// (section 2.14: "If lighting is disabled, the current color is used").
    pub lighting: Option<Lighting>,
    /// `GL_NORMALIZE`: the eye-space normal is scaled to unit length
    /// (section 2.11.3).
    pub normalize: bool,
    /// The texture coordinate sets passed on, one per unit (`units[n]`
    /// makes `result.texcoord[n]`), each transformed by its texture matrix
    /// (section 2.11.4).
    pub units: Vec<TexCoord>,
    /// Where the fog coordinate comes from (section 3.10,
    /// `FOG_COORDINATE_SOURCE`).
    pub fog_source: FogSource,
}

/// Lighting (section 2.14.1).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Lighting {
    /// The enabled lights, `state.light[0..n]` (at most 8, MAX_LIGHTS).
    pub lights: Vec<Light>,
    /// `LIGHT_MODEL_LOCAL_VIEWER`: the half vector from the vertex to the
    /// eye instead of the direction (0, 0, 1).
    pub local_viewer: bool,
    /// `LIGHT_MODEL_COLOR_CONTROL` = `SEPARATE_SPECULAR_COLOR`: the
    /// specular term goes to the secondary colour instead of the primary.
    pub separate_specular: bool,
}

/// What kind of light `GL_LIGHTn` is (its position's w and its spot
/// cutoff, which a fixed-function implementation knows when it builds the
/// program).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Light {
    /// Position w = 0: VP is the unit vector of the position; no
    /// attenuation.
    Directional,
    /// Position w = 1: VP from the vertex to the light, attenuated by
    /// 1 / (k0 + k1 d + k2 d²).
    Point,
    /// A point light with a spot cutoff other than 180°: also the spot
    /// factor (section 2.14.1, "spotlight effect").
    Spot,
}

/// How one texture coordinate set is made (sections 2.11.4 and 2.11.5).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TexCoord {
    /// The current texture coordinates (`vertex.texcoord[n]`).
    #[default]
    Current,
    /// `OBJECT_LINEAR` for s, t, r and q: the object planes
    /// (`state.texgen[n].object`) dotted with the object position.
    ObjectLinear,
    /// `EYE_LINEAR` for s, t, r and q: the eye planes (`state.texgen[n].eye`,
    /// stored transformed by the inverse modelview as GL does) dotted with
    /// the eye position.
    EyeLinear,
    /// `SPHERE_MAP` for s and t (r and q current): from the reflection of
    /// the eye direction about the normal.
    SphereMap,
}

/// The fog coordinate's source (section 3.10).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FogSource {
    /// `FRAGMENT_DEPTH` (GL's initial state): the eye-space distance,
    /// approximated as |z_e| as the spec allows.
    #[default]
    FragmentDepth,
    /// `FOG_COORDINATE`: the current fog coordinate (`vertex.fogcoord`).
    FogCoordinate,
}

/// The fixed-function fragment state that decides the program.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct FragmentConfig {
    /// Texture units in order, `None` where the unit's texturing is
    /// disabled (section 3.8.16: unit n reads `fragment.texcoord[n]` and
    /// `texture[n]`).
    pub units: Vec<Option<TextureUnit>>,
    /// `COLOR_SUM`: the secondary colour is added after texturing
    /// (section 3.9).
    pub color_sum: bool,
    /// `GL_FOG` with its mode, applied last (section 3.10), as
    /// `OPTION ARB_fog_*` does.
    pub fog: Option<FogMode>,
}

/// One enabled texture unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextureUnit {
    /// The enabled target (the highest priority one, section 3.8.15).
    pub target: TextureTarget,
    /// `TEXTURE_ENV_MODE`.
    pub env: EnvMode,
}

/// The fixed-function texture targets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextureTarget {
    /// `TEXTURE_1D`.
    T1D,
    /// `TEXTURE_2D`.
    T2D,
    /// `TEXTURE_3D`.
    T3D,
    /// `TEXTURE_CUBE_MAP`.
    Cube,
    /// `TEXTURE_RECTANGLE_ARB`.
    Rect,
}

impl TextureTarget {
    fn keyword(self) -> &'static str {
        match self {
            TextureTarget::T1D => "1D",
            TextureTarget::T2D => "2D",
            TextureTarget::T3D => "3D",
            TextureTarget::Cube => "CUBE",
            TextureTarget::Rect => "RECT",
        }
    }
}

/// Texture environment functions (section 3.8.13, Table 3.22, for an
/// RGBA texture: C_t and A_t its colour and alpha, C_f and A_f the
/// fragment's, C_c the environment colour `state.texenv[n].color`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EnvMode {
    /// C = C_t, A = A_t.
    Replace,
    /// C = C_f C_t, A = A_f A_t (GL's initial mode).
    Modulate,
    /// C = C_f (1 − A_t) + C_t A_t, A = A_f.
    Decal,
    /// C = C_f (1 − C_t) + C_c C_t, A = A_f A_t.
    Blend,
    /// C = C_f + C_t (clamped), A = A_f A_t.
    Add,
}

/// The most lights the fixed-function stage has (MAX_LIGHTS).
pub const MAX_LIGHTS: usize = 8;
/// The most texture units (MAX_TEXTURE_COORDS, MAX_TEXTURE_IMAGE_UNITS in
/// the fixed-function sense).
pub const MAX_UNITS: usize = 8;

/// The `!!ARBvp1.0` text of the fixed-function vertex stage for `config`.
/// Lights past [`MAX_LIGHTS`] and units past [`MAX_UNITS`] are not
/// generated (GL has no such state).
///
/// ```
/// let text = nvp4c::fixed_function::vertex_program_source(&Default::default());
/// assert!(text.starts_with("!!ARBvp1.0\n"));
/// assert!(text.contains("OPTION ARB_position_invariant;"));
/// ```
pub fn vertex_program_source(config: &VertexConfig) -> String {
    let mut p = String::from("!!ARBvp1.0\n");
    p += "# OpenGL's fixed-function vertex stage (OpenGL 2.1 sections 2.11-2.14),\n";
    p += "# generated by nvp4c::fixed_function.\n";
    // Section 2.11: the clip position is the modelview-projection matrix
    // times the object position, which is what this option computes
    // (ARB_vertex_program 2.14.4.5.1), clipping included.
    p += "OPTION ARB_position_invariant;\n";
    p += "PARAM mv[4] = { state.matrix.modelview };\n";
    let lighting = config.lighting.as_ref();
    let units = &config.units[..config.units.len().min(MAX_UNITS)];
    let needs_normal = lighting.is_some() || units.contains(&TexCoord::SphereMap);
    // (Declared below once it is known which temporaries are used.)
    if needs_normal {
        p += "PARAM nm[4] = { state.matrix.modelview.invtrans };\n";
    }
    let sphere = units.contains(&TexCoord::SphereMap);
    let mut temps = vec!["eye"];
    if needs_normal {
        temps.push("n");
    }
    if (needs_normal && config.normalize) || lighting.is_some() || !units.is_empty() {
        temps.push("t");
    }
    if sphere || lighting.is_some_and(|l| l.local_viewer) {
        temps.push("u");
    }
    let _ = writeln!(p, "TEMP {};", temps.join(", "));
    // Eye coordinates (section 2.11): M times the object position.
    for (i, c) in ["x", "y", "z", "w"].iter().enumerate() {
        let _ = writeln!(p, "DP4 eye.{c}, mv[{i}], vertex.position;");
    }
    if needs_normal {
        // Section 2.11.3: n_e = n M^-1, the rows of the inverse transpose
        // dotted with the normal; then unit length with GL_NORMALIZE.
        for (i, c) in ["x", "y", "z"].iter().enumerate() {
            let _ = writeln!(p, "DP3 n.{c}, nm[{i}], vertex.normal;");
        }
        if config.normalize {
            p += "DP3 t.w, n, n;\nRSQ t.w, t.w;\nMUL n.xyz, n, t.w;\n";
        }
    }
    match lighting {
        Some(l) => lit_colors(&mut p, l),
        None => {
            p += "MOV result.color, vertex.color;\n";
            p += "MOV result.color.secondary, vertex.color.secondary;\n";
        }
    }
    for (unit, &tc) in units.iter().enumerate() {
        tex_coord(&mut p, unit, tc);
    }
    match config.fog_source {
        FogSource::FragmentDepth => p += "MAX result.fogcoord.x, eye.z, -eye.z;\n",
        FogSource::FogCoordinate => p += "MOV result.fogcoord.x, vertex.fogcoord.x;\n",
    }
    p += "END\n";
    p
}

/// Section 2.14.1's lighting equation for the front face:
///
/// c = e_cm + a_cm a_cs + Σ att_i spot_i (a_cm a_cli + (n ⊙ VP) d_cm d_cli
///     + f_i (n ⊙ h)^s_rm s_cm s_cli)
///
/// (`state.lightmodel.scenecolor` is the first two terms with the alpha of
/// d_cm, `state.lightprod[i]` the products). LIT computes (n ⊙ VP) and
/// f_i (n ⊙ h)^s_rm at once: f_i is 1 exactly where n ⊙ VP ≠ 0.
fn lit_colors(p: &mut String, l: &Lighting) {
    if l.lights.is_empty() {
        *p += "TEMP col, spec;\n";
    } else {
        *p += "TEMP vp, h, lit, col, spec, k;\n";
    }
    *p += "MOV col, state.lightmodel.scenecolor;\n";
    *p += "MOV spec, 0;\n";
    if l.local_viewer {
        // The direction from the vertex to the eye at the origin.
        *p += "DP3 t.w, eye, eye;\nRSQ t.w, t.w;\nMUL u.xyz, -eye, t.w;\n";
    }
    for (i, light) in l.lights.iter().take(MAX_LIGHTS).enumerate() {
        let _ = writeln!(p, "# light {i}: {light:?}");
        match light {
            Light::Directional => {
                let _ = writeln!(
                    p,
                    "DP3 t.w, state.light[{i}].position, state.light[{i}].position;\nRSQ t.w, t.w;\nMUL vp.xyz, state.light[{i}].position, t.w;\nMOV k, 1;"
                );
            }
            Light::Point | Light::Spot => {
                // VP from the vertex to the light, d its length;
                // DST makes (1, d, d², 1/d) for the attenuation's dot.
                let _ = writeln!(
                    p,
                    "ADD vp, state.light[{i}].position, -eye;\nDP3 t.w, vp, vp;\nRSQ t.y, t.w;\nMUL vp.xyz, vp, t.y;\nDST t, t.wwww, t.yyyy;\nDP3 k.x, t, state.light[{i}].attenuation;\nRCP k.x, k.x;"
                );
                if *light == Light::Spot {
                    // The spotlight effect: (−VP ⊙ ŝ)^s_rl where the
                    // cosine reaches cos(c_rl), else 0 (c_rl ≠ 180°);
                    // LIT's power, where 0^0 is 1 (ARB_vertex_program,
                    // LIT), as GL's spot exponent 0 needs.
                    let _ = writeln!(
                        p,
                        "DP3 t.w, state.light[{i}].spot.direction, state.light[{i}].spot.direction;\nRSQ t.w, t.w;\nMUL t.xyz, state.light[{i}].spot.direction, t.w;\nMOV lit, {{1, 0, 0, 0}};\nDP3 lit.y, -vp, t;\nSGE t.z, lit.y, state.light[{i}].spot.direction.w;\nMOV lit.w, state.light[{i}].attenuation.w;\nLIT lit, lit;\nMUL t.y, lit.z, t.z;\nMUL k.x, k.x, t.y;"
                    );
                }
            }
        }
        // The half vector: VP + (0, 0, 1), or VP + the unit vector to the
        // eye with a local viewer, normalised.
        let eye_dir = if l.local_viewer { "u" } else { "{0, 0, 1, 0}" };
        let _ = writeln!(
            p,
            "ADD h.xyz, vp, {eye_dir};\nDP3 t.w, h, h;\nRSQ t.w, t.w;\nMUL h.xyz, h, t.w;\nDP3 lit.x, n, vp;\nDP3 lit.y, n, h;\nMOV lit.w, state.material.shininess.x;\nLIT lit, lit;\nMAD t, lit.y, state.lightprod[{i}].diffuse, state.lightprod[{i}].ambient;\nMAD col.xyz, t, k.x, col;\nMUL t, lit.z, state.lightprod[{i}].specular;\nMAD spec.xyz, t, k.x, spec;"
        );
    }
    if l.separate_specular {
        // Section 2.14.1: with SEPARATE_SPECULAR_COLOR the specular term
        // is the secondary colour.
        *p += "MOV result.color, col;\nMOV result.color.secondary, spec;\n";
    } else {
        *p += "ADD result.color.xyz, col, spec;\nMOV result.color.w, col.w;\nMOV result.color.secondary, 0;\n";
    }
}

/// Texture coordinate set `unit` (sections 2.11.4, 2.11.5), then times
/// the texture matrix.
fn tex_coord(p: &mut String, unit: usize, tc: TexCoord) {
    let comps = ["s", "t", "r", "q"];
    let lanes = ["x", "y", "z", "w"];
    match tc {
        TexCoord::Current => {
            let _ = writeln!(p, "MOV t, vertex.texcoord[{unit}];");
        }
        TexCoord::ObjectLinear | TexCoord::EyeLinear => {
            let (plane, pos) = if tc == TexCoord::ObjectLinear {
                ("object", "vertex.position")
            } else {
                ("eye", "eye")
            };
            for (c, l) in comps.iter().zip(lanes) {
                let _ = writeln!(p, "DP4 t.{l}, state.texgen[{unit}].{plane}.{c}, {pos};");
            }
        }
        TexCoord::SphereMap => {
            // u the unit eye direction, r = u − 2 n (n · u),
            // m = 2 sqrt(r_x² + r_y² + (r_z + 1)²), (s, t) = r / m + 1/2.
            let _ = writeln!(
                p,
                "DP3 t.w, eye, eye;\nRSQ t.w, t.w;\nMUL u.xyz, eye, t.w;\nDP3 t.x, n, u;\nMUL t.xyz, n, t.x;\nMAD u.xyz, t, -2, u;\nADD t.xyz, u, {{0, 0, 1, 0}};\nDP3 t.w, t, t;\nRSQ t.w, t.w;\nMUL t.w, t.w, 0.5;\nMOV t.zw, vertex.texcoord[{unit}];\nMAD t.xy, u, t.w, 0.5;"
            );
        }
    }
    for (row, l) in lanes.iter().enumerate() {
        let _ = writeln!(
            p,
            "DP4 result.texcoord[{unit}].{l}, state.matrix.texture[{unit}].row[{row}], t;"
        );
    }
}

/// The `!!ARBfp1.0` text of the fixed-function fragment stage for
/// `config`.
///
/// ```
/// use nvp4c::fixed_function::{fragment_program_source, EnvMode, FragmentConfig, TextureTarget, TextureUnit};
/// let mut config = FragmentConfig::default();
/// config.units.push(Some(TextureUnit { target: TextureTarget::T2D, env: EnvMode::Modulate }));
/// let text = fragment_program_source(&config);
/// assert!(text.contains("TXP t, fragment.texcoord[0], texture[0], 2D;"));
/// ```
pub fn fragment_program_source(config: &FragmentConfig) -> String {
    let mut p = String::from("!!ARBfp1.0\n");
    p += "# OpenGL's fixed-function fragment stage (OpenGL 2.1 sections 3.8-3.10),\n";
    p += "# generated by nvp4c::fixed_function.\n";
    if let Some(fog) = config.fog {
        // Section 3.10 applied after the program, as the option specifies.
        let _ = writeln!(p, "OPTION {};", fog.option());
    }
    if config.units.iter().take(MAX_UNITS).any(Option::is_some) {
        p += "TEMP c, t;\n";
    } else {
        p += "TEMP c;\n";
    }
    p += "MOV c, fragment.color;\n";
    for (unit, u) in config.units.iter().take(MAX_UNITS).enumerate() {
        let Some(u) = u else { continue };
        // Section 3.8: fixed-function texturing divides by q (TXP); cube
        // maps take the direction as it is (section 3.8.6).
        let op = if u.target == TextureTarget::Cube {
            "TEX"
        } else {
            "TXP"
        };
        let _ = writeln!(
            p,
            "{op} t, fragment.texcoord[{unit}], texture[{unit}], {};",
            u.target.keyword()
        );
        let env = match u.env {
            EnvMode::Replace => "MOV c, t;".to_string(),
            EnvMode::Modulate => "MUL c, c, t;".to_string(),
            EnvMode::Decal => "LRP c.xyz, t.w, t, c;".to_string(),
            EnvMode::Blend => {
                format!("LRP c.xyz, t, state.texenv[{unit}].color, c;\nMUL c.w, c.w, t.w;")
            }
            EnvMode::Add => "ADD_SAT c.xyz, c, t;\nMUL c.w, c.w, t.w;".to_string(),
        };
        let _ = writeln!(p, "# unit {unit}: {:?}\n{env}", u.env);
    }
    if config.color_sum {
        // Section 3.9: C = C_pri + C_sec, clamped; alpha unchanged.
        p += "ADD_SAT c.xyz, c, fragment.color.secondary;\n";
    }
    p += "MOV result.color, c;\n";
    p += "END\n";
    p
}

/// The fixed-function vertex stage for `config`, compiled with `options`.
pub fn vertex_program(config: &VertexConfig, options: &Options) -> Result<Compiled, Diagnostics> {
    crate::compile(&vertex_program_source(config), options)
}

/// The fixed-function fragment stage for `config`, compiled with
/// `options`.
pub fn fragment_program(
    config: &FragmentConfig,
    options: &Options,
) -> Result<Compiled, Diagnostics> {
    crate::compile(&fragment_program_source(config), options)
}
