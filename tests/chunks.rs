//! A large project checked in chunks (`flinklint::discover::stream`) gives the report of a run
//! over all its files at once: the same findings, in the same order, with the same excerpts
//! and baseline fingerprints — whatever the chunks' size.

use crate::common::root;
use flinklint::config::Settings;
use flinklint::discover::stream::check_chunked;
use flinklint::discover::{discover_with, read::check};
use flinklint::project::Outcome;
use flinklint::render;
use std::path::{Path, PathBuf};

/// Every report of an outcome: JSON, concise, human (excerpts), and the baseline.
fn reports(o: &Outcome, settings: &Settings) -> [String; 4] {
    let checked = o.files_checked();
    [
        render::json::render_limited(&o.files, checked, &o.diagnostics, None, usize::MAX),
        render::concise::render_limited(&o.files, checked, &o.diagnostics, usize::MAX),
        render::human::render_limited(
            &o.files,
            checked,
            &o.diagnostics,
            render::human::HumanOptions {
                color: false,
                width: 100,
            },
            usize::MAX,
        ),
        flinklint::baseline::record(&o.files, settings, &o.diagnostics).to_json(),
    ]
}

/// Checks `dir` at once and in chunks of 1, 2 and 5 files; the reports must be equal.
fn assert_same_in_chunks(dir: &Path) {
    let settings = Settings {
        drop_script_sessions: true,
        ..Settings::default()
    };
    let Ok(inputs) = discover_with(&[dir.to_path_buf()], &settings, None) else {
        return;
    };
    let whole = reports(&check(&inputs, None, &settings), &settings);
    for chunk in [1, 2, 5] {
        let Some(chunked) = check_chunked(&inputs, &[], &settings, None, chunk, true, None) else {
            continue;
        };
        let chunked = reports(&chunked, &settings);
        for (k, (a, b)) in whole.iter().zip(&chunked).enumerate() {
            assert_eq!(
                a,
                b,
                "{}: report {k} differs in chunks of {chunk}",
                dir.display()
            );
        }
    }
}

/// The folders of several files among the rules' fixtures.
fn fixture_projects() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for rule in std::fs::read_dir(root().join("fixtures/rules")).unwrap() {
        let rule = rule.unwrap().path();
        for case in std::fs::read_dir(&rule).unwrap() {
            let case = case.unwrap().path();
            if case.is_dir() && !case.ends_with("snapshots") {
                out.push(case);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn the_example_project_and_the_cache_fixture_in_chunks() {
    assert_same_in_chunks(&root().join("examples/flink-project"));
    assert_same_in_chunks(&root().join("fixtures/context_cache/project"));
}

#[test]
fn every_rule_fixture_project_in_chunks() {
    let projects = fixture_projects();
    assert!(projects.len() > 10, "{projects:?}");
    for dir in projects {
        assert_same_in_chunks(&dir);
    }
}

#[test]
fn a_run_too_small_to_split_is_not_split() {
    let settings = Settings::default();
    let dir = root().join("examples/flink-project");
    let inputs = discover_with(&[dir], &settings, None).unwrap();
    assert!(check_chunked(&inputs, &[], &settings, None, inputs.len(), false, None).is_none());
}
