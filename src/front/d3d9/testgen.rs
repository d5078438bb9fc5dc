//! Random valid Direct3D 9 shaders, one generator per version, for the
//! differential test (device against interpreter, tests/device/d3d9/
//! differential.rs). Deterministic: one [`Rng`], one shader.
//!
//! The shaders are written in Microsoft's assembly syntax (assembled by
//! [`super::assemble`]) and use what the version has: arithmetic with
//! source and destination modifiers, relative addressing through `a0` and
//! `aL`, `rep`/`loop`/`if`/`else`/`break*` on booleans, comparisons and
//! predicates, `setp` and predicated instructions, `call`/`callnz`
//! subroutines, `texkill`, the ps_1_x texture-coordinate instructions,
//! co-issue and phases. Texture sampling is left out (the interpreter does
//! not model textures; the execution tests cover it).
//!
//! As in [`crate::testgen`], instructions whose Vulkan results are
//! approximations (`rcp`, `rsq`, `exp`, `log`, `expp`, `logp`, `pow`,
//! `nrm`, `lit`, `sincos`) write only the *sink* register, which nothing
//! reads but one output: their error cannot be amplified by a later
//! comparison or `frc`, so every other output compares exactly and the
//! sink's output within a tolerance. Every temporary is written before the
//! body, so nothing reads an undefined register.
//!
//! The generator knows the rules it must follow only approximately; the
//! caller checks the program and [`Generated::drop_line`]s the arithmetic
//! lines the checker rejects (their count says how well the generator
//! knows each version).
//!
//! ```
//! use nvp4c::front::d3d9::{table::Version, testgen};
//! let mut rng = nvp4c::testgen::Rng::new(7);
//! let g = testgen::generate(Version::vertex(3, 0), &mut rng, 4);
//! assert!(g.source().starts_with("vs_3_0\n"));
//! assert_eq!(g.inputs.len(), 4);
//! ```

use std::collections::BTreeMap;

use super::table::{self, Level, Op, Version, L1_2, L1_4, L2_0, L2_X, L3_0};
use crate::testgen::Rng;

/// A generated shader, its inputs and constants.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The version.
    pub version: Version,
    /// The shader, one instruction per line (the first is the version).
    pub lines: Vec<String>,
    /// Which lines may be dropped (arithmetic, not structure or outputs).
    pub droppable: Vec<bool>,
    /// Per case, the value of each input variable, by the IR variable's
    /// name (`v0`, `t1`, `texcoord2`, `color0`), as bits.
    pub inputs: Vec<BTreeMap<String, [u32; 4]>>,
    /// `c#` values from the constant block (not `def`'d).
    pub c: Vec<(u32, [u32; 4])>,
    /// `i#` values from the constant block.
    pub i: Vec<(u32, [i32; 4])>,
    /// `b#` values from the constant block.
    pub b: Vec<(u32, bool)>,
    /// The result that carries the sink register (approximate values),
    /// by the IR variable's name (`oC3`, `oT7`, `texcoord7`).
    pub approximate: Option<&'static str>,
}

impl Generated {
    /// The assembly text.
    pub fn source(&self) -> String {
        let mut s = self.lines.join("\n");
        s.push('\n');
        s
    }

    /// Removes line `i` if it may go (a ps_1_x co-issued pair goes
    /// together); whether it did.
    pub fn drop_line(&mut self, i: usize) -> bool {
        if !self.droppable.get(i).copied().unwrap_or(false) {
            return false;
        }
        let coissued = |l: &String| l.starts_with('+');
        let (start, end) = if coissued(&self.lines[i]) {
            (i.saturating_sub(1), i + 1)
        } else if self.lines.get(i + 1).is_some_and(coissued) {
            (i, i + 2)
        } else {
            (i, i + 1)
        };
        self.lines.drain(start..end);
        self.droppable.drain(start..end);
        true
    }

    /// Removes the last line before `i` that may go; whether there was
    /// one (for a limit the whole shader exceeds, such as its slots).
    pub fn drop_before(&mut self, i: usize) -> bool {
        (0..i.min(self.lines.len()))
            .rev()
            .find(|&k| self.droppable[k])
            .is_some_and(|k| self.drop_line(k))
    }
}

/// The versions the generator writes.
pub fn versions() -> Vec<Version> {
    vec![
        Version::vertex(1, 1),
        Version::vertex(2, 0),
        Version::vertex(2, 1),
        Version::vertex(3, 0),
        Version::pixel(1, 1),
        Version::pixel(1, 2),
        Version::pixel(1, 3),
        Version::pixel(1, 4),
        Version::pixel(2, 0),
        Version::pixel(2, 1),
        Version::pixel(3, 0),
    ]
}

/// A value exact in binary with room to spare: k/16 in [-2, 2].
fn dyadic(rng: &mut Rng) -> f32 {
    (rng.below(65) as f32 - 32.0) / 16.0
}

