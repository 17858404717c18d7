//! Input text and paths made safe to show: the characters a terminal acts on or that hide
//! text are written as escapes.
//!
//! A message that quotes a string literal, a name or a comment of the input, and a path given
//! by the file system, may hold any character. Printed raw, an escape sequence (`ESC ]` ...
//! `BEL`) can retitle the terminal window or clear the screen, a carriage return can overwrite
//! the line, and a bidirectional override can make the text read differently from what it is
//! ("Trojan Source", CVE-2021-42574). Every text of a finding, every path the formats read on a
//! terminal print and every excerpt of the source goes through this module. The JSON formats
//! carry paths and fixes as JSON strings written by [`json_pretty`], which escapes every unsafe
//! character as `\uXXXX` (JSON itself escapes only the C0 controls): the values are the same,
//! the bytes hold no control.
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

/// `value` as pretty-printed JSON (as `serde_json::to_string_pretty` writes it) in which
/// every unsafe character of a string ([`is_unsafe`]: the C1 controls, DEL, the bidirectional
/// controls, U+2028 and U+2029 among them, beside the C0 controls JSON escapes anyway) is
/// written as a `\uXXXX` escape. A JSON reader gets the same values; a terminal or an editor
/// showing the raw text gets no control.
pub fn json_pretty<T: serde::Serialize + ?Sized>(value: &T) -> String {
    let mut out = Vec::with_capacity(256);
    let mut ser = serde_json::Serializer::with_formatter(&mut out, SafeFormatter::default());
    if value.serialize(&mut ser).is_err() {
        return String::new();
    }
    // The serializer writes UTF-8 only.
    String::from_utf8(out).unwrap_or_default()
}

/// serde_json's pretty formatter, with the unsafe characters of strings escaped.
#[derive(Default)]
struct SafeFormatter(serde_json::ser::PrettyFormatter<'static>);

impl serde_json::ser::Formatter for SafeFormatter {
    fn write_string_fragment<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> std::io::Result<()> {
        let mut rest = fragment;
        while let Some((at, c)) = rest.char_indices().find(|&(_, c)| is_unsafe(c)) {
            writer.write_all(&rest.as_bytes()[..at])?;
            // Every unsafe character lies in the Basic Multilingual Plane: one `\uXXXX`.
            write!(writer, "\\u{:04x}", c as u32)?;
            rest = &rest[at + c.len_utf8()..];
        }
        writer.write_all(rest.as_bytes())
    }
    fn begin_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_array(w)
    }
    fn end_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_array(w)
    }
    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.0.begin_array_value(w, first)
    }
    fn end_array_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_array_value(w)
    }
    fn begin_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_object(w)
    }
    fn end_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_object(w)
    }
    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.0.begin_object_key(w, first)
    }
    fn begin_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_object_value(w)
    }
    fn end_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_object_value(w)
    }
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

    #[test]
    fn json_escapes_unsafe_characters_and_keeps_the_values() {
        let value = serde_json::json!({
            "file": "a\u{9b}b\u{202e}c\u{2028}d\u{7f}e\u{1b}f\u{feff}.sql",
            "ok": ["naïve", "日本語", "👩\u{200d}💻", "q\"\\"],
        });
        let text = json_pretty(&value);
        assert_eq!(
            text,
            serde_json::to_string_pretty(&value).unwrap().replace(
                "a\u{9b}b\u{202e}c\u{2028}d\u{7f}e\\u001bf\u{feff}",
                "a\\u009bb\\u202ec\\u2028d\\u007fe\\u001bf\\ufeff",
            )
        );
        assert!(!text.chars().any(|c| is_unsafe(c) && c != '\n'), "{text}");
        let back: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back, value);
    }

    #[cfg(unix)]
    #[test]
    fn paths_keep_bytes_that_are_not_utf8() {
        use std::os::unix::ffi::OsStrExt;
        let p = Path::new(std::ffi::OsStr::from_bytes(b"dir/a\xff\nb.sql"));
        assert_eq!(path(p), "dir/a\\xff\\nb.sql");
    }
}
