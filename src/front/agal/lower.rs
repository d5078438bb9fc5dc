//! Checked AGAL tokens → the IR ([`crate::ir`]), with instructions of the
//! instruction table ([`crate::isa`]), so the SPIR-V backend, the
//! interpreter, the reflection and the pipeline checks need nothing
//! AGAL-specific. docs/semantics.md ("AGAL") gives the reasons; in short:
//!
//! * registers: `va<n>` → `vertex.attrib[n]`; `vc`/`fc` → one array of
//!   `program.env[0..]` of the profile's size (relative addresses index it);
//!   `vt`/`ft` → float temporaries; `v<n>` → `result.attrib[n]` /
//!   `fragment.attrib[n]`; `op` → `result.position`; `oc<n>` →
//!   `result.color[n]`; `od` → the depth (`result.depth.z` from od's x);
//!   `fs<n>`/`vs<n>` → `texture[n]`; `iid` → `vertex.instance` as a float;
//! * component-wise opcodes whose IR twin is scalar (`rcp`, `rsq`, `log`,
//!   `exp`, `sin`, `cos`, `pow`, `div`, `sqt`) become one instruction per
//!   written component, through a temporary when the destination is also
//!   a source; `m33`/`m34`/`m44` one dot product per row;
//! * `ife`/`ine`/`ifg`/`ifl` compare into a temporary with SEQ/SNE/SGT/SLT
//!   (all four components must pass, as ruffle reads it), set CC0 and open
//!   an `If` on NE;
//! * `vc[va0.x+5]`: TRUNC.S of the index component into an integer
//!   temporary, then the IR's relative index (clamped into the array).

use std::collections::{BTreeSet, HashMap};

use super::check::Checked;
use super::decode::{SamplerField, SourceField, Token};
use super::table::{Comparison, Modifier, OpDef, RegisterType, Semantics};
use super::{AgalOptions, Unit};
use crate::ir::{
    self, AttribBinding, Block, CcReg, CcTest, Clamp, Dest, Index, Instruction, KillCondition,
    Literal, Operand, ParamBinding, Program, ResultBinding, Stmt, SubId, Subroutine, Swizzle,
    TexAccess, TexTarget, VarId, VarKind, VarType, Variable, WriteMask,
};
use crate::isa::{CcCondition, DataType, Opcode};
use crate::span::Span;
use crate::Stage;

/// An open `ife` ... `eif` block.
struct Frame {
    test: CcTest,
    span: Span,
    then_block: Block,
    else_block: Option<Block>,
}

struct Lowerer<'u> {
    unit: &'u Unit,
    stage: Stage,
    vars: Vec<Variable>,
    regs: HashMap<(RegisterType, u32), VarId>,
    /// Result variables behind a shadow temporary: (shadow, result, how to copy).
    shadows: Vec<(VarId, VarId, Copy)>,
    shadowed: BTreeSet<(RegisterType, u32)>,
    constants: HashMap<u32, VarId>,
    addresses: [Option<VarId>; 3],
    scratch: Vec<VarId>,
    scratch_used: usize,
    centroid_varyings: BTreeSet<u32>,
    prologue: Block,
    body: Block,
    frames: Vec<Frame>,
    flip_y: bool,
}

/// How a shadowed result is written at the end of the program.
#[derive(Clone, Copy)]
enum Copy {
    All,
    /// `result.position` from Stage3D's clip space: y negated.
    FlipY,
    /// `result.depth.z` from the shadow's x.
    Depth,
}

fn swizzle_of(byte: u8) -> Swizzle {
    Swizzle(std::array::from_fn(|i| (byte >> (2 * i)) & 3))
}

fn is_replicated(s: Swizzle) -> bool {
    s.0.iter().all(|&c| c == s.0[0])
}

