//! SPIR-V made or rewritten by the harness: the point vertex shader of fragment runs,
//! and the transform feedback patching of vertex programs.

use std::collections::{BTreeMap, HashMap};

use rspirv::binary::Assemble;
use rspirv::dr::{Builder, Instruction, Module, Operand};
use rspirv::spirv::{
    AddressingModel, BuiltIn, Capability, Decoration, ExecutionMode, ExecutionModel,
    FunctionControl, MemoryModel, Op, StorageClass,
};

use super::{HarnessError, Kind, Result};

fn build_err(e: rspirv::dr::Error) -> HarnessError {
    HarnessError::Spirv(format!("building the harness vertex shader: {e}"))
}

/// The vertex shader of fragment runs (SPIR-V 1.0).
///
/// Inputs: Location 0 is the clip-space position (`vec4`); Location 1 + k is the
/// k-th varying's bits (`uvec4`). Outputs: `Position`, `PointSize` = 1.0, and varying
/// k at `varyings[k].0` as `vec4`/`ivec4`/`uvec4` (the integer ones `Flat`), written
/// with a bitcast of the input bits so every value arrives unchanged.
pub(crate) fn point_vertex_shader(varyings: &[(u32, Kind)]) -> Result<Vec<u32>> {
    let mut b = Builder::new();
    b.set_version(1, 0);
    b.capability(Capability::Shader);
    b.memory_model(AddressingModel::Logical, MemoryModel::GLSL450);
    let void = b.type_void();
    let fn_ty = b.type_function(void, vec![]);
    let f32_ty = b.type_float(32, None);
    let i32_ty = b.type_int(32, 1);
    let u32_ty = b.type_int(32, 0);
    let vec4 = b.type_vector(f32_ty, 4);
    let ivec4 = b.type_vector(i32_ty, 4);
    let uvec4 = b.type_vector(u32_ty, 4);
    let in_vec4 = b.type_pointer(None, StorageClass::Input, vec4);
    let in_uvec4 = b.type_pointer(None, StorageClass::Input, uvec4);
    let out_f32 = b.type_pointer(None, StorageClass::Output, f32_ty);
    let out_ty = |b: &mut Builder, kind: Kind| {
        let t = match kind {
            Kind::Float => vec4,
            Kind::Int => ivec4,
            Kind::Uint => uvec4,
        };
        (t, b.type_pointer(None, StorageClass::Output, t))
    };
    let one = b.constant_bit32(f32_ty, 1.0f32.to_bits());

    let mut interface = Vec::new();
    let pos_in = b.variable(in_vec4, None, StorageClass::Input, None);
    b.decorate(pos_in, Decoration::Location, [Operand::LiteralBit32(0)]);
    interface.push(pos_in);
    let (_, out_vec4) = out_ty(&mut b, Kind::Float);
    let position = b.variable(out_vec4, None, StorageClass::Output, None);
    b.decorate(
        position,
        Decoration::BuiltIn,
        [Operand::BuiltIn(BuiltIn::Position)],
    );
    interface.push(position);
    let point_size = b.variable(out_f32, None, StorageClass::Output, None);
    b.decorate(
        point_size,
        Decoration::BuiltIn,
        [Operand::BuiltIn(BuiltIn::PointSize)],
    );
    interface.push(point_size);

    let mut copies = Vec::new();
    for (k, &(location, kind)) in varyings.iter().enumerate() {
        let input = b.variable(in_uvec4, None, StorageClass::Input, None);
        b.decorate(
            input,
            Decoration::Location,
            [Operand::LiteralBit32(k as u32 + 1)],
        );
        let (ty, ptr) = out_ty(&mut b, kind);
        let output = b.variable(ptr, None, StorageClass::Output, None);
        b.decorate(
            output,
            Decoration::Location,
            [Operand::LiteralBit32(location)],
        );
        if kind != Kind::Float {
            b.decorate(output, Decoration::Flat, []);
        }
        interface.push(input);
        interface.push(output);
        copies.push((input, output, ty, kind));
    }

    let main = b
        .begin_function(void, None, FunctionControl::NONE, fn_ty)
        .map_err(build_err)?;
    b.begin_block(None).map_err(build_err)?;
    let p = b.load(vec4, None, pos_in, None, []).map_err(build_err)?;
    b.store(position, p, None, []).map_err(build_err)?;
    b.store(point_size, one, None, []).map_err(build_err)?;
    for (input, output, ty, kind) in copies {
        let bits = b.load(uvec4, None, input, None, []).map_err(build_err)?;
        let value = if kind == Kind::Uint {
            bits
        } else {
            b.bitcast(ty, None, bits).map_err(build_err)?
        };
        b.store(output, value, None, []).map_err(build_err)?;
    }
    b.ret().map_err(build_err)?;
    b.end_function().map_err(build_err)?;
    b.entry_point(ExecutionModel::Vertex, main, "main", interface);
    Ok(b.module().assemble())
}

