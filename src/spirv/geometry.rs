//! Geometry programs (NV_geometry_program4) in SPIR-V's `Geometry`
//! execution model, as docs/interface.md ("Geometry programs") states it.
//!
//! * PRIMITIVE_IN, PRIMITIVE_OUT and VERTICES_OUT (section 2.X.7.Y) become
//!   the execution modes `InputPoints` … `InputTrianglesAdjacency`,
//!   `OutputPoints` / `OutputLineStrip` / `OutputTriangleStrip` and
//!   `OutputVertices`, with `Invocations 1`.
//! * `vertex[m].<binding>` (section 2.X.3.2) reads element *m* of an input
//!   array over the vertices of the input primitive, at the Location (or
//!   built-in) the previous stage writes. A variable bound to
//!   `vertex.<binding>` without a vertex number is indexed `name[v]` or
//!   `name[v][n]`; a relative vertex number is clamped into the primitive's
//!   vertices as relative array indices are (docs/interface.md).
//! * EMIT (section 2.X.8.Z) is `OpEmitVertex`, ENDPRIM `OpEndPrimitive`.
//!   The spec makes every result undefined after EMIT ("After the EMIT
//!   instruction completes, a new vertex is started and all result
//!   variables become undefined") and leaves them unchanged across ENDPRIM;
//!   SPIR-V's `OpEmitVertex` and `OpEndPrimitive` say exactly the same of
//!   output variables, so results are written straight to the outputs,
//!   without shadow copies.
//! * Section 2.14.6.4: "Once a geometry program emits a number of vertices
//!   equal to the vertex limit, subsequent EMIT instructions may or may not
//!   have any effect." Vulkan leaves emitting more than `OutputVertices`
//!   undefined, so when the program could (EMIT in a loop or a recursive
//!   subroutine, or more EMITs on a path than VERTICES_OUT), a counter drops
//!   the extra EMITs.

use std::collections::HashMap;

/// MAX_VERTEX_STREAMS_NV: the number of vertex streams EMITS can address,
/// Vulkan's usual `maxTransformFeedbackStreams` (4, as in GL's
/// ARB_transform_feedback3).
pub const MAX_VERTEX_STREAMS: u32 = 4;

use rspirv::spirv::{ExecutionMode, GlslStd450Op as GLOp, Op, Word};

use super::emit::{Comp, LResult, Val};
use super::interface::{IoSlot, Storage};
use super::operand::Element;
use super::{Analysis, LowerError, Lowerer};
use crate::ir::{
    Block, GeometryLayout, Index, PrimitiveIn, PrimitiveOut, Program, Stmt, SubId, VarId,
};
use crate::span::Span;

/// Which vertex of a geometry program's input primitive an interface
/// element reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum VertexSel {
    /// Not a per-vertex input (every other stage, `primitive.id`, results).
    None,
    /// `vertex[m].<binding>`.
    Fixed(u32),
    /// `vertex.<binding>` bound to a variable: the operand's first index
    /// selects the vertex (`Index::PerVertex`).
    Indexed,
    /// A tessellation control program's per-vertex result: the element
    /// of its own invocation (InvocationId).
    Invocation,
}

