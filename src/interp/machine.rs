//! The execution state and the statement loop: variables and their
//! storage, operand loads (section 2.X.4.2), destination updates and
//! condition codes (section 2.X.4.3), and flow control (section 2.X.5)
//! run with an explicit frame stack, so neither deep calls nor deep
//! nesting can overflow the host stack.

use super::alu::{self, AddFlags};
use super::half;
use super::names::{attribute_aliases, attribute_name, per_vertex_name, result_name, state_name};
use super::value::{self, Vec4};
use super::wide::{self, Wide4};
use super::{
    EmittedVertex, Inputs, InterpError, Outcome, ResultValue, RunOptions, TraceCc, TraceStep,
    TraceWrite, UndefinedEvent,
};
use crate::ir::{
    AtomicOp, AttribBinding, Block, BufferBinding, CallOverflow, CcReg, CcTest, Clamp, Dest, Index,
    Instruction, KillCondition, Literal, Operand, ParamBinding, Program, Stmt, SubId,
    SubroutineEnd, VarId, VarKind, VarType,
};
use crate::isa::{CcCondition, CcFlags, DataType, Features, Opcode, Stage};
use crate::span::Span;
use std::collections::BTreeMap;

type Result<T> = std::result::Result<T, InterpError>;

/// One vec4 of a parameter variable.
enum ParamValue {
    /// A constant, typed when read (section 2.X.3.3).
    Literal([Literal; 4]),
    /// env, local, state or buffer bits.
    Bits([u32; 4]),
}

/// Where a variable's elements live.
enum Storage {
    Temp(Vec<Vec4>),
    /// An NV_gpu_program5 LONG temporary: 64-bit components.
    Temp64(Vec<Wide4>),
    /// Attribute values by element; for a geometry program's per-vertex
    /// variable (bound without a vertex number), `vertex * len + element`.
    Attrib {
        values: Vec<Vec4>,
        per_vertex: bool,
        /// The vertices a per-vertex variable spans (1 otherwise).
        vertices: u32,
    },
    Param(Vec<ParamValue>),
    /// One result slot per element.
    Result(Vec<usize>),
    Buffer(BufferBinding),
    /// A STORAGE variable: the storage buffer at this binding point.
    Memory(u32),
    /// A SHARED variable: shared memory from this byte on.
    Shared,
    /// A CBUFFER variable: `program.buffer[a]` as bytes, read by LDC (its
    /// first byte is in the access's offset).
    ConstantBuffer(u32),
    /// A COUNTER variable: the atomic counter buffer at this binding point
    /// (its first counter is in the access's offset).
    Counter(u32),
    /// The GPU address space of LOAD, STORE and ATOM ([`Inputs::global`]).
    Global,
}

struct ResultSlot {
    name: String,
    value: Vec4,
    written: u8,
    types: [DataType; 4],
}

impl ResultSlot {
    fn snapshot(&self) -> ResultValue {
        ResultValue {
            bits: self.value.bits,
            written: self.written,
            undefined: (self.value.undefined | !self.written) & 0xf,
            types: self.types,
        }
    }
}

/// One component of a condition code register (section 2.X.3.7).
#[derive(Clone, Copy, Debug)]
struct CcComp {
    flags: CcFlags,
    /// Undefined flags: SF = 1, ZF = 2, OF = 4, CF = 8.
    undefined: u8,
}

const SF: u8 = 1;
const ZF: u8 = 2;
const OF: u8 = 4;
const CF: u8 = 8;

/// The flags a Table X.16 test reads.
fn flags_read(c: CcCondition) -> u8 {
    use CcCondition as C;
    match c {
        C::Eq | C::Ne | C::Nan | C::Leg => SF | ZF,
        C::Ge => SF | OF,
        C::Gt | C::Le | C::Lt => SF | ZF | OF,
        C::Fl | C::Tr => 0,
        C::Cf | C::Ncf => CF,
        C::Of | C::Nof => OF,
        C::Sf | C::Nsf => SF,
        C::Ab | C::Ble => CF | ZF,
    }
}

/// What an open block of the frame stack is.
enum FrameKind {
    /// The taken side of an IF.
    Branch,
    /// A REP or LOOP body; `remaining` is the loop count (`None`: no
    /// count); a LOOP also has its index.
    Loop {
        remaining: Option<i64>,
        index: Option<LoopIndex>,
        span: Span,
    },
    /// A subroutine body: the entry (the bottom frame) or a CAL; which
    /// subroutine, for what happens at its end.
    Subroutine(SubId),
}

/// The index of a running LOOP (NV_fragment_program2 3.11.X.8).
#[derive(Clone, Copy)]
struct LoopIndex {
    var: VarId,
    value: i64,
    increment: i64,
}

/// One entry of the call stack: a CAL's return, or an address register
/// pushed by PUSHA (NV_vertex_program3 shares the stack between them).
#[derive(Clone, Copy)]
enum StackEntry {
    Call,
    Address(Vec4),
}

/// How execution ends before the end of the entry.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Flow {
    Continue,
    End,
}

struct Frame<'p> {
    stmts: &'p [Stmt],
    pc: usize,
    kind: FrameKind,
}

pub(super) struct Machine<'p> {
    program: &'p Program,
    inputs: &'p Inputs,
    options: &'p RunOptions,
    storage: Vec<Storage>,
    results: Vec<ResultSlot>,
    cc: [[CcComp; 4]; 2],
    pub(super) outcome: Outcome,
    /// The texel layout of each image unit (`image::unit_formats`).
    pub(super) image_formats: BTreeMap<u32, Option<crate::ir::ImageFormat>>,
    primitive: u32,
    /// The call stack (section 2.X.8.Z CAL: `callStackDepth`).
    stack: Vec<StackEntry>,
    /// Whether the program's BRAs can loop, so MAX_PROGRAM_EXEC_INSTRUCTIONS
    /// applies (`Program::branches_loop`).
    exec_limited: bool,
}

/// The element a relative read outside its array selects where such reads
/// give (0,0,0,0) ([`crate::isa::Dialect::relative_reads_outside_are_zero`]).
const OUTSIDE: u32 = u32::MAX;

/// One word of an F16X2/F16X4 atomic (NV_shader_atomic_fp16_vector): the
/// halves of `old` (x in the low 16 bits) and components `2w`, `2w + 1` of
/// the operand rounded to halves, per half `mem + op`, `min`, `max` (as MIN
/// and MAX compute them: `(tmp0 > tmp1) ? ...`) rounded to the nearest
/// half, or the operand (EXCH). Gives the new word; puts the halves before,
/// as f32, in components `2w`, `2w + 1` of `result`. Shared by the memory
/// atomics and ATOMIM.F16X2.
pub(super) fn halves_word_update(
    op: AtomicOp,
    old: u32,
    operand: &Vec4,
    w: usize,
    old_undefined: bool,
    result: &mut Vec4,
) -> u32 {
    use super::value::{f16_bits_to_f32, f32_to_f16_bits};
    let mut new = 0;
    for h in 0..2 {
        let c = 2 * w + h;
        let mem = f16_bits_to_f32((old >> (16 * h)) as u16);
        let x = f16_bits_to_f32(f32_to_f16_bits(operand.f(c)));
        let r = match op {
            // Rounded to f32 and then to f16: the correctly
            // rounded f16 sum (f32 has 24 >= 2*11 + 2 bits).
            AtomicOp::Add => mem + x,
            AtomicOp::Min if x > mem => mem,
            AtomicOp::Max if x > mem => x,
            AtomicOp::Min => x,
            AtomicOp::Max => mem,
            _ => x,
        };
        new |= u32::from(f32_to_f16_bits(r)) << (16 * h);
        result.bits[c] = mem.to_bits();
        if old_undefined || operand.is_undefined(c) {
            result.undefined |= 1 << c;
        }
    }
    new
}

pub(super) fn internal(what: impl Into<String>, span: Span) -> InterpError {
    InterpError::Internal {
        what: what.into(),
        span,
    }
}

/// The first texture instruction of a block: the interpreter models no
/// textures (docs/semantics.md, "Textures"; images are modelled:
/// `interp::image`).
fn uses_texture(block: &Block) -> Option<(String, Span)> {
    block.iter().find_map(|s| match s {
        Stmt::Inst(i)
            if i.tex.is_some()
                || matches!(
                    i.op,
                    Opcode::Tex
                        | Opcode::Txb
                        | Opcode::Txd
                        | Opcode::Txf
                        | Opcode::Txg
                        | Opcode::Txgo
                        | Opcode::Lod
                        | Opcode::Txl
                        | Opcode::Txp
                        | Opcode::Txq
                ) =>
        {
            Some((
                format!(
                    "texture instruction {} (textures are not modelled)",
                    i.op.name()
                ),
                i.span,
            ))
        }
        other => other.blocks().find_map(uses_texture),
    })
}

