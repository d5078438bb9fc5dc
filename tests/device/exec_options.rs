//! Program options that add fixed-function work (docs/semantics.md,
//! "Options"), on the Vulkan device and in the interpreter:
//! `OPTION ARB_position_invariant` (ARB_vertex_program section 2.14.4.5.1:
//! clip coordinates as section 2.10 computes them, user clipping as
//! section 2.11 does) and `OPTION ARB_fog_linear` / `_exp` / `_exp2`
//! (ARB_fragment_program section 3.11.4.5.1, OpenGL 2.0 section 3.10).
//! The State block is filled by `nvp4c::state::GlState`; the expected
//! values are computed by hand below from the spec's formulas.

use crate::harness::{self, fbits, Capture, FragmentJob, Input, VertexJob};
use nvp4c::interp::{self, Inputs, RunOptions};
use nvp4c::state::{ClipPlane, Fog, GlState};
use nvp4c::TargetEnv;

const ENVS: [TargetEnv; 2] = [TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_3];

fn compile(src: &str, options: &nvp4c::Options) -> nvp4c::Compiled {
    match nvp4c::compile(src, options) {
        Ok(c) => c,
        Err(d) => panic!("compile failed:\n{}", d.render("t", src, false)),
    }
}

fn options(env: TargetEnv) -> nvp4c::Options {
    let mut o = nvp4c::Options::default();
    o.target_env = env;
    o
}

/// The State rows of `gl` as the harness binds them.
fn rows(gl: &GlState) -> Vec<[u32; 4]> {
    harness::state_rows(&gl.to_block())
}

/// The interpreter's inputs for the state bindings a program reads, taken
/// from `gl`'s block by name (every name the program can use).
fn state_inputs(gl: &GlState, inputs: &mut Inputs) {
    let block = gl.to_block();
    for (name, _) in nvp4c::state::stored_rows() {
        let read = nvp4c::state::locate(&name).unwrap();
        let bits = match read {
            // The stored row as is (the w of state.depth.range carries the
            // clip plane enables).
            nvp4c::state::Read::Row { row, .. } => fbits(block.row(row)),
            _ => unreachable!(),
        };
        inputs.set(&name, bits).unwrap();
    }
}

/// modelview[0] and projection, column-major as GL stores them. As rows:
/// M = [2 0 0 1; 0 2 0 -1; 0 0 2 0; 0 0 0 1] (a scale by 2 and a
/// translation by (1, -1, 0)) and P = [1 0 0 0; 0 1 0 0; 0 0 -1 -2;
/// 0 0 -1 0] (a projection with w = -z).
fn transform_state() -> GlState {
    let mut gl = GlState::default();
    gl.modelview[0] = [
        2.0, 0.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 2.0, 0.0, 1.0, -1.0, 0.0, 1.0,
    ];
    gl.projection = [
        1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, -1.0, -1.0, 0.0, 0.0, -2.0, 0.0,
    ];
    // Eye-space planes: 0 and 2 enabled, 1 set but disabled.
    gl.clip_planes[0] = ClipPlane {
        plane: [0.0, 1.0, 0.0, -1.0],
        enabled: true,
    };
    gl.clip_planes[1] = ClipPlane {
        plane: [1.0, 0.0, 0.0, 0.0],
        enabled: false,
    };
    gl.clip_planes[2] = ClipPlane {
        plane: [0.0, 0.0, -1.0, 4.0],
        enabled: true,
    };
    gl
}

const POSITION_INVARIANT: &str = "!!NVvp4.0
OPTION ARB_position_invariant;
MOV result.color, vertex.color;
END
";

