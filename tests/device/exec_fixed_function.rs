//! The fixed-function companion programs (`nvp4c::fixed_function`) on the
//! Vulkan device, with values computed by hand from OpenGL 2.1's lighting
//! equation (section 2.14.1) and texture environments (section 3.8.13,
//! Table 3.22); the vertex stage also in the interpreter.

use crate::harness::{self, fbits, Capture, FragmentJob, Input, VertexJob};
use ash::vk;
use harness::{Texture, TextureKind};
use nvp4c::fixed_function::{
    EnvMode, FragmentConfig, Light, Lighting, TexCoord, TextureTarget, TextureUnit, VertexConfig,
};
use nvp4c::interp::{self, Inputs, RunOptions};
use nvp4c::state::GlState;

fn close(got: [f32; 4], want: [f32; 4], what: &str) {
    for c in 0..4 {
        let tolerance = 1e-5 * want[c].abs().max(1.0);
        assert!(
            (got[c] - want[c]).abs() <= tolerance,
            "{what}: got {got:?}, want {want:?}"
        );
    }
}

/// Identity matrices; material e = (0.1, 0, 0, 0), a = (0.5, 0.5, 0.5, 1),
/// d = (1, 0.5, 0.25, 0.75), s = (1, 1, 1, 1), shininess 2; scene ambient
/// a_cs = (0.2, 0.2, 0.2, 1). Light 0 directional at (0, 0, 1, 0): ambient
/// 0, diffuse 0.5, specular 0.25. Light 1 a point light at (0, 2, 0, 1):
/// ambient 0.1, diffuse (0, 1, 0), specular 1, attenuation k0 = 1,
/// k1 = 0.5. Texture matrix 0 scales by 2.
fn lit_state() -> GlState {
    let mut gl = GlState::default();
    gl.front.emission = [0.1, 0.0, 0.0, 0.0];
    gl.front.ambient = [0.5, 0.5, 0.5, 1.0];
    gl.front.diffuse = [1.0, 0.5, 0.25, 0.75];
    gl.front.specular = [1.0, 1.0, 1.0, 1.0];
    gl.front.shininess = 2.0;
    gl.light_model_ambient = [0.2, 0.2, 0.2, 1.0];
    gl.lights[0].position = [0.0, 0.0, 1.0, 0.0];
    gl.lights[0].ambient = [0.0, 0.0, 0.0, 1.0];
    gl.lights[0].diffuse = [0.5, 0.5, 0.5, 1.0];
    gl.lights[0].specular = [0.25, 0.25, 0.25, 1.0];
    gl.lights[1].position = [0.0, 2.0, 0.0, 1.0];
    gl.lights[1].ambient = [0.1, 0.1, 0.1, 1.0];
    gl.lights[1].diffuse = [0.0, 1.0, 0.0, 1.0];
    gl.lights[1].specular = [1.0, 1.0, 1.0, 1.0];
    gl.lights[1].attenuation = [1.0, 0.5, 0.0];
    gl.texture[0] = [
        2.0, 0.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 1.0,
    ];
    gl
}

