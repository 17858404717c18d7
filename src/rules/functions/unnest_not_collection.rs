//! `UNNEST` of a value that is not an ARRAY, MAP or MULTISET (Calcite's `SqlUnnestOperator`).

use super::{emit, issue_of};
use crate::rules::{Context, Reporter, Rule};
use crate::semantic::functions::check::ExprIssue;
use crate::semantic::problems::{Found, Problem};

/// Reports UNNEST of a scalar value.
pub struct UnnestNotCollection;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &UnnestNotCollection;

impl Rule for UnnestNotCollection {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(
            problem,
            Problem::Expression {
                issue: ExprIssue::UnnestNotCollection { .. },
                ..
            }
        )
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Some((span, issue, flink)) = issue_of(found) else {
            return;
        };
        let ExprIssue::UnnestNotCollection { found: t } = issue else {
            return;
        };
        emit(
            out,
            found,
            span,
            format!("UNNEST of a value of type {t}: only an ARRAY, MAP or MULTISET can be unnested"),
            "not a collection",
            "unnest an ARRAY, MAP or MULTISET column; to split a string use a table function such as SPLIT_INDEX or a UDTF".to_string(),
            flink,
        );
    }
}
