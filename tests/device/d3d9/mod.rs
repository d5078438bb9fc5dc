//! Direct3D 9 shaders on the device: a shader written in Microsoft's
//! assembly syntax is assembled (nvp4c's assembler), compiled, run on the
//! Vulkan device with inputs named by their Direct3D 9 registers, and run
//! in the reference interpreter; the two must agree, and the tests compare
//! both with values computed by hand from Microsoft's instruction pages.

pub mod differential;
pub mod exec_alu;
pub mod exec_flow;
pub mod exec_ps1x;
pub mod exec_texture;
pub mod exec_vertex;
pub mod layout;
pub mod oracle;
pub mod render;

/// One execution case: a complete shader, its inputs by register name
/// (`v0`, `t1`, `texcoord2`; vertex shaders `v3`), the constants, and the
/// outputs a person computed: by result name (`oC0`, `oC1`, `oPos`, `oD0`,
/// `oT0`, `oFog`, `oPts`, `texcoord0`, ...), `depth`, or `killed` (any
/// value: the pixel must be discarded).
#[derive(Clone, Debug)]
pub struct Case {
    pub name: String,
    pub shader: String,
    pub inputs: Vec<(&'static str, [f32; 4])>,
    pub bind: Bind,
    pub expect: Vec<(&'static str, [f32; 4])>,
}

/// Runs each case on the device (and in the interpreter, through
/// `pixel_outputs` and `vertex`) and checks the expected outputs.
pub fn run_cases(cases: &[Case]) {
    if harness::device_or_skip().is_none() {
        return;
    }
    for case in cases {
        let what = format!("{}:\n{}", case.name, case.shader);
        if case.shader.starts_with("vs") {
            let inputs: Vec<(u32, [f32; 4])> = case
                .inputs
                .iter()
                .map(|(n, v)| {
                    (
                        n.trim_start_matches('v')
                            .parse()
                            .unwrap_or_else(|_| panic!("{n}")),
                        *v,
                    )
                })
                .collect();
            let out = vertex(&case.shader, &[&inputs], &case.bind);
            for (name, want) in &case.expect {
                let got = out[0]
                    .get(*name)
                    .copied()
                    .unwrap_or_else(|| panic!("no output {name} in {what}"));
                assert_close(got, *want, &what);
            }
        } else {
            let out = pixel_outputs(&case.shader, &[&case.inputs], &case.bind);
            let o = &out[0];
            for (name, want) in &case.expect {
                match *name {
                    "killed" => assert!(o.killed, "{what}: not killed"),
                    "depth" => assert_close(
                        [o.depth.unwrap_or(f32::NAN), 0.0, 0.0, 0.0],
                        [want[0], 0.0, 0.0, 0.0],
                        &what,
                    ),
                    n => {
                        assert!(!o.killed, "{what}: killed");
                        let l: u32 = n
                            .trim_start_matches("oC")
                            .parse()
                            .unwrap_or_else(|_| panic!("{n}"));
                        assert_close(o.colors[&l], *want, &what);
                    }
                }
            }
        }
    }
}

/// Wraps an arithmetic body (result in r0) into a complete shader of
/// `version`, and the output that carries r0.
pub fn wrap(version: &str, body: &str) -> (String, &'static str) {
    let body = body.trim();
    match version {
        "vs_3_0" => (
            format!("vs_3_0\ndcl_position v0\ndcl_position o0\ndcl_texcoord0 o1\n{body}\nmov o0, v0\nmov o1, r0\n"),
            "texcoord0",
        ),
        v if v.starts_with("vs") => (format!("{v}\ndcl_position v0\n{body}\nmov oPos, v0\nmov oT0, r0\n"), "oT0"),
        v if v.starts_with("ps_1") => (format!("{v}\n{body}\n"), "oC0"),
        v => (format!("{v}\n{body}\nmov oC0, r0\n"), "oC0"),
    }
}

/// An arithmetic case in each of `versions`.
pub fn alu(name: &str, versions: &[&str], body: &str, bind: Bind, expect: [f32; 4]) -> Vec<Case> {
    versions
        .iter()
        .map(|v| {
            let (shader, out) = wrap(v, body);
            Case {
                name: format!("{name} ({v})"),
                shader,
                inputs: vec![("v0", [0.0, 0.0, 0.0, 1.0])]
                    .into_iter()
                    .filter(|_| v.starts_with("vs"))
                    .collect(),
                bind: bind.clone(),
                expect: vec![(out, expect)],
            }
        })
        .collect()
}

/// A complete shader as one case.
pub fn case(
    name: &str,
    shader: &str,
    inputs: &[(&'static str, [f32; 4])],
    bind: Bind,
    expect: &[(&'static str, [f32; 4])],
) -> Case {
    Case {
        name: name.to_string(),
        shader: shader.to_string(),
        inputs: inputs.to_vec(),
        bind,
        expect: expect.to_vec(),
    }
}

use std::collections::BTreeMap;

use crate::harness::{self, Capture, FragmentJob, Input, Texture, VertexJob};
use nvp4c::interp::{self, Inputs, RunOptions};
use nvp4c::ir::VarKind;

/// Constants and state a run binds (docs/interface.md, "Direct3D 9").
#[derive(Clone, Debug, Default)]
pub struct Bind {
    /// `c#` values (binding 0).
    pub c: Vec<(u32, [f32; 4])>,
    /// `i#` values (binding 1).
    pub i: Vec<(u32, [i32; 4])>,
    /// `b#` values (binding 3, one word each).
    pub b: Vec<(u32, bool)>,
    /// D3D9 state block elements (binding 4): bump matrices, position offset.
    pub state: Vec<(u32, [f32; 4])>,
    /// Textures (binding 32 + unit).
    pub textures: Vec<Texture>,
    /// Options for the compile.
    pub options: Option<nvp4c::Options>,
    /// Attach a depth buffer and read it back.
    pub depth: bool,
}

impl Bind {
    pub fn c(mut self, n: u32, v: [f32; 4]) -> Bind {
        self.c.push((n, v));
        self
    }
    pub fn i(mut self, n: u32, v: [i32; 4]) -> Bind {
        self.i.push((n, v));
        self
    }
    pub fn b(mut self, n: u32, v: bool) -> Bind {
        self.b.push((n, v));
        self
    }
    pub fn state(mut self, n: u32, v: [f32; 4]) -> Bind {
        self.state.push((n, v));
        self
    }
    pub fn texture(mut self, t: Texture) -> Bind {
        self.textures.push(t);
        self
    }
    fn env(&self) -> Vec<[u32; 4]> {
        let mut out = vec![
            [0u32; 4];
            self.c
                .iter()
                .map(|(n, _)| *n as usize + 1)
                .max()
                .unwrap_or(0)
        ];
        for (n, v) in &self.c {
            out[*n as usize] = harness::fbits(*v);
        }
        out
    }
    fn local(&self) -> Vec<[u32; 4]> {
        let mut out = vec![
            [0u32; 4];
            self.i
                .iter()
                .map(|(n, _)| *n as usize + 1)
                .max()
                .unwrap_or(0)
        ];
        for (n, v) in &self.i {
            out[*n as usize] = harness::ibits(*v);
        }
        out
    }
    fn bool_words(&self) -> Vec<u32> {
        let mut out = vec![
            0u32;
            self.b
                .iter()
                .map(|(n, _)| *n as usize + 1)
                .max()
                .unwrap_or(0)
        ];
        for (n, v) in &self.b {
            out[*n as usize] = u32::from(*v);
        }
        out
    }
    fn state_words(&self) -> Vec<u32> {
        let mut out = vec![
            0u32;
            4 * self
                .state
                .iter()
                .map(|(n, _)| *n as usize + 1)
                .max()
                .unwrap_or(0)
        ];
        for (n, v) in &self.state {
            for (k, x) in v.iter().enumerate() {
                out[4 * *n as usize + k] = x.to_bits();
            }
        }
        out
    }
    fn buffers(&self) -> Vec<(u32, Vec<[u32; 4]>)> {
        let pack = |words: Vec<u32>| -> Vec<[u32; 4]> {
            words
                .chunks(4)
                .map(|c| std::array::from_fn(|k| c.get(k).copied().unwrap_or(0)))
                .collect()
        };
        let mut out = Vec::new();
        if !self.b.is_empty() {
            out.push((0, pack(self.bool_words())));
        }
        if !self.state.is_empty() {
            out.push((1, pack(self.state_words())));
        }
        out
    }
    fn inputs(&self) -> Inputs {
        let mut inputs = Inputs::default();
        for (n, v) in &self.c {
            inputs.env.insert(*n, harness::fbits(*v));
        }
        for (n, v) in &self.i {
            inputs.local.insert(*n, harness::ibits(*v));
        }
        if !self.b.is_empty() {
            inputs.buffers.insert(0, self.bool_words());
        }
        if !self.state.is_empty() {
            inputs.buffers.insert(1, self.state_words());
        }
        inputs
    }
}

/// A compiled shader and its IR.
pub struct Shader {
    pub spirv: Vec<u32>,
    pub program: nvp4c::ir::Program,
    pub reflection: nvp4c::reflect::Reflection,
}

pub fn compile(asm: &str, options: &nvp4c::Options) -> Shader {
    let bytes =
        nvp4c::front::d3d9::assemble::assemble_bytes(asm).unwrap_or_else(|e| panic!("{e}\n{asm}"));
    compile_bytes(&bytes, options)
}

pub fn compile_bytes(bytes: &[u8], options: &nvp4c::Options) -> Shader {
    let listing = nvp4c::source_listing(bytes);
    let compiled = nvp4c::compile_bytes(bytes, options)
        .unwrap_or_else(|d| panic!("{}", d.render("shader", &listing, false)));
    let (program, _) = nvp4c::check_bytes(bytes, options).unwrap();
    Shader {
        spirv: compiled.spirv,
        program,
        reflection: compiled.reflection,
    }
}

/// The Location of the input whose program name is `name` (`v0`, `t1`,
/// `texcoord2`), and the interpreter's name for it.
/// `None` when the shader does not read it.
fn input_slot(s: &Shader, name: &str) -> Option<(u32, String)> {
    let var = s
        .program
        .variables
        .iter()
        .find(|v| v.name.as_deref() == Some(name) && matches!(v.kind, VarKind::Attrib(_)))?;
    let VarKind::Attrib(b) = &var.kind else {
        unreachable!()
    };
    let interp_name = interp::attribute_name(s.program.stage, &b[0]);
    let location = s
        .reflection
        .inputs
        .iter()
        .find(|i| i.names.iter().any(|n| n == name))
        .and_then(|i| i.location)
        .unwrap_or_else(|| panic!("no Location for `{name}`"));
    Some((location, interp_name))
}

fn close(a: f32, b: f32) -> bool {
    a.to_bits() == b.to_bits()
        || (a.is_nan() && b.is_nan())
        || (a - b).abs() <= 1e-5 * a.abs().max(b.abs()).max(1e-30)
        || (a - b).abs() < 1e-6
}

pub fn assert_close(got: [f32; 4], want: [f32; 4], what: &str) {
    assert!(
        (0..4).all(|c| close(got[c], want[c])),
        "{what}: got {got:?}, want {want:?}"
    );
}

/// A pixel's results: colour outputs by Location, depth, killed.
#[derive(Clone, Debug)]
pub struct PixelOut {
    pub colors: BTreeMap<u32, [f32; 4]>,
    pub depth: Option<f32>,
    pub killed: bool,
}

pub fn pixel_outputs(asm: &str, cases: &[&[(&str, [f32; 4])]], bind: &Bind) -> Vec<PixelOut> {
    let Some(dev) = harness::device_or_skip() else {
        return Vec::new();
    };
    let options = bind.options.clone().unwrap_or_default();
    let s = compile(asm, &options);
    let mut job_cases = Vec::new();
    for case in cases {
        let mut inputs = Vec::new();
        for (name, v) in case.iter() {
            if let Some((loc, _)) = input_slot(&s, name) {
                inputs.push(Input::float(loc, *v));
            }
        }
        job_cases.push(inputs);
    }
    let job = FragmentJob {
        env: bind.env(),
        local: bind.local(),
        buffers: bind.buffers(),
        textures: bind.textures.clone(),
        depth: bind.depth,
        ..FragmentJob::new(job_cases)
    };
    let out = dev
        .run_fragment(&s.spirv, &job)
        .unwrap_or_else(|e| panic!("{e:?}\n{asm}"));
    let locations: Vec<u32> = s
        .reflection
        .outputs
        .iter()
        .filter_map(|o| o.location)
        .collect();
    let results: Vec<PixelOut> = (0..cases.len())
        .map(|k| PixelOut {
            colors: locations
                .iter()
                .map(|&l| (l, out.color_f32(k, l)))
                .collect(),
            depth: out.depth_f32(k),
            killed: out.killed(k),
        })
        .collect();
    if bind.textures.is_empty() {
        let width = cases.len().min(64);
        for (k, case) in cases.iter().enumerate() {
            let mut inputs = bind.inputs();
            // What the device gives a point drawn at pixel (k % W, k / W):
            // its centre as FragCoord (z = 0, 1/w = 1), front facing.
            let (x, y) = ((k % width) as f32, (k / width) as f32);
            inputs
                .set(
                    "fragment.position",
                    interp::floats([x + 0.5, y + 0.5, 0.0, 1.0]),
                )
                .unwrap();
            inputs
                .set("fragment.facing", interp::floats([1.0, 0.0, 0.0, 1.0]))
                .unwrap();
            for (name, v) in case.iter() {
                if let Some((_, iname)) = input_slot(&s, name) {
                    inputs.set(&iname, interp::floats(*v)).unwrap();
                }
            }
            let o = interp::run(&s.program, &inputs, &RunOptions::default())
                .unwrap_or_else(|e| panic!("{e}\n{asm}"));
            assert_eq!(
                o.killed, results[k].killed,
                "case {k}: interpreter and device disagree on the kill\n{asm}"
            );
            if o.killed {
                continue;
            }
            for (&l, got) in &results[k].colors {
                let name = if l == 0 {
                    "result.color".to_string()
                } else {
                    format!("result.color[{l}]")
                };
                if let Some(r) = o.results.get(&name) {
                    let want = r.floats();
                    for c in 0..4 {
                        if r.defined() & (1 << c) != 0 {
                            assert!(
                                close(got[c], want[c]),
                                "case {k}: device {got:?}, interpreter {want:?} ({name})\n{asm}"
                            );
                        }
                    }
                }
            }
        }
    }
    results
}

/// One vertex-shader run per vertex; the outputs by program result name
/// (`oPos`, `oD0`, `oT1`, `oFog`, `oPts`, `texcoord0`, ...).
pub fn vertex(
    asm: &str,
    vertices: &[&[(u32, [f32; 4])]],
    bind: &Bind,
) -> Vec<BTreeMap<String, [f32; 4]>> {
    let Some(dev) = harness::device_or_skip() else {
        return Vec::new();
    };
    let options = bind.options.clone().unwrap_or_default();
    let s = compile(asm, &options);
    // Each result variable: its name, Capture and interpreter name.
    let mut outputs = Vec::new();
    for var in &s.program.variables {
        let VarKind::Result(b) = &var.kind else {
            continue;
        };
        let name = var.name.clone().unwrap_or_default();
        let slot = s
            .reflection
            .outputs
            .iter()
            .find(|o| o.names.contains(&name))
            .unwrap_or_else(|| panic!("no reflected output `{name}`"));
        let capture = match (slot.location, slot.built_in) {
            (Some(l), _) => Capture::Location(l),
            (None, Some(nvp4c::reflect::BuiltIn::PointSize)) => Capture::PointSize,
            _ => Capture::Position,
        };
        outputs.push((name, capture, interp::result_name(&b[0])));
    }
    let job = VertexJob {
        env: bind.env(),
        local: bind.local(),
        buffers: bind.buffers(),
        textures: bind.textures.clone(),
        ..VertexJob::new(
            vertices
                .iter()
                .map(|v| v.iter().map(|(l, x)| Input::float(*l, *x)).collect())
                .collect(),
            outputs.iter().map(|o| o.1).collect(),
        )
    };
    let out = dev
        .run_vertex(&s.spirv, &job)
        .unwrap_or_else(|e| panic!("{e:?}\n{asm}"));
    let mut results = Vec::new();
    for (k, v) in vertices.iter().enumerate() {
        let mut m = BTreeMap::new();
        for (name, capture, _) in &outputs {
            let value = match capture {
                Capture::Location(l) => out.location_f32(k, *l),
                Capture::PointSize => [
                    f32::from_bits(out.vertices[k].point_size.unwrap_or(0)),
                    0.0,
                    0.0,
                    1.0,
                ],
                _ => out.position_f32(k),
            };
            m.insert(name.clone(), value);
        }
        if bind.textures.is_empty() {
            let mut inputs = bind.inputs();
            for (l, x) in v.iter() {
                inputs
                    .set(&format!("vertex.attrib[{l}]"), interp::floats(*x))
                    .unwrap();
            }
            let o = interp::run(&s.program, &inputs, &RunOptions::default())
                .unwrap_or_else(|e| panic!("{e}\n{asm}"));
            for (name, capture, iname) in &outputs {
                let Some(r) = o.results.get(iname) else {
                    continue;
                };
                let want = r.floats();
                let got = m[name];
                let comps = if *capture == Capture::PointSize { 1 } else { 4 };
                for c in 0..comps {
                    if r.defined() & (1 << c) != 0 {
                        assert!(
                            close(got[c], want[c]),
                            "vertex {k} {name}: device {got:?}, interpreter {want:?}\n{asm}"
                        );
                    }
                }
            }
        }
        results.push(m);
    }
    results
}

/// Every case of the execution-test tables, and the shaders of the tests
/// that run outside them.
pub fn all_cases() -> Vec<Case> {
    let mut v = Vec::new();
    v.extend(exec_alu::common_cases());
    v.extend(exec_alu::vs_ps2_cases());
    v.extend(exec_alu::vs_cases());
    v.extend(exec_alu::ps_cases());
    v.extend(exec_flow::static_cases());
    v.extend(exec_flow::dynamic_cases());
    v.extend(exec_flow::loop_cases());
    v.extend(exec_flow::relative_cases());
    v.extend(exec_texture::cases());
    v.extend(exec_ps1x::texture_cases());
    v.extend(exec_ps1x::modifier_cases());
    v.extend(exec_vertex::cases());
    v
}

/// "Every instruction of every version has a passing execution test":
/// every form of the opcode table, in every version the issue names,
/// appears in some case above (each comparison and each texld variant
/// counted on its own).
#[test]
fn every_instruction_of_every_version_has_an_execution_case() {
    use nvp4c::front::d3d9::{decode, table};
    let versions = [
        "vs_1_1", "vs_2_0", "vs_2_x", "vs_3_0", "ps_1_1", "ps_1_2", "ps_1_3", "ps_1_4", "ps_2_0",
        "ps_2_x", "ps_3_0",
    ];
    let mut seen = std::collections::BTreeSet::new();
    let shaders = all_cases()
        .into_iter()
        .map(|c| c.shader)
        .chain(exec_texture::raster_shaders());
    for shader in shaders {
        let bytes = nvp4c::front::d3d9::assemble::assemble_bytes(&shader).unwrap();
        let shader = decode::decode(&bytes);
        let version = shader.version.unwrap().name();
        for inst in &shader.instructions {
            seen.insert((inst.mnemonic(), version.clone()));
        }
    }
    let mut missing = Vec::new();
    for name in versions {
        let v = nvp4c::front::d3d9::assemble::parse_version(name).unwrap();
        for form in table::FORMS.iter().filter(|f| f.available(v)) {
            let mnemonics: Vec<String> = match form.control {
                table::Control::Comparison => table::Comparison::ALL
                    .iter()
                    .map(|c| format!("{}_{}", form.name, c.name()))
                    .collect(),
                table::Control::TexLd => vec!["texld".into(), "texldp".into(), "texldb".into()],
                table::Control::None => vec![form.name.to_string()],
            };
            for m in mnemonics {
                if !seen.contains(&(m.clone(), v.name())) {
                    missing.push(format!("{m} in {}", v.name()));
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "no execution case for: {}",
        missing.join(", ")
    );
}
