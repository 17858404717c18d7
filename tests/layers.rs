//! The stages of the library form one-way layers: a module may use only the stages below it
//! (the order in `src/lib.rs`'s documentation). This test reads every source file and fails
//! on any `crate::<stage>` path that points to a stage above the file's own, or to a module
//! that is not a stage. Unit tests (`#[cfg(test)]` modules) and comments are not read: tests
//! may drive the whole pipeline. A second check keeps rule codes out of the semantic stage,
//! its comments included.

use std::path::Path;

/// The stages, bottom first. Keep in step with `src/lib.rs`.
const LAYERS: &[&str] = &[
    "registry",
    "source",
    "syntax",
    "dialect",
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
    "server",
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
        // The crate roots, and the binary's allocator (uses no stage: it is the C library's).
        if stage == "lib" || stage == "main" || stage == "alloc" {
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
            // The binary's allocator sits below every stage (the command line turns huge
            // pages off for a large run).
            if used == stage || used == "self" || used == "super" || used == "alloc" {
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

/// Whether `text` holds a string literal that looks like a rule code: `"` two upper-case
/// letters, three digits `"`.
fn rule_code_literals(text: &str) -> Vec<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    for (i, window) in bytes.windows(7).enumerate() {
        let code = &window[1..6];
        if window[0] == b'"'
            && window[6] == b'"'
            && code[..2].iter().all(u8::is_ascii_uppercase)
            && code[2..].iter().all(u8::is_ascii_digit)
        {
            out.push(text[i..i + 7].to_string());
        }
    }
    out
}

/// The text of a source file before its `#[cfg(test)]` part, comments included.
fn before_tests(text: &str) -> &str {
    match text.find("#[cfg(test)]") {
        Some(i) => &text[..i],
        None => text,
    }
}

/// The words of `text` that are registered rule codes.
fn rule_code_words<'a>(text: &'a str, codes: &[&str]) -> Vec<&'a str> {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|word| codes.contains(word))
        .collect()
}

/// The semantic stage reports problems in Flink's terms: which rule reports a problem is the
/// rules stage's business (`Rule::consumes`), so no rule code appears in its code or its
/// comments (unit tests aside).
#[test]
fn the_semantic_stage_names_no_rule_code() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/semantic");
    let mut files = Vec::new();
    visit(&dir, &mut files);
    files.sort();
    let codes: Vec<&str> = flinklint::rules::meta::RULE_DOCS
        .iter()
        .map(|m| m.code)
        .collect();
    let mut violations = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        for literal in rule_code_literals(&text) {
            violations.push(format!("{}: string literal {literal}", path.display()));
        }
        for word in rule_code_words(before_tests(&text), &codes) {
            violations.push(format!("{}: rule code {word}", path.display()));
        }
    }
    assert!(
        violations.is_empty(),
        "rule codes in the semantic stage (describe the problem in Flink's terms; the rule \
         that consumes it has the code):\n{}",
        violations.join("\n")
    );
}

#[test]
fn the_checker_sees_a_rule_code_in_a_comment() {
    let text = "/// LK008 for a conflict.\nfn f() {} // TB004, not TB0040 nor lk008\n#[cfg(test)]\nmod tests { // CL001 }";
    assert_eq!(
        rule_code_words(before_tests(text), &["LK008", "TB004", "CL001"]),
        vec!["LK008", "TB004"]
    );
}

#[test]
fn the_checker_sees_a_rule_code_literal() {
    assert_eq!(
        rule_code_literals(r#"matches!(p.code(), "LK001" | "TB01" | "tb001" | "SY0000")"#),
        vec![r#""LK001""#]
    );
}