fn unit(rng: &mut Rng) -> f32 {
    rng.below(17) as f32 / 16.0
}

fn vec4(rng: &mut Rng, f: fn(&mut Rng) -> f32) -> [f32; 4] {
    [f(rng), f(rng), f(rng), f(rng)]
}

fn num(x: f32) -> String {
    format!("{x:?}")
}

/// An input register of the shader: its text and the IR variable's name.
#[derive(Clone, Debug)]
struct InputReg {
    text: String,
    var: String,
    /// ps_1_x colours hold [0, 1].
    unit: bool,
}

/// Where the loop counter `aL` may be used.
#[derive(Clone, Copy, PartialEq, Eq)]
enum LoopKind {
    Rep,
    Loop,
}

struct Gen<'r> {
    v: Version,
    rng: &'r mut Rng,
    out: Vec<(String, bool)>,
    subs: Vec<Vec<(String, bool)>>,
    /// Exact temporaries r0..temps-1.
    temps: u32,
    /// The sink register.
    sink: Option<u32>,
    inputs: Vec<InputReg>,
    /// Readable float constants.
    consts: Vec<u32>,
    loops: Vec<LoopKind>,
    call_depth: u32,
    predicate: bool,
    address: bool,
    /// vs_3_0: output registers the body may write (o1-o3).
    outputs: Vec<u32>,
    /// Statements left in the current block.
    budget: usize,
    /// Labels used so far.
    labels: u32,
    /// A temporary sources must not read (the destination of the
    /// instructions that may not read it).
    avoid: Option<u32>,
}

