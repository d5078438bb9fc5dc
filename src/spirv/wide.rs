//! NV_gpu_program5's 64-bit data types: the instructions of Table X.13
//! with a "6" in the F or I column under `.F64`, `.S64` and `.U64`
//! (section 2.X.4.1: "carried out with an internal precision of no less
//! than ... 64 bits per component"), and PK64 / UP64, which move bits
//! between 64-bit components and pairs of 32-bit ones.
//!
//! Operands arrive as 64-bit values (`load_operand_sized`: a 32-bit
//! variable's components promoted, a LONG variable's read as they are);
//! results are written by `write_dest`, which converts them back for a
//! 32-bit variable. SPIR-V's Float64 and Int64 capabilities come with the
//! types (`emit.rs`); docs/interface.md lists the device features.

use rspirv::spirv::{GlslStd450Op as GLOp, Op};

use super::alu::{greater_than, set_on_comparison};
use super::emit::{Comp, LResult, Val};
use super::operand::Loaded;
use super::{LowerError, Lowerer};
use crate::ir::{Clamp, Conversion, Instruction, Operand, Rounding, StorageType};
use crate::isa::{DataType, Opcode};

/// 1.0 as an f64.
pub(crate) const F64_ONE: u64 = 0x3ff0_0000_0000_0000;
/// The largest f64 below 1.0 (FRC's upper bound).
const F64_BELOW_ONE: u64 = 0x3fef_ffff_ffff_ffff;
/// -2^63 and the largest f64 below 2^63: the signed 64-bit range.
const F64_I64_MIN: u64 = 0xc3e0_0000_0000_0000;
const F64_BELOW_2_POW_63: u64 = 0x43df_ffff_ffff_ffff;
/// The largest f64 below 2^64.
const F64_BELOW_2_POW_64: u64 = 0x43ef_ffff_ffff_ffff;

