//! Rule documentation rendered from [`RULE_DOCS`] (itself generated from `rules/<CODE>.yaml`):
//! one Markdown page per rule and an index for `docs/rules/`, and a plain-text page for the
//! terminal (`flinklint rule CODE`).
//!
//! Every function here is pure: the same metadata always gives the same text, so the files in
//! `docs/rules/` can be checked for staleness by regenerating them (`tests/docs.rs`).

use crate::rules::meta::{FixAvailability, RuleExample, RuleMeta, RULE_DOCS};
use std::fmt::Write as _;

/// Rule families in the order the index lists them: code prefix and title. A prefix that is not
/// listed here still gets a section (after these, titled by the prefix alone).
pub const FAMILIES: &[(&str, &str)] = &[
    ("SY", "Syntax"),
    ("CT", "Catalog"),
    ("LK", "LIKE"),
    ("CL", "Columns"),
    ("TB", "Tables"),
    ("MT", "Materialized tables"),
    ("SU", "Suppressions"),
    ("CO", "Connector options"),
    ("QV", "Query validation"),
    ("ST", "Streaming"),
];

/// The command that rewrites `docs/rules/` from the rule YAML files.
pub const REFRESH_COMMAND: &str = "FLINKLINT_UPDATE_DOCS=1 cargo test --test docs";

/// The family prefix of a rule code: its leading letters (`LK` for `LK005`).
pub fn family(code: &str) -> &str {
    let end = code
        .find(|c: char| !c.is_ascii_alphabetic())
        .unwrap_or(code.len());
    &code[..end]
}

/// The title of a family prefix, if it is a known one.
pub fn family_title(prefix: &str) -> Option<&'static str> {
    FAMILIES
        .iter()
        .find(|(p, _)| *p == prefix)
        .map(|(_, title)| *title)
}

/// The files of `docs/rules/`: `(file name, content)` for the index (`README.md`) and one
/// `<CODE>.md` per rule, sorted by file name.
pub fn rule_files() -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = RULE_DOCS
        .iter()
        .map(|meta| (format!("{}.md", meta.code), rule_markdown(meta)))
        .collect();
    files.push(("README.md".to_string(), index_markdown()));
    files.sort_by(|a, b| a.0.cmp(&b.0));
    files
}

/// The Markdown page of one rule (`docs/rules/<CODE>.md`).
pub fn rule_markdown(meta: &RuleMeta) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<!-- Generated from rules/{}.yaml by `{REFRESH_COMMAND}`; do not edit. -->\n",
        meta.code
    );
    let _ = writeln!(out, "# {} {}\n", meta.code, meta.name);
    let _ = writeln!(
        out,
        "**Severity:** {} · **Fix:** {} · **Since:** {}\n",
        severity_description(meta),
        markdown_fix(meta.fix),
        meta.since
    );
    let _ = writeln!(out, "{}\n", link_codes(meta.summary, meta.code));
    let _ = writeln!(out, "## What it does\n");
    let _ = writeln!(out, "{}\n", markdown_prose(meta.what, meta.code));
    let _ = writeln!(out, "## Why it matters\n");
    let _ = writeln!(out, "{}\n", markdown_prose(meta.why, meta.code));
    if !meta.examples.is_empty() {
        let _ = writeln!(out, "## Example\n");
        markdown_examples(&mut out, meta.examples, |e| e.bad);
        let _ = writeln!(out, "## Use instead\n");
        markdown_examples(&mut out, meta.examples, |e| e.good);
    }
    let _ = writeln!(out, "## Source\n");
    let _ = writeln!(out, "{}", markdown_prose(meta.source, meta.code));
    out
}

/// The index of `docs/rules/` (`README.md`): one table per family with every rule's code
/// (linked to its page), name, default severity, fix availability and summary.
pub fn index_markdown() -> String {
    index_markdown_of(RULE_DOCS)
}

