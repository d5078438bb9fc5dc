//! A generator of random valid fragment programs, for differential testing
//! of the SPIR-V backend against the reference interpreter (and for the
//! structure-aware fuzzer). Deterministic: one seed, one program.
//!
//! [`Config::language`] picks the language: `!!NVfp4.0` (described below),
//! or an ARB dialect (`!!ARBfp1.0`, `!!ARBvp1.0`, each plain or with the NV
//! options), whose programs use only the instructions and modifiers the
//! instruction table gives that dialect ([`crate::isa::OpInfo::in_dialect`]):
//! float registers only, suffix modifiers, flat labels with CAL/RET,
//! IF/REP/LOOP where NV_fragment_program2 has them, BRA (forward skips,
//! loops built from a backward BRA with a counter register and branches
//! out of them) where NV_vertex_program2 has it, ARL and relative
//! addressing of a constant array in vertex programs.
//!
//! Programs use four float registers `F0`..`F3` and four integer registers
//! `I0`..`I3` (typeless temporaries, only ever written and read with one
//! data type, so a comparison knows how to compare them), initialised from
//! `fragment.texcoord[0..3]` and constants. They end by writing every
//! register to a colour output (`result.color[0..3]` float,
//! `result.color[4..7]` declared `INT`), so every register is compared.
//!
//! Instructions whose results are approximations in Vulkan (RCP, RSQ, EX2,
//! LG2, POW, SIN, COS, DIV ...) write only `F3`, and nothing reads `F3`
//! afterwards: their error cannot be amplified by a later discontinuous
//! instruction (FLR, a comparison, a condition code), so the comparison can
//! be exact everywhere but `F3`, which gets the tolerance of
//! docs/semantics.md.

use crate::isa::{
    CcCondition, Dialect, Header, Opcode, OperandKind, Shape, TypeRule, INSTRUCTIONS,
};

/// The generator's choices: SplitMix64 from a seed (small, fast, the same
/// on every machine), or read from a fuzzer's input.
#[derive(Clone, Debug)]
pub struct Rng(Choices);

#[derive(Clone, Debug)]
enum Choices {
    Seed(u64),
    /// One byte per choice among at most 256 things, four otherwise; zeros
    /// once the bytes run out. A small change of the input is then a small
    /// change of the program, which is what coverage-guided fuzzing needs.
    Bytes {
        bytes: Vec<u8>,
        at: usize,
    },
}

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(Choices::Seed(seed))
    }

    /// Choices read from `bytes` (see the `valid_programs` fuzz target).
    ///
    /// ```
    /// use nvp4c::testgen::Rng;
    /// let mut rng = Rng::from_bytes(&[7, 1]);
    /// assert_eq!((rng.below(5), rng.below(5), rng.below(5)), (2, 1, 0));
    /// ```
    pub fn from_bytes(bytes: &[u8]) -> Rng {
        Rng(Choices::Bytes {
            bytes: bytes.to_vec(),
            at: 0,
        })
    }

    pub fn next_u64(&mut self) -> u64 {
        match &mut self.0 {
            Choices::Seed(state) => {
                *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
                let mut z = *state;
                z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
                z ^ (z >> 31)
            }
            Choices::Bytes { .. } => {
                u64::from(self.take_bytes(4) as u32) << 32 | u64::from(self.take_bytes(4) as u32)
            }
        }
    }

    /// The next `n` (at most 8) input bytes, little-endian.
    fn take_bytes(&mut self, n: usize) -> u64 {
        let Choices::Bytes { bytes, at } = &mut self.0 else {
            unreachable!("only byte-driven choices read bytes")
        };
        let mut v = 0u64;
        for k in 0..n {
            v |= u64::from(bytes.get(*at).copied().unwrap_or(0)) << (8 * k);
            *at += 1;
        }
        v
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        let n = n.max(1) as u64;
        let v = match self.0 {
            Choices::Seed(_) => self.next_u64(),
            Choices::Bytes { .. } if n <= 256 => self.take_bytes(1),
            Choices::Bytes { .. } => self.take_bytes(4),
        };
        (v % n) as usize
    }
    pub fn chance(&mut self, percent: u32) -> bool {
        self.below(100) < percent as usize
    }
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// What the generator may use.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Config {
    /// Instructions in the main body (flow statements included).
    pub statements: usize,
    /// IF/ELSE/ENDIF and REP/ENDREP blocks with BRK/CONT.
    pub flow: bool,
    /// Subroutines with CAL and RET.
    pub subroutines: bool,
    /// Inputs include -0.0 (never denormals).
    pub special_values: bool,
    /// Inputs include infinities, NaN and values near the float range's
    /// end. Off by default: Vulkan lets a driver assume no infinity or NaN
    /// occurs (lavapipe folds `0 * x` to 0 even for x = inf), so these
    /// cannot be compared with the spec's IEEE results (docs/semantics.md).
    pub ieee_specials: bool,
    /// Instructions whose Vulkan results are approximations (into `F3`).
    pub approximate: bool,
    /// Pixels (input cases) per program.
    pub cases: usize,
    /// The header and options of the programs.
    pub language: Language,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            statements: 24,
            flow: true,
            subroutines: true,
            special_values: true,
            ieee_specials: false,
            approximate: true,
            cases: 16,
            language: Language::Nv4Fragment,
        }
    }
}

/// The languages the generator writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Language {
    /// `!!NVfp4.0` with integer registers and every NV4 modifier.
    Nv4Fragment,
    /// `!!ARBfp1.0`.
    ArbFragment,
    /// `!!ARBfp1.0` with `OPTION NV_fragment_program`.
    ArbFragmentNv,
    /// `!!ARBfp1.0` with `OPTION NV_fragment_program2`.
    ArbFragmentNv2,
    /// `!!ARBvp1.0`.
    ArbVertex,
    /// `!!ARBvp1.0` with `OPTION NV_vertex_program2`.
    ArbVertexNv2,
    /// `!!ARBvp1.0` with `OPTION NV_vertex_program3`.
    ArbVertexNv3,
    /// `!!NVfp5.0`: NV4's programs plus NV_gpu_program5's bit
    /// instructions (BFE BFI BFR BTC BTFL BTFM).
    Nv5Fragment,
}

impl Language {
    /// Every language, NV4 first.
    pub const ALL: [Language; 8] = [
        Language::Nv4Fragment,
        Language::Nv5Fragment,
        Language::ArbFragment,
        Language::ArbFragmentNv,
        Language::ArbFragmentNv2,
        Language::ArbVertex,
        Language::ArbVertexNv2,
        Language::ArbVertexNv3,
    ];

    /// The header, and the option that makes the dialect (if any).
    fn header_and_option(self) -> (Header, Option<&'static str>) {
        match self {
            Language::Nv4Fragment => (Header::NvFp4, None),
            Language::Nv5Fragment => (Header::NvFp5, None),
            Language::ArbFragment => (Header::ArbFp1, None),
            Language::ArbFragmentNv => (Header::ArbFp1, Some("NV_fragment_program")),
            Language::ArbFragmentNv2 => (Header::ArbFp1, Some("NV_fragment_program2")),
            Language::ArbVertex => (Header::ArbVp1, None),
            Language::ArbVertexNv2 => (Header::ArbVp1, Some("NV_vertex_program2")),
            Language::ArbVertexNv3 => (Header::ArbVp1, Some("NV_vertex_program3")),
        }
    }

    /// The dialect its programs are checked in.
    ///
    /// ```
    /// use nvp4c::isa::Features;
    /// use nvp4c::testgen::Language;
    /// assert!(Language::ArbVertexNv3.dialect().has(Features::NV_VP2));
    /// ```
    pub fn dialect(self) -> Dialect {
        let (header, option) = self.header_and_option();
        let mut d = Dialect::new(header);
        if let Some(o) = option.and_then(crate::isa::option_info) {
            d.enable(o.features);
        }
        d
    }

    /// Whether it is an NV_gpu_program4-family language (typed registers,
    /// integers, the NV4 program shape).
    pub fn is_nv(self) -> bool {
        matches!(self, Language::Nv4Fragment | Language::Nv5Fragment)
    }

