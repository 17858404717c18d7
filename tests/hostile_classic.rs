//! The classic hostile inputs, through the real binary: odd file contents (empty, only
//! comments, megabytes of `(`, a hundred thousand statements, NUL bytes, invalid UTF-8, CR line
//! ends, a byte-order mark, unterminated quotes and comments, 50 MB, 100,000-deep nesting) and
//! odd file systems (a FIFO and a `/dev/zero` link among the walked files, symbolic-link loops,
//! a folder named `x.sql`, file names with spaces, newlines and bytes that are not UTF-8, 20,000
//! files). Each run must end by itself with the documented exit code (0 clean, 1 findings,
//! 2 a usage error), within a generous time, and print a bounded amount.
//!
//! `tests/hostile.rs` holds the library-level checks of the same kind (the findings' codes and
//! messages); these check what a user sees: the process.

use crate::common::{isolated_command, TempDir};
use std::ffi::OsStr;
use std::io::Read;
use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

/// How long any one run may take: generous, for a loaded 2-core machine running the rest of
/// the tests beside it. A run that takes longer is a hang.
const TIME_LIMIT: Duration = Duration::from_secs(180);

/// What a run printed (standard output up to [`KEPT`] bytes; its full length counted) and how
/// it ended.
struct Run {
    code: Option<i32>,
    stdout: String,
    stdout_len: usize,
    stderr: String,
}

/// Bytes of each stream kept for the assertions' messages.
const KEPT: usize = 1 << 20;

/// Reads a stream to its end, keeping the first [`KEPT`] bytes and counting the rest.
fn drain(mut stream: impl Read + Send + 'static) -> std::thread::JoinHandle<(Vec<u8>, usize)> {
    std::thread::spawn(move || {
        let mut kept = Vec::new();
        let mut total = 0;
        let mut buf = vec![0u8; 1 << 16];
        loop {
            match stream.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    total += n;
                    let room = KEPT.saturating_sub(kept.len()).min(n);
                    kept.extend_from_slice(&buf[..room]);
                }
            }
        }
        (kept, total)
    })
}

/// Waits for `child` at most [`TIME_LIMIT`]; kills it (and fails) when it takes longer.
fn wait(mut child: Child, what: &str) -> (Option<i32>, Duration) {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait for flinklint") {
            return (status.code(), start.elapsed());
        }
        if start.elapsed() > TIME_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: still running after {TIME_LIMIT:?}, killed");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Runs `flinklint args` in `dir` (standard input closed, no colour).
fn flinklint(dir: &Path, args: &[&OsStr]) -> Run {
    let what = format!("flinklint {args:?}");
    let mut child = isolated_command(env!("CARGO_BIN_EXE_flinklint"), dir)
        .args(args)
        .env("NO_COLOR", "1")
        .env_remove("GITHUB_ACTIONS")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run flinklint");
    let out = drain(child.stdout.take().expect("stdout"));
    let err = drain(child.stderr.take().expect("stderr"));
    let (code, elapsed) = wait(child, &what);
    let (stdout, stdout_len) = out.join().expect("read stdout");
    let (stderr, _) = err.join().expect("read stderr");
    // The figures, for `cargo test -- --nocapture`.
    let shown: Vec<String> = args
        .iter()
        .map(|a| a.to_string_lossy().chars().take(40).collect())
        .collect();
    println!(
        "flinklint {}: exit {code:?} in {elapsed:.2?}, {stdout_len} bytes of output",
        shown.join(" ")
    );
    Run {
        code,
        stdout: String::from_utf8_lossy(&stdout).into_owned(),
        stdout_len,
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
    }
}

/// `flinklint check ARGS` in `dir`, in the `concise` format unless `args` names one.
fn check(dir: &Path, args: &[&str]) -> Run {
    let mut all: Vec<&OsStr> = vec![OsStr::new("check")];
    if !args.contains(&"--format") {
        all.extend([OsStr::new("--format"), OsStr::new("concise")]);
    }
    all.extend(args.iter().map(OsStr::new));
    flinklint(dir, &all)
}

