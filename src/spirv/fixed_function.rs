//! The fixed-function work that program options and the renderer's
//! [`Options`] add around the program (docs/semantics.md, "Options";
//! docs/interface.md, "Clip space"):
//!
//! * `OPTION ARB_position_invariant` (ARB_vertex_program section
//!   2.14.4.5.1, NV_vertex_program4 section 2.X.6.Y): the position is
//!   computed "as specified in section 2.10", from `state.matrix.mvp` and
//!   `vertex.position`, one DP4 per row of the matrix in the order a
//!   fixed-function-style program computes it, and the `Position` output is
//!   decorated `Invariant`; "user clipping is performed as described in
//!   section 2.11": `ClipDistance[n]` is the enabled plane *n*
//!   (`state.clip[n].plane`, eye space) dotted with the eye-space position
//!   `state.matrix.modelview[0] × vertex.position`, 0 (never clipped) for a
//!   disabled plane.
//! * `OPTION ARB_fog_exp` / `_exp2` / `_linear` (ARB_fragment_program
//!   section 3.11.4.5.1, NV_fragment_program4 section 2.X.6.Y): fog is
//!   applied to the program's final `result.color` as OpenGL 2.0 section
//!   3.10 defines it, from `fragment.fogcoord.x` and `state.fog.*`.
//! * `!!ARBvp1.0` programs: "Clamping the primary and secondary colors to
//!   [0,1]" is not subsumed by vertex programs (ARB_vertex_program issue 4;
//!   section 2.14.x: "as primitives are assembled, color clamping (section
//!   2.13.6) ... [is] applied to the transformed vertices"): every colour
//!   result the program declares is clamped after it.
//! * `Options::invert_y` and `Options::depth_range`: the clip-space
//!   position of a vertex program (after it) or geometry program (at each
//!   EMIT) is converted to Vulkan's conventions.
//!
//! The work after the program runs in the entry point, which calls the
//! program's own entry function first, so every way the program ends (its
//! end, RET in the entry subroutine) reaches it; a KIL'd fragment never
//! gets its colour.

use rspirv::spirv::{self, GlslStd450Op as GLOp, Op, Word};

use super::emit::{Comp, LResult, Val, F32_ONE};
use super::operand::Enable;
use super::{LowerError, Lowerer};
use crate::ir::{AttribBinding, ColorSel, FogMode, Program, ResultBinding, VarKind, WriteMask};
use crate::isa::Stage;
use crate::layout::DepthRange;
use crate::span::Span;
use crate::state::{read_path, Read, CLIP_PLANE_ENABLES, MAX_CLIP_PLANES};
use crate::Options;

/// What fixed-function work a module does besides the program.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct FixedFunction {
    stage: Option<Stage>,
    /// `ARB_position_invariant` in a vertex program.
    pub position_invariant: bool,
    /// The user clip planes a position-invariant program clips against:
    /// `0..Options::user_clip_planes`, less those the program writes
    /// itself as `result.clip[n]`.
    pub clip_planes: Vec<u32>,
    /// `ARB_fog_*` in a fragment program.
    pub fog: Option<FogMode>,
    /// `Options::invert_y` for a vertex or geometry program.
    pub invert_y: bool,
    /// `Options::depth_range` is GL's, for a vertex or geometry program.
    pub gl_depth: bool,
    /// `Options::two_sided_color` in a fragment program.
    pub two_sided: bool,
    /// The colour results an `!!ARBvp1.0` program declares, clamped to
    /// [0, 1] after it (GL's colour clamping, section 2.13.6).
    pub clamp_colors: Vec<ResultBinding>,
    /// A geometry program with POINTS output or a point-mode tessellation
    /// evaluation program that writes no `result.pointsize` writes 1.0
    /// (`Options::shader_tessellation_and_geometry_point_size`), and a
    /// vertex program with `Options::vertex_point_size`
    /// (docs/interface.md, "Point size").
    pub default_point_size: bool,
}

