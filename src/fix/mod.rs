//! Fix stage: the fix loop (apply the edits of diagnostics' fixes to file texts, re-check,
//! repeat until nothing changes; [`fix`]), which the command line and an editor call, and
//! writing fixed texts back atomically (a temporary file in the same directory, then a rename;
//! permissions kept).
//!
//! Fixes are applied per file in source order; a fix whose edits overlap an already applied
//! one waits for the next round (the caller re-lints and applies again until nothing changes).
//! A fixed text that no longer parses as well as before is not written: the fix is reported
//! as rejected instead. In a document (Markdown, reStructuredText), only fixes whose edits stay
//! inside its SQL blocks apply (or that remove a directive comment); the fixed document is read
//! again through the same extraction.

use crate::config::Settings;
use crate::diagnostics::{Applicability, Diagnostic, Edit};
use crate::project::{check_loaded, Loaded, Outcome};
use crate::source::FileId;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::sync::Arc;

/// Which fixes to apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FixMode {
    /// Safe fixes only (`--fix`).
    Safe,
    /// Safe and unsafe fixes (`--fix --unsafe-fixes`).
    All,
}

impl FixMode {
    fn allows(self, a: Applicability) -> bool {
        self == FixMode::All || a == Applicability::Safe
    }
}

/// The result of applying fixes to one file's text.
#[derive(Debug, Clone)]
pub struct FixedText {
    /// The new text.
    pub text: String,
    /// How many fixes were applied.
    pub applied: usize,
}

/// Applies the non-overlapping fixes of `diagnostics` that target `file` to `text`.
/// Returns `None` when no fix applies. Edits of one fix must all lie in `file`.
pub fn apply_to_text(
    text: &str,
    file: FileId,
    diagnostics: &[Diagnostic],
    mode: FixMode,
) -> Option<FixedText> {
    let mut fixes: Vec<&Vec<Edit>> = diagnostics
        .iter()
        .filter_map(|d| d.fix.as_ref())
        .filter(|f| {
            mode.allows(f.applicability)
                && !f.edits.is_empty()
                && f.edits.iter().all(|e| e.file == file)
        })
        .map(|f| &f.edits)
        .collect();
    fixes.sort_by_key(|edits| edits.iter().map(|e| e.span.start).min().unwrap_or(0));
    let mut taken: Vec<&Edit> = Vec::new();
    let mut applied = 0;
    for edits in fixes {
        let overlaps = edits.iter().any(|e| {
            taken.iter().any(|t| {
                e.span.start < t.span.end.max(t.span.start + 1)
                    && t.span.start < e.span.end.max(e.span.start + 1)
            })
        });
        let in_bounds = edits.iter().all(|e| {
            (e.span.end as usize) <= text.len()
                && text.is_char_boundary(e.span.start as usize)
                && text.is_char_boundary(e.span.end as usize)
        });
        if overlaps || !in_bounds {
            continue;
        }
        taken.extend(edits.iter());
        applied += 1;
    }
    if applied == 0 {
        return None;
    }
    taken.sort_by_key(|e| (e.span.start, e.span.end));
    let mut out = String::with_capacity(text.len() + 64);
    let mut pos = 0usize;
    for e in taken {
        out.push_str(&text[pos..e.span.start as usize]);
        out.push_str(&e.replacement);
        pos = e.span.end as usize;
    }
    out.push_str(&text[pos..]);
    Some(FixedText { text: out, applied })
}

/// Groups the files that have applicable fixes: file id to its diagnostics.
pub fn files_with_fixes(
    diagnostics: &[Diagnostic],
    mode: FixMode,
) -> BTreeMap<FileId, Vec<Diagnostic>> {
    let mut out: BTreeMap<FileId, Vec<Diagnostic>> = BTreeMap::new();
    for d in diagnostics {
        if d.fix.as_ref().is_some_and(|f| mode.allows(f.applicability)) {
            out.entry(d.file).or_default().push(d.clone());
        }
    }
    out
}

