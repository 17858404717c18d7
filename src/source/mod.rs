//! Source stage: the text of one file, its byte spans and its line index.
//!
//! Invariants: a [`Span`] is a half-open byte range `start..end` into the file's text, on UTF-8
//! character boundaries. Line and column numbers are computed in exactly one place,
//! [`LineIndex::line_col`], which counts columns in characters (not bytes) and treats `\r\n`,
//! `\n` and a lone `\r` as one line break each.

pub mod natural;

use serde::Serialize;
use std::path::PathBuf;
use std::sync::Arc;

/// A half-open byte range `start..end` in one file's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize)]
pub struct Span {
    /// Byte offset of the first byte.
    pub start: u32,
    /// Byte offset one past the last byte.
    pub end: u32,
}

impl Span {
    /// A span from `start` to `end` (byte offsets).
    pub fn new(start: usize, end: usize) -> Span {
        Span {
            start: start as u32,
            end: end as u32,
        }
    }
    /// An empty span at `offset`.
    pub fn empty(offset: u32) -> Span {
        Span {
            start: offset,
            end: offset,
        }
    }
    /// The smallest span that covers both.
    pub fn cover(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
    /// Length in bytes.
    pub fn len(self) -> usize {
        (self.end - self.start) as usize
    }
    /// Whether the span is empty.
    pub fn is_empty(self) -> bool {
        self.start == self.end
    }
    /// The span as a `usize` range, for slicing.
    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
    /// Whether `other` lies within this span.
    pub fn contains(self, other: Span) -> bool {
        self.start <= other.start && other.end <= self.end
    }
}

/// A 1-based line and 1-based column counted in characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct LineCol {
    /// 1-based line number.
    pub line: u32,
    /// 1-based column, in characters (Unicode scalar values).
    pub column: u32,
}

/// Maps byte offsets to lines and character columns.
#[derive(Debug, Clone)]
pub struct LineIndex {
    /// Byte offset where each line starts; `line_starts[0] == 0`.
    line_starts: Vec<u32>,
    /// Per line, whether it is all ASCII: its columns are then byte distances, found without
    /// counting characters (a line of many findings costs no more than its length).
    ascii: Vec<bool>,
}

impl LineIndex {
    /// Builds the index of `text`. Line breaks: `\r\n`, `\n`, lone `\r`.
    pub fn new(text: &str) -> LineIndex {
        let bytes = text.as_bytes();
        let mut line_starts = vec![0u32];
        let mut ascii = Vec::new();
        let mut line_ascii = true;
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'\n' => {
                    line_starts.push(i as u32 + 1);
                    ascii.push(line_ascii);
                    line_ascii = true;
                }
                b'\r' => {
                    if bytes.get(i + 1) == Some(&b'\n') {
                        i += 1;
                    }
                    line_starts.push(i as u32 + 1);
                    ascii.push(line_ascii);
                    line_ascii = true;
                }
                b => line_ascii &= b.is_ascii(),
            }
            i += 1;
        }
        ascii.push(line_ascii);
        LineIndex { line_starts, ascii }
    }

    /// Line and character column of byte `offset` in `text` (the text the index was built from).
    /// Offsets past the end are clamped to the end.
    pub fn line_col(&self, text: &str, offset: u32) -> LineCol {
        let offset = (offset as usize).min(text.len()) as u32;
        let line = match self.line_starts.binary_search(&offset) {
            Ok(l) => l,
            Err(l) => l - 1,
        };
        let start = self.line_starts[line] as usize;
        if self.ascii.get(line).copied().unwrap_or(false) {
            return LineCol {
                line: line as u32 + 1,
                column: (offset as usize - start) as u32 + 1,
            };
        }
        let mut end = offset as usize;
        while end > start && !text.is_char_boundary(end) {
            end -= 1;
        }
        let column = text[start..end].chars().count() as u32 + 1;
        LineCol {
            line: line as u32 + 1,
            column,
        }
    }

    /// Byte offset where 1-based `line` starts, if it exists.
    pub fn line_start(&self, line: u32) -> Option<u32> {
        self.line_starts.get(line.checked_sub(1)? as usize).copied()
    }

    /// Number of lines (a file without a trailing break still has its last line).
    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }
}

/// Identifies a file within one run: an index into the run's file list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct FileId(pub u32);

/// One file's text and line index.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// The path as it was reached from the argument (never made absolute), or the
    /// `--stdin-filename` for standard input.
    pub path: PathBuf,
    /// The file's full text, byte-for-byte as read (a UTF-8 BOM is kept; the lexer skips it);
    /// shared, so that a project, its last analysis and an editor's buffers hold one copy.
    pub text: Arc<str>,
    /// Line index of `text`.
    pub lines: LineIndex,
}

impl SourceFile {
    /// Wraps `text` read from `path`.
    pub fn new(path: impl Into<PathBuf>, text: impl Into<Arc<str>>) -> SourceFile {
        let text = text.into();
        let lines = LineIndex::new(&text);
        SourceFile {
            path: path.into(),
            text,
            lines,
        }
    }
    /// Line and column of a byte offset.
    pub fn line_col(&self, offset: u32) -> LineCol {
        self.lines.line_col(&self.text, offset)
    }
    /// The text under `span`.
    pub fn slice(&self, span: Span) -> &str {
        &self.text[span.range()]
    }
    /// The path as a forward-slash string (stable across platforms, for output).
    pub fn display_path(&self) -> String {
        self.path.to_string_lossy().replace('\\', "/")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_chars_and_handles_crlf_and_cr() {
        let text = "ab\r\ncé\rx\ny";
        let idx = LineIndex::new(text);
        assert_eq!(idx.line_count(), 4);
        assert_eq!(idx.line_col(text, 0), LineCol { line: 1, column: 1 });
        assert_eq!(idx.line_col(text, 4), LineCol { line: 2, column: 1 });
        // 'é' is two bytes; the char after it is column 3.
        assert_eq!(idx.line_col(text, 7), LineCol { line: 2, column: 3 });
        assert_eq!(idx.line_col(text, 8), LineCol { line: 3, column: 1 });
        assert_eq!(idx.line_col(text, 10), LineCol { line: 4, column: 1 });
        assert_eq!(idx.line_col(text, 99), LineCol { line: 4, column: 2 });
    }

    #[test]
    fn ascii_lines_and_others_give_the_same_columns_as_counting() {
        let text = "SELECT ~~~\r\n  'é' x\rabc\n\n-- ü\nend";
        let idx = LineIndex::new(text);
        for offset in 0..=text.len() as u32 + 2 {
            let o = (offset as usize).min(text.len());
            if !text.is_char_boundary(o) {
                continue;
            }
            let at = idx.line_col(text, offset);
            let start = idx.line_start(at.line).unwrap() as usize;
            // Columns count characters from the line's start (a `\r\n` is one break).
            let expected = text[start..o.max(start)].chars().count() as u32 + 1;
            assert_eq!(at.column, expected, "offset {offset}");
        }
    }
}
