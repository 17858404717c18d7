//! `--write-baseline` / `--baseline`: a round trip through the binary. Recorded findings stay
//! silent when lines move or whitespace and comments change; a new finding, or one more copy
//! of a recorded one, is reported; entries that no longer occur are listed.

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

struct Project {
    dir: PathBuf,
}

impl Project {
    fn new(name: &str) -> Project {
        let dir =
            std::env::temp_dir().join(format!("flinklint-baseline-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        // A config file makes the folder the project root.
        std::fs::write(dir.join(".flinklint.yaml"), "").unwrap();
        Project { dir }
    }
    fn write(&self, rel: &str, text: &str) {
        let path = self.dir.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    fn run(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_flinklint"))
            .args(args)
            .current_dir(&self.dir)
            .env("NO_COLOR", "1")
            .env_remove("GITHUB_ACTIONS")
            .output()
            .expect("run flinklint")
    }
}

impl Drop for Project {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

/// `(code, line)` of every finding.
fn found(out: &Output) -> Vec<(String, u64)> {
    json(out)["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_string(),
                d["line"].as_u64().unwrap(),
            )
        })
        .collect()
}

const JOB: &str = "CREATE TABLE orders (id INT, status STRING) WITH ('connector' = 'datagen');
SELECT id FROM orders WHERE status = \"open\";
SELECT id FROM orders WHERE status = \"open\";
SELECT id FROM orders WHERE status = ‘paid’;
";

#[test]
fn baseline_round_trip() {
    let p = Project::new("round-trip");
    p.write("jobs/job.sql", JOB);
    p.write("jobs/other.sql", "SELECT 1;\n");
    let out = p.run(&["check", "--format", "json", "."]);
    assert_eq!(found(&out).len(), 3);
    assert_eq!(out.status.code(), Some(1));

    // Write: nothing on standard output, exit 0, a sorted JSON file with counts.
    let out = p.run(&["check", "--write-baseline", "baseline.json", "."]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("wrote 3 finding(s)"));
    let baseline: Value =
        serde_json::from_str(&std::fs::read_to_string(p.dir.join("baseline.json")).unwrap())
            .unwrap();
    assert_eq!(baseline["version"], 1);
    let entries = baseline["findings"].as_array().unwrap();
    assert_eq!(entries.len(), 2, "{baseline:#}");
    assert_eq!(entries[0]["file"], "jobs/job.sql");
    let counts: Vec<u64> = entries
        .iter()
        .map(|e| e["count"].as_u64().unwrap())
        .collect();
    assert!(
        counts.contains(&2),
        "the two identical SY003 are one entry: {baseline:#}"
    );

    // Re-run: nothing new.
    let check = |p: &Project| {
        p.run(&[
            "check",
            "--format",
            "json",
            "--baseline",
            "baseline.json",
            ".",
        ])
    };
    let out = check(&p);
    assert_eq!(found(&out), [], "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(json(&out)["baseline"]["gone"], serde_json::json!([]));

    // Lines added above, whitespace and comments changed: still nothing new.
    let shifted = format!(
        "-- moved down\n\n\n{}",
        JOB.replace("WHERE status", "WHERE   -- why\n  status")
    );
    p.write("jobs/job.sql", &shifted);
    let out = check(&p);
    assert_eq!(found(&out), [], "{}", String::from_utf8_lossy(&out.stderr));

    // A new finding, and a third copy of a recorded one: only those are reported.
    p.write(
        "jobs/job.sql",
        &format!("{shifted}SELECT id FROM orders WHERE status = \"open\";\nSELECT \"new\";\n"),
    );
    let out = check(&p);
    let codes: Vec<String> = found(&out).into_iter().map(|f| f.0).collect();
    assert_eq!(
        codes,
        ["SY003", "SY003"],
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(out.status.code(), Some(1));

    // Corrected findings are listed as gone (stderr and JSON), and a finding in another file
    // with the same statement is new.
    p.write("jobs/job.sql", "SELECT 1;\n");
    p.write(
        "jobs/other.sql",
        "SELECT id FROM orders WHERE status = ‘paid’;\n",
    );
    let out = check(&p);
    assert_eq!(found(&out).len(), 1);
    let gone = json(&out)["baseline"]["gone"].clone();
    let gone_counts: u64 = gone
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["count"].as_u64().unwrap())
        .sum();
    assert_eq!(gone_counts, 3, "{gone:#}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("3 finding(s) of the baseline baseline.json no longer occur"),
        "{stderr}"
    );
    assert!(stderr.contains("jobs/job.sql SY003 (x2)"), "{stderr}");

    // A missing or malformed baseline is a usage error.
    let out = p.run(&["check", "--baseline", "missing.json", "."]);
    assert_eq!(out.status.code(), Some(2));
    p.write("bad.json", "{\"version\": 9, \"findings\": []}");
    let out = p.run(&["check", "--baseline", "bad.json", "."]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("version 9"));
}

#[test]
fn baseline_paths_are_relative_to_the_project_root() {
    let p = Project::new("root-relative");
    p.write("jobs/job.sql", JOB);
    let out = p.run(&["check", "--write-baseline", "b.json", "jobs"]);
    assert_eq!(out.status.code(), Some(0));
    // The same files reached through another path from a sub-folder.
    let out = Command::new(env!("CARGO_BIN_EXE_flinklint"))
        .args(["check", "--format", "json", "--baseline", "../b.json", "."])
        .current_dir(p.dir.join("jobs"))
        .output()
        .unwrap();
    assert_eq!(found(&out), []);
}
