//! Registers and the program interface, exactly as docs/interface.md states
//! them: temporaries, uniform blocks for `program.env` / `program.local`,
//! and the Location / built-in of every attribute and result binding.

use std::collections::{BTreeMap, HashMap};

use rspirv::dr::Operand as SpvOperand;
use rspirv::spirv::{BuiltIn, Capability, Decoration, StorageClass, Word};

use super::emit::{register_class, Comp, LResult};
use super::geometry::VertexSel;
use super::{Analysis, LowerError, Lowerer};
use crate::ir::{
    AttribBinding, ColorSel, ComputeAttrib, Interpolation, Literal, ParamBinding, PatchAttrib,
    PerVertexAttrib, Precision, ResultBinding, ThreadAttrib, VarId, VarKind, VarType, Variable,
};
use crate::isa::Stage;
use crate::layout::{Param, PushConstants};
use crate::state::{read_path as state_read, Read as StateRead, ROWS as STATE_ROWS};
use std::rc::Rc;

/// `program.buffer[b]` is at the uniform binding base + 3 + b, b < 16
/// (docs/interface.md, "Descriptor sets").
pub(crate) const MAX_BUFFER_BINDINGS: u32 = 16;

/// How a used variable is stored.
pub(crate) enum Storage {
    /// A TEMP: one four-component variable, or an array of them. Typeless
    /// temporaries hold `uvec4` bit patterns (docs/interface.md,
    /// "Registers"); typed ones their own vector type.
    Register {
        ptr: Word,
        class: StorageClass,
        comp: Comp,
        len: Option<u32>,
    },
    /// A PARAM: where each element comes from.
    // Shared, so that `operand::storage_of` copies a pointer per access
    // rather than the list (c[64] is read by most instructions).
    Param { elements: Rc<[ParamSource]> },
    /// A BUFFER / BUFFER4 variable (NV_parameter_buffer_object): element
    /// `e` is word `first + e` (BUFFER, replicated to four components) or
    /// vec4 `first + e` (BUFFER4) of `program.buffer[buffer]`.
    Buffer { buffer: u32, first: u32, vec4: bool },
    /// An ATTRIB or OUTPUT: the interface slot of each element.
    Io { elements: Rc<[IoSlot]> },
}

/// The storage of each used variable, by its id: a slot per variable of
/// the program instead of a hash map, since nearly every operand and
/// destination asks for it (`operand::storage_of`; docs/performance.md,
/// "Session 11").
#[derive(Default)]
pub(crate) struct VarStorage {
    by_id: Vec<Option<Storage>>,
}

impl VarStorage {
    pub(crate) fn get(&self, var: &VarId) -> Option<&Storage> {
        self.by_id.get(var.0 as usize)?.as_ref()
    }

    pub(crate) fn insert(&mut self, var: VarId, storage: Storage) {
        let i = var.0 as usize;
        if i >= self.by_id.len() {
            self.by_id.resize_with(i + 1, || None);
        }
        self.by_id[i] = Some(storage);
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum ParamSource {
    /// A literal vector, typed per use (section 2.X.3.3).
    Constant([Literal; 4]),
    /// `program.env[element]` or `program.local[element]`.
    Block { block: ParamBlock, element: u32 },
    /// A GL state binding, read from the State block (state.rs).
    State(StateRead),
    /// vec4 `element` of `program.buffer[buffer]`.
    BufferElement { buffer: u32, element: u32 },
    /// `program.subroutine[n]`, read from the `ProgramSubroutine` block.
    Subroutine(u32),
    /// NV_shader_thread_group 2.X.3.3's `state.thread.warpsize`: the
    /// SubgroupSize built-in, (size, 0, 0, 0) (docs/interface.md, "Thread
    /// groups").
    WarpSize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum ParamBlock {
    Env,
    Local,
}

impl ParamBlock {
    pub(crate) fn index(self) -> usize {
        match self {
            ParamBlock::Env => 0,
            ParamBlock::Local => 1,
        }
    }
    /// Element `element` as a layout parameter.
    pub(crate) fn param(self, element: u32) -> Param {
        match self {
            ParamBlock::Env => Param::Env(element),
            ParamBlock::Local => Param::Local(element),
        }
    }
    fn names(self) -> (&'static str, &'static str, &'static str) {
        match self {
            ParamBlock::Env => ("ProgramEnv", "env", "program_env"),
            ParamBlock::Local => ("ProgramLocal", "local", "program_local"),
        }
    }
}

/// One element of an attribute or result variable.
#[derive(Clone, Copy, Debug)]
pub(crate) struct IoSlot {
    pub var: Word,
    /// The component type of the SPIR-V variable.
    pub comp: Comp,
    pub shape: IoShape,
    pub class: StorageClass,
    /// A geometry program input: which vertex of the per-vertex array
    /// (docs/interface.md, "Geometry programs").
    pub vertex: VertexSel,
}

/// How a vec4 register view maps onto the interface variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum IoShape {
    /// A four-component variable (a Location, Position, FragCoord).
    Vec4,
    /// A scalar variable carrying one component of the vec4 (`vertex.id`
    /// in x, `result.depth` in z, ...); the other components read as 0.
    Scalar { component: u8 },
    /// Element `index` of the ClipDistance array, carried in x.
    ClipElement { index: u32 },
    /// FrontFacing, read as (+1.0 or -1.0, 0, 0, 1).
    Facing,
    /// HelperInvocation, read as (-1 or 0, 0, 0, 0) (NV_shader_thread_group
    /// 2.X.3.2, `fragment.helperthread`).
    Helper,
    /// Element 0 of a SampleMask array (input or output), carried in x
    /// (`fragment.samplemask`, `result.samplemask`).
    SampleMask,
    /// A built-in of `n` < 4 components (PointCoord: 2; TessCoord and the
    /// compute ids: 3), read with the missing components 0 (the specs
    /// leave them undefined).
    Partial { n: u32 },
    /// `invocation.groupsize`: GROUP_SIZE as a constant (w = 0); no variable.
    GroupSize,
    /// A geometry program's `primitive.vertexcount`: PRIMITIVE_IN's vertex
    /// count as a constant in x; no variable (Vulkan has no built-in for
    /// it, and the input primitive fixes it).
    InputVertexCount,
    /// A LONG vertex attribute (NV_gpu_program5 2.X.3.1): `uvec4[2]` at
    /// Locations n and n + 1, the little-endian words of x, y then z, w,
    /// read as four 64-bit components (docs/interface.md, "64-bit vertex
    /// attributes").
    Long64,
    /// The fog coordinate attribute: a four-component Location read as
    /// (f, 0, 0, 1), f in x (ARB_vertex_program Table X.2 and
    /// ARB_fragment_program Table 3.X: `vertex.fogcoord`,
    /// `fragment.fogcoord` "(f,0,0,1)"; NV_gpu_program4 leaves y, z, w
    /// undefined, so every header gets the ARB value).
    FogCoord,
}

impl IoShape {
    /// A value the program's declarations fix, loaded as a constant: no
    /// interface variable is declared for it.
    fn is_constant(self) -> bool {
        matches!(self, IoShape::GroupSize | IoShape::InputVertexCount)
    }
}

/// A colour a fragment program reads with two-sided selection
/// (`Options::two_sided_color`): `selected` (Private) holds `front` or
/// `back` (the Location 0 or 1 input, and 2 or 3).
#[derive(Clone, Copy, Debug)]
pub(crate) struct TwoSidedColor {
    pub selected: Word,
    pub front: Word,
    pub back: Word,
    pub comp: Comp,
}

/// Where `program.env` or `program.local` is read from: member `member` of
/// the uniform block or push constant block `var`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BlockVar {
    pub var: Word,
    pub class: StorageClass,
    pub member: u32,
}

#[derive(Default)]
pub(crate) struct Io {
    /// Where `program.env` and `program.local` are (a ProgramEnv /
    /// ProgramLocal uniform block, or a member of the push constants).
    pub blocks: [Option<BlockVar>; 2],
    /// Specialized parameters: the `uvec4` OpSpecConstantComposite of each
    /// (docs/interface.md, "Specialization constants").
    pub specialized: HashMap<(ParamBlock, u32), Word>,
    /// Every interface variable by its slot (the fixed-function code finds
    /// its inputs and outputs here).
    slots: HashMap<IoKey, (Word, Comp)>,
    /// Two-sided colour selection: the Private copies the program reads
    /// its colours from, with the front and back inputs they select from.
    pub two_sided: Vec<TwoSidedColor>,
    /// `result.depth` is written: DepthReplacing.
    pub writes_depth: bool,
    /// Private copies of all-constant PARAM arrays, per read type, for
    /// relative addressing.
    pub const_arrays: HashMap<(VarId, Comp), Word>,
    /// The State block (uniform binding base + 2), when a state binding is
    /// used.
    pub state_block: Option<Word>,
    /// `program.buffer[b]` blocks (binding 3 + b), by b.
    pub buffers: BTreeMap<u32, Word>,
    /// The words each `program.buffer[b]` block declares (4 per uvec4):
    /// the bound of LDC's register-addressed reads (memory.rs).
    pub buffer_words: BTreeMap<u32, u32>,
    /// The `program.subroutine` block (binding 19), when a SUBROUTINE
    /// variable is read.
    pub subroutine_block: Option<Word>,
    /// `texture[n]` descriptors (binding 32 + n), by n (texture.rs).
    pub textures: BTreeMap<u32, super::texture::TextureUnit>,
    /// NV_bindless_texture's arrays, by target name (texture.rs).
    pub bindless: BTreeMap<&'static str, super::texture::TextureUnit>,
    /// `image[n]` storage images, by n (image.rs).
    pub images: BTreeMap<u32, super::image::ImageUnit>,
    /// NV_bindless_texture's image handle arrays, by target and format
    /// (image.rs; `var` is the array).
    pub bindless_images: BTreeMap<crate::ir::BindlessImageArray, super::image::ImageUnit>,
    /// A tessellation control program's InvocationId input.
    pub invocation_id: Option<Word>,
    /// `program.storage[a]` buffers, by a (memory.rs).
    pub storage: BTreeMap<u32, super::memory::StorageBuffer>,
    /// The 64-bit views of `program.storage[a]` (`uint64_t data[]` at the
    /// same binding), by a, declared by the first 64-bit atomic on the
    /// buffer (memory.rs).
    pub storage64: BTreeMap<u32, Word>,
    /// `program.counter[a]` atomic counter buffers, by a (memory.rs).
    pub counters: BTreeMap<u32, super::memory::StorageBuffer>,
    /// The work group's shared memory (`SHARED_MEMORY`), when a SHARED
    /// variable exists (memory.rs).
    pub shared: Option<super::memory::SharedMemory>,
    /// Every Output variable that is not per-vertex or per-patch, as
    /// declared: what transform feedback capture lays out (geometry.rs).
    pub outputs: Vec<OutputVar>,
    /// Transform feedback capture is declared (the `Xfb` mode).
    pub xfb: bool,
    /// A geometry program with EMITS: it emits to several streams, so EMIT
    /// and ENDPRIM name stream 0 (geometry.rs).
    pub multi_stream: bool,
    /// For each vertex stream 1 to 3 (element k - 1), the (result, copy,
    /// type) of every result: `EMITS k` copies each result into its
    /// stream-k copy before emitting (geometry.rs).
    pub stream_copies: Vec<Vec<(Word, Word, Word)>>,
}

/// An Output variable of the program's results.
#[derive(Clone, Copy, Debug)]
pub(crate) struct OutputVar {
    pub var: Word,
    /// The variable's type.
    pub pointee: Word,
    /// Its component type.
    pub comp: Comp,
    /// The built-in it is, or `None` for a Location output.
    pub builtin: Option<BuiltIn>,
    pub location: Option<u32>,
    /// Its size in 32-bit words.
    pub words: u32,
    /// The Locations a Location variable of its type takes (an array of n
    /// takes n; Vulkan, "Location and Component Assignment").
    pub locations: u32,
}

/// The identity of an interface variable: aliases such as
/// `vertex.position` / `vertex.attrib[0]` share one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum IoKey {
    Location { output: bool, location: u32 },
    BuiltIn { output: bool, builtin: u32 },
}

