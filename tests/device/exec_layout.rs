//! The binding layout a renderer chooses (docs/interface.md, "Binding
//! layout", "Push constants", "Specialization constants", "Clip space"),
//! drawn on the Vulkan device: a vertex and a fragment program in one
//! descriptor set with no collision, push constants of both stages in
//! disjoint ranges, a specialization constant, named entry points, a
//! texture at a chosen binding; and the clip-space conversions of
//! `--invert-y` and `--depth-range gl` for vertex and geometry programs.
//! The pipeline is built from the reflection, as a renderer would.

use std::collections::BTreeSet;

use ash::vk;

use crate::harness::{
    self, fbits, Capture, GeometryJob, Input, PipelineExtras, RasterJob, Texture, VertexJob,
};
use nvp4c::layout::{DepthRange, Param, PushConstants, Specialization};
use nvp4c::reflect::Reflection;
use nvp4c::state::GlState;

fn compile(src: &str, options: &nvp4c::Options) -> nvp4c::Compiled {
    match nvp4c::compile(src, options) {
        Ok(c) => c,
        Err(d) => panic!("compile failed:\n{}", d.render("t", src, false)),
    }
}

/// `program.local[0]` scales the unit quad (a push constant), `program.env[0]`
/// offsets it (a uniform block at binding 0).
const VERTEX: &str = "!!NVvp4.0
MAD result.position, vertex.position, program.local[0], program.env[0];
MOV result.texcoord[0], vertex.texcoord[0];
END
";

/// Every kind of resource: a texture, a push constant (`program.local[0]`),
/// a specialization constant (`program.local[1]`), a uniform block
/// (`program.env[0]`) and the State block.
const FRAGMENT: &str = "!!NVfp4.0
TEMP t;
TEX t, fragment.texcoord[0], texture[0], 2D;
MUL t, t, program.local[0];
ADD t, t, program.local[1];
ADD t, t, program.env[0];
ADD result.color, t, state.fog.color;
END
";

/// The words a renderer puts in a uniform block, by what it holds.
fn block_words(binding_name: &str, env: [f32; 4], state: &GlState) -> Vec<u32> {
    match binding_name {
        "program.env" => {
            let mut w = vec![0u32; 4 * 16];
            w[..4].copy_from_slice(&fbits(env));
            w
        }
        "state" => state.to_block().words(),
        other => panic!("unexpected block {other}"),
    }
}

/// (set, binding) of every descriptor of a module.
fn descriptors(r: &Reflection) -> Vec<(u32, u32)> {
    r.uniform_blocks
        .iter()
        .map(|b| (b.set, b.binding))
        .chain(r.textures.iter().map(|t| (t.set, t.binding)))
        .collect()
}

