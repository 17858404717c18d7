//! A streaming ORDER BY or a MATCH_RECOGNIZE's ORDER BY whose first key is not an ascending
//! time attribute.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::plan::StreamProblem;
use crate::semantic::problems::{Found, Problem};

/// A sort Flink cannot run on a stream.
pub struct SortNotOnTimeAttribute;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &SortNotOnTimeAttribute;

impl Rule for SortNotOnTimeAttribute {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(
            problem,
            Problem::Streaming(StreamProblem::SortNotOnTime { .. })
        )
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::Streaming(
            p @ StreamProblem::SortNotOnTime {
                span,
                column,
                descending,
                match_recognize,
            },
        ) = &found.problem
        else {
            return;
        };
        let what = if column.is_empty() {
            "an expression".to_string()
        } else {
            format!("`{column}`")
        };
        let clause = if *match_recognize {
            "MATCH_RECOGNIZE ordered"
        } else {
            "streaming query sorted"
        };
        let (message, label) = if *descending {
            (
                format!("{clause} first by time attribute {what} descending: a stream is sorted ascending on time"),
                "descending",
            )
        } else {
            (
                format!("{clause} first by {what}, which is not a time attribute"),
                "not a time attribute",
            )
        };
        let help = if *match_recognize {
            "order MATCH_RECOGNIZE first by an ascending rowtime or PROCTIME() column passed through unchanged; other columns may follow"
        } else {
            "sort first by an ascending rowtime or PROCTIME() column (other keys may follow), add a LIMIT for a Top-N, or leave the ordering to the sink"
        };
        let d = out
            .diagnostic(found.file, *span, message)
            .with_label(label)
            .with_help(help)
            .with_flink_message(p.flink_message());
        out.report(d);
    }
}
