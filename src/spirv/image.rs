//! EXT_shader_image_load_store's LOADIM, STOREIM and ATOMIM as storage
//! images, as docs/interface.md ("Images") states them:
//!
//! * `image[n]` is one storage image (`OpTypeImage` with Sampled 2) at
//!   binding `StageLayout::image_binding(n)` (80 + n by default) of the
//!   stage's set, of the dimensionality of the unit's target and the
//!   format of its storage modifier (`U32` → R32ui, `F32X4` → Rgba32f,
//!   `S8` → R8i, …): an unformatted access "copies raw bits" (Table
//!   X.2), which is exactly the formatted access of that format. A unit
//!   only stored to without a storage modifier (a formatted STOREIM) has
//!   format Unknown (capability StorageImageWriteWithoutFormat). A unit
//!   NV_shader_atomic_fp16_vector's ATOMIM.F16X2 (F16X4 on BUFFER) uses
//!   is declared R32ui, a view of its rg16f (rgba16f) data: every access
//!   reads or writes its words and unpacks or packs the halves
//!   ([`ImageUnit::halves`]).
//! * The coordinates are the target's components of the signed operand
//!   (Table X.5: ARRAY1D's layer is z); 2DMS and ARRAY2DMS take the
//!   sample number from w, as the `Sample` image operand (multisampled
//!   storage images: capability StorageImageMultisample).
//! * "Invalid image loads will return zero. Invalid image stores will have
//!   no effect. Invalid image atomics will not update any texture bound to
//!   the image unit and will return zero" (section 3.9.X): every access
//!   compares its coordinates with `OpImageQuerySize` and runs only
//!   inside (Vulkan leaves out-of-bounds image accesses undefined without
//!   robustImageAccess).
//! * ATOMIM is an atomic through `OpImageTexelPointer` at Device scope,
//!   Relaxed semantics, with ATOMB's operations (`memory::atomic_word`).
//! * NV_bindless_texture's image handles (`handle(a.x)`): an array of
//!   [`BINDLESS_IMAGE_ARRAY_LEN`] storage images per target and format the
//!   handles use, at `StageLayout::bindless_image_binding`; each element is
//!   reached with a constant index and accessed under the condition that
//!   the handle is its index, so a handle past the array touches nothing
//!   (docs/interface.md, "Bindless images").

use std::collections::{BTreeMap, BTreeSet};

use rspirv::spirv::{
    Capability, Dim, ImageFormat as SpvFormat, ImageOperands, Op, Scope, StorageClass, Word,
};

use super::emit::{Comp, LResult, Val};
use super::{Analysis, LowerError, Lowerer};
use crate::ir::{
    BindlessImageArray, Block, ImageAccess, ImageFormat, ImageTarget, Instruction, Operand, Stmt,
    SubId, BINDLESS_IMAGE_ARRAY_LEN,
};
use crate::isa::DataType;

/// The descriptor of one image unit.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ImageUnit {
    /// The UniformConstant variable.
    pub var: Word,
    /// The OpTypeImage.
    pub image_ty: Word,
    /// The sampled type's component (texels are read and written as it).
    pub comp: Comp,
    pub target: ImageTarget,
    /// 0, or 2 (4) when the texels are rg16f (rgba16f) and the
    /// declaration R32ui for NV_shader_atomic_fp16_vector's ATOMIM.F16X2
    /// (F16X4): a texel is one (two consecutive) words of two halves, x
    /// in the low 16 bits, and every access reads or writes the words
    /// (docs/interface.md, "Images").
    pub halves: u8,
}

impl ImageUnit {
    /// The words of the declaration one texel is: 2 for an rgba16f texel
    /// through an R32ui texel buffer, 1 otherwise.
    fn words_per_texel(self) -> u32 {
        if self.halves == 4 {
            2
        } else {
            1
        }
    }
}

