//! A processing-time temporal join on a table that is not a lookup source.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::plan::StreamProblem;
use crate::semantic::problems::{Found, Problem};

/// A processing-time temporal join on a table that is not a lookup source.
pub struct ProcessingTimeTemporalJoin;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &ProcessingTimeTemporalJoin;

impl Rule for ProcessingTimeTemporalJoin {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(
            problem,
            Problem::Streaming(StreamProblem::ProcessingTimeTemporalJoin { .. })
        )
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::Streaming(
            p @ StreamProblem::ProcessingTimeTemporalJoin {
                span,
                table,
                connector,
            },
        ) = &found.problem
        else {
            return;
        };
        let d = out
            .diagnostic(
                found.file,
                *span,
                format!("processing-time temporal join on `{table}`, whose connector `{connector}` is not a lookup source"),
            )
            .with_label("not a lookup source")
            .with_help("join AS OF the probe side's rowtime (an event-time temporal join), or read the dimension table through a lookup connector (jdbc, hbase, elasticsearch)")
            .with_flink_message(p.flink_message());
        out.report(d);
    }
}
