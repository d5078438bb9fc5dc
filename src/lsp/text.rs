//! The text of an open document and what an edit did to it: the line
//! starts (kept up to date edit by edit, so converting an LSP position
//! costs a binary search, not a scan of the file), LSP positions in UTF-16
//! code units to byte offsets and back, and [`TextChange`], the one byte
//! range that a run of edits replaced, from which the syntax index
//! (`analysis`) re-reads only the statements it touches.
//!
//! A `String` holds the text: an edit copies it once (a few hundred
//! microseconds for a 1 MB file), far below what re-reading it would cost,
//! so no rope is needed; what must not be redone per edit is the *line*
//! scan and the *parse*, and both are incremental here.

use lsp_types::{Position, Range, TextDocumentContentChangeEvent};

use crate::span::Span;

/// The byte range `start..old_end` of one version of a text was replaced
/// by `start..new_end` of the next; the bytes before `start`, and those
/// from `old_end` on (now from `new_end` on), are the same in both.
///
/// ```
/// # use nvp4c::lsp::text::TextChange;
/// // "abcdef": "cd" replaced by "XYZ" (→ "abXYZef"), then "Ze" by "" (→ "abXYf").
/// let first = TextChange { start: 2, old_end: 4, new_end: 5 };
/// let both = first.then(TextChange { start: 4, old_end: 6, new_end: 4 });
/// assert_eq!(both, TextChange { start: 2, old_end: 5, new_end: 4 });
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextChange {
    pub start: usize,
    pub old_end: usize,
    pub new_end: usize,
}

impl TextChange {
    /// How far the unchanged text after the change moved.
    pub fn delta(&self) -> isize {
        self.new_end as isize - self.old_end as isize
    }

    /// This change followed by `next` (a change of the text this one
    /// produced), as one change of the original text: the smallest range
    /// covering both.
    pub fn then(self, next: TextChange) -> TextChange {
        let start = self.start.min(next.start);
        // The end of the changed region in the intermediate text, and the
        // matching end in the original text (past `self.new_end`, the two
        // texts differ by `self.delta()`).
        let (old_end, middle_end) = if next.old_end <= self.new_end {
            (self.old_end, self.new_end)
        } else {
            (
                (next.old_end as isize - self.delta()) as usize,
                next.old_end,
            )
        };
        TextChange {
            start,
            old_end,
            new_end: (middle_end as isize + next.delta()) as usize,
        }
    }

    /// Where a span of the old text is in the new one, or `None` if the
    /// change touched it.
    ///
    /// ```
    /// # use nvp4c::lsp::text::TextChange;
    /// # use nvp4c::span::Span;
    /// let change = TextChange { start: 10, old_end: 12, new_end: 15 };
    /// assert_eq!(change.map_span(Span::new(2, 5)), Some(Span::new(2, 5)));
    /// assert_eq!(change.map_span(Span::new(20, 25)), Some(Span::new(23, 28)));
    /// assert_eq!(change.map_span(Span::new(8, 11)), None);
    /// ```
    pub fn map_span(&self, span: Span) -> Option<Span> {
        // Strictly outside: a word that ends where text was inserted may
        // have grown (`R1` → `R12`).
        let (s, e) = (span.start as usize, span.end as usize);
        if e < self.start {
            Some(span)
        } else if s > self.old_end {
            let shift = |x: usize| (x as isize + self.delta()) as usize;
            Some(Span::new(shift(s), shift(e)))
        } else {
            None
        }
    }
}

/// Where each line of a text starts. A line ends at `\n`, `\r\n` or a lone
/// `\r`, as everywhere in nvp4c (`diag::json::LineIndex`).
///
/// ```
/// # use nvp4c::lsp::text::LineStarts;
/// let lines = LineStarts::new("a\r\nb\rc");
/// assert_eq!(lines.starts(), [0, 3, 5]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineStarts(Vec<usize>);

impl LineStarts {
    pub fn new(text: &str) -> LineStarts {
        let mut starts = vec![0];
        starts.extend((0..text.len()).filter_map(|i| starts_line_after(text, i)));
        LineStarts(starts)
    }

    pub fn starts(&self) -> &[usize] {
        &self.0
    }