/// What an output variable (or `gl_PerVertex` member) of a vertex program is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OutputKey {
    BuiltIn(BuiltIn),
    Location { location: u32, component: u32 },
}

/// Where the transform feedback `Offset` decoration goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Target {
    /// A whole output variable.
    Var(u32),
    /// Member `member` of the block type `block` of the output variable `var`.
    Member { var: u32, block: u32, member: u32 },
}

impl Target {
    fn var(self) -> u32 {
        match self {
            Target::Var(v) | Target::Member { var: v, .. } => v,
        }
    }
}

/// One capturable output: a variable or a built-in block member.
#[derive(Clone, Debug)]
pub(crate) struct OutputVar {
    pub key: OutputKey,
    pub target: Target,
    /// Array length (1 when not an array).
    pub elems: u32,
    /// 32-bit components per element (1..=4), or an error for a type the harness
    /// cannot capture (it is reported only if the output is asked for).
    pub comps: std::result::Result<u32, String>,
}

impl OutputVar {
    pub fn bytes(&self) -> Result<u32> {
        match &self.comps {
            Ok(c) => Ok(c * self.elems * 4),
            Err(e) => Err(HarnessError::Spirv(format!("output {:?}: {e}", self.key))),
        }
    }
}

/// A decoration and its first literal/enum operand, if any.
type Deco<'a> = (Decoration, Option<&'a Operand>);

/// A vertex program loaded for transform feedback capture.
pub(crate) struct VertexProgram {
    module: Module,
    entry: u32,
    pub outputs: Vec<OutputVar>,
}

fn literal(op: &Operand) -> Option<u32> {
    match op {
        Operand::LiteralBit32(v) => Some(*v),
        _ => None,
    }
}

fn id_ref(op: Option<&Operand>) -> Option<u32> {
    match op {
        Some(Operand::IdRef(v)) => Some(*v),
        _ => None,
    }
}

impl VertexProgram {
    pub fn load(words: &[u32]) -> Result<VertexProgram> {
        VertexProgram::load_model(words, ExecutionModel::Vertex)
    }

