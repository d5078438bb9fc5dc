//! Execution tests of EXT_shader_image_load_store's image instructions in
//! NV_gpu_program5 assembly (LOADIM, STOREIM, ATOMIM) on the Vulkan device:
//! storage images at binding 80 + n of set 0 (docs/interface.md,
//! "Images"), uploaded and read back by the harness
//! (`Device::run_compute_images`), and in the interpreter on the same
//! texels (`interp::Inputs::images`). Every expected value is computed by
//! hand from the spec's pseudocode (EXT_shader_image_load_store,
//! "Dependencies on NV_gpu_program5", sections 2.X.8.Z and 3.9.X) and
//! holds for both.

use ash::vk;

use crate::harness::{self, ComputeJob, StorageImage, TextureKind};

fn compile(src: &str) -> Vec<u32> {
    match nvp4c::compile(src, &nvp4c::Options::default()) {
        Ok(c) => c.spirv,
        Err(d) => panic!("compile failed:\n{}", d.render("t.cp", src, false)),
    }
}

fn image(
    unit: u32,
    kind: TextureKind,
    format: vk::Format,
    extent: [u32; 3],
    layers: u32,
    words: Vec<u32>,
) -> StorageImage {
    StorageImage {
        binding: 80 + unit,
        element: 0,
        kind,
        format,
        extent,
        layers,
        words,
        samples: 1,
        view_format: None,
    }
}

/// The images after one run on the device (when there is one) and one in
/// the interpreter, each named for the assertion messages.
fn run(src: &str, images: Vec<StorageImage>) -> Vec<(&'static str, Vec<Vec<u32>>)> {
    let mut runs = vec![("interpreter", interpret(src, &images))];
    if let Some(device) = harness::device_or_skip() {
        let mut job = ComputeJob::new([1, 1, 1], Vec::new());
        job.images = images;
        let (_, out) = device
            .run_compute_images(&compile(src), &job)
            .expect("compute run");
        runs.push(("device", out));
    }
    runs
}

/// The interpreter's run on the same texels: an image's extent along the
/// target's coordinates (Table X.5), so the layers of an array are its
/// last extent.
fn interpret(src: &str, images: &[StorageImage]) -> Vec<Vec<u32>> {
    let (program, _) = nvp4c::check(src, &nvp4c::Options::default()).expect("checks");
    let mut inputs = nvp4c::interp::Inputs::default();
    for i in images {
        let [w, h, d] = i.extent;
        let extent = match i.kind {
            TextureKind::Array1D => [w, i.layers, 1],
            TextureKind::Array2D => [w, h, i.layers],
            _ => [w, h, d],
        };
        let mut image = nvp4c::interp::Image::from_words(extent, &i.words);
        if i.samples > 1 {
            // The harness clears a multisample image (it cannot upload
            // one): zeros, room for any format's samples.
            image.samples = i.samples;
            image.bytes = vec![0; 16 * (w * h * d * i.layers * i.samples) as usize];
        }
        inputs.images.insert(i.binding - 80, image);
    }
    let outcome = nvp4c::interp::run(&program, &inputs, &Default::default()).expect("runs");
    assert!(outcome.undefined.is_empty(), "{:?}", outcome.undefined);
    images
        .iter()
        .map(|i| outcome.images[&(i.binding - 80)].words())
        .collect()
}

/// A 2D R32UI image: LOADIM (one component: "y, z, and w ... zero, zero,
/// and one"), unformatted STOREIM, every unsigned ATOMIM operation, and
/// accesses outside the image ("Invalid image loads will return zero.
/// Invalid image stores will have no effect. Invalid image atomics will
/// not update any texture ... and will return zero").
#[test]
fn image_2d_load_store_and_unsigned_atomics() {
    let src = "!!NVcp5.0
GROUP_SIZE 1;
IMAGE data = image[0];
IMAGE res = image[1];
INT TEMP c;
UINT TEMP r, a;
MOV.S c, {2, 1, 7, 9};
LOADIM.U32 r, c, data, 2D;
STOREIM.U32X4 res, r, {0, 0, 0, 0}, 2D;
ADD.U r.x, r.x, 1000;
STOREIM.U32 data, r, {0, 0, 0, 0}, 2D;
ATOMIM.ADD.U32 a.x, {5, 0, 0, 0}, {3, 1, 0, 0}, data, 2D;
ATOMIM.CSWAP.U32 a.y, {101, 555, 0, 0}, {1, 0, 0, 0}, data, 2D;
ATOMIM.CSWAP.U32 a.z, {0, 666, 0, 0}, {2, 0, 0, 0}, data, 2D;
ATOMIM.IWRAP.U32 a.w, {103, 0, 0, 0}, {3, 0, 0, 0}, data, 2D;
STOREIM.U32X4 res, a, {1, 0, 0, 0}, 2D;
LOADIM.U32 r, {4, 0, 0, 0}, data, 2D;
STOREIM.U32X4 res, r, {2, 0, 0, 0}, 2D;
ATOMIM.DWRAP.U32 a.x, {10, 0, 0, 0}, {0, 1, 0, 0}, data, 2D;
ATOMIM.MAX.U32 a.y, {200, 0, 0, 0}, {1, 1, 0, 0}, data, 2D;
ATOMIM.ADD.U32 a.z, {1, 0, 0, 0}, {-1, 0, 0, 0}, data, 2D;
STOREIM.U32 data, {999, 0, 0, 0}, {0, 2, 0, 0}, 2D;
MOV.U a.w, 7;
STOREIM.U32X4 res, a, {3, 0, 0, 0}, 2D;
END
";
    // Texel (x, y) of the 4x2 image holds 100 + 4y + x.
    let data: Vec<u32> = (100..108).collect();
    for (who, out) in run(
        src,
        vec![
            image(0, TextureKind::D2, vk::Format::R32_UINT, [4, 2, 1], 1, data),
            image(
                1,
                TextureKind::D2,
                vk::Format::R32G32B32A32_UINT,
                [4, 1, 1],
                1,
                vec![0; 16],
            ),
        ],
    ) {
        // (0,0): LOADIM of (2,1) = 106, plus 1000. (1,0): CSWAP 101 == 101 →
        // 555. (2,0): CSWAP 102 != 0, unchanged. (3,0): IWRAP, 103 >= 103 → 0.
        // (0,1): DWRAP, 104 > 10 → 10. (1,1): MAX(105, 200). (2,1) unchanged.
        // (3,1): 107 + 5. The stores and atomics outside change nothing.
        assert_eq!(out[0], [1106, 555, 102, 0, 10, 200, 106, 112], "{who}");
        assert_eq!(
            out[1],
            [
                106, 0, 0, 1, // LOADIM.U32 of (2, 1): z and w of the coordinate ignored
                107, 101, 102, 103, // the old values of ADD, CSWAP, CSWAP, IWRAP
                0, 0, 0, 0, // LOADIM outside the image
                104, 105, 0, 7, // DWRAP, MAX, ADD outside (0), then 7
            ],
            "{who}"
        );
    }
}

