//! 16-bit floats (NV_gpu_program5 section 2.1.2's encoding): CVT to and
//! from F16, and NV_gpu_program5_mem_extended's F16 storage modifiers.
//!
//! Computed with 32-bit integer and float operations on the encoding
//! rather than SPIR-V's 16-bit types: no Float16 or 16-bit storage
//! capability is needed, so every target environment and device runs it,
//! and CVT's four rounding modes are exact (OpFConvert to a 16-bit float
//! rounds as the device likes unless FPRoundingMode decorates it, which
//! Vulkan allows on 16-bit storage conversions only). docs/semantics.md,
//! "16-bit floats"; src/interp/half.rs computes the same on the host.

use rspirv::spirv::{GlslStd450Op as GLOp, Op};

use super::emit::{Comp, LResult, Val};
use super::Lowerer;
use crate::ir::Rounding;

/// 2^-24, the value of the lowest mantissa bit of a 16-bit denormal.
const F32_2_POW_MINUS_24: u32 = 0x3380_0000;
/// 2^17 as f32 and f64: every magnitude at or above it overflows a
/// 16-bit float (whose largest finite value is 65504) in every rounding.
const F32_2_POW_17: u32 = 0x4800_0000;
const F64_2_POW_17: u64 = 0x40f0_0000_0000_0000;