    /// Loads the last pre-rasterisation stage of a pipeline for capture: a
    /// `Vertex` or a `Geometry` entry point (geometry runs patch the geometry
    /// program the same way).
    pub fn load_model(words: &[u32], model: ExecutionModel) -> Result<VertexProgram> {
        let module = rspirv::dr::load_words(words)
            .map_err(|e| HarnessError::Spirv(format!("cannot parse the {model:?} program: {e}")))?;
        let entry = module
            .entry_points
            .iter()
            .find(|ep| ep.operands.first() == Some(&Operand::ExecutionModel(model)))
            .and_then(|ep| id_ref(ep.operands.get(1)))
            .ok_or_else(|| HarnessError::Spirv(format!("no {model:?} entry point")))?;
        if module.execution_modes.iter().any(|m| {
            matches!(
                m.operands.get(1),
                Some(Operand::ExecutionMode(ExecutionMode::Xfb))
            )
        }) {
            return Err(HarnessError::Spirv(
                "the vertex program already declares Xfb".into(),
            ));
        }

        // Decorations by target.
        let mut decos: HashMap<u32, Vec<Deco>> = HashMap::new();
        let mut member_decos: HashMap<(u32, u32), Vec<Deco>> = HashMap::new();
        for a in &module.annotations {
            match (a.class.opcode, a.operands.as_slice()) {
                (Op::Decorate, [Operand::IdRef(t), Operand::Decoration(d), rest @ ..]) => {
                    decos.entry(*t).or_default().push((*d, rest.first()))
                }
                (
                    Op::MemberDecorate,
                    [Operand::IdRef(t), Operand::LiteralBit32(m), Operand::Decoration(d), rest @ ..],
                ) => member_decos
                    .entry((*t, *m))
                    .or_default()
                    .push((*d, rest.first())),
                _ => {}
            }
        }
        let defs: HashMap<u32, &Instruction> = module
            .types_global_values
            .iter()
            .filter_map(|i| i.result_id.map(|id| (id, i)))
            .collect();

        // (elements, components) of a 32-bit scalar, vector, or array of those.
        let shape = |ty: u32| -> (u32, std::result::Result<u32, String>) {
            let scalar_ok = |t: u32| match defs.get(&t) {
                Some(i) if matches!(i.class.opcode, Op::TypeFloat | Op::TypeInt) => {
                    if i.operands.first().and_then(literal) == Some(32) {
                        Ok(())
                    } else {
                        Err("not a 32-bit type".to_string())
                    }
                }
                _ => Err("not a scalar, vector or array of them".to_string()),
            };
            let comps = |t: u32| match defs.get(&t) {
                Some(i) if i.class.opcode == Op::TypeVector => {
                    let c = id_ref(i.operands.first()).unwrap_or(0);
                    scalar_ok(c)?;
                    i.operands
                        .get(1)
                        .and_then(literal)
                        .ok_or_else(|| "bad vector".to_string())
                }
                _ => scalar_ok(t).map(|_| 1),
            };
            match defs.get(&ty) {
                Some(i) if i.class.opcode == Op::TypeArray => {
                    let elem = id_ref(i.operands.first()).unwrap_or(0);
                    let len = id_ref(i.operands.get(1))
                        .and_then(|c| defs.get(&c))
                        .filter(|c| c.class.opcode == Op::Constant)
                        .and_then(|c| c.operands.first().and_then(literal));
                    match len {
                        Some(n) => (n, comps(elem)),
                        None => (1, Err("array length is not a constant".into())),
                    }
                }
                _ => (1, comps(ty)),
            }
        };

        let mut outputs = Vec::new();
        for inst in &module.types_global_values {
            if inst.class.opcode != Op::Variable
                || inst.operands.first() != Some(&Operand::StorageClass(StorageClass::Output))
            {
                continue;
            }
            let (Some(var), Some(ptr)) = (inst.result_id, inst.result_type) else {
                continue;
            };
            let Some(pointee) = defs.get(&ptr).and_then(|p| id_ref(p.operands.get(1))) else {
                continue;
            };
            let var_decos = decos.get(&var).cloned().unwrap_or_default();
            let find = |ds: &[Deco], want: Decoration| {
                ds.iter().find(|(d, _)| *d == want).map(|(_, v)| v.cloned())
            };
            if let Some(st) = defs
                .get(&pointee)
                .filter(|d| d.class.opcode == Op::TypeStruct)
            {
                // A block of built-ins (gl_PerVertex).
                for (m, op) in st.operands.iter().enumerate() {
                    let m = m as u32;
                    let Some(mty) = id_ref(Some(op)) else {
                        continue;
                    };
                    let mds = member_decos.get(&(pointee, m)).cloned().unwrap_or_default();
                    if let Some(Some(Operand::BuiltIn(bi))) = find(&mds, Decoration::BuiltIn) {
                        let (elems, comps) = shape(mty);
                        outputs.push(OutputVar {
                            key: OutputKey::BuiltIn(bi),
                            target: Target::Member {
                                var,
                                block: pointee,
                                member: m,
                            },
                            elems,
                            comps,
                        });
                    }
                }
                continue;
            }
            let key =
                if let Some(Some(Operand::BuiltIn(bi))) = find(&var_decos, Decoration::BuiltIn) {
                    OutputKey::BuiltIn(bi)
                } else if let Some(Some(Operand::LiteralBit32(location))) =
                    find(&var_decos, Decoration::Location)
                {
                    let component = find(&var_decos, Decoration::Component)
                        .flatten()
                        .as_ref()
                        .and_then(literal)
                        .unwrap_or(0);
                    OutputKey::Location {
                        location,
                        component,
                    }
                } else {
                    continue;
                };
            let (elems, comps) = shape(pointee);
            outputs.push(OutputVar {
                key,
                target: Target::Var(var),
                elems,
                comps,
            });
        }
        Ok(VertexProgram {
            module,
            entry,
            outputs,
        })
    }

