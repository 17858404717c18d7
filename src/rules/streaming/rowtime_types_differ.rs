//! An interval join or event-time temporal join whose two rowtimes differ in type.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::plan::StreamProblem;
use crate::semantic::problems::{Found, Problem};

/// A join on two rowtime attributes of different types (TIMESTAMP and TIMESTAMP_LTZ).
pub struct RowtimeTypesDiffer;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &RowtimeTypesDiffer;

impl Rule for RowtimeTypesDiffer {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(
            problem,
            Problem::Streaming(StreamProblem::RowtimeTypesDiffer { .. })
        )
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::Streaming(
            p @ StreamProblem::RowtimeTypesDiffer {
                span,
                temporal,
                left,
                right,
            },
        ) = &found.problem
        else {
            return;
        };
        let (join, label) = if *temporal {
            ("event-time temporal join", "the probe side's rowtime")
        } else {
            ("interval join", "rowtimes of different types")
        };
        let strip = |t: &str| t.trim_end_matches(" *ROWTIME*").to_string();
        let d = out
            .diagnostic(
                found.file,
                *span,
                format!(
                    "this {join} relates rowtimes of different types: {} and {}",
                    strip(left),
                    strip(right)
                ),
            )
            .with_label(label)
            .with_help("declare both rowtime columns (the watermarks' columns) with one type: both TIMESTAMP(3) or both TIMESTAMP_LTZ(3)")
            .with_flink_message(p.flink_message());
        out.report(d);
    }
}