/// A 2D array (R32I, the layer from z), a 3D image (RGBA32F, unformatted
/// and formatted stores), a buffer image of bytes (R8I: S8 loads
/// sign-extend, S8 stores keep the low eight bits) and signed atomics.
#[test]
fn array_3d_and_buffer_images_with_signed_atomics() {
    let src = "!!NVcp5.0
GROUP_SIZE 1;
IMAGE layers = image[0];
IMAGE vol = image[1];
IMAGE bytes = image[2];
IMAGE res = image[3];
INT TEMP a, r;
FLOAT TEMP f;
LOADIM.S32 r, {1, 0, 2, 0}, layers, ARRAY2D;
STOREIM.S32X4 res, r, {0, 0, 0, 0}, 2D;
ATOMIM.MIN.S32 a.x, {-500, 0, 0, 0}, {0, 1, 1, 0}, layers, ARRAY2D;
ATOMIM.XOR.S32 a.y, {255, 0, 0, 0}, {1, 1, 0, 0}, layers, ARRAY2D;
ATOMIM.ADD.S32 a.z, {1, 0, 0, 0}, {0, 0, 3, 0}, layers, ARRAY2D;
MOV.S a.w, 9;
STOREIM.S32X4 res, a, {1, 0, 0, 0}, 2D;
STOREIM.S32 layers, {77, 0, 0, 0}, {0, 0, 1, 5}, ARRAY2D;
LOADIM.S8 r, {3, 0, 0, 0}, bytes, BUFFER;
STOREIM.S32X4 res, r, {2, 0, 0, 0}, 2D;
STOREIM.S8 bytes, {511, 0, 0, 0}, {0, 0, 0, 0}, BUFFER;
STOREIM.S8 bytes, {383, 0, 0, 0}, {1, 0, 0, 0}, BUFFER;
LOADIM.F32X4 f, {1, 0, 1, 0}, vol, 3D;
ADD.F f, f, 0.25;
STOREIM.F32X4 vol, f, {0, 1, 1, 0}, 3D;
STOREIM.F vol, {2, 3, 4, 5}, {1, 1, 0, 0}, 3D;
END
";
    // Texel (x, y, layer) of the 2x2x3 array holds -(100 layer + 10 y + x).
    let layers: Vec<u32> = (0..3)
        .flat_map(|l| (0..2).flat_map(move |y| (0..2).map(move |x| -(100 * l + 10 * y + x))))
        .map(|v: i32| v as u32)
        .collect();
    // Texel (x, y, z) of the 2x2x2 volume holds (x, y, z, 0.5).
    let vol: Vec<u32> = (0..2)
        .flat_map(|z| {
            (0..2).flat_map(move |y| (0..2).map(move |x| [x as f32, y as f32, z as f32, 0.5]))
        })
        .flat_map(|t| t.map(f32::to_bits))
        .collect();
    // Bytes 1, -2, 3, -4, 5, -6, 7, -8, little-endian.
    let bytes = vec![
        u32::from_le_bytes([1, (-2i8) as u8, 3, (-4i8) as u8]),
        u32::from_le_bytes([5, (-6i8) as u8, 7, (-8i8) as u8]),
    ];
    for (who, out) in run(
        src,
        vec![
            image(
                0,
                TextureKind::Array2D,
                vk::Format::R32_SINT,
                [2, 2, 1],
                3,
                layers,
            ),
            image(
                1,
                TextureKind::D3,
                vk::Format::R32G32B32A32_SFLOAT,
                [2, 2, 2],
                1,
                vol,
            ),
            image(
                2,
                TextureKind::Buffer,
                vk::Format::R8_SINT,
                [8, 1, 1],
                1,
                bytes,
            ),
            image(
                3,
                TextureKind::D2,
                vk::Format::R32G32B32A32_SINT,
                [4, 1, 1],
                1,
                vec![0; 16],
            ),
        ],
    ) {
        let i = |v: i32| v as u32;
        // Layer 0 (1,1): -11 ^ 255 = 0xFFFFFFF5 ^ 0xFF = 0xFFFFFF0A = -246.
        // Layer 1 (0,0): 77; (0,1): min(-110, -500) = -500.
        assert_eq!(
            out[0],
            [0, -1, -10, -246, 77, -101, -500, -111, -200, -201, -210, -211].map(i),
            "{who}"
        );
        let f = |v: [f32; 4]| v.map(f32::to_bits);
        let mut expected_vol: Vec<u32> = (0..8)
            .flat_map(|t| f([(t % 2) as f32, (t / 2 % 2) as f32, (t / 4) as f32, 0.5]))
            .collect();
        // (1,1,0): the formatted store; (0,1,1): texel (1,0,1) + 0.25.
        expected_vol[12..16].copy_from_slice(&f([2.0, 3.0, 4.0, 5.0]));
        expected_vol[24..28].copy_from_slice(&f([1.25, 0.25, 1.25, 0.75]));
        assert_eq!(out[1], expected_vol, "{who}");
        // Byte 0: 511's low byte 0xFF; byte 1: 383's 0x7F.
        assert_eq!(
            out[2],
            [
                u32::from_le_bytes([0xff, 0x7f, 3, (-4i8) as u8]),
                u32::from_le_bytes([5, (-6i8) as u8, 7, (-8i8) as u8]),
            ],
            "{who}"
        );
        assert_eq!(
            out[3],
            [
                -201, 0, 0, 1, // LOADIM.S32 of (1, 0) in layer 2
                -110, -11, 0, 9, // MIN's and XOR's old values; ADD in layer 3 (none): 0
                -4, 0, 0, 1, // LOADIM.S8 of byte 3, sign-extended
                0, 0, 0, 0,
            ]
            .map(i),
            "{who}"
        );
    }
}

