//! Programs NVIDIA's Cg compiler wrote (tests/fixtures/cg/, cgc 3.1, the gp4
//! and ARB-family profiles) run on the Vulkan device, and in the reference interpreter,
//! against values worked out by hand from the Cg sources
//! (tests/fixtures/cg/src/): the arithmetic is in the comments. The
//! parameters are found the way a renderer finds them, by their Cg names in
//! the reflection (`#var` lines), and set through `program.local`.
//!
//! Floats are compared with a relative tolerance of 1e-5: the programs
//! normalise with RSQ and raise with LIT/POW, whose precision the spec
//! leaves to the implementation.
//!
//! The last two tests run every gp4vp, arbvp1 and vp40 fixture without
//! textures or GL state, and every gp4gp fixture, on generated inputs, on
//! the device and in the interpreter, and hold the two to each other.

use nvp4c::reflect::BuiltIn;
use std::collections::BTreeMap;
use std::path::Path;

use ash::vk;
use nvp4c::interp::{self, Inputs};
use nvp4c::reflect::Reflection;

use crate::harness::{
    self, fbits, ibits, to_f32, Capture, FragmentJob, GeometryJob, Input, SamplerDesc, Texture,
    TextureKind, VertexJob,
};

/// A fixture, compiled, with its text.
struct Fixture {
    name: &'static str,
    text: String,
    compiled: nvp4c::Compiled,
}

fn fixture(name: &'static str) -> Fixture {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/cg")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    let compiled = nvp4c::compile(&text, &nvp4c::Options::default())
        .unwrap_or_else(|d| panic!("{}", d.render(name, &text, false)));
    Fixture {
        name,
        text,
        compiled,
    }
}

impl Fixture {
    fn reflection(&self) -> &Reflection {
        &self.compiled.reflection
    }

    /// The `program.local` elements the Cg parameter `name` lives in, one
    /// per row.
    fn local_elements(&self, name: &str) -> Vec<u32> {
        let var = self
            .reflection()
            .cg
            .as_ref()
            .and_then(|cg| cg.variables.iter().find(|v| v.name == name))
            .unwrap_or_else(|| panic!("{}: no #var {name}", self.name));
        let elements: Vec<u32> = var
            .bound_to
            .iter()
            .map(|b| {
                b.strip_prefix("program.local[")
                    .and_then(|r| r.strip_suffix(']'))
                    .and_then(|n| n.parse().ok())
                    .unwrap_or_else(|| panic!("{}: {name} is bound to {b}", self.name))
            })
            .collect();
        assert!(
            !elements.is_empty(),
            "{}: {name} is bound to nothing",
            self.name
        );
        elements
    }

    /// The Location of the input or output carrying Cg variable `name`.
    fn location(&self, name: &str, output: bool) -> u32 {
        let r = self.reflection();
        let list = if output { &r.outputs } else { &r.inputs };
        list.iter()
            .find(|v| v.cg.iter().any(|c| c.name == name))
            .and_then(|v| v.location)
            .unwrap_or_else(|| panic!("{}: no Location carries {name}", self.name))
    }

    fn program(&self) -> nvp4c::ir::Program {
        nvp4c::check(&self.text, &nvp4c::Options::default())
            .unwrap_or_else(|d| panic!("{}", d.render(self.name, &self.text, false)))
            .0
    }
}

/// Parameter values by Cg name, each a list of rows (raw bits).
#[derive(Default)]
struct Parameters(Vec<(String, Vec<[u32; 4]>)>);

impl Parameters {
    fn float(mut self, name: &str, rows: &[[f32; 4]]) -> Self {
        self.0
            .push((name.to_string(), rows.iter().map(|&r| fbits(r)).collect()));
        self
    }
    fn int(mut self, name: &str, value: [i32; 4]) -> Self {
        self.0.push((name.to_string(), vec![ibits(value)]));
        self
    }
    /// `program.local`, element by element (zero where nothing is set).
    fn locals(&self, f: &Fixture) -> BTreeMap<u32, [u32; 4]> {
        let mut out = BTreeMap::new();
        for (name, rows) in &self.0 {
            let elements = f.local_elements(name);
            assert_eq!(elements.len(), rows.len(), "{}: rows of {name}", f.name);
            for (e, row) in elements.into_iter().zip(rows) {
                out.insert(e, *row);
            }
        }
        out
    }
    fn local_array(&self, f: &Fixture) -> Vec<[u32; 4]> {
        let locals = self.locals(f);
        let len = locals.keys().max().map_or(0, |m| m + 1);
        (0..len)
            .map(|i| locals.get(&i).copied().unwrap_or([0; 4]))
            .collect()
    }
}

fn close(what: &str, got: [f32; 4], want: [f64; 4], mask: &[usize]) {
    for &c in mask {
        let (g, w) = (got[c] as f64, want[c]);
        assert!(
            (g - w).abs() <= 1e-5 * w.abs().max(1.0),
            "{what}[{c}]: got {g}, want {w} (all: {got:?} vs {want:?})"
        );
    }
}

const XYZW: &[usize] = &[0, 1, 2, 3];
const XY: &[usize] = &[0, 1];

fn normalize(v: [f64; 3]) -> [f64; 3] {
    let l = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    [v[0] / l, v[1] / l, v[2] / l]
}

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

const IDENTITY: [[f32; 4]; 4] = [
    [1.0, 0.0, 0.0, 0.0],
    [0.0, 1.0, 0.0, 0.0],
    [0.0, 0.0, 1.0, 0.0],
    [0.0, 0.0, 0.0, 1.0],
];

// ---------------------------------------------------------------- lighting

/// gp4vp/vertex_lighting.vp: four lights in a REP loop read through
/// relative addressing (`c[R2.w + 12]`), LIT for the coefficients.
///
/// All matrices are the identity, so eye space is object space. Normal
/// N = (0, 0, 1). Light 0 is directional towards +z, colour (1, 0.5, 0.25),
/// attenuation (1, 0, 0); light 1 a point light at (0, 0, 2) of colour 0.5
/// with quadratic attenuation (0, 0, 1); lights 2 and 3 are black.
/// Ambient 0.125, material diffuse (1, 1, 0.5, 0.75), specular 0.5,
/// shininess 16.
///
/// Vertex 0 at P = (0, 0, -2): V = normalize(-P) = (0, 0, 1).
///   Light 0: L = (0, 0, 1), d = 1, attenuation 1/1; H = (0, 0, 1):
///   N·L = N·H = 1, lit = (1, 1, 1^16 = 1).
///   Light 1: L = (0,0,2) - (0,0,-2) = (0, 0, 4), d = 4, attenuation 1/16;
///   N·L = N·H = 1: 0.5/16 = 0.03125 to diffuse and specular.
///   diffuse = 0.125 + (1, 0.5, 0.25) + 0.03125 = (1.15625, 0.65625, 0.40625),
///   times the material: (1.15625, 0.65625, 0.203125), alpha 0.75.
///   specular = (1.03125, 0.53125, 0.28125) * 0.5 = (0.515625, 0.265625, 0.140625), 1.
///
/// Vertex 1 at P = (3, 0, -4): V = (-3, 0, 4)/5 = (-0.6, 0, 0.8).
///   Light 0: N·L = 1; H = normalize((0,0,1) + V) = (-0.6, 0, 1.8)/sqrt(3.6),
///   N·H² = 3.24/3.6 = 0.9, so (N·H)^16 = 0.9^8 = 0.43046721.
///   Light 1: L = (0,0,2) - P = (-3, 0, 6), d² = 45, attenuation 1/45,
///   N·L = 6/sqrt(45); N·H from H = normalize(L/d + V); specular (N·H)^16.
fn expected_lighting(p: [f64; 3]) -> ([f64; 4], [f64; 4]) {
    let n = [0.0, 0.0, 1.0];
    let v = normalize([-p[0], -p[1], -p[2]]);
    // (position, w, colour, attenuation) as set below.
    let lights = [
        ([0.0, 0.0, 1.0], 0.0, [1.0, 0.5, 0.25], [1.0, 0.0, 0.0]),
        ([0.0, 0.0, 2.0], 1.0, [0.5, 0.5, 0.5], [0.0, 0.0, 1.0]),
    ];
    let mut diffuse = [0.125; 3];
    let mut specular = [0.0; 3];
    for (pos, w, color, att) in lights {
        let l = [pos[0] - p[0] * w, pos[1] - p[1] * w, pos[2] - p[2] * w];
        let d = dot(l, l).sqrt();
        let l = [l[0] / d, l[1] / d, l[2] / d];
        let attenuation = 1.0 / (att[0] + att[1] * d + att[2] * d * d);
        let h = normalize([l[0] + v[0], l[1] + v[1], l[2] + v[2]]);
        let n_dot_l = dot(n, l);
        let spec = if n_dot_l > 0.0 {
            dot(n, h).max(0.0).powf(16.0)
        } else {
            0.0
        };
        for c in 0..3 {
            diffuse[c] += color[c] * n_dot_l.max(0.0) * attenuation;
            specular[c] += color[c] * spec * attenuation;
        }
    }
    let material = [1.0, 1.0, 0.5];
    (
        [
            diffuse[0] * material[0],
            diffuse[1] * material[1],
            diffuse[2] * material[2],
            0.75,
        ],
        [specular[0] * 0.5, specular[1] * 0.5, specular[2] * 0.5, 1.0],
    )
}

