//! Condition code registers (sections 2.X.3.7 and 2.X.4.3).
//!
//! Representation: CC0 and CC1 are each one Private `uvec4`. Component `c`
//! holds the four flags of component `c` as bits: SF = 1, ZF = 2, OF = 4,
//! CF = 8. A Table X.16 test is then a lookup in a 16-entry truth table,
//! `(TABLE >> flags) & 1`, and the table is computed from
//! `CcCondition::holds`, the one definition of Table X.16 (isa.rs).
//!
//! The registers are undefined when a program starts (section 2.X.3.7);
//! they are initialised to all flags clear so that runs are reproducible.

use rspirv::spirv::{Op, StorageClass, Word};

use super::emit::{Comp, LResult, Val};
use super::operand::Enable;
use super::{LowerError, Lowerer};
use crate::ir::{CcReg, CcTest, WriteMask};
use crate::isa::{CcCondition, CcFlags};

const SF: u32 = 1;
const ZF: u32 = 2;
const OF: u32 = 4;
const CF: u32 = 8;

/// Bit `f` of the result is set when the condition holds for the flag
/// combination `f` (encoded as above).
fn truth_table(condition: CcCondition) -> u32 {
    (0..16u32)
        .filter(|&f| {
            condition.holds(CcFlags {
                sf: f & SF != 0,
                zf: f & ZF != 0,
                of: f & OF != 0,
                cf: f & CF != 0,
            })
        })
        .fold(0, |table, f| table | (1 << f))
}

/// The two operands of an integer add or subtract, for the carry and
/// overflow flags (section 2.X.4.3). The result must be `a + b` or `a - b`
/// modulo 2^32.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AddSub {
    pub a: Val,
    pub b: Val,
    pub subtract: bool,
}

