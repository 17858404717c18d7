//! `docs/rules/` is generated from `rules/<CODE>.yaml` (through `flinklint::docs`): this test
//! regenerates the pages in memory and fails when a file is stale, missing or extra. With
//! `FLINKLINT_UPDATE_DOCS=1` it writes the pages instead (and removes extra files).

use flinklint::docs::{rule_files, REFRESH_COMMAND};
use std::collections::BTreeMap;
use std::path::PathBuf;

fn docs_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/rules")
}

/// The files now in `docs/rules/`: name and content (`None` when not UTF-8 or unreadable).
fn current_files() -> BTreeMap<String, Option<String>> {
    let mut files = BTreeMap::new();
    if let Ok(entries) = std::fs::read_dir(docs_dir()) {
        for entry in entries.filter_map(Result::ok) {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            let content = if path.is_file() {
                std::fs::read_to_string(&path).ok()
            } else {
                None
            };
            files.insert(name, content);
        }
    }
    files
}

#[test]
fn rule_docs_are_up_to_date() {
    let expected: BTreeMap<String, String> = rule_files().into_iter().collect();
    let dir = docs_dir();
    let current = current_files();

    if std::env::var_os("FLINKLINT_UPDATE_DOCS").is_some_and(|v| !v.is_empty() && v != "0") {
        std::fs::create_dir_all(&dir).expect("create docs/rules");
        for (name, content) in &expected {
            if current.get(name).and_then(|c| c.as_deref()) != Some(content.as_str()) {
                std::fs::write(dir.join(name), content).expect("write a rule page");
            }
        }
        for name in current.keys().filter(|n| !expected.contains_key(*n)) {
            let path = dir.join(name);
            if path.is_dir() {
                std::fs::remove_dir_all(&path).expect("remove an extra folder");
            } else {
                std::fs::remove_file(&path).expect("remove an extra file");
            }
        }
        return;
    }

    let mut problems = Vec::new();
    for (name, content) in &expected {
        match current.get(name) {
            None => problems.push(format!("missing: docs/rules/{name}")),
            Some(c) if c.as_deref() != Some(content.as_str()) => {
                problems.push(format!("stale:   docs/rules/{name}"))
            }
            Some(_) => {}
        }
    }
    for name in current.keys().filter(|n| !expected.contains_key(*n)) {
        problems.push(format!("extra:   docs/rules/{name}"));
    }
    assert!(
        problems.is_empty(),
        "docs/rules/ does not match rules/*.yaml:\n  {}\nRefresh with: {REFRESH_COMMAND}",
        problems.join("\n  ")
    );
}
