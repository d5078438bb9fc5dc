//! The module under construction: rspirv's `dr::Builder` for the
//! declarations (capabilities, entry point, names, types, constants,
//! global variables), and function bodies and decorations written
//! straight as words.
//!
//! `dr::Builder` keeps every instruction as a heap object with a
//! `Vec<Operand>` until the module is assembled. A function body is most
//! of a module (≈ 15 instructions per source instruction, each with its
//! NoContraction decoration when it rounds), and building and freeing those
//! objects was most of the lowering's time and memory
//! (docs/performance.md, "The backend"). Declarations are few and looked
//! up again (rspirv deduplicates types), so they stay in `dr`.
//!
//! [`Builder`] dereferences to the `dr::Builder` for declarations and
//! shadows the methods of rspirv's vocabulary that write function bodies
//! (`begin_function`, `begin_block`, `load`, `branch`, ...) and
//! annotations (`decorate`, `member_decorate`) with methods of the same
//! names and signatures that append words. So the lowering calls
//! `self.b.load(...)` as before. A body method that is not shadowed
//! here reaches `dr::Builder`, which has no function selected and returns
//! `DetachedInstruction` / `DetachedBlock`: the lowering fails loudly
//! (an internal error), it never writes a broken module.
//!
//! The words are the same, in the same order, with the same ids, as
//! `dr::Module::assemble` gave (tests/out/spv holds the disassembly of
//! every kept program).

use rspirv::binary::Assemble;
use rspirv::dr::{self, Error};
use rspirv::spirv::{self, Op, Word};

type BuildResult<T> = Result<T, Error>;

/// Declarations through rspirv, bodies and annotations as words.
pub(crate) struct Builder {
    declarations: dr::Builder,
    /// OpDecorate / OpMemberDecorate, in the order they were made, in the
    /// compact form of [`Annotations`].
    annotations: Annotations,
    /// Finished functions, as the parts they were built in: moved here,
    /// not copied, and copied once into the module by `assemble` (a big
    /// program's body is most of the module; each copy of it would be
    /// part of the peak memory).
    functions: Vec<Vec<u32>>,
    /// The current function's OpFunction, parameters and first OpLabel.
    head: Vec<u32>,
    /// The function under construction.
    function: Option<OpenFunction>,
    /// The current function's instructions after its first OpLabel
    /// (moved to `functions` when the function ends).
    body: Vec<u32>,
    /// The current function's Function-storage variables (result type,
    /// id, initialiser): SPIR-V requires them at the start of the first
    /// block, however late the lowering declares them (SPIR-V 2.4,
    /// "Logical Layout of a Module").
    variables: Vec<(Word, Word, Option<Word>)>,
    /// Runs of straight-line code begun so far (`straight_line_run`).
    straight_line_runs: u64,
}

struct OpenFunction {
    /// Blocks begun so far.
    blocks: usize,
    /// Whether the last block begun is still open (no terminator yet).
    in_block: bool,
}

impl std::ops::Deref for Builder {
    type Target = dr::Builder;
    fn deref(&self) -> &dr::Builder {
        &self.declarations
    }
}

impl std::ops::DerefMut for Builder {
    fn deref_mut(&mut self) -> &mut dr::Builder {
        &mut self.declarations
    }
}

/// The first word of an instruction: its word count and opcode.
fn head(op: Op, words: usize) -> u32 {
    ((words as u32) << 16) | op as u32
}

/// The module's annotations while it is built. Nearly all of a big
/// module's are a three-word `OpDecorate %id NoContraction` (or
/// `RelaxedPrecision`) without operands, one per rounded operation
/// (docs/performance.md, "Session 10 (memory)"); they are kept as one word
/// each, the id with the decoration in its top two bits, and written out
/// in full, in the same order, when the module is assembled. Every other
/// annotation is kept as its words. The two never mix up: an
/// instruction's first word has its word count in the high half, and no
/// annotation the lowering makes is 32 768 words long, so its top bit is
/// clear.
#[derive(Default)]
struct Annotations {
    words: Vec<u32>,
    /// How many entries of `words` are short ones (three words each in
    /// the module).
    short: usize,
}

