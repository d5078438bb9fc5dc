//! Direct3D 9 shaders under the binding layout a renderer chooses
//! (docs/interface.md, "Direct3D 9" and "Binding layout"): `c#` are
//! `program.env[#]`, so push constants, specialization constants and the
//! binding bases apply to them. Each pipeline is built from the
//! reflection, as a renderer would build it, and the pixels are compared
//! with values computed by hand.

use ash::vk;

use crate::harness::{self, fbits, Input, PipelineExtras, RasterJob};
use nvp4c::layout::{Param, PushConstants, Specialization};

const PASS_POSITION: &str = "vs_2_0\ndcl_position v0\nmov oPos, v0\n";

/// Two triangles covering the whole target.
fn quad() -> Vec<Vec<Input>> {
    [
        [-1.0, -1.0],
        [1.0, -1.0],
        [-1.0, 1.0],
        [-1.0, 1.0],
        [1.0, -1.0],
        [1.0, 1.0],
    ]
    .iter()
    .map(|&[x, y]| vec![Input::float(0, [x, y, 0.0, 1.0])])
    .collect()
}

/// `c0` a push constant, `c1` the shader's own `def`, `c2` a
/// specialization constant: the sum is what the pixel shows.
#[test]
fn pixel_shader_constants_become_push_and_specialization_constants() {
    let ps_asm = "ps_2_0
def c1, 0.25, 0.5, 0, 0
add r0, c0, c1
add r0, r0, c2
mov oC0, r0
";
    let mut options = nvp4c::Options::default();
    options.layout.fragment.push_constants = PushConstants::Env;
    options
        .layout
        .fragment
        .specialize
        .push(Specialization::new(Param::Env(2), 7));
    let vs = super::compile(PASS_POSITION, &options);
    let ps = super::compile(ps_asm, &options);

    // The reflection names them as the shader does.
    let pc = ps
        .reflection
        .push_constants
        .as_ref()
        .expect("c# are push constants");
    let c0 = pc
        .parameters
        .iter()
        .find(|p| p.binding == "c0")
        .unwrap_or_else(|| panic!("no c0 in {:?}", pc.parameters));
    let spec = &ps.reflection.specialization_constants;
    assert_eq!(spec.len(), 1, "{spec:?}");
    assert_eq!(
        (spec[0].binding.as_str(), spec[0].spec_ids),
        ("c2", [7, 8, 9, 10])
    );
    assert!(ps.reflection.uniform_blocks.is_empty());

    // The whole push constant range the module declares, c0 at its offset.
    let mut words = vec![0u32; (pc.size / 4) as usize];
    let at = ((c0.offset - pc.offset) / 4) as usize;
    words[at..at + 4].copy_from_slice(&fbits([0.5, 0.125, 1.0, 0.25]));
    let job = RasterJob {
        width: 8,
        height: 8,
        pipeline: PipelineExtras {
            push_constants: vec![(vk::ShaderStageFlags::FRAGMENT, pc.offset, words)],
            specialization: [
                Vec::new(),
                Vec::new(),
                spec[0]
                    .spec_ids
                    .iter()
                    .zip(fbits([0.0, 0.25, -0.5, 0.5]))
                    .map(|(&id, v)| (id, v))
                    .collect(),
            ],
            ..PipelineExtras::default()
        },
        ..RasterJob::new(quad(), vk::PrimitiveTopology::TRIANGLE_LIST)
    };
    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    let out = dev
        .run_raster(&vs.spirv, None, &ps.spirv, &job)
        .unwrap_or_else(|e| panic!("{e:?}"));
    // c0 (0.5, 0.125, 1, 0.25) + c1 (0.25, 0.5, 0, 0) + c2 (0, 0.25, -0.5, 0.5).
    assert_eq!(out.f32(4, 4), [0.75, 0.875, 0.5, 0.75]);
}

/// `c1[a0.x]` reads one array over the whole constant file, in which the
/// `def`'d `c1` holds its literal, the specialized `c2` its specialization
/// constant, and the others the uniform block, here at binding 8.
#[test]
fn a_relatively_addressed_constant_file_mixes_defs_specialized_and_bound_registers() {
    let vs_asm = "vs_2_0
def c1, 0.25, 0.5, 0.75, 1
dcl_position v0
mov oPos, v0
mova a0.x, c0.x
mov oT0, c1[a0.x]
";
    let ps_asm = "ps_2_0\ndcl t0\nmov oC0, t0\n";
    let mut options = nvp4c::Options::default();
    // Both shaders in set 0; the vertex shader's blocks from binding 8.
    options.descriptor_set = Some(0);
    options.layout.vertex.uniform_binding = 8;
    options
        .layout
        .vertex
        .specialize
        .push(Specialization::new(Param::Env(2), 20));
    let vs = super::compile(vs_asm, &options);
    let ps = super::compile(ps_asm, &options);
    let block = &vs.reflection.uniform_blocks;
    assert_eq!(block.len(), 1, "{block:?}");
    assert_eq!((block[0].binding_name.as_str(), block[0].binding), ("c", 8));
    assert_eq!(vs.reflection.specialization_constants[0].binding, "c2");

    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    let spec: Vec<(u32, u32)> = vs.reflection.specialization_constants[0]
        .spec_ids
        .iter()
        .zip(fbits([0.5, 0.25, 0.125, 1.0]))
        .map(|(&id, v)| (id, v))
        .collect();
    for (index, want) in [
        // c1: the def, not the block's (7, 7, 7, 7).
        (0.0, [0.25, 0.5, 0.75, 1.0]),
        // c2: the specialization constant, not the block's (9, 9, 9, 9).
        (1.0, [0.5, 0.25, 0.125, 1.0]),
        // c3: the block.
        (2.0, [1.0, 0.75, 0.5, 0.25]),
    ] {
        // The block as the reflection sizes it (the whole file: it is
        // relatively addressed).
        let mut words = vec![0u32; (block[0].size / 4) as usize];
        for (n, v) in [
            (0, [index, 0.0, 0.0, 0.0]),
            (1, [7.0; 4]),
            (2, [9.0; 4]),
            (3, [1.0, 0.75, 0.5, 0.25]),
        ] {
            words[4 * n..4 * n + 4].copy_from_slice(&fbits(v));
        }
        let job = RasterJob {
            width: 8,
            height: 8,
            descriptor_set: 0,
            blocks: Some(vec![(block[0].binding, words)]),
            pipeline: PipelineExtras {
                specialization: [spec.clone(), Vec::new(), Vec::new()],
                ..PipelineExtras::default()
            },
            ..RasterJob::new(quad(), vk::PrimitiveTopology::TRIANGLE_LIST)
        };
        let out = dev
            .run_raster(&vs.spirv, None, &ps.spirv, &job)
            .unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(out.f32(4, 4), want, "a0.x = {index}");
    }
}
