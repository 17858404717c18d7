//! LK003 like-source-not-found: the LIKE parent is not in the session's catalog.

use crate::rules::catalog::did_you_mean;
use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::Problem;

/// Reports a LIKE source no file defines (a warning: it may live in an external catalog).
pub struct LikeSourceNotFound;

impl Rule for LikeSourceNotFound {
    fn code(&self) -> &'static str {
        "LK003"
    }
    fn check(&self, ctx: &Context<'_>, report: &mut Reporter<'_>) {
        for found in ctx.problems(self.code()) {
            let Problem::LikeSourceNotFound {
                span,
                name,
                similar,
            } = &found.problem
            else {
                continue;
            };
            let at = ctx.flink_position(found.file, found.statement, span.start);
            let help = did_you_mean(similar).unwrap_or_else(|| {
                "if the parent lives in an external catalog, flinklint cannot merge it; otherwise declare it before this statement".to_string()
            });
            let d = report
                .diagnostic(
                    found.file,
                    *span,
                    format!(
                        "LIKE source `{}` is not defined in this session",
                        name.dotted()
                    ),
                )
                .with_label("not defined in this session")
                .with_help(help)
                .with_flink_message(format!(
                    "Source table '{name}' of the LIKE clause not found in the catalog, at {at}"
                ));
            report.report(d.with_notes(&found.diff));
        }
    }
}
