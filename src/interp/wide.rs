//! NV_gpu_program5's 64-bit data types (section 2.X.4.1): LONG variables'
//! 64-bit components, the promotion and conversion between them and
//! 32-bit ones, the instructions under `.F64`, `.S64`, `.U64`, and PK64 /
//! UP64. The same computations as src/spirv/wide.rs, on host values.

use super::value::Vec4;
use super::InterpError;
use crate::ir::{Conversion, Instruction, Rounding, StorageType};
use crate::isa::{DataType, Opcode};

/// Four 64-bit components (a LONG variable's element, or a 64-bit
/// instruction's operand or result) and which of them are undefined.
///
/// ```
/// let w = nvp4c::interp::Wide4 { bits: [1, 2, 3, 4], undefined: 0 };
/// assert_eq!(w.bits[3], 4);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wide4 {
    /// The raw 64-bit patterns of x, y, z, w.
    pub bits: [u64; 4],
    /// Bit `i` set: component `i` is undefined by the spec.
    pub undefined: u8,
}

impl Wide4 {
    /// A LONG temporary nobody has written yet.
    pub(super) const UNWRITTEN: Wide4 = Wide4 {
        bits: [0; 4],
        undefined: 0xf,
    };
}

/// A 32-bit component of type `ty` at 64 bits: "Signed integer operands
/// will be sign-extended ... Unsigned integer operands will be
/// zero-extended" (2.X.4.1); a float converted exactly.
pub(super) fn promote(v: Vec4, ty: DataType) -> Wide4 {
    Wide4 {
        bits: v.bits.map(|b| match ty {
            DataType::Float => f64::from(f32::from_bits(b)).to_bits(),
            DataType::Signed => b as i32 as i64 as u64,
            DataType::Unsigned => u64::from(b),
        }),
        undefined: v.undefined,
    }
}

/// A 64-bit component of type `ty` at 32 bits: "Operands represented with
/// more bits than used to perform the instruction will be converted to
/// lower precision" -- the nearest f32 (ties to even), or an integer's low
/// 32 bits ("integer overflows result in the truncation of the most
/// significant bits").
pub(super) fn demote(w: Wide4, ty: DataType) -> Vec4 {
    Vec4 {
        bits: w.bits.map(|b| match ty {
            DataType::Float => (f64::from_bits(b) as f32).to_bits(),
            _ => b as u32,
        }),
        undefined: w.undefined,
    }
}

/// Negation of a 64-bit operand (2.X.4.2), two's complement for integers.
pub(super) fn negate(bits: u64, ty: DataType) -> u64 {
    match ty {
        DataType::Float => (-f64::from_bits(bits)).to_bits(),
        _ => bits.wrapping_neg(),
    }
}

/// Absolute value of a 64-bit operand; none for unsigned integers.
pub(super) fn absolute(bits: u64, ty: DataType) -> u64 {
    match ty {
        DataType::Float => f64::from_bits(bits).abs().to_bits(),
        DataType::Signed => (bits as i64).wrapping_abs() as u64,
        DataType::Unsigned => bits,
    }
}

/// PK64: (x | y << 32, z | w << 32, x | y << 32, z | w << 32), the
/// little-endian order of NV_gpu_program5 2.X.8.Z, PK64.
pub(super) fn pack64(v: Vec4) -> Wide4 {
    let pair = |lo: usize, hi: usize| u64::from(v.bits[lo]) | u64::from(v.bits[hi]) << 32;
    let either = |a: usize, b: usize| (v.undefined >> a | v.undefined >> b) & 1;
    let (xy, zw) = (either(0, 1), either(2, 3));
    Wide4 {
        bits: [pair(0, 1), pair(2, 3), pair(0, 1), pair(2, 3)],
        undefined: xy | zw << 1 | xy << 2 | zw << 3,
    }
}

