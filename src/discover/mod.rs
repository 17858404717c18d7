//! Discover stage: which files a run reads.
//!
//! Arguments are files, directories or `-` (standard input). Directories are walked with
//! `walkdir` in sorted order (deterministic), following symbolic links but never into a loop,
//! skipping hidden directories, `target/` and `node_modules/`, and keeping files with the
//! configured extensions (default `sql`). A file named explicitly is read whatever its
//! extension.

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
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let root = project_root(&cwd);
    // Paths relative to the current directory when possible, as the user would write them.
    let shown = |p: PathBuf| p.strip_prefix(&cwd).map(Path::to_path_buf).unwrap_or(p);
    let Ok(found) = discover(&[root], extensions, None) else {
        return Vec::new();
    };
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
