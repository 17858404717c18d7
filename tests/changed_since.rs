//! `flinklint check --changed-since REF` on a temporary git repository: only files added or
//! modified since REF (committed after it, staged, unstaged or untracked) are reported, while
//! every file of the project is read, so a changed file still sees the tables of unchanged
//! ones; paths narrow the changed files; `--fix` touches only changed files; and a directory
//! outside git, an unknown revision or standard input are usage errors (exit code 2).

use crate::common::{git, isolated_command, TempDir};
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Output;

fn flinklint(dir: &Path, args: &[&str]) -> Output {
    isolated_command(env!("CARGO_BIN_EXE_flinklint"), dir)
        .env_remove("GITHUB_ACTIONS")
        .env("NO_COLOR", "1")
        .arg("check")
        .args(args)
        .output()
        .expect("run flinklint")
}

fn write(dir: &Path, path: &str, text: &str) {
    let path = dir.join(path);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// `(file, code)` of each finding in concise output.
fn findings(out: &Output) -> BTreeSet<(String, String)> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|line| {
            let (location, rest) = line.split_once(": ")?;
            let file = location.split(':').next()?.to_string();
            let code = rest.split_whitespace().next()?.to_string();
            Some((file, code))
        })
        .collect()
}

fn set(items: &[(&str, &str)]) -> BTreeSet<(String, String)> {
    items
        .iter()
        .map(|(f, c)| (f.to_string(), c.to_string()))
        .collect()
}

const ORDERS: &str = "CREATE TABLE orders (\n    order_id BIGINT,\n    amount DOUBLE\n) WITH (\n    \
    'connector' = 'kafka',\n    'properties.bootstrap.servers' = 'broker:9092',\n    'topic' = 'orders',\n    'scan.startup.mode' = 'group-offsets'\n);\n";
/// LK005, which needs `orders` from V1 to be found.
const DERIVED: &str =
    "CREATE TABLE orders_replay\nWITH (\n    'scan.startup.mode' = 'latest-offset'\n)\n\
    LIKE orders (INCLUDING OPTIONS);\n";
/// Clean only when `orders` is known (else CT002).
const CLEAN_JOB: &str =
    "INSERT INTO orders SELECT order_id, amount FROM orders WHERE amount > 10;\n";
/// SY002 (with a safe fix).
const CURLY_JOB: &str =
    "INSERT INTO orders SELECT order_id, amount FROM orders WHERE amount > \u{2018}10\u{2019};\n";
/// SY003.
const DOUBLE_QUOTED_JOB: &str =
    "INSERT INTO orders SELECT order_id AS \"id\", amount FROM orders;\n";

/// A repository whose tag `base` holds V1 (orders), V2 (an error: CL001), `jobs/untouched.sql`
/// (a warning: CT002), `jobs/modified.sql` (clean) and `jobs/deleted.sql`; after it: V3
/// committed (LK005 against V1), `jobs/staged.sql` staged (clean thanks to V1),
/// `jobs/modified.sql` modified in the work tree (SY002), `jobs/new.sql` untracked (SY003),
/// `jobs/ignored.sql` ignored (SY003), `notes.txt` untracked, and `jobs/deleted.sql` deleted.
fn repository() -> TempDir {
    let tmp = TempDir::new("changed-since");
    let dir = &tmp.0;
    git(dir, &["init", "-q", "-b", "main"]);
    write(dir, "catalog/V1__orders.sql", ORDERS);
    write(
        dir,
        "catalog/V2__dup.sql",
        "CREATE TABLE dup (a INT, a INT) WITH ('connector' = 'datagen');\n",
    );
    write(
        dir,
        "jobs/untouched.sql",
        "INSERT INTO missing SELECT order_id, amount FROM orders;\n",
    );
    write(dir, "jobs/modified.sql", CLEAN_JOB);
    write(dir, "jobs/deleted.sql", CURLY_JOB);
    write(dir, ".gitignore", "ignored.sql\n");
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "base"]);
    git(dir, &["tag", "base"]);
    write(dir, "catalog/V3__derived.sql", DERIVED);
    git(dir, &["add", "catalog/V3__derived.sql"]);
    git(dir, &["commit", "-q", "-m", "V3"]);
    write(dir, "jobs/staged.sql", CLEAN_JOB);
    git(dir, &["add", "jobs/staged.sql"]);
    write(dir, "jobs/modified.sql", CURLY_JOB);
    write(dir, "jobs/new.sql", DOUBLE_QUOTED_JOB);
    write(dir, "jobs/ignored.sql", DOUBLE_QUOTED_JOB);
    write(dir, "notes.txt", "not SQL\n");
    std::fs::remove_file(dir.join("jobs/deleted.sql")).unwrap();
    tmp
}

