//! Diagnostics: every user-facing error and warning, with a stable code,
//! labelled spans and notes, rendered by codespan-reporting or as JSON.
//!
//! ```
//! let source = "!!NVfp4.0\nMOV result.color, R9;\nEND\n";
//! let errors = nvp4c::compile(source, &nvp4c::Options::default()).unwrap_err();
//! let d = errors.iter().next().unwrap();
//! assert_eq!((d.severity, d.code), (nvp4c::Severity::Error, "E0301"));
//! assert!(errors.render("prog.fp", source, false).contains("prog.fp:2:19"));
//! ```

use crate::span::Span;

pub mod control;
pub mod json;

pub use control::{WarningControl, WarningControlError, WarningLevel};

/// How bad a diagnostic is. Errors stop compilation; warnings do not
/// (unless denied: [`WarningControl`], the CLI's `-D` and `--deny-warnings`).
///
/// ```
/// use nvp4c::Severity;
/// assert!(Severity::Error > Severity::Warning);
/// assert_eq!(serde_json::to_string(&Severity::Error).unwrap(), "\"error\"");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Reported; compilation goes on.
    Warning,
    /// The program does not compile.
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
#[non_exhaustive]
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
#[non_exhaustive]
pub struct Diagnostic {
    /// Error or warning.
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
    ///
    /// ```
    /// let d = nvp4c::Diagnostic::error("E0001", "unexpected character `@`");
    /// assert!(d.is_error() && d.labels.is_empty() && d.notes.is_empty());
    /// ```
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
    ///
    /// ```
    /// let d = nvp4c::Diagnostic::warning("W0002", "variable `t` is never used");
    /// assert_eq!(d.severity, nvp4c::Severity::Warning);
    /// ```
    pub fn warning(code: &'static str, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, message)
        }
    }
    /// Adds a primary label.
    ///
    /// ```
    /// use nvp4c::{span::Span, Diagnostic};
    /// let d = Diagnostic::error("E0400", "unknown instruction `MOVV`").primary(Span::new(10, 14), "not an instruction");
    /// assert_eq!(d.primary_span(), Some(Span::new(10, 14)));
    /// ```
    pub fn primary(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.labels.push(Label {
            span,
            message: bounded(message.into()),
            primary: true,
        });
        self
    }
    /// Adds a secondary label.
    ///
    /// ```
    /// use nvp4c::{span::Span, Diagnostic};
    /// let d = Diagnostic::error("E0300", "`t` is declared twice")
    ///     .primary(Span::new(30, 31), "declared again here")
    ///     .secondary(Span::new(15, 16), "first declared here");
    /// assert!(!d.labels[1].primary);
    /// assert_eq!(d.primary_span(), Some(Span::new(30, 31)));
    /// ```
    pub fn secondary(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.labels.push(Label {
            span,
            message: bounded(message.into()),
            primary: false,
        });
        self
    }
    /// Adds a note.
    ///
    /// ```
    /// let d = nvp4c::Diagnostic::error("E0001", "unexpected character").note("section 2.X.2");
    /// assert_eq!(d.notes, ["section 2.X.2"]);
    /// ```
    pub fn note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }
    /// Whether the severity is [`Severity::Error`].
    ///
    /// ```
    /// assert!(nvp4c::Diagnostic::error("E0001", "x").is_error());
    /// assert!(!nvp4c::Diagnostic::warning("W0001", "x").is_error());
    /// ```
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
    /// The primary span, if any (the first primary label).
    ///
    /// ```
    /// use nvp4c::{span::Span, Diagnostic};
    /// assert_eq!(Diagnostic::error("E0001", "x").primary_span(), None);
    /// let d = Diagnostic::error("E0001", "x").secondary(Span::new(0, 1), "").primary(Span::new(5, 6), "");
    /// assert_eq!(d.primary_span(), Some(Span::new(5, 6)));
    /// ```
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
    ///
    /// ```
    /// let errors = nvp4c::compile("!!NVfp4.0\nMOVV R0;\nMOVV R1;\nEND\n", &nvp4c::Options::default()).unwrap_err();
    /// let codes: Vec<_> = errors.iter().map(|d| d.code).collect();
    /// assert_eq!(codes, ["E0400", "E0400"]);
    /// ```
    pub fn iter(&self) -> std::slice::Iter<'_, Diagnostic> {
        self.0.iter()
    }
    /// How many diagnostics there are.
    ///
    /// ```
    /// let errors = nvp4c::compile("!!NVfp4.0\nMOVV R0;\nMOVV R1;\nEND\n", &nvp4c::Options::default()).unwrap_err();
    /// assert_eq!(errors.len(), 2);
    /// ```
    pub fn len(&self) -> usize {
        self.0.len()
    }
    /// Whether there are none.
    ///
    /// ```
    /// let compiled = nvp4c::compile("!!NVfp4.0\nMOV result.color, 1;\nEND\n", &nvp4c::Options::default()).unwrap();
    /// assert!(compiled.warnings.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    /// Whether any diagnostic is an error.
    ///
    /// ```
    /// use nvp4c::{Diagnostic, Diagnostics};
    /// assert!(!Diagnostics(vec![Diagnostic::warning("W0002", "unused")]).has_errors());
    /// assert!(Diagnostics(vec![Diagnostic::error("E0001", "bad")]).has_errors());
    /// ```
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
        use codespan_reporting::term::{self, termcolor::Buffer};
        let has_long_line = lines(source).any(|(_, body, _)| body.len() > LONG_LINE);
        let file = RenderFile::new(file_name, source, source, Vec::new());
        let mut buffer = if color {
            Buffer::ansi()
        } else {
            Buffer::no_color()
        };
        let config = render_config();
        for d in &self.0 {
            // A label on a very long line would print the whole line: show
            // a window of it instead.
            if has_long_line {
                if let Some(w) = windowed(source, d) {
                    let shown = RenderFile::new(file_name, &w.text, source, w.moves);
                    let _ = term::emit(
                        &mut buffer,
                        &config,
                        &shown,
                        &to_codespan(&w.diagnostic, &w.text),
                    );
                    continue;
                }
            }
            let cd = to_codespan(d, source);
            // Rendering into a memory buffer cannot fail on I/O; a span
            // error would mean a bad span, which the clamp above rules out.
            let _ = term::emit(&mut buffer, &config, &file, &cd);
        }
        String::from_utf8_lossy(buffer.as_slice()).into_owned()
    }
}

