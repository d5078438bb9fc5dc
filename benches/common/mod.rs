//! Program generators shared by the benchmarks, the memory-measuring example
//! (`examples/compile_big.rs`) and the hostile-input tests.
#![allow(dead_code)]

use std::fmt::Write;

/// Options whose limits admit the generated large programs (the defaults
/// are a GeForce 8's: 65536 instructions).
pub fn big_options() -> nvp4c::Options {
    let mut o = nvp4c::Options::default();
    o.limits.max_instructions = u32::MAX;
    o.limits.max_temporaries = u32::MAX;
    o.limits.max_parameters = u32::MAX;
    o
}

const HEADER: &str = "!!NVvp4.0
# generated: a Cg-style (gp4vp) vertex program
PARAM c[64] = { program.local[0..63] };
TEMP R0, R1, R2, R3, R4, R5, R6, R7;
TEMP RC, HC;
INT TEMP A0;
OUTPUT result_color = result.color;
";

/// One block of Cg-style code, 24 instructions (one IF/ELSE/ENDIF, one
/// REP), registers and constants varied by `i`.
fn block(out: &mut String, i: usize) {
    let a = i % 8;
    let b = (i + 3) % 8;
    let k = (i * 7) % 60;
    let f = (i % 97) as f32 * 0.125;
    let _ = write!(
        out,
        "DP4.F R{a}.x, c[{k}], vertex.attrib[0];
DP4.F R{a}.y, c[{k1}], vertex.attrib[0];
DP3.F R{b}.z, c[{k2}], vertex.attrib[2];
MAD.F R{b}.xyz, R{a}, {{{f}, 0.5}}.x, -c[{k3}];
ADD.F R{a}.xyz, c[{k}], -R{b};
DP3.F R3.w, R{a}, R{a};
RSQ.F R3.w, R3.w;
MUL.F R{b}.xyz, R{b}, R3.w;
DP3.F.SAT R4.x, R{a}, R{b};
POW.F R4.z, R4.y, c[{k1}].x;
MOVC.F RC.x, R4.x;
IF GT.x;
  MUL.F R0.xyz, c[{k2}], R4.x;
  MAD.F R0.xyz, c[{k3}], R4.z, R0;
ELSE;
  MOV.F R0.xyz, {{0, 0, {f}}};
ENDIF;
FLR.S A0.x, {{3}}.x;
REP.S A0.x;
  MUL.F R{a}.xyz, R{a}, {{1.05}}.x;
ENDREP;
MIN.F R{b}, R{a}, {{1, 1, 1, 1}};
MUL.F R5.xy, vertex.attrib[8], {{2, 2}}.xyxy;
MAX.F result_color, R{b}, |R5|;
",
        k1 = k + 1,
        k2 = k + 2,
        k3 = k + 3,
    );
}

/// A valid vertex program of about `bytes` bytes (at least one block).
pub fn cg_program(bytes: usize) -> String {
    let mut s = String::with_capacity(bytes + 4096);
    s.push_str(HEADER);
    let mut i = 0;
    while s.len() < bytes || i == 0 {
        block(&mut s, i);
        i += 1;
    }
    s.push_str("MOV result.position, R0;\nEND\n");
    s
}

/// A valid vertex program of at least `n` instructions (whole blocks).
pub fn cg_program_instructions(n: usize) -> String {
    let mut s = String::from(HEADER);
    for i in 0..n.div_ceil(INSTRUCTIONS_PER_BLOCK).max(1) {
        block(&mut s, i);
    }
    s.push_str("MOV result.position, R0;\nEND\n");
    s
}

/// The number of instructions `cg_program` writes per block.
pub const INSTRUCTIONS_PER_BLOCK: usize = 24;