    /// Whether its programs are vertex programs.
    pub fn is_vertex(self) -> bool {
        self.header_and_option().0 == Header::ArbVp1
    }
}

/// A generated program and its inputs.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The program, one statement per line.
    pub lines: Vec<String>,
    /// Per case, the bits of the four inputs ([`Generated::input_name`]).
    pub inputs: Vec<[[u32; 4]; 4]>,
    /// The language of the program.
    pub language: Language,
}

impl Generated {
    pub fn source(&self) -> String {
        let mut s = self.lines.join("\n");
        s.push('\n');
        s
    }

    /// The binding of input `n` (0..4): `fragment.texcoord[n]`, or
    /// `vertex.attrib[8 + n]` (`vertex.texcoord[n]`'s slot, aliased by no
    /// conventional attribute the program reads) in vertex programs.
    pub fn input_name(&self, n: usize) -> String {
        if self.language.is_vertex() {
            format!("vertex.attrib[{}]", 8 + n)
        } else {
            format!("fragment.texcoord[{n}]")
        }
    }

    /// The result that holds the approximate register `F3`.
    pub fn approximate_output(&self) -> &'static str {
        if self.language.is_vertex() {
            "result.texcoord[3]"
        } else {
            "result.color[3]"
        }
    }
}

/// The registers the generated programs use.
pub const FLOAT_REGS: [&str; 4] = ["F0", "F1", "F2", "F3"];
pub const INT_REGS: [&str; 4] = ["I0", "I1", "I2", "I3"];
/// The register that holds approximate results.
pub const APPROX_REG: &str = "F3";

const SWIZZLES: [&str; 8] = ["", ".xyzw", ".wzyx", ".xxyy", ".yzwx", ".x", ".w", ".zxwy"];
const MASKS: [&str; 8] = ["", ".x", ".xy", ".xyz", ".w", ".yw", ".xzw", ".z"];

/// Exact in IEEE single precision and in Vulkan (NoContraction keeps MAD
/// and the dot products as separate roundings).
const EXACT_FLOAT_OPS: &[Opcode] = &[
    Opcode::Mov,
    Opcode::Add,
    Opcode::Sub,
    Opcode::Mul,
    Opcode::Mad,
    Opcode::Min,
    Opcode::Max,
    Opcode::Abs,
    Opcode::Flr,
    Opcode::Ceil,
    Opcode::Frc,
    Opcode::Trunc,
    Opcode::Round,
    Opcode::Cmp,
    Opcode::Slt,
    Opcode::Sge,
    Opcode::Seq,
    Opcode::Sne,
    Opcode::Sgt,
    Opcode::Sle,
    Opcode::Sfl,
    Opcode::Str,
    Opcode::Ssg,
    Opcode::Dp2,
    Opcode::Dp2a,
    Opcode::Dp3,
    Opcode::Dp4,
    Opcode::Dph,
    Opcode::Dst,
    Opcode::Lrp,
    Opcode::Xpd,
    Opcode::Swz,
];

/// Approximate in Vulkan's precision rules.
const APPROX_FLOAT_OPS: &[Opcode] = &[
    Opcode::Rcp,
    Opcode::Rsq,
    Opcode::Ex2,
    Opcode::Lg2,
    Opcode::Pow,
    Opcode::Sin,
    Opcode::Cos,
    Opcode::Div,
    Opcode::Nrm,
    Opcode::Lit,
    Opcode::Rcc,
    Opcode::Scs,
];

const INT_OPS: &[Opcode] = &[
    Opcode::Mov,
    Opcode::Add,
    Opcode::Sub,
    Opcode::Mul,
    Opcode::Mad,
    Opcode::Min,
    Opcode::Max,
    Opcode::Abs,
    Opcode::Cmp,
    Opcode::Slt,
    Opcode::Sge,
    Opcode::Seq,
    Opcode::Sne,
    Opcode::Sgt,
    Opcode::Sle,
    Opcode::Sfl,
    Opcode::Str,
    Opcode::And,
    Opcode::Or,
    Opcode::Xor,
    Opcode::Not,
    Opcode::Shl,
    Opcode::Shr,
    Opcode::Div,
    Opcode::Mod,
    Opcode::Sad,
];

struct Gen<'c> {
    rng: Rng,
    config: &'c Config,
    lines: Vec<String>,
    /// Open loops, innermost last: whether each has a count (a loop
    /// without one gets no CONT, which could skip its closing BRK).
    loops: Vec<bool>,
    labels: Vec<String>,
    /// The dialect (ARB languages).
    dialect: Dialect,
    /// Open LOOP blocks (their A0.x is readable).
    index_loops: usize,
    /// Labels made for BRA so far (forward skips, backward loops).
    branch_labels: usize,
    /// Backward-BRA loops made so far; each has its own counter register
    /// `L<k>` (at most [`BRA_LOOPS`]).
    bra_loops: usize,
}

/// At most this many loops built from a backward BRA per program.
const BRA_LOOPS: usize = 4;

/// Generates the program for `seed`.
pub fn generate(seed: u64, config: &Config) -> Generated {
    generate_with(Rng::new(seed), &format!("seed {seed}"), config)
}

/// Generates a program from `rng`'s choices; `origin` names them in the
/// program's comment (a seed, or "fuzzer input").
///
/// ```
/// use nvp4c::testgen::{generate_with, Config, Rng};
/// let g = generate_with(Rng::from_bytes(b"any bytes at all"), "fuzzer input", &Config::default());
/// assert!(nvp4c::compile(&g.source(), &nvp4c::Options::default()).is_ok());
/// ```
pub fn generate_with(rng: Rng, origin: &str, config: &Config) -> Generated {
    let mut g = Gen {
        rng,
        config,
        lines: Vec::new(),
        loops: Vec::new(),
        labels: Vec::new(),
        dialect: config.language.dialect(),
        index_loops: 0,
        branch_labels: 0,
        bra_loops: 0,
    };
    if !config.language.is_nv() {
        return g.arb_program(origin);
    }
    g.lines
        .push(config.language.header_and_option().0.text().into());
    g.lines
        .push(format!("# generated by nvp4c::testgen, {origin}"));
    g.lines.push("OPTION ARB_draw_buffers;".into());
    g.lines.push("TEMP F0, F1, F2, F3, I0, I1, I2, I3;".into());
    let nv5 = g.dialect.has(crate::isa::Features::NV5);
    if nv5 {
        g.lines.push("LONG TEMP D0, D1, Q0, Q1;".into());
        g.lines.push("TEMP W;".into());
    }
    for n in 4..8 {
        g.lines
            .push(format!("INT OUTPUT o{n} = result.color[{n}];"));
    }
    let subroutines = if config.subroutines {
        g.rng.below(3)
    } else {
        0
    };
    for k in 0..subroutines {
        let name = format!("sub{k}");
        g.lines.push(format!("{name}:"));
        let n = 2 + g.rng.below(4);
        g.body(n, 1);
        g.lines.push("RET;".into());
        g.labels.push(name);
    }
    if subroutines > 0 {
        g.lines.push("main:".into());
    }
    g.lines.push("MOV F0, fragment.texcoord[0];".into());
    g.lines.push("MOV F1, fragment.texcoord[1];".into());
    g.lines.push("MOV.S I0, fragment.texcoord[2];".into());
    g.lines.push("MOV.S I1, fragment.texcoord[3];".into());
    let c = g.float_constant_vector();
    g.lines.push(format!("MOV F2, {c};"));
    g.lines.push("MOV F3, {0, 0, 0, 0};".into());
    let c = g.int_constant_vector();
    g.lines.push(format!("MOV.S I2, {c};"));
    g.lines.push("XOR.S I3, I0, I1;".into());
    // Condition codes start defined.
    g.lines.push("MOVC F0, F0;".into());
    g.lines.push("MOVC1.S I0, I0;".into());
    if nv5 {
        // The LONG registers start with values no f32 or 32-bit integer
        // holds: products of two inputs at 64 bits.
        g.lines.push("MUL.F64 D0, F0, F1;".into());
        g.lines.push("ADD.F64 D1, F1, F2;".into());
        g.lines.push("MUL.S64 Q0, I0, I1;".into());
        g.lines.push("MUL.U64 Q1, I1, I2;".into());
    }
    let n = config.statements;
    g.body(n, 0);
    if nv5 {
        // Every bit of the LONG registers reaches an output but the
        // doubles' sign bits: Vulkan does not promise the sign of a zero
        // (docs/semantics.md), and lavapipe drops an ABS.F64 of a -0.0 it
        // takes for non-negative, so the sign is masked off instead.
        for (long, int) in [("D0", "I0"), ("D1", "I1"), ("Q0", "I2"), ("Q1", "I3")] {
            g.lines.push(format!("UP64.S W, {long};"));
            if long.starts_with('D') {
                g.lines
                    .push("AND.S W, W, {-1, 2147483647, -1, 2147483647};".into());
            }
            g.lines.push(format!("XOR.S {int}, {int}, W;"));
        }
    }
    for (n, r) in FLOAT_REGS.iter().enumerate() {
        g.lines.push(format!("MOV result.color[{n}], {r};"));
    }
    for (n, r) in INT_REGS.iter().enumerate() {
        g.lines.push(format!("MOV.S o{}, {r};", n + 4));
    }
    g.lines.push("END".into());
    let inputs = (0..config.cases).map(|_| g.inputs()).collect();
    Generated {
        lines: g.lines,
        inputs,
        language: config.language,
    }
}

