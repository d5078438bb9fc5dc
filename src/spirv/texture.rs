//! Texture access: the texture units' descriptors and the instructions TEX,
//! TXB, TXD, TXF, TXL, TXP and TXQ (NV_gpu_program4 section 2.X.4.4,
//! "Program Texture Access", and their sections 2.X.8.Z).
//!
//! Every unit a reachable instruction names is one descriptor at binding
//! 32 + *n* of the stage's set (docs/interface.md, "Textures"): a combined
//! image sampler whose image type follows the unit's target (Table X.17),
//! or a uniform texel buffer for the BUFFER target. The lowering of each
//! instruction follows its pseudocode:
//!
//! * coordinates are taken from the components Table X.17 (sampling) or
//!   Table X.18 (TXF) names; array layers are rounded to the nearest
//!   integer here (`floor(x + 0.5)`, EXT_texture_array), so the device's
//!   own round-to-nearest-even never sees a half;
//! * RECT and SHADOWRECT take unnormalized coordinates: they are divided by
//!   the size of level 0 (OpImageQuerySizeLod), so an ordinary sampler
//!   (normalized coordinates) gives the spec's texel;
//! * TEX, TXB and TXP compute the LOD from implicit derivatives in fragment
//!   programs; in vertex and geometry programs ComputePartialsX/Y return
//!   zero (section 2.X.4.4), so the LOD is that of the base level, lowered
//!   as an explicit LOD 0 (TXB's bias added to -infinity changes nothing);
//! * SHADOW targets compare with the Dref operand; the result is the
//!   comparison result c as (c, c, c, 1) (DEPTH_TEXTURE_MODE LUMINANCE,
//!   GL's default);
//! * texel offsets are ConstOffset operands (the checker enforced the
//!   range and the dimensions).

use std::collections::{BTreeMap, BTreeSet};

use rspirv::dr::{self, Operand as SpvOperand};
use rspirv::spirv::{
    Capability, Dim, GlslStd450Op as GLOp, ImageFormat, ImageOperands, Op, StorageClass, Word,
};

use super::emit::{Comp, LResult, Val, F32_ONE};
use super::operand::Loaded;
use super::{Analysis, LowerError, Lowerer};
use crate::ir::{Block, Instruction, Program, Stmt, SubId, TexTarget};
use crate::isa::{DataType, Opcode, Stage};

/// 0.5 in f32 bits.
const F32_HALF: u32 = 0x3f00_0000;

/// The descriptor of one texture unit.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TextureUnit {
    /// The UniformConstant variable at binding 32 + n.
    pub var: Word,
    pub target: TexTarget,
    /// The image's sampled type (the component type texels are read as).
    pub comp: Comp,
    /// The OpTypeImage.
    pub image_ty: Word,
    /// The OpTypeSampledImage; `None` for a uniform texel buffer.
    pub sampled_ty: Option<Word>,
}

pub(crate) use crate::ir::BINDLESS_ARRAY_LEN;

/// A descriptor the program uses: a texture unit, or the bindless array of
/// one target (by `TexTarget as u32`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Slot {
    Unit(u32),
    Handle(u32),
}

/// How a target's image is declared and how Table X.17 reads its
/// coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Layout {
    dim: Dim,
    /// Spatial coordinates: s, (t, (r)), from x, y, z.
    coords: u32,
    /// The component holding the array layer.
    layer: Option<u32>,
    /// The component holding the depth comparison reference.
    shadow: Option<u32>,
    /// Unnormalized coordinates (RECT, SHADOWRECT).
    rect: bool,
}

/// Table X.17 (sampling) and the image type of each target.
fn layout(target: TexTarget) -> Layout {
    use TexTarget as T;
    let l = |dim, coords, layer, shadow| Layout {
        dim,
        coords,
        layer,
        shadow,
        rect: false,
    };
    match target {
        T::T1D => l(Dim::Dim1D, 1, None, None),
        T::T2D => l(Dim::Dim2D, 2, None, None),
        T::T3D => l(Dim::Dim3D, 3, None, None),
        T::Cube => l(Dim::DimCube, 3, None, None),
        T::Rect => Layout {
            rect: true,
            ..l(Dim::Dim2D, 2, None, None)
        },
        T::Array1D => l(Dim::Dim1D, 1, Some(1), None),
        T::Array2D => l(Dim::Dim2D, 2, Some(2), None),
        T::Shadow1D => l(Dim::Dim1D, 1, None, Some(2)),
        T::Shadow2D => l(Dim::Dim2D, 2, None, Some(2)),
        T::ShadowRect => Layout {
            rect: true,
            ..l(Dim::Dim2D, 2, None, Some(2))
        },
        T::ShadowCube => l(Dim::DimCube, 3, None, Some(3)),
        T::ShadowArray1D => l(Dim::Dim1D, 1, Some(1), Some(2)),
        T::ShadowArray2D => l(Dim::Dim2D, 2, Some(2), Some(3)),
        T::Buffer => l(Dim::DimBuffer, 1, None, None),
        T::ArrayCube => l(Dim::DimCube, 3, Some(3), None),
    }
}

/// The texel offsets of a gather.
#[derive(Clone, Copy, Debug)]
enum Offsets {
    None,
    /// TXG's constant offset (ConstOffset).
    Const([i32; 3]),
    /// TXGO's offsets known at compile time (ConstOffsets).
    PerTexelConst([i32; 4], [i32; 4]),
    /// TXGO's offsets from registers: x and y per texel.
    PerTexel(Val, Val),
    /// TXG's `offset(a)`: one offset from a register (Offset).
    Var(Val),
}

/// What the program does with one unit.
struct UnitUse {
    target: TexTarget,
    /// The data type of the first instruction that reads texels (TXQ
    /// reads none).
    ty: Option<DataType>,
}

/// The units used by the reachable subroutines, in the order of the
/// program text (so "the first instruction" is the first one written).
fn unit_uses(program: &Program, analysis: &Analysis) -> LResult<BTreeMap<Slot, UnitUse>> {
    fn walk(block: &Block, out: &mut BTreeMap<Slot, UnitUse>) -> LResult<()> {
        for stmt in block {
            match stmt {
                Stmt::Inst(inst) => {
                    let Some(tex) = &inst.tex else { continue };
                    // TXQ reads no texels, LOD only levels' sizes.
                    let reads = !matches!(inst.op, Opcode::Txq | Opcode::Lod);
                    let slots: Vec<Slot> = if tex.handle {
                        vec![Slot::Handle(tex.target as u32)]
                    } else {
                        tex.units().iter().map(|&u| Slot::Unit(u)).collect()
                    };
                    for slot in slots {
                        let u = out.entry(slot).or_insert(UnitUse {
                            target: tex.target,
                            ty: None,
                        });
                        if u.target != tex.target {
                            // Section 2.X.4.4: one target per unit; the
                            // checker rejects anything else (E0444).
                            return Err(LowerError::internal_at(
                                format!("texture unit {} used with two targets", tex.unit),
                                inst.span,
                            ));
                        }
                        if reads && u.ty.is_none() {
                            u.ty = Some(inst.ty);
                        }
                    }
                }
                // IF, REP and LOOP bodies.
                _ => {
                    for b in stmt.blocks() {
                        walk(b, out)?;
                    }
                }
            }
        }
        Ok(())
    }
    let reachable: BTreeSet<SubId> = analysis.subroutines.iter().copied().collect();
    let mut out = BTreeMap::new();
    for (i, sub) in program.subroutines.iter().enumerate() {
        if reachable.contains(&SubId(i as u32)) {
            walk(&sub.body, &mut out)?;
        }
    }
    Ok(out)
}

