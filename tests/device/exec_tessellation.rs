//! Execution tests of tessellation programs (`!!NVtcp5.0`, `!!NVtep5.0`,
//! NV_tessellation_program5) on the Vulkan device: a vertex program, a
//! tessellation control program and a tessellation evaluation program drawn
//! as one patch, the vertices the tessellator generates captured with
//! transform feedback as the evaluation program writes them
//! (`Device::run_tessellation`, tests/device/harness/geometry.rs).
//!
//! The tessellator's vertex order is implementation-defined (Vulkan,
//! "Tessellation"), so generated vertices are compared as sets. Levels are
//! chosen so that every tessellation coordinate is exact (0, 1) or a ratio
//! the spec fixes (isolines: u = k / outer[1]); expected values are worked
//! out in the comments from NV_tessellation_program5 and Vulkan's
//! "Tessellation Primitive Generation".

use crate::harness;
use crate::harness::{Capture, GeometryJob, Input, VertexOutput};

fn compile(src: &str) -> Vec<u32> {
    match nvp4c::compile(src, &nvp4c::Options::default()) {
        Ok(c) => c.spirv,
        Err(d) => panic!(
            "compile failed:\n{}\n--- program ---\n{src}",
            d.render("test", src, false)
        ),
    }
}

/// Passes `vertex.attrib[0]` as the position and `vertex.attrib[1]` as
/// `result.texcoord[0]` and `[1]` (the cgc programs read texcoord[1] as
/// their normal).
const VERTEX: &str = "!!NVvp5.0
MOV result.position, vertex.attrib[0];
MOV result.texcoord[0], vertex.attrib[1];
MOV result.texcoord[1], vertex.attrib[1];
END
";

/// Patch vertex i: position (10·i, 100·i, 1000·i, 1), texcoord (i, 2i, 3i, 4i).
fn patch(n: usize) -> Vec<Vec<Input>> {
    (0..n)
        .map(|i| {
            let f = i as f32;
            vec![
                Input::float(0, [10.0 * f, 100.0 * f, 1000.0 * f, 1.0]),
                Input::float(1, [f, 2.0 * f, 3.0 * f, 4.0 * f]),
            ]
        })
        .collect()
}

fn floats(bits: [u32; 4]) -> [f32; 4] {
    bits.map(f32::from_bits)
}

fn run(tcp: &str, tep: &str, patch_vertices: u32, capture: Vec<Capture>) -> Option<VertexOutput> {
    let device = harness::device_or_skip()?;
    let job = GeometryJob {
        vertices: patch(patch_vertices as usize),
        capture,
        descriptor_set: 4,
        ..Default::default()
    };
    Some(
        device
            .run_tessellation(
                &compile(VERTEX),
                &compile(tcp),
                &compile(tep),
                patch_vertices,
                &job,
            )
            .unwrap_or_else(|e| panic!("{e}")),
    )
}

/// Sorted captured values of `f` over the records, for set comparison.
fn sorted(out: &VertexOutput, f: impl Fn(&harness::VertexRecord) -> [f32; 4]) -> Vec<[f32; 4]> {
    let mut v: Vec<[f32; 4]> = out.vertices.iter().map(f).collect();
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v
}

fn close(a: &[[f32; 4]], b: &[[f32; 4]]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| {
            x.iter()
                .zip(y)
                .all(|(p, q)| (p - q).abs() <= 1e-5 * (1.0 + q.abs()))
        })
}

