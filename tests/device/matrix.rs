//! The instruction matrix: every ALU instruction × every data type it
//! allows × no clamp / SAT / SSAT × a condition code update, run on the
//! Vulkan device over inputs that include 0, -0, ±INF, NaN, denormals,
//! INT_MIN, INT_MAX and UINT_MAX, and compared with the reference
//! interpreter (written from the spec's pseudocode).
//!
//! Integer results and flags must match bit for bit. Float results must
//! match exactly for the exact instructions and within the bound of
//! docs/semantics.md for the approximate ones. A float difference is
//! accepted only where docs/semantics.md says Vulkan cannot give the spec's
//! value: an input component that is an infinity, a NaN or a denormal
//! (Vulkan lets a driver assume there are none, and flush denormals), or a
//! zero whose sign differs. Those are counted and reported, never silently
//! dropped; components the spec leaves undefined are not compared.

use crate::harness;
use crate::harness::{FragmentJob, Input, Kind};
use nvp4c::interp;
use nvp4c::isa::{
    Column, DataType, OpInfo, Opcode, OperandKind, ResultKind, Shape, TypeRule, INSTRUCTIONS,
};

const CASES: usize = 64;

const FLOATS: [f32; 18] = [
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    -2.5,
    3.75,
    100.0,
    -7.25,
    1e30,
    -1e-30,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::NAN,
    1e-40,
    -3e-39,
    2.0,
    0.125,
];

const INTS: [u32; 14] = [
    0,
    1,
    u32::MAX,    // UINT_MAX, and -1 as INT
    0x8000_0000, // INT_MIN
    0x7fff_ffff, // INT_MAX
    2,
    31,
    32,
    0x1234_5678,
    (-7i32) as u32,
    0xffff,
    0x1_0000,
    3,
    (-100i32) as u32,
];

fn value(k: usize, operand: usize, c: usize, ty: DataType) -> u32 {
    let i = k * 7 + c * 3 + operand * 5 + k / 16;
    match ty {
        DataType::Float => FLOATS[i % FLOATS.len()].to_bits(),
        _ => INTS[i % INTS.len()],
    }
}

fn is_special(bits: u32) -> bool {
    let f = f32::from_bits(bits);
    !f.is_finite() || (f != 0.0 && !f.is_normal())
}

/// Instructions whose results are approximations in Vulkan, with their
/// relative bound (docs/semantics.md, "Floating-point accuracy").
fn tolerance(op: Opcode) -> Option<f32> {
    use Opcode::*;
    match op {
        Rcp | Rcc | Div | Rsq | Nrm => Some(1e-6),
        Ex2 | Lg2 | Pow | Lit => Some(1e-5),
        Sin | Cos | Scs => Some(5e-4),
        _ => None,
    }
}

struct Variant {
    op: Opcode,
    ty: DataType,
    suffix: String,
    source: String,
    operand_types: Vec<DataType>,
    result_float: bool,
    cc: bool,
}

/// The ALU instructions the matrix runs on temporaries; the others have
/// execution tests of their own.
fn in_matrix(info: &OpInfo) -> bool {
    if info.shape != Shape::Alu && info.shape != Shape::Swz {
        return false;
    }
    // Derivatives depend on the neighbouring pixels, and IPAC/IPAO/IPAS
    // interpolate a fragment attribute, never a temporary (E1130): both
    // are tested on rasterised primitives (exec_derivatives.rs,
    // exec_texture.rs). CVT takes two storage modifiers instead of a data
    // type, and PK64 and UP64 a LONG register (E1161), while the matrix's
    // temporaries are 32-bit: exec_nv5_64bit.rs.
    if matches!(
        info.opcode,
        Opcode::Ddx
            | Opcode::Ddy
            | Opcode::Ipac
            | Opcode::Ipao
            | Opcode::Ipas
            | Opcode::Cvt
            | Opcode::Pk64
            | Opcode::Up64
    ) {
        return false;
    }
    // A thread-group instruction on the device sees the other fragments
    // of its subgroup, the interpreter only its own (docs/semantics.md,
    // "Thread groups"): exec_nv5_thread_group.rs.
    !info.reads_other_invocations()
}