#[test]
fn vertex_and_fragment_programs_share_one_descriptor_set_without_collisions() {
    let mut options = nvp4c::Options::default();
    options.entry_point = "vs_main".into();
    options.layout.vertex.push_constants = PushConstants::Local;
    // The fragment program: set 0 too, its blocks from binding 8 and its
    // textures from 16, its push constants after the vertex program's 16
    // bytes, program.local[1] specialized.
    options.layout.fragment.set = 0;
    options.layout.fragment.uniform_binding = 8;
    options.layout.fragment.texture_binding = 16;
    options.layout.fragment.push_constants = PushConstants::Local;
    options.layout.fragment.push_constant_offset = 16;
    options
        .layout
        .fragment
        .specialize
        .push(Specialization::new(Param::Local(1), 100));
    let vs = compile(VERTEX, &options);
    options.entry_point = "fs_main".into();
    let fs = compile(FRAGMENT, &options);
    let (vr, fr) = (&vs.reflection, &fs.reflection);

    // One set, no binding twice.
    let all: Vec<(u32, u32)> = descriptors(vr).into_iter().chain(descriptors(fr)).collect();
    let unique: BTreeSet<_> = all.iter().collect();
    assert_eq!(unique.len(), all.len(), "{all:?}");
    assert!(all.iter().all(|&(set, _)| set == 0));
    assert_eq!(
        descriptors(fr),
        [(0, 8), (0, 10), (0, 16)],
        "env at 8, the State block at 8 + 2, texture[0] at 16"
    );
    let vpc = vr.push_constants.as_ref().unwrap();
    let fpc = fr.push_constants.as_ref().unwrap();
    assert_eq!(
        (vpc.offset, vpc.size, fpc.offset, fpc.size),
        (0, 16, 16, 16)
    );
    assert_eq!(
        fr.specialization_constants[0].spec_ids,
        [100, 101, 102, 103]
    );
    assert_eq!(
        (vr.entry_point.name.as_str(), fr.entry_point.name.as_str()),
        ("vs_main", "fs_main")
    );

    // The renderer fills everything from the reflection.
    let mut gl = GlState::default();
    gl.fog.color = [0.0, 0.0, -1.0, 0.0];
    let env = |r: &Reflection, v: [f32; 4]| -> Vec<(u32, Vec<u32>)> {
        r.uniform_blocks
            .iter()
            .map(|b| (b.binding, block_words(&b.binding_name, v, &gl)))
            .collect()
    };
    let mut blocks = env(vr, [0.0, 0.0, 0.0, 0.0]);
    blocks.extend(env(fr, [0.0, 0.125, 0.0, 0.0]));
    let unit = &fr.textures[0];
    let texture = Texture::rgba32f_2d(unit.unit, 1, 1, vec![vec![[0.5, 0.25, 1.0, 1.0]]])
        .at_binding(unit.binding);
    let spec: Vec<(u32, u32)> = fr.specialization_constants[0]
        .spec_ids
        .iter()
        .zip(fbits([0.25, 0.0, 0.0, 0.0]))
        .map(|(&id, v)| (id, v))
        .collect();
    let pipeline = PipelineExtras {
        entry_points: [
            vr.entry_point.name.clone(),
            "main".into(),
            fr.entry_point.name.clone(),
        ],
        push_constants: vec![
            (
                vk::ShaderStageFlags::VERTEX,
                vpc.offset,
                fbits([0.5, 0.5, 1.0, 1.0]).to_vec(),
            ),
            (
                vk::ShaderStageFlags::FRAGMENT,
                fpc.offset,
                fbits([2.0, 2.0, 2.0, 1.0]).to_vec(),
            ),
        ],
        specialization: [Vec::new(), Vec::new(), spec],
    };
    // The unit quad as two triangles: position at Location 0, texcoord[0]
    // at Location 8.
    let corner = |x: f32, y: f32| {
        vec![
            Input::float(0, [x, y, 0.0, 1.0]),
            Input::float(8, [0.5, 0.5, 0.0, 1.0]),
        ]
    };
    let vertices = vec![
        corner(-1.0, -1.0),
        corner(1.0, -1.0),
        corner(-1.0, 1.0),
        corner(-1.0, 1.0),
        corner(1.0, -1.0),
        corner(1.0, 1.0),
    ];
    let job = RasterJob {
        descriptor_set: 0,
        blocks: Some(blocks),
        textures: vec![texture],
        pipeline,
        ..RasterJob::new(vertices, vk::PrimitiveTopology::TRIANGLE_LIST)
    };
    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    let out = dev
        .run_raster(&vs.spirv, None, &fs.spirv, &job)
        .unwrap_or_else(|e| panic!("run failed: {e}"));
    // Texel (0.5, 0.25, 1, 1) x push (2, 2, 2, 1) + spec (0.25, 0, 0, 0)
    // + env (0, 0.125, 0, 0) + fog colour (0, 0, -1, 0) = (1.25, 0.625, 1, 1).
    assert_eq!(out.f32(16, 16), [1.25, 0.625, 1.0, 1.0]);
    // The quad was scaled by the vertex program's push constant 0.5: the
    // corners of the 32x32 target stay clear.
    assert!(out.cleared(1, 1) && out.cleared(30, 30));
}

const PASS_POSITION: &str = "!!NVvp4.0\nMOV result.position, vertex.position;\nEND\n";

#[test]
fn invert_y_and_gl_depth_convert_a_vertex_programs_position() {
    let mut options = nvp4c::Options::default();
    options.invert_y = true;
    options.depth_range = DepthRange::Gl;
    let vs = compile(PASS_POSITION, &options);
    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    let vertices = [
        [0.5, 0.25, -1.0, 1.0],
        [1.0, 2.0, 3.0, 4.0],
        [0.0, -1.5, 0.5, 0.5],
    ];
    let job = VertexJob::new(
        vertices.iter().map(|v| vec![Input::float(0, *v)]).collect(),
        vec![Capture::Position],
    );
    let out = dev.run_vertex(&vs.spirv, &job).unwrap();
    // (x, -y, (z + w) / 2, w)
    assert_eq!(out.position_f32(0), [0.5, -0.25, 0.0, 1.0]);
    assert_eq!(out.position_f32(1), [1.0, -2.0, 3.5, 4.0]);
    assert_eq!(out.position_f32(2), [0.0, 1.5, 0.5, 0.5]);
}

#[test]
fn invert_y_and_gl_depth_convert_each_vertex_a_geometry_program_emits() {
    let gp = "!!NVgp4.0
PRIMITIVE_IN POINTS;
PRIMITIVE_OUT LINE_STRIP;
VERTICES_OUT 2;
MOV result.position, vertex[0].position;
EMIT;
ADD result.position, vertex[0].position, {0, 1, 0, 0};
EMIT;
END
";
    let vs = compile(PASS_POSITION, &nvp4c::Options::default());
    let mut options = nvp4c::Options::default();
    options.invert_y = true;
    options.depth_range = DepthRange::Gl;
    let gs = compile(gp, &options);
    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    let job = GeometryJob::new(
        vec![vec![Input::float(0, [0.5, 0.25, 0.0, 1.0])]],
        vk::PrimitiveTopology::POINT_LIST,
        vec![Capture::Position],
    );
    let out = dev.run_geometry(&vs.spirv, &gs.spirv, &job).unwrap();
    assert_eq!(out.position_f32(0), [0.5, -0.25, 0.5, 1.0]);
    assert_eq!(out.position_f32(1), [0.5, -1.25, 0.5, 1.0]);
}