/// The control program of the triangle tests: three output vertices, each
/// copying its input vertex's position and texcoord[0] (selected with
/// primitive.invocation, the NV_tessellation_program5 way cgc writes it),
/// writing texcoord[1] = (invocation, 0, 0, 1), all levels 1, and a patch
/// attribute (7, 8, 9, 10).
const TRIANGLE_CONTROL: &str = "!!NVtcp5.0
VERTICES_OUT 3;
ATTRIB pos = vertex.position;
ATTRIB tex[] = { vertex.texcoord[0..0] };
INT TEMP id;
TEMP t;
MOV.S id.x, primitive.invocation;
MOV result.position, pos[id.x];
MOV result.texcoord[0], tex[id.x][0];
I2F t.x, id.x;
MOV result.texcoord[1], {0, 0, 0, 1};
MOV result.texcoord[1].x, t.x;
MOV result.patch.tessouter[0].x, 1;
MOV result.patch.tessouter[1].x, 1;
MOV result.patch.tessouter[2].x, 1;
MOV result.patch.tessinner[0].x, 1;
MOV result.patch.attrib[0], {7, 8, 9, 10};
END
";

#[test]
fn a_triangle_patch_with_all_levels_one_generates_its_three_corners() {
    // Vulkan "Triangle Tessellation": inner and outer levels 1 give a
    // single triangle whose corners have tessellation coordinates (1,0,0),
    // (0,1,0), (0,0,1). The evaluation program weights the three patch
    // positions by (u, v, w), so the corners are exactly the positions of
    // vertices 0, 1 and 2: (0,0,0,1), (10,100,1000,1), (20,200,2000,1).
    let tep = "!!NVtep5.0
TESS_MODE TRIANGLES;
TESS_SPACING EQUAL;
TESS_VERTEX_ORDER CCW;
TEMP p;
MUL p, vertex.tesscoord.x, vertex[0].position;
MAD p, vertex.tesscoord.y, vertex[1].position, p;
MAD result.position, vertex.tesscoord.z, vertex[2].position, p;
END
";
    let Some(out) = run(TRIANGLE_CONTROL, tep, 3, vec![Capture::Position]) else {
        return;
    };
    let got = sorted(&out, |r| floats(r.position.unwrap()));
    let want = [
        [0.0, 0.0, 0.0, 1.0],
        [10.0, 100.0, 1000.0, 1.0],
        [20.0, 200.0, 2000.0, 1.0],
    ];
    assert!(close(&got, &want), "{got:?}");
}

#[test]
fn control_results_and_patch_attributes_reach_the_evaluation_program() {
    // Point mode: each of the three corners once. At corner k the
    // evaluation program writes
    //   texcoord[0] = Σ_m tesscoord[m] · vertex[m].texcoord[1]·(1, 10, 100)[m]
    //               = (k·(1, 10, 100)[k]) in x: 0, 10, 200
    //     (vertex[m].texcoord[1].x is invocation m's id, written by the
    //     control program);
    //   texcoord[1] = primitive.patch.attrib[0] = (7, 8, 9, 10);
    //   texcoord[2] = (tessouter[0], tessouter[2], tessinner[0], 0) = (1, 1, 1, 0);
    //   texcoord[3] = vertex[2].texcoord[0] through a per-vertex array
    //     variable indexed [2][0] = vertex 2's attrib[1] = (2, 4, 6, 8).
    let tep = "!!NVtep5.0
TESS_MODE TRIANGLES;
TESS_POINT_MODE;
ATTRIB tex[] = { vertex.texcoord[0..1] };
ATTRIB levels[] = { primitive.tessouter[0..2] };
TEMP t;
MOV result.pointsize.x, 1;
MOV result.position, vertex.tesscoord;
MUL t.x, vertex.tesscoord.x, vertex[0].texcoord[1].x;
MUL t.y, vertex.tesscoord.y, vertex[1].texcoord[1].x;
MUL t.z, vertex.tesscoord.z, vertex[2].texcoord[1].x;
DP3 result.texcoord[0], t, {1, 10, 100};
MOV result.texcoord[1], primitive.patch.attrib[0];
MOV result.texcoord[2], {0, 0, 0, 0};
MOV result.texcoord[2].x, levels[0].x;
MOV result.texcoord[2].y, levels[2].x;
MOV result.texcoord[2].z, primitive.tessinner[0].x;
MOV result.texcoord[3], tex[2][0];
END
";
    let capture = (5..=8).map(Capture::Location).collect();
    let Some(out) = run(TRIANGLE_CONTROL, tep, 3, capture) else {
        return;
    };
    assert_eq!(out.vertices.len(), 3, "point mode: one record per corner");
    let mut xs: Vec<f32> = out
        .vertices
        .iter()
        .map(|r| f32::from_bits(r.locations[&5][0]))
        .collect();
    xs.sort_by(|a, b| a.partial_cmp(b).unwrap());
    assert_eq!(xs, [0.0, 10.0, 200.0]);
    for r in &out.vertices {
        assert_eq!(floats(r.locations[&6]), [7.0, 8.0, 9.0, 10.0]);
        assert_eq!(floats(r.locations[&7]), [1.0, 1.0, 1.0, 0.0]);
        assert_eq!(floats(r.locations[&8]), [2.0, 4.0, 6.0, 8.0]);
    }
}

