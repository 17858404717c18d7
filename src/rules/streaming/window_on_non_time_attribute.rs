//! A window (a window table function or a legacy group window) over a column that is not a
//! time attribute.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::plan::{StreamProblem, WindowCheck};
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
                stage,
                ..
            },
        ) = &found.problem
        else {
            return;
        };
        let (message, label) = match stage {
            WindowCheck::Planner => (
                format!("{function} over `{column}`, which is not a time attribute ({type_text})"),
                "not a time attribute",
            ),
            WindowCheck::Validator => (
                format!("{function} over `{column}`, a {type_text}: a window's time column must be a TIMESTAMP or TIMESTAMP_LTZ time attribute"),
                "not a TIMESTAMP",
            ),
            WindowCheck::GroupWindow => (
                format!("GROUP BY {function} over `{column}`, which is not a time attribute ({type_text})"),
                "not a time attribute",
            ),
        };
        let d = out
            .diagnostic(found.file, *span, message)
            .with_label(label)
            .with_help("window over the table's rowtime column (the column of its WATERMARK) or a PROCTIME() column; a time attribute stays one only when passed through unchanged (a CAST, a regular join, a GROUP BY or a group window's TUMBLE_START / TUMBLE_END turns it into a plain TIMESTAMP; TUMBLE_ROWTIME keeps it)")
            .with_flink_message(p.flink_message());
        out.report(d);
    }
}
