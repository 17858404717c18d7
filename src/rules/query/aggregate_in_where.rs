//! An aggregate call in WHERE or ON.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Found, Problem};
use crate::semantic::validate::NameProblem;

/// An aggregate call in WHERE or ON.
pub struct AggregateInWhere;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &AggregateInWhere;

impl Rule for AggregateInWhere {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::Names(NameProblem::IllegalAggregate { clause: "WHERE" | "ON", .. }))
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::Names(NameProblem::IllegalAggregate { span, clause, windowed }) = &found.problem
        else {
            return;
        };
        let (what, help) = if *windowed {
            ("windowed aggregate", "compute the OVER aggregate in a subquery and filter its result in the outer query's WHERE")
        } else if *clause == "ON" {
            ("aggregate", "aggregate in a subquery first and join its result")
        } else {
            ("aggregate", "filter groups with HAVING, or aggregate in a subquery and filter its result")
        };
        let flink = if *windowed {
            format!("Windowed aggregate expression is illegal in {clause} clause")
        } else {
            format!("Aggregate expression is illegal in {clause} clause")
        };
        let d = out
            .diagnostic(found.file, *span, format!("{what} in {clause}: {clause} filters rows before they are aggregated"))
            .with_label(format!("{what} in {clause}"))
            .with_help(help)
            .with_flink_message(flink);
        out.report(d);
    }
}