impl Lowerer<'_> {
    /// The 16-bit floats in the low bits of `h` (U32 components; the high
    /// bits ignored) as f32 values, exactly: denormals, infinities and NaN
    /// included.
    pub(crate) fn half_to_float(&mut self, h: Val) -> LResult<Val> {
        let n = h.n;
        // A LONG register's F16 is the low bits of its 64-bit component.
        let h = if h.comp.is_64() {
            let bits = self.cast(h, Comp::U64)?;
            self.resize(bits, Comp::U32)?
        } else {
            self.cast(h, Comp::U32)?
        };
        let k = |l: &mut Self, v: u32| l.splat_const(Comp::U32, v, n);
        let sign_mask = k(self, 0x8000);
        let sixteen = k(self, 16);
        let sign = self.op(Op::BitwiseAnd, &[h, sign_mask])?;
        let sign = self.op(Op::ShiftLeftLogical, &[sign, sixteen])?;
        let ten = k(self, 10);
        let five_bits = k(self, 0x1f);
        let e = self.op(Op::ShiftRightLogical, &[h, ten])?;
        let e = self.op(Op::BitwiseAnd, &[e, five_bits])?;
        let mantissa_mask = k(self, 0x3ff);
        let mantissa = self.op(Op::BitwiseAnd, &[h, mantissa_mask])?;
        let thirteen = k(self, 13);
        let mantissa = self.op(Op::ShiftLeftLogical, &[mantissa, thirteen])?;
        // Normal: the exponent rebiased from 15 to 127.
        let rebias = k(self, 112);
        let e32 = self.op(Op::IAdd, &[e, rebias])?;
        let twenty_three = k(self, 23);
        let e32 = self.op(Op::ShiftLeftLogical, &[e32, twenty_three])?;
        let normal = self.op(Op::BitwiseOr, &[e32, mantissa])?;
        // Exponent 31: infinity or NaN, the mantissa kept.
        let all_ones = k(self, 0x7f80_0000);
        let special = self.op(Op::BitwiseOr, &[all_ones, mantissa])?;
        // Exponent 0: mantissa * 2^-24 (exact in an f32), zero included.
        let m = self.op(Op::BitwiseAnd, &[h, mantissa_mask])?;
        let m = self.convert(Op::ConvertUToF, m, Comp::F32)?;
        let scale = self.splat_const(Comp::F32, F32_2_POW_MINUS_24, n);
        let small = self.op(Op::FMul, &[m, scale])?;
        let small = self.cast(small, Comp::U32)?;
        let zero = k(self, 0);
        let max_e = k(self, 31);
        let is_small = self.cmp(Op::IEqual, e, zero)?;
        let is_special = self.cmp(Op::IEqual, e, max_e)?;
        let r = self.sel(is_special, special, normal)?;
        let r = self.sel(is_small, small, r)?;
        let r = self.op(Op::BitwiseOr, &[r, sign])?;
        self.cast(r, Comp::F32)
    }

    /// The f32 or f64 components of `x` rounded to 16-bit floats by
    /// `rounding` (CVT's ROUND, CEIL, FLR, TRUNC), as their encodings in
    /// U32 components. Exact: the magnitude is scaled by a power of two so
    /// that the 16-bit float's last mantissa bit is the units digit
    /// (exact), rounded to an integer (RoundEven, Floor, Ceil: exact), and
    /// that integer plus the exponent is the encoding (a carry into the
    /// exponent included). An overflow is infinity when rounding away from
    /// zero or to nearest, the largest finite value (0x7bff) otherwise;
    /// infinities stay, NaN is 0x7e00.
    pub(crate) fn float_to_half(&mut self, x: Val, rounding: Rounding) -> LResult<Val> {
        let n = x.n;
        let wide = x.comp == Comp::F64;
        let (bits_comp, top, exponent_shift, exponent_mask, bias) = if wide {
            (Comp::U64, 63, 52, 0x7ff, 1023)
        } else {
            (Comp::U32, 31, 23, 0xff, 127)
        };
        let k = |l: &mut Self, v: u32| l.splat_const(Comp::U32, v, n);
        let kb = |l: &mut Self, v: u64| {
            if wide {
                l.splat_const64(Comp::U64, v, n)
            } else {
                l.splat_const(Comp::U32, v as u32, n)
            }
        };
        // The sign, at bit 15.
        let xb = self.cast(x, bits_comp)?;
        let top_shift = kb(self, top);
        let sign = self.op(Op::ShiftRightLogical, &[xb, top_shift])?;
        let sign = self.resize(sign, Comp::U32)?;
        let fifteen = k(self, 15);
        let sign = self.op(Op::ShiftLeftLogical, &[sign, fifteen])?;
        let zero = k(self, 0);
        let positive = self.cmp(Op::IEqual, sign, zero)?;
        let nan = self.test(Op::IsNan, x, n)?;
        let infinite = self.test(Op::IsInf, x, n)?;
        // The magnitude, below 2^17 (beyond, every value overflows alike;
        // NMin takes a NaN to 2^17, replaced at the end).
        let a = self.glsl(GLOp::FAbs, &[x])?;
        let limit = if wide {
            self.splat_const64(Comp::F64, F64_2_POW_17, n)
        } else {
            self.splat_const(Comp::F32, F32_2_POW_17, n)
        };
        let a = self.glsl(GLOp::NMin, &[a, limit])?;
        // Its exponent, at least -14 (the denormals').
        let ab = self.cast(a, bits_comp)?;
        let shift = kb(self, exponent_shift);
        let field = self.op(Op::ShiftRightLogical, &[ab, shift])?;
        let mask = kb(self, exponent_mask);
        let field = self.op(Op::BitwiseAnd, &[field, mask])?;
        let field = self.resize(field, Comp::U32)?;
        let field = self.cast(field, Comp::I32)?;
        let bias = self.splat_const(Comp::I32, bias, n);
        let e = self.op(Op::ISub, &[field, bias])?;
        let lowest = self.splat_const(Comp::I32, (-14i32) as u32, n);
        let e = self.glsl(GLOp::SMax, &[e, lowest])?;
        // q = a * 2^(10 - e): the mantissa with its last bit at 2^0.
        let ten = self.splat_const(Comp::I32, 10, n);
        let scale = self.op(Op::ISub, &[ten, e])?;
        let ty = self.t_of(a);
        let q = self.glsl_typed(GLOp::Ldexp, ty, a.comp, n, &[a, scale])?;
        let toward_zero = self.glsl(GLOp::Floor, &[q])?;
        let r = match rounding {
            Rounding::Round => self.glsl(GLOp::RoundEven, &[q])?,
            Rounding::Trunc => toward_zero,
            Rounding::Ceil | Rounding::Floor => {
                let away = self.glsl(GLOp::Ceil, &[q])?;
                // CEIL rounds a positive value's magnitude up, FLR a
                // negative one's.
                if rounding == Rounding::Ceil {
                    self.sel(positive, away, toward_zero)?
                } else {
                    self.sel(positive, toward_zero, away)?
                }
            }
        };
        // An integer below 2^12: exact in an f32.
        let r = self.resize(r, Comp::F32)?;
        let r = self.convert(Op::ConvertFToU, r, Comp::U32)?;
        // ((e + 14) << 10) + r: a normal's exponent field is e + 15 and r
        // carries its implicit 2^10; a denormal has e = -14 and r < 2^10.
        let fourteen = self.splat_const(Comp::I32, 14, n);
        let biased = self.op(Op::IAdd, &[e, fourteen])?;
        let biased = self.cast(biased, Comp::U32)?;
        let ten_u = k(self, 10);
        let biased = self.op(Op::ShiftLeftLogical, &[biased, ten_u])?;
        let encoded = self.op(Op::IAdd, &[biased, r])?;
        let infinity = k(self, 0x7c00);
        let largest = k(self, 0x7bff);
        let overflow_value = match rounding {
            Rounding::Round => infinity,
            Rounding::Trunc => largest,
            Rounding::Ceil => self.sel(positive, infinity, largest)?,
            Rounding::Floor => self.sel(positive, largest, infinity)?,
        };
        let overflow = self.cmp(Op::UGreaterThanEqual, encoded, infinity)?;
        let encoded = self.sel(overflow, overflow_value, encoded)?;
        let encoded = self.sel(infinite, infinity, encoded)?;
        let encoded = self.op(Op::BitwiseOr, &[encoded, sign])?;
        let quiet_nan = k(self, 0x7e00);
        self.sel(nan, quiet_nan, encoded)
    }
}