#[test]
fn position_invariant_programs_transform_by_the_mvp_and_clip_against_enabled_planes() {
    let gl = transform_state();
    // MVP = P x M by hand: rows (2 0 0 1), (0 2 0 -1), (0 0 -2 -2), (0 0 -2 0).
    let block = gl.to_block();
    assert_eq!(
        block.get("state.matrix.mvp.row[2]").unwrap(),
        [0.0, 0.0, -2.0, -2.0]
    );
    assert_eq!(
        block.get("state.matrix.mvp.row[3]").unwrap(),
        [0.0, 0.0, -2.0, 0.0]
    );
    let vertices = [[1.0, 2.0, 3.0, 1.0], [-1.0, 0.5, 0.0, 2.0]];
    // (1, 2, 3, 1): clip (2+1, 4-1, -6-2, -6) = (3, 3, -8, -6); eye
    // M v = (3, 3, 6, 1): plane 0 (0,1,0,-1) gives 2, plane 2 (0,0,-1,4)
    // gives -2; plane 1 is disabled (0), 3 to 5 are zero and disabled.
    // (-1, 0.5, 0, 2): clip (0, -1, -4, 0); eye (0, -1, 0, 2): plane 0
    // gives -3, plane 2 gives 8.
    let want_position = [[3.0, 3.0, -8.0, -6.0], [0.0, -1.0, -4.0, 0.0]];
    let want_clip = [
        [2.0, 0.0, -2.0, 0.0, 0.0, 0.0],
        [-3.0, 0.0, 8.0, 0.0, 0.0, 0.0],
    ];
    for env in ENVS {
        let compiled = compile(POSITION_INVARIANT, &options(env));
        let Some(dev) = harness::device_or_skip() else {
            return;
        };
        let job = VertexJob {
            state: rows(&gl),
            ..VertexJob::new(
                vertices
                    .iter()
                    .map(|v| {
                        vec![
                            Input::float(0, *v),
                            Input::float(3, [0.5, 0.25, 0.125, 1.0]),
                        ]
                    })
                    .collect(),
                vec![
                    Capture::Position,
                    Capture::ClipDistance,
                    Capture::Location(0),
                ],
            )
        };
        let out = dev
            .run_vertex(&compiled.spirv, &job)
            .unwrap_or_else(|e| panic!("run failed ({env:?}): {e}"));
        for (v, vertex) in vertices.iter().enumerate() {
            assert_eq!(
                out.position_f32(v),
                want_position[v],
                "position {v} ({env:?})"
            );
            let clip: Vec<f32> = out.vertices[v]
                .clip_distance
                .clone()
                .unwrap()
                .into_iter()
                .map(f32::from_bits)
                .collect();
            assert_eq!(clip, want_clip[v], "clip distances {v} ({env:?})");
            assert_eq!(out.location_f32(v, 0), [0.5, 0.25, 0.125, 1.0], "{env:?}");
            // The interpreter computes the same.
            let (program, _) = nvp4c::check(POSITION_INVARIANT, &options(env)).unwrap();
            let mut inputs = Inputs::default();
            inputs.set("vertex.position", fbits(*vertex)).unwrap();
            state_inputs(&gl, &mut inputs);
            let outcome = interp::run(&program, &inputs, &RunOptions::default()).unwrap();
            assert_eq!(
                outcome.results["result.position"].floats(),
                want_position[v]
            );
            for (n, d) in want_clip[v].iter().enumerate() {
                assert_eq!(
                    outcome.results[&format!("result.clip[{n}]")].floats()[0],
                    *d
                );
            }
        }
    }
}

