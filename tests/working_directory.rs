//! What a run reports does not depend on the working directory: a folder argument is checked
//! against the rest of its project (as a file argument is), the deployment model's nearest
//! creators are found the same from any folder, and the formats that programs read name files
//! relative to the repository (`GITHUB_WORKSPACE`, the git work tree, else the project root).

use crate::common::{self, isolated_command, TempDir};
use std::path::Path;
use std::process::Output;

fn run(cwd: &Path, args: &[&str]) -> Output {
    isolated_command(env!("CARGO_BIN_EXE_flinklint"), cwd)
        .args(args)
        .env("NO_COLOR", "1")
        .env_remove("GITHUB_ACTIONS")
        .env_remove("GITHUB_WORKSPACE")
        .output()
        .expect("run flinklint")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn write(dir: &Path, rel: &str, text: &str) {
    let path = dir.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A git repository whose jobs use the tables of `ddl/`; `ddl/` also holds a finding (a
/// reserved word as an alias) that a run over `jobs` must not report.
fn jobs_and_ddl() -> TempDir {
    let tmp = TempDir::new("workdir-jobs");
    common::git(&tmp.0, &["init", "-q"]);
    write(
        &tmp.0,
        "ddl/tables.sql",
        "CREATE TABLE orders (id INT, amount INT) WITH ('connector' = 'datagen');\n\
         SELECT 1 AS value;\n\
         CREATE TABLE totals (id INT, amount INT) WITH ('connector' = 'blackhole');\n",
    );
    write(
        &tmp.0,
        "jobs/job.sql",
        "INSERT INTO totals SELECT id, amount FROM orders;\n",
    );
    tmp
}

#[test]
fn a_folder_argument_reads_the_rest_of_its_project_as_context() {
    let tmp = jobs_and_ddl();
    let jobs = tmp.0.join("jobs");
    for (cwd, arg) in [
        (&tmp.0, "jobs"),
        (&jobs, "."),
        (&tmp.0, "jobs/job.sql"),
        (&jobs, "job.sql"),
    ] {
        for cache in [&[][..], &["--no-cache"][..]] {
            let mut args = vec!["check", "--format", "concise"];
            args.extend_from_slice(cache);
            args.push(arg);
            let out = run(cwd, &args);
            assert_eq!(
                out.status.code(),
                Some(0),
                "check {arg} from {}: {}{}",
                cwd.display(),
                stdout(&out),
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
    // The context is read, not reported on: the whole project has the SY004 of ddl/.
    let out = run(&tmp.0, &["check", "--format", "concise", "."]);
    assert!(stdout(&out).contains("SY004"), "{}", stdout(&out));
    // `explain` reads the same context.
    for (cwd, arg) in [(&tmp.0, "jobs"), (&jobs, "."), (&jobs, "job.sql")] {
        let out = run(cwd, &["explain", arg]);
        assert!(
            stdout(&out)
                .contains("TableSourceScan(table=[[default_catalog, default_database, orders]]"),
            "explain {arg} from {}: {}",
            cwd.display(),
            stdout(&out)
        );
    }
}

/// Two scripts at the root define `orders` one way each, a third in `other/` another way, and
/// a job in `jobs/` uses it: the nearest creators (the root's two) are the same whether the
/// run starts at the root or in `jobs/`, and the JSON report is identical.
#[test]
fn findings_do_not_depend_on_the_working_directory() {
    let tmp = TempDir::new("workdir-nearest");
    common::git(&tmp.0, &["init", "-q"]);
    write(
        &tmp.0,
        "a.sql",
        "CREATE TABLE orders (id INT) WITH ('connector' = 'datagen');\n",
    );
    write(
        &tmp.0,
        "b.sql",
        "CREATE TABLE orders (id BIGINT) WITH ('connector' = 'datagen');\n",
    );
    write(
        &tmp.0,
        "other/c.sql",
        "CREATE TABLE orders (id STRING) WITH ('connector' = 'datagen');\n",
    );
    write(
        &tmp.0,
        "jobs/job.sql",
        "CREATE TABLE out_t (id INT) WITH ('connector' = 'blackhole');\nINSERT INTO out_t SELECT 1 FROM orders;\n",
    );
    let jobs = tmp.0.join("jobs");
    let from_root = run(&tmp.0, &["check", "--format", "json", "--no-cache", "jobs"]);
    assert!(
        stdout(&from_root).contains("with 2 different definitions"),
        "{}",
        stdout(&from_root)
    );
    for (cwd, args) in [
        (&jobs, &["check", "--format", "json", "--no-cache", "."][..]),
        (&jobs, &["check", "--format", "json", "."][..]),
        (&jobs, &["check", "--format", "json", "job.sql"][..]),
        (&tmp.0, &["check", "--format", "json", "jobs/job.sql"][..]),
    ] {
        let out = run(cwd, args);
        assert_eq!(
            stdout(&out),
            stdout(&from_root),
            "{args:?} from {}",
            cwd.display()
        );
    }
}

/// `--format github` (and every format programs read) names files relative to the git work
/// tree, or `GITHUB_WORKSPACE`, whatever the working directory and wherever the config file
/// is; `human` and `concise` stay relative to the working directory.
#[test]
fn machine_formats_name_files_relative_to_the_repository() {
    let tmp = TempDir::new("workdir-paths");
    common::git(&tmp.0, &["init", "-q"]);
    write(&tmp.0, "app/.flinklint.yaml", "target: flink-2.3\n");
    write(&tmp.0, "app/jobs/job.sql", "SELECT 1 AS value;\n");
    let jobs = tmp.0.join("app/jobs");
    let expected = "app/jobs/job.sql";
    for (cwd, arg) in [
        (&jobs, "."),
        (&jobs, "./job.sql"),
        (&tmp.0, "./app/jobs"),
        (&tmp.0, "app"),
    ] {
        let github = stdout(&run(cwd, &["check", "--format", "github", arg]));
        assert!(
            github.contains(&format!("::error file={expected},line=1")),
            "github, {arg} from {}: {github}",
            cwd.display()
        );
        let json: serde_json::Value =
            serde_json::from_str(&stdout(&run(cwd, &["check", "--format", "json", arg]))).unwrap();
        assert_eq!(json["diagnostics"][0]["file"], expected, "json, {arg}");
        let gitlab: serde_json::Value =
            serde_json::from_str(&stdout(&run(cwd, &["check", "--format", "gitlab", arg])))
                .unwrap();
        assert_eq!(gitlab[0]["location"]["path"], expected, "gitlab, {arg}");
        let sarif: serde_json::Value =
            serde_json::from_str(&stdout(&run(cwd, &["check", "--format", "sarif", arg]))).unwrap();
        assert_eq!(
            sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
                ["uri"],
            expected,
            "sarif, {arg}"
        );
        let junit = stdout(&run(cwd, &["check", "--format", "junit", arg]));
        assert!(
            junit.contains(&format!("name=\"{expected}\"")),
            "junit, {arg}: {junit}"
        );
    }
    let concise = stdout(&run(&jobs, &["check", "--format", "concise", "."]));
    assert!(concise.starts_with("job.sql:1:"), "{concise}");
    // Inside GitHub Actions the workspace is the repository that was checked out.
    let out = isolated_command(env!("CARGO_BIN_EXE_flinklint"), &jobs)
        .args(["check", "--format", "github", "."])
        .env("GITHUB_WORKSPACE", tmp.0.join("app"))
        .output()
        .unwrap();
    assert!(
        stdout(&out).contains("::error file=jobs/job.sql,line=1"),
        "{}",
        stdout(&out)
    );
}
