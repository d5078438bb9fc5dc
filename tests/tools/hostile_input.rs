//! Hostile and extreme inputs through the library: each gives diagnostics
//! (or a module), never a panic, a stack overflow or run-away time. Sizes are
//! chosen so the debug-profile test stays within a few seconds; the release
//! figures for larger inputs are in docs/performance.md.

use nvp4c::{compile, compile_bytes, Diagnostics, Options};

fn errors(d: &Diagnostics) -> Vec<&'static str> {
    d.iter().filter(|d| d.is_error()).map(|d| d.code).collect()
}

fn run(source: &str) -> Result<nvp4c::Compiled, Diagnostics> {
    std::panic::catch_unwind(|| compile(source, &Options::default()))
        .unwrap_or_else(|_| panic!("compile panicked"))
}

#[test]
fn deeply_nested_ifs_give_one_e0506_and_no_stack_overflow() {
    let depth = 100_000;
    let mut s = String::from("!!NVfp4.0\nTEMP R0;\nMOVC R0, fragment.color;\n");
    s.push_str(&"IF GT.x;\n".repeat(depth));
    s.push_str(&"ENDIF;\n".repeat(depth));
    s.push_str("MOV result.color, R0;\nEND\n");
    let err = run(&s).expect_err("too deep");
    assert_eq!(errors(&err), ["E0506"]);
}

#[test]
fn deeply_nested_reps_give_one_e0507() {
    let depth = 100_000;
    let mut s = String::from("!!NVfp4.0\nTEMP R0;\nMOV R0, 0;\n");
    s.push_str(&"REP 2;\n".repeat(depth));
    s.push_str(&"ENDREP;\n".repeat(depth));
    s.push_str("MOV result.color, R0;\nEND\n");
    let err = run(&s).expect_err("too deep");
    assert_eq!(errors(&err), ["E0507"]);
}

#[test]
fn unbalanced_nesting_is_reported_not_recursed() {
    let mut s = String::from("!!NVfp4.0\nTEMP R0;\nMOVC R0, fragment.color;\n");
    s.push_str(&"IF GT.x;\nREP 2;\n".repeat(50_000));
    s.push_str("MOV result.color, R0;\nEND\n");
    let err = run(&s).expect_err("unbalanced");
    assert!(!errors(&err).is_empty());
}

#[test]
fn a_million_element_param_array_is_refused_quickly() {
    let n = 1_000_000;
    let mut s = format!("!!NVvp4.0\nPARAM c[{n}] = {{ ");
    for i in 0..n {
        if i > 0 {
            s.push(',');
        }
        s.push('1');
    }
    s.push_str(" };\nMOV result.position, c[0];\nEND\n");
    let t = std::time::Instant::now();
    let err = run(&s).expect_err("beyond MAX_PROGRAM_PARAMETERS_ARB");
    assert!(!errors(&err).is_empty());
    assert!(t.elapsed().as_secs() < 60, "took {:?}", t.elapsed());
}

#[test]
fn a_one_megabyte_line_compiles_and_its_errors_render_bounded() {
    // 1 MB of instructions on one line.
    let inst = "ADD R0, R0, {0.5}.x; ";
    let count = (1 << 20) / inst.len();
    let mut s = String::from("!!NVfp4.0\nTEMP R0;\nMOV R0, fragment.color; ");
    s.push_str(&inst.repeat(count));
    s.push_str("MOV result.color, R0;\nEND\n");
    let (program, _) = nvp4c::check(&s, &Options::default()).expect("valid");
    assert!(program.stage == nvp4c::Stage::Fragment);

    // The same line with a mistake at its end: the message shows a bounded
    // excerpt, not the megabyte.
    let bad = s.replace("MOV result.color, R0;", "MOV result.color, R9;");
    let err = nvp4c::check(&bad, &Options::default()).expect_err("R9 undeclared");
    assert_eq!(errors(&err), ["E0301"]);
    let text = err.render("long.fp", &bad, false);
    assert!(text.len() < 64 << 10, "rendered {} bytes", text.len());
}

#[test]
fn a_one_megabyte_comment_line_is_skipped() {
    let mut s = String::from("!!NVfp4.0\n#");
    s.push_str(&"x".repeat(1 << 20));
    s.push_str("\nMOV result.color, fragment.color;\nEND\n");
    run(&s).expect("valid");
}

#[test]
fn invalid_utf8_is_e0003() {
    for bytes in [
        &b"!!NVfp4.0\nMOV result.color, \xff;\nEND\n"[..],
        b"\xc3",
        b"!!NVfp4.0\n\xed\xa0\x80END\n",
        b"\xfe\xff!!NVfp4.0\nEND\n",
    ] {
        let err = std::panic::catch_unwind(|| compile_bytes(bytes, &Options::default()))
            .expect("no panic")
            .expect_err("invalid UTF-8");
        assert_eq!(errors(&err), ["E0003"], "{bytes:?}");
    }
}