impl<'p> Machine<'p> {
    pub(super) fn new(
        program: &'p Program,
        inputs: &'p Inputs,
        options: &'p RunOptions,
    ) -> Result<Machine<'p>> {
        for sub in &program.subroutines {
            if let Some((what, span)) = uses_texture(&sub.body) {
                return Err(InterpError::Unsupported { what, span });
            }
        }
        // The vertices a per-vertex array variable spans: the geometry
        // program's input primitive; a tessellation program's input patch
        // (MAX_PATCH_VERTICES, as the backend's arrays) and a control
        // program's output patch (VERTICES_OUT).
        let input_vertices = match program.stage {
            Stage::TessControl | Stage::TessEval => crate::check::MAX_PATCH_VERTICES,
            _ => program.geometry.map_or(1, |g| g.input.vertex_count()),
        };
        let output_vertices = program.tess_control.map_or(1, |t| t.vertices_out);
        let mut results: Vec<ResultSlot> = Vec::new();
        let mut slot_of: BTreeMap<String, usize> = BTreeMap::new();
        let mut storage = Vec::with_capacity(program.variables.len());
        // NV_vertex_program 2.14.1.4-5: temporaries start at (0,0,0,0) and
        // results at (0,0,0,1); elsewhere both are undefined until written.
        let (temp_initial, result_initial, result_written) =
            if program.dialect.fixed_registers_initialised() {
                (
                    Vec4::defined([0; 4]),
                    Vec4::defined([0, 0, 0, 1f32.to_bits()]),
                    0xf,
                )
            } else {
                (Vec4::UNWRITTEN, Vec4::UNWRITTEN, 0)
            };
        for var in &program.variables {
            let len = var.len().max(1) as usize;
            let s = match &var.kind {
                VarKind::Temp if program.long_storage(VarId(storage.len() as u32)) => {
                    Storage::Temp64(vec![Wide4::UNWRITTEN; len])
                }
                VarKind::Temp => Storage::Temp(vec![temp_initial; len]),
                // A LONG vertex attribute: its 64-bit components as given,
                // read like a LONG temporary (never written: ATTRIB).
                VarKind::Attrib(bindings) if program.long_storage(VarId(storage.len() as u32)) => {
                    Storage::Temp64(
                        bindings
                            .iter()
                            .map(|b| Wide4 {
                                bits: attribute_names(program.stage, b)
                                    .iter()
                                    .find_map(|n| inputs.attribs64.get(n))
                                    .copied()
                                    .unwrap_or([0; 4]),
                                undefined: 0,
                            })
                            .collect(),
                    )
                }
                VarKind::Attrib(bindings) => {
                    let per_vertex = bindings
                        .iter()
                        .any(|b| matches!(b, AttribBinding::PerVertex { vertex: None, .. }));
                    let output_patch = bindings
                        .iter()
                        .any(|b| matches!(b, AttribBinding::OutputVertex { vertex: None, .. }));
                    let mut values = Vec::new();
                    let vertices = if per_vertex {
                        input_vertices
                    } else if output_patch {
                        output_vertices
                    } else {
                        1
                    };
                    let per_vertex = per_vertex || output_patch;
                    for v in 0..vertices {
                        for b in bindings {
                            let mut value =
                                attribute_value(program, inputs, b, v, options.two_sided_color);
                            // ARB_fragment_coord_conventions: with integer
                            // pixel centres, the window position given (the
                            // device's FragCoord, centres at .5) moves by
                            // -0.5 (docs/interface.md).
                            if *b == AttribBinding::Position
                                && program.stage == Stage::Fragment
                                && program.dialect.has(Features::PIXEL_CENTER_INTEGER)
                            {
                                for c in &mut value.bits[..2] {
                                    *c = (f32::from_bits(*c) - 0.5).to_bits();
                                }
                            }
                            values.push(value);
                        }
                    }
                    Storage::Attrib {
                        values,
                        per_vertex,
                        vertices,
                    }
                }
                VarKind::Param(bindings) => Storage::Param(
                    bindings
                        .iter()
                        .map(|b| match b {
                            ParamBinding::Constant(lits) => ParamValue::Literal(*lits),
                            ParamBinding::Env(n) => {
                                ParamValue::Bits(inputs.env.get(n).copied().unwrap_or([0; 4]))
                            }
                            ParamBinding::Local(n) => {
                                ParamValue::Bits(inputs.local.get(n).copied().unwrap_or([0; 4]))
                            }
                            ParamBinding::State(item) => ParamValue::Bits(
                                inputs.state.get(&state_name(item)).copied().unwrap_or(
                                    // NV_shader_thread_group 2.X.3.3: the
                                    // run's thread group is the spec's
                                    // 32-thread warp (as its thread masks,
                                    // `ThreadAttrib::single_thread_value`),
                                    // unless the inputs say otherwise.
                                    if item.path == ["thread", "warpsize"] {
                                        [32, 0, 0, 0]
                                    } else {
                                        [0; 4]
                                    },
                                ),
                            ),
                            ParamBinding::Subroutine(n) => ParamValue::Bits([
                                inputs.subroutine.get(n).copied().unwrap_or(0),
                                0,
                                0,
                                0,
                            ]),
                            ParamBinding::BufferElement { buffer, element } => {
                                let words = inputs.buffers.get(buffer);
                                let word = |k: u32| {
                                    words
                                        .and_then(|w| {
                                            w.get(element.saturating_mul(4).saturating_add(k)
                                                as usize)
                                        })
                                        .copied()
                                        .unwrap_or(0)
                                };
                                ParamValue::Bits([word(0), word(1), word(2), word(3)])
                            }
                        })
                        .collect(),
                ),
                VarKind::Result(bindings) => Storage::Result(
                    bindings
                        .iter()
                        .map(|b| {
                            let name = result_name(b);
                            *slot_of.entry(name.clone()).or_insert_with(|| {
                                results.push(ResultSlot {
                                    name,
                                    value: result_initial,
                                    written: result_written,
                                    types: [DataType::Float; 4],
                                });
                                results.len() - 1
                            })
                        })
                        .collect(),
                ),
                VarKind::Buffer(b) => Storage::Buffer(*b),
                VarKind::Storage(b) => Storage::Memory(b.buffer),
                VarKind::Shared(_) => Storage::Shared,
                VarKind::ConstantBuffer(b) => Storage::ConstantBuffer(b.buffer),
                VarKind::Counter(b) => Storage::Counter(b.buffer),
                VarKind::GlobalMemory => Storage::Global,
            };
            storage.push(s);
        }
        let undefined_cc = CcComp {
            flags: CcFlags::default(),
            // "whose values are undefined at the beginning of program
            // execution" (section 2.X.3.7)
            undefined: 0xf,
        };
        Ok(Machine {
            program,
            inputs,
            options,
            storage,
            results,
            cc: [[undefined_cc; 4]; 2],
            outcome: Outcome {
                storage: inputs.storage.clone(),
                counters: inputs.counters.clone(),
                images: inputs.images.clone(),
                bindless_images: inputs.bindless_images.clone(),
                global: inputs.global.clone(),
                // NV_compute_program5 2.X.3.Y: "The contents of compute
                // program shared memory are undefined when program
                // execution for the local work group begins".
                shared: vec![
                    None;
                    program.compute.as_ref().map_or(0, |c| c.shared_memory) as usize
                ],
                ..Outcome::default()
            },
            image_formats: super::image::unit_formats(program),
            primitive: 0,
            stack: Vec::new(),
            exec_limited: program.branches_loop(),
        })
    }

    pub(super) fn undefined_event(&mut self, span: Span, what: String) {
        // One event per statement (a loop repeats it), and few in all: the
        // first is what matters.
        if self.outcome.undefined.len() < 64
            && !self.outcome.undefined.iter().any(|e| e.span == span)
        {
            self.outcome.undefined.push(UndefinedEvent { span, what });
        }
    }

    fn note(&mut self, span: Span, what: String) {
        if self.outcome.notes.len() < 64 && !self.outcome.notes.iter().any(|n| n.span == span) {
            self.outcome.notes.push(UndefinedEvent { span, what });
        }
    }

    fn var_storage(&self, id: VarId, span: Span) -> Result<(&'p crate::ir::Variable, usize)> {
        let i = id.0 as usize;
        match (self.program.variables.get(i), self.storage.get(i)) {
            (Some(v), Some(_)) => Ok((v, i)),
            _ => Err(internal(format!("variable {} does not exist", id.0), span)),
        }
    }

    /// The element an index selects in an array of `len` (section 2.X.4.2),
    /// clamped into the array; also whether it is undefined.
    /// `var` names the variable in messages.
    fn element(&mut self, len: u32, index: &Index, var: VarId, span: Span) -> Result<(u32, bool)> {
        let len = len.max(1);
        match index {
            Index::None => Ok((0, false)),
            Index::Absolute(n) if *n < len => Ok((*n, false)),
            Index::Absolute(n) => Err(internal(
                format!(
                    "index {n} out of range for `{}` ({len} elements)",
                    self.var_label(var)
                ),
                span,
            )),
            Index::Relative { address, offset } => {
                let a = self.load(address)?;
                let raw = i64::from(a.i(0)) + i64::from(*offset);
                let clamped = raw.clamp(0, i64::from(len) - 1);
                if raw != clamped && self.program.dialect.relative_reads_outside_are_zero() {
                    return Ok((OUTSIDE, a.is_undefined(0)));
                }
                if raw != clamped && !a.is_undefined(0) {
                    let name = self.var_label(var);
                    self.note(
                        span,
                        format!(
                            "relative index {raw} is outside `{name}` (0..{}); nvp4c clamps it to {clamped} (undefined in section 2.X.4.2)",
                            len - 1
                        ),
                    );
                }
                let outside = raw != clamped && self.options.out_of_range_undefined;
                Ok((clamped as u32, a.is_undefined(0) || outside))
            }
            Index::PerVertex { .. } => Err(internal(
                format!(
                    "a vertex index on `{}`, which is not per-vertex",
                    self.var_label(var)
                ),
                span,
            )),
            Index::BufferRange(_) => Err(internal(
                format!(
                    "a binding point index on `{}` outside an operand",
                    self.var_label(var)
                ),
                span,
            )),
        }
    }

    fn var_label(&self, id: VarId) -> String {
        match self.program.variables.get(id.0 as usize) {
            Some(v) => match (&v.name, &v.kind) {
                (Some(n), _) => n.clone(),
                (None, VarKind::Result(b)) if b.len() == 1 => result_name(&b[0]),
                (None, VarKind::Attrib(b)) if b.len() == 1 => {
                    attribute_name(self.program.stage, &b[0])
                }
                _ => format!("v{}", id.0),
            },
            None => format!("v{}", id.0),
        }
    }

    /// Reads one element of a variable, before swizzle and modifiers.
    fn fetch(&mut self, id: VarId, index: &Index, ty: DataType, span: Span) -> Result<Vec4> {
        // A BUFFER range's binding point picked by a register, clamped into
        // the range as the device does (docs/semantics.md), then the
        // element of its variable.
        if let Index::BufferRange(range) = index {
            let (k, undefined) = self.picked_binding_point(&range.select)?;
            let var = range.select.vars.get(k).copied().unwrap_or(id);
            let mut v = self.fetch(var, &range.element, ty, span)?;
            // An undefined register picks an undefined binding point.
            if undefined {
                v.undefined = 0xf;
            }
            return Ok(v);
        }
        let (var, i) = self.var_storage(id, span)?;
        let len = var.len();
        if let Storage::Attrib {
            per_vertex: true, ..
        } = &self.storage[i]
        {
            let Index::PerVertex(per_vertex) = index else {
                return Err(internal(
                    format!(
                        "per-vertex attribute `{}` read without a vertex number",
                        self.var_label(id)
                    ),
                    span,
                ));
            };
            let Storage::Attrib { vertices, .. } = self.storage[i] else {
                return Err(internal("storage changed", span));
            };
            let (v, v_undefined) = self.element(vertices, &per_vertex.vertex, id, span)?;
            let (e, e_undefined) = self.element(len, &per_vertex.element, id, span)?;
            let Storage::Attrib { values, .. } = &self.storage[i] else {
                return Err(internal("storage changed", span));
            };
            let at = u64::from(v) * u64::from(len.max(1)) + u64::from(e);
            let value = usize::try_from(at)
                .ok()
                .and_then(|at| values.get(at))
                .copied()
                .ok_or_else(|| internal("per-vertex element out of range", span))?;
            let undefined = if v_undefined || e_undefined {
                0xf
            } else {
                value.undefined
            };
            return Ok(Vec4 {
                bits: value.bits,
                undefined,
            });
        }
        let (e, index_undefined) = self.element(len, index, id, span)?;
        if e == OUTSIDE {
            let mut zero = Vec4::defined([0; 4]);
            if index_undefined {
                zero.undefined = 0xf;
            }
            return Ok(zero);
        }
        let e = e as usize;
        let mut v = match &self.storage[i] {
            Storage::Temp(elems) => elems.get(e).copied(),
            // A 32-bit instruction reads a LONG variable's components
            // "converted to lower precision" (2.X.4.1).
            Storage::Temp64(elems) => elems.get(e).map(|w| wide::demote(*w, ty)),
            Storage::Attrib { values, .. } => values.get(e).copied(),
            Storage::Param(values) => values.get(e).map(|p| match p {
                ParamValue::Bits(b) => Vec4::defined(*b),
                ParamValue::Literal(lits) => {
                    // Section 2.X.3.3: a constant used directly is read as
                    // the operand's type; a declared one as the declared
                    // type, floating-point when there is none.
                    let lit_ty = match (&var.name, var.ty) {
                        (None, _) => ty,
                        (Some(_), VarType::Typed(t)) => t,
                        (Some(_), VarType::Typeless) => DataType::Float,
                    };
                    Vec4::defined(lits.map(|l| l.bits(lit_ty)))
                }
            }),
            Storage::Result(slots) => slots
                .get(e)
                .and_then(|s| self.results.get(*s))
                .map(|s| s.value),
            Storage::Buffer(b) => Some(self.buffer_element(b, e as u32)),
            Storage::Memory(_)
            | Storage::Global
            | Storage::Shared
            | Storage::ConstantBuffer(_)
            | Storage::Counter(_) => None,
        }
        .ok_or_else(|| {
            internal(
                format!("element {e} of `{}` does not exist", self.var_label(id)),
                span,
            )
        })?;
        if index_undefined {
            v.undefined = 0xf;
        }
        Ok(v)
    }

    /// Element `e` of a BUFFER/BUFFER4 variable (section 2.X.3.6): a
    /// BUFFER element is one word broadcast, a BUFFER4 element four words.
    /// Words past the end of the given buffer are undefined (zero).
    fn buffer_element(&self, b: &BufferBinding, e: u32) -> Vec4 {
        let words = self.inputs.buffers.get(&b.buffer);
        let word = |k: u64| -> Option<u32> {
            let k = usize::try_from(k).ok()?;
            words.and_then(|w| w.get(k)).copied()
        };
        let first = u64::from(b.first) + u64::from(e);
        let picks: [Option<u32>; 4] = if b.vec4 {
            [0, 1, 2, 3].map(|k| word(first * 4 + k))
        } else {
            [word(first); 4]
        };
        let mut v = Vec4::defined([0; 4]);
        for (c, p) in picks.iter().enumerate() {
            match p {
                Some(w) => v.bits[c] = *w,
                None => v.undefined |= 1 << c,
            }
        }
        v
    }

    /// Loads an operand (section 2.X.4.2): the element, then the swizzle,
    /// the negation, the absolute value and the negation outside `|...|`.
    pub(super) fn load(&mut self, op: &Operand) -> Result<Vec4> {
        let raw = self.fetch(op.var, &op.index, op.ty, op.span)?;
        Ok(operand_modifiers(op, &raw))
    }
}

