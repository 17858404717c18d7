//! A query reading a table the script dropped or renamed earlier.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Found, Problem};
use crate::semantic::validate::NameProblem;

/// Reports a table, view or materialized table read by a name the script dropped (or renamed)
/// earlier and did not create again.
pub struct DroppedTable;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &DroppedTable;

impl Rule for DroppedTable {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::Names(NameProblem::DroppedTable { .. }))
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::Names(NameProblem::DroppedTable { span, name, within }) = &found.problem
        else {
            return;
        };
        // Calcite's `objectNotFound` / `objectNotFoundWithin`.
        let flink = match within {
            Some(w) => format!("Object '{name}' not found within '{w}'"),
            None => format!("Object '{name}' not found"),
        };
        let d = out
            .diagnostic(
                found.file,
                *span,
                format!("`{name}` was dropped or renamed earlier in this script and not created again"),
            )
            .with_label("no longer exists here")
            .with_help("read the table under its new name, or create it again before this statement")
            .with_flink_message(flink);
        out.report(d);
    }
}