#[test]
fn cg_vertex_lighting_sums_four_lights_through_relative_addressing() {
    let f = fixture("gp4vp/vertex_lighting.vp");
    // Vertex 0's hand values, as a check on expected_lighting itself.
    let (d0, s0) = expected_lighting([0.0, 0.0, -2.0]);
    assert_eq!(d0, [1.15625, 0.65625, 0.203125, 0.75]);
    assert_eq!(s0, [0.515625, 0.265625, 0.140625, 1.0]);
    // Vertex 1's specular red: light 0's 0.9^8 plus light 1's
    // 0.5 · (N·H)^16 / 45, times the material's 0.5.
    let (_, s1) = expected_lighting([3.0, 0.0, -4.0]);
    assert!((s1[0] * 2.0 - 0.9f64.powi(8) - 0.5 / 45.0 * spec_light1()).abs() < 1e-12);

    let black = [0.0; 4];
    let params = Parameters::default()
        .float("modelViewProj", &IDENTITY)
        .float("modelView", &IDENTITY)
        .float("modelViewInvTrans", &IDENTITY)
        .float("lights[0].position", &[[0.0, 0.0, 1.0, 0.0]])
        .float("lights[0].color", &[[1.0, 0.5, 0.25, 0.0]])
        .float("lights[0].attenuation", &[[1.0, 0.0, 0.0, 0.0]])
        .float("lights[1].position", &[[0.0, 0.0, 2.0, 1.0]])
        .float("lights[1].color", &[[0.5, 0.5, 0.5, 0.0]])
        .float("lights[1].attenuation", &[[0.0, 0.0, 1.0, 0.0]])
        .float("lights[2].position", &[[0.0, 0.0, 1.0, 0.0]])
        .float("lights[2].color", &[black])
        .float("lights[2].attenuation", &[[1.0, 0.0, 0.0, 0.0]])
        .float("lights[3].position", &[[0.0, 0.0, 1.0, 0.0]])
        .float("lights[3].color", &[black])
        .float("lights[3].attenuation", &[[1.0, 0.0, 0.0, 0.0]])
        .float("sceneAmbient", &[[0.125; 4]])
        .float("materialDiffuse", &[[1.0, 1.0, 0.5, 0.75]])
        .float("materialSpecular", &[[0.5; 4]])
        .float("shininess", &[[16.0, 0.0, 0.0, 0.0]]);

    let positions = [[0.0, 0.0, -2.0, 1.0], [3.0, 0.0, -4.0, 1.0]];
    let normal = [0.0, 0.0, 1.0, 0.0];
    let uv = [[0.25, 0.75, 0.0, 0.0], [0.5, 0.125, 0.0, 0.0]];
    let (position_at, normal_at, uv_at) = (
        f.location("position", false),
        f.location("normal", false),
        f.location("texCoord", false),
    );
    assert_eq!((position_at, normal_at, uv_at), (0, 2, 8)); // ATTR0, ATTR2, ATTR8
    let diffuse_at = f.location("main.diffuse", true);
    let specular_at = f.location("main.specular", true);
    let uv_out_at = f.location("main.texCoord", true);

    // The interpreter.
    let program = f.program();
    for (i, p) in positions.iter().enumerate() {
        let mut inputs = Inputs::default();
        inputs.local = params.locals(&f);
        inputs
            .set(&format!("vertex.attrib[{position_at}]"), fbits(*p))
            .unwrap();
        inputs
            .set(&format!("vertex.attrib[{normal_at}]"), fbits(normal))
            .unwrap();
        inputs
            .set(&format!("vertex.attrib[{uv_at}]"), fbits(uv[i]))
            .unwrap();
        let out = interp::run(&program, &inputs, &Default::default()).unwrap();
        let (diffuse, specular) = expected_lighting([p[0] as f64, p[1] as f64, p[2] as f64]);
        let what = format!("interpreter, vertex {i}");
        close(
            &what,
            out.results["result.position"].floats(),
            p.map(f64::from),
            XYZW,
        );
        close(&what, out.results["result.color"].floats(), diffuse, XYZW);
        close(
            &what,
            out.results["result.color.secondary"].floats(),
            specular,
            XYZW,
        );
        close(
            &what,
            out.results["result.texcoord[0]"].floats(),
            uv[i].map(f64::from),
            XY,
        );
    }

    // The device.
    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    let vertices = positions
        .iter()
        .zip(uv)
        .map(|(p, t)| {
            vec![
                Input::float(position_at, *p),
                Input::float(normal_at, normal),
                Input::float(uv_at, t),
            ]
        })
        .collect();
    let job = VertexJob {
        local: params.local_array(&f),
        ..VertexJob::new(
            vertices,
            vec![
                Capture::Position,
                Capture::Location(diffuse_at),
                Capture::Location(specular_at),
                Capture::Location(uv_out_at),
            ],
        )
    };
    let out = dev
        .run_vertex(&f.compiled.spirv, &job)
        .unwrap_or_else(|e| panic!("{e}"));
    for (i, p) in positions.iter().enumerate() {
        let (diffuse, specular) = expected_lighting([p[0] as f64, p[1] as f64, p[2] as f64]);
        let what = format!("device, vertex {i}");
        close(&what, out.position_f32(i), p.map(f64::from), XYZW);
        close(&what, out.location_f32(i, diffuse_at), diffuse, XYZW);
        close(&what, out.location_f32(i, specular_at), specular, XYZW);
        close(
            &what,
            out.location_f32(i, uv_out_at),
            uv[i].map(f64::from),
            XY,
        );
    }
}

/// Light 1's specular factor (N·H)^16 at vertex 1 (P = (3, 0, -4)).
fn spec_light1() -> f64 {
    let l = normalize([-3.0, 0.0, 6.0]);
    let v = [-0.6, 0.0, 0.8];
    let h = normalize([l[0] + v[0], l[1] + v[1], l[2] + v[2]]);
    h[2].powf(16.0)
}

// ---------------------------------------------------------------- skinning

