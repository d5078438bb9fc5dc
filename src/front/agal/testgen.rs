//! Random valid AGAL fragment programs from a seed, for the differential
//! test of the device against the interpreter (tests/device/
//! differential_agal.rs) — the AGAL twin of [`crate::testgen`], whose
//! [`Rng`](crate::testgen::Rng) it uses.
//!
//! Programs are AGALMiniAssembler text with a `// AGAL<n> fragment` first
//! line: AGAL1 (straight-line, one output `oc`), AGAL2 (with `ife`/`ine`/
//! `ifg`/`ifl`/`els`/`eif` blocks, `ddx`/`ddy`, four outputs) and AGAL3
//! (AGAL2 plus `sgn`). `ft0`-`ft2` hold exact results, read and written
//! by everything; the opcodes whose Vulkan results are approximations
//! (`div`, `rcp`, `rsq`, `sqt`, `pow`, `log`, `exp`, `sin`, `cos`, `nrm`)
//! write only `ft3`, which nothing reads, so their error is never
//! amplified and only `oc3` needs a tolerance (`sin` and `cos` read only
//! inputs, whose magnitude is at most 100: the reduction of a larger angle
//! has no bound, docs/semantics.md). Inputs are `v0`-`v3` per case and
//! `fc0`-`fc7` per program.
//!
//! ```
//! let g = nvp4c::front::agal::testgen::generate(7, 2);
//! let compiled = nvp4c::compile(&g.source(), &nvp4c::Options::default()).unwrap();
//! assert_eq!(compiled.stage, nvp4c::Stage::Fragment);
//! ```

use crate::testgen::Rng;

/// A generated program with its inputs.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Generated {
    /// AGAL assembly, one instruction per line; the first names the version.
    pub lines: Vec<String>,
    /// The AGAL version, 1 to 3.
    pub version: u32,
    /// Per case, the bits of `v0`-`v3`.
    pub inputs: Vec<[[u32; 4]; 4]>,
    /// The bits of `fc0`-`fc7`, the same for every case.
    pub constants: Vec<[u32; 4]>,
    /// For AGAL1 programs, the register `oc` is: 0 to 2 (exact).
    pub output: u32,
}

impl Generated {
    /// The program text.
    pub fn source(&self) -> String {
        let mut s = self.lines.join("\n");
        s.push('\n');
        s
    }
}

/// Component-wise and vector opcodes with exact results (IEEE single
/// precision on the device and in the interpreter alike).
const EXACT_OPS: &[&str] = &[
    "mov", "add", "sub", "mul", "min", "max", "frc", "abs", "neg", "sat", "sge", "slt", "seq",
    "sne", "dp3", "dp4", "crs", "m33", "m34", "m44",
];
/// Opcodes whose results Vulkan approximates (docs/semantics.md).
const APPROX_OPS: &[&str] = &[
    "div", "rcp", "rsq", "sqt", "pow", "log", "exp", "sin", "cos", "nrm",
];
const TWO_SOURCES: &[&str] = &[
    "add", "sub", "mul", "min", "max", "sge", "slt", "seq", "sne", "dp3", "dp4", "crs", "m33",
    "m34", "m44", "div", "pow",
];
const XYZ_ONLY: &[&str] = &["crs", "m33", "m34", "nrm"];
const SWIZZLES: &[&str] = &[
    "", "", ".wzyx", ".xxyy", ".yzwx", ".x", ".w", ".zxwy", ".xy",
];
const MASKS: &[&str] = &["", "", ".x", ".xy", ".xyz", ".w", ".yw", ".xzw", ".z"];

struct Gen {
    rng: Rng,
    version: u32,
    lines: Vec<String>,
}

/// The program for `seed`, AGAL `version` (1 to 3).
pub fn generate(seed: u64, version: u32) -> Generated {
    generate_with(Rng::new(seed), &format!("seed {seed:#x}"), version)
}

/// A program from `rng`'s choices; `origin` names them in its first line.
pub fn generate_with(rng: Rng, origin: &str, version: u32) -> Generated {
    let version = version.clamp(1, 3);
    let mut g = Gen {
        rng,
        version,
        lines: vec![format!(
            "// AGAL{version} fragment program (nvp4c testgen, {origin})"
        )],
    };
    for r in 0..3 {
        g.lines.push(format!("mov ft{r}, v{r}"));
    }
    g.lines.push("mov ft3, v3".into());
    let n = 12 + g.rng.below(20);
    g.body(n, 0);
    let output = g.rng.below(3) as u32;
    if version == 1 {
        g.lines.push(format!("mov oc, ft{output}"));
    } else {
        g.lines.push("mov oc, ft0".into());
        for r in 1..4 {
            g.lines.push(format!("mov oc{r}, ft{r}"));
        }
    }
    let constants = (0..8).map(|_| g.vector()).collect();
    let inputs = (0..16)
        .map(|_| std::array::from_fn(|_| g.vector()))
        .collect();
    Generated {
        lines: g.lines,
        version,
        inputs,
        constants,
        output,
    }
}