/// How every report is drawn: codespan-reporting's default look, with
/// rustc's `-->` before the location (`--> prog.fp:3:8`), which editors'
/// problem matchers and people used to rustc look for.
pub(crate) fn render_config() -> codespan_reporting::term::Config {
    let mut config = codespan_reporting::term::Config::default();
    config.chars.snippet_start = "-->".to_string();
    config
}

/// Lines longer than this are shown as a window around their labels.
const LONG_LINE: usize = 512;
/// Bytes of context on each side of a label in such a window.
const WINDOW: usize = 60;

/// Each line of `source`: its start offset, its text, and the line end
/// that follows it (`"\n"`, `"\r\n"`, `"\r"`, or `""` for the last line).
/// Lines end where the lexer's comments do (section 2.X.2 allows LF, CR
/// and CRLF), and where the JSON form's line numbers say.
fn lines(source: &str) -> impl Iterator<Item = (usize, &str, &str)> {
    let bytes = source.as_bytes();
    let mut at = 0;
    std::iter::from_fn(move || {
        if at >= bytes.len() {
            return None;
        }
        let start = at;
        let mut i = start;
        while i < bytes.len() && bytes[i] != b'\n' && bytes[i] != b'\r' {
            i += 1;
        }
        let end = match (bytes.get(i), bytes.get(i + 1)) {
            (Some(b'\r'), Some(b'\n')) => i + 2,
            (Some(_), _) => i + 1,
            (None, _) => i,
        };
        at = end;
        Some((start, &source[start..i], &source[i..end]))
    })
}

