//! LK012 like-overrides-option: OVERWRITING changes a parent option's value.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::Problem;

/// Reports (as info) options the derived table overrides, old and new value.
pub struct LikeOverridesOption;

impl Rule for LikeOverridesOption {
    fn code(&self) -> &'static str {
        "LK012"
    }
    fn check(&self, ctx: &Context<'_>, report: &mut Reporter<'_>) {
        for found in ctx.problems(self.code()) {
            let Problem::OverridesOption {
                span,
                key,
                old,
                new,
                parent,
            } = &found.problem
            else {
                continue;
            };
            let d = report
                .diagnostic(found.file, *span, format!("option '{key}' overrides the parent's value: '{old}' becomes '{new}'"))
                .with_related(parent.file, parent.span, format!("the parent sets '{key}' = '{old}'"))
                .with_help("intended when deriving a table for another topic or path; check that the other inherited options still fit");
            report.report(d.with_notes(&found.diff));
        }
    }
}