impl Run {
    /// Asserts the exit code and that standard output is at most `max_output` bytes.
    fn expect(&self, code: i32, max_output: usize) -> &Run {
        assert_eq!(
            self.code,
            Some(code),
            "exit code {:?}, expected {code}\nstdout: {}\nstderr: {}",
            self.code,
            self.head(),
            self.stderr
        );
        assert!(
            self.stdout_len <= max_output,
            "{} bytes of output, at most {max_output} expected: {}",
            self.stdout_len,
            self.head()
        );
        assert!(
            self.stderr.len() <= 64 * 1024,
            "{} bytes on standard error",
            self.stderr.len()
        );
        self
    }
    /// Asserts that the output mentions `needle`.
    fn says(&self, needle: &str) -> &Run {
        assert!(
            self.stdout.contains(needle),
            "`{needle}` not in the output: {}\nstderr: {}",
            self.head(),
            self.stderr
        );
        self
    }
    /// The start of standard output, for messages.
    fn head(&self) -> &str {
        let mut end = self.stdout.len().min(2000);
        while !self.stdout.is_char_boundary(end) {
            end -= 1;
        }
        &self.stdout[..end]
    }
}

/// A folder holding one file `name` with `bytes`.
fn folder_with(test: &str, name: &str, bytes: &[u8]) -> TempDir {
    let dir = TempDir::new(test);
    std::fs::write(dir.0.join(name), bytes).expect("write the input");
    dir
}

/// A clean table and an insert into it, for runs that should find nothing.
const CLEAN: &str = "CREATE TABLE src (a INT, b STRING) WITH ('connector' = 'datagen');\n\
                     CREATE TABLE sink (a INT, b STRING) WITH ('connector' = 'blackhole');\n";

#[test]
fn empty_and_comment_only_files() {
    let dir = folder_with("classic-empty", "empty.sql", b"");
    check(&dir.0, &["empty.sql"])
        .expect(0, 1024)
        .says("No problems found");
    check(&dir.0, &["--format", "human", "empty.sql"]).expect(0, 1024);
    let dir = folder_with(
        "classic-comments",
        "comments.sql",
        b"-- a comment\n/* a block\n   over lines */\n-- and a last one without a newline",
    );
    check(&dir.0, &["comments.sql"])
        .expect(0, 1024)
        .says("No problems found");
}

#[test]
fn ten_megabytes_of_open_parentheses() {
    let text = format!("SELECT {}", "(".repeat(10 << 20));
    let dir = folder_with("classic-parens", "parens.sql", text.as_bytes());
    // Past the parser's nesting limit: an info (flinklint did not analyse it), exit 0.
    check(&dir.0, &["parens.sql"])
        .expect(0, 64 * 1024)
        .says("SY001");
}

#[test]
fn ten_megabytes_of_open_parentheses_in_the_human_format() {
    let text = format!("SELECT {}", "(".repeat(10 << 20));
    let dir = folder_with("classic-parens-human", "parens.sql", text.as_bytes());
    check(&dir.0, &["--format", "human", "parens.sql"])
        .expect(0, 256 * 1024)
        .says("SY001");
}

#[test]
fn a_hundred_thousand_deep_nesting() {
    let depth = 100_000;
    for (name, text) in [
        (
            "parens.sql",
            format!("SELECT {}1{};", "(".repeat(depth), ")".repeat(depth)),
        ),
        (
            "casts.sql",
            format!(
                "SELECT {}1{};",
                "CAST(".repeat(depth),
                " AS INT)".repeat(depth)
            ),
        ),
        (
            "subqueries.sql",
            format!(
                "SELECT * FROM {}src{};",
                "(SELECT * FROM ".repeat(depth),
                ")".repeat(depth)
            ),
        ),
        (
            "types.sql",
            format!(
                "CREATE TABLE t (a {}INT{});",
                "ARRAY<".repeat(depth),
                ">".repeat(depth)
            ),
        ),
    ] {
        let dir = folder_with("classic-deep", name, text.as_bytes());
        check(&dir.0, &[name])
            .expect(0, 64 * 1024)
            .says("nesting deeper");
    }
}

#[test]
fn a_hundred_thousand_statements() {
    let text = format!(
        "{CLEAN}{}",
        "INSERT INTO sink SELECT a, b FROM src WHERE a > 1;\n".repeat(100_000)
    );
    let dir = folder_with("classic-statements", "many.sql", text.as_bytes());
    check(&dir.0, &["many.sql"])
        .expect(0, 1024)
        .says("No problems found");
    // With a finding in every statement: reported, and the output grows linearly.
    let text = format!("{CLEAN}{}", "SELECT \"a\" FROM src;\n".repeat(100_000));
    let dir = folder_with("classic-statements-findings", "many.sql", text.as_bytes());
    let run = check(&dir.0, &["many.sql"]);
    run.expect(1, 200 * text.len()).says("SY003");
}

