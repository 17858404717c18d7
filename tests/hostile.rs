//! Hostile input: each gives a clear diagnostic or nothing, never a crash, hang or stack
//! overflow, and the other files of the run are still checked.

use flinklint::config::Settings;
use flinklint::discover::Input;

fn check_one(text: &str) -> flinklint::Outcome {
    flinklint::check_texts(
        &[("input.sql".to_string(), text.to_string())],
        &Settings::default(),
    )
}

fn codes(outcome: &flinklint::Outcome) -> Vec<&'static str> {
    outcome.diagnostics.iter().map(|d| d.code).collect()
}

#[test]
fn empty_and_comment_only_files_are_clean() {
    assert!(codes(&check_one("")).is_empty());
    assert!(codes(&check_one(
        "-- only a comment\n/* and a block */\n// and this\n"
    ))
    .is_empty());
    assert!(codes(&check_one(";;;\n;")).is_empty());
}

#[test]
fn ten_megabytes_of_open_parentheses() {
    let text = format!("SELECT {}", "(".repeat(10 * 1024 * 1024));
    let outcome = check_one(&text);
    assert_eq!(codes(&outcome), vec!["SY001"]);
    assert!(
        outcome.diagnostics[0].message.contains("nesting deeper"),
        "{}",
        outcome.diagnostics[0].message
    );
}

#[test]
fn long_operator_chains_and_deep_types() {
    let chain = format!("SELECT {}1;", "a + ".repeat(100_000));
    assert_eq!(codes(&check_one(&chain)), vec!["SY001"]);
    let types = format!("CREATE TABLE t (a {});", "ARRAY<".repeat(100_000));
    assert_eq!(codes(&check_one(&types)), vec!["SY001"]);
    let garbage = format!("SELECT {}", "ARRAY<".repeat(100_000));
    let outcome = check_one(&garbage);
    assert!(!outcome.diagnostics.is_empty() && outcome.diagnostics.len() <= 502);
}

#[test]
fn a_hundred_thousand_statements() {
    let tables = "CREATE TABLE src (a INT, b STRING) WITH ('connector' = 'datagen');\n\
                  CREATE TABLE sink (a INT, b STRING) WITH ('connector' = 'blackhole');\n";
    let text = format!(
        "{tables}{}",
        "INSERT INTO sink SELECT a, b FROM src WHERE a > 1;\n".repeat(100_000)
    );
    let outcome = check_one(&text);
    assert!(codes(&outcome).is_empty(), "{:?}", codes(&outcome).first());
    assert_eq!(outcome.files[0].parsed.script.statements.len(), 100_002);
}

#[test]
fn unterminated_string_and_comment_at_end_of_file() {
    let outcome = check_one("SELECT 'abc");
    assert_eq!(codes(&outcome), vec!["SY001"]);
    assert!(outcome.diagnostics[0]
        .message
        .contains("unterminated string"));
    let outcome = check_one("SELECT 1; /* never closed");
    assert_eq!(codes(&outcome), vec!["SY001"]);
    assert!(outcome.diagnostics[0]
        .message
        .contains("unterminated block comment"));
    let outcome = check_one("SELECT `abc");
    assert!(outcome.diagnostics[0]
        .message
        .contains("unterminated quoted name"));
}

#[test]
fn nul_bytes_are_reported_not_fatal() {
    let outcome = check_one("SELECT 1;\0\nSELECT 2;");
    assert_eq!(codes(&outcome), vec!["SY001"]);
    assert!(outcome.diagnostics[0].message.contains("U+0000"));
}

