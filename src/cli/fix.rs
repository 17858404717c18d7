//! `check --fix`: apply fixes until nothing changes, re-checking the fixed texts in memory,
//! then write the changed files atomically (or, with `--diff`, print what would change).

use crate::config::Settings;
use crate::fix::{apply_to_text, files_with_fixes, unified_diff, write_atomically, FixMode};
use crate::{check_loaded, Loaded, Outcome};

/// Rounds of fixing before giving up (fixes that keep producing new fixes).
const MAX_ROUNDS: usize = 10;

/// What fixing did.
pub(crate) struct FixReport {
    /// The check of the final texts.
    pub outcome: Outcome,
    /// Changed files: path, text before, text after.
    pub changed: Vec<(std::path::PathBuf, String, String)>,
    /// Fixes applied.
    pub applied: usize,
    /// Fixes not applied because the fixed text would not parse.
    pub rejected: Vec<String>,
}

/// Applies fixes to the reported files of `outcome` until a round changes nothing.
pub(crate) fn fix(outcome: Outcome, settings: &Settings, mode: FixMode) -> FixReport {
    let original: Vec<String> = outcome
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
            })
            .collect();
        let mut changed_any = false;
        for (file, diagnostics) in &by_file {
            let entry = &outcome.files[file.0 as usize];
            if !entry.report || entry.load_error.is_some() {
                continue;
            }
            let Some(fixed) = apply_to_text(&entry.source.text, *file, diagnostics, mode) else {
                continue;
            };
            // A fix must not make the file parse worse.
            let before = entry.parsed.errors.len();
            let after = crate::syntax::parse(&fixed.text).errors.len();
            if after > before {
                rejected.push(format!(
                    "{}: fixes not applied: they would leave a syntax error",
                    entry.source.display_path()
                ));
                continue;
            }
            loaded[file.0 as usize].source =
                crate::source::SourceFile::new(entry.source.path.clone(), fixed.text);
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

/// Writes changed files; returns the errors.
pub(crate) fn write(changed: &[(std::path::PathBuf, String, String)]) -> Vec<String> {
    changed
        .iter()
        .filter_map(|(path, _, after)| {
            write_atomically(path, after)
                .err()
                .map(|e| format!("{}: {e}", path.display()))
        })
        .collect()
}

/// Unified diffs of every changed file.
pub(crate) fn diffs(changed: &[(std::path::PathBuf, String, String)]) -> String {
    changed
        .iter()
        .map(|(path, before, after)| {
            unified_diff(&path.to_string_lossy().replace('\\', "/"), before, after)
        })
        .collect()
}
