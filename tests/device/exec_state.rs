//! Execution tests of the GL state bindings (NV_gpu_program4 section
//! 2.X.3.3, Tables X.3 to X.11) read from nvp4c's `State` block (binding 2;
//! docs/interface.md, "The State block") on the Vulkan device.
//!
//! The block is filled so that component c of the row at byte offset o
//! holds `o / 4 + c + 0.25`: every value names the offset it was read from.
//! The offsets below are copied from the table in docs/interface.md, not
//! computed by the compiler's code, so a layout change fails here.

use crate::harness;
use crate::harness::{fbits, Capture, FragmentJob, Input, VertexJob};
use nvp4c::TargetEnv;

const ENVS: [TargetEnv; 2] = [TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_3];
const STATE_BYTES: u32 = 6528;

fn compile(src: &str, env: TargetEnv) -> Vec<u32> {
    let mut o = nvp4c::Options::default();
    o.target_env = env;
    match nvp4c::compile(src, &o) {
        Ok(c) => c.spirv,
        Err(d) => panic!("compile failed ({env:?}):\n{}", d.render("t", src, false)),
    }
}

/// The value the test block holds at byte `offset`.
fn at(offset: u32) -> f32 {
    (offset / 4) as f32 + 0.25
}

/// The row at byte `offset`.
fn row(offset: u32) -> [f32; 4] {
    [0, 4, 8, 12].map(|c| at(offset + c))
}

/// Row `r` of the transpose of the matrix whose rows start at `offset`:
/// its column `r`.
fn column(offset: u32, r: u32) -> [f32; 4] {
    [0, 16, 32, 48].map(|k| at(offset + k + 4 * r))
}

fn with_w1(v: [f32; 4]) -> [f32; 4] {
    [v[0], v[1], v[2], 1.0]
}

fn test_state() -> Vec<[u32; 4]> {
    (0..STATE_BYTES / 16).map(|r| fbits(row(16 * r))).collect()
}

/// (binding, expected value) pairs; the fragment program reads them all
/// through one PARAM array with relative addressing.
fn bindings() -> Vec<(&'static str, [f32; 4])> {
    vec![
        ("state.matrix.mvp.row[1]", row(1168)),
        ("state.matrix.modelview[1].inverse.row[2]", row(224)),
        ("state.matrix.projection.transpose.row[3]", column(1024, 3)),
        ("state.matrix.texture[2].invtrans.row[0]", column(1600, 0)),
        ("state.matrix.program[7].row[3]", row(3248)),
        ("state.matrix.modelview.row[0]", row(0)),
        // Table X.3: shininess is (s, 0, 0, 1).
        ("state.material.back.shininess", [at(3472), 0.0, 0.0, 1.0]),
        ("state.material.emission", row(3376)),
        ("state.lightmodel.scenecolor", row(3504)),
        ("state.lightmodel.back.scenecolor", row(3520)),
        ("state.lightmodel.ambient", row(3488)),
        ("state.light[3].spot.direction", row(3952)),
        // Table X.4: half is (x, y, z, 1).
        ("state.light[7].half", with_w1(row(4416))),
        ("state.light[0].attenuation", row(3600)),
        ("state.lightprod[5].back.diffuse", row(4976)),
        ("state.lightprod[0].specular", row(4464)),
        ("state.texgen[1].object.r", row(5424)),
        ("state.texgen.eye.q", row(5248)),
        ("state.texenv[6].color", row(6320)),
        ("state.fog.color", row(6352)),
        ("state.fog.params", row(6368)),
        ("state.clip[5].plane", row(6464)),
        ("state.point.size", row(6480)),
        // Table X.8 and X.10: (a, b, c, 1) and (n, f, d, 1).
        ("state.point.attenuation", with_w1(row(6496))),
        ("state.depth.range", with_w1(row(6512))),
    ]
}

#[test]
fn every_kind_of_state_binding_reads_its_documented_offset() {
    let items = bindings();
    let list: Vec<&str> = items.iter().map(|(b, _)| *b).collect();
    let src = format!(
        "!!NVfp4.0\n\
         PARAM s[] = {{ {} }};\n\
         INT TEMP a;\n\
         FLR.S a, fragment.texcoord[0];\n\
         MOV result.color, s[a.x];\n\
         END\n",
        list.join(", ")
    );
    for env in ENVS {
        let spirv = compile(&src, env);
        let Some(dev) = harness::device_or_skip() else {
            return;
        };
        let cases = (0..items.len())
            .map(|i| vec![Input::float(5, [i as f32, 0.0, 0.0, 0.0])])
            .collect();
        let job = FragmentJob {
            state: test_state(),
            ..FragmentJob::new(cases)
        };
        let out = dev
            .run_fragment(&spirv, &job)
            .unwrap_or_else(|e| panic!("run failed ({env:?}): {e}\n{src}"));
        for (i, (binding, want)) in items.iter().enumerate() {
            assert_eq!(out.f32(i), *want, "{binding} ({env:?})");
        }
    }
}

