//! Execution tests of geometry programs (`!!NVgp4.0`, NV_geometry_program4) on
//! the Vulkan device: a vertex program and a geometry program drawn together,
//! the emitted vertices captured with transform feedback
//! (tests/device/harness/geometry.rs). Every input primitive type and every output
//! primitive type is drawn; expected values are computed by hand in the
//! comments.
//!
//! Transform feedback records decomposed primitives: one record per point, two
//! per line of a strip, three per triangle of a strip (triangle i of a strip
//! is vertices i, i + 1 + i % 2, i + 2 - i % 2).
//!
//! The `rasterised_*` tests draw the geometry program's primitives into a
//! 32×32 RGBA32F target through a fragment program (`Device::run_raster`) and
//! check the pixels. Clip-space x, y map to pixels as 16·(x + 1), 16·(y + 1)
//! (row 0 at the top, Vulkan's convention); every vertex is placed so that no
//! pixel centre (k + 0.5) lies on or near an edge whose coverage is checked.

use crate::harness;
use crate::harness::{fbits, Capture, GeometryJob, Input, RasterJob, RasterOutput, VertexOutput};
use ash::vk;

fn compile(src: &str) -> Vec<u32> {
    match nvp4c::compile(src, &nvp4c::Options::default()) {
        Ok(c) => c.spirv,
        Err(d) => panic!(
            "compile failed:\n{}\n--- program ---\n{src}",
            d.render("test.gp", src, false)
        ),
    }
}

/// The vertex program of every test: passes `vertex.attrib[0]` as the
/// position, `vertex.attrib[1 + n]` as `result.texcoord[n]` (n = 0..4),
/// `vertex.attrib[6].x` as the point size, and copies the vertex ID the way
/// NV_geometry_program4 issue 21 says ("MOV result.id.x, vertex.id.x").
const VERTEX: &str = "!!NVvp4.0
MOV result.position, vertex.attrib[0];
MOV result.texcoord[0], vertex.attrib[1];
MOV result.texcoord[1], vertex.attrib[2];
MOV result.texcoord[2], vertex.attrib[3];
MOV result.texcoord[3], vertex.attrib[4];
MOV result.texcoord[4], vertex.attrib[5];
MOV result.pointsize, vertex.attrib[6];
MOV result.clip[0], vertex.attrib[7];
MOV result.clip[1], vertex.attrib[8];
MOV result.id.x, vertex.id.x;
END
";

/// Vertex i's position: (i, 0.5, 0, 1).
fn position(i: usize) -> [f32; 4] {
    [i as f32, 0.5, 0.0, 1.0]
}

/// Vertex i's `result.texcoord[n]` (= `vertex.attrib[n + 1]`):
/// 100·i + 10·(n + 1) + c in component c.
fn texcoord(i: usize, n: usize) -> [f32; 4] {
    let base = (100 * i + 10 * (n + 1)) as f32;
    [base, base + 1.0, base + 2.0, base + 3.0]
}

/// Vertex i's point size (`vertex.attrib[6].x`) and clip distances.
fn point_size(i: usize) -> f32 {
    1.0 + i as f32
}
fn clip(i: usize, n: usize) -> f32 {
    -(i as f32) - 0.25 * n as f32
}

fn vertices(count: usize) -> Vec<Vec<Input>> {
    (0..count)
        .map(|i| {
            let mut v = vec![Input::float(0, position(i))];
            for n in 0..5 {
                v.push(Input::float(1 + n as u32, texcoord(i, n)));
            }
            v.push(Input::float(6, [point_size(i), 0.0, 0.0, 0.0]));
            v.push(Input::float(7, [clip(i, 0), 0.0, 0.0, 0.0]));
            v.push(Input::float(8, [clip(i, 1), 0.0, 0.0, 0.0]));
            v
        })
        .collect()
}

fn run(geometry: &str, job: &GeometryJob) -> Option<VertexOutput> {
    let vs = compile(VERTEX);
    let gs = compile(geometry);
    let dev = harness::device_or_skip()?;
    Some(
        dev.run_geometry(&vs, &gs, job)
            .unwrap_or_else(|e| panic!("run failed: {e}\n--- program ---\n{geometry}")),
    )
}

fn add(a: [f32; 4], b: [f32; 4]) -> [f32; 4] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3]]
}

#[test]
fn points_in_points_out_with_every_per_vertex_binding() {
    // One vertex per input point (section 2.14.6.1, "vertex[0]" is the
    // point): its position moved by +0.5 in x, texcoord[1] as texcoord[0],
    // the point size, a clip distance, the vertex ID (issue 21) and
    // primitive.id (0, 1, 2).
    let src = "!!NVgp4.0
PRIMITIVE_IN POINTS;
PRIMITIVE_OUT POINTS;
VERTICES_OUT 1;
ADD result.position, vertex[0].position, {0.5, 0, 0, 0};
MOV result.texcoord[0], vertex[0].texcoord[1];
MOV result.pointsize, vertex[0].pointsize;
MOV result.clip[0], vertex[0].clip[1];
MOV.S result.texcoord[1].x, vertex[0].id.x;
MOV.S result.texcoord[1].y, primitive.id.x;
EMIT;
END
";
    let job = GeometryJob::new(
        vertices(3),
        vk::PrimitiveTopology::POINT_LIST,
        vec![
            Capture::Position,
            Capture::Location(5),
            Capture::Location(6),
            Capture::PointSize,
            Capture::ClipDistance,
        ],
    );
    let Some(out) = run(src, &job) else { return };
    assert_eq!(out.vertices.len(), 3);
    for i in 0..3 {
        assert_eq!(out.position_f32(i), add(position(i), [0.5, 0.0, 0.0, 0.0]));
        assert_eq!(out.location_f32(i, 5), texcoord(i, 1));
        let ids = out.location(i, 6);
        assert_eq!(
            [ids[0], ids[1]],
            [i as u32, i as u32],
            "vertex id, primitive id"
        );
        assert_eq!(out.vertices[i].point_size, Some(point_size(i).to_bits()));
        assert_eq!(
            out.vertices[i].clip_distance.as_deref(),
            Some(&[clip(i, 1).to_bits()][..])
        );
    }
}

