//! Reflection: what `compile` returns in `Compiled::reflection` and what
//! `nvp4c --reflect FILE` writes (docs/reflection.md).

use std::process::Command;

use nvp4c::reflect::{ComponentType, Interpolation, Reflection};

fn reflect(source: &str) -> Reflection {
    match nvp4c::compile(source, &nvp4c::Options::default()) {
        Ok(c) => c.reflection,
        Err(d) => panic!("{}", d.render("test", source, false)),
    }
}

/// A vertex program as Cg writes it for gp4vp (the `#var` comments).
const CG_VERTEX: &str = "!!NVvp4.0
# cgc version 2.2.0017, build date Jan 29 2010
#profile gp4vp
#program C5E2v_fragmentLighting
#semantic C5E2v_fragmentLighting.modelViewProj
#var float4 position : $vin.POSITION : ATTR0 : 0 : 1
#var float3 normal : $vin.NORMAL : ATTR2 : 1 : 1
#var float4 oPosition : $vout.POSITION : HPOS : 2 : 1
#var float3 objectPos : $vout.TEXCOORD0 : TEX0 : 3 : 1
#var float3 oNormal : $vout.TEXCOORD1 : TEX1 : 4 : 1
#var float4x4 modelViewProj :  : c[0], 4 : 5 : 1
#var float3 unused :  :  : 6 : 0
PARAM c[4] = { program.local[2..5] };
ATTRIB vertex_attrib[] = { vertex.attrib[0..2] };
OUTPUT result_texcoord[] = { result.texcoord[0..1] };
MOV.F result.texcoord[0].xyz, vertex.attrib[0];
MOV.F result.texcoord[1].xyz, vertex.attrib[2];
DP4.F result.position.w, vertex.attrib[0], c[3];
DP4.F result.position.z, vertex.attrib[0], c[2];
DP4.F result.position.y, vertex.attrib[0], c[1];
DP4.F result.position.x, vertex.attrib[0], c[0];
END
";

#[test]
fn cg_matrix_rows_resolve_through_the_param_array_to_program_local() {
    let r = reflect(CG_VERTEX);
    assert_eq!(r.stage, nvp4c::Stage::Vertex);
    assert_eq!(r.entry_point.name, "main");
    assert_eq!(
        r.entry_point.execution_model,
        nvp4c::reflect::ExecutionModel::Vertex
    );
    let [block] = r.uniform_blocks.as_slice() else {
        panic!("one block: {:?}", r.uniform_blocks)
    };
    assert_eq!(block.binding_name, "program.local");
    assert_eq!((block.set, block.binding), (0, 1));
    // Elements 0..=5 are declared (the highest reachable is 5).
    assert_eq!(block.size, 6 * 16);
    assert_eq!(block.members[0].array_length, Some(6));
    assert_eq!(block.members[0].array_stride, Some(16));
    let rows: Vec<(u32, u32, &str, Option<u32>)> = block
        .parameters
        .iter()
        .map(|p| (p.element, p.offset, p.cg[0].name.as_str(), p.cg[0].row))
        .collect();
    assert_eq!(
        rows,
        vec![
            (2, 32, "modelViewProj", Some(0)),
            (3, 48, "modelViewProj", Some(1)),
            (4, 64, "modelViewProj", Some(2)),
            (5, 80, "modelViewProj", Some(3)),
        ]
    );
    assert_eq!(block.parameters[1].names, vec!["c[1]"]);
    assert_eq!(block.parameters[1].binding, "program.local[3]");

    let cg = r.cg.as_ref().expect("Cg comments");
    assert_eq!(cg.profile.as_deref(), Some("gp4vp"));
    assert_eq!(cg.program.as_deref(), Some("C5E2v_fragmentLighting"));
    let mvp = cg
        .variables
        .iter()
        .find(|v| v.name == "modelViewProj")
        .unwrap();
    assert_eq!(
        mvp.bound_to,
        [
            "program.local[2]",
            "program.local[3]",
            "program.local[4]",
            "program.local[5]"
        ]
    );
    let unused = cg.variables.iter().find(|v| v.name == "unused").unwrap();
    assert!(!unused.referenced && unused.bound_to.is_empty());
}

