//! Discover stage: which files a run reads.
//!
//! Arguments are files, directories or `-` (standard input). Directories are walked (with the
//! `ignore` crate's walker, for `.gitignore`) in sorted order (deterministic), following
//! symbolic links but never into a loop, skipping hidden directories, `target/`,
//! `node_modules/`, the configured `exclude` patterns and ignored files, and keeping files
//! with the configured extensions (default `sql`). A file named explicitly is read whatever
//! its extension, and is checked even when excluded unless `--force-exclude`.

use crate::config::Settings;
use std::path::{Path, PathBuf};

/// Where a file's text comes from.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Input {
    /// A file on disk, with the path as reached from the argument.
    File(PathBuf),
    /// Standard input, shown under this name.
    Stdin(PathBuf),
}

impl Input {
    /// The path shown in output.
    pub fn path(&self) -> &Path {
        match self {
            Input::File(p) | Input::Stdin(p) => p,
        }
    }
}

/// A usage error: an argument that does not exist.
#[derive(Debug, thiserror::Error)]
pub enum DiscoverError {
    /// The path does not exist.
    #[error("path does not exist: {0}")]
    NotFound(PathBuf),
}

/// Directory names never descended into.
const SKIPPED_DIRS: &[&str] = &["target", "node_modules"];

/// Lists the inputs for `args` (files, directories, `-`) with the default settings: `.sql`
/// files (or `extensions`), `.gitignore` respected, nothing else excluded. See
/// [`discover_with`].
///
/// Errors: [`DiscoverError::NotFound`] for an argument that does not exist.
pub fn discover(
    args: &[PathBuf],
    extensions: &[String],
    stdin_name: Option<&Path>,
) -> Result<Vec<Input>, DiscoverError> {
    let settings = Settings {
        extensions: extensions.to_vec(),
        ..Settings::default()
    };
    discover_with(args, &settings, stdin_name)
}

/// Lists the inputs for `args` (files, directories, `-`), in argument order, each directory's
/// files sorted by path. Directories are walked for files with `settings.extensions`
/// (compared ignoring case), skipping hidden directories, `target/`, `node_modules/`, paths
/// matching `settings.exclude` (relative to the project root) and, unless
/// `respect-gitignore: false`, what `.gitignore` files ignore. An argument itself is never
/// excluded (like ruff: what you name explicitly is checked) unless `settings.force_exclude`;
/// then an excluded file, or a file or folder inside an excluded folder, is skipped.
///
/// Errors: [`DiscoverError::NotFound`] for an argument that does not exist.
pub fn discover_with(
    args: &[PathBuf],
    settings: &Settings,
    stdin_name: Option<&Path>,
) -> Result<Vec<Input>, DiscoverError> {
    let mut inputs = Vec::new();
    for arg in args {
        if arg.as_os_str() == "-" {
            inputs.push(Input::Stdin(
                stdin_name.map_or_else(|| PathBuf::from("<stdin>"), Path::to_path_buf),
            ));
            continue;
        }
        if !arg.exists() {
            return Err(DiscoverError::NotFound(arg.clone()));
        }
        let is_file = arg.is_file();
        if settings.force_exclude
            && settings
                .exclude
                .matches_path_or_parent(&settings.relative_path(arg), !is_file)
        {
            continue;
        }
        if is_file {
            inputs.push(Input::File(arg.clone()));
            continue;
        }
        walk(arg, settings, &mut inputs);
    }
    let mut seen = std::collections::HashSet::new();
    inputs.retain(|i| seen.insert(i.clone()));
    Ok(inputs)
}

/// Adds the files under the folder `dir` to `inputs`, sorted by path.
fn walk(dir: &Path, settings: &Settings, inputs: &mut Vec<Input>) {
    let respect = settings.respect_gitignore;
    // The folder's path relative to the project root, computed once; entries add their part.
    let base = (!settings.exclude.is_empty()).then(|| settings.relative_path(dir));
    let exclude = settings.exclude.clone();
    let dir_owned = dir.to_path_buf();
    let walker = ignore::WalkBuilder::new(dir)
        .standard_filters(false)
        .git_ignore(respect)
        .git_exclude(respect)
        .parents(respect)
        .require_git(false)
        .follow_links(true)
        .sort_by_file_name(|a, b| a.cmp(b))
        .filter_entry(move |e| {
            if e.depth() == 0 {
                return true;
            }
            let is_dir = e.file_type().is_some_and(|t| t.is_dir());
            if is_dir && is_skipped_dir(e.file_name()) {
                return false;
            }
            match &base {
                Some(base) => {
                    let rest = e.path().strip_prefix(&dir_owned).unwrap_or(e.path());
                    !exclude.matches(&base.join(rest), is_dir)
                }
                None => true,
            }
        })
        .build();
    for entry in walker {
        // Unreadable directories and symbolic-link loops are skipped.
        let Ok(entry) = entry else { continue };
        if entry.file_type().is_some_and(|t| t.is_file())
            && has_extension(entry.path(), &settings.extensions)
        {
            inputs.push(Input::File(entry.into_path()));
        }
    }
}

fn is_skipped_dir(name: &std::ffi::OsStr) -> bool {
    let name = name.to_string_lossy();
    name.starts_with('.') || SKIPPED_DIRS.contains(&name.as_ref())
}

fn has_extension(path: &Path, extensions: &[String]) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| extensions.iter().any(|x| x.eq_ignore_ascii_case(e)))
}

/// The project root: the folder of the nearest `.flinklint.yaml` above `start`, else the
/// nearest git work tree root, else `start` itself (see [`crate::config::project_root`]).
pub fn project_root(start: &Path) -> PathBuf {
    crate::config::project_root(start)
}

/// Context for a run over individual files (as pre-commit passes them): every file under the
/// project root (`settings.root`, else the one of the working directory) that the run does not
/// already read, found as [`discover_with`] finds files in a folder (so `exclude` and
/// `.gitignore` apply), so that histories and the persistent catalog they build are complete.
/// Findings in context files are not reported. Empty when every argument is a directory or
/// standard input (the directories are the context).
pub fn context(args: &[PathBuf], inputs: &[Input], settings: &Settings) -> Vec<Input> {
    let explicit_files = args.iter().any(|a| a.as_os_str() != "-" && a.is_file());
    if !explicit_files {
        return Vec::new();
    }
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let root = settings.root.clone().unwrap_or_else(|| project_root(&cwd));
    // Paths relative to the current directory when possible, as the user would write them.
    let shown = |p: PathBuf| p.strip_prefix(&cwd).map(Path::to_path_buf).unwrap_or(p);
    let mut found = Vec::new();
    walk(&root, settings, &mut found);
    let given: std::collections::HashSet<PathBuf> = inputs
        .iter()
        .filter_map(|i| match i {
            Input::File(p) => std::fs::canonicalize(p).ok(),
            Input::Stdin(_) => None,
        })
        .collect();
    found
        .into_iter()
        .filter_map(|i| match i {
            Input::File(p) => {
                let canonical = std::fs::canonicalize(&p).ok()?;
                (!given.contains(&canonical)).then(|| Input::File(shown(p)))
            }
            Input::Stdin(_) => None,
        })
        .collect()
}
