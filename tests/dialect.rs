//! Text that is not Flink SQL, through the whole pipeline: one SY006 per stretch and nothing
//! else there, no catalog entries from it, no fixes in it; the configuration's `flink-files`,
//! `other-files` and `dialect-detection`; `flinklint files`; a hostile input.

use crate::common;

use flinklint::config::{DialectDetection, PathMatcher, Settings};
use flinklint::diagnostics::Diagnostic;
use std::process::Command;

fn check(path: &str, text: &str, settings: &Settings) -> flinklint::Outcome {
    flinklint::check_texts(&[(path.to_string(), text.to_string())], settings)
}

fn codes(diagnostics: &[Diagnostic]) -> Vec<&'static str> {
    diagnostics.iter().map(|d| d.code).collect()
}

/// MySQL setup, then a Flink table whose key lacks NOT ENFORCED.
const MIXED: &str = "\
CREATE TABLE customers (
  id INT NOT NULL AUTO_INCREMENT,
  name VARCHAR(255) NOT NULL,
  PRIMARY KEY (id)
) ENGINE=InnoDB;
INSERT INTO customers VALUES (1, \"a\");

CREATE TABLE customers_cdc (
  id INT,
  name STRING,
  PRIMARY KEY (id)
) WITH ('connector' = 'mysql-cdc', 'hostname' = 'db', 'database-name' = 'shop',
  'table-name' = 'customers', 'username' = 'u', 'password' = '${DB_PASSWORD}');
";

#[test]
fn one_note_per_stretch_and_nothing_else_there() {
    let outcome = check("mixed.sql", MIXED, &Settings::default());
    assert_eq!(codes(&outcome.diagnostics), ["SY006", "TB001"]);
    let note = &outcome.diagnostics[0];
    assert_eq!(note.severity, flinklint::diagnostics::Severity::Info);
    assert!(note.message.contains("MySQL"), "{}", note.message);
    assert!(note.message.contains("lines 1-6"), "{}", note.message);
    assert!(note.fix.is_none());
    // The TB001 is the Flink table's, not the MySQL one's.
    let tb001 = &outcome.diagnostics[1];
    assert_eq!(outcome.files[0].source.line_col(tb001.span.start).line, 11);
    // Turning SY006 off leaves the stretch unreported, not checked.
    let quiet = Settings {
        ignore: vec![flinklint::config::RuleSelector::Code("SY006")],
        ..Settings::default()
    };
    assert_eq!(
        codes(&check("mixed.sql", MIXED, &quiet).diagnostics),
        ["TB001"]
    );
}

#[test]
fn fixes_never_touch_other_dialects() {
    let outcome = check("mixed.sql", MIXED, &Settings::default());
    let report = flinklint::fix::fix(outcome, &Settings::default(), flinklint::fix::FixMode::All);
    assert_eq!(report.applied, 1);
    let (_, before, after) = &report.changed[0];
    let mysql_end = MIXED.find("CREATE TABLE customers_cdc").unwrap();
    assert_eq!(before[..mysql_end], after[..mysql_end]);
    assert!(after.contains("PRIMARY KEY (id) NOT ENFORCED\n) WITH"));
    // Hive's `insert into table` keeps its `table`.
    let hive = "CREATE TABLE t (a STRING) STORED AS ORC;\ninsert into table t select a from s;\n";
    let report = flinklint::fix::fix(
        check("hive.sql", hive, &Settings::default()),
        &Settings::default(),
        flinklint::fix::FixMode::All,
    );
    assert!(report.changed.is_empty());
}

#[test]
fn other_dialects_do_not_enter_the_catalog() {
    // `orders` exists in MySQL only (Flink's parser accepts that DDL, but it is MySQL's):
    // the Flink INSERT cannot see it.
    let text = "CREATE TABLE orders (id BIGINT, created DATETIME, note TEXT);\n\
        CREATE TABLE src (id BIGINT) WITH ('connector' = 'datagen');\n\
        INSERT INTO orders SELECT id, NULL, NULL FROM src;\n";
    let outcome = check("job.sql", text, &Settings::default());
    assert_eq!(codes(&outcome.diagnostics), ["SY006", "CT002"]);
    // Checked as Flink SQL, the table would be in the catalog.
    let settings = Settings {
        dialect_detection: DialectDetection::Off,
        ..Settings::default()
    };
    let outcome = check("job.sql", text, &settings);
    assert!(!codes(&outcome.diagnostics).contains(&"CT002"));
    assert!(!codes(&outcome.diagnostics).contains(&"SY006"));
}

#[test]
fn the_configuration_overrules_the_detection() {
    let mysql = "CREATE TABLE t (id INT AUTO_INCREMENT) ENGINE=InnoDB;\n";
    let flink = "CREATE TABLE t (id INT, PRIMARY KEY (id)) WITH ('connector' = 'datagen');\n";
    let flink_files = Settings {
        flink_files: PathMatcher::new(&["legacy/"]).unwrap(),
        ..Settings::default()
    };
    // Listed as Flink SQL: checked as such.
    let outcome = check("legacy/init.sql", mysql, &flink_files);
    assert!(codes(&outcome.diagnostics).contains(&"SY001"));
    assert!(!codes(&outcome.diagnostics).contains(&"SY006"));
    // Elsewhere: detected.
    let outcome = check("jobs/init.sql", mysql, &flink_files);
    assert_eq!(codes(&outcome.diagnostics), ["SY006"]);
    // Listed as another dialect: one note, nothing checked.
    let other_files = Settings {
        other_files: PathMatcher::new(&["*.hql.sql"]).unwrap(),
        ..Settings::default()
    };
    let outcome = check("x.hql.sql", flink, &other_files);
    assert_eq!(codes(&outcome.diagnostics), ["SY006"]);
    assert!(outcome.diagnostics[0].message.contains("other-files"));
    assert_eq!(
        codes(&check("x.sql", flink, &other_files).diagnostics),
        ["TB001"]
    );
}

#[test]
fn the_hive_dialect_switch_is_followed() {
    let text = "SET 'table.sql-dialect' = 'hive';\n\
        CREATE TABLE h (id INT) STORED AS ORC;\n\
        insert into table h select 1;\n\
        SET 'table.sql-dialect' = 'default';\n\
        CREATE TABLE f (id INT, PRIMARY KEY (id)) WITH ('connector' = 'datagen');\n";
    let outcome = check("switch.sql", text, &Settings::default());
    assert_eq!(codes(&outcome.diagnostics), ["SY006", "TB001"]);
    assert!(outcome.diagnostics[0].message.contains("table.sql-dialect"));
}

#[test]
fn files_lists_each_file_with_its_verdict() {
    let dir = common::TempDir::new("dialect-files");
    std::fs::write(
        dir.0.join("init.sql"),
        "CREATE TABLE t (id INT AUTO_INCREMENT);\n",
    )
    .unwrap();
    std::fs::write(
        dir.0.join("job.sql"),
        "CREATE TABLE s (id INT) WITH ('connector' = 'datagen');\n",
    )
    .unwrap();
    std::fs::write(dir.0.join("mixed.sql"), MIXED).unwrap();
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_flinklint"))
            .args(args)
            .current_dir(&dir.0)
            .env("NO_COLOR", "1")
            .output()
            .expect("run flinklint");
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let text = run(&["files", "."]);
    assert!(
        text.contains("init.sql: not Flink SQL: MySQL (AUTO_INCREMENT at line 1)"),
        "{text}"
    );
    assert!(
        text.contains("job.sql: Flink SQL (WITH ('connector' = ...) at line 1)"),
        "{text}"
    );
    assert!(
        text.contains("mixed.sql: mixed: 2 of 3 statements are not Flink SQL"),
        "{text}"
    );
    assert!(text.contains("  lines 1-6: MySQL ("), "{text}");
    assert!(text.contains("  lines 8-13: Flink SQL"), "{text}");
    assert!(
        text.ends_with(
            "3 files: 1 Flink SQL, 1 not Flink SQL, 1 mixed; 5 statements: 2 Flink SQL, 3 not\n"
        ),
        "{text}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&run(&["files", ".", "--format", "json"])).unwrap();
    assert_eq!(json["summary"]["other_statements"], 3);
    let mixed = json["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"].as_str().unwrap().ends_with("mixed.sql"))
        .unwrap();
    assert_eq!(mixed["verdict"], "mixed");
    assert_eq!(mixed["statements"][0]["dialect"], "mysql");
    assert_eq!(mixed["statements"][1]["how"], "names");
    assert_eq!(mixed["statements"][2]["dialect"], "flink");
    assert_eq!(mixed["stretches"][0]["end_line"], 6);
}

#[test]
fn files_shows_histories_and_what_check_does_with_unreadable_files() {
    let dir = common::TempDir::new("dialect-files-histories");
    let write = |path: &str, text: &[u8]| {
        let path = dir.0.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    // A history by Flyway names, and one by numbered names whose second file alters the
    // table of the first.
    write(
        "db/V10__later.sql",
        b"CREATE TABLE c (id INT) WITH ('connector' = 'datagen');\n",
    );
    write(
        "db/V2__first.sql",
        b"CREATE TABLE b (id INT) WITH ('connector' = 'datagen');\n",
    );
    write(
        "mig/001_orders.sql",
        b"CREATE TABLE orders (id INT) WITH ('connector' = 'datagen');\n",
    );
    write(
        "mig/002_region.sql",
        b"ALTER TABLE orders ADD region STRING;\n",
    );
    // Numbered demo scripts that each re-create their table: scripts, not a history.
    let demo = b"DROP TABLE IF EXISTS events;\n\
        CREATE TABLE events (id INT) WITH ('connector' = 'datagen');\n";
    write("demo/01_baseline.sql", demo);
    write("demo/02_mitigation.sql", demo);
    // A binary file and one with a NUL byte.
    write("bin.sql", b"SELECT 1;\xff\xfe\x00\n");
    write("nul.sql", b"SELECT 1;\x00\nSELECT 2;\n");
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_flinklint"))
            .args(args)
            .current_dir(&dir.0)
            .env("NO_COLOR", "1")
            .output()
            .expect("run flinklint");
        (out.status.code(), String::from_utf8(out.stdout).unwrap())
    };
    let (code, text) = run(&["files", "."]);
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains("histories (each folder's files apply in this order"),
        "{text}"
    );
    assert!(
        text.contains("  db (Flyway-style file names): V2__first.sql, V10__later.sql\n"),
        "{text}"
    );
    assert!(
        text.contains("  mig (numbered file names): 001_orders.sql, 002_region.sql\n"),
        "{text}"
    );
    assert!(
        text.contains("independent scripts, not a history")
            && text.contains("  demo: 01_baseline.sql, 02_mitigation.sql\n"),
        "{text}"
    );
    assert!(
        text.contains(
            "bin.sql: unreadable: not valid UTF-8 (byte 9); `check` reports it (SY000) and \
             checks nothing in it"
        ),
        "{text}"
    );
    assert!(
        text.contains("it holds a NUL byte (the first at line 1, column 10), which `check` reports as syntax errors (SY001)"),
        "{text}"
    );
    assert!(text.contains(", 1 unreadable;"), "{text}");
    // `check` says the same of both files.
    let (_, checked) = run(&["check", "--format", "json", "bin.sql", "nul.sql"]);
    let checked: serde_json::Value = serde_json::from_str(&checked).unwrap();
    let found: Vec<(String, String)> = checked["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["file"].as_str().unwrap().to_string(),
                d["code"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert!(
        found.contains(&("bin.sql".into(), "SY000".into())),
        "{found:?}"
    );
    assert!(
        found.contains(&("nul.sql".into(), "SY001".into())),
        "{found:?}"
    );
    // JSON: the histories in order, the independent scripts, the unreadable file.
    let (_, json) = run(&["files", ".", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    let histories = json["histories"].as_array().unwrap();
    assert_eq!(histories.len(), 2, "{json}");
    assert_eq!(histories[0]["folder"], "db");
    assert_eq!(histories[0]["by"], "flyway-names");
    assert_eq!(
        histories[0]["files"],
        serde_json::json!(["db/V2__first.sql", "db/V10__later.sql"])
    );
    assert_eq!(histories[1]["by"], "numbered-names");
    assert_eq!(json["independent_scripts"][0]["folder"], "demo");
    let file = |name: &str| {
        json["files"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["path"] == name)
            .unwrap()
            .clone()
    };
    assert_eq!(file("bin.sql")["verdict"], "unreadable");
    assert_eq!(file("bin.sql")["load_error"], "not valid UTF-8 (byte 9)");
    assert_eq!(file("nul.sql")["nul_bytes"]["count"], 1);
    assert_eq!(json["summary"]["unreadable"], 1);
}

#[test]
fn detection_is_linear_on_hostile_input() {
    // Many statements, each with tells of several dialects, and a file of template tags.
    let statement = "CREATE TABLE t (a INT AUTO_INCREMENT, b SERIAL, c STRING) STORED AS ORC \
        WITH ('k' = 'v') ENGINE = MergeTree;\nINSERT INTO t VALUES (DEFAULT, \"x\");\n";
    let text = statement.repeat(20_000);
    let start = std::time::Instant::now();
    let outcome = check("big.sql", &text, &Settings::default());
    assert!(!outcome.diagnostics.is_empty());
    let braces = "{{ {% ${ #{ ".repeat(200_000);
    let outcome = check("braces.sql", &braces, &Settings::default());
    assert_eq!(codes(&outcome.diagnostics), ["SY006"]);
    // A generous bound: the point is that nothing is quadratic.
    assert!(start.elapsed() < std::time::Duration::from_secs(60));
}
