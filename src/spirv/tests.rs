//! Tests of the SPIR-V backend: hand-built IR programs, lowered for
//! vulkan1.0 and vulkan1.3, must pass spirv-val; the interface contract of
//! docs/interface.md is checked on the decorations of the module.

use rspirv::dr::{self, Operand as SpvOperand};
use rspirv::spirv::{self, BuiltIn, Decoration, Op};

use super::{disassemble, lower, validate, LowerError};
use crate::ir::*;
use crate::isa::{CcCondition, DataType, Dialect, OpInfo, Opcode, Shape, Stage, INSTRUCTIONS};
use crate::span::Span;
use crate::{Options, TargetEnv};

const ENVS: [TargetEnv; 4] = [
    TargetEnv::Vulkan1_0,
    TargetEnv::Vulkan1_1,
    TargetEnv::Vulkan1_2,
    TargetEnv::Vulkan1_3,
];

fn options(env: TargetEnv) -> Options {
    Options {
        target_env: env,
        ..Options::default()
    }
}

/// A program under construction.
struct P {
    program: Program,
    /// Leave out unobservable code as `lower` does outside tests (most
    /// tests here look at the code of programs that observe nothing).
    prune: bool,
}

impl P {
    fn new(stage: Stage) -> P {
        P {
            program: Program {
                stage,
                dialect: Dialect::nv4(stage),
                options: Vec::new(),
                variables: Vec::new(),
                subroutines: vec![Subroutine {
                    name: None,
                    span: Span::default(),
                    body: Vec::new(),
                    end: SubroutineEnd::Return,
                }],
                entry: SubId(0),
                geometry: None,
                tess_control: None,
                tess_eval: None,
                compute: None,
                samplers: Vec::new(),
                call_overflow: CallOverflow::Skip,
            },
            prune: false,
        }
    }

    fn var(&mut self, kind: VarKind, ty: VarType, array_len: Option<u32>) -> VarId {
        let id = VarId(self.program.variables.len() as u32);
        self.program.variables.push(Variable {
            name: Some(format!("v{}", id.0)),
            span: Span::default(),
            kind,
            ty,
            precision: Precision::Default,
            array_len,
            interpolation: Interpolation::default(),
        });
        id
    }
    fn temp(&mut self) -> VarId {
        self.var(VarKind::Temp, VarType::Typeless, None)
    }
    fn typed_temp(&mut self, t: DataType) -> VarId {
        self.var(VarKind::Temp, VarType::Typed(t), None)
    }
    fn temp_array(&mut self, n: u32) -> VarId {
        self.var(VarKind::Temp, VarType::Typeless, Some(n))
    }
    fn constant(&mut self, v: [f64; 4]) -> VarId {
        let lits = v.map(Literal::Float);
        self.var(
            VarKind::Param(vec![ParamBinding::Constant(lits)]),
            VarType::Typeless,
            None,
        )
    }
    fn int_constant(&mut self, v: [i64; 4]) -> VarId {
        let lits = v.map(|x| Literal::Int {
            negative: x < 0,
            magnitude: x.unsigned_abs(),
        });
        self.var(
            VarKind::Param(vec![ParamBinding::Constant(lits)]),
            VarType::Typeless,
            None,
        )
    }
    fn params(&mut self, bindings: Vec<ParamBinding>) -> VarId {
        let n = bindings.len() as u32;
        self.var(
            VarKind::Param(bindings),
            VarType::Typeless,
            (n > 1).then_some(n),
        )
    }
    fn attrib(&mut self, b: AttribBinding) -> VarId {
        self.var(VarKind::Attrib(vec![b]), VarType::Typeless, None)
    }
    fn attribs(&mut self, b: Vec<AttribBinding>, ty: VarType) -> VarId {
        let n = b.len() as u32;
        self.var(VarKind::Attrib(b), ty, Some(n))
    }
    fn result(&mut self, b: ResultBinding) -> VarId {
        self.var(VarKind::Result(vec![b]), VarType::Typeless, None)
    }
    fn results(&mut self, b: Vec<ResultBinding>, ty: VarType) -> VarId {
        let n = b.len() as u32;
        self.var(VarKind::Result(b), ty, Some(n))
    }
    fn push(&mut self, s: Stmt) {
        self.program.subroutines[0].body.push(s);
    }
    fn sub(&mut self, name: &str, body: Block) -> SubId {
        let id = SubId(self.program.subroutines.len() as u32);
        self.program.subroutines.push(Subroutine {
            name: Some(name.into()),
            span: Span::default(),
            body,
            end: SubroutineEnd::Return,
        });
        id
    }

    fn lower(&self, env: TargetEnv) -> Result<Vec<u32>, LowerError> {
        super::live::KEEP_ALL.with(|k| k.set(!self.prune));
        lower(&self.program, &options(env))
    }

    /// The oldest environment every instruction of the program exists in
    /// (`OpInfo::min_env`: the thread-group votes need Vulkan 1.1).
    fn min_env(&self) -> TargetEnv {
        fn walk(block: &[Stmt], env: &mut TargetEnv) {
            for s in block {
                if let Stmt::Inst(i) = s {
                    *env = (*env).max(OpInfo::of(i.op).min_env);
                }
                for b in s.blocks() {
                    walk(b, env);
                }
            }
        }
        let mut env = TargetEnv::Vulkan1_0;
        for sub in &self.program.subroutines {
            walk(&sub.body, &mut env);
        }
        env
    }

    /// Lowers for every environment the program's instructions exist in
    /// and runs spirv-val on each.
    fn assert_valid(&self) -> Vec<u32> {
        let mut last = Vec::new();
        let oldest = self.min_env();
        for env in ENVS.into_iter().filter(|&e| e >= oldest) {
            let words = match self.lower(env) {
                Ok(w) => w,
                Err(e) => panic!("lowering for {env:?} failed: {e:?}\n{:#?}", self.program),
            };
            if let Err(msg) = validate(&words, env) {
                let text = disassemble(&words).unwrap_or_default();
                panic!("spirv-val ({env:?}) rejected the module: {msg}\n{text}");
            }
            last = words;
        }
        last
    }
}

fn operand(var: VarId, ty: DataType) -> Operand {
    Operand {
        var,
        index: Index::None,
        swizzle: Swizzle::IDENTITY,
        negate: false,
        abs: false,
        negate_abs: false,
        ty,
        span: Span::default(),
    }
}

fn dest(var: VarId, ty: DataType) -> Dest {
    Dest {
        var,
        index: Index::None,
        mask: WriteMask::ALL,
        cc_mask: None,
        ty,
        span: Span::default(),
    }
}

/// An instruction reading `srcs` with the types and shapes Table X.13
/// gives `op` at data type `ty`.
fn inst(op: Opcode, ty: DataType, dst: VarId, srcs: &[VarId]) -> Instruction {
    let info = OpInfo::of(op);
    let operands = info
        .inputs
        .iter()
        .zip(srcs)
        .map(|(kind, &var)| {
            let mut o = operand(var, kind.type_rule().resolve(ty));
            if kind.is_scalar() {
                o.swizzle = Swizzle::splat(1);
            }
            o
        })
        .collect();
    let result_ty = info.result_type(ty).unwrap_or(ty);
    Instruction {
        op,
        ty,
        half: false,
        fixed: false,
        clamp: None,
        cc_update: None,
        mul_mode: None,
        precision64: false,
        // CVT between two 32-bit storage types of the data type.
        convert: (op == Opcode::Cvt).then_some(crate::ir::Conversion {
            to: crate::ir::StorageType { ty, bits: 32 },
            from: crate::ir::StorageType { ty, bits: 32 },
            rounding: crate::ir::Rounding::Round,
            saturate: false,
            long_half_operand: false,
            long_half_result: false,
        }),
        dst: dest(dst, result_ty),
        srcs: operands,
        ext_swizzle: (op == Opcode::Swz).then_some(Box::new([
            ExtSwizzleComp {
                negate: false,
                sel: ExtSwizzleSel::Component(3),
            },
            ExtSwizzleComp {
                negate: true,
                sel: ExtSwizzleSel::Zero,
            },
            ExtSwizzleComp {
                negate: false,
                sel: ExtSwizzleSel::One,
            },
            ExtSwizzleComp {
                negate: true,
                sel: ExtSwizzleSel::Component(0),
            },
        ])),
        tex: None,
        memory: None,
        image: None,
        span: Span::default(),
    }
}

fn cc(condition: CcCondition, reg: u8) -> CcTest {
    CcTest {
        condition,
        reg: CcReg(reg),
        swizzle: Swizzle::IDENTITY,
    }
}

fn cc_x(condition: CcCondition) -> CcTest {
    CcTest {
        condition,
        reg: CcReg(0),
        swizzle: Swizzle::splat(0),
    }
}

/// The data types an opcode accepts (Table X.13 columns F and I).
fn data_types(info: &OpInfo) -> Vec<DataType> {
    let mut v = Vec::new();
    if info.modifiers().float {
        v.push(DataType::Float);
    }
    if info.modifiers().integer {
        v.push(DataType::Signed);
        v.push(DataType::Unsigned);
    }
    if v.is_empty() {
        v.push(info.default_type);
    }
    v
}

fn is_alu(info: &OpInfo) -> bool {
    // IPAC/IPAO/IPAS read a fragment attribute, never the temporaries these
    // tests give every operand (the checker's E1130);
    // texture::tests::nv5_texture_and_interpolation_validate_or_are_refused
    // lowers them on attributes.
    matches!(info.shape, Shape::Alu | Shape::Swz)
        && !matches!(info.opcode, Opcode::Ipac | Opcode::Ipao | Opcode::Ipas)
}

fn module(words: &[u32]) -> dr::Module {
    match dr::load_words(words) {
        Ok(m) => m,
        Err(e) => panic!("rspirv cannot load the module: {e}"),
    }
}

fn has_op(words: &[u32], op: Op) -> bool {
    let m = module(words);
    m.functions
        .iter()
        .flat_map(|f| f.blocks.iter())
        .flat_map(|b| b.instructions.iter())
        .any(|i| i.class.opcode == op)
}

/// The decorations of every id, as (target, decoration, literal operand).
fn decorations(words: &[u32]) -> Vec<(u32, Decoration, Option<u32>)> {
    let m = module(words);
    m.annotations
        .iter()
        .filter(|i| i.class.opcode == Op::Decorate)
        .filter_map(|i| {
            let target = match i.operands.first() {
                Some(SpvOperand::IdRef(t)) => *t,
                _ => return None,
            };
            let deco = match i.operands.get(1) {
                Some(SpvOperand::Decoration(d)) => *d,
                _ => return None,
            };
            let value = match i.operands.get(2) {
                Some(SpvOperand::LiteralBit32(v)) => Some(*v),
                Some(SpvOperand::BuiltIn(b)) => Some(*b as u32),
                _ => None,
            };
            Some((target, deco, value))
        })
        .collect()
}

/// The storage class of the variable with the given decoration value.
fn variable_class(words: &[u32], id: u32) -> Option<spirv::StorageClass> {
    let m = module(words);
    m.types_global_values
        .iter()
        .find(|i| i.result_id == Some(id))
        .and_then(|i| match i.operands.first() {
            Some(SpvOperand::StorageClass(c)) => Some(*c),
            _ => None,
        })
}

/// Ids decorated with `deco` = `value`.
fn decorated(words: &[u32], deco: Decoration, value: u32) -> Vec<u32> {
    decorations(words)
        .into_iter()
        .filter(|&(_, d, v)| d == deco && v == Some(value))
        .map(|(t, _, _)| t)
        .collect()
}

fn has_decoration(words: &[u32], target: u32, deco: Decoration) -> bool {
    decorations(words)
        .iter()
        .any(|&(t, d, _)| t == target && d == deco)
}

// ---- instructions -------------------------------------------------------

#[test]
fn every_alu_instruction_in_every_data_type_validates() {
    let mut count = 0;
    for info in INSTRUCTIONS.iter().filter(|i| is_alu(i)) {
        let stage = info.only_stage.unwrap_or(Stage::Vertex);
        for ty in data_types(info) {
            let mut p = P::new(stage);
            let a = p.constant([1.5, -2.0, 0.0, 4.0]);
            let b = p.temp();
            let c = p.attrib(if stage == Stage::Fragment {
                AttribBinding::TexCoord(0)
            } else {
                AttribBinding::Generic(3)
            });
            let r = p.temp();
            // Operands from a constant, a temporary and an attribute.
            p.push(Stmt::Inst(inst(Opcode::Mov, DataType::Float, b, &[c])));
            p.push(Stmt::Inst(inst(info.opcode, ty, r, &[a, b, c])));
            // And a result through a typed register and an output.
            let out = p.result(if stage == Stage::Fragment {
                ResultBinding::FragColor(0)
            } else {
                ResultBinding::Generic(0)
            });
            p.push(Stmt::Inst(inst(Opcode::Mov, DataType::Float, out, &[r])));
            p.assert_valid();
            count += 1;
        }
    }
    assert!(count > 100, "only {count} instruction forms were tried");
}

#[test]
fn every_alu_instruction_with_cc_update_clamp_and_half_validates() {
    for info in INSTRUCTIONS.iter().filter(|i| is_alu(i)) {
        let stage = info.only_stage.unwrap_or(Stage::Fragment);
        for ty in data_types(info) {
            let mut p = P::new(stage);
            let a = p.temp();
            let b = p.typed_temp(DataType::Signed);
            let r = p.typed_temp(DataType::Float);
            let mut i = inst(info.opcode, ty, r, &[a, b, a]);
            for src in &mut i.srcs {
                src.negate = true;
                src.abs = true;
                src.negate_abs = true;
                if !i.ty.is_integer() || !info.inputs.iter().any(|k| k.is_scalar()) {
                    src.swizzle = Swizzle([3, 2, 1, 0]);
                }
            }
            // Scalar operands keep their splat swizzle.
            for (src, kind) in i.srcs.iter_mut().zip(info.inputs) {
                if kind.is_scalar() {
                    src.swizzle = Swizzle::splat(2);
                }
            }
            if info.modifiers().cc {
                i.cc_update = Some(CcReg(1));
            }
            if info.modifiers().clamp && info.result_type(ty) == Some(DataType::Float) {
                i.clamp = Some(Clamp::Ssat);
            }
            i.half = info.modifiers().half && ty == DataType::Float;
            i.dst.mask = WriteMask(0b1011);
            i.dst.cc_mask = Some(CcTest {
                condition: CcCondition::Ge,
                reg: CcReg(1),
                swizzle: Swizzle([0, 0, 1, 3]),
            });
            p.push(Stmt::Inst(i));
            p.assert_valid();
        }
    }
}

#[test]
fn multiply_modes_validate() {
    for (mode, ty) in [
        (MulMode::S24, DataType::Signed),
        (MulMode::U24, DataType::Unsigned),
        (MulMode::Hi, DataType::Signed),
        (MulMode::Hi, DataType::Unsigned),
    ] {
        let mut p = P::new(Stage::Vertex);
        let a = p.int_constant([7, -3, 1 << 20, 65536]);
        let r = p.temp();
        let mut i = inst(Opcode::Mul, ty, r, &[a, a]);
        i.mul_mode = Some(mode);
        i.cc_update = Some(CcReg(0));
        p.push(Stmt::Inst(i));
        let words = p.assert_valid();
        let extended = if ty == DataType::Signed {
            Op::SMulExtended
        } else {
            Op::UMulExtended
        };
        assert_eq!(has_op(&words, extended), mode == MulMode::Hi);
    }
}

#[test]
fn a_float_multiply_with_hi_is_an_internal_error() {
    let mut p = P::new(Stage::Vertex);
    let a = p.temp();
    let mut i = inst(Opcode::Mul, DataType::Float, a, &[a, a]);
    i.mul_mode = Some(MulMode::Hi);
    p.push(Stmt::Inst(i));
    assert!(matches!(
        p.lower(TargetEnv::Vulkan1_0),
        Err(LowerError::Internal { .. })
    ));
}

#[test]
fn operand_types_must_match_the_table() {
    let mut p = P::new(Stage::Vertex);
    let a = p.temp();
    let mut i = inst(Opcode::Flr, DataType::Signed, a, &[a]);
    // FLR's operand is always a float (Table X.13 "vf").
    i.srcs[0].ty = DataType::Signed;
    p.push(Stmt::Inst(i));
    match p.lower(TargetEnv::Vulkan1_0) {
        Err(LowerError::Internal { what, .. }) => assert!(what.contains("Table X.13"), "{what}"),
        other => panic!("expected an internal error, got {other:?}"),
    }
}

