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