impl Gen<'_> {
    fn float_value(&mut self) -> f32 {
        const NICE: [f32; 16] = [
            0.0, 1.0, -1.0, 0.5, -0.5, 2.0, 3.25, -7.5, 100.0, 0.125, -0.75, 1.5, 2.5, -2.5, 1e-3,
            65536.0,
        ];
        if self.config.ieee_specials && self.rng.chance(10) {
            *self
                .rng
                .pick(&[f32::INFINITY, f32::NEG_INFINITY, f32::NAN, f32::MAX, 1e30])
        } else if self.config.special_values && self.rng.chance(8) {
            // No denormals: Vulkan does not promise to preserve them (lavapipe
            // flushes them in arithmetic), docs/semantics.md.
            *self.rng.pick(&[-0.0, -1e-30, 1e-30])
        } else if self.rng.chance(20) {
            (self.rng.below(2001) as f32 - 1000.0) / 16.0
        } else {
            *self.rng.pick(&NICE)
        }
    }

    fn int_value(&mut self) -> i32 {
        const NICE: [i32; 12] = [0, 1, -1, 2, 7, -8, 100, 255, 65535, -65536, 31, 12345];
        if self.rng.chance(15) {
            *self
                .rng
                .pick(&[i32::MIN, i32::MAX, -2, 0x4000_0000, 0x7FFF_FFFE])
        } else if self.rng.chance(30) {
            self.rng.below(64) as i32 - 32
        } else {
            *self.rng.pick(&NICE)
        }
    }

    fn inputs(&mut self) -> [[u32; 4]; 4] {
        let mut v = [[0u32; 4]; 4];
        for reg in v.iter_mut().take(2) {
            for c in reg.iter_mut() {
                *c = self.float_value().to_bits();
            }
        }
        for reg in v.iter_mut().skip(2) {
            for c in reg.iter_mut() {
                *c = self.int_value() as u32;
            }
        }
        v
    }

    fn float_literal(&mut self) -> String {
        let v = *self
            .rng
            .pick(&[0.0f32, 1.0, 2.0, 0.5, 0.25, 3.0, 10.0, 0.125, 1.5, 4.0]);
        let neg = self.rng.chance(30);
        format!("{}{v:?}", if neg { "-" } else { "" })
    }

    fn float_constant_vector(&mut self) -> String {
        let n = 1 + self.rng.below(4);
        let parts: Vec<String> = (0..n).map(|_| self.float_literal()).collect();
        format!("{{{}}}", parts.join(", "))
    }

    fn int_constant_vector(&mut self) -> String {
        let n = 1 + self.rng.below(4);
        // Never negative: a negative literal read as UINT fails to load
        // (section 2.X.3.3); a negated operand gives negatives instead.
        let parts: Vec<String> = (0..n).map(|_| format!("{}", self.rng.below(40))).collect();
        format!("{{{}}}", parts.join(", "))
    }

    fn cc_test(&mut self) -> String {
        let (name, _) = *self.rng.pick(&CcCondition::ALL);
        let reg = *self.rng.pick(&["", "0", "1"]);
        let swz = *self.rng.pick(&["", ".x", ".y", ".xyzw", ".wzyx", ".z"]);
        format!("{name}{reg}{swz}")
    }

    /// A float source operand that is exact (never F3).
    fn float_operand(&mut self, scalar: bool) -> String {
        if self.rng.chance(15) {
            let c = self.float_constant_vector();
            let sw = if scalar { ".x" } else { "" };
            return format!("{c}{sw}");
        }
        let reg = *self.rng.pick(&FLOAT_REGS[..3]);
        self.decorate(reg, scalar)
    }

    fn int_operand(&mut self, scalar: bool) -> String {
        if self.rng.chance(15) {
            let c = self.int_constant_vector();
            let sw = if scalar { ".x" } else { "" };
            return format!("{c}{sw}");
        }
        let reg = *self.rng.pick(&INT_REGS);
        self.decorate(reg, scalar)
    }

    fn decorate(&mut self, reg: &str, scalar: bool) -> String {
        let swz = if scalar {
            (*self.rng.pick(&[".x", ".y", ".z", ".w"])).to_string()
        } else {
            (*self.rng.pick(&SWIZZLES)).to_string()
        };
        let base = format!("{reg}{swz}");
        match self.rng.below(6) {
            0 => format!("-{base}"),
            1 => format!("|{base}|"),
            2 => format!("-|{base}|"),
            _ => base,
        }
    }

    fn body(&mut self, n: usize, depth: u32) {
        for _ in 0..n {
            let roll = self.rng.below(100);
            if self.config.flow && depth < 3 && roll < 8 {
                self.if_block(depth);
            } else if self.config.flow && depth < 3 && roll < 14 {
                self.rep_block(depth);
            } else if !self.loops.is_empty() && roll < 18 {
                let counted = self.loops.last().copied().unwrap_or(false);
                let kw = if !counted || self.rng.chance(50) {
                    "BRK"
                } else {
                    "CONT"
                };
                let t = self.cc_test();
                self.lines.push(format!("{kw} ({t});"));
            } else if !self.labels.is_empty() && roll < 22 {
                let l = self.rng.pick(&self.labels).clone();
                if self.rng.chance(50) {
                    let t = self.cc_test();
                    self.lines.push(format!("CAL {l} ({t});"));
                } else {
                    self.lines.push(format!("CAL {l};"));
                }
            } else {
                self.instruction();
            }
        }
    }

    fn if_block(&mut self, depth: u32) {
        let t = self.cc_test();
        self.lines.push(format!("IF {t};"));
        let n = 1 + self.rng.below(4);
        self.body(n, depth + 1);
        if self.rng.chance(50) {
            self.lines.push("ELSE;".into());
            let n = 1 + self.rng.below(3);
            self.body(n, depth + 1);
        }
        self.lines.push("ENDIF;".into());
    }

    fn rep_block(&mut self, depth: u32) {
        // Counts stay small, so nested loops stay quick.
        let count = match self.rng.below(3) {
            0 => format!("{{{}}}", self.rng.below(4)),
            1 => format!("{{{}.5}}", self.rng.below(3)),
            _ => String::new(),
        };
        if count.is_empty() {
            // A loop without a count ends with an unconditional BRK (and
            // gets no CONT that could skip it).
            self.lines.push("REP;".into());
            self.loops.push(false);
            let n = 1 + self.rng.below(3);
            self.body(n, depth + 1);
            self.lines.push("BRK;".into());
        } else {
            let suffix = if count.contains('.') { "" } else { ".S" };
            self.lines.push(format!("REP{suffix} {count};"));
            self.loops.push(true);
            let n = 1 + self.rng.below(4);
            self.body(n, depth + 1);
        }
        self.loops.pop();
        self.lines.push("ENDREP;".into());
    }

    fn instruction(&mut self) {
        if self.dialect.has(crate::isa::Features::NV5) && self.rng.chance(20) {
            return self.wide_instruction();
        }
        let integer = self.rng.chance(35);
        if integer {
            self.int_instruction();
        } else if self.config.approximate && self.rng.chance(15) {
            self.approx_instruction();
        } else if self.rng.chance(8) {
            self.conversion();
        } else {
            self.float_instruction();
        }
    }

    fn modifiers(&mut self, float_result: bool, cc: bool) -> String {
        let mut m = String::new();
        if cc && self.rng.chance(30) {
            m.push_str(if self.rng.chance(50) { ".CC" } else { ".CC1" });
        }
        if float_result && self.rng.chance(20) {
            m.push_str(if self.rng.chance(50) { ".SAT" } else { ".SSAT" });
        }
        m
    }

    fn dest(&mut self, reg: &str, op: Opcode) -> String {
        let mut mask = (*self.rng.pick(&MASKS)).to_string();
        if matches!(op, Opcode::Xpd | Opcode::Nrm) && (mask.is_empty() || mask.contains('w')) {
            mask = ".xyz".into();
        }
        if self.rng.chance(10) {
            let t = self.cc_test();
            format!("{reg}{mask} ({t})")
        } else {
            format!("{reg}{mask}")
        }
    }

    fn operands(&mut self, op: Opcode, int: bool) -> Vec<String> {
        op.info()
            .inputs
            .iter()
            .map(|k| {
                let scalar = matches!(k, OperandKind::Scalar(_));
                let as_int = match k.type_rule() {
                    TypeRule::Inherit => int,
                    TypeRule::Float => false,
                    TypeRule::Signed | TypeRule::Unsigned => true,
                };
                if as_int {
                    self.int_operand(scalar)
                } else {
                    self.float_operand(scalar)
                }
            })
            .collect()
    }

    fn float_instruction(&mut self) {
        let op = *self.rng.pick(EXACT_FLOAT_OPS);
        let reg = *self.rng.pick(&FLOAT_REGS[..3]);
        let mods = self.modifiers(true, true);
        let dst = self.dest(reg, op);
        if op == Opcode::Swz {
            let src = *self.rng.pick(&FLOAT_REGS[..3]);
            let sel: Vec<String> = (0..4)
                .map(|_| {
                    let s = *self.rng.pick(&["0", "1", "x", "y", "z", "w"]);
                    if self.rng.chance(25) {
                        format!("-{s}")
                    } else {
                        s.to_string()
                    }
                })
                .collect();
            self.lines
                .push(format!("SWZ{mods} {dst}, {src}, {};", sel.join(", ")));
            return;
        }
        let ops = self.operands(op, false);
        self.lines
            .push(format!("{}{mods} {dst}, {};", op.name(), ops.join(", ")));
    }

    fn approx_instruction(&mut self) {
        let op = *self.rng.pick(APPROX_FLOAT_OPS);
        let mods = self.modifiers(true, false);
        // Vulkan bounds the error of these only on moderate inputs (sin and
        // cos within [-pi, pi] after reduction, exp2 relative to the size of
        // its input), so the operands go through F3, clamped to [-64, 64].
        if matches!(
            op,
            Opcode::Rcp | Opcode::Rcc | Opcode::Rsq | Opcode::Lg2 | Opcode::Pow | Opcode::Div
        ) {
            // These are discontinuous at zero (RCP(+0) = +INF, RCP(-0) =
            // -INF), and Vulkan does not promise the sign of a zero
            // (docs/semantics.md): keep their inputs away from zero.
            let reg = *self.rng.pick(&FLOAT_REGS[..3]);
            let swz = *self.rng.pick(&SWIZZLES);
            self.lines.push(format!(
                "MAX {APPROX_REG}, |{reg}{swz}|, {{0.125, 0.125, 0.125, 0.125}};"
            ));
            self.lines.push(format!(
                "MIN {APPROX_REG}, {APPROX_REG}, {{64, 64, 64, 64}};"
            ));
        } else {
            let src = self.float_operand(false);
            self.lines
                .push(format!("MIN {APPROX_REG}, {src}, {{64, 64, 64, 64}};"));
            self.lines.push(format!(
                "MAX {APPROX_REG}, {APPROX_REG}, {{-64, -64, -64, -64}};"
            ));
        }
        let dst = self.dest(APPROX_REG, op);
        let ops: Vec<String> = op
            .info()
            .inputs
            .iter()
            .map(|k| {
                let scalar = matches!(k, OperandKind::Scalar(_));
                self.decorate(APPROX_REG, scalar)
            })
            .collect();
        self.lines
            .push(format!("{}{mods} {dst}, {};", op.name(), ops.join(", ")));
    }

    fn int_instruction(&mut self) {
        if self.dialect.has(crate::isa::Features::NV5) && self.rng.chance(35) {
            return self.nv5_bit_instruction();
        }
        let op = *self.rng.pick(INT_OPS);
        let signed = self.rng.chance(50);
        let ty = if signed { ".S" } else { ".U" };
        let reg = *self.rng.pick(&INT_REGS);
        let cc = if self.rng.chance(30) {
            if self.rng.chance(50) {
                ".CC"
            } else {
                ".CC1"
            }
        } else {
            ""
        };
        let dst = self.dest(reg, op);
        let ops = self.operands(op, true);
        self.lines
            .push(format!("{}{ty}{cc} {dst}, {};", op.name(), ops.join(", ")));
    }

    /// NV_gpu_program5's bit instructions. BFE and BFI take their field
    /// (width, offset) from a constant of op0 with width + offset <= 32, so
    /// most results are defined (NV_gpu_program5 2.X.8.Z: a field past bit
    /// 31 is undefined).
    fn nv5_bit_instruction(&mut self) {
        let op = *self.rng.pick(&[
            Opcode::Bfe,
            Opcode::Bfi,
            Opcode::Bfr,
            Opcode::Btc,
            Opcode::Btfl,
            Opcode::Btfm,
        ]);
        let ty = if self.rng.chance(50) { ".S" } else { ".U" };
        let reg = *self.rng.pick(&INT_REGS);
        let cc = if self.rng.chance(20) { ".CC" } else { "" };
        let dst = self.dest(reg, op);
        let mut ops = self.operands(op, true);
        if matches!(op, Opcode::Bfe | Opcode::Bfi) {
            let width = self.rng.below(33);
            let offset = self.rng.below(33 - width).min(31);
            ops[0] = format!("{{{width}, {offset}, 0, 0}}");
        }
        self.lines
            .push(format!("{}{ty}{cc} {dst}, {};", op.name(), ops.join(", ")));
    }

    /// FLR/CEIL/TRUNC/ROUND with an integer result, and I2F.
    fn conversion(&mut self) {
        if self.rng.chance(50) {
            let op = *self
                .rng
                .pick(&[Opcode::Flr, Opcode::Ceil, Opcode::Trunc, Opcode::Round]);
            let ty = if self.rng.chance(50) { ".S" } else { ".U" };
            let reg = *self.rng.pick(&INT_REGS);
            let dst = self.dest(reg, op);
            let src = self.float_operand(false);
            self.lines.push(format!("{}{ty} {dst}, {src};", op.name()));
        } else {
            let ty = if self.rng.chance(50) { ".S" } else { ".U" };
            let reg = *self.rng.pick(&FLOAT_REGS[..3]);
            let dst = self.dest(reg, Opcode::I2f);
            let src = self.int_operand(false);
            self.lines.push(format!("I2F{ty} {dst}, {src};"));
        }
    }
}