impl Lowerer<'_> {
    fn geometry_layout(&self) -> LResult<GeometryLayout> {
        self.program
            .geometry
            .ok_or_else(|| LowerError::internal("a geometry program without its declarations"))
    }

    /// The number of vertices of the input primitive (section 2.14.6.1),
    /// or of a tessellation program's patch: MAX_PATCH_VERTICES for the
    /// input (the draw decides; SPIR-V's `gl_MaxPatchVertices`-sized
    /// arrays), VERTICES_OUT for a control program's output patch.
    fn patch_vertices(&self, output: bool) -> LResult<u32> {
        match self.program.stage {
            crate::isa::Stage::TessControl if output => self
                .program
                .tess_control
                .map(|t| t.vertices_out)
                .ok_or_else(|| {
                    LowerError::internal("a tessellation control program without VERTICES_OUT")
                }),
            crate::isa::Stage::TessControl | crate::isa::Stage::TessEval => {
                Ok(crate::check::MAX_PATCH_VERTICES)
            }
            _ => Ok(self.geometry_layout()?.input.vertex_count()),
        }
    }

    /// `pointee[n]`, n the number of vertices: the type of a per-vertex
    /// input (or a control program's per-vertex output).
    pub(crate) fn per_vertex_array(&mut self, pointee: Word, output: bool) -> LResult<Word> {
        let n = self.patch_vertices(output)?;
        Ok(self.t_array(pointee, n))
    }

    /// The execution modes of section 2.X.7.Y's declarations.
    pub(crate) fn geometry_execution_modes(&mut self, main: Word) -> LResult<()> {
        let g = self.geometry_layout()?;
        let input = match g.input {
            PrimitiveIn::Points => ExecutionMode::InputPoints,
            PrimitiveIn::Lines => ExecutionMode::InputLines,
            PrimitiveIn::LinesAdjacency => ExecutionMode::InputLinesAdjacency,
            PrimitiveIn::Triangles => ExecutionMode::Triangles,
            PrimitiveIn::TrianglesAdjacency => ExecutionMode::InputTrianglesAdjacency,
        };
        let output = match g.output {
            PrimitiveOut::Points => ExecutionMode::OutputPoints,
            PrimitiveOut::LineStrip => ExecutionMode::OutputLineStrip,
            PrimitiveOut::TriangleStrip => ExecutionMode::OutputTriangleStrip,
        };
        self.b.execution_mode(main, input, []);
        self.b
            .execution_mode(main, ExecutionMode::Invocations, [g.invocations]);
        self.b.execution_mode(main, output, []);
        self.b
            .execution_mode(main, ExecutionMode::OutputVertices, [g.vertices_out]);
        Ok(())
    }

    /// The execution modes of the NV5 program types' declarations
    /// (docs/interface.md, "Tessellation programs", "Compute programs"):
    /// a control program's `OutputVertices`, an evaluation program's
    /// primitive mode, spacing, vertex order and point mode (Vulkan lets
    /// either tessellation stage carry them; the evaluation program is the
    /// one that declares them here), a compute program's `LocalSize`.
    pub(crate) fn program_type_execution_modes(&mut self, main: Word) -> LResult<()> {
        use crate::ir::{TessMode, TessSpacing};
        if let Some(t) = self.program.tess_control {
            self.b
                .execution_mode(main, ExecutionMode::OutputVertices, [t.vertices_out]);
        }
        if let Some(t) = self.program.tess_eval {
            let mode = match t.mode {
                TessMode::Triangles => ExecutionMode::Triangles,
                TessMode::Quads => ExecutionMode::Quads,
                TessMode::Isolines => ExecutionMode::Isolines,
            };
            let spacing = match t.spacing {
                TessSpacing::Equal => ExecutionMode::SpacingEqual,
                TessSpacing::FractionalOdd => ExecutionMode::SpacingFractionalOdd,
                TessSpacing::FractionalEven => ExecutionMode::SpacingFractionalEven,
            };
            let order = if t.clockwise {
                ExecutionMode::VertexOrderCw
            } else {
                ExecutionMode::VertexOrderCcw
            };
            self.b.execution_mode(main, mode, []);
            self.b.execution_mode(main, spacing, []);
            self.b.execution_mode(main, order, []);
            if t.point_mode {
                self.b.execution_mode(main, ExecutionMode::PointMode, []);
            }
        }
        if let Some(c) = self.program.compute {
            self.b
                .execution_mode(main, ExecutionMode::LocalSize, c.group_size);
        }
        Ok(())
    }

    /// NV_tessellation_program5's lock-step model: "all active threads
    /// will complete the execution of one instruction before starting the
    /// execution of the subsequent instruction", so an instruction reading
    /// the output patch (`vertex.out`, `primitive.out`) sees what every
    /// invocation wrote before it. Vulkan makes other invocations' output
    /// writes visible across an `OpControlBarrier` (Workgroup execution
    /// scope, as glslang lowers GLSL's `barrier()` in a tessellation
    /// control shader), which must be in uniform control flow. So a barrier
    /// is emitted before each statement of the entry subroutine's top level
    /// that reads the output patch: an instruction, or an IF, REP, LOOP or
    /// CAL with such a read anywhere inside (or in what it calls). A read
    /// inside that statement then sees every write made before it, and
    /// the invocation's own writes since; what another invocation writes
    /// inside the same IF, loop or subroutine is not synchronised
    /// (docs/interface.md, "Tessellation programs").
    pub(crate) fn output_patch_barrier(&mut self, stmt: &Stmt) -> LResult<()> {
        if self.program.stage != crate::isa::Stage::TessControl || !self.uniform_flow {
            return Ok(());
        }
        if !reads_output_patch(self.program, stmt, &mut Vec::new()) {
            return Ok(());
        }
        let workgroup = self.c_u32(rspirv::spirv::Scope::Workgroup as u32);
        let invocation = self.c_u32(rspirv::spirv::Scope::Invocation as u32);
        let none = self.c_u32(0);
        self.b.control_barrier(workgroup, invocation, none)?;
        Ok(())
    }

    /// Transform feedback capture (`Options::transform_feedback`,
    /// docs/interface.md "Transform feedback") in the programs that can be
    /// the last stage before rasterization, whose vertices transform
    /// feedback captures (Vulkan, "Transform Feedback"): vertex,
    /// tessellation evaluation and geometry programs, one record layout for
    /// all three. Every result is captured
    /// into transform feedback buffer 0, in a fixed record: `Position` at
    /// offset 0, then the Location results by Location, then the other
    /// built-ins (PointSize, ClipDistance, PrimitiveId, Layer), each its
    /// own size (4 bytes a component). A program with EMITS (NV_gpu_program5
    /// 2.X.8.Z) emits vertices to streams 1 to 3 too; in SPIR-V each output
    /// variable belongs to one stream (its `Stream` decoration), so stream
    /// k gets a copy of every result, decorated `Stream k`, captured into
    /// buffer k with the same record layout, at Locations after the
    /// program's own (a built-in's copy is a Location variable of its
    /// type: a built-in is declared once per interface). Stream 0 stays the
    /// one Vulkan rasterizes (`rasterizationStream` 0), so a fragment
    /// program sees the results as without capture.
    pub(crate) fn declare_transform_feedback(&mut self, analysis: &Analysis) -> LResult<()> {
        use crate::isa::Stage;
        use rspirv::dr::Operand as SpvOperand;
        use rspirv::spirv::{BuiltIn, Capability, Decoration, StorageClass};
        self.io.multi_stream = analysis.multi_stream;
        let captured = matches!(
            self.program.stage,
            Stage::Vertex | Stage::TessEval | Stage::Geometry
        );
        if !self.options.transform_feedback || !captured {
            return Ok(());
        }
        self.capability(Capability::TransformFeedback);
        self.io.xfb = true;
        let mut results = self.io.outputs.clone();
        results.sort_by_key(|o| match (o.builtin, o.location) {
            (Some(BuiltIn::Position), _) => (0, 0),
            (_, Some(l)) => (1, l),
            (b, None) => (2, b.map_or(0, |b| b as u32)),
        });
        if results.is_empty() {
            return Ok(());
        }
        let stride: u32 = results.iter().map(|o| o.words * 4).sum();
        let streams = if self.io.multi_stream {
            MAX_VERTEX_STREAMS
        } else {
            1
        };
        let mut next_location = results
            .iter()
            .filter_map(|o| o.location.map(|l| l + o.locations))
            .max()
            .unwrap_or(0);
        let lit = SpvOperand::LiteralBit32;
        for k in 0..streams {
            let mut offset = 0;
            let mut copies = Vec::new();
            for o in &results {
                let var = if k == 0 {
                    o.var
                } else {
                    let name = format!("stream{k}_result{offset}");
                    let copy = self.global_variable(o.pointee, StorageClass::Output, None, &name);
                    self.b
                        .decorate(copy, Decoration::Location, [lit(next_location)]);
                    next_location += o.locations;
                    // Integer varyings are Flat (docs/interface.md,
                    // "Varyings"), the copies too.
                    if o.comp.is_integer() {
                        self.b.decorate(copy, Decoration::Flat, []);
                    }
                    copies.push((o.var, copy, o.pointee));
                    copy
                };
                if streams > 1 {
                    self.b.decorate(var, Decoration::Stream, [lit(k)]);
                }
                self.b.decorate(var, Decoration::XfbBuffer, [lit(k)]);
                self.b.decorate(var, Decoration::XfbStride, [lit(stride)]);
                self.b.decorate(var, Decoration::Offset, [lit(offset)]);
                offset += o.words * 4;
            }
            if k > 0 {
                self.io.stream_copies.push(copies);
            }
        }
        Ok(())
    }

    /// Declares the emitted-vertex counter when the program could emit more
    /// than VERTICES_OUT vertices (section 2.14.6.4).
    pub(crate) fn declare_emit_count(&mut self, analysis: &Analysis) -> LResult<()> {
        let limit = self.geometry_layout()?.vertices_out;
        match max_emits(self.program, analysis) {
            Some(n) if n <= limit => Ok(()),
            _ => {
                let uint = self.t(Comp::U32, 1);
                let zero = self.c_u32(0);
                let var = self.global_variable(
                    uint,
                    rspirv::spirv::StorageClass::Private,
                    Some(zero),
                    "emitted_vertices",
                );
                self.emit_count = Some(var);
                Ok(())
            }
        }
    }

    /// EMIT (section 2.X.8.Z): `OpEmitVertex`, skipped once VERTICES_OUT
    /// vertices have been emitted when the counter is needed.
    pub(crate) fn lower_emit(&mut self, stream: Option<u32>) -> LResult<()> {
        self.write_default_point_size()?;
        // The renderer's clip-space conventions apply to each vertex as it
        // is emitted (docs/interface.md, "Clip space").
        if self.fixed.converts_clip_space() {
            self.convert_clip_space()?;
        }
        let Some(counter) = self.emit_count else {
            return self.emit_vertex_to(stream);
        };
        let limit = self.geometry_layout()?.vertices_out;
        let count = self.load(counter, Comp::U32, 1)?;
        let limit = self.konst(Comp::U32, &[limit]);
        let room = self.cmp(Op::ULessThan, count, limit)?;
        self.guarded_by(Some(room), |l| {
            l.emit_vertex_to(stream)?;
            let one = l.konst(Comp::U32, &[1]);
            let next = l.op(Op::IAdd, &[count, one])?;
            l.store(counter, next)
        })
    }

    /// OpEmitVertex, or OpEmitStreamVertex for a stream (whose number
    /// SPIR-V requires to be a constant). With transform feedback capture,
    /// a vertex of stream k ≥ 1 is the stream-k copies of the results
    /// (`declare_transform_feedback`): each result is copied into its copy
    /// first.
    fn emit_vertex_to(&mut self, stream: Option<u32>) -> LResult<()> {
        // SPIR-V, OpEmitVertex: "This instruction must only be used when
        // only one stream is present"; in a program with EMITS, EMIT is
        // stream 0's (NV_gpu_program5 2.X.8.Z: EMIT emits to stream 0).
        let stream = stream.or(self.io.multi_stream.then_some(0));
        match stream {
            None => self.b.emit_vertex()?,
            Some(s) => {
                self.capability(rspirv::spirv::Capability::GeometryStreams);
                let copies = (s as usize)
                    .checked_sub(1)
                    .and_then(|k| self.io.stream_copies.get(k))
                    .cloned()
                    .unwrap_or_default();
                for (result, copy, ty) in copies {
                    let value = self.b.load(ty, None, result, None, [])?;
                    self.b.store(copy, value, None, [])?;
                }
                let k = self.c_i32(s as i32);
                self.b.emit_stream_vertex(k)?;
            }
        }
        // The results are undefined after the emit (2.X.8.Z): what the
        // program stored before is not what a later read sees.
        self.register_values.forget_outputs();
        Ok(())
    }

    /// EMITS (NV_gpu_program5 2.X.8.Z): EMIT to the stream its operand
    /// gives. OpEmitStreamVertex takes a constant stream, so a run-time
    /// number is a selection over the streams 0 to MAX_VERTEX_STREAMS - 1
    /// (4, docs/interface.md "Geometry programs"); a number outside them
    /// ("the results of the instruction are undefined") emits nothing.
    pub(crate) fn lower_emit_stream(&mut self, stream: &crate::ir::Operand) -> LResult<()> {
        let value = self.load_operand(stream, true)?.value;
        let s = self.extract(value, 0)?;
        let s = self.cast(s, Comp::I32)?;
        let merge = self.b.id();
        let skip = self.b.id();
        let labels: Vec<rspirv::spirv::Word> =
            (0..MAX_VERTEX_STREAMS).map(|_| self.b.id()).collect();
        self.b
            .selection_merge(merge, rspirv::spirv::SelectionControl::NONE)?;
        self.b.switch(
            s.id,
            skip,
            labels
                .iter()
                .enumerate()
                .map(|(k, &l)| (rspirv::dr::Operand::LiteralBit32(k as u32), l)),
        )?;
        for (k, &label) in labels.iter().enumerate() {
            self.b.begin_block(Some(label))?;
            self.lower_emit(Some(k as u32))?;
            if self.b.selected_block().is_some() {
                self.b.branch(merge)?;
            }
        }
        self.b.begin_block(Some(skip))?;
        self.b.branch(merge)?;
        self.b.begin_block(Some(merge))?;
        Ok(())
    }

    /// ENDPRIM (section 2.X.8.Z): `OpEndPrimitive`. "ENDPRIM has no effect
    /// if the geometry program's output primitive type is POINTS"; SPIR-V's
    /// OpEndPrimitive on a point stream has none either.
    pub(crate) fn lower_end_primitive(&mut self) -> LResult<()> {
        // With several streams, OpEndPrimitive is not allowed (SPIR-V, as
        // for OpEmitVertex): ENDPRIM ends stream 0's primitive.
        if self.io.multi_stream {
            let zero = self.c_i32(0);
            self.b.end_stream_primitive(zero)?;
        } else {
            self.b.end_primitive()?;
        }
        Ok(())
    }

    /// The access-chain prefix selecting the vertex of a per-vertex input
    /// (empty for other interface variables).
    pub(crate) fn vertex_prefix(
        &mut self,
        slot: IoSlot,
        vertex: Option<Word>,
    ) -> LResult<Vec<Word>> {
        match slot.vertex {
            VertexSel::None => Ok(Vec::new()),
            VertexSel::Invocation => {
                let var = self.io.invocation_id.ok_or_else(|| {
                    LowerError::internal("a per-vertex result without InvocationId")
                })?;
                Ok(vec![self.load(var, Comp::I32, 1)?.id])
            }
            VertexSel::Fixed(m) => {
                let n = self.patch_vertices(slot.class == rspirv::spirv::StorageClass::Output)?;
                if m >= n {
                    return Err(LowerError::internal(format!(
                        "vertex[{m}] of a primitive of {n} vertices"
                    )));
                }
                Ok(vec![self.c_i32(m as i32)])
            }
            VertexSel::Indexed => vertex.map(|v| vec![v]).ok_or_else(|| {
                LowerError::internal("a per-vertex attribute read without a vertex number")
            }),
        }
    }

    /// Pointer to the `n` components of `comp` an interface slot holds, in
    /// the element `prefix` selects.
    pub(crate) fn slot_pointer(
        &mut self,
        slot: IoSlot,
        comp: Comp,
        n: u32,
        prefix: &[Word],
    ) -> LResult<Word> {
        if prefix.is_empty() {
            return Ok(slot.var);
        }
        let ty = self.t(comp, n);
        self.access(slot.class, ty, slot.var, prefix)
    }

    /// `name[v]` or `name[v][n]` of a variable bound to `vertex.<binding>`
    /// (NV_geometry_program4 section 2.X.3.2).
    pub(crate) fn load_per_vertex(
        &mut self,
        var: VarId,
        vertex: &Index,
        element: &Index,
        comp: Comp,
        span: Span,
    ) -> LResult<Val> {
        let slots = match self.storage.get(&var) {
            Some(Storage::Io { elements }) => elements.clone(),
            _ => {
                return Err(LowerError::internal_at(
                    "a per-vertex index on a variable that is not a geometry attribute",
                    span,
                ))
            }
        };
        let output = slots
            .first()
            .is_some_and(|s| s.class == rspirv::spirv::StorageClass::Output);
        let v = self.vertex_index(vertex, output, span)?;
        match self.element(var, element, span)? {
            Element::Fixed(n) => {
                let slot = slots.get(n as usize).copied().ok_or_else(|| {
                    LowerError::internal_at("interface element out of range", span)
                })?;
                self.load_slot_at(slot, Some(v), comp)
            }
            Element::Dynamic(i) => {
                let mut loads = Vec::with_capacity(slots.len());
                for &slot in slots.iter() {
                    loads.push(self.load_slot_at(slot, Some(v), comp)?);
                }
                self.select_element(i, &loads)
            }
        }
    }

    /// The vertex number of a per-vertex index as an `i32` id: a constant,
    /// or `A.x + offset` clamped into the input primitive's vertices
    /// (out-of-range relative addressing is undefined, section 2.X.4.2;
    /// nvp4c clamps, docs/interface.md).
    fn vertex_index(&mut self, vertex: &Index, output: bool, span: Span) -> LResult<Word> {
        let n = self.patch_vertices(output)?;
        match vertex {
            Index::Absolute(m) if *m < n => Ok(self.c_i32(*m as i32)),
            Index::Relative { address, offset } => {
                let a = self.load_operand(address, true)?.value;
                let a = match a.comp {
                    Comp::F32 => self.convert(Op::ConvertFToS, a, Comp::I32)?,
                    _ => self.cast(a, Comp::I32)?,
                };
                let off = self.konst(Comp::I32, &[*offset as u32]);
                let sum = self.op(Op::IAdd, &[a, off])?;
                let lo = self.konst(Comp::I32, &[0]);
                let hi = self.konst(Comp::I32, &[n - 1]);
                Ok(self.glsl(GLOp::SClamp, &[sum, lo, hi])?.id)
            }
            other => Err(LowerError::internal_at(
                format!("vertex index {other:?} of a primitive of {n} vertices"),
                span,
            )),
        }
    }
}

