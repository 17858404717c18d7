//! `check --fix`: apply fixes until nothing changes, re-checking the fixed texts in memory,
//! then write the changed files atomically (or, with `--diff`, print what would change).

use flinklint::fix::{unified_diff, write_atomically};

/// Writes changed files; returns the errors.
pub fn write(
    changed: &[(std::path::PathBuf, std::sync::Arc<str>, std::sync::Arc<str>)],
) -> Vec<String> {
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
pub fn diffs(changed: &[(std::path::PathBuf, std::sync::Arc<str>, std::sync::Arc<str>)]) -> String {
    changed
        .iter()
        .map(|(path, before, after)| {
            unified_diff(&path.to_string_lossy().replace('\\', "/"), before, after)
        })
        .collect()
}
