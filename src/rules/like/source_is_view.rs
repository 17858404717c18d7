//! LK004 like-source-is-view: the LIKE parent is a view or a materialized table.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::Problem;

/// Reports a LIKE source that is not a table.
pub struct LikeSourceIsView;

impl Rule for LikeSourceIsView {
    fn code(&self) -> &'static str {
        "LK004"
    }
    fn check(&self, ctx: &Context<'_>, report: &mut Reporter<'_>) {
        for found in ctx.problems(self.code()) {
            let Problem::LikeSourceIsView { span, name, source } = &found.problem else {
                continue;
            };
            let kind = source.def.kind_name();
            let at = ctx.flink_position(found.file, found.statement, span.start);
            let d = report
                .diagnostic(
                    found.file,
                    *span,
                    format!(
                        "LIKE source `{}` is a {kind}; only tables can be LIKE sources",
                        name.dotted()
                    ),
                )
                .with_related(
                    source.name_origin.file,
                    source.name_origin.span,
                    format!("`{}` is defined as a {kind} here", name.object),
                )
                .with_help(
                    "derive from the table the view reads, or declare the columns explicitly",
                )
                .with_flink_message(format!(
                    "Source table '{name}' of the LIKE clause can not be a VIEW, at {at}"
                ));
            report.report(d.with_notes(&found.diff));
        }
    }
}
