//! Discover stage: which files a run reads.
//!
//! Arguments are files, directories or `-` (standard input). Directories are walked with
//! `walkdir` in sorted order (deterministic), following symbolic links but never into a loop,
//! skipping hidden directories, `target/` and `node_modules/`, and keeping files with the
//! configured extensions (default `sql`). A file named explicitly is read whatever its
//! extension.
//!
//! A run over individual files (as pre-commit passes them) or over the files changed since a
//! git revision ([`changed_since`], with [`git`]) also reads the rest of the project as
//! context: see [`context`].

pub mod git;

use std::collections::HashSet;
use std::path::{Component, Path, PathBuf};

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
    /// `--changed-since` with `-`: standard input has no git history.
    #[error("--changed-since cannot check standard input (`-`)")]
    ChangedSinceStdin,
    /// The changed files could not be listed.
    #[error("--changed-since: {0}")]
    Git(#[from] git::GitError),
}

/// Directory names never descended into.
const SKIPPED_DIRS: &[&str] = &["target", "node_modules"];

/// Lists the inputs for `args` (files, directories, `-`), in argument order, each directory's
/// files sorted by path. `extensions` are compared case-insensitively, without the dot.
///
/// Errors: [`DiscoverError::NotFound`] for an argument that does not exist.
pub fn discover(
    args: &[PathBuf],
    extensions: &[String],
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
        if arg.is_file() {
            inputs.push(Input::File(arg.clone()));
            continue;
        }
        let walker = walkdir::WalkDir::new(arg)
            .follow_links(true)
            .sort_by_file_name()
            .into_iter()
            .filter_entry(|e| e.depth() == 0 || !is_skipped_dir(e));
        for entry in walker {
            // Unreadable directories and symbolic-link loops are skipped.
            let Ok(entry) = entry else { continue };
            if entry.file_type().is_file() && has_extension(entry.path(), extensions) {
                inputs.push(Input::File(entry.into_path()));
            }
        }
    }
    let mut seen = std::collections::HashSet::new();
    inputs.retain(|i| seen.insert(i.clone()));
    Ok(inputs)
}

fn is_skipped_dir(entry: &walkdir::DirEntry) -> bool {
    if !entry.file_type().is_dir() {
        return false;
    }
    let name = entry.file_name().to_string_lossy();
    name.starts_with('.') || SKIPPED_DIRS.contains(&name.as_ref())
}

fn has_extension(path: &Path, extensions: &[String]) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| extensions.iter().any(|x| x.eq_ignore_ascii_case(e)))
}

/// The project root: the folder of the nearest `.flinklint.yaml` above `start`, else the
/// nearest git work tree root, else `start` itself.
pub fn project_root(start: &Path) -> PathBuf {
    let start = start.to_path_buf();
    for dir in start.ancestors() {
        if dir.join(".flinklint.yaml").is_file() {
            return dir.to_path_buf();
        }
    }
    for dir in start.ancestors() {
        if dir.join(".git").exists() {
            return dir.to_path_buf();
        }
    }
    start
}

/// Context for a run over individual files (as pre-commit passes them): every `.sql` file
/// under the project root that the run does not already read, so that histories and the
/// persistent catalog they build are complete. Findings in context files are not reported.
/// Empty when every argument is a directory or standard input (the directories are the
/// context).
pub fn context(args: &[PathBuf], inputs: &[Input], extensions: &[String]) -> Vec<Input> {
    let explicit_files = args.iter().any(|a| a.as_os_str() != "-" && a.is_file());
    if !explicit_files {
        return Vec::new();
    }
    let given: HashSet<PathBuf> = inputs
        .iter()
        .filter_map(|i| match i {
            Input::File(p) => std::fs::canonicalize(p).ok(),
            Input::Stdin(_) => None,
        })
        .collect();
    project_files(extensions)
        .into_iter()
        .filter(|(_, canonical)| !given.contains(canonical))
        .map(|(shown, _)| Input::File(shown))
        .collect()
}