    /// The program with the outputs `captures` (index into `outputs`, byte offset)
    /// written to transform feedback buffer 0 with `stride` bytes per vertex.
    pub fn with_xfb(&self, captures: &[(usize, u32)], stride: u32) -> Vec<u32> {
        let mut m = self.module.clone();
        let has_cap = m.capabilities.iter().any(|c| {
            c.operands.first() == Some(&Operand::Capability(Capability::TransformFeedback))
        });
        if !has_cap {
            m.capabilities.push(Instruction::new(
                Op::Capability,
                None,
                None,
                vec![Operand::Capability(Capability::TransformFeedback)],
            ));
        }
        m.execution_modes.push(Instruction::new(
            Op::ExecutionMode,
            None,
            None,
            vec![
                Operand::IdRef(self.entry),
                Operand::ExecutionMode(ExecutionMode::Xfb),
            ],
        ));
        let deco = |target: u32, d: Decoration, v: u32| {
            Instruction::new(
                Op::Decorate,
                None,
                None,
                vec![
                    Operand::IdRef(target),
                    Operand::Decoration(d),
                    Operand::LiteralBit32(v),
                ],
            )
        };
        let mut vars = BTreeMap::new();
        for &(index, offset) in captures {
            let target = self.outputs[index].target;
            vars.insert(target.var(), ());
            m.annotations.push(match target {
                Target::Var(v) => deco(v, Decoration::Offset, offset),
                Target::Member { block, member, .. } => Instruction::new(
                    Op::MemberDecorate,
                    None,
                    None,
                    vec![
                        Operand::IdRef(block),
                        Operand::LiteralBit32(member),
                        Operand::Decoration(Decoration::Offset),
                        Operand::LiteralBit32(offset),
                    ],
                ),
            });
        }
        for &v in vars.keys() {
            m.annotations.push(deco(v, Decoration::XfbBuffer, 0));
            m.annotations.push(deco(v, Decoration::XfbStride, stride));
        }
        m.assemble()
    }
}

