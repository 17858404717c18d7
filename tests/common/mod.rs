//! Shared helpers of the integration tests.
#![allow(dead_code)]

pub mod exercise;

use std::path::{Path, PathBuf};

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The `.sql` files directly in `dir`, sorted.
pub fn sql_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "sql"));
    files.sort();
    files
}

/// Runs insta assertions with snapshots stored in `dir/snapshots`.
pub fn snapshot_settings(dir: &Path) -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(dir.join("snapshots"));
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings
}

/// A directory under the system's temporary directory, unique to the process and call, removed
/// when dropped.
pub struct TempDir(pub PathBuf);

impl TempDir {
    /// A new empty directory whose name starts with `flinklint-{name}`.
    pub fn new(name: &str) -> TempDir {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "flinklint-{name}-{}-{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::SeqCst)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create a temporary directory");
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A command run in `dir`, isolated from the user's git configuration and from any repository
/// the tests themselves run in (a git hook sets GIT_DIR and GIT_INDEX_FILE; git looks no
/// higher than the temporary directory), with a fixed identity for commits and without
/// `COLUMNS`.
pub fn isolated_command(program: impl AsRef<std::ffi::OsStr>, dir: &Path) -> std::process::Command {
    let mut cmd = std::process::Command::new(program);
    cmd.current_dir(dir)
        .env("GIT_CEILING_DIRECTORIES", std::env::temp_dir())
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_AUTHOR_NAME", "flinklint tests")
        .env("GIT_AUTHOR_EMAIL", "tests@flinklint.invalid")
        .env("GIT_COMMITTER_NAME", "flinklint tests")
        .env("GIT_COMMITTER_EMAIL", "tests@flinklint.invalid")
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env_remove("GIT_INDEX_FILE")
        // The human report's width.
        .env_remove("COLUMNS");
    cmd
}

/// Runs git in `dir` (isolated as [`isolated_command`]); panics when it fails.
pub fn git(dir: &Path, args: &[&str]) {
    let out = isolated_command("git", dir)
        .args(args)
        .output()
        .expect("run git");
    assert!(
        out.status.success(),
        "git {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}
