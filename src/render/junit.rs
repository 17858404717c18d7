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

/// The test cases: every reported file and every file with findings, with its first findings
/// (of the first `limit` of the report) and how many of its findings are left out. Files with
/// findings come in the order of the findings (the report order, which puts the files of a
/// history in the order they apply); they keep their places among the files without findings,
/// which are in natural order of their paths. One pass over the findings.
fn case_order<'a>(
    files: &[FileEntry],
    diagnostics: &'a [Diagnostic],
    limit: usize,
) -> Vec<(usize, Vec<&'a Diagnostic>, usize)> {
    let mut found: Vec<(Vec<&Diagnostic>, usize)> = vec![(Vec::new(), 0); files.len()];
    let mut by_findings: Vec<usize> = Vec::new();
    for (k, d) in diagnostics.iter().enumerate() {
        let Some((list, left_out)) = found.get_mut(d.file.0 as usize) else {
            continue;
        };
        if list.is_empty() && *left_out == 0 {
            by_findings.push(d.file.0 as usize);
        }
        if k < limit {
            list.push(d);
        } else {
            *left_out += 1;
        }
    }
    let has_findings: Vec<bool> = found
        .iter()
        .map(|(f, left_out)| !f.is_empty() || *left_out > 0)
        .collect();
    let mut slots: Vec<usize> = (0..files.len())
        .filter(|&i| files[i].report || has_findings[i])
        .collect();
    let paths: Vec<_> = files
        .iter()
        .map(|f| crate::source::natural::components(&f.source.path))
        .collect();
    slots.sort_by(|&a, &b| {
        crate::source::natural::cmp_components(&paths[a], &paths[b]).then_with(|| a.cmp(&b))
    });
    let mut next = by_findings.into_iter();
    slots
        .into_iter()
        .map(|i| {
            let i = if !has_findings[i] {
                i
            } else {
                next.next().unwrap_or(i)
            };
            let (list, left_out) = std::mem::take(&mut found[i]);
            (i, list, left_out)
        })
        .collect()
}

/// The document, with an XML declaration and a trailing newline.
pub fn render(files: &[FileEntry], diagnostics: &[Diagnostic]) -> String {
    render_limited(files, diagnostics, usize::MAX)
}

/// The document with a `<failure>` for each of the first `limit` diagnostics.
pub fn render_limited(files: &[FileEntry], diagnostics: &[Diagnostic], limit: usize) -> String {
    let (_, omitted) = super::limit(diagnostics, limit);
    let cases: Vec<(&FileEntry, Vec<&Diagnostic>, usize)> = case_order(files, diagnostics, limit)
        .into_iter()
        .map(|(f, found, left_out)| (&files[f], found, left_out))
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
