//! Execution tests of EXT_shader_image_load_store's image instructions
//! (LOADIM, STOREIM, ATOMIM) in `!!NVfp5.0` fragment programs, on an image
//! unit (`image[n]`, binding 80 + n of the fragment set) and through
//! NV_bindless_texture's image handles (`handle(h.x)`), on the Vulkan
//! device (`FragmentJob::images`; the device's fragmentStoresAndAtomics)
//! and in the interpreter, one fragment after the other on the same texels.
//!
//! Several fragments run at once, and a 2×2 quad may run helper
//! invocations beside a point's fragment; so each fragment touches only
//! the texel of its own pixel (`fragment.position`'s integer part), and the
//! results are the same in any order. Helper invocations cannot disturb
//! them: "Stores and atomics performed by helper invocations must not have
//! any effect on memory" (Vulkan, "Helper Invocations"), which is what
//! GL's EXT_shader_image_load_store asks of fragments that are not
//! covered too, so the backend emits no test of its own. Expected values
//! are computed by hand from the spec (EXT_shader_image_load_store,
//! "Dependencies on NV_gpu_program5", sections 2.X.8.Z and 3.9.X).

use ash::vk;

use crate::harness::{self, FragmentJob, StorageImage, TextureKind};
use nvp4c::ir::{BindlessImageArray, ImageFormat, ImageTarget};
use nvp4c::isa::{DataType, Stage};
use nvp4c::TargetEnv;

/// The target: 4×2 pixels, one point (case) each; case i is pixel
/// (i % 4, i / 4).
const WIDTH: u32 = 4;
const HEIGHT: u32 = 2;
/// Words nothing wrote.
const UNWRITTEN: u32 = 0xDEAD_BEEF;

fn options() -> nvp4c::Options {
    let mut options = nvp4c::Options::default();
    // Eight handle elements and a unit: past nvp4c's default of 8 storage
    // images per stage (E1199), within lavapipe's 64 (docs/limits.md).
    options
        .device_limits
        .max_per_stage_descriptor_storage_images = 64;
    options
}

/// A storage image of the fragment stage's layout: unit `unit`, or
/// element `element` of a handle array.
enum Slot {
    Unit(u32),
    Handle(BindlessImageArray, u32),
}

struct Image {
    slot: Slot,
    kind: TextureKind,
    format: vk::Format,
    extent: [u32; 3],
    words: Vec<u32>,
}

impl Image {
    fn storage_image(&self) -> StorageImage {
        let layout = options().stage_layout(Stage::Fragment);
        let (binding, element) = match self.slot {
            Slot::Unit(n) => (layout.image_binding(n), 0),
            Slot::Handle(array, e) => (layout.bindless_image_binding(array), e),
        };
        StorageImage {
            binding,
            element,
            kind: self.kind,
            format: self.format,
            extent: self.extent,
            layers: 1,
            words: self.words.clone(),
            samples: 1,
            view_format: None,
        }
    }
}

/// The images after the run on the device (when there is one), for
/// Vulkan 1.0 (KIL is OpKill) and 1.3 (SPIR-V 1.6: KIL is
/// OpDemoteToHelperInvocation), and in the interpreter, each named for
/// the assertion messages.
fn run(src: &str, images: &[Image]) -> Vec<(&'static str, Vec<Vec<u32>>)> {
    let mut runs = vec![("interpreter", interpret(src, images))];
    let Some(device) = harness::device_or_skip() else {
        return runs;
    };
    for (env, who) in [
        (TargetEnv::Vulkan1_0, "device, vulkan1.0"),
        (TargetEnv::Vulkan1_3, "device, vulkan1.3"),
    ] {
        let mut options = options();
        options.target_env = env;
        let spirv = match nvp4c::compile(src, &options) {
            Ok(c) => c.spirv,
            Err(d) => panic!("compile failed:\n{}", d.render("t.fp", src, false)),
        };
        let mut job = FragmentJob::new(vec![vec![]; (WIDTH * HEIGHT) as usize]);
        job.width = Some(WIDTH);
        job.descriptor_set = options.stage_layout(Stage::Fragment).set;
        job.images = images.iter().map(Image::storage_image).collect();
        let out = device
            .run_fragment(&spirv, &job)
            .unwrap_or_else(|e| panic!("{who}: {e}"));
        runs.push((who, out.images));
    }
    runs
}

