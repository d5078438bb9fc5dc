//! The interpreter's reading of a shader_test at its probed pixels: the
//! plan replayed in software for one pixel, with `nvp4c::interp` running the
//! vertex program on the rectangle's corners and the fragment program on the
//! pixel's interpolated inputs. The device's pixel must agree with it.
//!
//! A pixel is computed as a GL implementation would: the strip's two
//! triangles in window coordinates (y up, depth (z/w + 1)/2); the pixel
//! centre covered when it is strictly inside one of them; attributes
//! interpolated perspective-correctly; a KIL leaves the pixel as it was;
//! the depth test is GL's LESS; the colour is clamped to [0, 1] and stored
//! as 8 bits. `fragment.position` is what nvp4c's fragment programs read,
//! Vulkan's `FragCoord` (y counted from the top, docs/interface.md).
//!
//! Not meaningful, so not computed (`Ok(None)`): a pixel centre on a
//! triangle edge (GL and Vulkan may each own it), a vertex outside the clip
//! volume (GL would clip the primitive into new vertices), a program with
//! texture instructions (the interpreter does not model textures). A probed
//! channel the interpreter marks undefined is not compared. A vertex result
//! the interpreter marks undefined reaches the fragment program as an
//! undefined attribute (`Inputs::undefined_attribs`), so what the fragment
//! program computes from it is undefined too.

use std::collections::BTreeMap;

use nvp4c::interp::{self, Inputs, RunOptions};

use super::gl::{DrawCall, Plan, Step};
use super::vulkan::Stage;

/// A program checked for the interpreter, or why it cannot run there.
pub struct Checked {
    program: Option<nvp4c::ir::Program>,
}

impl Checked {
    pub fn new(stage: &Stage) -> Checked {
        Checked {
            program: nvp4c::check(&stage.source, &nvp4c::Options::default())
                .ok()
                .map(|(p, _)| p),
        }
    }
}

/// A pixel's RGBA and, per channel, whether the spec defines it.
pub type InterpPixel = ([f32; 4], [bool; 4]);

/// The RGBA the interpreter gives GL window pixel (x, y) after the plan's
/// steps before `until` (a step index), with each channel's definedness.
pub fn pixel(
    plan: &Plan,
    until: usize,
    vertex: &Checked,
    fragment: &Checked,
    x: u32,
    y: u32,
) -> Result<Option<InterpPixel>, String> {
    pixel_with(plan, until, vertex, fragment, (x, y), &replay_options())
}

/// [`pixel`] with each instruction's float arithmetic evaluated in double
/// precision and rounded once (`RunOptions::wide_intermediates`): what an
/// implementation that fuses multiply-adds or keeps wider intermediates
/// computes, as the ARB specifications allow (ARB_vertex_program issue 22:
/// "The minimum precision requirements (1 part in 10^5 ...)").
pub fn wide_pixel(
    plan: &Plan,
    until: usize,
    vertex: &Checked,
    fragment: &Checked,
    x: u32,
    y: u32,
) -> Result<Option<InterpPixel>, String> {
    let mut options = replay_options();
    options.wide_intermediates = true;
    pixel_with(plan, until, vertex, fragment, (x, y), &options)
}

fn pixel_with(
    plan: &Plan,
    until: usize,
    vertex: &Checked,
    fragment: &Checked,
    (x, y): (u32, u32),
    options: &RunOptions,
) -> Result<Option<InterpPixel>, String> {
    let (Some(vp), Some(fp)) = (&vertex.program, &fragment.program) else {
        return Err("a program does not check".into());
    };
    let mut color = [0.0f32; 4];
    let mut defined = [true; 4];
    let mut depth = 1.0f32;
    for step in &plan.steps[..until] {
        match step {
            Step::Clear { color: c, depth: d } => {
                if let Some(c) = c {
                    color = c.map(|v| v.clamp(0.0, 1.0));
                    defined = [true; 4];
                }
                if let Some(d) = d {
                    depth = *d;
                }
            }
            Step::Draw(d) => match shade(plan, d, (vp, fp), (x, y), options)? {
                Shaded::NotMeaningful => return Ok(None),
                Shaded::Outside | Shaded::Killed => {}
                Shaded::Fragment { rgba, ok, z } => {
                    if plan.depth && d.depth_test {
                        if z >= depth {
                            continue;
                        }
                        depth = z;
                    }
                    color = rgba.map(|v| v.clamp(0.0, 1.0));
                    defined = ok;
                }
            },
            Step::Read | Step::Probe(_) => {}
        }
    }
    Ok(Some((color, defined)))
}

