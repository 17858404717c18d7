//! Partitions are inherited from the parent (PARTITIONS is INCLUDING).

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Found, Problem};
use crate::syntax::ast::{FeatureOption, MergingStrategy};

/// Reports the derived clause that clashes with the inherited one.
pub struct PartitionConflict;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &PartitionConflict;

impl Rule for PartitionConflict {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::PartitionConflict { .. })
    }
    fn report(&self, ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::PartitionConflict { span, parent } = &found.problem else {
            return;
        };
        let d = out
            .diagnostic(found.file, *span, "partitions are inherited from the parent (PARTITIONS is INCLUDING)")
            .with_related(parent.file, parent.span, "the parent's partitions")
            .with_help(format!("{} to use this table's partitions", super::strategy_help(super::like_options(ctx, found), FeatureOption::Partitions, MergingStrategy::Excluding)))
            .with_flink_message("The base table already has partitions defined. You might want to specify EXCLUDING PARTITIONS.");
        out.report(d.with_notes(&found.diff));
    }
}
