//! What Flink's streaming planner cannot run: an OFFSET without FETCH, a window of a
//! year-month interval, LEAD.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::plan::StreamProblem;
use crate::semantic::problems::{Found, Problem};

/// A construct with no streaming implementation.
pub struct UnsupportedInStreaming;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &UnsupportedInStreaming;

impl Rule for UnsupportedInStreaming {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(
            problem,
            Problem::Streaming(
                StreamProblem::OffsetWithoutFetch { .. }
                    | StreamProblem::WindowUnitUnsupported { .. }
                    | StreamProblem::LeadInStream { .. }
            )
        )
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::Streaming(p) = &found.problem else {
            return;
        };
        let d = match p {
            StreamProblem::OffsetWithoutFetch { span } => out
                .diagnostic(
                    found.file,
                    *span,
                    "OFFSET without FETCH or LIMIT: a streaming query skips rows only with a limit on the rows it keeps",
                )
                .with_label("no FETCH or LIMIT")
                .with_help("add `FETCH NEXT n ROWS ONLY` (or `LIMIT n`), or drop the OFFSET"),
            StreamProblem::WindowUnitUnsupported { span } => out
                .diagnostic(
                    found.file,
                    *span,
                    "window of a MONTH or YEAR interval: Flink's windows are sized in days, hours, minutes and seconds",
                )
                .with_label("a year-month interval")
                .with_help("size the window in DAY, HOUR, MINUTE or SECOND (`INTERVAL '30' DAY`), or group by a month column computed from the time attribute"),
            StreamProblem::LeadInStream { span } => out
                .diagnostic(
                    found.file,
                    *span,
                    "LEAD over a stream: a streaming OVER aggregate cannot read rows that have not arrived",
                )
                .with_label("LEAD")
                .with_help("use LAG and order the other way round in a later step, or compute the next row with an interval join"),
            _ => return,
        };
        out.report(d.with_flink_message(p.flink_message()));
    }
}
