//! What a SPIR-V module declares: read back from the words the backend
//! produced, so the reflection states exactly what the module has
//! (whatever the backend lowers, now or later).

use std::collections::HashMap;

use rspirv::dr::{Instruction, Operand};
use rspirv::spirv::{BuiltIn, Decoration, Dim, Op, StorageClass, Word};

use super::ComponentType;

/// A decoration and its literal operands.
type Decorations = Vec<(Decoration, Vec<Operand>)>;

/// The module's types, names and decorations, indexed by id.
pub(super) struct ModuleFacts {
    pub module: rspirv::dr::Module,
    defs: HashMap<Word, usize>,
    names: HashMap<Word, String>,
    member_names: HashMap<(Word, u32), String>,
    decorations: HashMap<Word, Decorations>,
    member_decorations: HashMap<(Word, u32), Decorations>,
}

/// A type, as far as the reflection describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Ty {
    Scalar(ComponentType),
    Vector(ComponentType, u32),
    /// Columns of a column type.
    Matrix(Box<Ty>, u32),
    Array(Box<Ty>, Option<u32>),
    Struct(Word),
    Image(ImageTy),
    SampledImage(ImageTy),
    Sampler,
    Other,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct ImageTy {
    pub dim: Dim,
    pub sampled_type: Option<ComponentType>,
    pub depth: bool,
    pub arrayed: bool,
    pub multisampled: bool,
    /// A storage image (Sampled 2), and its format (`None`: Unknown).
    pub storage: bool,
    pub format: Option<rspirv::spirv::ImageFormat>,
}

/// A global variable of the module.
pub(super) struct GlobalVar {
    pub id: Word,
    pub class: StorageClass,
    pub pointee: Word,
}

/// The words of `module` before its first `OpFunction` (the header and
/// every declaration; all of it when it has no function or is malformed),
/// without the decorations of arithmetic results: `NoContraction` (and
/// `RelaxedPrecision` under ARB_precision_hint_fastest) on nearly every
/// float operation of a big program, which say nothing about the interface
/// and were most of the reflection's time (docs/performance.md).
fn declarations(module: &[u32]) -> Vec<u32> {
    const OP_FUNCTION: u32 = Op::Function as u32;
    const OP_DECORATE: u32 = Op::Decorate as u32;
    const NO_CONTRACTION: u32 = Decoration::NoContraction as u32;
    const RELAXED_PRECISION: u32 = Decoration::RelaxedPrecision as u32;
    let mut kept = Vec::with_capacity(module.len().min(4096));
    kept.extend_from_slice(&module[..module.len().min(5)]);
    let mut at = 5;
    while let Some(&first) = module.get(at) {
        let count = (first >> 16) as usize;
        if first & 0xffff == OP_FUNCTION {
            return kept;
        }
        let Some(inst) = module.get(at..at + count).filter(|_| count > 0) else {
            // Malformed: the loader reports it.
            kept.extend_from_slice(&module[at..]);
            return kept;
        };
        let arithmetic = count == 3
            && first & 0xffff == OP_DECORATE
            && matches!(inst[2], NO_CONTRACTION | RELAXED_PRECISION);
        if !arithmetic {
            kept.extend_from_slice(inst);
        }
        at += count;
    }
    kept
}