#[derive(Clone, Copy, Debug)]
struct SlotSpec {
    key: IoKey,
    shape: IoShape,
    /// The variable's component type (built-ins have fixed ones).
    comp: Comp,
    /// Whether the declaration chose `comp` (INT / UINT / FLOAT); the first
    /// typed declaration of a shared slot decides its type.
    typed: bool,
    /// FLAT / CENTROID / NOPERSPECTIVE of a fragment attribute.
    interpolation: Interpolation,
    /// A geometry program's per-vertex input (an array over the vertices
    /// of the input primitive).
    vertex: VertexSel,
    /// A per-patch variable of a tessellation program (`Patch`).
    patch: bool,
}

#[derive(Clone, Copy)]
struct KeyInfo {
    comp: Comp,
    typed: bool,
    shape: IoShape,
    clip_len: u32,
    interpolation: Interpolation,
    per_vertex: bool,
    patch: bool,
}

impl Lowerer<'_> {
    /// Creates the storage of every used variable except the temporaries
    /// that live in the entry function (`declare_function_registers`).
    pub(crate) fn declare_variables(&mut self, analysis: &Analysis) -> LResult<()> {
        let program = self.program;
        let layout = self.options.stage_layout(program.stage);
        let mut block_len = [0u32; 2];
        // Whether some element read from the block is not specialized.
        let mut block_read = [false; 2];
        let mut state_len = 0u32;
        let mut buffer_len: BTreeMap<u32, u32> = BTreeMap::new();
        let mut subroutine_len = 0u32;
        let mut io_vars: Vec<(VarId, Vec<SlotSpec>)> = Vec::new();
        for &id in &analysis.variables {
            let var = program.var(id);
            match &var.kind {
                // Declared by binding point (memory.rs).
                VarKind::Storage(_)
                | VarKind::Shared(_)
                | VarKind::Counter(_)
                | VarKind::GlobalMemory => {}
                // LDC's bytes: the block covers the highest byte it reads
                // (docs/interface.md, "Parameter buffers").
                VarKind::ConstantBuffer(binding) => {
                    let end = analysis.buffer_reach.get(&id).copied().unwrap_or(0);
                    self.check_buffer_binding(binding.buffer, var.span)?;
                    let len = buffer_len.entry(binding.buffer).or_insert(0);
                    *len = (*len).max(end.div_ceil(16));
                }
                VarKind::Temp => {
                    if self.private_registers {
                        let storage = self.register(id, var, true)?;
                        self.storage.insert(id, storage);
                    }
                }
                VarKind::Param(bindings) => {
                    check_len(var, bindings.len())?;
                    let mut elements = Vec::with_capacity(bindings.len());
                    for binding in bindings {
                        let source = match binding {
                            ParamBinding::Constant(lits) => ParamSource::Constant(*lits),
                            ParamBinding::Env(n) => ParamSource::Block {
                                block: ParamBlock::Env,
                                element: *n,
                            },
                            ParamBinding::Local(n) => ParamSource::Block {
                                block: ParamBlock::Local,
                                element: *n,
                            },
                            ParamBinding::State(item) if item.path == ["thread", "warpsize"] => {
                                ParamSource::WarpSize
                            }
                            ParamBinding::State(item) => {
                                let read = state_read(&item.path)
                                    .map_err(|what| LowerError::unsupported(what, var.span))?;
                                if read.rows().end > STATE_ROWS {
                                    return Err(LowerError::internal_at(
                                        "a state row past the State block",
                                        var.span,
                                    ));
                                }
                                state_len = state_len.max(read.rows().end);
                                ParamSource::State(read)
                            }
                            ParamBinding::BufferElement { buffer, element } => {
                                self.check_buffer_binding(*buffer, var.span)?;
                                let len = buffer_len.entry(*buffer).or_insert(0);
                                *len = (*len).max(element.saturating_add(1));
                                ParamSource::BufferElement {
                                    buffer: *buffer,
                                    element: *element,
                                }
                            }
                            ParamBinding::Subroutine(n) => {
                                subroutine_len = subroutine_len.max(n.saturating_add(1));
                                ParamSource::Subroutine(*n)
                            }
                        };
                        if let ParamSource::Block { block, element } = source {
                            let specialization = layout.specialization(block.param(element));
                            // The block reaches every element it is read
                            // for: the unspecialized ones, and all of an
                            // array's (a relative read indexes the block;
                            // docs/interface.md, "Specialization constants").
                            if specialization.is_none() || var.array_len.is_some() {
                                let len = &mut block_len[block.index()];
                                *len = (*len).max(element.saturating_add(1));
                            }
                            match specialization {
                                Some(spec) => {
                                    if !self.io.specialized.contains_key(&(block, element)) {
                                        let id = self.spec_constant(spec);
                                        self.io.specialized.insert((block, element), id);
                                    }
                                }
                                None => block_read[block.index()] = true,
                            }
                        }
                        elements.push(source);
                    }
                    self.storage.insert(
                        id,
                        Storage::Param {
                            elements: elements.into(),
                        },
                    );
                }
                VarKind::Attrib(bindings) => {
                    check_len(var, bindings.len())?;
                    let mut specs = bindings
                        .iter()
                        .map(|b| attrib_spec(program.stage, b, var.ty))
                        .collect::<Result<Vec<_>, String>>()
                        .map_err(|what| LowerError::unsupported(what, var.span))?;
                    if program.long_storage(id) {
                        for spec in &mut specs {
                            long_attrib(spec)
                                .map_err(|what| LowerError::unsupported(what, var.span))?;
                        }
                    }
                    // Interpolation modifiers apply to the interpolated
                    // attributes only, not to the built-ins (the bindings
                    // marked "*" in NV_fragment_program4's table).
                    for spec in &mut specs {
                        if matches!(spec.key, IoKey::Location { .. }) {
                            spec.interpolation = var.interpolation;
                        }
                    }
                    io_vars.push((id, specs));
                }
                VarKind::Result(bindings) => {
                    check_len(var, bindings.len())?;
                    let specs = bindings
                        .iter()
                        .map(|b| result_spec(program.stage, b, var.ty))
                        .collect::<Result<Vec<_>, String>>()
                        .map_err(|what| LowerError::unsupported(what, var.span))?;
                    io_vars.push((id, specs));
                }
                VarKind::Buffer(binding) => {
                    // The highest element an access can reach: the highest
                    // absolute index, or the whole (clamped) array for
                    // relative addressing (docs/interface.md, "Parameter
                    // buffers").
                    let reach = analysis.buffer_reach.get(&id).copied().unwrap_or(1);
                    let end = binding.first.saturating_add(reach);
                    let vec4s = if binding.vec4 { end } else { end.div_ceil(4) };
                    self.check_buffer_binding(binding.buffer, var.span)?;
                    let len = buffer_len.entry(binding.buffer).or_insert(0);
                    *len = (*len).max(vec4s);
                    self.storage.insert(
                        id,
                        Storage::Buffer {
                            buffer: binding.buffer,
                            first: binding.first,
                            vec4: binding.vec4,
                        },
                    );
                }
            }
        }
        // Parameter arrays some element of which is read from memory.
        for (b, read) in block_read.iter().enumerate() {
            if !read {
                block_len[b] = 0;
            }
        }
        let [env_len, local_len] = block_len;
        let push = push_constant_plan(
            layout.push_constants,
            layout.push_constant_offset,
            env_len,
            local_len,
            self.options.device_limits.max_push_constants_size,
        );
        if push.env || push.local {
            self.push_constant_block(layout.push_constant_offset, &push, env_len, local_len);
        }
        for (block, pushed) in [(ParamBlock::Env, push.env), (ParamBlock::Local, push.local)] {
            let len = block_len[block.index()];
            if len > 0 && !pushed {
                let binding = match block {
                    ParamBlock::Env => layout.env_binding(),
                    ParamBlock::Local => layout.local_binding(),
                };
                let var = self.uniform_block(block.names(), Comp::U32, len, binding);
                self.io.blocks[block.index()] = Some(BlockVar {
                    var,
                    class: StorageClass::Uniform,
                    member: 0,
                });
            }
        }
        let fixed = self.fixed.clone();
        state_len = state_len.max(fixed.state_rows_end());
        if state_len > 0 {
            // docs/interface.md, "The State block": vec4 rows at uniform
            // binding base + 2.
            let var = self.uniform_block(
                ("State", "rows", "state"),
                Comp::F32,
                state_len,
                layout.state_binding(),
            );
            self.io.state_block = Some(var);
        }
        for (buffer, len) in buffer_len {
            // docs/interface.md, "Parameter buffers": uvec4 at uniform
            // binding base + 3 + b.
            let var = self.uniform_block(
                ("ProgramBuffer", "data", &format!("program_buffer{buffer}")),
                Comp::U32,
                len.max(1),
                layout.buffer_binding(buffer),
            );
            self.io.buffers.insert(buffer, var);
            self.io
                .buffer_words
                .insert(buffer, len.max(1).saturating_mul(4));
        }
        if subroutine_len > 0 {
            // docs/interface.md, "Subroutine parameters": uvec4 at uniform
            // binding base + 19, the SUBROUTINENUM in x.
            let var = self.uniform_block(
                ("ProgramSubroutine", "subroutine", "program_subroutine"),
                Comp::U32,
                subroutine_len,
                layout.subroutine_binding(),
            );
            self.io.subroutine_block = Some(var);
        }
        // The inputs and outputs the fixed-function work of options reads
        // and writes, at the slots the bindings have (docs/semantics.md,
        // "Options").
        let mut implicit = Vec::new();
        for b in fixed.attribs() {
            implicit.push(
                attrib_spec(program.stage, &b, VarType::Typeless).map_err(LowerError::internal)?,
            );
        }
        for b in fixed.results() {
            implicit.push(
                result_spec(program.stage, &b, VarType::Typeless).map_err(LowerError::internal)?,
            );
        }
        self.declare_storage_buffers()?;
        self.declare_shared_memory();
        self.declare_io(io_vars, implicit)
    }

    /// The specialization constant of one parameter: four `uint`
    /// OpSpecConstants (SpecId `spec_id` to `spec_id + 3`) and their
    /// `uvec4` composite.
    fn spec_constant(&mut self, spec: &crate::layout::Specialization) -> Word {
        let uint = self.t(Comp::U32, 1);
        let uvec4 = self.t(Comp::U32, 4);
        let mut parts = Vec::with_capacity(4);
        for (c, &bits) in spec.default.iter().enumerate() {
            let id = self.b.spec_constant_bit32(uint, bits);
            let spec_id = spec.spec_id.saturating_add(c as u32);
            self.b
                .decorate(id, Decoration::SpecId, [SpvOperand::LiteralBit32(spec_id)]);
            parts.push(id);
        }
        let composite = self.b.spec_constant_composite(uvec4, parts);
        let name = spec.param.text().replace(['.', '[', ']'], "_");
        self.b.name(composite, name.trim_end_matches('_'));
        composite
    }

    /// The push constant block: `program.local` (if pushed) at
    /// `offset`, then `program.env` (docs/interface.md, "Push constants").
    fn push_constant_block(&mut self, offset: u32, push: &PushPlan, env_len: u32, local_len: u32) {
        let uvec4 = self.t(Comp::U32, 4);
        let mut members = Vec::new();
        let mut at = offset;
        for (block, pushed, len) in [
            (ParamBlock::Local, push.local, local_len),
            (ParamBlock::Env, push.env, env_len),
        ] {
            if pushed {
                let len_id = self.c_u32(len);
                let array_id = self.b.id();
                let array = self.b.type_array_id(Some(array_id), uvec4, len_id);
                self.b.decorate(
                    array,
                    Decoration::ArrayStride,
                    [SpvOperand::LiteralBit32(16)],
                );
                members.push((block, array, at));
                at = at.saturating_add(16u32.saturating_mul(len));
            }
        }
        let struct_id = self.b.id();
        let types: Vec<Word> = members.iter().map(|&(_, t, _)| t).collect();
        let st = self.b.type_struct_id(Some(struct_id), types);
        self.b.decorate(st, Decoration::Block, []);
        self.b.name(st, "PushConstants");
        for (m, &(block, _, at)) in members.iter().enumerate() {
            let m = m as u32;
            self.b
                .member_decorate(st, m, Decoration::Offset, [SpvOperand::LiteralBit32(at)]);
            self.b.member_name(st, m, block.names().1);
        }
        let var = self.global_variable(st, StorageClass::PushConstant, None, "push_constants");
        for (m, &(block, _, _)) in members.iter().enumerate() {
            self.io.blocks[block.index()] = Some(BlockVar {
                var,
                class: StorageClass::PushConstant,
                member: m as u32,
            });
        }
    }

    /// Temporaries of a program that is one function live in it.
    pub(crate) fn declare_function_registers(&mut self, analysis: &Analysis) -> LResult<()> {
        for &id in &analysis.variables {
            let var = self.program.var(id);
            if matches!(var.kind, VarKind::Temp) {
                let storage = self.register(id, var, false)?;
                self.storage.insert(id, storage);
            }
        }
        Ok(())
    }

    fn register(&mut self, id: VarId, var: &Variable, private: bool) -> LResult<Storage> {
        let comp = match var.ty {
            // Bit patterns (docs/interface.md, "Registers"), unless every
            // access uses one type (live.rs): then that type, so no access
            // needs a bitcast.
            VarType::Typeless => self.live.single_type(id).map_or(Comp::U32, Comp::from),
            VarType::Typed(t) => Comp::from(t),
        };
        // NV_gpu_program5's LONG: 64-bit components (section 2.X.3.1).
        let comp = if self.program.long_storage(id) {
            comp.to_64()
        } else {
            comp
        };
        let vec4 = self.t(comp, 4);
        let pointee = match var.array_len {
            Some(len) if len > 0 => self.t_array(vec4, len),
            Some(_) => return Err(LowerError::internal_at("an empty TEMP array", var.span)),
            None => vec4,
        };
        let name = var.name.clone().unwrap_or_else(|| format!("temp{}", id.0));
        let class = register_class(private);
        // Temporaries start at zero. The spec leaves them undefined (section
        // 2.X.3.4), but an uninitialised SPIR-V variable lets the driver's
        // compiler treat a read of it as undef and fold neighbouring,
        // defined lanes wrongly (lavapipe did: tests/differential/).
        let zero = self.b.constant_null(pointee);
        let ptr = if private {
            self.global_variable(pointee, class, Some(zero), &name)
        } else {
            self.function_variable_init(pointee, Some(&name), Some(zero))?
        };
        if var.precision == Precision::Short {
            // SHORT: at least 16-bit storage (section 2.X.3.1).
            self.b.decorate(ptr, Decoration::RelaxedPrecision, []);
        }
        Ok(Storage::Register {
            ptr,
            class,
            comp,
            len: var.array_len,
        })
    }

    /// `uniform ProgramEnv { uvec4 env[len]; }` (or ProgramLocal), std140,
    /// at the binding docs/interface.md fixes.
    /// The binding of `program.buffer[b]`, checked against the documented
    /// range (b < 16).
    fn check_buffer_binding(&mut self, buffer: u32, span: crate::span::Span) -> LResult<()> {
        if buffer >= MAX_BUFFER_BINDINGS {
            return Err(LowerError::unsupported(
                format!(
                    "program.buffer[{buffer}]: nvp4c binds parameter buffers 0..{} (docs/interface.md, \"Parameter buffers\")",
                    MAX_BUFFER_BINDINGS - 1
                ),
                span,
            ));
        }
        Ok(())
    }

    /// `uniform Struct { <comp>vec4 member[len]; }`, std140 (ArrayStride
    /// 16), in the stage's descriptor set at `binding`.
    fn uniform_block(
        &mut self,
        (struct_name, member_name, var_name): (&str, &str, &str),
        comp: Comp,
        len: u32,
        binding: u32,
    ) -> Word {
        let uvec4 = self.t(comp, 4);
        let len_id = self.c_u32(len);
        // Fresh (undeduplicated) types: these carry layout decorations.
        let array_id = self.b.id();
        let array = self.b.type_array_id(Some(array_id), uvec4, len_id);
        self.b.decorate(
            array,
            Decoration::ArrayStride,
            [SpvOperand::LiteralBit32(16)],
        );
        let struct_id = self.b.id();
        let st = self.b.type_struct_id(Some(struct_id), [array]);
        self.b.decorate(st, Decoration::Block, []);
        self.b
            .member_decorate(st, 0, Decoration::Offset, [SpvOperand::LiteralBit32(0)]);
        self.b.name(st, struct_name);
        self.b.member_name(st, 0, member_name);
        self.descriptor_variable(st, StorageClass::Uniform, var_name, binding)
    }

    /// A variable of `ty` in `class` bound to `binding` of the stage's
    /// descriptor set (docs/interface.md, "Binding layout").
    pub(crate) fn descriptor_variable(
        &mut self,
        ty: Word,
        class: StorageClass,
        name: &str,
        binding: u32,
    ) -> Word {
        let set = self.options.stage_layout(self.program.stage).set;
        let var = self.global_variable(ty, class, None, name);
        self.b.decorate(
            var,
            Decoration::DescriptorSet,
            [SpvOperand::LiteralBit32(set)],
        );
        self.b.decorate(
            var,
            Decoration::Binding,
            [SpvOperand::LiteralBit32(binding)],
        );
        var
    }

    /// Declares the interface variables of `io_vars` (each program
    /// variable's slots) and `implicit` (the slots of the fixed-function
    /// work, `fixed_function`), one variable per slot.
    fn declare_io(
        &mut self,
        io_vars: Vec<(VarId, Vec<SlotSpec>)>,
        implicit: Vec<SlotSpec>,
    ) -> LResult<()> {
        let mut keys: BTreeMap<IoKey, KeyInfo> = BTreeMap::new();
        for spec in io_vars
            .iter()
            .flat_map(|(_, specs)| specs.iter())
            .chain(&implicit)
        {
            let clip = match spec.shape {
                IoShape::ClipElement { index } => index.saturating_add(1),
                _ => 0,
            };
            let info = keys.entry(spec.key).or_insert(KeyInfo {
                comp: spec.comp,
                typed: spec.typed,
                shape: spec.shape,
                clip_len: 0,
                interpolation: Interpolation::default(),
                per_vertex: spec.vertex != VertexSel::None,
                patch: spec.patch,
            });
            if spec.typed && !info.typed {
                info.comp = spec.comp;
                info.typed = true;
            }
            // Declarations of one attribute with different modifiers:
            // any of them asking for a modifier gets it.
            info.interpolation.flat |= spec.interpolation.flat;
            info.interpolation.centroid |= spec.interpolation.centroid;
            info.interpolation.noperspective |= spec.interpolation.noperspective;
            info.clip_len = info.clip_len.max(clip);
        }
        // The tessellation levels are arrays of their full size (SPIR-V's
        // TessLevelOuter is float[4], TessLevelInner float[2]).
        for (key, info) in keys.iter_mut() {
            if let IoKey::BuiltIn { builtin, .. } = *key {
                if builtin == BuiltIn::TessLevelOuter as u32 {
                    info.clip_len = 4;
                } else if builtin == BuiltIn::TessLevelInner as u32 {
                    info.clip_len = 2;
                }
            }
        }
        // A tessellation control program writes its per-vertex results at
        // its invocation's element (NV_tessellation_program5 2.X.3.5).
        if self.program.stage == Stage::TessControl {
            keys.entry(IoKey::BuiltIn {
                output: false,
                builtin: BuiltIn::InvocationId as u32,
            })
            .or_insert(KeyInfo {
                comp: Comp::I32,
                typed: true,
                shape: IoShape::Scalar { component: 0 },
                clip_len: 0,
                interpolation: Interpolation::default(),
                per_vertex: false,
                patch: false,
            });
        }
        // Two-sided colours (docs/interface.md, "Varyings"): the back
        // colour of each front colour read, declared like it.
        if self.fixed.two_sided {
            for location in [0, 1] {
                let front = IoKey::Location {
                    output: false,
                    location,
                };
                if let Some(info) = keys.get(&front) {
                    let back = *info;
                    keys.entry(IoKey::Location {
                        output: false,
                        location: location + 2,
                    })
                    .or_insert(back);
                }
            }
        }
        let stage = self.program.stage;
        // With debug information, each variable is named after the
        // program's names for it, or its binding (docs/interface.md names
        // the slots).
        let mut debug_names: HashMap<IoKey, Vec<String>> = HashMap::new();
        if self.debug.is_some() {
            for (id, specs) in &io_vars {
                let var = self.program.var(*id);
                for (k, spec) in specs.iter().enumerate() {
                    let label = match (&var.name, &var.kind) {
                        (Some(n), _) => n.clone(),
                        (None, VarKind::Attrib(b)) => b
                            .get(k)
                            .map_or_else(String::new, |b| crate::interp::attribute_name(stage, b)),
                        (None, VarKind::Result(b)) => b
                            .get(k)
                            .map_or_else(String::new, crate::interp::result_name),
                        _ => String::new(),
                    };
                    let names = debug_names.entry(spec.key).or_default();
                    if !label.is_empty() && !names.contains(&label) {
                        names.push(label);
                    }
                }
            }
        }
        let mut vars: HashMap<IoKey, (Word, Comp)> = HashMap::new();
        for (key, info) in &keys {
            let (output, mut name) = match *key {
                IoKey::Location { output, location } => (
                    output,
                    format!("{}_loc{location}", if output { "out" } else { "in" }),
                ),
                IoKey::BuiltIn { output, builtin } => (output, format!("builtin{builtin}")),
            };
            if let Some(names) = debug_names.get(key).filter(|n| !n.is_empty()) {
                name = names.join(", ");
            }
            let class = if output {
                StorageClass::Output
            } else {
                StorageClass::Input
            };
            if info.shape.is_constant() {
                continue;
            }
            let mut pointee = match info.shape {
                IoShape::Vec4 | IoShape::FogCoord => self.t(info.comp, 4),
                IoShape::Long64 => {
                    let uvec4 = self.t(Comp::U32, 4);
                    self.t_array(uvec4, 2)
                }
                IoShape::Partial { n } => self.t(info.comp, n),
                IoShape::GroupSize | IoShape::InputVertexCount => continue,
                IoShape::Scalar { .. } | IoShape::Facing | IoShape::Helper => self.t(info.comp, 1),
                IoShape::ClipElement { .. } => {
                    let float = self.t(Comp::F32, 1);
                    self.t_array(float, info.clip_len.max(1))
                }
                // One 32-bit word: samples 0 to 31.
                IoShape::SampleMask => {
                    let uint = self.t(Comp::U32, 1);
                    self.t_array(uint, 1)
                }
            };
            if info.per_vertex {
                // NV_geometry_program4 2.X.3.2: `vertex[m].<binding>`, one
                // element per vertex of the input primitive.
                pointee = self.per_vertex_array(pointee, output)?;
            }
            // NV_vertex_program 2.14.1.5: "Each [result] register value is
            // initialized to (0,0,0,1) at the invocation of each vertex
            // program"; ARB leaves unwritten components undefined.
            let initial = (output
                && !info.per_vertex
                && matches!(info.shape, IoShape::Vec4 | IoShape::FogCoord)
                && self.program.dialect.fixed_registers_initialised())
            .then(|| {
                let one = match info.comp {
                    Comp::F32 => 1f32.to_bits(),
                    _ => 1,
                };
                self.konst(info.comp, &[0, 0, 0, one]).id
            });
            let var = self.global_variable(pointee, class, initial, &name);
            if output && !info.per_vertex && !info.patch {
                let (words, locations) = match info.shape {
                    IoShape::Long64 => (8, 2),
                    IoShape::Partial { n } => (n, 1),
                    IoShape::ClipElement { .. } => (info.clip_len.max(1), info.clip_len.max(1)),
                    IoShape::Scalar { .. } | IoShape::SampleMask => (1, 1),
                    _ => (4, 1),
                };
                let (builtin, location) = match *key {
                    IoKey::Location { location, .. } => (None, Some(location)),
                    IoKey::BuiltIn { builtin, .. } => (Some(builtin_from_u32(builtin)?), None),
                };
                self.io.outputs.push(OutputVar {
                    var,
                    pointee,
                    comp: info.comp,
                    builtin,
                    location,
                    words,
                    locations,
                });
            }
            if info.patch {
                self.b.decorate(var, Decoration::Patch, []);
            }
            match *key {
                IoKey::Location { location, .. } => {
                    self.b.decorate(
                        var,
                        Decoration::Location,
                        [SpvOperand::LiteralBit32(location)],
                    );
                }
                IoKey::BuiltIn { builtin, .. } => {
                    let b = builtin_from_u32(builtin)?;
                    self.b
                        .decorate(var, Decoration::BuiltIn, [SpvOperand::BuiltIn(b)]);
                    match b {
                        BuiltIn::ClipDistance => self.capability(Capability::ClipDistance),
                        // A geometry program reading or writing PointSize.
                        BuiltIn::PointSize if stage == Stage::Geometry => {
                            self.capability(Capability::GeometryPointSize)
                        }
                        BuiltIn::PointSize
                            if matches!(stage, Stage::TessControl | Stage::TessEval) =>
                        {
                            self.capability(Capability::TessellationPointSize)
                        }
                        // A fragment shader reading PrimitiveId needs the
                        // Geometry capability.
                        BuiltIn::PrimitiveId => self.capability(Capability::Geometry),
                        BuiltIn::FragDepth => self.io.writes_depth = true,
                        // Reading the sample number runs the fragment
                        // program once per sample.
                        BuiltIn::SampleId => self.capability(Capability::SampleRateShading),
                        // A KIL demotes to a helper from SPIR-V 1.6 on
                        // (flow.rs): `fragment.helperthread` read after it
                        // must see the change, which only a Volatile
                        // HelperInvocation guarantees (SPIR-V 1.6,
                        // "HelperInvocation").
                        BuiltIn::HelperInvocation if self.demote_for_kill() => {
                            self.b.decorate(var, Decoration::Volatile, [])
                        }
                        // NV_shader_thread_group's thread bindings: subgroup
                        // built-ins (SPIR-V 1.3; E1140 below vulkan1.1).
                        BuiltIn::SubgroupLocalInvocationId => {
                            self.capability(Capability::GroupNonUniform)
                        }
                        BuiltIn::SubgroupEqMask
                        | BuiltIn::SubgroupGeMask
                        | BuiltIn::SubgroupGtMask
                        | BuiltIn::SubgroupLeMask
                        | BuiltIn::SubgroupLtMask => {
                            self.capability(Capability::GroupNonUniformBallot)
                        }
                        BuiltIn::InvocationId if stage == Stage::TessControl => {
                            self.io.invocation_id = Some(var)
                        }
                        // ARB_position_invariant: the position is computed
                        // as every other position-invariant module computes
                        // it, and the driver must not compute it otherwise
                        // (docs/semantics.md, "Options").
                        BuiltIn::Position if output && self.fixed.position_invariant => {
                            self.b.decorate(var, Decoration::Invariant, [])
                        }
                        _ => {}
                    }
                }
            }
            // Integer varyings are Flat (docs/interface.md, "Varyings");
            // Vulkan allows the decoration only on vertex outputs and
            // fragment inputs.
            let flat_allowed = match stage {
                Stage::Vertex | Stage::Geometry | Stage::TessControl | Stage::TessEval => output,
                Stage::Fragment => !output,
                Stage::Compute => false,
            };
            // Built-in outputs of a geometry program (Layer, PrimitiveId)
            // take no interpolation decoration.
            let builtin_output = matches!(key, IoKey::BuiltIn { .. })
                && matches!(
                    stage,
                    Stage::Geometry | Stage::TessControl | Stage::TessEval
                );
            if flat_allowed
                && !builtin_output
                && (info.comp.is_integer() || info.interpolation.flat)
            {
                self.b.decorate(var, Decoration::Flat, []);
            }
            if stage == Stage::Fragment && !output {
                if info.interpolation.centroid {
                    self.b.decorate(var, Decoration::Centroid, []);
                }
                if info.interpolation.noperspective {
                    self.b.decorate(var, Decoration::NoPerspective, []);
                }
            }
            vars.insert(*key, (var, info.comp));
        }
        self.io.slots = vars.clone();
        // With two-sided colours the program reads the selected copies.
        let mut reads: HashMap<IoKey, (Word, StorageClass)> = HashMap::new();
        if self.fixed.two_sided {
            for location in [0, 1] {
                let key = |location| IoKey::Location {
                    output: false,
                    location,
                };
                if let (Some(&(front, comp)), Some(&(back, _))) =
                    (vars.get(&key(location)), vars.get(&key(location + 2)))
                {
                    let ty = self.t(comp, 4);
                    let name = format!("selected_color{location}");
                    let selected = self.global_variable(ty, StorageClass::Private, None, &name);
                    self.io.two_sided.push(TwoSidedColor {
                        selected,
                        front,
                        back,
                        comp,
                    });
                    reads.insert(key(location), (selected, StorageClass::Private));
                }
            }
        }
        for (id, specs) in io_vars {
            let mut elements = Vec::with_capacity(specs.len());
            for spec in specs {
                let (var, comp) = if spec.shape.is_constant() {
                    // A constant, read in `load_slot_at`: no variable.
                    (0, Comp::U32)
                } else {
                    vars.get(&spec.key)
                        .copied()
                        .ok_or_else(|| LowerError::internal("interface slot without a variable"))?
                };
                let class = match spec.key {
                    IoKey::Location { output: true, .. } | IoKey::BuiltIn { output: true, .. } => {
                        StorageClass::Output
                    }
                    _ => StorageClass::Input,
                };
                let (var, class) = reads.get(&spec.key).copied().unwrap_or((var, class));
                elements.push(IoSlot {
                    var,
                    comp,
                    shape: spec.shape,
                    class,
                    vertex: spec.vertex,
                });
            }
            self.storage.insert(
                id,
                Storage::Io {
                    elements: elements.into(),
                },
            );
        }
        Ok(())
    }
}

