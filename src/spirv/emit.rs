//! The small vocabulary every other module speaks: SPIR-V types, cached
//! constants, and typed values with one helper per kind of instruction.
//!
//! Values are `Val { id, comp, n }`: an SSA id with its component type and
//! component count (1 for a scalar, 2 or 4 for a vector). Every helper
//! derives the result type from its operands, so callers never spell a type
//! id by hand.

use rspirv::spirv::{Decoration, GlslStd450Op as GLOp, Op, StorageClass, Word};

use super::{LowerError, Lowerer};
use crate::isa::DataType;

/// The component type of a SPIR-V value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Comp {
    F32,
    I32,
    U32,
    Bool,
    /// The 64-bit components of NV_gpu_program5's `.F64`, `.S64`, `.U64`
    /// and LONG variables (wide.rs); capabilities Float64 and Int64.
    F64,
    I64,
    U64,
}

impl Comp {
    /// How many kinds there are (the length of the type cache,
    /// `Lowerer::value_types`).
    pub(crate) const COUNT: usize = Comp::U64 as usize + 1;
}

impl From<DataType> for Comp {
    fn from(ty: DataType) -> Comp {
        match ty {
            DataType::Float => Comp::F32,
            DataType::Signed => Comp::I32,
            DataType::Unsigned => Comp::U32,
        }
    }
}

impl Comp {
    pub(crate) fn is_integer(self) -> bool {
        matches!(self, Comp::I32 | Comp::U32 | Comp::I64 | Comp::U64)
    }
    /// Whether it is one of the 64-bit component types.
    pub(crate) fn is_64(self) -> bool {
        matches!(self, Comp::F64 | Comp::I64 | Comp::U64)
    }
    /// The type of the same base type with 64-bit components.
    pub(crate) fn to_64(self) -> Comp {
        match self {
            Comp::F32 => Comp::F64,
            Comp::I32 => Comp::I64,
            Comp::U32 => Comp::U64,
            other => other,
        }
    }
    /// The type of the same base type with 32-bit components.
    pub(crate) fn to_32(self) -> Comp {
        match self {
            Comp::F64 => Comp::F32,
            Comp::I64 => Comp::I32,
            Comp::U64 => Comp::U32,
            other => other,
        }
    }
    /// The component type of `ty` at 32 or 64 bits.
    pub(crate) fn sized(ty: DataType, bits64: bool) -> Comp {
        let c = Comp::from(ty);
        if bits64 {
            c.to_64()
        } else {
            c
        }
    }
}

/// A SPIR-V value: scalar when `n == 1`, otherwise a vector of `n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Val {
    pub id: Word,
    pub comp: Comp,
    pub n: u32,
}

/// Keys of the type cache (rspirv deduplicates plain types itself, but a
/// map avoids scanning the whole global section on every lookup).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum TypeKey {
    Void,
    VoidFn,
    Value(Comp, u32),
    Pointer(u32, Word),
    Array(Word, u32),
    /// The `{ T, T }` result of OpSMulExtended / OpUMulExtended.
    Pair(Word),
}

pub(crate) type LResult<T> = Result<T, LowerError>;

/// The constant cache, one map per shape of key so that the common
/// lookups allocate nothing.
#[derive(Default)]
pub(crate) struct ConstCache {
    /// (type, bits) of scalars.
    scalars: rustc_hash::FxHashMap<(Word, u32), Word>,
    /// (type, bits) of 64-bit scalars.
    scalars64: rustc_hash::FxHashMap<(Word, u64), Word>,
    /// (type, component ids, unused ones 0) of vectors.
    vectors: rustc_hash::FxHashMap<(Word, [Word; 4]), Word>,
    /// The same vectors by their component type, size and bits (unused
    /// ones 0): one lookup instead of one per component and the vector's
    /// (`Lowerer::konst`).
    vectors_by_bits: rustc_hash::FxHashMap<(Comp, u32, [u32; 4]), Word>,
    /// Arrays (register initialisers).
    composites: rustc_hash::FxHashMap<(Word, Vec<Word>), Word>,
}

pub(crate) const F32_INF: u32 = 0x7f80_0000;
pub(crate) const F32_NEG_INF: u32 = 0xff80_0000;
pub(crate) const F32_NAN: u32 = 0x7fc0_0000;
pub(crate) const F32_ONE: u32 = 0x3f80_0000;
pub(crate) const F32_NEG_ONE: u32 = 0xbf80_0000;
pub(crate) const SIGN_BIT: u32 = 0x8000_0000;

