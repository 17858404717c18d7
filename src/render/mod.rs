//! Render stage: diagnostics to text, one module per output format. Renderers read the
//! diagnostics and the files' text (for line and column) and nothing else.
//!
//! Every format carries the same findings in the same order (by file in natural order, the
//! files of a history in the order they apply: `crate::semantic::history::report_ranks`)
//! with the same severities; the formats that can express a fix (`json`, `sarif`) carry the
//! fixes too.

pub mod concise;
pub mod github;
pub mod gitlab;
pub mod human;
pub mod json;
pub mod junit;
pub mod sarif;

use crate::diagnostics::Diagnostic;
use crate::files::FileEntry;
use crate::source::{FileId, LineCol, Span};

/// Start and exclusive end of a span as 1-based lines and character columns.
pub fn line_cols(files: &[FileEntry], file: FileId, span: Span) -> (LineCol, LineCol) {
    let source = &files[file.0 as usize].source;
    (source.line_col(span.start), source.line_col(span.end))
}

/// The path of a file as every renderer shows it (forward slashes, never made absolute).
pub(crate) fn path_of(files: &[FileEntry], file: FileId) -> String {
    files[file.0 as usize].source.display_path()
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