#[test]
fn float_arithmetic_is_not_contracted() {
    let mut p = P::new(Stage::Vertex);
    let a = p.temp();
    p.push(Stmt::Inst(inst(
        Opcode::Mad,
        DataType::Float,
        a,
        &[a, a, a],
    )));
    let words = p.assert_valid();
    let m = module(&words);
    let arith: Vec<u32> = m
        .functions
        .iter()
        .flat_map(|f| f.blocks.iter())
        .flat_map(|b| b.instructions.iter())
        .filter(|i| matches!(i.class.opcode, Op::FMul | Op::FAdd))
        .filter_map(|i| i.result_id)
        .collect();
    assert_eq!(
        arith.len(),
        2,
        "MAD is a multiply and a separately rounded add"
    );
    for id in arith {
        assert!(has_decoration(&words, id, Decoration::NoContraction));
    }
}

/// NV_gpu_program5 2.X.4.1: `.PREC` asks for a result that does not
/// depend on neighbouring instructions; every float add and multiply is
/// already NoContraction, so `ADD.PREC` is an `OpFAdd` with it. PREC is for
/// NV5's arithmetic and logical instructions only.
#[test]
fn prec_is_accepted_on_nv5_arithmetic_and_its_add_is_not_contracted() {
    let src = "!!NVfp5.0\nATTRIB a = fragment.attrib[0];\nTEMP r;\nMUL r, a, a;\nADD.PREC r, r, a;\nAND.PREC.U r.w, r.w, 1;\nMOV result.color, r;\nEND\n";
    let words = crate::compile(src, &crate::Options::default())
        .expect("ADD.PREC compiles")
        .spirv;
    let m = module(&words);
    let adds: Vec<u32> = m
        .functions
        .iter()
        .flat_map(|f| f.blocks.iter())
        .flat_map(|b| b.instructions.iter())
        .filter(|i| i.class.opcode == Op::FAdd)
        .filter_map(|i| i.result_id)
        .collect();
    assert!(!adds.is_empty());
    for id in adds {
        assert!(has_decoration(&words, id, Decoration::NoContraction));
    }
    for refused in [
        "!!NVfp4.0\nTEMP r;\nMOV r, 1;\nADD.PREC result.color, r, r;\nEND\n",
        "!!NVfp5.0\nTEMP r;\nTEX.PREC r, fragment.texcoord[0], texture[0], 2D;\nMOV result.color, r;\nEND\n",
        "!!NVfp5.0\nTEMP r;\nMOV r, 1;\nADD.PREC.PREC result.color, r, r;\nEND\n",
    ] {
        let codes: Vec<&str> = crate::compile(refused, &crate::Options::default())
            .expect_err(refused)
            .iter()
            .map(|d| d.code)
            .collect();
        assert!(
            codes == ["E0404"] || codes == ["E0403"],
            "{refused}: {codes:?}"
        );
    }
}

#[test]
fn half_precision_results_are_relaxed() {
    let mut p = P::new(Stage::Fragment);
    let a = p.temp();
    let mut i = inst(Opcode::Add, DataType::Float, a, &[a, a]);
    i.half = true;
    p.push(Stmt::Inst(i));
    let words = p.assert_valid();
    assert!(decorations(&words)
        .iter()
        .any(|&(_, d, _)| d == Decoration::RelaxedPrecision));
}

// ---- condition codes ----------------------------------------------------

#[test]
fn every_condition_code_test_on_both_registers_validates() {
    for (_, condition) in CcCondition::ALL {
        for reg in 0..2 {
            let mut p = P::new(Stage::Vertex);
            let a = p.temp();
            let r = p.result(ResultBinding::Position);
            let mut set = inst(Opcode::Sub, DataType::Signed, a, &[a, a]);
            set.cc_update = Some(CcReg(reg));
            p.push(Stmt::Inst(set));
            let mut mov = inst(Opcode::Mov, DataType::Float, r, &[a]);
            mov.dst.cc_mask = Some(cc(condition, reg));
            p.push(Stmt::Inst(mov));
            p.push(Stmt::If {
                test: CcTest {
                    condition,
                    reg: CcReg(reg),
                    swizzle: Swizzle([3, 1, 0, 2]),
                },
                then_block: vec![Stmt::Inst(inst(Opcode::Mov, DataType::Float, r, &[a]))],
                else_block: Vec::new(),
                span: Span::default(),
            });
            p.assert_valid();
        }
    }
}

#[test]
fn integer_add_and_subtract_compute_carry_and_overflow() {
    // ADD.U with a negated operand is a subtract for the flags (section
    // 2.X.4.3): the module must compare the operands for the carry.
    let mut p = P::new(Stage::Vertex);
    let a = p.typed_temp(DataType::Unsigned);
    let mut add = inst(Opcode::Add, DataType::Unsigned, a, &[a, a]);
    add.srcs[1].negate = true;
    add.cc_update = Some(CcReg(0));
    p.push(Stmt::Inst(add));
    let words = p.assert_valid();
    assert!(
        has_op(&words, Op::UGreaterThanEqual),
        "subtract carry: a >= b"
    );
    // A MUL.U.CC clears carry and overflow: no carry comparison at all.
    let mut p = P::new(Stage::Vertex);
    let a = p.typed_temp(DataType::Unsigned);
    let mut mul = inst(Opcode::Mul, DataType::Unsigned, a, &[a, a]);
    mul.cc_update = Some(CcReg(0));
    p.push(Stmt::Inst(mul));
    let words = p.assert_valid();
    assert!(!has_op(&words, Op::UGreaterThanEqual) && !has_op(&words, Op::ULessThan));
}

#[test]
fn float_condition_codes_treat_nan_as_negative_and_zero() {
    let mut p = P::new(Stage::Vertex);
    let a = p.temp();
    let mut i = inst(Opcode::Mov, DataType::Float, a, &[a]);
    i.cc_update = Some(CcReg(0));
    p.push(Stmt::Inst(i));
    let words = p.assert_valid();
    assert!(has_op(&words, Op::FUnordLessThan) && has_op(&words, Op::FUnordEqual));
}

// ---- operands and destinations -----------------------------------------

#[test]
fn write_masks_and_typed_destinations_validate() {
    for mask in 0..16u8 {
        let mut p = P::new(Stage::Vertex);
        let f = p.typed_temp(DataType::Float);
        let s = p.typed_temp(DataType::Signed);
        let u = p.typed_temp(DataType::Unsigned);
        let t = p.temp();
        for dst in [f, s, u, t] {
            let mut i = inst(Opcode::Add, DataType::Signed, dst, &[s, u]);
            i.dst.mask = WriteMask(mask);
            p.push(Stmt::Inst(i));
        }
        p.assert_valid();
    }
}

#[test]
fn constants_are_typed_per_use() {
    let mut p = P::new(Stage::Vertex);
    let k = p.int_constant([-1, 2, 3, 4]);
    let f = p.temp();
    let i = p.temp();
    p.push(Stmt::Inst(inst(Opcode::Mov, DataType::Float, f, &[k])));
    p.push(Stmt::Inst(inst(Opcode::Mov, DataType::Signed, i, &[k])));
    let words = p.assert_valid();
    let m = module(&words);
    let constants: Vec<u32> = m
        .types_global_values
        .iter()
        .filter(|i| i.class.opcode == Op::Constant)
        .filter_map(|i| match i.operands.first() {
            Some(SpvOperand::LiteralBit32(v)) => Some(*v),
            _ => None,
        })
        .collect();
    assert!(
        constants.contains(&(-1.0f32).to_bits()),
        "-1 read as a float"
    );
    assert!(constants.contains(&u32::MAX), "-1 read as an integer");
}

// ---- relative addressing -------------------------------------------------

fn relative(var: VarId, address: VarId, offset: i32, ty: DataType) -> Operand {
    let mut a = operand(address, DataType::Signed);
    a.swizzle = Swizzle::splat(0);
    Operand {
        index: Index::Relative {
            address: Box::new(a),
            offset,
        },
        ..operand(var, ty)
    }
}

#[test]
fn relative_addressing_of_every_variable_kind_validates() {
    for stage in [Stage::Vertex, Stage::Fragment] {
        let mut p = P::new(stage);
        let addr = p.typed_temp(DataType::Signed);
        let env = p.params((4..8).map(ParamBinding::Env).collect());
        let consts = p.params(
            (0..5)
                .map(|k| {
                    ParamBinding::Constant([
                        Literal::Float(k as f64),
                        Literal::ZERO,
                        Literal::ZERO,
                        Literal::ONE,
                    ])
                })
                .collect(),
        );
        let mixed = p.params(vec![
            ParamBinding::Local(2),
            ParamBinding::Constant([Literal::ONE; 4]),
            ParamBinding::Env(0),
        ]);
        let temps = p.temp_array(6);
        let (attrs, outs) = if stage == Stage::Fragment {
            (
                p.attribs(
                    (0..4).map(AttribBinding::TexCoord).collect(),
                    VarType::Typeless,
                ),
                p.results(
                    (0..3).map(ResultBinding::FragColor).collect(),
                    VarType::Typeless,
                ),
            )
        } else {
            (
                p.attribs(
                    (2..6).map(AttribBinding::Generic).collect(),
                    VarType::Typeless,
                ),
                p.results((0..4).map(ResultBinding::Clip).collect(), VarType::Typeless),
            )
        };
        let x = p.temp();
        for (k, src) in [env, consts, mixed, temps, attrs].into_iter().enumerate() {
            let mut i = inst(Opcode::Add, DataType::Float, x, &[x, x]);
            i.srcs[1] = relative(src, addr, k as i32 % 2, DataType::Float);
            p.push(Stmt::Inst(i));
        }
        for dst in [temps, outs] {
            let mut i = inst(Opcode::Mov, DataType::Float, dst, &[x]);
            let mut a = operand(addr, DataType::Signed);
            a.swizzle = Swizzle::splat(1);
            a.negate = true;
            i.dst.index = Index::Relative {
                address: Box::new(a),
                offset: 1,
            };
            i.dst.mask = WriteMask(0b0101);
            i.dst.cc_mask = Some(cc_x(CcCondition::Ne));
            p.push(Stmt::Inst(i));
        }
        p.assert_valid();
    }
}

#[test]
fn parameter_blocks_follow_the_interface() {
    let mut p = P::new(Stage::Fragment);
    let env = p.params(vec![ParamBinding::Env(3)]);
    let local = p.params(vec![ParamBinding::Local(0), ParamBinding::Local(9)]);
    let x = p.temp();
    p.push(Stmt::Inst(inst(
        Opcode::Add,
        DataType::Float,
        x,
        &[env, local],
    )));
    let words = p.assert_valid();
    // Fragment programs use set 2; env is binding 0, local binding 1.
    let sets = decorated(&words, Decoration::DescriptorSet, 2);
    assert_eq!(sets.len(), 2);
    let env_var = decorated(&words, Decoration::Binding, 0);
    let local_var = decorated(&words, Decoration::Binding, 1);
    assert_eq!(env_var.len(), 1);
    assert_eq!(local_var.len(), 1);
    assert_eq!(
        variable_class(&words, env_var[0]),
        Some(spirv::StorageClass::Uniform)
    );
    // The block arrays are as long as the highest element used plus one.
    let text = disassemble(&words).unwrap_or_default();
    assert!(
        text.contains("OpConstant %uint 4") || text.contains("%uint_4 = OpConstant %uint 4"),
        "{text}"
    );
    assert!(text.contains("%uint_10 = OpConstant %uint 10"), "{text}");
    assert!(!decorated(&words, Decoration::ArrayStride, 16).is_empty());

    let mut opts = options(TargetEnv::Vulkan1_0);
    opts.descriptor_set = Some(5);
    let words = lower(&p.program, &opts).unwrap_or_default();
    assert_eq!(decorated(&words, Decoration::DescriptorSet, 5).len(), 2);
}

#[test]
fn vertex_interface_locations_follow_the_interface() {
    let mut p = P::new(Stage::Vertex);
    let pos = p.attrib(AttribBinding::Position);
    let alias = p.attrib(AttribBinding::Generic(0));
    let tex = p.attrib(AttribBinding::TexCoord(2));
    let col2 = p.attrib(AttribBinding::Color(ColorSel {
        back: false,
        secondary: true,
    }));
    let vid = p.attrib(AttribBinding::VertexId);
    let out_pos = p.result(ResultBinding::Position);
    let out_tex = p.result(ResultBinding::TexCoord(3));
    let out_back = p.result(ResultBinding::Color(ColorSel {
        back: true,
        secondary: true,
    }));
    let out_attr = p.result(ResultBinding::Generic(1));
    let out_int = p.var(
        VarKind::Result(vec![ResultBinding::Generic(2)]),
        VarType::Typed(DataType::Signed),
        None,
    );
    let out_size = p.result(ResultBinding::PointSize);
    let out_id = p.result(ResultBinding::Id);
    let x = p.temp();
    for src in [pos, alias, tex, col2, vid] {
        p.push(Stmt::Inst(inst(Opcode::Add, DataType::Float, x, &[x, src])));
    }
    for dst in [out_pos, out_tex, out_back, out_attr, out_size] {
        p.push(Stmt::Inst(inst(Opcode::Mov, DataType::Float, dst, &[x])));
    }
    p.push(Stmt::Inst(inst(
        Opcode::Mov,
        DataType::Signed,
        out_int,
        &[x],
    )));
    p.push(Stmt::Inst(inst(
        Opcode::Mov,
        DataType::Signed,
        out_id,
        &[x],
    )));
    let words = p.assert_valid();
    let input = |loc| {
        decorated(&words, Decoration::Location, loc)
            .into_iter()
            .filter(|&v| variable_class(&words, v) == Some(spirv::StorageClass::Input))
            .count()
    };
    let output = |loc| {
        decorated(&words, Decoration::Location, loc)
            .into_iter()
            .filter(|&v| variable_class(&words, v) == Some(spirv::StorageClass::Output))
            .collect::<Vec<_>>()
    };
    assert_eq!(input(0), 1, "vertex.position aliases vertex.attrib[0]");
    assert_eq!(input(10), 1, "vertex.texcoord[2] is Location 10");
    assert_eq!(input(4), 1, "vertex.color.secondary is Location 4");
    assert_eq!(output(8).len(), 1, "result.texcoord[3] is Location 8");
    assert_eq!(
        output(3).len(),
        1,
        "result.color.back.secondary is Location 3"
    );
    assert_eq!(output(15).len(), 1, "result.attrib[1] is Location 15");
    let int_out = output(16);
    assert_eq!(int_out.len(), 1, "result.attrib[2] is Location 16");
    assert!(
        has_decoration(&words, int_out[0], Decoration::Flat),
        "integer varyings are flat"
    );
    let id_out = output(13);
    assert!(
        id_out.len() == 1 && has_decoration(&words, id_out[0], Decoration::Flat),
        "result.id"
    );
    for b in [BuiltIn::Position, BuiltIn::PointSize, BuiltIn::VertexIndex] {
        assert_eq!(
            decorated(&words, Decoration::BuiltIn, b as u32).len(),
            1,
            "{b:?}"
        );
    }
}

#[test]
fn fragment_interface_follows_the_interface() {
    let mut p = P::new(Stage::Fragment);
    let col = p.attrib(AttribBinding::Color(ColorSel {
        back: false,
        secondary: false,
    }));
    let fog = p.attrib(AttribBinding::FogCoord);
    let tex = p.attrib(AttribBinding::TexCoord(7));
    let gen = p.var(
        VarKind::Attrib(vec![AttribBinding::Generic(15)]),
        VarType::Typed(DataType::Unsigned),
        None,
    );
    let pos = p.attrib(AttribBinding::Position);
    let facing = p.attrib(AttribBinding::Facing);
    let prim = p.attrib(AttribBinding::PrimitiveId);
    let clip = p.attrib(AttribBinding::Clip(2));
    let out0 = p.result(ResultBinding::Color(ColorSel {
        back: false,
        secondary: false,
    }));
    let out3 = p.result(ResultBinding::FragColor(3));
    let depth = p.result(ResultBinding::Depth);
    let x = p.temp();
    for src in [col, fog, tex, gen, pos, facing, prim, clip] {
        p.push(Stmt::Inst(inst(Opcode::Add, DataType::Float, x, &[x, src])));
    }
    for dst in [out0, out3, depth] {
        p.push(Stmt::Inst(inst(Opcode::Mov, DataType::Float, dst, &[x])));
    }
    let words = p.assert_valid();
    let input = |loc| {
        decorated(&words, Decoration::Location, loc)
            .into_iter()
            .filter(|&v| variable_class(&words, v) == Some(spirv::StorageClass::Input))
            .collect::<Vec<_>>()
    };
    assert_eq!(input(0).len(), 1, "fragment.color is Location 0");
    assert_eq!(input(4).len(), 1, "fragment.fogcoord is Location 4");
    assert_eq!(input(12).len(), 1, "fragment.texcoord[7] is Location 12");
    let g = input(29);
    assert!(
        g.len() == 1 && has_decoration(&words, g[0], Decoration::Flat),
        "fragment.attrib[15], flat"
    );
    for b in [
        BuiltIn::FragCoord,
        BuiltIn::FrontFacing,
        BuiltIn::PrimitiveId,
        BuiltIn::ClipDistance,
        BuiltIn::FragDepth,
    ] {
        assert_eq!(
            decorated(&words, Decoration::BuiltIn, b as u32).len(),
            1,
            "{b:?}"
        );
    }
    let outs: Vec<u32> = [0, 3]
        .into_iter()
        .flat_map(|l| decorated(&words, Decoration::Location, l))
        .filter(|&v| variable_class(&words, v) == Some(spirv::StorageClass::Output))
        .collect();
    assert_eq!(outs.len(), 2, "result.color and result.color[3]");
    let m = module(&words);
    let modes: Vec<spirv::ExecutionMode> = m
        .execution_modes
        .iter()
        .filter_map(|i| match i.operands.get(1) {
            Some(SpvOperand::ExecutionMode(e)) => Some(*e),
            _ => None,
        })
        .collect();
    assert!(modes.contains(&spirv::ExecutionMode::OriginUpperLeft));
    assert!(modes.contains(&spirv::ExecutionMode::DepthReplacing));
}

