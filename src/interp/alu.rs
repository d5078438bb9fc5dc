//! The ALU instructions of Table X.13 (everything but flow control and
//! textures), each transcribed from its pseudocode in section 2.X.8.
//!
//! Inputs are the loaded operands (swizzle, negate and absolute value
//! already applied, section 2.X.4.2); the output is the unclamped result
//! vector and, for the integer adds, the carry/overflow flags of section
//! 2.X.4.3. Floating-point arithmetic is IEEE single precision with
//! denormals kept (issue 18); each `*` and `+` of the pseudocode is one
//! rounded f32 operation, in the order written (no fused multiply-add).
//! The `Approx*` functions of the pseudocode are computed in double
//! precision and rounded once to single.

use super::value::{self, bool_bits, integral_float_as, is_negative, Vec4};
use super::InterpError;
use crate::ir::{ExtSwizzleSel, Instruction, MulMode, Operand};
use crate::isa::{DataType, Opcode};

/// Carry and overflow of an integer add or subtract (section 2.X.4.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct AddFlags {
    pub overflow: bool,
    pub carry: bool,
    /// "If the operation is equivalent to an add with both operands negated
    /// (-A-B), the carry and overflow flags are both undefined."
    pub undefined: bool,
}

pub(super) struct Eval {
    pub value: Vec4,
    /// `Some` for the integer forms of ADD, SUB, MAD and SAD.
    pub add_flags: Option<[AddFlags; 4]>,
}

impl Eval {
    pub(super) fn plain(value: Vec4) -> Eval {
        Eval {
            value,
            add_flags: None,
        }
    }
}

type F = DataType;

fn map1(a: Vec4, f: impl Fn(u32) -> (u32, bool)) -> Vec4 {
    let mut out = Vec4::defined([0; 4]);
    for c in 0..4 {
        let (bits, undefined) = f(a.bits[c]);
        out.bits[c] = bits;
        if undefined || a.is_undefined(c) {
            out.undefined |= 1 << c;
        }
    }
    out
}

fn map2(a: Vec4, b: Vec4, f: impl Fn(u32, u32) -> (u32, bool)) -> Vec4 {
    let mut out = Vec4::defined([0; 4]);
    for c in 0..4 {
        let (bits, undefined) = f(a.bits[c], b.bits[c]);
        out.bits[c] = bits;
        if undefined || a.is_undefined(c) || b.is_undefined(c) {
            out.undefined |= 1 << c;
        }
    }
    out
}

fn map3(a: Vec4, b: Vec4, c3: Vec4, f: impl Fn(u32, u32, u32) -> (u32, bool)) -> Vec4 {
    let mut out = Vec4::defined([0; 4]);
    for c in 0..4 {
        let (bits, undefined) = f(a.bits[c], b.bits[c], c3.bits[c]);
        out.bits[c] = bits;
        if undefined || a.is_undefined(c) || b.is_undefined(c) || c3.is_undefined(c) {
            out.undefined |= 1 << c;
        }
    }
    out
}

/// `ScalarLoad`: the operand's (single) selected component, replicated so
/// it can stand beside a vector operand.
fn scalar(a: Vec4) -> Vec4 {
    Vec4::splat(a.bits[0], a.is_undefined(0))
}

fn fl(b: u32) -> f32 {
    f32::from_bits(b)
}

fn fb(x: f32) -> u32 {
    x.to_bits()
}

/// NV_gpu_program5's BitfieldExtract(bits, offset, value): undefined for a
/// negative width or offset, an offset of 32 or more, or a field past bit
/// 31; zero for a zero width; sign-extended for signed operations.
fn bitfield_extract(bits: u32, offset: u32, value: u32, ty: DataType) -> (u32, bool) {
    let (b, o) = (bits as i32, offset as i32);
    if b < 0 || !(0..32).contains(&o) || b + o > 32 {
        return (0, true);
    }
    if b == 0 {
        return defined(0);
    }
    let shifted = value << (32 - (b + o)) as u32;
    let r = match ty {
        DataType::Signed => ((shifted as i32) >> (32 - b) as u32) as u32,
        _ => shifted >> (32 - b) as u32,
    };
    defined(r)
}

/// NV_gpu_program5's BitfieldInsert(bits, offset, src, dst).
fn bitfield_insert(bits: u32, offset: u32, src: u32, dst: u32) -> (u32, bool) {
    let (b, o) = (bits as i32, offset as i32);
    if b < 0 || !(0..32).contains(&o) || b + o > 32 {
        return (dst, true);
    }
    if b == 32 {
        return defined(src);
    }
    let mask = ((1u32 << b as u32) - 1) << o as u32;
    defined(((src << o as u32) & mask) | (dst & !mask))
}

/// NV_shader_thread_shuffle 2.X.8.Z in a thread group of one thread, id 0
/// (docs/semantics.md, "Thread groups"): x is the "valid" predicate of the
/// spec's arithmetic (minThreadId = 0 & segmentationMask = 0, maxThreadId
/// = clamp & ~segmentationMask; inclusive bounds as in spirv/thread_group.rs),
/// y the current thread's own value when the source is out of range or is
/// thread 0 itself, and undefined when it names another thread (there is
/// none: "If the source thread id reference to an inactive thread, the
/// returned result will be undefined"); z and w are undefined ("returns a
/// 2-component vector").
fn shuffle(op: Opcode, value: Vec4, index_op: Vec4, mask_op: Vec4, rt: DataType) -> Vec4 {
    let lane: i64 = 0;
    let index = i64::from(index_op.bits[0] & 31);
    let clamp = i64::from(mask_op.bits[0] & 31);
    let seg = i64::from((mask_op.bits[0] >> 8) & 31);
    let min = lane & seg;
    let max = min | (clamp & !seg);
    let (src, valid) = match op {
        Opcode::Shfup => (lane - index, lane - index >= max),
        Opcode::Shfdown => (lane + index, lane + index <= max),
        Opcode::Shfxor => (lane ^ index, (lane ^ index) <= max),
        _ => {
            let src = (index & !seg) | min;
            (src, src <= max)
        }
    };
    let mut out = Vec4::defined([bool_bits(valid, rt), value.bits[0], 0, 0]);
    out.undefined = 0b1100;
    let operands_undefined = index_op.is_undefined(0) || mask_op.is_undefined(0);
    if operands_undefined {
        out.undefined |= 0b0011;
    }
    if (valid && src != lane) || value.is_undefined(0) {
        out.undefined |= 0b0010;
    }
    out
}

