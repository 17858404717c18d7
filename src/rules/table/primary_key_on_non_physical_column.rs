//! A primary key over a computed, metadata or unknown column.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{PrimaryKeyIssue, Found, Problem};

/// Reports primary key columns that are not physical columns of the table.
pub struct PrimaryKeyOnNonPhysicalColumn;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &PrimaryKeyOnNonPhysicalColumn;

impl Rule for PrimaryKeyOnNonPhysicalColumn {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::InvalidPrimaryKey { .. })
    }
    fn report(&self, ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::InvalidPrimaryKey {
            span,
            column,
            issue,
        } = &found.problem
        else {
            return;
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
        let d = out
            .diagnostic(found.file, *span, message)
            .with_help("a primary key may only use physical columns of the table")
            .with_flink_message(flink);
        out.report(d);
    }
}
