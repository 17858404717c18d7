//! OVER aggregates of one SELECT over different windows, or an OVER window ordered
//! descending.

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
                StreamProblem::OverWindowsDiffer { .. } | StreamProblem::OverDescending { .. }
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
            _ => return,
        };
        let d = d.with_flink_message(p.flink_message());
        out.report(d);
    }
}
