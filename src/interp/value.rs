//! Register values: four typeless 32-bit components (section 2.X.3.1),
//! each with a flag saying whether the spec leaves its value undefined.

use crate::isa::DataType;

/// A four-component register value. `bits` are the raw 32-bit patterns;
/// bit `i` of `undefined` is set when component `i`'s value is undefined
/// by the spec (an unwritten temporary, an integer division by zero, the
/// `w` of XPD, ...). The interpreter still computes a deterministic value
/// for an undefined component, but a differential test must not compare it.
///
/// ```
/// use nvp4c::interp::Vec4;
/// let v = Vec4 { bits: [1.5f32.to_bits(), (-2i32) as u32, 7, 0], undefined: 0b1000 };
/// assert_eq!((v.f(0), v.i(1), v.u(2)), (1.5, -2, 7));
/// assert!(v.is_undefined(3) && v.any_undefined(0b1100) && !v.any_undefined(0b0111));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Vec4 {
    /// The raw 32-bit patterns of x, y, z, w.
    pub bits: [u32; 4],
    /// Bit `i` set: component `i` is undefined by the spec.
    pub undefined: u8,
}

impl Vec4 {
    /// A value nobody has written yet: zero bits, all undefined.
    ///
    /// ```
    /// assert_eq!(nvp4c::interp::Vec4::UNWRITTEN.undefined, 0xf);
    /// ```
    pub const UNWRITTEN: Vec4 = Vec4 {
        bits: [0; 4],
        undefined: 0xf,
    };

    /// A value with every component defined.
    ///
    /// ```
    /// let v = nvp4c::interp::Vec4::defined([1, 2, 3, 4]);
    /// assert_eq!((v.u(3), v.undefined), (4, 0));
    /// ```
    pub fn defined(bits: [u32; 4]) -> Vec4 {
        Vec4 { bits, undefined: 0 }
    }

    /// The scalar `x` replicated (the "s" result kind of Table X.13).
    ///
    /// ```
    /// let v = nvp4c::interp::Vec4::splat(9, true);
    /// assert_eq!((v.bits, v.undefined), ([9; 4], 0xf));
    /// ```
    pub fn splat(bits: u32, undefined: bool) -> Vec4 {
        Vec4 {
            bits: [bits; 4],
            undefined: if undefined { 0xf } else { 0 },
        }
    }

    /// Whether component `c` (0 to 3) is undefined.
    ///
    /// ```
    /// assert!(nvp4c::interp::Vec4::UNWRITTEN.is_undefined(2));
    /// ```
    pub fn is_undefined(&self, c: usize) -> bool {
        self.undefined & (1 << c) != 0
    }

    /// Component `c` read as a float.
    ///
    /// ```
    /// assert_eq!(nvp4c::interp::Vec4::defined([0x3f80_0000; 4]).f(0), 1.0);
    /// ```
    pub fn f(&self, c: usize) -> f32 {
        f32::from_bits(self.bits[c])
    }

    /// Component `c` read as a signed integer.
    ///
    /// ```
    /// assert_eq!(nvp4c::interp::Vec4::defined([u32::MAX; 4]).i(1), -1);
    /// ```
    pub fn i(&self, c: usize) -> i32 {
        self.bits[c] as i32
    }

    /// Component `c` read as an unsigned integer.
    ///
    /// ```
    /// assert_eq!(nvp4c::interp::Vec4::defined([1, 2, 3, 4]).u(2), 3);
    /// ```
    pub fn u(&self, c: usize) -> u32 {
        self.bits[c]
    }

    /// Whether any of the components in `mask` is undefined.
    ///
    /// ```
    /// let v = nvp4c::interp::Vec4 { bits: [0; 4], undefined: 0b0100 };
    /// assert!(v.any_undefined(0b0110) && !v.any_undefined(0b0011));
    /// ```
    pub fn any_undefined(&self, mask: u8) -> bool {
        self.undefined & mask != 0
    }
}

/// Float TRUE/FALSE and integer all-ones/zero of the "set on" instructions
/// (section 2.X.8.Z, SEQ and issue 24).
pub fn bool_bits(value: bool, ty: DataType) -> u32 {
    match (value, ty) {
        (false, _) => 0,
        (true, DataType::Float) => 1.0f32.to_bits(),
        (true, _) => u32::MAX,
    }
}

/// Whether a component read as `ty` is less than zero (CMP, KIL).
pub fn is_negative(bits: u32, ty: DataType) -> bool {
    match ty {
        DataType::Float => f32::from_bits(bits) < 0.0,
        DataType::Signed => (bits as i32) < 0,
        DataType::Unsigned => false,
    }
}

/// Negation of an operand of type `ty` (section 2.X.4.2): IEEE sign flip
/// for floats, two's complement for integers (issue 22: -(-2^31) is -2^31).
pub fn negate(bits: u32, ty: DataType) -> u32 {
    match ty {
        DataType::Float => (-f32::from_bits(bits)).to_bits(),
        DataType::Signed | DataType::Unsigned => bits.wrapping_neg(),
    }
}

