//! What the binary writes: no control character of the input reaches a terminal raw (expand,
//! parse, clap's argument errors), the JSON formats escape the C1, bidirectional and separator
//! characters as `\uXXXX` with the same values, a report that cannot be written is an error
//! (a full disk, a named pipe as `--output-file`) and a closed pipe is not, a `--history-dir`
//! that is not a folder is a usage error, a walk never enters `/proc`.
//!
//! The binary is run with a generous deadline: a run that hangs fails its test instead of
//! hanging the suite.

use crate::common::TempDir;
use std::ffi::OsString;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Far above what any of these runs takes (milliseconds), far below a hang.
const DEADLINE: Duration = Duration::from_secs(60);

/// The characters no output may carry raw: ESC, BEL, CSI (C1), a bidirectional override and
/// isolate, the line separator, a carriage return.
const HOSTILE: &str = "\u{1b}]0;PWN\u{7}\u{1b}[31m\u{9b}\u{202e}\u{2066}\u{2028}";

fn raw_controls(bytes: &[u8]) -> Vec<char> {
    String::from_utf8_lossy(bytes)
        .chars()
        .filter(|&c| c != '\n' && flinklint::source::escape::is_unsafe(c))
        .collect()
}

/// Runs the binary in `dir` with `args`, standard output to `stdout` (`None`: a pipe that is
/// read), and returns its output; fails the test when it runs past [`DEADLINE`].
fn run_to(dir: &Path, args: &[OsString], stdout: Option<Stdio>) -> Output {
    let piped = stdout.is_none();
    let mut child = crate::common::isolated_command(env!("CARGO_BIN_EXE_flinklint"), dir)
        .args(args)
        .env("NO_COLOR", "1")
        .env_remove("GITHUB_ACTIONS")
        .stdin(Stdio::null())
        .stdout(stdout.unwrap_or_else(Stdio::piped))
        .stderr(Stdio::piped())
        .spawn()
        .expect("run flinklint");
    let out = child.stdout.take().map(|mut stdout| {
        std::thread::spawn(move || {
            let mut b = Vec::new();
            let _ = std::io::Read::read_to_end(&mut stdout, &mut b);
            b
        })
    });
    let mut stderr = child.stderr.take().unwrap();
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
    assert!(piped || out.is_none());
    Output {
        status,
        stdout: out.map(|t| t.join().unwrap()).unwrap_or_default(),
        stderr: err.join().unwrap(),
    }
}