#[test]
fn entry_point_interface_lists_globals_by_version() {
    let mut p = P::new(Stage::Vertex);
    let env = p.params(vec![ParamBinding::Env(0)]);
    let out = p.result(ResultBinding::Position);
    let mut i = inst(Opcode::Mov, DataType::Float, out, &[env]);
    i.cc_update = Some(CcReg(0));
    p.push(Stmt::Inst(i));
    p.assert_valid();
    let count = |env| {
        let words = p.lower(env).unwrap_or_default();
        let m = module(&words);
        m.entry_points
            .first()
            .map(|e| e.operands.len() - 3)
            .unwrap_or(0)
    };
    // 1.0: the Position output only; 1.4+: plus the uniform block and CC0.
    assert_eq!(count(TargetEnv::Vulkan1_0), 1);
    assert_eq!(count(TargetEnv::Vulkan1_2), 3);
    assert_eq!(count(TargetEnv::Vulkan1_3), 3);
}

// ---- flow control --------------------------------------------------------

fn body_inst(dst: VarId, src: VarId) -> Stmt {
    Stmt::Inst(inst(Opcode::Add, DataType::Float, dst, &[dst, src]))
}

fn cond_stmt(kind: u8, cond: Option<CcTest>) -> Stmt {
    let span = Span::default();
    match kind {
        0 => Stmt::Break { cond, span },
        1 => Stmt::Continue { cond, span },
        _ => Stmt::Return { cond, span },
    }
}

/// Nested REP / IF blocks with BRK, CONT and RET, conditional and not, at
/// every depth, followed by more code at each level.
#[test]
fn nested_flow_with_exits_at_every_level_validates() {
    for kind in 0..3u8 {
        for depth in 0..4 {
            for conditional in [false, true] {
                for with_else in [false, true] {
                    let mut p = P::new(Stage::Fragment);
                    let x = p.temp();
                    let one = p.constant([1.0, 1.0, 1.0, 1.0]);
                    let exit = cond_stmt(kind, conditional.then(|| cc_x(CcCondition::Gt)));
                    let mut block = vec![body_inst(x, one), exit, body_inst(x, one)];
                    for level in 0..depth {
                        let inner = std::mem::take(&mut block);
                        let mut set = inst(Opcode::Sub, DataType::Float, x, &[x, one]);
                        set.cc_update = Some(CcReg(0));
                        let iff = Stmt::If {
                            test: cc_x(CcCondition::Ne),
                            then_block: inner,
                            else_block: if with_else {
                                vec![body_inst(x, one)]
                            } else {
                                Vec::new()
                            },
                            span: Span::default(),
                        };
                        block = if level % 2 == 0 {
                            vec![Stmt::Inst(set), iff, body_inst(x, one)]
                        } else {
                            // An inner REP with its own exit.
                            vec![
                                Stmt::Rep {
                                    count: Some(operand(one, DataType::Float)),
                                    count64: false,
                                    body: vec![iff, cond_stmt(0, Some(cc_x(CcCondition::Lt)))],
                                    span: Span::default(),
                                },
                                body_inst(x, one),
                            ]
                        };
                    }
                    let uses_loop = kind < 2;
                    let program_body = if uses_loop {
                        vec![
                            Stmt::Rep {
                                count: None,
                                count64: false,
                                body: block,
                                span: Span::default(),
                            },
                            body_inst(x, one),
                        ]
                    } else {
                        block
                    };
                    for s in program_body {
                        p.push(s);
                    }
                    // Infinite REP needs its BRK: add one at the end.
                    if uses_loop {
                        if let Some(Stmt::Rep { body, .. }) =
                            p.program.subroutines[0].body.first_mut()
                        {
                            body.push(Stmt::Break {
                                cond: None,
                                span: Span::default(),
                            });
                        }
                    }
                    p.assert_valid();
                }
            }
        }
    }
}

#[test]
fn rep_counts_of_every_type_validate() {
    for ty in [DataType::Float, DataType::Signed, DataType::Unsigned] {
        let mut p = P::new(Stage::Vertex);
        let n = p.int_constant([3, 0, 0, 0]);
        let x = p.temp();
        let mut count = operand(n, ty);
        count.swizzle = Swizzle::splat(0);
        p.push(Stmt::Rep {
            count: Some(count),
            count64: false,
            body: vec![
                body_inst(x, n),
                Stmt::Continue {
                    cond: Some(cc_x(CcCondition::Eq)),
                    span: Span::default(),
                },
                Stmt::Rep {
                    count: Some(operand(x, ty)),
                    count64: false,
                    body: vec![
                        body_inst(x, n),
                        Stmt::Return {
                            cond: Some(cc_x(CcCondition::Nan)),
                            span: Span::default(),
                        },
                    ],
                    span: Span::default(),
                },
            ],
            span: Span::default(),
        });
        let words = p.assert_valid();
        assert!(has_op(&words, Op::LoopMerge));
    }
}

#[test]
fn subroutines_become_functions_with_private_registers() {
    let mut p = P::new(Stage::Fragment);
    let x = p.temp();
    let arr = p.temp_array(3);
    let one = p.constant([1.0, 2.0, 3.0, 4.0]);
    let leaf = p.sub(
        "leaf",
        vec![
            body_inst(x, one),
            Stmt::Rep {
                count: None,
                count64: false,
                body: vec![Stmt::If {
                    test: cc_x(CcCondition::Gt),
                    then_block: vec![Stmt::Return {
                        cond: None,
                        span: Span::default(),
                    }],
                    else_block: vec![Stmt::Break {
                        cond: None,
                        span: Span::default(),
                    }],
                    span: Span::default(),
                }],
                span: Span::default(),
            },
            Stmt::Kill {
                cond: KillCondition::Cc(cc_x(CcCondition::Lt)),
                span: Span::default(),
            },
        ],
    );
    let middle = p.sub(
        "middle",
        vec![
            Stmt::Call {
                target: leaf,
                cond: Some(cc_x(CcCondition::Ne)),
                span: Span::default(),
            },
            Stmt::Inst(inst(Opcode::Mov, DataType::Float, arr, &[x])),
            Stmt::Call {
                target: leaf,
                cond: None,
                span: Span::default(),
            },
        ],
    );
    // Never called: not lowered.
    p.sub(
        "unused",
        vec![Stmt::Emit {
            span: Span::default(),
        }],
    );
    p.push(Stmt::Call {
        target: middle,
        cond: None,
        span: Span::default(),
    });
    p.push(Stmt::Call {
        target: leaf,
        cond: None,
        span: Span::default(),
    });
    p.push(Stmt::Return {
        cond: None,
        span: Span::default(),
    });
    p.push(body_inst(x, one));
    let words = p.assert_valid();
    let m = module(&words);
    assert_eq!(m.functions.len(), 3, "main, middle and leaf");
    let privates = m
        .types_global_values
        .iter()
        .filter(|i| i.class.opcode == Op::Variable)
        .filter(|i| {
            matches!(
                i.operands.first(),
                Some(SpvOperand::StorageClass(spirv::StorageClass::Private))
            )
        })
        .count();
    assert!(privates >= 3, "x, arr and CC0 are Private");
}

#[test]
fn mutual_recursion_lowers_to_a_dispatch_loop() {
    let mut p = P::new(Stage::Vertex);
    let x = p.temp();
    let one = p.constant([1.0; 4]);
    let a = p.sub("a", Vec::new());
    let b = p.sub(
        "b",
        vec![
            body_inst(x, one),
            Stmt::Call {
                target: a,
                cond: Some(cc_x(CcCondition::Gt)),
                span: Span::new(5, 9),
            },
        ],
    );
    p.program.subroutines[a.0 as usize].body.push(Stmt::Call {
        target: b,
        cond: None,
        span: Span::new(1, 2),
    });
    p.push(Stmt::Call {
        target: a,
        cond: None,
        span: Span::default(),
    });
    let words = p.assert_valid();
    // main plus one function for the cycle {a, b}; no recursion in SPIR-V.
    assert_eq!(module(&words).functions.len(), 2);
    assert!(has_op(&words, Op::Switch) && has_op(&words, Op::LoopMerge));
}
#[test]
fn kill_uses_opkill_before_spirv_1_6_and_demote_after() {
    for (kind, ty) in [
        (0, DataType::Float),
        (0, DataType::Signed),
        (1, DataType::Float),
    ] {
        let mut p = P::new(Stage::Fragment);
        let x = p.temp();
        let out = p.result(ResultBinding::FragColor(0));
        let cond = if kind == 0 {
            KillCondition::Operand(operand(x, ty))
        } else {
            KillCondition::Cc(cc(CcCondition::Lt, 1))
        };
        p.push(Stmt::Rep {
            count: None,
            count64: false,
            body: vec![
                Stmt::Kill {
                    cond: cond.clone(),
                    span: Span::default(),
                },
                Stmt::Break {
                    cond: None,
                    span: Span::default(),
                },
            ],
            span: Span::default(),
        });
        p.push(Stmt::Kill {
            cond,
            span: Span::default(),
        });
        p.push(Stmt::Inst(inst(Opcode::Mov, DataType::Float, out, &[x])));
        p.assert_valid();
        let old = p.lower(TargetEnv::Vulkan1_2).unwrap_or_default();
        let new = p.lower(TargetEnv::Vulkan1_3).unwrap_or_default();
        assert!(has_op(&old, Op::Kill) && !has_op(&old, Op::DemoteToHelperInvocation));
        assert!(has_op(&new, Op::DemoteToHelperInvocation) && !has_op(&new, Op::Kill));
    }
    // KIL.U never kills.
    let mut p = P::new(Stage::Fragment);
    let x = p.temp();
    p.push(Stmt::Kill {
        cond: KillCondition::Operand(operand(x, DataType::Unsigned)),
        span: Span::default(),
    });
    let words = p.assert_valid();
    assert!(!has_op(&words, Op::Kill));
}

// ---- what is not lowered yet -------------------------------------------

#[test]
fn unsupported_features_are_reported_not_panicked() {
    // A geometry program always has its declarations (the checker rejects
    // one without); an IR without them is an internal error, not a panic.
    let p = P::new(Stage::Geometry);
    assert!(matches!(
        p.lower(TargetEnv::Vulkan1_0),
        Err(LowerError::Internal { .. })
    ));

    // A state index past the State block's documented bounds.
    let mut p = P::new(Stage::Vertex);
    let state = p.params(vec![ParamBinding::State(state_item("light.8.ambient"))]);
    let x = p.temp();
    p.push(Stmt::Inst(inst(Opcode::Mov, DataType::Float, x, &[state])));
    assert!(matches!(
        p.lower(TargetEnv::Vulkan1_0),
        Err(LowerError::Unsupported { .. })
    ));

    let mut p = P::new(Stage::Fragment);
    let x = p.temp();
    let mut tex = inst(Opcode::Tex, DataType::Float, x, &[x]);
    tex.tex = Some(Box::new(TexAccess::fixed(0, TexTarget::T2D)));
    p.push(Stmt::Inst(tex));
    // Textures are lowered now (texture.rs has their tests).
    p.assert_valid();

    let mut p = P::new(Stage::Vertex);
    let buf = p.var(
        VarKind::Buffer(BufferBinding {
            buffer: 16,
            first: 0,
            vec4: true,
        }),
        VarType::Typeless,
        Some(4),
    );
    let x = p.temp();
    let mut i = inst(Opcode::Mov, DataType::Float, x, &[buf]);
    i.srcs[0].index = Index::Absolute(2);
    p.push(Stmt::Inst(i));
    // program.buffer[16]: bindings 3 + b stop at b = 15.
    match p.lower(TargetEnv::Vulkan1_0) {
        Err(LowerError::Unsupported { what, .. }) => {
            assert!(what.contains("program.buffer[16]"), "{what}")
        }
        other => panic!("expected Unsupported, got {other:?}"),
    }
}

#[test]
fn validate_rejects_a_broken_module_and_disassembles_a_good_one() {
    assert!(validate(&[0x0723_0203, 0x0001_0000, 0, 1, 0], TargetEnv::Vulkan1_0).is_err());
    let mut p = P::new(Stage::Vertex);
    let x = p.temp();
    p.push(body_inst(x, x));
    let words = p.assert_valid();
    let text = disassemble(&words).unwrap_or_default();
    assert!(text.contains("OpEntryPoint Vertex"), "{text}");
    // Truncating a valid module breaks it.
    assert!(validate(&words[..words.len() - 3], TargetEnv::Vulkan1_0).is_err());
}

#[test]
fn a_rejected_module_is_reported_with_the_validators_message_and_names() {
    // The first run has no friendly names; the message comes from the
    // second, which has them: the entry point's function is named here by
    // the OpName the module gives it.
    let mut p = P::new(Stage::Vertex);
    let x = p.temp();
    p.push(body_inst(x, x));
    let words = p.assert_valid();
    let mut module = rspirv::dr::load_words(&words).expect("the module loads");
    // A second OpEntryPoint of the same name and model is invalid
    // (SPIR-V 2.16.1: "the same <name> ... can not be used by more than
    // one OpEntryPoint instruction" of one execution model).
    let twice = module.entry_points[0].clone();
    module.entry_points.push(twice);
    let broken = rspirv::binary::Assemble::assemble(&module);
    let message =
        validate(&broken, TargetEnv::Vulkan1_3).expect_err("two entry points of one name");
    assert!(!message.is_empty());
    assert!(
        message.contains("Entry") || message.contains("entry"),
        "{message}"
    );
}

// ---- values, by constant folding ----------------------------------------
//
// A vertex program whose operands are all literals folds, under spirv-opt's
// performance passes, into constant stores to its outputs: the stored
// constants are the program's results as the SPIR-V defines them. This
// checks exact semantics (integer arithmetic, flags, masks, addressing)
// without a device. Float transcendental functions may not fold; tests
// use operations spirv-opt evaluates exactly.

/// The bits stored to each `result.attrib[n]` (by n).
fn folded_outputs(p: &P) -> std::collections::BTreeMap<u32, [u32; 4]> {
    use spirv_tools::opt::Optimizer;
    let words = p.assert_valid();
    let words = p.lower(TargetEnv::Vulkan1_0).unwrap_or(words);
    let mut opt = spirv_tools::opt::create(Some(spirv_tools::TargetEnv::Vulkan_1_0));
    opt.register_performance_passes();
    let folded = match opt.optimize(&words, &mut |_m: spirv_tools::error::Message| {}, None) {
        Ok(b) => b.as_words().to_vec(),
        Err(e) => panic!("spirv-opt failed: {e}"),
    };
    let m = module(&folded);
    let mut scalars = std::collections::HashMap::new();
    let mut composites = std::collections::HashMap::new();
    for i in &m.types_global_values {
        let Some(id) = i.result_id else { continue };
        match i.class.opcode {
            Op::Constant => {
                if let Some(SpvOperand::LiteralBit32(v)) = i.operands.first() {
                    scalars.insert(id, *v);
                }
            }
            Op::ConstantNull => {
                scalars.insert(id, 0);
                composites.insert(id, vec![]);
            }
            Op::ConstantComposite => {
                let parts: Vec<u32> = i
                    .operands
                    .iter()
                    .filter_map(|o| {
                        if let SpvOperand::IdRef(r) = o {
                            Some(*r)
                        } else {
                            None
                        }
                    })
                    .collect();
                composites.insert(id, parts);
            }
            _ => {}
        }
    }
    let locations: std::collections::HashMap<u32, u32> = decorations(&folded)
        .into_iter()
        .filter(|&(_, d, _)| d == Decoration::Location)
        .filter_map(|(t, _, v)| v.map(|v| (t, v)))
        .collect();
    let mut out = std::collections::BTreeMap::new();
    for inst in m
        .functions
        .iter()
        .flat_map(|f| f.blocks.iter())
        .flat_map(|b| b.instructions.iter())
    {
        if inst.class.opcode != Op::Store {
            continue;
        }
        let (Some(SpvOperand::IdRef(ptr)), Some(SpvOperand::IdRef(value))) =
            (inst.operands.first(), inst.operands.get(1))
        else {
            continue;
        };
        let Some(&loc) = locations.get(ptr) else {
            continue;
        };
        let bits = match composites.get(value) {
            Some(parts) if parts.is_empty() => [0; 4],
            Some(parts) => {
                let mut b = [0u32; 4];
                for (k, p) in parts.iter().enumerate().take(4) {
                    b[k] = *scalars
                        .get(p)
                        .unwrap_or_else(|| panic!("component {k} is not a constant"));
                }
                b
            }
            None => panic!(
                "the store to Location {loc} did not fold:\n{}",
                disassemble(&folded).unwrap_or_default()
            ),
        };
        out.insert(loc - 14, bits);
    }
    out
}

