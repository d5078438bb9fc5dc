//! Operand loads (section 2.X.4.2) and destination updates (section
//! 2.X.4.3): array elements with absolute or relative addressing, swizzle,
//! negate and absolute value, write masks and type conversion of results.

use rspirv::spirv::{Capability, GlslStd450Op as GLOp, Op, StorageClass, Word};

use super::emit::{Comp, LResult, Val, F32_NEG_ONE, F32_ONE};
use super::interface::{IoShape, IoSlot, ParamBlock, ParamSource, Storage};
use super::{LowerError, Lowerer};
use crate::ir::{Dest, Index, Operand, VarId, WriteMask};
use crate::isa::DataType;
use crate::span::Span;
use crate::state::Read as StateRead;

/// Which element of a variable an access touches.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Element {
    Fixed(u32),
    /// A run-time index (`i32`), already clamped into the array.
    Dynamic(Val),
}

/// The components a destination update may write: the write mask, and the
/// condition code write mask already ANDed with it (section 2.X.4.3).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Enable {
    pub mask: WriteMask,
    /// `bvec4`; `None` when only the compile-time mask applies.
    pub dynamic: Option<Val>,
}

/// What the lowering knows of registers' values in the straight-line code
/// it is emitting (issue 17, docs/performance.md "Session 9"): the last
/// value stored to, or loaded from, each element of a TEMP (or ADDRESS)
/// variable since the run began, so that a later read uses that value
/// instead of an `OpLoad`. Every write is still stored, so other blocks,
/// other functions and the driver see the variables as before.
///
/// A run is `words::Builder::straight_line_run`: it ends at every block
/// (labels, branches, merges, loops: a value of one block need not
/// dominate the next) and at every OpFunctionCall (a subroutine writes the
/// Private registers). Within a run, registers are written only by
/// `store_element`, whose merge makes the whole element's value known
/// (write masks, condition-code masks); a write at a relative address
/// forgets every element of that array.
///
/// The same runs keep the loads of what no instruction writes: Input
/// variables and parameter block elements (`read_only`).
#[derive(Default)]
pub(crate) struct RegisterValues {
    /// By variable, for those that are not arrays (nearly all): the run
    /// the value belongs to, and the value (a vec4 of the stored component
    /// type). A value of an earlier run is stale, so nothing is cleared
    /// when a run ends.
    whole: Vec<Option<(u64, Val)>>,
    /// The run `elements` belongs to.
    run: u64,
    /// Elements of arrays in `run`, by variable and element.
    elements: rustc_hash::FxHashMap<(u32, u32), Val>,
    /// Values that cannot change while the program runs, loaded in `run`:
    /// Input variables (vec4 ones: not `HelperInvocation`, which demotion
    /// changes) and elements of the `program.env` / `program.local` blocks
    /// (Uniform or PushConstant storage), by the SPIR-V variable and the
    /// element's index id.
    read_only: rustc_hash::FxHashMap<(Word, Word), Val>,
    /// The values of Output variables (vec4 ones of their own, not of a
    /// tessellation control program, whose results other invocations
    /// write) stored or loaded in `run`, by the SPIR-V variable, so that a
    /// masked write to the same result merges into the known value instead
    /// of reloading it. EMIT / EMITS forget them (`forget_outputs`).
    outputs: rustc_hash::FxHashMap<Word, Val>,
    /// `OpCompositeExtract`s emitted in `run`, by the composite's id and
    /// the component: a component read again (DP4 reads each of its
    /// operands' components; `vertex.position` is read by four DP4s)
    /// reuses the id. Splats (`Lowerer::splat`) are entered here too, so a
    /// component of a broadcast scalar is the scalar.
    extracts: RecentValues,
    /// `OpBitcast`s of loaded values emitted in `run`, by the value's id
    /// and the type read (`Lowerer::cast_loaded`).
    casts: RecentValues,
}

/// A direct-mapped cache of ids derived from another id within a run
/// (`RegisterValues::extracts`, `casts`): an entry per slot, replaced by
/// the next key that maps there. Ids are allocated in order, so the values
/// a run is still reading sit in different slots; a lost entry costs one
/// instruction, not correctness, and a lookup is one compare with no
/// hashing or allocation (a hash map of every extract made the lowering
/// slower than the instructions it saved).
#[derive(Default)]
struct RecentValues {
    /// (run, id, key, derived id), indexed by `slot`.
    entries: Vec<(u64, Word, u32, Word)>,
}

impl RecentValues {
    const SLOTS: usize = 256;

    fn slot(id: Word, key: u32) -> usize {
        (id.wrapping_mul(4).wrapping_add(key) as usize) % Self::SLOTS
    }

    fn get(&self, run: u64, id: Word, key: u32) -> Option<Word> {
        match self.entries.get(Self::slot(id, key)) {
            Some(&(r, i, k, derived)) if r == run && i == id && k == key => Some(derived),
            _ => None,
        }
    }

    fn insert(&mut self, run: u64, id: Word, key: u32, derived: Word) {
        if self.entries.is_empty() {
            // Run 0 is before any block: no lookup is made in it.
            self.entries.resize(Self::SLOTS, (u64::MAX, 0, 0, 0));
        }
        self.entries[Self::slot(id, key)] = (run, id, key, derived);
    }
}

impl RegisterValues {
    fn get(&mut self, run: u64, var: VarId, element: Element, array: bool) -> Option<Val> {
        match (array, element) {
            (false, _) => match self.whole.get(var.0 as usize) {
                Some(&Some((r, v))) if r == run => Some(v),
                _ => None,
            },
            (true, Element::Fixed(n)) => self.array_elements(run).get(&(var.0, n)).copied(),
            (true, Element::Dynamic(_)) => None,
        }
    }

    fn set(&mut self, run: u64, var: VarId, element: Element, array: bool, v: Val) {
        match (array, element) {
            (false, _) => {
                let i = var.0 as usize;
                if self.whole.len() <= i {
                    self.whole.resize(i + 1, None);
                }
                self.whole[i] = (v.n == 4).then_some((run, v));
            }
            (true, Element::Fixed(n)) if v.n == 4 => {
                self.array_elements(run).insert((var.0, n), v);
            }
            // At a run-time index any element may have changed.
            (true, _) => self.array_elements(run).retain(|&(w, _), _| w != var.0),
        }
    }

    /// `elements`, emptied first if they belong to an earlier run.
    fn array_elements(&mut self, run: u64) -> &mut rustc_hash::FxHashMap<(u32, u32), Val> {
        self.begin(run);
        &mut self.elements
    }

    /// `read_only`, emptied first if it belongs to an earlier run.
    fn read_only(&mut self, run: u64) -> &mut rustc_hash::FxHashMap<(Word, Word), Val> {
        self.begin(run);
        &mut self.read_only
    }

    /// Forgets the values of runs before `run`.
    fn begin(&mut self, run: u64) {
        if self.run != run {
            self.run = run;
            self.elements.clear();
            self.read_only.clear();
            self.outputs.clear();
        }
    }