/// A 1D array (the layer from z, EXT_shader_image_load_store issue 36: "the
/// third (z) component selects the layer"), 16-bit unsigned texels of a
/// buffer image (U16: zero-extended loads, stores keep the low 16 bits) and
/// a unit only written by a formatted STOREIM (format Unknown: the value is
/// converted to the bound RGBA8 UNORM image's format).
#[test]
fn array_1d_layers_16_bit_texels_and_formatted_stores() {
    let src = "!!NVcp5.0
GROUP_SIZE 1;
UINT TEMP r;
LOADIM.U32 r, {2, 7, 1, 0}, image[0], ARRAY1D;
STOREIM.U32 image[0], r, {0, 0, 0, 0}, ARRAY1D;
LOADIM.U16 r, {1, 0, 0, 0}, image[1], BUFFER;
ADD.U r.x, r.x, 65537;
STOREIM.U16 image[1], r, {2, 0, 0, 0}, BUFFER;
STOREIM.F image[2], {1.0, 0.0, 0.2, 0.6}, {1, 0, 0, 0}, 2D;
END
";
    // Texel x of layer l of the 3x2 array holds 10 l + x.
    let array: Vec<u32> = (0..2)
        .flat_map(|l| (0..3).map(move |x| 10 * l + x))
        .collect();
    // 16-bit texels 0x8001, 0x0002, 0x7777, 0x0004.
    let shorts = vec![0x0002_8001, 0x0004_7777];
    for (who, out) in run(
        src,
        vec![
            image(
                0,
                TextureKind::Array1D,
                vk::Format::R32_UINT,
                [3, 1, 1],
                2,
                array,
            ),
            image(
                1,
                TextureKind::Buffer,
                vk::Format::R16_UINT,
                [4, 1, 1],
                1,
                shorts,
            ),
            image(
                2,
                TextureKind::D2,
                vk::Format::R8G8B8A8_UNORM,
                [2, 1, 1],
                1,
                vec![0; 2],
            ),
        ],
    ) {
        // (x, y, z) = (2, 7, 1): texel 2 of layer 1 (y ignored) = 12, stored
        // at texel 0 of layer 0.
        assert_eq!(out[0], [12, 1, 2, 10, 11, 12], "{who}");
        // Texel 1 (2, zero-extended) + 65537 = 0x10003: its low 16 bits, 3,
        // stored at texel 2; the others unchanged.
        assert_eq!(out[1], [0x0002_8001, 0x0004_0003], "{who}");
        // 1.0, 0.0, 0.2, 0.6 as UNORM8: 255, 0, round(51.0) = 51,
        // round(153.0) = 153, at texel 1.
        // The interpreter does not know the view's format of a unit the
        // program names none for (interp::image: it keeps four 32-bit
        // components, which these two RGBA8 texels have no room for).
        if who == "device" {
            assert_eq!(out[2], [0, u32::from_le_bytes([255, 0, 51, 153])], "{who}");
        }
    }
}

