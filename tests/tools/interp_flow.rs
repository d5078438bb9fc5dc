//! Reference interpreter: flow control (section 2.X.5 and the IF, REP,
//! BRK, CONT, CAL, RET, KIL pseudocode), relative addressing (section
//! 2.X.4.2), bindings and inputs, geometry programs. Expected values are
//! worked out by hand from the spec text quoted in the comments.

use nvp4c::interp::{self, floats, ints, Inputs, InterpError, Outcome, RunOptions};

fn check(src: &str) -> nvp4c::ir::Program {
    nvp4c::check(src, &nvp4c::Options::default())
        .unwrap_or_else(|d| panic!("{}", d.render("test", src, false)))
        .0
}

fn run_opts(src: &str, inputs: &Inputs, options: &RunOptions) -> Outcome {
    interp::run(&check(src), inputs, options).unwrap_or_else(|e| panic!("{e}"))
}

fn run(src: &str, inputs: &Inputs) -> Outcome {
    run_opts(src, inputs, &RunOptions::default())
}

fn frag(body: &str, locals: &[[u32; 4]]) -> Outcome {
    let mut inputs = Inputs::default();
    for (i, v) in locals.iter().enumerate() {
        inputs.local.insert(i as u32, *v);
    }
    run(&format!("!!NVfp4.0\n{body}\nEND\n"), &inputs)
}

fn color(o: &Outcome) -> [f32; 4] {
    o.results["result.color"].floats()
}

// ---------------------------------------------------------------- IF

#[test]
fn nested_if_else_follows_the_condition_codes() {
    // CC0.x from local[0].x; the outer IF tests GT.x, the inner NE.y.
    let body = "TEMP t;\nMOV.CC t, program.local[0];\n\
        IF GT.x;\n  IF EQ.y;\n    MOV result.color, 1;\n  ELSE;\n    MOV result.color, 2;\n  ENDIF;\n\
        ELSE;\n  MOV result.color, 3;\nENDIF;";
    assert_eq!(
        color(&frag(body, &[floats([1.0, 0.0, 0.0, 0.0])])),
        [1.0; 4]
    );
    assert_eq!(
        color(&frag(body, &[floats([1.0, 5.0, 0.0, 0.0])])),
        [2.0; 4]
    );
    assert_eq!(
        color(&frag(body, &[floats([-1.0, 0.0, 0.0, 0.0])])),
        [3.0; 4]
    );
}

#[test]
fn if_passes_when_any_swizzled_component_passes() {
    // Section 2.X.5: "passes if and only if any of the four components
    // passes". CC0 = (-1, -1, -1, 1): GT.xyzx fails (none of x, y, z is
    // > 0); GT (all four) and GT.w pass through w.
    let body = "TEMP t;\nMOV.CC t, program.local[0];\nMOV result.color, 0;\n\
        IF GT.xyzx;\n  MOV result.color.x, 1;\nENDIF;\n\
        IF GT;\n  MOV result.color.y, 1;\nENDIF;\n\
        IF GT.w;\n  MOV result.color.z, 1;\nENDIF;";
    let o = frag(body, &[floats([-1.0, -1.0, -1.0, 1.0])]);
    assert_eq!(color(&o), [0.0, 1.0, 1.0, 0.0]);
    assert!(o.undefined.is_empty());
}

#[test]
fn branching_on_a_never_set_condition_code_is_undefined() {
    // Section 2.X.3.7: the condition codes "are undefined at the beginning
    // of program execution".
    let o = frag("IF EQ.x;\nMOV result.color, 1;\nENDIF;", &[]);
    assert_eq!(o.undefined.len(), 1);
    assert!(o.undefined[0].what.contains("IF"), "{:?}", o.undefined);
    // TR reads no flag: defined.
    let o = frag("IF TR.x;\nMOV result.color, 1;\nENDIF;", &[]);
    assert!(o.undefined.is_empty());
    assert_eq!(color(&o), [1.0; 4]);
}

// ---------------------------------------------------------------- REP

