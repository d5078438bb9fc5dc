//! Execution tests of NV_bindless_texture's image handles in NV_gpu_program5
//! assembly (`handle(a.x)` as the image of LOADIM, STOREIM and ATOMIM) on
//! the Vulkan device and in the interpreter: each target and format the
//! handles use is a descriptor array of 8 storage images at binding
//! 112 + 32 × target + format (docs/interface.md, "Bindless images"),
//! every element bound; each invocation of a work group names its own
//! elements. Two arrays are 16 storage images, past nvp4c's default
//! device limit of 8 per stage (E1199): the programs are compiled with
//! lavapipe's 64 (docs/limits.md). Expected values are computed by hand from the spec
//! (EXT_shader_image_load_store, "Dependencies on NV_gpu_program5",
//! sections 2.X.8.Z and 3.9.X; NV_bindless_texture, "Modify Section
//! 2.X.8.Z, LOADIM") and nvp4c's rule for a handle past the array (an
//! invalid access: loads zero, stores and atomics do nothing).

use ash::vk;

use crate::harness::{self, ComputeJob, StorageImage, TextureKind};
use nvp4c::ir::{BindlessImageArray, ImageFormat, ImageTarget};
use nvp4c::isa::DataType;
use nvp4c::TargetEnv;

/// One element of an image handle array.
struct Element {
    array: BindlessImageArray,
    element: u32,
    kind: TextureKind,
    format: vk::Format,
    extent: [u32; 3],
    /// Array layers (1 for the kinds without).
    layers: u32,
    words: Vec<u32>,
}

impl Element {
    fn binding(&self) -> u32 {
        nvp4c::Options::default()
            .stage_layout(nvp4c::isa::Stage::Compute)
            .bindless_image_binding(self.array)
    }
}

/// The storage modifier U32: the R32ui arrays.
const R32UI: ImageFormat = ImageFormat {
    ty: DataType::Unsigned,
    bits: 32,
    components: 1,
};

/// The array of a target and storage modifier (`None`: formatted stores
/// of `ty`).
fn array(
    target: ImageTarget,
    format: Option<(DataType, u8, u8)>,
    ty: DataType,
) -> BindlessImageArray {
    let format = format.map(|(ty, bits, components)| ImageFormat {
        ty,
        bits,
        components,
    });
    BindlessImageArray { target, format, ty }
}

/// The elements after a run of one work group (of `size` invocations) on
/// the device, when there is one, for Vulkan 1.0 and 1.3 (SPIR-V 1.4+
/// lists the arrays in the entry point's interface), and in the
/// interpreter (one invocation after the other, each with its
/// `invocation.localid`: the test's invocations touch different texels),
/// each named for the assertion messages.
fn run(src: &str, size: u32, elements: &[Element]) -> Vec<(&'static str, Vec<Vec<u32>>)> {
    let mut runs = vec![("interpreter", interpret(src, size, elements))];
    let Some(device) = harness::device_or_skip() else {
        return runs;
    };
    for (env, who) in [
        (TargetEnv::Vulkan1_0, "device, vulkan1.0"),
        (TargetEnv::Vulkan1_3, "device, vulkan1.3"),
    ] {
        let mut options = nvp4c::Options::default();
        options.target_env = env;
        options
            .device_limits
            .max_per_stage_descriptor_storage_images = 64;
        let spirv = match nvp4c::compile(src, &options) {
            Ok(c) => c.spirv,
            Err(d) => panic!("compile failed:\n{}", d.render("t.cp", src, false)),
        };
        let mut job = ComputeJob::new([1, 1, 1], Vec::new());
        job.images = elements
            .iter()
            .map(|e| StorageImage {
                binding: e.binding(),
                element: e.element,
                kind: e.kind,
                format: e.format,
                extent: e.extent,
                layers: e.layers,
                words: e.words.clone(),
                samples: 1,
                // An element of an R32ui array whose image has another
                // format (rg16f, rgba16f: ATOMIM.F16X2 and F16X4 through
                // handles) is an R32_UINT view of it (docs/interface.md,
                // "Bindless images").
                view_format: (e.array.format == Some(R32UI) && e.format != vk::Format::R32_UINT)
                    .then_some(vk::Format::R32_UINT),
            })
            .collect();
        let (_, out) = device
            .run_compute_images(&spirv, &job)
            .unwrap_or_else(|e| panic!("{who}: {e}"));
        runs.push((who, out));
    }
    runs
}

