//! A metadata column whose key the table's source cannot read.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::options::OptionIssue;
use crate::semantic::problems::{Found, Problem};

/// Reports metadata keys a connector's source (and its value format) does not offer.
pub struct UnknownMetadataKey;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &UnknownMetadataKey;

impl Rule for UnknownMetadataKey {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(
            problem,
            Problem::ConnectorOption {
                issue: OptionIssue::UnknownMetadata { .. },
                ..
            }
        )
    }
    fn report(&self, ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        if !super::applies(ctx, found.file) {
            return;
        }
        let Problem::ConnectorOption {
            issue:
                OptionIssue::UnknownMetadata {
                    key,
                    column,
                    origin,
                    connector,
                    class,
                    supported,
                    similar,
                    reads_none,
                },
            table,
            used: Some(used),
        } = &found.problem
        else {
            return;
        };
        let list = supported
            .iter()
            .map(|k| format!("'{k}'"))
            .collect::<Vec<_>>()
            .join(", ");
        if *reads_none {
            let d = out
                .diagnostic(
                    found.file,
                    used.span,
                    format!(
                        "the `{connector}` connector reads no metadata, but column `{column}` of table `{}` is a metadata column",
                        table.object
                    ),
                )
                .with_label("reads the table here")
                .with_related(
                    origin.file,
                    origin.span,
                    format!("metadata column (in `{}`)", table.object),
                )
                .with_help("remove the metadata column, or make it a physical or computed column")
                .with_flink_message(format!(
                    "Table '{class}' declares metadata columns, but the underlying DynamicTableSource doesn't implement the SupportsReadingMetadata interface. Therefore, metadata cannot be read from the given source."
                ));
            out.report(d);
            return;
        }
        let help = match similar {
            Some(s) => format!("did you mean '{s}'? The keys it can read: {list}"),
            None => format!("the keys the `{connector}` connector can read: {list}"),
        };
        let d = out
            .diagnostic(
                found.file,
                used.span,
                format!(
                    "the `{connector}` connector cannot read the metadata key '{key}' of column `{column}` in table `{}`",
                    table.object
                ),
            )
            .with_label("reads the table here")
            .with_related(
                origin.file,
                origin.span,
                format!("metadata column (in `{}`)", table.object),
            )
            .with_help(help)
            .with_flink_message(format!(
                "Invalid metadata key '{key}' in column '{column}' of table '{}.{}.{}'. The DynamicTableSource class '{class}' supports the following metadata keys for reading:\n{}",
                table.catalog,
                table.database,
                table.object,
                supported
                    .iter()
                    .map(|k| k.as_str())
                    .collect::<Vec<_>>()
                    .join("\n")
            ));
        out.report(d);
    }
}