/// Whether `stmt` (with what it calls) reads a tessellation control
/// program's output patch.
fn reads_output_patch(program: &Program, stmt: &Stmt, visited: &mut Vec<SubId>) -> bool {
    use crate::ir::{AttribBinding, VarKind};
    match stmt {
        Stmt::Inst(inst) => inst.srcs.iter().any(|op| {
            matches!(&program.var(op.var).kind, VarKind::Attrib(bs) if bs.iter().any(|b| matches!(
                b,
                AttribBinding::OutputVertex { .. } | AttribBinding::Patch { output: true, .. }
            )))
        }),
        Stmt::Call { .. } | Stmt::CallIndirect { .. } => {
            let targets: Vec<SubId> = match stmt {
                Stmt::Call { target, .. } => vec![*target],
                Stmt::CallIndirect { targets, .. } => targets.iter().map(|&(_, t)| t).collect(),
                _ => Vec::new(),
            };
            targets.into_iter().any(|target| {
                if visited.contains(&target) || target.0 as usize >= program.subroutines.len() {
                    return false;
                }
                visited.push(target);
                program
                    .sub(target)
                    .body
                    .iter()
                    .any(|s| reads_output_patch(program, s, visited))
            })
        }
        other => other
            .blocks()
            .any(|b| b.iter().any(|s| reads_output_patch(program, s, visited))),
    }
}

