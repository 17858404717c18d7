//! SQL in documents (`src/source/embedded.rs`): the ```` ```sql ```` blocks of Markdown and the
//! `code-block:: sql` directives of reStructuredText, checked as one script per document at the
//! document's own lines and columns; every output format names the document; fixes edit the
//! blocks in place (LF and CRLF) and nothing else; suppressions in the document's comments and
//! in the blocks; which documents a run reads (`extensions`, named files, standard input).

use crate::common;

use flinklint::config::Settings;
use flinklint::diagnostics::{Applicability, Diagnostic, Edit, Fix};
use flinklint::discover::Input;
use flinklint::fix::FixMode;
use flinklint::render;
use flinklint::source::Span;
use flinklint::Outcome;
use std::path::{Path, PathBuf};

/// The tutorial, relative to the repository root (the tests' working directory).
const TUTORIAL: &str = "fixtures/markdown/tutorial.md";
const GUIDE: &str = "fixtures/markdown/guide.rst";

fn check_files(paths: &[&str]) -> Outcome {
    let inputs: Vec<Input> = paths
        .iter()
        .map(|p| Input::File(PathBuf::from(p)))
        .collect();
    flinklint::check(&inputs, None, &Settings::default())
}

fn check_text(path: &str, text: &str) -> Outcome {
    flinklint::check_texts(
        &[(path.to_string(), text.to_string())],
        &Settings::default(),
    )
}

/// Each finding as `(code, line, column, flagged text)`.
fn found(outcome: &Outcome) -> Vec<(&'static str, u32, u32, String)> {
    outcome
        .diagnostics
        .iter()
        .map(|d| {
            let source = &outcome.files[d.file.0 as usize].source;
            let at = source.line_col(d.span.start);
            (d.code, at.line, at.column, source.slice(d.span).to_string())
        })
        .collect()
}

fn codes(outcome: &Outcome) -> Vec<&'static str> {
    outcome.diagnostics.iter().map(|d| d.code).collect()
}

#[test]
fn blocks_run_as_one_script_at_the_documents_positions() {
    let outcome = check_files(&[TUTORIAL]);
    assert_eq!(outcome.files_checked(), 1);
    let found = found(&outcome);
    assert_eq!(
        found,
        vec![
            // A block without a final `;`, followed by another block: its statement ends with
            // the block.
            ("TB001", 17, 3, "PRIMARY KEY (id)".to_string()),
            // In a list item, indented; `orders` and `big_orders` come from earlier blocks.
            ("SY002", 35, 72, "‘paid’".to_string()),
            // The suppression in the block silences `archive`, not `archive_2`.
            ("CT002", 43, 16, "archive_2".to_string()),
            // The block ends the statement: what the reader sees there is the closing fence.
            ("SY001", 56, 1, "`".to_string()),
        ]
    );
    let last = outcome.diagnostics.last().unwrap();
    assert_eq!(
        last.message,
        "expected a table name, found the end of the block"
    );
    // The MySQL block, the commented-out block and the suppressed SY003 say nothing.
}

#[test]
fn restructured_text_code_blocks() {
    let outcome = check_files(&[GUIDE]);
    assert_eq!(
        found(&outcome),
        vec![("TB001", 7, 33, "PRIMARY KEY (id)".to_string())]
    );
}

/// Every format, rendered as `flinklint check --format NAME` does (human without colour).
fn all_formats(outcome: &Outcome) -> Vec<(&'static str, String)> {
    let (files, diagnostics) = (&outcome.files, &outcome.diagnostics);
    let n = outcome.files_checked();
    let human = render::human::HumanOptions {
        color: false,
        width: 100,
    };
    vec![
        ("human", render::human::render(files, n, diagnostics, human)),
        ("concise", render::concise::render(files, n, diagnostics)),
        ("json", render::json::render(files, n, diagnostics)),
        ("sarif", render::sarif::render(files, diagnostics)),
        ("github", render::github::render(files, n, diagnostics)),
        ("gitlab", render::gitlab::render(files, diagnostics)),
        ("junit", render::junit::render(files, diagnostics)),
    ]
}