/// One interpreter run per pixel, in order, each with the pixel centre as
/// `fragment.position` and the images the previous one left.
fn interpret(src: &str, images: &[Image]) -> Vec<Vec<u32>> {
    let (program, _) = nvp4c::check(src, &options()).expect("checks");
    let mut inputs = nvp4c::interp::Inputs::default();
    for i in images {
        let image = nvp4c::interp::Image::from_words(i.extent, &i.words);
        match i.slot {
            Slot::Unit(n) => {
                inputs.images.insert(n, image);
            }
            Slot::Handle(array, e) => {
                inputs.bindless_images.insert((array, e), image);
            }
        }
    }
    for y in 0..HEIGHT {
        for x in 0..WIDTH {
            let centre = [x as f32 + 0.5, y as f32 + 0.5, 0.0, 1.0];
            inputs
                .set("fragment.position", centre.map(f32::to_bits))
                .expect("a fragment attribute");
            let outcome = nvp4c::interp::run(&program, &inputs, &Default::default()).expect("runs");
            assert!(outcome.undefined.is_empty(), "{:?}", outcome.undefined);
            inputs.images = outcome.images;
            inputs.bindless_images = outcome.bindless_images;
        }
    }
    images
        .iter()
        .map(|i| match i.slot {
            Slot::Unit(n) => inputs.images[&n].words(),
            Slot::Handle(array, e) => inputs.bindless_images[&(array, e)].words(),
        })
        .collect()
}

/// A 4×2 RGBA32UI image of `UNWRITTEN` words at unit `unit`.
fn results(unit: u32) -> Image {
    Image {
        slot: Slot::Unit(unit),
        kind: TextureKind::D2,
        format: vk::Format::R32G32B32A32_UINT,
        extent: [WIDTH, HEIGHT, 1],
        words: vec![UNWRITTEN; (4 * WIDTH * HEIGHT) as usize],
    }
}

/// The image accesses of the two unit tests below: each fragment loads
/// its pixel's texel of unit 0 (R32UI), adds 10 to it with ATOMIM.ADD,
/// and stores what it loaded, the atomic's old value and its pixel into
/// its texel of unit 1 (RGBA32UI). `{kill}` is the lines before them.
const UNIT_ACCESSES: &str = "!!NVfp5.0
IMAGE data = image[0];
IMAGE res = image[1];
TEMP c, v, old, r;
TRUNC.S c, fragment.position;
MOV.S c.zw, 0;
{kill}LOADIM.U32 v, c, data, 2D;
ATOMIM.ADD.U32 old.x, 10, c, data, 2D;
MOV.U r.x, v.x;
MOV.U r.y, old.x;
MOV.S r.zw, c.xxxy;
STOREIM.U32X4 res, r, c, 2D;
MOV result.color, 1;
END
";

/// Runs [`UNIT_ACCESSES`] with `kill` before the accesses, texel (x, y) of
/// unit 0 holding 100 + 10y + x, and checks each pixel's texels of unit 0
/// and unit 1 against `expected(x, y, before)`.
fn check_unit_accesses(kill: &str, expected: impl Fn(u32, u32, u32) -> (u32, [u32; 4])) {
    let src = UNIT_ACCESSES.replace("{kill}", kill);
    let data = Image {
        slot: Slot::Unit(0),
        kind: TextureKind::D2,
        format: vk::Format::R32_UINT,
        extent: [WIDTH, HEIGHT, 1],
        words: (0..HEIGHT)
            .flat_map(|y| (0..WIDTH).map(move |x| 100 + 10 * y + x))
            .collect(),
    };
    for (who, out) in run(&src, &[data, results(1)]) {
        for y in 0..HEIGHT {
            for x in 0..WIDTH {
                let texel = (y * WIDTH + x) as usize;
                let (data, res) = expected(x, y, 100 + 10 * y + x);
                assert_eq!(out[0][texel], data, "{who}: unit 0 at ({x}, {y})");
                assert_eq!(
                    out[1][4 * texel..4 * texel + 4],
                    res,
                    "{who}: unit 1 at ({x}, {y})"
                );
            }
        }
    }
}