fn variants() -> Vec<Variant> {
    let mut out = Vec::new();
    // NV_gpu_program4 programs, and NV_gpu_program5 ones for the
    // instructions it adds (`!!NVfp5.0`): the ARB family's own ALU
    // instructions (ARL, ARR, ARA, EXP, LOG) are in tests/device/exec_arb.rs.
    for info in INSTRUCTIONS.iter().filter(|i| nv_column(i).is_some()) {
        let (column, header) = nv_column(info).unwrap_or((Column::Nv4, "!!NVfp4.0"));
        let m = info.in_column(column).unwrap_or_default();
        if !in_matrix(info) {
            continue;
        }
        let mut types = Vec::new();
        if m.float || info.default_type == DataType::Float {
            types.push(DataType::Float);
        }
        if m.integer {
            types.extend([DataType::Signed, DataType::Unsigned]);
        }
        for ty in types {
            let result_float = info.result_type(ty) == Some(DataType::Float);
            let clamps: &[&str] = if m.clamp && result_float {
                &["", ".SAT", ".SSAT"]
            } else {
                &[""]
            };
            for (n, clamp) in clamps.iter().enumerate() {
                // The condition code update rides on the clamped variants
                // (and on the plain one when there are none).
                let cc = m.cc && (n > 0 || clamps.len() == 1);
                let type_mod = match ty {
                    DataType::Float if m.float => ".F",
                    DataType::Signed => ".S",
                    DataType::Unsigned => ".U",
                    _ => "",
                };
                let suffix = format!("{type_mod}{}{clamp}", if cc { ".CC" } else { "" });
                let operand_types: Vec<DataType> = info
                    .inputs
                    .iter()
                    .map(|k| k.type_rule().resolve(ty))
                    .collect();
                let operands: Vec<String> = info
                    .inputs
                    .iter()
                    .enumerate()
                    .map(|(i, k)| {
                        let reg = ["a", "b", "c"][i];
                        if matches!(k, OperandKind::Scalar(_)) {
                            format!("{reg}.y")
                        } else {
                            reg.to_string()
                        }
                    })
                    .collect();
                let args = if info.shape == Shape::Swz {
                    "a, x, -y, 0, 1".to_string()
                } else {
                    operands.join(", ")
                };
                let mut src = format!("{header}\nOPTION ARB_draw_buffers;\nTEMP a, b, c, r;\n");
                for n in 1..5 {
                    src.push_str(&format!("INT OUTPUT f{n} = result.color[{n}];\n"));
                }
                src.push_str("MOV.U a, fragment.texcoord[0];\nMOV.U b, fragment.texcoord[1];\nMOV.U c, fragment.texcoord[2];\nMOV.U r, {0, 0, 0, 0};\n");
                src.push_str(&format!("{}{suffix} r, {args};\n", info.name));
                src.push_str("MOV.U result.color, r;\n");
                // The flags, one output each: SF, ZF (EQ or NAN), CF, OF.
                for (n, tests) in [
                    (1, &["SF"][..]),
                    (2, &["EQ", "NAN"][..]),
                    (3, &["CF"][..]),
                    (4, &["OF"][..]),
                ] {
                    src.push_str(&format!("MOV.S f{n}, {{0, 0, 0, 0}};\n"));
                    for t in tests {
                        src.push_str(&format!("MOV.S f{n} ({t}), {{1, 1, 1, 1}};\n"));
                    }
                }
                src.push_str("END\n");
                out.push(Variant {
                    op: info.opcode,
                    ty,
                    suffix,
                    source: src,
                    operand_types,
                    result_float,
                    cc,
                });
            }
        }
    }
    out
}

