//! A CAST between types Flink cannot convert (Calcite's `SqlCastFunction`, Flink's `LogicalTypeCasts` and planner cast rules).

use super::{emit, issue_of};
use crate::rules::{Context, Reporter, Rule};
use crate::semantic::functions::check::ExprIssue;
use crate::semantic::problems::{Found, Problem};

/// Reports CASTs Flink rejects.
pub struct ImpossibleCast;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &ImpossibleCast;

impl Rule for ImpossibleCast {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(
            problem,
            Problem::Expression {
                issue: ExprIssue::ImpossibleCast { .. },
                ..
            }
        )
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Some((span, issue, flink)) = issue_of(found) else {
            return;
        };
        let ExprIssue::ImpossibleCast { from, to } = issue else {
            return;
        };
        emit(
            out,
            found,
            span,
            format!("Flink cannot CAST {from} to {to}"),
            "impossible cast",
            "convert with a function instead (TO_TIMESTAMP, UNIX_TIMESTAMP, DATE_FORMAT, ...), or cast through STRING where Flink allows it".to_string(),
            flink,
        );
    }
}