/// gp4vp/vertex_skinning.vp: the bone matrices are picked by the vertex's
/// blend indices, truncated to integers (`TRUNC.S`, then `c[R2.x + 1]`).
///
/// Bone 5 translates by (1, 2, 3); bone 9 turns 90° about z
/// ((x, y, z) -> (-y, x, z)) and moves z by -1; the other bones hold 1000s
/// and get weight 0. Indices (5.0, 9.0, 0.0, 0.0) (given as 5.25 and 9.75:
/// truncation picks 5 and 9), weights (0.75, 0.25, 0, 0).
/// Position (1, 0, 0, 1): bone 5 gives (2, 2, 3), bone 9 (0, 1, -1);
/// blended 0.75·(2, 2, 3) + 0.25·(0, 1, -1) = (1.5, 1.75, 2).
/// viewProj scales x, y, z by 0.5: (0.75, 0.875, 1, 1).
/// Normal (0, 1, 0): bone 5 keeps it, bone 9 gives (-1, 0, 0); blended
/// (-0.25, 0.75, 0), normalised (-0.25, 0.75, 0)/sqrt(0.625).
/// lightDirection (0, -1, 0): |N·L| = 0.75/sqrt(0.625) = 0.9486833 (the
/// light is two-sided); colour = ambient 0.125 + (1, 0.5, 0.25)·0.9486833.
#[test]
fn cg_skinning_blends_bones_picked_by_relative_addressing() {
    let f = fixture("gp4vp/vertex_skinning.vp");
    let mut params = Parameters::default();
    for bone in 0..24 {
        let rows: [[f32; 4]; 3] = match bone {
            5 => [
                [1.0, 0.0, 0.0, 1.0],
                [0.0, 1.0, 0.0, 2.0],
                [0.0, 0.0, 1.0, 3.0],
            ],
            9 => [
                [0.0, -1.0, 0.0, 0.0],
                [1.0, 0.0, 0.0, 0.0],
                [0.0, 0.0, 1.0, -1.0],
            ],
            _ => [[1000.0; 4]; 3],
        };
        params = params.float(&format!("bones[{bone}]"), &rows);
    }
    let params = params
        .float(
            "viewProj",
            &[
                [0.5, 0.0, 0.0, 0.0],
                [0.0, 0.5, 0.0, 0.0],
                [0.0, 0.0, 0.5, 0.0],
                [0.0, 0.0, 0.0, 1.0],
            ],
        )
        .float("lightDirection", &[[0.0, -1.0, 0.0, 0.0]])
        .float("lightColor", &[[1.0, 0.5, 0.25, 0.0]])
        .float("ambientColor", &[[0.125, 0.125, 0.125, 0.0]]);

    let n_dot_l = 0.75 / 0.625f64.sqrt();
    let want_position = [0.75, 0.875, 1.0, 1.0];
    let want_color = [
        0.125 + n_dot_l,
        0.125 + 0.5 * n_dot_l,
        0.125 + 0.25 * n_dot_l,
        1.0,
    ];
    let attributes = [
        ("IN.position", [1.0, 0.0, 0.0, 1.0]),
        ("IN.normal", [0.0, 1.0, 0.0, 0.0]),
        ("IN.weights", [0.75, 0.25, 0.0, 0.0]),
        ("IN.indices", [5.25, 9.75, 0.0, 0.0]),
        ("IN.texCoord", [0.5, 0.25, 0.0, 0.0]),
    ];
    let color_at = f.location("oColor", true);
    let uv_at = f.location("oTexCoord", true);

    let mut inputs = Inputs::default();
    inputs.local = params.locals(&f);
    for (name, value) in attributes {
        let at = f.location(name, false);
        inputs
            .set(&format!("vertex.attrib[{at}]"), fbits(value))
            .unwrap();
    }
    let out = interp::run(&f.program(), &inputs, &Default::default()).unwrap();
    close(
        "interpreter",
        out.results["result.position"].floats(),
        want_position,
        XYZW,
    );
    close(
        "interpreter",
        out.results["result.color"].floats(),
        want_color,
        XYZW,
    );
    close(
        "interpreter",
        out.results["result.texcoord[0]"].floats(),
        [0.5, 0.25, 0.0, 0.0],
        XY,
    );

    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    let vertex = attributes
        .iter()
        .map(|(name, value)| Input::float(f.location(name, false), *value))
        .collect();
    let job = VertexJob {
        local: params.local_array(&f),
        ..VertexJob::new(
            vec![vertex],
            vec![
                Capture::Position,
                Capture::Location(color_at),
                Capture::Location(uv_at),
            ],
        )
    };
    let out = dev
        .run_vertex(&f.compiled.spirv, &job)
        .unwrap_or_else(|e| panic!("{e}"));
    close("device", out.position_f32(0), want_position, XYZW);
    close("device", out.location_f32(0, color_at), want_color, XYZW);
    close(
        "device",
        out.location_f32(0, uv_at),
        [0.5, 0.25, 0.0, 0.0],
        XY,
    );
}

// ---------------------------------------------------------------- toon

/// gp4fp/fragment_toon.fp: nested IF/ELSE on the integer uniform `style`
/// (`SEQ.S` against `c[0]`, given as integer bits as cgc's gp4 runtime sets
/// an `int`) and on comparisons of interpolated values.
///
/// normal (0, 0, 1); colour (0.8, 0.4, 0.2, 0.5); outline colour
/// (0, 0, 1) below N·V = 0.2; bands (1, 0.5, 0.25) above 0.8, above 0.3,
/// else. The cases (toLight, toEye) and N·L, N·V:
///   0: (0, 0, 1), (0, 0, 1): N·L = 1, N·V = 1
///   1: (0, 4, 3), (0, 0, 2): N·L = 0.6
///   2: (0, 1, 0), (0, 0, 1): N·L = 0
///   3: (0, 0, -1), (0, 0, 1): N·L = -1
///   4: (0, 0, 1), (1, 0, 0.1): N·V = 0.1/sqrt(1.01) = 0.0995 < 0.2: outline
/// style 0 (bands): colour × 1, × 0.5, × 0.25, × 0.25, outline (0, 0, 1, 1)
/// style 1 (two tones at 0.5): colour, colour, colour/2, colour/2, outline
/// style 2 (plain): colour × saturate(N·L): 1, 0.6, 0, 0, outline
/// Alpha is the colour's, 0.5, except for the outline's 1.
#[test]
fn cg_toon_shading_branches_on_an_int_uniform_and_on_varyings() {
    let f = fixture("gp4fp/fragment_toon.fp");
    let cases: [([f32; 4], [f32; 4]); 5] = [
        ([0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 1.0, 0.0]),
        ([0.0, 4.0, 3.0, 0.0], [0.0, 0.0, 2.0, 0.0]),
        ([0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0]),
        ([0.0, 0.0, -1.0, 0.0], [0.0, 0.0, 1.0, 0.0]),
        ([0.0, 0.0, 1.0, 0.0], [1.0, 0.0, 0.1, 0.0]),
    ];
    let color = [0.8, 0.4, 0.2, 0.5];
    let scaled = |k: f64| [0.8 * k, 0.4 * k, 0.2 * k, 0.5];
    let outline = [0.0, 0.0, 1.0, 1.0];
    let expected: [[[f64; 4]; 5]; 3] = [
        [
            scaled(1.0),
            scaled(0.5),
            scaled(0.25),
            scaled(0.25),
            outline,
        ],
        [scaled(1.0), scaled(1.0), scaled(0.5), scaled(0.5), outline],
        [scaled(1.0), scaled(0.6), scaled(0.0), scaled(0.0), outline],
    ];
    let at = |name| f.location(name, false);
    let (normal_at, light_at, eye_at, color_at) =
        (at("normal"), at("toLight"), at("toEye"), at("color"));
    assert_eq!((normal_at, light_at, eye_at, color_at), (5, 6, 7, 0));

    let program = f.program();
    let dev = harness::device_or_skip();
    for (style, want) in expected.iter().enumerate() {
        let params = Parameters::default()
            .int("style", [style as i32, 0, 0, 0])
            .float("outlineColor", &[[0.0, 0.0, 1.0, 0.0]])
            .float("outlineWidth", &[[0.2, 0.0, 0.0, 0.0]])
            .float("bandLevels", &[[1.0, 0.5, 0.25, 0.0]]);
        for (i, (to_light, to_eye)) in cases.iter().enumerate() {
            let mut inputs = Inputs::default();
            inputs.local = params.locals(&f);
            for (name, value) in [
                (
                    format!("fragment.texcoord[{}]", normal_at - 5),
                    [0.0, 0.0, 1.0, 0.0],
                ),
                (format!("fragment.texcoord[{}]", light_at - 5), *to_light),
                (format!("fragment.texcoord[{}]", eye_at - 5), *to_eye),
                ("fragment.color".to_string(), color),
            ] {
                inputs.set(&name, fbits(value)).unwrap();
            }
            let out = interp::run(&program, &inputs, &Default::default()).unwrap();
            close(
                &format!("interpreter, style {style}, case {i}"),
                out.results["result.color"].floats(),
                want[i],
                XYZW,
            );
        }
        let Some(dev) = dev else { continue };
        let job = FragmentJob {
            local: params.local_array(&f),
            ..FragmentJob::new(
                cases
                    .iter()
                    .map(|(to_light, to_eye)| {
                        vec![
                            Input::float(normal_at, [0.0, 0.0, 1.0, 0.0]),
                            Input::float(light_at, *to_light),
                            Input::float(eye_at, *to_eye),
                            Input::float(color_at, color),
                        ]
                    })
                    .collect(),
            )
        };
        let out = dev
            .run_fragment(&f.compiled.spirv, &job)
            .unwrap_or_else(|e| panic!("{e}"));
        for (i, w) in want.iter().enumerate() {
            close(
                &format!("device, style {style}, case {i}"),
                out.f32(i),
                *w,
                XYZW,
            );
        }
    }
}

