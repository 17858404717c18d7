//! Positions and addresses as the Language Server Protocol writes them: line and UTF-16 code
//! unit positions (LSP 3.17, "Position": the default and only encoding every client
//! supports), and `file:` URIs (RFC 8089) for paths.

use crate::source::{SourceFile, Span};
use lsp_types::{Position, Range, Uri};
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// The LSP position of byte `offset` in `file` (clamped to the text; an offset inside a
/// character counts as that character's start).
pub fn position(file: &SourceFile, offset: u32) -> Position {
    let text = &*file.text;
    let mut offset = (offset as usize).min(text.len());
    while offset > 0 && !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let line = file.lines.line_col(text, offset as u32).line;
    let start = file
        .lines
        .line_start(line)
        .map_or(0, |s| (s as usize).min(offset));
    let character = utf16_len(&text.as_bytes()[start..offset]);
    Position {
        line: line.saturating_sub(1),
        character: u32::try_from(character).unwrap_or(u32::MAX),
    }
}

/// The length in UTF-16 code units of UTF-8 `bytes` (whole characters): one unit per
/// character, two for a character of four bytes. Counted over the bytes (a loop the compiler
/// vectorizes), so that positions on a line of megabytes stay cheap.
fn utf16_len(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .map(|&b| usize::from(b & 0xC0 != 0x80) + usize::from(b >= 0xF0))
        .sum()
}

/// The LSP range of `span` in `file`.
pub fn range(file: &SourceFile, span: Span) -> Range {
    Range {
        start: position(file, span.start),
        end: position(file, span.end.max(span.start)),
    }
}

/// The byte offset of an LSP position in `file`: a character past the end of its line gives
/// the line's end, a line past the last gives the end of the text, a position inside a
/// surrogate pair gives the character's start.
pub fn offset(file: &SourceFile, position: Position) -> u32 {
    let text = &*file.text;
    let Some(line) = position.line.checked_add(1) else {
        return text.len() as u32;
    };
    let Some(start) = file.lines.line_start(line) else {
        return text.len() as u32;
    };
    let end = file.lines.line_end(text, line) as usize;
    let start = start as usize;
    let mut units = 0u32;
    for (i, c) in text[start..end].char_indices() {
        let next = units + c.len_utf16() as u32;
        if next > position.character {
            return (start + i) as u32;
        }
        units = next;
    }
    end as u32
}

/// `text` after a client's changes (`textDocument/didChange`), in order: a change without a
/// range replaces the whole text.
pub fn apply_changes(
    text: &str,
    changes: Vec<lsp_types::TextDocumentContentChangeEvent>,
) -> String {
    let mut new = text.to_string();
    for change in changes {
        match change.range {
            None => new = change.text,
            Some(range) => {
                let file = SourceFile::new("", new.as_str());
                let start = offset(&file, range.start) as usize;
                let end = (offset(&file, range.end) as usize).max(start);
                new.replace_range(start..end, &change.text);
            }
        }
    }
    new
}

/// The path of a `file:` URI (`None` for other schemes, or a URI that is not a path).
pub fn uri_to_path(uri: &Uri) -> Option<PathBuf> {
    let text = uri.as_str();
    let rest = text
        .strip_prefix("file://")
        .or_else(|| text.strip_prefix("FILE://"))?;
    // `file:///p` (empty authority) or `file://localhost/p`.
    let path = match rest.find('/') {
        Some(0) => rest,
        Some(i) if rest[..i].eq_ignore_ascii_case("localhost") => &rest[i..],
        _ => return None,
    };
    let path = path.split(['?', '#']).next().unwrap_or_default();
    let bytes = percent_decode(path)?;
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStringExt;
        Some(PathBuf::from(std::ffi::OsString::from_vec(bytes)))
    }
    #[cfg(not(unix))]
    {
        let s = String::from_utf8(bytes).ok()?;
        // `/C:/x` on Windows.
        let s = match s.strip_prefix('/') {
            Some(r) if r.as_bytes().get(1) == Some(&b':') => r.to_string(),
            _ => s,
        };
        Some(PathBuf::from(s))
    }
}

/// `%XX` sequences decoded; `None` for a malformed one.
fn percent_decode(text: &str) -> Option<Vec<u8>> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    Some(out)
}

/// The `file:` URI of an absolute path (bytes outside RFC 3986's unreserved characters and
/// `/` percent-encoded, as VS Code writes them).
pub fn path_to_uri(path: &Path) -> Option<Uri> {
    let text = path.to_string_lossy().replace('\\', "/");
    let mut out = String::from("file://");
    if !text.starts_with('/') {
        out.push('/');
    }
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(b as char);
        } else if b == b':' && out.len() == "file:///".len() + 1 {
            // A Windows drive letter.
            out.push(':');
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    Uri::from_str(&out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_positions_round_trip() {
        let file = SourceFile::new("a.sql", "SELECT 'é𝄞x';\nSELECT 1;\n");
        // `x` is after a 2-byte and a 4-byte character: UTF-16 columns 8 + 1 + 2.
        let x = file.text.find('x').unwrap() as u32;
        let p = position(&file, x);
        assert_eq!((p.line, p.character), (0, 11));
        assert_eq!(offset(&file, p), x);
        // Inside the surrogate pair: the character's start.
        let clef = file.text.find('𝄞').unwrap() as u32;
        assert_eq!(offset(&file, Position::new(0, 10)), clef);
        // Out of range: the line's end, the text's end.
        let second = file.text.find("SELECT 1").unwrap() as u32;
        assert_eq!(offset(&file, Position::new(1, 999)), second + 9);
        assert_eq!(offset(&file, Position::new(99, 0)), file.text.len() as u32);
        assert_eq!(
            offset(&file, Position::new(u32::MAX, u32::MAX)),
            file.text.len() as u32
        );
    }

    #[test]
    fn uris_and_paths() {
        let uri = path_to_uri(Path::new("/tmp/a b/ü.sql")).unwrap();
        assert_eq!(uri.as_str(), "file:///tmp/a%20b/%C3%BC.sql");
        assert_eq!(uri_to_path(&uri).unwrap(), PathBuf::from("/tmp/a b/ü.sql"));
        let other = Uri::from_str("untitled:Untitled-1").unwrap();
        assert_eq!(uri_to_path(&other), None);
        let bad = Uri::from_str("file:///a%2").ok();
        assert!(bad.is_none() || uri_to_path(&bad.unwrap()).is_none());
    }
}
