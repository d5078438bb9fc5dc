//! EXT_shader_image_load_store's LOADIM, STOREIM and ATOMIM on
//! [`Inputs::images`](super::Inputs::images): the texels of each image
//! unit as little-endian bytes, laid out by the unit's storage modifier,
//! as the backend declares the unit (docs/interface.md, "Images"):
//!
//! * a unit's format is the storage modifier of its unformatted accesses
//!   (the checker makes them agree: E1197); a texel is `bits / 8 ×
//!   components` bytes. A unit only written by formatted stores has no
//!   format in the program; the device converts to its view's format,
//!   which the program does not name, so the interpreter keeps the four
//!   32-bit components of the data type (an RGBA32 view of it).
//! * [`Image::extent`] is the size along each coordinate the target uses
//!   (Table X.5, in [`ImageTarget::coordinate_components`]'s order): a
//!   cube's third extent is its 6 faces, a cube array's 6 × its cubes, an
//!   ARRAY1D's second extent its layers. A multisample target (2DMS,
//!   ARRAY2DMS) takes the sample number from the coordinate's w, below
//!   [`Image::samples`]; a texel's samples are consecutive.
//! * "Invalid image loads will return zero. Invalid image stores will have
//!   no effect. Invalid image atomics will not update any texture bound to
//!   the image unit and will return zero" (section 3.9.X): a coordinate
//!   outside the extent, read as unsigned, or a unit without an image.
//!   Texels inside the extent but beyond the given bytes read as undefined
//!   and are not written.

use std::collections::BTreeMap;

use super::machine::{atomic_update, halves_word_update, Machine};
use super::{InterpError, Vec4};
use crate::ir::{
    BindlessImageArray, Block, ImageAccess, ImageFormat, ImageTarget, Instruction, Operand,
    Program, Stmt, BINDLESS_IMAGE_ARRAY_LEN,
};
use crate::isa::DataType;
use crate::span::Span;

/// The texels of one image unit.
///
/// ```
/// // A 2x1 R32UI image holding 7 and 9.
/// let image = nvp4c::interp::Image::from_words([2, 1, 1], &[7, 9]);
/// assert_eq!(image.bytes, [7, 0, 0, 0, 9, 0, 0, 0]);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Image {
    /// The size along each coordinate of the target (module documentation).
    pub extent: [u32; 3],
    /// The texels, little-endian, sample `s` of texel `(i, j, k)` at
    /// `(((k × extent[1] + j) × extent[0] + i) × samples + s) × texel size`.
    pub bytes: Vec<u8>,
    /// Samples per texel of a multisample image (2DMS, ARRAY2DMS); 0 and 1
    /// both mean one.
    pub samples: u32,
}

impl Image {
    /// An image of `extent` whose bytes are the little-endian `words`
    /// (the layout a Vulkan upload of the same data has).
    pub fn from_words(extent: [u32; 3], words: &[u32]) -> Image {
        Image {
            extent,
            bytes: words.iter().flat_map(|w| w.to_le_bytes()).collect(),
            samples: 1,
        }
    }

    /// The bytes as little-endian words (a last partial word padded with
    /// zeros).
    pub fn words(&self) -> Vec<u32> {
        self.bytes
            .chunks(4)
            .map(|c| {
                let mut w = [0; 4];
                w[..c.len()].copy_from_slice(c);
                u32::from_le_bytes(w)
            })
            .collect()
    }
}

/// How the program's accesses lay out the texels of each unit: the format
/// of its unformatted accesses, `None` for a unit only written by
/// formatted stores (module documentation).
pub(super) fn unit_formats(program: &Program) -> BTreeMap<u32, Option<ImageFormat>> {
    fn walk(block: &Block, out: &mut BTreeMap<u32, Option<ImageFormat>>) {
        for stmt in block {
            let access = match stmt {
                Stmt::Inst(i) => i.image.as_deref(),
                Stmt::ImageStore { image, .. } => Some(&**image),
                _ => None,
            };
            if let Some(a) = access {
                for &unit in a.units() {
                    let format = out.entry(unit).or_insert(None);
                    if a.format.is_some() {
                        *format = a.format;
                    }
                }
            }
            for b in stmt.blocks() {
                walk(b, out);
            }
        }
    }
    let mut out = BTreeMap::new();
    for sub in &program.subroutines {
        walk(&sub.body, &mut out);
    }
    out
}