impl Lowerer<'_> {
    /// Declares one descriptor per texture unit the program uses
    /// (docs/interface.md, "Textures").
    pub(crate) fn declare_textures(&mut self, analysis: &Analysis) -> LResult<()> {
        let stage_layout = self.options.stage_layout(self.program.stage);
        for (slot, u) in unit_uses(self.program, analysis)? {
            let layout = layout(u.target);
            // Depth comparisons return floats (section 3.8.14); any other
            // unit is typed by the first instruction that reads it. A unit
            // read with two data types is read with the first and its bits
            // reinterpreted for the others: the spec leaves a format that
            // does not match the data type undefined (section 2.X.4.4).
            let comp = match (layout.shadow, u.ty) {
                (Some(_), _) | (None, None) => Comp::F32,
                (None, Some(t)) => Comp::from(t),
            };
            match layout.dim {
                Dim::Dim1D => self.capability(Capability::Sampled1D),
                Dim::DimBuffer => self.capability(Capability::SampledBuffer),
                // Vulkan's imageCubeArray feature.
                Dim::DimCube if layout.layer.is_some() => {
                    self.capability(Capability::SampledCubeArray)
                }
                _ => {}
            }
            let scalar = self.t(comp, 1);
            let image_ty = self.b.type_image(
                scalar,
                layout.dim,
                u32::from(layout.shadow.is_some()),
                u32::from(layout.layer.is_some()),
                0,
                1,
                ImageFormat::Unknown,
                None,
            );
            let sampled_ty =
                (u.target != TexTarget::Buffer).then(|| self.b.type_sampled_image(image_ty));
            let pointee = sampled_ty.unwrap_or(image_ty);
            let (declared, name, binding) = match slot {
                Slot::Unit(unit) => (
                    pointee,
                    format!("texture{unit}"),
                    stage_layout.texture_binding(unit),
                ),
                // NV_bindless_texture: an array per target, read with
                // constant indices (`texture`).
                Slot::Handle(t) => (
                    self.t_array(pointee, BINDLESS_ARRAY_LEN),
                    format!("bindless_{}", u.target.name()),
                    stage_layout.bindless_binding(t),
                ),
            };
            let var =
                self.descriptor_variable(declared, StorageClass::UniformConstant, &name, binding);
            let unit = TextureUnit {
                var,
                target: u.target,
                comp,
                image_ty,
                sampled_ty,
            };
            match slot {
                Slot::Unit(n) => self.io.textures.insert(n, unit),
                Slot::Handle(_) => self.io.bindless.insert(u.target.name(), unit),
            };
        }
        Ok(())
    }

    /// TEX, TXB, TXD, TXF, TXL, TXP, TXQ: four components of the
    /// instruction's result type.
    pub(crate) fn texture(&mut self, inst: &Instruction, s: &[Loaded]) -> LResult<Val> {
        let tex = inst.tex.as_ref().ok_or_else(|| {
            LowerError::internal_at("a texture instruction without a unit", inst.span)
        })?;
        if let Some(select) = &tex.unit_select {
            return self.texture_from_array(inst, s, select);
        }
        // A handle (NV_bindless_texture) is the last source; the rest are
        // the instruction's. Every element of the target's array is read
        // with a constant index and the handle selects among the results:
        // correct whatever the handles of other invocations are (no
        // NonUniform indexing, which Vulkan 1.0 lacks), and implicit levels
        // of detail keep their derivatives (docs/interface.md, "Bindless
        // textures").
        if let (true, Some((handle, rest))) = (tex.handle, s.split_last()) {
            let array = self
                .io
                .bindless
                .get(tex.target.name())
                .copied()
                .ok_or_else(|| {
                    LowerError::internal_at(
                        format!("no bindless {} array was declared", tex.target.name()),
                        inst.span,
                    )
                })?;
            let operand = inst.srcs.last().ok_or_else(|| {
                LowerError::internal_at("a texture handle without its operand", inst.span)
            })?;
            let extract = self.bindless_handle(operand, Some(handle.value))?;
            let mut selected: Option<Val> = None;
            for element in 0..BINDLESS_ARRAY_LEN {
                let mut unit = array;
                let index = self.c_u32(element);
                let pointee = unit.sampled_ty.unwrap_or(unit.image_ty);
                unit.var =
                    self.access(StorageClass::UniformConstant, pointee, array.var, &[index])?;
                let value = self.texture_of(inst, tex, unit, rest)?;
                selected = Some(match selected {
                    None => value,
                    Some(before) => {
                        // Past the array: its last element, as a handle
                        // names no element there (undefined in the spec).
                        let test = if element == BINDLESS_ARRAY_LEN - 1 {
                            Op::UGreaterThanEqual
                        } else {
                            Op::IEqual
                        };
                        let hit = self.handle_test(test, extract, element)?;
                        let hit = self.splat(hit, value.n)?;
                        self.sel(hit, value, before)?
                    }
                });
            }
            return selected.ok_or_else(|| LowerError::internal("an empty bindless array"));
        }
        let unit = self.io.textures.get(&tex.unit).copied().ok_or_else(|| {
            LowerError::internal_at(
                format!("texture unit {} was not declared", tex.unit),
                inst.span,
            )
        })?;
        self.texture_of(inst, tex, unit, s)
    }

    /// NV_bindless_texture's handle (`handle(a.x)`, <addrUseS>) as an
    /// unsigned scalar: `loaded`, the operand's 32-bit value when the
    /// caller has it, or the operand loaded here. A LONG register holds a
    /// 64-bit handle (NV_bindless_texture's handles are 64-bit values):
    /// it is read and compared at 64 bits, so a handle at or above 2^32
    /// is past the array, not the element of its low word
    /// (docs/interface.md, "Bindless textures", "Bindless images").
    pub(crate) fn bindless_handle(
        &mut self,
        operand: &crate::ir::Operand,
        loaded: Option<Val>,
    ) -> LResult<Val> {
        let (handle, comp) =
            if self.program.var(operand.var).precision == crate::ir::Precision::Long {
                let v = self.load_operand_sized(operand, true, true)?.value;
                (v, Comp::U64)
            } else {
                let v = match loaded {
                    Some(v) => v,
                    None => self.load_operand(operand, true)?.value,
                };
                (v, Comp::U32)
            };
        let handle = self.cast(handle, comp)?;
        if handle.n == 1 {
            Ok(handle)
        } else {
            self.extract(handle, 0)
        }
    }

    /// `handle` (from [`Lowerer::bindless_handle`]) compared with
    /// `test` (IEqual, UGreaterThanEqual) to the array element `element`.
    pub(crate) fn handle_test(&mut self, test: Op, handle: Val, element: u32) -> LResult<Val> {
        let k = if handle.comp == Comp::U64 {
            self.splat_const64(handle.comp, u64::from(element), 1)
        } else {
            self.konst(handle.comp, &[element])
        };
        self.cmp(test, handle, k)
    }

    /// A texture instruction's value from `unit`.
    fn texture_of(
        &mut self,
        inst: &Instruction,
        tex: &crate::ir::TexAccess,
        unit: TextureUnit,
        s: &[Loaded],
    ) -> LResult<Val> {
        let operand = |i: usize| {
            s.get(i).map(|l| l.value).ok_or_else(|| {
                LowerError::internal_at(format!("{} without operand {i}", inst.op), inst.span)
            })
        };
        // Offsets that are all zero are no offset (and a cube map may not
        // carry one at all in SPIR-V).
        let offset = tex.offset.filter(|o| o.iter().any(|&c| c != 0));
        // `offset(a)` (the checker allows it on TXF and TXG only): the
        // last source.
        let variable_offset = if tex.variable_offset {
            Some(operand(s.len().saturating_sub(1))?)
        } else {
            None
        };
        let value = match inst.op {
            Opcode::Txq => self.txq(unit, operand(0)?)?,
            Opcode::Txf => self.txf(unit, operand(0)?, offset, variable_offset)?,
            Opcode::Txd => {
                let grad = Some((operand(1)?, operand(2)?));
                self.sample(unit, inst.op, operand(0)?, grad, offset)?
            }
            Opcode::Tex | Opcode::Txb | Opcode::Txl | Opcode::Txp => {
                self.sample(unit, inst.op, operand(0)?, None, offset)?
            }
            Opcode::Txg => {
                let offsets = match (variable_offset, offset) {
                    (Some(v), _) => Offsets::Var(v),
                    (None, Some(o)) => Offsets::Const(o),
                    (None, None) => Offsets::None,
                };
                self.gather(unit, operand(0)?, tex.component, offsets)?
            }
            Opcode::Txgo => {
                let offsets = match (
                    self.constant_ints(&inst.srcs[1]),
                    self.constant_ints(&inst.srcs[2]),
                ) {
                    // Vulkan guarantees [-8, 7] for gather offsets
                    // (minTexelGatherOffset/maxTexelGatherOffset); constant
                    // offsets outside it take the per-texel path, whose
                    // out-of-range results are undefined as the spec's are.
                    (Some(x), Some(y)) if x.iter().chain(&y).all(|c| (-8..=7).contains(c)) => {
                        Offsets::PerTexelConst(x, y)
                    }
                    _ => Offsets::PerTexel(operand(1)?, operand(2)?),
                };
                self.gather(unit, operand(0)?, tex.component, offsets)?
            }
            Opcode::Lod => self.lod(unit, operand(0)?)?,
            op => {
                return Err(LowerError::internal_at(
                    format!("{op} is not a texture instruction"),
                    inst.span,
                ))
            }
        };
        // Section 2.X.4.4: "The result vector is interpreted as
        // floating-point, signed integer, or unsigned integer, according to
        // the data type modifier of the instruction."
        self.cast(value, Comp::from(inst.ty))
    }

    /// A register-indexed texture array (NV_gpu_program5 2.X.3.8): the
    /// instruction on every unit of the array, then the one the index
    /// names. Sampling each unit in the same control flow keeps implicit
    /// derivatives defined (a branch per unit would not, as the index may
    /// differ between neighbouring fragments: the spec's issue 1 allows
    /// that) and needs no descriptor indexing. An index outside the array
    /// is undefined in the spec (issue 1); it is clamped, as relative
    /// addressing is (docs/semantics.md).
    /// The element of a register-indexed texture or image array: the
    /// index's x (a signed integer) plus the constant offset, clamped to
    /// the array (docs/semantics.md: an index outside it uses the nearest
    /// element, where the spec leaves it undefined).
    pub(crate) fn array_unit_index(
        &mut self,
        index: Val,
        select: &crate::ir::UnitSelect,
    ) -> LResult<Val> {
        self.clamped_array_index(index, select.offset, select.units.len())
    }

    /// `index.x + offset` (a signed integer; a float index is truncated),
    /// clamped into an array of `len` elements.
    pub(crate) fn clamped_array_index(
        &mut self,
        index: Val,
        offset: i32,
        len: usize,
    ) -> LResult<Val> {
        let index = if index.n > 1 {
            self.extract(index, 0)?
        } else {
            index
        };
        let index = match index.comp {
            Comp::F32 => self.convert(Op::ConvertFToS, index, Comp::I32)?,
            _ => self.cast(index, Comp::I32)?,
        };
        let offset = self.konst(Comp::I32, &[offset as u32]);
        let index = self.op(Op::IAdd, &[index, offset])?;
        let lo = self.konst(Comp::I32, &[0]);
        let hi = self.konst(Comp::I32, &[len.saturating_sub(1) as u32]);
        self.glsl(GLOp::SClamp, &[index, lo, hi])
    }

    fn texture_from_array(
        &mut self,
        inst: &Instruction,
        s: &[Loaded],
        select: &crate::ir::UnitSelect,
    ) -> LResult<Val> {
        let (index, sources) = s.split_last().ok_or_else(|| {
            LowerError::internal_at("a texture array without its index", inst.span)
        })?;
        let index = self.array_unit_index(index.value, select)?;
        let mut result: Option<Val> = None;
        for (k, &unit) in select.units.iter().enumerate() {
            let mut one = inst.clone();
            if let Some(t) = one.tex.as_mut() {
                t.unit = unit;
                t.unit_select = None;
            }
            let value = self.texture(&one, sources)?;
            result = Some(match result {
                None => value,
                Some(previous) => {
                    let k = self.konst(Comp::I32, &[k as u32]);
                    let here = self.cmp(Op::IEqual, index, k)?;
                    self.sel(here, value, previous)?
                }
            });
        }
        result.ok_or_else(|| LowerError::internal_at("an empty texture array", inst.span))
    }

    /// The sampled image of a unit (OpLoad of the combined image sampler).
    fn load_sampled(&mut self, unit: TextureUnit) -> LResult<Word> {
        let ty = unit
            .sampled_ty
            .ok_or_else(|| LowerError::internal("sampling a buffer texture"))?;
        Ok(self.b.load(ty, None, unit.var, None, [])?)
    }

    /// The image of a unit: OpImage of the combined image sampler, or the
    /// texel buffer itself.
    fn load_image(&mut self, unit: TextureUnit) -> LResult<Word> {
        Ok(match unit.sampled_ty {
            Some(_) => {
                let sampled = self.load_sampled(unit)?;
                self.b.image(unit.image_ty, None, sampled)?
            }
            None => self.b.load(unit.image_ty, None, unit.var, None, [])?,
        })
    }

    /// An instruction with a result, id operands and optional image
    /// operands (given in the order of their mask bits).
    fn image_inst(
        &mut self,
        op: Op,
        result_ty: Word,
        ids: &[Word],
        operands: &[(ImageOperands, Vec<Word>)],
    ) -> LResult<Word> {
        let id = self.b.id();
        let mut ops: Vec<SpvOperand> = ids.iter().map(|&w| SpvOperand::IdRef(w)).collect();
        if !operands.is_empty() {
            let mask = operands
                .iter()
                .fold(ImageOperands::NONE, |m, (bit, _)| m | *bit);
            ops.push(SpvOperand::ImageOperands(mask));
            for (_, args) in operands {
                ops.extend(args.iter().map(|&w| SpvOperand::IdRef(w)));
            }
        }
        let inst = dr::Instruction::new(op, Some(result_ty), Some(id), ops);
        self.b.push(&inst)?;
        Ok(id)
    }

    /// The size of level 0 of a RECT unit as floats (s and t divide by it).
    fn rect_size(&mut self, unit: TextureUnit) -> LResult<Val> {
        self.capability(Capability::ImageQuery);
        let image = self.load_image(unit)?;
        let ivec2 = self.t(Comp::I32, 2);
        let zero = self.c_i32(0);
        let size = self.emit(Op::ImageQuerySizeLod, ivec2, &[image, zero])?;
        self.convert(
            Op::ConvertSToF,
            Val {
                id: size,
                comp: Comp::I32,
                n: 2,
            },
            Comp::F32,
        )
    }

    /// The first `n` components of `v` (a scalar for 1).
    fn leading(&mut self, v: Val, n: u32) -> LResult<Val> {
        match n {
            1 => self.extract(v, 0),
            4 => Ok(v),
            _ => {
                let comps: Vec<u32> = (0..n).collect();
                self.shuffle(v, v, &comps)
            }
        }
    }

    /// A filtered texture access (TextureSample of section 2.X.4.4) for
    /// TEX, TXB, TXD, TXL and TXP.
    fn sample(
        &mut self,
        unit: TextureUnit,
        op: Opcode,
        coord: Val,
        grad: Option<(Val, Val)>,
        offset: Option<[i32; 3]>,
    ) -> LResult<Val> {
        let layout = layout(unit.target);
        let mut coord = coord;
        if op == Opcode::Txp {
            // Section 2.X.8.Z, TXP: x, y and z are divided by w (the
            // layer and the depth reference included, as the pseudocode
            // writes it); w itself is kept.
            let w = self.extract(coord, 3)?;
            let w3 = self.splat(w, 3)?;
            let xyz = self.leading(coord, 3)?;
            let q = self.op(Op::FDiv, &[xyz, w3])?;
            coord = self.shuffle(q, coord, &[0, 1, 2, 6])?;
        }
        let (spv_coord, dref, rect) = self.coordinates(unit, coord)?;

        // The LOD: implicit derivatives exist in fragment programs only.
        let fragment = self.program.stage == Stage::Fragment;
        let mut operands: Vec<(ImageOperands, Vec<Word>)> = Vec::new();
        let explicit = match op {
            Opcode::Tex | Opcode::Txp if fragment => false,
            Opcode::Txb if fragment => {
                // Section 2.X.8.Z, TXB: w is added to the computed LOD.
                let w = self.extract(coord, 3)?;
                operands.push((ImageOperands::BIAS, vec![w.id]));
                false
            }
            Opcode::Tex | Opcode::Txp | Opcode::Txb => {
                // Vertex and geometry programs: zero partials, so the
                // base level (section 2.X.4.4, ComputePartialsX/Y).
                let zero = self.konst(Comp::F32, &[0]);
                operands.push((ImageOperands::LOD, vec![zero.id]));
                true
            }
            Opcode::Txl => {
                // Section 2.X.8.Z, TXL: the LOD is w.
                let w = self.extract(coord, 3)?;
                operands.push((ImageOperands::LOD, vec![w.id]));
                true
            }
            Opcode::Txd => {
                let (ddx, ddy) =
                    grad.ok_or_else(|| LowerError::internal("TXD without partials"))?;
                let mut ddx = self.leading(ddx, layout.coords)?;
                let mut ddy = self.leading(ddy, layout.coords)?;
                if let Some(size) = rect {
                    // Partials of unnormalized coordinates, scaled like
                    // the coordinates.
                    ddx = self.op(Op::FDiv, &[ddx, size])?;
                    ddy = self.op(Op::FDiv, &[ddy, size])?;
                }
                operands.push((ImageOperands::GRAD, vec![ddx.id, ddy.id]));
                true
            }
            other => {
                return Err(LowerError::internal(format!(
                    "{other} is not a sampling instruction"
                )))
            }
        };
        if let Some(o) = offset {
            let o = self.offset_const(o, layout.coords);
            operands.push((ImageOperands::CONST_OFFSET, vec![o]));
        }
        let sampled = self.load_sampled(unit)?;
        match dref {
            None => {
                let ty = self.t(unit.comp, 4);
                let spv_op = if explicit {
                    Op::ImageSampleExplicitLod
                } else {
                    Op::ImageSampleImplicitLod
                };
                let id = self.image_inst(spv_op, ty, &[sampled, spv_coord.id], &operands)?;
                Ok(Val {
                    id,
                    comp: unit.comp,
                    n: 4,
                })
            }
            Some(dref) => {
                let ty = self.t(Comp::F32, 1);
                let spv_op = if explicit {
                    Op::ImageSampleDrefExplicitLod
                } else {
                    Op::ImageSampleDrefImplicitLod
                };
                let id =
                    self.image_inst(spv_op, ty, &[sampled, spv_coord.id, dref.id], &operands)?;
                // The comparison result c as (c, c, c, 1): the LUMINANCE
                // depth texture mode, GL's default (section 3.8.14).
                let c = Val {
                    id,
                    comp: Comp::F32,
                    n: 1,
                };
                let one = self.konst(Comp::F32, &[F32_ONE]);
                self.construct(&[c, c, c, one])
            }
        }
    }

    /// The SPIR-V coordinate of a filtered access (Table X.17: s, t, r,
    /// then the rounded layer; RECT divided by the size of level 0), its
    /// depth reference, and the RECT size (TXD scales its partials by it).
    fn coordinates(
        &mut self,
        unit: TextureUnit,
        coord: Val,
    ) -> LResult<(Val, Option<Val>, Option<Val>)> {
        let layout = layout(unit.target);
        let rect = if layout.rect {
            Some(self.rect_size(unit)?)
        } else {
            None
        };
        // (s, t, r) of Table X.17, then the layer.
        let mut st = self.leading(coord, layout.coords)?;
        if let Some(size) = rect {
            st = self.op(Op::FDiv, &[st, size])?;
        }
        let mut parts = Vec::with_capacity(4);
        for c in 0..layout.coords {
            parts.push(self.extract(st, c)?);
        }
        if let Some(l) = layout.layer {
            // "the layer used is derived by rounding the extracted
            // floating-point component to the nearest integer"
            // (section 2.X.4.4; floor(l + 0.5) as EXT_texture_array).
            let layer = self.extract(coord, l)?;
            let half = self.konst(Comp::F32, &[F32_HALF]);
            let layer = self.op(Op::FAdd, &[layer, half])?;
            parts.push(self.glsl(GLOp::Floor, &[layer])?);
        }
        let spv_coord = if parts.len() == 1 {
            parts[0]
        } else {
            self.construct(&parts)?
        };
        let dref = match layout.shadow {
            Some(c) => Some(self.extract(coord, c)?),
            None => None,
        };
        Ok((spv_coord, dref, rect))
    }

    /// The signed integer values of an operand whose value is known when
    /// the program is compiled (a literal such as `{0, 1, 1, 0}`, with its
    /// swizzle and sign); `None` otherwise.
    fn constant_ints(&mut self, op: &crate::ir::Operand) -> Option<[i32; 4]> {
        use crate::ir::{Index, VarKind};
        if op.abs || !matches!(op.index, Index::None | Index::Absolute(0)) {
            return None;
        }
        let VarKind::Param(params) = &self.program.var(op.var).kind else {
            return None;
        };
        let [crate::ir::ParamBinding::Constant(lits)] = params.as_slice() else {
            return None;
        };
        let mut out = [0i32; 4];
        for (c, sel) in op.swizzle.0.iter().enumerate() {
            let bits = lits.get(usize::from(*sel))?.bits(DataType::Signed) as i32;
            out[c] = if op.negate { bits.wrapping_neg() } else { bits };
        }
        Some(out)
    }

    /// TXG and TXGO (NV_gpu_program5 2.X.8.Z): the base level's 2x2
    /// LINEAR footprint, one component of each texel, in the spec's order
    /// (i0j1, i1j1, i1j0, i0j0), which is OpImageGather's. SHADOW targets
    /// compare instead ("component selection is ignored") with
    /// OpImageDrefGather, giving the four 0/1 results.
    fn gather(
        &mut self,
        unit: TextureUnit,
        coord: Val,
        component: u8,
        offsets: Offsets,
    ) -> LResult<Val> {
        let layout = layout(unit.target);
        let (spv_coord, dref, _) = self.coordinates(unit, coord)?;
        let comp = if dref.is_some() { Comp::F32 } else { unit.comp };
        let ty = self.t(comp, 4);
        let component = self.c_i32(i32::from(component));
        let one = |l: &mut Self, operands: &[(ImageOperands, Vec<Word>)]| -> LResult<Val> {
            let sampled = l.load_sampled(unit)?;
            let id = match dref {
                Some(d) => l.image_inst(
                    Op::ImageDrefGather,
                    ty,
                    &[sampled, spv_coord.id, d.id],
                    operands,
                )?,
                None => l.image_inst(
                    Op::ImageGather,
                    ty,
                    &[sampled, spv_coord.id, component],
                    operands,
                )?,
            };
            Ok(Val { id, comp, n: 4 })
        };
        match offsets {
            Offsets::None => one(self, &[]),
            Offsets::Const(o) => {
                let o = self.offset_const(o, layout.coords);
                one(self, &[(ImageOperands::CONST_OFFSET, vec![o])])
            }
            Offsets::Var(o) => {
                // NV_gpu_program5 2.X.4.4: "The three components of the
                // offset vector are added to the computed <u>, <v>, and
                // <w> texel locations"; a gather's targets are 2D, so x
                // and y. A non-constant Offset needs ImageGatherExtended.
                self.capability(Capability::ImageGatherExtended);
                let o = self.cast(o, Comp::I32)?;
                let o = self.leading(o, layout.coords)?;
                one(self, &[(ImageOperands::OFFSET, vec![o.id])])
            }
            Offsets::PerTexelConst(x, y) => {
                // ConstOffsets: texel i is the i0j0 texel of the footprint
                // at offset i, as TXGO's pseudocode.
                self.capability(Capability::ImageGatherExtended);
                let ivec2 = self.t(Comp::I32, 2);
                let mut elems = Vec::with_capacity(4);
                for i in 0..4 {
                    elems.push(self.konst(Comp::I32, &[x[i] as u32, y[i] as u32]).id);
                }
                let four = self.c_scalar(Comp::U32, 4);
                let arr_ty = self.b.type_array(ivec2, four);
                let arr = self.b.constant_composite(arr_ty, elems);
                one(self, &[(ImageOperands::CONST_OFFSETS, vec![arr])])
            }
            Offsets::PerTexel(x, y) => {
                // Four gathers, each at offset (x[i], y[i]), keeping its
                // i0j0 texel (w): TXGO's pseudocode, one TextureSample_i0j0
                // per component.
                self.capability(Capability::ImageGatherExtended);
                let mut parts = Vec::with_capacity(4);
                for i in 0..4 {
                    let xi = self.extract(x, i)?;
                    let yi = self.extract(y, i)?;
                    let xi = self.cast(xi, Comp::I32)?;
                    let yi = self.cast(yi, Comp::I32)?;
                    let o = self.construct(&[xi, yi])?;
                    let g = one(self, &[(ImageOperands::OFFSET, vec![o.id])])?;
                    parts.push(self.extract(g, 3)?);
                }
                self.construct(&parts)
            }
        }
    }

    /// LOD (NV_gpu_program4_1 2.X.8.Z): x, the mipmap level a lookup with
    /// this coordinate would access, and y, the computed level of detail
    /// relative to the base level (OpImageQueryLod, which GLSL's
    /// textureQueryLOD took from this instruction); z and w are 0. Vulkan
    /// has implicit derivatives in fragment shaders only; in the other
    /// program types ComputePartialsX/Y return (0,0,0,0) (NV_gpu_program4
    /// 2.X.4.4), so lambda is log2(0) = -infinity, clamped to the base
    /// level: (0, -inf, 0, 0) (docs/semantics.md, "Textures").
    fn lod(&mut self, unit: TextureUnit, coord: Val) -> LResult<Val> {
        if self.program.stage != Stage::Fragment {
            const F32_NEG_INF: u32 = 0xff80_0000;
            return Ok(self.konst(Comp::F32, &[0, F32_NEG_INF, 0, 0]));
        }
        self.capability(Capability::ImageQuery);
        let layout = layout(unit.target);
        let mut st = self.leading(coord, layout.coords)?;
        if layout.rect {
            let size = self.rect_size(unit)?;
            st = self.op(Op::FDiv, &[st, size])?;
        }
        let sampled = self.load_sampled(unit)?;
        let vec2 = self.t(Comp::F32, 2);
        let id = self.emit(Op::ImageQueryLod, vec2, &[sampled, st.id])?;
        let q = Val {
            id,
            comp: Comp::F32,
            n: 2,
        };
        let zero = self.konst(Comp::F32, &[0, 0]);
        self.shuffle(q, zero, &[0, 1, 2, 3])
    }

    /// A ConstOffset of `n` components.
    fn offset_const(&mut self, o: [i32; 3], n: u32) -> Word {
        let bits: Vec<u32> = o[..n as usize].iter().map(|&c| c as u32).collect();
        self.konst(Comp::I32, &bits).id
    }

    /// TXF: TexelFetch of section 2.X.4.4, coordinates per Table X.18.
    fn txf(
        &mut self,
        unit: TextureUnit,
        coord: Val,
        offset: Option<[i32; 3]>,
        variable_offset: Option<Val>,
    ) -> LResult<Val> {
        let layout = layout(unit.target);
        if layout.shadow.is_some() || layout.dim == Dim::DimCube {
            // Section 2.X.8.Z, TXF: the checker rejects these (E0445).
            return Err(LowerError::internal("TXF on a SHADOW or CUBE target"));
        }
        let n = layout.coords + u32::from(layout.layer.is_some());
        // Table X.18: i, j, k from x, y, z; the layer right after them.
        let mut ijk = self.leading(coord, n)?;
        if let Some(o) = variable_offset {
            // NV_gpu_program5 2.X.4.4: the offset is "added to the
            // computed <u>, <v>, and <w> texel locations"; TXF's locations
            // are the integers themselves, so the offset is added to them
            // (the layer, and the ignored components, get 0).
            let o = self.cast(o, Comp::I32)?;
            let zero = self.konst(Comp::I32, &[0]);
            let mut parts = Vec::with_capacity(n as usize);
            for c in 0..n {
                parts.push(if c < layout.coords {
                    self.extract(o, c)?
                } else {
                    zero
                });
            }
            let o = if n == 1 {
                parts[0]
            } else {
                self.construct(&parts)?
            };
            let i = self.cast(ijk, Comp::I32)?;
            ijk = self.op(Op::IAdd, &[i, o])?;
        }
        let mut operands: Vec<(ImageOperands, Vec<Word>)> = Vec::new();
        if layout.dim != Dim::DimBuffer {
            // The level is w (relative to the base level, which is the
            // view's first level in Vulkan).
            let w = self.extract(coord, 3)?;
            operands.push((ImageOperands::LOD, vec![w.id]));
            if let Some(o) = offset {
                let o = self.offset_const(o, layout.coords);
                operands.push((ImageOperands::CONST_OFFSET, vec![o]));
            }
        }
        let image = self.load_image(unit)?;
        let ty = self.t(unit.comp, 4);
        let id = self.image_inst(Op::ImageFetch, ty, &[image, ijk.id], &operands)?;
        Ok(Val {
            id,
            comp: unit.comp,
            n: 4,
        })
    }

    /// TXQ: the size of level x (section 2.X.8.Z, TXQ). 1D: width in x;
    /// 2D, RECT, CUBE: width, height; 3D: width, height, depth; ARRAY1D:
    /// width, layers; ARRAY2D: width, height, layers; BUFFER: texels in x.
    /// The components the spec leaves undefined are 0.
    fn txq(&mut self, unit: TextureUnit, lod: Val) -> LResult<Val> {
        self.capability(Capability::ImageQuery);
        let layout = layout(unit.target);
        let image = self.load_image(unit)?;
        let n = match layout.dim {
            // A cube map array's third component counts its cubes.
            Dim::DimCube if layout.layer.is_some() => 3,
            Dim::DimCube => 2,
            Dim::DimBuffer => 1,
            _ => layout.coords + u32::from(layout.layer.is_some()),
        };
        let ty = self.t(Comp::I32, n);
        let id = if layout.dim == Dim::DimBuffer {
            self.emit(Op::ImageQuerySize, ty, &[image])?
        } else {
            let level = self.extract(lod, 0)?;
            self.emit(Op::ImageQuerySizeLod, ty, &[image, level.id])?
        };
        let size = Val {
            id,
            comp: Comp::I32,
            n,
        };
        let zero = self.konst(Comp::I32, &[0]);
        let mut parts = Vec::with_capacity(4);
        for c in 0..4 {
            parts.push(if c < n { self.extract(size, c)? } else { zero });
        }
        self.construct(&parts)
    }
}

