//! Hostile inputs around the files a run reads: named pipes, devices, symbolic-link loops and
//! oversized files where a SQL file, the config, a baseline, an order file or a `.gitignore`
//! is expected; YAML built to be slow; control characters in the input and in file names.
//! Each gives a clear message (or a SY000 finding) in bounded time, and nothing of the input
//! reaches the terminal as a control character.
//!
//! The binary is run with a generous deadline: a run that hangs fails its test instead of
//! hanging the suite.

use crate::common::TempDir;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Far above what any of these runs takes once fixed (milliseconds), far below a hang.
const DEADLINE: Duration = Duration::from_secs(60);

/// Runs the binary in `dir` with `args`, standard input from `stdin` (`None`: empty), and
/// returns its output; fails the test when it runs past [`DEADLINE`].
fn run(dir: &Path, args: &[&str], stdin: Option<Stdio>) -> Output {
    run_os(
        dir,
        &args.iter().map(|a| a.into()).collect::<Vec<_>>(),
        stdin,
    )
}

fn run_os(dir: &Path, args: &[std::ffi::OsString], stdin: Option<Stdio>) -> Output {
    let mut child = crate::common::isolated_command(env!("CARGO_BIN_EXE_flinklint"), dir)
        .args(args)
        .env("NO_COLOR", "1")
        .env_remove("GITHUB_ACTIONS")
        .stdin(stdin.unwrap_or_else(Stdio::null))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run flinklint");
    // Drain both pipes while waiting, so that a large output cannot block the child.
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut b = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stdout, &mut b);
        b
    });
    let err = std::thread::spawn(move || {
        let mut b = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stderr, &mut b);
        b
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for flinklint") {
            break status;
        }
        if start.elapsed() > DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            panic!("flinklint {args:?} ran for more than {DEADLINE:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Output {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Makes a named pipe at `path`; `false` (and the test is skipped) without `mkfifo`.
fn mkfifo(path: &Path) -> bool {
    let made = Command::new("mkfifo")
        .arg(path)
        .status()
        .is_ok_and(|s| s.success());
    if !made {
        eprintln!("mkfifo is not available: named-pipe cases skipped");
    }
    made
}

#[cfg(unix)]
fn symlink(target: impl AsRef<Path>, link: impl AsRef<Path>) {
    std::os::unix::fs::symlink(target, link).expect("make a symbolic link");
}

/// `(code, message)` of every finding of a JSON report.
fn findings(out: &Output) -> Vec<(String, String)> {
    let json: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}{}", text(&out.stdout), text(&out.stderr)));
    json["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_string(),
                d["message"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// A folder with `ok.sql` (clean), a named pipe `pipe` and a link `zero` to `/dev/zero`.
#[cfg(unix)]
fn hostile_folder(name: &str) -> Option<TempDir> {
    let dir = TempDir::new(name);
    std::fs::write(dir.0.join("ok.sql"), "SELECT 1;\n").unwrap();
    if !mkfifo(&dir.0.join("pipe")) {
        return None;
    }
    symlink("/dev/zero", dir.0.join("zero"));
    Some(dir)
}

#[cfg(unix)]
#[test]
fn sql_files_that_are_pipes_or_devices_are_sy000_when_named_and_skipped_in_walks() {
    let Some(dir) = hostile_folder("inputs-sql") else {
        return;
    };
    std::fs::rename(dir.0.join("pipe"), dir.0.join("pipe.sql")).unwrap();
    std::fs::rename(dir.0.join("zero"), dir.0.join("zero.sql")).unwrap();
    // Named: a finding that says what the path is, and the other file is checked.
    let out = run(
        &dir.0,
        &[
            "check", "--format", "json", "pipe.sql", "zero.sql", "ok.sql",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let found = findings(&out);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(
        found[0].0 == "SY000" && found[0].1.contains("named pipe"),
        "{found:?}"
    );
    assert!(
        found[1].0 == "SY000" && found[1].1.contains("a device"),
        "{found:?}"
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["files_checked"], 3, "{json}");
    // Walked: skipped with a note, the regular file checked.
    let out = run(&dir.0, &["check", "--format", "concise", "."], None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("in 1 file"),
        "{}",
        text(&out.stdout)
    );
    let err = text(&out.stderr);
    assert!(
        err.contains("skipped pipe.sql: it is a named pipe (FIFO), not a regular file"),
        "{err}"
    );
    assert!(err.contains("skipped zero.sql: it is a device"), "{err}");
    // `parse` refuses them too.
    for name in ["pipe.sql", "zero.sql"] {
        let out = run(&dir.0, &["parse", name], None);
        assert_eq!(out.status.code(), Some(2));
        assert!(text(&out.stderr).contains("not a regular file"), "{out:?}");
    }
    // `explain` says why it cannot read them (not that they hold no pipeline), and explains
    // the readable file given with them.
    std::fs::write(dir.0.join("bad.sql"), b"SELECT \xff;\n").unwrap();
    std::fs::write(dir.0.join("job.sql"), "SELECT 1;\n").unwrap();
    for (name, why) in [
        (
            "pipe.sql",
            "cannot read pipe.sql: it is a named pipe (FIFO), not a regular file",
        ),
        (
            "zero.sql",
            "cannot read zero.sql: it is a device, not a regular file",
        ),
        ("bad.sql", "cannot read bad.sql: not valid UTF-8 (byte 7)"),
    ] {
        let out = run(&dir.0, &["explain", name, "job.sql"], None);
        assert_eq!(out.status.code(), Some(2), "{out:?}");
        assert!(text(&out.stderr).contains(why), "{out:?}");
        assert!(!text(&out.stdout).contains("No pipeline"), "{out:?}");
        let out = run(&dir.0, &["explain", name], None);
        assert_eq!(out.status.code(), Some(2), "{out:?}");
        assert!(out.stdout.is_empty(), "{out:?}");
        // `parse` refuses what `check` cannot read, and prints no tree.
        let out = run(&dir.0, &["parse", name], None);
        assert_eq!(out.status.code(), Some(2), "{out:?}");
        assert!(text(&out.stderr).contains(why), "{out:?}");
        assert!(out.stdout.is_empty(), "{out:?}");
    }
}

#[cfg(unix)]
#[test]
fn config_baseline_and_order_files_that_are_pipes_or_devices_are_errors() {
    let Some(dir) = hostile_folder("inputs-small") else {
        return;
    };
    // A symbolic link to itself.
    symlink("loop", dir.0.join("loop"));
    for (args, what) in [
        (
            ["--config", "pipe"],
            "cannot read config file pipe: it is a named pipe",
        ),
        (
            ["--config", "zero"],
            "cannot read config file zero: it is a device",
        ),
        (
            ["--baseline", "pipe"],
            "cannot read the baseline pipe: it is a named pipe",
        ),
        (
            ["--baseline", "zero"],
            "cannot read the baseline zero: it is a device",
        ),
        (
            ["--external-tables", "pipe"],
            "--external-tables: `pipe` is a named pipe (FIFO), neither a file nor a folder",
        ),
        (
            ["--external-tables", "zero"],
            "--external-tables: `zero` is a device, neither a file nor a folder",
        ),
        (
            ["--external-tables", "loop"],
            "--external-tables: `loop` cannot be read: ",
        ),
        (
            ["--external-tables", "missing"],
            "--external-tables: `missing` does not exist",
        ),
    ] {
        let mut all = vec!["check", "ok.sql"];
        all.extend(args);
        let out = run(&dir.0, &all, None);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(text(&out.stderr).contains(what), "{}", text(&out.stderr));
    }
    // A history's order file.
    std::fs::create_dir(dir.0.join("catalog")).unwrap();
    std::fs::write(dir.0.join("catalog/V1__a.sql"), "SELECT 1;\n").unwrap();
    for order in ["pipe", "zero"] {
        std::fs::write(
            dir.0.join(".flinklint.yaml"),
            format!("histories:\n  - {{path: catalog, order: {order}}}\n"),
        )
        .unwrap();
        let out = run(&dir.0, &["check", "."], None);
        assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
        assert!(
            text(&out.stderr).contains(&format!("cannot read the order file `{order}`")),
            "{}",
            text(&out.stderr)
        );
    }
}

#[cfg(unix)]
#[test]
fn gitignore_files_that_are_pipes_or_devices_are_skipped_with_a_note() {
    let Some(dir) = hostile_folder("inputs-gitignore") else {
        return;
    };
    std::fs::create_dir(dir.0.join("sub")).unwrap();
    std::fs::write(dir.0.join("sub/a.sql"), "SELECT \"x\";\n").unwrap();
    std::fs::rename(dir.0.join("pipe"), dir.0.join(".gitignore")).unwrap();
    std::fs::rename(dir.0.join("zero"), dir.0.join("sub/.gitignore")).unwrap();
    let out = run(&dir.0, &["check", "--format", "json", "."], None);
    let err = text(&out.stderr);
    assert!(
        err.contains("skipped .gitignore: it is a named pipe"),
        "{err}"
    );
    assert!(
        err.contains("skipped sub/.gitignore: it is a device"),
        "{err}"
    );
    assert!(err.contains("its patterns are not applied"), "{err}");
    let codes: Vec<String> = findings(&out).into_iter().map(|f| f.0).collect();
    assert_eq!(codes, ["SY003"]);
}

#[cfg(unix)]
#[test]
fn gitignore_patterns_still_apply_as_git_applies_them() {
    let dir = TempDir::new("inputs-gitignore-rules");
    let root = &dir.0;
    for f in [
        "a.sql",
        "gen/b.sql",
        "gen/keep.sql",
        "deep/x/c.sql",
        "deep/y/d.sql",
        "inner/repo/e.sql",
    ] {
        std::fs::create_dir_all(root.join(f).parent().unwrap()).unwrap();
        std::fs::write(root.join(f), "SELECT 1;\n").unwrap();
    }
    std::fs::write(root.join(".gitignore"), "gen/\n*.tmp\nc.sql\ne.sql\n").unwrap();
    // A nearer file re-includes what a farther one ignores.
    std::fs::write(root.join("deep/x/.gitignore"), "!c.sql\n").unwrap();
    // A nested repository: the rules above its root do not apply inside it.
    std::fs::create_dir_all(root.join("inner/repo/.git/info")).unwrap();
    std::fs::write(root.join("inner/repo/.git/info/exclude"), "nothing\n").unwrap();
    let inputs =
        flinklint::discover::discover(std::slice::from_ref(root), &["sql".to_string()], None)
            .expect("discover");
    let mut found: Vec<String> = inputs
        .iter()
        .map(|i| {
            i.path()
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/")
        })
        .collect();
    found.sort();
    assert_eq!(
        found,
        ["a.sql", "deep/x/c.sql", "deep/y/d.sql", "inner/repo/e.sql"]
    );
}

#[cfg(unix)]
#[test]
fn standard_input_is_read_up_to_its_limit() {
    let dir = TempDir::new("inputs-stdin");
    for args in [&["check", "-"][..], &["parse", "-"][..]] {
        let zero = std::fs::File::open("/dev/zero").expect("/dev/zero");
        let out = run(&dir.0, args, Some(Stdio::from(zero)));
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            text(&out.stderr).contains("cannot read standard input: larger than 100 MiB"),
            "{}",
            text(&out.stderr)
        );
    }
}

#[test]
fn oversized_files_are_refused_before_they_are_read() {
    let dir = TempDir::new("inputs-size");
    std::fs::write(dir.0.join("ok.sql"), "SELECT 1;\n").unwrap();
    // Sparse files: nothing is written, and nothing may be read.
    let sized = |name: &str, len: u64| {
        let f = std::fs::File::create(dir.0.join(name)).unwrap();
        f.set_len(len).unwrap();
    };
    sized("big.sql", flinklint::files::SQL_LIMIT + 1);
    sized("big.yaml", flinklint::files::SMALL_LIMIT + 1);
    sized("big.json", flinklint::files::BASELINE_LIMIT + 1);
    let out = run(
        &dir.0,
        &["check", "--format", "json", "big.sql", "ok.sql"],
        None,
    );
    let found = findings(&out);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "SY000");
    assert!(found[0].1.contains("larger than 100 MiB"), "{found:?}");
    let out = run(&dir.0, &["check", "--config", "big.yaml", "ok.sql"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("larger than 1 MiB"), "{out:?}");
    let out = run(&dir.0, &["check", "--baseline", "big.json", "ok.sql"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("larger than 64 MiB"), "{out:?}");
}

#[cfg(unix)]
#[test]
fn symbolic_link_loops_broken_links_and_folders_named_like_files() {
    let dir = TempDir::new("inputs-links");
    let root = &dir.0;
    std::fs::write(root.join("ok.sql"), "SELECT 1;\n").unwrap();
    symlink("loop.sql", root.join("loop.sql"));
    symlink("missing.sql", root.join("dangling.sql"));
    std::fs::create_dir(root.join("folder.sql")).unwrap();
    std::fs::write(root.join("folder.sql/inside.sql"), "SELECT \"x\";\n").unwrap();
    std::fs::create_dir(root.join("sub")).unwrap();
    symlink("..", root.join("sub/up"));
    // Named: the loop is unreadable (SY000), the folder is walked.
    let out = run(
        root,
        &["check", "--format", "json", "loop.sql", "folder.sql"],
        None,
    );
    let found = findings(&out);
    assert_eq!(found.len(), 2, "{found:?}");
    assert_eq!(found[0].0, "SY000");
    assert!(found[0].1.contains("symbolic links"), "{found:?}");
    assert_eq!(found[1].0, "SY003");
    // A link to nothing is a usage error that says so.
    let out = run(root, &["check", "dangling.sql"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("dangling.sql is a symbolic link to a path that does not exist"),
        "{}",
        text(&out.stderr)
    );
    // Walked: the loops are skipped with notes, the rest is checked.
    let out = run(root, &["check", "--format", "json", "."], None);
    let codes: Vec<String> = findings(&out).into_iter().map(|f| f.0).collect();
    assert_eq!(codes, ["SY003"], "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(err.contains("skipped loop.sql"), "{err}");
    assert!(
        err.contains("skipped sub/up: a symbolic link to its own ancestor"),
        "{err}"
    );
}

/// Seconds `check --config FILE` takes on `yaml`, with its exit code and standard error.
fn time_config(name: &str, yaml: &str) -> (f64, Option<i32>, String) {
    let dir = TempDir::new(name);
    std::fs::write(dir.0.join("ok.sql"), "SELECT 1;\n").unwrap();
    std::fs::write(dir.0.join("c.yaml"), yaml).unwrap();
    let start = Instant::now();
    let out = run(&dir.0, &["check", "--config", "c.yaml", "ok.sql"], None);
    (
        start.elapsed().as_secs_f64(),
        out.status.code(),
        text(&out.stderr),
    )
}

#[test]
fn yaml_built_to_be_slow_is_refused_at_once() {
    // 200 KB of `[` took 97 s before its error: libyaml's cost per token grows with the open
    // collections.
    let (took, code, err) = time_config(
        "inputs-yaml-nest",
        &format!("target: {}", "[".repeat(200_000)),
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("more than 1024 `[` and `{`"), "{err}");
    assert!(err.contains("c.yaml:1:1033"), "{err}");
    assert!(took < 20.0, "{took} s");
    let (_, code, err) = time_config(
        "inputs-yaml-deep",
        &format!("overrides: {}", "{a: ".repeat(50)),
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("nested more than 32 levels deep"), "{err}");
    // Billion laughs: nine aliases of nine aliases of ..., under a key that takes a list.
    let mut bomb = String::from("exclude: &a0 [\"x\", \"x\", \"x\", \"x\", \"x\", \"x\", \"x\", \"x\", \"x\"]\nextensions:\n");
    for level in 1..=9 {
        let refs = vec![format!("*a{}", level - 1); 9].join(", ");
        bomb.push_str(&format!("  - &a{level} [{refs}]\n"));
    }
    let (took, code, err) = time_config("inputs-yaml-bomb", &bomb);
    assert_eq!(code, Some(2), "{err}");
    assert!(took < 20.0, "{took} s");
}

/// SQL whose double-quoted literal (SY003) and suppression comment (SU001) hold a terminal
/// escape sequence (set the window title, clear the screen), a bell, a carriage return, a C1
/// control and a right-to-left override.
const HOSTILE_SQL: &str = "SELECT \"\u{1b}]0;pwned\u{7}\u{1b}[2J\rX\u{9b}31m\u{202e}Y\";\n-- flinklint: ignore Q\u{1b}]0;pwned\u{7}Z\nSELECT 1;\n";

const FORMATS: [&str; 7] = [
    "human", "concise", "json", "sarif", "github", "gitlab", "junit",
];

/// Whether `out` holds a character a terminal would act on: C0 controls but the line feed
/// (and the tab, which human output never prints raw), DEL; with `all`, also C1 controls and
/// bidirectional overrides (the JSON formats keep those as characters, which is safe).
fn raw_controls(out: &str, all: bool) -> Vec<char> {
    out.chars()
        .filter(|&c| {
            (c < ' ' && c != '\n' && c != '\t')
                || c == '\u{7f}'
                || (all
                    && (('\u{80}'..='\u{9f}').contains(&c)
                        || ('\u{202a}'..='\u{202e}').contains(&c)))
        })
        .collect()
}

#[test]
fn control_characters_of_the_input_never_reach_the_output_raw() {
    let dir = TempDir::new("inputs-controls");
    std::fs::write(dir.0.join("hostile.sql"), HOSTILE_SQL).unwrap();
    for format in FORMATS {
        let out = run(&dir.0, &["check", "--format", format, "hostile.sql"], None);
        assert_eq!(
            out.status.code(),
            Some(1),
            "{format}: {}",
            text(&out.stderr)
        );
        let shown = text(&out.stdout);
        let text_format = matches!(format, "human" | "concise" | "github" | "junit");
        let raw = raw_controls(&shown, text_format);
        assert!(raw.is_empty(), "{format}: {raw:?} in\n{shown}");
        assert!(
            shown.contains("SY003") && shown.contains("SU001"),
            "{format}: {shown}"
        );
        // What the input held is shown, escaped.
        if text_format {
            assert!(shown.contains("\\u{1b}]0;pwned\\u{7}"), "{format}: {shown}");
        }
    }
}

#[cfg(unix)]
#[test]
fn file_names_with_spaces_newlines_controls_and_invalid_utf8_in_every_format() {
    use std::os::unix::ffi::OsStringExt;
    let dir = TempDir::new("inputs-names");
    let names: Vec<std::ffi::OsString> = vec![
        "with space.sql".into(),
        "new\nline.sql".into(),
        "esc\u{1b}]0;t\u{7}.sql".into(),
        std::ffi::OsString::from_vec(b"caf\xe9.sql".to_vec()),
    ];
    for name in &names {
        std::fs::write(dir.0.join(name), "SELECT \"x\";\n").unwrap();
    }
    let shown = [
        "with space.sql",
        "new\\nline.sql",
        "esc\\u{1b}]0;t\\u{7}.sql",
        "caf\\xe9.sql",
    ];
    for format in FORMATS {
        let mut args: Vec<std::ffi::OsString> =
            vec!["check".into(), "--format".into(), format.into()];
        args.extend(names.iter().cloned());
        let out = run_os(&dir.0, &args, None);
        assert_eq!(
            out.status.code(),
            Some(1),
            "{format}: {}",
            text(&out.stderr)
        );
        let stdout = String::from_utf8(out.stdout.clone()).expect("UTF-8 output");
        let text_format = matches!(format, "human" | "concise" | "github" | "junit");
        assert!(
            raw_controls(&stdout, text_format).is_empty(),
            "{format}: {stdout}"
        );
        match format {
            "concise" => {
                // One line per finding, each naming its file, then the summary.
                let lines: Vec<&str> = stdout.lines().collect();
                assert_eq!(lines.len(), names.len() + 1, "{stdout}");
                for name in shown {
                    let finding = format!("{name}:1:8: SY003");
                    assert_eq!(
                        lines.iter().filter(|l| l.starts_with(&finding)).count(),
                        1,
                        "{finding} in {stdout}"
                    );
                }
            }
            "human" | "github" | "junit" => {
                for name in shown {
                    assert!(stdout.contains(name), "{format}: {name} in {stdout}");
                }
            }
            _ => {
                let json: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
                let all = json.to_string();
                // SARIF's URIs are percent-encoded; the JSON formats escape the line feed.
                let (space, newline) = match format {
                    "sarif" => ("with%20space.sql", "new%0Aline.sql"),
                    _ => ("with space.sql", "new\\nline.sql"),
                };
                assert!(all.contains(space) && all.contains(newline), "{all}");
            }
        }
        if format == "junit" {
            roxmltree::Document::parse(&stdout).expect("well-formed XML");
        }
    }
}

#[test]
fn force_exclude_applies_to_standard_input_named_as_an_excluded_file() {
    let dir = TempDir::new("inputs-stdin-exclude");
    std::fs::write(dir.0.join(".flinklint.yaml"), "exclude: [\"gen/**\"]\n").unwrap();
    std::fs::create_dir(dir.0.join("gen")).unwrap();
    let with_stdin = |args: &[&str]| {
        let mut child = crate::common::isolated_command(env!("CARGO_BIN_EXE_flinklint"), &dir.0)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(b"SELECT \"x\";\n")
            .unwrap();
        child.wait_with_output().unwrap()
    };
    let base = [
        "check",
        "--format",
        "concise",
        "-",
        "--stdin-filename",
        "gen/x.sql",
    ];
    let out = with_stdin(&base);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    let mut excluded = base.to_vec();
    excluded.push("--force-exclude");
    let out = with_stdin(&excluded);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    assert!(
        text(&out.stdout).contains("0 files"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn base_applies_to_standard_input_named_with_stdin_filename() {
    if Command::new("git").arg("--version").output().is_err() {
        return;
    }
    let dir = TempDir::new("inputs-stdin-base");
    let root = &dir.0;
    let totals = |select: &str| {
        format!(
            "CREATE TABLE orders (id INT NOT NULL, amount DOUBLE, region STRING) WITH ('connector' = 'datagen');\n\
             CREATE OR ALTER MATERIALIZED TABLE order_totals\n  AS SELECT {select} FROM orders;\n"
        )
    };
    std::fs::create_dir(root.join("sql")).unwrap();
    std::fs::write(root.join("sql/totals.sql"), totals("id, amount, region")).unwrap();
    crate::common::git(root, &["init", "-q", "-b", "main"]);
    crate::common::git(root, &["add", "-A"]);
    crate::common::git(root, &["commit", "-q", "-m", "v1"]);
    let check = |args: &[&str], buffer: &str| {
        let mut child = crate::common::isolated_command(env!("CARGO_BIN_EXE_flinklint"), root)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(buffer.as_bytes())
            .unwrap();
        child.wait_with_output().unwrap()
    };
    let args = [
        "check",
        "--format",
        "json",
        "-",
        "--stdin-filename",
        "sql/totals.sql",
        "--base",
        "main",
    ];
    // The editor's buffer reorders the columns of the deployed version: MT006.
    let out = check(&args, &totals("amount, id, region"));
    let codes: Vec<String> = findings(&out).into_iter().map(|f| f.0).collect();
    assert!(
        codes.contains(&"MT006".to_string()),
        "{codes:?} {}",
        text(&out.stderr)
    );
    // The unchanged buffer is no evolution.
    let out = check(&args, &totals("id, amount, region"));
    assert!(findings(&out).is_empty(), "{}", text(&out.stdout));
    // Without a name, --base has nothing to compare standard input with.
    let out = check(&["check", "-", "--base", "main"], "SELECT 1;\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--base needs --stdin-filename"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn one_did_you_mean_for_rules_everywhere() {
    let dir = TempDir::new("inputs-did-you-mean");
    std::fs::write(
        dir.0.join("a.sql"),
        "-- flinklint: ignore MT01\nSELECT 1;\n",
    )
    .unwrap();
    let expected = flinklint::registry::suggestion("MT01").expect("a suggestion");
    let out = run(&dir.0, &["rule", "MT01"], None);
    assert!(
        text(&out.stderr).contains(&format!("did you mean `{expected}`")),
        "{}",
        text(&out.stderr)
    );
    let out = run(&dir.0, &["check", "--ignore", "MT01", "a.sql"], None);
    assert!(
        text(&out.stderr).contains(&format!("did you mean `{expected}`?")),
        "{}",
        text(&out.stderr)
    );
    std::fs::write(dir.0.join("c.yaml"), "rules:\n  MT01: off\n").unwrap();
    let out = run(&dir.0, &["check", "--config", "c.yaml", "a.sql"], None);
    assert!(
        text(&out.stderr).contains(&format!("did you mean `{expected}`?")),
        "{}",
        text(&out.stderr)
    );
    let out = run(&dir.0, &["check", "--format", "json", "a.sql"], None);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        json["diagnostics"][0]["help"],
        format!("did you mean `{expected}`?")
    );
}

/// A named pipe or a link to `/dev/zero` in place of the context cache's index: the run reads
/// no cache (it parses its context instead) and finishes, in every kind of run that reads the
/// index (a file with its context, a check of the whole project).
#[cfg(unix)]
#[test]
fn a_cache_index_that_is_a_pipe_or_a_device_is_not_read() {
    let dir = TempDir::new("cache-index");
    std::fs::write(dir.0.join(".flinklint.yaml"), "catalog: auto\n").unwrap();
    std::fs::write(
        dir.0.join("a.sql"),
        "CREATE TABLE t (a INT) WITH ('connector' = 'blackhole');\n",
    )
    .unwrap();
    std::fs::write(dir.0.join("b.sql"), "INSERT INTO t SELECT b FROM t;\n").unwrap();
    let cache = dir.0.join(".flinklint_cache");
    let index = cache.join("context-index");
    for kind in ["pipe", "zero"] {
        for args in [
            &["check", "--format", "json", "b.sql"][..],
            &["check", "--format", "json", "."],
        ] {
            // Made again for each run: a run that writes the cache replaces it.
            let _ = std::fs::remove_dir_all(&cache);
            std::fs::create_dir_all(&cache).unwrap();
            match kind {
                "pipe" if !mkfifo(&index) => return,
                "pipe" => {}
                _ => symlink("/dev/zero", &index),
            }
            let out = run(&dir.0, args, None);
            assert_eq!(
                out.status.code(),
                Some(1),
                "{kind} {args:?}: {}",
                text(&out.stderr)
            );
            // The context was read: the column is not in the table that a.sql creates.
            let found = findings(&out);
            assert!(
                found
                    .iter()
                    .any(|f| f.0 == "QV001" && f.1.contains("column `b` not found")),
                "{kind} {args:?}: {found:?}"
            );
        }
    }
}
