//! The fixed-function work program options ask for after the program
//! (docs/semantics.md, "Options"), read from the specs independently of
//! the backend's `spirv::fixed_function`:
//!
//! * `ARB_position_invariant` (ARB_vertex_program section 2.14.4.5.1):
//!   `result.position` is `state.matrix.mvp` × `vertex.position` (section
//!   2.10), each component a DP4 of a matrix row with the position; user
//!   clipping (section 2.11) sets `result.clip[n]` to the enabled plane *n*
//!   dotted with the eye-space position `state.matrix.modelview[0]` ×
//!   `vertex.position`, or 0 for a disabled plane.
//! * `!!ARBvp1.0` programs: GL's colour clamping (section 2.13.6) after the
//!   program, each colour result clamped to [0, 1] (ARB_vertex_program
//!   issue 4: not subsumed by vertex programs).
//! * `ARB_fog_*` (ARB_fragment_program section 3.11.4.5.1; OpenGL 2.0
//!   section 3.10): `result.color.rgb` = f·C + (1 − f)·C_f with f from
//!   `fragment.fogcoord.x` and `state.fog.params`, clamped to [0, 1].

use std::collections::BTreeMap;

use super::names::attribute_aliases;
use super::{Inputs, Outcome, ResultValue, RunOptions};
use crate::ir::{AttribBinding, FogMode, Program, ResultBinding, VarKind, VarType};
use crate::isa::{DataType, Stage};

/// Applies the options' work to the outcome of a run of `program`.
pub(super) fn apply(
    program: &Program,
    inputs: &Inputs,
    options: &RunOptions,
    outcome: &mut Outcome,
) {
    if outcome.killed {
        return;
    }
    if program.stage == Stage::Vertex && program.position_invariant() {
        position_invariant(program, inputs, options, &mut outcome.results);
    }
    if program.stage == Stage::Vertex && program.dialect.is_arb() {
        clamp_colors(program, &mut outcome.results);
    }
    if program.stage == Stage::Fragment {
        if let Some(mode) = program.fog() {
            fog(program, inputs, mode, &mut outcome.results);
        }
    }
}

/// The bits of the state binding `canonical` (a name [`super::state_name`]
/// gives), or of any other spelling of it among the inputs.
fn state(inputs: &Inputs, canonical: &str) -> [u32; 4] {
    if let Some(v) = inputs.state.get(canonical) {
        return *v;
    }
    let want = crate::state::locate(canonical).ok();
    inputs
        .state
        .iter()
        .find(|(k, _)| want.is_some() && crate::state::locate(k).ok() == want)
        .map_or([0; 4], |(_, v)| *v)
}

fn floats(bits: [u32; 4]) -> [f32; 4] {
    bits.map(f32::from_bits)
}

/// DP4 as section 2.X.8.Z computes it: products and sums rounded to single
/// precision in order.
fn dp4(a: [f32; 4], b: [f32; 4]) -> f32 {
    let mut sum = a[0] * b[0];
    for c in 1..4 {
        sum += a[c] * b[c];
    }
    sum
}

/// `state.matrix.<matrix>` × `v`, one DP4 per row.
fn transform(inputs: &Inputs, matrix: &str, v: [f32; 4]) -> [f32; 4] {
    std::array::from_fn(|r| {
        dp4(
            floats(state(inputs, &format!("state.matrix.{matrix}.row[{r}]"))),
            v,
        )
    })
}

fn written(bits: [u32; 4], mask: u8) -> ResultValue {
    ResultValue {
        bits,
        written: mask,
        undefined: 0xf & !mask,
        types: [DataType::Float; 4],
    }
}