impl FixedFunction {
    pub(crate) fn of(program: &Program, options: &Options) -> FixedFunction {
        let stage = program.stage;
        let position_invariant = stage == Stage::Vertex && program.position_invariant();
        let clip_planes = if position_invariant {
            let written = |n: u32| {
                program.variables.iter().any(|v| {
                    matches!(&v.kind, VarKind::Result(b) if b.contains(&ResultBinding::Clip(n)))
                })
            };
            (0..options.user_clip_planes.min(MAX_CLIP_PLANES))
                .filter(|&n| !written(n))
                .collect()
        } else {
            Vec::new()
        };
        let pre_raster = matches!(stage, Stage::Vertex | Stage::Geometry);
        let mut clamp_colors: Vec<ResultBinding> = Vec::new();
        if stage == Stage::Vertex && program.dialect.is_arb() {
            for v in &program.variables {
                if let VarKind::Result(bindings) = &v.kind {
                    for b in bindings {
                        if matches!(b, ResultBinding::Color(_)) && !clamp_colors.contains(b) {
                            clamp_colors.push(*b);
                        }
                    }
                }
            }
        }
        // NV_geometry_program4, section 3.3 (Points): without a program
        // point size the size is PointSize's, whose "default value is 1.0";
        // Vulkan wants these stages to write one when the device enables
        // shaderTessellationAndGeometryPointSize (VUID-...-Geometry-07725,
        // now ...-shaderTessellationAndGeometryPointSize-08776, for
        // geometry; VUID-...-TessellationEvaluation-07723 for tessellation
        // evaluation in point mode).
        let draws_points = match stage {
            Stage::Geometry => program
                .geometry
                .is_some_and(|g| g.output == crate::ir::PrimitiveOut::Points),
            Stage::TessEval => program.tess_eval.is_some_and(|t| t.point_mode),
            _ => false,
        };
        let writes_point_size = program.variables.iter().any(
            |v| matches!(&v.kind, VarKind::Result(b) if b.contains(&ResultBinding::PointSize)),
        );
        // A vertex program needs no feature for PointSize; whether it is
        // drawn as points is the renderer's to say (VUID-...-Vertex-07722,
        // now -topology-08773).
        let wants_point_size = match stage {
            Stage::Vertex => options.vertex_point_size,
            _ => draws_points && options.shader_tessellation_and_geometry_point_size,
        };
        FixedFunction {
            default_point_size: wants_point_size && !writes_point_size,
            stage: Some(stage),
            position_invariant,
            clip_planes,
            fog: if stage == Stage::Fragment {
                program.fog()
            } else {
                None
            },
            invert_y: pre_raster && options.invert_y,
            gl_depth: pre_raster && options.depth_range == DepthRange::Gl,
            two_sided: stage == Stage::Fragment && options.two_sided_color,
            clamp_colors,
        }
    }

    /// Whether the entry point runs work before or after the program (and
    /// the program is a function it calls).
    pub(crate) fn wraps_program(&self) -> bool {
        match self.stage {
            Some(Stage::Vertex) => {
                self.position_invariant
                    || self.converts_clip_space()
                    || !self.clamp_colors.is_empty()
            }
            Some(Stage::Fragment) => self.fog.is_some() || self.two_sided,
            _ => false,
        }
    }

    /// Whether the clip-space position is converted (vertex: after the
    /// program; geometry: at each EMIT).
    pub(crate) fn converts_clip_space(&self) -> bool {
        self.invert_y || self.gl_depth
    }

    /// The State rows the work reads, as canonical state paths (the
    /// `state.depth.range` row carries the clip plane enables).
    pub(crate) fn state_reads(&self) -> Vec<Vec<String>> {
        let path = |p: &[&str]| p.iter().map(|s| s.to_string()).collect::<Vec<String>>();
        let mut out = Vec::new();
        let matrix = |out: &mut Vec<Vec<String>>, m: &[&str]| {
            for r in 0..4 {
                let r = r.to_string();
                let mut p = m.to_vec();
                p.extend(["row", r.as_str()]);
                out.push(path(&p));
            }
        };
        if self.position_invariant {
            matrix(&mut out, &["matrix", "mvp"]);
            if !self.clip_planes.is_empty() {
                matrix(&mut out, &["matrix", "modelview", "0"]);
                for &n in &self.clip_planes {
                    out.push(path(&["clip", &n.to_string(), "plane"]));
                }
                out.push(path(&["depth", "range"]));
            }
        }
        if self.fog.is_some() {
            out.push(path(&["fog", "color"]));
            out.push(path(&["fog", "params"]));
        }
        out
    }