    /// `outputs`, emptied first if they belong to an earlier run.
    fn outputs(&mut self, run: u64) -> &mut rustc_hash::FxHashMap<Word, Val> {
        self.begin(run);
        &mut self.outputs
    }

    /// Forgets the values of Output variables: after `OpEmitVertex` they
    /// are undefined (SPIR-V; NV_gpu_program4 section 2.X.8.Z), and no
    /// later read may assume what was stored before.
    pub(crate) fn forget_outputs(&mut self) {
        self.outputs.clear();
    }

    /// The id of component `index` of `composite`, if this run extracted it.
    pub(crate) fn extracted(&self, run: u64, composite: Word, index: u32) -> Option<Word> {
        self.extracts.get(run, composite, index)
    }

    /// Records that `id` is component `index` of `composite` in this run.
    pub(crate) fn remember_extract(&mut self, run: u64, composite: Word, index: u32, id: Word) {
        self.extracts.insert(run, composite, index, id);
    }
}

/// A loaded operand. `base` is the value before the outermost negation and
/// `negated` says whether there was one: section 2.X.4.3 computes carry and
/// overflow of an add of a negated operand as a subtract of `base`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Loaded {
    pub value: Val,
    pub base: Val,
    pub negated: bool,
}

pub(crate) fn data_type(comp: Comp) -> LResult<DataType> {
    match comp {
        Comp::F32 | Comp::F64 => Ok(DataType::Float),
        Comp::I32 | Comp::I64 => Ok(DataType::Signed),
        Comp::U32 | Comp::U64 => Ok(DataType::Unsigned),
        Comp::Bool => Err(LowerError::internal("a boolean register value")),
    }
}