#[test]
fn cg_varyings_map_onto_locations() {
    let r = reflect(CG_VERTEX);
    let input = |loc: u32| r.inputs.iter().find(|i| i.location == Some(loc)).unwrap();
    assert_eq!(input(0).cg[0].name, "position");
    assert_eq!(input(0).bindings, ["vertex.attrib[0]"]);
    assert_eq!(input(0).names, ["vertex_attrib"]);
    assert_eq!(input(2).cg[0].name, "normal");
    // Vertex inputs are not interpolated.
    assert_eq!(input(2).interpolation, None);
    let output = |loc: u32| r.outputs.iter().find(|o| o.location == Some(loc)).unwrap();
    assert_eq!(output(5).cg[0].name, "objectPos");
    assert_eq!(output(6).cg[0].name, "oNormal");
    assert_eq!(output(6).bindings, ["result.texcoord[1]"]);
    assert_eq!(output(5).interpolation, Some(Interpolation::Smooth));
    let position = r
        .outputs
        .iter()
        .find(|o| o.built_in == Some(nvp4c::reflect::BuiltIn::Position))
        .expect("Position");
    assert_eq!(position.cg[0].name, "oPosition");
    assert_eq!(position.location, None);
    // Locations first, in order, then built-ins.
    let order: Vec<Option<u32>> = r.outputs.iter().map(|o| o.location).collect();
    assert_eq!(order, [Some(5), Some(6), None]);
}

#[test]
fn env_and_local_blocks_with_direct_bindings() {
    let r = reflect(
        "!!NVfp4.0\nPARAM scale = program.env[3];\nTEMP t;\nMUL t, fragment.color, scale;\nADD result.color, t, program.local[1];\nEND\n",
    );
    let names: Vec<(&str, u32, u32, u32)> = r
        .uniform_blocks
        .iter()
        .map(|b| (b.binding_name.as_str(), b.set, b.binding, b.size))
        .collect();
    assert_eq!(
        names,
        [("program.env", 2, 0, 64), ("program.local", 2, 1, 32)]
    );
    let env = &r.uniform_blocks[0].parameters;
    assert_eq!(env.len(), 1);
    assert_eq!((env[0].element, env[0].offset), (3, 48));
    assert_eq!(env[0].names, ["scale"]);
    let local = &r.uniform_blocks[1].parameters;
    assert_eq!((local[0].element, local[0].offset), (1, 16));
    assert!(local[0].names.is_empty(), "a direct binding has no name");
    assert_eq!(r.limits.env_parameters, 4);
    assert_eq!(r.limits.local_parameters, 2);
    assert!(r.cg.is_none());
}

#[test]
fn fragment_inputs_carry_interpolation_and_type() {
    let r = reflect(
        "!!NVfp4.0\nFLAT ATTRIB c = fragment.color;\nNOPERSPECTIVE CENTROID ATTRIB t = fragment.texcoord[2];\nFLAT INT ATTRIB a = fragment.attrib[1];\nOUTPUT o = result.color;\nTEMP x;\nADD x, c, t;\nI2F x.y, a;\nADD o, x, fragment.position;\nEND\n",
    );
    let input = |loc: u32| r.inputs.iter().find(|i| i.location == Some(loc)).unwrap();
    assert_eq!(input(0).interpolation, Some(Interpolation::Flat));
    assert_eq!(input(0).names, ["c"]);
    assert_eq!(input(7).interpolation, Some(Interpolation::NoPerspective));
    assert!(input(7).centroid);
    assert_eq!(input(15).component_type, ComponentType::Int);
    assert_eq!(input(15).interpolation, Some(Interpolation::Flat));
    assert_eq!(input(15).components, 4);
    let frag_coord = r
        .inputs
        .iter()
        .find(|i| i.built_in == Some(nvp4c::reflect::BuiltIn::FragCoord))
        .unwrap();
    assert_eq!(frag_coord.bindings, ["fragment.position"]);
    assert_eq!(frag_coord.interpolation, None);
    assert_eq!(r.outputs[0].location, Some(0));
    assert_eq!(r.outputs[0].names, ["o"]);
    assert_eq!(r.outputs[0].interpolation, None);
    assert_eq!(r.entry_point.execution_modes, ["OriginUpperLeft"]);
}