fn position_invariant(
    program: &Program,
    inputs: &Inputs,
    options: &RunOptions,
    results: &mut BTreeMap<String, ResultValue>,
) {
    let mut names = vec!["vertex.position".to_string()];
    names.extend(attribute_aliases(Stage::Vertex, &AttribBinding::Position));
    let position = floats(
        names
            .iter()
            .find_map(|n| inputs.attribs.get(n))
            .copied()
            .unwrap_or([0; 4]),
    );
    let clip = transform(inputs, "mvp", position);
    results.insert(
        "result.position".to_string(),
        written(clip.map(f32::to_bits), 0xf),
    );
    // Section 2.11: user clip planes in eye coordinates; plane n enabled
    // by bit n of state::CLIP_PLANE_ENABLES (the w bits of the
    // state.depth.range row).
    let eye = transform(inputs, "modelview[0]", position);
    let enables = state(inputs, "state.depth.range")[3];
    let writes_clip = |n: u32| {
        program
            .variables
            .iter()
            .any(|v| matches!(&v.kind, VarKind::Result(b) if b.contains(&ResultBinding::Clip(n))))
    };
    for n in 0..options.user_clip_planes.min(crate::state::MAX_CLIP_PLANES) {
        if writes_clip(n) {
            continue;
        }
        let plane = floats(state(inputs, &format!("state.clip[{n}].plane")));
        let d = if enables & (1 << n) != 0 {
            dp4(plane, eye)
        } else {
            0.0
        };
        results.insert(
            format!("result.clip[{n}]"),
            written([d.to_bits(), 0, 0, 0], 0x1),
        );
    }
}

/// Section 2.13.6: the colour results of an ARB vertex program, clamped to
/// [0, 1] (float results). A NaN component becomes undefined: section
/// 2.13.6 does not say where a NaN is clamped to, and the backend's FClamp
/// leaves it undefined too (GLSL.std.450 FClamp is min(max(x, 0), 1),
/// whose result for a NaN operand is undefined).
fn clamp_colors(program: &Program, results: &mut BTreeMap<String, ResultValue>) {
    for v in &program.variables {
        let VarKind::Result(bindings) = &v.kind else {
            continue;
        };
        if matches!(v.ty, VarType::Typed(t) if t != DataType::Float) {
            continue;
        }
        for b in bindings {
            if !matches!(b, ResultBinding::Color(_)) {
                continue;
            }
            if let Some(r) = results.get_mut(&super::names::result_name(b)) {
                let values = floats(r.bits);
                for (c, x) in values.iter().enumerate() {
                    if x.is_nan() {
                        r.undefined |= 1 << c;
                    }
                }
                r.bits = values.map(|x| x.clamp(0.0, 1.0).to_bits());
            }
        }
    }
}

fn fog(
    program: &Program,
    inputs: &Inputs,
    mode: FogMode,
    results: &mut BTreeMap<String, ResultValue>,
) {
    // An integer colour has nothing to blend.
    let integer = program.variables.iter().any(|v| {
        matches!(&v.kind, VarKind::Result(b) if b.iter().any(|r| matches!(r, ResultBinding::Color(_) | ResultBinding::FragColor(0))))
            && matches!(v.ty, VarType::Typed(t) if t != DataType::Float)
    });
    let Some(color) = results.get_mut("result.color") else {
        return;
    };
    if integer {
        return;
    }
    let mut names = vec!["fragment.fogcoord".to_string()];
    names.extend(attribute_aliases(Stage::Fragment, &AttribBinding::FogCoord));
    let c = f32::from_bits(
        names
            .iter()
            .find_map(|n| inputs.attribs.get(n))
            .map_or(0, |v| v[0]),
    );
    let [density, _start, end, scale] = floats(state(inputs, "state.fog.params"));
    let f = match mode {
        FogMode::Linear => (end - c) * scale,
        FogMode::Exp => (-f64::from(density * c)).exp() as f32,
        FogMode::Exp2 => {
            let t = density * c;
            (-f64::from(t * t)).exp() as f32
        }
    };
    // NClamp: a NaN factor becomes 0.
    let f = if f.is_nan() { 0.0 } else { f.clamp(0.0, 1.0) };
    let fog_color = floats(state(inputs, "state.fog.color"));
    let mut v = floats(color.bits);
    for k in 0..3 {
        v[k] = f * v[k] + (1.0 - f) * fog_color[k];
        color.types[k] = DataType::Float;
    }
    color.bits = v.map(f32::to_bits);
}