#[test]
fn rep_count_is_floored_once_and_non_positive_counts_skip() {
    // Section 2.X.8.Z, REP: floor(2.7) = 2 iterations; floor(-0.5) = -1
    // and 0.9 floors to 0: the block is skipped.
    let body = "TEMP n;\nMOV n, 0;\nREP program.local[0].x;\n  ADD n, n, 1;\nENDREP;\nMOV result.color, n;";
    assert_eq!(
        color(&frag(body, &[floats([2.7, 0.0, 0.0, 0.0])])),
        [2.0; 4]
    );
    assert_eq!(
        color(&frag(body, &[floats([-0.5, 0.0, 0.0, 0.0])])),
        [0.0; 4]
    );
    assert_eq!(
        color(&frag(body, &[floats([0.9, 0.0, 0.0, 0.0])])),
        [0.0; 4]
    );
    // An integer count.
    let body = "TEMP n;\nMOV n, 0;\nREP.S program.local[0].x;\n  ADD n, n, 1;\nENDREP;\nMOV result.color, n;";
    assert_eq!(color(&frag(body, &[ints([5, 0, 0, 0])])), [5.0; 4]);
}

#[test]
fn rep_count_is_loaded_once() {
    // Issue 17: "A program may overwrite the variable used to specify the
    // initial value of the loop counter inside the loop without affecting
    // the number of times the loop body is executed." 3 iterations add 3.
    let body = "TEMP c, n;\nMOV c, 3;\nMOV n, 0;\nREP c.x;\n  MOV c, 100;\n  ADD n, n, 1;\nENDREP;\nMOV result.color, n;";
    assert_eq!(color(&frag(body, &[])), [3.0; 4]);
}

#[test]
fn brk_and_cont_act_on_the_innermost_loop() {
    // Outer: 3 iterations; inner: 10 iterations but BRK once i reaches 2
    // (CC from SUB i - 2 >= 0), and CONT skips the odd-count add.
    // Per outer iteration the inner body runs with i = 0, 1, 2: adds to
    // `inner` for i = 0 and 1 (i = 2 breaks first). So inner = 3 * 2 = 6;
    // outer counts 3.
    let body = "TEMP i, inner, outer, t;\nMOV inner, 0;\nMOV outer, 0;\n\
        REP 3;\n  MOV i, 0;\n  REP 10;\n    SUB.CC t, i, 2;\n    BRK (GE.x);\n    ADD i, i, 1;\n    ADD inner, inner, 1;\n  ENDREP;\n  ADD outer, outer, 1;\nENDREP;\n\
        MOV result.color.x, inner;\nMOV result.color.y, outer;\n\
        MOV i, 0;\nMOV t, 0;\n\
        REP 6;\n  ADD i, i, 1;\n  MUL.CC t.y, i, 0.5;\n  FRC.CC t.z, t.y;\n  CONT (NE.z);\n  ADD t.w, t.w, 1;\nENDREP;\n\
        MOV result.color.z, t.w;\nMOV result.color.w, i;";
    // Second loop: i = 1..6; i * 0.5 has a fraction for odd i, so CONT skips
    // the add for i = 1, 3, 5: t.w counts i = 2, 4, 6 -> 3.
    assert_eq!(color(&frag(body, &[])), [6.0, 3.0, 3.0, 6.0]);
}

#[test]
fn rep_without_count_runs_until_brk() {
    let body = "TEMP n, t;\nMOV n, 0;\nREP;\n  ADD n, n, 1;\n  SUB.CC t, n, 4;\n  BRK (EQ.x);\nENDREP;\nMOV result.color, n;";
    assert_eq!(color(&frag(body, &[])), [4.0; 4]);
}