/// Absolute value of an operand of type `ty` (section 2.X.4.2): "For
/// unsigned integer operands, the absolute value operation has no effect."
pub fn absolute(bits: u32, ty: DataType) -> u32 {
    match ty {
        DataType::Float => f32::from_bits(bits).abs().to_bits(),
        DataType::Signed => (bits as i32).wrapping_abs() as u32,
        DataType::Unsigned => bits,
    }
}

/// A float with an integral value (the result of CEIL, FLR, ROUND, TRUNC)
/// written as `ty`. Returns the bits and whether they are undefined: "If a
/// value is not exactly representable using the data type of the result
/// (e.g., an overflow or writing a negative value to an unsigned integer),
/// the result is undefined." The undefined value is Rust's saturating cast.
pub fn integral_float_as(x: f32, ty: DataType) -> (u32, bool) {
    match ty {
        DataType::Float => (x.to_bits(), false),
        DataType::Signed => {
            let ok = (-2_147_483_648.0..2_147_483_648.0).contains(&x);
            ((x as i32) as u32, !ok)
        }
        DataType::Unsigned => {
            let ok = (0.0..4_294_967_296.0).contains(&x);
            (x as u32, !ok)
        }
    }
}

/// IEEE half-precision bits of `x`, rounded to nearest even; overflow
/// gives infinity, NaN stays a (quiet) NaN (PK2H).
pub fn f32_to_f16_bits(x: f32) -> u16 {
    let b = x.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let exp = ((b >> 23) & 0xff) as i32;
    let mantissa = b & 0x007f_ffff;
    if exp == 0xff {
        return if mantissa == 0 {
            sign | 0x7c00
        } else {
            sign | 0x7e00 | (mantissa >> 13) as u16
        };
    }
    // Exponent rebiased from 127 to 15.
    let e = exp - 112;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    if e <= 0 {
        // Subnormal (or zero) half: the significand with its implicit bit,
        // shifted right by 14 - e, rounded to nearest even.
        if e < -10 {
            return sign;
        }
        let m = mantissa | 0x0080_0000;
        let shift = (14 - e) as u32;
        let half = m >> shift;
        let rem = m & ((1 << shift) - 1);
        let halfway = 1 << (shift - 1);
        let rounded = if rem > halfway || (rem == halfway && half & 1 == 1) {
            half + 1
        } else {
            half
        };
        return sign | rounded as u16;
    }
    let half = ((e as u32) << 10) | (mantissa >> 13);
    let rem = mantissa & 0x1fff;
    // A carry out of the mantissa correctly bumps the exponent (to
    // infinity at the top).
    let rounded = if rem > 0x1000 || (rem == 0x1000 && half & 1 == 1) {
        half + 1
    } else {
        half
    };
    sign | rounded as u16
}

/// The float value of IEEE half-precision bits (UP2H); exact.
pub fn f16_bits_to_f32(h: u16) -> f32 {
    let sign = ((h as u32) & 0x8000) << 16;
    let exp = ((h >> 10) & 0x1f) as u32;
    let mantissa = (h & 0x3ff) as u32;
    let magnitude = match exp {
        0 => (mantissa as f32 * (1.0 / 16_777_216.0)).to_bits(),
        0x1f => 0x7f80_0000 | (mantissa << 13),
        _ => ((exp + 112) << 23) | (mantissa << 13),
    };
    f32::from_bits(sign | magnitude)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_conversion_round_trips_and_rounds_to_even() {
        assert_eq!(f32_to_f16_bits(1.0), 0x3c00);
        assert_eq!(f32_to_f16_bits(-2.0), 0xc000);
        assert_eq!(f32_to_f16_bits(65504.0), 0x7bff);
        assert_eq!(f32_to_f16_bits(65520.0), 0x7c00, "rounds up to infinity");
        assert_eq!(
            f32_to_f16_bits(1e-8),
            0,
            "below half the smallest subnormal"
        );
        assert_eq!(f32_to_f16_bits(5.960_464_5e-8), 0x0001, "2^-24");
        assert_eq!(f32_to_f16_bits(f32::INFINITY), 0x7c00);
        assert_eq!(f32_to_f16_bits(f32::NAN) & 0x7e00, 0x7e00);
        // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties to even (1).
        assert_eq!(f32_to_f16_bits(1.0 + 1.0 / 2048.0), 0x3c00);
        assert_eq!(f32_to_f16_bits(1.0 + 3.0 / 2048.0), 0x3c02);
        for h in [0x0001u16, 0x03ff, 0x0400, 0x3c00, 0x7bff, 0xfbff, 0x8001] {
            assert_eq!(f32_to_f16_bits(f16_bits_to_f32(h)), h, "{h:#x}");
        }
    }

    #[test]
    fn integral_conversions_flag_unrepresentable_values() {
        assert_eq!(
            integral_float_as(-3.0, DataType::Signed),
            (-3i32 as u32, false)
        );
        assert!(integral_float_as(-1.0, DataType::Unsigned).1);
        assert!(integral_float_as(2_147_483_648.0, DataType::Signed).1);
        assert!(integral_float_as(f32::NAN, DataType::Signed).1);
        assert_eq!(
            integral_float_as(4_294_967_040.0, DataType::Unsigned),
            (4_294_967_040, false)
        );
    }
}
