//! A view whose stored query Flink cannot parse back: a date-time keyword without an alias.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Found, Problem};
use crate::semantic::validate::NameProblem;

/// Reports queries reading a view that selects `LOCALTIME` (and the like) without an alias.
pub struct ViewKeywordColumn;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &ViewKeywordColumn;

impl Rule for ViewKeywordColumn {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::Names(NameProblem::ViewKeywordColumn { .. }))
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::Names(NameProblem::ViewKeywordColumn {
            span,
            view,
            keyword,
            first,
        }) = &found.problem
        else {
            return;
        };
        let mut d = out
            .diagnostic(
                found.file,
                *span,
                format!("view `{view}` selects {keyword} without an alias: Flink cannot read the view back"),
            )
            .with_label("its stored query does not parse")
            .with_help(format!(
                "give the column an alias in the view's query: {keyword} AS {}",
                keyword.to_ascii_lowercase()
            ));
        if *first {
            // Flink's stored text: `SELECT LOCALTIME AS LOCALTIME`.
            d = d.with_flink_message(format!(
                "Incorrect syntax near the keyword '{keyword}' at line 1, column {}.",
                12 + keyword.len()
            ));
        }
        out.report(d);
    }
}