impl Lowerer<'_> {
    fn add_var(
        &mut self,
        name: String,
        kind: VarKind,
        ty: VarType,
        array_len: Option<u32>,
        span: Span,
    ) -> VarId {
        self.vars.push(Variable {
            name: Some(name),
            span,
            kind,
            ty,
            precision: ir::Precision::Default,
            array_len,
            interpolation: ir::Interpolation::default(),
        });
        VarId(self.vars.len() as u32 - 1)
    }

    fn temp(&mut self, name: String, span: Span) -> VarId {
        self.add_var(
            name,
            VarKind::Temp,
            VarType::Typed(DataType::Float),
            None,
            span,
        )
    }

    /// A scratch temporary, fresh within one token.
    fn scratch(&mut self, span: Span) -> VarId {
        if self.scratch_used == self.scratch.len() {
            let v = self.temp(format!("tmp{}", self.scratch.len()), span);
            self.scratch.push(v);
        }
        self.scratch_used += 1;
        self.scratch[self.scratch_used - 1]
    }

    /// The variable and element of register `number` of type `rt`.
    fn register(&mut self, rt: RegisterType, number: u32, span: Span) -> (VarId, Index) {
        let stage = self.stage;
        let name = rt.name(stage).unwrap_or("?");
        if rt == RegisterType::Constant {
            let v = match self.regs.get(&(rt, 0)) {
                Some(&v) => v,
                None => {
                    let count = rt.count(stage, self.unit.version);
                    let bindings = (0..count).map(ParamBinding::Env).collect();
                    let v = self.add_var(
                        name.into(),
                        VarKind::Param(bindings),
                        VarType::Typeless,
                        Some(count),
                        span,
                    );
                    self.regs.insert((rt, 0), v);
                    v
                }
            };
            return (v, Index::Absolute(number));
        }
        if let Some(&v) = self.regs.get(&(rt, number)) {
            return (v, Index::None);
        }
        let single = matches!(
            rt,
            RegisterType::Output | RegisterType::DepthOutput | RegisterType::InstanceId
        );
        let full = if single && number == 0 {
            name.to_string()
        } else {
            format!("{name}{number}")
        };
        let v = match rt {
            RegisterType::Attribute => self.add_var(
                full,
                VarKind::Attrib(vec![AttribBinding::Generic(number)]),
                VarType::Typeless,
                None,
                span,
            ),
            RegisterType::Temporary => self.temp(full, span),
            RegisterType::Varying if stage == Stage::Fragment => {
                let v = self.add_var(
                    full,
                    VarKind::Attrib(vec![AttribBinding::Generic(number)]),
                    VarType::Typeless,
                    None,
                    span,
                );
                if self.centroid_varyings.contains(&number) {
                    self.vars[v.0 as usize].interpolation.centroid = true;
                }
                v
            }
            RegisterType::InstanceId => {
                // vertex.instance is an integer; AGAL reads it as a float.
                let id = self.add_var(
                    "vertex.instance".into(),
                    VarKind::Attrib(vec![AttribBinding::InstanceId]),
                    VarType::Typeless,
                    None,
                    span,
                );
                let f = self.temp(full, span);
                let load = self.instruction(
                    Opcode::I2f,
                    DataType::Signed,
                    Dest {
                        var: f,
                        index: Index::None,
                        mask: WriteMask::ALL,
                        cc_mask: None,
                        ty: DataType::Float,
                        span,
                    },
                    vec![self.operand_of(
                        id,
                        Index::None,
                        Swizzle::IDENTITY,
                        DataType::Signed,
                        span,
                    )],
                    span,
                );
                self.prologue.push(load);
                f
            }
            RegisterType::Varying | RegisterType::Output | RegisterType::DepthOutput => {
                let binding = match (rt, stage) {
                    (RegisterType::Varying, _) => ResultBinding::Generic(number),
                    (RegisterType::DepthOutput, _) => ResultBinding::Depth,
                    (_, Stage::Fragment) => ResultBinding::FragColor(number),
                    _ => ResultBinding::Position,
                };
                let result = self.add_var(
                    full.clone(),
                    VarKind::Result(vec![binding]),
                    VarType::Typeless,
                    None,
                    span,
                );
                if self.shadowed.contains(&(rt, number)) {
                    let shadow = self.temp(full, span);
                    let copy = match rt {
                        RegisterType::DepthOutput => Copy::Depth,
                        RegisterType::Output if self.flip_y && stage == Stage::Vertex => {
                            Copy::FlipY
                        }
                        _ => Copy::All,
                    };
                    self.shadows.push((shadow, result, copy));
                    shadow
                } else {
                    result
                }
            }
            // Samplers are texture units, not variables; the checker
            // refused them as operands.
            RegisterType::Sampler | RegisterType::Constant => self.temp(full, span),
        };
        self.regs.insert((rt, number), v);
        (v, Index::None)
    }

    fn operand_of(
        &self,
        var: VarId,
        index: Index,
        swizzle: Swizzle,
        ty: DataType,
        span: Span,
    ) -> Operand {
        Operand {
            var,
            index,
            swizzle,
            negate: false,
            abs: false,
            negate_abs: false,
            ty,
            span,
        }
    }

    fn instruction(
        &self,
        op: Opcode,
        ty: DataType,
        dst: Dest,
        srcs: Vec<Operand>,
        span: Span,
    ) -> Stmt {
        Stmt::Inst(Instruction {
            op,
            ty,
            half: false,
            fixed: false,
            clamp: None,
            cc_update: None,
            mul_mode: None,
            precision64: false,
            convert: None,
            dst,
            srcs,
            ext_swizzle: None,
            tex: None,
            memory: None,
            image: None,
            span,
        })
    }

    fn emit(&mut self, s: Stmt) {
        match self.frames.last_mut() {
            Some(f) => match &mut f.else_block {
                Some(b) => b.push(s),
                None => f.then_block.push(s),
            },
            None => self.body.push(s),
        }
    }

    fn float_inst(&mut self, op: Opcode, dst: Dest, srcs: Vec<Operand>, span: Span) {
        let s = self.instruction(op, DataType::Float, dst, srcs, span);
        self.emit(s);
    }

    fn dest_of(&self, var: VarId, mask: u8, span: Span) -> Dest {
        Dest {
            var,
            index: Index::None,
            mask: WriteMask(mask),
            cc_mask: None,
            ty: DataType::Float,
            span,
        }
    }

    /// A literal vec4 (every component `value`).
    fn constant(&mut self, value: f32, span: Span) -> VarId {
        if let Some(&v) = self.constants.get(&value.to_bits()) {
            return v;
        }
        self.vars.push(Variable {
            name: None,
            span,
            kind: VarKind::Param(vec![ParamBinding::Constant(
                [Literal::Float(f64::from(value)); 4],
            )]),
            ty: VarType::Typeless,
            precision: ir::Precision::Default,
            array_len: None,
            interpolation: ir::Interpolation::default(),
        });
        let v = VarId(self.vars.len() as u32 - 1);
        self.constants.insert(value.to_bits(), v);
        v
    }

    /// Loads source `s` (its row `row` for matrices) of token `t`.
    fn source(&mut self, t: &Token, slot: usize, s: &SourceField, row: u32) -> Operand {
        let span = self.span(t, slot);
        let swizzle = swizzle_of(s.swizzle);
        let rt = RegisterType::from_bits(s.ty).unwrap_or(RegisterType::Temporary);
        if s.indirect {
            let address = match self.addresses[slot] {
                Some(a) => a,
                None => {
                    let a = self.add_var(
                        format!("addr{slot}"),
                        VarKind::Temp,
                        VarType::Typed(DataType::Signed),
                        None,
                        span,
                    );
                    self.addresses[slot] = Some(a);
                    a
                }
            };
            if row == 0 {
                let it = RegisterType::from_bits(s.index_ty).unwrap_or(RegisterType::Temporary);
                let (iv, ii) = self.register(it, u32::from(s.number), span);
                let index = self.operand_of(
                    iv,
                    ii,
                    Swizzle::splat(s.index_select),
                    DataType::Float,
                    span,
                );
                let dst = Dest {
                    var: address,
                    index: Index::None,
                    mask: WriteMask(1),
                    cc_mask: None,
                    ty: DataType::Signed,
                    span,
                };
                let trunc =
                    self.instruction(Opcode::Trunc, DataType::Signed, dst, vec![index], span);
                self.emit(trunc);
            }
            let (var, _) = self.register(rt, 0, span);
            let address = self.operand_of(
                address,
                Index::None,
                Swizzle::splat(0),
                DataType::Signed,
                span,
            );
            return self.operand_of(
                var,
                Index::Relative {
                    address: Box::new(address),
                    offset: i32::from(s.offset) + row as i32,
                },
                swizzle,
                DataType::Float,
                span,
            );
        }
        let (var, index) = self.register(rt, u32::from(s.number) + row, span);
        self.operand_of(var, index, swizzle, DataType::Float, span)
    }

    fn span(&self, t: &Token, slot: usize) -> Span {
        let s = &self.unit.spans[t.index];
        s.operands[slot].unwrap_or(s.line)
    }

    fn lower_token(&mut self, t: &Token, op: &OpDef) {
        self.scratch_used = 0;
        let line = self.unit.spans[t.index].line;
        let dest = t.dest();
        let dspan = self.span(t, 0);
        let dest_reg = (
            RegisterType::from_bits(dest.ty).unwrap_or(RegisterType::Temporary),
            u32::from(dest.number),
        );
        let mask = dest.mask;
        let (dvar, _) = if op.operands.has_dest() {
            self.register(dest_reg.0, dest_reg.1, dspan)
        } else {
            (VarId(0), Index::None)
        };
        let dst = self.dest_of(dvar, mask, dspan);
        // Whether the destination register is also read (then per-component
        // expansions go through a temporary).
        let reads_dest = |s: &SourceField, rows: u32| {
            !s.indirect
                && RegisterType::from_bits(s.ty) == Some(dest_reg.0)
                && (u32::from(s.number)..u32::from(s.number) + rows).contains(&dest_reg.1)
        };
        let components = (0..4u8)
            .filter(|c| mask & (1 << c) != 0)
            .collect::<Vec<_>>();
        match op.semantics {
            Semantics::Componentwise(nv) | Semantics::Direct(nv) => {
                let mut srcs = vec![self.source(t, 1, &t.source1(), 0)];
                if op.operands.sources() == 2 {
                    srcs.push(self.source(t, 2, &t.source2(), 0));
                }
                let xyz_only = op.written == super::table::Written::Xyz;
                let d = Dest {
                    mask: WriteMask(if xyz_only { mask & 7 } else { mask }),
                    ..dst
                };
                if d.mask.0 != 0 {
                    self.float_inst(nv, d, srcs, line);
                }
                if xyz_only && mask & 8 != 0 {
                    self.one_to_w(dvar, dspan, line);
                }
            }
            Semantics::Modified(m) => {
                let mut a = self.source(t, 1, &t.source1(), 0);
                let mut clamp = None;
                match m {
                    Modifier::Abs => a.abs = true,
                    Modifier::Negate => a.negate = true,
                    Modifier::Saturate => clamp = Some(Clamp::Sat),
                }
                let mut s = self.instruction(Opcode::Mov, DataType::Float, dst, vec![a], line);
                if let Stmt::Inst(i) = &mut s {
                    i.clamp = clamp;
                }
                self.emit(s);
            }
            Semantics::PerComponent(nv) => {
                let two = op.operands.sources() == 2;
                let a = self.source(t, 1, &t.source1(), 0);
                let b = two.then(|| self.source(t, 2, &t.source2(), 0));
                let aliased = reads_dest(&t.source1(), 1) || (two && reads_dest(&t.source2(), 1));
                let target = if aliased { self.scratch(line) } else { dvar };
                for &c in &components {
                    let mut srcs = vec![Operand {
                        swizzle: Swizzle::splat(a.swizzle.0[c as usize]),
                        ..a.clone()
                    }];
                    if let Some(b) = &b {
                        srcs.push(Operand {
                            swizzle: Swizzle::splat(b.swizzle.0[c as usize]),
                            ..b.clone()
                        });
                    }
                    let d = self.dest_of(target, 1 << c, dspan);
                    self.float_inst(nv, d, srcs, line);
                }
                if aliased {
                    let from = self.operand_of(
                        target,
                        Index::None,
                        Swizzle::IDENTITY,
                        DataType::Float,
                        dspan,
                    );
                    self.float_inst(Opcode::Mov, dst, vec![from], line);
                }
            }
            Semantics::Divide => {
                let a = self.source(t, 1, &t.source1(), 0);
                let b = self.source(t, 2, &t.source2(), 0);
                let aliased = reads_dest(&t.source1(), 1) || reads_dest(&t.source2(), 1);
                let target = if aliased { self.scratch(line) } else { dvar };
                for &c in &components {
                    let divisor = Operand {
                        swizzle: Swizzle::splat(b.swizzle.0[c as usize]),
                        ..b.clone()
                    };
                    let d = self.dest_of(target, 1 << c, dspan);
                    self.float_inst(Opcode::Div, d, vec![a.clone(), divisor], line);
                }
                if aliased {
                    let from = self.operand_of(
                        target,
                        Index::None,
                        Swizzle::IDENTITY,
                        DataType::Float,
                        dspan,
                    );
                    self.float_inst(Opcode::Mov, dst, vec![from], line);
                }
            }
            Semantics::SquareRoot => {
                // sqrt(x) = 1 / rsq(x): exact at 0 (rsq(+0) = +INF, rcp(+INF) = +0)
                // and INF, NaN for x < 0; the pair is what D3D9 compiles sqrt to.
                let a = self.source(t, 1, &t.source1(), 0);
                let r = self.scratch(line);
                for &c in &components {
                    let d = self.dest_of(r, 1 << c, dspan);
                    let x = Operand {
                        swizzle: Swizzle::splat(a.swizzle.0[c as usize]),
                        ..a.clone()
                    };
                    self.float_inst(Opcode::Rsq, d, vec![x], line);
                }
                for &c in &components {
                    let d = self.dest_of(dvar, 1 << c, dspan);
                    let x =
                        self.operand_of(r, Index::None, Swizzle::splat(c), DataType::Float, dspan);
                    self.float_inst(Opcode::Rcp, d, vec![x], line);
                }
            }
            Semantics::Matrix { columns } => {
                let rows = if op.written == super::table::Written::Xyz {
                    3
                } else {
                    4
                };
                let a = self.source(t, 1, &t.source1(), 0);
                let row_ops: Vec<Operand> = (0..rows)
                    .map(|r| self.source(t, 2, &t.source2(), r))
                    .collect();
                let aliased = reads_dest(&t.source1(), 1) || reads_dest(&t.source2(), rows);
                let target = if aliased { self.scratch(line) } else { dvar };
                let dp = if columns == 3 {
                    Opcode::Dp3
                } else {
                    Opcode::Dp4
                };
                for &c in &components {
                    if c as usize >= row_ops.len() {
                        self.one_to_w(target, dspan, line);
                        continue;
                    }
                    let d = self.dest_of(target, 1 << c, dspan);
                    self.float_inst(dp, d, vec![a.clone(), row_ops[c as usize].clone()], line);
                }
                if aliased {
                    let from = self.operand_of(
                        target,
                        Index::None,
                        Swizzle::IDENTITY,
                        DataType::Float,
                        dspan,
                    );
                    self.float_inst(Opcode::Mov, dst, vec![from], line);
                }
            }
            Semantics::Compare(cmp) => {
                let a = self.source(t, 1, &t.source1(), 0);
                let b = self.source(t, 2, &t.source2(), 0);
                let nv = match cmp {
                    Comparison::Equal => Opcode::Seq,
                    Comparison::NotEqual => Opcode::Sne,
                    Comparison::Greater => Opcode::Sgt,
                    Comparison::Less => Opcode::Slt,
                };
                let r = self.scratch(line);
                let set_cc = |s: &mut Stmt| {
                    if let Stmt::Inst(i) = s {
                        i.cc_update = Some(CcReg(0));
                    }
                };
                if is_replicated(a.swizzle) && is_replicated(b.swizzle) {
                    let d = self.dest_of(r, 1, line);
                    let mut s = self.instruction(nv, DataType::Float, d, vec![a, b], line);
                    set_cc(&mut s);
                    self.emit(s);
                } else {
                    // All four comparisons must hold: their 0/1 results multiplied.
                    let d = self.dest_of(r, 0xf, line);
                    self.float_inst(nv, d, vec![a, b], line);
                    let d = self.dest_of(r, 3, line);
                    let all =
                        self.operand_of(r, Index::None, Swizzle::IDENTITY, DataType::Float, line);
                    let zw = self.operand_of(
                        r,
                        Index::None,
                        Swizzle([2, 3, 2, 3]),
                        DataType::Float,
                        line,
                    );
                    self.float_inst(Opcode::Mul, d, vec![all, zw], line);
                    let d = self.dest_of(r, 1, line);
                    let x =
                        self.operand_of(r, Index::None, Swizzle::splat(0), DataType::Float, line);
                    let y =
                        self.operand_of(r, Index::None, Swizzle::splat(1), DataType::Float, line);
                    let mut s = self.instruction(Opcode::Mul, DataType::Float, d, vec![x, y], line);
                    set_cc(&mut s);
                    self.emit(s);
                }
                self.frames.push(Frame {
                    test: CcTest {
                        condition: CcCondition::Ne,
                        reg: CcReg(0),
                        swizzle: Swizzle::splat(0),
                    },
                    span: line,
                    then_block: Vec::new(),
                    else_block: None,
                });
            }
            Semantics::Flow => {
                if op.flow == super::table::Flow::Else {
                    if let Some(f) = self.frames.last_mut() {
                        f.else_block = Some(Vec::new());
                    }
                } else if let Some(f) = self.frames.pop() {
                    self.emit(Stmt::If {
                        test: f.test,
                        then_block: f.then_block,
                        else_block: f.else_block.unwrap_or_default(),
                        span: f.span,
                    });
                }
            }
            Semantics::Kill => {
                // Discard when any component of the (swizzled) source is
                // negative: OpenFL's reading; the assembler's `kil ft0.x`
                // replicates one component, where every reading agrees.
                let a = self.source(t, 1, &t.source1(), 0);
                self.emit(Stmt::Kill {
                    cond: KillCondition::Operand(a),
                    span: line,
                });
            }
            Semantics::Sample => {
                let s = t.sampler();
                self.sample(t, &s, dst, line);
            }
        }
    }

    /// w of a 3-component result (nrm, crs, m33, m34) written anyway:
    /// 1.0, as ruffle writes it (W2040).
    fn one_to_w(&mut self, var: VarId, dspan: Span, line: Span) {
        let one = self.constant(1.0, line);
        let d = self.dest_of(var, 8, dspan);
        let src = self.operand_of(one, Index::None, Swizzle::IDENTITY, DataType::Float, line);
        self.float_inst(Opcode::Mov, d, vec![src], line);
    }

    fn sample(&mut self, t: &Token, s: &SamplerField, dst: Dest, line: Span) {
        let target = match s.dimension {
            1 => TexTarget::Cube,
            2 => TexTarget::T3D,
            _ => TexTarget::T2D,
        };
        let coord = self.source(t, 1, &t.source1(), 0);
        let bias = f32::from(s.lod_bias) / 8.0;
        let access = TexAccess::fixed(u32::from(s.number), target);
        let (op, coord) = if s.lod_bias == 0 {
            (Opcode::Tex, coord)
        } else {
            // TXB (fragment) adds w to the implicit level of detail; in a
            // vertex program (`tld`) there is none, so the bias is the level
            // itself (TXL).
            let r = self.scratch(line);
            let d = self.dest_of(r, 0x7, line);
            self.float_inst(Opcode::Mov, d, vec![coord], line);
            let k = self.constant(bias, line);
            let d = self.dest_of(r, 0x8, line);
            let kv = self.operand_of(k, Index::None, Swizzle::IDENTITY, DataType::Float, line);
            self.float_inst(Opcode::Mov, d, vec![kv], line);
            let op = if self.stage == Stage::Fragment {
                Opcode::Txb
            } else {
                Opcode::Txl
            };
            (
                op,
                self.operand_of(r, Index::None, Swizzle::IDENTITY, DataType::Float, line),
            )
        };
        let mut st = self.instruction(op, DataType::Float, dst, vec![coord], line);
        if let Stmt::Inst(i) = &mut st {
            i.tex = Some(Box::new(access));
        }
        self.emit(st);
    }
}

