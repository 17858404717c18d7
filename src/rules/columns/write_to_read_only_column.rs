//! An INSERT writing a computed, virtual metadata or system column (flink-spec §5; verified in
//! `fixtures/oracle/columns` 076-080).

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Found, Problem, ReadOnly};

/// Reports an INSERT whose target column list names a read-only column, or whose query
/// supplies one by name where the sink has no column for it (the query then has one column
/// too many, and CL011 is not reported).
pub struct WriteToReadOnlyColumn;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &WriteToReadOnlyColumn;

impl Rule for WriteToReadOnlyColumn {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::WriteToReadOnly { .. })
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
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
            return;
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
        let mut d = out
            .diagnostic(found.file, *span, message)
            .with_label(format!("{what} column"))
            .with_help(help)
            .with_flink_message(flink.clone());
        if let Some(o) = declared {
            d = d.with_related(o.file, o.span, format!("`{column}` is declared here"));
        }
        out.report(d);
    }
}
