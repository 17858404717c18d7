//! Output formats of `flinklint check`: a snapshot of every format for the project in
//! `fixtures/formats/project/`, the SARIF output validated against the OASIS schema, the
//! fields GitLab requires, the JUnit output checked against the Jenkins `junit-10.xsd`, GitHub
//! workflow commands decoded back, the same findings in every format, and the command line
//! (`--output-file`, the default format inside GitHub Actions).

use crate::common;

use flinklint::config::Settings;
use flinklint::diagnostics::Severity;
use flinklint::discover::Input;
use flinklint::render;
use flinklint::Outcome;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::process::Command;

/// The project's files, relative to the repository root (the tests' working directory), so
/// that no output contains an absolute path.
const FILES: &[&str] = &[
    "fixtures/formats/project/clean.sql",
    "fixtures/formats/project/orders.sql",
    "fixtures/formats/project/quotes.sql",
];

fn check_project() -> Outcome {
    let inputs: Vec<Input> = FILES
        .iter()
        .map(|f| Input::File(PathBuf::from(f)))
        .collect();
    flinklint::check(&inputs, None, &Settings::default())
}

/// The folder the SARIF output names as the base of its relative paths (the command line
/// names its working directory): a fixed one, so that the snapshot does not change with the
/// machine.
const SARIF_BASE: &str = "/src/flink-jobs";

/// Every format, rendered as `flinklint check --format NAME` does (human without colour).
fn all_formats(outcome: &Outcome) -> Vec<(&'static str, String)> {
    let (files, diagnostics) = (&outcome.files, &outcome.diagnostics);
    let n = outcome.files_checked();
    let human = render::human::HumanOptions {
        color: false,
        width: 100,
    };
    vec![
        ("human", render::human::render(files, n, diagnostics, human)),
        ("concise", render::concise::render(files, n, diagnostics)),
        ("json", render::json::render(files, n, diagnostics)),
        (
            "sarif",
            render::sarif::render_with_base(files, diagnostics, Some(SARIF_BASE.as_ref())),
        ),
        ("github", render::github::render(files, n, diagnostics)),
        ("gitlab", render::gitlab::render(files, diagnostics)),
        ("junit", render::junit::render(files, diagnostics)),
    ]
}

fn format_text(outcome: &Outcome, name: &str) -> String {
    all_formats(outcome)
        .into_iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| text)
        .expect("a format of that name")
}

#[test]
fn the_fixture_has_what_the_formats_must_show() {
    let outcome = check_project();
    let found: Vec<(&str, Severity, bool, bool)> = outcome
        .diagnostics
        .iter()
        .map(|d| (d.code, d.severity, !d.related.is_empty(), d.fix.is_some()))
        .collect();
    assert_eq!(
        found,
        vec![
            ("LK005", Severity::Error, true, false),
            ("LK012", Severity::Info, true, false),
            ("CT002", Severity::Warning, false, false),
            ("SY002", Severity::Error, false, true),
        ]
    );
    assert_eq!(outcome.files_checked(), 3);
}

#[test]
fn formats_match_snapshots() {
    let root = common::root();
    let outcome = check_project();
    let settings = common::snapshot_settings(&root.join("fixtures/formats"));
    for (name, text) in all_formats(&outcome) {
        assert!(
            !text.contains(root.to_string_lossy().as_ref()),
            "{name}: absolute path in the output"
        );
        // The version changes with every release; the SARIF test checks it.
        let text = text.replace(
            &format!("\"version\": \"{}\"", env!("CARGO_PKG_VERSION")),
            "\"version\": \"[flinklint version]\"",
        );
        settings.bind(|| insta::assert_snapshot!(format!("project.{name}"), text));
    }
}