/// The top two bits of a short annotation: which decoration.
const SHORT_NO_CONTRACTION: u32 = 0b10 << 30;
const SHORT_RELAXED_PRECISION: u32 = 0b11 << 30;
const SHORT_ID: u32 = (1 << 30) - 1;

impl Annotations {
    /// Keeps `OpDecorate %target decoration` as one word, if it has a short
    /// form; false if it must be kept whole.
    fn push_short(&mut self, target: Word, decoration: spirv::Decoration) -> bool {
        let tag = match decoration {
            spirv::Decoration::NoContraction => SHORT_NO_CONTRACTION,
            spirv::Decoration::RelaxedPrecision => SHORT_RELAXED_PRECISION,
            _ => return false,
        };
        if target > SHORT_ID {
            return false;
        }
        self.words.push(tag | target);
        self.short += 1;
        true
    }

    /// The annotations' size in the module, in words.
    fn len(&self) -> usize {
        self.words.len() + 2 * self.short
    }

    /// Calls `f` on each annotation's words, in order.
    fn for_each(&self, mut f: impl FnMut(&[u32])) {
        let mut at = 0;
        while let Some(&first) = self.words.get(at) {
            if first >> 31 == 1 {
                let decoration = match first & !SHORT_ID {
                    SHORT_NO_CONTRACTION => spirv::Decoration::NoContraction,
                    _ => spirv::Decoration::RelaxedPrecision,
                };
                f(&[head(Op::Decorate, 3), first & SHORT_ID, decoration as u32]);
                at += 1;
            } else {
                let count = ((first >> 16) as usize).max(1);
                f(&self.words[at..at + count]);
                at += count;
            }
        }
    }

    fn write_into(&self, out: &mut Vec<u32>) {
        self.for_each(|w| out.extend_from_slice(w));
    }

    /// Writes the annotations into `out`, which is exactly `len()` long.
    fn write_to(&self, out: &mut [u32]) {
        let mut at = 0;
        self.for_each(|w| {
            out[at..at + w.len()].copy_from_slice(w);
            at += w.len();
        });
    }
}

impl Builder {
    pub(crate) fn new() -> Builder {
        Builder {
            declarations: dr::Builder::new(),
            annotations: Annotations::default(),
            functions: Vec::new(),
            head: Vec::new(),
            function: None,
            body: Vec::new(),
            variables: Vec::new(),
            straight_line_runs: 0,
        }
    }

    /// The module's words: rspirv's declarations with the annotations in
    /// their section and the functions last (SPIR-V 2.4, "Logical Layout
    /// of a Module").
    pub(crate) fn assemble(self) -> Vec<u32> {
        let module = self.declarations.module();
        let mut declarations = Vec::new();
        if let Some(header) = &module.header {
            header.assemble_into(&mut declarations);
        }
        let before_annotations = module
            .capabilities
            .iter()
            .chain(&module.extensions)
            .chain(&module.ext_inst_imports)
            .chain(&module.memory_model)
            .chain(&module.entry_points)
            .chain(&module.execution_modes)
            .chain(&module.debug_string_source)
            .chain(&module.debug_names)
            .chain(&module.debug_module_processed)
            .chain(&module.annotations);
        for inst in before_annotations {
            inst.assemble_into(&mut declarations);
        }
        let annotations_end = declarations.len();
        for inst in &module.types_global_values {
            inst.assemble_into(&mut declarations);
        }
        let functions: usize = self.functions.iter().map(Vec::len).sum();
        let annotations = self.annotations.len();
        let total = declarations.len() + annotations + functions;
        let mut parts = self.functions;
        let last = parts.pop().unwrap_or_default();
        let after_annotations: Vec<&[u32]> = std::iter::once(&declarations[annotations_end..])
            .chain(parts.iter().map(Vec::as_slice))
            .collect();
        if 2 * last.len() < functions {
            let mut words = Vec::with_capacity(total);
            words.extend_from_slice(&declarations[..annotations_end]);
            self.annotations.write_into(&mut words);
            for piece in after_annotations {
                words.extend_from_slice(piece);
            }
            words.extend_from_slice(&last);
            return words;
        }
        // The last function's body is most of a big module: it becomes the
        // module in place (moved to the end of its own buffer, everything
        // else copied in front), so the module's words exist once, not
        // twice, at the end of a lowering.
        let mut words = last;
        let len = words.len();
        words.resize(total, 0);
        words.copy_within(..len, total - len);
        let mut at = annotations_end;
        words[..at].copy_from_slice(&declarations[..annotations_end]);
        self.annotations.write_to(&mut words[at..at + annotations]);
        at += annotations;
        drop(self.annotations);
        for piece in after_annotations {
            words[at..at + piece.len()].copy_from_slice(piece);
            at += piece.len();
        }
        // The body was reserved by an estimate (`reserve_body`); the
        // module keeps only its words.
        words.shrink_to_fit();
        words
    }

