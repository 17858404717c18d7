//! The LIKE parent is a view or a materialized table.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Found, Problem};

/// Reports a LIKE source that is not a table.
pub struct LikeSourceIsView;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &LikeSourceIsView;

impl Rule for LikeSourceIsView {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::LikeSourceIsView { .. })
    }
    fn report(&self, ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::LikeSourceIsView { span, name, source } = &found.problem else {
            return;
        };
        let kind = source.def.kind_name();
        let at = ctx.flink_position(found.file, found.statement, span.start);
        let d = out
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
        out.report(d.with_notes(&found.diff));
    }
}