fn check_len(var: &Variable, bindings: usize) -> LResult<()> {
    if bindings as u32 != var.len() || bindings == 0 {
        return Err(LowerError::internal_at(
            format!(
                "{} bindings for a variable of {} elements",
                bindings,
                var.len()
            ),
            var.span,
        ));
    }
    Ok(())
}

fn builtin_from_u32(b: u32) -> LResult<BuiltIn> {
    [
        BuiltIn::Position,
        BuiltIn::PointSize,
        BuiltIn::ClipDistance,
        BuiltIn::VertexIndex,
        BuiltIn::InstanceIndex,
        BuiltIn::FragCoord,
        BuiltIn::FrontFacing,
        BuiltIn::PrimitiveId,
        BuiltIn::FragDepth,
        BuiltIn::Layer,
        BuiltIn::TessLevelOuter,
        BuiltIn::TessLevelInner,
        BuiltIn::TessCoord,
        BuiltIn::InvocationId,
        BuiltIn::PatchVertices,
        BuiltIn::LocalInvocationId,
        BuiltIn::GlobalInvocationId,
        BuiltIn::WorkgroupId,
        BuiltIn::NumWorkgroups,
        BuiltIn::LocalInvocationIndex,
        BuiltIn::HelperInvocation,
        BuiltIn::SampleId,
        BuiltIn::SampleMask,
        BuiltIn::SubgroupLocalInvocationId,
        BuiltIn::SubgroupEqMask,
        BuiltIn::SubgroupGeMask,
        BuiltIn::SubgroupGtMask,
        BuiltIn::SubgroupLeMask,
        BuiltIn::SubgroupLtMask,
        BuiltIn::PointCoord,
    ]
    .into_iter()
    .find(|&x| x as u32 == b)
    .ok_or_else(|| LowerError::internal(format!("unexpected built-in {b}")))
}

