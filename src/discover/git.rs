//! Reading a git repository through the `git` command line (`git` on `PATH`, run with
//! [`std::process::Command`]; no git library): the work tree root, a revision resolved to a
//! commit, the files changed since it (`check --changed-since REF` reports them, `check --base
//! REV` / `expand --base REV` read their version at it) and a file's bytes at a commit.
//!
//! "Changed" means: the file exists in the work tree and its content differs from the
//! commit's (added or modified, whether the change is committed after it, staged or not), or it
//! is untracked and not ignored. Deleted files are not listed. This is
//! `git diff --name-only --no-renames --diff-filter=AMT COMMIT` plus
//! `git ls-files --others --exclude-standard`, both run at the work tree root; a renamed file
//! counts as added under its new name. The commit is compared with the work tree directly,
//! not with the merge base: on a branch that is behind `REF`, pass
//! `$(git merge-base REF HEAD)` to see only the branch's own changes.
//!
//! A revision is resolved to a [`Commit`] (its full id) before any other git command sees it,
//! so it can never be read as an option. File names are bytes to git; they become paths without
//! loss on Unix (non-UTF-8 names included).

use crate::files::{read_limited, ReadError, SQL_LIMIT};
use std::collections::HashSet;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// Why a git question could not be answered: a usage error (exit code 2) for both callers.
#[derive(Debug, thiserror::Error)]
pub enum GitError {
    /// `git` could not be started (not installed, not on `PATH`).
    #[error("cannot run git: {0}")]
    NotInstalled(std::io::Error),
    /// The directory is not inside a git work tree (or is inside `.git` / a bare repository).
    #[error("{dir} is not inside a git repository{detail}")]
    NotARepository {
        /// The directory git was asked about.
        dir: PathBuf,
        /// Git's own message when it is not the usual one, prefixed with `: `, or empty.
        detail: String,
    },
    /// The revision does not name a commit of the repository (or starts with `-`).
    #[error("unknown git revision `{0}` (in a shallow clone, fetch it first; for example `fetch-depth: 0` in actions/checkout)")]
    UnknownRevision(String),
    /// Any other failure of a git command, with git's message.
    #[error("git {command} failed: {message}")]
    Failed {
        /// The command's arguments.
        command: String,
        /// What git printed on standard error.
        message: String,
    },
}

/// A commit of the repository, as its full id: only [`resolve`] makes one, so a value never
/// starts with `-`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Commit(String);

impl Commit {
    /// The full commit id.
    pub fn id(&self) -> &str {
        &self.0
    }
}

/// The root of the work tree that holds `dir` (`git rev-parse --show-toplevel`).
///
/// Errors: [`GitError::NotARepository`] outside a work tree (and inside `.git` or a bare
/// repository, which have none), [`GitError::NotInstalled`].
pub fn work_tree_root(dir: &Path) -> Result<PathBuf, GitError> {
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
        return Err(GitError::NotARepository {
            dir: dir.to_path_buf(),
            detail: ": no work tree".to_string(),
        });
    }
    Ok(path_from_bytes(text))
}

/// The commit that `revision` (branch, tag, commit id, `HEAD~2`, ...) names in the repository
/// of the work tree `root` (`git rev-parse --verify --quiet REV^{commit}`).
///
/// Errors: [`GitError::UnknownRevision`] when it names no commit, is empty or starts with `-`
/// (it would be read as an option); [`GitError::NotInstalled`].
pub fn resolve(root: &Path, revision: &str) -> Result<Commit, GitError> {
    if revision.is_empty() || revision.starts_with('-') {
        return Err(GitError::UnknownRevision(revision.to_string()));
    }
    let spec = format!("{revision}^{{commit}}");
    let output = git(root, &["rev-parse", "--verify", "--quiet", &spec])?;
    let id = String::from_utf8_lossy(trim_newline(&output.stdout)).into_owned();
    if !output.status.success() || id.is_empty() || id.starts_with('-') {
        return Err(GitError::UnknownRevision(revision.to_string()));
    }
    Ok(Commit(id))
}

/// The canonical paths of the files of the work tree `root` changed since `commit` (see the
/// module documentation for what counts as changed).
///
/// Errors: [`GitError::Failed`] with git's message, [`GitError::NotInstalled`].
pub fn changed_files(root: &Path, commit: &Commit) -> Result<HashSet<PathBuf>, GitError> {
    let diff = run(
        root,
        &[
            "diff",
            "--name-only",
            "-z",
            "--no-renames",
            "--diff-filter=AMT",
            commit.id(),
            "--",
        ],
    )?;
    let untracked = run(root, &["ls-files", "-z", "--others", "--exclude-standard"])?;
    Ok(diff
        .split(|b| *b == 0)
        .chain(untracked.split(|b| *b == 0))
        .filter(|name| !name.is_empty())
        // A path that no longer exists (deleted after all) is not changed content to check.
        .filter_map(|name| std::fs::canonicalize(root.join(path_from_bytes(name))).ok())
        .collect())
}

/// The bytes of `path` (relative to the work tree root, forward slashes, as from
/// [`relative_path`]) at `commit` (`git show COMMIT:path`); `None` when the file does not exist
/// there. At most [`SQL_LIMIT`] bytes are read, as of any input.
///
/// Errors: [`GitError::NotInstalled`], [`GitError::Failed`] for a version larger than the
/// limit; any other failure reads as "not there".
pub fn show(root: &Path, commit: &Commit, path: &str) -> Result<Option<Vec<u8>>, GitError> {
    let spec = format!("{}:{path}", commit.id());
    let mut child = Command::new("git")
        .arg("-C")
        .arg(root)
        .args(["show", &spec])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(GitError::NotInstalled)?;
    let read = match child.stdout.take() {
        Some(stdout) => read_limited(stdout, SQL_LIMIT),
        None => Ok(Vec::new()),
    };
    if read.is_err() {
        // Beyond the limit: git need not write the rest.
        let _ = child.kill();
    }
    let status = child.wait().map_err(GitError::NotInstalled)?;
    match read {
        Ok(bytes) => Ok(status.success().then_some(bytes)),
        Err(ReadError::TooLarge(_)) => Err(GitError::Failed {
            command: format!("show {spec}"),
            message: format!("{}", ReadError::TooLarge(SQL_LIMIT)),
        }),
        Err(_) => Ok(None),
    }
}

/// `path` relative to the work tree `root`, with forward slashes, as git names it in
/// `COMMIT:path`; `None` when it is outside or does not exist. Both are canonicalized first, so
/// symbolic links and `..` resolve as git sees them.
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

/// Runs git in `dir` and returns its standard output; a non-zero exit is
/// [`GitError::Failed`].
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

/// Runs git in `dir` (`git -C dir`, so a missing directory is git's error, not a failure to
/// start git; standard input closed, so it never waits for the user) and returns its output
/// whatever its exit status.
fn git(dir: &Path, args: &[&str]) -> Result<Output, GitError> {
    Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(GitError::NotInstalled)
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
