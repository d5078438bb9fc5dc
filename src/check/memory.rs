//! NV_shader_storage_buffer_object: STORAGE declarations and the memory
//! instructions LDB, STB and ATOMB, with their storage modifiers (`F32`,
//! `S32`, `U32` and the `X2`/`X4` vectors of NV_gpu_program5 section
//! 2.X.4.5) and ATOMB's atomic modifiers, checked into
//! [`ir::MemoryAccess`]. Memory operands are byte-addressed: `sbo[8]`,
//! `sbo[R0.x]`, `sbo[R0.x + 4]` (`<storageUseV>`).
//!
//! NV_compute_program5's shared memory is the same model on another
//! memory: `SHARED_MEMORY n;` sizes the work group's shared memory in
//! bytes, `SHARED name = program.sharedmem[a];` names it from byte `a` on,
//! and LDS, STS and ATOMS take the same modifiers and operands as LDB, STB
//! and ATOMB (the instruction table's `SharedMemory` shape), with codes
//! E1150-E1157 for the rules section 2.X.3.Y and 2.X.7.Y add.

use super::flow::Flat;
use super::Checker;
use crate::diag::Diagnostic;
use crate::ir::{self, AtomicOp, CcReg, MemoryAccess, VarKind, VarType, Variable};
use crate::isa::{DataType, Features, OpInfo, OperandKind, ResultKind, Shape, TypeRule};
use crate::span::Span;
use crate::syntax::ast::{self, Arg, Ident, IndexExpr, Init, InitItem, PathHead, PathPart, Root};

/// MAX_SHADER_STORAGE_BUFFER_BINDINGS: Vulkan's minimum
/// `maxPerStageDescriptorStorageBuffers` (docs/limits.md).
pub const MAX_STORAGE_BINDINGS: u32 = 4;

/// MAX_COMPUTE_SHARED_VARIABLE_SIZE (NV_compute_program5 2.X.7.Y, the
/// limit of `SHARED_MEMORY`): Vulkan's minimum
/// `maxComputeSharedMemorySize`, 16384 bytes (docs/limits.md).
pub const MAX_SHARED_MEMORY: u32 = 16384;

pub(super) const SHARED_RULE: &str = "NV_compute_program5 2.X.3.Y: \"Shared memory variables may only be used as operands in the ATOMS, LDS, and STS instructions; they may not be used by used as results or operands in general instructions. Shared memory variables must be declared explicitly via the <SHARED_statement> grammar rule.\"";
const SHARED_DECL_RULE: &str = "NV_compute_program5 2.X.2 and 2.X.3.Y: <sharedUseDS> ::= \"program\" \".\" \"sharedmem\" <arrayMemAbs>; in a list, `program.sharedmem[a..b]` ranges (\"all bindings assigned to the array must use the same binding point(s) and must increase consecutively\"), or `program.sharedmem` for all of it";
const SHARED_SIZE_RULE: &str = "NV_compute_program5 2.X.7.Y: \"a program will fail to load if it includes multiple SHARED_MEMORY declarations, if it uses the the ATOMS, LDS, or STS instructions in a program without a SHARED_MEMORY declaration, if uses these instructions with an offset that would access memory beyond the declared shared memory size, or if the declared shared memory size is greater than the implementation-dependent limit MAX_COMPUTE_SHARED_VARIABLE_SIZE\"";

/// One use of shared memory, kept for the whole-program rules against
/// `SHARED_MEMORY` (which may come later in the program text).
pub(super) struct SharedUse {
    /// The instruction's memory operand, or the declaration's binding.
    pub span: Span,
    /// One past the last byte it touches at the least (the constant part
    /// of the offset; a register adds a non-negative amount); `None` for
    /// `program.sharedmem`, which is all of it whatever its size.
    pub end: Option<u64>,
    /// A LDS, STS or ATOMS (which needs `SHARED_MEMORY`), not a SHARED
    /// declaration.
    pub instruction: bool,
}

/// The codes and rules of one kind of memory (storage buffers, shared
/// memory or parameter buffers), so that one checker serves LDB/STB/ATOMB,
/// LDS/STS/ATOMS and LDC.
struct Space {
    shared: bool,
    /// NV_shader_buffer_load/store's GPU addresses (LOAD, STORE, ATOM):
    /// the operand is an address, not a memory variable.
    global: bool,
    /// LDC's parameter buffer (CBUFFER), with its 8- and 16-bit storage
    /// modifiers and ordinary operand modifiers (swizzle, negate, abs).
    constant: bool,
    /// Bad memory operand.
    operand_code: &'static str,
    /// Bad or missing storage modifier.
    modifier_code: &'static str,
    /// Bad or missing atomic modifier.
    atomic_code: &'static str,
    operand_rule: &'static str,
    modifier_rule: &'static str,
}

const STORAGE_SPACE: Space = Space {
    shared: false,
    global: false,
    constant: false,
    operand_code: "E1106",
    modifier_code: "E1107",
    atomic_code: "E1107",
    operand_rule: STORAGE_RULE,
    modifier_rule: "NV_shader_storage_buffer_object 2.X.8.Z: LDB and STB take one storage modifier (NV_gpu_program5 2.X.4.1: F32, S32, U32, F64, S64, U64 and their X2/X4 forms, S8, U8, S16, U16; NV_gpu_program5_mem_extended: F16 and the 8/16-bit X2/X4 forms), ATOMB one atomic modifier (ADD, MIN, MAX, AND, OR, XOR, EXCH, CSWAP) and one storage modifier; LDB and ATOMB may update a condition code",
};

const SHARED_SPACE: Space = Space {
    shared: true,
    global: false,
    constant: false,
    operand_code: "E1155",
    modifier_code: "E1156",
    atomic_code: "E1157",
    operand_rule: SHARED_RULE,
    modifier_rule: "NV_compute_program5 2.X.8.Z, LDS/STS/ATOMS: \"LDS supports no base data type modifiers, but requires exactly one storage modifier\" (NV_gpu_program5 2.X.4.1: F32, S32, U32, F64, S64, U64 and their X2/X4 forms, S8, U8, S16, U16; NV_gpu_program5_mem_extended: F16 and the 8/16-bit X2/X4 forms); ATOMS takes one atomic modifier too; LDS and ATOMS may update a condition code (Table X.13: C)",
};

const CONSTANT_SPACE: Space = Space {
    shared: false,
    global: false,
    constant: true,
    operand_code: "E1171",
    modifier_code: "E1172",
    atomic_code: "E1172",
    operand_rule: CBUFFER_RULE,
    modifier_rule: "NV_parameter_buffer_object2 2.X.4.1 and 2.X.8.Z, LDC: \"LDC supports no base data type modifiers, but requires exactly one storage modifier\" (F32, F32X2, F32X4, S8, S16, S32, S32X2, S32X4, U8, U16, U32, U32X2, U32X4; NV_gpu_program5 adds the 64-bit ones, NV_gpu_program5_mem_extended F16 and the 8/16-bit X2/X4 forms); Table X.13: C and S, so LDC may update a condition code and clamp a float result (SAT, SSAT)",
};

