//! `check --base REV`: files changed since a git revision are checked as evolutions of their
//! version there. Each test builds a git repository in a temporary folder, commits a first
//! version, edits it in place and runs the binary in it.

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

/// A temporary git repository, removed when dropped.
struct Repo {
    dir: PathBuf,
}

/// Git without the user's or the system's configuration.
fn git_env(cmd: &mut Command) -> &mut Command {
    cmd.env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "flinklint")
        .env("GIT_AUTHOR_EMAIL", "flinklint@example.com")
        .env("GIT_COMMITTER_NAME", "flinklint")
        .env("GIT_COMMITTER_EMAIL", "flinklint@example.com")
}

impl Repo {
    fn new(name: &str) -> Repo {
        let dir =
            std::env::temp_dir().join(format!("flinklint-base-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("sql")).unwrap();
        let repo = Repo { dir };
        repo.git(&["init", "-q", "-b", "main"]);
        repo
    }
    fn git(&self, args: &[&str]) {
        let out = git_env(Command::new("git").arg("-C").arg(&self.dir).args(args))
            .output()
            .expect("run git");
        assert!(out.status.success(), "git {args:?}: {out:?}");
    }
    fn write(&self, path: &str, text: &str) {
        std::fs::write(self.dir.join(path), text).unwrap();
    }
    fn commit(&self) {
        self.git(&["add", "-A"]);
        self.git(&["commit", "-q", "-m", "version"]);
    }
    fn flinklint(&self, args: &[&str]) -> Output {
        git_env(
            Command::new(env!("CARGO_BIN_EXE_flinklint"))
                .args(args)
                .current_dir(&self.dir)
                .env("NO_COLOR", "1")
                // Never find a repository above the temporary folder.
                .env("GIT_CEILING_DIRECTORIES", self.dir.parent().unwrap()),
        )
        .output()
        .expect("run flinklint")
    }
    /// `(code, file, line)` of every finding of `check --format json` with `args`.
    fn findings(&self, args: &[&str]) -> Vec<(String, String, u64)> {
        let mut all = vec!["check", "--format", "json", "--exit-zero"];
        all.extend_from_slice(args);
        let out = self.flinklint(&all);
        assert!(out.status.success(), "{out:?}");
        let json: Value = serde_json::from_slice(&out.stdout).expect("JSON report");
        json["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                (
                    d["code"].as_str().unwrap().to_string(),
                    d["file"]
                        .as_str()
                        .unwrap()
                        .trim_start_matches("./")
                        .to_string(),
                    d["line"].as_u64().unwrap(),
                )
            })
            .collect()
    }
}

