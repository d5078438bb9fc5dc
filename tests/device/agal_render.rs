//! A Stage3D-style scene: a textured, lit mesh written in AGAL assembly (a
//! vertex program transforming positions and normals with constant
//! matrices and lighting per vertex, a fragment program modulating a
//! texture by the light), compiled with the Stage3D-to-Vulkan y flip,
//! rasterised on lavapipe and checked against the colours a person
//! computes for the sphere: the texture's checker colour times
//! ambient + max(0, N·L), the lit side up and to the left.
//!
//! The image is also written to `$CARGO_TARGET_TMPDIR/agal-lit-mesh.png`
//! for a look.

use ash::vk;

use crate::harness::{self, fbits, Input, RasterJob, SamplerDesc, Texture};
use nvp4c::ir::{Filter, Wrap};

const VERTEX: &str = "// AGAL2 vertex program: a lit, textured mesh
m44 op, va0, vc0          // clip position: rows vc0-vc3 (orthographic)
m33 vt0.xyz, va1, vc4     // the normal, by the normal matrix vc4-vc6
nrm vt0.xyz, vt0.xyz
dp3 vt1.x, vt0.xyz, vc7.xyz  // N.L
max vt1.x, vt1.x, vc8.x      // no negative light
add vt1.x, vt1.x, vc8.y      // plus the ambient term
mov v0, va2               // texture coordinate
mov v1, vt1.xxxx          // light
";

const FRAGMENT: &str = "// AGAL2 fragment program: texture times light
tex ft0, v0, fs0 <2d,linear,repeat,mipnone>
mul ft0.xyz, ft0.xyz, v1.xyz
mov ft0.w, fc10.w
mov oc, ft0
";

const SIZE: u32 = 64;
const GRID: usize = 32;
const AMBIENT: f32 = 0.2;
const WHITE: [f32; 3] = [1.0, 1.0, 1.0];
const BLUE: [f32; 3] = [0.25, 0.5, 0.75];

fn light() -> [f32; 3] {
    let l: [f32; 3] = [-0.5, 0.5, 0.7];
    let n = (l[0] * l[0] + l[1] * l[1] + l[2] * l[2]).sqrt();
    l.map(|c| c / n)
}

/// The front hemisphere's point at texture coordinate (u, v): longitude
/// from -90° (u = 0) to 90°, latitude from 90° (v = 0, the top) to -90°;
/// Stage3D's y points up, z towards the viewer.
fn sphere(u: f32, v: f32) -> [f32; 3] {
    use std::f32::consts::PI;
    let (theta, phi) = ((u - 0.5) * PI, (0.5 - v) * PI);
    [phi.cos() * theta.sin(), phi.sin(), phi.cos() * theta.cos()]
}

/// The checker square of (u, v): 4 × 4 squares over [0, 1]².
fn checker(u: f32, v: f32) -> [f32; 3] {
    if ((u * 4.0) as u32 + (v * 4.0) as u32).is_multiple_of(2) {
        WHITE
    } else {
        BLUE
    }
}

