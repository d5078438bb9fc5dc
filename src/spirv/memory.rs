//! NV_shader_storage_buffer_object's memory instructions (LDB, STB, ATOMB)
//! and NV_compute_program5's BAR, as docs/interface.md ("Storage buffers")
//! states them.
//!
//! * `program.storage[a]` is a storage buffer `StorageN { uint data[]; }`
//!   (a runtime array, ArrayStride 4) in the stage's descriptor set at
//!   `StageLayout::storage_binding(a)` (64 + a by default): class
//!   `StorageBuffer` with `Block` from SPIR-V 1.3 (vulkan1.1), `Uniform`
//!   with `BufferBlock` before.
//! * Memory operands are byte offsets (NV_gpu_program5 2.X.4.5); 32-bit
//!   accesses read word `offset / 4` (an unaligned offset is undefined in
//!   the spec; nvp4c rounds down).
//! * "If ... the bound buffer object is not large enough to hold an
//!   element <c>, reads from the binding return zero and writes to the
//!   binding have no effect": every access compares the word index with
//!   `OpArrayLength` and skips what lies beyond it (Vulkan leaves
//!   out-of-bounds accesses undefined without robustBufferAccess).
//! * ATOMB is an atomic on one word at Device scope, Relaxed semantics;
//!   BAR is `OpControlBarrier` at Workgroup scope with AcquireRelease on
//!   Uniform (storage buffer) and Workgroup (shared) memory, what GLSL's
//!   `barrier()` plus `memoryBarrierBuffer()` and `memoryBarrierShared()`
//!   give; MEMBAR is `OpMemoryBarrier` with the same semantics (Workgroup
//!   memory in compute programs only) at Device scope, MEMBAR.CTA at
//!   Workgroup scope.
//!
//! NV_compute_program5's shared memory, as docs/interface.md ("Shared
//! memory") states it:
//!
//! * `SHARED_MEMORY n` is one `Workgroup` variable `uint shared[⌈n/4⌉]`
//!   (at least one word); a SHARED variable is a byte offset into it, so
//!   LDS, STS and ATOMS are LDB, STB and ATOMB on that array.
//! * The spec rejects, at load time, accesses whose constant offset lies
//!   beyond `n` (E1154); a register offset that does is left undefined by
//!   it, and nvp4c treats it as the storage buffer rule does: reads give
//!   zero, writes and atomics do nothing (bound: the words that lie wholly
//!   inside the declared `n` bytes).
//! * ATOMS is an atomic at Workgroup scope (the spec's "no other write to
//!   the memory accessed will occur between the time it is read and
//!   written" concerns only the work group that shares it).

use rspirv::spirv::{Decoration, GlslStd450Op as GLOp, Op, Scope, StorageClass, Word};

use super::emit::{Comp, LResult, Val};
use super::{LowerError, Lowerer};
use crate::ir::{AtomicOp, BarrierKind, Instruction, MemoryAccess, Operand, VarKind};
use crate::isa::{DataType, Stage};
use crate::spirv::emit::Comp as C;

/// One storage buffer variable of the module.
#[derive(Clone, Copy, Debug)]
pub(crate) struct StorageBuffer {
    pub var: Word,
    pub class: StorageClass,
}

/// The work group's shared memory variable.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SharedMemory {
    pub var: Word,
    /// The words wholly inside the declared `SHARED_MEMORY` bytes (the
    /// bound of a register-addressed access).
    pub words: u32,
}

/// Where one access goes: a storage buffer, shared memory, or (LDC) a
/// parameter buffer's uniform block of `words` words.
#[derive(Clone, Copy, Debug)]
enum Memory {
    Buffer(StorageBuffer),
    Shared(SharedMemory),
    Constant { var: Word, words: u32 },
}

impl Memory {
    fn var(self) -> Word {
        match self {
            Memory::Buffer(b) => b.var,
            Memory::Shared(s) => s.var,
            Memory::Constant { var, .. } => var,
        }
    }
    fn class(self) -> StorageClass {
        match self {
            Memory::Buffer(b) => b.class,
            Memory::Shared(_) => StorageClass::Workgroup,
            Memory::Constant { .. } => StorageClass::Uniform,
        }
    }
    /// Atomics on a storage buffer are seen by every invocation of the
    /// dispatch; on shared memory only the work group shares the memory.
    /// (Parameter buffers are read-only: no atomic reaches them.)
    fn scope(self) -> Scope {
        match self {
            Memory::Buffer(_) | Memory::Constant { .. } => Scope::Device,
            Memory::Shared(_) => Scope::Workgroup,
        }
    }
}