/// How the replay runs programs: as the specification reads them, so that
/// a relative read outside its array (section 2.X.4.2: undefined) gives an
/// undefined value rather than the element nvp4c clamps the index to; the
/// other implementation's out-of-range element is its own.
fn replay_options() -> RunOptions {
    let mut options = RunOptions::default();
    options.out_of_range_undefined = true;
    options
}

enum Shaded {
    Outside,
    Killed,
    NotMeaningful,
    Fragment {
        rgba: [f32; 4],
        ok: [bool; 4],
        z: f32,
    },
}

fn vertex_inputs(d: &DrawCall, v: usize) -> Inputs {
    let mut inputs = Inputs::default();
    let f = |loc: u32| interp::floats(d.attribute(loc, v));
    let named = [
        ("vertex.position", 0),
        ("vertex.weight", 1),
        ("vertex.normal", 2),
        ("vertex.color", 3),
        ("vertex.color.secondary", 4),
        ("vertex.fogcoord", 5),
    ];
    for (name, loc) in named {
        inputs.attribs.insert(name.to_string(), f(loc));
    }
    for n in 0..8 {
        inputs
            .attribs
            .insert(format!("vertex.texcoord[{n}]"), f(8 + n));
    }
    for n in 0..16 {
        inputs.attribs.insert(format!("vertex.attrib[{n}]"), f(n));
    }
    let bits =
        |m: &BTreeMap<u32, [f32; 4]>| m.iter().map(|(&k, v)| (k, interp::floats(*v))).collect();
    inputs.env = bits(&d.env_vp);
    inputs.local = bits(&d.local_vp);
    inputs.state = d.state_inputs();
    inputs
}

/// What a draw gives the fragment program at GL window pixel (x, y): the
/// interpolated vertex results as `fragment.*` attributes, depth, and
/// whether the pixel is covered at all.
enum Coverage {
    Outside,
    /// The pixel centre is on an edge of the primitive: which of the
    /// primitives sharing the edge owns the pixel is up to the rasteriser.
    OnEdge,
    NotMeaningful,
    Inside {
        inputs: Box<Inputs>,
        z: f64,
    },
}