#[test]
fn a_textured_lit_mesh_written_in_agal_renders() {
    let mut options = nvp4c::Options::default();
    options.agal.flip_y = true;
    // The raster harness binds one descriptor set for both programs; the
    // vertex constants are vc0-vc8, the fragment's fc10.
    options.descriptor_set = Some(1);
    let compile = |text: &str| {
        nvp4c::compile(text, &options)
            .unwrap_or_else(|d| panic!("{}", d.render("mesh.agalasm", text, false)))
    };
    let vs = compile(VERTEX);
    let fs = compile(FRAGMENT);

    // The sampler as the reflection states it.
    let state = fs.reflection.textures[0]
        .sampler
        .expect("the program fixes its sampler");
    assert_eq!(
        (state.filter, state.wrap_u, state.wrap_v),
        (Filter::Linear, Wrap::Repeat, Wrap::Repeat)
    );
    // An 8×8 checker of 2×2-texel squares: 4 × 4 squares over [0, 1]².
    let texels = (0..8)
        .flat_map(|y| {
            (0..8).map(move |x| {
                let c = if (x / 2 + y / 2) % 2 == 0 {
                    WHITE
                } else {
                    BLUE
                };
                [c[0], c[1], c[2], 1.0]
            })
        })
        .collect();
    let texture = Texture::rgba32f_2d(0, 8, 8, vec![texels]).with_sampler(SamplerDesc {
        filter: vk::Filter::LINEAR,
        address: vk::SamplerAddressMode::REPEAT,
        max_lod: 0.25,
        ..SamplerDesc::default()
    });

    // The mesh: a GRID × GRID patch of the front hemisphere, as triangles.
    let vertex = |i: usize, j: usize| {
        let (u, v) = (i as f32 / GRID as f32, j as f32 / GRID as f32);
        let p = sphere(u, v);
        vec![
            Input::float(0, [p[0], p[1], p[2], 1.0]),
            Input::float(1, [p[0], p[1], p[2], 0.0]),
            Input::float(2, [u, v, 0.0, 0.0]),
        ]
    };
    let mut vertices = Vec::new();
    for j in 0..GRID {
        for i in 0..GRID {
            for (a, b) in [(0, 0), (1, 0), (0, 1), (1, 0), (1, 1), (0, 1)] {
                vertices.push(vertex(i + a, j + b));
            }
        }
    }
    let l = light();
    let mut env = vec![[0.0f32; 4]; 11];
    env[0] = [0.9, 0.0, 0.0, 0.0];
    env[1] = [0.0, 0.9, 0.0, 0.0];
    env[2] = [0.0, 0.0, -0.4, 0.5];
    env[3] = [0.0, 0.0, 0.0, 1.0];
    env[4] = [1.0, 0.0, 0.0, 0.0];
    env[5] = [0.0, 1.0, 0.0, 0.0];
    env[6] = [0.0, 0.0, 1.0, 0.0];
    env[7] = [l[0], l[1], l[2], 0.0];
    env[8] = [0.0, AMBIENT, 0.0, 0.0];
    env[10] = [0.0, 0.0, 0.0, 1.0];
    let job = RasterJob {
        env: env.into_iter().map(fbits).collect(),
        textures: vec![texture],
        width: SIZE,
        height: SIZE,
        ..RasterJob::new(vertices, vk::PrimitiveTopology::TRIANGLE_LIST)
    };
    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    let out = dev
        .run_raster(&vs.spirv, None, &fs.spirv, &job)
        .expect("renders");
    write_png(&out);

    // Corners are outside the disc: background.
    for (x, y) in [(0, 0), (SIZE - 1, 0), (0, SIZE - 1), (SIZE - 1, SIZE - 1)] {
        assert!(out.cleared(x, y), "pixel ({x}, {y}) is outside the sphere");
    }
    // The centre of every checker square away from the rim: its colour
    // times the light at that point of the sphere.
    let mut checked = 0;
    for m in 0..4 {
        for k in 0..4 {
            let (u, v) = ((k as f32 + 0.5) / 4.0, (m as f32 + 0.5) / 4.0);
            let p = sphere(u, v);
            if p[2] < 0.5 {
                continue; // near the rim, triangles are thin on screen
            }
            // Orthographic, scale 0.9; Stage3D's +y is the top row after the flip.
            let x = ((0.9 * p[0] + 1.0) / 2.0 * SIZE as f32) as u32;
            let y = ((1.0 - 0.9 * p[1]) / 2.0 * SIZE as f32) as u32;
            let lit = AMBIENT + (p[0] * l[0] + p[1] * l[1] + p[2] * l[2]).max(0.0);
            let c = checker(u, v);
            let want = [c[0] * lit, c[1] * lit, c[2] * lit, 1.0];
            let got = out.f32(x, y);
            for i in 0..4 {
                assert!(
                    (got[i] - want[i]).abs() < 0.04,
                    "square ({k}, {m}) at pixel ({x}, {y}): got {got:?}, want {want:?}"
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 4);
    // Lit from the upper left: brighter there than at the lower right.
    let luminance = |x: u32, y: u32| out.f32(x, y)[..3].iter().sum::<f32>();
    let (a, b) = (SIZE / 4 + 2, 3 * SIZE / 4 - 2);
    let normalised = |x, y, c: [f32; 3]| luminance(x, y) / c.iter().sum::<f32>();
    let upper_left = normalised(a, a, checker(0.3, 0.3));
    let lower_right = normalised(b, b, checker(0.7, 0.7));
    assert!(
        upper_left > lower_right + 0.3,
        "upper left {upper_left}, lower right {lower_right}"
    );
}

fn write_png(out: &harness::RasterOutput) {
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("agal-lit-mesh.png");
    let Ok(file) = std::fs::File::create(&path) else {
        return;
    };
    let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), SIZE, SIZE);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut data = Vec::new();
    for y in 0..SIZE {
        for x in 0..SIZE {
            let px = if out.cleared(x, y) {
                [0.0, 0.0, 0.0, 1.0]
            } else {
                out.f32(x, y)
            };
            data.extend(px.map(|c| (c.clamp(0.0, 1.0) * 255.0).round() as u8));
        }
    }
    if let Ok(mut writer) = encoder.write_header() {
        let _ = writer.write_image_data(&data);
    }
}
