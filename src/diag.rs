//! Diagnostics: every user-facing error and warning, with a stable code,
//! labelled spans and notes, rendered by codespan-reporting or as JSON.

use crate::span::Span;

pub mod json;

/// How bad a diagnostic is. Errors stop compilation; warnings do not
/// (unless the CLI's `--deny-warnings` is given).
///
/// ```
/// use nvp4c::Severity;
/// assert!(Severity::Error > Severity::Warning);
/// assert_eq!(serde_json::to_string(&Severity::Error).unwrap(), "\"error\"");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Warning,
    Error,
}

/// A labelled span of a diagnostic: a source range and what to say there.
///
/// ```
/// use nvp4c::{span::Span, Diagnostic};
/// let d = Diagnostic::error("E0001", "oops").primary(Span::new(0, 3), "here");
/// assert_eq!(d.labels[0].message, "here");
/// assert!(d.labels[0].primary);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Label {
    /// The byte range in the source.
    pub span: Span,
    /// The label's text (may be empty).
    pub message: String,
    /// The primary label marks what the diagnostic is about; secondary
    /// ones give context.
    pub primary: bool,
}

/// One diagnostic: a code such as `E0101`, a one-line message, labels on the
/// source, and notes (the rule and where the spec states it).
///
/// ```
/// use nvp4c::{span::Span, Diagnostic};
/// let d = Diagnostic::warning("W0002", "temporary `R1` is never used")
///     .primary(Span::new(16, 18), "declared here")
///     .note("it is never read");
/// assert!(!d.is_error());
/// assert_eq!(d.primary_span(), Some(Span::new(16, 18)));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    /// A stable code such as `E0400` (errors) or `W0002` (warnings).
    pub code: &'static str,
    /// One line, without a trailing period.
    pub message: String,
    /// Labelled spans; the first primary one is what the diagnostic is about.
    pub labels: Vec<Label>,
    /// Further explanation, each rendered as `= note`.
    pub notes: Vec<String>,
}

impl Diagnostic {
    /// A new error without labels or notes.
    pub fn error(code: &'static str, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            code,
            message: bounded(message.into()),
            labels: Vec::new(),
            notes: Vec::new(),
        }
    }
    /// A new warning without labels or notes.
    pub fn warning(code: &'static str, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, message)
        }
    }
    /// Adds a primary label.
    pub fn primary(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.labels.push(Label {
            span,
            message: bounded(message.into()),
            primary: true,
        });
        self
    }
    /// Adds a secondary label.
    pub fn secondary(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.labels.push(Label {
            span,
            message: bounded(message.into()),
            primary: false,
        });
        self
    }
    /// Adds a note.
    pub fn note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }
    /// Whether the severity is [`Severity::Error`].
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
    /// The primary span, if any (the first primary label).
    pub fn primary_span(&self) -> Option<Span> {
        self.labels.iter().find(|l| l.primary).map(|l| l.span)
    }
}

/// Messages quote the program's words; a hostile program can make a word a
/// megabyte long. Any run of more than 64 characters without a space is cut
/// to its first 60 and an ellipsis, so a message stays one readable line.
fn bounded(message: String) -> String {
    const LONGEST: usize = 64;
    if message
        .split_whitespace()
        .all(|w| w.chars().count() <= LONGEST)
    {
        return message;
    }
    let mut out = String::with_capacity(LONGEST * 4);
    let mut run = 0usize;
    let mut cut = false;
    for ch in message.chars() {
        if ch.is_whitespace() {
            run = 0;
            cut = false;
            out.push(ch);
        } else if run < 60 {
            run += 1;
            out.push(ch);
        } else if !cut {
            cut = true;
            out.push('…');
            // Keep a closing quote so the message still reads.
        } else if ch == '`' {
            out.push(ch);
        }
    }
    out
}

/// A list of diagnostics for one program, in source order.
///
/// ```
/// let source = "!!NVfp4.0\nMOVV result.color, 1;\nEND\n";
/// let errors = nvp4c::compile(source, &nvp4c::Options::default()).unwrap_err();
/// assert!(errors.has_errors());
/// assert_eq!(errors.iter().next().unwrap().code, "E0400");
/// assert_eq!(errors.to_string(), "error[E0400]: unknown instruction `MOVV`\n");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    /// The diagnostics in order.
    pub fn iter(&self) -> std::slice::Iter<'_, Diagnostic> {
        self.0.iter()
    }
    /// How many diagnostics there are.
    pub fn len(&self) -> usize {
        self.0.len()
    }
    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.0.iter().any(Diagnostic::is_error)
    }

    /// Renders every diagnostic the way rustc does, with the source lines
    /// and labels. `file_name` is shown in the `-->` lines; `color` adds
    /// ANSI colour codes.
    ///
    /// ```
    /// let err = nvp4c::compile("!!NVfp4.0\nMOVV result.color, 1;\nEND\n", &nvp4c::Options::default()).unwrap_err();
    /// let text = err.render("prog.fp", "!!NVfp4.0\nMOVV result.color, 1;\nEND\n", false);
    /// assert!(text.contains("error[E0400]: unknown instruction `MOVV`"));
    /// ```
    pub fn render(&self, file_name: &str, source: &str, color: bool) -> String {
        use codespan_reporting::diagnostic as cd;
        use codespan_reporting::files::SimpleFile;
        use codespan_reporting::term::{self, termcolor::Buffer};
        let file = SimpleFile::new(file_name, source);
        let mut buffer = if color {
            Buffer::ansi()
        } else {
            Buffer::no_color()
        };
        let config = term::Config::default();
        for d in &self.0 {
            let clamp = |s: Span| {
                let end = (s.end as usize).min(source.len());
                let start = (s.start as usize).min(end);
                start..end
            };
            let labels = d
                .labels
                .iter()
                .map(|l| {
                    let style = if l.primary {
                        cd::LabelStyle::Primary
                    } else {
                        cd::LabelStyle::Secondary
                    };
                    cd::Label::new(style, (), clamp(l.span)).with_message(l.message.clone())
                })
                .collect();
            let severity = match d.severity {
                Severity::Error => cd::Severity::Error,
                Severity::Warning => cd::Severity::Warning,
            };
            let cd = cd::Diagnostic::new(severity)
                .with_code(d.code)
                .with_message(d.message.clone())
                .with_labels(labels)
                .with_notes(d.notes.clone());
            // Rendering into a memory buffer cannot fail on I/O; a span
            // error would mean a bad span, which the clamp above rules out.
            let _ = term::emit(&mut buffer, &config, &file, &cd);
        }
        String::from_utf8_lossy(buffer.as_slice()).into_owned()
    }
}

impl IntoIterator for Diagnostics {
    type Item = Diagnostic;
    type IntoIter = std::vec::IntoIter<Diagnostic>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl std::fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for d in &self.0 {
            writeln!(
                f,
                "{}[{}]: {}",
                if d.is_error() { "error" } else { "warning" },
                d.code,
                d.message
            )?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}