/// Where an access goes (`Lowerer::image_coordinates`).
#[derive(Clone, Copy)]
struct TexelAt {
    /// The texel coordinates (and layer or face).
    ijk: Val,
    /// Whether they, and the sample, lie inside the image.
    inside: Val,
    /// A multisample target's sample number (w of the operand).
    sample: Option<Val>,
}

impl TexelAt {
    /// The image operand words of OpImageRead / OpImageWrite: `Sample`
    /// and the sample for a multisample image, none otherwise.
    fn sample_operand(&self) -> Vec<Word> {
        match self.sample {
            Some(s) => vec![ImageOperands::SAMPLE.bits(), s.id],
            None => Vec::new(),
        }
    }
}

/// How the program uses one unit (the checker made every use agree:
/// E1197, E1198).
struct UnitUse {
    target: ImageTarget,
    format: Option<ImageFormat>,
    /// The base type of the formatted stores.
    ty: DataType,
    /// [`ImageUnit::halves`].
    halves: u8,
}

/// The SPIR-V format whose texels are the storage modifier's bits, and
/// whether it is one of Vulkan's extended storage formats (capability
/// StorageImageExtendedFormats, the `shaderStorageImageExtendedFormats`
/// feature).
pub(crate) fn spirv_format(f: ImageFormat) -> (SpvFormat, bool) {
    use DataType::{Float as F, Signed as S, Unsigned as U};
    match (f.ty, f.bits, f.components) {
        (F, 32, 4) => (SpvFormat::Rgba32f, false),
        (S, 32, 4) => (SpvFormat::Rgba32i, false),
        (U, 32, 4) => (SpvFormat::Rgba32ui, false),
        (F, 32, 2) => (SpvFormat::Rg32f, true),
        (S, 32, 2) => (SpvFormat::Rg32i, true),
        (U, 32, 2) => (SpvFormat::Rg32ui, true),
        // NV_gpu_program5_mem_extended: 16-bit floats and 8/16-bit
        // integer vectors; only the four-component ones are core formats.
        (F, 16, 4) => (SpvFormat::Rgba16f, false),
        (F, 16, 2) => (SpvFormat::Rg16f, true),
        (F, 16, _) => (SpvFormat::R16f, true),
        (S, 16, 4) => (SpvFormat::Rgba16i, false),
        (U, 16, 4) => (SpvFormat::Rgba16ui, false),
        (S, 8, 4) => (SpvFormat::Rgba8i, false),
        (U, 8, 4) => (SpvFormat::Rgba8ui, false),
        (S, 16, 2) => (SpvFormat::Rg16i, true),
        (U, 16, 2) => (SpvFormat::Rg16ui, true),
        (S, 8, 2) => (SpvFormat::Rg8i, true),
        (U, 8, 2) => (SpvFormat::Rg8ui, true),
        (F, _, _) => (SpvFormat::R32f, false),
        (S, 32, _) => (SpvFormat::R32i, false),
        (U, 32, _) => (SpvFormat::R32ui, false),
        (S, 16, _) => (SpvFormat::R16i, true),
        (U, 16, _) => (SpvFormat::R16ui, true),
        (S, _, _) => (SpvFormat::R8i, true),
        (U, _, _) => (SpvFormat::R8ui, true),
    }
}

/// The SPIR-V dimensionality and arrayedness of a target (RECT is a 2D
/// image: Vulkan has no rectangle images).
pub(crate) fn spirv_dim(target: ImageTarget) -> (Dim, bool) {
    match target {
        ImageTarget::T1D => (Dim::Dim1D, false),
        ImageTarget::T2D | ImageTarget::Rect | ImageTarget::T2DMS => (Dim::Dim2D, false),
        ImageTarget::T3D => (Dim::Dim3D, false),
        ImageTarget::Cube => (Dim::DimCube, false),
        ImageTarget::Buffer => (Dim::DimBuffer, false),
        ImageTarget::Array1D => (Dim::Dim1D, true),
        ImageTarget::Array2D | ImageTarget::Array2DMS => (Dim::Dim2D, true),
        ImageTarget::ArrayCube => (Dim::DimCube, true),
    }
}

