//! A call with an argument count the function does not take (Calcite's `SqlOperator.checkOperandCount`, Flink's type inference).

use super::{emit, issue_of};
use crate::rules::{Context, Reporter, Rule};
use crate::semantic::functions::check::ExprIssue;
use crate::semantic::problems::{Found, Problem};

/// Reports calls with too few or too many arguments.
pub struct FunctionArgumentCount;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &FunctionArgumentCount;

impl Rule for FunctionArgumentCount {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(
            problem,
            Problem::Expression {
                issue: ExprIssue::ArgumentCount { .. },
                ..
            }
        )
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Some((span, issue, flink)) = issue_of(found) else {
            return;
        };
        let ExprIssue::ArgumentCount {
            name,
            given,
            expected,
            declared,
        } = issue
        else {
            return;
        };
        let what = if *declared {
            "as declared in .flinklint.yaml"
        } else {
            "in Flink 2.3"
        };
        emit(
            out,
            found,
            span,
            format!("`{name}` takes {expected} argument{} {what}, this call passes {given}", if expected == "1" { "" } else { "s" }),
            "wrong argument count",
            format!("pass {expected} argument{}", if expected == "1" { "" } else { "s" }),
            flink,
        );
    }
}