    /// One more than the highest State row the work reads.
    pub(crate) fn state_rows_end(&self) -> u32 {
        let mut end = 0;
        for p in self.state_reads() {
            if let Ok(read) = read_path(&p) {
                end = end.max(read.rows().end);
            }
        }
        debug_assert!(
            self.clip_planes.is_empty() || !self.position_invariant || end > CLIP_PLANE_ENABLES.0
        );
        end
    }

    /// The attribute bindings the work reads (their inputs are declared
    /// whether or not the program reads them).
    pub(crate) fn attribs(&self) -> Vec<AttribBinding> {
        let mut out = Vec::new();
        if self.two_sided {
            out.push(AttribBinding::Facing);
        }
        if self.position_invariant {
            out.push(AttribBinding::Position);
        }
        if self.fog.is_some() {
            out.push(AttribBinding::FogCoord);
        }
        out
    }

    /// The result bindings the work writes (declared whether or not the
    /// program writes them). Fog blends the colour the program wrote, so
    /// it declares nothing.
    pub(crate) fn results(&self) -> Vec<ResultBinding> {
        let mut out = Vec::new();
        if self.position_invariant {
            out.push(ResultBinding::Position);
            out.extend(self.clip_planes.iter().map(|&n| ResultBinding::Clip(n)));
        }
        if self.default_point_size {
            out.push(ResultBinding::PointSize);
        }
        out
    }
}

/// A vec4 write of every component.
fn all() -> Enable {
    Enable {
        mask: WriteMask::ALL,
        dynamic: None,
    }
}

fn row(path: &[&str]) -> LResult<u32> {
    match read_path(path) {
        Ok(Read::Row { row, .. }) => Ok(row),
        other => Err(LowerError::internal(format!(
            "state.{} is not a stored row: {other:?}",
            path.join(".")
        ))),
    }
}

