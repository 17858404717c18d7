//! The stages of the library form one-way layers: a module may use only the stages below it
//! (the order in `src/lib.rs`'s documentation). This test reads every source file and fails
//! on any `crate::<stage>` path that points to a stage above the file's own, or to a module
//! that is not a stage. Unit tests (`#[cfg(test)]` modules) and comments are not read: tests
//! may drive the whole pipeline.

use std::path::Path;

/// The stages, bottom first. Keep in step with `src/lib.rs`.
const LAYERS: &[&str] = &[
    "registry",
    "source",
    "syntax",
    "files",
    "config",
    "semantic",
    "diagnostics",
    "rules",
    "project",
    "fix",
    "baseline",
    "render",
    "docs",
    "discover",
    "cli",
];

fn rank(stage: &str) -> Option<usize> {
    LAYERS.iter().position(|s| *s == stage)
}

/// The code of a source file without comments and without its `#[cfg(test)]` part.
fn code_of(text: &str) -> String {
    let text = match text.find("#[cfg(test)]") {
        Some(i) => &text[..i],
        None => text,
    };
    text.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every stage a file's code names: `crate::stage` and `use crate::{stage, ...}`.
fn stages_used(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let word = |s: &str| -> String {
        s.trim_start()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        rest = &rest[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for part in group[..end].split(',') {
                let w = word(part);
                if !w.is_empty() {
                    out.push(w);
                }
            }
        } else {
            out.push(word(rest));
        }
    }
    out
}

fn visit(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            visit(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn stages_only_use_the_stages_below_them() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    visit(&src, &mut files);
    files.sort();
    let mut violations = Vec::new();
    for path in &files {
        let rel = path.strip_prefix(&src).unwrap();
        let first = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        let stage = first.trim_end_matches(".rs");
        if stage == "lib" || stage == "main" {
            continue;
        }
        let Some(own) = rank(stage) else {
            violations.push(format!(
                "src/{}: `{stage}` is not a stage: add it to LAYERS (and src/lib.rs)",
                rel.display()
            ));
            continue;
        };
        let code = code_of(&std::fs::read_to_string(path).unwrap());
        for used in stages_used(&code) {
            if used == stage || used == "self" || used == "super" {
                continue;
            }
            match rank(&used) {
                Some(r) if r < own => {}
                Some(_) => violations.push(format!(
                    "src/{}: stage `{stage}` uses `crate::{used}`, a stage above it",
                    rel.display()
                )),
                None => violations.push(format!(
                    "src/{}: `crate::{used}` is not a stage: name the stage that defines it",
                    rel.display()
                )),
            }
        }
    }
    assert!(
        violations.is_empty(),
        "imports that point up the layers:\n{}",
        violations.join("\n")
    );
}

#[test]
fn the_checker_sees_an_upward_import() {
    let code = code_of("use crate::{config::Settings, rules::Rule};\nfn f() { crate::cli::main(); }\n// crate::fix in a comment\n#[cfg(test)]\nmod tests { use crate::project; }");
    assert_eq!(stages_used(&code), vec!["config", "rules", "cli"]);
}
