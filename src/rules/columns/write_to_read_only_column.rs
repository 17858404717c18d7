//! CL007 write-to-read-only-column: an INSERT writing a computed, virtual metadata or system
//! column (flink-spec §5; verified in `fixtures/oracle/columns` 076-080).

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Problem, ReadOnly};

/// Reports an INSERT whose target column list names a read-only column, or whose query
/// supplies one by name where the sink has no column for it (the query then has one column
/// too many, and CL011 is not reported).
pub struct WriteToReadOnlyColumn;

impl Rule for WriteToReadOnlyColumn {
    fn code(&self) -> &'static str {
        "CL007"
    }
    fn check(&self, ctx: &Context<'_>, report: &mut Reporter<'_>) {
        for found in ctx.problems(self.code()) {
            let Problem::WriteToReadOnly {
                span,
                column,
                kind,
                declared,
                in_list,
                table,
                flink,
            } = &found.problem
            else {
                continue;
            };
            let t = &table.object;
            let what = kind.as_str();
            let message = if *in_list {
                format!(
                    "INSERT INTO `{t}` names `{column}`, a {what} column, which cannot be written"
                )
            } else {
                format!(
                    "the query supplies `{column}`, but `{column}` is a {what} column of `{t}`, which cannot be written"
                )
            };
            let why = match kind {
                ReadOnly::Computed => "computed columns are derived on read",
                ReadOnly::VirtualMetadata => "VIRTUAL metadata columns are read-only",
                ReadOnly::System => "system columns are read-only",
            };
            let help = if *in_list {
                format!(
                    "{why}: remove `{column}` from the column list (and its value from the query)"
                )
            } else {
                format!("{why} and not part of the sink's columns: remove `{column}` from the select list")
            };
            let mut d = report
                .diagnostic(found.file, *span, message)
                .with_label(format!("{what} column"))
                .with_help(help)
                .with_flink_message(flink.clone());
            if let Some(o) = declared {
                d = d.with_related(o.file, o.span, format!("`{column}` is declared here"));
            }
            report.report(d);
        }
    }
}
