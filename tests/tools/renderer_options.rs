//! Renderer control without a device: debug information in the module
//! (`-g`), the binding layout in the module and its reflection, the
//! reflection's JSON loading back, device limit files, the option check
//! (E0005), the interpreter's fixed-function work, and the CLI's flags
//! through the real binary. (Execution on the device: tests/device/
//! exec_layout.rs and exec_options.rs.)

use std::collections::BTreeSet;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use nvp4c::device_limits::DeviceLimits;
use nvp4c::layout::{Param, PushConstants, Specialization};
use nvp4c::reflect::Reflection;
use nvp4c::Options;
use rspirv::dr::{Instruction, Operand};
use rspirv::spirv::{Decoration, Op};

fn compile(src: &str, options: &Options) -> nvp4c::Compiled {
    match nvp4c::compile(src, options) {
        Ok(c) => c,
        Err(d) => panic!("compile failed:\n{}", d.render("t", src, false)),
    }
}

fn errors(src: &str, options: &Options) -> Vec<&'static str> {
    match nvp4c::compile(src, options) {
        Ok(_) => Vec::new(),
        Err(d) => d.iter().filter(|d| d.is_error()).map(|d| d.code).collect(),
    }
}

fn module(words: &[u32]) -> rspirv::dr::Module {
    rspirv::dr::load_words(words).expect("the module parses")
}

/// Every instruction of every function.
fn body(m: &rspirv::dr::Module) -> Vec<&Instruction> {
    m.functions
        .iter()
        .flat_map(|f| f.blocks.iter())
        .flat_map(|b| b.instructions.iter())
        .collect()
}

const DEBUGGED: &str = "!!NVfp4.0
# statements on lines 5, 6, 7 and 9
ATTRIB tc = fragment.texcoord[0];
TEMP t;
MULC t, tc, program.local[0];
IF GT.x;
  MOV t.x, 1;
ENDIF;
MOV result.color, t;
END
";

