//! `nvp4c --explain CODE`: a diagnostic code's documentation, as rustc's
//! `--explain` gives it. The title and rule come from the code registry
//! (`nvp4c::codes`), the example program from docs/diagnostics.md (the
//! same rows the registry test keeps in step); the report shown is what
//! this nvp4c prints for that example, so it cannot go stale.

use super::stdio::{write_stderr, write_stdout, Outcome, EXIT_USAGE};

/// docs/diagnostics.md, compiled in.
const DIAGNOSTICS_MD: &str = include_str!("../../docs/diagnostics.md");

/// The example program of `code`'s row in docs/diagnostics.md and the name
/// of its test file, when the row has a whole one (some say "generated in
/// ..." or elide lines).
fn example_program(code: &str) -> Option<(String, String)> {
    let row = DIAGNOSTICS_MD
        .lines()
        .find(|l| l.starts_with(&format!("| {code} |")))?;
    // | code | severity | what | rule | minimal program |
    let cell = row.split(" | ").nth(4)?;
    let program = cell.strip_prefix("<code>")?.split("</code>").next()?;
    if program.contains('…') {
        return None;
    }
    let mut text = program.replace("<br>", "\n");
    text.push('\n');
    let file = row
        .split("tests/diagnostics/")
        .nth(1)
        .and_then(|rest| rest.split(')').next())
        .unwrap_or("example.fp");
    Some((text, file.to_string()))
}

/// What compiling an example gives, and the text its diagnostics point
/// into. Direct3D 9 examples are shaders written as assembly (`.asm`) or
/// as hex tokens (`.hex`), as their test files are: they are assembled or
/// decoded, compiled as bytecode and reported against their disassembly.
fn example_report(program: &str, file: &str) -> (nvp4c::Diagnostics, String) {
    let bytes = if file.ends_with(".asm") {
        match nvp4c::front::d3d9::assemble::assemble_bytes(program) {
            Ok(b) => b,
            Err(e) => return (nvp4c::Diagnostics(vec![e.diagnostic()]), program.into()),
        }
    } else if file.ends_with(".hex") {
        let words: Option<Vec<u32>> = program
            .lines()
            .map(|l| l.split("//").next().unwrap_or(""))
            .flat_map(str::split_whitespace)
            .map(|w| u32::from_str_radix(w, 16).ok())
            .collect();
        match words {
            Some(w) => w.iter().flat_map(|w| w.to_le_bytes()).collect(),
            None => return (nvp4c::Diagnostics(Vec::new()), program.into()),
        }
    } else {
        program.as_bytes().to_vec()
    };
    let report = match nvp4c::compile_bytes(&bytes, &nvp4c::Options::default()) {
        Ok(c) => c.warnings,
        Err(d) => d,
    };
    (report, nvp4c::source_listing(&bytes).into_owned())
}

pub fn main(code: &str) -> Outcome {
    let code = code.to_ascii_uppercase();
    let Some(info) = nvp4c::codes::lookup(&code) else {
        write_stderr(&format!(
            "error: {code} is not an nvp4c diagnostic code (docs/diagnostics.md lists them)\n"
        ))?;
        return Ok(EXIT_USAGE);
    };
    let warning = info.code.starts_with('W');
    let mut text = format!(
        "{}: {} ({})\n\nRule: {}\n",
        info.code,
        info.title,
        if warning { "warning" } else { "error" },
        info.rule
    );
    if warning {
        text.push_str(&format!(
            "\nA warning does not stop the compile. Silence it with `-A {0}`, make it an\nerror with `-D {0}` (`-w` and `-D warnings` do so for every warning).\n",
            info.code
        ));
    }
    if let Some((program, file)) = example_program(info.code) {
        text.push_str("\nA program that has it:\n\n");
        for line in program.lines() {
            text.push_str(&format!("    {line}\n"));
        }
        let (report, against) = example_report(&program, &file);
        let shown =
            nvp4c::Diagnostics(report.into_iter().filter(|d| d.code == info.code).collect());
        if !shown.is_empty() {
            text.push_str("\nWhat nvp4c reports for it:\n\n");
            for line in shown.render(&file, &against, false).trim_end().lines() {
                text.push_str(&format!("    {line}\n").replace("    \n", "\n"));
            }
        }
    }
    text.push_str(
        "\nAll codes: docs/diagnostics.md. The spec sections are in NV_gpu_program4 and\nthe program-type specifications.\n",
    );
    write_stdout(text.as_bytes())?;
    Ok(0)
}