fn fragment_inputs(
    plan: &Plan,
    d: &DrawCall,
    vp: &nvp4c::ir::Program,
    (x, y): (u32, u32),
    options: &RunOptions,
) -> Result<Coverage, String> {
    let mut outs = Vec::new();
    for v in 0..4 {
        match interp::run(vp, &vertex_inputs(d, v), options) {
            Ok(o) => outs.push(o),
            Err(interp::InterpError::Unsupported { .. }) => return Ok(Coverage::NotMeaningful),
            Err(e) => return Err(format!("vertex program, vertex {v}: {e}")),
        }
    }
    // Window coordinates of each vertex.
    let (w, h) = (plan.width as f64, plan.height as f64);
    let mut win = [[0f64; 4]; 4];
    for (v, o) in outs.iter().enumerate() {
        let Some(p) = o.result("result.position") else {
            return Err("the vertex program writes no result.position".into());
        };
        if p.defined() != 0xf {
            return Ok(Coverage::NotMeaningful);
        }
        let c = p.floats().map(f64::from);
        // Only primitives inside the clip volume are rasterised here; GL
        // clips the others into new vertices.
        if c[3].is_nan() || c[3] <= 0.0 || c.iter().take(3).any(|x| x.abs() > c[3]) {
            return Ok(Coverage::NotMeaningful);
        }
        win[v] = [
            (c[0] / c[3] + 1.0) * w / 2.0,
            (c[1] / c[3] + 1.0) * h / 2.0,
            (c[2] / c[3] + 1.0) / 2.0,
            c[3],
        ];
    }
    let (px, py) = (x as f64 + 0.5, y as f64 + 0.5);
    let mut hit = None;
    for tri in [[0usize, 1, 2], [2, 1, 3]] {
        let [a, b, c] = tri.map(|i| win[i]);
        let area = (b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1]);
        if area.abs() < 1e-12 {
            continue;
        }
        let l = [
            ((b[0] - px) * (c[1] - py) - (c[0] - px) * (b[1] - py)) / area,
            ((c[0] - px) * (a[1] - py) - (a[0] - px) * (c[1] - py)) / area,
            ((a[0] - px) * (b[1] - py) - (b[0] - px) * (a[1] - py)) / area,
        ];
        const EDGE: f64 = 1e-6;
        if l.iter().all(|&v| v > EDGE) {
            hit = Some((tri, l));
            break;
        }
        if l.iter().all(|&v| v > -EDGE) {
            // On an edge: which side owns it is up to the rasteriser's rules.
            return Ok(Coverage::OnEdge);
        }
    }
    let Some((tri, l)) = hit else {
        return Ok(Coverage::Outside);
    };
    // Perspective-correct weights.
    let q: Vec<f64> = (0..3).map(|k| l[k] / win[tri[k]][3]).collect();
    let qs: f64 = q.iter().sum();
    let weights: Vec<f64> = q.iter().map(|v| v / qs).collect();
    let z: f64 = (0..3).map(|k| l[k] * win[tri[k]][2]).sum();
    let inv_w: f64 = (0..3).map(|k| l[k] / win[tri[k]][3]).sum();

    let mut inputs = Inputs::default();
    for name in outs[0].results.keys() {
        let Some(rest) = name.strip_prefix("result.") else {
            continue;
        };
        if rest == "position" || rest == "pointsize" || rest.starts_with("clip") {
            continue;
        }
        let mut value = [0f64; 4];
        let mut undefined = 0u8;
        for k in 0..3 {
            let r = &outs[tri[k]].results[name];
            undefined |= r.undefined;
            for (c, v) in value.iter_mut().enumerate() {
                *v += weights[k] * f64::from(r.floats()[c]);
            }
        }
        inputs.attribs.insert(
            format!("fragment.{rest}"),
            interp::floats(value.map(|v| v as f32)),
        );
        if undefined != 0 {
            inputs
                .undefined_attribs
                .insert(format!("fragment.{rest}"), undefined);
        }
    }
    inputs.attribs.insert(
        "fragment.position".into(),
        interp::floats([px as f32, (h - py) as f32, z as f32, inv_w as f32]),
    );
    Ok(Coverage::Inside {
        inputs: Box::new(inputs),
        z,
    })
}

fn shade(
    plan: &Plan,
    d: &DrawCall,
    (vp, fp): (&nvp4c::ir::Program, &nvp4c::ir::Program),
    (x, y): (u32, u32),
    options: &RunOptions,
) -> Result<Shaded, String> {
    let (mut inputs, z) = match fragment_inputs(plan, d, vp, (x, y), options)? {
        Coverage::Outside => return Ok(Shaded::Outside),
        Coverage::NotMeaningful | Coverage::OnEdge => return Ok(Shaded::NotMeaningful),
        Coverage::Inside { inputs, z } => (*inputs, z),
    };
    let bits =
        |m: &BTreeMap<u32, [f32; 4]>| m.iter().map(|(&k, v)| (k, interp::floats(*v))).collect();
    inputs.env = bits(&d.env_fp);
    inputs.local = bits(&d.local_fp);
    inputs.state = d.state_inputs();
    let o = match interp::run(fp, &inputs, options) {
        Ok(o) => o,
        Err(interp::InterpError::Unsupported { .. }) => return Ok(Shaded::NotMeaningful),
        Err(e) => return Err(format!("fragment program: {e}")),
    };
    if o.killed {
        return Ok(Shaded::Killed);
    }
    let Some(c) = o.result("result.color") else {
        return Err("the fragment program writes no result.color".into());
    };
    let defined = c.defined();
    let z = o
        .result("result.depth")
        .filter(|r| r.written & 4 != 0)
        .map_or(z as f32, |r| r.floats()[2].clamp(0.0, 1.0));
    Ok(Shaded::Fragment {
        rgba: c.floats(),
        ok: [0, 1, 2, 3].map(|i| defined & (1 << i) != 0),
        z,
    })
}

