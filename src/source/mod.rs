//! Source stage: the text of one file, its byte spans and its line index.
//!
//! Invariants: a [`Span`] is a half-open byte range `start..end` into the file's text, on UTF-8
//! character boundaries. Line and column numbers are computed in exactly one place,
//! [`LineIndex::line_col`], which counts columns in characters (not bytes) and treats `\r\n`,
//! `\n` and a lone `\r` as one line break each. Input text and paths are shown through
//! [`escape`].

pub mod escape;

pub mod embedded;

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

/// Bytes between two checkpoints of [`LineIndex`] (a column costs counting at most this many
/// bytes, whatever the length of its line).
const CHECKPOINT_BYTES: usize = 256;

/// Maps byte offsets to lines and character columns, each in `O(log n)`.
#[derive(Debug, Clone)]
pub struct LineIndex {
    /// Byte offset where each line starts; `line_starts[0] == 0`.
    line_starts: Vec<u32>,
    /// Per line, whether it is all ASCII: its columns are then byte distances, found without
    /// counting characters (a line of many findings costs no more than its length).
    ascii: Vec<bool>,
    /// For a text that is not all ASCII: about every [`CHECKPOINT_BYTES`] bytes, a character
    /// boundary and the number of characters before it. A column counts the characters from
    /// the nearest checkpoint only, so a long line of many findings costs linear time.
    checkpoints: Vec<(u32, u32)>,
}

/// Whether `b` starts a UTF-8 character (is not a continuation byte).
fn starts_char(b: u8) -> bool {
    (b & 0xC0) != 0x80
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
        let checkpoints = if text.is_ascii() {
            Vec::new()
        } else {
            let mut checkpoints = Vec::with_capacity(bytes.len() / CHECKPOINT_BYTES + 1);
            let mut chars = 0u32;
            let mut next = 0;
            for (i, &b) in bytes.iter().enumerate() {
                if starts_char(b) {
                    if i >= next {
                        checkpoints.push((i as u32, chars));
                        next = i + CHECKPOINT_BYTES;
                    }
                    chars += 1;
                }
            }
            checkpoints
        };
        LineIndex {
            line_starts,
            ascii,
            checkpoints,
        }
    }

    /// The number of characters of `text` before byte `offset` (a character boundary).
    fn chars_before(&self, text: &str, offset: usize) -> u32 {
        let at = self
            .checkpoints
            .partition_point(|&(byte, _)| byte as usize <= offset);
        let (from, chars) = match at.checked_sub(1) {
            Some(i) => self.checkpoints[i],
            None => (0, 0),
        };
        let from = (from as usize).min(offset);
        let counted = text.as_bytes()[from..offset]
            .iter()
            .filter(|&&b| starts_char(b))
            .count();
        chars + counted as u32
    }

    /// Line and character column of byte `offset` in `text` (the text the index was built from).
    /// Offsets past the end are clamped to the end; an offset inside a character counts as that
    /// character's start.
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
        let column = self.chars_before(text, end) - self.chars_before(text, start) + 1;
        LineCol {
            line: line as u32 + 1,
            column,
        }
    }

    /// Byte offset where the text of 1-based `line` ends, before its line break (the end of
    /// `text` for the last line or a line past it).
    pub fn line_end(&self, text: &str, line: u32) -> u32 {
        let next = self
            .line_starts
            .get(line as usize)
            .map_or(text.len(), |&s| s as usize);
        let bytes = text.as_bytes();
        let mut end = next.min(bytes.len());
        if end > 0 && bytes[end - 1] == b'\n' && (line as usize) < self.line_starts.len() {
            end -= 1;
        }
        if end > 0 && bytes[end - 1] == b'\r' && (line as usize) < self.line_starts.len() {
            end -= 1;
        }
        end as u32
    }

    /// Byte offset of 1-based `column` (in characters) on 1-based `line`: the inverse of
    /// [`LineIndex::line_col`], in `O(log n)`. A column past the line's text gives the end of
    /// its text ([`LineIndex::line_end`]); a line past the last gives the end of `text`.
    pub fn offset_of(&self, text: &str, line: u32, column: u32) -> u32 {
        let Some(start) = self.line_start(line) else {
            return text.len() as u32;
        };
        let (start, end) = (start as usize, self.line_end(text, line) as usize);
        let wanted = column.saturating_sub(1);
        if self.ascii.get(line as usize - 1).copied().unwrap_or(false) {
            return (start + wanted as usize).min(end) as u32;
        }
        // Walk from the last checkpoint at or before the wanted character (at most a
        // checkpoint interval), or from the line's start.
        let target = self.chars_before(text, start) + wanted;
        let at = self
            .checkpoints
            .partition_point(|&(_, chars)| chars <= target);
        let (mut pos, mut chars) = match at.checked_sub(1).map(|i| self.checkpoints[i]) {
            Some((byte, chars)) if byte as usize >= start => (byte as usize, chars),
            _ => (start, self.chars_before(text, start)),
        };
        let bytes = text.as_bytes();
        while pos < end && chars < target {
            pos += 1;
            while pos < end && !starts_char(bytes[pos]) {
                pos += 1;
            }
            chars += 1;
        }
        pos.min(end) as u32
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

    #[test]
    fn long_non_ascii_lines_use_checkpoints_and_count_like_counting() {
        // Lines longer than a checkpoint interval, with characters of 1 to 4 bytes, a break
        // inside, and checkpoints falling in the middle of characters.
        let line: String = "aé中😀".repeat(100);
        let text = format!("{line}\r\n{line}x\n\n{line}");
        let idx = LineIndex::new(&text);
        assert!(idx.checkpoints.len() > 4);
        for offset in 0..=text.len() as u32 {
            let o = offset as usize;
            let at = idx.line_col(&text, offset);
            let start = idx.line_start(at.line).unwrap() as usize;
            let mut end = o.max(start);
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            let expected = text[start..end].chars().count() as u32 + 1;
            assert_eq!(at.column, expected, "offset {offset}");
            // And back: the column's offset is the character's start (within the line's text).
            if end <= idx.line_end(&text, at.line) as usize {
                assert_eq!(idx.offset_of(&text, at.line, at.column) as usize, end);
            }
        }
        // Past a line's text: its end, before the break; past the last line: the text's end.
        assert_eq!(idx.line_end(&text, 1) as usize, line.len());
        assert_eq!(idx.offset_of(&text, 1, 10_000) as usize, line.len());
        assert_eq!(idx.offset_of(&text, 3, 5), idx.line_start(3).unwrap());
        assert_eq!(idx.offset_of(&text, 9, 1) as usize, text.len());
    }

    #[test]
    fn line_ends_stop_before_each_kind_of_break() {
        let text = "ab\r\ncd\ref\ngh";
        let idx = LineIndex::new(text);
        let ends: Vec<u32> = (1..=4).map(|l| idx.line_end(text, l)).collect();
        assert_eq!(ends, [2, 6, 9, 12]);
        assert_eq!(idx.offset_of(text, 2, 2), 5);
        assert_eq!(idx.offset_of(text, 2, 9), 6);
    }
}