/// The thread-group instructions' test (NV_gpu_program5 2.X.8.Z, TGALL:
/// "comparing each component to zero"): a float is non-zero unless it is
/// +0.0 or -0.0 (a NaN is non-zero: `NaN == 0` is false); an integer
/// unless all its bits are zero.
fn non_zero(bits: u32, ty: DataType) -> bool {
    match ty {
        DataType::Float => f32::from_bits(bits) != 0.0,
        _ => bits != 0,
    }
}

fn defined(bits: u32) -> (u32, bool) {
    (bits, false)
}

/// A scalar float function of one scalar operand, replicated (COS, EX2, ...).
fn scalar_float(a: Vec4, f: impl Fn(f32) -> (f32, bool)) -> Vec4 {
    let (r, undefined) = f(a.f(0));
    Vec4::splat(fb(r), undefined || a.is_undefined(0))
}

/// A scalar result computed from the components in `reads` of the operands.
fn reduce(srcs: &[(Vec4, u8)], r: f32) -> Vec4 {
    let undefined = srcs.iter().any(|(v, mask)| v.any_undefined(*mask));
    Vec4::splat(fb(r), undefined)
}

fn approx(x: f64) -> f32 {
    x as f32
}

/// ApproxRSQRT: undefined for operands less than or equal to zero (section
/// 2.X.8.Z, RSQ); the value is IEEE's (+INF at +0, -INF at -0, NaN below).
fn rsq(x: f32) -> (f32, bool) {
    (approx(1.0 / (x as f64).sqrt()), x <= 0.0)
}

/// ApproxPower(a, b) = ApproxExp2(b * ApproxLog2(a)) (section 2.X.8.Z,
/// POW), with a^0 = 1 (LIT: "0^0 is defined to be 1"). Where the formula
/// has no value for other inputs (a negative base, 1^INF) the result is
/// undefined.
fn power(a: f32, b: f32) -> (f32, bool) {
    if b == 0.0 && !a.is_nan() {
        return (1.0, false);
    }
    let r = ((b as f64) * (a as f64).log2()).exp2();
    let undefined = r.is_nan() && !a.is_nan() && !b.is_nan();
    (approx(r), undefined)
}

/// The magnitude and sign of a loaded integer operand of `width` bits
/// (32 or 64): the loaded value with its negation undone.
fn unnegated(bits: u64, op: &Operand, width: u32) -> (u64, bool) {
    let negated = match (op.abs, op.ty) {
        (false, _) => op.negate,
        // |x| has no effect on unsigned operands, so both signs survive.
        (true, DataType::Unsigned) => op.negate ^ op.negate_abs,
        (true, _) => op.negate_abs,
    };
    let value = if negated { bits.wrapping_neg() } else { bits };
    (value & width_mask(width), negated)
}

fn width_mask(width: u32) -> u64 {
    u64::MAX >> (64 - width)
}

/// Flags of `a + b` (or `a - b` when `subtract`) on `width`-bit integers,
/// section 2.X.4.3: OF from the signed operation, CF from the unsigned
/// one (carry out of an add; no borrow, "greater than or equal to zero",
/// for a subtract).
fn add_sub_flags(a: u64, b: u64, subtract: bool, width: u32) -> AddFlags {
    let sign = 1u64 << (width - 1);
    let (r, carry) = if subtract {
        (a.wrapping_sub(b) & width_mask(width), a >= b)
    } else {
        let r = a.wrapping_add(b) & width_mask(width);
        (r, r < a)
    };
    let overflow = if subtract {
        (a ^ b) & (a ^ r) & sign != 0
    } else {
        (a ^ r) & (b ^ r) & sign != 0
    };
    AddFlags {
        overflow,
        carry,
        undefined: false,
    }
}

/// The flags of `(±x) + (±y)` given the magnitudes and signs; `plain` is
/// the flags of the operation on the loaded values, used when the spec
/// leaves them undefined (-A-B), as nvp4c's backend does
/// (docs/semantics.md).
fn signed_add_flags(x: (u64, bool), y: (u64, bool), plain: AddFlags, width: u32) -> AddFlags {
    match (x.1, y.1) {
        (false, false) => add_sub_flags(x.0, y.0, false, width),
        (false, true) => add_sub_flags(x.0, y.0, true, width),
        (true, false) => add_sub_flags(y.0, x.0, true, width),
        (true, true) => AddFlags {
            undefined: true,
            ..plain
        },
    }
}

/// The carry and overflow flags of the integer adds ADD, SUB, MAD and SAD
/// (section 2.X.4.3) on `width`-bit operands: `bits(i, c)` is component
/// `c` of loaded operand `i`. None for every other instruction.
pub(super) fn integer_add_flags(
    inst: &Instruction,
    bits: &dyn Fn(usize, usize) -> u64,
    width: u32,
) -> Option<[AddFlags; 4]> {
    if !inst.ty.is_integer() {
        return None;
    }
    let mask = width_mask(width);
    let operand = |i: usize, c: usize| unnegated(bits(i, c), &inst.srcs[i], width);
    let mut flags = [AddFlags::default(); 4];
    for (c, f) in flags.iter_mut().enumerate() {
        *f = match inst.op {
            Opcode::Add | Opcode::Sub => {
                let subtract = inst.op == Opcode::Sub;
                let (y, yneg) = operand(1, c);
                let plain = add_sub_flags(bits(0, c), bits(1, c), subtract, width);
                // a - b is a + (-b).
                signed_add_flags(operand(0, c), (y, yneg ^ subtract), plain, width)
            }
            Opcode::Mad => {
                let (a, an) = operand(0, c);
                let (b, bn) = operand(1, c);
                let product = bits(0, c).wrapping_mul(bits(1, c)) & mask;
                let plain = add_sub_flags(product, bits(2, c), false, width);
                let magnitude = a.wrapping_mul(b) & mask;
                signed_add_flags((magnitude, an ^ bn), operand(2, c), plain, width)
            }
            Opcode::Sad => {
                // |tmp0 - tmp1|, exact in the operation's type.
                let sign_extend = |x: u64| ((x << (64 - width)) as i64 >> (64 - width)) as i128;
                let (a, b) = (bits(0, c), bits(1, c));
                let d = match inst.ty {
                    DataType::Unsigned => (i128::from(a) - i128::from(b)).unsigned_abs(),
                    _ => (sign_extend(a) - sign_extend(b)).unsigned_abs(),
                } as u64
                    & mask;
                let plain = add_sub_flags(d, bits(2, c), false, width);
                signed_add_flags((d, false), operand(2, c), plain, width)
            }
            _ => return None,
        };
    }
    Some(flags)
}