#[test]
fn invert_y_draws_gl_up_at_the_top_of_the_target() {
    // A triangle with GL's y > 0 (the upper half in GL): without
    // --invert-y Vulkan draws it in the lower half of the framebuffer
    // (its y points down), with it in the upper half.
    let fs = compile(
        "!!NVfp4.0\nMOV result.color, {1, 0, 0, 1};\nEND\n",
        &nvp4c::Options::default(),
    );
    let triangle = || {
        [[-1.0, 0.1], [1.0, 0.1], [0.0, 1.0]]
            .iter()
            .map(|&[x, y]| vec![Input::float(0, [x, y, 0.0, 1.0])])
            .collect::<Vec<_>>()
    };
    let mut flipped = nvp4c::Options::default();
    flipped.invert_y = true;
    for (options, top_covered) in [(nvp4c::Options::default(), false), (flipped, true)] {
        let vs = compile(PASS_POSITION, &options);
        let Some(dev) = harness::device_or_skip() else {
            return;
        };
        let job = RasterJob {
            descriptor_set: 0,
            ..RasterJob::new(triangle(), vk::PrimitiveTopology::TRIANGLE_LIST)
        };
        let out = dev.run_raster(&vs.spirv, None, &fs.spirv, &job).unwrap();
        // Row 4 (near the top) and row 27 (near the bottom) at the centre.
        assert_eq!(
            !out.cleared(16, 4),
            top_covered,
            "invert_y = {}",
            options.invert_y
        );
        assert_eq!(
            !out.cleared(16, 27),
            !top_covered,
            "invert_y = {}",
            options.invert_y
        );
    }
}

#[test]
fn specialized_and_pushed_parameters_read_right_through_a_relative_array() {
    // c[i] reads program.local[0..3]: with PushConstants::Fit and 64 bytes
    // of push constants, program.local (4 vec4s) is pushed and program.env
    // stays a uniform block; program.local[2] is a specialization constant.
    let src = "!!NVfp4.0
PARAM c[] = { program.local[0..3] };
INT TEMP i;
FLR.S i, fragment.texcoord[0];
ADD result.color, c[i.x], program.env[0];
END
";
    let mut options = nvp4c::Options::default();
    options.device_limits.max_push_constants_size = 64;
    options.layout.fragment.push_constants = PushConstants::Fit;
    let mut spec = Specialization::new(Param::Local(2), 5);
    spec.default = fbits([7.0; 4]);
    options.layout.fragment.specialize.push(spec);
    let fs = compile(src, &options);
    let r = &fs.reflection;
    let pc = r.push_constants.as_ref().unwrap();
    assert_eq!((pc.offset, pc.size), (0, 64));
    assert_eq!(r.uniform_blocks.len(), 1);
    assert_eq!(r.uniform_blocks[0].binding_name, "program.env");
    assert_eq!(r.specialization_constants[0].default, fbits([7.0; 4]));
    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    // The pushed words of program.local[2] are never read: 99.
    let local: Vec<u32> = [[1.0; 4], [2.0; 4], [99.0; 4], [4.0; 4]]
        .iter()
        .flat_map(|v| fbits(*v))
        .collect();
    let cases: Vec<Vec<Input>> = (0..4)
        .map(|i| vec![Input::float(5, [i as f32, 0.0, 0.0, 0.0])])
        .collect();
    for (specialized, third) in [(true, 30.5), (false, 7.5)] {
        let specialization = if specialized {
            let ids = r.specialization_constants[0].spec_ids;
            ids.iter()
                .zip(fbits([30.0; 4]))
                .map(|(&id, v)| (id, v))
                .collect()
        } else {
            Vec::new()
        };
        let job = harness::FragmentJob {
            env: vec![fbits([0.5; 4])],
            pipeline: PipelineExtras {
                push_constants: vec![(vk::ShaderStageFlags::FRAGMENT, 0, local.clone())],
                specialization: [Vec::new(), Vec::new(), specialization],
                ..PipelineExtras::default()
            },
            ..harness::FragmentJob::new(cases.clone())
        };
        let out = dev.run_fragment(&fs.spirv, &job).unwrap();
        for (i, want) in [1.5, 2.5, third, 4.5].iter().enumerate() {
            assert_eq!(
                out.f32(i),
                [*want; 4],
                "c[{i}], specialized = {specialized}"
            );
        }
    }
}
