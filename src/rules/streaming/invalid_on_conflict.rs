//! An `ON CONFLICT` clause Flink rejects.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::plan::PipelineProblem;
use crate::semantic::problems::{Found, Problem};

/// An `ON CONFLICT` into a sink that is not an upsert sink, or `DO ERROR` / `DO NOTHING`
/// over a source without a watermark.
pub struct InvalidOnConflict;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &InvalidOnConflict;

impl Rule for InvalidOnConflict {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(
            problem,
            Problem::Pipeline(
                PipelineProblem::OnConflictNotUpsert { .. }
                    | PipelineProblem::OnConflictWithoutWatermark { .. }
            )
        )
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::Pipeline(p) = &found.problem else {
            return;
        };
        let d = match p {
            PipelineProblem::OnConflictNotUpsert {
                span,
                sink_span,
                sink,
            } => {
                let table = sink.rsplit('.').next().unwrap_or(sink);
                out.diagnostic(
                    found.file,
                    *span,
                    format!("ON CONFLICT into `{table}`, which receives only inserts here: the clause is only allowed for upsert sinks"),
                )
                .with_label("not an upsert sink")
                .with_related(found.file, *sink_span, "an append-only sink for this query")
                .with_help("remove the ON CONFLICT clause: an insert-only write has no conflicts to resolve")
            }
            PipelineProblem::OnConflictWithoutWatermark {
                span,
                behavior,
                sources,
            } => {
                let names: Vec<&str> = sources
                    .iter()
                    .map(|s| s.rsplit('.').next().unwrap_or(s))
                    .collect();
                out.diagnostic(
                    found.file,
                    *span,
                    format!("ON CONFLICT DO {behavior} needs a WATERMARK on every source table, and `{}` has none", names.join("`, `")),
                )
                .with_label("needs watermarks on every source")
                .with_help("declare a WATERMARK on these tables, or use ON CONFLICT DO DEDUPLICATE, which needs none")
            }
            _ => return,
        };
        let d = match p.flink_message() {
            Some(m) => d.with_flink_message(m),
            None => d,
        };
        out.report(d);
    }
}