#[test]
fn lines_in_line_strip_out_reversed() {
    // Each line (vertex[0] → vertex[1]) is emitted backwards as a two-vertex
    // strip, texcoord[0] of each end plus primitive.id (converted to float)
    // in x: 2 lines, 2 records each.
    let src = "!!NVgp4.0
PRIMITIVE_IN LINES;
PRIMITIVE_OUT LINE_STRIP;
VERTICES_OUT 2;
TEMP id;
I2F id.x, primitive.id.x;
MOV result.position, vertex[1].position;
ADD result.texcoord[0], vertex[1].texcoord[0], id.x;
EMIT;
MOV result.position, vertex[0].position;
ADD result.texcoord[0], vertex[0].texcoord[0], id.x;
EMIT;
END
";
    let job = GeometryJob::new(
        vertices(4),
        vk::PrimitiveTopology::LINE_LIST,
        vec![Capture::Position, Capture::Location(5)],
    );
    let Some(out) = run(src, &job) else { return };
    assert_eq!(out.vertices.len(), 4);
    for line in 0..2 {
        for (k, v) in [2 * line + 1, 2 * line].into_iter().enumerate() {
            let r = 2 * line + k;
            assert_eq!(out.position_f32(r), position(v), "record {r}");
            assert_eq!(
                out.location_f32(r, 5),
                add(texcoord(v, 0), [line as f32; 4]),
                "record {r}"
            );
        }
    }
}

#[test]
fn lines_adjacency_in_reads_the_adjacent_vertices() {
    // Section 2.14.6.1: vertex[1] and vertex[2] are the segment, vertex[0]
    // and vertex[3] the adjacent vertices. Each end is emitted with the
    // texcoord of its neighbour.
    let src = "!!NVgp4.0
PRIMITIVE_IN LINES_ADJACENCY;
PRIMITIVE_OUT LINE_STRIP;
VERTICES_OUT 2;
MOV result.position, vertex[1].position;
MOV result.texcoord[0], vertex[0].texcoord[0];
EMIT;
MOV result.position, vertex[2].position;
MOV result.texcoord[0], vertex[3].texcoord[0];
EMIT;
END
";
    let job = GeometryJob::new(
        vertices(8),
        vk::PrimitiveTopology::LINE_LIST_WITH_ADJACENCY,
        vec![Capture::Position, Capture::Location(5)],
    );
    let Some(out) = run(src, &job) else { return };
    assert_eq!(out.vertices.len(), 4);
    for p in 0..2 {
        let b = 4 * p;
        assert_eq!(out.position_f32(2 * p), position(b + 1));
        assert_eq!(out.location_f32(2 * p, 5), texcoord(b, 0));
        assert_eq!(out.position_f32(2 * p + 1), position(b + 2));
        assert_eq!(out.location_f32(2 * p + 1, 5), texcoord(b + 3, 0));
    }
}

#[test]
fn the_spec_binding_examples_with_relative_vertex_and_element_indices() {
    // NV_geometry_program4 section 2.X.3.2's examples (spec-corpus
    // gp4-01-vertex-bindings.gp), each written to its own result and emitted
    // three times with different A0:
    //   pos[1]                 position of vertex 1
    //   vertex[1].position     position of vertex 1
    //   pos2                   position of vertex 2
    //   texcoords[A0.x][1]     texcoord 1 of vertex A0.x
    //   texcoords[A0.x][A0.y]  texcoord A0.y of vertex A0.x
    //   tcoords1[2]            texcoord 3 of vertex 1
    // Relative indices outside the arrays are clamped (docs/interface.md):
    // A0 = (5, -1) reads vertex 2, element 0; A0 = (-3, 7) vertex 0,
    // element 3.
    let src = "!!NVgp4.0
PRIMITIVE_IN TRIANGLES;
PRIMITIVE_OUT TRIANGLE_STRIP;
VERTICES_OUT 3;
TEMP R0;
ATTRIB pos = vertex.position;
ATTRIB pos2 = vertex[2].position;
ATTRIB texcoords[] = { vertex.texcoord[0..3] };
ATTRIB tcoords1[4] = { vertex[1].texcoord[1..4] };
INT TEMP A0;
MOV.S A0, {1, 2, 0, 0};
MOV R0, pos[1];
MOV result.position, R0;
MOV result.texcoord[0], vertex[1].position;
MOV result.texcoord[1], pos2;
MOV result.texcoord[2], texcoords[A0.x][1];
MOV result.texcoord[3], texcoords[A0.x][A0.y];
MOV result.texcoord[4], tcoords1[2];
EMIT;
MOV.S A0, {5, -1, 0, 0};
MOV result.position, pos[0];
MOV result.texcoord[3], texcoords[A0.x][A0.y];
EMIT;
MOV.S A0, {-3, 7, 0, 0};
MOV result.position, pos[2];
MOV result.texcoord[3], texcoords[A0.x][A0.y];
MOV result.texcoord[2], texcoords[A0.x + 2][1];
EMIT;
END
";
    let job = GeometryJob::new(
        vertices(3),
        vk::PrimitiveTopology::TRIANGLE_LIST,
        vec![
            Capture::Position,
            Capture::Location(5),
            Capture::Location(6),
            Capture::Location(7),
            Capture::Location(8),
            Capture::Location(9),
        ],
    );
    let Some(out) = run(src, &job) else { return };
    assert_eq!(out.vertices.len(), 3);
    // Record 0: the first EMIT.
    assert_eq!(out.position_f32(0), position(1));
    assert_eq!(out.location_f32(0, 5), position(1));
    assert_eq!(out.location_f32(0, 6), position(2));
    assert_eq!(out.location_f32(0, 7), texcoord(1, 1));
    assert_eq!(out.location_f32(0, 8), texcoord(1, 2));
    assert_eq!(out.location_f32(0, 9), texcoord(1, 3));
    // Record 1: vertex clamp(5) = 2, element clamp(-1) = 0.
    assert_eq!(out.position_f32(1), position(0));
    assert_eq!(out.location_f32(1, 8), texcoord(2, 0));
    // Record 2: vertex clamp(-3) = 0, element clamp(7) = 3; A0.x + 2 = -1
    // clamps to vertex 0.
    assert_eq!(out.position_f32(2), position(2));
    assert_eq!(out.location_f32(2, 8), texcoord(0, 3));
    assert_eq!(out.location_f32(2, 7), texcoord(0, 1));
}

#[test]
fn triangles_adjacency_in_with_emit_in_a_subroutine() {
    // Section 2.14.6.1: vertex[0], [2], [4] are the triangle, [1], [3], [5]
    // the vertices adjacent to its edges. Each corner is emitted by a
    // subroutine (EMIT inside CAL) with its edge's adjacent texcoord.
    let src = "!!NVgp4.0
PRIMITIVE_IN TRIANGLES_ADJACENCY;
PRIMITIVE_OUT TRIANGLE_STRIP;
VERTICES_OUT 3;
TEMP p, t;
MOV p, vertex[0].position;
MOV t, vertex[1].texcoord[0];
CAL corner;
MOV p, vertex[2].position;
MOV t, vertex[3].texcoord[0];
CAL corner;
MOV p, vertex[4].position;
MOV t, vertex[5].texcoord[0];
CAL corner;
RET;
corner:
MOV result.position, p;
MOV result.texcoord[0], t;
EMIT;
RET;
END
";
    let job = GeometryJob::new(
        vertices(12),
        vk::PrimitiveTopology::TRIANGLE_LIST_WITH_ADJACENCY,
        vec![Capture::Position, Capture::Location(5)],
    );
    let Some(out) = run(src, &job) else { return };
    assert_eq!(out.vertices.len(), 6);
    for p in 0..2 {
        for k in 0..3 {
            let r = 3 * p + k;
            assert_eq!(out.position_f32(r), position(6 * p + 2 * k), "record {r}");
            assert_eq!(
                out.location_f32(r, 5),
                texcoord(6 * p + 2 * k + 1, 0),
                "record {r}"
            );
        }
    }
}

