//! The `!!ARBvp1.0`/`!!ARBfp1.0` dialects through everything that is not a
//! device run: realistic Cg-style programs (arbvp1, arbfp1, vp40, fp40
//! output), reflection, `nvp4c link` across dialects, `nvp4c run`, JSON
//! diagnostics, warnings, and BRA (checked, kept in the IR, not lowered).

use std::process::Command;

use nvp4c::ir::Stmt;
use nvp4c::link::check_pipeline;
use nvp4c::{compile, Options, Stage};

/// Cg 3.1 `arbvp1` output in the shape cgc writes it: the header
/// comments, `#var` lines, `PARAM c[...] = { program.local[...] }`, the
/// matrix product and a light vector.
const CG_ARBVP1: &str = "!!ARBvp1.0
# cgc version 3.1.0013, build date Apr 18 2012
# command line args: -profile arbvp1
# source file: bump.cg
#vendor NVIDIA Corporation
#version 3.1.0.13
#profile arbvp1
#program main
#semantic main.modelViewProj
#semantic main.lightPos
#var float4 position : $vin.POSITION : POSITION : 0 : 1
#var float3 normal : $vin.NORMAL : NORMAL : 1 : 1
#var float2 uv : $vin.TEXCOORD0 : TEXCOORD0 : 2 : 1
#var float4x4 modelViewProj :  : c[1], 4 : 3 : 1
#var float3 lightPos :  : c[5] : 4 : 1
#var float4 main.position : $vout.POSITION : HPOS : -1 : 1
#var float2 main.uv : $vout.TEXCOORD0 : TEX0 : -1 : 1
#var float3 main.light : $vout.TEXCOORD1 : TEX1 : -1 : 1
#const c[0] = 0.5
PARAM c[6] = { { 0.5 },
\t\tprogram.local[1..5] };
TEMP R0;
ADD R0.xyz, -vertex.position, c[5];
DP3 R0.w, R0, R0;
RSQ R0.w, R0.w;
MUL result.texcoord[1].xyz, R0.w, R0;
MOV result.texcoord[0].xy, vertex.texcoord[0];
DP4 result.position.w, vertex.position, c[4];
DP4 result.position.z, vertex.position, c[3];
DP4 result.position.y, vertex.position, c[2];
DP4 result.position.x, vertex.position, c[1];
END
# 9 instructions, 1 R-regs
";

/// Cg `arbfp1` output: texture lookups, a `program.local` colour, LRP and
/// a scalar constant with a suffix.
const CG_ARBFP1: &str = "!!ARBfp1.0
# cgc version 3.1.0013, build date Apr 18 2012
# command line args: -profile arbfp1
#profile arbfp1
#program main
#semantic main.tint
#var float2 uv : $vin.TEXCOORD0 : TEX0 : 0 : 1
#var float3 light : $vin.TEXCOORD1 : TEX1 : 1 : 1
#var float4 tint :  : c[0] : 2 : 1
#var sampler2D base :  : texunit 0 : 3 : 1
#var sampler2D bump :  : texunit 1 : 4 : 1
#var float4 oColor : $vout.COLOR : COL : -1 : 1
#const c[1] = 2 1 0.5
PARAM c[2] = { program.local[0],
\t\t{ 2, 1, 0.5 } };
TEMP R0;
TEMP R1;
TEX R0.xyz, fragment.texcoord[0], texture[1], 2D;
MAD R0.xyz, R0, c[1].x, -c[1].y;
DP3_SAT R0.x, R0, fragment.texcoord[1];
TEX R1, fragment.texcoord[0], texture[0], 2D;
MUL R1.xyz, R1, c[0];
LRP result.color.xyz, R0.x, R1, c[1].z;
MOV result.color.w, R1;
END
# 7 instructions, 2 R-regs
";

/// Cg `fp40` output: NV_fragment_program2 with half registers, condition
/// codes, IF and a REP over constants.
const CG_FP40: &str = "!!ARBfp1.0
OPTION NV_fragment_program2;
# cgc version 3.1.0013, build date Apr 18 2012
# command line args: -profile fp40
#profile fp40
#program main
#semantic main.threshold
#var float2 uv : $vin.TEXCOORD0 : TEX0 : 0 : 1
#var float threshold :  : c[0] : 1 : 1
#var sampler2D tex :  : texunit 0 : 2 : 1
#var float4 oColor : $vout.COLOR : COL : -1 : 1
PARAM c[2] = { program.local[0],
\t\t{ 4, 0.25 } };
TEMP R0;
SHORT TEMP H0;
TEX R0, fragment.texcoord[0], texture[0], 2D;
MOVH H0, {0}.x;
REP c[1].x;
ADDH H0, H0, R0;
ENDREP;
MULR R0, H0, c[1].y;
SGTRC H0.x, R0.x, c[0].x;
IF NE.x;
MOVH H0, R0;
ELSE;
MOVH H0, {0, 0, 0, 1};
ENDIF;
MOVH result.color, H0;
END
# 12 instructions, 1 R-regs, 1 H-regs
";