    // ---- annotations ----------------------------------------------------

    pub(crate) fn decorate(
        &mut self,
        target: Word,
        decoration: spirv::Decoration,
        additional_params: impl IntoIterator<Item = dr::Operand>,
    ) {
        let mut params = additional_params.into_iter().peekable();
        if params.peek().is_none() && self.annotations.push_short(target, decoration) {
            return;
        }
        let words = &mut self.annotations.words;
        let start = words.len();
        words.extend([0, target, decoration as u32]);
        for p in params {
            p.assemble_into(words);
        }
        words[start] = head(Op::Decorate, words.len() - start);
    }

    pub(crate) fn member_decorate(
        &mut self,
        structure_type: Word,
        member: u32,
        decoration: spirv::Decoration,
        additional_params: impl IntoIterator<Item = dr::Operand>,
    ) {
        let words = &mut self.annotations.words;
        let start = words.len();
        words.extend([0, structure_type, member, decoration as u32]);
        for p in additional_params {
            p.assemble_into(words);
        }
        words[start] = head(Op::MemberDecorate, words.len() - start);
    }

    // ---- functions and blocks -------------------------------------------

    pub(crate) fn begin_function(
        &mut self,
        return_type: Word,
        function_id: Option<Word>,
        control: spirv::FunctionControl,
        function_type: Word,
    ) -> BuildResult<Word> {
        if self.function.is_some() {
            return Err(Error::NestedFunction);
        }
        let id = function_id.unwrap_or_else(|| self.declarations.id());
        self.head.extend([
            head(Op::Function, 5),
            return_type,
            id,
            control.bits(),
            function_type,
        ]);
        self.function = Some(OpenFunction {
            blocks: 0,
            in_block: false,
        });
        Ok(id)
    }

    /// Room for `words` more words in the function body, so a big body
    /// is not copied as it grows (`BODY_WORDS_PER_STATEMENT`).
    pub(crate) fn reserve_body(&mut self, words: usize) {
        self.body.reserve(words);
    }

    pub(crate) fn function_parameter(&mut self, result_type: Word) -> BuildResult<Word> {
        match &self.function {
            Some(f) if f.blocks == 0 => {}
            _ => return Err(Error::DetachedFunctionParameter),
        }
        let id = self.declarations.id();
        self.head
            .extend([head(Op::FunctionParameter, 3), result_type, id]);
        Ok(id)
    }

    pub(crate) fn end_function(&mut self) -> BuildResult<()> {
        if self.function.take().is_none() {
            return Err(Error::MismatchedFunctionEnd);
        }
        self.functions.push(std::mem::take(&mut self.head));
        // Each variable went to the top of the first block when it was
        // declared, so the last one declared comes first.
        let mut variables = Vec::with_capacity(5 * self.variables.len());
        for &(ptr_ty, id, init) in self.variables.iter().rev() {
            match init {
                Some(init) => variables.extend([
                    head(Op::Variable, 5),
                    ptr_ty,
                    id,
                    spirv::StorageClass::Function as u32,
                    init,
                ]),
                None => variables.extend([
                    head(Op::Variable, 4),
                    ptr_ty,
                    id,
                    spirv::StorageClass::Function as u32,
                ]),
            }
        }
        self.variables.clear();
        self.functions.push(variables);
        self.body.push(head(Op::FunctionEnd, 1));
        self.functions.push(std::mem::take(&mut self.body));
        Ok(())
    }

    /// The index of the open block of the current function, if any (as
    /// `dr::Builder::selected_block`).
    pub(crate) fn selected_block(&self) -> Option<usize> {
        match &self.function {
            Some(f) if f.in_block => Some(f.blocks - 1),
            _ => None,
        }
    }

