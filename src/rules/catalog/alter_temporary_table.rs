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
        let Problem::AlterTemporary {
            span,
            name,
            origin,
            view,
        } = &found.problem
        else {
            return;
        };
        let (what, statement, capital) = if *view {
            ("view", "ALTER VIEW", "View")
        } else {
            ("table", "ALTER TABLE", "Table")
        };
        let d = out
            .diagnostic(
                found.file,
                *span,
                format!("`{}` is a temporary {what}, which {statement} cannot change", name.object),
            )
            .with_label(format!("temporary {what}"))
            .with_related(origin.file, origin.span, "created TEMPORARY here")
            .with_help(format!("change the CREATE TEMPORARY {} statement instead (or create the {what} without TEMPORARY)", what.to_uppercase()))
            .with_flink_message(format!("{capital} {name} doesn't exist or is a temporary {what}."));
        out.report(d);
    }
}
