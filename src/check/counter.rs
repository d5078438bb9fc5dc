//! NV_shader_atomic_counters: COUNTER declarations (`program.counter[a]`,
//! `program.counter[a][b]`, `program.counter[a][b..c]`, section 2.X.3.Y)
//! and the ATOMCTR instruction (2.X.8.Z) with its INCR, DECR and GET
//! modifiers, checked into an [`ir::MemoryAccess`] on the counter's word
//! (codes E1173-E1175).

use super::flow::Flat;
use super::Checker;
use crate::diag::Diagnostic;
use crate::ir::{self, AtomicOp, BufferBinding, CcReg, MemoryAccess, VarKind, VarType, Variable};
use crate::isa::{DataType, OpInfo};
use crate::span::Span;
use crate::syntax::ast::{self, Arg, Ident, IndexExpr, Init, InitItem, PathHead, PathPart, Root};

/// MAX_ATOMIC_COUNTER_BUFFER_BINDINGS: each binding is a storage buffer,
/// so Vulkan's minimum `maxPerStageDescriptorStorageBuffers` (4, shared
/// with `program.storage`; docs/interface.md, "Atomic counters").
pub const MAX_COUNTER_BINDINGS: u32 = 4;

/// MAX_ATOMIC_COUNTER_BUFFER_SIZE in counters: the length of a
/// `program.counter[a]` array without a declared size (2.X.3.Y: "the
/// implementation-dependent maximum atomic counter buffer object size").
pub const MAX_COUNTER_BUFFER_WORDS: u32 = 4096;

const DECL_RULE: &str = "NV_shader_atomic_counters 2.X.2, 2.X.3.Y: <counterUseDS> ::= \"program\" \".\" \"counter\" <arrayMemAbs> <arrayMemAbs>, or in a list `program.counter[a]` / `program.counter[a][b..c]`; \"all bindings assigned to the array must use the same binding point and must increase consecutively\"; a < MAX_ATOMIC_COUNTER_BUFFER_BINDINGS";
pub(super) const USE_RULE: &str = "NV_shader_atomic_counters 2.X.3.Y: \"Atomic counter variables may only be used as operands in the ATOMCTR instruction; they may not be used by used as results or operands in general instructions.\"";
const MODIFIER_RULE: &str = "NV_shader_atomic_counters 2.X.8.Z, ATOMCTR: \"The ATOMCTR instruction requires an atomic counter instruction modifier\" (INCR, DECR or GET); it \"supports only signed and unsigned integer data type modifiers, but no storage modifers\"; Table X.13: it may update a condition code";