impl Lowerer<'_> {
    /// Declares a storage buffer for every binding a STORAGE variable names,
    /// and one for every atomic counter buffer a COUNTER variable names
    /// (the same `uint data[]` block: docs/interface.md, "Atomic
    /// counters").
    pub(crate) fn declare_storage_buffers(&mut self) -> LResult<()> {
        // (is a counter buffer, binding point)
        let mut bindings: Vec<(bool, u32)> = self
            .program
            .variables
            .iter()
            .filter_map(|v| match v.kind {
                VarKind::Storage(b) => Some((false, b)),
                VarKind::Counter(b) => Some((true, b.buffer)),
                _ => None,
            })
            .collect();
        bindings.sort_unstable();
        bindings.dedup();
        if bindings.is_empty() {
            return Ok(());
        }
        let modern = self.options.target_env.spirv_version() >= (1, 3);
        let class = if modern {
            StorageClass::StorageBuffer
        } else {
            StorageClass::Uniform
        };
        let layout = self.options.stage_layout(self.program.stage).clone();
        for (counter, b) in bindings {
            let uint = self.t(Comp::U32, 1);
            let array_id = self.b.id();
            let array = self.b.type_runtime_array_id(Some(array_id), uint);
            self.b.decorate(
                array,
                Decoration::ArrayStride,
                [rspirv::dr::Operand::LiteralBit32(4)],
            );
            let struct_id = self.b.id();
            let st = self.b.type_struct_id(Some(struct_id), [array]);
            self.b.decorate(
                st,
                if modern {
                    Decoration::Block
                } else {
                    Decoration::BufferBlock
                },
                [],
            );
            self.b.member_decorate(
                st,
                0,
                Decoration::Offset,
                [rspirv::dr::Operand::LiteralBit32(0)],
            );
            let (block_name, var_name, binding) = if counter {
                ("Counters", "program_counter", layout.counter_binding(b))
            } else {
                ("Storage", "program_storage", layout.storage_binding(b))
            };
            self.b.name(st, format!("{block_name}{b}"));
            self.b.member_name(st, 0, "data");
            let var = self.global_variable(st, class, None, &format!("{var_name}{b}"));
            self.b.decorate(
                var,
                Decoration::DescriptorSet,
                [rspirv::dr::Operand::LiteralBit32(layout.set)],
            );
            self.b.decorate(
                var,
                Decoration::Binding,
                [rspirv::dr::Operand::LiteralBit32(binding)],
            );
            let buffers = if counter {
                &mut self.io.counters
            } else {
                &mut self.io.storage
            };
            buffers.insert(b, StorageBuffer { var, class });
        }
        Ok(())
    }

    /// The work group's shared memory: `uint shared[⌈SHARED_MEMORY/4⌉]`
    /// in the Workgroup storage class, declared when a SHARED variable
    /// exists (the checker requires SHARED_MEMORY for every access).
    pub(crate) fn declare_shared_memory(&mut self) {
        let used = self
            .program
            .variables
            .iter()
            .any(|v| matches!(v.kind, VarKind::Shared(_)));
        if !used {
            return;
        }
        let bytes = self.program.compute.as_ref().map_or(0, |c| c.shared_memory);
        let len = bytes.div_ceil(4).max(1);
        let uint = self.t(Comp::U32, 1);
        let array = self.t_array(uint, len);
        let var = self.global_variable(array, StorageClass::Workgroup, None, "program_sharedmem");
        self.io.shared = Some(SharedMemory {
            var,
            words: bytes / 4,
        });
    }

    fn memory_of(&self, m: &MemoryAccess) -> LResult<Memory> {
        match self.program.var(m.var).kind {
            VarKind::Storage(b) => self
                .io
                .storage
                .get(&b)
                .copied()
                .map(Memory::Buffer)
                .ok_or_else(|| {
                    LowerError::internal(format!("program.storage[{b}] was not declared"))
                }),
            VarKind::Shared(_) => self
                .io
                .shared
                .map(Memory::Shared)
                .ok_or_else(|| LowerError::internal("shared memory was not declared")),
            VarKind::Counter(b) => self
                .io
                .counters
                .get(&b.buffer)
                .copied()
                .map(Memory::Buffer)
                .ok_or_else(|| {
                    LowerError::internal(format!("program.counter[{}] was not declared", b.buffer))
                }),
            VarKind::ConstantBuffer(b) => {
                match (
                    self.io.buffers.get(&b.buffer),
                    self.io.buffer_words.get(&b.buffer),
                ) {
                    (Some(&var), Some(&words)) => Ok(Memory::Constant { var, words }),
                    _ => Err(LowerError::internal(format!(
                        "program.buffer[{}] was not declared",
                        b.buffer
                    ))),
                }
            }
            _ => Err(LowerError::internal(
                "a memory access to a non-STORAGE, non-SHARED, non-CBUFFER variable",
            )),
        }
    }

    /// The word index of the access (byte offset / 4) and whether its
    /// `components` words lie inside the buffer (or shared memory).
    fn word_index(&mut self, m: &MemoryAccess, buffer: Memory) -> LResult<(Val, Val)> {
        let byte = self.byte_address(m)?;
        let two = self.konst(Comp::U32, &[2]);
        let index = self.op(Op::ShiftRightLogical, &[byte, two])?;
        let len = match buffer {
            Memory::Buffer(b) => {
                let uint = self.t(Comp::U32, 1);
                let len = self.b.array_length(uint, None, b.var, 0)?;
                Val {
                    id: len,
                    comp: Comp::U32,
                    n: 1,
                }
            }
            Memory::Shared(s) => self.konst(C::U32, &[s.words]),
            Memory::Constant { words, .. } => self.konst(C::U32, &[words]),
        };
        // The last word read or written must be below the length (and the
        // sum must not wrap).
        let last_offset = self.konst(Comp::U32, &[u32::from(m.components) - 1]);
        let last = self.op(Op::IAdd, &[index, last_offset])?;
        let no_wrap = self.cmp(Op::UGreaterThanEqual, last, index)?;
        let inside = self.cmp(Op::ULessThan, last, len)?;
        let ok = self.and(no_wrap, inside)?;
        Ok((index, ok))
    }

    /// The access's byte offset: the constant part plus the register.
    fn byte_address(&mut self, m: &MemoryAccess) -> LResult<Val> {
        let mut byte = self.konst(Comp::U32, &[m.offset]);
        // A register-indexed COUNTER array: the element, clamped into the
        // array (docs/semantics.md), times four bytes.
        if let (Some(a), Some((constant, len))) = (&m.address, m.counter_select) {
            let v = self.load_operand(a, true)?.value;
            let x = self.extract(v, 0)?;
            let x = self.cast(x, Comp::I32)?;
            let constant = self.konst(Comp::I32, &[constant as u32]);
            let element = self.op(Op::IAdd, &[x, constant])?;
            let lo = self.konst(Comp::I32, &[0]);
            let hi = self.konst(Comp::I32, &[len.saturating_sub(1)]);
            let element = self.glsl(GLOp::SClamp, &[element, lo, hi])?;
            let element = self.cast(element, Comp::U32)?;
            let four = self.konst(Comp::U32, &[4]);
            let bytes = self.op(Op::IMul, &[element, four])?;
            return self.op(Op::IAdd, &[byte, bytes]);
        }
        if let Some(a) = &m.address {
            let a = self.address_value(a)?;
            byte = self.op(Op::IAdd, &[byte, a])?;
        }
        Ok(byte)
    }

    fn address_value(&mut self, a: &Operand) -> LResult<Val> {
        let v = self.load_operand(a, true)?.value;
        let x = self.extract(v, 0)?;
        self.cast(x, Comp::U32)
    }

    fn word_pointer(&mut self, buffer: Memory, index: Val) -> LResult<Word> {
        let uint = self.t(Comp::U32, 1);
        match buffer {
            Memory::Buffer(_) => {
                let zero = self.c_i32(0);
                self.access(buffer.class(), uint, buffer.var(), &[zero, index.id])
            }
            Memory::Shared(_) => self.access(buffer.class(), uint, buffer.var(), &[index.id]),
            // Word w of a parameter buffer is component w % 4 of its uvec4
            // w / 4 (docs/interface.md, "Parameter buffers").
            Memory::Constant { .. } => {
                let zero = self.c_i32(0);
                let two = self.konst(Comp::U32, &[2]);
                let three = self.konst(Comp::U32, &[3]);
                let vector = self.op(Op::ShiftRightLogical, &[index, two])?;
                let component = self.op(Op::BitwiseAnd, &[index, three])?;
                self.access(
                    buffer.class(),
                    uint,
                    buffer.var(),
                    &[zero, vector.id, component.id],
                )
            }
        }
    }

    /// LDB: the words, zero where the access lies outside the buffer, as a
    /// vector of the storage modifier's type.
    pub(crate) fn memory_load(&mut self, inst: &Instruction) -> LResult<Val> {
        let m = inst
            .memory
            .as_ref()
            .ok_or_else(|| LowerError::internal_at("LDB without its memory access", inst.span))?;
        let buffer = self.memory_of(m)?;
        let (index, ok) = self.word_index(m, buffer)?;
        // Out of range: read word 0 of a guaranteed-present element... no:
        // the index is replaced by 0 only to form a pointer; the value is
        // then discarded by the select. An empty buffer has no word 0, so
        // the load runs only inside the bounds check.
        let zero = self.konst(Comp::U32, &[0]);
        let result_ty = self.t(Comp::U32, 4);
        let words_var = self.function_variable_init(result_ty, Some("ldb"), None)?;
        let zeros = self.konst(Comp::U32, &[0, 0, 0, 0]);
        self.store(words_var, zeros)?;
        let components = u32::from(m.components);
        self.guarded_by(Some(ok), |l| {
            let mut parts = Vec::with_capacity(4);
            for c in 0..4 {
                if c < components {
                    let k = l.konst(Comp::U32, &[c]);
                    let i = l.op(Op::IAdd, &[index, k])?;
                    let p = l.word_pointer(buffer, i)?;
                    parts.push(l.load(p, Comp::U32, 1)?);
                } else {
                    parts.push(zero);
                }
            }
            let v = l.construct(&parts)?;
            l.store(words_var, v)
        })?;
        let words = self.load(words_var, Comp::U32, 4)?;
        if m.bits >= 32 {
            return self.cast(words, Comp::from(m.ty));
        }
        // LDC.S8/U8/S16/U16 (NV_parameter_buffer_object2 2.X.4.5): the
        // byte or half-word at the offset within its word (little-endian;
        // a 16-bit offset is "a multiple of two", rounded down as the
        // other sizes are), sign- or zero-extended into x.
        let byte = self.byte_address(m)?;
        let within = self.konst(Comp::U32, &[if m.bits == 8 { 3 } else { 2 }]);
        let within = self.op(Op::BitwiseAnd, &[byte, within])?;
        let three = self.konst(Comp::U32, &[3]);
        let shift = self.op(Op::ShiftLeftLogical, &[within, three])?;
        let count = self.konst(Comp::U32, &[u32::from(m.bits)]);
        let x = self.extract(words, 0)?;
        let field = if m.ty == DataType::Signed {
            let x = self.cast(x, Comp::I32)?;
            self.op(Op::BitFieldSExtract, &[x, shift, count])?
        } else {
            self.op(Op::BitFieldUExtract, &[x, shift, count])?
        };
        let zero = self.konst(field.comp, &[0]);
        self.construct(&[field, zero, zero, zero])
    }

    /// STB: the first `components` components of the value, inside the
    /// buffer only.
    pub(crate) fn lower_store(&mut self, value: &Operand, m: &MemoryAccess) -> LResult<()> {
        let buffer = self.memory_of(m)?;
        let v = self.load_operand(value, false)?.value;
        let bits = self.cast(v, Comp::U32)?;
        let (index, ok) = self.word_index(m, buffer)?;
        let components = u32::from(m.components);
        self.guarded_by(Some(ok), |l| {
            for c in 0..components {
                let k = l.konst(Comp::U32, &[c]);
                let i = l.op(Op::IAdd, &[index, k])?;
                let p = l.word_pointer(buffer, i)?;
                let word = l.extract(bits, c)?;
                l.store(p, word)?;
            }
            Ok(())
        })
    }

    /// ATOMB: the word before the operation (0 outside the buffer, where
    /// nothing is written), as a scalar of the storage type.
    pub(crate) fn memory_atomic(&mut self, inst: &Instruction, operand: Val) -> LResult<Val> {
        let m = inst
            .memory
            .as_ref()
            .ok_or_else(|| LowerError::internal_at("ATOMB without its memory access", inst.span))?;
        let op = m
            .atomic
            .ok_or_else(|| LowerError::internal_at("ATOMB without its operation", inst.span))?;
        let buffer = self.memory_of(m)?;
        let (index, ok) = self.word_index(m, buffer)?;
        let bits = self.cast(operand, Comp::U32)?;
        let x = self.extract(bits, 0)?;
        let y = self.extract(bits, 1)?;
        let uint = self.t(Comp::U32, 1);
        let result_var = self.function_variable_init(uint, Some("atomb"), None)?;
        let zero = self.konst(Comp::U32, &[0]);
        self.store(result_var, zero)?;
        self.guarded_by(Some(ok), |l| {
            let p = l.word_pointer(buffer, index)?;
            let scope = l.c_u32(buffer.scope() as u32);
            let old = l.atomic_word(p, Comp::U32, scope, op, m.ty, x, y)?;
            l.store(result_var, old)
        })?;
        let old = self.load(result_var, Comp::U32, 1)?;
        self.cast(old, Comp::from(m.ty))
    }

    /// One atomic operation (NV_gpu_program5 Table X.Y, ATOM; the same
    /// table for ATOMS and, EXT_shader_image_load_store Table X.4, ATOMIM)
    /// on the 32-bit word `p` points to, whose type is `pointee` (`U32`,
    /// or `I32` for a texel of a signed-integer image); `x` and `y` are
    /// the operand's first two components as bits. Gives the word before
    /// the operation, as bits (`U32`).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn atomic_word(
        &mut self,
        p: Word,
        pointee: Comp,
        scope: Word,
        op: AtomicOp,
        ty: DataType,
        x: Val,
        y: Val,
    ) -> LResult<Val> {
        let word_ty = self.t(pointee, 1);
        let relaxed = self.c_u32(0);
        let signed = ty == DataType::Signed;
        let float = ty == DataType::Float;
        let native = match op {
            AtomicOp::Add if float => None,
            AtomicOp::Add => Some(Op::AtomicIAdd),
            AtomicOp::Min if signed => Some(Op::AtomicSMin),
            AtomicOp::Min => Some(Op::AtomicUMin),
            AtomicOp::Max if signed => Some(Op::AtomicSMax),
            AtomicOp::Max => Some(Op::AtomicUMax),
            AtomicOp::And => Some(Op::AtomicAnd),
            AtomicOp::Or => Some(Op::AtomicOr),
            AtomicOp::Xor => Some(Op::AtomicXor),
            // F32 EXCH exchanges the bits.
            AtomicOp::Exch => Some(Op::AtomicExchange),
            AtomicOp::CSwap | AtomicOp::IWrap | AtomicOp::DWrap => None,
            // ATOMCTR (NV_shader_atomic_counters 2.X.8.Z): no operand.
            AtomicOp::Incr | AtomicOp::Decr | AtomicOp::Get => None,
        };
        let x = self.cast(x, pointee)?;
        let y = self.cast(y, pointee)?;
        let old = match (op, native) {
            (AtomicOp::Incr, _) => {
                self.b
                    .value(Op::AtomicIIncrement, word_ty, None, [p, scope, relaxed])?
            }
            // DECR "returns decremented value": the word before, less 1.
            (AtomicOp::Decr, _) => {
                let old = self
                    .b
                    .value(Op::AtomicIDecrement, word_ty, None, [p, scope, relaxed])?;
                let one = self.konst(pointee, &[1]);
                let old = Val {
                    id: old,
                    comp: pointee,
                    n: 1,
                };
                self.op(Op::ISub, &[old, one])?.id
            }
            (AtomicOp::Get, _) => {
                self.b
                    .value(Op::AtomicLoad, word_ty, None, [p, scope, relaxed])?
            }
            (_, Some(spv)) => self
                .b
                .value(spv, word_ty, None, [p, scope, relaxed, x.id])?,
            (AtomicOp::CSwap, None) => self
                .b
                .atomic_compare_exchange(word_ty, None, p, scope, relaxed, relaxed, y.id, x.id)?,
            // IWRAP, DWRAP and F32 ADD have no SPIR-V atomic (Vulkan core
            // has no float atomics): a compare-and-swap loop (on unsigned
            // words: IWRAP and DWRAP take U32 only, F32 ADD is on shared
            // memory's words).
            _ if pointee == Comp::U32 => self.atomic_cas_loop(p, scope, op, x)?,
            _ => {
                return Err(LowerError::internal(format!(
                    "{} on a {pointee:?} word",
                    op.name()
                )))
            }
        };
        self.cast(
            Val {
                id: old,
                comp: pointee,
                n: 1,
            },
            Comp::U32,
        )
    }

    /// The spec's read-compute-write for an operation without a SPIR-V
    /// atomic: read the word, compute the new value from it and `x`, and
    /// OpAtomicCompareExchange it in; another invocation's write in between
    /// makes the exchange fail and the loop retry with the word it found.
    /// The result is the word the successful exchange replaced.
    fn atomic_cas_loop(&mut self, p: Word, scope: Word, op: AtomicOp, x: Val) -> LResult<Word> {
        let uint = self.t(Comp::U32, 1);
        let relaxed = self.c_u32(0);
        let header = self.b.id();
        let body = self.b.id();
        let continue_target = self.b.id();
        let merge = self.b.id();
        self.b.branch(header)?;
        self.b.begin_block(Some(header))?;
        self.b
            .loop_merge(merge, continue_target, rspirv::spirv::LoopControl::NONE, [])?;
        self.b.branch(body)?;
        self.b.begin_block(Some(body))?;
        let old = self
            .b
            .value(Op::AtomicLoad, uint, None, [p, scope, relaxed])?;
        let old = Val {
            id: old,
            comp: Comp::U32,
            n: 1,
        };
        let new = match op {
            // "writeval = (result >= tmp0.x) ? 0 : result+1;"
            AtomicOp::IWrap => {
                let one = self.konst(Comp::U32, &[1]);
                let zero = self.konst(Comp::U32, &[0]);
                let inc = self.op(Op::IAdd, &[old, one])?;
                let wrap = self.cmp(Op::UGreaterThanEqual, old, x)?;
                self.sel(wrap, zero, inc)?
            }
            // "writeval = (result == 0 || result > tmp0.x) ? tmp0.x : result-1;"
            AtomicOp::DWrap => {
                let one = self.konst(Comp::U32, &[1]);
                let zero = self.konst(Comp::U32, &[0]);
                let dec = self.op(Op::ISub, &[old, one])?;
                let is_zero = self.cmp(Op::IEqual, old, zero)?;
                let above = self.cmp(Op::UGreaterThan, old, x)?;
                let wrap = self.or(is_zero, above)?;
                self.sel(wrap, x, dec)?
            }
            // ATOMS.ADD.F32: "writeval = tmp0.x + result".
            _ => {
                let a = self.cast(old, Comp::F32)?;
                let b = self.cast(x, Comp::F32)?;
                let sum = self.op(Op::FAdd, &[a, b])?;
                self.cast(sum, Comp::U32)?
            }
        };
        let found = self
            .b
            .atomic_compare_exchange(uint, None, p, scope, relaxed, relaxed, new.id, old.id)?;
        let found_val = Val {
            id: found,
            comp: Comp::U32,
            n: 1,
        };
        let done = self.cmp(Op::IEqual, found_val, old)?;
        self.b.branch(continue_target)?;
        self.b.begin_block(Some(continue_target))?;
        self.b.branch_conditional(done.id, merge, header, [])?;
        self.b.begin_block(Some(merge))?;
        Ok(found)
    }

    /// BAR (NV_compute_program5 2.X.8.Z): every invocation of the work
    /// group waits, and storage memory written before is visible after.
    /// MEMBAR (NV_gpu_program5 2.X.8.Z): `OpMemoryBarrier`, what GLSL's
    /// `memoryBarrier()` is, at Device scope ("all shader invocations will
    /// see the results of any memory transaction issued before the MEMBAR
    /// instruction before those issued after", NV_compute_program5's
    /// wording), and at Workgroup scope with `.CTA` ("strongly ordered as
    /// observed by other shader invocations in the same local work
    /// group"), GLSL's `groupMemoryBarrier()`.
    pub(crate) fn lower_barrier(&mut self, kind: BarrierKind) -> LResult<()> {
        const ACQUIRE_RELEASE: u32 = 0x8;
        // StorageBuffer, PhysicalStorageBuffer and Uniform memory.
        const UNIFORM_MEMORY: u32 = 0x40;
        const WORKGROUP_MEMORY: u32 = 0x100;
        // Only compute programs have shared (Workgroup) memory.
        let workgroup_memory = if self.program.stage == Stage::Compute {
            WORKGROUP_MEMORY
        } else {
            0
        };
        let semantics = self.c_u32(ACQUIRE_RELEASE | UNIFORM_MEMORY | workgroup_memory);
        let workgroup = self.c_u32(Scope::Workgroup as u32);
        match kind {
            BarrierKind::Execution => self.b.control_barrier(workgroup, workgroup, semantics)?,
            BarrierKind::Memory => {
                let device = self.c_u32(Scope::Device as u32);
                self.b.memory_barrier(device, semantics)?;
            }
            BarrierKind::MemoryWorkGroup => self.b.memory_barrier(workgroup, semantics)?,
        }
        Ok(())
    }
}
