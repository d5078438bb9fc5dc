//! CVT (NV_gpu_program5 2.X.8.Z): two storage modifiers instead of a data
//! type, an optional rounding modifier, and an operand without negation or
//! absolute value.

use super::flow::Flat;
use super::Checker;
use crate::diag::Diagnostic;
use crate::ir::{self, Clamp, Conversion, Rounding, StorageType};
use crate::isa::{split_opcode, DataType, Modifier, OpInfo, OperandKind, TypeRule};
use crate::span::Span;
use crate::syntax::ast::{self, Arg};

const CVT_MODIFIERS: &str = "NV_gpu_program5 2.X.8.Z, CVT: \"The CVT instruction requires two storage modifiers. The first specifies the data type of the result components; the second specifies the data type of the operand components. The supported storage modifiers are F16, F32, F64, S8, S16, S32, S64, U8, U16, U32, and U64.\" \"CVT supports no data type modifiers\"; 2.X.4.1: one of \"ROUND\", \"CEIL\", \"FLR\", \"TRUNC\" may say how to round";

/// A CVT storage modifier.
fn storage_type(text: &str) -> Option<StorageType> {
    let ty = match text.as_bytes().first()? {
        b'F' => DataType::Float,
        b'S' => DataType::Signed,
        b'U' => DataType::Unsigned,
        _ => return None,
    };
    let bits = match (&text[1..], ty) {
        ("16" | "32" | "64", DataType::Float) => text[1..].parse().ok()?,
        ("8" | "16" | "32" | "64", DataType::Signed | DataType::Unsigned) => {
            text[1..].parse().ok()?
        }
        _ => return None,
    };
    Some(StorageType { ty, bits })
}

fn rounding(text: &str) -> Option<Rounding> {
    Some(match text {
        "ROUND" => Rounding::Round,
        "CEIL" => Rounding::Ceil,
        "FLR" => Rounding::Floor,
        "TRUNC" => Rounding::Trunc,
        _ => return None,
    })
}

impl Checker<'_> {
    /// E1162: a CVT modifier error.
    fn cvt_modifier_error(&mut self, span: Span, message: String) {
        self.error(
            Diagnostic::error("E1162", message)
                .primary(span, "CVT modifier")
                .note(CVT_MODIFIERS),
        );
    }

    pub(super) fn cvt_instruction(
        &mut self,
        info: &'static OpInfo,
        inst: &ast::Instruction,
    ) -> Option<Flat> {
        let mut storage: Vec<(StorageType, Span)> = Vec::new();
        let mut round: Option<Rounding> = None;
        let mut clamp = None;
        let mut cc_update = None;
        let mut ok = true;
        // CC and SAT may be opcode suffixes too (CVTC_SAT).
        let mut words: Vec<(Modifier, Span)> = Vec::new();
        if let Ok(split) = split_opcode(&inst.opcode.name) {
            let s = inst.opcode.span.start;
            for (m, a, b) in split.suffixes {
                let span = Span {
                    start: s + a as u32,
                    end: s + b as u32,
                };
                words.push((m, span));
            }
        }
        for m in &inst.modifiers {
            let text = m.name.as_str();
            if let Some(s) = storage_type(text) {
                storage.push((s, m.span));
            } else if let Some(r) = rounding(text) {
                if round.replace(r).is_some() {
                    self.cvt_modifier_error(
                        m.span,
                        "CVT has more than one rounding modifier".into(),
                    );
                    ok = false;
                }
            } else if let Some(w) = Modifier::standalone(text) {
                words.push((w, m.span));
            } else {
                self.cvt_modifier_error(m.span, format!("CVT does not take `.{text}`"));
                ok = false;
            }
        }
        for (m, span) in words {
            match m {
                Modifier::Cc | Modifier::Cc0 | Modifier::Cc1 if cc_update.is_none() => {
                    cc_update = Some(ir::CcReg(u8::from(m == Modifier::Cc1)));
                }
                Modifier::Sat | Modifier::Ssat if clamp.is_none() => {
                    clamp = Some((
                        if m == Modifier::Sat {
                            Clamp::Sat
                        } else {
                            Clamp::Ssat
                        },
                        span,
                    ));
                }
                _ => {
                    self.cvt_modifier_error(span, format!("CVT does not take `{}` here", m.name()));
                    ok = false;
                }
            }
        }
        let [(to, _), (from, _)] = storage[..] else {
            let span = storage.get(2).map_or(inst.opcode.span, |s| s.1);
            self.cvt_modifier_error(
                span,
                format!(
                    "CVT needs exactly two storage modifiers (result, then operand); it has {}",
                    storage.len()
                ),
            );
            return None;
        };
        // "Integer values are clamped to the closest value representable in
        // the result data type if the "SAT" (saturation) modifier is
        // specified": SAT only, for an integer result.
        if let Some((Clamp::Ssat, span)) = clamp.filter(|_| to.ty != DataType::Float) {
            self.cvt_modifier_error(span, "SSAT on CVT to an integer type".into());
            ok = false;
        }
        self.expect_args(inst, 2, info)?;
        let (Arg::Operand(dst_ast), Arg::Operand(src_ast)) = (&inst.args[0], &inst.args[1]) else {
            self.error(
                Diagnostic::error("E0411", "CVT takes a result and an operand")
                    .primary(inst.span, "write `CVT.S32.F32 r, a;`"),
            );
            return None;
        };
        if src_ast.negate || src_ast.abs.is_some() {
            self.error(
                Diagnostic::error("E1163", "CVT's operand takes no negation or absolute value")
                    .primary(src_ast.span, "negated or |...| operand")
                    .note("NV_gpu_program5 2.X.8.Z, CVT: \"Negation and absolute value operators are not supported on the source operand; a program using such operators will fail to compile.\""),
            );
            ok = false;
        }
        let src = self.source(
            src_ast,
            OperandKind::Vector(TypeRule::Inherit),
            from.ty,
            false,
        );
        let dst = self.dest(dst_ast, inst.cc_mask.as_deref(), to.ty, false, info);
        // "F16 ... whose sixteen least significant bits describe a 16-bit
        // floating-point value" (2.X.8.Z, CVT): in a LONG register too, the
        // low 16 bits of the 64-bit component, as in a 32-bit one
        // (docs/semantics.md, "CVT").
        let long = |c: &Self, v: ir::VarId| c.var(v).precision == ir::Precision::Long;
        let long_half_operand = from.is_half() && src.as_ref().is_some_and(|o| long(self, o.var));
        let long_half_result = to.is_half() && dst.as_ref().is_some_and(|d| long(self, d.var));
        if !ok {
            return None;
        }
        Some(Flat::Inst(ir::Instruction {
            op: info.opcode,
            ty: to.ty,
            half: false,
            fixed: false,
            // Floating-point results clamp as every instruction's do.
            clamp: clamp.map(|c| c.0).filter(|_| to.ty == DataType::Float),
            cc_update,
            mul_mode: None,
            precision64: false,
            convert: Some(Conversion {
                to,
                from,
                rounding: round.unwrap_or(Rounding::Round),
                saturate: matches!(clamp, Some((Clamp::Sat, _))) && to.ty != DataType::Float,
                long_half_operand,
                long_half_result,
            }),
            dst: dst?,
            srcs: vec![src?],
            ext_swizzle: None,
            tex: None,
            memory: None,
            image: None,
            span: inst.span,
        }))
    }
}
