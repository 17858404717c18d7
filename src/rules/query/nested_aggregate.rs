//! An aggregate call inside another.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Found, Problem};
use crate::semantic::validate::NameProblem;

/// An aggregate call inside another.
pub struct NestedAggregate;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &NestedAggregate;

impl Rule for NestedAggregate {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::Names(NameProblem::NestedAggregate { .. }))
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::Names(NameProblem::NestedAggregate { span, outer }) = &found.problem
        else {
            return;
        };
        let d = out
            .diagnostic(found.file, *span, format!("aggregate call nested in `{outer}`"))
            .with_label("nested aggregate")
            .with_help("aggregate in a subquery (with its GROUP BY) and aggregate its result in the outer query")
            .with_flink_message("Aggregate expressions cannot be nested");
        out.report(d);
    }
}