#[test]
fn an_endless_loop_stops_at_the_step_limit() {
    let src = "!!NVfp4.0\nTEMP t;\nMOV.CC t, 1;\nREP;\n  ADD t, t, 1;\n  BRK (FL);\nENDREP;\nMOV result.color, t;\nEND\n";
    let mut options = RunOptions::default();
    options.max_steps = 1000;
    options.trace = true;
    options.max_trace = 10;
    match interp::run(&check(src), &Inputs::default(), &options) {
        Err(InterpError::StepLimit { limit, partial }) => {
            assert_eq!(limit, 1000);
            assert_eq!(partial.steps, 1000);
            assert_eq!(partial.trace.len(), 10);
            assert!(partial.trace_truncated);
        }
        other => panic!("expected the step limit, got {other:?}"),
    }
}

// ---------------------------------------------------------------- CAL / RET

#[test]
fn execution_starts_at_main_and_subroutines_return() {
    // The example of section 2.X.5: square computes R0^2; main starts at
    // `main:` so the code before it runs only when called. 9^2 = 81.
    let src = "!!NVfp4.0\nTEMP R0;\nsquare:\n  MUL R0, R0, R0;\n  RET;\nmain:\n  MOV R0, 9.0;\n  CAL square;\n  MOV result.color, R0;\nEND\n";
    assert_eq!(color(&run(src, &Inputs::default())), [81.0; 4]);
}

#[test]
fn a_called_subroutine_returns_at_the_next_label_but_main_runs_through_labels() {
    // Section 2.X.8.Z, CAL: reaching "another instruction label before a
    // corresponding RET" returns "as though an unconditional RET
    // instruction were inserted immediately before the instruction label".
    // Section 2.X.5: without `main`, execution begins with the first
    // instruction and continues "until either a RET instruction is issued
    // in the main subroutine or the end of the program text is reached".
    //
    // The entry: x = 1; falls through label `a` (x = 2) and label `b`
    // (x = 4); there CAL a runs only `a` (x = 5), returning at label `b`;
    // the result is written and RET in the entry ends the program.
    let src = "!!NVfp4.0\nTEMP x;\nMOV x, 1;\n\
        a:\n  ADD x, x, 1;\n\
        b:\n  MUL x, x, 2;\n  IF TR;\n    CAL a;\n    MOV result.color, x;\n    RET;\n  ENDIF;\nEND\n";
    assert_eq!(color(&run(src, &Inputs::default())), [5.0; 4]);
}

#[test]
fn ret_leaves_nested_blocks_and_conditional_cal_ret() {
    // `f` loops 100 times but returns (RET (GT.x)) once n > 2, from inside
    // an IF inside a REP: n = 3. CAL g (FL) is never taken.
    let src = "!!NVfp4.0\nTEMP n, t;\n\
        f:\n  REP 100;\n    ADD n, n, 1;\n    SUB.CC t, n, 2;\n    IF TR;\n      RET (GT.x);\n    ENDIF;\n  ENDREP;\n  MOV n, -1;\n  RET;\n\
        g:\n  MOV n, 1000;\n  RET;\n\
        main:\n  MOV n, 0;\n  CAL f;\n  CAL g (FL);\n  MOV result.color, n;\nEND\n";
    assert_eq!(color(&run(src, &Inputs::default())), [3.0; 4]);
}

#[test]
fn ret_in_main_ends_the_program() {
    // RET with an empty call stack: "the program terminates normally".
    let src = "!!NVfp4.0\nMOV result.color, 1;\nRET;\nMOV result.color, 2;\nEND\n";
    assert_eq!(color(&run(src, &Inputs::default())), [1.0; 4]);
}

#[test]
fn recursion_is_allowed_up_to_the_call_depth() {
    // Section 2.X.5: "Subroutines may call any subroutine in the program,
    // including themselves". count(n): if n > 0 { acc += n; n -= 1;
    // count() }. 4 + 3 + 2 + 1 = 10 with 5 nested calls.
    let src = "!!NVfp4.0\nTEMP n, acc;\n\
        count:\n  MOV.CC n, n;\n  RET (LE.x);\n  ADD acc, acc, n;\n  SUB n, n, 1;\n  CAL count;\n  RET;\n\
        main:\n  MOV n, 4;\n  MOV acc, 0;\n  CAL count;\n  MOV result.color, acc;\nEND\n";
    let o = run(src, &Inputs::default());
    assert_eq!(color(&o), [10.0; 4]);
    assert!(o.undefined.is_empty());
}