impl Lowerer<'_> {
    /// The result of a 64-bit instruction: four 64-bit components of its
    /// result type (a scalar result already replicated).
    pub(crate) fn compute64(&mut self, inst: &Instruction, s: &[Loaded]) -> LResult<Val> {
        let ty = inst.ty;
        let float = ty == DataType::Float;
        let comp = Comp::sized(ty, true);
        let v = |i: usize| s[i].value;
        Ok(match inst.op {
            Opcode::Mov => v(0),
            // 64-bit ATOMB, ATOMS, ATOM (memory.rs): the value before, a
            // scalar.
            Opcode::Atomb | Opcode::Atoms | Opcode::Atom => self.memory_atomic(inst, v(0))?,
            Opcode::Abs => match ty {
                DataType::Float => self.glsl(GLOp::FAbs, &[v(0)])?,
                DataType::Signed => self.signed_abs(v(0))?,
                DataType::Unsigned => v(0),
            },
            // Integer ADD, SUB, MAD and SAD are `compute`'s (alu.rs), which
            // keeps their carry and overflow operands.
            Opcode::Add if float => self.op(Op::FAdd, &[v(0), v(1)])?,
            Opcode::Sub if float => self.op(Op::FSub, &[v(0), v(1)])?,
            Opcode::Mul => self.op(if float { Op::FMul } else { Op::IMul }, &[v(0), v(1)])?,
            Opcode::Mad if float => {
                let p = self.op(Op::FMul, &[v(0), v(1)])?;
                self.op(Op::FAdd, &[p, v(2)])?
            }
            Opcode::Min | Opcode::Max => {
                let gt = self.cmp(greater_than(ty), v(0), v(1))?;
                if inst.op == Opcode::Max {
                    self.sel(gt, v(0), v(1))?
                } else {
                    self.sel(gt, v(1), v(0))?
                }
            }
            Opcode::Cmp => {
                let zero = self.splat_const64(comp, 0, 4);
                let lt = match ty {
                    DataType::Float => self.cmp(Op::FOrdLessThan, v(0), zero)?,
                    DataType::Signed => self.cmp(Op::SLessThan, v(0), zero)?,
                    DataType::Unsigned => return Ok(v(2)),
                };
                self.sel(lt, v(1), v(2))?
            }
            Opcode::Seq | Opcode::Sne | Opcode::Slt | Opcode::Sle | Opcode::Sgt | Opcode::Sge => {
                let c = self.cmp(set_on_comparison(inst.op, ty)?, v(0), v(1))?;
                let (t, f) = self.true_false64(ty);
                self.sel(c, t, f)?
            }
            Opcode::Sfl => self.true_false64(ty).1,
            Opcode::Str => self.true_false64(ty).0,
            Opcode::Flr | Opcode::Ceil | Opcode::Trunc | Opcode::Round => {
                let f = match inst.op {
                    Opcode::Flr => GLOp::Floor,
                    Opcode::Ceil => GLOp::Ceil,
                    Opcode::Trunc => GLOp::Trunc,
                    _ => GLOp::RoundEven,
                };
                let r = self.glsl(f, &[v(0)])?;
                match ty {
                    DataType::Float => r,
                    _ => self.float_to_int64(r, comp)?,
                }
            }
            Opcode::Frc => {
                // Section 2.X.8.Z, FRC: "always in the range [0.0, 1.0)".
                let fl = self.glsl(GLOp::Floor, &[v(0)])?;
                let r = self.op(Op::FSub, &[v(0), fl])?;
                let one = self.splat_const64(Comp::F64, F64_ONE, 4);
                let below_one = self.splat_const64(Comp::F64, F64_BELOW_ONE, 4);
                let too_big = self.cmp(Op::FOrdGreaterThanEqual, r, one)?;
                self.sel(too_big, below_one, r)?
            }
            Opcode::Div => {
                let d = self.splat(v(1), 4)?;
                match ty {
                    DataType::Float => self.op(Op::FDiv, &[v(0), d])?,
                    _ => self.int_div_or_mod64(v(0), d, false)?,
                }
            }
            Opcode::Mod => {
                let d = self.splat(v(1), 4)?;
                self.int_div_or_mod64(v(0), d, true)?
            }
            Opcode::Rcp => {
                let one = self.splat_const64(Comp::F64, F64_ONE, 1);
                let r = self.op(Op::FDiv, &[one, v(0)])?;
                self.splat(r, 4)?
            }
            // 1/sqrt(x) as two correctly rounded steps, the interpreter's
            // computation (GLSL.std.450 InverseSqrt promises less).
            Opcode::Rsq => {
                let one = self.splat_const64(Comp::F64, F64_ONE, 1);
                let root = self.glsl(GLOp::Sqrt, &[v(0)])?;
                let r = self.op(Op::FDiv, &[one, root])?;
                self.splat(r, 4)?
            }
            Opcode::Ssg => self.glsl(GLOp::FSign, &[v(0)])?,
            Opcode::And => self.op(Op::BitwiseAnd, &[v(0), v(1)])?,
            Opcode::Or => self.op(Op::BitwiseOr, &[v(0), v(1)])?,
            Opcode::Xor => self.op(Op::BitwiseXor, &[v(0), v(1)])?,
            Opcode::Not => self.op(Op::Not, &[v(0)])?,
            Opcode::Shl | Opcode::Shr => {
                // A count outside [0, 63] is undefined (2.X.8.Z, SHL);
                // only its low six bits count here, so the SPIR-V shift is
                // always defined.
                let amount = self.splat(v(1), 4)?;
                let six_bits = self.splat_const64(amount.comp, 63, 4);
                let amount = self.op(Op::BitwiseAnd, &[amount, six_bits])?;
                let op = match (inst.op, ty) {
                    (Opcode::Shl, _) => Op::ShiftLeftLogical,
                    (_, DataType::Signed) => Op::ShiftRightArithmetic,
                    _ => Op::ShiftRightLogical,
                };
                self.op(op, &[v(0), amount])?
            }
            // Already converted when loaded (`i2f64_operand_of_32_bit_register`).
            Opcode::I2f if v(0).comp == Comp::F64 => v(0),
            Opcode::I2f => {
                let op = if ty == DataType::Unsigned {
                    Op::ConvertUToF
                } else {
                    Op::ConvertSToF
                };
                self.convert(op, v(0), Comp::F64)?
            }
            _ => {
                return Err(LowerError::internal_at(
                    format!("{} has no 64-bit form", inst.op),
                    inst.span,
                ))
            }
        })
    }

    /// PK64 (NV_gpu_program5 2.X.8.Z): "The "x" and "y" components of the
    /// operand are packed to produce the "x" and "z" components of the
    /// result vector; the "z" and "w" components ... the "y" and "w"
    /// components", little-endian (x the low word), as Vulkan devices are.
    pub(crate) fn pack64(&mut self, v: Val, ty: DataType) -> LResult<Val> {
        let words = self.cast(v, Comp::U32)?;
        let lo = self.shuffle(words, words, &[0, 2, 0, 2])?;
        let hi = self.shuffle(words, words, &[1, 3, 1, 3])?;
        let lo = self.resize(lo, Comp::U64)?;
        let hi = self.resize(hi, Comp::U64)?;
        let shift = self.splat_const(Comp::U32, 32, 4);
        let hi = self.op(Op::ShiftLeftLogical, &[hi, shift])?;
        let r = self.op(Op::BitwiseOr, &[lo, hi])?;
        self.cast(r, Comp::sized(ty, true))
    }

    /// UP64 (NV_gpu_program5 2.X.8.Z): "The "x" component of the operand is
    /// unpacked to produce the "x" and "y" components of the result
    /// vector; the "y" component is unpacked to produce the "z" and "w"
    /// components", the low word first.
    pub(crate) fn unpack64(&mut self, v: Val, ty: DataType) -> LResult<Val> {
        let bits = self.cast(v, Comp::U64)?;
        let shift = self.splat_const(Comp::U32, 32, 4);
        let high = self.op(Op::ShiftRightLogical, &[bits, shift])?;
        let lo = self.resize(bits, Comp::U32)?;
        let hi = self.resize(high, Comp::U32)?;
        let r = self.shuffle(lo, hi, &[0, 4, 1, 5])?;
        self.cast(r, Comp::from(ty))
    }

    /// TRUE and FALSE of the 64-bit set-on instructions: 1.0 / 0.0, all
    /// ones / zero (section 2.X.8.Z, SEQ).
    fn true_false64(&mut self, ty: DataType) -> (Val, Val) {
        let comp = Comp::sized(ty, true);
        let t = if ty == DataType::Float {
            F64_ONE
        } else {
            u64::MAX
        };
        (
            self.splat_const64(comp, t, 4),
            self.splat_const64(comp, 0, 4),
        )
    }

    /// An integral f64 converted to a 64-bit integer, saturated first (and
    /// NaN taken to the lower bound) as the 32-bit conversions are, so the
    /// SPIR-V conversion is always defined (docs/semantics.md).
    pub(crate) fn float_to_int64(&mut self, x: Val, comp: Comp) -> LResult<Val> {
        let (lo, hi, op) = if comp == Comp::I64 {
            (F64_I64_MIN, F64_BELOW_2_POW_63, Op::ConvertFToS)
        } else {
            (0, F64_BELOW_2_POW_64, Op::ConvertFToU)
        };
        let lo = self.splat_const64(Comp::F64, lo, x.n);
        let hi = self.splat_const64(Comp::F64, hi, x.n);
        let above = self.cmp(Op::FOrdGreaterThanEqual, x, lo)?;
        let x = self.sel(above, x, lo)?;
        let below = self.cmp(Op::FOrdLessThanEqual, x, hi)?;
        let x = self.sel(below, x, hi)?;
        let ty = self.t(comp, x.n);
        let id = self.emit(op, ty, &[x.id])?;
        Ok(Val { id, comp, n: x.n })
    }

    /// 64-bit integer DIV (`modulus` false) or MOD, with the 32-bit
    /// versions' answers where the spec leaves the result undefined: a
    /// quotient of all ones and a remainder of zero for a zero divisor,
    /// and `-a` / 0 for a signed divisor of -1 (SDiv(INT64_MIN, -1) would
    /// be undefined in SPIR-V).
    fn int_div_or_mod64(&mut self, a: Val, b: Val, modulus: bool) -> LResult<Val> {
        let comp = a.comp;
        let zero = self.splat_const64(comp, 0, 4);
        let one = self.splat_const64(comp, 1, 4);
        let ones = self.splat_const64(comp, u64::MAX, 4);
        let b_zero = self.cmp(Op::IEqual, b, zero)?;
        let signed = comp == Comp::I64;
        let b_m1 = self.cmp(Op::IEqual, b, ones)?;
        let unsafe_b = if signed {
            self.or(b_zero, b_m1)?
        } else {
            b_zero
        };
        let safe = self.sel(unsafe_b, one, b)?;
        let op = match (modulus, signed) {
            (false, true) => Op::SDiv,
            (false, false) => Op::UDiv,
            (true, true) => Op::SRem,
            (true, false) => Op::UMod,
        };
        let r = self.op(op, &[a, safe])?;
        if modulus {
            // x % 1 is 0, so a zero or -1 divisor already gives 0.
            return Ok(r);
        }
        let r = if signed {
            let neg = self.op(Op::SNegate, &[a])?;
            self.sel(b_m1, neg, r)?
        } else {
            r
        };
        self.sel(b_zero, ones, r)
    }
}

