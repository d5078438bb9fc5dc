//! A Direct3D 9-style vs_3_0/ps_3_0 pair rendered on lavapipe: a quad
//! skinned by two bones (blend indices through `mova a0.xy` into the bone
//! palette, blend weights), lit per vertex (normals through the bones,
//! `nrm`, `dp3` with a light direction) and textured per pixel (`texld`
//! with a nearest-filtered 4x4 texture), and the image checked pixel by
//! pixel against values computed here.
//!
//! The vertices are placed so that each one reaches its clip-space corner
//! only through its own bones: bone 0 translates by (-1, -1), bone 1 is the
//! identity, and vertex B blends both half and half. A wrong bone index,
//! weight or relative address moves a corner and the pixels show it.

use ash::vk;

use crate::harness::{self, Input, RasterJob, Texture};

const VS: &str = "vs_3_0
def c4, 3, 0, 1, 0
dcl_position v0
dcl_normal v1
dcl_texcoord0 v2
dcl_blendindices v3
dcl_blendweight v4
dcl_position o0
dcl_color0 o1
dcl_texcoord0 o2
// The bone palette: 3 rows per bone from c10.
mul r9.xy, v3.xy, c4.x
mova a0.xy, r9.xy
dp4 r0.x, v0, c10[a0.x]
dp4 r0.y, v0, c11[a0.x]
dp4 r0.z, v0, c12[a0.x]
dp4 r1.x, v0, c10[a0.y]
dp4 r1.y, v0, c11[a0.y]
dp4 r1.z, v0, c12[a0.y]
mul r1.xyz, r1, v4.y
mad r0.xyz, r0, v4.x, r1
mov r0.w, c4.z
m4x4 r5, r0, c0
mov o0, r5
// The normal through the same bones, normalised, lit by c5.
dp3 r2.x, v1, c10[a0.x]
dp3 r2.y, v1, c11[a0.x]
dp3 r2.z, v1, c12[a0.x]
dp3 r3.x, v1, c10[a0.y]
dp3 r3.y, v1, c11[a0.y]
dp3 r3.z, v1, c12[a0.y]
mul r3.xyz, r3, v4.y
mad r2.xyz, r2, v4.x, r3
nrm r6.xyz, r2
dp3 r7.x, r6, c5
max r7.x, r7.x, c4.y
mov o1, r7.x
mov o2, v2
";

const PS: &str = "ps_3_0
dcl_color0 v0
dcl_texcoord0 v1.xy
dcl_2d s0
texld r0, v1, s0
mad oC0, r0, v0.x, c20
";

const SIZE: u32 = 16;

/// (object position, normal, uv, blend indices, blend weights) of the
/// quad's corners A (top left), B (top right), C (bottom left), D
/// (bottom right) in Direct3D 9's clip space (y up).
#[allow(clippy::type_complexity)]
const CORNERS: [([f32; 4], [f32; 4], [f32; 4], [f32; 4], [f32; 4]); 4] = [
    // A: bone 0 takes (0, 2) to (-1, 1).
    (
        [0.0, 2.0, 0.0, 1.0],
        [0.0, 0.0, 2.0, 0.0],
        [0.0, 0.0, 0.0, 1.0],
        [0.0, 1.0, 0.0, 0.0],
        [1.0, 0.0, 0.0, 0.0],
    ),
    // B: half bone 1 (itself), half bone 0 (minus 1): (1.5, 1.5) to (1, 1).
    (
        [1.5, 1.5, 0.0, 1.0],
        [1.2, 0.0, 1.6, 0.0],
        [1.0, 0.0, 0.0, 1.0],
        [1.0, 0.0, 0.0, 0.0],
        [0.5, 0.5, 0.0, 0.0],
    ),
    // C: bone 1 keeps (-1, -1).
    (
        [-1.0, -1.0, 0.0, 1.0],
        [0.0, 0.0, 2.0, 0.0],
        [0.0, 1.0, 0.0, 1.0],
        [1.0, 0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0, 0.0],
    ),
    // D: bone 0 takes (2, 0) to (1, -1).
    (
        [2.0, 0.0, 0.0, 1.0],
        [1.2, 0.0, 1.6, 0.0],
        [1.0, 1.0, 0.0, 1.0],
        [0.0, 1.0, 0.0, 0.0],
        [1.0, 0.0, 0.0, 0.0],
    ),
];

