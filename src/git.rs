//! Reading a git repository through the `git` command line (`std::process::Command`): the
//! work tree root, whether a revision exists, which files changed since it, and a file's text
//! at it. No git library: the `git` found on `PATH` is the one the user runs.
//!
//! Paths given to and returned by these functions are relative to the work tree root, with
//! forward slashes, as git prints them.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Why a git question could not be answered.
#[derive(Debug, thiserror::Error)]
pub enum GitError {
    /// `git` could not be started (not installed, not on `PATH`).
    #[error("cannot run git: {0}")]
    NotInstalled(std::io::Error),
    /// The folder is not inside a git work tree.
    #[error("{0} is not inside a git repository")]
    NotARepository(PathBuf),
    /// The revision does not name a commit.
    #[error("unknown git revision `{0}`")]
    UnknownRevision(String),
    /// Any other failure, with git's message.
    #[error("git {command} failed: {message}")]
    Failed {
        /// The git subcommand.
        command: String,
        /// What git printed on standard error.
        message: String,
    },
}

fn git(dir: &Path, args: &[&str]) -> Result<Output, GitError> {
    Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .map_err(GitError::NotInstalled)
}

fn failed(args: &[&str], output: &Output) -> GitError {
    GitError::Failed {
        command: args.first().copied().unwrap_or_default().to_string(),
        message: String::from_utf8_lossy(&output.stderr).trim().to_string(),
    }
}

/// The root of the work tree that holds `dir` (`git rev-parse --show-toplevel`).
///
/// Errors: [`GitError::NotARepository`] outside a work tree, [`GitError::NotInstalled`].
pub fn work_tree_root(dir: &Path) -> Result<PathBuf, GitError> {
    let output = git(dir, &["rev-parse", "--show-toplevel"])?;
    if !output.status.success() {
        return Err(GitError::NotARepository(dir.to_path_buf()));
    }
    let text = String::from_utf8_lossy(&output.stdout);
    Ok(PathBuf::from(text.trim_end_matches(['\n', '\r'])))
}

/// Checks that `revision` names a commit (`git rev-parse --verify REV^{commit}`); a revision
/// starting with `-` is refused so that it can never be read as an option.
///
/// Errors: [`GitError::UnknownRevision`].
pub fn verify_revision(root: &Path, revision: &str) -> Result<(), GitError> {
    if revision.is_empty() || revision.starts_with('-') {
        return Err(GitError::UnknownRevision(revision.to_string()));
    }
    let spec = format!("{revision}^{{commit}}");
    let output = git(root, &["rev-parse", "--verify", "--quiet", &spec])?;
    if output.status.success() {
        Ok(())
    } else {
        Err(GitError::UnknownRevision(revision.to_string()))
    }
}

/// The files whose content in the work tree (staged or not) differs from `revision`
/// (`git diff --name-only --no-renames -z REV --`): modified, added and deleted tracked files.
/// Untracked files are not listed. A renamed file counts as deleted and added.
///
/// Errors: [`GitError::Failed`] with git's message.
pub fn changed_files(root: &Path, revision: &str) -> Result<HashSet<String>, GitError> {
    let args = ["diff", "--name-only", "--no-renames", "-z", revision, "--"];
    let output = git(root, &args)?;
    if !output.status.success() {
        return Err(failed(&args, &output));
    }
    Ok(output
        .stdout
        .split(|b| *b == 0)
        .filter(|p| !p.is_empty())
        .map(|p| String::from_utf8_lossy(p).into_owned())
        .collect())
}

/// The bytes of `path` at `revision` (`git show REV:path`); `None` when the file does not exist
/// at that revision.
///
/// Errors: [`GitError::NotInstalled`] only; any other failure reads as "not there".
pub fn show(root: &Path, revision: &str, path: &str) -> Result<Option<Vec<u8>>, GitError> {
    let spec = format!("{revision}:{path}");
    let output = git(root, &["show", &spec])?;
    Ok(output.status.success().then_some(output.stdout))
}

/// `path` relative to the work tree `root`, with forward slashes; `None` when it is outside.
/// Both are canonicalized first, so symbolic links and `..` resolve as git sees them.
pub fn relative_path(root: &Path, path: &Path) -> Option<String> {
    let root = std::fs::canonicalize(root).ok()?;
    let path = std::fs::canonicalize(path).ok()?;
    let rel = path.strip_prefix(&root).ok()?;
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    Some(parts.join("/"))
}