#[test]
fn every_format_carries_the_same_findings() {
    let outcome = check_project();
    let ds = &outcome.diagnostics;
    let severities: Vec<&str> = ds.iter().map(|d| d.severity.as_str()).collect();
    let codes: Vec<&str> = ds.iter().map(|d| d.code).collect();

    let concise = format_text(&outcome, "concise");
    let lines: Vec<&str> = concise.lines().collect();
    assert_eq!(lines.len(), ds.len() + 1);
    for (line, d) in lines.iter().zip(ds) {
        assert!(line.contains(&format!(" {} [{}] ", d.code, d.severity.as_str())));
    }
    assert_eq!(
        lines.last(),
        Some(&render::human::summary(3, ds).trim_end())
    );

    let json: Value = serde_json::from_str(&format_text(&outcome, "json")).unwrap();
    let items = json["diagnostics"].as_array().unwrap();
    let json_sev: Vec<&str> = items
        .iter()
        .map(|i| i["severity"].as_str().unwrap())
        .collect();
    assert_eq!(json_sev, severities);

    let sarif: Value = serde_json::from_str(&format_text(&outcome, "sarif")).unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let sarif_found: Vec<(&str, &str)> = results
        .iter()
        .map(|r| (r["ruleId"].as_str().unwrap(), r["level"].as_str().unwrap()))
        .collect();
    let expected: Vec<(&str, &str)> = ds
        .iter()
        .map(|d| (d.code, render::sarif::level(d.severity)))
        .collect();
    assert_eq!(sarif_found, expected);

    let github = format_text(&outcome, "github");
    let commands: Vec<&str> = github.lines().filter(|l| l.starts_with("::")).collect();
    let github_found: Vec<&str> = commands
        .iter()
        .map(|l| &l[2..l.find(' ').unwrap()])
        .collect();
    let expected: Vec<&str> = ds
        .iter()
        .map(|d| render::github::command(d.severity))
        .collect();
    assert_eq!(github_found, expected);

    let gitlab: Value = serde_json::from_str(&format_text(&outcome, "gitlab")).unwrap();
    let gitlab_found: Vec<(&str, &str)> = gitlab
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["check_name"].as_str().unwrap(),
                i["severity"].as_str().unwrap(),
            )
        })
        .collect();
    let expected: Vec<(&str, &str)> = ds
        .iter()
        .map(|d| (d.code, render::gitlab::severity(d.severity)))
        .collect();
    assert_eq!(gitlab_found, expected);

    let junit = format_text(&outcome, "junit");
    let doc = roxmltree::Document::parse(&junit).unwrap();
    let failures: Vec<(String, &str)> = doc
        .descendants()
        .filter(|n| n.has_tag_name("failure"))
        .map(|n| {
            let message = n.attribute("message").unwrap();
            (
                message.split(' ').next().unwrap().to_string(),
                n.attribute("type").unwrap(),
            )
        })
        .collect();
    let expected: Vec<(String, &str)> = ds
        .iter()
        .map(|d| (d.code.to_string(), d.severity.as_str()))
        .collect();
    assert_eq!(failures, expected);
    assert_eq!(codes.len(), 4);

    // The fix, in the formats that can carry one.
    let fixed: Vec<&str> = items
        .iter()
        .filter(|i| !i["fix"].is_null())
        .map(|i| i["code"].as_str().unwrap())
        .collect();
    let sarif_fixed: Vec<&str> = results
        .iter()
        .filter(|r| r.get("fixes").is_some())
        .map(|r| r["ruleId"].as_str().unwrap())
        .collect();
    assert_eq!(fixed, vec!["SY002"]);
    assert_eq!(sarif_fixed, fixed);
}

/// Compiles the vendored OASIS schema.
fn sarif_schema() -> (boon::Schemas, boon::SchemaIndex) {
    let path = common::root().join("fixtures/formats/sarif-schema-2.1.0.json");
    let schema: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(
        schema["id"],
        "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
    );
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    compiler.enable_format_assertions();
    compiler
        .add_resource("file:///sarif-schema-2.1.0.json", schema)
        .unwrap();
    let index = compiler
        .compile("file:///sarif-schema-2.1.0.json", &mut schemas)
        .unwrap_or_else(|e| panic!("{e:#}"));
    (schemas, index)
}

