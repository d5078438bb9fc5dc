//! Debug information (`Options::debug_info`, `-g`): the program text as
//! OpSource (continued with OpSourceContinued past the 65535-word limit of
//! one instruction), the file name as OpString, an OpLine with the line
//! and column of each source statement before the code it lowers to, and
//! the program's names on its interface variables (OpName). SPIR-V
//! debuggers (RenderDoc, spirv-dis) then show the assembly source.

use rspirv::spirv::{SourceLanguage, Word};

use super::Lowerer;
use crate::span::Span;

/// The characters of one OpSource / OpSourceContinued operand: an
/// instruction is at most 65535 words, 3 of them OpSource's other
/// operands, and the string's terminating NUL needs room too.
const CHUNK_BYTES: usize = 65_000 * 4;

/// What the lowering needs to emit source locations.
pub(crate) struct DebugInfo {
    /// The OpString naming the file.
    pub file: Word,
    /// Byte offset of the start of each line.
    line_starts: Vec<usize>,
    /// The program text, for columns counted in characters.
    source: String,
}

impl DebugInfo {
    /// The 1-based line and column (in characters) of byte `offset`.
    pub(crate) fn line_column(&self, offset: usize) -> (u32, u32) {
        let line = self.line_starts.partition_point(|&s| s <= offset).max(1);
        let start = self.line_starts[line - 1];
        let column = self
            .source
            .get(start..offset.min(self.source.len()))
            .map_or(0, |s| s.chars().count());
        (line as u32, column as u32 + 1)
    }
}

/// Splits `text` into pieces of at most `CHUNK_BYTES` bytes, at character
/// boundaries.
fn chunks(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while rest.len() > CHUNK_BYTES {
        let mut cut = CHUNK_BYTES;
        while !rest.is_char_boundary(cut) {
            cut -= 1;
        }
        out.push(&rest[..cut]);
        rest = &rest[cut..];
    }
    out.push(rest);
    out
}

impl Lowerer<'_> {
    /// OpString and OpSource for the program, when debug information is
    /// asked for and the source is known.
    pub(crate) fn begin_debug_info(&mut self, source: Option<&str>) -> Option<DebugInfo> {
        if !self.options.debug_info {
            return None;
        }
        let name = self
            .options
            .source_name
            .clone()
            .unwrap_or_else(|| "program".to_string());
        let file = self.b.string(name);
        let text = source.unwrap_or("");
        let pieces = chunks(text);
        // SPIR-V has no source language for GPU assembly: Unknown, version 0.
        self.b.source(
            SourceLanguage::Unknown,
            0,
            Some(file),
            source.map(|_| pieces[0].to_string()),
        );
        if source.is_some() {
            for piece in &pieces[1..] {
                self.b.source_continued(*piece);
            }
        }
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Some(DebugInfo {
            file,
            line_starts,
            source: text.to_string(),
        })
    }

    /// An OpLine for the statement at `span`, in the block under
    /// construction.
    pub(crate) fn debug_line(&mut self, span: Span) {
        let Some(debug) = &self.debug else {
            return;
        };
        if self.b.selected_block().is_none() {
            return;
        }
        let (line, column) = debug.line_column(span.start as usize);
        let file = debug.file;
        self.b.line(file, line, column);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_columns_are_one_based_and_count_characters() {
        let text = "!!NVfp4.0\n# é\nMOV result.color, 1;\nEND\n";
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        let d = DebugInfo {
            file: 1,
            line_starts,
            source: text.to_string(),
        };
        assert_eq!(d.line_column(0), (1, 1));
        let mov = text.find("MOV").unwrap();
        assert_eq!(d.line_column(mov), (3, 1));
        assert_eq!(d.line_column(mov + 4), (3, 5));
        let e = text.find('é').unwrap();
        assert_eq!(d.line_column(e + 2), (2, 4)); // after "# é"
    }

    #[test]
    fn long_sources_are_split_at_character_boundaries() {
        let text = "é".repeat(CHUNK_BYTES);
        let pieces = chunks(&text);
        assert!(pieces.len() > 1);
        assert!(pieces.iter().all(|p| p.len() <= CHUNK_BYTES));
        assert_eq!(pieces.concat(), text);
    }
}