    /// The line starts of `new_text`, which `change` made from the text
    /// these are of: only the changed bytes (and the one before them, for
    /// a `\r` that a `\n` now follows) are looked at.
    ///
    /// ```
    /// # use nvp4c::lsp::text::{LineStarts, TextChange};
    /// let old = LineStarts::new("ab\ncd\nef");
    /// let new = old.edited("ab\nX\nY\nef", TextChange { start: 3, old_end: 5, new_end: 6 });
    /// assert_eq!(new, LineStarts::new("ab\nX\nY\nef"));
    /// ```
    pub fn edited(&self, new_text: &str, change: TextChange) -> LineStarts {
        // A line start `s` depends on the bytes `s - 1` and `s` only.
        let keep = self.0.partition_point(|&s| s < change.start).max(1);
        let mut starts = self.0[..keep].to_vec();
        let from = change.start.saturating_sub(1);
        let to = (change.new_end + 1).min(new_text.len());
        starts.extend((from..to).filter_map(|i| starts_line_after(new_text, i)));
        let last = starts.last().copied().unwrap_or(0);
        starts.extend(
            self.0[keep..]
                .iter()
                .filter(|&&s| s > change.old_end + 1)
                .map(|&s| (s as isize + change.delta()) as usize)
                .filter(|&s| s > last),
        );
        LineStarts(starts)
    }

    /// The 0-based line of a byte offset.
    pub fn line(&self, offset: usize) -> usize {
        self.0.partition_point(|&s| s <= offset).saturating_sub(1)
    }

    /// The LSP position (UTF-16 columns) of a byte offset, clamped to the
    /// text.
    pub fn position(&self, text: &str, offset: usize) -> Position {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.line(offset);
        let column = text[self.0[line]..offset].encode_utf16().count();
        Position::new(line as u32, column as u32)
    }

    /// The byte offset of an LSP position, clamped to its line and to the
    /// text (a column past the line's end is its end).
    pub fn offset(&self, text: &str, position: Position) -> usize {
        let Some(&start) = self.0.get(position.line as usize) else {
            return text.len();
        };
        let end = self
            .0
            .get(position.line as usize + 1)
            .copied()
            .unwrap_or(text.len());
        let mut units = 0;
        for (i, c) in text[start..end].char_indices() {
            if units >= position.character as usize || c == '\n' || c == '\r' {
                return start + i;
            }
            units += c.len_utf16();
        }
        end
    }

    pub fn range(&self, text: &str, span: Span) -> Range {
        Range::new(
            self.position(text, span.start as usize),
            self.position(text, span.end as usize),
        )
    }
}

/// The start of the line after byte `i`, if a line ends at `i`.
fn starts_line_after(text: &str, i: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    match bytes[i] {
        b'\n' => Some(i + 1),
        b'\r' if bytes.get(i + 1) != Some(&b'\n') => Some(i + 1),
        _ => None,
    }
}

/// A text and its line starts.
#[derive(Clone, Debug)]
pub struct Text {
    pub text: String,
    pub lines: LineStarts,
}

impl Text {
    pub fn new(text: String) -> Text {
        let lines = LineStarts::new(&text);
        Text { text, lines }
    }

    /// Applies the changes of one `didChange`, in order (each is relative
    /// to the text the ones before it left). A change without a range
    /// replaces the whole text; the range of it that really changed is
    /// found by comparing the two (what full synchronisation costs is then
    /// a comparison, not a re-read). Returns the change as one
    /// [`TextChange`], or `None` when the text is the same.
    ///
    /// ```
    /// # use nvp4c::lsp::text::{Text, TextChange};
    /// # use lsp_types::{Position, Range, TextDocumentContentChangeEvent as Change};
    /// let mut text = Text::new("MOV R0, R1;\nEND\n".into());
    /// let change = text.apply(vec![Change {
    ///     range: Some(Range::new(Position::new(0, 9), Position::new(0, 10))),
    ///     range_length: None,
    ///     text: "7".into(),
    /// }]);
    /// assert_eq!(text.text, "MOV R0, R7;\nEND\n");
    /// assert_eq!(change, Some(TextChange { start: 9, old_end: 10, new_end: 10 }));
    /// ```
    pub fn apply(&mut self, changes: Vec<TextDocumentContentChangeEvent>) -> Option<TextChange> {
        let mut total: Option<TextChange> = None;
        for c in changes {
            let change = match c.range {
                Some(range) => {
                    let start = self.lines.offset(&self.text, range.start);
                    let end = self.lines.offset(&self.text, range.end).max(start);
                    self.text.replace_range(start..end, &c.text);
                    TextChange {
                        start,
                        old_end: end,
                        new_end: start + c.text.len(),
                    }
                }
                None => {
                    let change = difference(&self.text, &c.text);
                    self.text = c.text;
                    change
                }
            };
            self.lines = self.lines.edited(&self.text, change);
            total = Some(total.map_or(change, |t| t.then(change)));
        }
        total.filter(|t| t.start != t.old_end || t.start != t.new_end)
    }
}