#[test]
fn endprim_splits_the_strip_and_keeps_the_results() {
    // Six EMITs with ENDPRIM after the third: two triangles (6 records), not
    // a six-vertex strip (four triangles, 12 records). Section 2.X.8.Z,
    // ENDPRIM: "Any result registers written prior to an ENDPRIM instruction
    // are unchanged, and will be used in the vertex specified by the next
    // EMIT": texcoord[1] is written before ENDPRIM and emitted after it.
    let src = "!!NVgp4.0
PRIMITIVE_IN TRIANGLES;
PRIMITIVE_OUT TRIANGLE_STRIP;
VERTICES_OUT 6;
MOV result.position, vertex[0].position;
MOV result.texcoord[1], 1;
EMIT;
MOV result.position, vertex[1].position;
MOV result.texcoord[1], 2;
EMIT;
MOV result.position, vertex[2].position;
MOV result.texcoord[1], 3;
EMIT;
MOV result.texcoord[1], 4;
ENDPRIM;
MOV result.position, vertex[2].position;
EMIT;
MOV result.position, vertex[1].position;
MOV result.texcoord[1], 5;
EMIT;
MOV result.position, vertex[0].position;
MOV result.texcoord[1], 6;
EMIT;
ENDPRIM;
END
";
    let job = GeometryJob::new(
        vertices(3),
        vk::PrimitiveTopology::TRIANGLE_LIST,
        vec![Capture::Position, Capture::Location(6)],
    );
    let Some(out) = run(src, &job) else { return };
    assert_eq!(out.vertices.len(), 6);
    let order = [0, 1, 2, 2, 1, 0];
    for (r, &v) in order.iter().enumerate() {
        assert_eq!(out.position_f32(r), position(v), "record {r}");
        assert_eq!(out.location_f32(r, 6), [(r + 1) as f32; 4], "record {r}");
    }
}

#[test]
fn triangle_strip_of_four_vertices_is_two_triangles() {
    // A quad around each input point, as a four-vertex strip: triangles
    // (0, 1, 2) and (1, 3, 2) in transform feedback order.
    let src = "!!NVgp4.0
PRIMITIVE_IN POINTS;
PRIMITIVE_OUT TRIANGLE_STRIP;
VERTICES_OUT 4;
PARAM corners[4] = { {-1, -1, 0, 0}, {1, -1, 0, 0}, {-1, 1, 0, 0}, {1, 1, 0, 0} };
ADD result.position, vertex[0].position, corners[0];
EMIT;
ADD result.position, vertex[0].position, corners[1];
EMIT;
ADD result.position, vertex[0].position, corners[2];
EMIT;
ADD result.position, vertex[0].position, corners[3];
EMIT;
END
";
    let job = GeometryJob::new(
        vertices(1),
        vk::PrimitiveTopology::POINT_LIST,
        vec![Capture::Position],
    );
    let Some(out) = run(src, &job) else { return };
    let corners = [
        [-1.0, -1.0, 0.0, 0.0],
        [1.0, -1.0, 0.0, 0.0],
        [-1.0, 1.0, 0.0, 0.0],
        [1.0, 1.0, 0.0, 0.0],
    ];
    let got: Vec<[f32; 4]> = (0..out.vertices.len())
        .map(|r| out.position_f32(r))
        .collect();
    let want: Vec<[f32; 4]> = [0, 1, 2, 1, 3, 2]
        .iter()
        .map(|&c| add(position(0), corners[c]))
        .collect();
    assert_eq!(got, want);
}

#[test]
fn emitted_vertex_count_depends_on_primitive_id_and_stops_at_vertices_out() {
    // Primitive k emits k + 1 points (REP), but VERTICES_OUT is 4: section
    // 2.14.6.4, "Once a geometry program emits a number of vertices equal to
    // the vertex limit, subsequent EMIT instructions may or may not have any
    // effect"; nvp4c drops them (docs/interface.md). Five points give
    // 1 + 2 + 3 + 4 + 4 = 14 records; the j-th point of primitive k is at
    // (k, 0.5 + j, 0, 1) with texcoord[0].x = j.
    let src = "!!NVgp4.0
PRIMITIVE_IN POINTS;
PRIMITIVE_OUT POINTS;
VERTICES_OUT 4;
INT TEMP n;
TEMP p, j;
ADD.S n.x, primitive.id.x, 1;
MOV p, vertex[0].position;
MOV j, 0;
REP.S n.x;
  MOV result.position, p;
  MOV result.pointsize, 1;
  MOV result.texcoord[0], j;
  ADD p.y, p.y, 1;
  ADD j, j, 1;
  EMIT;
ENDREP;
END
";
    let job = GeometryJob::new(
        vertices(5),
        vk::PrimitiveTopology::POINT_LIST,
        vec![Capture::Position, Capture::Location(5)],
    );
    let Some(out) = run(src, &job) else { return };
    let mut want = Vec::new();
    for k in 0..5usize {
        for j in 0..(k + 1).min(4) {
            want.push(([k as f32, 0.5 + j as f32, 0.0, 1.0], [j as f32; 4]));
        }
    }
    assert_eq!(out.vertices.len(), 14);
    for (r, (p, t)) in want.iter().enumerate() {
        assert_eq!(out.position_f32(r), *p, "record {r}");
        assert_eq!(out.location_f32(r, 5), *t, "record {r}");
    }
}

#[test]
fn conditional_emit_count_from_an_attribute() {
    // An IF on the x of each point's texcoord[0] (100·k + 10): points whose
    // value is above 150 emit two vertices, the others one. Points 0 and 1
    // (10, 110) emit one, 2 and 3 (210, 310) two: 6 records.
    let src = "!!NVgp4.0
PRIMITIVE_IN POINTS;
PRIMITIVE_OUT POINTS;
VERTICES_OUT 2;
TEMP t;
SUBC t.x, vertex[0].texcoord[0].x, 150;
MOV result.position, vertex[0].position;
MOV result.pointsize, 1;
EMIT;
IF GT.x;
  ADD result.position, vertex[0].position, {0, 1, 0, 0};
  MOV result.pointsize, 1;
  EMIT;
ENDIF;
END
";
    let job = GeometryJob::new(
        vertices(4),
        vk::PrimitiveTopology::POINT_LIST,
        vec![Capture::Position],
    );
    let Some(out) = run(src, &job) else { return };
    let got: Vec<[f32; 4]> = (0..out.vertices.len())
        .map(|r| out.position_f32(r))
        .collect();
    let want = vec![
        position(0),
        position(1),
        position(2),
        add(position(2), [0.0, 1.0, 0.0, 0.0]),
        position(3),
        add(position(3), [0.0, 1.0, 0.0, 0.0]),
    ];
    assert_eq!(got, want);
}