#[test]
fn position_invariant_matches_a_fixed_function_style_program_bit_for_bit() {
    // ARB_vertex_program issue 64: the option exists so that a program's
    // position matches the conventional transform. Here that is the DP4
    // of each MVP row with the position (the ARB-style program below),
    // with inputs and a matrix that round.
    let explicit = "!!NVvp4.0
PARAM mvp[] = { state.matrix.mvp };
DP4 result.position.x, mvp[0], vertex.position;
DP4 result.position.y, mvp[1], vertex.position;
DP4 result.position.z, mvp[2], vertex.position;
DP4 result.position.w, mvp[3], vertex.position;
END
";
    let mut gl = GlState::default();
    gl.modelview[0] = std::array::from_fn(|i| 0.1 + (i as f32) / 3.0);
    gl.projection = std::array::from_fn(|i| 1.0 / (i as f32 + 1.7));
    let vertices: Vec<[f32; 4]> = (0..12)
        .map(|i| {
            let x = i as f32;
            [x / 7.0 - 0.3, 1.0 / (x + 1.1), x * 0.37, 1.0 + x / 11.0]
        })
        .collect();
    let mut opts = options(TargetEnv::Vulkan1_0);
    opts.user_clip_planes = 0;
    let invariant = compile(POSITION_INVARIANT, &opts);
    let fixed = compile(explicit, &opts);
    // No user clipping asked for: no ClipDistance (no shaderClipDistance
    // needed).
    assert!(!invariant
        .reflection
        .outputs
        .iter()
        .any(|o| o.built_in == Some(nvp4c::reflect::BuiltIn::ClipDistance)));
    let position = invariant
        .reflection
        .outputs
        .iter()
        .find(|o| o.built_in == Some(nvp4c::reflect::BuiltIn::Position))
        .unwrap();
    assert!(position.invariant);
    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    let job = VertexJob {
        state: rows(&gl),
        ..VertexJob::new(
            vertices
                .iter()
                .map(|v| vec![Input::float(0, *v), Input::float(3, [1.0; 4])])
                .collect(),
            vec![Capture::Position],
        )
    };
    let a = dev.run_vertex(&invariant.spirv, &job).unwrap();
    let b = dev.run_vertex(&fixed.spirv, &job).unwrap();
    for v in 0..vertices.len() {
        assert_eq!(a.position(v), b.position(v), "vertex {v}");
    }
}

/// Fog cases: (fog coordinate, expected factor f as the spec defines it).
fn fog_program(option: &str) -> String {
    format!("!!NVfp4.0\nOPTION {option};\nMOV result.color, fragment.color;\nEND\n")
}

fn fog_state() -> GlState {
    GlState {
        fog: Fog {
            color: [0.0, 0.0, 1.0, 0.5],
            density: 0.5,
            start: 1.0,
            end: 5.0,
        },
        ..GlState::default()
    }
}

const COLOR: [f32; 4] = [1.0, 0.5, 0.25, 0.75];

/// C' = f C + (1 - f) C_f on red, green and blue; alpha unchanged.
fn fogged(f: f32) -> [f32; 4] {
    let fog = fog_state().fog.color;
    let mut v = COLOR;
    for c in 0..3 {
        v[c] = f * COLOR[c] + (1.0 - f) * fog[c];
    }
    v
}

fn run_fog(option: &str, coords: &[f32], env: TargetEnv) -> Option<Vec<[f32; 4]>> {
    let src = fog_program(option);
    let compiled = compile(&src, &options(env));
    // fragment.fogcoord is an input at Location 4 whether or not the
    // program reads it (docs/interface.md).
    assert!(compiled
        .reflection
        .inputs
        .iter()
        .any(|i| i.location == Some(4) && i.bindings == ["fragment.fogcoord"]));
    let dev = harness::device_or_skip()?;
    let cases = coords
        .iter()
        .map(|&c| vec![Input::float(0, COLOR), Input::float(4, [c, 0.0, 0.0, 0.0])])
        .collect();
    let job = FragmentJob {
        state: rows(&fog_state()),
        ..FragmentJob::new(cases)
    };
    let out = dev
        .run_fragment(&compiled.spirv, &job)
        .unwrap_or_else(|e| panic!("run failed ({env:?}): {e}"));
    Some((0..coords.len()).map(|i| out.f32(i)).collect())
}

fn interp_fog(option: &str, c: f32) -> [f32; 4] {
    let (program, _) = nvp4c::check(&fog_program(option), &nvp4c::Options::default()).unwrap();
    let mut inputs = Inputs::default();
    inputs.set("fragment.color", fbits(COLOR)).unwrap();
    inputs
        .set("fragment.fogcoord", fbits([c, 0.0, 0.0, 0.0]))
        .unwrap();
    state_inputs(&fog_state(), &mut inputs);
    interp::run(&program, &inputs, &RunOptions::default())
        .unwrap()
        .results["result.color"]
        .floats()
}

fn close(a: [f32; 4], b: [f32; 4], tolerance: f32) -> bool {
    a.iter().zip(&b).all(|(x, y)| (x - y).abs() <= tolerance)
}

