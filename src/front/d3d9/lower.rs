//! A checked Direct3D 9 shader to the IR (docs/interface.md "Direct3D 9",
//! docs/semantics.md "Direct3D 9"). Nothing here is new to the IR: every
//! Direct3D 9 instruction becomes one or more of the assembly family's
//! instructions, with these mappings:
//!
//! * registers: `r#`, ps_1_1-1_3 `t#`, `a0`, `aL` are temporaries; output
//!   registers of vertex shaders and `oDepth` are written to temporaries
//!   and copied to the results at the end of the main program, where the
//!   Direct3D 9 conventions are applied (colour and fog saturation,
//!   optional y flip and half-pixel offset);
//! * constants: `c#` → `program.env` (binding 0) or, where `def`'d, a
//!   literal; `i#` → `program.local` (binding 1) or a `defi` literal; `b#`
//!   → words of `program.buffer[0]` (binding 3) or a `defb` literal; a
//!   relatively addressed `c#` is one array over the whole register file,
//!   so `def` values are seen through the address too, with one extra
//!   zero element for out-of-range addresses ("Reads from out-of-range
//!   registers return (0.0, 0.0, 0.0, 0.0)");
//! * the predicate `p0` is condition-code register CC0: `setp_*` is a
//!   set-on-compare that updates CC0 in the written components, a
//!   predicated instruction has the write mask `(NE0)` or, for `!p0`,
//!   `(EQ0)` with the predicate's swizzle; CC1 carries the transient
//!   condition of `if_*`, `break_*`, `if b#`, `callnz`;
//! * `loop aL, i#` is a REP of `i#.x` iterations around the body with `aL`
//!   set to `i#.y` before and stepped by `i#.z` after each iteration
//!   (saved and restored around nested loops, so the innermost loop's `aL`
//!   is the one seen, in the loop and in subroutines it calls);
//! * bump-environment state (`texbem`, `texbeml`, `bem`) and the position
//!   offset come from the D3D9 state block, `program.buffer[1]`.

use std::collections::BTreeMap;

use super::check::{Analysis, Declaration};
use super::decode::{Dst, Instruction, Register, Shader, Src};
use super::disasm::Listing;
use super::table::{Comparison, Op, RegType, SamplerType, SrcMod, Usage, Version, L1_3, L3_0};
use super::D3d9Options;
use crate::diag::Diagnostic;
use crate::ir::{
    self, AttribBinding, BufferBinding, CcReg, CcTest, Clamp, ColorSel, Dest, Index, Interpolation,
    KillCondition, Literal, Operand, ParamBinding, Precision, ResultBinding, Stmt, SubId,
    Subroutine, Swizzle, TexAccess, TexTarget, VarId, VarKind, VarType, Variable, WriteMask,
};
use crate::isa::{CcCondition, DataType, OpInfo, Opcode, Stage};
use crate::span::Span;

/// Where a varying of a given semantic lives (docs/interface.md, "Direct3D
/// 9 varyings"): the assembly family's bindings, so the Location table is
/// the same one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Varying {
    /// `Position` (vertex output).
    Position,
    /// `PointSize` (vertex output).
    PointSize,
    /// Colour 0 or 1: Locations 0 and 1.
    Color(u8),
    /// Fog: Location 4.
    Fog,
    /// Texture coordinates 0-7: Locations 5-12.
    TexCoord(u32),
    /// `attrib[n]`: Location 14 + n.
    Generic(u32),
}

/// The varying of semantic `usage`+`index`; `None` for a semantic without a
/// Location (reported as E3117). `output`: a vertex shader output;
/// `pixel`: a pixel shader input.
///
/// ```
/// use nvp4c::front::d3d9::{lower::{varying_slot, Varying}, table::Usage};
/// assert_eq!(varying_slot(Usage::TexCoord, 3, true, false), Some(Varying::TexCoord(3)));
/// assert_eq!(varying_slot(Usage::TexCoord, 9, false, true), Some(Varying::Generic(1)));
/// assert_eq!(varying_slot(Usage::Normal, 0, true, false), Some(Varying::Generic(8)));
/// assert_eq!(varying_slot(Usage::Normal, 4, true, false), None);
/// ```
pub fn varying_slot(usage: Usage, index: u8, output: bool, pixel: bool) -> Option<Varying> {
    let i = u32::from(index);
    let _ = pixel;
    Some(match (usage, index) {
        (Usage::Position | Usage::PositionT, 0) if output => Varying::Position,
        (Usage::PSize, 0) if output => Varying::PointSize,
        (Usage::Color, 0 | 1) => Varying::Color(index),
        (Usage::Fog, 0) => Varying::Fog,
        (Usage::TexCoord, 0..=7) => Varying::TexCoord(i),
        (Usage::TexCoord, 8..=15) => Varying::Generic(i - 8),
        (Usage::Normal, 0) => Varying::Generic(8),
        (Usage::Tangent, 0) => Varying::Generic(9),
        (Usage::Binormal, 0) => Varying::Generic(10),
        (Usage::BlendWeight, 0) => Varying::Generic(11),
        (Usage::BlendIndices, 0) => Varying::Generic(12),
        (Usage::Color, 2) => Varying::Generic(13),
        (Usage::Depth, 0) => Varying::Generic(14),
        (Usage::Position, 1) => Varying::Generic(15),
        _ => return None,
    })
}

fn result_binding(v: Varying) -> ResultBinding {
    match v {
        Varying::Position => ResultBinding::Position,
        Varying::PointSize => ResultBinding::PointSize,
        Varying::Color(n) => ResultBinding::Color(ColorSel {
            back: false,
            secondary: n == 1,
        }),
        Varying::Fog => ResultBinding::FogCoord,
        Varying::TexCoord(n) => ResultBinding::TexCoord(n),
        Varying::Generic(n) => ResultBinding::Generic(n),
    }
}

fn attrib_binding(v: Varying) -> AttribBinding {
    match v {
        Varying::Position => AttribBinding::Position,
        Varying::PointSize => AttribBinding::PointSize,
        Varying::Color(n) => AttribBinding::Color(ColorSel {
            back: false,
            secondary: n == 1,
        }),
        Varying::Fog => AttribBinding::FogCoord,
        Varying::TexCoord(n) => AttribBinding::TexCoord(n),
        Varying::Generic(n) => AttribBinding::Generic(n),
    }
}

/// `program.buffer[b]` of the boolean constants and of the D3D9 state
/// block (docs/interface.md).
pub const BOOL_BUFFER: u32 = 0;
/// The D3D9 state block: per texture stage n, element 2n is (BUMPENVMAT00,
/// BUMPENVMAT01, BUMPENVMAT10, BUMPENVMAT11) and 2n+1 (BUMPENVLSCALE,
/// BUMPENVLOFFSET, 0, 0); element 16 is the position offset (x, y, 0, 0).
pub const STATE_BUFFER: u32 = 1;
/// Element of the position offset in the state block.
pub const POSITION_OFFSET_ELEMENT: u32 = 16;

const FLT_MAX: f32 = f32::MAX;

/// Lowers a shader that [`super::check::check`] accepted.
pub fn lower(
    shader: &Shader,
    listing: &Listing,
    analysis: &Analysis,
    options: &crate::Options,
) -> Result<ir::Program, Diagnostic> {
    let Some(v) = shader.version else {
        return Err(internal("a shader without a version", Span::default()));
    };
    let mut l = Lower {
        v,
        shader,
        listing,
        a: analysis,
        o: &options.d3d9,
        vars: Vec::new(),
        regs: BTreeMap::new(),
        consts: BTreeMap::new(),
        const_array: None,
        inputs: BTreeMap::new(),
        input_array: None,
        attribs: BTreeMap::new(),
        results: BTreeMap::new(),
        float_scratch: Vec::new(),
        int_scratch: Vec::new(),
        next_float: 0,
        next_int: 0,
        state: None,
        al_saves: Vec::new(),
        labels: BTreeMap::new(),
        span: Span::default(),
        line: 0,
        prologue: Vec::new(),
    };
    l.declare()?;
    let mut subroutines = Vec::new();
    for (k, f) in analysis.functions.iter().enumerate() {
        if let Some(label) = f.label {
            l.labels.insert(label, SubId(k as u32));
        }
    }
    for (k, f) in analysis.functions.iter().enumerate() {
        let mut body = l.function(f.start, f.end)?;
        let span = match f.label {
            Some(_) => l
                .listing
                .lines
                .get(f.start.wrapping_sub(1))
                .map_or(Span::default(), |x| x.span),
            None => l.listing.header,
        };
        if k == 0 {
            let mut main = std::mem::take(&mut l.prologue);
            main.append(&mut body);
            l.span = l.listing.header;
            let epilogue = l.epilogue()?;
            insert_before_returns(&mut main, &epilogue);
            main.extend(epilogue);
            body = main;
        }
        subroutines.push(Subroutine {
            name: f.label.map(|n| format!("l{n}")),
            span,
            body,
            // The checker requires a `ret` before every label (E3110), so
            // only the main program reaches its end, which ends it.
            end: ir::SubroutineEnd::Return,
        });
    }
    let stage = if v.is_vertex() {
        Stage::Vertex
    } else {
        Stage::Fragment
    };
    Ok(ir::Program {
        stage,
        options: Vec::new(),
        variables: l.vars,
        subroutines,
        entry: SubId(0),
        geometry: None,
        tess_control: None,
        tess_eval: None,
        compute: None,
        // The IR's instructions with NV_gpu_program4's meaning (RSQ of the
        // value as it is, results not clamped): the lowering builds each
        // Direct3D 9 instruction from them (docs/semantics.md, "Direct3D
        // 9"), with its own clamps where Direct3D 9 has them.
        dialect: crate::isa::Dialect::nv4(stage),
        // Calls go forward only and their nesting is checked (E3110): the
        // call stack cannot overflow.
        call_overflow: ir::CallOverflow::Skip,
        // Direct3D 9 sampler state is device state (SetSamplerState), not
        // the shader's: the renderer creates the samplers.
        samplers: Vec::new(),
    })
}

fn internal(what: &str, span: Span) -> Diagnostic {
    Diagnostic::error("E9001", format!("internal compiler error: {what}"))
        .primary(span, "while lowering this")
        .note("this is a bug in nvp4c; please report it with the shader")
}

/// A return in the main program ends it: the result copies go before it.
fn insert_before_returns(block: &mut Vec<Stmt>, epilogue: &[Stmt]) {
    let mut out = Vec::with_capacity(block.len());
    for s in block.drain(..) {
        match s {
            Stmt::Return { .. } => {
                out.extend(epilogue.iter().cloned());
                out.push(s);
            }
            Stmt::If {
                test,
                mut then_block,
                mut else_block,
                span,
            } => {
                insert_before_returns(&mut then_block, epilogue);
                insert_before_returns(&mut else_block, epilogue);
                out.push(Stmt::If {
                    test,
                    then_block,
                    else_block,
                    span,
                });
            }
            Stmt::Rep {
                count,
                count64,
                mut body,
                span,
            } => {
                insert_before_returns(&mut body, epilogue);
                out.push(Stmt::Rep {
                    count,
                    count64,
                    body,
                    span,
                });
            }
            s => out.push(s),
        }
    }
    *block = out;
}

/// How an input register is read.
#[derive(Clone, Copy, Debug)]
enum Input {
    /// An attribute variable.
    Direct(VarId),
    /// Element `n` of the input shadow array (filled by the prologue).
    Shadow(u32),
}