/// The IR of a checked unit.
pub(crate) fn lower(unit: &Unit, checked: &Checked, options: &AgalOptions) -> Program {
    let stage = unit.stage;
    let mut shadowed = BTreeSet::new();
    let mut centroid_varyings = BTreeSet::new();
    for t in &unit.tokens {
        let Some(op) = OpDef::by_code(t.opcode) else {
            continue;
        };
        let sources: Vec<SourceField> = match op.operands.sources() {
            0 => vec![],
            1 => vec![t.source1()],
            _ if op.operands == super::table::Operands::DestSourceSampler => vec![t.source1()],
            _ => vec![t.source1(), t.source2()],
        };
        for s in &sources {
            // A vertex program reading back a varying reads a temporary
            // copied to the output at the end.
            if stage == Stage::Vertex && s.ty == RegisterType::Varying.bits() && !s.indirect {
                let rows = match op.semantics {
                    Semantics::Matrix { .. } => 4,
                    _ => 1,
                };
                for r in 0..rows {
                    shadowed.insert((RegisterType::Varying, u32::from(s.number) + r));
                }
            }
        }
        if op.operands == super::table::Operands::DestSourceSampler {
            let s1 = t.source1();
            if t.sampler().special & 1 != 0
                && stage == Stage::Fragment
                && s1.ty == RegisterType::Varying.bits()
                && !s1.indirect
            {
                centroid_varyings.insert(u32::from(s1.number));
            }
        }
    }
    shadowed.insert((RegisterType::DepthOutput, 0));
    if options.flip_y && stage == Stage::Vertex {
        shadowed.insert((RegisterType::Output, 0));
    }
    let mut l = Lowerer {
        unit,
        stage,
        vars: Vec::new(),
        regs: HashMap::new(),
        shadows: Vec::new(),
        shadowed,
        constants: HashMap::new(),
        addresses: [None; 3],
        scratch: Vec::new(),
        scratch_used: 0,
        centroid_varyings,
        prologue: Vec::new(),
        body: Vec::new(),
        frames: Vec::new(),
        flip_y: options.flip_y,
    };
    for t in &unit.tokens {
        if let Some(op) = OpDef::by_code(t.opcode) {
            l.lower_token(t, op);
        }
    }
    // Close what the checker reported as unclosed (it does not get here
    // with errors, but the IR stays well formed).
    while let Some(f) = l.frames.pop() {
        l.emit(Stmt::If {
            test: f.test,
            then_block: f.then_block,
            else_block: f.else_block.unwrap_or_default(),
            span: f.span,
        });
    }
    for (shadow, result, copy) in l.shadows.clone() {
        let span = l.vars[result.0 as usize].span;
        let from = |sw: Swizzle| Operand {
            var: shadow,
            index: Index::None,
            swizzle: sw,
            negate: false,
            abs: false,
            negate_abs: false,
            ty: DataType::Float,
            span,
        };
        match copy {
            Copy::All => {
                let d = l.dest_of(result, 0xf, span);
                l.float_inst(Opcode::Mov, d, vec![from(Swizzle::IDENTITY)], span);
            }
            Copy::FlipY => {
                let d = l.dest_of(result, 0xd, span);
                l.float_inst(Opcode::Mov, d, vec![from(Swizzle::IDENTITY)], span);
                let d = l.dest_of(result, 0x2, span);
                let mut y = from(Swizzle::IDENTITY);
                y.negate = true;
                l.float_inst(Opcode::Mov, d, vec![y], span);
            }
            Copy::Depth => {
                let d = l.dest_of(result, 0x4, span);
                l.float_inst(Opcode::Mov, d, vec![from(Swizzle::splat(0))], span);
            }
        }
    }
    let mut body = std::mem::take(&mut l.prologue);
    body.append(&mut l.body);
    let samplers = checked
        .samplers
        .iter()
        .filter(|(_, s)| s.special & 4 == 0)
        .map(|(&unit, s)| sampler_state(unit, s))
        .collect();
    Program {
        stage,
        options: Vec::new(),
        variables: l.vars,
        subroutines: vec![Subroutine {
            name: None,
            span: unit.header,
            body,
            end: ir::SubroutineEnd::Return,
        }],
        entry: SubId(0),
        geometry: None,
        tess_control: None,
        tess_eval: None,
        compute: None,
        samplers,
        // The IR's instructions with NV_gpu_program4's meaning (RSQ of the
        // value as it is, no colour clamping): docs/semantics.md, "AGAL",
        // defines each AGAL opcode by them.
        dialect: crate::isa::Dialect::nv4(stage),
        // AGAL has no calls.
        call_overflow: ir::CallOverflow::Skip,
    }
}