/// 2^63 and 2^64 as f64 bits.
const F64_2_POW_63: u64 = 0x43e0_0000_0000_0000;
const F64_2_POW_64: u64 = 0x43f0_0000_0000_0000;

impl Lowerer<'_> {
    /// CVT (NV_gpu_program5 2.X.8.Z) of `x`, the operand loaded at its
    /// storage modifier's size. The result has the result modifier's
    /// type at 64 bits (a 64-bit modifier) or 32 bits (a narrow integer
    /// sign- or zero-extended); `write_dest` converts it to the register's
    /// size. src/interp/wide.rs computes the same.
    /// `clamp`: SAT or SSAT of an F16 result, applied to the float before
    /// it is rounded (the same value as clamping the rounded one: the
    /// bounds are F16 values and rounding is monotonic); other results'
    /// clamps are the caller's.
    pub(crate) fn cvt(&mut self, c: Conversion, x: Val, clamp: Option<Clamp>) -> LResult<Val> {
        let (to, from) = (c.to, c.from);
        // F16: "a floating-point type, but whose sixteen least significant
        // bits describe a 16-bit floating-point value" (2.X.8.Z, CVT). An
        // F16 operand is its f32 value (exact); an F16 result is rounded
        // once, from the operand's float or from an integer's f32 (exact
        // below 2^24, and every larger magnitude overflows a 16-bit float
        // in any rounding), and its encoding is the register's low bits.
        let f32_type = StorageType {
            ty: DataType::Float,
            bits: 32,
        };
        if from.is_half() {
            let f = self.half_to_float(x)?;
            return self.cvt(
                Conversion {
                    from: f32_type,
                    ..c
                },
                f,
                clamp,
            );
        }
        if to.is_half() {
            let f = if from.ty == DataType::Float {
                x
            } else {
                let exact = Conversion {
                    to: f32_type,
                    rounding: Rounding::Round,
                    ..c
                };
                self.cvt(exact, x, None)?
            };
            let f = match clamp {
                Some(clamp) => {
                    let (lo, one) = match (clamp, f.comp) {
                        (Clamp::Sat, Comp::F64) => (0, F64_ONE),
                        (Clamp::Ssat, Comp::F64) => (F64_ONE | 1 << 63, F64_ONE),
                        (Clamp::Sat, _) => (0, 0x3f80_0000),
                        (Clamp::Ssat, _) => (0xbf80_0000, 0x3f80_0000),
                    };
                    let (lo, hi) = if f.comp == Comp::F64 {
                        (
                            self.splat_const64(Comp::F64, lo, 4),
                            self.splat_const64(Comp::F64, one, 4),
                        )
                    } else {
                        (
                            self.splat_const(Comp::F32, lo as u32, 4),
                            self.splat_const(Comp::F32, one as u32, 4),
                        )
                    };
                    // NMax takes a NaN to the lower bound, as every clamp.
                    let f = self.glsl(GLOp::NMax, &[f, lo])?;
                    self.glsl(GLOp::NMin, &[f, hi])?
                }
                None => f,
            };
            let h = self.float_to_half(f, c.rounding)?;
            if c.long_half_result {
                // The encoding zero-extended into the 64-bit component.
                let h = self.cast(h, Comp::U32)?;
                let wide = self.resize(h, Comp::U64)?;
                return self.cast(wide, Comp::F64);
            }
            return self.cast(h, Comp::F32);
        }
        let r = match (from.ty, to.ty) {
            (DataType::Float, DataType::Float) => {
                let v = self.resize(x, Comp::F64)?;
                if to.bits == 64 {
                    return Ok(v);
                }
                let r = self.resize(v, Comp::F32)?;
                let back = self.resize(r, Comp::F64)?;
                let above = self.cmp(Op::FOrdGreaterThan, back, v)?;
                let below = self.cmp(Op::FOrdLessThan, back, v)?;
                return self.directed(r, above, below, c.rounding);
            }
            (_, DataType::Float) => {
                let comp = if to.bits == 64 { Comp::F64 } else { Comp::F32 };
                let (op, limit) = if from.ty == DataType::Signed {
                    (Op::ConvertSToF, F64_2_POW_63)
                } else {
                    (Op::ConvertUToF, F64_2_POW_64)
                };
                // A 32-bit or narrower operand is converted from its 32-bit
                // value, not from the 64-bit extension `n` (the same float:
                // the extension keeps the value). lavapipe (Mesa 22.3)
                // miscompiles a float comparison of the conversion of an
                // OpSConvert-extended value: `x < 0.0` is false for a
                // negative one (docs/conformance.md, "Device deviations";
                // tests/conformance/cvt-int-to-float-compared.nvtest).
                let operand = if from.bits == 64 {
                    self.cast(x, Comp::sized(from.ty, true))?
                } else {
                    self.narrow_int(x, from)?
                };
                let n = self.resize(operand, Comp::sized(from.ty, true))?;
                let ty = self.t(comp, 4);
                let id = self.emit(op, ty, &[operand.id])?;
                let r = Val { id, comp, n: 4 };
                // Whether the nearest float is above or below the integer:
                // converted back (exact, the float being integral) unless
                // it is beyond the integer type.
                let rd = self.resize(r, Comp::F64)?;
                let lim = self.splat_const64(Comp::F64, limit, 4);
                let beyond = self.cmp(Op::FOrdGreaterThanEqual, rd, lim)?;
                let back = self.float_to_int64(rd, n.comp)?;
                let (gt, lt) = if n.comp == Comp::I64 {
                    (Op::SGreaterThan, Op::SLessThan)
                } else {
                    (Op::UGreaterThan, Op::ULessThan)
                };
                let greater = self.cmp(gt, back, n)?;
                let above = self.or(beyond, greater)?;
                let less = self.cmp(lt, back, n)?;
                let inside = self.not(beyond)?;
                let below = self.and(inside, less)?;
                return self.directed(r, above, below, c.rounding);
            }
            (DataType::Float, _) => {
                let v = self.resize(x, Comp::F64)?;
                let f = match c.rounding {
                    Rounding::Round => GLOp::RoundEven,
                    Rounding::Ceil => GLOp::Ceil,
                    Rounding::Floor => GLOp::Floor,
                    Rounding::Trunc => GLOp::Trunc,
                };
                let r = self.glsl(f, &[v])?;
                if c.saturate {
                    self.float_to_int_saturated(r, to)?
                } else {
                    // Through a 64-bit integer: from u64 at and above 2^63,
                    // from i64 below (docs/semantics.md, "CVT").
                    let big = self.splat_const64(Comp::F64, F64_2_POW_63, 4);
                    let is_big = self.cmp(Op::FOrdGreaterThanEqual, r, big)?;
                    let as_u = self.float_to_int64(r, Comp::U64)?;
                    let as_s = self.float_to_int64(r, Comp::I64)?;
                    let as_s = self.cast(as_s, Comp::U64)?;
                    self.sel(is_big, as_u, as_s)?
                }
            }
            _ => {
                let n = self.cvt_operand_int(x, from)?;
                if c.saturate {
                    self.int_saturated(n, to)?
                } else {
                    self.cast(n, Comp::U64)?
                }
            }
        };
        self.narrow_int(r, to)
    }

    /// Whether I2F.S64 / I2F.U64's operand `src` is better converted by
    /// [`Self::i2f64_operand_of_32_bit_register`]: a 32-bit register, and
    /// modifiers that commute with the conversion (an unsigned negation at
    /// 64 bits wraps, so it does not).
    pub(crate) fn i2f64_reads_32_bit_register(&self, inst: &Instruction, src: &Operand) -> bool {
        inst.precision64
            && inst.op == Opcode::I2f
            && !self.program.long_storage(src.var)
            && (src.ty == DataType::Signed || !(src.negate || (src.abs && src.negate_abs)))
    }

    /// I2F's 64-bit operand from a 32-bit register, already converted to
    /// f64: the register's 32-bit value converted, then the operand's
    /// modifiers applied to the float. The same value as converting the
    /// promoted ("sign-extended", 2.X.4.1), modified integer -- an i32 or
    /// u32 is exact in an f64, so negation and absolute value commute with
    /// the conversion. Converting the sign-extended value instead makes
    /// lavapipe (Mesa 22.3) evaluate a float comparison of the result
    /// wrongly, as for CVT (`cvt`; docs/conformance.md, "Device
    /// deviations").
    pub(crate) fn i2f64_operand_of_32_bit_register(
        &mut self,
        src: &Operand,
        scalar: bool,
    ) -> LResult<Loaded> {
        let plain = Operand {
            negate: false,
            abs: false,
            negate_abs: false,
            ..src.clone()
        };
        let x = self.load_operand_sized(&plain, scalar, false)?.value;
        let op = if src.ty == DataType::Unsigned {
            Op::ConvertUToF
        } else {
            Op::ConvertSToF
        };
        let mut f = self.convert(op, x, Comp::F64)?;
        if src.negate {
            f = self.negate(f)?;
        }
        // "For unsigned integer operands, the absolute value operation has
        // no effect."
        if src.abs && src.ty == DataType::Signed {
            f = self.glsl(GLOp::FAbs, &[f])?;
        }
        if src.abs && src.negate_abs {
            f = self.negate(f)?;
        }
        Ok(Loaded {
            value: f,
            base: f,
            negated: false,
        })
    }

    /// An integer CVT operand at 64 bits: the register's value narrowed to
    /// the operand modifier's size, then sign- or zero-extended.
    fn cvt_operand_int(&mut self, x: Val, from: StorageType) -> LResult<Val> {
        let comp = Comp::sized(from.ty, true);
        if from.bits == 64 {
            return self.cast(x, comp);
        }
        let narrow = self.narrow_int(x, from)?;
        self.resize(narrow, comp)
    }

    /// The low `to.bits` bits of the integer `v` (32 or 64 bits), sign- or
    /// zero-extended: 64-bit components for a 64-bit type, 32-bit ones
    /// otherwise ("Integer values drop the most significant bits").
    fn narrow_int(&mut self, v: Val, to: StorageType) -> LResult<Val> {
        let comp = Comp::sized(to.ty, to.bits == 64);
        if to.bits == 64 {
            return self.cast(v, comp);
        }
        let v = self.resize(v, v.comp.to_32())?;
        if to.bits == 32 {
            return self.cast(v, comp);
        }
        let shift = self.splat_const(Comp::U32, 32 - u32::from(to.bits), 4);
        let v = self.cast(v, comp)?;
        let up = self.op(Op::ShiftLeftLogical, &[v, shift])?;
        let down = if to.ty == DataType::Signed {
            Op::ShiftRightArithmetic
        } else {
            Op::ShiftRightLogical
        };
        self.op(down, &[up, shift])
    }

    /// An integral f64 clamped into CVT's integer result type ("Integer
    /// values are clamped to the closest value representable in the result
    /// data type if the "SAT" modifier is specified"), as 64 bits.
    fn float_to_int_saturated(&mut self, r: Val, to: StorageType) -> LResult<Val> {
        let signed = to.ty == DataType::Signed;
        let b = i32::from(to.bits);
        let (lo, hi) = if signed {
            (-(2f64.powi(b - 1)), 2f64.powi(b - 1))
        } else {
            (0.0, 2f64.powi(b))
        };
        let max = if signed {
            (1u64 << (b - 1)) - 1
        } else if b == 64 {
            u64::MAX
        } else {
            (1u64 << b) - 1
        };
        // In range, and not NaN, before the conversion, so it is defined.
        let comp = if signed { Comp::I64 } else { Comp::U64 };
        let lo_v = self.splat_const64(Comp::F64, lo.to_bits(), 4);
        let below_hi = self.splat_const64(Comp::F64, hi.to_bits() - 1, 4);
        let above = self.cmp(Op::FOrdGreaterThanEqual, r, lo_v)?;
        let x = self.sel(above, r, lo_v)?;
        let under = self.cmp(Op::FOrdLessThanEqual, x, below_hi)?;
        let x = self.sel(under, x, below_hi)?;
        let conv = self.float_to_int64(x, comp)?;
        let hi_v = self.splat_const64(Comp::F64, hi.to_bits(), 4);
        let too_big = self.cmp(Op::FOrdGreaterThanEqual, r, hi_v)?;
        let max_v = self.splat_const64(comp, max, 4);
        self.sel(too_big, max_v, conv)
    }

    /// A 64-bit integer clamped into CVT's integer result type.
    fn int_saturated(&mut self, n: Val, to: StorageType) -> LResult<Val> {
        let b = u32::from(to.bits);
        let (lo, hi): (i128, i128) = if to.ty == DataType::Signed {
            (-(1 << (b - 1)), (1 << (b - 1)) - 1)
        } else {
            (0, (1 << b) - 1)
        };
        let mut v = n;
        if n.comp == Comp::I64 {
            // Signed comparisons as unsigned ones of the values with their
            // sign bits flipped: lavapipe (Mesa 22.3) drops the lower bound
            // of a 64-bit clamp of a sign-extended value written with
            // OpSLessThan and OpSelect (exec_nv5_64bit found it).
            let sign = self.splat_const64(Comp::U64, 1 << 63, 4);
            let bits = self.cast(v, Comp::U64)?;
            let biased = self.op(Op::BitwiseXor, &[bits, sign])?;
            let mut out = bits;
            if lo > i128::from(i64::MIN) {
                let c = self.splat_const64(Comp::U64, lo as i64 as u64, 4);
                let cb = self.splat_const64(Comp::U64, (lo as i64 as u64) ^ (1 << 63), 4);
                let low = self.cmp(Op::ULessThan, biased, cb)?;
                out = self.sel(low, c, out)?;
            }
            if hi < i128::from(i64::MAX) {
                let c = self.splat_const64(Comp::U64, hi as u64, 4);
                let cb = self.splat_const64(Comp::U64, (hi as u64) ^ (1 << 63), 4);
                let high = self.cmp(Op::UGreaterThan, biased, cb)?;
                out = self.sel(high, c, out)?;
            }
            return Ok(out);
        } else if hi < i128::from(u64::MAX) {
            let c = self.splat_const64(Comp::U64, hi as u64, 4);
            let high = self.cmp(Op::UGreaterThan, v, c)?;
            v = self.sel(high, c, v)?;
        }
        self.cast(v, Comp::U64)
    }

    /// The float `r` (nearest to the exact value) moved to its neighbour
    /// when the rounding modifier wants the other side of the exact value:
    /// `above` / `below` say where `r` lies. The neighbours are one step of
    /// the bit pattern, down in magnitude or up.
    fn directed(&mut self, r: Val, above: Val, below: Val, rounding: Rounding) -> LResult<Val> {
        let (down, up) = match rounding {
            Rounding::Round => return Ok(r),
            Rounding::Floor => (Some(above), None),
            Rounding::Ceil => (None, Some(below)),
            Rounding::Trunc => (Some(above), Some(below)),
        };
        let bits_comp = if r.comp == Comp::F64 {
            Comp::U64
        } else {
            Comp::U32
        };
        let bits = self.cast(r, bits_comp)?;
        let (one, sign) = if bits_comp == Comp::U64 {
            (
                self.splat_const64(Comp::U64, 1, 4),
                self.splat_const64(Comp::U64, 1 << 63, 4),
            )
        } else {
            (
                self.splat_const(Comp::U32, 1, 4),
                self.splat_const(Comp::U32, 0x8000_0000, 4),
            )
        };
        let zero = self.konst_zero(bits_comp);
        let sign_bits = self.op(Op::BitwiseAnd, &[bits, sign])?;
        let positive = self.cmp(Op::IEqual, sign_bits, zero)?;
        let plus = self.op(Op::IAdd, &[bits, one])?;
        let minus = self.op(Op::ISub, &[bits, one])?;
        let stepped_down = self.sel(positive, minus, plus)?;
        let stepped_up = self.sel(positive, plus, minus)?;
        let negative = self.not(positive)?;
        // TRUNC: down when positive and above, up when negative and below.
        let down = match (rounding, down) {
            (Rounding::Trunc, Some(d)) => Some(self.and(d, positive)?),
            (_, d) => d,
        };
        let up = match (rounding, up) {
            (Rounding::Trunc, Some(u)) => Some(self.and(u, negative)?),
            (_, u) => u,
        };
        let mut out = bits;
        if let Some(u) = up {
            out = self.sel(u, stepped_up, out)?;
        }
        if let Some(d) = down {
            out = self.sel(d, stepped_down, out)?;
        }
        self.cast(out, r.comp)
    }

    fn konst_zero(&mut self, comp: Comp) -> Val {
        if comp.is_64() {
            self.splat_const64(comp, 0, 4)
        } else {
            self.splat_const(comp, 0, 4)
        }
    }
}