/// The most EMITs any run of the program can execute, `None` when it is
/// unbounded at compile time (EMIT inside REP or LOOP, or in a recursive
/// subroutine).
fn max_emits(program: &Program, analysis: &Analysis) -> Option<u32> {
    fn block(
        program: &Program,
        b: &Block,
        memo: &mut HashMap<SubId, Option<u32>>,
        active: &mut Vec<SubId>,
    ) -> Option<u32> {
        let mut total = 0u32;
        for stmt in b {
            let n = match stmt {
                Stmt::Emit { .. } | Stmt::EmitStream { .. } => Some(1),
                Stmt::If {
                    then_block,
                    else_block,
                    ..
                } => {
                    let t = block(program, then_block, memo, active)?;
                    let e = block(program, else_block, memo, active)?;
                    Some(t.max(e))
                }
                Stmt::Rep { body, .. } | Stmt::Loop { body, .. } => {
                    match block(program, body, memo, active)? {
                        0 => Some(0),
                        _ => None,
                    }
                }
                Stmt::Call { target, .. } => sub(program, *target, memo, active),
                // Whichever subroutine a CALI calls.
                Stmt::CallIndirect { targets, .. } => {
                    let mut most = 0u32;
                    for &(_, t) in targets {
                        most = most.max(sub(program, t, memo, active)?);
                    }
                    Some(most)
                }
                _ => Some(0),
            }?;
            total = total.checked_add(n)?;
        }
        Some(total)
    }
    fn sub(
        program: &Program,
        s: SubId,
        memo: &mut HashMap<SubId, Option<u32>>,
        active: &mut Vec<SubId>,
    ) -> Option<u32> {
        if let Some(&m) = memo.get(&s) {
            return m;
        }
        if active.contains(&s) || s.0 as usize >= program.subroutines.len() {
            return None;
        }
        active.push(s);
        let n = block(program, &program.sub(s).body, memo, active);
        active.pop();
        memo.insert(s, n);
        n
    }
    if !analysis.cycles.is_empty() {
        // A cycle that emits makes the count unbounded; one that does not
        // contributes nothing. Keep it simple: count only acyclic programs.
        return None;
    }
    sub(program, program.entry, &mut HashMap::new(), &mut Vec::new())
}