#[test]
fn nul_bytes_are_diagnosed() {
    for s in [
        "\0",
        "!!NVfp4.0\0\nEND\n",
        "!!NVfp4.0\nMOV result.color, fragment.color;\0\nEND\n",
        "!!NVfp4.0\nMOV result.color,\0 fragment.color;\nEND\n",
        "!!NVfp4.0\nMOV result.color, fragment.color;\nEND\n\0",
    ] {
        let result = run(s);
        if let Err(err) = &result {
            assert!(!errors(err).is_empty(), "{s:?}");
            let _ = err.render("nul.fp", s, false);
        }
    }
    let err = run("!!NVfp4.0\nMOV result.color,\0 fragment.color;\nEND\n").expect_err("NUL");
    assert!(!errors(&err).is_empty());
}

#[test]
fn many_errors_are_bounded_in_time() {
    // 50 000 bad statements: every one is reported, linearly.
    let mut s = String::from("!!NVfp4.0\n");
    s.push_str(&"FOO R0, R1;\n".repeat(50_000));
    s.push_str("END\n");
    let err = run(&s).expect_err("unknown opcodes");
    assert!(!errors(&err).is_empty());
}

#[test]
fn oversized_sources_are_refused_before_any_work() {
    let mut options = Options::default();
    options.max_source_bytes = 1000;
    let s = format!(
        "!!NVfp4.0\n{}END\n",
        "MOV result.color, fragment.color;\n".repeat(100)
    );
    let err = compile(&s, &options).expect_err("too big");
    assert_eq!(errors(&err), ["E0004"]);
}

#[test]
fn a_64_megabyte_program_is_read_only_to_twice_the_instruction_limit() {
    // 2.6 million instructions, 40 times the default limit of 65 536: the
    // parse stops at instruction 4 × 65 536 + 1 with E0800 instead of
    // building a tree of the whole 64 MB (which took 10 s and 2.8 GB).
    let line = "ADD t, t, fragment.color;\n";
    let mut s = String::with_capacity(64 << 20);
    s.push_str("!!NVfp4.0\nTEMP t;\n");
    while s.len() < (64 << 20) - 64 {
        s.push_str(line);
    }
    s.push_str("MOV result.color, t;\nEND\n");
    let err = run(&s).expect_err("far past the instruction limit");
    assert_eq!(errors(&err), ["E0800"]);
    let d = err.iter().next().unwrap();
    let stop = d.primary_span().unwrap().start as usize;
    let limit = Options::default().limits.max_instructions as usize;
    let read = nvp4c::syntax::READ_PAST_LIMIT * limit;
    assert_eq!(stop, "!!NVfp4.0\nTEMP t;\n".len() + read * line.len());
}

/// Ten levels of four calls under `header`: the leaf `s0` is eight MADs,
/// level k calls level k-1 four times, each call wrapped by `wrap` (the
/// CAL lines in, the level's body out); the program calls `s9` once.
/// Compiled with `-O`, it must not be inlined (that would copy the leaf
/// 4^9 = 262 144 times) and compiles to a small module.
fn assert_call_chain_is_not_inlined(header: &str, wrap: impl Fn(&str) -> String) {
    let mut s = format!(
        "{header}TEMP r;\nMOV r, fragment.color;\nCAL s9;\nMOV result.color, r;\nRET;\ns0:\n"
    );
    s.push_str(&"MAD r, r, 0.5, 0.25;\n".repeat(8));
    s.push_str("RET;\n");
    for k in 1..10 {
        let calls = format!("CAL s{};\n", k - 1).repeat(4);
        s.push_str(&format!("s{k}:\n{}RET;\n", wrap(&calls)));
    }
    s.push_str("END\n");
    let mut options = Options::default();
    options.optimize = true;
    let (program, _) = nvp4c::check(&s, &options).expect("valid");
    assert!(!nvp4c::spirv::inlining_is_bounded(&program));
    let compiled = compile(&s, &options).expect("compiles and validates");
    assert!(compiled.spirv.len() < 10_000);
}

#[test]
fn deep_call_chains_do_not_make_the_optimiser_inline_exponentially() {
    // spirv-opt -O inlining this chain ran past a minute; `-O` inlines only
    // when that stays within bounds (spirv::inlining_is_bounded), so this
    // compiles in milliseconds.
    assert_call_chain_is_not_inlined("!!NVfp4.0\n", str::to_string);
}

