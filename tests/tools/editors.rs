//! The editor integrations in editors/: the VS Code extension builds to a
//! .vsix (scripts/build-vscode.sh: `npm ci`, the extension's own tests of
//! its client settings and TextMate grammar, `vsce package`), the Vim
//! syntax file highlights a program as intended (checked in a headless
//! Vim), and the tree-sitter grammar generates and passes its corpus and
//! highlight tests (scripts/test-tree-sitter.sh). Without npm, Vim or the
//! tree-sitter CLI these print SKIPPED, except under `CI=true`, where they
//! fail.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Whether `tool` runs; if not, SKIPPED outside CI and a failure in it.
fn have(tool: &str) -> bool {
    let ok = Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "`{tool}` is needed by this test under CI=true"
        );
        eprintln!("SKIPPED: `{tool}` is not installed");
    }
    ok
}

/// The file names in a zip archive (its central directory).
fn zip_names(bytes: &[u8]) -> Vec<String> {
    let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]) as usize;
    let mut names = Vec::new();
    let mut i = 0;
    while i + 46 <= bytes.len() {
        if bytes[i..i + 4] == [0x50, 0x4b, 0x01, 0x02] {
            let (name_len, extra, comment) = (u16_at(i + 28), u16_at(i + 30), u16_at(i + 32));
            if let Some(name) = bytes.get(i + 46..i + 46 + name_len) {
                names.push(String::from_utf8_lossy(name).into_owned());
            }
            i += 46 + name_len + extra + comment;
        } else {
            i += 1;
        }
    }
    names
}

#[test]
fn vscode_extension_builds_to_a_vsix() {
    if !have("npm") {
        return;
    }
    let out = root().join("target/vscode");
    let _ = std::fs::remove_dir_all(&out);
    let status = Command::new(root().join("scripts/build-vscode.sh"))
        .status()
        .expect("scripts/build-vscode.sh runs");
    assert!(status.success(), "scripts/build-vscode.sh failed: {status}");
    let version: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("editors/vscode/package.json")).unwrap(),
    )
    .unwrap();
    let vsix = out.join(format!(
        "nvasm-{}.vsix",
        version["version"].as_str().unwrap()
    ));
    let names =
        zip_names(&std::fs::read(&vsix).unwrap_or_else(|e| panic!("{}: {e}", vsix.display())));
    for wanted in [
        "extension/package.json",
        "extension/extension.js",
        "extension/server.js",
        "extension/language-configuration.json",
        "extension/syntaxes/nvasm.tmLanguage.json",
        "extension/node_modules/vscode-languageclient/package.json",
    ] {
        assert!(names.iter().any(|n| n == wanted), "{wanted} in {names:?}");
    }
    assert!(
        !names
            .iter()
            .any(|n| n.contains("/test/") || n.contains("@vscode/vsce")),
        "tests and build tools stay out of the package"
    );
}

/// The syntax group Vim gives each (line, column) of `program`.
fn vim_groups(program: &str, positions: &[(usize, usize)]) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("probe.fp");
    std::fs::write(&file, program).unwrap();
    let out = dir.path().join("groups.txt");
    let list: Vec<String> = positions
        .iter()
        .map(|(l, c)| format!("[{l},{c}]"))
        .collect();
    let script = format!(
        "set rtp^={}\nfiletype on\nsyntax on\nedit {}\nlet out = [&filetype]\nfor [l, c] in [{}]\n  call add(out, synIDattr(synID(l, c, 1), 'name'))\nendfor\ncall writefile(out, '{}')\nqall!\n",
        root().join("editors/vim").display(),
        file.display(),
        list.join(","),
        out.display()
    );
    let script_path = dir.path().join("probe.vim");
    std::fs::write(&script_path, script).unwrap();
    let status = Command::new("vim")
        .args(["-u", "NONE", "-N", "-es", "-S"])
        .arg(&script_path)
        .status()
        .expect("vim runs");
    assert!(status.success(), "vim: {status}");
    std::fs::read_to_string(Path::new(&out))
        .expect("vim wrote the groups")
        .lines()
        .map(String::from)
        .collect()
}