/// The constant array of generated vertex programs, read through A0:
/// `c[i] = (i, i + 0.5, -i, 2i)`.
const ARB_CONSTANTS: usize = 8;

/// NV_gpu_program5's LONG registers of generated `!!NVfp5.0` programs:
/// `D0`, `D1` hold f64 values only, `Q0`, `Q1` 64-bit integers only, so a
/// float instruction never reads an integer's bits as a (denormal) double.
const F64_REGS: [&str; 2] = ["D0", "D1"];
const I64_REGS: [&str; 2] = ["Q0", "Q1"];

/// The `.F64` instructions generated (Table X.13's "6" in the F column).
/// Not DIV, RCP, RSQ: discontinuous at zero, whose sign Vulkan does not
/// promise (docs/semantics.md); tests/device/exec_nv5_64bit.rs has them.
const F64_OPS: &[Opcode] = &[
    Opcode::Abs,
    Opcode::Add,
    Opcode::Cmp,
    Opcode::Flr,
    Opcode::Ceil,
    Opcode::Frc,
    Opcode::Mad,
    Opcode::Max,
    Opcode::Min,
    Opcode::Mov,
    Opcode::Mul,
    Opcode::Round,
    Opcode::Seq,
    Opcode::Sfl,
    Opcode::Sge,
    Opcode::Sgt,
    Opcode::Sle,
    Opcode::Slt,
    Opcode::Sne,
    Opcode::Ssg,
    Opcode::Str,
    Opcode::Sub,
    Opcode::Trunc,
];