#[test]
fn linear_fog_blends_result_color_with_the_fog_colour() {
    // f = (end - c) / (end - start) = (5 - c) / 4, clamped to [0, 1]: all
    // exact in binary, so the device must match bit for bit.
    let cases = [
        (0.0, 1.0),
        (1.0, 1.0),
        (3.0, 0.5),
        (4.0, 0.25),
        (5.0, 0.0),
        (7.0, 0.0),
    ];
    // By hand, c = 3: (0.5 * 1, 0.5 * 0.5, 0.5 * 0.25 + 0.5 * 1, 0.75).
    assert_eq!(fogged(0.5), [0.5, 0.25, 0.625, 0.75]);
    let coords: Vec<f32> = cases.iter().map(|c| c.0).collect();
    for env in ENVS {
        let Some(got) = run_fog("ARB_fog_linear", &coords, env) else {
            return;
        };
        for (i, &(c, f)) in cases.iter().enumerate() {
            assert_eq!(got[i], fogged(f), "c = {c} ({env:?})");
            assert_eq!(
                interp_fog("ARB_fog_linear", c),
                fogged(f),
                "interpreter, c = {c}"
            );
        }
    }
}

#[test]
fn exponential_fog_factors_follow_gl() {
    // EXP: f = e^(-density c), density 0.5. EXP2: f = e^(-(density c)^2).
    let e = std::f32::consts::E;
    let exp_cases = [(0.0f32, 1.0f32), (2.0, 1.0 / e), (4.0, 1.0 / (e * e))];
    let exp2_cases = [
        (0.0f32, 1.0f32),
        (2.0, 1.0 / e),
        (4.0, 1.0 / (e * e * e * e)),
    ];
    // Vulkan's Exp is within 3 + 2|x| ULP; the blend adds three roundings.
    let tolerance = 4e-6;
    for env in ENVS {
        for (option, cases) in [("ARB_fog_exp", exp_cases), ("ARB_fog_exp2", exp2_cases)] {
            let coords: Vec<f32> = cases.iter().map(|c| c.0).collect();
            let Some(got) = run_fog(option, &coords, env) else {
                return;
            };
            for (i, &(c, f)) in cases.iter().enumerate() {
                let want = fogged(f);
                assert!(
                    close(got[i], want, tolerance),
                    "{option} c = {c}: {:?} vs {want:?} ({env:?})",
                    got[i]
                );
                let interp = interp_fog(option, c);
                assert!(
                    close(interp, want, tolerance),
                    "interpreter {option} c = {c}: {interp:?}"
                );
                assert!(
                    close(got[i], interp, tolerance),
                    "device vs interpreter {option} c = {c}"
                );
                assert_eq!(got[i][3], COLOR[3], "alpha is not fogged");
            }
        }
    }
}

#[test]
fn fog_leaves_an_integer_colour_alone() {
    let src = "!!NVfp4.0
OPTION ARB_fog_linear;
INT OUTPUT o = result.color;
MOV.S o, {1, 2, 3, 4};
END
";
    let compiled = compile(src, &options(TargetEnv::Vulkan1_0));
    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    let job = FragmentJob {
        state: rows(&fog_state()),
        ..FragmentJob::new(vec![vec![Input::float(4, [3.0, 0.0, 0.0, 0.0])]])
    };
    let out = dev.run_fragment(&compiled.spirv, &job).unwrap();
    assert_eq!(out.color(0, 0), [1, 2, 3, 4]);
}

