//! 16-bit floats (NV_gpu_program5 section 2.1.2's encoding) on the host:
//! the same computations as src/spirv/half.rs, for CVT to and from F16 and
//! NV_gpu_program5_mem_extended's F16 storage modifiers.

use crate::ir::Rounding;

/// The 16-bit float encoded in `h`, exactly.
pub(crate) fn half_to_f32(h: u16) -> f32 {
    let sign = u32::from(h & 0x8000) << 16;
    let e = u32::from(h >> 10) & 0x1f;
    let mantissa = u32::from(h & 0x3ff);
    let magnitude = match e {
        // Denormals: mantissa * 2^-24, exact in an f32.
        0 => (mantissa as f32 * f32::from_bits(0x3380_0000)).to_bits(),
        31 => 0x7f80_0000 | mantissa << 13,
        _ => (e + 112) << 23 | mantissa << 13,
    };
    f32::from_bits(sign | magnitude)
}

/// `x` rounded to a 16-bit float by `rounding`, encoded: an overflow is
/// infinity when rounding to nearest or away from zero, 0x7bff otherwise;
/// infinities stay, NaN is 0x7e00.
pub(crate) fn f64_to_half(x: f64, rounding: Rounding) -> u16 {
    if x.is_nan() {
        return 0x7e00;
    }
    let sign = if x.is_sign_negative() { 0x8000 } else { 0 };
    if x.is_infinite() {
        return sign | 0x7c00;
    }
    let positive = sign == 0;
    // Beyond 2^17 every value overflows alike.
    let a = x.abs().min(131072.0);
    let e = (((a.to_bits() >> 52) & 0x7ff) as i32 - 1023).max(-14);
    // The mantissa with its last bit at 2^0 (a power of two: exact).
    let q = a * 2f64.powi(10 - e);
    let r = match rounding {
        Rounding::Round => q.round_ties_even(),
        Rounding::Trunc => q.floor(),
        Rounding::Ceil if positive => q.ceil(),
        Rounding::Floor if !positive => q.ceil(),
        Rounding::Ceil | Rounding::Floor => q.floor(),
    };
    let encoded = (((e + 14) as u32) << 10) + r as u32;
    let encoded = if encoded >= 0x7c00 {
        let to_infinity = match rounding {
            Rounding::Round => true,
            Rounding::Trunc => false,
            Rounding::Ceil => positive,
            Rounding::Floor => !positive,
        };
        if to_infinity {
            0x7c00
        } else {
            0x7bff
        }
    } else {
        encoded
    };
    sign | encoded as u16
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_values_by_hand() {
        // 1/3: 0x3555 is 0.33325195 (below), 0x3556 0.33349609 (above);
        // the nearest is below.
        let third = 1.0f64 / 3.0;
        assert_eq!(f64_to_half(third, Rounding::Round), 0x3555);
        assert_eq!(f64_to_half(third, Rounding::Ceil), 0x3556);
        assert_eq!(f64_to_half(-third, Rounding::Ceil), 0xb555);
        assert_eq!(f64_to_half(-third, Rounding::Floor), 0xb556);
        assert_eq!(f64_to_half(third, Rounding::Trunc), 0x3555);
        // 65504 is the largest; 65520 is the tie between it and 2^16.
        assert_eq!(f64_to_half(65520.0, Rounding::Round), 0x7c00);
        assert_eq!(f64_to_half(65519.0, Rounding::Round), 0x7bff);
        assert_eq!(f64_to_half(1e9, Rounding::Trunc), 0x7bff);
        assert_eq!(f64_to_half(-1e9, Rounding::Floor), 0xfc00);
        // 2^-24, the smallest denormal, and half of it (a tie, to 0).
        assert_eq!(f64_to_half(2f64.powi(-24), Rounding::Round), 0x0001);
        assert_eq!(f64_to_half(2f64.powi(-25), Rounding::Round), 0x0000);
        assert_eq!(f64_to_half(2f64.powi(-25), Rounding::Ceil), 0x0001);
        assert_eq!(f64_to_half(-0.0, Rounding::Round), 0x8000);
        // 2047.5 rounds to the even 2048: a carry into the exponent.
        assert_eq!(f64_to_half(2047.5, Rounding::Round), 0x6800);
        assert_eq!(half_to_f32(0x3c00), 1.0);
        assert_eq!(half_to_f32(0xc000), -2.0);
        assert_eq!(half_to_f32(0x0001), 2f32.powi(-24));
        assert_eq!(half_to_f32(0x7c00), f32::INFINITY);
        assert_eq!(half_to_f32(0x7bff), 65504.0);
        assert!(half_to_f32(0x7e00).is_nan());
    }
}