impl Lowerer<'_> {
    // ---- types ----------------------------------------------------------

    pub(crate) fn t_void(&mut self) -> Word {
        if let Some(&t) = self.types.get(&TypeKey::Void) {
            return t;
        }
        let t = self.b.type_void();
        self.types.insert(TypeKey::Void, t);
        t
    }

    pub(crate) fn t_void_fn(&mut self) -> Word {
        if let Some(&t) = self.types.get(&TypeKey::VoidFn) {
            return t;
        }
        let void = self.t_void();
        let t = self.b.type_function(void, []);
        self.types.insert(TypeKey::VoidFn, t);
        t
    }

    /// The type of `n` components of `comp` (a scalar when `n == 1`).
    ///
    /// Inlined for its common case, a type already made: nearly every
    /// emitted instruction asks for one, and the call itself was most of
    /// its cost (docs/performance.md, "Session 8").
    #[inline]
    pub(crate) fn t(&mut self, comp: Comp, n: u32) -> Word {
        if let Some(&t) = self.value_types[comp as usize].get(n.wrapping_sub(1) as usize) {
            if t != 0 {
                return t;
            }
        }
        self.t_new(comp, n)
    }

    /// `t` for a type not in `value_types` yet.
    #[cold]
    fn t_new(&mut self, comp: Comp, n: u32) -> Word {
        let slot = (1..=4)
            .contains(&n)
            .then(|| (comp as usize, n as usize - 1));
        let key = TypeKey::Value(comp, n);
        if let Some(&t) = self.types.get(&key) {
            if let Some((c, i)) = slot {
                self.value_types[c][i] = t;
            }
            return t;
        }
        let t = if n == 1 {
            match comp {
                Comp::F32 => self.b.type_float(32, None),
                Comp::I32 => self.b.type_int(32, 1),
                Comp::U32 => self.b.type_int(32, 0),
                Comp::Bool => self.b.type_bool(),
                Comp::F64 => {
                    self.capability(rspirv::spirv::Capability::Float64);
                    self.b.type_float(64, None)
                }
                Comp::I64 | Comp::U64 => {
                    self.capability(rspirv::spirv::Capability::Int64);
                    self.b.type_int(64, u32::from(comp == Comp::I64))
                }
            }
        } else {
            let scalar = self.t(comp, 1);
            self.b.type_vector(scalar, n)
        };
        self.types.insert(key, t);
        if let Some((c, i)) = slot {
            self.value_types[c][i] = t;
        }
        t
    }

    pub(crate) fn t_of(&mut self, v: Val) -> Word {
        self.t(v.comp, v.n)
    }

    pub(crate) fn t_ptr(&mut self, class: StorageClass, pointee: Word) -> Word {
        let key = TypeKey::Pointer(class as u32, pointee);
        if let Some(&t) = self.types.get(&key) {
            return t;
        }
        let t = self.b.type_pointer(None, class, pointee);
        self.types.insert(key, t);
        t
    }

    /// An array type without layout decorations (for Private / Function /
    /// Input / Output storage).
    pub(crate) fn t_array(&mut self, element: Word, len: u32) -> Word {
        let key = TypeKey::Array(element, len);
        if let Some(&t) = self.types.get(&key) {
            return t;
        }
        let len_id = self.c_u32(len);
        // An explicit id skips rspirv's deduplication, which could hand back
        // the std140 array of a uniform block (decorated with ArrayStride,
        // which Private and Function storage must not use).
        let id = self.b.id();
        let t = self.b.type_array_id(Some(id), element, len_id);
        self.types.insert(key, t);
        t
    }

    pub(crate) fn t_pair(&mut self, member: Word) -> Word {
        let key = TypeKey::Pair(member);
        if let Some(&t) = self.types.get(&key) {
            return t;
        }
        let t = self.b.type_struct([member, member]);
        self.types.insert(key, t);
        t
    }

    // ---- constants ------------------------------------------------------

    /// A scalar constant with the given bit pattern (0 / 1 for booleans).
    pub(crate) fn c_scalar(&mut self, comp: Comp, bits: u32) -> Word {
        let ty = self.t(comp, 1);
        // Keys are plain words: this runs for nearly every instruction, and
        // a `Vec` key cost an allocation per lookup (docs/performance.md).
        if let Some(&c) = self.consts.scalars.get(&(ty, bits)) {
            return c;
        }
        let c = match comp {
            Comp::Bool if bits != 0 => self.b.constant_true(ty),
            Comp::Bool => self.b.constant_false(ty),
            _ => self.b.constant_bit32(ty, bits),
        };
        self.consts.scalars.insert((ty, bits), c);
        c
    }

    /// A 64-bit scalar constant with the given bit pattern.
    pub(crate) fn c_scalar64(&mut self, comp: Comp, bits: u64) -> Word {
        let ty = self.t(comp, 1);
        if let Some(&c) = self.consts.scalars64.get(&(ty, bits)) {
            return c;
        }
        let c = self.b.constant_bit64(ty, bits);
        self.consts.scalars64.insert((ty, bits), c);
        c
    }

    /// `n` components of the 64-bit constant `bits`.
    pub(crate) fn splat_const64(&mut self, comp: Comp, bits: u64, n: u32) -> Val {
        let c = self.c_scalar64(comp, bits);
        let v = Val { id: c, comp, n: 1 };
        if n == 1 {
            return v;
        }
        let ty = self.t(comp, n);
        let parts = vec![c; n as usize];
        let id = self.c_composite(ty, parts);
        Val { id, comp, n }
    }

    pub(crate) fn c_u32(&mut self, v: u32) -> Word {
        self.c_scalar(Comp::U32, v)
    }

    pub(crate) fn c_i32(&mut self, v: i32) -> Word {
        self.c_scalar(Comp::I32, v as u32)
    }

    /// A constant value of `bits.len()` components (at most 4).
    pub(crate) fn konst(&mut self, comp: Comp, bits: &[u32]) -> Val {
        let n = bits.len() as u32;
        if n == 1 {
            return Val {
                id: self.c_scalar(comp, bits[0]),
                comp,
                n,
            };
        }
        if n > 4 {
            // Not a value of the language; keeps the fixed-size key honest.
            let parts: Vec<Word> = bits.iter().map(|&b| self.c_scalar(comp, b)).collect();
            let ty = self.t(comp, n);
            let id = self.c_composite(ty, parts);
            return Val { id, comp, n };
        }
        let mut key = [0; 4];
        key[..bits.len()].copy_from_slice(bits);
        if let Some(&id) = self.consts.vectors_by_bits.get(&(comp, n, key)) {
            // Its components and type were made with it, so this is the
            // id the lookups below would find.
            return Val { id, comp, n };
        }
        let mut parts = [0; 4];
        for (p, &b) in parts.iter_mut().zip(bits) {
            *p = self.c_scalar(comp, b);
        }
        let ty = self.t(comp, n);
        let id = match self.consts.vectors.get(&(ty, parts)) {
            Some(&c) => c,
            None => {
                let c = self
                    .b
                    .constant_composite(ty, parts[..n as usize].iter().copied());
                self.consts.vectors.insert((ty, parts), c);
                c
            }
        };
        self.consts.vectors_by_bits.insert((comp, n, key), id);
        Val { id, comp, n }
    }

    pub(crate) fn splat_const(&mut self, comp: Comp, bits: u32, n: u32) -> Val {
        if n <= 4 {
            let all = [bits; 4];
            self.konst(comp, &all[..n as usize])
        } else {
            self.konst(comp, &vec![bits; n as usize])
        }
    }

    /// A composite constant of an arbitrary (array) type from member ids.
    pub(crate) fn c_composite(&mut self, ty: Word, parts: Vec<Word>) -> Word {
        if let Some(&c) = self.consts.composites.get(&(ty, parts.clone())) {
            return c;
        }
        let c = self.b.constant_composite(ty, parts.iter().copied());
        self.consts.composites.insert((ty, parts), c);
        c
    }

    pub(crate) fn bool_mask(&mut self, mask: u8) -> Val {
        let bits: [u32; 4] = std::array::from_fn(|c| u32::from(mask & (1 << c) != 0));
        self.konst(Comp::Bool, &bits)
    }

    // ---- instructions ---------------------------------------------------

    /// Emits `op` with a result of type `result_ty` and id operands.
    pub(crate) fn emit(&mut self, op: Op, result_ty: Word, operands: &[Word]) -> LResult<Word> {
        let id = self.b.id();
        self.b
            .inst(op, Some(result_ty), Some(id), operands.iter().copied())?;
        Ok(id)
    }

    /// An operation whose result has the type of its first operand.
    pub(crate) fn op(&mut self, op: Op, args: &[Val]) -> LResult<Val> {
        let first = args[0];
        let ty = self.t_of(first);
        // Operations take at most three operands: no allocation per use.
        let mut ids = [0; 4];
        let n = args.len().min(4);
        for (d, a) in ids.iter_mut().zip(args) {
            *d = a.id;
        }
        let id = if args.len() <= 4 {
            self.emit(op, ty, &ids[..n])?
        } else {
            let ids: Vec<Word> = args.iter().map(|a| a.id).collect();
            self.emit(op, ty, &ids)?
        };
        // Floating-point arithmetic is rounded per operation as the
        // pseudocode of section 2.X.8 writes it; NoContraction keeps the
        // driver from fusing a multiply and an add into one rounding.
        if matches!(op, Op::FAdd | Op::FSub | Op::FMul | Op::FDiv) {
            self.b.decorate(id, Decoration::NoContraction, []);
        }
        Ok(Val { id, ..first })
    }

    /// A comparison: a boolean value of the operands' width.
    pub(crate) fn cmp(&mut self, op: Op, a: Val, b: Val) -> LResult<Val> {
        let ty = self.t(Comp::Bool, a.n);
        let id = self.emit(op, ty, &[a.id, b.id])?;
        Ok(Val {
            id,
            comp: Comp::Bool,
            n: a.n,
        })
    }

    /// A test of one operand (OpIsNan, OpAny, ...) giving booleans of
    /// `n` components.
    pub(crate) fn test(&mut self, op: Op, a: Val, n: u32) -> LResult<Val> {
        let ty = self.t(Comp::Bool, n);
        let id = self.emit(op, ty, &[a.id])?;
        Ok(Val {
            id,
            comp: Comp::Bool,
            n,
        })
    }

    pub(crate) fn any(&mut self, v: Val) -> LResult<Val> {
        if v.n == 1 {
            return Ok(v);
        }
        self.test(Op::Any, v, 1)
    }

    /// `cond ? a : b`, component-wise. A scalar condition on a vector is
    /// widened first (SPIR-V before 1.4 requires matching widths).
    pub(crate) fn sel(&mut self, cond: Val, a: Val, b: Val) -> LResult<Val> {
        let cond = if cond.n != a.n {
            self.splat(cond, a.n)?
        } else {
            cond
        };
        let ty = self.t_of(a);
        let id = self.emit(Op::Select, ty, &[cond.id, a.id, b.id])?;
        Ok(Val { id, ..a })
    }

    /// Reinterprets the bits of `v` as `comp` (no-op when equal).
    pub(crate) fn cast(&mut self, v: Val, comp: Comp) -> LResult<Val> {
        if v.comp == comp {
            return Ok(v);
        }
        if v.comp == Comp::Bool || comp == Comp::Bool {
            return Err(LowerError::internal("bitcast involving a boolean value"));
        }
        let ty = self.t(comp, v.n);
        let id = self.emit(Op::Bitcast, ty, &[v.id])?;
        Ok(Val { id, comp, n: v.n })
    }

    /// A numeric conversion (OpConvertFToS and friends).
    pub(crate) fn convert(&mut self, op: Op, v: Val, comp: Comp) -> LResult<Val> {
        // A float-to-integer conversion of NaN or of a value outside the
        // integer's range is undefined in SPIR-V, and LLVM-based drivers
        // make it a poison value that can change unrelated results (found
        // by the differential test). The spec leaves those results
        // undefined too; nvp4c saturates first (docs/semantics.md), so the
        // rest of the program stays defined.
        let v = match op {
            // [-2^31, the largest float below 2^31]
            Op::ConvertFToS => self.saturate(v, 0xcf00_0000, 0x4eff_ffff)?,
            // [0, the largest float below 2^32]
            Op::ConvertFToU => self.saturate(v, 0, 0x4f7f_ffff)?,
            _ => v,
        };
        let ty = self.t(comp, v.n);
        let id = self.emit(op, ty, &[v.id])?;
        Ok(Val { id, comp, n: v.n })
    }

    /// `v` clamped into [lo, hi] (float bit patterns); NaN becomes `lo`.
    /// Ordered comparisons and selects, not NMin/NMax, so a driver that
    /// assumes no NaN cannot fold the NaN case away.
    fn saturate(&mut self, v: Val, lo: u32, hi: u32) -> LResult<Val> {
        let lo = self.splat_const(Comp::F32, lo, v.n);
        let hi = self.splat_const(Comp::F32, hi, v.n);
        let above = self.cmp(Op::FOrdGreaterThanEqual, v, lo)?;
        let v = self.sel(above, v, lo)?;
        let below = self.cmp(Op::FOrdLessThanEqual, v, hi)?;
        self.sel(below, v, hi)
    }

    /// A GLSL.std.450 instruction whose result has the type of `args[0]`.
    pub(crate) fn glsl(&mut self, inst: GLOp, args: &[Val]) -> LResult<Val> {
        let ty = self.t_of(args[0]);
        self.glsl_typed(inst, ty, args[0].comp, args[0].n, args)
    }

    pub(crate) fn glsl_typed(
        &mut self,
        inst: GLOp,
        ty: Word,
        comp: Comp,
        n: u32,
        args: &[Val],
    ) -> LResult<Val> {
        let id = self.b.ext_inst(
            ty,
            None,
            self.glsl_set,
            inst as u32,
            args.iter().map(|a| a.id),
        )?;
        Ok(Val { id, comp, n })
    }

    pub(crate) fn extract(&mut self, v: Val, index: u32) -> LResult<Val> {
        if v.n == 1 {
            return Ok(v);
        }
        // Values are SSA and a run is one block: an extract of this run
        // dominates the rest of it (`operand::RegisterValues::extracts`).
        let run = self.b.straight_line_run();
        if let Some(id) = self.register_values.extracted(run, v.id, index) {
            return Ok(Val {
                id,
                comp: v.comp,
                n: 1,
            });
        }
        let ty = self.t(v.comp, 1);
        let id = self.b.composite_extract(ty, None, v.id, [index])?;
        self.register_values.remember_extract(run, v.id, index, id);
        Ok(Val {
            id,
            comp: v.comp,
            n: 1,
        })
    }

    /// A vector from scalars of one component type.
    pub(crate) fn construct(&mut self, parts: &[Val]) -> LResult<Val> {
        let comp = parts[0].comp;
        let n = parts.len() as u32;
        let ty = self.t(comp, n);
        let id = self
            .b
            .composite_construct(ty, None, parts.iter().map(|p| p.id))?;
        Ok(Val { id, comp, n })
    }

    /// Replicates a scalar into `n` components.
    pub(crate) fn splat(&mut self, s: Val, n: u32) -> LResult<Val> {
        if s.n == n {
            return Ok(s);
        }
        let s = self.extract(s, 0)?;
        let v = if n <= 4 {
            self.construct(&[s; 4][..n as usize])?
        } else {
            self.construct(&vec![s; n as usize])?
        };
        // Every component of the broadcast is `s`.
        let run = self.b.straight_line_run();
        for c in 0..n {
            self.register_values.remember_extract(run, v.id, c, s.id);
        }
        Ok(v)
    }

    /// Component selection from the concatenation of `a` and `b`.
    pub(crate) fn shuffle(&mut self, a: Val, b: Val, comps: &[u32]) -> LResult<Val> {
        let n = comps.len() as u32;
        let ty = self.t(a.comp, n);
        let id = self
            .b
            .vector_shuffle(ty, None, a.id, b.id, comps.iter().copied())?;
        Ok(Val {
            id,
            comp: a.comp,
            n,
        })
    }

    pub(crate) fn swizzle(&mut self, v: Val, comps: [u8; 4]) -> LResult<Val> {
        if comps == [0, 1, 2, 3] && v.n == 4 {
            return Ok(v);
        }
        let c = comps.map(u32::from);
        self.shuffle(v, v, &c)
    }

    pub(crate) fn load(&mut self, ptr: Word, comp: Comp, n: u32) -> LResult<Val> {
        let ty = self.t(comp, n);
        let id = self.b.load(ty, None, ptr, None, [])?;
        Ok(Val { id, comp, n })
    }

    pub(crate) fn store(&mut self, ptr: Word, v: Val) -> LResult<()> {
        self.b.store(ptr, v.id, None, [])?;
        Ok(())
    }

    /// A pointer to a member of `base`, of pointee type `pointee`.
    pub(crate) fn access(
        &mut self,
        class: StorageClass,
        pointee: Word,
        base: Word,
        indices: &[Word],
    ) -> LResult<Word> {
        let ptr_ty = self.t_ptr(class, pointee);
        Ok(self
            .b
            .access_chain(ptr_ty, None, base, indices.iter().copied())?)
    }

    pub(crate) fn relaxed(&mut self, v: Val) {
        self.b.decorate(v.id, Decoration::RelaxedPrecision, []);
    }

    // ---- common arithmetic shapes --------------------------------------

    pub(crate) fn not(&mut self, v: Val) -> LResult<Val> {
        self.op(Op::LogicalNot, &[v])
    }
    pub(crate) fn and(&mut self, a: Val, b: Val) -> LResult<Val> {
        self.op(Op::LogicalAnd, &[a, b])
    }
    pub(crate) fn or(&mut self, a: Val, b: Val) -> LResult<Val> {
        self.op(Op::LogicalOr, &[a, b])
    }

    /// Component-wise negation of a float or integer (two's complement for
    /// unsigned, section 2.X.4.2).
    pub(crate) fn negate(&mut self, v: Val) -> LResult<Val> {
        match v.comp {
            // The sign bit is flipped as an integer, which is what OpFNegate
            // does, because lavapipe's (Mesa 22.3) range analysis takes
            // fneg(a.w) * fneg(a.x) for a square, "never negative", and
            // drops a later |...| of it (the differential test found MAX of
            // |(-a.w)*(-a.x)| giving the wrong operand).
            Comp::F32 => {
                let bits = self.cast(v, Comp::U32)?;
                let sign = self.splat_const(Comp::U32, SIGN_BIT, v.n);
                let flipped = self.op(Op::BitwiseXor, &[bits, sign])?;
                self.cast(flipped, Comp::F32)
            }
            Comp::F64 => {
                let bits = self.cast(v, Comp::U64)?;
                let sign = self.splat_const64(Comp::U64, 1 << 63, v.n);
                let flipped = self.op(Op::BitwiseXor, &[bits, sign])?;
                self.cast(flipped, Comp::F64)
            }
            _ => self.op(Op::SNegate, &[v]),
        }
    }

    /// |x| of signed integers, with |INT_MIN| = INT_MIN (two's complement,
    /// as the spec's integer negation). Computed as (x ^ m) - m with m the
    /// sign mask, not GLSL.std.450 SAbs: LLVM-based drivers lower SAbs to an
    /// abs that is poison for INT_MIN and fold code after it on the
    /// assumption that the result is not negative (found by the
    /// differential test on lavapipe).
    pub(crate) fn signed_abs(&mut self, x: Val) -> LResult<Val> {
        let top = if x.comp.is_64() { 63 } else { 31 };
        let shift = self.splat_const(Comp::U32, top, x.n);
        let m = self.op(Op::ShiftRightArithmetic, &[x, shift])?;
        let flipped = self.op(Op::BitwiseXor, &[x, m])?;
        self.op(Op::ISub, &[flipped, m])
    }

    /// The float with the magnitude of `magnitude_bits` and the sign bit of
    /// `sign_of` (bit patterns, `n` components).
    pub(crate) fn with_sign_of(&mut self, magnitude_bits: u32, sign_of: Val) -> LResult<Val> {
        let bits = self.cast(sign_of, Comp::U32)?;
        let sign_mask = self.splat_const(Comp::U32, SIGN_BIT, bits.n);
        let sign = self.op(Op::BitwiseAnd, &[bits, sign_mask])?;
        let mag = self.splat_const(Comp::U32, magnitude_bits, bits.n);
        let r = self.op(Op::BitwiseOr, &[sign, mag])?;
        self.cast(r, Comp::F32)
    }
}

/// `spirv::StorageClass` of a function-local or program-global register.
pub(crate) fn register_class(private: bool) -> StorageClass {
    if private {
        StorageClass::Private
    } else {
        StorageClass::Function
    }
}