/// The Vulkan sampler state of an AGAL sampler field (docs/interface.md,
/// "AGAL"): anisotropic filters are linear with that anisotropy; a 3D
/// texture's r wraps like s.
pub(crate) fn sampler_state(unit: u32, s: &SamplerField) -> ir::SamplerState {
    use ir::{Filter, MipmapMode, TextureFormat, Wrap};
    let (wrap_u, wrap_v) = match s.wrap {
        1 => (Wrap::Repeat, Wrap::Repeat),
        2 => (Wrap::ClampToEdge, Wrap::Repeat),
        3 => (Wrap::Repeat, Wrap::ClampToEdge),
        _ => (Wrap::ClampToEdge, Wrap::ClampToEdge),
    };
    ir::SamplerState {
        unit,
        filter: if s.filter == 0 {
            Filter::Nearest
        } else {
            Filter::Linear
        },
        mipmap: match s.mipmap {
            1 => MipmapMode::Nearest,
            2 => MipmapMode::Linear,
            _ => MipmapMode::None,
        },
        wrap_u,
        wrap_v,
        wrap_w: wrap_u,
        max_anisotropy: if s.filter >= 2 {
            1 << (s.filter - 1)
        } else {
            1
        },
        format: match s.format {
            1 => TextureFormat::Dxt1,
            2 => TextureFormat::Dxt5,
            3 => TextureFormat::Video,
            _ => TextureFormat::Rgba,
        },
        centroid: s.special & 1 != 0,
        single: s.special & 2 != 0,
    }
}
