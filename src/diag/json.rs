//! Diagnostics as JSON, for editors and build tools: the format of
//! `nvp4c --message-format json` (docs/json-diagnostics.md), also used by
//! the language server.
//!
//! ```
//! let source = "!!NVfp4.0\nMOVV result.color, 1;\nEND\n";
//! let errors = nvp4c::compile(source, &nvp4c::Options::default()).unwrap_err();
//! let json = nvp4c::diag::json::to_json(&errors.0[0], "prog.fp", source);
//! assert_eq!(json.code, "E0400");
//! assert_eq!(json.spans[0].line_start, 2);
//! assert_eq!(json.suggestion.as_ref().unwrap().replacement, "MOV");
//! let line = serde_json::to_string(&json).unwrap();
//! assert!(line.starts_with("{\"code\":\"E0400\""));
//! ```

use super::{Diagnostic, Diagnostics, Severity};
use crate::span::Span;

/// One diagnostic in the JSON format of docs/json-diagnostics.md.
///
/// ```
/// # let source = "!!NVfp4.0\nMOVV result.color, 1;\nEND\n";
/// # let errors = nvp4c::compile(source, &nvp4c::Options::default()).unwrap_err();
/// let d = nvp4c::diag::json::to_json(&errors.0[0], "prog.fp", source);
/// assert_eq!((d.code.as_str(), d.severity), ("E0400", nvp4c::Severity::Error));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct JsonDiagnostic {
    /// The stable code, e.g. `E0400`.
    pub code: String,
    /// `"error"` or `"warning"`.
    pub severity: Severity,
    /// The one-line message.
    pub message: String,
    /// Every labelled span, the primary one(s) flagged.
    pub spans: Vec<JsonSpan>,
    /// The notes (the rule and where the spec states it), without the
    /// "did you mean" note that became `suggestion`.
    pub notes: Vec<String>,
    /// A replacement for the primary span, from a "did you mean" note.
    pub suggestion: Option<JsonSuggestion>,
    /// The diagnostic rendered as text, as the terminal shows it (no colour).
    pub rendered: String,
}

/// A labelled source range. Lines and columns are 1-based; columns count
/// Unicode scalar values (characters); `column_end` is exclusive.
///
/// ```
/// # let source = "!!NVfp4.0\nMOVV result.color, 1;\nEND\n";
/// # let errors = nvp4c::compile(source, &nvp4c::Options::default()).unwrap_err();
/// let d = nvp4c::diag::json::to_json(&errors.0[0], "prog.fp", source);
/// let span = &d.spans[0];
/// assert_eq!((span.line_start, span.column_start, span.column_end), (2, 1, 5));
/// assert_eq!((span.byte_start, span.byte_end, span.primary), (10, 14, true));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct JsonSpan {
    /// The file name given to [`to_json`].
    pub file: String,
    /// Byte offset of the first byte.
    pub byte_start: u32,
    /// Byte offset one past the last byte.
    pub byte_end: u32,
    /// The 1-based line of `byte_start`.
    pub line_start: u32,
    /// The 1-based column of `byte_start`.
    pub column_start: u32,
    /// The 1-based line of `byte_end`.
    pub line_end: u32,
    /// The 1-based column of `byte_end` (exclusive).
    pub column_end: u32,
    /// The label's text (may be empty).
    pub label: String,
    /// Whether this is the span the diagnostic is about.
    pub primary: bool,
}

/// A suggested edit: put `replacement` in place of `span`'s text.
///
/// ```
/// # let source = "!!NVfp4.0\nMOVV result.color, 1;\nEND\n";
/// # let errors = nvp4c::compile(source, &nvp4c::Options::default()).unwrap_err();
/// let d = nvp4c::diag::json::to_json(&errors.0[0], "prog.fp", source);
/// let fix = d.suggestion.unwrap();
/// assert_eq!((fix.replacement.as_str(), fix.span.byte_start), ("MOV", 10));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct JsonSuggestion {
    /// The primary span, which the replacement replaces.
    pub span: JsonSpan,
    /// The text to put there.
    pub replacement: String,
}