/// Cg `vp40` output: NV_vertex_program3 with an address register, a
/// vertex texture fetch and a skinning palette read through A0.
const CG_VP40: &str = "!!ARBvp1.0
OPTION NV_vertex_program3;
# cgc version 3.1.0013, build date Apr 18 2012
# command line args: -profile vp40
#profile vp40
#program main
#var float4x4 mvp :  : c[0], 4 : 1 : 1
#var float4 palette[8] :  : c[4], 8 : 2 : 1
#var sampler2D heights :  : texunit 0 : 3 : 1
PARAM c[12] = { program.local[0..11] };
ADDRESS A0;
TEMP R0, R1;
ARL A0.x, vertex.attrib[7].x;
TEX R1, vertex.texcoord[0], texture[0], 2D;
MAD R0, R1.x, vertex.normal, vertex.position;
ADD R0, R0, c[A0.x + 4];
DP4 result.position.x, R0, c[0];
DP4 result.position.y, R0, c[1];
DP4 result.position.z, R0, c[2];
DP4 result.position.w, R0, c[3];
MOVC R1.x, R1.x;
MOV result.color, {1, 1, 1, 1};
MOV result.color (LT.x), {1, 0, 0, 1};
END
";

fn compiled(src: &str) -> nvp4c::Compiled {
    compile(src, &Options::default()).unwrap_or_else(|d| panic!("{}", d.render("test", src, false)))
}

#[test]
fn cg_style_arb_programs_compile_to_validated_modules() {
    for (name, src, stage) in [
        ("arbvp1", CG_ARBVP1, Stage::Vertex),
        ("arbfp1", CG_ARBFP1, Stage::Fragment),
        ("fp40", CG_FP40, Stage::Fragment),
        ("vp40", CG_VP40, Stage::Vertex),
    ] {
        let c = compiled(src);
        assert_eq!(c.stage, stage, "{name}");
        assert!(
            c.warnings.is_empty(),
            "{name}: {}",
            c.warnings.render(name, src, false)
        );
    }
}

#[test]
fn reflection_of_an_arb_fragment_program_lists_locals_textures_and_cg_names() {
    let r = compiled(CG_ARBFP1).reflection;
    let local = r
        .uniform_blocks
        .iter()
        .find(|b| b.binding_name == "program.local")
        .expect("program.local block");
    assert_eq!((local.set, local.binding), (2, 1));
    let units: Vec<(u32, Option<&str>)> = r
        .textures
        .iter()
        .map(|t| (t.unit, t.target.as_deref()))
        .collect();
    assert_eq!(units, [(0, Some("2D")), (1, Some("2D"))]);
    let cg = r.cg.expect("the #var comments are read");
    assert!(format!("{cg:?}").contains("tint"), "{cg:?}");
}

#[test]
fn reflection_of_a_vertex_texture_fetch_in_nv_vertex_program3() {
    let r = compiled(CG_VP40).reflection;
    assert_eq!(r.textures.len(), 1);
    assert_eq!(r.textures[0].binding, 32);
    assert_eq!(r.textures[0].set, 0, "vertex programs use set 0");
}

#[test]
fn an_arb_vertex_program_links_with_an_nv4_fragment_program() {
    let fp = "!!NVfp4.0\nATTRIB uv = fragment.texcoord[0];\nATTRIB l = fragment.texcoord[1];\nTEMP t;\nTEX t, uv, texture[0], 2D;\nDP3 t.w, l, l;\nMUL result.color, t, t.w;\nEND\n";
    let files = [("bump.vp", CG_ARBVP1), ("shade.fp", fp)];
    let report = check_pipeline(&files, &Options::default()).expect("a vp fp pipeline");
    assert!(!report.has_errors(), "{}", report.render(&files, false));
    // The other way round: an NV4 vertex program and an ARB fragment
    // program that reads a texcoord the vertex program does not write.
    let vp = "!!NVvp4.0\nMOV result.position, vertex.position;\nMOV result.texcoord[0], vertex.texcoord[0];\nEND\n";
    let files = [("plain.vp", vp), ("bump.fp", CG_ARBFP1)];
    let report = check_pipeline(&files, &Options::default()).expect("a vp fp pipeline");
    let codes: Vec<&str> = report
        .diagnostics
        .iter()
        .map(|d| d.diagnostic.code)
        .collect();
    assert_eq!(codes, ["E1000"], "{}", report.render(&files, false));
}