#[test]
fn every_format_shows_the_document_and_its_positions() {
    let root = common::root();
    let outcome = check_files(&[TUTORIAL]);
    let settings = common::snapshot_settings(&root.join("fixtures/markdown"));
    for (name, text) in all_formats(&outcome) {
        assert!(text.contains(TUTORIAL), "{name}: the document's path");
        // The SY002 finding at the document's line 35, column 72 (GitLab's report has lines
        // only).
        assert!(text.contains("35"), "{name}: the document's line");
        assert!(
            name == "gitlab" || text.contains("72"),
            "{name}: the document's column"
        );
        let text = text.replace(
            &format!("\"version\": \"{}\"", env!("CARGO_PKG_VERSION")),
            "\"version\": \"[flinklint version]\"",
        );
        settings.bind(|| insta::assert_snapshot!(format!("tutorial.{name}"), text));
    }
    let concise = all_formats(&outcome)
        .into_iter()
        .find(|(n, _)| *n == "concise")
        .unwrap()
        .1;
    assert!(concise.contains(&format!("{TUTORIAL}:35:72: SY002")));
}

/// The lines of `before` and `after` that differ, as pairs.
fn changed_lines<'a>(before: &'a str, after: &'a str) -> Vec<(&'a str, &'a str)> {
    let b: Vec<&str> = before.split('\n').collect();
    let a: Vec<&str> = after.split('\n').collect();
    assert_eq!(a.len(), b.len(), "fixes here change no line count");
    b.into_iter().zip(a).filter(|(x, y)| x != y).collect()
}

fn fix_text(path: &str, text: &str) -> (String, usize) {
    let outcome = check_text(path, text);
    let report = flinklint::fix::fix(outcome, &Settings::default(), FixMode::All);
    let fixed = report.outcome.files[0].source.text.to_string();
    (fixed, report.applied)
}

#[test]
fn fixes_edit_the_blocks_in_place_with_lf_and_crlf() {
    let text = std::fs::read_to_string(common::root().join(TUTORIAL)).unwrap();
    let (fixed, applied) = fix_text("tutorial.md", &text);
    assert_eq!(applied, 2);
    assert_eq!(
        changed_lines(&text, &fixed),
        vec![
            ("  PRIMARY KEY (id)", "  PRIMARY KEY (id) NOT ENFORCED"),
            (
                "   INSERT INTO big_orders SELECT id, amount FROM orders WHERE status = ‘paid’;",
                "   INSERT INTO big_orders SELECT id, amount FROM orders WHERE status = 'paid';"
            ),
        ]
    );
    // The same document with CRLF line breaks: the same fixes, the breaks kept.
    let crlf = text.replace('\n', "\r\n");
    let (fixed_crlf, applied) = fix_text("tutorial.md", &crlf);
    assert_eq!(applied, 2);
    assert_eq!(fixed_crlf, fixed.replace('\n', "\r\n"));
    // Fixed documents are read again through the same extraction: only what has no fix stays.
    assert_eq!(
        codes(&check_text("tutorial.md", &fixed)),
        ["CT002", "SY001"]
    );
}

#[test]
fn a_fix_never_touches_the_prose_or_the_fences() {
    let text = "Prose.\n\n```sql\nSELECT ‘a’;\n```\n";
    let mut outcome = check_text("a.md", text);
    assert_eq!(codes(&outcome), ["SY002"]);
    // Fixes a rule could make that reach outside the block: into the closing fence, into the
    // prose, or inserted at the start of the closing fence's line.
    let fence = text.rfind("```").unwrap();
    let outside = [
        Span::new(fence - 2, fence + 1),
        Span::new(0, 6),
        Span::new(fence, fence),
    ];
    let template = outcome.diagnostics[0].clone();
    for span in outside {
        outcome.diagnostics.push(Diagnostic {
            fix: Some(Fix {
                title: "reaches outside".to_string(),
                applicability: Applicability::Safe,
                edits: vec![Edit {
                    file: template.file,
                    span,
                    replacement: "X".to_string(),
                }],
            }),
            ..template.clone()
        });
    }
    let report = flinklint::fix::fix(outcome, &Settings::default(), FixMode::All);
    assert_eq!(report.applied, 1);
    assert_eq!(
        &*report.outcome.files[0].source.text,
        "Prose.\n\n```sql\nSELECT 'a';\n```\n"
    );
}