#[test]
fn a_call_past_the_depth_limit_has_no_effect() {
    // With MAX_PROGRAM_CALL_DEPTH = 3: calls 1, 2 and 3 run (x = 1, 2, 3);
    // the fourth CAL finds 3 calls active. The spec leaves it undefined;
    // issue 38: "In the initial implementation of this extension, such
    // instructions will have no effect." So call 3 continues after its CAL
    // (y = 1), returns, call 2 continues (y = 2), then call 1 (y = 3).
    let src = "!!NVfp4.0\nTEMP x, y;\n\
        f:\n  ADD x, x, 1;\n  CAL f;\n  ADD y, y, 1;\n  RET;\n\
        main:\n  MOV x, 0;\n  MOV y, 0;\n  CAL f;\n  MOV result.color.x, x;\n  MOV result.color.y, y;\nEND\n";
    let mut options = RunOptions::default();
    options.max_call_depth = 3;
    let o = run_opts(src, &Inputs::default(), &options);
    assert_eq!(color(&o)[..2], [3.0, 3.0]);
    assert_eq!(o.undefined.len(), 1);
    assert!(o.undefined[0].what.contains("MAX_PROGRAM_CALL_DEPTH"));
}

// ---------------------------------------------------------------- KIL

#[test]
fn kil_with_an_operand_discards_on_any_negative_component() {
    let body = "MOV result.color, 1;\nKIL program.local[0];\nMOV result.color, 2;";
    let o = frag(body, &[floats([1.0, 0.0, -0.5, 2.0])]);
    assert!(o.killed);
    // KIL exits: the second MOV never runs.
    assert_eq!(color(&o), [1.0; 4]);
    // -0.0 is not negative.
    let o = frag(body, &[floats([1.0, -0.0, 0.0, 2.0])]);
    assert!(!o.killed);
    assert_eq!(color(&o), [2.0; 4]);
    // KIL.U never kills; KIL.S kills on a negative integer.
    let o = frag(
        "KIL.U program.local[0];\nMOV result.color, 1;",
        &[ints([-1; 4])],
    );
    assert!(!o.killed);
    let o = frag(
        "KIL.S program.local[0];\nMOV result.color, 1;",
        &[ints([0, 0, -1, 0])],
    );
    assert!(o.killed);
}

#[test]
fn kil_with_a_condition_code_test() {
    let body = "TEMP t;\nMOV.CC t, program.local[0];\nKIL LT.xyxy;\nMOV result.color, 1;";
    assert!(frag(body, &[floats([1.0, -1.0, 0.0, 0.0])]).killed);
    assert!(!frag(body, &[floats([1.0, 1.0, -1.0, 0.0])]).killed);
}

// ---------------------------------------------------------------- relative addressing

#[test]
fn relative_addressing_reads_the_element_and_clamps_outside_the_array() {
    // PARAM arr[4]; arr[A.x + 1] with A.x = 1 reads arr[2]. Out of range
    // is undefined in section 2.X.4.2; nvp4c clamps (docs/interface.md):
    // A.x = 7 -> 8 -> arr[3]; A.x = -5 -> -4 -> arr[0].
    let body = "PARAM arr[4] = { {10, 0, 0, 0}, {11, 0, 0, 0}, {12, 0, 0, 0}, {13, 0, 0, 0} };\n\
        INT TEMP A;\nMOV.S A, program.local[0];\n\
        MOV result.color.x, arr[A.x + 1].x;\nMOV result.color.y, arr[A.y + 1].x;\nMOV result.color.z, arr[A.z].x;\nMOV result.color.w, arr[A.w + 3].x;";
    let o = frag(body, &[ints([1, 7, -5, 0])]);
    assert_eq!(color(&o), [12.0, 13.0, 10.0, 13.0]);
    assert_eq!(o.notes.len(), 2, "{:?}", o.notes);
    assert!(o.notes[0].what.contains("clamps"));
    // The clamp is nvp4c's documented behaviour, not undefined data.
    assert_eq!(o.results["result.color"].undefined, 0);
}

