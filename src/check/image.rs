//! EXT_shader_image_load_store's image instructions in NV_gpu_program5
//! assembly (its "Dependencies on NV_gpu_program5"; no OPTION: "the
//! following capability is implied by NV_gpu_program5 program headers"):
//! LOADIM, STOREIM and ATOMIM with their storage modifiers (Table X.3),
//! ATOMIM's atomic modifiers (Table X.4), the image targets and image
//! units (`image[n]`, or an IMAGE variable, declared in
//! `check::program_type`) or NV_bindless_texture's image handles
//! (`handle(a.x)`), checked into [`ir::ImageAccess`]. Codes
//! E1190-E1199.
//!
//! nvp4c declares one SPIR-V image per unit, whose type is fixed by the
//! unit's target and the storage format its unformatted accesses use
//! (docs/interface.md, "Images"); the spec leaves a mismatch with the
//! bound image to run time ("treated as invalid"), but one variable has
//! one type, so two targets (E1197) or two formats (E1198) on one unit
//! are refused at load time. A unit ATOMIM.F16X2 (F16X4) uses has its
//! other accesses of the same format through its R32ui declaration.

use super::flow::Flat;
use super::memory::{
    atomic_extension_storage, atomic_modifier, storage_modifier, StorageModifier, StorageOrigin,
};
use super::program_type::{TextureUse, IMAGE_UNITS};
use super::Checker;
use crate::diag::Diagnostic;
use crate::ir::{self, AtomicOp, ImageAccess, ImageFormat, ImageTarget};
use crate::isa::{split_opcode, DataType, Modifier, OpInfo, Opcode, OperandKind, TypeRule};
use crate::span::Span;
use crate::syntax::ast::{self, Arg, IndexExpr, PathHead, PathPart, Root};

/// How a unit is used so far: its target, and the format of its
/// unformatted accesses (or the data type of its formatted stores).
pub(super) struct UnitUse {
    target: (ImageTarget, Span),
    format: Option<(ImageFormat, Span)>,
    formatted: Option<(DataType, Span)>,
}

const MODIFIER_RULE: &str = "EXT_shader_image_load_store, NV_gpu_program5 2.X.8.Z: \"LOADIM supports no base data type modifiers, but requires exactly one storage modifier\" (F32X4 S32X4 U32X4 F32X2 S32X2 U32X2 F32 S32 U32 S16 U16 S8 U8, Table X.3; with NV_gpu_program5_mem_extended F16, F16X2, F16X4 and the 8/16-bit X2/X4 forms); \"STOREIM supports an optional base data type or storage modifier\"; \"ATOMIM supports no base data type modifiers, but requires exactly one storage and one atomic modifier\"; COH and VOL mark LOADIM and STOREIM coherent and volatile; LOADIM and ATOMIM may update a condition code";

const ATOMIC_RULE: &str = "EXT_shader_image_load_store, NV_gpu_program5 2.X.8.Z, ATOMIM, Table X.4: ADD, MIN, MAX, AND, OR, XOR, EXCH and CSWAP on U32 and S32; IWRAP and DWRAP on U32";

/// A storage modifier of Table X.3 (`F32X4`, `S16`, `U8`, …) and those
/// NV_gpu_program5_mem_extended adds to LOADIM and STOREIM (`F16X4`,
/// `S8X2`, …): the rows of [`STORAGE_MODIFIERS`] but the 64-bit ones.
fn image_format(text: &str) -> Option<(&'static StorageModifier, ImageFormat)> {
    let m = storage_modifier(text).filter(|m| m.origin != StorageOrigin::Wide)?;
    Some((
        m,
        ImageFormat {
            ty: m.ty,
            bits: m.bits,
            components: m.components,
        },
    ))
}

/// The modifiers of one image instruction.
struct ImageMods {
    format: Option<(ImageFormat, Span)>,
    data_type: Option<DataType>,
    atomic: Option<AtomicOp>,
    cc_update: Option<ir::CcReg>,
}