impl ModuleFacts {
    pub fn load(words: &[u32]) -> Result<ModuleFacts, String> {
        // Only the declarations are read (types, names, decorations): the
        // function bodies, most of a large module, are not parsed.
        let module = rspirv::dr::load_words(declarations(words))
            .map_err(|e| format!("cannot parse the module: {e}"))?;
        let mut facts = ModuleFacts {
            defs: HashMap::new(),
            names: HashMap::new(),
            member_names: HashMap::new(),
            decorations: HashMap::new(),
            member_decorations: HashMap::new(),
            module,
        };
        for (i, inst) in facts.module.types_global_values.iter().enumerate() {
            if let Some(id) = inst.result_id {
                facts.defs.insert(id, i);
            }
        }
        for inst in &facts.module.debug_names {
            match (inst.class.opcode, inst.operands.as_slice()) {
                (Op::Name, [Operand::IdRef(id), Operand::LiteralString(s)]) => {
                    facts.names.insert(*id, s.clone());
                }
                (
                    Op::MemberName,
                    [Operand::IdRef(id), Operand::LiteralBit32(m), Operand::LiteralString(s)],
                ) => {
                    facts.member_names.insert((*id, *m), s.clone());
                }
                _ => {}
            }
        }
        for inst in &facts.module.annotations {
            match (inst.class.opcode, inst.operands.as_slice()) {
                (Op::Decorate, [Operand::IdRef(id), Operand::Decoration(d), rest @ ..]) => {
                    facts
                        .decorations
                        .entry(*id)
                        .or_default()
                        .push((*d, rest.to_vec()));
                }
                (
                    Op::MemberDecorate,
                    [Operand::IdRef(id), Operand::LiteralBit32(m), Operand::Decoration(d), rest @ ..],
                ) => {
                    facts
                        .member_decorations
                        .entry((*id, *m))
                        .or_default()
                        .push((*d, rest.to_vec()));
                }
                _ => {}
            }
        }
        Ok(facts)
    }

    fn def(&self, id: Word) -> Option<&Instruction> {
        self.defs
            .get(&id)
            .and_then(|&i| self.module.types_global_values.get(i))
    }

    pub fn name(&self, id: Word) -> Option<&str> {
        self.names.get(&id).map(String::as_str)
    }

    pub fn member_name(&self, id: Word, member: u32) -> Option<&str> {
        self.member_names.get(&(id, member)).map(String::as_str)
    }

    /// Whether `id` has decoration `d`.
    pub fn has(&self, id: Word, d: Decoration) -> bool {
        self.decorations
            .get(&id)
            .is_some_and(|v| v.iter().any(|(x, _)| *x == d))
    }

    /// The first literal of decoration `d` on `id`.
    pub fn literal(&self, id: Word, d: Decoration) -> Option<u32> {
        first_literal(self.decorations.get(&id)?, d)
    }

    pub fn member_literal(&self, id: Word, member: u32, d: Decoration) -> Option<u32> {
        first_literal(self.member_decorations.get(&(id, member))?, d)
    }

    pub fn builtin(&self, id: Word) -> Option<BuiltIn> {
        self.decorations
            .get(&id)?
            .iter()
            .find_map(|(d, ops)| match (d, ops.as_slice()) {
                (Decoration::BuiltIn, [Operand::BuiltIn(b)]) => Some(*b),
                _ => None,
            })
    }

    /// Every SpecId the module's specialization constants carry.
    pub fn spec_ids(&self) -> std::collections::BTreeSet<u32> {
        self.decorations
            .values()
            .flatten()
            .filter_map(|(d, ops)| match (d, ops.as_slice()) {
                (Decoration::SpecId, [Operand::LiteralBit32(id)]) => Some(*id),
                _ => None,
            })
            .collect()
    }

    pub fn member_builtin(&self, id: Word, member: u32) -> Option<BuiltIn> {
        self.member_decorations
            .get(&(id, member))?
            .iter()
            .find_map(|(d, ops)| match (d, ops.as_slice()) {
                (Decoration::BuiltIn, [Operand::BuiltIn(b)]) => Some(*b),
                _ => None,
            })
    }

    /// Every global `OpVariable`, with its storage class and pointee type.
    pub fn globals(&self) -> Vec<GlobalVar> {
        self.module
            .types_global_values
            .iter()
            .filter(|i| i.class.opcode == Op::Variable)
            .filter_map(|i| {
                let id = i.result_id?;
                let class = match i.operands.first() {
                    Some(Operand::StorageClass(c)) => *c,
                    _ => return None,
                };
                let pointer = self.def(i.result_type?)?;
                let pointee = match pointer.operands.as_slice() {
                    [Operand::StorageClass(_), Operand::IdRef(t)] => *t,
                    _ => return None,
                };
                Some(GlobalVar { id, class, pointee })
            })
            .collect()
    }