/// A vertex program computing into registers `outs`, copied whole to
/// `result.attrib[0..]` at the end (spirv-opt does not forward partial
/// stores through Output variables).
struct Fold {
    p: P,
    outs: Vec<VarId>,
}

impl Fold {
    fn new(n: u32) -> Fold {
        let mut p = P::new(Stage::Vertex);
        let outs = (0..n).map(|_| p.temp()).collect();
        Fold { p, outs }
    }
    fn ints(&mut self, v: [i64; 4]) -> VarId {
        self.p.int_constant(v)
    }
    fn run(mut self) -> Vec<[u32; 4]> {
        for (k, &reg) in self.outs.clone().iter().enumerate() {
            let out = self.p.result(ResultBinding::Generic(k as u32));
            self.p.push(Stmt::Inst(inst(
                Opcode::Mov,
                DataType::Unsigned,
                out,
                &[reg],
            )));
        }
        let m = folded_outputs(&self.p);
        (0..self.outs.len() as u32)
            .map(|k| {
                *m.get(&k)
                    .unwrap_or_else(|| panic!("result.attrib[{k}] was not written"))
            })
            .collect()
    }
}

fn neg(x: i32) -> u32 {
    x as u32
}

#[test]
fn integer_arithmetic_and_set_on_values() {
    // (MUL.HI is left out: spirv-opt does not fold OpUMulExtended.)
    let mut f = Fold::new(6);
    let a = f.ints([7, -7, i32::MAX as i64, 0]);
    let b = f.ints([2, 2, 1, -3]);
    let (o0, o1, o2, o3, o4, o5) = (
        f.outs[0], f.outs[1], f.outs[2], f.outs[3], f.outs[4], f.outs[5],
    );
    f.p.push(Stmt::Inst(inst(Opcode::Add, DataType::Signed, o0, &[a, b])));
    f.p.push(Stmt::Inst(inst(Opcode::Div, DataType::Signed, o1, &[a, b])));
    f.p.push(Stmt::Inst(inst(Opcode::Slt, DataType::Signed, o2, &[a, b])));
    f.p.push(Stmt::Inst(inst(Opcode::Shr, DataType::Signed, o3, &[a, b])));
    f.p.push(Stmt::Inst(inst(Opcode::Sge, DataType::Float, o4, &[a, b])));
    f.p.push(Stmt::Inst(inst(
        Opcode::Mod,
        DataType::Unsigned,
        o5,
        &[a, b],
    )));
    let r = f.run();
    assert_eq!(r[0], [9, neg(-5), 0x8000_0000, neg(-3)]);
    // DIV.S divides by the scalar operand (here b.y = 2).
    assert_eq!(r[1], [3, neg(-3), (i32::MAX / 2) as u32, 0]);
    // SLT.S: TRUE is -1.
    assert_eq!(r[2], [0, u32::MAX, 0, 0]);
    // SHR.S by b.y = 2 is arithmetic.
    assert_eq!(r[3], [1, neg(-2), (i32::MAX >> 2) as u32, 0]);
    // SGE (float): 1.0 / 0.0.
    let one = 1.0f32.to_bits();
    assert_eq!(r[4], [one, 0, one, one]);
    // MOD.U by b.y = 2.
    assert_eq!(r[5], [1, neg(-7) % 2, 1, 0]);
}

#[test]
fn condition_codes_from_integer_adds_and_subtracts() {
    // SF = 1, ZF = 2, OF = 4, CF = 8 per component; read back with
    // condition-masked writes of distinct values.
    let mut f = Fold::new(4);
    let a = f.ints([1, i32::MAX as i64, -1, 5]);
    let b = f.ints([1, 1, 1, 5]);
    let ones = f.ints([1, 1, 1, 1]);
    let zero = f.ints([0, 0, 0, 0]);
    let scratch = f.p.typed_temp(DataType::Signed);
    // ADD.S.CC: [2, INT_MIN (overflow), 0 (carry), 10]
    let mut add = inst(Opcode::Add, DataType::Signed, scratch, &[a, b]);
    add.cc_update = Some(CcReg(0));
    f.p.push(Stmt::Inst(add));
    for (k, condition) in [
        CcCondition::Of,
        CcCondition::Cf,
        CcCondition::Sf,
        CcCondition::Eq,
    ]
    .into_iter()
    .enumerate()
    {
        let out = f.outs[k];
        f.p.push(Stmt::Inst(inst(
            Opcode::Mov,
            DataType::Signed,
            out,
            &[zero],
        )));
        let mut m = inst(Opcode::Mov, DataType::Signed, out, &[ones]);
        m.dst.cc_mask = Some(cc(condition, 0));
        f.p.push(Stmt::Inst(m));
    }
    let r = f.run();
    assert_eq!(r[0], [0, 1, 0, 0], "OF: only INT_MAX + 1 overflows");
    assert_eq!(r[1], [0, 0, 1, 0], "CF: only -1 + 1 carries");
    assert_eq!(r[2], [0, 1, 0, 0], "SF: the MSB of the result");
    assert_eq!(r[3], [0, 0, 1, 0], "EQ: -1 + 1 == 0");

    // SUB.U.CC: carry set when no borrow (a >= b); ADD with a negated
    // operand is a subtract for the flags (section 2.X.4.3).
    let mut f = Fold::new(2);
    let a = f.ints([3, 1, 0, 7]);
    let b = f.ints([1, 3, 0, 7]);
    let ones = f.ints([1, 1, 1, 1]);
    let zero = f.ints([0, 0, 0, 0]);
    let scratch = f.p.typed_temp(DataType::Unsigned);
    let mut sub = inst(Opcode::Sub, DataType::Unsigned, scratch, &[a, b]);
    sub.cc_update = Some(CcReg(1));
    f.p.push(Stmt::Inst(sub));
    let mut add = inst(Opcode::Add, DataType::Unsigned, scratch, &[a, b]);
    add.srcs[1].negate = true;
    add.cc_update = Some(CcReg(0));
    f.p.push(Stmt::Inst(add));
    for (k, reg) in [1u8, 0].into_iter().enumerate() {
        let out = f.outs[k];
        f.p.push(Stmt::Inst(inst(
            Opcode::Mov,
            DataType::Unsigned,
            out,
            &[zero],
        )));
        let mut m = inst(Opcode::Mov, DataType::Unsigned, out, &[ones]);
        m.dst.cc_mask = Some(cc(CcCondition::Cf, reg));
        f.p.push(Stmt::Inst(m));
    }
    let r = f.run();
    assert_eq!(r[0], [1, 0, 1, 1], "SUB carry: a >= b");
    assert_eq!(r[1], [1, 0, 1, 1], "ADD a, -b: the same flags as SUB");
}

#[test]
fn condition_code_updates_respect_both_masks() {
    let mut f = Fold::new(1);
    let minus = f.ints([-1, -1, -1, -1]);
    let plus = f.ints([1, 1, 1, 1]);
    let ones = f.ints([1, 1, 1, 1]);
    let zero = f.ints([0, 0, 0, 0]);
    let scratch = f.p.typed_temp(DataType::Signed);
    // All components positive, then negative on x and z only.
    let mut set = inst(Opcode::Mov, DataType::Signed, scratch, &[plus]);
    set.cc_update = Some(CcReg(0));
    f.p.push(Stmt::Inst(set));
    let mut set = inst(Opcode::Mov, DataType::Signed, scratch, &[minus]);
    set.cc_update = Some(CcReg(0));
    set.dst.mask = WriteMask(0b0111);
    set.dst.cc_mask = Some(CcTest {
        condition: CcCondition::Gt,
        reg: CcReg(0),
        swizzle: Swizzle([0, 3, 0, 0]),
    });
    // Enabled: write mask xyz AND test.(x, w, x, x) on GT: x y z.
    f.p.push(Stmt::Inst(set));
    let out = f.outs[0];
    f.p.push(Stmt::Inst(inst(
        Opcode::Mov,
        DataType::Signed,
        out,
        &[zero],
    )));
    let mut m = inst(Opcode::Mov, DataType::Signed, out, &[ones]);
    m.dst.cc_mask = Some(cc(CcCondition::Lt, 0));
    f.p.push(Stmt::Inst(m));
    assert_eq!(f.run()[0], [1, 1, 1, 0]);
}

#[test]
fn relative_addressing_clamps_into_the_array() {
    let mut f = Fold::new(3);
    let table = f.p.params(
        (0..4)
            .map(|k| {
                ParamBinding::Constant([
                    Literal::Int {
                        negative: false,
                        magnitude: 10 + k,
                    },
                    Literal::ZERO,
                    Literal::ZERO,
                    Literal::ZERO,
                ])
            })
            .collect(),
    );
    let addr = f.ints([2, -5, 9, 1]);
    for (k, (comp, offset)) in [(0u8, 1), (1, 0), (2, 0)].into_iter().enumerate() {
        let out = f.outs[k];
        let mut i = inst(Opcode::Mov, DataType::Signed, out, &[table]);
        let mut a = operand(addr, DataType::Signed);
        a.swizzle = Swizzle::splat(comp);
        i.srcs[0].index = Index::Relative {
            address: Box::new(a),
            offset,
        };
        f.p.push(Stmt::Inst(i));
    }
    let r = f.run();
    assert_eq!(r[0][0], 13, "2 + 1");
    assert_eq!(r[1][0], 10, "-5 clamps to 0");
    assert_eq!(r[2][0], 13, "9 clamps to 3");
}

#[test]
fn swizzles_negation_and_write_masks_in_order() {
    let mut f = Fold::new(2);
    let a = f.ints([1, -2, 3, -4]);
    let (o0, o1) = (f.outs[0], f.outs[1]);
    let mut i = inst(Opcode::Mov, DataType::Signed, o0, &[a]);
    i.srcs[0].swizzle = Swizzle([3, 1, 1, 0]);
    i.srcs[0].negate = true;
    f.p.push(Stmt::Inst(i));
    // A negated float operand on x and w only. (Absolute values are not
    // checked here: spirv-opt folds neither SAbs nor FAbs.)
    let mut i = inst(Opcode::Mov, DataType::Float, o1, &[a]);
    i.srcs[0].negate = true;
    i.dst.mask = WriteMask(0b1001);
    f.p.push(Stmt::Inst(inst(Opcode::Mov, DataType::Float, o1, &[a])));
    f.p.push(Stmt::Inst(i));
    let r = f.run();
    assert_eq!(r[0], [4, 2, 2, neg(-1)]);
    let fb = |x: f32| x.to_bits();
    assert_eq!(r[1], [fb(-1.0), fb(-2.0), fb(3.0), fb(4.0)]);
}

#[test]
fn if_else_calls_and_returns_take_the_right_paths() {
    let mut f = Fold::new(3);
    let flags = f.ints([1, -1, 0, 0]);
    let k = [10, 20, 30, 40, 50, 60].map(|v| f.ints([v, v, v, v]));
    let (o0, o1, o2) = (f.outs[0], f.outs[1], f.outs[2]);
    let scratch = f.p.typed_temp(DataType::Signed);
    let mut set = inst(Opcode::Mov, DataType::Signed, scratch, &[flags]);
    set.cc_update = Some(CcReg(0));
    f.p.push(Stmt::Inst(set));
    let mov = |dst, src| Stmt::Inst(inst(Opcode::Mov, DataType::Signed, dst, &[src]));
    let test = |condition, c: u8| CcTest {
        condition,
        reg: CcReg(0),
        swizzle: Swizzle::splat(c),
    };
    f.p.push(Stmt::If {
        test: test(CcCondition::Gt, 0),
        then_block: vec![mov(o0, k[0])],
        else_block: vec![mov(o0, k[1])],
        span: Span::default(),
    });
    f.p.push(Stmt::If {
        test: test(CcCondition::Gt, 1),
        then_block: vec![mov(o1, k[2])],
        else_block: vec![mov(o1, k[3])],
        span: Span::default(),
    });
    let sub = f.p.sub(
        "sub",
        vec![
            mov(o2, k[4]),
            Stmt::Return {
                cond: Some(test(CcCondition::Eq, 2)),
                span: Span::default(),
            },
            mov(o2, k[5]),
        ],
    );
    f.p.push(Stmt::Call {
        target: sub,
        cond: Some(test(CcCondition::Lt, 1)),
        span: Span::default(),
    });
    let r = f.run();
    assert_eq!(r[0][0], 10, "GT.x holds for 1");
    assert_eq!(r[1][0], 40, "GT.y fails for -1");
    assert_eq!(
        r[2][0], 50,
        "the call happens (LT.y) and RET (EQ.z) leaves the subroutine"
    );
}

// ---- GL state, parameter buffers, recursion -----------------------------

fn state_item(dotted: &str) -> StateItem {
    StateItem {
        path: dotted.split('.').map(String::from).collect(),
    }
}

/// Every kind of state binding, at the highest index docs/interface.md
/// allows, in the canonical paths of check::bindings.
fn all_state_items() -> Vec<StateItem> {
    let mut v = Vec::new();
    for m in [
        "modelview.7",
        "projection",
        "mvp",
        "texture.7",
        "program.7",
        "modelview.0",
    ] {
        for modifier in ["", "inverse.", "transpose.", "invtrans."] {
            v.push(state_item(&format!("matrix.{m}.{modifier}row.3")));
        }
    }
    for f in ["front", "back"] {
        for w in ["ambient", "diffuse", "specular", "emission", "shininess"] {
            v.push(state_item(&format!("material.{f}.{w}")));
        }
        v.push(state_item(&format!("lightmodel.{f}.scenecolor")));
        for w in ["ambient", "diffuse", "specular"] {
            v.push(state_item(&format!("lightprod.7.{f}.{w}")));
        }
    }
    v.push(state_item("lightmodel.ambient"));
    for w in [
        "ambient",
        "diffuse",
        "specular",
        "position",
        "attenuation",
        "spot.direction",
        "half",
    ] {
        v.push(state_item(&format!("light.7.{w}")));
    }
    for k in ["eye", "object"] {
        for c in ["s", "t", "r", "q"] {
            v.push(state_item(&format!("texgen.7.{k}.{c}")));
        }
    }
    for p in [
        "texenv.7.color",
        "fog.color",
        "fog.params",
        "clip.5.plane",
        "point.size",
        "point.attenuation",
        "depth.range",
    ] {
        v.push(state_item(p));
    }
    v
}

#[test]
fn every_state_binding_validates_in_the_state_block() {
    for stage in [Stage::Vertex, Stage::Fragment] {
        let items = all_state_items();
        let mut p = P::new(stage);
        let arr = p.params(items.iter().cloned().map(ParamBinding::State).collect());
        let single = p.params(vec![ParamBinding::State(state_item("depth.range"))]);
        let index = p.typed_temp(DataType::Signed);
        let x = p.temp();
        for (e, ty) in [(0u32, DataType::Float), (40, DataType::Signed)] {
            let mut i = inst(Opcode::Mov, ty, x, &[arr]);
            i.srcs[0].index = Index::Absolute(e);
            p.push(Stmt::Inst(i));
        }
        // Relative addressing over the whole mixed array.
        let mut i = inst(Opcode::Add, DataType::Float, x, &[arr, single]);
        i.srcs[0].index = Index::Relative {
            address: Box::new(Operand {
                swizzle: Swizzle::splat(0),
                ..operand(index, DataType::Signed)
            }),
            offset: 3,
        };
        p.push(Stmt::Inst(i));
        let words = p.assert_valid();
        let block = decorated(&words, Decoration::Binding, 2);
        assert_eq!(block.len(), 1, "one State block at binding 2");
        assert_eq!(
            variable_class(&words, block[0]),
            Some(spirv::StorageClass::Uniform)
        );
        let set = if stage == Stage::Vertex { 0 } else { 2 };
        assert!(decorated(&words, Decoration::DescriptorSet, set).contains(&block[0]));
        // The array covers every row up to depth.range (row 407).
        let text = disassemble(&words).unwrap_or_default();
        assert!(text.contains("OpTypeArray %v4float %uint_408"), "{text}");
        assert!(text.contains("ArrayStride 16"), "{text}");
    }
}

