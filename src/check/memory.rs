//! NV_shader_storage_buffer_object: STORAGE declarations and the memory
//! instructions LDB, STB and ATOMB, with their storage modifiers (`F32`,
//! `S32`, `U32` and the `X2`/`X4` vectors of NV_gpu_program5 section
//! 2.X.4.5) and ATOMB's atomic modifiers, checked into
//! [`ir::MemoryAccess`]. Memory operands are byte-addressed: `sbo[8]`,
//! `sbo[R0.x]`, `sbo[R0.x + 4]` (`<storageUseV>`).

use super::flow::Flat;
use super::Checker;
use crate::diag::Diagnostic;
use crate::ir::{self, AtomicOp, CcReg, MemoryAccess, VarKind, VarType, Variable};
use crate::isa::{DataType, OpInfo, Opcode, OperandKind, TypeRule};
use crate::span::Span;
use crate::syntax::ast::{self, Arg, Ident, IndexExpr, Init, InitItem, PathHead, PathPart, Root};

/// MAX_SHADER_STORAGE_BUFFER_BINDINGS: Vulkan's minimum
/// `maxPerStageDescriptorStorageBuffers` (docs/limits.md).
pub const MAX_STORAGE_BINDINGS: u32 = 4;

const STORAGE_RULE: &str = "NV_shader_storage_buffer_object 2.X.3.Y: a STORAGE variable is bound to `program.storage[a]` (Table X.2); it is used only as the memory operand of LDB, STB and ATOMB";

/// A storage modifier of section 2.X.4.5: base type, size, count.
fn storage_modifier(text: &str) -> Option<Result<(DataType, u8), &'static str>> {
    let (ty, rest) = match text.as_bytes().first()? {
        b'F' => (DataType::Float, &text[1..]),
        b'S' => (DataType::Signed, &text[1..]),
        b'U' => (DataType::Unsigned, &text[1..]),
        _ => return None,
    };
    let (size, count) = match rest.split_once('X') {
        Some((s, c)) => (s, c),
        None => (rest, "1"),
    };
    let count = match count {
        "1" => 1,
        "2" => 2,
        "4" => 4,
        _ => return None,
    };
    match size {
        "32" => Some(Ok((ty, count))),
        "8" | "16" | "64" => Some(Err(
            "8-, 16- and 64-bit storage modifiers are not lowered yet (README, \"Headers and options\")",
        )),
        _ => None,
    }
}

fn atomic_modifier(text: &str) -> Option<Result<AtomicOp, &'static str>> {
    Some(Ok(match text {
        "ADD" => AtomicOp::Add,
        "MIN" => AtomicOp::Min,
        "MAX" => AtomicOp::Max,
        "AND" => AtomicOp::And,
        "OR" => AtomicOp::Or,
        "XOR" => AtomicOp::Xor,
        "EXCH" => AtomicOp::Exch,
        "CSWAP" => AtomicOp::CSwap,
        "IWRAP" | "DWRAP" => {
            return Some(Err(
                "IWRAP and DWRAP are not lowered yet (README, \"Headers and options\")",
            ))
        }
        _ => return None,
    }))
}

