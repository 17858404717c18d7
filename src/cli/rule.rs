//! `flinklint rule`, `flinklint rules` and `flinklint completions`: the rule documentation of
//! `rules/<CODE>.yaml` in the terminal, and shell completions.

use clap::CommandFactory;
use flinklint::docs;
use flinklint::rules::meta::{RuleMeta, RULE_DOCS};
use std::process::ExitCode;

/// Arguments of `rule`.
#[derive(Debug, clap::Args)]
pub struct RuleArgs {
    /// The rule's code (`SY001`, any case) or name (`syntax-error`).
    #[arg(value_name = "CODE|NAME")]
    rule: String,
}

/// Output formats of `rules`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ListFormat {
    /// An aligned table: code, name, severity, fix, summary.
    Table,
    /// A JSON array with every field of each rule's YAML, examples included.
    Json,
}

/// Arguments of `rules`.
#[derive(Debug, clap::Args)]
pub struct RulesArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = ListFormat::Table)]
    format: ListFormat,
}

/// Arguments of `completions`.
#[derive(Debug, clap::Args)]
pub struct CompletionsArgs {
    /// The shell to print completions for.
    #[arg(value_enum)]
    shell: clap_complete::Shell,
}

/// Writes `text` to standard output; a closed pipe (`| head`) is not an error.
fn print(text: &str) -> ExitCode {
    match super::print_stdout(text) {
        Ok(()) => ExitCode::SUCCESS,
        Err(code) => code,
    }
}

/// Runs `rule`: the rule's page as plain text; exit 2 with a suggestion when it is unknown.
pub fn rule(args: RuleArgs) -> ExitCode {
    if let Some(meta) = flinklint::registry::find(&args.rule) {
        return print(&docs::rule_text(meta));
    }
    let mut message = format!(
        "flinklint: unknown rule `{}`",
        flinklint::source::escape::text(&args.rule)
    );
    if let Some((meta, by_name)) = flinklint::registry::closest(&args.rule) {
        if by_name {
            message.push_str(&format!("; did you mean `{}` ({})?", meta.name, meta.code));
        } else {
            message.push_str(&format!("; did you mean `{}` ({})?", meta.code, meta.name));
        }
    }
    eprintln!("{message}\n`flinklint rules` lists every rule.");
    ExitCode::from(2)
}

/// Runs `rules`: every rule as a table or as JSON.
pub fn rules(args: RulesArgs) -> ExitCode {
    match args.format {
        ListFormat::Table => print(&table(RULE_DOCS)),
        ListFormat::Json => {
            let list: Vec<serde_json::Value> = RULE_DOCS.iter().map(rule_json).collect();
            let text = flinklint::source::escape::json_pretty(&list);
            print(&format!("{text}\n"))
        }
    }
}

/// The aligned table of `rules`; the summary, last, is not padded.
fn table(rules: &[RuleMeta]) -> String {
    let header = ["CODE", "NAME", "SEVERITY", "FIX"];
    let rows: Vec<[&str; 4]> = rules
        .iter()
        .map(|m| [m.code, m.name, m.severity.as_str(), m.fix.as_str()])
        .collect();
    let mut widths = header.map(str::len);
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    let mut line = |cells: [&str; 4], summary: &str| {
        for (cell, width) in cells.iter().zip(widths) {
            out.push_str(&format!("{cell:<width$}  "));
        }
        out.push_str(summary);
        out.push('\n');
    };
    line(header, "SUMMARY");
    for (row, meta) in rows.into_iter().zip(rules) {
        line(row, meta.summary);
    }
    out
}

/// One rule as JSON: every field of its YAML.
fn rule_json(meta: &RuleMeta) -> serde_json::Value {
    let examples: Vec<serde_json::Value> = meta
        .examples
        .iter()
        .map(|e| {
            serde_json::json!({
                "name": e.name,
                "target": e.target,
                "bad": e.bad,
                "good": e.good,
            })
        })
        .collect();
    let others: Vec<&str> = meta.other_severities.iter().map(|s| s.as_str()).collect();
    serde_json::json!({
        "code": meta.code,
        "name": meta.name,
        "summary": meta.summary,
        "severity": meta.severity.as_str(),
        "other_severities": others,
        "fix": meta.fix.as_str(),
        "since": meta.since,
        "source": meta.source,
        "what": meta.what,
        "why": meta.why,
        "examples": examples,
    })
}

/// Runs `completions`: the completion script of `shell` on standard output.
pub fn completions(args: CompletionsArgs) -> ExitCode {
    let mut command = super::Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "flinklint", &mut script);
    print(&String::from_utf8_lossy(&script))
}