fn var_comp(ty: VarType) -> (Comp, bool) {
    match ty {
        VarType::Typeless => (Comp::F32, false),
        VarType::Typed(t) => (Comp::from(t), true),
    }
}

fn location(output: bool, location: u32, ty: VarType) -> SlotSpec {
    let (comp, typed) = var_comp(ty);
    SlotSpec {
        key: IoKey::Location { output, location },
        shape: IoShape::Vec4,
        comp,
        typed,
        interpolation: Interpolation::default(),
        vertex: VertexSel::None,
        patch: false,
    }
}

/// A vertex attribute slot made LONG: the bits of four 64-bit components
/// in two `uvec4` Locations (docs/interface.md, "64-bit vertex
/// attributes"), whatever the declared type (the instruction reading it
/// names one, section 2.X.4.1). The checker refused LONG on built-ins
/// (E1260) and on overlapping Locations (E1261).
fn long_attrib(spec: &mut SlotSpec) -> Result<(), String> {
    if !matches!(spec.key, IoKey::Location { output: false, .. }) || spec.shape != IoShape::Vec4 {
        return Err("a LONG attribute that is no vertex array attribute".to_string());
    }
    spec.shape = IoShape::Long64;
    spec.comp = Comp::U32;
    spec.typed = true;
    Ok(())
}

