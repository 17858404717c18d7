//! `flinklint expand` on tables it cannot expand: the message says why, and nothing claims the
//! inputs are free of problems.

use crate::common;

use crate::common::TempDir;

fn expand(dir: &TempDir, args: &[&str]) -> (i32, String, String) {
    let out = common::isolated_command(env!("CARGO_BIN_EXE_flinklint"), &dir.0)
        .arg("expand")
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("run flinklint");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

fn project(text: &str) -> TempDir {
    let dir = TempDir::new("expand-cli");
    std::fs::write(dir.0.join("x.sql"), text).unwrap();
    dir
}

#[test]
fn missing_like_parent_is_named_as_the_reason() {
    let dir = project("CREATE TABLE t (b INT) WITH ('connector' = 'datagen') LIKE p;\n");
    let (code, stdout, stderr) = expand(&dir, &["x.sql", "--table", "t"]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(
        stderr.contains("the LIKE parent `p` is not defined in the given files"),
        "{stderr}"
    );
    assert!(!stdout.contains("No problems found"), "{stdout}");
    assert!(!stderr.contains("has errors in its definition"), "{stderr}");
}

#[test]
fn ctas_over_unknown_tables_is_named_as_the_reason() {
    let dir =
        project("CREATE TABLE c WITH ('connector' = 'blackhole') AS SELECT * FROM nowhere;\n");
    let (code, stdout, stderr) = expand(&dir, &["x.sql", "--table", "c"]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(
        stderr.contains("its query reads tables or views"),
        "{stderr}"
    );
    assert!(!stdout.contains("No problems found"), "{stdout}");
}

#[test]
fn file_outside_the_inputs_is_reported_as_such() {
    let dir = project("CREATE TABLE t (b INT) WITH ('connector' = 'datagen');\n");
    let (code, _, stderr) = expand(&dir, &["x.sql", "--table", "t", "--file", "nonexist.sql"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("`nonexist.sql` is not among the input files"),
        "{stderr}"
    );
    // The file that is an input still selects its session.
    let (code, stdout, stderr) = expand(&dir, &["x.sql", "--table", "t", "--file", "x.sql"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("`b` INT"), "{stdout}");
}

#[test]
fn table_without_columns_prints_flinks_empty_column_block() {
    let dir = project("CREATE TABLE z WITH ('connector' = 'datagen');\n");
    let (code, stdout, stderr) = expand(&dir, &["x.sql", "--table", "z"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("`z` (\n\n)\nWITH ("), "{stdout}");
}
