//! A derived watermark clashing with the inherited one, or two watermarks after the merge.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Found, Problem};
use crate::syntax::ast::{FeatureOption, MergingStrategy};

/// Reports watermark conflicts of a LIKE merge.
pub struct WatermarkConflict;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &WatermarkConflict;

impl Rule for WatermarkConflict {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::WatermarkConflict { .. } | Problem::MultipleWatermarks { .. })
    }
    fn report(&self, ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let d = match &found.problem {
            Problem::WatermarkConflict { span, column, parent } => out
                .diagnostic(found.file, *span, format!("a watermark for `{column}` is inherited from the parent"))
                .with_related(parent.file, parent.span, "the parent's watermark")
                .with_help(format!(
                    "{} to replace the parent's watermark",
                    super::strategy_help(super::like_options(ctx, found), FeatureOption::Watermarks, MergingStrategy::Overwriting)
                ))
                .with_flink_message(format!(
                    "There already exists a watermark spec for column '{column}' in the base table. You might want to specify EXCLUDING WATERMARKS or OVERWRITING WATERMARKS."
                )),
            Problem::MultipleWatermarks { span, parent } => out
                .diagnostic(found.file, *span, "the merged table would have two watermarks: this one and the parent's on another column")
                .with_related(parent.file, parent.span, "the inherited watermark")
                .with_help(format!(
                    "{} to drop the parent's watermark, or declare this watermark on the parent's rowtime column",
                    super::strategy_help(super::like_options(ctx, found), FeatureOption::Watermarks, MergingStrategy::Excluding)
                ))
                .with_flink_message("Multiple watermark definitions are not supported yet."),
            _ => return,
        };
        out.report(d.with_notes(&found.diff));
    }
}
