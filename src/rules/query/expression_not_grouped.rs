//! A column of an aggregate query outside aggregate calls and GROUP BY.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Found, Problem};
use crate::semantic::validate::NameProblem;

/// A column of an aggregate query outside aggregate calls and GROUP BY.
pub struct ExpressionNotGrouped;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &ExpressionNotGrouped;

impl Rule for ExpressionNotGrouped {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::Names(NameProblem::NotGrouped { .. }))
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::Names(NameProblem::NotGrouped {
            span,
            expr,
            clause,
            distinct,
        }) = &found.problem
        else {
            return;
        };
        let d = if *distinct {
            out.diagnostic(
                found.file,
                *span,
                format!("`{expr}` in the ORDER BY of a SELECT DISTINCT is not in the select list"),
            )
            .with_label("not selected")
            .with_help(format!("select `{expr}` too, or order by a selected column"))
            .with_flink_message(format!("Expression '{expr}' is not in the select clause"))
        } else {
            out.diagnostic(
                found.file,
                *span,
                format!("`{expr}` in {clause} is neither grouped nor aggregated"),
            )
            .with_label("not in GROUP BY")
            .with_help(format!(
                "add `{expr}` to GROUP BY, or aggregate it (e.g. MAX({expr}), LAST_VALUE({expr}))"
            ))
            .with_flink_message(format!("Expression '{expr}' is not being grouped"))
        };
        out.report(d);
    }
}
