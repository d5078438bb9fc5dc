//! The instructions of section 2.X.8, each from its pseudocode.
//!
//! An instruction runs in this order (sections 2.X.4.1 and 2.X.4.3): the
//! condition code write mask is evaluated (it reads the register before
//! this instruction updates it), the operands are loaded, the result is
//! computed as four components of the result type (a scalar result is
//! replicated), clamped (SAT / SSAT, floats only), the condition code is
//! updated on the enabled components, and the destination is written.
//!
//! Numerics follow the spec rather than GLSL's undefined cases: RCP, RSQ,
//! LG2, EX2, POW and DIV get explicit selects for zeros, infinities and
//! NaNs ("normal IEEE floating-point rules", issue 18 of
//! NV_gpu_program4), and every float multiply / add carries NoContraction
//! so results are rounded per operation as the pseudocode writes them.
//! Components the spec calls undefined (XPD.w, NRM.w, RFL.w, SCS.zw) are
//! written as 0.0.

use rspirv::spirv::{GlslStd450Op as GLOp, Op};

use super::cc::AddSub;
use super::emit::{Comp, LResult, Val, F32_INF, F32_NAN, F32_NEG_INF, F32_NEG_ONE, F32_ONE};

/// The smallest normal f32, 2^-126.
const F32_MIN_NORMAL: u32 = 0x0080_0000;
use super::operand::Loaded;
use super::wide::F64_ONE;
use super::{LowerError, Lowerer};
use crate::ir::{Clamp, ExtSwizzleSel, Instruction, MulMode};
use crate::isa::{DataType, OpInfo, Opcode, ResultKind, Shape};

/// 0.5 in f32 bits.
const F32_HALF: u32 = 0x3f00_0000;
/// 2^-64 and 2^64 (RCC's clamping range).
const F32_2_POW_M64: u32 = 0x1f80_0000;
const F32_2_POW_64: u32 = 0x5f80_0000;
/// The largest float below 128.0: LIT's "128.0 - epsilon".
const F32_128_MINUS_EPS: u32 = 0x42ff_ffff;
/// -128/127, PK4B's lower bound.
const F32_M128_OVER_127: u32 = 0xbf81_0204;

/// A computed result: four components of the result type, and for integer
/// adds and subtracts the operands of the carry / overflow computation.
struct Computed {
    value: Val,
    addsub: Option<AddSub>,
}

impl From<Val> for Computed {
    fn from(value: Val) -> Computed {
        Computed {
            value,
            addsub: None,
        }
    }
}

fn f32_bits(x: f32) -> u32 {
    x.to_bits()
}