/// The fog coordinate input at `location`, read as (f, 0, 0, 1).
fn fog_coordinate(location_number: u32, ty: VarType) -> SlotSpec {
    SlotSpec {
        shape: IoShape::FogCoord,
        ..location(false, location_number, ty)
    }
}

fn builtin(output: bool, b: BuiltIn, shape: IoShape, comp: Comp) -> SlotSpec {
    SlotSpec {
        key: IoKey::BuiltIn {
            output,
            builtin: b as u32,
        },
        shape,
        comp,
        typed: true,
        interpolation: Interpolation::default(),
        vertex: VertexSel::None,
        patch: false,
    }
}

/// The varying Location of a colour (docs/interface.md, "Varyings").
fn color_location(sel: ColorSel) -> u32 {
    u32::from(sel.secondary) + 2 * u32::from(sel.back)
}

/// A per-patch slot: TessLevelOuter / TessLevelInner elements, or
/// `patch.attrib[n]` at Location 30 + n (docs/interface.md, "Tessellation
/// programs"); decorated `Patch`.
fn patch_spec(output: bool, attrib: &PatchAttrib, ty: VarType) -> SlotSpec {
    let mut spec = match attrib {
        PatchAttrib::TessOuter(n) => builtin(
            output,
            BuiltIn::TessLevelOuter,
            IoShape::ClipElement { index: *n },
            Comp::F32,
        ),
        PatchAttrib::TessInner(n) => builtin(
            output,
            BuiltIn::TessLevelInner,
            IoShape::ClipElement { index: *n },
            Comp::F32,
        ),
        PatchAttrib::Generic(n) => location(output, PATCH_LOCATION_BASE + n, ty),
    };
    spec.patch = true;
    spec
}

