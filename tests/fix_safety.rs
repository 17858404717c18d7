//! `check --fix` never damages a file: links, owner, group and permissions are kept, line
//! breaks and the byte-order mark are kept whatever the rule, long names and stale temporary
//! files are handled, a file that cannot be written is an error, and fixes that would add a
//! syntax error or never settle are not applied. Ends with the corpus acceptance: fixing real
//! Flink SQL adds no syntax error and a second run changes nothing.

use crate::common::TempDir;
use flinklint::syntax::{parse, SyntaxErrorKind};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output};

/// A file with one safe fix (SY001: `#` comment to `--`) and nothing else to report.
const FIXABLE: &str = "# a comment\nSELECT 1;\n";
const FIXED: &str = "-- a comment\nSELECT 1;\n";

fn flinklint(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_flinklint"))
        .current_dir(dir)
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("run flinklint")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).expect("read")
}

#[cfg(unix)]
#[test]
fn a_symbolic_link_is_written_through_to_its_target() {
    let tmp = TempDir::new("fix-symlink");
    let project = tmp.0.join("project");
    let elsewhere = tmp.0.join("elsewhere");
    std::fs::create_dir_all(&project).unwrap();
    std::fs::create_dir_all(&elsewhere).unwrap();
    let target = elsewhere.join("real.sql");
    std::fs::write(&target, FIXABLE).unwrap();
    let link = project.join("link.sql");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let out = flinklint(&project, &["check", "--fix", "."]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink(),
        "the link was replaced by a file"
    );
    assert_eq!(read(&target), FIXED, "the link's target keeps the old text");
    assert!(
        std::fs::read_dir(&project).unwrap().count() == 1
            && std::fs::read_dir(&elsewhere).unwrap().count() == 1,
        "temporary files left behind"
    );
}

#[cfg(unix)]
#[test]
fn hard_links_are_kept() {
    use std::os::unix::fs::MetadataExt;
    let tmp = TempDir::new("fix-hardlink");
    let project = tmp.0.join("project");
    std::fs::create_dir_all(&project).unwrap();
    let file = project.join("a.sql");
    std::fs::write(&file, FIXABLE).unwrap();
    let other = tmp.0.join("other-name.sql");
    std::fs::hard_link(&file, &other).unwrap();
    let inode = std::fs::metadata(&file).unwrap().ino();
    let out = flinklint(&project, &["check", "--fix", "."]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let meta = std::fs::metadata(&file).unwrap();
    assert_eq!(
        meta.ino(),
        inode,
        "the file was replaced: its hard link is split"
    );
    assert_eq!(meta.nlink(), 2);
    assert_eq!(read(&file), FIXED);
    assert_eq!(read(&other), FIXED, "the other name keeps the old text");
}

#[cfg(unix)]
#[test]
fn owner_group_and_permissions_are_kept() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let tmp = TempDir::new("fix-owner");
    let file = tmp.0.join("a.sql");
    std::fs::write(&file, FIXABLE).unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o640)).unwrap();
    // Only a privileged user can give a file away; others check the permissions only.
    let given = std::os::unix::fs::chown(&file, Some(4242), Some(4243)).is_ok();
    if !given {
        eprintln!(
            "not privileged: the owner part of owner_group_and_permissions_are_kept is skipped"
        );
    }
    let before = std::fs::metadata(&file).unwrap();
    let out = flinklint(&tmp.0, &["check", "--fix", "."]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let after = std::fs::metadata(&file).unwrap();
    assert_eq!(read(&file), FIXED);
    assert_eq!(after.permissions().mode() & 0o7777, 0o640);
    assert_eq!((after.uid(), after.gid()), (before.uid(), before.gid()));
    if given {
        assert_eq!((after.uid(), after.gid()), (4242, 4243));
    }
}

