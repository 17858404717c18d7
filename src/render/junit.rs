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

use super::{line_cols, path_of};
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

/// The test cases: every reported file and every file with findings, with its findings. Files
/// with findings come in the order of the findings (the report order, which puts the files of
/// a history in the order they apply); they keep their places among the files without
/// findings, which are in natural order of their paths.
fn case_order<'a>(
    files: &[FileEntry],
    diagnostics: &'a [Diagnostic],
) -> Vec<(usize, Vec<&'a Diagnostic>)> {
    let mut found: Vec<Vec<&Diagnostic>> = vec![Vec::new(); files.len()];
    let mut by_findings: Vec<usize> = Vec::new();
    for d in diagnostics {
        let Some(list) = found.get_mut(d.file.0 as usize) else {
            continue;
        };
        if list.is_empty() {
            by_findings.push(d.file.0 as usize);
        }
        list.push(d);
    }
    let mut slots: Vec<usize> = (0..files.len())
        .filter(|&i| files[i].report || !found[i].is_empty())
        .collect();
    let paths: Vec<_> = files
        .iter()
        .map(|f| crate::source::natural::components(&f.source.path))
        .collect();
    slots.sort_by(|&a, &b| {
        crate::source::natural::cmp_components(&paths[a], &paths[b]).then_with(|| a.cmp(&b))
    });
    let has_findings: Vec<bool> = found.iter().map(|f| !f.is_empty()).collect();
    let mut next = by_findings.into_iter();
    slots
        .into_iter()
        .map(|i| {
            let i = if !has_findings[i] {
                i
            } else {
                next.next().unwrap_or(i)
            };
            (i, std::mem::take(&mut found[i]))
        })
        .collect()
}

/// The document, with an XML declaration and a trailing newline.
pub fn render(files: &[FileEntry], diagnostics: &[Diagnostic]) -> String {
    let cases: Vec<(&FileEntry, Vec<&Diagnostic>)> = case_order(files, diagnostics)
        .into_iter()
        .map(|(f, found)| (&files[f], found))
        .collect();
    let tests = cases.len();
    let failures = cases.iter().filter(|(_, found)| !found.is_empty()).count();
    let counts = format!(r#"tests="{tests}" failures="{failures}" errors="0""#);
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(out, r#"<testsuites name="flinklint" {counts}>"#);
    let _ = writeln!(
        out,
        r#"  <testsuite name="flinklint" {counts} skipped="0">"#
    );
    for (file, found) in &cases {
        let path = escape(&path_of(files, file.id));
        let open = format!(r#"    <testcase name="{path}" classname="{path}""#);
        if found.is_empty() {
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
        out.push_str("    </testcase>\n");
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