// ---------------------------------------------------------------- GL state

/// The State block elements (docs/interface.md) where the reflection puts
/// `binding`: one element for a plain item; the four stored rows for the
/// rows of a transposed matrix, which each read all four.
fn state_elements(r: &Reflection, binding: &str) -> Vec<u32> {
    let elements: Vec<u32> = r
        .uniform_blocks
        .iter()
        .filter(|b| b.binding_name == "state")
        .flat_map(|b| &b.parameters)
        .filter(|p| p.binding.split(", ").any(|b| b == binding))
        .map(|p| p.element)
        .collect();
    assert!(!elements.is_empty(), "no state element for {binding}");
    elements
}

/// gp4vp/glsl_fixed_function.vp: cgc's translation of a GLSL 1.20 vertex
/// shader written against the built-in uniforms, which it binds to GL state:
/// `state.matrix.modelview.transpose` (GLSL matrices are column-major),
/// `.inverse` for gl_NormalMatrix, `state.light[n]`, `state.lightprod[n]`,
/// `state.material`, `state.lightmodel`, `state.matrix.texture[0].transpose`,
/// `state.matrix.mvp`; the light loop reads `c[R2.w + 11]`, a PARAM array
/// mixing state and program.local with a stride of 12 per light.
///
/// Modelview MV translates by (0, 0, -2) (its inverse by (0, 0, 2)); the
/// texture matrix T translates by (0.5, 0.25, 0); MVP = diag(0.5, 0.5, 0.5, 1).
/// (MVP is symmetric on purpose: cgc 3.1 compiles ftransform() as
/// Σ v_j · state.matrix.mvp.row[j], which is MVPᵀ·v; see
/// tests/fixtures/cg/README.md.)
/// gl_Vertex (1, 2, 0, 1): eye = MV·v = (1, 2, -2); V = (-1, -2, 2)/3.
/// gl_Normal (0, 0, 1): the normal matrix (the inverse's upper 3×3) keeps it.
/// Light 0: directional (0, 0, 1, 0), attenuation (1, 0, 0): L = (0, 0, 1),
///   att 1, N·L = 1; H ∝ L + V = (-1, -2, 5)/3, N·H² = 25/30.
/// Light 1: a point at the origin, attenuation (0, 0, 1): L = -eye/3 =
///   (-1, -2, 2)/3, d = 3, att 1/9, N·L = 2/3; H = L (L = V), N·H² = 4/9.
/// Products: light 0 ambient 0.1, diffuse (0.5, 0.25, 0.125), specular 0.5;
/// light 1 ambient 0.2, diffuse 0.9, specular 0.3; scene colour 0.05;
/// material diffuse alpha 0.75, shininess 2.
/// result.color.rgb = 0.05 + 0.1 + 0.2/9 + (0.5, 0.25, 0.125) + 0.9·(2/3)/9
///   = (0.7388889, 0.4888889, 0.3638889), alpha 0.75;
/// result.color.secondary = 0.5·25/30 + 0.3·(4/9)/9 = 0.4314815 in all four;
/// result.texcoord[0] = T·(0.25, 0.5, 0, 1) = (0.75, 0.75, 0, 1);
/// result.fogcoord.x = |eye.z| = 2; result.position = (0.5, 1, 0, 1).
#[test]
fn cg_fixed_function_glsl_reads_lights_and_matrices_from_gl_state() {
    let f = fixture("gp4vp/glsl_fixed_function.vp");
    let r = f.reflection();
    let mv = [
        [1.0, 0.0, 0.0, 0.0],
        [0.0, 1.0, 0.0, 0.0],
        [0.0, 0.0, 1.0, -2.0],
        [0.0, 0.0, 0.0, 1.0],
    ];
    let mv_inverse = [
        [1.0, 0.0, 0.0, 0.0],
        [0.0, 1.0, 0.0, 0.0],
        [0.0, 0.0, 1.0, 2.0],
        [0.0, 0.0, 0.0, 1.0],
    ];
    let texture = [
        [1.0, 0.0, 0.0, 0.5],
        [0.0, 1.0, 0.0, 0.25],
        [0.0, 0.0, 1.0, 0.0],
        [0.0, 0.0, 0.0, 1.0],
    ];
    let mvp = [
        [0.5, 0.0, 0.0, 0.0],
        [0.0, 0.5, 0.0, 0.0],
        [0.0, 0.0, 0.5, 0.0],
        [0.0, 0.0, 0.0, 1.0],
    ];
    let transpose = |m: [[f32; 4]; 4]| -> [[f32; 4]; 4] {
        let mut t = [[0.0; 4]; 4];
        for (i, row) in t.iter_mut().enumerate() {
            for (j, x) in row.iter_mut().enumerate() {
                *x = m[j][i];
            }
        }
        t
    };
    let items: Vec<(&str, [f32; 4])> = vec![
        ("state.lightmodel.front.scenecolor", [0.05, 0.05, 0.05, 1.0]),
        ("state.light[0].position", [0.0, 0.0, 1.0, 0.0]),
        ("state.light[0].attenuation", [1.0, 0.0, 0.0, 0.0]),
        ("state.light[1].position", [0.0, 0.0, 0.0, 1.0]),
        ("state.light[1].attenuation", [0.0, 0.0, 1.0, 0.0]),
        ("state.lightprod[0].front.ambient", [0.1, 0.1, 0.1, 1.0]),
        ("state.lightprod[0].front.diffuse", [0.5, 0.25, 0.125, 1.0]),
        ("state.lightprod[0].front.specular", [0.5; 4]),
        ("state.lightprod[1].front.ambient", [0.2, 0.2, 0.2, 0.0]),
        ("state.lightprod[1].front.diffuse", [0.9, 0.9, 0.9, 0.0]),
        ("state.lightprod[1].front.specular", [0.3; 4]),
        ("state.material.front.diffuse", [0.0, 0.0, 0.0, 0.75]),
        ("state.material.front.shininess", [2.0, 0.0, 0.0, 0.0]),
    ];

    // The interpreter takes each item by its canonical name (the modelview
    // matrix as `modelview[0]`, which the program writes `modelview`).
    let mut inputs = Inputs::default();
    for (name, value) in &items {
        inputs.set(name, fbits(*value)).unwrap();
    }
    for i in 0..4 {
        let set = |inputs: &mut Inputs, name: String, row: [f32; 4]| {
            inputs.set(&name, fbits(row)).unwrap()
        };
        set(
            &mut inputs,
            format!("state.matrix.modelview[0].transpose.row[{i}]"),
            transpose(mv)[i],
        );
        set(
            &mut inputs,
            format!("state.matrix.modelview[0].inverse.row[{i}]"),
            mv_inverse[i],
        );
        set(
            &mut inputs,
            format!("state.matrix.texture[0].transpose.row[{i}]"),
            transpose(texture)[i],
        );
        set(&mut inputs, format!("state.matrix.mvp.row[{i}]"), mvp[i]);
    }
    let vertex = [
        ("gl_Vertex", [1.0, 2.0, 0.0, 1.0]),
        ("gl_Normal", [0.0, 0.0, 1.0, 0.0]),
        ("gl_MultiTexCoord0", [0.25, 0.5, 0.0, 1.0]),
    ];
    for (name, value) in vertex {
        let at = f.location(name, false);
        inputs
            .set(&format!("vertex.attrib[{at}]"), fbits(value))
            .unwrap();
    }
    let color = [0.7388889, 0.4888889, 0.3638889, 0.75];
    let secondary = [0.5 * 25.0 / 30.0 + 0.3 * 4.0 / 81.0; 4];
    let texcoord = [0.75, 0.75, 0.0, 1.0];
    let position = [0.5, 1.0, 0.0, 1.0];
    let out = interp::run(&f.program(), &inputs, &Default::default()).unwrap();
    let result = |name: &str| out.results[name].floats();
    close("interpreter", result("result.position"), position, XYZW);
    close("interpreter", result("result.color"), color, XYZW);
    close(
        "interpreter",
        result("result.color.secondary"),
        secondary,
        XYZW,
    );
    close("interpreter", result("result.texcoord[0]"), texcoord, XYZW);
    close("interpreter", result("result.fogcoord"), [2.0; 4], &[0]);

    // The device takes the State block: matrices as their stored rows.
    let block = r.uniform_blocks.iter().find(|b| b.binding_name == "state");
    let mut state = vec![[0u32; 4]; block.unwrap().size as usize / 16];
    let mut put = |binding: &str, rows: &[[f32; 4]]| {
        let elements = state_elements(r, binding);
        assert_eq!(elements.len(), rows.len(), "{binding}");
        for (e, row) in elements.into_iter().zip(rows) {
            state[e as usize] = fbits(*row);
        }
    };
    for (name, value) in &items {
        put(name, &[*value]);
    }
    put("state.matrix.modelview[0].transpose.row[0]", &mv);
    for (i, row) in mv_inverse.iter().take(3).enumerate() {
        put(
            &format!("state.matrix.modelview[0].inverse.row[{i}]"),
            &[*row],
        );
    }
    put("state.matrix.texture[0].transpose.row[0]", &texture);
    for (i, row) in mvp.iter().enumerate() {
        put(&format!("state.matrix.mvp.row[{i}]"), &[*row]);
    }
    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    let (color_at, secondary_at, uv_at, fog_at) = (
        f.location("gl_FrontColor", true),
        f.location("gl_FrontSecondaryColor", true),
        f.location("gl_TexCoord[0]", true),
        f.location("gl_FogFragCoord", true),
    );
    let job = VertexJob {
        state,
        ..VertexJob::new(
            vec![vertex
                .iter()
                .map(|(name, value)| Input::float(f.location(name, false), *value))
                .collect()],
            vec![
                Capture::Position,
                Capture::Location(color_at),
                Capture::Location(secondary_at),
                Capture::Location(uv_at),
                Capture::Location(fog_at),
            ],
        )
    };
    let out = dev
        .run_vertex(&f.compiled.spirv, &job)
        .unwrap_or_else(|e| panic!("{e}"));
    close("device", out.position_f32(0), position, XYZW);
    close("device", out.location_f32(0, color_at), color, XYZW);
    close("device", out.location_f32(0, secondary_at), secondary, XYZW);
    close("device", out.location_f32(0, uv_at), texcoord, XYZW);
    close("device", out.location_f32(0, fog_at), [2.0; 4], &[0]);
}

