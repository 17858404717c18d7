//! A WHERE, HAVING or ON clause that is not a condition (Calcite's `SqlValidatorImpl`: "WHERE clause must be a condition").

use super::{emit, issue_of};
use crate::rules::{Context, Reporter, Rule};
use crate::semantic::functions::check::ExprIssue;
use crate::semantic::problems::{Found, Problem};

/// Reports WHERE, HAVING and ON clauses of a type other than BOOLEAN.
pub struct NonBooleanCondition;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &NonBooleanCondition;

impl Rule for NonBooleanCondition {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(
            problem,
            Problem::Expression {
                issue: ExprIssue::NotCondition { .. },
                ..
            }
        )
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Some((span, issue, flink)) = issue_of(found) else {
            return;
        };
        let ExprIssue::NotCondition { clause, found: t } = issue else {
            return;
        };
        emit(
            out,
            found,
            span,
            format!("the {clause} clause is of type {t}, not BOOLEAN"),
            "not a condition",
            "compare the value: e.g. `x <> 0`, `x IS NOT NULL`".to_string(),
            flink,
        );
    }
}
