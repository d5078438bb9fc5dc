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
//!
//! NV_shader_buffer_load / NV_shader_buffer_store's LOAD, STORE and ATOM,
//! as docs/interface.md ("GPU addresses") states them:
//!
//! * The address operand, read at 64 bits (a LONG register's component as
//!   it is, a 32-bit one zero-extended, 2.X.4.1), becomes a
//!   `PhysicalStorageBuffer` pointer by `OpConvertUToPtr` (addressing
//!   model PhysicalStorageBuffer64, SPIR-V 1.5: the checker requires
//!   vulkan1.2, E1140), to a `uint` or `uvecN` of the storage modifier's
//!   `N` components.
//! * Loads and stores carry `Aligned` with the access size (4, 8 or 16
//!   bytes: 2.X.4.5, "must be aligned to the fetch size"; an unaligned
//!   address is undefined there and in Vulkan), and `Volatile` for COH and
//!   VOL. There is no bounds check: 2.X.4.5 leaves an address outside a
//!   resident buffer undefined, as Vulkan does one outside a buffer.
//! * S8/U8/S16/U16 LOAD and STORE go through the aligned word holding the
//!   value: a load and an extract, or an atomic AND and OR.
//! * ATOM is an atomic on that word at Device scope, Relaxed, through
//!   [`Lowerer::atomic_word`], the same operations as ATOMB.

use rspirv::spirv::{Decoration, GlslStd450Op as GLOp, Op, Scope, StorageClass, Word};

use super::emit::{Comp, LResult, Val};
use super::{LowerError, Lowerer};
use crate::ir::{
    AtomicOp, BarrierKind, BufferBinding, Instruction, MemoryAccess, Operand, Stmt, VarKind,
};
use crate::isa::{DataType, Opcode, Stage};
use crate::spirv::emit::Comp as C;

/// The bytes one access covers: component size times count.
fn access_bytes(m: &MemoryAccess) -> u32 {
    u32::from(m.bits) / 8 * u32::from(m.components)
}

/// The words one access reads or writes (an access narrower than a word
/// lies within one).
fn access_words(m: &MemoryAccess) -> u32 {
    access_bytes(m).div_ceil(4)
}

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
    /// The array is of 64-bit elements, two words each, low word first:
    /// the program has a 64-bit ATOMS, which needs a 64-bit pointer, and
    /// Vulkan core gives Workgroup memory one type. Every word access then
    /// reads or updates its half of an element.
    pub wide: bool,
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

/// One memory an access may reach ([`Lowerer::memory_targets`]).
#[derive(Clone, Copy)]
struct MemoryTarget {
    memory: Memory,
    /// Its variable (a STORAGE range has one per binding point).
    var: crate::ir::VarId,
    /// The index of the access's first word in it.
    index: Val,
    /// Whether the access runs there.
    guard: Val,
}

/// IWRAP and DWRAP's new word from the old one and the operand `x`
/// (NV_gpu_program5 2.X.8.Z, ATOM), inside a compare-and-swap loop.
fn wrap(l: &mut Lowerer<'_>, op: AtomicOp, old: Val, x: Val) -> LResult<Val> {
    let one = l.konst(Comp::U32, &[1]);
    let zero = l.konst(Comp::U32, &[0]);
    if op == AtomicOp::IWrap {
        // "writeval = (result >= tmp0.x) ? 0 : result+1;"
        let inc = l.op(Op::IAdd, &[old, one])?;
        let wrap = l.cmp(Op::UGreaterThanEqual, old, x)?;
        l.sel(wrap, zero, inc)
    } else {
        // "writeval = (result == 0 || result > tmp0.x) ? tmp0.x : result-1;"
        let dec = l.op(Op::ISub, &[old, one])?;
        let is_zero = l.cmp(Op::IEqual, old, zero)?;
        let above = l.cmp(Op::UGreaterThan, old, x)?;
        let wrap = l.or(is_zero, above)?;
        l.sel(wrap, x, dec)
    }
}

/// An F16X2 atomic's new word from the old one and the packed operand
/// `x`: per half the sum, MIN or MAX (as MIN and MAX compute them:
/// `(tmp0 > tmp1) ? ...`) rounded to the nearest half, or `x` (EXCH).
fn new_halves(l: &mut Lowerer<'_>, op: AtomicOp, old: Val, x: Val) -> LResult<Val> {
    if op == AtomicOp::Exch {
        return Ok(x);
    }
    let a = l.unpack_halves(old)?;
    let b = l.unpack_halves(x)?;
    let r = match op {
        AtomicOp::Add => l.op(Op::FAdd, &[a, b])?,
        // "writeval = min(tmp0.x, result)": (tmp0 > tmp1) ? tmp1 : tmp0.
        AtomicOp::Min => {
            let gt = l.cmp(Op::FOrdGreaterThan, b, a)?;
            l.sel(gt, a, b)?
        }
        _ => {
            let gt = l.cmp(Op::FOrdGreaterThan, b, a)?;
            l.sel(gt, b, a)?
        }
    };
    let uint = l.t(Comp::U32, 1);
    l.glsl_typed(GLOp::PackHalf2x16, uint, Comp::U32, 1, &[r])
}