#[test]
fn a_whole_matrix_indexes_the_state_block_directly() {
    let mut p = P::new(Stage::Vertex);
    let rows = (0..4)
        .map(|r| ParamBinding::State(state_item(&format!("matrix.mvp.row.{r}"))))
        .collect();
    let m = p.params(rows);
    let a = p.typed_temp(DataType::Signed);
    let x = p.temp();
    let mut i = inst(Opcode::Mov, DataType::Float, x, &[m]);
    i.srcs[0].index = Index::Relative {
        address: Box::new(Operand {
            swizzle: Swizzle::splat(0),
            ..operand(a, DataType::Signed)
        }),
        offset: 1,
    };
    p.push(Stmt::Inst(i));
    let words = p.assert_valid();
    // Rows 72..75: the block is declared up to row 75 and read with a
    // dynamic index (no chain of selects).
    let text = disassemble(&words).unwrap_or_default();
    assert!(text.contains("OpTypeArray %v4float %uint_76"), "{text}");
    assert!(!has_op(&words, Op::Select), "{text}");
}

#[test]
fn state_indices_past_the_documented_bounds_are_unsupported() {
    for path in [
        "matrix.modelview.8.row.0",
        "matrix.texture.8.inverse.row.1",
        "matrix.program.8.row.0",
        "light.8.half",
        "lightprod.8.front.ambient",
        "texgen.8.eye.s",
        "texenv.8.color",
        "clip.6.plane",
    ] {
        let mut p = P::new(Stage::Fragment);
        let s = p.params(vec![ParamBinding::State(state_item(path))]);
        let x = p.temp();
        p.push(Stmt::Inst(inst(Opcode::Mov, DataType::Float, x, &[s])));
        match p.lower(TargetEnv::Vulkan1_0) {
            Err(LowerError::Unsupported { what, .. }) => {
                assert!(what.contains("docs/interface.md"), "{path}: {what}")
            }
            other => panic!("{path}: expected Unsupported, got {other:?}"),
        }
    }
}

fn buffer_var(p: &mut P, buffer: u32, first: u32, vec4: bool, len: Option<u32>) -> VarId {
    p.var(
        VarKind::Buffer(BufferBinding {
            buffer,
            first,
            vec4,
        }),
        VarType::Typeless,
        len,
    )
}

#[test]
fn parameter_buffers_validate_with_absolute_and_relative_addressing() {
    for stage in [Stage::Vertex, Stage::Fragment] {
        let mut p = P::new(stage);
        let scalars = buffer_var(&mut p, 0, 5, false, Some(8));
        let vectors = buffer_var(&mut p, 15, 2, true, Some(16));
        let single = buffer_var(&mut p, 7, 9, false, None);
        let element = p.params(vec![
            ParamBinding::BufferElement {
                buffer: 3,
                element: 6,
            },
            ParamBinding::Local(2),
        ]);
        let a = p.typed_temp(DataType::Signed);
        let x = p.temp();
        let rel = |var: VarId, ty: DataType, offset: i32| Operand {
            index: Index::Relative {
                address: Box::new(Operand {
                    swizzle: Swizzle::splat(1),
                    ..operand(a, DataType::Signed)
                }),
                offset,
            },
            ..operand(var, ty)
        };
        for ty in [DataType::Float, DataType::Signed, DataType::Unsigned] {
            let mut i = inst(Opcode::Add, ty, x, &[scalars, vectors]);
            i.srcs[0] = rel(scalars, ty, 2);
            i.srcs[1] = rel(vectors, ty, 0);
            p.push(Stmt::Inst(i));
            let mut i = inst(Opcode::Add, ty, x, &[scalars, single]);
            i.srcs[0].index = Index::Absolute(7);
            p.push(Stmt::Inst(i));
            let mut i = inst(Opcode::Mov, ty, x, &[element]);
            i.srcs[0] = rel(element, ty, 0);
            p.push(Stmt::Inst(i));
        }
        let words = p.assert_valid();
        let text = disassemble(&words).unwrap_or_default();
        // binding 3 + b; sizes: words 5..12 -> 4 uvec4; vec4s 2..17 -> 18;
        // word 9 -> 3; vec4 6 -> 7.
        for (b, len) in [(0u32, 4u32), (15, 18), (7, 3), (3, 7)] {
            let var = decorated(&words, Decoration::Binding, 3 + b);
            assert_eq!(var.len(), 1, "program.buffer[{b}]");
            assert!(
                text.contains(&format!("%program_buffer{b} = OpVariable")),
                "{text}"
            );
            assert!(
                text.contains(&format!("OpTypeArray %v4uint %uint_{len}")),
                "buffer {b}: {len} uvec4\n{text}"
            );
        }
    }
}

/// A body with a counted REP holding an IF with BRK, CONT and RET, a
/// call `call` inside the loop, and conditional forms of each.
fn nested_body(x: VarId, one: VarId, count: VarId, call: Stmt) -> Block {
    let span = Span::default();
    vec![
        body_inst(x, one),
        Stmt::Rep {
            count: Some(Operand {
                swizzle: Swizzle::splat(0),
                ..operand(count, DataType::Signed)
            }),
            count64: false,
            body: vec![
                call,
                Stmt::If {
                    test: cc_x(CcCondition::Gt),
                    then_block: vec![
                        Stmt::Rep {
                            count: None,
                            count64: false,
                            body: vec![
                                body_inst(x, one),
                                cond_stmt(0, Some(cc_x(CcCondition::Lt))),
                                cond_stmt(1, Some(cc_x(CcCondition::Eq))),
                                cond_stmt(2, Some(cc_x(CcCondition::Ne))),
                                Stmt::If {
                                    test: cc(CcCondition::Le, 1),
                                    then_block: vec![cond_stmt(2, None)],
                                    else_block: vec![cond_stmt(0, None)],
                                    span,
                                },
                            ],
                            span,
                        },
                        cond_stmt(1, Some(cc_x(CcCondition::Ge))),
                    ],
                    else_block: vec![cond_stmt(0, None)],
                    span,
                },
                body_inst(x, one),
            ],
            span,
        },
        cond_stmt(2, Some(cc_x(CcCondition::Tr))),
        body_inst(x, one),
    ]
}

#[test]
fn recursion_through_nested_flow_validates() {
    for stage in [Stage::Vertex, Stage::Fragment] {
        let mut p = P::new(stage);
        let x = p.temp();
        let one = p.constant([1.0; 4]);
        let count = p.int_constant([3, 0, 0, 0]);
        let span = Span::default();
        // leaf: acyclic, called from inside the cycle.
        let leaf = p.sub("leaf", vec![body_inst(x, one)]);
        // a calls itself from inside a REP (its loop count is saved), and
        // b; b calls a conditionally; main calls a and is not in the cycle.
        let a = p.sub("a", Vec::new());
        let b = p.sub("b", Vec::new());
        let call = |target, cond| Stmt::Call { target, cond, span };
        p.program.subroutines[a.0 as usize].body =
            nested_body(x, one, count, call(a, Some(cc_x(CcCondition::Gt))));
        p.program.subroutines[a.0 as usize]
            .body
            .push(call(leaf, None));
        p.program.subroutines[a.0 as usize].body.push(call(b, None));
        p.program.subroutines[b.0 as usize].body =
            nested_body(x, one, count, call(a, Some(cc_x(CcCondition::Lt))));
        p.push(call(a, None));
        p.push(call(leaf, Some(cc_x(CcCondition::Ne))));
        let words = p.assert_valid();
        // main, leaf, and the dispatch function of {a, b}.
        assert_eq!(module(&words).functions.len(), 3);
    }
}

#[test]
fn a_recursive_entry_gets_a_main_wrapper() {
    let mut p = P::new(Stage::Fragment);
    let x = p.temp();
    let one = p.constant([1.0; 4]);
    let count = p.int_constant([2, 0, 0, 0]);
    let entry = p.program.entry;
    let body = nested_body(
        x,
        one,
        count,
        Stmt::Call {
            target: entry,
            cond: Some(cc_x(CcCondition::Gt)),
            span: Span::default(),
        },
    );
    p.program.subroutines[0].body = body;
    p.push(Stmt::Kill {
        cond: KillCondition::Cc(cc_x(CcCondition::Lt)),
        span: Span::default(),
    });
    let words = p.assert_valid();
    let m = module(&words);
    assert_eq!(m.functions.len(), 2, "main and the cycle");
}

#[test]
fn deep_acyclic_call_chains_count_the_depth() {
    // A chain of 3 calls: with MAX_PROGRAM_CALL_DEPTH 2 the CALs check a
    // run-time depth; with the default (32) they are plain calls.
    let mut p = P::new(Stage::Vertex);
    let x = p.temp();
    let one = p.constant([1.0; 4]);
    let span = Span::default();
    let c = p.sub("c", vec![body_inst(x, one)]);
    let b = p.sub(
        "b",
        vec![Stmt::Call {
            target: c,
            cond: None,
            span,
        }],
    );
    let a = p.sub(
        "a",
        vec![Stmt::Call {
            target: b,
            cond: None,
            span,
        }],
    );
    p.push(Stmt::Call {
        target: a,
        cond: None,
        span,
    });
    let plain = p.assert_valid();
    assert!(!disassemble(&plain)
        .unwrap_or_default()
        .contains("call_depth"));
    for env in ENVS {
        let mut o = options(env);
        o.limits.max_call_depth = 2;
        let words = lower(&p.program, &o).unwrap_or_default();
        assert!(validate(&words, env).is_ok());
        let text = disassemble(&words).unwrap_or_default();
        assert!(text.contains("call_depth"), "{text}");
    }
}

// ---- unobservable code (live.rs) -----------------------------------------

#[test]
fn unobservable_instructions_and_flags_are_left_out() {
    // A temporary nothing reads and a condition code nothing tests.
    let mut p = P::new(Stage::Vertex);
    p.prune = true;
    let a = p.temp();
    let r = p.result(ResultBinding::Position);
    let mut add = inst(Opcode::Add, DataType::Float, a, &[a, a]);
    add.cc_update = Some(CcReg(0));
    p.push(Stmt::Inst(add));
    // An IF with only such code inside goes too.
    p.push(Stmt::If {
        test: cc(CcCondition::Gt, 1),
        then_block: vec![Stmt::Inst(inst(Opcode::Mul, DataType::Float, a, &[a, a]))],
        else_block: Vec::new(),
        span: Span::default(),
    });
    p.push(Stmt::Inst(inst(Opcode::Mov, DataType::Float, r, &[r])));
    let words = p.assert_valid();
    assert!(!has_op(&words, Op::FAdd) && !has_op(&words, Op::FMul));
    assert!(!has_op(&words, Op::FUnordLessThan));
    assert!(!has_op(&words, Op::SelectionMerge));
}

#[test]
fn code_feeding_a_result_across_flow_control_is_kept() {
    // t = t + t in a loop, a flag set there and tested by an IF after it,
    // and the result written from t inside that IF.
    let mut p = P::new(Stage::Vertex);
    p.prune = true;
    let t = p.temp();
    let u = p.temp();
    let k = p.constant([3.0, 0.0, 0.0, 0.0]);
    let r = p.result(ResultBinding::Position);
    let mut mul = inst(Opcode::Mul, DataType::Float, u, &[t, t]);
    mul.cc_update = Some(CcReg(1));
    p.push(Stmt::Rep {
        count: Some(operand(k, DataType::Float)),
        count64: false,
        body: vec![
            Stmt::Inst(inst(Opcode::Add, DataType::Float, t, &[t, t])),
            Stmt::Inst(mul),
        ],
        span: Span::default(),
    });
    p.push(Stmt::If {
        test: cc(CcCondition::Gt, 1),
        then_block: vec![Stmt::Inst(inst(Opcode::Mov, DataType::Float, r, &[t]))],
        else_block: Vec::new(),
        span: Span::default(),
    });
    let words = p.assert_valid();
    assert!(has_op(&words, Op::FAdd), "t feeds the result");
    assert!(
        has_op(&words, Op::FMul),
        "the multiply sets the tested flags"
    );
    assert!(has_op(&words, Op::FUnordLessThan));
}

#[test]
fn pruned_recursion_and_nested_flow_validate() {
    // As recursion_through_nested_flow_validates, leaving out unobservable
    // code: once with a result written from the cycle's register, once
    // with a dead temporary and an IF of nothing but dead code in it.
    for observe in [true, false] {
        let mut p = P::new(Stage::Vertex);
        p.prune = true;
        let x = p.temp();
        let dead = p.temp();
        let one = p.constant([1.0; 4]);
        let count = p.int_constant([3, 0, 0, 0]);
        let r = p.result(ResultBinding::Position);
        let span = Span::default();
        let a = p.sub("a", Vec::new());
        let call = |target, cond| Stmt::Call { target, cond, span };
        let mut body = nested_body(x, one, count, call(a, Some(cc_x(CcCondition::Gt))));
        body.push(Stmt::If {
            test: cc(CcCondition::Lt, 1),
            then_block: vec![body_inst(dead, one)],
            else_block: Vec::new(),
            span,
        });
        p.program.subroutines[a.0 as usize].body = body;
        p.push(call(a, None));
        if observe {
            p.push(Stmt::Inst(inst(Opcode::Mov, DataType::Float, r, &[x])));
        }
        let words = p.assert_valid();
        let functions = module(&words).functions.len();
        assert_eq!(functions, if observe { 2 } else { 1 });
    }
}

// ---- thread groups (NV_gpu_program5 2.X.8.Z, TGALL/TGANY/TGEQ) ----------

/// The capabilities a module declares.
fn capabilities(m: &dr::Module) -> Vec<rspirv::spirv::Capability> {
    m.capabilities
        .iter()
        .map(|i| i.operands[0].unwrap_capability())
        .collect()
}

/// Compiles `src` for every environment. From Vulkan 1.1 on it must give a
/// module with `count` instructions `op`; those modules are returned for
/// further checks. For Vulkan 1.0 it must fail with E1140 alone, on the
/// text `opcode` when one is given: never a module.
fn subgroup_modules(
    src: &str,
    op: rspirv::spirv::Op,
    count: usize,
    opcode: Option<&str>,
) -> Vec<dr::Module> {
    let mut modules = Vec::new();
    for env in ENVS {
        match crate::compile(src, &options(env)) {
            Ok(c) => {
                assert!(env >= TargetEnv::Vulkan1_1, "{src} compiled for {env:?}");
                let m = module(&c.spirv);
                let n = m
                    .functions
                    .iter()
                    .flat_map(|f| f.all_inst_iter())
                    .filter(|i| i.class.opcode == op)
                    .count();
                assert_eq!(n, count, "{src}: {op:?}");
                modules.push(m);
            }
            Err(d) => {
                assert_eq!(env, TargetEnv::Vulkan1_0, "{src}: {d:?}");
                let codes: Vec<_> = d.iter().map(|d| d.code).collect();
                assert_eq!(codes, ["E1140"], "{src}");
                if let Some(opcode) = opcode {
                    let span = d.iter().next().unwrap().primary_span().unwrap();
                    assert_eq!(&src[span.start as usize..span.end as usize], opcode);
                }
            }
        }
    }
    modules
}

/// Each thread-group vote, in each data type, is a subgroup vote that
/// validates from Vulkan 1.1 on; compiled for Vulkan 1.0 it is E1140 on its
/// opcode, never a module.
#[test]
fn thread_group_votes_validate_from_vulkan_1_1_and_are_e1140_before() {
    for op in ["TGALL", "TGANY", "TGEQ"] {
        for (ty, kind, storage) in [
            ("", "", "F32"),
            (".S", "INT ", "S32"),
            (".U", "UINT ", "U32"),
        ] {
            for stage in ["fp", "cp"] {
                // The result reaches an output or memory, so it is not pruned.
                let (head, store) = if stage == "fp" {
                    (
                        format!("!!NVfp5.0\n{kind}OUTPUT o = result.color;\n"),
                        format!("MOV{ty} o, t;\n"),
                    )
                } else {
                    (
                        "!!NVcp5.0\nOPTION NV_shader_storage_buffer;\nGROUP_SIZE 4;\nSTORAGE s = program.storage[0];\n".to_string(),
                        format!("STB.{storage} t.x, s[0];\n"),
                    )
                };
                let src = format!(
                    "{head}{kind}TEMP t;\nMOV{ty} t, {{1, 0, 2, 0}};\n{op}{ty}.CC t, t;\n{store}END\n"
                );
                let vote = match op {
                    "TGALL" => rspirv::spirv::Op::GroupNonUniformAll,
                    "TGANY" => rspirv::spirv::Op::GroupNonUniformAny,
                    _ => rspirv::spirv::Op::GroupNonUniformAllEqual,
                };
                // One vote per component.
                for m in subgroup_modules(&src, vote, 4, Some(op)) {
                    assert!(
                        capabilities(&m).contains(&rspirv::spirv::Capability::GroupNonUniformVote),
                        "{src}"
                    );
                }
            }
        }
    }
}