/// MT002's fix (a line of its own before `AS`) and MT001's rewrite write line breaks; in a
/// file whose lines end with `\r\n` they do too, and a byte-order mark stays first.
#[test]
fn line_breaks_and_byte_order_mark_are_kept() {
    let tmp = TempDir::new("fix-crlf");
    let mt002 =
        "CREATE TABLE orders (id INT NOT NULL, amount DOUBLE) WITH ('connector' = 'datagen');\n\
                 CREATE MATERIALIZED TABLE order_totals AS SELECT id, amount FROM orders;\n\
                 CREATE OR ALTER MATERIALIZED TABLE order_totals\n\
                 AS SELECT id, amount FROM orders WHERE amount > 0;\n"
            .replace('\n', "\r\n");
    let mt001 = "CREATE TABLE orders (id INT NOT NULL, amount DOUBLE) WITH ('connector' = 'datagen');\n\
                 CREATE MATERIALIZED TABLE order_totals AS SELECT id, amount FROM orders;\n\
                 ALTER MATERIALIZED TABLE order_totals AS SELECT id, amount, amount * 2 AS doubled FROM orders;\n"
        .replace('\n', "\r\n");
    std::fs::write(tmp.0.join("mt002.sql"), &mt002).unwrap();
    std::fs::write(tmp.0.join("mt001.sql"), &mt001).unwrap();
    // The byte-order mark is SY001's to remove: only MT002's fix runs on this one.
    std::fs::write(tmp.0.join("bom.sql"), format!("\u{FEFF}{mt002}")).unwrap();
    for (file, args) in [
        ("mt002.sql", vec!["check", "--fix", "mt002.sql"]),
        (
            "mt001.sql",
            vec!["check", "--fix", "--unsafe-fixes", "mt001.sql"],
        ),
        (
            "bom.sql",
            vec!["check", "--fix", "--select", "MT002", "bom.sql"],
        ),
    ] {
        let out = flinklint(&tmp.0, &args);
        let fixed = read(&tmp.0.join(file));
        assert!(
            stderr(&out).contains("applied 1 fix"),
            "{file}: {}",
            stderr(&out)
        );
        assert!(fixed.contains("START_MODE"), "{file}: not fixed:\n{fixed}");
        let bare = fixed
            .bytes()
            .enumerate()
            .filter(|&(i, b)| b == b'\n' && (i == 0 || fixed.as_bytes()[i - 1] != b'\r'))
            .count();
        assert_eq!(bare, 0, "{file}: a bare \\n was written:\n{fixed:?}");
        assert_eq!(fixed.starts_with('\u{FEFF}'), file == "bom.sql", "{file}");
    }
}

/// SY001 reported the missing `;` after `SELECT \`a FROM t` with a fix that put the `;` inside
/// the open name: each run added ten.
#[test]
fn no_semicolon_is_added_inside_an_open_quoted_name() {
    let tmp = TempDir::new("fix-open-name");
    let text = "SELECT `a FROM t\nCREATE TABLE x (a INT) WITH ('connector' = 'datagen');\n";
    let file = tmp.0.join("a.sql");
    std::fs::write(&file, text).unwrap();
    for _ in 0..2 {
        let out = flinklint(&tmp.0, &["check", "--fix", "--format", "concise", "a.sql"]);
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert!(!stderr(&out).contains("applied"), "{}", stderr(&out));
        assert!(stdout(&out).contains("expected `;` before the next statement"));
    }
    assert_eq!(read(&file), text);
}

/// Fixes that traded a syntax error for another: SY004 backticked `COLUMN` in
/// `ADD COLUMN c INT` and `OF` in `AS OF`, SY003 wrote an empty name.
#[test]
fn fixes_leave_no_new_syntax_error() {
    let tmp = TempDir::new("fix-no-new-error");
    let text = "CREATE TABLE t (a INT, b STRING) WITH ('connector' = 'datagen');\n\
                ALTER TABLE t ADD COLUMN c INT;\n\
                SELECT * FROM t AS x JOIN t AS OF x.a AS y ON x.a = y.a;\n\
                CALL sys.compact(table => 'T');\n\
                SELECT a AS \"\" FROM t;\n";
    let file = tmp.0.join("a.sql");
    std::fs::write(&file, text).unwrap();
    let out = flinklint(&tmp.0, &["check", "--fix", "--unsafe-fixes", "a.sql"]);
    let fixed = read(&file);
    assert!(
        stderr(&out).contains("applied 3 fix(es)"),
        "{}",
        stderr(&out)
    );
    assert!(fixed.contains("ALTER TABLE t ADD c INT;"), "{fixed}");
    assert!(
        fixed.contains("JOIN t FOR SYSTEM_TIME AS OF x.a AS y"),
        "{fixed}"
    );
    assert!(
        fixed.contains("CALL sys.compact(`table` => 'T');"),
        "{fixed}"
    );
    assert!(fixed.contains("SELECT a AS \"\" FROM t;"), "{fixed}");
    assert!(!stderr(&out).contains("not applied"), "{}", stderr(&out));
    assert_eq!(added_errors(text, &fixed), Vec::<String>::new());
}