#[test]
fn isolines_split_the_line_into_outer1_equal_segments() {
    // Vulkan "Isoline Tessellation": outer[0] = 1 line (v = 0), outer[1] = 3
    // segments with equal spacing: u = 0, 1/3, 2/3, 1. Point mode emits
    // each of the four vertices once; the evaluation program writes
    // (u, v, 0, 1) as the position. The control program here reads its
    // own output patch back: `vertex.out[1].texcoord[0]` after every
    // invocation wrote its texcoord[0] (NV_tessellation_program5's lock-step
    // model makes the write visible to the next instruction; Vulkan needs a
    // barrier, which nvp4c emits before the reading instruction), and
    // passes it on as patch attribute 1. (Point-mode evaluation programs
    // write result.pointsize: Vulkan requires PointSize of a point-mode
    // tessellation shader when shaderTessellationAndGeometryPointSize is on,
    // as it is on lavapipe; docs/interface.md.)
    let tcp = "!!NVtcp5.0
VERTICES_OUT 2;
INT TEMP id;
MOV.S id.x, primitive.invocation;
MOV result.position, vertex[0].position;
MOV result.texcoord[0], {0, 0, 0, 0};
MOV result.texcoord[0].x, 5;
MOV result.patch.tessouter[0].x, 1;
MOV result.patch.tessouter[1].x, 3;
MOV result.patch.attrib[1], vertex.out[1].texcoord[0];
END
";
    let tep = "!!NVtep5.0
TESS_MODE ISOLINES;
TESS_POINT_MODE;
MOV result.pointsize.x, 1;
MOV result.position, {0, 0, 0, 1};
MOV result.position.xy, vertex.tesscoord;
MOV result.texcoord[0], primitive.patch.attrib[1];
END
";
    let Some(out) = run(tcp, tep, 2, vec![Capture::Position, Capture::Location(5)]) else {
        return;
    };
    let got = sorted(&out, |r| floats(r.position.unwrap()));
    let third = 1.0f32 / 3.0;
    let want = [
        [0.0, 0.0, 0.0, 1.0],
        [third, 0.0, 0.0, 1.0],
        [2.0 * third, 0.0, 0.0, 1.0],
        [1.0, 0.0, 0.0, 1.0],
    ];
    assert!(close(&got, &want), "{got:?}");
    for r in &out.vertices {
        assert_eq!(floats(r.locations[&5]), [5.0, 0.0, 0.0, 0.0]);
    }
}