#[test]
fn a_lit_vertex_through_the_fixed_function_vertex_stage_gets_the_lighting_equation() {
    let mut config = VertexConfig::default();
    config.lighting = Some(Lighting {
        lights: vec![Light::Directional, Light::Point],
        local_viewer: false,
        separate_specular: true,
    });
    config.normalize = true;
    config.units = vec![TexCoord::Current];
    let options = nvp4c::Options::default();
    let compiled = nvp4c::fixed_function::vertex_program(&config, &options).unwrap();
    let gl = lit_state();
    // Scene colour e + a·a_cs = (0.2, 0.1, 0.1), alpha d.a = 0.75.
    // Vertex 0 at the origin, normal (0, 0, 1): light 0 VP = h = (0, 0, 1),
    // n·VP = n·h = 1: diffuse (0.5, 0.25, 0.125), specular 0.25. Light 1
    // VP = (0, 1, 0), d = 2, att = 1 / (1 + 0.5·2) = 0.5, n·VP = 0: only
    // its ambient 0.5·0.05. Primary (0.725, 0.375, 0.25, 0.75),
    // secondary (0.25, 0.25, 0.25, 0).
    // Vertex 1 at the origin, normal (0, 3, 0) normalised to (0, 1, 0):
    // light 0 adds nothing (n·VP = 0, ambient 0); light 1: n·VP = 1,
    // h = (0, 1, 1)/√2, (n·h)² = 0.5: 0.5·(0.05 + (0, 0.5, 0)) and
    // specular 0.5·0.5. Primary (0.225, 0.375, 0.125, 0.75), secondary 0.25.
    // Vertex 2 at (0, 0, -2), normal (0, 0, 1): light 0 as vertex 0;
    // light 1: VP = (0, 2, 2), d = 2√2, att = 1 / (1 + √2) = 0.41421356,
    // n·VP = 1/√2, h = (0, 1/√2, 1 + 1/√2) normalised, n·h = 0.92387953,
    // (n·h)² = 0.85355339: col += att·(0.05, 0.05 + 0.5/√2, 0.05),
    // spec += att·0.85355339. Fog coordinate |z_e| = 2.
    let vertices = [
        ([0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 1.0, 0.0]),
        ([0.0, 0.0, 0.0, 1.0], [0.0, 3.0, 0.0, 0.0]),
        ([0.0, 0.0, -2.0, 1.0], [0.0, 0.0, 1.0, 0.0]),
    ];
    let att = 1.0 / (1.0 + std::f32::consts::SQRT_2);
    let spec2 = 0.25 + att * 0.853_553_4;
    let want_primary = [
        [0.725, 0.375, 0.25, 0.75],
        [0.225, 0.375, 0.125, 0.75],
        [
            0.7 + att * 0.05,
            0.35 + att * (0.05 + 0.5 * std::f32::consts::FRAC_1_SQRT_2),
            0.225 + att * 0.05,
            0.75,
        ],
    ];
    let want_secondary = [
        [0.25, 0.25, 0.25, 0.0],
        [0.25, 0.25, 0.25, 0.0],
        [spec2, spec2, spec2, 0.0],
    ];
    let want_fog = [0.0, 0.0, 2.0];
    let texcoord = [0.5, 0.25, 1.0, 1.0];
    let want_texcoord = [1.0, 0.5, 2.0, 1.0];
    // The interpreter first.
    let (program, _) = nvp4c::check(
        &nvp4c::fixed_function::vertex_program_source(&config),
        &options,
    )
    .unwrap();
    let block = gl.to_block();
    for (v, (position, normal)) in vertices.iter().enumerate() {
        let mut inputs = Inputs::default();
        inputs.set("vertex.position", fbits(*position)).unwrap();
        inputs.set("vertex.normal", fbits(*normal)).unwrap();
        inputs.set("vertex.texcoord[0]", fbits(texcoord)).unwrap();
        for (name, _) in nvp4c::state::stored_rows() {
            if let nvp4c::state::Read::Row { row, .. } = nvp4c::state::locate(&name).unwrap() {
                inputs.set(&name, fbits(block.row(row))).unwrap();
            }
        }
        // Read transposed from the stored inverse (docs/interface.md); the
        // interpreter names it with the matrix index.
        for i in 0..4 {
            let name = format!("state.matrix.modelview[0].invtrans.row[{i}]");
            inputs.set(&name, fbits(block.get(&name).unwrap())).unwrap();
        }
        let out = interp::run(&program, &inputs, &RunOptions::default()).unwrap();
        let r = |n: &str| out.results[n].floats();
        close(
            r("result.color"),
            want_primary[v],
            &format!("interp primary {v}"),
        );
        close(
            r("result.color.secondary"),
            want_secondary[v],
            &format!("interp secondary {v}"),
        );
        close(r("result.texcoord[0]"), want_texcoord, "interp texcoord");
        assert_eq!(r("result.fogcoord")[0], want_fog[v]);
        assert_eq!(r("result.position"), *position);
    }
    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    let job = VertexJob {
        state: harness::state_rows(&block),
        ..VertexJob::new(
            vertices
                .iter()
                .map(|(p, n)| {
                    vec![
                        Input::float(0, *p),
                        Input::float(2, *n),
                        Input::float(8, texcoord),
                    ]
                })
                .collect(),
            vec![
                Capture::Position,
                Capture::Location(0),
                Capture::Location(1),
                Capture::Location(4),
                Capture::Location(5),
            ],
        )
    };
    let out = dev
        .run_vertex(&compiled.spirv, &job)
        .unwrap_or_else(|e| panic!("run failed: {e}"));
    for (v, (position, _)) in vertices.iter().enumerate() {
        assert_eq!(out.position_f32(v), *position, "position {v}");
        close(
            out.location_f32(v, 0),
            want_primary[v],
            &format!("primary {v}"),
        );
        close(
            out.location_f32(v, 1),
            want_secondary[v],
            &format!("secondary {v}"),
        );
        assert_eq!(out.location_f32(v, 4)[0], want_fog[v], "fog coordinate {v}");
        close(out.location_f32(v, 5), want_texcoord, "texcoord");
    }
}