/// Section 2.X.4.2 on an element already fetched: the swizzle, the
/// negation, the absolute value and the negation outside `|...|`.
fn operand_modifiers(op: &Operand, raw: &Vec4) -> Vec4 {
    {
        let mut v = Vec4::defined([0; 4]);
        for c in 0..4 {
            let k = usize::from(op.swizzle.0[c] & 3);
            v.bits[c] = raw.bits[k];
            if raw.is_undefined(k) {
                v.undefined |= 1 << c;
            }
        }
        for b in v.bits.iter_mut() {
            if op.negate {
                *b = value::negate(*b, op.ty);
            }
            if op.abs {
                *b = value::absolute(*b, op.ty);
            }
            if op.negate_abs {
                *b = value::negate(*b, op.ty);
            }
        }
        v
    }
}

/// [`operand_modifiers`] at 64 bits: the swizzle, then negation and
/// absolute value at the operand's 64-bit type.
fn operand_modifiers64(op: &Operand, raw: &Wide4) -> Wide4 {
    let mut v = Wide4::default();
    for c in 0..4 {
        let k = usize::from(op.swizzle.0[c] & 3);
        v.bits[c] = raw.bits[k];
        if raw.undefined & (1 << k) != 0 {
            v.undefined |= 1 << c;
        }
    }
    for b in v.bits.iter_mut() {
        if op.negate {
            *b = wide::negate(*b, op.ty);
        }
        if op.abs {
            *b = wide::absolute(*b, op.ty);
        }
        if op.negate_abs {
            *b = wide::negate(*b, op.ty);
        }
    }
    v
}

impl<'p> Machine<'p> {
    /// Loads an operand of a 64-bit instruction (or UP64's): a LONG
    /// variable's components as they are, another's promoted from the
    /// operand's type (2.X.4.1), then the swizzle, negation and absolute
    /// value at 64 bits.
    pub(super) fn load64(&mut self, op: &Operand) -> Result<Wide4> {
        let (_, i) = self.var_storage(op.var, op.span)?;
        let raw = match &self.storage[i] {
            Storage::Temp64(elems) => {
                let len = elems.len() as u32;
                let (e, index_undefined) = self.element(len, &op.index, op.var, op.span)?;
                let Storage::Temp64(elems) = &self.storage[i] else {
                    return Err(internal("storage changed", op.span));
                };
                let mut w = *elems
                    .get(e as usize)
                    .ok_or_else(|| internal("element out of range", op.span))?;
                if index_undefined {
                    w.undefined = 0xf;
                }
                w
            }
            _ => wide::promote(self.fetch(op.var, &op.index, op.ty, op.span)?, op.ty),
        };
        Ok(operand_modifiers64(op, &raw))
    }

    /// Writes a 64-bit result: as it is to a LONG variable, converted to
    /// 32 bits to any other (2.X.4.1).
    fn store64(&mut self, dst: &Dest, value: &Wide4, mask: u8, uncertain: u8) -> Result<String> {
        let (_, i) = self.var_storage(dst.var, dst.span)?;
        if !matches!(self.storage[i], Storage::Temp64(_)) {
            return self.store(dst, &wide::demote(*value, dst.ty), mask, uncertain);
        }
        let len = self.program.var(dst.var).len();
        let (e, index_undefined) = self.element(len, &dst.index, dst.var, dst.span)?;
        let name = self.var_label(dst.var);
        if index_undefined {
            self.undefined_event(
                dst.span,
                format!("`{name}` is written at an undefined relative index"),
            );
        }
        let Storage::Temp64(elems) = &mut self.storage[i] else {
            return Err(internal("storage changed", dst.span));
        };
        let slot = elems
            .get_mut(e as usize)
            .ok_or_else(|| internal("element out of range", dst.span))?;
        store_components(&mut slot.bits, &mut slot.undefined, value, mask, uncertain);
        Ok(name)
    }

    /// The components an instruction writes (its write mask and condition
    /// code write mask, section 2.X.4.3), and those whose condition code
    /// test is undefined.
    fn written_components(&mut self, inst: &Instruction) -> Result<(u8, u8)> {
        let mut mask = inst.dst.mask.0 & 0xf;
        let mut uncertain = 0;
        if let Some(t) = &inst.dst.cc_mask {
            let (pass, undefined) = self.cc_test(t, inst.dst.span)?;
            uncertain = mask & undefined;
            for (c, p) in pass.iter().enumerate() {
                if !p {
                    mask &= !(1 << c);
                }
            }
        }
        Ok((mask, uncertain))
    }

    /// CVT (NV_gpu_program5 2.X.8.Z): the operand read at its storage
    /// modifier's size (a 64-bit one promoted from a 32-bit variable, a
    /// 32-bit one converted from a LONG variable), each component
    /// converted; the result at 64 bits.
    fn cvt(&mut self, inst: &Instruction) -> Result<Wide4> {
        let (Some(c), Some(src)) = (inst.convert, inst.srcs.first()) else {
            return Err(internal("CVT without its conversion or operand", inst.span));
        };
        let f32_type = crate::ir::StorageType {
            ty: DataType::Float,
            bits: 32,
        };
        let (x, c) = if c.from.bits == 64 {
            (self.load64(src)?, c)
        } else if c.from.is_half() {
            // The register's low 16 bits, as the f32 they encode (exact;
            // src/spirv/wide.rs, `cvt`), of a 32-bit or a LONG register.
            let v = if c.long_half_operand {
                let w = self.load64(src)?;
                let mut v = Vec4::defined([0; 4]);
                v.undefined = w.undefined;
                for (b, &wb) in v.bits.iter_mut().zip(&w.bits) {
                    *b = wb as u32;
                }
                v
            } else {
                self.load(src)?
            };
            let mut v = v;
            for b in v.bits.iter_mut() {
                *b = half::half_to_f32(*b as u16).to_bits();
            }
            (
                wide::promote(v, DataType::Float),
                crate::ir::Conversion {
                    from: f32_type,
                    ..c
                },
            )
        } else {
            (wide::promote(self.load(src)?, c.from.ty), c)
        };
        let mut out = Wide4 {
            bits: [0; 4],
            undefined: x.undefined,
        };
        for (k, (o, &b)) in out.bits.iter_mut().zip(&x.bits).enumerate() {
            let (r, undefined) = if c.to.is_half() {
                // Rounded once: from the float, or from an integer's f32.
                let (f, undefined) = if c.from.ty == DataType::Float {
                    (b, false)
                } else {
                    let exact = crate::ir::Conversion {
                        to: f32_type,
                        rounding: crate::ir::Rounding::Round,
                        ..c
                    };
                    wide::convert(exact, b)
                };
                // SAT/SSAT before rounding (src/spirv/wide.rs, `cvt`).
                let mut f = f64::from_bits(f);
                if let Some(clamp) = inst.clamp {
                    let lo = if clamp == Clamp::Sat { 0.0 } else { -1.0 };
                    f = if f.is_nan() { lo } else { f.clamp(lo, 1.0) };
                }
                let h = half::f64_to_half(f, c.rounding);
                if c.long_half_result {
                    // The encoding, zero-extended, in a LONG register.
                    (u64::from(h), undefined)
                } else {
                    (f64::from(f32::from_bits(u32::from(h))).to_bits(), undefined)
                }
            } else {
                wide::convert(c, b)
            };
            *o = r;
            if undefined {
                out.undefined |= 1 << k;
            }
        }
        Ok(out)
    }

    /// An instruction with 64-bit results: `.F64`/`.S64`/`.U64` and PK64.
    fn exec_instruction64(&mut self, inst: &Instruction) -> Result<()> {
        let mut add_flags = None;
        let mut value = if inst.op == Opcode::Cvt {
            self.cvt(inst)?
        } else if let Some(m) = inst.memory.as_ref().filter(|m| m.atomic.is_none()) {
            self.memory_load(inst, m)?
        } else if inst.op == Opcode::Pk64 {
            let src = inst
                .srcs
                .first()
                .ok_or_else(|| internal("PK64 without its operand", inst.span))?;
            wide::pack64(self.load(src)?)
        } else {
            let mut srcs = Vec::with_capacity(inst.srcs.len());
            for s in &inst.srcs {
                srcs.push(self.load64(s)?);
            }
            if inst.precision64 {
                add_flags = alu::integer_add_flags(inst, &|i, c| srcs[i].bits[c], 64);
            }
            match &inst.memory {
                Some(m) => self.memory_atomic64(inst, m, &srcs)?,
                None => wide::evaluate64(inst, &srcs)?,
            }
        };
        // CVT to F16 clamps before rounding (`cvt`).
        let half_result = inst.convert.is_some_and(|c| c.to.is_half());
        if let (Some(clamp), DataType::Float, false) = (inst.clamp, inst.dst.ty, half_result) {
            wide::clamp64(&mut value, if clamp == Clamp::Sat { 0.0 } else { -1.0 });
        }
        let (mask, uncertain) = self.written_components(inst)?;
        let target = self.store64(&inst.dst, &value, mask, uncertain)?;
        let trace_cc = self.update_cc(inst, mask, uncertain, |c| {
            let add = add_flags.map(|f: [alu::AddFlags; 4]| f[c]);
            // An F16 result in a LONG register sets the flags of the
            // 16-bit float its low bits encode, as in a 32-bit one.
            let mut comp = if half_result {
                let f = half::half_to_f32(value.bits[c] as u16).to_bits();
                Self::flags_of(u64::from(f), 32, inst.dst.ty, add)
            } else {
                Self::flags_of(value.bits[c], 64, inst.dst.ty, add)
            };
            if value.undefined & (1 << c) != 0 {
                comp.undefined = 0xf;
            }
            comp
        })?;
        if self.tracing() {
            // An F16 result is shown as its encoding, as in a 32-bit register.
            let shown = if half_result {
                Vec4 {
                    bits: value.bits.map(|b| b as u32),
                    undefined: value.undefined,
                }
            } else {
                wide::demote(value, inst.dst.ty)
            };
            let undefined = value.undefined | uncertain;
            self.trace_write(inst, target, mask, shown.bits, undefined, trace_cc);
        }
        Ok(())
    }

    /// Writes `value` into the components of `mask` of the destination;
    /// `uncertain` components (condition code mask undefined) become
    /// undefined whether written or not. Returns the target's name.
    fn store(&mut self, dst: &Dest, value: &Vec4, mask: u8, uncertain: u8) -> Result<String> {
        let (var, i) = self.var_storage(dst.var, dst.span)?;
        let len = var.len();
        let (e, index_undefined) = self.element(len, &dst.index, dst.var, dst.span)?;
        if index_undefined {
            let name = self.var_label(dst.var);
            self.undefined_event(
                dst.span,
                format!("`{name}` is written at an undefined relative index"),
            );
        }
        // The name is only needed for the trace.
        let target = match (self.tracing(), var.is_array()) {
            (false, _) => String::new(),
            (true, true) => format!("{}[{e}]", self.var_label(dst.var)),
            (true, false) => self.var_label(dst.var),
        };
        let apply = |slot: &mut Vec4| {
            for c in 0..4 {
                let bit = 1u8 << c;
                if mask & bit != 0 {
                    slot.bits[c] = value.bits[c];
                    slot.undefined = (slot.undefined & !bit) | (value.undefined & bit);
                }
                if uncertain & bit != 0 {
                    slot.undefined |= bit;
                }
            }
        };
        match &mut self.storage[i] {
            Storage::Temp(elems) => {
                let slot = elems
                    .get_mut(e as usize)
                    .ok_or_else(|| internal("element out of range", dst.span))?;
                apply(slot);
            }
            // A 32-bit result written to a LONG variable is promoted.
            Storage::Temp64(elems) => {
                let slot = elems
                    .get_mut(e as usize)
                    .ok_or_else(|| internal("element out of range", dst.span))?;
                let wide = wide::promote(*value, dst.ty);
                store_components(&mut slot.bits, &mut slot.undefined, &wide, mask, uncertain);
            }
            Storage::Result(slots) => {
                let s = *slots
                    .get(e as usize)
                    .ok_or_else(|| internal("element out of range", dst.span))?;
                let slot = self
                    .results
                    .get_mut(s)
                    .ok_or_else(|| internal("result slot out of range", dst.span))?;
                apply(&mut slot.value);
                slot.written |= mask | uncertain;
                for c in 0..4 {
                    if (mask | uncertain) & (1 << c) != 0 {
                        slot.types[c] = dst.ty;
                    }
                }
            }
            _ => {
                return Err(internal(
                    format!(
                        "`{}` is not a temporary or a result; it cannot be written",
                        self.var_label(dst.var)
                    ),
                    dst.span,
                ))
            }
        }
        Ok(target)
    }