#[test]
fn cgc_phong_tessellation_control_and_evaluation_programs_run() {
    // cgc's gp5tcp/gp5tep output for tess_control_phong.cg and
    // tess_eval_phong.cg (tests/fixtures/cg): with every parameter zero
    // (eyePosition = 0, detail = 0, maxLevel = 0, alpha = 0, viewProj = 0)
    // the control program's levels are max(min(…, 0), 1) = 1 everywhere, so
    // the patch is one triangle; viewProj = 0 makes every generated
    // position (0, 0, 0, 0), and with alpha = 0 the normal written to
    // texcoord[0] is the normalized barycentric blend of the patch normals,
    // here texcoord[1] of vertices 0..2 = (i, 2i, 3i, 4i)·… — the
    // evaluation program's blended normal at each corner is that vertex's
    // own normal, normalized: vertex 0's is 0 (normalizing 0 is NaN in the
    // spec's RSQ(0) = +inf, 0·inf), so the check is on the count and the
    // positions only.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/cg");
    let tcp = std::fs::read_to_string(root.join("gp5tcp/tess_control_phong.tcp")).unwrap();
    let tep = std::fs::read_to_string(root.join("gp5tep/tess_eval_phong.tep")).unwrap();
    let device = match harness::device_or_skip() {
        Some(d) => d,
        None => return,
    };
    // The control program's parameters are in set 3, the evaluation
    // program's in set 4: both read the same (zero) program.local at set 4.
    let mut options = nvp4c::Options::default();
    options.layout.tess_control.set = 4;
    let tcp = nvp4c::compile(&tcp, &options).unwrap().spirv;
    let job = GeometryJob {
        vertices: patch(3),
        capture: vec![Capture::Position],
        descriptor_set: 4,
        ..Default::default()
    };
    let out = device
        .run_tessellation(&compile(VERTEX), &tcp, &compile(&tep), 3, &job)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.vertices.len(), 3, "one triangle");
    for r in &out.vertices {
        assert_eq!(floats(r.position.unwrap()), [0.0; 4]);
    }
}

/// The rendered proof (examples/tessellation/): a Cg-style gp5 vertex,
/// tessellation control, tessellation evaluation and fragment pipeline
/// draws one quad patch with corners at clip (±0.5, ±0.5) into a 32×32
/// target, every level 4 (`program.local[0]` of the control program).
///
/// Clip x maps to pixels as 16·(x + 1), so the patch covers pixels 8..24
/// and the evaluation program's u (its x = −0.5 + u) at the centre of
/// column px is u = (px + 0.5)/16 − 0.5. The colour's red is u², written
/// per generated vertex and interpolated linearly in between: with four
/// equal segments the vertices sit at u = 0, ¼, ½, ¾, 1 with u² = 0,
/// 0.0625, 0.25, 0.5625, 1. Column 13: u = 0.34375, in the segment
/// [¼, ½] at t = 0.375, so red = 0.0625 + 0.375·(0.25 − 0.0625) =
/// 0.1328125 (untessellated it would be 0.34375, the exact u² 0.1182).
/// Column 21: u = 0.84375, t = 0.375 in [¾, 1]: 0.5625 + 0.375·0.4375 =
/// 0.7265625. Green is v, linear, so exact: row 10 (y = (10.5/16 − 1),
/// v = y + 0.5 = 0.15625). Pixels outside the patch keep the clear value.
#[test]
fn a_cg_style_gp5_pipeline_renders_a_tessellated_patch() {
    let Some(device) = harness::device_or_skip() else {
        return;
    };
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/tessellation");
    let read = |f: &str| std::fs::read_to_string(root.join(f)).unwrap();
    let mut tcp_options = nvp4c::Options::default();
    tcp_options.layout.tess_control.set = 1;
    let tcp = nvp4c::compile(&read("patch.tcp"), &tcp_options)
        .unwrap()
        .spirv;
    let (vp, tep, fp) = (
        compile(&read("patch.vp")),
        compile(&read("patch.tep")),
        compile(&read("patch.fp")),
    );
    let corners = [[-0.5f32, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]];
    let mut job = harness::RasterJob::new(
        corners
            .iter()
            .map(|c| vec![Input::float(0, [c[0], c[1], 0.0, 1.0])])
            .collect(),
        ash::vk::PrimitiveTopology::PATCH_LIST,
    );
    job.local = vec![[4.0f32.to_bits(), 4.0f32.to_bits(), 0, 0]];
    let out = device
        .run_raster_tessellated(&vp, (&tcp, &tep, 4), &fp, &job)
        .unwrap_or_else(|e| panic!("{e}"));
    let near = |got: f32, want: f32| (got - want).abs() < 2e-3;
    let row = 10;
    let v = (row as f32 + 0.5) / 16.0 - 0.5;
    for (px, red) in [(13, 0.1328125f32), (21, 0.7265625)] {
        let c = out.f32(px, row);
        assert!(
            near(c[0], red) && near(c[1], v + 0.0) && c[3] == 1.0,
            "pixel ({px}, {row}): {c:?}"
        );
    }
    // Column 16: u = 0.53125 → [½, ¾] at t = 0.125: 0.25 + 0.125·0.3125.
    assert!(
        near(out.f32(16, row)[0], 0.25 + 0.125 * 0.3125),
        "{:?}",
        out.f32(16, row)
    );
    for (px, py) in [(7, 16), (24, 16), (16, 7), (16, 24), (0, 0), (31, 31)] {
        assert!(
            out.cleared(px, py),
            "pixel ({px}, {py}) is outside the patch"
        );
    }
    for (px, py) in [(8, 8), (23, 23), (8, 23), (23, 8)] {
        assert!(
            !out.cleared(px, py),
            "pixel ({px}, {py}) is inside the patch"
        );
    }
}

