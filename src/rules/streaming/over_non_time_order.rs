//! A bounded OVER window ordered by a column that is not a time attribute.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::plan::StreamProblem;
use crate::semantic::problems::{Found, Problem};

/// A bounded OVER window ordered by a column that is not a time attribute.
pub struct OverNonTimeOrder;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &OverNonTimeOrder;

impl Rule for OverNonTimeOrder {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(
            problem,
            Problem::Streaming(StreamProblem::OverNonTimeSort { .. })
        )
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::Streaming(p @ StreamProblem::OverNonTimeSort { span, column }) = &found.problem
        else {
            return;
        };
        let what = if column.is_empty() {
            "an expression".to_string()
        } else {
            format!("`{column}`")
        };
        let d = out
            .diagnostic(
                found.file,
                *span,
                format!("bounded OVER window ordered by {what}, which is not a time attribute"),
            )
            .with_label("not a time attribute")
            .with_help("order the window by a rowtime or PROCTIME() column passed through unchanged, or use an unbounded frame (ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)")
            .with_flink_message(p.flink_message());
        out.report(d);
    }
}