#[cfg(test)]
mod tests {
    use crate::{Options, TargetEnv};

    const EMITS: &str = "!!NVgp5.0
PRIMITIVE_IN POINTS;
PRIMITIVE_OUT POINTS;
VERTICES_OUT 4;
INT TEMP s;
MOV result.position, vertex[0].position;
EMITS 1;
MOV.S s, {2, 7, 0, 0};
MOV result.position, vertex[0].position;
EMITS s.x;
MOV result.position, vertex[0].position;
EMITS s.y;
MOV result.position, vertex[0].position;
EMIT;
END
";

    /// EMITS is OpEmitStreamVertex on a constant stream (SPIR-V wants one),
    /// in a selection over streams 0 to 3; the module validates in every
    /// environment (GeometryStreams).
    #[test]
    fn emits_is_a_stream_vertex_per_stream_and_validates() {
        for env in [
            TargetEnv::Vulkan1_0,
            TargetEnv::Vulkan1_1,
            TargetEnv::Vulkan1_3,
        ] {
            let options = Options {
                target_env: env,
                ..Options::default()
            };
            let compiled = crate::compile(EMITS, &options)
                .unwrap_or_else(|d| panic!("{env:?}: {}", d.render("t", EMITS, false)));
            let module = rspirv::dr::load_words(&compiled.spirv).unwrap();
            let ops = |op| {
                module
                    .functions
                    .iter()
                    .flat_map(|f| &f.blocks)
                    .flat_map(|b| &b.instructions)
                    .filter(|i| i.class.opcode == op)
                    .count()
            };
            use rspirv::spirv::Op;
            // Three EMITS, four streams each; one EMIT, which is stream
            // 0's OpEmitStreamVertex (SPIR-V allows OpEmitVertex only
            // with one stream).
            assert_eq!(ops(Op::EmitStreamVertex), 13, "{env:?}");
            assert_eq!(ops(Op::EmitVertex), 0, "{env:?}");
        }
    }