#[test]
fn a_file_name_of_250_bytes_is_written() {
    let tmp = TempDir::new("fix-long-name");
    let name = format!("{}.sql", "n".repeat(246));
    assert_eq!(name.len(), 250);
    let file = tmp.0.join(&name);
    std::fs::write(&file, FIXABLE).unwrap();
    let out = flinklint(&tmp.0, &["check", "--fix", "."]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(read(&file), FIXED);
}

/// A run killed while writing leaves its temporary file; a later run that writes in that
/// folder removes it, but never a temporary file whose writer still runs, nor anything that is
/// not named as flinklint names them.
#[cfg(unix)]
#[test]
fn stale_temporary_files_are_removed() {
    let tmp = TempDir::new("fix-stale");
    std::fs::write(tmp.0.join("a.sql"), FIXABLE).unwrap();
    let gone = {
        let mut child = Command::new("true").spawn().expect("run true");
        let pid = child.id();
        child.wait().unwrap();
        pid
    };
    let running = std::process::id();
    let stale = [
        format!(".a.sql.flinklint-{gone}-0.tmp"),
        // Earlier versions' naming.
        format!(".a.sql.flinklint-{gone}.tmp"),
    ];
    let kept = [
        format!(".a.sql.flinklint-{running}-0.tmp"),
        format!("a.sql.flinklint-{gone}-0.tmp"),
        format!(".a.sql.flinklint-{gone}-0.tmp.bak"),
    ];
    for name in stale.iter().chain(&kept) {
        std::fs::write(tmp.0.join(name), "partial").unwrap();
    }
    let out = flinklint(&tmp.0, &["check", "--fix", "a.sql"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    for name in &stale {
        assert!(!tmp.0.join(name).exists(), "{name} was not removed");
        assert!(stderr(&out).contains(name.as_str()), "{}", stderr(&out));
    }
    for name in &kept {
        assert!(tmp.0.join(name).exists(), "{name} was removed");
    }
}

/// Runs `chattr` on `path`; false when it is not available or not permitted.
#[cfg(unix)]
fn chattr(flag: &str, path: &Path) -> bool {
    Command::new("chattr")
        .arg(flag)
        .arg(path)
        .output()
        .is_ok_and(|o| o.status.success())
}

/// A file that cannot be written is an error (exit 2), its findings are still reported, and it
/// is not counted as fixed.
#[cfg(unix)]
fn assert_unwritable(dir: &Path, file: &Path) {
    let out = flinklint(dir, &["check", "--fix", "--format", "concise", "."]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("cannot write"), "{err}");
    assert!(err.contains("could not be written"), "{err}");
    assert!(!err.contains("applied"), "{err}");
    assert!(stdout(&out).contains("SY001"), "{}", stdout(&out));
    assert!(!stdout(&out).contains("No problems"), "{}", stdout(&out));
    assert_eq!(read(file), FIXABLE);
    let leftovers: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
}

#[cfg(unix)]
#[test]
fn an_immutable_file_is_an_error() {
    let tmp = TempDir::new("fix-immutable");
    let file = tmp.0.join("a.sql");
    std::fs::write(&file, FIXABLE).unwrap();
    if !chattr("+i", &file) {
        eprintln!("chattr +i is not available here: an_immutable_file_is_an_error is skipped");
        return;
    }
    let result = std::panic::catch_unwind(|| assert_unwritable(&tmp.0, &file));
    chattr("-i", &file);
    if let Err(e) = result {
        std::panic::resume_unwind(e);
    }
}

#[cfg(unix)]
#[test]
fn a_folder_that_cannot_be_written_is_an_error() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = TempDir::new("fix-readonly-dir");
    let dir = tmp.0.join("locked");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("a.sql");
    std::fs::write(&file, FIXABLE).unwrap();
    // Read-only permissions do not stop a privileged user; an immutable folder does.
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o555)).unwrap();
    let probe = dir.join(".probe");
    let locked = if std::fs::write(&probe, "").is_err() {
        true
    } else {
        let _ = std::fs::remove_file(&probe);
        chattr("+i", &dir)
    };
    if !locked {
        eprintln!(
            "cannot make a folder unwritable here: a_folder_that_cannot_be_written_is_an_error is skipped"
        );
    } else {
        let result = std::panic::catch_unwind(|| assert_unwritable(&dir, &file));
        chattr("-i", &dir);
        if let Err(e) = result {
            let _ = std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755));
            std::panic::resume_unwind(e);
        }
    }
    let _ = std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755));
}

