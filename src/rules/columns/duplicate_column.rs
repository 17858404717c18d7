//! The same name twice in one column list.

use super::flink_clash_message;
use crate::diagnostics::Severity;
use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Found, Problem};

/// Reports a column declared twice in one CREATE statement, with Flink's kind-specific message;
/// a view whose columns repeat a name; and, as warnings, the repeats Flink accepts silently in
/// a CTAS or materialized table (renamed `x0`, or collapsed into one column).
pub struct DuplicateColumn;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &DuplicateColumn;

impl Rule for DuplicateColumn {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::DuplicateColumn { .. } | Problem::DuplicateViewColumn { .. } | Problem::RenamedQueryColumn { .. } | Problem::CollapsedColumnList { .. } | Problem::EvolvedDuplicate { .. })
    }
    fn report(&self, ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let d = match &found.problem {
            Problem::DuplicateColumn {
                span,
                name,
                first,
                first_kind,
                second_kind,
            } => {
                let message = if first_kind == second_kind {
                    format!("column `{name}` is declared twice")
                } else {
                    format!(
                        "column `{name}` is declared twice: as a {} and as a {} column",
                        first_kind.as_str(),
                        second_kind.as_str()
                    )
                };
                out
                    .diagnostic(found.file, *span, message)
                    .with_label("clashes with another declaration")
                    .with_related(
                        first.file,
                        first.span,
                        format!("`{name}` is also declared here"),
                    )
                    .with_help("remove one declaration or rename one of the columns")
                    .with_flink_message(flink_clash_message(
                        name,
                        *first_kind,
                        *second_kind,
                        false,
                    ))
            }
            Problem::DuplicateViewColumn {
                span,
                name,
                first,
                flink_at,
            } => out
                .diagnostic(
                    found.file,
                    *span,
                    format!("the view has two columns named `{name}`"),
                )
                .with_label("second column of this name")
                .with_related(first.file, first.span, format!("first `{name}`"))
                .with_help(format!(
                    "give one of the columns another name (`AS {name}_2`): unlike CREATE TABLE ... AS, a view does not rename repeated columns"
                ))
                .with_flink_message(format!(
                    "A column with the same name `{name}` has been defined at {}.",
                    ctx.flink_position(found.file, found.statement, *flink_at)
                )),
            Problem::RenamedQueryColumn {
                span,
                name,
                renamed,
                first,
                statement,
            } => out
                .diagnostic_with(
                    Severity::Warning,
                    found.file,
                    *span,
                    format!(
                        "{statement}: the select list repeats `{name}`; Flink stores this column as `{renamed}`"
                    ),
                )
                .with_label(format!("becomes `{renamed}`"))
                .with_related(first.file, first.span, format!("first `{name}`"))
                .with_help(format!(
                    "give the column the name you want with an alias (`AS {renamed}` keeps today's name explicitly)"
                )),
            Problem::CollapsedColumnList {
                span,
                name,
                first,
                identifiers,
            } => {
                let what = if *identifiers {
                    format!("Flink keeps one `{name}` and stores only the listed columns, dropping the query's other columns from the schema")
                } else {
                    format!("Flink keeps one column `{name}`")
                };
                out
                    .diagnostic_with(
                        Severity::Warning,
                        found.file,
                        *span,
                        format!("column `{name}` is listed twice: {what}"),
                    )
                    .with_label("listed again")
                    .with_related(first.file, first.span, format!("first `{name}`"))
                    .with_help("list each column once")
            }
            Problem::EvolvedDuplicate {
                span,
                name,
                existing,
                existing_kind,
            } => out
                .diagnostic(
                    found.file,
                    *span,
                    format!(
                        "the new query adds a column `{name}`, but the materialized table keeps its {} column `{name}`",
                        existing_kind.as_str()
                    ),
                )
                .with_label("appended column")
                .with_related(
                    existing.file,
                    existing.span,
                    format!("{} column `{name}`", existing_kind.as_str()),
                )
                .with_help("give the query's column another name")
                .with_flink_message(format!(
                    "Schema must not contain duplicate column names. Found duplicates: [{name}]"
                )),
            _ => return,
        };
        out.report(d);
    }
}
