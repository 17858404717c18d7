//! Input text and paths made safe to show: the characters a terminal acts on or that hide
//! text are written as escapes.
//!
//! A message that quotes a string literal, a name or a comment of the input, and a path given
//! by the file system, may hold any character. Printed raw, an escape sequence (`ESC ]` ...
//! `BEL`) can retitle the terminal window or clear the screen, a carriage return can overwrite
//! the line, and a bidirectional override can make the text read differently from what it is
//! ("Trojan Source", CVE-2021-42574). Every text of a finding, every path the formats read on a
//! terminal print and every excerpt of the source goes through this module (the JSON formats
//! carry paths and fixes as JSON strings, which escape the C0 controls themselves).
//!
//! Escaped ([`is_unsafe`]): the C0 controls (U+0000-U+001F, tab and line feed included), DEL
//! (U+007F), the C1 controls (U+0080-U+009F), the bidirectional controls (U+061C, U+200E,
//! U+200F, U+202A-U+202E, U+2066-U+2069), the line and paragraph separators (U+2028, U+2029)
//! and the invisible format characters (U+200B, U+2060-U+2064, U+206A-U+206F, U+FEFF,
//! U+FFF9-U+FFFB). The zero-width joiners (U+200C, U+200D) are kept: scripts and emoji need
//! them. A character is written as `\t`, `\n`, `\r`, `\0` or `\u{1b}` (as Rust writes it),
//! and a byte of a path that is not UTF-8 as `\xff`.

use std::borrow::Cow;
use std::fmt::Write;
use std::path::Path;

/// Whether `c` is escaped for display (see the module documentation).
pub fn is_unsafe(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{1f}'
        | '\u{7f}'..='\u{9f}'
        | '\u{61c}'
        | '\u{200b}'
        | '\u{200e}'
        | '\u{200f}'
        | '\u{2028}'..='\u{202e}'
        | '\u{2060}'..='\u{2064}'
        | '\u{2066}'..='\u{206f}'
        | '\u{feff}'
        | '\u{fff9}'..='\u{fffb}'
    )
}

/// `text` with every unsafe character escaped: one line, whatever it quotes.
pub fn text(text: &str) -> Cow<'_, str> {
    escape(text, is_unsafe)
}

/// `text` with every unsafe character but the line feed escaped: for the parts of a finding
/// that are several lines by design (Flink's own message, notes).
pub fn lines(text: &str) -> Cow<'_, str> {
    escape(text, |c| c != '\n' && is_unsafe(c))
}

/// `path` as one line of safe text: forward slashes, unsafe characters escaped, and the bytes
/// of a name that is not UTF-8 as `\xff` (two such names stay distinct).
pub fn path(path: &Path) -> String {
    let mut out = String::new();
    for chunk in path_bytes(path).utf8_chunks() {
        out.push_str(&text(chunk.valid()));
        for b in chunk.invalid() {
            let _ = write!(out, "\\x{b:02x}");
        }
    }
    if std::path::MAIN_SEPARATOR != '/' {
        out = out.replace(std::path::MAIN_SEPARATOR, "/");
    }
    out
}

#[cfg(unix)]
fn path_bytes(path: &Path) -> Cow<'_, [u8]> {
    use std::os::unix::ffi::OsStrExt;
    Cow::Borrowed(path.as_os_str().as_bytes())
}

#[cfg(not(unix))]
fn path_bytes(path: &Path) -> Cow<'_, [u8]> {
    match path.to_string_lossy() {
        Cow::Borrowed(s) => Cow::Borrowed(s.as_bytes()),
        Cow::Owned(s) => Cow::Owned(s.into_bytes()),
    }
}

/// `text` for an excerpt of the source: each unsafe character replaced by a visible one of
/// the same length in UTF-8 (`?`, `¿` or `\u{fffd}` for one, two or three bytes), so that the
/// byte spans of findings still point at the same characters. Tabs and line feeds stay; a
/// carriage return becomes a line feed, as the line index counts it, or a space before a line
/// feed.
pub fn keeping_offsets(text: &str) -> Cow<'_, str> {
    let replaced = |c: char| c != '\t' && c != '\n' && is_unsafe(c);
    if !text.chars().any(replaced) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        out.push(match c {
            '\r' if chars.peek() == Some(&'\n') => ' ',
            '\r' => '\n',
            c if replaced(c) => match c.len_utf8() {
                1 => '?',
                2 => '¿',
                _ => '\u{fffd}',
            },
            c => c,
        });
    }
    debug_assert_eq!(out.len(), text.len());
    Cow::Owned(out)
}

fn escape(text: &str, unsafe_char: impl Fn(char) -> bool) -> Cow<'_, str> {
    if !text.chars().any(&unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if !unsafe_char(c) {
            out.push(c);
            continue;
        }
        match c {
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\0' => out.push_str("\\0"),
            c => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_and_bidi_overrides_are_escaped() {
        assert_eq!(
            text("a\u{1b}]0;title\u{7}b\r\n\tc\0"),
            "a\\u{1b}]0;title\\u{7}b\\r\\n\\tc\\0"
        );
        assert_eq!(
            text("x\u{9b}y\u{202e}z\u{2066}"),
            "x\\u{9b}y\\u{202e}z\\u{2066}"
        );
        assert_eq!(lines("one\ntwo\u{1b}"), "one\ntwo\\u{1b}");
    }

    #[test]
    fn ordinary_text_is_borrowed_unchanged() {
        for s in [
            "SELECT `naïve` FROM t",
            "日本語",
            "👩\u{200d}💻",
            "back\\slash",
            "",
        ] {
            assert!(matches!(text(s), Cow::Borrowed(b) if b == s), "{s}");
        }
    }

    #[test]
    fn excerpts_keep_their_byte_offsets() {
        let text = "a\u{1b}]0;t\u{7}\r\nb\rc\u{85}d\u{202e}e\tf\n";
        let shown = keeping_offsets(text);
        assert_eq!(shown, "a?]0;t? \nb\nc¿d\u{fffd}e\tf\n");
        assert_eq!(shown.len(), text.len());
        assert!(matches!(keeping_offsets("x\ty\n"), Cow::Borrowed(_)));
    }

    #[cfg(unix)]
    #[test]
    fn paths_keep_bytes_that_are_not_utf8() {
        use std::os::unix::ffi::OsStrExt;
        let p = Path::new(std::ffi::OsStr::from_bytes(b"dir/a\xff\nb.sql"));
        assert_eq!(path(p), "dir/a\\xff\\nb.sql");
    }
}
