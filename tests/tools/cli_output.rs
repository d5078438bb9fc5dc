//! Writing outputs through the real binary (issue 12, items 1-3): what is at
//! an output path is respected (devices and FIFOs written in place, symbolic
//! links followed), no output replaces an input or another output, and a
//! run writes all of its outputs or none.

use super::cli::{nvp4c, scratch, words, VALID};
use std::path::Path;

fn is_spirv(bytes: &[u8]) -> bool {
    bytes.len() >= 20 && words(bytes)[0] == 0x0723_0203
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The directory's entries, sorted (to see that no temporary is left).
fn entries(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[cfg(unix)]
#[test]
fn dev_null_as_the_output_stays_a_character_device() {
    use std::os::unix::fs::FileTypeExt;
    let dir = scratch("devnull");
    let input = dir.join("prog.fp");
    std::fs::write(&input, VALID).unwrap();
    for extra in [&[][..], &["--reflect", "/dev/null"][..]] {
        let mut args = vec![input.to_str().unwrap(), "-o", "/dev/null"];
        args.extend_from_slice(extra);
        let r = nvp4c(&args, None);
        assert_eq!(r.status.code(), Some(0), "{}", stderr(&r));
        let kind = std::fs::symlink_metadata("/dev/null").unwrap().file_type();
        assert!(kind.is_char_device(), "/dev/null is no longer a device");
    }
}

#[cfg(target_os = "linux")]
#[test]
fn dev_stdout_as_the_output_writes_standard_output_in_place() {
    let dir = scratch("devstdout");
    let input = dir.join("prog.fp");
    std::fs::write(&input, VALID).unwrap();
    // Standard output is a pipe here: /dev/stdout -> /proc/self/fd/1 -> pipe.
    let r = nvp4c(&[input.to_str().unwrap(), "-o", "/dev/stdout"], None);
    assert_eq!(r.status.code(), Some(0), "{}", stderr(&r));
    assert!(is_spirv(&r.stdout));
    let link = std::fs::symlink_metadata("/dev/stdout").unwrap();
    assert!(link.file_type().is_symlink(), "/dev/stdout was replaced");
}

#[cfg(unix)]
#[test]
fn a_fifo_as_the_output_is_written_in_place_and_stays_a_fifo() {
    use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
    let dir = scratch("fifo");
    let input = dir.join("prog.fp");
    std::fs::write(&input, VALID).unwrap();
    let fifo = dir.join("out.fifo");
    let _ = std::fs::remove_file(&fifo);
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read(fifo).unwrap())
    };
    let r = nvp4c(
        &[input.to_str().unwrap(), "-o", fifo.to_str().unwrap()],
        None,
    );
    // If nvp4c never opened the FIFO, open it ourselves so the reader
    // ends (non-blocking: with the reader gone it fails instead of waiting).
    const O_NONBLOCK: i32 = 0o4000; // Linux
    let _ = std::fs::OpenOptions::new()
        .write(true)
        .custom_flags(O_NONBLOCK)
        .open(&fifo);
    let read = reader.join().unwrap();
    assert_eq!(r.status.code(), Some(0), "{}", stderr(&r));
    assert!(is_spirv(&read), "the reader got {} bytes", read.len());
    let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
    assert!(kind.is_fifo(), "the FIFO was replaced");
}

#[cfg(unix)]
#[test]
fn a_symlink_as_the_output_replaces_its_target_and_stays_a_link() {
    let dir = scratch("symlink");
    let input = dir.join("prog.fp");
    std::fs::write(&input, VALID).unwrap();
    let target = dir.join("real.spv");
    std::fs::write(&target, b"old").unwrap();
    let link = dir.join("link.spv");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink("real.spv", &link).unwrap();
    let r = nvp4c(
        &[input.to_str().unwrap(), "-o", link.to_str().unwrap()],
        None,
    );
    assert_eq!(r.status.code(), Some(0), "{}", stderr(&r));
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(is_spirv(&std::fs::read(&target).unwrap()));
    // A link to a file that does not exist yet creates that file.
    let dangling = dir.join("dangling.spv");
    let _ = std::fs::remove_file(&dangling);
    std::os::unix::fs::symlink("created.spv", &dangling).unwrap();
    let r = nvp4c(
        &[input.to_str().unwrap(), "-o", dangling.to_str().unwrap()],
        None,
    );
    assert_eq!(r.status.code(), Some(0), "{}", stderr(&r));
    assert!(is_spirv(&std::fs::read(dir.join("created.spv")).unwrap()));
    assert!(std::fs::symlink_metadata(&dangling)
        .unwrap()
        .file_type()
        .is_symlink());
}

#[test]
fn a_new_path_is_created_with_nothing_else_left_beside_it() {
    let dir = scratch("newpath");
    let input = dir.join("prog.fp");
    std::fs::write(&input, VALID).unwrap();
    let out = dir.join("new.spv");
    let _ = std::fs::remove_file(&out);
    let r = nvp4c(
        &[input.to_str().unwrap(), "-o", out.to_str().unwrap()],
        None,
    );
    assert_eq!(r.status.code(), Some(0), "{}", stderr(&r));
    assert!(is_spirv(&std::fs::read(&out).unwrap()));
    assert_eq!(entries(&dir), ["new.spv", "prog.fp"]);
}