#[test]
fn calls_inside_loop_bodies_count_towards_the_inlining_bound() {
    // The same chain, each level's four calls inside NV_fragment_program2's
    // LOOP/ENDLOOP: the calls a LOOP body makes are calls too, so `-O`
    // again declines to inline (it once counted only IF and REP bodies).
    assert_call_chain_is_not_inlined("!!ARBfp1.0\nOPTION NV_fragment_program2;\n", |calls| {
        format!("LOOP {{1, 0, 1}};\n{calls}ENDLOOP;\n")
    });
}

#[test]
fn optimising_constant_operands_with_float_controls_does_not_abort() {
    // SPIRV-Tools' constant propagation cannot fold Exp2, Log2, Pow, Sin and
    // UMax when the module declares float controls, and used to abort the
    // whole process on its "Unsettled value" assertion when their operands
    // were constants (spirv::optimize skips that pass for such modules).
    let mut options = Options::default();
    options.optimize = true;
    options.preserve_signed_zero_inf_nan = true;
    for op in [
        "EX2 result.color, r.x",
        "LG2 result.color, r.y",
        "POW result.color, r.x, r.y",
        "SCS result.color.xy, r.x",
    ] {
        let src = format!("!!ARBfp1.0\nTEMP r;\nMOV r, {{1.5, 2, 3, 4}};\n{op};\nEND\n");
        compile(&src, &options).unwrap_or_else(|d| panic!("{op}: {d:?}"));
    }
    // POPA's "is an address register on top" check (a slot index).
    let popa = "!!ARBvp1.0\nOPTION NV_vertex_program3;\nADDRESS a, b;\nPARAM c[8] = { program.local[0..7] };\nARL a, { 1, 2, 3, 4 };\nPUSHA a;\nPOPA b;\nMOV result.position, c[b.x];\nEND\n";
    compile(popa, &options).expect("PUSHA/POPA optimise");
}

#[test]
fn validation_is_on_by_default_and_rejects_a_broken_module() {
    // compile() hands out a module only after spirv-val accepts it
    // (E9000 otherwise), unless the caller sets `validate = false`.
    let options = Options::default();
    assert!(options.validate);
    let source = "!!NVfp4.0\nMUL result.color, fragment.color, 0.5;\nEND\n";
    let (program, _) = nvp4c::check(source, &options).expect("valid");
    let words = nvp4c::spirv::lower(&program, &options).expect("lowers");
    nvp4c::spirv::validate(&words, options.target_env).expect("valid module");
    // The same module with its id bound (header word 3) too small: every
    // id past it is invalid, and spirv-val must say so.
    let mut broken = words.clone();
    broken[3] = 2;
    assert!(nvp4c::spirv::validate(&broken, options.target_env).is_err());
    let mut truncated = words;
    truncated.truncate(truncated.len() - 3);
    assert!(nvp4c::spirv::validate(&truncated, options.target_env).is_err());
}

#[test]
fn a_megabyte_of_agal_tokens_is_checked_only_to_four_times_the_token_limit() {
    // 43 690 copies of `mov oc, v0`: far past AGAL2's 1024 tokens.
    let one = nvp4c::front::agal::assemble("mov oc, v0", nvp4c::Stage::Fragment, 2)
        .unwrap()
        .bytes;
    let mut bytes = one[..7].to_vec();
    for _ in 0..(1 << 20) / 24 {
        bytes.extend_from_slice(&one[7..]);
    }
    let start = std::time::Instant::now();
    let d = nvp4c::compile_bytes(&bytes, &nvp4c::Options::default()).unwrap_err();
    assert_eq!(errors(&d), ["E2062"]);
    assert!(start.elapsed().as_secs() < 10, "{:?}", start.elapsed());
}

#[test]
fn arbitrary_agal_bytes_give_diagnostics_not_panics() {
    // A cheap deterministic sweep over header-and-token corruptions (the
    // agal_bytes fuzz target does this at length).
    let base = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/agal/ruffle/misc_opcodes_fragment.agal"
    ))
    .unwrap();
    let mut state = 0x1234_5678u32;
    for i in 0..2000 {
        let mut bytes = base.clone();
        for _ in 0..1 + i % 4 {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            let at = 1 + (state as usize >> 8) % (bytes.len() - 1);
            bytes[at] = (state >> 24) as u8;
        }
        bytes.truncate(bytes.len() - (i % 30));
        let listing = nvp4c::source_listing(&bytes);
        if let Err(d) = nvp4c::compile_bytes(&bytes, &nvp4c::Options::default()) {
            assert!(
                !d.iter().any(|d| d.code.starts_with("E9")),
                "{}",
                d.render("x.agal", &listing, false)
            );
            let _ = d.render("x.agal", &listing, false);
        }
    }
}