    /// The value of a 32-bit integer constant.
    fn constant_u32(&self, id: Word) -> Option<u32> {
        let inst = self.def(id)?;
        match (inst.class.opcode, inst.operands.as_slice()) {
            (Op::Constant, [Operand::LiteralBit32(v)]) => Some(*v),
            _ => None,
        }
    }

    pub fn ty(&self, id: Word) -> Ty {
        let Some(inst) = self.def(id) else {
            return Ty::Other;
        };
        let ops = inst.operands.as_slice();
        match (inst.class.opcode, ops) {
            (Op::TypeBool, _) => Ty::Scalar(ComponentType::Bool),
            (Op::TypeFloat, [Operand::LiteralBit32(32), ..]) => Ty::Scalar(ComponentType::Float),
            (Op::TypeInt, [Operand::LiteralBit32(32), Operand::LiteralBit32(signed)]) => {
                Ty::Scalar(if *signed == 1 {
                    ComponentType::Int
                } else {
                    ComponentType::Uint
                })
            }
            (Op::TypeVector, [Operand::IdRef(c), Operand::LiteralBit32(n)]) => match self.ty(*c) {
                Ty::Scalar(s) => Ty::Vector(s, *n),
                _ => Ty::Other,
            },
            (Op::TypeMatrix, [Operand::IdRef(c), Operand::LiteralBit32(n)]) => {
                Ty::Matrix(Box::new(self.ty(*c)), *n)
            }
            (Op::TypeArray, [Operand::IdRef(e), Operand::IdRef(len)]) => {
                Ty::Array(Box::new(self.ty(*e)), self.constant_u32(*len))
            }
            (Op::TypeRuntimeArray, [Operand::IdRef(e)]) => Ty::Array(Box::new(self.ty(*e)), None),
            (Op::TypeStruct, _) => Ty::Struct(id),
            (Op::TypeImage, _) => self.image(ops).map_or(Ty::Other, Ty::Image),
            (Op::TypeSampledImage, [Operand::IdRef(image)]) => match self.ty(*image) {
                Ty::Image(i) => Ty::SampledImage(i),
                _ => Ty::Other,
            },
            (Op::TypeSampler, _) => Ty::Sampler,
            _ => Ty::Other,
        }
    }

    fn image(&self, ops: &[Operand]) -> Option<ImageTy> {
        match ops {
            [Operand::IdRef(sampled), Operand::Dim(dim), Operand::LiteralBit32(depth), Operand::LiteralBit32(arrayed), Operand::LiteralBit32(ms), rest @ ..] =>
            {
                let storage = matches!(rest.first(), Some(Operand::LiteralBit32(2)));
                let format = match rest.get(1) {
                    Some(Operand::ImageFormat(f)) if *f != rspirv::spirv::ImageFormat::Unknown => {
                        Some(*f)
                    }
                    _ => None,
                };
                Some(ImageTy {
                    dim: *dim,
                    sampled_type: match self.ty(*sampled) {
                        Ty::Scalar(c) => Some(c),
                        _ => None,
                    },
                    depth: *depth == 1,
                    arrayed: *arrayed == 1,
                    multisampled: *ms == 1,
                    storage,
                    format,
                })
            }
            _ => None,
        }
    }