/// A random valid shader of `version` with `cases` input cases.
pub fn generate(version: Version, rng: &mut Rng, cases: usize) -> Generated {
    let v = version;
    let pixel = v.is_pixel();
    let level = v.level();
    let mut header: Vec<(String, bool)> = vec![(v.name(), false)];
    let mut g = Gen {
        v,
        rng,
        out: Vec::new(),
        subs: Vec::new(),
        // Pixel shaders have few outputs to show them by.
        temps: match (pixel, level) {
            (true, l) if l < L1_4 => 2,
            (true, _) => 3,
            _ => 5,
        },
        sink: (!(pixel && v.is_sm1())).then_some(5),
        inputs: Vec::new(),
        consts: Vec::new(),
        loops: Vec::new(),
        call_depth: 0,
        predicate: false,
        address: false,
        outputs: Vec::new(),
        budget: 0,
        labels: 0,
        avoid: None,
    };
    let ps1 = pixel && v.is_sm1();
    // Constants: c0-c3 def'd, c4-c7 (and c8-c15 past ps_1_x) from the
    // block; ps_1_x constants hold [-1, 1].
    let mut c = Vec::new();
    for n in 0..4 {
        let x = vec4(
            g.rng,
            if ps1 {
                |r: &mut Rng| dyadic(r) / 2.0
            } else {
                dyadic
            },
        );
        header.push((format!("def c{n}, {}", x.map(num).join(", ")), false));
    }
    let bound = if ps1 { 4..8 } else { 4..16 };
    for n in bound.clone() {
        let x = vec4(
            g.rng,
            if ps1 {
                |r: &mut Rng| dyadic(r) / 2.0
            } else {
                dyadic
            },
        );
        c.push((n, x.map(f32::to_bits)));
    }
    g.consts = (0..bound.end).collect();
    if !ps1 {
        // c16: 2pi, -pi (sincos's argument), -20, 20 (a0's range);
        // c17, c18: the D3DSINCOSCONST values sincos takes in shader
        // model 2 (nvp4c ignores them).
        header.push(("def c16, 6.28318548, -3.14159274, -20, 20".into(), false));
        header.push((
            "def c17, -1.55009923e-06, -2.17013894e-05, 0.00260416674, 0.00026041668".into(),
            false,
        ));
        header.push(("def c18, -0.020833334, -0.125, 1, 0.5".into(), false));
    }
    // Integer and boolean constants (loops and static flow).
    let mut i = Vec::new();
    let mut b = Vec::new();
    if g.has(Op::DefI) {
        let count = 1 + g.rng.below(3) as i32;
        header.push((format!("defi i0, {count}, 0, 0, 0"), false));
        // aL stays within 0-3: it indexes v0-v3 and o1-o4.
        let count = 1 + g.rng.below(3);
        let step = if count == 3 { 1 } else { 1 + g.rng.below(2) };
        let start = g.rng.below(4 - (count - 1) * step);
        header.push((format!("defi i1, {count}, {start}, {step}, 0"), false));
        i.push((2, [1 + g.rng.below(3) as i32, g.rng.below(2) as i32, 1, 0]));
        let t = g.rng.chance(50);
        header.push((format!("defb b0, {t}"), false));
        b.push((1, g.rng.chance(50)));
        b.push((2, g.rng.chance(50)));
    }
    // Inputs and their declarations.
    let mut decls: Vec<String> = Vec::new();
    let mut prologue: Vec<(String, bool)> = Vec::new();
    // Input variables the shader has but the body does not read.
    let mut extra_vars: Vec<String> = Vec::new();
    if !pixel {
        decls.push("dcl_position v0".into());
        for n in 1..4 {
            decls.push(format!("dcl_texcoord{} v{n}", n - 1));
        }
        for n in 0..4 {
            g.inputs.push(InputReg {
                text: format!("v{n}"),
                var: format!("v{n}"),
                unit: false,
            });
        }
    } else if level < L1_4 {
        // ps_1_1-1_3: t# through texcoord (clamped to [0, 1]); t3
        // sometimes tested by texkill instead (it then holds nothing).
        let kill = g.rng.chance(30);
        for n in 0..4 {
            if n == 3 && kill {
                prologue.push(("texkill t3".into(), false));
                extra_vars.push("t3".to_string());
                continue;
            }
            prologue.push((format!("texcoord t{n}"), false));
            g.inputs.push(InputReg {
                text: format!("t{n}"),
                var: format!("t{n}"),
                unit: false,
            });
        }
        for n in 0..2 {
            g.inputs.push(InputReg {
                text: format!("v{n}"),
                var: format!("v{n}"),
                unit: true,
            });
        }
    } else if level == L1_4 {
        // ps_1_4: texture coordinates through texcrd into r#; colours;
        // sometimes texkill of t5.
        if g.rng.chance(30) {
            prologue.push(("texkill t5".into(), false));
        }
        for n in 0..2 {
            g.inputs.push(InputReg {
                text: format!("v{n}"),
                var: format!("v{n}"),
                unit: true,
            });
        }
    } else if level < L3_0 {
        for n in 0..4 {
            decls.push(format!("dcl t{n}"));
            g.inputs.push(InputReg {
                text: format!("t{n}"),
                var: format!("t{n}"),
                unit: false,
            });
        }
        for n in 0..2 {
            decls.push(format!("dcl v{n}"));
            g.inputs.push(InputReg {
                text: format!("v{n}"),
                var: format!("v{n}"),
                unit: true,
            });
        }
    } else {
        // ps_3_0: semantics, one register packing two.
        for (reg, usage) in [("v0", "texcoord0"), ("v1", "texcoord1"), ("v2", "color0")] {
            decls.push(format!("dcl_{usage} {reg}"));
            g.inputs.push(InputReg {
                text: reg.into(),
                var: usage.into(),
                unit: usage.starts_with("color"),
            });
        }
        decls.push("dcl_texcoord2 v3.xy".into());
        decls.push("dcl_texcoord3 v3.zw".into());
        g.inputs.push(InputReg {
            text: "v3".into(),
            var: "texcoord2".into(),
            unit: false,
        });
        if g.rng.chance(50) {
            decls.push("dcl vPos.xy".into());
            g.inputs.push(InputReg {
                text: "vPos".into(),
                var: "vPos".into(),
                unit: false,
            });
        }
        if g.rng.chance(30) {
            decls.push("dcl vFace".into());
            g.inputs.push(InputReg {
                text: "vFace".into(),
                var: "vFace".into(),
                unit: false,
            });
        }
    }
    // vs_3_0 outputs: o0 position, o1-o3 written by the body, o4 the sink.
    if !pixel && level >= L3_0 {
        decls.push("dcl_position o0".into());
        decls.push("dcl_color0 o1".into());
        decls.push("dcl_texcoord0 o2".into());
        decls.push("dcl_texcoord1 o3".into());
        decls.push("dcl_texcoord7 o4".into());
        for n in 1..5 {
            decls.push(format!("dcl_texcoord{} o{}", n + 1, n + 4));
        }
        g.outputs = vec![1, 2, 3];
    }
    header.extend(decls.into_iter().map(|d| (d, false)));
    header.extend(prologue);
    // Every temporary written first.
    let mut init = Vec::new();
    if level == L1_4 {
        // texcrd writes (x, y, z, 1).
        for n in 0..g.temps {
            init.push((format!("texcrd r{n}, t{n}"), false));
        }
    } else {
        for n in 0..g.temps {
            let src = if g.inputs.is_empty() || n % 2 == 1 {
                format!("c{}", n % 4)
            } else {
                g.inputs[n as usize % g.inputs.len()].text.clone()
            };
            init.push((format!("mov r{n}, {src}"), false));
        }
    }
    if let Some(s) = g.sink {
        init.push((format!("mov r{s}, c0"), false));
    }
    for &o in &g.outputs {
        init.push((format!("mov o{o}, c{}", o % 4), false));
    }
    // The body, within the version's instruction slots (ps_1_x: 8
    // arithmetic, per phase in ps_1_4).
    g.budget = if ps1 {
        2 + g.rng.below(4)
    } else {
        10 + g.rng.below(20)
    };
    let phase = level == L1_4 && g.rng.chance(40);
    if phase {
        // ps_1_4 with two phases: some arithmetic, `phase`, more texture
        // coordinates, more arithmetic.
        let mut first = std::mem::take(&mut g.out);
        g.budget = 1 + g.rng.below(3);
        g.block_straight();
        first.append(&mut g.out);
        first.push(("phase".into(), false));
        for n in 0..2 {
            first.push((format!("texcrd r{n}, t{}", n + 3), false));
        }
        g.out = first;
        g.budget = 2 + g.rng.below(5);
    }
    if ps1 {
        g.block_straight();
    } else {
        g.block();
    }
    let body = std::mem::take(&mut g.out);
    // Outputs: every temporary reaches one unchanged (ps_1_x: summed
    // into r0, its only output), the sink its own.
    let mut tail: Vec<(String, bool)> = Vec::new();
    let approximate;
    let sink = g.sink.unwrap_or(0);
    if pixel && v.is_sm1() {
        approximate = None;
        for n in 1..g.temps {
            tail.push((format!("add r0, r0, r{n}"), false));
        }
    } else if pixel {
        for n in 0..3 {
            tail.push((format!("mov oC{n}, r{n}"), false));
        }
        tail.push((format!("mov oC3, r{sink}"), false));
        approximate = Some("oC3");
    } else if level >= L3_0 {
        tail.push(("mov o0, r0".into(), false));
        for n in 1..g.temps {
            tail.push((format!("mov o{}, r{n}", 4 + n), false));
        }
        tail.push((format!("mov o4, r{sink}"), false));
        approximate = Some("texcoord7");
    } else {
        tail.push(("mov oPos, r0".into(), false));
        for n in 1..g.temps {
            tail.push((format!("mov oT{}, r{n}", n - 1), false));
        }
        // The colours and fog are saturated: any temporaries.
        for out in ["oD0", "oD1"] {
            let r = g.temp();
            tail.push((format!("mov {out}, r{r}"), false));
        }
        let r = g.temp();
        tail.push((format!("mov oFog, r{r}.x"), false));
        tail.push((format!("mov oT7, r{sink}"), false));
        approximate = Some("oT7");
    }
    let mut lines = header;
    lines.extend(init);
    lines.extend(body);
    lines.extend(tail);
    if !g.subs.is_empty() {
        lines.push(("ret".into(), false));
        for (k, sub) in std::mem::take(&mut g.subs).into_iter().enumerate() {
            lines.push((format!("label l{k}"), false));
            lines.extend(sub);
            lines.push(("ret".into(), false));
        }
    }
    // Inputs per case.
    let vars: Vec<InputReg> = g
        .inputs
        .iter()
        .filter(|r| r.var != "vPos" && r.var != "vFace")
        .cloned()
        .collect();
    let mut inputs = Vec::new();
    for _ in 0..cases {
        let mut m = BTreeMap::new();
        for r in &vars {
            let x = if r.unit {
                vec4(g.rng, unit)
            } else {
                vec4(g.rng, dyadic)
            };
            m.insert(r.var.clone(), x.map(f32::to_bits));
        }
        for name in &extra_vars {
            m.insert(name.clone(), vec4(g.rng, dyadic).map(f32::to_bits));
        }
        // ps_1_4's texture coordinates (read by texcrd).
        if level == L1_4 {
            for n in 0..6 {
                m.insert(format!("t{n}"), vec4(g.rng, dyadic).map(f32::to_bits));
            }
        }
        // ps_3_0: texcoord3 shares v3 with texcoord2.
        if level >= L3_0 && pixel {
            m.insert("texcoord3".into(), vec4(g.rng, dyadic).map(f32::to_bits));
        }
        inputs.push(m);
    }
    let (lines, droppable) = lines.into_iter().unzip();
    Generated {
        version: v,
        lines,
        droppable,
        inputs,
        c,
        i,
        b,
        approximate,
    }
}