/// The `.S64`/`.U64` instructions generated (the I column's "6"); FLR,
/// CEIL, TRUNC, ROUND (float operands) and I2F (a float result) apart.
const I64_OPS: &[Opcode] = &[
    Opcode::Abs,
    Opcode::Add,
    Opcode::And,
    Opcode::Cmp,
    Opcode::Div,
    Opcode::Mad,
    Opcode::Max,
    Opcode::Min,
    Opcode::Mod,
    Opcode::Mov,
    Opcode::Mul,
    Opcode::Not,
    Opcode::Or,
    Opcode::Sad,
    Opcode::Seq,
    Opcode::Sfl,
    Opcode::Sge,
    Opcode::Sgt,
    Opcode::Shl,
    Opcode::Shr,
    Opcode::Sle,
    Opcode::Slt,
    Opcode::Sne,
    Opcode::Str,
    Opcode::Sub,
    Opcode::Xor,
];

/// CVT's storage modifiers.
const CVT_TYPES: [&str; 11] = [
    "F16", "F32", "F64", "S8", "S16", "S32", "S64", "U8", "U16", "U32", "U64",
];

/// NV_gpu_program5's 64-bit instructions, PK64, UP64 and CVT.
impl Gen<'_> {
    fn wide_instruction(&mut self) {
        match self.rng.below(100) {
            0..=39 => self.f64_instruction(),
            40..=74 => self.i64_instruction(),
            75..=84 => self.pack64(),
            _ => self.cvt(),
        }
    }

    /// A register of 32 or 64 bits of the kind given.
    fn wide_reg(&mut self, float: bool, long: bool) -> &'static str {
        let regs: &[&'static str] = match (float, long) {
            (true, true) => &F64_REGS,
            (false, true) => &I64_REGS,
            (true, false) => &FLOAT_REGS[..3],
            (false, false) => &INT_REGS,
        };
        regs[self.rng.below(regs.len())]
    }

    fn wide_operand(&mut self, float: bool, scalar: bool) -> String {
        if self.rng.chance(15) {
            let c = if float {
                self.float_constant_vector()
            } else {
                self.int_constant_vector()
            };
            let sw = if scalar { ".x" } else { "" };
            return format!("{c}{sw}");
        }
        let long = self.rng.chance(60);
        let reg = self.wide_reg(float, long);
        self.decorate(reg, scalar)
    }

    fn wide_operands(&mut self, op: Opcode, float: bool) -> Vec<String> {
        op.info()
            .inputs
            .iter()
            .map(|k| {
                let scalar = matches!(k, OperandKind::Scalar(_));
                let as_float = match k.type_rule() {
                    TypeRule::Inherit => float,
                    TypeRule::Float => true,
                    TypeRule::Signed | TypeRule::Unsigned => false,
                };
                self.wide_operand(as_float, scalar)
            })
            .collect()
    }

    fn f64_instruction(&mut self) {
        let op = *self.rng.pick(F64_OPS);
        let long = self.rng.chance(60);
        let reg = self.wide_reg(true, long);
        let dst = self.dest(reg, op);
        let sat = if self.rng.chance(15) { ".SAT" } else { "" };
        let cc = self.wide_cc();
        let ops = self.wide_operands(op, true);
        self.lines.push(format!(
            "{}.F64{sat}{cc} {dst}, {};",
            op.name(),
            ops.join(", ")
        ));
    }

    fn i64_instruction(&mut self) {
        let ty = if self.rng.chance(50) { ".S64" } else { ".U64" };
        let roll = self.rng.below(100);
        // FLR/CEIL/TRUNC/ROUND: a float operand, an integer result; I2F the
        // other way round.
        let (op, float_result) = if roll < 12 {
            let op = *self
                .rng
                .pick(&[Opcode::Flr, Opcode::Ceil, Opcode::Trunc, Opcode::Round]);
            (op, false)
        } else if roll < 20 {
            (Opcode::I2f, true)
        } else {
            (*self.rng.pick(I64_OPS), false)
        };
        let long = self.rng.chance(60);
        let reg = self.wide_reg(float_result, long);
        let dst = self.dest(reg, op);
        let cc = self.wide_cc();
        let ops = self.wide_operands(op, false);
        self.lines
            .push(format!("{}{ty}{cc} {dst}, {};", op.name(), ops.join(", ")));
    }

    /// `.CC` or `.CC1` sometimes: the flags of the 64-bit (or F16) result,
    /// which later instructions' condition tests read.
    fn wide_cc(&mut self) -> &'static str {
        match self.rng.below(100) {
            0..=9 => ".CC",
            10..=19 => ".CC1",
            _ => "",
        }
    }

    /// PK64 of an integer register into a LONG integer one, or UP64 of a
    /// LONG register into an integer one (integer-typed: the halves of a
    /// double are no floats to compare).
    fn pack64(&mut self) {
        if self.rng.chance(50) {
            let reg = self.wide_reg(false, true);
            let dst = self.dest(reg, Opcode::Pk64);
            let src = self.wide_operand(false, false);
            let src = if src.starts_with('{') {
                src
            } else {
                let r = self.wide_reg(false, false);
                self.decorate(r, false)
            };
            self.lines.push(format!("PK64.S {dst}, {src};"));
        } else {
            let reg = self.wide_reg(false, false);
            let dst = self.dest(reg, Opcode::Up64);
            // Not the f64 registers: Vulkan does not promise the sign of a
            // zero (docs/semantics.md), and their raw bits would show it.
            let src = *self.rng.pick(&I64_REGS);
            let swz = *self.rng.pick(&SWIZZLES);
            self.lines.push(format!("UP64.S {dst}, {src}{swz};"));
        }
    }

    /// CVT between two of the storage types, with a rounding modifier and
    /// SAT sometimes; the operand is never negated (E1163).
    fn cvt(&mut self) {
        let to = *self.rng.pick(&CVT_TYPES);
        let from = *self.rng.pick(&CVT_TYPES);
        let round = *self.rng.pick(&["", ".ROUND", ".CEIL", ".FLR", ".TRUNC"]);
        let sat = if self.rng.chance(30) { ".SAT" } else { "" };
        let float_to = to.starts_with('F');
        let float_from = from.starts_with('F');
        let long_dst = self.rng.chance(50);
        let reg = self.wide_reg(float_to, long_dst);
        let dst = self.dest(reg, Opcode::Cvt);
        let long = self.rng.chance(50);
        let src = self.wide_reg(float_from, long);
        let swz = *self.rng.pick(&SWIZZLES);
        let cc = self.wide_cc();
        self.lines.push(format!(
            "CVT.{to}.{from}{round}{sat}{cc} {dst}, {src}{swz};"
        ));
        // An F16 result is an encoding, a denormal as a float: converted
        // back at once (every component of the write mask, whatever a
        // condition test wrote), so that no float instruction reads it
        // (devices may flush denormals) and the float registers keep
        // float values.
        if to == "F16" {
            let back = if long_dst { "F64" } else { "F32" };
            let masked = dst.split(' ').next().unwrap_or(reg);
            self.lines.push(format!("CVT.{back}.F16 {masked}, {reg};"));
        }
    }
}

