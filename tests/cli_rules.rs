//! The `rule`, `rules` and `completions` commands, and `--version`, run through the binary.

use flinklint::rules::meta::RULE_DOCS;
use std::process::{Command, Output};

fn flinklint(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_flinklint"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("run flinklint")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output")
}

#[test]
fn rule_by_code_prints_sections_and_example() {
    let out = flinklint(&["rule", "SY001"]);
    assert!(out.status.success(), "{out:?}");
    let text = stdout(&out);
    assert!(text.starts_with("SY001 syntax-error\n"), "{text}");
    for heading in [
        "What it does",
        "Why it matters",
        "Example",
        "Use instead",
        "Source",
    ] {
        assert!(
            text.lines().any(|l| l == heading),
            "no `{heading}` in:\n{text}"
        );
    }
    let meta = RULE_DOCS.iter().find(|m| m.code == "SY001").unwrap();
    let first_bad_line = meta.examples[0].bad.lines().next().unwrap();
    assert!(text.contains(first_bad_line), "{text}");
    assert!(!text.contains("```") && !text.contains("## "), "{text}");
}

#[test]
fn rule_by_name_and_lower_case_code() {
    let by_name = flinklint(&["rule", "syntax-error"]);
    assert!(by_name.status.success(), "{by_name:?}");
    let by_code = flinklint(&["rule", "sy001"]);
    assert!(by_code.status.success(), "{by_code:?}");
    assert_eq!(stdout(&by_name), stdout(&by_code));
}

#[test]
fn unknown_rule_exits_2_with_a_suggestion() {
    let out = flinklint(&["rule", "SY0001"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unknown rule `SY0001`"), "{err}");
    assert!(err.contains("did you mean `SY00"), "{err}");

    let out = flinklint(&["rule", "syntax-eror"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("did you mean `syntax-error` (SY001)"), "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn rules_json_has_every_rule_and_field() {
    let out = flinklint(&["rules", "--format", "json"]);
    assert!(out.status.success(), "{out:?}");
    let list: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let list = list.as_array().expect("an array");
    assert_eq!(list.len(), RULE_DOCS.len());
    for meta in RULE_DOCS {
        let entry = list
            .iter()
            .find(|e| e["code"] == meta.code)
            .unwrap_or_else(|| panic!("{} missing", meta.code));
        assert_eq!(entry["name"], meta.name);
        assert_eq!(entry["severity"], meta.severity.as_str());
        assert_eq!(entry["fix"], meta.fix.as_str());
        for field in [
            "summary",
            "other_severities",
            "since",
            "source",
            "what",
            "why",
        ] {
            assert!(!entry[field].is_null(), "{}: no {field}", meta.code);
        }
        let examples = entry["examples"].as_array().expect("examples");
        assert_eq!(examples.len(), meta.examples.len());
        assert_eq!(examples[0]["bad"], meta.examples[0].bad);
        assert_eq!(examples[0]["good"], meta.examples[0].good);
    }
}

#[test]
fn rules_table_lists_every_rule() {
    let out = flinklint(&["rules"]);
    assert!(out.status.success(), "{out:?}");
    let text = stdout(&out);
    assert!(text.starts_with("CODE"), "{text}");
    assert_eq!(text.lines().count(), RULE_DOCS.len() + 1);
    for meta in RULE_DOCS {
        assert!(
            text.lines()
                .any(|l| l.starts_with(meta.code) && l.contains(meta.name)),
            "{} missing:\n{text}",
            meta.code
        );
    }
}

#[test]
fn completions_for_every_shell() {
    let out = flinklint(&["completions", "bash"]);
    assert!(out.status.success(), "{out:?}");
    assert!(stdout(&out).contains("flinklint"));
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        let out = flinklint(&["completions", shell]);
        assert!(out.status.success(), "{shell}: {out:?}");
        assert!(stdout(&out).contains("flinklint"), "{shell}");
    }
    assert_eq!(flinklint(&["completions", "tcsh"]).status.code(), Some(2));
}

#[test]
fn version() {
    let out = flinklint(&["--version"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        stdout(&out).trim(),
        format!("flinklint {}", env!("CARGO_PKG_VERSION"))
    );
}