/// A source as codespan-reporting sees it. Lines end at LF, CRLF or a
/// lone CR (as in [`lines`]), and the `-->` location is a position in the
/// program's own text even when what is shown is a windowed copy of it
/// (so a label at column 420005 of a long line says `:4:420005`, not the
/// column in the window).
struct RenderFile<'a> {
    name: &'a str,
    /// What is shown: the source, or its windowed copy.
    shown: &'a str,
    /// Line starts in `shown`.
    starts: Vec<usize>,
    /// The program's text.
    original: &'a str,
    /// Windows of `original` in `shown`: (start in original, end in
    /// original, start in shown).
    moves: Vec<(usize, usize, usize)>,
}

impl<'a> RenderFile<'a> {
    fn new(
        name: &'a str,
        shown: &'a str,
        original: &'a str,
        moves: Vec<(usize, usize, usize)>,
    ) -> RenderFile<'a> {
        let mut starts: Vec<usize> = lines(shown).map(|(start, _, _)| start).collect();
        // A text ending in a line end has an empty last line after it (a
        // label at the very end, e.g. "missing END", points there).
        if starts.is_empty()
            || lines(shown)
                .last()
                .is_some_and(|(_, _, end)| !end.is_empty())
        {
            starts.push(shown.len());
        }
        RenderFile {
            name,
            shown,
            starts,
            original,
            moves,
        }
    }

    /// The offset in the program's text of an offset in `shown`.
    fn original_offset(&self, at: usize) -> Option<usize> {
        self.moves
            .iter()
            .find(|&&(ws, we, ns)| (ns..=ns + (we - ws)).contains(&at))
            .map(|&(ws, _, ns)| ws + (at - ns))
    }
}

impl<'a> codespan_reporting::files::Files<'a> for RenderFile<'a> {
    type FileId = ();
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, (): ()) -> Result<&'a str, codespan_reporting::files::Error> {
        Ok(self.name)
    }

    fn source(&'a self, (): ()) -> Result<&'a str, codespan_reporting::files::Error> {
        Ok(self.shown)
    }

    fn line_index(
        &'a self,
        (): (),
        byte_index: usize,
    ) -> Result<usize, codespan_reporting::files::Error> {
        Ok(self
            .starts
            .partition_point(|&s| s <= byte_index)
            .saturating_sub(1))
    }

    fn line_range(
        &'a self,
        (): (),
        line_index: usize,
    ) -> Result<std::ops::Range<usize>, codespan_reporting::files::Error> {
        use codespan_reporting::files::Error;
        let start = *self.starts.get(line_index).ok_or(Error::LineTooLarge {
            given: line_index,
            max: self.starts.len() - 1,
        })?;
        let end = self
            .starts
            .get(line_index + 1)
            .copied()
            .unwrap_or(self.shown.len());
        Ok(start..end)
    }

    fn location(
        &'a self,
        (): (),
        byte_index: usize,
    ) -> Result<codespan_reporting::files::Location, codespan_reporting::files::Error> {
        let line_index = self.line_index((), byte_index)?;
        let (text, at) = match self.original_offset(byte_index) {
            Some(at) => (self.original, at),
            None => (self.shown, byte_index),
        };
        let mut at = at.min(text.len());
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        let line_start = text[..at].rfind(['\n', '\r']).map_or(0, |i| i + 1);
        Ok(codespan_reporting::files::Location {
            line_number: line_index + 1,
            column_number: text[line_start..at].chars().count() + 1,
        })
    }
}

fn to_codespan(d: &Diagnostic, source: &str) -> codespan_reporting::diagnostic::Diagnostic<()> {
    use codespan_reporting::diagnostic as cd;
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
    cd::Diagnostic::new(severity)
        .with_code(d.code)
        .with_message(d.message.clone())
        .with_labels(labels)
        .with_notes(d.notes.clone())
}

/// A diagnostic with its labels moved into a copy of the source whose
/// long lines are cut to windows around the labels.
struct Windowed {
    text: String,
    diagnostic: Diagnostic,
    /// (window start in the source, window end in the source, start in `text`).
    moves: Vec<(usize, usize, usize)>,
}