impl Lowerer<'_> {
    pub(crate) fn lower_instruction(&mut self, inst: &Instruction) -> LResult<()> {
        // Nothing reads what it writes (live.rs, docs/semantics.md).
        if !self.live.inst_needed(inst) {
            return Ok(());
        }
        self.lower_instruction_inner(inst)
            .map_err(|e| e.at(inst.span))
    }

    fn lower_instruction_inner(&mut self, inst: &Instruction) -> LResult<()> {
        let info = OpInfo::of(inst.op);
        match info.shape {
            // Texture instructions load, clamp, update CCs and write like
            // the others; texture.rs computes their result.
            Shape::Alu
            | Shape::Swz
            | Shape::Tex
            | Shape::Txd
            | Shape::Memory
            | Shape::SharedMemory
            | Shape::GlobalMemory
            | Shape::Image => {}
            _ => {
                return Err(LowerError::internal_at(
                    format!("{} is not an ALU instruction", info.name),
                    inst.span,
                ))
            }
        }
        if info.only_stage.is_some_and(|s| s != self.program.stage) {
            return Err(LowerError::internal_at(
                format!("{} in a {} program", info.name, self.program.stage),
                inst.span,
            ));
        }
        let Some(result_type) = info.result_type(inst.ty) else {
            return Err(LowerError::internal_at(
                format!("{} without a result", info.name),
                inst.span,
            ));
        };
        if inst.srcs.len() != inst.operand_kinds().count() {
            return Err(LowerError::internal_at(
                format!("{} with {} operands", info.name, inst.srcs.len()),
                inst.span,
            ));
        }
        // The CC write mask reads the register before the update below.
        let enable = self.enable(inst.dst.mask, inst.dst.cc_mask.as_ref())?;
        // The loaded operands go to a buffer the lowerer keeps: a `Vec`
        // allocated and freed per instruction was ≈ 90 instructions of
        // each (docs/performance.md, "Session 11"). Taken out of `self`
        // while `compute` borrows it, and put back at the end.
        let mut srcs = std::mem::take(&mut self.loaded_operands);
        srcs.clear();
        // LDC's operand is memory: its modifiers apply to what
        // `memory_load` reads (compute).
        let loaded_srcs = if inst.op == Opcode::Ldc {
            &[][..]
        } else {
            &inst.srcs[..]
        };
        for (src, kind) in loaded_srcs.iter().zip(inst.operand_kinds()) {
            // CVT's operand has the type of its second storage modifier.
            let expected = match inst.convert {
                Some(c) => c.from.ty,
                None => kind.type_rule().resolve(inst.ty),
            };
            if src.ty != expected {
                return Err(LowerError::internal_at(
                    format!(
                        "{} operand read as {:?}, Table X.13 says {:?}",
                        info.name, src.ty, expected
                    ),
                    src.span,
                ));
            }
            // 64-bit instructions, and UP64's operand, read 64-bit values.
            let bits64 = inst.precision64
                || inst.op == Opcode::Up64
                || inst
                    .convert
                    .is_some_and(|c| c.from.bits == 64 || c.long_half_operand);
            let mut loaded = if self.i2f64_reads_32_bit_register(inst, src) {
                self.i2f64_operand_of_32_bit_register(src, kind.is_scalar())?
            } else {
                self.load_operand_sized(src, kind.is_scalar(), bits64)?
            };
            if inst.fixed && loaded.value.comp == Comp::F32 {
                loaded.value = self.round_to_fixed(loaded.value)?;
            }
            srcs.push(loaded);
        }
        // The integer adds keep the operands of their carry and overflow
        // flags (section 2.X.4.3) at either width: `compute` lowers them
        // for 64-bit operands too.
        let integer_add = matches!(
            inst.op,
            Opcode::Add | Opcode::Sub | Opcode::Mad | Opcode::Sad
        ) && inst.ty != DataType::Float;
        let computed = if inst.precision64 && !integer_add {
            self.compute64(inst, &srcs)?.into()
        } else {
            self.compute(inst, info, &srcs)?
        };
        let mut value = match info.result {
            ResultKind::Scalar(_) if self.write_scalar_result(inst, result_type) => computed.value,
            ResultKind::Scalar(_) => self.splat(computed.value, 4)?,
            _ => computed.value,
        };
        // NV_fragment_program_option X precision: the result is fixed point
        // too, before any clamp.
        if inst.fixed && value.comp == Comp::F32 {
            value = self.round_to_fixed(value)?;
        }
        let result64 = inst.result64();
        if (value.n != 4 && value.n != 1) || value.comp != Comp::sized(result_type, result64) {
            return Err(LowerError::internal_at(
                format!(
                    "{}.{} is not lowered for this data type",
                    info.name,
                    inst.ty.name()
                ),
                inst.span,
            ));
        }
        // Section 2.X.4.1: clamping applies to floating-point results,
        // before the condition code update and the write. NMin / NMax take
        // a NaN to the lower bound.
        // (CVT to F16 clamps before rounding: `cvt`.)
        let half_result = inst.convert.is_some_and(|c| c.to.is_half());
        if let Some(clamp) = inst
            .clamp
            .filter(|_| result_type == DataType::Float && !half_result)
        {
            let (lo, hi) = match (clamp, value.comp) {
                (Clamp::Sat, Comp::F64) => (self.splat_const64(Comp::F64, 0, 4), None),
                (Clamp::Ssat, Comp::F64) => {
                    (self.splat_const64(Comp::F64, F64_ONE | 1 << 63, 4), None)
                }
                (Clamp::Sat, _) => (self.splat_const(Comp::F32, 0, 4), Some(F32_ONE)),
                (Clamp::Ssat, _) => (self.splat_const(Comp::F32, F32_NEG_ONE, 4), Some(F32_ONE)),
            };
            let hi = match hi {
                Some(one) => self.splat_const(Comp::F32, one, 4),
                None => self.splat_const64(Comp::F64, F64_ONE, 4),
            };
            let v = self.glsl(GLOp::NMax, &[value, lo])?;
            value = self.glsl(GLOp::NMin, &[v, hi])?;
        }
        // H, or ARB_precision_hint_fastest for every float result: at
        // least 16 bits suffice (section 2.X.4.1; ARB_fragment_program
        // section 3.11.4.5.2, docs/semantics.md).
        // A result that is an operand unchanged (MOV) was computed by no
        // instruction of this one: it may be the value of a register an
        // earlier instruction wrote (`operand::RegisterValues`), or a
        // constant, and decorating it would relax that instruction for its
        // other readers too (and twice is invalid SPIR-V). It keeps its
        // precision, which "at least 16 bits" allows.
        let computed_here = srcs.iter().all(|s| s.value.id != value.id);
        self.loaded_operands = srcs;
        if computed_here && (inst.half || (self.relax_floats && value.comp == Comp::F32)) {
            self.relaxed(value);
        }
        if let Some(reg) = inst.cc_update.filter(|r| self.live.cc_live(r.0)) {
            // CVT's F16 result sets the flags of the 16-bit float its low
            // bits encode, not of the register's bits read as an f32 (a
            // denormal that is never negative; docs/semantics.md, "CVT").
            let flagged = if half_result {
                self.half_to_float(value)?
            } else {
                value
            };
            self.cc_update(reg, flagged, computed.addsub, &enable)?;
        }
        // Needed for its condition code update only: the temporary it
        // writes is read by nothing needed and is not declared.
        if !self.live.var_live(inst.dst.var) {
            return Ok(());
        }
        self.write_dest(&inst.dst, value, &enable)
    }

    /// Whether a scalar result (Table X.13's SCALAR instructions: DP4,
    /// RCP, ...) goes to the write unbroadcast, which then inserts it into
    /// the one component a mask such as `.x` enables (`merge_store_over`)
    /// instead of broadcasting it and shuffling (issue 17, "Session 10").
    /// Fixed-point rounding, clamps, condition codes and precision
    /// decorations take the broadcast vec4 as before.
    fn write_scalar_result(&self, inst: &Instruction, result_type: DataType) -> bool {
        let relaxed = inst.half || (self.relax_floats && result_type == DataType::Float);
        !inst.fixed
            && !relaxed
            && inst.clamp.is_none()
            && inst.cc_update.is_none_or(|r| !self.live.cc_live(r.0))
    }

    fn compute(&mut self, inst: &Instruction, info: &OpInfo, s: &[Loaded]) -> LResult<Computed> {
        let ty = inst.ty;
        let float = ty == DataType::Float;
        let v = |i: usize| s[i].value;
        Ok(match inst.op {
            Opcode::Mov => v(0).into(),
            Opcode::Abs => match ty {
                DataType::Float => self.glsl(GLOp::FAbs, &[v(0)])?.into(),
                DataType::Signed => self.signed_abs(v(0))?.into(),
                DataType::Unsigned => v(0).into(),
            },
            Opcode::Add => {
                let value = self.op(if float { Op::FAdd } else { Op::IAdd }, &[v(0), v(1)])?;
                let addsub = (!float).then(|| add_operands(&s[0], &s[1]));
                Computed { value, addsub }
            }
            Opcode::Sub => {
                let value = self.op(if float { Op::FSub } else { Op::ISub }, &[v(0), v(1)])?;
                let addsub = (!float).then(|| sub_operands(&s[0], &s[1]));
                Computed { value, addsub }
            }
            Opcode::Mul => self.mul(inst, v(0), v(1))?.into(),
            Opcode::Mad => {
                if float {
                    let p = self.op(Op::FMul, &[v(0), v(1)])?;
                    self.op(Op::FAdd, &[p, v(2)])?.into()
                } else {
                    // The add of the product and the third operand sets
                    // the carry and overflow flags. A negated factor
                    // negates the product, and section 2.X.4.3's "negation
                    // modifiers turn add operations into subtracts" applies
                    // to it as to the third operand: -A*B + C is C - A*B.
                    let p = self.op(Op::IMul, &[v(0), v(1)])?;
                    let value = self.op(Op::IAdd, &[p, v(2)])?;
                    let product = Loaded {
                        value: p,
                        base: self.op(Op::IMul, &[s[0].base, s[1].base])?,
                        negated: s[0].negated ^ s[1].negated,
                    };
                    Computed {
                        value,
                        addsub: Some(add_operands(&product, &s[2])),
                    }
                }
            }
            Opcode::Min | Opcode::Max => {
                // (tmp0 > tmp1) ? ... : ... exactly, NaNs included.
                let gt = self.cmp(greater_than(ty), v(0), v(1))?;
                if inst.op == Opcode::Max {
                    self.sel(gt, v(0), v(1))?.into()
                } else {
                    self.sel(gt, v(1), v(0))?.into()
                }
            }
            Opcode::Cmp => {
                let lt = match ty {
                    DataType::Float => {
                        let zero = self.splat_const(Comp::F32, 0, 4);
                        self.cmp(Op::FOrdLessThan, v(0), zero)?
                    }
                    DataType::Signed => {
                        let zero = self.splat_const(Comp::I32, 0, 4);
                        self.cmp(Op::SLessThan, v(0), zero)?
                    }
                    // No unsigned value is below zero.
                    DataType::Unsigned => return Ok(v(2).into()),
                };
                self.sel(lt, v(1), v(2))?.into()
            }
            Opcode::Seq | Opcode::Sne | Opcode::Slt | Opcode::Sle | Opcode::Sgt | Opcode::Sge => {
                let op = set_on_comparison(inst.op, ty)?;
                let c = self.cmp(op, v(0), v(1))?;
                let (t, f) = self.true_false(ty);
                self.sel(c, t, f)?.into()
            }
            Opcode::Sfl => self.true_false(ty).1.into(),
            Opcode::Str => self.true_false(ty).0.into(),
            Opcode::Flr | Opcode::Ceil | Opcode::Trunc | Opcode::Round => {
                // ROUND: "If the fractional portion of the operand is 0.5,
                // round() selects the nearest even integer."
                let f = match inst.op {
                    Opcode::Flr => GLOp::Floor,
                    Opcode::Ceil => GLOp::Ceil,
                    Opcode::Trunc => GLOp::Trunc,
                    _ => GLOp::RoundEven,
                };
                let r = self.glsl(f, &[v(0)])?;
                match ty {
                    DataType::Float => r.into(),
                    DataType::Signed => self.convert(Op::ConvertFToS, r, Comp::I32)?.into(),
                    DataType::Unsigned => self.convert(Op::ConvertFToU, r, Comp::U32)?.into(),
                }
            }
            // ARB_vertex_program 2.14.5.3, ARL: "performs a floor operation
            // to generate a signed integer"; NV_vertex_program2_option
            // 2.14.5.29, ARR: round, ties to even.
            Opcode::Arl | Opcode::Arr => {
                let f = if inst.op == Opcode::Arl {
                    GLOp::Floor
                } else {
                    GLOp::RoundEven
                };
                let r = self.glsl(f, &[v(0)])?;
                self.convert(Op::ConvertFToS, r, Comp::I32)?.into()
            }
            // NV_vertex_program2_option 2.14.5.28, ARA: (x+z, y+w, x+z, y+w).
            Opcode::Ara => {
                let swapped = self.shuffle(v(0), v(0), &[2, 3, 0, 1])?;
                self.op(Op::IAdd, &[v(0), swapped])?.into()
            }
            Opcode::Exp if self.program.dialect.exp_log_special_values() => {
                let e = self.exp_approx(v(0))?;
                self.nv_exp_special_values(e)?.into()
            }
            Opcode::Log if self.program.dialect.exp_log_special_values() => {
                let l = self.log_approx(v(0))?;
                self.nv_log_special_values(l)?.into()
            }
            Opcode::Exp => self.exp_approx(v(0))?.into(),
            Opcode::Log => self.log_approx(v(0))?.into(),
            Opcode::Frc => {
                // Section 2.X.8.Z, FRC: the result "is always in the range
                // [0.0, 1.0)", but x - floor(x) rounds to 1.0 for tiny
                // negative x; such results become the float just below 1
                // (a NaN stays NaN: the comparison is false for it).
                let fl = self.glsl(GLOp::Floor, &[v(0)])?;
                let r = self.op(Op::FSub, &[v(0), fl])?;
                let one = self.splat_const(Comp::F32, F32_ONE, 4);
                let below_one = self.splat_const(Comp::F32, 0x3f7f_ffff, 4);
                let too_big = self.cmp(Op::FOrdGreaterThanEqual, r, one)?;
                self.sel(too_big, below_one, r)?.into()
            }
            Opcode::Div => {
                let d = self.splat(v(1), 4)?;
                match ty {
                    DataType::Float => self.ieee_div(v(0), d)?.into(),
                    _ => self.int_div(v(0), d)?.into(),
                }
            }
            Opcode::Mod => {
                let d = self.splat(v(1), 4)?;
                self.int_mod(v(0), d)?.into()
            }
            Opcode::And => self.op(Op::BitwiseAnd, &[v(0), v(1)])?.into(),
            Opcode::Or => self.op(Op::BitwiseOr, &[v(0), v(1)])?.into(),
            Opcode::Xor => self.op(Op::BitwiseXor, &[v(0), v(1)])?.into(),
            Opcode::Not => self.op(Op::Not, &[v(0)])?.into(),
            // NV_gpu_program5 2.X.8.Z, BFE/BFI: width op0.x, offset op0.y
            // for every component; SPIR-V's bitfield instructions take the
            // same scalar count and offset, with the same undefined cases
            // (a field past bit 31) and zero for a zero width.
            Opcode::Bfe | Opcode::Bfi => {
                let count = self.extract(v(0), 0)?;
                let offset = self.extract(v(0), 1)?;
                match inst.op {
                    Opcode::Bfe if ty == DataType::Signed => self
                        .op(Op::BitFieldSExtract, &[v(1), offset, count])?
                        .into(),
                    Opcode::Bfe => self
                        .op(Op::BitFieldUExtract, &[v(1), offset, count])?
                        .into(),
                    _ => self
                        .op(Op::BitFieldInsert, &[v(2), v(1), offset, count])?
                        .into(),
                }
            }
            Opcode::Bfr => self.op(Op::BitReverse, &[v(0)])?.into(),
            Opcode::Ldb | Opcode::Lds | Opcode::Load => self.memory_load(inst)?.into(),
            // NV_parameter_buffer_object2 2.X.8.Z, LDC: "A final operand
            // vector is derived from the base operand vector by applying
            // swizzle, negation, and absolute value operand modifiers".
            Opcode::Ldc => {
                let base = self.memory_load(inst)?;
                let modifiers = inst
                    .srcs
                    .first()
                    .ok_or_else(|| LowerError::internal_at("LDC without its operand", inst.span))?;
                self.apply_modifiers(modifiers, base, false)?.value.into()
            }
            Opcode::Atomb | Opcode::Atoms | Opcode::Atom => self.memory_atomic(inst, v(0))?.into(),
            Opcode::Loadim => self.image_load(inst, v(0))?.into(),
            Opcode::Atomim => self.image_atomic(inst, v(0), v(1))?.into(),
            // NV_shader_atomic_counters 2.X.8.Z, ATOMCTR: INCR, DECR or GET
            // on the counter's word; no operand.
            Opcode::Atomctr => {
                let none = self.konst(Comp::U32, &[0, 0, 0, 0]);
                self.memory_atomic(inst, none)?.into()
            }
            Opcode::Btc => self.op(Op::BitCount, &[v(0)])?.into(),
            // FindILsb and FindUMsb give -1 (all ones) for zero, as BTFL and
            // unsigned BTFM want; FindSMsb is signed BTFM exactly ("the most
            // significant zero bit if the source value is negative").
            Opcode::Btfl => self.glsl(GLOp::FindILsb, &[v(0)])?.into(),
            Opcode::Btfm => {
                let (find, comp) = if ty == DataType::Signed {
                    (GLOp::FindSMsb, Comp::I32)
                } else {
                    (GLOp::FindUMsb, Comp::U32)
                };
                let x = self.cast(v(0), comp)?;
                let r = self.glsl(find, &[x])?;
                self.cast(r, Comp::from(ty))?.into()
            }
            Opcode::Shl | Opcode::Shr => {
                let amount = self.splat(v(1), 4)?;
                let op = match (inst.op, ty) {
                    (Opcode::Shl, _) => Op::ShiftLeftLogical,
                    // "filled with zeros if the operand is non-negative
                    // and ones otherwise": arithmetic for signed operands.
                    (_, DataType::Signed) => Op::ShiftRightArithmetic,
                    _ => Op::ShiftRightLogical,
                };
                self.op(op, &[v(0), amount])?.into()
            }
            Opcode::I2f => {
                let op = if ty == DataType::Unsigned {
                    Op::ConvertUToF
                } else {
                    Op::ConvertSToF
                };
                self.convert(op, v(0), Comp::F32)?.into()
            }
            Opcode::Sad => self.sad(ty, &s[0], &s[1], &s[2])?,
            Opcode::Dp2 => self.dot(v(0), v(1), 2)?.into(),
            Opcode::Dp3 => self.dot(v(0), v(1), 3)?.into(),
            Opcode::Dp4 => self.dot(v(0), v(1), 4)?.into(),
            Opcode::Dp2a => {
                let d = self.dot(v(0), v(1), 2)?;
                let c = self.extract(v(2), 0)?;
                self.op(Op::FAdd, &[d, c])?.into()
            }
            Opcode::Dph => {
                let d = self.dot(v(0), v(1), 3)?;
                let w = self.extract(v(1), 3)?;
                self.op(Op::FAdd, &[d, w])?.into()
            }
            Opcode::Dst => {
                let one = self.konst(Comp::F32, &[F32_ONE]);
                let ay = self.extract(v(0), 1)?;
                let by = self.extract(v(1), 1)?;
                let y = self.op(Op::FMul, &[ay, by])?;
                let z = self.extract(v(0), 2)?;
                let w = self.extract(v(1), 3)?;
                self.construct(&[one, y, z, w])?.into()
            }
            Opcode::Lit => self.lit(v(0))?.into(),
            Opcode::Lrp => {
                let one = self.splat_const(Comp::F32, F32_ONE, 4);
                let ab = self.op(Op::FMul, &[v(0), v(1)])?;
                let inv = self.op(Op::FSub, &[one, v(0)])?;
                let ic = self.op(Op::FMul, &[inv, v(2)])?;
                self.op(Op::FAdd, &[ab, ic])?.into()
            }
            Opcode::Xpd => {
                let zero = self.splat_const(Comp::F32, 0, 4);
                let a1 = self.shuffle(v(0), v(0), &[1, 2, 0, 3])?;
                let b1 = self.shuffle(v(1), v(1), &[2, 0, 1, 3])?;
                let a2 = self.shuffle(v(0), v(0), &[2, 0, 1, 3])?;
                let b2 = self.shuffle(v(1), v(1), &[1, 2, 0, 3])?;
                let l = self.op(Op::FMul, &[a1, b1])?;
                let r = self.op(Op::FMul, &[a2, b2])?;
                let d = self.op(Op::FSub, &[l, r])?;
                self.shuffle(d, zero, &[0, 1, 2, 4])?.into()
            }
            Opcode::Nrm => {
                let d = self.dot(v(0), v(0), 3)?;
                let scale = self.rsq(d)?;
                let scale4 = self.splat(scale, 4)?;
                let n = self.op(Op::FMul, &[v(0), scale4])?;
                let zero = self.splat_const(Comp::F32, 0, 4);
                self.shuffle(n, zero, &[0, 1, 2, 4])?.into()
            }
            Opcode::Rfl => {
                let (axis, dir) = (v(0), v(1));
                let w = self.dot(axis, axis, 3)?;
                let x = self.dot(axis, dir, 3)?;
                let two = self.konst(Comp::F32, &[f32_bits(2.0)]);
                let x = self.op(Op::FMul, &[two, x])?;
                let x = self.ieee_div(x, w)?;
                let x4 = self.splat(x, 4)?;
                let scaled = self.op(Op::FMul, &[x4, axis])?;
                let r = self.op(Op::FSub, &[scaled, dir])?;
                let zero = self.splat_const(Comp::F32, 0, 4);
                self.shuffle(r, zero, &[0, 1, 2, 4])?.into()
            }
            Opcode::X2d => {
                let (a, b, c) = (v(0), v(1), v(2));
                let row = |l: &mut Self, ai: u32, ci: u32| -> LResult<Val> {
                    let ax = l.extract(a, ai)?;
                    let bx = l.extract(b, 0)?;
                    let by = l.extract(b, 1)?;
                    let c0 = l.extract(c, ci)?;
                    let c1 = l.extract(c, ci + 1)?;
                    let p0 = l.op(Op::FMul, &[bx, c0])?;
                    let s0 = l.op(Op::FAdd, &[ax, p0])?;
                    let p1 = l.op(Op::FMul, &[by, c1])?;
                    l.op(Op::FAdd, &[s0, p1])
                };
                let x = row(self, 0, 0)?;
                let y = row(self, 1, 2)?;
                self.construct(&[x, y, x, y])?.into()
            }
            Opcode::Ssg => {
                // The selects pick bit patterns, not floats: lavapipe turns
                // a float select chain of this shape into its fsign, which
                // answers -0.0 for zero, and the spec wants 0.0.
                let zero = self.splat_const(Comp::F32, 0, 4);
                let gt = self.cmp(Op::FOrdGreaterThan, v(0), zero)?;
                let lt = self.cmp(Op::FOrdLessThan, v(0), zero)?;
                let zero_bits = self.splat_const(Comp::U32, 0, 4);
                let one_bits = self.splat_const(Comp::U32, F32_ONE, 4);
                let neg_bits = self.splat_const(Comp::U32, F32_NEG_ONE, 4);
                let n = self.sel(lt, neg_bits, zero_bits)?;
                let bits = self.sel(gt, one_bits, n)?;
                self.cast(bits, Comp::F32)?.into()
            }
            Opcode::Rcp => {
                let one = self.konst(Comp::F32, &[F32_ONE]);
                self.ieee_div(one, v(0))?.into()
            }
            Opcode::Rcc => self.rcc(v(0))?.into(),
            Opcode::Rsq => self.rsq(v(0))?.into(),
            Opcode::Ex2 => self.ex2(v(0))?.into(),
            Opcode::Lg2 => self.lg2(v(0))?.into(),
            Opcode::Pow => self.pow(v(0), v(1))?.into(),
            Opcode::Sin | Opcode::Cos => {
                let t = self.reduce_angle(v(0))?;
                let f = if inst.op == Opcode::Sin {
                    GLOp::Sin
                } else {
                    GLOp::Cos
                };
                self.glsl(f, &[t])?.into()
            }
            Opcode::Scs => {
                // No reduction: the operand must be in [-PI, PI].
                let c = self.glsl(GLOp::Cos, &[v(0)])?;
                let s1 = self.glsl(GLOp::Sin, &[v(0)])?;
                let zero = self.konst(Comp::F32, &[0]);
                self.construct(&[c, s1, zero, zero])?.into()
            }
            Opcode::Ddx => self.op(Op::DPdx, &[v(0)])?.into(),
            Opcode::Ddy => self.op(Op::DPdy, &[v(0)])?.into(),
            Opcode::Swz => self.swz(inst, v(0))?.into(),
            Opcode::Tgall | Opcode::Tgany | Opcode::Tgeq => {
                self.thread_group_vote(inst.op, ty, v(0))?.into()
            }
            Opcode::Tgballot => self.thread_group_ballot(ty, v(0))?.into(),
            Opcode::Qswz0
            | Opcode::Qswz1
            | Opcode::Qswz2
            | Opcode::Qswz3
            | Opcode::Qswzx
            | Opcode::Qswzy => self.quad_swizzle(inst.op, v(0), v(1))?.into(),
            Opcode::Shfdown | Opcode::Shfidx | Opcode::Shfup | Opcode::Shfxor => {
                self.thread_shuffle(inst.op, ty, v(0), v(1), v(2))?.into()
            }
            Opcode::Tex
            | Opcode::Txb
            | Opcode::Txd
            | Opcode::Txf
            | Opcode::Txg
            | Opcode::Txgo
            | Opcode::Txl
            | Opcode::Txp
            | Opcode::Txq
            | Opcode::Lod => self.texture(inst, s)?.into(),
            // NV_gpu_program5 2.X.8.Z, IPAC/IPAO/IPAS: the attribute operand
            // re-evaluated (its loaded value in `s[0]` is not used).
            Opcode::Ipac => self
                .interpolate(GLOp::InterpolateAtCentroid, &inst.srcs[0], None)?
                .into(),
            Opcode::Ipao => {
                // "the x and y components of the second vector operand";
                // z and w are ignored.
                let xy = self.shuffle(v(1), v(1), &[0, 1])?;
                self.interpolate(GLOp::InterpolateAtOffset, &inst.srcs[0], Some(xy))?
                    .into()
            }
            Opcode::Ipas => {
                // InterpolateAtSample takes a signed sample number; the
                // bits are the same for every sample that exists.
                let sample = self.cast(v(1), Comp::I32)?;
                self.interpolate(GLOp::InterpolateAtSample, &inst.srcs[0], Some(sample))?
                    .into()
            }
            Opcode::Pk2h | Opcode::Pk2us | Opcode::Pk4b | Opcode::Pk4ub => {
                let bits = self.pack(inst.op, v(0))?;
                self.cast(bits, Comp::from(ty))?.into()
            }
            Opcode::Up2h | Opcode::Up2us | Opcode::Up4b | Opcode::Up4ub => {
                let bits = self.cast(v(0), Comp::U32)?;
                self.unpack(inst.op, bits)?.into()
            }
            Opcode::Pk64 => self.pack64(v(0), ty)?.into(),
            Opcode::Cvt => {
                let c = inst.convert.ok_or_else(|| {
                    LowerError::internal_at("CVT without its conversion", inst.span)
                })?;
                self.cvt(c, v(0), inst.clamp)?.into()
            }
            Opcode::Up64 => self.unpack64(v(0), ty)?.into(),
            _ => {
                return Err(LowerError::internal_at(
                    format!("{} is not an ALU instruction", info.name),
                    inst.span,
                ))
            }
        })
    }

    /// MUL and its S24 / U24 / HI forms (section 2.X.8.Z, MUL).
    fn mul(&mut self, inst: &Instruction, a: Val, b: Val) -> LResult<Val> {
        match (inst.ty, inst.mul_mode) {
            (DataType::Float, None) => self.op(Op::FMul, &[a, b]),
            (DataType::Float, Some(_)) => Err(LowerError::internal_at(
                "S24 / U24 / HI on a float multiply",
                inst.span,
            )),
            // S24 / U24 products of in-range operands equal the low 32 bits
            // of the full product; out of range they are undefined.
            (_, None | Some(MulMode::S24) | Some(MulMode::U24)) => self.op(Op::IMul, &[a, b]),
            (ty, Some(MulMode::Hi)) => {
                let member = self.t_of(a);
                let pair = self.t_pair(member);
                let op = if ty == DataType::Signed {
                    Op::SMulExtended
                } else {
                    Op::UMulExtended
                };
                let both = self.emit(op, pair, &[a.id, b.id])?;
                let high = self.b.composite_extract(member, None, both, [1])?;
                Ok(Val { id: high, ..a })
            }
        }
    }

    /// TRUE and FALSE of the set-on instructions: 1.0 / 0.0 for floats,
    /// all ones / zero for integers (section 2.X.8.Z, SEQ).
    fn true_false(&mut self, ty: DataType) -> (Val, Val) {
        let comp = Comp::from(ty);
        let t = if ty == DataType::Float {
            F32_ONE
        } else {
            u32::MAX
        };
        (self.splat_const(comp, t, 4), self.splat_const(comp, 0, 4))
    }

    /// `a[0]*b[0] + a[1]*b[1] + ...` in that order.
    pub(crate) fn dot(&mut self, a: Val, b: Val, n: u32) -> LResult<Val> {
        let mut sum: Option<Val> = None;
        for i in 0..n {
            let x = self.extract(a, i)?;
            let y = self.extract(b, i)?;
            let p = self.op(Op::FMul, &[x, y])?;
            sum = Some(match sum {
                None => p,
                Some(acc) => self.op(Op::FAdd, &[acc, p])?,
            });
        }
        sum.ok_or_else(|| LowerError::internal("an empty dot product"))
    }

    /// `a / b` with IEEE results where Vulkan's OpFDiv promises nothing (a
    /// divisor of zero or infinity): x/±0 = ±INF, 0/0 = NaN, x/±INF = ±0,
    /// INF/INF = NaN; NaNs propagate through the plain division.
    fn ieee_div(&mut self, a: Val, b: Val) -> LResult<Val> {
        let n = a.n;
        let q = self.op(Op::FDiv, &[a, b])?;
        let zero = self.splat_const(Comp::F32, 0, n);
        let nan = self.splat_const(Comp::F32, F32_NAN, n);
        let a_bits = self.cast(a, Comp::U32)?;
        let b_bits = self.cast(b, Comp::U32)?;
        let sign_bits = self.op(Op::BitwiseXor, &[a_bits, b_bits])?;
        let sign = self.cast(sign_bits, Comp::F32)?;
        // Divisor ±INF: a signed zero, or NaN when a is INF or NaN.
        let b_abs = self.glsl(GLOp::FAbs, &[b])?;
        let inf = self.splat_const(Comp::F32, F32_INF, n);
        let b_inf = self.cmp(Op::FOrdEqual, b_abs, inf)?;
        let signed_zero = self.with_sign_of(0, sign)?;
        let a_abs = self.glsl(GLOp::FAbs, &[a])?;
        let a_inf_or_nan = self.cmp(Op::FUnordEqual, a_abs, inf)?;
        let by_inf = self.sel(a_inf_or_nan, nan, signed_zero)?;
        let q = self.sel(b_inf, by_inf, q)?;
        // Divisor ±0: a signed infinity, or NaN when a is 0 or NaN.
        let b_zero = self.cmp(Op::FOrdEqual, b, zero)?;
        let signed_inf = self.with_sign_of(F32_INF, sign)?;
        let a_zero_or_nan = self.cmp(Op::FUnordEqual, a, zero)?;
        let by_zero = self.sel(a_zero_or_nan, nan, signed_inf)?;
        self.sel(b_zero, by_zero, q)
    }

    /// RSQ: 1/sqrt(x); ±0 gives ±INF, a negative operand NaN (section
    /// 2.X.8.Z, RSQ no longer takes the absolute value; issue: "the
    /// reciprocal square root of a negative value ... should yield NaN").
    fn rsq(&mut self, x: Val) -> LResult<Val> {
        let r = self.glsl(GLOp::InverseSqrt, &[x])?;
        let zero = self.splat_const(Comp::F32, 0, x.n);
        let negative = self.cmp(Op::FOrdLessThan, x, zero)?;
        let nan = self.splat_const(Comp::F32, F32_NAN, x.n);
        let r = self.sel(negative, nan, r)?;
        let is_zero = self.cmp(Op::FOrdEqual, x, zero)?;
        let inf = self.with_sign_of(F32_INF, x)?;
        self.sel(is_zero, inf, r)
    }

    /// RCC: the reciprocal clamped to [2^-64, 2^64] when positive, to
    /// [-2^64, -2^-64] otherwise.
    fn rcc(&mut self, x: Val) -> LResult<Val> {
        let one = self.konst(Comp::F32, &[F32_ONE]);
        let r = self.ieee_div(one, x)?;
        let zero = self.konst(Comp::F32, &[0]);
        let positive = self.cmp(Op::FOrdGreaterThan, r, zero)?;
        let small = self.konst(Comp::F32, &[F32_2_POW_M64]);
        let big = self.konst(Comp::F32, &[F32_2_POW_64]);
        let neg_small = self.konst(Comp::F32, &[F32_2_POW_M64 | super::emit::SIGN_BIT]);
        let neg_big = self.konst(Comp::F32, &[F32_2_POW_64 | super::emit::SIGN_BIT]);
        let p = self.glsl(GLOp::NMax, &[r, small])?;
        let p = self.glsl(GLOp::NMin, &[p, big])?;
        let n = self.glsl(GLOp::NMax, &[r, neg_big])?;
        let n = self.glsl(GLOp::NMin, &[n, neg_small])?;
        self.sel(positive, p, n)
    }

    /// LG2 with the IEEE special cases GLSL leaves undefined: log2(±0) =
    /// -INF, log2(negative) = NaN, log2(+INF) = +INF, NaN stays NaN.
    fn lg2(&mut self, x: Val) -> LResult<Val> {
        let n = x.n;
        let mut r = self.glsl(GLOp::Log2, &[x])?;
        let inf = self.splat_const(Comp::F32, F32_INF, n);
        let is_inf = self.cmp(Op::FOrdEqual, x, inf)?;
        r = self.sel(is_inf, inf, r)?;
        let zero = self.splat_const(Comp::F32, 0, n);
        let negative = self.cmp(Op::FOrdLessThan, x, zero)?;
        let nan = self.splat_const(Comp::F32, F32_NAN, n);
        r = self.sel(negative, nan, r)?;
        let is_zero = self.cmp(Op::FOrdEqual, x, zero)?;
        let neg_inf = self.splat_const(Comp::F32, F32_NEG_INF, n);
        r = self.sel(is_zero, neg_inf, r)?;
        let is_nan = self.test(Op::IsNan, x, n)?;
        self.sel(is_nan, x, r)
    }

    /// EXP (ARB_vertex_program 2.14.5.9): (2^floor(t), t - floor(t),
    /// 2^t, 1), 2^t within the spec's 2^-11 relative error.
    fn exp_approx(&mut self, t: Val) -> LResult<Val> {
        let fl = self.glsl(GLOp::Floor, &[t])?;
        let x = self.ex2(fl)?;
        let y = self.op(Op::FSub, &[t, fl])?;
        let z = self.ex2(t)?;
        let w = self.konst(Comp::F32, &[F32_ONE]);
        self.construct(&[x, y, z, w])
    }

    /// NV_vertex_program 2.14.1.10.15: "EXP(-Inf) or if the exponential
    /// result underflows gives [0.0, 0.0, 0.0, 1.0]; and EXP(+Inf) or if
    /// the exponential result overflows gives [+Inf, 0.0, +Inf, 1.0]".
    /// Underflow is x = 2^floor(t) below the smallest normal float, so the
    /// answer does not depend on whether the device flushes denormals.
    fn nv_exp_special_values(&mut self, e: Val) -> LResult<Val> {
        let x = self.extract(e, 0)?;
        let y = self.extract(e, 1)?;
        let z = self.extract(e, 2)?;
        let w = self.extract(e, 3)?;
        let zero = self.konst(Comp::F32, &[0]);
        let inf = self.konst(Comp::F32, &[F32_INF]);
        let min_normal = self.konst(Comp::F32, &[F32_MIN_NORMAL]);
        let under = self.cmp(Op::FOrdLessThan, x, min_normal)?;
        let over = self.cmp(Op::FOrdEqual, x, inf)?;
        let special = self.or(under, over)?;
        let x = self.sel(under, zero, x)?;
        let y = self.sel(special, zero, y)?;
        let z = self.sel(under, zero, z)?;
        let z = self.sel(over, inf, z)?;
        self.construct(&[x, y, z, w])
    }

    /// NV_vertex_program 2.14.1.10.16: "LOG(0.0) gives [-Inf, 1.0, -Inf,
    /// 1.0]; and both LOG(+Inf) and LOG(-Inf) give [+Inf, 1.0, +Inf,
    /// 1.0]": y is 1 where ARB's pseudocode gives NaN.
    fn nv_log_special_values(&mut self, l: Val) -> LResult<Val> {
        let x = self.extract(l, 0)?;
        let y = self.extract(l, 1)?;
        let z = self.extract(l, 2)?;
        let w = self.extract(l, 3)?;
        let inf = self.konst(Comp::F32, &[F32_INF]);
        let abs_x = self.glsl(GLOp::FAbs, &[x])?;
        // x is +-INF exactly for a zero or infinite operand.
        let special = self.cmp(Op::FOrdEqual, abs_x, inf)?;
        let one = self.konst(Comp::F32, &[F32_ONE]);
        let y = self.sel(special, one, y)?;
        self.construct(&[x, y, z, w])
    }

    /// LOG (ARB_vertex_program 2.14.5.14), of `t = |operand|`: x = the
    /// floor of the exact base-2 logarithm (the float's exponent, denormals
    /// included), y = t / 2^x (the mantissa, in [1, 2)), z = log2(t), w = 1;
    /// at 0, INF and NaN the pseudocode's IEEE values (-INF, NaN, -INF),
    /// (INF, NaN, INF) and NaN, as the interpreter computes them.
    fn log_approx(&mut self, operand: Val) -> LResult<Val> {
        let t = self.glsl(GLOp::FAbs, &[operand])?;
        let bits = self.cast(t, Comp::U32)?;
        let c = |l: &mut Self, v: u32| l.konst(Comp::U32, &[v]);
        let (k23, k255, k127, mant_mask, one_bits) = (
            c(self, 23),
            c(self, 0xff),
            c(self, 127),
            c(self, 0x7f_ffff),
            c(self, F32_ONE),
        );
        let e = self.op(Op::ShiftRightLogical, &[bits, k23])?;
        let e = self.op(Op::BitwiseAnd, &[e, k255])?;
        let m = self.op(Op::BitwiseAnd, &[bits, mant_mask])?;
        // Normal numbers: exponent - 127, mantissa under exponent 0.
        let e_int = self.cast(e, Comp::I32)?;
        let bias = self.cast(k127, Comp::I32)?;
        let x_normal = self.op(Op::ISub, &[e_int, bias])?;
        let y_normal_bits = self.op(Op::BitwiseOr, &[m, one_bits])?;
        // Denormals: the highest set bit of the mantissa gives the
        // exponent; the mantissa shifted up to bit 23 gives y.
        let msb = self.glsl(GLOp::FindUMsb, &[m])?;
        let msb = self.cast(msb, Comp::I32)?;
        let k149 = self.konst(Comp::I32, &[149]);
        let x_denormal = self.op(Op::ISub, &[msb, k149])?;
        let k23i = self.konst(Comp::I32, &[23]);
        let shift = self.op(Op::ISub, &[k23i, msb])?;
        let shifted = self.op(Op::ShiftLeftLogical, &[m, shift])?;
        let shifted = self.op(Op::BitwiseAnd, &[shifted, mant_mask])?;
        let y_denormal_bits = self.op(Op::BitwiseOr, &[shifted, one_bits])?;
        let zero_u = self.konst(Comp::U32, &[0]);
        let denormal = self.cmp(Op::IEqual, e, zero_u)?;
        let x_int = self.sel(denormal, x_denormal, x_normal)?;
        let y_bits = self.sel(denormal, y_denormal_bits, y_normal_bits)?;
        let mut x = self.convert(Op::ConvertSToF, x_int, Comp::F32)?;
        let mut y = self.cast(y_bits, Comp::F32)?;
        let z = self.lg2(t)?;
        // 0, INF and NaN: x and z are log2(t) itself (-INF, INF, NaN),
        // y = t / 2^x is NaN.
        let zero = self.konst(Comp::F32, &[0]);
        let inf = self.konst(Comp::F32, &[F32_INF]);
        let is_zero = self.cmp(Op::FOrdEqual, t, zero)?;
        let is_inf = self.cmp(Op::FOrdEqual, t, inf)?;
        let is_nan = self.test(Op::IsNan, t, 1)?;
        let special = self.or(is_zero, is_inf)?;
        let special = self.or(special, is_nan)?;
        let nan = self.konst(Comp::F32, &[F32_NAN]);
        x = self.sel(special, z, x)?;
        y = self.sel(special, nan, y)?;
        let w = self.konst(Comp::F32, &[F32_ONE]);
        self.construct(&[x, y, z, w])
    }

    /// A value of X precision (NV_fragment_program_option 3.11.4.X: "signed
    /// 12-bit fixed-point precision (two's complement with 10 fraction
    /// bits)", overflow to "-2048/1024 or +2047/1024"): rounded to the
    /// nearest multiple of 1/1024 (ties to even) after clamping to that
    /// range; NaN becomes 0 (docs/semantics.md, as the interpreter does).
    pub(crate) fn round_to_fixed(&mut self, v: Val) -> LResult<Val> {
        let n = v.n;
        let lo = self.splat_const(Comp::F32, (-2.0f32).to_bits(), n);
        let hi = self.splat_const(Comp::F32, (2047.0f32 / 1024.0).to_bits(), n);
        let c = self.glsl(GLOp::NMax, &[v, lo])?;
        let c = self.glsl(GLOp::NMin, &[c, hi])?;
        let scale = self.splat_const(Comp::F32, 1024.0f32.to_bits(), n);
        let unscale = self.splat_const(Comp::F32, (1.0f32 / 1024.0).to_bits(), n);
        let r = self.op(Op::FMul, &[c, scale])?;
        let r = self.glsl(GLOp::RoundEven, &[r])?;
        let r = self.op(Op::FMul, &[r, unscale])?;
        let is_nan = self.test(Op::IsNan, v, n)?;
        let zero = self.splat_const(Comp::F32, 0, n);
        self.sel(is_nan, zero, r)
    }

    /// EX2 with exact results at the ends: 2^-INF = 0, 2^INF = INF.
    fn ex2(&mut self, x: Val) -> LResult<Val> {
        let n = x.n;
        let mut r = self.glsl(GLOp::Exp2, &[x])?;
        let neg_inf = self.splat_const(Comp::F32, F32_NEG_INF, n);
        let zero = self.splat_const(Comp::F32, 0, n);
        let is_neg_inf = self.cmp(Op::FOrdEqual, x, neg_inf)?;
        r = self.sel(is_neg_inf, zero, r)?;
        let inf = self.splat_const(Comp::F32, F32_INF, n);
        let is_inf = self.cmp(Op::FOrdEqual, x, inf)?;
        r = self.sel(is_inf, inf, r)?;
        let is_nan = self.test(Op::IsNan, x, n)?;
        self.sel(is_nan, x, r)
    }

    /// ApproxPower(a, b) = ApproxExp2(b * ApproxLog2(a)) (section 2.X.8.Z,
    /// POW), with x^0 = 1 ("0^0 is defined to be 1", LIT).
    ///
    /// The special cases are decided on the operands rather than on LG2's
    /// and EX2's intermediate results: a < 0 gives NaN; a = ±0 gives +0 for
    /// b > 0 and +INF for b < 0 (what LG2's -INF times b gives through
    /// EX2); the product is clamped to ±256, where EX2 is already +INF or
    /// +0. For finite operands that is the same result with half the
    /// selects, and POW-heavy shaders run ≈ 5 % faster on lavapipe
    /// (docs/performance.md, "Render time"). Infinite and NaN operands get
    /// the device's Log2/Exp2 — Vulkan promises nothing for them without
    /// SignedZeroInfNanPreserve — unless that mode is asked for
    /// (`Options::preserve_signed_zero_inf_nan`), which keeps every guard.
    fn pow(&mut self, a: Val, b: Val) -> LResult<Val> {
        let n = b.n;
        let zero = self.splat_const(Comp::F32, 0, n);
        let e = if self.options.preserve_signed_zero_inf_nan {
            let l = self.lg2(a)?;
            let p = self.op(Op::FMul, &[b, l])?;
            self.ex2(p)?
        } else {
            let l = self.glsl(GLOp::Log2, &[a])?;
            let p = self.op(Op::FMul, &[b, l])?;
            let lo = self.splat_const(Comp::F32, f32_bits(-256.0), n);
            let hi = self.splat_const(Comp::F32, f32_bits(256.0), n);
            let p = self.glsl(GLOp::FClamp, &[p, lo, hi])?;
            let e = self.glsl(GLOp::Exp2, &[p])?;
            let negative = self.cmp(Op::FOrdLessThan, a, zero)?;
            let nan = self.splat_const(Comp::F32, F32_NAN, n);
            let e = self.sel(negative, nan, e)?;
            let b_positive = self.cmp(Op::FOrdGreaterThan, b, zero)?;
            let inf = self.splat_const(Comp::F32, F32_INF, n);
            let of_zero = self.sel(b_positive, zero, inf)?;
            let a_zero = self.cmp(Op::FOrdEqual, a, zero)?;
            self.sel(a_zero, of_zero, e)?
        };
        let b_zero = self.cmp(Op::FOrdEqual, b, zero)?;
        let one = self.splat_const(Comp::F32, F32_ONE, n);
        self.sel(b_zero, one, e)
    }

    /// Reduction of an angle to [-PI, PI) for SIN and COS:
    /// `x - 2PI * floor(x / 2PI + 0.5)`.
    fn reduce_angle(&mut self, x: Val) -> LResult<Val> {
        let inv_two_pi = self.konst(Comp::F32, &[f32_bits(0.5 / std::f32::consts::PI)]);
        let two_pi = self.konst(Comp::F32, &[f32_bits(std::f32::consts::TAU)]);
        let half = self.konst(Comp::F32, &[F32_HALF]);
        let t = self.op(Op::FMul, &[x, inv_two_pi])?;
        let t = self.op(Op::FAdd, &[t, half])?;
        let k = self.glsl(GLOp::Floor, &[t])?;
        let m = self.op(Op::FMul, &[k, two_pi])?;
        self.op(Op::FSub, &[x, m])
    }

    /// LIT, exactly as its pseudocode.
    fn lit(&mut self, v: Val) -> LResult<Val> {
        let zero = self.konst(Comp::F32, &[0]);
        let one = self.konst(Comp::F32, &[F32_ONE]);
        let x = self.extract(v, 0)?;
        let y = self.extract(v, 1)?;
        let w = self.extract(v, 3)?;
        let x_neg = self.cmp(Op::FOrdLessThan, x, zero)?;
        let x = self.sel(x_neg, zero, x)?;
        let y_neg = self.cmp(Op::FOrdLessThan, y, zero)?;
        let y = self.sel(y_neg, zero, y)?;
        // if (w < -(128-eps)) w = -(128-eps); else if (w > 128-eps) w = 128-eps;
        let hi = self.konst(Comp::F32, &[F32_128_MINUS_EPS]);
        let lo = self.konst(Comp::F32, &[F32_128_MINUS_EPS | super::emit::SIGN_BIT]);
        let w_low = self.cmp(Op::FOrdLessThan, w, lo)?;
        let w_high = self.cmp(Op::FOrdGreaterThan, w, hi)?;
        let w_clamped_high = self.sel(w_high, hi, w)?;
        let w = self.sel(w_low, lo, w_clamped_high)?;
        let power = self.pow(y, w)?;
        let lit = self.cmp(Op::FOrdGreaterThan, x, zero)?;
        let z = self.sel(lit, power, zero)?;
        self.construct(&[one, x, z, one])
    }

    /// Integer DIV. Division by zero is undefined in the spec; SPIR-V
    /// makes it (and INT_MIN / -1) undefined behaviour, so the divisor is
    /// made safe and x / 0 gives all ones.
    fn int_div(&mut self, a: Val, b: Val) -> LResult<Val> {
        let comp = a.comp;
        let zero = self.splat_const(comp, 0, 4);
        let one = self.splat_const(comp, 1, 4);
        let ones = self.splat_const(comp, u32::MAX, 4);
        let b_zero = self.cmp(Op::IEqual, b, zero)?;
        let q = if comp == Comp::I32 {
            let b_m1 = self.cmp(Op::IEqual, b, ones)?;
            let unsafe_b = self.or(b_zero, b_m1)?;
            let safe = self.sel(unsafe_b, one, b)?;
            let q = self.op(Op::SDiv, &[a, safe])?;
            let neg = self.op(Op::SNegate, &[a])?;
            self.sel(b_m1, neg, q)?
        } else {
            let safe = self.sel(b_zero, one, b)?;
            self.op(Op::UDiv, &[a, safe])?
        };
        self.sel(b_zero, ones, q)
    }

    /// Integer MOD (`%`, truncating). Undefined for a negative dividend or
    /// a divisor <= 0; a zero divisor gives 0 here.
    fn int_mod(&mut self, a: Val, b: Val) -> LResult<Val> {
        let comp = a.comp;
        let zero = self.splat_const(comp, 0, 4);
        let one = self.splat_const(comp, 1, 4);
        let b_zero = self.cmp(Op::IEqual, b, zero)?;
        if comp == Comp::I32 {
            // x % -1 is 0, as x % 1; SRem(INT_MIN, -1) would be undefined.
            let ones = self.splat_const(comp, u32::MAX, 4);
            let b_m1 = self.cmp(Op::IEqual, b, ones)?;
            let unsafe_b = self.or(b_zero, b_m1)?;
            let safe = self.sel(unsafe_b, one, b)?;
            self.op(Op::SRem, &[a, safe])
        } else {
            let safe = self.sel(b_zero, one, b)?;
            self.op(Op::UMod, &[a, safe])
        }
    }

    /// SAD: |a - b| + c, the difference exact as an unsigned value, the
    /// add setting carry and overflow.
    fn sad(&mut self, ty: DataType, a: &Loaded, b: &Loaded, c: &Loaded) -> LResult<Computed> {
        let gt = self.cmp(greater_than(ty), a.value, b.value)?;
        let unsigned = Comp::sized(DataType::Unsigned, a.value.comp.is_64());
        let au = self.cast(a.value, unsigned)?;
        let bu = self.cast(b.value, unsigned)?;
        let d1 = self.op(Op::ISub, &[au, bu])?;
        let d2 = self.op(Op::ISub, &[bu, au])?;
        let d = self.sel(gt, d1, d2)?;
        let value = self.op(Op::IAdd, &[d, c.value])?;
        Ok(Computed {
            value,
            addsub: Some(AddSub {
                a: d,
                b: c.base,
                subtract: c.negated,
            }),
        })
    }

    /// SWZ: each component selected from the operand, 0 or 1, optionally
    /// negated (section 2.X.8.Z, SWZ).
    fn swz(&mut self, inst: &Instruction, v: Val) -> LResult<Val> {
        let Some(&sel) = inst.ext_swizzle.as_deref() else {
            return Err(LowerError::internal_at(
                "SWZ without its extended swizzle",
                inst.span,
            ));
        };
        let mut parts = Vec::with_capacity(4);
        for comp in sel {
            let x = match comp.sel {
                ExtSwizzleSel::Component(c) if c < 4 => self.extract(v, u32::from(c))?,
                ExtSwizzleSel::Component(_) => {
                    return Err(LowerError::internal_at(
                        "SWZ selector out of range",
                        inst.span,
                    ))
                }
                ExtSwizzleSel::Zero => self.konst(Comp::F32, &[0]),
                ExtSwizzleSel::One => self.konst(Comp::F32, &[F32_ONE]),
            };
            parts.push(if comp.negate { self.negate(x)? } else { x });
        }
        self.construct(&parts)
    }

    /// `if (x < lo) x = lo; if (x > hi) x = hi;` as the pack pseudocode
    /// writes it.
    fn clamp_like_pseudocode(&mut self, x: Val, lo: u32, hi: u32) -> LResult<Val> {
        let lo = self.splat_const(Comp::F32, lo, x.n);
        let hi = self.splat_const(Comp::F32, hi, x.n);
        let below = self.cmp(Op::FOrdLessThan, x, lo)?;
        let x = self.sel(below, lo, x)?;
        let above = self.cmp(Op::FOrdGreaterThan, x, hi)?;
        self.sel(above, hi, x)
    }

    /// `round(scale * x + bias)` as unsigned integers, masked to `mask`.
    fn quantize(&mut self, x: Val, scale: f32, bias: f32, mask: u32) -> LResult<Val> {
        let s = self.splat_const(Comp::F32, f32_bits(scale), x.n);
        let mut t = self.op(Op::FMul, &[x, s])?;
        if bias != 0.0 {
            let b = self.splat_const(Comp::F32, f32_bits(bias), x.n);
            t = self.op(Op::FAdd, &[t, b])?;
        }
        let r = self.glsl(GLOp::RoundEven, &[t])?;
        let u = self.convert(Op::ConvertFToU, r, Comp::U32)?;
        let m = self.splat_const(Comp::U32, mask, x.n);
        self.op(Op::BitwiseAnd, &[u, m])
    }

    /// `parts.x | parts.y << shift | parts.z << 2*shift | ...`.
    fn pack_fields(&mut self, parts: Val, shift: u32) -> LResult<Val> {
        let shifts: Vec<u32> = (0..parts.n).map(|i| i * shift).collect();
        let shifts = self.konst(Comp::U32, &shifts);
        let shifted = self.op(Op::ShiftLeftLogical, &[parts, shifts])?;
        let mut r = self.extract(shifted, 0)?;
        for i in 1..parts.n {
            let p = self.extract(shifted, i)?;
            r = self.op(Op::BitwiseOr, &[r, p])?;
        }
        Ok(r)
    }

    /// PK2H, PK2US, PK4B, PK4UB: the packed 32 bits (section 2.X.8.Z).
    fn pack(&mut self, op: Opcode, v: Val) -> LResult<Val> {
        match op {
            Opcode::Pk2h => {
                let xy = self.shuffle(v, v, &[0, 1])?;
                let u32_ty = self.t(Comp::U32, 1);
                self.glsl_typed(GLOp::PackHalf2x16, u32_ty, Comp::U32, 1, &[xy])
            }
            Opcode::Pk2us => {
                let xy = self.shuffle(v, v, &[0, 1])?;
                let c = self.clamp_like_pseudocode(xy, 0, F32_ONE)?;
                let us = self.quantize(c, 65535.0, 0.0, 0xffff)?;
                self.pack_fields(us, 16)
            }
            Opcode::Pk4b => {
                let c = self.clamp_like_pseudocode(v, F32_M128_OVER_127, F32_ONE)?;
                let ub = self.quantize(c, 127.0, 128.0, 0xff)?;
                self.pack_fields(ub, 8)
            }
            _ => {
                let c = self.clamp_like_pseudocode(v, 0, F32_ONE)?;
                let ub = self.quantize(c, 255.0, 0.0, 0xff)?;
                self.pack_fields(ub, 8)
            }
        }
    }

    /// UP2H, UP2US, UP4B, UP4UB of the raw bits (section 2.X.8.Z).
    fn unpack(&mut self, op: Opcode, bits: Val) -> LResult<Val> {
        if op == Opcode::Up2h {
            let vec2 = self.t(Comp::F32, 2);
            let xy = self.glsl_typed(GLOp::UnpackHalf2x16, vec2, Comp::F32, 2, &[bits])?;
            return self.shuffle(xy, xy, &[0, 1, 0, 1]);
        }
        let (shifts, mask, divisor): ([u32; 4], u32, f32) = match op {
            Opcode::Up2us => ([0, 16, 0, 16], 0xffff, 65535.0),
            Opcode::Up4b => ([0, 8, 16, 24], 0xff, 127.0),
            _ => ([0, 8, 16, 24], 0xff, 255.0),
        };
        let b4 = self.splat(bits, 4)?;
        let s = self.konst(Comp::U32, &shifts);
        let shifted = self.op(Op::ShiftRightLogical, &[b4, s])?;
        let m = self.splat_const(Comp::U32, mask, 4);
        let fields = self.op(Op::BitwiseAnd, &[shifted, m])?;
        let f = if op == Opcode::Up4b {
            // ((bits >> n) & 0xFF) - 128, signed.
            let signed = self.cast(fields, Comp::I32)?;
            let bias = self.splat_const(Comp::I32, 128, 4);
            let centred = self.op(Op::ISub, &[signed, bias])?;
            self.convert(Op::ConvertSToF, centred, Comp::F32)?
        } else {
            self.convert(Op::ConvertUToF, fields, Comp::F32)?
        };
        let d = self.splat_const(Comp::F32, f32_bits(divisor), 4);
        self.op(Op::FDiv, &[f, d])
    }
}