    /// Which run of straight-line code the next instruction belongs to: a
    /// new one begins with every block and after every OpFunctionCall (the
    /// callee may write any Private variable). The lowering keeps the
    /// values it knows of registers for one run (`operand::RegisterValues`).
    pub(crate) fn straight_line_run(&self) -> u64 {
        self.straight_line_runs
    }

    pub(crate) fn begin_block(&mut self, label_id: Option<Word>) -> BuildResult<Word> {
        let id = match &self.function {
            None => return Err(Error::DetachedBlock),
            Some(f) if f.in_block => return Err(Error::NestedBlock),
            Some(_) => label_id.unwrap_or_else(|| self.declarations.id()),
        };
        let f = self.function.as_mut().ok_or(Error::DetachedBlock)?;
        // The first block's label stays with the function's head, so its
        // variables can follow it when the function ends.
        let out = if f.blocks == 0 {
            &mut self.head
        } else {
            &mut self.body
        };
        out.extend([head(Op::Label, 2), id]);
        f.blocks += 1;
        f.in_block = true;
        self.straight_line_runs += 1;
        Ok(id)
    }

    /// An OpVariable of Function storage at the top of the current
    /// function's first block.
    pub(crate) fn function_variable(
        &mut self,
        pointer_type: Word,
        id: Word,
        initializer: Option<Word>,
    ) -> BuildResult<()> {
        match &self.function {
            Some(f) if f.blocks > 0 => {}
            _ => return Err(Error::DetachedInstruction(None)),
        }
        self.variables.push((pointer_type, id, initializer));
        Ok(())
    }

    // ---- instructions ---------------------------------------------------

    /// Appends an instruction to the open block.
    pub(crate) fn inst(
        &mut self,
        op: Op,
        result_type: Option<Word>,
        result_id: Option<Word>,
        operands: impl IntoIterator<Item = Word>,
    ) -> BuildResult<()> {
        if self.selected_block().is_none() {
            return Err(Error::DetachedInstruction(None));
        }
        let start = self.body.len();
        self.body.push(0);
        self.body.extend(result_type);
        self.body.extend(result_id);
        self.body.extend(operands);
        self.body[start] = head(op, self.body.len() - start);
        Ok(())
    }

    /// An instruction with a result: a fresh id of type `result_type`,
    /// or `result_id`. Instructions without a method of their own (the
    /// atomics, for one) are appended with it.
    pub(crate) fn value(
        &mut self,
        op: Op,
        result_type: Word,
        result_id: Option<Word>,
        operands: impl IntoIterator<Item = Word>,
    ) -> BuildResult<Word> {
        if self.selected_block().is_none() {
            return Err(Error::DetachedInstruction(None));
        }
        let id = result_id.unwrap_or_else(|| self.declarations.id());
        self.inst(op, Some(result_type), Some(id), operands)?;
        Ok(id)
    }

    /// Appends an instruction built with rspirv's types (rare shapes:
    /// image operands, demotion).
    pub(crate) fn push(&mut self, inst: &dr::Instruction) -> BuildResult<()> {
        if self.selected_block().is_none() {
            return Err(Error::DetachedInstruction(None));
        }
        inst.assemble_into(&mut self.body);
        Ok(())
    }

    /// Appends a terminator and closes the block.
    fn terminate(&mut self, op: Op, operands: impl IntoIterator<Item = Word>) -> BuildResult<()> {
        if self.selected_block().is_none() {
            return Err(Error::MismatchedTerminator);
        }
        self.inst(op, None, None, operands)?;
        if let Some(f) = &mut self.function {
            f.in_block = false;
        }
        Ok(())
    }

    /// The words of rspirv operands.
    fn operand_words(params: impl IntoIterator<Item = dr::Operand>) -> Vec<u32> {
        let mut words = Vec::new();
        for p in params {
            p.assemble_into(&mut words);
        }
        words
    }

    pub(crate) fn load(
        &mut self,
        result_type: Word,
        result_id: Option<Word>,
        pointer: Word,
        memory_access: Option<spirv::MemoryAccess>,
        additional_params: impl IntoIterator<Item = dr::Operand>,
    ) -> BuildResult<Word> {
        let mut params = additional_params.into_iter().peekable();
        if memory_access.is_none() && params.peek().is_none() {
            return self.value(Op::Load, result_type, result_id, [pointer]);
        }
        let extra = Self::operand_words(params);
        self.value(
            Op::Load,
            result_type,
            result_id,
            std::iter::once(pointer)
                .chain(memory_access.map(|m| m.bits()))
                .chain(extra),
        )
    }