/// [`index_markdown`] for any list of rules.
pub fn index_markdown_of(rules: &[RuleMeta]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<!-- Generated from rules/*.yaml by `{REFRESH_COMMAND}`; do not edit. -->\n"
    );
    let _ = writeln!(out, "# Rules\n");
    let _ = writeln!(
        out,
        "flinklint has {} rule{}. `flinklint rule CODE` prints a rule's page in the terminal and \
         `flinklint rules` lists them all. Severity is the default one; **Fix** says whether \
         `flinklint check --fix` can correct the finding (`safe`, `unsafe`: only with \
         `--unsafe-fixes`, `sometimes`: in some cases, `none`).\n",
        rules.len(),
        if rules.len() == 1 { "" } else { "s" }
    );
    let mut prefixes: Vec<&str> = Vec::new();
    for (prefix, _) in FAMILIES {
        if rules.iter().any(|m| family(m.code) == *prefix) {
            prefixes.push(prefix);
        }
    }
    let mut unknown: Vec<&str> = rules
        .iter()
        .map(|m| family(m.code))
        .filter(|p| family_title(p).is_none())
        .collect();
    unknown.sort_unstable();
    unknown.dedup();
    prefixes.extend(unknown);
    for prefix in prefixes {
        match family_title(prefix) {
            Some(title) => {
                let _ = writeln!(out, "## {prefix}: {title}\n");
            }
            None => {
                let _ = writeln!(out, "## {prefix}\n");
            }
        }
        let _ = writeln!(out, "| Code | Name | Severity | Fix | Summary |");
        let _ = writeln!(out, "| --- | --- | --- | --- | --- |");
        let mut members: Vec<&RuleMeta> =
            rules.iter().filter(|m| family(m.code) == prefix).collect();
        members.sort_by_key(|m| m.code);
        for m in members {
            let _ = writeln!(
                out,
                "| [{code}]({code}.md) | {} | {} | {} | {} |",
                table_cell(m.name),
                m.severity.as_str(),
                m.fix.as_str(),
                table_cell(m.summary),
                code = m.code,
            );
        }
        out.push('\n');
    }
    // One trailing newline, not two.
    out.pop();
    out
}

/// The plain-text page of one rule, for the terminal: the sections of [`rule_markdown`]
/// without Markdown markup (headings, fences, links); prose and SQL are indented under their
/// section titles.
pub fn rule_text(meta: &RuleMeta) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{} {}\n", meta.code, meta.name);
    let _ = writeln!(out, "{}\n", meta.summary);
    let _ = writeln!(out, "Severity: {}", severity_description(meta));
    let _ = writeln!(out, "Fix:      {}", text_fix(meta.fix));
    let _ = writeln!(out, "Since:    {}\n", meta.since);
    let _ = writeln!(out, "What it does");
    let _ = writeln!(out, "{}\n", indent(meta.what, 2));
    let _ = writeln!(out, "Why it matters");
    let _ = writeln!(out, "{}\n", indent(meta.why, 2));
    if !meta.examples.is_empty() {
        let _ = writeln!(out, "Example");
        text_examples(&mut out, meta.examples, |e| e.bad);
        let _ = writeln!(out, "Use instead");
        text_examples(&mut out, meta.examples, |e| e.good);
    }
    let _ = writeln!(out, "Source");
    let _ = writeln!(out, "{}", indent(meta.source, 2));
    out
}

/// "error", or "error (some cases: warning)" when sub-cases have other severities.
fn severity_description(meta: &RuleMeta) -> String {
    let mut s = meta.severity.as_str().to_string();
    if !meta.other_severities.is_empty() {
        let others: Vec<&str> = meta.other_severities.iter().map(|s| s.as_str()).collect();
        let _ = write!(s, " (some cases: {})", others.join(", "));
    }
    s
}

fn markdown_fix(fix: FixAvailability) -> &'static str {
    match fix {
        FixAvailability::None => "none",
        FixAvailability::Safe => "safe (`flinklint check --fix`)",
        FixAvailability::Unsafe => "unsafe (`flinklint check --fix --unsafe-fixes`)",
        FixAvailability::Sometimes => "in some cases (`flinklint check --fix`)",
    }
}

fn text_fix(fix: FixAvailability) -> &'static str {
    match fix {
        FixAvailability::None => "none",
        FixAvailability::Safe => "safe (flinklint check --fix)",
        FixAvailability::Unsafe => "unsafe (flinklint check --fix --unsafe-fixes)",
        FixAvailability::Sometimes => "in some cases (flinklint check --fix)",
    }
}

/// The label of an example: its name (capitalized) and its target, if any.
fn example_label(example: &RuleExample, markdown: bool) -> Option<String> {
    let mut chars = example.name.trim().chars();
    let mut label = match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect::<String>(),
        None => String::new(),
    };
    if let Some(target) = example.target {
        if !label.is_empty() {
            label.push(' ');
        }
        if markdown {
            let _ = write!(label, "(`--target {target}`)");
        } else {
            let _ = write!(label, "(--target {target})");
        }
    }
    if let Some(catalog) = example.catalog {
        if !label.is_empty() {
            label.push(' ');
        }
        if markdown {
            let _ = write!(label, "(`catalog: {catalog}`)");
        } else {
            let _ = write!(label, "(catalog: {catalog})");
        }
    }
    (!label.is_empty()).then_some(label)
}

/// Every example's SQL (`bad` or `good`), each under its label, as fenced blocks.
fn markdown_examples(out: &mut String, examples: &[RuleExample], sql: fn(&RuleExample) -> &str) {
    for example in examples {
        if let Some(label) = example_label(example, true) {
            let _ = writeln!(out, "{label}:\n");
        }
        let text = sql(example).trim_end();
        if text.trim().is_empty() {
            let _ = writeln!(out, "*(an empty file)*\n");
            continue;
        }
        let fence = "`".repeat(longest_backtick_run(text).max(2) + 1);
        let _ = writeln!(out, "{fence}sql\n{text}\n{fence}\n");
    }
}

/// Every example's SQL (`bad` or `good`), each under its label, indented.
fn text_examples(out: &mut String, examples: &[RuleExample], sql: fn(&RuleExample) -> &str) {
    for example in examples {
        if let Some(label) = example_label(example, false) {
            let _ = writeln!(out, "  {label}:");
        }
        let text = sql(example).trim_end();
        if text.trim().is_empty() {
            let _ = writeln!(out, "    (an empty file)\n");
        } else {
            let _ = writeln!(out, "{}\n", indent(text, 4));
        }
    }
}

fn longest_backtick_run(text: &str) -> usize {
    text.split(|c| c != '`').map(str::len).max().unwrap_or(0)
}

/// Each non-blank line of `text` indented by `by` spaces; no trailing newline.
fn indent(text: &str, by: usize) -> String {
    let pad = " ".repeat(by);
    text.trim_end()
        .lines()
        .map(|line| {
            if line.trim().is_empty() {
                String::new()
            } else {
                format!("{pad}{line}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A table cell: pipes escaped, line breaks joined.
fn table_cell(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace('|', "\\|")
}

/// Prose from the YAML as Markdown: the text as written (soft-wrapped lines form one
/// paragraph), with a blank line where a bullet list ends (otherwise the following line would
/// join the last item) and rule codes linked to their pages.
fn markdown_prose(text: &str, own_code: &str) -> String {
    let mut lines: Vec<String> = Vec::new();
    let mut in_list = false;
    for line in text.trim_end().lines() {
        let is_item = is_list_item(line);
        let is_continuation = line.starts_with(' ') || line.starts_with('\t');
        if line.trim().is_empty() {
            in_list = false;
        } else if is_item {
            in_list = true;
        } else if in_list && !is_continuation {
            lines.push(String::new());
            in_list = false;
        }
        lines.push(line.to_string());
    }
    link_codes(&lines.join("\n"), own_code)
}

fn is_list_item(line: &str) -> bool {
    line.starts_with("- ") || line.starts_with("* ")
}

/// Links every other rule's code (`LK002`) in `text` to its page, outside code spans (which
/// may span lines).
fn link_codes(text: &str, own_code: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'`' {
            // A code span: a run of n backticks up to the next run of exactly n, copied as is.
            let run = bytes[i..].iter().take_while(|&&b| b == b'`').count();
            let end = closing_run(text, i + run, run).unwrap_or(i + run);
            out.push_str(&text[i..end]);
            i = end;
            continue;
        }
        if c.is_ascii_alphanumeric() {
            let len = bytes[i..]
                .iter()
                .take_while(|b| b.is_ascii_alphanumeric())
                .count();
            let word = &text[i..i + len];
            let in_link_or_path = out.ends_with('[') || out.ends_with('/');
            if word != own_code && !in_link_or_path && RULE_DOCS.iter().any(|m| m.code == word) {
                let _ = write!(out, "[{word}]({word}.md)");
            } else {
                out.push_str(word);
            }
            i += len;
            continue;
        }
        let ch = text[i..].chars().next().unwrap_or_default();
        out.push(ch);
        i += ch.len_utf8().max(1);
    }
    out
}

/// The byte index just past the first run of exactly `run` backticks at or after `from`.
fn closing_run(text: &str, from: usize, run: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut i = from;
    while i < bytes.len() {
        if bytes[i..].starts_with(b"\n\n") {
            // A code span ends with its paragraph.
            return None;
        }
        if bytes[i] == b'`' {
            let len = bytes[i..].iter().take_while(|&&b| b == b'`').count();
            if len == run {
                return Some(i + len);
            }
            i += len;
        } else {
            i += 1;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn families_and_links() {
        assert_eq!(family("LK005"), "LK");
        assert_eq!(family("SY"), "SY");
        assert_eq!(family_title("MT"), Some("Materialized tables"));
        let code = RULE_DOCS[0].code;
        let other = RULE_DOCS.get(1).map_or("", |m| m.code);
        if !other.is_empty() {
            assert_eq!(
                link_codes(&format!("see {other}, not `{other}`"), code),
                format!("see [{other}]({other}.md), not `{other}`")
            );
        }
        assert_eq!(link_codes(code, code), code);
    }

    #[test]
    fn list_end_gets_a_blank_line() {
        let prose = markdown_prose("Intro:\n- one\n  more\n- two\nAfter.", "XX000");
        assert_eq!(prose, "Intro:\n- one\n  more\n- two\n\nAfter.");
    }

    #[test]
    fn every_page_has_its_sections() {
        for meta in RULE_DOCS {
            let md = rule_markdown(meta);
            let mut headings = vec!["## What it does", "## Why it matters", "## Source"];
            if !meta.examples.is_empty() {
                headings.extend(["## Example", "## Use instead"]);
            }
            for heading in headings {
                assert!(md.contains(heading), "{}: no {heading}", meta.code);
            }
            let text = rule_text(meta);
            assert!(text.starts_with(&format!("{} {}", meta.code, meta.name)));
            assert!(!text.contains("```") && !text.contains("## "));
        }
    }
}
