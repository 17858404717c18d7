//! OVER aggregates of one SELECT over different windows, or an OVER window ordered
//! descending, by several keys or by none, or with a frame that does not end at the current
//! row.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::plan::StreamProblem;
use crate::semantic::problems::{Found, Problem};

/// OVER windows a streaming OVER aggregate cannot compute.
pub struct OverWindowUnsupported;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &OverWindowUnsupported;

impl Rule for OverWindowUnsupported {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(
            problem,
            Problem::Streaming(
                StreamProblem::OverWindowsDiffer { .. }
                    | StreamProblem::OverDescending { .. }
                    | StreamProblem::OverOrderKeys { .. }
                    | StreamProblem::OverFollowing { .. }
                    | StreamProblem::OverUnordered { .. }
            )
        )
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::Streaming(p) = &found.problem else {
            return;
        };
        let d = match p {
            StreamProblem::OverWindowsDiffer { span, first } => out
                .diagnostic(
                    found.file,
                    *span,
                    "this OVER window differs from another of the same SELECT: a streaming query computes all its OVER aggregates on one window",
                )
                .with_label("a second window")
                .with_related(found.file, *first, "the first window")
                .with_help("give every OVER aggregate of the SELECT the same PARTITION BY and ORDER BY (a WINDOW clause helps), or compute the others in a subquery or a second query"),
            StreamProblem::OverDescending { span } => out
                .diagnostic(
                    found.file,
                    *span,
                    "OVER window ordered descending: a streaming OVER aggregate is ordered ascending on a time attribute",
                )
                .with_label("descending")
                .with_help("order the window ascending (remove DESC)"),
            StreamProblem::OverOrderKeys { span } => out
                .diagnostic(
                    found.file,
                    *span,
                    "OVER window ordered by more than one key: a streaming OVER aggregate is ordered by one time attribute",
                )
                .with_label("a second ORDER BY key")
                .with_help("order the window by its time attribute alone"),
            StreamProblem::OverUnordered { span } => out
                .diagnostic(
                    found.file,
                    *span,
                    "OVER window without ORDER BY: a streaming OVER aggregate is ordered by one time attribute",
                )
                .with_label("no ORDER BY")
                .with_help("order the window by the input's rowtime or proctime (`ORDER BY ts`), or compute the aggregate with GROUP BY and join it back"),
            StreamProblem::OverFollowing { span } => out
                .diagnostic(
                    found.file,
                    *span,
                    "OVER window frame that does not end at the current row: a streaming OVER aggregate cannot wait for rows that follow",
                )
                .with_label("not `... PRECEDING AND CURRENT ROW`")
                .with_help("end the frame at CURRENT ROW (`ROWS BETWEEN n PRECEDING AND CURRENT ROW`, `RANGE BETWEEN INTERVAL ... PRECEDING AND CURRENT ROW`), or compute later rows with a join"),
            _ => return,
        };
        let d = d.with_flink_message(p.flink_message());
        out.report(d);
    }
}
