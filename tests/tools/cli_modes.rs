//! Batch and check modes, and what the command says about itself (issue 12,
//! item 10): `--out-dir`, `--check`, completions, the man page, `--help`,
//! `--version`, `--explain`, `--stdin-name`, no binary on a terminal.

use super::cli::{nvp4c, scratch, words, VALID};
use std::path::Path;
use std::process::Command;

const VP: &str = "!!NVvp4.0\nMOV result.position, vertex.position;\nMOV result.texcoord[0], vertex.texcoord[0];\nEND\n";
const FP: &str = "!!NVfp4.0\nMOV result.color, fragment.texcoord[0];\nEND\n";
const BAD: &str = "!!NVfp4.0\nMOVV result.color, fragment.color;\nEND\n";

/// The binary with exactly these arguments (no `--color`).
fn plain(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_nvp4c"))
        .args(args)
        .output()
        .expect("nvp4c runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn write(dir: &Path, name: &str, source: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, source).unwrap();
    p.display().to_string()
}

#[test]
fn batch_mode_writes_each_output_into_out_dir_and_exits_with_the_worst_code() {
    let dir = scratch("batch");
    let a_vp = write(&dir, "a.vp", VP);
    let a_fp = write(&dir, "a.fp", FP);
    let bad = write(&dir, "bad.fp", BAD);
    let out = dir.join("out");
    let _ = std::fs::remove_dir_all(&out);
    let r = nvp4c(
        &[&a_vp, &a_fp, &bad, "--out-dir", out.to_str().unwrap()],
        None,
    );
    let err = text(&r.stderr);
    assert_eq!(r.status.code(), Some(1), "{err}");
    // Named after the whole input name, so a.vp and a.fp do not collide.
    for name in ["a.vp.spv", "a.fp.spv"] {
        let spv = std::fs::read(out.join(name)).unwrap();
        assert_eq!(words(&spv)[0], 0x0723_0203, "{name}");
    }
    assert!(!out.join("bad.fp.spv").exists());
    assert!(err.contains("error[E0400]"), "{err}");
    assert!(
        err.contains("3 programs: 2 compiled, 1 failed (1 error, 0 warnings)"),
        "{err}"
    );
    // Without a terminal there is no progress bar: no escape sequences.
    assert!(!err.contains('\x1b'), "{err:?}");
    // All good: exit code 0.
    let r = nvp4c(&[&a_vp, &a_fp, "--out-dir", out.to_str().unwrap()], None);
    assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
}

#[test]
fn batch_mode_without_out_dir_refuses_two_inputs_with_one_output_name() {
    let dir = scratch("batch-clash");
    let a_vp = write(&dir, "a.vp", VP);
    let a_fp = write(&dir, "a.fp", FP);
    let r = nvp4c(&[&a_vp, &a_fp], None);
    let err = text(&r.stderr);
    assert_eq!(r.status.code(), Some(2), "{err}");
    assert!(err.contains("--out-dir"), "{err}");
    assert!(!dir.join("a.spv").exists());
    // -o names one output; standard input cannot be one of several.
    assert_eq!(
        nvp4c(&[&a_vp, &a_fp, "-o", "x.spv"], None).status.code(),
        Some(2)
    );
    assert_eq!(nvp4c(&[&a_vp, "-"], Some(b"")).status.code(), Some(2));
}

#[test]
fn two_inputs_with_one_name_into_an_out_dir_not_made_yet_are_refused() {
    let dir = scratch("batch-same-name");
    std::fs::create_dir_all(dir.join("x")).unwrap();
    std::fs::create_dir_all(dir.join("y")).unwrap();
    let a = write(&dir, "x/p.fp", FP);
    let b = write(&dir, "y/p.fp", FP);
    let out = dir.join("new").join("spv");
    let _ = std::fs::remove_dir_all(dir.join("new"));
    let r = nvp4c(&[&a, &b, "--out-dir", out.to_str().unwrap()], None);
    assert_eq!(r.status.code(), Some(2), "{}", text(&r.stderr));
    assert!(
        text(&r.stderr).contains(&format!(
            "the module of {a} and the module of {b} would both be written to"
        )),
        "{}",
        text(&r.stderr)
    );
    assert!(!dir.join("new").exists());
}

#[test]
fn batch_mode_compiles_many_inputs_and_an_unreadable_one_gives_exit_code_2() {
    let dir = scratch("batch-many");
    let mut inputs: Vec<String> = (0..24)
        .map(|i| write(&dir, &format!("p{i}.fp"), FP))
        .collect();
    inputs.push(dir.join("missing.fp").display().to_string());
    let mut args: Vec<&str> = inputs.iter().map(String::as_str).collect();
    args.push("--check");
    let r = nvp4c(&args, None);
    let err = text(&r.stderr);
    assert_eq!(r.status.code(), Some(2), "{err}");
    assert!(err.contains("cannot read"), "{err}");
    assert!(err.contains("25 programs: 24 checked, 1 failed"), "{err}");
    // Check mode wrote nothing.
    assert!(!dir.join("p0.spv").exists());
}

#[test]
fn check_mode_validates_and_writes_nothing() {
    let dir = scratch("check");
    let fp = write(&dir, "prog.fp", FP);
    let r = nvp4c(&["-c", &fp], None);
    assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
    assert!(r.stdout.is_empty() && r.stderr.is_empty());
    assert!(!dir.join("prog.spv").exists());
    let bad = write(&dir, "bad.fp", BAD);
    let r = nvp4c(&["--check", &bad], None);
    assert_eq!(r.status.code(), Some(1));
    // --check and -o contradict each other.
    assert_eq!(
        nvp4c(&["-c", &fp, "-o", "x.spv"], None).status.code(),
        Some(2)
    );
}

#[test]
fn completions_are_printed_for_bash_zsh_and_fish() {
    for shell in ["bash", "zsh", "fish"] {
        let r = plain(&["completions", shell]);
        assert_eq!(r.status.code(), Some(0), "{shell}");
        let script = text(&r.stdout);
        assert!(script.contains("nvp4c"), "{shell}");
        assert!(
            script.contains("message-format"),
            "{shell}: options are completed"
        );
    }
    assert_eq!(plain(&["completions", "tcsh"]).status.code(), Some(2));
}

#[test]
fn the_man_page_is_roff_with_every_option() {
    let r = plain(&["man"]);
    assert_eq!(r.status.code(), Some(0));
    let page = text(&r.stdout);
    assert!(page.contains(".TH nvp4c 1"), "{page}");
    for option in [
        "out\\-dir",
        "explain",
        "deny\\-warnings",
        "message\\-format",
    ] {
        assert!(page.contains(option), "{option} missing from the man page");
    }
    let r = plain(&["man", "link"]);
    assert!(
        text(&r.stdout).contains(".TH nvp4c-link"),
        "{}",
        text(&r.stdout)
    );
    assert_eq!(plain(&["man", "nope"]).status.code(), Some(2));
}

#[test]
fn help_shows_examples_and_version_the_commit_and_spirv_tools() {
    let r = plain(&["--help"]);
    assert_eq!(r.status.code(), Some(0));
    let help = text(&r.stdout);
    assert!(
        help.contains("Examples:") && help.contains("--out-dir"),
        "{help}"
    );
    let r = plain(&["--version"]);
    let version = text(&r.stdout);
    assert!(version.starts_with(&format!("nvp4c {}", env!("CARGO_PKG_VERSION"))));
    assert!(version.contains("SPIRV-Tools v"), "{version}");
    // In a git checkout the commit is named.
    let head = Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output();
    if let Ok(head) = head {
        if head.status.success() {
            let hash = text(&head.stdout).trim().to_string();
            assert!(
                version.contains(&format!("(git {hash})")),
                "{version} vs {hash}"
            );
        }
    }
}

#[test]
fn explain_prints_the_rule_an_example_and_its_report() {
    let r = plain(&["--explain", "E0404"]);
    assert_eq!(r.status.code(), Some(0));
    let out = text(&r.stdout);
    let info = nvp4c::codes::lookup("E0404").unwrap();
    assert!(out.contains(info.title) && out.contains(info.rule), "{out}");
    assert!(out.contains("ADD.HI"), "the example program: {out}");
    assert!(out.contains("error[E0404]"), "the example's report: {out}");
    // Warnings say how to control them; codes are case-insensitive.
    let out = text(&plain(&["--explain", "w0002"]).stdout);
    assert!(
        out.contains("-A W0002") && out.contains("-D W0002"),
        "{out}"
    );
    assert_eq!(plain(&["--explain", "E9999"]).status.code(), Some(2));
    // Every code explains.
    for c in nvp4c::codes::CODES {
        let r = plain(&["--explain", c.code]);
        assert_eq!(r.status.code(), Some(0), "{}", c.code);
    }
}

#[test]
fn stdin_name_names_standard_input_in_messages() {
    let r = nvp4c(&["-", "--stdin-name", "shader.cg"], Some(BAD.as_bytes()));
    let err = text(&r.stderr);
    assert_eq!(r.status.code(), Some(1));
    assert!(err.contains("--> shader.cg:2:1"), "{err}");
    assert!(!err.contains("<stdin>"), "{err}");
}

#[cfg(target_os = "linux")]
#[test]
fn binary_spirv_is_refused_on_a_terminal_but_spvasm_is_not() {
    // util-linux's script(1) gives the command a terminal.
    let dir = scratch("tty");
    let fp = write(&dir, "prog.fp", VALID);
    let run = |extra: &str| {
        let line = format!(
            "{} {fp} -o - {extra}; echo exit=$?",
            env!("CARGO_BIN_EXE_nvp4c")
        );
        let out = Command::new("script")
            .args(["-q", "-e", "-c", &line, "/dev/null"])
            .output()
            .expect("script(1) from util-linux");
        text(&out.stdout)
    };
    let binary = run("");
    assert!(binary.contains("exit=2"), "{binary}");
    assert!(
        binary.contains("refusing to write binary SPIR-V to a terminal"),
        "{binary}"
    );
    let asm = run("--emit spvasm");
    assert!(
        asm.contains("exit=0") && asm.contains("OpEntryPoint"),
        "{asm}"
    );
}

#[cfg(target_os = "linux")]
#[test]
fn batch_mode_on_a_terminal_draws_a_progress_bar_and_clears_it() {
    let dir = scratch("tty-batch");
    let a = write(&dir, "a.fp", FP);
    let b = write(&dir, "b.fp", FP);
    let line = format!("{} {a} {b} -c; echo exit=$?", env!("CARGO_BIN_EXE_nvp4c"));
    let out = Command::new("script")
        .args(["-q", "-e", "-c", &line, "/dev/null"])
        .output()
        .expect("script(1) from util-linux");
    let shown = text(&out.stdout);
    assert!(shown.contains("exit=0"), "{shown}");
    // The bar (`░░░ 0/2`), erased again (`ESC [2K`) before the summary.
    assert!(shown.contains(" 0/2"), "{shown:?}");
    let summary = shown
        .find("2 programs: 2 checked, 0 failed")
        .expect("the summary");
    let erased = shown.rfind("\x1b[2K").expect("the bar is erased");
    assert!(erased < summary, "{shown:?}");
}

#[test]
fn link_takes_the_compile_options() {
    let dir = scratch("link-options");
    let vp = write(&dir, "shade.vp", VP);
    let fp = write(
        &dir,
        "shade.fp",
        "!!NVfp4.0\nMOV result.color, fragment.texcoord[1];\nEND\n",
    );
    let r = nvp4c(
        &[
            "link",
            &vp,
            &fp,
            "--message-format",
            "json",
            "--target-env",
            "vulkan1.2",
            "--descriptor-set",
            "3",
            "-O",
        ],
        None,
    );
    assert_eq!(r.status.code(), Some(1));
    let err = text(&r.stderr);
    let records: Vec<serde_json::Value> = err
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert_eq!(records.len(), 1, "{err}");
    assert_eq!(records[0]["code"], "E1000");
    assert_eq!(records[0]["spans"][0]["file"], fp.as_str());
    assert_eq!(records[0]["spans"][1]["file"], vp.as_str());
    // -D and the other warning options too.
    let unused = write(
        &dir,
        "unused.fp",
        "!!NVfp4.0\nTEMP t;\nMOV result.color, fragment.texcoord[0];\nEND\n",
    );
    assert_eq!(nvp4c(&["link", &vp, &unused], None).status.code(), Some(0));
    assert_eq!(
        nvp4c(&["link", &vp, &unused, "-D", "W0002"], None)
            .status
            .code(),
        Some(1)
    );
}

#[test]
fn link_write_spirv_writes_beside_each_program_and_out_dir_avoids_collisions() {
    let dir = scratch("link-write");
    let vp = write(&dir, "shade.vp", VP);
    let fp = write(&dir, "shade.fp", FP);
    // shade.vp and shade.fp would both be shade.spv.
    let r = nvp4c(&["link", &vp, &fp, "--write-spirv"], None);
    assert_eq!(r.status.code(), Some(2), "{}", text(&r.stderr));
    assert!(text(&r.stderr).contains("--out-dir"));
    assert!(!dir.join("shade.spv").exists());
    let out = dir.join("spv");
    let r = nvp4c(
        &["link", &vp, &fp, "--out-dir", out.to_str().unwrap()],
        None,
    );
    assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
    assert!(out.join("shade.vp.spv").exists() && out.join("shade.fp.spv").exists());
    // The help says what --write-spirv does.
    let help = text(&plain(&["link", "--help"]).stdout);
    assert!(help.contains("shade.vp` → `shade.spv`"), "{help}");
}

/// `nvp4c link --transform-feedback` gives the option to the last program
/// before the fragment program only (Vulkan captures the last vertex
/// processing stage; docs/interface.md, "Transform feedback"): the
/// geometry program of a vertex-geometry-fragment pipeline declares
/// `Xfb`, the vertex program does not, and the fragment program is not
/// refused with E1263 as it would be compiled alone.
#[test]
fn link_with_transform_feedback_captures_the_stage_before_the_fragment_program() {
    let dir = scratch("link-xfb");
    let vp = write(&dir, "shade.vp", VP);
    let gp = write(
        &dir,
        "shade.gp",
        "!!NVgp4.0\nPRIMITIVE_IN POINTS;\nPRIMITIVE_OUT POINTS;\nVERTICES_OUT 1;\nMOV result.position, vertex[0].position;\nMOV result.texcoord[0], vertex[0].texcoord[0];\nEMIT;\nEND\n",
    );
    let fp = write(&dir, "shade.fp", FP);
    let alone = nvp4c(&["--transform-feedback", &fp, "-o", "-"], None);
    assert_eq!(alone.status.code(), Some(1));
    assert!(
        text(&alone.stderr).contains("E1263"),
        "{}",
        text(&alone.stderr)
    );
    let out = dir.join("spv");
    let r = nvp4c(
        &[
            "link",
            &vp,
            &gp,
            &fp,
            "--transform-feedback",
            "--out-dir",
            out.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
    let declares_xfb = |name: &str| {
        let bytes = std::fs::read(out.join(name)).unwrap();
        let module = rspirv::dr::load_bytes(bytes).unwrap();
        module.execution_modes.iter().any(|i| {
            i.operands[1] == rspirv::dr::Operand::ExecutionMode(rspirv::spirv::ExecutionMode::Xfb)
        })
    };
    assert!(!declares_xfb("shade.vp.spv"));
    assert!(declares_xfb("shade.gp.spv"));
    assert!(!declares_xfb("shade.fp.spv"));
}