/// A 32-bit atomic's new word from the old one and the operand's `x`
/// and `y` (NV_gpu_program5 2.X.8.Z, ATOM's pseudocode), for the
/// compare-and-swap loops of wide shared memory; CSWAP's miss writes the
/// old word back, which is no change.
fn new_word(
    l: &mut Lowerer<'_>,
    op: AtomicOp,
    ty: DataType,
    old: Val,
    x: Val,
    y: Val,
) -> LResult<Val> {
    let signed = ty == DataType::Signed;
    let pick = |l: &mut Lowerer<'_>, cmp: Op| -> LResult<Val> {
        let (a, b) = if signed {
            (l.cast(x, Comp::I32)?, l.cast(old, Comp::I32)?)
        } else {
            (x, old)
        };
        let c = l.cmp(cmp, a, b)?;
        l.sel(c, x, old)
    };
    match op {
        AtomicOp::Add if ty == DataType::Float => {
            let a = l.cast(old, Comp::F32)?;
            let b = l.cast(x, Comp::F32)?;
            let sum = l.op(Op::FAdd, &[a, b])?;
            l.cast(sum, Comp::U32)
        }
        AtomicOp::Add => l.op(Op::IAdd, &[old, x]),
        AtomicOp::Min => pick(l, if signed { Op::SLessThan } else { Op::ULessThan }),
        AtomicOp::Max => pick(
            l,
            if signed {
                Op::SGreaterThan
            } else {
                Op::UGreaterThan
            },
        ),
        AtomicOp::And => l.op(Op::BitwiseAnd, &[old, x]),
        AtomicOp::Or => l.op(Op::BitwiseOr, &[old, x]),
        AtomicOp::Xor => l.op(Op::BitwiseXor, &[old, x]),
        AtomicOp::Exch => Ok(x),
        AtomicOp::CSwap => {
            let hit = l.cmp(Op::IEqual, old, x)?;
            l.sel(hit, y, old)
        }
        AtomicOp::IWrap | AtomicOp::DWrap => wrap(l, op, old, x),
        AtomicOp::Incr | AtomicOp::Decr | AtomicOp::Get => {
            Err(LowerError::internal("ATOMCTR's operation on shared memory"))
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
                VarKind::Storage(b) => Some((false, b.buffer)),
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
            let (block_name, var_name, binding) = if counter {
                ("Counters", "program_counter", layout.counter_binding(b))
            } else {
                ("Storage", "program_storage", layout.storage_binding(b))
            };
            let var = self.buffer_block_variable(
                Comp::U32,
                class,
                &format!("{block_name}{b}"),
                &format!("{var_name}{b}"),
                binding,
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
        let mut wide = false;
        for sub in &self.program.subroutines {
            super::walk_stmts(&sub.body, &mut |stmt| {
                if let Stmt::Inst(i) = stmt {
                    wide |=
                        i.op == Opcode::Atoms && i.memory.as_ref().is_some_and(|m| m.bits == 64);
                }
            });
        }
        let (element, len) = if wide {
            (Comp::U64, bytes.div_ceil(8).max(1))
        } else {
            (Comp::U32, bytes.div_ceil(4).max(1))
        };
        let element = self.t(element, 1);
        let array = self.t_array(element, len);
        let var = self.global_variable(array, StorageClass::Workgroup, None, "program_sharedmem");
        self.io.shared = Some(SharedMemory {
            var,
            words: bytes / 4,
            wide,
        });
    }

    /// Shared memory of 64-bit elements ([`SharedMemory::wide`]): the
    /// pointer to the element holding word `index`, and the shift of the
    /// word's half in it (0 or 32, as a 64-bit value).
    fn shared_half(&mut self, s: SharedMemory, index: Val) -> LResult<(Word, Val)> {
        let one = self.konst(Comp::U32, &[1]);
        let element = self.op(Op::ShiftRightLogical, &[index, one])?;
        let half = self.op(Op::BitwiseAnd, &[index, one])?;
        let five = self.konst(Comp::U32, &[5]);
        let shift = self.op(Op::ShiftLeftLogical, &[half, five])?;
        let shift = self.resize(shift, Comp::U64)?;
        let ulong = self.t(Comp::U64, 1);
        let p = self.access(StorageClass::Workgroup, ulong, s.var, &[element.id])?;
        Ok((p, shift))
    }

    /// Word `index` of memory: a plain load (on wide shared memory, of its
    /// element, then its half).
    fn load_word(&mut self, memory: Memory, index: Val) -> LResult<Val> {
        let Memory::Shared(s @ SharedMemory { wide: true, .. }) = memory else {
            let p = self.word_pointer(memory, index)?;
            return self.load(p, Comp::U32, 1);
        };
        let (p, shift) = self.shared_half(s, index)?;
        let element = self.load(p, Comp::U64, 1)?;
        let word = self.op(Op::ShiftRightLogical, &[element, shift])?;
        self.resize(word, Comp::U32)
    }

    /// Stores component `c` of `words` at word `index` of memory. On wide
    /// shared memory this replaces its half of the element with a
    /// compare-and-swap loop, so that another invocation's store to the
    /// other half is not lost.
    fn store_word(&mut self, memory: Memory, index: Val, words: Val, c: u32) -> LResult<()> {
        if let Memory::Shared(s @ SharedMemory { wide: true, .. }) = memory {
            let word = self.extract(words, c)?;
            self.update_shared_word(s, index, &mut |_, _| Ok(word))?;
            return Ok(());
        }
        let p = self.word_pointer(memory, index)?;
        let word = self.extract(words, c)?;
        self.store(p, word)
    }

    /// Replaces word `index` of wide shared memory by `new(old word)`
    /// atomically (a 64-bit compare-and-swap loop on its element, at
    /// Workgroup scope, leaving the other half as it finds it); gives the
    /// old word.
    fn update_shared_word(
        &mut self,
        s: SharedMemory,
        index: Val,
        new: &mut dyn FnMut(&mut Self, Val) -> LResult<Val>,
    ) -> LResult<Val> {
        self.capability(rspirv::spirv::Capability::Int64Atomics);
        let (p, shift) = self.shared_half(s, index)?;
        let scope = self.c_u32(Scope::Workgroup as u32);
        let low_mask = self.splat_const64(Comp::U64, 0xffff_ffff, 1);
        let mask = self.op(Op::ShiftLeftLogical, &[low_mask, shift])?;
        let keep = self.op(Op::Not, &[mask])?;
        let found = self.atomic_cas_loop(p, scope, Comp::U64, &mut |l, element| {
            let old = l.op(Op::ShiftRightLogical, &[element, shift])?;
            let old = l.resize(old, Comp::U32)?;
            let word = new(l, old)?;
            let word = l.resize(word, Comp::U64)?;
            let word = l.op(Op::ShiftLeftLogical, &[word, shift])?;
            let kept = l.op(Op::BitwiseAnd, &[element, keep])?;
            l.op(Op::BitwiseOr, &[kept, word])
        })?;
        let found = Val {
            id: found,
            comp: Comp::U64,
            n: 1,
        };
        let old = self.op(Op::ShiftRightLogical, &[found, shift])?;
        self.resize(old, Comp::U32)
    }

    /// The memory a STORAGE, SHARED, COUNTER or CBUFFER variable is.
    fn memory_of(&self, var: crate::ir::VarId) -> LResult<Memory> {
        match self.program.var(var).kind {
            VarKind::Storage(BufferBinding { buffer: b, .. }) => self
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

    /// The memories an access may reach, each with the index of the
    /// access's first word in it and the condition that the access runs
    /// there: inside the memory ([`Lowerer::word_index`]) and, for a
    /// STORAGE range whose binding point a register picks, the one picked
    /// (the index clamped into the range, as relative array addressing is;
    /// docs/semantics.md).
    fn memory_targets(&mut self, m: &MemoryAccess) -> LResult<Vec<MemoryTarget>> {
        let Some(select) = m.buffer_select.as_deref() else {
            let memory = self.memory_of(m.var)?;
            let (index, guard) = self.word_index(m, memory)?;
            return Ok(vec![MemoryTarget {
                memory,
                var: m.var,
                index,
                guard,
            }]);
        };
        let picked = self.picked_binding_point(select)?;
        let mut targets = Vec::with_capacity(select.vars.len());
        for (k, &var) in select.vars.iter().enumerate() {
            let memory = self.memory_of(var)?;
            let (index, inside) = self.word_index(m, memory)?;
            let k = self.konst(Comp::I32, &[k as u32]);
            let here = self.cmp(Op::IEqual, picked, k)?;
            let guard = self.op(Op::LogicalAnd, &[inside, here])?;
            targets.push(MemoryTarget {
                memory,
                var,
                index,
                guard,
            });
        }
        Ok(targets)
    }

    /// Which of a range's binding points a register picks: its x plus the
    /// constant, clamped into the range (as relative array addressing is;
    /// docs/semantics.md), as an index into `select.vars`.
    pub(crate) fn picked_binding_point(
        &mut self,
        select: &crate::ir::BufferSelect,
    ) -> LResult<Val> {
        let picked = self.load_operand(&select.index, true)?.value;
        self.clamped_array_index(picked, select.constant, select.vars.len())
    }

    /// Runs `access` once for each of the access's memories, each under
    /// its guard ([`Lowerer::memory_targets`]).
    fn in_each_target(
        &mut self,
        targets: Vec<MemoryTarget>,
        mut access: impl FnMut(&mut Self, MemoryTarget) -> LResult<()>,
    ) -> LResult<()> {
        for t in targets {
            self.guarded_by(Some(t.guard), |l| access(l, t))?;
        }
        Ok(())
    }

    /// The index of the first word of the access and whether its
    /// [`access_words`] words lie inside the buffer (or shared memory).
    fn word_index(&mut self, m: &MemoryAccess, buffer: Memory) -> LResult<(Val, Val)> {
        let byte = self.aligned_address(m)?;
        let two = self.konst(Comp::U32, &[2]);
        let mut index = self.op(Op::ShiftRightLogical, &[byte, two])?;
        if m.bits == 64 {
            // A 64-bit access rounds its offset down to a multiple of 8,
            // as 32-bit ones do to 4: an even word.
            let even = self.konst(Comp::U32, &[!1]);
            index = self.op(Op::BitwiseAnd, &[index, even])?;
        }
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
        let last_offset = self.konst(Comp::U32, &[access_words(m) - 1]);
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

    /// The byte offset rounded down to the access's alignment (its size,
    /// at most a word): NV_gpu_program5_mem_extended 2.X.4.5, "The
    /// address ... must be aligned to the fetch size corresponding to the
    /// storage opcode modifier ... If an offset is not correctly aligned,
    /// the values returned by a buffer memory load will be undefined";
    /// nvp4c rounds down, so an access never straddles words it does not
    /// cover whole.
    fn aligned_address(&mut self, m: &MemoryAccess) -> LResult<Val> {
        let size = access_bytes(m).min(4);
        if m.address.is_none() {
            return Ok(self.konst(Comp::U32, &[m.offset & !(size - 1)]));
        }
        let byte = self.byte_address(m)?;
        let mask = self.konst(Comp::U32, &[!(size - 1)]);
        self.op(Op::BitwiseAnd, &[byte, mask])
    }

    /// Where within its word an access narrower than a word starts, in
    /// bits (0 for the others).
    fn sub_word_shift(&mut self, m: &MemoryAccess) -> LResult<Val> {
        if access_bytes(m) >= 4 {
            return Ok(self.konst(Comp::U32, &[0]));
        }
        let byte = self.aligned_address(m)?;
        let three = self.konst(Comp::U32, &[3]);
        let within = self.op(Op::BitwiseAnd, &[byte, three])?;
        self.op(Op::ShiftLeftLogical, &[within, three])
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

    /// Whether the access is LOAD's, STORE's or ATOM's: at a GPU address.
    fn at_gpu_address(&self, m: &MemoryAccess) -> bool {
        matches!(self.program.var(m.var).kind, VarKind::GlobalMemory)
    }

    /// LOAD, STORE, ATOM: the address operand at 64 bits.
    fn gpu_address(&mut self, m: &MemoryAccess) -> LResult<Val> {
        let a = m
            .address
            .as_ref()
            .ok_or_else(|| LowerError::internal("a GPU memory access without its address"))?;
        // "Operands represented with fewer bits than used to perform the
        // instruction will be promoted" (2.X.4.1): the address is 64 bits.
        let v = self.load_operand_sized(a, true, true)?.value;
        let x = self.extract(v, 0)?;
        self.cast(x, Comp::U64)
    }

    /// The access's GPU address as a `PhysicalStorageBuffer` pointer to
    /// `n` words (a `uint` for 1).
    fn gpu_address_pointer(&mut self, m: &MemoryAccess, n: u32) -> LResult<Word> {
        let address = self.gpu_address(m)?;
        self.gpu_pointer(address, n)
    }

    fn gpu_pointer(&mut self, address: Val, n: u32) -> LResult<Word> {
        self.gpu_pointer_to(address, Comp::U32, n)
    }

    /// The address operand plus `bytes` at 64 bits as a
    /// `PhysicalStorageBuffer` pointer to `n` components `comp`.
    fn gpu_address_pointer_to(
        &mut self,
        m: &MemoryAccess,
        bytes: u64,
        comp: Comp,
        n: u32,
    ) -> LResult<Word> {
        let mut address = self.gpu_address(m)?;
        if bytes != 0 {
            let k = self.splat_const64(Comp::U64, bytes, 1);
            address = self.op(Op::IAdd, &[address, k])?;
        }
        self.gpu_pointer_to(address, comp, n)
    }

    fn gpu_pointer_to(&mut self, address: Val, comp: Comp, n: u32) -> LResult<Word> {
        let pointee = self.t(comp, n);
        let ptr_ty = self.t_ptr(StorageClass::PhysicalStorageBuffer, pointee);
        self.emit(Op::ConvertUToPtr, ptr_ty, &[address.id])
    }

    /// ATOM with `U64`, `S64` or `F64` (NV_gpu_program5 Table X.Y and the
    /// atomic extensions): one 64-bit atomic at the GPU address, at Device
    /// scope, as on a storage buffer's 64-bit view.
    fn gpu_address_atomic64(
        &mut self,
        m: &MemoryAccess,
        op: AtomicOp,
        operand: Val,
    ) -> LResult<Val> {
        self.capability(rspirv::spirv::Capability::Int64Atomics);
        let bits = self.cast(operand, Comp::U64)?;
        let x = self.extract(bits, 0)?;
        let y = self.extract(bits, 1)?;
        let p = self.gpu_address_pointer_to(m, 0, Comp::U64, 1)?;
        let scope = self.c_u32(Scope::Device as u32);
        let old = self.atomic_word(p, Comp::U64, scope, op, m.ty, x, y)?;
        self.cast(old, Comp::sized(m.ty, true))
    }

    /// ATOM with `F16X2` or `F16X4` (NV_shader_atomic_fp16_vector): one
    /// atomic per word of two halves at the GPU address (and the word
    /// after it), as on a storage buffer.
    fn gpu_address_atomic_halves(
        &mut self,
        m: &MemoryAccess,
        op: AtomicOp,
        operand: Val,
    ) -> LResult<Val> {
        let packed = self.pack_half_pairs(operand, m.components)?;
        let scope = self.c_u32(Scope::Device as u32);
        let mut words = Vec::new();
        for (w, &x) in packed.iter().enumerate() {
            let p = self.gpu_address_pointer_to(m, 4 * w as u64, Comp::U32, 1)?;
            words.push(self.atomic_halves_word(p, scope, op, x)?);
        }
        self.unpack_half_words(&words)
    }

    /// The memory operands of a LOAD or STORE of `n` words: `Aligned` to
    /// the access size, and `Volatile` for COH and VOL.
    fn gpu_access_operands(
        m: &MemoryAccess,
        n: u32,
    ) -> (rspirv::spirv::MemoryAccess, [rspirv::dr::Operand; 1]) {
        use rspirv::spirv::MemoryAccess as A;
        let flags = if m.volatile {
            A::ALIGNED | A::VOLATILE
        } else {
            A::ALIGNED
        };
        (flags, [rspirv::dr::Operand::LiteralBit32(4 * n)])
    }

    /// An 8- or 16-bit access's word: a pointer to the 32-bit word that
    /// holds it (the address with its low two bits cleared), and the
    /// address's low 32 bits (where in the word it lies).
    fn gpu_narrow_word(&mut self, m: &MemoryAccess) -> LResult<(Word, Val)> {
        let address = self.gpu_address(m)?;
        let word_mask = self.splat_const64(Comp::U64, !3, 1);
        let word_address = self.op(Op::BitwiseAnd, &[address, word_mask])?;
        let p = self.gpu_pointer(word_address, 1)?;
        let low = self.convert(Op::UConvert, address, Comp::U32)?;
        Ok((p, low))
    }

    /// A `PhysicalStorageBuffer` pointer to each of the `n` words of an
    /// access of at least a word at the GPU address (accessed `Aligned`
    /// 4: the spec's larger alignments hold as well).
    fn gpu_word_pointers(&mut self, m: &MemoryAccess, n: u32) -> LResult<Vec<Word>> {
        let address = self.gpu_address(m)?;
        let mut pointers = Vec::with_capacity(n as usize);
        for w in 0..n {
            let at = if w == 0 {
                address
            } else {
                let k = self.splat_const64(Comp::U64, 4 * u64::from(w), 1);
                self.op(Op::IAdd, &[address, k])?
            };
            pointers.push(self.gpu_pointer(at, 1)?);
        }
        Ok(pointers)
    }

    /// LOAD (NV_gpu_program5 2.X.4.5, BufferMemoryLoad): the storage
    /// modifier's components from the GPU address, zeros in the others.
    /// An access narrower than a word (S8, U8, S16, U16, F16, S8X2, U8X2)
    /// reads the aligned 32-bit word that holds it (no 8- or 16-bit
    /// storage feature needed); the 64-bit modifiers and the wider
    /// NV_gpu_program5_mem_extended ones read their words one by one. The
    /// words decode as LDB's do (`decode_words`).
    fn gpu_address_load(&mut self, m: &MemoryAccess) -> LResult<Val> {
        let uint = self.t(Comp::U32, 1);
        if access_bytes(m) < 4 {
            let (p, low) = self.gpu_narrow_word(m)?;
            let (flags, extra) = Self::gpu_access_operands(m, 1);
            let id = self.b.load(uint, None, p, Some(flags), extra)?;
            let word = Val {
                id,
                comp: Comp::U32,
                n: 1,
            };
            let shift = self.narrow_shift(m, low)?;
            return self.decode_words(m, &[word], shift);
        }
        if m.bits != 32 {
            let pointers = self.gpu_word_pointers(m, access_words(m))?;
            let (flags, extra) = Self::gpu_access_operands(m, 1);
            let mut words = Vec::with_capacity(pointers.len());
            for p in pointers {
                let id = self.b.load(uint, None, p, Some(flags), extra.clone())?;
                words.push(Val {
                    id,
                    comp: Comp::U32,
                    n: 1,
                });
            }
            let zero = self.konst(Comp::U32, &[0]);
            return self.decode_words(m, &words, zero);
        }
        let n = u32::from(m.components);
        let p = self.gpu_address_pointer(m, n)?;
        let (flags, extra) = Self::gpu_access_operands(m, n);
        let ty = self.t(Comp::U32, n);
        let id = self.b.load(ty, None, p, Some(flags), extra)?;
        let words = Val {
            id,
            comp: Comp::U32,
            n,
        };
        let v = if n == 4 {
            words
        } else {
            let zero = self.konst(Comp::U32, &[0]);
            let mut parts = Vec::with_capacity(4);
            for c in 0..4 {
                parts.push(if c < n { self.extract(words, c)? } else { zero });
            }
            self.construct(&parts)?
        };
        self.cast(v, Comp::from(m.ty))
    }

    /// STORE (BufferMemoryStore): the storage modifier's components of the
    /// value at the GPU address, encoded as STB encodes them
    /// (`encode_words`: "((int8_t *)address)[0] = operand.x", an F16
    /// rounded to nearest even, 64-bit components as two words). An access
    /// narrower than a word is stored into the word that holds it by two
    /// Device-scope atomics, an AND clearing its bytes and an OR setting
    /// them, so a store to another byte of the same word by another
    /// invocation is not lost (no 8- or 16-bit storage feature needed).
    fn gpu_address_store(&mut self, value: &Operand, m: &MemoryAccess) -> LResult<()> {
        let n = u32::from(m.components);
        let v = self.load_operand_sized(value, false, m.bits == 64)?.value;
        if access_bytes(m) < 4 {
            let words = self.encode_words(m, v)?;
            let (p, low) = self.gpu_narrow_word(m)?;
            let shift = self.narrow_shift(m, low)?;
            let ones = self.konst(Comp::U32, &[(1u32 << (access_bytes(m) * 8)) - 1]);
            let mask = self.op(Op::ShiftLeftLogical, &[ones, shift])?;
            let keep = self.op(Op::Not, &[mask])?;
            let field = self.op(Op::ShiftLeftLogical, &[words[0], shift])?;
            let uint = self.t(Comp::U32, 1);
            let scope = self.c_u32(Scope::Device as u32);
            let relaxed = self.c_u32(0);
            self.b
                .value(Op::AtomicAnd, uint, None, [p, scope, relaxed, keep.id])?;
            self.b
                .value(Op::AtomicOr, uint, None, [p, scope, relaxed, field.id])?;
            return Ok(());
        }
        if m.bits != 32 {
            let words = self.encode_words(m, v)?;
            let pointers = self.gpu_word_pointers(m, words.len() as u32)?;
            let (flags, extra) = Self::gpu_access_operands(m, 1);
            for (p, word) in pointers.into_iter().zip(words) {
                self.b.store(p, word.id, Some(flags), extra.clone())?;
            }
            return Ok(());
        }
        let bits = self.cast(v, Comp::U32)?;
        let words = match n {
            1 => self.extract(bits, 0)?,
            4 => bits,
            _ => self.shuffle(bits, bits, &(0..n).collect::<Vec<_>>())?,
        };
        let p = self.gpu_address_pointer(m, n)?;
        let (flags, extra) = Self::gpu_access_operands(m, n);
        self.b.store(p, words.id, Some(flags), extra)?;
        Ok(())
    }

    /// LDB, LDS and LDC: BufferMemoryLoad (NV_gpu_program5 2.X.4.5,
    /// NV_gpu_program5_mem_extended): the storage modifier's components
    /// from the words the access covers, zeros in the others and where
    /// the access lies outside the memory; 64-bit components for a 64-bit
    /// modifier, 32-bit ones otherwise (an 8- or 16-bit integer sign- or
    /// zero-extended, an F16 converted to f32).
    pub(crate) fn memory_load(&mut self, inst: &Instruction) -> LResult<Val> {
        let m = inst
            .memory
            .as_ref()
            .ok_or_else(|| LowerError::internal_at("LDB without its memory access", inst.span))?;
        if self.at_gpu_address(m) {
            return self.gpu_address_load(m);
        }
        let targets = self.memory_targets(m)?;
        let shift = self.sub_word_shift(m)?;
        let comp = Comp::sized(m.ty, m.bits == 64);
        let result_ty = self.t(comp, 4);
        let result_var = self.function_variable_init(result_ty, Some("ldb"), None)?;
        let zeros = if m.bits == 64 {
            self.splat_const64(comp, 0, 4)
        } else {
            self.splat_const(comp, 0, 4)
        };
        self.store(result_var, zeros)?;
        // An empty buffer has no word 0: the words are read only inside
        // the bounds check.
        self.in_each_target(targets, |l, t| {
            let mut words = Vec::with_capacity(8);
            for w in 0..access_words(m) {
                let k = l.konst(Comp::U32, &[w]);
                let i = l.op(Op::IAdd, &[t.index, k])?;
                words.push(l.load_word(t.memory, i)?);
            }
            let v = l.decode_words(m, &words, shift)?;
            l.store(result_var, v)
        })?;
        self.load(result_var, comp, 4)
    }

    /// The four result components of a load from its words (little-endian,
    /// as every Vulkan device; `shift`: where a sub-word access starts in
    /// its word).
    fn decode_words(&mut self, m: &MemoryAccess, words: &[Val], shift: Val) -> LResult<Val> {
        let zero = self.konst(Comp::U32, &[0]);
        let word = |w: usize| words.get(w).copied().unwrap_or(zero);
        match m.bits {
            32 => {
                let v = self.construct(&[word(0), word(1), word(2), word(3)])?;
                self.cast(v, Comp::from(m.ty))
            }
            // x, y from words 0-3, z, w from words 4-7, each the low word
            // first (PK64's order).
            64 => {
                let low = self.construct(&[word(0), word(1), word(2), word(3)])?;
                let high = self.construct(&[word(4), word(5), word(6), word(7)])?;
                let low = self.pack64(low, m.ty)?;
                let high = self.pack64(high, m.ty)?;
                self.shuffle(low, high, &[0, 1, 4, 5])
            }
            _ => {
                let size = u32::from(m.bits) / 8;
                let count = self.konst(Comp::U32, &[u32::from(m.bits)]);
                let signed = m.ty == DataType::Signed;
                let field_zero = if signed {
                    self.konst(Comp::I32, &[0])
                } else {
                    zero
                };
                let mut parts = Vec::with_capacity(4);
                for c in 0..4 {
                    if c >= u32::from(m.components) {
                        parts.push(field_zero);
                        continue;
                    }
                    let at = c * size;
                    let within = self.konst(Comp::U32, &[(at % 4) * 8]);
                    let offset = self.op(Op::IAdd, &[shift, within])?;
                    let w = word((at / 4) as usize);
                    parts.push(if signed {
                        let w = self.cast(w, Comp::I32)?;
                        self.op(Op::BitFieldSExtract, &[w, offset, count])?
                    } else {
                        self.op(Op::BitFieldUExtract, &[w, offset, count])?
                    });
                }
                let v = self.construct(&parts)?;
                if m.ty == DataType::Float {
                    self.half_to_float(v)
                } else {
                    Ok(v)
                }
            }
        }
    }

    /// Where an access of one or two bytes lies in its word, in bits: 8 ×
    /// the byte address's low two bits (the lowest cleared for two bytes).
    fn narrow_shift(&mut self, m: &MemoryAccess, byte: Val) -> LResult<Val> {
        let within = self.konst(Comp::U32, &[if access_bytes(m) == 1 { 3 } else { 2 }]);
        let within = self.op(Op::BitwiseAnd, &[byte, within])?;
        let three = self.konst(Comp::U32, &[3]);
        self.op(Op::ShiftLeftLogical, &[within, three])
    }

    /// STB and STS: BufferMemoryStore (NV_gpu_program5 2.X.4.5,
    /// NV_gpu_program5_mem_extended): the storage modifier's components of
    /// the value, inside the memory only. Whole words are stored; a store
    /// narrower than a word changes only its bytes, by an atomic AND that
    /// clears them and an atomic OR that sets them, so that invocations
    /// storing to the other bytes of the word at the same time keep theirs.
    pub(crate) fn lower_store(&mut self, value: &Operand, m: &MemoryAccess) -> LResult<()> {
        if self.at_gpu_address(m) {
            return self.gpu_address_store(value, m);
        }
        let v = self.load_operand_sized(value, false, m.bits == 64)?.value;
        let words = self.encode_words(m, v)?;
        let targets = self.memory_targets(m)?;
        let partial = access_bytes(m) < 4;
        let shift = self.sub_word_shift(m)?;
        self.in_each_target(targets, |l, t| {
            let (buffer, index) = (t.memory, t.index);
            if partial {
                let ones = l.konst(Comp::U32, &[(1u32 << (access_bytes(m) * 8)) - 1]);
                let mask = l.op(Op::ShiftLeftLogical, &[ones, shift])?;
                let keep = l.op(Op::Not, &[mask])?;
                let bits = l.op(Op::ShiftLeftLogical, &[words[0], shift])?;
                // Shared memory of 64-bit elements (64-bit ATOMS): the
                // word's bytes replaced in its element's compare-and-swap
                // loop.
                if let Memory::Shared(s @ SharedMemory { wide: true, .. }) = buffer {
                    l.update_shared_word(s, index, &mut |l, old| {
                        let kept = l.op(Op::BitwiseAnd, &[old, keep])?;
                        l.op(Op::BitwiseOr, &[kept, bits])
                    })?;
                    return Ok(());
                }
                let p = l.word_pointer(buffer, index)?;
                let uint = l.t(Comp::U32, 1);
                let scope = l.c_u32(buffer.scope() as u32);
                let relaxed = l.c_u32(0);
                l.b.value(Op::AtomicAnd, uint, None, [p, scope, relaxed, keep.id])?;
                l.b.value(Op::AtomicOr, uint, None, [p, scope, relaxed, bits.id])?;
                return Ok(());
            }
            for (w, word) in (0u32..).zip(&words) {
                let k = l.konst(Comp::U32, &[w]);
                let i = l.op(Op::IAdd, &[index, k])?;
                l.store_word(buffer, i, *word, 0)?;
            }
            Ok(())
        })
    }

    /// The words a store writes: [`access_words`] of them, a narrower
    /// access's bytes in the low bits of one.
    fn encode_words(&mut self, m: &MemoryAccess, v: Val) -> LResult<Vec<Val>> {
        let n = access_words(m) as usize;
        let mut words = Vec::with_capacity(n);
        match m.bits {
            32 => {
                let bits = self.cast(v, Comp::U32)?;
                for c in 0..n as u32 {
                    words.push(self.extract(bits, c)?);
                }
            }
            64 => {
                let low = self.unpack64(v, DataType::Unsigned)?;
                let zw = self.shuffle(v, v, &[2, 3, 2, 3])?;
                let high = self.unpack64(zw, DataType::Unsigned)?;
                for c in 0..n as u32 {
                    words.push(self.extract(if c < 4 { low } else { high }, c % 4)?);
                }
            }
            _ => {
                // "((float16_t *)address)[0] = operand.x": the nearest
                // 16-bit float; integers keep their low bits.
                let fields = if m.ty == DataType::Float {
                    self.float_to_half(v, crate::ir::Rounding::Round)?
                } else {
                    self.cast(v, Comp::U32)?
                };
                let size = u32::from(m.bits) / 8;
                let count = self.konst(Comp::U32, &[u32::from(m.bits)]);
                let zero = self.konst(Comp::U32, &[0]);
                words.resize(n, zero);
                for c in 0..u32::from(m.components) {
                    let at = c * size;
                    let field = self.extract(fields, c)?;
                    let offset = self.konst(Comp::U32, &[(at % 4) * 8]);
                    let w = (at / 4) as usize;
                    words[w] = self.op(Op::BitFieldInsert, &[words[w], field, offset, count])?;
                }
            }
        }
        Ok(words)
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
        match (m.bits, self.at_gpu_address(m)) {
            (64, true) => return self.gpu_address_atomic64(m, op, operand),
            (16, true) => return self.gpu_address_atomic_halves(m, op, operand),
            (64, false) => return self.memory_atomic64(m, op, operand),
            (16, false) => return self.memory_atomic_halves(m, op, operand),
            _ => {}
        }
        if self.at_gpu_address(m) {
            // ATOM: "no other write to the memory accessed will occur
            // between the time it is read and written" by any invocation.
            let (x, y) = self.atomic_operand_words(operand)?;
            let p = self.gpu_address_pointer(m, 1)?;
            let scope = self.c_u32(Scope::Device as u32);
            let old = self.atomic_word(p, Comp::U32, scope, op, m.ty, x, y)?;
            return self.cast(old, Comp::from(m.ty));
        }
        let targets = self.memory_targets(m)?;
        let (x, y) = self.atomic_operand_words(operand)?;
        let uint = self.t(Comp::U32, 1);
        let result_var = self.function_variable_init(uint, Some("atomb"), None)?;
        let zero = self.konst(Comp::U32, &[0]);
        self.store(result_var, zero)?;
        self.in_each_target(targets, |l, MemoryTarget { memory, index, .. }| {
            let old = if let Memory::Shared(s @ SharedMemory { wide: true, .. }) = memory {
                l.update_shared_word(s, index, &mut |l, old| new_word(l, op, m.ty, old, x, y))?
            } else {
                let p = l.word_pointer(memory, index)?;
                let scope = l.c_u32(memory.scope() as u32);
                l.atomic_word(p, Comp::U32, scope, op, m.ty, x, y)?
            };
            l.store(result_var, old)
        })?;
        let old = self.load(result_var, Comp::U32, 1)?;
        self.cast(old, Comp::from(m.ty))
    }

    /// ATOMB with a 64-bit storage modifier (NV_gpu_program5 Table X.Y:
    /// U64 ADD, EXCH and CSWAP; NV_shader_atomic_int64: S64 and U64 MIN,
    /// MAX, AND, OR, XOR; NV_shader_atomic_float64: F64 ADD and EXCH): one
    /// 64-bit atomic on the buffer's 64-bit view (docs/interface.md,
    /// "Storage buffers"), on the eight bytes at the offset rounded down
    /// to a multiple of 8. `operand` has 64-bit components. Gives the
    /// value before the operation (0 outside the buffer, where nothing is
    /// written), a scalar of the storage type.
    fn memory_atomic64(&mut self, m: &MemoryAccess, op: AtomicOp, operand: Val) -> LResult<Val> {
        // SPIR-V 2.16.1: 64-bit integer atomics need Int64Atomics
        // (Vulkan: shaderBufferInt64Atomics, shaderSharedInt64Atomics).
        self.capability(rspirv::spirv::Capability::Int64Atomics);
        let targets = self.memory_targets(m)?;
        let one = self.konst(Comp::U32, &[1]);
        let mut indices64 = Vec::with_capacity(targets.len());
        for t in &targets {
            indices64.push(self.op(Op::ShiftRightLogical, &[t.index, one])?);
        }
        let bits = self.cast(operand, Comp::U64)?;
        let x = self.extract(bits, 0)?;
        let y = self.extract(bits, 1)?;
        let ulong = self.t(Comp::U64, 1);
        let zero = self.splat_const64(Comp::U64, 0, 1);
        let result_var = self.function_variable_init(ulong, Some("atomb64"), Some(zero.id))?;
        for (t, index64) in targets.into_iter().zip(indices64) {
            // A storage buffer's 64-bit view, or shared memory of 64-bit
            // elements ([`SharedMemory::wide`]).
            let binding = match self.program.var(t.var).kind {
                VarKind::Storage(binding) => Some(binding.buffer),
                _ => None,
            };
            let buffer = t.memory;
            let (view, first) = match (buffer, binding) {
                (Memory::Shared(s), _) if s.wide => (s.var, None),
                (Memory::Buffer(_), Some(binding)) => {
                    (self.storage64_view(binding)?, Some(self.c_i32(0)))
                }
                _ => return Err(LowerError::internal("a 64-bit atomic on 32-bit memory")),
            };
            self.guarded_by(Some(t.guard), |l| {
                let indices: Vec<Word> = first.into_iter().chain([index64.id]).collect();
                let p = l.access(buffer.class(), ulong, view, &indices)?;
                let scope = l.c_u32(buffer.scope() as u32);
                let old = l.atomic_word(p, Comp::U64, scope, op, m.ty, x, y)?;
                l.store(result_var, old)
            })?;
        }
        let old = self.load(result_var, Comp::U64, 1)?;
        self.cast(old, Comp::sized(m.ty, true))
    }

    /// A buffer block `struct { element data[]; }` (a runtime array with
    /// the element's stride, Block for the StorageBuffer class, BufferBlock
    /// for Uniform before SPIR-V 1.3) and its variable at (set, binding):
    /// the storage and counter buffers and a storage buffer's 64-bit view.
    fn buffer_block_variable(
        &mut self,
        element: Comp,
        class: StorageClass,
        block_name: &str,
        var_name: &str,
        binding: u32,
    ) -> Word {
        let element_ty = self.t(element, 1);
        let stride = if element == Comp::U64 { 8 } else { 4 };
        let array_id = self.b.id();
        let array = self.b.type_runtime_array_id(Some(array_id), element_ty);
        self.b.decorate(
            array,
            Decoration::ArrayStride,
            [rspirv::dr::Operand::LiteralBit32(stride)],
        );
        let struct_id = self.b.id();
        let st = self.b.type_struct_id(Some(struct_id), [array]);
        let block = if class == StorageClass::StorageBuffer {
            Decoration::Block
        } else {
            Decoration::BufferBlock
        };
        self.b.decorate(st, block, []);
        self.b.member_decorate(
            st,
            0,
            Decoration::Offset,
            [rspirv::dr::Operand::LiteralBit32(0)],
        );
        self.b.name(st, block_name);
        self.b.member_name(st, 0, "data");
        self.descriptor_variable(st, class, var_name, binding)
    }

    /// The 64-bit view of `program.storage[binding]`: a second variable
    /// `Storage64N { uint64_t data[]; }` (ArrayStride 8) at the buffer's
    /// descriptor set and binding, which Vulkan allows ("multiple shader
    /// variables [may be] assigned the same descriptor set and binding
    /// values" when they are compatible with its descriptor type).
    fn storage64_view(&mut self, binding: u32) -> LResult<Word> {
        if let Some(&var) = self.io.storage64.get(&binding) {
            return Ok(var);
        }
        let class = self
            .io
            .storage
            .get(&binding)
            .ok_or_else(|| {
                LowerError::internal(format!("program.storage[{binding}] was not declared"))
            })?
            .class;
        let layout = self.options.stage_layout(self.program.stage).clone();
        let var = self.buffer_block_variable(
            Comp::U64,
            class,
            &format!("Storage64_{binding}"),
            &format!("program_storage64_{binding}"),
            layout.storage_binding(binding),
        );
        self.io.storage64.insert(binding, var);
        Ok(var)
    }

    /// ATOMB and ATOMS with F16X2 or F16X4 (NV_shader_atomic_fp16_vector):
    /// each 32-bit word holds two halves, x in the low 16 bits (as PK2H
    /// packs them). "Atomicity is only guaranteed on a per-component
    /// basis", and issue (2): "The initial implementation of this extension
    /// will only atomically update pairs of components", so F16X4 is one
    /// atomic per word. The operand is rounded to halves
    /// (PackHalf2x16); EXCH exchanges the packed word, ADD, MIN and MAX
    /// are compare-and-swap loops that unpack both, compute in f32 and
    /// round the result to the nearest half. A sum of two halves rounded
    /// to f32 and then to f16 is the correctly rounded f16 sum: f32's 24
    /// bits are at least 2·11 + 2, so the double rounding is innocuous.
    /// Gives the halves before the operation as f32 (zero outside the
    /// memory and in the components beyond X2).
    fn memory_atomic_halves(
        &mut self,
        m: &MemoryAccess,
        op: AtomicOp,
        operand: Val,
    ) -> LResult<Val> {
        let targets = self.memory_targets(m)?;
        let packed = self.pack_half_pairs(operand, m.components)?;
        let uint = self.t(Comp::U32, 1);
        let zero = self.c_u32(0);
        let mut results = Vec::new();
        for _ in &packed {
            results.push(self.function_variable_init(uint, Some("atomb_halves"), Some(zero))?);
        }
        self.in_each_target(targets, |l, MemoryTarget { memory, index, .. }| {
            let scope = l.c_u32(memory.scope() as u32);
            for (w, (&x, &result)) in packed.iter().zip(&results).enumerate() {
                let k = l.konst(Comp::U32, &[w as u32]);
                let i = l.op(Op::IAdd, &[index, k])?;
                let old = if let Memory::Shared(s @ SharedMemory { wide: true, .. }) = memory {
                    l.update_shared_word(s, i, &mut |l, old| new_halves(l, op, old, x))?
                } else {
                    let p = l.word_pointer(memory, i)?;
                    l.atomic_halves_word(p, scope, op, x)?
                };
                l.store(result, old)?;
            }
            Ok(())
        })?;
        let mut words = Vec::new();
        for &result in &results {
            words.push(self.load(result, Comp::U32, 1)?);
        }
        self.unpack_half_words(&words)
    }

    /// The first `components` (2 or 4) components of `operand` rounded to
    /// halves and packed two to a word, x low (PackHalf2x16: NV_shader_
    /// atomic_fp16_vector's operand of F16X2 and F16X4).
    pub(crate) fn pack_half_pairs(&mut self, operand: Val, components: u8) -> LResult<Vec<Val>> {
        let floats = self.cast(operand, Comp::F32)?;
        let uint = self.t(Comp::U32, 1);
        let mut packed = Vec::new();
        for w in 0..u32::from(components) / 2 {
            let pair = self.shuffle(floats, floats, &[2 * w, 2 * w + 1])?;
            packed.push(self.glsl_typed(GLOp::PackHalf2x16, uint, Comp::U32, 1, &[pair])?);
        }
        Ok(packed)
    }

    /// The result of an F16X2/F16X4 atomic: the halves of the old words
    /// as f32, x y (z w), zero beyond.
    pub(crate) fn unpack_half_words(&mut self, words: &[Val]) -> LResult<Val> {
        let mut parts = Vec::new();
        for &word in words {
            let pair = self.unpack_halves(word)?;
            parts.push(self.extract(pair, 0)?);
            parts.push(self.extract(pair, 1)?);
        }
        let zero = self.konst(Comp::F32, &[0]);
        parts.resize(4, zero);
        self.construct(&parts)
    }

    /// One F16X2 atomic (NV_shader_atomic_fp16_vector: ADD, MIN, MAX,
    /// EXCH) on the word of two halves `p` points to, with the packed
    /// operand `x` ([`Lowerer::pack_half_pairs`]); gives the old word.
    /// Shared by every atomic instruction on memory.
    pub(crate) fn atomic_halves_word(
        &mut self,
        p: Word,
        scope: Word,
        op: AtomicOp,
        x: Val,
    ) -> LResult<Val> {
        if op == AtomicOp::Exch {
            return self.atomic_word(p, Comp::U32, scope, op, DataType::Unsigned, x, x);
        }
        let id =
            self.atomic_cas_loop(p, scope, Comp::U32, &mut |l, old| new_halves(l, op, old, x))?;
        Ok(Val {
            id,
            comp: Comp::U32,
            n: 1,
        })
    }

    /// The two halves of a word as f32, x from the low 16 bits. Each is
    /// the x of an UnpackHalf2x16 (the high one shifted down first):
    /// lavapipe (Mesa 22.3) folds the y of UnpackHalf2x16 on a constant
    /// word, an operand such as `{0.5, 3, 0, 0}` packed, to 0.
    fn unpack_halves(&mut self, word: Val) -> LResult<Val> {
        let vec2 = self.t(Comp::F32, 2);
        let sixteen = self.konst(Comp::U32, &[16]);
        let high = self.op(Op::ShiftRightLogical, &[word, sixteen])?;
        let mut parts = Vec::new();
        for w in [word, high] {
            let pair = self.glsl_typed(GLOp::UnpackHalf2x16, vec2, Comp::F32, 2, &[w])?;
            parts.push(self.extract(pair, 0)?);
        }
        self.construct(&parts)
    }

    /// The x and y of an atomic's operand as bits: the value, and CSWAP's
    /// new value.
    fn atomic_operand_words(&mut self, operand: Val) -> LResult<(Val, Val)> {
        let bits = self.cast(operand, Comp::U32)?;
        Ok((self.extract(bits, 0)?, self.extract(bits, 1)?))
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
            (AtomicOp::IWrap | AtomicOp::DWrap, _) if pointee == Comp::U32 => {
                self.atomic_cas_loop(p, scope, pointee, &mut |l, old| wrap(l, op, old, x))?
            }
            // ATOMIM.ADD.F32 on an r32f image (NV_shader_atomic_float):
            // OpAtomicFAddEXT, from SPV_EXT_shader_atomic_float_add (the
            // device's shaderImageFloat32AtomicAdd, in the reflection's
            // device_features). An image's texel has no integer view to
            // run a compare-and-swap loop on.
            (AtomicOp::Add, _) if float && pointee == Comp::F32 => {
                let cap = rspirv::spirv::Capability::AtomicFloat32AddEXT;
                if !self.capabilities.contains(&(cap as u32)) {
                    self.b.extension("SPV_EXT_shader_atomic_float_add");
                }
                self.capability(cap);
                self.b
                    .value(Op::AtomicFAddEXT, word_ty, None, [p, scope, relaxed, x.id])?
            }
            // F32 and (NV_shader_atomic_float64) F64 ADD: "writeval =
            // tmp0.x + result" on the words' bits.
            (AtomicOp::Add, _) if float && matches!(pointee, Comp::U32 | Comp::U64) => {
                let fcomp = if pointee.is_64() {
                    Comp::F64
                } else {
                    Comp::F32
                };
                self.atomic_cas_loop(p, scope, pointee, &mut |l, old| {
                    let a = l.cast(old, fcomp)?;
                    let b = l.cast(x, fcomp)?;
                    let sum = l.op(Op::FAdd, &[a, b])?;
                    l.cast(sum, pointee)
                })?
            }
            _ => {
                return Err(LowerError::internal(format!(
                    "{} on a {pointee:?} word",
                    op.name()
                )))
            }
        };
        let bits = if pointee.is_64() {
            Comp::U64
        } else {
            Comp::U32
        };
        self.cast(
            Val {
                id: old,
                comp: pointee,
                n: 1,
            },
            bits,
        )
    }

    /// The spec's read-compute-write for an operation without a SPIR-V
    /// atomic: read the word (of unsigned type `word`, 32 or 64 bits),
    /// compute the new value from it with `new`, and
    /// OpAtomicCompareExchange it in; another invocation's write in between
    /// makes the exchange fail and the loop retry with the word it found.
    /// The result is the word the successful exchange replaced.
    pub(crate) fn atomic_cas_loop(
        &mut self,
        p: Word,
        scope: Word,
        word: Comp,
        new: &mut dyn FnMut(&mut Self, Val) -> LResult<Val>,
    ) -> LResult<Word> {
        let uint = self.t(word, 1);
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
            comp: word,
            n: 1,
        };
        let new = new(self, old)?;
        let found = self
            .b
            .atomic_compare_exchange(uint, None, p, scope, relaxed, relaxed, new.id, old.id)?;
        let found_val = Val {
            id: found,
            comp: word,
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