    /// `Options::transform_feedback` (docs/interface.md, "Transform
    /// feedback"): the results are captured into buffer 0, and with EMITS
    /// each stream 1 to 3 has a copy of them at Locations after the
    /// program's own, in buffer k with the same record; the reflection
    /// says so, with the copies' bindings. Without the option, or for the
    /// capture decorations' capability and mode, nothing is declared.
    #[test]
    fn transform_feedback_captures_each_stream_into_its_buffer() {
        use crate::reflect::{BuiltIn, TransformFeedback};
        let with = Options {
            transform_feedback: true,
            ..Options::default()
        };
        let src = EMITS.replace(
            "MOV result.position, vertex[0].position;\nEMIT;",
            "MOV result.position, vertex[0].position;\nMOV result.texcoord[2], 1;\nEMIT;",
        );
        for env in [TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_3] {
            let options = Options {
                target_env: env,
                ..with.clone()
            };
            let r = crate::compile(&src, &options).unwrap().reflection;
            assert!(r.device_features.contains(&"transformFeedback".to_string()));
            let captured: Vec<(Option<u32>, Option<BuiltIn>, String, TransformFeedback)> = r
                .outputs
                .iter()
                .map(|o| {
                    (
                        o.location,
                        o.built_in,
                        o.bindings.join(" "),
                        o.transform_feedback.unwrap(),
                    )
                })
                .collect();
            let xfb = |stream, offset| TransformFeedback {
                stream,
                buffer: stream,
                offset,
                stride: 36,
            };
            let position = "result.position".to_string();
            let texcoord = "result.texcoord[2]".to_string();
            // The default point size (docs/interface.md, "Point size").
            let size = "result.pointsize".to_string();
            // Texcoord 2 is Location 7: the copies start at 8. The record:
            // position at 0, texcoord[2] at 16, the point size at 32.
            let mut want = vec![(Some(7), None, texcoord.clone(), xfb(0, 16))];
            for k in 1..4 {
                let at = 5 + 3 * k;
                want.push((Some(at), None, position.clone(), xfb(k, 0)));
                want.push((Some(at + 1), None, texcoord.clone(), xfb(k, 16)));
                want.push((Some(at + 2), None, size.clone(), xfb(k, 32)));
            }
            want.push((None, Some(BuiltIn::PointSize), size.clone(), xfb(0, 32)));
            want.push((None, Some(BuiltIn::Position), position.clone(), xfb(0, 0)));
            assert_eq!(captured, want, "{env:?}");
        }
        // EMIT only: one stream, no Stream decorations, no copies.
        let one = "!!NVgp4.0\nPRIMITIVE_IN POINTS;\nPRIMITIVE_OUT POINTS;\nVERTICES_OUT 1;\nMOV result.position, vertex[0].position;\nEMIT;\nEND\n";
        let r = crate::compile(one, &with).unwrap().reflection;
        let captured: Vec<_> = r.outputs.iter().map(|o| o.transform_feedback).collect();
        let xfb = |offset| {
            Some(TransformFeedback {
                stream: 0,
                buffer: 0,
                offset,
                stride: 20,
            })
        };
        // PointSize (its default) at 16, Position at 0.
        assert_eq!(captured, [xfb(16), xfb(0)]);
        // Without the option: no capture.
        let r = crate::compile(&src, &Options::default())
            .unwrap()
            .reflection;
        assert_eq!(r.outputs.len(), 3);
        assert!(r.outputs.iter().all(|o| o.transform_feedback.is_none()));
        assert!(!r.device_features.contains(&"transformFeedback".to_string()));
    }

    /// The record of a vertex and of a tessellation evaluation program is
    /// the geometry program's (docs/interface.md, "Transform feedback"):
    /// Position at 0, the Location results by Location, then the other
    /// built-ins by their SPIR-V number (PointSize 1, ClipDistance 3), in
    /// buffer 0, stream 0; the module declares `Xfb`. A tessellation
    /// control, fragment or compute program is refused (E1263).
    #[test]
    fn vertex_and_evaluation_programs_capture_the_same_record() {
        use crate::reflect::{BuiltIn, TransformFeedback};
        let with = Options {
            transform_feedback: true,
            ..Options::default()
        };
        let record = |src: &str| {
            let c = crate::compile(src, &with).unwrap();
            let words = &c.spirv;
            let module = rspirv::dr::load_words(words).unwrap();
            assert!(module.execution_modes.iter().any(|i| i.operands[1]
                == rspirv::dr::Operand::ExecutionMode(rspirv::spirv::ExecutionMode::Xfb)));
            assert!(c
                .reflection
                .device_features
                .contains(&"transformFeedback".to_string()));
            let mut r: Vec<(Option<u32>, Option<BuiltIn>, TransformFeedback)> = c
                .reflection
                .outputs
                .iter()
                .map(|o| (o.location, o.built_in, o.transform_feedback.unwrap()))
                .collect();
            r.sort_by_key(|x| x.2.offset);
            r
        };
        let xfb = |offset, stride| TransformFeedback {
            stream: 0,
            buffer: 0,
            offset,
            stride,
        };
        // Position 16 bytes, texcoord[0] (Location 5) 16, color (Location 0)
        // 16, the point size 4, two clip distances 8: 60 bytes.
        let vp = "!!NVvp4.0\nMOV result.position, vertex.position;\nMOV result.texcoord[0], 1;\nMOV result.color, 2;\nMOV result.clip[1], 3;\nMOV result.pointsize, 4;\nEND\n";
        assert_eq!(
            record(vp),
            [
                (None, Some(BuiltIn::Position), xfb(0, 60)),
                (Some(0), None, xfb(16, 60)),
                (Some(5), None, xfb(32, 60)),
                (None, Some(BuiltIn::PointSize), xfb(48, 60)),
                (None, Some(BuiltIn::ClipDistance), xfb(52, 60)),
            ]
        );
        let arb =
            "!!ARBvp1.0\nMOV result.position, vertex.position;\nMOV result.texcoord[1], 1;\nEND\n";
        assert_eq!(
            record(arb),
            [
                (None, Some(BuiltIn::Position), xfb(0, 32)),
                (Some(6), None, xfb(16, 32)),
            ]
        );
        let tep = "!!NVtep5.0\nTESS_MODE TRIANGLES;\nMOV result.position, vertex.tesscoord;\nMOV result.attrib[1], 1;\nEND\n";
        assert_eq!(
            record(tep),
            [
                (None, Some(BuiltIn::Position), xfb(0, 32)),
                (Some(15), None, xfb(16, 32)),
            ]
        );
        // Without the option: nothing captured.
        let r = crate::compile(vp, &Options::default()).unwrap().reflection;
        assert!(r.outputs.iter().all(|o| o.transform_feedback.is_none()));
        // A control, fragment or compute program: E1263.
        let tcp = "!!NVtcp5.0\nVERTICES_OUT 3;\nMOV result.position, vertex[0].position;\nEND\n";
        let fp = "!!NVfp4.0\nMOV result.color, fragment.color;\nEND\n";
        let cp = "!!NVcp5.0\nGROUP_SIZE 1;\nMEMBAR;\nEND\n";
        for src in [tcp, fp, cp] {
            let errors = crate::compile(src, &with).unwrap_err();
            let codes: Vec<_> = errors.iter().map(|d| d.code).collect();
            assert_eq!(codes, ["E1263"], "{src}");
            assert!(crate::compile(src, &Options::default()).is_ok());
        }
    }

