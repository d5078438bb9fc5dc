//! The OpenGL state a shader_test's `[test]` commands build, and the plan
//! they make of it: clears, draws (each with a snapshot of the state it
//! draws with), read-backs and probes. Both backends (nvp4c on lavapipe,
//! `vulkan.rs`; Mesa's GL, `mesa.rs`) and the interpreter check
//! (`interp.rs`) execute the same plan, so they cannot disagree about what a
//! command means.
//!
//! The GL state nvp4c's programs read (`state.matrix.*`, the `State` block of
//! docs/interface.md) is the library's own [`nvp4c::state::GlState`]
//! ([`DrawCall::gl_state`]), laid out by `GlState::to_block`.

use std::collections::BTreeMap;

use nvp4c::state::GlState;

use super::script::{CommandKind, ParamTarget, ShaderTest};
use super::textures::TextureObject;

/// shader_runner's window: 250×250 (DEFAULT_WINDOW_WIDTH/HEIGHT).
pub const WINDOW_WIDTH: u32 = 250;
pub const WINDOW_HEIGHT: u32 = 250;

/// piglit's default probe tolerance (piglit_tolerance in piglit-util-gl.c),
/// per channel; shader_runner's `tolerance` command replaces it.
pub const DEFAULT_TOLERANCE: [f32; 4] = [0.01; 4];

/// A 4×4 matrix, `m[row][column]` as GL's equations write it.
pub type Mat4 = [[f64; 4]; 4];

pub const IDENTITY: Mat4 = [
    [1.0, 0.0, 0.0, 0.0],
    [0.0, 1.0, 0.0, 0.0],
    [0.0, 0.0, 1.0, 0.0],
    [0.0, 0.0, 0.0, 1.0],
];

/// glOrtho(l, r, b, t, n, f) applied to the identity (GL 2.1 section 2.11.2).
pub fn ortho(l: f64, r: f64, b: f64, t: f64, n: f64, f: f64) -> Mat4 {
    [
        [2.0 / (r - l), 0.0, 0.0, -(r + l) / (r - l)],
        [0.0, 2.0 / (t - b), 0.0, -(t + b) / (t - b)],
        [0.0, 0.0, -2.0 / (f - n), -(f + n) / (f - n)],
        [0.0, 0.0, 0.0, 1.0],
    ]
}

/// One vertex of a `draw rect`: the position (z = 0, w = 1) and, for
/// `draw rect tex`, the texture coordinate array's (s, t, 0, 1) on unit 0.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RectVertex {
    pub position: [f32; 4],
    pub texcoord0: Option<[f32; 4]>,
}

/// Everything one `draw rect` draws with: a snapshot of the GL state.
#[derive(Clone, Debug)]
pub struct DrawCall {
    /// The `draw rect` line.
    pub line: usize,
    /// The four vertices in piglit_draw_rect's order, drawn as a
    /// GL_TRIANGLE_STRIP: (x, y), (x + w, y), (x, y + h), (x + w, y + h).
    pub vertices: [RectVertex; 4],
    /// Current vertex attributes (glColor4fv, glMultiTexCoord4fv, and GL's
    /// initial values for the others).
    pub color: [f32; 4],
    pub texcoords: [[f32; 4]; 8],
    pub projection: Mat4,
    pub modelview: Mat4,
    pub env_vp: BTreeMap<u32, [f32; 4]>,
    pub local_vp: BTreeMap<u32, [f32; 4]>,
    pub env_fp: BTreeMap<u32, [f32; 4]>,
    pub local_fp: BTreeMap<u32, [f32; 4]>,
    /// Texture objects by unit.
    pub textures: BTreeMap<u32, TextureObject>,
    pub depth_test: bool,
    /// [`DrawCall::state_inputs`], computed at its first use: the
    /// interpreter checks run the programs of a draw once per compared
    /// pixel, and a snapshot in the plan no longer changes.
    pub state_inputs_cache: std::cell::OnceCell<BTreeMap<String, [u32; 4]>>,
}

/// GL's initial current normal (0, 0, 1), secondary colour (0, 0, 0),
/// fog coordinate 0 and generic attributes (0, 0, 0, 1), as vec4s.
const CURRENT_NORMAL: [f32; 4] = [0.0, 0.0, 1.0, 1.0];
const CURRENT_DEFAULT: [f32; 4] = [0.0, 0.0, 0.0, 1.0];

impl DrawCall {
    /// The attribute at `location` (docs/interface.md, "Vertex attributes":
    /// NVIDIA's aliasing of the conventional attributes onto generic ones)
    /// for vertex `v`.
    pub fn attribute(&self, location: u32, v: usize) -> [f32; 4] {
        match location {
            0 => self.vertices[v].position,
            2 => CURRENT_NORMAL,
            3 => self.color,
            8..=15 => {
                let unit = (location - 8) as usize;
                match (unit, self.vertices[v].texcoord0) {
                    (0, Some(t)) => t,
                    _ => self.texcoords[unit],
                }
            }
            _ => CURRENT_DEFAULT,
        }
    }

