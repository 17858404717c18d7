//! Rule tests: every rule has examples and fixtures (that every `rules/*.yaml` has a module is
//! checked by `build.rs`), fixtures produce the snapshot of their diagnostics (human and JSON),
//! every problem the semantic stage finds in them is consumed by exactly one rule, and every
//! YAML example runs: the bad one triggers exactly its rule, the good one triggers nothing.

use crate::common;

use flinklint::config::{Settings, Target};
use flinklint::discover::Input;
use flinklint::registry::RuleExample;
use flinklint::render;
use flinklint::rules::{meta::RULE_DOCS, RULES};
use std::path::{Path, PathBuf};

#[test]
fn every_rule_has_examples_and_fixtures() {
    assert_eq!(RULES.len(), RULE_DOCS.len());
    for (rule, meta) in RULES.iter().zip(RULE_DOCS) {
        // Compared by value: the address of a constant's data is not guaranteed to be unique
        // (it differs between builds with and without link-time optimisation).
        assert!(
            rule.meta.code == meta.code && rule.meta.name == meta.name,
            "{}: RULES out of order",
            meta.code
        );
    }
    for meta in RULE_DOCS {
        assert!(
            meta.name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c == '-'),
            "{}: name must be kebab-case",
            meta.code
        );
        assert!(!meta.examples.is_empty(), "{}: needs examples", meta.code);
        let dir = common::root().join("fixtures/rules").join(meta.code);
        assert!(
            !cases(&dir).is_empty(),
            "{}: needs fixtures in {}",
            meta.code,
            dir.display()
        );
    }
}

/// One problem, one finding: every problem of the outcome's model is consumed by exactly one
/// rule.
fn assert_one_consumer(outcome: &flinklint::Outcome, case: &str) {
    for found in &outcome.model.found {
        let consumers: Vec<&str> = RULES
            .iter()
            .filter(|r| r.rule.consumes(&found.problem))
            .map(|r| r.meta.code)
            .collect();
        assert!(
            consumers.len() == 1,
            "{case}: {:?} is consumed by {consumers:?}, not by exactly one rule",
            found.problem
        );
    }
}

/// The cases of a rule folder: `.sql` files and sub-directories (multi-file projects).
fn cases(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    out.retain(|p| {
        (p.is_dir() && p.file_name().is_some_and(|n| n != "snapshots"))
            || p.extension().is_some_and(|e| e == "sql")
    });
    out.sort();
    out
}

/// A `catalog` mode by its configuration name.
fn catalog_mode(name: &str) -> flinklint::config::CatalogMode {
    use flinklint::config::CatalogMode;
    [
        CatalogMode::Auto,
        CatalogMode::Session,
        CatalogMode::Persistent,
    ]
    .into_iter()
    .find(|m| m.as_str() == name)
    .expect("a catalog mode: auto, session or persistent")
}

/// Settings from a `-- fixture: [--target NAME] [--require-suppression-reason]
/// [--catalog MODE]` first line.
fn fixture_settings(first_file: &Path) -> Settings {
    let mut settings = Settings::default();
    let text = String::from_utf8_lossy(&std::fs::read(first_file).unwrap_or_default()).into_owned();
    if let Some(rest) = text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("-- fixture:"))
    {
        let mut words = rest.split_whitespace();
        while let Some(w) = words.next() {
            if w == "--target" {
                settings.target =
                    Target::parse(words.next().unwrap_or_default()).expect("fixture target");
            } else if w == "--require-suppression-reason" {
                settings.require_suppression_reason = true;
            } else if w == "--catalog" {
                settings.catalog = catalog_mode(words.next().unwrap_or_default());
            }
        }
    }
    settings
}