/// UP64: (low x, high x, low y, high y) (NV_gpu_program5 2.X.8.Z, UP64).
pub(super) fn unpack64(w: Wide4) -> Vec4 {
    let (x, y) = (w.bits[0], w.bits[1]);
    let (ux, uy) = (w.undefined & 1, (w.undefined >> 1) & 1);
    Vec4 {
        bits: [x as u32, (x >> 32) as u32, y as u32, (y >> 32) as u32],
        undefined: ux | ux << 1 | uy << 2 | uy << 3,
    }
}

fn f(b: u64) -> f64 {
    f64::from_bits(b)
}

fn fb(x: f64) -> u64 {
    x.to_bits()
}

/// One component of a 64-bit result and whether the spec leaves it
/// undefined.
type Comp = (u64, bool);

fn defined(b: u64) -> Comp {
    (b, false)
}

/// `a > b` as type `ty` (MIN, MAX, SAD; ordered for floats).
fn greater(a: u64, b: u64, ty: DataType) -> bool {
    match ty {
        DataType::Float => f(a) > f(b),
        DataType::Signed => (a as i64) > (b as i64),
        DataType::Unsigned => a > b,
    }
}

/// An integral f64 as a 64-bit integer of `ty`: undefined outside its
/// range (2.X.8.Z, FLR: "If a value is not exactly representable using the
/// data type of the result ... the result is undefined"); the value is then
/// the saturated one, NaN the lower bound, as the SPIR-V computes.
fn integral_as(x: f64, ty: DataType) -> Comp {
    match ty {
        DataType::Float => defined(fb(x)),
        DataType::Signed => {
            let exact = x >= -(2f64.powi(63)) && x < 2f64.powi(63);
            let v = if x.is_nan() { i64::MIN } else { x as i64 };
            (v as u64, !exact)
        }
        DataType::Unsigned => {
            let exact = x >= 0.0 && x < 2f64.powi(64);
            ((if x.is_nan() { 0 } else { x as u64 }), !exact)
        }
    }
}