/// The Location of `patch.attrib[0]`: after the per-vertex varyings
/// (docs/interface.md, "Varyings" ends at 29).
pub(crate) const PATCH_LOCATION_BASE: u32 = 30;

/// An attribute binding's interface slot (docs/interface.md, "Vertex
/// attributes" and "Varyings").
fn attrib_spec(stage: Stage, binding: &AttribBinding, ty: VarType) -> Result<SlotSpec, String> {
    use AttribBinding as A;
    let scalar_int = |b| builtin(false, b, IoShape::Scalar { component: 0 }, Comp::I32);
    let compute = |b| builtin(false, b, IoShape::Partial { n: 3 }, Comp::U32);
    match (stage, binding) {
        (Stage::TessControl | Stage::TessEval, A::PerVertex { vertex, binding }) => {
            let mut spec = per_vertex_spec(binding, ty)?;
            spec.vertex = match vertex {
                Some(m) => VertexSel::Fixed(*m),
                None => VertexSel::Indexed,
            };
            Ok(spec)
        }
        // vertex.out[m]: the control program's own per-vertex results.
        (Stage::TessControl, A::OutputVertex { vertex, binding }) => {
            let mut spec = per_vertex_spec(binding, ty)?;
            spec.key = match spec.key {
                IoKey::Location { location, .. } => IoKey::Location {
                    output: true,
                    location,
                },
                IoKey::BuiltIn { builtin, .. } => IoKey::BuiltIn {
                    output: true,
                    builtin,
                },
            };
            spec.vertex = match vertex {
                Some(m) => VertexSel::Fixed(*m),
                None => VertexSel::Indexed,
            };
            Ok(spec)
        }
        (
            Stage::TessControl,
            A::Patch {
                output: true,
                attrib,
            },
        )
        | (
            Stage::TessEval,
            A::Patch {
                output: false,
                attrib,
            },
        ) => Ok(patch_spec(stage == Stage::TessControl, attrib, ty)),
        (Stage::TessEval, A::TessCoord) => Ok(builtin(
            false,
            BuiltIn::TessCoord,
            IoShape::Partial { n: 3 },
            Comp::F32,
        )),
        (Stage::TessControl | Stage::Geometry, A::InvocationId) => {
            Ok(scalar_int(BuiltIn::InvocationId))
        }
        (Stage::TessControl | Stage::TessEval, A::VertexCount) => {
            Ok(scalar_int(BuiltIn::PatchVertices))
        }
        // NV_gpu_program5 2.X.3.2: "the number of vertices in the input
        // primitive being processed", which PRIMITIVE_IN fixes.
        (Stage::Geometry, A::VertexCount) => Ok(builtin(
            false,
            BuiltIn::PatchVertices,
            IoShape::InputVertexCount,
            Comp::I32,
        )),
        (Stage::TessControl | Stage::TessEval, A::PrimitiveId) => {
            Ok(scalar_int(BuiltIn::PrimitiveId))
        }
        // NV_shader_thread_group 2.X.3.2 (docs/interface.md, "Thread
        // groups"): the thread group is the subgroup. The masks are the
        // subgroup's uvec4 masks, bits 0-31 in x as the spec has them (y,
        // z, w, which it leaves undefined, hold bits 32-127).
        (_, A::Thread(t)) => {
            let mask = |b| builtin(false, b, IoShape::Vec4, Comp::U32);
            Ok(match t {
                ThreadAttrib::ThreadId => builtin(
                    false,
                    BuiltIn::SubgroupLocalInvocationId,
                    IoShape::Scalar { component: 0 },
                    Comp::U32,
                ),
                ThreadAttrib::EqMask => mask(BuiltIn::SubgroupEqMask),
                ThreadAttrib::GeMask => mask(BuiltIn::SubgroupGeMask),
                ThreadAttrib::GtMask => mask(BuiltIn::SubgroupGtMask),
                ThreadAttrib::LeMask => mask(BuiltIn::SubgroupLeMask),
                ThreadAttrib::LtMask => mask(BuiltIn::SubgroupLtMask),
                ThreadAttrib::Helper if stage == Stage::Fragment => builtin(
                    false,
                    BuiltIn::HelperInvocation,
                    IoShape::Helper,
                    Comp::Bool,
                ),
                ThreadAttrib::Helper => {
                    return Err(format!("fragment.helperthread in a {stage} program"))
                }
            })
        }
        (Stage::Compute, A::Compute(c)) => Ok(match c {
            ComputeAttrib::LocalId => compute(BuiltIn::LocalInvocationId),
            ComputeAttrib::GlobalId => compute(BuiltIn::GlobalInvocationId),
            ComputeAttrib::GroupId => compute(BuiltIn::WorkgroupId),
            ComputeAttrib::GroupCount => compute(BuiltIn::NumWorkgroups),
            ComputeAttrib::LocalIndex => builtin(
                false,
                BuiltIn::LocalInvocationIndex,
                IoShape::Scalar { component: 0 },
                Comp::U32,
            ),
            // No variable: GROUP_SIZE is known (a constant, `load_slot_at`).
            ComputeAttrib::GroupSize => {
                builtin(false, BuiltIn::WorkgroupSize, IoShape::GroupSize, Comp::U32)
            }
        }),
        // NV_vertex_program4's attribute aliasing table.
        (Stage::Vertex, A::Position) => Ok(location(false, 0, ty)),
        (Stage::Vertex, A::Weight(0)) => Ok(location(false, 1, ty)),
        (Stage::Vertex, A::Normal) => Ok(location(false, 2, ty)),
        (Stage::Vertex, A::Color(sel)) if !sel.back => {
            Ok(location(false, 3 + u32::from(sel.secondary), ty))
        }
        (Stage::Vertex, A::FogCoord) => Ok(fog_coordinate(5, ty)),
        (Stage::Vertex, A::TexCoord(n)) => Ok(location(false, 8 + n, ty)),
        (Stage::Vertex, A::Generic(n)) => Ok(location(false, *n, ty)),
        (Stage::Vertex, A::VertexId) => Ok(scalar_int(BuiltIn::VertexIndex)),
        (Stage::Vertex, A::InstanceId) => Ok(scalar_int(BuiltIn::InstanceIndex)),
        (Stage::Fragment, A::Color(sel)) => Ok(location(false, color_location(*sel), ty)),
        (Stage::Fragment, A::FogCoord) => Ok(fog_coordinate(4, ty)),
        (Stage::Fragment, A::TexCoord(n)) if *n < 8 => Ok(location(false, 5 + n, ty)),
        (Stage::Fragment, A::Generic(n)) if *n < 16 => Ok(location(false, 14 + n, ty)),
        (Stage::Fragment, A::Position) => {
            Ok(builtin(false, BuiltIn::FragCoord, IoShape::Vec4, Comp::F32))
        }
        (Stage::Fragment, A::Facing) => Ok(builtin(
            false,
            BuiltIn::FrontFacing,
            IoShape::Facing,
            Comp::Bool,
        )),
        (Stage::Fragment, A::PrimitiveId) => Ok(scalar_int(BuiltIn::PrimitiveId)),
        // NV_gpu_program5 2.X.2/2.X.3.2 (docs/interface.md, "Fragment
        // results"): the sample number and the coverage mask in x.
        (Stage::Fragment, A::SampleId) => Ok(scalar_int(BuiltIn::SampleId)),
        // NV_gpu_program5 2.X.3.2: (s, t, -, -); z and w read 0
        // (docs/interface.md, "Fragment inputs").
        (Stage::Fragment, A::PointCoord) => Ok(builtin(
            false,
            BuiltIn::PointCoord,
            IoShape::Partial { n: 2 },
            Comp::F32,
        )),
        (Stage::Fragment, A::SampleMask) => Ok(builtin(
            false,
            BuiltIn::SampleMask,
            IoShape::SampleMask,
            Comp::U32,
        )),
        (Stage::Fragment, A::Clip(n)) => Ok(builtin(
            false,
            BuiltIn::ClipDistance,
            IoShape::ClipElement { index: *n },
            Comp::F32,
        )),
        (Stage::Geometry, A::PrimitiveId) => Ok(scalar_int(BuiltIn::PrimitiveId)),
        (Stage::Geometry, A::PerVertex { vertex, binding }) => {
            let mut spec = per_vertex_spec(binding, ty)?;
            spec.vertex = match vertex {
                Some(m) => VertexSel::Fixed(*m),
                None => VertexSel::Indexed,
            };
            Ok(spec)
        }
        (stage, b) => Err(format!("the attribute binding {b:?} in a {stage} program")),
    }
}

