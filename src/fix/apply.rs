//! Applying edits to one file's text, keeping the file's line endings and byte-order mark, and
//! mapping positions of the new text back to the old one.

use crate::diagnostics::Edit;
use crate::source::Span;

/// The UTF-8 byte-order mark.
const BOM: &str = "\u{FEFF}";

/// A text with edits applied, and where each edit went.
#[derive(Debug)]
pub(crate) struct Edited {
    /// The new text.
    pub(crate) text: String,
    /// Each applied edit, in order.
    pub(crate) moves: Vec<Move>,
}

/// Where one edit went.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Move {
    /// The edit's index in the list given to [`apply`].
    pub(crate) index: usize,
    /// What it replaced, in the old text.
    pub(crate) old: Span,
    /// What it wrote, in the new text.
    pub(crate) new: Span,
}

/// Where an offset of the new text came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Origin {
    /// Text the edits kept, at this offset of the old text.
    Kept(u32),
    /// Text an edit wrote: the edit's index in [`Edited::moves`].
    Written(usize),
}

impl Edited {
    /// Where the byte at `offset` of the new text came from. An offset at the very end of an
    /// edit's replacement is the kept text after it (an empty replacement writes nothing).
    pub(crate) fn origin(&self, offset: u32) -> Origin {
        // The last edit that starts at or before the offset.
        let i = self.moves.partition_point(|m| m.new.start <= offset);
        if i == 0 {
            return Origin::Kept(offset);
        }
        let m = self.moves[i - 1];
        if offset < m.new.end {
            Origin::Written(i - 1)
        } else {
            Origin::Kept(m.old.end + (offset - m.new.end))
        }
    }

    /// The offset of the old text that `offset` of the new text stands for: itself moved back
    /// by the edits before it, or the start of the edit that wrote it.
    pub(crate) fn old_offset(&self, offset: u32) -> u32 {
        match self.origin(offset) {
            Origin::Kept(o) => o,
            Origin::Written(i) => self.moves[i].old.start,
        }
    }
}

/// The line break of a text: `\r\n` when most of its lines end with it, `\n` otherwise.
pub(crate) fn line_break(text: &str) -> &'static str {
    let bytes = text.as_bytes();
    let (mut crlf, mut lf) = (0usize, 0usize);
    for (i, b) in bytes.iter().enumerate() {
        if *b == b'\n' {
            if i > 0 && bytes[i - 1] == b'\r' {
                crlf += 1;
            } else {
                lf += 1;
            }
        }
    }
    if crlf > lf {
        "\r\n"
    } else {
        "\n"
    }
}

/// `replacement` with its line breaks written as `line_break`.
fn with_line_breaks(replacement: &str, line_break: &str) -> String {
    if !replacement.contains('\n') {
        return replacement.to_string();
    }
    let plain = replacement.replace("\r\n", "\n");
    if line_break == "\n" {
        plain
    } else {
        plain.replace('\n', line_break)
    }
}

/// Applies `edits` (non-overlapping, in bounds, on character boundaries, sorted by position)
/// to `text`. Line breaks in replacements are written as the text writes them (see
/// [`line_break`]), and nothing is inserted before a byte-order mark.
pub(crate) fn apply(text: &str, edits: &[&Edit]) -> Edited {
    let line_break = line_break(text);
    let bom_end = if text.starts_with(BOM) {
        BOM.len() as u32
    } else {
        0
    };
    let mut out = String::with_capacity(text.len() + 64);
    let mut moves = Vec::with_capacity(edits.len());
    let mut pos = 0usize;
    for (index, e) in edits.iter().enumerate() {
        let mut span = e.span;
        if span.start == 0 && span.end == 0 && bom_end > 0 {
            // An insertion at the start of the file goes after its byte-order mark.
            span = Span::empty(bom_end);
        }
        let (start, end) = (span.start as usize, span.end as usize);
        if start < pos {
            // Cannot happen for sorted, non-overlapping edits; never write out of order.
            continue;
        }
        out.push_str(&text[pos..start]);
        let new_start = out.len();
        out.push_str(&with_line_breaks(&e.replacement, line_break));
        moves.push(Move {
            index,
            old: span,
            new: Span::new(new_start, out.len()),
        });
        pos = end;
    }
    out.push_str(&text[pos..]);
    Edited { text: out, moves }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::FileId;

    fn edit(start: u32, end: u32, replacement: &str) -> Edit {
        Edit {
            file: FileId(0),
            span: Span { start, end },
            replacement: replacement.to_string(),
        }
    }

    #[test]
    fn line_breaks_follow_the_file() {
        let e = edit(3, 3, "\nX\r\n");
        let crlf = apply("a\r\nb\r\nc", &[&e]);
        assert_eq!(crlf.text, "a\r\n\r\nX\r\nb\r\nc");
        let lf = apply("a\nb\nc", &[&edit(2, 2, "\r\nX\n")]);
        assert_eq!(lf.text, "a\n\nX\nb\nc");
        assert_eq!(line_break("a\r\nb\nc\r\n"), "\r\n");
        assert_eq!(line_break("a\r\nb\nc\n"), "\n");
        assert_eq!(line_break("abc"), "\n");
    }

    #[test]
    fn nothing_goes_before_a_byte_order_mark() {
        let text = "\u{FEFF}SELECT 1";
        let out = apply(text, &[&edit(0, 0, "-- x\n")]);
        assert_eq!(out.text, "\u{FEFF}-- x\nSELECT 1");
        // Removing the mark itself is an edit of its bytes, and is applied.
        let out = apply(text, &[&edit(0, 3, "")]);
        assert_eq!(out.text, "SELECT 1");
    }

    #[test]
    fn offsets_map_back() {
        // "ab cd ef" -> "ab XYZ ef" (cd replaced) and "ef" -> "" removed.
        let text = "ab cd ef";
        let out = apply(text, &[&edit(3, 5, "XYZ"), &edit(6, 8, "")]);
        assert_eq!(out.text, "ab XYZ ");
        assert_eq!(out.origin(0), Origin::Kept(0));
        assert_eq!(out.origin(3), Origin::Written(0));
        assert_eq!(out.origin(5), Origin::Written(0));
        assert_eq!(out.origin(6), Origin::Kept(5));
        assert_eq!(out.old_offset(4), 3);
        assert_eq!(out.old_offset(7), 8);
    }
}