#[test]
fn sarif_is_valid_against_the_oasis_schema() {
    let (schemas, index) = sarif_schema();
    let outcome = check_project();
    let sarif: Value = serde_json::from_str(&format_text(&outcome, "sarif")).unwrap();
    if let Err(e) = schemas.validate(&sarif, index) {
        panic!("SARIF output is not valid against the 2.1.0 schema:\n{e:#}");
    }

    // The validator does reject what the schema forbids.
    let mut bad = sarif.clone();
    bad["runs"][0]["results"][0]["level"] = "info".into();
    assert!(schemas.validate(&bad, index).is_err(), "level `info`");
    let mut bad = sarif.clone();
    bad["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] =
        0.into();
    assert!(schemas.validate(&bad, index).is_err(), "line 0");
    let mut bad = sarif.clone();
    bad["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] =
        "a b<c>.sql".into();
    assert!(schemas.validate(&bad, index).is_err(), "uri with a space");

    // What the output must say beyond the schema.
    assert_eq!(sarif["version"], "2.1.0");
    let runs = sarif["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 1);
    let driver = &runs[0]["tool"]["driver"];
    assert_eq!(driver["name"], "flinklint");
    assert_eq!(driver["version"], env!("CARGO_PKG_VERSION"));
    let rules = driver["rules"].as_array().unwrap();
    let ids: Vec<&str> = rules.iter().map(|r| r["id"].as_str().unwrap()).collect();
    let codes: BTreeSet<&str> = outcome.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(ids, codes.iter().copied().collect::<Vec<_>>());
    for rule in rules {
        let meta = flinklint::rules::meta::find(rule["id"].as_str().unwrap()).unwrap();
        assert_eq!(rule["name"], meta.name);
        assert_eq!(rule["shortDescription"]["text"], meta.summary);
        assert_eq!(
            rule["defaultConfiguration"]["level"],
            render::sarif::level(meta.severity)
        );
    }
    for (result, d) in runs[0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .zip(&outcome.diagnostics)
    {
        let index = result["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[index]["id"], result["ruleId"]);
        assert_eq!(result["message"]["text"], d.message.as_str());
        assert_eq!(
            result["relatedLocations"].as_array().map_or(0, |r| r.len()),
            d.related.len()
        );
        assert_eq!(
            result["properties"]["flinkMessage"].as_str(),
            d.flink_message.as_deref()
        );
    }
    assert_eq!(runs[0]["columnKind"], "unicodeCodePoints");
    // Relative references with their base, and the base as an absolute folder URI.
    assert_eq!(
        runs[0]["originalUriBaseIds"]["%SRCROOT%"]["uri"],
        "file:///src/flink-jobs/"
    );
    for result in runs[0]["results"].as_array().unwrap() {
        let location = &result["locations"][0]["physicalLocation"]["artifactLocation"];
        assert_eq!(location["uriBaseId"], "%SRCROOT%", "{location}");
        let uri = location["uri"].as_str().unwrap();
        assert!(uri.starts_with("fixtures/formats/project/"), "{uri}");
    }
}

#[test]
fn sarif_names_the_working_directory_as_the_base_of_its_paths() {
    let tmp = crate::common::TempDir::new("formats-sarif-base");
    std::fs::create_dir_all(tmp.0.join("catalog")).unwrap();
    std::fs::write(tmp.0.join("catalog/x.sql"), "SELECT \"x\";\n").unwrap();
    let out = crate::common::isolated_command(env!("CARGO_BIN_EXE_flinklint"), &tmp.0)
        .args(["check", "--exit-zero", "--format", "sarif", "."])
        .output()
        .unwrap();
    let sarif: Value = serde_json::from_slice(&out.stdout).unwrap();
    let run = &sarif["runs"][0];
    let dir = std::fs::canonicalize(&tmp.0).unwrap();
    assert_eq!(
        run["originalUriBaseIds"]["%SRCROOT%"]["uri"].as_str(),
        render::sarif::base_uri(&dir).as_deref(),
        "{sarif:#}"
    );
    let location = &run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"];
    assert_eq!(location["uri"], "catalog/x.sql");
    assert_eq!(location["uriBaseId"], "%SRCROOT%");
    let (schemas, index) = sarif_schema();
    assert!(schemas.validate(&sarif, index).is_ok());
}

/// GitLab's Code Quality report format
/// (<https://docs.gitlab.com/ci/testing/code_quality/#code-quality-report-format>) requires,
/// for each object of the array: `description`, `check_name`, `fingerprint`, `severity` (one of
/// `info`, `minor`, `major`, `critical`, `blocker`), `location.path` (relative) and
/// `location.lines.begin` (or `location.positions.begin.line`).
#[test]
fn gitlab_objects_have_every_required_field() {
    let outcome = check_project();
    let report: Value = serde_json::from_str(&format_text(&outcome, "gitlab")).unwrap();
    let issues = report.as_array().expect("a JSON array");
    assert_eq!(issues.len(), outcome.diagnostics.len());
    let mut prints = BTreeSet::new();
    for issue in issues {
        for field in ["description", "check_name", "fingerprint", "severity"] {
            let value = issue[field].as_str().unwrap_or_default();
            assert!(!value.is_empty(), "{field} missing in {issue}");
        }
        assert!(["info", "minor", "major", "critical", "blocker"]
            .contains(&issue["severity"].as_str().unwrap()));
        let path = issue["location"]["path"].as_str().expect("location.path");
        assert!(path.starts_with("fixtures/formats/project/"), "{path}");
        assert!(issue["location"]["lines"]["begin"].as_u64().unwrap() >= 1);
        assert!(prints.insert(issue["fingerprint"].as_str().unwrap().to_string()));
    }
    // Identical across runs.
    assert_eq!(
        report,
        serde_json::from_str::<Value>(&format_text(&check_project(), "gitlab")).unwrap()
    );
}

/// What `junit-10.xsd` declares for one element.
#[derive(Debug, Default)]
struct ElementRule {
    attributes: BTreeSet<String>,
    required: BTreeSet<String>,
    children: BTreeSet<String>,
    text: bool,
}

/// The rules of the top-level `xs:element`s of the schema. Enough of XSD for this schema:
/// attributes, `ref`erenced child elements, and text in `mixed` or `xs:string` elements.
fn xsd_rules(xsd: &str) -> BTreeMap<String, ElementRule> {
    let doc = roxmltree::Document::parse(xsd).unwrap();
    let mut rules = BTreeMap::new();
    for element in doc
        .root_element()
        .children()
        .filter(|n| n.has_tag_name("element"))
    {
        let mut rule = ElementRule {
            text: element.attribute("type") == Some("xs:string"),
            ..ElementRule::default()
        };
        for n in element.descendants() {
            if n.has_tag_name("complexType") && n.attribute("mixed") == Some("true") {
                rule.text = true;
            }
            if n.has_tag_name("attribute") {
                let name = n.attribute("name").unwrap().to_string();
                if n.attribute("use") == Some("required") {
                    rule.required.insert(name.clone());
                }
                rule.attributes.insert(name);
            }
            if n.has_tag_name("element") && n != element {
                rule.children
                    .insert(n.attribute("ref").unwrap().to_string());
            }
        }
        rules.insert(element.attribute("name").unwrap().to_string(), rule);
    }
    rules
}

#[test]
fn junit_follows_the_jenkins_schema_and_lists_every_file() {
    let xsd =
        std::fs::read_to_string(common::root().join("fixtures/formats/junit-10.xsd")).unwrap();
    let rules = xsd_rules(&xsd);
    assert!(rules["testsuite"].required.contains("failures"));

    let outcome = check_project();
    let xml = format_text(&outcome, "junit");
    assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"));
    let doc = roxmltree::Document::parse(&xml).expect("well-formed XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    for node in root.descendants().filter(|n| n.is_element()) {
        let name = node.tag_name().name();
        let rule = rules
            .get(name)
            .unwrap_or_else(|| panic!("<{name}> not in the schema"));
        let attrs: BTreeSet<String> = node.attributes().map(|a| a.name().to_string()).collect();
        assert!(attrs.is_subset(&rule.attributes), "<{name}> {attrs:?}");
        assert!(
            rule.required.is_subset(&attrs),
            "<{name}> lacks {:?}",
            rule.required
        );
        for child in node.children() {
            if child.is_element() {
                let c = child.tag_name().name();
                assert!(rule.children.contains(c), "<{c}> inside <{name}>");
            } else if child.is_text() && !child.text().unwrap().trim().is_empty() {
                assert!(rule.text, "text inside <{name}>");
            }
        }
    }

    // One suite, one case per checked file (classname = path), one failure per finding.
    let suites: Vec<_> = root.children().filter(|n| n.is_element()).collect();
    assert_eq!(suites.len(), 1);
    assert_eq!(suites[0].attribute("name"), Some("flinklint"));
    let cases: Vec<_> = suites[0].children().filter(|n| n.is_element()).collect();
    let classnames: Vec<&str> = cases
        .iter()
        .map(|c| c.attribute("classname").unwrap())
        .collect();
    assert_eq!(classnames, FILES);
    assert_eq!(suites[0].attribute("tests"), Some("3"));
    assert_eq!(suites[0].attribute("failures"), Some("2"));
    let mut expected = outcome.diagnostics.iter();
    for case in &cases {
        for failure in case.children().filter(|n| n.is_element()) {
            let d = expected.next().expect("no more findings than failures");
            let path = case.attribute("classname").unwrap();
            assert_eq!(
                failure.attribute("message").unwrap(),
                format!("{} {}", d.code, d.message)
            );
            assert_eq!(failure.attribute("type"), Some(d.severity.as_str()));
            let (start, _) = render::line_cols(&outcome.files, d.file, d.span);
            assert_eq!(
                failure.text(),
                Some(format!("{path}:{}:{}", start.line, start.column).as_str())
            );
        }
    }
    assert!(expected.next().is_none());
}

/// Decodes a workflow command value as the Actions runner does.
fn unescape(s: &str) -> String {
    s.replace("%0D", "\r")
        .replace("%0A", "\n")
        .replace("%3A", ":")
        .replace("%2C", ",")
        .replace("%25", "%")
}

#[test]
fn github_commands_decode_to_the_findings() {
    // A path and a message with every character GitHub needs escaped.
    let settings = Settings::default();
    let texts = [(
        "odd,dir/50%:a.sql".to_string(),
        "SELECT ‘100%’;\n".to_string(),
    )];
    let outcome = flinklint::check_texts(&texts, &settings);
    assert!(!outcome.diagnostics.is_empty());
    let text = render::github::render(&outcome.files, 1, &outcome.diagnostics);
    let commands: Vec<&str> = text.lines().filter(|l| l.starts_with("::")).collect();
    assert_eq!(commands.len(), outcome.diagnostics.len());
    for (line, d) in commands.iter().zip(&outcome.diagnostics) {
        let rest = line.strip_prefix("::error ").expect("an error command");
        let (props, message) = rest.split_once("::").expect("`::` before the message");
        assert_eq!(unescape(message), d.message);
        let props: BTreeMap<&str, String> = props
            .split(',')
            .map(|p| {
                let (k, v) = p.split_once('=').unwrap();
                (k, unescape(v))
            })
            .collect();
        assert_eq!(props["file"], "odd,dir/50%:a.sql");
        assert_eq!(props["title"], format!("{} {}", d.code, d.name));
        let (start, end) = render::line_cols(&outcome.files, d.file, d.span);
        assert_eq!(props["line"], start.line.to_string());
        assert_eq!(props["col"], start.column.to_string());
        assert_eq!(props["endLine"], end.line.to_string());
        assert_eq!(props["endColumn"], end.column.to_string());
    }
    assert!(
        commands[0].contains("file=odd%2Cdir/50%25%3Aa.sql,"),
        "{}",
        commands[0]
    );
}

fn flinklint_cmd() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_flinklint"));
    cmd.current_dir(common::root())
        .env_remove("GITHUB_ACTIONS")
        .env_remove("NO_COLOR")
        .env_remove("COLUMNS");
    cmd
}

#[test]
fn the_human_report_wraps_at_columns_and_at_a_fixed_width_in_a_pipe() {
    let run = |columns: Option<&str>| {
        let mut cmd = flinklint_cmd();
        cmd.args(["check", "fixtures/formats/project"]);
        if let Some(c) = columns {
            cmd.env("COLUMNS", c);
        }
        String::from_utf8(cmd.output().unwrap().stdout).unwrap()
    };
    // Standard output is a pipe here: the fixed width, whatever the terminal of the tests.
    let piped = run(None);
    assert_eq!(piped, format_text(&check_project(), "human"));
    let narrow = run(Some("60"));
    assert_ne!(narrow, piped);
    // Messages and help wrap at 60 columns (source lines are shown as they are).
    for line in narrow.lines() {
        let t = line.trim_start();
        let source = t.starts_with(|c: char| c.is_ascii_digit()) || t.starts_with('·');
        if !source && !t.starts_with("╭─[") {
            assert!(line.chars().count() <= 60, "{line:?}\n{narrow}");
        }
    }
    // Not a number, or zero: the fixed width.
    assert_eq!(run(Some("wide")), piped);
    assert_eq!(run(Some("0")), piped);
    // Absurd widths are bounded and do not break the report.
    assert!(run(Some("1")).contains("LK005"));
    assert!(run(Some("99999999999999999999")).contains("LK005"));
}

#[test]
fn github_is_the_default_inside_github_actions() {
    let out = flinklint_cmd()
        .args(["check", "fixtures/formats/project/quotes.sql"])
        .env("GITHUB_ACTIONS", "true")
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.starts_with("::error file=fixtures/formats/project/quotes.sql,"),
        "{stdout}"
    );
    assert_eq!(out.status.code(), Some(1));

    // An explicit --format wins; any other value of GITHUB_ACTIONS changes nothing.
    for (env, args) in [("true", &["--format", "concise"][..]), ("false", &[][..])] {
        let out = flinklint_cmd()
            .args(["check", "fixtures/formats/project/quotes.sql"])
            .args(args)
            .env("GITHUB_ACTIONS", env)
            .output()
            .unwrap();
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert!(!stdout.starts_with("::"), "{stdout}");
    }
}

#[test]
fn output_file_receives_the_report() {
    let dir = std::env::temp_dir().join(format!("flinklint-formats-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for format in ["human", "sarif", "junit"] {
        let file = dir.join(format!("report.{format}"));
        let out = flinklint_cmd()
            .args(["check", "fixtures/formats/project", "--format", format])
            .arg("--output-file")
            .arg(&file)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{format}: findings exit with 1");
        assert!(
            out.stdout.is_empty(),
            "{format}: nothing on standard output"
        );
        let written = std::fs::read_to_string(&file).unwrap();
        let outcome = check_project();
        let expected = if format == "sarif" {
            // The command line names its working directory as the base of the paths.
            let base = std::fs::canonicalize(common::root()).unwrap();
            render::sarif::render_with_base(&outcome.files, &outcome.diagnostics, Some(&base))
        } else {
            format_text(&outcome, format)
        };
        assert_eq!(written, expected, "{format}");
        assert!(!written.contains('\u{1b}'), "{format}: no colour in a file");
    }
    let out = flinklint_cmd()
        .args(["check", "fixtures/formats/project", "--output-file"])
        .arg(dir.join("missing-dir/report.txt"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "an unwritable output file");
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot write"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `check .` shows paths without `./` in every format (`file=catalog/x.sql`, not
/// `file=./catalog/x.sql`).
#[test]
fn paths_have_no_leading_dot_slash() {
    let tmp = crate::common::TempDir::new("formats-no-dot-slash");
    std::fs::create_dir_all(tmp.0.join("catalog")).unwrap();
    std::fs::write(tmp.0.join("catalog/x.sql"), "SELECT \"x\";\n").unwrap();
    for format in ["github", "concise", "json", "sarif"] {
        let out = crate::common::isolated_command(env!("CARGO_BIN_EXE_flinklint"), &tmp.0)
            .args(["check", "--exit-zero", "--format", format, "."])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("catalog/x.sql"), "{format}: {text}");
        assert!(!text.contains("./catalog"), "{format}: {text}");
    }
}

/// SARIF artifact URIs are relative to the project root (the config file's folder, or the git
/// work tree), whatever folder the run is made from: GitHub code scanning resolves them
/// against the repository's root, so `../x.sql` would point nowhere.
#[test]
fn sarif_uris_are_relative_to_the_project_root() {
    let tmp = crate::common::TempDir::new("formats-sarif-root");
    std::fs::create_dir_all(tmp.0.join("sub")).unwrap();
    std::fs::write(tmp.0.join(".flinklint.yaml"), "extensions: [sql]\n").unwrap();
    std::fs::write(tmp.0.join("x.sql"), "SELECT \"x\";\n").unwrap();
    std::fs::write(tmp.0.join("sub/y.sql"), "SELECT \"y\";\n").unwrap();
    let out = crate::common::isolated_command(env!("CARGO_BIN_EXE_flinklint"), &tmp.0.join("sub"))
        .args(["check", "--exit-zero", "--format", "sarif", ".."])
        .output()
        .unwrap();
    let log: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let run = &log["runs"][0];
    let mut uris: Vec<(String, String)> = run["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let a = &r["locations"][0]["physicalLocation"]["artifactLocation"];
            (
                a["uri"].as_str().unwrap().to_string(),
                a["uriBaseId"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    uris.sort();
    uris.dedup();
    assert_eq!(
        uris,
        [
            ("sub/y.sql".to_string(), "%SRCROOT%".to_string()),
            ("x.sql".to_string(), "%SRCROOT%".to_string())
        ],
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let root = std::fs::canonicalize(&tmp.0).unwrap();
    let base = run["originalUriBaseIds"]["%SRCROOT%"]["uri"]
        .as_str()
        .unwrap();
    assert_eq!(
        base,
        flinklint::render::sarif::base_uri(&root).unwrap(),
        "the base is the project root"
    );
}