#[test]
fn relative_addressing_of_local_parameters_and_temporary_arrays() {
    // PARAM p[] = { program.local[0..2] }: p[A.x] reads local[A.x].
    // A TEMP array is written and read at run-time indices.
    let body = "PARAM p[] = { program.local[0..2] };\nINT TEMP A;\nTEMP arr[3];\n\
        MOV.S A, {2, 0, 1, 0};\n\
        MOV arr[A.x], p[A.y];\nMOV arr[A.y], p[A.z];\nMOV arr[A.z], p[A.x];\n\
        ADD result.color, arr[2], arr[0];\nMUL result.color.w, arr[1].x, 10;";
    let o = frag(
        body,
        &[
            floats([1.0, 2.0, 3.0, 4.0]),
            floats([10.0, 20.0, 30.0, 40.0]),
            floats([100.0, 200.0, 300.0, 400.0]),
        ],
    );
    // arr[2] = local[0], arr[0] = local[1], arr[1] = local[2].
    assert_eq!(color(&o), [11.0, 22.0, 33.0, 1000.0]);
}

#[test]
fn relative_addressing_of_result_arrays() {
    // A vertex program writing result.texcoord[A.x] through an OUTPUT array.
    let src = "!!NVvp4.0\nOUTPUT tc[] = { result.texcoord[0..3] };\nINT TEMP A;\n\
        MOV.S A, vertex.attrib[1];\nMOV tc[A.x], {1, 2, 3, 4};\nMOV tc[A.y + 1], 5;\nMOV result.position, 0;\nEND\n";
    let mut inputs = Inputs::default();
    inputs
        .attribs
        .insert("vertex.attrib[1]".into(), ints([2, 0, 0, 0]));
    let o = run(src, &inputs);
    assert_eq!(
        o.results["result.texcoord[2]"].floats(),
        [1.0, 2.0, 3.0, 4.0]
    );
    assert_eq!(o.results["result.texcoord[1]"].floats(), [5.0; 4]);
    assert_eq!(o.results["result.texcoord[0]"].written, 0);
    assert_eq!(o.results["result.texcoord[3]"].written, 0);
}

#[test]
fn a_relative_read_outside_the_array_is_clamped_or_undefined_as_asked() {
    // Section 2.X.4.2 leaves a read outside the array undefined; nvp4c
    // clamps the index (docs/semantics.md), and the interpreter does the
    // same unless asked to read the specification strictly.
    let src = "!!ARBvp1.0\nADDRESS A0;\nPARAM c[2] = { {1, 2, 3, 4}, {5, 6, 7, 8} };\n\
        ARL A0.x, vertex.attrib[9].x;\nMOV result.texcoord[0], c[A0.x + 1];\n\
        MOV result.texcoord[1], c[0];\nMOV result.position, 0;\nEND\n";
    let mut inputs = Inputs::default();
    inputs.set("vertex.attrib[9]", floats([4.0; 4])).unwrap();
    let clamped = run(src, &inputs);
    assert_eq!(
        clamped.results["result.texcoord[0]"].floats(),
        [5.0, 6.0, 7.0, 8.0]
    );
    assert_eq!(clamped.results["result.texcoord[0]"].defined(), 0xf);
    let mut strict = RunOptions::default();
    strict.out_of_range_undefined = true;
    let o = run_opts(src, &inputs, &strict);
    assert_eq!(o.results["result.texcoord[0]"].defined(), 0);
    assert_eq!(o.results["result.texcoord[1]"].defined(), 0xf);
    // Inside the array, the strict reading changes nothing.
    inputs.set("vertex.attrib[9]", floats([0.0; 4])).unwrap();
    let o = run_opts(src, &inputs, &strict);
    assert_eq!(
        o.results["result.texcoord[0]"].floats(),
        [5.0, 6.0, 7.0, 8.0]
    );
    assert_eq!(o.results["result.texcoord[0]"].defined(), 0xf);
}