struct Lower<'a> {
    v: Version,
    shader: &'a Shader,
    listing: &'a Listing,
    a: &'a Analysis,
    o: &'a D3d9Options,
    vars: Vec<Variable>,
    /// Temporaries standing for registers (r#, t#, a0, aL, output shadows).
    regs: BTreeMap<Register, VarId>,
    /// `c#`, `i#`, `b#` read without relative addressing.
    consts: BTreeMap<Register, VarId>,
    /// The whole `c#` file, when it is relatively addressed.
    const_array: Option<VarId>,
    /// How each input register is read.
    inputs: BTreeMap<Register, Input>,
    /// The shadow array of inputs (relative addressing, packed semantics).
    input_array: Option<VarId>,
    /// Attribute variables by binding.
    attribs: BTreeMap<String, VarId>,
    /// Result variables by binding.
    results: BTreeMap<String, VarId>,
    float_scratch: Vec<VarId>,
    int_scratch: Vec<VarId>,
    next_float: usize,
    next_int: usize,
    /// The D3D9 state block.
    state: Option<VarId>,
    /// `aL` saved around nested loops, by depth.
    al_saves: Vec<VarId>,
    labels: BTreeMap<u32, SubId>,
    /// The instruction being lowered.
    span: Span,
    line: usize,
    /// Statements before the main program: input shadows, output
    /// initialisation.
    prologue: Vec<Stmt>,
}

fn lit(f: f32) -> Literal {
    Literal::Bits(f.to_bits())
}

fn set_op(c: Comparison) -> Opcode {
    match c {
        Comparison::Gt => Opcode::Sgt,
        Comparison::Eq => Opcode::Seq,
        Comparison::Ge => Opcode::Sge,
        Comparison::Lt => Opcode::Slt,
        Comparison::Ne => Opcode::Sne,
        Comparison::Le => Opcode::Sle,
    }
}