impl Checker<'_> {
    /// `COUNTER name = program.counter[a][b];`, `COUNTER name[] = {
    /// program.counter[a] };`, `COUNTER name[n] = { program.counter[a][b..c], ... };`.
    pub(super) fn counter_declaration(
        &mut self,
        d: &ast::Declaration,
        name: &Ident,
        size: Option<&ast::ArraySize>,
        init: &Init,
    ) {
        if self.reserved_name(name) {
            return;
        }
        let bad = |c: &mut Self, span: Span, message: String| {
            c.error(
                Diagnostic::error("E1173", message)
                    .primary(span, "expected `program.counter[a][b]`, `program.counter[a][b..c]` or `program.counter[a]`")
                    .note(DECL_RULE),
            );
        };
        let items: Vec<&InitItem> = match init {
            Init::Single(i) => vec![i],
            Init::List(items, _) => items.iter().collect(),
        };
        let declared = size.and_then(|s| s.len.as_ref()).and_then(|n| n.value());
        // (buffer, first element, count) of each item, in order.
        let mut binding: Option<(u32, u32, u32)> = None;
        for item in items {
            let InitItem::Binding(p) = item else {
                bad(
                    self,
                    item.span(),
                    format!("`{}` is not bound to an atomic counter buffer", name.name),
                );
                return;
            };
            let parts = match (&p.head, p.parts.as_slice()) {
                (PathHead::Root(Root::Program, _), [PathPart::Member(m), rest @ ..])
                    if m.name.as_str() == "counter" =>
                {
                    rest
                }
                _ => {
                    bad(
                        self,
                        item.span(),
                        format!("`{}` is not bound to an atomic counter buffer", name.name),
                    );
                    return;
                }
            };
            let whole = declared.map_or(MAX_COUNTER_BUFFER_WORDS, |n| n as u32);
            let (a, first, count) = match parts {
                [PathPart::Index(IndexExpr::Int(a), _)] => {
                    (a.value(), Some(0), Some(u64::from(whole)))
                }
                [PathPart::Index(IndexExpr::Int(a), _), PathPart::Index(IndexExpr::Int(b), _)] => {
                    (a.value(), b.value(), Some(1))
                }
                [PathPart::Index(IndexExpr::Int(a), _), PathPart::Index(IndexExpr::Range(b, c), _)] => {
                    match (b.value(), c.value()) {
                        (Some(b), Some(c)) if c >= b => (a.value(), Some(b), Some(c - b + 1)),
                        _ => (a.value(), None, None),
                    }
                }
                _ => (None, None, None),
            };
            let (Some(a), Some(first), Some(count)) = (a, first, count) else {
                bad(
                    self,
                    item.span(),
                    format!("`{}` has a malformed counter binding", name.name),
                );
                return;
            };
            if a >= u64::from(MAX_COUNTER_BINDINGS) {
                self.error(
                    Diagnostic::error(
                        "E1173",
                        format!("atomic counter buffer binding {a} is out of range"),
                    )
                    .primary(
                        item.span(),
                        format!("binding points are 0 to {}", MAX_COUNTER_BINDINGS - 1),
                    )
                    .note(DECL_RULE),
                );
                return;
            }
            let (a, first) = (a as u32, first.min(u64::from(u32::MAX)) as u32);
            binding = match binding {
                None => Some((a, first, count as u32)),
                Some((pa, pf, pn)) if pa == a && pf.checked_add(pn) == Some(first) => {
                    Some((pa, pf, pn + count as u32))
                }
                Some(_) => {
                    bad(
                        self,
                        item.span(),
                        "counter array bindings are not one consecutive range of one binding point"
                            .to_string(),
                    );
                    return;
                }
            };
        }
        let Some((buffer, first, count)) = binding else {
            bad(self, d.span, format!("`{}` has no binding", name.name));
            return;
        };
        if size.is_none() && count != 1 {
            bad(
                self,
                init_span(init),
                format!(
                    "`{}` is bound to {count} counters but is not declared as an array",
                    name.name
                ),
            );
            return;
        }
        if declared.is_some_and(|n| n != u64::from(count)) {
            bad(
                self,
                init_span(init),
                format!(
                    "`{}` is declared with a size other than its {count} bindings",
                    name.name
                ),
            );
            return;
        }
        let var = self.add_var(Variable {
            name: Some(name.name.to_string()),
            span: name.span,
            kind: VarKind::Counter(BufferBinding {
                buffer,
                first,
                vec4: false,
            }),
            ty: VarType::Typed(DataType::Unsigned),
            precision: ir::Precision::Default,
            array_len: size.map(|_| count),
            interpolation: ir::Interpolation::default(),
        });
        self.declare_name(name, var);
    }

    /// ATOMCTR (NV_shader_atomic_counters 2.X.8.Z): `ATOMCTR.INCR.U r.x,
    /// ctr[n];`, an atomic on word `first + n` of the counter buffer.
    pub(super) fn counter_instruction(
        &mut self,
        info: &'static OpInfo,
        inst: &ast::Instruction,
    ) -> Option<Flat> {
        let mut op = None;
        let mut ty = None;
        let mut cc_update = None;
        let mut ok = true;
        for m in &inst.modifiers {
            let text = m.name.as_str();
            let (slot_taken, value) = match text {
                "INCR" | "DECR" | "GET" => (op.is_some(), true),
                "U" | "S" => (ty.is_some(), true),
                "CC" | "CC0" | "CC1" => (cc_update.is_some(), true),
                _ => (false, false),
            };
            if !value || slot_taken {
                self.error(
                    Diagnostic::error(
                        "E1175",
                        if value {
                            format!("ATOMCTR has two `{text}`-kind modifiers")
                        } else {
                            format!("ATOMCTR does not take `.{text}`")
                        },
                    )
                    .primary(m.span, "this modifier")
                    .note(MODIFIER_RULE),
                );
                ok = false;
                continue;
            }
            match text {
                "INCR" => op = Some(AtomicOp::Incr),
                "DECR" => op = Some(AtomicOp::Decr),
                "GET" => op = Some(AtomicOp::Get),
                "U" => ty = Some(DataType::Unsigned),
                "S" => ty = Some(DataType::Signed),
                _ => cc_update = Some(CcReg(u8::from(text == "CC1"))),
            }
        }
        if !ok {
            return None;
        }
        let Some(op) = op else {
            self.error(
                Diagnostic::error("E1175", "ATOMCTR needs an atomic counter modifier")
                    .primary(inst.opcode.span, "e.g. `ATOMCTR.INCR.U`")
                    .note(MODIFIER_RULE),
            );
            return None;
        };
        let ty = ty.unwrap_or(info.default_type);
        if inst.cc_mask.is_some() {
            self.no_cc_mask(inst, info)?;
        }
        self.expect_args(inst, 2, info)?;
        let (Arg::Operand(dst_ast), Arg::Operand(ctr)) = (&inst.args[0], &inst.args[1]) else {
            return None;
        };
        let (var, offset, select) = self.counter_operand(ctr)?;
        let (address, counter_select) = match select {
            Some((address, constant, len)) => (Some(address), Some((constant, len))),
            None => (None, None),
        };
        let dst = self.dest(dst_ast, inst.cc_mask.as_deref(), ty, false, info)?;
        Some(Flat::Inst(ir::Instruction {
            op: info.opcode,
            ty,
            half: false,
            fixed: false,
            clamp: None,
            cc_update,
            mul_mode: None,
            precision64: false,
            convert: None,
            image: None,
            dst,
            srcs: Vec::new(),
            ext_swizzle: None,
            tex: None,
            memory: Some(Box::new(MemoryAccess {
                var,
                offset,
                address,
                ty,
                components: 1,
                bits: 32,
                atomic: Some(op),
                volatile: false,
                counter_select,
                buffer_select: None,
            })),
            span: inst.span,
        }))
    }

    /// `ctr`, `ctr[n]` or `ctrs[a.x + n]` (<counterUseV> ::=
    /// <counterVarName> <optArrayMem>): the COUNTER variable, the byte
    /// offset of its (first) counter in the buffer, and for a register
    /// index the address operand, the constant and the array's length.
    #[allow(clippy::type_complexity)]
    fn counter_operand(
        &mut self,
        o: &ast::Operand,
    ) -> Option<(ir::VarId, u32, Option<(ir::Operand, i32, u32)>)> {
        let bad = |c: &mut Self, span: Span, what: String| {
            c.error(
                Diagnostic::error("E1174", what)
                    .primary(span, "expected a COUNTER variable, e.g. `ctr[0]`")
                    .note(USE_RULE),
            );
        };
        let PathHead::Name(id) = &o.path.head else {
            bad(
                self,
                o.span,
                "the ATOMCTR operand is not a COUNTER variable".to_string(),
            );
            return None;
        };
        let Some(sym) = self.names.get(&id.name).copied() else {
            let d = self.undeclared(id, USE_RULE);
            self.error(d);
            return None;
        };
        let v = &self.vars[sym.var.0 as usize];
        let (VarKind::Counter(b), false, None) = (&v.kind, o.negate, o.abs) else {
            bad(
                self,
                o.span,
                format!("`{}` is not a COUNTER variable", id.name),
            );
            return None;
        };
        let (first, len, is_array) = (b.first, v.len(), v.is_array());
        let element = match o.path.parts.as_slice() {
            [] if !is_array => 0,
            [PathPart::Index(IndexExpr::Int(n), span)] if is_array => match n.value() {
                Some(n) if n < u64::from(len) => n as u32,
                _ => {
                    bad(self, *span, format!("`{}` has {len} counters", id.name));
                    return None;
                }
            },
            [PathPart::Index(
                IndexExpr::Relative {
                    register,
                    component,
                    offset,
                },
                span,
            )] if is_array => {
                let off = super::instr::relative_offset(offset.as_deref());
                let name = id.name.clone();
                let ir::Index::Relative { address, offset } =
                    self.relative_index(register, component, off, *span, len, &name)?
                else {
                    return None;
                };
                let base = first.checked_mul(4)?;
                return Some((sym.var, base, Some((*address, offset, len))));
            }
            _ => {
                bad(
                    self,
                    o.span,
                    format!("`{}` is used with the wrong index", id.name),
                );
                return None;
            }
        };
        let word = first.checked_add(element)?;
        Some((sym.var, word.checked_mul(4)?, None))
    }
}

fn init_span(init: &Init) -> Span {
    match init {
        Init::Single(i) => i.span(),
        Init::List(_, span) => *span,
    }
}
