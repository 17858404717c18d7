//! A non-deterministic function computing a column of an update stream, under the
//! `TRY_RESOLVE` strategy.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::plan::PipelineProblem;
use crate::semantic::problems::{Found, Problem};

/// A non-deterministic function over an update stream, under `TRY_RESOLVE`.
pub struct NonDeterministicUpdate;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &NonDeterministicUpdate;

impl Rule for NonDeterministicUpdate {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(
            problem,
            Problem::Pipeline(PipelineProblem::NonDeterministicUpdate { .. })
        )
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::Pipeline(
            p @ PipelineProblem::NonDeterministicUpdate {
                span,
                function,
                producer,
                ..
            },
        ) = &found.problem
        else {
            return;
        };
        let mut d = out
            .diagnostic(
                found.file,
                *span,
                format!("{function} is evaluated again for every update the {producer} emits: its retractions do not match the rows they take back, and the TRY_RESOLVE strategy rejects it"),
            )
            .with_label("non-deterministic over an update stream")
            .with_help("compute the value before the update stream (inside the aggregate, e.g. MAX(NOW())), drop the column, or write into a sink whose PRIMARY KEY is the query's key (its GROUP BY columns)");
        if let Some(m) = p.flink_message() {
            d = d.with_flink_message(m);
        }
        out.report(d);
    }
}