/// LOAD, STORE and ATOM (NV_gpu_program5 2.X.8.Z; NV_shader_buffer_load,
/// NV_shader_buffer_store), codes E1227-E1230.
const GLOBAL_SPACE: Space = Space {
    shared: false,
    global: true,
    constant: false,
    operand_code: "E1227",
    modifier_code: "E1228",
    atomic_code: "E1229",
    operand_rule: GLOBAL_RULE,
    modifier_rule: "NV_gpu_program5 2.X.8.Z, LOAD/STORE/ATOM: each \"supports no base data type modifiers, but requires exactly one storage modifier\" (F32, S32, U32 and their X2/X4 forms, section 2.X.4.5; S8, U8, S16 and U16 on LOAD and STORE); ATOM takes one atomic modifier too; Table X.13: LOAD may update a condition code and clamp (C, S), ATOM may update one (C), STORE neither; COH and VOL (Table X.14) only \"Make LOAD and STORE operations\" coherent and volatile",
};

const GLOBAL_RULE: &str = "NV_gpu_program5 2.X.8.Z, LOAD/STORE/ATOM: the address is \"the single unsigned integer scalar operand\" of LOAD and the second operand of STORE and ATOM, \"always interpreted as an unsigned integer scalar\" (Table X.13: \"su\"), e.g. `addr.x` of a LONG register holding a GPU address; 2.X.4.5: \"the GPU address is specified as an instruction operand\"";

pub(super) const ATOMIC_FLOAT_RULE: &str = "NV_shader_atomic_float, \"Dependencies on NV_gpu_program5\": \"If NV_gpu_program5 is supported and \"OPTION NV_shader_atomic_float\" is specified in an assembly program, \"F32\" should be allowed as a storage modifier to the ATOM instruction for the atomic operations \"ADD\" and \"EXCH\"\" (NV_gpu_program5 revision 3: \"Remove F32 support from ATOM.ADD\"); \"Dependencies on EXT_shader_image_load_store and NV_gpu_program5\": the same for ATOMIM";

pub(super) const CBUFFER_RULE: &str = "NV_parameter_buffer_object2 2.X.3.6: \"Parameter buffer variables declared using \"CBUFFER\" may not be used as an operand in any instruction other than LDC, while \"BUFFER\" and \"BUFFER4\" variables may not be used with LDC\"; 2.X.8.Z, LDC: \"a program will fail to load if any other type of operand is used in an LDC instruction\"";

pub(super) const STORAGE_RULE: &str = "NV_shader_storage_buffer_object 2.X.3.Y: a STORAGE variable is bound to `program.storage[a]` (Table X.2); it is used only as the memory operand of LDB, STB and ATOMB";

/// Which extension a storage modifier comes from, which decides the
/// programs that may use it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum StorageOrigin {
    /// NV_gpu_program4 / NV_parameter_buffer_object2 2.X.4.1: F32, S32,
    /// U32 and their X2/X4 forms, and the scalar S8, S16, U8, U16.
    Base,
    /// NV_gpu_program5 2.X.4.1: F64, S64, U64 and their X2/X4 forms.
    Wide,
    /// NV_gpu_program5_mem_extended Table X.14: F16, F16X2, F16X4 and the
    /// 8- and 16-bit integer vectors, with `OPTION
    /// NV_gpu_program5_mem_extended` only.
    MemExtended,
}

/// One storage modifier of a load or store (NV_gpu_program5 2.X.4.5,
/// BufferMemoryLoad / BufferMemoryStore): the components' base type, their
/// size in bits, and how many.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct StorageModifier {
    pub name: &'static str,
    pub ty: DataType,
    pub bits: u8,
    pub components: u8,
    pub origin: StorageOrigin,
}

/// Every storage modifier of the load and store instructions (LDC, LDB,
/// STB, LDS, STS; ATOMB and ATOMS take the scalar 32-bit ones of their
/// Table X.Y; LOADIM/STOREIM the ones of their Table X.3): NV_gpu_program5
/// 2.X.4.1's list for loads and stores, extended by
/// NV_gpu_program5_mem_extended's Table X.14.
pub(crate) static STORAGE_MODIFIERS: &[StorageModifier] = {
    use DataType::{Float as F, Signed as S, Unsigned as U};
    use StorageOrigin::{Base, MemExtended as Ext, Wide};
    const fn m(
        name: &'static str,
        ty: DataType,
        bits: u8,
        components: u8,
        origin: StorageOrigin,
    ) -> StorageModifier {
        StorageModifier {
            name,
            ty,
            bits,
            components,
            origin,
        }
    }
    &[
        m("F32", F, 32, 1, Base),
        m("F32X2", F, 32, 2, Base),
        m("F32X4", F, 32, 4, Base),
        m("S32", S, 32, 1, Base),
        m("S32X2", S, 32, 2, Base),
        m("S32X4", S, 32, 4, Base),
        m("U32", U, 32, 1, Base),
        m("U32X2", U, 32, 2, Base),
        m("U32X4", U, 32, 4, Base),
        m("S8", S, 8, 1, Base),
        m("U8", U, 8, 1, Base),
        m("S16", S, 16, 1, Base),
        m("U16", U, 16, 1, Base),
        m("F64", F, 64, 1, Wide),
        m("F64X2", F, 64, 2, Wide),
        m("F64X4", F, 64, 4, Wide),
        m("S64", S, 64, 1, Wide),
        m("S64X2", S, 64, 2, Wide),
        m("S64X4", S, 64, 4, Wide),
        m("U64", U, 64, 1, Wide),
        m("U64X2", U, 64, 2, Wide),
        m("U64X4", U, 64, 4, Wide),
        m("F16", F, 16, 1, Ext),
        m("F16X2", F, 16, 2, Ext),
        m("F16X4", F, 16, 4, Ext),
        m("S8X2", S, 8, 2, Ext),
        m("S8X4", S, 8, 4, Ext),
        m("S16X2", S, 16, 2, Ext),
        m("S16X4", S, 16, 4, Ext),
        m("U8X2", U, 8, 2, Ext),
        m("U8X4", U, 8, 4, Ext),
        m("U16X2", U, 16, 2, Ext),
        m("U16X4", U, 16, 4, Ext),
    ]
};

/// The storage modifier named `text` (of [`STORAGE_MODIFIERS`]); whether
/// the program and instruction may use it is
/// [`Checker::storage_modifier_allowed`]'s question.
pub(crate) fn storage_modifier(text: &str) -> Option<&'static StorageModifier> {
    STORAGE_MODIFIERS.iter().find(|m| m.name == text)
}