// ---------------------------------------------------------------- mandelbrot

/// gp4fp/fragment_mandelbrot.fp: a REP whose exits are a BRK on the
/// uniform iteration count and a BRK inside an IF on |z|² > 4 (the
/// data-dependent break), then a 1D palette lookup. Device only: the
/// interpreter does not model textures.
///
/// maxIterations 16 (integer bits), paletteScale 0.125, a palette of 8
/// texels (k/8, 1 - k/8, 0.5, 1) with NEAREST filtering, so the texel is
/// floor(smooth), smooth = i + 1 - log2(log2(|z|²)/2) with i the loop
/// counter at the break. z starts at 0; z ← z² + c:
///   c = (0, 0): z stays 0: never escapes, black (0, 0, 0, 1).
///   c = (-2, 0): z = -2, then 2, 2, …: |z|² = 4 is not > 4: black.
///   c = (2, 0): z1 = 2 (4, stays), z2 = 6: |z|² = 36 at i = 1;
///     smooth = 2 - log2(log2(36)/2) = 2 - log2(2.585) = 0.630: texel 0.
///   c = (1, 1): z1 = (1, 1), z2 = (1, 3): 10 at i = 1;
///     smooth = 2 - log2(log2(10)/2) = 2 - log2(1.661) = 1.268: texel 1.
///   c = (0.5, 0.5): z = (0.5, 0.5), (0.5, 1), (-0.25, 1.5),
///     (-1.6875, -0.25), (3.28515625, 1.34375): 12.598 at i = 4;
///     smooth = 5 - log2(log2(12.598)/2) = 5 - log2(1.8276) = 4.130: texel 4.
#[test]
fn cg_mandelbrot_loop_breaks_when_the_orbit_escapes() {
    let f = fixture("gp4fp/fragment_mandelbrot.fp");
    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    let params = Parameters::default()
        .int("maxIterations", [16, 0, 0, 0])
        .float("paletteScale", &[[0.125, 0.0, 0.0, 0.0]]);
    let texel = |k: u32| [k as f32 / 8.0, 1.0 - k as f32 / 8.0, 0.5, 1.0];
    let palette = Texture::new(
        0,
        TextureKind::D1,
        vk::Format::R32G32B32A32_SFLOAT,
        8,
        1,
        1,
        1,
        vec![(0..8).flat_map(|k| fbits(texel(k))).collect()],
    );
    let c_at = f.location("c", false);
    let cases = [
        ([0.0, 0.0], [0.0, 0.0, 0.0, 1.0]),
        ([-2.0, 0.0], [0.0, 0.0, 0.0, 1.0]),
        ([2.0, 0.0], texel(0)),
        ([1.0, 1.0], texel(1)),
        ([0.5, 0.5], texel(4)),
    ];
    let job = FragmentJob {
        local: params.local_array(&f),
        textures: vec![palette],
        ..FragmentJob::new(
            cases
                .iter()
                .map(|(c, _)| vec![Input::float(c_at, [c[0], c[1], 0.0, 0.0])])
                .collect(),
        )
    };
    let out = dev
        .run_fragment(&f.compiled.spirv, &job)
        .unwrap_or_else(|e| panic!("{e}"));
    for (i, (c, want)) in cases.iter().enumerate() {
        assert_eq!(out.f32(i), *want, "c = {c:?}");
    }
}

// ---------------------------------------------------------------- shadows