#[test]
fn rule_fixtures_match_snapshots() {
    let root = common::root();
    for meta in RULE_DOCS {
        let dir = PathBuf::from("fixtures/rules").join(meta.code);
        let snapshots = common::snapshot_settings(&root.join(&dir));
        for case in cases(&root.join(&dir)) {
            let name = case.file_stem().unwrap().to_string_lossy().to_string();
            let rel = dir.join(case.file_name().unwrap());
            let files: Vec<PathBuf> = if case.is_dir() {
                walkdir::WalkDir::new(root.join(&rel))
                    .sort_by_file_name()
                    .into_iter()
                    .filter_map(|e| e.ok())
                    .filter(|e| e.path().extension().is_some_and(|x| x == "sql"))
                    .map(|e| rel.join(e.path().strip_prefix(root.join(&rel)).unwrap()))
                    .collect()
            } else {
                vec![rel.clone()]
            };
            let settings = fixture_settings(&root.join(&files[0]));
            let inputs: Vec<Input> = files.iter().map(|f| Input::File(f.clone())).collect();
            let outcome = flinklint::check(&inputs, None, &settings);
            assert_one_consumer(&outcome, &rel.display().to_string());
            let own = outcome
                .diagnostics
                .iter()
                .filter(|d| d.code == meta.code)
                .count();
            if name.starts_with("ok_") {
                assert_eq!(own, 0, "{}: expected no {}", rel.display(), meta.code);
            } else {
                assert!(own > 0, "{}: expected {}", rel.display(), meta.code);
            }
            let n = outcome.files_checked();
            let human = render::human::render(
                &outcome.files,
                n,
                &outcome.diagnostics,
                render::human::HumanOptions {
                    color: false,
                    width: 100,
                },
            );
            let json = render::json::render(&outcome.files, n, &outcome.diagnostics);
            snapshots.bind(|| {
                insta::assert_snapshot!(format!("{name}.human"), human);
                insta::assert_snapshot!(format!("{name}.json"), json);
            });
            relint_fixes(meta.code, &rel, outcome, &settings, &snapshots, &name);
        }
    }
}

/// Every fix of the rule is applied (safe and unsafe), the result snapshotted as a diff and
/// re-linted: no fixable finding of the rule remains, the files parse no worse, and fixing
/// again changes nothing.
fn relint_fixes(
    code: &str,
    rel: &Path,
    outcome: flinklint::Outcome,
    settings: &Settings,
    snapshots: &insta::Settings,
    name: &str,
) {
    let fixable = |o: &flinklint::Outcome| {
        o.diagnostics
            .iter()
            .filter(|d| d.code == code && d.fix.is_some())
            .count()
    };
    if fixable(&outcome) == 0 {
        return;
    }
    let errors_before: usize = outcome.files.iter().map(|f| f.parsed.errors.len()).sum();
    let report = flinklint::fix::fix(outcome, settings, flinklint::fix::FixMode::All);
    assert!(
        report.applied > 0,
        "{}: {code} fixes not applied",
        rel.display()
    );
    assert!(
        report.rejected.is_empty(),
        "{}: {:?}",
        rel.display(),
        report.rejected
    );
    assert_eq!(
        fixable(&report.outcome),
        0,
        "{}: {code} still fires after its fixes",
        rel.display()
    );
    let errors_after: usize = report
        .outcome
        .files
        .iter()
        .map(|f| f.parsed.errors.len())
        .sum();
    assert!(
        errors_after <= errors_before,
        "{}: fixes left syntax errors",
        rel.display()
    );
    let diff: String = report
        .changed
        .iter()
        .map(|(path, before, after)| {
            flinklint::fix::unified_diff(&path.to_string_lossy().replace('\\', "/"), before, after)
        })
        .collect();
    let again = flinklint::fix::fix(report.outcome, settings, flinklint::fix::FixMode::All);
    assert!(
        again.changed.is_empty(),
        "{}: a second --fix changes more",
        rel.display()
    );
    snapshots.bind(|| insta::assert_snapshot!(format!("{name}.fixed"), diff));
}

#[test]
fn yaml_examples_run() {
    for meta in RULE_DOCS {
        for example in meta.examples {
            let mut settings = Settings::default();
            if let Some(t) = example.target {
                settings.target = Target::parse(t).expect("example target");
            }
            if example.history {
                // The examples' folder (the empty path of `bad.sql`) is a history.
                settings.histories = vec![flinklint::config::HistoryDir {
                    location: flinklint::config::HistoryLocation::Dir(PathBuf::new()),
                    order: Default::default(),
                }];
            }
            if let Some(c) = example.catalog {
                settings.catalog = catalog_mode(c);
            }
            let texts = |sql: &'static str, default: &str| -> Vec<(String, String)> {
                RuleExample::files(sql, default)
                    .into_iter()
                    .map(|(path, text)| (path, text.to_string()))
                    .collect()
            };
            let name = format!("{} example `{}`", meta.code, example.name);
            if !example.bad.is_empty() {
                let bad = flinklint::check_texts(&texts(example.bad, "bad.sql"), &settings);
                assert_one_consumer(&bad, &name);
                let codes: Vec<&str> = bad.diagnostics.iter().map(|d| d.code).collect();
                assert!(
                    !codes.is_empty() && codes.iter().all(|c| *c == meta.code),
                    "{name}: bad example gives {codes:?}"
                );
            }
            let good = flinklint::check_texts(&texts(example.good, "good.sql"), &settings);
            let codes: Vec<&str> = good.diagnostics.iter().map(|d| d.code).collect();
            assert!(codes.is_empty(), "{name}: good example gives {codes:?}");
        }
    }
}