#[test]
fn fragment_program_loads_stores_and_atomics_on_image_units() {
    // ATOMIM.ADD returns the value before and leaves it + 10.
    check_unit_accesses("", |x, y, before| (before + 10, [before, before, x, y]));
}

/// Each fragment names element 4y + x of the 2D R32UI handle array (the
/// handle computed from its pixel): LOADIM, ATOMIM.ADD of handle + 1, and
/// its findings stored into its texel of unit 0.
#[test]
fn fragment_program_loads_stores_and_atomics_through_image_handles() {
    let src = "!!NVfp5.0
OPTION NV_bindless_texture;
IMAGE res = image[0];
TEMP c, h, v, old, w, r;
TRUNC.S c, fragment.position;
MOV.S c.zw, 0;
MAD.S h.x, c.y, 4, c.x;
LOADIM.U32 v, {0, 0, 0, 0}, handle(h.x), 2D;
ADD.U w.x, h.x, 1;
ATOMIM.ADD.U32 old.x, w.x, {0, 0, 0, 0}, handle(h.x), 2D;
STOREIM.U32 handle(h.x), v, {1, 0, 0, 0}, 2D;
MOV.U r.x, v.x;
MOV.U r.y, old.x;
MOV.U r.z, h.x;
MOV.U r.w, 0;
STOREIM.U32X4 res, r, c, 2D;
MOV result.color, 1;
END
";
    let array = BindlessImageArray {
        target: ImageTarget::T2D,
        format: Some(ImageFormat {
            ty: DataType::Unsigned,
            bits: 32,
            components: 1,
        }),
        ty: DataType::Unsigned,
    };
    // Element e: a 2×1 image holding 1000 e + 7 and 0.
    let mut images: Vec<Image> = (0..8)
        .map(|e| Image {
            slot: Slot::Handle(array, e),
            kind: TextureKind::D2,
            format: vk::Format::R32_UINT,
            extent: [2, 1, 1],
            words: vec![1000 * e + 7, 0],
        })
        .collect();
    images.push(results(0));
    for (who, out) in run(src, &images) {
        for e in 0..8u32 {
            // LOADIM (0, 0) reads 1000 e + 7; ATOMIM.ADD of e + 1 returns it
            // and leaves 1000 e + 8 + e; STOREIM puts the loaded value at
            // (1, 0).
            assert_eq!(
                out[e as usize],
                [1000 * e + 8 + e, 1000 * e + 7],
                "{who}: element {e}"
            );
            let (x, y) = (e % WIDTH, e / WIDTH);
            let texel = 4 * e as usize;
            assert_eq!(
                out[8][texel..texel + 4],
                [1000 * e + 7, 1000 * e + 7, e, 0],
                "{who}: unit 0 at ({x}, {y})"
            );
        }
    }
}

/// KIL before the image accesses in the fragments of odd x: "exit" in
/// KIL's pseudocode (NV_fragment_program4 2.X.8.Z), so their LOADIM,
/// ATOMIM and STOREIM never happen. On Vulkan 1.3 the killed fragment runs
/// on as a helper invocation (OpDemoteToHelperInvocation), whose stores
/// and atomics have no effect on memory: the images are the same.
#[test]
fn killed_fragments_leave_their_texels_alone() {
    check_unit_accesses(
        "TEMP k;\nAND.S.CC k.x, c.x, 1;\nKIL NE.x;\n",
        |x, y, before| {
            if x % 2 == 1 {
                (before, [UNWRITTEN; 4])
            } else {
                (before + 10, [before, before, x, y])
            }
        },
    );
}
