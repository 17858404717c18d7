//! Render stage: diagnostics to text, one module per output format. Renderers read the
//! diagnostics and the files' text (for line and column) and nothing else.
//!
//! Every format carries the same findings in the same order (by file in natural order, the
//! files of a history in the order they apply: `crate::semantic::history::report_ranks`)
//! with the same severities; the formats that can express a fix (`json`, `sarif`) carry the
//! fixes too.
//!
//! A report is bounded: each format's `render_limited` shows the first `limit` findings and
//! records how many more there are, by rule and severity ([`Omitted`]), in the format's own
//! way. The summary line and the exit code still count every finding. The command line's
//! `--max-findings` sets the limit; its defaults are [`MAX_FINDINGS_READ`] and
//! [`MAX_FINDINGS_MACHINE`].

pub mod concise;
pub mod github;
pub mod gitlab;
pub mod human;
pub mod json;
pub mod junit;
pub mod sarif;

use crate::diagnostics::{Diagnostic, Severity};
use crate::files::FileEntry;
use crate::source::{FileId, LineCol, Span};

/// The default limit of the formats people read (`human`, `concise`, `github`): a thousand
/// findings are more than anyone reads, and the rest is counted.
pub const MAX_FINDINGS_READ: usize = 1_000;

/// The default limit of the formats programs read (`json`, `sarif`, `gitlab`, `junit`): below
/// GitHub code scanning's limit of 25,000 results per SARIF run, and about the 10 MB it
/// accepts in one upload.
pub const MAX_FINDINGS_MACHINE: usize = 10_000;

/// The findings a report leaves out past its limit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Omitted {
    /// How many findings are left out.
    pub count: usize,
    /// The limit: how many are shown.
    pub limit: usize,
    /// How many are left out per rule code and severity, in code order, then severity
    /// (errors first).
    pub by_code: Vec<(&'static str, Severity, usize)>,
}

impl Omitted {
    /// One sentence for people: "1200 more findings are not shown (the first 1000 are; see
    /// --max-findings): SY003: 1190 errors; CL001: 10 warnings."
    pub fn sentence(&self) -> String {
        let parts: Vec<String> = self
            .by_code
            .iter()
            .map(|(code, severity, n)| format!("{code}: {}", count_of(*n, *severity)))
            .collect();
        format!(
            "{} more finding{} not shown (the first {} are; see --max-findings): {}.",
            self.count,
            if self.count == 1 { " is" } else { "s are" },
            self.limit,
            parts.join("; ")
        )
    }
}

/// "1 error", "3 warnings", "2 info".
fn count_of(n: usize, severity: Severity) -> String {
    match (severity, n) {
        (Severity::Info, _) => format!("{n} info"),
        (Severity::Error, 1) => "1 error".to_string(),
        (Severity::Error, _) => format!("{n} errors"),
        (Severity::Warning, 1) => "1 warning".to_string(),
        (Severity::Warning, _) => format!("{n} warnings"),
    }
}

/// The first `limit` diagnostics, and what the rest are (`None` when none is left out).
pub fn limit(diagnostics: &[Diagnostic], limit: usize) -> (&[Diagnostic], Option<Omitted>) {
    if diagnostics.len() <= limit {
        return (diagnostics, None);
    }
    let (shown, rest) = diagnostics.split_at(limit);
    let mut counts: std::collections::BTreeMap<(&'static str, std::cmp::Reverse<Severity>), usize> =
        std::collections::BTreeMap::new();
    for d in rest {
        *counts
            .entry((d.code, std::cmp::Reverse(d.severity)))
            .or_default() += 1;
    }
    let omitted = Omitted {
        count: rest.len(),
        limit,
        by_code: counts.into_iter().map(|((c, s), n)| (c, s.0, n)).collect(),
    };
    (shown, Some(omitted))
}

/// Start and exclusive end of a span as 1-based lines and character columns.
pub fn line_cols(files: &[FileEntry], file: FileId, span: Span) -> (LineCol, LineCol) {
    let source = &files[file.0 as usize].source;
    (source.line_col(span.start), source.line_col(span.end))
}

/// The path of a file as the machine formats carry it (forward slashes, never made absolute):
/// JSON and XML escape it themselves, SARIF percent-encodes it.
pub(crate) fn path_of(files: &[FileEntry], file: FileId) -> String {
    files[file.0 as usize].source.display_path()
}

/// The path of a file as the formats read on a terminal show it: [`path_of`] on one line,
/// with control characters escaped and bytes that are not UTF-8 written `\xff`
/// ([`crate::source::escape::path`]).
pub(crate) fn shown_path_of(files: &[FileEntry], file: FileId) -> String {
    crate::source::escape::path(&files[file.0 as usize].source.path)
}

pub use crate::diagnostics::fnv1a64;

/// Stable fingerprints of `diagnostics`, one per diagnostic in the same order: 16 lower-case
/// hex digits of [`fnv1a64`] over the rule code, the file path, the flagged text with runs of
/// whitespace collapsed to one space, the message, and the number of earlier diagnostics with
/// the same four values (so identical findings in one file stay distinct). Line numbers are not
/// part of it: a finding keeps its fingerprint when lines are added above it.
///
/// Used by `gitlab` (`fingerprint`) and `sarif` (`partialFingerprints`).
pub fn fingerprints(files: &[FileEntry], diagnostics: &[Diagnostic]) -> Vec<String> {
    let mut seen: std::collections::HashMap<u64, u32> = std::collections::HashMap::new();
    diagnostics
        .iter()
        .map(|d| {
            let source = &files[d.file.0 as usize].source;
            let flagged = source.text.get(d.span.range()).unwrap_or_default();
            let normalized = flagged.split_whitespace().collect::<Vec<_>>().join(" ");
            let mut key = Vec::new();
            for part in [
                d.code,
                &source.display_path(),
                &normalized,
                d.message.as_str(),
            ] {
                key.extend_from_slice(part.as_bytes());
                key.push(0);
            }
            let base = fnv1a64(&key);
            let n = seen.entry(base).or_insert(0);
            key.extend_from_slice(n.to_string().as_bytes());
            *n += 1;
            format!("{:016x}", fnv1a64(&key))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a64_matches_the_reference_vectors() {
        // Test vectors of the FNV reference implementation.
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn fingerprints_ignore_line_shifts_and_separate_repeats() {
        let sql = "SELECT 1 – 2;\nSELECT 3 – 4;\n";
        let settings = crate::config::Settings::default();
        let a = crate::check_texts(&[("a.sql".into(), sql.into())], &settings);
        let b = crate::check_texts(&[("a.sql".into(), format!("\n\n{sql}"))], &settings);
        let fa = fingerprints(&a.files, &a.diagnostics);
        let fb = fingerprints(&b.files, &b.diagnostics);
        assert_eq!(fa.len(), 2, "{:?}", a.diagnostics);
        assert_eq!(fa, fb);
        assert_ne!(fa[0], fa[1]);
        assert!(fa.iter().all(|f| f.len() == 16));
    }
}