#[test]
fn suppressions_in_comments_and_in_blocks() {
    // A directive comment silences the whole next block (all its statements), only that one.
    let text = "<!-- flinklint: ignore SY003 -->\nProse between.\n```sql\nSELECT \"a\";\nSELECT \"b\";\n```\n```sql\nSELECT \"c\";\n```\n";
    let outcome = check_text("a.md", text);
    assert_eq!(found(&outcome), vec![("SY003", 8, 8, "\"c\"".to_string())]);
    // A `--` directive at the end of a block does not reach into the next block.
    let text = "```sql\nSELECT 1;\n-- flinklint: ignore SY003\n```\n```sql\nSELECT \"c\";\n```\n";
    assert_eq!(codes(&check_text("a.md", text)), ["SU001", "SY003"]);
    // ignore-file in a comment, by name; reStructuredText comments.
    let text =
        "<!--\n  flinklint: ignore-file double-quoted-literal\n-->\n```sql\nSELECT \"a\";\n```\n";
    assert!(codes(&check_text("a.md", text)).is_empty());
    let text = ".. flinklint: ignore SY003\n\n.. code-block:: sql\n\n   SELECT \"a\";\n";
    assert!(codes(&check_text("a.rst", text)).is_empty());
    // An unused directive comment: SU001, whose fix removes the comment's line or the code.
    let text = "Intro.\n\n<!-- flinklint: ignore TB001 -->\n```sql\nSELECT 1;\n```\n<!-- flinklint: ignore SY003, SY002 -- reason -->\n```sql\nSELECT \"x\";\n```\n";
    let outcome = check_text("a.md", text);
    assert_eq!(
        found(&outcome),
        vec![
            (
                "SU001",
                3,
                1,
                "<!-- flinklint: ignore TB001 -->".to_string()
            ),
            ("SU001", 7, 31, "SY002".to_string()),
        ]
    );
    assert!(outcome.diagnostics[0]
        .message
        .ends_with("in the block it applies to"));
    let (fixed, _) = fix_text("a.md", text);
    assert_eq!(
        fixed,
        "Intro.\n\n```sql\nSELECT 1;\n```\n<!-- flinklint: ignore SY003 -- reason -->\n```sql\nSELECT \"x\";\n```\n"
    );
}

#[test]
fn a_block_is_lexed_on_its_own() {
    // A string left open ends with its block: the next block is still read.
    let text = "```sql\nSELECT 'open;\n```\n\nIt's prose.\n\n```sql\nSELECT ‘b’;\n```\n";
    let outcome = check_text("a.md", text);
    assert_eq!(
        found(&outcome)
            .iter()
            .map(|(c, l, _, _)| (*c, *l))
            .collect::<Vec<_>>(),
        [("SY001", 2), ("SY002", 8)]
    );
    // Two statements in one block need their `;` as in a file; blocks do not.
    let text = "```sql\nSELECT 1\nSELECT 2\n```\n```sql\nSELECT 3\n```\n```sql\nSELECT 4\n```\n";
    assert_eq!(found(&check_text("a.md", text)).len(), 1);
    // A document without SQL blocks, or with other languages only, has nothing to check.
    let text = "# Title\n\n```mysql\nSELECT \"x\" FROM t\n```\n```\nSELECT ‘x’\n```\n";
    assert!(codes(&check_text("a.md", text)).is_empty());
    // The same text named `.sql` is SQL.
    assert!(!codes(&check_text("a.sql", "SELECT ‘x’")).is_empty());
}

#[test]
fn a_project_reads_documents_by_their_name() {
    let mut project = flinklint::Project::new(Settings::default());
    project.set_file(
        "jobs/orders.sql",
        "CREATE TABLE o (a INT) WITH ('connector' = 'datagen');",
    );
    project.set_file("docs/README.md", "```sql\nSELECT ‘a’;\n```\n");
    project.check();
    let codes: Vec<&str> = project
        .diagnostics(Path::new("docs/README.md"))
        .iter()
        .map(|d| d.code)
        .collect();
    assert_eq!(codes, ["SY002"]);
}

#[test]
fn documents_are_scripts_even_in_a_history() {
    // A README in a folder configured as a history is not a migration: its tables reach no
    // other file (in the strict session model, where scripts see only what they create and
    // what histories build).
    let settings = Settings {
        catalog: flinklint::config::CatalogMode::Session,
        histories: vec![flinklint::config::HistoryDir {
            location: flinklint::config::HistoryLocation::Dir(flinklint::config::glob::absolute(
                Path::new("catalog"),
            )),
            order: flinklint::config::HistoryOrder::Natural,
        }],
        ..Settings::default()
    };
    let outcome = flinklint::check_texts(
        &[
            (
                "catalog/V1__orders.sql".to_string(),
                "CREATE TABLE orders (a INT) WITH ('connector' = 'unchecked-test-connector');".to_string(),
            ),
            (
                "catalog/README.md".to_string(),
                "```sql\nCREATE TABLE extra (a INT) WITH ('connector' = 'datagen');\nINSERT INTO orders SELECT a FROM extra;\n```\n".to_string(),
            ),
            (
                "jobs/job.sql".to_string(),
                "INSERT INTO extra SELECT a FROM orders;".to_string(),
            ),
        ],
        &settings,
    );
    let found: Vec<(&str, &Path)> = outcome
        .diagnostics
        .iter()
        .map(|d| {
            (
                d.code,
                outcome.files[d.file.0 as usize].source.path.as_path(),
            )
        })
        .collect();
    assert_eq!(found, [("CT002", Path::new("jobs/job.sql"))]);
}

