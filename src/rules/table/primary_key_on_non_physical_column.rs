//! TB003 primary-key-on-non-physical-column: a primary key over a computed, metadata or
//! unknown column.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{PrimaryKeyIssue, Problem};

/// Reports primary key columns that are not physical columns of the table.
pub struct PrimaryKeyOnNonPhysicalColumn;

impl Rule for PrimaryKeyOnNonPhysicalColumn {
    fn code(&self) -> &'static str {
        "TB003"
    }
    fn check(&self, ctx: &Context<'_>, report: &mut Reporter<'_>) {
        for found in ctx.problems(self.code()) {
            let Problem::InvalidPrimaryKey {
                span,
                column,
                issue,
            } = &found.problem
            else {
                continue;
            };
            let at = ctx.flink_position(found.file, found.statement, span.start);
            let (message, flink) = match issue {
                PrimaryKeyIssue::UnknownColumn => (
                    format!("primary key column `{column}` is not a column of the table"),
                    format!("Primary key column '{column}' is not defined in the schema at {at}"),
                ),
                PrimaryKeyIssue::NullableQueryColumn { constraint } => (
                    format!("primary key column `{column}` comes from the query and may be NULL"),
                    format!("Invalid primary key '{constraint}'. Column '{column}' is nullable."),
                ),
                PrimaryKeyIssue::NotPhysical => (
                    format!("primary key column `{column}` is not a physical column"),
                    format!("Could not create a PRIMARY KEY with column '{column}' at {at}.\nA PRIMARY KEY constraint must be declared on physical columns."),
                ),
            };
            let d = report
                .diagnostic(found.file, *span, message)
                .with_help("a primary key may only use physical columns of the table")
                .with_flink_message(flink);
            report.report(d);
        }
    }
}