#[test]
fn two_sided_color_reads_the_back_colours_on_back_facing_primitives() {
    use ash::vk;
    let vp = "!!NVvp4.0
MOV result.position, vertex.position;
MOV result.color, {1, 0, 0, 1};
MOV result.color.secondary, {0, 1, 0, 1};
MOV result.color.back, {0, 0, 1, 1};
MOV result.color.back.secondary, {1, 1, 0, 1};
END
";
    let fp = "!!NVfp4.0
OPTION ARB_draw_buffers;
MOV result.color[0], fragment.color;
MOV result.color[1], fragment.color.secondary;
MOV result.color[2], fragment.facing;
END
";
    let vs = compile(vp, &options(TargetEnv::Vulkan1_0));
    let mut two_sided = options(TargetEnv::Vulkan1_0);
    two_sided.two_sided_color = true;
    // Two triangles of opposite winding: the left one and the right one.
    let v = |x: f32, y: f32| vec![Input::float(0, [x, y, 0.0, 1.0])];
    let vertices = vec![
        v(-0.9, -0.5),
        v(-0.1, -0.5),
        v(-0.5, 0.5),
        v(0.1, -0.5),
        v(0.5, 0.5),
        v(0.9, -0.5),
    ];
    for (fs_options, selects) in [(options(TargetEnv::Vulkan1_0), false), (two_sided, true)] {
        let fs = compile(fp, &fs_options);
        let Some(dev) = harness::device_or_skip() else {
            return;
        };
        let job = harness::RasterJob {
            descriptor_set: 0,
            ..harness::RasterJob::new(vertices.clone(), vk::PrimitiveTopology::TRIANGLE_LIST)
        };
        let out = dev.run_raster(&vs.spirv, None, &fs.spirv, &job).unwrap();
        let mut facings = Vec::new();
        for x in [8u32, 24] {
            let facing = harness::to_f32(out.color(x, 16, 2))[0];
            let back = selects && facing < 0.0;
            let (primary, secondary) = if back {
                ([0.0, 0.0, 1.0, 1.0], [1.0, 1.0, 0.0, 1.0])
            } else {
                ([1.0, 0.0, 0.0, 1.0], [0.0, 1.0, 0.0, 1.0])
            };
            assert_eq!(
                harness::to_f32(out.color(x, 16, 0)),
                primary,
                "x = {x}, two-sided = {selects}"
            );
            assert_eq!(
                harness::to_f32(out.color(x, 16, 1)),
                secondary,
                "x = {x}, two-sided = {selects}"
            );
            facings.push(facing);
        }
        facings.sort_by(f32::total_cmp);
        assert_eq!(facings, [-1.0, 1.0], "one triangle of each facing");
    }
    // The interpreter: a back-facing fragment reads fragment.color.back.
    let (program, _) = nvp4c::check(fp, &two_sided_options()).unwrap();
    let mut inputs = Inputs::default();
    inputs
        .set("fragment.color", fbits([1.0, 0.0, 0.0, 1.0]))
        .unwrap();
    inputs
        .set("fragment.color.back", fbits([0.0, 0.0, 1.0, 1.0]))
        .unwrap();
    for (facing, want) in [(1.0, [1.0, 0.0, 0.0, 1.0]), (-1.0, [0.0, 0.0, 1.0, 1.0])] {
        inputs
            .set("fragment.facing", fbits([facing, 0.0, 0.0, 1.0]))
            .unwrap();
        let run = RunOptions::from_options(&two_sided_options());
        let outcome = interp::run(&program, &inputs, &run).unwrap();
        assert_eq!(
            outcome.results["result.color"].floats(),
            want,
            "facing {facing}"
        );
    }
}

fn two_sided_options() -> nvp4c::Options {
    let mut o = nvp4c::Options::default();
    o.two_sided_color = true;
    o
}

#[test]
fn precision_hint_fastest_programs_compute_within_half_precision() {
    // ARB_precision_hint_fastest allows "possibly reduced precision": the
    // results are RelaxedPrecision, at least 16-bit floats (11-bit
    // mantissa). Lavapipe computes them at 32 bits.
    let src = "!!NVfp4.0
OPTION ARB_precision_hint_fastest;
TEMP t;
MUL t, fragment.texcoord[0], {3, 0.5, 0.25, 1};
ADD result.color, t, 0.125;
END
";
    let compiled = compile(src, &options(TargetEnv::Vulkan1_0));
    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    let job = FragmentJob::new(vec![vec![Input::float(5, [1.5, 2.0, -4.0, 0.75])]]);
    let out = dev.run_fragment(&compiled.spirv, &job).unwrap();
    // (4.5, 1, -1, 0.75) + 0.125
    let want = [4.625, 1.125, -0.875, 0.875];
    for (got, want) in out.f32(0).iter().zip(want) {
        assert!((got - want).abs() <= want.abs() / 1024.0, "{got} vs {want}");
    }
}
