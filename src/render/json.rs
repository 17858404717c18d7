//! `--format json`: one JSON document, schema version 1.
//!
//! `{"version": 1, "files_checked": N, "diagnostics": [...]}`; each diagnostic has `code`,
//! `name`, `severity`, `file`, `line`, `column`, `end_line`, `end_column` (1-based, columns in
//! characters, ends exclusive), `message`, `help`, `flink_message`, `related` and `fix`; every
//! field is present, `null` when empty.
//!
//! Past the limit (`--max-findings`), `diagnostics` holds the first findings and the document
//! gains `"omitted": {"count": N, "limit": L, "by_code": [{"code", "severity", "count"}]}`,
//! what the others are (absent when nothing is left out).

use super::line_cols;
use crate::diagnostics::Diagnostic;
use crate::files::FileEntry;
use crate::source::{FileId, Span};
use serde_json::{json, Value};

/// The JSON schema version.
pub const VERSION: u32 = 1;

fn location(files: &[FileEntry], file: FileId, span: Span) -> serde_json::Map<String, Value> {
    let (start, end) = line_cols(files, file, span);
    let mut map = serde_json::Map::new();
    map.insert(
        "file".into(),
        json!(files[file.0 as usize].source.display_path()),
    );
    map.insert("line".into(), json!(start.line));
    map.insert("column".into(), json!(start.column));
    map.insert("end_line".into(), json!(end.line));
    map.insert("end_column".into(), json!(end.column));
    map
}

/// One diagnostic as a JSON object.
pub fn diagnostic_value(files: &[FileEntry], d: &Diagnostic) -> Value {
    let mut map = serde_json::Map::new();
    map.insert("code".into(), json!(d.code));
    map.insert("name".into(), json!(d.name));
    map.insert("severity".into(), json!(d.severity.as_str()));
    map.extend(location(files, d.file, d.span));
    map.insert("message".into(), json!(d.message));
    map.insert("help".into(), json!(d.help));
    map.insert("flink_message".into(), json!(d.flink_message));
    let related: Vec<Value> = d
        .related
        .iter()
        .map(|r| {
            let mut m = location(files, r.file, r.span);
            m.insert("message".into(), json!(r.message));
            Value::Object(m)
        })
        .collect();
    map.insert(
        "related".into(),
        if related.is_empty() {
            Value::Null
        } else {
            Value::Array(related)
        },
    );
    let fix = d.fix.as_ref().map(|fix| {
        let edits: Vec<Value> = fix
            .edits
            .iter()
            .map(|e| {
                let mut m = location(files, e.file, e.span);
                m.insert("replacement".into(), json!(e.replacement));
                Value::Object(m)
            })
            .collect();
        json!({"title": fix.title, "applicability": fix.applicability, "edits": edits})
    });
    map.insert("fix".into(), fix.unwrap_or(Value::Null));
    Value::Object(map)
}

/// The whole document, pretty-printed, with a trailing newline.
pub fn render(files: &[FileEntry], files_checked: usize, diagnostics: &[Diagnostic]) -> String {
    document(files, files_checked, diagnostics, None, usize::MAX)
}

/// The document with the first `limit` diagnostics and `omitted` for the others; with `gone`,
/// as [`render_with_baseline`].
pub fn render_limited(
    files: &[FileEntry],
    files_checked: usize,
    diagnostics: &[Diagnostic],
    gone: Option<&[crate::baseline::Entry]>,
    limit: usize,
) -> String {
    document(files, files_checked, diagnostics, gone, limit)
}

/// [`render`] for a run with `--baseline`: the document gains `"baseline": {"gone": [...]}`,
/// the baseline entries (`code`, `file`, `fingerprint`, `count`, `message`) that no longer
/// occur.
pub fn render_with_baseline(
    files: &[FileEntry],
    files_checked: usize,
    diagnostics: &[Diagnostic],
    gone: &[crate::baseline::Entry],
) -> String {
    document(files, files_checked, diagnostics, Some(gone), usize::MAX)
}

/// What a report leaves out, as JSON: `{"count", "limit", "by_code": [{"code", "severity",
/// "count"}]}`.
pub fn omitted_value(omitted: &super::Omitted) -> Value {
    let by_code: Vec<Value> = omitted
        .by_code
        .iter()
        .map(|(code, severity, n)| json!({"code": code, "severity": severity.as_str(), "count": n}))
        .collect();
    json!({"count": omitted.count, "limit": omitted.limit, "by_code": by_code})
}

fn document(
    files: &[FileEntry],
    files_checked: usize,
    diagnostics: &[Diagnostic],
    gone: Option<&[crate::baseline::Entry]>,
    limit: usize,
) -> String {
    let (shown, omitted) = super::limit(diagnostics, limit);
    let mut doc = json!({
        "version": VERSION,
        "files_checked": files_checked,
        "diagnostics": shown.iter().map(|d| diagnostic_value(files, d)).collect::<Vec<_>>(),
    });
    if let Some(omitted) = omitted {
        doc["omitted"] = omitted_value(&omitted);
    }
    if let Some(gone) = gone {
        doc["baseline"] = json!({ "gone": gone });
    }
    let mut out = crate::source::escape::json_pretty(&doc);
    out.push('\n');
    out
}
