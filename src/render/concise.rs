//! `--format concise`: one line per finding, then the summary line of `human`.
//!
//! Each line is `path:line:col: CODE [severity] message` (1-based line, column in characters),
//! the shape compilers and `grep -n` print, which editors and terminals turn into links.
//! Line breaks inside a message are replaced by spaces, and the path's control characters
//! escaped, so that a finding stays one line.

use super::{human, line_cols, shown_path_of};
use crate::diagnostics::Diagnostic;
use crate::files::FileEntry;

/// The line of one diagnostic, without the line break.
pub fn line(files: &[FileEntry], d: &Diagnostic) -> String {
    let (start, _) = line_cols(files, d.file, d.span);
    let message: String = d
        .message
        .chars()
        .map(|c| if c == '\n' || c == '\r' { ' ' } else { c })
        .collect();
    format!(
        "{}:{}:{}: {} [{}] {}",
        shown_path_of(files, d.file),
        start.line,
        start.column,
        d.code,
        d.severity.as_str(),
        message
    )
}

/// Every diagnostic on its own line, then the summary line.
pub fn render(files: &[FileEntry], files_checked: usize, diagnostics: &[Diagnostic]) -> String {
    render_limited(files, files_checked, diagnostics, usize::MAX)
}

/// The first `limit` diagnostics on their own lines, a line counting the others, then the
/// summary line of all of them.
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
        out.push_str(&human::omitted_line(&omitted));
    }
    out.push_str(&human::summary(files_checked, diagnostics));
    out
}
