//! The GitHub Action (`action.yml`): its inputs reach the shell only through `env:` (no
//! expression inside any `run:` script), and its `run:` steps, executed here with bash as the
//! runner executes them (the `uses:` steps skipped), give the annotations, the SARIF file and
//! the exit code that each input asks for, on `examples/flink-project` and on small temporary
//! projects. Most runs skip the install step and put this build's binary on PATH; the release
//! download is run against a fake release folder (a `file://` server URL) holding this build's
//! binary in the release's archive, with its SHA256SUMS: a matching archive is installed and
//! used, a checksum mismatch is refused, and without a matching release the action builds.

use crate::common;

use crate::common::TempDir;
use flinklint::config::yaml;
use serde::Deserialize;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Action {
    name: String,
    description: String,
    #[allow(dead_code)]
    author: Option<String>,
    #[allow(dead_code)]
    branding: Option<BTreeMap<String, String>>,
    inputs: BTreeMap<String, ActionInput>,
    runs: Runs,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ActionInput {
    description: String,
    #[allow(dead_code)]
    required: Option<bool>,
    default: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Runs {
    using: String,
    steps: Vec<Step>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Step {
    name: Option<String>,
    id: Option<String>,
    #[serde(rename = "if")]
    condition: Option<String>,
    uses: Option<String>,
    with: Option<BTreeMap<String, String>>,
    shell: Option<String>,
    run: Option<String>,
    #[serde(default)]
    env: BTreeMap<String, String>,
}

fn action() -> Action {
    let text = std::fs::read_to_string(common::root().join("action.yml")).expect("action.yml");
    yaml::from_str(&text).unwrap_or_else(|e| panic!("action.yml: {e}"))
}

/// The `${{ ... }}` expressions of a text, trimmed.
fn expressions(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("${{") {
        let after = &rest[start + 3..];
        let end = after.find("}}").expect("an expression is closed");
        found.push(after[..end].trim().to_string());
        rest = &after[end + 2..];
    }
    found
}

#[test]
fn inputs_reach_the_shell_only_through_env() {
    let action = action();
    assert_eq!(action.name, "flinklint");
    assert!(!action.description.is_empty());
    assert_eq!(action.runs.using, "composite");
    let mut used = BTreeSet::new();
    for step in &action.runs.steps {
        let label = step.name.clone().unwrap_or_default();
        assert!(
            step.uses.is_some() != step.run.is_some(),
            "{label}: a step either uses an action or runs a script"
        );
        if let Some(run) = &step.run {
            assert!(
                !run.contains("${{"),
                "{label}: an expression inside `run:` (inputs go through env:)"
            );
            assert_eq!(step.shell.as_deref(), Some("bash"), "{label}");
        }
        let mut texts: Vec<&String> = step.env.values().collect();
        texts.extend(step.with.iter().flat_map(|w| w.values()));
        texts.extend(step.condition.iter());
        for text in texts {
            for e in expressions(text) {
                if let Some(name) = e.strip_prefix("inputs.") {
                    assert!(
                        action.inputs.contains_key(name),
                        "{label}: unknown input {name}"
                    );
                    used.insert(name.to_string());
                }
            }
        }
    }
    for (name, input) in &action.inputs {
        assert!(
            !input.description.is_empty(),
            "input {name} has no description"
        );
        assert!(used.contains(name), "input {name} is never used");
    }
    let defaults: BTreeMap<&str, Option<&str>> = action
        .inputs
        .iter()
        .map(|(k, v)| (k.as_str(), v.default.as_deref()))
        .collect();
    assert_eq!(defaults["format"], Some("github"));
    assert_eq!(defaults["paths"], Some("."));
    // The install step builds the action's own checkout with the locked dependencies.
    let install = action
        .runs
        .steps
        .iter()
        .find(|s| s.id.as_deref() == Some("install"))
        .and_then(|s| s.run.as_deref())
        .expect("a step with id `install`");
    assert!(install.contains(
        r#"cargo install --locked --root "$FLINKLINT_ROOT" --path "$GITHUB_ACTION_PATH""#
    ));
    assert!(action
        .runs
        .steps
        .iter()
        .any(|s| s.uses.as_deref() == Some("actions/cache@v5")));
}

/// What a local run of the action's steps gave: the last step's exit code and output.
#[derive(Debug)]
struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Evaluates the few expressions the action's `env:` values use.
fn evaluate(
    text: &str,
    inputs: &BTreeMap<String, String>,
    outputs: &BTreeMap<String, BTreeMap<String, String>>,
    github: &BTreeMap<&str, &str>,
) -> String {
    let mut value = text.to_string();
    for e in expressions(text) {
        let replacement = if let Some(name) = e.strip_prefix("inputs.") {
            inputs[name].clone()
        } else if let Some(rest) = e.strip_prefix("steps.") {
            let (id, name) = rest.split_once(".outputs.").expect("steps.ID.outputs.NAME");
            outputs
                .get(id)
                .and_then(|o| o.get(name))
                .cloned()
                .unwrap_or_default()
        } else if let Some(name) = e.strip_prefix("github.") {
            github.get(name).copied().unwrap_or_default().to_string()
        } else {
            panic!("an expression this test does not evaluate: {e}");
        };
        value = value.replace(&format!("${{{{ {e} }}}}"), &replacement);
    }
    value
}

/// How [`run_steps`] runs the action, beyond its inputs.
struct Runner<'a> {
    /// Run the install step (only its release-binary branch may run here: no cargo install).
    install: bool,
    /// Put this build's binary on PATH.
    build_on_path: bool,
    /// Stop after the step with this id.
    stop_after: Option<&'a str>,
    /// Values of the `github` context (`action_ref`, `action_repository`).
    github: BTreeMap<&'a str, &'a str>,
    /// More environment variables of the runner (RUNNER_OS, GITHUB_SERVER_URL, ...).
    env: Vec<(&'a str, String)>,
    /// GITHUB_ACTION_PATH (default: this repository).
    action_path: Option<PathBuf>,
    /// Folders put first on PATH (after those of GITHUB_PATH).
    path_first: Vec<PathBuf>,
}

impl Default for Runner<'_> {
    fn default() -> Self {
        Runner {
            install: false,
            build_on_path: true,
            stop_after: None,
            github: BTreeMap::new(),
            env: Vec::new(),
            action_path: None,
            path_first: Vec::new(),
        }
    }
}

/// What [`run_steps`] saw: the last step run, the steps' outputs, the lines of GITHUB_PATH.
#[derive(Debug)]
struct Steps {
    last: Run,
    /// The step ids that ran, in order.
    ran: Vec<String>,
    outputs: BTreeMap<String, BTreeMap<String, String>>,
    github_path: Vec<PathBuf>,
}

/// Runs the action's `run:` steps with bash as the runner does (`bash --noprofile --norc -eo
/// pipefail`), in `dir`, with `given` inputs over the defaults, stopping at the first failing
/// step. The `uses:` steps and the install step are skipped: this build's binary is on PATH.
fn run_action(dir: &Path, given: &[(&str, &str)]) -> Run {
    run_steps(dir, given, &Runner::default()).last
}

/// Runs the action's `run:` steps as [`run_action`] describes, as `runner` asks. A directory a
/// step appends to GITHUB_PATH comes first on the PATH of the steps after it.
fn run_steps(dir: &Path, given: &[(&str, &str)], runner: &Runner) -> Steps {
    let action = action();
    let mut inputs: BTreeMap<String, String> = action
        .inputs
        .iter()
        .map(|(k, v)| (k.clone(), v.default.clone().unwrap_or_default()))
        .collect();
    for (k, v) in given {
        assert!(inputs.contains_key(*k), "unknown input {k}");
        inputs.insert(k.to_string(), v.to_string());
    }
    let temp = TempDir::new("runner");
    let binary = PathBuf::from(env!("CARGO_BIN_EXE_flinklint"));
    let mut path_dirs: Vec<PathBuf> = runner.path_first.clone();
    if runner.build_on_path {
        path_dirs.push(binary.parent().unwrap().to_path_buf());
    }
    let system_path: Vec<PathBuf> =
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()).collect();
    let github_path_file = temp.0.join("path");
    std::fs::write(&github_path_file, "").unwrap();
    let action_path = runner.action_path.clone().unwrap_or_else(common::root);
    let mut outputs: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    let mut ran = Vec::new();
    let mut last = None;
    for (i, step) in action.runs.steps.iter().enumerate() {
        let Some(script) = &step.run else { continue };
        if step.id.as_deref() == Some("install") && !runner.install {
            continue;
        }
        let script_file = temp.0.join(format!("step{i}.sh"));
        std::fs::write(&script_file, script).unwrap();
        let output_file = temp.0.join(format!("output{i}"));
        std::fs::write(&output_file, "").unwrap();
        // GITHUB_PATH's lines, the last added first, before the PATH the steps started with.
        let added: Vec<PathBuf> = std::fs::read_to_string(&github_path_file)
            .unwrap()
            .lines()
            .rev()
            .map(PathBuf::from)
            .collect();
        let path = std::env::join_paths(
            added
                .iter()
                .chain(path_dirs.iter())
                .chain(system_path.iter()),
        )
        .unwrap();
        let mut cmd = common::isolated_command("bash", dir);
        cmd.args(["--noprofile", "--norc", "-eo", "pipefail"])
            .arg(&script_file)
            .env("PATH", &path)
            .env("HOME", &temp.0)
            .env("GITHUB_ACTIONS", "true")
            .env("GITHUB_ACTION_PATH", &action_path)
            .env("GITHUB_WORKSPACE", dir)
            .env("GITHUB_OUTPUT", &output_file)
            .env("GITHUB_PATH", &github_path_file)
            .env("GITHUB_ENV", temp.0.join("env"))
            .env("RUNNER_TEMP", &temp.0)
            .env_remove("RUNNER_OS")
            .env_remove("RUNNER_ARCH")
            .env_remove("GITHUB_SERVER_URL")
            .env_remove("NO_COLOR");
        for (k, v) in &runner.env {
            cmd.env(k, v);
        }
        for (k, v) in &step.env {
            cmd.env(k, evaluate(v, &inputs, &outputs, &runner.github));
        }
        let out = cmd.output().expect("run bash");
        if let Some(id) = &step.id {
            let text = std::fs::read_to_string(&output_file).unwrap();
            let values = text
                .lines()
                .filter_map(|l| l.split_once('='))
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            outputs.insert(id.clone(), values);
            ran.push(id.clone());
        }
        let run = Run {
            code: out.status.code(),
            stdout: String::from_utf8_lossy(&out.stdout).to_string(),
            stderr: String::from_utf8_lossy(&out.stderr).to_string(),
        };
        let stop =
            run.code != Some(0) || step.id.is_some() && step.id.as_deref() == runner.stop_after;
        last = Some(run);
        if stop {
            break;
        }
    }
    let github_path = std::fs::read_to_string(&github_path_file)
        .unwrap()
        .lines()
        .map(PathBuf::from)
        .collect();
    Steps {
        last: last.expect("the action has run steps"),
        ran,
        outputs,
        github_path,
    }
}

/// `(level, file, line, code)` of each `::error` / `::warning` / `::notice` annotation.
fn annotations(stdout: &str) -> BTreeSet<(String, String, u64, String)> {
    stdout
        .lines()
        .filter_map(|line| {
            let rest = line.strip_prefix("::")?;
            let (level, rest) = rest.split_once(' ')?;
            let (props, _message) = rest.split_once("::")?;
            let mut file = None;
            let mut line_no = None;
            let mut code = None;
            for prop in props.split(',') {
                let (k, v) = prop.split_once('=')?;
                match k {
                    "file" => file = Some(v.to_string()),
                    "line" => line_no = v.parse().ok(),
                    "title" => code = v.split(' ').next().map(str::to_string),
                    _ => {}
                }
            }
            Some((level.to_string(), file?, line_no?, code?))
        })
        .collect()
}

/// The same tuples from a SARIF log.
fn sarif_results(sarif: &Value) -> BTreeSet<(String, String, u64, String)> {
    sarif["runs"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| {
            let level = match r["level"].as_str().unwrap() {
                "note" => "notice",
                other => other,
            };
            let location = &r["locations"][0]["physicalLocation"];
            (
                level.to_string(),
                location["artifactLocation"]["uri"]
                    .as_str()
                    .unwrap()
                    .to_string(),
                location["region"]["startLine"].as_u64().unwrap(),
                r["ruleId"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn annotations_and_sarif_for_the_example_project() {
    let out_dir = TempDir::new("sarif");
    let sarif_path = out_dir.0.join("flinklint.sarif");
    let run = run_action(
        &common::root(),
        &[
            ("paths", "examples/flink-project"),
            ("sarif-file", sarif_path.to_str().unwrap()),
        ],
    );
    assert_eq!(run.code, Some(1), "{run:?}");
    let found = annotations(&run.stdout);
    // One annotation per finding (the summary line is not an annotation).
    let count = run.stdout.lines().filter(|l| l.starts_with("::")).count();
    assert_eq!(found.len(), count, "{}", run.stdout);
    for expected in [
        (
            "error",
            "examples/flink-project/catalog/V2__customers_and_products.sql",
            43,
            "TB001",
        ),
        (
            "error",
            "examples/flink-project/catalog/V5__derived_tables.sql",
            19,
            "LK005",
        ),
        (
            "warning",
            "examples/flink-project/jobs/legacy_erp_export.sql",
            10,
            "CT002",
        ),
        (
            "error",
            "examples/flink-project/jobs/orders_archive.sql",
            58,
            "SY003",
        ),
    ] {
        let expected = (
            expected.0.to_string(),
            expected.1.to_string(),
            expected.2,
            expected.3.to_string(),
        );
        assert!(found.contains(&expected), "{expected:?} in {}", run.stdout);
    }
    // The SARIF file holds the same findings.
    let sarif: Value =
        serde_json::from_str(&std::fs::read_to_string(&sarif_path).expect("the SARIF file"))
            .expect("SARIF is JSON");
    assert_eq!(sarif["version"], "2.1.0");
    assert_eq!(sarif_results(&sarif), found);
}

#[test]
fn fail_on_sets_the_exit_code() {
    // A project with warnings only: an INSERT into a table that no file defines (CT002).
    let project = TempDir::new("warnings");
    std::fs::write(project.0.join("job.sql"), "INSERT INTO missing SELECT 1;\n").unwrap();
    let example = common::root().join("examples/flink-project");
    for (dir, fail_on, code) in [
        (&project.0, "error", 0),
        (&project.0, "warning", 1),
        (&project.0, "never", 0),
        (&example, "error", 1),
        (&example, "warning", 1),
        (&example, "never", 0),
    ] {
        let run = run_action(dir, &[("fail-on", fail_on)]);
        assert_eq!(
            run.code,
            Some(code),
            "{fail_on} in {}: {run:?}",
            dir.display()
        );
        assert!(run.stdout.contains("::"), "{run:?}");
    }
    // The default is `warning`.
    assert_eq!(run_action(&project.0, &[]).code, Some(1));
    // An unknown level is a usage error.
    let run = run_action(&project.0, &[("fail-on", "sometimes")]);
    assert_eq!(run.code, Some(2), "{run:?}");
}

#[test]
fn paths_and_args_are_split_without_expansion() {
    let project = TempDir::new("words");
    let spaced = project.0.join("dir with space");
    std::fs::create_dir_all(&spaced).unwrap();
    std::fs::write(spaced.join("bad job.sql"), "SELECT \"x\";\n").unwrap();
    std::fs::write(project.0.join("other.sql"), "SELECT \"y\";\n").unwrap();
    std::fs::write(project.0.join("-dash.sql"), "SELECT \"z\";\n").unwrap();
    let run = run_action(
        &project.0,
        &[
            ("paths", "\"dir with space/bad job.sql\"\n-dash.sql"),
            ("args", "--target 'flink-2.2'"),
        ],
    );
    assert_eq!(run.code, Some(1), "{run:?}");
    let files: BTreeSet<String> = annotations(&run.stdout).into_iter().map(|a| a.1).collect();
    assert_eq!(
        files,
        BTreeSet::from([
            "dir with space/bad job.sql".to_string(),
            "-dash.sql".to_string()
        ])
    );

    // Shell syntax in an input is data: nothing runs, flinklint rejects the argument.
    for args in [
        "$(touch pwned)",
        "`touch pwned`",
        "; touch pwned",
        "--target flink-2.2 && touch pwned",
    ] {
        let run = run_action(&project.0, &[("args", args)]);
        assert_eq!(run.code, Some(2), "{args}: {run:?}");
        assert!(!project.0.join("pwned").exists(), "{args}");
    }
    let run = run_action(&project.0, &[("paths", "*.sql")]);
    assert_eq!(run.code, Some(2), "a glob is not expanded: {run:?}");
    assert!(run.stderr.contains("path does not exist: *.sql"), "{run:?}");
    let run = run_action(&project.0, &[("paths", "'unclosed")]);
    assert_eq!(run.code, Some(2), "{run:?}");
    assert!(run.stderr.contains("unmatched quote"), "{run:?}");
}

#[test]
fn changed_since_reports_only_changed_files() {
    let repo = TempDir::new("changed");
    let git = |args: &[&str]| common::git(&repo.0, args);
    // The example project, committed; then one job changes.
    let example = common::root().join("examples/flink-project");
    for dir in ["catalog", "jobs"] {
        std::fs::create_dir_all(repo.0.join(dir)).unwrap();
        for file in common::sql_files(&example.join(dir)) {
            std::fs::copy(&file, repo.0.join(dir).join(file.file_name().unwrap())).unwrap();
        }
    }
    git(&["init", "-q"]);
    git(&["add", "-A"]);
    git(&["commit", "-q", "-m", "example"]);
    let job = repo.0.join("jobs/revenue_per_minute.sql");
    let mut text = std::fs::read_to_string(&job).unwrap();
    text.push_str("\nINSERT INTO orders_archive SELECT * FROM orders WHERE order_id = \"1\";\n");
    std::fs::write(&job, text).unwrap();

    let run = run_action(&repo.0, &[("changed-since", "HEAD")]);
    assert_eq!(run.code, Some(1), "{run:?}");
    let found = annotations(&run.stdout);
    assert!(!found.is_empty());
    assert!(
        found.iter().all(|a| a.1 == "jobs/revenue_per_minute.sql"),
        "{found:?}"
    );
    assert!(found.iter().any(|a| a.3 == "SY003"), "{found:?}");
    let run = run_action(&repo.0, &[("changed-since", "no-such-ref")]);
    assert_eq!(run.code, Some(2), "{run:?}");
    assert!(run.stderr.contains("unknown git revision"), "{run:?}");
}

/// The SHA-256 of a file, in hex (sha256sum, or shasum on macOS).
fn sha256(file: &Path) -> String {
    let out = std::process::Command::new("sha256sum")
        .arg(file)
        .output()
        .or_else(|_| {
            std::process::Command::new("shasum")
                .args(["-a", "256"])
                .arg(file)
                .output()
        })
        .expect("sha256sum or shasum");
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout).unwrap()[..64].to_string()
}

/// A fake GitHub server for the release downloads: `server/owner/flinklint/releases/download/
/// vVERSION/` holds `flinklint-TARGET.tar.gz` (this build's binary in `flinklint-TARGET/`, as the
/// release workflow packs it) and SHA256SUMS, whose line for the archive is `sums_line` applied
/// to the archive's real line.
fn fake_release(server: &Path, target: &str, sums_line: impl Fn(String) -> String) {
    let release = server
        .join("owner/flinklint/releases/download")
        .join(format!("v{}", env!("CARGO_PKG_VERSION")));
    let name = format!("flinklint-{target}");
    let staging = server.join("staging").join(&name);
    std::fs::create_dir_all(&staging).unwrap();
    std::fs::create_dir_all(&release).unwrap();
    std::fs::copy(env!("CARGO_BIN_EXE_flinklint"), staging.join("flinklint")).unwrap();
    let archive = release.join(format!("{name}.tar.gz"));
    let status = std::process::Command::new("tar")
        .arg("-C")
        .arg(server.join("staging"))
        .arg("-czf")
        .arg(&archive)
        .arg(&name)
        .status()
        .expect("tar");
    assert!(status.success());
    let line = sums_line(format!("{}  {name}.tar.gz", sha256(&archive)));
    std::fs::write(
        release.join("SHA256SUMS"),
        format!("0000000000000000000000000000000000000000000000000000000000000000  flinklint-0.0.0.tar.gz\n{line}\n"),
    )
    .unwrap();
}

/// A runner on Linux X64 whose GitHub server is the fake one in `server`.
fn linux_runner(server: &Path) -> Vec<(&'static str, String)> {
    vec![
        ("RUNNER_OS", "Linux".to_string()),
        ("RUNNER_ARCH", "X64".to_string()),
        ("GITHUB_SERVER_URL", format!("file://{}", server.display())),
    ]
}

/// The folder a runner downloads `owner/flinklint@REF` to (`.../_actions/owner/flinklint/REF`):
/// a link to this repository under `parent`.
fn downloaded_action(parent: &Path, reference: &str) -> PathBuf {
    let dir = parent.join("_actions/owner/flinklint");
    std::fs::create_dir_all(&dir).unwrap();
    let link = dir.join(reference);
    #[cfg(unix)]
    std::os::unix::fs::symlink(common::root(), &link).unwrap();
    link
}

#[test]
fn the_release_binary_is_verified_and_used() {
    let server = TempDir::new("release-server");
    fake_release(&server.0, "x86_64-unknown-linux-musl", |line| line);
    let tag = format!("v{}", env!("CARGO_PKG_VERSION"));
    let actions = TempDir::new("actions");
    let paths = [("paths", "examples/flink-project")];
    let with_version = [
        ("paths", "examples/flink-project"),
        ("version", env!("CARGO_PKG_VERSION")),
    ];
    // The action at the release tag: its ref from the runner, or from the folder it was
    // downloaded to (the runner may leave github.action_ref empty in a composite action); or
    // on a branch with the `version` input.
    /// Inputs, the `github` context, GITHUB_ACTION_PATH.
    type Case<'a> = (
        &'a [(&'a str, &'a str)],
        BTreeMap<&'a str, &'a str>,
        Option<PathBuf>,
    );
    let cases: [Case; 3] = [
        (
            &paths,
            BTreeMap::from([
                ("action_ref", tag.as_str()),
                ("action_repository", "owner/flinklint"),
            ]),
            None,
        ),
        (
            &paths,
            BTreeMap::new(),
            Some(downloaded_action(&actions.0, &tag)),
        ),
        (
            &with_version,
            BTreeMap::from([
                ("action_ref", "main"),
                ("action_repository", "owner/flinklint"),
            ]),
            None,
        ),
    ];
    for (inputs, github, action_path) in cases {
        let steps = run_steps(
            &common::root(),
            inputs,
            &Runner {
                install: true,
                build_on_path: false,
                github: github.clone(),
                env: linux_runner(&server.0),
                action_path,
                ..Runner::default()
            },
        );
        let context = format!("{github:?}: {steps:?}");
        assert_eq!(
            steps.ran,
            ["prepare", "download", "install", "check"],
            "{context}"
        );
        let bin = PathBuf::from(&steps.outputs["download"]["bin"]);
        assert!(
            bin.ends_with("flinklint-x86_64-unknown-linux-musl"),
            "{context}"
        );
        assert_eq!(steps.github_path, [bin], "{context}");
        // The downloaded binary ran: the example's findings, as annotations.
        assert_eq!(steps.last.code, Some(1), "{context}");
        assert!(
            annotations(&steps.last.stdout)
                .iter()
                .any(|a| a.3 == "LK005"),
            "{context}"
        );
    }
}

#[test]
fn a_checksum_mismatch_is_refused() {
    let tag = format!("v{}", env!("CARGO_PKG_VERSION"));
    let github = BTreeMap::from([
        ("action_ref", tag.as_str()),
        ("action_repository", "owner/flinklint"),
    ]);
    let wrong = |line: String| format!("{}{}", "f".repeat(64), &line[64..]);
    let missing = |line: String| line.replace("musl.tar.gz", "gnu.tar.gz");
    let starred = |line: String| line.replace("  ", " *");
    for (sums, refused) in [
        (
            &wrong as &dyn Fn(String) -> String,
            Some("checksum mismatch"),
        ),
        (
            &missing,
            Some("has no checksum for flinklint-x86_64-unknown-linux-musl.tar.gz"),
        ),
        (&starred, None),
    ] {
        let server = TempDir::new("release-server");
        fake_release(&server.0, "x86_64-unknown-linux-musl", sums);
        let steps = run_steps(
            &common::root(),
            &[],
            &Runner {
                install: true,
                github: github.clone(),
                env: linux_runner(&server.0),
                stop_after: Some("install"),
                ..Runner::default()
            },
        );
        match refused {
            Some(message) => {
                assert_eq!(steps.ran, ["prepare", "download"], "{steps:?}");
                assert_eq!(steps.last.code, Some(1), "{steps:?}");
                assert!(steps.last.stderr.contains(message), "{steps:?}");
                assert!(
                    steps.last.stderr.contains("refusing to install it"),
                    "{steps:?}"
                );
                assert!(!steps.outputs["download"].contains_key("bin"), "{steps:?}");
                assert!(steps.github_path.is_empty(), "{steps:?}");
            }
            None => {
                // `sha256sum --binary` writes "DIGEST *NAME": accepted too.
                assert_eq!(steps.ran, ["prepare", "download", "install"], "{steps:?}");
                assert_eq!(steps.last.code, Some(0), "{steps:?}");
                assert_eq!(steps.github_path.len(), 1, "{steps:?}");
            }
        }
    }
}

#[test]
fn without_a_matching_release_the_action_builds() {
    let server = TempDir::new("release-server");
    fake_release(&server.0, "x86_64-unknown-linux-musl", |line| line);
    let tag = format!("v{}", env!("CARGO_PKG_VERSION"));
    let repository = ("action_repository", "owner/flinklint");
    // A fake cargo: records its arguments and "installs" this build's binary into --root.
    let tools = TempDir::new("fake-cargo");
    let cargo = tools.0.join("cargo");
    std::fs::write(
        &cargo,
        format!(
            "#!/bin/sh\nprintf '%s\\n' \"$@\" >\"{log}\"\nwhile [ \"$1\" != --root ]; do shift; done\nmkdir -p \"$2/bin\"\ncp \"{binary}\" \"$2/bin/flinklint\"\n",
            log = tools.0.join("cargo-args").display(),
            binary = env!("CARGO_BIN_EXE_flinklint"),
        ),
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&cargo, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    for (what, reference, arch, os) in [
        ("the action on a branch", "main", "X64", "Linux"),
        (
            "a commit of the action",
            "0123456789abcdef0123456789abcdef01234567",
            "X64",
            "Linux",
        ),
        (
            "no archive for the platform in the release",
            tag.as_str(),
            "ARM64",
            "Linux",
        ),
        (
            "a platform without release binaries",
            tag.as_str(),
            "X64",
            "FreeBSD",
        ),
    ] {
        let _ = std::fs::remove_file(tools.0.join("cargo-args"));
        let mut env = linux_runner(&server.0);
        env.retain(|(k, _)| *k == "GITHUB_SERVER_URL");
        env.push(("RUNNER_OS", os.to_string()));
        env.push(("RUNNER_ARCH", arch.to_string()));
        let steps = run_steps(
            &common::root(),
            &[("paths", "examples/flink-project")],
            &Runner {
                install: true,
                build_on_path: false,
                github: BTreeMap::from([("action_ref", reference), repository]),
                env,
                path_first: vec![tools.0.clone()],
                ..Runner::default()
            },
        );
        assert_eq!(
            steps.ran,
            ["prepare", "download", "install", "check"],
            "{what}: {steps:?}"
        );
        assert!(
            !steps.outputs["download"].contains_key("bin"),
            "{what}: {steps:?}"
        );
        let args = std::fs::read_to_string(tools.0.join("cargo-args"))
            .unwrap_or_else(|_| panic!("{what}: cargo install did not run: {steps:?}"));
        let args: Vec<&str> = args.lines().collect();
        let root = &steps.outputs["prepare"]["root"];
        assert_eq!(
            args,
            [
                "install",
                "--locked",
                "--root",
                root.as_str(),
                "--path",
                common::root().to_str().unwrap()
            ],
            "{what}"
        );
        assert_eq!(steps.github_path, [Path::new(root).join("bin")], "{what}");
        assert_eq!(steps.last.code, Some(1), "{what}: {steps:?}");
    }
}
