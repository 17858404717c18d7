//! The context cache (`.flinklint_cache/`, `--no-cache`, `cache-dir`): a run on one file reads
//! only the context files it needs, and its findings are exactly those of a run that reads
//! every file of the project — however the cache is found: cold, warm, stale (a file edited,
//! renamed, deleted, added), truncated, garbled, of another version, or written by two runs at
//! once.

use crate::common::{isolated_command, root, TempDir};
use std::path::{Path, PathBuf};

/// Copies the fixture project into a new temporary folder.
fn project(name: &str) -> TempDir {
    let tmp = TempDir::new(name);
    let from = root().join("fixtures/context_cache/project");
    copy_dir(&from, &tmp.0);
    tmp
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// The project's `.sql` files (in every folder but the cache's), relative to its root, sorted.
fn sql_files(dir: &Path) -> Vec<PathBuf> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if !path.ends_with(".flinklint_cache") {
                    walk(root, &path, out);
                }
            } else if path.extension().is_some_and(|e| e == "sql") {
                out.push(path.strip_prefix(root).unwrap().to_path_buf());
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    assert!(out.len() > 10, "the fixture project: {out:?}");
    out
}

/// `flinklint check --format json FILE` in `dir` (with `extra` arguments): the report and
/// standard error.
fn check(dir: &Path, file: &Path, extra: &[&str]) -> (String, String) {
    let out = isolated_command(env!("CARGO_BIN_EXE_flinklint"), dir)
        .args(["check", "--format", "json", "--exit-zero", "--verbose"])
        .args(extra)
        .arg(file)
        .output()
        .expect("run flinklint");
    assert!(
        out.status.success(),
        "flinklint failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The figures of the `--verbose` line on the cache: (needed, context, parsed).
fn cache_line(stderr: &str) -> (usize, usize, usize) {
    let line = stderr
        .lines()
        .find(|l| l.starts_with("flinklint: context cache: "))
        .unwrap_or_else(|| panic!("no cache line in:\n{stderr}"));
    let n: Vec<usize> = line
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|w| w.parse().ok())
        .collect();
    (n[0], n[1], n[2])
}

/// Every file of `dir` gives the same report with the cache as without it.
fn assert_same_as_uncached(dir: &Path) {
    for file in sql_files(dir) {
        let (uncached, _) = check(dir, &file, &["--no-cache"]);
        let (cached, _) = check(dir, &file, &[]);
        assert_eq!(
            cached,
            uncached,
            "{}: the cached run differs from the run over every file",
            file.display()
        );
    }
}

#[test]
fn cached_and_uncached_runs_give_the_same_findings() {
    let tmp = project("cache-same");
    // Cold: the first run writes the cache; the others read it (warm).
    assert_same_as_uncached(&tmp.0);
    assert!(tmp.0.join(".flinklint_cache/context-index").is_file());
    // Warm, nothing changed: nothing is parsed but the file checked; an unrelated job needs
    // no context file, a job on the histories' tables needs them.
    let (_, err) = check(&tmp.0, Path::new("jobs/unrelated.sql"), &[]);
    let (needed, context, parsed) = cache_line(&err);
    assert_eq!(parsed, 0, "{err}");
    assert!(needed < context, "{err}");
    let (_, err) = check(&tmp.0, Path::new("jobs/udf.sql"), &[]);
    let (needed, _, _) = cache_line(&err);
    assert!(
        needed >= 5,
        "the histories, customers and the function: {err}"
    );
    // The cache keeps itself out of git.
    assert!(tmp.0.join(".flinklint_cache/.gitignore").is_file());
}

/// Sets a file's modification time back to that of another, so that only its size or content
/// tells that it changed.
fn same_mtime(file: &Path, like: &Path) {
    let t = std::fs::metadata(like).unwrap().modified().unwrap();
    std::fs::File::options()
        .write(true)
        .open(file)
        .unwrap()
        .set_modified(t)
        .unwrap();
}

#[test]
fn a_stale_cache_is_never_trusted() {
    let tmp = project("cache-stale");
    let dir = &tmp.0;
    let user = Path::new("jobs/bad_column.sql");
    check(dir, user, &[]);
    // Edited: the column the job reads now exists.
    let customers = dir.join("ddl/customers.sql");
    let old_time = std::fs::metadata(&customers).unwrap().modified().unwrap();
    std::fs::write(
        &customers,
        "CREATE TABLE customers (id BIGINT, nme  STRING) WITH ('connector' = 'datagen');\n",
    )
    .unwrap();
    // Same size, same modification time as before: the content hash is what tells (the time
    // is within the racy window of the cache's writing).
    std::fs::File::options()
        .write(true)
        .open(&customers)
        .unwrap()
        .set_modified(old_time)
        .unwrap();
    let (cached, _) = check(dir, user, &[]);
    assert_eq!(cached, check(dir, user, &["--no-cache"]).0);
    assert!(!cached.contains("QV001"), "{cached}");
    // Renamed.
    std::fs::rename(&customers, dir.join("ddl/customers_v2.sql")).unwrap();
    assert_same_as_uncached(dir);
    // Deleted: the table is gone.
    std::fs::remove_file(dir.join("ddl/customers_v2.sql")).unwrap();
    let (cached, _) = check(dir, user, &[]);
    assert_eq!(cached, check(dir, user, &["--no-cache"]).0);
    // A new file that creates a table a job used without anyone creating it.
    let job = Path::new("jobs/unknown_table.sql");
    check(dir, job, &[]);
    std::fs::write(
        dir.join("ddl/missing.sql"),
        "CREATE TABLE missing_table (id INT) WITH ('connector' = 'datagen');\n",
    )
    .unwrap();
    let (cached, _) = check(dir, job, &[]);
    assert_eq!(cached, check(dir, job, &["--no-cache"]).0);
    // A new file that shadows a table of a history (`already exists` in the new file, and
    // the scripts that used the history's table see it unchanged).
    std::fs::write(
        dir.join("ddl/customers.sql"),
        "CREATE TABLE customers (id BIGINT, name STRING) WITH ('connector' = 'datagen');\nCREATE TABLE big_orders (id INT) WITH ('connector' = 'datagen');\n",
    )
    .unwrap();
    same_mtime(
        &dir.join("ddl/customers.sql"),
        &dir.join("ddl/functions.sql"),
    );
    assert_same_as_uncached(dir);
}

#[test]
fn a_corrupt_cache_is_read_as_no_cache() {
    let tmp = project("cache-corrupt");
    let dir = &tmp.0;
    let file = Path::new("jobs/udf.sql");
    let (expected, _) = check(dir, file, &["--no-cache"]);
    check(dir, file, &[]);
    let cache = dir.join(".flinklint_cache/context-index");
    let whole = std::fs::read(&cache).unwrap();
    let garbage: &[&[u8]] = &[
        &whole[..whole.len() / 2],
        &whole[..whole.len() - 1],
        b"",
        b"\xff\xfe not a cache \x00\n",
        &[b'x'; 4096],
    ];
    for bad in garbage {
        std::fs::write(&cache, bad).unwrap();
        let (cached, err) = check(dir, file, &[]);
        assert_eq!(cached, expected);
        // Every file was parsed again, and the cache written whole.
        let (_, context, parsed) = cache_line(&err);
        assert_eq!(parsed, context + 1, "{err}");
        let (_, err) = check(dir, file, &[]);
        assert_eq!(cache_line(&err).2, 0, "{err}");
    }
    // A line changed inside: the body's hash no longer matches.
    let text = String::from_utf8(whole.clone()).unwrap();
    let tampered = text.replacen("customers", "customerz", 1);
    assert_ne!(tampered, text);
    std::fs::write(&cache, tampered).unwrap();
    let (cached, err) = check(dir, file, &[]);
    assert_eq!(cached, expected);
    assert!(cache_line(&err).2 > 0, "{err}");
}

#[test]
fn a_cache_of_another_version_is_not_read() {
    let tmp = project("cache-version");
    let dir = &tmp.0;
    let file = Path::new("jobs/enrich.sql");
    check(dir, file, &[]);
    let cache = dir.join(".flinklint_cache/context-index");
    let text = std::fs::read_to_string(&cache).unwrap();
    let (first, rest) = text.split_once('\n').unwrap();
    let mut words: Vec<&str> = first.split(' ').collect();
    assert_eq!(words.len(), 3, "{first}");
    words[2] = "0.0.0-older";
    std::fs::write(&cache, format!("{}\n{rest}", words.join(" "))).unwrap();
    let (cached, err) = check(dir, file, &[]);
    let (_, context, parsed) = cache_line(&err);
    assert_eq!(parsed, context + 1, "{err}");
    assert_eq!(cached, check(dir, file, &["--no-cache"]).0);
}

#[test]
fn two_concurrent_runs_leave_a_whole_cache() {
    let tmp = project("cache-concurrent");
    let dir = &tmp.0;
    let files = [
        "jobs/udf.sql",
        "jobs/enrich.sql",
        "jobs/shared_user.sql",
        "jobs/cycle_a.sql",
    ];
    let expected: Vec<String> = files
        .iter()
        .map(|f| check(dir, Path::new(f), &["--no-cache"]).0)
        .collect();
    for _ in 0..3 {
        let _ = std::fs::remove_dir_all(dir.join(".flinklint_cache"));
        let children: Vec<std::process::Child> = files
            .iter()
            .map(|f| {
                isolated_command(env!("CARGO_BIN_EXE_flinklint"), dir)
                    .args(["check", "--format", "json", "--exit-zero", f])
                    .stdout(std::process::Stdio::piped())
                    .stderr(std::process::Stdio::null())
                    .spawn()
                    .expect("run flinklint")
            })
            .collect();
        for (child, expected) in children.into_iter().zip(&expected) {
            let out = child.wait_with_output().unwrap();
            assert_eq!(&String::from_utf8_lossy(&out.stdout), expected);
        }
        // What they left is a whole cache: the next run parses nothing but what it checks.
        let (cached, err) = check(dir, Path::new(files[0]), &[]);
        assert_eq!(cached, expected[0]);
        assert_eq!(cache_line(&err).2, 0, "{err}");
        // No temporary file is left behind.
        let left: Vec<_> = std::fs::read_dir(dir.join(".flinklint_cache"))
            .unwrap()
            .filter_map(Result::ok)
            .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
            .collect();
        assert!(left.is_empty());
    }
}

#[test]
fn no_cache_and_cache_dir() {
    let tmp = project("cache-dir");
    let dir = &tmp.0;
    let file = Path::new("jobs/enrich.sql");
    let (_, err) = check(dir, file, &["--no-cache"]);
    assert!(!err.contains("context cache"), "{err}");
    assert!(!dir.join(".flinklint_cache").exists());
    std::fs::write(
        dir.join(".flinklint.yaml"),
        "catalog: auto\ncache-dir: build/lint-cache\n",
    )
    .unwrap();
    check(dir, file, &[]);
    assert!(dir.join("build/lint-cache/context-index").is_file());
    assert!(!dir.join(".flinklint_cache").exists());
}

/// A folder that is no project (no config file, no git work tree: a home directory, `/tmp`)
/// gets no cache written into it; the findings are those of a run without the cache.
#[test]
fn no_cache_outside_a_project() {
    let tmp = project("no-project");
    let dir = &tmp.0;
    std::fs::remove_file(dir.join(".flinklint.yaml")).unwrap();
    let file = Path::new("jobs/enrich.sql");
    let (cached, _) = check(dir, file, &[]);
    assert!(!dir.join(".flinklint_cache").exists());
    let (uncached, _) = check(dir, file, &["--no-cache"]);
    assert_eq!(cached, uncached);
    // With a git work tree, the cache is kept in its root.
    std::fs::create_dir(dir.join(".git")).unwrap();
    check(dir, file, &[]);
    assert!(dir.join(".flinklint_cache").exists());
}

/// A `cache-dir` that names a folder of other files (the project's root, a folder of SQL) gets
/// no cache written into it: the cache's `.gitignore` would hide the folder's files from every
/// later run's walk. Every run gives the findings of a run without the cache, and a note says
/// why nothing was written.
#[test]
fn a_cache_dir_that_holds_other_files_is_left_alone() {
    for cache_dir in [".", "ddl"] {
        let tmp = project(&format!("cache-dir-shared-{}", cache_dir.len()));
        let dir = &tmp.0;
        let file = Path::new("jobs/enrich.sql");
        let (uncached, _) = check(dir, file, &["--no-cache"]);
        std::fs::write(
            dir.join(".flinklint.yaml"),
            format!("catalog: auto\ncache-dir: '{cache_dir}'\n"),
        )
        .unwrap();
        for run in 0..2 {
            let (cached, err) = check(dir, file, &[]);
            assert_eq!(cached, uncached, "{cache_dir}, run {run}");
            assert!(
                err.contains("the context cache is not written to")
                    && err.contains("must name a folder of its own"),
                "{cache_dir}: {err}"
            );
            let whole = isolated_command(env!("CARGO_BIN_EXE_flinklint"), dir)
                .args(["check", "--format", "json", "--exit-zero", "."])
                .output()
                .unwrap();
            assert!(
                String::from_utf8_lossy(&whole.stdout).contains("\"files_checked\": 20"),
                "{cache_dir}: {}",
                String::from_utf8_lossy(&whole.stdout)
            );
        }
        let folder = dir.join(cache_dir);
        for name in [".gitignore", "CACHEDIR.TAG", "context-index"] {
            assert!(!folder.join(name).exists(), "{cache_dir}: {name} written");
        }
    }
}

/// flinklint's own cache folder stays its own whatever else lands in it (a `.DS_Store`, an
/// editor's file): the cache is still written, and no note is printed.
#[test]
fn the_cache_folder_is_kept_with_a_stranger_in_it() {
    let tmp = project("cache-dir-stranger");
    let dir = &tmp.0;
    let file = Path::new("jobs/enrich.sql");
    check(dir, file, &[]);
    let index = dir.join(".flinklint_cache/context-index");
    assert!(index.is_file());
    std::fs::write(dir.join(".flinklint_cache/.DS_Store"), "x").unwrap();
    std::fs::remove_file(&index).unwrap();
    let (_, err) = check(dir, file, &[]);
    assert!(!err.contains("not written"), "{err}");
    assert!(index.is_file(), "the cache was not written again");
}

#[test]
fn temporary_files_of_killed_runs_are_removed() {
    let tmp = project("cache-abandoned");
    let dir = &tmp.0;
    let cache = dir.join(".flinklint_cache");
    std::fs::create_dir_all(&cache).unwrap();
    // A run killed between writing its temporary file and renaming it, two hours ago; and one
    // writing its own right now.
    let abandoned = cache.join("context-index.4242.1700000000000000000.tmp");
    let current = cache.join("context-index.4343.1800000000000000000.tmp");
    // Old files named almost so, which flinklint did not write.
    let strangers = [
        "context-index.backup.tmp",
        "context-index..tmp",
        "context-index.1.2.3.tmp",
        "context-index.12.tmp",
    ]
    .map(|n| cache.join(n));
    std::fs::write(&current, "flinklint context index, being written").unwrap();
    let two_hours_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(7200);
    for path in strangers.iter().chain([&abandoned]) {
        std::fs::write(path, "flinklint context index, half written").unwrap();
        std::fs::File::options()
            .write(true)
            .open(path)
            .unwrap()
            .set_modified(two_hours_ago)
            .unwrap();
    }
    let (_, err) = check(dir, Path::new("jobs/enrich.sql"), &[]);
    assert!(cache.join("context-index").is_file(), "{err}");
    assert!(!abandoned.exists(), "the abandoned file is removed");
    assert!(current.exists(), "a file being written is left alone");
    for path in &strangers {
        assert!(path.exists(), "{} is not flinklint's", path.display());
    }
}

/// A file edited without a change of size, its modification time then set back (`cp -p`,
/// `touch -d`, `rsync -t`) long after the cache was written: its status-change time, which no
/// program sets back, tells that it changed.
#[test]
fn a_time_set_back_does_not_hide_an_edit() {
    let tmp = project("cache-time-set-back");
    let dir = &tmp.0;
    let job = Path::new("jobs/unknown_table.sql");
    let ddl = dir.join("ddl/almost.sql");
    // The job reads `missing_table`, which this file nearly creates.
    std::fs::write(
        &ddl,
        "CREATE TABLE missing_tablf (name STRING) WITH ('connector' = 'datagen');\n",
    )
    .unwrap();
    let long_ago =
        std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_600_000_000);
    let set_back = |file: &Path| {
        std::fs::File::options()
            .write(true)
            .open(file)
            .unwrap()
            .set_modified(long_ago)
            .unwrap();
    };
    set_back(&ddl);
    // Past the window in which an entry is checked by its content, so that the entry written
    // next is trusted by its size and time alone.
    std::thread::sleep(std::time::Duration::from_millis(2100));
    let (before, _) = check(dir, job, &[]);
    assert!(!before.contains("QV001"), "{before}");
    // Same size, and the same modification time as the entry holds.
    std::fs::write(
        &ddl,
        "CREATE TABLE missing_table (name STRING) WITH ('connector' = 'datagen');\n",
    )
    .unwrap();
    set_back(&ddl);
    let (cached, _) = check(dir, job, &[]);
    assert_eq!(cached, check(dir, job, &["--no-cache"]).0);
    assert!(
        cached.contains("QV001"),
        "the table now exists, without `id`: {cached}"
    );
}

/// Each writing of the cache drops the entries of files that no longer exist: renaming files
/// again and again does not grow it.
#[test]
fn entries_of_removed_files_are_dropped() {
    let tmp = project("cache-pruned");
    let dir = &tmp.0;
    let job = Path::new("jobs/unrelated.sql");
    let index = dir.join(".flinklint_cache/context-index");
    let file = dir.join("ddl/renamed_0.sql");
    std::fs::write(
        &file,
        "CREATE TABLE renamed (id INT) WITH ('connector' = 'datagen');\n",
    )
    .unwrap();
    check(dir, job, &[]);
    let mut current = file;
    for i in 1..=3 {
        let next = dir.join(format!("ddl/renamed_{i}.sql"));
        std::fs::rename(&current, &next).unwrap();
        current = next;
        check(dir, job, &[]);
    }
    let text = std::fs::read_to_string(&index).unwrap();
    assert!(text.contains("renamed_3.sql"), "{text}");
    for gone in ["renamed_0.sql", "renamed_1.sql", "renamed_2.sql"] {
        assert!(
            !text.contains(gone),
            "{gone} is still in the cache:\n{text}"
        );
    }
}
