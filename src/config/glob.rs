//! Path patterns of the config file (`exclude`, `overrides[].paths`, `histories`,
//! `external-tables`): globs matched against paths relative to the project root, with
//! `.gitignore`'s conventions.
//!
//! - `*` and `?` never cross a `/`; `**` does (`jobs/**/*.sql`).
//! - A pattern without a `/` (other than a trailing one) matches a name at any depth
//!   (`legacy` is `**/legacy`); one with a `/` is anchored at the project root (`/fixtures`,
//!   `jobs/legacy`). A leading `./` or `/` is dropped.
//! - A trailing `/` matches folders only (`fixtures/`).
//!
//! Matching is lexical: paths are made absolute against the working directory and `.` / `..`
//! are resolved without touching the disk; symbolic links are not followed.

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use std::path::{Component, Path, PathBuf};

/// A compiled list of path patterns. The empty matcher matches nothing.
#[derive(Debug, Clone, Default)]
pub struct PathMatcher {
    /// The patterns as written.
    patterns: Vec<String>,
    /// Patterns that match files and folders.
    any: GlobSet,
    /// Patterns with a trailing `/`: folders only.
    dirs: GlobSet,
}

/// A pattern that is not a valid glob: its index in the list and why.
#[derive(Debug, Clone)]
pub struct PatternError {
    /// Index of the pattern in the list.
    pub index: usize,
    /// What is wrong, e.g. "unclosed character class".
    pub message: String,
}

/// Checks one pattern; `Err` says why it is not a valid glob.
pub fn check_pattern(pattern: &str) -> Result<(), String> {
    build_glob(pattern).map(|_| ())
}

/// The glob for `pattern` and whether it matches folders only.
fn build_glob(pattern: &str) -> Result<(globset::Glob, bool), String> {
    let mut p = pattern.trim();
    if p.is_empty() {
        return Err("an empty pattern matches nothing".to_string());
    }
    while let Some(rest) = p.strip_prefix("./") {
        p = rest;
    }
    let dir_only = p.len() > 1 && p.ends_with('/');
    let p = p.trim_end_matches('/');
    let anchored = p.starts_with('/') || p.contains('/');
    let p = p.trim_start_matches('/');
    let glob = if anchored || p.starts_with("**") {
        p.to_string()
    } else {
        format!("**/{p}")
    };
    let glob = GlobBuilder::new(&glob)
        .literal_separator(true)
        .backslash_escape(true)
        .build()
        .map_err(|e| e.kind().to_string())?;
    Ok((glob, dir_only))
}

impl PathMatcher {
    /// Compiles `patterns`. Errors: the first pattern that is not a valid glob.
    pub fn new<S: AsRef<str>>(patterns: &[S]) -> Result<PathMatcher, PatternError> {
        let mut any = GlobSetBuilder::new();
        let mut dirs = GlobSetBuilder::new();
        for (index, pattern) in patterns.iter().enumerate() {
            let (glob, dir_only) =
                build_glob(pattern.as_ref()).map_err(|message| PatternError { index, message })?;
            if dir_only {
                dirs.add(glob);
            } else {
                any.add(glob);
            }
        }
        let build = |b: GlobSetBuilder| {
            b.build().map_err(|e| PatternError {
                index: 0,
                message: e.to_string(),
            })
        };
        Ok(PathMatcher {
            patterns: patterns.iter().map(|p| p.as_ref().to_string()).collect(),
            any: build(any)?,
            dirs: build(dirs)?,
        })
    }

    /// Whether there are no patterns.
    pub fn is_empty(&self) -> bool {
        self.patterns.is_empty()
    }

    /// The patterns as written.
    pub fn patterns(&self) -> &[String] {
        &self.patterns
    }

    /// Whether `rel` (relative to the project root) matches; `is_dir` says whether it is a
    /// folder (patterns with a trailing `/` match folders only).
    pub fn matches(&self, rel: &Path, is_dir: bool) -> bool {
        if self.is_empty() {
            return false;
        }
        self.any.is_match(rel) || (is_dir && self.dirs.is_match(rel))
    }

    /// Whether `rel` or one of its parent folders matches: a pattern that matches a folder
    /// matches everything in it.
    pub fn matches_path_or_parent(&self, rel: &Path, is_dir: bool) -> bool {
        if self.is_empty() {
            return false;
        }
        if self.matches(rel, is_dir) {
            return true;
        }
        rel.ancestors()
            .skip(1)
            .filter(|a| !a.as_os_str().is_empty())
            .any(|a| self.matches(a, true))
    }
}

