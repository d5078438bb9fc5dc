//! Structure-aware: the fuzzer's bytes choose instructions, operands,
//! swizzles, modifiers and flow for a program that is valid by construction;
//! it must compile, and its SPIR-V must pass spirv-val (compile validates).
//!
//! The first byte picks the generator: this file's own (float ALU
//! instructions, IF/ELSE nesting, operand forms), or `nvp4c::testgen` — the
//! differential tests' generator, integer and float instructions, REP with
//! BRK/CONT, subroutines with CAL/RET, condition codes — reading its
//! choices from the remaining bytes; and for testgen, the options (`-O`,
//! signed zeros) and the program's size.
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::fmt::Write;

struct Bytes<'a>(&'a [u8]);
impl Bytes<'_> {
    fn next(&mut self) -> u8 {
        let (b, rest) = self.0.split_first().map_or((0, &[][..]), |(b, r)| (*b, r));
        self.0 = rest;
        b
    }
    fn pick<'s>(&mut self, items: &[&'s str]) -> &'s str {
        items[self.next() as usize % items.len()]
    }
}

const SWZ: &[&str] = &["", ".x", ".xyzw", ".wzyx", ".xxxx", ".zxyw", ".w"];
const MASK: &[&str] = &["", ".x", ".xy", ".xyz", ".w", ".yw"];
const SRC: &[&str] = &[
    "R0",
    "R1",
    "R2",
    "R3",
    "fragment.color",
    "fragment.texcoord[0]",
    "c[0]",
    "c[1]",
    "{0.5, 1, 2, -1}",
    "{0.25}",
];

fn operand(b: &mut Bytes, scalar: bool) -> String {
    let neg = if b.next() % 4 == 0 { "-" } else { "" };
    let src = b.pick(SRC);
    // Constants take a `.x` in scalar operands and no suffix otherwise
    // (found by this target: the generator wrote `{0.25}.x.x`).
    let swz = if src.starts_with('{') {
        if scalar {
            ".x"
        } else {
            ""
        }
    } else if scalar {
        b.pick(&[".x", ".y", ".z", ".w"])
    } else {
        b.pick(SWZ)
    };
    if b.next() % 6 == 0 && !src.starts_with('{') {
        format!("{neg}|{src}{swz}|")
    } else {
        format!("{neg}{src}{swz}")
    }
}