/// Evaluates a 64-bit instruction (`precision64`) on its 64-bit operands.
pub(super) fn evaluate64(inst: &Instruction, s: &[Wide4]) -> Result<Wide4, InterpError> {
    let ty = inst.ty;
    let float = ty == DataType::Float;
    let per = |n: usize, g: &dyn Fn(&[u64]) -> Comp| -> Wide4 {
        let mut out = Wide4::default();
        for c in 0..4 {
            let args: Vec<u64> = s[..n].iter().map(|v| v.bits[c]).collect();
            let (b, undefined) = g(&args);
            out.bits[c] = b;
            let any = s[..n].iter().any(|v| v.undefined & (1 << c) != 0);
            if undefined || any {
                out.undefined |= 1 << c;
            }
        }
        out
    };
    // The second operand of DIV, MOD, SHL, SHR is the scalar x.
    let with_scalar = |g: &dyn Fn(u64, u64) -> Comp| -> Wide4 {
        let mut out = Wide4::default();
        let (b, bu) = (s[1].bits[0], s[1].undefined & 1 != 0);
        for c in 0..4 {
            let (r, undefined) = g(s[0].bits[c], b);
            out.bits[c] = r;
            if undefined || bu || s[0].undefined & (1 << c) != 0 {
                out.undefined |= 1 << c;
            }
        }
        out
    };
    let scalar_float = |g: &dyn Fn(f64) -> f64| -> Wide4 {
        let r = fb(g(f(s[0].bits[0])));
        Wide4 {
            bits: [r; 4],
            undefined: if s[0].undefined & 1 != 0 { 0xf } else { 0 },
        }
    };
    let (t, fls) = if float { (fb(1.0), 0) } else { (u64::MAX, 0) };
    use Opcode as O;
    Ok(match inst.op {
        O::Mov => s[0],
        O::Abs => per(1, &|a| defined(absolute(a[0], ty))),
        O::Add => per(2, &|a| match ty {
            DataType::Float => defined(fb(f(a[0]) + f(a[1]))),
            _ => defined(a[0].wrapping_add(a[1])),
        }),
        O::Sub => per(2, &|a| match ty {
            DataType::Float => defined(fb(f(a[0]) - f(a[1]))),
            _ => defined(a[0].wrapping_sub(a[1])),
        }),
        O::Mul => per(2, &|a| match ty {
            DataType::Float => defined(fb(f(a[0]) * f(a[1]))),
            _ => defined(a[0].wrapping_mul(a[1])),
        }),
        // Rounded after the multiply and after the add, as the SPIR-V's
        // NoContraction operations.
        O::Mad => per(3, &|a| match ty {
            DataType::Float => defined(fb(f(a[0]) * f(a[1]) + f(a[2]))),
            _ => defined(a[0].wrapping_mul(a[1]).wrapping_add(a[2])),
        }),
        O::Min => per(2, &|a| {
            defined(if greater(a[0], a[1], ty) { a[1] } else { a[0] })
        }),
        O::Max => per(2, &|a| {
            defined(if greater(a[0], a[1], ty) { a[0] } else { a[1] })
        }),
        O::Cmp => per(3, &|a| {
            let negative = match ty {
                DataType::Float => f(a[0]) < 0.0,
                DataType::Signed => (a[0] as i64) < 0,
                DataType::Unsigned => false,
            };
            defined(if negative { a[1] } else { a[2] })
        }),
        O::Seq | O::Sne | O::Slt | O::Sle | O::Sgt | O::Sge => per(2, &|a| {
            use std::cmp::Ordering::*;
            let ord = match ty {
                DataType::Float => f(a[0]).partial_cmp(&f(a[1])),
                DataType::Signed => Some((a[0] as i64).cmp(&(a[1] as i64))),
                DataType::Unsigned => Some(a[0].cmp(&a[1])),
            };
            // Ordered comparisons, except SNE, which is true with a NaN.
            let r = match (inst.op, ord) {
                (O::Sne, o) => o != Some(Equal),
                (_, None) => false,
                (O::Seq, Some(o)) => o == Equal,
                (O::Slt, Some(o)) => o == Less,
                (O::Sle, Some(o)) => o != Greater,
                (O::Sgt, Some(o)) => o == Greater,
                (_, Some(o)) => o != Less,
            };
            defined(if r { t } else { fls })
        }),
        O::Sfl => Wide4 {
            bits: [fls; 4],
            undefined: 0,
        },
        O::Str => Wide4 {
            bits: [t; 4],
            undefined: 0,
        },
        O::Flr | O::Ceil | O::Trunc | O::Round => per(1, &|a| {
            let x = f(a[0]);
            let r = match inst.op {
                O::Flr => x.floor(),
                O::Ceil => x.ceil(),
                O::Trunc => x.trunc(),
                // "If the fractional portion of the operand is 0.5, round()
                // selects the nearest even integer."
                _ => x.round_ties_even(),
            };
            integral_as(r, ty)
        }),
        O::Frc => per(1, &|a| {
            let x = f(a[0]);
            let r = x - x.floor();
            defined(fb(if r >= 1.0 { 1f64.next_down() } else { r }))
        }),
        O::Div => with_scalar(&|a, b| match ty {
            DataType::Float => defined(fb(f(a) / f(b))),
            // "The results of an signed or unsigned integer division by
            // zero are undefined."
            _ if b == 0 => (u64::MAX, true),
            DataType::Signed => defined((a as i64).wrapping_div(b as i64) as u64),
            _ => defined(a / b),
        }),
        O::Mod => with_scalar(&|a, b| match ty {
            // "A result component is undefined if the corresponding
            // component of the first operand is negative or if the second
            // operand is less than or equal to zero."
            DataType::Signed if b as i64 <= 0 => {
                ((a as i64).checked_rem(b as i64).unwrap_or(0) as u64, true)
            }
            DataType::Signed => ((a as i64).wrapping_rem(b as i64) as u64, (a as i64) < 0),
            _ if b == 0 => (0, true),
            _ => defined(a % b),
        }),
        O::Rcp => scalar_float(&|x| 1.0 / x),
        O::Rsq => scalar_float(&|x| 1.0 / x.sqrt()),
        O::Ssg => per(1, &|a| {
            let x = f(a[0]);
            // SetSign of a NaN is not defined.
            if x.is_nan() {
                (fb(0.0), true)
            } else if x > 0.0 {
                defined(fb(1.0))
            } else if x < 0.0 {
                defined(fb(-1.0))
            } else {
                defined(fb(0.0))
            }
        }),
        O::And => per(2, &|a| defined(a[0] & a[1])),
        O::Or => per(2, &|a| defined(a[0] | a[1])),
        O::Xor => per(2, &|a| defined(a[0] ^ a[1])),
        O::Not => per(1, &|a| defined(!a[0])),
        O::Shl | O::Shr => with_scalar(&|a, b| {
            // "undefined if the value of the second operand is negative, or
            // greater than or equal to the number of bits in the first";
            // the low six bits of the count are used (as the SPIR-V does).
            let bad = match ty {
                DataType::Signed => !(0..64).contains(&(b as i64)),
                _ => b >= 64,
            };
            let n = (b & 63) as u32;
            let r = match (inst.op, ty) {
                (O::Shl, _) => a << n,
                (_, DataType::Signed) => ((a as i64) >> n) as u64,
                _ => a >> n,
            };
            (r, bad)
        }),
        O::I2f => per(1, &|a| match ty {
            DataType::Unsigned => defined(fb(a[0] as f64)),
            _ => defined(fb(a[0] as i64 as f64)),
        }),
        O::Sad => per(3, &|a| {
            let d = if greater(a[0], a[1], ty) {
                a[0].wrapping_sub(a[1])
            } else {
                a[1].wrapping_sub(a[0])
            };
            defined(d.wrapping_add(a[2]))
        }),
        _ => {
            return Err(InterpError::Internal {
                what: format!("{} has no 64-bit form", inst.op),
                span: inst.span,
            })
        }
    })
}