#[test]
fn vim_syntax_highlights_opcodes_bindings_and_declarations() {
    if !have("vim") {
        return;
    }
    let program = "!!NVfp4.0
OPTION ARB_draw_buffers;
PARAM c[2] = { program.local[0..1] };
ADDR_SAT R0.xy, fragment.texcoord[0], -|c[1]|;
MUL.S.CC1 R0, R0, 0x10;
TEX R0, R0, texture[0], SHADOW2D;
CAL shade (GT1.x);
shade: MOVC_SAT result.color, state.light[0].half; # done
END
";
    let expected = [
        ((1, 1), "nvasmHeader"),
        ((2, 1), "nvasmOptionKeyword"),
        ((2, 8), "nvasmOptionName"),
        ((3, 1), "nvasmDeclaration"),
        ((3, 16), "nvasmBinding"),
        ((3, 23), "nvasmBindingMember"),
        ((4, 1), "nvasmOpcode"),
        ((4, 4), "nvasmSuffix"),
        ((4, 12), "nvasmSwizzle"),
        ((4, 17), "nvasmBinding"),
        ((4, 26), "nvasmBindingMember"),
        ((5, 1), "nvasmOpcode"),
        ((5, 4), "nvasmModifier"),
        ((5, 19), "nvasmNumber"),
        ((6, 25), "nvasmTarget"),
        ((7, 1), "nvasmFlow"),
        ((7, 5), "nvasmCallTarget"),
        ((7, 12), "nvasmCondition"),
        ((8, 1), "nvasmLabel"),
        ((8, 8), "nvasmOpcode"),
        ((8, 11), "nvasmSuffix"),
        ((8, 31), "nvasmBinding"),
        ((8, 52), "nvasmComment"),
        ((9, 1), "nvasmEnd"),
    ];
    let positions: Vec<(usize, usize)> = expected.iter().map(|(p, _)| *p).collect();
    let groups = vim_groups(program, &positions);
    assert_eq!(groups[0], "nvasm", "ftdetect: the .fp file is nvasm");
    for ((position, group), got) in expected.iter().zip(&groups[1..]) {
        assert_eq!(got, group, "at line {}, column {}", position.0, position.1);
    }
}

/// The tree-sitter grammar (editors/tree-sitter-nvasm) generates, parses
/// its corpus (test/corpus: Cg output, options, labels, condition codes,
/// textures, geometry and ARB programs) to the trees written there, and
/// highlights test/highlight as its assertions say.
#[test]
fn tree_sitter_grammar_passes_its_corpus_and_highlight_tests() {
    if !have("tree-sitter") {
        return;
    }
    let output = Command::new(root().join("scripts/test-tree-sitter.sh"))
        .output()
        .expect("scripts/test-tree-sitter.sh runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "scripts/test-tree-sitter.sh failed: {}\n{stdout}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    // Every corpus test ran (the CLI marks each passing one with ✓).
    let corpus = std::fs::read_to_string(
        root().join("editors/tree-sitter-nvasm/test/corpus/statements.txt"),
    )
    .unwrap();
    let tests = corpus.matches("\n---\n").count();
    assert!(tests >= 5, "{tests} corpus tests");
    assert!(
        stdout.matches('✓').count() >= tests,
        "each of the {tests} corpus tests passes:\n{stdout}"
    );
}

/// The ARB family and its NV options: `ADDRESS`, `ARL`, `BRA` with its
/// target and condition, labels, `SHORT`, `LOOP`/`ENDLOOP`, and the
/// precision and condition suffixes `H`, `X`, `C`.
#[test]
fn vim_syntax_highlights_the_arb_family_and_its_nv_options() {
    if !have("vim") {
        return;
    }
    let vp = "!!ARBvp1.0
OPTION NV_vertex_program2;
ADDRESS A0;
ARL A0.x, vertex.attrib[1].x;
BRA skip (GT.x);
skip:
END
";
    let fp = "!!ARBfp1.0
OPTION NV_fragment_program2;
SHORT TEMP h;
LOOP {3, 0, 1};
ADDHC_SAT h, h, fragment.texcoord[A0.x];
MULX h, h, 2;
ENDLOOP;
END
";
    for (program, expected) in [
        (
            vp,
            &[
                ((1, 1), "nvasmHeader"),
                ((2, 1), "nvasmOptionKeyword"),
                ((2, 8), "nvasmOptionName"),
                ((3, 1), "nvasmDeclaration"),
                ((4, 1), "nvasmOpcode"),
                ((4, 11), "nvasmBinding"),
                ((5, 1), "nvasmFlow"),
                ((5, 5), "nvasmCallTarget"),
                ((5, 11), "nvasmCondition"),
                ((6, 1), "nvasmLabel"),
                ((7, 1), "nvasmEnd"),
            ][..],
        ),
        (
            fp,
            &[
                ((1, 1), "nvasmHeader"),
                ((3, 1), "nvasmStorageModifier"),
                ((3, 7), "nvasmDeclaration"),
                ((4, 1), "nvasmFlow"),
                ((5, 1), "nvasmOpcode"),
                ((5, 4), "nvasmSuffix"),
                ((6, 4), "nvasmSuffix"),
                ((7, 1), "nvasmFlow"),
            ][..],
        ),
    ] {
        let positions: Vec<(usize, usize)> = expected.iter().map(|(p, _)| *p).collect();
        let groups = vim_groups(program, &positions);
        for ((position, group), got) in expected.iter().zip(&groups[1..]) {
            assert_eq!(
                got, group,
                "at line {}, column {} of\n{program}",
                position.0, position.1
            );
        }
    }
}