#[test]
fn nvp4c_link_on_the_command_line_accepts_an_arb_and_an_nv4_program() {
    let dir = std::env::temp_dir().join(format!("nvp4c-arb-link-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let vp = dir.join("bump.vp");
    let fp = dir.join("shade.fp");
    std::fs::write(&vp, CG_ARBVP1).unwrap();
    std::fs::write(
        &fp,
        "!!NVfp4.0\nMUL result.color, fragment.texcoord[0], fragment.texcoord[1];\nEND\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_nvp4c"))
        .arg("link")
        .args([&vp, &fp])
        .args(["--color", "never"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn nvp4c_run_interprets_an_arb_program_with_the_nv_options() {
    let dir = std::env::temp_dir().join(format!("nvp4c-arb-run-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("loop.fp");
    // LOOP {3, 1, 1}: A0.x = 1, 2, 3 reads texcoord[1..3], each (n, 0, 0, 1)
    // (`--set` fills y, z with 0 and w with 1): (1 + 2 + 4, 0, 0, 3).
    std::fs::write(
        &p,
        "!!ARBfp1.0\nOPTION NV_fragment_program2;\nTEMP s;\nMOV s, 0;\nLOOP {3, 1, 1, 0};\nADD s, s, fragment.texcoord[A0.x];\nENDLOOP;\nMOV result.color, s;\nEND\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_nvp4c"))
        .arg("run")
        .arg(&p)
        .args([
            "--set",
            "fragment.texcoord[1]=1",
            "--set",
            "fragment.texcoord[2]=2",
            "--set",
            "fragment.texcoord[3]=4",
        ])
        .args(["--color", "never"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("(7.0, 0.0, 0.0, 3.0)"), "{stdout}");
}

#[test]
fn a_missing_option_is_one_json_diagnostic_with_its_code_and_span() {
    let dir = std::env::temp_dir().join(format!("nvp4c-arb-json-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("ddx.fp");
    let src = "!!ARBfp1.0\nTEMP r;\nDDX r, fragment.texcoord[0];\nMOV result.color, r;\nEND\n";
    std::fs::write(&p, src).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_nvp4c"))
        .arg(&p)
        .args(["--message-format", "json", "-o", "-"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let first: serde_json::Value = serde_json::from_str(stderr.lines().next().unwrap()).unwrap();
    assert_eq!(first["code"], "E0730", "{stderr}");
    assert!(
        first.to_string().contains("NV_fragment_program"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty(), "no module is written");
}

#[test]
fn bra_is_kept_in_the_ir_and_a_looping_one_is_one_dispatch_loop() {
    // NV_vertex_program2_option: a backward BRA under a condition.
    let src = "!!ARBvp1.0
OPTION NV_vertex_program2;
TEMP r, c;
MOV r, 0;
top:
ADD r, r, 1;
SUBC c, r, vertex.attrib[6];
BRA top (LT.x);
MOV result.position, r;
END
";
    let (program, warnings) = nvp4c::check(src, &Options::default()).expect("checks");
    assert!(warnings.is_empty());
    let mut branches = Vec::new();
    for (i, sub) in program.subroutines.iter().enumerate() {
        for s in &sub.body {
            if let Stmt::Branch { target, span, .. } = s {
                branches.push((i, target.0, &src[span.start as usize..span.end as usize]));
            }
        }
    }
    assert_eq!(branches.len(), 1, "{branches:?}");
    assert!(branches[0].2.starts_with("BRA top"), "{branches:?}");
    // A backward BRA loops: MAX_PROGRAM_EXEC_INSTRUCTIONS applies, and
    // the module is the dispatch loop (one OpSwitch over the states).
    assert!(program.branches_loop());
    let compiled = compile(src, &Options::default()).expect("compiles");
    let text = nvp4c::spirv::disassemble(&compiled.spirv).unwrap();
    assert_eq!(text.matches("OpSwitch").count(), 1, "{text}");
    assert!(text.contains("executed"), "the instruction count: {text}");
    // The interpreter runs it: r counts up to attrib[6].x = 3.
    let mut inputs = nvp4c::interp::Inputs::default();
    inputs.set("vertex.attrib[6]", [3f32.to_bits(); 4]).unwrap();
    let out = nvp4c::interp::run(&program, &inputs, &nvp4c::interp::RunOptions::default()).unwrap();
    assert_eq!(out.results["result.position"].bits, [3f32.to_bits(); 4]);
}

#[test]
fn a_forward_bra_is_a_tail_call_without_a_dispatch_loop() {
    let src = "!!ARBvp1.0
OPTION NV_vertex_program2;
TEMP c;
MOVC c, vertex.attrib[6];
BRA skip (LT.x);
MOV result.color, 1;
skip:
MOV result.position, vertex.position;
END
";
    let (program, _) = nvp4c::check(src, &Options::default()).expect("checks");
    assert!(!program.branches_loop());
    let compiled = compile(src, &Options::default()).expect("compiles");
    let text = nvp4c::spirv::disassemble(&compiled.spirv).unwrap();
    assert!(!text.contains("OpSwitch"), "{text}");
    assert!(!text.contains("executed"), "{text}");
    assert!(text.contains("OpFunctionCall"), "{text}");
}

#[test]
fn bra_to_an_undefined_label_is_e0510() {
    let src = "!!ARBvp1.0\nOPTION NV_vertex_program2;\nBRA nowhere;\nMOV result.position, vertex.position;\nEND\n";
    let err = compile(src, &Options::default()).unwrap_err();
    assert_eq!(err.iter().map(|d| d.code).collect::<Vec<_>>(), ["E0510"]);
}

#[test]
fn popa_and_loop_count_as_writes_for_the_read_before_write_warning() {
    let src = "!!ARBvp1.0
OPTION NV_vertex_program3;
ADDRESS a, b;
PARAM c[4] = { program.local[0..3] };
ARL a, vertex.attrib[6];
PUSHA a;
POPA b;
MOV result.position, c[b.x];
END
";
    let c = compiled(src);
    assert!(
        c.warnings.is_empty(),
        "{}",
        c.warnings.render("t.vp", src, false)
    );
    let fp = "!!ARBfp1.0
OPTION NV_fragment_program2;
TEMP s;
MOV s, 0;
LOOP {2, 0, 1, 0};
ADD s, s, fragment.texcoord[A0.x];
ENDLOOP;
MOV result.color, s;
END
";
    let c = compiled(fp);
    assert!(
        c.warnings.is_empty(),
        "{}",
        c.warnings.render("t.fp", fp, false)
    );
}

#[test]
fn an_address_register_read_before_arl_is_w0001() {
    let src = "!!ARBvp1.0\nADDRESS a;\nPARAM c[4] = { program.local[0..3] };\nMOV result.position, c[a.x];\nEND\n";
    let c = compiled(src);
    let codes: Vec<&str> = c.warnings.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["W0001"]);
}

/// Issue 15 item 9 for the older NV headers: a `!!VP1.0` vertex program
/// links with a `!!FP1.0` fragment program (`o[TEX0]` is the
/// `fragment.texcoord[0]` that `f[TEX0]` reads), and a texture
/// coordinate the vertex program does not write is E1000, as between any
/// two headers.
#[test]
fn an_nv_vertex_program_links_with_an_nv_fragment_program() {
    let vp = "!!VP1.0\nDP4 o[HPOS].x, c[0], v[OPOS];\nDP4 o[HPOS].y, c[1], v[OPOS];\nDP4 o[HPOS].z, c[2], v[OPOS];\nDP4 o[HPOS].w, c[3], v[OPOS];\nMOV o[TEX0], v[TEX0];\nEND\n";
    let fp = "!!FP1.0\nTEX R0, f[TEX0], TEX0, 2D;\nMOVR o[COLR], R0;\nEND\n";
    let files = [("legacy.vp", vp), ("legacy.fp", fp)];
    let report = check_pipeline(&files, &Options::default()).expect("a vp fp pipeline");
    assert!(!report.has_errors(), "{}", report.render(&files, false));
    let fp = "!!FP1.0\nMOVR o[COLR], f[TEX1];\nEND\n";
    let files = [("legacy.vp", vp), ("reads-tex1.fp", fp)];
    let report = check_pipeline(&files, &Options::default()).expect("a vp fp pipeline");
    let codes: Vec<&str> = report
        .diagnostics
        .iter()
        .map(|d| d.diagnostic.code)
        .collect();
    assert_eq!(codes, ["E1000"], "{}", report.render(&files, false));
}
