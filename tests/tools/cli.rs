//! The command line: exit codes, stdin/stdout, atomic output, options.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

pub(crate) const VALID: &str =
    "!!NVfp4.0\nTEMP R0;\nMOV R0, fragment.color;\nMOV result.color, R0;\nEND\n";
const THREE_SYNTAX_ERRORS: &str =
    "!!NVfp4.0\nTEMP R0;\nMOV R0 R0;\nADD R0, , R0;\nMUL R0, R0 R0;\nMOV result.color, R0;\nEND\n";

/// Runs the real binary with `--color never` and the given standard input.
pub(crate) fn nvp4c(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_nvp4c"));
    cmd.args(args)
        .arg("--color")
        .arg("never")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("nvp4c runs");
    {
        let mut pipe = child.stdin.take().unwrap();
        if let Some(bytes) = stdin {
            // A command that refuses its arguments exits without reading
            // its input: the pipe may be closed before the write ends.
            if let Err(e) = pipe.write_all(bytes) {
                assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
            }
        }
    }
    child.wait_with_output().unwrap()
}

/// A fresh directory for one test.
pub(crate) fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("nvp4c-cli-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Little-endian bytes as SPIR-V words.
pub(crate) fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

#[test]
fn compiles_a_file_to_the_named_output_with_exit_code_0() {
    let dir = scratch("ok");
    let input = dir.join("prog.fp");
    std::fs::write(&input, VALID).unwrap();
    let out = dir.join("prog.spv");
    let r = nvp4c(
        &[input.to_str().unwrap(), "-o", out.to_str().unwrap()],
        None,
    );
    assert_eq!(
        r.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&r.stderr)
    );
    let spv = words(&std::fs::read(&out).unwrap());
    assert_eq!(spv[0], 0x0723_0203, "SPIR-V magic");
    assert_eq!(spv[1], 0x0001_0000, "vulkan1.0 means SPIR-V 1.0");
}

#[test]
fn output_defaults_to_the_input_name_with_spv() {
    let dir = scratch("default");
    let input = dir.join("shader.fp");
    std::fs::write(&input, VALID).unwrap();
    let r = nvp4c(&[input.to_str().unwrap()], None);
    assert_eq!(r.status.code(), Some(0));
    assert!(dir.join("shader.spv").exists());
}

#[test]
fn dash_reads_stdin_and_writes_stdout() {
    let r = nvp4c(&["-", "-o", "-"], Some(VALID.as_bytes()));
    assert_eq!(
        r.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&r.stderr)
    );
    assert_eq!(words(&r.stdout)[0], 0x0723_0203);
    // Reading stdin with no -o writes stdout too.
    let r = nvp4c(&["-"], Some(VALID.as_bytes()));
    assert_eq!(words(&r.stdout)[0], 0x0723_0203);
}

#[test]
fn target_env_sets_the_spirv_version() {
    for (env, version) in [
        ("vulkan1.0", 0x0001_0000),
        ("vulkan1.1", 0x0001_0300),
        ("vulkan1.2", 0x0001_0500),
        ("vulkan1.3", 0x0001_0600),
    ] {
        let r = nvp4c(&["-", "--target-env", env], Some(VALID.as_bytes()));
        assert_eq!(
            r.status.code(),
            Some(0),
            "{env}: {}",
            String::from_utf8_lossy(&r.stderr)
        );
        assert_eq!(words(&r.stdout)[1], version, "{env}");
    }
}

#[test]
fn emit_spvasm_writes_the_disassembly() {
    let r = nvp4c(&["-", "--emit", "spvasm"], Some(VALID.as_bytes()));
    assert_eq!(r.status.code(), Some(0));
    let text = String::from_utf8(r.stdout).unwrap();
    assert!(text.contains("OpEntryPoint Fragment"), "{text}");
    assert!(text.contains("OpExecutionMode %main OriginUpperLeft"));
}

#[test]
fn program_errors_exit_1_with_every_syntax_error_on_stderr() {
    let r = nvp4c(&["-"], Some(THREE_SYNTAX_ERRORS.as_bytes()));
    assert_eq!(r.status.code(), Some(1));
    assert!(r.stdout.is_empty(), "nothing is written on error");
    let err = String::from_utf8(r.stderr).unwrap();
    assert_eq!(err.matches("error[E0100]").count(), 3, "{err}");
    for line in ["<stdin>:3:8", "<stdin>:4:9", "<stdin>:5:12"] {
        assert!(err.contains(line), "missing {line} in:\n{err}");
    }
}

#[test]
fn bad_usage_exits_2() {
    assert_eq!(
        nvp4c(&["--target-env", "vulkan9", "-"], Some(b""))
            .status
            .code(),
        Some(2)
    );
    assert_eq!(nvp4c(&["--no-such-flag"], None).status.code(), Some(2));
    assert_eq!(
        nvp4c(&["/definitely/not/here.fp"], None).status.code(),
        Some(2)
    );
}

