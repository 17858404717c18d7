//! `.flinklint.yaml`: discovery, precedence of flags over the file, overrides, exclusion,
//! histories and external tables, errors with their line and column (snapshots), and the JSON
//! Schema against every config file of the repository.

use crate::common;

use flinklint::config::{self, file::KEYS, CliSettings, Level, Target};
use flinklint::discover::{self, Input};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A throwaway project folder under the system's temporary folder.
struct Project {
    dir: PathBuf,
}

impl Project {
    fn new(name: &str) -> Project {
        let dir =
            std::env::temp_dir().join(format!("flinklint-config-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Project { dir }
    }
    fn file(&self, rel: &str, text: &str) -> &Project {
        let path = self.dir.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
        self
    }
    fn path(&self, rel: &str) -> PathBuf {
        self.dir.join(rel)
    }
    /// Runs `flinklint` in `cwd` (relative to the project).
    fn run_in(&self, cwd: &str, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_flinklint"))
            .args(args)
            .current_dir(self.dir.join(cwd))
            .env("NO_COLOR", "1")
            .env_remove("GITHUB_ACTIONS")
            .output()
            .expect("run flinklint")
    }
    fn run(&self, args: &[&str]) -> Output {
        self.run_in("", args)
    }
}

impl Drop for Project {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// `(file, code, severity)` of every finding of a `--format json` run.
fn findings(out: &Output) -> Vec<(String, String, String)> {
    let doc: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)));
    doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                // `check .` shows `./a.sql`, as walking `.` reaches it.
                d["file"]
                    .as_str()
                    .unwrap()
                    .trim_start_matches("./")
                    .to_string(),
                d["code"].as_str().unwrap().to_string(),
                d["severity"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn codes(out: &Output) -> Vec<String> {
    findings(out).into_iter().map(|f| f.1).collect()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

const DOUBLE_QUOTED: &str = "SELECT * FROM (VALUES (1)) AS t(id) WHERE \"x\" = 1;\n";
/// CREATE OR ALTER MATERIALIZED TABLE: Flink 2.2 and later (SY005 on flink-1.20).
const CREATE_OR_ALTER: &str = "CREATE TABLE src (id INT) WITH ('connector' = 'datagen');\nCREATE OR ALTER MATERIALIZED TABLE m FRESHNESS = INTERVAL '1' MINUTE AS SELECT id FROM src;\n";

#[test]
fn the_config_is_found_above_the_working_directory_and_its_folder_is_the_root() {
    let p = Project::new("discovery");
    p.file(
        ".flinklint.yaml",
        "rules:\n  SY003: info\nexclude: [/jobs/old/]\n",
    )
    .file("jobs/a.sql", DOUBLE_QUOTED)
    .file("jobs/old/b.sql", DOUBLE_QUOTED);
    let out = p.run_in("jobs", &["check", "--format", "json", "."]);
    // Patterns are relative to the config's folder, not to the working directory; so are the
    // paths of the JSON report.
    assert_eq!(
        findings(&out),
        [(
            "jobs/a.sql".to_string(),
            "SY003".to_string(),
            "info".to_string()
        )],
        "{}",
        stderr(&out)
    );
    // info does not fail the run at the default fail-on (warning).
    assert_eq!(out.status.code(), Some(0));

    // --config names another file; its folder becomes the root.
    p.file("other/strict.yaml", "rules:\n  SY003: error\n");
    let out = p.run_in(
        "jobs",
        &[
            "check",
            "--format",
            "json",
            "--config",
            "../other/strict.yaml",
            ".",
        ],
    );
    assert_eq!(codes(&out), ["SY003", "SY003"]);
    assert_eq!(out.status.code(), Some(1));

    let out = p.run(&["check", "--config", "missing.yaml", "."]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("cannot read config file missing.yaml"));
}

#[test]
fn without_a_config_the_root_is_the_git_work_tree() {
    let p = Project::new("gitroot");
    p.file(".git/HEAD", "ref: refs/heads/main\n")
        .file("sub/dir/a.sql", "SELECT 1;\n");
    let settings = config::resolve(&p.path("sub/dir"), &CliSettings::default()).unwrap();
    assert_eq!(settings.root, Some(config::glob::absolute(&p.dir)));
    assert!(settings.config_file.is_none());
}

#[test]
fn flags_win_over_the_file() {
    let p = Project::new("precedence");
    p.file(
        ".flinklint.yaml",
        "target: flink-1.20\nfail-on: info\nrules:\n  SY003: off\n",
    )
    .file("a.sql", CREATE_OR_ALTER)
    .file("b.sql", DOUBLE_QUOTED);
    let out = p.run(&["check", "--format", "json", "."]);
    assert_eq!(codes(&out), ["SY005"], "{}", stderr(&out));
    let out = p.run(&["check", "--format", "json", "--target", "flink-2.3", "."]);
    assert_eq!(codes(&out), Vec::<String>::new());
    assert_eq!(out.status.code(), Some(0));

    // --select runs only the named rules (and turns an `off` back on); --ignore wins.
    let out = p.run(&["check", "--format", "json", "--select", "SY003", "."]);
    assert_eq!(codes(&out), ["SY003"]);
    let out = p.run(&[
        "check",
        "--format",
        "json",
        "--select",
        "SY",
        "--ignore",
        "double-quoted-literal",
        ".",
    ]);
    assert_eq!(codes(&out), ["SY005"]);

    // fail-on: the file's `info` fails on the SY005 error, the flag's `never` does not.
    let out = p.run(&["check", "."]);
    assert_eq!(out.status.code(), Some(1));
    let out = p.run(&["check", "--fail-on", "never", "."]);
    assert_eq!(out.status.code(), Some(0));
    let out = p.run(&["check", "--exit-zero", "."]);
    assert_eq!(out.status.code(), Some(0));

    let out = p.run(&["check", "--select", "SY03", "."]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--select: unknown rule `SY03`; did you mean `SY003`?"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn rule_levels_replace_severities_and_off_drops_findings() {
    let p = Project::new("levels");
    p.file(".flinklint.yaml", "rules:\n  SY: warning\n  SY005: info\n")
        .file("a.sql", CREATE_OR_ALTER)
        .file("b.sql", DOUBLE_QUOTED);
    let out = p.run(&["check", "--format", "json", "--target", "flink-1.20", "."]);
    assert_eq!(
        findings(&out),
        [
            ("a.sql".into(), "SY005".into(), "info".into()),
            ("b.sql".into(), "SY003".into(), "warning".into())
        ]
    );
}

#[test]
fn overrides_set_target_and_levels_per_folder() {
    let p = Project::new("overrides");
    p.file(
        ".flinklint.yaml",
        "target: flink-2.3\nrules:\n  SY003: warning\noverrides:\n  - paths: [legacy/]\n    target: flink-1.20\n    rules:\n      SY003: off\n  - paths: [legacy/keep/]\n    rules:\n      SY003: error\n",
    )
    .file("jobs/a.sql", &format!("{CREATE_OR_ALTER}{DOUBLE_QUOTED}"))
    .file("legacy/b.sql", &format!("{CREATE_OR_ALTER}{DOUBLE_QUOTED}"))
    .file("legacy/keep/c.sql", DOUBLE_QUOTED);
    let out = p.run(&["check", "--format", "json", "."]);
    assert_eq!(
        findings(&out),
        [
            ("jobs/a.sql".into(), "SY003".into(), "warning".into()),
            ("legacy/b.sql".into(), "SY005".into(), "error".into()),
            ("legacy/keep/c.sql".into(), "SY003".into(), "error".into()),
        ],
        "{}",
        stderr(&out)
    );
    // --target wins over the overrides' targets.
    let out = p.run(&["check", "--format", "json", "--target", "flink-2.3", "."]);
    assert!(!codes(&out).contains(&"SY005".to_string()));

    // The library API: one file's settings.
    let settings = config::resolve(&p.dir, &CliSettings::default()).unwrap();
    let legacy = settings.for_file(&p.path("legacy/keep/c.sql"));
    assert_eq!(legacy.target, Target::Flink120);
    assert_eq!(legacy.level("SY003"), Some(Level::Error));
    assert_eq!(
        settings.for_file(&p.path("jobs/a.sql")).target,
        Target::Flink23
    );
}

#[test]
fn excluded_paths_are_skipped_unless_named_or_forced() {
    let p = Project::new("exclude");
    p.file(
        ".flinklint.yaml",
        "exclude:\n  - /generated/\n  - \"*.tmp.sql\"\n",
    )
    .file(".gitignore", "/build/\n")
    .file("jobs/a.sql", DOUBLE_QUOTED)
    .file("jobs/b.tmp.sql", DOUBLE_QUOTED)
    .file("generated/c.sql", DOUBLE_QUOTED)
    .file("build/d.sql", DOUBLE_QUOTED);
    let files = |out: &Output| -> Vec<String> { findings(out).into_iter().map(|f| f.0).collect() };
    let out = p.run(&["check", "--format", "json", "."]);
    assert_eq!(files(&out), ["jobs/a.sql"], "{}", stderr(&out));
    // Named explicitly: checked (like ruff), unless --force-exclude.
    let out = p.run(&[
        "check",
        "--format",
        "json",
        "generated/c.sql",
        "jobs/b.tmp.sql",
    ]);
    assert_eq!(files(&out), ["generated/c.sql", "jobs/b.tmp.sql"]);
    let out = p.run(&[
        "check",
        "--format",
        "json",
        "--force-exclude",
        "generated/c.sql",
        "jobs/b.tmp.sql",
        "jobs/a.sql",
    ]);
    assert_eq!(files(&out), ["jobs/a.sql"]);
    // A folder named explicitly is walked, its contents still filtered.
    let out = p.run(&["check", "--format", "json", "generated"]);
    assert_eq!(files(&out), ["generated/c.sql"]);
    // respect-gitignore: false reads what .gitignore ignores.
    p.file(
        ".flinklint.yaml",
        "exclude: [/generated/, \"*.tmp.sql\"]\nrespect-gitignore: false\n",
    );
    let out = p.run(&["check", "--format", "json", "."]);
    assert_eq!(files(&out), ["build/d.sql", "jobs/a.sql"]);
}

#[test]
fn a_named_folder_is_checked_even_when_a_pattern_covers_its_contents() {
    let p = Project::new("exclude-named-folder");
    p.file(
        ".flinklint.yaml",
        "exclude:\n  - \"legacy/**\"\n  - \"*.tmp.sql\"\n",
    )
    .file("legacy/a.sql", DOUBLE_QUOTED)
    .file("legacy/b.tmp.sql", DOUBLE_QUOTED)
    .file("jobs/c.sql", DOUBLE_QUOTED);
    let files = |out: &Output| -> Vec<String> { findings(out).into_iter().map(|f| f.0).collect() };
    let out = p.run(&["check", "--format", "json", "."]);
    assert_eq!(files(&out), ["jobs/c.sql"], "{}", stderr(&out));
    // Named: `legacy/**` does not apply inside it; `*.tmp.sql` still does.
    let out = p.run(&["check", "--format", "json", "legacy"]);
    assert_eq!(files(&out), ["legacy/a.sql"], "{}", stderr(&out));
    let out = p.run(&[
        "check",
        "--format",
        "json",
        "--force-exclude",
        "legacy",
        "jobs",
    ]);
    assert_eq!(files(&out), ["jobs/c.sql"], "{}", stderr(&out));
}

/// `scripts` marks a numbered folder as independent scripts: a tutorial whose steps each
/// create `orders` (without DROP) and whose third step reads it is a history by its names,
/// where the second CREATE clashes (CT001); listed under `scripts`, each step is a script of
/// its own and the third sees the `orders` the others agree on. `histories` wins over it.
#[test]
fn configured_scripts_are_never_a_history() {
    let p = Project::new("scripts");
    let create = "CREATE TABLE orders (id INT, amount INT) WITH ('connector' = 'datagen');\n";
    p.file("tutorial/01_create_orders.sql", create)
        .file(
            "tutorial/02_totals.sql",
            &format!("{create}CREATE TABLE totals (amount INT) WITH ('connector' = 'blackhole');\nINSERT INTO totals SELECT amount FROM orders;\n"),
        )
        .file(
            "tutorial/03_report.sql",
            "CREATE TABLE report (id INT) WITH ('connector' = 'blackhole');\nINSERT INTO report SELECT id FROM orders;\n",
        );
    let out = p.run(&["check", "--format", "json", "."]);
    assert!(
        codes(&out).contains(&"CT001".to_string()),
        "a history by its names: {:?} {}",
        codes(&out),
        stderr(&out)
    );
    for config in ["scripts: [tutorial]\n", "scripts: [\"tutorial/\"]\n"] {
        p.file(".flinklint.yaml", config);
        let out = p.run(&["check", "--format", "json", "."]);
        assert_eq!(
            codes(&out),
            Vec::<String>::new(),
            "{config}: {}",
            stderr(&out)
        );
        let files = p.run(&["files", "."]);
        let text = String::from_utf8_lossy(&files.stdout);
        assert!(!text.contains("history"), "{config}: {text}");
    }
    p.file(
        ".flinklint.yaml",
        "scripts: [tutorial]\nhistories: [tutorial]\n",
    );
    let out = p.run(&["check", "--format", "json", "."]);
    assert!(
        codes(&out).contains(&"CT001".to_string()),
        "{:?}",
        codes(&out)
    );
    // A pattern that is not a glob is a config error, as for `histories`.
    p.file(".flinklint.yaml", "scripts: tutorial\n");
    let out = p.run(&["check", "."]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

#[test]
fn configured_histories_apply_in_their_order() {
    let p = Project::new("histories");
    let create = "CREATE TABLE t (id INT) WITH ('connector' = 'datagen');\n";
    let alter = "ALTER TABLE t ADD c STRING;\n";
    p.file("db/a_create.sql", create)
        .file("db/b_alter.sql", alter)
        .file(
            "order.txt",
            "# newest first, by mistake\nb_alter.sql\na_create.sql\n",
        );
    // Not a history by its names: two scripts; b sees the t that a creates (`catalog: auto`),
    // and not with `catalog: session`.
    let out = p.run(&["check", "--format", "json", "."]);
    assert_eq!(codes(&out), Vec::<String>::new(), "{}", stderr(&out));
    p.file(".flinklint.yaml", "catalog: session\n");
    let out = p.run(&["check", "--format", "json", "."]);
    assert!(
        codes(&out).contains(&"CT002".to_string()),
        "{:?}",
        codes(&out)
    );
    for (config, expect_unknown) in [
        ("histories: [db]\n", false),
        (
            "histories:\n  - path: db\n    order: lexicographic\n",
            false,
        ),
        ("histories:\n  - path: db\n    order: order.txt\n", true),
    ] {
        p.file(".flinklint.yaml", config);
        let out = p.run(&["check", "--format", "json", "."]);
        assert_eq!(
            codes(&out).contains(&"CT002".to_string()),
            expect_unknown,
            "{config}: {:?} {}",
            codes(&out),
            stderr(&out)
        );
    }
}

#[test]
fn external_tables_are_applied_first_and_never_reported() {
    let p = Project::new("external");
    p.file(
        "external/erp.sql",
        "CREATE TABLE erp_orders (id INT, \"bad\" STRING) WITH ('connector' = 'jdbc');\nCREATE TABLE erp_orders2 (id INT) WITH ('connector' = 'jdbc');\n",
    )
    .file(
        "jobs/export.sql",
        "INSERT INTO erp_orders2 SELECT id FROM (VALUES (1)) AS v(id);\n",
    );
    // The job alone: nothing it reads creates the table.
    let out = p.run(&["check", "--format", "json", "jobs"]);
    assert!(
        codes(&out).contains(&"CT002".to_string()),
        "{:?}",
        codes(&out)
    );
    p.file(".flinklint.yaml", "external-tables: [external/]\n");
    for args in [
        &["check", "--format", "json", "."][..],
        &["check", "--format", "json", "jobs/export.sql"],
    ] {
        let out = p.run(args);
        assert_eq!(
            codes(&out),
            Vec::<String>::new(),
            "{args:?}: {}",
            stderr(&out)
        );
        let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(doc["files_checked"], 1, "{args:?}");
    }
    p.file(
        ".flinklint.yaml",
        "external-tables: [\"external/**/*.sql\"]\n",
    );
    let out = p.run(&["check", "--format", "json", "jobs"]);
    assert_eq!(codes(&out), Vec::<String>::new(), "{}", stderr(&out));
}

#[test]
fn the_external_tables_flag_adds_to_the_config() {
    let p = Project::new("external-flag");
    // DDL of another repository, beside the project.
    let other = format!(
        "../flinklint-config-{}-external-flag-platform",
        std::process::id()
    );
    p.file(
        &format!("{other}/erp.sql"),
        "CREATE TABLE erp_orders (id INT) WITH ('connector' = 'jdbc');\n",
    )
    .file(
        &format!("{other}/more/customers.sql"),
        "CREATE TABLE erp_customers (id INT) WITH ('connector' = 'jdbc');\n",
    )
    .file(
        "jobs/export.sql",
        "INSERT INTO erp_orders SELECT id FROM (VALUES (1)) AS v(id);\nINSERT INTO erp_customers SELECT id FROM (VALUES (1)) AS v(id);\n",
    );
    let out = p.run(&["check", "--format", "json", "jobs"]);
    assert_eq!(codes(&out), ["CT002", "CT002"], "{}", stderr(&out));
    assert_eq!(out.status.code(), Some(1));
    // A file and a folder, relative to the working directory.
    let erp = format!("{other}/erp.sql");
    let more = format!("{other}/more");
    let out = p.run(&[
        "check",
        "--format",
        "json",
        "--external-tables",
        &erp,
        "--external-tables",
        &more,
        "jobs",
    ]);
    assert_eq!(codes(&out), Vec::<String>::new(), "{}", stderr(&out));
    assert_eq!(out.status.code(), Some(0));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        doc["files_checked"], 1,
        "the external files are not reported on"
    );
    // Beside the config file's list.
    p.file(".flinklint.yaml", &format!("external-tables: [{erp}]\n"));
    let out = p.run(&[
        "check",
        "--format",
        "json",
        "--external-tables",
        &more,
        "jobs",
    ]);
    assert_eq!(codes(&out), Vec::<String>::new(), "{}", stderr(&out));
    // A path that does not exist is a usage error.
    let out = p.run(&["check", "--external-tables", "nowhere.sql", "jobs"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--external-tables: `nowhere.sql` does not exist"),
        "{}",
        stderr(&out)
    );
    let _ = std::fs::remove_dir_all(p.path(&other));
}

#[test]
fn the_catalog_key_chooses_the_deployment_model() {
    let p = Project::new("catalog-model");
    p.file(
        "ddl/orders.sql",
        "CREATE TABLE orders (id INT, amount DOUBLE) WITH ('connector' = 'datagen');\nCREATE TABLE totals (id INT, total DOUBLE) WITH ('connector' = 'print');\n",
    )
    .file(
        "jobs/totals.sql",
        "CREATE TABLE orders (id INT, amount DOUBLE) WITH ('connector' = 'datagen');\nINSERT INTO totals SELECT id, amount FROM orders;\n",
    );
    // The default, `auto`: the job sees `totals` of ddl/orders.sql and keeps its own `orders`.
    let out = p.run(&["check", "--format", "json", "."]);
    assert_eq!(codes(&out), Vec::<String>::new(), "{}", stderr(&out));
    assert_eq!(out.status.code(), Some(0));
    p.file(".flinklint.yaml", "catalog: session\n");
    let out = p.run(&["check", "--format", "json", "."]);
    assert_eq!(
        findings(&out),
        [("jobs/totals.sql".into(), "CT002".into(), "warning".into())]
    );
    // One catalog, in dependency order: the job runs after ddl/orders.sql and creates `orders`
    // again.
    p.file(".flinklint.yaml", "catalog: persistent\n");
    let out = p.run(&["check", "--format", "json", "."]);
    assert_eq!(
        findings(&out),
        [("jobs/totals.sql".into(), "CT001".into(), "error".into())]
    );
    p.file(".flinklint.yaml", "catalog: persistant\n");
    let out = p.run(&["check", "."]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("did you mean `persistent`?"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn platform_settings_are_parsed_and_stored() {
    let settings = config::resolve(
        Path::new("."),
        &CliSettings {
            config: Some(common::root().join("fixtures/config/ok_full.yaml")),
            ..CliSettings::default()
        },
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(settings.target, Target::Flink22);
    assert_eq!(settings.system_column_prefix.as_deref(), Some("$"));
    assert_eq!(
        settings.system_columns,
        [(
            "$rowtime".to_string(),
            "TIMESTAMP_LTZ(3) NOT NULL".to_string()
        )]
    );
    assert!(settings.require_suppression_reason);
    assert_eq!(settings.extensions, ["sql", "fsql"]);
    assert_eq!(settings.histories.len(), 3);
    assert_eq!(
        settings.histories[2].order,
        config::HistoryOrder::Listed(vec![
            "create_orders.sql".to_string(),
            "add_customers.sql".to_string()
        ])
    );
    assert_eq!(settings.level("LK005"), Some(Level::Error));
    assert_eq!(settings.level("LK001"), Some(Level::Warning));
    assert_eq!(settings.level("MT002"), Some(Level::Off));
    assert_eq!(settings.level("SY004"), Some(Level::Error));
    assert_eq!(settings.overrides.len(), 2);
}

#[test]
fn bad_configs_point_at_the_yaml() {
    let dir = common::root().join("fixtures/config");
    let snapshots = common::snapshot_settings(&dir);
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        if !name.starts_with("err_") {
            continue;
        }
        seen += 1;
        let rel = PathBuf::from("fixtures/config").join(path.file_name().unwrap());
        let out = Command::new(env!("CARGO_BIN_EXE_flinklint"))
            .args(["check", "--config"])
            .arg(&rel)
            .arg("fixtures/config")
            .current_dir(common::root())
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{name}");
        assert!(out.stdout.is_empty(), "{name}");
        let err = stderr(&out);
        assert!(err.contains("fixtures/config/err_"), "{name}: {err}");
        snapshots.bind(|| insta::assert_snapshot!(name, err));
    }
    assert!(seen >= 10);
}

#[test]
fn unknown_keys_and_rules_get_a_did_you_mean() {
    let err = |text: &str| {
        config::load::parse_config(Path::new("x.yaml"), text)
            .err()
            .unwrap_or_else(|| panic!("accepted: {text}"))
    };
    let e = err("fial-on: error\n");
    assert_eq!(e.message, "unknown key `fial-on`");
    assert!(e
        .help
        .as_deref()
        .unwrap()
        .starts_with("did you mean `fail-on`?"));
    assert_eq!(e.location, Some((1, 1)));
    let e = err("rules:\n  syntax-eror: off\n");
    assert!(
        e.message.contains("unknown rule `syntax-eror`"),
        "{}",
        e.message
    );
    assert_eq!(e.help.as_deref(), Some("did you mean `syntax-error`?"));
    assert_eq!(e.location, Some((2, 3)));
    let e = err("target: flink-2.30\n");
    assert!(e.help.as_deref().unwrap().contains("`flink-2.3`"), "{e:?}");
    let e = err("overrides:\n  - paths: [a]\n    rulez: {}\n");
    assert!(e.message.contains("unknown key `rulez`"), "{}", e.message);
    assert!(e.help.as_deref().unwrap().contains("`rules`"));
    assert_eq!(e.location.map(|l| l.0), Some(3));
}

/// The JSON Schema, compiled.
fn schema() -> (boon::Schemas, boon::SchemaIndex) {
    let path = common::root().join("docs/flinklint.schema.json");
    let schema: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    compiler
        .add_resource("file:///flinklint.schema.json", schema)
        .unwrap();
    let index = compiler
        .compile("file:///flinklint.schema.json", &mut schemas)
        .unwrap_or_else(|e| panic!("{e:#}"));
    (schemas, index)
}

/// A YAML file as JSON, read with the crate's one YAML reader.
fn yaml_as_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap();
    config::yaml::from_str::<Option<Value>>(&text)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .unwrap_or(Value::Null)
}

/// Every valid config file of the repository: the root's, the examples', and the `ok_`
/// fixtures.
fn valid_configs() -> Vec<PathBuf> {
    let root = common::root();
    let mut out = vec![root.join(".flinklint.yaml")];
    for entry in walkdir::WalkDir::new(root.join("examples")).sort_by_file_name() {
        let entry = entry.unwrap();
        if entry.file_name() == ".flinklint.yaml" {
            out.push(entry.into_path());
        }
    }
    for entry in std::fs::read_dir(root.join("fixtures/config")).unwrap() {
        let path = entry.unwrap().path();
        if path
            .file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with("ok_")
        {
            out.push(path);
        }
    }
    out.sort();
    out
}

#[test]
fn every_config_of_the_repository_is_valid_for_the_schema_and_flinklint() {
    let (schemas, index) = schema();
    let configs = valid_configs();
    assert!(configs.len() >= 5, "{configs:?}");
    assert!(configs
        .iter()
        .any(|p| p.ends_with("examples/flink-project/.flinklint.yaml")));
    for path in &configs {
        if let Err(e) = schemas.validate(&yaml_as_json(path), index) {
            panic!("{}: not valid for the schema:\n{e:#}", path.display());
        }
        let cli = CliSettings {
            config: Some(path.clone()),
            ..CliSettings::default()
        };
        if let Err(e) = config::resolve(&common::root(), &cli) {
            panic!(
                "{}: rejected by flinklint:\n{}",
                path.display(),
                e.render(false)
            );
        }
    }
}

#[test]
fn the_schema_rejects_structural_errors_and_lists_every_key() {
    let (schemas, index) = schema();
    for name in [
        "err_unknown_key",
        "err_bad_target",
        "err_bad_level",
        "err_bad_type",
        "err_override_unknown_key",
        "err_override_without_paths",
        "err_bad_start_mode",
        "err_bad_catalog",
        "err_connector_type",
    ] {
        let path = common::root().join(format!("fixtures/config/{name}.yaml"));
        assert!(
            schemas.validate(&yaml_as_json(&path), index).is_err(),
            "{name}: the schema accepts it"
        );
    }
    let path = common::root().join("docs/flinklint.schema.json");
    let schema: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let mut in_schema: Vec<&str> = schema["properties"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let mut keys = KEYS.to_vec();
    in_schema.sort_unstable();
    keys.sort_unstable();
    assert_eq!(
        in_schema, keys,
        "docs/flinklint.schema.json and config::file::KEYS"
    );
    let docs = std::fs::read_to_string(common::root().join("docs/configuration.md")).unwrap();
    for key in KEYS {
        assert!(
            docs.contains(&format!("### `{key}`")),
            "docs/configuration.md has no section for `{key}`"
        );
    }
}

#[test]
fn this_repository_does_not_read_its_fixtures_as_context() {
    let root = common::root();
    let settings = config::resolve(&root, &CliSettings::default()).unwrap();
    assert_eq!(
        settings.root.as_deref(),
        Some(config::glob::absolute(&root).as_path())
    );
    let file = root.join("fixtures/formats/project/quotes.sql");
    let inputs = vec![Input::File(file.clone())];
    let context = discover::context(&[file], &inputs, &settings);
    for input in &context {
        let rel = settings.relative_path(input.path());
        assert!(
            !["fixtures", "target", "examples", "bench-out"]
                .iter()
                .any(|d| rel.starts_with(d)),
            "{} is read as context",
            rel.display()
        );
    }
}

#[test]
fn system_column_types_must_be_flink_types() {
    let p = Project::new("system_column_types");
    p.file(
        "jobs/a.sql",
        "CREATE TABLE t (id INT) WITH ('connector' = 'datagen');\n",
    );
    p.file(
        ".flinklint.yaml",
        "target: confluent\nsystem-columns:\n  - name: $offset\n    type: NOT A TYPE((\n",
    );
    let out = p.run(&["check", "jobs"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("`NOT A TYPE((` is not a Flink SQL type"),
        "{err}"
    );
    assert!(err.contains(".flinklint.yaml:4:11"), "{err}");
    // A valid type is accepted.
    p.file(
        ".flinklint.yaml",
        "target: confluent\nsystem-columns:\n  - name: $offset\n    type: BIGINT NOT NULL\n",
    );
    let out = p.run(&["check", "jobs"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

/// `functions:` declares UDFs: calls to them are not unknown (QV020), a declared argument
/// list's count is checked (QV021), and a type that is not Flink SQL is a configuration error.
#[test]
fn declared_functions_are_checked() {
    let text =
        std::fs::read_to_string(common::root().join("fixtures/config/ok_functions.yaml")).unwrap();
    let load = |text: &str| {
        let parsed = config::load::parse_config(Path::new("x.yaml"), text).expect("parses");
        let mut settings = flinklint::config::Settings::default();
        config::load::apply(&mut settings, parsed, Path::new("x.yaml"), text).map(|_| settings)
    };
    let settings = load(&text).expect("valid");
    assert_eq!(settings.functions.len(), 3);
    let sql = "CREATE TABLE t (s STRING) WITH ('connector' = 'datagen');\n\
               SELECT parse_user_agent(s), anything_goes(s, s, s) FROM t;\n\
               SELECT PARSE_USER_AGENT(s, s) FROM t;\n\
               SELECT not_declared(s) FROM t;\n";
    let outcome = flinklint::check_texts(&[("a.sql".to_string(), sql.to_string())], &settings);
    let codes: Vec<(&str, u32)> = outcome
        .diagnostics
        .iter()
        .map(|d| (d.code, outcome.files[0].source.line_col(d.span.start).line))
        .collect();
    assert_eq!(codes, vec![("QV021", 3), ("QV020", 4)], "{codes:?}");
    let bad =
        std::fs::read_to_string(common::root().join("fixtures/config/err_function_type.yaml"))
            .unwrap();
    let Err(e) = load(&bad) else {
        panic!("a type that is not Flink SQL was accepted")
    };
    assert!(e.message.contains("not a Flink SQL type"), "{}", e.message);
}

/// `connectors:` declares a project's own connectors and formats (checked as Flink's factories
/// check theirs) and marks known ones unchecked; an enum without values is a configuration
/// error.
#[test]
fn declared_connectors_are_checked() {
    let load = |text: &str| {
        let parsed = config::load::parse_config(Path::new("x.yaml"), text).expect("parses");
        let mut settings = flinklint::config::Settings::default();
        config::load::apply(&mut settings, parsed, Path::new("x.yaml"), text).map(|_| settings)
    };
    let text =
        std::fs::read_to_string(common::root().join("fixtures/config/ok_connectors.yaml")).unwrap();
    let settings = load(&text).expect("valid");
    assert_eq!(settings.connectors.len(), 3);
    let sql = "CREATE TABLE src (id BIGINT) WITH ('connector' = 'datagen');\n\
               CREATE TABLE api (id BIGINT) WITH ('connector' = 'http-lookup', 'url' = 'http://x', 'format' = 'company-json', 'company-json.strict' = 'yes', 'header.X-Trace' = 'a', 'timout' = '1 s');\n\
               SELECT * FROM api;\n\
               CREATE TABLE api2 (id BIGINT) WITH ('connector' = 'http-lookup', 'method' = 'PUT');\n\
               SELECT * FROM api2;\n\
               INSERT INTO api SELECT * FROM src;\n\
               CREATE TABLE db (id BIGINT) WITH ('connector' = 'jdbc', 'no-such-key' = '1');\n\
               SELECT * FROM db;\n";
    let outcome = flinklint::check_texts(&[("a.sql".to_string(), sql.to_string())], &settings);
    let mut codes: Vec<(&str, u32)> = outcome
        .diagnostics
        .iter()
        .map(|d| (d.code, outcome.files[0].source.line_col(d.span.start).line))
        .collect();
    codes.sort();
    assert_eq!(
        codes,
        vec![
            ("CO001", 3),
            ("CO002", 5),
            ("CO003", 3),
            ("CO003", 5),
            ("CO004", 6)
        ],
        "{codes:?}"
    );
    // Without the configuration, neither custom connector is known: nothing is said about
    // them, and jdbc's catalog reports the unknown key.
    let plain = flinklint::config::Settings::default();
    let outcome = flinklint::check_texts(&[("a.sql".to_string(), sql.to_string())], &plain);
    let codes: Vec<&str> = outcome.diagnostics.iter().map(|d| d.code).collect();
    assert!(
        codes
            .iter()
            .all(|c| !c.starts_with("CO") || *c == "CO001" || *c == "CO002"),
        "{codes:?}"
    );
    assert!(codes.contains(&"CO001"), "{codes:?}");
    for name in ["err_connector_enum", "err_connector_type"] {
        let bad =
            std::fs::read_to_string(common::root().join(format!("fixtures/config/{name}.yaml")))
                .unwrap();
        let rejected = match config::load::parse_config(Path::new("x.yaml"), &bad) {
            Err(_) => true,
            Ok(parsed) => {
                let mut settings = flinklint::config::Settings::default();
                config::load::apply(&mut settings, parsed, Path::new("x.yaml"), &bad).is_err()
            }
        };
        assert!(rejected, "{name} accepted");
    }
}
