//! A regular join or GROUP BY over an unbounded stream without a state TTL.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::plan::PipelineProblem;
use crate::semantic::problems::{Found, Problem};

/// State that grows without bound.
pub struct UnboundedState;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &UnboundedState;

impl Rule for UnboundedState {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(
            problem,
            Problem::Pipeline(PipelineProblem::UnboundedState { .. })
        )
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::Pipeline(PipelineProblem::UnboundedState { span, node }) = &found.problem
        else {
            return;
        };
        let what = if *node == "Join" {
            "this regular join keeps every row of both sides"
        } else {
            "this GROUP BY keeps one accumulator per key"
        };
        let d = out
            .diagnostic(
                found.file,
                *span,
                format!("{what} for as long as the job runs: no state TTL is set in the session and the query has no STATE_TTL hint"),
            )
            .with_label(format!("{node}: state grows with every key"))
            .with_help("bound the state with SET 'table.exec.state.ttl' = '1 d' (the whole job) or a /*+ STATE_TTL('table' = '1d') */ hint (one operator); if the cluster's configuration sets the TTL, ignore this");
        out.report(d);
    }
}