fn run(dir: &Path, args: &[&str]) -> Output {
    let args: Vec<OsString> = args.iter().map(OsString::from).collect();
    run_to(dir, &args, None)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A folder with `a.sql`: a table whose name, column comment and option carry [`HOSTILE`].
fn hostile_table(name: &str) -> TempDir {
    let dir = TempDir::new(name);
    let e = HOSTILE;
    std::fs::write(
        dir.0.join("a.sql"),
        format!(
            "CREATE TABLE `t{e}` (a INT COMMENT '{e}') WITH ('connector'='datagen','k{e}'='{e}');\n\
             CREATE TABLE `u{e}` WITH ('k2'='v') LIKE `t{e}`;\n"
        ),
    )
    .unwrap();
    dir
}

#[test]
fn expand_reports_and_messages_escape_what_they_quote() {
    let dir = hostile_table("outsafe-expand");
    let t = format!("`t{HOSTILE}`");
    let u = format!("`u{HOSTILE}`");
    // Reports for people: the --describe table and --explain-like, escaped into a pipe too.
    for args in [
        vec!["expand", ".", "--table", &t, "--describe"],
        vec!["expand", ".", "--explain-like"],
    ] {
        let out = run(&dir.0, &args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert_eq!(raw_controls(&out.stdout), Vec::<char>::new(), "{args:?}");
        assert!(text(&out.stdout).contains("\\u{9b}"), "{args:?}");
    }
    // Messages quote the --table value as given: escaped.
    for table in [
        format!("missing{HOSTILE}"),
        format!("`a{HOSTILE}"),
        format!("a.b.c.d{HOSTILE}"),
    ] {
        let out = run(&dir.0, &["expand", ".", "--table", &table]);
        assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
        assert_eq!(raw_controls(&out.stderr), Vec::<char>::new());
        assert!(
            text(&out.stderr).contains("\\u{1b}"),
            "{}",
            text(&out.stderr)
        );
    }
    let out = run(&dir.0, &["expand", ".", "--table", &t, "--diff"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(raw_controls(&out.stderr), Vec::<char>::new());
    // The SQL itself goes verbatim into a pipe or a file: it is the table's definition, to
    // keep or to run (a terminal gets it escaped, see the next test).
    for args in [
        vec!["expand", ".", "--table", &t],
        vec!["expand", ".", "--table", &u, "--diff"],
        vec!["expand", ".", "--table", &t, "--diff-declared"],
        vec!["expand", ".", "--table", &t, "--history"],
    ] {
        let out = run(&dir.0, &args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(text(&out.stdout).contains(HOSTILE), "{args:?}");
    }
}

/// Runs `flinklint ARGS` under a pseudo-terminal (util-linux `script`), and returns what the
/// terminal received; `None` where `script` is missing.
fn on_terminal(dir: &Path, args: &str) -> Option<Vec<u8>> {
    let probe = Command::new("script").arg("--version").output();
    if !probe.is_ok_and(|o| o.status.success()) {
        eprintln!("script is not available: terminal cases skipped");
        return None;
    }
    let command = format!("{} {args}", env!("CARGO_BIN_EXE_flinklint"));
    let out = crate::common::isolated_command("script", dir)
        .args(["-qec", &command, "/dev/null"])
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .expect("run script");
    Some(out.stdout)
}

#[test]
fn expand_escapes_every_output_on_a_terminal() {
    let dir = hostile_table("outsafe-expand-tty");
    // The name through the shell: `script` runs its command with `sh -c`.
    std::fs::write(dir.0.join("name"), format!("`t{HOSTILE}`")).unwrap();
    std::fs::write(dir.0.join("child"), format!("`u{HOSTILE}`")).unwrap();
    for extra in [
        "",
        " --describe",
        " --diff-declared",
        " --history",
        " --explain-like",
    ] {
        let Some(shown) = on_terminal(&dir.0, &format!("expand . --table \"$(cat name)\"{extra}"))
        else {
            return;
        };
        // The terminal's own line ends are CR LF.
        let shown: Vec<u8> = shown.into_iter().filter(|&b| b != b'\r').collect();
        assert_eq!(
            raw_controls(&shown),
            Vec::<char>::new(),
            "{extra}: {}",
            text(&shown)
        );
        assert!(
            text(&shown).contains("\\u{9b}"),
            "{extra}: {}",
            text(&shown)
        );
    }
    let shown = on_terminal(&dir.0, "expand . --table \"$(cat child)\" --diff").unwrap();
    let shown: Vec<u8> = shown.into_iter().filter(|&b| b != b'\r').collect();
    assert_eq!(raw_controls(&shown), Vec::<char>::new(), "{}", text(&shown));
}

/// `check --fix --diff` shows the files' text: escaped on a terminal, verbatim into a pipe
/// (a patch to apply).
#[test]
fn fix_diffs_are_escaped_on_a_terminal() {
    let dir = TempDir::new("outsafe-fix-diff");
    // A `#` comment is fixed into `--` (a safe fix): the diff shows the hostile line.
    std::fs::write(
        dir.0.join("a.sql"),
        format!("# note {HOSTILE}\nSELECT 1;\n"),
    )
    .unwrap();
    let out = run(&dir.0, &["check", "--fix", "--diff", "a.sql"]);
    assert!(text(&out.stdout).contains(HOSTILE), "{}", text(&out.stdout));
    let Some(shown) = on_terminal(&dir.0, "check --fix --diff a.sql") else {
        return;
    };
    let shown: Vec<u8> = shown.into_iter().filter(|&b| b != b'\r').collect();
    assert_eq!(raw_controls(&shown), Vec::<char>::new(), "{}", text(&shown));
    assert!(text(&shown).contains("-- note"), "{}", text(&shown));
}

#[test]
fn parse_writes_no_control_character() {
    let dir = TempDir::new("outsafe-parse");
    std::fs::write(
        dir.0.join("a.sql"),
        format!("SELECT '{HOSTILE}' AS `c{HOSTILE}`;\n"),
    )
    .unwrap();
    for dump in ["ast", "tokens"] {
        let out = run(&dir.0, &["parse", "a.sql", "--dump", dump]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        assert_eq!(raw_controls(&out.stdout), Vec::<char>::new(), "{dump}");
        if dump == "ast" {
            // Still JSON, with the same values.
            let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            assert!(json.to_string().contains(HOSTILE) || text(&out.stdout).contains("\\u009b"));
        }
    }
}

/// Every string of a JSON value, recursively.
fn strings(value: &serde_json::Value, out: &mut Vec<String>) {
    match value {
        serde_json::Value::String(s) => out.push(s.clone()),
        serde_json::Value::Array(a) => a.iter().for_each(|v| strings(v, out)),
        serde_json::Value::Object(o) => o.values().for_each(|v| strings(v, out)),
        _ => {}
    }
}

#[test]
fn json_formats_escape_c1_bidi_and_separators_and_keep_the_values() {
    let dir = TempDir::new("outsafe-json");
    let evil = "\u{9b}\u{85}\u{202e}\u{2067}\u{2028}\u{2029}";
    let name = format!("a{evil}.sql");
    // SY003's fix turns the double-quoted name into a backticked one: the replacement holds
    // the characters too.
    std::fs::write(dir.0.join(&name), format!("SELECT \"x{evil}\" FROM t;\n")).unwrap();
    for format in ["json", "gitlab", "sarif"] {
        let out = run(&dir.0, &["check", ".", "--format", format]);
        assert_eq!(
            out.status.code(),
            Some(1),
            "{format}: {}",
            text(&out.stderr)
        );
        assert_eq!(raw_controls(&out.stdout), Vec::<char>::new(), "{format}");
        assert!(text(&out.stdout).contains("\\u009b"), "{format}");
        let json: serde_json::Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{format}: {e}: {}", text(&out.stdout)));
        let mut all = Vec::new();
        strings(&json, &mut all);
        // The values are the file's name (SARIF: a URI, percent-encoded) and the fix's text, as
        // they are.
        let file = match format {
            "sarif" => "a%C2%9B%C2%85%E2%80%AE%E2%81%A7%E2%80%A8%E2%80%A9.sql".to_string(),
            _ => name.clone(),
        };
        assert!(all.iter().any(|s| s.contains(&file)), "{format}: {all:?}");
        if format != "gitlab" {
            assert!(
                all.iter().any(|s| s.contains(&format!("`x{evil}`"))),
                "{format}: {all:?}"
            );
        }
    }
    // The baseline entries that no longer occur, in the JSON report.
    let out = run(&dir.0, &["check", ".", "--write-baseline", "b.json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let baseline = std::fs::read(dir.0.join("b.json")).unwrap();
    assert_eq!(raw_controls(&baseline), Vec::<char>::new());
    std::fs::write(dir.0.join(&name), "SELECT 1;\n").unwrap();
    let out = run(
        &dir.0,
        &["check", ".", "--format", "json", "--baseline", "b.json"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(raw_controls(&out.stdout), Vec::<char>::new());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["baseline"]["gone"][0]["file"], name.as_str());
}

#[test]
fn clap_errors_escape_the_rejected_value() {
    let dir = TempDir::new("outsafe-clap");
    let bad = "x\u{9b}\r\u{1b}[2J";
    for args in [
        vec!["check", "--target", bad],
        vec!["check", "--format", bad],
        vec!["check", "--fail-on", bad],
        vec!["check", "--max-findings", bad],
        vec!["completions", bad],
        vec![bad],
    ] {
        let out = run(&dir.0, &args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(raw_controls(&out.stderr), Vec::<char>::new(), "{args:?}");
        // (clap itself drops the escape sequence `ESC [2J` from the text it quotes.)
        assert!(
            text(&out.stderr).contains("x\\u{9b}\\r"),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
    // --help is not an error.
    assert_eq!(run(&dir.0, &["--help"]).status.code(), Some(0));
}

#[cfg(unix)]
#[test]
fn output_file_refuses_a_named_pipe_and_a_socket() {
    let dir = TempDir::new("outsafe-fifo");
    std::fs::write(dir.0.join("x.sql"), "SELECT 1;\n").unwrap();
    let made = Command::new("mkfifo")
        .arg(dir.0.join("o"))
        .status()
        .is_ok_and(|s| s.success());
    if made {
        let out = run(&dir.0, &["check", "--output-file", "o", "x.sql"]);
        assert_eq!(out.status.code(), Some(2));
        assert!(
            text(&out.stderr).contains("named pipe, not a regular file"),
            "{}",
            text(&out.stderr)
        );
    }
    let _socket = std::os::unix::net::UnixListener::bind(dir.0.join("s")).unwrap();
    let out = run(&dir.0, &["check", "--output-file", "s", "x.sql"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("socket, not a regular file"));
    // A character device is written to; a regular file is created.
    let out = run(&dir.0, &["check", "--output-file", "/dev/null", "x.sql"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = run(&dir.0, &["check", "--output-file", "r.txt", "x.sql"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(std::fs::metadata(dir.0.join("r.txt")).unwrap().len() > 0);
}

#[cfg(target_os = "linux")]
#[test]
fn a_report_lost_on_a_full_disk_is_an_error_and_a_closed_pipe_is_not() {
    let dir = TempDir::new("outsafe-full");
    std::fs::write(dir.0.join("x.sql"), "SELECT 1;\n").unwrap();
    std::fs::write(dir.0.join("y.sql"), "SELECT \"a\" FROM t;\n".repeat(2000)).unwrap();
    let full = || {
        Stdio::from(
            std::fs::File::options()
                .write(true)
                .open("/dev/full")
                .unwrap(),
        )
    };
    for args in [
        vec!["check", "x.sql"],
        vec!["check", "y.sql", "--format", "json"],
        vec!["parse", "x.sql"],
        vec!["rules"],
        vec!["rule", "SY003"],
        vec!["completions", "bash"],
        vec!["expand", "--explain-like", "x.sql"],
    ] {
        let args_os: Vec<OsString> = args.iter().map(OsString::from).collect();
        let out = run_to(&dir.0, &args_os, Some(full()));
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(
            text(&out.stderr).contains("cannot write to standard output"),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
    // A reader that goes away at once: no message, no panic.
    let mut child = crate::common::isolated_command(env!("CARGO_BIN_EXE_flinklint"), &dir.0)
        .args(["check", "y.sql", "--max-findings", "all"])
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        !text(&out.stderr).contains("panicked"),
        "{}",
        text(&out.stderr)
    );
    assert!(
        !text(&out.stderr).contains("standard output"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_history_dir_that_is_not_a_folder_is_a_usage_error() {
    let dir = TempDir::new("outsafe-history");
    std::fs::write(dir.0.join("x.sql"), "SELECT 1;\n").unwrap();
    for (given, why) in [
        ("/does/not/exist", "no such folder"),
        ("x.sql", "it is not a folder"),
        ("/dev/zero", "it is not a folder"),
    ] {
        let out = run(&dir.0, &["check", "x.sql", "--history-dir", given]);
        assert_eq!(out.status.code(), Some(2), "{given}");
        assert!(
            text(&out.stderr).contains(&format!("--history-dir {given}: {why}")),
            "{given}: {}",
            text(&out.stderr)
        );
    }
    std::fs::create_dir(dir.0.join("h")).unwrap();
    let out = run(&dir.0, &["check", "x.sql", "--history-dir", "h"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[cfg(target_os = "linux")]
#[test]
fn a_walk_never_enters_proc_through_a_link() {
    let dir = TempDir::new("outsafe-proc");
    std::fs::write(dir.0.join("x.sql"), "SELECT 1;\n").unwrap();
    std::os::unix::fs::symlink("/proc", dir.0.join("p")).unwrap();
    std::os::unix::fs::symlink("/sys/kernel", dir.0.join("s")).unwrap();
    // Another link is followed.
    std::fs::create_dir(dir.0.join("shared")).unwrap();
    std::fs::write(dir.0.join("shared/y.sql"), "SELECT 2;\n").unwrap();
    std::os::unix::fs::symlink("shared", dir.0.join("linked")).unwrap();
    let out = run(&dir.0, &["check", ".", "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        json["files_checked"], 3,
        "x.sql, shared/y.sql, linked/y.sql"
    );
    let err = text(&out.stderr);
    assert!(err.contains("into /proc, a pseudo file system"), "{err}");
    assert!(err.contains("into /sys, a pseudo file system"), "{err}");
}