/// Each thread shuffle, in each data type, validates from Vulkan 1.1 on
/// (one OpGroupNonUniformShuffle, capability GroupNonUniformShuffle) and is
/// E1140 on its opcode for Vulkan 1.0.
#[test]
fn thread_shuffles_validate_from_vulkan_1_1_and_are_e1140_before() {
    for op in ["SHFIDX", "SHFUP", "SHFDOWN", "SHFXOR"] {
        for (ty, kind) in [("", ""), (".S", "INT "), (".U", "UINT ")] {
            for header in ["!!NVfp5.0", "!!NVvp5.0"] {
                let src = format!(
                    "{header}\nOPTION NV_shader_thread_shuffle;\n{kind}OUTPUT o = result.{};\n{kind}TEMP t;\nMOV{ty} t, {{1, 0, 2, 0}};\n{op}{ty} t, t, {{3}}.x, {{0x1c1f}}.x;\nMOV{ty} o, t;\nEND\n",
                    if header == "!!NVfp5.0" { "color" } else { "texcoord[0]" }
                );
                let shuffle = rspirv::spirv::Op::GroupNonUniformShuffle;
                for m in subgroup_modules(&src, shuffle, 1, Some(op)) {
                    assert!(
                        capabilities(&m)
                            .contains(&rspirv::spirv::Capability::GroupNonUniformShuffle),
                        "{src}"
                    );
                }
            }
        }
    }
}

/// TGBALLOT (`OPTION NV_shader_thread_group`), in each data type, is four
/// subgroup ballots from Vulkan 1.1 on and E1140 for Vulkan 1.0.
#[test]
fn thread_group_ballot_validates_from_vulkan_1_1_and_is_e1140_before() {
    for (ty, kind) in [("", ""), (".S", "INT "), (".U", "UINT ")] {
        let src = format!(
            "!!NVfp5.0\nOPTION NV_shader_thread_group;\nUINT OUTPUT o = result.color;\n{kind}TEMP t;\nUINT TEMP b;\nMOV{ty} t, {{1, 0, 2, 0}};\nTGBALLOT{ty}.CC b, t;\nMOV.U o, b;\nEND\n"
        );
        subgroup_modules(&src, rspirv::spirv::Op::GroupNonUniformBallot, 4, None);
    }
}

/// QSWZ0-3, QSWZX, QSWZY (`OPTION NV_shader_thread_group`, fragment
/// programs) are quad operations from Vulkan 1.1 on and E1140 for 1.0.
#[test]
fn quad_swizzles_validate_from_vulkan_1_1_and_are_e1140_before() {
    for (op, spv) in [
        ("QSWZ0", rspirv::spirv::Op::GroupNonUniformQuadBroadcast),
        ("QSWZ1", rspirv::spirv::Op::GroupNonUniformQuadBroadcast),
        ("QSWZ2", rspirv::spirv::Op::GroupNonUniformQuadBroadcast),
        ("QSWZ3", rspirv::spirv::Op::GroupNonUniformQuadBroadcast),
        ("QSWZX", rspirv::spirv::Op::GroupNonUniformQuadSwap),
        ("QSWZY", rspirv::spirv::Op::GroupNonUniformQuadSwap),
    ] {
        let src = format!(
            "!!NVfp5.0\nOPTION NV_shader_thread_group;\nTEMP t;\n{op}.F t, fragment.position, fragment.color;\nMOV result.color, t;\nEND\n"
        );
        subgroup_modules(&src, spv, 1, None);
    }
}

/// NV_compute_program5's shared memory: every storage modifier of LDS and
/// STS, every atomic modifier of ATOMS with each storage modifier Table X.Y
/// allows (IWRAP, DWRAP and F32 ADD as compare-and-swap loops; not U64),
/// with constant and register offsets, compile
/// to modules that validate in every target environment, with shared
/// memory in the Workgroup class and the atomics at Workgroup scope.
#[test]
fn shared_memory_instructions_validate() {
    let mut body = String::new();
    for ty in ["U32", "S32", "F32"] {
        for n in ["", "X2", "X4"] {
            body.push_str(&format!(
                "LDS.{ty}{n} r, shv[16];\nLDS.{ty}{n} r, shv[a.x + 4];\n"
            ));
            body.push_str(&format!(
                "STS.{ty}{n} r, shv[32];\nSTS.{ty}{n} r, shv[a.x];\n"
            ));
        }
    }
    for op in ["ADD", "MIN", "MAX", "AND", "OR", "XOR", "EXCH", "CSWAP"] {
        for ty in ["U32", "S32"] {
            body.push_str(&format!(
                "ATOMS.{op}.{ty} r.x, {{1, 2, 0, 0}}, shv[8];\nATOMS.{op}.{ty} r.y, r, shv[a.x + 8];\n"
            ));
        }
    }
    for (op, ty) in [
        ("IWRAP", "U32"),
        ("DWRAP", "U32"),
        ("ADD", "F32"),
        ("EXCH", "F32"),
    ] {
        body.push_str(&format!(
            "ATOMS.{op}.{ty} r.z, {{1, 2, 0, 0}}, shv[12];\nATOMS.{op}.{ty} r.w, r, shv[a.x + 12];\n"
        ));
    }
    body.push_str("LDS.U32.CC r, shv;\nBAR;\n");
    let src = format!(
        "!!NVcp5.0\nGROUP_SIZE 4;\nSHARED_MEMORY 64;\nSHARED shv = program.sharedmem[0];\nTEMP r;\nUINT TEMP a;\nMOV.U a, invocation.localid;\nMOV r, 0;\n{body}END\n"
    );
    for env in ENVS {
        let compiled = crate::compile(&src, &options(env))
            .unwrap_or_else(|d| panic!("{env:?}: {}", d.render("t.cp", &src, false)));
        let m = module(&compiled.spirv);
        let workgroup_vars = m
            .types_global_values
            .iter()
            .filter(|i| {
                i.class.opcode == Op::Variable
                    && i.operands.first()
                        == Some(&dr::Operand::StorageClass(spirv::StorageClass::Workgroup))
            })
            .count();
        assert_eq!(workgroup_vars, 1, "{env:?}");
        for op in [
            Op::AtomicIAdd,
            Op::AtomicUMin,
            Op::AtomicSMin,
            Op::AtomicUMax,
            Op::AtomicSMax,
            Op::AtomicAnd,
            Op::AtomicOr,
            Op::AtomicXor,
            Op::AtomicExchange,
            Op::AtomicCompareExchange,
            Op::AtomicLoad,
            Op::LoopMerge,
            Op::ControlBarrier,
        ] {
            assert!(has_op(&compiled.spirv, op), "{env:?}: no {op:?}");
        }
    }
}

/// MEMBAR (NV_gpu_program5 2.X.8.Z) is `OpMemoryBarrier` at Device scope,
/// MEMBAR.CTA (NV_compute_program5) at Workgroup scope; both AcquireRelease
/// on Uniform memory, and on Workgroup memory in compute programs only.
#[test]
fn memory_barriers_have_the_spec_scope_and_semantics() {
    let compute = "!!NVcp5.0\nGROUP_SIZE 1;\nMEMBAR;\nMEMBAR.CTA;\nEND\n";
    let fragment = "!!NVfp5.0\nMEMBAR;\nMOV result.color, fragment.color;\nEND\n";
    let device = spirv::Scope::Device as u32;
    let workgroup = spirv::Scope::Workgroup as u32;
    for env in ENVS {
        for (src, want) in [
            (compute, vec![(device, 0x148), (workgroup, 0x148)]),
            (fragment, vec![(device, 0x48)]),
        ] {
            let compiled = crate::compile(src, &options(env))
                .unwrap_or_else(|d| panic!("{env:?}: {}", d.render("t", src, false)));
            let m = module(&compiled.spirv);
            let constant = |id: u32| {
                m.types_global_values
                    .iter()
                    .find(|i| i.result_id == Some(id) && i.class.opcode == Op::Constant)
                    .and_then(|i| match i.operands.first() {
                        Some(dr::Operand::LiteralBit32(v)) => Some(*v),
                        _ => None,
                    })
                    .unwrap()
            };
            let barriers: Vec<(u32, u32)> = m
                .functions
                .iter()
                .flat_map(|f| f.blocks.iter())
                .flat_map(|b| b.instructions.iter())
                .filter(|i| i.class.opcode == Op::MemoryBarrier)
                .map(|i| match i.operands.as_slice() {
                    [dr::Operand::IdScope(s), dr::Operand::IdMemorySemantics(m)] => {
                        (constant(*s), constant(*m))
                    }
                    other => panic!("OpMemoryBarrier operands {other:?}"),
                })
                .collect();
            assert_eq!(barriers, want, "{env:?}: {src}");
        }
    }
}

/// EXT_shader_image_load_store's image instructions: every target but the
/// multisample ones (refused, E0900) with LOADIM, unformatted STOREIM and
/// ATOMIM, every storage modifier of Table X.3, every atomic modifier of
/// Table X.4 with the storage modifiers it takes, formatted STOREIM alone
/// on a unit (format Unknown), in every program type that has them and
/// every target environment: modules that validate, one storage image per
/// unit at binding 80 + n, with the capabilities docs/interface.md
/// ("Images") lists and no StorageImageReadWithoutFormat.
#[test]
fn image_instructions_validate() {
    let targets = [
        "1D",
        "2D",
        "3D",
        "RECT",
        "CUBE",
        "BUFFER",
        "ARRAY1D",
        "ARRAY2D",
        "ARRAYCUBE",
    ];
    let formats = [
        "F32X4", "S32X4", "U32X4", "F32X2", "S32X2", "U32X2", "F32", "S32", "U32", "S16", "U16",
        "S8", "U8",
    ];
    let src_of = |extra: &str| {
        format!("!!NVcp5.0\nGROUP_SIZE 1;\nINT TEMP c;\nTEMP r;\nMOV.S c, {{1, 2, 3, 4}};\n{extra}END\n")
    };
    let mut programs: Vec<String> = Vec::new();
    for (u, t) in targets.iter().enumerate() {
        let u = u % 8;
        programs.push(src_of(&format!(
            "LOADIM.U32 r, c, image[{u}], {t};\nSTOREIM.U32 image[{u}], r, c, {t};\nATOMIM.ADD.U32 r.x, r, c, image[{u}], {t};\n"
        )));
    }
    for (i, f) in formats.iter().enumerate() {
        let u = i % 8;
        let line = format!("LOADIM.{f} r, c, image[{u}], 2D;\nSTOREIM.{f} image[{u}], r, c, 2D;\n");
        programs.push(src_of(&line));
    }
    for op in ["ADD", "MIN", "MAX", "AND", "OR", "XOR", "EXCH", "CSWAP"] {
        for ty in ["U32", "S32"] {
            programs.push(src_of(&format!(
                "ATOMIM.{op}.{ty} r.x, {{1, 2, 0, 0}}, c, image[3], ARRAY2D;\n"
            )));
        }
    }
    for op in ["IWRAP", "DWRAP"] {
        programs.push(src_of(&format!(
            "ATOMIM.{op}.U32 r.x, {{1, 2, 0, 0}}, c, image[3], BUFFER;\n"
        )));
    }
    programs.push(src_of(
        "STOREIM.F image[5], r, c, 2D;\nSTOREIM image[6], r, c, 3D;\n",
    ));
    programs.push(
        "!!NVfp5.0\nINT TEMP c;\nTEMP r;\nMOV.S c, fragment.position;\nLOADIM.F32X4 r, c, image[1], 2D;\nATOMIM.ADD.S32 r.x, 1, c, image[2], 2D;\nSTOREIM.F32X4 image[1], r, c, 2D;\nMOV result.color, r;\nEND\n"
            .into(),
    );
    for src in &programs {
        for env in ENVS {
            let compiled = crate::compile(src, &options(env))
                .unwrap_or_else(|d| panic!("{env:?}: {}", d.render("t.cp", src, false)));
            let m = module(&compiled.spirv);
            let caps: Vec<u32> = m
                .capabilities
                .iter()
                .filter_map(|i| match i.operands.first() {
                    Some(dr::Operand::Capability(c)) => Some(*c as u32),
                    _ => None,
                })
                .collect();
            assert!(
                !caps.contains(&(spirv::Capability::StorageImageReadWithoutFormat as u32)),
                "{src}"
            );
            assert!(!compiled.reflection.images.is_empty(), "{src}");
            for i in &compiled.reflection.images {
                assert_eq!(i.binding, 80 + i.unit, "{src}");
            }
        }
    }
    // The multisample targets: multisampled images (StorageImageMultisample,
    // ImageMSArray for the array) read with the Sample operand.
    for (t, ty, array_cap) in [
        ("2DMS", "uimage2DMS", false),
        ("ARRAY2DMS", "uimage2DMSArray", true),
    ] {
        let src = src_of(&format!(
            "LOADIM.U32 r, c, image[0], {t};\nSTOREIM.U32 image[0], r, c, {t};\nATOMIM.ADD.U32 r.x, 1, c, image[0], {t};\n"
        ));
        for env in ENVS {
            let compiled = crate::compile(&src, &options(env))
                .unwrap_or_else(|d| panic!("{t}: {}", d.render("t.cp", &src, false)));
            let m = module(&compiled.spirv);
            let has = |c: spirv::Capability| {
                m.capabilities.iter().any(
                    |i| matches!(i.operands.first(), Some(dr::Operand::Capability(x)) if *x == c),
                )
            };
            assert!(has(spirv::Capability::StorageImageMultisample), "{t}");
            assert_eq!(has(spirv::Capability::ImageMSArray), array_cap, "{t}");
            assert_eq!(compiled.reflection.images[0].ty, ty, "{t}");
        }
    }
}

/// NV_bindless_texture: a handle in place of the texture unit in every
/// texture instruction and target compiles, in every target environment,
/// to one 16-element descriptor array per target at binding 96 + target
/// read with constant indices, reflected under
/// `bindless_textures` and not as texture units.
#[test]
fn texture_handles_validate() {
    let cases = [
        ("TEX", "1D"),
        ("TEX", "2D"),
        ("TXB", "3D"),
        ("TXL", "CUBE"),
        ("TEX", "RECT"),
        ("TEX", "SHADOW1D"),
        ("TXP", "SHADOW2D"),
        ("TEX", "SHADOWRECT"),
        ("TEX", "ARRAY1D"),
        ("TXL", "ARRAY2D"),
        ("TEX", "SHADOWCUBE"),
        ("TEX", "SHADOWARRAY1D"),
        ("TEX", "SHADOWARRAY2D"),
        ("TXF", "BUFFER"),
        ("TEX", "ARRAYCUBE"),
        ("TXQ", "2D"),
        ("TXG", "2D"),
        ("LOD", "2D"),
    ];
    for (op, target) in cases {
        let coord = if op == "TXF" || op == "TXQ" {
            "c"
        } else {
            "fragment.texcoord[0]"
        };
        let src = format!(
            "!!NVfp5.0\nOPTION NV_bindless_texture;\nUINT TEMP h;\nINT TEMP c;\nTEMP r;\nMOV.U h, {{3, 1, 0, 0}};\nMOV.S c, 0;\n{op} r, {coord}, handle(h.y), {target};\nMOV result.color, r;\nEND\n"
        );
        for env in ENVS {
            let compiled = crate::compile(&src, &options(env))
                .unwrap_or_else(|d| panic!("{env:?}: {}", d.render("t.fp", &src, false)));
            let r = &compiled.reflection;
            assert!(r.textures.is_empty(), "{src}");
            let k = crate::ir::TexTarget::ALL
                .iter()
                .position(|t| t.name() == target)
                .unwrap() as u32;
            assert_eq!(r.bindless_textures.len(), 1, "{src}");
            let b = &r.bindless_textures[0];
            assert_eq!(
                (b.binding, b.count, b.target.as_str()),
                (96 + k, 16, target)
            );
        }
    }
}