    fn cc_reg(&self, reg: CcReg, span: Span) -> Result<usize> {
        match reg.0 {
            0 | 1 => Ok(usize::from(reg.0)),
            n => Err(internal(format!("condition code register CC{n}"), span)),
        }
    }

    /// A Table X.16 test, swizzled: per component whether it passes, and
    /// which components are undefined.
    fn cc_test(&self, t: &CcTest, span: Span) -> Result<([bool; 4], u8)> {
        let reg = self.cc_reg(t.reg, span)?;
        let reads = flags_read(t.condition);
        let mut pass = [false; 4];
        let mut undefined = 0;
        for (c, passes) in pass.iter_mut().enumerate() {
            let comp = self.cc[reg][usize::from(t.swizzle.0[c] & 3)];
            *passes = t.condition.holds(comp.flags);
            if comp.undefined & reads != 0 {
                undefined |= 1 << c;
            }
        }
        Ok((pass, undefined))
    }

    /// A flow-control test: passes if any component passes (section
    /// 2.X.5). Records an undefined event when the outcome depends on
    /// undefined flags.
    fn test_passes(&mut self, t: &CcTest, span: Span, what: &str) -> Result<bool> {
        let (pass, undefined) = self.cc_test(t, span)?;
        let defined_pass = (0..4).any(|c| pass[c] && undefined & (1 << c) == 0);
        if !defined_pass && undefined != 0 {
            self.undefined_event(
                span,
                format!(
                    "{what} tests {} on CC{} components whose flags were never set or are undefined",
                    t.condition.name(),
                    t.reg.0
                ),
            );
        }
        Ok(pass.iter().any(|p| *p))
    }

    /// The flags of one result component of `width` bits (section
    /// 2.X.4.3; a 64-bit result's flags are those of its 64-bit value,
    /// docs/semantics.md).
    fn flags_of(bits: u64, width: u32, ty: DataType, add: Option<AddFlags>) -> CcComp {
        match ty {
            // "For floating-point results, the sign flag (SF) is set if the
            // result is less than zero or is a NaN (not a number) value.
            // The zero flag (ZF) is set if the result is equal to zero or
            // is a NaN."
            DataType::Float => {
                let x = match width {
                    64 => f64::from_bits(bits),
                    _ => f64::from(f32::from_bits(bits as u32)),
                };
                CcComp {
                    flags: CcFlags {
                        sf: x < 0.0 || x.is_nan(),
                        zf: x == 0.0 || x.is_nan(),
                        of: false,
                        cf: false,
                    },
                    undefined: 0,
                }
            }
            // "the sign flag (SF) is set if the most significant bit of the
            // value written to the result variable is set and the zero flag
            // (ZF) is set if the result written is zero. For instructions
            // other than [ADD, MAD, SAD, SUB], the overflow and carry flags
            // (OF and CF) are cleared."
            _ => {
                let add = add.unwrap_or_default();
                CcComp {
                    flags: CcFlags {
                        sf: bits >> (width - 1) & 1 != 0,
                        zf: bits == 0,
                        of: add.overflow,
                        cf: add.carry,
                    },
                    undefined: if add.undefined { OF | CF } else { 0 },
                }
            }
        }
    }

    /// Updates the flags of the written components from `flags(c)`:
    /// "The components of the selected condition code register are updated
    /// if and only if the corresponding component of the destination
    /// variable are enabled by both write masks" (section 2.X.4.3).
    fn update_cc(
        &mut self,
        inst: &Instruction,
        mask: u8,
        uncertain: u8,
        flags: impl Fn(usize) -> CcComp,
    ) -> Result<Option<TraceCc>> {
        let Some(reg) = inst.cc_update else {
            return Ok(None);
        };
        let r = self.cc_reg(reg, inst.span)?;
        for c in 0..4 {
            let bit = 1u8 << c;
            if mask & bit != 0 {
                self.cc[r][c] = flags(c);
            }
            if uncertain & bit != 0 {
                self.cc[r][c].undefined = 0xf;
            }
        }
        Ok(Some(TraceCc {
            reg,
            mask: mask | uncertain,
            flags: self.cc[r].map(|c| c.flags),
        }))
    }

    fn exec_instruction(&mut self, inst: &Instruction) -> Result<()> {
        if inst.result64() {
            return self.exec_instruction64(inst);
        }
        let mut srcs = Vec::with_capacity(inst.srcs.len());
        // LDC's one "source" carries only its operand's modifiers, applied
        // to what it loads (constant_load).
        let srcs_to_load = if inst.op == Opcode::Ldc {
            &[][..]
        } else {
            &inst.srcs[..]
        };
        for s in srcs_to_load {
            let mut v = self.load(s)?;
            if inst.fixed && s.ty == DataType::Float {
                for b in v.bits.iter_mut() {
                    *b = alu::to_fixed(f32::from_bits(*b)).to_bits();
                }
            }
            srcs.push(v);
        }
        let eval = match &inst.memory {
            Some(m) if m.atomic.is_none() => {
                alu::Eval::plain(wide::demote(self.memory_load(inst, m)?, inst.dst.ty))
            }
            Some(m) => alu::Eval::plain(self.memory_instruction(inst, m, &srcs)?),
            None if inst.op == Opcode::Loadim => alu::Eval::plain(self.image_load(inst, &srcs[0])?),
            None if inst.op == Opcode::Atomim => {
                alu::Eval::plain(self.image_atomic(inst, &srcs[0], &srcs[1])?)
            }
            // UP64's operand is 64-bit (a LONG variable, E1161).
            None if inst.op == Opcode::Up64 => {
                alu::Eval::plain(wide::unpack64(self.load64(&inst.srcs[0])?))
            }
            None if inst.op == Opcode::Cvt => {
                alu::Eval::plain(wide::demote(self.cvt(inst)?, inst.dst.ty))
            }
            None => alu::evaluate(inst, &srcs, self.options.wide_intermediates)?,
        };
        let mut value = eval.value;
        if self.program.dialect.exp_log_special_values() {
            alu::nv_vertex_program_special_values(inst.op, &mut value);
        }
        // X precision: the result is fixed point too (3.11.4.X), before
        // any clamp.
        if inst.fixed && inst.dst.ty == DataType::Float {
            for b in value.bits.iter_mut() {
                *b = alu::to_fixed(f32::from_bits(*b)).to_bits();
            }
        }
        // Section 2.X.4.1: SAT/SSAT clamp floating-point results before
        // the condition code and destination updates.
        // (CVT to F16 clamps before rounding: `cvt`.)
        let half_result = inst.convert.is_some_and(|c| c.to.is_half());
        if let (Some(clamp), DataType::Float, false) = (inst.clamp, inst.dst.ty, half_result) {
            let lo = match clamp {
                Clamp::Sat => 0.0,
                Clamp::Ssat => -1.0,
            };
            for (c, b) in value.bits.iter_mut().enumerate() {
                let x = f32::from_bits(*b);
                // Clamping a NaN is not defined; the value is nvp4c's
                // (docs/semantics.md: SAT gives 0, SSAT -1).
                let clamped = if x.is_nan() {
                    value.undefined |= 1 << c;
                    lo
                } else {
                    x.clamp(lo, 1.0)
                };
                *b = clamped.to_bits();
            }
        }
        let (mask, uncertain) = self.written_components(inst)?;
        let target = self.store(&inst.dst, &value, mask, uncertain)?;
        // CVT's F16 result sets the flags of the 16-bit float its low bits
        // encode (docs/semantics.md, "CVT").
        let flag_bits = |c: usize| match half_result {
            true => half::half_to_f32(value.bits[c] as u16).to_bits(),
            false => value.bits[c],
        };
        let trace_cc = self.update_cc(inst, mask, uncertain, |c| {
            let add = eval.add_flags.map(|f| f[c]);
            let mut comp = Self::flags_of(u64::from(flag_bits(c)), 32, inst.dst.ty, add);
            if value.is_undefined(c) {
                comp.undefined = 0xf;
            }
            comp
        })?;
        if self.tracing() {
            let undefined = value.undefined | uncertain;
            self.trace_write(inst, target, mask, value.bits, undefined, trace_cc);
        }
        Ok(())
    }

    /// The trace step of an instruction that wrote `bits` (its
    /// destination's `mask` components) to `target`.
    fn trace_write(
        &mut self,
        inst: &Instruction,
        target: String,
        mask: u8,
        bits: [u32; 4],
        undefined: u8,
        cc: Option<TraceCc>,
    ) {
        let write = TraceWrite {
            target,
            mask,
            bits,
            ty: inst.dst.ty,
            undefined,
        };
        self.push_trace(TraceStep {
            span: inst.span,
            what: describe(inst),
            write: Some(write),
            cc,
        });
    }

    fn tracing(&self) -> bool {
        self.options.trace
    }

    fn push_trace(&mut self, step: TraceStep) {
        if self.outcome.trace.len() < self.options.max_trace {
            self.outcome.trace.push(step);
        } else {
            self.outcome.trace_truncated = true;
        }
    }

    fn trace_flow(&mut self, span: Span, what: impl FnOnce() -> String) {
        if self.tracing() {
            let what = what();
            self.push_trace(TraceStep {
                span,
                what,
                write: None,
                cc: None,
            });
        }
    }

    /// An optional `(ccTest)` of BRK, CONT, RET, CAL.
    fn optional_test(&mut self, cond: &Option<CcTest>, span: Span, what: &str) -> Result<bool> {
        match cond {
            None => Ok(true),
            Some(t) => self.test_passes(t, span, what),
        }
    }

    fn snapshot_results(&self) -> BTreeMap<String, ResultValue> {
        self.results
            .iter()
            .map(|s| (s.name.clone(), s.snapshot()))
            .collect()
    }