/// The ARB languages.
impl Gen<'_> {
    fn arb_program(mut self, origin: &str) -> Generated {
        let language = self.config.language;
        let (header, option) = language.header_and_option();
        let vertex = language.is_vertex();
        let d = self.dialect;
        self.lines.push(header.to_string());
        self.lines
            .push(format!("# generated by nvp4c::testgen, {origin}"));
        if let Some(o) = option {
            self.lines.push(format!("OPTION {o};"));
        }
        if !vertex {
            self.lines.push("OPTION ARB_draw_buffers;".into());
        }
        self.lines.push("TEMP F0, F1, F2, F3;".into());
        // The BRA loops' counters, declared once the body says how many.
        let counters_line = self.lines.len();
        if vertex {
            let vector = d.address_model() == crate::isa::AddressModel::ArbVector;
            self.lines.push(
                if vector {
                    "ADDRESS A0, A1;"
                } else {
                    "ADDRESS A0;"
                }
                .into(),
            );
            let items: Vec<String> = (0..ARB_CONSTANTS)
                .map(|i| format!("{{{i}, {}.5, {}, {}}}", i, -(i as i32), 2 * i))
                .collect();
            self.lines.push(format!(
                "PARAM c[{ARB_CONSTANTS}] = {{ {} }};",
                items.join(", ")
            ));
        }
        let flat = d.labels() == crate::isa::LabelModel::Flat;
        let subroutines = if self.config.subroutines && flat {
            self.rng.below(3)
        } else {
            0
        };
        self.labels = (0..subroutines).map(|k| format!("sub{k}")).collect();
        for n in 0..3 {
            let input = self.input_binding(n);
            self.lines.push(format!("MOV F{n}, {input};"));
        }
        if vertex {
            if d.address_model() == crate::isa::AddressModel::ArbVector {
                self.lines.push("ARL A0, {0, 0, 0, 0};".into());
                self.lines.push("ARA A1, A0;".into());
            } else {
                self.lines.push("ARL A0.x, {0}.x;".into());
            }
            // c[0] = (0, 0.5, 0, 0): the array is read at least once.
            self.lines.push("MOV F3, c[A0.x];".into());
        } else {
            self.lines.push("MOV F3, {0, 0, 0, 0};".into());
        }
        // Condition codes start defined.
        match d.cc_registers() {
            1 => self.lines.push("MOVC F0, F0;".into()),
            2 => {
                self.lines.push("MOVC0 F0, F0;".into());
                self.lines.push("MOVC1 F1, F1;".into());
            }
            _ => {}
        }
        let n = self.config.statements;
        let callable = self.labels.clone();
        self.arb_body(n, 0, &callable);
        for n in 0..4 {
            if vertex {
                self.lines.push(format!("MOV result.texcoord[{n}], F{n};"));
            } else {
                self.lines.push(format!("MOV result.color[{n}], F{n};"));
            }
        }
        if vertex {
            self.lines.push("MOV result.position, F0;".into());
        }
        if subroutines > 0 {
            // Flat labels: the main code ends with RET (an empty call stack
            // ends the program), then each subroutine's code, calling only
            // later ones (no recursion).
            self.lines.push("RET;".into());
            for k in 0..subroutines {
                self.lines.push(format!("sub{k}:"));
                let n = 2 + self.rng.below(4);
                let later = self.labels[k + 1..].to_vec();
                self.arb_body(n, 1, &later);
                self.lines.push("RET;".into());
            }
        }
        self.lines.push("END".into());
        if self.bra_loops > 0 {
            let counters: Vec<String> = (0..self.bra_loops).map(|k| format!("L{k}")).collect();
            self.lines
                .insert(counters_line, format!("TEMP {};", counters.join(", ")));
        }
        let inputs = (0..self.config.cases)
            .map(|_| std::array::from_fn(|_| std::array::from_fn(|_| self.float_value().to_bits())))
            .collect();
        Generated {
            lines: self.lines,
            inputs,
            language,
        }
    }

    fn input_binding(&self, n: usize) -> String {
        if self.config.language.is_vertex() {
            format!("vertex.attrib[{}]", 8 + n)
        } else {
            format!("fragment.texcoord[{n}]")
        }
    }

    fn has(&self, op: Opcode) -> bool {
        op.info().in_dialect(self.dialect).is_some()
    }

    fn arb_body(&mut self, n: usize, depth: u32, callable: &[String]) {
        let blocks = self.config.flow && depth < 3 && self.has(Opcode::If);
        let branches = self.config.flow && self.has(Opcode::Bra);
        for _ in 0..n {
            let roll = self.rng.below(100);
            if blocks && roll < 8 {
                let t = self.arb_cc_test();
                self.lines.push(format!("IF {t};"));
                let k = 1 + self.rng.below(4);
                self.arb_body(k, depth + 1, callable);
                if self.rng.chance(50) {
                    self.lines.push("ELSE;".into());
                    let k = 1 + self.rng.below(3);
                    self.arb_body(k, depth + 1, callable);
                }
                self.lines.push("ENDIF;".into());
            } else if blocks && roll < 14 {
                self.arb_loop(depth, callable);
            } else if !self.loops.is_empty() && roll < 18 {
                let t = self.arb_cc_test();
                self.lines.push(format!("BRK ({t});"));
            } else if !callable.is_empty() && roll < 22 {
                let l = self.rng.pick(callable).clone();
                if self.dialect.cc_registers() > 0 && self.rng.chance(50) {
                    let t = self.arb_cc_test();
                    self.lines.push(format!("CAL {l} ({t});"));
                } else {
                    self.lines.push(format!("CAL {l};"));
                }
            } else if branches && depth < 3 && roll < 27 {
                self.bra_skip(depth, callable);
            } else if branches && self.bra_loops < BRA_LOOPS && roll < 30 {
                self.bra_loop(depth, callable);
            } else if self.config.language.is_vertex() && roll < 36 {
                self.arb_address();
            } else {
                self.arb_instruction();
            }
        }
    }

    fn branch_label(&mut self, kind: &str) -> String {
        self.branch_labels += 1;
        format!("{kind}{}", self.branch_labels)
    }

    /// A forward BRA under a condition over a few statements
    /// (NV_vertex_program2_option's unstructured branches).
    fn bra_skip(&mut self, depth: u32, callable: &[String]) {
        let label = self.branch_label("skip");
        let t = self.arb_cc_test();
        self.lines.push(format!("BRA {label} ({t});"));
        let k = 1 + self.rng.below(3);
        self.arb_body(k, depth + 1, callable);
        self.lines.push(format!("{label}:"));
    }

    /// A loop built from a backward BRA: a counter register counts 1 to 3
    /// iterations down, and a BRA out of the loop under a condition may
    /// leave it early.
    fn bra_loop(&mut self, depth: u32, callable: &[String]) {
        let counter = format!("L{}", self.bra_loops);
        self.bra_loops += 1;
        let top = self.branch_label("top");
        let exit = self.branch_label("out");
        let count = 1 + self.rng.below(3);
        self.lines.push(format!("MOV {counter}, {{{count}}};"));
        self.lines.push(format!("{top}:"));
        let k = 1 + self.rng.below(4);
        self.arb_body(k, depth + 1, callable);
        let leaves = self.rng.chance(50);
        if leaves {
            let t = self.arb_cc_test();
            self.lines.push(format!("BRA {exit} ({t});"));
        }
        let k = self.rng.below(3);
        self.arb_body(k, depth + 1, callable);
        self.lines
            .push(format!("ADDC {counter}.x, {counter}.x, -1;"));
        self.lines.push(format!("BRA {top} (GT.x);"));
        if leaves {
            self.lines.push(format!("{exit}:"));
        }
    }

    /// REP with a constant count, or LOOP with a constant (count, index,
    /// increment) whose body may read `fragment.texcoord[A0.x + k]`
    /// (NV_fragment_program2; the operand must be a program parameter).
    fn arb_loop(&mut self, depth: u32, callable: &[String]) {
        self.loops.push(true);
        if self.has(Opcode::Loop) && self.rng.chance(50) {
            // A0.x stays within 0..2, so A0.x + 0 or 1 reads texcoord[0..3].
            let count = 1 + self.rng.below(2);
            let start = self.rng.below(2);
            let step = self.rng.below(2);
            self.lines
                .push(format!("LOOP {{{count}, {start}, {step}, 0}};"));
            self.index_loops += 1;
            let k = 1 + self.rng.below(4);
            self.arb_body(k, depth + 1, callable);
            self.index_loops -= 1;
            self.lines.push("ENDLOOP;".into());
        } else {
            let count = match self.rng.below(2) {
                0 => format!("{{{}}}", self.rng.below(4)),
                _ => format!("{{{}.5}}", self.rng.below(3)),
            };
            self.lines.push(format!("REP {count};"));
            let k = 1 + self.rng.below(4);
            self.arb_body(k, depth + 1, callable);
            self.lines.push("ENDREP;".into());
        }
        self.loops.pop();
    }

    /// A condition code test of the dialect (Table X.16's first eight,
    /// numbered by register where there are two).
    fn arb_cc_test(&mut self) -> String {
        let names = ["EQ", "GE", "GT", "LE", "LT", "NE", "TR", "FL"];
        let name = *self.rng.pick(&names);
        let reg = if self.dialect.cc_registers() == 2 {
            *self.rng.pick(&["0", "1"])
        } else {
            ""
        };
        let swz = *self.rng.pick(&["", ".x", ".y", ".xyzw", ".wzyx", ".z"]);
        format!("{name}{reg}{swz}")
    }

    /// ARL (ARR, ARA, PUSHA/POPA where the dialect has them) and a read of
    /// the constant array through the address register.
    fn arb_address(&mut self) {
        let vector = self.dialect.address_model() == crate::isa::AddressModel::ArbVector;
        let reg = *self.rng.pick(&FLOAT_REGS[..3]);
        // A constant address keeps most reads inside the array; a register
        // one is often outside it (undefined, not compared).
        let (value, known) = if self.rng.chance(60) {
            let a = self.rng.below(ARB_CONSTANTS);
            (format!("{{{a}, {a}, {a}, {a}}}"), Some(a as i64))
        } else {
            (self.arb_decorate(reg, false), None)
        };
        let load = if vector && self.rng.chance(40) {
            "ARR"
        } else {
            "ARL"
        };
        if vector {
            self.lines.push(format!("{load} A0, {value};"));
        } else {
            let v = if known.is_some() {
                format!("{value}.x")
            } else {
                self.arb_decorate(reg, true)
            };
            self.lines.push(format!("ARL A0.x, {v};"));
        }
        let offset = match known {
            Some(a) => self.rng.below(ARB_CONSTANTS) as i64 - a,
            None => self.rng.below(5) as i64 - 2,
        };
        let (areg, comp) = if vector && self.has(Opcode::Ara) && self.rng.chance(30) {
            // ARA adds x + z (and y + w): with a constant address a, 2a.
            self.lines.push("ARA A1, A0;".into());
            let off = known.map_or(offset, |a| self.rng.below(ARB_CONSTANTS) as i64 - 2 * a);
            return self.arb_relative_read("A1", "x", off);
        } else if vector {
            ("A0", *self.rng.pick(&["x", "y", "z", "w"]))
        } else {
            ("A0", "x")
        };
        if self.has(Opcode::Pusha) && self.rng.chance(30) {
            // Saved and restored around another load.
            self.lines.push(format!("PUSHA {areg};"));
            self.lines.push("ARL A0, {7, 7, 7, 7};".into());
            self.lines.push(format!("POPA {areg};"));
        }
        self.arb_relative_read(areg, comp, offset);
    }

    fn arb_relative_read(&mut self, areg: &str, comp: &str, offset: i64) {
        let dst = *self.rng.pick(&FLOAT_REGS[..3]);
        let index = match offset {
            0 => format!("{areg}.{comp}"),
            o if o > 0 => format!("{areg}.{comp} + {o}"),
            o => format!("{areg}.{comp} - {}", -o),
        };
        if self.rng.chance(50) {
            self.lines.push(format!("MOV {dst}, c[{index}];"));
        } else {
            let other = self.arb_operand(false);
            self.lines.push(format!("ADD {dst}, c[{index}], {other};"));
        }
    }

    /// A float source operand that is exact (never F3), with `|x|` only
    /// where the dialect has it, and `fragment.texcoord[A0.x + k]` inside
    /// a LOOP.
    fn arb_operand(&mut self, scalar: bool) -> String {
        if self.rng.chance(15) {
            let c = self.float_constant_vector();
            let sw = if scalar { ".x" } else { "" };
            return format!("{c}{sw}");
        }
        if self.index_loops > 0 && self.rng.chance(25) {
            let k = self.rng.below(2);
            let swz = if scalar { ".y" } else { "" };
            let index = if k == 0 {
                "A0.x".to_string()
            } else {
                format!("A0.x + {k}")
            };
            return format!("fragment.texcoord[{index}]{swz}");
        }
        let reg = *self.rng.pick(&FLOAT_REGS[..3]);
        self.arb_decorate(reg, scalar)
    }

    fn arb_decorate(&mut self, reg: &str, scalar: bool) -> String {
        let swz = if scalar {
            *self.rng.pick(&[".x", ".y", ".z", ".w"])
        } else {
            *self.rng.pick(&SWIZZLES)
        };
        let base = format!("{reg}{swz}");
        let abs = self.dialect.absolute_value();
        match self.rng.below(6) {
            0 => format!("-{base}"),
            1 if abs => format!("|{base}|"),
            2 if abs => format!("-|{base}|"),
            _ => base,
        }
    }

    /// The opcode's suffixes: precision (`R`, or `X` on exact
    /// instructions), condition code update, saturation.
    fn arb_suffixes(&mut self, op: Opcode, exact: bool) -> String {
        let Some(m) = op.info().in_dialect(self.dialect) else {
            return String::new();
        };
        let mut s = String::new();
        if m.fixed && exact && self.rng.chance(15) {
            s.push('X');
        } else if m.full && self.rng.chance(10) {
            s.push('R');
        }
        if m.cc && self.rng.chance(30) {
            let update = if self.dialect.cc_registers() == 2 {
                *self.rng.pick(&["C", "C0", "C1"])
            } else {
                "C"
            };
            s.push_str(update);
        }
        if m.clamp && self.rng.chance(20) {
            let signed = self.dialect.signed_saturation() && self.rng.chance(50);
            s.push_str(if signed { "_SSAT" } else { "_SAT" });
        }
        s
    }

    fn arb_dest(&mut self, reg: &str, op: Opcode) -> String {
        let mut mask = (*self.rng.pick(&MASKS)).to_string();
        let xyz = matches!(op, Opcode::Xpd | Opcode::Nrm | Opcode::Rfl);
        if xyz && (mask.is_empty() || mask.contains('w')) {
            mask = ".xyz".into();
        }
        if self.dialect.cc_registers() > 0 && self.rng.chance(10) {
            let t = self.arb_cc_test();
            format!("{reg}{mask} ({t})")
        } else {
            format!("{reg}{mask}")
        }
    }

    fn arb_instruction(&mut self) {
        if self.config.approximate && self.rng.chance(15) {
            return self.arb_approx_instruction();
        }
        let ops: Vec<Opcode> = EXACT_FLOAT_OPS
            .iter()
            .copied()
            .filter(|o| self.has(*o))
            .collect();
        let op = *self.rng.pick(&ops);
        let reg = *self.rng.pick(&FLOAT_REGS[..3]);
        let suffixes = self.arb_suffixes(op, true);
        let dst = self.arb_dest(reg, op);
        if op == Opcode::Swz {
            let src = *self.rng.pick(&FLOAT_REGS[..3]);
            let sel: Vec<String> = (0..4)
                .map(|_| {
                    let s = *self.rng.pick(&["0", "1", "x", "y", "z", "w"]);
                    if self.rng.chance(25) {
                        format!("-{s}")
                    } else {
                        s.to_string()
                    }
                })
                .collect();
            self.lines
                .push(format!("SWZ{suffixes} {dst}, {src}, {};", sel.join(", ")));
            return;
        }
        let operands: Vec<String> = op
            .info()
            .inputs
            .iter()
            .map(|k| self.arb_operand(matches!(k, OperandKind::Scalar(_))))
            .collect();
        self.lines.push(format!(
            "{}{suffixes} {dst}, {};",
            op.name(),
            operands.join(", ")
        ));
    }

    fn arb_approx_instruction(&mut self) {
        let ops: Vec<Opcode> = APPROX_FLOAT_OPS
            .iter()
            .chain(&[Opcode::Exp, Opcode::Log])
            .copied()
            .filter(|o| self.has(*o) && *o != Opcode::Rfl)
            .collect();
        let op = *self.rng.pick(&ops);
        // As in the NV4 programs: operands through F3, kept away from zero
        // for the instructions discontinuous there, within [-64, 64].
        if matches!(
            op,
            Opcode::Rcp
                | Opcode::Rcc
                | Opcode::Rsq
                | Opcode::Lg2
                | Opcode::Pow
                | Opcode::Div
                | Opcode::Log
        ) {
            let reg = *self.rng.pick(&FLOAT_REGS[..3]);
            let swz = *self.rng.pick(&SWIZZLES);
            self.lines.push(format!("ABS {APPROX_REG}, {reg}{swz};"));
            self.lines.push(format!(
                "MAX {APPROX_REG}, {APPROX_REG}, {{0.125, 0.125, 0.125, 0.125}};"
            ));
            self.lines.push(format!(
                "MIN {APPROX_REG}, {APPROX_REG}, {{64, 64, 64, 64}};"
            ));
        } else {
            let src = self.arb_operand(false);
            self.lines
                .push(format!("MIN {APPROX_REG}, {src}, {{64, 64, 64, 64}};"));
            self.lines.push(format!(
                "MAX {APPROX_REG}, {APPROX_REG}, {{-64, -64, -64, -64}};"
            ));
        }
        let suffixes = self.arb_suffixes(op, false);
        let dst = self.arb_dest(APPROX_REG, op);
        let operands: Vec<String> = op
            .info()
            .inputs
            .iter()
            .map(|k| {
                let scalar = matches!(k, OperandKind::Scalar(_));
                let swz = if scalar { ".x" } else { "" };
                format!("{APPROX_REG}{swz}")
            })
            .collect();
        self.lines.push(format!(
            "{}{suffixes} {dst}, {};",
            op.name(),
            operands.join(", ")
        ));
    }
}

