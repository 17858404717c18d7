//! Updates or deletes written into a sink that accepts only inserts.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::plan::StreamProblem;
use crate::semantic::problems::{Found, Problem};

/// Updates or deletes written into a sink that accepts only inserts.
pub struct UpdatesIntoInsertOnlySink;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &UpdatesIntoInsertOnlySink;

impl Rule for UpdatesIntoInsertOnlySink {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(
            problem,
            Problem::Streaming(StreamProblem::UpdatesIntoInsertOnlySink { .. })
        )
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::Streaming(
            p @ StreamProblem::UpdatesIntoInsertOnlySink {
                span,
                sink_span,
                sink,
                connector,
                changes,
                node,
                ..
            },
        ) = &found.problem
        else {
            return;
        };
        let table = sink.rsplit('.').next().unwrap_or(sink);
        let d = out
            .diagnostic(
                found.file,
                *span,
                format!("`{table}` ({connector}) accepts only inserts, but this {node} produces {changes} changes"),
            )
            .with_label(format!("{node}: produces {changes} changes"))
            .with_related(found.file, *sink_span, "the insert-only sink")
            .with_help("write into a sink that accepts updates (an upsert sink with a PRIMARY KEY, a changelog format such as debezium-json), or make the query insert-only (a window aggregate over TUMBLE/HOP/CUMULATE instead of a GROUP BY)")
            .with_flink_message(p.flink_message());
        out.report(d);
    }
}