#[test]
fn a_failed_compile_leaves_the_old_output_untouched() {
    let dir = scratch("atomic");
    let out = dir.join("keep.spv");
    std::fs::write(&out, b"old contents").unwrap();
    let input = dir.join("bad.fp");
    std::fs::write(&input, THREE_SYNTAX_ERRORS).unwrap();
    let r = nvp4c(
        &[input.to_str().unwrap(), "-o", out.to_str().unwrap()],
        None,
    );
    assert_eq!(r.status.code(), Some(1));
    assert_eq!(std::fs::read(&out).unwrap(), b"old contents");
    // And a missing output stays missing.
    let none = dir.join("none.spv");
    nvp4c(
        &[input.to_str().unwrap(), "-o", none.to_str().unwrap()],
        None,
    );
    assert!(!none.exists());
    // No temporary files are left beside it.
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(leftovers.len(), 2, "{leftovers:?}");
}

#[test]
fn invalid_utf8_and_nul_bytes_get_a_diagnostic_not_a_crash() {
    let r = nvp4c(
        &["-"],
        Some(b"!!NVfp4.0\nMOV result.color, \xff\xfe;\nEND\n"),
    );
    assert_eq!(r.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&r.stderr).contains("error[E0003]"));
    let r = nvp4c(
        &["-"],
        Some(b"!!NVfp4.0\nMOV result.color,\0 fragment.color;\nEND\n"),
    );
    assert_eq!(r.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&r.stderr).contains("unexpected character NUL"));
}

#[test]
fn crlf_and_lf_sources_give_the_same_module() {
    let a = nvp4c(&["-"], Some(VALID.as_bytes()));
    let b = nvp4c(&["-"], Some(VALID.replace('\n', "\r\n").as_bytes()));
    assert_eq!(a.status.code(), Some(0));
    assert_eq!(a.stdout, b.stdout);
}

#[test]
fn the_bundled_examples_compile() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    for name in ["tint.fp", "transform.vp"] {
        let r = nvp4c(&[root.join(name).to_str().unwrap(), "-o", "-"], None);
        assert_eq!(
            r.status.code(),
            Some(0),
            "{name}: {}",
            String::from_utf8_lossy(&r.stderr)
        );
    }
}

#[test]
fn deny_warnings_turns_warnings_into_a_failure() {
    let src = b"!!NVfp4.0\nTEMP unused;\nMOV result.color, fragment.color;\nEND\n";
    let r = nvp4c(&["-", "-o", "-"], Some(src));
    assert_eq!(r.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&r.stderr).contains("warning[W0002]"));
    let r = nvp4c(&["-", "-o", "-", "--deny-warnings"], Some(src));
    assert_eq!(r.status.code(), Some(1));
    assert!(r.stdout.is_empty(), "no output when warnings are denied");
}

/// The process's umask, from /proc (Linux); `None` elsewhere.
#[cfg(unix)]
fn umask() -> Option<u32> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("Umask:"))?;
    u32::from_str_radix(line["Umask:".len()..].trim(), 8).ok()
}

#[cfg(unix)]
#[test]
fn output_files_get_ordinary_permissions_not_the_temporary_files() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("mode");
    let input = dir.join("prog.fp");
    std::fs::write(&input, VALID).unwrap();
    let out = dir.join("prog.spv");
    let _ = std::fs::remove_file(&out);
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let args = [input.to_str().unwrap(), "-o", out.to_str().unwrap()];
    // A new output: 0666 less the umask, like any new file (the atomic
    // write goes through a private 0600 temporary file).
    assert_eq!(nvp4c(&args, None).status.code(), Some(0));
    if let Some(umask) = umask() {
        assert_eq!(mode(&out), 0o666 & !umask);
    }
    // A replaced output keeps its own permissions.
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o640)).unwrap();
    assert_eq!(nvp4c(&args, None).status.code(), Some(0));
    assert_eq!(mode(&out), 0o640);
}

#[test]
fn an_unwritable_output_exits_1_naming_the_output_not_a_temporary_file() {
    let dir = scratch("nodir");
    let input = dir.join("prog.fp");
    std::fs::write(&input, VALID).unwrap();
    let out = dir.join("missing-dir").join("prog.spv");
    let r = nvp4c(
        &[input.to_str().unwrap(), "-o", out.to_str().unwrap()],
        None,
    );
    assert_eq!(r.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&r.stderr);
    assert!(
        stderr.contains(&format!("cannot write {}", out.display())),
        "{stderr}"
    );
    assert!(!stderr.contains(".tmp"), "{stderr}");
}