/// The layout of one texel: its base type, bits per component and
/// component count.
#[derive(Clone, Copy)]
struct Layout {
    ty: DataType,
    bits: u8,
    components: u8,
}

impl Layout {
    fn bytes(self) -> usize {
        usize::from(self.bits / 8) * usize::from(self.components)
    }
}

/// Where a texel is: its byte offset, or `None` outside the image.
enum Texel {
    Outside,
    At(usize),
}

/// The image an access uses: an image unit's, or element `h` of an
/// NV_bindless_texture image handle array ([`Inputs::bindless_images`](super::Inputs::bindless_images)).
#[derive(Clone, Copy)]
enum Slot {
    Unit(u32),
    Handle(BindlessImageArray, u32),
}

/// Where an access goes: its image (`None` for a handle past the array,
/// which names no image), and whether the handle is undefined.
struct Picked {
    slot: Option<Slot>,
    undefined: bool,
}

impl Machine<'_> {
    /// The image an access of data type `ty` uses: a bindless handle's
    /// element of its array (the handle's x, a LONG register's at 64 bits;
    /// at or past [`BINDLESS_IMAGE_ARRAY_LEN`] it names none, as in the backend:
    /// docs/interface.md, "Bindless images"), or [`Machine::image_unit`]'s.
    fn image_slot(&mut self, a: &ImageAccess, ty: DataType) -> Result<Picked, InterpError> {
        let (Some(handle), Some(array)) = (&a.handle, a.bindless_array(ty)) else {
            return Ok(Picked {
                slot: Some(Slot::Unit(self.image_unit(a)?)),
                undefined: false,
            });
        };
        let h = self.load64(handle)?;
        let slot = u32::try_from(h.bits[0])
            .ok()
            .filter(|&h| h < BINDLESS_IMAGE_ARRAY_LEN)
            .map(|h| Slot::Handle(array, h));
        Ok(Picked {
            slot,
            undefined: h.undefined & 1 != 0,
        })
    }

    fn image(&self, slot: Slot) -> Option<&Image> {
        match slot {
            Slot::Unit(u) => self.outcome.images.get(&u),
            Slot::Handle(a, h) => self.outcome.bindless_images.get(&(a, h)),
        }
    }

    fn image_mut(&mut self, slot: Slot) -> Option<&mut Image> {
        match slot {
            Slot::Unit(u) => self.outcome.images.get_mut(&u),
            Slot::Handle(a, h) => self.outcome.bindless_images.get_mut(&(a, h)),
        }
    }

    /// The unit an access uses: its own, or the element of a
    /// register-indexed IMAGE array the index's x (a signed integer, a
    /// float truncated) plus the constant offset picks, clamped to the
    /// array as the backend does (docs/semantics.md, "Images").
    fn image_unit(&mut self, a: &ImageAccess) -> Result<u32, InterpError> {
        let Some((select, index)) = &a.unit_select else {
            return Ok(a.unit);
        };
        let v = self.load(index)?;
        let x = if index.ty == DataType::Float {
            v.f(0) as i32
        } else {
            v.bits[0] as i32
        };
        let last = select.units.len().saturating_sub(1) as i64;
        let k = (i64::from(x) + i64::from(select.offset)).clamp(0, last) as usize;
        Ok(select.units.get(k).copied().unwrap_or(a.unit))
    }

    fn image_layout(&self, slot: Option<Slot>, ty: DataType) -> Layout {
        let format = match slot {
            Some(Slot::Unit(unit)) => self.image_formats.get(&unit).copied().flatten(),
            Some(Slot::Handle(array, _)) => array.format,
            None => None,
        };
        match format {
            Some(f) => Layout {
                ty: f.ty,
                bits: f.bits,
                components: f.components,
            },
            None => Layout {
                ty,
                bits: 32,
                components: 4,
            },
        }
    }

    /// The texel the target's components of the signed coordinate select
    /// (Table X.5), and whether the coordinate is undefined.
    fn texel(&self, a: &ImageAccess, at: &Picked, coord: &Vec4, layout: Layout) -> (Texel, bool) {
        let comps = a.target.coordinate_components();
        let multisample = matches!(a.target, ImageTarget::T2DMS | ImageTarget::Array2DMS);
        let undefined = at.undefined
            || comps.iter().any(|&c| coord.is_undefined(c))
            || multisample && coord.is_undefined(3);
        let Some(image) = at.slot.and_then(|slot| self.image(slot)) else {
            return (Texel::Outside, undefined);
        };
        let mut at = [0u64; 3];
        for (n, &c) in comps.iter().enumerate() {
            // A negative coordinate, read as unsigned, is far outside.
            let v = coord.bits[c];
            if v >= image.extent[n] {
                return (Texel::Outside, undefined);
            }
            at[n] = u64::from(v);
        }
        let samples = u64::from(image.samples.max(1));
        let sample = match a.target {
            // Table X.5: the sample number is w.
            ImageTarget::T2DMS | ImageTarget::Array2DMS => u64::from(coord.bits[3]),
            _ => 0,
        };
        if sample >= samples {
            return (Texel::Outside, undefined);
        }
        let [w, h, _] = image.extent.map(u64::from);
        let index = ((at[2] * h + at[1]) * w + at[0]) * samples + sample;
        let byte = usize::try_from(index).unwrap_or(usize::MAX);
        (Texel::At(byte.saturating_mul(layout.bytes())), undefined)
    }

    /// Component `c` of the texel at `byte`, sign- or zero-extended to 32
    /// bits; `None` beyond the given bytes.
    fn texel_component(
        &self,
        slot: Option<Slot>,
        byte: usize,
        layout: Layout,
        c: usize,
    ) -> Option<u32> {
        let size = usize::from(layout.bits / 8);
        let at = byte.checked_add(c * size)?;
        let bytes = self.image(slot?)?.bytes.get(at..at + size)?;
        let mut w = [0u8; 4];
        w[..size].copy_from_slice(bytes);
        let raw = u32::from_le_bytes(w);
        Some(match (layout.bits, layout.ty) {
            (8, DataType::Signed) => i32::from(raw as u8 as i8) as u32,
            (16, DataType::Signed) => i32::from(raw as u16 as i16) as u32,
            // NV_gpu_program5_mem_extended's F16 formats: the half as f32.
            (16, DataType::Float) => super::half::half_to_f32(raw as u16).to_bits(),
            _ => raw,
        })
    }

    fn write_texel_component(
        &mut self,
        slot: Option<Slot>,
        byte: usize,
        layout: Layout,
        c: usize,
        v: u32,
    ) {
        let size = usize::from(layout.bits / 8);
        let Some(image) = slot.and_then(|slot| self.image_mut(slot)) else {
            return;
        };
        let Some(at) = byte.checked_add(c * size) else {
            return;
        };
        // An F16 format's component: the f32 rounded to the nearest half
        // (even), as the backend's OpImageWrite to a 16-bit float format.
        let v = match (layout.bits, layout.ty) {
            (16, DataType::Float) => u32::from(super::half::f64_to_half(
                f64::from(f32::from_bits(v)),
                crate::ir::Rounding::Round,
            )),
            _ => v,
        };
        if let Some(bytes) = image.bytes.get_mut(at..at + size) {
            bytes.copy_from_slice(&v.to_le_bytes()[..size]);
        }
    }

    /// LOADIM: the texel's components, "zero, zero, and one" after a one-
    /// (or two-) component format's, zero outside the image.
    pub(super) fn image_load(
        &mut self,
        inst: &Instruction,
        coord: &Vec4,
    ) -> Result<Vec4, InterpError> {
        let a = image_access(inst)?;
        let at = self.image_slot(a, inst.ty)?;
        let layout = self.image_layout(at.slot, inst.ty);
        let (texel, undefined) = self.texel(a, &at, coord, layout);
        let mut v = Vec4::defined([0; 4]);
        if let Texel::At(byte) = texel {
            let one = if layout.ty == DataType::Float {
                1f32.to_bits()
            } else {
                1
            };
            v.bits[3] = one;
            for c in 0..usize::from(layout.components) {
                match self.texel_component(at.slot, byte, layout, c) {
                    Some(x) => v.bits[c] = x,
                    None => v.undefined |= 1 << c,
                }
            }
        }
        if undefined {
            v.undefined = 0xf;
        }
        Ok(v)
    }

    /// STOREIM: the value's components of the format, inside the image
    /// only; an 8- or 16-bit format keeps the low bits ("all bits but the
    /// least significant eight or sixteen are dropped").
    pub(super) fn image_store(
        &mut self,
        a: &ImageAccess,
        value: &Operand,
        coord: &Operand,
        span: Span,
    ) -> Result<(), InterpError> {
        let v = self.load(value)?;
        let c = self.load(coord)?;
        let at = self.image_slot(a, value.ty)?;
        let layout = self.image_layout(at.slot, value.ty);
        let (texel, undefined) = self.texel(a, &at, &c, layout);
        if undefined || v.undefined != 0 {
            self.undefined_event(
                span,
                "STOREIM of an undefined value or at an undefined coordinate".into(),
            );
        }
        if let Texel::At(byte) = texel {
            for k in 0..usize::from(layout.components) {
                self.write_texel_component(at.slot, byte, layout, k, v.bits[k]);
            }
        }
        Ok(())
    }

    /// ATOMIM: the texel's first component before the operation (zero
    /// outside the image, where nothing is written), as ATOMB's
    /// operations compute it.
    pub(super) fn image_atomic(
        &mut self,
        inst: &Instruction,
        operand: &Vec4,
        coord: &Vec4,
    ) -> Result<Vec4, InterpError> {
        let a = image_access(inst)?;
        let op = a
            .atomic
            .ok_or_else(|| super::machine::internal("ATOMIM without its operation", inst.span))?;
        let at = self.image_slot(a, inst.ty)?;
        let packed = a.packed_halves_atomic();
        let layout = if packed {
            // NV_shader_atomic_fp16_vector's F16X2: the rg16f texel as the
            // one 32-bit word of two halves the backend's R32ui view holds
            // (docs/interface.md, "Images").
            Layout {
                ty: DataType::Unsigned,
                bits: 32,
                components: 1,
            }
        } else {
            self.image_layout(at.slot, inst.ty)
        };
        let (texel, undefined) = self.texel(a, &at, coord, layout);
        let Texel::At(byte) = texel else {
            let mut v = Vec4::defined([0; 4]);
            if undefined {
                v.undefined = 0xf;
            }
            return Ok(v);
        };
        let Some(old) = self.texel_component(at.slot, byte, layout, 0) else {
            let mut v = Vec4::defined([0; 4]);
            v.undefined = 0xf;
            return Ok(v);
        };
        if packed {
            // The halves before as f32 x y, zero z w.
            let mut v = Vec4::defined([0; 4]);
            let new = halves_word_update(op, old, operand, 0, undefined, &mut v);
            self.write_texel_component(at.slot, byte, layout, 0, new);
            return Ok(v);
        }
        let new = atomic_update(op, inst.ty, old, operand.bits[0], operand.bits[1])
            .map_err(|what| super::machine::internal(what, inst.span))?;
        if let Some(new) = new {
            self.write_texel_component(at.slot, byte, layout, 0, new);
        }
        let mut v = Vec4::defined([old; 4]);
        if undefined
            || operand.is_undefined(0)
            || (op == crate::ir::AtomicOp::CSwap && operand.is_undefined(1))
        {
            v.undefined = 0xf;
        }
        Ok(v)
    }
}