/// gp4fp/fragment_shadow.fp: four projective shadow-map lookups (`TXP …
/// SHADOW2D`, under `OPTION ARB_fragment_program_shadow`) at ± half a texel,
/// averaged, under a spot light with a smoothstep cone. Device only: the
/// interpreter does not model textures.
///
/// A 4×4 depth map (NEAREST, compare LEQUAL: a tap is lit when the
/// reference depth is <= the stored one) holding 0.25 at texel (1, 1),
/// 0.75 at (2, 1), 1.0 at (1, 2), 0.6 at (2, 2) and 0 elsewhere.
/// shadowTexelSize 0.25: the offsets are 0.25·w·0.5 in homogeneous units,
/// 0.125 after the divide, so shadowCoord (1, 1, zw, 2) samples u, v in
/// {0.375, 0.625}: texels (1, 1), (2, 1), (1, 2), (2, 2).
///   z = 0.5: lit by 0.75, 1.0 and 0.6, not by 0.25: lit = 3/4.
///   z = 0.9: lit only by 1.0: lit = 1/4.
/// Normal (0, 0, 1); spot direction (0, 0, -1), cone cosines (0.8, 0.9).
///   toLight (0, 0, 1): N·L = 1, cos = 1, spot = 1.
///   toLight (sqrt(1 - 0.85²), 0, 0.85): N·L = cos = 0.85, spot =
///   smoothstep(0.8, 0.9, 0.85) = 0.5.
/// colour = base · (ambient 0.1 + light 0.8 · N·L · spot · lit), base
/// (1, 0.5, 0.25, 0.5):
///   lit 3/4, full spot: base · 0.7;   lit 3/4, half: base · (0.1 + 0.8 · 0.85 · 0.5 · 0.75) = base · 0.355;
///   lit 1/4, full spot: base · 0.3.
#[test]
fn cg_shadow_map_filters_four_projective_depth_comparisons() {
    let f = fixture("gp4fp/fragment_shadow.fp");
    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    let params = Parameters::default()
        .float("shadowTexelSize", &[[0.25, 0.25, 0.0, 0.0]])
        .float("spotDirection", &[[0.0, 0.0, -1.0, 0.0]])
        .float("spotCosines", &[[0.8, 0.9, 0.0, 0.0]])
        .float("lightColor", &[[0.8, 0.8, 0.8, 0.0]])
        .float("ambient", &[[0.1, 0.1, 0.1, 0.0]]);
    let mut depths = [0.0f32; 16];
    for (x, y, d) in [(1, 1, 0.25), (2, 1, 0.75), (1, 2, 1.0), (2, 2, 0.6)] {
        depths[y * 4 + x] = d;
    }
    let shadow_map = Texture::new(
        0,
        TextureKind::D2,
        vk::Format::D32_SFLOAT,
        4,
        4,
        1,
        1,
        vec![depths.iter().map(|d| d.to_bits()).collect()],
    )
    .with_sampler(SamplerDesc {
        compare: Some(vk::CompareOp::LESS_OR_EQUAL),
        ..SamplerDesc::default()
    });
    let side = (1.0f32 - 0.85 * 0.85).sqrt();
    let base = [1.0, 0.5, 0.25, 0.5];
    let cases: [([f32; 4], [f32; 4], f64); 3] = [
        ([1.0, 1.0, 1.0, 2.0], [0.0, 0.0, 1.0, 0.0], 0.7),
        (
            [1.0, 1.0, 1.0, 2.0],
            [side, 0.0, 0.85, 0.0],
            0.1 + 0.8 * 0.85 * 0.5 * 0.75,
        ),
        ([1.0, 1.0, 1.8, 2.0], [0.0, 0.0, 1.0, 0.0], 0.3),
    ];
    let at = |name| f.location(name, false);
    let job = FragmentJob {
        local: params.local_array(&f),
        textures: vec![shadow_map],
        ..FragmentJob::new(
            cases
                .iter()
                .map(|(coord, to_light, _)| {
                    vec![
                        Input::float(at("shadowCoord"), *coord),
                        Input::float(at("normalW"), [0.0, 0.0, 1.0, 0.0]),
                        Input::float(at("toLightW"), *to_light),
                        Input::float(at("baseColor"), base),
                    ]
                })
                .collect(),
        )
    };
    let out = dev
        .run_fragment(&f.compiled.spirv, &job)
        .unwrap_or_else(|e| panic!("{e}"));
    for (i, (_, _, k)) in cases.iter().enumerate() {
        let want = [
            base[0] as f64 * k,
            base[1] as f64 * k,
            base[2] as f64 * k,
            0.5,
        ];
        close(&format!("device, case {i}"), out.f32(i), want, XYZW);
    }
}

// ---------------------------------------------------------------- geometry

/// gp4gp/geometry_shrink.gp, fed by a pass-through vertex program: each
/// triangle shrinks towards its centroid and is lit flat.
///
/// Triangle (0, 0, 0), (3, 0, 0), (0, 3, 0) (w = 1; the same points as the
/// eye-space positions in texcoord[0]): centroid (1, 1, 0, 1); shrink 0.5
/// puts the vertices half-way: (0.5, 0.5, 0), (2, 0.5, 0), (0.5, 2, 0).
/// Face normal normalize((3,0,0) × (0,3,0)) = (0, 0, 1); light (0, 0.6, 0.8):
/// diffuse = saturate(0.8)·0.8 + 0.2 = 0.84 scales each vertex's rgb.
#[test]
fn cg_geometry_shrink_moves_vertices_to_the_centroid_and_lights_the_face() {
    let f = fixture("gp4gp/geometry_shrink.gp");
    let pass_through = "!!NVvp4.0\nMOV result.position, vertex.attrib[0];\n\
                        MOV result.color, vertex.attrib[3];\n\
                        MOV result.texcoord[0], vertex.attrib[8];\nEND\n";
    let vertex = nvp4c::compile(pass_through, &nvp4c::Options::default()).unwrap();
    let params = Parameters::default()
        .float("shrink", &[[0.5, 0.0, 0.0, 0.0]])
        .float("lightDirectionE", &[[0.0, 0.6, 0.8, 0.0]]);
    let points = [
        [0.0, 0.0, 0.0, 1.0],
        [3.0, 0.0, 0.0, 1.0],
        [0.0, 3.0, 0.0, 1.0],
    ];
    let colors = [
        [1.0, 0.5, 0.25, 1.0],
        [0.5, 0.5, 0.5, 0.5],
        [0.0, 1.0, 0.0, 0.25],
    ];
    let shrunk = [
        [0.5, 0.5, 0.0, 1.0],
        [2.0, 0.5, 0.0, 1.0],
        [0.5, 2.0, 0.0, 1.0],
    ];
    let lit = |c: [f32; 4]| {
        [
            c[0] as f64 * 0.84,
            c[1] as f64 * 0.84,
            c[2] as f64 * 0.84,
            c[3] as f64,
        ]
    };

    let mut inputs = Inputs::default();
    inputs.local = params.locals(&f);
    for m in 0..3 {
        inputs
            .set(&format!("vertex[{m}].position"), fbits(points[m]))
            .unwrap();
        inputs
            .set(&format!("vertex[{m}].texcoord[0]"), fbits(points[m]))
            .unwrap();
        inputs
            .set(&format!("vertex[{m}].color"), fbits(colors[m]))
            .unwrap();
    }
    let out = interp::run(&f.program(), &inputs, &Default::default()).unwrap();
    assert_eq!(out.vertices.len(), 3);
    for (m, v) in out.vertices.iter().enumerate() {
        let what = format!("interpreter, vertex {m}");
        close(
            &what,
            v.results["result.position"].floats(),
            shrunk[m],
            XYZW,
        );
        close(
            &what,
            v.results["result.color"].floats(),
            lit(colors[m]),
            XYZW,
        );
    }

    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    let vertices = (0..3)
        .map(|m| {
            vec![
                Input::float(0, points[m]),
                Input::float(3, colors[m]),
                Input::float(8, points[m]),
            ]
        })
        .collect();
    let job = GeometryJob {
        local: params.local_array(&f),
        ..GeometryJob::new(
            vertices,
            vk::PrimitiveTopology::TRIANGLE_LIST,
            // result.color is Location 0 (docs/interface.md, "Varyings").
            vec![Capture::Position, Capture::Location(0)],
        )
    };
    let out = dev
        .run_geometry(&vertex.spirv, &f.compiled.spirv, &job)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.vertices.len(), 3);
    for m in 0..3 {
        let what = format!("device, vertex {m}");
        close(&what, out.position_f32(m), shrunk[m], XYZW);
        close(&what, to_f32(out.location(m, 0)), lit(colors[m]), XYZW);
    }
}

// ---------------------------------------------------------------- sweep

/// A small deterministic generator (an LCG), for inputs nobody chose.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> f32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }
    /// Uniform in [lo, hi).
    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.next()
    }
}

