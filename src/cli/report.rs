//! Messages on standard error: diagnostics and the command's own messages
//! (I/O errors, refusals, summaries), as text or, with `--message-format
//! json`, as one JSON record per line and nothing else
//! (docs/json-diagnostics.md).

use super::stdio::{write_stderr, StreamError};
use nvp4c::Diagnostics;
use std::io::IsTerminal;

/// How messages are printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum MessageFormat {
    /// Rendered like rustc's, for people.
    Human,
    /// One JSON object per line, for editors and build tools.
    Json,
}

/// Whether diagnostics are coloured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    /// When standard error is a terminal and `NO_COLOR` is not set.
    Auto,
    Always,
    Never,
}

impl ColorChoice {
    /// Whether to colour what goes to standard error.
    pub fn for_stderr(self) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none()
            }
        }
    }
}

/// How bad a message of the command itself is (all of them are errors
/// today; the JSON record has a severity field like a diagnostic's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Error,
}

impl Level {
    fn name(self) -> &'static str {
        match self {
            Level::Error => "error",
        }
    }
}

/// Counts for the summary line of a batch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub programs: usize,
    pub succeeded: usize,
    pub failed: usize,
    pub errors: usize,
    pub warnings: usize,
    /// Check mode: nothing was written.
    pub checked_only: bool,
}

/// Prints messages in one format. Each message is built whole and written
/// with one call, so messages of parallel compiles never mix.
#[derive(Clone, Copy, Debug)]
pub struct Reporter {
    pub format: MessageFormat,
    pub color: bool,
}

impl Reporter {
    pub fn new(format: MessageFormat, color: ColorChoice) -> Reporter {
        Reporter {
            format,
            color: color.for_stderr(),
        }
    }

    /// The text for a program's diagnostics, to print now or later.
    pub fn diagnostics_text(&self, diags: &Diagnostics, file: &str, source: &str) -> String {
        match self.format {
            MessageFormat::Human => diags.render(file, source, self.color),
            MessageFormat::Json => {
                let mut text = String::new();
                for d in nvp4c::diag::json::all_to_json(diags, file, source) {
                    text.push_str(&record("diagnostic", &d));
                }
                text
            }
        }
    }

    /// The JSON record of a pipeline diagnostic (`nvp4c link`).
    pub fn link_diagnostic_text(
        &self,
        d: &nvp4c::link::LinkDiagnostic,
        files: &[(&str, &str)],
    ) -> String {
        record("diagnostic", &nvp4c::diag::json::link_to_json(d, files))
    }

    /// The text for a message of the command itself (no code, no span):
    /// `error: cannot read a.fp: ...`, or a JSON record of the diagnostic
    /// shape with `"code": null` and no spans.
    pub fn message_text(&self, level: Level, message: &str) -> String {
        let rendered = format!("{}: {message}\n", level.name());
        self.message_text_rendered(level, message, &rendered)
    }

    /// Like [`Reporter::message_text`], with the text people see given
    /// (clap's usage errors, which say more than their first line).
    pub fn message_text_rendered(&self, level: Level, message: &str, rendered: &str) -> String {
        match self.format {
            MessageFormat::Human => {
                if self.color {
                    // The colours codespan-reporting gives the same words.
                    let colour = match level {
                        Level::Error => "\x1b[1;31m",
                    };
                    format!("{colour}{}\x1b[0m\x1b[1m: {message}\x1b[0m\n", level.name())
                } else {
                    rendered.to_string()
                }
            }
            MessageFormat::Json => record(
                "diagnostic",
                &CommandMessage {
                    code: None,
                    severity: level.name(),
                    message,
                    spans: [],
                    notes: [],
                    suggestion: None,
                    rendered,
                },
            ),
        }
    }

    /// Prints an error of the command itself.
    pub fn error(&self, message: &str) -> Result<(), StreamError> {
        write_stderr(&self.message_text(Level::Error, message))
    }

    /// The "could not compile" line after a program's errors (human format
    /// only: in JSON the records say it).
    pub fn could_not_compile_text(&self, file: &str, diags: &Diagnostics) -> String {
        if self.format == MessageFormat::Json {
            return String::new();
        }
        let n = diags.iter().filter(|d| d.is_error()).count();
        self.message_text(
            Level::Error,
            &format!(
                "could not compile {file} ({n} error{})",
                if n == 1 { "" } else { "s" }
            ),
        )
    }

    /// The summary of a batch: a line, or a `"type": "summary"` record.
    pub fn summary_text(&self, s: &Summary) -> String {
        match self.format {
            MessageFormat::Human => {
                let plural =
                    |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
                let verb = if s.checked_only {
                    "checked"
                } else {
                    "compiled"
                };
                let mut line = format!(
                    "{}: {} {verb}, {} failed",
                    plural(s.programs, "program"),
                    s.succeeded,
                    s.failed
                );
                if s.errors + s.warnings > 0 {
                    line.push_str(&format!(
                        " ({}, {})",
                        plural(s.errors, "error"),
                        plural(s.warnings, "warning")
                    ));
                }
                format!("{line}\n")
            }
            MessageFormat::Json => record(
                "summary",
                &serde_json::json!({
                    "programs": s.programs,
                    "succeeded": s.succeeded,
                    "failed": s.failed,
                    "errors": s.errors,
                    "warnings": s.warnings,
                }),
            ),
        }
    }
}

/// A message of the command itself in the shape of a diagnostic record
/// (docs/json-diagnostics.md): no code, no spans.
#[derive(serde::Serialize)]
struct CommandMessage<'a> {
    code: Option<&'static str>,
    severity: &'static str,
    message: &'a str,
    spans: [(); 0],
    notes: [(); 0],
    suggestion: Option<()>,
    rendered: &'a str,
}

/// One JSON line: `{"type": kind, ...the fields of body}`.
fn record(kind: &'static str, body: &impl serde::Serialize) -> String {
    #[derive(serde::Serialize)]
    struct Record<'a, T: serde::Serialize> {
        #[serde(rename = "type")]
        kind: &'static str,
        #[serde(flatten)]
        body: &'a T,
    }
    // Strings, numbers and lists always serialise.
    serde_json::to_string(&Record { kind, body }).unwrap_or_default() + "\n"
}