#[test]
fn layer_and_primitive_id_results() {
    // result.layer and result.primid are integers in x (section 2.X.3.5):
    // layer = 2·primitive.id, primid = primitive.id + 10.
    let src = "!!NVgp4.0
PRIMITIVE_IN TRIANGLES;
PRIMITIVE_OUT TRIANGLE_STRIP;
VERTICES_OUT 3;
INT TEMP id;
MUL.S id.x, primitive.id.x, 2;
ADD.S id.y, primitive.id.x, 10;
MOV result.position, vertex[0].position;
MOV.S result.layer.x, id.x;
MOV.S result.primid.x, id.y;
EMIT;
MOV result.position, vertex[1].position;
MOV.S result.layer.x, id.x;
MOV.S result.primid.x, id.y;
EMIT;
MOV result.position, vertex[2].position;
MOV.S result.layer.x, id.x;
MOV.S result.primid.x, id.y;
EMIT;
END
";
    let job = GeometryJob::new(
        vertices(9),
        vk::PrimitiveTopology::TRIANGLE_LIST,
        vec![Capture::Position, Capture::Layer, Capture::PrimitiveId],
    );
    let Some(out) = run(src, &job) else { return };
    assert_eq!(out.vertices.len(), 9);
    for r in 0..9 {
        let prim = (r / 3) as u32;
        assert_eq!(out.position(r), fbits(position(r)), "record {r}");
        assert_eq!(out.vertices[r].layer, Some(2 * prim), "record {r}");
        assert_eq!(out.vertices[r].primitive_id, Some(prim + 10), "record {r}");
    }
}

/// The vertex program of the rasterised tests: `vertex.attrib[0]` is the
/// position, `vertex.attrib[1]` goes to `result.texcoord[0]`.
const RASTER_VERTEX: &str = "!!NVvp4.0
MOV result.position, vertex.attrib[0];
MOV result.texcoord[0], vertex.attrib[1];
END
";

/// Runs `RASTER_VERTEX`, `geometry` and `fragment` as one rasterised pipeline.
fn run_raster(geometry: &str, fragment: &str, job: &RasterJob) -> Option<RasterOutput> {
    let vs = compile(RASTER_VERTEX);
    let gs = compile(geometry);
    let fs = compile(fragment);
    let dev = harness::device_or_skip()?;
    Some(
        dev.run_raster(&vs, Some(&gs), &fs, job)
            .unwrap_or_else(|e| {
                panic!(
                    "run failed: {e}\n--- geometry ---\n{geometry}\n--- fragment ---\n{fragment}"
                )
            }),
    )
}

/// A pixel coordinate of the 32×32 target in clip space (x or y).
fn ndc(pixel: f32) -> f32 {
    pixel / 16.0 - 1.0
}

/// A raster vertex: `vertex.attrib[0]` = (clip x, y of pixel coordinates
/// `p`, 0, 1), `vertex.attrib[1]` (→ `result.texcoord[0]`) = `colour`.
fn raster_vertex(p: [f32; 2], colour: [f32; 4]) -> Vec<Input> {
    vec![
        Input::float(0, [ndc(p[0]), ndc(p[1]), 0.0, 1.0]),
        Input::float(1, colour),
    ]
}

#[test]
fn rasterised_points_expand_to_quads_with_the_primitive_colour() {
    // PRIMITIVE_IN POINTS, PRIMITIVE_OUT TRIANGLE_STRIP, VERTICES_OUT 4
    // (section 2.X.7.Y): each point becomes a four-vertex strip, a quad of
    // half-extent program.local[0] = (0.25, 0.125) in clip space, i.e. 8×4
    // pixels (not square, so swapped x and y would show). Each corner carries
    // the point's texcoord[0] as result.color, and primitive.id (0, 1, 2) as
    // result.texcoord[3].x; the fragment program writes the colour with alpha
    // replaced by that id. Points at pixel (8, 8), (24, 8), (16, 24) give the
    // quads [4, 12)×[6, 10), [20, 28)×[6, 10), [12, 20)×[22, 26): every edge
    // is on an integer pixel coordinate, so every pixel centre is strictly
    // inside or outside a quad, and every pixel of the target is checked
    // (inside: the colour, exactly, as all four corners carry the same value;
    // outside: the clear value, a NaN no program writes).
    let geometry = "!!NVgp4.0
PRIMITIVE_IN POINTS;
PRIMITIVE_OUT TRIANGLE_STRIP;
VERTICES_OUT 4;
PARAM half = program.local[0];
TEMP c, id;
MOV c, vertex[0].texcoord[0];
I2F id.x, primitive.id.x;
MAD result.position, half, {-1, -1, 0, 0}, vertex[0].position;
MOV result.color, c;
MOV result.texcoord[3], id.x;
EMIT;
MAD result.position, half, {1, -1, 0, 0}, vertex[0].position;
MOV result.color, c;
MOV result.texcoord[3], id.x;
EMIT;
MAD result.position, half, {-1, 1, 0, 0}, vertex[0].position;
MOV result.color, c;
MOV result.texcoord[3], id.x;
EMIT;
MAD result.position, half, {1, 1, 0, 0}, vertex[0].position;
MOV result.color, c;
MOV result.texcoord[3], id.x;
EMIT;
END
";
    let fragment = "!!NVfp4.0
MOV result.color, fragment.color;
MOV result.color.w, fragment.texcoord[3].x;
END
";
    let centres = [[8.0, 8.0], [24.0, 8.0], [16.0, 24.0]];
    let colours = [
        [1.0, 0.0, 0.5, 7.0],
        [0.0, 1.0, 0.25, 7.0],
        [0.75, 0.125, 1.0, 7.0],
    ];
    let vertices = centres
        .iter()
        .zip(colours)
        .map(|(&c, colour)| raster_vertex(c, colour))
        .collect();
    let job = RasterJob {
        local: vec![fbits([0.25, 0.125, 0.0, 0.0])],
        ..RasterJob::new(vertices, vk::PrimitiveTopology::POINT_LIST)
    };
    let Some(out) = run_raster(geometry, fragment, &job) else {
        return;
    };
    let mut covered = [0; 3];
    for y in 0..32u32 {
        for x in 0..32u32 {
            let (px, py) = (x as f32 + 0.5, y as f32 + 0.5);
            let quad = centres
                .iter()
                .position(|c| (px - c[0]).abs() < 4.0 && (py - c[1]).abs() < 2.0);
            let want = match quad {
                Some(k) => {
                    covered[k] += 1;
                    let mut c = colours[k];
                    c[3] = k as f32;
                    fbits(c)
                }
                None => out.clear,
            };
            assert_eq!(out.bits(x, y), want, "pixel ({x}, {y}), quad {quad:?}");
        }
    }
    assert_eq!(covered, [32; 3], "8×4 pixels per quad");
}