#[test]
fn crlf_is_whitespace_and_a_bom_is_reported_with_a_fix() {
    let outcome = check_one(
        "CREATE TABLE t (\r\n  a INT\r\n) WITH ('connector' = 'datagen');\r\nSELECT a FROM t;\r\n",
    );
    assert!(codes(&outcome).is_empty());
    // Flink's parser rejects a leading byte-order mark; the fix removes it.
    let outcome = check_one("\u{FEFF}SELECT 1;\r\nSELECT 2;");
    assert_eq!(codes(&outcome), vec!["SY001"]);
    let fix = outcome.diagnostics[0].fix.as_ref().expect("a fix");
    assert_eq!(
        (
            fix.edits[0].span.start,
            fix.edits[0].span.end,
            fix.edits[0].replacement.as_str()
        ),
        (0, 3, "")
    );
    // Columns are counted in characters; the BOM is one.
    let outcome = check_one("\u{FEFF}SELECT \"x\";\r\nSELECT 1;");
    let d = outcome
        .diagnostics
        .iter()
        .find(|d| d.code == "SY003")
        .expect("SY003");
    let at = outcome.files[0].source.line_col(d.span.start);
    assert_eq!((at.line, at.column), (1, 9));
}

#[test]
fn invalid_utf8_is_sy000_and_the_run_goes_on() {
    let dir = std::env::temp_dir().join(format!("flinklint-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("a_latin1.sql");
    let good = dir.join("b_good.sql");
    std::fs::write(&bad, b"SELECT 'caf\xe9';").unwrap();
    std::fs::write(&good, b"SELECT \"x\";").unwrap();
    let inputs = vec![Input::File(bad), Input::File(good)];
    let outcome = flinklint::check(&inputs, None, &Settings::default());
    assert_eq!(codes(&outcome), vec!["SY000", "SY003"]);
    assert!(outcome.diagnostics[0].message.contains("UTF-8"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn repeated_empty_quoted_aliases_end_with_the_lexical_error() {
    // Uniquifying two empty names looped forever (an INSERT, a view, a count mismatch).
    for text in [
        "CREATE TABLE src (id INT, b INT) WITH ('connector'='datagen');\n\
         CREATE TABLE s (id INT, b INT) WITH ('connector'='blackhole');\n\
         INSERT INTO s SELECT id AS ``, b AS `` FROM src;\n",
        "CREATE TABLE src (id INT, b INT) WITH ('connector'='datagen');\n\
         CREATE VIEW v AS SELECT id AS ``, b AS `` FROM src;\n",
        "CREATE TABLE src (id INT, b INT) WITH ('connector'='datagen');\n\
         CREATE TABLE s (id INT) WITH ('connector'='blackhole');\n\
         INSERT INTO s SELECT id AS ``, b AS ``, 1 AS `` FROM src;\n",
    ] {
        let outcome = check_one(text);
        assert!(codes(&outcome).contains(&"SY001"), "{text}");
    }
}

// Cost and size of a run on hostile input: time linear in the input, reports bounded. Each
// bound on time is many times what the run takes (figures in docs/performance.md); none is a
// benchmark.

use crate::common;
use flinklint::render;
use std::time::{Duration, Instant};

/// The human report, without colour, of every finding (no limit), as a library user gets it.
fn human(outcome: &flinklint::Outcome) -> String {
    render::human::render(
        &outcome.files,
        outcome.files_checked(),
        &outcome.diagnostics,
        render::human::HumanOptions {
            color: false,
            width: 100,
        },
    )
}

/// Panics when `took` is over `limit`, naming what took it.
fn within(what: &str, took: Duration, limit: Duration) {
    assert!(
        took <= limit,
        "{what} took {took:?}, more than {limit:?}: cost is no longer linear"
    );
}

#[test]
fn findings_past_column_65535_are_drawn_in_a_window() {
    // miette cannot draw a label past visual column 65,535: the report showed the whole line
    // and panicked. Tabs take 4 columns and CJK characters 2 in miette.
    for (prefix, column) in [
        (" ".repeat(65_536), 65_537),
        ("\t".repeat(16_384), 16_385),
        (format!("/* {} */ ", "中".repeat(32_767)), 32_775),
    ] {
        let text = format!("{prefix}\"x\";\nSELECT 1;\n");
        let outcome = check_one(&text);
        assert_eq!(codes(&outcome), vec!["SY003"]);
        let report = human(&outcome);
        assert!(
            report.contains(&format!("[input.sql:1:{column}]")),
            "{report}"
        );
        // The line is cut 40 characters before the finding.
        assert!(
            report.contains(" 1 │ …") && report.contains("\"x\";"),
            "{report}"
        );
        assert!(report.len() < 4_000, "{} bytes", report.len());
    }
}

#[test]
fn a_span_over_many_lines_is_drawn_on_its_first() {
    let text = format!("SELECT 1; /* never closed\n{}", "x\n".repeat(100_000));
    let outcome = check_one(&text);
    assert_eq!(codes(&outcome), vec!["SY001"]);
    let report = human(&outcome);
    assert!(report.contains("(to line 100002)"), "{report}");
    assert!(report.len() < 4_000, "{} bytes", report.len());
}

#[test]
fn lexical_errors_are_capped_per_file() {
    let start = Instant::now();
    // Adjacent unknown characters are one token and one error; separated ones are capped.
    for (text, errors, more) in [
        (format!("SELECT {};", "~".repeat(20_000)), 1, None),
        ("\0".repeat(200_000), 1, None),
        (
            format!("SELECT {};", "中~".repeat(20_000)),
            100,
            Some("19900 more"),
        ),
        (
            format!("SELECT {};", "~ ".repeat(20_000)),
            100,
            Some("19900 more"),
        ),
    ] {
        let outcome = check_one(&text);
        let lexical: Vec<&str> = outcome
            .diagnostics
            .iter()
            .filter(|d| d.message.starts_with("unexpected character"))
            .map(|d| d.message.as_str())
            .collect();
        assert_eq!(
            lexical.len(),
            errors,
            "{:?}",
            &lexical[..lexical.len().min(3)]
        );
        let found: Vec<&str> = outcome
            .diagnostics
            .iter()
            .filter(|d| d.message.contains("more lexical errors"))
            .map(|d| d.message.as_str())
            .collect();
        match more {
            Some(expected) => assert!(
                found.len() == 1 && found[0].starts_with(expected),
                "{found:?}"
            ),
            None => assert!(found.is_empty(), "{found:?}"),
        }
        // The parser's own errors are capped too; every report stays small.
        assert!(
            outcome.diagnostics.len() < 700,
            "{}",
            outcome.diagnostics.len()
        );
        assert!(human(&outcome).len() < 1_000_000);
    }
    // Errors with a fix (double quotes here) go on far longer, but not forever: a file of
    // nothing else would need memory for each.
    let outcome = check_one(&format!("SELECT {};", "\"x\" ".repeat(30_000)));
    let quoted = outcome
        .diagnostics
        .iter()
        .filter(|d| d.code == "SY003")
        .count();
    assert_eq!(quoted, 10_000);
    assert!(outcome
        .diagnostics
        .iter()
        .any(|d| d.message.starts_with("20000 more lexical errors")));
    within(
        "four files of 20,000 to 200,000 lexical errors",
        start.elapsed(),
        Duration::from_secs(60),
    );
}

#[test]
fn a_hundred_thousand_columns_are_built_in_linear_time() {
    let n = 100_000;
    let columns = |prefix: &str| -> String {
        (0..n)
            .map(|i| format!("{prefix}{i} INT"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let keys = (0..n)
        .map(|i| format!("c{i}"))
        .collect::<Vec<_>>()
        .join(", ");
    let qualified = (0..n)
        .map(|i| format!("x.c{i}"))
        .collect::<Vec<_>>()
        .join(", ");
    // A table, a LIKE child adding as many columns and a key over all of them, and a table
    // whose columns clash in case with the first ones; then statements that look each column
    // up by name: an INSERT with a column list, a view, qualified references, a CTAS.
    let text = format!(
        "CREATE TABLE t ({}, PRIMARY KEY ({keys}) NOT ENFORCED) WITH ('connector' = 'datagen');\n\
         CREATE TABLE u ({}) LIKE t;\n\
         CREATE TABLE v ({}, {}) WITH ('connector' = 'datagen');\n\
         CREATE TABLE s ({}) WITH ('connector' = 'blackhole');\n\
         INSERT INTO s ({keys}) SELECT {keys} FROM t;\n\
         CREATE VIEW w AS SELECT {keys} FROM t;\n\
         INSERT INTO s SELECT {qualified} FROM w AS x;\n\
         CREATE TABLE z WITH ('connector' = 'blackhole') AS SELECT * FROM t;\n",
        columns("c"),
        columns("d"),
        columns("e"),
        columns("E"),
        columns("c"),
    );
    let start = Instant::now();
    let outcome = check_one(&text);
    within(
        "100,000-column tables and statements",
        start.elapsed(),
        Duration::from_secs(60),
    );
    // One finding per pair of names differing only in case, and nothing else.
    let found: std::collections::BTreeSet<&str> =
        outcome.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(
        outcome.diagnostics.len(),
        n,
        "{:?}",
        outcome.diagnostics.first()
    );
    assert_eq!(found.len(), 1, "{found:?}");
    let first = &outcome.diagnostics[0].message;
    assert!(first.contains("E0") && first.contains("e0"), "{first}");
}

#[test]
fn many_findings_cost_linear_time_and_reports_are_bounded() {
    // One file: lexical findings stop at 10,000 (with one more counting the rest).
    let text = "SELECT \"a\" FROM t;\n".repeat(40_000) + &"SELECT \"x\";\n".repeat(160_000);
    let start = Instant::now();
    let outcome = check_one(&text);
    within(
        "200,000 statements with a finding each",
        start.elapsed(),
        Duration::from_secs(60),
    );
    assert_eq!(outcome.diagnostics.len(), 10_001);
    // A repository: 20 files of 10,000 findings each.
    let texts: Vec<(String, String)> = (0..20)
        .map(|i| (format!("f{i:02}.sql"), "SELECT \"x\";\n".repeat(10_000)))
        .collect();
    let start = Instant::now();
    let outcome = flinklint::check_texts(&texts, &Settings::default());
    assert_eq!(outcome.diagnostics.len(), 200_000);
    let (files, n, all) = (
        &outcome.files,
        outcome.files_checked(),
        &outcome.diagnostics,
    );
    let options = render::human::HumanOptions {
        color: false,
        width: 100,
    };
    let human = render::human::render_limited(files, n, all, options, render::MAX_FINDINGS_READ);
    let concise = render::concise::render_limited(files, n, all, render::MAX_FINDINGS_READ);
    let json = render::json::render_limited(files, n, all, None, render::MAX_FINDINGS_MACHINE);
    let sarif = render::sarif::render_limited(files, all, render::MAX_FINDINGS_MACHINE, None);
    let junit = render::junit::render_limited(files, all, render::MAX_FINDINGS_MACHINE);
    within(
        "200,000 findings, checked and rendered",
        start.elapsed(),
        Duration::from_secs(90),
    );
    assert!(human.len() < 2_000_000, "{}", human.len());
    assert_eq!(concise.lines().count(), 1_002);
    let omitted = "199000 more findings are not shown (the first 1000 are; see --max-findings): SY003: 199000 errors.";
    assert!(human.contains(omitted) && concise.contains(omitted));
    assert!(human.ends_with("Found 200000 errors in 20 files.\n"));
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(doc["diagnostics"].as_array().unwrap().len(), 10_000);
    assert_eq!(doc["omitted"]["count"], 190_000);
    assert_eq!(doc["omitted"]["by_code"][0]["code"], "SY003");
    let log: serde_json::Value = serde_json::from_str(&sarif).unwrap();
    assert_eq!(log["runs"][0]["results"].as_array().unwrap().len(), 10_000);
    let note = &log["runs"][0]["invocations"][0]["toolExecutionNotifications"][0];
    assert_eq!(note["properties"]["omitted"]["count"], 190_000);
    // The first file's findings, one "omitted" failure in each of the other 19 files.
    assert_eq!(junit.matches("<failure ").count(), 10_019);
    assert_eq!(junit.matches(r#"type="omitted">"#).count(), 19);
    assert!(junit.contains(r#"tests="20" failures="20""#) && junit.contains("<system-out>"));
}

#[test]
fn suppression_comments_cost_linear_time() {
    let text = (0..100_000)
        .map(|i| {
            format!(
                "-- flinklint: ignore TB001 -- legacy\n\
                 CREATE TABLE t{i} (a INT NOT NULL PRIMARY KEY) WITH ('connector' = 'datagen');\n"
            )
        })
        .collect::<String>()
        + "-- flinklint: ignore-file SY002\n".repeat(10_000).as_str()
        + "SELECT 1 – 2;\n";
    let start = Instant::now();
    let outcome = check_one(&text);
    within(
        "100,000 suppression comments",
        start.elapsed(),
        Duration::from_secs(60),
    );
    assert!(
        outcome.diagnostics.is_empty(),
        "{:?}",
        outcome.diagnostics.first()
    );
}

#[test]
fn suppressions_past_the_limit_of_syntax_errors_are_not_called_unused() {
    // The 10,001st double-quoted literal is not reported: whether its suppression is needed
    // is not known.
    let text = "-- flinklint: ignore SY003\nSELECT \"x\";\n".repeat(10_100);
    let outcome = check_one(&text);
    let found: std::collections::BTreeSet<&str> =
        outcome.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(found, ["SY001"].into(), "{:?}", outcome.diagnostics.first());
    assert_eq!(outcome.diagnostics.len(), 1);
    assert!(outcome.diagnostics[0]
        .message
        .starts_with("100 more lexical errors"));
}

#[test]
fn max_findings_bounds_every_format_and_the_exit_code_counts_all() {
    let dir = common::TempDir::new("hostile-max-findings");
    std::fs::write(dir.0.join("many.sql"), "SELECT \"x\";\n".repeat(2_000)).unwrap();
    let run = |args: &[&str]| {
        let out = common::isolated_command(env!("CARGO_BIN_EXE_flinklint"), &dir.0)
            .arg("check")
            .args(args)
            .arg("many.sql")
            .env_remove("GITHUB_ACTIONS")
            .output()
            .expect("run flinklint");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, out, _) = run(&["--format", "concise"]);
    assert_eq!(code, Some(1));
    assert_eq!(out.lines().count(), 1_002, "default 1000");
    assert!(out.contains("1000 more findings are not shown"));
    let (code, out, _) = run(&["--format", "concise", "--max-findings", "3"]);
    assert_eq!((code, out.lines().count()), (Some(1), 5));
    let (_, out, _) = run(&["--format", "concise", "--max-findings", "all"]);
    assert_eq!(out.lines().count(), 2_001);
    let (_, out, _) = run(&["--format", "human", "--max-findings", "2"]);
    assert_eq!(out.matches("SY003 double-quoted-literal").count(), 2);
    assert!(out.contains("1998 more findings are not shown"));
    let (code, out, err) = run(&["--format", "gitlab", "--max-findings", "5"]);
    let issues: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!((code, issues.as_array().unwrap().len()), (Some(1), 5));
    assert!(err.contains("1995 more findings are not shown"), "{err}");
    let (code, _, err) = run(&["--format", "json", "--max-findings", "0", "--exit-zero"]);
    assert_eq!(code, Some(0));
    assert!(err.contains("2000 more findings"), "{err}");
    let (code, _, err) = run(&["--max-findings", "many"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("not a number of findings"), "{err}");
}

#[test]
fn quoted_names_and_quotes_on_one_long_line_are_lexed_in_linear_time() {
    // Each `"` (and each typographic quote) looked for its closing quote only up to the end of
    // its line, but found that end first: a line of n quotes cost n² (100,000 names: 15 s).
    let start = Instant::now();
    for text in [
        format!("SELECT {} FROM t;", "x.\"y\", ".repeat(200_000)),
        format!("SELECT {} FROM t;", "\u{201C}y\u{201D}, ".repeat(200_000)),
        format!("SELECT {} FROM t;", "\u{201C}".repeat(200_000)),
    ] {
        let outcome = check_one(&text);
        assert!(!outcome.diagnostics.is_empty());
    }
    within(
        "three lines of 200,000 quotes each",
        start.elapsed(),
        Duration::from_secs(60),
    );
}

/// `text` checked as `check` checks it: no session keeps the versions of its objects.
fn check_as_check(text: &str) -> flinklint::Outcome {
    flinklint::check_texts(
        &[("input.sql".to_string(), text.to_string())],
        &Settings {
            drop_script_sessions: true,
            ..Settings::default()
        },
    )
}

#[test]
fn many_alters_of_one_table_cost_linear_time() {
    // Each ALTER TABLE copied the table and kept the copy as a version: 8,000 single-column
    // ADDs took 39 s and 7.3 GB, 8,000 SETs of distinct keys 27 s and 4.6 GB (16,000 of each:
    // minutes and tens of GB).
    let n = 16_000;
    let mut text = String::from("CREATE TABLE t (a INT) WITH ('connector' = 'datagen');\n");
    for i in 0..n {
        text.push_str(&format!("ALTER TABLE t SET ('k{i}' = 'v');\n"));
    }
    for i in 0..n {
        text.push_str(&format!("ALTER TABLE t ADD c{i} INT;\n"));
    }
    // A column differing from the first added one only in case: one finding.
    text.push_str("ALTER TABLE t ADD C0 INT;\n");
    let start = Instant::now();
    let outcome = check_as_check(&text);
    within(
        "32,000 ALTER TABLE statements",
        start.elapsed(),
        Duration::from_secs(60),
    );
    assert_eq!(codes(&outcome), vec!["CL009"], "{:?}", outcome.diagnostics);
}

#[test]
fn many_options_and_materialized_table_changes_cost_linear_time() {
    // Each option of a CREATE TABLE was looked up in the options merged so far (50,000 keys:
    // 7.8 s); each ALTER MATERIALIZED TABLE looked for the token after its name from the
    // file's start (32,000 SUSPEND / RESUME pairs: 10.5 s).
    let n = 200_000;
    let options = (0..n)
        .map(|i| format!("'k{i}' = 'v'"))
        .collect::<Vec<_>>()
        .join(", ");
    let mut text = format!(
        "CREATE TABLE t1 (a INT) WITH ('connector' = 'unchecked-test-connector', {options});\n\
         CREATE TABLE t2 WITH ('k0' = 'w') LIKE t1;\n\
         CREATE MATERIALIZED TABLE m FRESHNESS = INTERVAL '30' SECOND AS SELECT * FROM t1;\n"
    );
    for _ in 0..n / 2 {
        text.push_str("ALTER MATERIALIZED TABLE m SUSPEND;\nALTER MATERIALIZED TABLE m RESUME;\n");
    }
    let start = Instant::now();
    let outcome = check_as_check(&text);
    within(
        "200,000 options and 200,000 ALTER MATERIALIZED TABLE",
        start.elapsed(),
        Duration::from_secs(60),
    );
    // The LIKE child overriding a parent's option: one finding.
    assert_eq!(codes(&outcome), vec!["LK012"], "{:?}", outcome.diagnostics);
}

/// The query validator (names and scopes) on hostile queries: wide selects, deep nesting of
/// subqueries and expressions, self-referencing views and WITH queries, long view chains. Each
/// gives a clean finding or nothing, in linear time.
#[test]
fn the_query_validator_survives_hostile_queries() {
    let t = "CREATE TABLE t (a INT, b STRING) WITH ('connector' = 'datagen');\n";
    // 10,000 columns selected, the last one misspelt: one QV001.
    let n = 10_000;
    let columns = (0..n)
        .map(|i| format!("c{i} INT"))
        .collect::<Vec<_>>()
        .join(", ");
    let mut selected = (0..n).map(|i| format!("c{i}")).collect::<Vec<_>>();
    selected.push("c_missing".to_string());
    let text = format!(
        "CREATE TABLE w ({columns}) WITH ('connector' = 'datagen');\nSELECT {} FROM w;\nSELECT {} FROM w GROUP BY {};\n",
        selected.join(", "),
        selected[..n].join(", "),
        selected[..n].join(", "),
    );
    let start = Instant::now();
    let outcome = check_one(&text);
    within(
        "10,000-column SELECTs",
        start.elapsed(),
        Duration::from_secs(30),
    );
    assert_eq!(codes(&outcome), vec!["QV001"], "{:?}", outcome.diagnostics);

    // Subqueries nested as deep as the parser allows, FROM and correlated, with a miss at the
    // bottom; then deeper than it allows (a syntax error, nothing else).
    for depth in [60, 150, 5_000] {
        let from = format!(
            "{t}{}SELECT nope FROM t{};\n",
            "SELECT a FROM (".repeat(depth),
            ") AS s".repeat(depth)
        );
        let exists = format!(
            "{t}SELECT a FROM t AS t0 WHERE {}t0.nope = 1{};\n",
            (1..=depth)
                .map(|i| format!("EXISTS (SELECT 1 FROM t AS t{i} WHERE "))
                .collect::<String>(),
            ")".repeat(depth)
        );
        for text in [from, exists] {
            let start = Instant::now();
            let outcome = check_one(&text);
            within(
                "deeply nested subqueries",
                start.elapsed(),
                Duration::from_secs(30),
            );
            let found = codes(&outcome);
            assert!(
                found == vec!["QV001"] || found.iter().all(|c| c.starts_with("SY")),
                "{found:?}"
            );
        }
    }

    // Long expressions: 4,000 operators, grouped by a nearly equal expression.
    let chain = |leaf: &str| format!("{}{leaf}", "a + ".repeat(4_000));
    let text = format!(
        "{t}SELECT {}, COUNT(*) FROM t GROUP BY {};\n",
        chain("b"),
        chain("a")
    );
    let start = Instant::now();
    let outcome = check_one(&text);
    within(
        "long grouped expressions",
        start.elapsed(),
        Duration::from_secs(30),
    );
    assert!(
        codes(&outcome).iter().all(|c| *c == "QV005"),
        "{:?}",
        codes(&outcome)
    );

    // A view and a WITH query reading themselves, and a chain of 2,000 views.
    let text = format!(
        "{t}CREATE VIEW v AS SELECT * FROM v;\nSELECT x FROM v;\nWITH c AS (SELECT x FROM c) SELECT x FROM c;\n"
    );
    assert!(
        codes(&check_one(&text)).is_empty(),
        "{:?}",
        codes(&check_one(&text))
    );
    let mut text = format!("{t}CREATE VIEW v0 AS SELECT a, b FROM t;\n");
    for i in 1..2_000 {
        text.push_str(&format!(
            "CREATE VIEW v{i} AS SELECT a, b FROM v{};\n",
            i - 1
        ));
    }
    text.push_str("SELECT a, c FROM v1999;\n");
    let start = Instant::now();
    let outcome = check_one(&text);
    within(
        "a chain of 2,000 views",
        start.elapsed(),
        Duration::from_secs(30),
    );
    assert_eq!(codes(&outcome), vec!["QV001"], "{:?}", outcome.diagnostics);
}
