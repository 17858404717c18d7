//! The LIKE parent is not in the session's catalog.

use crate::rules::catalog::{did_you_mean, not_created_help};
use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Found, Problem};

/// Reports a LIKE source nothing the run reads creates (a warning: it may live in an external
/// catalog).
pub struct LikeSourceNotFound;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &LikeSourceNotFound;

impl Rule for LikeSourceNotFound {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::LikeSourceNotFound { .. })
    }
    fn report(&self, ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::LikeSourceNotFound {
            span,
            name,
            similar,
        } = &found.problem
        else {
            return;
        };
        let at = ctx.flink_position(found.file, found.statement, span.start);
        let help = did_you_mean(similar).unwrap_or_else(|| not_created_help(ctx, "the parent"));
        let d = out
            .diagnostic(
                found.file,
                *span,
                format!(
                    "LIKE source `{}` is not defined in this session",
                    name.dotted()
                ),
            )
            .with_label("not defined in this session")
            .with_help(help)
            .with_flink_message(format!(
                "Source table '{name}' of the LIKE clause not found in the catalog, at {at}"
            ));
        out.report(d.with_notes(&found.diff));
    }
}
