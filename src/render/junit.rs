//! `--format junit`: JUnit XML, which CI systems (GitLab `artifacts: reports: junit:`,
//! Jenkins, Azure Pipelines, ...) show as test results.
//!
//! Shape, in the dialect of Ant and Maven Surefire as described by the Jenkins schema
//! `junit-10.xsd` (a copy is in `fixtures/formats/`, see the README there):
//!
//! ```xml
//! <testsuites name="flinklint" tests="2" failures="1" errors="0">
//!   <testsuite name="flinklint" tests="2" failures="1" errors="0" skipped="0">
//!     <testcase name="a.sql" classname="a.sql"/>
//!     <testcase name="b.sql" classname="b.sql">
//!       <failure message="CT002 INSERT INTO ..." type="warning">b.sql:11:13</failure>
//!     </testcase>
//!   </testsuite>
//! </testsuites>
//! ```
//!
//! One `<testcase>` per checked file (`name` and `classname` are the path), with one
//! `<failure>` per finding in it; `tests` counts the files and `failures` the files with
//! findings. Text is escaped for XML 1.0; characters XML 1.0 cannot carry at all (most
//! control characters) become U+FFFD.
//!
//! Past the limit (`--max-findings`), only the first findings have a `<failure>` of their own;
//! a file with findings left out has one more `<failure type="omitted">` saying how many, so
//! that no file with findings passes, and the suite's `<system-out>` counts what was left out
//! by rule and severity.

use super::{line_cols, shown_path_of};
use crate::diagnostics::Diagnostic;
use crate::files::FileEntry;
use std::fmt::Write as _;

/// Escapes text for an XML 1.0 attribute value in double quotes (as written here) or element
/// content.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            // Kept as characters by a parser, even in attribute values.
            '\t' => out.push_str("&#9;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            // XML 1.0 `Char`: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF].
            c if c < '\u{20}' || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// The document, with an XML declaration and a trailing newline.
pub fn render(files: &[FileEntry], diagnostics: &[Diagnostic]) -> String {
    render_limited(files, diagnostics, usize::MAX)
}

/// The document with a `<failure>` for each of the first `limit` diagnostics.
pub fn render_limited(files: &[FileEntry], diagnostics: &[Diagnostic], limit: usize) -> String {
    let (_, omitted) = super::limit(diagnostics, limit);
    // Each file's findings, and how many of them are left out (one pass over the findings).
    let mut by_file: Vec<(Vec<&Diagnostic>, usize)> = vec![(Vec::new(), 0); files.len()];
    for (i, d) in diagnostics.iter().enumerate() {
        if let Some((found, left_out)) = by_file.get_mut(d.file.0 as usize) {
            if i < limit {
                found.push(d);
            } else {
                *left_out += 1;
            }
        }
    }
    let cases: Vec<(&FileEntry, Vec<&Diagnostic>, usize)> = files
        .iter()
        .zip(by_file)
        .map(|(f, (found, left_out))| (f, found, left_out))
        .filter(|(f, found, left_out)| f.report || !found.is_empty() || *left_out > 0)
        .collect();
    let tests = cases.len();
    let failures = cases
        .iter()
        .filter(|(_, found, left_out)| !found.is_empty() || *left_out > 0)
        .count();
    let counts = format!(r#"tests="{tests}" failures="{failures}" errors="0""#);
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(out, r#"<testsuites name="flinklint" {counts}>"#);
    let _ = writeln!(
        out,
        r#"  <testsuite name="flinklint" {counts} skipped="0">"#
    );
    for (file, found, left_out) in &cases {
        let path = escape(&shown_path_of(files, file.id));
        let open = format!(r#"    <testcase name="{path}" classname="{path}""#);
        if found.is_empty() && *left_out == 0 {
            let _ = writeln!(out, "{open}/>");
            continue;
        }
        let _ = writeln!(out, "{open}>");
        for d in found {
            let (start, _) = line_cols(files, d.file, d.span);
            let _ = writeln!(
                out,
                r#"      <failure message="{}" type="{}">{}:{}:{}</failure>"#,
                escape(&format!("{} {}", d.code, d.message)),
                d.severity.as_str(),
                path,
                start.line,
                start.column
            );
        }
        if *left_out > 0 {
            let _ = writeln!(
                out,
                r#"      <failure message="{}" type="omitted">{path}</failure>"#,
                escape(&format!(
                    "{left_out} more finding{} in this file not shown (see --max-findings)",
                    if *left_out == 1 { "" } else { "s" }
                )),
            );
        }
        out.push_str("    </testcase>\n");
    }
    if let Some(omitted) = omitted {
        let _ = writeln!(
            out,
            "    <system-out>{}</system-out>",
            escape(&omitted.sentence())
        );
    }
    out.push_str("  </testsuite>\n</testsuites>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn escape_covers_markup_breaks_and_forbidden_characters() {
        assert_eq!(escape("a<b>&\"c\" 'd'"), "a&lt;b&gt;&amp;&quot;c&quot; 'd'");
        assert_eq!(escape("x\ty\r\nz"), "x&#9;y&#13;&#10;z");
        assert_eq!(escape("\u{0}\u{1b}\u{FFFF}é"), "\u{FFFD}\u{FFFD}\u{FFFD}é");
    }
}