const MEM_EXTENDED_RULE: &str = "NV_gpu_program5_mem_extended 2.X.6: \"If a program specifies the \"NV_gpu_program5_mem_extended\" option, it may use the \"F16\", \"F16X2\", \"F16X4\", \"S8X2\", \"S8X4\", \"S16X2\", \"S16X4\", \"U8X2\", \"U8X4\", \"U16X2\", and \"U16X4\" storage modifiers on instructions loading values from memory or storing values to memory (LDC, LOAD, STORE, LOADIM, STOREIM, LDB, STB, LDS, STS).\"";

const WIDE_RULE: &str = "NV_gpu_program5 2.X.4.1: \"For load and store operations, the \"F32\", \"F32X2\", \"F32X4\", \"F64\", \"F64X2\", \"F64X4\", ... \"U64\", \"U64X2\", and \"U64X4\" storage modifiers control how data are loaded from or stored to memory\"; NV_parameter_buffer_object2 2.X.4.1 (without NV_gpu_program5) lists only F32, S8, S16, S32, U8, U16, U32 and the 32-bit X2/X4 forms";

/// The storage modifiers the atomic extensions add to the atomic memory
/// instructions, as (base type, component bits, components): `U64`, `S64`
/// (NV_gpu_program5 Table X.Y and NV_shader_atomic_int64), `F64`
/// (NV_shader_atomic_float64), `F16X2` and `F16X4`
/// (NV_shader_atomic_fp16_vector). None of them is a storage modifier of
/// the loads and stores nvp4c lowers.
pub(super) fn atomic_extension_storage(text: &str) -> Option<(DataType, u8, u8)> {
    Some(match text {
        "U64" => (DataType::Unsigned, 64, 1),
        "S64" => (DataType::Signed, 64, 1),
        "F64" => (DataType::Float, 64, 1),
        "F16X2" => (DataType::Float, 16, 2),
        "F16X4" => (DataType::Float, 16, 4),
        _ => return None,
    })
}

const INT64_RULE: &str = "NV_shader_atomic_int64, \"Dependencies on NV_gpu_program5, NV_compute_program5, and NV_shader_storage_buffer_object\": \"If a program specifies the \"NV_shader_atomic_int64\" option, it may use the \"S64\" storage modifier with the atomic operations \"MIN', \"MAX\", \"AND\", \"OR\", \"XOR\", \"ADD\", \"EXCH\", and \"CSWAP\", and the \"U64\" storage modifier with the atomic operations \"MIN\", \"MAX\", \"AND\", \"OR\", and \"XOR\"\" (U64 ADD, EXCH and CSWAP are NV_gpu_program5's own, Table X.Y); \"No new support is provided for the IWRAP and DWRAP atomic operations.\"";
const FLOAT64_RULE: &str = "NV_shader_atomic_float64, \"Dependencies on NV_gpu_program5\": \"If a program specifies the \"NV_shader_atomic_float64\" option, it may use \"F64\" storage modifier with the \"ATOM\" opcode to perform atomic double-precision floating-point add or exchange operations\"; issue (2): no MIN, MAX, CSWAP or bit-wise operations";
const FP16_VECTOR_RULE: &str = "NV_shader_atomic_fp16_vector, \"Dependencies on NV_gpu_program5\" and the sections after it: if \"OPTION NV_shader_atomic_fp16_vector\" is specified, \"F16X2\" and \"F16X4\" should be allowed as storage modifiers to the ATOM, ATOMB, ATOMS and ATOMIM instructions \"for the atomic operations \"ADD\", \"MIN\", \"MAX\" and \"EXCH\"\"";

