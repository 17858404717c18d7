//! A call or arithmetic operator whose arguments have types its signature does not accept (Calcite's `SqlCallBinding.newValidationSignatureError`: "Cannot apply ...").

use super::{emit, issue_of};
use crate::rules::{Context, Reporter, Rule};
use crate::semantic::functions::check::ExprIssue;
use crate::semantic::problems::{Found, Problem};

/// Reports arguments of types a function or operator does not accept.
pub struct FunctionArgumentTypes;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &FunctionArgumentTypes;

impl Rule for FunctionArgumentTypes {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(
            problem,
            Problem::Expression {
                issue: ExprIssue::ArgumentTypes { .. } | ExprIssue::MixedBranches { .. },
                ..
            }
        )
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Some((span, issue, flink)) = issue_of(found) else {
            return;
        };
        if let ExprIssue::MixedBranches { types } = issue {
            emit(
                out,
                found,
                span,
                format!("the results of this CASE have types with no common type: {}", types.join(", ")),
                "results of incompatible types",
                "CAST the results to one type, e.g. `CAST(n AS STRING)` beside strings".to_string(),
                flink,
            );
            return;
        }
        let ExprIssue::ArgumentTypes {
            name,
            given,
            expected,
        } = issue
        else {
            return;
        };
        emit(
            out,
            found,
            span,
            format!("`{name}` does not accept arguments of type {given}"),
            "argument types not accepted",
            format!("Flink accepts {expected}: CAST the argument to the type the function takes"),
            flink,
        );
    }
}