#[test]
fn debug_info_puts_the_source_a_line_per_statement_and_the_names_in_the_module() {
    let mut options = Options::default();
    options.debug_info = true;
    options.source_name = Some("shade.fp".into());
    let m = module(&compile(DEBUGGED, &options).spirv);
    let file = m
        .debug_string_source
        .iter()
        .find(|i| i.class.opcode == Op::String)
        .expect("OpString");
    assert_eq!(file.operands, [Operand::LiteralString("shade.fp".into())]);
    let source = m
        .debug_string_source
        .iter()
        .find(|i| i.class.opcode == Op::Source)
        .expect("OpSource");
    assert_eq!(
        source.operands.last(),
        Some(&Operand::LiteralString(DEBUGGED.into()))
    );
    // One OpLine per statement, naming the file, at column 1 (or 3 for the
    // indented MOV).
    let lines: BTreeSet<(u32, u32)> = body(&m)
        .iter()
        .filter(|i| i.class.opcode == Op::Line)
        .map(|i| match i.operands.as_slice() {
            [Operand::IdRef(f), Operand::LiteralBit32(l), Operand::LiteralBit32(c)] => {
                assert_eq!(Some(*f), file.result_id);
                (*l, *c)
            }
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(lines, BTreeSet::from([(5, 1), (6, 1), (7, 3), (9, 1)]));
    let names: BTreeSet<String> = m
        .debug_names
        .iter()
        .filter_map(|i| match i.operands.as_slice() {
            [Operand::IdRef(_), Operand::LiteralString(s)] => Some(s.clone()),
            _ => None,
        })
        .collect();
    for declared in ["tc", "t", "result.color"] {
        assert!(names.contains(declared), "{declared} in {names:?}");
    }
    // Without -g: no source, no lines.
    let plain = module(&compile(DEBUGGED, &Options::default()).spirv);
    assert!(plain.debug_string_source.is_empty());
    assert!(!body(&plain).iter().any(|i| i.class.opcode == Op::Line));
}

#[test]
fn debug_info_survives_the_optimizer_and_validates_for_every_target() {
    for env in [
        nvp4c::TargetEnv::Vulkan1_0,
        nvp4c::TargetEnv::Vulkan1_1,
        nvp4c::TargetEnv::Vulkan1_2,
        nvp4c::TargetEnv::Vulkan1_3,
    ] {
        for optimize in [false, true] {
            let mut options = Options::default();
            options.debug_info = true;
            options.optimize = optimize;
            options.target_env = env;
            // compile() validates the module (and the optimised one).
            let m = module(&compile(DEBUGGED, &options).spirv);
            assert!(m
                .debug_string_source
                .iter()
                .any(|i| i.class.opcode == Op::Source));
        }
    }
}

#[test]
fn a_long_program_text_continues_in_op_source_continued() {
    // 30 000 lines: more text than one instruction can hold.
    let mut src = String::from("!!NVfp4.0\nTEMP t;\nMOV t, fragment.color;\n");
    for _ in 0..30_000 {
        src.push_str("ADD t, t, {0.5, 0.25, 0.125, 1};\n");
    }
    src.push_str("MOV result.color, t;\nEND\n");
    let mut options = Options::default();
    options.debug_info = true;
    let m = module(&compile(&src, &options).spirv);
    let mut text = String::new();
    for i in &m.debug_string_source {
        if let (Op::Source | Op::SourceContinued, Some(Operand::LiteralString(s))) =
            (i.class.opcode, i.operands.last())
        {
            text.push_str(s);
        }
    }
    assert!(m
        .debug_string_source
        .iter()
        .any(|i| i.class.opcode == Op::SourceContinued));
    assert_eq!(text, src);
}

/// Programs covering every part of the reflection.
fn reflected() -> Vec<Reflection> {
    let cg =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/tint.fp")).unwrap();
    let mut layout = Options::default();
    layout.layout.fragment.push_constants = PushConstants::Local;
    layout
        .layout
        .fragment
        .specialize
        .push(Specialization::new(Param::Env(1), 3));
    vec![
        compile(&cg, &Options::default()).reflection,
        compile(
            "!!NVvp4.0\nOPTION ARB_position_invariant;\nMOV result.texcoord[1], state.light[0].half;\nEND\n",
            &Options::default(),
        )
        .reflection,
        compile(
            "!!NVgp4.0\nPRIMITIVE_IN TRIANGLES;\nPRIMITIVE_OUT TRIANGLE_STRIP;\nVERTICES_OUT 3;\nMOV result.position, vertex[0].position;\nMOV result.clip[1], 1;\nEMIT;\nEND\n",
            &Options::default(),
        )
        .reflection,
        compile(
            "!!NVfp4.0\nTEX result.color, fragment.texcoord[0], texture[2], SHADOWCUBE;\nMOV result.depth.z, program.local[3].x;\nADD result.color.w, program.env[1], fragment.facing;\nEND\n",
            &layout,
        )
        .reflection,
    ]
}

#[test]
fn the_reflection_json_loads_back_into_the_same_reflection() {
    for r in reflected() {
        let json = serde_json::to_string_pretty(&r).unwrap();
        let back: Reflection =
            serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}\n{json}"));
        assert_eq!(back, r, "{json}");
    }
}

#[test]
fn the_reflection_is_typed() {
    use nvp4c::reflect::{BuiltIn, DescriptorType, ExecutionModel};
    let r = &reflected()[3];
    assert_eq!(r.entry_point.execution_model, ExecutionModel::Fragment);
    assert_eq!(
        r.textures[0].descriptor_type,
        DescriptorType::CombinedImageSampler
    );
    assert!(r
        .uniform_blocks
        .iter()
        .all(|b| b.descriptor_type == DescriptorType::UniformBuffer));
    let built_ins: Vec<BuiltIn> = r
        .outputs
        .iter()
        .chain(&r.inputs)
        .filter_map(|v| v.built_in)
        .collect();
    assert!(built_ins.contains(&BuiltIn::FragDepth) && built_ins.contains(&BuiltIn::FrontFacing));
    // program.local is a push constant, program.env[1] a specialization
    // constant: neither is a uniform block.
    assert!(r.uniform_blocks.is_empty());
    assert_eq!(
        r.push_constants.as_ref().unwrap().parameters[0].binding,
        "program.local[3]"
    );
    assert_eq!(r.specialization_constants[0].binding, "program.env[1]");
    let texel = compile(
        "!!NVfp4.0\nTXF result.color, fragment.texcoord[0], texture[1], BUFFER;\nEND\n",
        &Options::default(),
    );
    assert_eq!(
        texel.reflection.textures[0].descriptor_type,
        DescriptorType::UniformTexelBuffer
    );
    // The position-invariant program's position is Invariant, and the
    // reflection names the bindings the option reads and writes.
    let pi = &reflected()[1];
    let position = pi
        .outputs
        .iter()
        .find(|o| o.built_in == Some(BuiltIn::Position))
        .unwrap();
    assert!(position.invariant);
    assert_eq!(position.bindings, ["result.position"]);
    assert_eq!(pi.inputs[0].bindings, ["vertex.position"]);
    let state = &pi.uniform_blocks[0];
    let rows: Vec<&str> = state
        .parameters
        .iter()
        .map(|p| p.binding.as_str())
        .collect();
    assert!(rows.contains(&"state.matrix.mvp.row[3]"), "{rows:?}");
    assert!(rows.contains(&"state.clip[5].plane"), "{rows:?}");
}

#[test]
fn the_binding_layout_moves_sets_and_bindings() {
    let src = "!!NVfp4.0\nBUFFER b[] = { program.buffer[2][1] };\nTEMP t;\nTEX t, fragment.texcoord[0], texture[3], 2D;\nMUL t, t, program.local[0];\nADD t, t, b[0];\nADD result.color, t, state.fog.color;\nEND\n".to_string();
    let mut options = Options::default();
    options.layout.fragment.set = 3;
    options.layout.fragment.uniform_binding = 10;
    options.layout.fragment.texture_binding = 100;
    let r = compile(&src, &options).reflection;
    let blocks: Vec<(&str, u32, u32)> = r
        .uniform_blocks
        .iter()
        .map(|b| (b.binding_name.as_str(), b.set, b.binding))
        .collect();
    assert_eq!(
        blocks,
        [
            ("program.local", 3, 11),
            ("state", 3, 12),
            ("program.buffer[2]", 3, 15)
        ]
    );
    assert_eq!(
        (r.textures[0].unit, r.textures[0].set, r.textures[0].binding),
        (3, 3, 103)
    );
    // Options::descriptor_set overrides the layout's set.
    options.descriptor_set = Some(6);
    let r = compile(&src, &options).reflection;
    assert!(r.uniform_blocks.iter().all(|b| b.set == 6) && r.textures[0].set == 6);
    // The entry point is named as asked.
    options.entry_point = "shade".into();
    let spirv = compile(&src, &options).spirv;
    let m = module(&spirv);
    assert_eq!(
        m.entry_points[0].operands[2],
        Operand::LiteralString("shade".into())
    );
}

#[test]
fn specialization_constants_carry_spec_ids_and_defaults() {
    let mut options = Options::default();
    let mut s = Specialization::new(Param::Local(4), 20);
    s.default = [1, 2, 3, 4];
    options.layout.vertex.specialize.push(s);
    let c = compile(
        "!!NVvp4.0\nPARAM p = program.local[4];\nMOV result.position, p;\nEND\n",
        &options,
    );
    let m = module(&c.spirv);
    let mut ids = Vec::new();
    for a in &m.annotations {
        if let [Operand::IdRef(id), Operand::Decoration(Decoration::SpecId), Operand::LiteralBit32(spec)] =
            a.operands.as_slice()
        {
            let value = m
                .types_global_values
                .iter()
                .find(|i| i.result_id == Some(*id))
                .map(|i| i.operands.clone());
            ids.push((*spec, value));
        }
    }
    ids.sort_by_key(|(s, _)| *s);
    let want: Vec<(u32, Option<Vec<Operand>>)> = (0..4)
        .map(|k| (20 + k, Some(vec![Operand::LiteralBit32(k + 1)])))
        .collect();
    assert_eq!(ids, want);
    let s = &c.reflection.specialization_constants[0];
    assert_eq!(
        (s.binding.as_str(), s.names.as_slice()),
        ("program.local[4]", ["p".to_string()].as_slice())
    );
}

#[test]
fn options_that_cannot_be_satisfied_are_e0005() {
    let src = "!!NVfp4.0\nMOV result.color, program.local[0];\nEND\n";
    let mut twice = Options::default();
    twice
        .layout
        .fragment
        .specialize
        .push(Specialization::new(Param::Local(0), 0));
    twice
        .layout
        .fragment
        .specialize
        .push(Specialization::new(Param::Local(0), 8));
    let mut overlap = Options::default();
    overlap
        .layout
        .fragment
        .specialize
        .push(Specialization::new(Param::Local(0), 0));
    overlap
        .layout
        .fragment
        .specialize
        .push(Specialization::new(Param::Local(1), 3));
    let mut unnamed = Options::default();
    unnamed.entry_point = String::new();
    let mut clip = Options::default();
    clip.user_clip_planes = 7;
    let mut offset = Options::default();
    offset.layout.vertex.push_constant_offset = 4;
    for o in [twice, overlap, unnamed, clip, offset] {
        assert_eq!(errors(src, &o), ["E0005"]);
    }
}

#[test]
fn push_constants_fit_or_stay_uniform_blocks() {
    let src = "!!NVfp4.0\nPARAM l[] = { program.local[0..5] };\nPARAM e[] = { program.env[0..3] };\nINT TEMP i;\nFLR.S i, fragment.texcoord[0];\nADD result.color, l[i.x], e[i.x];\nEND\n";
    let mut options = Options::default();
    options.layout.fragment.push_constants = PushConstants::Fit;
    // 96 bytes of program.local fit in 128, 64 of program.env do not.
    let r = compile(src, &options).reflection;
    let pc = r.push_constants.unwrap();
    assert_eq!((pc.offset, pc.size, pc.members.len()), (0, 96, 1));
    assert_eq!(r.uniform_blocks[0].binding_name, "program.env");
    // With room for both, env follows local.
    options.device_limits.max_push_constants_size = 160;
    let pc = compile(src, &options).reflection.push_constants.unwrap();
    let members: Vec<(&str, u32)> = pc
        .members
        .iter()
        .map(|m| (m.name.as_str(), m.offset))
        .collect();
    assert_eq!(members, [("local", 0), ("env", 96)]);
    assert_eq!(pc.size, 160);
    // Forced, too large: E0820.
    options.layout.fragment.push_constants = PushConstants::EnvAndLocal;
    options.device_limits.max_push_constants_size = 128;
    assert_eq!(errors(src, &options), ["E0820"]);
}

#[test]
fn device_limits_load_from_vulkaninfo_json() {
    let root = env!("CARGO_MANIFEST_DIR");
    let text =
        std::fs::read_to_string(format!("{root}/tests/fixtures/device-limits/lavapipe.json"))
            .unwrap();
    let l = DeviceLimits::from_json(&text).unwrap();
    // The values vulkaninfo reported for lavapipe (Mesa 22.3).
    assert_eq!(
        (
            l.max_vertex_input_attributes,
            l.max_vertex_output_components,
            l.max_fragment_input_components,
            l.max_geometry_input_components,
            l.max_geometry_output_vertices,
            l.max_push_constants_size,
            l.max_per_stage_descriptor_samplers,
            l.max_clip_distances,
        ),
        (32, 128, 128, 64, 1024, 128, 32, 8)
    );
    // The older devsim layout, a bare limits object, and features.
    let devsim = r#"{"VkPhysicalDeviceProperties": {"limits": {"maxBoundDescriptorSets": 4}}, "VkPhysicalDeviceFeatures": {"geometryShader": false}}"#;
    let d = DeviceLimits::from_json(devsim).unwrap();
    assert_eq!(
        (d.max_bound_descriptor_sets, d.max_geometry_output_vertices),
        (4, 0)
    );
    let features = r#"{"capabilities": {"device": {"features": {"VkPhysicalDeviceFeatures": {"shaderClipDistance": false}}, "properties": {"VkPhysicalDeviceProperties": {"limits": {"maxClipDistances": 8}}}}}}"#;
    assert_eq!(
        DeviceLimits::from_json(features)
            .unwrap()
            .max_clip_distances,
        0
    );
    assert_eq!(
        DeviceLimits::from_json(r#"{"maxUniformBufferRange": "16384"}"#)
            .unwrap()
            .max_uniform_buffer_range,
        16384
    );
    for bad in [
        "not json",
        "[]",
        r#"{"limits": {}}"#,
        r#"{"maxClipDistances": 1.5}"#,
        r#"{"maxClipDistances": 5000000000}"#,
    ] {
        assert!(DeviceLimits::from_json(bad).is_err(), "{bad}");
    }
    // A lavapipe-sized device takes vertex.attrib[30]; the desktop default
    // (28 attributes) does not.
    let src = "!!NVvp4.0\nMOV result.position, vertex.attrib[30];\nEND\n";
    assert_eq!(errors(src, &Options::default()), ["E0811"]);
    let mut options = Options::default();
    options.device_limits = l;
    assert!(errors(src, &options).is_empty());
    let mut minimum = Options::default();
    minimum.device_limits = DeviceLimits::vulkan_minimum();
    assert_eq!(
        errors(
            "!!NVvp4.0\nMOV result.position, vertex.attrib[20];\nEND\n",
            &minimum
        ),
        ["E0811"]
    );
}

#[test]
fn position_invariance_and_fog_in_the_interpreter() {
    use nvp4c::interp::{self, floats, Inputs, RunOptions};
    let (program, _) = nvp4c::check(
        "!!NVvp4.0\nOPTION ARB_position_invariant;\nEND\n",
        &Options::default(),
    )
    .unwrap();
    let mut inputs = Inputs::default();
    inputs
        .set("vertex.attrib[0]", floats([1.0, 2.0, 3.0, 1.0]))
        .unwrap();
    // A scale by 2 in mvp, given as rows; plane 1 enabled (bit 1 of the w
    // bits of state.depth.range), plane 0 not.
    for r in 0..4 {
        let mut row = [0.0; 4];
        row[r] = if r == 3 { 1.0 } else { 2.0 };
        inputs
            .set(&format!("state.matrix.mvp.row[{r}]"), floats(row))
            .unwrap();
        let mut identity = [0.0; 4];
        identity[r] = 1.0;
        inputs
            .set(
                &format!("state.matrix.modelview.row[{r}]"),
                floats(identity),
            )
            .unwrap();
    }
    inputs
        .set("state.clip[0].plane", floats([1.0, 0.0, 0.0, 0.0]))
        .unwrap();
    inputs
        .set("state.clip[1].plane", floats([0.0, -1.0, 0.0, 0.5]))
        .unwrap();
    inputs.set("state.depth.range", [0, 0, 0, 0b10]).unwrap();
    let out = interp::run(&program, &inputs, &RunOptions::default()).unwrap();
    assert_eq!(
        out.results["result.position"].floats(),
        [2.0, 4.0, 6.0, 1.0]
    );
    assert_eq!(out.results["result.clip[0]"].floats()[0], 0.0);
    assert_eq!(out.results["result.clip[1]"].floats()[0], -1.5);
    let mut none = RunOptions::default();
    none.user_clip_planes = 0;
    let out = interp::run(&program, &inputs, &none).unwrap();
    assert!(!out.results.contains_key("result.clip[0]"));

    let (program, _) = nvp4c::check(
        "!!NVfp4.0\nOPTION ARB_fog_linear;\nMOV result.color, {1, 1, 1, 0.5};\nEND\n",
        &Options::default(),
    )
    .unwrap();
    let mut inputs = Inputs::default();
    inputs
        .set("fragment.fogcoord", floats([6.0, 0.0, 0.0, 0.0]))
        .unwrap();
    // start 2, end 10: f = (10 - 6) / 8 = 0.5.
    inputs
        .set("state.fog.params", floats([1.0, 2.0, 10.0, 0.125]))
        .unwrap();
    inputs
        .set("state.fog.color", floats([0.0, 0.5, 1.0, 0.0]))
        .unwrap();
    let out = interp::run(&program, &inputs, &RunOptions::default()).unwrap();
    assert_eq!(out.results["result.color"].floats(), [0.5, 0.75, 1.0, 0.5]);
}

// ---- the command line ----

fn nvp4c(args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_nvp4c"))
        .args(args)
        .arg("--color")
        .arg("never")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("nvp4c runs");
    drop(child.stdin.take());
    child.wait_with_output().unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("nvp4c-renderer-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(dir: &std::path::Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::File::create(&p)
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    p.to_str().unwrap().to_string()
}

#[test]
fn cli_reflect_json_loads_back_and_layout_flags_apply_per_stage() {
    let dir = scratch("layout");
    let fp = write(&dir, "t.fp", "!!NVfp4.0\nTEMP t;\nTEX t, fragment.texcoord[0], texture[0], 2D;\nMUL t, t, program.local[0];\nADD result.color, t, program.env[2];\nEND\n");
    let json = dir.join("t.json");
    let spv = dir.join("t.spv");
    let r = nvp4c(&[
        &fp,
        "-o",
        spv.to_str().unwrap(),
        "--reflect",
        json.to_str().unwrap(),
        "--uniform-binding-base",
        "fragment=8",
        "--uniform-binding-base",
        "vertex=100",
        "--texture-binding-base",
        "40",
        "--push-constants",
        "fp=local",
        "--push-constant-offset",
        "fragment=64",
        "--spec-constant",
        "fragment:program.env[2]=7",
        "--entry-point",
        "shade",
        "--descriptor-set",
        "0",
    ]);
    assert_eq!(
        r.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&r.stderr)
    );
    let text = std::fs::read_to_string(&json).unwrap();
    let reflection: Reflection = serde_json::from_str(&text).unwrap();
    assert_eq!(reflection.entry_point.name, "shade");
    assert_eq!(
        (reflection.textures[0].set, reflection.textures[0].binding),
        (0, 40)
    );
    let pc = reflection.push_constants.as_ref().unwrap();
    assert_eq!((pc.offset, pc.size), (64, 16));
    assert_eq!(
        reflection.specialization_constants[0].spec_ids,
        [7, 8, 9, 10]
    );
    assert!(reflection.uniform_blocks.is_empty(), "{text}");
    // The same as the library's.
    let mut options = Options::default();
    options.descriptor_set = Some(0);
    options.entry_point = "shade".into();
    options.layout.fragment.uniform_binding = 8;
    options.layout.fragment.texture_binding = 40;
    options.layout.fragment.push_constants = PushConstants::Local;
    options.layout.fragment.push_constant_offset = 64;
    options
        .layout
        .fragment
        .specialize
        .push(Specialization::new(Param::Env(2), 7));
    let lib = compile(&std::fs::read_to_string(&fp).unwrap(), &options).reflection;
    assert_eq!(reflection, lib);
}

#[test]
fn cli_debug_info_and_clip_space_flags() {
    let dir = scratch("debug");
    let vp = write(
        &dir,
        "p.vp",
        "!!NVvp4.0\nMOV result.position, vertex.position;\nEND\n",
    );
    let r = nvp4c(&[
        &vp,
        "-g",
        "--invert-y",
        "--depth-range",
        "gl",
        "--emit",
        "spvasm",
        "-o",
        "-",
    ]);
    assert_eq!(
        r.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&r.stderr)
    );
    let asm = String::from_utf8(r.stdout).unwrap();
    assert!(asm.contains("OpSource Unknown 0"), "{asm}");
    assert!(asm.contains("OpLine %"), "{asm}");
    assert!(asm.contains(&format!("OpString \"{vp}\"")), "{asm}");
    // The conversion: a negated y and (z + w) * 0.5.
    assert!(asm.contains("%float_0_5"), "{asm}");
    let plain = nvp4c(&[&vp, "--emit", "spvasm", "-o", "-"]);
    let plain = String::from_utf8(plain.stdout).unwrap();
    assert!(!plain.contains("OpLine") && !plain.contains("float_0_5"));
}

#[test]
fn cli_device_limits_come_from_a_file() {
    let dir = scratch("limits");
    let vp = write(
        &dir,
        "a.vp",
        "!!NVvp4.0\nMOV result.position, vertex.attrib[30];\nEND\n",
    );
    let out = dir.join("a.spv");
    let out = out.to_str().unwrap();
    let r = nvp4c(&[&vp, "-o", out]);
    assert_eq!(r.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&r.stderr).contains("E0811"));
    let lavapipe = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/device-limits/lavapipe.json"
    );
    let r = nvp4c(&[&vp, "-o", out, "--device-limits", lavapipe]);
    assert_eq!(
        r.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&r.stderr)
    );
    // An unreadable or malformed file is a usage error.
    let missing = dir.join("missing.json");
    let r = nvp4c(&[&vp, "-o", out, "--device-limits", missing.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(2));
    let bad = write(&dir, "bad.json", "{\"maxClipDistances\": \"many\"}");
    let r = nvp4c(&[&vp, "-o", out, "--device-limits", &bad]);
    assert_eq!(r.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&r.stderr).contains("maxClipDistances"));
    // A bad flag value too.
    let r = nvp4c(&[&vp, "-o", out, "--push-constants", "pixel=local"]);
    assert_eq!(r.status.code(), Some(2));
}