    /// The GL state of the draw as nvp4c's library models it: the modelview
    /// and projection matrices of the moment, GL's initial values for the
    /// rest, and the largest point size of Mesa's llvmpipe (255; GL's
    /// initial maximum is the implementation's largest size).
    pub fn gl_state(&self) -> GlState {
        let column_major = |m: &Mat4| {
            let mut out = [0f32; 16];
            for r in 0..4 {
                for c in 0..4 {
                    out[4 * c + r] = m[r][c] as f32;
                }
            }
            out
        };
        let mut gl = GlState::default();
        gl.modelview[0] = column_major(&self.modelview);
        gl.projection = column_major(&self.projection);
        gl.point.max_size = 255.0;
        gl
    }

    /// The rows of nvp4c's `State` block (docs/interface.md, "The State
    /// block") for this draw.
    pub fn state_rows(&self) -> Vec<[u32; 4]> {
        let block = self.gl_state().to_block();
        block.rows().iter().map(|r| r.map(f32::to_bits)).collect()
    }

    /// The same state as the interpreter's inputs, by binding name
    /// (`state.matrix.mvp.row[0]`, `state.matrix.modelview[0].invtrans.row[2]`):
    /// every stored row, and the transposes of every matrix.
    pub fn state_inputs(&self) -> BTreeMap<String, [u32; 4]> {
        self.state_inputs_cache
            .get_or_init(|| self.compute_state_inputs())
            .clone()
    }

    fn compute_state_inputs(&self) -> BTreeMap<String, [u32; 4]> {
        let block = self.gl_state().to_block();
        let mut out = BTreeMap::new();
        for (name, _) in nvp4c::state::stored_rows() {
            let mut names = vec![name.clone()];
            if let Some(matrix) = name.strip_suffix("]").and_then(|n| n.split_once(".row[")) {
                let (m, r) = matrix;
                if let Some(base) = m.strip_suffix(".inverse") {
                    names.push(format!("{base}.invtrans.row[{r}]"));
                } else {
                    names.push(format!("{m}.transpose.row[{r}]"));
                }
            }
            for n in names {
                let value = block
                    .get(&n)
                    .unwrap_or_else(|e| panic!("state binding {n}: {e}"));
                out.insert(n, value.map(f32::to_bits));
            }
        }
        out
    }
}

