//! `check --fix`: apply fixes until nothing changes, re-checking the fixed texts in memory,
//! then write the changed files (or, with `--diff`, print what would change).

use flinklint::fix::{unified_diff, InPlaceReason, Writer, Written};
use std::path::PathBuf;
use std::sync::Arc;

/// Writes the changed files; returns the paths that could not be written, each with why.
/// Prints a note for a file written in place because a new file could not keep its owner.
pub fn write(changed: &[(PathBuf, Arc<str>, Arc<str>)]) -> Vec<(PathBuf, String)> {
    let mut writer = Writer::new();
    let mut failed = Vec::new();
    for (path, _, after) in changed {
        match writer.write(path, after) {
            Ok(Written::InPlace(InPlaceReason::Owner(why))) => eprintln!(
                "flinklint: note: {} was written in place, not replaced atomically, to keep its \
                 owner and group (a new file cannot be given them: {why})",
                path.display()
            ),
            Ok(_) => {}
            Err(e) => failed.push((path.clone(), e.to_string())),
        }
    }
    for path in &writer.removed {
        eprintln!(
            "flinklint: removed {}, a temporary file left by an interrupted run",
            flinklint::source::escape::path(path)
        );
    }
    failed
}

/// Unified diffs of every changed file.
pub fn diffs(changed: &[(PathBuf, Arc<str>, Arc<str>)]) -> String {
    changed
        .iter()
        .map(|(path, before, after)| {
            unified_diff(&path.to_string_lossy().replace('\\', "/"), before, after)
        })
        .collect()
}