    /// The bytecode vertex front ends (Direct3D 9, AGAL) reach the same
    /// backend: their vertex shaders capture the same record (Position,
    /// then the Location results; a D3D9 `oPts` is PointSize, after them).
    #[test]
    fn bytecode_vertex_shaders_capture_the_same_record() {
        use crate::reflect::BuiltIn;
        let with = Options {
            transform_feedback: true,
            ..Options::default()
        };
        let record = |bytes: &[u8]| -> Vec<(Option<u32>, Option<BuiltIn>, u32, u32)> {
            let c = crate::compile_bytes(bytes, &with).unwrap();
            let mut r: Vec<_> = c
                .reflection
                .outputs
                .iter()
                .map(|o| {
                    let x = o.transform_feedback.unwrap();
                    (o.location, o.built_in, x.offset, x.stride)
                })
                .collect();
            r.sort_by_key(|x| x.2);
            r
        };
        let vs = crate::front::d3d9::assemble::assemble_bytes(
            "vs_2_0\ndcl_position v0\nmov oPos, v0\nmov oT1, v0\nmov oPts, v0.x\n",
        )
        .unwrap();
        let d3d9 = record(&vs);
        assert_eq!(d3d9.len(), 3, "{d3d9:?}");
        assert_eq!(d3d9[0], (None, Some(BuiltIn::Position), 0, 36));
        assert_eq!((d3d9[1].0.is_some(), d3d9[1].2), (true, 16));
        assert_eq!(d3d9[2], (None, Some(BuiltIn::PointSize), 32, 36));
        let vs = crate::front::agal::assemble("mov op, va0\nmov v1, va1", crate::Stage::Vertex, 1)
            .unwrap()
            .bytes;
        let agal = record(&vs);
        assert_eq!(agal.len(), 2, "{agal:?}");
        assert_eq!(agal[0], (None, Some(BuiltIn::Position), 0, 32));
        assert_eq!((agal[1].0.is_some(), agal[1].2), (true, 16));
    }

    /// `nvp4c link` (`link::check_pipeline`) gives the option to the
    /// program before the fragment program only: the geometry program of
    /// a vertex-geometry-fragment pipeline, the vertex program of a
    /// vertex-fragment one; the fragment program is not refused (E1263).
    #[test]
    fn a_pipeline_captures_its_last_stage_before_the_fragment_program() {
        let with = Options {
            transform_feedback: true,
            ..Options::default()
        };
        let vp = "!!NVvp4.0\nMOV result.position, vertex.position;\nEND\n";
        let gp = "!!NVgp4.0\nPRIMITIVE_IN POINTS;\nPRIMITIVE_OUT POINTS;\nVERTICES_OUT 1;\nMOV result.position, vertex[0].position;\nEMIT;\nEND\n";
        let fp = "!!NVfp4.0\nMOV result.color, 1;\nEND\n";
        let captured = |files: &[(&str, &str)]| -> Vec<bool> {
            let report = crate::link::check_pipeline(files, &with).unwrap();
            report
                .compiled
                .iter()
                .map(|c| {
                    let r = &c.as_ref().unwrap().reflection;
                    r.outputs.iter().any(|o| o.transform_feedback.is_some())
                })
                .collect()
        };
        assert_eq!(
            captured(&[("a.vp", vp), ("b.gp", gp), ("c.fp", fp)]),
            [false, true, false]
        );
        assert_eq!(captured(&[("a.vp", vp), ("c.fp", fp)]), [true, false]);
    }