impl PathMatcher {
    /// The patterns that do not cover the folder `dir` (relative to the project root) as a
    /// whole: a folder named on the command line is checked even when excluded, so a pattern
    /// that matches it, a folder above it, or everything in it (`dir/**`) does not apply
    /// inside it, while one that picks some of its files (`*.draft.sql`) still does.
    pub fn without_covering(&self, dir: &Path) -> PathMatcher {
        if self.is_empty() {
            return self.clone();
        }
        // A name no pattern means to pick: a pattern that matches it matches any child.
        let probe = dir.join("flinklint-probe-3f9c2a");
        let kept: Vec<&String> = self
            .patterns
            .iter()
            .filter(|p| {
                let Ok(one) = PathMatcher::new(&[p.as_str()]) else {
                    return true;
                };
                !(one.matches_path_or_parent(dir, true)
                    || (one.matches(&probe, true) && one.matches(&probe, false)))
            })
            .collect();
        if kept.len() == self.patterns.len() {
            return self.clone();
        }
        PathMatcher::new(&kept).unwrap_or_default()
    }

    /// The patterns that match `rel` (or a folder above it) on their own, as written.
    pub fn matching_patterns(&self, rel: &Path, is_dir: bool) -> Vec<&str> {
        self.patterns
            .iter()
            .filter(|p| {
                PathMatcher::new(&[p.as_str()])
                    .is_ok_and(|one| one.matches_path_or_parent(rel, is_dir))
            })
            .map(String::as_str)
            .collect()
    }
}

/// `path` made absolute against the working directory, with `.` and `..` resolved lexically.
pub fn absolute(path: &Path) -> PathBuf {
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut out = PathBuf::new();
    for c in abs.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// `path` relative to `root` (both made absolute), or `None` when it lies outside `root`.
pub fn relative_to(root: &Path, path: &Path) -> Option<PathBuf> {
    absolute(path)
        .strip_prefix(absolute(root))
        .ok()
        .map(Path::to_path_buf)
}

/// Whether `pattern` holds a glob metacharacter (`*`, `?`, `[`, `{`).
pub fn is_glob(pattern: &str) -> bool {
    pattern.contains(['*', '?', '[', '{'])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(patterns: &[&str]) -> PathMatcher {
        PathMatcher::new(patterns).unwrap()
    }

    #[test]
    fn names_match_at_any_depth_and_slashes_anchor() {
        let names = m(&["legacy", "*.tmp.sql"]);
        assert!(names.matches(Path::new("legacy"), true));
        assert!(names.matches(Path::new("jobs/legacy"), true));
        assert!(names.matches(Path::new("jobs/a.tmp.sql"), false));
        assert!(!names.matches(Path::new("jobs/legacy2"), true));
        let anchored = m(&["/fixtures", "jobs/old"]);
        assert!(anchored.matches(Path::new("fixtures"), true));
        assert!(!anchored.matches(Path::new("x/fixtures"), true));
        assert!(anchored.matches(Path::new("jobs/old"), true));
        assert!(!anchored.matches(Path::new("a/jobs/old"), true));
    }

    #[test]
    fn trailing_slash_matches_folders_only() {
        let dirs = m(&["build/"]);
        assert!(dirs.matches(Path::new("build"), true));
        assert!(!dirs.matches(Path::new("build"), false));
        assert!(dirs.matches(Path::new("a/build"), true));
    }

    #[test]
    fn stars_do_not_cross_folders_and_double_stars_do() {
        let star = m(&["jobs/*.sql"]);
        assert!(star.matches(Path::new("jobs/a.sql"), false));
        assert!(!star.matches(Path::new("jobs/x/a.sql"), false));
        let deep = m(&["jobs/**/*.sql"]);
        assert!(deep.matches(Path::new("jobs/x/y/a.sql"), false));
    }

    #[test]
    fn parents_match_for_contents() {
        let legacy = m(&["jobs/legacy"]);
        assert!(legacy.matches_path_or_parent(Path::new("jobs/legacy/a/b.sql"), false));
        assert!(!legacy.matches_path_or_parent(Path::new("jobs/a.sql"), false));
    }

    #[test]
    fn invalid_globs_are_errors() {
        let e = PathMatcher::new(&["ok", "a[b"]).unwrap_err();
        assert_eq!(e.index, 1);
        assert!(PathMatcher::new(&[""]).is_err());
    }

    #[test]
    fn lexical_paths() {
        let root = absolute(Path::new("/r/p"));
        assert_eq!(
            relative_to(&root, Path::new("/r/p/./a/../b.sql")),
            Some(PathBuf::from("b.sql"))
        );
        assert_eq!(relative_to(&root, Path::new("/r/q/b.sql")), None);
    }
}