#[test]
fn precision_hint_fastest_relaxes_float_results_and_nicest_does_not() {
    let relaxed = |option: &str| {
        let src = format!(
            "!!NVfp4.0\nOPTION {option};\nTEMP t;\nINT TEMP i;\nMUL t, fragment.color, 2;\nFLR.S i, t;\nI2F t.x, i.x;\nADD result.color, t, 0.5;\nEND\n"
        );
        let m = module(&compile(&src, &Options::default()).spirv);
        m.annotations
            .iter()
            .filter(|a| {
                matches!(
                    a.operands.as_slice(),
                    [
                        Operand::IdRef(_),
                        Operand::Decoration(Decoration::RelaxedPrecision)
                    ]
                )
            })
            .count()
    };
    // MUL, I2F and ADD give floats; FLR.S an integer, which stays exact.
    assert_eq!(relaxed("ARB_precision_hint_fastest"), 3);
    assert_eq!(relaxed("ARB_precision_hint_nicest"), 0);
}

#[test]
fn the_json_example_in_docs_reflection_md_is_what_nvp4c_writes() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/reflection.md"))
        .unwrap();
    let block = |start: &str| {
        let i = doc.find(start).unwrap() + start.len();
        let j = doc[i..].find("\n```").unwrap();
        doc[i..i + j].to_string()
    };
    let program = block("## Example\n\n`nvp4c tint.fp --reflect tint.json` for\n\n```\n");
    let json = block("writes\n\n```json\n");
    let documented: Reflection = serde_json::from_str(&json).unwrap();
    let compiled = compile(&format!("{program}\n"), &Options::default());
    assert_eq!(documented, compiled.reflection);
}