#[cfg(test)]
mod tests {
    //! Every texture instruction on every target the checker accepts, in
    //! vertex and fragment programs, with and without offsets and in every
    //! data type, lowers to modules spirv-val accepts for vulkan1.0 and
    //! vulkan1.3; the descriptors and image types are docs/interface.md's.

    use rspirv::dr::{self, Operand as SpvOperand};
    use rspirv::spirv::{Capability, Decoration, Dim, Op, StorageClass};

    use crate::{compile, Options, TargetEnv};

    const TARGETS: [&str; 14] = [
        "1D",
        "2D",
        "3D",
        "CUBE",
        "RECT",
        "SHADOW1D",
        "SHADOW2D",
        "SHADOWRECT",
        "SHADOWCUBE",
        "ARRAY1D",
        "ARRAY2D",
        "SHADOWARRAY1D",
        "SHADOWARRAY2D",
        "BUFFER",
    ];

    fn options(env: TargetEnv) -> Options {
        Options {
            target_env: env,
            ..Options::default()
        }
    }

    /// A program running `op` (with its suffix) on `texture[3]`.
    fn program(stage: &str, op: &str, target: &str, offset: &str) -> String {
        let (header, input, output) = match stage {
            "vp" => ("!!NVvp4.0", "vertex.attrib[1]", "result.texcoord[0]"),
            "gp" => (
                "!!NVgp4.0\nPRIMITIVE_IN TRIANGLES;\nPRIMITIVE_OUT POINTS;\nVERTICES_OUT 1;",
                "vertex[1].texcoord[0]",
                "result.texcoord[0]",
            ),
            _ => ("!!NVfp4.0", "fragment.texcoord[0]", "result.color"),
        };
        let emit = if stage == "gp" { "EMIT;\n" } else { "" };
        let base = op.split('.').next().unwrap_or(op);
        let coord = if matches!(base, "TXF" | "TXQ") {
            "a"
        } else {
            input
        };
        let args = if base == "TXD" {
            format!("{coord}, {input}, {input}")
        } else {
            coord.to_string()
        };
        format!(
            "{header}\nTEMP r, a;\nTRUNC.S a, {input};\n{op} r, {args}, texture[3], {target}{offset};\nMOV {output}, r;\n{emit}END\n"
        )
    }