/// What the reachable subroutines use: image units, and NV_bindless_texture's
/// image handle arrays.
#[derive(Default)]
struct Uses {
    units: BTreeMap<u32, UnitUse>,
    arrays: BTreeSet<BindlessImageArray>,
}

/// The units and handle arrays the reachable subroutines use.
fn unit_uses(program: &crate::ir::Program, analysis: &Analysis) -> Uses {
    fn walk(block: &Block, uses: &mut Uses) {
        for stmt in block {
            let access = match stmt {
                Stmt::Inst(i) => i.image.as_deref().map(|a| (a, i.ty)),
                Stmt::ImageStore { image, value, .. } => Some((&**image, value.ty)),
                _ => None,
            };
            if let Some((a, ty)) = access {
                uses.arrays.extend(a.bindless_array(ty));
                let out = &mut uses.units;
                for &unit in a.units() {
                    let u = out.entry(unit).or_insert(UnitUse {
                        target: a.target,
                        format: None,
                        ty,
                        halves: 0,
                    });
                    // An ATOMIM.F16X2 (F16X4) makes the unit's declaration
                    // R32ui whatever its other accesses are.
                    if a.packed_halves_atomic() {
                        u.halves = a.format.map_or(0, |f| f.components);
                        u.format = a.declared_format();
                    } else if a.format.is_some() && u.halves == 0 {
                        u.format = a.format;
                    }
                }
            }
            for b in stmt.blocks() {
                walk(b, uses);
            }
        }
    }
    let mut out = Uses::default();
    for sub in &analysis.subroutines {
        let SubId(i) = *sub;
        if let Some(s) = program.subroutines.get(i as usize) {
            walk(&s.body, &mut out);
        }
    }
    out
}

