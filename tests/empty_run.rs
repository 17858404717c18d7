//! A run with no file to check says why and exits with 2 (a mistyped path, a folder without
//! SQL, everything excluded), unless that is expected: `--allow-empty`, `--changed-since` with
//! nothing changed, or `--force-exclude` dropping every file passed (pre-commit).

use crate::common::{self, isolated_command, TempDir};
use std::path::Path;
use std::process::Output;

fn run(cwd: &Path, args: &[&str]) -> Output {
    isolated_command(env!("CARGO_BIN_EXE_flinklint"), cwd)
        .args(args)
        .output()
        .expect("run flinklint")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_folder_without_sql_is_an_error_that_names_it() {
    let tmp = TempDir::new("empty-run-nosql");
    std::fs::create_dir_all(tmp.0.join("docs")).unwrap();
    std::fs::write(tmp.0.join("docs/readme.md"), "# no SQL\n").unwrap();
    let out = run(&tmp.0, &["check", "docs"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("no .sql file under docs (extensions: sql)"),
        "{}",
        stderr(&out)
    );
    let out = run(&tmp.0, &["check", "--allow-empty", "docs"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("no .sql file under docs"));
    // `expand` says the same.
    let out = run(&tmp.0, &["expand", "--table", "t", "docs"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("no .sql file under docs"));
}

#[test]
fn everything_excluded_names_the_patterns_and_the_config() {
    let tmp = TempDir::new("empty-run-excluded");
    std::fs::create_dir_all(tmp.0.join("examples")).unwrap();
    std::fs::write(
        tmp.0.join(".flinklint.yaml"),
        "exclude: [\"examples/**\"]\n",
    )
    .unwrap();
    for name in ["a.sql", "b.sql"] {
        std::fs::write(tmp.0.join("examples").join(name), "SELECT 1;\n").unwrap();
    }
    let out = run(&tmp.0, &["check", "."]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(
            "all 2 .sql files under . are excluded by `exclude: examples/**` in .flinklint.yaml"
        ),
        "{}",
        stderr(&out)
    );
    // Named explicitly, the folder is checked.
    let out = run(&tmp.0, &["check", "examples"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // --force-exclude dropping every file given (pre-commit): a note, exit 0.
    let out = run(&tmp.0, &["check", "--force-exclude", "examples/a.sql"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("--force-exclude"), "{}", stderr(&out));
}

#[test]
fn changed_since_without_changed_sql_succeeds_with_a_note() {
    let tmp = TempDir::new("empty-run-changed");
    std::fs::write(tmp.0.join("a.sql"), "SELECT 1;\n").unwrap();
    common::git(&tmp.0, &["init", "-q"]);
    common::git(&tmp.0, &["add", "-A"]);
    common::git(&tmp.0, &["commit", "-q", "-m", "first"]);
    let out = run(&tmp.0, &["check", "--changed-since", "HEAD", "."]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("no file to check changed since HEAD"));
}

/// A repository whose SQL is all in Markdown exits with 2, but the formats that programs parse
/// still write a valid document without findings (to standard output, or `--output-file`),
/// so that a CI step reading the report does not fail on an empty stdout.
#[test]
fn structured_formats_write_an_empty_document_when_nothing_is_checked() {
    let tmp = TempDir::new("empty-run-structured");
    std::fs::write(
        tmp.0.join("README.md"),
        "# Demo\n\n```sql\nSELECT 1;\n```\n",
    )
    .unwrap();
    for format in ["json", "sarif", "gitlab", "junit"] {
        let out = run(&tmp.0, &["check", "--format", format, "."]);
        assert_eq!(out.status.code(), Some(2), "{format}: {}", stderr(&out));
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        match format {
            "junit" => {
                assert!(text.starts_with("<?xml"), "{format}: {text}");
                assert!(text.contains("<testsuites"), "{format}: {text}");
            }
            _ => {
                let doc: serde_json::Value = serde_json::from_str(&text)
                    .unwrap_or_else(|e| panic!("{format}: not JSON ({e}): {text}"));
                let findings = match format {
                    "json" => doc["diagnostics"].as_array().map(Vec::len),
                    "sarif" => doc["runs"][0]["results"].as_array().map(Vec::len),
                    _ => doc.as_array().map(Vec::len),
                };
                assert_eq!(findings, Some(0), "{format}: {text}");
            }
        }
        let file = tmp.0.join(format!("report.{format}"));
        let out = run(
            &tmp.0,
            &[
                "check",
                "--format",
                format,
                "--output-file",
                file.to_str().unwrap(),
                ".",
            ],
        );
        assert_eq!(out.status.code(), Some(2), "{format}: {}", stderr(&out));
        assert!(
            std::fs::metadata(&file).is_ok_and(|m| m.len() > 0),
            "{format}: no report written to --output-file"
        );
    }
    // `files --format json` too.
    let out = run(&tmp.0, &["files", "--format", "json", "."]);
    assert_eq!(out.status.code(), Some(2), "files: {}", stderr(&out));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "files: not JSON ({e}): {}",
            String::from_utf8_lossy(&out.stdout)
        )
    });
    assert!(doc.is_object(), "files: {doc}");
    // The formats people read write nothing to standard output.
    for format in ["human", "concise", "github"] {
        let out = run(&tmp.0, &["check", "--format", format, "."]);
        assert_eq!(out.status.code(), Some(2), "{format}");
        assert!(out.stdout.is_empty(), "{format}");
    }
}