/// Multisample targets: a 2DMS and an ARRAY2DMS R32UI image of 4 samples
/// (cleared to zero by the harness, which cannot copy multisample images),
/// read back through LOADIM into a single-sample image. The sample number
/// is the coordinate's w (Table X.5); a sample at or past the image's
/// samples is an invalid access like a texel outside it: "Invalid image
/// loads will return zero. Invalid image stores will have no effect."
#[test]
fn multisample_images_take_the_sample_from_w() {
    let src = "!!NVcp5.0
GROUP_SIZE 1;
IMAGE ms = image[0];
IMAGE msa = image[1];
IMAGE res = image[2];
UINT TEMP r, t, a;
STOREIM.U32 ms, {11, 0, 0, 0}, {1, 0, 0, 2}, 2DMS;
STOREIM.U32 ms, {12, 0, 0, 0}, {1, 0, 0, 3}, 2DMS;
STOREIM.U32 ms, {99, 0, 0, 0}, {1, 0, 0, 4}, 2DMS;
ATOMIM.ADD.U32 a.x, {5, 0, 0, 0}, {1, 0, 0, 2}, ms, 2DMS;
LOADIM.U32 t, {1, 0, 0, 2}, ms, 2DMS;
MOV.U r.x, t.x;
LOADIM.U32 t, {1, 0, 0, 3}, ms, 2DMS;
MOV.U r.y, t.x;
LOADIM.U32 t, {1, 0, 0, 0}, ms, 2DMS;
MOV.U r.z, t.x;
LOADIM.U32 t, {1, 0, 0, 4}, ms, 2DMS;
MOV.U r.w, t.x;
STOREIM.U32X4 res, r, {0, 0, 0, 0}, 2D;
STOREIM.U32 msa, {21, 0, 0, 0}, {0, 0, 1, 1}, ARRAY2DMS;
STOREIM.U32 msa, {22, 0, 0, 0}, {0, 0, 0, 1}, ARRAY2DMS;
LOADIM.U32 t, {0, 0, 1, 1}, msa, ARRAY2DMS;
MOV.U r.x, t.x;
LOADIM.U32 t, {0, 0, 0, 1}, msa, ARRAY2DMS;
MOV.U r.y, t.x;
LOADIM.U32 t, {0, 0, 2, 1}, msa, ARRAY2DMS;
MOV.U r.z, t.x;
MOV.U r.w, a.x;
STOREIM.U32X4 res, r, {1, 0, 0, 0}, 2D;
END
";
    let ms = |unit, kind, layers| StorageImage {
        samples: 4,
        ..image(
            unit,
            kind,
            vk::Format::R32_UINT,
            [2, 1, 1],
            layers,
            Vec::new(),
        )
    };
    for (who, out) in run(
        src,
        vec![
            ms(0, TextureKind::D2, 1),
            ms(1, TextureKind::Array2D, 2),
            image(
                2,
                TextureKind::D2,
                vk::Format::R32G32B32A32_UINT,
                [2, 1, 1],
                1,
                vec![0xDEAD; 8],
            ),
        ],
    ) {
        // Texel (1, 0): sample 2 = 11 + 5 (the ADD returned 11), sample 3 = 12,
        // sample 0 still the clear value 0, sample 4 invalid: 0 (and the store
        // of 99 there changed nothing). The array: layer 1 sample 1 = 21,
        // layer 0 sample 1 = 22, layer 2 (of 2) invalid: 0; then ADD's 11.
        assert_eq!(out[2], [16, 12, 0, 0, 21, 22, 0, 11], "{who}");
    }
}

/// An IMAGE array indexed with a register (NV_gpu_program5 2.X.2,
/// <imageVarName> <optArrayMem>): the index picks the unit at run time, for
/// LOADIM, STOREIM and ATOMIM alike; every unit's access is emitted under
/// its condition, so only the named unit is touched. Units 0, 1 and 2 are
/// 2x1 R32UI images holding (10, 11), (20, 21), (30, 31); unit 3 receives
/// the results.
#[test]
fn image_arrays_indexed_with_a_register_pick_the_unit_at_run_time() {
    let src = "!!NVcp5.0
GROUP_SIZE 1;
IMAGE imgs[] = { image[0..2] };
IMAGE res = image[3];
INT TEMP k;
UINT TEMP r, t;
MOV.S k, {1, 2, 0, 5};
LOADIM.U32 t, {0, 0, 0, 0}, imgs[k.x], 2D;
MOV.U r.x, t.x;
LOADIM.U32 t, {1, 0, 0, 0}, imgs[k.y], 2D;
MOV.U r.y, t.x;
LOADIM.U32 t, {1, 0, 0, 0}, imgs[k.x + 1], 2D;
MOV.U r.z, t.x;
ATOMIM.ADD.U32 r.w, {100, 0, 0, 0}, {1, 0, 0, 0}, imgs[k.z], 2D;
STOREIM.U32X4 res, r, {0, 0, 0, 0}, 2D;
STOREIM.U32 imgs[k.y], {77, 0, 0, 0}, {0, 0, 0, 0}, 2D;
STOREIM.U32 imgs[k.w], {88, 0, 0, 0}, {1, 0, 0, 0}, 2D;
END
";
    let unit = |n: u32, words: Vec<u32>| {
        image(
            n,
            TextureKind::D2,
            vk::Format::R32_UINT,
            [2, 1, 1],
            1,
            words,
        )
    };
    for (who, out) in run(
        src,
        vec![
            unit(0, vec![10, 11]),
            unit(1, vec![20, 21]),
            unit(2, vec![30, 31]),
            image(
                3,
                TextureKind::D2,
                vk::Format::R32G32B32A32_UINT,
                [1, 1, 1],
                1,
                vec![0xDEAD; 4],
            ),
        ],
    ) {
        // k = (1, 2, 0, 5). imgs[1] texel 0 = 20; imgs[2] texel 1 = 31;
        // imgs[1 + 1] texel 1 = 31; ATOMIM.ADD on imgs[0] texel 1 returns 11
        // and leaves 111. STOREIM 77 to imgs[2] texel 0; imgs[5] is past the
        // array of 3, clamped to its last element (docs/semantics.md), so 88
        // goes to imgs[2] texel 1. Units 0 and 1 are otherwise untouched.
        assert_eq!(out[3], [20, 31, 31, 11], "{who}");
        assert_eq!(out[0], [10, 111], "{who}");
        assert_eq!(out[1], [20, 21], "{who}");
        assert_eq!(out[2], [77, 88], "{who}");
    }
}