impl Lower<'_> {
    // ----------------------------------------------------------------- vars

    fn new_var(
        &mut self,
        name: String,
        kind: VarKind,
        ty: VarType,
        array_len: Option<u32>,
    ) -> VarId {
        let id = VarId(self.vars.len() as u32);
        self.vars.push(Variable {
            name: Some(name),
            span: self.span,
            kind,
            ty,
            precision: Precision::Default,
            array_len,
            interpolation: Interpolation::default(),
        });
        id
    }

    fn float_temp(&mut self, name: String, len: Option<u32>) -> VarId {
        self.new_var(name, VarKind::Temp, VarType::Typed(DataType::Float), len)
    }

    fn reg_var(&mut self, reg: Register) -> VarId {
        if let Some(&v) = self.regs.get(&reg) {
            return v;
        }
        let name = super::disasm::register_name(reg, self.v);
        let var = match reg.ty {
            RegType::Addr | RegType::Loop => {
                self.new_var(name, VarKind::Temp, VarType::Typed(DataType::Signed), None)
            }
            RegType::Output => {
                let key = Register {
                    ty: RegType::Output,
                    num: 0,
                };
                if let Some(&v) = self.regs.get(&key) {
                    return v;
                }
                let v = self.float_temp(
                    "o".to_string(),
                    Some(register_count(self.v, RegType::Output)),
                );
                self.regs.insert(key, v);
                return v;
            }
            _ => self.float_temp(name, None),
        };
        self.regs.insert(reg, var);
        var
    }

    fn scratch(&mut self) -> VarId {
        if let Some(&v) = self.float_scratch.get(self.next_float) {
            self.next_float += 1;
            return v;
        }
        let v = self.float_temp(format!("tmp{}", self.float_scratch.len()), None);
        self.float_scratch.push(v);
        self.next_float += 1;
        v
    }

    fn int_scratch(&mut self) -> VarId {
        if let Some(&v) = self.int_scratch.get(self.next_int) {
            self.next_int += 1;
            return v;
        }
        let v = self.new_var(
            format!("itmp{}", self.int_scratch.len()),
            VarKind::Temp,
            VarType::Typed(DataType::Signed),
            None,
        );
        self.int_scratch.push(v);
        self.next_int += 1;
        v
    }

    fn attrib(
        &mut self,
        binding: AttribBinding,
        name: String,
        interpolation: Interpolation,
    ) -> VarId {
        let key = format!("{binding:?}");
        if let Some(&v) = self.attribs.get(&key) {
            let var = &mut self.vars[v.0 as usize];
            var.interpolation.centroid |= interpolation.centroid;
            var.interpolation.flat |= interpolation.flat;
            return v;
        }
        let v = self.new_var(
            name,
            VarKind::Attrib(vec![binding]),
            VarType::Typeless,
            None,
        );
        self.vars[v.0 as usize].interpolation = interpolation;
        self.attribs.insert(key, v);
        v
    }

    fn result(&mut self, binding: ResultBinding, name: &str) -> VarId {
        let key = format!("{binding:?}");
        if let Some(&v) = self.results.get(&key) {
            return v;
        }
        let v = self.new_var(
            name.to_string(),
            VarKind::Result(vec![binding]),
            VarType::Typeless,
            None,
        );
        self.results.insert(key, v);
        v
    }

    fn state_block(&mut self) -> VarId {
        if let Some(s) = self.state {
            return s;
        }
        let s = self.new_var(
            "d3d9_state".to_string(),
            VarKind::Buffer(BufferBinding {
                buffer: STATE_BUFFER,
                first: 0,
                vec4: true,
            }),
            VarType::Typeless,
            Some(POSITION_OFFSET_ELEMENT + 1),
        );
        self.state = Some(s);
        s
    }

    // -------------------------------------------------------- declarations

    /// Makes what is built next point at instruction `i`'s line (a `dcl`
    /// for the variables it declares, so link errors show it).
    fn at_instruction(&mut self, i: usize) {
        if let Some(l) = self.listing.lines.get(i) {
            self.span = l.span;
        }
    }

    /// Variables that follow from declarations and the register file:
    /// inputs, the constant files, output shadows.
    fn declare(&mut self) -> Result<(), Diagnostic> {
        let v = self.v;
        self.span = self.listing.header;
        if self.a.relative_const {
            let n = self.a.const_count;
            let mut elements: Vec<ParamBinding> = (0..n)
                .map(|i| match self.a.float_defs.get(&i) {
                    Some(bits) => ParamBinding::Constant(bits.map(Literal::Bits)),
                    None => ParamBinding::Env(i),
                })
                .collect();
            elements.push(ParamBinding::Constant([Literal::Bits(0); 4]));
            let c = self.new_var(
                "c".to_string(),
                VarKind::Param(elements),
                VarType::Typeless,
                Some(n + 1),
            );
            self.const_array = Some(c);
        }
        // Inputs.
        if v.is_vertex() {
            let declared: Vec<Declaration> = self
                .a
                .decls
                .iter()
                .filter(|d| d.reg.ty == RegType::Input)
                .cloned()
                .collect();
            if self.a.relative_input {
                let arr = self.float_temp("v".to_string(), Some(16));
                self.input_array = Some(arr);
                for d in &declared {
                    self.at_instruction(d.instruction);
                    let attr = self.attrib(
                        AttribBinding::Generic(d.reg.num),
                        format!("v{}", d.reg.num),
                        Interpolation::default(),
                    );
                    let mov = self.mov(self.dest_el(arr, d.reg.num, 0xf), self.read(attr));
                    self.prologue.push(Stmt::Inst(mov));
                    self.inputs.insert(d.reg, Input::Shadow(d.reg.num));
                }
            } else {
                for d in &declared {
                    self.at_instruction(d.instruction);
                    let attr = self.attrib(
                        AttribBinding::Generic(d.reg.num),
                        format!("v{}", d.reg.num),
                        Interpolation::default(),
                    );
                    self.inputs.insert(d.reg, Input::Direct(attr));
                }
            }
        } else if v.level() >= L3_0 {
            let declared: Vec<Declaration> = self
                .a
                .decls
                .iter()
                .filter(|d| d.reg.ty == RegType::Input)
                .cloned()
                .collect();
            let mut per_reg: BTreeMap<u32, usize> = BTreeMap::new();
            for d in &declared {
                *per_reg.entry(d.reg.num).or_default() += 1;
            }
            let packed = per_reg.values().any(|&n| n > 1);
            let shadow = self.a.relative_input || packed;
            if shadow {
                self.input_array = Some(self.float_temp("v".to_string(), Some(10)));
            }
            for d in &declared {
                let Some((usage, index)) = d.usage else {
                    continue;
                };
                self.at_instruction(d.instruction);
                let slot = varying_slot(usage, index, false, true)
                    .ok_or_else(|| internal("a semantic without a Location", self.span))?;
                let interpolation = Interpolation {
                    flat: usage == Usage::Color && self.o.flat_shading,
                    centroid: d.centroid || usage == Usage::Color,
                    noperspective: false,
                };
                let name = format!("{}{}", usage.name(), index);
                let attr = self.attrib(attrib_binding(slot), name, interpolation);
                match self.input_array {
                    Some(arr) => {
                        let mov = self.mov(self.dest_el(arr, d.reg.num, d.mask), self.read(attr));
                        self.prologue.push(Stmt::Inst(mov));
                        self.inputs.insert(d.reg, Input::Shadow(d.reg.num));
                    }
                    None => {
                        self.inputs.insert(d.reg, Input::Direct(attr));
                    }
                }
            }
        }
        self.span = self.listing.header;
        // Vertex shader outputs start as (0, 0, 0, 1), so components a
        // shader leaves unwritten read as Direct3D 9's defaults.
        if v.is_vertex() {
            let mut outputs: Vec<Register> = self.written_registers(|ty| {
                matches!(ty, RegType::RastOut | RegType::AttrOut | RegType::TexCrdOut)
            });
            outputs.extend(
                self.a
                    .decls
                    .iter()
                    .filter(|d| d.reg.ty == RegType::Output)
                    .map(|d| d.reg),
            );
            outputs.sort();
            outputs.dedup();
            let init = self.konst([0.0, 0.0, 0.0, 1.0]);
            for reg in outputs {
                let var = self.reg_var(reg);
                let dest = if reg.ty == RegType::Output {
                    self.dest_el(var, reg.num, 0xf)
                } else {
                    self.dest_el_none(var, 0xf)
                };
                let m = self.mov(dest, init.clone());
                self.prologue.push(Stmt::Inst(m));
            }
        }
        if v.is_pixel() && v.level() >= L3_0 {
            let declares_vpos = self.a.decls.iter().any(|d| {
                d.reg
                    == Register {
                        ty: RegType::MiscType,
                        num: 0,
                    }
            });
            if declares_vpos {
                // vPos: the pixel's integer coordinates (FragCoord - 0.5),
                // or FragCoord as Vulkan gives it.
                let frag = self.attrib(
                    AttribBinding::Position,
                    "vPos".to_string(),
                    Interpolation::default(),
                );
                let shadow = self.reg_var(Register {
                    ty: RegType::MiscType,
                    num: 0,
                });
                let dest = self.dest_el_none(shadow, 0xf);
                let i = if self.o.integer_pixel_centers {
                    let half = self.konst([0.5, 0.5, 0.0, 0.0]);
                    self.inst(Opcode::Sub, dest, vec![self.read(frag), half])
                } else {
                    self.mov(dest, self.read(frag))
                };
                self.prologue.push(Stmt::Inst(i));
            }
        }
        Ok(())
    }

    /// Registers of the given types any instruction writes, in order.
    fn written_registers(&self, pick: impl Fn(RegType) -> bool) -> Vec<Register> {
        let mut out: Vec<Register> = self
            .shader
            .instructions
            .iter()
            .filter(|i| i.form.op != Op::Dcl)
            .filter_map(|i| i.dst.as_ref().map(|d| d.reg))
            .filter(|r| pick(r.ty))
            .collect();
        out.sort();
        out.dedup();
        out
    }

    // --------------------------------------------------------- IR builders

    fn operand(&self, var: VarId, index: Index, swizzle: Swizzle, ty: DataType) -> Operand {
        Operand {
            var,
            index,
            swizzle,
            negate: false,
            abs: false,
            negate_abs: false,
            ty,
            span: self.span,
        }
    }

    fn read(&self, var: VarId) -> Operand {
        self.operand(
            var,
            self.index_of(var, None),
            Swizzle::IDENTITY,
            DataType::Float,
        )
    }

    fn index_of(&self, var: VarId, element: Option<u32>) -> Index {
        match (self.vars[var.0 as usize].array_len, element) {
            (Some(_), Some(n)) => Index::Absolute(n),
            (Some(_), None) => Index::Absolute(0),
            (None, _) => Index::None,
        }
    }

    fn dest_el(&self, var: VarId, element: u32, mask: u8) -> Dest {
        Dest {
            var,
            index: self.index_of(var, Some(element)),
            mask: WriteMask(mask),
            cc_mask: None,
            ty: DataType::Float,
            span: self.span,
        }
    }

    fn dest_el_none(&self, var: VarId, mask: u8) -> Dest {
        self.dest_el(var, 0, mask)
    }

    fn konst(&mut self, v: [f32; 4]) -> Operand {
        let name = format!("const({}, {}, {}, {})", v[0], v[1], v[2], v[3]);
        let var = match self.consts_by_name(&name) {
            Some(var) => var,
            None => self.new_var(
                name,
                VarKind::Param(vec![ParamBinding::Constant(v.map(lit))]),
                VarType::Typeless,
                None,
            ),
        };
        self.read(var)
    }

    fn konst_int(&mut self, v: [i32; 4]) -> Operand {
        let name = format!("iconst({}, {}, {}, {})", v[0], v[1], v[2], v[3]);
        let var = match self.consts_by_name(&name) {
            Some(var) => var,
            None => self.new_var(
                name,
                VarKind::Param(vec![ParamBinding::Constant(
                    v.map(|x| Literal::Bits(x as u32)),
                )]),
                VarType::Typeless,
                None,
            ),
        };
        let mut o = self.read(var);
        o.ty = DataType::Signed;
        o
    }

    fn consts_by_name(&self, name: &str) -> Option<VarId> {
        self.vars
            .iter()
            .position(|v| v.name.as_deref() == Some(name) && matches!(v.kind, VarKind::Param(_)))
            .map(|i| VarId(i as u32))
    }

    /// An instruction of data type Float with operand types from the table.
    fn inst(&self, op: Opcode, dst: Dest, srcs: Vec<Operand>) -> ir::Instruction {
        self.typed_inst(op, DataType::Float, dst, srcs)
    }

    fn typed_inst(
        &self,
        op: Opcode,
        ty: DataType,
        mut dst: Dest,
        mut srcs: Vec<Operand>,
    ) -> ir::Instruction {
        let info = OpInfo::of(op);
        for (k, s) in srcs.iter_mut().enumerate() {
            if let Some(kind) = info.inputs.get(k) {
                s.ty = kind.type_rule().resolve(ty);
                if kind.is_scalar() {
                    s.swizzle = Swizzle::splat(s.swizzle.0[0]);
                }
            }
        }
        if let Some(rt) = info.result_type(ty) {
            dst.ty = rt;
        }
        ir::Instruction {
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
            span: self.span,
        }
    }

    fn mov(&self, dst: Dest, src: Operand) -> ir::Instruction {
        self.inst(Opcode::Mov, dst, vec![src])
    }

    fn scratch_dest(&mut self, mask: u8) -> (Dest, Operand) {
        let s = self.scratch();
        (self.dest_el_none(s, mask), self.read(s))
    }

    fn int_scratch_dest(&mut self) -> (Dest, Operand) {
        let s = self.int_scratch();
        let mut d = self.dest_el_none(s, 0x1);
        d.ty = DataType::Signed;
        let mut o = self.read(s);
        o.ty = DataType::Signed;
        o.swizzle = Swizzle::splat(0);
        (d, o)
    }

    fn swz(mut o: Operand, s: [u8; 4]) -> Operand {
        o.swizzle = Swizzle(s.map(|c| o.swizzle.0[usize::from(c)]));
        o
    }

    fn neg(mut o: Operand) -> Operand {
        if o.abs {
            o.negate_abs = !o.negate_abs;
        } else {
            o.negate = !o.negate;
        }
        o
    }

    // -------------------------------------------------------------- sources

    /// The operand reading a Direct3D 9 source, after any pre-computation
    /// its modifiers need (pushed to `out`).
    fn src(&mut self, s: &Src, k: usize, out: &mut Vec<Stmt>) -> Result<Operand, Diagnostic> {
        let span = self
            .listing
            .lines
            .get(self.line)
            .and_then(|l| l.srcs.get(k))
            .copied()
            .unwrap_or(self.span);
        let mut o = self.register_operand(s.reg, s.rel.as_ref(), out)?;
        o.span = span;
        o.swizzle = Swizzle(s.swizzle.map(|c| o.swizzle.0[usize::from(c)]));
        // ps_1_x constants hold [-1, 1] ("ps_1_x Registers", Range).
        if s.reg.ty == RegType::Const
            && self.v.is_pixel()
            && self.v.is_sm1()
            && self.o.ps1x_clamp_constants
        {
            let (d, r) = self.scratch_dest(0xf);
            let mut m = self.mov(d, o);
            m.clamp = Some(Clamp::Ssat);
            out.push(Stmt::Inst(m));
            o = r;
        }
        Ok(self.modifier(o, s.modifier, out))
    }

    /// A source modifier: negate and abs are operand fields; the ps_1_x
    /// ones compute into a temporary (Source Register Modifiers pages).
    fn modifier(&mut self, o: Operand, m: SrcMod, out: &mut Vec<Stmt>) -> Operand {
        let base = match m.base() {
            SrcMod::None | SrcMod::Not | SrcMod::Dz | SrcMod::Dw => o,
            SrcMod::Abs => {
                let mut o = o;
                o.abs = true;
                o
            }
            SrcMod::Bias => {
                let (d, r) = self.scratch_dest(0xf);
                let half = self.konst([-0.5; 4]);
                out.push(Stmt::Inst(self.inst(Opcode::Add, d, vec![o, half])));
                r
            }
            SrcMod::Sign => {
                let (d, r) = self.scratch_dest(0xf);
                let (two, minus_one) = (self.konst([2.0; 4]), self.konst([-1.0; 4]));
                out.push(Stmt::Inst(self.inst(
                    Opcode::Mad,
                    d,
                    vec![o, two, minus_one],
                )));
                r
            }
            SrcMod::Comp => {
                let (d, r) = self.scratch_dest(0xf);
                let one = self.konst([1.0; 4]);
                out.push(Stmt::Inst(self.inst(Opcode::Sub, d, vec![one, o])));
                r
            }
            SrcMod::X2 => {
                let (d, r) = self.scratch_dest(0xf);
                let two = self.konst([2.0; 4]);
                out.push(Stmt::Inst(self.inst(Opcode::Mul, d, vec![o, two])));
                r
            }
            SrcMod::Neg | SrcMod::BiasNeg | SrcMod::SignNeg | SrcMod::X2Neg | SrcMod::AbsNeg => {
                unreachable_mod(o)
            }
        };
        if m.negates() {
            Self::neg(base)
        } else {
            base
        }
    }

    /// The operand for a register (identity swizzle), with relative
    /// addressing resolved.
    fn register_operand(
        &mut self,
        reg: Register,
        rel: Option<&super::decode::RelAddr>,
        out: &mut Vec<Stmt>,
    ) -> Result<Operand, Diagnostic> {
        let v = self.v;
        match reg.ty {
            RegType::Temp | RegType::Addr | RegType::Loop => {
                let var = self.reg_var(reg);
                Ok(self.read(var))
            }
            RegType::Texture if v.is_pixel() && v.level() <= L1_3 => {
                let var = self.reg_var(reg);
                Ok(self.read(var))
            }
            RegType::Texture => {
                let attr = self.texcoord(reg.num);
                Ok(self.read(attr))
            }
            RegType::Const => match (rel, self.const_array) {
                (Some(rel), Some(arr)) => {
                    let index = self.relative_index(rel, reg.num, self.a.const_count, out)?;
                    Ok(self.operand(arr, index, Swizzle::IDENTITY, DataType::Float))
                }
                (None, Some(arr)) => Ok(self.operand(
                    arr,
                    Index::Absolute(reg.num),
                    Swizzle::IDENTITY,
                    DataType::Float,
                )),
                _ => {
                    let var = self.constant(reg);
                    Ok(self.read(var))
                }
            },
            RegType::ConstInt | RegType::ConstBool => {
                let var = self.constant(reg);
                let mut o = self.read(var);
                o.ty = if reg.ty == RegType::ConstInt {
                    DataType::Signed
                } else {
                    DataType::Unsigned
                };
                Ok(o)
            }
            RegType::Input => {
                if v.is_pixel() && v.level() < L3_0 {
                    let attr = self.attrib(
                        AttribBinding::Color(ColorSel {
                            back: false,
                            secondary: reg.num == 1,
                        }),
                        format!("v{}", reg.num),
                        Interpolation {
                            flat: self.o.flat_shading,
                            centroid: true,
                            noperspective: false,
                        },
                    );
                    return Ok(self.read(attr));
                }
                match (rel, self.input_array) {
                    (Some(rel), Some(arr)) => {
                        let index = self.relative_index(rel, reg.num, 0, out)?;
                        Ok(self.operand(arr, index, Swizzle::IDENTITY, DataType::Float))
                    }
                    _ => match self.inputs.get(&reg).copied() {
                        Some(Input::Direct(var)) => Ok(self.read(var)),
                        Some(Input::Shadow(n)) => {
                            let arr = self
                                .input_array
                                .ok_or_else(|| internal("no input array", self.span))?;
                            Ok(self.operand(
                                arr,
                                Index::Absolute(n),
                                Swizzle::IDENTITY,
                                DataType::Float,
                            ))
                        }
                        None => match self.input_array {
                            // An undeclared element of the shadow array.
                            Some(arr) => Ok(self.operand(
                                arr,
                                Index::Absolute(reg.num),
                                Swizzle::IDENTITY,
                                DataType::Float,
                            )),
                            None => Err(internal("an undeclared input register", self.span)),
                        },
                    },
                }
            }
            RegType::MiscType => {
                if reg.num == 0 {
                    let var = self.reg_var(reg);
                    Ok(self.read(var))
                } else {
                    let face = self.attrib(
                        AttribBinding::Facing,
                        "vFace".to_string(),
                        Interpolation::default(),
                    );
                    // vFace is a scalar: every component reads its sign.
                    Ok(self.operand(face, Index::None, Swizzle::splat(0), DataType::Float))
                }
            }
            _ => Err(internal(&format!("reading {reg:?}"), self.span)),
        }
    }

    fn texcoord(&mut self, n: u32) -> VarId {
        self.attrib(
            AttribBinding::TexCoord(n),
            format!("t{n}"),
            Interpolation::default(),
        )
    }

    /// `c#`, `i#`, `b#` without relative addressing: a literal where the
    /// shader defines it, else the constant block's element.
    fn constant(&mut self, reg: Register) -> VarId {
        if let Some(&v) = self.consts.get(&reg) {
            return v;
        }
        let name = super::disasm::register_name(reg, self.v);
        let n = reg.num;
        let var = match reg.ty {
            RegType::Const => {
                let b = match self.a.float_defs.get(&n) {
                    Some(bits) => ParamBinding::Constant(bits.map(Literal::Bits)),
                    None => ParamBinding::Env(n),
                };
                self.new_var(name, VarKind::Param(vec![b]), VarType::Typeless, None)
            }
            RegType::ConstInt => {
                let b = match self.a.int_defs.get(&n) {
                    Some(bits) => ParamBinding::Constant(bits.map(Literal::Bits)),
                    None => ParamBinding::Local(n),
                };
                self.new_var(name, VarKind::Param(vec![b]), VarType::Typeless, None)
            }
            _ => match self.a.bool_defs.get(&n) {
                Some(&b) => {
                    let bits = u32::from(b != 0);
                    self.new_var(
                        name,
                        VarKind::Param(vec![ParamBinding::Constant([Literal::Bits(bits); 4])]),
                        VarType::Typeless,
                        None,
                    )
                }
                None => self.new_var(
                    name,
                    VarKind::Buffer(BufferBinding {
                        buffer: BOOL_BUFFER,
                        first: n,
                        vec4: false,
                    }),
                    VarType::Typeless,
                    None,
                ),
            },
        };
        self.consts.insert(reg, var);
        var
    }

    /// `[a0.c + n]` or `[aL + n]`. Into `c#` (`bound` > 0) the address is
    /// made unsigned-clamped to `bound`, the file's extra zero element, so
    /// an out-of-range read gives 0.
    fn relative_index(
        &mut self,
        rel: &super::decode::RelAddr,
        offset: u32,
        bound: u32,
        out: &mut Vec<Stmt>,
    ) -> Result<Index, Diagnostic> {
        let areg = self.reg_var(rel.reg);
        let mut address = self.read(areg);
        address.ty = DataType::Signed;
        address.swizzle = Swizzle::splat(if rel.reg.ty == RegType::Loop {
            0
        } else {
            rel.component
        });
        if bound == 0 {
            return Ok(Index::Relative {
                address: Box::new(address),
                offset: offset as i32,
            });
        }
        let (d, i) = self.int_scratch_dest();
        let off = self.konst_int([offset as i32; 4]);
        out.push(Stmt::Inst(self.typed_inst(
            Opcode::Add,
            DataType::Signed,
            d.clone(),
            vec![address, off],
        )));
        let limit = self.konst_int([bound as i32; 4]);
        out.push(Stmt::Inst(self.typed_inst(
            Opcode::Min,
            DataType::Unsigned,
            d,
            vec![i.clone(), limit],
        )));
        Ok(Index::Relative {
            address: Box::new(i),
            offset: 0,
        })
    }

    // ------------------------------------------------------- destinations

    /// The IR destination of a Direct3D 9 destination (mask and
    /// predicate applied; modifiers are the caller's).
    fn dest(
        &mut self,
        d: &Dst,
        inst: &Instruction,
        out: &mut Vec<Stmt>,
    ) -> Result<Dest, Diagnostic> {
        let span = self
            .listing
            .lines
            .get(self.line)
            .and_then(|l| l.dst)
            .unwrap_or(self.span);
        let mut dest = match d.reg.ty {
            RegType::Temp
            | RegType::Addr
            | RegType::RastOut
            | RegType::AttrOut
            | RegType::TexCrdOut
            | RegType::DepthOut => {
                let var = self.reg_var(d.reg);
                self.dest_el_none(var, d.mask)
            }
            RegType::Texture => {
                let var = self.reg_var(d.reg);
                self.dest_el_none(var, d.mask)
            }
            RegType::Output => {
                let var = self.reg_var(d.reg);
                match &d.rel {
                    Some(rel) => {
                        let index = self.relative_index(rel, d.reg.num, 0, out)?;
                        Dest {
                            var,
                            index,
                            mask: WriteMask(d.mask),
                            cc_mask: None,
                            ty: DataType::Float,
                            span,
                        }
                    }
                    None => self.dest_el(var, d.reg.num, d.mask),
                }
            }
            RegType::MiscType => {
                return Err(internal("writing vPos or vFace", self.span));
            }
            RegType::ColorOut => {
                let var = self.result(
                    ResultBinding::FragColor(d.reg.num),
                    &format!("oC{}", d.reg.num),
                );
                self.dest_el_none(var, d.mask)
            }
            _ => return Err(internal(&format!("writing {:?}", d.reg), self.span)),
        };
        dest.span = span;
        if d.reg.ty == RegType::Addr {
            dest.ty = DataType::Signed;
        }
        dest.cc_mask = self.predicate(inst);
        Ok(dest)
    }

    fn predicate(&self, inst: &Instruction) -> Option<CcTest> {
        let p = inst.predicate.as_ref()?;
        Some(CcTest {
            condition: if p.modifier == SrcMod::Not {
                CcCondition::Eq
            } else {
                CcCondition::Ne
            },
            reg: CcReg(0),
            swizzle: Swizzle(p.swizzle),
        })
    }

    /// Writes `value` to the instruction's destination with its
    /// modifiers: `_sat`, the ps_1_x shift, the predicate, the ps_1_x
    /// range clamp, the colour and fog saturation of vertex outputs.
    fn write(
        &mut self,
        inst: &Instruction,
        value: Operand,
        out: &mut Vec<Stmt>,
    ) -> Result<(), Diagnostic> {
        let Some(d) = inst.dst.as_ref() else {
            return Ok(());
        };
        let dest = self.dest(d, inst, out)?;
        let m = if d.shift != 0 {
            let factor = 2f32.powi(i32::from(d.shift));
            let k = self.konst([factor; 4]);
            self.inst(Opcode::Mul, dest.clone(), vec![value, k])
        } else {
            self.mov(dest.clone(), value)
        };
        self.push_result(inst, m, out);
        Ok(())
    }

    /// Emits an instruction computing straight into the destination when
    /// no shift needs an intermediate value; else through a temporary.
    fn compute(
        &mut self,
        inst: &Instruction,
        op: Opcode,
        srcs: Vec<Operand>,
        out: &mut Vec<Stmt>,
    ) -> Result<(), Diagnostic> {
        let Some(d) = inst.dst.as_ref() else {
            return Ok(());
        };
        if d.shift == 0 {
            let dest = self.dest(d, inst, out)?;
            let i = self.inst(op, dest, srcs);
            self.push_result(inst, i, out);
            Ok(())
        } else {
            let (sd, r) = self.scratch_dest(0xf);
            out.push(Stmt::Inst(self.inst(op, sd, srcs)));
            self.write(inst, r, out)
        }
    }

    fn push_result(&mut self, inst: &Instruction, mut i: ir::Instruction, out: &mut Vec<Stmt>) {
        let d = inst.dst.as_ref();
        if d.is_some_and(|d| d.sat) {
            i.clamp = Some(Clamp::Sat);
        }
        let dest = i.dst.clone();
        out.push(Stmt::Inst(i));
        // ps_1_x registers hold ±PixelShader1xMaxValue.
        if let (Some(max), true) = (self.o.ps1x_max_value, self.v.is_pixel() && self.v.is_sm1()) {
            if d.is_some_and(|d| !d.sat && matches!(d.reg.ty, RegType::Temp | RegType::Texture)) {
                let read = Operand {
                    var: dest.var,
                    index: dest.index.clone(),
                    ..self.read(dest.var)
                };
                let lo = self.konst([-max; 4]);
                let hi = self.konst([max; 4]);
                out.push(Stmt::Inst(self.inst(
                    Opcode::Max,
                    dest.clone(),
                    vec![read.clone(), lo],
                )));
                out.push(Stmt::Inst(self.inst(Opcode::Min, dest, vec![read, hi])));
            }
        }
    }

    // ------------------------------------------------------------ functions

    fn function(&mut self, start: usize, end: usize) -> Result<Vec<Stmt>, Diagnostic> {
        let mut stack: Vec<Frame> = Vec::new();
        let mut top: Vec<Stmt> = Vec::new();
        let insts = &self.shader.instructions;
        let end = end.min(insts.len());
        let mut i = start;
        let mut loop_depth = 0usize;
        while i < end {
            let inst = &insts[i];
            self.line = i;
            self.span = self
                .listing
                .lines
                .get(i)
                .map_or(Span::default(), |l| l.span);
            self.next_float = 0;
            self.next_int = 0;
            let mut out: Vec<Stmt> = Vec::new();
            let op = inst.form.op;
            let mut consumed = 1;
            match op {
                Op::If | Op::Ifc => {
                    let test = self.condition(inst, &mut out)?;
                    Self::current(&mut stack, &mut top).append(&mut out);
                    stack.push(Frame {
                        kind: FrameKind::If,
                        then_block: Vec::new(),
                        else_block: Vec::new(),
                        in_else: false,
                        test: Some(test),
                        count: None,
                        span: self.span,
                        restore: None,
                        step: None,
                    });
                    i += 1;
                    continue;
                }
                Op::Else => {
                    if let Some(f) = stack.last_mut() {
                        f.in_else = true;
                    }
                    i += 1;
                    continue;
                }
                Op::EndIf | Op::EndRep | Op::EndLoop => {
                    let Some(mut f) = stack.pop() else {
                        return Err(internal("an unmatched end of block", self.span));
                    };
                    let stmt = match f.kind {
                        FrameKind::If => Stmt::If {
                            test: f
                                .test
                                .ok_or_else(|| internal("if without a test", f.span))?,
                            then_block: f.then_block,
                            else_block: f.else_block,
                            span: f.span,
                        },
                        FrameKind::Rep => Stmt::Rep {
                            count: f.count,
                            count64: false,
                            body: f.then_block,
                            span: f.span,
                        },
                        FrameKind::Loop => {
                            // aL += i#.z after each iteration.
                            let al = self.reg_var(Register {
                                ty: RegType::Loop,
                                num: 0,
                            });
                            let mut d = self.dest_el_none(al, 0x1);
                            d.ty = DataType::Signed;
                            let mut a = self.read(al);
                            a.ty = DataType::Signed;
                            let step = f
                                .step
                                .take()
                                .ok_or_else(|| internal("loop without a step", f.span))?;
                            f.then_block.push(Stmt::Inst(self.typed_inst(
                                Opcode::Add,
                                DataType::Signed,
                                d,
                                vec![a, step],
                            )));
                            loop_depth -= 1;
                            Stmt::Rep {
                                count: f.count,
                                count64: false,
                                body: f.then_block,
                                span: f.span,
                            }
                        }
                    };
                    let cur = Self::current(&mut stack, &mut top);
                    cur.push(stmt);
                    if let Some(save) = f.restore {
                        let al = self.reg_var(Register {
                            ty: RegType::Loop,
                            num: 0,
                        });
                        let mut d = self.dest_el_none(al, 0x1);
                        d.ty = DataType::Signed;
                        let mut s = self.read(save);
                        s.ty = DataType::Signed;
                        let m = self.typed_inst(Opcode::Mov, DataType::Signed, d, vec![s]);
                        Self::current(&mut stack, &mut top).push(Stmt::Inst(m));
                    }
                    i += 1;
                    continue;
                }
                Op::Rep => {
                    let count = self.int_operand(inst, 0, 0, &mut out)?;
                    Self::current(&mut stack, &mut top).append(&mut out);
                    stack.push(Frame {
                        kind: FrameKind::Rep,
                        then_block: Vec::new(),
                        else_block: Vec::new(),
                        in_else: false,
                        test: None,
                        count: Some(count),
                        span: self.span,
                        restore: None,
                        step: None,
                    });
                    i += 1;
                    continue;
                }
                Op::Loop => {
                    let count = self.int_operand(inst, 1, 0, &mut out)?;
                    let start_value = self.int_operand(inst, 1, 1, &mut out)?;
                    let step = self.int_operand(inst, 1, 2, &mut out)?;
                    let al = self.reg_var(Register {
                        ty: RegType::Loop,
                        num: 0,
                    });
                    // The enclosing loop's aL (or a caller's) is restored
                    // after this one.
                    while self.al_saves.len() <= loop_depth {
                        let save = self.new_var(
                            format!("aL_saved{}", self.al_saves.len()),
                            VarKind::Temp,
                            VarType::Typed(DataType::Signed),
                            None,
                        );
                        self.al_saves.push(save);
                    }
                    let save = self.al_saves[loop_depth];
                    let mut sd = self.dest_el_none(save, 0x1);
                    sd.ty = DataType::Signed;
                    let mut a = self.read(al);
                    a.ty = DataType::Signed;
                    out.push(Stmt::Inst(self.typed_inst(
                        Opcode::Mov,
                        DataType::Signed,
                        sd,
                        vec![a],
                    )));
                    let mut d = self.dest_el_none(al, 0x1);
                    d.ty = DataType::Signed;
                    out.push(Stmt::Inst(self.typed_inst(
                        Opcode::Mov,
                        DataType::Signed,
                        d,
                        vec![start_value],
                    )));
                    Self::current(&mut stack, &mut top).append(&mut out);
                    loop_depth += 1;
                    stack.push(Frame {
                        kind: FrameKind::Loop,
                        then_block: Vec::new(),
                        else_block: Vec::new(),
                        in_else: false,
                        test: None,
                        count: Some(count),
                        span: self.span,
                        restore: Some(save),
                        step: Some(step),
                    });
                    i += 1;
                    continue;
                }
                Op::TexM3x2Pad | Op::TexM3x3Pad => {
                    consumed = if op == Op::TexM3x2Pad { 2 } else { 3 };
                    self.texm_sequence(i, consumed, &mut out)?;
                }
                _ => {
                    // A co-issued pair reads its sources before either
                    // instruction writes.
                    let next = insts.get(i + 1).filter(|n| n.coissue && i + 1 < end);
                    match next {
                        Some(second) if reads_dst_of(second, inst) => {
                            self.coissued(inst, second, &mut out)?;
                            consumed = 2;
                        }
                        _ => self.instruction(inst, &mut out)?,
                    }
                }
            }
            let cur = Self::current(&mut stack, &mut top);
            cur.append(&mut out);
            i += consumed;
        }
        if !stack.is_empty() {
            return Err(internal("an unclosed block", self.span));
        }
        Ok(top)
    }

    fn current<'s>(stack: &'s mut [Frame], top: &'s mut Vec<Stmt>) -> &'s mut Vec<Stmt> {
        match stack.last_mut() {
            Some(f) if f.in_else => &mut f.else_block,
            Some(f) => &mut f.then_block,
            None => top,
        }
    }

    // ---------------------------------------------------------------- flow

    /// The condition of `if`, `if_*`, `break_*`, `callnz`, `breakp` as a
    /// condition-code test; CC1 is set first where the condition is not
    /// the predicate.
    fn condition(&mut self, inst: &Instruction, out: &mut Vec<Stmt>) -> Result<CcTest, Diagnostic> {
        if let Some(cmp) = inst.comparison() {
            let a = self.src(&inst.srcs[0], 0, out)?;
            let b = self.src(&inst.srcs[1], 1, out)?;
            let (d, _) = self.scratch_dest(0x1);
            let mut set = self.inst(
                set_op(cmp),
                d,
                vec![Self::swz(a, [0; 4]), Self::swz(b, [0; 4])],
            );
            set.cc_update = Some(CcReg(1));
            out.push(Stmt::Inst(set));
            return Ok(CcTest {
                condition: CcCondition::Ne,
                reg: CcReg(1),
                swizzle: Swizzle::splat(0),
            });
        }
        let k = inst.srcs.len() - 1;
        let s = &inst.srcs[k];
        let negate = s.modifier == SrcMod::Not;
        let condition = if negate {
            CcCondition::Eq
        } else {
            CcCondition::Ne
        };
        if s.reg.ty == RegType::Predicate {
            return Ok(CcTest {
                condition,
                reg: CcReg(0),
                swizzle: Swizzle::splat(s.swizzle[0]),
            });
        }
        // b#: MOVC1 of the boolean's bits.
        let mut o = self.register_operand(s.reg, None, out)?;
        o.swizzle = Swizzle::splat(0);
        o.ty = DataType::Signed;
        let (d, _) = self.int_scratch_dest();
        let mut m = self.typed_inst(Opcode::Mov, DataType::Signed, d, vec![o]);
        m.cc_update = Some(CcReg(1));
        out.push(Stmt::Inst(m));
        Ok(CcTest {
            condition,
            reg: CcReg(1),
            swizzle: Swizzle::splat(0),
        })
    }

    /// Component `c` of the integer constant operand `k` (`rep i#`,
    /// `loop aL, i#`).
    fn int_operand(
        &mut self,
        inst: &Instruction,
        k: usize,
        c: u8,
        out: &mut Vec<Stmt>,
    ) -> Result<Operand, Diagnostic> {
        let s = &inst.srcs[k];
        let mut o = self.register_operand(s.reg, None, out)?;
        o.swizzle = Swizzle::splat(c);
        o.ty = DataType::Signed;
        Ok(o)
    }

    // -------------------------------------------------------- instructions

    fn coissued(
        &mut self,
        first: &Instruction,
        second: &Instruction,
        out: &mut Vec<Stmt>,
    ) -> Result<(), Diagnostic> {
        // The first result goes to a temporary, the second instruction
        // runs, then the first result is written.
        let hold = self.scratch();
        let held = self.read(hold);
        let Some(d) = first.dst.clone() else {
            return self.instruction(second, out);
        };
        let mut redirected = first.clone();
        // A temporary stands in for the destination register: write the
        // value with the first instruction's modifiers afterwards.
        let value = self.arith_value(&redirected, out)?;
        out.push(Stmt::Inst(self.mov(self.dest_el_none(hold, 0xf), value)));
        self.instruction(second, out)?;
        redirected.dst = Some(d);
        self.write(&redirected, held, out)
    }

    /// The value an arithmetic instruction computes, in a temporary,
    /// without writing its destination.
    fn arith_value(
        &mut self,
        inst: &Instruction,
        out: &mut Vec<Stmt>,
    ) -> Result<Operand, Diagnostic> {
        let mut probe = inst.clone();
        let hold = self.scratch();
        let held = self.read(hold);
        // Lower into a temporary register: r# numbers above any real one.
        let fake = Register {
            ty: RegType::Temp,
            num: 0x7ff,
        };
        self.regs.insert(fake, hold);
        if let Some(d) = probe.dst.as_mut() {
            d.reg = fake;
            d.mask = 0xf;
            d.shift = 0;
            d.sat = false;
            d.rel = None;
        }
        probe.predicate = None;
        self.instruction(&probe, out)?;
        self.regs.remove(&fake);
        Ok(held)
    }

    fn instruction(&mut self, inst: &Instruction, out: &mut Vec<Stmt>) -> Result<(), Diagnostic> {
        let v = self.v;
        let op = inst.form.op;
        let mut srcs = Vec::with_capacity(inst.srcs.len());
        let value_srcs = matches!(
            op,
            Op::Mov
                | Op::Add
                | Op::Sub
                | Op::Mad
                | Op::Mul
                | Op::Rcp
                | Op::Rsq
                | Op::Dp3
                | Op::Dp4
                | Op::Min
                | Op::Max
                | Op::Slt
                | Op::Sge
                | Op::Exp
                | Op::Log
                | Op::ExpP
                | Op::LogP
                | Op::Lit
                | Op::Dst
                | Op::Lrp
                | Op::Frc
                | Op::Pow
                | Op::Crs
                | Op::Sgn
                | Op::Abs
                | Op::Nrm
                | Op::SinCos
                | Op::Mova
                | Op::Cnd
                | Op::Cmp
                | Op::Bem
                | Op::Dp2Add
                | Op::Dsx
                | Op::Dsy
                | Op::Setp
                | Op::M4x4
                | Op::M4x3
                | Op::M3x4
                | Op::M3x3
                | Op::M3x2
        );
        if value_srcs {
            let n = match op {
                // The extra operands of shader model 2 sincos and sgn are
                // scratch registers and constants the instruction does not
                // need (docs/semantics.md).
                Op::SinCos | Op::Sgn => 1,
                Op::M4x4 | Op::M4x3 | Op::M3x4 | Op::M3x3 | Op::M3x2 => 1,
                _ => inst.srcs.len(),
            };
            for (k, s) in inst.srcs.iter().take(n).enumerate() {
                srcs.push(self.src(s, k, out)?);
            }
        }
        let scalar = |o: &Operand| Self::swz(o.clone(), [0; 4]);
        match op {
            Op::Nop | Op::Dcl | Op::Def | Op::DefI | Op::DefB | Op::Phase | Op::Label | Op::Ret => {
                if op == Op::Ret {
                    out.push(Stmt::Return {
                        cond: None,
                        span: self.span,
                    });
                }
            }
            Op::Mov if inst.dst.as_ref().is_some_and(|d| d.reg.ty == RegType::Addr) => {
                self.write_address(inst, srcs.remove(0), out)?
            }
            Op::Mova => self.write_address(inst, srcs.remove(0), out)?,
            Op::Mov => self.compute(inst, Opcode::Mov, srcs, out)?,
            Op::Add => self.compute(inst, Opcode::Add, srcs, out)?,
            Op::Sub => self.compute(inst, Opcode::Sub, srcs, out)?,
            Op::Mad => self.compute(inst, Opcode::Mad, srcs, out)?,
            Op::Mul => self.compute(inst, Opcode::Mul, srcs, out)?,
            Op::Dp3 => self.compute(inst, Opcode::Dp3, srcs, out)?,
            Op::Dp4 => self.compute(inst, Opcode::Dp4, srcs, out)?,
            Op::Min => self.compute(inst, Opcode::Min, srcs, out)?,
            Op::Max => self.compute(inst, Opcode::Max, srcs, out)?,
            Op::Slt => self.compute(inst, Opcode::Slt, srcs, out)?,
            Op::Sge => self.compute(inst, Opcode::Sge, srcs, out)?,
            Op::Dst => self.compute(inst, Opcode::Dst, srcs, out)?,
            Op::Frc => self.compute(inst, Opcode::Frc, srcs, out)?,
            Op::Abs => self.compute(inst, Opcode::Abs, srcs, out)?,
            Op::Lrp => self.compute(inst, Opcode::Lrp, srcs, out)?,
            Op::Dsx => self.compute(inst, Opcode::Ddx, srcs, out)?,
            Op::Dsy => self.compute(inst, Opcode::Ddy, srcs, out)?,
            Op::Crs => self.compute(inst, Opcode::Xpd, srcs, out)?,
            Op::Sgn => self.compute(inst, Opcode::Ssg, srcs, out)?,
            Op::Dp2Add => {
                let c = scalar(&srcs[2]);
                self.compute(
                    inst,
                    Opcode::Dp2a,
                    vec![srcs[0].clone(), srcs[1].clone(), c],
                    out,
                )?
            }
            Op::Rcp => self.compute(inst, Opcode::Rcp, vec![scalar(&srcs[0])], out)?,
            Op::Rsq => {
                // rsq(|x|), +inf at 0, and exactly 1 where |x| is 1 ("rsq
                // - vs": "The output must be exactly 1.0 if the input is
                // exactly 1.0"; Vulkan's InverseSqrt has 2 ULP).
                let mut a = scalar(&srcs[0]);
                a.abs = true;
                a.negate = false;
                a.negate_abs = false;
                let (d, r) = self.scratch_dest(0xf);
                out.push(Stmt::Inst(self.inst(Opcode::Rsq, d, vec![a.clone()])));
                let one = self.konst([1.0; 4]);
                let (ed, mut e) = self.scratch_dest(0xf);
                out.push(Stmt::Inst(self.inst(Opcode::Sub, ed, vec![a, one.clone()])));
                // -||x| - 1| < 0 unless |x| is 1.
                e.abs = true;
                e.negate_abs = true;
                self.compute(inst, Opcode::Cmp, vec![e, r, one], out)?
            }
            Op::Exp => self.compute(inst, Opcode::Ex2, vec![scalar(&srcs[0])], out)?,
            Op::ExpP if v.is_vertex() && v.level() < super::table::L2_0 => {
                self.expp_vs11(inst, scalar(&srcs[0]), out)?
            }
            Op::ExpP => self.compute(inst, Opcode::Ex2, vec![scalar(&srcs[0])], out)?,
            Op::Log | Op::LogP => {
                // log2(|x|), -FLT_MAX at 0 ("log - vs").
                let mut a = scalar(&srcs[0]);
                a.abs = true;
                a.negate = false;
                a.negate_abs = false;
                let (d, r) = self.scratch_dest(0xf);
                out.push(Stmt::Inst(self.inst(Opcode::Lg2, d, vec![a])));
                let floor = self.konst([-FLT_MAX; 4]);
                self.compute(inst, Opcode::Max, vec![r, floor], out)?
            }
            Op::Pow => {
                let mut a = scalar(&srcs[0]);
                a.abs = true;
                a.negate = false;
                a.negate_abs = false;
                self.compute(inst, Opcode::Pow, vec![a, scalar(&srcs[1])], out)?
            }
            Op::Nrm => {
                // f = rsq(dot3), FLT_MAX where dot3 is 0; dest = src * f.
                let s = srcs[0].clone();
                let (d, r) = self.scratch_dest(0x1);
                out.push(Stmt::Inst(self.inst(
                    Opcode::Dp3,
                    d.clone(),
                    vec![s.clone(), s.clone()],
                )));
                out.push(Stmt::Inst(self.inst(
                    Opcode::Rsq,
                    d.clone(),
                    vec![Self::swz(r.clone(), [0; 4])],
                )));
                let big = self.konst([FLT_MAX; 4]);
                out.push(Stmt::Inst(self.inst(
                    Opcode::Min,
                    d,
                    vec![Self::swz(r.clone(), [0; 4]), big],
                )));
                self.compute(inst, Opcode::Mul, vec![s, Self::swz(r, [0; 4])], out)?
            }
            Op::SinCos => {
                // x = cos, y = sin; other components untouched.
                let a = scalar(&srcs[0]);
                let d = inst.dst.as_ref().map_or(0x3, |d| d.mask);
                let (sd, r) = self.scratch_dest(0x3);
                let mut cos = self.inst(Opcode::Cos, sd.clone(), vec![a.clone()]);
                cos.dst.mask = WriteMask(0x1);
                let mut sin = self.inst(Opcode::Sin, sd, vec![a]);
                sin.dst.mask = WriteMask(0x2);
                if d & 1 != 0 {
                    out.push(Stmt::Inst(cos));
                }
                if d & 2 != 0 {
                    out.push(Stmt::Inst(sin));
                }
                self.write(inst, r, out)?
            }
            Op::Lit => self.lit(inst, srcs.remove(0), out)?,
            Op::Cmp => {
                // src0 >= 0 ? src1 : src2 ("cmp - ps"), NaN taking src2.
                let (d, r) = self.scratch_dest(0xf);
                let zero = self.konst([0.0; 4]);
                out.push(Stmt::Inst(self.inst(
                    Opcode::Sge,
                    d,
                    vec![srcs[0].clone(), zero],
                )));
                self.compute(
                    inst,
                    Opcode::Cmp,
                    vec![Self::neg(r), srcs[1].clone(), srcs[2].clone()],
                    out,
                )?
            }
            Op::Cnd => {
                // src0 > 0.5 ? src1 : src2: 0.5 - src0 < 0.
                let (d, r) = self.scratch_dest(0xf);
                let half = self.konst([0.5; 4]);
                out.push(Stmt::Inst(self.inst(
                    Opcode::Sub,
                    d,
                    vec![half, srcs[0].clone()],
                )));
                self.compute(
                    inst,
                    Opcode::Cmp,
                    vec![r, srcs[1].clone(), srcs[2].clone()],
                    out,
                )?
            }
            Op::M4x4 | Op::M4x3 | Op::M3x4 | Op::M3x3 | Op::M3x2 => {
                let (dp, rows) = match op {
                    Op::M4x4 => (Opcode::Dp4, 4),
                    Op::M4x3 => (Opcode::Dp4, 3),
                    Op::M3x4 => (Opcode::Dp3, 4),
                    Op::M3x3 => (Opcode::Dp3, 3),
                    _ => (Opcode::Dp3, 2),
                };
                let vector = srcs[0].clone();
                let (sd, r) = self.scratch_dest(0xf);
                let m = &inst.srcs[1];
                for row in 0..rows {
                    let mut reg = m.reg;
                    reg.num += row;
                    let row_src = Src { reg, ..m.clone() };
                    let o = self.src(&row_src, 1, out)?;
                    let mut dp = self.inst(dp, sd.clone(), vec![vector.clone(), o]);
                    dp.dst.mask = WriteMask(1 << row);
                    out.push(Stmt::Inst(dp));
                }
                self.write(inst, r, out)?
            }
            Op::Bem => {
                // dest.rg = src0.rg + BUMPENVMAT(stage n) × src1.rg, n the
                // destination register number ("bem - ps").
                let stage = inst.dst.as_ref().map_or(0, |d| d.reg.num);
                let mat = self.bump_matrix(stage);
                self.compute(
                    inst,
                    Opcode::X2d,
                    vec![srcs[0].clone(), srcs[1].clone(), mat],
                    out,
                )?
            }
            Op::Setp => {
                let cmp = inst
                    .comparison()
                    .ok_or_else(|| internal("setp without a comparison", self.span))?;
                let mask = inst.dst.as_ref().map_or(0xf, |d| d.mask);
                let (d, _) = self.scratch_dest(mask);
                let mut set = self.inst(set_op(cmp), d, srcs);
                set.cc_update = Some(CcReg(0));
                out.push(Stmt::Inst(set));
            }
            Op::TexKill => self.texkill(inst, out)?,
            Op::TexLd | Op::TexLdl | Op::TexLdd => self.texld(inst, out)?,
            Op::Tex
            | Op::TexCoord
            | Op::TexBem
            | Op::TexBemL
            | Op::TexReg2Ar
            | Op::TexReg2Gb
            | Op::TexReg2Rgb
            | Op::TexDp3
            | Op::TexDp3Tex
            | Op::TexLd14
            | Op::TexCrd
            | Op::TexDepth => self.ps1x_texture(inst, out)?,
            Op::TexM3x2Pad
            | Op::TexM3x2Tex
            | Op::TexM3x2Depth
            | Op::TexM3x3Pad
            | Op::TexM3x3
            | Op::TexM3x3Tex
            | Op::TexM3x3Spec
            | Op::TexM3x3VSpec => {
                return Err(internal(
                    "a texm instruction outside its sequence",
                    self.span,
                ))
            }
            Op::Call | Op::CallNz => {
                let label = inst.srcs[0].reg.num;
                let target = *self
                    .labels
                    .get(&label)
                    .ok_or_else(|| internal("a call to an unknown label", self.span))?;
                let cond = if op == Op::CallNz {
                    Some(self.condition(inst, out)?)
                } else {
                    None
                };
                out.push(Stmt::Call {
                    target,
                    cond,
                    span: self.span,
                });
            }
            Op::Break => out.push(Stmt::Break {
                cond: None,
                span: self.span,
            }),
            Op::BreakC | Op::BreakP => {
                let cond = self.condition(inst, out)?;
                out.push(Stmt::Break {
                    cond: Some(cond),
                    span: self.span,
                });
            }
            Op::If
            | Op::Ifc
            | Op::Else
            | Op::EndIf
            | Op::Rep
            | Op::EndRep
            | Op::Loop
            | Op::EndLoop => {
                return Err(internal(
                    "flow control outside the block builder",
                    self.span,
                ))
            }
        }
        Ok(())
    }

    /// `mova` (and vs_1_1 `mov a0.x`): round to nearest, halves up.
    fn write_address(
        &mut self,
        inst: &Instruction,
        src: Operand,
        out: &mut Vec<Stmt>,
    ) -> Result<(), Diagnostic> {
        let (d, r) = self.scratch_dest(0xf);
        let half = self.konst([0.5; 4]);
        out.push(Stmt::Inst(self.inst(Opcode::Add, d, vec![src, half])));
        let Some(dd) = inst.dst.as_ref() else {
            return Ok(());
        };
        let mut dest = self.dest(dd, inst, out)?;
        dest.ty = DataType::Signed;
        let i = self.typed_inst(Opcode::Flr, DataType::Signed, dest, vec![r]);
        out.push(Stmt::Inst(i));
        Ok(())
    }

    /// vs_1_1 `expp`: (2^floor(v), v - floor(v), 2^v, 1).
    fn expp_vs11(
        &mut self,
        inst: &Instruction,
        v: Operand,
        out: &mut Vec<Stmt>,
    ) -> Result<(), Diagnostic> {
        let (d, r) = self.scratch_dest(0xf);
        let (fd, f) = self.scratch_dest(0x1);
        out.push(Stmt::Inst(self.inst(Opcode::Flr, fd, vec![v.clone()])));
        let mut e = self.inst(Opcode::Ex2, d.clone(), vec![Self::swz(f, [0; 4])]);
        e.dst.mask = WriteMask(0x1);
        out.push(Stmt::Inst(e));
        let mut fr = self.inst(Opcode::Frc, d.clone(), vec![v.clone()]);
        fr.dst.mask = WriteMask(0x2);
        out.push(Stmt::Inst(fr));
        let mut z = self.inst(Opcode::Ex2, d.clone(), vec![v]);
        z.dst.mask = WriteMask(0x4);
        out.push(Stmt::Inst(z));
        let one = self.konst([1.0; 4]);
        let mut w = self.mov(d, one);
        w.dst.mask = WriteMask(0x8);
        out.push(Stmt::Inst(w));
        self.write(inst, r, out)
    }

    /// `lit` ("lit - vs"): (1, src.x > 0 ? src.x : 0, src.x > 0 && src.y >
    /// 0 ? src.y ^ clamp(src.w, ±127.9961) : 0, 1).
    fn lit(
        &mut self,
        inst: &Instruction,
        s: Operand,
        out: &mut Vec<Stmt>,
    ) -> Result<(), Diagnostic> {
        let (d, r) = self.scratch_dest(0xf);
        let (pd, p) = self.scratch_dest(0x1);
        let max_power = self.konst([127.9961; 4]);
        let min_power = self.konst([-127.9961; 4]);
        out.push(Stmt::Inst(self.inst(
            Opcode::Max,
            pd.clone(),
            vec![Self::swz(s.clone(), [3; 4]), min_power],
        )));
        out.push(Stmt::Inst(self.inst(
            Opcode::Min,
            pd,
            vec![Self::swz(p.clone(), [0; 4]), max_power],
        )));
        let mut pw = self.inst(
            Opcode::Pow,
            d.clone(),
            vec![Self::swz(s.clone(), [1; 4]), Self::swz(p, [0; 4])],
        );
        pw.dst.mask = WriteMask(0x4);
        out.push(Stmt::Inst(pw));
        let zero = self.konst([0.0; 4]);
        // z: src.y > 0 (−src.y < 0) keeps the power, else 0.
        let mut zsel = self.inst(
            Opcode::Cmp,
            d.clone(),
            vec![
                Self::neg(Self::swz(s.clone(), [1; 4])),
                Self::swz(r.clone(), [2; 4]),
                zero.clone(),
            ],
        );
        zsel.dst.mask = WriteMask(0x4);
        out.push(Stmt::Inst(zsel));
        // y = x and z survive where src.x > 0.
        let mut y = self.mov(d.clone(), Self::swz(s.clone(), [0; 4]));
        y.dst.mask = WriteMask(0x2);
        out.push(Stmt::Inst(y));
        let mut yz = self.inst(
            Opcode::Cmp,
            d.clone(),
            vec![Self::neg(Self::swz(s, [0; 4])), r.clone(), zero],
        );
        yz.dst.mask = WriteMask(0x6);
        out.push(Stmt::Inst(yz));
        let one = self.konst([1.0; 4]);
        let mut xw = self.mov(d, one);
        xw.dst.mask = WriteMask(0x9);
        out.push(Stmt::Inst(xw));
        self.write(inst, r, out)
    }

    // ------------------------------------------------------------ textures

    fn target(&self, sampler: u32) -> TexTarget {
        let ty = if self.v.is_sm1() {
            self.o
                .ps1x_stage_types
                .get(sampler as usize)
                .copied()
                .unwrap_or(SamplerType::T2D)
        } else {
            self.a
                .decls
                .iter()
                .find(|d| {
                    d.reg
                        == Register {
                            ty: RegType::Sampler,
                            num: sampler,
                        }
                })
                .map_or(SamplerType::T2D, |d| d.sampler)
        };
        match ty {
            SamplerType::T1D => TexTarget::T1D,
            SamplerType::Cube => TexTarget::Cube,
            SamplerType::Volume => TexTarget::T3D,
            SamplerType::T2D | SamplerType::Unknown => TexTarget::T2D,
        }
    }

    fn sample(&mut self, op: Opcode, dst: Dest, srcs: Vec<Operand>, unit: u32) -> ir::Instruction {
        let mut i = self.inst(op, dst, srcs);
        i.tex = Some(Box::new(TexAccess::fixed(unit, self.target(unit))));
        i
    }

    /// `texld`, `texldp`, `texldb`, `texldl`, `texldd` (shader model 2 and 3).
    fn texld(&mut self, inst: &Instruction, out: &mut Vec<Stmt>) -> Result<(), Diagnostic> {
        let coord = self.src(&inst.srcs[0], 0, out)?;
        let sampler = &inst.srcs[1];
        let unit = sampler.reg.num;
        let op = match (inst.form.op, inst.control) {
            (Op::TexLdl, _) => Opcode::Txl,
            (Op::TexLdd, _) => Opcode::Txd,
            (_, 1) => Opcode::Txp,
            (_, 2) if self.v.is_pixel() => Opcode::Txb,
            _ => Opcode::Tex,
        };
        let mut srcs = vec![coord];
        if op == Opcode::Txd {
            srcs.push(self.src(&inst.srcs[2], 2, out)?);
            srcs.push(self.src(&inst.srcs[3], 3, out)?);
        }
        // The sampler's swizzle picks from the sampled texel (ps_3_0,
        // vs_3_0 "texldl").
        if sampler.swizzle == [0, 1, 2, 3] && inst.dst.as_ref().is_some_and(|d| d.shift == 0) {
            let Some(d) = inst.dst.as_ref() else {
                return Ok(());
            };
            let dest = self.dest(d, inst, out)?;
            let i = self.sample(op, dest, srcs, unit);
            self.push_result(inst, i, out);
            return Ok(());
        }
        let (d, r) = self.scratch_dest(0xf);
        out.push(Stmt::Inst(self.sample(op, d, srcs, unit)));
        self.write(inst, Self::swz(r, sampler.swizzle), out)
    }

    fn texkill(&mut self, inst: &Instruction, out: &mut Vec<Stmt>) -> Result<(), Diagnostic> {
        let Some(d) = inst.dst.as_ref() else {
            return Ok(());
        };
        let v = self.v;
        let operand = if v.is_pixel() && v.level() <= L1_3 {
            // ps_1_1-1_3: the texture coordinate set of the register's stage.
            let tc = self.texcoord(d.reg.num);
            self.read(tc)
        } else {
            self.register_operand(d.reg, None, out)?
        };
        // Shader model 1 tests x, y, z ("texkill - ps"); later versions the
        // components of the write mask (HLSL clip()).
        let mask = if v.is_sm1() { 0x7 } else { d.mask };
        let comps: Vec<u8> = (0..4).filter(|c| mask & (1 << c) != 0).collect();
        let last = comps.last().copied().unwrap_or(0);
        let sw: [u8; 4] = std::array::from_fn(|i| comps.get(i).copied().unwrap_or(last));
        out.push(Stmt::Kill {
            cond: KillCondition::Operand(Self::swz(operand, sw)),
            span: self.span,
        });
        Ok(())
    }

    /// Element `2n` of the state block as the X2D matrix operand (m00,
    /// m10, m01, m11).
    fn bump_matrix(&mut self, stage: u32) -> Operand {
        let s = self.state_block();
        self.operand(
            s,
            Index::Absolute(2 * stage),
            Swizzle([0, 2, 1, 3]),
            DataType::Float,
        )
    }

    fn ps1x_stage_sample(&mut self, stage: u32, dest: Dest, coord: Operand) -> ir::Instruction {
        let projected = self.o.ps1x_projected_stages & (1 << stage) != 0 && self.v.level() <= L1_3;
        self.sample(
            if projected { Opcode::Txp } else { Opcode::Tex },
            dest,
            vec![coord],
            stage,
        )
    }

    /// The ps_1_x texture instructions other than the texm sequences.
    fn ps1x_texture(&mut self, inst: &Instruction, out: &mut Vec<Stmt>) -> Result<(), Diagnostic> {
        let Some(d) = inst.dst.as_ref() else {
            return Ok(());
        };
        let m = d.reg.num;
        let op = inst.form.op;
        let dest = self.dest(d, inst, out)?;
        match op {
            Op::Tex => {
                let tc = self.texcoord(m);
                let coord = self.read(tc);
                let i = self.ps1x_stage_sample(m, dest, coord);
                out.push(Stmt::Inst(i));
            }
            Op::TexCoord => {
                // (u, v, w, 1) clamped to [0, 1].
                let tc = self.texcoord(m);
                let mut c = self.mov(dest.clone(), self.read(tc));
                c.dst.mask = WriteMask(0x7);
                c.clamp = Some(Clamp::Sat);
                out.push(Stmt::Inst(c));
                let one = self.konst([1.0; 4]);
                let mut w = self.mov(dest, one);
                w.dst.mask = WriteMask(0x8);
                out.push(Stmt::Inst(w));
            }
            Op::TexBem | Op::TexBemL => {
                let tn = self.src(&inst.srcs[0], 0, out)?;
                let tc = self.texcoord(m);
                let (cd, c) = self.scratch_dest(0xf);
                out.push(Stmt::Inst(self.mov(cd.clone(), self.read(tc))));
                let mat = self.bump_matrix(m);
                let mut x2d = self.inst(Opcode::X2d, cd, vec![self.read(tc), tn.clone(), mat]);
                x2d.dst.mask = WriteMask(0x3);
                out.push(Stmt::Inst(x2d));
                let i = self.ps1x_stage_sample(m, dest.clone(), c);
                out.push(Stmt::Inst(i));
                if op == Op::TexBemL {
                    // × (t(n).b × LSCALE + LOFFSET), all four channels.
                    let s = self.state_block();
                    let l = self.operand(
                        s,
                        Index::Absolute(2 * m + 1),
                        Swizzle::IDENTITY,
                        DataType::Float,
                    );
                    let (ld, lum) = self.scratch_dest(0x1);
                    out.push(Stmt::Inst(self.inst(
                        Opcode::Mad,
                        ld,
                        vec![
                            Self::swz(tn, [2; 4]),
                            Self::swz(l.clone(), [0; 4]),
                            Self::swz(l, [1; 4]),
                        ],
                    )));
                    let read = self.read(dest.var);
                    out.push(Stmt::Inst(self.inst(
                        Opcode::Mul,
                        dest,
                        vec![read, Self::swz(lum, [0; 4])],
                    )));
                }
            }
            Op::TexReg2Ar | Op::TexReg2Gb | Op::TexReg2Rgb => {
                let src = self.src(&inst.srcs[0], 0, out)?;
                let sw = match op {
                    Op::TexReg2Ar => [3, 0, 0, 0],
                    Op::TexReg2Gb => [1, 2, 2, 2],
                    _ => [0, 1, 2, 2],
                };
                let i = self.sample(Opcode::Tex, dest, vec![Self::swz(src, sw)], m);
                out.push(Stmt::Inst(i));
            }
            Op::TexDp3 | Op::TexDp3Tex => {
                let tn = self.src(&inst.srcs[0], 0, out)?;
                let tc = self.texcoord(m);
                if op == Op::TexDp3 {
                    out.push(Stmt::Inst(self.inst(
                        Opcode::Dp3,
                        dest,
                        vec![self.read(tc), tn],
                    )));
                } else {
                    let (cd, c) = self.scratch_dest(0xf);
                    let zero = self.konst([0.0; 4]);
                    out.push(Stmt::Inst(self.mov(cd.clone(), zero)));
                    let mut dp = self.inst(Opcode::Dp3, cd, vec![self.read(tc), tn]);
                    dp.dst.mask = WriteMask(0x1);
                    out.push(Stmt::Inst(dp));
                    let i = self.sample(Opcode::Tex, dest, vec![c], m);
                    out.push(Stmt::Inst(i));
                }
            }
            Op::TexLd14 | Op::TexCrd => {
                let s = &inst.srcs[0];
                let mut coord = self.register_operand(s.reg, None, out)?;
                coord.swizzle = Swizzle(s.swizzle);
                let coord = match s.modifier {
                    SrcMod::Dz => self.project(coord, 2, out),
                    SrcMod::Dw => self.project(coord, 3, out),
                    _ => coord,
                };
                if op == Op::TexCrd {
                    out.push(Stmt::Inst(self.mov(dest, coord)));
                } else {
                    let i = self.sample(Opcode::Tex, dest, vec![coord], m);
                    out.push(Stmt::Inst(i));
                }
            }
            Op::TexDepth => {
                // depth = r5.r / r5.g, 1.0 where r5.g is 0.
                let r5_var = self.reg_var(Register {
                    ty: RegType::Temp,
                    num: 5,
                });
                let r5 = self.read(r5_var);
                let q = self.divide(Self::swz(r5.clone(), [0; 4]), Self::swz(r5, [1; 4]), out);
                self.write_depth(q, out);
            }
            _ => return Err(internal("not a ps_1_x texture instruction", self.span)),
        }
        Ok(())
    }

    /// `coord` with x and y divided by component `c` (1.0 where it is 0):
    /// ps_1_4's `_dz` and `_dw` ("ps_1_4 source register modifiers").
    fn project(&mut self, coord: Operand, c: u8, out: &mut Vec<Stmt>) -> Operand {
        let (d, r) = self.scratch_dest(0xf);
        out.push(Stmt::Inst(self.mov(d.clone(), coord.clone())));
        let q = self.divide(
            Self::swz(coord.clone(), [0, 1, 0, 0]),
            Self::swz(coord, [c; 4]),
            out,
        );
        let mut m = self.mov(d, q);
        m.dst.mask = WriteMask(0x3);
        out.push(Stmt::Inst(m));
        r
    }

    /// `a / b` per component, 1.0 where b is 0 (texdepth, texm3x2depth,
    /// `_dz`, `_dw`).
    fn divide(&mut self, a: Operand, b: Operand, out: &mut Vec<Stmt>) -> Operand {
        let (d, r) = self.scratch_dest(0xf);
        let mut test = self.mov(d.clone(), b.clone());
        test.cc_update = Some(CcReg(1));
        out.push(Stmt::Inst(test));
        out.push(Stmt::Inst(self.inst(
            Opcode::Div,
            d.clone(),
            vec![a, Self::swz(b, [0; 4])],
        )));
        let one = self.konst([1.0; 4]);
        let mut fix = self.mov(d, one);
        fix.dst.cc_mask = Some(CcTest {
            condition: CcCondition::Eq,
            reg: CcReg(1),
            swizzle: Swizzle::IDENTITY,
        });
        out.push(Stmt::Inst(fix));
        r
    }

    fn write_depth(&mut self, value: Operand, out: &mut Vec<Stmt>) {
        let shadow = self.reg_var(Register {
            ty: RegType::DepthOut,
            num: 0,
        });
        out.push(Stmt::Inst(
            self.mov(self.dest_el_none(shadow, 0xf), Self::swz(value, [0; 4])),
        ));
    }

    /// texm3x2pad + texm3x2tex/depth, texm3x3pad × 2 + texm3x3/tex/spec/vspec.
    fn texm_sequence(
        &mut self,
        first: usize,
        len: usize,
        out: &mut Vec<Stmt>,
    ) -> Result<(), Diagnostic> {
        let insts = &self.shader.instructions;
        let last = &insts[first + len - 1];
        let tn_src = insts[first].srcs[0].clone();
        let tn = self.src(&tn_src, 0, out)?;
        let m = insts[first].dst.as_ref().map_or(0, |d| d.reg.num);
        let (vd, vec) = self.scratch_dest(0xf);
        let zero = self.konst([0.0; 4]);
        out.push(Stmt::Inst(self.mov(vd.clone(), zero)));
        for row in 0..len as u32 {
            let tc = self.texcoord(m + row);
            let mut dp = self.inst(Opcode::Dp3, vd.clone(), vec![self.read(tc), tn.clone()]);
            dp.dst.mask = WriteMask(1 << row);
            out.push(Stmt::Inst(dp));
        }
        self.line = first + len - 1;
        self.span = self
            .listing
            .lines
            .get(self.line)
            .map_or(self.span, |l| l.span);
        let Some(d) = last.dst.as_ref() else {
            return Ok(());
        };
        let stage = d.reg.num;
        let dest = self.dest(d, last, out)?;
        match last.form.op {
            Op::TexM3x2Tex | Op::TexM3x3Tex => {
                let i = self.sample(Opcode::Tex, dest, vec![vec], stage);
                out.push(Stmt::Inst(i));
            }
            Op::TexM3x2Depth => {
                // depth = z / w (1.0 where w is 0), also in t(m+1).
                let q = self.divide(Self::swz(vec.clone(), [0; 4]), Self::swz(vec, [1; 4]), out);
                out.push(Stmt::Inst(self.mov(dest, q.clone())));
                self.write_depth(q, out);
            }
            Op::TexM3x3 => {
                let one = self.konst([1.0; 4]);
                let mut w = self.mov(vd, one);
                w.dst.mask = WriteMask(0x8);
                out.push(Stmt::Inst(w));
                out.push(Stmt::Inst(self.mov(dest, vec)));
            }
            Op::TexM3x3Spec | Op::TexM3x3VSpec => {
                let eye = if last.form.op == Op::TexM3x3Spec {
                    let e = last.srcs[1].clone();
                    self.src(&e, 1, out)?
                } else {
                    // E = the q (w) components of the three coordinate sets.
                    let (ed, e) = self.scratch_dest(0xf);
                    for row in 0..3u32 {
                        let tc = self.texcoord(m + row);
                        let mut mv = self.mov(ed.clone(), Self::swz(self.read(tc), [3; 4]));
                        mv.dst.mask = WriteMask(1 << row);
                        out.push(Stmt::Inst(mv));
                    }
                    e
                };
                let (rd, r) = self.scratch_dest(0xf);
                let mut rfl = self.inst(Opcode::Rfl, rd, vec![vec, eye]);
                rfl.dst.mask = WriteMask(0x7);
                out.push(Stmt::Inst(rfl));
                let i = self.sample(Opcode::Tex, dest, vec![r], stage);
                out.push(Stmt::Inst(i));
            }
            _ => {
                return Err(internal(
                    "a texm sequence without its last instruction",
                    self.span,
                ))
            }
        }
        Ok(())
    }

    // ------------------------------------------------------------ epilogue

    /// Copies the output shadows to the results, applying the Direct3D 9
    /// conventions (docs/interface.md).
    fn epilogue(&mut self) -> Result<Vec<Stmt>, Diagnostic> {
        let v = self.v;
        let mut out = Vec::new();
        if v.is_pixel() {
            if v.is_sm1() {
                let r0 = self.reg_var(Register {
                    ty: RegType::Temp,
                    num: 0,
                });
                let color = self.result(ResultBinding::FragColor(0), "oC0");
                out.push(Stmt::Inst(
                    self.mov(self.dest_el_none(color, 0xf), self.read(r0)),
                ));
            }
            if let Some(&depth) = self.regs.get(&Register {
                ty: RegType::DepthOut,
                num: 0,
            }) {
                let result = self.result(ResultBinding::Depth, "oDepth");
                out.push(Stmt::Inst(self.mov(
                    self.dest_el_none(result, 0x4),
                    Self::swz(self.read(depth), [0; 4]),
                )));
            }
            return Ok(out);
        }
        let regs: Vec<(Register, VarId)> = self.regs.iter().map(|(r, v)| (*r, *v)).collect();
        for (reg, var) in regs {
            match reg.ty {
                RegType::RastOut => match reg.num {
                    0 => self.position_out(self.read(var), &mut out),
                    1 => {
                        // oFog: the x component, clamped to [0, 1].
                        let fog = self.result(ResultBinding::FogCoord, "oFog");
                        let mut m = self.mov(
                            self.dest_el_none(fog, 0xf),
                            Self::swz(self.read(var), [0; 4]),
                        );
                        m.clamp = Some(Clamp::Sat);
                        out.push(Stmt::Inst(m));
                    }
                    _ => {
                        let pts = self.result(ResultBinding::PointSize, "oPts");
                        out.push(Stmt::Inst(self.mov(
                            self.dest_el_none(pts, 0xf),
                            Self::swz(self.read(var), [0; 4]),
                        )));
                    }
                },
                RegType::AttrOut => {
                    let color = self.result(
                        result_binding(Varying::Color(reg.num as u8)),
                        &format!("oD{}", reg.num),
                    );
                    let mut m = self.mov(self.dest_el_none(color, 0xf), self.read(var));
                    m.clamp = Some(Clamp::Sat);
                    out.push(Stmt::Inst(m));
                }
                RegType::TexCrdOut => {
                    let tc =
                        self.result(ResultBinding::TexCoord(reg.num), &format!("oT{}", reg.num));
                    out.push(Stmt::Inst(
                        self.mov(self.dest_el_none(tc, 0xf), self.read(var)),
                    ));
                }
                _ => {}
            }
        }
        if v.level() >= L3_0 {
            let Some(&arr) = self
                .regs
                .get(&Register {
                    ty: RegType::Output,
                    num: 0,
                })
                .or_else(|| {
                    self.regs
                        .iter()
                        .find(|(r, _)| r.ty == RegType::Output)
                        .map(|(_, v)| v)
                })
            else {
                return Ok(out);
            };
            for d in self.a.decls.clone() {
                if d.reg.ty != RegType::Output {
                    continue;
                }
                let Some((usage, index)) = d.usage else {
                    continue;
                };
                self.at_instruction(d.instruction);
                let slot = varying_slot(usage, index, true, false)
                    .ok_or_else(|| internal("a semantic without a Location", self.span))?;
                let value = self.operand(
                    arr,
                    Index::Absolute(d.reg.num),
                    Swizzle::IDENTITY,
                    DataType::Float,
                );
                match slot {
                    Varying::Position => self.position_out(value, &mut out),
                    Varying::PointSize => {
                        let pts = self.result(ResultBinding::PointSize, "psize");
                        out.push(Stmt::Inst(
                            self.mov(self.dest_el_none(pts, 0xf), Self::swz(value, [0; 4])),
                        ));
                    }
                    slot => {
                        let name = format!("{}{}", usage.name(), index);
                        let res = self.result(result_binding(slot), &name);
                        // Components the declaration leaves out read
                        // (0, 0, 0, 1), as unwritten output components do.
                        if d.mask != 0xf {
                            let init = self.konst([0.0, 0.0, 0.0, 1.0]);
                            out.push(Stmt::Inst(
                                self.mov(self.dest_el_none(res, 0xf & !d.mask), init),
                            ));
                        }
                        out.push(Stmt::Inst(self.mov(self.dest_el_none(res, d.mask), value)));
                    }
                }
            }
        }
        Ok(out)
    }

    /// The position output with the optional conversions: y negated
    /// (`flip_y`), `w × offset` added (`half_pixel_offset`).
    fn position_out(&mut self, value: Operand, out: &mut Vec<Stmt>) {
        let pos = self.result(ResultBinding::Position, "oPos");
        if !self.o.flip_y && !self.o.half_pixel_offset {
            out.push(Stmt::Inst(self.mov(self.dest_el_none(pos, 0xf), value)));
            return;
        }
        let (d, r) = self.scratch_dest(0xf);
        out.push(Stmt::Inst(self.mov(d.clone(), value)));
        if self.o.half_pixel_offset {
            let s = self.state_block();
            let offset = self.operand(
                s,
                Index::Absolute(POSITION_OFFSET_ELEMENT),
                Swizzle::IDENTITY,
                DataType::Float,
            );
            let mut mad = self.inst(
                Opcode::Mad,
                d.clone(),
                vec![Self::swz(r.clone(), [3; 4]), offset, r.clone()],
            );
            mad.dst.mask = WriteMask(0x3);
            out.push(Stmt::Inst(mad));
        }
        if self.o.flip_y {
            let mut flip = self.mov(d, Self::neg(r.clone()));
            flip.dst.mask = WriteMask(0x2);
            out.push(Stmt::Inst(flip));
        }
        out.push(Stmt::Inst(self.mov(self.dest_el_none(pos, 0xf), r)));
    }
}

/// Whether the co-issued `second` reads a register `first` writes.
fn reads_dst_of(second: &Instruction, first: &Instruction) -> bool {
    let Some(d) = first.dst.as_ref() else {
        return false;
    };
    second.srcs.iter().any(|s| s.reg == d.reg)
}

fn unreachable_mod(o: Operand) -> Operand {
    // `base()` never returns a negating modifier.
    o
}

fn register_count(v: Version, ty: RegType) -> u32 {
    super::check::register_info(v, ty).map_or(1, |r| r.count)
}

/// An open block while a function's flow tree is built.
struct Frame {
    kind: FrameKind,
    then_block: Vec<Stmt>,
    else_block: Vec<Stmt>,
    in_else: bool,
    test: Option<CcTest>,
    count: Option<Operand>,
    span: Span,
    /// `aL` is restored from this after a loop.
    restore: Option<VarId>,
    /// A loop's `i#.z`.
    step: Option<Operand>,
}

#[derive(PartialEq)]
enum FrameKind {
    If,
    Rep,
    Loop,
}