fn interpret(src: &str, size: u32, elements: &[Element]) -> Vec<Vec<u32>> {
    let (program, _) = nvp4c::check(src, &nvp4c::Options::default()).expect("checks");
    let mut images: std::collections::BTreeMap<_, _> = elements
        .iter()
        .map(|e| {
            // The interpreter's extent runs along the target's
            // coordinates: an ARRAY2D's layers are its third.
            let [w, h, d] = e.extent;
            let extent = match e.kind {
                TextureKind::Array2D => [w, h, e.layers],
                _ => [w, h, d],
            };
            let image = nvp4c::interp::Image::from_words(extent, &e.words);
            ((e.array, e.element), image)
        })
        .collect();
    for id in 0..size {
        let mut inputs = nvp4c::interp::Inputs::default();
        inputs
            .set("invocation.localid", [id, 0, 0, 0])
            .expect("a compute attribute");
        inputs.bindless_images = images;
        let outcome = nvp4c::interp::run(&program, &inputs, &Default::default()).expect("runs");
        assert!(outcome.undefined.is_empty(), "{:?}", outcome.undefined);
        images = outcome.bindless_images;
    }
    elements
        .iter()
        .map(|e| images[&(e.array, e.element)].words())
        .collect()
}

/// Four invocations, invocation i naming element 3i + 1 of the 2D `U32`
/// array (1, 4, 7, and 10, past the array's 8 elements): LOADIM,
/// ATOMIM.ADD and STOREIM through the handle, the same handle in a LONG
/// register with the high word 0 (even invocations) or 1 (odd: at or
/// above 2^32, past the array), and each invocation's results stored
/// through handle i of the 1D `U32X4` array.
#[test]
fn image_handles_select_array_elements_per_invocation() {
    let src = "!!NVcp5.0
OPTION NV_bindless_texture;
GROUP_SIZE 4;
UINT TEMP id, h, r, a, w, q;
LONG TEMP l;
MOV.U id, invocation.localid;
MAD.U h.x, id.x, 3, 1;
LOADIM.U32 r, {1, 1, 0, 0}, handle(h.x), 2D;
ADD.U w.x, id.x, 1;
ATOMIM.ADD.U32 a.x, w.x, {0, 0, 0, 0}, handle(h.x), 2D;
STOREIM.U32 handle(h.x), r, {1, 0, 0, 0}, 2D;
MOV.U w.x, h.x;
AND.U w.y, id.x, 1;
PK64.U l, w;
LOADIM.U32 q, {1, 1, 0, 0}, handle(l.x), 2D;
MOV.U r.y, a.x;
MOV.U r.z, h.x;
MOV.U r.w, q.x;
STOREIM.U32X4 handle(id.x), r, {0, 0, 0, 0}, 1D;
END
";
    let data = array(
        ImageTarget::T2D,
        Some((DataType::Unsigned, 32, 1)),
        DataType::Unsigned,
    );
    let results = array(
        ImageTarget::T1D,
        Some((DataType::Unsigned, 32, 4)),
        DataType::Unsigned,
    );
    // Element e of the 2D array: 2x2 texels, (x, y) holding 1000 e + 10 y
    // + x; of the 1D array: one RGBA32UI texel of zeros.
    let mut elements: Vec<Element> = (0..8)
        .map(|e| Element {
            array: data,
            element: e,
            kind: TextureKind::D2,
            format: vk::Format::R32_UINT,
            extent: [2, 2, 1],
            layers: 1,
            words: vec![1000 * e, 1000 * e + 1, 1000 * e + 10, 1000 * e + 11],
        })
        .collect();
    elements.extend((0..8).map(|e| Element {
        array: results,
        element: e,
        kind: TextureKind::D1,
        format: vk::Format::R32G32B32A32_UINT,
        extent: [1, 1, 1],
        layers: 1,
        words: vec![0; 4],
    }));
    assert_eq!((elements[0].binding(), elements[8].binding()), (152, 114));
    for (who, out) in run(src, 4, &elements) {
        // Invocation i, handle h = 3i + 1 (element h): LOADIM of (1, 1)
        // reads 1000 h + 11; ATOMIM.ADD of i + 1 at (0, 0) returns 1000 h
        // and leaves 1000 h + i + 1; STOREIM writes the loaded value at
        // (1, 0). Invocation 3's handle, 10, names no element: its load and
        // atomic return 0, its store does nothing.
        assert_eq!(out[1], [1001, 1011, 1010, 1011], "{who}: element 1");
        assert_eq!(out[4], [4002, 4011, 4010, 4011], "{who}: element 4");
        assert_eq!(out[7], [7003, 7011, 7010, 7011], "{who}: element 7");
        for e in [0, 2, 3, 5, 6] {
            let e32 = e as u32;
            let words = [1000 * e32, 1000 * e32 + 1, 1000 * e32 + 10, 1000 * e32 + 11];
            assert_eq!(out[e], words, "{who}: element {e} unchanged");
        }
        // (LOADIM, ATOMIM's old value, handle, LOADIM through the LONG
        // handle h + 2^32 × (i & 1): element h for even i, none for odd).
        assert_eq!(out[8], [1011, 1000, 1, 1011], "{who}: invocation 0");
        assert_eq!(out[9], [4011, 4000, 4, 0], "{who}: invocation 1");
        assert_eq!(out[10], [7011, 7000, 7, 7011], "{who}: invocation 2");
        assert_eq!(out[11], [0, 0, 10, 0], "{who}: invocation 3");
        for (e, words) in out.iter().enumerate().skip(12) {
            assert_eq!(words, &[0; 4], "{who}: result element {e} unchanged");
        }
    }
}