/// Which option a storage modifier of [`atomic_extension_storage`] needs
/// with atomic operation `op` (`None`: none, NV_gpu_program5's own U64
/// ADD, EXCH and CSWAP), its code and rule; `Err` with the rule when no
/// option allows the pair.
pub(super) fn atomic_extension_option(
    op: AtomicOp,
    (ty, bits, _): (DataType, u8, u8),
) -> Result<Option<(&'static str, &'static str, &'static str)>, &'static str> {
    use AtomicOp as A;
    match (bits, ty, op) {
        (64, DataType::Float, A::Add | A::Exch) => {
            Ok(Some(("NV_shader_atomic_float64", "E1241", FLOAT64_RULE)))
        }
        (64, DataType::Float, _) => Err(FLOAT64_RULE),
        (64, DataType::Unsigned, A::Add | A::Exch | A::CSwap) => Ok(None),
        (64, _, A::Add | A::Min | A::Max | A::And | A::Or | A::Xor | A::Exch | A::CSwap) => {
            Ok(Some(("NV_shader_atomic_int64", "E1240", INT64_RULE)))
        }
        (64, ..) => Err(INT64_RULE),
        (_, _, A::Add | A::Min | A::Max | A::Exch) => Ok(Some((
            "NV_shader_atomic_fp16_vector",
            "E1242",
            FP16_VECTOR_RULE,
        ))),
        _ => Err(FP16_VECTOR_RULE),
    }
}

/// An atomic modifier of ATOM/ATOMB/ATOMS (and ATOMIM, whose Table X.4
/// names the same operations).
pub(super) fn atomic_modifier(text: &str) -> Option<AtomicOp> {
    Some(match text {
        "ADD" => AtomicOp::Add,
        "MIN" => AtomicOp::Min,
        "MAX" => AtomicOp::Max,
        "AND" => AtomicOp::And,
        "OR" => AtomicOp::Or,
        "XOR" => AtomicOp::Xor,
        "EXCH" => AtomicOp::Exch,
        "CSWAP" => AtomicOp::CSwap,
        "IWRAP" => AtomicOp::IWrap,
        "DWRAP" => AtomicOp::DWrap,
        _ => return None,
    })
}

impl Checker<'_> {
    /// Whether this program may use the storage modifier `s` (E1250 and
    /// E1251 when not); which instructions take it is their own rule.
    pub(super) fn storage_modifier_allowed(
        &mut self,
        info: &OpInfo,
        s: &StorageModifier,
        span: Span,
    ) -> bool {
        let (code, message, label, rule) = match s.origin {
            StorageOrigin::Base => return true,
            StorageOrigin::Wide if self.dialect.has(Features::NV5) => return true,
            StorageOrigin::MemExtended if self.dialect.has(Features::MEM_EXTENDED) => return true,
            StorageOrigin::Wide => (
                "E1251",
                format!("`.{}` on {} outside NV_gpu_program5", s.name, info.name),
                "64-bit storage modifiers need a `!!NV…5.0` header",
                WIDE_RULE,
            ),
            StorageOrigin::MemExtended => (
                "E1250",
                format!(
                    "`.{}` on {} without `OPTION NV_gpu_program5_mem_extended;`",
                    s.name, info.name
                ),
                "add `OPTION NV_gpu_program5_mem_extended;` (a `!!NV…5.0` header's option)",
                MEM_EXTENDED_RULE,
            ),
        };
        self.error(
            Diagnostic::error(code, message)
                .primary(span, label)
                .note(rule),
        );
        false
    }

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
        // `program.storage[a]`, one buffer's element forms
        // `program.storage[a][c]` and `[a][c..d]` (Table X.2: "element
        // <c>", "elements <c> through <d> ... in order"), which start the
        // variable at byte c, and the same on a range of buffers
        // `[a..b]`, one variable per binding point.
        let mut first = 0u32;
        let mut last_buffer = None;
        let mut empty_range = None;
        let binding = item.and_then(|item| match item {
            InitItem::Binding(p) => match (&p.head, p.parts.as_slice()) {
                (
                    PathHead::Root(Root::Program, _),
                    [PathPart::Member(m), PathPart::Index(buffers, buffers_span), elements @ ..],
                ) if m.name.as_str() == "storage" => {
                    let a = match buffers {
                        IndexExpr::Int(n) => n.value()?,
                        IndexExpr::Range(a, b) => {
                            let (a, b) = (a.value()?, b.value()?);
                            if a > b {
                                empty_range = Some(*buffers_span);
                            }
                            last_buffer = Some(b);
                            a
                        }
                        _ => return None,
                    };
                    match elements {
                        [] => Some(a),
                        [PathPart::Index(IndexExpr::Int(c), _)] => {
                            first = u32::try_from(c.value()?).ok()?;
                            Some(a)
                        }
                        [PathPart::Index(IndexExpr::Range(c, d), span)] => {
                            let (c, d) = (c.value()?, d.value()?);
                            if c > d {
                                empty_range = Some(*span);
                            }
                            first = u32::try_from(c).ok()?;
                            Some(a)
                        }
                        _ => None,
                    }
                }
                _ => None,
            },
            _ => None,
        });
        if let Some(span) = empty_range {
            self.error(
                Diagnostic::error("E1106", "a range of a STORAGE binding is empty")
                    .primary(span, "the first index is greater than the last")
                    .note("NV_shader_storage_buffer_object 2.X.3.Y: \"A program will fail to compile if ... <a> is greater than <b>\"; Table X.2's `[c..d]` names elements <c> through <d> in order"),
            );
            return;
        }
        // The last binding point of a range must exist as the first must.
        let binding = match (binding, last_buffer) {
            (Some(_), Some(b)) if b >= u64::from(MAX_STORAGE_BINDINGS) => Some(b),
            (binding, _) => binding,
        };
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
                    Diagnostic::error(
                        "E1106",
                        format!("`{}` is not bound to one `program.storage[a]`", name.name),
                    )
                    .primary(d.span, "expected `STORAGE name = program.storage[a];`")
                    .note(STORAGE_RULE),
                );
                return;
            }
        };
        let _ = size;
        let storage_var = |buffer: u32, named: bool| Variable {
            name: named.then(|| name.name.to_string()),
            span: name.span,
            kind: VarKind::Storage(ir::BufferBinding {
                buffer,
                first,
                vec4: false,
            }),
            ty: VarType::Typeless,
            precision: ir::Precision::Default,
            array_len: None,
            interpolation: ir::Interpolation::default(),
        };
        let var = self.add_var(storage_var(binding, true));
        self.declare_name(name, var);
        // A range of buffers: "accessed as an array, with the first index
        // specifying an offset into the range of buffer binding points".
        if let Some(last) = last_buffer {
            let mut vars = vec![var];
            for buffer in binding + 1..=last as u32 {
                vars.push(self.add_var(storage_var(buffer, false)));
            }
            self.buffer_ranges.insert(var, vars);
        }
    }

    /// The first index of an access to a variable on a range of buffers
    /// (`vars`, one per binding point): "an offset into the range of
    /// buffer binding points" (NV_shader_storage_buffer_object 2.X.3.Y,
    /// NV_gpu_program5 2.X.3.6). A constant picks the variable; a register
    /// (plus a constant) picks it at run time, clamped into the range as
    /// relative array addressing is (docs/semantics.md). Returns the
    /// variable (the first for a register), the register's selection and
    /// the parts after the index; `Err` with the index's span and what is
    /// wrong with it (the caller's code); `Ok(None)` when an error is
    /// already reported.
    #[allow(clippy::type_complexity)]
    pub(super) fn pick_binding_point<'p>(
        &mut self,
        vars: &[ir::VarId],
        parts: &'p [PathPart],
        name: &str,
        span: Span,
    ) -> Result<Option<(ir::VarId, Option<Box<ir::BufferSelect>>, &'p [PathPart])>, (Span, String)>
    {
        match parts.first() {
            Some(PathPart::Index(IndexExpr::Int(k), span)) => {
                match k.value().and_then(|k| vars.get(usize::try_from(k).ok()?)) {
                    Some(&v) => Ok(Some((v, None, &parts[1..]))),
                    None => Err((
                        *span,
                        format!(
                            "picks a buffer outside `{name}`'s {} binding points",
                            vars.len()
                        ),
                    )),
                }
            }
            Some(PathPart::Index(
                IndexExpr::Relative {
                    register,
                    component,
                    offset,
                },
                span,
            )) => {
                let constant = match offset.as_deref() {
                    None => Some(0),
                    Some((negative, n)) => n
                        .value()
                        .and_then(|n| i32::try_from(n).ok())
                        .map(|n| if *negative { -n } else { n }),
                };
                let Some(constant) = constant else {
                    return Err((
                        *span,
                        "picks a buffer with an offset that does not fit in 32 bits".into(),
                    ));
                };
                // A signed index, as relative array addressing reads.
                let Some(index) = self.index_register(register, component, DataType::Signed)
                else {
                    return Ok(None);
                };
                let select = ir::BufferSelect {
                    index,
                    constant,
                    vars: vars.to_vec(),
                };
                Ok(Some((vars[0], Some(Box::new(select)), &parts[1..])))
            }
            _ => Err((
                span,
                format!("`{name}` spans a range of buffers: its first index picks one, `{name}[k][offset]`"),
            )),
        }
    }

    /// LDB, STB and ATOMB (NV_shader_storage_buffer_object 2.X.8.Z), and
    /// LDS, STS and ATOMS (NV_compute_program5 2.X.8.Z): which of load,
    /// store and atomic comes from the table's result and operands, which
    /// memory from its shape.
    pub(super) fn memory_instruction(
        &mut self,
        info: &'static OpInfo,
        inst: &ast::Instruction,
    ) -> Option<Flat> {
        if info.opcode == crate::isa::Opcode::Atomctr {
            return self.counter_instruction(info, inst);
        }
        let space = if info.shape == Shape::GlobalMemory {
            &GLOBAL_SPACE
        } else if info.shape == Shape::SharedMemory {
            &SHARED_SPACE
        } else if info.opcode == crate::isa::Opcode::Ldc {
            &CONSTANT_SPACE
        } else {
            &STORAGE_SPACE
        };
        let store = info.result == ResultKind::None;
        // LDC's one input is its memory operand (Table X.13: "v").
        let atomic_instruction = !store && !info.inputs.is_empty() && !space.constant;
        let mut storage: Option<(DataType, u8, u8)> = None;
        let mut clamp = None;
        let mut storage_span = inst.opcode.span;
        let mut storage_text = "";
        let mut storage_extension = false;
        let mut atomic = None;
        let mut cc_update = None;
        let mut volatile = false;
        let mut ok = true;
        let modifier_error =
            |c: &mut Self, code: &'static str, span: Span, message: String, note: &str| {
                c.error(
                    Diagnostic::error(code, message)
                        .primary(span, "this modifier")
                        .note(note.to_string()),
                );
            };
        for m in &inst.modifiers {
            let text = m.name.as_str();
            // The atomic extensions' U64, S64, F64, F16X2 and F16X4 on an
            // atomic instruction (E1240-E1243); every other storage modifier
            // is a row of STORAGE_MODIFIERS (E1250/E1251 for the options).
            let extension = atomic_extension_storage(text).filter(|_| atomic_instruction);
            let table = storage_modifier(text);
            if extension.is_some() || table.is_some() {
                if storage.is_some() {
                    modifier_error(self, space.modifier_code, m.span, format!("{} has more than one storage modifier", info.name), "NV_gpu_program5 2.X.8.Z and NV_compute_program5 2.X.8.Z: the memory instructions require exactly one storage modifier");
                    ok = false;
                } else if let Some(s) = extension {
                    storage = Some(s);
                    storage_span = m.span;
                    storage_text = text;
                    storage_extension = true;
                } else if let Some(s) = table {
                    if !self.storage_modifier_allowed(info, s, m.span) {
                        ok = false;
                    } else {
                        storage = Some((s.ty, s.bits, s.components));
                        storage_span = m.span;
                        storage_text = text;
                    }
                }
            } else if let (true, Some(a)) = (atomic_instruction, atomic_modifier(text)) {
                if atomic.is_none() {
                    atomic = Some(a);
                } else {
                    modifier_error(
                        self,
                        space.atomic_code,
                        m.span,
                        format!("{} has more than one atomic modifier", info.name),
                        "NV_gpu_program5 2.X.8.Z, ATOM: \"requires exactly one atomic modifier\"",
                    );
                    ok = false;
                }
            } else if matches!(text, "CC" | "CC0" | "CC1") && !store {
                cc_update = Some(CcReg(u8::from(text == "CC1")));
            } else if matches!(text, "COH" | "VOL")
                && space.global
                && !atomic_instruction
                && self.dialect.features.contains(crate::isa::Features::NV5)
            {
                // NV_gpu_program5 2.X.4.1: COH "controls whether the
                // operation uses a coherent level of the cache hierarchy";
                // VOL: "will always read or write the underlying memory".
                // Both become SPIR-V's Volatile memory operand
                // (docs/interface.md, "GPU addresses").
                volatile = true;
            } else if matches!(text, "SAT" | "SSAT")
                && (space.constant || info.opcode == crate::isa::Opcode::Load)
                && clamp.is_none()
            {
                // Table X.13: LDC and LOAD take S; section 2.X.4.1:
                // clamping only of floating-point results (checked below).
                clamp = Some((
                    if text == "SAT" {
                        ir::Clamp::Sat
                    } else {
                        ir::Clamp::Ssat
                    },
                    m.span,
                ));
            } else {
                modifier_error(
                    self,
                    space.modifier_code,
                    m.span,
                    format!("{} does not take `.{text}`", info.name),
                    space.modifier_rule,
                );
                ok = false;
            }
        }
        if !ok {
            return None;
        }
        let Some((ty, bits, components)) = storage else {
            self.error(
                Diagnostic::error(
                    space.modifier_code,
                    format!("{} needs a storage modifier", info.name),
                )
                .primary(inst.opcode.span, "e.g. `.U32`, `.F32X4`")
                .note(format!(
                    "{}: \"requires exactly one storage modifier\"",
                    info.section
                )),
            );
            return None;
        };
        if atomic_instruction {
            let Some(op) = atomic else {
                self.error(
                    Diagnostic::error(space.atomic_code, format!("{} needs an atomic modifier", info.name))
                        .primary(inst.opcode.span, "e.g. `.ADD`, `.CSWAP`")
                        .note(format!("{}: \"The ATOM{} instruction has two required instruction modifiers. The atomic modifier specifies the type of operation to be performed.\"", info.section, if space.shared { "S" } else { "" })),
                );
                return None;
            };
            // Table X.Y: atomics are scalar; IWRAP and DWRAP on U32 only,
            // the others on U32 and S32, and NV_shader_atomic_float adds F32
            // to ADD and EXCH, on ATOMS (NV_compute_program5, "If
            // NV_shader_atomic_float is not supported, the ADD and EXCH
            // atomic operations in the ATOMS instruction do not support the
            // "F32" storage modifier") and ATOMB alike
            // (NV_shader_storage_buffer_object, "Dependencies on
            // NV_shader_atomic_float": the same words). nvp4c supports it
            // in every target environment, ADD as a compare-and-swap loop
            // and EXCH on the bits (docs/interface.md, "Storage buffers").
            if storage_extension {
                self.atomic_extension_rule(
                    info.name,
                    op,
                    (ty, bits, components),
                    storage_text,
                    storage_span,
                )?;
            }
            let allowed = storage_extension
                || components == 1
                    && bits == 32
                    && match op {
                        AtomicOp::IWrap | AtomicOp::DWrap => ty == DataType::Unsigned,
                        AtomicOp::Add | AtomicOp::Exch => true,
                        _ => ty != DataType::Float,
                    };
            if !allowed {
                let (what, rule) = if space.shared {
                    ("not in Table X.Y for this atomic modifier", "NV_compute_program5 2.X.8.Z, ATOMS, Table X.Y: scalar only; ADD and EXCH on U32, S32 and F32, MIN, MAX, AND, OR, XOR and CSWAP on U32 and S32, IWRAP and DWRAP on U32 (U64, S64, F64, F16X2 and F16X4: the atomic extensions, E1240-E1243)")
                } else {
                    ("not in Table X.Y for this atomic modifier", "NV_gpu_program5 2.X.8.Z, ATOM, Table X.Y: scalar only; ADD and EXCH on U32, S32 and F32 (NV_shader_atomic_float), MIN, MAX, AND, OR, XOR and CSWAP on U32 and S32, IWRAP and DWRAP on U32 (U64, S64, F64, F16X2 and F16X4: the atomic extensions, E1240-E1243)")
                };
                self.error(
                    Diagnostic::error(
                        space.atomic_code,
                        format!(
                            "{}.{} does not take this storage modifier",
                            info.name,
                            op.name()
                        ),
                    )
                    .primary(storage_span, what)
                    .note(rule),
                );
                return None;
            }
            // F32 only: F64 and the halves are the atomic extensions'
            // (their options checked above, E1241/E1242).
            if space.global
                && ty == DataType::Float
                && bits == 32
                && !self
                    .dialect
                    .features
                    .contains(crate::isa::Features::ATOMIC_FLOAT)
            {
                self.error(
                    Diagnostic::error(
                        "E1230",
                        format!(
                            "`ATOM.{}.F32` needs `OPTION NV_shader_atomic_float;`",
                            op.name()
                        ),
                    )
                    .primary(storage_span, "F32 on ATOM only with the option")
                    .note(ATOMIC_FLOAT_RULE),
                );
                return None;
            }
        }
        if let (Some((_, span)), false) = (clamp, ty == DataType::Float) {
            self.error(
                Diagnostic::error("E0406", format!("{} clamps an integer result", info.name))
                    .primary(span, "the storage modifier is not F32")
                    .note("section 2.X.4.1: a program fails to load if it \"specifies a clamping modifier on an instruction, unless it produces floating-point results\""),
            );
            return None;
        }
        // NV_gpu_program4 2.X.2: a result (<instResult>) may take a
        // condition code mask, ATOM's too (NV_gpu_program5 issue 16:
        // "ATOM.ADD.U32 not_junk (FL), address, 1;" discards the result;
        // the memory operation still happens). A store has no result.
        if inst.cc_mask.is_some() && store {
            self.no_cc_mask(inst, info)?;
        }
        let expected = if atomic_instruction { 3 } else { 2 };
        self.expect_args(inst, expected, info)?;
        let Some(Arg::Operand(mem)) = inst.args.last() else {
            return None;
        };
        let (var, offset, address, modifiers, buffer_select) = if space.global {
            let (var, offset, address, modifiers) = self.global_address(mem)?;
            (var, offset, address, modifiers, None)
        } else {
            self.memory_operand(mem, space, ty)?
        };
        if space.shared {
            // 2.X.7.Y: "if uses these instructions with an offset that
            // would access memory beyond the declared shared memory size";
            // checked once SHARED_MEMORY is known.
            self.shared_uses.push(SharedUse {
                span: mem.span,
                end: Some(u64::from(offset) + u64::from(bits / 8) * u64::from(components)),
                instruction: true,
            });
        }
        let memory = MemoryAccess {
            var,
            offset,
            address,
            ty,
            components,
            bits,
            atomic,
            volatile,
            counter_select: None,
            buffer_select,
        };
        if store {
            let Arg::Operand(value) = &inst.args[0] else {
                return None;
            };
            let value = self.source(value, OperandKind::Vector(TypeRule::Inherit), ty, false)?;
            return Some(Flat::Store(value, memory, inst.span));
        }
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
            // LDC: the swizzle, negate and absolute value applied to the
            // loaded vector (2.X.8.Z, LDC: "A final operand vector is
            // derived from the base operand vector by applying swizzle,
            // negation, and absolute value operand modifiers").
            modifiers.into_iter().collect()
        };
        Some(Flat::Inst(ir::Instruction {
            op: info.opcode,
            ty,
            half: false,
            fixed: false,
            clamp: clamp.map(|(c, _)| c),
            cc_update,
            mul_mode: None,
            // A 64-bit atomic reads its operand and writes its result as
            // 64-bit values (section 2.X.4.1), as the 64-bit instructions do.
            precision64: bits == 64 && atomic_instruction,
            convert: None,
            dst,
            srcs,
            ext_swizzle: None,
            tex: None,
            memory: Some(Box::new(memory)),
            image: None,
            span: inst.span,
        }))
    }

    /// The rules of the atomic extensions for a storage modifier of
    /// [`atomic_extension_storage`] on atomic instruction `name`: the
    /// option the pair needs (E1240-E1242), or no option allowing it
    /// (E1243). Shared by every atomic instruction on memory.
    pub(super) fn atomic_extension_rule(
        &mut self,
        name: &str,
        op: AtomicOp,
        storage: (DataType, u8, u8),
        modifier: &str,
        span: Span,
    ) -> Option<()> {
        match atomic_extension_option(op, storage) {
            Ok(None) => Some(()),
            Ok(Some((option, _, _))) if self.has_option(option) => Some(()),
            Ok(Some((option, code, rule))) => {
                self.error(
                    Diagnostic::error(
                        code,
                        format!("`{name}.{}.{modifier}` needs `OPTION {option};`", op.name()),
                    )
                    .primary(span, format!("a storage modifier of {option}"))
                    .note(rule)
                    .note(format!("add `OPTION {option};` after the header")),
                );
                None
            }
            Err(rule) => {
                self.error(
                    Diagnostic::error(
                        "E1243",
                        format!("{name}.{} does not take `.{modifier}`", op.name()),
                    )
                    .primary(
                        span,
                        "no atomic extension has this operation on this storage modifier",
                    )
                    .note(rule),
                );
                None
            }
        }
    }

    /// LOAD's, STORE's and ATOM's address: an unsigned integer scalar
    /// operand (Table X.13: "su"), on the program's one
    /// [`VarKind::GlobalMemory`] variable. A memory variable there (a
    /// STORAGE, SHARED, CBUFFER or COUNTER name) is E1227: those belong to
    /// LDB, LDS, LDC and ATOMCTR.
    #[allow(clippy::type_complexity)]
    fn global_address(
        &mut self,
        o: &ast::Operand,
    ) -> Option<(ir::VarId, u32, Option<ir::Operand>, Option<ir::Operand>)> {
        if let PathHead::Name(id) = &o.path.head {
            let kind = self
                .names
                .get(&id.name)
                .map(|sym| &self.vars[sym.var.0 as usize].kind);
            let memory = match kind {
                Some(VarKind::Storage(_)) => Some("a STORAGE variable (LDB, STB, ATOMB)"),
                Some(VarKind::Shared(_)) => Some("a SHARED variable (LDS, STS, ATOMS)"),
                Some(VarKind::ConstantBuffer(_)) => Some("a CBUFFER variable (LDC)"),
                Some(VarKind::Counter(_)) => Some("a COUNTER variable (ATOMCTR)"),
                _ => None,
            };
            if let Some(what) = memory {
                self.error(
                    Diagnostic::error("E1227", format!("the GPU address operand is {what}"))
                        .primary(o.span, "expected an unsigned integer scalar holding a GPU address, e.g. `addr.x`")
                        .note(GLOBAL_RULE),
                );
                return None;
            }
        }
        let address = self.source(
            o,
            OperandKind::Scalar(TypeRule::Unsigned),
            DataType::Unsigned,
            false,
        )?;
        let var = match self
            .vars
            .iter()
            .position(|v| matches!(v.kind, VarKind::GlobalMemory))
        {
            Some(i) => ir::VarId(i as u32),
            None => self.add_var(Variable {
                name: None,
                span: o.span,
                kind: VarKind::GlobalMemory,
                ty: VarType::Typeless,
                precision: ir::Precision::Default,
                array_len: None,
                interpolation: ir::Interpolation::default(),
            }),
        };
        Some((var, 0, Some(address), None))
    }

    /// `name`, `name[n]`, `name[R.x]`, `name[R.x + n]`: a STORAGE (or
    /// SHARED) variable and a byte offset (a SHARED variable's first byte
    /// added in).
    /// LDC's operand may add a swizzle, `-` and `|…|` (returned as an
    /// operand on the CBUFFER variable that carries only those).
    #[allow(clippy::type_complexity)]
    fn memory_operand(
        &mut self,
        o: &ast::Operand,
        space: &Space,
        ty: DataType,
    ) -> Option<(
        ir::VarId,
        u32,
        Option<ir::Operand>,
        Option<ir::Operand>,
        Option<Box<ir::BufferSelect>>,
    )> {
        let kind_name = match (space.shared, space.constant) {
            (true, _) => "SHARED",
            (_, true) => "CBUFFER",
            _ => "STORAGE",
        };
        let bad = |c: &mut Self, span: Span, what: &str| {
            c.error(
                Diagnostic::error(space.operand_code, format!("the memory operand {what}"))
                    .primary(
                        span,
                        match kind_name {
                            "SHARED" => "expected a SHARED variable, e.g. `shv[R0.x]`",
                            "CBUFFER" => "expected a CBUFFER variable, e.g. `cb[R0.x + 4]`",
                            _ => "expected a STORAGE variable, e.g. `sbo[R0.x]`",
                        },
                    )
                    .note(space.operand_rule),
            );
        };
        let PathHead::Name(id) = &o.path.head else {
            bad(self, o.span, &format!("is not a {kind_name} variable"));
            return None;
        };
        let Some(sym) = self.names.get(&id.name).copied() else {
            let d = self.undeclared(id, space.operand_rule);
            self.error(d);
            return None;
        };
        // A STORAGE or CBUFFER variable on a range of buffers: the first
        // index picks the binding point ("an offset into the range of
        // buffer binding points", NV_shader_storage_buffer_object 2.X.3.Y
        // and NV_gpu_program5 2.X.3.6), the rest is the byte offset as for
        // one buffer.
        let mut var = sym.var;
        let mut buffer_select = None;
        let mut path_parts = o.path.parts.as_slice();
        if let (Some(vars), false) = (self.buffer_ranges.get(&sym.var).cloned(), space.shared) {
            match self.pick_binding_point(&vars, path_parts, &id.name, o.span) {
                Ok(Some((picked, select, rest))) => {
                    var = picked;
                    buffer_select = select;
                    path_parts = rest;
                }
                Ok(None) => return None,
                Err((span, what)) if space.constant => {
                    let d = super::buffer_pick_error(span, &id.name, &what);
                    self.error(d);
                    return None;
                }
                Err((span, what)) => {
                    bad(self, span, &what);
                    return None;
                }
            }
        }
        let base = match self.vars[var.0 as usize].kind {
            VarKind::Storage(b) if !space.shared && !space.constant => b.first,
            VarKind::Shared(base) if space.shared => base,
            VarKind::ConstantBuffer(b) if space.constant => b.first,
            _ => u32::MAX,
        };
        if base == u32::MAX || (!space.constant && (o.negate || o.abs.is_some())) {
            bad(
                self,
                o.span,
                &format!("`{}` is not a {kind_name} variable", id.name),
            );
            return None;
        }
        // LDC: `cb[12].x`, `-|cb[4]|`: the index first, then the suffix.
        let (parts, modifiers) = if space.constant {
            let parts = path_parts;
            let n = usize::from(matches!(parts.first(), Some(PathPart::Index(..))));
            let swizzle = self.operand_suffix(
                &parts[n..],
                OperandKind::Vector(TypeRule::Inherit),
                o.path.span,
            )?;
            let (negate, abs, negate_abs) = match o.abs {
                Some(inner) => (inner, true, o.negate),
                None => (o.negate, false, false),
            };
            let modifiers = ir::Operand {
                var,
                index: ir::Index::None,
                swizzle,
                negate,
                abs,
                negate_abs,
                ty,
                span: o.span,
            };
            (&parts[..n], Some(modifiers))
        } else {
            (path_parts, None)
        };
        let with_base = |v: u64| {
            let v = v + u64::from(base);
            (v <= u64::from(u32::MAX)).then_some(v as u32)
        };
        match parts {
            [] => Some((var, base, None, modifiers, buffer_select)),
            [PathPart::Index(IndexExpr::Int(n), span)] => match n.value().and_then(with_base) {
                Some(v) => Some((var, v, None, modifiers, buffer_select)),
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
                    None => base,
                    Some((false, n)) => match n.value().and_then(with_base) {
                        Some(v) => v,
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
                // LDC's offsets use "normal array indexing mechanisms"
                // (NV_parameter_buffer_object2, issue 6): a signed integer
                // scalar, as NV_gpu_program4's relative addressing reads;
                // the memory instructions' offsets are unsigned.
                let ty = if space.constant {
                    DataType::Signed
                } else {
                    DataType::Unsigned
                };
                let address = self.index_register(register, component, ty)?;
                Some((var, constant, Some(address), modifiers, buffer_select))
            }
            _ => {
                bad(self, o.span, "takes one index: a byte offset");
                None
            }
        }
    }

    /// The scalar `register.component` of a memory operand's index
    /// (`sbo[R0.x + 4]`), read as an integer of type `ty`.
    fn index_register(
        &mut self,
        register: &Ident,
        component: &Ident,
        ty: DataType,
    ) -> Option<ir::Operand> {
        let span = register.span.to(component.span);
        let operand = ast::Operand {
            negate: false,
            abs: None,
            path: ast::Path {
                head: PathHead::Name(register.clone()),
                parts: vec![PathPart::Member(component.clone())],
                span,
            },
            span,
        };
        let rule = match ty {
            DataType::Signed => TypeRule::Signed,
            _ => TypeRule::Unsigned,
        };
        self.source(&operand, OperandKind::Scalar(rule), ty, false)
    }
}

