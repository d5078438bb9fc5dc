//! A 100-line Cg-style vertex program compiles cleanly; a copy with eight
//! different mistakes yields exactly eight errors, each on the offending
//! token.

use std::path::Path;

fn program() -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs/lighting.vp"),
    )
    .unwrap()
}

/// (line as written, broken line, expected code, token the error points at)
const MISTAKES: [(&str, &str, &str, &str); 8] = [
    (
        "DP4.F R0.y, c[1], vertex.attrib[0];",
        "DP4.F R0.y, c[11], vertex.attrib[0];",
        "E0340",
        "[11]",
    ),
    ("NRM.F R2.xyz, R2;", "NRM.F R2.xyz, R5;", "E0301", "R5"),
    ("RSQ.F R3.w, R3.w;", "RSQ.F R3.w, R3;", "E0431", "R3"),
    (
        "MOVC.F RC.x, R4.x;",
        "MOVC.F.CC1 RC.x, R4.x;",
        "E0403",
        "CC1",
    ),
    ("ELSE;", "ELSEIF;", "E0400", "ELSEIF"),
    (
        "  MUL.F R0.xyz, R0, {1.05}.x;",
        "  MUL.S R0.xyz, R0, {1.05}.x;",
        "E0212",
        "1.05",
    ),
    (
        "MUL.F result_texcoord.xy, vertex.attrib[8], {2, 2}.xyxy;",
        "MUL.F result_texcoord.xg, vertex.attrib[8], {2, 2}.xyxy;",
        "E0432",
        "xg",
    ),
    (
        "DP4.F result.clip[0].x, {0, 1, 0, 0}, R1;",
        "DP4.F result.clp[0].x, {0, 1, 0, 0}, R1;",
        "E0200",
        "clp",
    ),
];

#[test]
fn the_cg_program_compiles_and_validates() {
    let compiled = nvp4c::compile(&program(), &nvp4c::Options::default());
    assert!(
        compiled.is_ok(),
        "{}",
        compiled
            .unwrap_err()
            .render("lighting.vp", &program(), false)
    );
}

#[test]
fn eight_mistakes_give_exactly_eight_errors_each_at_its_token() {
    let mut broken = program();
    let mut expected_lines = Vec::new();
    for (good, bad, _, _) in MISTAKES {
        let at = broken
            .find(&format!("\n{good}\n"))
            .unwrap_or_else(|| panic!("`{good}` is not in the program"))
            + 1;
        expected_lines.push(broken[..at].matches('\n').count() + 1);
        broken.replace_range(at..at + good.len(), bad);
    }
    let diags = nvp4c::compile(&broken, &nvp4c::Options::default()).unwrap_err();
    let report = diags.render("broken.vp", &broken, false);
    let errors: Vec<_> = diags.iter().filter(|d| d.is_error()).collect();
    assert_eq!(errors.len(), 8, "{report}");
    let mut got: Vec<(usize, &str, &str)> = errors
        .iter()
        .map(|d| {
            let span = d.primary_span().expect("every error has a primary label");
            let line = broken[..span.start as usize].matches('\n').count() + 1;
            (line, d.code, &broken[span.range()])
        })
        .collect();
    got.sort();
    let mut want: Vec<(usize, &str, &str)> = MISTAKES
        .iter()
        .zip(&expected_lines)
        .map(|((_, _, code, token), line)| (*line, *code, *token))
        .collect();
    want.sort();
    assert_eq!(got, want, "{report}");
}