/// The programs of spec-corpus/valid, tests/programs and the conformance
/// files' `[program]` sections (tests/conformance and its arb/), with their
/// names.
fn corpus() -> Vec<(String, String)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for dir in [
        "spec-corpus/valid",
        "tests/programs",
        "tests/conformance",
        "tests/conformance/arb",
    ] {
        for e in std::fs::read_dir(root.join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                continue;
            }
            let text = std::fs::read_to_string(&p).unwrap();
            let name = p.display().to_string();
            if p.extension().is_some_and(|x| x == "nvtest") {
                // The [program] section, up to its END.
                if let Some(i) = text.find("[program]\n") {
                    let body = &text[i + "[program]\n".len()..];
                    if let Some(end) = body.find("\nEND") {
                        out.push((name, format!("{}\nEND\n", &body[..end])));
                    }
                }
            } else {
                out.push((name, text));
            }
        }
    }
    out
}

#[test]
fn every_corpus_program_that_compiles_also_compiles_with_debug_info_and_optimised() {
    let mut checked = 0;
    for (name, src) in corpus() {
        if nvp4c::compile(&src, &Options::default()).is_err() {
            continue;
        }
        for optimize in [false, true] {
            let mut options = Options::default();
            options.debug_info = true;
            options.optimize = optimize;
            options.source_name = Some(name.clone());
            if let Err(d) = nvp4c::compile(&src, &options) {
                panic!("{name} (-O {optimize}):\n{}", d.render(&name, &src, false));
            }
        }
        checked += 1;
    }
    // 33 spec programs, 8 conformance files, tests/programs.
    assert!(checked >= 40, "{checked} programs");
}