    /// Runs the entry subroutine to its end, a RET with an empty call
    /// stack, a KIL, or an early end (a call past the depth limit where
    /// that ends the program, an address stack error).
    pub(super) fn run(mut self) -> Result<Outcome> {
        let entry = self
            .program
            .subroutines
            .get(self.program.entry.0 as usize)
            .ok_or_else(|| internal("the entry subroutine does not exist", Span::default()))?;
        let mut frames: Vec<Frame<'p>> = vec![Frame {
            stmts: &entry.body,
            pc: 0,
            kind: FrameKind::Subroutine(self.program.entry),
        }];
        self.execute(&mut frames)?;
        self.outcome.results = self.snapshot_results();
        Ok(self.outcome)
    }

    fn subroutine(&self, id: SubId, span: Span) -> Result<&'p crate::ir::Subroutine> {
        self.program
            .subroutines
            .get(id.0 as usize)
            .ok_or_else(|| internal("a missing subroutine", span))
    }

    /// Writes a LOOP's index into its variable: "The value of A0.x is
    /// clamped to be greater than or equal to 0" (NV_fragment_program2
    /// 3.11.3.Y).
    fn set_loop_index(&mut self, ix: LoopIndex) {
        let v = ix.value.clamp(0, i64::from(i32::MAX)) as i32 as u32;
        if let Some(Storage::Temp(elems)) = self.storage.get_mut(ix.var.0 as usize) {
            if let Some(e) = elems.first_mut() {
                *e = Vec4::defined([v; 4]);
            }
        }
    }

    /// Ends the program abnormally: the spec leaves its results undefined
    /// (NV_vertex_program2_option, NV_vertex_program3); the run stops with
    /// the results as they are, and the event is recorded.
    fn abnormal_end(&mut self, span: Span, what: String) -> Flow {
        self.undefined_event(span, format!("{what}; the program ends abnormally"));
        self.trace_flow(span, || format!("{what}: the program ends"));
        Flow::End
    }

    /// Runs until the frame stack is empty or the program ends early (RET
    /// in the entry, KIL, call depth exceeded).
    fn execute(&mut self, frames: &mut Vec<Frame<'p>>) -> Result<()> {
        loop {
            let Some(top) = frames.last_mut() else {
                return Ok(());
            };
            if top.pc >= top.stmts.len() {
                match &mut top.kind {
                    FrameKind::Branch => {
                        frames.pop();
                    }
                    FrameKind::Loop {
                        remaining,
                        index,
                        span,
                    } => {
                        // ENDREP/ENDLOOP (section 2.X.8.Z; NV_fragment_program2
                        // 3.11.X.5): with a count, decrement (and step the
                        // index) and repeat while it stays positive; without
                        // one, always repeat.
                        let span = *span;
                        let again = match remaining {
                            Some(n) => {
                                *n -= 1;
                                *n > 0
                            }
                            None => true,
                        };
                        let left = *remaining;
                        if let Some(ix) = index {
                            ix.value = ix.value.saturating_add(ix.increment);
                        }
                        let index = *index;
                        if again {
                            top.pc = 0;
                            if let Some(ix) = index {
                                self.set_loop_index(ix);
                            }
                        } else {
                            frames.pop();
                        }
                        self.step()?;
                        let end = if index.is_some() { "ENDLOOP" } else { "ENDREP" };
                        self.trace_flow(span, || match (again, left, index) {
                            (true, Some(n), Some(ix)) => {
                                format!("{end}: repeat ({n} left, A0.x = {})", ix.value.max(0))
                            }
                            (true, Some(n), None) => format!("{end}: repeat ({n} left)"),
                            (true, None, _) => format!("{end}: repeat"),
                            (false, _, _) => format!("{end}: loop done"),
                        });
                    }
                    FrameKind::Subroutine(sub) => {
                        let sub = *sub;
                        match self.subroutine(sub, Span::default())?.end {
                            // The end of a subroutine (the next label, or
                            // the end of the program) returns as a RET
                            // would (section 2.X.8.Z, CAL).
                            SubroutineEnd::Return => {
                                frames.pop();
                                if frames.is_empty() {
                                    return Ok(());
                                }
                                self.stack.pop();
                            }
                            // The NV options: execution runs on past the label.
                            SubroutineEnd::Continue(next) => {
                                let body = &self.subroutine(next, Span::default())?.body;
                                if let Some(top) = frames.last_mut() {
                                    top.stmts = body;
                                    top.pc = 0;
                                    top.kind = FrameKind::Subroutine(next);
                                }
                            }
                            // "A vertex program will also terminate after
                            // executing the last instruction in the program".
                            SubroutineEnd::EndProgram => return Ok(()),
                        }
                    }
                }
                continue;
            }
            let stmt: &'p Stmt = &top.stmts[top.pc];
            top.pc += 1;
            self.step()?;
            if self.statement(stmt, frames)? == Flow::End {
                return Ok(());
            }
        }
    }

    /// CAL of `target` (and CALI, once its target is known): section
    /// 2.X.8.Z, CAL, with the call depth limit of `ir::CallOverflow`.
    fn call(
        &mut self,
        target: SubId,
        cond: &Option<CcTest>,
        span: Span,
        frames: &mut Vec<Frame<'p>>,
    ) -> Result<Flow> {
        let taken = self.optional_test(cond, span, "CAL")?;
        let sub = self.subroutine(target, span)?;
        let name = sub.name.clone().unwrap_or_default();
        if !taken {
            self.trace_flow(span, || format!("CAL {name}: condition false, not called"));
            return Ok(Flow::Continue);
        }
        if self.stack.len() as u64 >= u64::from(self.options.max_call_depth) {
            let depth = self.options.max_call_depth;
            if self.program.call_overflow == CallOverflow::End {
                // NV_vertex_program2_option 2.14.5.31 / NV_fragment_program2
                // 3.11.X.2: "terminate ... program".
                return Ok(self.abnormal_end(
                        span,
                        format!("CAL {name} with {depth} entries on the call stack (MAX_PROGRAM_CALL_DEPTH)"),
                    ));
            }
            // Section 2.X.8.Z, CAL: undefined results. Issue 38:
            // "In the initial implementation of this extension,
            // such instructions will have no effect."
            self.undefined_event(
                    span,
                    format!("CAL {name} with {depth} calls active (MAX_PROGRAM_CALL_DEPTH); the call has no effect (issue 38)"),
                );
            self.trace_flow(span, || {
                format!("CAL {name}: call depth limit {depth} reached, no effect")
            });
            return Ok(Flow::Continue);
        }
        self.stack.push(StackEntry::Call);
        let depth = self.stack.len();
        self.trace_flow(span, || format!("CAL {name} (call depth {depth})"));
        frames.push(Frame {
            stmts: &sub.body,
            pc: 0,
            kind: FrameKind::Subroutine(target),
        });
        Ok(Flow::Continue)
    }

    /// The subroutine a CALI calls (ARB_shader_subroutine, NV_gpu_program5
    /// edits, 2.X.5): the candidate whose SUBROUTINENUM the subroutine
    /// parameter's `x` holds, or the first candidate when none has it
    /// (`ir::Stmt::CallIndirect`).
    fn indirect_target(
        &mut self,
        selector: &Operand,
        targets: &[(u32, SubId)],
        span: Span,
    ) -> Result<SubId> {
        let v = self.load(selector)?;
        let first = targets
            .first()
            .map(|&(_, t)| t)
            .ok_or_else(|| InterpError::Unsupported {
                what: "CALI without a candidate".into(),
                span,
            })?;
        let chosen = targets
            .iter()
            .find(|&&(n, _)| n == v.bits[0])
            .map(|&(_, t)| t);
        if chosen.is_none() {
            self.undefined_event(
                span,
                format!("CALI: subroutine parameter {} is no SUBROUTINENUM of the type; the first candidate is called (issue (4))", v.bits[0]),
            );
        }
        Ok(chosen.unwrap_or(first))
    }

    /// Executes one statement, pushing or popping frames for flow control.
    fn statement(&mut self, stmt: &'p Stmt, frames: &mut Vec<Frame<'p>>) -> Result<Flow> {
        match stmt {
            Stmt::Inst(inst) => self.exec_instruction(inst)?,
            Stmt::If {
                test,
                then_block,
                else_block,
                span,
            } => {
                let taken = self.test_passes(test, *span, "IF")?;
                self.trace_flow(*span, || {
                    if taken {
                        "IF: condition true".into()
                    } else if else_block.is_empty() {
                        "IF: condition false, skipped".into()
                    } else {
                        "IF: condition false, ELSE block runs".into()
                    }
                });
                let block = if taken { then_block } else { else_block };
                if !block.is_empty() {
                    frames.push(Frame {
                        stmts: block,
                        pc: 0,
                        kind: FrameKind::Branch,
                    });
                }
            }
            Stmt::Rep {
                count,
                count64,
                body,
                span,
            } => {
                let remaining = match count {
                    None => None,
                    Some(op) => Some(self.loop_count(op, *count64, *span)?),
                };
                self.trace_flow(*span, || match remaining {
                    None => "REP: no count, runs until BRK or RET".into(),
                    Some(n) if n <= 0 => format!("REP: count {n}, loop skipped"),
                    Some(n) => format!("REP: {n} iteration{}", if n == 1 { "" } else { "s" }),
                });
                // "If the initial value of the loop count is not
                // positive, the entire block is skipped."
                if remaining.is_none_or(|n| n > 0) {
                    frames.push(Frame {
                        stmts: body,
                        pc: 0,
                        kind: FrameKind::Loop {
                            remaining,
                            index: None,
                            span: *span,
                        },
                    });
                }
            }
            Stmt::Loop {
                control,
                index,
                body,
                span,
            } => {
                // NV_fragment_program2 3.11.X.8: "LoopCount = floor(op0.x);
                // LoopIndex = floor(op0.y); LoopIncr = floor(op0.z); if
                // (LoopCount <= 0) continue execution at the corresponding
                // ENDLOOP".
                let v = self.load(control)?;
                if v.any_undefined(0x7) {
                    self.undefined_event(
                        *span,
                        "LOOP with an undefined count, index or increment".into(),
                    );
                }
                let floor = |c: usize| -> i64 {
                    match control.ty {
                        DataType::Float => v.f(c).floor() as i64,
                        DataType::Signed => i64::from(v.i(c)),
                        DataType::Unsigned => i64::from(v.u(c)),
                    }
                };
                let (count, first, increment) = (floor(0), floor(1), floor(2));
                self.trace_flow(*span, || {
                    if count <= 0 {
                        format!("LOOP: count {count}, loop skipped")
                    } else {
                        format!(
                            "LOOP: {count} iteration{}, A0.x from {first} by {increment}",
                            if count == 1 { "" } else { "s" }
                        )
                    }
                });
                if count > 0 {
                    let ix = LoopIndex {
                        var: *index,
                        value: first,
                        increment,
                    };
                    self.set_loop_index(ix);
                    frames.push(Frame {
                        stmts: body,
                        pc: 0,
                        kind: FrameKind::Loop {
                            remaining: Some(count),
                            index: Some(ix),
                            span: *span,
                        },
                    });
                }
            }
            Stmt::Break { cond, span } => {
                let taken = self.optional_test(cond, *span, "BRK")?;
                self.trace_flow(*span, || taken_text("BRK", taken, cond.is_some()));
                if taken {
                    // Continue after the innermost ENDREP or ENDLOOP.
                    while let Some(f) = frames.pop() {
                        if matches!(f.kind, FrameKind::Loop { .. }) {
                            break;
                        }
                    }
                }
            }
            Stmt::Continue { cond, span } => {
                let taken = self.optional_test(cond, *span, "CONT")?;
                self.trace_flow(*span, || taken_text("CONT", taken, cond.is_some()));
                if taken {
                    // Jump to the innermost ENDREP.
                    while let Some(f) = frames.last_mut() {
                        if matches!(f.kind, FrameKind::Loop { .. }) {
                            f.pc = f.stmts.len();
                            break;
                        }
                        frames.pop();
                    }
                }
            }
            Stmt::Return { cond, span } => {
                let taken = self.optional_test(cond, *span, "RET")?;
                let in_entry = self.stack.is_empty();
                self.trace_flow(*span, || {
                    let t = taken_text("RET", taken, cond.is_some());
                    if taken && in_entry {
                        format!("{t}; the call stack is empty, so the program ends")
                    } else {
                        t
                    }
                });
                if taken {
                    match self.stack.pop() {
                        None => return Ok(Flow::End),
                        // NV_vertex_program3 2.14.5.34: "The vertex program
                        // terminates abnormally if the entry at the top of
                        // the call stack is not an instruction reference
                        // pushed by CAL."
                        Some(StackEntry::Address(_)) => {
                            return Ok(self.abnormal_end(
                                *span,
                                "RET with an address register (PUSHA) on top of the call stack"
                                    .into(),
                            ))
                        }
                        Some(StackEntry::Call) => {
                            // Leaves every IF and REP of the subroutine.
                            while let Some(f) = frames.pop() {
                                if matches!(f.kind, FrameKind::Subroutine(_)) {
                                    break;
                                }
                            }
                        }
                    }
                }
            }
            Stmt::CallIndirect {
                selector,
                targets,
                cond,
                span,
            } => {
                let target = self.indirect_target(selector, targets, *span)?;
                return self.call(target, cond, *span, frames);
            }
            Stmt::Call { target, cond, span } => return self.call(*target, cond, *span, frames),
            Stmt::Branch { target, cond, span } => {
                // NV_vertex_program2_option 2.14.4.3: "a vertex program will
                // terminate abnormally after executing
                // MAX_PROGRAM_EXEC_INSTRUCTIONS instructions"; checked at
                // each BRA, the only way back (docs/semantics.md, "Branches").
                let limit = u64::from(self.options.max_exec_instructions);
                if self.exec_limited && self.outcome.steps >= limit {
                    return Ok(self.abnormal_end(
                        *span,
                        format!("BRA after {limit} instructions executed (MAX_PROGRAM_EXEC_INSTRUCTIONS)"),
                    ));
                }
                let taken = self.optional_test(cond, *span, "BRA")?;
                let sub = self.subroutine(*target, *span)?;
                let name = sub.name.clone().unwrap_or_default();
                self.trace_flow(*span, || {
                    if taken {
                        format!("BRA {name}: branch taken")
                    } else {
                        format!("BRA {name}: condition false, not taken")
                    }
                });
                if taken {
                    // Execution continues after the label; the call stack
                    // is unchanged (NV_vertex_program2_option 2.14.5.30).
                    while let Some(f) = frames.last() {
                        if matches!(f.kind, FrameKind::Subroutine(_)) {
                            break;
                        }
                        frames.pop();
                    }
                    if let Some(top) = frames.last_mut() {
                        top.stmts = &sub.body;
                        top.pc = 0;
                        top.kind = FrameKind::Subroutine(*target);
                    }
                }
            }
            Stmt::PushAddress { value, span } => {
                let v = self.load(value)?;
                // NV_vertex_program3 2.14.5.44: "if (callStackDepth >=
                // MAX_PROGRAM_CALL_DEPTH_NV) { terminate vertex program; }"
                if self.stack.len() as u64 >= u64::from(self.options.max_call_depth) {
                    return Ok(self.abnormal_end(*span, "PUSHA on a full call stack".into()));
                }
                self.stack.push(StackEntry::Address(v));
                let depth = self.stack.len();
                self.trace_flow(*span, || format!("PUSHA (call stack depth {depth})"));
            }
            Stmt::PopAddress { dst, span } => match self.stack.last().copied() {
                Some(StackEntry::Address(v)) => {
                    self.stack.pop();
                    let target = self.store(dst, &v, 0xf, 0)?;
                    if self.tracing() {
                        self.push_trace(TraceStep {
                            span: *span,
                            what: "POPA".into(),
                            write: Some(TraceWrite {
                                target,
                                mask: 0xf,
                                bits: v.bits,
                                ty: DataType::Signed,
                                undefined: v.undefined,
                            }),
                            cc: None,
                        });
                    }
                }
                // 2.14.5.43: "The vertex program terminates abnormally if
                // it executes a POPA instruction when the call stack is
                // empty, or when the entry at the top of the call stack is
                // not an address register pushed by PUSHA."
                Some(StackEntry::Call) => {
                    return Ok(self.abnormal_end(
                        *span,
                        "POPA with a CAL's return on top of the call stack".into(),
                    ))
                }
                None => return Ok(self.abnormal_end(*span, "POPA on an empty call stack".into())),
            },
            Stmt::Kill { cond, span } => {
                let kill = match cond {
                    KillCondition::Cc(t) => self.test_passes(t, *span, "KIL")?,
                    KillCondition::Operand(op) => {
                        // "the fragment is discarded if any of its
                        // components are negative"
                        let v = self.load(op)?;
                        let neg = |c: usize| value::is_negative(v.bits[c], op.ty);
                        let defined_neg = (0..4).any(|c| neg(c) && !v.is_undefined(c));
                        if !defined_neg && v.undefined != 0 {
                            self.undefined_event(
                                *span,
                                "KIL tests a value that is undefined".into(),
                            );
                        }
                        (0..4).any(neg)
                    }
                };
                self.trace_flow(*span, || {
                    if kill {
                        "KIL: fragment discarded, the program ends".into()
                    } else {
                        "KIL: fragment kept".into()
                    }
                });
                if kill {
                    self.outcome.killed = true;
                    return Ok(Flow::End);
                }
            }
            Stmt::Emit { span } | Stmt::EmitStream { span, .. } => {
                // EMITS (NV_gpu_program5 2.X.8.Z): "If the specified stream
                // is negative or greater than or equal to ...
                // MAX_VERTEX_STREAMS_NV, the results of the instruction are
                // undefined"; here such a vertex is dropped, as on the device.
                let stream = match stmt {
                    Stmt::EmitStream { stream, .. } => {
                        let s = self.load(stream)?.bits[0] as i32;
                        if !(0..crate::spirv::MAX_VERTEX_STREAMS as i32).contains(&s) {
                            self.undefined_event(
                                *span,
                                format!(
                                    "EMITS to stream {s}, outside 0 to {}; the vertex is dropped",
                                    crate::spirv::MAX_VERTEX_STREAMS - 1
                                ),
                            );
                            None
                        } else {
                            Some(s as u32)
                        }
                    }
                    _ => Some(0),
                };
                // NV_geometry_program4: "Once a geometry program emits a
                // number of vertices equal to the vertex limit,
                // subsequent EMIT instructions may or may not have any
                // effect." Here they have none (and are reported).
                let limit = self.program.geometry.map_or(u32::MAX, |g| g.vertices_out);
                match stream {
                    None => {}
                    Some(_) if self.outcome.vertices.len() as u64 >= u64::from(limit) => {
                        self.undefined_event(
                            *span,
                            format!("EMIT past VERTICES_OUT {limit}; the vertex is dropped"),
                        );
                    }
                    Some(stream) => {
                        let results = self.snapshot_results();
                        self.outcome.vertices.push(EmittedVertex {
                            primitive: self.primitive,
                            stream,
                            results,
                        });
                    }
                }
                // "After the EMIT instruction completes, a new vertex is
                // started and all result variables become undefined."
                for slot in &mut self.results {
                    slot.value.undefined = 0xf;
                    slot.written = 0;
                }
                let n = self.outcome.vertices.len();
                let p = self.primitive;
                self.trace_flow(*span, || format!("EMIT: vertex {n} of primitive {p}"));
            }
            Stmt::Store { value, memory, .. } => {
                let v = if memory.bits == 64 {
                    self.load64(value)?
                } else {
                    wide::promote(self.load(value)?, value.ty)
                };
                self.memory_store(memory, v)?;
            }
            Stmt::ImageStore {
                value,
                coord,
                image,
                span,
            } => self.image_store(image, value, coord, *span)?,
            // One invocation: nothing to wait for (BAR), and its own
            // memory transactions are already in program order (MEMBAR).
            Stmt::Barrier { .. } => {}
            Stmt::EndPrimitive { span } => {
                self.primitive = self.primitive.saturating_add(1);
                let p = self.primitive;
                self.trace_flow(*span, || format!("ENDPRIM: primitive {p} starts"));
            }
        }
        Ok(Flow::Continue)
    }

    /// The REP count (section 2.X.8.Z, REP): "If the loop count is
    /// specified as a floating-point value, it is converted to the largest
    /// integer less than or equal to the specified value".
    /// REP's count; `count64`: a LONG register's, read at 64 bits.
    fn loop_count(&mut self, op: &Operand, count64: bool, span: Span) -> Result<i64> {
        let v = if count64 {
            self.load64(op)?
        } else {
            wide::promote(self.load(op)?, op.ty)
        };
        if v.undefined & 1 != 0 {
            self.undefined_event(span, "REP with an undefined loop count".into());
        }
        let x = v.bits[0];
        Ok(match op.ty {
            DataType::Float => {
                let x = f64::from_bits(x).floor();
                if x.is_nan() {
                    self.undefined_event(span, "REP with a NaN loop count (skipped)".into());
                }
                // Saturating: +INF loops until the step limit.
                x as i64
            }
            DataType::Signed => x as i64,
            // Saturating: a count above 2^63 loops until the step limit.
            DataType::Unsigned => i64::try_from(x).unwrap_or(i64::MAX),
        })
    }

    fn step(&mut self) -> Result<()> {
        self.outcome.steps += 1;
        if self.outcome.steps > self.options.max_steps {
            self.outcome.steps = self.options.max_steps;
            let mut partial = std::mem::take(&mut self.outcome);
            partial.results = self.snapshot_results();
            return Err(InterpError::StepLimit {
                limit: self.options.max_steps,
                partial: Box::new(partial),
            });
        }
        Ok(())
    }
}