fn run(dir: &Path, args: &[&str], stdin: Option<&str>) -> (String, String, i32) {
    use std::io::Write;
    let mut cmd = common::isolated_command(env!("CARGO_BIN_EXE_flinklint"), dir);
    cmd.args(args)
        .env("NO_COLOR", "1")
        .env_remove("GITHUB_ACTIONS");
    cmd.stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut child = cmd.spawn().expect("run flinklint");
    if let Some(text) = stdin {
        child
            .stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
    } else {
        drop(child.stdin.take());
    }
    let out = child.wait_with_output().unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
fn which_documents_a_run_reads() {
    let tmp = common::TempDir::new("markdown-discover");
    let dir = &tmp.0;
    std::fs::create_dir_all(dir.join("docs")).unwrap();
    std::fs::write(dir.join("docs/guide.md"), "```sql\nSELECT ‘a’;\n```\n").unwrap();
    std::fs::write(dir.join("docs/other.md"), "No SQL here.\n").unwrap();
    // Not listed in `extensions`: not read, walked or named, and a run that finds nothing else
    // says so.
    // An empty run is an error (exit 2) that says why.
    let (out, err, code) = run(dir, &["check", "--format", "concise", "."], None);
    assert_eq!((out.trim(), code), ("", 2));
    assert!(
        err.contains("not checked: SQL blocks in docs/guide.md"),
        "{err}"
    );
    assert!(err.contains("extensions: [sql, md]"), "{err}");
    // Named one by one (as pre-commit passes staged Markdown files), documents the project
    // does not list are no mistake: a note, and success.
    let (out, err, code) = run(
        dir,
        &["check", "--format", "concise", "docs/guide.md"],
        None,
    );
    assert_eq!((out.trim(), code), ("No problems found in 0 files.", 0));
    assert!(err.contains("docs/guide.md"), "{err}");
    let (_, _, code) = run(
        dir,
        &[
            "check",
            "--force-exclude",
            "--format",
            "concise",
            "docs/other.md",
        ],
        None,
    );
    assert_eq!(code, 0);
    // Listed: walked and named.
    std::fs::write(dir.join(".flinklint.yaml"), "extensions: [sql, md]\n").unwrap();
    let (out, _, code) = run(dir, &["check", "--format", "concise", "."], None);
    assert_eq!(code, 1);
    assert!(out.contains("docs/guide.md:2:8: SY002"), "{out}");
    assert!(out.contains("in 2 files"), "{out}");
    let (out, _, _) = run(
        dir,
        &["check", "--format", "concise", "docs/guide.md"],
        None,
    );
    assert!(out.contains("docs/guide.md:2:8: SY002"), "{out}");
    // Standard input named like a document is a document, whatever `extensions` says.
    std::fs::remove_file(dir.join(".flinklint.yaml")).unwrap();
    let (out, _, code) = run(
        dir,
        &[
            "check",
            "--format",
            "concise",
            "--stdin-filename",
            "x.md",
            "-",
        ],
        Some("Prose ‘not SQL’.\n\n```sql\nSELECT ‘b’;\n```\n"),
    );
    assert_eq!(code, 1);
    assert_eq!(
        out.lines().next(),
        Some("x.md:4:8: SY002 [error] typographic quotes ‘b’: Flink SQL only accepts straight quotes")
    );
}

#[test]
fn fix_writes_the_document_back() {
    let tmp = common::TempDir::new("markdown-fix");
    let dir = &tmp.0;
    let text = "# Steps\r\n\r\n```sql\r\nSELECT ‘a’;\r\n```\r\nDon’t touch ‘this’.\r\n";
    std::fs::write(dir.join("a.md"), text).unwrap();
    std::fs::write(dir.join(".flinklint.yaml"), "extensions: [md]\n").unwrap();
    let (_, err, code) = run(dir, &["check", "--fix", "a.md"], None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.join("a.md")).unwrap(),
        "# Steps\r\n\r\n```sql\r\nSELECT 'a';\r\n```\r\nDon’t touch ‘this’.\r\n"
    );
}