/// NV_gpu_program5_mem_extended's storage modifiers on LOADIM and STOREIM
/// (images declared rgba16f and rg8i, docs/interface.md, "Images"): F16X4
/// loads widen each half to f32 (0x3555 = 1365/4096, 0xC000 = -2, 0x7BFF =
/// 65504, 0x0001 = 2^-24), F16X4 stores of exactly representable values
/// write their encodings; S8X2 loads sign-extend (0x80 = -128; z, w are 0
/// and 1 as for any two-component format) and S8X2 stores keep each
/// component's low byte.
#[test]
fn image_f16x4_and_s8x2_with_mem_extended() {
    let src = "!!NVcp5.0
OPTION NV_gpu_program5_mem_extended;
GROUP_SIZE 1;
IMAGE half4 = image[0];
IMAGE res = image[1];
IMAGE bytes = image[2];
IMAGE ints = image[3];
TEMP f;
INT TEMP s;
LOADIM.F16X4 f, {0, 0, 0, 0}, half4, 2D;
STOREIM.F32X4 res, f, {0, 0, 0, 0}, 2D;
STOREIM.F16X4 half4, {1.5, -0.25, 3, 1024}, {1, 0, 0, 0}, 2D;
LOADIM.S8X2 s, {1, 0, 0, 0}, bytes, BUFFER;
STOREIM.S32X4 ints, s, {0, 0, 0, 0}, 2D;
STOREIM.S8X2 bytes, {300, -129, 0, 0}, {2, 0, 0, 0}, BUFFER;
END
";
    for (who, out) in run(
        src,
        vec![
            image(
                0,
                TextureKind::D2,
                vk::Format::R16G16B16A16_SFLOAT,
                [2, 1, 1],
                1,
                vec![0xC000_3555, 0x0001_7BFF, 0, 0],
            ),
            image(
                1,
                TextureKind::D2,
                vk::Format::R32G32B32A32_SFLOAT,
                [1, 1, 1],
                1,
                vec![0; 4],
            ),
            image(
                2,
                TextureKind::Buffer,
                vk::Format::R8G8_SINT,
                [4, 1, 1],
                1,
                vec![0x807F_0201, 0x0403_0201],
            ),
            image(
                3,
                TextureKind::D2,
                vk::Format::R32G32B32A32_SINT,
                [1, 1, 1],
                1,
                vec![0; 4],
            ),
        ],
    ) {
        // Texel 1: halves 1.5 = 0x3E00, -0.25 = 0xB400, 3 = 0x4200, 1024 = 0x6400.
        assert_eq!(
            out[0],
            [0xC000_3555, 0x0001_7BFF, 0xB400_3E00, 0x6400_4200],
            "{who}"
        );
        assert_eq!(
            out[1],
            [0x3EAA_A000, 0xC000_0000, 0x477F_E000, 0x3380_0000],
            "{who}"
        );
        // Texel 2 (bytes 4, 5): 300's low byte 0x2C, -129's 0x7F.
        assert_eq!(out[2], [0x807F_0201, 0x0403_7F2C], "{who}");
        // Texel 1 (bytes 2, 3): 0x7F, 0x80.
        assert_eq!(out[3], [127, (-128i32) as u32, 0, 1], "{who}");
    }
}

