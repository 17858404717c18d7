//! INSERT and sink schema messages (`fixtures/oracle/qv-insert/`): where flinklint reports an
//! error on a rejected subject, its `flink_message` is Flink's whole message, the `Query
//! schema` / `Sink schema` lines included (the oracle test compares first lines only).

use crate::common;

use flinklint::config::Settings;
use flinklint::diagnostics::Severity;

#[test]
fn sink_messages_are_flinks_in_full() {
    let dir = common::root().join("fixtures/oracle/qv-insert");
    if !dir.exists() {
        return;
    }
    let mut compared = 0;
    let mut differing = Vec::new();
    for path in common::sql_files(&dir) {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let verdicts: Vec<serde_json::Value> =
            std::fs::read_to_string(path.with_extension("flink.jsonl"))
                .unwrap()
                .lines()
                .map(|l| serde_json::from_str(l).expect("verdict"))
                .collect();
        let subject = verdicts.last().expect("a subject");
        if subject["ok"].as_bool() == Some(true) {
            continue;
        }
        let flink = subject["error_message"].as_str().unwrap_or_default().trim();
        let line = subject["line"].as_u64().unwrap_or(0) as usize;
        let outcome = flinklint::check_texts(&[(name.clone(), text.clone())], &Settings::default());
        let source = &outcome.files[0].source;
        let ours: Vec<&str> = outcome
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .filter(|d| source.line_col(d.span.start).line as usize >= line)
            .filter_map(|d| d.flink_message.as_deref())
            .collect();
        let Some(first) = ours.first() else {
            continue;
        };
        compared += 1;
        if first.trim() != flink {
            differing.push(format!(
                "{name}:\n  Flink:     {flink:?}\n  flinklint: {first:?}"
            ));
        }
    }
    assert!(compared >= 25, "only {compared} rejections compared");
    assert!(
        differing.is_empty(),
        "messages differ:\n{}",
        differing.join("\n")
    );
}

/// A wide INSERT (5,000 columns, a column list in reverse order, a static partition of 2,000
/// keys) gets its one finding, the type of the last column, without quadratic work.
#[test]
fn wide_inserts_are_checked_once() {
    let n = 5_000;
    let columns: Vec<String> = (0..n).map(|k| format!("c{k} INT")).collect();
    let mut sql = format!(
        "CREATE TABLE src ({}, s STRING) WITH ('connector' = 'datagen');\n",
        columns.join(", ")
    );
    sql.push_str(&format!(
        "CREATE TABLE snk ({}) WITH ('connector' = 'blackhole');\n",
        columns.join(", ")
    ));
    let list: Vec<String> = (0..n).rev().map(|k| format!("c{k}")).collect();
    let mut select: Vec<String> = (0..n).rev().map(|k| format!("c{k}")).collect();
    select[0] = "s".to_string();
    sql.push_str(&format!(
        "INSERT INTO snk ({}) SELECT {} FROM src;\n",
        list.join(", "),
        select.join(", ")
    ));
    let statics: Vec<String> = (0..2_000).map(|k| format!("p{k} = 1")).collect();
    sql.push_str(&format!(
        "INSERT INTO snk PARTITION ({}) ({}) SELECT {} FROM src;\n",
        statics.join(", "),
        list.join(", "),
        select.join(", ")
    ));
    let outcome = flinklint::check_texts(&[("wide.sql".to_string(), sql)], &Settings::default());
    let codes: Vec<&str> = outcome.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["QV040", "CL011"], "{codes:?}");
    let message = outcome.diagnostics[0].flink_message.as_deref().unwrap();
    assert!(
        message.contains(&format!("sink column 'c{}' at position {n}", n - 1)),
        "{}",
        &message[..200]
    );
}