/// Whether an opcode can appear in generated programs (for coverage
/// reports).
pub fn generated_opcodes() -> Vec<Opcode> {
    let mut v: Vec<Opcode> = EXACT_FLOAT_OPS
        .iter()
        .chain(APPROX_FLOAT_OPS)
        .chain(INT_OPS)
        .copied()
        .collect();
    v.extend([
        Opcode::I2f,
        Opcode::If,
        Opcode::Rep,
        Opcode::Brk,
        Opcode::Cont,
        Opcode::Cal,
        Opcode::Ret,
    ]);
    v.sort();
    v.dedup();
    v
}

/// Opcodes of the vertex/fragment ALU set the generator does not use, and
/// why (reported by the differential test).
pub fn excluded_opcodes() -> Vec<(Opcode, &'static str)> {
    let used = generated_opcodes();
    INSTRUCTIONS
        .iter()
        .filter(|i| matches!(i.shape, Shape::Alu) && !used.contains(&i.opcode))
        .map(|i| {
            let why = match i.opcode {
                Opcode::Ddx | Opcode::Ddy => "derivatives depend on neighbouring pixels",
                Opcode::Pk2h
                | Opcode::Pk2us
                | Opcode::Pk4b
                | Opcode::Pk4ub
                | Opcode::Up2h
                | Opcode::Up2us
                | Opcode::Up4b
                | Opcode::Up4ub => "covered by dedicated tests",
                // The device's result depends on the other invocations of
                // its subgroup, the interpreter's on its own
                // (docs/semantics.md, "Thread groups");
                // tests/device/exec_nv5_thread_group.rs.
                _ if i.reads_other_invocations() => {
                    "thread-group instructions read the other invocations"
                }
                _ => "not generated",
            };
            (i.opcode, why)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_programs_compile_and_validate() {
        let config = Config::default();
        for seed in 0..200 {
            let g = generate(seed, &config);
            let src = g.source();
            if let Err(d) = crate::compile(&src, &crate::Options::default()) {
                panic!("seed {seed}:\n{}\n{src}", d.render("gen.fp", &src, false));
            }
        }
    }

    #[test]
    fn programs_from_any_bytes_compile_and_validate() {
        let config = Config::default();
        let mut inputs: Vec<Vec<u8>> = vec![vec![], vec![0; 64], vec![0xff; 4096]];
        let mut rng = Rng::new(1);
        for len in [3, 17, 200, 1000, 5000] {
            inputs.push((0..len).map(|_| rng.below(256) as u8).collect());
            inputs.push((0..len).map(|i| i as u8).collect());
        }
        for bytes in &inputs {
            let g = generate_with(Rng::from_bytes(bytes), "bytes", &config);
            let src = g.source();
            if let Err(d) = crate::compile(&src, &crate::Options::default()) {
                panic!("{bytes:?}:\n{}\n{src}", d.render("gen.fp", &src, false));
            }
        }
    }

    #[test]
    fn generated_nv5_programs_use_the_bit_instructions() {
        let config = Config {
            language: Language::Nv5Fragment,
            ..Config::default()
        };
        let text: String = (0..20)
            .map(|seed| generate(seed, &config).source())
            .collect();
        assert!(text.starts_with("!!NVfp5.0"));
        for op in ["BFE", "BFI", "BFR", "BTC", "BTFL", "BTFM"] {
            assert!(text.contains(&format!("\n{op}.")), "no {op} in 20 programs");
        }
        // NV_gpu_program5's 64-bit instructions, PK64, UP64 and CVT, in
        // programs that compile.
        for needle in [".F64", ".S64", ".U64", "\nPK64.", "\nUP64.", "\nCVT."] {
            assert!(text.contains(needle), "no {needle} in 20 programs");
        }
        for seed in 0..20 {
            let src = generate(seed, &config).source();
            if let Err(d) = crate::compile(&src, &crate::Options::default()) {
                panic!("seed {seed}:\n{}\n{src}", d.render("gen.fp", &src, false));
            }
        }
    }

    #[test]
    fn generated_arb_programs_compile_and_validate_in_every_language() {
        for language in Language::ALL {
            let config = Config {
                language,
                ..Config::default()
            };
            for seed in 0..60 {
                let g = generate(seed, &config);
                let src = g.source();
                match crate::compile(&src, &crate::Options::default()) {
                    Ok(c) => assert!(
                        language.is_nv() || c.warnings.is_empty(),
                        "{language:?} seed {seed}:\n{}\n{src}",
                        c.warnings.render("gen", &src, false)
                    ),
                    Err(d) => panic!(
                        "{language:?} seed {seed}:\n{}\n{src}",
                        d.render("gen", &src, false)
                    ),
                }
            }
        }
    }

    #[test]
    fn vertex_programs_of_the_nv_options_branch_forward_and_loop_with_bra() {
        for language in [Language::ArbVertexNv2, Language::ArbVertexNv3] {
            let config = Config {
                language,
                ..Config::default()
            };
            let (mut skips, mut loops, mut exits) = (0, 0, 0);
            for seed in 0..60 {
                let src = generate(seed, &config).source();
                let (program, _) = crate::check(&src, &crate::Options::default())
                    .unwrap_or_else(|_| panic!("{language:?} seed {seed} checks"));
                skips += usize::from(src.contains("BRA skip"));
                exits += usize::from(src.contains("BRA out"));
                if src.contains("BRA top") {
                    loops += 1;
                    assert!(program.branches_loop(), "{language:?} seed {seed}");
                }
            }
            assert!(
                skips >= 20 && loops >= 20 && exits >= 10,
                "{language:?}: {skips} programs skip, {loops} loop, {exits} leave a loop"
            );
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_program() {
        let c = Config::default();
        assert_eq!(generate(7, &c).source(), generate(7, &c).source());
        assert_ne!(generate(7, &c).source(), generate(8, &c).source());
    }
}
