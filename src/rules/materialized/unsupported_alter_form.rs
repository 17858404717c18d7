//! ALTER MATERIALIZED TABLE forms Flink 2.3 rejects.

use super::invalid_freshness::NOT_INTERVAL;
use super::literals;
use crate::rules::{Context, Reporter, Rule};
use crate::syntax::ast::*;
use crate::syntax::expected;

/// Reports SET FRESHNESS, SET REFRESH_MODE, SET (...), RESET (...), RENAME TO and RENAME of a
/// column on a materialized table. (`SET START_MODE` is SY005's: no Flink version has it.)
pub struct UnsupportedAlterForm;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &UnsupportedAlterForm;

impl Rule for UnsupportedAlterForm {
    fn reads_model(&self) -> bool {
        false
    }
    fn check(&self, ctx: &Context<'_>, report: &mut Reporter<'_>) {
        for file in ctx.files {
            for statement in file.parsed.script.all_statements() {
                let StatementKind::AlterMaterializedTable(alter) = &statement.kind else {
                    continue;
                };
                // Flink's parser stops at RENAME, the first token after the name.
                let rename_error = || {
                    let at = file
                        .parsed
                        .tokens
                        .iter()
                        .find(|t| t.span.start >= alter.name.span.end && !t.kind.is_trivia())
                        .map_or(statement.span, |t| t.span);
                    ctx.flink_encountered(file.id, statement.span, at, expected::ALTER_MT_ACTIONS)
                };
                let (form, flink, help) = match &alter.action {
                    AlterMaterializedTableAction::SetFreshness(f) => (
                        "SET FRESHNESS",
                        // A value that is not an interval literal fails in Flink's parser first.
                        Some(
                            if literals::interval_literal(&file.source.text, &f.interval).is_none() {
                                NOT_INTERVAL.to_string()
                            } else {
                                unsupported_query(file, statement)
                            },
                        ),
                        "redeploy with CREATE OR ALTER MATERIALIZED TABLE; note that it ignores a changed FRESHNESS on an existing table, so DROP and CREATE it to change the freshness",
                    ),
                    AlterMaterializedTableAction::SetRefreshMode(_) => (
                        "SET REFRESH_MODE",
                        Some(unsupported_query(file, statement)),
                        "the refresh mode cannot be changed: DROP and CREATE the materialized table",
                    ),
                    AlterMaterializedTableAction::SetOptions(_) => (
                        "SET (...)",
                        Some(unsupported_query(file, statement)),
                        "change options with CREATE OR ALTER MATERIALIZED TABLE ... WITH (...), which applies them",
                    ),
                    AlterMaterializedTableAction::ResetOptions(_) => (
                        "RESET (...)",
                        Some(unsupported_query(file, statement)),
                        "remove options with CREATE OR ALTER MATERIALIZED TABLE, omitting them from WITH (...)",
                    ),
                    AlterMaterializedTableAction::RenameTo(_) => (
                        "RENAME TO",
                        Some(rename_error()),
                        "Flink 2.3's parser has no RENAME TO for materialized tables: create the new name and drop the old one",
                    ),
                    AlterMaterializedTableAction::RenameColumn { .. } => (
                        "RENAME of a column",
                        Some(rename_error()),
                        "Flink 2.3 cannot rename a materialized table's column: give the column its new name in the query (AS new_name) and redeploy with CREATE OR ALTER MATERIALIZED TABLE; note that Flink accepts only appended columns, so a renamed column needs a new table",
                    ),
                    _ => continue,
                };
                let mut d = report
                    .diagnostic(
                        file.id,
                        statement.span,
                        format!(
                            "ALTER MATERIALIZED TABLE ... {form} is not supported by {}",
                            ctx.target(file.id)
                        ),
                    )
                    .with_help(help);
                if let Some(flink) = flink {
                    d = d.with_flink_message(flink);
                }
                report.report(d);
            }
        }
    }
}

/// Flink's message quotes the statement back: "Unsupported query: <statement>".
fn unsupported_query(file: &crate::rules::FileEntry, statement: &Statement) -> String {
    let text: Vec<&str> = file
        .source
        .slice(statement.span)
        .split_whitespace()
        .collect();
    format!("Unsupported query: {}", text.join(" "))
}