    /// The member type ids of a struct type.
    pub fn struct_members(&self, id: Word) -> Vec<Word> {
        self.def(id)
            .map(|inst| {
                inst.operands
                    .iter()
                    .filter_map(|o| match o {
                        Operand::IdRef(t) => Some(*t),
                        _ => None,
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The size in bytes a value of type `id` occupies in an explicitly
    /// laid out block (Offset / ArrayStride / MatrixStride decorations).
    /// `matrix_stride` is the enclosing member's MatrixStride.
    pub fn size(&self, id: Word, matrix_stride: Option<u32>) -> u32 {
        match self.ty(id) {
            Ty::Scalar(_) => 4,
            Ty::Vector(_, n) => n.saturating_mul(4),
            Ty::Matrix(column, n) => match matrix_stride {
                Some(stride) => stride.saturating_mul(n),
                None => n.saturating_mul(self.size_of_ty(&column)),
            },
            Ty::Array(_, len) => {
                let stride = self.literal(id, Decoration::ArrayStride).unwrap_or(0);
                stride.saturating_mul(len.unwrap_or(0))
            }
            Ty::Struct(s) => self
                .struct_members(s)
                .iter()
                .enumerate()
                .map(|(m, &t)| {
                    let m = m as u32;
                    let offset = self.member_literal(s, m, Decoration::Offset).unwrap_or(0);
                    offset.saturating_add(
                        self.size(t, self.member_literal(s, m, Decoration::MatrixStride)),
                    )
                })
                .max()
                .unwrap_or(0),
            _ => 0,
        }
    }

    fn size_of_ty(&self, ty: &Ty) -> u32 {
        match ty {
            Ty::Scalar(_) => 4,
            Ty::Vector(_, n) => n.saturating_mul(4),
            _ => 0,
        }
    }

    /// A GLSL-like spelling of a type: `vec4`, `uvec4[16]`, `float[2]`,
    /// `mat4`, `sampler2D`, or the struct's name.
    pub fn type_name(&self, id: Word) -> String {
        spell(self, &self.ty(id))
    }
}

fn spell(facts: &ModuleFacts, ty: &Ty) -> String {
    let prefix = |c: ComponentType| match c {
        ComponentType::Float => "",
        ComponentType::Int => "i",
        ComponentType::Uint => "u",
        ComponentType::Bool => "b",
    };
    match ty {
        Ty::Scalar(c) => c.glsl_name().to_string(),
        Ty::Vector(c, n) => format!("{}vec{n}", prefix(*c)),
        Ty::Matrix(column, n) => match **column {
            Ty::Vector(ComponentType::Float, rows) if rows == *n => format!("mat{n}"),
            Ty::Vector(ComponentType::Float, rows) => format!("mat{n}x{rows}"),
            _ => "matrix".to_string(),
        },
        Ty::Array(e, Some(n)) => format!("{}[{n}]", spell(facts, e)),
        Ty::Array(e, None) => format!("{}[]", spell(facts, e)),
        Ty::Struct(id) => facts.name(*id).unwrap_or("struct").to_string(),
        Ty::Image(i) if i.storage => format!("{}image{}", prefix_of(i), dim_suffix(i)),
        Ty::Image(i) => format!("{}texture{}", prefix_of(i), dim_suffix(i)),
        Ty::SampledImage(i) => format!("{}sampler{}", prefix_of(i), dim_suffix(i)),
        Ty::Sampler => "sampler".to_string(),
        Ty::Other => "other".to_string(),
    }
}

fn prefix_of(i: &ImageTy) -> &'static str {
    match i.sampled_type {
        Some(ComponentType::Int) => "i",
        Some(ComponentType::Uint) => "u",
        _ => "",
    }
}

fn dim_suffix(i: &ImageTy) -> String {
    let dim = match i.dim {
        Dim::Dim1D => "1D",
        Dim::Dim2D => "2D",
        Dim::Dim3D => "3D",
        Dim::DimCube => "Cube",
        Dim::DimRect => "2DRect",
        Dim::DimBuffer => "Buffer",
        _ => "",
    };
    format!(
        "{dim}{}{}{}",
        if i.multisampled { "MS" } else { "" },
        if i.arrayed { "Array" } else { "" },
        if i.depth { "Shadow" } else { "" }
    )
}

fn first_literal(list: &Decorations, d: Decoration) -> Option<u32> {
    list.iter()
        .find_map(|(x, ops)| match (x == &d, ops.first()) {
            (true, Some(Operand::LiteralBit32(v))) => Some(*v),
            _ => None,
        })
}
