//! A distribution is inherited from the parent (DISTRIBUTION is INCLUDING).

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Found, Problem};
use crate::syntax::ast::{FeatureOption, MergingStrategy};

/// Reports the derived clause that clashes with the inherited one.
pub struct DistributionConflict;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &DistributionConflict;

impl Rule for DistributionConflict {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::DistributionConflict { .. })
    }
    fn report(&self, ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::DistributionConflict { span, parent } = &found.problem else {
            return;
        };
        let d = out
            .diagnostic(found.file, *span, "a distribution is inherited from the parent (DISTRIBUTION is INCLUDING)")
            .with_related(parent.file, parent.span, "the parent's distribution")
            .with_help(format!("{} to use this table's distribution", super::strategy_help(super::like_options(ctx, found), FeatureOption::Distribution, MergingStrategy::Excluding)))
            .with_flink_message("The base table already has a distribution defined. You might want to specify EXCLUDING DISTRIBUTION.");
        out.report(d.with_notes(&found.diff));
    }
}