/// Why the channels where two implementations' pixel (x, y) differ may
/// rightly differ, by the interpreter's value of the pixel: each such
/// channel is one the spec leaves undefined, or a value on a rounding tie
/// between the two bytes (`super::byte_may_be`). `None` if some channel is
/// neither, or the interpreter cannot compute the pixel.
pub fn value_tie(
    plan: &Plan,
    until: usize,
    (vertex, fragment): (&Checked, &Checked),
    (x, y): (u32, u32),
    a: [u8; 4],
    b: [u8; 4],
) -> Option<String> {
    let (rgba, defined) = pixel(plan, until, vertex, fragment, x, y).ok()??;
    let mut why = Vec::new();
    for c in 0..4 {
        if a[c] == b[c] {
            continue;
        }
        let channel = ["red", "green", "blue", "alpha"][c];
        if !defined[c] {
            why.push(format!("{channel} is undefined by the spec"));
        } else if super::byte_may_be(rgba[c], a[c]) && super::byte_may_be(rgba[c], b[c]) {
            why.push(format!(
                "{channel} = {} × 255 = {:.4} is on a rounding tie",
                rgba[c],
                f64::from(rgba[c]) * 255.0
            ));
        } else {
            return None;
        }
    }
    Some(why.join("; "))
}

/// Why GL window pixel (x, y) may rightly differ between two
/// implementations after the plan's steps before `until`, or `None`:
///
/// * a draw's primitive has the pixel centre on one of its edges: GL and
///   Vulkan both require a pixel on an edge two primitives share to be
///   drawn once, but leave which one to the implementation (and the
///   harness's y-flipped viewport turns Vulkan's top-left rule upside down
///   relative to GL's window);
/// * the last draw covering it samples with an interpolated texture
///   coordinate (or its projection s/q, t/q) on a texel boundary of a bound
///   texture (coordinate × size within 1e-4 of an integer), where NEAREST
///   filtering picks either texel depending on the interpolation's last bit.
pub fn rasterisation_tie(
    plan: &Plan,
    until: usize,
    vertex: &Checked,
    x: u32,
    y: u32,
) -> Option<String> {
    let vp = vertex.program.as_ref()?;
    let mut last = None;
    for step in &plan.steps[..until] {
        if let Step::Draw(d) = step {
            match fragment_inputs(plan, d, vp, (x, y), &replay_options()) {
                Ok(Coverage::OnEdge) => {
                    return Some(format!(
                        "the pixel centre is on an edge of the rectangle drawn at line {}",
                        d.line
                    ))
                }
                Ok(Coverage::Inside { inputs, .. }) => last = Some((d, *inputs)),
                _ => {}
            }
        }
    }
    let (d, inputs) = last?;
    for (name, bits) in &inputs.attribs {
        if !name.starts_with("fragment.texcoord") {
            continue;
        }
        let v = bits.map(f32::from_bits);
        for t in d.textures.values() {
            let sizes = [t.width as f32, t.height as f32];
            for (c, size) in v[..2].iter().zip(sizes) {
                for coord in [*c, c / v[3]] {
                    let texels = coord * size;
                    if coord.is_finite() && (texels - texels.round()).abs() < 1e-4 {
                        return Some(format!(
                            "{name} = {v:?}: {coord} × {size} = {texels} is on a texel boundary"
                        ));
                    }
                }
            }
        }
    }
    None
}

/// Whether every component of the named vertex results the vertex program
/// writes at each vertex of every draw of the plan is defined by the spec
/// (`None`: the interpreter cannot run the program). A result undefined at
/// one vertex makes the colour of every pixel its primitive covers
/// undefined, wherever the primitive lands after clipping.
pub fn vertex_results_defined(plan: &Plan, vertex: &Checked, names: &[&str]) -> Option<bool> {
    let vp = vertex.program.as_ref()?;
    let options = replay_options();
    for step in &plan.steps {
        let Step::Draw(d) = step else {
            continue;
        };
        for v in 0..4 {
            let out = interp::run(vp, &vertex_inputs(d, v), &options).ok()?;
            for name in names {
                if out.result(name).is_some_and(|r| r.defined() != 0xf) {
                    return Some(false);
                }
            }
        }
    }
    Some(true)
}