/// A triangle in pixel coordinates with the colour its pixels must hold.
struct Tri {
    v: [[f32; 2]; 3],
    colour: [f32; 4],
}

/// Where the centre of pixel (x, y) is relative to a triangle: `Some(true)`
/// at least 0.25 pixel inside every edge, `Some(false)` at least 0.25 pixel
/// outside one edge, `None` too near an edge to say (rasterisation rules and
/// sub-pixel precision decide; such pixels are not checked).
fn coverage(t: &[[f32; 2]; 3], x: u32, y: u32) -> Option<bool> {
    let p = [x as f32 + 0.5, y as f32 + 0.5];
    let [a, b, c] = *t;
    let area = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
    let mut inside = true;
    for (e0, e1) in [(a, b), (b, c), (c, a)] {
        let (dx, dy) = (e1[0] - e0[0], e1[1] - e0[1]);
        let cross = dx * (p[1] - e0[1]) - dy * (p[0] - e0[0]);
        // Signed distance to the edge's line, positive on the triangle's side.
        let d = cross * area.signum() / (dx * dx + dy * dy).sqrt();
        if d < -0.25 {
            return Some(false);
        }
        if d < 0.25 {
            inside = false;
        }
    }
    inside.then_some(true)
}

/// What pixel (x, y) must hold when `tris` (not overlapping) are drawn:
/// `Some(Some(colour))`, `Some(None)` for the clear value, `None` when it is
/// too near an edge to say.
fn expected_pixel(tris: &[Tri], x: u32, y: u32) -> Option<Option<[f32; 4]>> {
    let mut colour = None;
    for t in tris {
        if coverage(&t.v, x, y)? {
            colour = Some(t.colour);
        }
    }
    Some(colour)
}

#[test]
fn rasterised_endprim_splits_the_strip_and_result_primid_reaches_the_fragment_program() {
    // PRIMITIVE_IN TRIANGLES, PRIMITIVE_OUT TRIANGLE_STRIP, VERTICES_OUT 6
    // (section 2.X.7.Y). Each input triangle k (primitive.id k = 0, 1) is
    // emitted as itself, then ENDPRIM, then again moved 16 pixels right: two
    // separate triangles (2.X.8.Z, ENDPRIM). result.primid is 2k for the
    // first and 2k + 1 for the second; for the second it is written before
    // ENDPRIM and not again before the next EMIT ("Any result registers
    // written prior to an ENDPRIM instruction are unchanged, and will be used
    // in the vertex specified by the next EMIT"). The fragment program writes
    // primitive.id, which after a geometry program is its result.primid
    // (section 2.X.3.5), as float in x, and the colour of the input
    // triangle's vertices (all three alike) in y, z, w.
    //
    // Triangle k has corners (2, 2 + 16k), (10, 2 + 16k), (2, 14 + 16k) in
    // pixels. Pixels whose centre is within 0.25 pixel of an edge are not
    // checked; all others must hold their triangle's value or the clear
    // value. Without the ENDPRIM the six vertices would form one strip whose
    // triangles (v1, v2, v3) and (v2, v3, v4) cover the gap between the two
    // copies: the test checks that such pixels exist and are clear.
    let geometry = "!!NVgp4.0
PRIMITIVE_IN TRIANGLES;
PRIMITIVE_OUT TRIANGLE_STRIP;
VERTICES_OUT 6;
INT TEMP id;
PARAM shift = {1, 0, 0, 0};
MUL.S id.x, primitive.id.x, 2;
ADD.S id.y, id.x, 1;
MOV result.position, vertex[0].position;
MOV result.color, vertex[0].texcoord[0];
MOV.S result.primid.x, id.x;
EMIT;
MOV result.position, vertex[1].position;
MOV result.color, vertex[1].texcoord[0];
MOV.S result.primid.x, id.x;
EMIT;
MOV result.position, vertex[2].position;
MOV result.color, vertex[2].texcoord[0];
MOV.S result.primid.x, id.x;
EMIT;
MOV.S result.primid.x, id.y;
ENDPRIM;
ADD result.position, vertex[0].position, shift;
MOV result.color, vertex[0].texcoord[0];
EMIT;
ADD result.position, vertex[1].position, shift;
MOV result.color, vertex[1].texcoord[0];
MOV.S result.primid.x, id.y;
EMIT;
ADD result.position, vertex[2].position, shift;
MOV result.color, vertex[2].texcoord[0];
MOV.S result.primid.x, id.y;
EMIT;
END
";
    let fragment = "!!NVfp4.0
MOV result.color, fragment.color;
I2F result.color.x, primitive.id.x;
END
";
    let colours = [[9.0, 0.5, 0.25, 1.0], [9.0, 1.0, 0.75, 0.5]];
    let corners = |k: usize, dx: f32| {
        let y = 16.0 * k as f32;
        [
            [2.0 + dx, 2.0 + y],
            [10.0 + dx, 2.0 + y],
            [2.0 + dx, 14.0 + y],
        ]
    };
    let vertices = (0..2)
        .flat_map(|k| corners(k, 0.0).map(|p| raster_vertex(p, colours[k])))
        .collect();
    let job = RasterJob::new(vertices, vk::PrimitiveTopology::TRIANGLE_LIST);
    let Some(out) = run_raster(geometry, fragment, &job) else {
        return;
    };
    let mut tris = Vec::new();
    let mut bridges = Vec::new();
    for (k, &input_colour) in colours.iter().enumerate() {
        for (j, dx) in [0.0, 16.0].into_iter().enumerate() {
            let mut colour = input_colour;
            colour[0] = (2 * k + j) as f32;
            tris.push(Tri {
                v: corners(k, dx),
                colour,
            });
        }
        // The strip's triangles 1 and 2 if ENDPRIM did not split it.
        let (a, b) = (corners(k, 0.0), corners(k, 16.0));
        bridges.push([a[1], a[2], b[0]]);
        bridges.push([a[2], b[0], b[1]]);
    }
    let (mut checked, mut bridge_pixels) = (0, 0);
    let mut per_primitive = [0; 4];
    for y in 0..32u32 {
        for x in 0..32u32 {
            let Some(want) = expected_pixel(&tris, x, y) else {
                continue;
            };
            checked += 1;
            let got = out.bits(x, y);
            match want {
                Some(c) => {
                    per_primitive[c[0] as usize] += 1;
                    assert_eq!(got, fbits(c), "pixel ({x}, {y})");
                }
                None => {
                    if bridges.iter().any(|b| coverage(b, x, y) == Some(true)) {
                        bridge_pixels += 1;
                    }
                    assert_eq!(got, out.clear, "pixel ({x}, {y}) must stay clear");
                }
            }
        }
    }
    // The triangles have area 48 pixels; at most a few pixels of each lie
    // within 0.25 pixel of its slanted edge.
    for (p, &n) in per_primitive.iter().enumerate() {
        assert!(n >= 30, "primitive {p}: only {n} pixels checked");
    }
    assert!(checked > 900, "only {checked} pixels checked");
    assert!(
        bridge_pixels >= 20,
        "only {bridge_pixels} clear pixels would be covered without ENDPRIM"
    );
}