#[test]
fn depth_output_and_limits() {
    let r = reflect(
        "!!NVfp4.0\nTEMP a, b[3];\nMOV a, fragment.color;\nMOVC a.x, a;\nIF GT.x;\nREP {2};\nADD a, a, 1.0;\nENDREP;\nELSE;\nMOV a, 0.5;\nENDIF;\nMOV result.color, a;\nMOV result.depth.z, a;\nEND\n",
    );
    assert!(r
        .entry_point
        .execution_modes
        .contains(&"DepthReplacing".to_string()));
    let depth = r
        .outputs
        .iter()
        .find(|o| o.built_in == Some(nvp4c::reflect::BuiltIn::FragDepth))
        .unwrap();
    assert_eq!(depth.bindings, ["result.depth"]);
    assert_eq!(
        (depth.component_type, depth.components),
        (ComponentType::Float, 1)
    );
    let l = &r.limits;
    assert_eq!((l.if_depth, l.loop_depth), (1, 1));
    assert_eq!(l.temporaries, 4);
    // MOV MOVC IF REP ADD ENDREP ELSE MOV ENDIF MOV MOV
    assert_eq!(l.instructions, 11);
    assert_eq!(l.subroutines, 1);
}

#[test]
fn cli_writes_the_reflection_as_json() {
    let dir = std::env::temp_dir().join(format!("nvp4c-reflect-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("prog.vp");
    std::fs::write(&input, CG_VERTEX).unwrap();
    let json_path = dir.join("prog.json");
    let out = Command::new(env!("CARGO_BIN_EXE_nvp4c"))
        .arg(&input)
        .arg("--reflect")
        .arg(&json_path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(dir.join("prog.spv").exists());
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&json_path).unwrap()).unwrap();
    assert_eq!(json["stage"], "vertex");
    assert_eq!(json["uniform_blocks"][0]["binding_name"], "program.local");
    assert_eq!(
        json["uniform_blocks"][0]["parameters"][0]["cg"][0]["name"],
        "modelViewProj"
    );
    assert_eq!(json["uniform_blocks"][0]["parameters"][0]["offset"], 32);
    assert_eq!(json["inputs"][0]["location"], 0);
    assert_eq!(json["inputs"][0]["component_type"], "float");
    assert_eq!(json["textures"], serde_json::json!([]));
    assert_eq!(json["geometry"], serde_json::Value::Null);
    assert_eq!(json["cg"]["profile"], "gp4vp");
    // It is the library's reflection, serialised.
    let lib = reflect(CG_VERTEX);
    assert_eq!(json, serde_json::to_value(&lib).unwrap());

    // A program with errors writes neither file.
    let bad = dir.join("bad.vp");
    std::fs::write(&bad, "!!NVvp4.0\nMOVV result.position, 1;\nEND\n").unwrap();
    let bad_json = dir.join("bad.json");
    let out = Command::new(env!("CARGO_BIN_EXE_nvp4c"))
        .arg(&bad)
        .arg("--reflect")
        .arg(&bad_json)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(!bad_json.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn state_rows_and_parameter_buffers_are_reflected_with_their_names() {
    let r = reflect(
        "!!NVvp4.0\n#var float4x4 mvp : state.matrix.mvp : c[0], 4 : 1 : 1\nPARAM c[4] = { state.matrix.mvp };\nPARAM l = state.light[1].diffuse;\nDP4 result.position.x, c[0], vertex.position;\nDP4 result.position.y, c[1], vertex.position;\nDP4 result.position.z, c[2], vertex.position;\nDP4 result.position.w, c[3], l;\nEND\n",
    );
    let state = r
        .uniform_blocks
        .iter()
        .find(|b| b.binding_name == "state")
        .expect("the State block");
    assert_eq!((state.set, state.binding), (0, 2));
    let row0 = &state.parameters[0];
    assert_eq!(row0.binding, "state.matrix.mvp.row[0]");
    assert_eq!(row0.names, ["c[0]"]);
    assert_eq!(row0.offset, 16 * row0.element);
    assert_eq!((row0.cg[0].name.as_str(), row0.cg[0].row), ("mvp", Some(0)));
    let light = state
        .parameters
        .iter()
        .find(|p| p.names == ["l"])
        .expect("the light row");
    assert_eq!(light.binding, "state.light[1].diffuse");
    // The block ends with the last row the program reads.
    assert_eq!(state.size, light.offset + 16);

    let r = reflect(
        "!!NVfp4.0\nOPTION NV_parameter_buffer_object;\nBUFFER4 buf[] = { program.buffer[2][4..7] };\nMOV result.color, buf[1];\nEND\n",
    );
    let [buffer] = r.uniform_blocks.as_slice() else {
        panic!("{:?}", r.uniform_blocks)
    };
    assert_eq!(buffer.binding_name, "program.buffer[2]");
    assert_eq!((buffer.set, buffer.binding), (2, 5));
    let p = buffer
        .parameters
        .iter()
        .find(|p| p.names == ["buf[1]"])
        .unwrap();
    assert_eq!(
        (p.binding.as_str(), p.element, p.offset),
        ("program.buffer[2][5]", 5, 80)
    );
}

#[test]
fn device_features_name_what_the_capabilities_need() {
    // LOAD through a GPU address: PhysicalStorageBufferAddresses needs
    // bufferDeviceAddress, the 64-bit address Int64 shaderInt64
    // (docs/interface.md, "GPU addresses").
    let src = "!!NVcp5.0
GROUP_SIZE 1;
LONG TEMP a;
TEMP t;
PK64.U a, program.env[0];
LOAD.U32 t, a.x;
STORE.U32 t, a.x;
END
";
    let mut options = nvp4c::Options::default();
    options.target_env = nvp4c::TargetEnv::Vulkan1_2;
    let r = match nvp4c::compile(src, &options) {
        Ok(c) => c.reflection,
        Err(d) => panic!("{}", d.render("test", src, false)),
    };
    assert_eq!(r.device_features, ["bufferDeviceAddress", "shaderInt64"]);
    let json = serde_json::to_value(&r).unwrap();
    assert_eq!(json["device_features"][0], "bufferDeviceAddress");
    // A program needing no feature leaves the field out.
    let plain = reflect("!!NVfp4.0\nMOV result.color, fragment.color;\nEND\n");
    assert!(plain.device_features.is_empty());
    let json = serde_json::to_value(&plain).unwrap();
    assert!(json.get("device_features").is_none());
}

#[test]
fn textures_and_limits_count_what_loop_bodies_use() {
    // A unit sampled only inside NV_fragment_program2's LOOP body is a
    // binding the renderer supplies; LOOP and ENDLOOP count as
    // instructions and as a loop level (ARB_fragment_program 3.11.2's
    // instruction count, NV_fragment_program2's MAX_PROGRAM_LOOP_DEPTH_NV).
    let r = reflect(
        "!!ARBfp1.0
OPTION NV_fragment_program2;
TEMP r;
MOV r, 0;
LOOP {2, 0, 1};
TEX r, fragment.texcoord[0], texture[3], CUBE;
ENDLOOP;
MOV result.color, r;
END
",
    );
    let units: Vec<(u32, Option<&str>)> = r
        .textures
        .iter()
        .map(|t| (t.unit, t.target.as_deref()))
        .collect();
    assert_eq!(units, [(3, Some("CUBE"))]);
    assert_eq!(r.limits.texture_units, 1);
    assert_eq!(r.limits.instructions, 5);
    assert_eq!(r.limits.loop_depth, 1);
}

#[test]
fn limits_count_instructions_and_subroutines_as_written_when_main_runs_on() {
    // Execution starts at `main:` and runs on past `foo:` (section 2.X.5);
    // the code it runs is lowered as one more subroutine, a copy, which
    // the limits do not count again: 5 instructions in 3 labelled parts.
    let r = reflect(
        "!!NVfp4.0
TEMP r;
f:
MOV r, 1;
RET;
main:
CAL f;
MOV result.color, r;
foo:
MOV result.color.x, 0;
END
",
    );
    assert_eq!((r.limits.instructions, r.limits.subroutines), (5, 3));
}