/// NV_shader_atomic_float's ATOMIM.ADD.F32 and ATOMIM.EXCH.F32 on an R32F
/// image ("F32 should be allowed as a storage modifier to the ATOMIM
/// instruction for the atomic operations ADD and EXCH"): each returns the
/// texel before it (1.5, then 1.5 + 0.25 = 1.75; -4 before the exchange);
/// the texel ends 1.75 - 0.5 = 1.25 and 7; an access outside the image
/// returns 0 and writes nothing. The device needs
/// VK_EXT_shader_atomic_float's shaderImageFloat32Atomics and
/// shaderImageFloat32AtomicAdd (the reflection's device_features).
#[test]
fn float_image_atomics_add_and_exchange_with_the_option() {
    let src = "!!NVcp5.0
OPTION NV_shader_atomic_float;
GROUP_SIZE 1;
IMAGE acc = image[0];
IMAGE res = image[1];
FLOAT TEMP a;
ATOMIM.ADD.F32 a.x, {0.25, 0, 0, 0}, {0, 0, 0, 0}, acc, 2D;
ATOMIM.ADD.F32 a.y, {-0.5, 0, 0, 0}, {0, 0, 0, 0}, acc, 2D;
ATOMIM.EXCH.F32 a.z, {7, 0, 0, 0}, {1, 0, 0, 0}, acc, 2D;
ATOMIM.ADD.F32 a.w, {1, 0, 0, 0}, {5, 0, 0, 0}, acc, 2D;
STOREIM.F32X4 res, a, {0, 0, 0, 0}, 2D;
END
";
    let features = nvp4c::compile(src, &nvp4c::Options::default())
        .unwrap()
        .reflection
        .device_features;
    assert!(features.contains(&"shaderImageFloat32AtomicAdd".to_string()));
    assert!(features.contains(&"shaderImageFloat32Atomics".to_string()));
    let f = |x: f32| x.to_bits();
    for (who, out) in run(
        src,
        vec![
            image(
                0,
                TextureKind::D2,
                vk::Format::R32_SFLOAT,
                [2, 1, 1],
                1,
                vec![f(1.5), f(-4.0)],
            ),
            image(
                1,
                TextureKind::D2,
                vk::Format::R32G32B32A32_SFLOAT,
                [1, 1, 1],
                1,
                vec![0; 4],
            ),
        ],
    ) {
        assert_eq!(out[0], vec![f(1.25), f(7.0)], "{who}: the texels");
        assert_eq!(
            out[1],
            vec![f(1.5), f(1.75), f(-4.0), 0],
            "{who}: the values before"
        );
    }
}

/// ATOMIM.F16X2 (NV_shader_atomic_fp16_vector): a compare-and-swap loop on
/// the packed pair, x in the low half, through an R32_UINT view of the
/// R16G16_SFLOAT image (docs/interface.md, "Images"). Texel 0 holds
/// (1.0, 2.0) = 0x4000_3C00; ADD (0.5, -3) makes it (1.5, -1.0) =
/// 0xBC00_3E00 and returns (1, 2, 0, 0). Texel 1 holds (-2.0, 0.25) =
/// 0x3400_C000; MAX (1.25, -4) makes it (1.25, 0.25) = 0x3400_3D00 and
/// returns (-2, 0.25, 0, 0). An access outside changes nothing, returns 0.
#[test]
fn f16x2_image_atomics_update_both_halves_of_the_texel() {
    let src = "!!NVcp5.0
OPTION NV_shader_atomic_fp16_vector;
GROUP_SIZE 1;
IMAGE acc = image[0];
IMAGE res = image[1];
TEMP r, s, t;
ATOMIM.ADD.F16X2 r, {0.5, -3, 0, 0}, {0, 0, 0, 0}, acc, 2D;
ATOMIM.MAX.F16X2 s, {1.25, -4, 0, 0}, {1, 0, 0, 0}, acc, 2D;
ATOMIM.ADD.F16X2 t, {1, 1, 0, 0}, {2, 0, 0, 0}, acc, 2D;
STOREIM.F32X4 res, r, {0, 0, 0, 0}, 2D;
STOREIM.F32X4 res, s, {1, 0, 0, 0}, 2D;
STOREIM.F32X4 res, t, {2, 0, 0, 0}, 2D;
END
";
    let reflection = nvp4c::compile(src, &nvp4c::Options::default())
        .unwrap()
        .reflection;
    let unit = reflection.images.iter().find(|i| i.binding == 80).unwrap();
    assert_eq!(unit.format.as_deref(), Some("r32ui"));
    let f = |x: f32| x.to_bits();
    let acc = StorageImage {
        view_format: Some(vk::Format::R32_UINT),
        ..image(
            0,
            TextureKind::D2,
            vk::Format::R16G16_SFLOAT,
            [2, 1, 1],
            1,
            vec![0x4000_3c00, 0x3400_c000],
        )
    };
    let res = image(
        1,
        TextureKind::D2,
        vk::Format::R32G32B32A32_SFLOAT,
        [3, 1, 1],
        1,
        vec![0xdead; 12],
    );
    for (who, out) in run(src, vec![acc, res]) {
        assert_eq!(out[0], vec![0xbc00_3e00, 0x3400_3d00], "{who}: the texels");
        assert_eq!(
            out[1],
            vec![f(1.0), f(2.0), 0, 0, f(-2.0), f(0.25), 0, 0, 0, 0, 0, 0],
            "{who}: the halves before"
        );
    }
}