    /// Section 2.X.4.4 and 2.X.8.Z: the pairs a program may not use.
    fn allowed(op: &str, target: &str) -> bool {
        let shadow_or_cube = target.starts_with("SHADOW") || target == "CUBE";
        match op {
            "TXF" => !shadow_or_cube,
            "TXB" | "TXL" | "TXP" => !matches!(target, "SHADOWCUBE" | "SHADOWARRAY2D" | "BUFFER"),
            "TXQ" => true,
            _ => target != "BUFFER",
        }
    }

    /// The widest offset a target takes (none for cube maps and buffers).
    fn offset(target: &str) -> &'static str {
        match target {
            "1D" | "ARRAY1D" | "SHADOW1D" | "SHADOWARRAY1D" => ", (-8)",
            "3D" => ", (1, -2, 7)",
            "CUBE" | "SHADOWCUBE" | "ARRAYCUBE" | "BUFFER" => "",
            _ => ", (7, -8)",
        }
    }

    #[test]
    fn every_instruction_on_every_target_validates() {
        let mut lowered = 0;
        for stage in ["vp", "gp", "fp"] {
            for op in ["TEX", "TXB", "TXD", "TXF", "TXL", "TXP", "TXQ"] {
                for target in TARGETS {
                    let suffixes: &[&str] = if op == "TXQ" {
                        &[""]
                    } else {
                        &["", ".F", ".S", ".U"]
                    };
                    for suffix in suffixes {
                        for off in ["", offset(target)] {
                            if op == "TXQ" && !off.is_empty() {
                                continue;
                            }
                            let src = program(stage, &format!("{op}{suffix}"), target, off);
                            for env in [TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_3] {
                                match compile(&src, &options(env)) {
                                    Ok(c) => {
                                        assert!(allowed(op, target), "accepted:\n{src}");
                                        assert!(!c.spirv.is_empty());
                                        lowered += 1;
                                    }
                                    Err(d) => {
                                        assert!(
                                            !allowed(op, target),
                                            "{env:?}:\n{src}\n{}",
                                            d.render("t", &src, false)
                                        );
                                        assert!(
                                            d.iter().all(|d| d.code.starts_with("E044")),
                                            "{}",
                                            d.render("t", &src, false)
                                        );
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(lowered > 1500, "{lowered} modules");
    }

    /// NV_gpu_program5's TXG, TXGO and LOD and the IPA* instructions:
    /// every one on every target, in every data type it takes, with and
    /// without offsets, in vertex and fragment programs, either validates
    /// for vulkan1.0 and vulkan1.3 or is refused with the rule that
    /// forbids it.
    #[test]
    fn nv5_texture_and_interpolation_validate_or_are_refused() {
        let mut lowered = 0;
        for (header, input, output) in [
            ("!!NVvp5.0", "vertex.attrib[1]", "result.texcoord[0]"),
            ("!!NVfp5.0", "fragment.texcoord[0]", "result.color"),
        ] {
            for op in [
                "TXG", "TXG.S", "TXG.U", "TXGO", "TXGO.U", "TXGO_reg", "LOD", "TXG_y",
            ] {
                // ARRAYCUBE is NV_gpu_program5's own target.
                for target in TARGETS.into_iter().chain(["ARRAYCUBE"]) {
                    for off in ["", offset(target)] {
                        let (name, args, unit) = match op {
                            "TXGO" | "TXGO.U" => (
                                op,
                                format!("{input}, {{-1, 2, 0, 1}}, {{-1, 0, 1, 2}}"),
                                "texture[3]",
                            ),
                            "TXGO_reg" => ("TXGO", format!("{input}, a, a.yxwz"), "texture[3]"),
                            "TXG_y" => ("TXG", input.to_string(), "texture[3].y"),
                            _ => (op, input.to_string(), "texture[3]"),
                        };
                        let src = format!(
                            "{header}\nTEMP r, a;\nTRUNC.S a, {input};\n{name} r, {args}, {unit}, {target}{off};\nMOV {output}, r;\nEND\n"
                        );
                        let base = name.split('.').next().unwrap_or(name);
                        let has_offset = off.contains('(') && off != ", (0)";
                        let refused = match base {
                            "TXG" => !matches!(
                                target,
                                "2D" | "SHADOW2D"
                                    | "CUBE"
                                    | "SHADOWCUBE"
                                    | "ARRAYCUBE"
                                    | "ARRAY2D"
                                    | "SHADOWARRAY2D"
                                    | "RECT"
                                    | "SHADOWRECT"
                            ),
                            "TXGO" => !matches!(
                                target,
                                "2D" | "SHADOW2D"
                                    | "ARRAY2D"
                                    | "SHADOWARRAY2D"
                                    | "RECT"
                                    | "SHADOWRECT"
                            ),
                            _ => target == "BUFFER",
                        };
                        let codes: &[&str] = match base {
                            "TXG" => &["E1131", "E0448"],
                            "TXGO" => &["E1132", "E1133", "E0448"],
                            _ => &["E0447"],
                        };
                        for env in [TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_3] {
                            match compile(&src, &options(env)) {
                                Ok(c) => {
                                    assert!(
                                        !(refused || base == "TXGO" && has_offset),
                                        "accepted:\n{src}"
                                    );
                                    assert!(!c.spirv.is_empty());
                                    lowered += 1;
                                }
                                Err(d) => {
                                    let text = d.render("t", &src, false);
                                    assert!(
                                        refused
                                            || base == "TXGO" && has_offset
                                            || target.contains("CUBE") && has_offset,
                                        "{env:?}:\n{src}\n{text}"
                                    );
                                    assert!(d.iter().all(|d| codes.contains(&d.code)), "{text}");
                                }
                            }
                        }
                    }
                }
            }
        }
        // The interpolation instructions, on each kind of operand.
        for (operand, ok) in [
            ("fragment.texcoord[1]", true),
            ("fragment.attrib[2].yxzw", true),
            ("-fragment.fogcoord", true),
            ("fragment.color", true),
            ("fragment.facing", false),
            ("primitive.id", false),
            ("r", false),
            ("{1, 2, 3, 4}", false),
        ] {
            for (op, extra) in [
                ("IPAC", ""),
                ("IPAO", ", {0.25, -0.5, 0, 0}"),
                ("IPAS", ", a.x"),
            ] {
                let src = format!(
                    "!!NVfp5.0\nTEMP r, a;\nMOV r, 0;\nTRUNC.U a, fragment.texcoord[0];\n{op} r, {operand}{extra};\nMOV result.color, r;\nEND\n"
                );
                for env in [TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_3] {
                    match compile(&src, &options(env)) {
                        Ok(c) => {
                            assert!(ok, "accepted:\n{src}");
                            assert!(
                                capabilities(&c.spirv).contains(&Capability::InterpolationFunction)
                            );
                            lowered += 1;
                        }
                        Err(d) => {
                            let text = d.render("t", &src, false);
                            assert!(!ok, "{src}\n{text}");
                            assert!(d.iter().all(|d| d.code == "E1130"), "{text}");
                        }
                    }
                }
            }
        }
        assert!(lowered > 200, "{lowered} modules");
    }

    fn module(words: &[u32]) -> dr::Module {
        dr::load_words(words).unwrap_or_else(|e| panic!("rspirv: {e}"))
    }

    fn lower(src: &str, options: &Options) -> Vec<u32> {
        match compile(src, options) {
            Ok(c) => c.spirv,
            Err(d) => panic!("{}", d.render("t", src, false)),
        }
    }

    /// The literal operand of `deco` on `id`.
    fn decoration(m: &dr::Module, id: u32, deco: Decoration) -> Option<u32> {
        m.annotations
            .iter()
            .find_map(|i| match i.operands.as_slice() {
                [SpvOperand::IdRef(t), SpvOperand::Decoration(d), SpvOperand::LiteralBit32(v)]
                    if *t == id && *d == deco =>
                {
                    Some(*v)
                }
                _ => None,
            })
    }

    fn def(m: &dr::Module, id: u32) -> &dr::Instruction {
        m.types_global_values
            .iter()
            .find(|i| i.result_id == Some(id))
            .unwrap_or_else(|| panic!("no definition of %{id}"))
    }

    fn id_operand(i: &dr::Instruction, n: usize) -> u32 {
        match i.operands.get(n) {
            Some(SpvOperand::IdRef(id)) => *id,
            other => panic!("operand {n} of {:?}: {other:?}", i.class.opcode),
        }
    }

    /// What the texture variable at `binding` is: (set, sampled image?,
    /// Dim, Depth, Arrayed, sampled type opcode and signedness).
    fn texture_at(words: &[u32], binding: u32) -> (u32, bool, Dim, u32, u32, (Op, u32)) {
        let m = module(words);
        let var = m
            .types_global_values
            .iter()
            .find(|i| {
                i.class.opcode == Op::Variable
                    && decoration(&m, i.result_id.unwrap_or(0), Decoration::Binding)
                        == Some(binding)
            })
            .unwrap_or_else(|| panic!("no variable at binding {binding}"));
        assert_eq!(
            var.operands.first(),
            Some(&SpvOperand::StorageClass(StorageClass::UniformConstant))
        );
        let set = decoration(&m, var.result_id.unwrap_or(0), Decoration::DescriptorSet)
            .unwrap_or(u32::MAX);
        let ptr = def(&m, var.result_type.unwrap_or(0));
        let mut ty = def(&m, id_operand(ptr, 1));
        let sampled = ty.class.opcode == Op::TypeSampledImage;
        if sampled {
            ty = def(&m, id_operand(ty, 0));
        }
        assert_eq!(ty.class.opcode, Op::TypeImage);
        let lit = |n: usize| match ty.operands.get(n) {
            Some(SpvOperand::LiteralBit32(v)) => *v,
            other => panic!("{other:?}"),
        };
        let dim = match ty.operands.get(1) {
            Some(SpvOperand::Dim(d)) => *d,
            other => panic!("{other:?}"),
        };
        assert_eq!((lit(4), lit(5)), (0, 1), "single-sampled, Sampled = 1");
        let scalar = def(&m, id_operand(ty, 0));
        let signedness = match scalar.operands.get(1) {
            Some(SpvOperand::LiteralBit32(s)) => *s,
            _ => 0,
        };
        (
            set,
            sampled,
            dim,
            lit(2),
            lit(3),
            (scalar.class.opcode, signedness),
        )
    }

    fn capabilities(words: &[u32]) -> Vec<Capability> {
        module(words)
            .capabilities
            .iter()
            .filter_map(|i| match i.operands.first() {
                Some(SpvOperand::Capability(c)) => Some(*c),
                _ => None,
            })
            .collect()
    }

    fn has_op(words: &[u32], op: Op) -> bool {
        module(words)
            .functions
            .iter()
            .flat_map(|f| &f.blocks)
            .flat_map(|b| &b.instructions)
            .any(|i| i.class.opcode == op)
    }

    #[test]
    fn image_types_follow_the_target_and_data_type() {
        let float = (Op::TypeFloat, 0);
        let int = (Op::TypeInt, 1);
        let uint = (Op::TypeInt, 0);
        let cases = [
            ("TEX", "1D", (Dim::Dim1D, 0, 0), float),
            ("TEX.S", "2D", (Dim::Dim2D, 0, 0), int),
            ("TEX.U", "3D", (Dim::Dim3D, 0, 0), uint),
            ("TEX", "CUBE", (Dim::DimCube, 0, 0), float),
            // RECT is a 2D image read with normalized coordinates.
            ("TEX", "RECT", (Dim::Dim2D, 0, 0), float),
            ("TEX", "SHADOW1D", (Dim::Dim1D, 1, 0), float),
            // Depth comparisons return floats whatever the data type.
            ("TEX.S", "SHADOW2D", (Dim::Dim2D, 1, 0), float),
            ("TEX", "SHADOWRECT", (Dim::Dim2D, 1, 0), float),
            ("TEX", "SHADOWCUBE", (Dim::DimCube, 1, 0), float),
            ("TEX.U", "ARRAY1D", (Dim::Dim1D, 0, 1), uint),
            ("TXL.S", "ARRAY2D", (Dim::Dim2D, 0, 1), int),
            ("TEX", "SHADOWARRAY1D", (Dim::Dim1D, 1, 1), float),
            ("TEX", "SHADOWARRAY2D", (Dim::Dim2D, 1, 1), float),
            ("TXQ", "2D", (Dim::Dim2D, 0, 0), float),
        ];
        for (op, target, (dim, depth, arrayed), comp) in cases {
            let words = lower(&program("fp", op, target, ""), &Options::default());
            let t = texture_at(&words, 35);
            assert_eq!(
                t,
                (2, true, dim, depth, arrayed, comp),
                "{op} {target}: set 2, binding 32 + 3"
            );
        }
        // BUFFER: a uniform texel buffer (an image, no sampler).
        let words = lower(&program("vp", "TXF.U", "BUFFER", ""), &Options::default());
        assert_eq!(
            texture_at(&words, 35),
            (0, false, Dim::DimBuffer, 0, 0, uint)
        );
        assert!(capabilities(&words).contains(&Capability::SampledBuffer));
        let words = lower(&program("vp", "TEX", "1D", ""), &Options::default());
        assert!(capabilities(&words).contains(&Capability::Sampled1D));
        assert!(!capabilities(&words).contains(&Capability::ImageQuery));
        let words = lower(&program("vp", "TXQ", "3D", ""), &Options::default());
        assert!(capabilities(&words).contains(&Capability::ImageQuery));
        // --descriptor-set moves textures with the blocks.
        let o = Options {
            descriptor_set: Some(5),
            ..Options::default()
        };
        let words = lower(&program("fp", "TEX", "2D", ""), &o);
        assert_eq!(texture_at(&words, 35).0, 5);
    }

    #[test]
    fn the_reflection_lists_each_unit() {
        let src = "!!NVfp4.0\nTEMP r, a;\nTRUNC.S a, fragment.texcoord[0];\nTXF.U r, a, texture[1], BUFFER;\nTXQ a, a, texture[2], SHADOWCUBE;\nTEX.S r, fragment.texcoord[0], texture[5], ARRAY2D;\nMOV result.color, r;\nEND\n";
        let r = match compile(src, &Options::default()) {
            Ok(c) => c.reflection,
            Err(d) => panic!("{}", d.render("t", src, false)),
        };
        let units: Vec<_> = r
            .textures
            .iter()
            .map(|t| (t.unit, t.target.as_deref(), t.set, t.binding, t.ty.as_str()))
            .collect();
        assert_eq!(
            units,
            [
                (1, Some("BUFFER"), 2, 33, "utextureBuffer"),
                (2, Some("SHADOWCUBE"), 2, 34, "samplerCubeShadow"),
                (5, Some("ARRAY2D"), 2, 37, "isampler2DArray"),
            ]
        );
    }

    #[test]
    fn a_unit_is_typed_by_its_first_texel_read() {
        let src = "!!NVfp4.0\nTEMP r, a;\nTRUNC.S a, fragment.texcoord[0];\nTXQ a, a, texture[1], 2D;\nTXF.U r, a, texture[1], 2D;\nTEX.S r, fragment.texcoord[0], texture[1], 2D;\nMOV result.color, r;\nEND\n";
        let words = lower(src, &Options::default());
        assert_eq!(texture_at(&words, 33).5, (Op::TypeInt, 0));
        assert!(has_op(&words, Op::ImageFetch));
        assert!(has_op(&words, Op::ImageQuerySizeLod));
    }

    #[test]
    fn lod_is_implicit_only_in_fragment_programs() {
        let fp = lower(&program("fp", "TEX", "2D", ""), &Options::default());
        assert!(has_op(&fp, Op::ImageSampleImplicitLod));
        let vp = lower(&program("vp", "TEX", "2D", ""), &Options::default());
        assert!(has_op(&vp, Op::ImageSampleExplicitLod));
        assert!(!has_op(&vp, Op::ImageSampleImplicitLod));
        let vp = lower(&program("vp", "TXB", "SHADOW2D", ""), &Options::default());
        assert!(has_op(&vp, Op::ImageSampleDrefExplicitLod));
        let fp = lower(&program("fp", "TXB", "SHADOW2D", ""), &Options::default());
        assert!(has_op(&fp, Op::ImageSampleDrefImplicitLod));
        // RECT queries the size to normalize its coordinates.
        let fp = lower(&program("fp", "TXP", "RECT", ""), &Options::default());
        assert!(has_op(&fp, Op::ImageQuerySizeLod));
        // Geometry programs have no derivatives either (section 2.X.4.4).
        let gp = lower(
            &program("gp", "TXP", "SHADOWARRAY1D", ""),
            &Options::default(),
        );
        assert!(has_op(&gp, Op::ImageSampleDrefExplicitLod));
        assert_eq!(texture_at(&gp, 35).0, 1, "geometry programs use set 1");
        let fp = lower(&program("fp", "TXD", "CUBE", ""), &Options::default());
        assert!(has_op(&fp, Op::ImageSampleExplicitLod));
    }
}