/// The inputs of `check --changed-since REVISION`: `(reported, context)`. Reported are the
/// files that `args` select (as [`discover`] selects them) and that changed since `revision`
/// in the git work tree of the current directory ([`git::changed_files`]); context is every
/// other file of the project, as for [`context`], so that a changed file is still checked
/// against the tables of unchanged ones. Both are in path order, with paths shown as
/// [`context`] shows them.
///
/// Errors: [`DiscoverError::NotFound`] for an argument that does not exist,
/// [`DiscoverError::ChangedSinceStdin`] for `-`, and [`DiscoverError::Git`] when the current
/// directory is not in a git work tree or `revision` is not a commit.
pub fn changed_since(
    args: &[PathBuf],
    extensions: &[String],
    revision: &str,
) -> Result<(Vec<Input>, Vec<Input>), DiscoverError> {
    if args.iter().any(|a| a.as_os_str() == "-") {
        return Err(DiscoverError::ChangedSinceStdin);
    }
    let selected = discover(args, extensions, None)?;
    let cwd = current_dir();
    let root = git::work_tree_root(&cwd)?;
    let changed = git::changed_files(&root, &git::resolve(&root, revision)?)?;
    // The selected files that changed: canonical path -> path as reached.
    let mut wanted: std::collections::BTreeMap<PathBuf, PathBuf> = selected
        .into_iter()
        .filter_map(|i| {
            let path = i.path().to_path_buf();
            let canonical = std::fs::canonicalize(&path).ok()?;
            changed.contains(&canonical).then_some((canonical, path))
        })
        .collect();
    let mut reported = Vec::new();
    let mut context = Vec::new();
    for (shown, canonical) in project_files(extensions) {
        if wanted.remove(&canonical).is_some() {
            reported.push(Input::File(shown));
        } else {
            context.push(Input::File(shown));
        }
    }
    // Selected files outside the project's walk (another extension named explicitly, or a
    // path outside the project root) are reported as given.
    reported.extend(
        wanted
            .into_values()
            .map(|path| Input::File(display_path(&cwd, &path))),
    );
    Ok((reported, context))
}

/// Every file of the project (the walk of [`project_root`] of the current directory), as
/// `(path shown, canonical path)`, in path order.
fn project_files(extensions: &[String]) -> Vec<(PathBuf, PathBuf)> {
    let cwd = current_dir();
    let root = project_root(&cwd);
    let Ok(found) = discover(&[root], extensions, None) else {
        return Vec::new();
    };
    found
        .into_iter()
        .filter_map(|i| {
            let path = i.path();
            let canonical = std::fs::canonicalize(path).ok()?;
            Some((display_path(&cwd, path), canonical))
        })
        .collect()
}

fn current_dir() -> PathBuf {
    std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."))
}

/// `path` as the user would write it from `cwd`: relative to `cwd` when it lies under it,
/// without `.` components (`./jobs/a.sql` is `jobs/a.sql`). Lexical only: nothing is resolved
/// on disk. Files of one run must be shown alike, since a history is the files of one folder.
pub fn display_path(cwd: &Path, path: &Path) -> PathBuf {
    let relative = path.strip_prefix(cwd).unwrap_or(path);
    let cleaned: PathBuf = relative
        .components()
        .filter(|c| !matches!(c, Component::CurDir))
        .collect();
    if cleaned.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        cleaned
    }
}

/// The inputs of a run that also reads context files, shown as the context files are (see
/// [`display_path`]), so that a file given as `./catalog/V2__x.sql` falls in the same history
/// as the context file `catalog/V1__y.sql`. Standard input is left as it is.
pub fn display_inputs(inputs: Vec<Input>) -> Vec<Input> {
    let cwd = current_dir();
    inputs
        .into_iter()
        .map(|i| match i {
            Input::File(p) => Input::File(display_path(&cwd, &p)),
            stdin @ Input::Stdin(_) => stdin,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::display_path;
    use std::path::{Path, PathBuf};

    #[test]
    fn display_paths_are_relative_and_clean() {
        let cwd = Path::new("/repo");
        let shown = |p: &str| display_path(cwd, Path::new(p));
        assert_eq!(
            shown("./catalog/V1__a.sql"),
            PathBuf::from("catalog/V1__a.sql")
        );
        assert_eq!(
            shown("/repo/catalog/V1__a.sql"),
            PathBuf::from("catalog/V1__a.sql")
        );
        assert_eq!(shown("/elsewhere/a.sql"), PathBuf::from("/elsewhere/a.sql"));
        assert_eq!(shown("../x/a.sql"), PathBuf::from("../x/a.sql"));
        assert_eq!(shown("."), PathBuf::from("."));
    }
}
