//! CL001 duplicate-column: the same name twice in one column list.

use super::flink_clash_message;
use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::Problem;

/// Reports a column declared twice in one CREATE statement, with Flink's kind-specific message.
pub struct DuplicateColumn;

impl Rule for DuplicateColumn {
    fn code(&self) -> &'static str {
        "CL001"
    }
    fn check(&self, ctx: &Context<'_>, report: &mut Reporter<'_>) {
        for found in ctx.problems(self.code()) {
            let Problem::DuplicateColumn {
                span,
                name,
                first,
                first_kind,
                second_kind,
            } = &found.problem
            else {
                continue;
            };
            let message = if first_kind == second_kind {
                format!("column `{name}` is declared twice")
            } else {
                format!(
                    "column `{name}` is declared twice: as a {} and as a {} column",
                    first_kind.as_str(),
                    second_kind.as_str()
                )
            };
            let d = report
                .diagnostic(found.file, *span, message)
                .with_label("clashes with another declaration")
                .with_related(
                    first.file,
                    first.span,
                    format!("`{name}` is also declared here"),
                )
                .with_help("remove one declaration or rename one of the columns")
                .with_flink_message(flink_clash_message(name, *first_kind, *second_kind, false));
            report.report(d);
        }
    }
}
