//! More than one rowtime attribute written into one sink.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::plan::StreamProblem;
use crate::semantic::problems::{Found, Problem};

/// More than one rowtime attribute written into one sink.
pub struct MultipleRowtimeIntoSink;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &MultipleRowtimeIntoSink;

impl Rule for MultipleRowtimeIntoSink {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(
            problem,
            Problem::Streaming(StreamProblem::MultipleRowtimeIntoSink { .. })
        )
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::Streaming(
            p @ StreamProblem::MultipleRowtimeIntoSink {
                span,
                sink_span,
                columns,
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
                format!("this query writes {} rowtime attributes ({}) into one sink", columns.len(), columns.join(", ")),
            )
            .with_label("more than one rowtime attribute")
            .with_related(found.file, *sink_span, "the sink")
            .with_help("keep one rowtime and CAST the others to TIMESTAMP(3) (or TIMESTAMP_LTZ)")
            .with_flink_message(p.flink_message());
        out.report(d);
    }
}