impl Drop for Repo {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn git_available() -> bool {
    let ok = Command::new("git").arg("--version").output().is_ok();
    if !ok {
        eprintln!("git is not installed: --base tests skipped");
    }
    ok
}

const SOURCE: &str =
    "CREATE TABLE orders (id INT NOT NULL, amount DOUBLE, region STRING) WITH ('connector' = 'datagen');\n";

fn totals(select: &str, clauses: &str) -> String {
    format!(
        "{SOURCE}\nCREATE OR ALTER MATERIALIZED TABLE order_totals\n{clauses}  AS SELECT {select} FROM orders;\n"
    )
}

fn codes(findings: &[(String, String, u64)]) -> Vec<&str> {
    findings.iter().map(|f| f.0.as_str()).collect()
}

#[test]
fn reordered_and_dropped_columns_are_non_append_evolutions() {
    if !git_available() {
        return;
    }
    let repo = Repo::new("reorder");
    repo.write("sql/totals.sql", &totals("id, amount, region", ""));
    repo.write(
        "sql/other.sql",
        &totals("id", "").replace("order_totals", "other"),
    );
    repo.commit();
    // Without an edit, nothing changed: --base adds nothing.
    assert_eq!(repo.findings(&["--base", "main"]), vec![]);

    repo.write("sql/totals.sql", &totals("amount, id, region", ""));
    // Without --base the file is a first creation.
    assert_eq!(repo.findings(&[]), vec![]);
    let found = repo.findings(&["--base", "main"]);
    assert!(
        found.contains(&("MT006".into(), "sql/totals.sql".into(), 4)),
        "{found:?}"
    );
    assert!(found.iter().all(|f| f.1 == "sql/totals.sql"), "{found:?}");

    repo.write("sql/totals.sql", &totals("id, region", ""));
    let found = repo.findings(&["--base", "main"]);
    assert!(codes(&found).contains(&"MT006"), "{found:?}");

    // The message points at the committed version it evolves.
    let out = repo.flinklint(&["check", "--base", "main", "--format", "json"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mt006 = json["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "MT006")
        .unwrap();
    assert_eq!(mt006["related"][0]["file"], "main:sql/totals.sql");
}

#[test]
fn appended_column_without_start_mode_is_mt002_and_fixable() {
    if !git_available() {
        return;
    }
    let repo = Repo::new("append");
    repo.write("sql/totals.sql", &totals("id, amount", ""));
    repo.commit();
    repo.write("sql/totals.sql", &totals("id, amount, region", ""));
    let found = repo.findings(&["--base", "main"]);
    assert_eq!(codes(&found), vec!["MT002"], "{found:?}");

    // Saying where the new job starts is what MT002 asks.
    repo.write(
        "sql/totals.sql",
        &totals("id, amount, region", "  START_MODE = RESUME_OR_FROM_NOW\n"),
    );
    assert_eq!(repo.findings(&["--base", "main"]), vec![]);

    // The fix, re-checked against the same base, leaves nothing to report.
    repo.write("sql/totals.sql", &totals("id, amount, region", ""));
    let out = repo.flinklint(&["check", "--base", "main", "--fix"]);
    assert!(out.status.success(), "{out:?}");
    let fixed = std::fs::read_to_string(repo.dir.join("sql/totals.sql")).unwrap();
    assert!(fixed.contains("START_MODE = FROM_BEGINNING"), "{fixed}");
    assert_eq!(repo.findings(&["--base", "main"]), vec![]);
}

#[test]
fn unchanged_statement_in_a_changed_file_is_no_evolution() {
    if !git_available() {
        return;
    }
    let repo = Repo::new("unchanged");
    repo.write("sql/totals.sql", &totals("id, amount", ""));
    repo.commit();
    // Another statement and a comment change; the materialized table is as deployed, with
    // another layout.
    let edited = totals("id,\n      amount", "").replace(
        "CREATE OR ALTER",
        "-- owned by the data team\nCREATE OR ALTER",
    ) + "CREATE TABLE audit (id INT) WITH ('connector' = 'blackhole');\n";
    repo.write("sql/totals.sql", &edited);
    assert_eq!(repo.findings(&["--base", "main"]), vec![]);
}

#[test]
fn changed_clauses_are_checked_as_create_or_alter() {
    if !git_available() {
        return;
    }
    let repo = Repo::new("clauses");
    repo.write(
        "sql/totals.sql",
        &totals("id, amount", "  FRESHNESS = INTERVAL '1' MINUTE\n"),
    );
    repo.commit();
    repo.write(
        "sql/totals.sql",
        &totals(
            "id, amount",
            "  START_MODE = RESUME_OR_FROM_NOW\n  FRESHNESS = INTERVAL '5' MINUTE\n",
        ),
    );
    let found = repo.findings(&["--base", "main"]);
    assert_eq!(codes(&found), vec!["MT007"], "{found:?}");
}

#[test]
fn plain_create_changed_in_place_cannot_run_again() {
    if !git_available() {
        return;
    }
    let repo = Repo::new("plain");
    let plain = |select: &str| {
        format!("{SOURCE}CREATE MATERIALIZED TABLE order_totals AS SELECT {select} FROM orders;\n")
    };
    repo.write("sql/totals.sql", &plain("id, amount"));
    repo.commit();
    repo.write("sql/totals.sql", &(plain("id, amount") + "-- reviewed\n"));
    assert_eq!(repo.findings(&["--base", "main"]), vec![]);
    repo.write("sql/totals.sql", &plain("id, amount, region"));
    let found = repo.findings(&["--base", "main"]);
    assert_eq!(codes(&found), vec!["CT001"], "{found:?}");
}

#[test]
fn new_files_and_history_files_use_their_base() {
    if !git_available() {
        return;
    }
    let repo = Repo::new("history");
    std::fs::create_dir_all(repo.dir.join("migrations")).unwrap();
    repo.write("migrations/V1__source.sql", SOURCE);
    repo.write(
        "migrations/V2__totals.sql",
        "CREATE OR ALTER MATERIALIZED TABLE order_totals AS SELECT id, amount FROM orders;\n",
    );
    repo.commit();
    // A migration edited in place, and a new file that is not in the revision.
    repo.write(
        "migrations/V2__totals.sql",
        "CREATE OR ALTER MATERIALIZED TABLE order_totals AS SELECT id FROM orders;\n",
    );
    repo.write(
        "sql/new.sql",
        "CREATE OR ALTER MATERIALIZED TABLE fresh AS SELECT id FROM orders;\n",
    );
    let found = repo.findings(&["--base", "main"]);
    assert_eq!(
        found,
        vec![
            ("MT002".into(), "migrations/V2__totals.sql".into(), 1),
            ("MT006".into(), "migrations/V2__totals.sql".into(), 1)
        ],
        "{found:?}"
    );
}

#[test]
fn unknown_revision_and_missing_repository_exit_2() {
    if !git_available() {
        return;
    }
    let repo = Repo::new("errors");
    repo.write("sql/totals.sql", &totals("id", ""));
    repo.commit();
    let out = repo.flinklint(&["check", "--base", "no-such-branch"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("unknown git revision `no-such-branch`"),
        "{err}"
    );
    let out = repo.flinklint(&["check", "--base=--all"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");

    std::fs::remove_dir_all(repo.dir.join(".git")).unwrap();
    let out = repo.flinklint(&["check", "--base", "main"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("is not inside a git repository"), "{err}");
}

#[test]
fn expand_history_starts_from_the_deployed_version() {
    if !git_available() {
        return;
    }
    let repo = Repo::new("expand");
    repo.write("sql/totals.sql", &totals("id, amount", ""));
    repo.commit();
    repo.write(
        "sql/totals.sql",
        &totals("id, amount, region", "  START_MODE = RESUME_OR_FROM_NOW\n"),
    );
    let out = repo.flinklint(&[
        "expand",
        "--base",
        "main",
        "--table",
        "order_totals",
        "--history",
    ]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("-- version 1 (main:sql/totals.sql:3)\n"),
        "{text}"
    );
    assert!(text.contains("-- version 2 (sql/totals.sql:3)\n"), "{text}");
    assert!(text.contains("+  `region` VARCHAR(2147483647)\n"), "{text}");
}