#[test]
fn an_output_that_is_the_input_is_refused_with_exit_code_2() {
    let dir = scratch("self");
    let input = dir.join("a.vp");
    let text = "!!NVvp4.0\nMOV result.position, vertex.position;\nEND\n";
    std::fs::write(&input, text).unwrap();
    let r = nvp4c(
        &[input.to_str().unwrap(), "-o", input.to_str().unwrap()],
        None,
    );
    assert_eq!(r.status.code(), Some(2), "{}", stderr(&r));
    assert!(stderr(&r).contains("is the input"), "{}", stderr(&r));
    assert_eq!(std::fs::read_to_string(&input).unwrap(), text);
    // The default output name of a source named x.spv is x.spv itself.
    let spv = dir.join("x.spv");
    std::fs::write(&spv, text).unwrap();
    let r = nvp4c(&[spv.to_str().unwrap()], None);
    assert_eq!(r.status.code(), Some(2), "{}", stderr(&r));
    assert_eq!(std::fs::read_to_string(&spv).unwrap(), text);
    // The reflection cannot replace the input either.
    let r = nvp4c(
        &[
            input.to_str().unwrap(),
            "-o",
            "-",
            "--reflect",
            input.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(r.status.code(), Some(2), "{}", stderr(&r));
    assert_eq!(std::fs::read_to_string(&input).unwrap(), text);
}

#[cfg(unix)]
#[test]
fn an_output_reaching_the_input_through_a_link_is_refused() {
    let dir = scratch("selflink");
    let input = dir.join("a.fp");
    std::fs::write(&input, VALID).unwrap();
    let soft = dir.join("soft.spv");
    let hard = dir.join("hard.spv");
    let _ = std::fs::remove_file(&soft);
    let _ = std::fs::remove_file(&hard);
    std::os::unix::fs::symlink("a.fp", &soft).unwrap();
    std::fs::hard_link(&input, &hard).unwrap();
    for out in [&soft, &hard] {
        let r = nvp4c(
            &[input.to_str().unwrap(), "-o", out.to_str().unwrap()],
            None,
        );
        assert_eq!(r.status.code(), Some(2), "{}", stderr(&r));
        assert_eq!(std::fs::read_to_string(&input).unwrap(), VALID);
    }
    // Standard input that is the output file is refused too.
    let stdin = std::fs::File::open(&input).unwrap();
    let r = std::process::Command::new(env!("CARGO_BIN_EXE_nvp4c"))
        .args(["-", "-o", input.to_str().unwrap()])
        .stdin(stdin)
        .output()
        .unwrap();
    assert_eq!(r.status.code(), Some(2), "{}", stderr(&r));
    assert_eq!(std::fs::read_to_string(&input).unwrap(), VALID);
}

#[test]
fn two_outputs_naming_one_file_are_refused() {
    let dir = scratch("twice");
    let input = dir.join("prog.fp");
    std::fs::write(&input, VALID).unwrap();
    let f = dir.join("f");
    let r = nvp4c(
        &[
            input.to_str().unwrap(),
            "-o",
            f.to_str().unwrap(),
            "--reflect",
            f.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(r.status.code(), Some(2), "{}", stderr(&r));
    assert!(!f.exists());
    // Spelled differently, still one file.
    let other = dir.join(".").join("f");
    let r = nvp4c(
        &[
            input.to_str().unwrap(),
            "-o",
            f.to_str().unwrap(),
            "--reflect",
            other.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(r.status.code(), Some(2), "{}", stderr(&r));
    // Standard output twice would mix the module and the JSON.
    let r = nvp4c(&["-", "-o", "-", "--reflect", "-"], Some(VALID.as_bytes()));
    assert_eq!(r.status.code(), Some(2), "{}", stderr(&r));
    assert!(r.stdout.is_empty());
}

#[test]
fn a_failed_output_leaves_no_other_output_behind() {
    let dir = scratch("allornone");
    let input = dir.join("prog.fp");
    std::fs::write(&input, VALID).unwrap();
    let ok = dir.join("ok.spv");
    let _ = std::fs::remove_file(&ok);
    let bad = dir.join("nodir").join("r.json");
    let r = nvp4c(
        &[
            input.to_str().unwrap(),
            "-o",
            ok.to_str().unwrap(),
            "--reflect",
            bad.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(r.status.code(), Some(1), "{}", stderr(&r));
    assert!(stderr(&r).contains("cannot write"), "{}", stderr(&r));
    assert!(!ok.exists(), "ok.spv was written although the run failed");
    // An old file stays as it was.
    std::fs::write(&ok, b"old").unwrap();
    let r = nvp4c(
        &[
            input.to_str().unwrap(),
            "-o",
            ok.to_str().unwrap(),
            "--reflect",
            bad.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(r.status.code(), Some(1));
    assert_eq!(std::fs::read(&ok).unwrap(), b"old");
    assert_eq!(entries(&dir), ["ok.spv", "prog.fp"], "a temporary is left");
}

#[cfg(target_os = "linux")]
#[test]
fn a_device_that_fails_leaves_the_file_outputs_unwritten() {
    let dir = scratch("devfull");
    let input = dir.join("prog.fp");
    std::fs::write(&input, VALID).unwrap();
    let json = dir.join("r.json");
    let _ = std::fs::remove_file(&json);
    let r = nvp4c(
        &[
            input.to_str().unwrap(),
            "-o",
            "/dev/full",
            "--reflect",
            json.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(r.status.code(), Some(1), "{}", stderr(&r));
    assert!(
        stderr(&r).contains("cannot write /dev/full"),
        "{}",
        stderr(&r)
    );
    assert!(!json.exists());
    assert_eq!(entries(&dir), ["prog.fp"]);
}