/// NV_compute_program5's shared memory declarations and their
/// whole-program rules.
impl Checker<'_> {
    /// `SHARED name = program.sharedmem[a];`, `SHARED name[n] = {
    /// program.sharedmem[a..b], ... };`, `SHARED name[] = { program.sharedmem };`.
    pub(super) fn shared_declaration(
        &mut self,
        d: &ast::Declaration,
        name: &Ident,
        size: Option<&ast::ArraySize>,
        init: &Init,
    ) {
        if self.stage != crate::isa::Stage::Compute {
            self.error(
                Diagnostic::error("E1150", format!("`SHARED` in a {} program", self.dialect.header))
                    .primary(d.keyword, "shared memory exists only in `!!NVcp5.0` programs")
                    .note("NV_compute_program5 2.X.2: <SHARED_statement> is added to the grammar \"for compute programs\"; 2.X.3.Y: \"The GL allocates a single block of shared memory for each local work group\""),
            );
            return;
        }
        if self.reserved_name(name) {
            return;
        }
        let bad = |c: &mut Self, span: Span, message: String| {
            c.error(
                Diagnostic::error("E1151", message)
                    .primary(span, "expected `program.sharedmem[a]`, `program.sharedmem[a..b]` or `program.sharedmem`")
                    .note(SHARED_DECL_RULE),
            );
        };
        let items: Vec<&InitItem> = match init {
            Init::Single(i) => vec![i],
            Init::List(items, _) => items.iter().collect(),
        };
        // Each item: its first byte and one past its last (`None` for all
        // of shared memory); consecutive items continue one another.
        let mut first: Option<u64> = None;
        let mut next: Option<u64> = None;
        let mut whole = false;
        for item in items {
            let path = match item {
                InitItem::Binding(p) => p,
                other => {
                    bad(
                        self,
                        other.span(),
                        format!("`{}` is not bound to shared memory", name.name),
                    );
                    return;
                }
            };
            let range = match (&path.head, path.parts.as_slice()) {
                (PathHead::Root(Root::Program, _), [PathPart::Member(m), rest @ ..])
                    if m.name.as_str() == "sharedmem" =>
                {
                    match rest {
                        [] => None,
                        [PathPart::Index(IndexExpr::Int(a), _)] => match a.value() {
                            Some(a) => Some((a, a + 1)),
                            None => {
                                bad(
                                    self,
                                    path.span,
                                    "shared memory element does not fit in 64 bits".into(),
                                );
                                return;
                            }
                        },
                        // "[a..b]" only in a list (<sharedUseDM>).
                        [PathPart::Index(IndexExpr::Range(a, b), span)]
                            if matches!(init, Init::List(..)) =>
                        {
                            match (a.value(), b.value()) {
                                (Some(a), Some(b)) if a <= b => Some((a, b + 1)),
                                _ => {
                                    bad(self, *span, "shared memory range runs backwards".into());
                                    return;
                                }
                            }
                        }
                        _ => {
                            bad(
                                self,
                                path.span,
                                format!("`{}` is not bound to shared memory", name.name),
                            );
                            return;
                        }
                    }
                }
                _ => {
                    bad(
                        self,
                        path.span,
                        format!("`{}` is not bound to shared memory", name.name),
                    );
                    return;
                }
            };
            match range {
                None if first.is_none() => {
                    whole = true;
                    first = Some(0);
                }
                Some((a, b)) if !whole && (next.is_none() || next == Some(a)) => {
                    first.get_or_insert(a);
                    next = Some(b);
                }
                _ => {
                    bad(
                        self,
                        path.span,
                        format!(
                            "the shared memory bound to `{}` does not continue the element before",
                            name.name
                        ),
                    );
                    return;
                }
            }
        }
        let Some(base) = first else {
            bad(self, d.span, format!("`{}` is bound to nothing", name.name));
            return;
        };
        if let (Some(size), Some(end)) = (size.and_then(|s| s.len.as_ref()), next) {
            if size.value() != Some(end - base) {
                bad(
                    self,
                    size.span,
                    format!(
                        "`{}[{}]` is bound to {} bytes",
                        name.name,
                        size.text,
                        end - base
                    ),
                );
                return;
            }
        }
        let Ok(base) = u32::try_from(base) else {
            bad(
                self,
                d.span,
                "shared memory element does not fit in 32 bits".into(),
            );
            return;
        };
        self.shared_uses.push(SharedUse {
            span: d.span,
            end: next,
            instruction: false,
        });
        let var = self.add_var(Variable {
            name: Some(name.name.to_string()),
            span: name.span,
            kind: VarKind::Shared(base),
            ty: VarType::Typeless,
            precision: ir::Precision::Default,
            array_len: None,
            interpolation: ir::Interpolation::default(),
        });
        self.declare_name(name, var);
    }

    /// SHARED_MEMORY's size (0 without one), with the rules of 2.X.7.Y on
    /// the declaration and on every use of shared memory.
    pub(super) fn shared_memory_size(&mut self) -> u32 {
        let declared = self.single("SHARED_MEMORY").and_then(|(_, args)| {
            let arg = args.first()?;
            let value = match arg {
                ast::LayoutArg::Int(n) => n.value(),
                ast::LayoutArg::Word(_) => None,
            };
            match value {
                Some(n) if n <= u64::from(MAX_SHARED_MEMORY) => Some(n as u32),
                _ => {
                    self.error(
                        Diagnostic::error("E1152", format!("`SHARED_MEMORY {}` is above MAX_COMPUTE_SHARED_VARIABLE_SIZE", arg.text()))
                            .primary(arg.span(), format!("at most {MAX_SHARED_MEMORY} bytes"))
                            .note(SHARED_SIZE_RULE)
                            .note("MAX_COMPUTE_SHARED_VARIABLE_SIZE is Vulkan's minimum maxComputeSharedMemorySize here (docs/limits.md)"),
                    );
                    // Reported; the uses are not measured against it.
                    Some(u32::MAX)
                }
            }
        });
        let uses = std::mem::take(&mut self.shared_uses);
        match declared {
            None => {
                if let Some(u) = uses.iter().find(|u| u.instruction) {
                    self.error(
                        Diagnostic::error("E1153", "shared memory used without `SHARED_MEMORY`")
                            .primary(u.span, "shared memory access here")
                            .note(SHARED_SIZE_RULE),
                    );
                }
                0
            }
            Some(u32::MAX) => 0,
            Some(size) => {
                for u in &uses {
                    if let Some(end) = u.end.filter(|&e| e > u64::from(size)) {
                        self.error(
                            Diagnostic::error(
                                "E1154",
                                format!("shared memory access beyond `SHARED_MEMORY {size}`"),
                            )
                            .primary(u.span, format!("reaches byte {}", end - 1))
                            .note(SHARED_SIZE_RULE),
                        );
                    }
                }
                size
            }
        }
    }
}