/// Writes the components of `mask` of `value` into a LONG element;
/// `uncertain` ones become undefined whether written or not.
fn store_components(
    bits: &mut [u64; 4],
    undefined: &mut u8,
    value: &Wide4,
    mask: u8,
    uncertain: u8,
) {
    for (c, (slot, &new)) in bits.iter_mut().zip(&value.bits).enumerate() {
        let bit = 1u8 << c;
        if mask & bit != 0 {
            *slot = new;
            *undefined = (*undefined & !bit) | (value.undefined & bit);
        }
        if uncertain & bit != 0 {
            *undefined |= bit;
        }
    }
}

fn taken_text(op: &str, taken: bool, conditional: bool) -> String {
    match (taken, conditional) {
        (true, false) => op.to_string(),
        (true, true) => format!("{op}: condition true"),
        (false, _) => format!("{op}: condition false, no effect"),
    }
}

/// The value of one attribute binding for input vertex `vertex`.
/// The input names of an attribute binding: its own, then its aliases.
fn attribute_names(stage: Stage, binding: &AttribBinding) -> Vec<String> {
    let mut v = vec![attribute_name(stage, binding)];
    v.extend(attribute_aliases(stage, binding));
    v
}

fn attribute_value(
    program: &Program,
    inputs: &Inputs,
    binding: &AttribBinding,
    vertex: u32,
    two_sided: bool,
) -> Vec4 {
    // GL's two-sided colour selection (RunOptions::two_sided_color): a
    // back-facing fragment (fragment.facing.x < 0) reads the back colour,
    // given as `fragment.color.back[.secondary]`.
    if let (true, crate::isa::Stage::Fragment, AttribBinding::Color(sel)) =
        (two_sided, program.stage, binding)
    {
        let back_facing = inputs
            .attribs
            .get("fragment.facing")
            .is_some_and(|f| f32::from_bits(f[0]) < 0.0);
        if back_facing && !sel.back {
            let back = AttribBinding::Color(crate::ir::ColorSel {
                back: true,
                secondary: sel.secondary,
            });
            return attribute_value(program, inputs, &back, vertex, false);
        }
    }
    let names: Vec<String> = match binding {
        AttribBinding::PerVertex {
            vertex: None,
            binding,
        } => vec![per_vertex_name(vertex, binding)],
        // A control program's output patch, vertex `vertex` (the other
        // invocations' results are inputs of a single-invocation run).
        AttribBinding::OutputVertex {
            vertex: None,
            binding,
        } => vec![attribute_name(
            program.stage,
            &AttribBinding::OutputVertex {
                vertex: Some(vertex),
                binding: *binding,
            },
        )],
        b => attribute_names(program.stage, b),
    };
    let bits = names
        .iter()
        .find_map(|n| inputs.attribs.get(n))
        .copied()
        .unwrap_or([0; 4]);
    let undefined = names
        .iter()
        .find_map(|n| inputs.undefined_attribs.get(n))
        .copied()
        .unwrap_or(0)
        & 0xf;
    // NV_shader_thread_group 2.X.3.2: (id,-,-,-); the interpreter runs one
    // thread, thread 0 of its group, unless the inputs say otherwise.
    if let AttribBinding::Thread(t) = binding {
        let given = names.iter().any(|n| inputs.attribs.contains_key(n));
        let x = if given {
            bits[0]
        } else {
            t.single_thread_value()
        };
        return Vec4 {
            bits: [x, 0, 0, 0],
            undefined: (undefined & 1) | 0b1110,
        };
    }
    // NV_gpu_program5: fragment.sampleid (id,-,-,-), fragment.samplemask
    // (m,-,-,-). Unless the inputs say otherwise the run is sample 0 of a
    // fragment that covers it: "If multisample buffers are not available
    // (SAMPLE_BUFFERS is zero), bit zero indicates if the center of the
    // pixel ... is covered".
    if matches!(binding, AttribBinding::SampleId | AttribBinding::SampleMask) {
        let given = names.iter().any(|n| inputs.attribs.contains_key(n));
        let x = match binding {
            AttribBinding::SampleMask if !given => 1,
            _ => bits[0],
        };
        return Vec4 {
            bits: [x, 0, 0, 0],
            undefined: (undefined & 1) | 0b1110,
        };
    }
    // A geometry program's primitive.vertexcount is PRIMITIVE_IN's vertex
    // count (NV_gpu_program5 2.X.3.2), as the backend's constant.
    if let (AttribBinding::VertexCount, Some(layout)) = (binding, program.geometry) {
        return Vec4 {
            bits: [layout.input.vertex_count(), 0, 0, 0],
            undefined: 0b1110,
        };
    }
    // fragment.pointcoord is (s, t, -, -); z and w read 0, as the
    // backend's PointCoord (docs/interface.md).
    if *binding == AttribBinding::PointCoord {
        return Vec4 {
            bits: [bits[0], bits[1], 0, 0],
            undefined: undefined & 0b11,
        };
    }
    // vertex.fogcoord and fragment.fogcoord are (f, 0, 0, 1)
    // (ARB_vertex_program, ARB_fragment_program; the backend's
    // IoShape::FogCoord).
    if *binding == AttribBinding::FogCoord {
        return Vec4 {
            bits: [bits[0], 0, 0, 1f32.to_bits()],
            undefined: undefined & 1,
        };
    }
    Vec4 { bits, undefined }
}