/// NV_shader_atomic_float's ATOMIM.ADD.F32 through handles 4 to 7 of
/// the 1D `F32` array, and formatted stores (`STOREIM.F`, no storage
/// modifier: format Unknown, the RGBA32F view's) through handles 0 to 3.
#[test]
fn float_atomics_and_formatted_stores_through_image_handles() {
    let src = "!!NVcp5.0
OPTION NV_bindless_texture;
OPTION NV_shader_atomic_float;
GROUP_SIZE 4;
UINT TEMP id, h;
TEMP f;
MOV.U id, invocation.localid;
ADD.U h.x, id.x, 4;
ATOMIM.ADD.F32 f.x, {0.5, 0, 0, 0}, {0, 0, 0, 0}, handle(h.x), 1D;
MOV f.yzw, {0, 2.5, -1, 0.25};
STOREIM.F handle(id.x), f, {0, 0, 0, 0}, 1D;
END
";
    let floats = array(
        ImageTarget::T1D,
        Some((DataType::Float, 32, 1)),
        DataType::Float,
    );
    let stores = array(ImageTarget::T1D, None, DataType::Float);
    // Element e of the F32 array: one texel e.0; of the store array: one
    // RGBA32F texel of zeros.
    let mut elements: Vec<Element> = (0..8)
        .map(|e| Element {
            array: floats,
            element: e,
            kind: TextureKind::D1,
            format: vk::Format::R32_SFLOAT,
            extent: [1, 1, 1],
            layers: 1,
            words: vec![(e as f32).to_bits()],
        })
        .collect();
    elements.extend((0..8).map(|e| Element {
        array: stores,
        element: e,
        kind: TextureKind::D1,
        format: vk::Format::R32G32B32A32_SFLOAT,
        extent: [1, 1, 1],
        layers: 1,
        words: vec![0; 4],
    }));
    // 1D is target 0; F32 is format 6, formatted F stores 24.
    assert_eq!((elements[0].binding(), elements[8].binding()), (118, 136));
    let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<u32>>();
    for (who, out) in run(src, 4, &elements) {
        for (e, words) in out.iter().enumerate().take(8) {
            // Invocation i adds 0.5 to element 4 + i.
            let v = e as f32 + if e >= 4 { 0.5 } else { 0.0 };
            assert_eq!(words, &bits(&[v]), "{who}: F32 element {e}");
        }
        for i in 0..4 {
            // (the old value 4 + i, 2.5, -1, 0.25) at element i.
            let v = [4.0 + i as f32, 2.5, -1.0, 0.25];
            assert_eq!(out[8 + i], bits(&v), "{who}: invocation {i}");
        }
        for (e, words) in out.iter().enumerate().skip(12) {
            assert_eq!(words, &[0; 4], "{who}: store element {} unchanged", e - 8);
        }
    }
}