/// A `probe …` command, with the tolerance in force and the read-back
/// (frame) it looks at.
#[derive(Clone, Debug, PartialEq)]
pub struct Probe {
    pub line: usize,
    pub kind: ProbeKind,
    pub tolerance: [f32; 4],
    pub frame: usize,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ProbeKind {
    /// One pixel (GL window coordinates), compared as floats (byte / 255)
    /// within the tolerance: `probe rgba|rgb`, `relative probe rgba|rgb`.
    Pixel { x: i32, y: i32, expected: Vec<f32> },
    /// Every pixel, compared as bytes (piglit's probe_rect_ubyte):
    /// `probe all rgba|rgb`.
    All { expected: Vec<f32> },
    /// `probe depth x y d`: |depth − d| < 0.01.
    Depth { x: i32, y: i32, expected: f32 },
}

/// One step of a plan.
#[derive(Clone, Debug)]
pub enum Step {
    Clear {
        color: Option<[f32; 4]>,
        depth: Option<f32>,
    },
    Draw(Box<DrawCall>),
    /// Read the framebuffer (frame number = count of earlier reads).
    Read,
    Probe(Probe),
}

/// What a shader_test does, as steps every backend runs.
#[derive(Clone, Debug)]
pub struct Plan {
    pub steps: Vec<Step>,
    pub width: u32,
    pub height: u32,
    pub depth: bool,
}

impl Plan {
    pub fn draws(&self) -> impl Iterator<Item = &DrawCall> {
        self.steps.iter().filter_map(|s| match s {
            Step::Draw(d) => Some(&**d),
            _ => None,
        })
    }
    pub fn probes(&self) -> impl Iterator<Item = &Probe> {
        self.steps.iter().filter_map(|s| match s {
            Step::Probe(p) => Some(p),
            _ => None,
        })
    }
    /// The index in `steps` of each read, in order (frame k is read at
    /// step `read_steps()[k]`).
    pub fn read_steps(&self) -> Vec<usize> {
        self.steps
            .iter()
            .enumerate()
            .filter(|(_, s)| matches!(s, Step::Read))
            .map(|(i, _)| i)
            .collect()
    }
}

/// Runs the `[test]` commands over the GL state and makes the plan. A read
/// is inserted before the first probe after a clear or draw.
pub fn plan(test: &ShaderTest) -> Plan {
    let (width, height) = (WINDOW_WIDTH, WINDOW_HEIGHT);
    let mut steps = Vec::new();
    let mut s = DrawCall {
        line: 0,
        vertices: [RectVertex {
            position: [0.0; 4],
            texcoord0: None,
        }; 4],
        color: [1.0; 4],
        texcoords: [CURRENT_DEFAULT; 8],
        projection: IDENTITY,
        modelview: IDENTITY,
        env_vp: BTreeMap::new(),
        local_vp: BTreeMap::new(),
        env_fp: BTreeMap::new(),
        local_fp: BTreeMap::new(),
        textures: BTreeMap::new(),
        depth_test: false,
        state_inputs_cache: std::cell::OnceCell::new(),
    };
    let mut clear_color = [0.0f32; 4];
    let mut clear_depth = 1.0f32;
    let (mut clear_color_bit, mut clear_depth_bit) = (false, false);
    let mut tolerance = DEFAULT_TOLERANCE;
    let mut frames = 0usize;
    let mut fresh = false; // a read since the last clear or draw
    let mut active_unit = 0u32;
    for cmd in &test.commands {
        let mut probe = |kind: ProbeKind, steps: &mut Vec<Step>| {
            if !fresh {
                steps.push(Step::Read);
                frames += 1;
                fresh = true;
            }
            steps.push(Step::Probe(Probe {
                line: cmd.line,
                kind,
                tolerance,
                frame: frames - 1,
            }));
        };
        match &cmd.kind {
            CommandKind::Ortho(None) => {
                s.projection = ortho(0.0, width as f64, 0.0, height as f64, -1.0, 1.0);
                s.modelview = IDENTITY;
            }
            CommandKind::Ortho(Some([l, r, b, t])) => {
                s.projection = ortho(*l as f64, *r as f64, *b as f64, *t as f64, -1.0, 1.0);
                s.modelview = IDENTITY;
            }
            CommandKind::ClearColor(c) => {
                clear_color = *c;
                clear_color_bit = true;
            }
            CommandKind::ClearDepth(d) => {
                clear_depth = *d;
                clear_depth_bit = true;
            }
            CommandKind::Clear => {
                steps.push(Step::Clear {
                    color: clear_color_bit.then_some(clear_color),
                    depth: clear_depth_bit.then_some(clear_depth),
                });
                fresh = false;
            }
            CommandKind::DrawRect { rect, tex } => {
                let [x, y, w, h] = *rect;
                let corners = [(x, y), (x + w, y), (x, y + h), (x + w, y + h)];
                let tex_corners = tex.map(|[tx, ty, tw, th]| {
                    [(tx, ty), (tx + tw, ty), (tx, ty + th), (tx + tw, ty + th)]
                });
                for (i, &(px, py)) in corners.iter().enumerate() {
                    s.vertices[i] = RectVertex {
                        position: [px, py, 0.0, 1.0],
                        texcoord0: tex_corners.map(|t| [t[i].0, t[i].1, 0.0, 1.0]),
                    };
                }
                s.line = cmd.line;
                steps.push(Step::Draw(Box::new(s.clone())));
                fresh = false;
            }
            CommandKind::Color(c) => s.color = *c,
            CommandKind::TexCoord(unit, v) => s.texcoords[*unit as usize] = *v,
            CommandKind::Parameter {
                target,
                index,
                value,
            } => {
                let map = match target {
                    ParamTarget::EnvVertex => &mut s.env_vp,
                    ParamTarget::LocalVertex => &mut s.local_vp,
                    ParamTarget::EnvFragment => &mut s.env_fp,
                    ParamTarget::LocalFragment => &mut s.local_fp,
                };
                map.insert(*index, *value);
            }
            CommandKind::Texture(t) => {
                let (unit, object) = TextureObject::create(t);
                active_unit = unit;
                s.textures.insert(unit, object);
            }
            CommandKind::TexParameter(target, param) => {
                // glTexParameteri acts on the texture bound to `target` on
                // the active unit (the last `texture` command's).
                if let Some(t) = s
                    .textures
                    .get_mut(&active_unit)
                    .filter(|t| t.target == *target)
                {
                    t.set(*param);
                }
            }
            CommandKind::DepthTest(on) => s.depth_test = *on,
            CommandKind::Tolerance(t) => tolerance = *t,
            CommandKind::Probe { x, y, expected } => probe(
                ProbeKind::Pixel {
                    x: *x,
                    y: *y,
                    expected: expected.clone(),
                },
                &mut steps,
            ),
            CommandKind::RelativeProbe { at, expected } => {
                // shader_runner: x = c[0] * read_width (float to int), clamped
                // to the last column/row.
                let x = ((at[0] * width as f32) as i32).min(width as i32 - 1);
                let y = ((at[1] * height as f32) as i32).min(height as i32 - 1);
                probe(
                    ProbeKind::Pixel {
                        x,
                        y,
                        expected: expected.clone(),
                    },
                    &mut steps,
                )
            }
            CommandKind::ProbeAll { expected } => probe(
                ProbeKind::All {
                    expected: expected.clone(),
                },
                &mut steps,
            ),
            CommandKind::ProbeDepth { x, y, expected } => probe(
                ProbeKind::Depth {
                    x: *x,
                    y: *y,
                    expected: *expected,
                },
                &mut steps,
            ),
        }
    }
    // The final framebuffer is read too (the differential compares it, and
    // some files end on a draw with nothing probed).
    if !fresh && !steps.is_empty() {
        steps.push(Step::Read);
    }
    Plan {
        steps,
        width,
        height,
        depth: test.wants_depth(),
    }
}
