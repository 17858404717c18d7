//! Which files a run over individual files reads as context: the project root is the folder
//! of `.flinklint.yaml`, else the git work tree; outside both, only the given file's own folder
//! (without its subfolders), never the working directory (a run from a home folder or `/tmp`
//! must not read everything below it).

use crate::common::{isolated_command, TempDir};

fn check(cwd: &std::path::Path, file: &std::path::Path) -> String {
    let out = isolated_command(env!("CARGO_BIN_EXE_flinklint"), cwd)
        .args(["check", "--format", "concise", "--exit-zero"])
        .arg(file)
        .output()
        .expect("run flinklint");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Runs flinklint in `cwd` with `args`, `input` on standard input.
fn with_stdin(cwd: &std::path::Path, args: &[&str], input: &[u8]) -> std::process::Output {
    use std::io::Write;
    let mut child = isolated_command(env!("CARGO_BIN_EXE_flinklint"), cwd)
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run flinklint");
    // A run that refuses its arguments exits without reading: the pipe may be closed already.
    let _ = child.stdin.take().unwrap().write_all(input);
    child.wait_with_output().unwrap()
}

#[test]
fn a_file_outside_an_unmarked_working_directory_takes_its_own_folder_as_root() {
    let tmp = TempDir::new("context-root");
    let elsewhere = tmp.0.join("elsewhere");
    let project = tmp.0.join("project");
    std::fs::create_dir_all(elsewhere.join("migrations")).unwrap();
    std::fs::create_dir_all(project.join("migrations")).unwrap();
    // The working directory holds a history that defines `orders`...
    std::fs::write(
        elsewhere.join("migrations/V1__orders.sql"),
        "CREATE TABLE orders (id INT) WITH ('connector' = 'unchecked-test-connector');\n",
    )
    .unwrap();
    // ...and the checked migration's own history defines `customers`.
    std::fs::write(
        project.join("migrations/V1__customers.sql"),
        "CREATE TABLE customers (id INT) WITH ('connector' = 'unchecked-test-connector');\n",
    )
    .unwrap();
    let job = project.join("migrations/V2__job.sql");
    std::fs::write(
        &job,
        "INSERT INTO customers SELECT id FROM customers;\nINSERT INTO orders SELECT id FROM customers;\n",
    )
    .unwrap();
    let report = check(&elsewhere, &job);
    // The file's own folder is its context: `customers` is known, `orders` is not.
    assert!(
        !report.contains("customers`"),
        "customers should come from the file's project:\n{report}"
    );
    assert!(
        report.contains("CT002") && report.contains("orders`"),
        "the working directory's history must not be read:\n{report}"
    );
    // Run from inside the project, the same file sees the same context.
    assert!(check(&project, &job).contains("orders`"));
}

/// Without a config file or a git work tree, a file given alone reads only its own folder as
/// context (not its subfolders, not the working directory); `--verbose` says so.
#[test]
fn an_unmarked_file_reads_only_its_own_folder() {
    let tmp = TempDir::new("context-own-folder");
    let dir = tmp.0.join("dir");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(
        dir.join("sub/V1__orders.sql"),
        "CREATE TABLE orders (id INT) WITH ('connector' = 'unchecked-test-connector');\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("V1__customers.sql"),
        "CREATE TABLE customers (id INT) WITH ('connector' = 'unchecked-test-connector');\n",
    )
    .unwrap();
    let job = dir.join("V2__job.sql");
    std::fs::write(
        &job,
        "INSERT INTO customers SELECT id FROM customers;\nINSERT INTO orders SELECT id FROM customers;\n",
    )
    .unwrap();
    for cwd in [&tmp.0, &dir] {
        let report = check(cwd, &job);
        assert!(!report.contains("customers`"), "{report}");
        assert!(
            report.contains("orders`"),
            "a subfolder is not read: {report}"
        );
    }
    let out = isolated_command(env!("CARGO_BIN_EXE_flinklint"), &tmp.0)
        .args(["check", "--verbose", "--exit-zero", "dir/V2__job.sql"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("context root dir (the folder of a file given, without its subfolders"),
        "{err}"
    );
    assert!(
        err.contains("1 file(s) to check, 1 context file(s)"),
        "{err}"
    );
    // Marked by a git work tree, the whole tree is the context.
    crate::common::git(&dir, &["init", "-q"]);
    let out = isolated_command(env!("CARGO_BIN_EXE_flinklint"), &tmp.0)
        .args(["check", "--verbose", "--exit-zero", "dir/V2__job.sql"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("(the git work tree)"), "{err}");
    assert!(
        err.contains("1 file(s) to check, 2 context file(s)"),
        "{err}"
    );
}

/// Standard input named with `--stdin-filename` gets the context the named file gets: the
/// history before it and the tables other files create (no false CT002; CL011 found as when
/// the file is named).
#[test]
fn standard_input_gets_the_context_of_the_file_it_names() {
    let tmp = TempDir::new("stdin-context");
    let project = tmp.0.join("project");
    std::fs::create_dir_all(project.join("catalog")).unwrap();
    std::fs::create_dir_all(project.join("jobs")).unwrap();
    std::fs::write(project.join(".flinklint.yaml"), "target: flink-2.3\n").unwrap();
    std::fs::write(
        project.join("catalog/V1__orders.sql"),
        "CREATE TABLE orders (id INT, amount DOUBLE) WITH ('connector' = 'unchecked-test-connector');\n",
    )
    .unwrap();
    let job = "INSERT INTO orders (id) SELECT id, amount FROM orders;\n";
    // On disk, the file holds something else: standard input replaces it.
    std::fs::write(project.join("jobs/job.sql"), "SELECT 1;\n").unwrap();
    std::fs::write(project.join("jobs/named.sql"), job).unwrap();
    let named = check(&project, std::path::Path::new("jobs/named.sql"));
    let out = with_stdin(
        &project,
        &[
            "check",
            "--format",
            "concise",
            "--exit-zero",
            "-",
            "--stdin-filename",
            "jobs/job.sql",
        ],
        job.as_bytes(),
    );
    let piped = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(named.contains("CL011"), "named file: {named}");
    assert!(
        piped.contains("jobs/job.sql:1:25: CL011"),
        "standard input: {piped}"
    );
    assert!(!piped.contains("CT002"), "standard input: {piped}");
    assert_eq!(
        named.replace("jobs/named.sql", "jobs/job.sql"),
        piped,
        "standard input and the named file get the same findings"
    );
}

/// Standard input in a folder that is no project (no config file, no git work tree) reads no
/// context: an editor started in a home folder must not read everything below it.
#[test]
fn standard_input_in_an_unmarked_folder_reads_no_context() {
    let tmp = TempDir::new("stdin-unmarked");
    let dir = tmp.0.join("home");
    std::fs::create_dir_all(dir.join("elsewhere")).unwrap();
    // A history below the folder: read as context, it would define `orders`.
    std::fs::write(
        dir.join("elsewhere/V1__orders.sql"),
        "CREATE TABLE orders (id INT) WITH ('connector' = 'unchecked-test-connector');\n",
    )
    .unwrap();
    let out = with_stdin(
        &dir,
        &[
            "check",
            "--format",
            "concise",
            "--exit-zero",
            "-",
            "--stdin-filename",
            "scratch.sql",
        ],
        b"INSERT INTO orders SELECT 1;\n",
    );
    let report = String::from_utf8_lossy(&out.stdout).into_owned();
    // The history below is not read: `orders` is unknown.
    assert!(report.contains("CT002"), "{report}");
}

/// `--fix` never writes standard input over the file its --stdin-filename names.
#[test]
fn fix_refuses_standard_input() {
    let tmp = TempDir::new("stdin-fix");
    let dir = tmp.0.join("p");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("t.sql"), "SELECT 1;\n").unwrap();
    let out = with_stdin(
        &dir,
        &["check", "--fix", "-", "--stdin-filename", "t.sql"],
        b"CREATE TABLE t (id INT, PRIMARY KEY (id)) WITH ('connector' = 'unchecked-test-connector');\n",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--fix cannot write standard input"));
    assert_eq!(
        std::fs::read_to_string(dir.join("t.sql")).unwrap(),
        "SELECT 1;\n"
    );
}