fn program(data: &[u8]) -> String {
    let mut b = Bytes(data);
    let mut s = String::from("!!NVfp4.0\nPARAM c[2] = { program.local[0..1] };\nTEMP R0, R1, R2, R3;\nMOV R0, fragment.color;\nMOV R1, 0;\nMOV R2, 1;\nMOV R3, fragment.texcoord[0];\n");
    let mut depth = 0;
    let n = (b.next() as usize % 64) + 1;
    for _ in 0..n {
        let dst = format!("{}{}", b.pick(&["R0", "R1", "R2", "R3"]), b.pick(MASK));
        let sat = b.pick(&["", "_SAT", "C", ""]);
        match b.next() % 12 {
            0 => {
                let _ = writeln!(
                    s,
                    "ADD{sat} {dst}, {}, {};",
                    operand(&mut b, false),
                    operand(&mut b, false)
                );
            }
            1 => {
                let _ = writeln!(
                    s,
                    "MUL{sat} {dst}, {}, {};",
                    operand(&mut b, false),
                    operand(&mut b, false)
                );
            }
            2 => {
                let _ = writeln!(
                    s,
                    "MAD{sat} {dst}, {}, {}, {};",
                    operand(&mut b, false),
                    operand(&mut b, false),
                    operand(&mut b, false)
                );
            }
            3 => {
                let _ = writeln!(
                    s,
                    "DP4{sat} {dst}, {}, {};",
                    operand(&mut b, false),
                    operand(&mut b, false)
                );
            }
            4 => {
                let _ = writeln!(s, "RSQ{sat} {dst}, {};", operand(&mut b, true));
            }
            5 => {
                let _ = writeln!(
                    s,
                    "{}{sat} {dst}, {}, {};",
                    b.pick(&["MIN", "MAX", "SLT", "SGE", "SEQ", "SNE"]),
                    operand(&mut b, false),
                    operand(&mut b, false)
                );
            }
            6 => {
                let _ = writeln!(
                    s,
                    "{}{sat} {dst}, {};",
                    b.pick(&["FRC", "FLR", "ABS", "SSG", "MOV", "NRM"]),
                    operand(&mut b, false)
                );
            }
            7 if depth < 4 => {
                let _ = writeln!(
                    s,
                    "MOVC R0.x, {};\nIF {}.x;",
                    operand(&mut b, true),
                    b.pick(&["GT", "LE", "NE", "EQ"])
                );
                depth += 1;
            }
            8 if depth > 0 => {
                s.push_str("ELSE;\n");
            }
            9 if depth > 0 => {
                s.push_str("ENDIF;\n");
                depth -= 1;
            }
            10 => {
                let _ = writeln!(
                    s,
                    "{} {dst}, {}, {};",
                    b.pick(&["POW", "DIV", "LRP"]).replace("LRP", "ADD"),
                    operand(&mut b, true),
                    operand(&mut b, true)
                );
            }
            _ => {
                let _ = writeln!(s, "EX2 {dst}, {};", operand(&mut b, true));
            }
        }
    }
    // Close the IFs; a ELSE written twice in one block is avoided by the
    // checker's diagnostics only, so such programs are skipped below.
    for _ in 0..depth {
        s.push_str("ENDIF;\n");
    }
    s.push_str("MOV result.color, R0;\nEND\n");
    s
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    if mode & 1 == 1 {
        testgen_program(mode, rest);
        return;
    }
    let source = program(rest);
    let result = std::panic::catch_unwind(|| nvp4c::compile(&source, &nvp4c::Options::default()));
    match result {
        Err(_) => panic!("compile panicked on\n{source}"),
        Ok(Ok(_)) => {}
        Ok(Err(d)) => {
            // The generator may write a second ELSE in one IF; that is the
            // program's error (E05xx). Anything else is a bug.
            let real: Vec<_> = d
                .iter()
                .filter(|d| d.is_error() && !d.code.starts_with("E05"))
                .collect();
            assert!(
                real.is_empty(),
                "valid program rejected:\n{}\n{}",
                source,
                d.render("gen.fp", &source, false)
            );
        }
    }
});

/// A testgen program from `bytes`; `mode` picks the generator's features,
/// the program's size and the compile options. Every one must compile.
fn testgen_program(mode: u8, bytes: &[u8]) {
    let mut config = nvp4c::testgen::Config::default();
    config.flow = mode & 2 != 0;
    config.subroutines = mode & 4 != 0;
    config.approximate = mode & 8 != 0;
    config.statements = 8 + usize::from((mode >> 4) & 3) * 16;
    let mut options = nvp4c::Options::default();
    // spirv-opt's SSA rewrite grows much faster than linearly with a
    // program's branches: 7-14 s for some 800-line testgen programs with
    // ~900 blocks, a minute under fuzzing instrumentation (others of the
    // same size take 0.4 s; docs/performance.md). `-O` only for programs
    // of at most 200 lines, so the fuzzer spends its time on nvp4c.
    let optimize = mode & 0x40 != 0;
    options.preserve_signed_zero_inf_nan = mode & 0x80 != 0;
    let rng = nvp4c::testgen::Rng::from_bytes(bytes);
    let source = nvp4c::testgen::generate_with(rng, "fuzzer input", &config).source();
    options.optimize = optimize && source.lines().count() <= 200;
    match std::panic::catch_unwind(|| nvp4c::compile(&source, &options)) {
        Err(_) => panic!("compile panicked on\n{source}"),
        Ok(Ok(_)) => {}
        Ok(Err(d)) => panic!(
            "generated program rejected:\n{source}\n{}",
            d.render("gen.fp", &source, false)
        ),
    }
}