/// The NV column an instruction is tested in, with its header: NV4's, or
/// NV5's for the instructions NV_gpu_program5 adds.
fn nv_column(info: &nvp4c::isa::OpInfo) -> Option<(Column, &'static str)> {
    if info.in_column(Column::Nv4).is_some() {
        Some((Column::Nv4, "!!NVfp4.0"))
    } else if info.in_column(Column::Nv5).is_some() {
        Some((Column::Nv5, "!!NVfp5.0"))
    } else {
        None
    }
}

/// Whether a float input component that result component `c` depends on
/// is an infinity, a NaN or a denormal (the operands are not swizzled, and
/// scalar operands read y).
fn feeds_special(v: &Variant, case: &[[u32; 4]; 3], c: usize) -> bool {
    let info = v.op.info();
    let swz = v.op == Opcode::Swz;
    info.inputs.iter().enumerate().any(|(j, kind)| {
        if v.operand_types[j] != DataType::Float {
            return false;
        }
        let comps: u8 = if matches!(kind, OperandKind::Scalar(_)) {
            0b0010
        } else if swz {
            0b0011
        } else if v.op.is_componentwise() {
            1 << c
        } else {
            v.op.components_read(j, 0b1111)
        };
        (0..4).any(|i| comps & (1 << i) != 0 && is_special(case[j][i]))
    })
}

#[derive(Default)]
struct Tally {
    compared: usize,
    exact_specials: usize,
    explained_specials: usize,
    explained_zero_sign: usize,
    explained_huge_angles: usize,
    failures: Vec<String>,
}