fn image_access(inst: &Instruction) -> Result<&ImageAccess, InterpError> {
    inst.image.as_deref().ok_or_else(|| {
        super::machine::internal("an image instruction without its image", inst.span)
    })
}

#[cfg(test)]
mod tests {
    use super::Image;
    use crate::interp::{run, Inputs, Outcome};

    fn outcome(src: &str, images: &[(u32, Image)]) -> Outcome {
        let (program, _) = crate::check(src, &crate::Options::default()).expect("checks");
        let mut inputs = Inputs::default();
        inputs.images.extend(images.iter().cloned());
        run(&program, &inputs, &Default::default()).expect("runs")
    }

    /// ATOMIM.F16X2 (NV_shader_atomic_fp16_vector) on texel 1 of an rg16f
    /// image holding (1, 2) = 0x4000_3C00: ADD (0.5, -3) gives (1.5, -1) =
    /// 0xBC00_3E00 and returns (1, 2, 0, 0) as f32; texel 0 is untouched.
    #[test]
    fn image_atomic_f16x2_adds_per_half_and_returns_the_old_halves() {
        let src = "!!NVcp5.0\nOPTION NV_shader_atomic_fp16_vector;\nGROUP_SIZE 1;\nTEMP r;\nATOMIM.ADD.F16X2 r, {0.5, -3, 0, 0}, {1, 0, 0, 0}, image[0], 1D;\nSTOREIM.F32X4 image[1], r, {0, 0, 0, 0}, 1D;\nEND\n";
        let out = outcome(
            src,
            &[
                (0, Image::from_words([2, 1, 1], &[7, 0x4000_3C00])),
                (1, Image::from_words([1, 1, 1], &[9; 4])),
            ],
        );
        assert_eq!(out.images[&0].words(), [7, 0xBC00_3E00]);
        assert_eq!(out.images[&1].words(), [0x3F80_0000, 0x4000_0000, 0, 0]);
    }