/// A unit ATOMIM.F16X2 uses, loaded and stored in the same program: every
/// access goes through its R32ui declaration (an R32_UINT view of the
/// R16G16_SFLOAT image; docs/interface.md, "Images"), loads unpacking the
/// word's halves (x low; an rg16f load is x, y, 0, 1), stores packing
/// them. Texel 0 holds (1, 2) = 0x4000_3C00, texel 1 (-2, 0.25) =
/// 0x3400_C000. LOADIM of texel 0 gives r = (1, 2, 0, 1); ATOMIM.ADD r at
/// texel 1 makes it (-1, 2.25) = 0x4080_BC00 and returns s = (-2, 0.25,
/// 0, 0); STOREIM.F16X2 s at texel 2 writes 0x3400_C000; LOADIM of texel
/// 1 gives t = (-1, 2.25, 0, 1); the formatted STOREIM.F of (0.5, -0.75,
/// 9, 9) at texel 0 keeps the rg16f unit's two components: 0xBA00_3800.
#[test]
fn f16x2_image_unit_loaded_updated_and_stored_through_its_word_view() {
    let src = "!!NVcp5.0
OPTION NV_shader_atomic_fp16_vector;
OPTION NV_gpu_program5_mem_extended;
GROUP_SIZE 1;
IMAGE acc = image[0];
IMAGE res = image[1];
TEMP r, s, t;
LOADIM.F16X2 r, {0, 0, 0, 0}, acc, 2D;
ATOMIM.ADD.F16X2 s, r, {1, 0, 0, 0}, acc, 2D;
STOREIM.F16X2 acc, s, {2, 0, 0, 0}, 2D;
LOADIM.F16X2 t, {1, 0, 0, 0}, acc, 2D;
STOREIM.F acc, {0.5, -0.75, 9, 9}, {0, 0, 0, 0}, 2D;
STOREIM.F32X4 res, r, {0, 0, 0, 0}, 2D;
STOREIM.F32X4 res, s, {1, 0, 0, 0}, 2D;
STOREIM.F32X4 res, t, {2, 0, 0, 0}, 2D;
END
";
    let reflection = nvp4c::compile(src, &nvp4c::Options::default())
        .unwrap()
        .reflection;
    let unit = reflection.images.iter().find(|i| i.binding == 80).unwrap();
    assert_eq!(unit.format.as_deref(), Some("r32ui"));
    assert_eq!(unit.data_format.as_deref(), Some("rg16f"));
    let f = |x: f32| x.to_bits();
    let acc = StorageImage {
        view_format: Some(vk::Format::R32_UINT),
        ..image(
            0,
            TextureKind::D2,
            vk::Format::R16G16_SFLOAT,
            [3, 1, 1],
            1,
            vec![0x4000_3c00, 0x3400_c000, 0xdead],
        )
    };
    let res = image(
        1,
        TextureKind::D2,
        vk::Format::R32G32B32A32_SFLOAT,
        [3, 1, 1],
        1,
        vec![0xdead; 12],
    );
    for (who, out) in run(src, vec![acc, res]) {
        assert_eq!(
            out[0],
            vec![0xba00_3800, 0x4080_bc00, 0x3400_c000],
            "{who}: the texels"
        );
        assert_eq!(
            out[1],
            vec![
                f(1.0),
                f(2.0),
                0,
                f(1.0),
                f(-2.0),
                f(0.25),
                0,
                0,
                f(-1.0),
                f(2.25),
                0,
                f(1.0)
            ],
            "{who}: r, s, t"
        );
    }
}

/// ATOMIM.F16X4 on a BUFFER unit (NV_shader_atomic_fp16_vector: "Atomicity
/// is only guaranteed on a per-component basis"): the rgba16f texel
/// buffer bound through an R32_UINT view of twice the elements, texel i
/// words 2i and 2i + 1, each updated by its own compare-and-swap loop
/// (docs/interface.md, "Images"). Five words: texel 0 (1, 2, -2, 0.25),
/// texel 1 (0.5, -0.75, 4, 8), and a word that is half a texel. LOADIM of
/// texel 1 gives r = (0.5, -0.75, 4, 8); ADD r at texel 0 makes it (1.5,
/// 1.25, 2, 8.25) = 0x3D00_3E00, 0x4820_4000 and returns (1, 2, -2,
/// 0.25); MAX (1, -1, 5, 5) at texel 1 makes it (1, -0.75, 5, 8) =
/// 0xBA00_3C00, 0x4800_4500 and returns r; texel 2 (word 4 and a word
/// past the view) is outside: ADD there returns 0 and writes nothing.
/// STOREIM.F16X4 of (0.5, 0.5, 0.5, 0.5) at texel 2 also writes nothing.
#[test]
fn f16x4_atomics_on_a_buffer_unit_update_two_words_per_texel() {
    let src = "!!NVcp5.0
OPTION NV_shader_atomic_fp16_vector;
OPTION NV_gpu_program5_mem_extended;
GROUP_SIZE 1;
IMAGE buf = image[0];
IMAGE res = image[1];
TEMP r, s, t, u;
LOADIM.F16X4 r, {1, 0, 0, 0}, buf, BUFFER;
ATOMIM.ADD.F16X4 s, r, {0, 0, 0, 0}, buf, BUFFER;
ATOMIM.MAX.F16X4 t, {1, -1, 5, 5}, {1, 0, 0, 0}, buf, BUFFER;
ATOMIM.ADD.F16X4 u, {1, 1, 1, 1}, {2, 0, 0, 0}, buf, BUFFER;
STOREIM.F16X4 buf, {0.5, 0.5, 0.5, 0.5}, {2, 0, 0, 0}, BUFFER;
STOREIM.F32X4 res, s, {0, 0, 0, 0}, 2D;
STOREIM.F32X4 res, t, {1, 0, 0, 0}, 2D;
STOREIM.F32X4 res, u, {2, 0, 0, 0}, 2D;
END
";
    let reflection = nvp4c::compile(src, &nvp4c::Options::default())
        .unwrap()
        .reflection;
    let unit = reflection.images.iter().find(|i| i.binding == 80).unwrap();
    assert_eq!(unit.format.as_deref(), Some("r32ui"));
    assert_eq!(unit.data_format.as_deref(), Some("rgba16f"));
    let f = |x: f32| x.to_bits();
    // The interpreter's extent is in rgba16f texels: 2 (and a half).
    let buf = StorageImage {
        view_format: Some(vk::Format::R32_UINT),
        ..image(
            0,
            TextureKind::Buffer,
            vk::Format::R16G16B16A16_SFLOAT,
            [2, 1, 1],
            1,
            vec![
                0x4000_3c00,
                0x3400_c000,
                0xba00_3800,
                0x4800_4400,
                0x1234_5678,
            ],
        )
    };
    let res = image(
        1,
        TextureKind::D2,
        vk::Format::R32G32B32A32_SFLOAT,
        [3, 1, 1],
        1,
        vec![0xdead; 12],
    );
    for (who, out) in run(src, vec![buf, res]) {
        assert_eq!(
            out[0],
            vec![
                0x3d00_3e00,
                0x4820_4000,
                0xba00_3c00,
                0x4800_4500,
                0x1234_5678
            ],
            "{who}: the words"
        );
        assert_eq!(
            out[1],
            vec![
                f(1.0),
                f(2.0),
                f(-2.0),
                f(0.25),
                f(0.5),
                f(-0.75),
                f(4.0),
                f(8.0),
                0,
                0,
                0,
                0
            ],
            "{who}: s, t, u"
        );
    }
}