/// The carry / overflow operands of `x + y` (section 2.X.4.3: "negation
/// modifiers turn add operations into subtracts and vice versa"; with both
/// operands negated the flags are undefined, and the plain add is used).
fn add_operands(x: &Loaded, y: &Loaded) -> AddSub {
    match (x.negated, y.negated) {
        (false, false) => AddSub {
            a: x.base,
            b: y.base,
            subtract: false,
        },
        (false, true) => AddSub {
            a: x.base,
            b: y.base,
            subtract: true,
        },
        (true, false) => AddSub {
            a: y.base,
            b: x.base,
            subtract: true,
        },
        (true, true) => AddSub {
            a: x.value,
            b: y.value,
            subtract: false,
        },
    }
}

/// The carry / overflow operands of `x - y`.
fn sub_operands(x: &Loaded, y: &Loaded) -> AddSub {
    match (x.negated, y.negated) {
        (false, false) => AddSub {
            a: x.base,
            b: y.base,
            subtract: true,
        },
        (false, true) => AddSub {
            a: x.base,
            b: y.base,
            subtract: false,
        },
        // -x - y: undefined flags; the plain subtract of the values.
        (true, false) => AddSub {
            a: x.value,
            b: y.value,
            subtract: true,
        },
        (true, true) => AddSub {
            a: y.base,
            b: x.base,
            subtract: true,
        },
    }
}