/// Decorates every `Input` variable of a fragment program that has a `Location`
/// with `Flat` (removing `NoPerspective`, `Centroid` and `Sample`). Returns `None`
/// when nothing needed to change.
///
/// A point has a single vertex, so flat and interpolated varyings carry the same
/// value — except that lavapipe's interpolation arithmetic (a + 0·dx + 0·dy) turns
/// -0.0 into +0.0 and flushes denormals to zero. Flat inputs arrive bit-exact.
pub(crate) fn flatten_fragment_inputs(words: &[u32]) -> Result<Option<Vec<u32>>> {
    let mut m = rspirv::dr::load_words(words)
        .map_err(|e| HarnessError::Spirv(format!("cannot parse the fragment program: {e}")))?;
    let inputs: Vec<u32> = m
        .types_global_values
        .iter()
        .filter(|i| {
            i.class.opcode == Op::Variable
                && i.operands.first() == Some(&Operand::StorageClass(StorageClass::Input))
        })
        .filter_map(|i| i.result_id)
        .collect();
    let decorated = |m: &Module, v: u32, want: Decoration| {
        m.annotations.iter().any(|a| {
            a.class.opcode == Op::Decorate
                && a.operands.first() == Some(&Operand::IdRef(v))
                && a.operands.get(1) == Some(&Operand::Decoration(want))
        })
    };
    let targets: Vec<u32> = inputs
        .into_iter()
        .filter(|&v| decorated(&m, v, Decoration::Location) && !decorated(&m, v, Decoration::Flat))
        .collect();
    if targets.is_empty() {
        return Ok(None);
    }
    m.annotations.retain(|a| {
        let interp = matches!(
            a.operands.get(1),
            Some(Operand::Decoration(
                Decoration::NoPerspective | Decoration::Centroid | Decoration::Sample
            ))
        );
        !(a.class.opcode == Op::Decorate
            && interp
            && matches!(a.operands.first(), Some(Operand::IdRef(v)) if targets.contains(v)))
    });
    for v in targets {
        m.annotations.push(Instruction::new(
            Op::Decorate,
            None,
            None,
            vec![Operand::IdRef(v), Operand::Decoration(Decoration::Flat)],
        ));
    }
    Ok(Some(m.assemble()))
}

/// The colour outputs a fragment program declares: (Location, kind) of every `Output`
/// variable with a `Location` (an array covers consecutive Locations).
pub(crate) fn fragment_outputs(words: &[u32]) -> Result<Vec<(u32, Kind)>> {
    let m = rspirv::dr::load_words(words)
        .map_err(|e| HarnessError::Spirv(format!("cannot parse the fragment program: {e}")))?;
    let defs: HashMap<u32, &Instruction> = m
        .types_global_values
        .iter()
        .filter_map(|i| i.result_id.map(|id| (id, i)))
        .collect();
    let location = |v: u32| {
        m.annotations.iter().find_map(|a| match a.operands.as_slice() {
            [Operand::IdRef(t), Operand::Decoration(Decoration::Location), Operand::LiteralBit32(l)]
                if a.class.opcode == Op::Decorate && *t == v =>
            {
                Some(*l)
            }
            _ => None,
        })
    };
    let mut out = Vec::new();
    for i in &m.types_global_values {
        if i.class.opcode != Op::Variable
            || i.operands.first() != Some(&Operand::StorageClass(StorageClass::Output))
        {
            continue;
        }
        let (Some(v), Some(ptr)) = (i.result_id, i.result_type) else {
            continue;
        };
        let Some(loc) = location(v) else { continue };
        let mut ty = defs.get(&ptr).and_then(|p| id_ref(p.operands.get(1)));
        let mut count = 1;
        if let Some(arr) = ty
            .and_then(|t| defs.get(&t))
            .filter(|d| d.class.opcode == Op::TypeArray)
        {
            count = id_ref(arr.operands.get(1))
                .and_then(|c| defs.get(&c))
                .and_then(|c| c.operands.first().and_then(literal))
                .unwrap_or(1);
            ty = id_ref(arr.operands.first());
        }
        if let Some(vec) = ty
            .and_then(|t| defs.get(&t))
            .filter(|d| d.class.opcode == Op::TypeVector)
        {
            ty = id_ref(vec.operands.first());
        }
        let kind = match ty.and_then(|t| defs.get(&t)) {
            Some(s) if s.class.opcode == Op::TypeFloat => Kind::Float,
            Some(s) if s.class.opcode == Op::TypeInt => {
                if s.operands.get(1).and_then(literal) == Some(1) {
                    Kind::Int
                } else {
                    Kind::Uint
                }
            }
            _ => continue,
        };
        for k in 0..count {
            out.push((loc + k, kind));
        }
    }
    Ok(out)
}