/// Every storage modifier of the load/store table on LDB, STB, LDS, STS
/// (compute), LDC (fragment) and, but the 64-bit ones, LOADIM/STOREIM,
/// with constant and register offsets,
/// compiles to a module valid in every target environment: 8/16-bit and
/// F16 accesses are word accesses and bit operations, 64-bit ones Int64
/// and Float64 values, so no 8- or 16-bit storage capability is needed.
#[test]
fn every_storage_modifier_validates_in_every_env() {
    use crate::check::memory::STORAGE_MODIFIERS;
    let mut compute = String::new();
    let mut fragment = String::new();
    for m in STORAGE_MODIFIERS {
        let reg = match (m.ty, m.bits) {
            (_, 64) => "d",
            (crate::isa::DataType::Float, _) => "f",
            (crate::isa::DataType::Signed, _) => "s",
            _ => "u",
        };
        compute.push_str(&format!(
            "LDB.{0} {reg}, sbo[a.x + 8];\nSTB.{0} {reg}, sbo[16];\nLDS.{0} {reg}, shv[32];\nSTS.{0} {reg}, shv[a.x];\n",
            m.name
        ));
        fragment.push_str(&format!(
            "LDC.{0} {reg}, cb[i.x + 8];\nSTB.{0} {reg}, sbo[a.x];\nLDC.{0} {reg}, cb[2];\nSTB.{0} {reg}, sbo[8];\n",
            m.name
        ));
    }
    let compute = format!(
        "!!NVcp5.0\nOPTION NV_shader_storage_buffer;\nOPTION NV_gpu_program5_mem_extended;\nGROUP_SIZE 1;\nSHARED_MEMORY 64;\nSHARED shv[] = {{ program.sharedmem }};\nSTORAGE sbo = program.storage[0];\nINT TEMP s;\nUINT TEMP u, a;\nTEMP f;\nLONG TEMP d;\nMOV.U a, invocation.localid;\nMOV.S s, 0;\nMOV.U u, 0;\nMOV f, 0;\nMOV.U64 d, 0;\n{compute}END\n"
    );
    let fragment = format!(
        "!!NVfp5.0\nOPTION NV_shader_storage_buffer;\nOPTION NV_gpu_program5_mem_extended;\nCBUFFER cb[] = {{ program.buffer[0] }};\nSTORAGE sbo = program.storage[0];\nINT TEMP s, i;\nUINT TEMP u, a;\nTEMP f;\nLONG TEMP d;\nFLR.U a, fragment.texcoord[0];\nFLR.S i, fragment.texcoord[0];\n{fragment}MOV result.color, f;\nEND\n"
    );
    // LOADIM and STOREIM: every modifier but the 64-bit ones, one image
    // unit each (a unit has one format), eight units a program.
    let image_modifiers: Vec<_> = STORAGE_MODIFIERS.iter().filter(|m| m.bits != 64).collect();
    let mut programs = vec![("t.cp", compute), ("t.fp", fragment)];
    for chunk in image_modifiers.chunks(8) {
        let mut images = String::new();
        let mut body = String::new();
        for (unit, m) in chunk.iter().enumerate() {
            let reg = match m.ty {
                crate::isa::DataType::Float => "f",
                crate::isa::DataType::Signed => "s",
                crate::isa::DataType::Unsigned => "u",
            };
            images.push_str(&format!("IMAGE img{unit} = image[{unit}];\n"));
            body.push_str(&format!(
                "LOADIM.{0} {reg}, c, img{unit}, 2D;\nSTOREIM.{0} img{unit}, {reg}, c.yxzw, 2D;\n",
                m.name
            ));
        }
        programs.push((
            "t.cp",
            format!(
                "!!NVcp5.0\nOPTION NV_gpu_program5_mem_extended;\nGROUP_SIZE 1;\n{images}INT TEMP s, c;\nUINT TEMP u;\nTEMP f;\nMOV.S c, invocation.localid;\n{body}END\n"
            ),
        ));
    }
    for env in ENVS {
        for (name, src) in &programs {
            crate::compile(src, &options(env))
                .unwrap_or_else(|d| panic!("{env:?}: {}", d.render(name, src, false)));
        }
    }
    // LOAD and STORE at GPU addresses: every modifier, from vulkan1.2
    // (PhysicalStorageBuffer pointers; E1140 below it).
    let mut global = String::new();
    for m in STORAGE_MODIFIERS {
        let reg = match (m.ty, m.bits) {
            (_, 64) => "d",
            (crate::isa::DataType::Float, _) => "f",
            (crate::isa::DataType::Signed, _) => "s",
            _ => "u",
        };
        global.push_str(&format!(
            "LOAD.{0} {reg}, p.x;\nSTORE.{0} {reg}, p.y;\n",
            m.name
        ));
    }
    let global = format!(
        "!!NVcp5.0\nOPTION NV_gpu_program5_mem_extended;\nGROUP_SIZE 1;\nINT TEMP s;\nUINT TEMP u;\nTEMP f;\nLONG TEMP d, p;\nPK64.U p, program.env[0];\nMOV.S s, 0;\nMOV.U u, 0;\nMOV f, 0;\nMOV.U64 d, 0;\n{global}END\n"
    );
    for env in [TargetEnv::Vulkan1_2, TargetEnv::Vulkan1_3] {
        crate::compile(&global, &options(env))
            .unwrap_or_else(|d| panic!("{env:?}: {}", d.render("t.cp", &global, false)));
    }
}

/// Every atomic operation with every storage modifier of the atomic
/// extensions, on ATOMB and ATOMS, with and without the options: what
/// NV_shader_atomic_int64, NV_shader_atomic_float64 and
/// NV_shader_atomic_fp16_vector allow compiles to a valid module in every
/// environment (with Int64Atomics exactly for the 64-bit ones); the rest
/// gives the one code of its rule.
#[test]
fn atomic_extension_operations_compile_or_give_their_code() {
    use crate::ir::AtomicOp as A;
    const OPS: [A; 10] = [
        A::Add,
        A::Min,
        A::Max,
        A::And,
        A::Or,
        A::Xor,
        A::Exch,
        A::CSwap,
        A::IWrap,
        A::DWrap,
    ];
    for shared in [false, true] {
        for modifier in ["U64", "S64", "F64", "F16X2", "F16X4"] {
            for op in OPS {
                for with_option in [false, true] {
                    let option = match modifier {
                        "U64" | "S64" => "NV_shader_atomic_int64",
                        "F64" => "NV_shader_atomic_float64",
                        _ => "NV_shader_atomic_fp16_vector",
                    };
                    let name = op.name();
                    let (inst, mem) = if shared {
                        ("ATOMS", "s[8]")
                    } else {
                        ("ATOMB", "b[8]")
                    };
                    let src = format!(
                        "!!NVcp5.0\nOPTION NV_shader_storage_buffer;\n{}GROUP_SIZE 1;\nSHARED_MEMORY 32;\nSHARED s = program.sharedmem[0];\nSTORAGE b = program.storage[0];\nLONG TEMP d;\nTEMP r;\n{inst}.{name}.{modifier} r, {{1, 2, 3, 4}}, {mem};\nSTB.F32X4 r, b[0];\nEND\n",
                        if with_option { format!("OPTION {option};\n") } else { String::new() },
                    );
                    let wide = modifier.ends_with("64");
                    let allowed = match (modifier, op) {
                        (_, A::IWrap | A::DWrap) => false,
                        ("F64", A::Add | A::Exch) => true,
                        ("F64", _) => false,
                        ("U64" | "S64", _) => true,
                        (_, A::Add | A::Min | A::Max | A::Exch) => true,
                        _ => false,
                    };
                    let needs_option =
                        !(modifier == "U64" && matches!(op, A::Add | A::Exch | A::CSwap));
                    let want = if !allowed {
                        Some("E1243")
                    } else if needs_option && !with_option {
                        Some(match modifier {
                            "U64" | "S64" => "E1240",
                            "F64" => "E1241",
                            _ => "E1242",
                        })
                    } else {
                        None
                    };
                    compiles_in_every_env_or_gives(&src, want, |c| {
                        assert_eq!(
                            has_capability(&c.spirv, spirv::Capability::Int64Atomics),
                            wide,
                            "{src}"
                        );
                        // Reflection names the feature the memory needs.
                        let feature = if shared {
                            "shaderSharedInt64Atomics"
                        } else {
                            "shaderBufferInt64Atomics"
                        };
                        assert_eq!(
                            c.reflection.device_features.iter().any(|f| f == feature),
                            wide,
                            "{src}"
                        );
                    });
                }
            }
        }
    }
}

/// CVT to and from F16 from and to every other storage type, in each
/// rounding mode, in 32-bit and LONG registers, validates in every target
/// environment (no Float16 capability: src/spirv/half.rs).
#[test]
fn cvt_with_f16_validates_in_every_env() {
    let mut body = String::new();
    for other in [
        "F32", "F64", "S8", "S16", "S32", "S64", "U8", "U16", "U32", "U64",
    ] {
        let (operand, result) = match other {
            "F64" | "S64" | "U64" => ("d", "d"),
            o if o.starts_with('S') => ("s", "s"),
            o if o.starts_with('U') => ("u", "u"),
            _ => ("f", "f"),
        };
        for rounding in ["", ".ROUND", ".CEIL", ".FLR", ".TRUNC"] {
            body.push_str(&format!(
                "CVT.F16.{other}{rounding} h, {operand};\nCVT.{other}.F16{rounding} {result}, h;\nCVT.F16.{other}{rounding}.SSAT h, {operand};\nCVT.{other}.F16{rounding} {result}, h;\nCVT.F16.{other}{rounding}.SAT.CC e, {operand};\nCVT.{other}.F16{rounding} {result}, e;\n"
            ));
        }
    }
    let src = format!(
        "!!NVfp5.0\nOPTION NV_shader_storage_buffer;\nSTORAGE sbo = program.storage[0];\nTEMP f, h;\nINT TEMP s;\nUINT TEMP u;\nLONG TEMP d, e;\nMOV f, fragment.texcoord[0];\nFLR.S s, f;\nFLR.U u, f;\nMOV.F64 d, f;\n{body}STB.S32X4 s, sbo[0];\nSTB.U32X4 u, sbo[16];\nSTB.F64X4 d, sbo[32];\nADD result.color, f, h;\nEND\n"
    );
    for env in ENVS {
        let compiled = crate::compile(&src, &options(env))
            .unwrap_or_else(|e| panic!("{env:?}: {}", e.render("t.fp", &src, false)));
        let caps = capabilities(&module(&compiled.spirv));
        assert!(!caps.contains(&spirv::Capability::Float16), "{env:?}");
    }
}

/// LOAD, STORE and ATOM (NV_gpu_program5 2.X.8.Z) at GPU addresses: from
/// Vulkan 1.2 on, PhysicalStorageBuffer pointers made by OpConvertUToPtr
/// (addressing model PhysicalStorageBuffer64), loads and stores Aligned to
/// the access size, Volatile for COH/VOL; below it E1140 on each opcode,
/// never a module (docs/interface.md, "GPU addresses").
#[test]
fn gpu_address_accesses_are_physical_storage_buffer_pointers_from_vulkan_1_2() {
    use rspirv::dr::Operand as O;
    use rspirv::spirv::{AddressingModel, Capability, MemoryAccess, Op};
    let src = "!!NVcp5.0\nGROUP_SIZE 1;\nLONG TEMP a;\nTEMP t;\nPK64.U a, program.env[0];\n\
               LOAD.F32X2.VOL t, a.x;\nSTORE.U32X4 t, a.x;\nATOM.CSWAP.S32 t.x, t, a.x;\nEND\n";
    for env in ENVS {
        match crate::compile(src, &options(env)) {
            Ok(c) => {
                assert!(env >= TargetEnv::Vulkan1_2, "compiled for {env:?}");
                let m = module(&c.spirv);
                let model = m.memory_model.as_ref().unwrap();
                assert_eq!(
                    model.operands[0],
                    O::AddressingModel(AddressingModel::PhysicalStorageBuffer64)
                );
                assert!(capabilities(&m).contains(&Capability::PhysicalStorageBufferAddresses));
                let insts: Vec<_> = m.functions.iter().flat_map(|f| f.all_inst_iter()).collect();
                let count = |op| insts.iter().filter(|i| i.class.opcode == op).count();
                assert_eq!(count(Op::ConvertUToPtr), 3);
                assert_eq!(count(Op::AtomicCompareExchange), 1);
                // The memory operands of the pointer accesses: (access, alignment).
                let accesses: Vec<(MemoryAccess, u32)> = insts
                    .iter()
                    .filter_map(|i| match (i.class.opcode, i.operands.as_slice()) {
                        (Op::Load, [_, O::MemoryAccess(a), O::LiteralBit32(n)])
                        | (Op::Store, [_, _, O::MemoryAccess(a), O::LiteralBit32(n)]) => {
                            Some((*a, *n))
                        }
                        _ => None,
                    })
                    .collect();
                assert_eq!(
                    accesses,
                    [
                        (MemoryAccess::ALIGNED | MemoryAccess::VOLATILE, 8),
                        (MemoryAccess::ALIGNED, 16)
                    ]
                );
            }
            Err(d) => {
                assert!(env < TargetEnv::Vulkan1_2, "{env:?}: {d:?}");
                let codes: Vec<_> = d.iter().map(|d| d.code).collect();
                assert_eq!(codes, ["E1140"; 3]);
                assert!(d.iter().all(|d| d.message.contains("vulkan1.2")));
            }
        }
    }
}

/// Compiles `src` for every target environment: with `want` None it must
/// compile (and `compiled` checks the result), otherwise give exactly the
/// one diagnostic `want`.
fn compiles_in_every_env_or_gives(
    src: &str,
    want: Option<&str>,
    mut compiled: impl FnMut(&crate::Compiled),
) {
    for env in ENVS {
        match (crate::compile(src, &options(env)), want) {
            (Ok(c), None) => compiled(&c),
            (Err(d), Some(code)) => {
                let codes: Vec<_> = d.iter().map(|d| d.code).collect();
                assert_eq!(codes, [code], "{env:?} {src}");
            }
            (Ok(_), Some(code)) => panic!("{env:?} {src} compiled, expected {code}"),
            (Err(d), None) => panic!("{env:?} {src}: {d:?}"),
        }
    }
}

fn has_capability(words: &[u32], cap: spirv::Capability) -> bool {
    module(words)
        .capabilities
        .iter()
        .any(|i| i.operands.first() == Some(&SpvOperand::Capability(cap)))
}

/// NV_shader_atomic_float gives ATOMIM F32 for ADD and EXCH only, with its
/// option: with it both validate in every environment (OpAtomicFAddEXT and
/// a float OpAtomicExchange on the r32f texel); without it each is E1230;
/// other operations on F32 stay outside Table X.4 (E1196).
#[test]
fn atomim_f32_needs_the_atomic_float_option_and_add_or_exch() {
    for (option, op, code) in [
        (true, "ADD", None),
        (true, "EXCH", None),
        (false, "ADD", Some("E1230")),
        (false, "EXCH", Some("E1230")),
        (true, "MIN", Some("E1196")),
        (true, "CSWAP", Some("E1196")),
    ] {
        let src = format!(
            "!!NVcp5.0\n{}GROUP_SIZE 1;\nIMAGE img = image[0];\nFLOAT TEMP r;\nATOMIM.{op}.F32 r.x, {{1.5, 2, 0, 0}}, {{0, 0, 0, 0}}, img, 2D;\nEND\n",
            if option { "OPTION NV_shader_atomic_float;\n" } else { "" }
        );
        compiles_in_every_env_or_gives(&src, code, |_| {});
    }
}