    /// A unit written only by formatted stores has no format in the
    /// program: the interpreter keeps the data type's four 32-bit
    /// components.
    #[test]
    fn formatted_stores_to_a_unit_without_format_keep_four_words() {
        let src =
            "!!NVcp5.0\nGROUP_SIZE 1;\nSTOREIM.U image[3], {1, 2, 3, 4}, {1, 0, 0, 0}, 1D;\nEND\n";
        let out = outcome(src, &[(3, Image::from_words([2, 1, 1], &[9; 8]))]);
        assert_eq!(out.images[&3].words(), [9, 9, 9, 9, 1, 2, 3, 4]);
    }

    /// A cube's coordinate z is its face (Table X.5): face 5 of a 1x1 cube
    /// is the sixth texel, and face 6 is outside.
    #[test]
    fn a_cube_face_is_the_third_coordinate_and_face_6_is_outside() {
        let src = "!!NVcp5.0\nGROUP_SIZE 1;\nUINT TEMP r;\nLOADIM.U32 r, {0, 0, 5, 0}, image[0], CUBE;\nSTOREIM.U32 image[0], r, {0, 0, 0, 0}, CUBE;\nSTOREIM.U32 image[0], {7, 0, 0, 0}, {0, 0, 6, 0}, CUBE;\nEND\n";
        let out = outcome(
            src,
            &[(0, Image::from_words([1, 1, 6], &[10, 11, 12, 13, 14, 15]))],
        );
        assert_eq!(out.images[&0].words(), [15, 11, 12, 13, 14, 15]);
    }

