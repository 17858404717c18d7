//! OVERWRITING for ALL, CONSTRAINTS, DISTRIBUTION, PARTITIONS.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Found, Problem};

/// Reports OVERWRITING on a feature that cannot be overwritten.
pub struct IllegalMergingStrategy;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &IllegalMergingStrategy;

impl Rule for IllegalMergingStrategy {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::IllegalMergingStrategy { .. })
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::IllegalMergingStrategy { span, feature } = &found.problem else {
            return;
        };
        let f = feature.as_str();
        let d = out
            .diagnostic(
                found.file,
                *span,
                format!("OVERWRITING is not a merging strategy for {f}"),
            )
            .with_help(format!("use INCLUDING {f} or EXCLUDING {f}"))
            .with_flink_message(format!(
                "Illegal merging strategy 'OVERWRITING' for '{f}' option."
            ));
        out.report(d.with_notes(&found.diff));
    }
}