#[test]
fn a_fifty_megabyte_file() {
    let statement = "INSERT INTO sink SELECT a, b FROM src WHERE a > 1 AND b <> 'x';\n";
    let text = format!("{CLEAN}{}", statement.repeat((50 << 20) / statement.len()));
    assert!(text.len() >= 50 << 20);
    let dir = folder_with("classic-50mb", "big.sql", text.as_bytes());
    check(&dir.0, &["big.sql"])
        .expect(0, 1024)
        .says("No problems found");
}

#[test]
fn nul_bytes() {
    let dir = folder_with("classic-nul", "nul.sql", b"SELECT 1;\0\nSELECT\0 2;\0");
    check(&dir.0, &["nul.sql"])
        .expect(1, 64 * 1024)
        .says("SY001");
    check(&dir.0, &["--format", "human", "nul.sql"]).expect(1, 64 * 1024);
}

#[test]
fn invalid_utf8_is_reported_and_the_other_files_are_checked() {
    let dir = TempDir::new("classic-utf8");
    std::fs::write(dir.0.join("a_latin1.sql"), b"SELECT 'caf\xe9';\n").unwrap();
    std::fs::write(dir.0.join("b_truncated.sql"), b"SELECT '\xe2\x82';\n").unwrap();
    std::fs::write(dir.0.join("c_good.sql"), b"SELECT \"x\";\n").unwrap();
    let run = check(&dir.0, &["."]);
    run.expect(1, 64 * 1024).says("SY000").says("SY003");
    assert_eq!(run.stdout.matches("SY000").count(), 2, "{}", run.stdout);
}

#[test]
fn crlf_and_lone_cr_line_ends() {
    let crlf = CLEAN.replace('\n', "\r\n") + "INSERT INTO sink SELECT a, b FROM src;\r\n";
    let cr = CLEAN.replace('\n', "\r") + "INSERT INTO sink SELECT a, b FROM src;\r";
    let dir = TempDir::new("classic-cr");
    std::fs::write(dir.0.join("crlf.sql"), &crlf).unwrap();
    std::fs::write(dir.0.join("cr.sql"), &cr).unwrap();
    check(&dir.0, &["crlf.sql"])
        .expect(0, 1024)
        .says("No problems found");
    check(&dir.0, &["cr.sql"])
        .expect(0, 1024)
        .says("No problems found");
    // A finding on a later line: its line is counted across the CRs.
    std::fs::write(
        dir.0.join("cr_finding.sql"),
        "SELECT 1;\rSELECT 2;\rSELECT \"x\";\r",
    )
    .unwrap();
    check(&dir.0, &["cr_finding.sql"])
        .expect(1, 64 * 1024)
        .says("SY003");
    check(&dir.0, &["--format", "human", "cr_finding.sql"]).expect(1, 64 * 1024);
}

#[test]
fn byte_order_mark() {
    let dir = folder_with("classic-bom", "bom.sql", "\u{FEFF}SELECT 1;\r\n".as_bytes());
    check(&dir.0, &["bom.sql"])
        .expect(1, 64 * 1024)
        .says("SY001");
    check(&dir.0, &["--format", "human", "bom.sql"]).expect(1, 64 * 1024);
}

#[test]
fn unterminated_string_comment_and_backtick_at_the_end() {
    for (name, text, says) in [
        ("string.sql", "SELECT 'abc", "unterminated string"),
        (
            "comment.sql",
            "SELECT 1; /* never closed",
            "unterminated block comment",
        ),
        ("backtick.sql", "SELECT `abc", "unterminated quoted name"),
        (
            "hint.sql",
            "SELECT /*+ OPTIONS('a' = 'b') * FROM t",
            "unterminated",
        ),
        ("double.sql", "SELECT \"abc", "SY00"),
    ] {
        let dir = folder_with("classic-unterminated", name, text.as_bytes());
        check(&dir.0, &[name]).expect(1, 64 * 1024).says(says);
        check(&dir.0, &["--format", "human", name]).expect(1, 64 * 1024);
    }
}