impl Gen<'_> {
    fn has(&self, op: Op) -> bool {
        table::FORMS
            .iter()
            .any(|f| f.op == op && f.available(self.v))
    }

    fn at_least(&self, l: Level) -> bool {
        self.v.level() >= l
    }

    fn emit(&mut self, line: String, droppable: bool) {
        self.out.push((line, droppable));
    }

    fn max_loops(&self) -> usize {
        if self.at_least(L2_X) {
            2
        } else {
            1
        }
    }

    fn max_calls(&self) -> u32 {
        if self.at_least(L2_X) {
            2
        } else {
            1
        }
    }

    /// Straight-line arithmetic (ps_1_x: no flow control).
    fn block_straight(&mut self) {
        while self.budget > 0 {
            self.budget -= 1;
            if self.v.is_sm1() && self.rng.chance(20) {
                self.coissue();
            } else {
                self.arith();
            }
        }
    }

    /// Statements until the budget runs out, with blocks as the version
    /// has them.
    fn block(&mut self) {
        while self.budget > 0 {
            self.budget -= 1;
            let pixel = self.v.is_pixel();
            match self.rng.below(20) {
                0..=8 => self.arith(),
                9 | 10 if self.sink.is_some() => self.approx(),
                11 if self.has(Op::If) => self.if_block(),
                12 if self.has(Op::Rep) && self.loops.len() < self.max_loops() => self.loop_block(),
                13 if self.has(Op::Setp) => self.setp(),
                14 if self.predicate => self.predicated(),
                15 if !self.loops.is_empty() && self.has(Op::Break) => self.break_(),
                16 if self.has(Op::Call) && self.call_depth < self.max_calls() => self.call(),
                17 if !pixel => self.address(),
                18 if pixel => self.kill(),
                19 if !self.outputs.is_empty() => self.output_write(),
                _ => self.arith(),
            }
        }
    }

    /// A nested block of a few statements.
    fn inner(&mut self) -> Vec<(String, bool)> {
        let saved_out = std::mem::take(&mut self.out);
        let saved_budget = self.budget;
        self.budget = 1 + self.rng.below(4.min(saved_budget.max(1)));
        let used = self.budget;
        self.block();
        self.budget = saved_budget.saturating_sub(used);
        std::mem::replace(&mut self.out, saved_out)
    }

    /// One of `items`.
    fn choose(&mut self, items: &[&'static str]) -> &'static str {
        items[self.rng.below(items.len())]
    }

    fn temp(&mut self) -> u32 {
        self.rng.below(self.temps as usize) as u32
    }

    /// A temporary to read: any but [`Gen::avoid`].
    fn read_temp(&mut self) -> u32 {
        let t = self.temp();
        match self.avoid {
            Some(a) if a == t => (t + 1) % self.temps,
            _ => t,
        }
    }

    fn mask(&mut self) -> &'static str {
        if self.v.is_sm1() && self.v.is_pixel() {
            return self.choose(&["", ".rgb", ".a", ""]);
        }
        self.choose(&["", "", ".x", ".xy", ".xyz", ".w", ".yw", ".xz"])
    }

    fn swizzle(&mut self) -> &'static str {
        let ps = self.v.is_pixel();
        match self.v.level() {
            l if ps && l < L1_4 => self.choose(&["", "", "", ".a"]),
            l if ps && l == L1_4 => self.choose(&["", "", ".r", ".g", ".b", ".a"]),
            l if ps && l == L2_0 => self.choose(&["", "", "", ".x", ".y", ".z", ".w"]),
            _ => self.choose(&[
                "", "", "", ".x", ".y", ".w", ".yzxw", ".wzyx", ".xxyy", ".zwxy",
            ]),
        }
    }

    /// A register to read (exact values only).
    fn register(&mut self) -> String {
        let ps1 = self.v.is_pixel() && self.v.is_sm1();
        let relative = !ps1 && self.rng.chance(15);
        match self.rng.below(10) {
            0..=4 => format!("r{}", self.read_temp()),
            5..=7 if !self.inputs.is_empty() => {
                let k = self.rng.below(self.inputs.len());
                let r = self.inputs[k].text.clone();
                // v[aL] in shader model 3.
                if relative
                    && self.at_least(L3_0)
                    && self.loops.contains(&LoopKind::Loop)
                    && r.starts_with('v')
                    && !r.starts_with("vP")
                    && !r.starts_with("vF")
                {
                    return "v0[aL]".to_string();
                }
                r
            }
            _ => {
                let n = *self.rng.pick(&self.consts.clone());
                if relative && !self.v.is_pixel() && self.address {
                    format!("c{}[a0.x]", 4 + self.rng.below(8))
                } else if relative && self.loops.contains(&LoopKind::Loop) && !self.v.is_pixel() {
                    format!("c{}[aL]", 4 + self.rng.below(8))
                } else {
                    format!("c{n}")
                }
            }
        }
    }

    /// A source operand: register, modifier, swizzle.
    fn src(&mut self) -> String {
        let reg = self.register();
        let swz = self.swizzle();
        let ps1 = self.v.is_pixel() && self.v.is_sm1();
        if ps1 {
            return match self.rng.below(10) {
                0 => format!("-{reg}{swz}"),
                1 => format!("{reg}_bias{swz}"),
                2 => format!("{reg}_bx2{swz}"),
                3 => format!("1 - {reg}{swz}"),
                4 if self.v.level() == L1_4 => format!("{reg}_x2{swz}"),
                5 => format!("-{reg}_bx2{swz}"),
                _ => format!("{reg}{swz}"),
            };
        }
        match self.rng.below(10) {
            0 | 1 => format!("-{reg}{swz}"),
            2 if self.at_least(L3_0) => format!("{reg}_abs{swz}"),
            3 if self.at_least(L3_0) => format!("-{reg}_abs{swz}"),
            _ => format!("{reg}{swz}"),
        }
    }

    /// A scalar source (a replicate swizzle).
    fn scalar(&mut self) -> String {
        let reg = self.register();
        let c = self.choose(&["x", "y", "z", "w"]);
        let neg = if self.rng.chance(20) { "-" } else { "" };
        format!("{neg}{reg}.{c}")
    }

    /// The destination modifiers of arithmetic.
    fn dst_mods(&mut self) -> &'static str {
        let ps = self.v.is_pixel();
        if ps && self.v.is_sm1() {
            let shifts: &[&str] = if self.v.level() == L1_4 {
                &["", "", "", "_x2", "_x4", "_x8", "_d2", "_d4", "_d8", "_sat"]
            } else {
                &["", "", "", "_x2", "_x4", "_d2", "_sat"]
            };
            return self.choose(shifts);
        }
        if (ps || self.at_least(L3_0)) && self.rng.chance(15) {
            return "_sat";
        }
        ""
    }

    fn arith(&mut self) {
        let line = self.arith_line();
        self.emit(line, true);
    }

    /// One exact arithmetic instruction writing a temporary.
    fn arith_line(&mut self) -> String {
        let ops: Vec<(Op, &str, usize)> = [
            (Op::Mov, "mov", 1),
            (Op::Add, "add", 2),
            (Op::Sub, "sub", 2),
            (Op::Mul, "mul", 2),
            (Op::Mad, "mad", 3),
            (Op::Dp3, "dp3", 2),
            (Op::Dp4, "dp4", 2),
            (Op::Min, "min", 2),
            (Op::Max, "max", 2),
            (Op::Slt, "slt", 2),
            (Op::Sge, "sge", 2),
            (Op::Frc, "frc", 1),
            (Op::Abs, "abs", 1),
            (Op::Lrp, "lrp", 3),
            (Op::Cmp, "cmp", 3),
            (Op::Cnd, "cnd", 3),
            (Op::Crs, "crs", 2),
            (Op::Dst, "dst", 2),
            (Op::Sgn, "sgn", 1),
            (Op::Dp2Add, "dp2add", 3),
            (Op::M4x4, "m4x4", 2),
            (Op::M4x3, "m4x3", 2),
            (Op::M3x4, "m3x4", 2),
            (Op::M3x3, "m3x3", 2),
            (Op::M3x2, "m3x2", 2),
            (Op::Nop, "nop", 0),
        ]
        .into_iter()
        .filter(|(op, ..)| self.has(*op))
        .collect();
        let (op, name, _) = *self.rng.pick(&ops);
        let d = self.temp();
        // These may not read their destination (E3115).
        self.avoid = matches!(
            op,
            Op::M4x4
                | Op::M4x3
                | Op::M3x4
                | Op::M3x3
                | Op::M3x2
                | Op::Crs
                | Op::Sgn
                | Op::Cnd
                | Op::Cmp
        )
        .then_some(d);
        let line = self.arith_with(op, name, d);
        self.avoid = None;
        line
    }

    fn arith_with(&mut self, op: Op, name: &str, d: u32) -> String {
        let mods = self.dst_mods();
        let ps1 = self.v.is_pixel() && self.v.is_sm1();
        match op {
            Op::Nop => "nop".into(),
            Op::M4x4 | Op::M4x3 | Op::M3x4 | Op::M3x3 | Op::M3x2 => {
                let mask = match op {
                    Op::M4x3 | Op::M3x3 => ".xyz",
                    Op::M3x2 => ".xy",
                    _ => "",
                };
                let s = self.src_plain();
                format!(
                    "{name}{mods} r{d}{mask}, {s}, c{}",
                    4 + self.rng.below(2) * 4
                )
            }
            Op::Crs => {
                let (a, b) = (self.src_plain(), self.src_plain());
                let mask = self.choose(&[".xyz", ".x", ".yz"]);
                format!("crs{mods} r{d}{mask}, {a}, {b}")
            }
            Op::Sgn if !self.at_least(L3_0) => {
                // Shader model 2: two scratch temporaries after the source.
                let a = self.src_plain();
                let mask = self.mask();
                format!(
                    "sgn r{d}{mask}, {a}, r{}, r{}",
                    self.read_temp(),
                    self.read_temp()
                )
            }
            Op::Dp2Add => {
                let (a, b) = (self.src(), self.src());
                let c = self.scalar();
                let mask = self.choose(&["", ".x", ".w"]);
                format!("dp2add{mods} r{d}{mask}, {a}, {b}, {c}")
            }
            Op::Cnd if ps1 && self.v.level() < L1_4 => {
                let (a, b) = (self.src(), self.src());
                let mask = self.mask();
                format!("cnd{mods} r{d}{mask}, r0.a, {a}, {b}")
            }
            Op::Frc if !self.v.is_pixel() && self.v.level() < L2_0 => {
                let a = self.src();
                let mask = self.choose(&[".x", ".xy", ".y"]);
                format!("frc r{d}{mask}, {a}")
            }
            _ => {
                let n = match op {
                    Op::Mov | Op::Frc | Op::Abs | Op::Sgn => 1,
                    Op::Mad | Op::Lrp | Op::Cmp | Op::Cnd => 3,
                    _ => 2,
                };
                let srcs: Vec<String> = (0..n).map(|_| self.src()).collect();
                let mask = self.mask();
                format!("{name}{mods} r{d}{mask}, {}", srcs.join(", "))
            }
        }
    }

    /// A source without modifiers or swizzle (operands the instruction
    /// pages restrict).
    fn src_plain(&mut self) -> String {
        let r = self.register();
        if r.contains('[') {
            format!("r{}", self.read_temp())
        } else {
            r
        }
    }

    /// ps_1_x co-issue: a colour instruction and an alpha one.
    fn coissue(&mut self) {
        let ops: &[&str] = if self.v.level() >= L1_2 {
            &["add", "mul", "mov", "sub", "mad", "cmp", "lrp"]
        } else {
            &["add", "mul", "mov", "sub", "mad", "lrp"]
        };
        let line = |g: &mut Gen, mask: &str| {
            let op = *g.rng.pick(ops);
            let n = match op {
                "mov" => 1,
                "mad" | "cmp" | "lrp" => 3,
                _ => 2,
            };
            let d = g.temp();
            let mods = g.dst_mods();
            let srcs: Vec<String> = (0..n).map(|_| g.src()).collect();
            format!("{op}{mods} r{d}{mask}, {}", srcs.join(", "))
        };
        let rgb = line(self, ".rgb");
        let a = line(self, ".a");
        // The pair goes or stays together ([`Generated::drop_line`]).
        self.emit(rgb, true);
        self.emit(format!("+{a}"), true);
    }

    /// An instruction whose result Vulkan approximates, into the sink.
    fn approx(&mut self) {
        let Some(s) = self.sink else { return };
        let ops: Vec<Op> = [
            Op::Rcp,
            Op::Rsq,
            Op::Exp,
            Op::Log,
            Op::ExpP,
            Op::LogP,
            Op::Pow,
            Op::Nrm,
            Op::Lit,
            Op::SinCos,
        ]
        .into_iter()
        .filter(|op| self.has(*op))
        .collect();
        let op = *self.rng.pick(&ops);
        let mask = self.choose(&["", ".x", ".y", ".z", ".w", ".xy"]);
        let line = match op {
            Op::Rcp | Op::Rsq | Op::Exp | Op::Log | Op::ExpP | Op::LogP => {
                let name = match op {
                    Op::Rcp => "rcp",
                    Op::Rsq => "rsq",
                    Op::Exp => "exp",
                    Op::Log => "log",
                    Op::ExpP => "expp",
                    _ => "logp",
                };
                let a = self.scalar();
                format!("{name} r{s}{mask}, {a}")
            }
            Op::Pow => {
                let (a, b) = (self.scalar(), self.scalar());
                format!("pow r{s}{mask}, {a}, {b}")
            }
            Op::Nrm => {
                let a = self.src_plain();
                format!("nrm r{s}.xyz, {a}")
            }
            Op::Lit => {
                let a = self.src_plain();
                format!("lit r{s}, {a}")
            }
            _ => {
                // The argument mapped into [-pi, pi] first (exactly: frc
                // and mad), in a temporary's w.
                let a = self.scalar();
                let t = self.temp();
                self.emit(format!("frc r{t}.w, {a}"), false);
                self.emit(format!("mad r{t}.w, r{t}.w, c16.x, c16.y"), false);
                let m = self.choose(&[".x", ".y", ".xy"]);
                if self.at_least(L3_0) {
                    format!("sincos r{s}{m}, r{t}.w")
                } else {
                    format!("sincos r{s}{m}, r{t}.w, c17, c18")
                }
            }
        };
        self.emit(line, true);
    }

    fn comparison(&mut self) -> &'static str {
        self.choose(&["gt", "eq", "ge", "lt", "ne", "le"])
    }

    fn if_block(&mut self) {
        let cond = match self.rng.below(3) {
            0 if self.has(Op::Ifc) => {
                let c = self.comparison();
                let (a, b) = (self.scalar(), self.scalar());
                format!("if_{c} {a}, {b}")
            }
            1 if self.predicate => {
                let not = if self.rng.chance(50) { "!" } else { "" };
                let c = self.choose(&["x", "y", "z", "w"]);
                format!("if {not}p0.{c}")
            }
            _ => format!("if b{}", self.rng.below(3)),
        };
        self.emit(cond, false);
        let then = self.inner();
        self.out.extend(then);
        if self.rng.chance(40) {
            self.emit("else".into(), false);
            let other = self.inner();
            self.out.extend(other);
        }
        self.emit("endif".into(), false);
    }

    fn loop_block(&mut self) {
        // vs: loop with aL (vs_2_0+); ps: loop from ps_3_0.
        let loop_ok = self.has(Op::Loop) && !self.loops.contains(&LoopKind::Loop);
        let kind = if loop_ok && self.rng.chance(50) {
            LoopKind::Loop
        } else {
            LoopKind::Rep
        };
        match kind {
            LoopKind::Loop => {
                let i = *self.rng.pick(&[1, 2]);
                self.emit(format!("loop aL, i{i}"), false);
            }
            LoopKind::Rep => {
                let i = *self.rng.pick(&[0, 2]);
                self.emit(format!("rep i{i}"), false);
            }
        }
        self.loops.push(kind);
        let body = self.inner();
        self.out.extend(body);
        self.loops.pop();
        self.emit(
            match kind {
                LoopKind::Loop => "endloop",
                LoopKind::Rep => "endrep",
            }
            .into(),
            false,
        );
    }

    fn setp(&mut self) {
        let c = self.comparison();
        let mask = self.choose(&["", ".x", ".xy", ".w"]);
        let (a, b) = (self.src(), self.src());
        // The first setp writes every component, so later reads of p0 are
        // of written components.
        let mask = if self.predicate { mask } else { "" };
        self.emit(format!("setp_{c} p0{mask}, {a}, {b}"), false);
        self.predicate = true;
    }

    fn predicated(&mut self) {
        let not = if self.rng.chance(40) { "!" } else { "" };
        let swz = self.choose(&["", ".x", ".y", ".z", ".w"]);
        let line = if self.sink.is_some() && self.rng.chance(20) {
            let saved = std::mem::take(&mut self.out);
            self.approx();
            let lines = std::mem::replace(&mut self.out, saved);
            // The sincos argument mapping stays unpredicated.
            let (last, rest) = lines
                .split_last()
                .map_or((String::from("nop"), Vec::new()), |(l, r)| {
                    (l.0.clone(), r.to_vec())
                });
            self.out.extend(rest);
            last
        } else {
            self.arith_line()
        };
        self.emit(format!("({not}p0{swz}) {line}"), true);
    }

    fn break_(&mut self) {
        let line = match self.rng.below(3) {
            0 => {
                // An unconditional break inside an if.
                let b = self.rng.below(3);
                self.emit(format!("if b{b}"), false);
                self.emit("break".into(), false);
                self.emit("endif".into(), false);
                return;
            }
            1 if self.predicate => {
                let not = if self.rng.chance(50) { "!" } else { "" };
                let c = self.choose(&["x", "y", "z", "w"]);
                format!("breakp {not}p0.{c}")
            }
            _ => {
                let c = self.comparison();
                let (a, b) = (self.scalar(), self.scalar());
                format!("break_{c} {a}, {b}")
            }
        };
        self.emit(line, false);
    }

    fn call(&mut self) {
        let label = self.labels;
        if label >= 16 {
            self.arith();
            return;
        }
        self.labels += 1;
        self.subs.push(Vec::new());
        // The subroutine's body, outside any loop (aL is the caller's).
        let saved_loops = std::mem::take(&mut self.loops);
        self.call_depth += 1;
        let body = self.inner();
        self.call_depth -= 1;
        self.loops = saved_loops;
        self.subs[label as usize] = body;
        let line = match self.rng.below(3) {
            0 => format!("callnz l{label}, b{}", self.rng.below(3)),
            1 if self.predicate => {
                let not = if self.rng.chance(50) { "!" } else { "" };
                let c = self.choose(&["x", "y", "z", "w"]);
                format!("callnz l{label}, {not}p0.{c}")
            }
            _ => format!("call l{label}"),
        };
        self.emit(line, false);
    }

    /// a0.x from a temporary clamped to [-20, 20] (a huge value has no
    /// integer), then a read through it.
    fn address(&mut self) {
        let t = self.temp();
        let s = self.scalar();
        if self.has(Op::Min) {
            self.emit(format!("max r{t}.x, {s}, c16.z"), false);
            self.emit(format!("min r{t}.x, r{t}.x, c16.w"), false);
        } else {
            self.emit(format!("mov r{t}.x, c16.w"), false);
        }
        if self.has(Op::Mova) {
            self.emit(format!("mova a0.x, r{t}.x"), false);
        } else {
            self.emit(format!("mov a0.x, r{t}.x"), false);
        }
        self.address = true;
        let d = self.temp();
        let k = 4 + self.rng.below(12);
        self.emit(format!("add r{d}, r{d}, c{k}[a0.x]"), false);
    }

    fn kill(&mut self) {
        let t = self.temp();
        let mask = self.choose(&["", ".x", ".xy", ".w"]);
        if self.v.is_sm1() {
            return;
        }
        self.emit(format!("texkill r{t}{mask}"), true);
    }

    /// vs_3_0: an output register written in the body, relatively in a
    /// loop.
    fn output_write(&mut self) {
        let s = self.src();
        if self.loops.contains(&LoopKind::Loop) && self.rng.chance(50) {
            self.emit(format!("mov o1[aL], {s}"), false);
        } else {
            let o = *self.rng.pick(&self.outputs.clone());
            self.emit(format!("mov o{o}, {s}"), true);
        }
    }
}