/// The opcode with its modifiers, e.g. `ADD.S.CC1.SAT`.
fn describe(inst: &Instruction) -> String {
    let info = inst.op.info();
    let mut s = info.name.to_string();
    if inst.ty != info.default_type || inst.mul_mode.is_some() {
        match inst.mul_mode {
            Some(crate::ir::MulMode::S24) => s.push_str(".S24"),
            Some(crate::ir::MulMode::U24) => s.push_str(".U24"),
            Some(crate::ir::MulMode::Hi) => s.push_str(match inst.ty {
                DataType::Unsigned => ".U.HI",
                _ => ".S.HI",
            }),
            None => s.push_str(match inst.ty {
                DataType::Float => ".F",
                DataType::Signed => ".S",
                DataType::Unsigned => ".U",
            }),
        }
    }
    if let Some(r) = inst.cc_update {
        s.push_str(&format!(".CC{}", r.0));
    }
    match inst.clamp {
        Some(Clamp::Sat) => s.push_str(".SAT"),
        Some(Clamp::Ssat) => s.push_str(".SSAT"),
        None => {}
    }
    s
}

/// Where a memory access goes: a storage buffer (by binding), shared
/// memory, an atomic counter buffer or (LDC) a parameter buffer.
#[derive(Clone, Copy)]
enum Target {
    Buffer(u32),
    Shared,
    /// An atomic counter buffer.
    Counter(u32),
    /// A parameter buffer ([`Inputs::buffers`]): read only, its missing
    /// words undefined rather than zero.
    Constant(u32),
    /// The region of [`Outcome::global`] that starts at this address.
    Global(u64),
}

/// The bytes one access covers (NV_gpu_program5 2.X.4.5: component size
/// times count).
fn access_bytes(m: &crate::ir::MemoryAccess) -> usize {
    usize::from(m.bits) / 8 * usize::from(m.components)
}

/// The 32-bit words an access covers (a narrower access lies within one).
fn access_words(m: &crate::ir::MemoryAccess) -> usize {
    access_bytes(m).div_ceil(4)
}

/// One access's place: its target, its first byte (rounded down to its
/// size, at most a word, as the backend does: an unaligned address is
/// undefined, NV_gpu_program5_mem_extended 2.X.4.5), and whether the words
/// it touches are inside the memory.
#[derive(Clone, Copy)]
struct Place {
    target: Target,
    byte: usize,
    inside: bool,
}