/// Makes a FIFO at `path` with mkfifo(1) (the crate has no unsafe code, and std cannot).
fn mkfifo(path: &Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("run mkfifo");
    assert!(status.success(), "mkfifo {}", path.display());
}

#[test]
fn a_fifo_among_the_walked_files_is_not_read() {
    let dir = folder_with("classic-fifo", "good.sql", CLEAN.as_bytes());
    mkfifo(&dir.0.join("x.sql"));
    // Nothing writes to the FIFO: reading it would wait forever.
    check(&dir.0, &["."])
        .expect(0, 1024)
        .says("No problems found");
}

#[test]
fn a_fifo_named_on_the_command_line_does_not_hang() {
    let dir = folder_with("classic-fifo-arg", "good.sql", CLEAN.as_bytes());
    mkfifo(&dir.0.join("x.sql"));
    let run = check(&dir.0, &["x.sql", "good.sql"]);
    assert!(matches!(run.code, Some(0..=2)), "{:?}", run.code);
}

#[test]
fn a_link_to_dev_zero_among_the_walked_files_is_not_read() {
    let dir = folder_with("classic-zero", "good.sql", CLEAN.as_bytes());
    std::os::unix::fs::symlink("/dev/zero", dir.0.join("x.sql")).unwrap();
    check(&dir.0, &["."])
        .expect(0, 1024)
        .says("No problems found");
}

#[test]
fn a_link_to_dev_zero_named_on_the_command_line_does_not_hang() {
    let dir = folder_with("classic-zero-arg", "good.sql", CLEAN.as_bytes());
    std::os::unix::fs::symlink("/dev/zero", dir.0.join("x.sql")).unwrap();
    let run = check(&dir.0, &["x.sql", "good.sql"]);
    assert!(matches!(run.code, Some(0..=2)), "{:?}", run.code);
    assert!(run.stdout_len <= 64 * 1024);
}

#[test]
fn symbolic_link_loops() {
    let dir = folder_with("classic-loops", "good.sql", CLEAN.as_bytes());
    std::fs::create_dir(dir.0.join("sub")).unwrap();
    std::fs::write(dir.0.join("sub/inner.sql"), CLEAN).unwrap();
    // A folder that links back to its parent, a link to itself, and two links to each other.
    std::os::unix::fs::symlink("..", dir.0.join("sub/up")).unwrap();
    std::os::unix::fs::symlink("self.sql", dir.0.join("self.sql")).unwrap();
    std::os::unix::fs::symlink("b.sql", dir.0.join("a.sql")).unwrap();
    std::os::unix::fs::symlink("a.sql", dir.0.join("b.sql")).unwrap();
    let run = check(&dir.0, &["."]);
    run.expect(0, 1024).says("No problems found");
    // Named on the command line, a loop cannot be read: a finding, not a crash.
    let run = check(&dir.0, &["self.sql", "good.sql"]);
    assert!(matches!(run.code, Some(1 | 2)), "{:?}", run.code);
    assert!(run.stdout_len + run.stderr.len() <= 64 * 1024);
}

#[test]
fn a_folder_named_like_a_sql_file() {
    let dir = TempDir::new("classic-folder-sql");
    std::fs::create_dir(dir.0.join("x.sql")).unwrap();
    std::fs::write(dir.0.join("x.sql/inner.sql"), "SELECT \"x\";\n").unwrap();
    std::fs::write(dir.0.join("good.sql"), CLEAN).unwrap();
    // Walked: the folder's files are checked, the folder itself is not read as a file.
    check(&dir.0, &["."]).expect(1, 64 * 1024).says("inner.sql");
    // Named: the same.
    check(&dir.0, &["x.sql"])
        .expect(1, 64 * 1024)
        .says("inner.sql");
}