#[test]
fn emits_sends_vertices_to_vertex_streams_and_stream_0_is_captured() {
    // NV_gpu_program5 2.X.8.Z, EMITS: "emits a new vertex ... for the vertex
    // stream specified by the single signed integer scalar operand"; EMIT
    // is stream 0. Per input point: EMIT (x + 0.25), EMITS 1 (x + 0.5),
    // EMITS with a run-time 0 (x + 0.75). The harness captures stream 0
    // (the transform feedback of the outputs, which carry no Stream
    // decoration), so each point gives two records, x + 0.25 and x + 0.75;
    // the stream-1 vertex is not among them. (A POINTS output writes the
    // point size, as Vulkan asks of a device with
    // shaderTessellationAndGeometryPointSize.)
    let src = "!!NVgp5.0
PRIMITIVE_IN POINTS;
PRIMITIVE_OUT POINTS;
VERTICES_OUT 3;
INT TEMP s;
ADD result.position, vertex[0].position, {0.25, 0, 0, 0};
MOV result.pointsize, 1;
EMIT;
ADD result.position, vertex[0].position, {0.5, 0, 0, 0};
MOV result.pointsize, 1;
EMITS 1;
MOV.S s, {0, 1, 2, 3};
ADD result.position, vertex[0].position, {0.75, 0, 0, 0};
MOV result.pointsize, 1;
EMITS s.x;
END
";
    let job = GeometryJob::new(
        vertices(2),
        vk::PrimitiveTopology::POINT_LIST,
        vec![Capture::Position],
    );
    let Some(out) = run(src, &job) else { return };
    assert_eq!(out.vertices.len(), 4, "two stream-0 vertices per point");
    for i in 0..2 {
        assert_eq!(
            out.position_f32(2 * i),
            add(position(i), [0.25, 0.0, 0.0, 0.0])
        );
        assert_eq!(
            out.position_f32(2 * i + 1),
            add(position(i), [0.75, 0.0, 0.0, 0.0])
        );
    }
}

#[test]
fn gp5_invocations_run_the_program_once_per_invocation_number() {
    // NV_gpu_program5 2.X.6 ("INVOCATIONS"): each of the 3 invocations of a
    // point sees the same inputs, and `primitive.invocation.x` is 0, 1, 2
    // (2.X.3.2). Each emits one point: x moved by 0.25 per invocation,
    // texcoord[1].xy = (invocation, primitive.id). Two input points give six
    // records; the order of invocations in the stream is not checked, only
    // that each (point, invocation) pair appears once with its position.
    // (Vulkan wants PointSize written for point output when the device
    // enables geometry point sizes: docs/interface.md.)
    let src = "!!NVgp5.0
PRIMITIVE_IN POINTS;
PRIMITIVE_OUT POINTS;
VERTICES_OUT 1;
INVOCATIONS 3;
TEMP shift;
I2F shift.x, primitive.invocation.x;
MUL shift.x, shift.x, 0.25;
MOV shift.yzw, 0;
ADD result.position, vertex[0].position, shift;
MOV result.pointsize, 1;
MOV.S result.texcoord[1].x, primitive.invocation.x;
MOV.S result.texcoord[1].y, primitive.id.x;
EMIT;
END
";
    let job = GeometryJob::new(
        vertices(2),
        vk::PrimitiveTopology::POINT_LIST,
        vec![Capture::Position, Capture::Location(6)],
    );
    let Some(out) = run(src, &job) else { return };
    assert_eq!(out.vertices.len(), 6, "2 points × 3 invocations");
    let mut seen = Vec::new();
    for r in 0..6 {
        let ids = out.location(r, 6);
        let (invocation, prim) = (ids[0] as usize, ids[1] as usize);
        assert!(invocation < 3 && prim < 2, "record {r}: {ids:?}");
        assert_eq!(
            out.position_f32(r),
            add(position(prim), [0.25 * invocation as f32, 0.0, 0.0, 0.0]),
            "record {r}"
        );
        seen.push((prim, invocation));
    }
    seen.sort();
    let want: Vec<_> = (0..2).flat_map(|p| (0..3).map(move |i| (p, i))).collect();
    assert_eq!(seen, want);
}

/// `primitive.vertexcount` in a geometry program (NV_gpu_program5
/// 2.X.3.2): "the number of vertices in the input primitive being
/// processed", 3 for TRIANGLES and 4 for LINES_ADJACENCY, on the device
/// and in the interpreter.
#[test]
fn primitive_vertex_count_is_the_input_primitive_size() {
    for (input, topology, count) in [
        ("TRIANGLES", vk::PrimitiveTopology::TRIANGLE_LIST, 3),
        (
            "LINES_ADJACENCY",
            vk::PrimitiveTopology::LINE_LIST_WITH_ADJACENCY,
            4,
        ),
    ] {
        let src = format!(
            "!!NVgp5.0\nPRIMITIVE_IN {input};\nPRIMITIVE_OUT POINTS;\nVERTICES_OUT 1;\nINT TEMP n;\nMOV.S n, primitive.vertexcount;\nMOV result.position, vertex[0].position;\nMOV result.pointsize, 1;\nI2F.S result.texcoord[0], n;\nEMIT;\nEND\n"
        );
        let (program, _) = nvp4c::check(&src, &Default::default()).unwrap();
        let out = nvp4c::interp::run(&program, &Default::default(), &Default::default()).unwrap();
        let texcoord = &out.vertices[0].results["result.texcoord[0]"];
        assert_eq!(texcoord.bits[0], (count as f32).to_bits(), "{input}");
        let job = GeometryJob::new(
            vertices(count as usize),
            topology,
            vec![Capture::Location(5)],
        );
        let Some(got) = run(&src, &job) else { return };
        assert_eq!(got.vertices.len(), 1, "{input}");
        assert_eq!(got.location_f32(0, 5)[0], count as f32, "{input}");
    }
}

