//! ALTER TABLE of a temporary table.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Found, Problem};

/// Reports ALTER TABLE statements on temporary tables, which Flink does not alter.
pub struct AlterTemporaryTable;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &AlterTemporaryTable;

impl Rule for AlterTemporaryTable {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::AlterTemporary { .. })
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::AlterTemporary { span, name, origin } = &found.problem else {
            return;
        };
        let d = out
            .diagnostic(
                found.file,
                *span,
                format!("`{}` is a temporary table, which ALTER TABLE cannot change", name.object),
            )
            .with_label("temporary table")
            .with_related(origin.file, origin.span, "created TEMPORARY here")
            .with_help("change the CREATE TEMPORARY TABLE statement instead (or create the table without TEMPORARY)")
            .with_flink_message(format!("Table {name} doesn't exist or is a temporary table."));
        out.report(d);
    }
}