/// Whether two results agree: integers exactly, floats within a relative
/// 1e-4 (RSQ, LG2, EX2, POW, SIN and COS are approximations on both
/// sides; docs/semantics.md). A value the interpreter computed as INF or
/// NaN is not compared (Vulkan does not promise IEEE specials).
fn agree(ty: nvp4c::isa::DataType, interp: u32, device: u32) -> bool {
    if ty != nvp4c::isa::DataType::Float {
        return interp == device;
    }
    let (a, b) = (f32::from_bits(interp), f32::from_bits(device));
    !a.is_finite() || (a - b).abs() <= 1e-4 * a.abs().max(b.abs()) + 1e-6
}

/// The vertex profiles whose fixtures the sweep below runs: NV_gpu_program4,
/// ARB_vertex_program, and ARB_vertex_program with NV_vertex_program3.
const VERTEX_PROFILES: [&str; 3] = ["gp4vp", "arbvp1", "vp40"];

/// Vertex fixtures that do not compile, with the code they get
/// (tests/tools/cg_fixtures.rs holds the reason): one the spec rejects.
const NOT_COMPILED: [(&str, &str); 1] = [("gp4vp/vertex_position_invariant.vp", "E0702")];

/// Every gp4vp, arbvp1 and vp40 fixture without texture lookups, run on the device and in
/// the interpreter with the same generated inputs: attributes in [-1, 1),
/// float parameters in [0.25, 1) (positive, so that the programs' lengths,
/// logarithms and powers stay real), `int` parameters in 1..=4 (as floats
/// in the ARB profiles, which keep them in float registers); every
/// result component the interpreter says is defined must agree. Nobody computed these values by hand: the hand-computed
/// tests above hold the meaning, this holds the two implementations to
/// each other on real programs.
#[test]
fn cg_vertex_fixtures_agree_on_the_device_and_in_the_interpreter() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/cg");
    let mut paths: Vec<String> = Vec::new();
    for profile in VERTEX_PROFILES {
        for e in std::fs::read_dir(root.join(profile)).unwrap() {
            let n = e.unwrap().file_name().to_string_lossy().into_owned();
            if n.ends_with(".vp") {
                paths.push(format!("{profile}/{n}"));
            }
        }
    }
    paths.sort();
    let dev = harness::device_or_skip();
    let (mut programs, mut compared) = (0, 0);
    let mut failures = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(root.join(&path)).unwrap();
        let compiled = match nvp4c::compile(&text, &nvp4c::Options::default()) {
            Ok(c) => c,
            Err(d)
                if NOT_COMPILED
                    .iter()
                    .any(|(p, code)| *p == path && d.iter().any(|d| d.code == *code)) =>
            {
                continue
            }
            Err(d) => panic!("{}", d.render(&path, &text, false)),
        };
        let program = nvp4c::check(&text, &nvp4c::Options::default()).unwrap().0;
        if !compiled.reflection.textures.is_empty() {
            continue; // the interpreter does not model textures
        }
        // GL state comes as named items in the interpreter but as rows of
        // the State block on the device, where transposes are re-indexed
        // rows (docs/interface.md); cg_fixed_function_glsl_… covers the
        // program that reads it.
        if compiled
            .reflection
            .uniform_blocks
            .iter()
            .any(|b| b.binding_name == "state")
        {
            continue;
        }
        programs += 1;
        let r = &compiled.reflection;
        let mut rng = Lcg(0xC6C_0000 + programs as u64);

        // Parameters: every element of every block the program reads.
        let mut inputs = Inputs::default();
        let (mut local, mut env) = (Vec::new(), Vec::new());
        for block in &r.uniform_blocks {
            for p in &block.parameters {
                let is_int =
                    p.cg.iter()
                        .any(|c| c.ty.starts_with("int") || c.ty.starts_with("bool"));
                // The ARB profiles have no integers: cgc keeps an `int`
                // parameter in a float register, so it gets a whole float.
                let arb = !path.starts_with("gp4");
                let value = if is_int && arb {
                    fbits([0; 4].map(|_| (1 + (rng.next() * 4.0) as i32) as f32))
                } else if is_int {
                    ibits([1, 2, 3, 4].map(|_| 1 + (rng.next() * 4.0) as i32))
                } else {
                    fbits([0; 4].map(|_| rng.range(0.25, 1.0)))
                };
                let rows = match block.binding_name.as_str() {
                    "program.local" => &mut local,
                    "program.env" => &mut env,
                    other => panic!("{path}: a parameter in {other}"),
                };
                let e = p.element as usize;
                if rows.len() <= e {
                    rows.resize(e + 1, [0; 4]);
                }
                rows[e] = value;
                inputs
                    .set(&p.binding, value)
                    .unwrap_or_else(|e| panic!("{path}: {e}"));
            }
        }

        // Three vertices of attributes.
        let attribs = interp::attribute_inputs(&program);
        let location_of = |binding: &str| {
            r.inputs
                .iter()
                .find(|v| v.bindings.iter().any(|b| b == binding))
                .and_then(|v| v.location)
        };
        let mut vertices = Vec::new();
        let mut runs = Vec::new();
        for v in 0..3 {
            let mut vertex_inputs = inputs.clone();
            let mut device_inputs = Vec::new();
            for a in &attribs {
                match a.as_str() {
                    // VertexIndex and InstanceIndex of a one-instance draw.
                    "vertex.id" => vertex_inputs.set(a, ibits([v; 4])).unwrap(),
                    "vertex.instance" => vertex_inputs.set(a, [0; 4]).unwrap(),
                    _ => {
                        let value = [0; 4].map(|_| rng.range(-1.0, 1.0));
                        vertex_inputs.set(a, fbits(value)).unwrap();
                        // A declared attribute the module does not read has
                        // no Location (a cgc alias range like vertex.attrib[1..2]).
                        if let Some(at) = location_of(a) {
                            device_inputs.push(Input::float(at, value));
                        }
                    }
                }
            }
            vertices.push(device_inputs);
            let out = interp::run(&program, &vertex_inputs, &Default::default())
                .unwrap_or_else(|e| panic!("{path}: {e}"));
            runs.push(out);
        }
        let Some(dev) = dev else { continue };

        // Capture every output the interpreter reports.
        let mut captures = Vec::new();
        let mut slots = Vec::new();
        for result in runs[0].results.keys() {
            let slot = r
                .outputs
                .iter()
                .find(|o| o.bindings.iter().any(|b| b == result))
                .unwrap_or_else(|| panic!("{path}: no output for {result}"));
            let capture = match (slot.location, slot.built_in) {
                (Some(l), _) => Capture::Location(l),
                (None, Some(BuiltIn::Position)) => Capture::Position,
                (None, Some(BuiltIn::PointSize)) => Capture::PointSize,
                (None, Some(BuiltIn::ClipDistance)) => Capture::ClipDistance,
                other => panic!("{path}: {result} at {other:?}"),
            };
            if !captures.contains(&capture) {
                captures.push(capture);
            }
            slots.push((result.clone(), capture));
        }
        let job = VertexJob {
            local,
            env,
            ..VertexJob::new(vertices, captures)
        };
        let out = dev
            .run_vertex(&compiled.spirv, &job)
            .unwrap_or_else(|e| panic!("{path}: {e}"));
        for (v, run) in runs.iter().enumerate() {
            for (result, capture) in &slots {
                let want = &run.results[result];
                let got: [u32; 4] = match capture {
                    Capture::Location(l) => out.location(v, *l),
                    Capture::Position => out.position(v),
                    Capture::PointSize => [out.vertices[v].point_size.unwrap(), 0, 0, 0],
                    Capture::ClipDistance => {
                        let n: usize = result
                            .trim_start_matches("result.clip[")
                            .trim_end_matches(']')
                            .parse()
                            .unwrap();
                        [out.vertices[v].clip_distance.as_ref().unwrap()[n], 0, 0, 0]
                    }
                    _ => unreachable!(),
                };
                for (c, &device) in got.iter().enumerate() {
                    if want.defined() & (1 << c) == 0 {
                        continue;
                    }
                    compared += 1;
                    if !agree(want.types[c], want.bits[c], device) {
                        failures.push(format!(
                            "{path}, vertex {v}: {result}[{c}]: interpreter {:?} ({:#x}), device {:?} ({:#x})",
                            f32::from_bits(want.bits[c]),
                            want.bits[c],
                            f32::from_bits(device),
                            device
                        ));
                    }
                }
            }
        }
    }
    assert!(programs >= 20, "{programs} programs");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    if dev.is_some() {
        assert!(compared > 600, "{compared} components compared");
        eprintln!("cg vertex fixtures: {programs} programs, {compared} result components agree");
    }
}