/// The geometry program of the vertex stream tests: per input point i (whose
/// `primitive.id` is i), EMIT to stream 0, `EMITS 1`, `EMITS` with the
/// run-time stream i, and `EMITS 3`, each vertex with its own position,
/// `result.texcoord[1]` and `result.primid`.
const STREAMS: &str = "!!NVgp5.0
PRIMITIVE_IN POINTS;
PRIMITIVE_OUT POINTS;
VERTICES_OUT 4;
INT TEMP s;
MOV.S s, primitive.id;
ADD result.position, vertex[0].position, {0.25, 0, 0, 0};
MOV result.texcoord[1], vertex[0].texcoord[1];
MOV result.pointsize, 1;
MOV.S result.primid.x, s.x;
EMIT;
ADD result.position, vertex[0].position, {0.5, 0, 0, 0};
MOV result.texcoord[1], vertex[0].texcoord[0];
MOV result.pointsize, 1;
MOV.S result.primid.x, s.x;
EMITS 1;
ADD result.position, vertex[0].position, {0.75, 0, 0, 0};
MOV result.texcoord[1], vertex[0].texcoord[2];
MOV result.pointsize, 1;
MOV.S result.primid.x, s.x;
EMITS s.x;
ADD result.position, vertex[0].position, {1, 0, 0, 0};
MOV result.texcoord[1], vertex[0].texcoord[3];
MOV result.pointsize, 1;
MOV.S result.primid.x, s.x;
EMITS 3;
END
";

/// One captured vertex of `STREAMS`: position, texcoord[1], primid.
type StreamVertex = ([f32; 4], [f32; 4], u32);

#[test]
fn emits_vertices_are_captured_per_stream_with_options_transform_feedback() {
    // NV_gpu_program5 2.X.8.Z, EMITS: "emits a new vertex ... for the vertex
    // stream specified by the single signed integer scalar operand"; EMIT is
    // stream 0, and a stream outside 0..MAX_VERTEX_STREAMS_NV - 1 is
    // undefined (nvp4c drops the vertex). With Options::transform_feedback
    // each stream k is captured into transform feedback buffer k with one
    // record (docs/interface.md, "Transform feedback"): Position at 0,
    // texcoord[1] (Location 6) at 16, then PointSize at 32 and PrimitiveId
    // at 36: 40 bytes. Five points (i = 0..4), hand-computed per stream in
    // the order the vertices are emitted (input primitive order, then
    // program order):
    let emit = |i: usize| {
        (
            add(position(i), [0.25, 0.0, 0.0, 0.0]),
            texcoord(i, 1),
            i as u32,
        )
    };
    let one = |i: usize| {
        (
            add(position(i), [0.5, 0.0, 0.0, 0.0]),
            texcoord(i, 0),
            i as u32,
        )
    };
    let run_time = |i: usize| {
        (
            add(position(i), [0.75, 0.0, 0.0, 0.0]),
            texcoord(i, 2),
            i as u32,
        )
    };
    let three = |i: usize| {
        (
            add(position(i), [1.0, 0.0, 0.0, 0.0]),
            texcoord(i, 3),
            i as u32,
        )
    };
    let expected: [Vec<StreamVertex>; 4] = [
        // Stream 0: every EMIT, and point 0's run-time EMITS 0.
        vec![emit(0), run_time(0), emit(1), emit(2), emit(3), emit(4)],
        // Stream 1: every EMITS 1, and point 1's run-time one after it.
        vec![one(0), one(1), run_time(1), one(2), one(3), one(4)],
        // Stream 2: point 2's run-time EMITS only.
        vec![run_time(2)],
        // Stream 3: every EMITS 3, point 3's run-time one before it.
        // Point 4's run-time stream 4 emits nothing.
        vec![
            three(0),
            three(1),
            three(2),
            run_time(3),
            three(3),
            three(4),
        ],
    ];
    let mut options = nvp4c::Options::default();
    options.transform_feedback = true;
    let compiled = nvp4c::compile(STREAMS, &options).unwrap();
    // The record the reflection gives: stride 40 in every stream.
    for o in &compiled.reflection.outputs {
        let x = o.transform_feedback.expect("every result is captured");
        assert_eq!((x.buffer, x.stride), (x.stream, 40), "{o:?}");
    }

    // The interpreter's EmittedVertex::stream agrees.
    let (program, _) = nvp4c::check(STREAMS, &options).unwrap();
    let mut interpreted: [Vec<StreamVertex>; 4] = Default::default();
    for i in 0..5 {
        let mut inputs = nvp4c::interp::Inputs::default();
        inputs
            .set("vertex[0].position", fbits(position(i)))
            .unwrap();
        for n in 0..4 {
            let name = format!("vertex[0].texcoord[{n}]");
            inputs.set(&name, fbits(texcoord(i, n))).unwrap();
        }
        inputs.set("primitive.id", [i as u32, 0, 0, 0]).unwrap();
        let out = nvp4c::interp::run(&program, &inputs, &Default::default()).unwrap();
        for v in &out.vertices {
            let f = |name: &str| v.results[name].bits.map(f32::from_bits);
            let primid = v.results["result.primid"].bits[0];
            interpreted[v.stream as usize].push((
                f("result.position"),
                f("result.texcoord[1]"),
                primid,
            ));
        }
    }
    assert_eq!(interpreted, expected, "the interpreter");

    let vs = compile(VERTEX);
    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    let job = GeometryJob::new(vertices(5), vk::PrimitiveTopology::POINT_LIST, vec![]);
    let captured = match dev.run_geometry_streams(&vs, &compiled.spirv, &job, 4, 40) {
        Ok(c) => c,
        Err(harness::HarnessError::NoDevice(why)) => {
            eprintln!("skipped: {why}");
            return;
        }
        Err(e) => panic!("run failed: {e}"),
    };
    let decoded: Vec<Vec<StreamVertex>> = captured
        .iter()
        .map(|records| {
            records
                .iter()
                .map(|r| {
                    let f = |at: usize| [0, 1, 2, 3].map(|c| f32::from_bits(r[at + c]));
                    // PointSize (word 8) is 1.0 in every record.
                    assert_eq!(r[8], 1f32.to_bits());
                    (f(0), f(4), r[9])
                })
                .collect()
        })
        .collect();
    assert_eq!(decoded, expected, "the device");
}