/// The findings of a document (Markdown, reStructuredText) whose fixes edit only its SQL
/// blocks, or remove a directive comment: a fix never touches the prose or the fences.
fn document_fixes(
    embedded: &crate::source::embedded::Embedded,
    diagnostics: &[Diagnostic],
) -> Vec<Diagnostic> {
    diagnostics
        .iter()
        .filter(|d| {
            d.fix
                .as_ref()
                .is_some_and(|f| f.edits.iter().all(|e| embedded.can_edit(e.span)))
        })
        .cloned()
        .collect()
}

/// Writes `text` to `path` atomically: a temporary file in the same directory, flushed and
/// given the original's permissions, then renamed over it.
///
/// Errors: any I/O error (the original is left untouched).
pub fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.flinklint-{}.tmp", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        if let Ok(meta) = std::fs::metadata(path) {
            std::fs::set_permissions(&tmp, meta.permissions())?;
        }
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// A unified diff of a file's text before and after fixing, for `check --fix --diff`.
pub fn unified_diff(path: &str, before: &str, after: &str) -> String {
    similar::TextDiff::from_lines(before, after)
        .unified_diff()
        .context_radius(3)
        .header(
            &if path.starts_with('/') {
                path.to_string()
            } else {
                format!("a/{path}")
            },
            &if path.starts_with('/') {
                path.to_string()
            } else {
                format!("b/{path}")
            },
        )
        .to_string()
}

/// Rounds of fixing before giving up (fixes that keep producing new fixes).
pub const MAX_ROUNDS: usize = 10;

/// What fixing did.
pub struct FixReport {
    /// The check of the final texts.
    pub outcome: Outcome,
    /// Changed files: path, text before, text after.
    pub changed: Vec<(std::path::PathBuf, Arc<str>, Arc<str>)>,
    /// Fixes applied.
    pub applied: usize,
    /// Fixes not applied because the fixed text would not parse.
    pub rejected: Vec<String>,
}

/// Applies fixes to the reported files of `outcome` until a round changes nothing (at most
/// [`MAX_ROUNDS`] rounds), re-checking the fixed texts in memory after each round. A file whose
/// fixed text would have more syntax errors keeps its text (reported in `rejected`). Nothing is
/// written: see [`write_atomically`].
pub fn fix(outcome: Outcome, settings: &Settings, mode: FixMode) -> FixReport {
    let original: Vec<Arc<str>> = outcome
        .files
        .iter()
        .map(|f| f.source.text.clone())
        .collect();
    let mut outcome = outcome;
    let mut applied = 0;
    let mut rejected = Vec::new();
    for _ in 0..MAX_ROUNDS {
        let by_file = files_with_fixes(&outcome.diagnostics, mode);
        let mut loaded: Vec<Loaded> = outcome
            .files
            .iter()
            .map(|f| Loaded {
                source: f.source.clone(),
                load_error: f.load_error.clone(),
                report: f.report,
                base_of: f.base_of,
            })
            .collect();
        let mut changed_any = false;
        for (file, diagnostics) in &by_file {
            let entry = &outcome.files[file.0 as usize];
            if !entry.report || entry.load_error.is_some() {
                continue;
            }
            let in_document;
            let diagnostics = match &entry.parsed.embedded {
                Some(embedded) => {
                    in_document = document_fixes(embedded, diagnostics);
                    &in_document
                }
                None => diagnostics,
            };
            let Some(fixed) = apply_to_text(&entry.source.text, *file, diagnostics, mode) else {
                continue;
            };
            // A fix must not make the file parse worse (read as the run reads it: a
            // document's SQL blocks).
            let source = crate::source::SourceFile::new(entry.source.path.clone(), fixed.text);
            let before = entry.parsed.errors.len();
            let after = crate::files::parse(&source).errors.len();
            if after > before {
                rejected.push(format!(
                    "{}: fixes not applied: they would leave a syntax error",
                    entry.source.display_path()
                ));
                continue;
            }
            loaded[file.0 as usize].source = source;
            applied += fixed.applied;
            changed_any = true;
        }
        if !changed_any {
            break;
        }
        outcome = check_loaded(loaded, settings);
    }
    let changed = outcome
        .files
        .iter()
        .zip(original)
        .filter(|(f, before)| f.source.text != *before)
        .map(|(f, before)| (f.source.path.clone(), before, f.source.text.clone()))
        .collect();
    FixReport {
        outcome,
        changed,
        applied,
        rejected,
    }
}
