//! An untyped `NULL` where Flink cannot infer its type (Calcite's `SqlValidatorImpl`: "Illegal use of 'NULL'").

use super::{emit, issue_of};
use crate::rules::{Context, Reporter, Rule};
use crate::semantic::functions::check::ExprIssue;
use crate::semantic::problems::{Found, Problem};

/// Reports untyped NULL literals Flink cannot type.
pub struct IllegalNull;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &IllegalNull;

impl Rule for IllegalNull {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(
            problem,
            Problem::Expression {
                issue: ExprIssue::IllegalNull,
                ..
            }
        )
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Some((span, issue, flink)) = issue_of(found) else {
            return;
        };
        emit(
            out,
            found,
            span,
            "untyped NULL: Flink cannot infer its type here".to_string(),
            "untyped NULL",
            "give the NULL a type: CAST(NULL AS INT)".to_string(),
            flink,
        );
        let _ = issue;
    }
}