impl Gen {
    fn value(&mut self) -> f32 {
        const NICE: [f32; 16] = [
            0.0, 1.0, -1.0, 0.5, -0.5, 2.0, 3.25, -7.5, 100.0, 0.125, -0.75, 1.5, 2.5, -2.5, 1e-3,
            4.0,
        ];
        if self.rng.chance(20) {
            (self.rng.below(2001) as f32 - 1000.0) / 16.0
        } else if self.rng.chance(5) {
            -0.0
        } else {
            *self.rng.pick(&NICE)
        }
    }

    fn vector(&mut self) -> [u32; 4] {
        std::array::from_fn(|_| self.value().to_bits())
    }

    /// An exact source: ft0-ft2, a varying or a constant, swizzled.
    fn source(&mut self) -> String {
        let reg = match self.rng.below(10) {
            0..=5 => format!("ft{}", self.rng.below(3)),
            6 | 7 => format!("v{}", self.rng.below(4)),
            _ => format!("fc{}", self.rng.below(8)),
        };
        let swizzle = *self.rng.pick(SWIZZLES);
        format!("{reg}{swizzle}")
    }

    fn scalar_source(&mut self) -> String {
        let reg = match self.rng.below(3) {
            0 | 1 => format!("ft{}", self.rng.below(3)),
            _ => format!("v{}", self.rng.below(4)),
        };
        let c = *self.rng.pick(&[".x", ".y", ".z", ".w"]);
        format!("{reg}{c}")
    }

    fn mask(&mut self, xyz: bool) -> String {
        loop {
            let m = *self.rng.pick(MASKS);
            if !xyz || (!m.is_empty() && !m.contains('w')) {
                return m.to_string();
            }
        }
    }

    fn instruction(&mut self, op: &str, dest: &str) {
        let mask = self.mask(XYZ_ONLY.contains(&op));
        let a = if op == "sin" || op == "cos" {
            // An input (|x| <= 100): the angle reduction's rounding grows
            // with |x| (docs/semantics.md), and computed values get large.
            let reg = if self.rng.chance(50) {
                format!("v{}", self.rng.below(4))
            } else {
                format!("fc{}", self.rng.below(8))
            };
            format!("{reg}{}", self.rng.pick(SWIZZLES))
        } else {
            self.source()
        };
        let line = if op.starts_with('m') && op.len() == 3 && op.as_bytes()[1].is_ascii_digit() {
            // The matrix's rows: constants, or ft0-ft2 for 3 rows.
            let rows = if op == "m44" {
                "fc0"
            } else {
                *self.rng.pick(&["fc0", "fc4", "ft0"])
            };
            format!("{op} {dest}{mask}, {a}, {rows}")
        } else if TWO_SOURCES.contains(&op) {
            let b = self.source();
            format!("{op} {dest}{mask}, {a}, {b}")
        } else {
            format!("{op} {dest}{mask}, {a}")
        };
        self.lines.push(line);
    }

    fn body(&mut self, n: usize, depth: u32) {
        for _ in 0..n {
            let roll = self.rng.below(100);
            if self.version >= 2 && depth < 3 && roll < 10 {
                self.if_block(depth);
            } else if roll < 13 {
                let s = self.scalar_source();
                self.lines.push(format!("kil {s}"));
            } else if self.version >= 2 && roll < 17 {
                let op = *self.rng.pick(&["ddx", "ddy"]);
                let dest = format!("ft{}", self.rng.below(3));
                self.instruction(op, &dest);
            } else if self.version >= 3 && roll < 20 {
                let dest = format!("ft{}", self.rng.below(3));
                self.instruction("sgn", &dest);
            } else if self.version >= 2 && roll < 40 {
                let op = *self.rng.pick(APPROX_OPS);
                self.instruction(op, "ft3");
            } else {
                let op = *self.rng.pick(EXACT_OPS);
                let dest = format!("ft{}", self.rng.below(3));
                self.instruction(op, &dest);
            }
        }
    }

    fn if_block(&mut self, depth: u32) {
        let op = *self.rng.pick(&["ife", "ine", "ifg", "ifl"]);
        let (a, b) = if self.rng.chance(75) {
            (self.scalar_source(), self.scalar_source())
        } else {
            (self.source(), self.source())
        };
        self.lines.push(format!("{op} {a}, {b}"));
        let n = 1 + self.rng.below(4);
        self.body(n, depth + 1);
        if self.rng.chance(50) {
            self.lines.push("els".into());
            let n = 1 + self.rng.below(4);
            self.body(n, depth + 1);
        }
        self.lines.push("eif".into());
    }
}