impl Lowerer<'_> {
    /// Declares one storage image per unit the program uses, and one
    /// array of [`BINDLESS_IMAGE_ARRAY_LEN`] storage images per target and
    /// format its image handles use (docs/interface.md, "Bindless
    /// images").
    pub(crate) fn declare_images(&mut self, analysis: &Analysis) -> LResult<()> {
        let stage_layout = self.options.stage_layout(self.program.stage).clone();
        let uses = unit_uses(self.program, analysis);
        for (unit, u) in uses.units {
            let (image_ty, comp) = self.storage_image_type(u.target, u.format, u.ty);
            let binding = stage_layout.image_binding(unit);
            let var = self.descriptor_variable(
                image_ty,
                StorageClass::UniformConstant,
                &format!("image{unit}"),
                binding,
            );
            self.io.images.insert(
                unit,
                ImageUnit {
                    var,
                    image_ty,
                    comp,
                    target: u.target,
                    halves: u.halves,
                },
            );
        }
        for array in uses.arrays {
            let (image_ty, comp) = self.storage_image_type(array.target, array.format, array.ty);
            let declared = self.t_array(image_ty, BINDLESS_IMAGE_ARRAY_LEN);
            let name = match array.format {
                Some(f) => format!("bindless_image_{}_{}", array.target.name(), f.name()),
                None => format!("bindless_image_{}_{}", array.target.name(), array.ty.name()),
            };
            let binding = stage_layout.bindless_image_binding(array);
            let var =
                self.descriptor_variable(declared, StorageClass::UniformConstant, &name, binding);
            self.io.bindless_images.insert(
                array,
                ImageUnit {
                    var,
                    image_ty,
                    comp,
                    target: array.target,
                    halves: 0,
                },
            );
        }
        Ok(())
    }

    /// The storage image type of a target and format (`None`: formatted
    /// stores of `ty` only), with the capabilities it needs, and the
    /// component texels are read and written as.
    fn storage_image_type(
        &mut self,
        target: ImageTarget,
        format: Option<ImageFormat>,
        ty: DataType,
    ) -> (Word, Comp) {
        let (dim, arrayed) = spirv_dim(target);
        let (format, comp) = match format {
            Some(f) => {
                let (format, extended) = spirv_format(f);
                if extended {
                    self.capability(Capability::StorageImageExtendedFormats);
                }
                (format, Comp::from(f.ty))
            }
            None => {
                // Only formatted STOREIMs: "the first operand will be
                // converted to the image unit format", which the program
                // does not know.
                self.capability(Capability::StorageImageWriteWithoutFormat);
                (SpvFormat::Unknown, Comp::from(ty))
            }
        };
        match (dim, arrayed) {
            (Dim::Dim1D, _) => self.capability(Capability::Image1D),
            (Dim::DimBuffer, _) => self.capability(Capability::ImageBuffer),
            (Dim::DimCube, true) => self.capability(Capability::ImageCubeArray),
            _ => {}
        }
        // The bounds checks query the size.
        self.capability(Capability::ImageQuery);
        let multisampled = target.multisampled();
        if multisampled {
            // Both need the `shaderStorageImageMultisample` feature.
            self.capability(Capability::StorageImageMultisample);
            if arrayed {
                self.capability(Capability::ImageMSArray);
            }
        }
        let scalar = self.t(comp, 1);
        let image_ty = self.b.type_image(
            scalar,
            dim,
            0,
            u32::from(arrayed),
            u32::from(multisampled),
            2,
            format,
            None,
        );
        (image_ty, comp)
    }

    fn image_unit(&self, unit: u32) -> LResult<ImageUnit> {
        self.io
            .images
            .get(&unit)
            .copied()
            .ok_or_else(|| LowerError::internal(format!("image unit {unit} was not declared")))
    }

    /// The units an access may use, each with the condition under which
    /// it is the one: always for a fixed unit; for a register-indexed
    /// IMAGE array, the array element the index names (clamped like a
    /// texture array's, `array_unit_index`). Every unit's access is
    /// emitted under its condition, so exactly one runs: storage image
    /// arrays indexed at run time need `shaderStorageImageArrayDynamicIndexing`,
    /// which lavapipe lacks (docs/interface.md, "Images").
    ///
    /// A bindless handle (NV_bindless_texture) names an element of its
    /// target and format's array: each of the [`BINDLESS_IMAGE_ARRAY_LEN`]
    /// elements, reached with a constant index (no dynamic indexing
    /// feature), under the condition that the handle is its index; a
    /// handle past the array names none, an invalid access (loads zero,
    /// stores and atomics do nothing; docs/interface.md, "Bindless
    /// images").
    fn image_units(
        &mut self,
        a: &ImageAccess,
        ty: DataType,
    ) -> LResult<Vec<(ImageUnit, Option<Val>)>> {
        if let (Some(operand), Some(array)) = (&a.handle, a.bindless_array(ty)) {
            let unit = self
                .io
                .bindless_images
                .get(&array)
                .copied()
                .ok_or_else(|| {
                    LowerError::internal(format!(
                        "no bindless {} image array was declared",
                        a.target.name()
                    ))
                })?;
            // An ATOMIM.F16X2 (F16X4) goes through the R32ui array.
            let halves = match a.format {
                Some(f) if a.packed_halves_atomic() => f.components,
                _ => 0,
            };
            let unit = ImageUnit { halves, ..unit };
            let handle = self.bindless_handle(operand, None)?;
            let mut out = Vec::with_capacity(BINDLESS_IMAGE_ARRAY_LEN as usize);
            for element in 0..BINDLESS_IMAGE_ARRAY_LEN {
                let index = self.c_u32(element);
                let var = self.access(
                    StorageClass::UniformConstant,
                    unit.image_ty,
                    unit.var,
                    &[index],
                )?;
                let here = self.handle_test(Op::IEqual, handle, element)?;
                out.push((ImageUnit { var, ..unit }, Some(here)));
            }
            return Ok(out);
        }
        let Some((select, index)) = &a.unit_select else {
            return Ok(vec![(self.image_unit(a.unit)?, None)]);
        };
        let index = self.load_operand(index, true)?.value;
        let index = self.array_unit_index(index, select)?;
        let mut out = Vec::with_capacity(select.units.len());
        for (k, &unit) in select.units.iter().enumerate() {
            let k = self.konst(Comp::I32, &[k as u32]);
            let here = self.cmp(Op::IEqual, index, k)?;
            out.push((self.image_unit(unit)?, Some(here)));
        }
        Ok(out)
    }

    /// Runs `access` on each unit an access may use, under the condition
    /// that it is the one picked, and there only inside the image: the
    /// coordinates are compared with the size of the picked image alone.
    fn each_image(
        &mut self,
        units: Vec<(ImageUnit, Option<Val>)>,
        coord: Val,
        mut access: impl FnMut(&mut Self, ImageUnit, &TexelAt) -> LResult<()>,
    ) -> LResult<()> {
        for (unit, pick) in units {
            self.guarded_by(pick, |l| {
                let at = l.image_coordinates(unit, coord)?;
                l.guarded_by(Some(at.inside), |l| access(l, unit, &at))
            })?;
        }
        Ok(())
    }

    /// The texel coordinates of the target (Table X.5) from the signed
    /// operand, and whether they lie inside the image: every coordinate,
    /// read as unsigned (a negative one is far outside), below the size;
    /// a cube's face (z) below 6, a cube array's layer-face below 6 × its
    /// cubes; a multisample target's sample number (w) below its samples
    /// (the sample is then the access's `Sample` operand).
    fn image_coordinates(&mut self, unit: ImageUnit, coord: Val) -> LResult<TexelAt> {
        let comps = unit.target.coordinate_components();
        let coord = self.cast(coord, Comp::I32)?;
        let ijk = if let [c] = comps {
            self.extract(coord, *c as u32)?
        } else {
            let idx: Vec<u32> = comps.iter().map(|&c| c as u32).collect();
            self.shuffle(coord, coord, &idx)?
        };
        let n = comps.len() as u32;
        let image = self.b.load(unit.image_ty, None, unit.var, None, [])?;
        // A cube's size is its faces' (w, h); a cube array's (w, h, cubes).
        let size_n = if unit.target == ImageTarget::Cube {
            2
        } else {
            n
        };
        let size_ty = self.t(Comp::I32, size_n);
        let size = self.emit(Op::ImageQuerySize, size_ty, &[image])?;
        let mut size = Val {
            id: size,
            comp: Comp::I32,
            n: size_n,
        };
        match unit.target {
            ImageTarget::Cube => {
                let six = self.konst(Comp::I32, &[6]);
                let w = self.extract(size, 0)?;
                let h = self.extract(size, 1)?;
                size = self.construct(&[w, h, six])?;
            }
            ImageTarget::ArrayCube => {
                let cubes = self.extract(size, 2)?;
                let six = self.konst(Comp::I32, &[6]);
                let layers = self.op(Op::IMul, &[cubes, six])?;
                let w = self.extract(size, 0)?;
                let h = self.extract(size, 1)?;
                size = self.construct(&[w, h, layers])?;
            }
            _ => {}
        }
        let at = self.cast(ijk, Comp::U32)?;
        let mut size = self.cast(size, Comp::U32)?;
        let words = unit.words_per_texel();
        let mut ijk = ijk;
        if words > 1 {
            // An rgba16f texel through an R32ui texel buffer (only BUFFER
            // has two words a texel): texel i is words 2i and 2i + 1, so
            // the texels are half the words.
            let w = self.konst(Comp::U32, &[words]);
            size = self.op(Op::UDiv, &[size, w])?;
            let w = self.konst(Comp::I32, &[words]);
            ijk = self.op(Op::IMul, &[ijk, w])?;
        }
        let below = self.cmp(Op::ULessThan, at, size)?;
        let mut inside = if n == 1 {
            below
        } else {
            let bool_ty = self.t(Comp::Bool, 1);
            let id = self.emit(Op::All, bool_ty, &[below.id])?;
            Val {
                id,
                comp: Comp::Bool,
                n: 1,
            }
        };
        let sample = if unit.target.multisampled() {
            let sample = self.extract(coord, 3)?;
            let int = self.t(Comp::I32, 1);
            let samples = self.emit(Op::ImageQuerySamples, int, &[image])?;
            let samples = Val {
                id: samples,
                comp: Comp::I32,
                n: 1,
            };
            let s = self.cast(sample, Comp::U32)?;
            let samples = self.cast(samples, Comp::U32)?;
            let below = self.cmp(Op::ULessThan, s, samples)?;
            inside = self.op(Op::LogicalAnd, &[inside, below])?;
            Some(sample)
        } else {
            None
        };
        Ok(TexelAt {
            ijk,
            inside,
            sample,
        })
    }

    /// LOADIM: the texel as four components of the storage modifier's type
    /// ("the <y>, <z>, and <w> components of the result are zero, zero,
    /// and one" for one component: Vulkan's conversion to RGBA), zero
    /// outside the image.
    pub(crate) fn image_load(&mut self, inst: &Instruction, coord: Val) -> LResult<Val> {
        let a = inst
            .image
            .as_ref()
            .ok_or_else(|| LowerError::internal_at("LOADIM without its image", inst.span))?;
        let units = self.image_units(a, inst.ty)?;
        // The storage modifier's type: a unit's texel type, or the halves'
        // f32 for a unit declared R32ui (ImageUnit::halves).
        let comp = Comp::from(inst.ty);
        let vec4 = self.t(comp, 4);
        let result = self.function_variable_init(vec4, Some("loadim"), None)?;
        let zeros = self.konst(comp, &[0; 4]);
        self.store(result, zeros)?;
        self.each_image(units, coord, |l, unit, at| {
            if unit.halves != 0 {
                let texel = l.read_halves(unit, at)?;
                return l.store(result, texel);
            }
            let texel = l.read_texel(unit, at, at.ijk)?;
            let texel = l.cast(texel, comp)?;
            l.store(result, texel)
        })?;
        let v = self.load(result, comp, 4)?;
        self.cast(v, Comp::from(inst.ty))
    }

    /// OpImageRead of the texel at `ijk` of `unit`, four components of
    /// its type.
    fn read_texel(&mut self, unit: ImageUnit, at: &TexelAt, ijk: Val) -> LResult<Val> {
        let vec4 = self.t(unit.comp, 4);
        let image = self.b.load(unit.image_ty, None, unit.var, None, [])?;
        let mut words = vec![image, ijk.id];
        words.extend(at.sample_operand());
        let texel = self.emit(Op::ImageRead, vec4, &words)?;
        Ok(Val {
            id: texel,
            comp: unit.comp,
            n: 4,
        })
    }

    /// The coordinate of word `k` of the texel `at` of a unit declared
    /// R32ui for halves ([`ImageUnit::halves`]; its coordinates are
    /// already scaled to words).
    fn halves_word_at(&mut self, at: &TexelAt, k: u32) -> LResult<Val> {
        if k == 0 {
            return Ok(at.ijk);
        }
        let k = self.konst(Comp::I32, &[k]);
        self.op(Op::IAdd, &[at.ijk, k])
    }

    /// LOADIM.F16X2 (F16X4, or their formatted store's unit) on a unit
    /// declared R32ui ([`ImageUnit::halves`]): the texel's words, each
    /// unpacked into two halves as f32, x from the low 16 bits; an rg16f
    /// texel loads (x, y, 0, 1), as Vulkan reads a two-component format
    /// (EXT_shader_image_load_store Table X.3's F16X2 access of an rg16f
    /// unit copies the two halves).
    fn read_halves(&mut self, unit: ImageUnit, at: &TexelAt) -> LResult<Val> {
        let mut words = Vec::new();
        for k in 0..unit.words_per_texel() {
            let ijk = self.halves_word_at(at, k)?;
            let texel = self.read_texel(unit, at, ijk)?;
            words.push(self.extract(texel, 0)?);
        }
        let v = self.unpack_half_words(&words)?;
        if unit.halves == 4 {
            return Ok(v);
        }
        let x = self.extract(v, 0)?;
        let y = self.extract(v, 1)?;
        let zero = self.konst(Comp::F32, &[0]);
        let one = self.konst(Comp::F32, &[1f32.to_bits()]);
        self.construct(&[x, y, zero, one])
    }

    /// STOREIM.F16X2 (F16X4, or a formatted store of F, which converts to
    /// the unit's rg16f or rgba16f) on a unit declared R32ui
    /// ([`ImageUnit::halves`]): the value's components rounded to halves
    /// and packed in pairs (x in the low 16 bits), one word each.
    fn write_halves(&mut self, unit: ImageUnit, at: &TexelAt, value: Val) -> LResult<()> {
        let packed = self.pack_half_pairs(value, unit.halves)?;
        for (k, word) in (0..).zip(packed) {
            let ijk = self.halves_word_at(at, k)?;
            let zero = self.konst(Comp::U32, &[0]);
            let texel = self.construct(&[word, zero, zero, zero])?;
            self.write_texel(unit, at, ijk, texel)?;
        }
        Ok(())
    }

    /// OpImageWrite of `texel` at `ijk` of `unit`.
    fn write_texel(&mut self, unit: ImageUnit, at: &TexelAt, ijk: Val, texel: Val) -> LResult<()> {
        let image = self.b.load(unit.image_ty, None, unit.var, None, [])?;
        let mut words = vec![image, ijk.id, texel.id];
        words.extend(at.sample_operand());
        self.b.inst(Op::ImageWrite, None, None, words)?;
        Ok(())
    }

    /// STOREIM: the value, inside the image only. An unformatted store of
    /// `S8`, `U8`, `S16`, `U16` (and NV_gpu_program5_mem_extended's X2/X4
    /// forms) keeps each component's low 8 or 16 bits ("all bits but the
    /// least significant eight or sixteen are dropped"), sign-extended
    /// for the signed ones so the 8- or 16-bit format holds exactly them
    /// (Vulkan leaves an out-of-range integer undefined).
    pub(crate) fn image_store(
        &mut self,
        value: &Operand,
        coord: &Operand,
        a: &ImageAccess,
    ) -> LResult<()> {
        let v = self.load_operand(value, false)?.value;
        let c = self.load_operand(coord, false)?.value;
        let units = self.image_units(a, value.ty)?;
        // The type of the units declared with the access's own format (a
        // unit declared R32ui for halves packs the value instead).
        let comp = units
            .iter()
            .find(|(u, _)| u.halves == 0)
            .map_or(Comp::U32, |(u, _)| u.comp);
        let halves = v;
        let mut v = self.cast(v, comp)?;
        if let Some(f) = a.format.filter(|f| f.bits < 32 && f.ty != DataType::Float) {
            // Each stored component's low bits (the others are not
            // stored: the format has none of them).
            let offset = self.konst(Comp::U32, &[0]);
            let count = self.konst(Comp::U32, &[u32::from(f.bits)]);
            let op = if f.ty == DataType::Signed {
                Op::BitFieldSExtract
            } else {
                Op::BitFieldUExtract
            };
            v = self.op(op, &[v, offset, count])?;
        }
        self.each_image(units, c, |l, unit, at| {
            if unit.halves != 0 {
                return l.write_halves(unit, at, halves);
            }
            l.write_texel(unit, at, at.ijk, v)
        })
    }

    /// ATOMIM: the texel before the operation (zero outside the image,
    /// where nothing is written), as a scalar of the storage type.
    pub(crate) fn image_atomic(
        &mut self,
        inst: &Instruction,
        operand: Val,
        coord: Val,
    ) -> LResult<Val> {
        let a = inst
            .image
            .as_ref()
            .ok_or_else(|| LowerError::internal_at("ATOMIM without its image", inst.span))?;
        let op = a
            .atomic
            .ok_or_else(|| LowerError::internal_at("ATOMIM without its operation", inst.span))?;
        if a.packed_halves_atomic() {
            return self.image_atomic_halves(inst, a, op, operand, coord);
        }
        let units = self.image_units(a, inst.ty)?;
        let bits = self.cast(operand, Comp::U32)?;
        let x = self.extract(bits, 0)?;
        let y = self.extract(bits, 1)?;
        let uint = self.t(Comp::U32, 1);
        let result = self.function_variable_init(uint, Some("atomim"), None)?;
        let zero = self.konst(Comp::U32, &[0]);
        self.store(result, zero)?;
        self.each_image(units, coord, |l, unit, at| {
            let p = l.texel_pointer(unit, at)?;
            let scope = l.c_u32(Scope::Device as u32);
            let old = l.atomic_word(p, unit.comp, scope, op, inst.ty, x, y)?;
            l.store(result, old)
        })?;
        let old = self.load(result, Comp::U32, 1)?;
        self.cast(old, Comp::from(inst.ty))
    }

    /// A pointer to the texel `at` of `unit` (sample 0 unless the image is
    /// multisampled: "Sample ... must be 0").
    fn texel_pointer(&mut self, unit: ImageUnit, at: &TexelAt) -> LResult<Word> {
        let scalar = self.t(unit.comp, 1);
        let ptr_ty = self.t_ptr(StorageClass::Image, scalar);
        let sample = match at.sample {
            Some(s) => s.id,
            None => self.c_u32(0),
        };
        self.emit(
            Op::ImageTexelPointer,
            ptr_ty,
            &[unit.var, at.ijk.id, sample],
        )
    }

    /// NV_shader_atomic_fp16_vector's ATOMIM.F16X2 (F16X4) on a unit or
    /// handle array declared R32ui (an R32_UINT view of the rg16f image;
    /// of an rgba16f texel buffer, twice the elements): the buffer
    /// atomics' compare-and-swap loop ([`Lowerer::atomic_halves_word`]) on
    /// each word of two halves, one per word ("Atomicity is only
    /// guaranteed on a per-component basis"); the halves before as f32 x
    /// y (z w; zero for F16X2), all zero outside the image, where nothing
    /// is written (section 3.9.X).
    fn image_atomic_halves(
        &mut self,
        inst: &Instruction,
        a: &ImageAccess,
        op: crate::ir::AtomicOp,
        operand: Val,
        coord: Val,
    ) -> LResult<Val> {
        let units = self.image_units(a, inst.ty)?;
        let components = a.format.map_or(2, |f| f.components);
        let packed = self.pack_half_pairs(operand, components)?;
        let uint = self.t(Comp::U32, 1);
        let zero = self.c_u32(0);
        let mut results = Vec::new();
        for _ in &packed {
            results.push(self.function_variable_init(uint, Some("atomim_halves"), Some(zero))?);
        }
        self.each_image(units, coord, |l, unit, at| {
            for ((k, &x), &result) in (0..).zip(&packed).zip(&results) {
                let word = l.halves_word_at(at, k)?;
                let p = l.texel_pointer(unit, &TexelAt { ijk: word, ..*at })?;
                let scope = l.c_u32(Scope::Device as u32);
                let old = l.atomic_halves_word(p, scope, op, x)?;
                l.store(result, old)?;
            }
            Ok(())
        })?;
        let mut old = Vec::new();
        for result in results {
            old.push(self.load(result, Comp::U32, 1)?);
        }
        self.unpack_half_words(&old)
    }
}