/// Line starts of a source text, to turn byte offsets into lines and
/// columns.
///
/// ```
/// let index = nvp4c::diag::json::LineIndex::new("ab\ncd");
/// assert_eq!(index.line_col(4), (1, 1)); // 0-based line and character
/// assert_eq!(index.offset(1, 1), 4);
/// ```
#[derive(Clone, Debug)]
pub struct LineIndex<'a> {
    source: &'a str,
    /// Byte offset of the start of each line.
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    /// Indexes `source`; a line ends at `\n`, `\r\n` or a lone `\r`.
    ///
    /// ```
    /// let index = nvp4c::diag::json::LineIndex::new("a\r\nb\rc");
    /// assert_eq!(index.line(6), 2); // three lines: CRLF and a lone CR end lines
    /// ```
    pub fn new(source: &'a str) -> LineIndex<'a> {
        let bytes = source.as_bytes();
        let mut starts = vec![0];
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'\n' => starts.push(i + 1),
                b'\r' if bytes.get(i + 1) != Some(&b'\n') => starts.push(i + 1),
                _ => {}
            }
            i += 1;
        }
        LineIndex { source, starts }
    }

    /// The 0-based line of a byte offset (clamped to the text).
    ///
    /// ```
    /// let index = nvp4c::diag::json::LineIndex::new("ab\ncd");
    /// assert_eq!((index.line(1), index.line(3), index.line(99)), (0, 1, 1));
    /// ```
    pub fn line(&self, offset: usize) -> usize {
        let offset = offset.min(self.source.len());
        self.starts
            .partition_point(|&s| s <= offset)
            .saturating_sub(1)
    }

    /// The 0-based line and character (Unicode scalar value) column.
    ///
    /// ```
    /// let index = nvp4c::diag::json::LineIndex::new("é\nxé");
    /// assert_eq!(index.line_col(6), (1, 2)); // after "xé": two characters
    /// ```
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let (line, text) = self.line_prefix(offset);
        (line, text.chars().count())
    }

    /// The 0-based line and UTF-16 code unit column (the Language Server
    /// Protocol's default position encoding).
    ///
    /// ```
    /// let index = nvp4c::diag::json::LineIndex::new("a𝄞b");
    /// assert_eq!(index.line_utf16(5), (0, 3)); // 𝄞 is two UTF-16 units
    /// ```
    pub fn line_utf16(&self, offset: usize) -> (usize, usize) {
        let (line, text) = self.line_prefix(offset);
        (line, text.encode_utf16().count())
    }

    /// The byte offset of a 0-based line and UTF-16 column, clamped to the
    /// line and the text.
    ///
    /// ```
    /// let index = nvp4c::diag::json::LineIndex::new("a𝄞b\ncd");
    /// assert_eq!(index.offset(0, 3), 5); // the `b`
    /// assert_eq!(index.offset(1, 9), 9); // clamped to the line's end
    /// ```
    pub fn offset(&self, line: usize, utf16_column: usize) -> usize {
        let Some(&start) = self.starts.get(line) else {
            return self.source.len();
        };
        let end = self
            .starts
            .get(line + 1)
            .copied()
            .unwrap_or(self.source.len());
        let text = &self.source[start..end];
        let mut units = 0;
        for (i, c) in text.char_indices() {
            if units >= utf16_column || c == '\n' || c == '\r' {
                return start + i;
            }
            units += c.len_utf16();
        }
        end
    }

    /// The line of `offset` and the text of that line before it.
    fn line_prefix(&self, offset: usize) -> (usize, &'a str) {
        let mut offset = offset.min(self.source.len());
        while !self.source.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.line(offset);
        (line, &self.source[self.starts[line]..offset])
    }
}

/// Converts one diagnostic. `file` names the source in the spans.
///
/// ```
/// # let source = "!!NVfp4.0\nMOVV result.color, 1;\nEND\n";
/// # let errors = nvp4c::compile(source, &nvp4c::Options::default()).unwrap_err();
/// let d = nvp4c::diag::json::to_json(&errors.0[0], "prog.fp", source);
/// assert!(d.rendered.contains("prog.fp:2:1"));
/// ```
pub fn to_json(diagnostic: &Diagnostic, file: &str, source: &str) -> JsonDiagnostic {
    let index = LineIndex::new(source);
    let span = |s: Span, label: &str, primary: bool| {
        json_span(&index, file, source.len(), s, label, primary)
    };
    let spans: Vec<JsonSpan> = diagnostic
        .labels
        .iter()
        .map(|l| span(l.span, &l.message, l.primary))
        .collect();
    let mut notes = Vec::new();
    let mut suggestion = None;
    for note in &diagnostic.notes {
        match (
            suggestion.is_none(),
            suggested_text(note),
            diagnostic.primary_span(),
        ) {
            (true, Some(text), Some(primary)) => {
                let written = source.get(primary.range()).unwrap_or("");
                suggestion = Some(JsonSuggestion {
                    span: span(primary, "", true),
                    replacement: replacement_for(written, text),
                });
            }
            _ => notes.push(note.clone()),
        }
    }
    JsonDiagnostic {
        code: diagnostic.code.to_string(),
        severity: diagnostic.severity,
        message: diagnostic.message.clone(),
        spans,
        notes,
        suggestion,
        rendered: Diagnostics(vec![diagnostic.clone()]).render(file, source, false),
    }
}

/// A span as JSON: clamped to the source, lines and columns 1-based.
fn json_span(
    index: &LineIndex,
    file: &str,
    source_len: usize,
    s: Span,
    label: &str,
    primary: bool,
) -> JsonSpan {
    let end = (s.end as usize).min(source_len);
    let start = (s.start as usize).min(end);
    let (l0, c0) = index.line_col(start);
    let (l1, c1) = index.line_col(end);
    JsonSpan {
        file: file.to_string(),
        byte_start: start as u32,
        byte_end: end as u32,
        line_start: l0 as u32 + 1,
        column_start: c0 as u32 + 1,
        line_end: l1 as u32 + 1,
        column_end: c1 as u32 + 1,
        label: label.to_string(),
        primary,
    }
}

