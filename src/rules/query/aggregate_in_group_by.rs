//! An aggregate call in GROUP BY.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Found, Problem};
use crate::semantic::validate::NameProblem;

/// An aggregate call in GROUP BY.
pub struct AggregateInGroupBy;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &AggregateInGroupBy;

impl Rule for AggregateInGroupBy {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::Names(NameProblem::IllegalAggregate { clause: "GROUP BY", .. }))
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::Names(NameProblem::IllegalAggregate { span, windowed, .. }) = &found.problem
        else {
            return;
        };
        let flink = if *windowed {
            "Windowed aggregate expression is illegal in GROUP BY clause"
        } else {
            "Aggregate expression is illegal in GROUP BY clause"
        };
        let d = out
            .diagnostic(found.file, *span, "aggregate in GROUP BY: groups are formed before aggregates are computed")
            .with_label("aggregate in GROUP BY")
            .with_help("group by columns or expressions of the input; aggregate in a subquery first to group by an aggregate's result")
            .with_flink_message(flink);
        out.report(d);
    }
}
