//! A window table function over a column that is not a time attribute.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::plan::StreamProblem;
use crate::semantic::problems::{Found, Problem};

/// A window table function over a column that is not a time attribute.
pub struct WindowOnNonTimeAttribute;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &WindowOnNonTimeAttribute;

impl Rule for WindowOnNonTimeAttribute {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(
            problem,
            Problem::Streaming(StreamProblem::WindowOnNonTimeAttribute { .. })
        )
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::Streaming(
            p @ StreamProblem::WindowOnNonTimeAttribute {
                span,
                function,
                column,
                type_text,
                ..
            },
        ) = &found.problem
        else {
            return;
        };
        let d = out
            .diagnostic(
                found.file,
                *span,
                format!("{function} over `{column}`, which is not a time attribute ({type_text})"),
            )
            .with_label("not a time attribute")
            .with_help("window over the table's rowtime column (the column of its WATERMARK) or a PROCTIME() column; a time attribute stays one only when passed through unchanged (a CAST, a regular join or a GROUP BY turns it into a plain TIMESTAMP)")
            .with_flink_message(p.flink_message());
        out.report(d);
    }
}