/// A BUFFER `U8` array (storage texel buffers of R8ui, 8-bit texels) and
/// an ARRAY2D `S32` array, handles from the invocation: LOADIM.U8 (zero-
/// extended), STOREIM.U8 (the low 8 bits kept), LOADIM.S32 of layer 1,
/// ATOMIM.MIN.S32 on layer 0.
#[test]
fn buffer_and_array_targets_through_image_handles() {
    let src = "!!NVcp5.0
OPTION NV_bindless_texture;
GROUP_SIZE 2;
UINT TEMP id, h, r;
INT TEMP s;
MOV.U id, invocation.localid;
ADD.U h.x, id.x, 6;
ADD.U h.y, id.x, 2;
LOADIM.U8 r, {1, 0, 0, 0}, handle(h.x), BUFFER;
STOREIM.U8 handle(h.x), r, {2, 0, 0, 0}, BUFFER;
ADD.U r.y, id.x, 256;
STOREIM.U8 handle(h.x), r.y, {3, 0, 0, 0}, BUFFER;
LOADIM.S32 s, {0, 0, 1, 0}, handle(h.y), ARRAY2D;
ATOMIM.MIN.S32 s.y, {-50, 0, 0, 0}, {0, 0, 0, 0}, handle(h.y), ARRAY2D;
ADD.S s.x, s.x, s.y;
STOREIM.S32 handle(h.y), s, {0, 0, 1, 0}, ARRAY2D;
END
";
    let bytes = array(
        ImageTarget::Buffer,
        Some((DataType::Unsigned, 8, 1)),
        DataType::Unsigned,
    );
    let layers = array(
        ImageTarget::Array2D,
        Some((DataType::Signed, 32, 1)),
        DataType::Signed,
    );
    // Element e of the BUFFER array: four 8-bit texels e, e + 10, e + 20,
    // e + 30 (one little-endian word); of the ARRAY2D array: one texel in
    // each of two layers, -e and 100 e.
    let word = |b: [u32; 4]| b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24;
    let mut elements: Vec<Element> = (0..8)
        .map(|e| Element {
            array: bytes,
            element: e,
            kind: TextureKind::Buffer,
            format: vk::Format::R8_UINT,
            extent: [4, 1, 1],
            layers: 1,
            words: vec![word([e, e + 10, e + 20, e + 30])],
        })
        .collect();
    elements.extend((0..8).map(|e| Element {
        array: layers,
        element: e,
        kind: TextureKind::Array2D,
        format: vk::Format::R32_SINT,
        extent: [1, 1, 1],
        layers: 2,
        words: vec![(-(e as i32)) as u32, 100 * e],
    }));
    // BUFFER is target 5, U8 format 12; ARRAY2D target 7, S32 format 7.
    assert_eq!((elements[0].binding(), elements[8].binding()), (284, 343));
    for (who, out) in run(src, 2, &elements) {
        // Invocation i: element 6 + i's texel 1 (16 + i) stored at texel 2,
        // 256 + i's low 8 bits (i) at texel 3.
        assert_eq!(out[6], [word([6, 16, 16, 0])], "{who}: BUFFER element 6");
        assert_eq!(out[7], [word([7, 17, 17, 1])], "{who}: BUFFER element 7");
        // Element 2 + i: layer 1 (100 e) loaded, MIN(-e, -50) = -50 in
        // layer 0 returning -e, 100 e - e stored in layer 1.
        assert_eq!(out[8 + 2], [-50i32 as u32, 198], "{who}: ARRAY2D element 2");
        assert_eq!(out[8 + 3], [-50i32 as u32, 297], "{who}: ARRAY2D element 3");
        for e in [0, 1, 2, 3, 4, 5] {
            let e32 = e as u32;
            assert_eq!(
                out[e],
                [word([e32, e32 + 10, e32 + 20, e32 + 30])],
                "{who}: {e}"
            );
        }
        for e in [0, 1, 4, 5, 6, 7] {
            let e32 = e as u32;
            assert_eq!(out[8 + e], [(-(e as i32)) as u32, 100 * e32], "{who}: {e}");
        }
    }
}