/// The one range in which `old` and `new` differ (their common prefix and
/// suffix left out), on character boundaries.
///
/// ```
/// # use nvp4c::lsp::text::{difference, TextChange};
/// assert_eq!(difference("MOV R1;", "MOV R12;"), TextChange { start: 6, old_end: 6, new_end: 7 });
/// ```
pub fn difference(old: &str, new: &str) -> TextChange {
    let (a, b) = (old.as_bytes(), new.as_bytes());
    let mut prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    while !old.is_char_boundary(prefix) || !new.is_char_boundary(prefix) {
        prefix -= 1;
    }
    let room = a.len().min(b.len()) - prefix;
    let mut suffix = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take(room)
        .take_while(|(x, y)| x == y)
        .count();
    while !old.is_char_boundary(a.len() - suffix) || !new.is_char_boundary(b.len() - suffix) {
        suffix -= 1;
    }
    TextChange {
        start: prefix,
        old_end: a.len() - suffix,
        new_end: b.len() - suffix,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator (xorshift), so failures reproduce.
    struct Rng(u64);
    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n.max(1) as u64) as usize
        }
    }

    #[test]
    fn edited_line_starts_equal_a_fresh_scan() {
        let pieces = ["\n", "\r", "\r\n", "a", "bc", "é", ""];
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for _ in 0..2000 {
            let mut text: String = (0..rng.below(12))
                .map(|_| pieces[rng.below(pieces.len())])
                .collect();
            let mut lines = LineStarts::new(&text);
            for _ in 0..4 {
                let mut start = rng.below(text.len() + 1);
                while !text.is_char_boundary(start) {
                    start -= 1;
                }
                let mut end = start + rng.below(text.len() - start + 1);
                while !text.is_char_boundary(end) {
                    end -= 1;
                }
                let insert: String = (0..rng.below(3))
                    .map(|_| pieces[rng.below(pieces.len())])
                    .collect();
                text.replace_range(start..end, &insert);
                let change = TextChange {
                    start,
                    old_end: end,
                    new_end: start + insert.len(),
                };
                lines = lines.edited(&text, change);
                assert_eq!(lines, LineStarts::new(&text), "{text:?} after {change:?}");
            }
        }
    }

    #[test]
    fn composed_changes_cover_every_edit() {
        let mut rng = Rng(12345);
        for _ in 0..2000 {
            let original: String = (0..rng.below(20))
                .map(|i| (b'a' + i as u8) as char)
                .collect();
            let mut text = original.clone();
            let mut total: Option<TextChange> = None;
            for _ in 0..1 + rng.below(4) {
                let start = rng.below(text.len() + 1);
                let end = start + rng.below(text.len() - start + 1);
                let insert = "XY"[..rng.below(3)].to_string();
                text.replace_range(start..end, &insert);
                let c = TextChange {
                    start,
                    old_end: end,
                    new_end: start + insert.len(),
                };
                total = Some(total.map_or(c, |t| t.then(c)));
            }
            let t = total.unwrap();
            // Outside the composed range, the texts agree.
            assert_eq!(original[..t.start], text[..t.start], "{t:?}");
            assert_eq!(original[t.old_end..], text[t.new_end..], "{t:?}");
        }
    }

    #[test]
    fn positions_are_utf16_columns() {
        let text = "a𝄞b\ncd";
        let lines = LineStarts::new(text);
        assert_eq!(lines.offset(text, Position::new(0, 3)), 5);
        assert_eq!(lines.position(text, 5), Position::new(0, 3));
        assert_eq!(lines.offset(text, Position::new(1, 9)), text.len());
        assert_eq!(lines.offset(text, Position::new(7, 0)), text.len());
    }

    #[test]
    fn a_full_text_change_becomes_the_range_that_differs() {
        assert_eq!(
            difference("abc", "abc"),
            TextChange {
                start: 3,
                old_end: 3,
                new_end: 3
            }
        );
        // Repeated letters: the suffix does not overlap the prefix.
        assert_eq!(
            difference("aa", "aaa"),
            TextChange {
                start: 2,
                old_end: 2,
                new_end: 3
            }
        );
        // Never inside a character.
        assert_eq!(
            difference("é", "è"),
            TextChange {
                start: 0,
                old_end: 2,
                new_end: 2
            }
        );
    }
}