/// SAT / SSAT of a 64-bit float result (section 2.X.4.1); a NaN becomes
/// the lower bound and undefined, as the 32-bit clamp does.
pub(super) fn clamp64(v: &mut Wide4, lo: f64) {
    for c in 0..4 {
        let x = f(v.bits[c]);
        let r = if x.is_nan() {
            v.undefined |= 1 << c;
            lo
        } else {
            x.clamp(lo, 1.0)
        };
        v.bits[c] = fb(r);
    }
}

/// A CVT operand as a number: an f64 (F32 promoted exactly), or an
/// integer narrowed to the operand type's size (NV_gpu_program5 2.X.8.Z,
/// CVT: "the source register components are first interpreted as a value
/// with the same base data type as the operand and converted to the
/// operand data type").
enum Number {
    Float(f64),
    Int(i128),
}

/// `n`'s low `bits` bits, sign- or zero-extended to 64 bits.
fn wrap(n: i128, bits: u8, signed: bool) -> u64 {
    let n = n as u64;
    if bits == 64 {
        return n;
    }
    let shift = 64 - u32::from(bits);
    if signed {
        (((n << shift) as i64) >> shift) as u64
    } else {
        (n << shift) >> shift
    }
}

/// The range of a CVT integer type.
fn int_range(s: StorageType) -> (i128, i128) {
    let b = u32::from(s.bits);
    if s.ty == DataType::Signed {
        (-(1i128 << (b - 1)), (1i128 << (b - 1)) - 1)
    } else {
        (0, (1i128 << b) - 1)
    }
}

fn round_integral(x: f64, r: Rounding) -> f64 {
    match r {
        Rounding::Round => x.round_ties_even(),
        Rounding::Ceil => x.ceil(),
        Rounding::Floor => x.floor(),
        Rounding::Trunc => x.trunc(),
    }
}

