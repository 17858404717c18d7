//! A WITH option the parent has, while OPTIONS is INCLUDING.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Found, Problem};
use crate::syntax::ast::{FeatureOption, MergingStrategy};

/// Reports derived options that clash with inherited ones.
pub struct OptionKeyConflict;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &OptionKeyConflict;

impl Rule for OptionKeyConflict {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::OptionKeyConflict { .. })
    }
    fn report(&self, ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::OptionKeyConflict {
            span,
            key,
            parent_value,
            parent,
            parent_name,
            via_all,
        } = &found.problem
        else {
            return;
        };
        let how = super::strategy_help(
            super::like_options(ctx, found),
            FeatureOption::Options,
            MergingStrategy::Overwriting,
        );
        let help = if *via_all {
            format!("INCLUDING ALL also makes OPTIONS INCLUDING: {how} to replace the parent's value")
        } else {
            format!("{how} to replace the parent's value (or use EXCLUDING OPTIONS to drop the parent's options)")
        };
        let d = out
            .diagnostic(
                found.file,
                *span,
                format!("option '{key}' is already set by `{}` to '{parent_value}' and OPTIONS is INCLUDING", parent_name.object),
            )
            .with_label("conflicts with the inherited option")
            .with_related(parent.file, parent.span, format!("'{key}' = '{parent_value}' in the parent"))
            .with_help(help)
            .with_flink_message(format!(
                "There already exists an option ['{key}' -> '{parent_value}']  in the base table. You might want to specify EXCLUDING OPTIONS or OVERWRITING OPTIONS."
            ));
        out.report(d.with_notes(&found.diff));
    }
}
