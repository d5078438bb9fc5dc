//! Closed and full standard streams (issue 12, item 5): never a panic (exit
//! code 101); a closed pipe ends the command quietly with exit code 141,
//! any other failure is reported naming the stream, with exit code 1.

use super::cli::{scratch, VALID};
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

/// A fragment program that runs 5 000 loop iterations: its trace is far
/// more than a pipe holds.
const LOOP: &str =
    "!!NVfp4.0\nTEMP r;\nMOV r, 0;\nREP 5000;\nADD r, r, 1;\nENDREP;\nMOV result.color, r;\nEND\n";

const BAD: &str = "!!NVfp4.0\nMOVV result.color, fragment.color;\nEND\n";

fn nvp4c() -> Command {
    Command::new(env!("CARGO_BIN_EXE_nvp4c"))
}

/// A pipe whose reading end is already closed.
fn closed_pipe() -> std::io::PipeWriter {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    writer
}

#[test]
fn run_trace_into_head_ends_quietly_with_exit_code_141() {
    let dir = scratch("head");
    let prog = dir.join("loop.fp");
    std::fs::write(&prog, LOOP).unwrap();
    // `nvp4c run loop.fp --trace | head -1`: read one line, then close.
    let mut child = nvp4c()
        .args(["run", prog.to_str().unwrap(), "--trace"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.starts_with("trace ("), "{first}");
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(141), "{err}");
    assert!(err.is_empty(), "a closed pipe is not reported: {err}");
}

#[test]
fn a_closed_stdout_ends_a_compile_quietly() {
    let out = nvp4c()
        .args(["-", "-o", "-", "--emit", "spvasm"])
        .stdin(std::fs::File::open(write_prog("closed-out", VALID)).unwrap())
        .stdout(closed_pipe())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(141),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stderr.is_empty());
}

fn write_prog(name: &str, text: &str) -> std::path::PathBuf {
    let path = scratch(name).join("prog.fp");
    std::fs::write(&path, text).unwrap();
    path
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_stdout_is_reported_naming_standard_output_with_exit_code_1() {
    let prog = write_prog("full", VALID);
    for args in [
        vec!["run", prog.to_str().unwrap()],
        vec![prog.to_str().unwrap(), "-o", "-", "--emit", "spvasm"],
        vec!["--explain", "E0404"],
    ] {
        let out = nvp4c()
            .args(&args)
            .stdout(std::fs::File::create("/dev/full").unwrap())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains("cannot write standard output"),
            "{args:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn errors_written_to_a_closed_stderr_end_quietly_without_a_panic() {
    let prog = write_prog("closed-err", BAD);
    for args in [
        vec![prog.to_str().unwrap(), "-o", "-"],
        vec!["run", prog.to_str().unwrap()],
        vec!["--no-such-option"],
    ] {
        let out = nvp4c()
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(closed_pipe())
            .output()
            .unwrap();
        assert_ne!(out.status.code(), Some(101), "{args:?} panicked");
        assert_eq!(out.status.code(), Some(141), "{args:?}");
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn a_closed_stdin_is_an_unreadable_empty_program_not_a_crash() {
    let out = nvp4c()
        .args(["-", "-o", "-", "--emit", "spvasm"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("E0002"));
}
