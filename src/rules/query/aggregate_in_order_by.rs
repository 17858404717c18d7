//! An aggregate call in the ORDER BY of a SELECT that does not aggregate.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Found, Problem};
use crate::semantic::validate::NameProblem;

/// An aggregate call in the ORDER BY of a SELECT without GROUP BY, HAVING or aggregates.
pub struct AggregateInOrderBy;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &AggregateInOrderBy;

/// Flink's message (Calcite's `CalciteResource.aggregateIllegalInOrderBy`).
pub const FLINK_MESSAGE: &str =
    "Aggregate expression is illegal in ORDER BY clause of non-aggregating SELECT";

impl Rule for AggregateInOrderBy {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::Names(NameProblem::IllegalAggregate { clause: "ORDER BY", .. }))
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::Names(NameProblem::IllegalAggregate { span, .. }) = &found.problem else {
            return;
        };
        let d = out
            .diagnostic(found.file, *span, "aggregate in the ORDER BY of a SELECT that does not aggregate: there is no group to compute it over")
            .with_label("aggregate in ORDER BY")
            .with_help("select the aggregate (with a GROUP BY) and order by its alias, or order by a column")
            .with_flink_message(FLINK_MESSAGE);
        out.report(d);
    }
}
