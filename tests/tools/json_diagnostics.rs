//! `--message-format json`: one JSON object per diagnostic on stderr, one
//! per line (docs/json-diagnostics.md).

use std::process::{Command, Output};

use serde_json::Value;

fn run(name: &str, source: &str, extra: &[&str]) -> Output {
    let dir = std::env::temp_dir().join(format!("nvp4c-json-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join(name);
    std::fs::write(&input, source).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_nvp4c"))
        .current_dir(&dir)
        .arg(name)
        .args(["--message-format", "json", "-o", "-"])
        .args(extra)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    out
}

fn lines(out: &Output) -> Vec<Value> {
    String::from_utf8(out.stderr.clone())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect()
}

#[test]
fn each_error_is_one_json_line_with_spans_notes_and_suggestion() {
    let source = "!!NVfp4.0\nTEMP R0;\nMOVV R0, fragment.color;\nMOV result.color, R0;\nADD.SATT R0, R0, R0;\nEND\n";
    let out = run("typo.fp", source, &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let diags = lines(&out);
    assert_eq!(diags.len(), 2, "{diags:#?}");

    let d = &diags[0];
    assert_eq!(d["code"], "E0400");
    assert_eq!(d["severity"], "error");
    assert_eq!(d["message"], "unknown instruction `MOVV`");
    let span = &d["spans"][0];
    assert_eq!(span["file"], "typo.fp");
    assert_eq!(span["primary"], true);
    assert_eq!(span["label"], "not an instruction");
    let start = source.find("MOVV").unwrap();
    assert_eq!(span["byte_start"], start);
    assert_eq!(span["byte_end"], start + 4);
    assert_eq!(
        (&span["line_start"], &span["column_start"]),
        (&Value::from(3), &Value::from(1))
    );
    assert_eq!(
        (&span["line_end"], &span["column_end"]),
        (&Value::from(3), &Value::from(5))
    );
    assert_eq!(d["suggestion"]["replacement"], "MOV");
    assert_eq!(d["suggestion"]["span"]["byte_start"], start);
    // The "did you mean" note became the suggestion; the rule stays a note.
    let notes = d["notes"].as_array().unwrap();
    assert!(notes
        .iter()
        .all(|n| !n.as_str().unwrap().contains("did you mean")));
    assert!(notes[0].as_str().unwrap().contains("Table X.13"));
    assert!(d["rendered"].as_str().unwrap().contains("typo.fp:3:1"));

    // `.SATT`: the span is the modifier without its dot, so is the fix.
    let d = &diags[1];
    assert_eq!(d["code"], "E0402");
    assert_eq!(d["suggestion"]["replacement"], "SAT");
    let satt = source.find("SATT").unwrap();
    assert_eq!(d["suggestion"]["span"]["byte_start"], satt);
    assert_eq!(d["spans"][0]["column_start"], 5);
}

#[test]
fn secondary_spans_are_flagged() {
    // ADD.HI: the modifier is the primary span, the opcode a secondary one.
    let out = run(
        "hi.fp",
        "!!NVfp4.0\nTEMP R0;\nADD.HI R0, R0, R0;\nMOV result.color, R0;\nEND\n",
        &[],
    );
    let diags = lines(&out);
    let spans = diags[0]["spans"].as_array().unwrap();
    assert!(spans.len() >= 2, "{spans:?}");
    assert_eq!(spans.iter().filter(|s| s["primary"] == true).count(), 1);
    assert!(diags[0]["suggestion"].is_null());
}

#[test]
fn warnings_are_json_too_and_the_module_is_still_written() {
    let out = run(
        "warn.fp",
        "!!NVfp4.0\nTEMP unused;\nMOV result.color, fragment.color;\nEND\n",
        &[],
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(&out.stdout[..4], &0x0723_0203u32.to_le_bytes());
    let diags = lines(&out);
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0]["severity"], "warning");

    // --deny-warnings fails, and stderr stays pure JSON.
    let out = run(
        "warn.fp",
        "!!NVfp4.0\nTEMP unused;\nMOV result.color, fragment.color;\nEND\n",
        &["--deny-warnings"],
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(lines(&out).len(), 1);
}

#[test]
fn human_format_is_unchanged() {
    let dir = std::env::temp_dir().join(format!("nvp4c-json-human-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("p.fp"), "!!NVfp4.0\nMOVV result.color, 1;\nEND\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_nvp4c"))
        .current_dir(&dir)
        .args(["p.fp", "--color", "never"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stderr).unwrap();
    assert!(
        text.starts_with("error[E0400]: unknown instruction `MOVV`"),
        "{text}"
    );
    assert!(text.contains("error: could not compile p.fp (1 error)"));
    let _ = std::fs::remove_dir_all(&dir);
}
