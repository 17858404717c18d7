//! MT010 unsupported-alter-form: ALTER MATERIALIZED TABLE forms Flink 2.3 rejects.

use crate::rules::{Context, Reporter, Rule};
use crate::syntax::ast::*;

/// Reports SET FRESHNESS, SET REFRESH_MODE, SET (...), RESET (...), SET START_MODE without a
/// query and RENAME TO on a materialized table.
pub struct UnsupportedAlterForm;

impl Rule for UnsupportedAlterForm {
    fn code(&self) -> &'static str {
        "MT010"
    }
    fn check(&self, ctx: &Context<'_>, report: &mut Reporter<'_>) {
        for file in ctx.files {
            for statement in file.parsed.script.all_statements() {
                let StatementKind::AlterMaterializedTable(alter) = &statement.kind else {
                    continue;
                };
                let (form, flink, help) = match &alter.action {
                    AlterMaterializedTableAction::SetFreshness(_) => (
                        "SET FRESHNESS",
                        Some(unsupported_query(file, statement)),
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
                        None,
                        "Flink 2.3's parser has no RENAME TO for materialized tables: create the new name and drop the old one",
                    ),
                    AlterMaterializedTableAction::SetStartMode(_) => (
                        "SET START_MODE without a query",
                        None,
                        "a start mode applies when the query changes: CREATE OR ALTER MATERIALIZED TABLE ... START_MODE = ... AS query",
                    ),
                    _ => continue,
                };
                let mut d = report
                    .diagnostic(
                        file.id,
                        statement.span,
                        format!(
                            "ALTER MATERIALIZED TABLE ... {form} is not supported by {}",
                            ctx.settings.target
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