/// A register-indexed IMAGE array over a unit ATOMIM.F16X2 uses (unit 0:
/// R32ui, an R32_UINT view of its R16G16_SFLOAT image) and a plain rg16f
/// unit (unit 1): each unit the index may pick is accessed its own way.
/// Unit 0's texel 0 holds (1, 2); ADD (0.5, 0.5) makes it (1.5, 2.5) =
/// 0x4100_3E00. Unit 1's texel 0 holds (-2, 0.25) = 0x3400_C000. LOADIM
/// through imgs[0] gives r = (1.5, 2.5, 0, 1), through imgs[1] s = (-2,
/// 0.25, 0, 1); each is stored at texel 1 of the other unit.
#[test]
fn image_arrays_pick_word_view_and_rg16f_units_alike() {
    let src = "!!NVcp5.0
OPTION NV_shader_atomic_fp16_vector;
OPTION NV_gpu_program5_mem_extended;
GROUP_SIZE 1;
IMAGE imgs[] = { image[0..1] };
IMAGE res = image[2];
INT TEMP k;
TEMP a, r, s;
MOV.S k, {0, 1, 0, 0};
ATOMIM.ADD.F16X2 a, {0.5, 0.5, 0, 0}, {0, 0, 0, 0}, image[0], 2D;
LOADIM.F16X2 r, {0, 0, 0, 0}, imgs[k.x], 2D;
LOADIM.F16X2 s, {0, 0, 0, 0}, imgs[k.y], 2D;
STOREIM.F16X2 imgs[k.y], r, {1, 0, 0, 0}, 2D;
STOREIM.F16X2 imgs[k.x], s, {1, 0, 0, 0}, 2D;
STOREIM.F32X4 res, r, {0, 0, 0, 0}, 2D;
STOREIM.F32X4 res, s, {1, 0, 0, 0}, 2D;
END
";
    let reflection = nvp4c::compile(src, &nvp4c::Options::default())
        .unwrap()
        .reflection;
    let formats: Vec<_> = reflection
        .images
        .iter()
        .map(|i| (i.format.as_deref(), i.data_format.as_deref()))
        .collect();
    assert_eq!(
        formats,
        [
            (Some("r32ui"), Some("rg16f")),
            (Some("rg16f"), None),
            (Some("rgba32f"), None)
        ]
    );
    let f = |x: f32| x.to_bits();
    let word_view = StorageImage {
        view_format: Some(vk::Format::R32_UINT),
        ..image(
            0,
            TextureKind::D2,
            vk::Format::R16G16_SFLOAT,
            [2, 1, 1],
            1,
            vec![0x4000_3c00, 0xdead],
        )
    };
    let plain = image(
        1,
        TextureKind::D2,
        vk::Format::R16G16_SFLOAT,
        [2, 1, 1],
        1,
        vec![0x3400_c000, 0xbeef],
    );
    let res = image(
        2,
        TextureKind::D2,
        vk::Format::R32G32B32A32_SFLOAT,
        [2, 1, 1],
        1,
        vec![0xdead; 8],
    );
    for (who, out) in run(src, vec![word_view, plain, res]) {
        assert_eq!(out[0], vec![0x4100_3e00, 0x3400_c000], "{who}: unit 0");
        assert_eq!(out[1], vec![0x3400_c000, 0x4100_3e00], "{who}: unit 1");
        assert_eq!(
            out[2],
            vec![f(1.5), f(2.5), 0, f(1.0), f(-2.0), f(0.25), 0, f(1.0)],
            "{who}: r, s"
        );
    }
}
