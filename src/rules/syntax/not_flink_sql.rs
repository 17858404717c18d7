//! Text that is not Flink SQL: another database's script, a Hive stretch, a template.

use crate::dialect::{Dialect, FileVerdict, Reason, Stretch};
use crate::rules::{Context, FileEntry, Reporter, Rule};

/// Notes, once per stretch, the statements that the dialect stage judged not Flink SQL; the
/// runner drops every other finding there ([`Rule::reports_other_dialects`]).
pub struct NotFlinkSql;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &NotFlinkSql;

impl Rule for NotFlinkSql {
    fn reads_model(&self) -> bool {
        false
    }
    fn reports_other_dialects(&self) -> bool {
        true
    }
    fn check(&self, ctx: &Context<'_>, report: &mut Reporter<'_>) {
        for file in ctx.files.iter().filter(|f| f.report) {
            let whole = file.dialect.verdict() == FileVerdict::NotFlink;
            for stretch in &file.dialect.stretches {
                note(file, stretch, whole, report);
            }
        }
    }
}

/// The note of one stretch: what it looks like, the signals (with their lines), what to do.
fn note(file: &FileEntry, stretch: &Stretch, whole: bool, report: &mut Reporter<'_>) {
    let line = |offset: u32| file.source.line_col(offset).line;
    let first = line(stretch.statements_span.start);
    let last = line(stretch.statements_span.end.saturating_sub(1).max(stretch.statements_span.start));
    let (subject, verb, them) = match (whole, first == last) {
        (true, _) => ("this file".to_string(), "looks", "it"),
        (false, true) => (format!("line {first}"), "looks", "it"),
        (false, false) => (format!("lines {first}-{last}"), "look", "them"),
    };
    // A vaguer name that a more precise one already says is left out ("Spark SQL", not
    // "Spark SQL and Spark SQL or Hive SQL").
    let all: Vec<&str> = stretch.dialects.iter().map(|d| d.name()).collect();
    let names: Vec<&str> = all
        .iter()
        .copied()
        .filter(|n| !all.iter().any(|o| o != n && n.contains(o)))
        .collect();
    let dialects = names.join(" and ");
    let signals: Vec<String> = stretch
        .signals
        .iter()
        .map(|s| format!("{} at line {}", s.what, line(s.span.start)))
        .collect();
    let message = if file.dialect.reason == Reason::OtherFiles {
        format!("not Flink SQL: this file matches `other-files` in the configuration; flinklint does not check {them}")
    } else if let Some(set) = stretch.hive_switch {
        format!(
            "not Flink SQL: {subject} follow{} `SET 'table.sql-dialect' = 'hive'` (line {}) and {} Hive SQL; flinklint does not check {them}",
            if verb == "look" { "" } else { "s" },
            line(set.start),
            if verb == "look" { "are" } else { "is" },
        )
    } else {
        format!(
            "not Flink SQL: {subject} {verb} like {dialects} ({}); flinklint does not check {them}",
            signals.join(", ")
        )
    };
    let help = if stretch.dialects.contains(&Dialect::Jinja) {
        "a template is SQL once rendered: check its output (e.g. of `dbt compile`); list files that are Flink SQL under `flink-files` in .flinklint.yaml"
    } else if stretch.dialects.contains(&Dialect::Fragment) {
        "a documentation snippet that shows part of a statement (a clause, `...` for what is left out) is not checked; write the whole statement in the block to have it checked"
    } else if stretch.dialects.contains(&Dialect::Placeholders)
        && stretch.signals.iter().any(|s| s.what.contains("<placeholder>"))
    {
        "documentation with placeholders (`<table name>`) becomes SQL once a reader fills them in; write a name or a value in their place to have the statement checked"
    } else if stretch.dialects.contains(&Dialect::Placeholders) {
        "placeholders are filled in before Flink reads the text: check the text they produce; list files that are Flink SQL under `flink-files` in .flinklint.yaml"
    } else if stretch.hive_switch.is_some() {
        "Flink parses these statements with its Hive parser; `SET 'table.sql-dialect' = 'default'` switches back to Flink SQL"
    } else {
        "if this is Flink SQL, list the file under `flink-files` in .flinklint.yaml; to skip such files without this note, list them under `other-files` and turn SY006 off"
    };
    let label = match stretch.dialects.first() {
        Some(d) => format!("{} starts here", d.name()),
        None => "starts here".to_string(),
    };
    // The signals are in the message with their lines: related locations for each would
    // turn one note into a page.
    let d = report
        .diagnostic(file.id, stretch.at, message)
        .with_label(label)
        .with_help(help);
    report.report(d);
}