/// The syntax errors of `after` that `before` does not have (by kind and message: positions
/// move with the fixes).
fn added_errors(before: &str, after: &str) -> Vec<String> {
    let count = |text: &str| {
        let mut m: BTreeMap<(String, String), usize> = BTreeMap::new();
        for e in parse(text).errors {
            if matches!(e.kind, SyntaxErrorKind::TooManyErrors) {
                continue;
            }
            *m.entry((format!("{:?}", std::mem::discriminant(&e.kind)), e.message))
                .or_default() += 1;
        }
        m
    };
    let old = count(before);
    count(after)
        .into_iter()
        .filter(|(k, n)| old.get(k).copied().unwrap_or(0) < *n)
        .map(|((_, message), n)| format!("{message} (x{n})"))
        .collect()
}

/// Copies the `.sql` files of `from` into `to`, keeping their relative paths; returns them.
fn copy_sql_files(from: &Path, to: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in walk(from) {
        let rel = entry.strip_prefix(from).unwrap().to_path_buf();
        let dest = to.join(&rel);
        std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
        std::fs::copy(&entry, &dest).unwrap();
        files.push(rel);
    }
    files.sort();
    files
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().filter_map(Result::ok) {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else if path.extension().is_some_and(|e| e == "sql") {
            out.push(path);
        }
    }
    out
}

/// The corpus of real Flink SQL (`../shared/corpus`, skipped when absent), copied: `--fix` and
/// `--fix --unsafe-fixes` add no syntax error to any file, and a second run changes nothing.
#[test]
fn fixing_the_corpus_adds_no_syntax_error_and_settles() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    if !corpus.join("verdicts.jsonl").exists() {
        eprintln!("../shared/corpus not found: corpus fix test skipped");
        return;
    }
    for (mode, args) in [
        ("--fix", vec!["check", "--fix", "--format", "concise", "."]),
        (
            "--fix --unsafe-fixes",
            vec![
                "check",
                "--fix",
                "--unsafe-fixes",
                "--format",
                "concise",
                ".",
            ],
        ),
    ] {
        let tmp = TempDir::new("fix-corpus");
        let files = copy_sql_files(&corpus, &tmp.0);
        let out = flinklint(&tmp.0, &args);
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{mode}: {}",
            stderr(&out)
        );
        let err = stderr(&out);
        let applied = err
            .lines()
            .find(|l| l.contains("applied"))
            .unwrap_or("flinklint: applied 0 fix(es)");
        let refused: Vec<&str> = err.lines().filter(|l| l.contains("not applied")).collect();
        eprintln!("corpus, {mode}: {applied}; {} refused", refused.len());
        for r in &refused {
            eprintln!("  {r}");
        }
        assert!(!err.contains("internal error"), "{mode}: {err}");
        let mut added = Vec::new();
        let mut changed = 0;
        for rel in &files {
            let Ok(before) = std::fs::read_to_string(corpus.join(rel)) else {
                continue;
            };
            let after = read(&tmp.0.join(rel));
            if after != before {
                changed += 1;
            }
            for e in added_errors(&before, &after) {
                added.push(format!("{}: {e}", rel.display()));
            }
        }
        assert!(changed > 0, "{mode}: nothing was fixed");
        assert!(
            added.is_empty(),
            "{mode}: fixes added syntax errors:\n{}",
            added.join("\n")
        );
        let mut again = args.clone();
        again.insert(2, "--diff");
        let out = flinklint(&tmp.0, &again);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{mode}: a second run changes more:\n{}",
            stdout(&out)
        );
    }
}
