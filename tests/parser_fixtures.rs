//! Parser and lexer fixtures: `fixtures/parser/ok/*.sql` parse without errors,
//! `fixtures/parser/err/*.sql` have at least one error (snapshot of all errors), and
//! `fixtures/lexer/*.sql` snapshot their tokens. Every fixture also checks the tree's span
//! invariants: every span lies on token boundaries and nests in its parent's span.

use crate::common;

use flinklint::source::SourceFile;
use flinklint::syntax::{parse, Parsed};
use serde_json::Value;
use std::collections::HashSet;
use std::path::Path;

fn read(path: &Path) -> String {
    String::from_utf8_lossy(&std::fs::read(path).expect("fixture")).into_owned()
}

/// Checks that spans nest and lie on token boundaries; returns the violations.
fn span_violations(text: &str, parsed: &Parsed) -> Vec<String> {
    let mut starts = HashSet::new();
    let mut ends = HashSet::new();
    for t in &parsed.tokens {
        starts.insert(t.span.start as u64);
        ends.insert(t.span.end as u64);
    }
    let mut out = Vec::new();
    let tree = serde_json::to_value(&parsed.script).expect("serializable tree");
    walk(
        &tree,
        (0, text.len() as u64),
        "script",
        &starts,
        &ends,
        &mut out,
    );
    out
}

fn as_span(v: &Value) -> Option<(u64, u64)> {
    let o = v.as_object()?;
    if o.len() != 2 {
        return None;
    }
    Some((o.get("start")?.as_u64()?, o.get("end")?.as_u64()?))
}

fn walk(
    v: &Value,
    parent: (u64, u64),
    path: &str,
    starts: &HashSet<u64>,
    ends: &HashSet<u64>,
    out: &mut Vec<String>,
) {
    match v {
        Value::Object(map) => {
            let mut own = parent;
            // A node's own span first, so its children are checked against it.
            if let Some((s, e)) = map.get("span").and_then(as_span) {
                if s < parent.0 || e > parent.1 || s > e {
                    out.push(format!(
                        "{path}: span {s}..{e} outside parent {}..{}",
                        parent.0, parent.1
                    ));
                }
                if s != e && (!starts.contains(&s) || !ends.contains(&e)) {
                    out.push(format!("{path}: span {s}..{e} not on token boundaries"));
                }
                own = (s, e);
            }
            for (k, child) in map {
                if let Some((s, e)) = as_span(child) {
                    if k != "span" && (s < own.0 || e > own.1) {
                        out.push(format!(
                            "{path}.{k}: span {s}..{e} outside node {}..{}",
                            own.0, own.1
                        ));
                    }
                    continue;
                }
                walk(child, own, &format!("{path}.{k}"), starts, ends, out);
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                walk(item, parent, &format!("{path}[{i}]"), starts, ends, out);
            }
        }
        _ => {}
    }
}

fn error_listing(source: &SourceFile, parsed: &Parsed) -> String {
    let mut out = String::new();
    for e in &parsed.errors {
        let at = source.line_col(e.span.start);
        let kind = format!("{:?}", e.kind);
        let kind = kind
            .split([' ', '{', '('])
            .next()
            .unwrap_or_default()
            .to_string();
        out.push_str(&format!(
            "{}:{}: [{kind}] {}\n",
            at.line, at.column, e.message
        ));
    }
    out
}

#[test]
fn ok_fixtures_parse_without_errors() {
    let dir = common::root().join("fixtures/parser/ok");
    let files = common::sql_files(&dir);
    assert!(!files.is_empty(), "no fixtures in {}", dir.display());
    let mut failures = Vec::new();
    for path in files {
        let text = read(&path);
        let parsed = parse(&text);
        let source = SourceFile::new(path.clone(), text.clone());
        if !parsed.errors.is_empty() {
            failures.push(format!(
                "{}:\n{}",
                path.display(),
                error_listing(&source, &parsed)
            ));
        }
        for v in span_violations(&text, &parsed) {
            failures.push(format!("{}: {v}", path.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn err_fixtures_report_errors() {
    // Each file holds a statement Flink 2.3 rejects; flinklint (default target) must report at
    // least one error. The snapshot lists every finding, to show the parser's recovery.
    let dir = common::root().join("fixtures/parser/err");
    let files = common::sql_files(&dir);
    assert!(!files.is_empty(), "no fixtures in {}", dir.display());
    let settings = common::snapshot_settings(&dir);
    for path in files {
        let text = read(&path);
        let parsed = parse(&text);
        let violations = span_violations(&text, &parsed);
        assert!(
            violations.is_empty(),
            "{}: {}",
            path.display(),
            violations.join("\n")
        );
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let outcome = flinklint::check_texts(
            &[(format!("{name}.sql"), text)],
            &flinklint::config::Settings::default(),
        );
        let errors = outcome
            .diagnostics
            .iter()
            .filter(|d| d.severity == flinklint::diagnostics::Severity::Error)
            .count();
        assert!(
            errors > 0,
            "{}: expected at least one error",
            path.display()
        );
        let mut listing = String::new();
        for d in &outcome.diagnostics {
            let at = outcome.files[0].source.line_col(d.span.start);
            listing.push_str(&format!(
                "{}:{}: {} {} {}\n",
                at.line,
                at.column,
                d.code,
                d.severity.as_str(),
                d.message
            ));
        }
        settings.bind(|| insta::assert_snapshot!(name, listing));
    }
}

#[test]
fn lexer_fixtures_snapshot_tokens() {
    let dir = common::root().join("fixtures/lexer");
    let files = common::sql_files(&dir);
    assert!(!files.is_empty(), "no fixtures in {}", dir.display());
    let settings = common::snapshot_settings(&dir);
    for path in files {
        let text = read(&path);
        let parsed = parse(&text);
        // Tokens cover the text: between tokens there is only whitespace.
        let mut last = 0usize;
        for t in &parsed.tokens {
            let gap = &text[last..t.span.start as usize];
            assert!(
                gap.chars().all(|c| c.is_whitespace() || c == '\u{FEFF}'),
                "{}: non-whitespace between tokens: {gap:?}",
                path.display()
            );
            last = t.span.end as usize;
        }
        let mut listing = String::new();
        for t in &parsed.tokens {
            let kw = if t.kw == flinklint::syntax::keywords::Kw::NONE {
                String::new()
            } else {
                format!(" {}", t.kw.as_str())
            };
            listing.push_str(&format!("{:?}{kw} {:?}\n", t.kind, &text[t.span.range()]));
        }
        let source = SourceFile::new(path.clone(), text.clone());
        listing.push_str("-- errors --\n");
        listing.push_str(&error_listing(&source, &parsed));
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        settings.bind(|| insta::assert_snapshot!(name, listing));
    }
}

#[test]
fn span_invariants_hold_on_the_example_project() {
    let dir = common::root().join("examples");
    for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let entry = entry.unwrap();
        if entry.path().extension().is_some_and(|e| e == "sql") {
            let text = read(entry.path());
            let parsed = parse(&text);
            let v = span_violations(&text, &parsed);
            assert!(v.is_empty(), "{}: {}", entry.path().display(), v.join("\n"));
        }
    }
}
