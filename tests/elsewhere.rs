//! Tables that exist where flinklint does not run their DDL (`src/semantic/elsewhere.rs`): created
//! in a document the run does not check, by a statement of another dialect (a Hive stretch),
//! or a Kafka topic that a catalog exposes (one quoted name holding dots); the summary's note on
//! unchecked documents; fragments in documents; `row[...]` reported once.

use crate::common;

use flinklint::config::Settings;
use std::path::Path;

fn run(dir: &Path, args: &[&str]) -> (String, String, i32) {
    let out = common::isolated_command(env!("CARGO_BIN_EXE_flinklint"), dir)
        .args(args)
        .env("NO_COLOR", "1")
        .env("COLUMNS", "200")
        .env_remove("GITHUB_ACTIONS")
        .output()
        .expect("run flinklint");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

/// `(code, line, flagged text)` of each finding of `files` checked together.
fn found(files: &[(&str, &str)]) -> Vec<(&'static str, u32, String)> {
    let texts: Vec<(String, String)> = files
        .iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect();
    let outcome = flinklint::check_texts(&texts, &Settings::default());
    outcome
        .diagnostics
        .iter()
        .map(|d| {
            let source = &outcome.files[d.file.0 as usize].source;
            (
                d.code,
                source.line_col(d.span.start).line,
                source.slice(d.span).to_string(),
            )
        })
        .collect()
}

const JOB: &str = "CREATE TABLE src (id INT) WITH ('connector' = 'datagen');\n\
                   INSERT INTO order_details SELECT id FROM src;\n";

#[test]
fn a_table_created_in_an_unchecked_document_is_known_to_exist() {
    let tmp = common::TempDir::new("elsewhere-readme");
    let dir = &tmp.0;
    std::fs::create_dir_all(dir.join("jobs")).unwrap();
    std::fs::write(dir.join("jobs/job.sql"), JOB).unwrap();
    // Without the document: the table is created nowhere.
    let (out, _, code) = run(dir, &["check", "--format", "concise", "."]);
    assert!(out.contains("jobs/job.sql:2:13: CT002"), "{out}");
    assert_eq!(code, 1, "{out}");
    // A README creates it in a SQL block: it exists, with a definition flinklint does not
    // read; the document itself is neither checked nor reported on.
    std::fs::write(
        dir.join("README.md"),
        "# Demo\n\n```sql\nCREATE TABLE order_details (id INT) WITH ('connector' = 'print')\n```\n\n\
         ```sql\nSELECT ‘a’;\n```\n",
    )
    .unwrap();
    let (out, _, code) = run(dir, &["check", "--format", "concise", "."]);
    assert_eq!((out.as_str(), code), ("No problems found in 1 file.\n", 0));
    // The human summary says once that the document's SQL is not checked, and how to.
    let (out, _, _) = run(dir, &["check", "."]);
    assert!(
        out.ends_with(
            "No problems found in 1 file.\nNot checked: the SQL blocks of 1 document (README.md); \
             documents are checked when `extensions` lists their extension, e.g. \
             `extensions: [sql, md]` in .flinklint.yaml.\n"
        ),
        "{out}"
    );
    // In a project (here marked by its config file), checked from the job's folder on the
    // job alone: the same.
    std::fs::write(dir.join(".flinklint.yaml"), "catalog: auto\n").unwrap();
    let (out, _, _) = run(
        &dir.join("jobs"),
        &["check", "--format", "concise", "job.sql"],
    );
    assert_eq!(out, "No problems found in 1 file.\n");
    // Listed, the document is checked like any script (its own findings), and no note.
    std::fs::write(dir.join(".flinklint.yaml"), "extensions: [sql, md]\n").unwrap();
    let (out, _, _) = run(dir, &["check", "."]);
    assert!(out.contains("SY002"), "{out}");
    assert!(!out.contains("CT002"), "{out}");
    assert!(!out.contains("Not checked"), "{out}");
}

#[test]
fn a_table_created_by_another_dialect_exists_with_an_unknown_definition() {
    let hive = "CREATE CATALOG myhive WITH ('type' = 'hive');\n\
                USE CATALOG myhive;\n\
                SET table.sql-dialect = hive;\n\
                CREATE TABLE FlinkWriteHiveTable (a INT) PARTITIONED BY (dt STRING) STORED AS parquet;\n\
                SET table.sql-dialect = default;\n";
    let job = "CREATE TABLE src (id INT) WITH ('connector' = 'datagen');\n\
               INSERT INTO `myhive`.FlinkWriteHiveTable SELECT id, 'x' FROM src;\n\
               INSERT INTO missing SELECT id FROM src;\n";
    let found = found(&[("hive.sql", hive), ("job.sql", job)]);
    let ct002: Vec<_> = found.iter().filter(|f| f.0 == "CT002").collect();
    // Only the table that nothing creates.
    assert_eq!(ct002.len(), 1, "{found:?}");
    assert_eq!(ct002[0].1, 3, "{found:?}");
}

#[test]
fn a_quoted_name_with_dots_is_a_topic_registered_outside_sql() {
    let alter = "ALTER TABLE `card-tx.public.customers` SET ('changelog.mode' = 'append');\n\
                 ALTER TABLE `card-tx.public.customers` ADD (`offset` BIGINT METADATA VIRTUAL);\n\
                 ALTER TABLE db.`a.b` SET ('k' = 'v');\n\
                 INSERT INTO `your_catalog.your_database.sink` VALUES (1);\n";
    let found = found(&[("alter.sql", alter)]);
    assert_eq!(
        found,
        [
            ("CT002", 3, "db.`a.b`".to_string()),
            ("CT002", 4, "`your_catalog.your_database.sink`".to_string())
        ],
        "{found:?}"
    );
    // A part holding a dot is shown in backticks of its own, as Flink shows it.
    let outcome = flinklint::check_texts(
        &[("alter.sql".to_string(), alter.to_string())],
        &Settings::default(),
    );
    assert_eq!(
        outcome.diagnostics[0].message,
        "ALTER TABLE `default_catalog`.`db`.`a.b`: no table of that name is defined in this session"
    );
}

#[test]
fn a_fragment_in_a_document_is_noted_not_a_syntax_error() {
    let text = "# Patterns\n\n\
        ```sql\nMATCH_RECOGNIZE (\n  PATTERN (A B+)\n)\n```\n\n\
        ```sql\n...\nWHERE price > 10\n```\n\n\
        ```sql\nSELECT \"x\";\n```\n";
    let found = found(&[("docs/cep.md", text)]);
    assert!(found.iter().all(|f| f.0 != "SY001"), "{found:?}");
    assert!(
        found.iter().any(|f| f.0 == "SY006" && f.1 == 4),
        "{found:?}"
    );
    // The statement after the fragments is still checked.
    assert!(
        found.iter().any(|f| f.0 == "SY003" && f.1 == 15),
        "{found:?}"
    );
    // A `.sql` file that starts with a clause keeps its syntax error.
    let found = self::found(&[("cep.sql", "WHERE price > 10;\n")]);
    assert!(found.iter().any(|f| f.0 == "SY001"), "{found:?}");
}

#[test]
fn row_with_brackets_is_one_finding() {
    let sql = "CREATE TABLE s (m MAP<STRING, STRING>) WITH ('connector' = 'datagen');\n\
               SELECT row['a', 'b'] AS x, m FROM s;\n\
               SELECT row['a'] FROM s;\n";
    let found = found(&[("row.sql", sql)]);
    assert_eq!(
        found.iter().map(|f| (f.0, f.1)).collect::<Vec<_>>(),
        [("SY004", 2), ("SY004", 3)],
        "{found:?}"
    );
}
