//! `--format github`: GitHub Actions workflow commands, one per finding, then the summary line
//! of `human`. GitHub shows each as an annotation on the file and line (in the run summary and
//! on the pull request's changed files).
//!
//! Shape (GitHub Docs, "Workflow commands for GitHub Actions", *Setting an error message*,
//! <https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-commands>):
//!
//! ```text
//! ::error file={path},line={l},col={c},endLine={el},endColumn={ec},title={CODE} {name}::{message}
//! ```
//!
//! `::warning` for warnings and `::notice` for info. Past the limit (`--max-findings`), one
//! `::warning title=flinklint::` command without a file counts the findings left out. Lines and columns are 1-based, columns in
//! characters, `endColumn` exclusive (as in `--format json`). `col` and `endColumn` are left
//! out when the finding spans several lines, which GitHub does not accept. Escaping follows
//! the Actions toolkit (`@actions/core`, `command.ts`): in the message `%` → `%25`, `\r` →
//! `%0D`, `\n` → `%0A`; in property values additionally `:` → `%3A` and `,` → `%2C`.

use super::{human, line_cols, shown_path_of};
use crate::diagnostics::{Diagnostic, Severity};
use crate::files::FileEntry;

/// Escapes the message (data) of a workflow command.
pub fn escape_data(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '%' => out.push_str("%25"),
            '\r' => out.push_str("%0D"),
            '\n' => out.push_str("%0A"),
            c => out.push(c),
        }
    }
    out
}

/// Escapes a property value of a workflow command.
pub fn escape_property(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in escape_data(s).chars() {
        match c {
            ':' => out.push_str("%3A"),
            ',' => out.push_str("%2C"),
            c => out.push(c),
        }
    }
    out
}

/// The workflow command name for a severity.
pub fn command(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "notice",
    }
}

/// The workflow command of one diagnostic, without the line break.
pub fn line(files: &[FileEntry], d: &Diagnostic) -> String {
    let (start, end) = line_cols(files, d.file, d.span);
    let mut props = vec![
        ("file", shown_path_of(files, d.file)),
        ("line", start.line.to_string()),
    ];
    if start.line == end.line {
        props.push(("col", start.column.to_string()));
    }
    props.push(("endLine", end.line.to_string()));
    if start.line == end.line {
        props.push(("endColumn", end.column.to_string()));
    }
    props.push(("title", format!("{} {}", d.code, d.name)));
    let props: Vec<String> = props
        .into_iter()
        .map(|(k, v)| format!("{k}={}", escape_property(&v)))
        .collect();
    format!(
        "::{} {}::{}",
        command(d.severity),
        props.join(","),
        escape_data(&d.message)
    )
}

/// One workflow command per diagnostic, then the summary line.
pub fn render(files: &[FileEntry], files_checked: usize, diagnostics: &[Diagnostic]) -> String {
    render_limited(files, files_checked, diagnostics, usize::MAX)
}

/// One workflow command for each of the first `limit` diagnostics, a `::warning` command
/// counting the others (an annotation of the run, without a file), then the summary line of
/// all of them.
pub fn render_limited(
    files: &[FileEntry],
    files_checked: usize,
    diagnostics: &[Diagnostic],
    limit: usize,
) -> String {
    let (shown, omitted) = super::limit(diagnostics, limit);
    let mut out = String::new();
    for d in shown {
        out.push_str(&line(files, d));
        out.push('\n');
    }
    if let Some(omitted) = omitted {
        out.push_str(&format!(
            "::warning title=flinklint::{}\n",
            escape_data(&omitted.sentence())
        ));
    }
    out.push_str(&human::summary(files_checked, diagnostics));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_follows_the_actions_toolkit() {
        assert_eq!(escape_data("100% a:b,c\r\nd"), "100%25 a:b,c%0D%0Ad");
        assert_eq!(
            escape_property("100% a:b,c\r\nd"),
            "100%25 a%3Ab%2Cc%0D%0Ad"
        );
        // `%` is escaped first, so an existing escape sequence is not decoded by GitHub.
        assert_eq!(escape_data("%0A"), "%250A");
        assert_eq!(escape_property("%3A"), "%253A");
    }

    #[test]
    fn multi_line_findings_have_no_columns() {
        use crate::source::{FileId, Span};
        let settings = crate::config::Settings::default();
        let sql = "SELECT 1;\nSELECT\n  2;\n";
        let outcome = crate::check_texts(&[("dir,1/a:b.sql".into(), sql.into())], &settings);
        let meta = crate::rules::meta::find("SY001").expect("SY001");
        let one = Diagnostic::new(meta, Severity::Info, FileId(0), Span::new(10, 16), "a, b");
        let two = Diagnostic::new(meta, Severity::Info, FileId(0), Span::new(10, 20), "a\nb");
        assert_eq!(
            line(&outcome.files, &one),
            "::notice file=dir%2C1/a%3Ab.sql,line=2,col=1,endLine=2,endColumn=7,\
             title=SY001 syntax-error::a, b"
        );
        assert_eq!(
            line(&outcome.files, &two),
            "::notice file=dir%2C1/a%3Ab.sql,line=2,endLine=3,title=SY001 syntax-error::a%0Ab"
        );
    }
}