fn constants() -> Vec<[u32; 4]> {
    let mut c = vec![[0.0f32; 4]; 21];
    // c0-c3: the view-projection rows (identity).
    for (n, row) in c.iter_mut().take(4).enumerate() {
        row[n] = 1.0;
    }
    // c5: the light direction.
    c[5] = [0.0, 0.0, 1.0, 0.0];
    // Bone 0 (c10-c12): translate by (-1, -1). Bone 1 (c13-c15): identity.
    c[10] = [1.0, 0.0, 0.0, -1.0];
    c[11] = [0.0, 1.0, 0.0, -1.0];
    c[12] = [0.0, 0.0, 1.0, 0.0];
    c[13] = [1.0, 0.0, 0.0, 0.0];
    c[14] = [0.0, 1.0, 0.0, 0.0];
    c[15] = [0.0, 0.0, 1.0, 0.0];
    // c20: the pixel shader's ambient term (one constant file for both
    // stages: the harness binds one set to every stage).
    c[20] = [0.125, 0.125, 0.125, 0.0];
    c.into_iter().map(harness::fbits).collect()
}

/// Texel (i, j) = (i / 4, j / 4, 0.5, 1), row j = 0 at v = 0.
fn texture() -> Texture {
    let texels: Vec<[f32; 4]> = (0..16)
        .map(|k| [(k % 4) as f32 / 4.0, (k / 4) as f32 / 4.0, 0.5, 1.0])
        .collect();
    Texture::rgba32f_2d(0, 4, 4, vec![texels])
}

/// The colour of pixel (x, y) a person computes: the light is 1 at the
/// left edge (normal (0, 0, 1)) and 0.8 at the right ((0.6, 0, 0.8)
/// after nrm), linear in x between (d = 0.9 - 0.1 x in clip space); the
/// texel is (x / 4, row / 4) of the texture, where `row` counts from v = 0.
fn expected(x: u32, row: u32) -> [f32; 4] {
    let clip_x = (x as f32 + 0.5) / (SIZE as f32 / 2.0) - 1.0;
    let d = 0.9 - 0.1 * clip_x;
    let (i, j) = (x / 4, row / 4);
    let tex = [i as f32 / 4.0, j as f32 / 4.0, 0.5, 1.0];
    let ambient = [0.125, 0.125, 0.125, 0.0];
    std::array::from_fn(|c| tex[c] * d + ambient[c])
}

fn render(flip_y: bool) -> Option<harness::RasterOutput> {
    let dev = harness::device_or_skip()?;
    let mut options = nvp4c::Options::default();
    // Both stages' parameters in the harness's one set.
    options.descriptor_set = Some(1);
    options.d3d9.flip_y = flip_y;
    let vs = super::compile(VS, &options);
    let ps = super::compile(PS, &options);
    // The two shaders link (Locations from the semantics).
    let vs_bytes = nvp4c::front::d3d9::assemble::assemble_bytes(VS).unwrap();
    let ps_bytes = nvp4c::front::d3d9::assemble::assemble_bytes(PS).unwrap();
    let report = nvp4c::link::check_pipeline_bytes(
        &[("skin.vso", &vs_bytes), ("skin.pso", &ps_bytes)],
        &options,
    )
    .unwrap();
    assert!(!report.has_errors(), "{:?}", report.diagnostics);
    let vertices: Vec<Vec<Input>> = [0usize, 1, 2, 2, 1, 3]
        .iter()
        .map(|&k| {
            let (pos, normal, uv, indices, weights) = CORNERS[k];
            vec![
                Input::float(0, pos),
                Input::float(1, normal),
                Input::float(2, uv),
                Input::float(3, indices),
                Input::float(4, weights),
            ]
        })
        .collect();
    let job = RasterJob {
        width: SIZE,
        height: SIZE,
        env: constants(),
        textures: vec![texture()],
        ..RasterJob::new(vertices, vk::PrimitiveTopology::TRIANGLE_LIST)
    };
    Some(
        dev.run_raster(&vs.spirv, None, &ps.spirv, &job)
            .unwrap_or_else(|e| panic!("{e:?}")),
    )
}

fn check(out: &harness::RasterOutput, row_of: impl Fn(u32) -> u32, what: &str) {
    for y in 0..SIZE {
        for x in 0..SIZE {
            let got = out.f32(x, y);
            let want = expected(x, row_of(y));
            assert!(
                (0..4).all(|c| (got[c] - want[c]).abs() <= 1e-4),
                "{what}: pixel ({x}, {y}) is {got:?}, want {want:?}"
            );
        }
    }
}

#[test]
fn a_skinned_lit_textured_vs_3_0_ps_3_0_pair_renders_the_expected_image() {
    // flip_y: Direct3D 9's clip-space y up becomes Vulkan's, so the top
    // of the quad (v = 0) is the image's row 0, as Direct3D 9 shows it.
    let Some(out) = render(true) else { return };
    check(&out, |y| y, "flip_y");
}

#[test]
fn without_flip_y_the_same_pair_renders_upside_down_in_vulkan() {
    // Vulkan's framebuffer y points down: without the conversion the
    // image is Direct3D 9's mirrored vertically (a renderer may instead
    // use a negative viewport height, docs/interface.md).
    let Some(out) = render(false) else { return };
    check(&out, |y| SIZE - 1 - y, "no flip_y");
}