/// For a diagnostic with a label on a line over `LONG_LINE` bytes: a copy
/// of the source where every such line is cut to a window around its
/// labels, and the diagnostic with its spans moved into that copy and a
/// note giving the real columns. `None` when no label is on a long line.
fn windowed(source: &str, d: &Diagnostic) -> Option<Windowed> {
    let floor = |mut i: usize| {
        i = i.min(source.len());
        while !source.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let all: Vec<(usize, &str, &str)> = lines(source).collect();
    // The start and end (before its line end) of the line holding `at`.
    let line_of = |at: usize| {
        let k = all.partition_point(|l| l.0 <= at).saturating_sub(1);
        all.get(k)
            .map_or((source.len(), source.len()), |l| (l.0, l.0 + l.1.len()))
    };
    // The window of each long line that holds a label.
    let mut windows: Vec<(usize, usize, usize, usize)> = Vec::new(); // line start, line end, window start, window end
    for l in &d.labels {
        let (ls, le) = line_of(l.span.start as usize);
        if le - ls <= LONG_LINE {
            continue;
        }
        let ws = floor((l.span.start as usize).saturating_sub(WINDOW).max(ls));
        let we = floor(
            ((l.span.end as usize).min(le) + WINDOW)
                .min(le)
                .min(l.span.start as usize + 4 * WINDOW),
        );
        match windows.iter_mut().find(|w| w.0 == ls) {
            Some(w) => {
                w.2 = w.2.min(ws);
                w.3 = w.3.max(we).min(w.2 + 8 * WINDOW).max(w.2);
            }
            None => windows.push((ls, le, ws, we)),
        }
    }
    if windows.is_empty() {
        return None;
    }
    windows.sort();
    // Rebuild: every long line becomes "…" + window + "…"; other long lines
    // (without labels) are cut to their start.
    let mut text = String::new();
    let mut moves: Vec<(usize, usize, usize)> = Vec::new(); // old window start, old window end, new start
    let mut notes = Vec::new();
    // (old line start, new line start, new line length) for every line.
    let mut new_lines: Vec<(usize, usize, usize)> = Vec::new();
    for (line_no, &(start, body, end)) in (1..).zip(&all) {
        let new_start = text.len();
        if let Some(w) = windows.iter().find(|w| w.0 == start) {
            text.push('…');
            moves.push((w.2, w.3, text.len()));
            text.push_str(&source[w.2..w.3]);
            text.push('…');
            let col = |i: usize| source[w.0..i].chars().count() + 1;
            notes.push(format!(
                "line {line_no} is {} bytes long; shown from column {} to {}",
                body.len(),
                col(w.2),
                col(w.3)
            ));
        } else if body.len() > LONG_LINE {
            let mut cut = LONG_LINE.min(body.len());
            while !body.is_char_boundary(cut) {
                cut -= 1;
            }
            text.push_str(&body[..cut]);
            text.push('…');
        } else {
            text.push_str(body);
        }
        new_lines.push((start, new_start, text.len() - new_start));
        text.push_str(end);
    }
    let map = |at: u32| -> u32 {
        let at = at as usize;
        for &(ws, we, ns) in &moves {
            if (ws..=we).contains(&at) {
                return (ns + (at - ws)) as u32;
            }
        }
        // Elsewhere: the same column of the same line, within what is left
        // of the line.
        let k = new_lines.partition_point(|l| l.0 <= at).saturating_sub(1);
        match new_lines.get(k) {
            Some(&(old, new, len)) => (new + (at - old).min(len)) as u32,
            None => text.len() as u32,
        }
    };
    let mut diagnostic = d.clone();
    for l in &mut diagnostic.labels {
        l.span = Span {
            start: map(l.span.start),
            end: map(l.span.end).max(map(l.span.start)),
        };
    }
    diagnostic.notes.extend(notes);
    Some(Windowed {
        text,
        diagnostic,
        moves,
    })
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