/// NV_gpu_program5's `program.buffer[a..b]` (2.X.3.6, Table X.12.1) in
/// BUFFER, BUFFER4 and CBUFFER declarations, with constant and
/// register-picked binding points, validates in every environment; an
/// `!!NV…4.0` program may not use the range (E0203), and the fail-to-load
/// rules are E0202 (a > b), E1280 (past the binding points), E1282 (a
/// binding-point array size that is not the range's) and E1281 (a
/// binding point index outside the range, or none); a buffer of a storage
/// range picked by a register validates in every environment with every
/// kind of access.
#[test]
fn parameter_buffer_ranges_validate_and_their_rules_are_coded() {
    let first_code = |src: &str| {
        let Err(d) = crate::check(src, &crate::Options::default()) else {
            panic!("{src} checked");
        };
        d.iter().next().expect("a diagnostic").code
    };
    let ranges = "!!NVfp5.0\nBUFFER4 b4[] = { program.buffer[1..3][1..2] };\nBUFFER bw = program.buffer[4..5][3];\nBUFFER4 whole[] = { program.buffer[6..7] };\nBUFFER words[] = { program.buffer[8..9][0..1], program.buffer[8..9][2..5] };\nCBUFFER cb[] = { program.buffer[10..12] };\nCBUFFER cbpart = program.buffer[10..11][16];\nBUFFER4 two[2][2] = { program.buffer[12..13][0..1] };\nBUFFER allw[] = { program.buffer[4..5] };\nBUFFER4 one = program.buffer[6..7][2];\nCBUFFER cbr[] = { program.buffer[0..1][8..23] };\nINT TEMP i;\nTEMP r, s, t, u;\nMOV.S i, {5, 0, -3, 0};\nMOV r, b4[2][1];\nMOV s, b4[i.x - 4][i.y];\nADD t, bw[0], bw[i.z + 1];\nMAD u, whole[i.x + 7][i.w], words[1][5], words[i.y][i.x];\nLDC.F32X4 r, cb[1][16];\nLDC.F32X2 s.xy, cb[i.x - 3][i.x + 4];\nLDC.U8 s.z, cbpart[i.y][3];\nADD r, r, s;\nADD r, r, t;\nADD r, r, two[i.y + 1][1];\nMAD r, allw[i.y][i.x], one[1], one[i.x];\nLDC.F32X4 s, cbr[i.y + 1][i.x];\nADD r, r, s;\nADD result.color, r, u;\nEND\n";
    for env in ENVS {
        crate::compile(ranges, &options(env)).unwrap_or_else(|d| panic!("{env:?}: {d:?}"));
    }
    // One declaration: reading one binding point of it is no W0002 (and
    // declares that binding point's block only); with a register picking
    // the binding point the reflection lists every binding point's block
    // and names each element by binding point.
    let one = crate::compile(
        "!!NVfp5.0\nBUFFER4 b[] = { program.buffer[1..3][0..1] };\nMOV result.color, b[2][1];\nEND\n",
        &crate::Options::default(),
    )
    .unwrap();
    assert_eq!(one.warnings.iter().count(), 0);
    assert_eq!(one.reflection.uniform_blocks.len(), 1);
    let picked = crate::compile(
        "!!NVfp5.0\nBUFFER4 b[] = { program.buffer[1..3][0..1] };\nINT TEMP i;\nMOV.S i, 1;\nMOV result.color, b[i.x][1];\nEND\n",
        &crate::Options::default(),
    )
    .unwrap();
    let blocks: Vec<(String, Vec<Vec<String>>)> = picked
        .reflection
        .uniform_blocks
        .iter()
        .map(|b| {
            let names = b.parameters.iter().map(|p| p.names.clone()).collect();
            (b.binding_name.clone(), names)
        })
        .collect();
    let named = |b: u32, k: u32| {
        (
            format!("program.buffer[{b}]"),
            vec![vec![format!("b[{k}][0]")], vec![format!("b[{k}][1]")]],
        )
    };
    assert_eq!(blocks, [named(1, 0), named(2, 1), named(3, 2)]);
    let nv5 = |decl: &str, use_: &str| {
        format!("!!NVfp5.0\n{decl}\nINT TEMP i;\nTEMP r;\nMOV.S i, 1;\n{use_}\nMOV result.color, r;\nEND\n")
    };
    for (src, code) in [
        (
            "!!NVfp4.0\nBUFFER b[] = { program.buffer[0..2] };\nMOV result.color, 0;\nEND\n"
                .to_string(),
            "E0203",
        ),
        (
            nv5("BUFFER4 b[] = { program.buffer[3..2] };", "MOV r, b[0][0];"),
            "E0202",
        ),
        (
            nv5(
                "BUFFER4 b[] = { program.buffer[12..14] };",
                "MOV r, b[0][0];",
            ),
            "E1280",
        ),
        (
            nv5(
                "CBUFFER cb[] = { program.buffer[0..14] };",
                "LDC.F32 r, cb[0][0];",
            ),
            "E1280",
        ),
        (
            nv5("BUFFER4 b[] = { program.buffer[1..2] };", "MOV r, b[2][0];"),
            "E1281",
        ),
        (
            nv5("BUFFER4 b = program.buffer[1..2][0];", "MOV r, b;"),
            "E1281",
        ),
        (
            nv5(
                "CBUFFER cb[] = { program.buffer[1..2] };",
                "LDC.F32 r, cb[3][0];",
            ),
            "E1281",
        ),
        (
            nv5(
                "BUFFER4 b[] = { program.buffer[1..2][0], program.buffer[1][1] };",
                "MOV r, b[0][0];",
            ),
            "E0330",
        ),
        (nv5("BUFFER4 b[3][] = { program.buffer[1..2] };", "MOV r, b[1][0];"), "E1282"),
        (nv5("BUFFER4 b[2][] = { program.buffer[1] };", "MOV r, b[1];"), "E1282"),
        (
            "!!NVfp4.0\nBUFFER4 b[1][2] = { program.buffer[0][0..1] };\nMOV result.color, b[0];\nEND\n".to_string(),
            "E1282",
        ),
    ] {
        assert_eq!(first_code(&src), code, "{src}");
    }
    // A buffer of a storage range picked by a register: lowered.
    let picked = "!!NVcp5.0\nOPTION NV_shader_storage_buffer;\nOPTION NV_shader_atomic_int64;\nOPTION NV_shader_atomic_fp16_vector;\nGROUP_SIZE 1;\nSTORAGE sb[] = { program.storage[0..2] };\nINT TEMP i;\nUINT TEMP r;\nLONG UINT TEMP d;\nTEMP f;\nMOV.S i, 1;\nLDB.U32 r.x, sb[i.x][4];\nSTB.U16 r.x, sb[i.x + 1][2];\nATOMB.ADD.U32 r.y, r.x, sb[i.x - 1][8];\nATOMB.ADD.U64 d.x, d.x, sb[i.x][8];\nATOMB.ADD.F16X2 f, f, sb[i.x][0];\nEND\n";
    compiles_in_every_env_or_gives(picked, None, |_| {});
}

/// NV_shader_atomic_fp16_vector's ATOMIM.F16X2: the unit is declared R32ui
/// and updated with a compare-and-swap loop on the word of two halves; the
/// module validates in every target env, and reflection says the data is
/// rg16f.
#[test]
fn image_atomic_f16x2_is_a_cas_loop_on_an_r32ui_image_in_every_env() {
    let src = "!!NVcp5.0\nOPTION NV_shader_atomic_fp16_vector;\nGROUP_SIZE 1;\nTEMP r;\nATOMIM.ADD.F16X2 r, {0.5, -3, 0, 0}, {1, 0, 0, 0}, image[0], 1D;\nATOMIM.MAX.F16X2 r, r, {0, 0, 0, 0}, image[0], 1D;\nSTOREIM.F32X4 image[1], r, {0, 0, 0, 0}, 1D;\nEND\n";
    for env in ENVS {
        let compiled = crate::compile(src, &options(env)).expect("compiles");
        let text = disassemble(&compiled.spirv).unwrap_or_default();
        assert!(text.contains("R32ui"), "{text}");
        assert!(text.contains("OpAtomicCompareExchange"), "{text}");
        let unit = &compiled.reflection.images[0];
        assert_eq!(unit.format.as_deref(), Some("r32ui"));
        assert_eq!(unit.data_format.as_deref(), Some("rg16f"));
    }
}

/// A unit ATOMIM.F16X2 uses and LOADIM/STOREIM read and write (F16X2, and
/// a formatted F store) is one R32ui declaration, its loads and stores
/// word reads and writes packed and unpacked (no Rg16f image at all);
/// ATOMIM.F16X4 on BUFFER (a unit, and a handle) goes through R32ui
/// texel buffers, two words a texel; ATOMIM.F16X2 through a handle
/// through the target's R32ui handle array. Every module validates in
/// every target env; reflection gives the data formats.
#[test]
fn halves_image_atomics_share_the_r32ui_declaration_in_every_env() {
    let head = "!!NVcp5.0\nOPTION NV_shader_atomic_fp16_vector;\nOPTION NV_gpu_program5_mem_extended;\nOPTION NV_bindless_texture;\nGROUP_SIZE 1;\nTEMP r, s;\nUINT TEMP h;\nMOV.U h, 1;\n";
    let units = "LOADIM.F16X2 r, {0, 0, 0, 0}, image[0], 2D;\nATOMIM.ADD.F16X2 s, r, {1, 0, 0, 0}, image[0], 2D;\nSTOREIM.F16X2 image[0], s, {2, 0, 0, 0}, 2D;\nSTOREIM.F image[0], r, {3, 0, 0, 0}, 2D;\nLOADIM.F16X4 r, {0, 0, 0, 0}, image[1], BUFFER;\nATOMIM.MAX.F16X4 s, r, {1, 0, 0, 0}, image[1], BUFFER;\nSTOREIM.F16X4 image[1], s, {2, 0, 0, 0}, BUFFER;\n";
    // One handle array per program: two exceed the default 8 storage
    // images per stage (E1199).
    let handle_2d = "ATOMIM.ADD.F16X2 s, r, {0, 0, 0, 0}, handle(h.x), 2D;\n";
    let handle_buffer = "ATOMIM.ADD.F16X4 s, r, {0, 0, 0, 0}, handle(h.x), BUFFER;\n";
    // A register-indexed IMAGE array over a word-view unit and a plain
    // rg16f one: each unit's access its own way.
    let picked = "IMAGE imgs[] = { image[0..1] };\nINT TEMP k;\nMOV.S k, {0, 1, 0, 0};\nATOMIM.ADD.F16X2 s, r, {0, 0, 0, 0}, image[0], 2D;\nLOADIM.F16X2 r, {0, 0, 0, 0}, imgs[k.y], 2D;\nSTOREIM.F16X2 imgs[k.x], r, {1, 0, 0, 0}, 2D;\nSTOREIM.F imgs[k.y], r, {1, 0, 0, 0}, 2D;\n";
    compiles_in_every_env_or_gives(&format!("{head}{picked}END\n"), None, |_| {});
    for env in ENVS {
        let compile = |body: &str| {
            let compiled =
                crate::compile(&format!("{head}{body}END\n"), &options(env)).expect("compiles");
            let text = disassemble(&compiled.spirv).unwrap_or_default();
            assert!(
                !text.contains("Rg16f") && !text.contains("Rgba16f"),
                "{text}"
            );
            compiled.reflection
        };
        let r = compile(units);
        let formats: Vec<_> = r
            .images
            .iter()
            .map(|i| (i.format.as_deref(), i.data_format.as_deref()))
            .collect();
        assert_eq!(
            formats,
            [
                (Some("r32ui"), Some("rg16f")),
                (Some("r32ui"), Some("rgba16f"))
            ]
        );
        for (body, target, data) in [
            (handle_2d, "2D", "rg16f"),
            (handle_buffer, "BUFFER", "rgba16f"),
        ] {
            let r = compile(body);
            let a = &r.bindless_images[0];
            assert_eq!(
                (
                    a.target.as_str(),
                    a.format.as_deref(),
                    a.data_format.as_deref()
                ),
                (target, Some("r32ui"), Some(data))
            );
        }
    }
}

// ---- registers' values within straight-line code (operand::RegisterValues)

/// The OpLoads in the module's functions whose pointer is the variable
/// named `name`, or an element of it.
fn loads_of(words: &[u32], name: &str) -> usize {
    let m = module(words);
    let var = m
        .debug_names
        .iter()
        .find(|i| {
            i.class.opcode == Op::Name
                && matches!(i.operands.get(1), Some(SpvOperand::LiteralString(s)) if s == name)
        })
        .and_then(|i| i.operands.first().and_then(|o| o.id_ref_any()))
        .unwrap_or_else(|| panic!("no variable named {name}"));
    let instructions: Vec<&dr::Instruction> = m
        .functions
        .iter()
        .flat_map(|f| f.blocks.iter())
        .flat_map(|b| b.instructions.iter())
        .collect();
    let elements: Vec<u32> = instructions
        .iter()
        .filter(|i| i.class.opcode == Op::AccessChain)
        .filter(|i| i.operands.first().and_then(|o| o.id_ref_any()) == Some(var))
        .filter_map(|i| i.result_id)
        .collect();
    instructions
        .iter()
        .filter(|i| i.class.opcode == Op::Load)
        .filter_map(|i| i.operands.first().and_then(|o| o.id_ref_any()))
        .filter(|p| *p == var || elements.contains(p))
        .count()
}

fn compiled(src: &str) -> Vec<u32> {
    match crate::compile(src, &crate::Options::default()) {
        Ok(c) => c.spirv,
        Err(d) => panic!("{src} does not compile: {d:?}"),
    }
}

/// A register written earlier in the same block is read from the value
/// written, whole or merged under a write mask; the writes are still
/// stored (NV_gpu_program4 2.X.4.3), so the block's reads load nothing.
#[test]
fn a_register_written_in_a_block_is_read_without_a_load() {
    let words = compiled(
        "!!NVfp4.0\nATTRIB a = fragment.attrib[0];\nTEMP r;\nMUL r, a, a;\nADD r, r, a;\nMUL r.xy, r, r;\nMOV result.color, r.wzyx;\nEND\n",
    );
    assert_eq!(loads_of(&words, "r"), 0);
    // A register read before any write in the block is loaded once.
    let words = compiled(
        "!!NVfp4.0\nATTRIB a = fragment.attrib[0];\nTEMP r;\nMOV r.x, a;\nADD r.y, r.x, r.z;\nMUL r.w, r.y, r.z;\nMOV result.color, r;\nEND\n",
    );
    assert_eq!(loads_of(&words, "r"), 1);
}

/// Every block begins knowing nothing: the IF's body and the code after
/// ENDIF (section 2.X.8.Z) load the register again.
#[test]
fn register_values_are_forgotten_at_every_block() {
    let words = compiled(
        "!!NVfp4.0\nATTRIB a = fragment.attrib[0];\nTEMP r;\nMOVC r, a;\nIF GT.x;\nADD r, r, a;\nENDIF;\nMOV result.color, r;\nEND\n",
    );
    assert_eq!(loads_of(&words, "r"), 2);
}

/// A subroutine writes the registers (Private variables when the program
/// has more than one function), so a read after CAL loads again; so does
/// the subroutine's own first read.
#[test]
fn register_values_are_forgotten_after_a_call() {
    let words = compiled(
        "!!NVfp4.0\nATTRIB a = fragment.attrib[0];\nTEMP r;\nMOV r, a;\nCAL s;\nMOV result.color, r;\nRET;\ns:\nADD r, r, a;\nRET;\nEND\n",
    );
    assert_eq!(loads_of(&words, "r"), 2);
}

/// A write at a relative address may change any element of the array:
/// after it, element 0 is loaded again, though it was written before.
#[test]
fn a_relative_write_forgets_the_whole_array() {
    let words = compiled(
        "!!NVfp4.0\nATTRIB a = fragment.attrib[0];\nTEMP t[2];\nINT TEMP i;\nMOV t[0], a;\nMOV t[1], a;\nTRUNC.S i.x, a.x;\nMOV t[i.x], a.yxzw;\nADD result.color, t[0], t[1];\nEND\n",
    );
    assert_eq!(loads_of(&words, "t"), 2);
    let words = compiled(
        "!!NVfp4.0\nATTRIB a = fragment.attrib[0];\nTEMP t[2];\nMOV t[0], a;\nMOV t[1], a.yxzw;\nADD result.color, t[0], t[1];\nEND\n",
    );
    assert_eq!(loads_of(&words, "t"), 0);
}

/// ARB_precision_hint_fastest relaxes every float result (docs/semantics.md);
/// a MOV of a register written earlier in the block moves that
/// register's value itself, which the MUL that computed it already
/// decorated: it is not decorated again (twice is invalid SPIR-V, and it
/// would relax the MUL for its other readers).
#[test]
fn a_relaxed_move_of_a_known_register_value_validates() {
    let words = compiled(
        "!!ARBfp1.0\nOPTION ARB_precision_hint_fastest;\nTEMP a, b;\nMUL a, fragment.texcoord[0], fragment.texcoord[1];\nMOV b, a;\nMOV b.x, a;\nADD result.color, a, b;\nEND\n",
    );
    assert_eq!(loads_of(&words, "a"), 0);
}

/// Inputs and `program.env` elements do not change while the program
/// runs: a block loads each once however often its instructions read it.
#[test]
fn inputs_and_parameters_are_loaded_once_per_block() {
    let words = compiled(
        "!!ARBvp1.0\nPARAM c[2] = { program.env[0..1] };\nTEMP r;\nDP4 r.x, c[0], vertex.attrib[0];\nDP4 r.y, c[0], vertex.attrib[0];\nDP4 r.z, c[1], vertex.attrib[0];\nMOV result.position, r;\nEND\n",
    );
    assert_eq!(loads_of(&words, "in_loc0"), 1);
    assert_eq!(loads_of(&words, "program_env"), 2);
}

/// Issue 17, docs/performance.md "Session 10": DP4's scalar result
/// written to one component of `result.position` is inserted into the
/// value the block last stored there (one load of the output, before the
/// first write; no broadcast, no shuffle), and `vertex.position`'s four
/// components are extracted once for the four DP4s: 4 × 4 components of
/// the four `mvp` rows + 4 of the position = 20 extracts.
#[test]
fn scalar_results_to_one_component_are_inserted_into_the_known_output() {
    let words = compiled(
        "!!NVvp4.0\nPARAM mvp[4] = { program.env[0..3] };\nATTRIB p = vertex.position;\nDP4 result.position.x, mvp[0], p;\nDP4 result.position.y, mvp[1], p;\nDP4 result.position.z, mvp[2], p;\nDP4 result.position.w, mvp[3], p;\nEND\n",
    );
    let m = module(&words);
    let ops = |op: Op| {
        m.functions
            .iter()
            .flat_map(|f| f.blocks.iter())
            .flat_map(|b| b.instructions.iter())
            .filter(|i| i.class.opcode == op)
            .count()
    };
    assert_eq!(ops(Op::CompositeInsert), 4);
    assert_eq!(ops(Op::VectorShuffle), 0);
    assert_eq!(ops(Op::CompositeConstruct), 0);
    assert_eq!(ops(Op::CompositeExtract), 20);
    assert_eq!(loads_of(&words, "builtin0"), 1);
}
