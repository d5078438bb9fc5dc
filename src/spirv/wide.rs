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
use crate::ir::Instruction;
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
            Opcode::Abs => match ty {
                DataType::Float => self.glsl(GLOp::FAbs, &[v(0)])?,
                DataType::Signed => self.signed_abs(v(0))?,
                DataType::Unsigned => v(0),
            },
            Opcode::Add => self.op(if float { Op::FAdd } else { Op::IAdd }, &[v(0), v(1)])?,
            Opcode::Sub => self.op(if float { Op::FSub } else { Op::ISub }, &[v(0), v(1)])?,
            Opcode::Mul => self.op(if float { Op::FMul } else { Op::IMul }, &[v(0), v(1)])?,
            Opcode::Mad => {
                let (mul, add) = if float {
                    (Op::FMul, Op::FAdd)
                } else {
                    (Op::IMul, Op::IAdd)
                };
                let p = self.op(mul, &[v(0), v(1)])?;
                self.op(add, &[p, v(2)])?
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
            Opcode::I2f => {
                let op = if ty == DataType::Unsigned {
                    Op::ConvertUToF
                } else {
                    Op::ConvertSToF
                };
                self.convert(op, v(0), Comp::F64)?
            }
            Opcode::Sad => {
                // |a - b| + c, the difference exact as an unsigned value.
                let gt = self.cmp(greater_than(ty), v(0), v(1))?;
                let au = self.cast(v(0), Comp::U64)?;
                let bu = self.cast(v(1), Comp::U64)?;
                let d1 = self.op(Op::ISub, &[au, bu])?;
                let d2 = self.op(Op::ISub, &[bu, au])?;
                let d = self.sel(gt, d1, d2)?;
                self.op(Op::IAdd, &[d, v(2)])?
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
    fn float_to_int64(&mut self, x: Val, comp: Comp) -> LResult<Val> {
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