#[test]
fn reports_only_changed_files_against_the_whole_project() {
    let repo = repository();
    let out = flinklint(&repo.0, &["--changed-since", "base", "--format", "concise"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert_eq!(
        findings(&out),
        set(&[
            ("catalog/V3__derived.sql", "LK005"),
            ("jobs/modified.sql", "SY002"),
            ("jobs/new.sql", "SY003"),
        ])
    );
    // V3, staged, modified and new: the staged file is checked and clean, since `orders` comes
    // from the unchanged V1.
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("in 4 files"), "{stdout}");
}

#[test]
fn the_revision_can_be_any_commit_name() {
    let repo = repository();
    // HEAD is after V3: V3 is no longer a change.
    let out = flinklint(&repo.0, &["--changed-since", "HEAD", "--format", "concise"]);
    assert_eq!(
        findings(&out),
        set(&[("jobs/modified.sql", "SY002"), ("jobs/new.sql", "SY003")])
    );
    let out = flinklint(&repo.0, &["--changed-since=HEAD~1", "--format", "concise"]);
    assert!(findings(&out).contains(&("catalog/V3__derived.sql".into(), "LK005".into())));
    // With everything committed, nothing has changed since HEAD.
    git(&repo.0, &["add", "-A"]);
    git(&repo.0, &["commit", "-q", "-m", "all"]);
    let out = flinklint(&repo.0, &["--changed-since", "HEAD", "--format", "concise"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("0 files"));
    let out = flinklint(&repo.0, &["--changed-since", "base", "--format", "concise"]);
    assert_eq!(findings(&out).len(), 3);
}

#[test]
fn paths_narrow_the_changed_files() {
    let repo = repository();
    let out = flinklint(
        &repo.0,
        &["--changed-since", "base", "--format", "concise", "jobs"],
    );
    assert_eq!(
        findings(&out),
        set(&[("jobs/modified.sql", "SY002"), ("jobs/new.sql", "SY003")])
    );
    // A file named explicitly is reported only when it changed.
    let out = flinklint(
        &repo.0,
        &[
            "--changed-since",
            "base",
            "--format",
            "concise",
            "catalog/V2__dup.sql",
            "./catalog/V3__derived.sql",
        ],
    );
    assert_eq!(findings(&out), set(&[("catalog/V3__derived.sql", "LK005")]));
}

#[test]
fn works_from_a_subdirectory_with_the_repository_as_context() {
    let repo = repository();
    let out = flinklint(
        &repo.0.join("jobs"),
        &["--changed-since", "base", "--format", "concise"],
    );
    assert_eq!(
        findings(&out),
        set(&[("modified.sql", "SY002"), ("new.sql", "SY003")])
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("in 3 files"));
}

#[test]
fn fix_touches_only_changed_files() {
    let repo = repository();
    write(&repo.0, "jobs/untouched.sql", CURLY_JOB);
    git(
        &repo.0,
        &[
            "commit",
            "-q",
            "-m",
            "curly quotes",
            "--",
            "jobs/untouched.sql",
        ],
    );
    let out = flinklint(
        &repo.0,
        &["--changed-since", "HEAD", "--fix", "--format", "concise"],
    );
    let modified = std::fs::read_to_string(repo.0.join("jobs/modified.sql")).unwrap();
    assert!(!modified.contains('\u{2018}'), "{modified}");
    let untouched = std::fs::read_to_string(repo.0.join("jobs/untouched.sql")).unwrap();
    assert_eq!(untouched, CURLY_JOB);
    let new = std::fs::read_to_string(repo.0.join("jobs/new.sql")).unwrap();
    assert_ne!(new, DOUBLE_QUOTED_JOB);
    assert_eq!(findings(&out), BTreeSet::new(), "{out:?}");
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn usage_errors_exit_with_2() {
    let repo = repository();
    let out = flinklint(&repo.0, &["--changed-since", "no-such-branch"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("unknown git revision `no-such-branch`"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());

    // A revision is never read as an option.
    let out = flinklint(&repo.0, &["--changed-since=--output=x"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(!repo.0.join("x").exists());

    let out = flinklint(&repo.0, &["--changed-since", "base", "-"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("standard input"));

    let out = flinklint(&repo.0, &["--changed-since", "base", "missing.sql"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("path does not exist"));

    let plain = TempDir::new("not-git");
    write(&plain.0, "a.sql", CLEAN_JOB);
    let out = flinklint(&plain.0, &["--changed-since", "HEAD"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("is not inside a git repository"),
        "{stderr}"
    );
}

/// Not `--changed-since` itself but the context loading it shares with explicit file
/// arguments: a file given as `./catalog/V3__x.sql` is in the same history as the context file
/// `catalog/V1__orders.sql` (paths of one run are shown alike).
#[test]
fn an_explicit_file_with_a_dot_prefix_joins_its_history() {
    let repo = repository();
    for arg in ["./catalog/V3__derived.sql", "catalog/./V3__derived.sql"] {
        let out = flinklint(&repo.0, &["--format", "concise", arg]);
        assert_eq!(
            findings(&out),
            set(&[("catalog/V3__derived.sql", "LK005")]),
            "{arg}"
        );
    }
    let absolute = repo.0.join("catalog/V3__derived.sql");
    let out = flinklint(
        &repo.0,
        &["--format", "concise", absolute.to_str().unwrap()],
    );
    assert_eq!(findings(&out), set(&[("catalog/V3__derived.sql", "LK005")]));
}

/// A file that cannot be read is noted once, though the changed files and the project are
/// walked each.
#[cfg(unix)]
#[test]
fn a_skipped_file_is_noted_once() {
    let repo = repository();
    let made = std::process::Command::new("mkfifo")
        .arg(repo.0.join("jobs/pipe.sql"))
        .status()
        .is_ok_and(|s| s.success());
    if !made {
        eprintln!("mkfifo is not available: skipped");
        return;
    }
    for args in [
        &["--changed-since", "HEAD", "--format", "concise"][..],
        &["--changed-since", "HEAD", "--format", "concise", "."][..],
    ] {
        let out = flinklint(&repo.0, args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            err.matches("skipped jobs/pipe.sql: it is a named pipe")
                .count(),
            1,
            "{args:?}: {err}"
        );
    }
}