pub(crate) fn greater_than(ty: DataType) -> Op {
    match ty {
        DataType::Float => Op::FOrdGreaterThan,
        DataType::Signed => Op::SGreaterThan,
        DataType::Unsigned => Op::UGreaterThan,
    }
}

/// The comparison of a set-on instruction. Float comparisons are ordered
/// (false with a NaN) except `!=`, which is true with a NaN, as in C.
pub(crate) fn set_on_comparison(op: Opcode, ty: DataType) -> LResult<Op> {
    use DataType::{Float as F, Signed as S, Unsigned as U};
    Ok(match (op, ty) {
        (Opcode::Seq, F) => Op::FOrdEqual,
        (Opcode::Seq, _) => Op::IEqual,
        (Opcode::Sne, F) => Op::FUnordNotEqual,
        (Opcode::Sne, _) => Op::INotEqual,
        (Opcode::Slt, F) => Op::FOrdLessThan,
        (Opcode::Slt, S) => Op::SLessThan,
        (Opcode::Slt, U) => Op::ULessThan,
        (Opcode::Sle, F) => Op::FOrdLessThanEqual,
        (Opcode::Sle, S) => Op::SLessThanEqual,
        (Opcode::Sle, U) => Op::ULessThanEqual,
        (Opcode::Sgt, F) => Op::FOrdGreaterThan,
        (Opcode::Sgt, S) => Op::SGreaterThan,
        (Opcode::Sgt, U) => Op::UGreaterThan,
        (Opcode::Sge, F) => Op::FOrdGreaterThanEqual,
        (Opcode::Sge, S) => Op::SGreaterThanEqual,
        (Opcode::Sge, U) => Op::UGreaterThanEqual,
        _ => {
            return Err(LowerError::internal(format!(
                "{op} is not a set-on instruction"
            )))
        }
    })
}