fn one_texel(unit: u32, texel: [f32; 4]) -> Texture {
    Texture::new(
        unit,
        TextureKind::D2,
        vk::Format::R32G32B32A32_SFLOAT,
        1,
        1,
        1,
        1,
        vec![texel.map(f32::to_bits).to_vec()],
    )
}

#[test]
fn the_fixed_function_fragment_stage_modulates_blends_and_adds_the_secondary_colour() {
    let mut config = FragmentConfig::default();
    config.units = vec![
        Some(TextureUnit {
            target: TextureTarget::T2D,
            env: EnvMode::Modulate,
        }),
        Some(TextureUnit {
            target: TextureTarget::T2D,
            env: EnvMode::Blend,
        }),
    ];
    config.color_sum = true;
    let compiled =
        nvp4c::fixed_function::fragment_program(&config, &nvp4c::Options::default()).unwrap();
    // C_f = (0.8, 0.4, 0.2, 1), texture 0 = (0.5, 0.25, 1, 0.5):
    // MODULATE (0.4, 0.1, 0.2, 0.5). Texture 1 = (0.25, 0.5, 0.75, 0.5),
    // C_c = (1, 0, 0.5, 1): BLEND C_f (1 − C_t) + C_c C_t =
    // (0.4·0.75 + 0.25, 0.1·0.5 + 0, 0.2·0.25 + 0.5·0.75) = (0.55, 0.05,
    // 0.425), A = 0.5·0.5 = 0.25. Colour sum + (0.1, 0.2, 0.3):
    // (0.65, 0.25, 0.725, 0.25).
    let mut gl = GlState::default();
    gl.texenv_color[1] = [1.0, 0.0, 0.5, 1.0];
    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    let mut job = FragmentJob::new(vec![vec![
        Input::float(0, [0.8, 0.4, 0.2, 1.0]),
        Input::float(1, [0.1, 0.2, 0.3, 0.0]),
        Input::float(5, [0.5, 0.5, 0.0, 1.0]),
        Input::float(6, [0.5, 0.5, 0.0, 1.0]),
    ]]);
    job.state = harness::state_rows(&gl.to_block());
    job.textures = vec![
        one_texel(0, [0.5, 0.25, 1.0, 0.5]),
        one_texel(1, [0.25, 0.5, 0.75, 0.5]),
    ];
    let out = dev
        .run_fragment(&compiled.spirv, &job)
        .unwrap_or_else(|e| panic!("run failed: {e}"));
    close(out.f32(0), [0.65, 0.25, 0.725, 0.25], "result.color");
}