#[test]
fn whole_matrices_index_relatively_and_clamp() {
    // A matrix bound whole is rows 0..3 (section 2.X.3.3); m[a.x + 1] with
    // a.x = -1..4 reads rows 0, 1, 2, 3, 3 (clamped) and, for a.x = -7,
    // row 0 (clamped). The transposed one reads columns.
    let src = "!!NVfp4.0
OPTION ARB_draw_buffers;
PARAM m[] = { state.matrix.program[2] };
PARAM t[] = { state.matrix.texture[1].transpose };
INT TEMP a;
OUTPUT o0 = result.color[0];
OUTPUT o1 = result.color[1];
INT OUTPUT o2 = result.color[2];
FLR.S a, fragment.texcoord[0];
MOV o0, m[a.x + 1];
MOV o1, t[a.x + 1];
MOV.S o2, state.depth.range;
END
";
    // program[2] is at 2304 + 2 * 128 = 2560; texture[1] at 1280 + 128.
    let xs = [-1, 0, 1, 2, 3, -7];
    let rows = [0u32, 1, 2, 3, 3, 0];
    for env in ENVS {
        let spirv = compile(src, env);
        let Some(dev) = harness::device_or_skip() else {
            return;
        };
        let cases = xs
            .iter()
            .map(|&x| vec![Input::float(5, [x as f32, 0.0, 0.0, 0.0])])
            .collect();
        let job = FragmentJob {
            state: test_state(),
            ..FragmentJob::new(cases)
        };
        let out = dev
            .run_fragment(&spirv, &job)
            .unwrap_or_else(|e| panic!("run failed ({env:?}): {e}"));
        for (i, &r) in rows.iter().enumerate() {
            assert_eq!(
                out.color_f32(i, 0),
                row(2560 + 16 * r),
                "m, case {i} ({env:?})"
            );
            assert_eq!(
                out.color_f32(i, 1),
                column(1408, r),
                "t, case {i} ({env:?})"
            );
            // Read as integers, the state is its float bits; w is 1.0.
            assert_eq!(
                out.color(i, 2),
                fbits(with_w1(row(6512))),
                "depth.range bits ({env:?})"
            );
        }
    }
}

#[test]
fn vertex_program_transforms_by_the_mvp_rows() {
    // The ARB-style transform: result.position.c = dot(mvp.row[c], v).
    let src = "!!NVvp4.0
PARAM mvp[] = { state.matrix.mvp };
DP4 result.position.x, mvp[0], vertex.position;
DP4 result.position.y, mvp[1], vertex.position;
DP4 result.position.z, mvp[2], vertex.position;
DP4 result.position.w, mvp[3], vertex.position;
MUL result.texcoord[0], state.light[2].half, state.fog.params;
END
";
    // The MVP rows: a small integer matrix, exact in floats. The block is
    // filled by binding name through nvp4c::state (the offsets are the
    // first test's business).
    let mvp = [
        [2.0, 0.0, 0.0, 1.0],
        [0.0, 3.0, 0.0, -1.0],
        [0.0, 0.0, -1.0, 0.5],
        [1.0, 1.0, 1.0, 1.0],
    ];
    let mut block = nvp4c::state::Block::new();
    for (r, v) in mvp.iter().enumerate() {
        block
            .set(&format!("state.matrix.mvp.row[{r}]"), *v)
            .unwrap();
    }
    // light[2].half's w reads 1.0 whatever is stored.
    block
        .set("state.light[2].half", [0.5, 0.25, -1.0, 7.0])
        .unwrap();
    block.set("state.fog.params", [2.0, 4.0, 8.0, 3.0]).unwrap();
    let state = harness::state_rows(&block);
    let vertices = [[1.0, 2.0, 3.0, 1.0], [-1.0, 0.5, 0.0, 2.0]];
    for env in ENVS {
        let spirv = compile(src, env);
        let Some(dev) = harness::device_or_skip() else {
            return;
        };
        let job = VertexJob {
            state: state.clone(),
            ..VertexJob::new(
                vertices.iter().map(|v| vec![Input::float(0, *v)]).collect(),
                vec![Capture::Position, Capture::Location(5)],
            )
        };
        let out = dev
            .run_vertex(&spirv, &job)
            .unwrap_or_else(|e| panic!("run failed ({env:?}): {e}"));
        // (1,2,3,1): (2+1, 6-1, -3+0.5, 1+2+3+1) = (3, 5, -2.5, 7)
        assert_eq!(out.position_f32(0), [3.0, 5.0, -2.5, 7.0], "{env:?}");
        // (-1,0.5,0,2): (-2+2, 1.5-2, 0+1, -1+0.5+0+2) = (0, -0.5, 1, 1.5)
        assert_eq!(out.position_f32(1), [0.0, -0.5, 1.0, 1.5], "{env:?}");
        // half (0.5, 0.25, -1, 1) * params (2, 4, 8, 3) = (1, 1, -8, 3).
        for v in 0..2 {
            assert_eq!(out.location_f32(v, 5), [1.0, 1.0, -8.0, 3.0], "{env:?}");
        }
    }
}