/// The vertex program feeding the geometry sweep: vertex.attrib[0] is the
/// position, [3] the colour, [8], [9] texcoord[0], [1], [10], [11]
/// result.attrib[0], [1] (the varyings the gp4gp fixtures read).
const PASS_THROUGH: &str = "!!NVvp4.0
MOV result.position, vertex.attrib[0];
MOV result.color, vertex.attrib[3];
MOV result.texcoord[0], vertex.attrib[8];
MOV result.texcoord[1], vertex.attrib[9];
MOV result.attrib[0], vertex.attrib[10];
MOV result.attrib[1], vertex.attrib[11];
END
";

/// The vertex attribute PASS_THROUGH copies to the geometry input `name`
/// (`vertex[m].texcoord[1]` → 9).
fn pass_through_attribute(name: &str) -> u32 {
    let binding = name.split_once("].").map_or(name, |(_, b)| b);
    match binding {
        "position" => 0,
        "color" => 3,
        "texcoord[0]" => 8,
        "texcoord[1]" => 9,
        "attrib[0]" => 10,
        "attrib[1]" => 11,
        other => panic!("the pass-through vertex program does not write {other}"),
    }
}

/// Every gp4gp fixture on one generated input primitive, on the device
/// (behind PASS_THROUGH, captured with transform feedback) and in the
/// interpreter: the same vertices, in the same decomposed primitives
/// (triangle i of a strip is vertices i, i + 1 + i % 2, i + 2 - i % 2), with
/// the same results. Attributes are in [0, 1), parameters in [0.25, 1).
#[test]
fn cg_geometry_fixtures_agree_on_the_device_and_in_the_interpreter() {
    use nvp4c::ir::{PrimitiveIn, PrimitiveOut};
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/cg/gp4gp");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".gp"))
        .collect();
    names.sort();
    let vertex = nvp4c::compile(PASS_THROUGH, &nvp4c::Options::default()).unwrap();
    let dev = harness::device_or_skip();
    let (mut programs, mut records) = (0, 0);
    let mut failures = Vec::new();
    for name in names {
        let path = format!("gp4gp/{name}");
        let text = std::fs::read_to_string(dir.join(&name)).unwrap();
        let compiled = nvp4c::compile(&text, &nvp4c::Options::default())
            .unwrap_or_else(|d| panic!("{}", d.render(&path, &text, false)));
        let program = nvp4c::check(&text, &nvp4c::Options::default()).unwrap().0;
        let r = &compiled.reflection;
        assert!(r.textures.is_empty(), "{path}: textures");
        programs += 1;
        let mut rng = Lcg(0x6E0_0000 + programs as u64);
        let layout = program.geometry.unwrap();
        let (topology, count) = match layout.input {
            PrimitiveIn::Points => (vk::PrimitiveTopology::POINT_LIST, 1),
            PrimitiveIn::Triangles => (vk::PrimitiveTopology::TRIANGLE_LIST, 3),
            PrimitiveIn::TrianglesAdjacency => {
                (vk::PrimitiveTopology::TRIANGLE_LIST_WITH_ADJACENCY, 6)
            }
            other => panic!("{path}: {other:?}"),
        };

        let mut inputs = Inputs::default();
        let mut local = Vec::new();
        for p in r.uniform_blocks.iter().flat_map(|b| &b.parameters) {
            let value = fbits([0; 4].map(|_| rng.range(0.25, 1.0)));
            let e = p.element as usize;
            if local.len() <= e {
                local.resize(e + 1, [0; 4]);
            }
            local[e] = value;
            inputs.set(&p.binding, value).unwrap();
        }
        // Per vertex: every attribute PASS_THROUGH reads.
        let attributes: Vec<Vec<[f32; 4]>> = (0..count)
            .map(|_| {
                (0..12)
                    .map(|_| [0; 4].map(|_| rng.range(0.0, 1.0)))
                    .collect()
            })
            .collect();
        for name in interp::attribute_inputs(&program) {
            let m: usize = name
                .strip_prefix("vertex[")
                .and_then(|r| r.split(']').next())
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("{path}: input {name}"));
            let value = attributes[m][pass_through_attribute(&name) as usize];
            inputs.set(&name, fbits(value)).unwrap();
        }
        let run = interp::run(&program, &inputs, &Default::default())
            .unwrap_or_else(|e| panic!("{path}: {e}"));
        // Decompose the emitted strips the way transform feedback records them.
        let mut expected = Vec::new();
        let mut start = 0;
        while start < run.vertices.len() {
            let primitive = run.vertices[start].primitive;
            let end = run.vertices[start..]
                .iter()
                .position(|v| v.primitive != primitive)
                .map_or(run.vertices.len(), |n| start + n);
            let n = end - start;
            match layout.output {
                PrimitiveOut::Points => expected.extend(start..end),
                PrimitiveOut::LineStrip => {
                    for i in 0..n.saturating_sub(1) {
                        expected.extend([start + i, start + i + 1]);
                    }
                }
                PrimitiveOut::TriangleStrip => {
                    for i in 0..n.saturating_sub(2) {
                        expected.extend([start + i, start + i + 1 + i % 2, start + i + 2 - i % 2]);
                    }
                }
            }
            start = end;
        }
        assert!(
            !expected.is_empty(),
            "{path}: the generated primitive emits nothing"
        );
        let Some(dev) = dev else { continue };

        let result_names: Vec<String> = run.vertices[0].results.keys().cloned().collect();
        let mut captures = Vec::new();
        let mut slots = Vec::new();
        for result in &result_names {
            let capture = if result == "result.layer" {
                Capture::Layer
            } else {
                let slot = r
                    .outputs
                    .iter()
                    .find(|o| o.bindings.iter().any(|b| b == result))
                    .unwrap_or_else(|| panic!("{path}: no output for {result}"));
                match (slot.location, slot.built_in) {
                    (Some(l), _) => Capture::Location(l),
                    (None, Some(BuiltIn::Position)) => Capture::Position,
                    other => panic!("{path}: {result} at {other:?}"),
                }
            };
            if !captures.contains(&capture) {
                captures.push(capture);
            }
            slots.push((result.clone(), capture));
        }
        let job = GeometryJob {
            local,
            ..GeometryJob::new(
                attributes
                    .iter()
                    .map(|a| {
                        [0, 3, 8, 9, 10, 11]
                            .map(|l| Input::float(l, a[l as usize]))
                            .to_vec()
                    })
                    .collect(),
                topology,
                captures,
            )
        };
        let out = dev
            .run_geometry(&vertex.spirv, &compiled.spirv, &job)
            .unwrap_or_else(|e| panic!("{path}: {e}"));
        if out.vertices.len() != expected.len() {
            failures.push(format!(
                "{path}: {} records on the device, {} from the interpreter",
                out.vertices.len(),
                expected.len()
            ));
            continue;
        }
        for (k, &v) in expected.iter().enumerate() {
            records += 1;
            for (result, capture) in &slots {
                let want = &run.vertices[v].results[result];
                let got = match capture {
                    Capture::Location(l) => out.location(k, *l),
                    Capture::Position => out.position(k),
                    Capture::Layer => [out.vertices[k].layer.unwrap(), 0, 0, 0],
                    _ => unreachable!(),
                };
                for (c, &device) in got.iter().enumerate() {
                    if want.defined() & (1 << c) != 0 && !agree(want.types[c], want.bits[c], device)
                    {
                        failures.push(format!(
                            "{path}, record {k} (vertex {v}): {result}[{c}]: interpreter {:#x}, device {device:#x}",
                            want.bits[c]
                        ));
                    }
                }
            }
        }
    }
    assert_eq!(programs, 5);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    if dev.is_some() {
        assert!(records >= 20, "{records} records compared");
    }
}