#[test]
fn every_instruction_type_clamp_and_cc_update_matches_the_spec() {
    let variants = variants();
    assert!(variants.len() > 150, "{} variants", variants.len());
    let mut tally = Tally::default();
    // The interpreter half runs everywhere; the device half needs one.
    let dev = harness::device_or_skip();
    for v in &variants {
        let (program, _) =
            nvp4c::check(&v.source, &nvp4c::Options::default()).unwrap_or_else(|d| {
                panic!(
                    "{}{}: {}",
                    v.op,
                    v.suffix,
                    d.render("matrix.fp", &v.source, false)
                )
            });
        let inputs: Vec<[[u32; 4]; 3]> = (0..CASES)
            .map(|k| {
                std::array::from_fn(|j| {
                    std::array::from_fn(|c| {
                        value(
                            k,
                            j,
                            c,
                            v.operand_types.get(j).copied().unwrap_or(DataType::Float),
                        )
                    })
                })
            })
            .collect();
        let mut expected = Vec::new();
        for case in &inputs {
            let mut i = interp::Inputs::default();
            for (j, bits) in case.iter().enumerate() {
                i.set(&format!("fragment.texcoord[{j}]"), *bits).unwrap();
            }
            let out = interp::run(&program, &i, &interp::RunOptions::default())
                .unwrap_or_else(|e| panic!("{}{}: {e}", v.op, v.suffix));
            expected.push(out);
        }
        let Some(dev) = dev else { continue };
        let spirv = nvp4c::compile(&v.source, &nvp4c::Options::default())
            .expect("the matrix program compiles")
            .spirv;
        let job = FragmentJob::new(
            inputs
                .iter()
                .map(|case| {
                    case.iter()
                        .enumerate()
                        .map(|(j, b)| Input::new(5 + j as u32, Kind::Float, *b))
                        .collect()
                })
                .collect(),
        );
        let got = dev
            .run_fragment(&spirv, &job)
            .unwrap_or_else(|e| panic!("{}{}: {e:?}", v.op, v.suffix));
        for (k, want) in expected.iter().enumerate() {
            let outputs = [
                ("result.color", 0u32, true),
                ("result.color[1]", 1, false),
                ("result.color[2]", 2, false),
                ("result.color[3]", 3, false),
                ("result.color[4]", 4, false),
            ];
            for (name, loc, is_value) in outputs {
                if !is_value && !v.cc {
                    continue;
                }
                let Some(w) = want.result(name) else { continue };
                let g = got.color(k, loc);
                for (c, (&wb, &gb)) in w.bits.iter().zip(&g).enumerate() {
                    if !want.undefined.is_empty() || w.defined() & (1 << c) == 0 {
                        continue;
                    }
                    tally.compared += 1;
                    let float = is_value && v.result_float;
                    let special_input = feeds_special(v, &inputs[k], c);
                    let equal = if float {
                        let (wf, gf) = (f32::from_bits(wb), f32::from_bits(gb));
                        wb == gb
                            || (wf.is_nan() && gf.is_nan())
                            || tolerance(v.op).is_some_and(|t| {
                                (wf - gf).abs() <= t * wf.abs().max(gf.abs()).max(1.0)
                            })
                    } else {
                        wb == gb
                    };
                    if special_input && equal {
                        tally.exact_specials += 1;
                    }
                    if equal {
                        continue;
                    }
                    let zero_sign = float && wb & 0x7fff_ffff == 0 && gb & 0x7fff_ffff == 0;
                    // A flag computed from a zero of the other sign (SF of
                    // -0.0 is clear, as of +0.0, so only results matter) or
                    // from special inputs is explained the same way.
                    // SIN, COS and SCS: the bound holds for moderate angles
                    // only; the reduction's error grows with |x|.
                    let huge_angle = matches!(v.op, Opcode::Sin | Opcode::Cos | Opcode::Scs)
                        && f32::from_bits(inputs[k][0][1]).abs() >= 65536.0;
                    if zero_sign {
                        tally.explained_zero_sign += 1;
                    } else if huge_angle {
                        tally.explained_huge_angles += 1;
                    } else if special_input || (float && is_special(wb)) {
                        tally.explained_specials += 1;
                    } else {
                        tally.failures.push(format!(
                            "{}{} case {k} {name}.{}: device {gb:#010x} ({:?}), spec {wb:#010x} ({:?}); inputs {:08x?}",
                            v.op,
                            v.suffix,
                            "xyzw".as_bytes()[c] as char,
                            f32::from_bits(gb),
                            f32::from_bits(wb),
                            inputs[k]
                        ));
                    }
                }
            }
        }
    }
    eprintln!(
        "matrix: {} programs, {} components compared; {} components with INF/NaN/denormal inputs matched exactly; explained by docs/semantics.md: {} with such inputs, {} zero signs, {} angles of 2^16 or more; {} unexplained",
        variants.len(),
        tally.compared,
        tally.exact_specials,
        tally.explained_specials,
        tally.explained_zero_sign,
        tally.explained_huge_angles,
        tally.failures.len()
    );
    assert!(
        tally.failures.is_empty(),
        "{} unexplained mismatch(es):\n{}",
        tally.failures.len(),
        tally
            .failures
            .iter()
            .take(40)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn the_matrix_covers_every_alu_instruction_and_data_type() {
    let v = variants();
    for info in INSTRUCTIONS
        .iter()
        .filter(|i| in_matrix(i) && nv_column(i).is_some())
    {
        let m = nv_column(info)
            .and_then(|(c, _)| info.in_column(c))
            .unwrap_or_default();
        assert!(
            v.iter().any(|x| x.op == info.opcode),
            "{} is not in the matrix",
            info.name
        );
        if m.integer {
            assert!(v
                .iter()
                .any(|x| x.op == info.opcode && x.ty == DataType::Signed));
            assert!(v
                .iter()
                .any(|x| x.op == info.opcode && x.ty == DataType::Unsigned));
        }
        if m.clamp
            && matches!(
                info.result,
                ResultKind::Vector(TypeRule::Inherit) | ResultKind::Scalar(TypeRule::Inherit)
            )
        {
            assert!(v
                .iter()
                .any(|x| x.op == info.opcode && x.suffix.contains(".SSAT")));
        }
        if m.cc {
            assert!(v.iter().any(|x| x.op == info.opcode && x.cc));
        }
    }
}