impl Lowerer<'_> {
    /// Writes GL's default point size, 1.0, when the program writes none
    /// and its stage must (`FixedFunction::default_point_size`): at each
    /// EMIT of a geometry program (results are undefined after one), at
    /// the start of a tessellation evaluation or vertex program.
    pub(crate) fn write_default_point_size(&mut self) -> LResult<()> {
        if !self.fixed.default_point_size {
            return Ok(());
        }
        let var = self
            .result_io(&ResultBinding::PointSize)
            .ok_or_else(|| LowerError::internal("the default point size without PointSize"))?
            .var;
        let one = self.konst(Comp::F32, &[1f32.to_bits()]).id;
        self.b.store(var, one, None, [])?;
        Ok(())
    }

    /// The entry point when work runs after the program: calls the
    /// program's entry function `program_main`, then does the work.
    pub(crate) fn lower_fixed_function_main(&mut self, program_main: Word) -> LResult<Word> {
        let void = self.t_void();
        let fn_ty = self.t_void_fn();
        let id = self.b.id();
        self.b
            .begin_function(void, Some(id), spirv::FunctionControl::NONE, fn_ty)?;
        self.b.name(id, self.options.entry_point.as_str());
        self.b.begin_block(None)?;
        if self.fixed.two_sided {
            self.select_two_sided_colors()?;
        }
        self.b.function_call(void, None, program_main, [])?;
        if self.fixed.position_invariant {
            self.position_invariant()?;
        }
        if let Some(mode) = self.fixed.fog {
            self.fog(mode)?;
        }
        if !self.fixed.clamp_colors.is_empty() {
            self.clamp_vertex_colors()?;
        }
        if self.program.stage == Stage::Vertex && self.fixed.converts_clip_space() {
            self.convert_clip_space()?;
        }
        self.b.ret()?;
        self.b.end_function()?;
        Ok(id)
    }

    /// A State row by path.
    fn state(&mut self, path: &[&str]) -> LResult<Val> {
        let r = row(path)?;
        let id = self.c_i32(r as i32);
        self.state_row(id)
    }

    /// `m × v` for the matrix `state.matrix.<matrix>` (path without the
    /// row): one DP4 of each row with `v`, as `DP4 r.x, m.row[0], v` does.
    fn transform(&mut self, matrix: &[&str], v: Val) -> LResult<Val> {
        let mut parts = Vec::with_capacity(4);
        for r in 0..4 {
            let r = r.to_string();
            let mut path = matrix.to_vec();
            path.extend(["row", r.as_str()]);
            let m = self.state(&path)?;
            parts.push(self.dot(m, v, 4)?);
        }
        self.construct(&parts)
    }

    /// ARB_vertex_program section 2.14.4.5.1: clip coordinates from
    /// `state.matrix.mvp` (section 2.10), and user clipping (section 2.11).
    fn position_invariant(&mut self) -> LResult<()> {
        let input = self
            .attrib_io(&AttribBinding::Position)
            .ok_or_else(|| LowerError::internal("vertex.position was not declared"))?;
        let position = self.load_slot(input, Comp::F32)?;
        let clip = self.transform(&["matrix", "mvp"], position)?;
        let out = self
            .result_io(&ResultBinding::Position)
            .ok_or_else(|| LowerError::internal("result.position was not declared"))?;
        self.store_slot(out, clip, &all(), Span::default())?;
        if self.fixed.clip_planes.is_empty() {
            return Ok(());
        }
        // Eye coordinates: modelview[0] × vertex.position (section 2.10).
        let eye = self.transform(&["matrix", "modelview", "0"], position)?;
        let (enable_row, enable_component) = CLIP_PLANE_ENABLES;
        let r = self.c_i32(enable_row as i32);
        let enables_row = self.state_row(r)?;
        let enables = self.extract(enables_row, enable_component)?;
        let enables = self.cast(enables, Comp::U32)?;
        let zero_f = self.konst(Comp::F32, &[0]);
        let zero_u = self.konst(Comp::U32, &[0]);
        for n in self.fixed.clip_planes.clone() {
            let plane = self.state(&["clip", &n.to_string(), "plane"])?;
            let distance = self.dot(plane, eye, 4)?;
            // Plane n clips when CLIP_PLANEn is enabled; a distance of 0
            // (inside) for a disabled one.
            let bit = self.konst(Comp::U32, &[1 << n]);
            let set = self.op(Op::BitwiseAnd, &[enables, bit])?;
            let enabled = self.cmp(Op::INotEqual, set, zero_u)?;
            let d = self.sel(enabled, distance, zero_f)?;
            let slot = self
                .result_io(&ResultBinding::Clip(n))
                .ok_or_else(|| LowerError::internal("result.clip[n] was not declared"))?;
            let v = self.construct(&[d, zero_f, zero_f, zero_f])?;
            self.store_slot(slot, v, &all(), Span::default())?;
        }
        Ok(())
    }

    /// GL's colour clamping after an `!!ARBvp1.0` program (section 2.13.6):
    /// each colour result clamped to [0, 1] (FClamp; a NaN colour is
    /// undefined in GL too). Integer colour results are left alone.
    fn clamp_vertex_colors(&mut self) -> LResult<()> {
        for binding in self.fixed.clamp_colors.clone() {
            let Some(slot) = self.result_io(&binding) else {
                continue;
            };
            if slot.comp != Comp::F32 {
                continue;
            }
            let v = self.load_slot(slot, Comp::F32)?;
            let zero = self.konst(Comp::F32, &[0; 4]);
            let one = self.konst(Comp::F32, &[F32_ONE; 4]);
            let clamped = self.glsl(GLOp::FClamp, &[v, zero, one])?;
            self.store_slot(slot, clamped, &all(), Span::default())?;
        }
        Ok(())
    }

    /// OpenGL 2.0 section 3.10: the fog factor f from the fragment's fog
    /// coordinate c (`fragment.fogcoord.x`) and `state.fog.params` =
    /// (density, start, end, 1/(end − start)), clamped to [0, 1], and
    /// C′ = f·C + (1 − f)·C_f for the red, green and blue of
    /// `result.color` (the LRP of ARB_fragment_program issue 29); alpha is
    /// unchanged. An integer colour output has nothing to blend.
    fn fog(&mut self, mode: FogMode) -> LResult<()> {
        let color_binding = ResultBinding::Color(ColorSel {
            back: false,
            secondary: false,
        });
        let Some(color_slot) = self.result_io(&color_binding) else {
            return Ok(());
        };
        if color_slot.comp != Comp::F32 {
            return Ok(());
        }
        let fogcoord = self
            .attrib_io(&AttribBinding::FogCoord)
            .ok_or_else(|| LowerError::internal("fragment.fogcoord was not declared"))?;
        let coord = self.load_slot(fogcoord, Comp::F32)?;
        let c = self.extract(coord, 0)?;
        let params = self.state(&["fog", "params"])?;
        let fog_color = self.state(&["fog", "color"])?;
        let f = match mode {
            // f = (end − c) / (end − start), with the stored 1/(end − start).
            FogMode::Linear => {
                let end = self.extract(params, 2)?;
                let scale = self.extract(params, 3)?;
                let d = self.op(Op::FSub, &[end, c])?;
                self.op(Op::FMul, &[d, scale])?
            }
            // f = e^(−density · c)
            FogMode::Exp => {
                let density = self.extract(params, 0)?;
                let t = self.op(Op::FMul, &[density, c])?;
                let minus_t = self.negate(t)?;
                self.glsl(GLOp::Exp, &[minus_t])?
            }
            // f = e^(−(density · c)²)
            FogMode::Exp2 => {
                let density = self.extract(params, 0)?;
                let t = self.op(Op::FMul, &[density, c])?;
                let t2 = self.op(Op::FMul, &[t, t])?;
                let minus_t2 = self.negate(t2)?;
                self.glsl(GLOp::Exp, &[minus_t2])?
            }
        };
        let zero = self.konst(Comp::F32, &[0]);
        let one = self.konst(Comp::F32, &[F32_ONE]);
        let f = self.glsl(GLOp::NClamp, &[f, zero, one])?;
        let color = self.load_slot(color_slot, Comp::F32)?;
        let f4 = self.splat(f, 4)?;
        let one4 = self.splat(one, 4)?;
        let g4 = self.op(Op::FSub, &[one4, f4])?;
        let near = self.op(Op::FMul, &[f4, color])?;
        let far = self.op(Op::FMul, &[g4, fog_color])?;
        let blended = self.op(Op::FAdd, &[near, far])?;
        let rgb = Enable {
            mask: WriteMask(0b0111),
            dynamic: None,
        };
        self.store_slot(color_slot, blended, &rgb, Span::default())
    }

    /// GL's two-sided colour selection (OpenGL 2.0 section 2.14.1,
    /// `VERTEX_PROGRAM_TWO_SIDE`): the colours the program reads are the
    /// back ones (Locations 2 and 3) for a back-facing fragment.
    fn select_two_sided_colors(&mut self) -> LResult<()> {
        let selections = self.io.two_sided.clone();
        if selections.is_empty() {
            return Ok(());
        }
        let facing = self
            .attrib_io(&AttribBinding::Facing)
            .ok_or_else(|| LowerError::internal("fragment.facing was not declared"))?;
        let front = self.load(facing.var, Comp::Bool, 1)?;
        let front4 = self.splat(front, 4)?;
        for s in selections {
            let f = self.load(s.front, s.comp, 4)?;
            let b = self.load(s.back, s.comp, 4)?;
            let v = self.sel(front4, f, b)?;
            self.store(s.selected, v)?;
        }
        Ok(())
    }

    /// `Options::invert_y` (y′ = −y) and `Options::depth_range` GL
    /// (z′ = (z + w) / 2) on the clip-space position written so far.
    pub(crate) fn convert_clip_space(&mut self) -> LResult<()> {
        let Some(slot) = self.result_io(&ResultBinding::Position) else {
            return Ok(());
        };
        let p = self.load_slot(slot, Comp::F32)?;
        let mut parts = Vec::with_capacity(4);
        for c in 0..4 {
            parts.push(self.extract(p, c)?);
        }
        if self.fixed.invert_y {
            parts[1] = self.negate(parts[1])?;
        }
        if self.fixed.gl_depth {
            let half = self.konst(Comp::F32, &[0.5f32.to_bits()]);
            let sum = self.op(Op::FAdd, &[parts[2], parts[3]])?;
            parts[2] = self.op(Op::FMul, &[sum, half])?;
        }
        let v = self.construct(&parts)?;
        self.store_slot(slot, v, &all(), Span::default())
    }
}
