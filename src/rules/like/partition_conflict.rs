//! LK008: partitions are inherited from the parent (PARTITIONS is INCLUDING).

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::Problem;
use crate::syntax::ast::{FeatureOption, MergingStrategy};

/// Reports the derived clause that clashes with the inherited one.
pub struct PartitionConflict;

impl Rule for PartitionConflict {
    fn code(&self) -> &'static str {
        "LK008"
    }
    fn check(&self, ctx: &Context<'_>, report: &mut Reporter<'_>) {
        for found in ctx.problems(self.code()) {
            let Problem::PartitionConflict { span, parent } = &found.problem else {
                continue;
            };
            let d = report
                .diagnostic(found.file, *span, "partitions are inherited from the parent (PARTITIONS is INCLUDING)")
                .with_related(parent.file, parent.span, "the parent's partitions")
                .with_help(format!("{} to use this table's partitions", super::strategy_help(super::like_options(ctx, found), FeatureOption::Partitions, MergingStrategy::Excluding)))
                .with_flink_message("The base table already has partitions defined. You might want to specify EXCLUDING PARTITIONS.");
            report.report(d.with_notes(&found.diff));
        }
    }
}