impl Checker<'_> {
    /// `STORAGE name = program.storage[a];`.
    pub(super) fn storage_declaration(
        &mut self,
        d: &ast::Declaration,
        name: &Ident,
        size: Option<&ast::ArraySize>,
        init: &Init,
    ) {
        if self.reserved_name(name) {
            return;
        }
        let item = match init {
            Init::Single(i) => Some(i),
            Init::List(items, _) if items.len() == 1 => items.first(),
            Init::List(..) => None,
        };
        let binding = item.and_then(|item| match item {
            InitItem::Binding(p) => match (&p.head, p.parts.as_slice()) {
                (
                    PathHead::Root(Root::Program, _),
                    [PathPart::Member(m), PathPart::Index(IndexExpr::Int(n), _)],
                ) if m.name.as_str() == "storage" => n.value(),
                _ => None,
            },
            _ => None,
        });
        let binding = match binding {
            Some(b) if b < u64::from(MAX_STORAGE_BINDINGS) => b as u32,
            Some(b) => {
                self.error(
                    Diagnostic::error("E1106", format!("storage buffer binding {b} is out of range"))
                        .primary(d.span, format!("binding points are 0 to {}", MAX_STORAGE_BINDINGS - 1))
                        .note("NV_shader_storage_buffer_object: \"A program will fail to compile if such bindings are used when <a> ... is greater than or equal to the number of buffer binding points supported\" (docs/limits.md)"),
                );
                return;
            }
            None => {
                self.error(
                    Diagnostic::error("E1106", format!("`{}` is not bound to one `program.storage[a]`", name.name))
                        .primary(d.span, "expected `STORAGE name = program.storage[a];`")
                        .note(STORAGE_RULE)
                        .note("bindings of ranges of buffers (`program.storage[a..b]`) and element ranges are not lowered yet"),
                );
                return;
            }
        };
        let _ = size;
        let var = self.add_var(Variable {
            name: Some(name.name.to_string()),
            span: name.span,
            kind: VarKind::Storage(binding),
            ty: VarType::Typeless,
            precision: ir::Precision::Default,
            array_len: None,
            interpolation: ir::Interpolation::default(),
        });
        self.declare_name(name, var);
    }

    /// LDB, STB and ATOMB (NV_shader_storage_buffer_object 2.X.8.Z).
    pub(super) fn memory_instruction(
        &mut self,
        info: &'static OpInfo,
        inst: &ast::Instruction,
    ) -> Option<Flat> {
        let atomic_instruction = info.opcode == Opcode::Atomb;
        let mut storage: Option<(DataType, u8)> = None;
        let mut atomic = None;
        let mut cc_update = None;
        let mut ok = true;
        let modifier_error = |c: &mut Self, span: Span, message: String, note: &str| {
            c.error(
                Diagnostic::error("E1107", message)
                    .primary(span, "this modifier")
                    .note(note.to_string()),
            );
        };
        for m in &inst.modifiers {
            let text = m.name.as_str();
            if let Some(s) = storage_modifier(text) {
                match s {
                    Ok(s) if storage.is_none() => storage = Some(s),
                    Ok(_) => {
                        modifier_error(self, m.span, format!("{} has more than one storage modifier", info.name), "NV_shader_storage_buffer_object 2.X.8.Z: the memory instructions require exactly one storage modifier");
                        ok = false;
                    }
                    Err(why) => {
                        self.error(
                            Diagnostic::error("E0900", format!("`.{text}` on {}", info.name))
                                .primary(m.span, "not supported yet")
                                .note(why),
                        );
                        ok = false;
                    }
                }
            } else if let (true, Some(a)) = (atomic_instruction, atomic_modifier(text)) {
                match a {
                    Ok(a) if atomic.is_none() => atomic = Some(a),
                    Ok(_) => {
                        modifier_error(self, m.span, "ATOMB has more than one atomic modifier".into(), "NV_gpu_program5 2.X.8.Z, ATOM: \"requires exactly one atomic modifier\"");
                        ok = false;
                    }
                    Err(why) => {
                        self.error(
                            Diagnostic::error("E0900", format!("`.{text}` on ATOMB"))
                                .primary(m.span, "not supported yet")
                                .note(why),
                        );
                        ok = false;
                    }
                }
            } else if matches!(text, "CC" | "CC0" | "CC1") && info.opcode != Opcode::Stb {
                cc_update = Some(CcReg(u8::from(text == "CC1")));
            } else {
                modifier_error(self, m.span, format!("{} does not take `.{text}`", info.name), "NV_shader_storage_buffer_object 2.X.8.Z: LDB and STB take one storage modifier (F32, S32, U32 and their X2/X4 forms), ATOMB one atomic modifier (ADD, MIN, MAX, AND, OR, XOR, EXCH, CSWAP) and one storage modifier; LDB and ATOMB may update a condition code");
                ok = false;
            }
        }
        if !ok {
            return None;
        }
        let Some((ty, components)) = storage else {
            self.error(
                Diagnostic::error("E1107", format!("{} needs a storage modifier", info.name))
                    .primary(inst.opcode.span, "e.g. `.U32`, `.F32X4`")
                    .note("NV_shader_storage_buffer_object 2.X.8.Z: \"requires exactly one storage modifier\""),
            );
            return None;
        };
        if atomic_instruction {
            let Some(op) = atomic else {
                self.error(
                    Diagnostic::error("E1107", "ATOMB needs an atomic modifier")
                        .primary(inst.opcode.span, "e.g. `.ADD`, `.CSWAP`")
                        .note("NV_gpu_program5 2.X.8.Z, ATOM: the atomic modifier specifies the operation"),
                );
                return None;
            };
            // Table X.Y: atomics are scalar, on U32 and S32 (F32 ADD and
            // EXCH with NV_shader_atomic_float, not lowered yet).
            let allowed = components == 1 && ty != DataType::Float;
            if !allowed {
                self.error(
                    Diagnostic::error("E1107", format!("ATOMB.{} does not take this storage modifier", op.name()))
                        .primary(inst.opcode.span, "atomics are scalar U32 or S32 here")
                        .note("NV_gpu_program5 2.X.8.Z, ATOM, Table X.Y: ADD, MIN, MAX, AND, OR, XOR, EXCH and CSWAP on U32 and S32 (F32 atomics need NV_shader_atomic_float, 64-bit ones NV_shader_atomic_int64: not lowered yet)"),
                );
                return None;
            }
        }
        if inst.cc_mask.is_some() {
            self.no_cc_mask(inst, info)?;
        }
        let expected = match info.opcode {
            Opcode::Ldb => 2,
            Opcode::Stb => 2,
            _ => 3,
        };
        self.expect_args(inst, expected, info)?;
        let Some(Arg::Operand(mem)) = inst.args.last() else {
            return None;
        };
        let (var, offset, address) = self.memory_operand(mem)?;
        let memory = MemoryAccess {
            var,
            offset,
            address,
            ty,
            components,
            atomic,
        };
        match info.opcode {
            Opcode::Stb => {
                let Arg::Operand(value) = &inst.args[0] else {
                    return None;
                };
                let value =
                    self.source(value, OperandKind::Vector(TypeRule::Inherit), ty, false)?;
                Some(Flat::Store(value, memory, inst.span))
            }
            _ => {
                let Arg::Operand(dst_ast) = &inst.args[0] else {
                    return None;
                };
                let dst = self.dest(dst_ast, inst.cc_mask.as_deref(), ty, false, info)?;
                let srcs = if atomic_instruction {
                    let Arg::Operand(v) = &inst.args[1] else {
                        return None;
                    };
                    vec![self.source(v, OperandKind::Vector(TypeRule::Inherit), ty, false)?]
                } else {
                    Vec::new()
                };
                Some(Flat::Inst(ir::Instruction {
                    op: info.opcode,
                    ty,
                    half: false,
                    fixed: false,
                    clamp: None,
                    cc_update,
                    mul_mode: None,
                    dst,
                    srcs,
                    ext_swizzle: None,
                    tex: None,
                    memory: Some(memory),
                    span: inst.span,
                }))
            }
        }
    }

    /// `name`, `name[n]`, `name[R.x]`, `name[R.x + n]`: a STORAGE variable
    /// and a byte offset.
    fn memory_operand(
        &mut self,
        o: &ast::Operand,
    ) -> Option<(ir::VarId, u32, Option<ir::Operand>)> {
        let bad = |c: &mut Self, span: Span, what: &str| {
            c.error(
                Diagnostic::error("E1106", format!("the memory operand {what}"))
                    .primary(span, "expected a STORAGE variable, e.g. `sbo[R0.x]`")
                    .note(STORAGE_RULE),
            );
        };
        let PathHead::Name(id) = &o.path.head else {
            bad(self, o.span, "is not a STORAGE variable");
            return None;
        };
        let Some(sym) = self.names.get(&id.name).copied() else {
            let d = self.undeclared(id, STORAGE_RULE);
            self.error(d);
            return None;
        };
        if !matches!(self.vars[sym.var.0 as usize].kind, VarKind::Storage(_))
            || o.negate
            || o.abs.is_some()
        {
            bad(
                self,
                o.span,
                &format!("`{}` is not a STORAGE variable", id.name),
            );
            return None;
        }
        match o.path.parts.as_slice() {
            [] => Some((sym.var, 0, None)),
            [PathPart::Index(IndexExpr::Int(n), span)] => match n.value() {
                Some(v) if v <= u64::from(u32::MAX) => Some((sym.var, v as u32, None)),
                _ => {
                    bad(self, *span, "offset does not fit in 32 bits");
                    None
                }
            },
            [PathPart::Index(
                IndexExpr::Relative {
                    register,
                    component,
                    offset,
                },
                span,
            )] => {
                let constant = match offset.as_deref() {
                    None => 0,
                    Some((false, n)) => match n.value() {
                        Some(v) if v <= u64::from(u32::MAX) => v as u32,
                        _ => {
                            bad(self, *span, "offset does not fit in 32 bits");
                            return None;
                        }
                    },
                    Some((true, _)) => {
                        bad(self, *span, "offset is negative");
                        return None;
                    }
                };
                let addr = ast::Operand {
                    negate: false,
                    abs: None,
                    path: ast::Path {
                        head: PathHead::Name(register.clone()),
                        parts: vec![PathPart::Member(component.clone())],
                        span: register.span.to(component.span),
                    },
                    span: register.span.to(component.span),
                };
                let address = self.source(
                    &addr,
                    OperandKind::Scalar(TypeRule::Unsigned),
                    DataType::Unsigned,
                    false,
                )?;
                Some((sym.var, constant, Some(address)))
            }
            _ => {
                bad(self, o.span, "takes one index: a byte offset");
                None
            }
        }
    }
}
