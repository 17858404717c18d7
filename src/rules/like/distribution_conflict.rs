//! LK009: a distribution is inherited from the parent (DISTRIBUTION is INCLUDING).

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::Problem;
use crate::syntax::ast::{FeatureOption, MergingStrategy};

/// Reports the derived clause that clashes with the inherited one.
pub struct DistributionConflict;

impl Rule for DistributionConflict {
    fn code(&self) -> &'static str {
        "LK009"
    }
    fn check(&self, ctx: &Context<'_>, report: &mut Reporter<'_>) {
        for found in ctx.problems(self.code()) {
            let Problem::DistributionConflict { span, parent } = &found.problem else {
                continue;
            };
            let d = report
                .diagnostic(found.file, *span, "a distribution is inherited from the parent (DISTRIBUTION is INCLUDING)")
                .with_related(parent.file, parent.span, "the parent's distribution")
                .with_help(format!("{} to use this table's distribution", super::strategy_help(super::like_options(ctx, found), FeatureOption::Distribution, MergingStrategy::Excluding)))
                .with_flink_message("The base table already has a distribution defined. You might want to specify EXCLUDING DISTRIBUTION.");
            report.report(d.with_notes(&found.diff));
        }
    }
}