/// Converts a pipeline diagnostic of `nvp4c link`, whose labels may be in
/// different files (`nvp4c link --message-format json`). `files` is the
/// input of [`check_pipeline`](crate::link::check_pipeline).
///
/// ```
/// let files = [
///     ("a.vp", "!!NVvp4.0\nMOV result.position, vertex.position;\nEND\n"),
///     ("c.fp", "!!NVfp4.0\nMOV result.color, fragment.texcoord[2];\nEND\n"),
/// ];
/// let report = nvp4c::link::check_pipeline(&files, &nvp4c::Options::default()).unwrap();
/// let d = nvp4c::diag::json::link_to_json(&report.diagnostics[0], &files);
/// assert_eq!(d.code, "E1000");
/// assert_eq!((d.spans[0].file.as_str(), d.spans[0].line_start), ("c.fp", 2));
/// assert_eq!(d.spans[1].file, "a.vp");
/// ```
pub fn link_to_json(
    diagnostic: &crate::link::LinkDiagnostic,
    files: &[(&str, &str)],
) -> JsonDiagnostic {
    let indexes: Vec<LineIndex> = files.iter().map(|(_, s)| LineIndex::new(s)).collect();
    let d = &diagnostic.diagnostic;
    let spans = d
        .labels
        .iter()
        .zip(&diagnostic.label_files)
        .filter_map(|(l, &f)| {
            let (name, source) = files.get(f)?;
            Some(json_span(
                &indexes[f],
                name,
                source.len(),
                l.span,
                &l.message,
                l.primary,
            ))
        })
        .collect();
    let alone = crate::link::LinkReport {
        compiled: Vec::new(),
        diagnostics: vec![diagnostic.clone()],
    };
    JsonDiagnostic {
        code: d.code.to_string(),
        severity: d.severity,
        message: d.message.clone(),
        spans,
        notes: d.notes.clone(),
        suggestion: None,
        rendered: alone.render(files, false),
    }
}

/// Converts every diagnostic, in order.
///
/// ```
/// let source = "!!NVfp4.0\nMOVV result.color, 1;\nEND\n";
/// let errors = nvp4c::compile(source, &nvp4c::Options::default()).unwrap_err();
/// assert_eq!(nvp4c::diag::json::all_to_json(&errors, "prog.fp", source).len(), errors.len());
/// ```
pub fn all_to_json(diagnostics: &Diagnostics, file: &str, source: &str) -> Vec<JsonDiagnostic> {
    diagnostics
        .iter()
        .map(|d| to_json(d, file, source))
        .collect()
}

/// The `X` of a note "did you mean `X`?".
pub(crate) fn suggested_text(note: &str) -> Option<&str> {
    note.strip_prefix("did you mean `")?.strip_suffix("`?")
}

/// What replaces the primary span's text `written` so that it reads as
/// the suggestion `suggested`. The checker suggests whole words where it
/// points at their last part: `state.matrix.mvp` for the member `mvpp`,
/// `.SAT` for the modifier `SATT` (written after a dot the span leaves
/// out); the replacement is then the part after the last dot.
pub(crate) fn replacement_for(written: &str, suggested: &str) -> String {
    match suggested.rfind('.') {
        Some(dot) if !written.contains('.') => suggested[dot + 1..].to_string(),
        _ => suggested.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_columns_are_one_based_in_characters() {
        let source = "!!NVfp4.0\n# é\nMOVV result.color, 1;\nEND\n";
        let d = Diagnostic::error("E0400", "unknown instruction `MOVV`")
            .primary(Span::new(15, 19), "not an instruction")
            .note("did you mean `MOV`?")
            .note("the instructions are listed in Table X.13");
        let j = to_json(&d, "a.fp", source);
        assert_eq!(
            (j.spans[0].line_start, j.spans[0].column_start),
            (3, 1),
            "{j:?}"
        );
        assert_eq!((j.spans[0].line_end, j.spans[0].column_end), (3, 5));
        assert_eq!(j.notes, vec!["the instructions are listed in Table X.13"]);
        let s = j.suggestion.expect("a suggestion");
        assert_eq!((s.replacement.as_str(), s.span.byte_start), ("MOV", 15));
    }

    #[test]
    fn dotted_suggestions_replace_only_the_part_pointed_at() {
        assert_eq!(replacement_for("mvpp", "state.matrix.mvp"), "mvp");
        assert_eq!(replacement_for("SATT", ".SAT"), "SAT");
        assert_eq!(replacement_for("MOVV", "MOV"), "MOV");
        assert_eq!(replacement_for("a.b", "a.c"), "a.c");
    }

    #[test]
    fn utf16_offsets_round_trip() {
        let index = LineIndex::new("x\r\n😀ab\rc");
        assert_eq!(index.line_utf16(8), (1, 3)); // after 😀 (2 units) and a
        assert_eq!(index.offset(1, 3), 8);
        assert_eq!(index.line_col(10), (2, 0));
        assert_eq!(index.offset(9, 0), 11);
    }
}
