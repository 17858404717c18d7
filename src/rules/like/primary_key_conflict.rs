//! LK007: a primary key is inherited from the parent (CONSTRAINTS is INCLUDING).

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::Problem;
use crate::syntax::ast::{FeatureOption, MergingStrategy};

/// Reports the derived clause that clashes with the inherited one.
pub struct PrimaryKeyConflict;

impl Rule for PrimaryKeyConflict {
    fn code(&self) -> &'static str {
        "LK007"
    }
    fn check(&self, ctx: &Context<'_>, report: &mut Reporter<'_>) {
        for found in ctx.problems(self.code()) {
            let Problem::PrimaryKeyConflict { span, parent } = &found.problem else {
                continue;
            };
            let d = report
                .diagnostic(found.file, *span, "a primary key is inherited from the parent (CONSTRAINTS is INCLUDING)")
                .with_related(parent.file, parent.span, "the parent's primary key")
                .with_help(format!("{} to replace the parent's primary key", super::strategy_help(super::like_options(ctx, found), FeatureOption::Constraints, MergingStrategy::Excluding)))
                .with_flink_message("The base table already has a primary key. You might want to specify EXCLUDING CONSTRAINTS.");
            report.report(d.with_notes(&found.diff));
        }
    }
}