fn compare(op: Opcode, a: u32, b: u32, ty: DataType) -> bool {
    use std::cmp::Ordering;
    let ord = match ty {
        F::Float => fl(a).partial_cmp(&fl(b)),
        F::Signed => Some((a as i32).cmp(&(b as i32))),
        F::Unsigned => Some(a.cmp(&b)),
    };
    // NaN compares false for everything but "not equal" (IEEE).
    match (op, ord) {
        (Opcode::Sne, None) => true,
        (_, None) => false,
        (Opcode::Seq, Some(o)) => o == Ordering::Equal,
        (Opcode::Sge, Some(o)) => o != Ordering::Less,
        (Opcode::Sgt, Some(o)) => o == Ordering::Greater,
        (Opcode::Sle, Some(o)) => o != Ordering::Greater,
        (Opcode::Slt, Some(o)) => o == Ordering::Less,
        (_, Some(o)) => o != Ordering::Equal,
    }
}

/// `(tmp0 > tmp1)` of MIN and MAX, in the operation's type.
fn greater(a: u32, b: u32, ty: DataType) -> bool {
    match ty {
        F::Float => fl(a) > fl(b),
        F::Signed => (a as i32) > (b as i32),
        F::Unsigned => a > b,
    }
}

/// Clamps of the pack instructions: "if (x < lo) x = lo; if (x > hi) x = hi".
fn clamp_pk(x: f32, lo: f32, hi: f32) -> f32 {
    if x < lo {
        lo
    } else if x > hi {
        hi
    } else {
        x
    }
}

fn round_even(x: f32) -> f32 {
    x.round_ties_even()
}

