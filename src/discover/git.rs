//! The files of a git work tree that changed since a revision (`check --changed-since REF`).
//!
//! "Changed" means: the file exists in the work tree and its content differs from `REF`'s
//! (added or modified, whether the change is committed after `REF`, staged or not), or it is
//! untracked and not ignored. Deleted files are not listed. This is
//! `git diff --name-only --no-renames --diff-filter=AMT REF` plus
//! `git ls-files --others --exclude-standard`, both run at the work tree root; a renamed file
//! counts as added under its new name. `REF` is compared with the work tree directly, not with
//! the merge base: on a branch that is behind `REF`, pass
//! `$(git merge-base REF HEAD)` to see only the branch's own changes.
//!
//! Git is run as a program (`git` on `PATH`); the revision is resolved to a commit first, so
//! it can never be read as an option.

use std::collections::HashSet;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Why the changed files could not be listed: a usage error (exit code 2).
#[derive(Debug, thiserror::Error)]
pub enum GitError {
    /// `git` could not be started.
    #[error("--changed-since needs git, which could not be run: {0}")]
    NoGit(String),
    /// The directory is not inside a git work tree.
    #[error("--changed-since needs a git repository, and {dir} is not in one{detail}")]
    NotARepository {
        /// The directory git was asked about.
        dir: PathBuf,
        /// Git's own message, prefixed with `: `, or empty.
        detail: String,
    },
    /// The revision does not name a commit of the repository.
    #[error("--changed-since: unknown git revision `{0}` (in a shallow clone, fetch it first; for example `fetch-depth: 0` in actions/checkout)")]
    UnknownRevision(String),
    /// A git command failed.
    #[error("git {command} failed: {message}")]
    Failed {
        /// The command's arguments.
        command: String,
        /// Git's message.
        message: String,
    },
}

/// The canonical paths of the files changed since `revision` in the git work tree that holds
/// `dir` (see the module documentation for what counts as changed).
///
/// Errors: [`GitError`] when git is missing, `dir` is not in a work tree, or `revision` is not a
/// commit.
pub fn changed_files(dir: &Path, revision: &str) -> Result<HashSet<PathBuf>, GitError> {
    let top = toplevel(dir)?;
    let commit = resolve(&top, revision)?;
    let mut changed = HashSet::new();
    let diff = run(
        &top,
        &[
            "diff",
            "--name-only",
            "-z",
            "--no-renames",
            "--diff-filter=AMT",
            &commit,
            "--",
        ],
    )?;
    let untracked = run(&top, &["ls-files", "-z", "--others", "--exclude-standard"])?;
    for name in diff.split(|b| *b == 0).chain(untracked.split(|b| *b == 0)) {
        if name.is_empty() {
            continue;
        }
        // A path that no longer exists (deleted after all) is not changed content to check.
        if let Ok(path) = std::fs::canonicalize(top.join(path_from_bytes(name))) {
            changed.insert(path);
        }
    }
    Ok(changed)
}

/// The root of the work tree that holds `dir`.
fn toplevel(dir: &Path) -> Result<PathBuf, GitError> {
    let output = git(dir, &["rev-parse", "--show-toplevel"])?;
    if !output.status.success() {
        let message = String::from_utf8_lossy(&output.stderr).trim().to_string();
        let detail = if message.is_empty() || message.contains("not a git repository") {
            String::new()
        } else {
            format!(": {message}")
        };
        return Err(GitError::NotARepository {
            dir: dir.to_path_buf(),
            detail,
        });
    }
    let text = trim_newline(&output.stdout);
    if text.is_empty() {
        // Inside the .git folder, or a bare repository: there is no work tree to compare.
        return Err(GitError::NotARepository {
            dir: dir.to_path_buf(),
            detail: ": no work tree".to_string(),
        });
    }
    Ok(path_from_bytes(text))
}

/// The full commit id that `revision` names.
fn resolve(top: &Path, revision: &str) -> Result<String, GitError> {
    // A leading `-` would be read as an option by every git command below.
    if revision.is_empty() || revision.starts_with('-') {
        return Err(GitError::UnknownRevision(revision.to_string()));
    }
    let spec = format!("{revision}^{{commit}}");
    let output = git(top, &["rev-parse", "--verify", "--quiet", &spec])?;
    let id = String::from_utf8_lossy(trim_newline(&output.stdout)).to_string();
    if !output.status.success() || id.is_empty() {
        return Err(GitError::UnknownRevision(revision.to_string()));
    }
    Ok(id)
}

/// Runs git in `dir` and returns its standard output; a non-zero exit is an error.
fn run(dir: &Path, args: &[&str]) -> Result<Vec<u8>, GitError> {
    let output = git(dir, args)?;
    if !output.status.success() {
        return Err(GitError::Failed {
            command: args.join(" "),
            message: String::from_utf8_lossy(&output.stderr).trim().to_string(),
        });
    }
    Ok(output.stdout)
}

fn git(dir: &Path, args: &[&str]) -> Result<std::process::Output, GitError> {
    Command::new("git")
        .args(args)
        .current_dir(dir)
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| GitError::NoGit(e.to_string()))
}

fn trim_newline(bytes: &[u8]) -> &[u8] {
    let mut end = bytes.len();
    while end > 0 && matches!(bytes[end - 1], b'\n' | b'\r') {
        end -= 1;
    }
    &bytes[..end]
}

#[cfg(unix)]
fn path_from_bytes(bytes: &[u8]) -> PathBuf {
    use std::os::unix::ffi::OsStringExt;
    PathBuf::from(OsString::from_vec(bytes.to_vec()))
}

#[cfg(not(unix))]
fn path_from_bytes(bytes: &[u8]) -> PathBuf {
    PathBuf::from(OsString::from(String::from_utf8_lossy(bytes).into_owned()))
}
