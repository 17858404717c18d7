//! A like feature named twice.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Found, Problem};

/// Reports `LIKE src (INCLUDING OPTIONS EXCLUDING OPTIONS)` and the like.
pub struct DuplicateLikeOption;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &DuplicateLikeOption;

impl Rule for DuplicateLikeOption {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::DuplicateLikeOption { .. })
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::DuplicateLikeOption {
            span,
            first,
            feature,
        } = &found.problem
        else {
            return;
        };
        let d = out
            .diagnostic(
                found.file,
                *span,
                format!("like feature {} is declared twice", feature.as_str()),
            )
            .with_related(found.file, *first, "first declared here")
            .with_help(format!("keep one option for {}", feature.as_str()))
            .with_flink_message("Each like option feature can be declared only once.");
        out.report(d.with_notes(&found.diff));
    }
}