/// The f32 or f64 `nearest` (the exact value rounded to nearest) moved to
/// its neighbour when `rounding` wants the other side: `above` says it is
/// above the exact value, `below` below it ("rounded to one of the two
/// nearest values in the destination type according to the rounding
/// modifier").
fn directed<T>(nearest: T, above: bool, below: bool, positive: bool, rounding: Rounding) -> T
where
    T: Copy + FloatSteps,
{
    let down = match rounding {
        Rounding::Floor => above,
        Rounding::Trunc => above && positive,
        _ => false,
    };
    let up = match rounding {
        Rounding::Ceil => below,
        Rounding::Trunc => below && !positive,
        _ => false,
    };
    if down {
        nearest.step_down()
    } else if up {
        nearest.step_up()
    } else {
        nearest
    }
}

/// The neighbouring floats.
trait FloatSteps {
    fn step_down(self) -> Self;
    fn step_up(self) -> Self;
}

impl FloatSteps for f32 {
    fn step_down(self) -> f32 {
        self.next_down()
    }
    fn step_up(self) -> f32 {
        self.next_up()
    }
}

impl FloatSteps for f64 {
    fn step_down(self) -> f64 {
        self.next_down()
    }
    fn step_up(self) -> f64 {
        self.next_up()
    }
}

/// CVT of one component: `x` is the operand at 64 bits (a float as f64,
/// an integer sign- or zero-extended); the result is at 64 bits too (an
/// F32 result promoted exactly, a narrow integer extended), with whether
/// the spec leaves it undefined.
pub(super) fn convert(c: Conversion, x: u64) -> (u64, bool) {
    let (to, from, mode) = (c.to, c.from, c.rounding);
    let value = match from.ty {
        DataType::Float => Number::Float(f64::from_bits(x)),
        DataType::Signed => Number::Int(i128::from(wrap(i128::from(x), from.bits, true) as i64)),
        DataType::Unsigned => Number::Int(i128::from(wrap(i128::from(x), from.bits, false))),
    };
    let sat = c.saturate;
    match (value, to.ty) {
        (Number::Float(v), DataType::Float) if to.bits == 64 => (v.to_bits(), false),
        (Number::Float(v), DataType::Float) => {
            let r = v as f32;
            let rd = f64::from(r);
            let r = directed(r, rd > v, rd < v, r.is_sign_positive(), mode);
            (f64::from(r).to_bits(), false)
        }
        (Number::Int(n), DataType::Float) if to.bits == 64 => {
            let r = n as f64;
            let back = r as i128;
            let r = directed(r, back > n, back < n, r.is_sign_positive(), mode);
            (r.to_bits(), false)
        }
        (Number::Int(n), DataType::Float) => {
            let r = n as f32;
            let back = r as i128;
            let r = directed(r, back > n, back < n, r.is_sign_positive(), mode);
            (f64::from(r).to_bits(), false)
        }
        // "Converting the floating-point special values -INF, +INF, and
        // NaN to integers will yield undefined results."
        (Number::Float(v), _) => {
            let r = round_integral(v, mode);
            let (lo, hi) = int_range(to);
            let signed = to.ty == DataType::Signed;
            if sat {
                let n = if r.is_nan() {
                    lo
                } else {
                    (r as i128).clamp(lo, hi)
                };
                (wrap(n, to.bits, signed), !v.is_finite())
            } else {
                // Through a 64-bit integer: outside [-2^63, 2^64) the
                // result is nvp4c's (docs/semantics.md, "CVT").
                let inside = r >= -(2f64.powi(63)) && r < 2f64.powi(64);
                let n = if r.is_nan() {
                    i128::from(i64::MIN)
                } else {
                    r as i128
                };
                let n = n.clamp(i128::from(i64::MIN), i128::from(u64::MAX));
                (wrap(n, to.bits, signed), !inside)
            }
        }
        (Number::Int(n), _) => {
            let (lo, hi) = int_range(to);
            let n = if sat { n.clamp(lo, hi) } else { n };
            (wrap(n, to.bits, to.ty == DataType::Signed), false)
        }
    }
}