/// The slot of `vertex[m].<binding>` in a geometry program: the Location
/// (or built-in) the previous stage writes (docs/interface.md, "Varyings"),
/// before `declare_io` makes it an array over the input vertices.
fn per_vertex_spec(binding: &PerVertexAttrib, ty: VarType) -> Result<SlotSpec, String> {
    use PerVertexAttrib as P;
    match binding {
        P::Position => Ok(builtin(false, BuiltIn::Position, IoShape::Vec4, Comp::F32)),
        P::Color(sel) => Ok(location(false, color_location(*sel), ty)),
        P::FogCoord => Ok(location(false, 4, ty)),
        P::TexCoord(n) if *n < 8 => Ok(location(false, 5 + n, ty)),
        P::Generic(n) if *n < 16 => Ok(location(false, 14 + n, ty)),
        P::Id => Ok(SlotSpec {
            key: IoKey::Location {
                output: false,
                location: 13,
            },
            shape: IoShape::Scalar { component: 0 },
            comp: Comp::I32,
            typed: true,
            interpolation: Interpolation::default(),
            vertex: VertexSel::None,
            patch: false,
        }),
        P::PointSize => Ok(builtin(
            false,
            BuiltIn::PointSize,
            IoShape::Scalar { component: 0 },
            Comp::F32,
        )),
        P::Clip(n) => Ok(builtin(
            false,
            BuiltIn::ClipDistance,
            IoShape::ClipElement { index: *n },
            Comp::F32,
        )),
        P::TexCoord(n) => Err(format!(
            "vertex[m].texcoord[{n}]: the varyings of docs/interface.md stop at texcoord[7]"
        )),
        P::Generic(n) => Err(format!(
            "vertex[m].attrib[{n}]: the varyings of docs/interface.md stop at attrib[15]"
        )),
    }
}