#[test]
fn hostile_documents() {
    // Many blocks, fences without ends, comments without ends: linear, no panic.
    let many = "```sql\nSELECT ‘a’\n```\n".repeat(20_000);
    let outcome = check_text("a.md", &many);
    // One typographic-quote finding per block, up to the per-file limit of 10,000 lexical
    // findings, and one finding that counts the rest.
    assert_eq!(codes(&outcome).len(), 10_001);
    assert!(outcome
        .diagnostics
        .iter()
        .any(|d| d.message.starts_with("10000 more lexical errors")));
    for text in [
        "```sql",
        "```sql\n",
        "~~~sql\n'",
        "<!--",
        "<!-- flinklint: ignore",
        "<!-- flinklint: -->\n```sql\n/*",
        "```sql\n```\n```sql\n```",
        "\u{feff}```sql\nSELECT 1\n```",
    ] {
        check_text("a.md", text);
        check_text(
            "a.rst",
            &text.replace("```sql", ".. code-block:: sql\n\n  "),
        );
    }
}

#[test]
fn a_fence_is_indented_by_at_most_three_spaces_within_its_container() {
    let found_lines = |text: &str| -> Vec<(&'static str, u32)> {
        found(&check_text("a.md", text))
            .iter()
            .map(|(c, l, _, _)| (*c, *l))
            .collect()
    };
    // Four spaces: indented code (CommonMark), not a fence; the SQL in it is an example.
    let text = "Text.\n\n    ```sql\n    SELECT ‘a’;\n    ```\n";
    assert_eq!(found_lines(text), []);
    let text = "\t```sql\n\tSELECT ‘a’;\n\t```\n";
    assert_eq!(found_lines(text), []);
    // Zero to three spaces: a fence.
    for ind in ["", " ", "  ", "   "] {
        let text = format!("{ind}```sql\n{ind}SELECT ‘a’;\n{ind}```\n");
        assert_eq!(found_lines(&text), [("SY002", 2)], "{ind:?}");
    }
    // In list items, counted from the item's content: nested lists keep their blocks.
    let text = "1. step\n\n   ```sql\n   SELECT ‘a’;\n   ```\n- a\n  - b\n\n    ```sql\n    SELECT ‘b’;\n    ```\n";
    assert_eq!(found_lines(text), [("SY002", 4), ("SY002", 10)]);
    // Four spaces beyond the item's content: indented code again.
    let text = "- a\n\n      ```sql\n      SELECT ‘a’;\n      ```\n";
    assert_eq!(found_lines(text), []);
    // A fence right after the marker.
    let text = "- ```sql\n  SELECT ‘a’;\n  ```\n";
    assert_eq!(found_lines(text), [("SY002", 2)]);
    // A closing fence indented four spaces is content: the block runs on.
    let text = "~~~sql\nSELECT 1;\n    ~~~\nSELECT ‘a’;\n~~~\n";
    assert!(
        found_lines(text).contains(&("SY002", 4)),
        "{:?}",
        found_lines(text)
    );
}

/// A block with documentation placeholders (`<table name>`) is documentation, not SQL: one
/// SY006 note, never a syntax error; the blocks around it are checked.
#[test]
fn placeholder_blocks_are_noted_not_errors() {
    let text = "# Reading a table\n\n\
        ```sql\nSELECT * FROM <table name> LIMIT 10;\n```\n\n\
        ```sql\nALTER TABLE <table_name> ADD _part INT METADATA FROM 'partition' VIRTUAL;\n```\n\n\
        ```sql\nSELECT \"x\";\n```\n";
    let outcome = check_text("docs/read.md", text);
    let found = found(&outcome);
    assert!(found.iter().all(|(code, ..)| *code != "SY001"), "{found:?}");
    assert_eq!(
        found
            .iter()
            .filter(|(code, ..)| *code == "SY006")
            .map(|(_, line, ..)| *line)
            .collect::<Vec<_>>(),
        [4],
        "{found:?}"
    );
    // The block after them is still checked.
    assert!(
        found
            .iter()
            .any(|(code, line, ..)| *code == "SY003" && *line == 12),
        "{found:?}"
    );
}