impl Lowerer<'_> {
    /// Loads an operand as section 2.X.4.2 orders it: element, swizzle (or
    /// scalar selection), negate, absolute value, outer negate.
    pub(crate) fn load_operand(&mut self, op: &Operand, scalar: bool) -> LResult<Loaded> {
        self.load_operand_sized(op, scalar, false)
    }

    /// [`Lowerer::load_operand`] with 64-bit components when `bits64`
    /// (NV_gpu_program5 2.X.4.1: "Operands represented with fewer bits
    /// than used to perform the instruction will be promoted to a larger
    /// data type"; a LONG variable read by a 32-bit instruction is
    /// "converted to lower precision"). Negation and absolute value apply
    /// at the instruction's precision.
    pub(crate) fn load_operand_sized(
        &mut self,
        op: &Operand,
        scalar: bool,
        bits64: bool,
    ) -> LResult<Loaded> {
        self.load_operand_inner(op, scalar, bits64)
            .map_err(|e| e.at(op.span))
    }

    fn load_operand_inner(&mut self, op: &Operand, scalar: bool, bits64: bool) -> LResult<Loaded> {
        if op.swizzle.0.iter().any(|&c| c > 3) {
            return Err(LowerError::internal_at(
                "swizzle selector out of range",
                op.span,
            ));
        }
        let comp = Comp::sized(op.ty, self.program.long_storage(op.var));
        let vector = match &op.index {
            // A geometry program's per-vertex array (geometry.rs).
            Index::PerVertex(per_vertex) => self.load_per_vertex(
                op.var,
                &per_vertex.vertex,
                &per_vertex.element,
                comp,
                op.span,
            )?,
            Index::BufferRange(range) => self.load_buffer_range(range, comp, op.span)?,
            index => {
                let element = self.element(op.var, index, op.span)?;
                let v = self.load_element(op.var, element, comp, op.span)?;
                match index {
                    Index::Relative { address, offset }
                        if self.program.dialect.relative_reads_outside_are_zero() =>
                    {
                        self.zero_outside(op.var, address, *offset, v)?
                    }
                    _ => v,
                }
            }
        };
        let vector = self.resize(vector, Comp::sized(op.ty, bits64))?;
        self.apply_modifiers(op, vector, scalar)
    }

    /// `v` converted to `comp`, of the same base type at 32 or 64 bits:
    /// floats are converted (to the nearest f32 when narrowing), integers
    /// sign- or zero-extended, or cut to their low 32 bits (NV_gpu_program5
    /// 2.X.4.1: "integer overflows result in the truncation of the most
    /// significant bits").
    pub(crate) fn resize(&mut self, v: Val, comp: Comp) -> LResult<Val> {
        if v.comp.is_64() == comp.is_64() {
            return self.cast(v, comp);
        }
        let op = match comp {
            Comp::F32 | Comp::F64 => Op::FConvert,
            Comp::I32 | Comp::I64 => Op::SConvert,
            _ => Op::UConvert,
        };
        let sized = if comp.is_64() {
            v.comp.to_32()
        } else {
            v.comp.to_64()
        };
        let v = self.cast(v, sized)?;
        if comp == Comp::I64 {
            return self.sign_extend64(v);
        }
        let ty = self.t(comp, v.n);
        let id = self.emit(op, ty, &[v.id])?;
        Ok(Val { id, comp, n: v.n })
    }

    /// A 32-bit integer sign-extended to 64 bits, as its low word and its
    /// sign bit copied into the high word, not `OpSConvert`: lavapipe
    /// (Mesa 22.3.6) folds a signed comparison with zero of an
    /// `OpSConvert`ed value as an unsigned one (`-8` extended is not less
    /// than 0), even through a variable (docs/conformance.md, "Device
    /// deviations"; tests/conformance/s64-compare-of-promoted-register.nvtest).
    fn sign_extend64(&mut self, v: Val) -> LResult<Val> {
        let n = v.n;
        let word = self.cast(v, Comp::U32)?;
        let signed = self.cast(v, Comp::I32)?;
        let thirty_one = self.splat_const(Comp::U32, 31, n);
        let sign = self.op(Op::ShiftRightArithmetic, &[signed, thirty_one])?;
        let sign = self.cast(sign, Comp::U32)?;
        let low = self.resize(word, Comp::U64)?;
        let high = self.resize(sign, Comp::U64)?;
        let thirty_two = self.splat_const(Comp::U32, 32, n);
        let high = self.op(Op::ShiftLeftLogical, &[high, thirty_two])?;
        let bits = self.op(Op::BitwiseOr, &[low, high])?;
        self.cast(bits, Comp::I64)
    }

    /// Swizzle (or scalar selection), negate and absolute value of section
    /// 2.X.4.2 on an element already loaded.
    pub(crate) fn apply_modifiers(
        &mut self,
        op: &Operand,
        vector: Val,
        scalar: bool,
    ) -> LResult<Loaded> {
        let comp = vector.comp;
        let mut v = if scalar {
            self.extract(vector, u32::from(op.swizzle.0[0]))?
        } else {
            self.swizzle(vector, op.swizzle.0)?
        };
        let before_negate = v;
        if op.negate {
            v = self.negate(v)?;
        }
        if !op.abs {
            return Ok(Loaded {
                value: v,
                base: before_negate,
                negated: op.negate,
            });
        }
        // "For unsigned integer operands, the absolute value operation has
        // no effect."
        v = match comp {
            Comp::F32 | Comp::F64 => self.glsl(GLOp::FAbs, &[v])?,
            Comp::I32 | Comp::I64 => self.signed_abs(v)?,
            _ => v,
        };
        let base = v;
        if op.negate_abs {
            v = self.negate(v)?;
        }
        Ok(Loaded {
            value: v,
            base,
            negated: op.negate_abs,
        })
    }

    /// IPAC, IPAO, IPAS (NV_gpu_program5 2.X.8.Z): the attribute named by
    /// `op` evaluated at the centroid, at `at` (x, y) from the pixel centre,
    /// or at sample `at` (an unsigned scalar): GLSL.std.450's
    /// InterpolateAtCentroid/Offset/Sample on the attribute's Input
    /// variable, then the operand's swizzle and modifiers. FLAT inputs give
    /// their flat value, as the spec says ("The FLAT and NOPERSPECTIVE
    /// variable modifiers operate normally"); CENTROID and SAMPLE
    /// decorations do not matter to these instructions, as it says too.
    pub(crate) fn interpolate(
        &mut self,
        which: GLOp,
        op: &Operand,
        at: Option<Val>,
    ) -> LResult<Val> {
        self.capability(rspirv::spirv::Capability::InterpolationFunction);
        let element = self.element(op.var, &op.index, op.span)?;
        let StorageRef::Io(slots) = self.storage_of(op.var, op.span)? else {
            return Err(LowerError::internal_at(
                "an interpolated operand that is not an attribute",
                op.span,
            ));
        };
        let bindings = match &self.program.var(op.var).kind {
            crate::ir::VarKind::Attrib(b) => b.clone(),
            _ => Vec::new(),
        };
        let comp = Comp::from(op.ty);
        let mut values = Vec::with_capacity(slots.len());
        for (n, slot) in slots.iter().enumerate() {
            if let Element::Fixed(e) = element {
                if e as usize != n {
                    continue;
                }
            }
            let interpolable = slot.class == StorageClass::Input
                && slot.comp == Comp::F32
                && matches!(slot.shape, IoShape::Vec4 | IoShape::FogCoord)
                && bindings.get(n) != Some(&crate::ir::AttribBinding::Position);
            if !interpolable {
                // FragCoord, the clip distances, colours chosen by
                // two-sided lighting and integer inputs are no Location
                // variable InterpolateAt* may take (docs/semantics.md).
                return Err(LowerError::unsupported(
                    "IPAC/IPAO/IPAS of this attribute (only Location-carried float attributes are re-interpolated)",
                    op.span,
                ));
            }
            let ptr = Val {
                id: slot.var,
                comp: Comp::F32,
                n: 4,
            };
            let ty = self.t(Comp::F32, 4);
            let mut args = vec![ptr];
            args.extend(at);
            let v = self.glsl_typed(which, ty, Comp::F32, 4, &args)?;
            let v = if slot.shape == IoShape::FogCoord {
                // (f, 0, 0, 1) as every fog coordinate read.
                let f = self.extract(v, 0)?;
                let zero = self.konst(Comp::F32, &[0]);
                let one = self.konst(Comp::F32, &[F32_ONE]);
                self.construct(&[f, zero, zero, one])?
            } else {
                v
            };
            values.push(self.cast(v, comp)?);
        }
        let vector = match element {
            Element::Fixed(_) => *values.first().ok_or_else(|| {
                LowerError::internal_at("interface element out of range", op.span)
            })?,
            Element::Dynamic(i) => self.select_element(i, &values)?,
        };
        Ok(self.apply_modifiers(op, vector, false)?.value)
    }

    /// Writes `value` (four components of any type) to the destination:
    /// the bits are stored as the variable's type (section 2.X.4.3).
    pub(crate) fn write_dest(&mut self, dst: &Dest, value: Val, enable: &Enable) -> LResult<()> {
        let element = self.element(dst.var, &dst.index, dst.span)?;
        self.store_element(dst.var, element, value, enable, dst.span)
            .map_err(|e| e.at(dst.span))
    }

    /// The condition under which each component is written.
    pub(crate) fn enable_vector(&mut self, enable: &Enable) -> Val {
        match enable.dynamic {
            Some(d) => d,
            None => self.bool_mask(enable.mask.0),
        }
    }

    /// Resolves an index. Relative addresses evaluate the scalar integer
    /// operand, add the offset, and clamp into the array
    /// (docs/interface.md: out-of-range relative addressing is undefined
    /// in section 2.X.4.2; nvp4c clamps).
    pub(crate) fn element(&mut self, var: VarId, index: &Index, span: Span) -> LResult<Element> {
        let len = self.program.var(var).len();
        match index {
            Index::None => Ok(Element::Fixed(0)),
            Index::Absolute(n) if *n < len => Ok(Element::Fixed(*n)),
            Index::Absolute(n) => Err(LowerError::internal_at(
                format!("element {n} of an array of {len}"),
                span,
            )),
            // Operands resolve it in `load_per_vertex`; attributes are
            // never destinations.
            Index::PerVertex { .. } => Err(LowerError::internal_at(
                "a per-vertex index outside an operand",
                span,
            )),
            // Resolved in `load_buffer_range`; buffers are never
            // destinations.
            Index::BufferRange(_) => Err(LowerError::internal_at(
                "a buffer range's binding point outside an operand",
                span,
            )),
            Index::Relative { address, offset } => {
                let sum = self.relative_index(address, *offset)?;
                let lo = self.konst(Comp::I32, &[0]);
                let hi = self.konst(Comp::I32, &[len.saturating_sub(1)]);
                let clamped = self.glsl(GLOp::SClamp, &[sum, lo, hi])?;
                Ok(Element::Dynamic(clamped))
            }
        }
    }

    /// NV_vertex_program 2.14.1.9: "Relative addressing reads outside of
    /// the 0 to 95 inclusive range always read the value (0,0,0,0)": the
    /// loaded (clamped) element where the unclamped index is inside the
    /// array, zero elsewhere.
    fn zero_outside(&mut self, var: VarId, address: &Operand, offset: i32, v: Val) -> LResult<Val> {
        let len = self.program.var(var).len();
        let sum = self.relative_index(address, offset)?;
        // One unsigned comparison covers both ends: a negative index is a
        // large unsigned one.
        let sum = self.cast(sum, Comp::U32)?;
        let bound = self.konst(Comp::U32, &[len]);
        let inside = self.cmp(Op::ULessThan, sum, bound)?;
        let zero = self.splat_const(v.comp, 0, v.n);
        self.sel(inside, v, zero)
    }

    /// The address register component plus the offset, before any clamp.
    fn relative_index(&mut self, address: &Operand, offset: i32) -> LResult<Val> {
        let a = self.load_operand(address, true)?.value;
        let a = match a.comp {
            Comp::F32 => self.convert(Op::ConvertFToS, a, Comp::I32)?,
            _ => self.cast(a, Comp::I32)?,
        };
        let off = self.konst(Comp::I32, &[offset as u32]);
        self.op(Op::IAdd, &[a, off])
    }

    fn index_id(&mut self, element: Element) -> Word {
        match element {
            Element::Fixed(n) => self.c_i32(n as i32),
            Element::Dynamic(v) => v.id,
        }
    }

    /// Pointer to one vec4 of a register.
    fn register_pointer(
        &mut self,
        ptr: Word,
        class: StorageClass,
        comp: Comp,
        len: Option<u32>,
        element: Element,
    ) -> LResult<Word> {
        if len.is_none() {
            return Ok(ptr);
        }
        let vec4 = self.t(comp, 4);
        let index = self.index_id(element);
        self.access(class, vec4, ptr, &[index])
    }

    /// The value element `element` of register `var` holds, if this run
    /// of straight-line code stored or loaded it.
    fn known_register(&mut self, var: VarId, element: Element, array: bool) -> Option<Val> {
        let run = self.b.straight_line_run();
        self.register_values.get(run, var, element, array)
    }

    /// Records that element `element` of register `var` now holds `v`.
    fn remember_register(&mut self, var: VarId, element: Element, array: bool, v: Val) {
        let run = self.b.straight_line_run();
        self.register_values.set(run, var, element, array, v);
    }

    /// A vec4 of `comp` that does not change while the program runs
    /// (`RegisterValues::read_only`), named by `key`: loaded through
    /// `pointer` once per run of straight-line code.
    fn load_read_only(
        &mut self,
        key: (Word, Word),
        comp: Comp,
        pointer: impl FnOnce(&mut Self) -> LResult<Word>,
    ) -> LResult<Val> {
        let run = self.b.straight_line_run();
        if let Some(&v) = self.register_values.read_only(run).get(&key) {
            return Ok(v);
        }
        let p = pointer(self)?;
        let v = self.load(p, comp, 4)?;
        self.register_values.read_only(run).insert(key, v);
        Ok(v)
    }

    /// One element of a variable as four components of `comp`.
    pub(crate) fn load_element(
        &mut self,
        var: VarId,
        element: Element,
        comp: Comp,
        span: Span,
    ) -> LResult<Val> {
        let storage = self.storage_of(var, span)?;
        match storage {
            StorageRef::Register {
                ptr,
                class,
                comp: stored,
                len,
            } => {
                let array = len.is_some();
                let v = match self.known_register(var, element, array) {
                    Some(v) => v,
                    None => {
                        let p = self.register_pointer(ptr, class, stored, len, element)?;
                        let v = self.load(p, stored, 4)?;
                        if let Element::Fixed(_) = element {
                            self.remember_register(var, element, array, v);
                        }
                        v
                    }
                };
                self.cast_loaded(v, comp)
            }
            StorageRef::Param(elements) => match element {
                Element::Fixed(n) => {
                    let source = elements.get(n as usize).copied().ok_or_else(|| {
                        LowerError::internal_at("PARAM element out of range", span)
                    })?;
                    self.load_param(source, comp)
                }
                Element::Dynamic(i) => self.load_param_dynamic(var, &elements, i, comp),
            },
            StorageRef::Buffer {
                buffer,
                first,
                vec4,
            } => self.load_buffer(buffer, first, vec4, element, comp),
            StorageRef::Io(slots) => match element {
                Element::Fixed(n) => {
                    let slot = slots.get(n as usize).copied().ok_or_else(|| {
                        LowerError::internal_at("interface element out of range", span)
                    })?;
                    if self.integer_pixel_centers(var, n) {
                        // ARB_fragment_coord_pixel_center_integer: FragCoord
                        // has its centres at half-integers; the program sees
                        // them at integers (docs/interface.md).
                        let v = self.load_slot(slot, Comp::F32)?;
                        let half = self.konst(Comp::F32, &[0x3f00_0000, 0x3f00_0000, 0, 0]);
                        let v = self.op(Op::FSub, &[v, half])?;
                        return self.cast(v, comp);
                    }
                    self.load_slot(slot, comp)
                }
                Element::Dynamic(i) => {
                    let mut loads = Vec::with_capacity(slots.len());
                    for slot in slots.iter() {
                        loads.push(self.load_slot(*slot, comp)?);
                    }
                    self.select_element(i, &loads)
                }
            },
        }
    }

    /// Whether element `n` of `var` is a fragment program's
    /// `fragment.position` under ARB_fragment_coord_pixel_center_integer.
    fn integer_pixel_centers(&self, var: VarId, n: u32) -> bool {
        let program = self.program;
        program.stage == crate::isa::Stage::Fragment
            && program
                .dialect
                .has(crate::isa::Features::PIXEL_CENTER_INTEGER)
            && matches!(&program.var(var).kind, crate::ir::VarKind::Attrib(b)
                if b.get(n as usize) == Some(&crate::ir::AttribBinding::Position))
    }

    /// Picks `values[i]` with a chain of selects (for elements that are
    /// separate SPIR-V variables).
    pub(crate) fn select_element(&mut self, i: Val, values: &[Val]) -> LResult<Val> {
        let mut result = *values
            .first()
            .ok_or_else(|| LowerError::internal("indexing an empty array"))?;
        for (e, &v) in values.iter().enumerate().skip(1) {
            let k = self.konst(Comp::I32, &[e as u32]);
            let hit = self.cmp(Op::IEqual, i, k)?;
            result = self.sel(hit, v, result)?;
        }
        Ok(result)
    }

    fn load_param(&mut self, source: ParamSource, comp: Comp) -> LResult<Val> {
        match source {
            // Section 2.X.3.3: a literal's value depends on the type it is
            // read as.
            ParamSource::Constant(lits) => {
                let ty = data_type(comp)?;
                Ok(self.konst(comp, &lits.map(|l| l.bits(ty))))
            }
            ParamSource::Block { block, element } => {
                if let Some(&id) = self.io.specialized.get(&(block, element)) {
                    let v = Val {
                        id,
                        comp: Comp::U32,
                        n: 4,
                    };
                    return self.cast_loaded(v, comp);
                }
                let index = self.c_i32(element as i32);
                let v = self.load_block_element(block, index)?;
                self.cast_loaded(v, comp)
            }
            ParamSource::State(read) => self.load_state(read, comp),
            ParamSource::BufferElement { buffer, element } => {
                let e = Element::Fixed(element);
                self.load_buffer(buffer, 0, true, e, comp)
            }
            // The thread group is the subgroup (docs/interface.md, "Thread
            // groups"); y, z and w, which 2.X.3.3 leaves undefined, are 0.
            ParamSource::WarpSize => {
                self.capability(Capability::GroupNonUniform);
                let (_, size) = self.subgroup_inputs();
                let s = self.load(size, Comp::U32, 1)?;
                let v = self.widen(s, 0)?;
                self.cast(v, comp)
            }
            ParamSource::Subroutine(element) => {
                let var = self.io.subroutine_block.ok_or_else(|| {
                    LowerError::internal("the program.subroutine block was not declared")
                })?;
                let uvec4 = self.t(Comp::U32, 4);
                let zero = self.c_i32(0);
                let index = self.c_i32(element as i32);
                let p = self.access(StorageClass::Uniform, uvec4, var, &[zero, index])?;
                let v = self.load(p, Comp::U32, 4)?;
                self.cast(v, comp)
            }
        }
    }

    /// Element `index` (an `i32` id) of `program.env` or `program.local`,
    /// from its uniform block or push constant member, as `uvec4` bits.
    fn load_block_element(&mut self, block: ParamBlock, index: Word) -> LResult<Val> {
        let bv = self.io.blocks[block.index()]
            .ok_or_else(|| LowerError::internal("a parameter block was not declared"))?;
        self.load_read_only((bv.var, index), Comp::U32, |l| {
            let uvec4 = l.t(Comp::U32, 4);
            let member = l.c_i32(bv.member as i32);
            l.access(bv.class, uvec4, bv.var, &[member, index])
        })
    }

    /// A State block row (`row` a constant or an `i32` value).
    pub(crate) fn state_row(&mut self, row: Word) -> LResult<Val> {
        let var = self
            .io
            .state_block
            .ok_or_else(|| LowerError::internal("the State block was not declared"))?;
        let vec4 = self.t(Comp::F32, 4);
        let zero = self.c_i32(0);
        let p = self.access(StorageClass::Uniform, vec4, var, &[zero, row])?;
        self.load(p, Comp::F32, 4)
    }

    /// A GL state binding (docs/interface.md, "The State block"): a row,
    /// with the components Tables X.3 to X.10 fix replaced by their
    /// constants, or a column of a stored matrix for `.transpose` and
    /// `.invtrans` (row `c` of the transpose is column `c`).
    fn load_state(&mut self, read: StateRead, comp: Comp) -> LResult<Val> {
        let v = match read {
            StateRead::Row { row, constant } => {
                let fixed = constant.map(|c| c.map(f32::to_bits));
                let r = self.c_i32(row as i32);
                let mut v = self.state_row(r)?;
                if fixed.iter().any(Option::is_some) {
                    let bits: Vec<u32> = fixed.iter().map(|f| f.unwrap_or(0)).collect();
                    let k = self.konst(Comp::F32, &bits);
                    let picks: Vec<u32> = (0..4u32)
                        .map(|c| {
                            if fixed[c as usize].is_some() {
                                c + 4
                            } else {
                                c
                            }
                        })
                        .collect();
                    v = self.shuffle(v, k, &picks)?;
                }
                v
            }
            StateRead::Column { row: first, column } => {
                let mut parts = Vec::with_capacity(4);
                for r in 0..4 {
                    let id = self.c_i32((first + r) as i32);
                    let row = self.state_row(id)?;
                    parts.push(self.extract(row, column)?);
                }
                self.construct(&parts)?
            }
        };
        self.cast(v, comp)
    }

    /// An operand of a BUFFER or BUFFER4 variable on a range of parameter
    /// buffers whose binding point a register picks ([`Index::BufferRange`],
    /// NV_gpu_program5 2.X.3.6): the binding point is the register's x plus
    /// the constant, clamped into the range (docs/semantics.md), and the
    /// element is read from its block only, one guarded read per binding
    /// point as `memory_targets` does for LDC, so that a block not picked
    /// is not read. Each binding point's variable has the same elements,
    /// so the element index is resolved once.
    fn load_buffer_range(
        &mut self,
        range: &crate::ir::BufferRangeIndex,
        comp: Comp,
        span: Span,
    ) -> LResult<Val> {
        let vars = &range.select.vars;
        let first = *vars
            .first()
            .ok_or_else(|| LowerError::internal_at("an empty range of buffers", span))?;
        let element = self.element(first, &range.element, span)?;
        let picked = self.picked_binding_point(&range.select)?;
        let ty = self.t(comp, 4);
        let result = self.function_variable_init(ty, Some("buffer_range"), None)?;
        for (k, &var) in vars.iter().enumerate() {
            let k = self.konst(Comp::I32, &[k as u32]);
            let here = self.cmp(Op::IEqual, picked, k)?;
            self.guarded_by(Some(here), |l| {
                let v = l.load_element(var, element, comp, span)?;
                l.store(result, v)
            })?;
        }
        self.load(result, comp, 4)
    }

    /// Element `element` of a BUFFER (`vec4 == false`: word `first + e`,
    /// replicated to (x, x, x, x)) or BUFFER4 (vec4 `first + e`) variable,
    /// NV_gpu_program4 section 2.X.3.6.
    fn load_buffer(
        &mut self,
        buffer: u32,
        first: u32,
        vec4: bool,
        element: Element,
        comp: Comp,
    ) -> LResult<Val> {
        let var = self.io.buffers.get(&buffer).copied().ok_or_else(|| {
            LowerError::internal(format!("program.buffer[{buffer}] was not declared"))
        })?;
        let zero = self.c_i32(0);
        let index = match element {
            Element::Fixed(n) => self.konst(Comp::I32, &[first.wrapping_add(n)]),
            Element::Dynamic(i) => {
                let f = self.konst(Comp::I32, &[first]);
                self.op(Op::IAdd, &[i, f])?
            }
        };
        let v = if vec4 {
            let uvec4 = self.t(Comp::U32, 4);
            let p = self.access(StorageClass::Uniform, uvec4, var, &[zero, index.id])?;
            self.load(p, Comp::U32, 4)?
        } else {
            // Word w is component w % 4 of vec4 w / 4.
            let (vector, component) = match element {
                Element::Fixed(n) => {
                    let w = first.wrapping_add(n);
                    (self.c_i32((w / 4) as i32), self.c_i32((w % 4) as i32))
                }
                Element::Dynamic(_) => {
                    let two = self.konst(Comp::I32, &[2]);
                    let three = self.konst(Comp::I32, &[3]);
                    let v = self.op(Op::ShiftRightArithmetic, &[index, two])?;
                    let c = self.op(Op::BitwiseAnd, &[index, three])?;
                    (v.id, c.id)
                }
            };
            let uint = self.t(Comp::U32, 1);
            let p = self.access(StorageClass::Uniform, uint, var, &[zero, vector, component])?;
            let word = self.load(p, Comp::U32, 1)?;
            self.splat(word, 4)?
        };
        self.cast(v, comp)
    }

    fn load_param_dynamic(
        &mut self,
        var: VarId,
        elements: &[ParamSource],
        i: Val,
        comp: Comp,
    ) -> LResult<Val> {
        // Consecutive elements of one block: index the block directly.
        if let Some(ParamSource::Block {
            block,
            element: base,
        }) = elements.first().copied()
        {
            let consecutive = elements.iter().enumerate().all(|(k, s)| {
                *s == ParamSource::Block {
                    block,
                    element: base.wrapping_add(k as u32),
                }
            });
            if consecutive && self.io.blocks[block.index()].is_some() {
                let base_id = self.konst(Comp::I32, &[base]);
                let index = self.op(Op::IAdd, &[i, base_id])?;
                let mut v = self.load_block_element(block, index.id)?;
                // Specialized elements are constants, not the block's
                // (docs/interface.md, "Specialization constants").
                for k in 0..elements.len() as u32 {
                    let key = (block, base.wrapping_add(k));
                    if let Some(&id) = self.io.specialized.get(&key) {
                        let spec = Val {
                            id,
                            comp: Comp::U32,
                            n: 4,
                        };
                        let kk = self.konst(Comp::I32, &[k]);
                        let hit = self.cmp(Op::IEqual, i, kk)?;
                        let hit4 = self.splat(hit, 4)?;
                        v = self.sel(hit4, spec, v)?;
                    }
                }
                return self.cast(v, comp);
            }
        }
        // Block elements at their own position (element base + k) mixed with
        // literals (a Direct3D 9 constant file with `def`s, indexed
        // relatively): index the block, then pick the literals by position,
        // one select per literal instead of one per element.
        if let Some(v) = self.load_block_with_literals(elements, i, comp)? {
            return Ok(v);
        }
        // Consecutive State rows (a matrix bound whole): index the block.
        if let Some(ParamSource::State(StateRead::Row {
            row: base,
            constant: [None, None, None, None],
        })) = elements.first().copied()
        {
            let consecutive = elements.iter().enumerate().all(|(k, s)| {
                *s == ParamSource::State(StateRead::Row {
                    row: base.wrapping_add(k as u32),
                    constant: [None; 4],
                })
            });
            if consecutive {
                let base_id = self.konst(Comp::I32, &[base]);
                let index = self.op(Op::IAdd, &[i, base_id])?;
                let v = self.state_row(index.id)?;
                return self.cast(v, comp);
            }
        }
        // All literals: a Private constant array of the read type.
        if elements
            .iter()
            .all(|s| matches!(s, ParamSource::Constant(_)))
        {
            let array = self.constant_array(var, elements, comp)?;
            let vec4 = self.t(comp, 4);
            let p = self.access(StorageClass::Private, vec4, array, &[i.id])?;
            return self.load(p, comp, 4);
        }
        let mut loads = Vec::with_capacity(elements.len());
        for &source in elements {
            loads.push(self.load_param(source, comp)?);
        }
        self.select_element(i, &loads)
    }

    /// See `load_param_dynamic`: `None` when `elements` are not block
    /// elements at their own positions plus literals.
    fn load_block_with_literals(
        &mut self,
        elements: &[ParamSource],
        i: Val,
        comp: Comp,
    ) -> LResult<Option<Val>> {
        let mut block_base = None;
        let mut last_block_position = 0u32;
        let mut literals = Vec::new();
        for (k, s) in elements.iter().enumerate() {
            match *s {
                ParamSource::Block { block, element } => {
                    let base = element.wrapping_sub(k as u32);
                    match block_base {
                        None => block_base = Some((block, base)),
                        Some(b) if b == (block, base) => {}
                        Some(_) => return Ok(None),
                    }
                    last_block_position = k as u32;
                }
                ParamSource::Constant(_) => literals.push((k as u32, *s)),
                _ => return Ok(None),
            }
        }
        let Some((block, base)) = block_base else {
            return Ok(None);
        };
        if literals.is_empty() {
            return Ok(None);
        }
        if self.io.blocks[block.index()].is_none() {
            return Ok(None);
        }
        // Positions of literals past the last block element must not index
        // past the block.
        let lo = self.konst(Comp::I32, &[0]);
        let hi = self.konst(Comp::I32, &[last_block_position]);
        let clamped = self.glsl(GLOp::SClamp, &[i, lo, hi])?;
        let base_id = self.konst(Comp::I32, &[base]);
        let index = self.op(Op::IAdd, &[clamped, base_id])?;
        let loaded = self.load_block_element(block, index.id)?;
        let mut value = self.cast(loaded, comp)?;
        // Specialized block elements are constants, not the block's
        // (docs/interface.md, "Specialization constants"): selected by
        // position like the literals.
        let specialized: Vec<(u32, ParamSource)> = elements
            .iter()
            .enumerate()
            .filter(|(_, s)| {
                matches!(s, ParamSource::Block { block, element }
                    if self.io.specialized.contains_key(&(*block, *element)))
            })
            .map(|(k, s)| (k as u32, *s))
            .collect();
        for (k, source) in specialized.into_iter().chain(literals) {
            let literal = self.load_param(source, comp)?;
            let position = self.konst(Comp::I32, &[k]);
            let hit = self.cmp(Op::IEqual, i, position)?;
            value = self.sel(hit, literal, value)?;
        }
        Ok(Some(value))
    }

    fn constant_array(
        &mut self,
        var: VarId,
        elements: &[ParamSource],
        comp: Comp,
    ) -> LResult<Word> {
        if let Some(&id) = self.io.const_arrays.get(&(var, comp)) {
            return Ok(id);
        }
        let mut parts = Vec::with_capacity(elements.len());
        for &source in elements {
            parts.push(self.load_param(source, comp)?.id);
        }
        let vec4 = self.t(comp, 4);
        let array_ty = self.t_array(vec4, elements.len() as u32);
        let init = self.c_composite(array_ty, parts);
        let name = match &self.program.var(var).name {
            Some(n) => format!("{n}_constants"),
            None => format!("param{}_constants", var.0),
        };
        let id = self.global_variable(array_ty, StorageClass::Private, Some(init), &name);
        self.io.const_arrays.insert((var, comp), id);
        Ok(id)
    }

    pub(crate) fn load_slot(&mut self, slot: IoSlot, comp: Comp) -> LResult<Val> {
        self.load_slot_at(slot, None, comp)
    }

    /// Loads an interface element; `vertex` selects the vertex of a
    /// geometry program's per-vertex input (an `i32` id) when the slot is
    /// indexed by the operand (`VertexSel::Indexed`).
    pub(crate) fn load_slot_at(
        &mut self,
        slot: IoSlot,
        vertex: Option<Word>,
        comp: Comp,
    ) -> LResult<Val> {
        let prefix = self.vertex_prefix(slot, vertex)?;
        let v = match slot.shape {
            // An Input variable of its own (not an element of a per-vertex
            // array) holds the same value for the whole run.
            IoShape::Vec4 if slot.class == StorageClass::Input && prefix.is_empty() => {
                self.load_read_only((slot.var, 0), slot.comp, |_| Ok(slot.var))?
            }
            IoShape::Vec4 if self.output_known_in_run(slot, &prefix) => {
                let run = self.b.straight_line_run();
                match self.register_values.outputs(run).get(&slot.var) {
                    Some(&v) => v,
                    None => {
                        let v = self.load(slot.var, slot.comp, 4)?;
                        self.register_values.outputs(run).insert(slot.var, v);
                        v
                    }
                }
            }
            IoShape::Vec4 => {
                let p = self.slot_pointer(slot, slot.comp, 4, &prefix)?;
                self.load(p, slot.comp, 4)?
            }
            IoShape::Scalar { component } => {
                let p = self.slot_pointer(slot, slot.comp, 1, &prefix)?;
                let s = self.load(p, slot.comp, 1)?;
                self.widen(s, component)?
            }
            // Locations n and n + 1 as one u64vec4 (or dvec4, i64vec4:
            // the type the read asks for), each uvec4 bitcast to two 64-bit
            // components, low word first as in the vertex buffer.
            IoShape::Long64 => {
                let wide = if comp.is_64() { comp } else { Comp::U64 };
                let uvec4 = self.t(Comp::U32, 4);
                let mut halves = Vec::with_capacity(2);
                for half in 0..2 {
                    let i = self.c_i32(half);
                    let p = self.access(slot.class, uvec4, slot.var, &[i])?;
                    let words = self.load(p, Comp::U32, 4)?;
                    let ty = self.t(wide, 2);
                    let id = self.emit(Op::Bitcast, ty, &[words.id])?;
                    halves.push(Val {
                        id,
                        comp: wide,
                        n: 2,
                    });
                }
                let v = self.shuffle(halves[0], halves[1], &[0, 1, 2, 3])?;
                return self.resize(v, comp);
            }
            IoShape::Partial { n } => {
                let p = self.slot_pointer(slot, slot.comp, n, &prefix)?;
                let v = self.load(p, slot.comp, n)?;
                let mut parts = Vec::with_capacity(4);
                for c in 0..n {
                    parts.push(self.extract(v, c)?);
                }
                for _ in n..4 {
                    parts.push(self.konst(slot.comp, &[0]));
                }
                self.construct(&parts)?
            }
            IoShape::GroupSize => {
                let size = self.program.compute.map(|c| c.group_size).ok_or_else(|| {
                    LowerError::internal("invocation.groupsize outside a compute program")
                })?;
                self.konst(Comp::U32, &[size[0], size[1], size[2], 0])
            }
            IoShape::InputVertexCount => {
                let layout = self.program.geometry.ok_or_else(|| {
                    LowerError::internal("primitive.vertexcount outside a geometry program")
                })?;
                self.konst(Comp::I32, &[layout.input.vertex_count(), 0, 0, 0])
            }
            IoShape::ClipElement { index } => {
                let float = self.t(Comp::F32, 1);
                let i = self.c_i32(index as i32);
                let mut indices = prefix;
                indices.push(i);
                let p = self.access(slot.class, float, slot.var, &indices)?;
                let s = self.load(p, Comp::F32, 1)?;
                self.widen(s, 0)?
            }
            IoShape::SampleMask => {
                let uint = self.t(Comp::U32, 1);
                let zero = self.c_i32(0);
                let p = self.access(slot.class, uint, slot.var, &[zero])?;
                let s = self.load(p, Comp::U32, 1)?;
                self.widen(s, 0)?
            }
            // (f, 0, 0, 1): the variable's x, then the ARB constants.
            IoShape::FogCoord => {
                let p = self.slot_pointer(slot, slot.comp, 4, &prefix)?;
                let v = self.load(p, slot.comp, 4)?;
                let f = self.extract(v, 0)?;
                let zero = self.konst(slot.comp, &[0]);
                let one = self.konst(
                    slot.comp,
                    &[if slot.comp == Comp::F32 { F32_ONE } else { 1 }],
                );
                self.construct(&[f, zero, zero, one])?
            }
            // NV_shader_thread_group 2.X.3.2: "-1 when the current thread
            // is a helper thread and 0 otherwise", in x.
            IoShape::Helper => {
                let helper = self.load(slot.var, Comp::Bool, 1)?;
                let yes = self.konst(Comp::I32, &[u32::MAX]);
                let no = self.konst(Comp::I32, &[0]);
                let x = self.sel(helper, yes, no)?;
                self.construct(&[x, no, no, no])?
            }
            // NV_fragment_program4: +1.0 front facing, -1.0 back facing, in x.
            IoShape::Facing => {
                let front = self.load(slot.var, Comp::Bool, 1)?;
                let pos = self.konst(Comp::F32, &[F32_ONE]);
                let neg = self.konst(Comp::F32, &[F32_NEG_ONE]);
                let x = self.sel(front, pos, neg)?;
                let zero = self.konst(Comp::F32, &[0]);
                let one = self.konst(Comp::F32, &[F32_ONE]);
                self.construct(&[x, zero, zero, one])?
            }
        };
        self.cast_loaded(v, comp)
    }

    /// `self.cast(v, comp)` of a loaded operand value, reused within the
    /// run: a register or parameter read as the same type again (each
    /// read of a `program.env` element as float bitcasts its `uvec4`) is
    /// the same id. Only loads go through here: an operand is never
    /// decorated by the instruction that reads it (`alu`'s
    /// `computed_here`), so sharing its id changes no decoration.
    fn cast_loaded(&mut self, v: Val, comp: Comp) -> LResult<Val> {
        if v.comp == comp {
            return Ok(v);
        }
        let run = self.b.straight_line_run();
        if let Some(id) = self.register_values.casts.get(run, v.id, comp as u32) {
            return Ok(Val { id, comp, n: v.n });
        }
        let cast = self.cast(v, comp)?;
        self.register_values
            .casts
            .insert(run, v.id, comp as u32, cast.id);
        Ok(cast)
    }

    /// A scalar placed in one component of a vec4 of zeros.
    fn widen(&mut self, s: Val, component: u8) -> LResult<Val> {
        let zero = self.konst(s.comp, &[0]);
        let mut parts = [zero; 4];
        parts[usize::from(component.min(3))] = s;
        self.construct(&parts)
    }

    pub(crate) fn store_element(
        &mut self,
        var: VarId,
        element: Element,
        value: Val,
        enable: &Enable,
        span: Span,
    ) -> LResult<()> {
        if enable.mask.0 == 0 {
            return Ok(());
        }
        let storage = self.storage_of(var, span)?;
        // LONG registers hold 64-bit components, everything else 32-bit
        // ones: a result of the other size is converted (2.X.4.1).
        let stored64 = matches!(storage, StorageRef::Register { comp, .. } if comp.is_64());
        let sized = if stored64 {
            value.comp.to_64()
        } else {
            value.comp.to_32()
        };
        let value = self.resize(value, sized)?;
        match storage {
            StorageRef::Register {
                ptr,
                class,
                comp,
                len,
            } => {
                let p = self.register_pointer(ptr, class, comp, len, element)?;
                let array = len.is_some();
                let old = self.known_register(var, element, array);
                let stored = self.merge_store_over(p, comp, value, enable, old)?;
                self.remember_register(var, element, array, stored);
                Ok(())
            }
            StorageRef::Param(_) => {
                Err(LowerError::internal_at("a write to a PARAM variable", span))
            }
            StorageRef::Buffer { .. } => Err(LowerError::internal_at(
                "a write to a BUFFER variable",
                span,
            )),
            StorageRef::Io(slots) => match element {
                Element::Fixed(n) => {
                    let slot = slots.get(n as usize).copied().ok_or_else(|| {
                        LowerError::internal_at("interface element out of range", span)
                    })?;
                    self.store_slot(slot, value, enable, span)
                }
                // Each element is its own variable: write the one the index
                // names, leave the others as they are.
                Element::Dynamic(i) => {
                    let base = self.enable_vector(enable);
                    for (e, slot) in slots.iter().enumerate() {
                        let k = self.konst(Comp::I32, &[e as u32]);
                        let hit = self.cmp(Op::IEqual, i, k)?;
                        let hit4 = self.splat(hit, 4)?;
                        let cond = self.and(base, hit4)?;
                        let e_enable = Enable {
                            mask: enable.mask,
                            dynamic: Some(cond),
                        };
                        self.store_slot(*slot, value, &e_enable, span)?;
                    }
                    Ok(())
                }
            },
        }
    }

    /// Stores the enabled components of `value` into a vec4 variable.
    pub(crate) fn merge_store(
        &mut self,
        ptr: Word,
        comp: Comp,
        value: Val,
        enable: &Enable,
    ) -> LResult<()> {
        if enable.mask.0 == 0 {
            return Ok(());
        }
        self.merge_store_over(ptr, comp, value, enable, None)
            .map(|_| ())
    }

    /// [`Lowerer::merge_store`] of a write that enables at least one
    /// component, over the variable's value `old` when it is known (else
    /// loaded); returns the whole value stored.
    fn merge_store_over(
        &mut self,
        ptr: Word,
        comp: Comp,
        value: Val,
        enable: &Enable,
        old: Option<Val>,
    ) -> LResult<Val> {
        let mut v = self.cast(value, comp)?;
        // A scalar result (`Lowerer::write_scalar_result`) written to one
        // component: inserted into the old value, with no broadcast first.
        if v.n == 1 && enable.dynamic.is_none() && enable.mask.0.count_ones() == 1 {
            let old = match old {
                Some(old) => old,
                None => self.load(ptr, comp, 4)?,
            };
            let ty = self.t(comp, 4);
            let id = self.emit(
                Op::CompositeInsert,
                ty,
                &[v.id, old.id, enable.mask.0.trailing_zeros()],
            )?;
            let merged = Val { id, comp, n: 4 };
            self.store(ptr, merged)?;
            return Ok(merged);
        }
        v = self.splat(v, 4)?;
        if enable.dynamic.is_none() && enable.mask == WriteMask::ALL {
            self.store(ptr, v)?;
            return Ok(v);
        }
        let old = match old {
            Some(old) => old,
            None => self.load(ptr, comp, 4)?,
        };
        let merged = match enable.dynamic {
            None => {
                let picks: [u32; 4] = std::array::from_fn(|c| {
                    if enable.mask.has(c) {
                        c as u32
                    } else {
                        c as u32 + 4
                    }
                });
                self.shuffle(v, old, &picks)?
            }
            Some(d) => self.sel(d, v, old)?,
        };
        self.store(ptr, merged)?;
        Ok(merged)
    }

    pub(crate) fn store_slot(
        &mut self,
        slot: IoSlot,
        value: Val,
        enable: &Enable,
        span: Span,
    ) -> LResult<()> {
        if slot.class != StorageClass::Output {
            return Err(LowerError::internal_at("a write to an attribute", span));
        }
        // A tessellation control program's per-vertex results are arrays
        // written at its invocation's element.
        let prefix = self.vertex_prefix(slot, None)?;
        let (ptr, component) = match slot.shape {
            IoShape::Vec4 if self.output_known_in_run(slot, &prefix) => {
                if enable.mask.0 == 0 {
                    return Ok(());
                }
                let run = self.b.straight_line_run();
                let old = self.register_values.outputs(run).get(&slot.var).copied();
                let stored = self.merge_store_over(slot.var, slot.comp, value, enable, old)?;
                self.register_values.outputs(run).insert(slot.var, stored);
                return Ok(());
            }
            IoShape::Vec4 => {
                let p = self.slot_pointer(slot, slot.comp, 4, &prefix)?;
                return self.merge_store(p, slot.comp, value, enable);
            }
            IoShape::Scalar { component } => {
                (self.slot_pointer(slot, slot.comp, 1, &prefix)?, component)
            }
            IoShape::ClipElement { index } => {
                let float = self.t(Comp::F32, 1);
                let mut indices = prefix;
                indices.push(self.c_i32(index as i32));
                (self.access(slot.class, float, slot.var, &indices)?, 0)
            }
            IoShape::SampleMask => {
                let uint = self.t(Comp::U32, 1);
                let zero = self.c_i32(0);
                (self.access(slot.class, uint, slot.var, &[zero])?, 0)
            }
            IoShape::Facing
            | IoShape::Helper
            | IoShape::Partial { .. }
            | IoShape::GroupSize
            | IoShape::InputVertexCount
            | IoShape::FogCoord
            | IoShape::Long64 => {
                return Err(LowerError::internal_at("a write to an attribute", span))
            }
        };
        // Only the component the binding carries is written (e.g. z of
        // result.depth, x of result.pointsize).
        if !enable.mask.has(usize::from(component)) {
            return Ok(());
        }
        let v = self.cast(value, slot.comp)?;
        let mut s = self.extract(v, u32::from(component))?;
        if let Some(d) = enable.dynamic {
            let cond = self.extract(d, u32::from(component))?;
            let old = self.load(ptr, slot.comp, 1)?;
            s = self.sel(cond, s, old)?;
        }
        self.store(ptr, s)
    }

    /// Whether the lowering keeps the value of `slot` within a run
    /// (`RegisterValues::outputs`): an Output variable that is one vec4 of
    /// its own. Not a tessellation control program's: its results are
    /// shared with the patch's other invocations, which write them too
    /// (NV_tessellation_program5 section 2.X.6.Y).
    fn output_known_in_run(&self, slot: IoSlot, prefix: &[Word]) -> bool {
        slot.class == StorageClass::Output
            && prefix.is_empty()
            && self.program.stage != crate::isa::Stage::TessControl
    }

    fn storage_of(&mut self, var: VarId, span: Span) -> LResult<StorageRef> {
        match self.storage.get(&var) {
            Some(Storage::Register {
                ptr,
                class,
                comp,
                len,
            }) => Ok(StorageRef::Register {
                ptr: *ptr,
                class: *class,
                comp: *comp,
                len: *len,
            }),
            Some(Storage::Param { elements }) => Ok(StorageRef::Param(elements.clone())),
            Some(Storage::Buffer {
                buffer,
                first,
                vec4,
            }) => Ok(StorageRef::Buffer {
                buffer: *buffer,
                first: *first,
                vec4: *vec4,
            }),
            Some(Storage::Io { elements }) => Ok(StorageRef::Io(elements.clone())),
            None => Err(LowerError::internal_at(
                format!("variable #{} has no storage", var.0),
                span,
            )),
        }
    }
}

/// A copy of a variable's storage description, so that lowering can borrow
/// the lowerer mutably while using it.
enum StorageRef {
    Register {
        ptr: Word,
        class: StorageClass,
        comp: Comp,
        len: Option<u32>,
    },
    Param(std::rc::Rc<[ParamSource]>),
    Io(std::rc::Rc<[IoSlot]>),
    Buffer {
        buffer: u32,
        first: u32,
        vec4: bool,
    },
}
