//! `--format gitlab`: a GitLab Code Quality report, for `artifacts: reports: codequality:`.
//!
//! One JSON array with an object per finding, in the subset of the Code Climate issue format
//! that GitLab reads (GitLab Docs, "Code Quality", *Code Quality report format*,
//! <https://docs.gitlab.com/ci/testing/code_quality/#code-quality-report-format>):
//!
//! ```json
//! [{"description": "CT002 INSERT INTO ...", "check_name": "CT002",
//!   "fingerprint": "3f2a...", "severity": "minor",
//!   "location": {"path": "jobs/orders.sql", "lines": {"begin": 11, "end": 11}}}]
//! ```
//!
//! `description` is the code and the message; `severity` is `major` for errors, `minor` for
//! warnings and `info` for info; `lines` are 1-based and inclusive. `fingerprint` comes from
//! [`super::fingerprints`]: stable across runs and machines, and unchanged when lines move, so
//! GitLab can tell new findings from old ones.
//!
//! Past the limit (`--max-findings`) the array holds the first findings only: the format has
//! no place for anything but issues, so the command line says on standard error how many were
//! left out.

use super::{fingerprints, line_cols, path_of};
use crate::diagnostics::{Diagnostic, Severity};
use crate::files::FileEntry;
use serde_json::{json, Value};

/// The GitLab severity (`info | minor | major | critical | blocker`) of a severity.
pub fn severity(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "major",
        Severity::Warning => "minor",
        Severity::Info => "info",
    }
}

/// The report as a JSON value.
pub fn report(files: &[FileEntry], diagnostics: &[Diagnostic]) -> Value {
    let prints = fingerprints(files, diagnostics);
    let issues: Vec<Value> = diagnostics
        .iter()
        .zip(prints)
        .map(|(d, fingerprint)| {
            let (start, end) = line_cols(files, d.file, d.span);
            // The last line the span touches (a span ending at a line start ends the line before).
            let last = if end.line > start.line && end.column == 1 {
                end.line - 1
            } else {
                end.line
            };
            json!({
                "description": format!("{} {}", d.code, d.message),
                "check_name": d.code,
                "fingerprint": fingerprint,
                "severity": severity(d.severity),
                "location": {
                    "path": path_of(files, d.file),
                    "lines": {"begin": start.line, "end": last},
                },
            })
        })
        .collect();
    Value::Array(issues)
}

/// The report, pretty-printed, with a trailing newline.
pub fn render(files: &[FileEntry], diagnostics: &[Diagnostic]) -> String {
    render_limited(files, diagnostics, usize::MAX)
}

/// The report of the first `limit` diagnostics.
pub fn render_limited(files: &[FileEntry], diagnostics: &[Diagnostic], limit: usize) -> String {
    let (shown, _) = super::limit(diagnostics, limit);
    let mut out = crate::source::escape::json_pretty(&report(files, shown));
    out.push('\n');
    out
}
