//! A UNION, INTERSECT or EXCEPT of inputs with different column counts (Calcite's `SqlValidatorImpl`: "Column count mismatch in UNION").

use super::{emit, issue_of};
use crate::rules::{Context, Reporter, Rule};
use crate::semantic::functions::check::ExprIssue;
use crate::semantic::problems::{Found, Problem};

/// Reports set operations whose inputs differ in column count.
pub struct SetOperationColumnCount;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &SetOperationColumnCount;

impl Rule for SetOperationColumnCount {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(
            problem,
            Problem::Expression {
                issue: ExprIssue::SetColumnCount { .. },
                ..
            }
        )
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Some((span, issue, flink)) = issue_of(found) else {
            return;
        };
        let ExprIssue::SetColumnCount { op, left, right } = issue else {
            return;
        };
        emit(
            out,
            found,
            span,
            format!("the inputs of {op} have {left} and {right} columns"),
            "column count mismatch",
            "select the same number of columns on both sides".to_string(),
            flink,
        );
    }
}