/// NV_shader_storage_buffer_object's memory instructions on
/// [`Outcome::storage`] (byte offsets; "reads from the binding return zero
/// and writes to the binding have no effect" past the buffer's end), and
/// NV_compute_program5's on [`Outcome::shared`]: the one invocation's work
/// group's shared memory, bytes that are undefined until written; a
/// register offset beyond SHARED_MEMORY reads zero and writes nothing, as
/// the backend does (docs/semantics.md, "Shared memory"). LDC reads
/// [`Inputs::buffers`], undefined as a whole where any of its bytes is
/// missing. An access is inside only if all its words are
/// (docs/semantics.md, "Accesses partly outside their memory").
impl Machine<'_> {
    /// The binding point a register picks in a range of buffers: its x
    /// (a signed integer) plus the constant, clamped into the range; and
    /// whether the register's x is undefined.
    fn picked_binding_point(&mut self, select: &crate::ir::BufferSelect) -> Result<(usize, bool)> {
        let index = self.load(&select.index)?;
        let x = i64::from(index.bits[0] as i32);
        let last = select.vars.len().max(1) as i64 - 1;
        let k = (x + i64::from(select.constant)).clamp(0, last) as usize;
        Ok((k, index.is_undefined(0)))
    }

    /// Where an access goes.
    fn memory_place(&mut self, m: &crate::ir::MemoryAccess) -> Result<Place> {
        // A STORAGE range's binding point picked by a register, clamped
        // into the range as the device does (docs/semantics.md).
        let var = match m.buffer_select.as_deref() {
            Some(select) => {
                let (k, _) = self.picked_binding_point(select)?;
                select.vars.get(k).copied().unwrap_or(m.var)
            }
            None => m.var,
        };
        let target = match self.storage[var.0 as usize] {
            Storage::Memory(binding) => Target::Buffer(binding),
            Storage::Counter(binding) => Target::Counter(binding),
            Storage::Shared => Target::Shared,
            Storage::ConstantBuffer(binding) => Target::Constant(binding),
            Storage::Global => return self.global_place(m),
            _ => {
                return Err(internal(
                    "a memory access to a non-STORAGE, non-SHARED, non-CBUFFER variable",
                    m.address.as_ref().map_or(Span::default(), |a| a.span),
                ))
            }
        };
        let mut byte = u64::from(m.offset);
        match (&m.address, m.counter_select) {
            // A register-indexed COUNTER array: the element, clamped into
            // the array as the device does (docs/semantics.md).
            (Some(a), Some((constant, len))) => {
                let x = i64::from(self.load(a)?.bits[0] as i32);
                let element = (x + i64::from(constant)).clamp(0, i64::from(len.max(1)) - 1);
                byte += 4 * element as u64;
            }
            (Some(a), None) => byte += u64::from(self.load(a)?.bits[0]),
            (None, _) => {}
        }
        let bytes = access_bytes(m);
        // A 64-bit access rounds down to a multiple of 8 bytes, as the
        // backend does; the others to their size, at most a word.
        let align = if m.bits == 64 { 8 } else { bytes.min(4) as u64 };
        let aligned = byte / align * align;
        let words = bytes.div_ceil(4);
        let len = match target {
            Target::Buffer(binding) => self.outcome.storage.get(&binding).map_or(0, Vec::len),
            Target::Counter(binding) => self.outcome.counters.get(&binding).map_or(0, Vec::len),
            Target::Shared => self.outcome.shared.len() / 4,
            Target::Constant(binding) => self.inputs.buffers.get(&binding).map_or(0, Vec::len),
            Target::Global(..) => 0,
        };
        let index = (aligned / 4) as usize;
        let mut inside = byte <= u64::from(u32::MAX) && index + words <= len;
        if let (VarKind::ConstantBuffer(b), Some(_)) = (&self.program.var(var).kind, &m.address) {
            // An LDC with a register offset is also outside past its
            // CBUFFER's declared bytes f..f + len, all the device's block
            // is sure to cover (docs/interface.md, "CBUFFER and LDC"):
            // undefined as a whole there (NV_parameter_buffer_object2
            // 2.X.3.6). A constant offset sizes the block itself.
            let end = u64::from(b.first) + u64::from(self.program.var(var).len());
            inside &= aligned + bytes as u64 <= end;
        }
        Ok(Place {
            target,
            byte: aligned as usize,
            inside,
        })
    }

    /// Word `index` (inside), and whether any of its bytes is undefined.
    fn read_word(&self, target: Target, index: usize) -> (u32, bool) {
        match target {
            Target::Buffer(binding) => (self.outcome.storage[&binding][index], false),
            Target::Counter(binding) => (self.outcome.counters[&binding][index], false),
            Target::Constant(binding) => (self.inputs.buffers[&binding][index], false),
            Target::Global(base) => (self.outcome.global[&base][index], false),
            Target::Shared => {
                let bytes = &self.outcome.shared[index * 4..index * 4 + 4];
                let undefined = bytes.iter().any(Option::is_none);
                let word = u32::from_le_bytes(std::array::from_fn(|i| bytes[i].unwrap_or(0)));
                (word, undefined)
            }
        }
    }

    /// Byte `at` of the memory (`None`: undefined, or a parameter buffer
    /// word beyond the given ones).
    fn read_byte(&self, target: Target, at: usize) -> Option<u8> {
        match target {
            Target::Shared => self.outcome.shared.get(at).copied().flatten(),
            Target::Constant(binding) => {
                let word = self.inputs.buffers.get(&binding)?.get(at / 4)?;
                Some(word.to_le_bytes()[at % 4])
            }
            _ => Some(self.read_word(target, at / 4).0.to_le_bytes()[at % 4]),
        }
    }

    fn write_word(&mut self, target: Target, index: usize, word: u32) {
        match target {
            Target::Buffer(binding) => {
                if let Some(words) = self.outcome.storage.get_mut(&binding) {
                    words[index] = word;
                }
            }
            Target::Counter(binding) => {
                if let Some(words) = self.outcome.counters.get_mut(&binding) {
                    words[index] = word;
                }
            }
            Target::Global(base) => {
                if let Some(words) = self.outcome.global.get_mut(&base) {
                    words[index] = word;
                }
            }
            Target::Shared => {
                for (i, b) in word.to_le_bytes().into_iter().enumerate() {
                    self.outcome.shared[index * 4 + i] = Some(b);
                }
            }
            Target::Constant(_) => {}
        }
    }

    /// Byte `at` set to `value`, the other bytes of its word kept.
    fn write_byte(&mut self, target: Target, at: usize, value: u8) {
        if let Target::Shared = target {
            self.outcome.shared[at] = Some(value);
            return;
        }
        let (word, _) = self.read_word(target, at / 4);
        let mut bytes = word.to_le_bytes();
        bytes[at % 4] = value;
        self.write_word(target, at / 4, u32::from_le_bytes(bytes));
    }

    /// LDB, LDS and LDC (NV_gpu_program5 2.X.4.5, BufferMemoryLoad, with
    /// NV_gpu_program5_mem_extended's modifiers): the storage modifier's
    /// components at 64 bits (a 64-bit one as it is; a 32-bit one, an 8-
    /// or 16-bit integer sign- or zero-extended and an F16 as an f32, in
    /// the low 32 bits), zeros in the others and outside a storage buffer
    /// or shared memory; for LDC, then the operand's swizzle and modifiers
    /// (2.X.8.Z, LDC). An LDC any of whose words lies beyond the given
    /// ones is undefined as a whole, however many of its first words
    /// exist: NV_parameter_buffer_object2 2.X.3.6, "the bound buffer
    /// object is not large enough to hold element <b>, the values used
    /// are undefined" (the device reads 0 for such an access, one of the
    /// values allowed; docs/semantics.md, "Accesses partly outside").
    fn memory_load(&mut self, inst: &Instruction, m: &crate::ir::MemoryAccess) -> Result<Wide4> {
        let place = self.memory_place(m)?;
        let constant = matches!(place.target, Target::Constant(_));
        let mut v = Wide4::default();
        if !place.inside && (constant || matches!(place.target, Target::Global(..))) {
            // NV_gpu_program5 2.X.4.5: "the values returned ... will be
            // undefined" (global_place reported it).
            v.undefined = 0xf;
            return Ok(v);
        }
        if place.inside {
            let size = usize::from(m.bits) / 8;
            for c in 0..usize::from(m.components) {
                let mut raw = 0u64;
                for i in (0..size).rev() {
                    match self.read_byte(place.target, place.byte + c * size + i) {
                        Some(b) => raw = raw << 8 | u64::from(b),
                        None => v.undefined |= 1 << c,
                    }
                }
                v.bits[c] = match (m.bits, m.ty) {
                    (8, DataType::Signed) => raw as u8 as i8 as i32 as u32 as u64,
                    (16, DataType::Signed) => raw as u16 as i16 as i32 as u32 as u64,
                    (16, DataType::Float) => u64::from(half::half_to_f32(raw as u16).to_bits()),
                    _ => raw,
                };
            }
        }
        // A 32-bit or narrower result in a 64-bit value: [`wide::demote`]
        // of it is the 32-bit result again.
        if m.bits != 64 {
            let narrow = Vec4 {
                bits: v.bits.map(|b| b as u32),
                undefined: v.undefined,
            };
            v = wide::promote(narrow, m.ty);
        }
        if inst.op == Opcode::Ldc {
            let modifiers = inst
                .srcs
                .first()
                .ok_or_else(|| internal("LDC without its operand", inst.span))?;
            if m.bits != 64 {
                // 32-bit modifiers on the 32-bit value (a 32-bit
                // negation wraps as the instruction's does).
                let narrow = wide::demote(v, m.ty);
                return Ok(wide::promote(operand_modifiers(modifiers, &narrow), m.ty));
            }
            return Ok(operand_modifiers64(modifiers, &v));
        }
        Ok(v)
    }

    fn memory_instruction(
        &mut self,
        inst: &Instruction,
        m: &crate::ir::MemoryAccess,
        srcs: &[Vec4],
    ) -> Result<Vec4> {
        let place = self.memory_place(m)?;
        let (target, index, inside) = (place.target, place.byte / 4, place.inside);
        if !inside && matches!(target, Target::Global(..)) {
            // NV_gpu_program5 2.X.4.5: "the results of the operation are
            // undefined" (global_place reported it); nothing is written.
            return Ok(Vec4 {
                bits: [0; 4],
                undefined: 0xf,
            });
        }
        let Some(op) = m.atomic else {
            return Err(internal("a load as an atomic", inst.span));
        };
        if !inside {
            return Ok(Vec4::defined([0; 4]));
        }
        if let AtomicOp::Incr | AtomicOp::Decr | AtomicOp::Get = op {
            // NV_shader_atomic_counters 2.X.8.Z, ATOMCTR: INCR returns the
            // value before, DECR the value after, GET stores nothing; the
            // counter wraps. "The <y>, <z>, and <w> components of the
            // result vector are undefined."
            let (old, _) = self.read_word(target, index);
            let result = match op {
                AtomicOp::Incr => {
                    self.write_word(target, index, old.wrapping_add(1));
                    old
                }
                AtomicOp::Decr => {
                    self.write_word(target, index, old.wrapping_sub(1));
                    old.wrapping_sub(1)
                }
                _ => old,
            };
            let mut v = Vec4::defined([result; 4]);
            v.undefined = 0b1110;
            return Ok(v);
        }
        let operand = srcs
            .first()
            .ok_or_else(|| internal("ATOMB without its operand", inst.span))?;
        if m.bits == 16 {
            return Ok(self.atomic_halves(target, index, m, op, operand));
        }
        let (old, old_undefined) = self.read_word(target, index);
        let (x, y) = (operand.bits[0], operand.bits[1]);
        use crate::ir::AtomicOp as A;
        let new = atomic_update(op, m.ty, old, x, y).map_err(|what| internal(what, inst.span))?;
        if let Some(new) = new {
            self.write_word(target, index, new);
        }
        let mut v = Vec4::defined([old; 4]);
        // Scalar result; the operand's undefined x (and y for CSWAP), or
        // shared memory never written, taint it.
        if old_undefined || operand.is_undefined(0) || (op == A::CSwap && operand.is_undefined(1)) {
            v.undefined = 0xf;
        }
        Ok(v)
    }

    /// F16X2 and F16X4 (NV_shader_atomic_fp16_vector) on the words from
    /// `index`, each holding two halves (x in the low 16 bits): the
    /// operand rounded to halves, then per half `mem + op`, `min`, `max`
    /// (as MIN and MAX compute them: `(tmp0 > tmp1) ? ...`) rounded to the
    /// nearest half, or the operand (EXCH). Gives the halves before, as
    /// f32, zero beyond X2.
    fn atomic_halves(
        &mut self,
        target: Target,
        index: usize,
        m: &crate::ir::MemoryAccess,
        op: AtomicOp,
        operand: &Vec4,
    ) -> Vec4 {
        let mut v = Vec4::defined([0; 4]);
        for w in 0..usize::from(m.components) / 2 {
            let (old, old_undefined) = self.read_word(target, index + w);
            let new = halves_word_update(op, old, operand, w, old_undefined, &mut v);
            self.write_word(target, index + w, new);
        }
        v
    }

    /// A 64-bit atomic (NV_gpu_program5 Table X.Y U64 ADD, EXCH, CSWAP;
    /// NV_shader_atomic_int64; NV_shader_atomic_float64's F64 ADD and
    /// EXCH) on the two words from `index`, low word first; the value
    /// before, zero outside the memory.
    fn memory_atomic64(
        &mut self,
        inst: &Instruction,
        m: &crate::ir::MemoryAccess,
        srcs: &[wide::Wide4],
    ) -> Result<wide::Wide4> {
        let place = self.memory_place(m)?;
        let (target, index, inside) = (place.target, place.byte / 4, place.inside);
        let mut out = wide::Wide4::default();
        if !inside {
            // Outside a storage buffer or shared memory: 0; at a GPU
            // address of no buffer, undefined (global_place reported it).
            out.bits = [0; 4];
            out.undefined = if matches!(target, Target::Global(..)) {
                0xf
            } else {
                0
            };
            return Ok(out);
        }
        let (Some(op), Some(operand)) = (m.atomic, srcs.first()) else {
            return Err(internal(
                "a 64-bit memory access that is not an atomic",
                inst.span,
            ));
        };
        let (lo, lo_undefined) = self.read_word(target, index);
        let (hi, hi_undefined) = self.read_word(target, index + 1);
        let old = u64::from(lo) | u64::from(hi) << 32;
        let (x, y) = (operand.bits[0], operand.bits[1]);
        let signed = m.ty == DataType::Signed;
        let new = match op {
            AtomicOp::Add if m.ty == DataType::Float => {
                Some((f64::from_bits(old) + f64::from_bits(x)).to_bits())
            }
            AtomicOp::Add => Some(old.wrapping_add(x)),
            AtomicOp::Min if signed => Some((old as i64).min(x as i64) as u64),
            AtomicOp::Min => Some(old.min(x)),
            AtomicOp::Max if signed => Some((old as i64).max(x as i64) as u64),
            AtomicOp::Max => Some(old.max(x)),
            AtomicOp::And => Some(old & x),
            AtomicOp::Or => Some(old | x),
            AtomicOp::Xor => Some(old ^ x),
            AtomicOp::Exch => Some(x),
            // "if (result == tmp0.x) writeval = tmp0.y; else no store"
            AtomicOp::CSwap => (old == x).then_some(y),
            _ => {
                return Err(internal(
                    format!("{} on a 64-bit word (the checker refuses it)", op.name()),
                    inst.span,
                ))
            }
        };
        if let Some(new) = new {
            self.write_word(target, index, new as u32);
            self.write_word(target, index + 1, (new >> 32) as u32);
        }
        out.bits = [old; 4];
        out.undefined = 0;
        if lo_undefined
            || hi_undefined
            || operand.undefined & 1 != 0
            || (op == AtomicOp::CSwap && operand.undefined & 2 != 0)
        {
            out.undefined = 0xf;
        }
        Ok(out)
    }

    /// LOAD, STORE and ATOM (NV_gpu_program5 2.X.4.5): the region of
    /// [`Outcome::global`] holding the address, the word index in it, and
    /// whether all the access's words lie inside it. An address of no
    /// region ("does not correspond to a buffer object made resident"),
    /// one not aligned to the access size ("the values returned ... will
    /// be undefined, and the effects of a buffer memory store will also
    /// be undefined") or an undefined one is an undefined event.
    fn global_place(&mut self, m: &crate::ir::MemoryAccess) -> Result<Place> {
        let a = m
            .address
            .as_ref()
            .ok_or_else(|| internal("a GPU memory access without its address", Span::default()))?;
        let span = a.span;
        let address = self.load64(a)?;
        let (addr, undefined) = (address.bits[0], address.undefined & 1 != 0);
        let size = u64::from(m.bits) / 8 * u64::from(m.components);
        let region = self
            .outcome
            .global
            .range(..=addr)
            .next_back()
            .map(|(&base, words)| (base, words.len() as u64));
        let found = region.filter(|&(base, len)| {
            base % 4 == 0 && (addr - base) / 4 + access_words(m) as u64 <= len
        });
        let problem = if undefined {
            Some(format!("the GPU address {addr:#x} is undefined"))
        } else if addr % size != 0 {
            Some(format!(
                "the GPU address {addr:#x} is not a multiple of the access size, {size} bytes (2.X.4.5)"
            ))
        } else if found.is_none() {
            Some(format!(
                "the GPU address {addr:#x} ({size} bytes) is outside every buffer given (2.X.4.5: \"does not correspond to a buffer object made resident\")"
            ))
        } else {
            None
        };
        if let Some(what) = problem {
            self.undefined_event(span, what);
            return Ok(Place {
                target: Target::Global(0),
                byte: 0,
                inside: false,
            });
        }
        let (base, _) = found.ok_or_else(|| internal("region vanished", span))?;
        Ok(Place {
            target: Target::Global(base),
            byte: (addr - base) as usize,
            inside: true,
        })
    }

    /// STB and STS (BufferMemoryStore): the storage modifier's components
    /// of `v` (64-bit components; a 32-bit operand promoted), little-endian,
    /// an F16 rounded to nearest (even); nothing outside the memory.
    fn memory_store(&mut self, m: &crate::ir::MemoryAccess, v: Wide4) -> Result<()> {
        let place = self.memory_place(m)?;
        if !place.inside {
            return Ok(());
        }
        let size = usize::from(m.bits) / 8;
        for c in 0..usize::from(m.components) {
            let raw = match (m.bits, m.ty) {
                (64, _) => v.bits[c],
                (16, DataType::Float) => u64::from(half::f64_to_half(
                    f64::from_bits(v.bits[c]),
                    crate::ir::Rounding::Round,
                )),
                // The 32-bit value's low bits.
                _ => wide::demote(v, m.ty).bits[c] as u64,
            };
            for (i, b) in raw.to_le_bytes().into_iter().take(size).enumerate() {
                self.write_byte(place.target, place.byte + c * size + i, b);
            }
        }
        Ok(())
    }
}

/// What ATOMB, ATOMS and ATOMIM store for `op` on the old value `old` with
/// the operand's `x` and `y` (NV_gpu_program5 Table X.Y, ATOM;
/// NV_compute_program5, ATOMS; EXT_shader_image_load_store Table X.4):
/// `None` where nothing is stored (a failed CSWAP); an error for
/// ATOMCTR's operations, which have their own rules.
pub(super) fn atomic_update(
    op: AtomicOp,
    ty: DataType,
    old: u32,
    x: u32,
    y: u32,
) -> std::result::Result<Option<u32>, &'static str> {
    use crate::ir::AtomicOp as A;
    let signed = ty == DataType::Signed;
    let float = |b: u32| f32::from_bits(b);
    Ok(match op {
        // ATOMS.ADD.F32 (NV_compute_program5 Table X.Y): a float sum.
        A::Add if ty == DataType::Float => Some((float(old) + float(x)).to_bits()),
        A::Add => Some(old.wrapping_add(x)),
        A::Min if signed => Some((old as i32).min(x as i32) as u32),
        A::Min => Some(old.min(x)),
        A::Max if signed => Some((old as i32).max(x as i32) as u32),
        A::Max => Some(old.max(x)),
        A::And => Some(old & x),
        A::Or => Some(old | x),
        A::Xor => Some(old ^ x),
        A::Exch => Some(x),
        // "if (result == tmp0.x) writeval = tmp0.y; else no store"
        A::CSwap => (old == x).then_some(y),
        // "writeval = (result >= tmp0.x) ? 0 : result+1;"
        A::IWrap => Some(if old >= x { 0 } else { old + 1 }),
        // "writeval = (result == 0 || result > tmp0.x) ? tmp0.x : result-1;"
        A::DWrap => Some(if old == 0 || old > x { x } else { old - 1 }),
        A::Incr | A::Decr | A::Get => return Err("ATOMCTR's operation on ATOMB, ATOMS or ATOMIM"),
    })
}