impl Lowerer<'_> {
    fn cc_register(&mut self, reg: CcReg) -> LResult<Word> {
        let index = usize::from(reg.0);
        if index > 1 {
            return Err(LowerError::internal(format!(
                "condition code register CC{}",
                reg.0
            )));
        }
        if let Some(var) = self.cc_regs[index] {
            return Ok(var);
        }
        let uvec4 = self.t(Comp::U32, 4);
        let zero = self.konst(Comp::U32, &[0; 4]);
        let var = self.global_variable(
            uvec4,
            StorageClass::Private,
            Some(zero.id),
            &format!("CC{index}"),
        );
        self.cc_regs[index] = Some(var);
        Ok(var)
    }

    /// A `<ccTest>` evaluated per component and swizzled (section 2.X.4.3).
    pub(crate) fn cc_test(&mut self, test: &CcTest) -> LResult<Val> {
        if test.swizzle.0.iter().any(|&c| c > 3) {
            return Err(LowerError::internal("condition code swizzle out of range"));
        }
        let table = truth_table(test.condition);
        if table == 0 {
            return Ok(self.konst(Comp::Bool, &[0; 4]));
        }
        if table == 0xffff {
            return Ok(self.konst(Comp::Bool, &[1; 4]));
        }
        let var = self.cc_register(test.reg)?;
        let flags = self.load(var, Comp::U32, 4)?;
        let table = self.splat_const(Comp::U32, table, 4);
        let shifted = self.op(Op::ShiftRightLogical, &[table, flags])?;
        let one = self.splat_const(Comp::U32, 1, 4);
        let bit = self.op(Op::BitwiseAnd, &[shifted, one])?;
        let zero = self.splat_const(Comp::U32, 0, 4);
        let pass = self.cmp(Op::INotEqual, bit, zero)?;
        self.swizzle(pass, test.swizzle.0)
    }

    /// Whether any component of the test passes (section 2.X.5: the test
    /// of IF, BRK, CONT, CAL, RET and KIL).
    pub(crate) fn cc_any(&mut self, test: &CcTest) -> LResult<Val> {
        let pass = self.cc_test(test)?;
        let [c, rest @ ..] = test.swizzle.0;
        if rest.iter().all(|&r| r == c) {
            // A one-component test (`GT.x`): any of four copies is the one.
            return self.extract(pass, 0);
        }
        self.any(pass)
    }

    /// The components an instruction writes: its write mask and, if
    /// present, its condition code write mask.
    pub(crate) fn enable(&mut self, mask: WriteMask, cc_mask: Option<&CcTest>) -> LResult<Enable> {
        let Some(test) = cc_mask else {
            return Ok(Enable {
                mask,
                dynamic: None,
            });
        };
        let pass = self.cc_test(test)?;
        let dynamic = if mask == WriteMask::ALL {
            pass
        } else {
            let m = self.bool_mask(mask.0);
            self.and(pass, m)?
        };
        Ok(Enable {
            mask,
            dynamic: Some(dynamic),
        })
    }

    /// Updates the flags of the enabled components from `result` (four
    /// components of the instruction's result type), section 2.X.4.3.
    pub(crate) fn cc_update(
        &mut self,
        reg: CcReg,
        result: Val,
        addsub: Option<AddSub>,
        enable: &Enable,
    ) -> LResult<()> {
        if enable.mask.0 == 0 {
            return Ok(());
        }
        let var = self.cc_register(reg)?;
        let mut flags: Vec<(Val, u32)> = Vec::with_capacity(4);
        // A 64-bit result's flags are those of its 64-bit value: SF from
        // bit 63, ZF from all 64 bits, OF and CF from the 64-bit add
        // (NV_gpu_program5 2.X.4.1 carries the operation out "with an
        // internal precision of no less than ... 64 bits", and section
        // 2.X.4.3 takes the flags from "the value written"; docs/semantics.md).
        let wide = result.comp.is_64();
        let zero = |l: &mut Self, comp: Comp| {
            if wide {
                l.splat_const64(comp.to_64(), 0, result.n)
            } else {
                l.splat_const(comp, 0, result.n)
            }
        };
        match result.comp {
            // Floats: SF if negative or NaN, ZF if zero or NaN; OF and CF
            // are not set.
            Comp::F32 | Comp::F64 => {
                let zero = zero(self, Comp::F32);
                flags.push((self.cmp(Op::FUnordLessThan, result, zero)?, SF));
                flags.push((self.cmp(Op::FUnordEqual, result, zero)?, ZF));
            }
            // Integers: SF is the most significant bit of the value
            // written, ZF whether it is zero; OF and CF come from the
            // signed and unsigned views of an add or subtract, and are
            // cleared for every other instruction.
            Comp::I32 | Comp::U32 | Comp::I64 | Comp::U64 => {
                let (s_comp, u_comp) = if wide {
                    (Comp::I64, Comp::U64)
                } else {
                    (Comp::I32, Comp::U32)
                };
                let bits = self.cast(result, u_comp)?;
                let signed = self.cast(result, s_comp)?;
                let izero = zero(self, Comp::I32);
                let uzero = zero(self, Comp::U32);
                flags.push((self.cmp(Op::SLessThan, signed, izero)?, SF));
                flags.push((self.cmp(Op::IEqual, bits, uzero)?, ZF));
                if let Some(AddSub { a, b, subtract }) = addsub {
                    let a = self.cast(a, u_comp)?;
                    let b = self.cast(b, u_comp)?;
                    let (carry, overflow_bits) = if subtract {
                        // "If the result of a subtract is greater than or
                        // equal to zero, the carry flag is set."
                        let carry = self.cmp(Op::UGreaterThanEqual, a, b)?;
                        let ab = self.op(Op::BitwiseXor, &[a, b])?;
                        let ar = self.op(Op::BitwiseXor, &[a, bits])?;
                        (carry, self.op(Op::BitwiseAnd, &[ab, ar])?)
                    } else {
                        let carry = self.cmp(Op::ULessThan, bits, a)?;
                        let ar = self.op(Op::BitwiseXor, &[a, bits])?;
                        let br = self.op(Op::BitwiseXor, &[b, bits])?;
                        (carry, self.op(Op::BitwiseAnd, &[ar, br])?)
                    };
                    let overflow_signed = self.cast(overflow_bits, s_comp)?;
                    flags.push((self.cmp(Op::SLessThan, overflow_signed, izero)?, OF));
                    flags.push((carry, CF));
                }
            }
            Comp::Bool => {
                return Err(LowerError::internal(
                    "a condition code update from booleans",
                ))
            }
        }
        let mut packed: Option<Val> = None;
        for (flag, bit) in flags {
            let set = self.splat_const(Comp::U32, bit, result.n);
            let clear = self.splat_const(Comp::U32, 0, result.n);
            let value = self.sel(flag, set, clear)?;
            packed = Some(match packed {
                Some(p) => self.op(Op::BitwiseOr, &[p, value])?,
                None => value,
            });
        }
        let packed =
            packed.ok_or_else(|| LowerError::internal("a condition code without flags"))?;
        self.merge_store(var, Comp::U32, packed, enable)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truth_tables_follow_table_x16() {
        // EQ: !SF && ZF holds only for flags with ZF set and SF clear.
        let eq = truth_table(CcCondition::Eq);
        for f in 0..16u32 {
            let expected = f & SF == 0 && f & ZF != 0;
            assert_eq!(eq >> f & 1 == 1, expected, "EQ for flags {f:04b}");
        }
        assert_eq!(truth_table(CcCondition::Tr), 0xffff);
        assert_eq!(truth_table(CcCondition::Fl), 0);
        // NAN and LEG are complements.
        assert_eq!(
            truth_table(CcCondition::Nan) ^ truth_table(CcCondition::Leg),
            0xffff
        );
    }
}
