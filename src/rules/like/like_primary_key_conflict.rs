//! A primary key is inherited from the parent (CONSTRAINTS is INCLUDING).

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Found, Problem};
use crate::syntax::ast::{FeatureOption, MergingStrategy};

/// Reports the derived clause that clashes with the inherited one.
pub struct PrimaryKeyConflict;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &PrimaryKeyConflict;

impl Rule for PrimaryKeyConflict {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::PrimaryKeyConflict { .. })
    }
    fn report(&self, ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::PrimaryKeyConflict { span, parent } = &found.problem else {
            return;
        };
        let d = out
            .diagnostic(found.file, *span, "a primary key is inherited from the parent (CONSTRAINTS is INCLUDING)")
            .with_related(parent.file, parent.span, "the parent's primary key")
            .with_help(format!("{} to replace the parent's primary key", super::strategy_help(super::like_options(ctx, found), FeatureOption::Constraints, MergingStrategy::Excluding)))
            .with_flink_message("The base table already has a primary key. You might want to specify EXCLUDING CONSTRAINTS.");
        out.report(d.with_notes(&found.diff));
    }
}
