//! LK005 like-option-key-conflict: a WITH option the parent has, while OPTIONS is INCLUDING.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::Problem;
use crate::syntax::ast::{FeatureOption, MergingStrategy};

/// Reports derived options that clash with inherited ones.
pub struct OptionKeyConflict;

impl Rule for OptionKeyConflict {
    fn code(&self) -> &'static str {
        "LK005"
    }
    fn check(&self, ctx: &Context<'_>, report: &mut Reporter<'_>) {
        for found in ctx.problems(self.code()) {
            let Problem::OptionKeyConflict {
                span,
                key,
                parent_value,
                parent,
                parent_name,
                via_all,
            } = &found.problem
            else {
                continue;
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
            let d = report
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
            report.report(d.with_notes(&found.diff));
        }
    }
}