impl Checker<'_> {
    /// LOADIM, STOREIM and ATOMIM.
    pub(super) fn image_instruction(
        &mut self,
        info: &'static OpInfo,
        inst: &ast::Instruction,
    ) -> Option<Flat> {
        let mods = self.image_modifiers(info, inst)?;
        if inst.cc_mask.is_some() {
            self.no_cc_mask(inst, info)?;
        }
        // LOADIM result, coord, image, TARGET; STOREIM image, value, coord,
        // TARGET; ATOMIM result, value, coord, image, TARGET.
        let count = match info.opcode {
            Opcode::Atomim => 5,
            _ => 4,
        };
        self.expect_args(inst, count, info)?;
        let (image_at, target_at) = match info.opcode {
            Opcode::Storeim => (0, 3),
            Opcode::Loadim => (2, 3),
            _ => (3, 4),
        };
        // NV_bindless_texture: <imageUnit> ::= "handle" "(" <addrUseS> ")"
        // names the image by a handle, an unsigned scalar; it names an
        // element of the descriptor array of the access's target and
        // format, so no unit's use is recorded (docs/interface.md,
        // "Bindless images").
        let handle = match &inst.args[image_at] {
            Arg::Handle(o, span) => {
                self.texture_handle_allowed(*span, "an image handle")?;
                let kind = OperandKind::Scalar(TypeRule::Unsigned);
                Some(self.source(o, kind, DataType::Unsigned, false)?)
            }
            _ => None,
        };
        let unit = match handle {
            Some(_) => TextureUse::Unit(0),
            None => self.image_unit(&inst.args[image_at], info)?,
        };
        let target = self.image_target(&inst.args[target_at], info)?;
        let target_span = inst.args[image_at].span().to(inst.args[target_at].span());
        if mods.atomic.is_some() && mods.format.map(|f| f.0) == Some(ImageFormat::F16X4) {
            self.halves_image_atomic_target(target, mods.format, target_span)?;
        }
        let ty = match (mods.format, mods.data_type) {
            (Some((f, _)), _) => f.ty,
            (None, Some(t)) => t,
            (None, None) => info.default_type,
        };
        // NV_gpu_program5 2.X.2, <imageVarName> <optArrayMem>: an index
        // from a register picks the unit at run time; every unit it may
        // pick is used with this target and format (E1197, E1198).
        let (unit, unit_select) = match unit {
            TextureUse::Unit(n) => (n, None),
            TextureUse::Selected {
                units,
                address,
                offset,
            } => (units[0], Some((ir::UnitSelect { units, offset }, address))),
        };
        let units = match (&handle, &unit_select) {
            (Some(_), _) => Vec::new(),
            (None, Some((s, _))) => s.units.clone(),
            (None, None) => vec![unit],
        };
        for u in units {
            self.image_use(u, target, target_span, &mods, ty)?;
        }
        let image = ImageAccess {
            unit,
            target,
            format: mods.format.map(|f| f.0),
            atomic: mods.atomic,
            unit_select,
            handle,
        };
        let signed = OperandKind::Vector(TypeRule::Signed);
        let value = OperandKind::Vector(TypeRule::Inherit);
        let operand = |c: &mut Self, i: usize, kind| match &inst.args[i] {
            Arg::Operand(o) => c.source(o, kind, ty, false),
            other => {
                c.expect_operand(other, info);
                None
            }
        };
        if info.opcode == Opcode::Storeim {
            let value = operand(self, 1, value);
            let coord = operand(self, 2, signed)?;
            return Some(Flat::ImageStore(value?, coord, image, inst.span));
        }
        let srcs = if info.opcode == Opcode::Atomim {
            let v = operand(self, 1, value);
            let coord = operand(self, 2, signed);
            vec![v?, coord?]
        } else {
            vec![operand(self, 1, signed)?]
        };
        let Arg::Operand(dst_ast) = &inst.args[0] else {
            self.expect_operand(&inst.args[0], info);
            return None;
        };
        let dst = self.dest(dst_ast, inst.cc_mask.as_deref(), ty, false, info)?;
        Some(Flat::Inst(ir::Instruction {
            op: info.opcode,
            ty,
            half: false,
            fixed: false,
            clamp: None,
            cc_update: mods.cc_update,
            mul_mode: None,
            precision64: false,
            convert: None,
            dst,
            srcs,
            ext_swizzle: None,
            tex: None,
            memory: None,
            image: Some(Box::new(image)),
            span: inst.span,
        }))
    }

    fn expect_operand(&mut self, arg: &Arg, info: &OpInfo) {
        self.error(
            Diagnostic::error("E1192", format!("{} expects an operand here", info.name))
                .primary(arg.span(), "not an operand")
                .note(image_syntax(info)),
        );
    }

    /// The storage, atomic, data type and condition code modifiers (stand
    /// alone, and the `C` suffix of Table X.15).
    fn image_modifiers(
        &mut self,
        info: &'static OpInfo,
        inst: &ast::Instruction,
    ) -> Option<ImageMods> {
        let mut mods = ImageMods {
            format: None,
            data_type: None,
            atomic: None,
            cc_update: None,
        };
        let mut ok = true;
        let result = info.opcode != Opcode::Storeim;
        let bad = |c: &mut Self, span: Span, message: String| {
            c.error(
                Diagnostic::error("E1195", message)
                    .primary(span, "this modifier")
                    .note(MODIFIER_RULE),
            );
        };
        if let Ok(split) = split_opcode(&inst.opcode.name) {
            for (m, a, b) in split.suffixes {
                let span = Span {
                    start: inst.opcode.span.start + a as u32,
                    end: inst.opcode.span.start + b as u32,
                };
                match m {
                    Modifier::Cc | Modifier::Cc0 | Modifier::Cc1 if result => {
                        mods.cc_update = Some(ir::CcReg(u8::from(m == Modifier::Cc1)));
                    }
                    _ => {
                        bad(
                            self,
                            span,
                            format!("{} does not take the suffix `{}`", info.name, m.name()),
                        );
                        ok = false;
                    }
                }
            }
        }
        // A storage modifier of the atomic extensions on ATOMIM.
        let mut extension = None;
        for m in &inst.modifiers {
            let text = m.name.as_str();
            // F16X2 and F16X4 on ATOMIM are the atomic extension's (E1245),
            // not NV_gpu_program5_mem_extended's load/store formats.
            if let (Opcode::Atomim, Some(storage)) = (info.opcode, atomic_extension_storage(text)) {
                extension = Some((storage, text, m.span));
            } else if let Some((s, f)) = image_format(text) {
                // NV_gpu_program5_mem_extended's need its option (E1250).
                if !self.storage_modifier_allowed(info, s, m.span) {
                    ok = false;
                    continue;
                }
                if mods.format.is_some() || mods.data_type.is_some() {
                    bad(
                        self,
                        m.span,
                        format!("{} has more than one storage modifier", info.name),
                    );
                    ok = false;
                }
                mods.format = Some((f, m.span));
            } else if let (Opcode::Atomim, Some(a)) = (info.opcode, atomic_modifier(text)) {
                if mods.atomic.is_some() {
                    self.error(
                        Diagnostic::error(
                            "E1196",
                            format!("{} has more than one atomic modifier", info.name),
                        )
                        .primary(m.span, "this modifier")
                        .note(ATOMIC_RULE),
                    );
                    ok = false;
                }
                mods.atomic = Some(a);
            } else if let ("F" | "S" | "U", Opcode::Storeim) = (text, info.opcode) {
                if mods.format.is_some() || mods.data_type.is_some() {
                    bad(
                        self,
                        m.span,
                        "STOREIM takes a base data type or a storage modifier, not both".into(),
                    );
                    ok = false;
                }
                mods.data_type = Some(match text {
                    "F" => DataType::Float,
                    "S" => DataType::Signed,
                    _ => DataType::Unsigned,
                });
            } else if matches!(text, "CC" | "CC0" | "CC1") && result {
                mods.cc_update = Some(ir::CcReg(u8::from(text == "CC1")));
            } else if matches!(text, "COH" | "VOL") && info.opcode != Opcode::Atomim {
                // Coherence with other invocations and volatility: every
                // image access nvp4c emits is a plain OpImageRead/Write on
                // a variable with neither decoration, whose results other
                // invocations see after a barrier; the single-invocation
                // meaning is the same (docs/semantics.md, "Images").
            } else {
                bad(
                    self,
                    m.span,
                    format!("{} does not take `.{text}`", info.name),
                );
                ok = false;
            }
        }
        if !ok {
            return None;
        }
        if let Some((storage, text, span)) = extension {
            self.image_atomic_extension(mods.atomic, storage, text, span)?;
            if mods.format.is_some() {
                bad(
                    self,
                    span,
                    format!("{} has more than one storage modifier", info.name),
                );
                return None;
            }
            // F16X2: an rg16f texel, updated as one 32-bit word; F16X4 an
            // rgba16f one, as two (BUFFER only, E1245).
            let format = if storage.2 == 2 {
                ImageFormat::F16X2
            } else {
                ImageFormat::F16X4
            };
            mods.format = Some((format, span));
            return Some(mods);
        }
        if info.opcode != Opcode::Storeim && mods.format.is_none() {
            self.error(
                Diagnostic::error("E1195", format!("{} needs a storage modifier", info.name))
                    .primary(inst.opcode.span, "e.g. `.U32`, `.F32X4`")
                    .note(MODIFIER_RULE),
            );
            return None;
        }
        if info.opcode == Opcode::Atomim {
            let Some(op) = mods.atomic else {
                self.error(
                    Diagnostic::error("E1196", "ATOMIM needs an atomic modifier")
                        .primary(inst.opcode.span, "e.g. `.ADD`, `.CSWAP`")
                        .note("EXT_shader_image_load_store, NV_gpu_program5 2.X.8.Z: \"The ATOMIM instruction has two required instruction modifiers.\"")
                        .note(ATOMIC_RULE),
                );
                return None;
            };
            let (f, span) = mods.format?;
            // NV_shader_atomic_float adds F32 to ADD and EXCH, with its
            // option (E1230 without it).
            let float_atomic = matches!(op, AtomicOp::Add | AtomicOp::Exch);
            if f.ty == DataType::Float
                && f.bits == 32
                && f.components == 1
                && float_atomic
                && !self.dialect.has(crate::isa::Features::ATOMIC_FLOAT)
            {
                self.error(
                    Diagnostic::error(
                        "E1230",
                        format!(
                            "`ATOMIM.{}.F32` needs `OPTION NV_shader_atomic_float;`",
                            op.name()
                        ),
                    )
                    .primary(span, "F32 on ATOMIM only with the option")
                    .note(super::memory::ATOMIC_FLOAT_RULE),
                );
                return None;
            }
            let allowed = f.bits == 32
                && f.components == 1
                && match op {
                    AtomicOp::IWrap | AtomicOp::DWrap => f.ty == DataType::Unsigned,
                    _ => f.ty != DataType::Float || float_atomic,
                };
            if !allowed {
                self.error(
                    Diagnostic::error(
                        "E1196",
                        format!("ATOMIM.{} does not take `.{}`", op.name(), f.name()),
                    )
                    .primary(span, "not in Table X.4 for this atomic modifier")
                    .note(ATOMIC_RULE),
                );
                return None;
            }
        }
        Some(mods)
    }

    /// ATOMIM with a storage modifier of the atomic extensions: 64-bit
    /// ones are in no ATOMIM table (E1244); NV_shader_atomic_fp16_vector's
    /// F16X2 and F16X4 need the option (E1242); the target decides whether
    /// F16X4 is lowered ([`Checker::halves_image_atomic_target`]).
    fn image_atomic_extension(
        &mut self,
        op: Option<AtomicOp>,
        storage: (DataType, u8, u8),
        text: &str,
        span: Span,
    ) -> Option<()> {
        if storage.1 == 64 {
            self.error(
                Diagnostic::error("E1244", format!("ATOMIM does not take `.{text}`"))
                    .primary(span, "not a storage modifier of image atomics")
                    .note("NV_shader_atomic_int64 adds S64 and U64 to ATOM, ATOMB and ATOMS only, and NV_shader_atomic_float64 F64 to ATOM only (issue (1): \"Atomic operation on double-precision texture memory are not supported since OpenGL provides no pixel/texture formats with double-precision components\")")
                    .note(ATOMIC_RULE),
            );
            return None;
        }
        let Some(op) = op else {
            self.error(
                Diagnostic::error("E1196", "ATOMIM needs an atomic modifier")
                    .primary(span, "e.g. `.ADD`")
                    .note(ATOMIC_RULE),
            );
            return None;
        };
        self.atomic_extension_rule("ATOMIM", op, storage, text, span)
    }

    /// ATOMIM.F16X4 (NV_shader_atomic_fp16_vector: an rgba16f texel, 64
    /// bits) on BUFFER is two 32-bit compare-and-swap loops through an
    /// R32_UINT texel buffer view of twice the elements ("Atomicity is only
    /// guaranteed on a per-component basis"); on the other targets a
    /// texel is not two texels of any 32-bit view, and Vulkan's 64-bit
    /// image atomics need shaderImageInt64Atomics (E1245).
    fn halves_image_atomic_target(
        &mut self,
        target: ImageTarget,
        format: Option<(ImageFormat, Span)>,
        target_span: Span,
    ) -> Option<()> {
        if target == ImageTarget::Buffer {
            return Some(());
        }
        let span = format.map_or(target_span, |f| f.1);
        self.error(
            Diagnostic::error("E1245", format!("`ATOMIM.F16X4` on a {} image cannot be lowered to Vulkan", target.name()))
                .primary(span, "an atomic on a 64-bit rgba16f texel")
                .secondary(target_span, format!("a {} image", target.name()))
                .note("NV_shader_atomic_fp16_vector, \"Dependencies on EXT_shader_image_load_store and NV_gpu_program5\": F16X4 ATOMIM operates on images of format rgba16f")
                .note("Vulkan's image atomics take 32-bit integer texels; a 64-bit texel of an image other than a texel buffer needs R64_UINT atomics, VK_EXT_shader_image_atomic_int64's shaderImageInt64Atomics, which nvp4c does not use")
                .note("what is lowered: ATOMIM.F16X4 on BUFFER (two 32-bit compare-and-swap loops through an R32_UINT texel buffer view of twice the elements), ATOMIM.F16X2 on every target (an R32_UINT view of the rg16f image), and F16X4 atomics on storage buffers and shared memory (ATOMB, ATOMS)"),
        );
        None
    }

    /// `<imageUnit>`: `image[n]` or an IMAGE variable (`img`, `img[n]`,
    /// `imgs[a.x + n]`): the unit, or the units a register picks among.
    fn image_unit(&mut self, arg: &Arg, info: &OpInfo) -> Option<TextureUse> {
        let not_image = |c: &mut Self, span: Span| {
            c.error(
                Diagnostic::error("E1192", format!("{} needs an image unit here", info.name))
                    .primary(span, "expected `image[n]` or an IMAGE variable")
                    .note("EXT_shader_image_load_store, NV_gpu_program5 2.X.2: <imageUnit> ::= \"image\" <arrayMemAbs> | <imageVarName> <optArrayMem>")
                    .note(image_syntax(info)),
            );
        };
        let Arg::Operand(o) = arg else {
            not_image(self, arg.span());
            return None;
        };
        if o.negate || o.abs.is_some() {
            not_image(self, o.span);
            return None;
        }
        if let Some(unit) = self.texture_variable_unit(&IMAGE_UNITS, o) {
            return unit;
        }
        let PathHead::Root(Root::Image, _) = o.path.head else {
            not_image(self, o.span);
            return None;
        };
        let n = match o.path.parts.as_slice() {
            [PathPart::Index(IndexExpr::Int(n), _)] => n.value(),
            _ => None,
        };
        let Some(n) = n else {
            not_image(self, o.span);
            return None;
        };
        if n >= u64::from(super::program_type::MAX_IMAGE_UNITS) {
            self.error(
                Diagnostic::error("E1191", format!("image unit {n} is out of range"))
                    .primary(
                        o.span,
                        format!(
                            "units are 0 to {}",
                            super::program_type::MAX_IMAGE_UNITS - 1
                        ),
                    )
                    .note("EXT_shader_image_load_store, NV_gpu_program5 2.X.3.X: \"A program will fail to compile if <a> or <b> is negative or greater than or equal to the number of image units supported\" (MAX_IMAGE_UNITS: 8, docs/limits.md)"),
            );
            return None;
        }
        Some(TextureUse::Unit(n as u32))
    }

    /// `<imageTarget>`.
    fn image_target(&mut self, arg: &Arg, info: &OpInfo) -> Option<ImageTarget> {
        let name = match arg {
            Arg::Operand(ast::Operand {
                path:
                    ast::Path {
                        head: PathHead::Name(id),
                        parts,
                        ..
                    },
                abs: None,
                negate: false,
                ..
            }) if parts.is_empty() => Some(id.name.as_str()),
            _ => None,
        };
        let target = name.and_then(|n| {
            ImageTarget::ALL
                .iter()
                .find(|(t, _)| *t == n)
                .map(|(_, t)| *t)
        });
        let Some(target) = target else {
            let names: Vec<&str> = ImageTarget::ALL.iter().map(|(n, _)| *n).collect();
            let mut d =
                Diagnostic::error("E1194", format!("{} needs an image target here", info.name))
                    .primary(arg.span(), "not an image target");
            if let Some(s) =
                name.and_then(|n| super::suggest::did_you_mean(n, names.iter().copied()))
            {
                d = d.note(format!("did you mean `{s}`?"));
            }
            self.error(d.note(format!(
                "EXT_shader_image_load_store, NV_gpu_program5 2.X.2: <imageTarget> is one of {}",
                names.join(" ")
            )));
            return None;
        };
        Some(target)
    }

    /// One declared SPIR-V image per unit: the unit's target, and the
    /// format of its unformatted accesses (or the data type of its
    /// formatted stores), are the same at every use.
    fn image_use(
        &mut self,
        unit: u32,
        target: ImageTarget,
        target_span: Span,
        mods: &ImageMods,
        ty: DataType,
    ) -> Option<()> {
        let previous = self.image_uses.entry(unit).or_insert(UnitUse {
            target: (target, target_span),
            format: None,
            formatted: None,
        });
        let (first, first_span) = previous.target;
        if first != target {
            self.error(
                Diagnostic::error("E1197", format!("image unit {unit} is used with two targets"))
                    .primary(target_span, format!("used as {} here", target.name()))
                    .secondary(first_span, format!("used as {} here", first.name()))
                    .note("EXT_shader_image_load_store: \"The type of an image variable must match the texture target of the image currently bound to the image unit\"; nvp4c declares one SPIR-V image per unit, of one dimensionality (docs/interface.md, \"Images\")"),
            );
            return None;
        }
        let clash = match (mods.format, previous.format, previous.formatted) {
            (Some((f, _)), Some((g, span)), _) if f != g => Some((
                format!("`.{}`", f.name()),
                format!("`.{}` here", g.name()),
                span,
            )),
            (Some((f, _)), None, Some((t, span))) if f.ty != t => Some((
                format!("`.{}`", f.name()),
                format!("a formatted {} store here", t.name()),
                span,
            )),
            (None, Some((g, span)), _) if g.ty != ty => Some((
                format!("a formatted {} store", ty.name()),
                format!("`.{}` here", g.name()),
                span,
            )),
            (None, None, Some((t, span))) if t != ty => Some((
                format!("a formatted {} store", ty.name()),
                format!("a formatted {} store here", t.name()),
                span,
            )),
            _ => None,
        };
        if let Some((now, before, span)) = clash {
            let here = mods.format.map_or(target_span, |f| f.1);
            self.error(
                Diagnostic::error("E1198", format!("image unit {unit} is used with two formats"))
                    .primary(here, format!("{now} here"))
                    .secondary(span, before)
                    .note("EXT_shader_image_load_store Table X.3: an unformatted access \"is treated as invalid unless the storage modifier matches the image unit format\", and a unit has one format at a time; nvp4c declares each unit's SPIR-V image with that format, so every unformatted access of a unit uses the same storage modifier and its formatted stores the same base type (docs/interface.md, \"Images\")"),
            );
            return None;
        }
        // NV_shader_atomic_fp16_vector's ATOMIM.F16X2 (F16X4) declares the
        // unit R32ui; its other accesses, all of the same rg16f (rgba16f)
        // format by the rule above, then read and write the words and
        // unpack and pack the halves (docs/interface.md, "Images").
        match mods.format {
            Some(f) => {
                previous.format.get_or_insert(f);
            }
            None => {
                previous.formatted.get_or_insert((ty, target_span));
            }
        }
        Some(())
    }
}

/// The instruction's operand list, for notes.
fn image_syntax(info: &OpInfo) -> String {
    match info.opcode {
        Opcode::Loadim => "e.g. `LOADIM.U32 result, coord, image[0], 2D`".into(),
        Opcode::Storeim => "e.g. `STOREIM.U32 image[0], value, coord, 2D`".into(),
        _ => "e.g. `ATOMIM.ADD.U32 result, value, coord, image[0], 2D`".into(),
    }
}