    pub(crate) fn store(
        &mut self,
        pointer: Word,
        object: Word,
        memory_access: Option<spirv::MemoryAccess>,
        additional_params: impl IntoIterator<Item = dr::Operand>,
    ) -> BuildResult<()> {
        let extra = Self::operand_words(additional_params);
        self.inst(
            Op::Store,
            None,
            None,
            [pointer, object]
                .into_iter()
                .chain(memory_access.map(|m| m.bits()))
                .chain(extra),
        )
    }

    pub(crate) fn access_chain(
        &mut self,
        result_type: Word,
        result_id: Option<Word>,
        base: Word,
        indexes: impl IntoIterator<Item = Word>,
    ) -> BuildResult<Word> {
        self.value(
            Op::AccessChain,
            result_type,
            result_id,
            std::iter::once(base).chain(indexes),
        )
    }

    pub(crate) fn composite_extract(
        &mut self,
        result_type: Word,
        result_id: Option<Word>,
        composite: Word,
        indexes: impl IntoIterator<Item = u32>,
    ) -> BuildResult<Word> {
        self.value(
            Op::CompositeExtract,
            result_type,
            result_id,
            std::iter::once(composite).chain(indexes),
        )
    }

    pub(crate) fn composite_construct(
        &mut self,
        result_type: Word,
        result_id: Option<Word>,
        constituents: impl IntoIterator<Item = Word>,
    ) -> BuildResult<Word> {
        self.value(Op::CompositeConstruct, result_type, result_id, constituents)
    }

    pub(crate) fn vector_shuffle(
        &mut self,
        result_type: Word,
        result_id: Option<Word>,
        vector_1: Word,
        vector_2: Word,
        components: impl IntoIterator<Item = u32>,
    ) -> BuildResult<Word> {
        self.value(
            Op::VectorShuffle,
            result_type,
            result_id,
            [vector_1, vector_2].into_iter().chain(components),
        )
    }

    pub(crate) fn ext_inst(
        &mut self,
        result_type: Word,
        result_id: Option<Word>,
        extension_set: Word,
        instruction: Word,
        operands: impl IntoIterator<Item = Word>,
    ) -> BuildResult<Word> {
        // The operands are ids, one word each: appended as they come, with
        // no `dr::Operand` nor word `Vec` per call (GLSL.std.450's
        // instructions take only ids; docs/performance.md, "Session 11").
        self.value(
            Op::ExtInst,
            result_type,
            result_id,
            [extension_set, instruction].into_iter().chain(operands),
        )
    }

    pub(crate) fn function_call(
        &mut self,
        result_type: Word,
        result_id: Option<Word>,
        function: Word,
        arguments: impl IntoIterator<Item = Word>,
    ) -> BuildResult<Word> {
        self.straight_line_runs += 1;
        self.value(
            Op::FunctionCall,
            result_type,
            result_id,
            std::iter::once(function).chain(arguments),
        )
    }

    pub(crate) fn image(
        &mut self,
        result_type: Word,
        result_id: Option<Word>,
        sampled_image: Word,
    ) -> BuildResult<Word> {
        self.value(Op::Image, result_type, result_id, [sampled_image])
    }

    pub(crate) fn selection_merge(
        &mut self,
        merge_block: Word,
        selection_control: spirv::SelectionControl,
    ) -> BuildResult<()> {
        self.inst(
            Op::SelectionMerge,
            None,
            None,
            [merge_block, selection_control.bits()],
        )
    }

    pub(crate) fn loop_merge(
        &mut self,
        merge_block: Word,
        continue_target: Word,
        loop_control: spirv::LoopControl,
        additional_params: impl IntoIterator<Item = dr::Operand>,
    ) -> BuildResult<()> {
        let extra = Self::operand_words(additional_params);
        self.inst(
            Op::LoopMerge,
            None,
            None,
            [merge_block, continue_target, loop_control.bits()]
                .into_iter()
                .chain(extra),
        )
    }

