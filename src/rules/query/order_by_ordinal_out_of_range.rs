//! An ORDER BY ordinal that names no column of the query.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Found, Problem};
use crate::semantic::validate::NameProblem;

/// An ORDER BY ordinal below 1 or above the number of the query's columns.
pub struct OrderByOrdinalOutOfRange;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &OrderByOrdinalOutOfRange;

/// Flink's message (Calcite's `CalciteResource.orderByOrdinalOutOfRange`).
pub const FLINK_MESSAGE: &str = "Ordinal out of range";

impl Rule for OrderByOrdinalOutOfRange {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::Names(NameProblem::OrdinalOutOfRange { .. }))
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::Names(NameProblem::OrdinalOutOfRange { span, ordinal, columns }) =
            &found.problem
        else {
            return;
        };
        let plural = if *columns == 1 { "" } else { "s" };
        let d = out
            .diagnostic(found.file, *span, format!("ORDER BY {ordinal} names no column: the query has {columns} column{plural}"))
            .with_label(format!("ordinal {ordinal} of {columns}"))
            .with_help(format!("write a position from 1 to {columns}, or the column's name"))
            .with_flink_message(FLINK_MESSAGE);
        out.report(d);
    }
}