/// NV_shader_atomic_fp16_vector's ATOMIM.F16X2 (2D) and ATOMIM.F16X4
/// (BUFFER) through image handles: each goes through its target's R32ui
/// array (format number 8), whose element h is an R32_UINT view of the
/// rg16f image (of the rgba16f texel buffer, twice the elements) handle h
/// names (docs/interface.md, "Bindless images"). Invocation i has
/// v = (0.5, -3, 4.5, 1) plus i in each component. It adds v.xy to the
/// 2D element 2i + 1, holding (1, 2): element 1 becomes (1.5, -1) =
/// 0xBC00_3E00, element 3 (2.5, 0) = 0x0000_4100, both returning (1, 2,
/// 0, 0). It takes the MAX with v at texel 1 of BUFFER element i, whose
/// texel 1 is (0.5, -0.75, 4, 8): element 0 becomes (0.5, -0.75, 4.5, 8)
/// = 0xBA00_3800, 0x4800_4480, element 1 (1.5, -0.75, 5.5, 8) =
/// 0xBA00_3E00, 0x4800_4580, both returning (0.5, -0.75, 4, 8). The
/// results go to the 1D F32X4 element i.
#[test]
fn f16x2_and_f16x4_atomics_through_image_handles() {
    let src = "!!NVcp5.0
OPTION NV_bindless_texture;
OPTION NV_shader_atomic_fp16_vector;
GROUP_SIZE 2;
UINT TEMP id, h;
TEMP a, b, v;
MOV.U id, invocation.localid;
MAD.U h.x, id.x, 2, 1;
I2F.U v.x, id.x;
ADD v, v.x, {0.5, -3, 4.5, 1};
ATOMIM.ADD.F16X2 a, v, {0, 0, 0, 0}, handle(h.x), 2D;
ATOMIM.MAX.F16X4 b, v, {1, 0, 0, 0}, handle(id.x), BUFFER;
STOREIM.F32X4 handle(id.x), a, {0, 0, 0, 0}, 1D;
STOREIM.F32X4 handle(id.x), b, {1, 0, 0, 0}, 1D;
END
";
    let pairs = array(
        ImageTarget::T2D,
        Some((DataType::Unsigned, 32, 1)),
        DataType::Unsigned,
    );
    let quads = array(
        ImageTarget::Buffer,
        Some((DataType::Unsigned, 32, 1)),
        DataType::Unsigned,
    );
    let results = array(
        ImageTarget::T1D,
        Some((DataType::Float, 32, 4)),
        DataType::Float,
    );
    let quad_words = [0x4000_3c00, 0x3400_c000, 0xba00_3800, 0x4800_4400];
    let mut elements: Vec<Element> = (0..8)
        .map(|e| Element {
            array: pairs,
            element: e,
            kind: TextureKind::D2,
            format: vk::Format::R16G16_SFLOAT,
            extent: [1, 1, 1],
            layers: 1,
            words: vec![0x4000_3c00],
        })
        .collect();
    // Two rgba16f texels each (the interpreter's extent is in texels).
    elements.extend((0..8).map(|e| Element {
        array: quads,
        element: e,
        kind: TextureKind::Buffer,
        format: vk::Format::R16G16B16A16_SFLOAT,
        extent: [2, 1, 1],
        layers: 1,
        words: quad_words.to_vec(),
    }));
    elements.extend((0..8).map(|e| Element {
        array: results,
        element: e,
        kind: TextureKind::D1,
        format: vk::Format::R32G32B32A32_SFLOAT,
        extent: [2, 1, 1],
        layers: 1,
        words: vec![0; 8],
    }));
    // 2D is target 1, BUFFER target 5 (docs/interface.md); U32 format 8.
    assert_eq!((elements[0].binding(), elements[8].binding()), (152, 280));
    let reflection = nvp4c::compile(src, &{
        let mut o = nvp4c::Options::default();
        o.device_limits.max_per_stage_descriptor_storage_images = 64;
        o
    })
    .unwrap()
    .reflection;
    let data: Vec<_> = reflection
        .bindless_images
        .iter()
        .map(|a| (a.binding, a.format.as_deref(), a.data_format.as_deref()))
        .collect();
    assert!(
        data.contains(&(152, Some("r32ui"), Some("rg16f"))),
        "{data:?}"
    );
    assert!(
        data.contains(&(280, Some("r32ui"), Some("rgba16f"))),
        "{data:?}"
    );
    let f = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<u32>>();
    for (who, out) in run(src, 2, &elements) {
        assert_eq!(out[1], [0xbc00_3e00], "{who}: 2D element 1");
        assert_eq!(out[3], [0x0000_4100], "{who}: 2D element 3");
        for e in [0, 2, 4, 5, 6, 7] {
            assert_eq!(out[e], [0x4000_3c00], "{who}: 2D element {e} unchanged");
        }
        let q0 = [0x4000_3c00, 0x3400_c000, 0xba00_3800, 0x4800_4480];
        let q1 = [0x4000_3c00, 0x3400_c000, 0xba00_3e00, 0x4800_4580];
        assert_eq!(out[8], q0, "{who}: BUFFER element 0");
        assert_eq!(out[9], q1, "{who}: BUFFER element 1");
        for (e, words) in out.iter().enumerate().take(16).skip(10) {
            assert_eq!(
                words,
                &quad_words,
                "{who}: BUFFER element {} unchanged",
                e - 8
            );
        }
        let r = f(&[1.0, 2.0, 0.0, 0.0, 0.5, -0.75, 4.0, 8.0]);
        assert_eq!(out[16], r, "{who}: invocation 0");
        assert_eq!(out[17], r, "{who}: invocation 1");
        for (e, words) in out.iter().enumerate().skip(18) {
            assert_eq!(words, &[0; 8], "{who}: result element {} unchanged", e - 16);
        }
    }
}