/// Evaluates one ALU instruction on its loaded operands.
pub(super) fn evaluate(inst: &Instruction, s: &[Vec4], wide: bool) -> Result<Eval, InterpError> {
    let info = inst.op.info();
    if s.len() != inst.operand_kinds().count() {
        return Err(InterpError::Internal {
            what: format!(
                "{} has {} operands, Table X.13 says {}",
                info.name,
                s.len(),
                inst.operand_kinds().count()
            ),
            span: inst.span,
        });
    }
    let ty = inst.ty;
    let rt = inst.dst.ty;
    let src = |i: usize| s[i];
    use Opcode as O;
    let v = match inst.op {
        O::Abs => map1(src(0), |a| defined(value::absolute(a, ty))),
        O::Mov => src(0),
        O::Add | O::Sub => {
            let subtract = inst.op == O::Sub;
            let r = map2(src(0), src(1), |a, b| match ty {
                F::Float if subtract => defined(fb(fl(a) - fl(b))),
                F::Float => defined(fb(fl(a) + fl(b))),
                _ if subtract => defined(a.wrapping_sub(b)),
                _ => defined(a.wrapping_add(b)),
            });
            if ty.is_integer() {
                return Ok(Eval {
                    value: r,
                    add_flags: integer_add_flags(inst, &|i, c| u64::from(s[i].bits[c]), 32),
                });
            }
            r
        }
        O::Mul => match inst.mul_mode {
            None => map2(src(0), src(1), |a, b| match ty {
                F::Float => defined(fb(fl(a) * fl(b))),
                _ => defined(a.wrapping_mul(b)),
            }),
            // "The results of such multiplies are undefined if either
            // operand is outside the range [-2^23,+2^23-1] for S24 or
            // [0,2^24-1] for U24."
            Some(MulMode::S24) => map2(src(0), src(1), |a, b| {
                let ok = |x: u32| (-(1 << 23)..(1 << 23)).contains(&(x as i32));
                (a.wrapping_mul(b), !(ok(a) && ok(b)))
            }),
            Some(MulMode::U24) => map2(src(0), src(1), |a, b| {
                (a.wrapping_mul(b), a >= 1 << 24 || b >= 1 << 24)
            }),
            // "returns the 32 most significant bits of the 64-bit product"
            Some(MulMode::Hi) => map2(src(0), src(1), |a, b| match ty {
                F::Unsigned => defined(((a as u64 * b as u64) >> 32) as u32),
                _ => defined((((a as i32 as i64) * (b as i32 as i64)) >> 32) as u32),
            }),
        },
        O::Mad => {
            let r = map3(src(0), src(1), src(2), |a, b, c| match ty {
                F::Float if wide => defined(fb((wd(a) * wd(b) + wd(c)) as f32)),
                F::Float => defined(fb(fl(a) * fl(b) + fl(c))),
                _ => defined(a.wrapping_mul(b).wrapping_add(c)),
            });
            if ty.is_integer() {
                return Ok(Eval {
                    value: r,
                    add_flags: integer_add_flags(inst, &|i, c| u64::from(s[i].bits[c]), 32),
                });
            }
            r
        }
        O::Sad => {
            // abs(tmp0 - tmp1) + tmp2, the difference taken exactly in the
            // operation's type, the sum in unsigned 32 bits.
            let diff = |a: u32, b: u32| match ty {
                F::Unsigned => (a as i64 - b as i64).unsigned_abs() as u32,
                _ => ((a as i32 as i64) - (b as i32 as i64)).unsigned_abs() as u32,
            };
            let r = map3(src(0), src(1), src(2), |a, b, c| {
                defined(diff(a, b).wrapping_add(c))
            });
            return Ok(Eval {
                value: r,
                add_flags: integer_add_flags(inst, &|i, c| u64::from(s[i].bits[c]), 32),
            });
        }
        O::Div => map2(src(0), scalar(src(1)), |a, b| match ty {
            F::Float => defined(fb(fl(a) / fl(b))),
            // "The results of an signed or unsigned integer division by
            // zero are undefined."
            F::Signed if b == 0 => (u32::MAX, true),
            F::Signed => defined((a as i32).wrapping_div(b as i32) as u32),
            _ if b == 0 => (u32::MAX, true),
            _ => defined(a / b),
        }),
        O::Mod => map2(src(0), scalar(src(1)), |a, b| match ty {
            // "A result component is undefined if the corresponding
            // component of the first operand is negative or if the second
            // operand is less than or equal to zero."
            F::Signed if b as i32 <= 0 => {
                ((a as i32).checked_rem(b as i32).unwrap_or(0) as u32, true)
            }
            F::Signed => ((a as i32).wrapping_rem(b as i32) as u32, (a as i32) < 0),
            _ if b == 0 => (0, true),
            _ => defined(a % b),
        }),
        O::Min | O::Max => map2(src(0), src(1), |a, b| {
            let gt = greater(a, b, ty);
            let max = inst.op == O::Max;
            defined(if gt == max { a } else { b })
        }),
        O::Cmp => map3(src(0), src(1), src(2), |a, b, c| {
            defined(if is_negative(a, ty) { b } else { c })
        }),
        O::And => map2(src(0), src(1), |a, b| defined(a & b)),
        O::Or => map2(src(0), src(1), |a, b| defined(a | b)),
        O::Xor => map2(src(0), src(1), |a, b| defined(a ^ b)),
        O::Not => map1(src(0), |a| defined(!a)),
        // NV_gpu_program5 2.X.8.Z, BFE and BFI: the width in op0.x, the
        // offset in op0.y, for every component.
        O::Bfe | O::Bfi => {
            let field = src(0);
            let (bits, offset) = (field.bits[0], field.bits[1]);
            let field_undefined = field.is_undefined(0) || field.is_undefined(1);
            let mut r = if inst.op == O::Bfe {
                map1(src(1), |v| bitfield_extract(bits, offset, v, ty))
            } else {
                map2(src(1), src(2), |a, b| bitfield_insert(bits, offset, a, b))
            };
            if field_undefined {
                r.undefined = 0xf;
            }
            r
        }
        O::Bfr => map1(src(0), |a| defined(a.reverse_bits())),
        O::Btc => map1(src(0), |a| defined(a.count_ones())),
        // Zero has no one bit: all ones (the unsigned maximum, or -1).
        O::Btfl => map1(src(0), |a| {
            defined(if a == 0 { u32::MAX } else { a.trailing_zeros() })
        }),
        // Signed: the most significant bit differing from the sign bit
        // ("the most significant zero bit if the source value is
        // negative"), -1 for 0 and -1; unsigned: the highest one bit.
        O::Btfm => map1(src(0), |a| {
            let v = if ty == F::Signed && (a as i32) < 0 {
                !a
            } else {
                a
            };
            defined(if v == 0 {
                u32::MAX
            } else {
                31 - v.leading_zeros()
            })
        }),
        O::Shl | O::Shr => map2(src(0), scalar(src(1)), |a, b| {
            // "undefined if the value of the second operand is negative, or
            // greater than or equal to the number of bits in the first".
            let bad = match ty {
                F::Signed => !(0..32).contains(&(b as i32)),
                _ => b >= 32,
            };
            let n = b & 31;
            let r = match (inst.op, ty) {
                (O::Shl, _) => a << n,
                (_, F::Unsigned) => a >> n,
                _ => ((a as i32) >> n) as u32,
            };
            (r, bad)
        }),
        O::Ceil | O::Flr | O::Round | O::Trunc | O::Arl | O::Arr => map1(src(0), |a| {
            let x = fl(a);
            let r = match inst.op {
                O::Ceil => x.ceil(),
                // ARB_vertex_program 2.14.5.3, ARL: "performs a floor
                // operation to generate a signed integer".
                O::Flr | O::Arl => x.floor(),
                // NV_vertex_program2_option 2.14.5.29, ARR: "If the
                // fractional portion of the operand is 0.5, round() selects
                // the nearest even integer."
                O::Arr => round_even(x),
                // "If the fractional portion of the operand is 0.5, round()
                // selects the nearest even integer."
                O::Round => round_even(x),
                _ => x.trunc(),
            };
            integral_float_as(r, rt)
        }),
        O::Frc => map1(src(0), |a| {
            // fraction(x) = x - floor(x), "always in the range [0.0, 1.0)":
            // a result that rounds up to 1.0 becomes the float below it.
            let x = fl(a);
            let r = x - x.floor();
            defined(if r >= 1.0 {
                fb(1.0f32.next_down())
            } else {
                fb(r)
            })
        }),
        O::Ssg => map1(src(0), |a| {
            let x = fl(a);
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
        O::I2f => map1(src(0), |a| match ty {
            F::Unsigned => defined(fb(a as f32)),
            _ => defined(fb(a as i32 as f32)),
        }),
        O::Seq | O::Sge | O::Sgt | O::Sle | O::Slt | O::Sne => map2(src(0), src(1), |a, b| {
            defined(bool_bits(compare(inst.op, a, b, ty), rt))
        }),
        O::Sfl => Vec4::defined([bool_bits(false, rt); 4]),
        // NV_gpu_program5 2.X.8.Z, TGALL/TGANY: the interpreter runs one
        // thread, the only active one of its thread group, so "non-zero for
        // all active threads" and "for any" are both the test of its own
        // value; TGEQ's pseudocode compares tgall with tgany, which agree
        // for one thread, so its result is always TRUE (docs/semantics.md,
        // "Thread groups").
        O::Tgall | O::Tgany => map1(src(0), |a| defined(bool_bits(non_zero(a, ty), rt))),
        O::Tgeq => Vec4::defined([bool_bits(true, rt); 4]),
        // NV_shader_thread_group 2.X.8.Z, TGBALLOT: the one thread is thread
        // 0, so each component is bit 0 set (1) where its value is non-zero.
        O::Tgballot => map1(src(0), |a| defined(u32::from(non_zero(a, ty)))),
        // NV_shader_thread_group, quadSwizzle*NV: "If any thread in a 2x2
        // pixel quad is inactive, the quad is divergent. In this case
        // quadSwizzle will return 0"; the interpreter's fragment is alone in
        // its quad (as DDX and DDY see no neighbours, docs/semantics.md).
        O::Qswz0 | O::Qswz1 | O::Qswz2 | O::Qswz3 | O::Qswzx | O::Qswzy => {
            Vec4::defined([fb(0.0); 4])
        }
        O::Shfdown | O::Shfidx | O::Shfup | O::Shfxor => {
            shuffle(inst.op, src(0), src(1), src(2), rt)
        }
        O::Str => Vec4::defined([bool_bits(true, rt); 4]),
        // NV_vertex_program2_option 2.14.5.28, ARA: "iresult.x = itmp.x +
        // itmp.z; iresult.y = itmp.y + itmp.w" (and z, w the same sums).
        O::Ara => {
            let a = src(0);
            let xz = a.bits[0].wrapping_add(a.bits[2]);
            let yw = a.bits[1].wrapping_add(a.bits[3]);
            let (uxz, uyw) = (a.any_undefined(0x5), a.any_undefined(0xa));
            Vec4 {
                bits: [xz, yw, xz, yw],
                undefined: if uxz { 0x5 } else { 0 } | if uyw { 0xa } else { 0 },
            }
        }
        O::Exp => exp(src(0)),
        O::Log => log(src(0)),
        O::Cos => scalar_float(src(0), |x| (approx((x as f64).cos()), false)),
        O::Sin => scalar_float(src(0), |x| (approx((x as f64).sin()), false)),
        O::Ex2 => scalar_float(src(0), |x| (approx((x as f64).exp2()), false)),
        // "If the scalar operand is zero or negative, the result is
        // undefined." (-INF at zero, NaN below, as IEEE log2.)
        O::Lg2 => scalar_float(src(0), |x| (approx((x as f64).log2()), x <= 0.0)),
        O::Rcp => scalar_float(src(0), |x| (1.0 / x, false)),
        O::Rcc => scalar_float(src(0), |x| {
            // "If the approximated reciprocal is greater than 0.0, the
            // result is clamped to the range [2^-64, 2^+64]. If the
            // approximate reciprocal is not greater than zero, the result
            // is clamped to the range [-2^+64, -2^-64]."
            let r = 1.0 / x;
            let (small, big) = (2.0f32.powi(-64), 2.0f32.powi(64));
            let c = if r > 0.0 {
                r.clamp(small, big)
            } else if r.is_nan() {
                r
            } else {
                r.clamp(-big, -small)
            };
            (c, false)
        }),
        O::Rsq => scalar_float(src(0), rsq),
        O::Pow => {
            let (a, b) = (src(0), src(1));
            let (r, undefined) = power(a.f(0), b.f(0));
            Vec4::splat(fb(r), undefined || a.is_undefined(0) || b.is_undefined(0))
        }
        O::Scs => {
            // "If the scalar operand is not in the range [-PI,PI], the
            // result vector is undefined." z and w are always undefined.
            let a = src(0);
            let x = a.f(0);
            let out_of_range = x.is_nan() || x.abs() > std::f32::consts::PI;
            let bad = out_of_range || a.is_undefined(0);
            Vec4 {
                bits: [
                    fb(approx((x as f64).cos())),
                    fb(approx((x as f64).sin())),
                    0,
                    0,
                ],
                undefined: if bad { 0xf } else { 0xc },
            }
        }
        O::Dp2 | O::Dp2a | O::Dp3 | O::Dp4 | O::Dph => {
            let (a, b) = (src(0), src(1));
            let r = if wide {
                let p = |c: usize| f64::from(a.f(c)) * f64::from(b.f(c));
                let r = match inst.op {
                    O::Dp2 => p(0) + p(1),
                    O::Dp3 => p(0) + p(1) + p(2),
                    O::Dp4 => p(0) + p(1) + p(2) + p(3),
                    O::Dph => p(0) + p(1) + p(2) + f64::from(b.f(3)),
                    _ => p(0) + p(1) + f64::from(src(2).f(0)),
                };
                r as f32
            } else {
                let p = |c: usize| a.f(c) * b.f(c);
                match inst.op {
                    O::Dp2 => p(0) + p(1),
                    O::Dp3 => p(0) + p(1) + p(2),
                    O::Dp4 => p(0) + p(1) + p(2) + p(3),
                    O::Dph => p(0) + p(1) + p(2) + b.f(3),
                    _ => p(0) + p(1) + src(2).f(0),
                }
            };
            let (reads_a, reads_b) = match inst.op {
                O::Dp2 | O::Dp2a => (0x3, 0x3),
                O::Dp3 => (0x7, 0x7),
                O::Dp4 => (0xf, 0xf),
                _ => (0x7, 0xf),
            };
            let mut reads = vec![(a, reads_a), (b, reads_b)];
            if inst.op == O::Dp2a {
                reads.push((src(2), 0x1));
            }
            reduce(&reads, r)
        }
        O::Dst => {
            let (a, b) = (src(0), src(1));
            let mut undefined = 0;
            if a.is_undefined(1) || b.is_undefined(1) {
                undefined |= 2;
            }
            if a.is_undefined(2) {
                undefined |= 4;
            }
            if b.is_undefined(3) {
                undefined |= 8;
            }
            Vec4 {
                bits: [fb(1.0), fb(a.f(1) * b.f(1)), a.bits[2], b.bits[3]],
                undefined,
            }
        }
        O::Lit => lit(src(0)),
        O::Lrp if wide => map3(src(0), src(1), src(2), |t, a, b| {
            let t = wd(t);
            defined(fb((t * wd(a) + (1.0 - t) * wd(b)) as f32))
        }),
        O::Lrp => map3(src(0), src(1), src(2), |t, a, b| {
            let t = fl(t);
            defined(fb(t * fl(a) + (1.0 - t) * fl(b)))
        }),
        O::Nrm => {
            let a = src(0);
            let d = a.f(0) * a.f(0) + a.f(1) * a.f(1) + a.f(2) * a.f(2);
            let (scale, bad) = rsq(d);
            let undefined = if bad || a.any_undefined(0x7) {
                0xf
            } else {
                0x8
            };
            Vec4 {
                bits: [
                    fb(a.f(0) * scale),
                    fb(a.f(1) * scale),
                    fb(a.f(2) * scale),
                    0,
                ],
                undefined,
            }
        }
        O::Rfl => {
            let (axis, dir) = (src(0), src(1));
            let w = axis.f(0) * axis.f(0) + axis.f(1) * axis.f(1) + axis.f(2) * axis.f(2);
            let mut x = axis.f(0) * dir.f(0) + axis.f(1) * dir.f(1) + axis.f(2) * dir.f(2);
            x *= 2.0;
            x /= w;
            let undefined = if axis.any_undefined(0x7) || dir.any_undefined(0x7) {
                0xf
            } else {
                0x8
            };
            Vec4 {
                bits: [
                    fb(x * axis.f(0) - dir.f(0)),
                    fb(x * axis.f(1) - dir.f(1)),
                    fb(x * axis.f(2) - dir.f(2)),
                    0,
                ],
                undefined,
            }
        }
        O::X2d => {
            let (a, b, m) = (src(0), src(1), src(2));
            let (x, y) = if wide {
                let w = |v: &Vec4, c: usize| f64::from(v.f(c));
                (
                    (w(&a, 0) + w(&b, 0) * w(&m, 0) + w(&b, 1) * w(&m, 1)) as f32,
                    (w(&a, 1) + w(&b, 0) * w(&m, 2) + w(&b, 1) * w(&m, 3)) as f32,
                )
            } else {
                (
                    a.f(0) + b.f(0) * m.f(0) + b.f(1) * m.f(1),
                    a.f(1) + b.f(0) * m.f(2) + b.f(1) * m.f(3),
                )
            };
            let ux = a.is_undefined(0) || b.any_undefined(0x3) || m.any_undefined(0x3);
            let uy = a.is_undefined(1) || b.any_undefined(0x3) || m.any_undefined(0xc);
            Vec4 {
                bits: [fb(x), fb(y), fb(x), fb(y)],
                undefined: if ux { 0x5 } else { 0 } | if uy { 0xa } else { 0 },
            }
        }
        O::Xpd => {
            let (a, b) = (src(0), src(1));
            let undefined = if a.any_undefined(0x7) || b.any_undefined(0x7) {
                0xf
            } else {
                0x8
            };
            let cross = |i: usize, j: usize| {
                if wide {
                    let w = |v: &Vec4, c: usize| f64::from(v.f(c));
                    (w(&a, i) * w(&b, j) - w(&a, j) * w(&b, i)) as f32
                } else {
                    a.f(i) * b.f(j) - a.f(j) * b.f(i)
                }
            };
            Vec4 {
                bits: [fb(cross(1, 2)), fb(cross(2, 0)), fb(cross(0, 1)), 0],
                undefined,
            }
        }
        O::Pk2h => {
            let a = src(0);
            let packed = value::f32_to_f16_bits(a.f(0)) as u32
                | (value::f32_to_f16_bits(a.f(1)) as u32) << 16;
            Vec4::splat(packed, a.any_undefined(0x3))
        }
        O::Pk2us => {
            let a = src(0);
            let us = |x: f32| round_even(65535.0 * clamp_pk(x, 0.0, 1.0)) as u32;
            let nan = a.f(0).is_nan() || a.f(1).is_nan();
            Vec4::splat(us(a.f(0)) | us(a.f(1)) << 16, nan || a.any_undefined(0x3))
        }
        O::Pk4b | O::Pk4ub => {
            let a = src(0);
            let byte = |x: f32| -> u32 {
                let r = if inst.op == O::Pk4b {
                    round_even(127.0 * clamp_pk(x, -128.0 / 127.0, 1.0) + 128.0)
                } else {
                    round_even(255.0 * clamp_pk(x, 0.0, 1.0))
                };
                r.clamp(0.0, 255.0) as u32
            };
            let packed = (0..4).fold(0, |acc, c| acc | byte(a.f(c)) << (8 * c));
            let nan = (0..4).any(|c| a.f(c).is_nan());
            Vec4::splat(packed, nan || a.any_undefined(0xf))
        }
        // 64-bit operands or results, conversions: src/interp/wide.rs.
        O::Pk64 | O::Up64 | O::Cvt => {
            return Err(InterpError::Internal {
                what: format!("{} is evaluated in wide.rs", info.name),
                span: inst.span,
            })
        }
        O::Up2h | O::Up2us | O::Up4b | O::Up4ub => {
            let a = src(0);
            let raw = a.bits[0];
            let half = |shift: u32| (raw >> shift) & 0xffff;
            let byte = |c: u32| (raw >> (8 * c)) & 0xff;
            let r: [f32; 4] = match inst.op {
                O::Up2h => {
                    let (lo, hi) = (
                        value::f16_bits_to_f32(half(0) as u16),
                        value::f16_bits_to_f32(half(16) as u16),
                    );
                    [lo, hi, lo, hi]
                }
                O::Up2us => {
                    let (lo, hi) = (half(0) as f32 / 65535.0, half(16) as f32 / 65535.0);
                    [lo, hi, lo, hi]
                }
                O::Up4b => [0, 1, 2, 3].map(|c| (byte(c) as f32 - 128.0) / 127.0),
                _ => [0, 1, 2, 3].map(|c| byte(c) as f32 / 255.0),
            };
            Vec4 {
                bits: r.map(fb),
                undefined: if a.is_undefined(0) { 0xf } else { 0 },
            }
        }
        O::Swz => {
            let a = src(0);
            let Some(sel) = inst.ext_swizzle.as_deref() else {
                return Err(InterpError::Internal {
                    what: "SWZ without its extended swizzle".into(),
                    span: inst.span,
                });
            };
            let mut out = Vec4::defined([0; 4]);
            for (c, comp) in sel.iter().enumerate() {
                let (mut x, undefined) = match comp.sel {
                    ExtSwizzleSel::Zero => (0.0, false),
                    ExtSwizzleSel::One => (1.0, false),
                    ExtSwizzleSel::Component(k) => {
                        let k = usize::from(k & 3);
                        (a.f(k), a.is_undefined(k))
                    }
                };
                if comp.negate {
                    x = -x;
                }
                out.bits[c] = fb(x);
                if undefined {
                    out.undefined |= 1 << c;
                }
            }
            out
        }
        // NV_fragment_program4 2.X.8.Z, DDX/DDY: ComputePartialX/Y. The
        // interpreter runs one fragment, as if its neighbours saw the same
        // inputs, so every partial derivative is zero.
        O::Ddx | O::Ddy => map1(src(0), |_| defined(fb(0.0))),
        O::Ldb
        | O::Load
        | O::Store
        | O::Atom
        | O::Ldc
        | O::Atomctr
        | O::Atomb
        | O::Stb
        | O::Lds
        | O::Atoms
        | O::Sts
        | O::Bar
        | O::Membar => {
            return Err(InterpError::Internal {
                what: format!(
                    "{} reached the ALU (the machine runs memory instructions)",
                    info.name
                ),
                span: inst.span,
            })
        }
        // NV_gpu_program5 2.X.8.Z, IPAC/IPAO/IPAS: the attribute evaluated
        // at another position of the pixel. The interpreter runs one
        // fragment whose attributes are given values, not a primitive to
        // interpolate, so every position sees the same value: the
        // attribute itself, as loaded (docs/semantics.md, "Interpolation
        // instructions").
        O::Ipac | O::Ipao | O::Ipas => src(0),
        O::Tex
        | O::Txb
        | O::Txd
        | O::Txf
        | O::Txg
        | O::Txgo
        | O::Txl
        | O::Txp
        | O::Txq
        | O::Lod => {
            return Err(InterpError::Unsupported {
                what: format!("texture instruction {}", info.name),
                span: inst.span,
            })
        }
        // The machine runs them on its images (`interp::image`).
        O::Loadim | O::Storeim | O::Atomim => {
            return Err(InterpError::Internal {
                what: format!("{} reached the arithmetic", info.name),
                span: inst.span,
            })
        }
        O::Brk
        | O::Bra
        | O::Cal
        | O::Cali
        | O::Cont
        | O::Else
        | O::Emit
        | O::Emits
        | O::Endif
        | O::Endloop
        | O::Endprim
        | O::Endrep
        | O::If
        | O::Kil
        | O::Loop
        | O::Popa
        | O::Pusha
        | O::Rep
        | O::Ret => {
            return Err(InterpError::Internal {
                what: format!("flow-control opcode {} as an ALU instruction", info.name),
                span: inst.span,
            })
        }
    };
    Ok(Eval::plain(v))
}

/// EXP (ARB_vertex_program 2.14.5.9): `x = 2^floor(t)`, `y = t - floor(t)`,
/// `z = RoughApprox2ToX(t)` (here exact, within the required 2^-11 relative
/// error), `w = 1`.
fn exp(a: Vec4) -> Vec4 {
    let t = a.f(0);
    let fl = t.floor();
    let u = if a.is_undefined(0) { 0x7 } else { 0 };
    Vec4 {
        bits: [
            fb(approx((fl as f64).exp2())),
            fb(t - fl),
            fb(approx((t as f64).exp2())),
            fb(1.0),
        ],
        undefined: u,
    }
}

/// LOG (ARB_vertex_program 2.14.5.14), of `t = |operand|`: `x =
/// floor(log2(t))` ("the floor of the exact logarithm"), `y = t /
/// 2^floor(log2(t))` (in [1, 2)), `z = RoughApproxLog2(t)` (here exact),
/// `w = 1`. At 0, INF and NaN the pseudocode's IEEE values: (-INF, NaN,
/// -INF), (INF, NaN, INF), NaN.
fn log(a: Vec4) -> Vec4 {
    let t = a.f(0).abs();
    let u = if a.is_undefined(0) { 0x7 } else { 0 };
    let (x, y, z) = if t.is_nan() {
        (f32::NAN, f32::NAN, f32::NAN)
    } else if t == 0.0 {
        (f32::NEG_INFINITY, f32::NAN, f32::NEG_INFINITY)
    } else if t.is_infinite() {
        (f32::INFINITY, f32::NAN, f32::INFINITY)
    } else {
        let e = exponent_of(t);
        let y = (t as f64) / (e as f64).exp2();
        (e as f32, approx(y), approx((t as f64).log2()))
    };
    Vec4 {
        bits: [fb(x), fb(y), fb(z), fb(1.0)],
        undefined: u,
    }
}

/// NV_vertex_program 2.14.1.10.15-16's special values of EXP and LOG,
/// applied to ARB's results (`Dialect::exp_log_special_values`): EXP of
/// -INF or with 2^floor(t) below the smallest normal float is (0,0,0,1),
/// of +INF or overflowing (+INF,0,+INF,1); LOG of 0 or +-INF has y = 1.
pub(super) fn nv_vertex_program_special_values(op: Opcode, value: &mut Vec4) {
    let f = |value: &Vec4, c: usize| f32::from_bits(value.bits[c]);
    match op {
        Opcode::Exp => {
            let x = f(value, 0);
            if x < f32::MIN_POSITIVE {
                value.bits[0] = fb(0.0);
                value.bits[1] = fb(0.0);
                value.bits[2] = fb(0.0);
            } else if x == f32::INFINITY {
                value.bits[1] = fb(0.0);
                value.bits[2] = fb(f32::INFINITY);
            }
        }
        Opcode::Log if f(value, 0).is_infinite() => value.bits[1] = fb(1.0),
        _ => {}
    }
}

/// A float operand's bits as a double, for [`super::RunOptions::wide_intermediates`].
fn wd(bits: u32) -> f64 {
    f64::from(f32::from_bits(bits))
}

/// floor(log2(t)) of a finite positive float, exactly: its binary exponent
/// (denormals included).
fn exponent_of(t: f32) -> i32 {
    let bits = t.to_bits();
    let e = ((bits >> 23) & 0xff) as i32;
    if e == 0 {
        // Denormal: 2^-126 times the mantissa's fraction.
        let m = bits & 0x7f_ffff;
        -127 - (m.leading_zeros() as i32 - 9)
    } else {
        e - 127
    }
}

/// The X precision of NV_fragment_program_option (3.11.4.X): "signed 12-bit
/// fixed-point precision (two's complement with 10 fraction bits)"; "If the
/// result of a computation overflows the range ... -2048/1024 or
/// +2047/1024". nvp4c rounds to the nearest multiple of 1/1024 (ties to
/// even), clamps to [-2048/1024, 2047/1024], and takes NaN to 0
/// (docs/semantics.md).
pub(super) fn to_fixed(x: f32) -> f32 {
    if x.is_nan() {
        return 0.0;
    }
    let c = x.clamp(-2.0, 2047.0 / 1024.0);
    round_even(c * 1024.0) / 1024.0
}

/// LIT (section 2.X.8.Z), including the clamp of the specular exponent to
/// (-128, +128) and RoughApproxPower(0, 0) = 1.
fn lit(a: Vec4) -> Vec4 {
    let mut x = a.f(0);
    let mut y = a.f(1);
    let mut w = a.f(3);
    if x < 0.0 {
        x = 0.0;
    }
    if y < 0.0 {
        y = 0.0;
    }
    // 128 - epsilon: the largest float below 128.
    let limit = 128.0f32.next_down();
    if w < -limit {
        w = -limit;
    } else if w > limit {
        w = limit;
    }
    let z = if x > 0.0 {
        if y == 0.0 && w == 0.0 {
            1.0
        } else {
            approx(((w as f64) * (y as f64).log2()).exp2())
        }
    } else {
        0.0
    };
    let mut undefined = 0;
    if a.is_undefined(0) {
        undefined |= 0x6;
    }
    if a.is_undefined(1) || a.is_undefined(3) {
        undefined |= 0x4;
    }
    Vec4 {
        bits: [fb(1.0), fb(x), fb(z), fb(1.0)],
        undefined,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn add_flags_follow_section_2_x_4_3() {
        // 0x7fffffff + 1 overflows as signed, not as unsigned.
        let f = add_sub_flags(0x7fff_ffff, 1, false, 32);
        assert!(f.overflow && !f.carry);
        // 0xffffffff + 1 carries, and is -1 + 1 = 0 signed: no overflow.
        let f = add_sub_flags(u32::MAX.into(), 1, false, 32);
        assert!(!f.overflow && f.carry);
        // 3 - 5: borrow, so CF clear; 5 - 3: CF set.
        assert!(!add_sub_flags(3, 5, true, 32).carry);
        assert!(add_sub_flags(5, 3, true, 32).carry);
        // -2^31 - 1 overflows.
        assert!(add_sub_flags(0x8000_0000, 1, true, 32).overflow);
        // At 64 bits the same values do not carry or overflow; 2^63 - 1 + 1
        // overflows, 2^64 - 1 + 1 carries.
        let f = add_sub_flags(u32::MAX.into(), 1, false, 64);
        assert!(!f.overflow && !f.carry);
        assert!(add_sub_flags(i64::MAX as u64, 1, false, 64).overflow);
        assert!(add_sub_flags(u64::MAX, 1, false, 64).carry);
    }

    #[test]
    fn fixed_point_rounds_to_1024ths_and_saturates() {
        // 0.1 * 1024 = 102.4 -> 102 -> 102/1024.
        assert_eq!(to_fixed(0.1), 102.0 / 1024.0);
        // 1.5/1024 is a tie between 1 and 2: even -> 2/1024.
        assert_eq!(to_fixed(1.5 / 1024.0), 2.0 / 1024.0);
        assert_eq!(to_fixed(3.0), 2047.0 / 1024.0);
        assert_eq!(to_fixed(-3.0), -2.0);
        assert_eq!(to_fixed(f32::NAN), 0.0);
    }

    #[test]
    fn log_splits_exponent_and_mantissa() {
        let v = log(Vec4::defined([fb(-10.0), 0, 0, 0]));
        // |-10| = 1.25 * 2^3.
        assert_eq!([v.f(0), v.f(1), v.f(3)], [3.0, 1.25, 1.0]);
        assert!((v.f(2) - 10f32.log2()).abs() < 1e-6);
        assert_eq!(exponent_of(f32::from_bits(1)), -149);
        let e = exp(Vec4::defined([fb(-1.25), 0, 0, 0]));
        // 2^floor(-1.25) = 2^-2; -1.25 - (-2) = 0.75.
        assert_eq!([e.f(0), e.f(1), e.f(3)], [0.25, 0.75, 1.0]);
    }

    #[test]
    fn power_marks_formula_holes_undefined() {
        assert_eq!(power(2.0, 10.0), (1024.0, false));
        assert!(power(-2.0, 2.0).1);
        assert_eq!(power(0.0, 0.0), (1.0, false));
        assert!(power(1.0, f32::INFINITY).1);
        assert_eq!(power(0.0, 2.0), (0.0, false));
    }
}
