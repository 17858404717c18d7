//! LK006 like-watermark-conflict: a derived watermark clashing with the inherited one, or two
//! watermarks after the merge.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::Problem;
use crate::syntax::ast::{FeatureOption, MergingStrategy};

/// Reports watermark conflicts of a LIKE merge.
pub struct WatermarkConflict;

impl Rule for WatermarkConflict {
    fn code(&self) -> &'static str {
        "LK006"
    }
    fn check(&self, ctx: &Context<'_>, report: &mut Reporter<'_>) {
        for found in ctx.problems(self.code()) {
            let d = match &found.problem {
                Problem::WatermarkConflict { span, column, parent } => report
                    .diagnostic(found.file, *span, format!("a watermark for `{column}` is inherited from the parent"))
                    .with_related(parent.file, parent.span, "the parent's watermark")
                    .with_help(format!(
                        "{} to replace the parent's watermark",
                        super::strategy_help(super::like_options(ctx, found), FeatureOption::Watermarks, MergingStrategy::Overwriting)
                    ))
                    .with_flink_message(format!(
                        "There already exists a watermark spec for column '{column}' in the base table. You might want to specify EXCLUDING WATERMARKS or OVERWRITING WATERMARKS."
                    )),
                Problem::MultipleWatermarks { span, parent } => report
                    .diagnostic(found.file, *span, "the merged table would have two watermarks: this one and the parent's on another column")
                    .with_related(parent.file, parent.span, "the inherited watermark")
                    .with_help(format!(
                        "{} to drop the parent's watermark, or declare this watermark on the parent's rowtime column",
                        super::strategy_help(super::like_options(ctx, found), FeatureOption::Watermarks, MergingStrategy::Excluding)
                    ))
                    .with_flink_message("Multiple watermark definitions are not supported yet."),
                _ => continue,
            };
            report.report(d.with_notes(&found.diff));
        }
    }
}