    pub(crate) fn array_length(
        &mut self,
        result_type: Word,
        result_id: Option<Word>,
        structure: Word,
        array_member: u32,
    ) -> BuildResult<Word> {
        self.value(
            Op::ArrayLength,
            result_type,
            result_id,
            [structure, array_member],
        )
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn atomic_compare_exchange(
        &mut self,
        result_type: Word,
        result_id: Option<Word>,
        pointer: Word,
        memory: Word,
        equal: Word,
        unequal: Word,
        value: Word,
        comparator: Word,
    ) -> BuildResult<Word> {
        self.value(
            Op::AtomicCompareExchange,
            result_type,
            result_id,
            [pointer, memory, equal, unequal, value, comparator],
        )
    }

    pub(crate) fn control_barrier(
        &mut self,
        execution: Word,
        memory: Word,
        semantics: Word,
    ) -> BuildResult<()> {
        self.inst(
            Op::ControlBarrier,
            None,
            None,
            [execution, memory, semantics],
        )
    }

    pub(crate) fn memory_barrier(&mut self, memory: Word, semantics: Word) -> BuildResult<()> {
        self.inst(Op::MemoryBarrier, None, None, [memory, semantics])
    }

    pub(crate) fn emit_vertex(&mut self) -> BuildResult<()> {
        self.inst(Op::EmitVertex, None, None, [])
    }

    pub(crate) fn emit_stream_vertex(&mut self, stream: Word) -> BuildResult<()> {
        self.inst(Op::EmitStreamVertex, None, None, [stream])
    }

    pub(crate) fn end_primitive(&mut self) -> BuildResult<()> {
        self.inst(Op::EndPrimitive, None, None, [])
    }

    pub(crate) fn end_stream_primitive(&mut self, stream: Word) -> BuildResult<()> {
        self.inst(Op::EndStreamPrimitive, None, None, [stream])
    }

    /// OpLine in the open block (`dr::Builder::line` would put it among
    /// the declarations when no block is open; the lowering asks only
    /// inside blocks).
    pub(crate) fn line(&mut self, file: Word, line: u32, column: u32) {
        // Without an open block there is nothing for it to describe.
        let _ = self.inst(Op::Line, None, None, [file, line, column]);
    }

    // ---- terminators ----------------------------------------------------

    pub(crate) fn branch(&mut self, target_label: Word) -> BuildResult<()> {
        self.terminate(Op::Branch, [target_label])
    }

    pub(crate) fn branch_conditional(
        &mut self,
        condition: Word,
        true_label: Word,
        false_label: Word,
        branch_weights: impl IntoIterator<Item = u32>,
    ) -> BuildResult<()> {
        self.terminate(
            Op::BranchConditional,
            [condition, true_label, false_label]
                .into_iter()
                .chain(branch_weights),
        )
    }

    pub(crate) fn switch(
        &mut self,
        selector: Word,
        default: Word,
        target: impl IntoIterator<Item = (dr::Operand, Word)>,
    ) -> BuildResult<()> {
        let mut operands = vec![selector, default];
        for (literal, label) in target {
            literal.assemble_into(&mut operands);
            operands.push(label);
        }
        self.terminate(Op::Switch, operands)
    }

    pub(crate) fn ret(&mut self) -> BuildResult<()> {
        self.terminate(Op::Return, [])
    }

    pub(crate) fn kill(&mut self) -> BuildResult<()> {
        self.terminate(Op::Kill, [])
    }

    pub(crate) fn unreachable(&mut self) -> BuildResult<()> {
        self.terminate(Op::Unreachable, [])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A void function with one block, for the tests below.
    fn open_function(b: &mut Builder) -> (Word, Word) {
        let void = b.type_void();
        let fn_ty = b.type_function(void, []);
        b.begin_function(void, None, spirv::FunctionControl::NONE, fn_ty)
            .unwrap();
        let label = b.begin_block(None).unwrap();
        (void, label)
    }

    #[test]
    fn function_variables_declared_late_open_the_first_block_last_declared_first() {
        let mut b = Builder::new();
        let (_, label) = open_function(&mut b);
        let float = b.type_float(32, None);
        let ptr = b.type_pointer(None, spirv::StorageClass::Function, float);
        let first = b.id();
        b.function_variable(ptr, first, None).unwrap();
        let loaded = b.load(float, None, first, None, []).unwrap();
        let second = b.id();
        b.function_variable(ptr, second, None).unwrap();
        b.ret().unwrap();
        b.end_function().unwrap();
        let words = b.assemble();
        let label_at = words
            .windows(2)
            .position(|w| w == [head(Op::Label, 2), label])
            .expect("the first block's label");
        let after = &words[label_at + 2..];
        let variable = |id| {
            [
                head(Op::Variable, 4),
                ptr,
                id,
                spirv::StorageClass::Function as u32,
            ]
        };
        assert_eq!(after[..4], variable(second));
        assert_eq!(after[4..8], variable(first));
        assert_eq!(after[8..12], [head(Op::Load, 4), float, loaded, first]);
        assert_eq!(after[12..], [head(Op::Return, 1), head(Op::FunctionEnd, 1)]);
    }

    #[test]
    fn instructions_outside_an_open_block_are_errors_not_words() {
        let mut b = Builder::new();
        let float = b.type_float(32, None);
        assert!(b.load(float, None, 1, None, []).is_err());
        assert!(b.begin_block(None).is_err());
        open_function(&mut b);
        b.ret().unwrap();
        // The block is closed: neither another instruction nor another
        // terminator may follow.
        assert!(b.store(1, 2, None, []).is_err());
        assert!(b.branch(3).is_err());
        assert!(b.selected_block().is_none());
        assert!(b
            .begin_function(0, None, spirv::FunctionControl::NONE, 0)
            .is_err());
        b.end_function().unwrap();
        assert!(b.end_function().is_err());
    }

    #[test]
    fn decorations_keep_their_order_between_the_declarations_and_the_types() {
        let mut b = Builder::new();
        b.capability(spirv::Capability::Shader);
        b.decorate(7, spirv::Decoration::NoContraction, []);
        b.member_decorate(
            8,
            1,
            spirv::Decoration::Offset,
            [dr::Operand::LiteralBit32(16)],
        );
        let float = b.type_float(32, None);
        let words = b.assemble();
        let body = &words[5..];
        assert_eq!(
            body[..2],
            [head(Op::Capability, 2), spirv::Capability::Shader as u32]
        );
        assert_eq!(
            body[2..5],
            [
                head(Op::Decorate, 3),
                7,
                spirv::Decoration::NoContraction as u32
            ]
        );
        assert_eq!(
            body[5..10],
            [
                head(Op::MemberDecorate, 5),
                8,
                1,
                spirv::Decoration::Offset as u32,
                16
            ]
        );
        assert_eq!(body[10..], [head(Op::TypeFloat, 3), float, 32]);
    }

    #[test]
    fn short_and_whole_annotations_are_written_in_the_order_they_were_made() {
        let mut b = Builder::new();
        b.decorate(7, spirv::Decoration::NoContraction, []);
        b.decorate(
            9,
            spirv::Decoration::Location,
            [dr::Operand::LiteralBit32(3)],
        );
        b.decorate(SHORT_ID + 1, spirv::Decoration::NoContraction, []);
        b.decorate(11, spirv::Decoration::RelaxedPrecision, []);
        b.member_decorate(
            12,
            0,
            spirv::Decoration::Offset,
            [dr::Operand::LiteralBit32(4)],
        );
        let decorate = |id, d: spirv::Decoration| [head(Op::Decorate, 3), id, d as u32];
        let mut expected = Vec::new();
        expected.extend(decorate(7, spirv::Decoration::NoContraction));
        expected.extend([
            head(Op::Decorate, 4),
            9,
            spirv::Decoration::Location as u32,
            3,
        ]);
        expected.extend(decorate(SHORT_ID + 1, spirv::Decoration::NoContraction));
        expected.extend(decorate(11, spirv::Decoration::RelaxedPrecision));
        expected.extend([
            head(Op::MemberDecorate, 5),
            12,
            0,
            spirv::Decoration::Offset as u32,
            4,
        ]);
        assert_eq!(b.annotations.len(), expected.len());
        // Two short ones; the id past the short form's range is kept whole.
        assert_eq!(b.annotations.short, 2);
        let words = b.assemble();
        assert_eq!(words[5..], expected[..]);
    }
}
