//! An upsert sink whose primary key contains no upsert key of the query, without
//! `ON CONFLICT` (Flink 2.3).

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::plan::PipelineProblem;
use crate::semantic::problems::{Found, Problem};

/// An upsert sink whose primary key contains no upsert key of the query.
pub struct UpsertKeyDiffersFromPrimaryKey;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &UpsertKeyDiffersFromPrimaryKey;

impl Rule for UpsertKeyDiffersFromPrimaryKey {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(
            problem,
            Problem::Pipeline(PipelineProblem::UpsertKeyDiffers { .. })
        )
    }
    fn report(&self, ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        // The requirement is new in Flink 2.3 (FLIP-558); earlier versions materialize.
        if !ctx.target(found.file).at_least(2, 3) {
            return;
        }
        let Problem::Pipeline(
            p @ PipelineProblem::UpsertKeyDiffers {
                span,
                sink,
                primary_key_at,
                primary_key,
                upsert_key,
                insert_only,
            },
        ) = &found.problem
        else {
            return;
        };
        let table = sink.rsplit('.').next().unwrap_or(sink);
        let keys = match upsert_key.as_str() {
            "none" | "" => "the query has no upsert key".to_string(),
            k => format!("the query's upsert key is {k}"),
        };
        let help = if *insert_only {
            "add ON CONFLICT DO DEDUPLICATE (the latest row wins; free for an insert-only query), ON CONFLICT DO NOTHING (the first row wins) or ON CONFLICT DO ERROR (fail on a conflict; both need a WATERMARK on every source), or make the sink's PRIMARY KEY a key of the query"
        } else {
            "add ON CONFLICT DO DEDUPLICATE (the latest row wins; keeps every row's history in state), ON CONFLICT DO NOTHING (the first row wins) or ON CONFLICT DO ERROR (fail on a conflict; both need a WATERMARK on every source), or make the sink's PRIMARY KEY a key of the query (its GROUP BY columns)"
        };
        let mut d = out
            .diagnostic(
                found.file,
                *span,
                format!("`{table}` upserts by its primary key {primary_key}, but {keys}: rows of different keys may overwrite each other, and Flink 2.3 asks for ON CONFLICT"),
            )
            .with_label("upsert sink without ON CONFLICT")
            .with_help(help);
        if let Some(at) = primary_key_at {
            d = d.with_related(at.file, at.span, "the sink's primary key");
        }
        if let Some(m) = p.flink_message() {
            d = d.with_flink_message(m);
        }
        out.report(d);
    }
}