#[test]
fn points_without_a_point_size_get_the_default_of_1() {
    // A POINTS geometry program that never writes result.pointsize: GL
    // takes the size from PointSize, "The default value is 1.0"
    // (NV_geometry_program4, section 3.3); Vulkan with
    // shaderTessellationAndGeometryPointSize enabled (lavapipe, and the
    // harness enables it) wants PointSize written for every emitted vertex
    // (VUID-VkGraphicsPipelineCreateInfo-Geometry-07725, later renamed
    // -shaderTessellationAndGeometryPointSize-08776; the validation layer
    // reports it at pipeline creation when PointSize is not written). nvp4c writes
    // 1.0 at each EMIT: every captured record's point size is 1.0, whatever
    // the vertex program wrote (1 + i).
    let src = "!!NVgp4.0
PRIMITIVE_IN POINTS;
PRIMITIVE_OUT POINTS;
VERTICES_OUT 2;
MOV result.position, vertex[0].position;
EMIT;
ADD result.position, vertex[0].position, {0.5, 0, 0, 0};
EMIT;
END
";
    let job = GeometryJob::new(
        vertices(3),
        vk::PrimitiveTopology::POINT_LIST,
        vec![Capture::Position, Capture::PointSize],
    );
    let Some(out) = run(src, &job) else { return };
    assert_eq!(out.vertices.len(), 6);
    for (r, v) in out.vertices.iter().enumerate() {
        let i = r / 2;
        let dx = if r % 2 == 0 { 0.0 } else { 0.5 };
        assert_eq!(out.position_f32(r), add(position(i), [dx, 0.0, 0.0, 0.0]));
        assert_eq!(v.point_size, Some(1f32.to_bits()), "record {r}");
    }
}

#[test]
fn rasterised_emits_draws_stream_0_only() {
    // Vulkan rasterizes one vertex stream, `rasterizationStream`, 0 unless
    // the pipeline says otherwise (VK_EXT_transform_feedback), as GL
    // rasterizes stream 0 (ARB_transform_feedback3). Per input point at a
    // pixel centre p, the program emits a point at p to stream 0 (EMIT),
    // one 8 pixels right to stream 1 and one 8 pixels down to stream 2, each
    // with its own colour. Points are 1 pixel wide (the default point size
    // nvp4c writes, docs/interface.md "Point size"), so the pixel of p has
    // the point's colour and every other pixel, the stream-1 and stream-2
    // ones included, keeps the clear value. Compiled with and without
    // transform feedback capture: with it the module has the stream copies
    // (Locations 1 to 6), which must not disturb the fragment program's
    // Location 0 (docs/interface.md, "Transform feedback").
    let geometry = "!!NVgp5.0
PRIMITIVE_IN POINTS;
PRIMITIVE_OUT POINTS;
VERTICES_OUT 3;
MOV result.position, vertex[0].position;
MOV result.color, vertex[0].texcoord[0];
EMIT;
ADD result.position, vertex[0].position, {0.5, 0, 0, 0};
MOV result.color, {0, 0, 1, 1};
EMITS 1;
ADD result.position, vertex[0].position, {0, 0.5, 0, 0};
MOV result.color, {0, 1, 0, 1};
EMITS 2;
END
";
    let fragment = "!!NVfp4.0
MOV result.color, fragment.color;
END
";
    let points = [
        ([4.5, 4.5], [1.0, 0.0, 0.5, 1.0]),
        ([12.5, 20.5], [0.25, 0.5, 0.75, 1.0]),
    ];
    let vertices = points.iter().map(|&(p, c)| raster_vertex(p, c)).collect();
    let job = RasterJob::new(vertices, vk::PrimitiveTopology::POINT_LIST);
    for capture in [false, true] {
        let mut options = nvp4c::Options::default();
        options.transform_feedback = capture;
        let gs = nvp4c::compile(geometry, &options).unwrap().spirv;
        let (vs, fs) = (compile(RASTER_VERTEX), compile(fragment));
        let Some(dev) = harness::device_or_skip() else {
            return;
        };
        let out = match dev.run_raster(&vs, Some(&gs), &fs, &job) {
            Ok(out) => out,
            Err(harness::HarnessError::NoDevice(why)) => {
                eprintln!("skipped: {why}");
                return;
            }
            Err(e) => panic!("run failed (capture {capture}): {e}"),
        };
        for y in 0..32u32 {
            for x in 0..32u32 {
                let centre = [x as f32 + 0.5, y as f32 + 0.5];
                let want = match points.iter().find(|(p, _)| *p == centre) {
                    Some((_, colour)) => fbits(*colour),
                    None => out.clear,
                };
                assert_eq!(out.bits(x, y), want, "pixel ({x}, {y}), capture {capture}");
            }
        }
    }
}

#[test]
fn stream_copies_of_built_ins_capture_clip_distances_and_layer() {
    // The built-in results' copies (docs/interface.md, "Transform
    // feedback"): per input point i, EMITS 2 with result.clip[0..1] =
    // (i + 0.5, -i) and result.layer = 3·i (an integer in x, section
    // 2.X.3.5). The record: Position at 0, then the built-ins by SPIR-V
    // number: PointSize (the default 1.0) at 16, ClipDistance[2] at 20,
    // Layer at 28: 32 bytes. Stream 2's buffer gets one record per point;
    // streams 0, 1 and 3 none.
    let src = "!!NVgp5.0
PRIMITIVE_IN POINTS;
PRIMITIVE_OUT POINTS;
VERTICES_OUT 1;
INT TEMP layer;
TEMP c;
I2F c.x, primitive.id.x;
MUL.S layer.x, primitive.id.x, 3;
MOV result.position, vertex[0].position;
ADD result.clip[0].x, c.x, 0.5;
MOV result.clip[1].x, -c.x;
MOV.S result.layer.x, layer.x;
EMITS 2;
END
";
    let mut options = nvp4c::Options::default();
    options.transform_feedback = true;
    let compiled = nvp4c::compile(src, &options).unwrap();
    let strides: Vec<u32> = compiled
        .reflection
        .outputs
        .iter()
        .map(|o| o.transform_feedback.unwrap().stride)
        .collect();
    assert!(strides.iter().all(|&s| s == 32), "{strides:?}");
    let vs = compile(VERTEX);
    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    let job = GeometryJob::new(vertices(3), vk::PrimitiveTopology::POINT_LIST, vec![]);
    let captured = match dev.run_geometry_streams(&vs, &compiled.spirv, &job, 4, 32) {
        Ok(c) => c,
        Err(harness::HarnessError::NoDevice(why)) => {
            eprintln!("skipped: {why}");
            return;
        }
        Err(e) => panic!("run failed: {e}"),
    };
    let counts: Vec<usize> = captured.iter().map(Vec::len).collect();
    assert_eq!(counts, [0, 0, 3, 0]);
    for (i, r) in captured[2].iter().enumerate() {
        let mut want = fbits(position(i)).to_vec();
        want.push(1f32.to_bits());
        want.push((i as f32 + 0.5).to_bits());
        want.push((-(i as f32)).to_bits());
        want.push(3 * i as u32);
        assert_eq!(r, &want, "point {i}");
    }
}