#[test]
fn file_names_with_spaces_newlines_and_bytes_that_are_not_utf8() {
    use std::os::unix::ffi::OsStrExt;
    let dir = TempDir::new("classic-names");
    let names: [&[u8]; 4] = [
        b"with space.sql",
        b"with\nnewline.sql",
        b"latin1-caf\xe9.sql",
        b"--format.sql",
    ];
    for name in names {
        std::fs::write(dir.0.join(OsStr::from_bytes(name)), "SELECT \"x\";\n").unwrap();
    }
    for format in [
        "concise", "human", "json", "sarif", "github", "gitlab", "junit",
    ] {
        let run = check(&dir.0, &["--format", format, "."]);
        run.expect(1, 64 * 1024);
        // SARIF's locations are URIs, where a space is `%20`.
        let spaced = if format == "sarif" {
            "with%20space.sql"
        } else {
            "with space.sql"
        };
        assert!(run.stdout.contains(spaced), "{format}: {}", run.stdout);
        assert!(run.stdout.contains("caf"), "{format}: {}", run.stdout);
        if matches!(format, "json" | "sarif" | "gitlab") {
            let value: serde_json::Value = serde_json::from_str(&run.stdout)
                .unwrap_or_else(|e| panic!("{format}: not JSON ({e}): {}", run.stdout));
            let text = value.to_string();
            assert!(text.matches("SY003").count() >= 4, "{format}: {text}");
        }
        assert_well_formed(format, &run.stdout);
    }
    // Each named on the command line.
    let mut args: Vec<&OsStr> = ["check", "--format", "concise", "--"]
        .map(OsStr::new)
        .to_vec();
    args.extend(names.iter().map(|n| OsStr::from_bytes(n)));
    let run = flinklint(&dir.0, &args);
    run.expect(1, 64 * 1024);
    assert_eq!(run.stdout.matches("SY003").count(), 4, "{}", run.stdout);
}

/// The checks a format's output passes whatever the file names: a GitHub workflow command per
/// line (a newline in a name must not start a line of its own), well-formed JUnit XML.
fn assert_well_formed(format: &str, stdout: &str) {
    match format {
        "github" => {
            // The last line is the human summary (documented for `--format github`).
            let lines: Vec<&str> = stdout.lines().filter(|l| !l.is_empty()).collect();
            let commands = &lines[..lines.len().saturating_sub(1)];
            for line in commands {
                assert!(
                    line.starts_with("::"),
                    "a line that is no command: {line:?}"
                );
            }
        }
        "junit" => {
            if let Err(e) = roxmltree::Document::parse(stdout) {
                panic!("junit: not XML ({e}): {stdout}");
            }
        }
        _ => {}
    }
}

#[test]
fn control_characters_in_file_names() {
    use std::os::unix::ffi::OsStrExt;
    let dir = TempDir::new("classic-control-names");
    // An escape sequence that would turn a terminal's text red, a bell, a carriage return.
    for name in [
        &b"esc\x1b[31mred.sql"[..],
        b"bell\x07.sql",
        b"cr
return.sql",
    ] {
        std::fs::write(dir.0.join(OsStr::from_bytes(name)), "SELECT \"x\";\n").unwrap();
    }
    for format in [
        "concise", "human", "json", "sarif", "github", "gitlab", "junit",
    ] {
        let run = check(&dir.0, &["--format", format, "."]);
        run.expect(1, 64 * 1024);
        // What names one finding's code: the human format names it twice (its header and its
        // docs line), SARIF also describes the rule once.
        let (pattern, per_finding) = match format {
            "human" => ("SY003", 2),
            "sarif" => ("\"ruleId\": \"SY003\"", 1),
            "gitlab" => ("\"check_name\": \"SY003\"", 1),
            _ => ("SY003", 1),
        };
        assert_eq!(
            run.stdout.matches(pattern).count(),
            3 * per_finding,
            "{format}: {}",
            run.stdout
        );
        assert!(
            !run.stdout.contains(['\x1b', '\x07', '\r']),
            "{format}: a control character of a file name printed raw: {:?}",
            run.stdout
        );
        assert_well_formed(format, &run.stdout);
    }
}

#[test]
fn twenty_thousand_files_in_a_folder() {
    let dir = TempDir::new("classic-many-files");
    for i in 0..20_000 {
        let text = if i % 1000 == 0 {
            "SELECT \"x\";\n".to_string()
        } else {
            format!("CREATE TEMPORARY VIEW v{i} AS SELECT {i} AS n;\n")
        };
        std::fs::write(dir.0.join(format!("f{i:05}.sql")), text).unwrap();
    }
    let run = check(&dir.0, &["."]);
    run.expect(1, 64 * 1024)
        .says("f00000.sql")
        .says("f19000.sql");
    assert_eq!(run.stdout.matches("SY003").count(), 20, "{}", run.head());
}
