//! `flinklint expand` and `expand --describe` follow the platform's system columns: the seed
//! document's "DESCRIBE vs SHOW CREATE TABLE" example (`fixtures/expand/system_columns/`) on
//! Confluent Cloud, flink-next and Apache Flink 2.3, run as a user runs them. Flink 2.3's own
//! DESCRIBE output is compared cell by cell in tests/oracle.rs (`fixtures/oracle/describe`).

use crate::common;

use std::process::Command;

const CASE: &str = "fixtures/expand/system_columns/orders.sql";

/// The cells of the row named `name` in a `--describe` table.
fn row(table: &str, name: &str) -> Vec<String> {
    table
        .lines()
        .map(|l| {
            l.split('|')
                .map(|c| c.trim().to_string())
                .collect::<Vec<_>>()
        })
        .find(|cells| cells.get(1).is_some_and(|c| c == name))
        .unwrap_or_else(|| panic!("no row {name} in\n{table}"))
}

fn expand(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_flinklint"))
        .current_dir(common::root())
        .arg("expand")
        .arg(CASE)
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("run flinklint");
    assert!(
        out.status.success(),
        "expand {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

#[test]
fn show_create_and_describe_follow_the_platform() {
    let settings =
        common::snapshot_settings(&common::root().join("fixtures/expand/system_columns"));
    settings.bind(|| {
        for target in ["confluent", "flink-next", "flink-2.3"] {
            for table in ["orders", "orders_audit"] {
                let show = expand(&["--target", target, "--table", table]);
                let describe = expand(&["--target", target, "--table", table, "--describe"]);
                insta::assert_snapshot!(format!("{table}.{target}.show_create"), show);
                insta::assert_snapshot!(format!("{table}.{target}.describe"), describe);
            }
        }
    });
}

#[test]
fn system_columns_are_described_but_not_shown() {
    // Confluent: `$rowtime` is listed by DESCRIBE only.
    let show = expand(&["--target", "confluent", "--table", "orders"]);
    let describe = expand(&["--target", "confluent", "--table", "orders", "--describe"]);
    assert!(!show.contains("$rowtime"));
    let rowtime = describe
        .lines()
        .find(|l| l.contains("$rowtime"))
        .expect("DESCRIBE lists $rowtime");
    for cell in [
        "TIMESTAMP_LTZ(3) *ROWTIME*",
        "FALSE",
        "`SOURCE_WATERMARK`()",
        "SYSTEM",
        "system",
        "platform",
    ] {
        assert!(rowtime.contains(cell), "{cell} missing in {rowtime}");
    }
    // The derived table declares a watermark: `$rowtime` is not its rowtime there.
    let audit = expand(&[
        "--target",
        "confluent",
        "--table",
        "orders_audit",
        "--describe",
    ]);
    let rowtime = row(&audit, "$rowtime");
    assert_eq!(rowtime[2], "TIMESTAMP_LTZ(3)");
    assert_eq!(rowtime[6], "");
    // flink-next: the declared `$partition` is a system column; the aliased key is not.
    let show = expand(&["--target", "flink-next", "--table", "orders"]);
    let describe = expand(&["--target", "flink-next", "--table", "orders", "--describe"]);
    assert!(!show.contains("$partition") && show.contains("kafka_offset"));
    assert_eq!(row(&describe, "$partition")[7], "system");
    assert_eq!(row(&describe, "kafka_offset")[7], "metadata virtual");
    // Apache Flink 2.3: nothing is reserved.
    let show = expand(&["--target", "flink-2.3", "--table", "orders"]);
    assert!(show.contains("`$partition` INT METADATA VIRTUAL"));
}

#[test]
fn describe_names_where_each_column_came_from() {
    let describe = expand(&["--table", "orders_audit", "--describe"]);
    let order_id = row(&describe, "order_id");
    assert_eq!(order_id[8], format!("inherited from `orders` at {CASE}:14"));
    assert_eq!(order_id[4], "PRI(order_id)");
    let audited_at = row(&describe, "audited_at");
    assert_eq!(audited_at[8], format!("declared at {CASE}:28"));
    assert_eq!(audited_at[2], "TIMESTAMP_LTZ(3) *ROWTIME*");
}

#[test]
fn describe_of_a_view_is_a_usage_error() {
    let dir = common::TempDir::new("describe-view");
    std::fs::write(dir.0.join("v.sql"), "CREATE VIEW v AS SELECT 1 AS a;\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_flinklint"))
        .current_dir(&dir.0)
        .args(["expand", "v.sql", "--table", "v", "--describe"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is a view"));
}
