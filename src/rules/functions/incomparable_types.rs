//! A comparison between types Flink does not compare (Calcite's operand checks, and the planner's "implicit type conversion ... is not supported now").

use super::{emit, issue_of};
use crate::rules::{Context, Reporter, Rule};
use crate::semantic::functions::check::ExprIssue;
use crate::semantic::problems::{Found, Problem};

/// Reports = and <> between incomparable types.
pub struct IncomparableTypes;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &IncomparableTypes;

impl Rule for IncomparableTypes {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(
            problem,
            Problem::Expression {
                issue: ExprIssue::Comparison { .. },
                ..
            }
        )
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Some((span, issue, flink)) = issue_of(found) else {
            return;
        };
        let ExprIssue::Comparison { op, left, right } = issue else {
            return;
        };
        emit(
            out,
            found,
            span,
            format!("Flink does not compare {left} {op} {right}"),
            "incomparable types",
            "CAST one side to the type of the other, e.g. `id = CAST('42' AS INT)` or a numeric literal".to_string(),
            flink,
        );
    }
}