#[test]
fn point_mode_without_a_point_size_gets_the_default_of_1() {
    // A point-mode evaluation program that never writes result.pointsize:
    // GL's point size is then PointSize's default, 1.0 (NV_geometry_program4
    // section 3.3 as NV_tessellation_program5 leaves it); Vulkan with
    // shaderTessellationAndGeometryPointSize enabled wants PointSize
    // written by a point-mode evaluation shader with no geometry shader
    // after it (VUID-VkGraphicsPipelineCreateInfo-TessellationEvaluation-07723),
    // so nvp4c writes 1.0. Each of the three corners is one record.
    let tep = "!!NVtep5.0
TESS_MODE TRIANGLES;
TESS_POINT_MODE;
MOV result.position, vertex.tesscoord;
END
";
    let Some(out) = run(
        TRIANGLE_CONTROL,
        tep,
        3,
        vec![Capture::Position, Capture::PointSize],
    ) else {
        return;
    };
    assert_eq!(out.vertices.len(), 3, "point mode: one record per corner");
    for r in &out.vertices {
        assert_eq!(r.point_size, Some(1f32.to_bits()));
    }
}

/// `Options::transform_feedback` on a tessellation evaluation program
/// (docs/interface.md, "Transform feedback"): the module declares its own
/// capture, not patched by the harness, into transform feedback buffer 0.
/// Point mode over TRIANGLE_CONTROL's patch (all levels 1) generates the
/// three corners once each (Vulkan, "Triangle Tessellation"); at corner
/// (u, v, w) the program writes
///   result.position    = (u, v, w, 1),
///   result.texcoord[0] = u·P0 + v·P1 + w·P2, the patch positions
///     (10·i, 100·i, 1000·i, 1): P0, P1 or P2 at the corners,
///   result.texcoord[1] = primitive.patch.attrib[0] = (7, 8, 9, 10),
/// and, in point mode without `result.pointsize`, the point size 1.0
/// (docs/interface.md, "Point size"). The record: Position at 0,
/// texcoord[0] (Location 5) at 16, texcoord[1] (Location 6) at 32,
/// PointSize at 48: 52 bytes. The corners' order is the tessellator's, so
/// the records are compared as a set; each corner is also interpreted.
#[test]
fn an_evaluation_program_captures_its_record_with_options_transform_feedback() {
    let tep = "!!NVtep5.0
TESS_MODE TRIANGLES;
TESS_POINT_MODE;
TEMP t;
MOV result.position, {0, 0, 0, 1};
MOV result.position.xyz, vertex.tesscoord;
MUL t, vertex.tesscoord.x, vertex[0].position;
MAD t, vertex.tesscoord.y, vertex[1].position, t;
MAD result.texcoord[0], vertex.tesscoord.z, vertex[2].position, t;
MOV result.texcoord[1], primitive.patch.attrib[0];
END
";
    let mut options = nvp4c::Options::default();
    options.transform_feedback = true;
    let compiled = nvp4c::compile(tep, &options)
        .unwrap_or_else(|d| panic!("{}", d.render("t.tep", tep, false)));
    let mut offsets: Vec<(String, u32)> = compiled
        .reflection
        .outputs
        .iter()
        .map(|o| {
            let x = o.transform_feedback.expect("every result is captured");
            assert_eq!((x.stream, x.buffer, x.stride), (0, 0, 52), "{o:?}");
            (o.bindings.join(" "), x.offset)
        })
        .collect();
    offsets.sort_by_key(|o| o.1);
    let names: Vec<(&str, u32)> = offsets.iter().map(|(n, o)| (n.as_str(), *o)).collect();
    assert_eq!(
        names,
        [
            ("result.position", 0),
            ("result.texcoord[0]", 16),
            ("result.texcoord[1]", 32),
            ("result.pointsize", 48),
        ]
    );
    let Some(device) = harness::device_or_skip() else {
        return;
    };
    let job = GeometryJob {
        vertices: patch(3),
        descriptor_set: 4,
        ..Default::default()
    };
    let records = device
        .run_tessellation_declared(
            &compile(VERTEX),
            (&compile(TRIANGLE_CONTROL), &compiled.spirv, 3),
            &job,
            52,
        )
        .unwrap_or_else(|e| panic!("{e}"));
    let mut got: Vec<Vec<f32>> = records
        .iter()
        .map(|r| r.iter().map(|&w| f32::from_bits(w)).collect())
        .collect();
    got.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let corner = |k: usize| -> Vec<f32> {
        let mut uvw = [0.0; 3];
        uvw[k] = 1.0;
        let f = k as f32;
        let mut r = vec![uvw[0], uvw[1], uvw[2], 1.0];
        r.extend([10.0 * f, 100.0 * f, 1000.0 * f, 1.0]);
        r.extend([7.0, 8.0, 9.0, 10.0]);
        r.push(1.0);
        r
    };
    let mut want: Vec<Vec<f32>> = (0..3).map(corner).collect();
    want.sort_by(|a, b| a.partial_cmp(b).unwrap());
    assert_eq!(got, want);
    // The interpreter, given each corner's inputs, writes the same record
    // but for the point size: the default 1.0 is the interface's, which it
    // does not model (docs/semantics.md).
    let (program, _) = nvp4c::check(tep, &options).unwrap();
    for k in 0..3 {
        let mut inputs = nvp4c::interp::Inputs::default();
        let bits = |v: [f32; 4]| v.map(f32::to_bits);
        let mut uvw = [0.0; 4];
        uvw[k] = 1.0;
        inputs.set("vertex.tesscoord", bits(uvw)).unwrap();
        for j in 0..3 {
            let f = j as f32;
            let name = format!("vertex[{j}].position");
            inputs
                .set(&name, bits([10.0 * f, 100.0 * f, 1000.0 * f, 1.0]))
                .unwrap();
        }
        inputs
            .set("primitive.patch.attrib[0]", bits([7.0, 8.0, 9.0, 10.0]))
            .unwrap();
        let out = nvp4c::interp::run(&program, &inputs, &Default::default()).unwrap();
        let interpreted: Vec<f32> = [
            "result.position",
            "result.texcoord[0]",
            "result.texcoord[1]",
        ]
        .iter()
        .flat_map(|name| out.results[*name].bits.map(f32::from_bits))
        .collect();
        assert_eq!(interpreted, corner(k)[..12], "corner {k}");
    }
}