    /// NV_bindless_texture's image handles: element h of the array of the
    /// access's target and format; a handle past the array's 8
    /// elements, or one at or above 2^32 in a LONG register, names no
    /// image (loads zero, stores and atomics do nothing).
    #[test]
    fn image_handles_name_elements_of_their_array() {
        use crate::ir::{BindlessImageArray, ImageFormat, ImageTarget};
        use crate::isa::DataType;
        let src = "!!NVcp5.0\nOPTION NV_bindless_texture;\nGROUP_SIZE 1;\nUINT TEMP h, r, a;\nLONG TEMP l;\nMOV.U h, {2, 5, 8, 0};\nLOADIM.U32 r, {1, 0, 0, 0}, handle(h.x), 1D;\nSTOREIM.U32 handle(h.y), r, {0, 0, 0, 0}, 1D;\nATOMIM.ADD.U32 a.x, {7, 0, 0, 0}, {1, 0, 0, 0}, handle(h.y), 1D;\nLOADIM.U32 r, {0, 0, 0, 0}, handle(h.z), 1D;\nSTOREIM.U32 handle(h.z), {9, 0, 0, 0}, {0, 0, 0, 0}, 1D;\nSTOREIM.U32 handle(h.y), r, {2, 0, 0, 0}, 1D;\nPK64.U l, {2, 1, 0, 0};\nATOMIM.ADD.U32 a.y, {1, 0, 0, 0}, {0, 0, 0, 0}, handle(l.x), 1D;\nADD.U a.z, a.x, a.y;\nSTOREIM.U32 handle(h.y), a.z, {3, 0, 0, 0}, 1D;\nEND\n";
        let (program, _) = crate::check(src, &crate::Options::default()).expect("checks");
        let array = BindlessImageArray {
            target: ImageTarget::T1D,
            format: Some(ImageFormat {
                ty: DataType::Unsigned,
                bits: 32,
                components: 1,
            }),
            ty: DataType::Unsigned,
        };
        let mut inputs = Inputs::default();
        for e in 0..8 {
            let texels: Vec<u32> = (0..4).map(|i| 100 * e + i).collect();
            let image = Image::from_words([4, 1, 1], &texels);
            inputs.bindless_images.insert((array, e), image);
        }
        let out = run(&program, &inputs, &Default::default()).expect("runs");
        // Element 2's texel 1 (201) stored at element 5's texel 0; 7 added
        // to element 5's texel 1 (501, returned); the load through handle
        // 8 (past the array's 8 elements) is 0, stored at texel 2; the atomic through 2 + 2^32 returns
        // 0, so texel 3 gets 501.
        assert_eq!(out.bindless_images[&(array, 5)].words(), [201, 508, 0, 501]);
        for e in (0..8).filter(|&e| e != 5) {
            let texels: Vec<u32> = (0..4).map(|i| 100 * e + i).collect();
            assert_eq!(out.bindless_images[&(array, e)].words(), texels);
        }
    }

    /// An image unit with no image bound: every access is invalid (loads
    /// zero, atomics return zero and store nothing).
    #[test]
    fn a_unit_without_an_image_loads_zero() {
        let src = "!!NVcp5.0\nGROUP_SIZE 1;\nUINT TEMP r, a;\nLOADIM.U32 r, {0, 0, 0, 0}, image[1], 2D;\nATOMIM.ADD.U32 a.x, {5, 0, 0, 0}, {0, 0, 0, 0}, image[1], 2D;\nMOV.U r.y, a.x;\nSTOREIM.U32X4 image[2], r, {0, 0, 0, 0}, 1D;\nEND\n";
        let out = outcome(src, &[(2, Image::from_words([1, 1, 1], &[7; 4]))]);
        assert_eq!(out.images[&2].words(), [0, 0, 0, 0]);
        assert!(!out.images.contains_key(&1));
    }
}