// ---------------------------------------------------------------- inputs and bindings

#[test]
fn inputs_by_binding_name_env_local_state_and_aliases() {
    // vertex.position is vertex.attrib[0] (docs/interface.md aliasing), so
    // an input given as either name reaches both.
    let src = "!!NVvp4.0\nPARAM row = state.matrix.mvp.row[1];\n\
        MOV result.position, vertex.attrib[0];\n\
        ADD result.texcoord[0], program.env[3], program.local[0];\n\
        MOV result.texcoord[1], row;\nMOV result.texcoord[2], vertex.texcoord[1];\nEND\n";
    let mut inputs = Inputs::default();
    inputs
        .set("vertex.position", floats([1.0, 2.0, 3.0, 1.0]))
        .unwrap();
    inputs.set("program.env[3]", floats([0.5; 4])).unwrap();
    inputs.set("program.local[0]", floats([0.25; 4])).unwrap();
    inputs
        .set("state.matrix.mvp.row[1]", floats([0.0, 1.0, 0.0, 0.0]))
        .unwrap();
    inputs.set("vertex.attrib[9]", floats([7.0; 4])).unwrap();
    let o = run(src, &inputs);
    assert_eq!(o.results["result.position"].floats(), [1.0, 2.0, 3.0, 1.0]);
    assert_eq!(o.results["result.texcoord[0]"].floats(), [0.75; 4]);
    assert_eq!(
        o.results["result.texcoord[1]"].floats(),
        [0.0, 1.0, 0.0, 0.0]
    );
    // vertex.texcoord[1] is vertex.attrib[9].
    assert_eq!(o.results["result.texcoord[2]"].floats(), [7.0; 4]);
    assert!(inputs.set("program.env[x]", [0; 4]).is_err());
    assert!(inputs.set("nonsense", [0; 4]).is_err());
}

#[test]
fn missing_inputs_read_as_zero() {
    let o = frag(
        "ADD result.color, fragment.texcoord[3], program.env[7];",
        &[],
    );
    assert_eq!(color(&o), [0.0; 4]);
    assert_eq!(o.results["result.color"].undefined, 0);
}

#[test]
fn parameter_buffers_read_words() {
    // NV_parameter_buffer_object section 2.X.3.6: a BUFFER element is one
    // word broadcast to all components; a BUFFER4 element is four words.
    let src = "!!NVfp4.0\nOPTION NV_parameter_buffer_object;\n\
        BUFFER b[] = { program.buffer[0] };\nBUFFER4 v[] = { program.buffer[1] };\n\
        MOV result.color[0], b[2];\nMOV result.color[1], v[1];\nEND\n";
    let src = src.replace("!!NVfp4.0\n", "!!NVfp4.0\nOPTION ARB_draw_buffers;\n");
    let mut inputs = Inputs::default();
    inputs
        .buffers
        .insert(0, floats([1.0, 2.0, 3.0, 4.0]).to_vec());
    inputs
        .buffers
        .insert(1, (0..8).map(|k| (k as f32).to_bits()).collect());
    let o = run(&src, &inputs);
    assert_eq!(o.results["result.color"].floats(), [3.0; 4]);
    assert_eq!(o.results["result.color[1]"].floats(), [4.0, 5.0, 6.0, 7.0]);
}

#[test]
fn attribute_inputs_lists_what_the_program_reads() {
    let p = check("!!NVfp4.0\nADD result.color, fragment.texcoord[1], fragment.color;\nEND\n");
    assert_eq!(
        interp::attribute_inputs(&p),
        vec![
            "fragment.color".to_string(),
            "fragment.texcoord[1]".to_string()
        ]
    );
}

// ---------------------------------------------------------------- geometry

