//! LK001 duplicate-like-option: a like feature named twice.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::Problem;

/// Reports `LIKE src (INCLUDING OPTIONS EXCLUDING OPTIONS)` and the like.
pub struct DuplicateLikeOption;

impl Rule for DuplicateLikeOption {
    fn code(&self) -> &'static str {
        "LK001"
    }
    fn check(&self, ctx: &Context<'_>, report: &mut Reporter<'_>) {
        for found in ctx.problems(self.code()) {
            let Problem::DuplicateLikeOption {
                span,
                first,
                feature,
            } = &found.problem
            else {
                continue;
            };
            let d = report
                .diagnostic(
                    found.file,
                    *span,
                    format!("like feature {} is declared twice", feature.as_str()),
                )
                .with_related(found.file, *first, "first declared here")
                .with_help(format!("keep one option for {}", feature.as_str()))
                .with_flink_message("Each like option feature can be declared only once.");
            report.report(d.with_notes(&found.diff));
        }
    }
}
