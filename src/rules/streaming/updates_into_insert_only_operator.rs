//! Updates or deletes fed to an operator that consumes only inserts.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::plan::StreamProblem;
use crate::semantic::problems::{Found, Problem};

/// Updates or deletes fed to an OVER aggregate, an interval join or MATCH_RECOGNIZE.
pub struct UpdatesIntoInsertOnlyOperator;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &UpdatesIntoInsertOnlyOperator;

impl Rule for UpdatesIntoInsertOnlyOperator {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(
            problem,
            Problem::Streaming(StreamProblem::UpdatesIntoInsertOnlyOperator { .. })
        )
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::Streaming(
            p @ StreamProblem::UpdatesIntoInsertOnlyOperator {
                span,
                consumer_span,
                requester,
                changes,
                node,
                ..
            },
        ) = &found.problem
        else {
            return;
        };
        let consumer = match *requester {
            "StreamPhysicalOverAggregate" => "an OVER aggregate",
            "StreamPhysicalIntervalJoin" => "an interval join",
            "Match Recognize" => "MATCH_RECOGNIZE",
            other => other,
        };
        let mut d = out
            .diagnostic(
                found.file,
                *span,
                format!("{consumer} consumes only inserts, but this {node} produces {changes} changes"),
            )
            .with_label(format!("{node}: produces {changes} changes"))
            .with_help("feed the operator an insert-only input: a window aggregate instead of a GROUP BY, a deduplication that keeps the first row, an append-only source");
        if consumer_span != span {
            d = d.with_related(found.file, *consumer_span, "consumes only inserts");
        }
        let d = d.with_flink_message(p.flink_message());
        out.report(d);
    }
}