#[test]
fn geometry_programs_emit_vertices_and_primitives() {
    // Each EMIT takes the current results; ENDPRIM starts a new primitive;
    // after EMIT the results are undefined again (NV_geometry_program4).
    let src =
        "!!NVgp4.0\nPRIMITIVE_IN TRIANGLES;\nPRIMITIVE_OUT TRIANGLE_STRIP;\nVERTICES_OUT 4;\n\
        ATTRIB p = vertex.position;\nINT TEMP v;\nMOV.S v, 0;\n\
        REP 3;\n  MOV result.position, p[v.x];\n  EMIT;\n  ADD.S v, v, 1;\nENDREP;\n\
        ENDPRIM;\nMOV result.position, vertex[2].position;\nEMIT;\nEND\n";
    let mut inputs = Inputs::default();
    for k in 0..3u32 {
        inputs
            .attribs
            .insert(format!("vertex[{k}].position"), floats([k as f32; 4]));
    }
    let o = run(src, &inputs);
    assert_eq!(o.vertices.len(), 4);
    let pos: Vec<f32> = o
        .vertices
        .iter()
        .map(|v| v.results["result.position"].floats()[0])
        .collect();
    assert_eq!(pos, [0.0, 1.0, 2.0, 2.0]);
    let prims: Vec<u32> = o.vertices.iter().map(|v| v.primitive).collect();
    assert_eq!(prims, [0, 0, 0, 1]);
    assert_eq!(
        o.results["result.position"].written, 0,
        "undefined after EMIT"
    );
    assert!(o.undefined.is_empty());
}

// ---------------------------------------------------------------- trace

#[test]
fn the_trace_records_writes_flow_and_condition_codes() {
    let src = "!!NVfp4.0\nTEMP t;\nMOV.CC t.xy, {-1, 2, 3, 4};\nIF LT.x;\nMOV result.color, t;\nENDIF;\nEND\n";
    let mut options = RunOptions::default();
    options.trace = true;
    let o = run_opts(src, &Inputs::default(), &options);
    assert_eq!(o.trace.len(), 3);
    assert_eq!(o.trace[0].what, "MOV.CC0");
    let w = o.trace[0].write.as_ref().unwrap();
    assert_eq!((w.target.as_str(), w.mask), ("t", 0b0011));
    assert_eq!(w.bits[..2], [(-1.0f32).to_bits(), 2.0f32.to_bits()]);
    let cc = o.trace[0].cc.as_ref().unwrap();
    assert_eq!(cc.mask, 0b0011);
    assert!(cc.flags[0].sf && !cc.flags[1].sf);
    assert_eq!(o.trace[1].what, "IF: condition true");
    assert_eq!(o.steps, 3);
    // Spans point into the source.
    assert_eq!(&src[o.trace[1].span.range()], "IF LT.x");
}

#[test]
fn result_lookup_accepts_other_spellings() {
    let o = frag("MOV result.color[0], 1;", &[]);
    assert_eq!(o.result("result.color[0]").unwrap().floats(), [1.0; 4]);
    assert_eq!(o.result("result.color").unwrap().floats(), [1.0; 4]);
    let vp = "!!NVvp4.0\nMOV result.color.front.primary, 2;\nMOV result.position, 0;\nEND\n";
    let o = run(vp, &Inputs::default());
    assert_eq!(o.result("result.color.primary").unwrap().floats(), [2.0; 4]);
    assert!(o.result("result.color.secondary").is_none());
}

#[test]
fn emit_past_vertices_out_is_dropped_and_reported() {
    // NV_geometry_program4: past the vertex limit, EMIT "may or may not
    // have any effect"; the interpreter drops the vertex and reports it.
    let src = "!!NVgp4.0\nPRIMITIVE_IN POINTS;\nPRIMITIVE_OUT POINTS;\nVERTICES_OUT 2;\n\
        REP 3;\n  MOV result.position, vertex[0].position;\n  EMIT;\nENDREP;\nEND\n";
    let o = run(src, &Inputs::default());
    assert_eq!(o.vertices.len(), 2);
    assert_eq!(o.undefined.len(), 1);
    assert!(o.undefined[0].what.contains("VERTICES_OUT"));
}
