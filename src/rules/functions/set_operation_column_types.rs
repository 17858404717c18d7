//! A UNION, INTERSECT or EXCEPT whose inputs have a column of types without a common type (Calcite's `SqlValidatorImpl`: "Type mismatch in column 1 of UNION").

use super::{emit, issue_of};
use crate::rules::{Context, Reporter, Rule};
use crate::semantic::functions::check::ExprIssue;
use crate::semantic::problems::{Found, Problem};

/// Reports set operations whose inputs have incompatible column types.
pub struct SetOperationColumnTypes;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &SetOperationColumnTypes;

impl Rule for SetOperationColumnTypes {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(
            problem,
            Problem::Expression {
                issue: ExprIssue::SetColumnTypes { .. },
                ..
            }
        )
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Some((span, issue, flink)) = issue_of(found) else {
            return;
        };
        let ExprIssue::SetColumnTypes {
            op,
            column,
            left,
            right,
        } = issue
        else {
            return;
        };
        emit(
            out,
            found,
            span,
            format!("column {column} of {op} is {left} on one side and {right} on the other"),
            "type mismatch",
            "CAST the column on one side to the type of the other".to_string(),
            flink,
        );
    }
}