    /// E1264: a record larger than the device's
    /// maxTransformFeedbackBufferDataStride (or the per-vertex data sizes)
    /// is refused, on the first result captured past it, naming the
    /// figure; 512 bytes by default (Vulkan's required minimum).
    #[test]
    fn a_record_past_the_device_stride_is_refused() {
        let mut options = Options {
            transform_feedback: true,
            ..Options::default()
        };
        assert_eq!(
            options
                .device_limits
                .max_transform_feedback_buffer_data_stride,
            512
        );
        // Position and 15 Location results (texcoord[0..7], attrib[0..6]):
        // 16 · 16 = 256 bytes, as many as GL's 64 result components allow
        // (E0807), within 512.
        let mut src = "!!NVvp4.0\nMOV result.position, vertex.position;\n".to_string();
        for n in 0..8 {
            src += &format!("MOV result.texcoord[{n}], 1;\n");
        }
        for n in 0..7 {
            src += &format!("MOV result.attrib[{n}], 1;\n");
        }
        src += "END\n";
        assert!(crate::compile(&src, &options).is_ok());
        // A device capturing 240 bytes a vertex: attrib[6] (Location 20,
        // the last, bytes 240 to 256) is past it.
        options
            .device_limits
            .max_transform_feedback_stream_data_size = 240;
        let errors = crate::compile(&src, &options).unwrap_err();
        let rendered = errors.render("t.vp", &src, false);
        let codes: Vec<_> = errors.iter().map(|d| d.code).collect();
        assert_eq!(codes, ["E1264"], "{rendered}");
        assert!(
            rendered.contains("record is 256 bytes, more than the device's 240"),
            "{rendered}"
        );
        assert!(
            rendered.contains("maxTransformFeedbackStreamDataSize is 240"),
            "{rendered}"
        );
        assert!(
            rendered.contains("result.attrib[6] is captured at byte 240"),
            "{rendered}"
        );
        options.transform_feedback = false;
        assert!(crate::compile(&src, &options).is_ok());
        // The device's properties, as vulkaninfo --json gives them.
        let json = r#"{"capabilities": {"device": {"properties": {
            "VkPhysicalDeviceProperties": {"limits": {"maxClipDistances": 8}},
            "VkPhysicalDeviceTransformFeedbackPropertiesEXT": {"maxTransformFeedbackBufferDataStride": 256}}}}}"#;
        let limits = crate::device_limits::DeviceLimits::from_json(json).unwrap();
        assert_eq!(limits.max_transform_feedback_buffer_data_stride, 256);
        assert_eq!(limits.max_transform_feedback_buffer_data_size, 512);
    }

    /// E1265: EMITS reaches streams 0 to 3, so a device with fewer
    /// transform feedback streams refuses it, and with capture one with
    /// fewer than 4 buffers; the defaults (4 and 4) take it.
    #[test]
    fn emits_needs_four_streams_and_with_capture_four_buffers() {
        let mut options = Options::default();
        assert!(crate::compile(EMITS, &options).is_ok());
        let codes = |options: &Options| -> Vec<&'static str> {
            match crate::compile(EMITS, options) {
                Ok(_) => Vec::new(),
                Err(d) => d.iter().map(|d| d.code).collect(),
            }
        };
        options.device_limits.max_transform_feedback_buffers = 2;
        assert!(codes(&options).is_empty(), "no capture, no buffers");
        options.transform_feedback = true;
        assert_eq!(codes(&options), ["E1265"]);
        options.device_limits.max_transform_feedback_buffers = 4;
        assert!(codes(&options).is_empty());
        options.device_limits.max_transform_feedback_streams = 3;
        assert_eq!(codes(&options), ["E1265"]);
        options.transform_feedback = false;
        assert_eq!(codes(&options), ["E1265"]);
    }

    /// The copies' Locations count against the device's output Locations:
    /// `result.attrib[15]` is Location 29, so with 128 output components
    /// (32 Locations) the copies of streams 2 and 3 (Locations 32 to 35)
    /// are refused with E0812, which names the stream.
    #[test]
    fn stream_copies_past_the_output_locations_are_refused() {
        // (Without the default point size, whose copies would take
        // Locations too.)
        let mut options = Options {
            transform_feedback: true,
            shader_tessellation_and_geometry_point_size: false,
            ..Options::default()
        };
        let src = EMITS.replace("EMIT;", "MOV result.attrib[15], 1;\nEMIT;");
        let errors = crate::compile(&src, &options).unwrap_err();
        let rendered = errors.render("t.gp", &src, false);
        assert!(errors.iter().all(|d| d.code == "E0812"), "{rendered}");
        assert_eq!(errors.iter().count(), 4, "{rendered}");
        assert!(rendered.contains("for vertex stream 3"), "{rendered}");
        options.transform_feedback = false;
        assert!(crate::compile(&src, &options).is_ok());
    }

    /// A POINTS geometry program that writes no point size declares
    /// PointSize and writes GL's default 1.0 (docs/interface.md, "Point
    /// size") when the device has shaderTessellationAndGeometryPointSize;
    /// without the feature, or for another output primitive, it does not.
    #[test]
    fn points_output_without_a_point_size_writes_the_default() {
        use crate::reflect::BuiltIn;
        let src = |out: &str| {
            format!("!!NVgp4.0\nPRIMITIVE_IN POINTS;\nPRIMITIVE_OUT {out};\nVERTICES_OUT 1;\nMOV result.position, vertex[0].position;\nEMIT;\nEND\n")
        };
        let point_size = |src: &str, options: &Options| {
            let r = crate::compile(src, options).unwrap().reflection;
            let feature = r
                .device_features
                .contains(&"shaderTessellationAndGeometryPointSize".to_string());
            let output = r
                .outputs
                .iter()
                .find(|o| o.built_in == Some(BuiltIn::PointSize))
                .map(|o| o.bindings.clone());
            assert_eq!(feature, output.is_some());
            output
        };
        let on = Options::default();
        let off = Options {
            shader_tessellation_and_geometry_point_size: false,
            ..Options::default()
        };
        let pointsize = vec!["result.pointsize".to_string()];
        assert_eq!(point_size(&src("POINTS"), &on), Some(pointsize));
        assert_eq!(point_size(&src("POINTS"), &off), None);
        assert_eq!(point_size(&src("LINE_STRIP"), &on), None);
    }

    /// The interpreter records each vertex's stream; a stream outside 0 to
    /// 3 (7 here) is undefined and its vertex dropped, as on the device.
    #[test]
    fn the_interpreter_emits_to_the_streams() {
        let (program, _) = crate::check(EMITS, &Options::default()).unwrap();
        let out = crate::interp::run(&program, &Default::default(), &Default::default()).unwrap();
        let streams: Vec<u32> = out.vertices.iter().map(|v| v.stream).collect();
        assert_eq!(streams, [1, 2, 0]);
        assert!(!out.undefined.is_empty(), "EMITS to stream 7 is undefined");
    }
}
