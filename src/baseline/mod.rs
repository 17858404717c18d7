//! Baseline stage: accept today's findings, report only new ones.
//!
//! `check --write-baseline FILE` records every finding as a fingerprint of its rule code, its
//! file's path relative to the project root, and the text of the statement it is in (tokens
//! without comments, joined by single spaces: edits to whitespace, comments and the lines above
//! do not change it), with a count of identical findings. `check --baseline FILE` then drops
//! as many findings of each fingerprint as the baseline counts, and lists the baseline entries
//! that no longer occur, so the file can be tightened. Runs between rules and render.
//!
//! The file is JSON: `{"version": 1, "findings": [{"code", "file", "fingerprint", "count",
//! "message"}]}`, sorted by file, code and fingerprint; `message` is the first finding's, for
//! people reading the file, and is not compared.

use crate::config::Settings;
use crate::diagnostics::{fnv1a64, Diagnostic};
use crate::files::FileEntry;
use crate::syntax::TokenKind;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The baseline file format version.
pub const VERSION: u32 = 1;

/// A baseline file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Baseline {
    /// [`VERSION`].
    pub version: u32,
    /// One entry per fingerprint.
    pub findings: Vec<Entry>,
}

/// Findings that share a fingerprint.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// Rule code.
    pub code: String,
    /// The file, relative to the project root, with `/` separators.
    pub file: String,
    /// 16 hex digits of FNV-1a over code, file and normalized statement text.
    pub fingerprint: String,
    /// How many identical findings.
    pub count: u32,
    /// The first finding's message (informative only).
    pub message: String,
}

/// The statement text a fingerprint covers: the tokens of the top-level statement that holds
/// the finding's start, comments left out, joined by single spaces; the flagged text with
/// whitespace collapsed when the finding lies outside every statement.
fn statement_text(file: &FileEntry, d: &Diagnostic) -> String {
    let text = &file.source.text;
    let at = d.span.start;
    let statement = file
        .parsed
        .script
        .statements
        .iter()
        .find(|s| s.span.start <= at && at <= s.span.end);
    match statement {
        Some(s) => {
            let tokens = &file.parsed.tokens;
            let first = tokens.partition_point(|t| t.span.start < s.span.start);
            tokens[first..]
                .iter()
                .take_while(|t| t.span.end <= s.span.end)
                .filter(|t| !matches!(t.kind, TokenKind::LineComment | TokenKind::BlockComment))
                .map(|t| &text[t.span.range()])
                .collect::<Vec<_>>()
                .join(" ")
        }
        None => text
            .get(d.span.range())
            .unwrap_or_default()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" "),
    }
}

/// The file (relative to the project root) and fingerprint of a finding.
pub fn fingerprint(files: &[FileEntry], settings: &Settings, d: &Diagnostic) -> (String, String) {
    let file = &files[d.file.0 as usize];
    let path = settings
        .relative_path(&file.source.path)
        .to_string_lossy()
        .replace('\\', "/");
    let mut key = Vec::new();
    for part in [d.code, path.as_str(), statement_text(file, d).as_str()] {
        key.extend_from_slice(part.as_bytes());
        key.push(0);
    }
    (path, format!("{:016x}", fnv1a64(&key)))
}

/// The baseline of `diagnostics`.
pub fn record(files: &[FileEntry], settings: &Settings, diagnostics: &[Diagnostic]) -> Baseline {
    let mut by_key: BTreeMap<(String, String, String), Entry> = BTreeMap::new();
    for d in diagnostics {
        let (file, fingerprint) = fingerprint(files, settings, d);
        by_key
            .entry((file.clone(), d.code.to_string(), fingerprint.clone()))
            .and_modify(|e| e.count += 1)
            .or_insert_with(|| Entry {
                code: d.code.to_string(),
                file,
                fingerprint,
                count: 1,
                message: d.message.clone(),
            });
    }
    Baseline {
        version: VERSION,
        findings: by_key.into_values().collect(),
    }
}

impl Baseline {
    /// The file's text: pretty JSON with a trailing newline.
    pub fn to_json(&self) -> String {
        let mut out = crate::source::escape::json_pretty(self);
        out.push('\n');
        out
    }

    /// Parses a baseline file.
    ///
    /// Errors: not JSON of this shape, or another version.
    pub fn from_json(text: &str) -> Result<Baseline, String> {
        let b: Baseline = serde_json::from_str(text).map_err(|e| e.to_string())?;
        if b.version != VERSION {
            return Err(format!(
                "baseline version {} is not supported (expected {VERSION})",
                b.version
            ));
        }
        Ok(b)
    }
}

/// Removes from `diagnostics` the findings the baseline holds (up to its count per
/// fingerprint) and returns the baseline entries that no longer occur, each with the number of
/// findings missing.
pub fn filter(
    files: &[FileEntry],
    settings: &Settings,
    diagnostics: &mut Vec<Diagnostic>,
    baseline: &Baseline,
) -> Vec<Entry> {
    let key =
        |file: &str, code: &str, fp: &str| (file.to_string(), code.to_string(), fp.to_string());
    let mut remaining: BTreeMap<(String, String, String), u32> = BTreeMap::new();
    for e in &baseline.findings {
        *remaining
            .entry(key(&e.file, &e.code, &e.fingerprint))
            .or_insert(0) += e.count;
    }
    diagnostics.retain(|d| {
        let (file, fp) = fingerprint(files, settings, d);
        match remaining.get_mut(&key(&file, d.code, &fp)) {
            Some(n) if *n > 0 => {
                *n -= 1;
                false
            }
            _ => true,
        }
    });
    baseline
        .findings
        .iter()
        .filter_map(|e| {
            let left = remaining.get_mut(&key(&e.file, &e.code, &e.fingerprint))?;
            let gone = (*left).min(e.count);
            *left -= gone;
            (gone > 0).then(|| Entry {
                count: gone,
                ..e.clone()
            })
        })
        .collect()
}