/// A result binding's interface slot (docs/interface.md, "Varyings" and
/// "Fragment results").
fn result_spec(stage: Stage, binding: &ResultBinding, ty: VarType) -> Result<SlotSpec, String> {
    use ResultBinding as R;
    match (stage, binding) {
        // NV_tessellation_program5 Table X.6: the output patch's levels and
        // generic attributes (docs/interface.md, "Tessellation programs").
        (Stage::TessControl, R::Patch(a)) => Ok(patch_spec(true, a, ty)),
        // Table X.5: the per-vertex results are those of a vertex program;
        // a control program's are arrays over the output patch, written at
        // the invocation's element.
        (Stage::TessControl | Stage::TessEval, b) if !matches!(b, R::Id | R::Patch(_)) => {
            let mut spec = result_spec(Stage::Vertex, b, ty)?;
            if stage == Stage::TessControl {
                spec.vertex = VertexSel::Invocation;
            }
            Ok(spec)
        }
        (Stage::Vertex | Stage::Geometry, R::Position) => {
            Ok(builtin(true, BuiltIn::Position, IoShape::Vec4, Comp::F32))
        }
        (Stage::Vertex | Stage::Geometry, R::Color(sel)) => {
            Ok(location(true, color_location(*sel), ty))
        }
        (Stage::Vertex | Stage::Geometry, R::FogCoord) => Ok(location(true, 4, ty)),
        (Stage::Vertex | Stage::Geometry, R::TexCoord(n)) if *n < 8 => {
            Ok(location(true, 5 + n, ty))
        }
        (Stage::Vertex, R::Id) => Ok(SlotSpec {
            key: IoKey::Location {
                output: true,
                location: 13,
            },
            shape: IoShape::Scalar { component: 0 },
            comp: Comp::I32,
            typed: true,
            interpolation: Interpolation::default(),
            vertex: VertexSel::None,
            patch: false,
        }),
        (Stage::Vertex | Stage::Geometry, R::Generic(n)) if *n < 16 => {
            Ok(location(true, 14 + n, ty))
        }
        (Stage::Vertex | Stage::Geometry, R::Clip(n)) => Ok(builtin(
            true,
            BuiltIn::ClipDistance,
            IoShape::ClipElement { index: *n },
            Comp::F32,
        )),
        (Stage::Vertex | Stage::Geometry, R::PointSize) => Ok(builtin(
            true,
            BuiltIn::PointSize,
            IoShape::Scalar { component: 0 },
            Comp::F32,
        )),
        (Stage::Fragment, R::Color(sel))
            if *sel
                == (ColorSel {
                    back: false,
                    secondary: false,
                }) =>
        {
            Ok(location(true, 0, ty))
        }
        (Stage::Fragment, R::FragColor(n)) => Ok(location(true, *n, ty)),
        // NV_geometry_program4 2.X.3.5: integer layer and primitive id in x.
        (Stage::Geometry, R::Layer) => Ok(builtin(
            true,
            BuiltIn::Layer,
            IoShape::Scalar { component: 0 },
            Comp::I32,
        )),
        (Stage::Geometry, R::PrimitiveId) => Ok(builtin(
            true,
            BuiltIn::PrimitiveId,
            IoShape::Scalar { component: 0 },
            Comp::I32,
        )),
        // NV_fragment_program4: only the z component of result.depth counts.
        (Stage::Fragment, R::Depth) => Ok(builtin(
            true,
            BuiltIn::FragDepth,
            IoShape::Scalar { component: 2 },
            Comp::F32,
        )),
        (Stage::Fragment, R::SampleMask) => Ok(builtin(
            true,
            BuiltIn::SampleMask,
            IoShape::SampleMask,
            Comp::U32,
        )),
        (stage, b) => Err(format!("the result binding {b:?} in a {stage} program")),
    }
}

/// Where a binding lives in the module's interface: the slot `declare_io`
/// gives it. Read by the reflection (`crate::reflect`) so that the
/// Location rules of docs/interface.md stay in this file alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum InterfaceSlot {
    Location(u32),
    BuiltIn(BuiltIn),
}

impl IoKey {
    fn slot(self) -> Option<InterfaceSlot> {
        match self {
            IoKey::Location { location, .. } => Some(InterfaceSlot::Location(location)),
            IoKey::BuiltIn { builtin, .. } => {
                builtin_from_u32(builtin).ok().map(InterfaceSlot::BuiltIn)
            }
        }
    }
}

/// The input slot of an attribute binding, `None` where the backend does
/// not lower it.
pub(crate) fn attrib_slot(stage: Stage, binding: &AttribBinding) -> Option<InterfaceSlot> {
    attrib_spec(stage, binding, VarType::Typeless)
        .ok()?
        .key
        .slot()
}

/// The output slot of a result binding, `None` where the backend does not
/// lower it.
pub(crate) fn result_slot(stage: Stage, binding: &ResultBinding) -> Option<InterfaceSlot> {
    result_spec(stage, binding, VarType::Typeless)
        .ok()?
        .key
        .slot()
}

/// Which parameter arrays are push constants (docs/interface.md, "Push
/// constants").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct PushPlan {
    pub env: bool,
    pub local: bool,
}

/// Decides which of `program.env` (`env_len` vec4s read, 0 when it is not
/// read from memory) and `program.local` are push constants. The forced
/// policies push whatever is read, fitting or not (the device limit check
/// reports what does not fit, E0820); `Fit` pushes `program.local`, then
/// `program.env`, when it fits in `max_size` bytes after `offset`.
pub(crate) fn push_constant_plan(
    policy: PushConstants,
    offset: u32,
    env_len: u32,
    local_len: u32,
    max_size: u32,
) -> PushPlan {
    let (env, local) = match policy {
        PushConstants::None => (false, false),
        PushConstants::Local => (false, true),
        PushConstants::Env => (true, false),
        PushConstants::EnvAndLocal => (true, true),
        PushConstants::Fit => {
            let mut end = u64::from(offset);
            let mut fits = |len: u32| {
                let next = end + 16 * u64::from(len);
                let ok = len > 0 && next <= u64::from(max_size);
                if ok {
                    end = next;
                }
                ok
            };
            let local = fits(local_len);
            let env = fits(env_len);
            (env, local)
        }
    };
    PushPlan {
        env: env && env_len > 0,
        local: local && local_len > 0,
    }
}

impl Lowerer<'_> {
    /// The interface variable of an attribute binding, when the module
    /// declares it.
    pub(crate) fn attrib_io(&self, binding: &AttribBinding) -> Option<IoSlot> {
        let spec = attrib_spec(self.program.stage, binding, VarType::Typeless).ok()?;
        self.io_slot(&spec)
    }

    /// The interface variable of a result binding, when the module
    /// declares it.
    pub(crate) fn result_io(&self, binding: &ResultBinding) -> Option<IoSlot> {
        let spec = result_spec(self.program.stage, binding, VarType::Typeless).ok()?;
        self.io_slot(&spec)
    }

    fn io_slot(&self, spec: &SlotSpec) -> Option<IoSlot> {
        let &(var, comp) = self.io.slots.get(&spec.key)?;
        let class = match spec.key {
            IoKey::Location { output: true, .. } | IoKey::BuiltIn { output: true, .. } => {
                StorageClass::Output
            }
            _ => StorageClass::Input,
        };
        Some(IoSlot {
            var,
            comp,
            shape: spec.shape,
            class,
            vertex: VertexSel::None,
        })
    }
}
